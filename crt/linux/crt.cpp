// Start-up of a PE on the linux target, before any constructor runs (.preinit_array): the shared symmetric memory,
// the PE's identity, line-buffered stdout, the fault report. The C library's own start-up (crt1.o) runs main.
//
// What oshrun passes (host_loader/backends/linux/linux.cpp), in the environment:
//   SHMEM_LINUX_FD     the shared memory object of this PE's node (a memfd, inherited): a control page, then one
//                      slice per PE of the node
//   SHMEM_LINUX_PE     this PE's number
//   SHMEM_LINUX_NPES   the number of PEs
//   SHMEM_LINUX_NODE_FIRST, SHMEM_LINUX_NODE_NPES  this PE's node's PEs (oshrun --nodes; else every PE is on one)
//   SHMEM_LINUX_BOARD  with --nodes: the start-up board, a memory object of the whole run for the network's exchange
//                      of addresses and keys (port/linux/net.cpp)
//   SHMEM_LINUX_HEAP   the symmetric heap per PE, in bytes
//   SHMEM_LINUX_SPIN   polls before a waiting PE sleeps (0 when there are more PEs than CPUs)
//   SHMEM_LINUX_YIELDS polls with sched_yield() after those (only when there are more PEs than CPUs)
// A program started without oshrun is a run of one PE, with a shared memory object of its own.
//
// Only raw system calls touch the memory here (no mmap/memcpy interceptors of a sanitizer see the remapping: the
// static data keeps its sanitizer state, redzones included).
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <ucontext.h>

#include "message.hpp"
#include "pmix.hpp"
#include "port.hpp"

namespace port = shmem::port;
using shmem::detail::Message;

extern "C" char __shmem_symmetric_start[], __shmem_static_end[];

namespace {

// The control page at offset 0 of the shared object (host_loader/backends/linux/linux.cpp has the same layout).
struct Control {
    uint32_t exit_word;    // (PE + 1) << 8 | status: the PE that ended the run, and how (port.cpp, end_run)
    uint32_t ready;        // PEs whose memory is set up; every PE waits for all before main
    uint32_t heap_chosen;  // 1 once PE 0 has written heap_offset
    uint32_t pad;
    uint64_t heap_offset;  // where every PE's heap starts, from its static_lo
};

[[noreturn]] void fail(const char *what, long err)
{
    Message m;
    m.s("libshmem: start-up: ").s(what);
    if (err != 0) m.s(": ").s(strerror(int(err)));
    m.write_early();
    _exit(127);
}

// A decimal number from the environment, or `otherwise` if the variable is not set.
uint64_t env_number(char **envp, const char *name, uint64_t otherwise, bool *found = nullptr)
{
    const size_t len = strlen(name);
    for (char **e = envp; e != nullptr && *e != nullptr; ++e) {
        if (strncmp(*e, name, len) != 0 || (*e)[len] != '=') continue;
        const char *v = *e + len + 1;
        char *end = nullptr;
        errno = 0;
        const unsigned long long n = strtoull(v, &end, 10);
        if (end == v || *end != '\0' || errno != 0) {
            Message m;
            m.s("libshmem: start-up: ").s(name).s(" = '").s(v).s("': expected a number (set by oshrun)");
            m.write_early();
            _exit(127);
        }
        if (found != nullptr) *found = true;
        return n;
    }
    if (found != nullptr) *found = false;
    return otherwise;
}

// SHMEM_SYMMETRIC_SIZE for a run without oshrun: a number with an optional K, M or G (powers of 1024).
uint64_t singleton_heap(char **envp)
{
    constexpr uint64_t fallback = 64u << 20;
    for (char **e = envp; e != nullptr && *e != nullptr; ++e) {
        if (strncmp(*e, "SHMEM_SYMMETRIC_SIZE=", 21) != 0) continue;
        char *end = nullptr;
        uint64_t n = strtoull(*e + 21, &end, 10);
        switch (*end) {
        case 'k': case 'K': n <<= 10; ++end; break;
        case 'm': case 'M': n <<= 20; ++end; break;
        case 'g': case 'G': n <<= 30; ++end; break;
        default: break;
        }
        return (*end == '\0' && n != 0 && n < (uint64_t(1) << 40)) ? n : fallback;
    }
    return fallback;
}

// The offset is a byte offset (page-aligned) of up to 64 bits: where the C library's off_t has 32 (armhf), mmap2
// takes it in 4096-byte units.
void *sys_mmap(void *addr, size_t len, int prot, int flags, int fd, uint64_t off)
{
#if defined(SYS_mmap2)
    return reinterpret_cast<void *>(syscall(SYS_mmap2, addr, len, prot, flags, fd, static_cast<unsigned long>(off >> 12)));
#else
    return reinterpret_cast<void *>(syscall(SYS_mmap, addr, len, prot, flags, fd, off_t(off)));
#endif
}
bool mmap_failed(void *p) { return reinterpret_cast<uintptr_t>(p) > uintptr_t(-4096); }

// ---- the fault report -------------------------------------------------------------------------------------

uintptr_t stack_top;  // an address near the top of the main thread's stack (set-up's frame)

const char *signal_cause(int sig, int code)
{
    switch (sig) {
    case SIGSEGV: return code == SEGV_ACCERR ? "access fault (SIGSEGV: no permission)" : "access fault (SIGSEGV: nothing mapped)";
    case SIGBUS: return code == BUS_ADRALN ? "misaligned access (SIGBUS)" : "bus error (SIGBUS)";
    case SIGILL: return "illegal instruction (SIGILL)";
    case SIGFPE: return "arithmetic exception (SIGFPE)";
    default: return "signal";
    }
}

uintptr_t context_pc(const void *uc, uintptr_t *sp)
{
    const auto *u = static_cast<const ucontext_t *>(uc);
#if defined(__x86_64__)
    *sp = uintptr_t(u->uc_mcontext.gregs[REG_RSP]);
    return uintptr_t(u->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    *sp = uintptr_t(u->uc_mcontext.sp);
    return uintptr_t(u->uc_mcontext.pc);
#elif defined(__arm__)
    *sp = uintptr_t(u->uc_mcontext.arm_sp);
    return uintptr_t(u->uc_mcontext.arm_pc);
#else
    (void)u;
    *sp = 0;
    return 0;
#endif
}

// The report of the other targets' traps: the PE, the cause, the address and the pc; a fault within reach of the
// stack pointer below the stack is the stack's overflow into the kernel's guard gap. Then the run ends with 139,
// as a trap does on virt.
void on_fault(int sig, siginfo_t *info, void *uc)
{
    uintptr_t sp = 0;
    const uintptr_t pc = context_pc(uc, &sp);
    const uintptr_t addr = reinterpret_cast<uintptr_t>(info->si_addr);
    Message m;
    m.s("libshmem: PE ").i(port::geometry.pe).s(": ");
    rlimit lim{};
    const bool near_sp = sp != 0 && addr < stack_top && addr + (1u << 20) >= sp && addr <= sp + 4096;
    if (sig == SIGSEGV && near_sp) {
        getrlimit(RLIMIT_STACK, &lim);
        m.s("stack overflow: the stack");
        if (lim.rlim_cur != RLIM_INFINITY) m.s(" of ").u(uint64_t(lim.rlim_cur)).s(" bytes");
        m.s(" ran into the guard below it at ").x(addr).s(" (pc ").x(pc)
            .s("); give it more with `ulimit -s` before oshrun, or use less");
    } else if (sig == SIGSEGV && info->si_code == SI_KERNEL) {
        // x86-64's general-protection fault (a non-canonical address, a privileged instruction): the kernel sends
        // SIGSEGV with si_addr 0, which is no address at all, so none is printed.
        m.s("trap: general-protection fault (SIGSEGV with no address: a non-canonical address or a privileged ")
            .s("instruction) at pc ").x(pc);
    } else {
        m.s("trap: ").s(signal_cause(sig, info->si_code)).s(" at pc ").x(pc);
        if (sig == SIGSEGV || sig == SIGBUS) m.s(", address ").x(addr);
    }
    m.write_early();
    port::end_run(139);
}

void install_fault_report()
{
    constexpr size_t alt_size = 64 * 1024;
    void *alt = sys_mmap(nullptr, alt_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mmap_failed(alt)) return;  // no report, the kernel's default: the PE dies by the signal, oshrun says so
    stack_t ss{};
    ss.ss_sp = alt;
    ss.ss_size = alt_size;
    if (sigaltstack(&ss, nullptr) != 0) return;
    struct sigaction sa {};
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    static const int faults[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
    for (int sig : faults) sigaction(sig, &sa, nullptr);
}

// ---- the shared memory ------------------------------------------------------------------------------------

// The mark oshrun knows a libshmem program for this target by (host_loader/backends/linux): an ELF note, in an
// allocated section, which strip keeps (symbols it does not). Owner "libshmem", type 1, the target's name.
struct LinuxNote {
    uint32_t namesz, descsz, type;
    char name[12];  // "libshmem" and its NUL, padded to 4 bytes
    char desc[8];   // "linux" and its NUL, padded
};
[[gnu::used, gnu::section(".note.libshmem"), gnu::aligned(4)]] const LinuxNote shmem_linux_note = {
    9, 6, 1, "libshmem", "linux"};

int board_fd = -1;  // a run across nodes that oshrun started: the start-up board, for the network's exchange

// Started by a PMIx launcher (mpirun, srun): the set-up waits for the constructors' time (setup_pmix), when the C
// library is set up and PMIx can be loaded and started (its own start-up creates a thread).
bool pmix_deferred = false;

void setup(int, char **, char **envp)
{
    __asm__ volatile("" ::"r"(&shmem_linux_note));  // keeps the note (above) in a --gc-sections link
    auto &g = port::geometry;
    bool launched = false;
    const uint64_t fd_number = env_number(envp, "SHMEM_LINUX_FD", 0, &launched);
    if (!launched && !pmix_deferred && port::pmix_launched(envp)) {
        pmix_deferred = true;
        return;
    }
    int here;
    stack_top = reinterpret_cast<uintptr_t>(&here);
    int fd;
    uint64_t heap;
    if (pmix_deferred) {
        port::PmixRun run{};
        fd = port::pmix_start(&run);
        g.pmix = true;
        g.pe = run.pe;
        g.npes = run.npes;
        g.node_first = run.node_first;
        g.node_npes = run.node_npes;
        // How a wait polls, as oshrun chooses (host_loader/backends/linux): a spin where the node's processes have
        // a CPU each, yields where they outnumber them.
        const bool own_cpu = run.node_processes <= int(sysconf(_SC_NPROCESSORS_ONLN));
        g.spin = own_cpu && g.npes > 1 ? 2000 : 0;
        g.yields = own_cpu ? 0 : 64;
        heap = singleton_heap(envp);
    } else if (launched) {
        fd = int(fd_number);
        g.pe = int(env_number(envp, "SHMEM_LINUX_PE", ~uint64_t(0)));
        g.npes = int(env_number(envp, "SHMEM_LINUX_NPES", 0));
        heap = env_number(envp, "SHMEM_LINUX_HEAP", 0);
        g.spin = int(env_number(envp, "SHMEM_LINUX_SPIN", 0));
        g.yields = int(env_number(envp, "SHMEM_LINUX_YIELDS", 0));
        if (g.npes < 1 || g.npes > port::max_pes || g.pe < 0 || g.pe >= g.npes)
            fail("SHMEM_LINUX_PE/SHMEM_LINUX_NPES out of range (not started by this version of oshrun?)", 0);
        g.node_first = int(env_number(envp, "SHMEM_LINUX_NODE_FIRST", 0));
        g.node_npes = int(env_number(envp, "SHMEM_LINUX_NODE_NPES", uint64_t(g.npes)));
        if (g.node_npes < 1 || g.node_first < 0 || g.node_first > g.pe || g.pe - g.node_first >= g.node_npes ||
            g.node_npes > g.npes - g.node_first)
            fail("SHMEM_LINUX_NODE_FIRST/SHMEM_LINUX_NODE_NPES do not hold this PE (not started by this oshrun?)", 0);
    } else {
        // Run by hand: one PE, with memory of its own.
        fd = int(syscall(SYS_memfd_create, "libshmem", 0u));
        if (fd < 0) fail("memfd_create", errno);
        g.pe = 0;
        g.npes = 1;
        g.node_first = 0;
        g.node_npes = 1;
        g.spin = 0;
        g.yields = 0;
        heap = singleton_heap(envp);
    }
    const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
    g.static_lo = reinterpret_cast<uintptr_t>(__shmem_symmetric_start) & ~(page - 1);
    const uintptr_t static_len = ((reinterpret_cast<uintptr_t>(__shmem_static_end) + page - 1) & ~(page - 1)) - g.static_lo;
    heap = (heap + page - 1) & ~uint64_t(page - 1);
    const uint64_t slice = static_len + heap;  // in the shared object
    const int local = g.pe - g.node_first;     // this PE's place on its node
    g.networked = g.node_npes < g.npes;
    uint64_t total = 0;
    if (heap < page || heap > (uint64_t(1) << 40) || __builtin_mul_overflow(slice, uint64_t(g.node_npes), &total) ||
        __builtin_add_overflow(total, uint64_t(page), &total) || total > (uint64_t(1) << 46))
        fail("the symmetric memory asked for does not fit in the address space (SHMEM_SYMMETRIC_SIZE too large?)", 0);

    // Every PE sizes the object the same (same image, same arguments): the first to get here grows it.
    struct stat st {};
    if (fstat(fd, &st) != 0) fail("the shared memory object (SHMEM_LINUX_FD) is not open", errno);
    if (uint64_t(st.st_size) < total && ftruncate64(fd, off64_t(total)) != 0)
        fail("cannot size the shared memory", errno);
    void *control = sys_mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (mmap_failed(control)) fail("cannot map the shared memory", 0);
    auto *ctl = static_cast<Control *>(control);
    g.exit_word = launched ? &ctl->exit_word : nullptr;  // (under PMIx the launcher ends the job: port.cpp, end_run)
    const bool shared = launched || g.pmix;             // the node's PEs share the object: its protocol below

    // The heap: right after the static pages, else (the C library's brk heap is there, as a static executable's TLS
    // block, or an emulator keeps the room for it) at the first whole GiB after them that is free. The node's first
    // PE chooses and maps its own there at once; the others follow, so that heap addresses agree on the node (the
    // network finds another node's heap by the address its PEs publish).
    const uint64_t own = page + uint64_t(local) * slice;
    const auto map_heap = [fd, heap, own, static_len](uintptr_t at) {
        void *p = sys_mmap(reinterpret_cast<void *>(at), heap, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE,
                           fd, own + static_len);
        if (!mmap_failed(p) && reinterpret_cast<uintptr_t>(p) != at) syscall(SYS_munmap, p, heap);  // an old kernel
        return !mmap_failed(p) && reinterpret_cast<uintptr_t>(p) == at;
    };
    uint64_t heap_offset = 0;
    if (local == 0) {
        const uintptr_t brk_now = reinterpret_cast<uintptr_t>(sbrk(0));
        const uintptr_t after = g.static_lo + static_len;
        // The places tried: whole GiBs; with 32-bit addresses, 64 MiB steps (the view of every PE's memory, N times
        // the distance from the static data to the heap's end, must fit in 4 GiB). Where the brk heap follows the
        // static data, the first is past the window its start is drawn from (Linux randomizes it up to 1 GiB past
        // the executable's end for a 64-bit process, x86-64's and arm64's arch_randomize_brk, 32 MiB for a 32-bit
        // one) and what it holds at start-up: a place in the window is free in the PE that chooses it, and may be
        // inside another PE's brk heap (under mpirun, where every PE is its own exec, this failed now and then).
        constexpr unsigned step_shift = sizeof(void *) == 4 ? 26 : 30;
        constexpr uint64_t past_brk_window = sizeof(void *) == 4 ? 1 : 2;
        bool placed = false;
        for (uint64_t k = (brk_now > after ? past_brk_window : 0); k <= 16 && !placed; ++k) {
            heap_offset = static_len + (k << step_shift);
            placed = map_heap(uintptr_t(g.static_lo + heap_offset));
        }
        if (!placed)
            fail(sizeof(void *) == 4 ? "no room for the symmetric heap within 1 GiB after the static data"
                                     : "no room for the symmetric heap within 16 GiB after the static data", 0);
        if (shared) {
            ctl->heap_offset = heap_offset;
            __atomic_store_n(&ctl->heap_chosen, 1u, __ATOMIC_SEQ_CST);
            port::futex(&ctl->heap_chosen, FUTEX_WAKE, INT_MAX, nullptr);
        }
    } else {
        while (__atomic_load_n(&ctl->heap_chosen, __ATOMIC_SEQ_CST) == 0)
            port::futex(&ctl->heap_chosen, FUTEX_WAIT, 0, nullptr);
        heap_offset = ctl->heap_offset;
        if (!map_heap(uintptr_t(g.static_lo + heap_offset))) {
            Message m;
            m.s("libshmem: start-up: PE ").i(g.pe).s(": the symmetric heap's place, ").x(g.static_lo + heap_offset)
                .s(" (where PE ").i(g.node_first).s(" put its own), is taken in this process");
            m.write_early();
            _exit(127);
        }
    }
    g.heap_lo = g.static_lo + heap_offset;
    g.heap_hi = g.heap_lo + heap;
    g.base = g.static_lo;
    g.stride = heap_offset + heap;
    uint64_t view = 0;
    if (__builtin_mul_overflow(uint64_t(g.stride), uint64_t(g.node_npes), &view) || view > (uint64_t(1) << 46))
        fail("the symmetric memory asked for does not fit in the address space (SHMEM_SYMMETRIC_SIZE too large?)", 0);

    // Every PE's memory of the node in one view: a reservation, then each PE's static pages and heap at its place in it
    // (one mapping for all when the heap follows the static pages, as it does in the C library's dynamic
    // executables). PE p is at view + (p - node_first) * stride, so remote_ptr's delta counts node_first's back.
    void *reserved = sys_mmap(nullptr, view, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mmap_failed(reserved)) fail("cannot reserve address space for every PE's symmetric memory", 0);
    const uintptr_t view_at = reinterpret_cast<uintptr_t>(reserved);
    g.delta = intptr_t(view_at - g.static_lo - uintptr_t(g.node_first) * g.stride);
    const auto map_at = [fd](uintptr_t at, uint64_t len, uint64_t offset, int extra) {
        void *p = sys_mmap(reinterpret_cast<void *>(at), len, PROT_READ | PROT_WRITE, MAP_SHARED | extra, fd, offset);
        return !mmap_failed(p) && reinterpret_cast<uintptr_t>(p) == at;
    };
    if (heap_offset == static_len) {
        if (!map_at(view_at, view, page, MAP_FIXED)) fail("cannot map every PE's symmetric memory", 0);
    } else {
        for (int k = 0; k < g.node_npes; ++k) {
            const uintptr_t at = view_at + uintptr_t(k) * g.stride;
            const uint64_t off = page + uint64_t(k) * slice;
            if (!map_at(at, static_len, off, MAP_FIXED) || !map_at(at + heap_offset, heap, off + static_len, MAP_FIXED))
                fail("cannot map every PE's symmetric memory", 0);
        }
    }

    // This PE's own static data: into its slice (pwrite reads the pages as they are now), then the slice over it.
    for (uintptr_t done = 0; done < static_len;) {
#if __SIZEOF_POINTER__ == 4
        // (The 32-bit syscall splits the offset into a register pair whose layout varies by ABI: the C library's.)
        const long w = long(pwrite64(fd, reinterpret_cast<const void *>(g.static_lo + done), static_len - done,
                                     off64_t(own + done)));
#else
        const long w = syscall(SYS_pwrite64, fd, g.static_lo + done, static_len - done, off_t(own + done));
#endif
        if (w <= 0) fail("cannot copy the static data into the shared memory", errno);
        done += uintptr_t(w);
    }
    if (!map_at(g.static_lo, static_len, own, MAP_FIXED)) fail("cannot map the shared memory over the static data", 0);

    // No PE writes into another's memory before that one has copied its static data: all of a node wait for all of
    // it, and across nodes the network's exchange waits for every PE.
    if (shared) {
        const uint32_t n = __atomic_add_fetch(&ctl->ready, 1u, __ATOMIC_SEQ_CST);
        if (n == uint32_t(g.node_npes)) {
            if (g.pmix) port::pmix_node_mapped();  // every PE of the node has the object: its name goes
            port::futex(&ctl->ready, FUTEX_WAKE, INT_MAX, nullptr);
        } else {
            for (uint32_t r = n; r < uint32_t(g.node_npes); r = __atomic_load_n(&ctl->ready, __ATOMIC_SEQ_CST))
                port::futex(&ctl->ready, FUTEX_WAIT, r, nullptr);
        }
    }
    if (g.networked && !g.pmix) {
        bool board = false;
        board_fd = int(env_number(envp, "SHMEM_LINUX_BOARD", 0, &board));
        if (!board) fail("a run across nodes without SHMEM_LINUX_BOARD (not started by this oshrun?)", 0);
    }

    // stdout is a pipe to oshrun: line-buffered, as on the other targets (a PE's lines come out as it writes them).
    setvbuf(stdout, nullptr, _IOLBF, 0);
    install_fault_report();
    // A PE that ends with status 0 (main returned, exit(0)) tells the PEs that may still wait for it
    // (port::ends_observed); any other status ends the whole run anyway. glibc's on_exit: atexit without the status.
    // A run across nodes registers its own at start_network, after UCX's.
    on_exit([](int status, void *) {
        if (status == 0 && !port::geometry.networked) shmem::detail::announce_end();
    }, nullptr);
}

// The network of a run across nodes starts after the shared libraries' constructors (UCX's own set-up is one: the
// executable's .preinit_array runs before them) and before the program's.
// Its end runs before UCX's own exit handlers (registered after them, it runs before them), which take the worker's
// event handlers away: the end's quiet and net_stop still progress the worker.
[[gnu::constructor(101)]] void start_network()
{
    if (!port::geometry.networked) return;
    port::net_start(board_fd);
    on_exit([](int status, void *) {
        if (status == 0) shmem::detail::announce_end();
        port::net_stop();
    }, nullptr);
}

// A run that a PMIx launcher started: the set-up above, before any constructor of the library's (101) or the
// program's. (Priority 100, written as its section: the compiler keeps priorities up to 100 for the implementation,
// which this start-up code is.)
void setup_pmix(int argc, char **argv, char **envp)
{
    if (pmix_deferred) setup(argc, argv, envp);
}

}  // namespace

// Runs before any constructor (the heap's, the teams') and before the C library's own static constructors.
// (Linked in by name: cmake/toolchain-linux.cmake, -u shmem_linux_preinit.)
extern "C" {
[[gnu::used, gnu::section(".init_array.00100")]] void (*const shmem_linux_pmix_init)(int, char **, char **) = setup_pmix;
extern void (*const shmem_linux_preinit)(int, char **, char **);
[[gnu::used, gnu::section(".preinit_array")]] void (*const shmem_linux_preinit)(int, char **, char **) = setup;
}
