/*
 * test_snap_engine.c — the engine's SNAP_DEALS_UPDATE kind at 2 KiB on CPU devices, with a
 * dev key (made by the engine in CUZK_DEV_KEY_DIR, or a fresh temporary directory; the test
 * reads the verifying key back from that file). Vanilla proofs from cuzk_snap_job_synth
 * (tests/support/vanilla_fixture.h; at 2 KiB full trees of random leaves, consistent).
 *   snap_shape    the key's circuit id and the planned domain agree with the circuit's
 *                 counts (the exact counts' row table) at 2 KiB and 8 MiB;
 *   snap_reject   malformed inputs are refused at submit with the parser's message, before
 *                 any proving work (missing commitments, a path that misses its root, a
 *                 bincode proof with trailing bytes, a commitment that contradicts the
 *                 document, document and fields together, another sector_size, the
 *                 missing .params named as Filecoin names it); a well-formed job document
 *                 is accepted (held in a paused queue, then cancelled);
 *   snap_prove    the cuzk.v1 fields form (abi registered proof, the three commitments, the
 *                 partition proof as filecoin-ffi's bincode bytes) proved through the
 *                 engine: one partition, 192 bytes, verifying against
 *                 cuzk_snap_public_inputs and not against another comm_r_new. The 2 KiB
 *                 dev setup (2^21 domain) and prove take minutes on 2 cores:
 *                 CUZK_POREP_PROVE=0 skips this test, as for PoRep.
 * Threading: the engine's threads; the test itself is single-threaded.
 */
#define _GNU_SOURCE
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
#include <jansson.h>

#include "cuzk/circuits.h"
#include "cuzk/engine.h"
#include "engine_fil_fixture.h"
#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "cuzk/snap.h"
#include "engine/engine_testing.h"
#include "engine/kind_fil.h"
#include "vanilla_fixture.h"
#include "test_rng.h"

static char g_keys[4096];




static cuzk_snap_job *set_2k(void)
{
    cuzk_snap_info in;
    assert_int_equal(cuzk_snap_info_get(2048, CUZK_SNAP_MAIN, &in, NULL), CUZK_OK);
    cuzk_snap_job *s = vf_snap(&in);
    assert_non_null(s);
    return s;
}

static int b64v(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* base64 -> bytes (malloc'd) */
static uint8_t *unbase64(const char *s, size_t *n)
{
    size_t len = strlen(s);
    uint8_t *o = malloc(len / 4 * 3 + 3);
    assert_non_null(o);
    uint32_t acc = 0;
    int bits = 0;
    *n = 0;
    for (size_t i = 0; i < len && s[i] != '='; i++) {
        int v = b64v(s[i]);
        assert_true(v >= 0);
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            o[(*n)++] = (uint8_t)(acc >> bits);
        }
    }
    return o;
}

/* The cuzk.v1 fields form of s: Go abi number, the commitments and the partition proofs;
 * bincode: as filecoin-ffi's PartitionProofBytes (owned by vps[i].data), else each as its
 * serde JSON object. */
static cuzk_job_request fields_req(const cuzk_snap_job *s, int bincode, cuzk_bytes *vps)
{
    char *txt = vf_snap_doc(s, bincode);
    json_t *doc = json_loads(txt, 0, NULL);
    free(txt);
    assert_non_null(doc);
    json_t *arr = json_object_get(doc, "vanilla_proofs");
    assert_int_equal(json_array_size(arr), s->n_partitions);
    for (size_t i = 0; i < s->n_partitions; i++) {
        json_t *v = json_array_get(arr, i);
        if (bincode) {
            size_t n = 0;
            uint8_t *b = unbase64(json_string_value(v), &n);
            vps[i] = (cuzk_bytes){b, n};
        } else {
            char *one = json_dumps(v, JSON_COMPACT);
            vps[i] = (cuzk_bytes){(const uint8_t *)one, strlen(one)};
        }
    }
    json_decref(doc);
    cuzk_job_request r = {0};
    r.kind = CUZK_PROOF_SNAP_DEALS_UPDATE;
    r.registered_proof = 0; /* Go abi StackedDrg2KiBV1 */
    r.comm_r_old = (cuzk_bytes){s->comm_r_old, 32};
    r.comm_r_new = (cuzk_bytes){s->comm_r_new, 32};
    r.comm_d_new = (cuzk_bytes){s->comm_d_new, 32};
    r.vanilla_proofs = vps;
    r.n_vanilla_proofs = s->n_partitions;
    return r;
}

static void free_vps(cuzk_bytes *vps, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free((void *)vps[i].data);
}

static void test_snap_shape(void **state)
{
    (void)state;
    char id[32];
    fil_circuit c;
    uint64_t size = 0;
    assert_true(fil_circuit_id(FIL_SNAP, 32ull << 30, id, sizeof id));
    assert_string_equal(id, "snap-32g");
    assert_true(fil_parse_id("snap-2k", &c, &size));
    assert_int_equal(c, FIL_SNAP);
    assert_int_equal(size, 2048);
    assert_false(fil_parse_id("snap-3k", &c, &size));
    static const uint64_t sizes[] = {2048, 8u << 20};
    for (int i = 0; i < 2; i++) {
        cuzk_circuit_counts cnt;
        assert_int_equal(cuzk_snap_circuit_counts(sizes[i], CUZK_SNAP_MAIN, &cnt, NULL), CUZK_OK);
        uint64_t rows = cuzk_circuit_counts_rows_with_inputs(&cnt);
        unsigned k = fil_log2_domain(FIL_SNAP, sizes[i]);
        printf("snap %llu: %llu rows, domain 2^%u\n", (unsigned long long)sizes[i],
               (unsigned long long)rows, k);
        assert_true((1ull << k) >= rows && (1ull << (k - 1)) < rows);
        /* a compact witness: a bitmap of the bits, 32 bytes for each other variable */
        assert_true(fil_partition_bytes(NULL, FIL_SNAP, sizes[i]) > rows / 8);
        /* the key's ~3.3 G1 points a row at 96 bytes at least */
        assert_true(fil_key_bytes(NULL, FIL_SNAP, sizes[i]) > rows * 300);
    }
}

static void test_snap_reject(void **state)
{
    (void)state;
    cuzk_engine *e = efx_make(NULL, g_keys, efx_quiet);
    cuzk_snap_job *s = set_2k();
    cuzk_bytes vps[1];
    cuzk_job_request r = fields_req(s, 1, vps);

    cuzk_job_request m = r;
    m.comm_r_old = (cuzk_bytes){0};
    efx_expect_refused(e, &m, CUZK_ERR_INVALID_ARG,
                       "SnapDeals job: comm_r_old (32 bytes) is required");
    m = r;
    m.n_vanilla_proofs = 0;
    efx_expect_refused(e, &m, CUZK_ERR_INVALID_ARG, "vanilla_proofs (one per partition)");
    m = r;
    m.sector_size = 8u << 20;
    efx_expect_refused(e, &m, CUZK_ERR_INVALID_ARG, "sector_size 8388608");
    m = r;
    m.registered_proof = 9;
    efx_expect_refused(e, &m, CUZK_ERR_UNSUPPORTED, "unknown registered update proof number 9");
    /* another comm_r_new: the challenges it derives are not the paths' */
    uint8_t other[32];
    memcpy(other, s->comm_r_new, 32);
    other[0] ^= 1;
    m = r;
    m.comm_r_new = (cuzk_bytes){other, 32};
    efx_expect_refused(e, &m, CUZK_ERR_INVALID_PROOF, "SnapDeals");
    /* a bincode partition proof with a trailing byte */
    uint8_t *longer = malloc(vps[0].len + 1);
    memcpy(longer, vps[0].data, vps[0].len);
    longer[vps[0].len] = 0;
    m = r;
    m.vanilla_proofs = (cuzk_bytes[]){{longer, vps[0].len + 1}};
    efx_expect_refused(e, &m, CUZK_ERR_FORMAT, "trailing bytes");
    free(longer);

    /* the job document form: with fields it must agree with, and not with vanilla_proofs */
    char *doc = vf_snap_doc(s, 0);
    cuzk_job_request d = {0};
    d.kind = CUZK_PROOF_SNAP_DEALS_UPDATE;
    d.vanilla_proof = (cuzk_bytes){(const uint8_t *)doc, strlen(doc)};
    m = d;
    m.vanilla_proofs = vps;
    m.n_vanilla_proofs = 1;
    efx_expect_refused(e, &m, CUZK_ERR_INVALID_ARG, "not both");
    m = d;
    m.comm_d_new = (cuzk_bytes){other, 32};
    efx_expect_refused(e, &m, CUZK_ERR_INVALID_ARG, "comm_d_new differs from the job document's");
    /* a registered_proof beside the document must be the document's size (0: not given) */
    m = d;
    m.registered_proof = 3; /* StackedDrg32GiBV1 */
    efx_expect_refused(e, &m, CUZK_ERR_INVALID_ARG,
                       "registered_proof 3 is not the update proof for 2048-byte sectors");
    m.registered_proof = 999;
    efx_expect_refused(e, &m, CUZK_ERR_INVALID_ARG, "registered_proof 999");
    /* a well-formed document is accepted: NORMAL priority, one partition (then cancelled) */
    cuzk_engine_pause(e, true);
    d.comm_d_new = (cuzk_bytes){s->comm_d_new, 32};
    cuzk_job_ticket t;
    cuzk_error err = {0};
    if (cuzk_engine_submit(e, &d, &t, &err) != CUZK_OK)
        fail_msg("submit: %s", err.msg);
    cuzk_job_result info;
    assert_int_equal(cuzk_engine_job_info(e, t.job_id, &info, &err), CUZK_OK);
    assert_int_equal(info.priority, CUZK_PRIORITY_NORMAL);
    assert_int_equal(info.kind, CUZK_PROOF_SNAP_DEALS_UPDATE);
    cuzk_job_result_free(&info);
    assert_int_equal(cuzk_engine_cancel(e, t.job_id, NULL, &err), CUZK_OK);
    free(doc);

    /* one hash of a tree R-old path changed: it misses its root */
    s->partitions[0].challenges[3].r_old.siblings[0][4] ^= 1;
    free_vps(vps, 1);
    r = fields_req(s, 0, vps);
    efx_expect_refused(e, &r, CUZK_ERR_INVALID_PROOF, "challenge 3");
    cuzk_engine_destroy(e);

    /* no params and no dev keys: refused at submit, naming the file Filecoin names */
    s->partitions[0].challenges[3].r_old.siblings[0][4] ^= 1;
    free_vps(vps, 1);
    r = fields_req(s, 0, vps);
    char empty[] = "/tmp/cuzk-params-XXXXXX";
    assert_non_null(mkdtemp(empty));
    e = efx_make(empty, NULL, efx_quiet);
    efx_expect_refused(e, &r, CUZK_ERR_NOT_FOUND,
                   "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c02"
                   "69b967b4d87ba8b8a525edaa0e165de23ba454510194.params not found");
    cuzk_engine_destroy(e);
    rmdir(empty);
    free_vps(vps, 1);
    cuzk_snap_job_free(s);
}


static void test_snap_prove(void **state)
{
    (void)state;
    const char *env = getenv("CUZK_POREP_PROVE");
    if (env && strcmp(env, "0") == 0) {
        printf("CUZK_POREP_PROVE=0: skipped\n");
        skip();
    }
    cuzk_snap_job *s = set_2k();
    cuzk_snap_partition p = cuzk_snap_job_partition(s, 0);
    cuzk_fr x[4];
    assert_int_equal(cuzk_snap_public_inputs(&p, x, NULL), CUZK_OK);
    cuzk_engine *e = efx_make(NULL, g_keys, efx_quiet);
    cuzk_bytes vps[1];
    cuzk_job_request r = fields_req(s, 1, vps);
    r.sector_size = 2048;
    cuzk_job_ticket t;
    cuzk_error err = {0};
    if (cuzk_engine_submit(e, &r, &t, &err) != CUZK_OK)
        fail_msg("submit: %s", err.msg);
    cuzk_job_result res;
    assert_int_equal(cuzk_engine_await(e, t.job_id, 0, &res, &err), CUZK_OK);
    if (res.state != CUZK_JOB_COMPLETED)
        fail_msg("job: %s", res.error);
    assert_int_equal(res.partitions, 1);
    assert_int_equal(res.priority, CUZK_PRIORITY_NORMAL);
    assert_int_equal(res.proof_len, CUZK_GROTH16_PROOF_BYTES);
    cuzk_groth16_vk vk;
    cuzk_groth16_pvk pvk;
    efx_dev_vk(g_keys, "snap-2k", &vk, &pvk);
    assert_int_equal(vk.n_ic, 5);
    cuzk_groth16_proof proof;
    assert_int_equal(cuzk_groth16_proof_from_bellperson(&proof, res.proof, res.proof_len, NULL),
                     CUZK_OK);
    assert_int_equal(cuzk_groth16_verify(&pvk, x, 4, &proof, NULL), CUZK_OK);
    cuzk_fr_add(&x[3], &x[3], &CUZK_FR_ONE); /* another comm_r_new */
    assert_int_equal(cuzk_groth16_verify(&pvk, x, 4, &proof, NULL), CUZK_ERR_INVALID_PROOF);
    printf("SnapDeals 2 KiB through the engine: key %.1f s, synthesis %.1f s, prove %.1f s\n",
           res.t.srs_load_ms / 1e3, res.t.synthesis_ms / 1e3, res.t.gpu_compute_ms / 1e3);
    cuzk_job_result_free(&res);
    cuzk_groth16_vk_free(&vk);
    cuzk_engine_destroy(e);
    free_vps(vps, 1);
    cuzk_snap_job_free(s);
}

int main(void)
{
    test_rng_init("test_snap_engine");
    bool tmp;
    if (!efx_keys_dir(g_keys, sizeof g_keys, &tmp))
        return 1;
    printf("dev keys in %s\n", g_keys);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snap_shape),
        cmocka_unit_test(test_snap_reject),
        cmocka_unit_test(test_snap_prove),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (!efx_keys_dir_done(g_keys, tmp))
        rc = 1;
    return rc;
}
