/*
 * tower_fp2.h — Fp2 arithmetic as static inline functions on the limb back end of
 * fp_internal.h (x86-64 asm or portable), so that the hot loops of the tower (Fp6, Fp12)
 * and the pairing inline the whole Fp2 layer instead of paying a call per Fp operation.
 * fp2.c exports the same operations under their public names; the formulas are
 * documented there.
 * Constant-time; pure functions; thread-safe. Every output may alias any input.
 */
#ifndef CUZK_FF_TOWER_FP2_H
#define CUZK_FF_TOWER_FP2_H

#include "cuzk/ff.h"
#include "ff/fp_internal.h"

static inline void tfp_add(cuzk_fp *r, const cuzk_fp *a, const cuzk_fp *b)
{
    fp_add_impl(r->l, a->l, b->l);
}
static inline void tfp_sub(cuzk_fp *r, const cuzk_fp *a, const cuzk_fp *b)
{
    fp_sub_impl(r->l, a->l, b->l);
}
static inline void tfp_dbl(cuzk_fp *r, const cuzk_fp *a) { fp_dbl_impl(r->l, a->l); }
static inline void tfp_neg(cuzk_fp *r, const cuzk_fp *a) { fp_neg_impl(r->l, a->l); }
static inline void tfp_mul(cuzk_fp *r, const cuzk_fp *a, const cuzk_fp *b)
{
    fp_mul_impl(r->l, a->l, b->l);
}

static inline void tfp2_add(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b)
{
    tfp_add(&r->c0, &a->c0, &b->c0);
    tfp_add(&r->c1, &a->c1, &b->c1);
}

static inline void tfp2_sub(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b)
{
    tfp_sub(&r->c0, &a->c0, &b->c0);
    tfp_sub(&r->c1, &a->c1, &b->c1);
}

static inline void tfp2_dbl(cuzk_fp2 *r, const cuzk_fp2 *a)
{
    tfp_dbl(&r->c0, &a->c0);
    tfp_dbl(&r->c1, &a->c1);
}

static inline void tfp2_neg(cuzk_fp2 *r, const cuzk_fp2 *a)
{
    tfp_neg(&r->c0, &a->c0);
    tfp_neg(&r->c1, &a->c1);
}

static inline void tfp2_conj(cuzk_fp2 *r, const cuzk_fp2 *a)
{
    r->c0 = a->c0;
    tfp_neg(&r->c1, &a->c1);
}

/* Karatsuba, 3 Fp products (u^2 = -1) */
static inline void tfp2_mul(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b)
{
    cuzk_fp t0, t1, s0, s1;
    tfp_mul(&t0, &a->c0, &b->c0);
    tfp_mul(&t1, &a->c1, &b->c1);
    tfp_add(&s0, &a->c0, &a->c1);
    tfp_add(&s1, &b->c0, &b->c1);
    tfp_mul(&s0, &s0, &s1);
    tfp_sub(&r->c0, &t0, &t1);
    tfp_sub(&s0, &s0, &t0);
    tfp_sub(&r->c1, &s0, &t1);
}

/* complex squaring, 2 Fp products */
static inline void tfp2_sqr(cuzk_fp2 *r, const cuzk_fp2 *a)
{
    cuzk_fp s, d, m;
    tfp_add(&s, &a->c0, &a->c1);
    tfp_sub(&d, &a->c0, &a->c1);
    tfp_mul(&m, &a->c0, &a->c1);
    tfp_mul(&r->c0, &s, &d);
    tfp_dbl(&r->c1, &m);
}

static inline void tfp2_mul_fp(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp *b)
{
    tfp_mul(&r->c0, &a->c0, b);
    tfp_mul(&r->c1, &a->c1, b);
}

/* times xi = 1 + u */
static inline void tfp2_mul_xi(cuzk_fp2 *r, const cuzk_fp2 *a)
{
    cuzk_fp t0, t1;
    tfp_sub(&t0, &a->c0, &a->c1);
    tfp_add(&t1, &a->c0, &a->c1);
    r->c0 = t0;
    r->c1 = t1;
}

#endif /* CUZK_FF_TOWER_FP2_H */
