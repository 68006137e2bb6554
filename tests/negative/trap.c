/* The last PE traps (argv[1]: illegal, load, noncanonical (64-bit hosts), misaligned); the run must end non-zero with the PE, the cause and
 * the pc in the message, while the other PEs sleep in a barrier. */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

int main(int argc, char **argv)
{
    shmem_init();
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        const char *kind = argc > 1 ? argv[1] : "illegal";
        if (strcmp(kind, "illegal") == 0) {
#if defined(__x86_64__) || defined(__i386__)
            __asm__ volatile("ud2" ::: "memory"); /* the defined illegal instruction (linux target) */
#elif defined(__arm__)
            __asm__ volatile("udf #0" ::: "memory"); /* ARM's permanently undefined instruction (A32 and T32) */
#elif defined(__tile__)
            __asm__ volatile("ill" ::: "memory"); /* TILE's illegal instruction (a bundle of its own) */
#else
            __asm__ volatile(".word 0" ::: "memory"); /* all-zero is a defined illegal instruction */
#endif
        } else if (strcmp(kind, "noncanonical") == 0) {
            /* bit 63 set: no user address on a 64-bit host (x86-64: a general-protection fault, no address) */
            volatile uint64_t *nowhere = (volatile uint64_t *)(uintptr_t)(UINT64_C(1) << 63);
            (void)*nowhere;
        } else if (strcmp(kind, "load") == 0) {
            volatile uint64_t *nowhere = (volatile uint64_t *)(uintptr_t)0x2c000000; /* nothing is mapped there */
            (void)*nowhere;
        } else {
            static uint64_t words[2];
            uint32_t *odd = (uint32_t *)((char *)words + 2); /* atomics must be naturally aligned */
            __atomic_fetch_add(odd, 1u, __ATOMIC_RELAXED);
        }
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
