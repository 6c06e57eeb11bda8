/*
 * test_groth16.c — Groth16 end to end on small circuits: dev setup -> prove -> verify in
 * both key flavours, rejection of tampered proofs / wrong inputs / foreign keys, batch
 * verification, determinism of start + finalize, unsatisfied witnesses, and the A / B
 * parts of a proof against a naive double-and-add sum (independent of the MSM code).
 * The pairing check is the independent oracle for everything else (H, L, C).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/groth16.h"
#include "cuzk/pool.h"
#include "test_groth16_circuits.h"
#include "test_rng.h"

typedef struct keyset {
    cuzk_groth16_pk pk;
    cuzk_groth16_vk vk;
    cuzk_groth16_pvk pvk;
} keyset;

static void make_keys(keyset *k, const tc_circuit *c, cuzk_groth16_flavour fl, uint8_t tag)
{
    uint8_t seed[32];
    test_rng_bytes(seed, sizeof seed);
    seed[0] ^= tag;
    cuzk_error err;
    assert_int_equal(cuzk_groth16_setup_dev(&k->pk, &k->vk, c->r1cs, fl, seed, NULL, &err),
                     CUZK_OK);
    assert_true(cuzk_groth16_vk_eq(&k->pk.vk, &k->vk));
    assert_int_equal(cuzk_groth16_pvk_prepare(&k->pvk, &k->vk), CUZK_OK);
}

static void free_keys(keyset *k)
{
    cuzk_groth16_pk_free(&k->pk);
    cuzk_groth16_vk_free(&k->vk);
}

static cuzk_status prove_rs(cuzk_groth16_proof *p, const keyset *k, const tc_circuit *c,
                            const cuzk_fr *r, const cuzk_fr *s, cuzk_pool *pool,
                            cuzk_error *err)
{
    size_t sz = cuzk_groth16_prove_scratch_size(&k->pk, c->r1cs, cuzk_pool_nthreads(pool));
    assert_true(sz > 0);
    void *scratch = malloc(sz);
    cuzk_witness w = cuzk_witness_dense(c->w, c->r1cs->n_vars);
    cuzk_status st;
    if (r) {
        cuzk_groth16_prover_state state;
        st = cuzk_groth16_prove_start(&state, &k->pk, c->r1cs, &w, scratch, sz, pool, err);
        if (st == CUZK_OK)
            st = cuzk_groth16_prove_finalize(&state, r, s, p, err);
    } else {
        st = cuzk_groth16_prove(p, &k->pk, c->r1cs, &w, scratch, sz, pool, err);
    }
    free(scratch);
    return st;
}

static const cuzk_fr *publics(const tc_circuit *c) { return c->w + 1; }

static bool proof_eq(const cuzk_groth16_proof *a, const cuzk_groth16_proof *b)
{
    return cuzk_g1_affine_eq(&a->a, &b->a) && cuzk_g2_affine_eq(&a->b, &b->b) &&
           cuzk_g1_affine_eq(&a->c, &b->c);
}

/* prove + verify, tampering and wrong inputs, for one circuit and flavour */
static void roundtrip(const tc_circuit *c, cuzk_groth16_flavour fl)
{
    keyset k;
    make_keys(&k, c, fl, 1);
    cuzk_error err;
    cuzk_groth16_proof p;
    size_t np = c->r1cs->n_public;
    assert_int_equal(prove_rs(&p, &k, c, NULL, NULL, NULL, &err), CUZK_OK);
    assert_int_equal(cuzk_groth16_verify(&k.pvk, publics(c), np, &p, &err), CUZK_OK);

    /* each of A, B, C replaced by another valid point */
    cuzk_groth16_proof t = p;
    cuzk_g1_jac j;
    cuzk_g1_jac_from_affine(&j, &t.a);
    cuzk_g1_jac_add_affine(&j, &j, &CUZK_G1_GENERATOR);
    cuzk_g1_jac_to_affine(&t.a, &j);
    assert_int_equal(cuzk_groth16_verify(&k.pvk, publics(c), np, &t, NULL),
                     CUZK_ERR_INVALID_PROOF);
    t = p;
    cuzk_g2_jac j2;
    cuzk_g2_jac_from_affine(&j2, &t.b);
    cuzk_g2_jac_dbl(&j2, &j2);
    cuzk_g2_jac_to_affine(&t.b, &j2);
    assert_int_equal(cuzk_groth16_verify(&k.pvk, publics(c), np, &t, NULL),
                     CUZK_ERR_INVALID_PROOF);
    t = p;
    t.c = p.a;
    assert_int_equal(cuzk_groth16_verify(&k.pvk, publics(c), np, &t, NULL),
                     CUZK_ERR_INVALID_PROOF);

    /* each public input changed in turn */
    cuzk_fr *x = malloc((np + 1) * sizeof *x);
    for (size_t i = 0; i < np; i++) {
        memcpy(x, publics(c), np * sizeof *x);
        cuzk_fr one = CUZK_FR_ONE;
        cuzk_fr_add(&x[i], &x[i], &one);
        assert_int_equal(cuzk_groth16_verify(&k.pvk, x, np, &p, NULL), CUZK_ERR_INVALID_PROOF);
    }
    /* wrong input count */
    assert_int_equal(cuzk_groth16_verify(&k.pvk, publics(c), np + 1, &p, NULL),
                     CUZK_ERR_INVALID_ARG);
    free(x);

    /* a different key for the same circuit rejects the proof */
    keyset k2;
    make_keys(&k2, c, fl, 2);
    assert_int_equal(cuzk_groth16_verify(&k2.pvk, publics(c), np, &p, NULL),
                     CUZK_ERR_INVALID_PROOF);
    free_keys(&k2);
    free_keys(&k);
}

static void test_xcube(void **st)
{
    (void)st;
    tc_circuit c;
    assert_int_equal(tc_xcube(&c, 3), 0);
    roundtrip(&c, CUZK_GROTH16_BELLPERSON);
    roundtrip(&c, CUZK_GROTH16_SNARKJS);
    tc_free(&c);
}

static void test_mixed(void **st)
{
    (void)st;
    size_t iters = test_iters(2);
    for (size_t it = 0; it < iters; it++) {
        tc_circuit c;
        uint32_t np = 1 + (uint32_t)(test_rng_u64() % 5);
        uint32_t k = (uint32_t)(test_rng_u64() % 20);
        uint32_t bits = 64 + (uint32_t)(test_rng_u64() % 300); /* enough ones to split */
        assert_int_equal(tc_mixed(&c, np, k, bits, test_rng_u64()), 0);
        roundtrip(&c, it & 1 ? CUZK_GROTH16_SNARKJS : CUZK_GROTH16_BELLPERSON);
        tc_free(&c);
    }
}

/* n_pub public inputs with the given values and one row (p_0 + ... + p_{n-1} + ONE) * ONE
 * = y: every input is in A and in the key's IC. */
static void wide_circuit(tc_circuit *c, const cuzk_fr *pub, uint32_t n_pub)
{
    cuzk_r1cs_builder *b;
    assert_int_equal(cuzk_r1cs_builder_create(&b, NULL), CUZK_OK);
    cuzk_r1cs_builder_alloc_public(b, n_pub, NULL, NULL);
    cuzk_r1cs_builder_alloc_aux(b, 1, NULL, NULL);
    c->w = calloc(n_pub + 2, sizeof(cuzk_fr));
    tc_term *ts = calloc(n_pub + 1, sizeof(tc_term));
    assert_true(c->w && ts);
    c->w[0] = tc_u(1);
    cuzk_fr y = tc_u(1);
    for (uint32_t i = 0; i < n_pub; i++) {
        c->w[1 + i] = pub[i];
        cuzk_fr_add(&y, &y, &pub[i]);
        ts[i] = (tc_term){TC_P(i), 1};
    }
    ts[n_pub] = (tc_term){TC_ONE, 1};
    c->w[1 + n_pub] = y;
    tc_term one[] = {{TC_ONE, 1}}, yt[] = {{TC_X(0), 1}};
    assert_int_equal(tc_row(b, ts, n_pub + 1, one, 1, yt, 1), 0);
    free(ts);
    assert_int_equal(cuzk_r1cs_builder_finish(b, &c->r1cs, NULL), CUZK_OK);
}

/* Public inputs over the whole field (0, 1 and r - 1 among them), around the count from
 * which verify sums IC with an MSM in scratch (32) and well above it: the proof verifies
 * with the MSM (with and without a pool) and with the one-by-one sum, a short scratch is
 * refused, and changing an input fails it (the pairing is the oracle for the MSM's sum). */
static void test_many_inputs(void **st)
{
    (void)st;
    cuzk_pool *pool = NULL;
    assert_int_equal(cuzk_pool_create(&pool, 3), CUZK_OK);
    const uint32_t counts[] = {31, 32, 33, 300};
    for (size_t t = 0; t < sizeof counts / sizeof counts[0]; t++) {
        uint32_t np = counts[t];
        cuzk_fr *pub = malloc(np * sizeof *pub);
        assert_non_null(pub);
        for (uint32_t i = 0; i < np; i++)
            test_rand_fr(&pub[i]);
        pub[0] = tc_u(0);
        pub[1] = tc_u(1);
        cuzk_fr_neg(&pub[2], &pub[1]);
        pub[np - 1] = tc_u(test_rng_u64() & 0xffffffffu); /* a leaf index */
        tc_circuit c;
        wide_circuit(&c, pub, np);
        roundtrip(&c, t & 1 ? CUZK_GROTH16_SNARKJS : CUZK_GROTH16_BELLPERSON);
        keyset k;
        make_keys(&k, &c, CUZK_GROTH16_BELLPERSON, 3);
        cuzk_groth16_proof p;
        cuzk_error err;
        assert_int_equal(prove_rs(&p, &k, &c, NULL, NULL, pool, &err), CUZK_OK);
        size_t sz = cuzk_groth16_verify_scratch_size(&k.pvk, cuzk_pool_nthreads(pool));
        assert_true(np < 32 ? sz == 0 : sz > 0);
        void *scratch = malloc(sz ? sz : 1);
        assert_non_null(scratch);
        assert_int_equal(cuzk_groth16_verify_pool(&k.pvk, pub, np, &p, scratch, sz, pool, &err),
                         CUZK_OK);
        size_t sz1 = cuzk_groth16_verify_scratch_size(&k.pvk, 1);
        assert_int_equal(cuzk_groth16_verify_pool(&k.pvk, pub, np, &p, scratch, sz1, NULL, &err),
                         CUZK_OK);
        assert_int_equal(cuzk_groth16_verify(&k.pvk, pub, np, &p, &err), CUZK_OK);
        if (sz)
            assert_int_equal(
                cuzk_groth16_verify_pool(&k.pvk, pub, np, &p, scratch, sz - 1, pool, NULL),
                CUZK_ERR_INVALID_ARG);
        cuzk_fr_add(&pub[np / 2], &pub[np / 2], &pub[1]);
        assert_int_equal(cuzk_groth16_verify_pool(&k.pvk, pub, np, &p, scratch, sz, pool, NULL),
                         CUZK_ERR_INVALID_PROOF);
        free(scratch);
        free_keys(&k);
        tc_free(&c);
        free(pub);
    }
    cuzk_pool_destroy(pool);
}

/* Density filtering: the BELLPERSON key drops C-only / B-only variables from a / b. */
static void test_density(void **st)
{
    (void)st;
    tc_circuit c;
    assert_int_equal(tc_mixed(&c, 2, 3, 70, 5), 0);
    keyset k;
    make_keys(&k, &c, CUZK_GROTH16_BELLPERSON, 3);
    uint32_t nv = c.r1cs->n_vars;
    /* a: every input + the aux in A, i.e. all but y_3, c_only, b_only and yb (C / B only);
     * b: ONE, y_0..y_2, the 70 bits and b_only */
    assert_int_equal(k.pk.n_a, nv - 4);
    assert_int_equal(k.pk.n_b_g1, 1 + 3 + 70 + 1);
    assert_int_equal(k.pk.n_b_g2, k.pk.n_b_g1);
    assert_int_equal(k.pk.n_l, c.r1cs->n_aux);
    assert_int_equal(k.pk.n_h, ((size_t)1 << k.pk.log2n) - 1);
    for (size_t i = 0; i < k.pk.n_a; i++)
        assert_false(cuzk_g1_affine_is_infinity(&k.pk.a[i]));
    free_keys(&k);
    make_keys(&k, &c, CUZK_GROTH16_SNARKJS, 3);
    assert_int_equal(k.pk.n_a, nv);
    assert_int_equal(k.pk.n_h, (size_t)1 << k.pk.log2n);
    free_keys(&k);
    tc_free(&c);
}

/* start/finalize with fixed r, s is deterministic and thread-count independent; A and B
 * match a naive sum over the key's points. */
static void test_fixed_rs(void **st)
{
    (void)st;
    tc_circuit c;
    assert_int_equal(tc_mixed(&c, 3, 5, 150, test_rng_u64()), 0);
    for (int fl = 1; fl <= 2; fl++) {
        keyset k;
        make_keys(&k, &c, (cuzk_groth16_flavour)fl, 4);
        cuzk_fr r, s;
        test_rand_fr(&r);
        test_rand_fr(&s);
        cuzk_groth16_proof p1, p2, p3;
        cuzk_pool *pool;
        assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
        assert_int_equal(prove_rs(&p1, &k, &c, &r, &s, NULL, NULL), CUZK_OK);
        assert_int_equal(prove_rs(&p2, &k, &c, &r, &s, NULL, NULL), CUZK_OK);
        assert_int_equal(prove_rs(&p3, &k, &c, &r, &s, pool, NULL), CUZK_OK);
        cuzk_pool_destroy(pool);
        assert_true(proof_eq(&p1, &p2));
        assert_true(proof_eq(&p1, &p3));
        assert_int_equal(cuzk_groth16_verify(&k.pvk, publics(&c), c.r1cs->n_public, &p1, NULL),
                         CUZK_OK);

        /* A = alpha + sum_i w_i a_i + r delta1 by double-and-add over the key's a vector */
        cuzk_g1_jac acc, t;
        cuzk_g1_jac_from_affine(&acc, &k.vk.alpha_g1);
        uint32_t aux0 = 1 + c.r1cs->n_public;
        size_t idx = 0;
        for (uint32_t v = 0; v < c.r1cs->n_vars; v++) {
            bool in_a = fl == CUZK_GROTH16_SNARKJS || v < aux0 ||
                        cuzk_r1cs_density_test(c.r1cs, CUZK_R1CS_A, v);
            if (!in_a)
                continue;
            uint64_t lim[4];
            cuzk_fr_to_canonical(lim, &c.w[v]);
            cuzk_g1_jac_from_affine(&t, &k.pk.a[idx++]);
            cuzk_g1_jac_mul_u64s_var(&t, &t, lim, 4);
            cuzk_g1_jac_add(&acc, &acc, &t);
        }
        assert_int_equal(idx, k.pk.n_a);
        cuzk_g1_jac_from_affine(&t, &k.vk.delta_g1);
        uint64_t rl[4];
        cuzk_fr_to_canonical(rl, &r);
        cuzk_g1_jac_mul_u64s_var(&t, &t, rl, 4);
        cuzk_g1_jac_add(&acc, &acc, &t);
        cuzk_g1_affine a_naive;
        cuzk_g1_jac_to_affine(&a_naive, &acc);
        assert_true(cuzk_g1_affine_eq(&a_naive, &p1.a));

        /* B = beta2 + sum_i w_i b2_i + s delta2 */
        cuzk_g2_jac bacc, bt;
        cuzk_g2_jac_from_affine(&bacc, &k.vk.beta_g2);
        idx = 0;
        for (uint32_t v = 0; v < c.r1cs->n_vars; v++) {
            if (fl != CUZK_GROTH16_SNARKJS && !cuzk_r1cs_density_test(c.r1cs, CUZK_R1CS_B, v))
                continue;
            uint64_t lim[4];
            cuzk_fr_to_canonical(lim, &c.w[v]);
            cuzk_g2_jac_from_affine(&bt, &k.pk.b_g2[idx++]);
            cuzk_g2_jac_mul_u64s_var(&bt, &bt, lim, 4);
            cuzk_g2_jac_add(&bacc, &bacc, &bt);
        }
        uint64_t sl[4];
        cuzk_fr_to_canonical(sl, &s);
        cuzk_g2_jac_from_affine(&bt, &k.vk.delta_g2);
        cuzk_g2_jac_mul_u64s_var(&bt, &bt, sl, 4);
        cuzk_g2_jac_add(&bacc, &bacc, &bt);
        cuzk_g2_affine b_naive;
        cuzk_g2_jac_to_affine(&b_naive, &bacc);
        assert_true(cuzk_g2_affine_eq(&b_naive, &p1.b));

        /* a second finalize on a consumed state is refused */
        size_t sz = cuzk_groth16_prove_scratch_size(&k.pk, c.r1cs, 1);
        void *scratch = malloc(sz);
        cuzk_witness w = cuzk_witness_dense(c.w, c.r1cs->n_vars);
        cuzk_groth16_prover_state state;
        assert_int_equal(cuzk_groth16_prove_start(&state, &k.pk, c.r1cs, &w, scratch, sz, NULL,
                                                  NULL),
                         CUZK_OK);
        assert_int_equal(cuzk_groth16_prove_finalize(&state, &r, &s, &p2, NULL), CUZK_OK);
        assert_int_equal(cuzk_groth16_prove_finalize(&state, &r, &s, &p2, NULL),
                         CUZK_ERR_INVALID_ARG);
        /* scratch one byte short is refused */
        assert_int_equal(cuzk_groth16_prove_start(&state, &k.pk, c.r1cs, &w, scratch, sz - 1,
                                                  NULL, NULL),
                         CUZK_ERR_INVALID_ARG);
        free(scratch);
        free_keys(&k);
    }
    tc_free(&c);
}

static void test_unsatisfied(void **st)
{
    (void)st;
    tc_circuit c;
    assert_int_equal(tc_xcube(&c, 3), 0);
    keyset k;
    make_keys(&k, &c, CUZK_GROTH16_BELLPERSON, 5);
    c.w[4] = tc_u(28); /* x3 != x2 * x: constraint 1 fails */
    cuzk_groth16_proof p, sentinel;
    memset(&p, 0xa5, sizeof p);
    sentinel = p;
    cuzk_error err;
    assert_int_equal(prove_rs(&p, &k, &c, NULL, NULL, NULL, &err), CUZK_ERR_UNSATISFIED);
    assert_non_null(strstr(err.msg, "constraint 1"));
    assert_memory_equal(&p, &sentinel, sizeof p);
    /* ONE not 1 */
    c.w[4] = tc_u(27);
    c.w[0] = tc_u(2);
    assert_int_not_equal(prove_rs(&p, &k, &c, NULL, NULL, NULL, &err), CUZK_OK);
    assert_memory_equal(&p, &sentinel, sizeof p);
    free_keys(&k);
    /* key for another circuit: shape mismatch is a format error, not a crash */
    tc_circuit c2;
    assert_int_equal(tc_mixed(&c2, 2, 2, 64, 1), 0);
    make_keys(&k, &c2, CUZK_GROTH16_BELLPERSON, 6);
    c.w[0] = tc_u(1);
    assert_int_equal(cuzk_groth16_prove_scratch_size(&k.pk, c.r1cs, 1), 0);
    assert_int_equal(cuzk_groth16_pk_check_circuit(&k.pk, c.r1cs, &err), CUZK_ERR_FORMAT);
    free_keys(&k);
    tc_free(&c2);
    tc_free(&c);
}

static void test_batch(void **st)
{
    (void)st;
    tc_circuit c[3];
    keyset k;
    uint32_t np = 3;
    for (int i = 0; i < 3; i++)
        assert_int_equal(tc_mixed(&c[i], np, 4, 80, 100 + (uint64_t)i), 0);
    make_keys(&k, &c[0], CUZK_GROTH16_BELLPERSON, 7);
    cuzk_groth16_proof p[3];
    cuzk_fr x[9];
    for (int i = 0; i < 3; i++) {
        assert_int_equal(prove_rs(&p[i], &k, &c[i], NULL, NULL, NULL, NULL), CUZK_OK);
        memcpy(&x[3 * i], publics(&c[i]), 3 * sizeof(cuzk_fr));
    }
    size_t sz = cuzk_groth16_verify_batch_scratch_size(3);
    void *scratch = malloc(sz);
    assert_int_equal(cuzk_groth16_verify_batch(&k.pvk, x, np, p, 3, scratch, sz, NULL), CUZK_OK);
    assert_int_equal(cuzk_groth16_verify_batch(&k.pvk, x, np, p, 0, scratch, sz, NULL), CUZK_OK);
    /* proofs swapped between statements */
    cuzk_groth16_proof q[3] = {p[1], p[0], p[2]};
    assert_int_equal(cuzk_groth16_verify_batch(&k.pvk, x, np, q, 3, scratch, sz, NULL),
                     CUZK_ERR_INVALID_PROOF);
    /* one bad C */
    q[0] = p[0];
    q[1] = p[1];
    q[2].c = p[0].c;
    assert_int_equal(cuzk_groth16_verify_batch(&k.pvk, x, np, q, 3, scratch, sz, NULL),
                     CUZK_ERR_INVALID_PROOF);
    /* wrong input */
    cuzk_fr one = CUZK_FR_ONE;
    cuzk_fr_add(&x[4], &x[4], &one);
    assert_int_equal(cuzk_groth16_verify_batch(&k.pvk, x, np, p, 3, scratch, sz, NULL),
                     CUZK_ERR_INVALID_PROOF);
    assert_int_equal(cuzk_groth16_verify_batch(&k.pvk, x, np, p, 3, scratch, sz - 1, NULL),
                     CUZK_ERR_INVALID_ARG);
    free(scratch);
    free_keys(&k);
    for (int i = 0; i < 3; i++)
        tc_free(&c[i]);
}

/* An aux variable no constraint mentions: bellperson refuses the identity l point it
 * would need; a SNARKJS key holds infinity there and still proves. */
static void test_unconstrained(void **st)
{
    (void)st;
    cuzk_r1cs_builder *b;
    assert_int_equal(cuzk_r1cs_builder_create(&b, NULL), CUZK_OK);
    cuzk_r1cs_builder_alloc_public(b, 1, NULL, NULL);
    cuzk_r1cs_builder_alloc_aux(b, 2, NULL, NULL); /* x, unused */
    tc_term x[] = {{TC_X(0), 1}}, out[] = {{TC_P(0), 1}};
    assert_int_equal(tc_row(b, x, 1, x, 1, out, 1), 0);
    tc_circuit c;
    assert_int_equal(cuzk_r1cs_builder_finish(b, &c.r1cs, NULL), CUZK_OK);
    c.w = calloc(4, sizeof(cuzk_fr));
    c.w[0] = tc_u(1);
    c.w[1] = tc_u(49);
    c.w[2] = tc_u(7);
    c.w[3] = tc_u(1234);
    cuzk_groth16_pk pk;
    cuzk_error err;
    assert_int_equal(cuzk_groth16_setup_dev(&pk, NULL, c.r1cs, CUZK_GROTH16_BELLPERSON, NULL, NULL,
                                            &err),
                     CUZK_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "unconstrained"));
    roundtrip(&c, CUZK_GROTH16_SNARKJS);
    tc_free(&c);
}

int main(void)
{
    test_rng_init("groth16");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xcube),       cmocka_unit_test(test_mixed),
        cmocka_unit_test(test_density),     cmocka_unit_test(test_fixed_rs),
        cmocka_unit_test(test_unsatisfied), cmocka_unit_test(test_batch),
        cmocka_unit_test(test_unconstrained), cmocka_unit_test(test_many_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
