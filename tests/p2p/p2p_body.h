/* The body of test_p2p.c for one type: included once per point-to-point synchronization type with TYPE and
 * NAME (its TYPENAME) defined. Defines NAME's test function, p2p_NAME(). */
#define F_(a, b, c) a##b##c
#define F2_(a, b, c) F_(a, b, c)
#define R(op) F2_(shmem_, NAME, _##op) /* R(test_all) is shmem_NAME_test_all */
#define T TYPE

static void F2_(local_, NAME, )(void)
{
    /* test_* and wait_until_* on values that are already there: exact results */
    static T v[8];
    T cv[8];
    int st[8], none[8];
    size_t idx[8];
    for (int i = 0; i < 8; ++i) {
        v[i] = (T)(i + 1);                    /* 1 2 3 4 5 6 7 8 */
        cv[i] = (T)(i % 2 ? i + 1 : i + 2);   /* equal to v at the odd indices */
        st[i] = i % 2 == 0;                   /* excludes the even indices */
        none[i] = 1;                          /* excludes everything */
    }
    CHECK(R(test_all)(v, 8, NULL, SHMEM_CMP_GE, (T)1) == 1, "test_all GE 1");
    CHECK(R(test_all)(v, 8, NULL, SHMEM_CMP_GT, (T)1) == 0, "test_all GT 1");
    CHECK(R(test_all)(v, 8, NULL, SHMEM_CMP_LT, (T)9) == 1, "test_all LT 9");
    CHECK(R(test_all)(v, 8, NULL, SHMEM_CMP_LE, (T)7) == 0, "test_all LE 7");
    CHECK(R(test_all)(v, 8, NULL, SHMEM_CMP_NE, (T)4) == 0, "test_all NE 4");
    CHECK(R(test_all)(v, 1, NULL, SHMEM_CMP_EQ, (T)1) == 1, "test_all EQ 1 (1 element)");
    CHECK(R(test_all)(v, 8, st, SHMEM_CMP_NE, (T)3) == 1, "test_all NE 3, odd indices only");
    CHECK(R(test_all)(v, 8, st, SHMEM_CMP_NE, (T)4) == 0, "test_all NE 4, odd indices only");
    CHECK(R(test_all)(v, 8, none, SHMEM_CMP_EQ, (T)0) == 1, "test_all, empty set");
    CHECK(R(test_all)(v, 0, NULL, SHMEM_CMP_EQ, (T)0) == 1, "test_all, nelems 0");

    CHECK(R(test_any)(v, 8, NULL, SHMEM_CMP_EQ, (T)5) == 4, "test_any EQ 5");
    CHECK(R(test_any)(v, 8, NULL, SHMEM_CMP_GT, (T)8) == SIZE_MAX, "test_any GT 8");
    CHECK(R(test_any)(v, 8, st, SHMEM_CMP_EQ, (T)5) == SIZE_MAX, "test_any EQ 5, index 4 excluded");
    CHECK(R(test_any)(v, 8, st, SHMEM_CMP_EQ, (T)6) == 5, "test_any EQ 6, odd indices only");
    CHECK(R(test_any)(v, 8, none, SHMEM_CMP_GE, (T)0) == SIZE_MAX, "test_any, empty set");
    CHECK(R(test_any)(v, 0, NULL, SHMEM_CMP_GE, (T)0) == SIZE_MAX, "test_any, nelems 0");
    {
        /* two elements satisfy the test: a series of calls returns each of them */
        int seen_a = 0, seen_b = 0;
        for (int k = 0; k < 8; ++k) {
            size_t i = R(test_any)(v, 8, NULL, SHMEM_CMP_LT, (T)3);
            CHECK(i == 0 || i == 1, "test_any LT 3 returned %u", (unsigned)i);
            seen_a |= i == 0;
            seen_b |= i == 1;
        }
        CHECK(seen_a && seen_b, "test_any LT 3 never returned index %d", seen_a ? 1 : 0);
    }

    CHECK(R(test_some)(v, 8, idx, NULL, SHMEM_CMP_GT, (T)5) == 3, "test_some GT 5");
    CHECK(same_set(idx, 3, 5, 6, 7), "test_some GT 5: indices");
    CHECK(R(test_some)(v, 8, idx, st, SHMEM_CMP_GT, (T)4) == 2, "test_some GT 4, odd indices only");
    CHECK(same_set(idx, 2, 5, 7), "test_some GT 4, odd indices only: indices");
    CHECK(R(test_some)(v, 8, idx, NULL, SHMEM_CMP_LE, (T)0) == 0, "test_some LE 0");
    CHECK(R(test_some)(v, 8, idx, none, SHMEM_CMP_GE, (T)0) == 0, "test_some, empty set");
    CHECK(R(test_some)(v, 0, idx, NULL, SHMEM_CMP_GE, (T)0) == 0, "test_some, nelems 0");

    /* vector forms: cv equals v at the odd indices and is v + 1 at the even ones */
    CHECK(R(test_all_vector)(v, 8, NULL, SHMEM_CMP_LE, cv) == 1, "test_all_vector LE");
    CHECK(R(test_all_vector)(v, 8, NULL, SHMEM_CMP_EQ, cv) == 0, "test_all_vector EQ");
    CHECK(R(test_all_vector)(v, 8, st, SHMEM_CMP_EQ, cv) == 1, "test_all_vector EQ, odd indices only");
    CHECK(R(test_all_vector)(v, 8, none, SHMEM_CMP_GT, cv) == 1, "test_all_vector, empty set");
    CHECK(R(test_any_vector)(v, 8, NULL, SHMEM_CMP_LT, cv) % 2 == 0, "test_any_vector LT");
    CHECK(R(test_any_vector)(v, 8, st, SHMEM_CMP_LT, cv) == SIZE_MAX, "test_any_vector LT, odd indices only");
    CHECK(R(test_any_vector)(v, 8, NULL, SHMEM_CMP_GT, cv) == SIZE_MAX, "test_any_vector GT");
    CHECK(R(test_some_vector)(v, 8, idx, NULL, SHMEM_CMP_EQ, cv) == 4, "test_some_vector EQ");
    CHECK(same_set(idx, 4, 1, 3, 5, 7), "test_some_vector EQ: indices");
    CHECK(R(test_some_vector)(v, 8, idx, NULL, SHMEM_CMP_NE, cv) == 4, "test_some_vector NE");
    CHECK(same_set(idx, 4, 0, 2, 4, 6), "test_some_vector NE: indices");
    CHECK(R(test_some_vector)(v, 8, idx, st, SHMEM_CMP_NE, cv) == 0, "test_some_vector NE, odd indices only");

    /* waits whose condition already holds return at once, with the same answers */
    R(wait_until_all)(v, 8, NULL, SHMEM_CMP_GE, (T)1);
    R(wait_until_all)(v, 8, none, SHMEM_CMP_EQ, (T)0);   /* empty set: returns */
    R(wait_until_all)(v, 0, NULL, SHMEM_CMP_EQ, (T)0);
    R(wait_until_all_vector)(v, 8, st, SHMEM_CMP_EQ, cv);
    CHECK(R(wait_until_any)(v, 8, NULL, SHMEM_CMP_EQ, (T)5) == 4, "wait_until_any EQ 5");
    CHECK(R(wait_until_any)(v, 8, none, SHMEM_CMP_EQ, (T)5) == SIZE_MAX, "wait_until_any, empty set");
    CHECK(R(wait_until_any)(v, 0, NULL, SHMEM_CMP_EQ, (T)5) == SIZE_MAX, "wait_until_any, nelems 0");
    CHECK(R(wait_until_any_vector)(v, 8, st, SHMEM_CMP_EQ, cv) % 2 == 1, "wait_until_any_vector EQ");
    CHECK(R(wait_until_some)(v, 8, idx, NULL, SHMEM_CMP_GT, (T)5) == 3, "wait_until_some GT 5");
    CHECK(same_set(idx, 3, 5, 6, 7), "wait_until_some GT 5: indices");
    CHECK(R(wait_until_some)(v, 8, idx, none, SHMEM_CMP_GT, (T)5) == 0, "wait_until_some, empty set");
    CHECK(R(wait_until_some_vector)(v, 8, idx, NULL, SHMEM_CMP_EQ, cv) == 4, "wait_until_some_vector EQ");
    CHECK(same_set(idx, 4, 1, 3, 5, 7), "wait_until_some_vector EQ: indices");
}

/* PE me sets its own element of arr, arr[me] = me + 1, on every PE: its own copy first, then the others in the
 * order me + 1, me + 2, ... so that each target sees the elements arrive at different times. */
static void F2_(write_mine_, NAME, )(T *arr, int me, int n)
{
    arr[me] = (T)(me + 1);
    for (int k = 1; k < n; ++k) R(p)(&arr[me], (T)(me + 1), (me + k) % n);
}

static void F2_(check_all_, NAME, )(T *arr, int n, int only_odd, const char *what)
{
    for (int i = 0; i < n; ++i) {
        T want = (T)(only_odd && i % 2 == 0 ? 0 : i + 1);
        CHECK(arr[i] == want, "%s: element %d is %lld, expected %lld", what, i, (long long)arr[i], (long long)want);
    }
}

static void F2_(reset_, NAME, )(T *arr, int n)
{
    shmem_barrier_all(); /* every PE is done with this round's waits and puts */
    for (int i = 0; i < n; ++i) arr[i] = 0;
    shmem_barrier_all();
}

static void F2_(p2p_, NAME, )(void)
{
    const int me = shmem_my_pe(), n = shmem_n_pes();
    T *arr = (T *)shmem_calloc((size_t)n, sizeof(T));
    /* (there is no C heap on a PE: the local arrays come from the symmetric heap too) */
    T *cv = (T *)shmem_malloc((size_t)n * sizeof(T));
    int *st = (int *)shmem_malloc((size_t)n * sizeof(int));
    size_t *idx = (size_t *)shmem_malloc((size_t)n * sizeof(size_t));
    CHECK(arr && cv && st && idx, "allocation");
    for (int i = 0; i < n; ++i) cv[i] = (T)(i + 1);

    F2_(local_, NAME, )();
    shmem_barrier_all();

    /* wait_until_all: every element arrives */
    F2_(write_mine_, NAME, )(arr, me, n);
    R(wait_until_all)(arr, (size_t)n, NULL, SHMEM_CMP_NE, (T)0);
    F2_(check_all_, NAME, )(arr, n, 0, "wait_until_all");
    CHECK(R(test_all)(arr, (size_t)n, NULL, SHMEM_CMP_GT, (T)0) == 1, "test_all after wait_until_all");
    F2_(reset_, NAME, )(arr, n);

    /* wait_until_all_vector, with only the odd PEs writing and the even elements masked out */
    if (me % 2) F2_(write_mine_, NAME, )(arr, me, n);
    for (int i = 0; i < n; ++i) st[i] = i % 2 == 0;
    R(wait_until_all_vector)(arr, (size_t)n, st, SHMEM_CMP_EQ, cv);
    F2_(check_all_, NAME, )(arr, n, 1, "wait_until_all_vector");
    CHECK(R(test_any)(arr, (size_t)n, st, SHMEM_CMP_EQ, (T)0) == SIZE_MAX, "test_any after wait_until_all_vector");
    F2_(reset_, NAME, )(arr, n);

    /* wait_until_any in a loop, excluding each element once it was returned: every index exactly once, then
     * SIZE_MAX (the wait set is empty) */
    F2_(write_mine_, NAME, )(arr, me, n);
    for (int i = 0; i < n; ++i) st[i] = 0;
    for (int k = 0; k < n; ++k) {
        size_t i = R(wait_until_any)(arr, (size_t)n, st, SHMEM_CMP_NE, (T)0);
        CHECK(i < (size_t)n && st[i] == 0, "wait_until_any returned %u (call %d)", (unsigned)i, k);
        CHECK(arr[i] == (T)(i + 1), "wait_until_any: element %u", (unsigned)i);
        st[i] = 1;
    }
    CHECK(R(wait_until_any)(arr, (size_t)n, st, SHMEM_CMP_NE, (T)0) == SIZE_MAX, "wait_until_any, all excluded");
    F2_(reset_, NAME, )(arr, n);

    /* wait_until_any_vector: the same, with the expected values per element */
    F2_(write_mine_, NAME, )(arr, me, n);
    for (int i = 0; i < n; ++i) st[i] = 0;
    for (int k = 0; k < n; ++k) {
        size_t i = R(wait_until_any_vector)(arr, (size_t)n, st, SHMEM_CMP_EQ, cv);
        CHECK(i < (size_t)n && st[i] == 0, "wait_until_any_vector returned %u (call %d)", (unsigned)i, k);
        st[i] = 1;
    }
    F2_(reset_, NAME, )(arr, n);

    /* wait_until_some / _vector in a loop: each call returns unique, satisfied, not yet seen indices */
    for (int vec = 0; vec < 2; ++vec) {
        F2_(write_mine_, NAME, )(arr, me, n);
        int seen = 0;
        for (int i = 0; i < n; ++i) st[i] = 0;
        while (seen < n) {
            size_t k = vec ? R(wait_until_some_vector)(arr, (size_t)n, idx, st, SHMEM_CMP_GE, cv)
                           : R(wait_until_some)(arr, (size_t)n, idx, st, SHMEM_CMP_GT, (T)0);
            CHECK(k >= 1 && k <= (size_t)(n - seen), "wait_until_some%s returned %u", vec ? "_vector" : "",
                  (unsigned)k);
            for (size_t j = 0; j < k; ++j) {
                CHECK(idx[j] < (size_t)n && st[idx[j]] == 0, "wait_until_some: index %u", (unsigned)idx[j]);
                CHECK(arr[idx[j]] == (T)(idx[j] + 1), "wait_until_some: element %u", (unsigned)idx[j]);
                st[idx[j]] = 1;
                ++seen;
            }
        }
        CHECK(R(wait_until_some)(arr, (size_t)n, idx, st, SHMEM_CMP_GT, (T)0) == 0, "wait_until_some, all excluded");
        CHECK(R(test_some)(arr, (size_t)n, idx, NULL, SHMEM_CMP_GT, (T)0) == (size_t)n, "test_some after");
        F2_(reset_, NAME, )(arr, n);
    }

    /* a waiter that is asleep before the value comes: PE 0 waits for the last PE's element, which that PE
     * writes only after PE 0 has said (through `go`) that it is about to wait */
    if (n > 1) {
        static long go;
        if (me == 0) {
            CHECK(R(test_any)(arr, (size_t)n, NULL, SHMEM_CMP_NE, (T)0) == SIZE_MAX, "test_any before the put");
            shmem_long_p(&go, 1, n - 1);
            CHECK(R(wait_until_any)(arr, (size_t)n, NULL, SHMEM_CMP_NE, (T)0) == (size_t)(n - 1), "late writer");
        } else if (me == n - 1) {
            shmem_long_wait_until(&go, SHMEM_CMP_EQ, 1);
            go = 0;
            R(p)(&arr[me], (T)(me + 1), 0);
        }
        F2_(reset_, NAME, )(arr, n);
    }

    shmem_free(idx);
    shmem_free(st);
    shmem_free(cv);
    shmem_free(arr);
}

#undef T
#undef R
#undef F_
#undef F2_
