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
 * Cost: 8 rows x (16 + 14 mad + 4) + final subtraction, about 290 integer instructions.
 *
 * Threading: pure functions on registers; safe in any thread.
 */
#ifndef CUZK_GPU_FR_CUH
#define CUZK_GPU_FR_CUH

#include <stdint.h>

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
 * One CIOS row: t[0..8] += a * b, then t += m * r with m = -t0 (the low limb becomes 0:
 * only its carry, t0 != 0, is computed). The caller drops t0 and continues on t[1..9];
 * t8 must be 0 on entry (the accumulator is < 2r < 2^256 between rows).
 * r1 = 2^32 - 1, so lo(m * r1) = -m = t0: an add instead of a multiply-add.
 */
__device__ __forceinline__ void gpu_fr_row_(uint32_t &t0, uint32_t &t1, uint32_t &t2,
                                            uint32_t &t3, uint32_t &t4, uint32_t &t5,
                                            uint32_t &t6, uint32_t &t7, uint32_t &t8,
                                            const uint32_t a[8], uint32_t b)
{
    asm("{\n\t.reg .u32 m, z;\n\t"
        "mad.lo.cc.u32  %0, %9, %17, %0;\n\t"
        "madc.lo.cc.u32 %1, %10, %17, %1;\n\t"
        "madc.lo.cc.u32 %2, %11, %17, %2;\n\t"
        "madc.lo.cc.u32 %3, %12, %17, %3;\n\t"
        "madc.lo.cc.u32 %4, %13, %17, %4;\n\t"
        "madc.lo.cc.u32 %5, %14, %17, %5;\n\t"
        "madc.lo.cc.u32 %6, %15, %17, %6;\n\t"
        "madc.lo.cc.u32 %7, %16, %17, %7;\n\t"
        "addc.u32       %8, %8, 0;\n\t"
        "mad.hi.cc.u32  %1, %9, %17, %1;\n\t"
        "madc.hi.cc.u32 %2, %10, %17, %2;\n\t"
        "madc.hi.cc.u32 %3, %11, %17, %3;\n\t"
        "madc.hi.cc.u32 %4, %12, %17, %4;\n\t"
        "madc.hi.cc.u32 %5, %13, %17, %5;\n\t"
        "madc.hi.cc.u32 %6, %14, %17, %6;\n\t"
        "madc.hi.cc.u32 %7, %15, %17, %7;\n\t"
        "madc.hi.u32    %8, %16, %17, %8;\n\t"
        "neg.s32 m, %0;\n\t"
        "add.cc.u32     z, %0, m;\n\t"
        "addc.cc.u32    %1, %1, %0;\n\t"
        "madc.lo.cc.u32 %2, m, " GPU_FR_RS2 ", %2;\n\t"
        "madc.lo.cc.u32 %3, m, " GPU_FR_RS3 ", %3;\n\t"
        "madc.lo.cc.u32 %4, m, " GPU_FR_RS4 ", %4;\n\t"
        "madc.lo.cc.u32 %5, m, " GPU_FR_RS5 ", %5;\n\t"
        "madc.lo.cc.u32 %6, m, " GPU_FR_RS6 ", %6;\n\t"
        "madc.lo.cc.u32 %7, m, " GPU_FR_RS7 ", %7;\n\t"
        "addc.u32       %8, %8, 0;\n\t"
        "mad.hi.cc.u32  %2, m, " GPU_FR_RS1 ", %2;\n\t"
        "madc.hi.cc.u32 %3, m, " GPU_FR_RS2 ", %3;\n\t"
        "madc.hi.cc.u32 %4, m, " GPU_FR_RS3 ", %4;\n\t"
        "madc.hi.cc.u32 %5, m, " GPU_FR_RS4 ", %5;\n\t"
        "madc.hi.cc.u32 %6, m, " GPU_FR_RS5 ", %6;\n\t"
        "madc.hi.cc.u32 %7, m, " GPU_FR_RS6 ", %7;\n\t"
        "madc.hi.u32    %8, m, " GPU_FR_RS7 ", %8;\n\t}"
        : "+r"(t0), "+r"(t1), "+r"(t2), "+r"(t3), "+r"(t4), "+r"(t5), "+r"(t6), "+r"(t7),
          "+r"(t8)
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]),
          "r"(a[7]), "r"(b));
}

/* r = a * b * R^-1 mod r (Montgomery product), fully reduced. r may alias a or b. */
__device__ __forceinline__ void gpu_fr_mul(gpu_fr *r, const gpu_fr *a, const gpu_fr *b)
{
    uint32_t x[8], y[8], t[17];
#pragma unroll
    for (int i = 0; i < 8; i++) {
        x[i] = a->l[i];
        y[i] = b->l[i];
    }
#pragma unroll
    for (int i = 0; i < 17; i++)
        t[i] = 0;
#pragma unroll
    for (int i = 0; i < 8; i++)
        gpu_fr_row_(t[i], t[i + 1], t[i + 2], t[i + 3], t[i + 4], t[i + 5], t[i + 6], t[i + 7],
                    t[i + 8], x, y[i]);
    /* t[8..15] < 2r; t[16] = 0 */
    gpu_fr_csub_(t + 8);
#pragma unroll
    for (int i = 0; i < 8; i++)
        r->l[i] = t[8 + i];
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
