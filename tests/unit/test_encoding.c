/*
 * test_encoding.c — zcash (compressed/uncompressed) and snarkjs Montgomery-LE codecs for
 * G1 and G2 on valid input: the published generator encodings byte for byte, infinity in
 * every form, and round trips of random subgroup points through every decoder (see
 * CODECS), including the sign flag selecting the negated point. Malformed input is
 * covered by test_encoding_reject.c.
 *
 * Independence: known answers are the published zcash/IETF bytes; the sign flag is checked
 * against a byte comparison of y with (p-1)/2; compressed and uncompressed forms must agree
 * on x. Single-threaded.
 */
#include "encoding_test_util.h"

static void from_hex(uint8_t *out, const char *hex, size_t n)
{
    assert_int_equal(strlen(hex), 2 * n);
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
        out[i] = (uint8_t)v;
    }
}

static void rand_g1(cuzk_g1_affine *r)
{
    cuzk_fr k;
    cuzk_g1_jac g, q;
    test_rand_fr(&k);
    cuzk_g1_jac_from_affine(&g, &CUZK_G1_GENERATOR);
    cuzk_g1_jac_mul_var(&q, &g, &k);
    cuzk_g1_jac_to_affine(r, &q);
}

static void rand_g2(cuzk_g2_affine *r)
{
    cuzk_fr k;
    cuzk_g2_jac g, q;
    test_rand_fr(&k);
    cuzk_g2_jac_from_affine(&g, &CUZK_G2_GENERATOR);
    cuzk_g2_jac_mul_var(&q, &g, &k);
    cuzk_g2_jac_to_affine(r, &q);
}

/* ---- known answers ---------------------------------------------------------------------- */

/* zcash/IETF published encodings of the standard generators (IETF pairing-friendly-curves
 * draft coordinates; compressed forms as in the zcash bls12_381 crate docs). */
static const char G1_COMPRESSED_HEX[] =
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
static const char G1_Y_HEX[] =
    "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
static const char G2_X_C1_HEX[] =
    "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e";
static const char G2_X_C0_HEX[] =
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
static const char G2_Y_C1_HEX[] =
    "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be";
static const char G2_Y_C0_HEX[] =
    "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801";

static void test_generator_kat(void **state)
{
    (void)state;
    uint8_t want[192], got[192];

    /* G1 compressed: x with 0x80 (sign clear: the generator's y is the smaller root). */
    from_hex(want, G1_COMPRESSED_HEX, 48);
    cuzk_g1_affine_to_zcash_compressed(got, &CUZK_G1_GENERATOR);
    assert_memory_equal(got, want, 48);
    /* G1 uncompressed: the same x without flags, then y. */
    want[0] &= 0x1f;
    from_hex(want + 48, G1_Y_HEX, 48);
    cuzk_g1_affine_to_zcash_uncompressed(got, &CUZK_G1_GENERATOR);
    assert_memory_equal(got, want, 96);

    cuzk_g1_affine p1;
    assert_int_equal(cuzk_g1_affine_from_zcash(&p1, want, 96, NULL), CUZK_OK);
    assert_true(cuzk_g1_affine_eq(&p1, &CUZK_G1_GENERATOR));
    from_hex(want, G1_COMPRESSED_HEX, 48);
    assert_int_equal(cuzk_g1_affine_from_zcash(&p1, want, 48, NULL), CUZK_OK);
    assert_true(cuzk_g1_affine_eq(&p1, &CUZK_G1_GENERATOR));

    /* G2: c1 before c0 for both coordinates; compressed is 0x80 | x.c1 || x.c0. */
    from_hex(want, G2_X_C1_HEX, 48);
    from_hex(want + 48, G2_X_C0_HEX, 48);
    from_hex(want + 96, G2_Y_C1_HEX, 48);
    from_hex(want + 144, G2_Y_C0_HEX, 48);
    cuzk_g2_affine_to_zcash_uncompressed(got, &CUZK_G2_GENERATOR);
    assert_memory_equal(got, want, 192);
    cuzk_g2_affine p2;
    assert_int_equal(cuzk_g2_affine_from_zcash(&p2, want, 192, NULL), CUZK_OK);
    assert_true(cuzk_g2_affine_eq(&p2, &CUZK_G2_GENERATOR));

    want[0] |= 0x80;
    assert_int_equal(want[0], 0x93); /* the published first byte */
    cuzk_g2_affine_to_zcash_compressed(got, &CUZK_G2_GENERATOR);
    assert_memory_equal(got, want, 96);
    assert_int_equal(cuzk_g2_affine_from_zcash(&p2, want, 96, NULL), CUZK_OK);
    assert_true(cuzk_g2_affine_eq(&p2, &CUZK_G2_GENERATOR));

    /* Montgomery LE: the raw limbs of each coordinate, G2 with c0 first. */
    cuzk_g2_affine_to_mont_le(got, &CUZK_G2_GENERATOR);
    const cuzk_fp *parts[4] = {&CUZK_G2_GENERATOR.x.c0, &CUZK_G2_GENERATOR.x.c1,
                               &CUZK_G2_GENERATOR.y.c0, &CUZK_G2_GENERATOR.y.c1};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 48; j++)
            assert_int_equal(got[48 * i + j], (uint8_t)(parts[i]->l[j / 8] >> (8 * (j % 8))));
    cuzk_g1_affine_to_mont_le(got, &CUZK_G1_GENERATOR);
    for (int j = 0; j < 48; j++) {
        assert_int_equal(got[j], (uint8_t)(CUZK_G1_GENERATOR.x.l[j / 8] >> (8 * (j % 8))));
        assert_int_equal(got[48 + j], (uint8_t)(CUZK_G1_GENERATOR.y.l[j / 8] >> (8 * (j % 8))));
    }
}

static void test_infinity(void **state)
{
    (void)state;
    uint8_t buf[192], want[192];
    cuzk_g1_affine i1, p1;
    cuzk_g2_affine i2, p2;
    cuzk_g1_affine_set_infinity(&i1);
    cuzk_g2_affine_set_infinity(&i2);

    memset(want, 0, sizeof want);
    want[0] = 0xc0;
    cuzk_g1_affine_to_zcash_compressed(buf, &i1);
    assert_memory_equal(buf, want, 48);
    cuzk_g2_affine_to_zcash_compressed(buf, &i2);
    assert_memory_equal(buf, want, 96);
    want[0] = 0x40;
    cuzk_g1_affine_to_zcash_uncompressed(buf, &i1);
    assert_memory_equal(buf, want, 96);
    cuzk_g2_affine_to_zcash_uncompressed(buf, &i2);
    assert_memory_equal(buf, want, 192);
    want[0] = 0;
    cuzk_g1_affine_to_mont_le(buf, &i1);
    assert_memory_equal(buf, want, 96);
    cuzk_g2_affine_to_mont_le(buf, &i2);
    assert_memory_equal(buf, want, 192);

    for (size_t k = 0; k < NCODECS; k++) {
        const codec *c = &CODECS[k];
        memset(buf, 0, sizeof buf);
        buf[0] = c->form == F_COMP ? 0xc0 : c->form == F_UNCOMP ? 0x40 : 0;
        if (c->g2) {
            expect(c, buf, c->len, CUZK_OK, &p2);
            assert_true(cuzk_g2_affine_is_infinity(&p2));
        } else {
            expect(c, buf, c->len, CUZK_OK, &p1);
            assert_true(cuzk_g1_affine_is_infinity(&p1));
        }
    }
}

/* ---- round trips -------------------------------------------------------------------------- */

/* Independent sign: canonical y > (p-1)/2, compared as big-endian bytes. */
static bool fp_sign_by_bytes(const cuzk_fp *y)
{
    uint8_t yb[48], half[48];
    uint64_t h[6];
    p_shifted(h, 1, 0);
    for (int i = 0; i < 48; i++)
        half[47 - i] = (uint8_t)(h[i / 8] >> (8 * (i % 8)));
    cuzk_fp_to_bytes_be(yb, y);
    return memcmp(yb, half, 48) > 0;
}

static void test_round_trip_g1(void **state)
{
    (void)state;
    size_t n = test_iters(24);
    for (size_t it = 0; it < n; it++) {
        cuzk_g1_affine p, q, neg;
        rand_g1(&p);
        uint8_t c[48], u[96], m[96];
        cuzk_g1_affine_to_zcash_compressed(c, &p);
        cuzk_g1_affine_to_zcash_uncompressed(u, &p);
        cuzk_g1_affine_to_mont_le(m, &p);
        /* The compressed form is the uncompressed x with the flags of byte 0. */
        assert_int_equal(c[0] & 0xc0, 0x80);
        assert_int_equal((c[0] & 0x20) != 0, fp_sign_by_bytes(&p.y));
        assert_int_equal(c[0] & 0x1f, u[0]);
        assert_memory_equal(c + 1, u + 1, 47);

        for (size_t k = 0; k < NCODECS; k++) {
            const codec *cd = &CODECS[k];
            if (cd->g2)
                continue;
            const uint8_t *in = cd->form == F_COMP ? c : cd->form == F_UNCOMP ? u : m;
            memset(&q, 0, sizeof q);
            expect(cd, in, cd->len, CUZK_OK, &q);
            assert_true(cuzk_g1_affine_eq(&q, &p));
        }
        /* The sign flag selects the other root: the negated point. */
        c[0] ^= 0x20;
        assert_int_equal(cuzk_g1_affine_from_zcash_compressed(&q, c, 48, NULL), CUZK_OK);
        cuzk_g1_affine_neg(&neg, &p);
        assert_true(cuzk_g1_affine_eq(&q, &neg));
        cuzk_fp sum;
        cuzk_fp_add(&sum, &q.y, &p.y);
        assert_true(cuzk_fp_is_zero(&sum));
    }
}

static void test_round_trip_g2(void **state)
{
    (void)state;
    size_t n = test_iters(12);
    for (size_t it = 0; it < n; it++) {
        cuzk_g2_affine p, q, neg;
        rand_g2(&p);
        uint8_t c[96], u[192], m[192];
        cuzk_g2_affine_to_zcash_compressed(c, &p);
        cuzk_g2_affine_to_zcash_uncompressed(u, &p);
        cuzk_g2_affine_to_mont_le(m, &p);
        bool sign = cuzk_fp_is_zero(&p.y.c1) ? fp_sign_by_bytes(&p.y.c0)
                                             : fp_sign_by_bytes(&p.y.c1);
        assert_int_equal(c[0] & 0xc0, 0x80);
        assert_int_equal((c[0] & 0x20) != 0, sign);
        assert_int_equal(c[0] & 0x1f, u[0]);
        assert_memory_equal(c + 1, u + 1, 95);

        for (size_t k = 0; k < NCODECS; k++) {
            const codec *cd = &CODECS[k];
            if (!cd->g2)
                continue;
            const uint8_t *in = cd->form == F_COMP ? c : cd->form == F_UNCOMP ? u : m;
            memset(&q, 0, sizeof q);
            expect(cd, in, cd->len, CUZK_OK, &q);
            assert_true(cuzk_g2_affine_eq(&q, &p));
        }
        c[0] ^= 0x20;
        assert_int_equal(cuzk_g2_affine_from_zcash_compressed(&q, c, 96, NULL), CUZK_OK);
        cuzk_g2_affine_neg(&neg, &p);
        assert_true(cuzk_g2_affine_eq(&q, &neg));
        cuzk_fp2 sum;
        cuzk_fp2_add(&sum, &q.y, &p.y);
        assert_true(cuzk_fp2_is_zero(&sum));
    }
}

int main(void)
{
    test_rng_init("encoding");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generator_kat),
        cmocka_unit_test(test_infinity),
        cmocka_unit_test(test_round_trip_g1),
        cmocka_unit_test(test_round_trip_g2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
