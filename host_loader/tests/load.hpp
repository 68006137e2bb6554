// An image read as oshrun reads it for a target: through the target's backend (Backend::load), that is
// load_image's checks and the backend's own.
#pragma once

#include <string>

#include "backends/registry.hpp"
#include "core/image.hpp"
#include "core/request.hpp"

namespace oshrun_test {

inline oshrun::Image load(const std::string& path, const oshrun::Target& t) {
    oshrun::Request req;
    req.program = path;
    return oshrun::find_backend(t.name)->load(t, req);
}

}  // namespace oshrun_test
