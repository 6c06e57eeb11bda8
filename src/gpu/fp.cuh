/*
 * fp.cuh — the BLS12-381 base field Fp on the device: 381-bit elements in Montgomery form
 * (R = 2^384), 12 little-endian 32-bit limbs, i.e. exactly the bytes of the host's cuzk_fp
 * (6 LE 64-bit limbs), so host arrays are copied to the device unchanged. Every function
 * takes and returns fully reduced values (< p), as the host does, so results compare bit
 * for bit.
 *
 * Multiplication is CIOS Montgomery: per limb b_i of b, t += a * b_i, then t += m * p with
 * m = t_0 * (-p^-1 mod 2^32), then t >>= 32. Each "t += a * w" row is one inline-PTX block
 * of two carry chains (mad.lo.cc over the low halves, mad.hi.cc over the high halves), i.e.
 * 2 IMAD per 32x32 partial product, ~600 IMAD per multiplication. The whole chain of a row
 * sits in one asm statement so that no compiler-inserted instruction can clobber the carry
 * flag between steps. t needs only 13 limbs: with a, b < p < 2^381, t < 2p + 2^33 p < 2^416
 * at every step, and t < 2p after the shift, so one conditional subtraction finishes.
 *
 * Threading: pure per-thread functions on registers.
 */
#ifndef CUZK_GPU_FP_CUH
#define CUZK_GPU_FP_CUH

#include <stdint.h>

typedef struct gpu_fp { uint32_t l[12]; } gpu_fp;

/* p, little-endian 32-bit limbs (the host's CUZK_FP_MODULUS) */
#define GPU_FP_P_LIMBS                                                                    \
    {0xffffaaabu, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu, 0xf6b0f624u, 0x6730d2a0u,        \
     0xf38512bfu, 0x64774b84u, 0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau}
/* R mod p: the Montgomery form of 1 (the host's CUZK_FP_ONE) */
#define GPU_FP_ONE_LIMBS                                                                  \
    {0x0002fffdu, 0x76090000u, 0xc40c0002u, 0xebf4000bu, 0x53c758bau, 0x5f489857u,        \
     0x70525745u, 0x77ce5853u, 0xa256ec6du, 0x5c071a97u, 0xfa80e493u, 0x15f65ec3u}
/* -p^-1 mod 2^32 */
#define GPU_FP_PINV 0xfffcfffdu

static __device__ __forceinline__ gpu_fp gpu_fp_zero(void)
{
    gpu_fp r;
#pragma unroll
    for (int i = 0; i < 12; i++)
        r.l[i] = 0;
    return r;
}

static __device__ __forceinline__ gpu_fp gpu_fp_one(void)
{
    const gpu_fp r = {GPU_FP_ONE_LIMBS};
    return r;
}

/* r = x + y over 12 limbs; the caller knows it does not overflow */
static __device__ __forceinline__ void gpu_fp_add_raw_(uint32_t *r, const uint32_t *x,
                                                       const uint32_t *y)
{
    asm(
        "add.cc.u32 %0, %12, %24;\n\t"
        "addc.cc.u32 %1, %13, %25;\n\t"
        "addc.cc.u32 %2, %14, %26;\n\t"
        "addc.cc.u32 %3, %15, %27;\n\t"
        "addc.cc.u32 %4, %16, %28;\n\t"
        "addc.cc.u32 %5, %17, %29;\n\t"
        "addc.cc.u32 %6, %18, %30;\n\t"
        "addc.cc.u32 %7, %19, %31;\n\t"
        "addc.cc.u32 %8, %20, %32;\n\t"
        "addc.cc.u32 %9, %21, %33;\n\t"
        "addc.cc.u32 %10, %22, %34;\n\t"
        "addc.u32 %11, %23, %35;"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]),
          "=r"(r[6]), "=r"(r[7]), "=r"(r[8]), "=r"(r[9]), "=r"(r[10]), "=r"(r[11])
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(x[4]), "r"(x[5]), "r"(x[6]),
          "r"(x[7]), "r"(x[8]), "r"(x[9]), "r"(x[10]), "r"(x[11]), "r"(y[0]), "r"(y[1]),
          "r"(y[2]), "r"(y[3]), "r"(y[4]), "r"(y[5]), "r"(y[6]), "r"(y[7]), "r"(y[8]),
          "r"(y[9]), "r"(y[10]), "r"(y[11]));
}

/* r = x - y over 12 limbs; returns 0xffffffff on borrow, else 0 */
static __device__ __forceinline__ uint32_t gpu_fp_sub_raw_(uint32_t *r, const uint32_t *x,
                                                           const uint32_t *y)
{
    uint32_t borrow;
    asm(
        "sub.cc.u32 %0, %13, %25;\n\t"
        "subc.cc.u32 %1, %14, %26;\n\t"
        "subc.cc.u32 %2, %15, %27;\n\t"
        "subc.cc.u32 %3, %16, %28;\n\t"
        "subc.cc.u32 %4, %17, %29;\n\t"
        "subc.cc.u32 %5, %18, %30;\n\t"
        "subc.cc.u32 %6, %19, %31;\n\t"
        "subc.cc.u32 %7, %20, %32;\n\t"
        "subc.cc.u32 %8, %21, %33;\n\t"
        "subc.cc.u32 %9, %22, %34;\n\t"
        "subc.cc.u32 %10, %23, %35;\n\t"
        "subc.cc.u32 %11, %24, %36;\n\t"
        "subc.u32 %12, 0, 0;"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]),
          "=r"(r[6]), "=r"(r[7]), "=r"(r[8]), "=r"(r[9]), "=r"(r[10]), "=r"(r[11]), "=r"(borrow)
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(x[4]), "r"(x[5]), "r"(x[6]),
          "r"(x[7]), "r"(x[8]), "r"(x[9]), "r"(x[10]), "r"(x[11]), "r"(y[0]), "r"(y[1]),
          "r"(y[2]), "r"(y[3]), "r"(y[4]), "r"(y[5]), "r"(y[6]), "r"(y[7]), "r"(y[8]),
          "r"(y[9]), "r"(y[10]), "r"(y[11]));
    return borrow;
}

/* t[0..12] += a[0..11] * b: one Montgomery row (see the file comment for the bound) */
static __device__ __forceinline__ void gpu_fp_mac_row_(uint32_t *t, const uint32_t *a,
                                                       uint32_t b)
{
    asm(
        "mad.lo.cc.u32 %0, %13, %25, %0;\n\t"
        "madc.lo.cc.u32 %1, %14, %25, %1;\n\t"
        "madc.lo.cc.u32 %2, %15, %25, %2;\n\t"
        "madc.lo.cc.u32 %3, %16, %25, %3;\n\t"
        "madc.lo.cc.u32 %4, %17, %25, %4;\n\t"
        "madc.lo.cc.u32 %5, %18, %25, %5;\n\t"
        "madc.lo.cc.u32 %6, %19, %25, %6;\n\t"
        "madc.lo.cc.u32 %7, %20, %25, %7;\n\t"
        "madc.lo.cc.u32 %8, %21, %25, %8;\n\t"
        "madc.lo.cc.u32 %9, %22, %25, %9;\n\t"
        "madc.lo.cc.u32 %10, %23, %25, %10;\n\t"
        "madc.lo.cc.u32 %11, %24, %25, %11;\n\t"
        "addc.u32 %12, %12, 0;\n\t"
        "mad.hi.cc.u32 %1, %13, %25, %1;\n\t"
        "madc.hi.cc.u32 %2, %14, %25, %2;\n\t"
        "madc.hi.cc.u32 %3, %15, %25, %3;\n\t"
        "madc.hi.cc.u32 %4, %16, %25, %4;\n\t"
        "madc.hi.cc.u32 %5, %17, %25, %5;\n\t"
        "madc.hi.cc.u32 %6, %18, %25, %6;\n\t"
        "madc.hi.cc.u32 %7, %19, %25, %7;\n\t"
        "madc.hi.cc.u32 %8, %20, %25, %8;\n\t"
        "madc.hi.cc.u32 %9, %21, %25, %9;\n\t"
        "madc.hi.cc.u32 %10, %22, %25, %10;\n\t"
        "madc.hi.cc.u32 %11, %23, %25, %11;\n\t"
        "madc.hi.u32 %12, %24, %25, %12;"
        : "+r"(t[0]), "+r"(t[1]), "+r"(t[2]), "+r"(t[3]), "+r"(t[4]), "+r"(t[5]),
          "+r"(t[6]), "+r"(t[7]), "+r"(t[8]), "+r"(t[9]), "+r"(t[10]), "+r"(t[11]),
          "+r"(t[12])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]),
          "r"(a[7]), "r"(a[8]), "r"(a[9]), "r"(a[10]), "r"(a[11]), "r"(b));
}

/* x < 2p -> x mod p */
static __device__ __forceinline__ gpu_fp gpu_fp_reduce_once_(const uint32_t *x)
{
    const uint32_t p[12] = GPU_FP_P_LIMBS;
    gpu_fp r;
    uint32_t borrow = gpu_fp_sub_raw_(r.l, x, p);
#pragma unroll
    for (int i = 0; i < 12; i++)
        r.l[i] = borrow ? x[i] : r.l[i];
    return r;
}

static __device__ __forceinline__ gpu_fp gpu_fp_add(gpu_fp a, gpu_fp b)
{
    uint32_t s[12];
    gpu_fp_add_raw_(s, a.l, b.l); /* < 2p < 2^382: no carry out */
    return gpu_fp_reduce_once_(s);
}

static __device__ __forceinline__ gpu_fp gpu_fp_dbl(gpu_fp a) { return gpu_fp_add(a, a); }

static __device__ __forceinline__ gpu_fp gpu_fp_sub(gpu_fp a, gpu_fp b)
{
    const uint32_t p[12] = GPU_FP_P_LIMBS;
    uint32_t d[12], pm[12];
    uint32_t borrow = gpu_fp_sub_raw_(d, a.l, b.l);
#pragma unroll
    for (int i = 0; i < 12; i++)
        pm[i] = p[i] & borrow;
    gpu_fp r;
    gpu_fp_add_raw_(r.l, d, pm); /* wraps mod 2^384 back into [0, p) when it borrowed */
    return r;
}

static __device__ __forceinline__ bool gpu_fp_is_zero(gpu_fp a)
{
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < 12; i++)
        acc |= a.l[i];
    return acc == 0;
}

static __device__ __forceinline__ bool gpu_fp_eq(gpu_fp a, gpu_fp b)
{
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < 12; i++)
        acc |= a.l[i] ^ b.l[i];
    return acc == 0;
}

/* -0 = 0, as on the host */
static __device__ __forceinline__ gpu_fp gpu_fp_neg(gpu_fp a)
{
    const uint32_t p[12] = GPU_FP_P_LIMBS;
    gpu_fp r;
    (void)gpu_fp_sub_raw_(r.l, p, a.l);
    uint32_t nz = gpu_fp_is_zero(a) ? 0u : 0xffffffffu;
#pragma unroll
    for (int i = 0; i < 12; i++)
        r.l[i] &= nz;
    return r;
}

static __device__ __forceinline__ gpu_fp gpu_fp_mul(gpu_fp a, gpu_fp b)
{
    const uint32_t p[12] = GPU_FP_P_LIMBS;
    uint32_t t[13];
#pragma unroll
    for (int i = 0; i < 13; i++)
        t[i] = 0;
#pragma unroll
    for (int i = 0; i < 12; i++) {
        gpu_fp_mac_row_(t, a.l, b.l[i]);
        uint32_t m = t[0] * GPU_FP_PINV;
        gpu_fp_mac_row_(t, p, m); /* t[0] becomes 0 */
#pragma unroll
        for (int j = 0; j < 12; j++)
            t[j] = t[j + 1];
        t[12] = 0;
    }
    return gpu_fp_reduce_once_(t);
}

static __device__ __forceinline__ gpu_fp gpu_fp_sqr(gpu_fp a) { return gpu_fp_mul(a, a); }

#endif /* CUZK_GPU_FP_CUH */
