/*
 * test_prio_gate.c — the prover's device gate (src/prover/prio_gate.h): waiters lined up
 * behind a holder enter by priority, FIFO within one priority; a prepared LOW start that
 * waits for the device yields to a CRITICAL one that came after it. The order is made
 * deterministic by lining every waiter up (prio_gate_waiting) before the holder releases;
 * each thread records its turn while it holds the gate. No timing.
 */
#define _DEFAULT_SOURCE /* usleep */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <pthread.h>

#include "prover/prio_gate.h"

typedef struct turn_log {
    pthread_mutex_t mu;
    int order[16];
    int n;
} turn_log;

typedef struct waiter {
    prio_gate *g;
    turn_log *log;
    int priority, tag;
    pthread_t th;
} waiter;

static void *waiter_main(void *arg)
{
    waiter *w = arg;
    prio_gate_acquire(w->g, w->priority);
    pthread_mutex_lock(&w->log->mu);
    w->log->order[w->log->n++] = w->tag;
    pthread_mutex_unlock(&w->log->mu);
    prio_gate_release(w->g);
    return NULL;
}

/* Starts a waiter and returns once it waits on the gate (the holder keeps it closed). */
static void line_up(waiter *w, unsigned expect_waiting)
{
    assert_int_equal(pthread_create(&w->th, NULL, waiter_main, w), 0);
    while (prio_gate_waiting(w->g) < expect_waiting)
        usleep(100);
}

/* Arrival order LOW, NORMAL a, CRITICAL, NORMAL b, HIGH, LOW 2: entry order CRITICAL,
 * HIGH, NORMAL a, NORMAL b, LOW, LOW 2. */
static void test_priority_then_fifo(void **state)
{
    (void)state;
    prio_gate g;
    prio_gate_init(&g);
    turn_log log = {.mu = PTHREAD_MUTEX_INITIALIZER};
    static const int prio[] = {1, 2, 4, 2, 3, 1};
    static const int expect[] = {2, 4, 1, 3, 0, 5};
    waiter w[6];
    prio_gate_acquire(&g, 0); /* the partition on the device now */
    for (int i = 0; i < 6; i++) {
        w[i] = (waiter){.g = &g, .log = &log, .priority = prio[i], .tag = i};
        line_up(&w[i], (unsigned)i + 1);
    }
    prio_gate_release(&g);
    for (int i = 0; i < 6; i++)
        pthread_join(w[i].th, NULL);
    assert_int_equal(log.n, 6);
    for (int i = 0; i < 6; i++)
        assert_int_equal(log.order[i], expect[i]);
    assert_int_equal(prio_gate_waiting(&g), 0);
    prio_gate_destroy(&g);
}

/* The engine's case: two device workers, one running a LOW partition, the other holding a
 * prepared LOW partition at the gate; the CRITICAL partition arrives at the gate last and
 * enters first, then the prepared LOW one. Repeated, so a gate that let the first arrival
 * in could not pass by luck. */
static void test_prepared_low_yields(void **state)
{
    (void)state;
    for (int round = 0; round < 20; round++) {
        prio_gate g;
        prio_gate_init(&g);
        turn_log log = {.mu = PTHREAD_MUTEX_INITIALIZER};
        prio_gate_acquire(&g, 1); /* LOW partition A on the device */
        waiter low = {.g = &g, .log = &log, .priority = 1, .tag = 0};
        waiter crit = {.g = &g, .log = &log, .priority = 4, .tag = 1};
        line_up(&low, 1);  /* LOW partition B, prepared */
        line_up(&crit, 2); /* the CRITICAL partition */
        prio_gate_release(&g);
        pthread_join(low.th, NULL);
        pthread_join(crit.th, NULL);
        assert_int_equal(log.n, 2);
        assert_int_equal(log.order[0], 1);
        assert_int_equal(log.order[1], 0);
        prio_gate_destroy(&g);
    }
}

/* Uncontended: acquire and release in a loop from two threads of one priority never
 * deadlock and never let two in at once. */
typedef struct excl {
    prio_gate *g;
    int inside, max_inside, rounds;
    pthread_mutex_t mu;
} excl;

static void *excl_main(void *arg)
{
    excl *x = arg;
    for (int i = 0; i < x->rounds; i++) {
        prio_gate_acquire(x->g, i % 5);
        pthread_mutex_lock(&x->mu);
        if (++x->inside > x->max_inside)
            x->max_inside = x->inside;
        pthread_mutex_unlock(&x->mu);
        pthread_mutex_lock(&x->mu);
        x->inside--;
        pthread_mutex_unlock(&x->mu);
        prio_gate_release(x->g);
    }
    return NULL;
}

static void test_exclusion(void **state)
{
    (void)state;
    prio_gate g;
    prio_gate_init(&g);
    excl x = {.g = &g, .rounds = 2000, .mu = PTHREAD_MUTEX_INITIALIZER};
    pthread_t th[3];
    for (int i = 0; i < 3; i++)
        assert_int_equal(pthread_create(&th[i], NULL, excl_main, &x), 0);
    for (int i = 0; i < 3; i++)
        pthread_join(th[i], NULL);
    assert_int_equal(x.max_inside, 1);
    assert_int_equal(x.inside, 0);
    prio_gate_destroy(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_priority_then_fifo),
        cmocka_unit_test(test_prepared_low_yields),
        cmocka_unit_test(test_exclusion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
