/*
 * test_engine_filecoin.c — the engine's Filecoin job kinds at 2 KiB on CPU devices, with
 * dev keys (made by the engine in CUZK_DEV_KEY_DIR, or a fresh temporary directory, and
 * cached there; the test reads the verifying key back from that file):
 *   window_post   a WindowPoSt job given as the cuzk.v1 fields (per-sector vanilla proofs,
 *                 abi registered proof, randomness) and one given as a job document: each
 *                 proof (192 bytes) verifies against cuzk_post_public_inputs and not
 *                 against other randomness;
 *   post_reject   malformed PoSt inputs are refused at submit with the parser's message
 *                 (a path that misses its root, randomness that does not challenge the
 *                 leaves, a WinningPoSt proof submitted as WindowPoSt, sector_size, a
 *                 registered_proof beside a job document that is not the document's);
 *                 WinningPoSt jobs default to CRITICAL priority;
 *   porep_reject  a malformed or inconsistent C1 output (JSON error, a label that does not
 *                 match its parents, another sector_size, a registered_proof that is no
 *                 seal proof, one of another size or another version of the C1's size)
 *                 is refused at submit with its
 *                 message; with no params and no dev_key_dir the submit names the missing
 *                 Filecoin .params file;
 *   post_restart  a WindowPoSt result in a journal survives a restart once its proof
 *                 verifies against the dev key's verifying key and the job's public inputs
 *                 (kind_fil_verify.c): served byte for byte; a forged proof (A and C
 *                 swapped) with the record's SHA-256 recomputed is proved again.
 * Key making, loading and charging: test_engine_fil_load.c.
 * Threading: the engine's threads; the test itself is single-threaded.
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "c1_gen.h"
#include "cuzk/c1.h"
#include "cuzk/engine.h"
#include "engine_fil_fixture.h"
#include "engine_window_fixture.h"
#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "cuzk/plan.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "engine/engine_testing.h"
#include "engine/journal.h"
#include "vanilla_fixture.h"

static char g_keys[4096];

static void test_window_post(void **state)
{
    (void)state;
    cuzk_engine *e = efx_make(NULL, g_keys, efx_quiet);
    cuzk_post_job *s = ewf_window_set();
    size_t n;
    cuzk_fr *x = ewf_window_inputs(s, &n);
    cuzk_job_result res = ewf_window_run(e, s);
    assert_int_equal(res.priority, CUZK_PRIORITY_HIGH);
    assert_int_equal(res.partitions, 1);
    cuzk_groth16_vk vk;
    cuzk_groth16_pvk pvk;
    efx_dev_vk(g_keys, "wpost-2k", &vk, &pvk);
    ewf_verify(&pvk, &res, x, n, CUZK_OK);
    cuzk_job_result_free(&res);

    /* the job document form, bincode vanilla proofs; other randomness does not verify */
    char *txt = vf_post_doc(s, 1);
    cuzk_job_request d = {0};
    d.kind = CUZK_PROOF_WINDOW_POST_PARTITION;
    d.vanilla_proof = (cuzk_bytes){(const uint8_t *)txt, strlen(txt)};
    res = efx_run(e, &d);
    free(txt);
    ewf_verify(&pvk, &res, x, n, CUZK_OK);
    uint8_t other[32];
    memcpy(other, s->randomness, 32);
    other[0] ^= 1;
    cuzk_post_partition p = cuzk_post_job_partition(s);
    assert_int_equal(cuzk_post_public_inputs(&p, other, x, n, NULL), CUZK_OK);
    ewf_verify(&pvk, &res, x, n, CUZK_ERR_INVALID_PROOF);
    cuzk_job_result_free(&res);
    cuzk_groth16_vk_free(&vk);
    free(x);
    cuzk_post_job_free(s);
    cuzk_engine_destroy(e);
}

/* The warnings of the engines of post_restart. */
static char g_log[1 << 15];

static void keep_log(void *ctx, cuzk_log_level l, const char *m)
{
    efx_quiet(ctx, l, m);
    if (l <= CUZK_LOG_WARN) {
        size_t n = strlen(g_log);
        snprintf(g_log + n, sizeof g_log - n, "%s\n", m);
    }
}

static cuzk_engine *make_journaled(const char *state_dir)
{
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = "cpu";
    c.threads = 2;
    c.dev_key_dir = g_keys;
    c.state_dir = state_dir;
    c.log = keep_log;
    cuzk_engine *e = NULL;
    cuzk_error err = {0};
    if (cuzk_engine_create(&e, &c, &err) != CUZK_OK)
        fail_msg("create: %s", err.msg);
    return e;
}

static cuzk_job_result info_of(const char *state_dir, const char *id)
{
    cuzk_engine *e = make_journaled(state_dir);
    cuzk_job_result res;
    cuzk_error err = {0};
    if (cuzk_engine_await(e, id, 0, &res, &err) != CUZK_OK)
        fail_msg("await %s: %s", id, err.msg);
    cuzk_engine_destroy(e);
    return res;
}

static void test_post_restart(void **state)
{
    (void)state;
    char dir[] = "/tmp/cuzk-filj-XXXXXX";
    assert_non_null(mkdtemp(dir));
    cuzk_post_job *s = ewf_window_set();
    char *txt = vf_post_doc(s, 1);
    cuzk_job_request d = {0};
    d.kind = CUZK_PROOF_WINDOW_POST_PARTITION;
    d.vanilla_proof = (cuzk_bytes){(const uint8_t *)txt, strlen(txt)};
    cuzk_engine *e = make_journaled(dir);
    cuzk_job_ticket t;
    assert_int_equal(cuzk_engine_submit(e, &d, &t, NULL), CUZK_OK);
    cuzk_job_result res;
    assert_int_equal(cuzk_engine_await(e, t.job_id, 0, &res, NULL), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    uint8_t p0[192];
    memcpy(p0, res.proof, 192);
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(e);
    free(txt);

    /* verified, then served as it was */
    g_log[0] = 0;
    res = info_of(dir, t.job_id);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    assert_int_equal(res.proof_len, 192);
    assert_memory_equal(res.proof, p0, 192);
    cuzk_job_result_free(&res);
    assert_null(strstr(g_log, "cannot be used"));

    /* forged: A <-> C, the SHA-256 recomputed */
    char done[200];
    snprintf(done, sizeof done, "%s/%s.done", dir, t.job_id);
    char *rec;
    size_t n;
    assert_int_equal(cuzk_file_read_text(&rec, &n, done, 1 << 20, NULL), CUZK_OK);
    assert_true(n > 192 + 32);
    uint8_t *pf = (uint8_t *)rec + n - 32 - 192, tmp[48];
    assert_memory_equal(pf, p0, 192);
    memcpy(tmp, pf, 48);
    memcpy(pf, pf + 144, 48);
    memcpy(pf + 144, tmp, 48);
    uint8_t forged[192];
    memcpy(forged, pf, 192);
    assert_true(ejournal_sha256(rec, n - 32, (uint8_t *)rec + n - 32));
    assert_int_equal(cuzk_file_write(done, rec, n, NULL), CUZK_OK);
    free(rec);
    g_log[0] = 0;
    res = info_of(dir, t.job_id);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    assert_memory_not_equal(res.proof, forged, 192);
    cuzk_groth16_vk vk;
    cuzk_groth16_pvk pvk;
    efx_dev_vk(g_keys, "wpost-2k", &vk, &pvk);
    cuzk_post_partition p = cuzk_post_job_partition(s);
    size_t ni = cuzk_post_info_n_inputs(&s->info);
    cuzk_fr *x = calloc(ni, sizeof *x);
    assert_int_equal(cuzk_post_public_inputs(&p, s->randomness, x, ni, NULL), CUZK_OK);
    ewf_verify(&pvk, &res, x, ni, CUZK_OK);
    cuzk_job_result_free(&res);
    if (!strstr(g_log, "does not verify"))
        fail_msg("the log does not say the forged proof was refused:\n%s", g_log);
    free(x);
    cuzk_groth16_vk_free(&vk);
    cuzk_post_job_free(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_post_reject(void **state)
{
    (void)state;
    cuzk_engine *e = efx_make(NULL, g_keys, efx_quiet);
    cuzk_post_job *s = ewf_window_set();
    json_t *doc;
    cuzk_bytes vps[2];
    cuzk_job_request r = ewf_fields_req(s, &doc, vps);

    uint8_t rnd[32];
    memcpy(rnd, s->randomness, 32);
    rnd[5] ^= 0x10;
    r.randomness = (cuzk_bytes){rnd, 32};
    efx_expect_refused(e, &r, CUZK_ERR_INVALID_PROOF, "challenge");
    r.randomness = (cuzk_bytes){s->randomness, 32};
    r.sector_size = 8u << 20;
    efx_expect_refused(e, &r, CUZK_ERR_INVALID_ARG, "sector_size 8388608");
    r.sector_size = 0;
    r.kind = CUZK_PROOF_WINNING_POST;
    efx_expect_refused(e, &r, CUZK_ERR_INVALID_ARG, "is a WindowPoSt proof");
    r.kind = CUZK_PROOF_WINDOW_POST_PARTITION;
    r.randomness = (cuzk_bytes){0};
    efx_expect_refused(e, &r, CUZK_ERR_INVALID_ARG, "randomness (32 bytes) is required");
    r.randomness = (cuzk_bytes){s->randomness, 32};
    /* one hash of a path changed: it misses its root */
    s->sectors[1].proofs[3].siblings[0][4] ^= 1;
    ewf_free_fields(doc, vps, s->n_sectors);
    r = ewf_fields_req(s, &doc, vps);
    efx_expect_refused(e, &r, CUZK_ERR_INVALID_PROOF, "sector");
    /* two sector proofs in one element are not spliced as two: it is taken as bincode */
    char both[1 << 16];
    int m = snprintf(both, sizeof both, "%.*s,%.*s", (int)vps[0].len, vps[0].data,
                     (int)vps[1].len, vps[1].data);
    assert_true(m > 0 && (size_t)m < sizeof both);
    r.vanilla_proofs = (cuzk_bytes[]){{(const uint8_t *)both, (size_t)m}};
    r.n_vanilla_proofs = 1;
    efx_expect_refused(e, &r, CUZK_ERR_LENGTH, "PoSt .vanilla_proofs[0]: (bincode)");
    ewf_free_fields(doc, vps, s->n_sectors);
    cuzk_post_job_free(s);

    /* WinningPoSt: CRITICAL by default (held in the queue, then cancelled) */
    cuzk_engine_pause(e, true);
    cuzk_post_info wi;
    assert_int_equal(cuzk_post_info_get(CUZK_POST_WINNING, 2048, &wi, NULL), CUZK_OK);
    s = vf_post(&wi, 0, 1, 77);
    assert_non_null(s);
    char *txt = vf_post_doc(s, 0);
    cuzk_job_request w = {0};
    w.kind = CUZK_PROOF_WINNING_POST;
    w.vanilla_proof = (cuzk_bytes){(const uint8_t *)txt, strlen(txt)};
    /* beside a job document, registered_proof must name the document's proof */
    w.registered_proof = 999;
    efx_expect_refused(e, &w, CUZK_ERR_INVALID_ARG, "registered_proof 999 is not a WinningPoSt");
    w.registered_proof = 10; /* StackedDrgWindow2KiBV1_1: a WindowPoSt proof */
    efx_expect_refused(e, &w, CUZK_ERR_INVALID_ARG, "registered_proof 10 is not a WinningPoSt");
    w.registered_proof = 3; /* StackedDrgWinning32GiBV1: another size */
    efx_expect_refused(e, &w, CUZK_ERR_INVALID_ARG, "registered_proof 3 is not a WinningPoSt "
                                                    "proof for 2048-byte sectors");
    w.registered_proof = 0; /* not given: the document's */
    cuzk_job_ticket t;
    cuzk_error err = {0};
    if (cuzk_engine_submit(e, &w, &t, &err) != CUZK_OK)
        fail_msg("submit: %s", err.msg);
    cuzk_job_result info;
    assert_int_equal(cuzk_engine_job_info(e, t.job_id, &info, &err), CUZK_OK);
    assert_int_equal(info.priority, CUZK_PRIORITY_CRITICAL);
    assert_int_equal(info.kind, CUZK_PROOF_WINNING_POST);
    cuzk_job_result_free(&info);
    assert_int_equal(cuzk_engine_cancel(e, t.job_id, NULL, &err), CUZK_OK);
    free(txt);
    cuzk_post_job_free(s);
    cuzk_engine_destroy(e);
}

/* ---- PoRep ------------------------------------------------------------------------------- */

static char *c1_json(int flaw)
{
    static gen g;
    make_gen(&g, flaw);
    json_t *root = gen_json(&g);
    char *s = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    return s;
}

static void test_porep_reject(void **state)
{
    (void)state;
    cuzk_engine *e = efx_make(NULL, g_keys, efx_quiet);
    cuzk_job_request r = {0};
    r.kind = CUZK_PROOF_POREP_SEAL_COMMIT;
    efx_expect_refused(e, &r, CUZK_ERR_INVALID_ARG, "vanilla_proof (the C1 output) is required");
    char *bad = c1_json(GEN_BAD_LABEL);
    r.vanilla_proof = (cuzk_bytes){(const uint8_t *)bad, strlen(bad)};
    efx_expect_refused(e, &r, CUZK_ERR_INVALID_PROOF, "label");
    free(bad);
    char *ok = c1_json(GEN_OK);
    r.vanilla_proof = (cuzk_bytes){(const uint8_t *)ok, strlen(ok) - 1}; /* cut '}' */
    efx_expect_refused(e, &r, CUZK_ERR_FORMAT, "C1");
    r.vanilla_proof.len++;
    r.sector_size = 32ull << 30;
    efx_expect_refused(e, &r, CUZK_ERR_INVALID_ARG, "sector_size 34359738368");
    r.sector_size = 2048;
    /* registered_proof (Go's abi.RegisteredSealProof, as Curio sends it): a number that is
     * no seal proof, or one of another sector size, is refused */
    r.registered_proof = 999;
    efx_expect_refused(e, &r, CUZK_ERR_INVALID_ARG, "registered_proof 999 is no registered "
                                                    "seal proof");
    r.registered_proof = 8; /* StackedDrg32GiBV1_1 */
    efx_expect_refused(e, &r, CUZK_ERR_INVALID_ARG,
                       "registered_proof 8 is StackedDrg32GiBV1_1, for 34359738368-byte "
                       "sectors, but the C1 output is StackedDrg2KiB");
    /* the same size, another version: the C1 is StackedDrg2KiBV1_1 (5); 10 (synthetic)
     * and 15 (NI) name other seal proofs of 2 KiB sectors */
    r.registered_proof = 10;
    efx_expect_refused(e, &r, CUZK_ERR_INVALID_ARG,
                       "registered_proof 10 is StackedDrg2KiBV1_1_Feat_SyntheticPoRep, but the "
                       "C1 output is StackedDrg2KiBV1_1 (another version");
    r.registered_proof = 15;
    efx_expect_refused(e, &r, CUZK_ERR_INVALID_ARG,
                       "registered_proof 15 is StackedDrg2KiBV1_2_Feat_NonInteractivePoRep");
    cuzk_engine_status st;
    assert_int_equal(cuzk_engine_get_status(e, &st, NULL), CUZK_OK);
    assert_int_equal(st.n_queues, 0); /* nothing was queued */
    cuzk_engine_status_free(&st);
    cuzk_engine_destroy(e);

    /* no params and no dev keys: refused at submit, naming the file Filecoin names */
    char empty[] = "/tmp/cuzk-params-XXXXXX";
    assert_non_null(mkdtemp(empty));
    e = efx_make(empty, NULL, efx_quiet);
    r.registered_proof = 5; /* StackedDrg2KiBV1_1: the C1's size, so on to the key */
    efx_expect_refused(e, &r, CUZK_ERR_NOT_FOUND,
                   "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-"
                   "sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b"
                   "06832f.params not found");
    cuzk_engine_destroy(e);
    rmdir(empty);
    free(ok);
}

static void test_porep_prove(void **state)
{
    (void)state;
    const char *env = getenv("CUZK_POREP_PROVE");
    if (env && strcmp(env, "0") == 0) {
        printf("CUZK_POREP_PROVE=0: skipped\n");
        skip();
    }
    char *txt = c1_json(GEN_OK);
    cuzk_c1_output *c1 = NULL;
    assert_int_equal(cuzk_c1_parse(txt, strlen(txt), &c1, NULL), CUZK_OK);
    cuzk_fr x[39];
    assert_int_equal(cuzk_porep_public_inputs(c1, 0, x, 39, NULL), CUZK_OK);
    cuzk_engine *e = efx_make(NULL, g_keys, efx_quiet);
    cuzk_job_request r = {0};
    r.kind = CUZK_PROOF_POREP_SEAL_COMMIT;
    r.sector_size = 2048;
    r.vanilla_proof = (cuzk_bytes){(const uint8_t *)txt, strlen(txt)};
    cuzk_job_result res = efx_run(e, &r);
    assert_int_equal(res.partitions, 1);
    assert_int_equal(res.priority, CUZK_PRIORITY_NORMAL);
    cuzk_groth16_vk vk;
    cuzk_groth16_pvk pvk;
    efx_dev_vk(g_keys, "porep-2k", &vk, &pvk);
    ewf_verify(&pvk, &res, x, 39, CUZK_OK);
    cuzk_fr_add(&x[2], &x[2], &CUZK_FR_ONE); /* another comm_r */
    ewf_verify(&pvk, &res, x, 39, CUZK_ERR_INVALID_PROOF);
    printf("PoRep 2 KiB through the engine: key %.1f s, synthesis %.1f s, prove %.1f s\n",
           res.t.srs_load_ms / 1e3, res.t.synthesis_ms / 1e3, res.t.gpu_compute_ms / 1e3);
    cuzk_job_result_free(&res);
    cuzk_groth16_vk_free(&vk);
    cuzk_engine_destroy(e);
    cuzk_c1_free(c1);
    free(txt);
}

int main(void)
{
    test_rng_init("test_engine_filecoin");
    bool tmp;
    if (!efx_keys_dir(g_keys, sizeof g_keys, &tmp))
        return 1;
    printf("dev keys in %s\n", g_keys);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_post_reject),
        cmocka_unit_test(test_porep_reject),
        cmocka_unit_test(test_window_post),
        cmocka_unit_test(test_post_restart),
        cmocka_unit_test(test_porep_prove),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (!efx_keys_dir_done(g_keys, tmp))
        rc = 1;
    return rc;
}
