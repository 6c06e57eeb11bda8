/*
 * msm_g1.cu — the G1 instantiation of the device MSM family of cuzk/gpu.h (Pippenger,
 * bitmap sum, 0/1-split MSM); the algorithms live in msm_pippenger.cuh, msm_bitmap.cuh
 * and msm_split.cuh. Threading: see cuzk/gpu.h.
 */
#include "gpu/msm_entry.cuh"

static_assert(sizeof(gpu_aff<gpu_fp>) == sizeof(cuzk_g1_affine), "device G1 affine layout");
static_assert(sizeof(gpu_jac<gpu_fp>) == sizeof(cuzk_g1_jac), "device G1 Jacobian layout");
static_assert(sizeof(gpu_xyzz<gpu_fp>) == sizeof(cuzk_g1_xyzz), "device G1 XYZZ layout");

MSM_DEFINE_ENTRY_POINTS(g1, gpu_fp)
