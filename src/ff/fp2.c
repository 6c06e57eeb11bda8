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

/* (p-3)/4 and (p+1)/4 as little-endian limbs; python3: hex((p-3)//4), hex((p+1)//4). */
static const uint64_t P_MINUS_3_DIV_4[CUZK_FP_LIMBS] = {
    0xee7fbfffffffeaaa, 0x07aaffffac54ffff, 0xd9cc34a83dac3d89,
    0xd91dd2e13ce144af, 0x92c6e9ed90d2eb35, 0x0680447a8e5ff9a6};
static const uint64_t P_PLUS_1_DIV_4[CUZK_FP_LIMBS] = {
    0xee7fbfffffffeaab, 0x07aaffffac54ffff, 0xd9cc34a83dac3d89,
    0xd91dd2e13ce144af, 0x92c6e9ed90d2eb35, 0x0680447a8e5ff9a6};

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
 * a^e in Fp for a public exponent e: sliding window of width 5 over odd powers, so the
 * operation sequence and table indices depend only on e (constant-time in a). About
 * 380 squarings + 70 multiplications for a 380-bit e, against 380 + 95 plus a 16-entry
 * cmov scan per window for the secret-exponent cuzk_fp_pow.
 */
static void fp_pow_pub(cuzk_fp *r, const cuzk_fp *a, const uint64_t e[CUZK_FP_LIMBS])
{
    cuzk_fp tab[16], a2, acc = CUZK_FP_ONE;      /* tab[i] = a^(2i+1) */
    cuzk_fp_sqr(&a2, a);
    tab[0] = *a;
    for (int i = 1; i < 16; i++)
        tfp_mul(&tab[i], &tab[i - 1], &a2);
#define EBIT(k) ((unsigned)((e[(k) / 64] >> ((k) % 64)) & 1))
    int i = 64 * CUZK_FP_LIMBS;
    while (i > 0 && !EBIT(i - 1))
        i--;
    bool started = false;
    while (i > 0) {
        if (!EBIT(i - 1)) {
            cuzk_fp_sqr(&acc, &acc);
            i--;
            continue;
        }
        int lo = i >= 5 ? i - 5 : 0;             /* window [lo, i) ends in a set bit */
        while (!EBIT(lo))
            lo++;
        unsigned w = 0;
        for (int k = i - 1; k >= lo; k--)
            w = (w << 1) | EBIT(k);
        if (started) {
            for (int k = lo; k < i; k++)
                cuzk_fp_sqr(&acc, &acc);
            tfp_mul(&acc, &acc, &tab[w >> 1]);
        } else {
            acc = tab[w >> 1];
            started = true;
        }
        i = lo;
    }
#undef EBIT
    *r = acc;
}

/*
 * Square root for p = 3 mod 4 by the norm ("complex") method, two Fp exponentiations
 * instead of two Fp2 ones (the method is surveyed in Adj & Rodriguez-Henriquez, "Square
 * root computation over even extension fields"; the derivation here is self-contained).
 * For a = a0 + a1 u with x = x0 + x1 u and x^2 = a:
 *   x0^2 - x1^2 = a0, 2 x0 x1 = a1  =>  n^2 := (x0^2 + x1^2)^2 = a0^2 + a1^2 = N(a),
 * and x0^2 = (a0 + n)/2 for the right sign of n. So n = N(a)^((p+1)/4) (a square root of
 * N(a) whenever one exists; if none exists a is no square) and c = (a0 + n)/2.
 * One exponentiation t = c^((p-3)/4) gives everything: c t^2 = c^((p-1)/2) = chi(c).
 *   chi(c) = 1:  x0 = c t (a root of c) and 1/x0 = t (x0 t = c t^2 = 1), so
 *                x1 = a1/(2 x0) = a1 t / 2.
 *   chi(c) = -1: the other sign is the right one: c' = (a0 - n)/2 = -a1^2/(4c) is then a
 *                square (-1 is not). With y = c t (y^2 = c chi(c) = -c) and 1/y = -t:
 *                x0 = a1/(2y) = -a1 t / 2 and x1 = a1/(2 x0) = -1/t = c t.
 *                (Check: 2 x0 x1 = -a1 c t^2 = a1; x0^2 - x1^2 = t^2 (a1^2/4 - c^2)
 *                = c - a1^2/(4c) = c + c' = a0.)
 * c = 0 happens only with a1 = 0 and n = -a0; then c := a0 (the other sign) and the same
 * two cases give x = a0 t (a0 a square in Fp) or x = a0 t u (x^2 = -a0^2 t^2 = a0). a = 0
 * ends with t = 0 and x = 0. Both candidates are always computed and one is kept by cmov;
 * the caller-visible result is still checked by squaring, so no wrong root can escape.
 */
bool cuzk_fp2_sqrt(cuzk_fp2 *r, const cuzk_fp2 *a)
{
    cuzk_fp nrm, n, c, t, ct, h, e;
    cuzk_fp2 x, y, sq;
    cuzk_fp_sqr(&nrm, &a->c0);
    cuzk_fp_sqr(&t, &a->c1);
    tfp_add(&nrm, &nrm, &t);
    fp_pow_pub(&n, &nrm, P_PLUS_1_DIV_4);
    tfp_add(&c, &a->c0, &n);
    cuzk_fp_half(&c, &c);
    cuzk_fp_cmov(&c, &c, &a->c0, cuzk_fp_is_zero(&c));

    fp_pow_pub(&t, &c, P_MINUS_3_DIV_4);
    tfp_mul(&ct, &c, &t);                        /* root of chi(c) * c */
    tfp_mul(&e, &ct, &t);                        /* chi(c) */
    tfp_mul(&h, &a->c1, &t);
    cuzk_fp_half(&h, &h);                        /* a1 t / 2 */

    x.c0 = ct;                                   /* chi(c) = 1 (or c = t = 0) */
    x.c1 = h;
    tfp_neg(&y.c0, &h);                          /* chi(c) = -1 */
    y.c1 = ct;
    cuzk_fp2_cmov(&x, &x, &y, !cuzk_fp_is_one(&e));

    tfp2_sqr(&sq, &x);
    bool ok = cuzk_fp2_eq(&sq, a);
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
