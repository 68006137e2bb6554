/* The profiling interface (OpenSHMEM 1.5 §10, pshmem.h), used the way a tool uses it: this file defines its own
 * shmem_init, shmem_putmem, shmem_long_atomic_fetch_add, shmem_barrier_all, shmem_malloc, ... that count their
 * calls and forward to the library's pshmem_ names, then does real work with them and checks
 *  - that the data is right (each interposed routine still does its work, through its pshmem_ name);
 *  - that each count is exactly the number of the program's own calls of the routine, typed or generic, and not
 *    one more: the library's own calls (shmem_calloc's, start_pes', a put-with-signal's atomic set, shmem_sync's
 *    team sync, shmem_ctx_destroy's quiet, the legacy names') are not seen, nor are the program's calls of
 *    pshmem_ names;
 *  - that shmem_pcontrol reaches the tool, which stops and resumes counting;
 *  - that a routine the tool does not define has one body under two names (shmem_getmem == pshmem_getmem), and
 *    one it defines is the tool's (shmem_putmem != pshmem_putmem).
 * Compiled as C11 (test_interpose.c) and as C++17 (test_interpose_cxx.cpp includes this file), with -Werror: a
 * pshmem_global_exit that were not noreturn would make the tool's shmem_global_exit below a warning. */
#include <pshmem.h>

#include "check.h"

/* ---- the tool --------------------------------------------------------------------------------------------- */
static int counting = 1; /* shmem_pcontrol(0) stops counting, a non-zero level resumes */
static struct {
    long init, putmem, fetch_add, barrier_all, malloc_, free_, ctx_quiet, team_sync, sig_set, wait_until, pcontrol,
        global_exit;
} count;
#define COUNT(field) (count.field += counting)

void shmem_init(void)
{
    COUNT(init);
    pshmem_init();
}
void shmem_putmem(void *dest, const void *source, size_t nelems, int pe)
{
    COUNT(putmem);
    pshmem_putmem(dest, source, nelems, pe);
}
long shmem_long_atomic_fetch_add(long *dest, long value, int pe)
{
    COUNT(fetch_add);
    return pshmem_long_atomic_fetch_add(dest, value, pe);
}
void shmem_barrier_all(void)
{
    COUNT(barrier_all);
    pshmem_barrier_all();
}
void *shmem_malloc(size_t size)
{
    COUNT(malloc_);
    return pshmem_malloc(size);
}
void shmem_free(void *ptr)
{
    COUNT(free_);
    pshmem_free(ptr);
}
void shmem_ctx_quiet(shmem_ctx_t ctx)
{
    COUNT(ctx_quiet);
    pshmem_ctx_quiet(ctx);
}
int shmem_team_sync(shmem_team_t team)
{
    COUNT(team_sync);
    return pshmem_team_sync(team);
}
void shmem_uint64_atomic_set(uint64_t *dest, uint64_t value, int pe)
{
    COUNT(sig_set);
    pshmem_uint64_atomic_set(dest, value, pe);
}
void shmem_long_wait_until(long *ivar, int cmp, long cmp_value)
{
    COUNT(wait_until);
    pshmem_long_wait_until(ivar, cmp, cmp_value);
}
void shmem_pcontrol(const int level, ...)
{
    ++count.pcontrol;
    counting = level != 0;
    pshmem_pcontrol(level);
}
void shmem_global_exit(int status) /* noreturn (shmem.h); CHECK ends a failed run through it */
{
    ++count.global_exit;
    pshmem_global_exit(status);
}

/* ---- the program ------------------------------------------------------------------------------------------ */
enum { ROUNDS = 5, FETCH_ADDS = 3 };
static long src[ROUNDS];
static long flag = 1;
static uint64_t sig;
static long sig_data;
static long psync_a[SHMEM_BARRIER_SYNC_SIZE];

typedef void (*fn_t)(void);

int main(void)
{
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; ++i) psync_a[i] = SHMEM_SYNC_VALUE;
    long init_calls = 1;
#ifdef __cplusplus
    /* shmem_init_thread calls the library's shmem_init by its pshmem_ name: the tool does not see it */
    int provided = -1;
    CHECK(shmem_init_thread(SHMEM_THREAD_SINGLE, &provided) == 0 && provided == SHMEM_THREAD_SINGLE, "init_thread");
    init_calls = 0;
#else
    shmem_init();
#endif
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int next = me + 1 < n ? me + 1 : 0, prev = me > 0 ? me - 1 : n - 1;

    /* One body, two names where the tool does not interpose; the tool's body where it does. */
    CHECK((fn_t)shmem_getmem == (fn_t)pshmem_getmem, "shmem_getmem and pshmem_getmem differ");
    CHECK((fn_t)shmem_long_g == (fn_t)pshmem_long_g, "shmem_long_g and pshmem_long_g differ");
    CHECK((fn_t)shmem_putmem != (fn_t)pshmem_putmem, "shmem_putmem is not the tool's");

    /* The heap: shmem_calloc, shmalloc and shfree allocate and free without a call of shmem_malloc/shmem_free. */
    long *buf = (long *)shmem_malloc(2 * ROUNDS * sizeof(long));
    long *counter = (long *)shmem_calloc(1, sizeof(long));
    void *old = shmalloc(64);
    CHECK(buf != NULL && counter != NULL && old != NULL, "allocation: %p %p %p", (void *)buf, (void *)counter, old);
    shfree(old);
    for (int r = 0; r < 2 * ROUNDS; ++r) buf[r] = -1;
    shmem_barrier_all();

    /* RMA: each PE puts into its right neighbour's buf, with shmem_putmem (counted) and with routines that are
     * not it (shmem_long_put, shmem_putmem_nbi and the generic shmem_put: not counted). */
    for (int r = 0; r < ROUNDS; ++r) {
        src[r] = me * 1000 + r;
        shmem_putmem(&buf[r], &src[r], sizeof(long), next);
    }
    shmem_long_put(&buf[ROUNDS], src, 2, next);
    shmem_putmem_nbi(&buf[ROUNDS + 2], &src[2], sizeof(long), next);
    shmem_put(&buf[ROUNDS + 3], &src[3], 2, next);
    shmem_barrier_all();
    for (int r = 0; r < ROUNDS; ++r) {
        CHECK(buf[r] == prev * 1000 + r, "buf[%d] = %ld, expected %ld", r, buf[r], (long)(prev * 1000 + r));
        CHECK(buf[ROUNDS + r] == prev * 1000 + r, "buf[%d] = %ld", ROUNDS + r, buf[ROUNDS + r]);
    }

    /* Atomics on PE 0's counter: the typed routine and the generic name are the same routine (counted); the
     * 1.3 name shmem_long_fadd and shmem_long_atomic_add are others (not counted). */
    for (int i = 0; i < FETCH_ADDS; ++i) {
        const long before = shmem_long_atomic_fetch_add(counter, 1, 0);
        CHECK(before >= 0 && before < (long)n * (FETCH_ADDS + 1110), "fetch_add returned %ld", before);
    }
    (void)shmem_atomic_fetch_add(counter, 10L, 0);
    (void)shmem_long_fadd(counter, 100, 0);
    shmem_long_atomic_add(counter, 1000, 0);
    shmem_barrier_all();
    if (me == 0) CHECK(*counter == (long)n * (FETCH_ADDS + 1110), "counter %ld, expected %ld", *counter,
                       (long)n * (FETCH_ADDS + 1110));
    const long fetch_adds = FETCH_ADDS + 1;

    /* shmem_pcontrol: the tool stops counting at level 0 and resumes at 1 */
    shmem_pcontrol(0);
    shmem_putmem(&buf[0], &src[0], sizeof(long), next);
    shmem_barrier_all();
    shmem_pcontrol(1);

    /* Put-with-signal sets the signal with the library's atomic set, by its pshmem_ name: not seen. */
    sig_data = 0;
    shmem_barrier_all();
    shmem_long_put_signal(&sig_data, &src[1], 1, &sig, (uint64_t)me + 1, SHMEM_SIGNAL_SET, next);
    CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, (uint64_t)prev + 1) == (uint64_t)prev + 1, "signal");
    CHECK(sig_data == prev * 1000 + 1, "put-with-signal data %ld", sig_data);
    shmem_uint64_atomic_set(&sig, 0, me); /* the program's own call: seen */
    CHECK(sig == 0, "sig %llu after the atomic set", (unsigned long long)sig);

    /* Contexts: shmem_ctx_destroy quiets the context through pshmem_ctx_quiet: only the direct call is seen. */
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
    shmem_ctx_putmem(ctx, &buf[1], &src[1], sizeof(long), next);
    shmem_ctx_quiet(ctx);
    shmem_ctx_destroy(ctx);

    /* shmem_sync(team) is the library's shmem_sync, which syncs through pshmem_team_sync; pshmem_sync is the
     * profiling form of the shmem_sync macro (also its deprecated active-set form). Only shmem_team_sync is seen. */
    CHECK(shmem_sync(SHMEM_TEAM_WORLD) == 0, "shmem_sync");
    CHECK(pshmem_sync(SHMEM_TEAM_WORLD) == 0, "pshmem_sync");
    pshmem_sync(0, 0, n, psync_a);
    CHECK(shmem_team_sync(SHMEM_TEAM_WORLD) == 0, "shmem_team_sync");

    /* Waiting: the typed routine and the generic name are counted, shmem_long_wait (1.3) is not, nor is the 1.2 C
     * function shmem_wait_until (C only: in C++ that name is the overload set). */
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
    shmem_wait_until(&flag, SHMEM_CMP_NE, 0);
    shmem_long_wait(&flag, 0);
#ifndef __cplusplus
    (shmem_wait_until)(&flag, SHMEM_CMP_GE, 1);
    pshmem_wait_until(&flag, SHMEM_CMP_LE, 1);
#endif

    shmem_free(buf);
    shmem_barrier_all();

    /* The counts, the same on every PE */
    const long barriers = 5;
    CHECK(count.init == init_calls, "shmem_init seen %ld times, expected %ld", count.init, init_calls);
    CHECK(count.putmem == ROUNDS, "shmem_putmem seen %ld times, expected %d", count.putmem, (int)ROUNDS);
    CHECK(count.fetch_add == fetch_adds, "shmem_long_atomic_fetch_add seen %ld times, expected %ld",
          count.fetch_add, fetch_adds);
    CHECK(count.barrier_all == barriers, "shmem_barrier_all seen %ld times, expected %ld", count.barrier_all,
          barriers);
    CHECK(count.malloc_ == 1, "shmem_malloc seen %ld times, expected 1", count.malloc_);
    CHECK(count.free_ == 1, "shmem_free seen %ld times, expected 1", count.free_);
    CHECK(count.ctx_quiet == 1, "shmem_ctx_quiet seen %ld times, expected 1", count.ctx_quiet);
    CHECK(count.team_sync == 1, "shmem_team_sync seen %ld times, expected 1", count.team_sync);
    CHECK(count.sig_set == 1, "shmem_uint64_atomic_set seen %ld times, expected 1", count.sig_set);
    CHECK(count.wait_until == 2, "shmem_long_wait_until seen %ld times, expected 2", count.wait_until);
    CHECK(count.pcontrol == 2, "shmem_pcontrol seen %ld times, expected 2", count.pcontrol);
    CHECK(count.global_exit == 0, "shmem_global_exit seen %ld times", count.global_exit);

    shmem_finalize();
    if (me == 0) printf("profiling: every interposed routine seen exactly as often as the program called it\n");
    return 0;
}
