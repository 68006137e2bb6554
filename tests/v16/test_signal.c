/* OpenSHMEM 1.6 signal updates without data: shmem_signal_set and shmem_signal_add, plain, with a context (on the
 * world and on a reversed team, whose PE numbers are team-relative) and by their C11 generic names: whole 64-bit
 * values, adds from every PE at once to every PE (atomic with respect to each other), and a token passed around
 * the ring by signal_set and shmem_signal_wait_until (the update must wake the waiter). */
#include "check.h"

static uint64_t sig, ring_sig, sum_sig;

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    shmem_ctx_t ctx, rctx;
    shmem_team_t reverse;
    CHECK(shmem_ctx_create(0, &ctx) == 0, "ctx_create");
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &reverse) == 0, "reverse split");
    CHECK(shmem_team_create_ctx(reverse, 0, &rctx) == 0, "reverse ctx");
    const int rright = n - 1 - right; /* the right neighbour's number in the reversed team */

    for (int form = 0; form < 5; ++form) {
        const uint64_t base = (0xabcdull << 40) + (uint64_t)form * 0x10000;
        /* set: the right neighbour's signal becomes a value of all 64 bits */
        sig = 0;
        shmem_barrier_all();
        switch (form) {
        case 0: shmem_signal_set(&sig, base + me, right); break;
        case 1: shmem_ctx_signal_set(ctx, &sig, base + me, right); break;
        case 2: shmem_ctx_signal_set(rctx, &sig, base + me, rright); break;
        case 3: shmem_signal_set(ctx, &sig, base + me, right); break; /* the generic name with a context */
        default: shmem_ctx_signal_set(SHMEM_CTX_DEFAULT, &sig, base + me, right); break;
        }
        shmem_quiet();
        shmem_ctx_quiet(ctx);
        shmem_ctx_quiet(rctx);
        shmem_barrier_all();
        CHECK(shmem_signal_fetch(&sig) == base + left, "form %d: signal_set gave %llx", form,
              (unsigned long long)sig);

        /* add: every PE adds to every PE's signal at once; each ends with the sum of all the addends */
        sum_sig = base;
        shmem_barrier_all();
        for (int k = 0; k < n; ++k) {
            const int pe = (me + k) % n;
            const uint64_t v = ((uint64_t)1 << 33) + (uint64_t)me + 1;
            switch (form) {
            case 0: shmem_signal_add(&sum_sig, v, pe); break;
            case 1: shmem_ctx_signal_add(ctx, &sum_sig, v, pe); break;
            case 2: shmem_ctx_signal_add(rctx, &sum_sig, v, n - 1 - pe); break;
            case 3: shmem_signal_add(rctx, &sum_sig, v, n - 1 - pe); break;
            default: shmem_signal_add(SHMEM_CTX_DEFAULT, &sum_sig, v, pe); break;
            }
        }
        shmem_quiet();
        shmem_ctx_quiet(ctx);
        shmem_ctx_quiet(rctx);
        shmem_barrier_all();
        const uint64_t want = base + (uint64_t)n * ((uint64_t)1 << 33) + (uint64_t)n * (n + 1) / 2;
        CHECK(sum_sig == want, "form %d: signal_add gave %llx, expected %llx", form, (unsigned long long)sum_sig,
              (unsigned long long)want);
        shmem_barrier_all();
    }

    /* a token around the ring: PE 0 starts, each PE waits for its signal and sets its right neighbour's */
    ring_sig = 0;
    shmem_barrier_all();
    for (uint64_t lap = 1; lap <= 3; ++lap) {
        if (me == 0) shmem_signal_set(&ring_sig, lap * 1000, right % n);
        const uint64_t got = shmem_signal_wait_until(&ring_sig, SHMEM_CMP_GE, lap * 1000 + (me == 0 ? n - 1 : me - 1));
        if (me == 0)
            CHECK(n == 1 || got == lap * 1000 + n - 1, "lap %llu: PE 0 got %llu", (unsigned long long)lap,
                  (unsigned long long)got);
        if (me != 0) shmem_signal_set(&ring_sig, lap * 1000 + me, right);
        /* PE 0's next lap must not be taken for this one */
        shmem_barrier_all();
    }

    shmem_ctx_destroy(rctx);
    shmem_team_destroy(reverse);
    shmem_ctx_destroy(ctx);
    shmem_finalize();
    return 0;
}
