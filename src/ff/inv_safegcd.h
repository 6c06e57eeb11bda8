/*
 * inv_safegcd.h — modular inversion by Bernstein–Yang "safegcd" divsteps (internal),
 * shared by fp.c (p, 381 bits) and fr.c (r, 255 bits); static inline with the limb count
 * as a parameter so each field gets its own unrolled copy.
 *
 * Method (Bernstein & Yang, "Fast constant-time gcd computation and modular inversion",
 * 2019). A divstep maps (delta, f, g), f odd, to
 *     (1 - delta, g, (g - f)/2)            if delta > 0 and g odd
 *     (1 + delta, f, (g + (g mod 2) f)/2)  otherwise;
 * starting from (1, M, x) it reaches g = 0 with f = ±gcd = ±1. B = 60 divsteps depend only
 * on the low 64 bits of f and g, so they run on single words and produce a 2x2 matrix
 * T = [u v; q r] (entries scaled by 2^B, |u|+|v| <= 2^B) that is then applied to the full
 * f, g and, modulo M, to the cofactors d, e with (f, g) = (d, e) * x / c (mod M). Dividing
 * by 2^B mod M is exact after adding the multiple of M that clears the low B bits
 * (needs M^-1 mod 2^B). Starting with (d, e) = (0, c) ends with f = ±1, d = ±c/x, so
 * c = R^2 mod M gives the Montgomery-form inverse of a Montgomery-form input directly.
 * Numbers are held as signed B-bit limbs: limbs 0..n-2 in [0, 2^B), the top limb signed.
 *
 * Constant-time version: a fixed number of B-divstep batches, branch-free divsteps, each
 * batch as two halves of 30 steps whose matrices are packed two entries per word (u + v
 * 2^32: one add/shift updates both; |u|, |v| <= 2^30 keeps them apart) and then
 * multiplied together — that is why B = 60 rather than the 62 a word could hold.
 * It runs "hddivsteps" (Wuille, github.com/sipa/safegcd-bounds, "A faster variant of
 * divsteps"): the same steps started from delta = 1/2 instead of 1, about 20% fewer
 * steps. The count: for M >= 4257874 and 0 <= g <= f <= M, hddivsteps reach g = 0 within
 * floor((3787 log2(M) + 2166) / 1644) steps (a bound found by the convex-hull method of
 * that document, verified with exact arithmetic for all M <= 2^3805; its 256-bit instance,
 * 590, is the one libsecp256k1 uses and has a Coq proof there). For p (log2 = 380.70):
 * 878 -> 15 batches of 60 (900); for r (log2 = 254.86): 588 -> 10 batches (600).
 * (python3: math.floor((3787*math.log2(M) + 2166) / 1644).) The paper's own Theorem 11.2
 * bound for plain divsteps, floor((49b + 57)/17), would need 1101 / 738 steps.
 * Variable-time version: plain divsteps from delta = 1, skipping runs of even g with a
 * count-trailing-zeros and stopping as soon as g = 0 (only for public inputs).
 *
 * The cofactors stay in (-2M, M) (the clearing multiple of M is chosen by the signs of
 * d, e so that the bound is kept); the final normalisation maps ±d into [0, M).
 * Pure functions; thread-safe.
 */
#ifndef CUZK_FF_INV_SAFEGCD_H
#define CUZK_FF_INV_SAFEGCD_H

#include <stdint.h>

#include "ff/mont.h"

#define SG_MAX 7
#define SG_B 60
#define SG_MASK (((uint64_t)1 << SG_B) - 1)

typedef __int128 sg_i128;

typedef struct sg_modulus {
    int64_t m[SG_MAX];  /* M in signed SG_B-bit limbs */
    uint64_t mi;        /* M^-1 mod 2^SG_B */
    size_t n;           /* signed limbs in use */
    size_t n64;         /* 64-bit limbs of the field element */
    unsigned batches;   /* SG_B-divstep batches the constant-time version runs */
    unsigned tail30;    /* 1: then one more batch of 30 divsteps */
} sg_modulus;

typedef struct sg_matrix {
    int64_t u, v, q, r;
} sg_matrix;

/* 64-bit limbs (n64 of them, value < 2^(SG_B n)) to signed SG_B-bit limbs */
static inline void sg_from_u64(int64_t *out, const uint64_t *in, size_t n, size_t n64)
{
    for (size_t i = 0; i < n; i++) {
        size_t bit = SG_B * i, w = bit / 64, s = bit % 64;
        uint64_t v = w < n64 ? in[w] >> s : 0;
        if (s > 64 - SG_B && w + 1 < n64)
            v |= in[w + 1] << (64 - s);
        out[i] = (int64_t)(v & SG_MASK);
    }
}

/* non-negative signed SG_B-bit limbs (< 2^(64 n64)) back to 64-bit limbs */
static inline void sg_to_u64(uint64_t *out, const int64_t *in, size_t n, size_t n64)
{
    for (size_t w = 0; w < n64; w++) {
        size_t bit = 64 * w, i = bit / SG_B, s = bit % SG_B;
        uint64_t v = (uint64_t)in[i] >> s;
        if (i + 1 < n)
            v |= (uint64_t)in[i + 1] << (SG_B - s);
        if (s > 2 * SG_B - 64 && i + 2 < n)
            v |= (uint64_t)in[i + 2] << (2 * SG_B - s);
        out[w] = v;
    }
}

/*
 * 30 branch-free divsteps on the low words of f and g, the matrix rows packed as
 * U = u + v 2^32 and Q = q + r 2^32 (every operation on them is linear, so it acts on both
 * entries at once). With c1 = [delta > 0] and c2 = [g odd] as masks, one step is:
 * under sw = c1 & c2 the new f is the old g (and U the old Q), selected with masks;
 * g += (c1 ? -f : f) & c2 (likewise Q from U); finally halve g, double U. Selecting f
 * instead of adding g - f back keeps the loop-carried chain through f three operations
 * long. The half-integer delta (hddivsteps) is kept as the integer zeta = -(delta + 1/2)
 * (delta = 1/2 is zeta = -1): delta > 0 iff zeta < 0, so its sign bit is the c1 mask;
 * delta' = 1 - delta gives zeta' = -zeta - 2 and delta' = 1 + delta gives zeta' = zeta - 1,
 * both (zeta ^ sw) - 1. Only the low 64 - k bits of f, g are exact after k steps; 30 steps
 * need just the lowest bit of each.
 */
static inline uint64_t sg_divsteps_30(uint64_t eta, uint64_t f, uint64_t g, sg_matrix *t)
{
    uint64_t U = 1, Q = (uint64_t)1 << 32;
    for (int i = 0; i < 30; i++) {
        uint64_t c1 = (uint64_t)((int64_t)eta >> 63);
        uint64_t c2 = (uint64_t)0 - (g & 1);
        uint64_t x = (f ^ c1) - c1, y = (U ^ c1) - c1;
        uint64_t sw = c1 & c2;
        uint64_t nf = f ^ ((f ^ g) & sw), nU = U ^ ((U ^ Q) & sw);
        g += x & c2;
        Q += y & c2;
        eta = (eta ^ sw) - 1;
        f = nf;
        g >>= 1;
        U = nU << 1;
    }
    /* unpack: each entry is in [-2^30, 2^30], so the low half sign-extends exactly */
    t->u = (int64_t)(U << 32) >> 32;
    t->v = (int64_t)(U - (uint64_t)t->u) >> 32;
    t->q = (int64_t)(Q << 32) >> 32;
    t->r = (int64_t)(Q - (uint64_t)t->q) >> 32;
    return eta;
}

/* SG_B = 60 divsteps as two packed halves; the second half starts from the low words of
 * T1 (f, g) / 2^30 (34 exact bits, 30 needed) and the batch matrix is T2 T1. */
static inline uint64_t sg_divsteps_60(uint64_t eta, uint64_t f, uint64_t g, sg_matrix *t)
{
    sg_matrix a, b;
    eta = sg_divsteps_30(eta, f, g, &a);
    uint64_t f1 = (uint64_t)((int64_t)((uint64_t)a.u * f + (uint64_t)a.v * g) >> 30);
    uint64_t g1 = (uint64_t)((int64_t)((uint64_t)a.q * f + (uint64_t)a.r * g) >> 30);
    eta = sg_divsteps_30(eta, f1, g1, &b);
    t->u = b.u * a.u + b.v * a.q;
    t->v = b.u * a.v + b.v * a.r;
    t->q = b.q * a.u + b.r * a.q;
    t->r = b.q * a.v + b.r * a.r;
    return eta;
}

/* SG_B divsteps, skipping runs of even g at once (variable-time). */
static inline int64_t sg_divsteps_var(int64_t delta, uint64_t f, uint64_t g, sg_matrix *t)
{
    uint64_t u = 1, v = 0, q = 0, r = 1;
    int left = SG_B;
    for (;;) {
        /* g | 2^left caps the run at the steps left in this batch */
        int z = __builtin_ctzll(g | ((uint64_t)1 << left));
        g >>= z;
        u <<= z;
        v <<= z;
        delta += z;
        left -= z;
        if (left == 0)
            break;
        /* g is odd: the halving of this step happens in the next run (g + f is even) */
        if (delta > 0) {
            uint64_t x = f;
            f = g;
            g = (uint64_t)0 - x;
            x = u;
            u = q;
            q = (uint64_t)0 - x;
            x = v;
            v = r;
            r = (uint64_t)0 - x;
            delta = -delta;
        }
        g += f;
        q += u;
        r += v;
    }
    t->u = (int64_t)u;
    t->v = (int64_t)v;
    t->q = (int64_t)q;
    t->r = (int64_t)r;
    return delta;
}

/*
 * One pass over the limbs applies T to both pairs:
 *   (f, g) <- T (f, g) / 2^SG_B, exact because T was built from these f, g;
 *   (d, e) <- (T (d, e) + M (md, me)) / 2^SG_B, md, me chosen so the low SG_B bits vanish.
 * Starting md, me from the sign corrections (u [d<0] + v [e<0], ...) keeps d, e in
 * (-2M, M) (bound from libsecp256k1's safegcd write-up: d, e in (-2M, M) stay there);
 * every intermediate fits in 127 bits because |u| + |v| <= 2^SG_B and |md| < 2^63.
 * (One loop for all four keeps the independent multiply chains side by side.)
 */
static inline void sg_update(int64_t *f, int64_t *g, int64_t *d, int64_t *e,
                             const sg_matrix *t, const sg_modulus *M)
{
    size_t n = M->n;
    const int64_t u = t->u, v = t->v, q = t->q, r = t->r;
    int64_t sd = d[n - 1] >> 63, se = e[n - 1] >> 63;
    int64_t md = (u & sd) + (v & se);
    int64_t me = (q & sd) + (r & se);
    sg_i128 cf = (sg_i128)u * f[0] + (sg_i128)v * g[0];
    sg_i128 cg = (sg_i128)q * f[0] + (sg_i128)r * g[0];
    sg_i128 cd = (sg_i128)u * d[0] + (sg_i128)v * e[0];
    sg_i128 ce = (sg_i128)q * d[0] + (sg_i128)r * e[0];
    md -= (int64_t)((M->mi * (uint64_t)cd + (uint64_t)md) & SG_MASK);
    me -= (int64_t)((M->mi * (uint64_t)ce + (uint64_t)me) & SG_MASK);
    cd += (sg_i128)M->m[0] * md;
    ce += (sg_i128)M->m[0] * me;
    cf >>= SG_B;
    cg >>= SG_B;
    cd >>= SG_B;
    ce >>= SG_B;
    CUZK_UNROLL
    for (size_t i = 1; i < n; i++) {
        cf += (sg_i128)u * f[i] + (sg_i128)v * g[i];
        cg += (sg_i128)q * f[i] + (sg_i128)r * g[i];
        cd += (sg_i128)u * d[i] + (sg_i128)v * e[i] + (sg_i128)M->m[i] * md;
        ce += (sg_i128)q * d[i] + (sg_i128)r * e[i] + (sg_i128)M->m[i] * me;
        f[i - 1] = (int64_t)((uint64_t)cf & SG_MASK);
        g[i - 1] = (int64_t)((uint64_t)cg & SG_MASK);
        d[i - 1] = (int64_t)((uint64_t)cd & SG_MASK);
        e[i - 1] = (int64_t)((uint64_t)ce & SG_MASK);
        cf >>= SG_B;
        cg >>= SG_B;
        cd >>= SG_B;
        ce >>= SG_B;
    }
    f[n - 1] = (int64_t)cf;
    g[n - 1] = (int64_t)cg;
    d[n - 1] = (int64_t)cd;
    e[n - 1] = (int64_t)ce;
}

/* d += M if d < 0 (mask form), then renormalise limbs to [0, 2^SG_B) with a signed top */
static inline void sg_add_m_if_neg(int64_t *d, const sg_modulus *M)
{
    size_t n = M->n;
    int64_t neg = d[n - 1] >> 63, c = 0;
    for (size_t i = 0; i < n; i++) {
        c += d[i] + (M->m[i] & neg);
        if (i + 1 < n) {
            d[i] = c & (int64_t)SG_MASK;
            c >>= SG_B;
        } else {
            d[i] = c;
        }
    }
}

/* d = -d if mask is all ones */
static inline void sg_cneg(int64_t *d, int64_t mask, size_t n)
{
    int64_t c = 0;
    for (size_t i = 0; i < n; i++) {
        c += (d[i] ^ mask) - mask;
        if (i + 1 < n) {
            d[i] = c & (int64_t)SG_MASK;
            c >>= SG_B;
        } else {
            d[i] = c;
        }
    }
}

static inline void sg_finish(uint64_t *out, int64_t *d, const int64_t *f, const sg_modulus *M)
{
    /* d in (-2M, M) -> (-M, M) -> times sign(f) -> [0, M) */
    sg_add_m_if_neg(d, M);
    sg_cneg(d, f[M->n - 1] >> 63, M->n);
    sg_add_m_if_neg(d, M);
    sg_to_u64(out, d, M->n, M->n64);
}

/* out = c * x^-1 mod M (0 for x = 0), constant-time; x < M in 64-bit limbs, c < M too. */
static inline void sg_inv(uint64_t *out, const uint64_t *x, const uint64_t *c,
                          const sg_modulus *M)
{
    int64_t f[SG_MAX], g[SG_MAX], d[SG_MAX] = {0}, e[SG_MAX];
    size_t n = M->n;
    for (size_t i = 0; i < n; i++)
        f[i] = M->m[i];
    sg_from_u64(g, x, n, M->n64);
    sg_from_u64(e, c, n, M->n64);
    uint64_t eta = (uint64_t)-1; /* zeta = -1: delta = 1/2 (hddivsteps) */
    for (unsigned b = 0; b < M->batches + M->tail30; b++) {
        sg_matrix t;
        uint64_t lf = (uint64_t)f[0] | ((uint64_t)f[1] << SG_B);
        uint64_t lg = (uint64_t)g[0] | ((uint64_t)g[1] << SG_B);
        if (b < M->batches) {
            eta = sg_divsteps_60(eta, lf, lg, &t);
        } else {
            /* a last half batch: its matrix times 2^30 has the same update, scaled to
             * the 2^60 the update functions divide by (entries stay <= 2^60) */
            eta = sg_divsteps_30(eta, lf, lg, &t);
            t.u *= (int64_t)1 << 30;
            t.v *= (int64_t)1 << 30;
            t.q *= (int64_t)1 << 30;
            t.r *= (int64_t)1 << 30;
        }
        sg_update(f, g, d, e, &t, M);
    }
    sg_finish(out, d, f, M);
}

/* Same result, variable-time: stops when g reaches 0. */
static inline void sg_inv_var(uint64_t *out, const uint64_t *x, const uint64_t *c,
                              const sg_modulus *M)
{
    int64_t f[SG_MAX], g[SG_MAX], d[SG_MAX] = {0}, e[SG_MAX];
    size_t n = M->n;
    for (size_t i = 0; i < n; i++)
        f[i] = M->m[i];
    sg_from_u64(g, x, n, M->n64);
    sg_from_u64(e, c, n, M->n64);
    int64_t delta = 1;
    for (;;) {
        uint64_t nz = 0;
        for (size_t i = 0; i < n; i++)
            nz |= (uint64_t)g[i];
        if (!nz)
            break;
        sg_matrix t;
        delta = sg_divsteps_var(delta, (uint64_t)f[0] | ((uint64_t)f[1] << SG_B),
                                (uint64_t)g[0] | ((uint64_t)g[1] << SG_B), &t);
        sg_update(f, g, d, e, &t, M);
    }
    sg_finish(out, d, f, M);
}

#endif /* CUZK_FF_INV_SAFEGCD_H */
