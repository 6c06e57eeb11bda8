/*
 * fr.cuh — device arithmetic in the BLS12-381 scalar field Fr (CUDA C, header only).
 *
 * Representation: exactly the host's cuzk_fr bytes. A cuzk_fr is 4 little-endian 64-bit
 * limbs of a*R mod r (R = 2^256); read as 8 little-endian 32-bit limbs it is a gpu_fr, so
 * device buffers of cuzk_fr are reinterpreted, never converted. Every function returns a
 * fully reduced value (< r), so results are bit-identical to the host's cuzk_fr_*.
 *
 * Multiplication is CIOS Montgomery with 32-bit limbs in inline PTX. Each carry chain
 * lives inside one asm statement, so nothing depends on the carry flag surviving between
 * statements. Facts used (r = 0x73eda753...00000001):
 *   - r < 2^255: the CIOS accumulator stays below 2r + 2r*2^32 < 2^288, i.e. 9 limbs, and
 *     the result before the final subtraction is < 2r.
 *   - r = 1 mod 2^32, so -r^-1 mod 2^32 = 0xffffffff: the reduction multiplier of a row is
 *     m = -t0 (a negation, no multiplication), lo(m * r0) = m and hi(m * r0) = 0.
 *
 * Threading: pure functions on registers; safe in any thread.
 */
#ifndef CUZK_GPU_FR_CUH
#define CUZK_GPU_FR_CUH

#include <stdint.h>

#include "gpu/mont_eo.cuh"

typedef struct {
    uint32_t l[8];
} gpu_fr;

/* r in 32-bit limbs, little-endian (CUZK_FR_MODULUS split in halves). */
#define GPU_FR_R0 0x00000001u
#define GPU_FR_R1 0xffffffffu
#define GPU_FR_R2 0xfffe5bfeu
#define GPU_FR_R3 0x53bda402u
#define GPU_FR_R4 0x09a1d805u
#define GPU_FR_R5 0x3339d808u
#define GPU_FR_R6 0x299d7d48u
#define GPU_FR_R7 0x73eda753u
#define GPU_FR_RS1 "0xffffffff"
#define GPU_FR_RS2 "0xfffe5bfe"
#define GPU_FR_RS3 "0x53bda402"
#define GPU_FR_RS4 "0x09a1d805"
#define GPU_FR_RS5 "0x3339d808"
#define GPU_FR_RS6 "0x299d7d48"
#define GPU_FR_RS7 "0x73eda753"

__device__ __forceinline__ void gpu_fr_zero(gpu_fr *r)
{
#pragma unroll
    for (int i = 0; i < 8; i++)
        r->l[i] = 0;
}

/* Montgomery one, R mod r (CUZK_FR_ONE). */
__device__ __forceinline__ void gpu_fr_one(gpu_fr *r)
{
    r->l[0] = 0xfffffffeu;
    r->l[1] = 0x00000001u;
    r->l[2] = 0x00034802u;
    r->l[3] = 0x5884b7fau;
    r->l[4] = 0xecbc4ff5u;
    r->l[5] = 0x998c4fefu;
    r->l[6] = 0xacc5056fu;
    r->l[7] = 0x1824b159u;
}

__device__ __forceinline__ bool gpu_fr_is_zero(const gpu_fr *a)
{
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < 8; i++)
        acc |= a->l[i];
    return acc == 0;
}

__device__ __forceinline__ bool gpu_fr_eq(const gpu_fr *a, const gpu_fr *b)
{
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < 8; i++)
        acc |= a->l[i] ^ b->l[i];
    return acc == 0;
}

/* x (< 2r, 8 limbs) -> x mod r, in place. */
__device__ __forceinline__ void gpu_fr_csub_(uint32_t x[8])
{
    uint32_t d[8], bw;
#pragma unroll
    for (int i = 0; i < 8; i++)
        d[i] = x[i];
    asm("sub.cc.u32  %0, %0, 1;\n\t"
        "subc.cc.u32 %1, %1, " GPU_FR_RS1 ";\n\t"
        "subc.cc.u32 %2, %2, " GPU_FR_RS2 ";\n\t"
        "subc.cc.u32 %3, %3, " GPU_FR_RS3 ";\n\t"
        "subc.cc.u32 %4, %4, " GPU_FR_RS4 ";\n\t"
        "subc.cc.u32 %5, %5, " GPU_FR_RS5 ";\n\t"
        "subc.cc.u32 %6, %6, " GPU_FR_RS6 ";\n\t"
        "subc.cc.u32 %7, %7, " GPU_FR_RS7 ";\n\t"
        "subc.u32    %8, 0, 0;"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]),
          "+r"(d[7]), "=r"(bw));
    /* bw = 0xffffffff when x < r: keep x */
#pragma unroll
    for (int i = 0; i < 8; i++)
        x[i] = bw ? x[i] : d[i];
}

__device__ __forceinline__ void gpu_fr_add(gpu_fr *r, const gpu_fr *a, const gpu_fr *b)
{
    uint32_t s[8];
#pragma unroll
    for (int i = 0; i < 8; i++)
        s[i] = a->l[i];
    /* a + b < 2r < 2^256: no carry out */
    asm("add.cc.u32  %0, %0, %8;\n\t"
        "addc.cc.u32 %1, %1, %9;\n\t"
        "addc.cc.u32 %2, %2, %10;\n\t"
        "addc.cc.u32 %3, %3, %11;\n\t"
        "addc.cc.u32 %4, %4, %12;\n\t"
        "addc.cc.u32 %5, %5, %13;\n\t"
        "addc.cc.u32 %6, %6, %14;\n\t"
        "addc.u32    %7, %7, %15;"
        : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3]), "+r"(s[4]), "+r"(s[5]), "+r"(s[6]),
          "+r"(s[7])
        : "r"(b->l[0]), "r"(b->l[1]), "r"(b->l[2]), "r"(b->l[3]), "r"(b->l[4]), "r"(b->l[5]),
          "r"(b->l[6]), "r"(b->l[7]));
    gpu_fr_csub_(s);
#pragma unroll
    for (int i = 0; i < 8; i++)
        r->l[i] = s[i];
}

__device__ __forceinline__ void gpu_fr_dbl(gpu_fr *r, const gpu_fr *a) { gpu_fr_add(r, a, a); }

__device__ __forceinline__ void gpu_fr_sub(gpu_fr *r, const gpu_fr *a, const gpu_fr *b)
{
    uint32_t d[8], bw;
#pragma unroll
    for (int i = 0; i < 8; i++)
        d[i] = a->l[i];
    asm("sub.cc.u32  %0, %0, %9;\n\t"
        "subc.cc.u32 %1, %1, %10;\n\t"
        "subc.cc.u32 %2, %2, %11;\n\t"
        "subc.cc.u32 %3, %3, %12;\n\t"
        "subc.cc.u32 %4, %4, %13;\n\t"
        "subc.cc.u32 %5, %5, %14;\n\t"
        "subc.cc.u32 %6, %6, %15;\n\t"
        "subc.cc.u32 %7, %7, %16;\n\t"
        "subc.u32    %8, 0, 0;"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]),
          "+r"(d[7]), "=r"(bw)
        : "r"(b->l[0]), "r"(b->l[1]), "r"(b->l[2]), "r"(b->l[3]), "r"(b->l[4]), "r"(b->l[5]),
          "r"(b->l[6]), "r"(b->l[7]));
    /* borrow: add r back (r & bw, limb by limb; and.b32 leaves the carry flag alone) */
    asm("{\n\t.reg .u32 t;\n\t"
        "and.b32 t, %8, 1;\n\t"
        "add.cc.u32  %0, %0, t;\n\t"
        "and.b32 t, %8, " GPU_FR_RS1 ";\n\t"
        "addc.cc.u32 %1, %1, t;\n\t"
        "and.b32 t, %8, " GPU_FR_RS2 ";\n\t"
        "addc.cc.u32 %2, %2, t;\n\t"
        "and.b32 t, %8, " GPU_FR_RS3 ";\n\t"
        "addc.cc.u32 %3, %3, t;\n\t"
        "and.b32 t, %8, " GPU_FR_RS4 ";\n\t"
        "addc.cc.u32 %4, %4, t;\n\t"
        "and.b32 t, %8, " GPU_FR_RS5 ";\n\t"
        "addc.cc.u32 %5, %5, t;\n\t"
        "and.b32 t, %8, " GPU_FR_RS6 ";\n\t"
        "addc.cc.u32 %6, %6, t;\n\t"
        "and.b32 t, %8, " GPU_FR_RS7 ";\n\t"
        "addc.u32    %7, %7, t;\n\t}"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]),
          "+r"(d[7])
        : "r"(bw));
#pragma unroll
    for (int i = 0; i < 8; i++)
        r->l[i] = d[i];
}

__device__ __forceinline__ void gpu_fr_neg(gpu_fr *r, const gpu_fr *a)
{
    uint32_t d[8] = {GPU_FR_R0, GPU_FR_R1, GPU_FR_R2, GPU_FR_R3,
                     GPU_FR_R4, GPU_FR_R5, GPU_FR_R6, GPU_FR_R7};
    asm("sub.cc.u32  %0, %0, %8;\n\t"
        "subc.cc.u32 %1, %1, %9;\n\t"
        "subc.cc.u32 %2, %2, %10;\n\t"
        "subc.cc.u32 %3, %3, %11;\n\t"
        "subc.cc.u32 %4, %4, %12;\n\t"
        "subc.cc.u32 %5, %5, %13;\n\t"
        "subc.cc.u32 %6, %6, %14;\n\t"
        "subc.u32    %7, %7, %15;"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]),
          "+r"(d[7])
        : "r"(a->l[0]), "r"(a->l[1]), "r"(a->l[2]), "r"(a->l[3]), "r"(a->l[4]), "r"(a->l[5]),
          "r"(a->l[6]), "r"(a->l[7]));
    /* -0 = 0, not r */
    uint32_t mask = gpu_fr_is_zero(a) ? 0u : 0xffffffffu;
#pragma unroll
    for (int i = 0; i < 8; i++)
        r->l[i] = d[i] & mask;
}

/*
 * Multiplication keeps the CIOS accumulator as two arrays, x at limb 0 and y one limb
 * higher (t = x + 2^32 y), so that each 32x32 product adds into one aligned register pair
 * (mont_eo.cuh says why; fp.cuh's gpu_fp_mul is the same scheme on 12 limbs). Bounds:
 * a, b < r < 2^255, so t < 2^33 r < 2^288 at every step; y (from limb 1) is at most
 * t / 2^32 < 2^256 and never carries out of its 8 limbs.
 * r0 = 1, so m * r0 = m: the reduction's first pair is an addition.
 * (r1 = 2^32 - 1 would allow the same for the second pair - m * r1 has halves x_0 and
 * ~x_0 - but the extra live value took the NTT pass kernel from 80 to 92 registers, one
 * block fewer per SM, and the 2^27 NTT 5 % slower on the H200: not done.)
 */
#define GPU_FR_EO_X                                                                       \
    "+r"(x[0]), "+r"(x[1]), "+r"(x[2]), "+r"(x[3]), "+r"(x[4]), "+r"(x[5]), "+r"(x[6]),   \
        "+r"(x[7])
#define GPU_FR_EO_Y                                                                       \
    "+r"(y[0]), "+r"(y[1]), "+r"(y[2]), "+r"(y[3]), "+r"(y[4]), "+r"(y[5]), "+r"(y[6]),   \
        "+r"(y[7])
#define GPU_FR_EO_A                                                                       \
    "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7])

/* first row: x = a_even * b, y = a_odd * b (x 0-7, y 8-15, a 16-23, b 24) */
__device__ __forceinline__ void gpu_fr_eo_first_(uint32_t *x, uint32_t *y, const uint32_t *a,
                                                 uint32_t b)
{
    asm(EO_MUL(0, 1, 16, 24) EO_MUL(2, 3, 18, 24) EO_MUL(4, 5, 20, 24) EO_MUL(6, 7, 22, 24)
            EO_MUL(8, 9, 17, 24) EO_MUL(10, 11, 19, 24) EO_MUL(12, 13, 21, 24)
                EO_MUL(14, 15, 23, 24)
        : GPU_FR_EO_X, GPU_FR_EO_Y
        : GPU_FR_EO_A, "r"(b));
}

/* t += m * r with m = -x_0 (-r^-1 = -1 mod 2^32), after which x_0 = 0 (x 0-7, y 8-15, m 16) */
__device__ __forceinline__ void gpu_fr_eo_reduce_(uint32_t *x, uint32_t *y)
{
    uint32_t m = 0u - x[0];
    asm(EO_MADI(8, 9, 16, GPU_FR_RS1) EO_MADCI(10, 11, 16, GPU_FR_RS3)
            EO_MADCI(12, 13, 16, GPU_FR_RS5) EO_MADCI_END(14, 15, 16, GPU_FR_RS7)
        "add.cc.u32 %0, %0, %16;\n\t"
        "addc.cc.u32 %1, %1, 0;\n\t" EO_MADCI(2, 3, 16, GPU_FR_RS2)
            EO_MADCI(4, 5, 16, GPU_FR_RS4) EO_MADCI(6, 7, 16, GPU_FR_RS6)
        "addc.u32 %15, %15, 0;"
        : GPU_FR_EO_X, GPU_FR_EO_Y
        : "r"(m));
}

/* next row on a reduced t: t = t / 2^32 + a * b; the part at limb 0 ends in y's registers,
 * the part at limb 1 in x's (x 0-7, y 8-15, a 16-23, b 24) */
__device__ __forceinline__ void gpu_fr_eo_row_(uint32_t *x, uint32_t *y, const uint32_t *a,
                                               uint32_t b)
{
    asm("add.cc.u32 %8, %8, %1;\n\t" EO_MADC_SH(0, 1, 17, 24, 2, 3)
            EO_MADC_SH(2, 3, 19, 24, 4, 5) EO_MADC_SH(4, 5, 21, 24, 6, 7)
                EO_MADC_TOP(6, 7, 23, 24) EO_MAD(8, 9, 16, 24) EO_MADC(10, 11, 18, 24)
                    EO_MADC(12, 13, 20, 24) EO_MADC(14, 15, 22, 24)
        "addc.u32 %7, %7, 0;"
        : GPU_FR_EO_X, GPU_FR_EO_Y
        : GPU_FR_EO_A, "r"(b));
}

/* r = a * b * R^-1 mod r (Montgomery product), fully reduced. r may alias a or b. */
__device__ __forceinline__ void gpu_fr_mul(gpu_fr *r, const gpu_fr *av, const gpu_fr *bv)
{
    uint32_t a[8], b[8], u[8], v[8];
#pragma unroll
    for (int i = 0; i < 8; i++) {
        a[i] = av->l[i];
        b[i] = bv->l[i];
    }
    gpu_fr_eo_first_(u, v, a, b[0]);
    gpu_fr_eo_reduce_(u, v);
#pragma unroll
    for (int i = 1; i < 8; i += 2) {
        gpu_fr_eo_row_(u, v, a, b[i]); /* now v is at limb 0 */
        gpu_fr_eo_reduce_(v, u);
        if (i + 1 < 8) {
            gpu_fr_eo_row_(v, u, a, b[i + 1]); /* u at limb 0 again */
            gpu_fr_eo_reduce_(u, v);
        }
    }
    /* v at limb 0 with v_0 = 0, u at limb 1: the result u + v / 2^32 < 2r */
    uint32_t t[8];
    asm("add.cc.u32 %0, %8, %17;\n\t"
        "addc.cc.u32 %1, %9, %18;\n\t"
        "addc.cc.u32 %2, %10, %19;\n\t"
        "addc.cc.u32 %3, %11, %20;\n\t"
        "addc.cc.u32 %4, %12, %21;\n\t"
        "addc.cc.u32 %5, %13, %22;\n\t"
        "addc.cc.u32 %6, %14, %23;\n\t"
        "addc.u32 %7, %15, 0;"
        : "=r"(t[0]), "=r"(t[1]), "=r"(t[2]), "=r"(t[3]), "=r"(t[4]), "=r"(t[5]), "=r"(t[6]),
          "=r"(t[7])
        : "r"(u[0]), "r"(u[1]), "r"(u[2]), "r"(u[3]), "r"(u[4]), "r"(u[5]), "r"(u[6]),
          "r"(u[7]), "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]), "r"(v[4]), "r"(v[5]),
          "r"(v[6]), "r"(v[7]));
    gpu_fr_csub_(t);
#pragma unroll
    for (int i = 0; i < 8; i++)
        r->l[i] = t[i];
}

__device__ __forceinline__ void gpu_fr_sqr(gpu_fr *r, const gpu_fr *a) { gpu_fr_mul(r, a, a); }

/* Loads and stores of one element as two 16-byte accesses (p must be 16-byte aligned:
 * cudaMalloc'd arrays of cuzk_fr are). */
__device__ __forceinline__ void gpu_fr_load(gpu_fr *r, const gpu_fr *p)
{
    const uint4 *q = reinterpret_cast<const uint4 *>(p);
    uint4 u = q[0], v = q[1];
    r->l[0] = u.x, r->l[1] = u.y, r->l[2] = u.z, r->l[3] = u.w;
    r->l[4] = v.x, r->l[5] = v.y, r->l[6] = v.z, r->l[7] = v.w;
}

/* Read-only data (tables): through the non-coherent cache. */
__device__ __forceinline__ void gpu_fr_load_ro(gpu_fr *r, const gpu_fr *p)
{
    const uint4 *q = reinterpret_cast<const uint4 *>(p);
    uint4 u = __ldg(q), v = __ldg(q + 1);
    r->l[0] = u.x, r->l[1] = u.y, r->l[2] = u.z, r->l[3] = u.w;
    r->l[4] = v.x, r->l[5] = v.y, r->l[6] = v.z, r->l[7] = v.w;
}

__device__ __forceinline__ void gpu_fr_store(gpu_fr *p, const gpu_fr *a)
{
    uint4 *q = reinterpret_cast<uint4 *>(p);
    q[0] = make_uint4(a->l[0], a->l[1], a->l[2], a->l[3]);
    q[1] = make_uint4(a->l[4], a->l[5], a->l[6], a->l[7]);
}

#endif
