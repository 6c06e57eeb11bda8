/*
 * msm_g1.c — G1 instantiation of the Pippenger MSM (pippenger_impl.h) and of the bitmap
 * sum by batched affine additions (batch_add_impl.h). See cuzk/msm.h for the model.
 * Threading: runs on the caller's pool; no global state.
 */
#include "cuzk/msm.h"

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
#define F_INV_VAR cuzk_fp_inv_var
#define F_ONE CUZK_FP_ONE

#include "msm/pippenger_impl.h"
#include "msm/batch_add_impl.h"
#include "msm/split_msm_impl.h"
