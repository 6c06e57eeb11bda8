/*
 * fp.cuh — the BLS12-381 base field Fp on the device: 381-bit elements in Montgomery form
 * (R = 2^384), 12 little-endian 32-bit limbs, i.e. exactly the bytes of the host's cuzk_fp
 * (6 LE 64-bit limbs), so host arrays are copied to the device unchanged. Every function
 * takes and returns fully reduced values (< p), as the host does, so results compare bit
 * for bit.
 *
 * Multiplication is CIOS Montgomery: per limb b_i of b, t += a * b_i, then t += m * p with
 * m = t_0 * (-p^-1 mod 2^32), then t >>= 32, with the accumulator t kept as two arrays
 * (mont_eo.cuh says why): x at limb 0 and y one limb higher, t = x + 2^32 y. A row
 * "t += a * w" is then two chains of 6 64-bit multiply-adds (a_even*w into x, a_odd*w into
 * y), and the shift by one limb swaps the roles: the new x is y plus x_1, the new y is x
 * shifted by two limbs, which the next row's chain does as it multiplies (EO_MADC_SH).
 * Bounds: a, b < p < 2^381, so t < 2p + 2^33 p < 2^415 at every step and each part alone
 * is below that; y (from limb 1) stays below 2^383 and never carries out of its 12 limbs;
 * after the last row t < 2p, and one conditional subtraction finishes.
 *
 * Threading: pure per-thread functions on registers.
 */
#ifndef CUZK_GPU_FP_CUH
#define CUZK_GPU_FP_CUH

#include <stdint.h>

#include "gpu/mont_eo.cuh"

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
/* the limbs of p again, as PTX immediates */
#define GPU_FP_PS0 "0xffffaaab"
#define GPU_FP_PS1 "0xb9feffff"
#define GPU_FP_PS2 "0xb153ffff"
#define GPU_FP_PS3 "0x1eabfffe"
#define GPU_FP_PS4 "0xf6b0f624"
#define GPU_FP_PS5 "0x6730d2a0"
#define GPU_FP_PS6 "0xf38512bf"
#define GPU_FP_PS7 "0x64774b84"
#define GPU_FP_PS8 "0x434bacd7"
#define GPU_FP_PS9 "0x4b1ba7b6"
#define GPU_FP_PS10 "0x397fe69a"
#define GPU_FP_PS11 "0x1a0111ea"

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

#define GPU_FP_EO_X                                                                       \
    "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]), "+r"(x[4]), "+r"(x[5]), "+r"(x[6]),   \
        "+r"(x[7]), "+r"(x[8]), "+r"(x[9]), "+r"(x[10]), "+r"(x[11])
#define GPU_FP_EO_Y                                                                       \
    "+r"(y[0]), "+r"(y[1]), "+r"(y[2]), "+r"(y[3]), "+r"(y[4]), "+r"(y[5]), "+r"(y[6]),   \
        "+r"(y[7]), "+r"(y[8]), "+r"(y[9]), "+r"(y[10]), "+r"(y[11])
#define GPU_FP_EO_A                                                                       \
    "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]),          \
        "r"(a[7]), "r"(a[8]), "r"(a[9]), "r"(a[10]), "r"(a[11])

/* The first row: x = a_even * b, y = a_odd * b (operands: x 0-11, y 12-23, a 24-35, b 36) */
static __device__ __forceinline__ void gpu_fp_eo_first_(uint32_t *x, uint32_t *y,
                                                        const uint32_t *a, uint32_t b)
{
    asm(EO_MUL(0, 1, 24, 36) EO_MUL(2, 3, 26, 36) EO_MUL(4, 5, 28, 36) EO_MUL(6, 7, 30, 36)
            EO_MUL(8, 9, 32, 36) EO_MUL(10, 11, 34, 36) EO_MUL(12, 13, 25, 36)
                EO_MUL(14, 15, 27, 36) EO_MUL(16, 17, 29, 36) EO_MUL(18, 19, 31, 36)
                    EO_MUL(20, 21, 33, 36) EO_MUL(22, 23, 35, 36)
        : GPU_FP_EO_X, GPU_FP_EO_Y
        : GPU_FP_EO_A, "r"(b));
}

/* t += m * p with m = x_0 * pinv, after which x_0 = 0 (x 0-11, y 12-23, m 24) */
static __device__ __forceinline__ void gpu_fp_eo_reduce_(uint32_t *x, uint32_t *y)
{
    uint32_t m = x[0] * GPU_FP_PINV;
    asm(EO_MADI(12, 13, 24, GPU_FP_PS1) EO_MADCI(14, 15, 24, GPU_FP_PS3)
            EO_MADCI(16, 17, 24, GPU_FP_PS5) EO_MADCI(18, 19, 24, GPU_FP_PS7)
                EO_MADCI(20, 21, 24, GPU_FP_PS9) EO_MADCI_END(22, 23, 24, GPU_FP_PS11)
                    EO_MADI(0, 1, 24, GPU_FP_PS0) EO_MADCI(2, 3, 24, GPU_FP_PS2)
                        EO_MADCI(4, 5, 24, GPU_FP_PS4) EO_MADCI(6, 7, 24, GPU_FP_PS6)
                            EO_MADCI(8, 9, 24, GPU_FP_PS8) EO_MADCI(10, 11, 24, GPU_FP_PS10)
        "addc.u32 %23, %23, 0;"
        : GPU_FP_EO_X, GPU_FP_EO_Y
        : "r"(m));
}

/* The next row on a reduced t (x_0 = 0): t = t / 2^32 + a * b, leaving the part at limb 0
 * in y's registers and the part at limb 1 in x's: the new x is y + x_1, the new y is x
 * shifted down two limbs (x 0-11, y 12-23, a 24-35, b 36) */
static __device__ __forceinline__ void gpu_fp_eo_row_(uint32_t *x, uint32_t *y,
                                                      const uint32_t *a, uint32_t b)
{
    asm("add.cc.u32 %12, %12, %1;\n\t" EO_MADC_SH(0, 1, 25, 36, 2, 3)
            EO_MADC_SH(2, 3, 27, 36, 4, 5) EO_MADC_SH(4, 5, 29, 36, 6, 7)
                EO_MADC_SH(6, 7, 31, 36, 8, 9) EO_MADC_SH(8, 9, 33, 36, 10, 11)
                    EO_MADC_TOP(10, 11, 35, 36) EO_MAD(12, 13, 24, 36) EO_MADC(14, 15, 26, 36)
                        EO_MADC(16, 17, 28, 36) EO_MADC(18, 19, 30, 36)
                            EO_MADC(20, 21, 32, 36) EO_MADC(22, 23, 34, 36)
        "addc.u32 %11, %11, 0;"
        : GPU_FP_EO_X, GPU_FP_EO_Y
        : GPU_FP_EO_A, "r"(b));
}

/* The result of the last row, v at limb 0 with v_0 = 0 and u at limb 1: u + v / 2^32 < 2p,
 * reduced once */
static __device__ __forceinline__ gpu_fp gpu_fp_eo_merge_(const uint32_t *u, const uint32_t *v)
{
    uint32_t r[12];
    asm("add.cc.u32 %0, %12, %25;\n\t"
        "addc.cc.u32 %1, %13, %26;\n\t"
        "addc.cc.u32 %2, %14, %27;\n\t"
        "addc.cc.u32 %3, %15, %28;\n\t"
        "addc.cc.u32 %4, %16, %29;\n\t"
        "addc.cc.u32 %5, %17, %30;\n\t"
        "addc.cc.u32 %6, %18, %31;\n\t"
        "addc.cc.u32 %7, %19, %32;\n\t"
        "addc.cc.u32 %8, %20, %33;\n\t"
        "addc.cc.u32 %9, %21, %34;\n\t"
        "addc.cc.u32 %10, %22, %35;\n\t"
        "addc.u32 %11, %23, 0;"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]),
          "=r"(r[7]), "=r"(r[8]), "=r"(r[9]), "=r"(r[10]), "=r"(r[11])
        : "r"(u[0]), "r"(u[1]), "r"(u[2]), "r"(u[3]), "r"(u[4]), "r"(u[5]), "r"(u[6]),
          "r"(u[7]), "r"(u[8]), "r"(u[9]), "r"(u[10]), "r"(u[11]), "r"(v[0]), "r"(v[1]),
          "r"(v[2]), "r"(v[3]), "r"(v[4]), "r"(v[5]), "r"(v[6]), "r"(v[7]), "r"(v[8]),
          "r"(v[9]), "r"(v[10]), "r"(v[11]));
    return gpu_fp_reduce_once_(r);
}

static __device__ __forceinline__ gpu_fp gpu_fp_mul(gpu_fp av, gpu_fp bv)
{
    const uint32_t *a = av.l, *b = bv.l;
    uint32_t u[12], v[12];
    gpu_fp_eo_first_(u, v, a, b[0]);
    gpu_fp_eo_reduce_(u, v);
#pragma unroll
    for (int i = 1; i < 12; i += 2) {
        gpu_fp_eo_row_(u, v, a, b[i]); /* now v is at limb 0 */
        gpu_fp_eo_reduce_(v, u);
        if (i + 1 < 12) {
            gpu_fp_eo_row_(v, u, a, b[i + 1]); /* u at limb 0 again */
            gpu_fp_eo_reduce_(u, v);
        }
    }
    /* after 12 rows: v at limb 0 with v_0 = 0, u at limb 1 */
    return gpu_fp_eo_merge_(u, v);
}

/* gpu_fp_sqr: the same rows with each cross product computed once (generated) */
#include "gpu/fp_sqr.cuh"

#endif /* CUZK_GPU_FP_CUH */
