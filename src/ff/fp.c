/*
 * fp.c — the BLS12-381 base field Fp, p = 0x1a0111ea...ffffaaab (381 bits), Montgomery
 * form with R = 2^384: constants, the limb back end choice, and the Fp-only operations
 * (sqrt for p = 3 mod 4, sign, small-constant multiplication, halving, inversion by
 * safegcd — inv_safegcd.h).
 * Pure functions on caller memory; thread-safe.
 *
 * Constants below were derived with python3 from p (e.g. R mod p = 2^384 % p,
 * R^2 mod p = 2^768 % p; -p^-1 mod 2^64 lives in fp_internal.h).
 */
#include "cuzk/ff.h"
#include "ff/mont.h"
#include "ff/fp_internal.h"
#include "ff/inv_safegcd.h"

const uint64_t CUZK_FP_MODULUS[CUZK_FP_LIMBS] = {
    0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
    0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a};
const cuzk_fp CUZK_FP_ZERO = {{0}};
/* R mod p */
const cuzk_fp CUZK_FP_ONE = {{0x760900000002fffd, 0xebf4000bc40c0002, 0x5f48985753c758ba,
                              0x77ce585370525745, 0x5c071a97a256ec6d, 0x15f65ec3fa80e493}};
/* R^2 mod p */
static const cuzk_fp FP_R2 = {{0xf4df1f341c341746, 0x0a76e6a609d104f1, 0x8de5476c4c95b6d5,
                               0x67eb88a9939d83c0, 0x9a793e85b519952d, 0x11988fe592cae3aa}};
/* (p-1)/2: Euler's criterion exponent */
static const uint64_t FP_HALF_EXP[CUZK_FP_LIMBS] = {
    0xdcff7fffffffd555, 0x0f55ffff58a9ffff, 0xb39869507b587b12,
    0xb23ba5c279c2895f, 0x258dd3db21a5d66b, 0x0d0088f51cbff34d};
/* (p+1)/4: p = 3 mod 4, so a^((p+1)/4) squares to a^((p+1)/2) = a * legendre(a) */
static const uint64_t FP_SQRT_EXP[CUZK_FP_LIMBS] = {
    0xee7fbfffffffeaab, 0x07aaffffac54ffff, 0xd9cc34a83dac3d89,
    0xd91dd2e13ce144af, 0x92c6e9ed90d2eb35, 0x0680447a8e5ff9a6};
/* (p+1)/2: the smallest canonical value that is "lexicographically largest" */
static const uint64_t FP_P_PLUS1_HALF[CUZK_FP_LIMBS] = {
    0xdcff7fffffffd556, 0x0f55ffff58a9ffff, 0xb39869507b587b12,
    0xb23ba5c279c2895f, 0x258dd3db21a5d66b, 0x0d0088f51cbff34d};

const char *cuzk_ff_backend(void)
{
#if CUZK_FF_X86
    return "x86-64-adx";
#else
    return "portable";
#endif
}

#define FIELD(name) cuzk_fp_##name
#define FIELDS(name) cuzk_fps_##name
#define FTYPE cuzk_fp
#define FN CUZK_FP_LIMBS
#define FBYTES CUZK_FP_BYTES
#define FMOD CUZK_FP_MODULUS
#define FONE CUZK_FP_ONE
#define FR2 FP_R2
#define FHALF_EXP FP_HALF_EXP
#define FIELD_MUL_IMPL(r, a, b) fp_mul_impl(r, a, b)
#define FIELD_SQR_IMPL(r, a) fp_sqr_impl(r, a)
#define FIELD_ADD_IMPL(r, a, b) fp_add_impl(r, a, b)
#define FIELD_SUB_IMPL(r, a, b) fp_sub_impl(r, a, b)
#define FIELD_DBL_IMPL(r, a) fp_dbl_impl(r, a)
#define FIELD_NEG_IMPL(r, a) fp_neg_impl(r, a)
#include "ff/field_impl.h"

/* p in signed 60-bit limbs and p^-1 mod 2^60 (python3: [(p >> 60*i) % 2**60 for i in
 * range(7)], pow(p, -1, 2**60)); 15 batches of 60 = 900 >=
 * floor((3787 log2(p) + 2166) / 1644) = 878 hddivsteps (inv_safegcd.h). */
static const sg_modulus FP_SG = {
    {0x09feffffffffaaab, 0x0abfffeb153ffffb, 0x00d2a0f6b0f6241e, 0x04b84f38512bf673,
     0x07b6434bacd76477, 0x0ea397fe69a4b1ba, 0x00000000001a0111},
    0x060c000300030003, 7, CUZK_FP_LIMBS, 15, 0};

/* safegcd with cofactor c = R^2: (aR)^-1 * R^2 = a^-1 R, the Montgomery form of a^-1 */
void cuzk_fp_inv(cuzk_fp *r, const cuzk_fp *a) { sg_inv(r->l, a->l, FP_R2.l, &FP_SG); }
void cuzk_fp_inv_var(cuzk_fp *r, const cuzk_fp *a) { sg_inv_var(r->l, a->l, FP_R2.l, &FP_SG); }

bool cuzk_fp_sqrt(cuzk_fp *r, const cuzk_fp *a)
{
    cuzk_fp z, z2;
    cuzk_fp_pow_pub(&z, a, FP_SQRT_EXP, CUZK_FP_LIMBS);
    cuzk_fp_sqr(&z2, &z);
    bool ok = cuzk_fp_eq(&z2, a);
    *r = z;
    return ok;
}

bool cuzk_fp_is_lexicographically_largest(const cuzk_fp *a)
{
    uint64_t c[CUZK_FP_LIMBS];
    cuzk_fp_to_canonical(c, a);
    return !mont_lt(c, FP_P_PLUS1_HALF, CUZK_FP_LIMBS);
}

void cuzk_fp_half(cuzk_fp *r, const cuzk_fp *a) { mont_half(r->l, a->l, CUZK_FP_MODULUS, CUZK_FP_LIMBS); }

/*
 * a*k for k < 2^32 by one 6x1-limb product and a Barrett quotient (works on the Montgomery
 * limbs directly: (aR)k = (ak)R). t = a*k < 2^32 p < 2^413. With x = floor(t / 2^376)
 * (< 2^37) and FP_MU = floor(2^416 / p) (36 bits, python: 2**416 // p), q = (x*FP_MU) >> 40
 * satisfies floor(t/p) - 1 <= q <= floor(t/p): the two truncations lose less than
 * t/2^416 + 2^376/p < 1/8 + 1/24. So t - q*p is in [0, 2p) and one conditional
 * subtraction finishes. Constant-time (no division instruction, no branch).
 */
#define FP_MU 0x9d835d2f3ULL
void cuzk_fp_mul_small(cuzk_fp *r, const cuzk_fp *a, uint64_t k)
{
    if (k >> 32) { /* outside the contract; stay correct with a full multiplication */
        cuzk_fp kf;
        cuzk_fp_from_u64(&kf, k);
        cuzk_fp_mul(r, a, &kf);
        return;
    }
    uint64_t t[7], qp[7];
    cuzk_u128 c = 0;
    CUZK_UNROLL
    for (int i = 0; i < 6; i++) {
        c += (cuzk_u128)a->l[i] * k;
        t[i] = (uint64_t)c;
        c >>= 64;
    }
    t[6] = (uint64_t)c;
    uint64_t x = (t[5] >> 56) | (t[6] << 8);
    uint64_t q = (uint64_t)(((cuzk_u128)x * FP_MU) >> 40);
    c = 0;
    CUZK_UNROLL
    for (int i = 0; i < 6; i++) {
        c += (cuzk_u128)CUZK_FP_MODULUS[i] * q;
        qp[i] = (uint64_t)c;
        c >>= 64;
    }
    qp[6] = (uint64_t)c;
    uint64_t d[6];
    cuzk_u128 br = 0;
    CUZK_UNROLL
    for (int i = 0; i < 6; i++) {
        cuzk_u128 s = (cuzk_u128)t[i] - qp[i] - (uint64_t)br;
        d[i] = (uint64_t)s;
        br = (s >> 64) & 1;
    }
    /* limb 6 of t - q*p is zero since the difference is < 2p < 2^382 */
    mont_csub(r->l, d, CUZK_FP_MODULUS, CUZK_FP_LIMBS);
}
