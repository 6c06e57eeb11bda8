/*
 * f52.cuh — Montgomery multiplication on the FP64 pipe (CUDA C++, device only, header
 * only). An experiment kept with its test and bench (test_gpu_f52) so the measurement can
 * be repeated on other cards; the library does not use it: on the H200 it is slower than
 * the integer multiplier, alone and interleaved with it (docs/perf.md, session 10).
 *
 * Why it was tried: the integer multiplier is the floor of both the MSM and the NTT,
 * while the FP64 pipe, nominally as wide as the IMAD pipe on sm_90, idles.
 *
 * An element is N limbs of 52 bits held exactly in doubles (R = 2^(52N)). A 52x52
 * partial product a*b < 2^104 is split exactly into its halves by two FMAs:
 *     h = fma_rz(a, b, 2^104)           = 2^104 + H*2^52,  H = floor(a*b / 2^52)
 *     l = fma(a, b, (2^104 + 2^52) - h) = 2^52 + L,  L = a*b - H*2^52 in [0, 2^52)
 * (the subtraction and the second FMA are exact: three FP64 operations a product).
 * h and l have fixed exponents, so their bit patterns are a constant plus H or L: column
 * sums are integer adds of the patterns, and the constants of every term a column
 * receives are subtracted once, up front (they are multiples of 2^52, so the low 52 bits
 * of a column are right at any time). Reduction is separated (SOS): row i takes
 * m = t_i * q mod 2^52 (the same split), adds m * p, and passes t_i >> 52 up. The result
 * is < 2p, then one conditional subtraction: every output is fully reduced, like the
 * integer code.
 *
 * Threading: pure functions on registers.
 */
#ifndef CUZK_TEST_GPU_F52_CUH
#define CUZK_TEST_GPU_F52_CUH

#include <stdint.h>

#define F52_FN __device__ __forceinline__
#define F52_FMA_RZ(a, b, c) __fma_rz(a, b, c)
#define F52_FMA_RN(a, b, c) __fma_rn(a, b, c)
#define F52_SUB(a, b) __dsub_rn(a, b)
#define F52_BITS(d) ((uint64_t)__double_as_longlong(d))
#define F52_DBL(u) __longlong_as_double((long long)(u))

#define F52_MASK 0x000fffffffffffffull
#define F52_B52 0x4330000000000000ull  /* bits of 2^52 */
#define F52_B104 0x4670000000000000ull /* bits of 2^104 */
#define F52_2P52 4503599627370496.0
#define F52_2P104 20282409603651670423947251286016.0
#define F52_2P104_2P52 20282409603651674927546878656512.0 /* 2^104 + 2^52, exact */

/* The fields: limb count, modulus limbs and -modulus^-1 mod 2^52. */
struct f52_fr {
    static const int N = 5;
    F52_FN static uint64_t m(int i)
    {
        return i == 0   ? 0xfffff00000001ull
               : i == 1 ? 0x2fffe5bfefffull
               : i == 2 ? 0x9a1d80553bda4ull
               : i == 3 ? 0x7d483339d8080ull
                        : 0x73eda753299dull;
    }
    static const uint64_t q = 0xffffeffffffffull;
};
struct f52_fp {
    static const int N = 8;
    F52_FN static uint64_t m(int i)
    {
        return i == 0   ? 0xeffffffffaaabull
               : i == 1 ? 0xfeb153ffffb9full
               : i == 2 ? 0x6b0f6241eabffull
               : i == 3 ? 0x12bf6730d2a0full
               : i == 4 ? 0x764774b84f385ull
               : i == 5 ? 0x1ba7b6434bacdull
               : i == 6 ? 0x1ea397fe69a4bull
                        : 0x1a011ull;
    }
    static const uint64_t q = 0x3fffcfffcfffdull;
};

/* x < 2^52 as a double, exactly */
F52_FN double f52_from_u(uint64_t x) { return F52_SUB(F52_DBL(x | F52_B52), F52_2P52); }
/* an integral double in [0, 2^52) back to the integer */
F52_FN uint64_t f52_to_u(double d) { return F52_BITS(d + F52_2P52) & F52_MASK; }

/* terms a column k of a 2N-column product receives from N x N pairs (i + j = k) */
F52_FN int f52_pairs(int N, int k)
{
    return k < 0 || k > 2 * N - 2 ? 0 : k < N ? k + 1 : 2 * N - 1 - k;
}

/* one partial product x*y added to columns lo (L) and hi (H) as bit patterns */
F52_FN void f52_pp(uint64_t *lo, uint64_t *hi, double x, double y)
{
    double h = F52_FMA_RZ(x, y, F52_2P104);
    double l = F52_FMA_RN(x, y, F52_SUB(F52_2P104_2P52, h)); /* + (1 - H) 2^52, exact */
    *lo += F52_BITS(l);
    *hi += F52_BITS(h);
}

/* r = a * b / 2^(52N) mod p, a, b < p in limbs < 2^52; r fully reduced. r may alias a, b. */
template <class F> F52_FN void f52_mul(double *r, const double *a, const double *b)
{
    const int N = F::N;
    uint64_t t[2 * N];
    /* every column gets its pairs twice (product and reduction): L terms from pairs
     * summing to k, H terms from pairs summing to k - 1 */
#pragma unroll
    for (int k = 0; k < 2 * N; k++)
        t[k] = 0ull - 2ull * (uint64_t)f52_pairs(N, k) * F52_B52 -
               2ull * (uint64_t)f52_pairs(N, k - 1) * F52_B104;
#pragma unroll
    for (int i = 0; i < N; i++)
#pragma unroll
        for (int j = 0; j < N; j++)
            f52_pp(&t[i + j], &t[i + j + 1], a[i], b[j]);
#pragma unroll
    for (int i = 0; i < N; i++) {
        double ti = f52_from_u(t[i] & F52_MASK);
        const double q = (double)F::q;
        double h = F52_FMA_RZ(ti, q, F52_2P104);
        double m = F52_FMA_RN(ti, q, -F52_SUB(h, F52_2P104)); /* t_i * q mod 2^52, exact */
#pragma unroll
        for (int j = 0; j < N; j++)
            f52_pp(&t[i + j], &t[i + j + 1], m, (double)F::m(j));
        t[i + 1] += t[i] >> 52; /* t_i is complete and a multiple of 2^52 */
    }
    uint64_t x[N], d[N], bw = 0;
#pragma unroll
    for (int k = 0; k < N; k++) {
        x[k] = t[N + k] & F52_MASK;
        if (k + 1 < N)
            t[N + k + 1] += t[N + k] >> 52;
        uint64_t s = x[k] - F::m(k) - bw;
        bw = s >> 63;
        d[k] = s & F52_MASK;
    }
#pragma unroll
    for (int k = 0; k < N; k++)
        r[k] = f52_from_u(bw ? x[k] : d[k]);
}

/* 64-bit little-endian words <-> 52-bit limbs (words: ceil(52N/64) read, bits above the
 * words' end are zero) */
template <int N, int W> F52_FN void f52_from_words(double *r, const uint64_t *w)
{
#pragma unroll
    for (int k = 0; k < N; k++) {
        const int bit = 52 * k, i = bit / 64, off = bit % 64;
        uint64_t v = i < W ? w[i] >> off : 0;
        if (off > 12 && i + 1 < W)
            v |= w[i + 1] << (64 - off);
        r[k] = f52_from_u(v & F52_MASK);
    }
}
template <int N, int W> F52_FN void f52_to_words(uint64_t *w, const double *a)
{
    uint64_t x[N];
#pragma unroll
    for (int k = 0; k < N; k++)
        x[k] = f52_to_u(a[k]);
#pragma unroll
    for (int i = 0; i < W; i++) {
        uint64_t v = 0;
#pragma unroll
        for (int k = 0; k < N; k++) {
            const int lo = 52 * k - 64 * i; /* limb k's bit 0 within word i */
            if (lo >= 64 || lo <= -52)
                continue;
            v |= lo >= 0 ? x[k] << lo : x[k] >> -lo;
        }
        w[i] = v;
    }
}

#endif /* CUZK_TEST_GPU_F52_CUH */
