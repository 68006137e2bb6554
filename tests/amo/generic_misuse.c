/* Generic calls that must not compile (one per -D): each names a type the family does not have. */
#include <shmem.h>

static short s;
static const long cl = 0;

void misuse(shmem_ctx_t ctx)
{
#if defined(CTX_BAD_TYPE)
    shmem_atomic_add(ctx, &s, (short)1, 0); /* no short AMOs: the inner selection's default */
#elif defined(BAD_TYPE)
    shmem_atomic_add(&s, (short)1, 0);
#elif defined(CONST_DEST)
    shmem_atomic_add(&cl, 1L, 0); /* only fetch takes a const pointer */
#elif defined(FLOAT_ADD)
    static float f;
    shmem_atomic_fetch_add(ctx, &f, 1.0f, 0); /* float has fetch, set and swap only */
#endif
    (void)ctx;
}
