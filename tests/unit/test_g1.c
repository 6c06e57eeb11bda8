/*
 * test_g1.c — group law of G1 in affine, Jacobian and XYZZ coordinates, checked against a
 * textbook affine chord-and-tangent addition written here (field inversions, no shared
 * code with src/ec) and against the group axioms.
 *
 * The body is generic over the group: test_g2.c defines the TG/TF/... macros for G2 and
 * includes this file, so both groups run the same checks without a second copy.
 * Single-threaded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cuzk/ec.h"
#include "test_rng.h"

#ifndef TG
#define TG(name) cuzk_g1_##name
#define TGS(name) cuzk_g1s_##name
#define TF(name) cuzk_fp_##name
#define T_AFF cuzk_g1_affine
#define T_JAC cuzk_g1_jac
#define T_XYZZ cuzk_g1_xyzz
#define T_F cuzk_fp
#define T_GEN CUZK_G1_GENERATOR
#define T_F_ONE CUZK_FP_ONE
#define RAND_F test_rand_fp
#define TEST_NAME "test_g1"
#define GROUP_EXTRA_TESTS
static void curve_b(cuzk_fp *b) { cuzk_fp_from_u64(b, 4); }
#endif

/* ---- helpers (independent of src/ec where it matters) ------------------------------- */

static void rand_k(uint64_t k[4])
{
    cuzk_fr s;
    test_rand_fr(&s);
    cuzk_fr_to_canonical(k, &s);
}

/* MSB-first double-and-add over every bit: the slow definition of [k]P. */
static void naive_mul(T_JAC *r, const T_JAC *p, const uint64_t *k, size_t n)
{
    T_JAC acc;
    TG(jac_set_infinity)(&acc);
    for (size_t i = 64 * n; i-- > 0;) {
        TG(jac_dbl)(&acc, &acc);
        if ((k[i / 64] >> (i % 64)) & 1)
            TG(jac_add)(&acc, &acc, p);
    }
    *r = acc;
}

/* Same point, another Jacobian representative: (l^2 X, l^3 Y, l Z). */
static void rescale(T_JAC *p)
{
    T_F l, l2, l3;
    do
        RAND_F(&l);
    while (TF(is_zero)(&l));
    TF(sqr)(&l2, &l);
    TF(mul)(&l3, &l2, &l);
    TF(mul)(&p->x, &p->x, &l2);
    TF(mul)(&p->y, &p->y, &l3);
    TF(mul)(&p->z, &p->z, &l);
}

/* A random subgroup point, as a rescaled Jacobian point and its affine form. */
static void rand_point(T_JAC *j, T_AFF *a)
{
    uint64_t k[4];
    T_JAC g;
    rand_k(k);
    TG(jac_from_affine)(&g, &T_GEN);
    naive_mul(j, &g, k, 4);
    if (a)
        TG(jac_to_affine)(a, j);
    rescale(j);
}

/* Textbook affine addition with inversions (handles O, P == Q, P == -Q). */
static void ref_add(T_AFF *r, const T_AFF *p, const T_AFF *q)
{
    if (TG(affine_is_infinity)(p)) {
        *r = *q;
        return;
    }
    if (TG(affine_is_infinity)(q)) {
        *r = *p;
        return;
    }
    T_F num, den, l, t;
    if (TF(eq)(&p->x, &q->x)) {
        TF(add)(&t, &p->y, &q->y);
        if (TF(is_zero)(&t)) {
            TG(affine_set_infinity)(r);
            return;
        }
        TF(sqr)(&num, &p->x);
        TF(add)(&t, &num, &num);
        TF(add)(&num, &num, &t);           /* 3x^2 */
        TF(add)(&den, &p->y, &p->y);       /* 2y */
    } else {
        TF(sub)(&num, &q->y, &p->y);
        TF(sub)(&den, &q->x, &p->x);
    }
    TF(inv)(&l, &den);
    TF(mul)(&l, &l, &num);
    T_AFF o;
    TF(sqr)(&o.x, &l);
    TF(sub)(&o.x, &o.x, &p->x);
    TF(sub)(&o.x, &o.x, &q->x);
    TF(sub)(&t, &p->x, &o.x);
    TF(mul)(&t, &t, &l);
    TF(sub)(&o.y, &t, &p->y);
    *r = o;
}

static void xyzz_to_aff(T_AFF *r, const T_XYZZ *p)
{
    T_JAC j;
    TG(xyzz_to_jac)(&j, p);
    TG(jac_to_affine)(r, &j);
}

/* Affine point as XYZZ with a random scaling (X l^2, Y l^3, l^2, l^3). */
static void xyzz_from_aff_scaled(T_XYZZ *r, const T_AFF *a)
{
    T_F l, l2, l3;
    do
        RAND_F(&l);
    while (TF(is_zero)(&l));
    TF(sqr)(&l2, &l);
    TF(mul)(&l3, &l2, &l);
    TG(xyzz_from_affine)(r, a);
    TF(mul)(&r->x, &r->x, &l2);
    TF(mul)(&r->y, &r->y, &l3);
    TF(mul)(&r->zz, &r->zz, &l2);
    TF(mul)(&r->zzz, &r->zzz, &l3);
}

/* ---- tests ---------------------------------------------------------------------------- */

static void test_on_curve(void **state)
{
    (void)state;
    T_AFF g = T_GEN, inf, bad;
    T_JAC gj;
    assert_true(TG(affine_on_curve)(&g));
    TG(affine_set_infinity)(&inf);
    assert_true(TG(affine_is_infinity)(&inf));
    assert_false(TG(affine_is_infinity)(&g));
    assert_true(TG(affine_on_curve)(&inf));
    TG(jac_from_affine)(&gj, &g);
    assert_true(TG(jac_on_curve)(&gj));
    rescale(&gj);
    assert_true(TG(jac_on_curve)(&gj));
    bad = g;
    TF(add)(&bad.y, &bad.y, &T_F_ONE);
    assert_false(TG(affine_on_curve)(&bad));
    TG(jac_from_affine)(&gj, &bad);
    rescale(&gj);
    assert_false(TG(jac_on_curve)(&gj));
    /* the definition: y^2 == x^3 + b, computed here */
    size_t n = test_iters(20);
    for (size_t i = 0; i < n; i++) {
        T_AFF a;
        T_JAC j;
        T_F l, r, b;
        rand_point(&j, &a);
        assert_true(TG(jac_on_curve)(&j));
        assert_true(TG(affine_on_curve)(&a));
        TF(sqr)(&l, &a.y);
        TF(sqr)(&r, &a.x);
        TF(mul)(&r, &r, &a.x);
        curve_b(&b);
        TF(add)(&r, &r, &b);
        assert_true(TF(eq)(&l, &r));
        RAND_F(&a.x);
        assert_false(TG(affine_on_curve)(&a));
    }
}

static void test_add_matches_reference(void **state)
{
    (void)state;
    size_t n = test_iters(30);
    for (size_t i = 0; i < n; i++) {
        T_JAC pj, qj, s;
        T_AFF pa, qa, want, got;
        T_XYZZ px, qx, sx;
        rand_point(&pj, &pa);
        rand_point(&qj, &qa);
        ref_add(&want, &pa, &qa);
        TG(jac_add)(&s, &pj, &qj);
        TG(jac_to_affine)(&got, &s);
        assert_true(TG(affine_eq)(&got, &want));
        TG(jac_add_affine)(&s, &pj, &qa);
        TG(jac_to_affine)(&got, &s);
        assert_true(TG(affine_eq)(&got, &want));
        xyzz_from_aff_scaled(&px, &pa);
        xyzz_from_aff_scaled(&qx, &qa);
        TG(xyzz_add)(&sx, &px, &qx);
        xyzz_to_aff(&got, &sx);
        assert_true(TG(affine_eq)(&got, &want));
        TG(xyzz_add_affine)(&sx, &px, &qa);
        xyzz_to_aff(&got, &sx);
        assert_true(TG(affine_eq)(&got, &want));
        /* doubling against the tangent rule */
        ref_add(&want, &pa, &pa);
        TG(jac_dbl)(&s, &pj);
        TG(jac_to_affine)(&got, &s);
        assert_true(TG(affine_eq)(&got, &want));
        TG(xyzz_dbl)(&sx, &px);
        xyzz_to_aff(&got, &sx);
        assert_true(TG(affine_eq)(&got, &want));
        assert_true(TG(affine_on_curve)(&got));
    }
}

/* P+P, P+(-P), O+P, P+O, O+O through every addition entry point. */
static void test_special_cases(void **state)
{
    (void)state;
    T_JAC pj, pj2, nj, inf, s, d;
    T_AFF pa, na, infa, got;
    T_XYZZ px, nx, infx, sx;
    rand_point(&pj, &pa);
    pj2 = pj;
    rescale(&pj2);                       /* same point, other Z */
    TG(jac_neg)(&nj, &pj);
    TG(affine_neg)(&na, &pa);
    TG(jac_set_infinity)(&inf);
    TG(affine_set_infinity)(&infa);
    TG(xyzz_set_infinity)(&infx);
    xyzz_from_aff_scaled(&px, &pa);
    xyzz_from_aff_scaled(&nx, &na);
    TG(jac_dbl)(&d, &pj);

    TG(jac_add)(&s, &pj, &pj2);
    assert_true(TG(jac_eq)(&s, &d));
    TG(jac_add_affine)(&s, &pj, &pa);
    assert_true(TG(jac_eq)(&s, &d));
    TG(xyzz_add)(&sx, &px, &px);
    TG(xyzz_to_jac)(&s, &sx);
    assert_true(TG(jac_eq)(&s, &d));
    TG(xyzz_add_affine)(&sx, &px, &pa);
    TG(xyzz_to_jac)(&s, &sx);
    assert_true(TG(jac_eq)(&s, &d));

    TG(jac_add)(&s, &pj, &nj);
    assert_true(TG(jac_is_infinity)(&s));
    TG(jac_add_affine)(&s, &pj, &na);
    assert_true(TG(jac_is_infinity)(&s));
    TG(xyzz_add)(&sx, &px, &nx);
    assert_true(TG(xyzz_is_infinity)(&sx));
    TG(xyzz_add_affine)(&sx, &px, &na);
    assert_true(TG(xyzz_is_infinity)(&sx));

    TG(jac_add)(&s, &inf, &pj);
    assert_true(TG(jac_eq)(&s, &pj));
    TG(jac_add)(&s, &pj, &inf);
    assert_true(TG(jac_eq)(&s, &pj));
    TG(jac_add)(&s, &inf, &inf);
    assert_true(TG(jac_is_infinity)(&s));
    TG(jac_add_affine)(&s, &inf, &pa);
    assert_true(TG(jac_eq)(&s, &pj));
    TG(jac_add_affine)(&s, &pj, &infa);
    assert_true(TG(jac_eq)(&s, &pj));
    TG(jac_add_affine)(&s, &inf, &infa);
    assert_true(TG(jac_is_infinity)(&s));
    TG(jac_dbl)(&s, &inf);
    assert_true(TG(jac_is_infinity)(&s));

    TG(xyzz_add)(&sx, &infx, &px);
    TG(xyzz_to_jac)(&s, &sx);
    assert_true(TG(jac_eq)(&s, &pj));
    TG(xyzz_add)(&sx, &px, &infx);
    TG(xyzz_to_jac)(&s, &sx);
    assert_true(TG(jac_eq)(&s, &pj));
    TG(xyzz_add_affine)(&sx, &infx, &pa);
    TG(xyzz_to_jac)(&s, &sx);
    assert_true(TG(jac_eq)(&s, &pj));
    TG(xyzz_add_affine)(&sx, &px, &infa);
    TG(xyzz_to_jac)(&s, &sx);
    assert_true(TG(jac_eq)(&s, &pj));
    TG(xyzz_add_affine)(&sx, &infx, &infa);
    assert_true(TG(xyzz_is_infinity)(&sx));
    TG(xyzz_dbl)(&sx, &infx);
    assert_true(TG(xyzz_is_infinity)(&sx));
    TG(xyzz_from_affine)(&sx, &infa);
    assert_true(TG(xyzz_is_infinity)(&sx));
    TG(xyzz_to_jac)(&s, &sx);
    assert_true(TG(jac_is_infinity)(&s));

    /* conversions of infinity */
    TG(jac_from_affine)(&s, &infa);
    assert_true(TG(jac_is_infinity)(&s));
    TG(jac_to_affine)(&got, &inf);
    assert_true(TG(affine_is_infinity)(&got));
    TG(affine_neg)(&got, &infa);
    assert_true(TG(affine_is_infinity)(&got));

    /* projective equality */
    assert_true(TG(jac_eq)(&pj, &pj2));
    assert_false(TG(jac_eq)(&pj, &nj));
    assert_false(TG(jac_eq)(&pj, &inf));
    assert_false(TG(jac_eq)(&inf, &pj));
    assert_true(TG(jac_eq)(&inf, &inf));
    assert_true(TG(affine_eq)(&pa, &pa));
    assert_false(TG(affine_eq)(&pa, &na));
}

static void test_group_axioms(void **state)
{
    (void)state;
    size_t n = test_iters(20);
    for (size_t i = 0; i < n; i++) {
        T_JAC p, q, r, a, b, c;
        rand_point(&p, NULL);
        rand_point(&q, NULL);
        rand_point(&r, NULL);
        /* commutativity */
        TG(jac_add)(&a, &p, &q);
        TG(jac_add)(&b, &q, &p);
        assert_true(TG(jac_eq)(&a, &b));
        /* associativity, mixing Jacobian and XYZZ paths */
        TG(jac_add)(&a, &a, &r);
        TG(jac_add)(&c, &q, &r);
        TG(jac_add)(&c, &p, &c);
        assert_true(TG(jac_eq)(&a, &c));
        T_AFF pa, qa, ra;
        T_XYZZ x;
        TG(jac_to_affine)(&pa, &p);
        TG(jac_to_affine)(&qa, &q);
        TG(jac_to_affine)(&ra, &r);
        TG(xyzz_from_affine)(&x, &ra);
        TG(xyzz_add_affine)(&x, &x, &qa);
        TG(xyzz_add_affine)(&x, &x, &pa);
        TG(xyzz_to_jac)(&b, &x);
        assert_true(TG(jac_eq)(&a, &b));
        /* 2(P+Q) = 2P + 2Q, and aliasing r == a == b */
        TG(jac_add)(&a, &p, &q);
        TG(jac_dbl)(&a, &a);
        TG(jac_dbl)(&b, &p);
        TG(jac_dbl)(&c, &q);
        TG(jac_add)(&b, &b, &c);
        assert_true(TG(jac_eq)(&a, &b));
        c = p;
        TG(jac_add)(&c, &c, &c);
        TG(jac_dbl)(&b, &p);
        assert_true(TG(jac_eq)(&c, &b));
        /* inverse */
        TG(jac_neg)(&a, &p);
        TG(jac_add)(&a, &a, &p);
        assert_true(TG(jac_is_infinity)(&a));
        /* xyzz aliasing in add */
        T_XYZZ y;
        xyzz_from_aff_scaled(&x, &pa);
        xyzz_from_aff_scaled(&y, &qa);
        TG(xyzz_add)(&y, &x, &y);
        TG(xyzz_dbl)(&y, &y);
        TG(xyzz_to_jac)(&b, &y);
        TG(jac_add)(&a, &p, &q);
        TG(jac_dbl)(&a, &a);
        assert_true(TG(jac_eq)(&a, &b));
    }
}

static void test_batch_to_affine(void **state)
{
    (void)state;
    enum { N = 19 };
    T_JAC pts[N];
    T_AFF got[N], want;
    T_F scratch[N];
    for (int i = 0; i < N; i++) {
        if (i % 5 == 0 || i == N - 1)
            TG(jac_set_infinity)(&pts[i]);
        else
            rand_point(&pts[i], NULL);
    }
    TGS(jac_to_affine)(got, pts, N, scratch);
    for (int i = 0; i < N; i++) {
        TG(jac_to_affine)(&want, &pts[i]);
        assert_true(TG(affine_eq)(&got[i], &want));
        assert_true(TG(affine_on_curve)(&got[i]));
    }
    TGS(jac_to_affine)(got, pts, 0, scratch);    /* n = 0 is a no-op */
    TGS(jac_to_affine)(got, pts, 1, scratch);    /* a lone infinity */
    assert_true(TG(affine_is_infinity)(&got[0]));
}

int main(void)
{
    test_rng_init(TEST_NAME);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_on_curve),
        cmocka_unit_test(test_add_matches_reference),
        cmocka_unit_test(test_special_cases),
        cmocka_unit_test(test_group_axioms),
        cmocka_unit_test(test_batch_to_affine),
        GROUP_EXTRA_TESTS
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
