/* Put-with-signal: every form (typed for every RMA type, sized 8..128, mem; blocking and _nbi; plain and context,
 * on the world team and on a team that excludes PE 0) with SHMEM_SIGNAL_SET around a ring, and with
 * SHMEM_SIGNAL_ADD from every PE into one PE. The receiver sleeps in shmem_signal_wait_until and then checks the
 * data, which must already be complete when the signal is seen; shmem_signal_fetch must agree. */
#include <string.h>

#include "check.h"

#define NE 64 /* elements per transfer: large enough that the data is many stores, not one */

static uint64_t sig;
static uint64_t epoch; /* the same on every PE: the SET signal of the current round */

/* ---- SET, typed: every RMA type, the four forms, around the ring ------------------------------------------- */
/* One target and one source serve every type in turn (the types run one after the other), so the static data is
 * that of the largest type, not that of every type (32 KB per PE on Epiphany). */
#define SIG_BUFFER(T, N) T N##_[NE];
static union { SHMEM_RMA_TYPES(SIG_BUFFER) } dst_buf, src_buf;

#define SIG_TYPE(T, N)                                                                                          \
    static void set_##N(shmem_ctx_t ctx)                                                                        \
    {                                                                                                           \
        const int me = shmem_my_pe(), n = shmem_n_pes(), r = (me + 1) % n, l = (me + n - 1) % n;                \
        T *const N##_dst = dst_buf.N##_, *const src = src_buf.N##_;                                             \
        for (int form = 0; form < 4; ++form) {                                                                  \
            ++epoch;                                                                                            \
            for (int i = 0; i < NE; ++i) src[i] = (T)test_pattern(me, i, (int)epoch);                           \
            switch (form) {                                                                                     \
            case 0: shmem_##N##_put_signal(N##_dst, src, NE, &sig, epoch, SHMEM_SIGNAL_SET, r); break;          \
            case 1: shmem_##N##_put_signal_nbi(N##_dst, src, NE, &sig, epoch, SHMEM_SIGNAL_SET, r); break;      \
            case 2: shmem_ctx_##N##_put_signal(ctx, N##_dst, src, NE, &sig, epoch, SHMEM_SIGNAL_SET, r); break; \
            case 3:                                                                                             \
                shmem_ctx_##N##_put_signal_nbi(ctx, N##_dst, src, NE, &sig, epoch, SHMEM_SIGNAL_SET, r);        \
                break;                                                                                          \
            }                                                                                                   \
            CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, epoch) == epoch, #N " form %d: signal", form);    \
            for (int i = 0; i < NE; ++i)                                                                        \
                CHECK(N##_dst[i] == (T)test_pattern(l, i, (int)epoch), #N " form %d: element %d", form, i);     \
            CHECK(shmem_signal_fetch(&sig) == epoch, #N " form %d: shmem_signal_fetch", form);                  \
            shmem_quiet(); /* completes the _nbi forms (they are complete already on this port) */              \
            shmem_barrier_all();                                                                                \
        }                                                                                                       \
    }
SHMEM_RMA_TYPES(SIG_TYPE)

/* ---- ADD: every PE puts its block into its own slot of one PE's buffer, signal + 1. Form f: size f % 6 (put8,
 * put16, put32, put64, put128, putmem), _nbi if (f / 6) is odd, the context form if f >= 12. ----------------- */
static unsigned char slots[TEST_MAX_PES * 16 * 16]; /* up to TEST_MAX_PES PEs, 16 elements of up to 16 bytes */
static uint64_t add_sig;

static void add_round(int target, int form, shmem_ctx_t ctx, int ctx_target)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    static const int sizes[] = {1, 2, 4, 8, 16, 1}; /* put8, 16, 32, 64, 128, putmem */
    const int es = sizes[form % 6];
    const int nbi = (form / 6) % 2, c = form >= 12; /* forms 12..23: the context forms */
    const size_t bytes = 16 * (size_t)es;
    unsigned char src[256];
    for (size_t i = 0; i < bytes; ++i) src[i] = (unsigned char)test_pattern(me, i, form);
    add_sig = 0;
    memset(slots, 0, sizeof slots);
    shmem_barrier_all();
    void *d = &slots[(size_t)me * bytes];
#define SIZED(BITS)                                                                                                \
    case BITS / 8:                                                                                                 \
        if (c) {                                                                                                   \
            if (nbi) shmem_ctx_put##BITS##_signal_nbi(ctx, d, src, 16, &add_sig, 1, SHMEM_SIGNAL_ADD, ctx_target); \
            else shmem_ctx_put##BITS##_signal(ctx, d, src, 16, &add_sig, 1, SHMEM_SIGNAL_ADD, ctx_target);         \
        } else {                                                                                                   \
            if (nbi) shmem_put##BITS##_signal_nbi(d, src, 16, &add_sig, 1, SHMEM_SIGNAL_ADD, target);              \
            else shmem_put##BITS##_signal(d, src, 16, &add_sig, 1, SHMEM_SIGNAL_ADD, target);                      \
        }                                                                                                          \
        break;
    if (form % 6 == 5) {
        if (c) {
            if (nbi) shmem_ctx_putmem_signal_nbi(ctx, d, src, bytes, &add_sig, 1, SHMEM_SIGNAL_ADD, ctx_target);
            else shmem_ctx_putmem_signal(ctx, d, src, bytes, &add_sig, 1, SHMEM_SIGNAL_ADD, ctx_target);
        } else {
            if (nbi) shmem_putmem_signal_nbi(d, src, bytes, &add_sig, 1, SHMEM_SIGNAL_ADD, target);
            else shmem_putmem_signal(d, src, bytes, &add_sig, 1, SHMEM_SIGNAL_ADD, target);
        }
    } else {
        switch (es) { SHMEM_RMA_SIZES(SIZED) }
    }
    if (me == target) {
        CHECK(shmem_signal_wait_until(&add_sig, SHMEM_CMP_GE, (uint64_t)n) == (uint64_t)n, "form %d: ADD", form);
        for (int p = 0; p < n; ++p)
            for (size_t i = 0; i < bytes; ++i)
                CHECK(slots[(size_t)p * bytes + i] == (unsigned char)test_pattern(p, i, form),
                      "form %d: PE %d's byte %d", form, p, (int)i);
        CHECK(shmem_signal_fetch(&add_sig) == (uint64_t)n, "form %d: shmem_signal_fetch", form);
    }
    shmem_barrier_all();
}

/* ---- a context on the team of world PEs 1..n-1: team-relative PE numbers ---------------------------------- */
static long team_dst[NE];
static uint64_t team_sig;
static void team_ring(void)
{
    const int n = shmem_n_pes();
    shmem_team_t team = SHMEM_TEAM_INVALID;
    team_sig = 0;
    if (n >= 2) CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, n - 1, NULL, 0, &team) == 0, "split");
    if (team != SHMEM_TEAM_INVALID) {
        shmem_ctx_t ctx;
        CHECK(shmem_team_create_ctx(team, 0, &ctx) == 0, "shmem_team_create_ctx");
        const int tme = shmem_team_my_pe(team), tn = shmem_team_n_pes(team);
        const int r = (tme + 1) % tn, l = (tme + tn - 1) % tn;
        long src[NE];
        for (int i = 0; i < NE; ++i) src[i] = (long)test_pattern(tme, i, 77);
        shmem_ctx_long_put_signal(ctx, team_dst, src, NE, &team_sig, 77, SHMEM_SIGNAL_SET, r);
        CHECK(shmem_signal_wait_until(&team_sig, SHMEM_CMP_NE, 0) == 77, "team signal");
        for (int i = 0; i < NE; ++i) CHECK(team_dst[i] == (long)test_pattern(l, i, 77), "team element %d", i);
        shmem_ctx_destroy(ctx);
    }
    shmem_barrier_all();
    if (shmem_my_pe() == 0) CHECK(team_sig == 0, "PE 0 is not in the team, yet got a signal");
    if (team != SHMEM_TEAM_INVALID) shmem_team_destroy(team);
    shmem_barrier_all();
}

/* ---- shmem_signal_wait_until with every comparison; the value it returns is the one that satisfied it ------- */
static void comparisons(void)
{
    const int me = shmem_my_pe(), n = shmem_n_pes(), r = (me + 1) % n;
    static long one;
    sig = 10;
    shmem_barrier_all();
    shmem_long_put_signal(&one, &one, 1, &sig, 5, SHMEM_SIGNAL_ADD, r); /* 15 */
    CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_GT, 10) == 15, "GT");
    CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_NE, 10) == 15, "NE");
    CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_GE, 15) == 15, "GE");
    CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_LE, 15) == 15, "LE");
    CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_LT, 16) == 15, "LT");
    CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 15) == 15, "EQ");
    shmem_barrier_all();
    shmem_long_put_signal(&one, &one, 0, &sig, UINT64_MAX, SHMEM_SIGNAL_SET, r); /* no data, a 64-bit signal */
    CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, UINT64_MAX) == UINT64_MAX, "SET of all ones");
    shmem_barrier_all();
    sig = 0;
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    CHECK(shmem_n_pes() <= TEST_MAX_PES, "the ADD rounds' buffer holds %d PEs", TEST_MAX_PES);
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
#define RUN(T, N) set_##N(ctx);
    SHMEM_RMA_TYPES(RUN)
    const int n = shmem_n_pes();
    for (int form = 0; form < 24; ++form) add_round(form % n, form, ctx, form % n);
    team_ring();
    comparisons();
    shmem_ctx_destroy(ctx);
    if (shmem_my_pe() == 0) printf("signal: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}
