/*
 * test_bellperson_files.c — bellperson .vk / .params / proof bytes: write -> read round
 * trips (buffer and file), every truncation length of a .params, flipped bits (an error,
 * or for unchecked vectors a proof that fails verification, never a crash), off-curve and
 * identity points, a key read back from bytes still proving and verifying, and a decode
 * stopped by its pool scope's flag.
 * Independent checks: point equality against the in-memory key, and the pairing check.
 */
#define _DEFAULT_SOURCE /* mkstemp */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "cuzk/pool.h"
#include "test_groth16_circuits.h"
#include "test_rng.h"

static tc_circuit g_c;
static cuzk_groth16_pk g_pk;
static cuzk_groth16_pvk g_pvk;
static uint8_t *g_params;
static size_t g_len;

static int setup(void **st)
{
    (void)st;
    if (tc_xcube(&g_c, 3))
        return -1;
    uint8_t seed[32];
    test_rng_bytes(seed, sizeof seed);
    if (cuzk_groth16_setup_dev(&g_pk, NULL, g_c.r1cs, CUZK_GROTH16_BELLPERSON, seed, NULL,
                               NULL) != CUZK_OK ||
        cuzk_groth16_pvk_prepare(&g_pvk, &g_pk.vk) != CUZK_OK)
        return -1;
    g_len = cuzk_groth16_pk_bellperson_size(&g_pk);
    g_params = malloc(g_len);
    return cuzk_groth16_pk_to_bellperson(g_params, g_len, &g_pk, NULL) == CUZK_OK ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    free(g_params);
    cuzk_groth16_pk_free(&g_pk);
    tc_free(&g_c);
    return 0;
}

/* Proves g_c under pk with fixed r, s; returns the verification status under g_pvk. */
static cuzk_status prove_verify(const cuzk_groth16_pk *pk)
{
    size_t sz = cuzk_groth16_prove_scratch_size(pk, g_c.r1cs, 1);
    if (sz == 0)
        return CUZK_ERR_FORMAT;
    void *scratch = malloc(sz);
    cuzk_witness w = cuzk_witness_dense(g_c.w, g_c.r1cs->n_vars);
    cuzk_groth16_prover_state state;
    cuzk_groth16_proof p;
    cuzk_fr r = tc_u(12345), s = tc_u(67890);
    cuzk_status st = cuzk_groth16_prove_start(&state, pk, g_c.r1cs, &w, scratch, sz, NULL, NULL);
    if (st == CUZK_OK)
        st = cuzk_groth16_prove_finalize(&state, &r, &s, &p, NULL);
    free(scratch);
    if (st == CUZK_OK)
        st = cuzk_groth16_verify(&g_pvk, g_c.w + 1, g_c.r1cs->n_public, &p, NULL);
    return st;
}

static void test_roundtrip(void **st)
{
    (void)st;
    /* the layout arithmetic of filecoin.md 1.2 */
    size_t n = (size_t)1 << g_pk.log2n;
    assert_int_equal(g_len, 864 + 4 + 96 * g_pk.vk.n_ic + 5 * 4 + 96 * (n - 1) + 96 * g_pk.n_l +
                                96 * g_pk.n_a + 96 * g_pk.n_b_g1 + 192 * g_pk.n_b_g2);
    for (int trust = 0; trust < 3; trust++) {
        cuzk_groth16_pk pk;
        cuzk_error err;
        assert_int_equal(cuzk_groth16_pk_from_bellperson(&pk, g_params, g_len,
                                                         (cuzk_params_trust)trust, NULL, &err),
                         CUZK_OK);
        assert_true(cuzk_groth16_pk_eq(&pk, &g_pk));
        assert_int_equal(pk.log2n, g_pk.log2n);
        assert_int_equal(pk.flavour, CUZK_GROTH16_BELLPERSON);
        assert_true(pk.append_input_rows);
        assert_int_equal(prove_verify(&pk), CUZK_OK);
        cuzk_groth16_pk_free(&pk);
    }
    /* the .params starts with exactly the .vk bytes */
    size_t vlen = cuzk_groth16_vk_bellperson_size(&g_pk.vk);
    uint8_t *vb = malloc(vlen);
    assert_int_equal(cuzk_groth16_vk_to_bellperson(vb, vlen, &g_pk.vk, NULL), CUZK_OK);
    assert_memory_equal(vb, g_params, vlen);
    assert_int_equal(cuzk_groth16_vk_to_bellperson(vb, vlen - 1, &g_pk.vk, NULL),
                     CUZK_ERR_LENGTH);
    cuzk_groth16_vk vk;
    size_t used = 0;
    assert_int_equal(cuzk_groth16_vk_from_bellperson(&vk, vb, vlen, NULL, NULL), CUZK_OK);
    assert_true(cuzk_groth16_vk_eq(&vk, &g_pk.vk));
    cuzk_groth16_vk_free(&vk);
    assert_int_equal(cuzk_groth16_vk_from_bellperson(&vk, g_params, g_len, &used, NULL), CUZK_OK);
    assert_int_equal(used, vlen);
    cuzk_groth16_vk_free(&vk);
    assert_int_equal(cuzk_groth16_vk_from_bellperson(&vk, g_params, g_len, NULL, NULL),
                     CUZK_ERR_FORMAT); /* trailing bytes */
    free(vb);
}

/* A decode under a pool scope whose flag is up stops (a stopping daemon does not wait for
 * 44 GiB of points) and leaves nothing to free; with the flag down it decodes as ever. */
static void test_cancel(void **st)
{
    (void)st;
    cuzk_pool *pool = NULL;
    assert_int_equal(cuzk_pool_create(&pool, 3), CUZK_OK);
    volatile int flag = 1;
    cuzk_pool_scope prev = cuzk_pool_scope_enter((cuzk_pool_scope){.cancel = &flag});
    cuzk_groth16_pk pk;
    cuzk_error err = {0};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(cuzk_groth16_pk_from_bellperson(&pk, g_params, g_len,
                                                         CUZK_PARAMS_TRUSTED_ONCURVE,
                                                         k ? NULL : pool, &err),
                         CUZK_ERR_CANCELLED);
        assert_non_null(strstr(err.msg, "cancelled"));
    }
    flag = 0;
    assert_int_equal(cuzk_groth16_pk_from_bellperson(&pk, g_params, g_len,
                                                     CUZK_PARAMS_TRUSTED_ONCURVE, pool, &err),
                     CUZK_OK);
    assert_true(cuzk_groth16_pk_eq(&pk, &g_pk));
    cuzk_groth16_pk_free(&pk);
    cuzk_pool_scope_enter(prev);
    cuzk_pool_destroy(pool);
}

static void test_files(void **st)
{
    (void)st;
    char pp[] = "/tmp/cuzk_g16_XXXXXX";
    int fd = mkstemp(pp);
    assert_true(fd >= 0);
    close(fd);
    cuzk_error err;
    assert_int_equal(cuzk_groth16_pk_save_bellperson(&g_pk, pp, &err), CUZK_OK);
    cuzk_groth16_pk pk;
    cuzk_pool *pool;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    assert_int_equal(cuzk_groth16_pk_load_bellperson(&pk, pp, CUZK_PARAMS_CHECKED, pool, &err),
                     CUZK_OK);
    cuzk_pool_destroy(pool);
    assert_true(cuzk_groth16_pk_eq(&pk, &g_pk));
    cuzk_groth16_pk_free(&pk);
    assert_int_equal(cuzk_groth16_vk_save_bellperson(&g_pk.vk, pp, &err), CUZK_OK);
    cuzk_groth16_vk vk;
    assert_int_equal(cuzk_groth16_vk_load_bellperson(&vk, pp, &err), CUZK_OK);
    assert_true(cuzk_groth16_vk_eq(&vk, &g_pk.vk));
    cuzk_groth16_vk_free(&vk);
    /* a .vk is not a .params */
    assert_int_equal(cuzk_groth16_pk_load_bellperson(&pk, pp, CUZK_PARAMS_CHECKED, NULL, &err),
                     CUZK_ERR_TRUNCATED);
    unlink(pp);
    assert_int_equal(cuzk_groth16_vk_load_bellperson(&vk, pp, &err), CUZK_ERR_IO);
    /* SNARKJS keys have no bellperson form */
    cuzk_groth16_pk sj;
    assert_int_equal(cuzk_groth16_setup_dev(&sj, NULL, g_c.r1cs, CUZK_GROTH16_SNARKJS, NULL, NULL,
                                            NULL),
                     CUZK_OK);
    uint8_t *buf = malloc(cuzk_groth16_pk_bellperson_size(&sj));
    assert_int_equal(cuzk_groth16_pk_to_bellperson(buf, cuzk_groth16_pk_bellperson_size(&sj), &sj,
                                                   NULL),
                     CUZK_ERR_UNSUPPORTED);
    free(buf);
    cuzk_groth16_pk_free(&sj);
}

static void test_truncation(void **st)
{
    (void)st;
    for (size_t len = 0; len < g_len; len++) {
        uint8_t *cut = malloc(len ? len : 1); /* exact-size copy: ASan sees any over-read */
        memcpy(cut, g_params, len);
        cuzk_groth16_pk pk;
        cuzk_error err;
        cuzk_status s = cuzk_groth16_pk_from_bellperson(&pk, cut, len, CUZK_PARAMS_UNCHECKED,
                                                        NULL, &err);
        if (s != CUZK_ERR_TRUNCATED)
            fail_msg("length %zu: %s (%s)", len, cuzk_status_name(s), err.msg);
        free(cut);
    }
    /* trailing garbage */
    uint8_t *more = malloc(g_len + 1);
    memcpy(more, g_params, g_len);
    more[g_len] = 0;
    cuzk_groth16_pk pk;
    assert_int_equal(cuzk_groth16_pk_from_bellperson(&pk, more, g_len + 1, CUZK_PARAMS_CHECKED,
                                                     NULL, NULL),
                     CUZK_ERR_FORMAT);
    free(more);
}

/* Offset where the h vector's points begin (after vk and its count). */
static size_t h_offset(void) { return 864 + 4 + 96 * g_pk.vk.n_ic + 4; }

static void test_flips(void **st)
{
    (void)st;
    uint8_t *buf = malloc(g_len);
    size_t iters = test_iters(48);
    for (size_t it = 0; it < iters; it++) {
        memcpy(buf, g_params, g_len);
        size_t pos = test_rng_u64() % g_len;
        buf[pos] ^= (uint8_t)(1u << (test_rng_u64() % 8));
        cuzk_groth16_pk pk;
        cuzk_error err;
        /* fully checked: every byte is a count or a point coordinate, so it must fail */
        cuzk_status s =
            cuzk_groth16_pk_from_bellperson(&pk, buf, g_len, CUZK_PARAMS_CHECKED, NULL, &err);
        if (s == CUZK_OK)
            fail_msg("flip at %zu accepted by a checked read", pos);
        /* unchecked: either an error or a key whose proof does not verify. Not in a
         * CUZK_VERIFY build: an off-curve point in a key read UNCHECKED breaks the
         * contract that trust level states, and the MSM's VERIFY check aborts on it. */
#ifdef CUZK_VERIFY
        continue;
#endif
        pos = h_offset() + test_rng_u64() % (g_len - h_offset());
        memcpy(buf, g_params, g_len);
        buf[pos] ^= (uint8_t)(1u << (test_rng_u64() % 8));
        s = cuzk_groth16_pk_from_bellperson(&pk, buf, g_len, CUZK_PARAMS_UNCHECKED, NULL, &err);
        if (s == CUZK_OK) {
            cuzk_status v = prove_verify(&pk);
            if (v == CUZK_OK)
                fail_msg("flip at %zu: unchecked key produced a valid proof", pos);
            cuzk_groth16_pk_free(&pk);
        }
    }
    free(buf);
}

/* Writes an off-curve version of p (y + 1) as uncompressed zcash bytes. */
static void off_curve_g1(uint8_t out[96], const cuzk_g1_affine *p)
{
    cuzk_fp y;
    cuzk_fp_add(&y, &p->y, &CUZK_FP_ONE);
    cuzk_fp_to_bytes_be(out, &p->x);
    cuzk_fp_to_bytes_be(out + 48, &y);
}

static void test_bad_points(void **st)
{
    (void)st;
    uint8_t *buf = malloc(g_len);
    cuzk_groth16_pk pk;
    cuzk_groth16_vk vk;
    cuzk_error err;
    /* alpha_g1 off the curve: rejected at every trust level, vk and params readers */
    memcpy(buf, g_params, g_len);
    off_curve_g1(buf, &g_pk.vk.alpha_g1);
    for (int t = 0; t < 3; t++)
        assert_int_equal(cuzk_groth16_pk_from_bellperson(&pk, buf, g_len, (cuzk_params_trust)t,
                                                         NULL, &err),
                         CUZK_ERR_NOT_ON_CURVE);
    assert_non_null(strstr(err.msg, "alpha_g1"));
    assert_int_equal(cuzk_groth16_vk_from_bellperson(&vk, buf, g_len, &(size_t){0}, &err),
                     CUZK_ERR_NOT_ON_CURVE);
    /* ic[1] off the curve */
    memcpy(buf, g_params, g_len);
    off_curve_g1(buf + 868 + 96, &g_pk.vk.ic[1]);
    assert_int_equal(cuzk_groth16_pk_from_bellperson(&pk, buf, g_len, CUZK_PARAMS_UNCHECKED, NULL,
                                                     &err),
                     CUZK_ERR_NOT_ON_CURVE);
    assert_non_null(strstr(err.msg, "ic[1]"));
    /* h[2] off the curve: checked and on-curve reads refuse it, unchecked loads it and the
     * proof fails to verify */
    memcpy(buf, g_params, g_len);
    off_curve_g1(buf + h_offset() + 2 * 96, &g_pk.h[2]);
    assert_int_equal(cuzk_groth16_pk_from_bellperson(&pk, buf, g_len, CUZK_PARAMS_CHECKED, NULL,
                                                     &err),
                     CUZK_ERR_NOT_ON_CURVE);
    assert_non_null(strstr(err.msg, "h[2]"));
    assert_int_equal(cuzk_groth16_pk_from_bellperson(&pk, buf, g_len,
                                                     CUZK_PARAMS_TRUSTED_ONCURVE, NULL, &err),
                     CUZK_ERR_NOT_ON_CURVE);
    assert_int_equal(cuzk_groth16_pk_from_bellperson(&pk, buf, g_len, CUZK_PARAMS_UNCHECKED, NULL,
                                                     &err),
                     CUZK_OK);
#ifndef CUZK_VERIFY /* there the MSM's VERIFY check aborts on the off-curve point (above) */
    assert_int_not_equal(prove_verify(&pk), CUZK_OK);
#endif
    cuzk_groth16_pk_free(&pk);
    /* an identity point in l */
    memcpy(buf, g_params, g_len);
    size_t l0 = h_offset() + 96 * g_pk.n_h + 4;
    memset(buf + l0, 0, 96);
    buf[l0] = 0x40;
    assert_int_equal(cuzk_groth16_pk_from_bellperson(&pk, buf, g_len, CUZK_PARAMS_UNCHECKED, NULL,
                                                     &err),
                     CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "l[0]"));
    /* identity points in the verifying key: gamma_g2, delta_g2, ic[1], in both readers */
    static const struct { size_t off, len; const char *name; } vk_pts[3] = {
        {2 * 96 + 192, 192, "gamma_g2"}, {3 * 96 + 2 * 192, 192, "delta_g2"},
        {868 + 96, 96, "ic[1]"}};
    for (int i = 0; i < 3; i++) {
        memcpy(buf, g_params, g_len);
        memset(buf + vk_pts[i].off, 0, vk_pts[i].len);
        buf[vk_pts[i].off] = 0x40;
        assert_int_equal(cuzk_groth16_vk_from_bellperson(&vk, buf, g_len, &(size_t){0}, &err),
                         CUZK_ERR_FORMAT);
        assert_non_null(strstr(err.msg, vk_pts[i].name));
        assert_int_equal(cuzk_groth16_pk_from_bellperson(&pk, buf, g_len, CUZK_PARAMS_UNCHECKED,
                                                         NULL, &err),
                         CUZK_ERR_FORMAT);
    }
    free(buf);
}

static void test_proof_bytes(void **st)
{
    (void)st;
    cuzk_groth16_proof p[3], q[3];
    size_t sz = cuzk_groth16_prove_scratch_size(&g_pk, g_c.r1cs, 1);
    void *scratch = malloc(sz);
    cuzk_witness w = cuzk_witness_dense(g_c.w, g_c.r1cs->n_vars);
    for (int i = 0; i < 3; i++)
        assert_int_equal(cuzk_groth16_prove(&p[i], &g_pk, g_c.r1cs, &w, scratch, sz, NULL, NULL),
                         CUZK_OK);
    free(scratch);
    uint8_t bytes[3 * CUZK_GROTH16_PROOF_BYTES];
    cuzk_groth16_proofs_to_bellperson(bytes, p, 3);
    assert_int_equal(bytes[0] & 0x80, 0x80); /* compressed flag */
    assert_int_equal(cuzk_groth16_proofs_from_bellperson(q, 3, bytes, sizeof bytes, NULL),
                     CUZK_OK);
    for (int i = 0; i < 3; i++) {
        assert_true(cuzk_g1_affine_eq(&p[i].a, &q[i].a));
        assert_true(cuzk_g2_affine_eq(&p[i].b, &q[i].b));
        assert_true(cuzk_g1_affine_eq(&p[i].c, &q[i].c));
        assert_int_equal(cuzk_groth16_verify(&g_pvk, g_c.w + 1, 1, &q[i], NULL), CUZK_OK);
    }
    assert_int_equal(cuzk_groth16_proofs_from_bellperson(q, 3, bytes, sizeof bytes - 1, NULL),
                     CUZK_ERR_LENGTH);
    assert_int_equal(cuzk_groth16_proof_from_bellperson(q, bytes, 191, NULL), CUZK_ERR_LENGTH);
    /* A, B or C at infinity: refused at decode time, as bellperson's Proof::read does */
    static const struct { size_t off, len; const char *name; } parts[3] = {
        {0, 48, "A at"}, {48, 96, "B at"}, {144, 48, "C at"}};
    for (int i = 0; i < 3; i++) {
        uint8_t b[CUZK_GROTH16_PROOF_BYTES];
        memcpy(b, bytes, sizeof b);
        memset(b + parts[i].off, 0, parts[i].len);
        b[parts[i].off] = 0xc0; /* compressed | infinity */
        cuzk_groth16_proof t;
        cuzk_error e;
        assert_int_equal(cuzk_groth16_proof_from_bellperson(&t, b, sizeof b, &e),
                         CUZK_ERR_FORMAT);
        assert_non_null(strstr(e.msg, parts[i].name));
        assert_non_null(strstr(e.msg, "infinity"));
    }
    /* flipped bits in a proof: an error or a proof that does not verify */
    for (size_t it = 0; it < test_iters(32); it++) {
        uint8_t b[CUZK_GROTH16_PROOF_BYTES];
        memcpy(b, bytes, sizeof b);
        size_t pos = test_rng_u64() % sizeof b;
        b[pos] ^= (uint8_t)(1u << (test_rng_u64() % 8));
        cuzk_groth16_proof t;
        if (cuzk_groth16_proof_from_bellperson(&t, b, sizeof b, NULL) == CUZK_OK)
            assert_int_equal(cuzk_groth16_verify(&g_pvk, g_c.w + 1, 1, &t, NULL),
                             CUZK_ERR_INVALID_PROOF);
    }
    /* public inputs */
    uint8_t xb[32];
    cuzk_fr x;
    cuzk_frs_to_bellperson(xb, g_c.w + 1, 1);
    assert_int_equal(xb[0], 35); /* x^3 + x + 5 at x = 3, little-endian */
    assert_int_equal(cuzk_frs_from_bellperson(&x, 1, xb, 32, NULL), CUZK_OK);
    assert_true(cuzk_fr_eq(&x, &g_c.w[1]));
    memset(xb, 0xff, sizeof xb);
    assert_int_equal(cuzk_frs_from_bellperson(&x, 1, xb, 32, NULL), CUZK_ERR_NONCANONICAL);
    assert_int_equal(cuzk_frs_from_bellperson(&x, 1, xb, 31, NULL), CUZK_ERR_LENGTH);
}

int main(void)
{
    test_rng_init("bellperson_files");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),  cmocka_unit_test(test_files),
        cmocka_unit_test(test_truncation), cmocka_unit_test(test_flips),
        cmocka_unit_test(test_bad_points), cmocka_unit_test(test_proof_bytes),
        cmocka_unit_test(test_cancel),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
