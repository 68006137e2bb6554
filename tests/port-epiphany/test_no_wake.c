/* Epiphany: the user's puts, p, iput and AMOs do not interrupt their target (shmem::port::user_writes_notify):
 * a wake-up would be a second mesh transaction and an interrupt on a core that may be computing. Every PE but 0
 * disables its interrupts (GID), tells PE 0 so, and polls its own memory while PE 0 writes to it with every
 * family of the API; then it reads ILAT, where any interrupt latched meanwhile waits, and checks that the user
 * interrupt (bit 9) is not there. The user's waits still see the data: they poll (test_wait, p2p).
 * The barrier before wakes its waiters, and a wake-up whose flag a PE found by looking stays latched: each PE
 * clears the bit once every PE has reported that it is past the barrier, which PE 0 tells it by a message that
 * travels further than any of the barrier's wake-ups. */
#include <shmem.h>
#include <stdint.h>

#include "check.h"

static long ready[64], ack[64], fin[64];
static volatile long go, release;
static long data[8];
static int ints[8];
static uint64_t sig;
static long counter;
static volatile long done;

static uint32_t ilat(void)
{
    uint32_t v;
    __asm__ volatile("movfs %0, ilat" : "=r"(v)::"memory");
    return v;
}

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_barrier_all();
    if (me != 0) {
        __asm__ volatile("gid" ::: "memory");
        shmem_long_p(&ready[me], 1, 0);
        while (go == 0) {
        }
        __asm__ volatile("movts ilatcl, %0" ::"r"(1u << 9) : "memory");
        shmem_long_p(&ack[me], 1, 0);
        while (done == 0) {
        }
        const uint32_t latched = ilat();
        __asm__ volatile("gie" ::: "memory");
        /* Nobody enters the final barrier (whose wake-ups would reach PEs still looking) before all have looked. */
        shmem_long_p(&fin[me], 1, 0);
        while (release == 0) {
        }
        CHECK((latched & (1u << 9)) == 0, "the user interrupt was latched (ILAT %#lx)", (unsigned long)latched);
        for (int i = 0; i < 8; ++i) CHECK(data[i] == 100 * me + i, "data[%d] = %ld", i, data[i]);
        CHECK(ints[0] == me && ints[2] == me + 1 && ints[4] == me + 2, "ints %d %d %d", ints[0], ints[2], ints[4]);
        CHECK(sig == 3, "signal %llu", (unsigned long long)sig);
        CHECK(counter == 2, "counter %ld", counter);
    } else {
        for (int pe = 1; pe < n; ++pe) shmem_long_wait_until(&ready[pe], SHMEM_CMP_EQ, 1);
        for (int pe = 1; pe < n; ++pe) shmem_long_p((long *)&go, 1, pe);
        for (int pe = 1; pe < n; ++pe) {
            shmem_long_wait_until(&ack[pe], SHMEM_CMP_EQ, 1);
            long src[8];
            for (int i = 0; i < 8; ++i) src[i] = 100 * pe + i;
            shmem_long_put(data, src, 4, pe);
            shmem_putmem(&data[4], &src[4], 3 * sizeof(long), pe);
            shmem_long_p(&data[7], src[7], pe);
            const int isrc[3] = {pe, pe + 1, pe + 2};
            shmem_int_iput(ints, isrc, 2, 1, 3, pe);
            shmem_long_atomic_add(&counter, 1, pe);
            (void)shmem_long_atomic_fetch_inc(&counter, pe);
            shmem_putmem_signal(&data[0], src, sizeof(long), &sig, 1, SHMEM_SIGNAL_SET, pe);
            shmem_signal_add(&sig, 2, pe);
            shmem_quiet();
            shmem_long_p((long *)&done, 1, pe);
        }
        for (int pe = 1; pe < n; ++pe) shmem_long_wait_until(&fin[pe], SHMEM_CMP_EQ, 1);
        for (int pe = 1; pe < n; ++pe) shmem_long_p((long *)&release, 1, pe);
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
