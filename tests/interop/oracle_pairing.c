/*
 * oracle_pairing.c — pairing vectors from @noble/curves checked against cuzk/pairing.h.
 *
 * pairing P Q e:               e(P,Q) through cuzk_pairing and through
 *                              multi_miller_loop(n = 1) + final_exp, both equal to noble's.
 * pairing_bilinear P Q a b e:  e = noble's e(aP, bQ); cuzk must give e for e(aP, bQ) and
 *                              for e(abP, Q) (bilinearity), and pairing_check must accept
 *                              e(-aP, bQ) e(abP, Q) == 1 and reject e(aP, bQ) e(abP, Q).
 * Noble's final exponentiation raises to 3(p^12-1)/r (as zkcrypto and blst do); when cuzk
 * differs exactly by that cube the report says so. Threading: single-threaded.
 */
#include <string.h>

#include "oracle.h"

enum { FP12_HEX = ORACLE_HEX(12 * CUZK_FP_BYTES) };

static bool g1_parse(cuzk_g1_affine *p, const oracle_line *ln, const char *hex)
{
    char half[ORACLE_HEX(CUZK_FP_BYTES)];
    if (strlen(hex) != 4 * CUZK_FP_BYTES) {
        oracle_bad_vector(ln, "G1 point has the wrong number of hex digits");
        return false;
    }
    memcpy(half, hex, 2 * CUZK_FP_BYTES);
    half[2 * CUZK_FP_BYTES] = 0;
    return oracle_fp_parse(&p->x, ln, half) &&
           oracle_fp_parse(&p->y, ln, hex + 2 * CUZK_FP_BYTES);
}

static bool g2_parse(cuzk_g2_affine *p, const oracle_line *ln, const char *hex)
{
    char half[ORACLE_HEX(2 * CUZK_FP_BYTES)];
    if (strlen(hex) != 8 * CUZK_FP_BYTES) {
        oracle_bad_vector(ln, "G2 point has the wrong number of hex digits");
        return false;
    }
    memcpy(half, hex, 4 * CUZK_FP_BYTES);
    half[4 * CUZK_FP_BYTES] = 0;
    return oracle_fp2_parse(&p->x, ln, half) &&
           oracle_fp2_parse(&p->y, ln, hex + 4 * CUZK_FP_BYTES);
}

/* Compares, and on a mismatch tells whether cuzk computed the plain (p^12-1)/r power:
 * then got^3 equals noble's value. */
static void expect_gt(const oracle_line *ln, const char *what, const cuzk_fp12 *got,
                      const char *want)
{
    char h[FP12_HEX];
    oracle_fp12_hex(h, got);
    if (oracle_expect(ln, what, h, want))
        return;
    cuzk_fp12 cube;
    cuzk_fp12_sqr(&cube, got);
    cuzk_fp12_mul(&cube, &cube, got);
    oracle_fp12_hex(h, &cube);
    if (strcmp(h, want) == 0)
        oracle_fail(ln, "hint: got^3 == noble's value, so cuzk's final exponentiation uses "
                    "(p^12-1)/r where noble/zkcrypto/blst use 3(p^12-1)/r", "-", "-");
}

static void pairing_value(const oracle_line *ln)
{
    cuzk_g1_affine p;
    cuzk_g2_affine q;
    cuzk_fp12 e, f;
    if (ln->n != 4 || !g1_parse(&p, ln, ln->f[1]) || !g2_parse(&q, ln, ln->f[2]))
        return;
    cuzk_pairing(&e, &p, &q);
    expect_gt(ln, "cuzk_pairing", &e, ln->f[3]);
    cuzk_pairing_multi_miller_loop(&f, &p, &q, 1);
    cuzk_pairing_final_exp(&e, &f);
    expect_gt(ln, "final_exp(multi_miller_loop(n = 1))", &e, ln->f[3]);
}

static void affine_mul(cuzk_g1_affine *r, const cuzk_g1_affine *p, const cuzk_fr *k)
{
    cuzk_g1_jac j;
    cuzk_g1_jac_from_affine(&j, p);
    cuzk_g1_jac_mul_var(&j, &j, k);
    cuzk_g1_jac_to_affine(r, &j);
}

static void pairing_bilinear(const oracle_line *ln)
{
    cuzk_g1_affine p, ap, abp, pts[2];
    cuzk_g2_affine q, bq, qs[2];
    cuzk_g2_jac jq;
    cuzk_fr a, b, ab;
    cuzk_fp12 e;
    if (ln->n != 6 || !g1_parse(&p, ln, ln->f[1]) || !g2_parse(&q, ln, ln->f[2]) ||
        !oracle_fr_parse(&a, ln, ln->f[3]) || !oracle_fr_parse(&b, ln, ln->f[4]))
        return;
    affine_mul(&ap, &p, &a);
    cuzk_g2_jac_from_affine(&jq, &q);
    cuzk_g2_jac_mul_var(&jq, &jq, &b);
    cuzk_g2_jac_to_affine(&bq, &jq);
    cuzk_fr_mul(&ab, &a, &b);
    affine_mul(&abp, &p, &ab);

    cuzk_pairing(&e, &ap, &bq);
    expect_gt(ln, "e(aP, bQ)", &e, ln->f[5]);
    cuzk_pairing(&e, &abp, &q);
    expect_gt(ln, "e(abP, Q)", &e, ln->f[5]);

    cuzk_g1_affine_neg(&pts[0], &ap);
    pts[1] = abp;
    qs[0] = bq;
    qs[1] = q;
    if (!cuzk_pairing_check(pts, qs, 2))
        oracle_fail(ln, "pairing_check(e(-aP, bQ) e(abP, Q) == 1)", "false", "true");
    pts[0] = ap;
    if (cuzk_pairing_check(pts, qs, 2))
        oracle_fail(ln, "pairing_check(e(aP, bQ) e(abP, Q) == 1)", "true", "false");
}

bool oracle_pairing(const oracle_line *ln)
{
    if (strcmp(ln->op, "pairing") == 0)
        pairing_value(ln);
    else if (strcmp(ln->op, "pairing_bilinear") == 0)
        pairing_bilinear(ln);
    else
        return false;
    return true;
}
