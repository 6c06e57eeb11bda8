/*
 * fr.c — the BLS12-381 scalar field Fr, r = 0x73eda753...00000001 (255 bits), Montgomery
 * form with R = 2^256: constants and the Fr-only operations (Tonelli–Shanks sqrt for
 * r - 1 = 2^32 * t, wide reduction of 512-bit inputs, inversion).
 * Pure functions on caller memory; thread-safe.
 *
 * Constants were derived with python3 from r (R mod r = 2^256 % r, R^2 = 2^512 % r, ...).
 */
#include "cuzk/ff.h"
#include "ff/mont.h"
#include "ff/fp_internal.h"
#include "ff/inv_safegcd.h"

const uint64_t CUZK_FR_MODULUS[CUZK_FR_LIMBS] = {
    0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48};
const cuzk_fr CUZK_FR_ZERO = {{0}};
/* R mod r */
const cuzk_fr CUZK_FR_ONE = {{0x00000001fffffffe, 0x5884b7fa00034802, 0x998c4fefecbc4ff5,
                              0x1824b159acc5056f}};
/* R^2 mod r */
static const cuzk_fr FR_R2 = {{0xc999e990f3f29c6d, 0x2b6cedcb87925c23, 0x05d314967254398f,
                               0x0748d9d99f59ff11}};
/* R^3 mod r (2**768 % r): Montgomery-multiplying by it turns x into x * 2^256 * R */
static const cuzk_fr FR_R3 = {{0xc62c1807439b73af, 0x1b3e0d188cf06990, 0x73d13c71c7b5f418,
                               0x6e2a5bb9c8db33e9}};
/* (r-1)/2: Euler's criterion exponent */
static const uint64_t FR_HALF_EXP[CUZK_FR_LIMBS] = {
    0x7fffffff80000000, 0xa9ded2017fff2dff, 0x199cec0404d0ec02, 0x39f6d3a994cebea4};

#define FIELD(name) cuzk_fr_##name
#define FIELDS(name) cuzk_frs_##name
#define FTYPE cuzk_fr
#define FN CUZK_FR_LIMBS
#define FBYTES CUZK_FR_BYTES
#define FMOD CUZK_FR_MODULUS
#define FONE CUZK_FR_ONE
#define FR2 FR_R2
#define FHALF_EXP FR_HALF_EXP
#define FIELD_MUL_IMPL(r, a, b) fr_mul_impl(r, a, b)
#define FIELD_SQR_IMPL(r, a) fr_sqr_impl(r, a)
#define FIELD_ADD_IMPL(r, a, b) fr_add_impl(r, a, b)
#define FIELD_SUB_IMPL(r, a, b) fr_sub_impl(r, a, b)
#define FIELD_DBL_IMPL(r, a) fr_dbl_impl(r, a)
#define FIELD_NEG_IMPL(r, a) fr_neg_impl(r, a)
#include "ff/field_impl.h"

/* r in signed 60-bit limbs and r^-1 mod 2^60 (python3 as in fp.c); 10 batches of 60 =
 * 600 >= floor((3787 log2(r) + 2166) / 1644) = 588 hddivsteps (inv_safegcd.h). */
static const sg_modulus FR_SG = {
    {0x0fffffff00000001, 0x0bda402fffe5bfef, 0x09d80809a1d80553, 0x0a753299d7d48333,
     0x00000000000073ed},
    0x100000001, 5, CUZK_FR_LIMBS, 10, 0};

void cuzk_fr_inv(cuzk_fr *r, const cuzk_fr *a) { sg_inv(r->l, a->l, FR_R2.l, &FR_SG); }
void cuzk_fr_inv_var(cuzk_fr *r, const cuzk_fr *a) { sg_inv_var(r->l, a->l, FR_R2.l, &FR_SG); }

/*
 * Constant-time Tonelli–Shanks (the fixed-iteration form of RFC 9380, appendix I.4):
 * r - 1 = 2^S * T with S = 32, T odd. Every input runs the same S-1 rounds; each round
 * decides with a constant-time select whether to fold in the next power of the 2^S-th
 * root of unity. Constants (python3):
 *   T        = (r-1) >> 32
 *   FR_TS_E  = (T-1)/2
 *   FR_TS_C  = 7^T mod r in Montgomery form (7 generates Fr*, so it is a non-square and
 *              7^T has order exactly 2^32)
 */
#define FR_TS_S 32
static const uint64_t FR_TS_E[CUZK_FR_LIMBS] = {
    0x7fff2dff7fffffff, 0x04d0ec02a9ded201, 0x94cebea4199cec04, 0x0000000039f6d3a9};
static const cuzk_fr FR_TS_C = {{0xb9b58d8c5f0e466a, 0x5b1b4c801819d7ec, 0x0af53ae352a31e64,
                                 0x5bf3adda19e9b27b}};

bool cuzk_fr_sqrt(cuzk_fr *r, const cuzk_fr *a)
{
    cuzk_fr z, t, b, c = FR_TS_C, tmp;
    cuzk_fr_pow_pub(&z, a, FR_TS_E, CUZK_FR_LIMBS); /* a^((T-1)/2) */
    cuzk_fr_sqr(&t, &z);
    cuzk_fr_mul(&t, &t, a);                          /* t = a^T */
    cuzk_fr_mul(&z, &z, a);                          /* z = a^((T+1)/2), z^2 = a * t */
    b = t;
    for (int i = FR_TS_S; i >= 2; i--) {
        /* b = t^(2^(i-2)); t has order dividing 2^(i-1), and b == 1 iff it divides 2^(i-2) */
        for (int j = 1; j <= i - 2; j++)
            cuzk_fr_sqr(&b, &b);
        bool e = cuzk_fr_is_one(&b);
        cuzk_fr_mul(&tmp, &z, &c);
        cuzk_fr_cmov(&z, &tmp, &z, e);
        cuzk_fr_sqr(&c, &c);
        cuzk_fr_mul(&tmp, &t, &c);
        cuzk_fr_cmov(&t, &tmp, &t, e);
        b = t;
    }
    cuzk_fr_sqr(&tmp, &z);
    bool ok = cuzk_fr_eq(&tmp, a);
    *r = z;
    return ok;
}

/*
 * 512-bit little-endian x = lo + hi * 2^256 reduced mod r. Each half is < 2^256 < 3r, so
 * two conditional subtractions bring it below r; then Montgomery-multiplying lo by R^2
 * gives lo*R and hi by R^3 gives hi*2^256*R, whose sum is x mod r in Montgomery form.
 */
void cuzk_fr_from_bytes_wide_le(cuzk_fr *r, const uint8_t in[64])
{
    cuzk_fr lo, hi;
    limbs_from_bytes_le(lo.l, in, CUZK_FR_LIMBS);
    limbs_from_bytes_le(hi.l, in + 32, CUZK_FR_LIMBS);
    mont_csub(lo.l, lo.l, CUZK_FR_MODULUS, CUZK_FR_LIMBS);
    mont_csub(lo.l, lo.l, CUZK_FR_MODULUS, CUZK_FR_LIMBS);
    mont_csub(hi.l, hi.l, CUZK_FR_MODULUS, CUZK_FR_LIMBS);
    mont_csub(hi.l, hi.l, CUZK_FR_MODULUS, CUZK_FR_LIMBS);
    cuzk_fr_mul(&lo, &lo, &FR_R2);
    cuzk_fr_mul(&hi, &hi, &FR_R3);
    cuzk_fr_add(r, &lo, &hi);
}
