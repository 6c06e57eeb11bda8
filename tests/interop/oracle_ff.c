/*
 * oracle_ff.c — Fp, Fr and Fp2 vectors from @noble/curves checked against cuzk/ff.h.
 *
 * Each op is computed through every cuzk entry point that must agree (constant-time and
 * _var inverses, in-place aliasing), each compared with noble's value. Square roots are
 * compared up to sign, since the two libraries may pick different roots; the root must
 * also square back to the input. Threading: single-threaded (checker only).
 */
#include <string.h>

#include "oracle.h"

enum { FP_HEX = ORACLE_HEX(CUZK_FP_BYTES), FR_HEX = ORACLE_HEX(CUZK_FR_BYTES),
       FP2_HEX = ORACLE_HEX(2 * CUZK_FP_BYTES) };

static bool expect_fp(const oracle_line *ln, const char *what, const cuzk_fp *got,
                      const char *want)
{
    char h[FP_HEX];
    oracle_fp_hex(h, got);
    return oracle_expect(ln, what, h, want);
}

static bool expect_fr(const oracle_line *ln, const char *what, const cuzk_fr *got,
                      const char *want)
{
    char h[FR_HEX];
    oracle_fr_hex(h, got);
    return oracle_expect(ln, what, h, want);
}

static bool expect_fp2(const oracle_line *ln, const char *what, const cuzk_fp2 *got,
                       const char *want)
{
    char h[FP2_HEX];
    oracle_fp2_hex(h, got);
    return oracle_expect(ln, what, h, want);
}

/* Binary Fp op: r = op(a, b), also computed in place into a copy of a and of b. */
static void fp_binary(const oracle_line *ln,
                      void (*op)(cuzk_fp *, const cuzk_fp *, const cuzk_fp *))
{
    cuzk_fp a, b, r;
    if (ln->n != 4 || !oracle_fp_parse(&a, ln, ln->f[1]) || !oracle_fp_parse(&b, ln, ln->f[2]))
        return;
    op(&r, &a, &b);
    expect_fp(ln, "r = op(a, b)", &r, ln->f[3]);
    r = a;
    op(&r, &r, &b);
    expect_fp(ln, "a = op(a, b) in place", &r, ln->f[3]);
    r = b;
    op(&r, &a, &r);
    expect_fp(ln, "b = op(a, b) in place", &r, ln->f[3]);
}

static void fp_unary(const oracle_line *ln, const char *name,
                     void (*op)(cuzk_fp *, const cuzk_fp *))
{
    cuzk_fp a, r;
    if (ln->n != 3 || !oracle_fp_parse(&a, ln, ln->f[1]))
        return;
    op(&r, &a);
    expect_fp(ln, name, &r, ln->f[2]);
    op(&a, &a);
    expect_fp(ln, "in place", &a, ln->f[2]);
}

static void fp_sqrt(const oracle_line *ln)
{
    cuzk_fp a, r, neg, sq;
    if (ln->n != 3 || !oracle_fp_parse(&a, ln, ln->f[1]))
        return;
    bool ok = cuzk_fp_sqrt(&r, &a);
    int leg = cuzk_fp_legendre(&a);
    if (strcmp(ln->f[2], "none") == 0) {
        if (ok)
            oracle_fail(ln, "sqrt of a non-square reported success", "true", "false");
        if (leg != -1)
            oracle_fail(ln, "legendre of a non-square", leg == 0 ? "0" : "1", "-1");
        return;
    }
    if (!ok) {
        oracle_fail(ln, "sqrt of a square reported failure", "false", "true");
        return;
    }
    if (leg != (cuzk_fp_is_zero(&a) ? 0 : 1))
        oracle_fail(ln, "legendre of a square", leg == -1 ? "-1" : "0 or 1", "0 or 1");
    cuzk_fp_sqr(&sq, &r);
    char h[FP_HEX];
    oracle_fp_hex(h, &a);
    expect_fp(ln, "sqrt(a)^2 == a", &sq, h);
    cuzk_fp_neg(&neg, &r);
    char got[FP_HEX], gotneg[FP_HEX];
    oracle_fp_hex(got, &r);
    oracle_fp_hex(gotneg, &neg);
    if (strcmp(got, ln->f[2]) != 0 && strcmp(gotneg, ln->f[2]) != 0)
        oracle_fail(ln, "sqrt(a) is neither noble's root nor its negation", got, ln->f[2]);
}

static void fr_binary(const oracle_line *ln,
                      void (*op)(cuzk_fr *, const cuzk_fr *, const cuzk_fr *))
{
    cuzk_fr a, b, r;
    if (ln->n != 4 || !oracle_fr_parse(&a, ln, ln->f[1]) || !oracle_fr_parse(&b, ln, ln->f[2]))
        return;
    op(&r, &a, &b);
    expect_fr(ln, "r = op(a, b)", &r, ln->f[3]);
    r = a;
    op(&r, &r, &b);
    expect_fr(ln, "a = op(a, b) in place", &r, ln->f[3]);
}

static void fr_inv(const oracle_line *ln)
{
    cuzk_fr a, r;
    if (ln->n != 3 || !oracle_fr_parse(&a, ln, ln->f[1]))
        return;
    cuzk_fr_inv(&r, &a);
    expect_fr(ln, "cuzk_fr_inv", &r, ln->f[2]);
    cuzk_fr_inv_var(&r, &a);
    expect_fr(ln, "cuzk_fr_inv_var", &r, ln->f[2]);
    cuzk_fr scratch;
    r = a;
    cuzk_frs_inv_var(&r, 1, &scratch);
    expect_fr(ln, "cuzk_frs_inv_var (n = 1)", &r, ln->f[2]);
}

static void fp2_sqrt(const oracle_line *ln)
{
    cuzk_fp2 a, r, neg, sq;
    if (ln->n != 3 || !oracle_fp2_parse(&a, ln, ln->f[1]))
        return;
    bool ok = cuzk_fp2_sqrt(&r, &a);
    if (strcmp(ln->f[2], "none") == 0) {
        if (ok)
            oracle_fail(ln, "sqrt of a non-square reported success", "true", "false");
        if (cuzk_fp2_legendre(&a) != -1)
            oracle_fail(ln, "legendre of a non-square", "0 or 1", "-1");
        return;
    }
    if (!ok) {
        oracle_fail(ln, "sqrt of a square reported failure", "false", "true");
        return;
    }
    cuzk_fp2_sqr(&sq, &r);
    char h[FP2_HEX];
    oracle_fp2_hex(h, &a);
    expect_fp2(ln, "sqrt(a)^2 == a", &sq, h);
    cuzk_fp2_neg(&neg, &r);
    char got[FP2_HEX], gotneg[FP2_HEX];
    oracle_fp2_hex(got, &r);
    oracle_fp2_hex(gotneg, &neg);
    if (strcmp(got, ln->f[2]) != 0 && strcmp(gotneg, ln->f[2]) != 0)
        oracle_fail(ln, "sqrt(a) is neither noble's root nor its negation", got, ln->f[2]);
}

static void fp2_ops(const oracle_line *ln)
{
    const char *op = ln->op;
    cuzk_fp2 a, b, r;
    bool binary = strcmp(op, "fp2_mul") == 0;
    if (ln->n != (binary ? 4 : 3) || !oracle_fp2_parse(&a, ln, ln->f[1]))
        return;
    if (binary) {
        if (!oracle_fp2_parse(&b, ln, ln->f[2]))
            return;
        cuzk_fp2_mul(&r, &a, &b);
        expect_fp2(ln, "cuzk_fp2_mul", &r, ln->f[3]);
        r = a;
        cuzk_fp2_mul(&r, &r, &b);
        expect_fp2(ln, "cuzk_fp2_mul in place", &r, ln->f[3]);
    } else if (strcmp(op, "fp2_sqr") == 0) {
        cuzk_fp2_sqr(&r, &a);
        expect_fp2(ln, "cuzk_fp2_sqr", &r, ln->f[2]);
        cuzk_fp2_mul(&r, &a, &a);
        expect_fp2(ln, "cuzk_fp2_mul(a, a)", &r, ln->f[2]);
        r = a;
        cuzk_fp2_sqr(&r, &r);
        expect_fp2(ln, "cuzk_fp2_sqr in place", &r, ln->f[2]);
    } else {
        cuzk_fp2_inv(&r, &a);
        expect_fp2(ln, "cuzk_fp2_inv", &r, ln->f[2]);
        cuzk_fp2_inv_var(&r, &a);
        expect_fp2(ln, "cuzk_fp2_inv_var", &r, ln->f[2]);
    }
}

static void fp_inv(const oracle_line *ln)
{
    cuzk_fp a, r;
    if (ln->n != 3 || !oracle_fp_parse(&a, ln, ln->f[1]))
        return;
    cuzk_fp_inv(&r, &a);
    expect_fp(ln, "cuzk_fp_inv", &r, ln->f[2]);
    cuzk_fp_inv_var(&r, &a);
    expect_fp(ln, "cuzk_fp_inv_var", &r, ln->f[2]);
    cuzk_fp scratch;
    r = a;
    cuzk_fps_inv_var(&r, 1, &scratch);
    expect_fp(ln, "cuzk_fps_inv_var (n = 1)", &r, ln->f[2]);
}

static void fp_add(const oracle_line *ln) { fp_binary(ln, cuzk_fp_add); }
static void fp_sub(const oracle_line *ln) { fp_binary(ln, cuzk_fp_sub); }
static void fp_mul(const oracle_line *ln) { fp_binary(ln, cuzk_fp_mul); }
static void fp_sqr(const oracle_line *ln) { fp_unary(ln, "cuzk_fp_sqr", cuzk_fp_sqr); }
static void fp_neg(const oracle_line *ln) { fp_unary(ln, "cuzk_fp_neg", cuzk_fp_neg); }
static void fr_add(const oracle_line *ln) { fr_binary(ln, cuzk_fr_add); }
static void fr_mul(const oracle_line *ln) { fr_binary(ln, cuzk_fr_mul); }

bool oracle_ff(const oracle_line *ln)
{
    static const struct {
        const char *op;
        void (*check)(const oracle_line *);
    } ops[] = {
        {"fp_add", fp_add},   {"fp_sub", fp_sub},   {"fp_mul", fp_mul},
        {"fp_sqr", fp_sqr},   {"fp_neg", fp_neg},   {"fp_inv", fp_inv},
        {"fp_sqrt", fp_sqrt}, {"fr_add", fr_add},   {"fr_mul", fr_mul},
        {"fr_inv", fr_inv},   {"fp2_mul", fp2_ops}, {"fp2_sqr", fp2_ops},
        {"fp2_inv", fp2_ops}, {"fp2_sqrt", fp2_sqrt},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (strcmp(ln->op, ops[i].op) == 0) {
            ops[i].check(ln);
            return true;
        }
    }
    return false;
}
