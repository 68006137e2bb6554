#include "backend.hpp"

#include "common.hpp"

namespace oshrun {

const Target* Backend::claims(const std::string&) const { return nullptr; }

std::string target_names(const std::vector<const Backend*>& backends) {
    std::string names;
    for (const Backend* b : backends)
        for (const Target& t : b->targets()) names += (names.empty() ? "" : ", ") + std::string(t.name);
    return names;
}

std::string refusal(Option o, const Target& t, const std::vector<const Backend*>& backends) {
    std::string takers;
    for (const Backend* b : backends)
        if (b->takes(o))
            for (const Target& taker : b->targets()) takers += (takers.empty() ? "" : ", ") + std::string(taker.name);
    return std::string(option_name(o)) + " is an option of " + takers + "; " + t.name + " does not take it";
}

void check_request(const Request& req, const Target& t, const Backend& backend,
                   const std::vector<const Backend*>& backends) {
    if (req.npes < 1 || req.npes > t.max_pes)
        throw Failure("-np " + std::to_string(req.npes) + ": " + t.name + " runs 1 to " + std::to_string(t.max_pes) +
                      " PEs");
    for (Option o : kTargetOptions)
        if (req.gives(o) && !backend.takes(o)) throw Failure(refusal(o, t, backends));
}

}  // namespace oshrun
