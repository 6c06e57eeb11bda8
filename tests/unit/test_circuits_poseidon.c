/*
 * test_circuits_poseidon.c — Poseidon as neptune defines it: derived parameters, native
 * hashes, and the circuit (neptune's legacy poseidon_hash) on every backend.
 *
 * Oracles: neptune's published digests of [0, 1, ..., arity-1] (poseidon.rs hash_values,
 * Strength::Standard, Merkle-tree tag) and its round-number table (round_numbers.rs);
 * the textbook permutation against the optimized schedule for random inputs; the
 * circuit's output against the native hash; neptune's row counts 311 / 377 / 505 / 598.
 */
#include "circuit_test_util.h"
#include "circuits/poseidon.h"
#include "test_rng.h"

static const unsigned ARITIES[4] = {2, 4, 8, 11};

static void test_round_numbers(void **state)
{
    (void)state;
    /* neptune test_round_numbers_against_known_values: (t, RP), RF = 8 throughout */
    static const unsigned cases[][2] = {{2, 55},  {3, 55},  {4, 56},  {5, 56},  {6, 56},
                                        {7, 56},  {8, 57},  {9, 57},  {10, 57}, {11, 57},
                                        {12, 57}, {13, 57}, {14, 57}, {15, 57}, {16, 59},
                                        {17, 59}, {25, 59}, {37, 60}, {65, 61}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        unsigned rf, rp;
        pos_round_numbers(cases[i][0], &rf, &rp);
        assert_int_equal(rf, 8);
        assert_int_equal(rp, cases[i][1]);
    }
}

static void test_neptune_vectors(void **state)
{
    (void)state;
    /* neptune poseidon.rs hash_values_aux, Strength::Standard, canonical limbs LE */
    static const uint64_t want[4][4] = {
        {0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b},
        {0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a},
        {0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55},
        {0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28}};
    for (int k = 0; k < 4; k++) {
        cuzk_fr in[11], out, w;
        for (unsigned i = 0; i < ARITIES[k]; i++)
            cuzk_fr_from_u64(&in[i], i);
        assert_int_equal(cuzk_fr_from_canonical(&w, want[k]), CUZK_OK);
        assert_int_equal(cuzk_poseidon_hash(&out, in, ARITIES[k], NULL), CUZK_OK);
        assert_true(cuzk_fr_eq(&out, &w));
        const pos_params *p = pos_params_get(ARITIES[k]);
        assert_non_null(p);
        pos_hash_textbook(&out, p, in);
        assert_true(cuzk_fr_eq(&out, &w));
    }
}

static void test_textbook_equals_optimized(void **state)
{
    (void)state;
    size_t iters = test_iters(20);
    for (size_t it = 0; it < iters; it++) {
        const pos_params *p = pos_params_get(ARITIES[it % 4]);
        cuzk_fr in[11], a, b;
        for (unsigned i = 0; i < p->arity; i++)
            test_rand_fr(&in[i]);
        pos_hash_textbook(&a, p, in);
        pos_hash_optimized(&b, p, in);
        assert_true(cuzk_fr_eq(&a, &b));
        in[it % p->arity].l[0] ^= 1; /* any change of input changes the digest */
        pos_hash_optimized(&a, p, in);
        assert_false(cuzk_fr_eq(&a, &b));
    }
}

static void test_bad_arity(void **state)
{
    (void)state;
    cuzk_fr in[16] = {{{0}}}, out;
    cuzk_error e;
    assert_int_equal(cuzk_poseidon_hash(&out, in, 3, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_poseidon_hash(&out, in, 16, &e), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_poseidon_hash(NULL, in, 2, &e), CUZK_ERR_INVALID_ARG);
    assert_false(cuzk_poseidon_arity_supported(0));
    assert_true(cuzk_poseidon_arity_supported(11));
}

typedef struct pos_ctx {
    const pos_params *p;
    const cuzk_fr *in;
    gad_num *out;
} pos_ctx;

static cuzk_status pos_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    (void)err;
    const pos_ctx *c = vctx;
    gad_num in[11];
    for (unsigned i = 0; i < c->p->arity; i++) {
        in[i].var = cs_alloc(cs, &c->in[i]);
        in[i].value = c->in[i];
    }
    *c->out = gad_poseidon_hash(cs, c->p, in);
    return CUZK_OK;
}

static void test_circuit(void **state)
{
    (void)state;
    static const uint64_t rows[4] = {311, 377, 505, 598};
    for (int k = 0; k < 4; k++) {
        const pos_params *p = pos_params_get(ARITIES[k]);
        cuzk_fr in[11], want;
        for (unsigned i = 0; i < p->arity; i++)
            test_rand_fr(&in[i]);
        gad_num out;
        pos_ctx c = {p, in, &out};
        ct_result r;
        ct_run(pos_circuit, &c, &r);
        printf("poseidon arity %2u: %llu rows, %u aux; A aux %llu, B aux %llu; nnz A/B/C "
               "%llu/%llu/%llu\n",
               p->arity, (unsigned long long)r.r1cs->n_constraints, r.r1cs->n_aux - p->arity,
               (unsigned long long)r.counts.a_aux_density,
               (unsigned long long)r.counts.b_aux_density, (unsigned long long)r.counts.nnz[0],
               (unsigned long long)r.counts.nnz[1], (unsigned long long)r.counts.nnz[2]);
        assert_int_equal(r.r1cs->n_constraints, rows[k]);
        assert_int_equal(r.r1cs->n_aux, rows[k] + p->arity);
        assert_int_equal(r.map.n_bits, 0);
        /* every aux is in A but the digest and the l^4 of each S-box (only in B and C) */
        uint64_t sboxes = p->arity + (uint64_t)(p->rf - 1) * p->t + p->rp;
        assert_int_equal(r.counts.a_aux_density, r.r1cs->n_aux - sboxes - 1);
        pos_hash_optimized(&want, p, in);
        assert_true(cuzk_fr_eq(ct_aux(&r, (uint32_t)out.var), &want));
        r.w[1 + (uint32_t)out.var].l[0] ^= 1; /* a wrong digest breaks the last row */
        uint64_t bad = 0;
        assert_false(ct_satisfied(&r, &bad));
        assert_int_equal(bad, rows[k] - 1);
        ct_free(&r);
    }
}

int main(void)
{
    test_rng_init("test_circuits_poseidon");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_numbers),
        cmocka_unit_test(test_neptune_vectors),
        cmocka_unit_test(test_textbook_equals_optimized),
        cmocka_unit_test(test_bad_arity),
        cmocka_unit_test(test_circuit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
