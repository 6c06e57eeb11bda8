/*
 * encode_g2_zcash.c — G2 points <-> zcash/IETF bytes (96-byte compressed, 192-byte
 * uncompressed). An Fp2 coordinate c0 + c1*u is written c1 then c0, each 48 bytes
 * big-endian canonical; the flags live in the top bits of x.c1's first byte.
 *
 * Same contract as the G1 codec: validation in the order length, flags, infinity padding,
 * canonical components, curve, subgroup, a distinct status per failure, *r written only on
 * success. Variable-time (public data).
 *
 * Threading: pure functions on caller memory.
 */
#include <string.h>

#include "cuzk/ec.h"
#include "ec/encode_internal.h"

/* Writes c1 || c0; used for both coordinates. */
static void fp2_to_bytes(uint8_t out[2 * CUZK_FP_BYTES], const cuzk_fp2 *a)
{
    cuzk_fp_to_bytes_be(out, &a->c1);
    cuzk_fp_to_bytes_be(out + CUZK_FP_BYTES, &a->c0);
}

/* Reads c1 || c0; `first` masks the flag bits off c1's top byte. The names label the
 * components in error messages. */
static cuzk_status fp2_from_bytes(cuzk_fp2 *r, const uint8_t *in, bool first,
                                  const char *c1_name, const char *c0_name, cuzk_error *err)
{
    cuzk_status st = zc_read_fp(&r->c1, in, first, c1_name, err);
    if (st != CUZK_OK)
        return st;
    return zc_read_fp(&r->c0, in + CUZK_FP_BYTES, false, c0_name, err);
}

void cuzk_g2_affine_to_zcash_compressed(uint8_t out[CUZK_G2_COMPRESSED_BYTES],
                                        const cuzk_g2_affine *p)
{
    if (cuzk_g2_affine_is_infinity(p)) {
        memset(out, 0, CUZK_G2_COMPRESSED_BYTES);
        out[0] = ZC_FLAG_COMPRESSED | ZC_FLAG_INFINITY;
        return;
    }
    fp2_to_bytes(out, &p->x);
    out[0] |= ZC_FLAG_COMPRESSED;
    if (cuzk_fp2_is_lexicographically_largest(&p->y))
        out[0] |= ZC_FLAG_SIGN;
}

void cuzk_g2_affine_to_zcash_uncompressed(uint8_t out[CUZK_G2_UNCOMPRESSED_BYTES],
                                          const cuzk_g2_affine *p)
{
    if (cuzk_g2_affine_is_infinity(p)) {
        memset(out, 0, CUZK_G2_UNCOMPRESSED_BYTES);
        out[0] = ZC_FLAG_INFINITY;
        return;
    }
    fp2_to_bytes(out, &p->x);
    fp2_to_bytes(out + 2 * CUZK_FP_BYTES, &p->y);
}

cuzk_status cuzk_g2_affine_from_zcash_compressed(cuzk_g2_affine *r, const uint8_t *in,
                                                 size_t len, cuzk_error *err)
{
    if (!r || (!in && len))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "G2 decode: NULL argument");
    zc_header h = {false, false};
    cuzk_status st = zc_parse_header(&h, in, len, CUZK_G2_COMPRESSED_BYTES, true, "G2", err);
    if (st != CUZK_OK)
        return st;
    if (h.infinity) {
        cuzk_g2_affine_set_infinity(r);
        return CUZK_OK;
    }
    cuzk_g2_affine p;
    if ((st = fp2_from_bytes(&p.x, in, true, "G2 x.c1", "G2 x.c0", err)) != CUZK_OK)
        return st;

    /* y^2 = x^3 + 4(u+1) */
    cuzk_fp2 rhs, b;
    cuzk_fp_from_u64(&b.c0, 4);
    b.c1 = b.c0;
    cuzk_fp2_sqr(&rhs, &p.x);
    cuzk_fp2_mul(&rhs, &rhs, &p.x);
    cuzk_fp2_add(&rhs, &rhs, &b);
    if (!cuzk_fp2_sqrt(&p.y, &rhs))
        return cuzk_error_set(err, CUZK_ERR_NOT_SQUARE,
                              "G2 compressed x is not on the curve: x^3+4(u+1) has no square "
                              "root in Fp2");
    /* E'(Fp2) has odd order, hence no point with y = 0: the two roots differ in sign. */
    if (cuzk_fp2_is_lexicographically_largest(&p.y) != h.sign)
        cuzk_fp2_neg(&p.y, &p.y);
    if (!cuzk_g2_affine_in_subgroup(&p))
        return cuzk_error_set(err, CUZK_ERR_NOT_IN_SUBGROUP,
                              "G2 point is on the curve but not in the order-r subgroup");
    *r = p;
    return CUZK_OK;
}

static cuzk_status g2_from_uncompressed(cuzk_g2_affine *r, const uint8_t *in, size_t len,
                                        bool check, cuzk_error *err)
{
    if (!r || (!in && len))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "G2 decode: NULL argument");
    zc_header h = {false, false};
    cuzk_status st =
        zc_parse_header(&h, in, len, CUZK_G2_UNCOMPRESSED_BYTES, false, "G2", err);
    if (st != CUZK_OK)
        return st;
    if (h.infinity) {
        cuzk_g2_affine_set_infinity(r);
        return CUZK_OK;
    }
    cuzk_g2_affine p;
    if ((st = fp2_from_bytes(&p.x, in, true, "G2 x.c1", "G2 x.c0", err)) != CUZK_OK)
        return st;
    if ((st = fp2_from_bytes(&p.y, in + 2 * CUZK_FP_BYTES, false, "G2 y.c1",
                             "G2 y.c0", err)) != CUZK_OK)
        return st;
    /* (0,0) spells infinity in cuzk_g2_affine; without the flag it is not a curve point and
     * is rejected even when unchecked (see the G1 codec). */
    if (cuzk_fp2_is_zero(&p.x) && cuzk_fp2_is_zero(&p.y))
        return cuzk_error_set(err, CUZK_ERR_NOT_ON_CURVE,
                              "G2 point (0,0) without the infinity flag is not on the curve");
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

cuzk_status cuzk_g2_affine_from_zcash_uncompressed(cuzk_g2_affine *r, const uint8_t *in,
                                                   size_t len, cuzk_error *err)
{
    return g2_from_uncompressed(r, in, len, true, err);
}

cuzk_status cuzk_g2_affine_from_zcash_uncompressed_unchecked(cuzk_g2_affine *r,
                                                             const uint8_t *in, size_t len,
                                                             cuzk_error *err)
{
    return g2_from_uncompressed(r, in, len, false, err);
}

cuzk_status cuzk_g2_affine_from_zcash(cuzk_g2_affine *r, const uint8_t *in, size_t len,
                                      cuzk_error *err)
{
    if (!r || (!in && len))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "G2 decode: NULL argument");
    if (len == 0)
        return cuzk_error_set(err, CUZK_ERR_LENGTH, "G2 encoding is empty");
    if (in[0] & ZC_FLAG_COMPRESSED)
        return cuzk_g2_affine_from_zcash_compressed(r, in, len, err);
    return cuzk_g2_affine_from_zcash_uncompressed(r, in, len, err);
}
