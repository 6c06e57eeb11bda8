/*
 * g1.c — G1 of BLS12-381: E(Fp): y^2 = x^3 + 4. Instantiates the shared coordinate
 * formulas (curve_impl.h) over Fp and adds what is specific to G1: the generator, the GLV
 * endomorphism sigma(x, y) = (beta*x, y), the GLV scalar multiplications (constant-time
 * and wNAF) and Scott's subgroup check. Threading: pure functions on caller memory.
 */
#include "cuzk/ec.h"

#define PT(name) cuzk_g1_##name
#define PTS(name) cuzk_g1s_##name
#define AFF cuzk_g1_affine
#define JAC cuzk_g1_jac
#define XYZZ cuzk_g1_xyzz
#define FT cuzk_fp
#define F_ADD cuzk_fp_add
#define F_SUB cuzk_fp_sub
#define F_DBL cuzk_fp_dbl
#define F_NEG cuzk_fp_neg
#define F_MUL cuzk_fp_mul
#define F_SQR cuzk_fp_sqr
#define F_EQ cuzk_fp_eq
#define F_IS_ZERO cuzk_fp_is_zero
#define F_CMOV cuzk_fp_cmov
#define F_INV cuzk_fp_inv
#define F_INV_VAR cuzk_fp_inv_var
#define F_ONE CUZK_FP_ONE
/* b = 4: two doublings instead of a multiplication */
#define CURVE_MUL_B(r, a) (cuzk_fp_dbl((r), (a)), cuzk_fp_dbl((r), (r)))
#include "ec/curve_impl.h"
#include "ec/curve_mul_impl.h"
#include "ec/fixed_batch_impl.h"

/* The standard generator (zcash / IETF), Montgomery form (value * 2^384 mod p) of
 *   x = 0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb
 *   y = 0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1
 * (python: limbs of v * 2**384 % p). */
const cuzk_g1_affine CUZK_G1_GENERATOR = {
    {{0x5cb38790fd530c16, 0x7817fc679976fff5, 0x154f95c7143ba1c1, 0xf0ae6acdf3d0e747,
      0xedce6ecc21dbf440, 0x120177419e0bfb75}},
    {{0xbaac93d50ce72271, 0x8c22631a7918fd8e, 0xdd595f13570725ce, 0x51ac582950405194,
      0x0e1c8c3fad0059c0, 0x0bbc3efc5008a26a}}};

/*
 * Cube roots of unity in Fp (Montgomery form). beta = g^((p-1)/3) for g = 2 and its square;
 * sigma_beta(x, y) = (beta*x, y) acts on G1 as one of the two roots of l^2 + l + 1 mod r,
 * namely lambda = x^2 - 1 or -x^2 (x = -0xd201000000010000 the BLS parameter). Which beta
 * goes with which root was found by comparing sigma(G) with [lambda]G in python and is
 * re-checked by tests/unit/test_subgroup.c.
 *   BETA_LAMBDA = 0x1a0111ea...00000000aaac  (sigma = [x^2 - 1], used by GLV)
 *   BETA_NEG_X2 = 0x5f19672f...fffffffefffe  (sigma = [-x^2], used by the subgroup check)
 */
static const cuzk_fp BETA_LAMBDA = {{0xcd03c9e48671f071, 0x5dab22461fcda5d2,
                                     0x587042afd3851b95, 0x8eb60ebe01bacb9e,
                                     0x03f97d6e83d050d2, 0x18f0206554638741}};
static const cuzk_fp BETA_NEG_X2 = {{0x30f1361b798a64e8, 0xf3b8ddab7ece5a2a,
                                     0x16a8ca3ac61577f7, 0xc26a2ff874fd029b,
                                     0x3636b76660701c6e, 0x051ba4ab241b6160}};

/* (X, Y, Z) -> (beta X, Y, Z): x = X/Z^2 scales by beta, y unchanged. */
static void jac_sigma(cuzk_g1_jac *r, const cuzk_g1_jac *a, const cuzk_fp *beta)
{
    cuzk_fp_mul(&r->x, &a->x, beta);
    r->y = a->y;
    r->z = a->z;
}

/* ---------------------------------------------------------------------------------------
 * GLV: k = k1 + k2*lambda with lambda = x^2 - 1 = 0xac45a4010001a40200000000ffffffff
 * (128 bits), k2 = floor(k / lambda), k1 = k mod lambda; both < 2^128 because k < r < 2^255.
 * The quotient is estimated as floor(k * G / 2^256) with G = floor(2^256 / lambda)
 * = 0x17c6becf1e01faadd63f6e522f6cfee30. G > 2^256/lambda - 1 and k < 2^256 give
 * k*G/2^256 > k/lambda - 1, so the estimate is the true quotient or one less: one
 * unconditional trial subtraction, kept by mask, finishes. Fixed-length limb arithmetic
 * (multiplications and add/sub with carries only, no branch or division on k), so the
 * split is constant-time and serves both jac_mul and jac_mul_var.
 * ------------------------------------------------------------------------------------- */
static const uint64_t GLV_LAMBDA[2] = {0x00000000ffffffffULL, 0xac45a4010001a402ULL};
static const uint64_t GLV_G[3] = {0x63f6e522f6cfee30ULL, 0x7c6becf1e01faaddULL, 0x1ULL};

typedef unsigned __int128 u128;

/* r[0..na+nb) = a * b (schoolbook) */
static void mul_limbs(uint64_t *r, const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    for (size_t i = 0; i < na + nb; i++)
        r[i] = 0;
    for (size_t i = 0; i < na; i++) {
        u128 c = 0;
        for (size_t j = 0; j < nb; j++) {
            c += (u128)a[i] * b[j] + r[i + j];
            r[i + j] = (uint64_t)c;
            c >>= 64;
        }
        r[i + nb] = (uint64_t)c;
    }
}

/* a -= b over n limbs (b zero-extended from nb limbs); returns the borrow. */
static uint64_t sub_limbs(uint64_t *a, const uint64_t *b, size_t n, size_t nb)
{
    u128 br = 0;
    for (size_t i = 0; i < n; i++) {
        u128 d = (u128)a[i] - (i < nb ? b[i] : 0) - (uint64_t)br;
        a[i] = (uint64_t)d;
        br = (d >> 64) & 1;
    }
    return (uint64_t)br;
}

static void glv_split(uint64_t k1[2], uint64_t k2[2], const uint64_t k[4])
{
    uint64_t prod[7], ql[4], rem[4], t[4];
    mul_limbs(prod, k, 4, GLV_G, 3);
    uint64_t q[2] = {prod[4], prod[5]};      /* prod[6] == 0: q < 2^128 */
    mul_limbs(ql, q, 2, GLV_LAMBDA, 2);
    for (int i = 0; i < 4; i++)
        rem[i] = k[i];
    sub_limbs(rem, ql, 4, 4);                /* rem = k - q*lambda in [0, 2 lambda) */
    for (int i = 0; i < 4; i++)
        t[i] = rem[i];
    uint64_t keep = sub_limbs(t, GLV_LAMBDA, 4, 2) - 1;   /* all ones iff rem >= lambda */
    for (int i = 0; i < 4; i++)
        rem[i] = (t[i] & keep) | (rem[i] & ~keep);
    u128 q0 = (u128)q[0] + (keep & 1);
    k1[0] = rem[0];
    k1[1] = rem[1];
    k2[0] = (uint64_t)q0;
    k2[1] = q[1] + (uint64_t)(q0 >> 64);
    ec_wipe(prod, sizeof prod);
    ec_wipe(rem, sizeof rem);
    ec_wipe(t, sizeof t);
}

/* Signed 5-bit windows of a sub-scalar below 2^128: 26 digits span 130 bits, and the top
 * window (bits 125..129) holds at most 7 + carry, so no carry is left over. */
#define GLV_CT_DIGITS 26

/* Constant-time GLV: [k]a = [k1]a + [k2]sigma(a), two 128-bit sub-scalars sharing one
 * doubling chain, so half the doublings of a plain 255-bit ladder for the same number of
 * additions. Assumes a in G1 (sigma acts as [lambda] only there). */
void cuzk_g1_jac_mul(cuzk_g1_jac *r, const cuzk_g1_jac *a, const cuzk_fr *k)
{
    uint64_t kl[4], k1[2], k2[2];
    int8_t dig[2 * GLV_CT_DIGITS];
    cuzk_g1_affine tab[2 * CT_ENTRIES];
    cuzk_fr_to_canonical(kl, k);
    glv_split(k1, k2, kl);
    cuzk_ec_signed_windows(dig, GLV_CT_DIGITS, k1, 2, CT_W);
    cuzk_ec_signed_windows(dig + GLV_CT_DIGITS, GLV_CT_DIGITS, k2, 2, CT_W);
    ct_affine_table(tab, a);
    for (int e = 0; e < CT_ENTRIES; e++) {
        cuzk_fp_mul(&tab[CT_ENTRIES + e].x, &tab[e].x, &BETA_LAMBDA);   /* sigma */
        tab[CT_ENTRIES + e].y = tab[e].y;
    }
    jac_sum_windows_ct(r, tab, 2, dig, GLV_CT_DIGITS, cuzk_g1_jac_is_infinity(a));
    ec_wipe(kl, sizeof kl);
    ec_wipe(k1, sizeof k1);
    ec_wipe(k2, sizeof k2);
    ec_wipe(dig, sizeof dig);
}

#define GLV_W 5
#define GLV_ENTRIES 8                        /* odd multiples 1..15 */

/* Assumes a in G1 (sigma acts as [lambda] only there); wNAF w=5 on both halves. */
void cuzk_g1_jac_mul_var(cuzk_g1_jac *r, const cuzk_g1_jac *a, const cuzk_fr *k)
{
    uint64_t kl[4], k1[2], k2[2];
    int8_t naf1[2 * 64 + 8], naf2[2 * 64 + 8];
    cuzk_g1_affine tab[2 * GLV_ENTRIES];
    cuzk_fr_to_canonical(kl, k);
    glv_split(k1, k2, kl);
    size_t l1 = cuzk_ec_wnaf(naf1, k1, 2, GLV_W);
    size_t l2 = cuzk_ec_wnaf(naf2, k2, 2, GLV_W);
    size_t len = l1 > l2 ? l1 : l2;
    if (len == 0 || cuzk_g1_jac_is_infinity(a)) {
        cuzk_g1_jac_set_infinity(r);
        return;
    }
    affine_odd_multiples(tab, a, GLV_ENTRIES);
    for (int i = 0; i < GLV_ENTRIES; i++) {
        cuzk_fp_mul(&tab[GLV_ENTRIES + i].x, &tab[i].x, &BETA_LAMBDA);   /* sigma */
        tab[GLV_ENTRIES + i].y = tab[i].y;
    }
    const int8_t *nafs[2] = {naf1, naf2};
    wnaf_sum_affine_var(r, tab, GLV_ENTRIES, nafs, 2, len);
}

/* ---------------------------------------------------------------------------------------
 * Subgroup check (Scott, eprint 2021/1130, section 6): on E(Fp), P is in G1 iff
 * sigma(P) == [-x^2]P for the sigma whose eigenvalue on G1 is -x^2. [x^2]P is two
 * multiplications by |x| (the sign squares away).
 * ------------------------------------------------------------------------------------- */
/* aff: the same point in affine form when the caller has it (cheaper additions). */
static bool in_subgroup(const cuzk_g1_jac *p, const cuzk_g1_affine *aff)
{
    if (cuzk_g1_jac_is_infinity(p))
        return true;
    cuzk_g1_jac t, s;
    jac_mul_abs_x_var(&t, p, aff);
    jac_mul_abs_x_var(&t, &t, NULL);
    cuzk_g1_jac_neg(&t, &t);
    jac_sigma(&s, p, &BETA_NEG_X2);
    return cuzk_g1_jac_eq(&s, &t);
}

bool cuzk_g1_jac_in_subgroup(const cuzk_g1_jac *p) { return in_subgroup(p, NULL); }

bool cuzk_g1_affine_in_subgroup(const cuzk_g1_affine *p)
{
    cuzk_g1_jac j;
    cuzk_g1_jac_from_affine(&j, p);
    return in_subgroup(&j, p);
}
