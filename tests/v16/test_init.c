/* OpenSHMEM 1.6 initialization: shmem_query_initialized at every stage, shmem_init and shmem_init_thread called
 * more than once (each matched by a shmem_finalize, the library usable until the last one), and the last
 * shmem_finalize releasing what the program left behind: symmetric heap blocks, teams and contexts it never freed
 * or destroyed. Three sessions in a row each allocate the same blocks at the same addresses, fill every team slot
 * and every context object, and leave them all to shmem_finalize; a library that did not release them would
 * fail the second session. */
#include "check.h"

#ifndef SHMEM_MAX_TEAMS
#define SHMEM_MAX_TEAMS 32 /* the library's defaults (shmem/src/team.hpp) */
#endif
#ifndef SHMEM_MAX_CONTEXTS
#define SHMEM_MAX_CONTEXTS 64
#endif

static long inbox;

static int initialized(void)
{
    int flag = -1;
    shmem_query_initialized(&flag);
    CHECK(flag == 0 || flag == 1, "shmem_query_initialized gave %d", flag);
    return flag;
}

/* the library works: a put to the right neighbour and a barrier */
static void ring(long value)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    inbox = -1;
    shmem_barrier_all();
    shmem_long_p(&inbox, value + me, (me + 1) % n);
    shmem_barrier_all();
    CHECK(inbox == value + (me + n - 1) % n, "ring %ld: got %ld", value, inbox);
    shmem_barrier_all();
}

static void *first_block[3];

static void session(int s)
{
    if (s == 1) {
        int provided = -1;
        CHECK(shmem_init_thread(SHMEM_THREAD_SINGLE, &provided) == 0 && provided == SHMEM_THREAD_SINGLE, "init_thread");
    } else {
        shmem_init();
    }
    CHECK(initialized() == 1, "session %d: not initialized after shmem_init", s);
    /* a nested initialization, finalized at once: the library stays initialized and usable */
    shmem_init();
    CHECK(initialized() == 1, "session %d: nested init", s);
    ring(s * 100);
    shmem_finalize();
    CHECK(initialized() == 1, "session %d: uninitialized by a finalize that was not the last", s);
    ring(s * 100 + 10);

    /* blocks, teams and contexts, none of them given back */
    void *a = shmem_malloc(256), *b = shmem_calloc(3, 16);
    CHECK(a != NULL && b != NULL, "session %d: allocation", s);
    first_block[s] = a;
    if (s > 0) CHECK(a == first_block[0], "session %d: heap not released (%p, first session %p)", s, a, first_block[0]);
    const int n = shmem_n_pes();
    for (int t = 0; t < SHMEM_MAX_TEAMS - 2; ++t) { /* every slot but SHMEM_TEAM_WORLD's and SHMEM_TEAM_SHARED's */
        shmem_team_t team;
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, t % n, 1, 1, NULL, 0, &team) == 0,
              "session %d: team %d not created (slots not released)", s, t);
        CHECK((team != SHMEM_TEAM_INVALID) == (shmem_my_pe() == t % n), "session %d: team %d membership", s, t);
    }
    for (int c = 0; c < SHMEM_MAX_CONTEXTS; ++c) {
        shmem_ctx_t ctx;
        CHECK(shmem_ctx_create(0, &ctx) == 0, "session %d: context %d not created (contexts not released)", s, c);
    }
    shmem_team_config_t cfg = {-1};
    CHECK(shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &cfg) == 0 &&
              cfg.num_contexts == SHMEM_MAX_CONTEXTS,
          "session %d: world's num_contexts %d with %d contexts in existence", s, cfg.num_contexts,
          SHMEM_MAX_CONTEXTS);
    ring(s * 100 + 20);
    shmem_finalize();
    CHECK(initialized() == 0, "session %d: still initialized after the last shmem_finalize", s);
}

int main(void)
{
    CHECK(initialized() == 0, "initialized before shmem_init");
    for (int s = 0; s < 3; ++s) session(s);
    return 0;
}
