/* OpenSHMEM 1.6 teams: shmem_team_ptr; the split rules 1.6 spells out (negative strides list the parent's PEs in
 * reverse order, stride 0 only with size 1, a triplet that wraps around or leaves the parent is invalid and every
 * PE gets a non-zero return and SHMEM_TEAM_INVALID, as with an invalid parent); teams of negative stride working
 * as teams (translation, contexts, collectives, splits of them); shmem_team_get_config's current values. */
#include "check.h"

static long sym[4];
static long bsrc[8], bdst[8 * 64], red[2];

static int member_index(int start, int stride, int size, int pe)
{
    for (int i = 0; i < size; ++i)
        if (start + i * stride == pe) return i;
    return -1;
}

/* a team of world PEs start + i * stride, 0 <= i < size, checked against what the library says and used */
static void check_team(shmem_team_t t, int start, int stride, int size, const char *what)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int idx = member_index(start, stride, size, me);
    if (idx < 0) {
        CHECK(t == SHMEM_TEAM_INVALID, "%s: non-member got a team", what);
        return;
    }
    CHECK(t != SHMEM_TEAM_INVALID, "%s: member got SHMEM_TEAM_INVALID", what);
    CHECK(shmem_team_n_pes(t) == size, "%s: n_pes %d, expected %d", what, shmem_team_n_pes(t), size);
    CHECK(shmem_team_my_pe(t) == idx, "%s: my_pe %d, expected %d", what, shmem_team_my_pe(t), idx);
    for (int pe = 0; pe < n; ++pe)
        CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, t) == member_index(start, stride, size, pe),
              "%s: world PE %d translated to %d", what, pe, shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, t));
    for (int i = 0; i < size; ++i)
        CHECK(shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD) == start + i * stride, "%s: team PE %d", what, i);

    /* shmem_team_ptr: team PE i's copy of sym, written through the pointer and read back with a get */
    for (int i = 0; i < size; ++i) {
        long *p = (long *)shmem_team_ptr(t, &sym[1], i);
        CHECK(p != NULL, "%s: team_ptr of team PE %d", what, i);
        CHECK(p == shmem_ptr(&sym[1], start + i * stride), "%s: team_ptr differs from shmem_ptr", what);
    }
    long on_stack = 0;
    CHECK(shmem_team_ptr(t, &on_stack, 0) == NULL, "%s: team_ptr of a private address", what);
    shmem_team_sync(t);
    sym[1] = -1;
    shmem_team_sync(t);
    long *right = (long *)shmem_team_ptr(t, &sym[1], (idx + 1) % size);
    *right = 1000 + me; /* a plain store into the right neighbour's memory */
    shmem_quiet();
    shmem_team_sync(t);
    const int left = start + (idx + size - 1) % size * stride;
    CHECK(sym[1] == 1000 + left, "%s: store through team_ptr: %ld, expected %d", what, sym[1], 1000 + left);

    /* a context: team-relative PE numbers */
    shmem_ctx_t ctx;
    CHECK(shmem_team_create_ctx(t, 0, &ctx) == 0, "%s: create ctx", what);
    shmem_team_sync(t);
    shmem_ctx_long_p(ctx, &sym[2], 2000 + me, (idx + 1) % size);
    shmem_ctx_quiet(ctx);
    shmem_team_sync(t);
    CHECK(sym[2] == 2000 + left, "%s: ctx put: %ld", what, sym[2]);
    shmem_ctx_destroy(ctx);

    /* collectives in team order: broadcast from team PE size - 1, fcollect, sum reduction */
    for (int i = 0; i < 8; ++i) bsrc[i] = me * 10 + i;
    shmem_team_sync(t);
    CHECK(shmem_long_broadcast(t, bdst, bsrc, 8, size - 1) == 0, "%s: broadcast", what);
    const int root = start + (size - 1) * stride;
    for (int i = 0; i < 8; ++i) CHECK(bdst[i] == root * 10 + i, "%s: broadcast element %d", what, i);
    shmem_team_sync(t);
    CHECK(shmem_long_fcollect(t, bdst, bsrc, 2) == 0, "%s: fcollect", what);
    for (int i = 0; i < size; ++i)
        CHECK(bdst[2 * i] == (start + i * stride) * 10 && bdst[2 * i + 1] == (start + i * stride) * 10 + 1,
              "%s: fcollect block %d", what, i);
    red[0] = me;
    red[1] = idx;
    CHECK(shmem_long_sum_reduce(t, red, red, 2) == 0, "%s: sum_reduce", what);
    long wsum = 0;
    for (int i = 0; i < size; ++i) wsum += start + i * stride;
    CHECK(red[0] == wsum && red[1] == (long)size * (size - 1) / 2, "%s: sum_reduce %ld %ld", what, red[0], red[1]);
    shmem_team_sync(t);
}

/* an invalid split: non-zero and SHMEM_TEAM_INVALID on every PE */
static void invalid_split(shmem_team_t parent, int start, int stride, int size, const char *what)
{
    shmem_team_t t = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(parent, start, stride, size, NULL, 0, &t) != 0, "%s: accepted", what);
    CHECK(t == SHMEM_TEAM_INVALID, "%s: new_team is not SHMEM_TEAM_INVALID", what);
}

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();

    /* shmem_team_ptr on the predefined teams is shmem_ptr; SHMEM_TEAM_INVALID gives NULL */
    for (int pe = 0; pe < n; ++pe) {
        CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, &sym[0], pe) == shmem_ptr(&sym[0], pe), "world team_ptr %d", pe);
        CHECK(shmem_team_ptr(SHMEM_TEAM_SHARED, &sym[0], pe) == shmem_ptr(&sym[0], pe), "shared team_ptr %d", pe);
    }
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, &sym[0], me) == &sym[0], "team_ptr of the caller's own object");
    CHECK(shmem_team_ptr(SHMEM_TEAM_INVALID, &sym[0], 0) == NULL, "team_ptr of SHMEM_TEAM_INVALID");
    check_team(SHMEM_TEAM_WORLD, 0, 1, n, "world");

    struct { int start, stride, size; const char *what; } splits[] = {
        {n - 1, -1, n, "reverse"},
        {n - 1, -2, (n + 1) / 2, "every other, down from the top"},
        {n / 2, 0, 1, "stride 0, size 1"},
        {0, -5, 1, "a negative stride, size 1"},
        {n - 1, 1, 1, "the last PE"},
    };
    for (int round = 0; round < 2; ++round) /* again: the slots come back */
        for (size_t s = 0; s < sizeof splits / sizeof splits[0]; ++s) {
            shmem_team_t t;
            CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, splits[s].start, splits[s].stride, splits[s].size,
                                           NULL, 0, &t) == 0, "split %s", splits[s].what);
            check_team(t, splits[s].start, splits[s].stride, splits[s].size, splits[s].what);
            if (t != SHMEM_TEAM_INVALID && shmem_team_n_pes(t) > 1) {
                /* splits of a reversed team: its parent-relative numbers are in its (reverse) order */
                shmem_team_t sub;
                const int tn = shmem_team_n_pes(t);
                CHECK(shmem_team_split_strided(t, 1, 1, tn - 1, NULL, 0, &sub) == 0, "sub-split up");
                check_team(sub, splits[s].start + splits[s].stride, splits[s].stride, tn - 1, "sub-split up");
                shmem_team_destroy(sub);
                CHECK(shmem_team_split_strided(t, tn - 1, -1, tn, NULL, 0, &sub) == 0, "sub-split down");
                check_team(sub, splits[s].start + (tn - 1) * splits[s].stride, -splits[s].stride, tn,
                           "sub-split down (the world's order again)");
                shmem_team_destroy(sub);
            }
            if (t != SHMEM_TEAM_INVALID) shmem_team_destroy(t);
            shmem_sync_all(); /* non-members wait for the members' collectives */
        }

    /* invalid triplets: wrap-around, leaving the parent, stride 0 with more than one PE, no PEs */
    if (n >= 2) {
        invalid_split(SHMEM_TEAM_WORLD, n - 1, 1, 2, "wrap-around past the last PE");
        invalid_split(SHMEM_TEAM_WORLD, 0, -1, 2, "below PE 0");
        invalid_split(SHMEM_TEAM_WORLD, 0, 0, 2, "stride 0, size 2");
    }
    if (n == 8) invalid_split(SHMEM_TEAM_WORLD, 3, 3, 3, "the specification's example (3, 3, 3 of 8)");
    invalid_split(SHMEM_TEAM_WORLD, 0, 1, 0, "size 0");
    invalid_split(SHMEM_TEAM_WORLD, 0, 1, -1, "size -1");
    invalid_split(SHMEM_TEAM_WORLD, n, 1, 1, "start past the last PE");
    invalid_split(SHMEM_TEAM_WORLD, -1, 1, 1, "start -1");
    invalid_split(SHMEM_TEAM_WORLD, 0, 1, n + 1, "more PEs than the parent");
    invalid_split(SHMEM_TEAM_INVALID, 0, 1, 1, "parent SHMEM_TEAM_INVALID");
    shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, NULL, 0, &x, NULL, 0, &y) != 0 && x == SHMEM_TEAM_INVALID &&
              y == SHMEM_TEAM_INVALID, "split_2d of SHMEM_TEAM_INVALID");

    /* get_config: the current values; mask 0 reads nothing (config may be NULL); SHMEM_TEAM_INVALID: non-zero */
    shmem_team_t t;
    shmem_team_config_t cfg = {2};
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &t) == 0, "split");
    CHECK(shmem_team_get_config(t, 0, NULL) == 0, "get_config with mask 0 and no config");
    CHECK(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &cfg) != 0, "get_config of INVALID");
    shmem_team_config_t got = {-1};
    CHECK(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 && got.num_contexts == 2, "configured 2");
    shmem_ctx_t c[3];
    for (int i = 0; i < 3; ++i) CHECK(shmem_team_create_ctx(t, 0, &c[i]) == 0, "ctx %d", i);
    got.num_contexts = -1;
    CHECK(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 && got.num_contexts == 3,
          "3 contexts in existence: num_contexts %d", got.num_contexts);
    shmem_ctx_destroy(c[2]);
    shmem_ctx_destroy(c[1]);
    got.num_contexts = -1;
    CHECK(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 && got.num_contexts == 2,
          "back to the configured 2: num_contexts %d", got.num_contexts);
    shmem_ctx_destroy(c[0]);
    shmem_team_destroy(t);
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, &cfg, 0, &t) == 0, "split, mask 0");
    got.num_contexts = -1;
    CHECK(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 && got.num_contexts == 0,
          "mask 0 at creation: the default 0, not the config's %d", got.num_contexts);
    shmem_team_destroy(t);

    shmem_finalize();
    return 0;
}
