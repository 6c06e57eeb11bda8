/*
 * msm_g2.cu — the G2 instantiation of the device MSM family of cuzk/gpu.h (Pippenger,
 * bitmap sum, 0/1-split MSM); the algorithms live in msm_pippenger.cuh, msm_bitmap.cuh
 * and msm_split.cuh. Threading: see cuzk/gpu.h.
 */
#include "gpu/msm_entry.cuh"

static_assert(sizeof(gpu_aff<gpu_fp2>) == sizeof(cuzk_g2_affine), "device G2 affine layout");
static_assert(sizeof(gpu_jac<gpu_fp2>) == sizeof(cuzk_g2_jac), "device G2 Jacobian layout");
static_assert(sizeof(gpu_xyzz<gpu_fp2>) == sizeof(cuzk_g2_xyzz), "device G2 XYZZ layout");

MSM_DEFINE_ENTRY_POINTS(g2, gpu_fp2)
