/*
 * test_engine_params.c — the engine checks Filecoin parameter files against the
 * param_dir's parameters.json before it uses them (src/engine/kind_fil_load.c,
 * cuzk/param_digest.h). The key is real in shape: the 2 KiB WindowPoSt dev key the engine
 * makes (in CUZK_DEV_KEY_DIR, or a fresh temporary directory), copied into a parameter
 * directory under Filecoin's file name with its .vk beside it. Each case is a fresh engine
 * proving a WindowPoSt job with that directory and no dev keys:
 *   match      manifest digests of both files right: the job completes, its proof verifies,
 *              the log says the digests matched;
 *   mismatch   one flipped byte in the .params: the job fails naming the file, the
 *              expected and the actual digest;
 *   vk         the .vk differs from the .params' key (its own digest listed): the job fails;
 *   entry      a manifest without the .params: the job fails, "has no entry";
 *   none       no parameters.json: the job completes, the log says digests were NOT checked;
 * and the trust policy's deferred digest (CUZK_PARAM_DIGEST_DEFER_ABOVE=0, so this small
 * .params counts as big):
 *   deferred   good files: the job completes before the .params is hashed (the log says
 *              its digest is checked in the background), and the background check then
 *              logs the match;
 *   deferred_bad  h[0] and h[1] of the .params swapped (valid points: the decode and its
 *              on-curve checks pass), manifest of the good file: the job FAILS at the
 *              self-check (no proof is served), the background digest logs DEFERRED DIGEST
 *              FAILED and the key is evicted; the next engine's load fails at once from the
 *              remembered digest, naming both digests;
 *   deferred_novk  the same swap without a .vk beside the .params: nothing pins the vk, so
 *              the digest is checked before the load and the job fails naming it.
 * Threading: the engine's threads (the log collector is under a mutex); the test is
 * single-threaded.
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "engine_fil_fixture.h"
#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "cuzk/param_digest.h"
#include "cuzk/post.h"
#include "vanilla_fixture.h"
#include "test_rng.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#define NAME                                                                               \
    "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"                    \
    "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"

static char g_keys[4096], g_pdir[64], g_params[256], g_vk[256], g_manifest[256];
static bool g_keys_tmp; /* a temporary key directory, removed at teardown */
static uint8_t *g_key; /* the dev key's .params bytes */
static size_t g_key_len, g_vk_len;

static pthread_mutex_t g_log_mu = PTHREAD_MUTEX_INITIALIZER;
static char g_log[1 << 16];

static void collect(void *ctx, cuzk_log_level l, const char *m)
{
    (void)ctx;
    pthread_mutex_lock(&g_log_mu);
    size_t n = strlen(g_log);
    snprintf(g_log + n, sizeof g_log - n, "%s\n", m);
    pthread_mutex_unlock(&g_log_mu);
    if (l <= CUZK_LOG_WARN)
        fprintf(stderr, "engine: %s\n", m);
}

static cuzk_engine *make(const char *param_dir, const char *dev_dir)
{
    cuzk_engine *e = efx_make(param_dir, dev_dir, collect);
    g_log[0] = 0;
    return e;
}

static cuzk_post_job *g_set;
static char *g_job;

/* One WindowPoSt job on a fresh engine over the parameter directory. */
static cuzk_job_result prove(void)
{
    cuzk_engine *e = make(g_pdir, NULL);
    cuzk_job_request r = {0};
    r.kind = CUZK_PROOF_WINDOW_POST_PARTITION;
    r.vanilla_proof = (cuzk_bytes){(const uint8_t *)g_job, strlen(g_job)};
    cuzk_job_ticket t;
    cuzk_error err = {0};
    if (cuzk_engine_submit(e, &r, &t, &err) != CUZK_OK)
        fail_msg("submit: %s", err.msg);
    cuzk_job_result res;
    assert_int_equal(cuzk_engine_await(e, t.job_id, 0, &res, &err), CUZK_OK);
    cuzk_engine_destroy(e);
    return res;
}

static void put(const char *path, const void *b, size_t n)
{
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.new", path);
    FILE *f = fopen(tmp, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(rename(tmp, path), 0); /* a new inode, as a download would be */
}

static void digest32(const char *path, char out[33])
{
    char hex[129];
    assert_int_equal(cuzk_param_file_blake2b(path, hex, NULL, NULL), CUZK_OK);
    memcpy(out, hex, 32);
    out[32] = 0;
}

/* parameters.json over the files that are there now; with_params = 0 leaves it out. */
static void manifest(int with_params)
{
    char dp[33], dv[33];
    digest32(g_params, dp);
    digest32(g_vk, dv);
    FILE *f = fopen(g_manifest, "w");
    assert_non_null(f);
    fprintf(f, "{\n");
    if (with_params)
        fprintf(f, "  \"" NAME ".params\": {\"cid\": \"Qm1\", \"digest\": \"%s\", "
                   "\"sector_size\": 2048},\n", dp);
    fprintf(f, "  \"" NAME ".vk\": {\"cid\": \"Qm2\", \"digest\": \"%s\", \"sector_size\": 2048}\n}\n",
            dv);
    assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
    (void)state;
    cuzk_post_info info;
    if (cuzk_post_info_get(CUZK_POST_WINDOW, 2048, &info, NULL) != CUZK_OK ||
        !(g_set = vf_post(&info, 0, 2, 1000 + test_rng_u64() % 1000)))
        return -1;
    g_job = vf_post_doc(g_set, 0);
    if (!efx_keys_dir(g_keys, sizeof g_keys, &g_keys_tmp))
        return -1;
    /* the dev key: made (or loaded) by the engine's first job */
    cuzk_engine *e = make(NULL, g_keys);
    cuzk_job_request r = {0};
    r.kind = CUZK_PROOF_WINDOW_POST_PARTITION;
    r.vanilla_proof = (cuzk_bytes){(const uint8_t *)g_job, strlen(g_job)};
    cuzk_job_ticket t;
    cuzk_job_result res;
    if (cuzk_engine_submit(e, &r, &t, NULL) != CUZK_OK ||
        cuzk_engine_await(e, t.job_id, 0, &res, NULL) != CUZK_OK ||
        res.state != CUZK_JOB_COMPLETED)
        return -1;
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(e);
    char path[4200];
    snprintf(path, sizeof path, "%s/cuzk-DEV-UNTRUSTED-wpost-2k.dev.params", g_keys);
    char *bytes = NULL;
    if (cuzk_file_read_text(&bytes, &g_key_len, path, 1u << 30, NULL) != CUZK_OK)
        return -1;
    g_key = (uint8_t *)bytes;
    const uint8_t *p = g_key + CUZK_BELLPERSON_VK_FIXED_BYTES;
    g_vk_len = CUZK_BELLPERSON_VK_FIXED_BYTES + 4 +
               96 * ((size_t)p[0] << 24 | (size_t)p[1] << 16 | (size_t)p[2] << 8 | p[3]);

    strcpy(g_pdir, "/tmp/cuzk-pdir-XXXXXX");
    if (!mkdtemp(g_pdir))
        return -1;
    snprintf(g_params, sizeof g_params, "%s/" NAME ".params", g_pdir);
    snprintf(g_vk, sizeof g_vk, "%s/" NAME ".vk", g_pdir);
    snprintf(g_manifest, sizeof g_manifest, "%s/%s", g_pdir, CUZK_PARAM_MANIFEST);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_pdir);
    free(g_key);
    free(g_job);
    cuzk_post_job_free(g_set);
    bool keys_gone = efx_keys_dir_done(g_keys, g_keys_tmp);
    return system(cmd) == 0 && keys_gone ? 0 : -1;
}

static void good_files(void)
{
    put(g_params, g_key, g_key_len);
    put(g_vk, g_key, g_vk_len);
}

static void expect_failed(const cuzk_job_result *res, const char *a, const char *b,
                          const char *c)
{
    if (res->state == CUZK_JOB_COMPLETED)
        fail_msg("the job completed; expected a failure saying \"%s\"", a);
    if (!strstr(res->error, a) || (b && !strstr(res->error, b)) || (c && !strstr(res->error, c)))
        fail_msg("job error \"%s\" lacks \"%s\" / \"%s\" / \"%s\"", res->error, a, b ? b : "",
                 c ? c : "");
}

static void test_match(void **state)
{
    (void)state;
    good_files();
    manifest(1);
    cuzk_job_result res = prove();
    if (res.state != CUZK_JOB_COMPLETED)
        fail_msg("job: %s", res.error);
    char d[33];
    digest32(g_params, d);
    char want[128];
    snprintf(want, sizeof want, "digest %s matches parameters.json", d);
    assert_non_null(strstr(g_log, want));
    assert_non_null(strstr(g_log, NAME ".vk: digest"));
    /* the proof is the key's: it verifies against the vk */
    cuzk_groth16_vk vk;
    cuzk_groth16_pvk pvk;
    assert_int_equal(cuzk_groth16_vk_from_bellperson(&vk, g_key, g_vk_len, NULL, NULL), CUZK_OK);
    assert_int_equal(cuzk_groth16_pvk_prepare(&pvk, &vk), CUZK_OK);
    cuzk_post_partition p = cuzk_post_job_partition(g_set);
    size_t n = cuzk_post_info_n_inputs(&g_set->info);
    cuzk_fr *x = calloc(n, sizeof *x);
    assert_int_equal(cuzk_post_public_inputs(&p, g_set->randomness, x, n, NULL), CUZK_OK);
    cuzk_groth16_proof proof;
    assert_int_equal(res.proof_len, CUZK_GROTH16_PROOF_BYTES);
    assert_int_equal(cuzk_groth16_proof_from_bellperson(&proof, res.proof, res.proof_len, NULL),
                     CUZK_OK);
    assert_int_equal(cuzk_groth16_verify(&pvk, x, n, &proof, NULL), CUZK_OK);
    free(x);
    cuzk_groth16_vk_free(&vk);
    cuzk_job_result_free(&res);
    /* a second engine (same process): the digest is remembered, not recomputed */
    res = prove();
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    assert_non_null(strstr(g_log, "(remembered; file unchanged)"));
    cuzk_job_result_free(&res);
}

static void test_mismatch(void **state)
{
    (void)state;
    good_files();
    manifest(1);
    char want[33], got[33];
    digest32(g_params, want);
    uint8_t *bad = malloc(g_key_len);
    memcpy(bad, g_key, g_key_len);
    bad[g_vk_len + test_rng_u64() % (g_key_len - g_vk_len)] ^= 0x04; /* past the vk block */
    put(g_params, bad, g_key_len);
    free(bad);
    digest32(g_params, got);
    cuzk_job_result res = prove();
    char msg[300];
    snprintf(msg, sizeof msg, NAME ".params: digest %s, parameters.json expects %s", got, want);
    expect_failed(&res, msg, NULL, NULL);
    cuzk_job_result_free(&res);
}

static void test_vk(void **state)
{
    (void)state;
    good_files();
    uint8_t *vk = malloc(g_vk_len);
    memcpy(vk, g_key, g_vk_len);
    vk[CUZK_BELLPERSON_VK_FIXED_BYTES + 4 + test_rng_u64() % (g_vk_len - 868)] ^= 1;
    put(g_vk, vk, g_vk_len);
    free(vk);
    manifest(1); /* the .vk's own digest is listed: only the comparison can catch it */
    cuzk_job_result res = prove();
    expect_failed(&res, NAME ".vk: not the verifying key of the .params", "differ at byte",
                  NULL);
    cuzk_job_result_free(&res);
}

static void test_entry(void **state)
{
    (void)state;
    good_files();
    manifest(0);
    cuzk_job_result res = prove();
    expect_failed(&res, NAME ".params: the parameters.json beside it has no entry", NULL, NULL);
    cuzk_job_result_free(&res);
}

static void test_none(void **state)
{
    (void)state;
    good_files();
    unlink(g_manifest);
    cuzk_job_result res = prove();
    if (res.state != CUZK_JOB_COMPLETED)
        fail_msg("job: %s", res.error);
    assert_non_null(strstr(g_log, NAME ".params: digest NOT checked: no parameters.json"));
    cuzk_job_result_free(&res);
}

/* Waits (bounded) for text in the log of the engine e while it lives. */
static bool log_has_within(const char *text, int tenths)
{
    for (int i = 0; i < tenths; i++) {
        pthread_mutex_lock(&g_log_mu);
        bool has = strstr(g_log, text) != NULL;
        pthread_mutex_unlock(&g_log_mu);
        if (has)
            return true;
        usleep(100000);
    }
    return false;
}

/* One WindowPoSt job on an engine kept alive until the log shows until (or 60 s pass). */
static cuzk_job_result prove_until(const char *until, bool *seen)
{
    cuzk_engine *e = make(g_pdir, NULL);
    cuzk_job_request r = {0};
    r.kind = CUZK_PROOF_WINDOW_POST_PARTITION;
    r.vanilla_proof = (cuzk_bytes){(const uint8_t *)g_job, strlen(g_job)};
    cuzk_job_ticket t;
    cuzk_error err = {0};
    if (cuzk_engine_submit(e, &r, &t, &err) != CUZK_OK)
        fail_msg("submit: %s", err.msg);
    cuzk_job_result res;
    assert_int_equal(cuzk_engine_await(e, t.job_id, 0, &res, &err), CUZK_OK);
    *seen = log_has_within(until, 600);
    cuzk_engine_destroy(e);
    return res;
}

static void swapped_params(void)
{
    uint8_t *bad = malloc(g_key_len);
    memcpy(bad, g_key, g_key_len);
    uint8_t tmp[96], *h0 = bad + g_vk_len + 4; /* h[0], then h[1] */
    memcpy(tmp, h0, 96);
    memcpy(h0, h0 + 96, 96);
    memcpy(h0 + 96, tmp, 96);
    put(g_params, bad, g_key_len);
    free(bad);
}

static void test_deferred(void **state)
{
    (void)state;
    setenv("CUZK_PARAM_DIGEST_DEFER_ABOVE", "0", 1);
    good_files();
    manifest(1);
    char d[33], want[300];
    digest32(g_params, d);
    snprintf(want, sizeof want, NAME ".params: digest %s matches parameters.json (", d);
    bool seen = false;
    cuzk_job_result res = prove_until(want, &seen);
    if (res.state != CUZK_JOB_COMPLETED)
        fail_msg("job: %s", res.error);
    assert_non_null(strstr(g_log, "checked in the background while it serves"));
    assert_true(seen);
    cuzk_job_result_free(&res);
    unsetenv("CUZK_PARAM_DIGEST_DEFER_ABOVE");
}

static void test_deferred_bad(void **state)
{
    (void)state;
    setenv("CUZK_PARAM_DIGEST_DEFER_ABOVE", "0", 1);
    good_files();
    manifest(1); /* the good files' digests */
    char want[33], got[33];
    digest32(g_params, want);
    swapped_params();
    digest32(g_params, got);
    bool seen = false;
    cuzk_job_result res = prove_until("after its failed digest", &seen);
    assert_non_null(strstr(g_log, "checked in the background while it serves"));
    expect_failed(&res, "does not verify", NULL, NULL);
    assert_int_equal(res.proof_len, 0);
    assert_true(seen);
    assert_non_null(strstr(g_log, "DEFERRED DIGEST FAILED"));
    cuzk_job_result_free(&res);
    /* the wrong digest is remembered: the next load fails before decoding */
    res = prove();
    char msg[300];
    snprintf(msg, sizeof msg, NAME ".params: digest %s, parameters.json expects %s", got, want);
    expect_failed(&res, msg, NULL, NULL);
    cuzk_job_result_free(&res);
    unsetenv("CUZK_PARAM_DIGEST_DEFER_ABOVE");
}

static void test_deferred_novk(void **state)
{
    (void)state;
    setenv("CUZK_PARAM_DIGEST_DEFER_ABOVE", "0", 1);
    good_files();
    manifest(1);
    char want[33];
    digest32(g_params, want);
    swapped_params();
    unlink(g_vk);
    char got[33];
    digest32(g_params, got);
    cuzk_job_result res = prove();
    char msg[300];
    snprintf(msg, sizeof msg, NAME ".params: digest %s, parameters.json expects %s", got, want);
    expect_failed(&res, msg, NULL, NULL);
    assert_null(strstr(g_log, "checked in the background"));
    cuzk_job_result_free(&res);
    unsetenv("CUZK_PARAM_DIGEST_DEFER_ABOVE");
}

int main(void)
{
    test_rng_init("test_engine_params");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_match), cmocka_unit_test(test_mismatch),
        cmocka_unit_test(test_vk),    cmocka_unit_test(test_entry),
        cmocka_unit_test(test_none),  cmocka_unit_test(test_deferred),
        cmocka_unit_test(test_deferred_bad), cmocka_unit_test(test_deferred_novk),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
