/* Team and context handles that are not live objects of this PE: each is reported (status 134) with what the handle
 * is, instead of the check reading through it (before: a garbage handle ended in SIGSEGV inside the check, and a
 * destroyed team and another PE's team got the same words). Team handles are checked in every build that keeps the
 * cheap checks; contexts where checks are on.
 *   garbage     a collective on an uninitialised shmem_team_t (bytes 0xA5)
 *   other_data  shmem_team_n_pes of a pointer to a static array
 *   destroyed   a collective on a team after shmem_team_destroy
 *   not_member  PE 0 uses the handle of a team of the odd PEs, which PE 1 gave it (its own split gave it
 *               SHMEM_TEAM_INVALID)
 *   ctx_garbage shmem_ctx_quiet of an uninitialised shmem_ctx_t (bytes 0xA5) */
#include <shmem.h>
#include <string.h>

static long dest[64], src[8];
static long other[16];
static shmem_team_t given; /* PE 1's odd team, put into PE 0's copy */

int main(int argc, char **argv)
{
    shmem_init();
    const char *kind = argc > 1 ? argv[1] : "";
    const int me = shmem_my_pe(), n = shmem_n_pes();
    if (strcmp(kind, "garbage") == 0) {
        shmem_team_t t;
        memset(&t, 0xA5, sizeof t);
        shmem_long_broadcast(t, dest, src, 4, 0);
    } else if (strcmp(kind, "other_data") == 0) {
        (void)shmem_team_n_pes((shmem_team_t)(void *)other);
    } else if (strcmp(kind, "destroyed") == 0) {
        shmem_team_t t;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &t);
        shmem_team_destroy(t);
        shmem_team_sync(t);
    } else if (strcmp(kind, "not_member") == 0) {
        shmem_team_t odd;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd);
        if (me == 1) shmem_putmem(&given, &odd, sizeof odd, 0);
        shmem_barrier_all();
        if (me == 0) shmem_team_sync(given);
        shmem_barrier_all();
    } else if (strcmp(kind, "ctx_garbage") == 0) {
        shmem_ctx_t c;
        memset(&c, 0xA5, sizeof c);
        shmem_ctx_quiet(c);
    }
    shmem_finalize();
    return 0;
}
