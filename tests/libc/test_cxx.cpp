// The C++ runtime without libstdc++ (crt/common/cxx.cpp): new/delete of objects and arrays (plain, sized,
// nothrow, over-aligned), virtual functions, function-local statics (compiled with the default thread-safe
// guards), global objects. argv[1] = "new": a new that cannot be satisfied ends the run (134); "pure": a pure
// virtual call does.
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check_cond.h"

namespace std {
struct nothrow_t {
    explicit nothrow_t() = default;
};
extern const nothrow_t nothrow;
}  // namespace std
void *operator new(size_t, const std::nothrow_t &) noexcept;
void *operator new[](size_t, const std::nothrow_t &) noexcept;
inline void *operator new(size_t, void *p) noexcept { return p; }

namespace {

int live_objects;

struct Shape {
    virtual ~Shape() { --live_objects; }
    virtual long area() const = 0;
    Shape() { ++live_objects; }
};

struct Rect : Shape {
    long w, h;
    Rect(long w_, long h_) : w(w_), h(h_) {}
    long area() const override { return w * h; }
};

struct Square : Rect {
    explicit Square(long s) : Rect(s, s) {}
    long area() const override { return Rect::area() + 0; }
};

struct alignas(64) Aligned {
    char bytes[64];
};

int constructions;

struct Counter {
    int id;
    Counter() : id(++constructions) {}
};

// A function-local static: constructed once, on first use, through __cxa_guard_acquire/release.
Counter &the_counter()
{
    static Counter c;
    return c;
}

int init_calls;
int compute() { return ++init_calls * 100; }
int local_static_int()
{
    static int v = compute();  // not a constant: a guarded initialisation
    return v;
}

struct Global {
    int value = 4242;
    Global() { value += shmem_my_pe() * 0; }
};
Global global_object;

char *volatile escaped;  // where an allocation goes so that the compiler cannot drop it

}  // namespace

// A pure virtual function called from the base's constructor, through a function the compiler cannot see into
// (it would otherwise know the call is undefined and drop it). Outside the anonymous namespace: there the
// compiler knows every class derived from Abstract and calls Concrete::f directly.
struct Abstract;
void call_f(Abstract *a);
struct Abstract {
    Abstract() { call_f(this); }
    virtual void f() = 0;
    virtual ~Abstract() = default;
};
[[gnu::noinline]] void call_f(Abstract *a)
{
    __asm__ volatile("" : "+r"(a));
    a->f();
}
struct Concrete : Abstract {
    void f() override {}
};

int main(int argc, char **argv)
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(global_object.value == 4242);

    if (argc > 1 && strcmp(argv[1], "new") == 0 && me == n - 1) {
        volatile size_t huge = size_t(1) << 40;
        escaped = new char[huge];  // must not return
        return 3;
    }
    if (argc > 1 && strcmp(argv[1], "pure") == 0 && me == n - 1) {
        Concrete *c = new Concrete;  // must not return
        delete c;
        return 3;
    }

    // objects through a base pointer, virtual calls, virtual destructors (sized delete)
    Shape *shapes[3] = {new Rect(2, 3), new Square(me + 1), new Rect(me, 10)};
    CHECK(live_objects == 3);
    CHECK(shapes[0]->area() == 6);
    CHECK(shapes[1]->area() == long(me + 1) * (me + 1));
    CHECK(shapes[2]->area() == long(me) * 10);
    for (Shape *s : shapes) delete s;
    CHECK(live_objects == 0);

    // arrays of scalars and of objects
    long *longs = new long[1000];
    for (int i = 0; i < 1000; ++i) longs[i] = i * me;
    long sum = 0;
    for (int i = 0; i < 1000; ++i) sum += longs[i];
    CHECK(sum == 499500L * me);
    delete[] longs;
    Counter *counters = new Counter[5];
    CHECK(counters[0].id + 4 == counters[4].id);
    delete[] counters;

    // new of size 0 gives distinct pointers
    char *z1 = new char[0], *z2 = new char[0];
    CHECK(z1 != nullptr && z2 != nullptr && z1 != z2);
    delete[] z1;
    delete[] z2;

    // over-aligned types (operator new with align_val_t)
    Aligned *a = new Aligned;
    CHECK((reinterpret_cast<uintptr_t>(a) & 63) == 0);
    delete a;
    Aligned *as = new Aligned[3];
    CHECK((reinterpret_cast<uintptr_t>(as) & 63) == 0);
    delete[] as;

    // nothrow: nullptr when there is no memory
    char *none = new (std::nothrow) char[size_t(1) << 40];
    CHECK(none == nullptr);
    int *one = new (std::nothrow) int(7);
    CHECK(one != nullptr && *one == 7);
    delete one;

    // placement new
    alignas(Rect) unsigned char storage[sizeof(Rect)];
    Rect *r = new (storage) Rect(4, 5);
    CHECK(r->area() == 20);
    r->~Rect();

    // function-local statics: initialised once
    const int before = constructions;
    Counter &c1 = the_counter();
    Counter &c2 = the_counter();
    CHECK(&c1 == &c2 && c1.id == before + 1 && constructions == before + 1);
    CHECK(local_static_int() == 100 && local_static_int() == 100 && init_calls == 1);

    // the C++ heap is malloc's: private, not symmetric
    long *priv = new long[4];
    CHECK(shmem_addr_accessible(priv, 0) == 0);
    delete[] priv;

    shmem_barrier_all();
    if (me == 0) printf("c++ runtime: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}
