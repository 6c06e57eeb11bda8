/*
 * test_synthetic.c — the synthetic PoRep-shaped circuit (cuzk/circuits.h) and the CSR
 * adoption it is built through (cuzk_r1cs_from_csr).
 *
 * Oracles: the r1cs layer's own satisfaction check (a different code path from the
 * generator's witness computation), direct counts over the witness and density bitmaps for
 * the promised statistics, and hand-made CSR arrays that break each invariant.
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
#include "cuzk/pool.h"
#include "cuzk/r1cs.h"
#include "test_rng.h"

static void test_satisfied_every_size(void **state)
{
    (void)state;
    cuzk_pool *pool;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    uint64_t seed = test_rng_u64();
    for (unsigned k = 2; k <= 15; k++) {
        cuzk_synthetic s;
        cuzk_error e;
        assert_int_equal(cuzk_synthetic_porep(&s, k, seed + k, pool, &e), CUZK_OK);
        const cuzk_r1cs *r = s.r1cs;
        uint64_t n = (uint64_t)1 << k;
        /* the domain with the two appended input rows is exactly 2^k */
        assert_true(r->n_constraints + 2 <= n);
        assert_true(r->n_constraints + 2 > n / 2);
        assert_int_equal(r->n_public, 1);
        cuzk_witness w = cuzk_witness_dense(s.witness, r->n_vars);
        uint64_t bad = 0;
        if (cuzk_r1cs_check(r, &w, &bad, &e) != CUZK_OK)
            fail_msg("2^%u: %s (row %llu)", k, e.msg, (unsigned long long)bad);
        uint64_t bits = 0;
        for (uint32_t v = 2; v < r->n_vars; v++)
            bits += cuzk_fr_is_zero(&s.witness[v]) || cuzk_fr_is_one(&s.witness[v]);
        assert_true(bits >= s.bits); /* a dense value may happen to be 0 or 1 */
        if (k >= 12) { /* the PoRep statistics, away from small-size rounding */
            double na = r->n_aux;
            double fa = cuzk_r1cs_density_count(r, CUZK_R1CS_A, 2, r->n_vars) / na;
            double fb = cuzk_r1cs_density_count(r, CUZK_R1CS_B, 2, r->n_vars) / na;
            assert_true(s.bits / na > 0.98 && s.bits / na < 0.995);
            assert_true(fa > 0.995);
            assert_true(fb > 0.2 && fb < 0.3);
            assert_true(r->n_constraints > n * 95 / 100);
        }
        cuzk_synthetic_free(&s);
    }
    cuzk_pool_destroy(pool);
}

static void test_deterministic(void **state)
{
    (void)state;
    cuzk_synthetic a, b, c;
    uint64_t seed = test_rng_u64();
    assert_int_equal(cuzk_synthetic_porep(&a, 12, seed, NULL, NULL), CUZK_OK);
    assert_int_equal(cuzk_synthetic_porep(&b, 12, seed, NULL, NULL), CUZK_OK);
    assert_int_equal(cuzk_synthetic_porep(&c, 12, seed + 1, NULL, NULL), CUZK_OK);
    size_t bytes = (size_t)a.r1cs->n_vars * sizeof(cuzk_fr);
    assert_memory_equal(a.witness, b.witness, bytes);
    assert_true(memcmp(a.witness, c.witness, bytes) != 0);
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++) {
        assert_int_equal(a.r1cs->m[m].nnz, b.r1cs->m[m].nnz);
        assert_memory_equal(a.r1cs->m[m].col, b.r1cs->m[m].col, a.r1cs->m[m].nnz * 4);
    }
    cuzk_synthetic_free(&a);
    cuzk_synthetic_free(&b);
    cuzk_synthetic_free(&c);
}

static void test_bad_sizes(void **state)
{
    (void)state;
    cuzk_synthetic s;
    assert_int_equal(cuzk_synthetic_porep(&s, 1, 0, NULL, NULL), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_synthetic_porep(&s, 29, 0, NULL, NULL), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_synthetic_porep(NULL, 4, 0, NULL, NULL), CUZK_ERR_INVALID_ARG);
}

/* Two rows, 3 variables (ONE, one public, one aux); each matrix has one term per row. */
static void make_csr(cuzk_csr m[3], uint32_t col_a1, int zero_coeff, int unsorted)
{
    for (int k = 0; k < 3; k++) {
        uint64_t nnz = (k == 0 && unsorted) ? 3 : 2;
        m[k].nnz = nnz;
        m[k].row_ptr = malloc(3 * sizeof(uint64_t));
        m[k].col = malloc(nnz * sizeof(uint32_t));
        m[k].coeff = malloc(nnz * sizeof(cuzk_fr));
        m[k].row_ptr[0] = 0;
        m[k].row_ptr[1] = 1;
        m[k].row_ptr[2] = nnz;
        for (uint64_t t = 0; t < nnz; t++) {
            m[k].col[t] = (uint32_t)t % 3;
            m[k].coeff[t] = CUZK_FR_ONE;
        }
    }
    m[0].col[1] = col_a1;
    if (unsorted) { /* row 1 of A: columns 2, 1 */
        m[0].col[1] = 2;
        m[0].col[2] = 1;
    }
    if (zero_coeff)
        m[1].coeff[1] = CUZK_FR_ZERO;
}

static void test_from_csr_checks(void **state)
{
    (void)state;
    cuzk_csr m[3];
    cuzk_r1cs *r;
    cuzk_error e;
    make_csr(m, 1, 0, 0);
    assert_int_equal(cuzk_r1cs_from_csr(&r, 2, 1, 1, m, NULL, &e), CUZK_OK);
    assert_int_equal(r->n_vars, 3);
    assert_int_equal(r->density_count[CUZK_R1CS_A], 2);
    cuzk_r1cs_destroy(r);
    make_csr(m, 3, 0, 0); /* column out of range */
    assert_int_equal(cuzk_r1cs_from_csr(&r, 2, 1, 1, m, NULL, &e), CUZK_ERR_FORMAT);
    assert_non_null(strstr(e.msg, "matrix 0 row 1"));
    make_csr(m, 1, 1, 0); /* zero coefficient in B */
    assert_int_equal(cuzk_r1cs_from_csr(&r, 2, 1, 1, m, NULL, &e), CUZK_ERR_FORMAT);
    assert_non_null(strstr(e.msg, "matrix 1 row 1"));
    make_csr(m, 1, 0, 1); /* unsorted columns */
    assert_int_equal(cuzk_r1cs_from_csr(&r, 2, 1, 1, m, NULL, &e), CUZK_ERR_FORMAT);
    make_csr(m, 1, 0, 0);
    m[2].row_ptr[2] = 1; /* row pointers do not span nnz */
    assert_int_equal(cuzk_r1cs_from_csr(&r, 2, 1, 1, m, NULL, &e), CUZK_ERR_FORMAT);
}

static void test_coeff_table(void **state)
{
    (void)state;
    cuzk_synthetic c;
    assert_int_equal(cuzk_synthetic_porep(&c, 13, test_rng_u64(), NULL, NULL), CUZK_OK);
    cuzk_fr *vals;
    uint32_t nv, *idx[3];
    assert_int_equal(cuzk_r1cs_coeff_table(c.r1cs, &vals, &nv, idx, NULL), CUZK_OK);
    assert_true(cuzk_fr_is_one(&vals[0]));
    assert_true(nv >= 3 && nv <= 3 + 256); /* 1, 2, -1 and the circuit's constants */
    for (uint32_t i = 0; i < nv; i++) /* distinct */
        for (uint32_t j = i + 1; j < nv && j < i + 8; j++)
            assert_false(cuzk_fr_eq(&vals[i], &vals[j]));
    for (int m = 0; m < 3; m++) {
        for (uint64_t k = 0; k < c.r1cs->m[m].nnz; k++) {
            assert_true(idx[m][k] < nv);
            assert_true(cuzk_fr_eq(&vals[idx[m][k]], &c.r1cs->m[m].coeff[k]));
        }
        free(idx[m]);
    }
    free(vals);
    assert_int_equal(cuzk_r1cs_coeff_table(NULL, &vals, &nv, idx, NULL), CUZK_ERR_INVALID_ARG);
    cuzk_synthetic_free(&c);
}

/* The recorded form traded for the table form (a circuit the CSR cache could not take):
 * the same products A.w, B.w, C.w bit for bit, the same coefficient at every term, a
 * second call a no-op; a wrong witness is still refused at its row. */
static void test_r1cs_compact(void **state)
{
    (void)state;
    cuzk_synthetic c;
    assert_int_equal(cuzk_synthetic_porep(&c, 12, test_rng_u64(), NULL, NULL), CUZK_OK);
    cuzk_r1cs *r = c.r1cs;
    uint64_t rows = r->n_constraints;
    cuzk_fr *before = malloc(3 * rows * sizeof *before), *after = malloc(3 * rows * sizeof *after);
    cuzk_fr *coeff[3];
    for (int m = 0; m < 3; m++) {
        coeff[m] = malloc((r->m[m].nnz ? r->m[m].nnz : 1) * sizeof(cuzk_fr));
        memcpy(coeff[m], r->m[m].coeff, r->m[m].nnz * sizeof(cuzk_fr));
    }
    assert_non_null(before);
    assert_non_null(after);
    cuzk_witness w = cuzk_witness_dense(c.witness, r->n_vars);
    assert_int_equal(cuzk_r1cs_eval(r, &w, before, before + rows, before + 2 * rows, NULL),
                     CUZK_OK);
    /* a tampered witness, refused at the same row by both forms: the first variable of A
     * whose change some row notices (a row whose B is 0 notices none) */
    uint32_t tv = 0;
    uint64_t bad_rec = UINT64_MAX, bad = 0;
    for (uint64_t k = 0; k < r->m[0].nnz && bad_rec == UINT64_MAX; k++) {
        if ((tv = r->m[0].col[k]) == 0)
            continue;
        cuzk_fr saved = c.witness[tv];
        cuzk_fr_add(&c.witness[tv], &c.witness[tv], &CUZK_FR_ONE);
        if (cuzk_r1cs_check(r, &w, &bad_rec, NULL) != CUZK_ERR_UNSATISFIED)
            bad_rec = UINT64_MAX;
        c.witness[tv] = saved;
    }
    assert_true(bad_rec < rows);
    assert_null(r->coeff_values);
    assert_int_equal(cuzk_r1cs_compact(r, NULL), CUZK_OK);
    assert_non_null(r->coeff_values);
    assert_true(r->n_coeff_values >= 3 && r->n_coeff_values < 300);
    for (int m = 0; m < 3; m++) {
        assert_null(r->m[m].coeff);
        for (uint64_t k = 0; k < r->m[m].nnz; k++)
            assert_true(cuzk_fr_eq(cuzk_r1cs_coeff(r, (cuzk_r1cs_matrix)m, k), &coeff[m][k]));
        free(coeff[m]);
    }
    const cuzk_fr *vals = r->coeff_values;
    assert_int_equal(cuzk_r1cs_compact(r, NULL), CUZK_OK); /* already compact */
    assert_ptr_equal(r->coeff_values, vals);
    assert_int_equal(cuzk_r1cs_eval(r, &w, after, after + rows, after + 2 * rows, NULL),
                     CUZK_OK);
    assert_memory_equal(before, after, 3 * rows * sizeof *after);
    assert_int_equal(cuzk_r1cs_check(r, &w, &bad, NULL), CUZK_OK);
    cuzk_fr_add(&c.witness[tv], &c.witness[tv], &CUZK_FR_ONE);
    assert_int_equal(cuzk_r1cs_check(r, &w, &bad, NULL), CUZK_ERR_UNSATISFIED);
    assert_true(bad == bad_rec);
    assert_int_equal(cuzk_r1cs_compact(NULL, NULL), CUZK_ERR_INVALID_ARG);
    free(before);
    free(after);
    cuzk_synthetic_free(&c); /* frees the table and indices (ASan: no leak) */
}

static void test_compact_witness(void **state)
{
    (void)state;
    cuzk_pool *pool;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    cuzk_synthetic c;
    assert_int_equal(cuzk_synthetic_porep(&c, 13, test_rng_u64(), pool, NULL), CUZK_OK);
    uint32_t n = c.r1cs->n_vars;
    /* every marked variable is a bit of the witness, and most aux variables are marked */
    assert_true(c.map.n_bits <= c.bits && c.map.n_bits > (uint32_t)(0.98 * c.r1cs->n_aux));
    cuzk_witness w = cuzk_synthetic_compact(&c);
    for (uint32_t v = 0; v < n; v++) {
        cuzk_fr x;
        cuzk_witness_value(&x, &w, v);
        assert_true(cuzk_fr_eq(&x, &c.witness[v]));
    }
    cuzk_fr *e = malloc((size_t)n * sizeof *e);
    assert_int_equal(cuzk_witness_expand(e, &w, pool), CUZK_OK);
    assert_memory_equal(e, c.witness, (size_t)n * sizeof *e);
    assert_int_equal(cuzk_witness_map_bits_before(&c.map, n), c.map.n_bits);
    /* a marked variable that is not 0 or 1 is refused, naming it */
    uint32_t v = 2;
    while (!((c.map.is_bit[v >> 6] >> (v & 63)) & 1))
        v++;
    cuzk_fr_from_u64(&e[v], 2);
    cuzk_error err;
    assert_int_equal(cuzk_witness_compress(c.bit_values, c.dense, &c.map, e, &err),
                     CUZK_ERR_FORMAT);
    char want[32];
    snprintf(want, sizeof want, "variable %u", v);
    assert_non_null(strstr(err.msg, want));
    /* maps marking ONE or variables past the end are refused */
    cuzk_witness_map m;
    uint64_t words[2] = {1, 0};
    assert_int_equal(cuzk_witness_map_init(&m, words, 100, NULL), CUZK_ERR_INVALID_ARG);
    words[0] = 2;
    words[1] = (uint64_t)1 << 40; /* variable 104 >= 100 */
    assert_int_equal(cuzk_witness_map_init(&m, words, 100, NULL), CUZK_ERR_INVALID_ARG);
    words[1] = (uint64_t)1 << 30;
    assert_int_equal(cuzk_witness_map_init(&m, words, 100, NULL), CUZK_OK);
    assert_int_equal(m.n_bits, 2);
    assert_int_equal(cuzk_witness_map_bits_before(&m, 95), 2);
    assert_int_equal(cuzk_witness_map_bits_before(&m, 94), 1);
    cuzk_witness_map_free(&m);
    free(e);
    cuzk_synthetic_free(&c);
    cuzk_pool_destroy(pool);
}

int main(void)
{
    test_rng_init("synthetic");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_satisfied_every_size),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_bad_sizes),
        cmocka_unit_test(test_from_csr_checks),
        cmocka_unit_test(test_coeff_table),
        cmocka_unit_test(test_r1cs_compact),
        cmocka_unit_test(test_compact_witness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
