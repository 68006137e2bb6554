// The port contract: what the portable core (shmem/src) calls of a port, and what it gives a port that has nothing
// of its own to say. Every file of the library, its ports and its startup code includes this header, never the
// port's shmem_port.hpp directly. docs/porting.md has the table of hooks and the steps of adding a target;
// port/template/ is a port that builds, the one a new port copies.
//
// How a port is bound (FreeRTOS's include/portable.h is the model):
//  1. config.hpp (the SHMEM_* build options) and crt/common/console_protocol.h (the console's stream kinds);
//  2. the types and hooks of the contract that a port defines out of line, or inline with this exact signature,
//     declared here once in namespace shmem::port: a port defines them and does not declare them again;
//  3. the port's own header, found by include path (port/<port>/shmem_port.hpp, namespace shmem::port): its
//     required hooks, and the optional ones it has;
//  4. the defaults of every optional hook, in namespace shmem::port_defaults, which shmem::port names in a
//     using-directive. A qualified name port::x finds the port's own x where the port declares one and the default
//     only where it declares none (C++17 [namespace.qual]/2), so a port that lacks an optional capability does not
//     mention it, and the code is what it would be with the default written in the port. A port that has a
//     capability declares the whole group (the flag and its hooks): declaring a name hides every default of that
//     name, overloads included. The core names hooks only as port::x; a default names other hooks as port::x too.
// Capabilities are constexpr bools; the core tests them with `if constexpr`, so what a port lacks compiles away
// (the hooks of a capability a port lacks are declared and never defined: naming one outside a discarded branch
// fails at link time).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "config.hpp"
#include "console_protocol.h"

// ---- 2. what a port defines -------------------------------------------------------------------------------------

namespace shmem::port {

// Filled in by the startup code (crt/<port>) before any constructor runs, and unchanged after (a port may keep
// words of its own in it that do change). A port's Geometry has at least these fields, which the core reads:
//   uintptr_t base;     this PE's partition base: the core names a symmetric block by its offset from base
//   uintptr_t heap_lo;  the symmetric heap is [heap_lo, heap_hi) of this PE's address space
//   uintptr_t heap_hi;
// and the port declares `extern Geometry geometry;` (virt-rv64: thread-local, so that tp points at it).
struct Geometry;

// ---- required: identity and addresses
// In the port's header (templates, so not declared here):
//   inline constexpr int max_pes          the most PEs a run can have: it sizes the library's tables
//   template <class T> T *remote_ptr(T *local, int pe)
//       the address at which this PE reaches PE pe's copy of the symmetric object at `local` (an address in this
//       PE's own symmetric memory, static or heap); for pe == my_pe() an address of this PE's own copy. Every fast
//       path computes it: make it a few instructions (virt-rv64: a subtraction, a shift and an add).
int my_pe();  // this PE's number, 0 .. n_pes() - 1
int n_pes();  // the PEs of the run, 1 .. max_pes

// ---- required: copies
// n bytes from src to dst; dst (put) or src (get) is a PE's memory as remote_ptr gave it, this PE's own included.
// n may be 0, and then either pointer may be null.
void put_bytes(void *dst_remote, const void *src, size_t n);
void get_bytes(void *dst, const void *src_remote, size_t n);

// ---- required: ordering
// fence(): every memory access of this PE before it (to any PE's memory, and the device accesses its wake-ups
// make) is ordered before every one after it, as the other PEs see them.
// quiet(): fence(), and every put of this PE (DMA included) is complete: visible in its target's memory.
void fence();
void quiet();

// ---- required: the TESTSET primitive (locks, and every AMO of a port without native atomics)
// test_and_set: the word (any PE's, from remote_ptr) becomes nonzero atomically; true if it already was. Orders
// what follows after it (acquire). clear: the word becomes 0, ordered after what came before (release).
bool test_and_set(uint32_t *remote_word);
void clear(uint32_t *remote_word);

// ---- required: sleeping and waking. A waiting PE sleeps; it never spins unboundedly (DESIGN §3).
// In the port's header (a template):
//   template <class Done> void wait_until(Done done)
//       returns once done() is true; done() reads memory that other PEs write and then notify this PE about
//       (notify), or that a writer outside the library writes (shmem_ptr stores) with nobody's notify: a port whose
//       waits can only end on a notify must cope (a backstop timer, or polling where user_writes_notify is false).
//       done() may itself wait (a TESTSET lock inside a condition): a nested wait must not break the outer one.
// notify(pe): after this PE wrote into PE pe's memory, wake it if it sleeps in wait_until. It orders the write
// before whatever wakes the target (a notify begins with what fence() orders, unless the port needs less).
void notify(int pe);

// ---- required: the platform
// console_write: writes buf[0 .. n) as console records of stream `kind` (SHMEM_CONSOLE_STDOUT or
// SHMEM_CONSOLE_STDERR; console_protocol.h: SOH, kind, PE, length, up to 255 bytes of payload), as many as n needs;
// one call's records are never interleaved with another PE's (virt-rv64: under a machine-wide lock; a ring of the
// PE's own needs none). A hosted port writes plain text to the process's stdout or stderr.
void console_write(char kind, const char *buf, size_t n);
// finish(status): this PE's program is done (its _exit). 0: this PE is done, and the run ends with 0 when every PE
// is; until then its memory stays reachable (other PEs may still put to it and get from it). Non-zero: the whole
// run ends now with that status, as end_run.
[[noreturn]] void finish(int status);
// end_run(status): ends the whole run now with `status` (shmem_global_exit, the library's fatal reports, traps);
// a status outside 0..255 becomes 255. It reaches oshrun after everything this PE wrote to the console.
[[noreturn]] void end_run(int status);
// cycles(): a 64-bit count that never goes back, in the PE's clock cycles where it has a cycle counter
// (shmemx_cycles; and the startup code's clocks where the port says at what rate: crt/common/cycle_clock.hpp).
uint64_t cycles();

// ---- optional hardware: declared here, defined only by the ports whose capability flag (in 4.) is true --------

// has_copy_inline: copy_inline(dst, src, n) copies the small transfers the port can do inline (without a call, so
// without a stack frame in the caller) and returns true; false for anything else, 0 bytes included, which the caller
// then gives to put_bytes or get_bytes. Always inline: it is on the put/get fast path.
bool copy_inline(void *dst, const void *src, size_t n);

// has_hw_barrier: hw_barrier() returns when every PE of the run has called it (WAND-style). It orders no memory
// beyond its own, unless hw_barrier_fences; the caller runs it only where hw_barrier_usable().
void hw_barrier();

// own_barrier_world: barrier_world(kind) is the barrier of every PE (kind 0: the build's SHMEM_BARRIER, with auto
// the hardware barrier where hw_barrier_usable(); 1: the hardware barrier; 2: dissemination), the port's own where
// a core's budget counts every byte (Epiphany: assembly). It checks the stack first (check_stack). barrier_all():
// quiet(), then barrier_world(0), as one (shmem_barrier_all's, where the build's barrier is not the hardware one).
void barrier_world(int kind);
void barrier_all();

// own_sweep: sweep(group, root, args) is the collective engine's binomial-tree sweep (shmem/src/coll_sweep.cpp:
// up the tree and down, with a reduction's chunks and combine calls), reading the core's Group and Sweep at the
// byte offsets SweepLayout gives and using its flag indices, which coll_sweep.cpp checks against its own.
struct SweepLayout;
void sweep(const void *group, int root, const void *args);

// has_dma: dma_copy(ch, dst, src, n) starts a copy of n bytes on DMA channel ch (0 or 1, the context's) and
// returns at once; quiet() waits for every channel, quiet_channel(ch) for that one (shmem_ctx_quiet). The core
// gives a channel only transfers of dma_min bytes or more.
void dma_copy(unsigned ch, void *dst, const void *src, size_t n);
void quiet_channel(unsigned ch);

// has_msg_channel: a message network carries the shmemx channels' values (docs/channels.md; TILE's UDN).
//  - msg_send(pe, object, value): sends value as one message to the object at the address of `object` in PE pe's
//    partition, after a full fence (what this PE stored before is visible to the receiver once it has the message);
//  - set_msg_handler(handler): the core's handler, called by the port with the local object and the value as each
//    message arrives: in any receive (a wait, a barrier) or in msg_poll(), which sorts in whatever has arrived
//    without waiting; the handler returns false for a message no channel expects, which the port reports;
//  - msg_fits(object): whether a message can name this object of this PE's memory;
//  - msg_words (queue words per message) and msg_budget (the words the channels into one PE may have in flight):
//    the core keeps within the budget so that the port's queue never fills (a sender stalled on a full queue
//    cannot receive, and two such PEs would wait for each other for ever). A message that ends a sleep is not a
//    wake-up's claim: the port's wait_until must cope (port/tile/udn.hpp, sleep_until).
using MsgHandler = bool (*)(void *object, uint64_t value);
bool msg_fits(const void *object);
void msg_send(int pe, const void *object, uint64_t value);
void msg_poll();
void set_msg_handler(MsgHandler handler);

// ends_observed: a PE that ends with status 0 while other PEs may still wait for it in the library tells them
// (finish(0), or the C library's exit on a hosted port, calls shmem::detail::announce_end, below), so that a wait
// of the library's that can no longer end is reported instead of hanging.
//  - notify_end(pe): after the store that tells PE pe (shmemi_peer_ended), wake it from whatever wait of the
//    library's it sleeps in, the port's own (hw_barrier) included; it orders that store before the wake-up.
//  - end_grace_polls(): how many looks at done() a wait_until makes in about a second when nothing wakes it (its
//    backstop's period, plus what it polls before it sleeps): the time a wait woken by a PE's end is given to end
//    before it is reported.
// A port's own waits on every PE of the run (hw_barrier) look at shmemi_peer_ended where they would sleep and call
// shmem::detail::world_wait_ended with their done() when it is set.
void notify_end(int pe);
unsigned end_grace_polls();

// The operations of the AMOs (shmem/src/amo.cpp); atomic_rmw does all of them but fetch and set.
enum class AmoOp { fetch, set, swap, cswap, add, and_, or_, xor_ };

// has_network: a run may have PEs whose memory this PE cannot reach by loads and stores (another machine's), which
// the port reaches through a network. reachable(pe) says which PEs remote_ptr serves: one contiguous range of PE
// numbers, this PE's among them (SHMEM_TEAM_SHARED is that range). The core never calls remote_ptr with another
// PE, nor notify or a wake-up of it, and calls these hooks instead. `dest`, `source` and `word` are addresses in
// this PE's own symmetric memory: the port finds PE pe's copy of the object.
//  - net_put(pe, dest, source, n): n bytes from source to PE pe's dest; source may be reused on return; the bytes
//    are in place at the target after quiet() (which completes the network's puts as well as the stores).
//  - net_put_signal(pe, dest, source, n, flag, flag_bytes, add, v): n bytes (none or more) from source to PE pe's
//    dest, then PE pe's flag (flag_bytes = 4 or 8) set to v (add false) or raised by v (add true), in one piece
//    and after the bytes are in place there. A flag of the library's own that its target waits for (a barrier's
//    round, a collective's arrival count): only this hook, the target's loads and its CPU atomics change it, never
//    net_amo, so it is in the CPU's atomic domain whatever the run's. quiet() need not complete it (the target
//    waits for it); source may be reused on return.
//  - net_get(dest, pe, source, n): n bytes from PE pe's source into dest, there on return.
//  - net_get_nbi(dest, pe, source, n): the same, there only after net_get_wait() or quiet(), so that many gets are
//    in flight at once; net_get_wait(): every net_get_nbi of this PE's is complete.
//  - net_amo(op, pe, word, bytes, v, cond): the AMO `op` (as atomic_rmw's, with fetch and set) on PE pe's word of
//    4 or 8 bytes; returns the old value (fetch, swap, cswap, the fetching forms), complete on return. Atomic with
//    respect to every AMO of the run on that word, the CPU's on reachable PEs included (the port's atomic domain).
//  - net_post(op, pe, word, bytes, v): the AMO add, and_, or_ or xor_ without its old value: complete (done at
//    the target) after quiet(), as a put; it costs no round trip.
//  - net_fence(): this PE's net_put, net_amo and net_post calls before it reach each target before those after it.
//  - atomics_by_network(): every AMO of the run goes through net_amo, those on reachable PEs (this one's included)
//    too: the run's atomic domain is the network's (a NIC's atomics are not atomic with respect to the CPU's). The
//    library's own words that network AMOs reach follow the same rule.
//  - net_progress(): moves what has arrived for this PE (the others' puts and AMOs into its memory, over a network
//    that emulates RMA in software) without waiting; nothing where the run has no PE beyond reach. The core calls
//    it where a routine looks at this PE's memory without waiting (shmem_test and its array forms,
//    shmem_signal_fetch, the channels' receives), so that a loop of them moves the network along.
//  - node_first(pe): the first PE of pe's node, the contiguous range of PEs that reach each other by remote_ptr
//    (for this PE's node, the lowest PE that reachable() accepts); every PE gets the same answer for the same pe.
// The others' puts into this PE's memory may need this PE to move them (a network that emulates RMA in software):
// the port's waits progress the network, and with has_network a wait's done() may be true without any notify.
bool reachable(int pe);
int node_first(int pe);
void net_put(int pe, void *dest, const void *source, size_t n);
void net_put_signal(int pe, void *dest, const void *source, size_t n, void *flag, unsigned flag_bytes, bool add,
                    uint64_t v);
void net_get(void *dest, int pe, const void *source, size_t n);
void net_get_nbi(void *dest, int pe, const void *source, size_t n);
void net_get_wait();
uint64_t net_amo(AmoOp op, int pe, void *word, unsigned bytes, uint64_t v, uint64_t cond);
void net_post(AmoOp op, int pe, void *word, unsigned bytes, uint64_t v);
void net_fence();
void net_progress();
bool atomics_by_network();

}  // namespace shmem::port

// ---- what the core gives a port: the end of a PE (shmem/src/ended.cpp) ----------------------------------------
// shmemi_end_state is each PE's own record of how far it got (read by the others through remote_ptr):
// end_phase_* in its low byte, end_ended once it has ended. shmemi_peer_ended (or the port's peer_ended_word()) counts
// the ends announced to a PE: every PE that ends adds one before it wakes that PE (notify_end); non-zero, a wait
// looks at the ends (never cleared).
extern "C" uint32_t shmemi_end_state, shmemi_peer_ended;
namespace shmem::detail {
inline constexpr uint32_t end_phase_running = 0, end_phase_initialized = 1, end_phase_finalizing = 2,
                          end_phase_finalized = 3, end_ended = 0x100;
// What finish(0) calls (ends_observed): completes this PE's writes, records that it ended and tells the PEs that
// may wait for it.
void announce_end();
// A wait of a port's own on every PE of the run whose done(arg) was false and shmemi_peer_ended non-zero: returns once
// done(arg) is true; reports the wait and ends the run (134) if a PE that ended left it unable to end.
[[gnu::cold]] void world_wait_ended(bool (*done)(const void *), const void *arg);
// The same for the wait of a port's own sweep (own_sweep) on a flag of `group` (a Group, SweepLayout): the PEs it
// depends on are the group's; returns once *flag is non-zero (the sweep then lowers it).
[[gnu::cold]] void sweep_wait_ended(const void *group, const volatile long *flag);
// ends_seen_on_wake (a port with ends_observed whose notify_end leaves a wake-up that no clear of its own loses, and
// whose waits then look, virt-rv64): the port's wait_until, wait_notified and wait_notified_after call
// end_seen(done) after every wake-up that did not make done() true, and return if it is true. For the library's
// waits, done is an EndAware (internal.hpp): end_seen() looks at shmemi_peer_ended and, non-zero, finishes the wait
// in wait_ended (which returns once done() is true, or reports it) and calls port::end_taken() (the port takes its
// wake-up away); for any other done() it is false. Nothing of it runs on a wait's way when no PE has ended: it is
// only on the path after a wake-up that found nothing.
template <class D>
auto end_seen_of(const D &d, int) -> decltype(d.end_seen())
{
    return d.end_seen();
}
template <class D>
bool end_seen_of(const D &, long)
{
    return false;
}
template <class D>
[[gnu::always_inline]] inline bool end_seen(const D &d)
{
    return end_seen_of(d, 0);
}
}  // namespace shmem::detail

// ---- 3. the port --------------------------------------------------------------------------------------------

#include "shmem_port.hpp"

// ---- 4. the defaults of the optional hooks ----------------------------------------------------------------------

namespace shmem::port_defaults {}
namespace shmem::port {
using namespace shmem::port_defaults;
}

namespace shmem::port_defaults {

// ---- atomics
// has_native_atomics: the __atomic builtins work on any PE's words (from remote_ptr) and are atomic against each
// other; the AMOs are then one atomic_rmw each, and groups of up to 16 PEs sweep flat (their ranks arrive at the
// root by __atomic_fetch_add on its count, unless own_sweep). Without: every AMO takes a TESTSET lock on its
// target PE (test_and_set).
inline constexpr bool has_native_atomics = false;
// atomic_rmw<op>(w, v, cond): with native atomics, one sequentially consistent read-modify-write of the word *w
// (another PE's, from remote_ptr) of 4 or 8 bytes (B: uint32_t or uint64_t); returns the old value. swap, add,
// and_, or_, xor_ combine it with v; cswap writes v only if the word was cond. A port replaces it where its
// compiler's builtins are not the best sequence (virt-rv64: one amo<op>.aqrl).
template <port::AmoOp op, class B>
[[gnu::always_inline]] inline B atomic_rmw(B *w, B v, B cond)
{
    constexpr int mo = __ATOMIC_SEQ_CST;
    if constexpr (op == port::AmoOp::swap) {
        return __atomic_exchange_n(w, v, mo);
    } else if constexpr (op == port::AmoOp::cswap) {
        __atomic_compare_exchange_n(w, &cond, v, false, mo, mo);
        return cond;  // the old value: equal to cond on success, written back on failure
    } else if constexpr (op == port::AmoOp::add) {
        return __atomic_fetch_add(w, v, mo);
    } else if constexpr (op == port::AmoOp::and_) {
        return __atomic_fetch_and(w, v, mo);
    } else if constexpr (op == port::AmoOp::or_) {
        return __atomic_fetch_or(w, v, mo);
    } else {
        static_assert(op == port::AmoOp::xor_, "atomic_rmw: fetch and set are loads and stores");
        return __atomic_fetch_xor(w, v, mo);
    }
}

// ---- waking: a wake-up worked out in advance
// Waker and waker(pe) (together): a wake-up worked out before the write it follows, for notify(waker),
// notify_after_rmw and notify_waiter (the dissemination barrier's rounds, worked out once per run; an AMO's,
// worked out before the atomic, whose compiler barrier would make the compiler load the geometry again). Epiphany:
// the partner's ILATST address; virt-rv64: the target's `sleeping` word and SETSSIP register. By default the PE
// number; a port with its own Waker also defines waker and notify(Waker).
using Waker = int;
inline Waker waker(int pe) { return pe; }
// notify_after_rmw(w): the notify after a native atomic on the target's memory: notify, unless the atomic orders
// the notify's read after its write by itself (a locked instruction on x86-64, an AMO with .aq on RISC-V).
inline void notify_after_rmw(port::Waker w) { port::notify(w); }
// notify_waiter(w): the writer's side of wait_notified, after the store that ends the wait.
inline void notify_waiter(port::Waker w) { port::notify(w); }
// wait_notified(done): a wait whose every writer calls notify_waiter after its write (the collectives' flags, the
// dissemination barrier's rounds), which may therefore sleep without a backstop (Epiphany, virt-rv64).
template <class Done>
inline void wait_notified(Done done)
{
    port::wait_until(done);
}
// wait_notified_after(arrive, done): the same wait for a PE that first tells another that it waits (arrive(): a flat
// sweep's arrival at its root) and is woken only after that. virt-rv64 clears its wake-up before the arrival and
// sleeps at once, with no look before the first sleep; arrive() then orders that clear before its write.
template <class Arrive, class Done>
inline void wait_notified_after(Arrive arrive, Done done)
{
    arrive();
    port::wait_notified(done);
}
// user_writes_notify: the user's puts, p, iput, AMOs and signal updates notify their target, and the user's waits
// (shmem_wait_until, the wait/test families, shmem_signal_wait_until) sleep in wait_until (virt-rv64, linux: a
// notify is a read of the target's `sleeping` word, cheap there). false: they write and nothing else, and the
// user's waits poll their own memory (Epiphany: a wake-up is a second mesh transaction and an interrupt on a core
// that may be busy). The library's own waits (barriers, collectives, locks, channels) are woken by their writers
// either way.
inline constexpr bool user_writes_notify = false;
// notify_self_harmless: a notify of the calling PE itself does no harm (virt-rv64: its `sleeping` word is 0 while
// it runs), so the core notifies without testing pe != me.
inline constexpr bool notify_self_harmless = false;
// check_stack(): the stack guard's check of a port without memory protection (a guard word at the stack's lowest
// address): at every barrier of the whole run and at the end. Nothing where an overflow traps at once.
inline void check_stack() {}

// ---- layout
// has_pe_step: every partition is pe_step() bytes (a multiple of 8) after the one before, so PE pe + k's copy of
// any symmetric object is k steps after PE pe's (modulo the address space), and waker_step(w, k, bytes) is PE
// pe + k's wake-up from PE pe's w (bytes = k * pe_step()). A flat sweep's root then walks the other ranks as two
// such runs, with no table of their addresses, and a reduction's root folds each run (combine_run). Without it the
// core uses a table of remote addresses, and pe_step and waker_step are never called.
inline constexpr bool has_pe_step = false;
inline uintptr_t pe_step() { return 0; }
inline port::Waker waker_step(port::Waker w, int, uintptr_t) { return w; }
// near(x): x, a static object of the library's own (.data, .bss) or a function of it, as a reference the compiler
// cannot see through: a port whose library data and code lie where one instruction makes their address (Epiphany:
// local memory, a 16-bit mov) makes it so, where the compiler would make a full one (there: mov and movt, 4 bytes
// more at every use). By default x itself.
template <class T>
[[gnu::always_inline]] inline T &near(T &x)
{
    return x;
}
// has_int_multiply: an int multiply is one cheap instruction. Group::world multiplies where it is and adds shifts
// where it is not (Epiphany: a multiply is a floating-point-unit mode switch).
inline constexpr bool has_int_multiply = true;

// ---- optional hardware: the flags of the hooks declared in 2.
inline constexpr bool has_copy_inline = false;
inline constexpr bool has_hw_barrier = false;
// hw_barrier_fences: hw_barrier begins with a full fence, so shmem_barrier_all need not call quiet() first.
inline constexpr bool hw_barrier_fences = false;
// hw_barrier_usable(): whether this run can use the hardware barrier (Epiphany's WAND needs every core of the chip);
// hw_barrier_needs: what it needs, for the report of SHMEM_BARRIER=wand in a run without it.
inline constexpr bool hw_barrier_usable() { return true; }
inline constexpr const char hw_barrier_needs[] = "nothing";
inline constexpr bool own_barrier_world = false;  // the core's barrier (sync.cpp), over hw_barrier where usable
inline constexpr bool own_sweep = false;          // the core's sweep (coll_sweep.cpp)
inline constexpr bool has_dma = false;            // _nbi transfers complete before they return
inline constexpr size_t dma_min = 0;
inline constexpr bool has_msg_channel = false;    // the shmemx channels run over shared memory
inline constexpr bool has_network = false;        // every PE's memory is reachable (remote_ptr)
inline constexpr unsigned msg_words = 0, msg_budget = 0;
inline constexpr bool ends_observed = false;      // a PE's end is not seen by the others' waits
inline constexpr bool ends_seen_on_wake = false;  // the library's waits look for an end in their done() (internal.hpp)
inline void end_taken() {}                        // ends_seen_on_wake: after a wait that an end finished
// ends_observed: the word that counts the ends announced to this PE (the others reach theirs by remote_ptr)
inline uint32_t *peer_ended_word() { return &shmemi_peer_ended; }

// ---- the platform
// console_write_early(buf, n): raw text for the startup code's reports before anything is set up (no record, no
// lock: a PE may have no number yet, and PE 0's console lock may not be cleared). By default a stderr record, for
// a console that works from the first instruction (a ring of the PE's own).
inline void console_write_early(const char *buf, size_t n) { port::console_write(SHMEM_CONSOLE_STDERR, buf, n); }
// flush_console(): ends this PE's partly written lines, if the port buffers any (virt-rv64: the C library's
// streams, line-buffered per PE), each with a newline: before a report that ends the run, which then starts a line.
inline void flush_console() {}
// console_release_if_mine(): for the trap report; a PE that trapped inside console_write releases the console's
// lock if it holds it (and pads a record cut short). Nothing where the console has no lock.
inline void console_release_if_mine() {}
// has_environment: a PE has getenv (the boot block carries oshrun's -x and SHMEM_* variables); shmem_init then
// reads SHMEM_VERSION, SHMEM_INFO and SHMEM_DEBUG.
inline constexpr bool has_environment = false;
// has_private_heap: malloc's heap lies between the static data and the symmetric heap, [__shmem_static_end,
// geometry.heap_lo) (the linker script), and the core's symmetric-address checks leave it out.
inline constexpr bool has_private_heap = false;
// heap_alignment: the alignment of shmem_malloc's blocks (shmem_align asks for more); a power of two.
inline constexpr size_t heap_alignment = 16;

}  // namespace shmem::port_defaults

// ---- what can be checked of a port at compile time ----------------------------------------------------------------

static_assert(shmem::port::max_pes >= 1, "port: max_pes");
static_assert((shmem::port::heap_alignment & (shmem::port::heap_alignment - 1)) == 0, "port: heap_alignment");
static_assert(!shmem::port::has_msg_channel ||
                  (shmem::port::msg_words > 0 && shmem::port::msg_budget >= shmem::port::msg_words),
              "port: msg_words and msg_budget of a message channel");
