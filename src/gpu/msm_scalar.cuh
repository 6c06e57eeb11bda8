/*
 * msm_scalar.cuh — what the MSM kernels need of Fr scalars, and nothing more: the
 * Montgomery -> canonical conversion (a Montgomery reduction of the 8x32-bit limbs, i.e.
 * multiplication by 1), the 0 / 1 tests of the 0/1 split, and the signed (Booth) digit of
 * a window. Private to src/gpu/msm*; the full device Fr lives in fr.cuh.
 * Threading: pure per-thread functions.
 */
#ifndef CUZK_GPU_MSM_SCALAR_CUH
#define CUZK_GPU_MSM_SCALAR_CUH

#include <stdint.h>

/* r, little-endian 32-bit limbs (the host's CUZK_FR_MODULUS) */
#define MSM_FR_R_LIMBS                                                                    \
    {0x00000001u, 0xffffffffu, 0xfffe5bfeu, 0x53bda402u, 0x09a1d805u, 0x3339d808u,        \
     0x299d7d48u, 0x73eda753u}
/* R mod r, the Montgomery form of 1 (the host's CUZK_FR_ONE) */
#define MSM_FR_ONE_LIMBS                                                                  \
    {0xfffffffeu, 0x00000001u, 0x00034802u, 0x5884b7fau, 0xecbc4ff5u, 0x998c4fefu,        \
     0xacc5056fu, 0x1824b159u}
/* -r^-1 mod 2^32 (r = 1 mod 2^32) */
#define MSM_FR_RINV 0xffffffffu

typedef struct msm_scalar { uint32_t l[8]; } msm_scalar;

/* Canonical value of a Montgomery scalar: REDC(a) = a R^-1 mod r. For a < r the result
 * (a + M r) / R is already < r; the final conditional subtraction keeps any a < R
 * reduced too. */
static __device__ __forceinline__ msm_scalar msm_scalar_from_mont(msm_scalar a)
{
    const uint32_t r[8] = MSM_FR_R_LIMBS;
    uint32_t t[9];
#pragma unroll
    for (int i = 0; i < 8; i++)
        t[i] = a.l[i];
    t[8] = 0;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        uint32_t m = t[0] * MSM_FR_RINV;
        uint64_t c = ((uint64_t)m * r[0] + t[0]) >> 32;
#pragma unroll
        for (int j = 1; j < 8; j++) {
            c += (uint64_t)m * r[j] + t[j];
            t[j - 1] = (uint32_t)c;
            c >>= 32;
        }
        c += t[8];
        t[7] = (uint32_t)c;
        t[8] = (uint32_t)(c >> 32);
    }
    /* t - r when t >= r */
    msm_scalar d;
    uint64_t borrow = 0;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        uint64_t v = (uint64_t)t[i] - r[i] - borrow;
        d.l[i] = (uint32_t)v;
        borrow = (v >> 63) & 1;
    }
    bool keep = t[8] == 0 && borrow;
#pragma unroll
    for (int i = 0; i < 8; i++)
        d.l[i] = keep ? t[i] : d.l[i];
    return d;
}

static __device__ __forceinline__ bool msm_scalar_is_zero(const msm_scalar &a)
{
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < 8; i++)
        acc |= a.l[i];
    return acc == 0;
}

/* Montgomery one compares as raw limbs: both it and the input are reduced */
static __device__ __forceinline__ bool msm_scalar_is_mont_one(const msm_scalar &a)
{
    const uint32_t one[8] = MSM_FR_ONE_LIMBS;
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < 8; i++)
        acc |= a.l[i] ^ one[i];
    return acc == 0;
}

/*
 * Signed digit j of canonical k for window width c (c + 1 <= 32), exactly the host's
 * msm_booth_digit: d_j = sum_{i<c-1} b_{jc+i} 2^i - b_{jc+c-1} 2^(c-1) + b_{jc-1}
 * (b_{-1} = 0), in [-2^(c-1), 2^(c-1)]; sum_j d_j 2^(jc) = k. k: 8 canonical limbs, limb l
 * at k[l * stride] (read directly from memory: only the two limbs holding the window are
 * loaded; the MSM keeps its scalars limb-major, stride n, so that a warp's loads of one
 * window are two contiguous runs).
 */
static __device__ __forceinline__ int32_t msm_booth_digit(const uint32_t *k, size_t stride,
                                                          unsigned j, unsigned c)
{
    uint64_t v;
    const uint64_t mask = ((uint64_t)1 << (c + 1)) - 1;
    if (j == 0) {
        v = ((uint64_t)k[0] << 1) & mask;
    } else {
        unsigned p = j * c - 1;
        unsigned li = p / 32, sh = p % 32;
        uint64_t lo = li < 8 ? k[li * stride] : 0;
        uint64_t hi = li + 1 < 8 ? k[(li + 1) * stride] : 0;
        v = ((hi << 32 | lo) >> sh) & mask;
    }
    int32_t top = (int32_t)(v >> c);
    return (int32_t)(v >> 1) - (top << c) + (int32_t)(v & 1);
}

#endif /* CUZK_GPU_MSM_SCALAR_CUH */
