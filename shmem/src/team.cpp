// Teams and contexts: the predefined objects, creation and destruction, queries, PE translation.
#include "team.hpp"

using namespace shmem;
using namespace shmem::detail;

// The predefined handles. WORLD and SHARED have the same members on this machine (every PE's memory is reachable
// by load/store from every other), but their own scratch slots, so their collectives never share flags.
shmem_team_s shmemi_team_world = {0, 1, 0, 0, -1, 0, {0}, 0};
shmem_team_s shmemi_team_shared = {0, 1, 0, 0, -1, 0, {0}, 0};
shmem_ctx_s shmemi_ctx_default = {&shmemi_team_world, 0, 0};

namespace shmem::detail {

shmem_team_s team_objects[max_teams];  // objects of created teams (slot < 0: free)
shmem_ctx_s ctx_objects[max_contexts]; // objects of created contexts (in_use == 0: free)

void init_teams()
{
    const int n = port::n_pes(), me = port::my_pe();
    shmem_team_s *predefined[] = {&shmemi_team_world, &shmemi_team_shared};
    for (shmem_team_s *t : predefined) {
        t->start = 0;
        t->stride = 1;
        t->size = n;
        t->my_pe = me;
        t->n_ctx = 0;
        t->config.num_contexts = 0;
        t->config_mask = 0;
    }
    shmemi_team_world.slot = 0;
    shmemi_team_shared.slot = 1;
    for (auto &t : team_objects) t.slot = -1;
    shmemi_ctx_default = {&shmemi_team_world, 0, 1};
}

void fail_bad_ctx(const char *routine, shmem_ctx_t ctx)
{
    Usage u(routine);
    if (ctx == nullptr) {
        u.m().s("ctx is SHMEM_CTX_INVALID; expected a context from shmem_ctx_create or SHMEM_CTX_DEFAULT");
    } else {
        u.m().s("ctx = ").p(ctx).s(" is not a live context (destroyed, or never created)");
    }
    u.fail();
}

void fail_bad_team(const char *routine, shmem_team_t team)
{
    Usage u(routine);
    if (team == nullptr) {
        u.m().s("team is SHMEM_TEAM_INVALID; expected a team this PE belongs to");
    } else {
        u.m().s("team = ").p(team).s(" is not a live team (destroyed, or never created)");
    }
    u.fail();
}

void fail_bad_team_pe(const char *routine, shmem_team_t team, int pe)
{
    Usage u(routine);
    if (team == &shmemi_team_world) {
        u.m().s("pe = ").i(pe).s(" is not a PE of this run; expected 0 <= pe < ").i(team->size);
    } else {
        u.m().s("pe = ").i(pe).s(" is not a PE of the team; expected 0 <= pe < ").i(team->size)
            .s(" (PE numbers of a context are relative to its team)");
    }
    u.fail();
}

}  // namespace shmem::detail

extern "C" {

int shmem_team_my_pe(shmem_team_t team)
{
    if (team == SHMEM_TEAM_INVALID) return -1;
    check_team("shmem_team_my_pe", team);
    return team->my_pe;
}

int shmem_team_n_pes(shmem_team_t team)
{
    if (team == SHMEM_TEAM_INVALID) return -1;
    check_team("shmem_team_n_pes", team);
    return team->size;
}

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config)
{
    if (team == SHMEM_TEAM_INVALID) return -1;
    check_team("shmem_team_get_config", team);
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS) config->num_contexts = team->config.num_contexts;
    return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)
{
    if (src_team == SHMEM_TEAM_INVALID || dest_team == SHMEM_TEAM_INVALID) return -1;
    check_team("shmem_team_translate_pe", src_team);
    check_team("shmem_team_translate_pe", dest_team);
    if (src_pe < 0 || src_pe >= src_team->size) return -1;
    const int world = team_world_pe(src_team, src_pe);
    const int off = world - dest_team->start;
    if (off < 0 || off % dest_team->stride != 0 || off / dest_team->stride >= dest_team->size) return -1;
    return off / dest_team->stride;
}

int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    check_init("shmem_team_create_ctx");
    if (team == SHMEM_TEAM_INVALID) {
        *ctx = SHMEM_CTX_INVALID;
        return -1;
    }
    check_team("shmem_team_create_ctx", team);
    // num_contexts in a team's configuration is a hint about how many will be made; the pool (SHMEM_MAX_CONTEXTS
    // for the whole PE) is the only limit.
    for (auto &c : ctx_objects) {
        if (c.in_use) continue;
        c = {team, options, 1};
        ++team->n_ctx;
        *ctx = &c;
        return 0;
    }
    *ctx = SHMEM_CTX_INVALID;
    return -1;  // pool exhausted (SHMEM_MAX_CONTEXTS); the specification's non-zero return
}

int shmem_ctx_create(long options, shmem_ctx_t *ctx)
{
    return shmem_team_create_ctx(SHMEM_TEAM_WORLD, options, ctx);
}

void shmem_ctx_destroy(shmem_ctx_t ctx)
{
    if (ctx == SHMEM_CTX_INVALID) return;
    if (ctx == SHMEM_CTX_DEFAULT) {
        Usage u("shmem_ctx_destroy");
        u.m().s("ctx is SHMEM_CTX_DEFAULT, which cannot be destroyed");
        u.fail();
    }
    check_ctx("shmem_ctx_destroy", ctx);
    shmem_ctx_quiet(ctx);  // destroying a context completes its operations
    --ctx->team->n_ctx;
    ctx->in_use = 0;
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)
{
    if (ctx == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    check_ctx("shmem_ctx_get_team", ctx);
    *team = ctx->team;
    return 0;
}

}  // extern "C"
