/*
 * msm_g1.c — G1 instantiation of the Pippenger MSM (pippenger_impl.h) and of the bitmap
 * sum by batched affine additions (batch_add_impl.h). See cuzk/msm.h for the model.
 * Threading: runs on the caller's pool; no global state.
 */
#include "cuzk/msm.h"
#include "ff/ff_export.h"

/* The bucket loops are field-operation bound: the ff layer's inline limb back end
 * (ff_export.h) saves a call per operation, ~10 % of an MSM (docs/perf.md). Same limb
 * code as the cuzk_fp_* entry points, so results are bit-identical. */
static inline void msm_fp_sqr(cuzk_fp *r, const cuzk_fp *a) { fp_sqr_impl(r->l, a->l); }
static inline bool msm_fp_is_zero(const cuzk_fp *a)
{
    return mont_is_zero(a->l, CUZK_FP_LIMBS);
}
static inline bool msm_fp_eq(const cuzk_fp *a, const cuzk_fp *b)
{
    return mont_eq(a->l, b->l, CUZK_FP_LIMBS);
}

#define PT(name) cuzk_g1_##name
#define PTS(name) cuzk_g1s_##name
#define AFF cuzk_g1_affine
#define JAC cuzk_g1_jac
#define XYZZ cuzk_g1_xyzz
#define FT cuzk_fp
#define F_ADD tfp_add
#define F_SUB tfp_sub
#define F_DBL tfp_dbl
#define F_NEG tfp_neg
#define F_MUL tfp_mul
#define F_SQR msm_fp_sqr
#define F_EQ msm_fp_eq
#define F_IS_ZERO msm_fp_is_zero
#define F_INV_VAR cuzk_fp_inv_var
#define F_ONE CUZK_FP_ONE

#include "msm/pippenger_impl.h"
#include "msm/batch_add_impl.h"
#include "msm/split_msm_impl.h"
