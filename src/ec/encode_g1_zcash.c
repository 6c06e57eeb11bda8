/*
 * encode_g1_zcash.c — G1 points <-> zcash/IETF bytes (48-byte compressed, 96-byte
 * uncompressed), the format of Filecoin's .params, .vk and proofs.
 *
 * Decoders validate everything an untrusted byte string can get wrong, in a fixed order
 * (length, flags, infinity padding, canonical coordinates, curve, subgroup) with a distinct
 * status per failure. On any error *r is left untouched; it is written only on success.
 * Decoding is variable-time: encodings are public data.
 *
 * Threading: pure functions on caller memory.
 */
#include <string.h>

#include "cuzk/ec.h"
#include "ec/encode_internal.h"

void cuzk_g1_affine_to_zcash_compressed(uint8_t out[CUZK_G1_COMPRESSED_BYTES],
                                        const cuzk_g1_affine *p)
{
    if (cuzk_g1_affine_is_infinity(p)) {
        memset(out, 0, CUZK_G1_COMPRESSED_BYTES);
        out[0] = ZC_FLAG_COMPRESSED | ZC_FLAG_INFINITY;
        return;
    }
    cuzk_fp_to_bytes_be(out, &p->x);
    out[0] |= ZC_FLAG_COMPRESSED;
    if (cuzk_fp_is_lexicographically_largest(&p->y))
        out[0] |= ZC_FLAG_SIGN;
}

void cuzk_g1_affine_to_zcash_uncompressed(uint8_t out[CUZK_G1_UNCOMPRESSED_BYTES],
                                          const cuzk_g1_affine *p)
{
    if (cuzk_g1_affine_is_infinity(p)) {
        memset(out, 0, CUZK_G1_UNCOMPRESSED_BYTES);
        out[0] = ZC_FLAG_INFINITY;
        return;
    }
    cuzk_fp_to_bytes_be(out, &p->x);
    cuzk_fp_to_bytes_be(out + CUZK_FP_BYTES, &p->y);
}

cuzk_status cuzk_g1_affine_from_zcash_compressed(cuzk_g1_affine *r, const uint8_t *in,
                                                 size_t len, cuzk_error *err)
{
    if (!r || (!in && len))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "G1 decode: NULL argument");
    zc_header h = {false, false};
    cuzk_status st = zc_parse_header(&h, in, len, CUZK_G1_COMPRESSED_BYTES, true, "G1", err);
    if (st != CUZK_OK)
        return st;
    if (h.infinity) {
        cuzk_g1_affine_set_infinity(r);
        return CUZK_OK;
    }
    cuzk_g1_affine p;
    if ((st = zc_read_fp(&p.x, in, true, "G1 x", err)) != CUZK_OK)
        return st;

    /* y^2 = x^3 + 4 */
    cuzk_fp rhs, b;
    cuzk_fp_from_u64(&b, 4);
    cuzk_fp_sqr(&rhs, &p.x);
    cuzk_fp_mul(&rhs, &rhs, &p.x);
    cuzk_fp_add(&rhs, &rhs, &b);
    if (!cuzk_fp_sqrt(&p.y, &rhs))
        return cuzk_error_set(err, CUZK_ERR_NOT_SQUARE,
                              "G1 compressed x is not on the curve: x^3+4 has no square root");
    /* E(Fp) has no point of order 2 (its order h*r is odd), so y != 0 and the two roots
     * have different signs. */
    if (cuzk_fp_is_lexicographically_largest(&p.y) != h.sign)
        cuzk_fp_neg(&p.y, &p.y);
    if (!cuzk_g1_affine_in_subgroup(&p))
        return cuzk_error_set(err, CUZK_ERR_NOT_IN_SUBGROUP,
                              "G1 point is on the curve but not in the order-r subgroup");
    *r = p;
    return CUZK_OK;
}

/* Shared by the checked and unchecked uncompressed decoders. */
static cuzk_status g1_from_uncompressed(cuzk_g1_affine *r, const uint8_t *in, size_t len,
                                        bool check, cuzk_error *err)
{
    if (!r || (!in && len))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "G1 decode: NULL argument");
    zc_header h = {false, false};
    cuzk_status st =
        zc_parse_header(&h, in, len, CUZK_G1_UNCOMPRESSED_BYTES, false, "G1", err);
    if (st != CUZK_OK)
        return st;
    if (h.infinity) {
        cuzk_g1_affine_set_infinity(r);
        return CUZK_OK;
    }
    cuzk_g1_affine p;
    if ((st = zc_read_fp(&p.x, in, true, "G1 x", err)) != CUZK_OK)
        return st;
    if ((st = zc_read_fp(&p.y, in + CUZK_FP_BYTES, false, "G1 y", err)) != CUZK_OK)
        return st;
    /* (0,0) is how cuzk_g1_affine spells infinity; without the infinity flag it is not a
     * curve point (b != 0). Rejected even when unchecked, or it would silently decode to
     * infinity and re-encode differently. */
    if (cuzk_fp_is_zero(&p.x) && cuzk_fp_is_zero(&p.y))
        return cuzk_error_set(err, CUZK_ERR_NOT_ON_CURVE,
                              "G1 point (0,0) without the infinity flag is not on the curve");
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

cuzk_status cuzk_g1_affine_from_zcash_uncompressed(cuzk_g1_affine *r, const uint8_t *in,
                                                   size_t len, cuzk_error *err)
{
    return g1_from_uncompressed(r, in, len, true, err);
}

cuzk_status cuzk_g1_affine_from_zcash_uncompressed_unchecked(cuzk_g1_affine *r,
                                                             const uint8_t *in, size_t len,
                                                             cuzk_error *err)
{
    return g1_from_uncompressed(r, in, len, false, err);
}

cuzk_status cuzk_g1_affine_from_zcash(cuzk_g1_affine *r, const uint8_t *in, size_t len,
                                      cuzk_error *err)
{
    if (!r || (!in && len))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "G1 decode: NULL argument");
    if (len == 0)
        return cuzk_error_set(err, CUZK_ERR_LENGTH, "G1 encoding is empty");
    if (in[0] & ZC_FLAG_COMPRESSED)
        return cuzk_g1_affine_from_zcash_compressed(r, in, len, err);
    return cuzk_g1_affine_from_zcash_uncompressed(r, in, len, err);
}
