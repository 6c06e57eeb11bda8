/*
 * test_pairing.c — the optimal ate pairing: the published value of e(G1, G2), bilinearity,
 * non-degeneracy, order r of the result, pairing checks (true, tampered, infinity pairs,
 * n = 0), and multi-pairings across the Miller loop's chunk boundary.
 *
 * Points are built with affine double-and-add written here (slope formulas over Fp and
 * Fp2 with field inversions), independent of the projective formulas inside the Miller
 * loop and of src/ec. Single-threaded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cuzk/pairing.h"
#include "test_rng.h"

/* Standard generators (zcash / IETF), canonical little-endian limbs. */
static const uint64_t G1X[6] = {0xfb3af00adb22c6bb, 0x6c55e83ff97a1aef, 0xa14e3a3f171bac58,
                                0xc3688c4f9774b905, 0x2695638c4fa9ac0f, 0x17f1d3a73197d794};
static const uint64_t G1Y[6] = {0x0caa232946c5e7e1, 0xd03cc744a2888ae4, 0x00db18cb2c04b3ed,
                                0xfcf5e095d5d00af6, 0xa09e30ed741d8ae4, 0x08b3f481e3aaa0f1};
static const uint64_t G2X0[6] = {0xd48056c8c121bdb8, 0x0bac0326a805bbef, 0xb4510b647ae3d177,
                                 0xc6e47ad4fa403b02, 0x260805272dc51051, 0x024aa2b2f08f0a91};
static const uint64_t G2X1[6] = {0xe5ac7d055d042b7e, 0x334cf11213945d57, 0xb5da61bbdc7f5049,
                                 0x596bd0d09920b61a, 0x7dacd3a088274f65, 0x13e02b6052719f60};
static const uint64_t G2Y0[6] = {0xe193548608b82801, 0x923ac9cc3baca289, 0x6d429a695160d12c,
                                 0xadfd9baa8cbdd3a7, 0x8cc9cdc6da2e351a, 0x0ce5d527727d6e11};
static const uint64_t G2Y1[6] = {0xaaa9075ff05f79be, 0x3f370d275cec1da1, 0x267492ab572e99ab,
                                 0xcb3e287e85a763af, 0x32acd2b02bc28b99, 0x0606c4a02ea734cc};

/*
 * e(G1, G2) as published by zkcrypto/bls12_381 (Gt::generator, src/pairings.rs), there in
 * Montgomery limbs; converted here to canonical limbs (times 2^-384 mod p) in the order
 * c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1.
 */
static const uint64_t GT_GEN[12][6] = {
    {0xa84305aaca1789b6, 0xb6d194f60839c508, 0x3dd8e90ce98db3e7,
     0x272d441befa15c50, 0xa7b2d83168d0d727, 0x1250ebd871fc0a92},
    {0x59882a98eaa0170f, 0xf1a8943e50439f1d, 0xaf5af689452eafab,
     0x68a84045483c92b7, 0x86750ec6a5323488, 0x089a1c5b46e5110b},
    {0x881c4c849ec23e87, 0xddff57309396b38c, 0x16da0e22a5031b54,
     0x0378a68e72a6b3b2, 0x9703f239689ce34c, 0x1368bb445c7c2d20},
    {0x315021ec3c19934f, 0xffe51d7a579973b1, 0x7c90d8bd66065b1f,
     0x37e0794e1e65a761, 0xc273fa075a505129, 0x193502b86edb8857},
    {0x1dad1c1fb597aaa5, 0x19c34dffbbaad843, 0x185203fcca589ac7,
     0xfbf2f8da752f7c74, 0x91125ba84dc4007c, 0x01b2f522473d1713},
    {0x8beae9624045b4b6, 0x23f7dacaa35c8ca7, 0x8061e55cceba478b,
     0x46da634b8f6be14a, 0xbd3c79937a45b845, 0x018107154f25a764},
    {0x0f948226e47ee89d, 0xbb12d58386a8703e, 0xdea54d43b2b73f2c,
     0xc88784fbb3d0b2db, 0x9cd6bd15c3d5a04d, 0x19f26337d205fb46},
    {0x102ae1c2d5d5ab1a, 0x1bfd1b68ff02f0b8, 0xa7d2809d61bfe02e,
     0xd5857baaf222eb95, 0x9f80940ca771b6ff, 0x06fba23eb7c5af0d},
    {0x1b93b47333e2ba57, 0x78ef48881e32fac9, 0x7d0d15ff7b984e89,
     0xc81a93b330ee1a67, 0xfcef68083b0b0ec5, 0x11b8b424cd48bf38},
    {0xbe2291a0c25a99a2, 0x7ba810c5a09ffdd9, 0x20c806ad36082910,
     0xc6a0e9786ab59733, 0xc31b4fcb6ce5771c, 0x03350f55a7aefcd3},
    {0x9108f0242d0fe3ef, 0xa4fafc05066245cb, 0x1c7cdba7b3872629,
     0xa189e87935a95405, 0x02249b64728ffd21, 0x04c581234d086a99},
    {0xfde449383b676631, 0xd48eaa24afe47e1e, 0xdeff686bfd6df543,
     0x3baca4d72ca93544, 0x068672cbd01a7ec7, 0x0f41e58663bf08cf},
};

static cuzk_g1_affine g1_gen(void)
{
    cuzk_g1_affine g;
    assert_int_equal(cuzk_fp_from_canonical(&g.x, G1X), CUZK_OK);
    assert_int_equal(cuzk_fp_from_canonical(&g.y, G1Y), CUZK_OK);
    return g;
}

static cuzk_g2_affine g2_gen(void)
{
    cuzk_g2_affine g;
    assert_int_equal(cuzk_fp_from_canonical(&g.x.c0, G2X0), CUZK_OK);
    assert_int_equal(cuzk_fp_from_canonical(&g.x.c1, G2X1), CUZK_OK);
    assert_int_equal(cuzk_fp_from_canonical(&g.y.c0, G2Y0), CUZK_OK);
    assert_int_equal(cuzk_fp_from_canonical(&g.y.c1, G2Y1), CUZK_OK);
    return g;
}

/* ---- affine arithmetic (infinity = (0, 0)) ----------------------------------------- */

static bool g1_inf(const cuzk_g1_affine *a)
{
    return cuzk_fp_is_zero(&a->x) && cuzk_fp_is_zero(&a->y);
}

static void g1_add(cuzk_g1_affine *r, const cuzk_g1_affine *a, const cuzk_g1_affine *b)
{
    if (g1_inf(a)) {
        *r = *b;
        return;
    }
    if (g1_inf(b)) {
        *r = *a;
        return;
    }
    cuzk_fp lam, t, x3, y3;
    if (cuzk_fp_eq(&a->x, &b->x)) {
        if (!cuzk_fp_eq(&a->y, &b->y) || cuzk_fp_is_zero(&a->y)) {
            memset(r, 0, sizeof *r);
            return;
        }
        cuzk_fp_sqr(&lam, &a->x); /* 3x^2 / 2y */
        cuzk_fp_mul_small(&lam, &lam, 3);
        cuzk_fp_dbl(&t, &a->y);
    } else {
        cuzk_fp_sub(&lam, &b->y, &a->y);
        cuzk_fp_sub(&t, &b->x, &a->x);
    }
    cuzk_fp_inv(&t, &t);
    cuzk_fp_mul(&lam, &lam, &t);
    cuzk_fp_sqr(&x3, &lam);
    cuzk_fp_sub(&x3, &x3, &a->x);
    cuzk_fp_sub(&x3, &x3, &b->x);
    cuzk_fp_sub(&t, &a->x, &x3);
    cuzk_fp_mul(&y3, &lam, &t);
    cuzk_fp_sub(&y3, &y3, &a->y);
    r->x = x3;
    r->y = y3;
}

static void g1_mul(cuzk_g1_affine *r, const cuzk_g1_affine *a, uint64_t k)
{
    cuzk_g1_affine acc;
    memset(&acc, 0, sizeof acc);
    for (int bit = 63; bit >= 0; bit--) {
        g1_add(&acc, &acc, &acc);
        if ((k >> bit) & 1)
            g1_add(&acc, &acc, a);
    }
    *r = acc;
}

static void g1_neg(cuzk_g1_affine *r, const cuzk_g1_affine *a)
{
    r->x = a->x;
    cuzk_fp_neg(&r->y, &a->y);
}

static bool g2_inf(const cuzk_g2_affine *a)
{
    return cuzk_fp2_is_zero(&a->x) && cuzk_fp2_is_zero(&a->y);
}

static void g2_add(cuzk_g2_affine *r, const cuzk_g2_affine *a, const cuzk_g2_affine *b)
{
    if (g2_inf(a)) {
        *r = *b;
        return;
    }
    if (g2_inf(b)) {
        *r = *a;
        return;
    }
    cuzk_fp2 lam, t, x3, y3, three;
    if (cuzk_fp2_eq(&a->x, &b->x)) {
        if (!cuzk_fp2_eq(&a->y, &b->y) || cuzk_fp2_is_zero(&a->y)) {
            memset(r, 0, sizeof *r);
            return;
        }
        cuzk_fp2_sqr(&lam, &a->x);
        three = CUZK_FP2_ZERO;
        cuzk_fp_from_u64(&three.c0, 3);
        cuzk_fp2_mul(&lam, &lam, &three);
        cuzk_fp2_dbl(&t, &a->y);
    } else {
        cuzk_fp2_sub(&lam, &b->y, &a->y);
        cuzk_fp2_sub(&t, &b->x, &a->x);
    }
    cuzk_fp2_inv(&t, &t);
    cuzk_fp2_mul(&lam, &lam, &t);
    cuzk_fp2_sqr(&x3, &lam);
    cuzk_fp2_sub(&x3, &x3, &a->x);
    cuzk_fp2_sub(&x3, &x3, &b->x);
    cuzk_fp2_sub(&t, &a->x, &x3);
    cuzk_fp2_mul(&y3, &lam, &t);
    cuzk_fp2_sub(&y3, &y3, &a->y);
    r->x = x3;
    r->y = y3;
}

static void g2_mul(cuzk_g2_affine *r, const cuzk_g2_affine *a, uint64_t k)
{
    cuzk_g2_affine acc;
    memset(&acc, 0, sizeof acc);
    for (int bit = 63; bit >= 0; bit--) {
        g2_add(&acc, &acc, &acc);
        if ((k >> bit) & 1)
            g2_add(&acc, &acc, a);
    }
    *r = acc;
}

static uint64_t rand_scalar(void)
{
    uint64_t k;
    do
        k = test_rng_u64();
    while (k == 0);
    return k;
}

/* ---- tests ---------------------------------------------------------------------------- */

static void test_generators_on_curve(void **state)
{
    (void)state;
    /* guards the constants above: y^2 = x^3 + 4 and y^2 = x^3 + 4(u + 1) */
    cuzk_g1_affine p = g1_gen();
    cuzk_fp l, r, b;
    cuzk_fp_sqr(&l, &p.y);
    cuzk_fp_sqr(&r, &p.x);
    cuzk_fp_mul(&r, &r, &p.x);
    cuzk_fp_from_u64(&b, 4);
    cuzk_fp_add(&r, &r, &b);
    assert_true(cuzk_fp_eq(&l, &r));
    cuzk_g2_affine q = g2_gen();
    cuzk_fp2 l2, r2, b2;
    cuzk_fp2_sqr(&l2, &q.y);
    cuzk_fp2_sqr(&r2, &q.x);
    cuzk_fp2_mul(&r2, &r2, &q.x);
    cuzk_fp_from_u64(&b2.c0, 4);
    cuzk_fp_from_u64(&b2.c1, 4);
    cuzk_fp2_add(&r2, &r2, &b2);
    assert_true(cuzk_fp2_eq(&l2, &r2));
}

static void test_known_answer(void **state)
{
    (void)state;
    cuzk_g1_affine p = g1_gen();
    cuzk_g2_affine q = g2_gen();
    cuzk_fp12 e;
    cuzk_pairing(&e, &p, &q);
    const cuzk_fp *coef = &e.c0.c0.c0; /* cuzk_fp12 is 12 consecutive cuzk_fp */
    for (int i = 0; i < 12; i++) {
        uint64_t limbs[6];
        cuzk_fp_to_canonical(limbs, &coef[i]);
        assert_memory_equal(limbs, GT_GEN[i], sizeof limbs);
    }
}

static void test_order_nondegenerate(void **state)
{
    (void)state;
    cuzk_g1_affine p = g1_gen();
    cuzk_g2_affine q = g2_gen();
    cuzk_fp12 e, t;
    cuzk_pairing(&e, &p, &q);
    assert_false(cuzk_fp12_is_one(&e));
    cuzk_fp12_pow(&t, &e, CUZK_FR_MODULUS, CUZK_FR_LIMBS);
    assert_true(cuzk_fp12_is_one(&t));
    /* the final exponentiation lands in the cyclotomic subgroup: conj(e) e = 1 */
    cuzk_fp12_conj(&t, &e);
    cuzk_fp12_mul(&t, &t, &e);
    assert_true(cuzk_fp12_is_one(&t));
}

static void test_bilinearity(void **state)
{
    (void)state;
    cuzk_g1_affine g1 = g1_gen();
    cuzk_g2_affine g2 = g2_gen();
    cuzk_fp12 e, l, r;
    cuzk_pairing(&e, &g1, &g2);
    size_t n = test_iters(2);
    for (size_t i = 0; i < n; i++) {
        uint64_t a = rand_scalar(), b = rand_scalar();
        cuzk_g1_affine ap;
        cuzk_g2_affine bq, aq;
        g1_mul(&ap, &g1, a);
        g2_mul(&bq, &g2, b);
        g2_mul(&aq, &g2, a);
        /* e([a]P, [b]Q) == e(P, Q)^(ab), ab as a 128-bit exponent */
        cuzk_pairing(&l, &ap, &bq);
        unsigned __int128 ab = (unsigned __int128)a * b;
        uint64_t e2[2] = {(uint64_t)ab, (uint64_t)(ab >> 64)};
        cuzk_fp12_pow(&r, &e, e2, 2);
        assert_true(cuzk_fp12_eq(&l, &r));
        /* e([a]P, Q) == e(P, [a]Q) == e(P, Q)^a */
        cuzk_pairing(&l, &ap, &g2);
        cuzk_pairing(&r, &g1, &aq);
        assert_true(cuzk_fp12_eq(&l, &r));
        cuzk_fp12_pow(&r, &e, &a, 1);
        assert_true(cuzk_fp12_eq(&l, &r));
        /* e(P1 + P2, Q) == e(P1, Q) e(P2, Q) with P1 = [a]G1, P2 = G1 */
        cuzk_g1_affine s;
        g1_add(&s, &ap, &g1);
        cuzk_pairing(&l, &s, &bq);
        cuzk_fp12 x, y;
        cuzk_pairing(&x, &ap, &bq);
        cuzk_pairing(&y, &g1, &bq);
        cuzk_fp12_mul(&r, &x, &y);
        assert_true(cuzk_fp12_eq(&l, &r));
    }
}

static void test_check(void **state)
{
    (void)state;
    cuzk_g1_affine g1 = g1_gen(), ng1, inf1, ap;
    cuzk_g2_affine g2 = g2_gen(), inf2, q2;
    memset(&inf1, 0, sizeof inf1);
    memset(&inf2, 0, sizeof inf2);
    g1_neg(&ng1, &g1);
    uint64_t a = rand_scalar();
    g1_mul(&ap, &g1, a);
    g2_mul(&q2, &g2, a);

    assert_true(cuzk_pairing_check(NULL, NULL, 0));
    {
        cuzk_g1_affine p[2] = {g1, ng1};
        cuzk_g2_affine q[2] = {g2, g2};
        assert_true(cuzk_pairing_check(p, q, 2));
        q[1] = q2; /* tampered */
        assert_false(cuzk_pairing_check(p, q, 2));
        assert_false(cuzk_pairing_check(p, q, 1));
    }
    {
        /* e([a]G1, G2) e(-G1, [a]G2) == 1, and a tampered scalar fails */
        cuzk_g1_affine p[2] = {ap, ng1};
        cuzk_g2_affine q[2] = {g2, q2};
        assert_true(cuzk_pairing_check(p, q, 2));
        g1_add(&p[0], &ap, &g1);
        assert_false(cuzk_pairing_check(p, q, 2));
    }
    {
        /* pairs with a point at infinity contribute 1 */
        cuzk_g1_affine p[4] = {inf1, g1, g1, ng1};
        cuzk_g2_affine q[4] = {g2, inf2, g2, g2};
        assert_true(cuzk_pairing_check(p, q, 4));
        assert_true(cuzk_pairing_check(p, q, 2));
        assert_false(cuzk_pairing_check(p, q, 3));
        cuzk_fp12 e;
        cuzk_pairing(&e, &inf1, &g2);
        assert_true(cuzk_fp12_is_one(&e));
        cuzk_pairing(&e, &g1, &inf2);
        assert_true(cuzk_fp12_is_one(&e));
    }
}

/* 11 pairs (more than one Miller-loop chunk): the multi-Miller loop with one final
 * exponentiation equals the product of the single pairings, and a balanced set checks. */
static void test_multi(void **state)
{
    (void)state;
    enum { N = 11 };
    cuzk_g1_affine g1 = g1_gen(), p[N];
    cuzk_g2_affine g2 = g2_gen(), q[N];
    uint64_t sum = 0;
    for (int i = 0; i < N - 1; i++) {
        uint64_t b = (uint64_t)(test_rng_u64() >> 40) + 1; /* < 2^24: the sum fits */
        sum += b;
        p[i] = g1;
        g2_mul(&q[i], &g2, b);
    }
    cuzk_g1_affine ng1;
    g1_neg(&ng1, &g1);
    g1_mul(&p[N - 1], &ng1, sum);
    q[N - 1] = g2;
    assert_true(cuzk_pairing_check(p, q, N));

    cuzk_fp12 f, prod = CUZK_FP12_ONE, e;
    cuzk_pairing_multi_miller_loop(&f, p, q, N - 1);
    cuzk_pairing_final_exp(&f, &f);
    for (int i = 0; i < N - 1; i++) {
        cuzk_pairing(&e, &p[i], &q[i]);
        cuzk_fp12_mul(&prod, &prod, &e);
    }
    assert_true(cuzk_fp12_eq(&f, &prod));

    /* tamper with one pair in the second chunk */
    g2_add(&q[9], &q[9], &g2);
    assert_false(cuzk_pairing_check(p, q, N));
}

int main(void)
{
    test_rng_init("test_pairing");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generators_on_curve), cmocka_unit_test(test_known_answer),
        cmocka_unit_test(test_order_nondegenerate), cmocka_unit_test(test_bilinearity),
        cmocka_unit_test(test_check),               cmocka_unit_test(test_multi),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
