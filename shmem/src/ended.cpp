// A PE that ends while the others wait for it (port::ends_observed). The specification makes shmem_finalize
// collective and the last call of the OpenSHMEM part of a program, and a shmem_init must be matched by one; a PE
// that ends without it, or a PE whose collective calls do not match the others' and that ends after shmem_finalize,
// can leave a wait of the library's that nothing will ever end. Instead of hanging, that wait is reported (the
// waiting PE, its routine, the PE that ended and how) and the run ends with status 134.
//
// How (the ender): announce_end records the end in the PE's own shmemi_end_state, after its writes are complete,
// then sets shmemi_peer_ended on every PE that may wait for it and wakes it (notify_end). A PE that ended, and after a
// PE's shmem_finalize a PE that is in or past its own, waits for nothing this one can end, and is left alone: a run
// whose PEs all call shmem_finalize wakes nobody at its end.
// How (the waiter): a library wait that finds done() false looks at shmemi_peer_ended (internal.hpp,
// library_wait; the ports' own barriers likewise), the count of the ends announced to this PE, and, non-zero, reads
// the end state of the PEs it depends on. (The count is never cleared: a wait that depends on none of the ended PEs
// waits on, watching only for another end, and every later wait looks again, so an end that one wait could ignore
// is still found by the next wait that depends on that PE.) A PE that ended without doing its part of the wait can never do it; but one that ended after its part (a
// program that returns without shmem_finalize, every PE of it) leaves a wait that the others end. So the wait is
// given about a second (port::end_grace_polls looks, which the port's backstop paces) to end before it is
// reported. None of its PEs ended: it sleeps on.
#include "internal.hpp"

uint32_t shmemi_end_state = 0;
uint32_t shmemi_peer_ended = 0;

namespace shmem::detail {

const char *current_routine = nullptr;

namespace {

// (port::has_network) The end states of the PEs beyond reach as they announced them to this PE: an ender's
// signal writes its state into its entry here, then raises shmemi_peer_ended. Symmetric (static data): the ender
// names its entry by its own address.
uint32_t net_end_state[port::has_network ? port::max_pes : 1];

uint32_t end_state_of(int pe)
{
    if (by_network(pe)) return __atomic_load_n(&net_end_state[pe], __ATOMIC_ACQUIRE);
    return __atomic_load_n(port::remote_ptr(&shmemi_end_state, pe), __ATOMIC_ACQUIRE);
}

// A PE of `who`, other than this one, that has ended; -1 if none has. A PE this PE reaches through the network
// is seen as its announcement left it (net_end_state): one that ended after its shmem_finalize announces nothing
// there (its memory may be gone: the launcher sees its end, and ends the run if it was not a clean one).
int ended_member(PeSet who)
{
    const int me = port::my_pe();
    for (int r = 0; r < who.size; ++r) {
        const int pe = int(unsigned(who.start) + unsigned(r) * unsigned(who.stride));
        if (pe != me && (end_state_of(pe) & end_ended) != 0) return pe;
    }
    return -1;
}

[[noreturn]] void fail_ended(int pe)
{
    const uint32_t s = end_state_of(pe);
    // (shmem_finalize's barrier is shmem_barrier_all's, which names itself when checks are on)
    const char *routine = (shmemi_end_state & 0xff) == end_phase_finalizing ? "shmem_finalize"
                          : current_routine != nullptr                      ? current_routine
                                                                            : "a barrier, collective or lock routine";
    Usage u(routine);
    u.m().s("waits for PE ").i(pe).s(", which has ended");
    switch (s & 0xff) {
    case end_phase_running:
        u.m().s(" (exit status 0) without calling shmem_init; expected every PE to call shmem_init and ")
            .s("shmem_finalize");
        break;
    case end_phase_initialized:
        u.m().s(" (exit status 0) without calling shmem_finalize; expected every PE to call shmem_finalize ")
            .s("before it ends");
        break;
    default:
        u.m().s(" after shmem_finalize; expected every PE to make the same collective calls, in the same order");
        break;
    }
    u.fail();
}

}  // namespace

void announce_end()
{
    if constexpr (port::ends_observed) {
        port::quiet();  // what this PE wrote is there before the others can see that it ended
        const uint32_t mine = __atomic_load_n(&shmemi_end_state, __ATOMIC_RELAXED);
        __atomic_store_n(&shmemi_end_state, mine | end_ended, __ATOMIC_SEQ_CST);
        const bool finalized = (mine & 0xff) == end_phase_finalized;
        const int me = port::my_pe(), n = port::n_pes();
        for (int pe = 0; pe < n; ++pe) {
            if (pe == me) continue;
            if (by_network(pe)) {
                // Another node's PE, whose state this PE cannot read: told of an end without shmem_finalize (its
                // state, then its count raised, in one message). Every PE's process is still there: none ends
                // before every PE has begun to end (the port's net_stop, after this). After a shmem_finalize, none:
                // a clean run's end sends nothing across the network.
                if (!finalized)
                    network_put_signal(pe, &net_end_state[me], &shmemi_end_state, sizeof(uint32_t),
                                       port::peer_ended_word(), sizeof(uint32_t), true, 1);
                continue;
            }
            const uint32_t theirs = end_state_of(pe);
            if ((theirs & end_ended) != 0) continue;  // waits for nothing
            // After this PE's shmem_finalize, every PE is in its own or past it: a wait there ends without this one.
            if (finalized && (theirs & 0xff) >= end_phase_finalizing) continue;
            __atomic_fetch_add(port::remote_ptr(port::peer_ended_word(), pe), 1u, __ATOMIC_SEQ_CST);
            port::notify_end(pe);
        }
    }
}

void wait_ended(PeSet who, bool (*done)(const void *), const void *arg)
{
    if constexpr (port::ends_observed) {  // (called only there: library_wait)
        for (;;) {
            // The ends announced so far: read before the look, so that a later one is seen by the wait below.
            const uint32_t seen = __atomic_load_n(port::peer_ended_word(), __ATOMIC_SEQ_CST);
            if (done(arg)) return;
            const int pe = ended_member(who);
            if (pe < 0) {
                // Only PEs this wait does not depend on: on with the wait, until done or another end.
                bool another = false;
                port::wait_until([done, arg, seen, &another] {
                    if (done(arg)) return true;
                    another = __atomic_load_n(port::peer_ended_word(), __ATOMIC_RELAXED) != seen;
                    return another;
                });
                if (!another) return;
                continue;
            }
            unsigned looks = 0;
            const unsigned grace = port::end_grace_polls();
            port::wait_until([done, arg, &looks, grace] { return done(arg) || ++looks > grace; });
            if (done(arg)) return;
            fail_ended(pe);
        }
    }
}

void world_wait_ended(bool (*done)(const void *), const void *arg) { wait_ended({0, 1, port::n_pes()}, done, arg); }

}  // namespace shmem::detail
