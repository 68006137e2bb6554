// Teams and contexts: the predefined objects, creation and destruction, queries, PE translation.
#include "coll.hpp"

using namespace shmem;
using namespace shmem::detail;

// The predefined teams: every PE, in order. WORLD and SHARED have the same members where every PE's memory is
// reachable by load/store from every other (SHARED: those of this PE's node where the port has a network), but their own scratch slots (0 and 1), so their
// collectives never share flags. Their size and this PE's number come from the port (init_predefined below).
shmem_team_s shmemi_team_world = {0, 1, 0, 0, 0, 0, {0}, 0, 0, {}};
shmem_team_s shmemi_team_shared = {0, 1, 0, 0, 1, 0, {0}, 0, 0, {}};

namespace shmem::detail {

shmem_team_s team_objects[max_teams];  // objects of created teams (size 0: free)
// The my_pe of a free object that held a team (a destroyed one; a never-used object's is 0), for the reports.
constexpr int destroyed_mark = -1;

namespace {

// The predefined teams are filled in before main, by a constructor that runs before the program's own (the
// startup code has set up the port's geometry before any constructor). Only a program that links this file,
// because it uses teams or contexts, has it: shmem_init knows nothing of teams, and a program that only puts,
// gets and synchronizes pays nothing for them. The default context (setup.cpp) gets its team here for the same
// reason: only the routines of this file ask a context for its team.
void release_teams();
void (*release_next)();  // the release chained after this file's (internal.hpp, Init)

[[gnu::constructor(101)]] void init_predefined()
{
    const int n = port::n_pes(), me = port::my_pe();
    shmemi_team_world.size = shmemi_team_shared.size = n;
    shmemi_team_world.my_pe = shmemi_team_shared.my_pe = me;
    if constexpr (port::has_network) {
        // SHARED: the PEs whose memory this one reaches by loads and stores (a contiguous range: port.hpp).
        int lo = me, hi = me;
        while (lo > 0 && port::reachable(lo - 1)) --lo;
        while (hi + 1 < n && port::reachable(hi + 1)) ++hi;
        shmemi_team_shared.start = lo;
        shmemi_team_shared.size = hi - lo + 1;
        shmemi_team_shared.my_pe = me - lo;
    }
    shmemi_ctx_default.team = &shmemi_team_world;
    set_team_group(&shmemi_team_world);
    set_team_group(&shmemi_team_shared);
    release_next = init_state.release;
    init_state.release = &release_teams;
}

// Scratch slots this PE uses (bit i = slot i taken; 0 and 1, WORLD's and SHARED's, always). A new team needs a
// slot that is free on all of its members; the parent team agrees on one with an AND-reduction of the free
// masks, the only collective step of a split. Disjoint teams made by the same split (the rows of a 2D split) may
// share a slot: no PE is in two of them, so their flags never meet. The mask is a word of the machine where
// the slots fit (a 64-bit mask is a pair of registers and library calls on a 32-bit core).
static_assert(max_teams >= 2 && max_teams <= 64, "slot masks are 64 bits at most");
using SlotMask = choose_t<(max_teams > 32), uint64_t, uint32_t>;
constexpr SlotMask all_slots = max_teams == 8 * sizeof(SlotMask) ? ~SlotMask(0) : (SlotMask(1) << max_teams) - 1;
SlotMask used_slots;
SlotMask mask_in, mask_out;  // symmetric operands of that reduction

int lowest_bit(SlotMask m) { return sizeof(SlotMask) > 4 ? __builtin_ctzll(m) : __builtin_ctz(uint32_t(m)); }

// Agrees with the parent team on the lowest `count` slots free on all its members; false if there are not enough.
bool agree_on_slots(shmem_team_s *parent, int count, int *slots)
{
    mask_in = all_slots & ~(used_slots | 3);
    reduce(team_group(parent), &mask_out, &mask_in, 1, OpAnd());
    SlotMask common = mask_out;
    for (int i = 0; i < count; ++i) {
        if (common == 0) return false;
        slots[i] = lowest_bit(common);
        common &= common - 1;
    }
    return true;
}

// The last shmem_finalize (1.6) destroys every team the program made and with them every context (a private
// context the program has not destroyed goes too: the specification makes using it undefined). Each PE forgets
// its own objects and slots, which no other PE reads (the scratch of a slot is back at zero after every
// collective): the next shmem_init starts with only the predefined teams, as the first did.
void release_teams()
{
    for (auto &c : ctx_objects) c.in_use = 0;
    for (auto &t : team_objects)
        if (t.size != 0) t.size = 0, t.my_pe = destroyed_mark;
    shmemi_team_world.n_ctx = shmemi_team_shared.n_ctx = 0;
    used_slots = 0;
    if (release_next != nullptr) release_next();
}

shmem_team_s *new_team_object()
{
    for (auto &t : team_objects)
        if (t.size == 0) return &t;
    return nullptr;  // cannot happen: there are no more objects than slots
}

// Makes this PE's team of a split: members start + i * stride of the parent (parent-relative numbers; a negative
// stride lists them from the highest down; a team of one member has stride 1).
shmem_team_t make_team(shmem_team_s *parent, int start, int stride, int size, int slot,
                       const shmem_team_config_t *config, long config_mask)
{
    const int off = parent->my_pe - start;
    if (off % stride != 0 || off / stride < 0 || off / stride >= size) return SHMEM_TEAM_INVALID;
    shmem_team_s *t = new_team_object();
    t->start = team_world_pe(parent, start);
    t->stride = parent->stride * stride;
    t->size = size;
    t->my_pe = off / stride;
    t->slot = slot;
    t->n_ctx = 0;
    t->agree_seq = 0;
    t->config_mask = config_mask;
    t->config.num_contexts = (config != nullptr && (config_mask & SHMEM_TEAM_NUM_CONTEXTS)) ? config->num_contexts : 0;
    set_team_group(t);
    used_slots |= SlotMask(1) << slot;
    return t;
}

}  // namespace

void fail_bad_ctx(const char *routine, shmem_ctx_t ctx)
{
    Usage u(routine);
    if (ctx == nullptr) {
        u.m().s("ctx is SHMEM_CTX_INVALID; expected a context from shmem_ctx_create or SHMEM_CTX_DEFAULT");
    } else if (ctx != SHMEM_CTX_DEFAULT && !is_element(ctx, ctx_objects)) {
        u.m().s("ctx = ").p(ctx).s(" is not a context handle: not SHMEM_CTX_DEFAULT nor a context that ")
            .s("shmem_ctx_create or shmem_team_create_ctx made (an uninitialised shmem_ctx_t, or a pointer to other data)");
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
        u.fail();
    }
    // Where every PE has its own copy of the image at an address of its own (TILE), another PE's handle points into
    // that PE's copy: it is taken as this PE's object at the same place. (Where the copies share their addresses,
    // such a handle is one of this PE's objects already.)
    const shmem_team_s *local = is_element(team, team_objects) ? team : port::remote_ptr(team, port::my_pe());
    if (!is_element(local, team_objects)) {
        u.m().s("team = ").p(team).s(" is not a team handle: not SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED nor a team that ")
            .s("a shmem_team_split_* made (an uninitialised shmem_team_t, or a pointer to other data)");
        u.fail();
    }
    // A free object of this PE: one that held a team of this PE (destroyed), or where another PE has a live team in
    // the object at this address, most likely that PE's handle: a team of a split that gave this PE
    // SHMEM_TEAM_INVALID. (This PE's own record first: the others may not have finished destroying theirs.)
    if (local->my_pe == destroyed_mark) {
        u.m().s("team = ").p(team).s(" is a team that was destroyed (shmem_team_destroy, or the last shmem_finalize)");
        u.fail();
    }
    for (int pe = 0; pe < port::n_pes(); ++pe) {
        if (pe == port::my_pe()) continue;
        const int size = by_network(pe) ? peer_load<__ATOMIC_RELAXED>(&local->size, pe)
                                        : __atomic_load_n(&port::remote_ptr(local, pe)->size, __ATOMIC_RELAXED);
        if (size != 0) {
            u.m().s("team = ").p(team).s(" is not a team of this PE: PE ").i(pe).s(" has a team of ").i(size)
                .s(size == 1 ? " PE" : " PEs").s(" there, which this PE is not a member of (its split gave this PE ")
                .s("SHMEM_TEAM_INVALID)");
            u.fail();
        }
    }
    u.m().s("team = ").p(team).s(" is not a live team: no team was ever created there");
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

// The current values (1.6): num_contexts is what the team was configured with, or the number of its contexts in
// existence if that is more (contexts beyond the request are created while the pool, SHMEM_MAX_CONTEXTS, lasts).
// A config_mask of 0 reads nothing, so config may then be NULL.
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config)
{
    const char *routine = "shmem_team_get_config";
    if (team == SHMEM_TEAM_INVALID) return -1;
    check_team(routine, team);
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS) {
        if constexpr (checks)
            if (config == nullptr) {
                Usage u(routine);
                u.m().s("config is NULL but config_mask = ").i(config_mask).s(" asks for values; expected a ")
                    .s("shmem_team_config_t to fill in, or config_mask 0");
                u.fail();
            }
        const int configured = team->config.num_contexts;
        config->num_contexts = team->n_ctx > configured ? team->n_ctx : configured;
    }
    return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)
{
    if (src_team == SHMEM_TEAM_INVALID || dest_team == SHMEM_TEAM_INVALID) return -1;
    check_team("shmem_team_translate_pe", src_team);
    check_team("shmem_team_translate_pe", dest_team);
    if (src_pe < 0 || src_pe >= src_team->size) return -1;
    const int off = team_world_pe(src_team, src_pe) - dest_team->start;
    const int stride = dest_team->stride;  // never 0: a team of one member has stride 1
    if (off % stride != 0 || off / stride < 0 || off / stride >= dest_team->size) return -1;
    return off / stride;
}

int shmem_team_split_strided(shmem_team_t parent, int start, int stride, int size, const shmem_team_config_t *config,
                             long config_mask, shmem_team_t *new_team)
{
    const char *routine = "shmem_team_split_strided";
    check_init(routine);
    *new_team = SHMEM_TEAM_INVALID;
    if (parent == SHMEM_TEAM_INVALID) return -1;
    check_team(routine, parent);
    // Every member of the parent must pass the same triplet (else some would wait in the slot agreement below for
    // others that returned): compared first, with checks.
    check_agreement(routine, parent, "start", start, "stride", stride, "size", size);
    if (size == 1) stride = 1;  // one member: the stride means nothing (1.6: stride 0 is valid with size 1 only)
    // 1.6: a valid triplet names parent PEs start + i * stride, 0 <= i < size, all within 0 .. N - 1, in increasing
    // order for a positive stride and decreasing for a negative one: no wrap-around. Any other triplet is a
    // collective failure (every member of the parent sees the same arguments): the specification's non-zero
    // return, with the reason said once.
    const int64_t last = start + (int64_t(size) - 1) * stride;
    if (size < 1 || stride == 0 || start < 0 || start >= parent->size || last < 0 || last >= parent->size) {
        if (parent->my_pe == 0) {
            Message m;
            m.s("libshmem: PE ").i(port::my_pe()).s(": ").s(routine).s(": start ").i(start).s(", stride ").i(stride)
                .s(", size ").i(size).s(" do not describe PEs of the parent team (").i(parent->size)
                .s(" PEs); expected size >= 1, stride != 0 unless size is 1, and start + i * stride in 0 .. ")
                .i(parent->size - 1).s(" for every 0 <= i < size (no wrap-around); no team created");
            m.write();
        }
        return -1;
    }
    int slot;
    if (!agree_on_slots(parent, 1, &slot)) {
        if (parent->my_pe == 0) {
            Message m;
            m.s("libshmem: PE ").i(port::my_pe()).s(": ").s(routine).s(": no team slot is free on every member (")
                .i(max_teams).s(" teams at most, SHMEM_MAX_TEAMS); destroy a team first; no team created");
            m.write();
        }
        return -1;
    }
    *new_team = make_team(parent, start, stride, size, slot, config, config_mask);
    return 0;
}

// Rows of xrange PEs (the x-axis teams) and columns (the y-axis teams) of the parent laid out row by row; the
// last row may be short. Two slots, one for all rows and one for all columns (rows are disjoint, so are columns).
int shmem_team_split_2d(shmem_team_t parent, int xrange, const shmem_team_config_t *xaxis_config, long xaxis_mask,
                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config, long yaxis_mask,
                        shmem_team_t *yaxis_team)
{
    const char *routine = "shmem_team_split_2d";
    check_init(routine);
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    if (parent == SHMEM_TEAM_INVALID) return -1;
    check_team(routine, parent);
    check_agreement(routine, parent, "xrange", xrange);
    if (xrange < 1) {
        if (parent->my_pe == 0) {
            Message m;
            m.s("libshmem: PE ").i(port::my_pe()).s(": ").s(routine).s(": xrange = ").i(xrange)
                .s("; expected xrange >= 1; no teams created");
            m.write();
        }
        return -1;
    }
    const int n = parent->size, x = xrange > n ? n : xrange;
    int slots[2];
    if (!agree_on_slots(parent, 2, slots)) {
        if (parent->my_pe == 0) {
            Message m;
            m.s("libshmem: PE ").i(port::my_pe()).s(": ").s(routine).s(": two team slots are not free on every ")
                .s("member (").i(max_teams).s(" teams at most, SHMEM_MAX_TEAMS); no teams created");
            m.write();
        }
        return -1;
    }
    const int me = parent->my_pe, row = me / x, col = me % x;
    const int row_len = (row + 1) * x <= n ? x : n - row * x;
    const int col_len = (n - col + x - 1) / x;
    *xaxis_team = make_team(parent, row * x, 1, row_len, slots[0], xaxis_config, xaxis_mask);
    *yaxis_team = make_team(parent, col, x, col_len, slots[1], yaxis_config, yaxis_mask);
    return 0;
}

void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe)
{
    const char *routine = "shmem_team_ptr";
    check_init(routine);
    if (team == SHMEM_TEAM_INVALID) return nullptr;
    check_team(routine, team);
    if constexpr (checks)
        if (__builtin_expect(unsigned(pe) >= unsigned(team->size), 0)) fail_bad_team_pe(routine, team, pe);
    // as shmem_ptr (every PE's memory is reachable by loads and stores here), for the team's PE
    if (!is_symmetric(dest, 1)) return nullptr;
    const int world = team_world_pe(team, pe);
    if (world == port::my_pe()) return const_cast<void *>(dest);
    if (by_network(world)) return nullptr;  // no address reaches another machine's memory (as shmem_ptr)
    return port::remote_ptr(const_cast<void *>(dest), world);
}

void shmem_team_destroy(shmem_team_t team)
{
    const char *routine = "shmem_team_destroy";
    check_init(routine);
    if (team == SHMEM_TEAM_INVALID) return;
    if (team == SHMEM_TEAM_WORLD || team == SHMEM_TEAM_SHARED) {
        Usage u(routine);
        u.m().s("the predefined teams (SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED) cannot be destroyed");
        u.fail();
    }
    check_team(routine, team);
    // Contexts made from the team go with it, their operations completed first.
    for (auto &c : ctx_objects)
        if (c.in_use && c.team == team) {
            port::quiet();
            c.in_use = 0;
        }
    // Collective over the team: nobody may still use the slot (in a collective of this team) once a member
    // can give it to a new team.
    group_barrier(team_group(team));
    used_slots &= ~(SlotMask(1) << team->slot);
    team->size = 0;
    team->my_pe = destroyed_mark;
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
    return pshmem_team_create_ctx(SHMEM_TEAM_WORLD, options, ctx);
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
    pshmem_ctx_quiet(ctx);  // destroying a context completes its operations
    --ctx->team->n_ctx;
    ctx->in_use = 0;
}

// 1.6 sessions are hints the library may ignore, and does: no buffering or coalescing would pay on these cores,
// where a put is a run of stores. Both routines check their arguments and keep no state (a session changes no
// semantics, so there is nothing to remember). Any combination of options is valid (the specification says so);
// a config_mask that selects a field needs a config to read it from.
void shmem_ctx_session_start(shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t *config, long config_mask)
{
    const char *routine = "shmem_ctx_session_start";
    (void)options;
    check_init(routine);
    if (ctx == SHMEM_CTX_INVALID) return;  // the specification: no action
    check_ctx(routine, ctx);
    if constexpr (checks)
        if ((config_mask & SHMEM_CTX_SESSION_TOTAL_OPS) && config == nullptr) {
            Usage u(routine);
            u.m().s("config is NULL but config_mask = ").i(config_mask).s(" selects its total_ops; expected a ")
                .s("shmem_ctx_session_config_t, or config_mask 0");
            u.fail();
        }
}

void shmem_ctx_session_stop(shmem_ctx_t ctx)
{
    const char *routine = "shmem_ctx_session_stop";
    check_init(routine);
    if (ctx == SHMEM_CTX_INVALID) return;
    check_ctx(routine, ctx);
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

SHMEMI_PROFILING_ALIASES(SHMEMI_NAMES_TEAM)
