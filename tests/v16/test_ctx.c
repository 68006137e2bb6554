/* OpenSHMEM 1.6 completion and session routines on contexts: shmem_pe_quiet and shmem_ctx_pe_quiet complete the
 * puts to the listed PEs (a non-blocking put, large enough for Epiphany's DMA, is complete once they return: its
 * receiver, told by an atomic flag with no quiet in between, finds all of it), with lists of one PE, of every PE,
 * of team-relative numbers, and empty lists (ignored); shmem_ctx_session_start/stop with every argument form the
 * specification allows around a batch of atomic updates (the GUPS-like example of the specification), whose
 * results must be exact. */
#include <string.h>

#include "check.h"

#define NBYTES TARGET_SIZE(4096, 512)
#define TABLE 64

static unsigned char data[NBYTES], payload[NBYTES];
static long flag;
static uint64_t table[TABLE];

static unsigned char byte(int pe, size_t i, int round) { return (unsigned char)(test_pattern(pe, i, round) % 253); }

/* One round: every PE puts payload to its right neighbour with put_nbi on `ctx`, completes it with the pe_quiet
 * form `form`, then sets the neighbour's flag with an atomic (no other quiet); the neighbour waits for the flag
 * and checks the data. */
static void round_trip(int form, shmem_ctx_t ctx, int team_right, int round)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    for (size_t i = 0; i < NBYTES; ++i) payload[i] = byte(me, i, round);
    memset(data, 0, sizeof data);
    flag = 0;
    shmem_barrier_all();
    int everyone[64];
    for (int i = 0; i < n && i < 64; ++i) everyone[i] = n - 1 - i;
    switch (form) {
    case 0:
        shmem_putmem_nbi(data, payload, NBYTES, right);
        shmem_pe_quiet(&right, 1);
        break;
    case 1:
        shmem_putmem_nbi(data, payload, NBYTES, right);
        shmem_pe_quiet(everyone, (size_t)(n < 64 ? n : 64));
        break;
    case 2:
        shmem_ctx_putmem_nbi(ctx, data, payload, NBYTES, team_right);
        shmem_ctx_pe_quiet(ctx, &team_right, 1);
        break;
    default:
        shmem_ctx_putmem_nbi(SHMEM_CTX_DEFAULT, data, payload, NBYTES, right);
        shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, &right, 1);
        break;
    }
    shmem_long_atomic_set(&flag, 1, right);
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
    for (size_t i = 0; i < NBYTES; ++i) CHECK(data[i] == byte(left, i, round), "form %d: byte %zu", form, i);
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_team_t reverse;
    shmem_ctx_t rctx, ctx;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &reverse) == 0, "reverse split");
    CHECK(shmem_team_create_ctx(reverse, 0, &rctx) == 0, "reverse ctx");
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "ctx");

    /* empty lists: target_pes is ignored */
    shmem_pe_quiet(NULL, 0);
    shmem_ctx_pe_quiet(ctx, NULL, 0);
    shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, NULL, 0);
    for (int round = 0; round < 2; ++round)
        for (int form = 0; form < 4; ++form) round_trip(form, rctx, n - 1 - (me + 1) % n, round * 4 + form);

    /* sessions: the arguments the specification allows, none of which changes what the operations do */
    shmem_ctx_session_config_t cfg;
    cfg.total_ops = (size_t)n * TABLE;
    shmem_ctx_session_start(SHMEM_CTX_INVALID, SHMEM_CTX_SESSION_BATCH, &cfg, SHMEM_CTX_SESSION_TOTAL_OPS);
    shmem_ctx_session_start(SHMEM_CTX_INVALID, 0, NULL, 0);
    shmem_ctx_session_stop(SHMEM_CTX_INVALID);
    shmem_ctx_session_stop(ctx); /* no session: no effect */
    for (int round = 0; round < 3; ++round) {
        memset(table, 0, sizeof table);
        shmem_barrier_all();
        switch (round) {
        case 0: shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &cfg, SHMEM_CTX_SESSION_TOTAL_OPS); break;
        case 1:
            shmem_ctx_session_start(ctx, 0, NULL, 0);
            shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &cfg, 0); /* combined with the first */
            break;
        default: shmem_ctx_session_start(SHMEM_CTX_DEFAULT, ~0L, &cfg, SHMEM_CTX_SESSION_TOTAL_OPS); break;
        }
        shmem_ctx_t c = round == 2 ? SHMEM_CTX_DEFAULT : ctx;
        /* every PE xors its bit pattern into every entry of every PE's table */
        for (int k = 0; k < n; ++k)
            for (int i = 0; i < TABLE; ++i)
                shmem_ctx_uint64_atomic_xor(c, &table[i], (uint64_t)1 << ((me + i + round) % 64), (me + k) % n);
        shmem_ctx_session_stop(c);
        shmem_ctx_session_stop(c); /* already stopped: no effect */
        shmem_ctx_quiet(c);        /* stopping a session does not quiet the context */
        shmem_sync_all();
        for (int i = 0; i < TABLE; ++i) {
            uint64_t want = 0;
            for (int pe = 0; pe < n; ++pe) want ^= (uint64_t)1 << ((pe + i + round) % 64);
            CHECK(table[i] == want, "round %d: table[%d] %llx, expected %llx", round, i, (unsigned long long)table[i],
                  (unsigned long long)want);
        }
        shmem_barrier_all();
    }

    shmem_ctx_destroy(ctx);
    shmem_ctx_destroy(rctx);
    shmem_team_destroy(reverse);
    shmem_finalize();
    return 0;
}
