/*
 * fp.c — the BLS12-381 base field Fp, p = 0x1a0111ea...ffffaaab (381 bits), Montgomery
 * form with R = 2^384. Pure functions; thread-safe.
 */
#include "cuzk/ff.h"
#include "ff/mont.h"

const uint64_t CUZK_FP_MODULUS[CUZK_FP_LIMBS] = {
    0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
    0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a};
/* -p^-1 mod 2^64 */
#define FP_M0INV 0x89f3fffcfffcfffdULL
const cuzk_fp CUZK_FP_ZERO = {{0}};
/* R mod p */
const cuzk_fp CUZK_FP_ONE = {{0x760900000002fffd, 0xebf4000bc40c0002, 0x5f48985753c758ba,
                              0x77ce585370525745, 0x5c071a97a256ec6d, 0x15f65ec3fa80e493}};
/* R^2 mod p */
static const cuzk_fp FP_R2 = {{0xf4df1f341c341746, 0x0a76e6a609d104f1, 0x8de5476c4c95b6d5,
                               0x67eb88a9939d83c0, 0x9a793e85b519952d, 0x11988fe592cae3aa}};

#define FIELD(name) cuzk_fp_##name
#define FTYPE cuzk_fp
#define FN CUZK_FP_LIMBS
#define FBYTES CUZK_FP_BYTES
#define FMOD CUZK_FP_MODULUS
#define FONE CUZK_FP_ONE
#define FR2 FP_R2
#define FIELD_MUL_IMPL(r, a, b) mont_mul(r, a, b, FMOD, FP_M0INV, FN)
#define FIELD_SQR_IMPL(r, a) mont_mul(r, a, a, FMOD, FP_M0INV, FN)
#include "ff/field_impl.h"

/* p - 2, for Fermat inversion */
static const uint64_t FP_P_MINUS_2[CUZK_FP_LIMBS] = {
    0xb9feffffffffaaa9, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
    0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a};

void cuzk_fp_inv(cuzk_fp *r, const cuzk_fp *a) { cuzk_fp_pow(r, a, FP_P_MINUS_2, CUZK_FP_LIMBS); }
