// The Epiphany chip of a Parallella, driven from its ARM host. NOT RUN ON HARDWARE YET: written from the kernel
// driver (parallella/linux, drivers/misc/epiphany.c) and what e-hal and pal do with it; check it on a board.
//
// Assumptions, all from those sources:
//   - mmap() of /dev/epiphany/mesh0 takes an Epiphany global address as its offset. For a core, the driver
//     turns (coreid << 20) | local into the physical address of that core on the elink (on the Parallella the
//     chip's cores 0x808.. sit at the same physical addresses, 0x80800000..); only SRAM (0..0x8000) and the
//     register page (0xF0000..0xF1000) of a core of the chip may be touched, anything else in the 1 MB is SIGBUS.
//     For external DRAM it translates Epiphany 0x8E000000.. to the reserved ARM memory, physical 0x3E000000.. .
//   - ioctl E_IOCTL_RESET resets the platform, as e-hal's e_reset_system() does; afterwards every core is idle
//     until a SYNC interrupt, which starts it at its reset vector, 0 (e-hal's e_start() writes SYNC to ILATST).
//   - Writing 1 to a core's DEBUGCMD halts it (e-hal's e_halt()).
//   - The elink takes 32-bit accesses; the copies below use aligned words and single bytes only, never the wider
//     or unaligned accesses memcpy may choose.
#ifndef _FILE_OFFSET_BITS
#define _FILE_OFFSET_BITS 64  // before any system header: Epiphany addresses above 2 GB as mmap offsets on 32-bit ARM
#endif

#include "parallella.hpp"

#include <unistd.h>

#include "core/common.hpp"

#if defined(__linux__)
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <map>

static_assert(sizeof(off_t) >= 8, "mmap offsets are Epiphany addresses, up to 0x90000000");
#endif

namespace oshrun {

bool parallella_present() { return access(kParallellaDevice, F_OK) == 0; }

#if defined(__linux__)

namespace {

constexpr uint32_t kCoreWindow = 1u << 20;     // what one core's coreid addresses
constexpr uint32_t kRegIlatst = 0xF042C;       // write 1: latch the SYNC interrupt
constexpr uint32_t kRegDebugCmd = 0xF0448;     // write 1: halt
constexpr unsigned long kIoctlReset = _IO('E', 0x00);  // E_IOCTL_RESET of the driver's uapi <linux/epiphany.h>

class ParallellaMesh final : public Mesh {
public:
    ParallellaMesh() {
        fd_ = open(kParallellaDevice, O_RDWR | O_SYNC | O_CLOEXEC);
        if (fd_ < 0) throw Failure(std::string("cannot open ") + kParallellaDevice + ": " + std::strerror(errno), 127);
        eram_ = map(uint32_t(kEpExternalBase), kEpExternalSize, "external DRAM");
    }
    ~ParallellaMesh() override {
        for (auto& [coreid, p] : cores_) munmap(p, kCoreWindow);
        if (eram_) munmap(eram_, kEpExternalSize);
        close(fd_);
    }

    void reset(const std::vector<unsigned>&) override {
        if (ioctl(fd_, kIoctlReset) != 0)
            throw Failure(std::string("Epiphany reset (ioctl E_IOCTL_RESET on ") + kParallellaDevice +
                          ") failed: " + std::strerror(errno), 1);
    }
    void write(uint32_t global, const void* data, size_t n) override {
        copy(static_cast<volatile uint8_t*>(at(global, n)), static_cast<const volatile uint8_t*>(data), n);
    }
    void read(uint32_t global, void* data, size_t n) override {
        copy(static_cast<volatile uint8_t*>(data), static_cast<const volatile uint8_t*>(at(global, n)), n);
    }
    void start(const std::vector<unsigned>& coreids) override {
        for (unsigned id : coreids) {
            started_.push_back(id);
            write_reg(id, kRegIlatst, 1);
        }
    }
    void stop() override {
        for (unsigned id : started_) write_reg(id, kRegDebugCmd, 1);
        started_.clear();
    }

private:
    int fd_ = -1;
    void* eram_ = nullptr;
    std::map<unsigned, void*> cores_;  // each core's 1 MB window, mapped when first used
    std::vector<unsigned> started_;

    void* map(uint32_t global, size_t size, const std::string& what) {
        void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, off_t(global));
        if (p == MAP_FAILED)
            throw Failure("cannot map " + what + " (Epiphany " + hex(global) + ", " + size_text(size) + ") through " +
                          kParallellaDevice + ": " + std::strerror(errno), 1);
        return p;
    }
    // The host address of [global, global + n), which must lie in one core's window or in external DRAM.
    void* at(uint32_t global, size_t n) {
        if (global >= kEpExternalBase && global - kEpExternalBase + n <= kEpExternalSize)
            return static_cast<uint8_t*>(eram_) + (global - kEpExternalBase);
        const unsigned coreid = global >> 20;
        if ((global & (kCoreWindow - 1)) + n > kCoreWindow)
            throw Failure("access " + hex(global) + " + " + std::to_string(n) + " crosses a core's window", 1);
        auto it = cores_.find(coreid);
        if (it == cores_.end())
            it = cores_.emplace(coreid, map(coreid << 20, kCoreWindow,
                                            "core " + hex(coreid) + " (is the board's chip the target's?)")).first;
        return static_cast<uint8_t*>(it->second) + (global & (kCoreWindow - 1));
    }
    void write_reg(unsigned coreid, uint32_t reg, uint32_t value) { write(coreid << 20 | reg, &value, sizeof value); }

    static void copy(volatile uint8_t* dst, const volatile uint8_t* src, size_t n) {
        size_t i = 0;
        if ((reinterpret_cast<uintptr_t>(dst) & 3) == (reinterpret_cast<uintptr_t>(src) & 3)) {
            for (; i < n && (reinterpret_cast<uintptr_t>(dst + i) & 3); ++i) dst[i] = src[i];
            for (; i + 4 <= n; i += 4)
                *reinterpret_cast<volatile uint32_t*>(dst + i) = *reinterpret_cast<const volatile uint32_t*>(src + i);
        }
        for (; i < n; ++i) dst[i] = src[i];
    }
};

}  // namespace

std::unique_ptr<Mesh> open_parallella(const Target&) {
    if (!parallella_present())
        throw Failure(std::string("no Epiphany device (") + kParallellaDevice +
                      "): run on a Parallella, or use --backend sim (oshrun's Epiphany simulator, the default without a board)", 127);
    return std::make_unique<ParallellaMesh>();
}

#else

std::unique_ptr<Mesh> open_parallella(const Target&) {
    throw Failure(std::string("no Epiphany device (") + kParallellaDevice +
                  "): the parallella backend needs Linux on a Parallella; use --backend sim (oshrun's Epiphany simulator)",
                  127);
}

#endif

}  // namespace oshrun
