/*
 * msm_g2.c — G2 instantiation of the Pippenger MSM (pippenger_impl.h) and of the bitmap
 * sum by batched affine additions (batch_add_impl.h). See cuzk/msm.h for the model.
 * Threading: runs on the caller's pool; no global state.
 */
#include "cuzk/msm.h"
#include "ff/ff_export.h"

/* The ff layer's inline Fp2 (ff_export.h): a call saved per operation, as in msm_g1.c;
 * the same code as the cuzk_fp2_* entry points, so results are bit-identical. */
static inline bool msm_fp2_is_zero(const cuzk_fp2 *a)
{
    return (int)mont_is_zero(a->c0.l, CUZK_FP_LIMBS) & (int)mont_is_zero(a->c1.l, CUZK_FP_LIMBS);
}
static inline bool msm_fp2_eq(const cuzk_fp2 *a, const cuzk_fp2 *b)
{
    return (int)mont_eq(a->c0.l, b->c0.l, CUZK_FP_LIMBS) & (int)mont_eq(a->c1.l, b->c1.l, CUZK_FP_LIMBS);
}

#define PT(name) cuzk_g2_##name
#define PTS(name) cuzk_g2s_##name
#define AFF cuzk_g2_affine
#define JAC cuzk_g2_jac
#define XYZZ cuzk_g2_xyzz
#define FT cuzk_fp2
#define F_ADD tfp2_add
#define F_SUB tfp2_sub
#define F_DBL tfp2_dbl
#define F_NEG tfp2_neg
#define F_MUL tfp2_mul
#define F_SQR tfp2_sqr
#define F_EQ msm_fp2_eq
#define F_IS_ZERO msm_fp2_is_zero
#define F_INV_VAR cuzk_fp2_inv_var
#define F_ONE CUZK_FP2_ONE

#include "msm/pippenger_impl.h"
#include "msm/batch_add_impl.h"
#include "msm/split_msm_impl.h"
