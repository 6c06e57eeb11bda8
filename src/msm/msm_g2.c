/*
 * msm_g2.c — G2 instantiation of the Pippenger MSM (pippenger_impl.h) and of the bitmap
 * sum by batched affine additions (batch_add_impl.h). See cuzk/msm.h for the model.
 * Threading: runs on the caller's pool; no global state.
 */
#include "cuzk/msm.h"

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
#define F_INV_VAR cuzk_fp2_inv_var
#define F_ONE CUZK_FP2_ONE

#include "msm/pippenger_impl.h"
#include "msm/batch_add_impl.h"
#include "msm/split_msm_impl.h"
