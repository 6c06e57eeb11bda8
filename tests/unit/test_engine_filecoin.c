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
 *   dev_dir_missing  a dev_key_dir that does not exist is made at start (0700) and the
 *                 first job's key is made once and cached in it; a file as dev_key_dir
 *                 is refused at start;
 *   porep_prove   a generated 2 KiB C1 output through the engine: one partition, 192
 *                 bytes, verifying against cuzk_porep_public_inputs. The 2 KiB PoRep dev
 *                 setup takes minutes on 2 cores (a 2^22 domain; cached in the key dir
 *                 afterwards): CUZK_POREP_PROVE=0 skips this test;
 *   circuit_first  with a key's points held back (the test hook standing for a slow
 *                 .params decode or dev setup), its jobs are synthesized from the circuit
 *                 the load handed out, none enters a device, and once the points come they
 *                 complete and verify; a load that fails after handing its circuit out (its
 *                 only job cancelled) frees it, and the next job loads the key again;
 *   cache_unwritable  a CSR cache directory that cannot be made: the WindowPoSt circuit,
 *                 recorded, is kept in the cache's compact form and charged as a mapped
 *                 one (not the recorded form's bytes); the proof verifies;
 *   make_charged  a dev key made from its seed is charged its setup's temporaries while it
 *                 loads and not after; one read back from its file is not charged them;
 *   post_restart  a WindowPoSt result in a journal survives a restart once its proof
 *                 verifies against the dev key's verifying key and the job's public inputs
 *                 (kind_fil_verify.c): served byte for byte; a forged proof (A and C
 *                 swapped) with the record's SHA-256 recomputed is proved again.
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
#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "cuzk/plan.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "engine/engine_testing.h"
#include "engine/journal.h"
#include "vanilla_fixture.h"

static char g_keys[4096];






static void verify(const cuzk_groth16_pvk *pvk, const cuzk_job_result *res, const cuzk_fr *x,
                   size_t n, cuzk_status want)
{
    assert_int_equal(res->proof_len, CUZK_GROTH16_PROOF_BYTES);
    cuzk_groth16_proof proof;
    assert_int_equal(cuzk_groth16_proof_from_bellperson(&proof, res->proof, res->proof_len, NULL),
                     CUZK_OK);
    assert_int_equal(cuzk_groth16_verify(pvk, x, n, &proof, NULL), want);
}

/* ---- PoSt -------------------------------------------------------------------------------- */

static cuzk_post_job *window_set(void)
{
    cuzk_post_info info;
    assert_int_equal(cuzk_post_info_get(CUZK_POST_WINDOW, 2048, &info, NULL), CUZK_OK);
    cuzk_post_job *s = vf_post(&info, 0, 2, 1000 + test_rng_u64() % 1000);
    assert_non_null(s);
    return s;
}

/* The cuzk.v1 form of s: per-sector JSON (owned by *doc), abi number, randomness. */
static cuzk_job_request fields_req(const cuzk_post_job *s, json_t **doc, cuzk_bytes *vps)
{
    char *txt = vf_post_doc(s, 0);
    *doc = json_loads(txt, 0, NULL);
    free(txt);
    assert_non_null(*doc);
    json_t *arr = json_object_get(*doc, "vanilla_proofs");
    for (size_t i = 0; i < s->n_sectors; i++) {
        char *one = json_dumps(json_array_get(arr, i), JSON_COMPACT);
        vps[i] = (cuzk_bytes){(const uint8_t *)one, strlen(one)};
    }
    cuzk_job_request r = {0};
    r.kind = CUZK_PROOF_WINDOW_POST_PARTITION;
    r.registered_proof = 10; /* Go abi StackedDrgWindow2KiBV1_1 = rust V1_2 */
    r.randomness = (cuzk_bytes){s->randomness, 32};
    r.vanilla_proofs = vps;
    r.n_vanilla_proofs = s->n_sectors;
    return r;
}

static void free_fields(json_t *doc, cuzk_bytes *vps, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free((void *)vps[i].data);
    json_decref(doc);
}

/* s's public inputs (*n of them; free()). */
static cuzk_fr *window_inputs(const cuzk_post_job *s, size_t *n)
{
    cuzk_post_partition p = cuzk_post_job_partition(s);
    *n = cuzk_post_info_n_inputs(&s->info);
    cuzk_fr *x = calloc(*n, sizeof *x);
    assert_non_null(x);
    assert_int_equal(cuzk_post_public_inputs(&p, s->randomness, x, *n, NULL), CUZK_OK);
    return x;
}

/* s through e in its cuzk.v1 field form, run to completion. */
static cuzk_job_result window_run(cuzk_engine *e, const cuzk_post_job *s)
{
    json_t *doc;
    cuzk_bytes vps[2];
    cuzk_job_request r = fields_req(s, &doc, vps);
    cuzk_job_result res = efx_run(e, &r);
    free_fields(doc, vps, s->n_sectors);
    return res;
}

static void test_window_post(void **state)
{
    (void)state;
    cuzk_engine *e = efx_make(NULL, g_keys, efx_quiet);
    cuzk_post_job *s = window_set();
    size_t n;
    cuzk_fr *x = window_inputs(s, &n);
    cuzk_job_result res = window_run(e, s);
    assert_int_equal(res.priority, CUZK_PRIORITY_HIGH);
    assert_int_equal(res.partitions, 1);
    cuzk_groth16_vk vk;
    cuzk_groth16_pvk pvk;
    efx_dev_vk(g_keys, "wpost-2k", &vk, &pvk);
    verify(&pvk, &res, x, n, CUZK_OK);
    cuzk_job_result_free(&res);

    /* the job document form, bincode vanilla proofs; other randomness does not verify */
    char *txt = vf_post_doc(s, 1);
    cuzk_job_request d = {0};
    d.kind = CUZK_PROOF_WINDOW_POST_PARTITION;
    d.vanilla_proof = (cuzk_bytes){(const uint8_t *)txt, strlen(txt)};
    res = efx_run(e, &d);
    free(txt);
    verify(&pvk, &res, x, n, CUZK_OK);
    uint8_t other[32];
    memcpy(other, s->randomness, 32);
    other[0] ^= 1;
    cuzk_post_partition p = cuzk_post_job_partition(s);
    assert_int_equal(cuzk_post_public_inputs(&p, other, x, n, NULL), CUZK_OK);
    verify(&pvk, &res, x, n, CUZK_ERR_INVALID_PROOF);
    cuzk_job_result_free(&res);
    cuzk_groth16_vk_free(&vk);
    free(x);
    cuzk_post_job_free(s);
    cuzk_engine_destroy(e);
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
    cuzk_post_job *s = window_set();
    size_t n;
    cuzk_fr *x = window_inputs(s, &n);
    cuzk_job_result res = window_run(e, s);
    cuzk_groth16_vk vk;
    cuzk_groth16_pvk pvk;
    efx_dev_vk(g_keys, "wpost-2k", &vk, &pvk);
    verify(&pvk, &res, x, n, CUZK_OK);
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
    cuzk_post_job *s = window_set();
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
    verify(&pvk, &res, x, ni, CUZK_OK);
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
    cuzk_post_job *s = window_set();
    json_t *doc;
    cuzk_bytes vps[2];
    cuzk_job_request r = fields_req(s, &doc, vps);

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
    free_fields(doc, vps, s->n_sectors);
    r = fields_req(s, &doc, vps);
    efx_expect_refused(e, &r, CUZK_ERR_INVALID_PROOF, "sector");
    /* two sector proofs in one element are not spliced as two: it is taken as bincode */
    char both[1 << 16];
    int m = snprintf(both, sizeof both, "%.*s,%.*s", (int)vps[0].len, vps[0].data,
                     (int)vps[1].len, vps[1].data);
    assert_true(m > 0 && (size_t)m < sizeof both);
    r.vanilla_proofs = (cuzk_bytes[]){{(const uint8_t *)both, (size_t)m}};
    r.n_vanilla_proofs = 1;
    efx_expect_refused(e, &r, CUZK_ERR_LENGTH, "PoSt .vanilla_proofs[0]: (bincode)");
    free_fields(doc, vps, s->n_sectors);
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
    verify(&pvk, &res, x, 39, CUZK_OK);
    cuzk_fr_add(&x[2], &x[2], &CUZK_FR_ONE); /* another comm_r */
    verify(&pvk, &res, x, 39, CUZK_ERR_INVALID_PROOF);
    printf("PoRep 2 KiB through the engine: key %.1f s, synthesis %.1f s, prove %.1f s\n",
           res.t.srs_load_ms / 1e3, res.t.synthesis_ms / 1e3, res.t.gpu_compute_ms / 1e3);
    cuzk_job_result_free(&res);
    cuzk_groth16_vk_free(&vk);
    cuzk_engine_destroy(e);
    cuzk_c1_free(c1);
    free(txt);
}

/* dev_key_dir that does not exist: made at engine start (0700, parents included), and the
 * first job's dev key is made once (one setup) and cached there; one that cannot be a
 * directory (a file) is refused at start, naming it. */
static int g_setups, g_made;

static void count_log(void *ctx, cuzk_log_level l, const char *m)
{
    efx_quiet(ctx, l, m);
    g_setups += strncmp(m, "setup: 2^", 9) == 0;
    g_made += strncmp(m, "dev key ", 8) == 0 && strstr(m, " made in ") != NULL;
}

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
    cuzk_post_job *s = window_set();
    json_t *doc;
    cuzk_bytes vps[2];
    cuzk_job_request r = fields_req(s, &doc, vps);
    cuzk_job_result res = efx_run(e, &r);
    free_fields(doc, vps, s->n_sectors);
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

/* INFO lines of the engines of circuit_first (the engine's threads log: under a lock). */
static pthread_mutex_t g_info_mu = PTHREAD_MUTEX_INITIALIZER;
static char g_info[1 << 16];

static void info_log(void *ctx, cuzk_log_level l, const char *m)
{
    efx_quiet(ctx, l, m);
    pthread_mutex_lock(&g_info_mu);
    size_t n = strlen(g_info);
    if (n + strlen(m) + 2 < sizeof g_info)
        snprintf(g_info + n, sizeof g_info - n, "%s\n", m);
    pthread_mutex_unlock(&g_info_mu);
}

static bool info_has(const char *what)
{
    pthread_mutex_lock(&g_info_mu);
    bool has = strstr(g_info, what) != NULL;
    pthread_mutex_unlock(&g_info_mu);
    return has;
}

static cuzk_job_ticket submit_window(cuzk_engine *e, const cuzk_post_job *s)
{
    json_t *doc;
    cuzk_bytes vps[2];
    cuzk_job_request r = fields_req(s, &doc, vps);
    cuzk_job_ticket t;
    cuzk_error err = {0};
    if (cuzk_engine_submit(e, &r, &t, &err) != CUZK_OK)
        fail_msg("submit: %s", err.msg);
    free_fields(doc, vps, s->n_sectors);
    return t;
}

/* Whether the event log holds stage for job id; *device: whether any DEVICE event is in. */
static bool has_event(cuzk_engine *e, const char *id, int stage, bool *device)
{
    static cuzk_engine_event ev[256];
    size_t n = cuzk_engine_events(e, ev, 256);
    bool found = false;
    for (size_t i = 0; i < n && i < 256; i++) {
        if (ev[i].stage == ENGINE_EV_DEVICE)
            *device = true;
        if (ev[i].stage == stage && strcmp(ev[i].job, id) == 0)
            found = true;
    }
    return found;
}

static void wait_ready(cuzk_engine *e, const char *id, bool *device)
{
    for (int i = 0; i < 6000 && !has_event(e, id, ENGINE_EV_READY, device); i++)
        usleep(50 * 1000);
    if (!has_event(e, id, ENGINE_EV_READY, device))
        fail_msg("job %s: not synthesized in 300 s while its key's points were held", id);
}

/* A key load hands its circuit out before its points (srs_early): with the points held,
 * the jobs that want the key are synthesized into the device queue while the key is not
 * loaded, none enters a device, and once the points come they complete and verify. A
 * load that ends without its key (its only job cancelled while the points are held)
 * frees the circuit it handed out once that job's partition is gone (the sanitizer build
 * sees a use after free or a leak), and the next job loads the key again and verifies. */
static void test_circuit_first(void **state)
{
    (void)state;
    g_info[0] = 0;
    cuzk_engine *e = efx_make(NULL, g_keys, info_log);
    cuzk_engine_events_record(e, true);
    cuzk_engine_hold_points(e, true);
    cuzk_post_job *s = window_set();
    cuzk_job_ticket a = submit_window(e, s), b = submit_window(e, s);
    bool device = false;
    wait_ready(e, a.job_id, &device);
    wait_ready(e, b.job_id, &device);
    assert_false(device);                      /* no partition proved without its key */
    assert_false(info_has("srs: loaded wpost-2k")); /* and the key is still loading */
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
        verify(&pvk, &res, x, n, CUZK_OK);
        cuzk_job_result_free(&res);
    }
    assert_true(info_has("srs: loaded wpost-2k"));
    cuzk_engine_destroy(e);

    /* the load fails after its circuit went out: its only job is cancelled meanwhile */
    g_info[0] = 0;
    e = efx_make(NULL, g_keys, info_log);
    cuzk_engine_events_record(e, true);
    cuzk_engine_hold_points(e, true);
    cuzk_job_ticket c = submit_window(e, s);
    wait_ready(e, c.job_id, &device);
    bool running = false;
    cuzk_error err = {0};
    assert_int_equal(cuzk_engine_cancel(e, c.job_id, &running, &err), CUZK_OK);
    cuzk_job_result res;
    assert_int_equal(cuzk_engine_await(e, c.job_id, 0, &res, &err), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_CANCELLED);
    cuzk_job_result_free(&res);
    for (int i = 0; i < 2400 && !info_has("srs: cannot load wpost-2k"); i++)
        usleep(50 * 1000);
    assert_true(info_has("srs: cannot load wpost-2k"));
    cuzk_engine_hold_points(e, false);
    cuzk_job_ticket d = submit_window(e, s);
    assert_int_equal(cuzk_engine_await(e, d.job_id, 0, &res, &err), CUZK_OK);
    if (res.state != CUZK_JOB_COMPLETED)
        fail_msg("job after the failed load: %s", res.error);
    verify(&pvk, &res, x, n, CUZK_OK);
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
    cuzk_post_job *s = window_set();
    for (int round = 0; round < 2; round++) { /* made, then read back */
        g_info[0] = 0;
        cuzk_engine *e = efx_make(NULL, dir, info_log);
        cuzk_engine_events_record(e, true);
        cuzk_engine_hold_points(e, true);
        cuzk_job_ticket a = submit_window(e, s);
        bool device = false;
        wait_ready(e, a.job_id, &device);
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
            assert_true(info_has(".dev.params made in"));
            assert_true(held >= mem.key_host + mem.circuit_host + temps);
            assert_true(after + temps <= held);
        } else {
            assert_true(info_has(".dev.params loaded in"));
            assert_true(held < mem.key_host + mem.circuit_host + temps);
        }
        cuzk_engine_destroy(e);
    }
    cuzk_post_job_free(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    test_rng_init("test_engine_filecoin");
    const char *dir = getenv("CUZK_DEV_KEY_DIR");
    bool tmp = !(dir && *dir);
    if (!tmp) {
        mkdir(dir, 0755);
        snprintf(g_keys, sizeof g_keys, "%s", dir);
    } else {
        snprintf(g_keys, sizeof g_keys, "/tmp/cuzk-devkeys-XXXXXX");
        if (!mkdtemp(g_keys))
            return 1;
    }
    printf("dev keys in %s\n", g_keys);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_post_reject),
        cmocka_unit_test(test_porep_reject),
        cmocka_unit_test(test_window_post),
        cmocka_unit_test(test_cache_unwritable),
        cmocka_unit_test(test_post_restart),
        cmocka_unit_test(test_dev_dir_missing),
        cmocka_unit_test(test_circuit_first),
        cmocka_unit_test(test_make_charged),
        cmocka_unit_test(test_porep_prove),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (tmp) {
        static const char *ids[] = {"wpost-2k", "winning-2k", "porep-2k"};
        char path[4200];
        for (int i = 0; i < 3; i++) {
            snprintf(path, sizeof path, "%s/cuzk-DEV-UNTRUSTED-%s.dev.params", g_keys, ids[i]);
            unlink(path);
            snprintf(path, sizeof path, "%s/cuzk-DEV-UNTRUSTED-%s.dev.params.info", g_keys,
                     ids[i]);
            unlink(path);
        }
        rmdir(g_keys);
    }
    return rc;
}
