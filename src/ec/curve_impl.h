/*
 * curve_impl.h — the coordinate formulas of a short Weierstrass curve y^2 = x^3 + b (a = 0),
 * written once and instantiated by g1.c (over Fp) and g2.c (over Fp2).
 *
 * The includer defines:
 *   PT(name)          public prefix: PT(jac_add) -> cuzk_g1_jac_add
 *   PTS(name)         batch prefix:  PTS(jac_to_affine) -> cuzk_g1s_jac_to_affine
 *   AFF, JAC, XYZZ    the point types; FT the coordinate field type
 *   F_ADD F_SUB F_DBL F_NEG F_MUL F_SQR F_EQ F_IS_ZERO F_CMOV F_INV F_INV_VAR  field ops
 *                     with the signatures of cuzk_fp_* (r first, aliasing allowed)
 *   F_ONE             the field's one (an lvalue)
 *   CURVE_MUL_B(r,a)  r = b*a with the cheap small-constant sequence
 * Scalar multiplication and fixed-base tables are in curve_mul_impl.h (same macros,
 * included right after this file). Group-specific parts (generators, endomorphisms,
 * GLV/GLS, subgroup checks) live in the including .c file after both headers.
 *
 * Formulas (names from the Explicit-Formulas Database, hyperelliptic.org/EFD, a = 0):
 *   Jacobian  dbl-2009-l (2M+5S), add-2007-bl (11M+5S), madd-2007-bl (7M+4S)
 *   XYZZ      dbl-2008-s-1 (6M+3S), mdbl-2008-s-1, add-2008-s (12M+2S), madd-2008-s (8M+2S)
 * add-2007-bl and madd-2007-bl give Z3 = 2*Z1*Z2*H, which is 0 exactly when the x
 * coordinates agree, so P + (-P) = O falls out of the formula; only P == Q (needs the
 * doubling) and the infinity inputs need separate handling.
 *
 * Constant time: the plain add/dbl branch on point data (public in all their uses: MSM,
 * verification). The *_ct helpers here resolve every special case with cmov and are what
 * the constant-time scalar multiplications use.
 *
 * Threading: pure functions on caller memory; fixed tables are read-only after init.
 */
#include <string.h>

#include "ec/ec_internal.h"
#include "util/util_export.h"

/* ---------------------------------------------------------------------------------------
 * affine
 * ------------------------------------------------------------------------------------- */
void PT(affine_set_infinity)(AFF *p) { memset(p, 0, sizeof *p); }

bool PT(affine_is_infinity)(const AFF *p) { return (int)F_IS_ZERO(&p->x) & (int)F_IS_ZERO(&p->y); }

/* rhs = x^3 + b */
static void curve_rhs(FT *rhs, const FT *x)
{
    FT t, b;
    F_SQR(&t, x);
    F_MUL(&t, &t, x);
    CURVE_MUL_B(&b, &F_ONE);
    F_ADD(rhs, &t, &b);
}

bool PT(affine_on_curve)(const AFF *p)
{
    if (PT(affine_is_infinity)(p))
        return true;
    FT lhs, rhs;
    F_SQR(&lhs, &p->y);
    curve_rhs(&rhs, &p->x);
    return F_EQ(&lhs, &rhs);
}

bool PT(affine_eq)(const AFF *a, const AFF *b)
{
    return (int)F_EQ(&a->x, &b->x) & (int)F_EQ(&a->y, &b->y);
}

void PT(affine_neg)(AFF *r, const AFF *a)
{
    r->x = a->x;
    F_NEG(&r->y, &a->y);   /* -0 = 0 keeps infinity as is */
}

/* ---------------------------------------------------------------------------------------
 * Jacobian: basics
 * ------------------------------------------------------------------------------------- */
void PT(jac_set_infinity)(JAC *p) { memset(p, 0, sizeof *p); }

bool PT(jac_is_infinity)(const JAC *p) { return F_IS_ZERO(&p->z); }

void PT(jac_from_affine)(JAC *r, const AFF *a)
{
    bool inf = PT(affine_is_infinity)(a);
    r->x = a->x;
    r->y = a->y;
    F_CMOV(&r->z, &F_ONE, &r->x, inf);   /* r->x is zero when inf */
}

void PT(jac_to_affine)(AFF *r, const JAC *a)
{
    if (PT(jac_is_infinity)(a)) {
        PT(affine_set_infinity)(r);
        return;
    }
    FT zi, zi2, zi3;
    F_INV(&zi, &a->z);
    F_SQR(&zi2, &zi);
    F_MUL(&zi3, &zi2, &zi);
    F_MUL(&r->x, &a->x, &zi2);
    F_MUL(&r->y, &a->y, &zi3);
}

bool PT(jac_on_curve)(const JAC *p)
{
    if (PT(jac_is_infinity)(p))
        return true;
    /* Y^2 = X^3 + b*Z^6 */
    FT lhs, rhs, z2, z6, t;
    F_SQR(&lhs, &p->y);
    F_SQR(&rhs, &p->x);
    F_MUL(&rhs, &rhs, &p->x);
    F_SQR(&z2, &p->z);
    F_SQR(&z6, &z2);
    F_MUL(&z6, &z6, &z2);
    CURVE_MUL_B(&t, &z6);
    F_ADD(&rhs, &rhs, &t);
    return F_EQ(&lhs, &rhs);
}

bool PT(jac_eq)(const JAC *a, const JAC *b)
{
    bool ia = PT(jac_is_infinity)(a), ib = PT(jac_is_infinity)(b);
    if (ia | ib)
        return ia & ib;
    /* X1*Z2^2 == X2*Z1^2 and Y1*Z2^3 == Y2*Z1^3 */
    FT z1z1, z2z2, u1, u2, s1, s2;
    F_SQR(&z1z1, &a->z);
    F_SQR(&z2z2, &b->z);
    F_MUL(&u1, &a->x, &z2z2);
    F_MUL(&u2, &b->x, &z1z1);
    F_MUL(&s1, &a->y, &b->z);
    F_MUL(&s1, &s1, &z2z2);
    F_MUL(&s2, &b->y, &a->z);
    F_MUL(&s2, &s2, &z1z1);
    return (int)F_EQ(&u1, &u2) & (int)F_EQ(&s1, &s2);
}

void PT(jac_neg)(JAC *r, const JAC *a)
{
    r->x = a->x;
    F_NEG(&r->y, &a->y);
    r->z = a->z;
}

static void jac_cmov(JAC *r, const JAC *a, const JAC *b, bool cond)
{
    F_CMOV(&r->x, &a->x, &b->x, cond);
    F_CMOV(&r->y, &a->y, &b->y, cond);
    F_CMOV(&r->z, &a->z, &b->z, cond);
}

/* ---------------------------------------------------------------------------------------
 * Jacobian: doubling and addition
 * ------------------------------------------------------------------------------------- */

/* dbl-2009-l. Z = 0 gives Z3 = 0, so infinity needs no branch. */
void PT(jac_dbl)(JAC *r, const JAC *a)
{
    FT A, B, C, D, E, F, t;
    F_SQR(&A, &a->x);
    F_SQR(&B, &a->y);
    F_SQR(&C, &B);
    F_ADD(&D, &a->x, &B);
    F_SQR(&D, &D);
    F_SUB(&D, &D, &A);
    F_SUB(&D, &D, &C);
    F_DBL(&D, &D);               /* D = 2((X+B)^2 - A - C) = 4XY^2 */
    F_DBL(&E, &A);
    F_ADD(&E, &E, &A);           /* E = 3X^2 */
    F_SQR(&F, &E);
    F_MUL(&r->z, &a->y, &a->z);  /* Z3 = 2YZ; read a->y, a->z before r->x/r->y are written */
    F_DBL(&r->z, &r->z);
    F_DBL(&t, &D);
    F_SUB(&r->x, &F, &t);        /* X3 = F - 2D */
    F_SUB(&t, &D, &r->x);
    F_MUL(&t, &E, &t);
    F_DBL(&C, &C);
    F_DBL(&C, &C);
    F_DBL(&C, &C);               /* 8C */
    F_SUB(&r->y, &t, &C);        /* Y3 = E(D - X3) - 8C */
}

/*
 * add-2007-bl core for two finite points. Returns the x-difference H and the doubled
 * y-difference R through *h_zero / *r_zero so the caller can fix P == Q and P == -Q; the
 * output is written to r only after all inputs are read.
 */
static void jac_add_core(JAC *r, const JAC *a, const JAC *b, bool *h_zero, bool *r_zero)
{
    FT z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t;
    F_SQR(&z1z1, &a->z);
    F_SQR(&z2z2, &b->z);
    F_MUL(&u1, &a->x, &z2z2);
    F_MUL(&u2, &b->x, &z1z1);
    F_MUL(&s1, &a->y, &b->z);
    F_MUL(&s1, &s1, &z2z2);
    F_MUL(&s2, &b->y, &a->z);
    F_MUL(&s2, &s2, &z1z1);
    F_SUB(&h, &u2, &u1);
    F_SUB(&rr, &s2, &s1);
    *h_zero = F_IS_ZERO(&h);
    *r_zero = F_IS_ZERO(&rr);
    F_DBL(&rr, &rr);
    F_DBL(&i, &h);
    F_SQR(&i, &i);               /* I = (2H)^2 */
    F_MUL(&j, &h, &i);
    F_MUL(&v, &u1, &i);
    F_ADD(&t, &a->z, &b->z);
    F_SQR(&t, &t);
    F_SUB(&t, &t, &z1z1);
    F_SUB(&t, &t, &z2z2);
    F_MUL(&r->z, &t, &h);        /* Z3 = 2 Z1 Z2 H */
    F_SQR(&t, &rr);
    F_SUB(&t, &t, &j);
    F_SUB(&t, &t, &v);
    F_SUB(&r->x, &t, &v);        /* X3 = R^2 - J - 2V */
    F_SUB(&t, &v, &r->x);
    F_MUL(&t, &rr, &t);
    F_MUL(&s1, &s1, &j);
    F_DBL(&s1, &s1);
    F_SUB(&r->y, &t, &s1);       /* Y3 = R(V - X3) - 2 S1 J */
}

void PT(jac_add)(JAC *r, const JAC *a, const JAC *b)
{
    if (PT(jac_is_infinity)(a)) {
        *r = *b;
        return;
    }
    if (PT(jac_is_infinity)(b)) {
        *r = *a;
        return;
    }
    JAC out;
    bool hz, rz;
    jac_add_core(&out, a, b, &hz, &rz);
    if (hz & rz)
        PT(jac_dbl)(&out, a);    /* P == Q; P == -Q already gave Z3 = 0 */
    *r = out;
}

/* madd-2007-bl for a finite Jacobian a and a finite affine b; see jac_add_core. */
static void jac_madd_core(JAC *r, const JAC *a, const AFF *b, bool *h_zero, bool *r_zero)
{
    FT z1z1, u2, s2, h, hh, i, j, rr, v, t;
    F_SQR(&z1z1, &a->z);
    F_MUL(&u2, &b->x, &z1z1);
    F_MUL(&s2, &b->y, &a->z);
    F_MUL(&s2, &s2, &z1z1);
    F_SUB(&h, &u2, &a->x);
    F_SUB(&rr, &s2, &a->y);
    *h_zero = F_IS_ZERO(&h);
    *r_zero = F_IS_ZERO(&rr);
    F_DBL(&rr, &rr);
    F_SQR(&hh, &h);
    F_DBL(&i, &hh);
    F_DBL(&i, &i);               /* I = 4 HH */
    F_MUL(&j, &h, &i);
    F_MUL(&v, &a->x, &i);
    F_MUL(&s2, &a->y, &j);       /* Y1*J, reusing s2 */
    F_ADD(&t, &a->z, &h);
    F_SQR(&t, &t);
    F_SUB(&t, &t, &z1z1);
    F_SUB(&r->z, &t, &hh);       /* Z3 = (Z1+H)^2 - Z1Z1 - HH = 2 Z1 H */
    F_SQR(&t, &rr);
    F_SUB(&t, &t, &j);
    F_SUB(&t, &t, &v);
    F_SUB(&r->x, &t, &v);
    F_SUB(&t, &v, &r->x);
    F_MUL(&t, &rr, &t);
    F_DBL(&s2, &s2);
    F_SUB(&r->y, &t, &s2);
}

void PT(jac_add_affine)(JAC *r, const JAC *a, const AFF *b)
{
    if (PT(affine_is_infinity)(b)) {
        *r = *a;
        return;
    }
    if (PT(jac_is_infinity)(a)) {
        PT(jac_from_affine)(r, b);
        return;
    }
    JAC out;
    bool hz, rz;
    jac_madd_core(&out, a, b, &hz, &rz);
    if (hz & rz)
        PT(jac_dbl)(&out, a);
    *r = out;
}

/* Constant-time complete mixed addition (fixed-base multiplication). */
static void jac_add_affine_ct(JAC *r, const JAC *a, const AFF *b)
{
    JAC sum, d, bj;
    bool hz, rz;
    bool ia = PT(jac_is_infinity)(a), ib = PT(affine_is_infinity)(b);
    jac_madd_core(&sum, a, b, &hz, &rz);
    PT(jac_dbl)(&d, a);
    PT(jac_from_affine)(&bj, b);
    jac_cmov(&sum, &sum, &d, hz & rz);
    jac_cmov(&sum, &sum, a, ib);
    jac_cmov(&sum, &sum, &bj, ia);
    *r = sum;
}

/* ---------------------------------------------------------------------------------------
 * Batch normalisation
 * ------------------------------------------------------------------------------------- */

/* Montgomery's trick: scratch[i] holds the product of the non-zero Z of points 0..i-1, one
 * inversion of the full product, then a backward pass peels one Z at a time. Points at
 * infinity contribute no factor, so they cannot zero the product. */
void PTS(jac_to_affine)(AFF *r, const JAC *a, size_t n, FT *scratch)
{
#if CUZK_VERIFY_ON
    size_t bad = verify_first_unreduced((const uint64_t *)(const void *)a,
                                        n * (sizeof *a / sizeof(cuzk_fp)), CUZK_FP_MODULUS,
                                        CUZK_FP_LIMBS);
    CUZK_VERIFY_CHECK(bad == SIZE_MAX, "point %zu of %zu has an unreduced coordinate",
                      bad / (sizeof *a / sizeof(cuzk_fp)), n);
    for (size_t i = 0; i < n; i++)
        CUZK_VERIFY_CHECK(PT(jac_on_curve)(&a[i]), "point %zu of %zu is not on the curve", i,
                          n);
#endif
    FT acc = F_ONE, inv, zi, zi2, t;
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!PT(jac_is_infinity)(&a[i]))
            F_MUL(&acc, &acc, &a[i].z);
    }
    F_INV_VAR(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (PT(jac_is_infinity)(&a[i])) {
            PT(affine_set_infinity)(&r[i]);
            continue;
        }
        F_MUL(&zi, &inv, &scratch[i]);
        F_MUL(&inv, &inv, &a[i].z);
        F_SQR(&zi2, &zi);
        F_MUL(&t, &zi2, &zi);
        F_MUL(&r[i].x, &a[i].x, &zi2);
        F_MUL(&r[i].y, &a[i].y, &t);
    }
}

/* ---------------------------------------------------------------------------------------
 * XYZZ
 * ------------------------------------------------------------------------------------- */
void PT(xyzz_set_infinity)(XYZZ *p) { memset(p, 0, sizeof *p); }

bool PT(xyzz_is_infinity)(const XYZZ *p) { return F_IS_ZERO(&p->zz); }

void PT(xyzz_from_affine)(XYZZ *r, const AFF *a)
{
    bool inf = PT(affine_is_infinity)(a);
    r->x = a->x;
    r->y = a->y;
    F_CMOV(&r->zz, &F_ONE, &r->x, inf);
    r->zzz = r->zz;
}

/* Jacobian Z = ZZZ: then Z^2 = ZZZ^2 = ZZ^3, so X = X'*ZZ^2 and Y = Y'*ZZZ^2 keep x, y. */
void PT(xyzz_to_jac)(JAC *r, const XYZZ *a)
{
    if (PT(xyzz_is_infinity)(a)) {
        PT(jac_set_infinity)(r);
        return;
    }
    FT t;
    F_SQR(&t, &a->zz);
    F_MUL(&r->x, &a->x, &t);
    F_SQR(&t, &a->zzz);
    F_MUL(&r->y, &a->y, &t);
    r->z = a->zzz;
}

/* dbl-2008-s-1; ZZ = 0 stays 0 (V*ZZ1), so infinity needs no branch. */
void PT(xyzz_dbl)(XYZZ *r, const XYZZ *a)
{
    FT u, v, w, s, m, t;
    F_DBL(&u, &a->y);
    F_SQR(&v, &u);
    F_MUL(&w, &u, &v);
    F_MUL(&s, &a->x, &v);
    F_SQR(&m, &a->x);
    F_DBL(&t, &m);
    F_ADD(&m, &m, &t);           /* M = 3 X^2 */
    F_MUL(&t, &w, &a->y);        /* W*Y1, before r->y is written */
    F_MUL(&r->zz, &v, &a->zz);
    F_MUL(&r->zzz, &w, &a->zzz);
    F_SQR(&u, &m);
    F_DBL(&w, &s);
    F_SUB(&r->x, &u, &w);        /* X3 = M^2 - 2S */
    F_SUB(&s, &s, &r->x);
    F_MUL(&s, &m, &s);
    F_SUB(&r->y, &s, &t);        /* Y3 = M(S - X3) - W Y1 */
}

/* mdbl-2008-s-1: doubling of a finite affine point into XYZZ. */
static void xyzz_dbl_affine(XYZZ *r, const AFF *a)
{
    FT u, v, w, s, m, t;
    F_DBL(&u, &a->y);
    F_SQR(&v, &u);
    F_MUL(&w, &u, &v);
    F_MUL(&s, &a->x, &v);
    F_SQR(&m, &a->x);
    F_DBL(&t, &m);
    F_ADD(&m, &m, &t);
    F_MUL(&t, &w, &a->y);
    r->zz = v;
    r->zzz = w;
    F_SQR(&u, &m);
    F_DBL(&w, &s);
    F_SUB(&r->x, &u, &w);
    F_SUB(&s, &s, &r->x);
    F_MUL(&s, &m, &s);
    F_SUB(&r->y, &s, &t);
}

/* add-2008-s */
void PT(xyzz_add)(XYZZ *r, const XYZZ *a, const XYZZ *b)
{
    if (PT(xyzz_is_infinity)(a)) {
        *r = *b;
        return;
    }
    if (PT(xyzz_is_infinity)(b)) {
        *r = *a;
        return;
    }
    FT u1, u2, s1, s2, p, rr, pp, ppp, q, t;
    F_MUL(&u1, &a->x, &b->zz);
    F_MUL(&u2, &b->x, &a->zz);
    F_MUL(&s1, &a->y, &b->zzz);
    F_MUL(&s2, &b->y, &a->zzz);
    F_SUB(&p, &u2, &u1);
    F_SUB(&rr, &s2, &s1);
    if (F_IS_ZERO(&p)) {
        if (F_IS_ZERO(&rr))
            PT(xyzz_dbl)(r, a);
        else
            PT(xyzz_set_infinity)(r);
        return;
    }
    F_SQR(&pp, &p);
    F_MUL(&ppp, &p, &pp);
    F_MUL(&q, &u1, &pp);
    F_MUL(&t, &a->zz, &b->zz);
    F_MUL(&r->zz, &t, &pp);
    F_MUL(&t, &a->zzz, &b->zzz);
    F_MUL(&r->zzz, &t, &ppp);
    F_SQR(&t, &rr);
    F_SUB(&t, &t, &ppp);
    F_SUB(&t, &t, &q);
    F_SUB(&r->x, &t, &q);        /* X3 = R^2 - PPP - 2Q */
    F_SUB(&t, &q, &r->x);
    F_MUL(&t, &rr, &t);
    F_MUL(&s1, &s1, &ppp);
    F_SUB(&r->y, &t, &s1);       /* Y3 = R(Q - X3) - S1 PPP */
}

/* madd-2008-s */
void PT(xyzz_add_affine)(XYZZ *r, const XYZZ *a, const AFF *b)
{
    if (PT(affine_is_infinity)(b)) {
        *r = *a;
        return;
    }
    if (PT(xyzz_is_infinity)(a)) {
        PT(xyzz_from_affine)(r, b);
        return;
    }
    FT u2, s2, p, rr, pp, ppp, q, t;
    F_MUL(&u2, &b->x, &a->zz);
    F_MUL(&s2, &b->y, &a->zzz);
    F_SUB(&p, &u2, &a->x);
    F_SUB(&rr, &s2, &a->y);
    if (F_IS_ZERO(&p)) {
        if (F_IS_ZERO(&rr))
            xyzz_dbl_affine(r, b);
        else
            PT(xyzz_set_infinity)(r);
        return;
    }
    F_SQR(&pp, &p);
    F_MUL(&ppp, &p, &pp);
    F_MUL(&q, &a->x, &pp);
    F_MUL(&s2, &a->y, &ppp);     /* Y1 PPP, before r->y is written */
    F_MUL(&r->zz, &a->zz, &pp);
    F_MUL(&r->zzz, &a->zzz, &ppp);
    F_SQR(&t, &rr);
    F_SUB(&t, &t, &ppp);
    F_SUB(&t, &t, &q);
    F_SUB(&r->x, &t, &q);
    F_SUB(&t, &q, &r->x);
    F_MUL(&t, &rr, &t);
    F_SUB(&r->y, &t, &s2);
}

