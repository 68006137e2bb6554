// C++ programs: global constructors run before main (on every PE, before shmem_init), the C++ overloads of the
// generic names select the typed routines, and destructors registered with atexit run at exit.
#include <shmem.h>
#include <stdio.h>

#include "check_cond.h"

namespace {

int constructed_on_pe = -1;

struct Probe {
    int value;
    Probe() : value(12345) { constructed_on_pe = shmem_my_pe(); }  // my_pe works before shmem_init here
};
Probe probe;

long longs[8];
double doubles[8];
int flag;

}  // namespace

int main()
{
    CHECK(probe.value == 12345);
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
    CHECK(constructed_on_pe == me);

    long l[8];
    double d[8];
    for (int i = 0; i < 8; ++i) {
        l[i] = me * 10 + i;
        d[i] = me + i / 4.0;
    }
    shmem_put(longs, l, 8, right);      // overloads: long, double
    shmem_put(doubles, d, 8, right);
    shmem_barrier_all();
    for (int i = 0; i < 8; ++i) {
        CHECK(longs[i] == left * 10 + i);
        CHECK(doubles[i] == left + i / 4.0);
    }
    CHECK(shmem_g(&longs[3], right) == me * 10 + 3);
    shmem_barrier_all();
    shmem_p(&flag, 7, right);
    shmem_wait_until(&flag, SHMEM_CMP_EQ, 7);
    CHECK(shmem_test(&flag, SHMEM_CMP_EQ, 7) == 1);
    shmem_barrier_all();
    if (me == 0) printf("c++: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}
