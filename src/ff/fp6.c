/*
 * fp6.c — the cubic extension Fp6 = Fp2[v]/(v^3 - xi), xi = u + 1 (a non-square and
 * non-cube in Fp2, so v^3 - xi is irreducible). Elements are c0 + c1 v + c2 v^2.
 *
 * Multiplication is Karatsuba over three coefficients (6 Fp2 products), squaring is
 * Chung–Hasan SQR2 (2 multiplications + 3 squarings), and the sparse products used by the
 * Miller loop (mul_by_01, mul_by_1) skip the known-zero coefficients.
 * Constant-time, except cuzk_fp6_inv_var (declared in ff_export.h).
 * Threading: pure functions on caller memory; no global mutable state.
 */
#include "cuzk/ff.h"
#include "ff/tower_fp2.h"
#include "ff/ff_export.h"

const cuzk_fp6 CUZK_FP6_ZERO = {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}};
/* c0 = Montgomery 1 (R mod p), everything else 0 */
const cuzk_fp6 CUZK_FP6_ONE = {
    {{{0x760900000002fffd, 0xebf4000bc40c0002, 0x5f48985753c758ba, 0x77ce585370525745,
       0x5c071a97a256ec6d, 0x15f65ec3fa80e493}},
     {{0}}},
    {{{0}}, {{0}}},
    {{{0}}, {{0}}}};

void cuzk_fp6_add(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp6 *b)
{
    tfp2_add(&r->c0, &a->c0, &b->c0);
    tfp2_add(&r->c1, &a->c1, &b->c1);
    tfp2_add(&r->c2, &a->c2, &b->c2);
}

void cuzk_fp6_sub(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp6 *b)
{
    tfp2_sub(&r->c0, &a->c0, &b->c0);
    tfp2_sub(&r->c1, &a->c1, &b->c1);
    tfp2_sub(&r->c2, &a->c2, &b->c2);
}

void cuzk_fp6_neg(cuzk_fp6 *r, const cuzk_fp6 *a)
{
    tfp2_neg(&r->c0, &a->c0);
    tfp2_neg(&r->c1, &a->c1);
    tfp2_neg(&r->c2, &a->c2);
}

/*
 * Karatsuba with t_i = a_i b_i:
 *   c0 = t0 + xi ((a1 + a2)(b1 + b2) - t1 - t2)
 *   c1 = (a0 + a1)(b0 + b1) - t0 - t1 + xi t2
 *   c2 = (a0 + a2)(b0 + b2) - t0 - t2 + t1
 */
void cuzk_fp6_mul(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp6 *b)
{
    cuzk_fp2 t0, t1, t2, s, u, c0, c1, c2;
    tfp2_mul(&t0, &a->c0, &b->c0);
    tfp2_mul(&t1, &a->c1, &b->c1);
    tfp2_mul(&t2, &a->c2, &b->c2);

    tfp2_add(&s, &a->c1, &a->c2);
    tfp2_add(&u, &b->c1, &b->c2);
    tfp2_mul(&c0, &s, &u);
    tfp2_sub(&c0, &c0, &t1);
    tfp2_sub(&c0, &c0, &t2);
    tfp2_mul_xi(&c0, &c0);
    tfp2_add(&c0, &c0, &t0);

    tfp2_add(&s, &a->c0, &a->c1);
    tfp2_add(&u, &b->c0, &b->c1);
    tfp2_mul(&c1, &s, &u);
    tfp2_sub(&c1, &c1, &t0);
    tfp2_sub(&c1, &c1, &t1);
    tfp2_mul_xi(&s, &t2);
    tfp2_add(&c1, &c1, &s);

    tfp2_add(&s, &a->c0, &a->c2);
    tfp2_add(&u, &b->c0, &b->c2);
    tfp2_mul(&c2, &s, &u);
    tfp2_sub(&c2, &c2, &t0);
    tfp2_sub(&c2, &c2, &t2);
    tfp2_add(&c2, &c2, &t1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

/*
 * Chung–Hasan SQR2: s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 - a1 + a2)^2, s3 = 2 a1 a2, s4 = a2^2;
 *   c0 = s0 + xi s3,  c1 = s1 + xi s4,  c2 = s1 + s2 + s3 - s0 - s4  (= a1^2 + 2 a0 a2).
 */
void cuzk_fp6_sqr(cuzk_fp6 *r, const cuzk_fp6 *a)
{
    cuzk_fp2 s0, s1, s2, s3, s4, t;
    tfp2_sqr(&s0, &a->c0);
    tfp2_mul(&s1, &a->c0, &a->c1);
    tfp2_dbl(&s1, &s1);
    tfp2_sub(&s2, &a->c0, &a->c1);
    tfp2_add(&s2, &s2, &a->c2);
    tfp2_sqr(&s2, &s2);
    tfp2_mul(&s3, &a->c1, &a->c2);
    tfp2_dbl(&s3, &s3);
    tfp2_sqr(&s4, &a->c2);

    tfp2_mul_xi(&t, &s3);
    tfp2_add(&r->c0, &s0, &t);
    tfp2_add(&t, &s1, &s2);
    tfp2_add(&t, &t, &s3);
    tfp2_sub(&t, &t, &s0);
    tfp2_sub(&r->c2, &t, &s4);
    tfp2_mul_xi(&s4, &s4);
    tfp2_add(&r->c1, &s1, &s4);
}

/* (c0 + c1 v + c2 v^2) v = xi c2 + c0 v + c1 v^2 */
void cuzk_fp6_mul_by_nonresidue(cuzk_fp6 *r, const cuzk_fp6 *a)
{
    cuzk_fp2 t;
    tfp2_mul_xi(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

/*
 * a * (b0 + b1 v) with t0 = a0 b0, t1 = a1 b1:
 *   c0 = t0 + xi ((a1 + a2) b1 - t1)      (a2 b1 v^3 = xi a2 b1)
 *   c1 = (a0 + a1)(b0 + b1) - t0 - t1
 *   c2 = (a0 + a2) b0 - t0 + t1           (a2 b0 + a1 b1)
 */
void cuzk_fp6_mul_by_01(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp2 *b0,
                        const cuzk_fp2 *b1)
{
    cuzk_fp2 t0, t1, s, u, c0, c1, c2;
    tfp2_mul(&t0, &a->c0, b0);
    tfp2_mul(&t1, &a->c1, b1);

    tfp2_add(&s, &a->c1, &a->c2);
    tfp2_mul(&c0, &s, b1);
    tfp2_sub(&c0, &c0, &t1);
    tfp2_mul_xi(&c0, &c0);
    tfp2_add(&c0, &c0, &t0);

    tfp2_add(&s, &a->c0, &a->c1);
    tfp2_add(&u, b0, b1);
    tfp2_mul(&c1, &s, &u);
    tfp2_sub(&c1, &c1, &t0);
    tfp2_sub(&c1, &c1, &t1);

    tfp2_add(&s, &a->c0, &a->c2);
    tfp2_mul(&c2, &s, b0);
    tfp2_sub(&c2, &c2, &t0);
    tfp2_add(&c2, &c2, &t1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

/* a * (b1 v) = xi a2 b1 + a0 b1 v + a1 b1 v^2 */
void cuzk_fp6_mul_by_1(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp2 *b1)
{
    cuzk_fp2 c0, c1, c2;
    tfp2_mul(&c0, &a->c2, b1);
    tfp2_mul_xi(&c0, &c0);
    tfp2_mul(&c1, &a->c0, b1);
    tfp2_mul(&c2, &a->c1, b1);
    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

void cuzk_fp6_mul_fp2(cuzk_fp6 *r, const cuzk_fp6 *a, const cuzk_fp2 *s)
{
    tfp2_mul(&r->c0, &a->c0, s);
    tfp2_mul(&r->c1, &a->c1, s);
    tfp2_mul(&r->c2, &a->c2, s);
}

/*
 * Inverse via the adjugate: with
 *   t0 = a0^2 - xi a1 a2,  t1 = xi a2^2 - a0 a1,  t2 = a1^2 - a0 a2,
 * a (t0 + t1 v + t2 v^2) = a0 t0 + xi (a2 t1 + a1 t2) =: d lies in Fp2, so
 * a^-1 = (t0 + t1 v + t2 v^2) / d. d = 0 only for a = 0, and inv(0) = 0 follows.
 */
static void fp6_inv_with(cuzk_fp6 *r, const cuzk_fp6 *a,
                         void (*fp2_inv)(cuzk_fp2 *, const cuzk_fp2 *))
{
    cuzk_fp2 t0, t1, t2, s, d;
    tfp2_sqr(&t0, &a->c0);
    tfp2_mul(&s, &a->c1, &a->c2);
    tfp2_mul_xi(&s, &s);
    tfp2_sub(&t0, &t0, &s);

    tfp2_sqr(&t1, &a->c2);
    tfp2_mul_xi(&t1, &t1);
    tfp2_mul(&s, &a->c0, &a->c1);
    tfp2_sub(&t1, &t1, &s);

    tfp2_sqr(&t2, &a->c1);
    tfp2_mul(&s, &a->c0, &a->c2);
    tfp2_sub(&t2, &t2, &s);

    tfp2_mul(&d, &a->c2, &t1);
    tfp2_mul(&s, &a->c1, &t2);
    tfp2_add(&d, &d, &s);
    tfp2_mul_xi(&d, &d);
    tfp2_mul(&s, &a->c0, &t0);
    tfp2_add(&d, &d, &s);

    fp2_inv(&d, &d);
    tfp2_mul(&r->c0, &t0, &d);
    tfp2_mul(&r->c1, &t1, &d);
    tfp2_mul(&r->c2, &t2, &d);
}

void cuzk_fp6_inv(cuzk_fp6 *r, const cuzk_fp6 *a) { fp6_inv_with(r, a, cuzk_fp2_inv); }
void cuzk_fp6_inv_var(cuzk_fp6 *r, const cuzk_fp6 *a) { fp6_inv_with(r, a, cuzk_fp2_inv_var); }

/* (c0 + c1 v + c2 v^2)^(p^k) = c0^(p^k) + c1^(p^k) C1[k] v + c2^(p^k) C2[k] v^2, where
 * x^(p^k) on Fp2 is conjugation for odd k and the identity for even k. */
void cuzk_fp6_frobenius(cuzk_fp6 *r, const cuzk_fp6 *a, unsigned k)
{
    k %= 6;
    cuzk_fp2 c0 = a->c0, c1 = a->c1, c2 = a->c2;
    if (k & 1) {
        tfp2_conj(&c0, &c0);
        tfp2_conj(&c1, &c1);
        tfp2_conj(&c2, &c2);
    }
    r->c0 = c0;
    tfp2_mul(&r->c1, &c1, &CUZK_FROB6_C1[k]);
    tfp2_mul(&r->c2, &c2, &CUZK_FROB6_C2[k]);
}

bool cuzk_fp6_eq(const cuzk_fp6 *a, const cuzk_fp6 *b)
{
    return (int)cuzk_fp2_eq(&a->c0, &b->c0) & (int)cuzk_fp2_eq(&a->c1, &b->c1) &
           (int)cuzk_fp2_eq(&a->c2, &b->c2);
}

bool cuzk_fp6_is_zero(const cuzk_fp6 *a)
{
    return (int)cuzk_fp2_is_zero(&a->c0) & (int)cuzk_fp2_is_zero(&a->c1) & (int)cuzk_fp2_is_zero(&a->c2);
}
