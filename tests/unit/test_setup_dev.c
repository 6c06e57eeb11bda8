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
 * Pool sizes: the setup splits every step over its pool, and the split must not change a
 * byte: the same seed with no pool and with pools of 1, 2 and 3 threads gives identical
 * keys (real keys on small circuits; on larger ones, where real multiplications would be
 * too slow for a unit test, a fixed-base hook that stores each scalar in its point's x
 * instead, so the keys carry the setup's scalars: the synthetic PoRep-shaped circuit at
 * 2^15 and a circuit with more inputs than the per-worker input sums take and more
 * variables than one gather block, both flavours). The hook's contract is checked too:
 * every vector goes through it, and an error it returns fails the setup.
 * Cancel (test_cancel): the options' flag, set before the setup, after any hook call or at
 * any progress line of the pool path, ends it with CUZK_ERR_CANCELLED and no key.
 *
 * Single-threaded except the setup, which gets 2- and 3-thread pools (so the per-worker
 * scratch of the fast path is exercised).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cuzk/circuits.h"
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

/* ---- pool sizes ------------------------------------------------------------------ */

static bool bytes_eq(const void *a, const void *b, size_t n)
{
    return n == 0 || memcmp(a, b, n) == 0;
}

/* Byte equality of two keys (not group equality: the bytes are what a file holds). */
static bool keys_same(const cuzk_groth16_pk *a, const cuzk_groth16_pk *b)
{
    const cuzk_groth16_vk *x = &a->vk, *y = &b->vk;
    return a->flavour == b->flavour && a->log2n == b->log2n && x->n_ic == y->n_ic &&
           a->n_h == b->n_h && a->n_l == b->n_l && a->n_a == b->n_a &&
           a->n_b_g1 == b->n_b_g1 && a->n_b_g2 == b->n_b_g2 &&
           bytes_eq(&x->alpha_g1, &y->alpha_g1, sizeof x->alpha_g1) &&
           bytes_eq(&x->beta_g1, &y->beta_g1, sizeof x->beta_g1) &&
           bytes_eq(&x->delta_g1, &y->delta_g1, sizeof x->delta_g1) &&
           bytes_eq(&x->beta_g2, &y->beta_g2, sizeof x->beta_g2) &&
           bytes_eq(&x->gamma_g2, &y->gamma_g2, sizeof x->gamma_g2) &&
           bytes_eq(&x->delta_g2, &y->delta_g2, sizeof x->delta_g2) &&
           bytes_eq(x->ic, y->ic, x->n_ic * sizeof *x->ic) &&
           bytes_eq(a->h, b->h, a->n_h * sizeof *a->h) &&
           bytes_eq(a->l, b->l, a->n_l * sizeof *a->l) &&
           bytes_eq(a->a, b->a, a->n_a * sizeof *a->a) &&
           bytes_eq(a->b_g1, b->b_g1, a->n_b_g1 * sizeof *a->b_g1) &&
           bytes_eq(a->b_g2, b->b_g2, a->n_b_g2 * sizeof *a->b_g2);
}

/* The scalar-recording hook: r[i] = (k[i] in x's first bytes, 0) */
typedef struct fake_hook {
    size_t points, calls;
    size_t fail_at;   /* the call that fails (0: none) */
    size_t cancel_at; /* the call after which *cancel is set (0: none) */
    volatile int *cancel;
} fake_hook;

static cuzk_status fake_common(fake_hook *f, void *r, size_t sz, const cuzk_fr *k, size_t n,
                               cuzk_error *err)
{
    if (++f->calls == f->fail_at)
        return cuzk_error_set(err, CUZK_ERR_CUDA, "fake device failure");
    if (f->calls == f->cancel_at)
        *f->cancel = 1; /* as a stopping daemon would, while this batch runs */
    memset(r, 0, n * sz);
    for (size_t i = 0; i < n; i++)
        memcpy((uint8_t *)r + i * sz, &k[i], sizeof k[i]);
    f->points += n;
    return CUZK_OK;
}

static cuzk_status fake_g1s(void *ctx, cuzk_g1_affine *r, const cuzk_fr *k, size_t n,
                            cuzk_error *err)
{
    return fake_common(ctx, r, sizeof *r, k, n, err);
}

static cuzk_status fake_g2s(void *ctx, cuzk_g2_affine *r, const cuzk_fr *k, size_t n,
                            cuzk_error *err)
{
    return fake_common(ctx, r, sizeof *r, k, n, err);
}

/* The key of r1cs for one seed with no pool and pools of 1, 2, 3 threads: all the same
 * bytes. fake: through the scalar-recording hook. */
static void same_for_every_pool(const cuzk_r1cs *r, cuzk_groth16_flavour fl, bool fake)
{
    uint8_t seed[32];
    test_rng_bytes(seed, sizeof seed);
    fake_hook f = {0};
    cuzk_groth16_fixed_base_hook hook = {&f, fake_g1s, fake_g2s, "fake"};
    cuzk_groth16_setup_opts opts = {&hook, NULL, NULL, NULL};
    cuzk_groth16_pk first;
    cuzk_error err = {0};
    for (unsigned t = 0; t <= 3; t++) {
        cuzk_pool *pool = NULL;
        if (t)
            assert_int_equal(cuzk_pool_create(&pool, t), CUZK_OK);
        cuzk_groth16_pk pk;
        f.points = f.calls = 0;
        if (cuzk_groth16_setup_dev_ex(&pk, NULL, r, fl, seed, pool, fake ? &opts : NULL,
                                      &err) != CUZK_OK)
            fail_msg("setup (pool %u): %s", t, err.msg);
        if (fake) /* every vector went through the hook (the vk: 3 + 3 points) */
            assert_int_equal(f.points, pk.vk.n_ic + pk.n_h + pk.n_l + pk.n_a + pk.n_b_g1 +
                                           pk.n_b_g2 + 6);
        if (t == 0) {
            first = pk;
        } else {
            if (!keys_same(&first, &pk))
                fail_msg("pool of %u thread(s): the key differs from the pool-less one", t);
            cuzk_groth16_pk_free(&pk);
        }
        cuzk_pool_destroy(pool);
    }
    cuzk_groth16_pk_free(&first);
}

static void test_pool_sizes(void **state)
{
    (void)state;
    tc_circuit c;
    /* real keys */
    assert_int_equal(tc_mixed(&c, 3, 40, 30, test_rng_u64()), 0);
    same_for_every_pool(c.r1cs, CUZK_GROTH16_BELLPERSON, false);
    same_for_every_pool(c.r1cs, CUZK_GROTH16_SNARKJS, false);
    tc_free(&c);
    cuzk_synthetic syn;
    cuzk_error e;
    assert_int_equal(cuzk_synthetic_porep(&syn, 10, test_rng_u64(), NULL, &e), CUZK_OK);
    same_for_every_pool(syn.r1cs, CUZK_GROTH16_BELLPERSON, false);
    cuzk_synthetic_free(&syn);
    /* the scalars at sizes past every block of the split (rows, domain points, variables,
     * column ranges), non-unit coefficients (the synthetic circuit) */
    assert_int_equal(cuzk_synthetic_porep(&syn, 15, test_rng_u64(), NULL, &e), CUZK_OK);
    same_for_every_pool(syn.r1cs, CUZK_GROTH16_BELLPERSON, true);
    same_for_every_pool(syn.r1cs, CUZK_GROTH16_SNARKJS, true);
    cuzk_synthetic_free(&syn);
    /* 1,500 inputs (more than the per-worker input sums take), 70,000 bits */
    assert_int_equal(tc_mixed(&c, 1500, 50, 70000, test_rng_u64()), 0);
    same_for_every_pool(c.r1cs, CUZK_GROTH16_BELLPERSON, true);
    same_for_every_pool(c.r1cs, CUZK_GROTH16_SNARKJS, true);
    tc_free(&c);
}

/* A hook's error fails the setup with that error, at any of its calls, and leaves pk
 * untouched; an incomplete hook is refused. */
static void test_hook_errors(void **state)
{
    (void)state;
    tc_circuit c;
    assert_int_equal(tc_mixed(&c, 2, 10, 10, test_rng_u64()), 0);
    fake_hook f = {0};
    cuzk_groth16_fixed_base_hook hook = {&f, fake_g1s, fake_g2s, "fake"};
    cuzk_groth16_setup_opts opts = {&hook, NULL, NULL, NULL};
    cuzk_groth16_pk pk;
    cuzk_error err = {0};
    assert_int_equal(cuzk_groth16_setup_dev_ex(&pk, NULL, c.r1cs, CUZK_GROTH16_BELLPERSON,
                                               NULL, NULL, &opts, &err),
                     CUZK_OK);
    size_t calls = f.calls;
    cuzk_groth16_pk_free(&pk);
    for (size_t at = 1; at <= calls; at++) {
        f.calls = 0;
        f.fail_at = at;
        memset(&pk, 0xa5, sizeof pk);
        assert_int_equal(cuzk_groth16_setup_dev_ex(&pk, NULL, c.r1cs, CUZK_GROTH16_BELLPERSON,
                                                   NULL, NULL, &opts, &err),
                         CUZK_ERR_CUDA);
        assert_non_null(strstr(err.msg, "fake device failure"));
        assert_int_equal(((uint8_t *)&pk)[0], 0xa5);
    }
    hook.g2s = NULL;
    assert_int_equal(cuzk_groth16_setup_dev_ex(&pk, NULL, c.r1cs, CUZK_GROTH16_BELLPERSON,
                                               NULL, NULL, &opts, &err),
                     CUZK_ERR_INVALID_ARG);
    tc_free(&c);
}

/* The cancel flag (cuzk_groth16_setup_opts.cancel): set before the setup, after any of
 * the hook's calls, or at any of the pool path's progress lines (between its steps), the
 * setup returns CUZK_ERR_CANCELLED and leaves pk untouched; unset, the same options make
 * the key. */
typedef struct cancel_log {
    size_t lines, at;
    volatile int *cancel;
} cancel_log;

static void cancel_log_fn(void *ctx, const char *msg)
{
    cancel_log *c = ctx;
    (void)msg;
    if (++c->lines == c->at)
        *c->cancel = 1;
}

static void test_cancel(void **state)
{
    (void)state;
    tc_circuit c;
    assert_int_equal(tc_mixed(&c, 2, 40, 40, test_rng_u64()), 0);
    volatile int cancel = 0;
    fake_hook f = {0};
    f.cancel = &cancel;
    cuzk_groth16_fixed_base_hook hook = {&f, fake_g1s, fake_g2s, "fake"};
    cuzk_groth16_setup_opts opts = {&hook, NULL, NULL, &cancel};
    cuzk_groth16_pk pk;
    cuzk_error err = {0};
    assert_int_equal(cuzk_groth16_setup_dev_ex(&pk, NULL, c.r1cs, CUZK_GROTH16_BELLPERSON,
                                               NULL, NULL, &opts, &err),
                     CUZK_OK);
    cuzk_groth16_pk_free(&pk);
    size_t calls = f.calls;
    assert_true(calls > 3);
    cancel = 1; /* before it starts */
    memset(&pk, 0xa5, sizeof pk);
    assert_int_equal(cuzk_groth16_setup_dev_ex(&pk, NULL, c.r1cs, CUZK_GROTH16_BELLPERSON,
                                               NULL, NULL, &opts, &err),
                     CUZK_ERR_CANCELLED);
    assert_int_equal(((uint8_t *)&pk)[0], 0xa5);
    /* after hook call k, the setup's last call included: nothing after it is a key */
    for (size_t at = 1; at <= calls; at++) {
        cancel = 0;
        f.calls = 0;
        f.cancel_at = at;
        memset(&pk, 0xa5, sizeof pk);
        cuzk_status st = cuzk_groth16_setup_dev_ex(&pk, NULL, c.r1cs, CUZK_GROTH16_BELLPERSON,
                                                   NULL, NULL, &opts, &err);
        if (st != CUZK_ERR_CANCELLED)
            fail_msg("cancelled after hook call %zu of %zu: status %d", at, calls, (int)st);
        assert_int_equal(f.calls, at); /* no call after the flag */
        assert_int_equal(((uint8_t *)&pk)[0], 0xa5);
    }
    /* the pool path (real multiplications, 2 threads): at each progress line but the
     * last, which comes once the key is made */
    cuzk_pool *pool;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    cancel_log cl = {0, 0, &cancel};
    cuzk_groth16_setup_opts po = {NULL, cancel_log_fn, &cl, &cancel};
    cancel = 0;
    assert_int_equal(cuzk_groth16_setup_dev_ex(&pk, NULL, c.r1cs, CUZK_GROTH16_SNARKJS, NULL,
                                               pool, &po, &err),
                     CUZK_OK);
    cuzk_groth16_pk_free(&pk);
    size_t lines = cl.lines;
    assert_true(lines > 3);
    for (size_t at = 1; at < lines; at++) {
        cancel = 0;
        cl.lines = 0;
        cl.at = at;
        memset(&pk, 0xa5, sizeof pk);
        cuzk_status st = cuzk_groth16_setup_dev_ex(&pk, NULL, c.r1cs, CUZK_GROTH16_SNARKJS,
                                                   NULL, pool, &po, &err);
        if (st != CUZK_ERR_CANCELLED)
            fail_msg("cancelled at progress line %zu of %zu: status %d", at, lines, (int)st);
        assert_non_null(strstr(err.msg, "cancelled"));
        assert_int_equal(((uint8_t *)&pk)[0], 0xa5);
    }
    cuzk_pool_destroy(pool);
    tc_free(&c);
}

int main(void)
{
    test_rng_init("test_setup_dev");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_reference),
        cmocka_unit_test(test_pool_sizes),
        cmocka_unit_test(test_hook_errors),
        cmocka_unit_test(test_cancel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
