/*
 * test_pool.c — the CPU worker pool: coverage of [0, n) exactly once, sums against the
 * closed form, worker ids, empty ranges, grain > n, nested calls, argument checks.
 * Single test thread driving pools of 1, 2 and 7 threads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/pool.h"
#include "test_rng.h"

#define MAXW 16

typedef struct sum_ctx {
    uint64_t sums[MAXW][8];   /* one cache line per worker: no false sharing */
    uint8_t *marks;
    size_t n;
    unsigned nthreads;
    atomic_uint calls;
    atomic_uint bad;
} sum_ctx;

static void sum_fn(void *vctx, size_t begin, size_t end, unsigned worker_id)
{
    sum_ctx *s = vctx;
    atomic_fetch_add(&s->calls, 1);
    if (worker_id >= s->nthreads || worker_id >= MAXW || begin >= end || end > s->n) {
        atomic_fetch_add(&s->bad, 1);
        return;
    }
    uint64_t acc = 0;
    for (size_t i = begin; i < end; i++) {
        acc += i;
        s->marks[i]++;
    }
    s->sums[worker_id][0] += acc;
}

static void run_sum(cuzk_pool *pool, size_t n, size_t grain)
{
    sum_ctx *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->marks = calloc(n ? n : 1, 1);
    assert_non_null(s->marks);
    s->n = n;
    s->nthreads = cuzk_pool_nthreads(pool);
    assert_int_equal(cuzk_pool_for(pool, n, sum_fn, s, grain), CUZK_OK);
    uint64_t total = 0;
    for (unsigned w = 0; w < MAXW; w++)
        total += s->sums[w][0];
    assert_int_equal(atomic_load(&s->bad), 0);
    /* sum of 0..n-1 */
    assert_true(total == (uint64_t)n * (n ? n - 1 : 0) / 2);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(s->marks[i], 1);
    if (n == 0)
        assert_int_equal(atomic_load(&s->calls), 0);
    if (grain >= n && n > 0)
        assert_int_equal(atomic_load(&s->calls), 1);
    free(s->marks);
    free(s);
}

static void test_sum_threads(void **state)
{
    (void)state;
    const unsigned counts[] = {1, 2, 7};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        cuzk_pool *pool = NULL;
        assert_int_equal(cuzk_pool_create(&pool, counts[c]), CUZK_OK);
        assert_non_null(pool);
        assert_int_equal(cuzk_pool_nthreads(pool), counts[c]);
        run_sum(pool, 1000000, 1);
        run_sum(pool, 1000000, 1000);
        run_sum(pool, 1000003, 7);      /* ragged last chunk */
        run_sum(pool, 0, 1);            /* empty range */
        run_sum(pool, 5, 100);          /* grain > n: one inline call */
        run_sum(pool, 5, 0);            /* grain 0 means 1 */
        run_sum(pool, 1, 1);
        cuzk_pool_destroy(pool);
    }
    run_sum(NULL, 1000000, 1);          /* no pool: inline */
    run_sum(NULL, 0, 1);
}

static void test_random_sizes(void **state)
{
    (void)state;
    cuzk_pool *pool = NULL;
    assert_int_equal(cuzk_pool_create(&pool, 3), CUZK_OK);
    size_t iters = test_iters(300);
    for (size_t it = 0; it < iters; it++) {
        size_t n = (size_t)(test_rng_u64() % 5000);
        size_t grain = (size_t)(test_rng_u64() % 300);
        run_sum(pool, n, grain);
    }
    cuzk_pool_destroy(pool);
}

typedef struct nested_ctx {
    cuzk_pool *pool;
    atomic_ullong total;
    atomic_uint bad;   /* cmocka asserts must stay on the test thread */
} nested_ctx;

static void inner_fn(void *vctx, size_t begin, size_t end, unsigned worker_id)
{
    nested_ctx *s = vctx;
    for (size_t i = begin; i < end; i++)
        atomic_fetch_add(&s->total, 1);
}

static void outer_fn(void *vctx, size_t begin, size_t end, unsigned worker_id)
{
    nested_ctx *s = vctx;
    for (size_t i = begin; i < end; i++)
        /* the pool is busy: this must run inline instead of deadlocking */
        if (cuzk_pool_for(s->pool, 100, inner_fn, s, 1) != CUZK_OK)
            atomic_fetch_add(&s->bad, 1);
}

static void test_nested(void **state)
{
    (void)state;
    nested_ctx s;
    assert_int_equal(cuzk_pool_create(&s.pool, 2), CUZK_OK);
    atomic_init(&s.total, 0);
    atomic_init(&s.bad, 0);
    assert_int_equal(cuzk_pool_for(s.pool, 64, outer_fn, &s, 1), CUZK_OK);
    assert_int_equal(atomic_load(&s.bad), 0);
    assert_true(atomic_load(&s.total) == 6400);
    /* the pool is usable again afterwards, in parallel */
    run_sum(s.pool, 100000, 1);
    cuzk_pool_destroy(s.pool);
}

static void test_args(void **state)
{
    (void)state;
    cuzk_pool *pool = (cuzk_pool *)&pool;
    assert_int_equal(cuzk_pool_create(NULL, 2), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_pool_create(&pool, CUZK_POOL_MAX_THREADS + 1), CUZK_ERR_INVALID_ARG);
    assert_null(pool);
    assert_int_equal(cuzk_pool_create(&pool, 0), CUZK_OK);   /* online CPUs */
    assert_true(cuzk_pool_nthreads(pool) >= 1);
    assert_int_equal(cuzk_pool_for(pool, 10, NULL, NULL, 1), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_pool_for(NULL, 10, NULL, NULL, 1), CUZK_ERR_INVALID_ARG);
    cuzk_pool_destroy(pool);
    cuzk_pool_destroy(NULL);
    assert_int_equal(cuzk_pool_nthreads(NULL), 1);
}

/* Many short calls back to back: exercises the generation hand-off and wake-ups. */
static void test_many_calls(void **state)
{
    (void)state;
    cuzk_pool *pool = NULL;
    assert_int_equal(cuzk_pool_create(&pool, 4), CUZK_OK);
    for (int i = 0; i < 2000; i++)
        run_sum(pool, 64, 1);
    cuzk_pool_destroy(pool);
    /* create/destroy churn */
    for (int i = 0; i < 50; i++) {
        assert_int_equal(cuzk_pool_create(&pool, 3), CUZK_OK);
        cuzk_pool_destroy(pool);
    }
}

int main(void)
{
    test_rng_init("pool");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sum_threads), cmocka_unit_test(test_random_sizes),
        cmocka_unit_test(test_nested),      cmocka_unit_test(test_args),
        cmocka_unit_test(test_many_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
