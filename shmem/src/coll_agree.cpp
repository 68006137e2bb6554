// The agreement checks (builds with checks): every PE of a team or an active set publishes the arguments that must
// agree, and compares them with those of the group's first PE after a barrier.
#include "coll.hpp"

using namespace shmem;
using namespace shmem::detail;

namespace shmem::detail {

// A routine's identity across PEs (each has its own copy of the image, at its own address): its name, hashed.
static uint64_t name_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s != '\0'; ++s) h = (h ^ uint8_t(*s)) * 0x100000001b3ull;
    return h;
}

// Compares the words this PE published for an agreement check with those of its group's first PE (world PE pe0)
// and reports the first that differs: word 0 stands for the routine, words 1..3 for the named arguments. W is the
// word of the storage: a team slot's uint64_t, a pSync's long. `first` names pe0's place in the group, `group` the
// group, `routine_tail` ends the report of another routine.
template <class W>
void compare_with_first(const char *routine, const W *mine, int pe0, const char *const names[4], const char *first,
                        const char *group, const char *routine_tail)
{
    const bool net = by_network(pe0);
    const W *theirs = net ? mine : port::remote_ptr(mine, pe0);
    for (int i = 0; i < 4; ++i) {
        const W v = net ? peer_load(&mine[i], pe0) : __atomic_load_n(&theirs[i], __ATOMIC_ACQUIRE);
        if (v == mine[i]) continue;
        Usage u(routine);
        if (i == 0)
            u.m().s("PE ").i(pe0).s(" (").s(first).s(") called another collective routine ").s(routine_tail);
        else
            u.m().s(names[i]).s(" = ").i(long(int64_t(mine[i]))).s(", but PE ").i(pe0).s(" (").s(first)
                .s(") passed ").s(names[i]).s(" = ").i(long(int64_t(v))).s("; every PE of the ").s(group)
                .s(" must pass the same");
        u.fail();
    }
}

void compare_team_arguments(const char *routine, shmem_team_s *t, const char *n1, int64_t v1, const char *n2,
                            int64_t v2, const char *n3, int64_t v3)
{
    if constexpr (checks) {
        if (t->size == 1) return;
        uint64_t *mine = team_scratch[t->slot].agree[t->agree_seq++ & 1];
        const uint64_t values[4] = {name_hash(routine), uint64_t(v1), uint64_t(v2), uint64_t(v3)};
        for (int i = 0; i < 4; ++i) __atomic_store_n(&mine[i], values[i], __ATOMIC_RELAXED);
        group_barrier(team_group(t));  // every member has published (a release barrier)
        if (t->my_pe == 0) return;
        const char *names[4] = {nullptr, n1, n2, n3};
        compare_with_first(routine, mine, team_world_pe(t, 0), names, "PE 0 of the team", "team",
                           "at this point; every PE of a team calls the same collectives in the same order");
    }
}

// With checks, the deprecated active-set collectives compare their arguments with the set's first PE too, in
// 4 words of the library's own (active_agree: a pSync holds only the engine's flags, so that the header can size
// it for them): publish, barrier, compare, barrier, clear (the second barrier lets no PE clear or republish its
// words before every other has read the first PE's). A PE takes part in one collective at a time, and the first PE
// of a set reads nobody's words but its own set's, so sets that run at once do not meet here. Two barriers of the
// set, in checked builds only, for a deprecated interface. The routines that only sweep (barrier, broadcast,
// reductions, alltoall) use the first sweep_flags flags of their pSync; collect and fcollect all flag_count.
static long active_agree[checks ? 4 : 0];
void agree_active_set(const char *routine, const Group &g, const char *n1, int64_t v1, const char *n2, int64_t v2,
                      const char *n3, int64_t v3)
{
    if constexpr (checks) {
        if (g.size == 1) return;
        long *mine = active_agree;
        const long values[4] = {long(name_hash(routine)), long(v1), long(v2), long(v3)};
        for (int i = 0; i < 4; ++i) __atomic_store_n(&mine[i], values[i], __ATOMIC_RELAXED);
        group_barrier(g);
        if (g.rank != 0) {
            const char *names[4] = {nullptr, n1, n2, n3};
            compare_with_first(routine, mine, g.world(0), names, "the first PE of the active set", "active set",
                               "with this pSync; every PE of an active set calls the same collectives in the same order");
        }
        group_barrier(g);
        for (int i = 0; i < 4; ++i) mine[i] = SHMEM_SYNC_VALUE;
    }
}

}  // namespace shmem::detail
