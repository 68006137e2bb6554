// libFuzzer target for oshrun's image reader and the backends' planners (core/image.cpp, the backends' load and
// plan_*): whatever file oshrun is given, it must refuse it with a message (Failure) or plan it: never crash, read
// out of bounds, hang, or allocate more than a small multiple of the file's size (-malloc_limit_mb). Each input is
// loaded as its backend loads it for virt-rv64, epiphany-e16, tilegx and tilepro, then planned: virt-rv64 for 1, 3
// and 16 PEs, Epiphany-III for 1 and 16 cores, TILE-Gx and TILEPro (whose relocations oshrun reads and applies:
// backends/tile/tile_image.cpp) for 1 and 7 tiles and relocated for PE 0. Built and run by scripts/fuzz.sh (clang,
// ASan + UBSan), with a seed corpus of valid and nearly valid images that fuzz_image_seeds writes
// (tests/fuzz/make_seeds.cpp).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "backends/epiphany/epiphany.hpp"
#include "backends/registry.hpp"
#include "backends/tile/tile.hpp"
#include "backends/virt-rv64/placement.hpp"
#include "core/common.hpp"
#include "core/image.hpp"
#include "core/request.hpp"

using namespace oshrun;

namespace {

// The input as a file: a backend's load reads a path (the file's size and type matter to it).
const std::string& input_path() {
    static const std::string path = [] {
        const char* tmp = std::getenv("TMPDIR");
        std::string p = std::string(tmp && *tmp ? tmp : "/tmp") + "/fuzz_image." + std::to_string(getpid()) + ".elf";
        return p;
    }();
    return path;
}

void write_input(const uint8_t* data, size_t size) {
    FILE* f = std::fopen(input_path().c_str(), "wb");
    if (!f) std::abort();
    if (size && std::fwrite(data, 1, size, f) != size) std::abort();
    std::fclose(f);
}

Request request(unsigned npes) {
    Request r;
    r.program = input_path();
    r.npes = npes;
    r.argv = {"prog.elf", "an argument"};
    r.env = {"SHMEM_DEBUG=1"};
    return r;
}

// Plans img for target `name` at every PE count above; a Failure is a refusal, which is fine.
void plan(const std::string& name, const Target& t, const Image& img) {
    const auto each = [](std::initializer_list<unsigned> counts, auto&& f) {
        for (unsigned np : counts) {
            try {
                f(request(np));
            } catch (const Failure&) {
            }
        }
    };
    if (name == "virt-rv64") {
        each({1u, 3u, 16u}, [&](const Request& r) { (void)plan_virt(t, img, r); });
    } else if (name == "epiphany-e16") {
        each({1u, 16u}, [&](const Request& r) { (void)plan_epiphany(t, img, r); });
    } else {
        each({1u, 7u}, [&](const Request& r) {
            const TilePlan p = plan_tile(t, img, r);
            (void)relocate_tile_image(t, img, p.pes.at(0).image);
        });
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    write_input(data, size);
    for (const char* name : {"virt-rv64", "epiphany-e16", "tilegx", "tilepro"}) {
        const Target& t = *find_target(name);
        try {
            plan(name, t, find_backend(name)->load(t, request(1)));
        } catch (const Failure&) {
            // refused, with a message: what should happen to most inputs
        }
    }
    return 0;
}
