/*
 * test_encoding_reject.c — every malformed G1/G2 encoding class with its exact status:
 * wrong lengths, all eight flag patterns per form, stray bits in infinity, non-canonical
 * coordinates (p, p+1, 2^381-1, each Fp2 component, Montgomery limbs >= p), x with no y,
 * (x, y) off the curve, on-curve points outside the subgroup; and that the unchecked
 * decoders accept exactly what only the curve/subgroup checks reject.
 *
 * Independence: residuosity by Euler's criterion, roots by a^((p+1)/4), "outside the
 * subgroup" confirmed by [r]P != O with the generic multiplication rather than the
 * endomorphism test the decoders use. Single-threaded.
 */
#include "encoding_test_util.h"

static void test_lengths(void **state)
{
    (void)state;
    uint8_t buf[200];
    for (size_t k = 0; k < NCODECS; k++) {
        const codec *c = &CODECS[k];
        memset(buf, 0, sizeof buf);
        encode_gen(c, buf);
        expect(c, buf, c->len, CUZK_OK, NULL);
        expect(c, buf, 0, CUZK_ERR_LENGTH, NULL);
        expect(c, buf, c->len - 1, CUZK_ERR_LENGTH, NULL);
        expect(c, buf, c->len + 1, CUZK_ERR_LENGTH, NULL);
    }
    /* NULL input with len 0 is a length error, not a crash; NULL output is a caller bug. */
    for (size_t k = 0; k < NCODECS; k++) {
        const codec *c = &CODECS[k];
        expect(c, NULL, 0, CUZK_ERR_LENGTH, NULL);
        assert_int_equal(c->dec(NULL, buf, c->len, NULL), CUZK_ERR_INVALID_ARG);
        union { cuzk_g1_affine g1; cuzk_g2_affine g2; } r;
        assert_int_equal(c->dec(&r, NULL, c->len, NULL), CUZK_ERR_INVALID_ARG);
    }
}

/*
 * All eight patterns of the flag bits, over a valid body (the generator) and over an
 * all-zero body. Expected statuses follow the contract: compressed needs 0x80, sign only in
 * compressed and never with infinity, infinity needs a zero body.
 */
static cuzk_status flag_expect(enum form form, unsigned f, bool zero_body, bool dispatch)
{
    bool c = f & 0x80, i = f & 0x40, s = f & 0x20;
    bool compressed = form == F_COMP;
    if (dispatch && c != compressed)
        return CUZK_ERR_LENGTH; /* routed to the other form, whose length differs */
    if (c != compressed || (s && !compressed) || (s && i))
        return CUZK_ERR_BAD_FLAGS;
    if (i)
        return zero_body ? CUZK_OK : CUZK_ERR_BAD_INFINITY;
    if (zero_body)
        return compressed ? CUZK_ERR_NOT_IN_SUBGROUP /* x = 0: (0, +-2) is on E only */
                          : CUZK_ERR_NOT_ON_CURVE;   /* (0,0) */
    return CUZK_OK;
}

static void test_flags(void **state)
{
    (void)state;
    uint8_t buf[192];
    for (size_t k = 0; k < NCODECS; k++) {
        const codec *c = &CODECS[k];
        if (c->form == F_MONT)
            continue;
        bool dispatch = c->dec == d_g1d || c->dec == d_g2d;
        for (int zero = 0; zero < 2; zero++) {
            for (unsigned f = 0; f < 8; f++) {
                memset(buf, 0, sizeof buf);
                if (!zero)
                    encode_gen(c, buf);
                buf[0] = (uint8_t)((buf[0] & 0x1f) | (f << 5));
                cuzk_status want = flag_expect(c->form, f << 5, zero, dispatch);
                if (c->g2 && want == CUZK_ERR_NOT_IN_SUBGROUP) {
                    /* G2 x = 0: whether 4(u+1) is a square in Fp2 decides the status;
                     * either way it must be rejected. */
                    union { cuzk_g1_affine g1; cuzk_g2_affine g2; } r;
                    cuzk_status st = c->dec(&r, buf, c->len, NULL);
                    assert_true(st == CUZK_ERR_NOT_IN_SUBGROUP || st == CUZK_ERR_NOT_SQUARE);
                    continue;
                }
                /* (0,0) without the infinity flag is refused even by the unchecked
                 * decoders: it would alias the affine infinity. */
                expect(c, buf, c->len, want, NULL);
            }
        }
    }
}

static void test_infinity_stray_bit(void **state)
{
    (void)state;
    uint8_t buf[192];
    for (size_t k = 0; k < NCODECS; k++) {
        const codec *c = &CODECS[k];
        if (c->form == F_MONT)
            continue;
        for (size_t bit = 0; bit < 8 * c->len; bit++) {
            if (bit >= 5 && bit < 8)
                continue; /* the three flag bits of byte 0 (bits 7..5 of byte 0) */
            memset(buf, 0, sizeof buf);
            buf[0] = c->form == F_COMP ? 0xc0 : 0x40;
            buf[bit / 8] |= (uint8_t)(1u << (bit % 8));
            expect(c, buf, c->len, CUZK_ERR_BAD_INFINITY, NULL);
        }
    }
}

/*
 * snarkjs form has no flags: only all-zero bytes are infinity. A single set bit makes one
 * coordinate 2^k (as Montgomery limbs): non-canonical for k >= 381 (2^381 > p), otherwise
 * a finite point that is not on the curve (it would need y = +-2, x = 0 or x^3 = -4).
 */
static void test_mont_stray_bit(void **state)
{
    (void)state;
    uint8_t buf[192];
    for (size_t k = 0; k < NCODECS; k++) {
        const codec *c = &CODECS[k];
        if (c->form != F_MONT)
            continue;
        bool check = c->dec == d_g1m || c->dec == d_g2m;
        for (size_t bit = 0; bit < 8 * c->len; bit++) {
            memset(buf, 0, sizeof buf);
            buf[bit / 8] |= (uint8_t)(1u << (bit % 8));
            bool noncanonical = bit % 384 >= 381;
            union { cuzk_g1_affine g1; cuzk_g2_affine g2; } r;
            cuzk_status want = noncanonical ? CUZK_ERR_NONCANONICAL
                               : check      ? CUZK_ERR_NOT_ON_CURVE
                                            : CUZK_OK;
            expect(c, buf, c->len, want, &r);
            if (want == CUZK_OK)
                assert_false(c->g2 ? cuzk_g2_affine_is_infinity(&r.g2)
                                   : cuzk_g1_affine_is_infinity(&r.g1));
        }
    }
}

/* Writes v (48 BE bytes) into the coordinate slot of a zcash encoding, keeping the flags. */
static void put_be(uint8_t *slot, const uint8_t v[48], bool first)
{
    uint8_t flags = first ? (uint8_t)(slot[0] & 0xe0) : 0;
    memcpy(slot, v, 48);
    slot[0] = (uint8_t)((slot[0] & 0x1f) | flags);
}

static void test_noncanonical(void **state)
{
    (void)state;
    uint8_t bad[3][48], buf[192];
    p_bytes_be(bad[0]);                 /* p */
    p_bytes_be(bad[1]);
    bad[1][47] += 1;                    /* p + 1 (p ends in 0xab: no carry) */
    memset(bad[2], 0xff, 48);
    bad[2][0] = 0x1f;                   /* 2^381 - 1, the largest value the flags leave */

    for (size_t k = 0; k < NCODECS; k++) {
        const codec *c = &CODECS[k];
        size_t ncoord = c->len / 48;
        for (size_t slot = 0; slot < ncoord; slot++) {
            for (int b = 0; b < 3; b++) {
                encode_gen(c, buf);
                if (c->form == F_MONT) {
                    /* limbs >= p as little-endian bytes */
                    for (int i = 0; i < 48; i++)
                        buf[48 * slot + i] = bad[b][47 - i];
                } else {
                    put_be(buf + 48 * slot, bad[b], slot == 0);
                }
                expect(c, buf, c->len, CUZK_ERR_NONCANONICAL, NULL);
            }
        }
    }
    /* p - 1 is canonical: the bound is exact (unchecked accepts it). */
    uint8_t pm1[48];
    p_bytes_be(pm1);
    pm1[47] -= 1;
    cuzk_g1_affine r;
    cuzk_g1_affine_to_zcash_uncompressed(buf, &CUZK_G1_GENERATOR);
    put_be(buf, pm1, true);
    assert_int_equal(cuzk_g1_affine_from_zcash_uncompressed_unchecked(&r, buf, 96, NULL),
                     CUZK_OK);
    assert_int_equal(cuzk_g1_affine_from_zcash_uncompressed(&r, buf, 96, NULL),
                     CUZK_ERR_NOT_ON_CURVE);
}

static void test_not_on_curve(void **state)
{
    (void)state;
    uint8_t buf[192];
    cuzk_g1_affine r1;
    cuzk_g2_affine r2;

    /* G1 compressed: the smallest x with x^3 + 4 a non-residue. */
    cuzk_fp x, rhs;
    for (uint64_t v = 1;; v++) {
        cuzk_fp_from_u64(&x, v);
        g1_rhs(&rhs, &x);
        if (!fp_is_square(&rhs))
            break;
    }
    cuzk_fp_to_bytes_be(buf, &x);
    buf[0] |= 0x80;
    expect(&CODECS[G1C], buf, 48, CUZK_ERR_NOT_SQUARE, NULL);
    buf[0] |= 0x20;
    expect(&CODECS[G1C], buf, 48, CUZK_ERR_NOT_SQUARE, NULL);

    /* G2 compressed: x = 1 + k*u with x^3 + 4(u+1) a non-square in Fp2, i.e. its norm
     * c0^2 + c1^2 a non-residue in Fp. */
    cuzk_fp2 x2, rhs2;
    for (uint64_t v = 1;; v++) {
        cuzk_fp_from_u64(&x2.c0, 1);
        cuzk_fp_from_u64(&x2.c1, v);
        g2_rhs(&rhs2, &x2);
        cuzk_fp n0, n1;
        cuzk_fp_sqr(&n0, &rhs2.c0);
        cuzk_fp_sqr(&n1, &rhs2.c1);
        cuzk_fp_add(&n0, &n0, &n1);
        if (!fp_is_square(&n0))
            break;
    }
    cuzk_fp_to_bytes_be(buf, &x2.c1);
    cuzk_fp_to_bytes_be(buf + 48, &x2.c0);
    buf[0] |= 0x80;
    expect(&CODECS[G2C], buf, 96, CUZK_ERR_NOT_SQUARE, NULL);

    /* Uncompressed/mont with y + 1: off the curve; unchecked decoders take it verbatim. */
    cuzk_g1_affine p1 = CUZK_G1_GENERATOR;
    cuzk_fp one = CUZK_FP_ONE;
    cuzk_fp_add(&p1.y, &p1.y, &one);
    cuzk_g1_affine_to_zcash_uncompressed(buf, &p1);
    expect(&CODECS[G1U], buf, 96, CUZK_ERR_NOT_ON_CURVE, NULL);
    expect(&CODECS[G1DU], buf, 96, CUZK_ERR_NOT_ON_CURVE, NULL);
    expect(&CODECS[G1UU], buf, 96, CUZK_OK, &r1);
    assert_true(cuzk_g1_affine_eq(&r1, &p1));
    cuzk_g1_affine_to_mont_le(buf, &p1);
    expect(&CODECS[G1M], buf, 96, CUZK_ERR_NOT_ON_CURVE, NULL);
    expect(&CODECS[G1MN], buf, 96, CUZK_OK, &r1);
    assert_true(cuzk_g1_affine_eq(&r1, &p1));

    cuzk_g2_affine p2 = CUZK_G2_GENERATOR;
    cuzk_fp_add(&p2.y.c0, &p2.y.c0, &one);
    cuzk_g2_affine_to_zcash_uncompressed(buf, &p2);
    expect(&CODECS[G2U], buf, 192, CUZK_ERR_NOT_ON_CURVE, NULL);
    expect(&CODECS[G2DU], buf, 192, CUZK_ERR_NOT_ON_CURVE, NULL);
    expect(&CODECS[G2UU], buf, 192, CUZK_OK, &r2);
    assert_true(cuzk_g2_affine_eq(&r2, &p2));
    cuzk_g2_affine_to_mont_le(buf, &p2);
    expect(&CODECS[G2M], buf, 192, CUZK_ERR_NOT_ON_CURVE, NULL);
    expect(&CODECS[G2MN], buf, 192, CUZK_OK, &r2);
    assert_true(cuzk_g2_affine_eq(&r2, &p2));
}

static void test_not_in_subgroup(void **state)
{
    (void)state;
    uint8_t buf[192];
    const uint64_t *r = CUZK_FR_MODULUS;

    /* G1: the smallest x >= 1 with x^3 + 4 a residue, y by exponentiation; no cofactor
     * clearing, so [r]P != O (checked here with the generic multiplication). */
    cuzk_g1_affine p, q;
    cuzk_fp rhs, t;
    for (uint64_t v = 1;; v++) {
        cuzk_fp_from_u64(&p.x, v);
        g1_rhs(&rhs, &p.x);
        if (fp_is_square(&rhs))
            break;
    }
    fp_sqrt_by_pow(&p.y, &rhs);
    cuzk_fp_sqr(&t, &p.y);
    assert_true(cuzk_fp_eq(&t, &rhs));
    cuzk_g1_jac j;
    cuzk_g1_jac_from_affine(&j, &p);
    cuzk_g1_jac_mul_u64s_var(&j, &j, r, CUZK_FR_LIMBS);
    assert_false(cuzk_g1_jac_is_infinity(&j));

    cuzk_g1_affine_to_zcash_compressed(buf, &p);
    expect(&CODECS[G1C], buf, 48, CUZK_ERR_NOT_IN_SUBGROUP, NULL);
    expect(&CODECS[G1DC], buf, 48, CUZK_ERR_NOT_IN_SUBGROUP, NULL);
    cuzk_g1_affine_to_zcash_uncompressed(buf, &p);
    expect(&CODECS[G1U], buf, 96, CUZK_ERR_NOT_IN_SUBGROUP, NULL);
    expect(&CODECS[G1DU], buf, 96, CUZK_ERR_NOT_IN_SUBGROUP, NULL);
    expect(&CODECS[G1UU], buf, 96, CUZK_OK, &q);
    assert_true(cuzk_g1_affine_eq(&q, &p));
    cuzk_g1_affine_to_mont_le(buf, &p);
    expect(&CODECS[G1M], buf, 96, CUZK_ERR_NOT_IN_SUBGROUP, NULL);
    expect(&CODECS[G1MN], buf, 96, CUZK_OK, &q);
    assert_true(cuzk_g1_affine_eq(&q, &p));

    /* G2: x = 1 + k*u with a square right-hand side; the root is verified by squaring. */
    cuzk_g2_affine p2, q2;
    cuzk_fp2 rhs2, t2;
    for (uint64_t v = 1;; v++) {
        cuzk_fp_from_u64(&p2.x.c0, 1);
        cuzk_fp_from_u64(&p2.x.c1, v);
        g2_rhs(&rhs2, &p2.x);
        if (cuzk_fp2_sqrt(&p2.y, &rhs2))
            break;
    }
    cuzk_fp2_sqr(&t2, &p2.y);
    assert_true(cuzk_fp2_eq(&t2, &rhs2));
    cuzk_g2_jac j2;
    cuzk_g2_jac_from_affine(&j2, &p2);
    cuzk_g2_jac_mul_u64s_var(&j2, &j2, r, CUZK_FR_LIMBS);
    assert_false(cuzk_g2_jac_is_infinity(&j2));

    cuzk_g2_affine_to_zcash_compressed(buf, &p2);
    expect(&CODECS[G2C], buf, 96, CUZK_ERR_NOT_IN_SUBGROUP, NULL);
    expect(&CODECS[G2DC], buf, 96, CUZK_ERR_NOT_IN_SUBGROUP, NULL);
    cuzk_g2_affine_to_zcash_uncompressed(buf, &p2);
    expect(&CODECS[G2U], buf, 192, CUZK_ERR_NOT_IN_SUBGROUP, NULL);
    expect(&CODECS[G2DU], buf, 192, CUZK_ERR_NOT_IN_SUBGROUP, NULL);
    expect(&CODECS[G2UU], buf, 192, CUZK_OK, &q2);
    assert_true(cuzk_g2_affine_eq(&q2, &p2));
    cuzk_g2_affine_to_mont_le(buf, &p2);
    expect(&CODECS[G2M], buf, 192, CUZK_ERR_NOT_IN_SUBGROUP, NULL);
    expect(&CODECS[G2MN], buf, 192, CUZK_OK, &q2);
    assert_true(cuzk_g2_affine_eq(&q2, &p2));
}

int main(void)
{
    test_rng_init("encoding_reject");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lengths),
        cmocka_unit_test(test_flags),
        cmocka_unit_test(test_infinity_stray_bit),
        cmocka_unit_test(test_mont_stray_bit),
        cmocka_unit_test(test_noncanonical),
        cmocka_unit_test(test_not_on_curve),
        cmocka_unit_test(test_not_in_subgroup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
