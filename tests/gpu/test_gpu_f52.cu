/*
 * test_gpu_f52.cu — the FP64-pipe Montgomery multiplier (tests/gpu/f52.cuh, an experiment)
 * against the host's Fr and Fp multiplication, bit for bit: fresh random operands and edges (0, 1,
 * m-1, m-2 in raw and Montgomery form), converted from the host's 64-bit words to 52-bit
 * limbs and back on the device (expect_fr/_fp say how the Montgomery radices differ).
 * `--bench`: throughput of the integer and f52 multipliers and of both interleaved in one
 * thread (operands in registers): the measurement that kept the MSM and NTT on the
 * integer multiplier.
 * Single-threaded host; one kernel launch per family.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/ff.h"
extern "C" {
#include "test_rng.h"
}
#include "gpu_test.h"
#include "f52.cuh"
#include "gpu/fp.cuh"
#include "gpu/fr.cuh"

/* out = words(f52_mul(limbs(a), limbs(b))) */
template <class F, int W>
__global__ void f52_kernel(uint64_t *out, const uint64_t *a, const uint64_t *b, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x[F::N], y[F::N];
    f52_from_words<F::N, W>(x, a + W * i);
    f52_from_words<F::N, W>(y, b + W * i);
    f52_mul<F>(x, x, y);
    f52_to_words<F::N, W>(out + W * i, x);
}

/* The host's Montgomery product is a*b/2^(64W); f52's is a*b/2^(52N), 2^s times smaller
 * (s = 52N - 64W: 4 for Fr, 32 for Fp). mont(c, 2^(64W - s)) = c / 2^s, the raw constant
 * being below the modulus in both fields. */
static void expect_fr(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b)
{
    cuzk_fr k = {{0, 0, 0, 1ull << 60}}; /* 2^252 */
    cuzk_fr_mul(r, a, b);
    cuzk_fr_mul(r, r, &k);
}
static void expect_fp(cuzk_fp *r, const cuzk_fp *a, const cuzk_fp *b)
{
    cuzk_fp k = {{0, 0, 0, 0, 0, 1ull << 32}}; /* 2^352 */
    cuzk_fp_mul(r, a, b);
    cuzk_fp_mul(r, r, &k);
}

/* fresh random operands; the first 36 pairs are the edges 0, 1, m-1, m-2 (raw) and the
 * Montgomery forms of 1 and -1, each against each */
template <class T, class F52, int W>
static void test_field(const char *name, size_t n, const uint64_t *mod, const T *one,
                       void (*neg)(T *, const T *), void (*rnd)(T *),
                       void (*expect)(T *, const T *, const T *))
{
    T *a = (T *)malloc(n * sizeof(T)), *b = (T *)malloc(n * sizeof(T));
    T *got = (T *)malloc(n * sizeof(T)), e[6];
    memset(e, 0, sizeof e);
    e[1].l[0] = 1;
    memcpy(e[2].l, mod, sizeof e[2].l);
    e[2].l[0] -= 1;
    memcpy(e[3].l, mod, sizeof e[3].l);
    e[3].l[0] -= 2;
    e[4] = *one;
    neg(&e[5], one);
    for (size_t i = 0; i < n; i++) {
        rnd(&a[i]);
        rnd(&b[i]);
        if (i < 36) {
            a[i] = e[i / 6];
            b[i] = e[i % 6];
        }
    }
    uint64_t *da, *db, *dout;
    CK(cudaMalloc(&da, n * sizeof(T)));
    CK(cudaMalloc(&db, n * sizeof(T)));
    CK(cudaMalloc(&dout, n * sizeof(T)));
    CK(cudaMemcpy(da, a, n * sizeof(T), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b, n * sizeof(T), cudaMemcpyHostToDevice));
    f52_kernel<F52, W><<<(unsigned)((n + 127) / 128), 128>>>(dout, da, db, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(got, dout, n * sizeof(T), cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        T want;
        expect(&want, &a[i], &b[i]);
        if (memcmp(&want, &got[i], sizeof want) != 0 && bad++ < 10)
            GPU_CHECK(0, "%s f52 mul differs at %zu", name, i);
    }
    GPU_CHECK(bad == 0, "%s: %zu of %zu differ", name, bad, n);
    printf("[gpu_f52] %s: %zu products\n", name, n);
    free(a);
    free(b);
    free(got);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dout);
}

#include "bench_gpu_f52.cuh"

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--bench") == 0) {
        GPU_TEST_BEGIN("gpu_f52_bench");
        bench_f52();
        GPU_TEST_END();
    }
    GPU_TEST_BEGIN("gpu_f52");
    const char *it = getenv("CUZK_TEST_ITERS");
    size_t n = it ? strtoull(it, NULL, 10) : 100000;
    if (n < 64)
        n = 64;
    test_field<cuzk_fr, f52_fr, 4>("fr", n, CUZK_FR_MODULUS, &CUZK_FR_ONE, cuzk_fr_neg,
                                   test_rand_fr, expect_fr);
    test_field<cuzk_fp, f52_fp, 6>("fp", n, CUZK_FP_MODULUS, &CUZK_FP_ONE, cuzk_fp_neg,
                                   test_rand_fp, expect_fp);
    GPU_TEST_END();
}
