/*
 * fp_internal.h — internal view of the Fp/Fr limb back end: which Montgomery mul/sqr and
 * add/sub/dbl/neg this build uses (x86-64 ADX inline asm under CUZK_ASM, the portable
 * mont.h otherwise), as static inline functions on raw limbs (fp_mul_impl, fr_add_impl,
 * ...) so other ff files (towers) can inline them. Inputs must be reduced (< modulus);
 * outputs may alias inputs.
 * Pure functions; thread-safe.
 */
#ifndef CUZK_FF_FP_INTERNAL_H
#define CUZK_FF_FP_INTERNAL_H

#include <stdint.h>

#include "cuzk/ff.h"
#include "ff/mont.h"

/* -p^-1 mod 2^64 and -r^-1 mod 2^64 (python: (-pow(m, -1, 2**64)) % 2**64) */
#define CUZK_FP_M0INV 0x89f3fffcfffcfffdULL
#define CUZK_FR_M0INV 0xfffffffeffffffffULL

#if defined(CUZK_ASM) && defined(__x86_64__) && defined(__GNUC__)
#define CUZK_FF_X86 1
#include "ff/mont_x86_fp.h"
#include "ff/mont_x86_fr.h"
static inline void fp_mul_impl(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_x86_mul6(r, a, b);
}
static inline void fp_sqr_impl(uint64_t *r, const uint64_t *a) { mont_x86_sqr6(r, a); }
static inline void fp_add_impl(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_x86_add6(r, a, b);
}
static inline void fp_sub_impl(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_x86_sub6(r, a, b);
}
static inline void fp_dbl_impl(uint64_t *r, const uint64_t *a) { mont_x86_dbl6(r, a); }
static inline void fp_neg_impl(uint64_t *r, const uint64_t *a) { mont_x86_neg6(r, a); }
static inline void fr_mul_impl(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_x86_mul4(r, a, b);
}
static inline void fr_sqr_impl(uint64_t *r, const uint64_t *a) { mont_x86_sqr4(r, a); }
static inline void fr_add_impl(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_x86_add4(r, a, b);
}
static inline void fr_sub_impl(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_x86_sub4(r, a, b);
}
static inline void fr_dbl_impl(uint64_t *r, const uint64_t *a) { mont_x86_dbl4(r, a); }
static inline void fr_neg_impl(uint64_t *r, const uint64_t *a) { mont_x86_neg4(r, a); }
#else
#define CUZK_FF_X86 0
static inline void fp_mul_impl(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_mul(r, a, b, CUZK_FP_MODULUS, CUZK_FP_M0INV, CUZK_FP_LIMBS);
}
static inline void fp_sqr_impl(uint64_t *r, const uint64_t *a)
{
    mont_mul(r, a, a, CUZK_FP_MODULUS, CUZK_FP_M0INV, CUZK_FP_LIMBS);
}
static inline void fr_mul_impl(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_mul(r, a, b, CUZK_FR_MODULUS, CUZK_FR_M0INV, CUZK_FR_LIMBS);
}
static inline void fr_sqr_impl(uint64_t *r, const uint64_t *a)
{
    mont_mul(r, a, a, CUZK_FR_MODULUS, CUZK_FR_M0INV, CUZK_FR_LIMBS);
}
static inline void fp_add_impl(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_add(r, a, b, CUZK_FP_MODULUS, CUZK_FP_LIMBS);
}
static inline void fp_sub_impl(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_sub(r, a, b, CUZK_FP_MODULUS, CUZK_FP_LIMBS);
}
static inline void fp_dbl_impl(uint64_t *r, const uint64_t *a) { mont_add(r, a, a, CUZK_FP_MODULUS, CUZK_FP_LIMBS); }
static inline void fp_neg_impl(uint64_t *r, const uint64_t *a) { mont_neg(r, a, CUZK_FP_MODULUS, CUZK_FP_LIMBS); }
static inline void fr_add_impl(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_add(r, a, b, CUZK_FR_MODULUS, CUZK_FR_LIMBS);
}
static inline void fr_sub_impl(uint64_t *r, const uint64_t *a, const uint64_t *b)
{
    mont_sub(r, a, b, CUZK_FR_MODULUS, CUZK_FR_LIMBS);
}
static inline void fr_dbl_impl(uint64_t *r, const uint64_t *a) { mont_add(r, a, a, CUZK_FR_MODULUS, CUZK_FR_LIMBS); }
static inline void fr_neg_impl(uint64_t *r, const uint64_t *a) { mont_neg(r, a, CUZK_FR_MODULUS, CUZK_FR_LIMBS); }
#endif

#endif /* CUZK_FF_FP_INTERNAL_H */
