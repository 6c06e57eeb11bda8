/*
 * test_engine_journal.c — jobs survive a restart: accepted jobs are journaled before
 * submit returns; an engine destroyed with jobs queued resumes them at the next create;
 * finished results are served after a restart until they expire; a damaged record is
 * moved aside without stopping the engine. CPU backend, synthetic 2^8 jobs.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cuzk/engine.h"
#include "cuzk/formats.h"
#include "engine/engine_testing.h"
#include "test_rng.h"

static uint64_t g_seed;
static char g_dir[64];

static void quiet(void *ctx, cuzk_log_level l, const char *m)
{
    (void)ctx;
    if (l <= CUZK_LOG_WARN)
        fprintf(stderr, "  engine: %s\n", m);
}

static cuzk_engine *make(uint64_t result_ttl_s)
{
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = "cpu";
    c.memory_budget = 1ull << 30;
    c.threads = 2;
    c.state_dir = g_dir;
    c.result_ttl_s = result_ttl_s;
    c.log = quiet;
    cuzk_engine *e = NULL;
    assert_int_equal(cuzk_engine_create(&e, &c, NULL), CUZK_OK);
    return e;
}

static void submit(cuzk_engine *e, unsigned parts, const char *rid, char id[CUZK_JOB_ID_SIZE])
{
    cuzk_job_request r = {.kind = CUZK_PROOF_SYNTHETIC, .request_id = rid};
    r.synthetic.log2n = 8;
    r.synthetic.partitions = parts;
    r.synthetic.seed = g_seed;
    cuzk_job_ticket t;
    assert_int_equal(cuzk_engine_submit(e, &r, &t, NULL), CUZK_OK);
    memcpy(id, t.job_id, CUZK_JOB_ID_SIZE);
}

static void test_restart(void **state)
{
    (void)state;
    char a[CUZK_JOB_ID_SIZE], b[CUZK_JOB_ID_SIZE], c[CUZK_JOB_ID_SIZE];
    cuzk_engine *e = make(0);
    submit(e, 1, NULL, c);
    cuzk_job_result res;
    assert_int_equal(cuzk_engine_await(e, c, 0, &res, NULL), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    uint8_t proof_c[192];
    memcpy(proof_c, res.proof, 192);
    cuzk_job_result_free(&res);
    /* queued jobs, never started, then the engine goes away */
    cuzk_engine_pause(e, true);
    submit(e, 2, "req-a", a);
    submit(e, 1, NULL, b);
    cuzk_engine_destroy(e);

    /* a damaged record next to them is set aside */
    char bad[128];
    snprintf(bad, sizeof bad, "%s/00000000-0000-4000-8000-000000000000.req", g_dir);
    assert_int_equal(cuzk_file_write(bad, "garbage", 7, NULL), CUZK_OK);

    e = make(0);
    assert_int_equal(cuzk_engine_await(e, a, 0, &res, NULL), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    assert_int_equal(res.proof_len, 2 * 192);
    cuzk_job_result_free(&res);
    assert_int_equal(cuzk_engine_await(e, b, 0, &res, NULL), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    /* the finished result from before the restart is still served, proof and all */
    assert_int_equal(cuzk_engine_job_info(e, c, &res, NULL), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    assert_memory_equal(res.proof, proof_c, 192);
    cuzk_job_result_free(&res);
    /* request ids survive too */
    cuzk_job_request r = {.kind = CUZK_PROOF_SYNTHETIC, .request_id = "req-a"};
    r.synthetic.log2n = 8;
    r.synthetic.partitions = 2;
    cuzk_job_ticket t;
    r.synthetic.seed = g_seed;
    assert_int_equal(cuzk_engine_submit(e, &r, &t, NULL), CUZK_OK);
    assert_true(t.duplicate);
    assert_string_equal(t.job_id, a);
    /* ... and so do the inputs they were for: another request is another job */
    r.synthetic.partitions = 1;
    assert_int_equal(cuzk_engine_submit(e, &r, &t, NULL), CUZK_OK);
    assert_false(t.duplicate);
    assert_string_not_equal(t.job_id, a);
    assert_int_equal(cuzk_engine_await(e, t.job_id, 0, &res, NULL), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(e);
    char moved[160];
    snprintf(moved, sizeof moved, "%s.bad", bad);
    assert_int_equal(access(moved, F_OK), 0);
    unlink(moved);
}

static void test_expiry(void **state)
{
    (void)state;
    cuzk_engine *e = make(1);
    char a[CUZK_JOB_ID_SIZE];
    submit(e, 1, NULL, a);
    cuzk_job_result res;
    assert_int_equal(cuzk_engine_await(e, a, 0, &res, NULL), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    /* result_ttl 1 s; the reaper runs every second */
    for (int i = 0; i < 50 && cuzk_engine_job_info(e, a, &res, NULL) == CUZK_OK; i++) {
        cuzk_job_result_free(&res);
        usleep(100000);
    }
    assert_int_equal(cuzk_engine_job_info(e, a, &res, NULL), CUZK_ERR_NOT_FOUND);
    cuzk_engine_destroy(e);
    /* and its files are gone: a restart does not bring it back */
    e = make(1);
    assert_int_equal(cuzk_engine_job_info(e, a, &res, NULL), CUZK_ERR_NOT_FOUND);
    cuzk_engine_destroy(e);
}

int main(void)
{
    g_seed = test_rng_init("test_engine_journal") % 1000;
    snprintf(g_dir, sizeof g_dir, "/tmp/cuzk_journal_XXXXXX");
    if (!mkdtemp(g_dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_restart),
        cmocka_unit_test(test_expiry),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    if (system(cmd) != 0)
        return 1;
    return rc;
}
