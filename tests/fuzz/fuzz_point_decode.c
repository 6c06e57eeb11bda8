/*
 * fuzz_point_decode.c — libFuzzer target for every G1/G2 point decoder (zcash compressed,
 * uncompressed, dispatching, unchecked; snarkjs Montgomery LE with and without checks).
 *
 * Each input is fed to every decoder twice: with its raw length (almost always a length
 * error, which must be reported, not crash) and, when long enough, with exactly the
 * decoder's length (the prefix). For every outcome the invariants below are asserted and a
 * violation abort()s so libFuzzer records the input:
 *   - a failure returns a non-OK status, mirrors it in err.code with a message, and leaves
 *     the output untouched;
 *   - an accepted input re-encodes to the identical bytes (every form is canonical);
 *   - a point from a checked decoder satisfies the curve equation (recomputed here) and
 *     [r]P = O (generic multiplication, not the endomorphism check the decoders use);
 *   - checked and unchecked decoders agree: checked acceptance implies unchecked acceptance
 *     of the same point, and a checked rejection for curve/subgroup reasons implies that
 *     the unchecked decoder accepts.
 * Single-threaded (libFuzzer calls it from one thread).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond))                                                                       \
            abort();                                                                       \
    } while (0)

typedef union point { cuzk_g1_affine g1; cuzk_g2_affine g2; } point;

/* ---- independent validity checks ---------------------------------------------------- */

static bool g1_valid(const cuzk_g1_affine *p)
{
    if (cuzk_g1_affine_is_infinity(p))
        return true;
    cuzk_fp l, r, b;
    cuzk_fp_sqr(&l, &p->y);
    cuzk_fp_sqr(&r, &p->x);
    cuzk_fp_mul(&r, &r, &p->x);
    cuzk_fp_from_u64(&b, 4);
    cuzk_fp_add(&r, &r, &b);
    if (!cuzk_fp_eq(&l, &r))
        return false;
    cuzk_g1_jac j;
    cuzk_g1_jac_from_affine(&j, p);
    cuzk_g1_jac_mul_u64s_var(&j, &j, CUZK_FR_MODULUS, CUZK_FR_LIMBS);
    return cuzk_g1_jac_is_infinity(&j);
}

static bool g2_valid(const cuzk_g2_affine *p)
{
    if (cuzk_g2_affine_is_infinity(p))
        return true;
    cuzk_fp2 l, r, b;
    cuzk_fp2_sqr(&l, &p->y);
    cuzk_fp2_sqr(&r, &p->x);
    cuzk_fp2_mul(&r, &r, &p->x);
    cuzk_fp_from_u64(&b.c0, 4);
    b.c1 = b.c0;
    cuzk_fp2_add(&r, &r, &b);
    if (!cuzk_fp2_eq(&l, &r))
        return false;
    cuzk_g2_jac j;
    cuzk_g2_jac_from_affine(&j, p);
    cuzk_g2_jac_mul_u64s_var(&j, &j, CUZK_FR_MODULUS, CUZK_FR_LIMBS);
    return cuzk_g2_jac_is_infinity(&j);
}

/* ---- one decoder call with the generic invariants ----------------------------------- */

typedef cuzk_status (*dec_fn)(point *r, const uint8_t *in, size_t len, cuzk_error *err);

static cuzk_status run(dec_fn dec, point *out, const uint8_t *in, size_t len)
{
    point r, sentinel;
    memset(&sentinel, 0x5a, sizeof sentinel);
    r = sentinel;
    cuzk_error err;
    cuzk_error_clear(&err);
    /* An exact-size copy: ASan reports any read past len. */
    uint8_t *copy = malloc(len ? len : 1);
    CHECK(copy != NULL);
    if (len)
        memcpy(copy, in, len);
    cuzk_status st = dec(&r, copy, len, &err);
    free(copy);
    CHECK(st >= CUZK_OK && st < CUZK_STATUS_COUNT_);
    CHECK(st != CUZK_ERR_INVALID_ARG && st != CUZK_ERR_INTERNAL);
    if (st != CUZK_OK) {
        CHECK(err.code == st && err.msg[0] != '\0');
        CHECK(memcmp(&r, &sentinel, sizeof r) == 0);
    }
    *out = r;
    return st;
}

#define WRAP(name, grp, call)                                                             \
    static cuzk_status name(point *r, const uint8_t *in, size_t len, cuzk_error *err)      \
    {                                                                                     \
        return call(&r->grp, in, len, err);                                               \
    }
WRAP(g1c, g1, cuzk_g1_affine_from_zcash_compressed)
WRAP(g1u, g1, cuzk_g1_affine_from_zcash_uncompressed)
WRAP(g1uu, g1, cuzk_g1_affine_from_zcash_uncompressed_unchecked)
WRAP(g1d, g1, cuzk_g1_affine_from_zcash)
WRAP(g2c, g2, cuzk_g2_affine_from_zcash_compressed)
WRAP(g2u, g2, cuzk_g2_affine_from_zcash_uncompressed)
WRAP(g2uu, g2, cuzk_g2_affine_from_zcash_uncompressed_unchecked)
WRAP(g2d, g2, cuzk_g2_affine_from_zcash)
static cuzk_status g1m(point *r, const uint8_t *in, size_t len, cuzk_error *err)
{
    return cuzk_g1_affine_from_mont_le(&r->g1, in, len, true, err);
}
static cuzk_status g1mn(point *r, const uint8_t *in, size_t len, cuzk_error *err)
{
    return cuzk_g1_affine_from_mont_le(&r->g1, in, len, false, err);
}
static cuzk_status g2m(point *r, const uint8_t *in, size_t len, cuzk_error *err)
{
    return cuzk_g2_affine_from_mont_le(&r->g2, in, len, true, err);
}
static cuzk_status g2mn(point *r, const uint8_t *in, size_t len, cuzk_error *err)
{
    return cuzk_g2_affine_from_mont_le(&r->g2, in, len, false, err);
}

static bool is_curve_failure(cuzk_status st)
{
    return st == CUZK_ERR_NOT_ON_CURVE || st == CUZK_ERR_NOT_IN_SUBGROUP;
}

/* Flags aside, all bits zero: (0,0) without the infinity flag, which even the unchecked
 * decoders refuse (it would alias cuzk's affine infinity). */
static bool zero_body(const uint8_t *in, size_t len)
{
    uint8_t acc = (uint8_t)(in[0] & 0x1f);
    for (size_t i = 1; i < len; i++)
        acc |= in[i];
    return acc == 0;
}

/* ---- per group ------------------------------------------------------------------------ */

static void fuzz_g1(const uint8_t *in, size_t len)
{
    point p, q;
    uint8_t buf[CUZK_G1_UNCOMPRESSED_BYTES];
    cuzk_status st, st2;

    if (run(g1c, &p, in, len) == CUZK_OK) {
        CHECK(len == CUZK_G1_COMPRESSED_BYTES && g1_valid(&p.g1));
        cuzk_g1_affine_to_zcash_compressed(buf, &p.g1);
        CHECK(memcmp(buf, in, len) == 0);
        /* The same point through the uncompressed form. */
        cuzk_g1_affine_to_zcash_uncompressed(buf, &p.g1);
        CHECK(run(g1u, &q, buf, sizeof buf) == CUZK_OK && cuzk_g1_affine_eq(&q.g1, &p.g1));
    }
    st = run(g1u, &p, in, len);
    st2 = run(g1uu, &q, in, len);
    if (st == CUZK_OK) {
        CHECK(len == CUZK_G1_UNCOMPRESSED_BYTES && g1_valid(&p.g1));
        CHECK(st2 == CUZK_OK && cuzk_g1_affine_eq(&p.g1, &q.g1));
        cuzk_g1_affine_to_zcash_uncompressed(buf, &p.g1);
        CHECK(memcmp(buf, in, len) == 0);
    } else if (is_curve_failure(st)) {
        CHECK(st2 == CUZK_OK || (st2 == CUZK_ERR_NOT_ON_CURVE && zero_body(in, len)));
    } else {
        CHECK(st2 == st);
    }
    if (st2 == CUZK_OK) {
        cuzk_g1_affine_to_zcash_uncompressed(buf, &q.g1);
        CHECK(memcmp(buf, in, len) == 0);
    }
    if (run(g1d, &p, in, len) == CUZK_OK) {
        CHECK(g1_valid(&p.g1));
        if (in[0] & 0x80)
            cuzk_g1_affine_to_zcash_compressed(buf, &p.g1);
        else
            cuzk_g1_affine_to_zcash_uncompressed(buf, &p.g1);
        CHECK(memcmp(buf, in, len) == 0);
    }
    st = run(g1m, &p, in, len);
    st2 = run(g1mn, &q, in, len);
    if (st == CUZK_OK) {
        CHECK(g1_valid(&p.g1));
        CHECK(st2 == CUZK_OK && cuzk_g1_affine_eq(&p.g1, &q.g1));
    } else {
        CHECK(is_curve_failure(st) ? st2 == CUZK_OK : st2 == st);
    }
    if (st2 == CUZK_OK) {
        cuzk_g1_affine_to_mont_le(buf, &q.g1);
        CHECK(len == sizeof buf && memcmp(buf, in, len) == 0);
    }
}

static void fuzz_g2(const uint8_t *in, size_t len)
{
    point p, q;
    uint8_t buf[CUZK_G2_UNCOMPRESSED_BYTES];
    cuzk_status st, st2;

    if (run(g2c, &p, in, len) == CUZK_OK) {
        CHECK(len == CUZK_G2_COMPRESSED_BYTES && g2_valid(&p.g2));
        cuzk_g2_affine_to_zcash_compressed(buf, &p.g2);
        CHECK(memcmp(buf, in, len) == 0);
        cuzk_g2_affine_to_zcash_uncompressed(buf, &p.g2);
        CHECK(run(g2u, &q, buf, sizeof buf) == CUZK_OK && cuzk_g2_affine_eq(&q.g2, &p.g2));
    }
    st = run(g2u, &p, in, len);
    st2 = run(g2uu, &q, in, len);
    if (st == CUZK_OK) {
        CHECK(len == CUZK_G2_UNCOMPRESSED_BYTES && g2_valid(&p.g2));
        CHECK(st2 == CUZK_OK && cuzk_g2_affine_eq(&p.g2, &q.g2));
    } else if (is_curve_failure(st)) {
        CHECK(st2 == CUZK_OK || (st2 == CUZK_ERR_NOT_ON_CURVE && zero_body(in, len)));
    } else {
        CHECK(st2 == st);
    }
    if (st2 == CUZK_OK) {
        cuzk_g2_affine_to_zcash_uncompressed(buf, &q.g2);
        CHECK(memcmp(buf, in, len) == 0);
    }
    if (run(g2d, &p, in, len) == CUZK_OK) {
        CHECK(g2_valid(&p.g2));
        if (in[0] & 0x80)
            cuzk_g2_affine_to_zcash_compressed(buf, &p.g2);
        else
            cuzk_g2_affine_to_zcash_uncompressed(buf, &p.g2);
        CHECK(memcmp(buf, in, len) == 0);
    }
    st = run(g2m, &p, in, len);
    st2 = run(g2mn, &q, in, len);
    if (st == CUZK_OK) {
        CHECK(g2_valid(&p.g2));
        CHECK(st2 == CUZK_OK && cuzk_g2_affine_eq(&p.g2, &q.g2));
    } else {
        CHECK(is_curve_failure(st) ? st2 == CUZK_OK : st2 == st);
    }
    if (st2 == CUZK_OK) {
        cuzk_g2_affine_to_mont_le(buf, &q.g2);
        CHECK(len == sizeof buf && memcmp(buf, in, len) == 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const size_t lens[] = {CUZK_G1_COMPRESSED_BYTES, CUZK_G1_UNCOMPRESSED_BYTES,
                                  CUZK_G2_UNCOMPRESSED_BYTES};
    fuzz_g1(data, size);
    fuzz_g2(data, size);
    /* The prefix of each exact length the decoders take (48, 96, 192). */
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        if (size > lens[i]) {
            fuzz_g1(data, lens[i]);
            fuzz_g2(data, lens[i]);
        }
    }
    return 0;
}
