/* Epiphany: atomics on words in external DRAM. Such a word has no TESTSET owner core: a lock word on PE 0's core
 * guards it. The holder's new value goes to DRAM and its release to PE 0's core: two destinations, whose writes
 * the mesh does not keep in order, and the release arrives tens of cycles before the data. Unless the port waits
 * for the data to land before it releases, the next holder reads the old value and an update is lost. Every PE
 * adds to counters in DRAM (32 and 64 bits, the GCC built-ins and C11 atomics) and PE 0 checks the sums. */
#include <shmem.h>
#include <stdatomic.h>
#include <stdint.h>

#include "check.h"

#define ROUNDS 100
static uint32_t c32 __attribute__((section(".dram.test_dram_atomics")));
static uint64_t c64 __attribute__((section(".dram.test_dram_atomics")));
static _Atomic uint32_t a32 __attribute__((section(".dram.test_dram_atomics")));

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(((uintptr_t)&c32 >> 20) >= 0x8e0, "the counters are not in external DRAM: %p", (void *)&c32);
    if (me == 0) {
        c32 = 0;
        c64 = 0;
        atomic_store(&a32, 0);
    }
    shmem_barrier_all();
    for (int r = 0; r < ROUNDS; ++r) {
        __atomic_fetch_add(&c32, 1, __ATOMIC_SEQ_CST);
        __atomic_fetch_add(&c64, (uint64_t)1 << 32 | 1, __ATOMIC_SEQ_CST);
        atomic_fetch_add(&a32, 2);
    }
    shmem_barrier_all();
    if (me == 0) {
        const uint64_t want = (uint64_t)n * ROUNDS;
        const uint64_t w64 = __atomic_load_n(&c64, __ATOMIC_SEQ_CST);
        CHECK(__atomic_load_n(&c32, __ATOMIC_SEQ_CST) == want, "32-bit counter %lu, expected %lu", (unsigned long)c32,
              (unsigned long)want);
        CHECK(w64 == (want << 32 | want), "64-bit counter %lu:%lu, expected %lu:%lu", (unsigned long)(w64 >> 32),
              (unsigned long)w64, (unsigned long)want, (unsigned long)want);
        CHECK(atomic_load(&a32) == 2 * want, "C11 counter %lu, expected %lu", (unsigned long)atomic_load(&a32),
              (unsigned long)(2 * want));
    }
    shmem_finalize();
    return 0;
}
