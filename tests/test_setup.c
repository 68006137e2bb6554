/* Setup and query routines: PE identity, version, name, accessibility, shmem_ptr. */
#include <string.h>

#include "check.h"

static long static_var;
static int ptr_target[16];

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(n >= 1, "n_pes = %d", n);
    CHECK(me >= 0 && me < n, "my_pe = %d of %d", me, n);

    int major = 0, minor = 0;
    shmem_info_get_version(&major, &minor);
    CHECK(major == SHMEM_MAJOR_VERSION && minor == SHMEM_MINOR_VERSION, "version %d.%d", major, minor);
    CHECK(major == 1 && minor == 6, "version %d.%d", major, minor);
    char name[SHMEM_MAX_NAME_LEN];
    memset(name, 'x', sizeof name);
    shmem_info_get_name(name);
    CHECK(strlen(name) > 0 && strlen(name) < SHMEM_MAX_NAME_LEN, "name length %zu", strlen(name));
    CHECK(strcmp(name, SHMEM_VENDOR_STRING) == 0, "name '%s'", name);

    for (int pe = 0; pe < n; ++pe) CHECK(shmem_pe_accessible(pe) == 1, "pe %d not accessible", pe);
    CHECK(shmem_pe_accessible(-1) == 0, "pe -1 accessible");
    CHECK(shmem_pe_accessible(n) == 0, "pe n accessible");

    long *heap = shmem_malloc(64);
    long stack_var = 0;
    for (int pe = 0; pe < n; ++pe) {
        CHECK(shmem_addr_accessible(&static_var, pe) == 1, "static data on pe %d", pe);
        CHECK(shmem_addr_accessible(heap, pe) == 1, "heap on pe %d", pe);
        CHECK(shmem_addr_accessible(&stack_var, pe) == 0, "stack variable reported accessible on pe %d", pe);
    }
    CHECK(shmem_addr_accessible(&static_var, n) == 0, "pe n");
    CHECK(shmem_ptr(&stack_var, 0) == NULL, "shmem_ptr of a stack variable");
    CHECK(shmem_ptr(&static_var, me) == &static_var, "shmem_ptr to myself is the local address");

    /* remote stores through shmem_ptr: PE me writes its number into slot me of every PE */
    for (int pe = 0; pe < n; ++pe) {
        int *remote = shmem_ptr(ptr_target, pe);
        CHECK(remote != NULL, "shmem_ptr to pe %d", pe);
        if (me < 16) remote[me] = me + 100;
    }
    shmem_barrier_all();
    for (int pe = 0; pe < n && pe < 16; ++pe) CHECK(ptr_target[pe] == pe + 100, "slot %d = %d", pe, ptr_target[pe]);

    shmem_free(heap);
    shmem_finalize();
    return 0;
}
