/*
 * fr.c — the BLS12-381 scalar field Fr, r = 0x73eda753...00000001 (255 bits), Montgomery
 * form with R = 2^256. Pure functions; thread-safe.
 */
#include "cuzk/ff.h"
#include "ff/mont.h"

const uint64_t CUZK_FR_MODULUS[CUZK_FR_LIMBS] = {
    0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48};
/* -r^-1 mod 2^64 */
#define FR_M0INV 0xfffffffeffffffffULL
const cuzk_fr CUZK_FR_ZERO = {{0}};
const cuzk_fr CUZK_FR_ONE = {{0x00000001fffffffe, 0x5884b7fa00034802, 0x998c4fefecbc4ff5,
                              0x1824b159acc5056f}};
static const cuzk_fr FR_R2 = {{0xc999e990f3f29c6d, 0x2b6cedcb87925c23, 0x05d314967254398f,
                               0x0748d9d99f59ff11}};

#define FIELD(name) cuzk_fr_##name
#define FTYPE cuzk_fr
#define FN CUZK_FR_LIMBS
#define FBYTES CUZK_FR_BYTES
#define FMOD CUZK_FR_MODULUS
#define FONE CUZK_FR_ONE
#define FR2 FR_R2
#define FIELD_MUL_IMPL(r, a, b) mont_mul(r, a, b, FMOD, FR_M0INV, FN)
#define FIELD_SQR_IMPL(r, a) mont_mul(r, a, a, FMOD, FR_M0INV, FN)
#include "ff/field_impl.h"

static const uint64_t FR_R_MINUS_2[CUZK_FR_LIMBS] = {
    0xfffffffeffffffff, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48};

void cuzk_fr_inv(cuzk_fr *r, const cuzk_fr *a) { cuzk_fr_pow(r, a, FR_R_MINUS_2, CUZK_FR_LIMBS); }
