/*
 * test_r1cs.c — the r1cs layer: builder -> CSR, A·w/B·w/C·w, density bitmaps and the
 * satisfaction check.
 *
 * Oracles: a hand-worked circuit (x^3 + x + 5 = out) with values computed on paper, and
 * random systems whose terms the test keeps in its own unmerged list; products and density
 * are recomputed from that list term by term (no sorting or merging), which is a different
 * path from the CSR's sort-merge-drop-zeros. The table form of the coefficients (coeff
 * NULL, cuzk_r1cs_coeff) is held to the same oracle.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cuzk/pool.h"
#include "cuzk/r1cs.h"
#include "test_rng.h"

static cuzk_fr fr_u64(uint64_t v)
{
    cuzk_fr r;
    cuzk_fr_from_u64(&r, v);
    return r;
}

static void add(cuzk_r1cs_builder *b, cuzk_r1cs_matrix m, cuzk_r1cs_var v, uint64_t c)
{
    cuzk_fr f = fr_u64(c);
    assert_int_equal(cuzk_r1cs_builder_add_term(b, m, v, &f, NULL), CUZK_OK);
}

/* CSR invariants promised by r1cs.h. */
static void check_csr_invariants(const cuzk_r1cs *r)
{
    assert_int_equal(r->n_vars, 1 + r->n_public + r->n_aux);
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++) {
        const cuzk_csr *c = &r->m[m];
        assert_int_equal(c->row_ptr[0], 0);
        assert_int_equal(c->row_ptr[r->n_constraints], c->nnz);
        for (uint64_t i = 0; i < r->n_constraints; i++) {
            assert_true(c->row_ptr[i] <= c->row_ptr[i + 1]);
            for (uint64_t k = c->row_ptr[i]; k < c->row_ptr[i + 1]; k++) {
                assert_true(c->col[k] < r->n_vars);
                assert_false(cuzk_fr_is_zero(&c->coeff[k]));
                if (k > c->row_ptr[i])
                    assert_true(c->col[k - 1] < c->col[k]);
            }
        }
    }
}

/*
 * x^3 + x + 5 = out with x = 3, out = 35. Variables: ONE, out (public), x, s = x*x,
 * y = s*x (aux), i.e. indices 0..4. Aux is allocated before the public input on purpose:
 * the final order must still be ONE, public, aux.
 *   row 0: x * x = s
 *   row 1: s * x = y
 *   row 2: (y + x + 5) * 1 = out
 */
static cuzk_r1cs *build_cubic(void)
{
    cuzk_r1cs_builder *b;
    cuzk_r1cs_var x, out;
    assert_int_equal(cuzk_r1cs_builder_create(&b, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_alloc_aux(b, 3, &x, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_alloc_public(b, 1, &out, NULL), CUZK_OK);
    cuzk_r1cs_var s = x + 1, y = x + 2;
    assert_int_equal(cuzk_r1cs_builder_begin_row(b, NULL), CUZK_OK);
    add(b, CUZK_R1CS_A, x, 1);
    add(b, CUZK_R1CS_B, x, 1);
    add(b, CUZK_R1CS_C, s, 1);
    assert_int_equal(cuzk_r1cs_builder_begin_row(b, NULL), CUZK_OK);
    add(b, CUZK_R1CS_A, s, 1);
    add(b, CUZK_R1CS_B, x, 1);
    add(b, CUZK_R1CS_C, y, 1);
    assert_int_equal(cuzk_r1cs_builder_begin_row(b, NULL), CUZK_OK);
    add(b, CUZK_R1CS_A, y, 1);
    add(b, CUZK_R1CS_A, CUZK_R1CS_VAR_ONE, 2); /* 2 + 3 = 5, merged at finish */
    add(b, CUZK_R1CS_A, x, 1);
    add(b, CUZK_R1CS_A, CUZK_R1CS_VAR_ONE, 3);
    add(b, CUZK_R1CS_B, CUZK_R1CS_VAR_ONE, 1);
    add(b, CUZK_R1CS_C, out, 1);
    add(b, CUZK_R1CS_C, x, 7); /* cancelled below: x must not enter C's density */
    cuzk_fr m7 = fr_u64(7);
    cuzk_fr_neg(&m7, &m7);
    assert_int_equal(cuzk_r1cs_builder_add_term(b, CUZK_R1CS_C, x, &m7, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_rows(b), 3);
    cuzk_r1cs *r = NULL;
    assert_int_equal(cuzk_r1cs_builder_finish(b, &r, NULL), CUZK_OK);
    return r;
}

static void test_cubic(void **state)
{
    (void)state;
    cuzk_r1cs *r = build_cubic();
    assert_int_equal(r->n_constraints, 3);
    assert_int_equal(r->n_public, 1);
    assert_int_equal(r->n_aux, 3);
    assert_int_equal(r->n_vars, 5);
    check_csr_invariants(r);
    /* row 2 of A after merging: ONE*5, x*1, y*1 in column order */
    const cuzk_csr *A = &r->m[CUZK_R1CS_A];
    assert_int_equal(A->row_ptr[3] - A->row_ptr[2], 3);
    assert_int_equal(A->col[A->row_ptr[2]], 0);
    cuzk_fr five = fr_u64(5);
    assert_true(cuzk_fr_eq(&A->coeff[A->row_ptr[2]], &five));
    assert_int_equal(r->m[CUZK_R1CS_C].row_ptr[3] - r->m[CUZK_R1CS_C].row_ptr[2], 1);

    /* density: A uses ONE, x, s, y; B uses ONE, x; C uses out, s, y */
    static const int dA[5] = {1, 0, 1, 1, 1}, dB[5] = {1, 0, 1, 0, 0}, dC[5] = {0, 1, 0, 1, 1};
    for (uint32_t v = 0; v < 5; v++) {
        assert_int_equal(cuzk_r1cs_density_test(r, CUZK_R1CS_A, v), dA[v]);
        assert_int_equal(cuzk_r1cs_density_test(r, CUZK_R1CS_B, v), dB[v]);
        assert_int_equal(cuzk_r1cs_density_test(r, CUZK_R1CS_C, v), dC[v]);
    }
    assert_false(cuzk_r1cs_density_test(r, CUZK_R1CS_A, 5));
    assert_int_equal(r->density_count[CUZK_R1CS_A], 4);
    assert_int_equal(r->density_count[CUZK_R1CS_B], 2);
    assert_int_equal(r->density_count[CUZK_R1CS_C], 3);
    /* bellperson a_aux / b_input / b_aux */
    assert_int_equal(cuzk_r1cs_density_count(r, CUZK_R1CS_A, 2, 5), 3);
    assert_int_equal(cuzk_r1cs_density_count(r, CUZK_R1CS_B, 0, 2), 1);
    assert_int_equal(cuzk_r1cs_density_count(r, CUZK_R1CS_B, 2, UINT32_MAX), 1);
    assert_int_equal(cuzk_r1cs_density_count(r, CUZK_R1CS_B, 3, 3), 0);

    cuzk_fr w[5] = {fr_u64(1), fr_u64(35), fr_u64(3), fr_u64(9), fr_u64(27)};
    cuzk_witness wv = cuzk_witness_dense(w, 5);
    cuzk_fr a[3], bb[3], c[3];
    assert_int_equal(cuzk_r1cs_eval(r, &wv, a, bb, c, NULL), CUZK_OK);
    static const uint64_t ea[3] = {3, 9, 35}, eb[3] = {3, 3, 1}, ec[3] = {9, 27, 35};
    for (int i = 0; i < 3; i++) {
        cuzk_fr t = fr_u64(ea[i]);
        assert_true(cuzk_fr_eq(&a[i], &t));
        t = fr_u64(eb[i]);
        assert_true(cuzk_fr_eq(&bb[i], &t));
        t = fr_u64(ec[i]);
        assert_true(cuzk_fr_eq(&c[i], &t));
    }
    /* NULL outputs skip a matrix */
    cuzk_fr a2[3];
    assert_int_equal(cuzk_r1cs_eval(r, &wv, a2, NULL, NULL, NULL), CUZK_OK);
    assert_memory_equal(a2, a, sizeof a);

    uint64_t row = 0;
    cuzk_error err;
    assert_int_equal(cuzk_r1cs_check(r, &wv, &row, &err), CUZK_OK);
    assert_int_equal(row, UINT64_MAX);

    /* y = 28: row 1 (s*x = y) is the first to fail; 9*3 != 0x1c */
    w[4] = fr_u64(28);
    assert_int_equal(cuzk_r1cs_check(r, &wv, &row, &err), CUZK_ERR_UNSATISFIED);
    assert_int_equal(err.code, CUZK_ERR_UNSATISFIED);
    assert_int_equal(row, 1);
    assert_non_null(strstr(err.msg, "constraint 1 "));
    /* the row, never the values: A.w, B.w, C.w derive from the secret witness */
    assert_null(strstr(err.msg, "A.w"));
    assert_null(strstr(err.msg, "0x"));
    w[4] = fr_u64(27);
    /* out = 36: only row 2 fails */
    w[1] = fr_u64(36);
    assert_int_equal(cuzk_r1cs_check(r, &wv, &row, NULL), CUZK_ERR_UNSATISFIED);
    assert_int_equal(row, 2);
    w[1] = fr_u64(35);
    /* x = 4: row 0 fails first */
    w[2] = fr_u64(4);
    assert_int_equal(cuzk_r1cs_check(r, &wv, &row, &err), CUZK_ERR_UNSATISFIED);
    assert_int_equal(row, 0);
    assert_non_null(strstr(err.msg, "constraint 0 "));
    w[2] = fr_u64(3);
    /* ONE must be 1 */
    w[0] = fr_u64(2);
    assert_int_equal(cuzk_r1cs_check(r, &wv, &row, &err), CUZK_ERR_FORMAT);
    assert_int_equal(row, UINT64_MAX);
    w[0] = fr_u64(1);
    /* witness of the wrong length */
    cuzk_witness shortw = cuzk_witness_dense(w, 4);
    assert_int_equal(cuzk_r1cs_check(r, &shortw, &row, &err), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_r1cs_eval(r, &shortw, a, bb, c, NULL), CUZK_ERR_INVALID_ARG);
    /* a secret value (-1 = r - 1) must not reach the message in any form */
    cuzk_fr m1;
    cuzk_fr_neg(&m1, &w[0]);
    w[4] = m1;
    assert_int_equal(cuzk_r1cs_check(r, &wv, &row, &err), CUZK_ERR_UNSATISFIED);
    assert_string_equal(err.msg, "constraint 1 unsatisfied");
    w[4] = fr_u64(27);
    /* without C (a .zkey's A/B) there is nothing to check against, and no C.w */
    r->c_absent = true;
    assert_int_equal(cuzk_r1cs_check(r, &wv, &row, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "no C matrix"));
    assert_int_equal(cuzk_r1cs_eval(r, &wv, a, bb, c, NULL), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_r1cs_eval(r, &wv, a, bb, NULL, NULL), CUZK_OK);
    r->c_absent = false;
    cuzk_fr v;
    cuzk_witness_value(&v, &wv, 2);
    assert_true(cuzk_fr_eq(&v, &w[2]));
    cuzk_r1cs_destroy(r);
}

/* ---- random systems ------------------------------------------------------------------ */

typedef struct rterm {
    uint64_t row;
    int m;
    uint32_t idx; /* final variable index */
    cuzk_fr c;
} rterm;

typedef struct rsys {
    uint32_t n_public, n_aux;
    uint64_t rows;
    rterm *t;
    size_t nt, cap;
} rsys;

static void rsys_push(rsys *s, uint64_t row, int m, uint32_t idx, const cuzk_fr *c)
{
    if (s->nt == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->t = realloc(s->t, s->cap * sizeof *s->t);
        assert_non_null(s->t);
    }
    s->t[s->nt++] = (rterm){row, m, idx, *c};
}

static cuzk_r1cs_var var_of(const rsys *s, uint32_t idx)
{
    if (idx == 0)
        return CUZK_R1CS_VAR_ONE;
    if (idx <= s->n_public)
        return CUZK_R1CS_VAR_PUBLIC(idx - 1);
    return CUZK_R1CS_VAR_AUX(idx - 1 - s->n_public);
}

static void rand_coeff(cuzk_fr *c)
{
    switch (test_rng_u64() % 5) {
    case 0: *c = CUZK_FR_ONE; break;
    case 1: *c = CUZK_FR_ZERO; break;
    case 2: cuzk_fr_neg(c, &CUZK_FR_ONE); break;
    default: test_rand_fr(c); break;
    }
}

/* Adds a term to both the builder and the test's own list; sometimes also the same
 * variable again with the negated coefficient, which must cancel. */
static void rand_term(rsys *s, cuzk_r1cs_builder *b, uint64_t row, int m, uint32_t max_idx)
{
    uint32_t idx = (uint32_t)(test_rng_u64() % (max_idx + 1ull));
    cuzk_fr c;
    rand_coeff(&c);
    assert_int_equal(cuzk_r1cs_builder_add_term(b, (cuzk_r1cs_matrix)m, var_of(s, idx), &c, NULL),
                     CUZK_OK);
    rsys_push(s, row, m, idx, &c);
    if (test_rng_u64() % 8 == 0) {
        cuzk_fr_neg(&c, &c);
        assert_int_equal(
            cuzk_r1cs_builder_add_term(b, (cuzk_r1cs_matrix)m, var_of(s, idx), &c, NULL), CUZK_OK);
        rsys_push(s, row, m, idx, &c);
    }
}

/* Term-by-term products from the test's list. */
static void naive_eval(const rsys *s, const cuzk_fr *w, cuzk_fr *out[3])
{
    for (int m = 0; m < 3; m++)
        for (uint64_t i = 0; i < s->rows; i++)
            out[m][i] = CUZK_FR_ZERO;
    for (size_t k = 0; k < s->nt; k++) {
        cuzk_fr t;
        cuzk_fr_mul(&t, &s->t[k].c, &w[s->t[k].idx]);
        cuzk_fr_add(&out[s->t[k].m][s->t[k].row], &out[s->t[k].m][s->t[k].row], &t);
    }
}

/* Variable v is dense in m iff its summed coefficient is non-zero in some row. */
static bool naive_density(const rsys *s, int m, uint32_t v)
{
    for (uint64_t i = 0; i < s->rows; i++) {
        cuzk_fr sum = CUZK_FR_ZERO;
        for (size_t k = 0; k < s->nt; k++)
            if (s->t[k].m == m && s->t[k].row == i && s->t[k].idx == v)
                cuzk_fr_add(&sum, &sum, &s->t[k].c);
        if (!cuzk_fr_is_zero(&sum))
            return true;
    }
    return false;
}

/* Random system. When satisfiable, row i defines a fresh aux variable through C (plus
 * noise terms over earlier variables), A and B use only earlier variables; w is filled so
 * every row holds. Otherwise every term is random and w is random. */
static cuzk_r1cs *rand_system(rsys *s, cuzk_fr **wout, bool satisfiable)
{
    memset(s, 0, sizeof *s);
    s->n_public = (uint32_t)(test_rng_u64() % 4);
    s->rows = test_rng_u64() % 40;
    uint32_t extra = (uint32_t)(test_rng_u64() % 70);
    s->n_aux = (uint32_t)s->rows + extra;
    uint32_t n_vars = 1 + s->n_public + s->n_aux;
    cuzk_fr *w = calloc(n_vars, sizeof *w);
    assert_non_null(w);
    w[0] = CUZK_FR_ONE;
    /* the first 1+n_public+extra variables are free; aux variable first_def + i is row i's */
    uint32_t first_def = 1 + s->n_public + extra;
    for (uint32_t v = 1; v < (satisfiable ? first_def : n_vars); v++)
        test_rand_fr(&w[v]);

    cuzk_r1cs_builder *b;
    assert_int_equal(cuzk_r1cs_builder_create(&b, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_alloc_public(b, s->n_public, NULL, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_alloc_aux(b, s->n_aux, NULL, NULL), CUZK_OK);
    for (uint64_t i = 0; i < s->rows; i++) {
        assert_int_equal(cuzk_r1cs_builder_begin_row(b, NULL), CUZK_OK);
        uint32_t max_idx = satisfiable ? first_def + (uint32_t)i - 1 : n_vars - 1;
        for (int m = 0; m < 3; m++) {
            /* occasionally a long row, to take the heapsort path */
            unsigned n = test_rng_u64() % 16 == 0 ? 20 + test_rng_u64() % 40 : test_rng_u64() % 6;
            for (unsigned k = 0; k < n; k++)
                rand_term(s, b, i, m, max_idx);
        }
        if (satisfiable) {
            uint32_t def = first_def + (uint32_t)i;
            cuzk_fr c;
            do
                test_rand_fr(&c);
            while (cuzk_fr_is_zero(&c));
            assert_int_equal(cuzk_r1cs_builder_add_term(b, CUZK_R1CS_C, var_of(s, def), &c, NULL),
                             CUZK_OK);
            rsys_push(s, i, CUZK_R1CS_C, def, &c);
            /* w[def] = (A.w * B.w - rest of C.w) / c, from this row's terms so far */
            cuzk_fr acc[3] = {CUZK_FR_ZERO, CUZK_FR_ZERO, CUZK_FR_ZERO}, t;
            for (size_t k = 0; k < s->nt; k++)
                if (s->t[k].row == i && s->t[k].idx != def) {
                    cuzk_fr_mul(&t, &s->t[k].c, &w[s->t[k].idx]);
                    cuzk_fr_add(&acc[s->t[k].m], &acc[s->t[k].m], &t);
                }
            cuzk_fr_mul(&t, &acc[0], &acc[1]);
            cuzk_fr_sub(&t, &t, &acc[2]);
            cuzk_fr_inv(&c, &c);
            cuzk_fr_mul(&w[def], &t, &c);
        }
    }
    cuzk_r1cs *r = NULL;
    assert_int_equal(cuzk_r1cs_builder_finish(b, &r, NULL), CUZK_OK);
    *wout = w;
    return r;
}

static void test_random_eval_density(void **state)
{
    (void)state;
    cuzk_pool *pool = NULL;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    size_t iters = test_iters(40);
    for (size_t it = 0; it < iters; it++) {
        rsys s;
        cuzk_fr *w;
        cuzk_r1cs *r = rand_system(&s, &w, false);
        assert_int_equal(r->n_constraints, s.rows);
        check_csr_invariants(r);
        size_t n = s.rows ? s.rows : 1;
        cuzk_fr *buf = calloc(9 * n, sizeof *buf);
        assert_non_null(buf);
        cuzk_fr *want[3] = {buf, buf + n, buf + 2 * n};
        naive_eval(&s, w, want);
        cuzk_witness wv = cuzk_witness_dense(w, r->n_vars);
        assert_int_equal(cuzk_r1cs_eval(r, &wv, buf + 3 * n, buf + 4 * n, buf + 5 * n, NULL),
                         CUZK_OK);
        assert_int_equal(cuzk_r1cs_eval(r, &wv, buf + 6 * n, buf + 7 * n, buf + 8 * n, pool),
                         CUZK_OK);
        assert_memory_equal(buf, buf + 3 * n, 3 * s.rows * sizeof *buf);
        assert_memory_equal(buf, buf + 6 * n, 3 * s.rows * sizeof *buf);
        for (int m = 0; m < 3; m++) {
            uint64_t cnt = 0;
            for (uint32_t v = 0; v < r->n_vars; v++) {
                bool d = naive_density(&s, m, v);
                cnt += d;
                assert_int_equal(cuzk_r1cs_density_test(r, (cuzk_r1cs_matrix)m, v), d);
            }
            assert_int_equal(r->density_count[m], cnt);
            uint32_t lo = (uint32_t)(test_rng_u64() % (r->n_vars + 1));
            uint32_t hi = (uint32_t)(test_rng_u64() % (r->n_vars + 2));
            uint64_t want_cnt = 0;
            for (uint32_t v = lo; v < hi && v < r->n_vars; v++)
                want_cnt += cuzk_r1cs_density_test(r, (cuzk_r1cs_matrix)m, v);
            assert_int_equal(cuzk_r1cs_density_count(r, (cuzk_r1cs_matrix)m, lo, hi), want_cnt);
        }
        free(buf);
        free(w);
        free(s.t);
        cuzk_r1cs_destroy(r);
    }
    cuzk_pool_destroy(pool);
}

static void test_random_check(void **state)
{
    (void)state;
    size_t iters = test_iters(40);
    for (size_t it = 0; it < iters; it++) {
        rsys s;
        cuzk_fr *w;
        cuzk_r1cs *r = rand_system(&s, &w, true);
        cuzk_witness wv = cuzk_witness_dense(w, r->n_vars);
        uint64_t row = 0;
        cuzk_error err;
        assert_int_equal(cuzk_r1cs_check(r, &wv, &row, &err), CUZK_OK);
        assert_int_equal(row, UINT64_MAX);
        if (r->n_vars > 1) {
            /* change one non-ONE value; the expected first failure comes from the list */
            uint32_t v = 1 + (uint32_t)(test_rng_u64() % (r->n_vars - 1));
            cuzk_fr one = CUZK_FR_ONE;
            cuzk_fr_add(&w[v], &w[v], &one);
            size_t n = s.rows ? s.rows : 1;
            cuzk_fr *buf = calloc(3 * n, sizeof *buf);
            assert_non_null(buf);
            cuzk_fr *out[3] = {buf, buf + n, buf + 2 * n};
            naive_eval(&s, w, out);
            uint64_t want = UINT64_MAX;
            for (uint64_t i = 0; i < s.rows && want == UINT64_MAX; i++) {
                cuzk_fr ab;
                cuzk_fr_mul(&ab, &out[0][i], &out[1][i]);
                if (!cuzk_fr_eq(&ab, &out[2][i]))
                    want = i;
            }
            cuzk_status st = cuzk_r1cs_check(r, &wv, &row, &err);
            assert_int_equal(row, want);
            assert_int_equal(st, want == UINT64_MAX ? CUZK_OK : CUZK_ERR_UNSATISFIED);
            if (want != UINT64_MAX) {
                char needle[48];
                snprintf(needle, sizeof needle, "constraint %llu ", (unsigned long long)want);
                assert_non_null(strstr(err.msg, needle));
            }
            free(buf);
        }
        free(w);
        free(s.t);
        cuzk_r1cs_destroy(r);
    }
}

/* The table form (cuzk/r1cs.h, "Coefficients"; what a mapped cache carries): a view of a
 * random system whose matrices, chosen at random, have coeff NULL and read through the
 * table gives cuzk_r1cs_coeff equal to the direct form term by term, the naive products
 * bit for bit (calling thread and pool) and the same check result; a matrix with terms
 * and neither form is refused by eval, the check and the table builder. */
static void test_table_form(void **state)
{
    (void)state;
    cuzk_pool *pool = NULL;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    size_t iters = test_iters(40);
    for (size_t it = 0; it < iters; it++) {
        rsys s;
        cuzk_fr *w, *vals;
        uint32_t n_vals, *idx[3];
        bool sat = it & 1;
        cuzk_r1cs *r = rand_system(&s, &w, sat);
        assert_int_equal(cuzk_r1cs_coeff_table(r, &vals, &n_vals, idx, NULL), CUZK_OK);
        cuzk_r1cs v = *r; /* a non-owning view: never destroyed */
        v.coeff_values = vals;
        v.n_coeff_values = n_vals;
        unsigned form = (unsigned)(test_rng_u64() % 8) | 1; /* bit m: matrix m indexed */
        for (int m = 0; m < 3; m++) {
            v.coeff_index[m] = idx[m];
            if (form >> m & 1)
                v.m[m].coeff = NULL;
            for (uint64_t k = 0; k < r->m[m].nnz; k++)
                assert_memory_equal(cuzk_r1cs_coeff(&v, (cuzk_r1cs_matrix)m, k),
                                    &r->m[m].coeff[k], sizeof(cuzk_fr));
        }
        size_t n = s.rows ? s.rows : 1;
        cuzk_fr *buf = calloc(9 * n, sizeof *buf);
        assert_non_null(buf);
        cuzk_fr *want[3] = {buf, buf + n, buf + 2 * n};
        naive_eval(&s, w, want);
        cuzk_witness wv = cuzk_witness_dense(w, r->n_vars);
        assert_int_equal(cuzk_r1cs_eval(&v, &wv, buf + 3 * n, buf + 4 * n, buf + 5 * n, NULL),
                         CUZK_OK);
        assert_memory_equal(buf, buf + 3 * n, 3 * s.rows * sizeof *buf);
        uint64_t row[2];
        cuzk_status st0 = cuzk_r1cs_eval_check(r, &wv, NULL, NULL, NULL, &row[0], pool, NULL);
        cuzk_status st1 = cuzk_r1cs_eval_check(&v, &wv, buf + 6 * n, buf + 7 * n, buf + 8 * n,
                                               &row[1], pool, NULL);
        assert_int_equal(st0, st1);
        assert_int_equal(row[0], row[1]);
        if (sat) {
            assert_int_equal(st1, CUZK_OK);
            assert_memory_equal(buf, buf + 6 * n, 3 * s.rows * sizeof *buf);
        }
        /* neither form in a matrix with terms */
        int m = -1;
        for (int k = 0; k < 3 && m < 0; k++)
            if (r->m[k].nnz)
                m = k;
        if (m >= 0) {
            v.m[m].coeff = NULL;
            v.coeff_index[m] = NULL;
            cuzk_error err = {0};
            assert_int_equal(cuzk_r1cs_eval(&v, &wv, buf, NULL, NULL, NULL), CUZK_ERR_INVALID_ARG);
            assert_int_equal(cuzk_r1cs_check(&v, &wv, NULL, &err), CUZK_ERR_INVALID_ARG);
            assert_non_null(strstr(err.msg, "no coefficients"));
            cuzk_fr *tv;
            uint32_t tn, *ti[3];
            assert_int_equal(cuzk_r1cs_coeff_table(&v, &tv, &tn, ti, NULL), CUZK_ERR_INVALID_ARG);
        }
        free(buf);
        free(vals);
        for (int k = 0; k < 3; k++)
            free(idx[k]);
        free(w);
        free(s.t);
        cuzk_r1cs_destroy(r);
    }
    cuzk_pool_destroy(pool);
}

/* Enough rows for several pool chunks (grain 4096), so the split is really exercised. */
static void test_eval_pool_chunks(void **state)
{
    (void)state;
    rsys s;
    memset(&s, 0, sizeof s);
    s.n_public = 5;
    s.n_aux = 200;
    s.rows = 3 * 4096 + 123;
    uint32_t n_vars = 1 + s.n_public + s.n_aux;
    cuzk_r1cs_builder *b;
    assert_int_equal(cuzk_r1cs_builder_create(&b, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_alloc_public(b, s.n_public, NULL, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_alloc_aux(b, s.n_aux, NULL, NULL), CUZK_OK);
    for (uint64_t i = 0; i < s.rows; i++) {
        assert_int_equal(cuzk_r1cs_builder_begin_row(b, NULL), CUZK_OK);
        for (int m = 0; m < 3; m++)
            for (int k = 0; k < 3; k++)
                rand_term(&s, b, i, m, n_vars - 1);
    }
    cuzk_r1cs *r;
    assert_int_equal(cuzk_r1cs_builder_finish(b, &r, NULL), CUZK_OK);
    cuzk_fr *w = malloc(n_vars * sizeof *w);
    cuzk_fr *buf = malloc(9 * s.rows * sizeof *buf);
    assert_true(w && buf);
    w[0] = CUZK_FR_ONE;
    for (uint32_t v = 1; v < n_vars; v++)
        test_rand_fr(&w[v]);
    cuzk_fr *want[3] = {buf, buf + s.rows, buf + 2 * s.rows};
    naive_eval(&s, w, want);
    cuzk_pool *pool;
    assert_int_equal(cuzk_pool_create(&pool, 2), CUZK_OK);
    cuzk_witness wv = cuzk_witness_dense(w, n_vars);
    cuzk_fr *o = buf + 3 * s.rows;
    assert_int_equal(cuzk_r1cs_eval(r, &wv, o, o + s.rows, o + 2 * s.rows, pool), CUZK_OK);
    assert_memory_equal(buf, o, 3 * s.rows * sizeof *buf);
    o = buf + 6 * s.rows;
    assert_int_equal(cuzk_r1cs_eval(r, &wv, NULL, o + s.rows, NULL, pool), CUZK_OK);
    assert_memory_equal(want[1], o + s.rows, s.rows * sizeof *buf);
    cuzk_pool_destroy(pool);
    cuzk_r1cs_destroy(r);
    free(buf);
    free(w);
    free(s.t);
}

/* eval_check: one parallel pass gives eval's outputs bit for bit and, with several failing
 * rows spread over many pool chunks, always reports the lowest one, for any thread count. */
static void test_eval_check_parallel(void **state)
{
    (void)state;
    /* row i: x_i * x_i = y_i, with y_i = x_i^2 so every row holds until broken */
    uint64_t rows = 5 * 4096 + 77;
    uint32_t n_vars = 1 + 2 * (uint32_t)rows;
    cuzk_r1cs_builder *b;
    cuzk_fr one = CUZK_FR_ONE, three;
    three = fr_u64(3);
    assert_int_equal(cuzk_r1cs_builder_create(&b, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_alloc_aux(b, n_vars - 1, NULL, NULL), CUZK_OK);
    for (uint64_t i = 0; i < rows; i++) {
        assert_int_equal(cuzk_r1cs_builder_begin_row(b, NULL), CUZK_OK);
        cuzk_r1cs_var x = CUZK_R1CS_VAR_AUX(2 * i), y = CUZK_R1CS_VAR_AUX(2 * i + 1);
        assert_int_equal(cuzk_r1cs_builder_add_term(b, CUZK_R1CS_A, x, &one, NULL), CUZK_OK);
        assert_int_equal(cuzk_r1cs_builder_add_term(b, CUZK_R1CS_B, x, &one, NULL), CUZK_OK);
        assert_int_equal(cuzk_r1cs_builder_add_term(b, CUZK_R1CS_B, 0, &three, NULL), CUZK_OK);
        assert_int_equal(cuzk_r1cs_builder_add_term(b, CUZK_R1CS_C, y, &one, NULL), CUZK_OK);
    }
    cuzk_r1cs *r;
    assert_int_equal(cuzk_r1cs_builder_finish(b, &r, NULL), CUZK_OK);
    cuzk_fr *w = malloc(n_vars * sizeof *w), *buf = malloc(6 * rows * sizeof *buf);
    assert_true(w && buf);
    w[0] = CUZK_FR_ONE;
    for (uint64_t i = 0; i < rows; i++) {
        cuzk_fr xb;
        test_rand_fr(&w[1 + 2 * i]);
        cuzk_fr_add(&xb, &w[1 + 2 * i], &three);
        cuzk_fr_mul(&w[2 + 2 * i], &w[1 + 2 * i], &xb);
    }
    cuzk_witness wv = cuzk_witness_dense(w, n_vars);
    assert_int_equal(cuzk_r1cs_eval(r, &wv, buf, buf + rows, buf + 2 * rows, NULL), CUZK_OK);
    const unsigned counts[] = {1, 2, 3, 5};
    cuzk_error err;
    uint64_t row;
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        cuzk_pool *pool;
        assert_int_equal(cuzk_pool_create(&pool, counts[ci]), CUZK_OK);
        cuzk_fr *o = buf + 3 * rows;
        assert_int_equal(cuzk_r1cs_eval_check(r, &wv, o, o + rows, o + 2 * rows, &row, pool,
                                              &err),
                         CUZK_OK);
        assert_int_equal(row, UINT64_MAX);
        assert_memory_equal(buf, o, 3 * rows * sizeof *buf);
        /* break three random rows in different chunks; the lowest must be named */
        uint64_t bad[3], want = UINT64_MAX;
        for (int k = 0; k < 3; k++) {
            bad[k] = test_rng_u64() % rows;
            if (bad[k] < want)
                want = bad[k];
            cuzk_fr_add(&w[2 + 2 * bad[k]], &w[2 + 2 * bad[k]], &one);
        }
        for (int rep = 0; rep < 5; rep++) {
            assert_int_equal(cuzk_r1cs_eval_check(r, &wv, NULL, NULL, NULL, &row, pool, &err),
                             CUZK_ERR_UNSATISFIED);
            assert_int_equal(row, want);
            char needle[48];
            snprintf(needle, sizeof needle, "constraint %llu unsatisfied",
                     (unsigned long long)want);
            assert_string_equal(err.msg, needle);
        }
        for (int k = 0; k < 3; k++)
            cuzk_fr_sub(&w[2 + 2 * bad[k]], &w[2 + 2 * bad[k]], &one);
        cuzk_pool_destroy(pool);
    }
    /* argument errors */
    assert_int_equal(cuzk_r1cs_eval_check(NULL, &wv, NULL, NULL, NULL, &row, NULL, &err),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(row, UINT64_MAX);
    cuzk_witness shortw = cuzk_witness_dense(w, n_vars - 1);
    assert_int_equal(cuzk_r1cs_eval_check(r, &shortw, NULL, NULL, NULL, NULL, NULL, &err),
                     CUZK_ERR_INVALID_ARG);
    w[0] = three;
    assert_int_equal(cuzk_r1cs_eval_check(r, &wv, NULL, NULL, NULL, NULL, NULL, &err),
                     CUZK_ERR_FORMAT);
    cuzk_r1cs_destroy(r);
    free(buf);
    free(w);
}

static void test_builder_errors(void **state)
{
    (void)state;
    cuzk_r1cs_builder *b;
    cuzk_error err;
    cuzk_fr one = CUZK_FR_ONE;
    assert_int_equal(cuzk_r1cs_builder_create(NULL, &err), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_r1cs_builder_create(&b, NULL), CUZK_OK);
    /* no row yet */
    assert_int_equal(cuzk_r1cs_builder_add_term(b, CUZK_R1CS_A, CUZK_R1CS_VAR_ONE, &one, &err),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_r1cs_builder_begin_row(b, NULL), CUZK_OK);
    /* unallocated variables, bad kind, bad matrix, NULL coeff */
    assert_int_equal(cuzk_r1cs_builder_add_term(b, CUZK_R1CS_A, CUZK_R1CS_VAR_AUX(0), &one, &err),
                     CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "not allocated"));
    assert_int_equal(
        cuzk_r1cs_builder_add_term(b, CUZK_R1CS_A, CUZK_R1CS_VAR_PUBLIC(0), &one, NULL),
        CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_r1cs_builder_add_term(b, CUZK_R1CS_A, (cuzk_r1cs_var)3 << 32, &one, NULL),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_r1cs_builder_add_term(b, CUZK_R1CS_A, 1, &one, NULL),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_r1cs_builder_add_term(b, CUZK_R1CS_MATRICES, 0, &one, NULL),
                     CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_r1cs_builder_add_term(b, CUZK_R1CS_A, 0, NULL, NULL),
                     CUZK_ERR_INVALID_ARG);
    /* variable count limit: 1 + public + aux < 2^32 */
    cuzk_r1cs_var first;
    assert_int_equal(cuzk_r1cs_builder_alloc_aux(b, UINT32_MAX, &first, &err),
                     CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_r1cs_builder_alloc_aux(b, UINT32_MAX - 2, &first, &err), CUZK_OK);
    assert_int_equal(first, CUZK_R1CS_VAR_AUX(0));
    assert_int_equal(cuzk_r1cs_builder_alloc_public(b, 1, &first, &err), CUZK_OK);
    assert_int_equal(first, CUZK_R1CS_VAR_PUBLIC(0));
    assert_int_equal(cuzk_r1cs_builder_alloc_public(b, 1, &first, &err), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_r1cs_builder_alloc_aux(NULL, 1, &first, &err), CUZK_ERR_INVALID_ARG);
    cuzk_r1cs_builder_destroy(b);
    cuzk_r1cs_builder_destroy(NULL);
    cuzk_r1cs_destroy(NULL);
    /* finish consumes the builder even when out is NULL */
    assert_int_equal(cuzk_r1cs_builder_create(&b, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_finish(b, NULL, &err), CUZK_ERR_INVALID_ARG);
}

/* Zero rows, zero public/aux: a valid (empty) system; ONE alone must be satisfied. */
static void test_empty(void **state)
{
    (void)state;
    cuzk_r1cs_builder *b;
    cuzk_r1cs *r;
    assert_int_equal(cuzk_r1cs_builder_create(&b, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_finish(b, &r, NULL), CUZK_OK);
    assert_int_equal(r->n_vars, 1);
    assert_int_equal(r->n_constraints, 0);
    check_csr_invariants(r);
    cuzk_fr one = CUZK_FR_ONE;
    cuzk_witness wv = cuzk_witness_dense(&one, 1);
    assert_int_equal(cuzk_r1cs_eval(r, &wv, NULL, NULL, NULL, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_check(r, &wv, NULL, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_density_count(r, CUZK_R1CS_A, 0, 1), 0);
    cuzk_r1cs_destroy(r);
    /* rows whose terms all cancel are empty rows: 0 * 0 = 0 holds */
    assert_int_equal(cuzk_r1cs_builder_create(&b, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_begin_row(b, NULL), CUZK_OK);
    cuzk_fr m1;
    cuzk_fr_neg(&m1, &one);
    assert_int_equal(cuzk_r1cs_builder_add_term(b, CUZK_R1CS_A, 0, &one, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_add_term(b, CUZK_R1CS_A, 0, &m1, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_begin_row(b, NULL), CUZK_OK);
    assert_int_equal(cuzk_r1cs_builder_finish(b, &r, NULL), CUZK_OK);
    assert_int_equal(r->n_constraints, 2);
    assert_int_equal(r->m[CUZK_R1CS_A].nnz, 0);
    check_csr_invariants(r);
    assert_int_equal(cuzk_r1cs_check(r, &wv, NULL, NULL), CUZK_OK);
    cuzk_r1cs_destroy(r);
}

int main(void)
{
    test_rng_init("r1cs");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cubic),
        cmocka_unit_test(test_random_eval_density),
        cmocka_unit_test(test_random_check),
        cmocka_unit_test(test_table_form),
        cmocka_unit_test(test_eval_pool_chunks),
        cmocka_unit_test(test_eval_check_parallel),
        cmocka_unit_test(test_builder_errors),
        cmocka_unit_test(test_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
