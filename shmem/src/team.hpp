// Teams and contexts: the objects behind shmem_team_t and shmem_ctx_t, and the translation of a context's
// team-relative PE numbers to world PE numbers that every context routine starts with.
#pragma once

#include "internal.hpp"

namespace shmem::detail {
struct Group;
// Whether a team's group is made once, in a table (coll.hpp): not on a port with its own sweep (Epiphany).
inline constexpr bool team_group_table = !port::own_sweep;
}  // namespace shmem::detail

// Every team is a strided set of world PEs: start, start + stride, ..., start + (size - 1) * stride. Splits of a
// strided team (strided or 2D) are strided again, so this is all any team needs.
struct shmem_team_s {
    int start;
    int stride;
    int size;    // 0 for a free object (zero-initialized ones are free)
    int my_pe;   // this PE's number in the team
    int slot;    // index of the team's symmetric scratch (same on every member)
    int n_ctx;   // contexts created from this team and not destroyed
    shmem_team_config_t config;
    long config_mask;
    unsigned agree_seq;  // with checks: this team's collectives so far whose arguments were compared (coll_agree.cpp)
    // Where the groups are in a table: this team's entry, one load for a collective where the slot's index took five
    // instructions (set_team_group).
    const shmem::detail::Group *group[shmem::detail::team_group_table ? 1 : 0];
};

struct shmem_ctx_s {
    shmem_team_s *team;
    long options;
    int in_use;
};

namespace shmem::detail {

// Limits, fixed at build time: every team has a slot of symmetric scratch (barrier and collective flags and
// the reduction work area), so their number decides a part of every PE's memory.
#ifndef SHMEM_MAX_TEAMS
#define SHMEM_MAX_TEAMS 32
#endif
#ifndef SHMEM_MAX_CONTEXTS
#define SHMEM_MAX_CONTEXTS 64
#endif
inline constexpr int max_teams = SHMEM_MAX_TEAMS;
inline constexpr int max_contexts = SHMEM_MAX_CONTEXTS;

extern shmem_ctx_s ctx_objects[max_contexts];  // the created contexts (setup.cpp; in_use == 0: free)
extern shmem_team_s team_objects[max_teams];   // the created teams (team.cpp; size == 0: free)

// Whether p points at an element of objects[n], found without reading through p (a handle may be garbage: an
// uninitialised variable, a pointer to other data). An exact division where the machine multiplies; a walk of the
// few objects of a small build (Epiphany's 4 teams and 8 contexts) where a division would be a library call.
template <class T, size_t N>
[[gnu::always_inline]] inline bool is_element(const T *p, const T (&objects)[N])
{
    if constexpr (N <= 8) {
        for (size_t i = 0; i < N; ++i)
            if (p == &objects[i]) return true;
        return false;
    } else {
        const uintptr_t off = reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(objects);
        return off < sizeof objects && off % sizeof(T) == 0;
    }
}
// A live team of this PE: a predefined one, or a created object that is not free. SHMEM_TEAM_WORLD costs one
// compare; nothing is read through a handle before it is known to be one of the library's objects.
[[gnu::always_inline]] inline bool is_live_team(const shmem_team_s *t)
{
    return t == &shmemi_team_world || t == &shmemi_team_shared || (is_element(t, team_objects) && t->size != 0);
}

inline int team_world_pe(const shmem_team_s *t, int team_pe) { return t->start + team_pe * t->stride; }

// With checks (a no-op without): a collective of `team` whose arguments must agree on every member compares them,
// and the routine itself, with rank 0's before it runs, and ends the run naming the first that differs. Names are
// null for the values that are not used. (compare_team_arguments in coll_agree.cpp; an extra barrier of the team.)
void compare_team_arguments(const char *routine, shmem_team_s *team, const char *n1, int64_t v1, const char *n2,
                            int64_t v2, const char *n3, int64_t v3);
inline void check_agreement(const char *routine, shmem_team_s *team, const char *n1 = nullptr, int64_t v1 = 0,
                            const char *n2 = nullptr, int64_t v2 = 0, const char *n3 = nullptr, int64_t v3 = 0)
{
    if constexpr (checks) compare_team_arguments(routine, team, n1, v1, n2, v2, n3, v3);
}

[[noreturn]] void fail_bad_ctx(const char *routine, shmem_ctx_t ctx);
[[noreturn]] void fail_bad_team(const char *routine, shmem_team_t team);
[[noreturn]] void fail_bad_team_pe(const char *routine, shmem_team_t team, int pe);

inline void check_ctx(const char *routine, shmem_ctx_t ctx)
{
    if constexpr (checks)
        if (__builtin_expect(ctx != SHMEM_CTX_DEFAULT && (!is_element(ctx, ctx_objects) || ctx->in_use == 0), 0))
            fail_bad_ctx(routine, ctx);
}

// With checks, the handle is validated before anything is read through it (is_live_team). The builds with only the
// cheap checks (Release) test SHMEM_TEAM_INVALID and a free object, a compare and a load: a handle that points at
// no object of the library is read through there (docs/internals.md, what each build checks).
inline void check_team(const char *routine, shmem_team_t team)
{
    if constexpr (checks) {
        if (__builtin_expect(!is_live_team(team), 0)) fail_bad_team(routine, team);
    } else if constexpr (cheap_checks) {
        if (__builtin_expect(team == nullptr || team->size == 0, 0)) fail_bad_team(routine, team);
    }
}

// The world PE that `pe` of the context's team is, after checking the context and the PE (OpenSHMEM 1.5: the
// PE argument of a context routine is relative to the context's team).
[[gnu::always_inline]] inline int ctx_pe(const char *routine, shmem_ctx_t ctx, int pe)
{
    // The plain routines pass SHMEM_CTX_DEFAULT, a constant: this branch is all that remains of them.
    if (ctx == SHMEM_CTX_DEFAULT) {
        check_pe(routine, pe);
        return pe;
    }
    check_ctx(routine, ctx);
    const shmem_team_s *t = ctx->team;
    if constexpr (cheap_checks)
        if (__builtin_expect(unsigned(pe) >= unsigned(t->size), 0)) fail_bad_team_pe(routine, ctx->team, pe);
    return team_world_pe(t, pe);
}

// A context's DMA channel on a port with DMA (port::has_dma): the default context's is 0, created contexts
// alternate from 1, so that two contexts are quieted independently (shmem_ctx_quiet waits for its own only).
inline unsigned ctx_channel(shmem_ctx_t ctx)
{
    return ctx == SHMEM_CTX_DEFAULT ? 0u : unsigned(ctx - ctx_objects + 1) & 1u;
}

}  // namespace shmem::detail
