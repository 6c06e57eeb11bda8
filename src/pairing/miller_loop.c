/*
 * miller_loop.c — the Miller loop of the optimal ate pairing on BLS12-381, for one or many
 * (P, Q) pairs sharing the Fp12 squarings.
 *
 * Model. Q lies on the M-type twist E': y^2 = x^3 + b', b' = 4 xi (xi = u + 1), and maps to
 * E(Fp12) by psi(x, y) = (x w^-2, y w^-3) (w^6 = xi). The line through points of psi(E')
 * evaluated at P = (xP, yP) in E(Fp) is, times w^3,
 *     -(yT - lambda xT) - lambda xP w^2 + yP w^3,
 * i.e. non-zero only at 1, v = w^2 and v w = w^3: the "014" shape of
 * cuzk_fp12_mul_by_014. Lines are scaled freely by non-zero Fp2 factors; those lie in a
 * proper subfield and vanish in the final exponentiation, which keeps the loop inverse-free.
 *
 * T runs in homogeneous projective coordinates (x = X/Z, y = Y/Z) over the bits of
 * |x| = 0xd201000000010000 (x the BLS parameter), with the doubling and mixed addition
 * formulas of Costello–Lange–Naehrig ("Faster pairing computations on curves with
 * high-degree twists", PKC 2010) as laid out by Aranha et al. ("The realm of the pairings",
 * 2013). Because x < 0, f_{x,Q} = 1 / (f_{|x|,Q} v) with a vertical line v that the final
 * exponentiation kills, and 1/f equals conj(f) after it: the result is conjugated.
 *
 * Variable-time (public inputs only). Pairs are processed in chunks of MILLER_CHUNK kept
 * on the stack, so no allocation happens; each chunk shares its squarings.
 * Threading: pure function on caller memory.
 */
#include <string.h>

#include "cuzk/pairing.h"
#include "ff/ff_export.h"
#include "util/util_export.h"

/* BLS parameter x = -0xd201000000010000; the loop runs over |x| below its top bit (63). */
#define BLS_X_ABS 0xd201000000010000ULL
#define MILLER_CHUNK 8

typedef struct g2_proj {
    cuzk_fp2 x, y, z;
} g2_proj;

/* What the lines need from P, precomputed once per pair. */
typedef struct p_prep {
    cuzk_fp x3;  /* 3 xP */
    cuzk_fp nx;  /* -xP */
    cuzk_fp y;   /* yP */
    cuzk_fp ny;  /* -yP */
} p_prep;

static void fp2_half(cuzk_fp2 *r, const cuzk_fp2 *a)
{
    cuzk_fp_half(&r->c0, &a->c0);
    cuzk_fp_half(&r->c1, &a->c1);
}

static void fp2_mul_small(cuzk_fp2 *r, const cuzk_fp2 *a, uint64_t k)
{
    cuzk_fp_mul_small(&r->c0, &a->c0, k);
    cuzk_fp_mul_small(&r->c1, &a->c1, k);
}

/*
 * T <- 2T and the tangent line at T evaluated at P. With b' = 4 xi:
 *   A = XY/2, B = Y^2, C = Z^2, E = 3b'C, F = 3E, G = (B + F)/2, H = (Y + Z)^2 - B - C,
 *   X3 = A (B - F),  Y3 = G^2 - 3 E^2,  Z3 = B H.
 * Line (tangent scaled by -2YZ, using Y^2 Z = X^3 + b' Z^3 to drop 1/Z):
 *   l0 = E - B = 3b'Z^2 - Y^2,  l1 = 3 X^2 xP,  l4 = -H yP = -2YZ yP.
 */
static void dbl_step(cuzk_fp2 l[3], g2_proj *t, const p_prep *p)
{
    cuzk_fp2 a, b, c, e, f, g, h, j, s;
    tfp2_mul(&a, &t->x, &t->y);
    fp2_half(&a, &a);
    tfp2_sqr(&b, &t->y);
    tfp2_sqr(&c, &t->z);
    tfp2_mul_xi(&e, &c);
    fp2_mul_small(&e, &e, 12); /* 3 b' = 12 xi */
    tfp2_dbl(&f, &e);
    tfp2_add(&f, &f, &e);
    tfp2_add(&g, &b, &f);
    fp2_half(&g, &g);
    tfp2_add(&h, &t->y, &t->z);
    tfp2_sqr(&h, &h);
    tfp2_add(&s, &b, &c);
    tfp2_sub(&h, &h, &s);
    tfp2_sqr(&j, &t->x);

    /* line */
    tfp2_sub(&l[0], &e, &b);
    tfp2_mul_fp(&l[1], &j, &p->x3);
    tfp2_mul_fp(&l[2], &h, &p->ny);

    /* point */
    tfp2_sub(&s, &b, &f);
    tfp2_mul(&t->x, &a, &s);
    tfp2_sqr(&g, &g);
    tfp2_sqr(&s, &e);
    tfp2_dbl(&e, &s);
    tfp2_add(&s, &s, &e);
    tfp2_sub(&t->y, &g, &s);
    tfp2_mul(&t->z, &b, &h);
}

/*
 * T <- T + Q (Q affine) and the line through T and Q evaluated at P. With
 * theta = Y - yQ Z and lam = X - xQ Z (so the slope is theta/lam):
 *   C = theta^2, D = lam^2, E = lam D, F = Z C, G = X D, H = E + F - 2G,
 *   X3 = lam H,  Y3 = theta (G - H) - E Y,  Z3 = Z E.
 * Line (scaled by lam): l0 = theta xQ - lam yQ,  l1 = -theta xP,  l4 = lam yP.
 */
static void add_step(cuzk_fp2 l[3], g2_proj *t, const cuzk_g2_affine *q, const p_prep *p)
{
    cuzk_fp2 theta, lam, c, d, e, f, g, h, s;
    tfp2_mul(&theta, &q->y, &t->z);
    tfp2_sub(&theta, &t->y, &theta);
    tfp2_mul(&lam, &q->x, &t->z);
    tfp2_sub(&lam, &t->x, &lam);

    /* line */
    tfp2_mul(&s, &theta, &q->x);
    tfp2_mul(&l[0], &lam, &q->y);
    tfp2_sub(&l[0], &s, &l[0]);
    tfp2_mul_fp(&l[1], &theta, &p->nx);
    tfp2_mul_fp(&l[2], &lam, &p->y);

    /* point */
    tfp2_sqr(&c, &theta);
    tfp2_sqr(&d, &lam);
    tfp2_mul(&e, &lam, &d);
    tfp2_mul(&f, &t->z, &c);
    tfp2_mul(&g, &t->x, &d);
    tfp2_dbl(&s, &g);
    tfp2_add(&h, &e, &f);
    tfp2_sub(&h, &h, &s);
    tfp2_mul(&t->x, &lam, &h);
    tfp2_sub(&s, &g, &h);
    tfp2_mul(&s, &s, &theta);
    tfp2_mul(&g, &e, &t->y);
    tfp2_sub(&t->y, &s, &g);
    tfp2_mul(&t->z, &t->z, &e);
}

static bool g1_is_inf(const cuzk_g1_affine *p)
{
    return cuzk_fp_is_zero(&p->x) && cuzk_fp_is_zero(&p->y);
}

static bool g2_is_inf(const cuzk_g2_affine *q)
{
    return cuzk_fp2_is_zero(&q->x) && cuzk_fp2_is_zero(&q->y);
}

/* f = prod_j f_{|x|, Q_j}(P_j) for 1 <= m <= MILLER_CHUNK finite pairs (not yet
 * conjugated). */
static void miller_chunk(cuzk_fp12 *f, const p_prep *pp, const cuzk_g2_affine *const *qs,
                         size_t m)
{
    g2_proj t[MILLER_CHUNK];
    cuzk_fp2 l[3];
    for (size_t j = 0; j < m; j++) {
        t[j].x = qs[j]->x;
        t[j].y = qs[j]->y;
        t[j].z = CUZK_FP2_ONE;
    }
    /* f = 1 before the first line: take that line as f instead of multiplying by it */
    dbl_step(l, &t[0], &pp[0]);
    memset(f, 0, sizeof *f);
    f->c0.c0 = l[0];
    f->c0.c1 = l[1];
    f->c1.c1 = l[2];
    for (int bit = 62; bit >= 0; bit--) {
        if (bit != 62)
            cuzk_fp12_sqr(f, f);
        for (size_t j = (bit == 62); j < m; j++) {
            dbl_step(l, &t[j], &pp[j]);
            cuzk_fp12_mul_by_014(f, f, &l[0], &l[1], &l[2]);
        }
        if ((BLS_X_ABS >> bit) & 1) {
            for (size_t j = 0; j < m; j++) {
                add_step(l, &t[j], qs[j], &pp[j]);
                cuzk_fp12_mul_by_014(f, f, &l[0], &l[1], &l[2]);
            }
        }
    }
}

void cuzk_pairing_multi_miller_loop(cuzk_fp12 *f, const cuzk_g1_affine *p,
                                    const cuzk_g2_affine *q, size_t n)
{
#if CUZK_VERIFY_ON
    for (size_t i = 0; i < n; i++) {
        CUZK_VERIFY_CHECK(verify_first_unreduced(p[i].x.l, 2, CUZK_FP_MODULUS, CUZK_FP_LIMBS) ==
                                  SIZE_MAX &&
                              cuzk_g1_affine_on_curve(&p[i]),
                          "G1 input %zu of %zu is unreduced or not on the curve", i, n);
        CUZK_VERIFY_CHECK(verify_first_unreduced(q[i].x.c0.l, 4, CUZK_FP_MODULUS,
                                                 CUZK_FP_LIMBS) == SIZE_MAX &&
                              cuzk_g2_affine_on_curve(&q[i]),
                          "G2 input %zu of %zu is unreduced or not on the curve", i, n);
    }
#endif
    cuzk_fp12 acc = CUZK_FP12_ONE, g;
    bool have = false;
    p_prep pp[MILLER_CHUNK];
    const cuzk_g2_affine *qs[MILLER_CHUNK];
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (!g1_is_inf(&p[i]) && !g2_is_inf(&q[i])) {
            cuzk_fp_dbl(&pp[m].x3, &p[i].x);
            cuzk_fp_add(&pp[m].x3, &pp[m].x3, &p[i].x);
            cuzk_fp_neg(&pp[m].nx, &p[i].x);
            pp[m].y = p[i].y;
            cuzk_fp_neg(&pp[m].ny, &p[i].y);
            qs[m] = &q[i];
            m++;
        }
        if (m == MILLER_CHUNK || (i + 1 == n && m > 0)) {
            miller_chunk(&g, pp, qs, m);
            if (have)
                cuzk_fp12_mul(&acc, &acc, &g);
            else
                acc = g;
            have = true;
            m = 0;
        }
    }
    /* x < 0: f_{x,Q} = conj(f_{|x|,Q}) up to factors the final exponentiation removes */
    cuzk_fp12_conj(f, &acc);
}
