/*
 * encode_internal.h — pieces shared by the zcash G1 and G2 codecs (encode_g1_zcash.c,
 * encode_g2_zcash.c): the flag bits of byte 0 and the length/flag/infinity validation that
 * both groups perform identically before any coordinate is read.
 *
 * The format (zcash / IETF, used by Filecoin): coordinates are 48-byte big-endian canonical
 * integers below p < 2^381, so the three top bits of byte 0 are free and carry flags.
 *
 * Threading: static inline pure functions on caller memory.
 */
#ifndef CUZK_EC_ENCODE_INTERNAL_H
#define CUZK_EC_ENCODE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cuzk/ff.h"
#include "cuzk/status.h"

#define ZC_FLAG_COMPRESSED 0x80u
#define ZC_FLAG_INFINITY 0x40u
#define ZC_FLAG_SIGN 0x20u
#define ZC_FLAG_MASK 0xe0u

/* What the header of one encoding says, once validated. */
typedef struct zc_header {
    bool infinity;
    bool sign; /* y is the lexicographically largest root (compressed only) */
} zc_header;

/*
 * Checks, in this order, the length, the flag combination and (for infinity) that every
 * other bit is zero. Each failure gets its own status so callers and tests can tell them
 * apart; `group` ("G1"/"G2") only feeds the messages. Reads at most len bytes of in.
 */
static inline cuzk_status zc_parse_header(zc_header *h, const uint8_t *in, size_t len,
                                          size_t want, bool compressed, const char *group,
                                          cuzk_error *err)
{
    const char *form = compressed ? "compressed" : "uncompressed";
    if (len != want)
        return cuzk_error_set(err, CUZK_ERR_LENGTH, "%s %s encoding needs %zu bytes, got %zu",
                              group, form, want, len);
    unsigned b0 = in[0];
    bool c = (b0 & ZC_FLAG_COMPRESSED) != 0;
    bool i = (b0 & ZC_FLAG_INFINITY) != 0;
    bool s = (b0 & ZC_FLAG_SIGN) != 0;
    if (c != compressed)
        return cuzk_error_set(err, CUZK_ERR_BAD_FLAGS,
                              "%s %s encoding must have the compression flag (0x80) %s",
                              group, form, compressed ? "set" : "clear");
    if (s && !compressed)
        return cuzk_error_set(err, CUZK_ERR_BAD_FLAGS,
                              "%s uncompressed encoding has the sign flag (0x20) set; it is "
                              "only meaningful in compressed form", group);
    if (s && i)
        return cuzk_error_set(err, CUZK_ERR_BAD_FLAGS,
                              "%s %s encoding has both the infinity (0x40) and sign (0x20) "
                              "flags set", group, form);
    if (i) {
        /* The canonical infinity is the flag byte then zeros: anything else would give one
         * point several encodings. */
        uint8_t acc = (uint8_t)(b0 & ~ZC_FLAG_MASK);
        for (size_t k = 1; k < len; k++)
            acc |= in[k];
        if (acc)
            return cuzk_error_set(err, CUZK_ERR_BAD_INFINITY,
                                  "%s %s encoding of infinity has non-zero bits besides the "
                                  "flags", group, form);
    }
    h->infinity = i;
    h->sign = s;
    return CUZK_OK;
}

/*
 * Reads one 48-byte big-endian field element; when `first` it is the field that shares
 * byte 0 with the flags, which are masked off first. `what` names the coordinate for the
 * message ("G1 x", "G2 x.c1").
 */
static inline cuzk_status zc_read_fp(cuzk_fp *r, const uint8_t *in, bool first,
                                     const char *what, cuzk_error *err)
{
    uint8_t buf[CUZK_FP_BYTES];
    memcpy(buf, in, sizeof buf);
    if (first)
        buf[0] &= (uint8_t)~ZC_FLAG_MASK;
    if (cuzk_fp_from_bytes_be(r, buf) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NONCANONICAL,
                              "%s coordinate is not canonical (>= p)", what);
    return CUZK_OK;
}

#endif /* CUZK_EC_ENCODE_INTERNAL_H */
