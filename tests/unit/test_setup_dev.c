/*
 * test_setup_dev.c — cuzk_groth16_setup_dev against a slow reference written here.
 *
 * With a fresh 32-byte seed, the toxic waste the seeded setup uses is taken from
 * g16_setup_dev_waste; the reference then rebuilds every point of the key the textbook
 * way: Lagrange polynomials as products over the domain (O(n^2), no batch inversion),
 * A/B/C(tau) per variable from the CSR, each point a separate constant-time GLV/GLS
 * multiplication of the generator. Every point of a, b_g1, b_g2, h, l, ic and the
 * verifying key must be equal, for both flavours (bellperson: density-filtered a/b and
 * h = tau^i t(tau)/delta; snarkjs: every variable, h from the odd 2n-th roots) on a few
 * tiny circuits (a multiplication chain, publics, bits, C-only and B-only variables).
 * A proof made with the key verifies, and not with a changed input.
 *
 * Single-threaded except the setup, which gets a 2-thread pool (so the per-worker scratch
 * of the fast path is exercised).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cuzk/groth16.h"
#include "cuzk/poly.h"
#include "cuzk/pool.h"
#include "groth16/groth16_internal.h"
#include "test_groth16_circuits.h"
#include "test_rng.h"

enum { TAU, ALPHA, BETA, GAMMA, DELTA };

/* prod_{k != j} (x - r_k) / (r_j - r_k) over the N points r_k. */
static void lagrange_at(cuzk_fr *out, const cuzk_fr *roots, size_t N, size_t j, const cuzk_fr *x)
{
    cuzk_fr num = CUZK_FR_ONE, den = CUZK_FR_ONE, t;
    for (size_t k = 0; k < N; k++) {
        if (k == j)
            continue;
        cuzk_fr_sub(&t, x, &roots[k]);
        cuzk_fr_mul(&num, &num, &t);
        cuzk_fr_sub(&t, &roots[j], &roots[k]);
        cuzk_fr_mul(&den, &den, &t);
    }
    cuzk_fr_inv(&den, &den);
    cuzk_fr_mul(out, &num, &den);
}

static void powers(cuzk_fr *out, size_t N, const cuzk_fr *g)
{
    out[0] = CUZK_FR_ONE;
    for (size_t k = 1; k < N; k++)
        cuzk_fr_mul(&out[k], &out[k - 1], g);
}

static void want_g1(const cuzk_g1_affine *got, const cuzk_fr *k, const char *what, size_t i)
{
    cuzk_g1_jac g, p;
    cuzk_g1_affine a;
    cuzk_g1_jac_from_affine(&g, &CUZK_G1_GENERATOR);
    cuzk_g1_jac_mul(&p, &g, k);
    cuzk_g1_jac_to_affine(&a, &p);
    if (!cuzk_g1_affine_eq(got, &a))
        fail_msg("%s[%zu] differs from the reference", what, i);
}

static void want_g2(const cuzk_g2_affine *got, const cuzk_fr *k, const char *what, size_t i)
{
    cuzk_g2_jac g, p;
    cuzk_g2_affine a;
    cuzk_g2_jac_from_affine(&g, &CUZK_G2_GENERATOR);
    cuzk_g2_jac_mul(&p, &g, k);
    cuzk_g2_jac_to_affine(&a, &p);
    if (!cuzk_g2_affine_eq(got, &a))
        fail_msg("%s[%zu] differs from the reference", what, i);
}

static void check_key(const tc_circuit *c, cuzk_groth16_flavour fl, cuzk_pool *pool)
{
    const cuzk_r1cs *r = c->r1cs;
    bool sj = fl == CUZK_GROTH16_SNARKJS;
    uint8_t seed[32];
    test_rng_bytes(seed, sizeof seed);
    cuzk_groth16_pk pk;
    cuzk_groth16_vk vk;
    cuzk_error err = {0};
    memset(&pk, 0, sizeof pk);
    if (cuzk_groth16_setup_dev(&pk, &vk, r, fl, seed, pool, &err) != CUZK_OK)
        fail_msg("setup: %s", err.msg);
    cuzk_fr W[5];
    g16_setup_dev_waste(W, seed);

    cuzk_domain *dom = malloc(sizeof *dom);
    assert_non_null(dom);
    assert_int_equal(sj ? cuzk_domain_init_snarkjs(dom, pk.log2n)
                        : cuzk_domain_init_bellperson(dom, pk.log2n),
                     CUZK_OK);
    size_t n = (size_t)1 << pk.log2n, m = r->n_constraints, nv = r->n_vars;
    size_t aux0 = 1 + r->n_public;
    cuzk_fr *roots = malloc(2 * n * sizeof *roots), *lag = malloc(n * sizeof *lag);
    cuzk_fr *uvw = calloc(3 * nv, sizeof *uvw);
    assert_true(roots && lag && uvw);
    powers(roots, n, &dom->omega);
    for (size_t j = 0; j < n; j++)
        lagrange_at(&lag[j], roots, n, j, &W[TAU]);
    for (int mat = 0; mat < 3; mat++)
        for (size_t j = 0; j < m; j++)
            for (uint64_t k = r->m[mat].row_ptr[j]; k < r->m[mat].row_ptr[j + 1]; k++) {
                cuzk_fr t;
                cuzk_fr_mul(&t, &r->m[mat].coeff[k], &lag[j]);
                cuzk_fr *dst = &uvw[mat * nv + r->m[mat].col[k]];
                cuzk_fr_add(dst, dst, &t);
            }
    for (size_t i = 0; i < aux0; i++) /* input rows var_i * 0 = 0 */
        cuzk_fr_add(&uvw[i], &uvw[i], &lag[m + i]);

    cuzk_fr gi, di;
    cuzk_fr_inv(&gi, &W[GAMMA]);
    cuzk_fr_inv(&di, &W[DELTA]);
    size_t na = 0, nb = 0;
    for (size_t v = 0; v < nv; v++) {
        cuzk_fr t, q;
        cuzk_fr_mul(&t, &W[BETA], &uvw[v]);
        cuzk_fr_mul(&q, &W[ALPHA], &uvw[nv + v]);
        cuzk_fr_add(&t, &t, &q);
        cuzk_fr_add(&t, &t, &uvw[2 * nv + v]);
        if (v < aux0) {
            cuzk_fr_mul(&t, &t, &gi);
            want_g1(&pk.vk.ic[v], &t, "ic", v);
        } else {
            cuzk_fr_mul(&t, &t, &di);
            want_g1(&pk.l[v - aux0], &t, "l", v - aux0);
        }
        if (sj || v < aux0 || cuzk_r1cs_density_test(r, CUZK_R1CS_A, (uint32_t)v)) {
            assert_true(na < pk.n_a);
            want_g1(&pk.a[na++], &uvw[v], "a", v);
        }
        if (sj || cuzk_r1cs_density_test(r, CUZK_R1CS_B, (uint32_t)v)) {
            assert_true(nb < pk.n_b_g1);
            want_g1(&pk.b_g1[nb], &uvw[nv + v], "b_g1", v);
            want_g2(&pk.b_g2[nb++], &uvw[nv + v], "b_g2", v);
        }
    }
    assert_int_equal(na, pk.n_a);
    assert_int_equal(nb, pk.n_b_g1);

    if (!sj) { /* tau^i (tau^n - 1) / delta, i < n - 1 */
        assert_int_equal(pk.n_h, n - 1);
        cuzk_fr t = CUZK_FR_ONE, z;
        for (size_t i = 0; i < n; i++)
            cuzk_fr_mul(&t, &t, &W[TAU]);
        cuzk_fr_sub(&z, &t, &CUZK_FR_ONE);
        cuzk_fr_mul(&z, &z, &di);
        for (size_t i = 0; i < pk.n_h; i++) {
            want_g1(&pk.h[i], &z, "h", i);
            cuzk_fr_mul(&z, &z, &W[TAU]);
        }
    } else { /* L^{2n}_{2j+1}(tau) / delta over the 2n-th roots shift^k */
        assert_int_equal(pk.n_h, n);
        powers(roots, 2 * n, &dom->shift);
        for (size_t j = 0; j < pk.n_h; j++) {
            cuzk_fr t;
            lagrange_at(&t, roots, 2 * n, 2 * j + 1, &W[TAU]);
            cuzk_fr_mul(&t, &t, &di);
            want_g1(&pk.h[j], &t, "h", j);
        }
    }
    want_g1(&pk.vk.alpha_g1, &W[ALPHA], "alpha_g1", 0);
    want_g1(&pk.vk.beta_g1, &W[BETA], "beta_g1", 0);
    want_g1(&pk.vk.delta_g1, &W[DELTA], "delta_g1", 0);
    want_g2(&pk.vk.beta_g2, &W[BETA], "beta_g2", 0);
    want_g2(&pk.vk.gamma_g2, &W[GAMMA], "gamma_g2", 0);
    want_g2(&pk.vk.delta_g2, &W[DELTA], "delta_g2", 0);
    assert_true(cuzk_groth16_vk_eq(&pk.vk, &vk));

    /* and the key works */
    size_t sz = cuzk_groth16_prove_scratch_size(&pk, r, 1);
    void *scratch = malloc(sz);
    assert_non_null(scratch);
    cuzk_witness wd = cuzk_witness_dense(c->w, (uint32_t)nv);
    cuzk_groth16_proof proof;
    if (cuzk_groth16_prove(&proof, &pk, r, &wd, scratch, sz, NULL, &err) != CUZK_OK)
        fail_msg("prove: %s", err.msg);
    cuzk_groth16_pvk pvk;
    assert_int_equal(cuzk_groth16_pvk_prepare(&pvk, &vk), CUZK_OK);
    cuzk_fr *x = malloc((r->n_public + 1) * sizeof *x);
    assert_non_null(x);
    memcpy(x, c->w + 1, r->n_public * sizeof *x);
    assert_int_equal(cuzk_groth16_verify(&pvk, x, r->n_public, &proof, &err), CUZK_OK);
    cuzk_fr_add(&x[0], &x[0], &CUZK_FR_ONE);
    assert_int_equal(cuzk_groth16_verify(&pvk, x, r->n_public, &proof, &err),
                     CUZK_ERR_INVALID_PROOF);

    free(x);
    free(scratch);
    free(roots);
    free(lag);
    free(uvw);
    free(dom);
    cuzk_groth16_pk_free(&pk);
    cuzk_groth16_vk_free(&vk);
}

static void test_against_reference(void **state)
{
    (void)state;
    cuzk_pool *pool = NULL;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    tc_circuit c;
    assert_int_equal(tc_xcube(&c, 3 + test_rng_u64() % 1000), 0);
    check_key(&c, CUZK_GROTH16_BELLPERSON, pool);
    check_key(&c, CUZK_GROTH16_SNARKJS, NULL);
    tc_free(&c);
    assert_int_equal(tc_mixed(&c, 3, 4, 5, test_rng_u64()), 0);
    check_key(&c, CUZK_GROTH16_BELLPERSON, pool);
    check_key(&c, CUZK_GROTH16_SNARKJS, pool);
    tc_free(&c);
    /* a circuit past one 512-point chunk of the fast path, with odd sizes */
    assert_int_equal(tc_mixed(&c, 2, 300, 333, test_rng_u64()), 0);
    check_key(&c, CUZK_GROTH16_BELLPERSON, pool);
    tc_free(&c);
    cuzk_pool_destroy(pool);
}

int main(void)
{
    test_rng_init("test_setup_dev");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
