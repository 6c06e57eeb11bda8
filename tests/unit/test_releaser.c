/*
 * test_releaser.c — the engine's background releaser (src/engine/releaser.h): callbacks
 * run in submission order on its thread, the item and byte bounds refuse submissions
 * (the caller then frees inline) and count them, one oversized item is accepted when
 * nothing waits, drain waits for everything queued, stop runs what is still queued.
 * Randomised: the number of items and their sizes come from the test RNG (printed).
 */
#define _DEFAULT_SOURCE /* usleep */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>
#include <pthread.h>

#include "engine/releaser.h"
#include "test_rng.h"

typedef struct log_t {
    pthread_mutex_t mu;
    int order[64];
    int n;
    pthread_mutex_t gate; /* held by the test: the first callback blocks on it */
} log_t;

typedef struct item {
    log_t *log;
    int id;
    bool block;
} item;

static void run_item(void *arg)
{
    item *it = arg;
    if (it->block) {
        pthread_mutex_lock(&it->log->gate);
        pthread_mutex_unlock(&it->log->gate);
    }
    pthread_mutex_lock(&it->log->mu);
    it->log->order[it->log->n++] = it->id;
    pthread_mutex_unlock(&it->log->mu);
}

static void test_order_and_bounds(void **state)
{
    (void)state;
    log_t L = {.n = 0};
    pthread_mutex_init(&L.mu, NULL);
    pthread_mutex_init(&L.gate, NULL);
    unsigned max_items = 2 + (unsigned)(test_rng_u64() % 6);
    ereleaser *r = NULL;
    assert_int_equal(ereleaser_start(&r, max_items, 1000, NULL), CUZK_OK);

    item its[16];
    /* one item is accepted alone whatever its size */
    its[15] = (item){&L, -1, false};
    assert_true(ereleaser_submit(r, run_item, &its[15], 5000));
    ereleaser_drain(r);
    assert_int_equal(L.n, 1);
    L.n = 0;
    /* the first item blocks the thread; while it runs (it counts as waiting until it has
     * run), max_items - 1 more fit */
    pthread_mutex_lock(&L.gate);
    its[0] = (item){&L, 0, true};
    assert_true(ereleaser_submit(r, run_item, &its[0], 10));
    unsigned accepted = 1;
    for (unsigned i = 1; i < 12; i++) {
        its[i] = (item){&L, (int)i, false};
        if (ereleaser_submit(r, run_item, &its[i], 10))
            accepted++;
    }
    assert_int_equal(accepted, max_items);
    ereleaser_stats s = ereleaser_get_stats(r);
    assert_int_equal(s.refused, 12 - max_items);
    assert_int_equal(s.max_depth, max_items);
    pthread_mutex_unlock(&L.gate);
    ereleaser_drain(r);
    assert_int_equal(L.n, (int)max_items);
    for (int i = 0; i < L.n; i++)
        assert_int_equal(L.order[i], i); /* in submission order */
    pthread_mutex_lock(&L.gate);
    its[12] = (item){&L, 12, true};
    its[13] = (item){&L, 13, false};
    assert_true(ereleaser_submit(r, run_item, &its[12], 600));
    /* the byte bound: with something waiting, an item that would pass 1000 bytes is out */
    assert_false(ereleaser_submit(r, run_item, &its[13], 600));
    assert_true(ereleaser_submit(r, run_item, &its[13], 400));
    pthread_mutex_unlock(&L.gate);
    ereleaser_drain(r);
    s = ereleaser_get_stats(r);
    assert_int_equal(s.pending, 0);
    assert_int_equal(s.bytes_pending, 0);
    assert_int_equal(s.done, 1 + max_items + 2);
    assert_int_equal(s.bytes_done, 5000 + 10ull * max_items + 600 + 400);
    ereleaser_stop(r);
    pthread_mutex_destroy(&L.gate);
    pthread_mutex_destroy(&L.mu);
}

static void test_stop_runs_queued(void **state)
{
    (void)state;
    log_t L = {.n = 0};
    pthread_mutex_init(&L.mu, NULL);
    pthread_mutex_init(&L.gate, NULL);
    ereleaser *r = NULL;
    assert_int_equal(ereleaser_start(&r, 64, UINT64_MAX, NULL), CUZK_OK);
    int n = 5 + (int)(test_rng_u64() % 40);
    item its[64];
    pthread_mutex_lock(&L.gate);
    for (int i = 0; i < n; i++) {
        its[i] = (item){&L, i, i == 0};
        assert_true(ereleaser_submit(r, run_item, &its[i], 1));
    }
    pthread_mutex_unlock(&L.gate);
    ereleaser_stop(r); /* must not drop the queued ones */
    assert_int_equal(L.n, n);
    for (int i = 0; i < n; i++)
        assert_int_equal(L.order[i], i);
    assert_false(ereleaser_submit(NULL, run_item, &its[0], 1));
    ereleaser_stop(NULL);
    pthread_mutex_destroy(&L.gate);
    pthread_mutex_destroy(&L.mu);
}

int main(void)
{
    test_rng_init("test_releaser");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_bounds),
        cmocka_unit_test(test_stop_runs_queued),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
