// The C++ form of app.c (built with oshc++, or as a C++ target of a CMake project): new/delete, a virtual call
// and a function-local static object, on top of the same checks.
#include <assert.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

namespace {

long total;  // symmetric: static data

struct Shape {
    virtual ~Shape() = default;
    virtual long area() const = 0;
};
struct Rect : Shape {
    long w, h;
    Rect(long w_, long h_) : w(w_), h(h_) {}
    long area() const override { return w * h; }
};

long &counter()
{
    static long c = 100;  // a function-local static, initialized once
    return c;
}

}  // namespace

int main()
{
    timespec t0, t1;
    assert(clock_gettime(CLOCK_MONOTONIC, &t0) == 0);
    shmem_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes();

    const char *greeting = getenv("LIBSHMEM_APP_GREETING");
    assert(greeting != nullptr && strcmp(greeting, "hello") == 0);

    Shape *s = new Rect(me + 1, 10);
    long *v = new long[64];
    for (int i = 0; i < 64; ++i) v[i] = s->area();
    const long mine = v[63] + ++counter();
    delete[] v;
    delete s;
    assert(counter() == 101);

    shmem_long_atomic_add(&total, mine, 0);
    shmem_barrier_all();
    const long got = shmem_long_g(&total, 0);
    long want = 0;
    for (int pe = 0; pe < npes; ++pe) want += (pe + 1) * 10 + 101;
    if (got != want) {
        fprintf(stderr, "PE %d: total %ld, expected %ld\n", me, got, want);
        return 1;
    }
    assert(clock_gettime(CLOCK_MONOTONIC, &t1) == 0);
    assert(t1.tv_sec > t0.tv_sec || (t1.tv_sec == t0.tv_sec && t1.tv_nsec >= t0.tv_nsec));
    printf("app++: PE %d of %d: total %ld, ok\n", me, npes, got);
    assert(fflush(nullptr) == 0);
    shmem_finalize();
    return 0;
}
