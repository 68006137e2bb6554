// The C++ overloads of the OpenSHMEM 1.6 generic names: shmem_ibput/shmem_ibget (with and without a context),
// shmem_sum_inscan/shmem_sum_exscan, and shmem_signal_add/shmem_signal_set with a context (without one they are
// the C functions). Each picks the routine of its type; the values say so.
#include "check.h"

namespace {

long lsrc[12], ldst[12];
double dsrc[12], ddst[12];
int isrc[2], idst[2];
unsigned long long usrc[2], udst[2];
uint64_t sig;

}  // namespace

int main()
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(0, &ctx) == 0, "ctx_create");

    for (int i = 0; i < 12; ++i) {
        lsrc[i] = me * 100 + i;
        dsrc[i] = me * 100 + i + 0.25;
        ldst[i] = -1;
        ddst[i] = -1;
    }
    shmem_barrier_all();
    // blocks of 2 with strides 3 (dest) and 4 (source), 3 blocks
    shmem_ibput(ldst, lsrc, 3, 4, 2, 3, right);
    shmem_ibput(ctx, ddst, dsrc, 3, 4, 2, 3, right);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (int i = 0; i < 12; ++i) {
        const bool in = i < 8 && i % 3 < 2;
        const long w = in ? left * 100 + i / 3 * 4 + i % 3 : -1;
        CHECK(ldst[i] == w, "ibput long %d: %ld", i, ldst[i]);
        CHECK(ddst[i] == (in ? w + 0.25 : -1), "ibput double %d", i);
    }
    long l[12];
    double d[12];
    for (int i = 0; i < 12; ++i) {
        l[i] = -2;
        d[i] = -2;
    }
    shmem_ibget(l, lsrc, 4, 3, 2, 3, left);
    shmem_ibget(ctx, d, dsrc, 4, 3, 2, 3, left);
    for (int i = 0; i < 12; ++i) {
        const bool in = i < 10 && i % 4 < 2;
        const long w = in ? left * 100 + i / 4 * 3 + i % 4 : -2;
        CHECK(l[i] == w, "ibget long %d: %ld", i, l[i]);
        CHECK(d[i] == (in ? w + 0.25 : -2), "ibget double %d", i);
    }
    shmem_barrier_all();

    isrc[0] = me + 1;
    isrc[1] = 2;
    usrc[0] = (unsigned long long)me;
    usrc[1] = 1ull << 40;
    shmem_sync_all();
    CHECK(shmem_sum_inscan(SHMEM_TEAM_WORLD, idst, isrc, 2) == 0, "inscan int");
    CHECK(idst[0] == (me + 1) * (me + 2) / 2 && idst[1] == 2 * (me + 1), "inscan int: %d %d", idst[0], idst[1]);
    CHECK(shmem_sum_exscan(SHMEM_TEAM_WORLD, udst, usrc, 2) == 0, "exscan unsigned long long");
    CHECK(udst[0] == (unsigned long long)me * (me - 1) / 2 && udst[1] == (unsigned long long)me << 40,
          "exscan unsigned long long: %llu %llu", udst[0], udst[1]);

    sig = 0;
    shmem_barrier_all();
    shmem_signal_set(ctx, &sig, 5, right);  // the C++ overload with a context
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    CHECK(sig == 5, "signal_set ctx: %llu", (unsigned long long)sig);
    shmem_barrier_all();
    shmem_signal_add(ctx, &sig, 7, right);
    shmem_signal_add(&sig, 11, left);  // the C function
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    CHECK(sig == 23, "signal_add: %llu", (unsigned long long)sig);

    shmem_ctx_destroy(ctx);
    shmem_finalize();
    return 0;
}
