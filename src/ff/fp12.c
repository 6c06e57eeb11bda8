/*
 * fp12.c — the quadratic extension Fp12 = Fp6[w]/(w^2 - v) (so w^6 = xi = u + 1), the
 * field holding the pairing target group. Elements are c0 + c1 w.
 *
 * Besides the generic operations this file has what the pairing needs: the sparse product
 * with a Miller-loop line (mul_by_014), Granger–Scott squaring for the cyclotomic subgroup
 * and Frobenius maps from the precomputed coefficients in frobenius_consts.c.
 * Constant-time, except cuzk_fp12_inv_var (ff_export.h).
 * Threading: pure functions on caller memory; no global mutable state.
 */
#include "cuzk/ff.h"
#include "ff/tower_fp2.h"
#include "ff/ff_export.h"

const cuzk_fp12 CUZK_FP12_ONE = {
    {{{{0x760900000002fffd, 0xebf4000bc40c0002, 0x5f48985753c758ba, 0x77ce585370525745,
        0x5c071a97a256ec6d, 0x15f65ec3fa80e493}},
      {{0}}},
     {{{0}}, {{0}}},
     {{{0}}, {{0}}}},
    {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}}};

void cuzk_fp12_add(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp12 *b)
{
    cuzk_fp6_add(&r->c0, &a->c0, &b->c0);
    cuzk_fp6_add(&r->c1, &a->c1, &b->c1);
}

void cuzk_fp12_sub(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp12 *b)
{
    cuzk_fp6_sub(&r->c0, &a->c0, &b->c0);
    cuzk_fp6_sub(&r->c1, &a->c1, &b->c1);
}

/* Karatsuba: c0 = a0 b0 + v a1 b1, c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1. */
void cuzk_fp12_mul(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp12 *b)
{
    cuzk_fp6 t0, t1, s, u;
    cuzk_fp6_mul(&t0, &a->c0, &b->c0);
    cuzk_fp6_mul(&t1, &a->c1, &b->c1);
    cuzk_fp6_add(&s, &a->c0, &a->c1);
    cuzk_fp6_add(&u, &b->c0, &b->c1);
    cuzk_fp6_mul(&s, &s, &u);
    cuzk_fp6_sub(&s, &s, &t0);
    cuzk_fp6_sub(&r->c1, &s, &t1);
    cuzk_fp6_mul_by_nonresidue(&t1, &t1);
    cuzk_fp6_add(&r->c0, &t0, &t1);
}

/* Complex squaring, 2 Fp6 products: with t = a0 a1,
 * c0 = (a0 + a1)(a0 + v a1) - t - v t = a0^2 + v a1^2,  c1 = 2t. */
void cuzk_fp12_sqr(cuzk_fp12 *r, const cuzk_fp12 *a)
{
    cuzk_fp6 t, s, u;
    cuzk_fp6_mul(&t, &a->c0, &a->c1);
    cuzk_fp6_add(&s, &a->c0, &a->c1);
    cuzk_fp6_mul_by_nonresidue(&u, &a->c1);
    cuzk_fp6_add(&u, &u, &a->c0);
    cuzk_fp6_mul(&s, &s, &u);
    cuzk_fp6_sub(&s, &s, &t);
    cuzk_fp6_add(&r->c1, &t, &t);
    cuzk_fp6_mul_by_nonresidue(&t, &t);
    cuzk_fp6_sub(&r->c0, &s, &t);
}

/* (a + b t)^2 in Fp4 = Fp2[t]/(t^2 - xi): (a^2 + xi b^2) + ((a + b)^2 - a^2 - b^2) t. */
static inline void fp4_sqr(cuzk_fp2 *r0, cuzk_fp2 *r1, const cuzk_fp2 *a, const cuzk_fp2 *b)
{
    cuzk_fp2 a2, b2, s;
    tfp2_sqr(&a2, a);
    tfp2_sqr(&b2, b);
    tfp2_add(&s, a, b);
    tfp2_sqr(&s, &s);
    tfp2_sub(&s, &s, &a2);
    tfp2_sub(r1, &s, &b2);
    tfp2_mul_xi(&b2, &b2);
    tfp2_add(r0, &a2, &b2);
}

/* r = 3 s + 2 sign * z, the shape of every Granger–Scott output coefficient. */
static inline void gs_combine(cuzk_fp2 *r, const cuzk_fp2 *s, const cuzk_fp2 *z, bool minus)
{
    cuzk_fp2 t;
    if (minus)
        tfp2_sub(&t, s, z);
    else
        tfp2_add(&t, s, z);
    tfp2_dbl(&t, &t);
    tfp2_add(r, &t, s);
}

/*
 * Granger–Scott ("Faster squaring in the cyclotomic subgroup of sixth degree extensions").
 * View Fp12 as Fp4[w]/(w^3 - t) with t = w^3 (t^2 = xi), so a = g0 + g1 w + g2 w^2 with
 *   g0 = c0.c0 + c1.c1 t,  g1 = c1.c0 + c0.c2 t,  g2 = c0.c1 + c1.c2 t.
 * For a in the cyclotomic subgroup (a^(p^6) = a^-1, and p^6 maps t -> -t, written g~):
 *   h0 = 3 g0^2 - 2 g0~,  h1 = 3 t g2^2 + 2 g1~,  h2 = 3 g1^2 - 2 g2~.
 * Cost: 3 Fp4 squarings = 9 Fp2 squarings, against 12 Fp2 products for a general square.
 */
void cuzk_fp12_cyclotomic_sqr(cuzk_fp12 *r, const cuzk_fp12 *a)
{
    cuzk_fp2 z0 = a->c0.c0, z1 = a->c1.c1; /* g0 */
    cuzk_fp2 z2 = a->c1.c0, z3 = a->c0.c2; /* g1 */
    cuzk_fp2 z4 = a->c0.c1, z5 = a->c1.c2; /* g2 */
    cuzk_fp2 s0, s1, s2, s3, s4, s5;

    fp4_sqr(&s0, &s1, &z0, &z1); /* g0^2 */
    fp4_sqr(&s2, &s3, &z2, &z3); /* g1^2 */
    fp4_sqr(&s4, &s5, &z4, &z5); /* g2^2 */

    /* h0 = 3 g0^2 - 2 g0~: the t-part of g0~ is -z1 */
    gs_combine(&r->c0.c0, &s0, &z0, true);
    gs_combine(&r->c1.c1, &s1, &z1, false);
    /* h2 = 3 g1^2 - 2 g2~ */
    gs_combine(&r->c0.c1, &s2, &z4, true);
    gs_combine(&r->c1.c2, &s3, &z5, false);
    /* h1 = 3 t g2^2 + 2 g1~, t (s4 + s5 t) = xi s5 + s4 t */
    tfp2_mul_xi(&s5, &s5);
    gs_combine(&r->c1.c0, &s5, &z2, false);
    gs_combine(&r->c0.c2, &s4, &z3, true);
}

/* (a0 + a1 w)^-1 = (a0 - a1 w) / (a0^2 - v a1^2) */
static void fp12_inv_with(cuzk_fp12 *r, const cuzk_fp12 *a,
                          void (*fp6_inv)(cuzk_fp6 *, const cuzk_fp6 *))
{
    cuzk_fp6 t0, t1;
    cuzk_fp6_sqr(&t0, &a->c0);
    cuzk_fp6_sqr(&t1, &a->c1);
    cuzk_fp6_mul_by_nonresidue(&t1, &t1);
    cuzk_fp6_sub(&t0, &t0, &t1);
    fp6_inv(&t0, &t0);
    cuzk_fp6_mul(&r->c0, &a->c0, &t0);
    cuzk_fp6_mul(&t1, &a->c1, &t0);
    cuzk_fp6_neg(&r->c1, &t1);
}

void cuzk_fp12_inv(cuzk_fp12 *r, const cuzk_fp12 *a) { fp12_inv_with(r, a, cuzk_fp6_inv); }
void cuzk_fp12_inv_var(cuzk_fp12 *r, const cuzk_fp12 *a)
{
    fp12_inv_with(r, a, cuzk_fp6_inv_var);
}

void cuzk_fp12_conj(cuzk_fp12 *r, const cuzk_fp12 *a)
{
    r->c0 = a->c0;
    cuzk_fp6_neg(&r->c1, &a->c1);
}

/* (c0 + c1 w)^(p^k) = c0^(p^k) + c1^(p^k) W[k] w, the Fp6 maps depending on k mod 6. */
void cuzk_fp12_frobenius(cuzk_fp12 *r, const cuzk_fp12 *a, unsigned k)
{
    k %= 12;
    cuzk_fp6_frobenius(&r->c0, &a->c0, k);
    cuzk_fp6_frobenius(&r->c1, &a->c1, k);
    cuzk_fp6_mul_fp2(&r->c1, &r->c1, &CUZK_FROB12_W[k]);
}

static void fp12_cmov(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp12 *b, bool cond)
{
    cuzk_fp2_cmov(&r->c0.c0, &a->c0.c0, &b->c0.c0, cond);
    cuzk_fp2_cmov(&r->c0.c1, &a->c0.c1, &b->c0.c1, cond);
    cuzk_fp2_cmov(&r->c0.c2, &a->c0.c2, &b->c0.c2, cond);
    cuzk_fp2_cmov(&r->c1.c0, &a->c1.c0, &b->c1.c0, cond);
    cuzk_fp2_cmov(&r->c1.c1, &a->c1.c1, &b->c1.c1, cond);
    cuzk_fp2_cmov(&r->c1.c2, &a->c1.c2, &b->c1.c2, cond);
}

/* Square-and-multiply over every bit of e with a constant-time select. */
void cuzk_fp12_pow(cuzk_fp12 *r, const cuzk_fp12 *a, const uint64_t *e, size_t nlimbs)
{
    cuzk_fp12 acc = CUZK_FP12_ONE, base = *a, t;
    for (size_t i = nlimbs; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            cuzk_fp12_sqr(&acc, &acc);
            cuzk_fp12_mul(&t, &acc, &base);
            fp12_cmov(&acc, &acc, &t, (e[i] >> bit) & 1);
        }
    }
    *r = acc;
}

bool cuzk_fp12_eq(const cuzk_fp12 *a, const cuzk_fp12 *b)
{
    return (int)cuzk_fp6_eq(&a->c0, &b->c0) & (int)cuzk_fp6_eq(&a->c1, &b->c1);
}

bool cuzk_fp12_is_one(const cuzk_fp12 *a) { return cuzk_fp12_eq(a, &CUZK_FP12_ONE); }

/*
 * a * (L0 + L1 w) with L0 = c0 + c1 v and L1 = c4 v (coefficients 0, 1 and 4 when Fp12 is
 * listed c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2). Karatsuba as in cuzk_fp12_mul with the
 * sparse Fp6 products: 5 + 3 + 5 = 13 Fp2 multiplications instead of 18.
 */
void cuzk_fp12_mul_by_014(cuzk_fp12 *r, const cuzk_fp12 *a, const cuzk_fp2 *c0,
                          const cuzk_fp2 *c1, const cuzk_fp2 *c4)
{
    cuzk_fp6 t0, t1, s;
    cuzk_fp2 c14;
    cuzk_fp6_mul_by_01(&t0, &a->c0, c0, c1);
    cuzk_fp6_mul_by_1(&t1, &a->c1, c4);
    tfp2_add(&c14, c1, c4);
    cuzk_fp6_add(&s, &a->c0, &a->c1);
    cuzk_fp6_mul_by_01(&s, &s, c0, &c14);
    cuzk_fp6_sub(&s, &s, &t0);
    cuzk_fp6_sub(&r->c1, &s, &t1);
    cuzk_fp6_mul_by_nonresidue(&t1, &t1);
    cuzk_fp6_add(&r->c0, &t0, &t1);
}
