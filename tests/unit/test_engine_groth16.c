/*
 * test_engine_groth16.c — GROTH16 jobs through the engine on the CPU backend, on the files
 * tests/cli/fixture.c writes (a circom-layout .r1cs, a satisfying .wtns, a bad one, a
 * snarkjs .zkey from a dev setup): by path and by bytes, the proof verifies against the
 * .zkey's verifying key; a bad witness fails its job (with the .r1cs: naming the failing
 * constraint); malformed requests are refused at submit. Inputs that are not regular files
 * (a FIFO, a directory) are refused at submit, and a path that turns into a FIFO after
 * submit fails its job at once instead of blocking a worker in open(). The fixture
 * binary's path comes from CUZK_FIXTURE (set by CMake); without it the test is skipped.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cuzk/engine.h"
#include "cuzk/formats.h"
#include "engine/engine_testing.h"
#include "test_rng.h"

static char g_dir[64];

static void path(char *out, const char *name) { sprintf(out, "%s/%s", g_dir, name); }

static cuzk_engine *make_budget(uint64_t budget)
{
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = "cpu";
    c.memory_budget = budget;
    c.threads = 2;
    c.log_level = CUZK_LOG_ERROR;
    cuzk_engine *e = NULL;
    assert_int_equal(cuzk_engine_create(&e, &c, NULL), CUZK_OK);
    return e;
}

static cuzk_engine *make(void)
{
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = "cpu";
    c.memory_budget = 1ull << 30;
    c.threads = 2;
    c.log_level = CUZK_LOG_ERROR;
    cuzk_engine *e = NULL;
    assert_int_equal(cuzk_engine_create(&e, &c, NULL), CUZK_OK);
    return e;
}

static cuzk_job_result run(cuzk_engine *e, const cuzk_job_request *r)
{
    cuzk_job_ticket t;
    cuzk_error err = {0};
    cuzk_status st = cuzk_engine_submit(e, r, &t, &err);
    if (st != CUZK_OK)
        fprintf(stderr, "submit: %s\n", err.msg);
    assert_int_equal(st, CUZK_OK);
    cuzk_job_result res;
    assert_int_equal(cuzk_engine_await(e, t.job_id, 0, &res, NULL), CUZK_OK);
    return res;
}

static void check_proof(const cuzk_job_result *res, const char *wtns)
{
    assert_int_equal(res->state, CUZK_JOB_COMPLETED);
    assert_int_equal(res->proof_len, CUZK_GROTH16_PROOF_BYTES);
    char zk[128];
    path(zk, "k.zkey");
    char *zdata;
    size_t zlen;
    assert_int_equal(cuzk_file_read_text(&zdata, &zlen, zk, 1 << 26, NULL), CUZK_OK);
    cuzk_groth16_vk vk;
    assert_int_equal(cuzk_groth16_vk_from_snarkjs_zkey(&vk, (uint8_t *)zdata, zlen, NULL), CUZK_OK);
    free(zdata);
    cuzk_fr *w;
    uint32_t n;
    assert_int_equal(cuzk_frs_load_snarkjs_wtns(&w, &n, wtns, NULL), CUZK_OK);
    cuzk_groth16_proof proof;
    assert_int_equal(cuzk_groth16_proof_from_bellperson(&proof, res->proof, res->proof_len, NULL),
                     CUZK_OK);
    cuzk_groth16_pvk pvk;
    assert_int_equal(cuzk_groth16_pvk_prepare(&pvk, &vk), CUZK_OK);
    assert_int_equal(cuzk_groth16_verify(&pvk, &w[1], vk.n_ic - 1, &proof, NULL), CUZK_OK);
    free(w);
    cuzk_groth16_vk_free(&vk);
}

static void test_paths_and_bytes(void **state)
{
    (void)state;
    cuzk_engine *e = make();
    char zk[128], wt[128], bad[128], r1[128];
    path(zk, "k.zkey");
    path(wt, "w.wtns");
    path(bad, "bad.wtns");
    path(r1, "c.r1cs");
    cuzk_job_request r = {.kind = CUZK_PROOF_GROTH16};
    r.groth16.zkey_path = zk;
    r.groth16.wtns_path = wt;
    cuzk_job_result res = run(e, &r);
    check_proof(&res, wt);
    cuzk_job_result_free(&res);

    /* the same inputs as bytes (the key then belongs to the job) */
    char *zd, *wd;
    size_t zl, wl;
    assert_int_equal(cuzk_file_read_text(&zd, &zl, zk, 1 << 26, NULL), CUZK_OK);
    assert_int_equal(cuzk_file_read_text(&wd, &wl, wt, 1 << 26, NULL), CUZK_OK);
    cuzk_job_request rb = {.kind = CUZK_PROOF_GROTH16};
    rb.groth16.zkey = (cuzk_bytes){(uint8_t *)zd, zl};
    rb.groth16.wtns = (cuzk_bytes){(uint8_t *)wd, wl};
    res = run(e, &rb);
    check_proof(&res, wt);
    cuzk_job_result_free(&res);

    /* a bad witness: no proof; with the .r1cs the failing constraint is named */
    r.groth16.wtns_path = bad;
    res = run(e, &r);
    assert_int_equal(res.state, CUZK_JOB_FAILED);
    assert_null(res.proof);
    r.groth16.r1cs_path = r1;
    res = run(e, &r);
    assert_int_equal(res.state, CUZK_JOB_FAILED);
    assert_int_equal(res.error_code, CUZK_ERR_UNSATISFIED);
    assert_non_null(strstr(res.error, "unsatisfied"));

    /* refusals at submit */
    cuzk_job_ticket t;
    cuzk_error err = {0};
    cuzk_job_request x = {.kind = CUZK_PROOF_GROTH16};
    x.groth16.wtns_path = wt;
    assert_int_equal(cuzk_engine_submit(e, &x, &t, &err), CUZK_ERR_INVALID_ARG); /* no key */
    x.groth16.zkey_path = zk;
    x.groth16.zkey = rb.groth16.zkey;
    assert_int_equal(cuzk_engine_submit(e, &x, &t, &err), CUZK_ERR_INVALID_ARG); /* both */
    x.groth16.zkey = (cuzk_bytes){0};
    x.groth16.wtns_path = "/nonexistent/w.wtns";
    assert_int_equal(cuzk_engine_submit(e, &x, &t, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "wtns file /nonexistent/w.wtns cannot be opened"));
    x.groth16.wtns_path = wt;
    x.groth16.zkey_path = NULL;
    x.groth16.params_path = zk; /* params form needs an r1cs */
    assert_int_equal(cuzk_engine_submit(e, &x, &t, &err), CUZK_ERR_INVALID_ARG);
    /* the shared key is listed under its path */
    cuzk_engine_status s;
    assert_int_equal(cuzk_engine_get_status(e, &s, NULL), CUZK_OK);
    bool found = false;
    for (size_t i = 0; i < s.n_srs; i++)
        found |= strncmp(s.srs[i].circuit_id, "zkey:/", 6) == 0;
    assert_true(found);
    cuzk_engine_status_free(&s);
    free(zd);
    free(wd);
    cuzk_engine_destroy(e);
}

static void copy_file(const char *from, const char *to)
{
    char *d;
    size_t n;
    assert_int_equal(cuzk_file_read_text(&d, &n, from, 1 << 26, NULL), CUZK_OK);
    assert_int_equal(cuzk_file_write(to, d, n, NULL), CUZK_OK);
    free(d);
}

/* A FIFO as an input: refused at submit; one swapped in after submit changes nothing (the
 * engine reads the file it opened at submit, not the path); a file rewritten in place
 * after submit fails its job; and the engine still proves and stops. */
static void test_not_regular_files(void **state)
{
    (void)state;
    cuzk_engine *e = make();
    char zk[128], wt[128], fifo[128], w2[128];
    path(zk, "k.zkey");
    path(wt, "w.wtns");
    path(fifo, "f.fifo");
    path(w2, "w2.wtns");
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    cuzk_job_request r = {.kind = CUZK_PROOF_GROTH16};
    r.groth16.zkey_path = zk;
    r.groth16.wtns_path = fifo;
    cuzk_job_ticket t;
    cuzk_error err = {0};
    assert_int_equal(cuzk_engine_submit(e, &r, &t, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "is a FIFO"));
    r.groth16.wtns_path = g_dir;
    assert_int_equal(cuzk_engine_submit(e, &r, &t, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "is a directory"));
    r.groth16.wtns_path = wt;
    r.groth16.zkey_path = fifo;
    assert_int_equal(cuzk_engine_submit(e, &r, &t, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "zkey file"));

    /* accepted as a file, a FIFO by the time a worker reads it: the engine reads the file
     * it opened at submit, through its descriptor, never the path again (request.h) */
    char z2[128];
    path(z2, "k2.zkey");
    copy_file(wt, w2);
    copy_file(zk, z2);
    cuzk_engine_pause(e, true);
    r.groth16.zkey_path = z2; /* the key too: the SRS manager maps the job's descriptor */
    r.groth16.wtns_path = w2;
    if (cuzk_engine_submit(e, &r, &t, &err) != CUZK_OK)
        fail_msg("submit: %s", err.msg);
    assert_int_equal(unlink(w2), 0);
    assert_int_equal(mkfifo(w2, 0600), 0);
    assert_int_equal(unlink(z2), 0);
    assert_int_equal(mkfifo(z2, 0600), 0);
    cuzk_engine_pause(e, false);
    cuzk_job_result res;
    /* before non-blocking opens the worker sat in open() for good: TIMEOUT here */
    assert_int_equal(cuzk_engine_await(e, t.job_id, 30000, &res, NULL), CUZK_OK);
    check_proof(&res, wt);
    cuzk_job_result_free(&res);
    unlink(z2);
    r.groth16.zkey_path = zk;
    /* the same file rewritten in place after submit: not what was submitted, a failure */
    assert_int_equal(unlink(w2), 0);
    copy_file(wt, w2);
    cuzk_engine_pause(e, true);
    if (cuzk_engine_submit(e, &r, &t, &err) != CUZK_OK)
        fail_msg("submit: %s", err.msg);
    FILE *f = fopen(w2, "ab");
    assert_non_null(f);
    fputc(0, f);
    fclose(f);
    cuzk_engine_pause(e, false);
    assert_int_equal(cuzk_engine_await(e, t.job_id, 30000, &res, NULL), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_FAILED);
    assert_non_null(strstr(res.error, "changed since the job was submitted"));
    cuzk_job_result_free(&res);
    /* the worker is free: a good job still completes */
    r.groth16.wtns_path = wt;
    res = run(e, &r);
    check_proof(&res, wt);
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(e);
    unlink(w2);
    unlink(fifo);
}

/* A request names its input files by path and by what they were at submit: a retry with
 * the same request_id and the same unchanged files gets the completed job back, one whose
 * witness file was rewritten since is another request (a new job). */
static void test_request_id_files(void **state)
{
    (void)state;
    cuzk_engine *e = make();
    char zk[128], wt[128], w3[128];
    path(zk, "k.zkey");
    path(wt, "w.wtns");
    path(w3, "w3.wtns");
    copy_file(wt, w3);
    cuzk_job_request r = {.kind = CUZK_PROOF_GROTH16, .request_id = "g16-files"};
    r.groth16.zkey_path = zk;
    r.groth16.wtns_path = w3;
    cuzk_job_ticket a, b;
    assert_int_equal(cuzk_engine_submit(e, &r, &a, NULL), CUZK_OK);
    cuzk_job_result res;
    assert_int_equal(cuzk_engine_await(e, a.job_id, 0, &res, NULL), CUZK_OK);
    check_proof(&res, wt);
    cuzk_job_result_free(&res);
    assert_int_equal(cuzk_engine_submit(e, &r, &b, NULL), CUZK_OK);
    assert_true(b.duplicate);
    assert_string_equal(a.job_id, b.job_id);
    copy_file(wt, w3); /* same bytes, but a new version of the file */
    assert_int_equal(cuzk_engine_submit(e, &r, &b, NULL), CUZK_OK);
    assert_false(b.duplicate);
    assert_string_not_equal(a.job_id, b.job_id);
    assert_int_equal(cuzk_engine_await(e, b.job_id, 0, &res, NULL), CUZK_OK);
    check_proof(&res, wt);
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(e);
    unlink(w3);
}

/* The smallest budget cuzkd takes (64 MiB) proves the fixture's 15-constraint circuit: the
 * estimate of a tiny circuit is tiny (it was 64 MiB of fixed scratch plus the rest: "needs
 * 64.0 MiB (key 1.0 MiB) but the memory budget is 64.0 MiB"). cuzkd_inputs.sh runs the
 * bellperson form the same way through the daemon. */
static void test_tiny_circuit_small_budget(void **state)
{
    (void)state;
    cuzk_engine *e = make_budget(64ull << 20);
    char zk[128], wt[128];
    path(zk, "k.zkey");
    path(wt, "w.wtns");
    cuzk_job_request r = {.kind = CUZK_PROOF_GROTH16};
    r.groth16.zkey_path = zk;
    r.groth16.wtns_path = wt;
    cuzk_job_result res = run(e, &r);
    if (res.state != CUZK_JOB_COMPLETED)
        fail_msg("under 64 MiB: %s", res.error);
    check_proof(&res, wt);
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(e);
}

int main(void)
{
    test_rng_init("test_engine_groth16");
    const char *fixture = getenv("CUZK_FIXTURE");
    if (!fixture) {
        fprintf(stderr, "CUZK_FIXTURE not set: skipped\n");
        return 77;
    }
    snprintf(g_dir, sizeof g_dir, "/tmp/cuzk_eg16_XXXXXX");
    if (!mkdtemp(g_dir))
        return 1;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s %s > /dev/null", fixture, g_dir);
    if (system(cmd) != 0)
        return 1;
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_paths_and_bytes),
                                       cmocka_unit_test(test_not_regular_files),
                                       cmocka_unit_test(test_request_id_files),
                                       cmocka_unit_test(test_tiny_circuit_small_budget)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    if (system(cmd) != 0)
        return 1;
    return rc;
}
