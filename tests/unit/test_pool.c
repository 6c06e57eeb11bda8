/*
 * test_pool.c — the CPU worker pool: coverage of [0, n) exactly once, sums against the
 * closed form, worker ids, empty ranges, grain > n, nested calls, argument checks, and
 * one pool shared by several concurrent callers (each call covered exactly once, ids
 * unique within a call, every caller helped by workers, nested calls under contention).
 * Mostly one test thread driving pools of 1, 2 and 7 threads; the sharing tests start
 * 2-4 caller threads of their own (cmocka asserts stay on the main thread); the scope:
 * a job of higher priority gets the workers after one chunk each (counted in tickets, not
 * time), and a stoppable call stops at its next chunk when its flag rises.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* ---- one pool, several concurrent callers ------------------------------------------- */

#define SHARE_MAX_CALLERS 4
#define SHARE_N 96

typedef struct share_call {
    struct share_shared *sh;
    atomic_uchar marks[SHARE_N];
    atomic_uint in_use[MAXW];   /* threads currently running this call with that id */
    atomic_uint helped;         /* chunks run by worker ids != 0 */
    atomic_uint bad;
    atomic_bool caller_in;      /* the caller itself has entered fn */
} share_call;

typedef struct share_shared {
    unsigned ncallers, nthreads;
    atomic_uint callers_in;     /* callers whose own fn has started */
    share_call calls[SHARE_MAX_CALLERS];
    cuzk_pool *pool;
    pthread_barrier_t start;
} share_shared;

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

static void share_fn(void *vctx, size_t begin, size_t end, unsigned worker_id)
{
    share_call *c = vctx;
    share_shared *sh = c->sh;
    if (worker_id >= sh->nthreads || worker_id >= MAXW || begin >= end || end > SHARE_N) {
        atomic_fetch_add(&c->bad, 1);
        return;
    }
    if (atomic_fetch_add(&c->in_use[worker_id], 1) != 0)
        atomic_fetch_add(&c->bad, 1);   /* two threads with one id inside one call */
    if (worker_id == 0 && !atomic_exchange(&c->caller_in, true))
        atomic_fetch_add(&sh->callers_in, 1);
    else if (worker_id != 0)
        atomic_fetch_add(&c->helped, 1);
    /* Hold every chunk until all callers are inside the pool, so the calls overlap and
     * the workers must be shared (bounded: a broken pool fails the help check instead). */
    for (int spin = 0; spin < 20000 && atomic_load(&sh->callers_in) < sh->ncallers; spin++)
        sleep_us(100);
    sleep_us(300);
    for (size_t i = begin; i < end; i++)
        atomic_fetch_add(&c->marks[i], 1);
    atomic_fetch_sub(&c->in_use[worker_id], 1);
}

static void *share_caller(void *arg)
{
    share_call *c = arg;
    pthread_barrier_wait(&c->sh->start);
    if (cuzk_pool_for(c->sh->pool, SHARE_N, share_fn, c, 1) != CUZK_OK)
        atomic_fetch_add(&c->bad, 1);
    return NULL;
}

static void run_shared(unsigned nthreads, unsigned ncallers)
{
    share_shared *sh = calloc(1, sizeof *sh);
    assert_non_null(sh);
    sh->ncallers = ncallers;
    sh->nthreads = nthreads;
    assert_int_equal(cuzk_pool_create(&sh->pool, nthreads), CUZK_OK);
    assert_int_equal(pthread_barrier_init(&sh->start, NULL, ncallers), 0);
    pthread_t th[SHARE_MAX_CALLERS];
    for (unsigned k = 0; k < ncallers; k++) {
        sh->calls[k].sh = sh;
        assert_int_equal(pthread_create(&th[k], NULL, share_caller, &sh->calls[k]), 0);
    }
    for (unsigned k = 0; k < ncallers; k++)
        assert_int_equal(pthread_join(th[k], NULL), 0);
    for (unsigned k = 0; k < ncallers; k++) {
        share_call *c = &sh->calls[k];
        print_message("pool %u threads, caller %u/%u: %u chunks run by workers\n", nthreads,
                      k, ncallers, atomic_load(&c->helped));
        assert_int_equal(atomic_load(&c->bad), 0);
        for (size_t i = 0; i < SHARE_N; i++)
            assert_int_equal(atomic_load(&c->marks[i]), 1);
        assert_true(atomic_load(&c->helped) > 0); /* every caller got help */
    }
    pthread_barrier_destroy(&sh->start);
    cuzk_pool_destroy(sh->pool);
    free(sh);
}

static void test_shared_callers(void **state)
{
    (void)state;
    run_shared(5, 2);
    run_shared(5, 3);
    run_shared(7, 4);
}

/* Several threads each run outer loops whose bodies make nested calls on the same pool. */
typedef struct nest_share {
    cuzk_pool *pool;
    atomic_ullong total;
    atomic_uint bad;
} nest_share;

static void *nest_caller(void *arg)
{
    nest_share *s = arg;
    nested_ctx n;
    n.pool = s->pool;
    atomic_init(&n.total, 0);
    atomic_init(&n.bad, 0);
    for (int rep = 0; rep < 20; rep++)
        if (cuzk_pool_for(s->pool, 32, outer_fn, &n, 1) != CUZK_OK)
            atomic_fetch_add(&s->bad, 1);
    atomic_fetch_add(&s->total, atomic_load(&n.total));
    atomic_fetch_add(&s->bad, atomic_load(&n.bad));
    return NULL;
}

static void test_shared_nested(void **state)
{
    (void)state;
    nest_share s;
    assert_int_equal(cuzk_pool_create(&s.pool, 4), CUZK_OK);
    atomic_init(&s.total, 0);
    atomic_init(&s.bad, 0);
    pthread_t th[3];
    for (int k = 0; k < 3; k++)
        assert_int_equal(pthread_create(&th[k], NULL, nest_caller, &s), 0);
    for (int k = 0; k < 3; k++)
        assert_int_equal(pthread_join(th[k], NULL), 0);
    assert_int_equal(atomic_load(&s.bad), 0);
    assert_true(atomic_load(&s.total) == 3ull * 20 * 32 * 100);
    cuzk_pool_destroy(s.pool);
}

/* ---- scope: priority ------------------------------------------------------------------- */

/* A LOW caller keeps the pool busy with job after job; a HIGH caller (scope priority 1)
 * arrives. Every chunk start takes a ticket; between the first and the last start of a
 * HIGH chunk, a worker thread (id != 0) may start at most one LOW chunk (the one it
 * claimed before it saw the HIGH job): with the fair share of the workers (no priority)
 * it would start dozens. Tickets, not clocks: the bound holds on a loaded machine. */
typedef struct prio_run {
    cuzk_pool *pool;
    atomic_uint ticket;
    atomic_int stop_low;
    atomic_uint low_chunks;
    unsigned low_worker_ticket[4096];
    atomic_uint n_low_worker;
    unsigned high_first, high_last;
    atomic_uint high_seen;
    atomic_int bad_scope;
} prio_run;

static void low_fn(void *vctx, size_t begin, size_t end, unsigned worker_id)
{
    prio_run *r = vctx;
    (void)begin;
    (void)end;
    unsigned t = atomic_fetch_add(&r->ticket, 1);
    atomic_fetch_add(&r->low_chunks, 1);
    if (cuzk_pool_scope_get().priority != 0)
        atomic_store(&r->bad_scope, 1);
    if (worker_id != 0) {
        unsigned k = atomic_fetch_add(&r->n_low_worker, 1);
        if (k < 4096)
            r->low_worker_ticket[k] = t;
    }
    sleep_us(2000);
}

static void high_fn(void *vctx, size_t begin, size_t end, unsigned worker_id)
{
    prio_run *r = vctx;
    (void)begin;
    (void)end;
    (void)worker_id;
    unsigned t = atomic_fetch_add(&r->ticket, 1);
    if (atomic_fetch_add(&r->high_seen, 1) == 0)
        r->high_first = t;
    r->high_last = t; /* the last start wins; read after the call returns */
    if (cuzk_pool_scope_get().priority != 1)
        atomic_store(&r->bad_scope, 1);
    sleep_us(5000);
}

static void *low_caller(void *arg)
{
    prio_run *r = arg;
    while (!atomic_load(&r->stop_low))
        cuzk_pool_for(r->pool, 32, low_fn, r, 1);
    return NULL;
}

static void test_priority(void **state)
{
    (void)state;
    prio_run *r = calloc(1, sizeof *r);
    assert_non_null(r);
    assert_int_equal(cuzk_pool_create(&r->pool, 4), CUZK_OK);
    pthread_t low;
    assert_int_equal(pthread_create(&low, NULL, low_caller, r), 0);
    while (atomic_load(&r->low_chunks) < 40) /* the workers are on LOW jobs */
        sleep_us(1000);
    cuzk_pool_scope prev = cuzk_pool_scope_enter((cuzk_pool_scope){.priority = 1});
    assert_int_equal(cuzk_pool_for(r->pool, 32, high_fn, r, 1), CUZK_OK);
    cuzk_pool_scope_enter(prev);
    atomic_store(&r->stop_low, 1);
    assert_int_equal(pthread_join(low, NULL), 0);

    assert_int_equal(atomic_load(&r->high_seen), 32);
    unsigned in_window = 0, n = atomic_load(&r->n_low_worker);
    for (unsigned k = 0; k < n && k < 4096; k++)
        if (r->low_worker_ticket[k] > r->high_first && r->low_worker_ticket[k] < r->high_last)
            in_window++;
    /* 3 workers: at most one LOW chunk each, claimed before they saw the HIGH job */
    assert_true(in_window <= 3);
    assert_int_equal(atomic_load(&r->bad_scope), 0);
    cuzk_pool_destroy(r->pool);
    free(r);
}

/* ---- scope: stopping ------------------------------------------------------------------- */

typedef struct stop_run {
    volatile int flag;
    int raise_at; /* the item whose chunk raises the flag (-1: none) */
    atomic_uint ran;
    atomic_uint ran_item[64];
    atomic_int bad_scope;
    cuzk_pool *pool;
} stop_run;

static void stop_fn(void *vctx, size_t begin, size_t end, unsigned worker_id)
{
    stop_run *r = vctx;
    (void)worker_id;
    if (cuzk_pool_scope_get().cancel != &r->flag)
        atomic_store(&r->bad_scope, 1);
    for (size_t i = begin; i < end; i++) {
        atomic_fetch_add(&r->ran, 1);
        atomic_store(&r->ran_item[i], 1);
        if ((int)i == r->raise_at)
            r->flag = 1;
    }
    sleep_us(1000);
}

static void stop_reset(stop_run *r, int raise_at, int flag)
{
    r->flag = flag;
    r->raise_at = raise_at;
    atomic_store(&r->ran, 0);
    for (int i = 0; i < 64; i++)
        atomic_store(&r->ran_item[i], 0);
}

static void test_stoppable(void **state)
{
    (void)state;
    stop_run *r = calloc(1, sizeof *r);
    assert_non_null(r);
    assert_int_equal(cuzk_pool_create(&r->pool, 4), CUZK_OK);
    cuzk_pool_scope prev = cuzk_pool_scope_enter((cuzk_pool_scope){.cancel = &r->flag});

    /* the flag rises at item 5 of 32 one-item chunks: the rest never start */
    stop_reset(r, 5, 0);
    assert_int_equal(cuzk_pool_for_stoppable(r->pool, 32, stop_fn, r, 1), CUZK_ERR_CANCELLED);
    assert_int_equal(atomic_load(&r->ran_item[5]), 1);
    /* items are claimed in order: past 5, only the 3 other participants' claims in flight */
    assert_true(atomic_load(&r->ran) <= 6 + 3);
    assert_int_equal(atomic_load(&r->ran_item[31]), 0);

    /* already raised: nothing runs; cuzk_pool_for under the same scope runs it all */
    stop_reset(r, -1, 1);
    assert_int_equal(cuzk_pool_for_stoppable(r->pool, 32, stop_fn, r, 1), CUZK_ERR_CANCELLED);
    assert_int_equal(atomic_load(&r->ran), 0);
    assert_int_equal(cuzk_pool_for(r->pool, 32, stop_fn, r, 1), CUZK_OK);
    assert_int_equal(atomic_load(&r->ran), 32);

    /* raised by the last item: every chunk ran, so the call succeeded */
    stop_reset(r, 31, 0);
    assert_int_equal(cuzk_pool_for_stoppable(r->pool, 32, stop_fn, r, 1), CUZK_OK);
    assert_int_equal(atomic_load(&r->ran), 32);

    /* inline (one chunk, no pool): checked before it starts */
    stop_reset(r, -1, 1);
    assert_int_equal(cuzk_pool_for_stoppable(NULL, 8, stop_fn, r, 1), CUZK_ERR_CANCELLED);
    assert_int_equal(cuzk_pool_for_stoppable(r->pool, 8, stop_fn, r, 8), CUZK_ERR_CANCELLED);
    assert_int_equal(atomic_load(&r->ran), 0);
    stop_reset(r, -1, 0);
    assert_int_equal(cuzk_pool_for_stoppable(NULL, 8, stop_fn, r, 1), CUZK_OK);
    assert_int_equal(atomic_load(&r->ran), 8);

    assert_int_equal(atomic_load(&r->bad_scope), 0); /* workers ran under the job's scope */
    cuzk_pool_scope back = cuzk_pool_scope_enter(prev);
    assert_ptr_equal(back.cancel, &r->flag);
    assert_null(cuzk_pool_scope_get().cancel);
    cuzk_pool_destroy(r->pool);
    free(r);
}

int main(void)
{
    test_rng_init("pool");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sum_threads), cmocka_unit_test(test_random_sizes),
        cmocka_unit_test(test_nested),      cmocka_unit_test(test_args),
        cmocka_unit_test(test_many_calls), cmocka_unit_test(test_shared_callers),
        cmocka_unit_test(test_shared_nested), cmocka_unit_test(test_priority),
        cmocka_unit_test(test_stoppable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
