// The out-of-line part of the virt-rv64 port: console records, ending a run, the misaligned copy.
#include "port.hpp"

namespace shmem::port {

// First in .tdata (the linker script puts it there), so that tp points at it.
__thread Geometry geometry __attribute__((tls_model("local-exec"), section(".tdata.shmem_geometry")));
uint64_t barrier_word;

namespace {

// Machine-wide words; they are used in PE 0's partition only.
uint32_t console_lock;
// This PE's: payload bytes of the record being written that are not out yet (see console_release_if_mine).
size_t console_owed;
uint32_t pes_done;

volatile uint8_t *const uart = reinterpret_cast<volatile uint8_t *>(0x10000000u);
volatile uint32_t *const test_device = reinterpret_cast<volatile uint32_t *>(0x100000u);

void uart_put(char c)
{
    while ((uart[5] & 0x20) == 0) {  // LSR.THRE: transmit holding register empty
    }
    uart[0] = static_cast<uint8_t>(c);
}

[[noreturn]] void park()
{
    __asm__ volatile("csrw mie, zero" ::: "memory");
    for (;;) __asm__ volatile("wfi");
}

// The lock word holds the owner's PE number + 1. A waiter sleeps on the backstop timer rather than spinning; the
// holder does not know who waits, and contention is rare enough that the 1 ms backstop is not worth a wake list.
// Returns false if this PE held it already (the caller must then leave it held).
bool console_lock_acquire()
{
    uint32_t *lock = remote_ptr(&console_lock, 0);
    const uint32_t mine = uint32_t(geo().pe) + 1;
    if (__atomic_load_n(lock, __ATOMIC_RELAXED) == mine) return false;
    for (uint32_t expected = 0; !__atomic_compare_exchange_n(lock, &expected, mine, false, __ATOMIC_ACQUIRE,
                                                              __ATOMIC_RELAXED);
         expected = 0)
        wait_until([lock] { return __atomic_load_n(lock, __ATOMIC_RELAXED) == 0; });
    return true;
}

// One record's header (crt/common/console_protocol.h); the payload follows.
void record_header(char kind, unsigned pe, size_t len)
{
    const char header[SHMEM_CONSOLE_HEADER] = {SHMEM_CONSOLE_SOH, kind, char(pe & 0xff), char(pe >> 8), char(len)};
    for (char c : header) uart_put(c);
}

[[noreturn]] void end_with(unsigned pe, int status)
{
    const uint32_t code = (status > 0 && status < 256) ? uint32_t(status) : (status == 0 ? 0u : 255u);
    record_header(SHMEM_CONSOLE_EXIT, pe, 1);
    uart_put(char(code));
    fence();
    *test_device = code == 0 ? 0x5555u : (code << 16) | 0x3333u;
    park();
}

}  // namespace

void console_write(char kind, const char *buf, size_t n)
{
    const bool took = console_lock_acquire();
    const unsigned pe = unsigned(geo().pe);
    do {
        const size_t len = n < SHMEM_CONSOLE_MAX_PAYLOAD ? n : SHMEM_CONSOLE_MAX_PAYLOAD;
        record_header(kind, pe, len);
        n -= len;
        for (console_owed = len; console_owed != 0; --console_owed) uart_put(*buf++);
    } while (n != 0);
    if (took) __atomic_store_n(remote_ptr(&console_lock, 0), 0u, __ATOMIC_RELEASE);
}

void console_write_early(const char *buf, size_t n)
{
    for (size_t i = 0; i < n; ++i) uart_put(buf[i]);
}

// A record cut short by a trap is padded to its announced length first, or oshrun would read the next record's
// bytes as its payload.
void console_release_if_mine()
{
    uint32_t *lock = remote_ptr(&console_lock, 0);
    if (__atomic_load_n(lock, __ATOMIC_RELAXED) != uint32_t(geo().pe) + 1) return;
    for (; console_owed != 0; --console_owed) uart_put(' ');
    __atomic_store_n(lock, 0u, __ATOMIC_RELEASE);
}

// The WAND-style barrier (Epiphany's WAND instruction, done with what virt has): each PE arrives on one word in
// PE 0's partition, generation << 32 | PEs arrived, with one AMO that also tells it the generation, and sleeps;
// the last to arrive writes the next generation with the count 0 and raises every PE's software interrupt.
//
// The sleep is the barrier's own: clear SSIP, fence, arrive, wfi; no `sleeping` word and no backstop timer.
//  - SSIP is cleared before the arrival, and the last arriver raises it only after every PE (this one too) has
//    arrived: so the first wfi needs no check before it (it falls through if the wake-up came already).
//  - A wfi that returns for anything else finds the generation unchanged, clears SSIP, fences, checks again and
//    sleeps again: the usual protocol from then on.
//  - Writers read `sleeping` to decide whether to wake a PE; nothing a put or an AMO writes can end this wait, so
//    a PE asleep here is not woken by every put and atomic into its memory.
// The fence before the arrival also completes this PE's puts (hw_barrier_fences: shmem_barrier_all's quiet).
// Nobody can arrive at the next barrier before the last arriver's store: they are all asleep until its wake-up.
namespace {
struct GenerationWait {
    const volatile uint32_t *generation;
    uint32_t gen;
};
[[maybe_unused]] bool generation_moved(const void *arg)
{
    const auto *w = static_cast<const GenerationWait *>(arg);
    return *w->generation != w->gen;
}
}  // namespace

void hw_barrier()
{
    const uint32_t n = uint32_t(geo().npes);
    uint64_t *const word = geo().barrier_word;
    clear_wake();
    fence();
    uint64_t old;
    // .aq: the last arriver's wake-up and everything after the barrier come after every PE's arrival.
    __asm__ volatile("amoadd.d.aq %0, %2, (%1)" : "=r"(old) : "r"(word), "r"(uint64_t(1)) : "memory");
    if (uint32_t(old) == n - 1) {
        *reinterpret_cast<volatile uint64_t *>(word) = (old | 0xffffffffu) + 1;  // the next generation, none arrived
        fence();  // the generation before the wake-ups (device stores)
        // Every PE's SSIP, this one's too (cleared again below): four stores an iteration, no compare per PE.
        volatile uint32_t *p = clint::setssip(0);
        volatile uint32_t *const end = p + n;
        for (; end - p >= 4; p += 4) {
            p[0] = 1;
            p[1] = 1;
            p[2] = 1;
            p[3] = 1;
        }
        for (; p != end; ++p) *p = 1;
        clear_wake();
        return;
    }
    const uint32_t gen = uint32_t(old >> 32);
    const volatile uint32_t *const generation = reinterpret_cast<const volatile uint32_t *>(word) + 1;  // the high half
    for (;;) {
        __asm__ volatile("wfi" ::: "memory");
        if (*generation != gen) break;
        // A PE's end (shmem/src/ended.cpp): seen after a wake-up that did not end the barrier. Its wake-up (a pending
        // timer interrupt, notify_end) stays until this PE writes its mtimecmp, so no clear loses it.
        if constexpr (ends_observed) {
            if (__builtin_expect(__atomic_load_n(peer_ended_word(), __ATOMIC_RELAXED) != 0, 0)) {
                const GenerationWait w{generation, gen};
                detail::world_wait_ended(generation_moved, &w);
                end_taken();
                break;
            }
        }
        clear_wake();
        fence();
        if (*generation != gen) break;
    }
    __asm__ volatile("fence r, rw" ::: "memory");  // acquire: the other PEs' writes before the barrier
}

// The exit record is the last thing on the console: the lock is kept, so no PE writes after it (the emulator
// is gone a moment later). A PE that holds the lock already (a trap inside console_write) writes it as it is.
void end_run(int status)
{
    console_lock_acquire();
    end_with(unsigned(geo().pe), status);
}

void end_run_early(int status)
{
    uint64_t hart;
    __asm__ volatile("csrr %0, mhartid" : "=r"(hart));
    end_with(unsigned(hart), status);
}

void finish(int status)
{
    if (status != 0) end_run(status);
    if constexpr (ends_observed) detail::announce_end();  // to the PEs that may still wait for this one
    // The last PE to finish ends the run. Its memory stays reachable until then, so a PE that finished may
    // still be the target of other PEs' puts and gets.
    if (__atomic_add_fetch(remote_ptr(&pes_done, 0), 1u, __ATOMIC_ACQ_REL) == uint32_t(geo().npes)) end_run(0);
    park();
}

}  // namespace shmem::port

// dst and src differ modulo 8. Align dst, then build each destination double word from two aligned source
// double words, so that no misaligned access is issued (they trap or are slow on real RISC-V cores). The
// aligned loads may touch up to 7 bytes outside [src, src + n), but never outside the double words that hold
// its first and last byte, so never outside mapped memory.
extern "C" void shmem_port_copy_misaligned(void *dst, const void *src, size_t n)
{
    auto *d = static_cast<unsigned char *>(dst);
    auto *s = static_cast<const unsigned char *>(src);
    while (n != 0 && (reinterpret_cast<uintptr_t>(d) & 7) != 0) {
        *d++ = *s++;
        --n;
    }
    if (n >= 8) {
        const unsigned shift = unsigned(reinterpret_cast<uintptr_t>(s) & 7) * 8;  // 8..56: never 0 here
        const auto *sw = reinterpret_cast<const uint64_t *>(reinterpret_cast<uintptr_t>(s) & ~uintptr_t(7));
        auto *dw = reinterpret_cast<uint64_t *>(d);
        uint64_t lo = *sw++;
        size_t words = n / 8;
        for (size_t i = 0; i < words; ++i) {
            uint64_t hi = *sw++;
            dw[i] = (lo >> shift) | (hi << (64 - shift));
            lo = hi;
        }
        d += words * 8;
        s += words * 8;
        n -= words * 8;
    }
    while (n-- != 0) *d++ = *s++;
}
