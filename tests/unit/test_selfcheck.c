/*
 * test_selfcheck.c — the check every proof passes before the prover hands it out
 * (cuzk_groth16_proof_selfcheck, run by cuzk_groth16_prove) and its diagnosis:
 *   - a proving key with one point on the curve but outside its subgroup (an l point in G1,
 *     a b_g2 point in G2) or off the curve: no proof, CUZK_ERR_FORMAT naming the vector and
 *     index (before the self-check, such keys gave status OK and a proof that does not
 *     verify);
 *   - a key that is valid point by point but does not fit its vk: INVALID_PROOF, with the
 *     cause told apart by whether the circuit's C was available;
 *   - an unsatisfied witness against the circuit: UNSATISFIED naming the lowest row;
 *   - the no-C path of the prover (c = a*b) gives bit-identical proofs to the checked path.
 * Non-subgroup points are made as in test_subgroup.c: a random x with x^3 + b square
 * (cofactor not cleared). Single-threaded except where a pool is named.
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
#include "cuzk/pool.h"
#include "test_groth16_circuits.h"
#include "test_rng.h"

/* A point on E(Fp) outside G1 (the probability that a random one is in G1 is 1/h1). */
static void g1_outside(cuzk_g1_affine *p)
{
    cuzk_fp rhs, b;
    cuzk_fp_from_u64(&b, 4);
    do {
        test_rand_fp(&p->x);
        cuzk_fp_sqr(&rhs, &p->x);
        cuzk_fp_mul(&rhs, &rhs, &p->x);
        cuzk_fp_add(&rhs, &rhs, &b);
    } while (!cuzk_fp_sqrt(&p->y, &rhs));
    assert_true(cuzk_g1_affine_on_curve(p));
    assert_false(cuzk_g1_affine_in_subgroup(p));
}

/* A point on E'(Fp2) outside G2. */
static void g2_outside(cuzk_g2_affine *p)
{
    cuzk_fp2 rhs, b;
    cuzk_fp_from_u64(&b.c0, 4);
    cuzk_fp_from_u64(&b.c1, 4);
    do {
        test_rand_fp2(&p->x);
        cuzk_fp2_sqr(&rhs, &p->x);
        cuzk_fp2_mul(&rhs, &rhs, &p->x);
        cuzk_fp2_add(&rhs, &rhs, &b);
    } while (!cuzk_fp2_sqrt(&p->y, &rhs));
    assert_true(cuzk_g2_affine_on_curve(p));
    assert_false(cuzk_g2_affine_in_subgroup(p));
}

static void setup(cuzk_groth16_pk *pk, const tc_circuit *c, cuzk_groth16_flavour fl)
{
    uint8_t seed[32];
    test_rng_bytes(seed, sizeof seed);
    cuzk_error e;
    assert_int_equal(cuzk_groth16_setup_dev(pk, NULL, c->r1cs, fl, seed, NULL, &e), CUZK_OK);
}

/* cuzk_groth16_prove into a sentinel-filled proof; checks the proof is untouched on error. */
static cuzk_status prove(cuzk_groth16_proof *p, const cuzk_groth16_pk *pk, const cuzk_r1cs *r,
                         const cuzk_fr *w, cuzk_pool *pool, cuzk_error *e)
{
    size_t sz = cuzk_groth16_prove_scratch_size(pk, r, cuzk_pool_nthreads(pool));
    assert_true(sz > 0);
    void *scratch = malloc(sz);
    assert_non_null(scratch);
    cuzk_witness wit = cuzk_witness_dense(w, r->n_vars);
    cuzk_groth16_proof sentinel;
    memset(p, 0xa5, sizeof *p);
    sentinel = *p;
    cuzk_status st = cuzk_groth16_prove(p, pk, r, &wit, scratch, sz, pool, e);
    if (st != CUZK_OK)
        assert_memory_equal(p, &sentinel, sizeof *p);
    free(scratch);
    return st;
}

/* start + finalize with fixed r, s (no self-check). */
static void prove_rs(cuzk_groth16_proof *p, const cuzk_groth16_pk *pk, const cuzk_r1cs *r,
                     const cuzk_fr *w, cuzk_pool *pool)
{
    size_t sz = cuzk_groth16_prove_scratch_size(pk, r, cuzk_pool_nthreads(pool));
    void *scratch = malloc(sz);
    assert_non_null(scratch);
    cuzk_witness wit = cuzk_witness_dense(w, r->n_vars);
    cuzk_groth16_prover_state st;
    cuzk_fr rr = tc_u(11), ss = tc_u(13);
    cuzk_error e;
    assert_int_equal(cuzk_groth16_prove_start(&st, pk, r, &wit, scratch, sz, pool, &e), CUZK_OK);
    assert_int_equal(cuzk_groth16_prove_finalize(&st, &rr, &ss, p, &e), CUZK_OK);
    free(scratch);
}

/* The first aux variable (l index) whose witness value is not zero. */
static size_t nonzero_l(const tc_circuit *c)
{
    uint32_t aux0 = 1 + c->r1cs->n_public;
    for (uint32_t v = aux0; v < c->r1cs->n_vars; v++)
        if (!cuzk_fr_is_zero(&c->w[v]))
            return v - aux0;
    fail();
    return 0;
}

static void test_bad_key_points(void **state)
{
    (void)state;
    tc_circuit c;
    assert_int_equal(tc_mixed(&c, 2, 3, 20, test_rng_u64() & 0xffff), 0);
    cuzk_pool *pool;
    assert_int_equal(cuzk_pool_create(&pool, 3), CUZK_OK);
    const cuzk_groth16_flavour fls[2] = {CUZK_GROTH16_BELLPERSON, CUZK_GROTH16_SNARKJS};
    for (int f = 0; f < 2; f++) {
        cuzk_groth16_pk pk;
        setup(&pk, &c, fls[f]);
        cuzk_groth16_proof p;
        cuzk_error e;
        assert_int_equal(prove(&p, &pk, c.r1cs, c.w, pool, &e), CUZK_OK);

        /* l: one G1 point outside the subgroup, at a variable the witness uses */
        size_t li = nonzero_l(&c);
        cuzk_g1_affine save_l = pk.l[li];
        g1_outside(&pk.l[li]);
        assert_int_equal(prove(&p, &pk, c.r1cs, c.w, pool, &e), CUZK_ERR_FORMAT);
        char want[96];
        snprintf(want, sizeof want, "proving key is bad: l[%zu] is not in the subgroup", li);
        assert_string_equal(e.msg, want);
#ifndef CUZK_VERIFY /* there the MSM's on-curve VERIFY check aborts first, by design */
        /* an off-curve point is named as such */
        cuzk_fp_add(&pk.l[li].y, &pk.l[li].y, &CUZK_FP_ONE);
        assert_false(cuzk_g1_affine_on_curve(&pk.l[li]));
        assert_int_equal(prove(&p, &pk, c.r1cs, c.w, NULL, &e), CUZK_ERR_FORMAT);
        snprintf(want, sizeof want, "proving key is bad: l[%zu] is not on the curve", li);
        assert_string_equal(e.msg, want);
#endif
        pk.l[li] = save_l;

        /* b_g2: index 0 is ONE in both flavours (B uses ONE in tc_mixed), value 1 */
        assert_true(cuzk_r1cs_density_test(c.r1cs, CUZK_R1CS_B, 0));
        cuzk_g2_affine save_b = pk.b_g2[0];
        g2_outside(&pk.b_g2[0]);
        assert_int_equal(prove(&p, &pk, c.r1cs, c.w, pool, &e), CUZK_ERR_FORMAT);
        assert_string_equal(e.msg, "proving key is bad: b_g2[0] is not in the subgroup");
        pk.b_g2[0] = save_b;

        /* restored, the key proves again */
        assert_int_equal(prove(&p, &pk, c.r1cs, c.w, pool, &e), CUZK_OK);
        cuzk_groth16_pk_free(&pk);
    }
    cuzk_pool_destroy(pool);
    tc_free(&c);
}

static void test_diagnosis(void **state)
{
    (void)state;
    tc_circuit c;
    assert_int_equal(tc_mixed(&c, 1, 2, 8, test_rng_u64() & 0xffff), 0);
    cuzk_groth16_pk pk;
    setup(&pk, &c, CUZK_GROTH16_BELLPERSON);
    cuzk_groth16_pvk pvk;
    assert_int_equal(cuzk_groth16_pvk_prepare(&pvk, &pk.vk), CUZK_OK);
    cuzk_witness w = cuzk_witness_dense(c.w, c.r1cs->n_vars);
    cuzk_groth16_proof p;
    cuzk_error e;
    prove_rs(&p, &pk, c.r1cs, c.w, NULL);
    assert_int_equal(cuzk_groth16_proof_selfcheck(&pk, NULL, c.r1cs, &w, &p, NULL, &e), CUZK_OK);
    assert_int_equal(cuzk_groth16_proof_selfcheck(&pk, &pvk, NULL, &w, &p, NULL, &e), CUZK_OK);

    /* a tampered proof: the circuit holds and the key is sound, so the key does not fit */
    cuzk_groth16_proof t = p;
    t.c = p.a;
    assert_int_equal(cuzk_groth16_proof_selfcheck(&pk, &pvk, c.r1cs, &w, &t, NULL, &e),
                     CUZK_ERR_INVALID_PROOF);
    assert_non_null(strstr(e.msg, "although the witness satisfies the circuit"));
    /* without C (as for a .zkey) the witness is blamed */
    assert_int_equal(cuzk_groth16_proof_selfcheck(&pk, &pvk, NULL, &w, &t, NULL, &e),
                     CUZK_ERR_INVALID_PROOF);
    assert_string_equal(e.msg,
                        "the proof does not verify: the witness does not satisfy the circuit");

    /* a key whose l point is replaced by another subgroup point: proves, never verifies */
    size_t li = nonzero_l(&c);
    cuzk_g1_affine save = pk.l[li];
    cuzk_g1_jac j;
    cuzk_g1_jac_from_affine(&j, &pk.l[li]);
    cuzk_g1_jac_add_affine(&j, &j, &CUZK_G1_GENERATOR);
    cuzk_g1_jac_to_affine(&pk.l[li], &j);
    assert_int_equal(prove(&p, &pk, c.r1cs, c.w, NULL, &e), CUZK_ERR_INVALID_PROOF);
    assert_non_null(strstr(e.msg, "the proving key does not fit"));
    pk.l[li] = save;

    /* argument errors */
    assert_int_equal(cuzk_groth16_proof_selfcheck(NULL, &pvk, NULL, &w, &p, NULL, &e),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_groth16_proof_selfcheck(&pk, &pvk, NULL, NULL, &p, NULL, &e),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_groth16_proof_selfcheck(&pk, &pvk, NULL, &w, NULL, NULL, &e),
                     CUZK_ERR_INVALID_ARG);
    cuzk_witness shortw = cuzk_witness_dense(c.w, 1);
    assert_int_equal(cuzk_groth16_proof_selfcheck(&pk, &pvk, NULL, &shortw, &p, NULL, &e),
                     CUZK_ERR_INVALID_ARG);
    cuzk_groth16_pvk other = pvk;
    other.n_ic++;
    assert_int_equal(cuzk_groth16_proof_selfcheck(&pk, &other, NULL, &w, &p, NULL, &e),
                     CUZK_ERR_INVALID_ARG);
    cuzk_groth16_pk_free(&pk);
    tc_free(&c);
}

/* SNARKJS keys: proving without C (c = a*b, as for a .zkey) and with C (evaluated and
 * checked in one pass) give the same proof bit for bit, with and without a pool. */
static void test_no_c_bit_identical(void **state)
{
    (void)state;
    tc_circuit c;
    assert_int_equal(tc_mixed(&c, 3, 5, 300, test_rng_u64() & 0xffff), 0);
    cuzk_groth16_pk pk;
    setup(&pk, &c, CUZK_GROTH16_SNARKJS);
    cuzk_pool *pool;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    cuzk_groth16_proof with_c, without_c, pooled;
    prove_rs(&with_c, &pk, c.r1cs, c.w, NULL);
    c.r1cs->c_absent = true;
    prove_rs(&without_c, &pk, c.r1cs, c.w, NULL);
    prove_rs(&pooled, &pk, c.r1cs, c.w, pool);
    c.r1cs->c_absent = false;
    assert_memory_equal(&with_c, &without_c, sizeof with_c);
    assert_memory_equal(&with_c, &pooled, sizeof with_c);
    cuzk_witness w = cuzk_witness_dense(c.w, c.r1cs->n_vars);
    cuzk_error e;
    assert_int_equal(cuzk_groth16_proof_selfcheck(&pk, NULL, c.r1cs, &w, &with_c, pool, &e),
                     CUZK_OK);
    /* an unsatisfied witness proved without C: only the self-check can catch it, and
     * given the circuit's C it names the lowest failing constraint, not the values */
    uint32_t last = c.r1cs->n_vars - 1;
    cuzk_fr_add(&c.w[last], &c.w[last], &CUZK_FR_ONE);
    uint64_t row;
    assert_int_equal(cuzk_r1cs_check(c.r1cs, &w, &row, &e), CUZK_ERR_UNSATISFIED);
    c.r1cs->c_absent = true;
    cuzk_groth16_proof bad;
    assert_int_equal(prove(&bad, &pk, c.r1cs, c.w, pool, &e), CUZK_ERR_INVALID_PROOF);
    assert_string_equal(e.msg,
                        "the proof does not verify: the witness does not satisfy the circuit");
    prove_rs(&bad, &pk, c.r1cs, c.w, pool);
    c.r1cs->c_absent = false;
    assert_int_equal(cuzk_groth16_proof_selfcheck(&pk, NULL, c.r1cs, &w, &bad, pool, &e),
                     CUZK_ERR_UNSATISFIED);
    char want[64];
    snprintf(want, sizeof want, "constraint %llu unsatisfied", (unsigned long long)row);
    assert_string_equal(e.msg, want);
    /* with C, the prover itself refuses before any MSM */
    assert_int_equal(prove(&bad, &pk, c.r1cs, c.w, pool, &e), CUZK_ERR_UNSATISFIED);
    assert_string_equal(e.msg, want);
    cuzk_fr_sub(&c.w[last], &c.w[last], &CUZK_FR_ONE);

    /* a bellperson key needs C */
    cuzk_groth16_pk bpk;
    setup(&bpk, &c, CUZK_GROTH16_BELLPERSON);
    c.r1cs->c_absent = true;
    cuzk_groth16_proof p;
    assert_int_equal(prove(&p, &bpk, c.r1cs, c.w, NULL, &e), CUZK_ERR_INVALID_ARG);
    c.r1cs->c_absent = false;
    cuzk_groth16_pk_free(&bpk);
    cuzk_pool_destroy(pool);
    cuzk_groth16_pk_free(&pk);
    tc_free(&c);
}

int main(void)
{
    test_rng_init("selfcheck");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_key_points),
        cmocka_unit_test(test_diagnosis),
        cmocka_unit_test(test_no_c_bit_identical),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
