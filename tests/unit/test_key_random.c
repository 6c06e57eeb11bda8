/*
 * test_key_random.c — cuzk_groth16_pk_random and the random point fillers: the key has
 * exactly the shape the circuit needs, every point is a valid subgroup element (checked
 * with the ec layer's independent subgroup test), points are pairwise distinct within a
 * window, and the same seed gives the same points.
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
#include "test_rng.h"

static void test_key_shape_and_points(void **state)
{
    (void)state;
    cuzk_synthetic c;
    cuzk_error e;
    assert_int_equal(cuzk_synthetic_porep(&c, 12, test_rng_u64(), NULL, &e), CUZK_OK);
    const cuzk_groth16_flavour fl[2] = {CUZK_GROTH16_BELLPERSON, CUZK_GROTH16_SNARKJS};
    for (int f = 0; f < 2; f++) {
        cuzk_groth16_pk pk;
        assert_int_equal(cuzk_groth16_pk_random(&pk, c.r1cs, fl[f], test_rng_u64(), NULL, &e),
                         CUZK_OK);
        if (cuzk_groth16_pk_check_circuit(&pk, c.r1cs, &e) != CUZK_OK)
            fail_msg("%s", e.msg);
        const cuzk_g1_affine *v[4] = {pk.h, pk.l, pk.a, pk.b_g1};
        size_t len[4] = {pk.n_h, pk.n_l, pk.n_a, pk.n_b_g1};
        for (int k = 0; k < 4; k++)
            for (size_t i = 0; i < len[k]; i += 97) {
                assert_true(cuzk_g1_affine_on_curve(&v[k][i]));
                assert_true(cuzk_g1_affine_in_subgroup(&v[k][i]));
                if (i)
                    assert_true(memcmp(&v[k][i], &v[k][i - 97], sizeof v[k][i]) != 0);
            }
        for (size_t i = 0; i < pk.n_b_g2; i += 211) {
            assert_true(cuzk_g2_affine_on_curve(&pk.b_g2[i]));
            assert_true(cuzk_g2_affine_in_subgroup(&pk.b_g2[i]));
        }
        /* a proof with it is refused by the self-check as a benchmark key's, not diagnosed
         * (which at PoRep scale would scan the circuit and every point for minutes) */
        assert_true(pk.benchmark_only);
        cuzk_witness w = cuzk_witness_dense(c.witness, c.r1cs->n_vars);
        cuzk_groth16_proof proof;
        size_t ssz = cuzk_groth16_prove_scratch_size(&pk, c.r1cs, 1);
        void *scr = malloc(ssz);
        assert_non_null(scr);
        /* the prover self-checks before it returns */
        assert_int_equal(cuzk_groth16_prove(&proof, &pk, c.r1cs, &w, scr, ssz, NULL, &e),
                         CUZK_ERR_INVALID_PROOF);
        assert_non_null(strstr(e.msg, "random benchmark key"));
        free(scr);
        cuzk_groth16_pk_free(&pk);
    }
    cuzk_synthetic_free(&c);
}

static void test_fill_deterministic(void **state)
{
    (void)state;
    size_t n = 70000; /* crosses the 2^16 table boundary */
    cuzk_g1_affine *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    uint64_t seed = test_rng_u64();
    assert_int_equal(cuzk_g1s_fill_random(a, n, seed, NULL, NULL), CUZK_OK);
    assert_int_equal(cuzk_g1s_fill_random(b, n, seed, NULL, NULL), CUZK_OK);
    assert_memory_equal(a, b, n * sizeof *a);
    assert_int_equal(cuzk_g1s_fill_random(b, n, seed + 1, NULL, NULL), CUZK_OK);
    assert_true(memcmp(a, b, sizeof *a) != 0);
    for (size_t i = 0; i < 12; i++) { /* same first-table entry, other second-table one */
        assert_true(cuzk_g1_affine_on_curve(&a[65530 + i]));
        assert_true(memcmp(&a[i], &a[i + 65536], sizeof *a) != 0);
    }
    assert_int_equal(cuzk_g1s_fill_random(NULL, 5, seed, NULL, NULL), CUZK_ERR_INVALID_ARG);
    free(a);
    free(b);
}

int main(void)
{
    test_rng_init("key_random");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_shape_and_points),
        cmocka_unit_test(test_fill_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
