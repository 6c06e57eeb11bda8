/*
 * fp2.c — the quadratic extension Fp2 = Fp[u]/(u^2 + 1) of BLS12-381 (u^2 = -1 works
 * because p = 3 mod 4, so -1 is a non-square in Fp).
 *
 * Elements are c0 + c1*u with both coefficients in Montgomery form. The arithmetic inlines
 * the Fp limb back end (portable or x86-64, fp_internal.h) through tower_fp2.h.
 * Constant-time unless the name ends in _var (sqrt included: it computes every candidate
 * and selects with cmov).
 * Threading: pure functions on caller memory; no global mutable state.
 */
#include "cuzk/ff.h"
#include "ff/tower_fp2.h"

const cuzk_fp2 CUZK_FP2_ZERO = {{{0}}, {{0}}};
/* c0 = R mod p (Montgomery 1), c1 = 0 */
const cuzk_fp2 CUZK_FP2_ONE = {
    {{0x760900000002fffd, 0xebf4000bc40c0002, 0x5f48985753c758ba, 0x77ce585370525745,
      0x5c071a97a256ec6d, 0x15f65ec3fa80e493}},
    {{0}}};

/* (p-3)/4 and (p-1)/2 as little-endian limbs; python3: hex((p-3)//4), hex((p-1)//2). */
static const uint64_t P_MINUS_3_DIV_4[CUZK_FP_LIMBS] = {
    0xee7fbfffffffeaaa, 0x07aaffffac54ffff, 0xd9cc34a83dac3d89,
    0xd91dd2e13ce144af, 0x92c6e9ed90d2eb35, 0x0680447a8e5ff9a6};
static const uint64_t P_MINUS_1_DIV_2[CUZK_FP_LIMBS] = {
    0xdcff7fffffffd555, 0x0f55ffff58a9ffff, 0xb39869507b587b12,
    0xb23ba5c279c2895f, 0x258dd3db21a5d66b, 0x0d0088f51cbff34d};

/* The arithmetic lives in tower_fp2.h as static inline functions (shared with the tower
 * and the pairing); these are the exported entry points. */
void cuzk_fp2_add(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b) { tfp2_add(r, a, b); }
void cuzk_fp2_sub(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b) { tfp2_sub(r, a, b); }
void cuzk_fp2_neg(cuzk_fp2 *r, const cuzk_fp2 *a) { tfp2_neg(r, a); }
void cuzk_fp2_dbl(cuzk_fp2 *r, const cuzk_fp2 *a) { tfp2_dbl(r, a); }
void cuzk_fp2_conj(cuzk_fp2 *r, const cuzk_fp2 *a) { tfp2_conj(r, a); }

/* Karatsuba: 3 Fp multiplications. c1 = (a0+a1)(b0+b1) - a0b0 - a1b1, c0 = a0b0 - a1b1
 * (u^2 = -1). */
void cuzk_fp2_mul(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b) { tfp2_mul(r, a, b); }

/* Complex squaring: (a0+a1 u)^2 = (a0+a1)(a0-a1) + 2 a0 a1 u, 2 Fp multiplications. */
void cuzk_fp2_sqr(cuzk_fp2 *r, const cuzk_fp2 *a) { tfp2_sqr(r, a); }

void cuzk_fp2_mul_fp(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp *b) { tfp2_mul_fp(r, a, b); }

/* (a0 + a1 u)(1 + u) = (a0 - a1) + (a0 + a1) u */
void cuzk_fp2_mul_by_nonresidue(cuzk_fp2 *r, const cuzk_fp2 *a) { tfp2_mul_xi(r, a); }

/* 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2): one Fp inversion of the norm. The norm of
 * a non-zero element is non-zero (u^2 = -1 is a non-residue), and inv(0) = 0 carries
 * through to give inv(0) = 0 here too. */
static void fp2_inv_with(cuzk_fp2 *r, const cuzk_fp2 *a,
                         void (*fp_inv)(cuzk_fp *, const cuzk_fp *))
{
    cuzk_fp n, t;
    cuzk_fp_sqr(&n, &a->c0);
    cuzk_fp_sqr(&t, &a->c1);
    cuzk_fp_add(&n, &n, &t);
    fp_inv(&n, &n);
    cuzk_fp_mul(&r->c0, &a->c0, &n);
    cuzk_fp_mul(&t, &a->c1, &n);
    cuzk_fp_neg(&r->c1, &t);
}

void cuzk_fp2_inv(cuzk_fp2 *r, const cuzk_fp2 *a) { fp2_inv_with(r, a, cuzk_fp_inv); }
void cuzk_fp2_inv_var(cuzk_fp2 *r, const cuzk_fp2 *a) { fp2_inv_with(r, a, cuzk_fp_inv_var); }

/*
 * Fixed 4-bit windows: a^0..a^15 in a table, then per nibble of e four squarings and one
 * multiplication by the table entry, read with a full constant-time scan. The operation
 * sequence depends only on nlimbs, so this is constant-time in a and in e; against plain
 * square-and-multiply it saves 3 of every 4 multiplications (sqrt's two 381-bit powers
 * are the main user).
 */
void cuzk_fp2_pow(cuzk_fp2 *r, const cuzk_fp2 *a, const uint64_t *e, size_t nlimbs)
{
    cuzk_fp2 tab[16], acc = CUZK_FP2_ONE, t;
    tab[0] = CUZK_FP2_ONE;
    tab[1] = *a;
    for (int j = 2; j < 16; j++)
        tfp2_mul(&tab[j], &tab[j - 1], &tab[1]);
    for (size_t i = nlimbs; i-- > 0;) {
        for (int w = 15; w >= 0; w--) {
            for (int k = 0; k < 4; k++)
                tfp2_sqr(&acc, &acc);
            unsigned nib = (unsigned)(e[i] >> (4 * w)) & 15;
            t = tab[0];
            for (unsigned j = 1; j < 16; j++)
                cuzk_fp2_cmov(&t, &t, &tab[j], j == nib);
            tfp2_mul(&acc, &acc, &t);
        }
    }
    *r = acc;
}

void cuzk_fp2_frobenius(cuzk_fp2 *r, const cuzk_fp2 *a) { tfp2_conj(r, a); }

/* a is a square in Fp2 iff its norm a^(p+1) = a0^2 + a1^2 is a square in Fp. */
int cuzk_fp2_legendre(const cuzk_fp2 *a)
{
    cuzk_fp n, t;
    cuzk_fp_sqr(&n, &a->c0);
    cuzk_fp_sqr(&t, &a->c1);
    cuzk_fp_add(&n, &n, &t);
    return cuzk_fp_legendre(&n);
}

/*
 * Square root for p = 3 mod 4 (Adj & Rodríguez-Henríquez, "Square root computation over
 * even extension fields", Algorithm 9):
 *   a1 = a^((p-3)/4), alpha = a1^2 a = a^((p-1)/2), a0 = alpha^p alpha = a^((p^2-1)/2).
 *   a0 == -1 means a is a non-square. Otherwise x0 = a1 a = a^((p+1)/4) and
 *   alpha == -1: x = u x0;  else x = (1 + alpha)^((p-1)/2) x0.
 * The candidate is squared and compared with a before returning true, so a wrong root can
 * never escape even if the reasoning above were violated by a bad input.
 */
bool cuzk_fp2_sqrt(cuzk_fp2 *r, const cuzk_fp2 *a)
{
    cuzk_fp2 a1, alpha, a0, x0, x, t, minus_one;
    cuzk_fp2_neg(&minus_one, &CUZK_FP2_ONE);

    cuzk_fp2_pow(&a1, a, P_MINUS_3_DIV_4, CUZK_FP_LIMBS);
    tfp2_sqr(&alpha, &a1);
    tfp2_mul(&alpha, &alpha, a);
    tfp2_conj(&a0, &alpha);
    tfp2_mul(&a0, &a0, &alpha);
    bool nonsquare = cuzk_fp2_eq(&a0, &minus_one);

    tfp2_mul(&x0, &a1, a);

    /* alpha == -1: u * x0 = -x0.c1 + x0.c0 u */
    cuzk_fp2 ux0;
    cuzk_fp_neg(&ux0.c0, &x0.c1);
    ux0.c1 = x0.c0;

    tfp2_add(&t, &alpha, &CUZK_FP2_ONE);
    cuzk_fp2_pow(&t, &t, P_MINUS_1_DIV_2, CUZK_FP_LIMBS);
    tfp2_mul(&x, &t, &x0);

    cuzk_fp2_cmov(&x, &x, &ux0, cuzk_fp2_eq(&alpha, &minus_one));

    tfp2_sqr(&t, &x);
    bool ok = !nonsquare & cuzk_fp2_eq(&t, a);
    *r = x;
    return ok;
}

bool cuzk_fp2_is_zero(const cuzk_fp2 *a)
{
    return (int)cuzk_fp_is_zero(&a->c0) & (int)cuzk_fp_is_zero(&a->c1);
}

bool cuzk_fp2_is_one(const cuzk_fp2 *a)
{
    return (int)cuzk_fp_is_one(&a->c0) & (int)cuzk_fp_is_zero(&a->c1);
}

bool cuzk_fp2_eq(const cuzk_fp2 *a, const cuzk_fp2 *b)
{
    return (int)cuzk_fp_eq(&a->c0, &b->c0) & (int)cuzk_fp_eq(&a->c1, &b->c1);
}

bool cuzk_fp2_is_lexicographically_largest(const cuzk_fp2 *a)
{
    bool c1_largest = cuzk_fp_is_lexicographically_largest(&a->c1);
    bool c0_largest = cuzk_fp_is_lexicographically_largest(&a->c0);
    return c1_largest | (cuzk_fp_is_zero(&a->c1) & c0_largest);
}

void cuzk_fp2_cmov(cuzk_fp2 *r, const cuzk_fp2 *a, const cuzk_fp2 *b, bool cond)
{
    cuzk_fp_cmov(&r->c0, &a->c0, &b->c0, cond);
    cuzk_fp_cmov(&r->c1, &a->c1, &b->c1, cond);
}
