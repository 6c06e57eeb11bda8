/*
 * fp2.cuh — Fp2 = Fp[u]/(u^2 + 1) on the device, c0 + c1*u, with the host's bytes
 * (cuzk_fp2 = two cuzk_fp). Multiplication is Karatsuba (3 Fp multiplications), squaring
 * the complex method (2 Fp multiplications). Outputs are fully reduced like the host's.
 * Threading: pure per-thread functions on registers.
 */
#ifndef CUZK_GPU_FP2_CUH
#define CUZK_GPU_FP2_CUH

#include "gpu/fp.cuh"

typedef struct gpu_fp2 { gpu_fp c0, c1; } gpu_fp2;

static __device__ __forceinline__ gpu_fp2 gpu_fp2_zero(void)
{
    gpu_fp2 r = {gpu_fp_zero(), gpu_fp_zero()};
    return r;
}

static __device__ __forceinline__ gpu_fp2 gpu_fp2_one(void)
{
    gpu_fp2 r = {gpu_fp_one(), gpu_fp_zero()};
    return r;
}

static __device__ __forceinline__ gpu_fp2 gpu_fp2_add(gpu_fp2 a, gpu_fp2 b)
{
    gpu_fp2 r = {gpu_fp_add(a.c0, b.c0), gpu_fp_add(a.c1, b.c1)};
    return r;
}

static __device__ __forceinline__ gpu_fp2 gpu_fp2_sub(gpu_fp2 a, gpu_fp2 b)
{
    gpu_fp2 r = {gpu_fp_sub(a.c0, b.c0), gpu_fp_sub(a.c1, b.c1)};
    return r;
}

static __device__ __forceinline__ gpu_fp2 gpu_fp2_dbl(gpu_fp2 a)
{
    gpu_fp2 r = {gpu_fp_dbl(a.c0), gpu_fp_dbl(a.c1)};
    return r;
}

static __device__ __forceinline__ gpu_fp2 gpu_fp2_neg(gpu_fp2 a)
{
    gpu_fp2 r = {gpu_fp_neg(a.c0), gpu_fp_neg(a.c1)};
    return r;
}

static __device__ __forceinline__ bool gpu_fp2_is_zero(gpu_fp2 a)
{
    return gpu_fp_is_zero(a.c0) && gpu_fp_is_zero(a.c1);
}

static __device__ __forceinline__ bool gpu_fp2_eq(gpu_fp2 a, gpu_fp2 b)
{
    return gpu_fp_eq(a.c0, b.c0) && gpu_fp_eq(a.c1, b.c1);
}

/* (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u */
static __device__ __forceinline__ gpu_fp2 gpu_fp2_mul(gpu_fp2 a, gpu_fp2 b)
{
    gpu_fp t0 = gpu_fp_mul(a.c0, b.c0);
    gpu_fp t1 = gpu_fp_mul(a.c1, b.c1);
    gpu_fp t2 = gpu_fp_mul(gpu_fp_add(a.c0, a.c1), gpu_fp_add(b.c0, b.c1));
    gpu_fp2 r = {gpu_fp_sub(t0, t1), gpu_fp_sub(gpu_fp_sub(t2, t0), t1)};
    return r;
}

/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u */
static __device__ __forceinline__ gpu_fp2 gpu_fp2_sqr(gpu_fp2 a)
{
    gpu_fp t = gpu_fp_mul(a.c0, a.c1);
    gpu_fp2 r = {gpu_fp_mul(gpu_fp_add(a.c0, a.c1), gpu_fp_sub(a.c0, a.c1)), gpu_fp_dbl(t)};
    return r;
}

#endif /* CUZK_GPU_FP2_CUH */
