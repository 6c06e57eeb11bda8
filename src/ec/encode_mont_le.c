/*
 * encode_mont_le.c — G1/G2 points <-> the snarkjs in-memory layout (.zkey sections): each
 * Fp is its Montgomery limbs (x*2^384 mod p) as 48 little-endian bytes, which is exactly
 * the bytes of cuzk_fp. G1 = x || y (96 B); G2 = x.c0 || x.c1 || y.c0 || y.c1 (192 B, c0
 * first, unlike zcash). snarkjs writes the point at infinity as all-zero bytes, which is
 * also cuzk's affine infinity (x = y = 0), so no flags exist in this form.
 *
 * Decoders always reject limbs >= p (they would break the "fully reduced" invariant of
 * cuzk_fp); `check` adds the curve and subgroup checks. On error *r is left untouched.
 *
 * Threading: pure functions on caller memory.
 */
#include <string.h>

#include "cuzk/ec.h"

static bool all_zero(const uint8_t *in, size_t len)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < len; i++)
        acc |= in[i];
    return acc == 0;
}

/* Reads n consecutive Montgomery LE field elements; names[i] labels element i. */
static cuzk_status read_fps(cuzk_fp *out, const uint8_t *in, size_t n,
                            const char *const *names, cuzk_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (cuzk_fp_from_mont_le(&out[i], in + i * CUZK_FP_BYTES) != CUZK_OK)
            return cuzk_error_set(err, CUZK_ERR_NONCANONICAL,
                                  "%s Montgomery limbs are not reduced (>= p)", names[i]);
    return CUZK_OK;
}

void cuzk_g1_affine_to_mont_le(uint8_t out[CUZK_G1_UNCOMPRESSED_BYTES], const cuzk_g1_affine *p)
{
    if (cuzk_g1_affine_is_infinity(p)) {
        memset(out, 0, CUZK_G1_UNCOMPRESSED_BYTES);
        return;
    }
    cuzk_fp_to_mont_le(out, &p->x);
    cuzk_fp_to_mont_le(out + CUZK_FP_BYTES, &p->y);
}

cuzk_status cuzk_g1_affine_from_mont_le(cuzk_g1_affine *r, const uint8_t *in, size_t len,
                                        bool check, cuzk_error *err)
{
    if (!r || (!in && len))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "G1 decode: NULL argument");
    if (len != CUZK_G1_UNCOMPRESSED_BYTES)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "G1 Montgomery LE encoding needs %d bytes, got %zu",
                              CUZK_G1_UNCOMPRESSED_BYTES, len);
    if (all_zero(in, len)) {
        cuzk_g1_affine_set_infinity(r);
        return CUZK_OK;
    }
    static const char *const names[2] = {"G1 x", "G1 y"};
    cuzk_fp c[2];
    cuzk_status st = read_fps(c, in, 2, names, err);
    if (st != CUZK_OK)
        return st;
    cuzk_g1_affine p = {c[0], c[1]};
    if (check) {
        if (!cuzk_g1_affine_on_curve(&p))
            return cuzk_error_set(err, CUZK_ERR_NOT_ON_CURVE,
                                  "G1 point does not satisfy y^2 = x^3 + 4");
        if (!cuzk_g1_affine_in_subgroup(&p))
            return cuzk_error_set(err, CUZK_ERR_NOT_IN_SUBGROUP,
                                  "G1 point is on the curve but not in the order-r subgroup");
    }
    *r = p;
    return CUZK_OK;
}

void cuzk_g2_affine_to_mont_le(uint8_t out[CUZK_G2_UNCOMPRESSED_BYTES], const cuzk_g2_affine *p)
{
    if (cuzk_g2_affine_is_infinity(p)) {
        memset(out, 0, CUZK_G2_UNCOMPRESSED_BYTES);
        return;
    }
    cuzk_fp_to_mont_le(out, &p->x.c0);
    cuzk_fp_to_mont_le(out + CUZK_FP_BYTES, &p->x.c1);
    cuzk_fp_to_mont_le(out + 2 * CUZK_FP_BYTES, &p->y.c0);
    cuzk_fp_to_mont_le(out + 3 * CUZK_FP_BYTES, &p->y.c1);
}

cuzk_status cuzk_g2_affine_from_mont_le(cuzk_g2_affine *r, const uint8_t *in, size_t len,
                                        bool check, cuzk_error *err)
{
    if (!r || (!in && len))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "G2 decode: NULL argument");
    if (len != CUZK_G2_UNCOMPRESSED_BYTES)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "G2 Montgomery LE encoding needs %d bytes, got %zu",
                              CUZK_G2_UNCOMPRESSED_BYTES, len);
    if (all_zero(in, len)) {
        cuzk_g2_affine_set_infinity(r);
        return CUZK_OK;
    }
    static const char *const names[4] = {"G2 x.c0", "G2 x.c1", "G2 y.c0", "G2 y.c1"};
    cuzk_fp c[4];
    cuzk_status st = read_fps(c, in, 4, names, err);
    if (st != CUZK_OK)
        return st;
    cuzk_g2_affine p = {{c[0], c[1]}, {c[2], c[3]}};
    if (check) {
        if (!cuzk_g2_affine_on_curve(&p))
            return cuzk_error_set(err, CUZK_ERR_NOT_ON_CURVE,
                                  "G2 point does not satisfy y^2 = x^3 + 4(u+1)");
        if (!cuzk_g2_affine_in_subgroup(&p))
            return cuzk_error_set(err, CUZK_ERR_NOT_IN_SUBGROUP,
                                  "G2 point is on the curve but not in the order-r subgroup");
    }
    *r = p;
    return CUZK_OK;
}
