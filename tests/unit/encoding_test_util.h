/*
 * encoding_test_util.h — helpers shared by test_encoding.c (valid encodings) and
 * test_encoding_reject.c (malformed encodings): field facts recomputed independently of
 * the codecs (p's bytes, Euler's criterion, roots by exponentiation), a uniform table of
 * every decoder (the ten functions, mont_le with and without checks, the dispatcher once
 * per form: fourteen rows), and `expect`, which checks a decoder's exact status
 * and its error contract. Single-threaded (tests only).
 */
#ifndef CUZK_TEST_ENCODING_UTIL_H
#define CUZK_TEST_ENCODING_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cuzk/ec.h"
#include "test_rng.h"

/* ---- helpers --------------------------------------------------------------------------- */

/* p as 48 big-endian bytes, built from the limbs (not from the codec under test). */
static inline void p_bytes_be(uint8_t out[48])
{
    for (int i = 0; i < 48; i++)
        out[47 - i] = (uint8_t)(CUZK_FP_MODULUS[i / 8] >> (8 * (i % 8)));
}

/* e = p >> s, plus `add` (no carry out of the top limb for the values used). */
static inline void p_shifted(uint64_t e[6], unsigned s, uint64_t add)
{
    for (int i = 0; i < 6; i++) {
        e[i] = CUZK_FP_MODULUS[i] >> s;
        if (i < 5)
            e[i] |= CUZK_FP_MODULUS[i + 1] << (64 - s);
    }
    for (int i = 0; i < 6 && add; i++) {
        e[i] += add;
        add = e[i] < add;
    }
}

/* Euler's criterion: a^((p-1)/2) == 1; (p-1)/2 == p >> 1 since p is odd. */
static inline bool fp_is_square(const cuzk_fp *a)
{
    uint64_t e[6];
    cuzk_fp t;
    p_shifted(e, 1, 0);
    cuzk_fp_pow(&t, a, e, 6);
    return cuzk_fp_is_one(&t);
}

/* p = 3 mod 4, so a^((p+1)/4) is a root of a square a; (p+1)/4 == (p >> 2) + 1. */
static inline void fp_sqrt_by_pow(cuzk_fp *r, const cuzk_fp *a)
{
    uint64_t e[6];
    p_shifted(e, 2, 1);
    cuzk_fp_pow(r, a, e, 6);
}

static inline void g1_rhs(cuzk_fp *r, const cuzk_fp *x)
{
    cuzk_fp b;
    cuzk_fp_from_u64(&b, 4);
    cuzk_fp_sqr(r, x);
    cuzk_fp_mul(r, r, x);
    cuzk_fp_add(r, r, &b);
}

static inline void g2_rhs(cuzk_fp2 *r, const cuzk_fp2 *x)
{
    cuzk_fp2 b;
    cuzk_fp_from_u64(&b.c0, 4);
    b.c1 = b.c0;
    cuzk_fp2_sqr(r, x);
    cuzk_fp2_mul(r, r, x);
    cuzk_fp2_add(r, r, &b);
}

/* ---- a uniform view of all decoders ---------------------------------------------------- */

typedef cuzk_status (*dec_fn)(void *r, const uint8_t *in, size_t len, cuzk_error *err);

#define WRAP(name, type, call)                                                              \
    static inline cuzk_status name(void *r, const uint8_t *in, size_t len, cuzk_error *err)        \
    {                                                                                       \
        return call((type *)r, in, len, err);                                               \
    }
WRAP(d_g1c, cuzk_g1_affine, cuzk_g1_affine_from_zcash_compressed)
WRAP(d_g1u, cuzk_g1_affine, cuzk_g1_affine_from_zcash_uncompressed)
WRAP(d_g1uu, cuzk_g1_affine, cuzk_g1_affine_from_zcash_uncompressed_unchecked)
WRAP(d_g1d, cuzk_g1_affine, cuzk_g1_affine_from_zcash)
WRAP(d_g2c, cuzk_g2_affine, cuzk_g2_affine_from_zcash_compressed)
WRAP(d_g2u, cuzk_g2_affine, cuzk_g2_affine_from_zcash_uncompressed)
WRAP(d_g2uu, cuzk_g2_affine, cuzk_g2_affine_from_zcash_uncompressed_unchecked)
WRAP(d_g2d, cuzk_g2_affine, cuzk_g2_affine_from_zcash)
static inline cuzk_status d_g1m(void *r, const uint8_t *in, size_t len, cuzk_error *err)
{
    return cuzk_g1_affine_from_mont_le(r, in, len, true, err);
}
static inline cuzk_status d_g1mn(void *r, const uint8_t *in, size_t len, cuzk_error *err)
{
    return cuzk_g1_affine_from_mont_le(r, in, len, false, err);
}
static inline cuzk_status d_g2m(void *r, const uint8_t *in, size_t len, cuzk_error *err)
{
    return cuzk_g2_affine_from_mont_le(r, in, len, true, err);
}
static inline cuzk_status d_g2mn(void *r, const uint8_t *in, size_t len, cuzk_error *err)
{
    return cuzk_g2_affine_from_mont_le(r, in, len, false, err);
}

enum form { F_COMP, F_UNCOMP, F_MONT };
typedef struct codec {
    const char *name;
    dec_fn dec;
    size_t len;
    int g2;
    enum form form;
} codec;

static const codec CODECS[] = {
    {"g1 compressed", d_g1c, 48, 0, F_COMP},
    {"g1 uncompressed", d_g1u, 96, 0, F_UNCOMP},
    {"g1 unchecked", d_g1uu, 96, 0, F_UNCOMP},
    {"g1 dispatch/c", d_g1d, 48, 0, F_COMP},
    {"g1 dispatch/u", d_g1d, 96, 0, F_UNCOMP},
    {"g1 mont", d_g1m, 96, 0, F_MONT},
    {"g1 mont nocheck", d_g1mn, 96, 0, F_MONT},
    {"g2 compressed", d_g2c, 96, 1, F_COMP},
    {"g2 uncompressed", d_g2u, 192, 1, F_UNCOMP},
    {"g2 unchecked", d_g2uu, 192, 1, F_UNCOMP},
    {"g2 dispatch/c", d_g2d, 96, 1, F_COMP},
    {"g2 dispatch/u", d_g2d, 192, 1, F_UNCOMP},
    {"g2 mont", d_g2m, 192, 1, F_MONT},
    {"g2 mont nocheck", d_g2mn, 192, 1, F_MONT},
};
#define NCODECS (sizeof CODECS / sizeof CODECS[0])
/* Indices into CODECS. */
enum { G1C, G1U, G1UU, G1DC, G1DU, G1M, G1MN, G2C, G2U, G2UU, G2DC, G2DU, G2M, G2MN };

/* The generator's encoding in the codec's form. */
static inline void encode_gen(const codec *c, uint8_t *out)
{
    if (!c->g2) {
        if (c->form == F_COMP)
            cuzk_g1_affine_to_zcash_compressed(out, &CUZK_G1_GENERATOR);
        else if (c->form == F_UNCOMP)
            cuzk_g1_affine_to_zcash_uncompressed(out, &CUZK_G1_GENERATOR);
        else
            cuzk_g1_affine_to_mont_le(out, &CUZK_G1_GENERATOR);
    } else {
        if (c->form == F_COMP)
            cuzk_g2_affine_to_zcash_compressed(out, &CUZK_G2_GENERATOR);
        else if (c->form == F_UNCOMP)
            cuzk_g2_affine_to_zcash_uncompressed(out, &CUZK_G2_GENERATOR);
        else
            cuzk_g2_affine_to_mont_le(out, &CUZK_G2_GENERATOR);
    }
}

/*
 * Decodes and asserts the exact status; on failure also that err carries the same code and
 * a message, and that the output was left untouched (the documented contract).
 */
static inline cuzk_status expect(const codec *c, const uint8_t *in, size_t len, cuzk_status want,
                          void *out)
{
    union { cuzk_g1_affine g1; cuzk_g2_affine g2; } r, sentinel;
    memset(&sentinel, 0xa5, sizeof sentinel);
    r = sentinel;
    cuzk_error err;
    cuzk_error_clear(&err);
    /* An exact-size heap copy, so ASan flags any read past len. */
    uint8_t *copy = NULL;
    if (in && len) {
        copy = malloc(len);
        assert_non_null(copy);
        memcpy(copy, in, len);
    }
    cuzk_status st = c->dec(&r, copy, len, &err);
    free(copy);
    if (st != want)
        fail_msg("%s len %zu: got %s, want %s (%s)", c->name, len, cuzk_status_name(st),
                 cuzk_status_name(want), err.msg);
    if (st != CUZK_OK) {
        assert_int_equal(err.code, st);
        assert_true(err.msg[0] != '\0');
        assert_memory_equal(&r, &sentinel, sizeof r);
    } else if (out) {
        memcpy(out, &r, c->g2 ? sizeof r.g2 : sizeof r.g1);
    }
    return st;
}

#endif /* CUZK_TEST_ENCODING_UTIL_H */
