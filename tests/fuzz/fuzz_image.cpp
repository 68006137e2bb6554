// libFuzzer target for oshrun's image reader and placement (host_loader/image.cpp, placement.cpp,
// epiphany_image.cpp, epiphany_plan.cpp): whatever file oshrun is given, it must refuse it with a message
// (Failure) or place it: never crash, read out of bounds, hang, or allocate more than a small multiple of the
// file's size (-malloc_limit_mb). Each input is tried as a virt-rv64 image placed for 1, 3 and 16 PEs, as an
// Epiphany-III image planned for 1 and 16 cores, and as a TILE-Gx and a TILEPro image (whose relocations oshrun reads
// and applies: host_loader/tile_image.cpp) planned for 1 and 7 tiles and relocated for PE 0. Built and run by scripts/fuzz.sh (clang, ASan + UBSan), with a seed
// corpus of valid and nearly valid images that fuzz_image_seeds writes (tests/fuzz/make_seeds.cpp).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common.hpp"
#include "epiphany.hpp"
#include "image.hpp"
#include "target.hpp"
#include "tile.hpp"

using namespace oshrun;

namespace {

// The input as a file: load_image reads a path (the file's size and type matter to it).
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    write_input(data, size);
    for (const char* name : {"virt-rv64", "epiphany-e16", "tilegx", "tilepro"}) {
        const Target& t = *find_target(name);
        try {
            const Image img = load_image(input_path(), t);
            if (is_tile_target(t)) {
                for (unsigned np : {1u, 7u}) {
                    PlaceRequest r;
                    r.npes = np;
                    r.argv = {"prog.elf", "an argument"};
                    r.env = {"SHMEM_DEBUG=1"};
                    try {
                        const TilePlan plan = plan_tile(t, img, r);
                        (void)relocate_tile_image(t, img, plan.pes.at(0).image);
                    } catch (const Failure&) {
                    }
                }
            } else if (t.place) {
                for (unsigned np : {1u, 3u, 16u}) {
                    PlaceRequest r;
                    r.npes = np;
                    r.argv = {"prog.elf", "an argument"};
                    r.env = {"SHMEM_DEBUG=1"};
                    try {
                        (void)t.place(t, img, r);
                    } catch (const Failure&) {
                    }
                }
            } else {
                for (unsigned np : {1u, 16u}) {
                    try {
                        (void)plan_epiphany(t, img, np, {"prog.elf", "an argument"});
                    } catch (const Failure&) {
                    }
                }
            }
        } catch (const Failure&) {
            // refused, with a message: what should happen to most inputs
        }
    }
    return 0;
}
