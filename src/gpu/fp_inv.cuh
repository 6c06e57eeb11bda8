/*
 * fp_inv.cuh — field inversion on the device, for the places that share one inversion
 * over many elements (Montgomery's trick): the fixed-base key's affine normalisation
 * (fixed_base.cu) and the MSM's batch-affine bucket accumulation (msm_affine.cuh).
 * gf_inv(0) = 0. Threading: pure per-thread functions on registers.
 */
#ifndef CUZK_GPU_FP_INV_CUH
#define CUZK_GPU_FP_INV_CUH

#include "gpu/fp2.cuh"

/* p - 2, little-endian 32-bit limbs */
#define GPU_FP_P_MINUS_2                                                                   \
    {0xffffaaa9u, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu, 0xf6b0f624u, 0x6730d2a0u,         \
     0xf38512bfu, 0x64774b84u, 0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau}

/* a^(p-2) = 1/a by square-and-multiply, ~380 S + ~190 M: each caller shares one over
 * dozens of elements or more, so a window table in local memory is not worth it. */
static __device__ __noinline__ gpu_fp gpu_fp_inv(gpu_fp a)
{
    const uint32_t e[12] = GPU_FP_P_MINUS_2;
    gpu_fp r = gpu_fp_one();
    bool started = false;
    for (int i = 11; i >= 0; i--)
        for (int b = 31; b >= 0; b--) {
            if (started)
                r = gpu_fp_sqr(r);
            if ((e[i] >> b) & 1) {
                r = started ? gpu_fp_mul(r, a) : a;
                started = true;
            }
        }
    return r;
}

static __device__ __forceinline__ gpu_fp gf_inv(gpu_fp a) { return gpu_fp_inv(a); }

/* 1/(c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2) */
static __device__ __forceinline__ gpu_fp2 gf_inv(gpu_fp2 a)
{
    gpu_fp t = gpu_fp_inv(gpu_fp_add(gpu_fp_sqr(a.c0), gpu_fp_sqr(a.c1)));
    gpu_fp2 r = {gpu_fp_mul(a.c0, t), gpu_fp_neg(gpu_fp_mul(a.c1, t))};
    return r;
}

#endif /* CUZK_GPU_FP_INV_CUH */
