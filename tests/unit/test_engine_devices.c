/*
 * test_engine_devices.c — a device that is lost for good is taken out of rotation: the
 * engine (CPU "devices", synthetic 2^8 jobs) runs with CUZK_PROVER_FAULT=lost set before
 * any prover opens, so the first start on some device fails and takes that prover out of
 * service, as a GPU that falls off the bus would.
 *   default   one device of two is lost: every job still completes with verified proofs,
 *             on the other device; status and metrics show the lost device out of service
 *             with its reason; no partition counts the loss as its own failed attempt.
 *   --all     every device is lost (lost:all): the jobs fail with CUZK_ERR_UNAVAILABLE
 *             "no device is in service" instead of waiting forever; the engine still
 *             answers status and shuts down cleanly.
 * The synthetic seed comes from the test RNG (printed).
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/engine.h"
#include "cuzk/formats.h"
#include "test_rng.h"

static uint64_t g_seed;
static bool g_all;

static void quiet(void *ctx, cuzk_log_level l, const char *m)
{
    (void)ctx;
    if (l <= CUZK_LOG_WARN)
        fprintf(stderr, "  engine: %s\n", m);
}

static cuzk_engine *make(void)
{
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = "cpu,cpu";
    c.memory_budget = 1ull << 30;
    c.threads = 2;
    c.synthesis_workers = 2;
    c.workers_per_device = 1;
    c.finalizers = 1;
    c.log = quiet;
    cuzk_engine *e = NULL;
    cuzk_error err = {0};
    cuzk_status st = cuzk_engine_create(&e, &c, &err);
    if (st != CUZK_OK)
        fprintf(stderr, "create: %s\n", err.msg);
    assert_int_equal(st, CUZK_OK);
    return e;
}

static void test_lost_device(void **state)
{
    (void)state;
    cuzk_engine *e = make();
    enum { J = 4 };
    char ids[J][CUZK_JOB_ID_SIZE];
    for (int i = 0; i < J; i++) {
        cuzk_job_request r = {0};
        r.kind = CUZK_PROOF_SYNTHETIC;
        r.synthetic.log2n = 8;
        r.synthetic.partitions = 2;
        r.synthetic.seed = g_seed;
        cuzk_job_ticket t;
        cuzk_error err = {0};
        assert_int_equal(cuzk_engine_submit(e, &r, &t, &err), CUZK_OK);
        memcpy(ids[i], t.job_id, CUZK_JOB_ID_SIZE);
    }
    for (int i = 0; i < J; i++) {
        cuzk_job_result res;
        cuzk_error err = {0};
        assert_int_equal(cuzk_engine_await(e, ids[i], 0, &res, &err), CUZK_OK);
        if (g_all) {
            assert_int_equal(res.state, CUZK_JOB_FAILED);
            assert_int_equal(res.error_code, CUZK_ERR_UNAVAILABLE);
            assert_non_null(strstr(res.error, "no device is in service"));
        } else {
            if (res.state != CUZK_JOB_COMPLETED)
                fprintf(stderr, "job %d: %s\n", i, res.error);
            assert_int_equal(res.state, CUZK_JOB_COMPLETED);
            cuzk_groth16_proof pr[2];
            assert_int_equal(res.proof_len, 2 * CUZK_GROTH16_PROOF_BYTES);
            assert_int_equal(
                cuzk_groth16_proofs_from_bellperson(pr, 2, res.proof, res.proof_len, NULL),
                CUZK_OK);
        }
        cuzk_job_result_free(&res);
    }
    cuzk_engine_status s;
    assert_int_equal(cuzk_engine_get_status(e, &s, NULL), CUZK_OK);
    assert_int_equal(s.n_devices, 2);
    unsigned out = 0;
    for (size_t d = 0; d < s.n_devices; d++)
        if (!s.devices[d].in_service) {
            out++;
            assert_non_null(strstr(s.devices[d].out_reason, "lost"));
        } else {
            assert_string_equal(s.devices[d].out_reason, "");
            assert_int_equal(s.devices[d].partitions_done, 2 * J);
        }
    assert_int_equal(out, g_all ? 2 : 1);
    if (!g_all) /* the lost device's failed start was not a retry of the partition */
        assert_int_equal(s.jobs_failed, 0);
    cuzk_engine_status_free(&s);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(cuzk_engine_metrics_text(e, &text, &len, NULL), CUZK_OK);
    assert_non_null(strstr(text, "cuzk_device_in_service{device=\"0\"}"));
    assert_non_null(strstr(text, "} 0\n"));
    free(text);
    cuzk_engine_destroy(e);
}

int main(int argc, char **argv)
{
    g_all = argc > 1 && strcmp(argv[1], "--all") == 0;
    /* before any prover opens: the hook reads the variable once per process */
    setenv("CUZK_PROVER_FAULT", g_all ? "lost:all" : "lost", 1);
    g_seed = test_rng_init(g_all ? "test_engine_devices --all" : "test_engine_devices") % 1000;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lost_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
