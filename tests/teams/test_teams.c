/* Teams and contexts: predefined teams, strided and 2D splits (including teams without PE 0), PE translation,
 * team contexts whose PE numbers are team-relative, sync, destroy and slot reuse, invalid splits. */
#include <string.h>

#include "check.h"

static long inbox[64];
static int token;

/* the members of a strided team, checked against what the library says */
static void check_team(shmem_team_t t, int start, int stride, int size, const char *what)
{
    const int me = shmem_my_pe();
    const int member = me >= start && (me - start) % stride == 0 && (me - start) / stride < size;
    if (!member) {
        CHECK(t == SHMEM_TEAM_INVALID, "%s: non-member got a team", what);
        return;
    }
    CHECK(t != SHMEM_TEAM_INVALID, "%s: member got SHMEM_TEAM_INVALID", what);
    CHECK(shmem_team_n_pes(t) == size, "%s: n_pes %d, expected %d", what, shmem_team_n_pes(t), size);
    CHECK(shmem_team_my_pe(t) == (me - start) / stride, "%s: my_pe %d", what, shmem_team_my_pe(t));
    for (int i = 0; i < size; ++i) {
        CHECK(shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD) == start + i * stride, "%s: translate %d", what, i);
        CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, start + i * stride, t) == i, "%s: back %d", what, i);
    }
    if (stride > 1 && start + 1 < shmem_n_pes()) CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, start + 1, t) == -1,
                                                      "%s: non-member translated", what);
    CHECK(shmem_team_translate_pe(t, size, SHMEM_TEAM_WORLD) == -1, "%s: out of range translated", what);

    /* a context on the team: PE numbers are team-relative. Each member puts its world PE number to its right
     * neighbour in the team, then the team syncs. */
    shmem_ctx_t ctx;
    CHECK(shmem_team_create_ctx(t, 0, &ctx) == 0 && ctx != SHMEM_CTX_INVALID, "%s: create ctx", what);
    shmem_team_t back;
    CHECK(shmem_ctx_get_team(ctx, &back) == 0 && back == t, "%s: ctx_get_team", what);
    const int tme = shmem_team_my_pe(t), right = (tme + 1) % size, left = (tme + size - 1) % size;
    inbox[0] = -1;
    shmem_team_sync(t);
    shmem_ctx_long_p(ctx, &inbox[0], me, right);
    shmem_ctx_quiet(ctx);
    shmem_team_sync(t);
    CHECK(inbox[0] == start + left * stride, "%s: ctx put from team PE %d gave %ld", what, left, inbox[0]);
    CHECK(shmem_ctx_long_g(ctx, &inbox[0], right) == me, "%s: ctx get", what);
    shmem_team_sync(t);
    shmem_ctx_destroy(ctx);
}

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();

    CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me && shmem_team_n_pes(SHMEM_TEAM_WORLD) == n, "world");
    /* SHARED: the PEs whose memory shmem_ptr reaches (every PE on one machine; the node's in a run across nodes) */
    static long probe;
    int reached = 0;
    for (int pe = 0; pe < n; ++pe) reached += shmem_ptr(&probe, pe) != NULL;
    CHECK(shmem_team_n_pes(SHMEM_TEAM_SHARED) == reached, "shared: %d PEs, where shmem_ptr reaches %d",
          shmem_team_n_pes(SHMEM_TEAM_SHARED), reached);
    CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1 && shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1, "invalid");
    shmem_team_t wt;
    CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &wt) == 0 && wt == SHMEM_TEAM_WORLD, "default ctx team");
    check_team(SHMEM_TEAM_WORLD, 0, 1, n, "world");

    /* strided splits: evens, odds (no PE 0), the upper half, every third PE from 1, a single PE */
    struct { int start, stride, size; } splits[] = {
        {0, 2, (n + 1) / 2}, {1, 2, n / 2}, {n / 2, 1, n - n / 2}, {1, 3, (n - 1 + 2) / 3}, {n - 1, 1, 1}};
    for (int round = 0; round < 3; ++round) /* again and again: slots must be reusable */
        for (size_t s = 0; s < sizeof splits / sizeof splits[0]; ++s) {
            if (splits[s].size < 1) continue;
            shmem_team_t t;
            shmem_team_config_t cfg = {2};
            CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, splits[s].start, splits[s].stride, splits[s].size,
                                           &cfg, SHMEM_TEAM_NUM_CONTEXTS, &t) == 0, "split %zu", s);
            check_team(t, splits[s].start, splits[s].stride, splits[s].size, "strided");
            if (t != SHMEM_TEAM_INVALID) {
                shmem_team_config_t got = {0};
                CHECK(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 && got.num_contexts == 2, "config");
                /* a split of the split: every other member, translated twice */
                shmem_team_t sub;
                CHECK(shmem_team_split_strided(t, 0, 2, (shmem_team_n_pes(t) + 1) / 2, NULL, 0, &sub) == 0, "sub");
                check_team(sub, splits[s].start, splits[s].stride * 2, (splits[s].size + 1) / 2, "sub-split");
                shmem_team_destroy(sub);
                shmem_team_destroy(t);
            }
            shmem_barrier_all();
        }

    /* 2D splits: rows of xrange PEs and columns */
    for (int xrange = 1; xrange <= 3; ++xrange) {
        shmem_team_t xt, yt;
        CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, xrange, NULL, 0, &xt, NULL, 0, &yt) == 0, "2d %d", xrange);
        const int x = xrange > n ? n : xrange, row = me / x, col = me % x;
        const int row_len = (row + 1) * x <= n ? x : n - row * x;
        check_team(xt, row * x, 1, row_len, "2d row");
        check_team(yt, col, x, (n - col + x - 1) / x, "2d column");
        shmem_team_destroy(xt);
        shmem_team_destroy(yt);
    }

    /* invalid splits fail collectively with SHMEM_TEAM_INVALID */
    shmem_team_t bad = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n + 1, NULL, 0, &bad) != 0 && bad == SHMEM_TEAM_INVALID,
          "too large a split");
    CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &bad) != 0, "split of INVALID");

    /* contexts on the world: independent handles, same memory */
    shmem_ctx_t a, b;
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &a) == 0 && shmem_ctx_create(0, &b) == 0 && a != b, "ctx create");
    token = 0;
    shmem_barrier_all();
    shmem_ctx_int_p(a, &token, me + 1, (me + 1) % n);
    shmem_ctx_quiet(a);
    shmem_ctx_fence(b);
    shmem_barrier_all();
    CHECK(token == (me + n - 1) % n + 1, "world ctx put: %d", token);
    shmem_ctx_destroy(a);
    shmem_ctx_destroy(b);

    if (me == 0) printf("teams: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}
