#include "registry.hpp"

#include "epiphany/epiphany.hpp"
#include "linux/linux.hpp"
#include "tile/tile.hpp"
#include "virt-rv64/virt.hpp"

namespace oshrun {

namespace {

constexpr const char* kDefaultTarget = "virt-rv64";

}  // namespace

const std::vector<const Backend*>& backends() {
    static const VirtBackend virt;
    static const EpiphanyBackend epiphany;
    static const TileBackend tile;
    static const LinuxBackend linux_host;
    static const std::vector<const Backend*> list = {&virt, &epiphany, &tile, &linux_host};
    return list;
}

const Target* find_target(const std::string& name) {
    for (const Backend* b : backends())
        for (const Target& t : b->targets())
            if (name == t.name) return &t;
    return nullptr;
}

const Backend* find_backend(const std::string& name) {
    for (const Backend* b : backends())
        for (const Target& t : b->targets())
            if (name == t.name) return b;
    return nullptr;
}

std::string target_names() { return target_names(backends()); }

std::string default_target(const std::string& program) {
    for (const Backend* b : backends())
        if (const Target* t = b->claims(program)) return t->name;
    return kDefaultTarget;
}

std::string usage() {
    return usage(backends(), std::string("linux for a program of this host's machine, else ") + kDefaultTarget);
}

std::string version_text() { return version_text(backends()); }

}  // namespace oshrun
