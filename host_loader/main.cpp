// oshrun: run a libshmem program image on N PEs of a target (backends/registry.hpp lists them).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "backends/registry.hpp"
#include "core/backend.hpp"
#include "core/common.hpp"
#include "core/request.hpp"

using namespace oshrun;

namespace {

// The command line becomes one request; its target's backend checks and runs it.
int run(const std::vector<std::string>& args) {
    Request req = parse_cli(args);
    if (req.help) {
        std::fputs(usage().c_str(), stdout);
        return 0;
    }
    if (req.version) {
        std::fputs(version_text().c_str(), stdout);
        return 0;
    }
    const std::string name = req.target ? *req.target : default_target(req.program);
    const Backend* backend = find_backend(name);
    if (!backend) throw Failure("unknown target '" + name + "'; valid targets: " + target_names());
    const Target& target = *find_target(name);
    check_request(req, target, *backend, backends());
    complete_request(req, host_environment());
    const Image img = backend->load(target, req);
    return backend->run(target, img, req);
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const Failure& f) {
        std::fprintf(stderr, "oshrun: %s\n", f.what());
        return f.status;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "oshrun: %s\n", e.what());
        return 1;
    }
}
