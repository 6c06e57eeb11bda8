/*
 * test_engine_evict.c — an evicted key's memory against the budget it gave back, on
 * synthetic keys and a CPU device:
 *   load_after_bury  an eviction returns the key's budget at once, its memory only when
 *                 the graveyard frees the key (off the engine lock): a load that evicted
 *                 another key to make room does not start until that key is freed. With
 *                 the graveyard held (the test hook standing for a slow unpin of a big
 *                 key) the new key stays unloaded while the old one is already evicted;
 *                 released, the new key loads.
 * Threading: one preload on a thread of the test's, the engine's threads.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <pthread.h>

#include "cuzk/engine.h"
#include "engine/engine_testing.h"
#include "test_rng.h"

static void quiet(void *ctx, cuzk_log_level l, const char *m)
{
    (void)ctx;
    if (l <= CUZK_LOG_WARN)
        fprintf(stderr, "  engine: %s\n", m);
}

static cuzk_engine *make(uint64_t budget)
{
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = "cpu";
    c.memory_budget = budget;
    c.threads = 2;
    c.eviction_min_idle_s = 0; /* an idle key may go at once */
    c.log = quiet;
    cuzk_engine *e = NULL;
    cuzk_error err = {0};
    if (cuzk_engine_create(&e, &c, &err) != CUZK_OK)
        fail_msg("create: %s", err.msg);
    return e;
}

/* id's tier and charged bytes now (COLD, 0 when the table has no entry). */
static cuzk_srs_tier tier_of(cuzk_engine *e, const char *id, uint64_t *bytes)
{
    cuzk_engine_status s;
    assert_int_equal(cuzk_engine_get_status(e, &s, NULL), CUZK_OK);
    cuzk_srs_tier t = CUZK_SRS_COLD;
    if (bytes)
        *bytes = 0;
    for (size_t i = 0; i < s.n_srs; i++)
        if (strcmp(s.srs[i].circuit_id, id) == 0) {
            t = s.srs[i].tier;
            if (bytes)
                *bytes = s.srs[i].size_bytes;
        }
    cuzk_engine_status_free(&s);
    return t;
}

typedef struct preload_arg {
    cuzk_engine *e;
    const char *id;
    cuzk_status st;
    char msg[CUZK_ERROR_MSG_MAX];
} preload_arg;

static void *preload_main(void *p)
{
    preload_arg *a = p;
    cuzk_error err = {0};
    a->st = cuzk_engine_preload(a->e, a->id, NULL, NULL, &err);
    snprintf(a->msg, sizeof a->msg, "%s", err.msg);
    return NULL;
}

static void test_load_after_bury(void **state)
{
    (void)state;
    const char *small = "synthetic-8", *big = "synthetic-9";
    /* the two keys' charges, from an engine that holds both; evicted, each is charged
     * that again at its next load */
    cuzk_engine *e = make(1ull << 30);
    uint64_t b8, b9;
    assert_int_equal(cuzk_engine_preload(e, small, NULL, NULL, NULL), CUZK_OK);
    assert_int_equal(cuzk_engine_preload(e, big, NULL, NULL, NULL), CUZK_OK);
    assert_int_equal(tier_of(e, small, &b8), CUZK_SRS_HOT);
    assert_int_equal(tier_of(e, big, &b9), CUZK_SRS_HOT);
    assert_true(b8 > 0 && b9 > 0);
    assert_int_equal(cuzk_engine_evict(e, small, NULL, NULL, NULL), CUZK_OK);
    assert_int_equal(cuzk_engine_evict(e, big, NULL, NULL, NULL), CUZK_OK);

    /* a budget that holds either key, not both */
    cuzk_engine_set_budget(e, b8 + b9 - 1);
    cuzk_error err = {0};
    if (cuzk_engine_preload(e, small, NULL, NULL, &err) != CUZK_OK)
        fail_msg("preload %s: %s", small, err.msg);
    assert_int_equal(tier_of(e, small, NULL), CUZK_SRS_HOT);
    cuzk_engine_hold_bury(e, true);
    preload_arg a = {.e = e, .id = big, .st = CUZK_ERR_INTERNAL};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, preload_main, &a), 0);
    /* the small key is evicted for the big one's budget ... */
    int i;
    for (i = 0; i < 1000 && tier_of(e, small, NULL) == CUZK_SRS_HOT; i++)
        usleep(10000);
    assert_int_not_equal(tier_of(e, small, NULL), CUZK_SRS_HOT);
    /* ... and the big one is not loaded while the small one's memory is not freed (a
     * synthetic-9 key loads in milliseconds: a second is ample to see it if it did) */
    for (i = 0; i < 100; i++) {
        if (tier_of(e, big, NULL) == CUZK_SRS_HOT)
            fail_msg("%s loaded while the key evicted for it was not freed", big);
        usleep(10000);
    }
    cuzk_engine_hold_bury(e, false);
    assert_int_equal(pthread_join(t, NULL), 0);
    if (a.st != CUZK_OK)
        fail_msg("preload %s: %s", big, a.msg);
    assert_int_equal(tier_of(e, big, NULL), CUZK_SRS_HOT);
    assert_int_not_equal(tier_of(e, small, NULL), CUZK_SRS_HOT);
    assert_int_equal(cuzk_engine_prover_held(e), 0);
    cuzk_engine_destroy(e);
}

int main(void)
{
    test_rng_init("test_engine_evict");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_after_bury),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
