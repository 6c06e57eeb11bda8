/*
 * g2.c — G2 of BLS12-381: E'(Fp2): y^2 = x^3 + 4(u+1) (the M-type sextic twist).
 * Instantiates the shared coordinate formulas (curve_impl.h) over Fp2 and adds what is
 * specific to G2: the generator, the endomorphism psi, the GLS scalar multiplications
 * (constant-time and wNAF) and the psi-based subgroup check.
 * Threading: pure functions on caller memory.
 */
#include "cuzk/ec.h"

#define PT(name) cuzk_g2_##name
#define PTS(name) cuzk_g2s_##name
#define AFF cuzk_g2_affine
#define JAC cuzk_g2_jac
#define XYZZ cuzk_g2_xyzz
#define FT cuzk_fp2
#define F_ADD cuzk_fp2_add
#define F_SUB cuzk_fp2_sub
#define F_DBL cuzk_fp2_dbl
#define F_NEG cuzk_fp2_neg
#define F_MUL cuzk_fp2_mul
#define F_SQR cuzk_fp2_sqr
#define F_EQ cuzk_fp2_eq
#define F_IS_ZERO cuzk_fp2_is_zero
#define F_CMOV cuzk_fp2_cmov
#define F_INV cuzk_fp2_inv
#define F_INV_VAR cuzk_fp2_inv_var
#define F_ONE CUZK_FP2_ONE
/* b' = 4(u+1): multiply by the non-residue (two additions), then two doublings */
#define CURVE_MUL_B(r, a) \
    (cuzk_fp2_mul_by_nonresidue((r), (a)), cuzk_fp2_dbl((r), (r)), cuzk_fp2_dbl((r), (r)))
#include "ec/curve_impl.h"
#include "ec/curve_mul_impl.h"
#include "ec/fixed_batch_impl.h"

/* The standard generator (zcash / IETF), Montgomery form (value * 2^384 mod p) of
 *   x.c0 = 0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8
 *   x.c1 = 0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e
 *   y.c0 = 0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801
 *   y.c1 = 0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be
 */
const cuzk_g2_affine CUZK_G2_GENERATOR = {
    {{{0xf5f28fa202940a10, 0xb3f5fb2687b4961a, 0xa1a893b53e2ae580, 0x9894999d1a3caee9,
       0x6f67b7631863366b, 0x058191924350bcd7}},
     {{0xa5a9c0759e23f606, 0xaaa0c59dbccd60c3, 0x3bb17e18e2867806, 0x1b1ab6cc8541b367,
       0xc2b6ed0ef2158547, 0x11922a097360edf3}}},
    {{{0x4c730af860494c4a, 0x597cfa1f5e369c5a, 0xe7e6856caa0a635a, 0xbbefb5e96e0d495f,
       0x07d3a975f0ef25a2, 0x0083fd8e7e80dae5}},
     {{0xadc0fc92df64b05d, 0x18aa270a2b1461dc, 0x86adac6a3be4eba0, 0x79495c4ec93da33a,
       0xe7175850a43ccaed, 0x0b2bc2a163de1bf2}}}};

/*
 * psi(x, y) = (conj(x) * c_x, conj(y) * c_y): untwist to E(Fp12), Frobenius, twist back.
 *   c_x = 1/(u+1)^((p-1)/3) = 0x1a0111ea...00000000aaad * u   (c0 is exactly 0)
 *   c_y = 1/(u+1)^((p-1)/2) = 0x135203e6...121bdea2 + 0x06af0e04...ede3cc09 * u
 * (python: Fp2 power and inverse of (1, 1); values below in Montgomery form). c_x being
 * purely imaginary makes x's part two Fp multiplications. psi acts on G2 as [p mod r] =
 * [x] (p = x mod r for BLS12); tests/unit/test_g2.c checks psi(P) == [x]P.
 */
static const cuzk_fp PSI_CX_C1 = {{0x890dc9e4867545c3, 0x2af322533285a5d5, 0x50880866309b7e2c,
                                   0xa20d1b8c7e881024, 0x14e4f04fe2db9068, 0x14e56d3f1564853a}};
static const cuzk_fp2 PSI_CY = {
    {{0x3e2f585da55c9ad1, 0x4294213d86c18183, 0x382844c88b623732, 0x92ad2afd19103e18,
      0x1d794e4fac7cf0b9, 0x0bd592fc7d825ec8}},
    {{0x7bcfa7a25aa30fda, 0xdc17dec12a927e7c, 0x2f088dd86b4ebef1, 0xd1ca2087da74d4a7,
      0x2da2596696cebc1d, 0x0e2b7eedbbfd87d2}}};

/* The coordinate maps of psi: x -> conj(x) c_x, y -> conj(y) c_y, where
 * conj(x) * (c1 u) = x1 c1 + x0 c1 u. Outputs may alias inputs. */
static void psi_xy(cuzk_fp2 *rx, cuzk_fp2 *ry, const cuzk_fp2 *x, const cuzk_fp2 *y)
{
    cuzk_fp x0 = x->c0;
    cuzk_fp_mul(&rx->c0, &x->c1, &PSI_CX_C1);
    cuzk_fp_mul(&rx->c1, &x0, &PSI_CX_C1);
    cuzk_fp2_conj(ry, y);
    cuzk_fp2_mul(ry, ry, &PSI_CY);
}

/* Jacobian: x = X/Z^2 and conj is a field automorphism, so (conj(X) c_x, conj(Y) c_y,
 * conj(Z)) represents psi(x, y). */
void cuzk_g2_jac_psi(cuzk_g2_jac *r, const cuzk_g2_jac *a)
{
    psi_xy(&r->x, &r->y, &a->x, &a->y);
    cuzk_fp2_conj(&r->z, &a->z);
}

/* Affine (Z = 1): the same maps; infinity (0, 0) stays (0, 0). */
static void affine_psi(cuzk_g2_affine *r, const cuzk_g2_affine *a)
{
    psi_xy(&r->x, &r->y, &a->x, &a->y);
}

/* ---------------------------------------------------------------------------------------
 * GLS: psi = [x] on G2 with x = -X, X = |x| = 0xd201000000010000. Writing k (< r < X^4,
 * since r = x^4 - x^2 + 1) in base X, k = k0 + k1 X + k2 X^2 + k3 X^3 with ki < X < 2^64,
 * gives [k]P = sum ki * B_i with B_i = [(-x)^i]P = (-1)^i psi^i(P): four 64-bit wNAFs
 * sharing one doubling chain.
 * ------------------------------------------------------------------------------------- */
#define BLS_ABS_X 0xd201000000010000ULL
#define GLS_W 5
#define GLS_ENTRIES 8

/* floor(2^128 / X) - 2^64 (the reciprocal has 65 bits: X < 2^64);
 * python3: hex(2**128 // 0xd201000000010000 - 2**64). */
#define BLS_ABS_X_RECIP_LO 0x381204ca56cd56b5ULL

/* k[0..4) = k / X, returns k mod X. Constant-time: schoolbook division limb by limb with
 * the quotient digit from a Barrett estimate instead of a division instruction (whose
 * latency depends on the operands). Per limb, cur = rem*2^64 + k[i] < X*2^64 and
 * m = floor(2^128/X) > 2^128/X - 1 give cur*m/2^128 > cur/X - cur/2^128 > cur/X - 1, so
 * q = floor(cur*m / 2^128) is the true digit or one less; one masked trial subtraction
 * of X finishes. */
static uint64_t div_abs_x(uint64_t k[4])
{
    typedef unsigned __int128 u128;
    uint64_t rem = 0;
    for (int i = 3; i >= 0; i--) {
        uint64_t hi = rem, lo = k[i];
        /* (hi*2^64 + lo) * (2^64 + m_lo), bits 128..191 */
        u128 t0 = (u128)lo * BLS_ABS_X_RECIP_LO;
        u128 t1 = (u128)hi * BLS_ABS_X_RECIP_LO;
        u128 s1 = (t0 >> 64) + (uint64_t)t1 + lo;
        u128 s2 = (t1 >> 64) + hi + (s1 >> 64);
        uint64_t q = (uint64_t)s2;
        u128 r = (((u128)hi << 64) | lo) - (u128)q * BLS_ABS_X;   /* in [0, 2X) */
        u128 d = r - BLS_ABS_X;
        uint64_t ge = 1 ^ (uint64_t)(d >> 127);                     /* r >= X */
        k[i] = q + ge;
        rem = (uint64_t)r - (BLS_ABS_X & (0 - ge));
    }
    return rem;
}

/* Base-X digits of k < r < X^4: k = d0 + d1 X + d2 X^2 + d3 X^3, each di < X < 2^64. */
static void gls_split(uint64_t d[4], const cuzk_fr *k)
{
    uint64_t kl[4];
    cuzk_fr_to_canonical(kl, k);
    for (int i = 0; i < 4; i++)
        d[i] = div_abs_x(kl);
    ec_wipe(kl, sizeof kl);
}

/* Signed 5-bit windows of a digit below 2^64: 13 digits span 65 bits; the top window
 * (bits 60..64) holds at most 15 + carry = 16, still a digit, so no carry is left over. */
#define GLS_CT_DIGITS 13

/* Constant-time GLS: four 64-bit sub-scalars on B_i = (-1)^i psi^i(a), one doubling
 * chain of 60 doublings instead of 255 for the same number of additions. The tables of
 * B_1..B_3 are psi images of a's table (psi is a group endomorphism, so psi((e+1) a)
 * = (e+1) psi(a)). Assumes a in G2 (psi acts as [x] only there). */
void cuzk_g2_jac_mul(cuzk_g2_jac *r, const cuzk_g2_jac *a, const cuzk_fr *k)
{
    uint64_t d[4];
    int8_t dig[4 * GLS_CT_DIGITS];
    cuzk_g2_affine tab[4 * CT_ENTRIES];
    gls_split(d, k);
    for (int i = 0; i < 4; i++)
        cuzk_ec_signed_windows(dig + i * GLS_CT_DIGITS, GLS_CT_DIGITS, &d[i], 1, CT_W);
    ct_affine_table(tab, a);
    for (int b = 1; b < 4; b++) {
        for (int e = 0; e < CT_ENTRIES; e++) {
            cuzk_g2_affine *t = &tab[b * CT_ENTRIES + e];
            affine_psi(t, &tab[(b - 1) * CT_ENTRIES + e]);
            cuzk_g2_affine_neg(t, t);
        }
    }
    jac_sum_windows_ct(r, tab, 4, dig, GLS_CT_DIGITS, cuzk_g2_jac_is_infinity(a));
    ec_wipe(d, sizeof d);
    ec_wipe(dig, sizeof dig);
}

/* Assumes a in G2 (psi acts as [x] only there). */
void cuzk_g2_jac_mul_var(cuzk_g2_jac *r, const cuzk_g2_jac *a, const cuzk_fr *k)
{
    uint64_t d[4];
    int8_t naf[4][64 + 8];
    cuzk_g2_affine tab[4 * GLS_ENTRIES];
    gls_split(d, k);
    size_t len = 0;
    for (int i = 0; i < 4; i++) {
        size_t l = cuzk_ec_wnaf(naf[i], &d[i], 1, GLS_W);
        len = l > len ? l : len;
    }
    if (len == 0 || cuzk_g2_jac_is_infinity(a)) {
        cuzk_g2_jac_set_infinity(r);
        return;
    }
    affine_odd_multiples(tab, a, GLS_ENTRIES);
    for (int b = 1; b < 4; b++) {
        for (int e = 0; e < GLS_ENTRIES; e++) {
            /* B_b = -psi(B_(b-1)); an affine point (Z = 1) stays affine under psi */
            affine_psi(&tab[b * GLS_ENTRIES + e], &tab[(b - 1) * GLS_ENTRIES + e]);
            cuzk_g2_affine_neg(&tab[b * GLS_ENTRIES + e], &tab[b * GLS_ENTRIES + e]);
        }
    }
    const int8_t *nafs[4] = {naf[0], naf[1], naf[2], naf[3]};
    wnaf_sum_affine_var(r, tab, GLS_ENTRIES, nafs, 4, len);
}

/* ---------------------------------------------------------------------------------------
 * Subgroup check: P on E' is in G2 iff psi(P) == [x]P (Scott, eprint 2021/1130), i.e.
 * psi(P) == -[X]P.
 * ------------------------------------------------------------------------------------- */
/* aff: the same point in affine form when the caller has it (cheaper additions). */
static bool in_subgroup(const cuzk_g2_jac *p, const cuzk_g2_affine *aff)
{
    if (cuzk_g2_jac_is_infinity(p))
        return true;
    cuzk_g2_jac t, s;
    jac_mul_abs_x_var(&t, p, aff);
    cuzk_g2_jac_neg(&t, &t);
    cuzk_g2_jac_psi(&s, p);
    return cuzk_g2_jac_eq(&s, &t);
}

bool cuzk_g2_jac_in_subgroup(const cuzk_g2_jac *p) { return in_subgroup(p, NULL); }

bool cuzk_g2_affine_in_subgroup(const cuzk_g2_affine *p)
{
    cuzk_g2_jac j;
    cuzk_g2_jac_from_affine(&j, p);
    return in_subgroup(&j, p);
}
