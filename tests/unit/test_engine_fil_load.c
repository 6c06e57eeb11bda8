/*
 * test_engine_fil_load.c — how the engine makes, loads and charges a Filecoin key and its
 * circuit, on the 2 KiB WindowPoSt kind on CPU devices with dev keys (CUZK_DEV_KEY_DIR,
 * shared with test_engine_filecoin, which makes wpost-2k there first; or a fresh temporary
 * directory):
 *   dev_dir_missing  a dev_key_dir that does not exist is made at start (0700) and the
 *                 first job's key is made once and cached in it; a file as dev_key_dir
 *                 is refused at start;
 *   circuit_first  with a key's points held back (the test hook standing for a slow
 *                 .params decode or dev setup), its jobs are synthesized from the circuit
 *                 the load handed out, none enters a device, and once the points come they
 *                 complete and verify; a load that fails after handing its circuit out (its
 *                 only job cancelled) frees it, and the next job loads the key again;
 *   cache_unwritable  a CSR cache directory that cannot be made: the WindowPoSt circuit,
 *                 recorded, is kept in the cache's compact form and charged as a mapped
 *                 one (not the recorded form's bytes); the proof verifies;
 *   make_charged  a dev key made from its seed is charged its setup's temporaries while it
 *                 loads and not after; one read back from its file is not charged them.
 * Threading: the engine's threads; the test itself is single-threaded.
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/groth16.h"
#include "cuzk/plan.h"
#include "cuzk/post.h"
#include "engine/engine_testing.h"
#include "engine_fil_fixture.h"
#include "engine_window_fixture.h"

static char g_keys[4096];

static int g_setups, g_made;

static void count_log(void *ctx, cuzk_log_level l, const char *m)
{
    efx_quiet(ctx, l, m);
    g_setups += strncmp(m, "setup: 2^", 9) == 0;
    g_made += strncmp(m, "dev key ", 8) == 0 && strstr(m, " made in ") != NULL;
}

/* dev_key_dir that does not exist: made at engine start (0700, parents included), and the
 * first job's dev key is made once (one setup) and cached there; one that cannot be a
 * directory (a file) is refused at start, naming it. */
static void test_dev_dir_missing(void **state)
{
    (void)state;
    char root[] = "/tmp/cuzk-devdir-XXXXXX", dir[128], file[128], path[256];
    assert_non_null(mkdtemp(root));
    snprintf(dir, sizeof dir, "%s/a/b", root);
    cuzk_engine *e = efx_make(NULL, dir, count_log);
    struct stat sb;
    assert_int_equal(stat(dir, &sb), 0);
    assert_true(S_ISDIR(sb.st_mode));
    assert_int_equal(sb.st_mode & 0777, 0700);
    g_setups = g_made = 0;
    cuzk_post_job *s = ewf_window_set();
    json_t *doc;
    cuzk_bytes vps[2];
    cuzk_job_request r = ewf_fields_req(s, &doc, vps);
    cuzk_job_result res = efx_run(e, &r);
    ewf_free_fields(doc, vps, s->n_sectors);
    cuzk_job_result_free(&res);
    cuzk_post_job_free(s);
    cuzk_engine_destroy(e);
    assert_int_equal(g_setups, 1);
    assert_int_equal(g_made, 1);
    snprintf(path, sizeof path, "%s/cuzk-DEV-UNTRUSTED-wpost-2k.dev.params", dir);
    assert_int_equal(stat(path, &sb), 0);

    snprintf(file, sizeof file, "%s/file", root);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = "cpu";
    c.dev_key_dir = file;
    c.log = efx_quiet;
    cuzk_error err = {0};
    assert_int_equal(cuzk_engine_create(&e, &c, &err), CUZK_ERR_IO);
    assert_non_null(strstr(err.msg, "dev_key_dir"));
    assert_non_null(strstr(err.msg, "not a directory"));
    snprintf(path, sizeof path, "rm -rf %s", root);
    assert_int_equal(system(path), 0);
}

/* ---- the circuit before the points ---------------------------------------------------- */

/* A key load hands its circuit out before its points (srs_early): with the points held,
 * the jobs that want the key are synthesized into the device queue while the key is not
 * loaded, none enters a device, and once the points come they complete and verify. A
 * load that ends without its key (its only job cancelled while the points are held)
 * frees the circuit it handed out once that job's partition is gone (the sanitizer build
 * sees a use after free or a leak), and the next job loads the key again and verifies. */
static void test_circuit_first(void **state)
{
    (void)state;
    ewf_info_clear();
    cuzk_engine *e = efx_make(NULL, g_keys, ewf_info_log);
    cuzk_engine_events_record(e, true);
    cuzk_engine_hold_points(e, true);
    cuzk_post_job *s = ewf_window_set();
    cuzk_job_ticket a = ewf_submit_window(e, s), b = ewf_submit_window(e, s);
    bool device = false;
    ewf_wait_ready(e, a.job_id, &device);
    ewf_wait_ready(e, b.job_id, &device);
    assert_false(device);                      /* no partition proved without its key */
    assert_false(ewf_info_has("srs: loaded wpost-2k")); /* and the key is still loading */
    cuzk_engine_hold_points(e, false);

    cuzk_post_partition p = cuzk_post_job_partition(s);
    size_t n = cuzk_post_info_n_inputs(&s->info);
    cuzk_fr *x = calloc(n, sizeof *x);
    assert_int_equal(cuzk_post_public_inputs(&p, s->randomness, x, n, NULL), CUZK_OK);
    cuzk_groth16_vk vk;
    cuzk_groth16_pvk pvk;
    efx_dev_vk(g_keys, "wpost-2k", &vk, &pvk);
    const char *ids[2] = {a.job_id, b.job_id};
    for (int k = 0; k < 2; k++) {
        cuzk_job_result res;
        cuzk_error err = {0};
        assert_int_equal(cuzk_engine_await(e, ids[k], 0, &res, &err), CUZK_OK);
        if (res.state != CUZK_JOB_COMPLETED)
            fail_msg("job %s: %s", ids[k], res.error);
        ewf_verify(&pvk, &res, x, n, CUZK_OK);
        cuzk_job_result_free(&res);
    }
    assert_true(ewf_info_has("srs: loaded wpost-2k"));
    cuzk_engine_destroy(e);

    /* the load fails after its circuit went out: its only job is cancelled meanwhile */
    ewf_info_clear();
    e = efx_make(NULL, g_keys, ewf_info_log);
    cuzk_engine_events_record(e, true);
    cuzk_engine_hold_points(e, true);
    cuzk_job_ticket c = ewf_submit_window(e, s);
    ewf_wait_ready(e, c.job_id, &device);
    bool running = false;
    cuzk_error err = {0};
    assert_int_equal(cuzk_engine_cancel(e, c.job_id, &running, &err), CUZK_OK);
    cuzk_job_result res;
    assert_int_equal(cuzk_engine_await(e, c.job_id, 0, &res, &err), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_CANCELLED);
    cuzk_job_result_free(&res);
    for (int i = 0; i < 2400 && !ewf_info_has("srs: cannot load wpost-2k"); i++)
        usleep(50 * 1000);
    assert_true(ewf_info_has("srs: cannot load wpost-2k"));
    cuzk_engine_hold_points(e, false);
    cuzk_job_ticket d = ewf_submit_window(e, s);
    assert_int_equal(cuzk_engine_await(e, d.job_id, 0, &res, &err), CUZK_OK);
    if (res.state != CUZK_JOB_COMPLETED)
        fail_msg("job after the failed load: %s", res.error);
    ewf_verify(&pvk, &res, x, n, CUZK_OK);
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(e);

    cuzk_groth16_vk_free(&vk);
    free(x);
    cuzk_post_job_free(s);
}

static uint64_t memory_used(cuzk_engine *e, uint64_t *key_charged)
{
    cuzk_engine_status st;
    assert_int_equal(cuzk_engine_get_status(e, &st, NULL), CUZK_OK);
    uint64_t used = st.memory_used_bytes;
    for (size_t i = 0; key_charged && i < st.n_srs; i++)
        if (strcmp(st.srs[i].circuit_id, "wpost-2k") == 0)
            *key_charged = st.srs[i].size_bytes;
    cuzk_engine_status_free(&st);
    return used;
}

/* A dev key made from its seed is charged its setup's temporaries while it loads (the
 * points held back after the circuit went out, as a setup would hold them), given back
 * when the load settles; a key read back from its PARAMS-form file is not charged them. */
static void test_make_charged(void **state)
{
    (void)state;
    char dir[] = "/tmp/cuzk-make-XXXXXX";
    assert_non_null(mkdtemp(dir));
    cuzk_fil_memory mem;
    assert_int_equal(cuzk_fil_memory_get(CUZK_PROOF_WINDOW_POST_PARTITION, 2048, 1, &mem, NULL),
                     CUZK_OK);
    const cuzk_fil_counts *n = cuzk_fil_counts_get(CUZK_PROOF_WINDOW_POST_PARTITION, 2048);
    assert_non_null(n);
    uint64_t nh, nl, na, nb;
    cuzk_fil_counts_key(n, &nh, &nl, &na, &nb);
    uint64_t mx = nh > nl ? nh : nl;
    mx = na > mx ? na : mx;
    mx = nb > mx ? nb : mx;
    uint64_t temps = cuzk_groth16_setup_dev_host_bytes(n->log2n, n->inputs + n->aux, mx, 0);
    assert_true(temps > (uint64_t)(n->inputs + n->aux) * 96);
    cuzk_post_job *s = ewf_window_set();
    for (int round = 0; round < 2; round++) { /* made, then read back */
        ewf_info_clear();
        cuzk_engine *e = efx_make(NULL, dir, ewf_info_log);
        cuzk_engine_events_record(e, true);
        cuzk_engine_hold_points(e, true);
        cuzk_job_ticket a = ewf_submit_window(e, s);
        bool device = false;
        ewf_wait_ready(e, a.job_id, &device);
        uint64_t held = memory_used(e, NULL);
        cuzk_engine_hold_points(e, false);
        cuzk_job_result res;
        cuzk_error err = {0};
        assert_int_equal(cuzk_engine_await(e, a.job_id, 0, &res, &err), CUZK_OK);
        if (res.state != CUZK_JOB_COMPLETED)
            fail_msg("job: %s", res.error);
        cuzk_job_result_free(&res);
        uint64_t charged = 0, after = memory_used(e, &charged);
        assert_true(charged > 0 && charged <= mem.key_host + mem.circuit_host + (1u << 16));
        if (round == 0) {
            assert_true(ewf_info_has(".dev.params made in"));
            assert_true(held >= mem.key_host + mem.circuit_host + temps);
            assert_true(after + temps <= held);
        } else {
            assert_true(ewf_info_has(".dev.params loaded in"));
            assert_true(held < mem.key_host + mem.circuit_host + temps);
        }
        cuzk_engine_destroy(e);
    }
    cuzk_post_job_free(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* A CSR cache directory that cannot be made (under a regular file): the recorded circuit
 * is kept in the cache's compact form, so the key is charged what its estimate counted for
 * a mapped circuit, not the recorded form's 36 bytes a term (which, at 32 GiB, took a
 * 128 GiB box past its memory); the job completes and verifies, the failure is a warning. */
static char g_warn[1 << 14];

static void keep_warn(void *ctx, cuzk_log_level l, const char *m)
{
    efx_quiet(ctx, l, m);
    size_t n = strlen(g_warn);
    if (l <= CUZK_LOG_INFO)
        snprintf(g_warn + n, sizeof g_warn - n, "%s\n", m);
}

static void test_cache_unwritable(void **state)
{
    (void)state;
    char tmp[] = "/tmp/cuzk-csr-XXXXXX", file[256], dir[512];
    assert_non_null(mkdtemp(tmp));
    snprintf(file, sizeof file, "%s/not-a-dir", tmp);
    snprintf(dir, sizeof dir, "%s/csr", file);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    g_warn[0] = 0;
    cuzk_engine *e = efx_make_csr(NULL, g_keys, dir, keep_warn);
    cuzk_post_job *s = ewf_window_set();
    size_t n;
    cuzk_fr *x = ewf_window_inputs(s, &n);
    cuzk_job_result res = ewf_window_run(e, s);
    cuzk_groth16_vk vk;
    cuzk_groth16_pvk pvk;
    efx_dev_vk(g_keys, "wpost-2k", &vk, &pvk);
    ewf_verify(&pvk, &res, x, n, CUZK_OK);
    cuzk_job_result_free(&res);
    assert_non_null(strstr(g_warn, "circuit not cached"));
    assert_non_null(strstr(g_warn, "circuit kept in memory in the cache's form"));

    cuzk_fil_memory mem;
    assert_int_equal(cuzk_fil_memory_get(CUZK_PROOF_WINDOW_POST_PARTITION, 2048, 1, &mem, NULL),
                     CUZK_OK);
    cuzk_engine_status st;
    assert_int_equal(cuzk_engine_get_status(e, &st, NULL), CUZK_OK);
    uint64_t charged = 0;
    for (size_t i = 0; i < st.n_srs; i++)
        if (strcmp(st.srs[i].circuit_id, "wpost-2k") == 0)
            charged = st.srs[i].size_bytes;
    cuzk_engine_status_free(&st);
    /* the mapped form's count, give or take the table's rounding; far below the recorded */
    assert_true(charged > 0);
    assert_true(charged <= mem.key_host + mem.circuit_host + (1u << 16));
    assert_true(charged + (mem.circuit_recorded - mem.circuit_host) / 2 <
                mem.key_host + mem.circuit_recorded);
    cuzk_groth16_vk_free(&vk);
    free(x);
    cuzk_post_job_free(s);
    cuzk_engine_destroy(e);
    assert_int_equal(unlink(file), 0);
    assert_int_equal(rmdir(tmp), 0);
}

int main(void)
{
    test_rng_init("test_engine_fil_load");
    bool tmp;
    if (!efx_keys_dir(g_keys, sizeof g_keys, &tmp))
        return 1;
    printf("dev keys in %s\n", g_keys);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dev_dir_missing),
        cmocka_unit_test(test_cache_unwritable), /* first: makes wpost-2k in a fresh dir */
        cmocka_unit_test(test_circuit_first),
        cmocka_unit_test(test_make_charged),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (!efx_keys_dir_done(g_keys, tmp))
        rc = 1;
    return rc;
}
