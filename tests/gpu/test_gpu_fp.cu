/*
 * test_gpu_fp.cu — device Fp / Fp2 arithmetic (src/gpu/fp.cuh, fp2.cuh) and G1 / G2 point
 * formulas (src/gpu/ec.cuh) against the host layers, bit for bit: fresh random operands
 * (CUZK_TEST_ITERS, default 1e5) plus edge values (0, 1, p-1 in both Montgomery and raw
 * form), and point sums / doublings including P + P, P + (-P) and infinities, compared as
 * affine points after the host converts the device's Jacobian results.
 * Single-threaded host; one kernel launch per family.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
extern "C" {
#include "test_rng.h"
}
#include "gpu_test.h"
#include "gpu/ec.cuh"

static_assert(sizeof(gpu_fp) == sizeof(cuzk_fp), "Fp layout");
static_assert(sizeof(gpu_fp2) == sizeof(cuzk_fp2), "Fp2 layout");
static_assert(sizeof(gpu_g1_aff) == sizeof(cuzk_g1_affine), "G1 affine layout");
static_assert(sizeof(gpu_g2_jac) == sizeof(cuzk_g2_jac), "G2 jac layout");
static_assert(sizeof(gpu_g2_xyzz) == sizeof(cuzk_g2_xyzz), "G2 xyzz layout");

/* ---- fields ------------------------------------------------------------------------- */
#define NOPS 6 /* add sub neg dbl mul sqr */

template <class F>
__global__ void field_kernel(F *out, uint32_t *flags, const F *a, const F *b, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    F x = a[i], y = b[i];
    out[NOPS * i + 0] = gf_add(x, y);
    out[NOPS * i + 1] = gf_sub(x, y);
    out[NOPS * i + 2] = gf_neg(x);
    out[NOPS * i + 3] = gf_dbl(x);
    out[NOPS * i + 4] = gf_mul(x, y);
    out[NOPS * i + 5] = gf_sqr(x);
    flags[i] = (uint32_t)gf_is_zero(x) | (uint32_t)gf_is_zero(y) << 1;
}

static __device__ bool eq_dev(gpu_fp a, gpu_fp b) { return gpu_fp_eq(a, b); }
static __device__ bool eq_dev(gpu_fp2 a, gpu_fp2 b) { return gpu_fp2_eq(a, b); }

template <class F> __global__ void eq_kernel(uint32_t *flags, const F *a, const F *b, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        flags[i] = (uint32_t)eq_dev(a[i], b[i]) | (uint32_t)eq_dev(a[i], a[i]) << 1;
}

static void fp_edges(cuzk_fp *e, int *ne)
{
    uint64_t pm1[6];
    memcpy(pm1, CUZK_FP_MODULUS, sizeof pm1);
    pm1[0] -= 1;
    cuzk_fp one_raw = CUZK_FP_ZERO, pm1_raw, pm1_mont;
    one_raw.l[0] = 1;
    memcpy(pm1_raw.l, pm1, sizeof pm1);
    cuzk_fp_from_canonical(&pm1_mont, pm1);
    e[0] = CUZK_FP_ZERO;
    e[1] = CUZK_FP_ONE;
    e[2] = one_raw;
    e[3] = pm1_raw;
    e[4] = pm1_mont;
    *ne = 5;
}

/* Host reference through function pointers of the cuzk_fp / cuzk_fp2 signature. */
template <class H> struct host_ops {
    void (*add)(H *, const H *, const H *);
    void (*sub)(H *, const H *, const H *);
    void (*neg)(H *, const H *);
    void (*dbl)(H *, const H *);
    void (*mul)(H *, const H *, const H *);
    void (*sqr)(H *, const H *);
    bool (*is_zero)(const H *);
    bool (*eq)(const H *, const H *);
};

template <class H, class F>
static void check_field(const char *name, const H *a, const H *b, size_t n, host_ops<H> ops)
{
    F *da, *db, *dout;
    uint32_t *dflags, *deq;
    CK(cudaMalloc(&da, n * sizeof(F)));
    CK(cudaMalloc(&db, n * sizeof(F)));
    CK(cudaMalloc(&dout, NOPS * n * sizeof(F)));
    CK(cudaMalloc(&dflags, n * sizeof(uint32_t)));
    CK(cudaMalloc(&deq, n * sizeof(uint32_t)));
    CK(cudaMemcpy(da, a, n * sizeof(F), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b, n * sizeof(F), cudaMemcpyHostToDevice));
    unsigned blocks = (unsigned)((n + 127) / 128);
    field_kernel<F><<<blocks, 128>>>(dout, dflags, da, db, n);
    eq_kernel<F><<<blocks, 128>>>(deq, da, db, n);
    CK(cudaGetLastError());
    H *out = (H *)malloc(NOPS * n * sizeof(H));
    uint32_t *flags = (uint32_t *)malloc(n * sizeof(uint32_t));
    uint32_t *eqf = (uint32_t *)malloc(n * sizeof(uint32_t));
    CK(cudaMemcpy(out, dout, NOPS * n * sizeof(H), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(flags, dflags, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(eqf, deq, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    static const char *opn[NOPS] = {"add", "sub", "neg", "dbl", "mul", "sqr"};
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        H r[NOPS];
        ops.add(&r[0], &a[i], &b[i]);
        ops.sub(&r[1], &a[i], &b[i]);
        ops.neg(&r[2], &a[i]);
        ops.dbl(&r[3], &a[i]);
        ops.mul(&r[4], &a[i], &b[i]);
        ops.sqr(&r[5], &a[i]);
        for (int k = 0; k < NOPS; k++)
            if (memcmp(&r[k], &out[NOPS * i + k], sizeof(H)) != 0 && bad++ < 10)
                GPU_CHECK(0, "%s %s differs at %zu", name, opn[k], i);
        uint32_t fz = (uint32_t)ops.is_zero(&a[i]) | (uint32_t)ops.is_zero(&b[i]) << 1;
        uint32_t fe = (uint32_t)ops.eq(&a[i], &b[i]) | 2u;
        if ((fz != flags[i] || fe != eqf[i]) && bad++ < 10)
            GPU_CHECK(0, "%s is_zero/eq differ at %zu", name, i);
    }
    GPU_CHECK(bad == 0, "%s: %zu mismatches in %zu cases", name, bad, n);
    printf("[gpu_fp] %s: %zu cases\n", name, n);
    free(out);
    free(flags);
    free(eqf);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dout);
    cudaFree(dflags);
    cudaFree(deq);
}

static void test_fields(void)
{
    size_t iters = test_iters(100000);
    cuzk_fp e[8];
    int ne;
    fp_edges(e, &ne);
    size_t n = iters + (size_t)(ne * ne);
    cuzk_fp *a = (cuzk_fp *)malloc(n * sizeof *a), *b = (cuzk_fp *)malloc(n * sizeof *b);
    size_t k = 0;
    for (int i = 0; i < ne; i++)
        for (int j = 0; j < ne; j++, k++) {
            a[k] = e[i];
            b[k] = e[j];
        }
    for (; k < n; k++) {
        test_rand_fp(&a[k]);
        if (test_rng_u64() % 16 == 0)
            b[k] = a[k]; /* a == b, a - b = 0 */
        else
            test_rand_fp(&b[k]);
    }
    host_ops<cuzk_fp> fo = {cuzk_fp_add, cuzk_fp_sub, cuzk_fp_neg, cuzk_fp_dbl,
                            cuzk_fp_mul, cuzk_fp_sqr, cuzk_fp_is_zero, cuzk_fp_eq};
    check_field<cuzk_fp, gpu_fp>("fp", a, b, n, fo);

    /* Fp2: every pairing of edge values in both coordinates, then random */
    size_t n2 = iters / 2 + (size_t)(ne * ne * ne);
    cuzk_fp2 *a2 = (cuzk_fp2 *)malloc(n2 * sizeof *a2), *b2 = (cuzk_fp2 *)malloc(n2 * sizeof *b2);
    k = 0;
    for (int i = 0; i < ne; i++)
        for (int j = 0; j < ne; j++)
            for (int l = 0; l < ne; l++, k++) {
                a2[k].c0 = e[i];
                a2[k].c1 = e[j];
                b2[k].c0 = e[l];
                b2[k].c1 = e[(i + l) % ne];
            }
    for (; k < n2; k++) {
        test_rand_fp2(&a2[k]);
        test_rand_fp2(&b2[k]);
    }
    host_ops<cuzk_fp2> f2 = {cuzk_fp2_add, cuzk_fp2_sub, cuzk_fp2_neg, cuzk_fp2_dbl,
                             cuzk_fp2_mul, cuzk_fp2_sqr, cuzk_fp2_is_zero, cuzk_fp2_eq};
    check_field<cuzk_fp2, gpu_fp2>("fp2", a2, b2, n2, f2);
    free(a);
    free(b);
    free(a2);
    free(b2);
}

/* ---- points ------------------------------------------------------------------------- */
#define NPT 7

/* For each pair (a, b), with X = a + b (mixed add from affine a):
 *   0: a + b   1: 2(a + b)   2: 3(a + b) (XYZZ + XYZZ)   3: a + 2b (XYZZ + XYZZ, ZZ = 1)
 *   4: 2(a + b) + b (mixed add, general ZZ)   5: X + X (add detects doubling)
 *   6: X + (-X) (infinity) */
template <class F>
__global__ void point_kernel(gpu_jac<F> *out, const gpu_aff<F> *a, const gpu_aff<F> *b, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    gpu_xyzz<F> pa = gpu_xyzz_from_aff(a[i]);
    gpu_xyzz<F> x = gpu_xyzz_add_aff(pa, b[i]);
    gpu_xyzz<F> y = gpu_xyzz_dbl(x);
    out[NPT * i + 0] = gpu_xyzz_to_jac(x);
    out[NPT * i + 1] = gpu_xyzz_to_jac(y);
    out[NPT * i + 2] = gpu_xyzz_to_jac(gpu_xyzz_add(y, x));
    out[NPT * i + 3] = gpu_xyzz_to_jac(gpu_xyzz_add(x, gpu_xyzz_from_aff(b[i])));
    out[NPT * i + 4] = gpu_xyzz_to_jac(gpu_xyzz_add_aff(y, b[i]));
    out[NPT * i + 5] = gpu_xyzz_to_jac(gpu_xyzz_add(x, x));
    out[NPT * i + 6] = gpu_xyzz_to_jac(gpu_xyzz_add(x, gpu_xyzz_neg(x)));
}

#define DEFINE_POINT_TEST(G, GEN, AFF, JAC, F, GF, NAME)                                        \
    static void test_points_##G(size_t n)                                                 \
    {                                                                                     \
        AFF *a = (AFF *)malloc(n * sizeof(AFF)), *b = (AFF *)malloc(n * sizeof(AFF));     \
        JAC g, t;                                                                         \
        cuzk_##G##_jac_from_affine(&g, &GEN);                          \
        for (size_t i = 0; i < n; i++) {                                                  \
            cuzk_fr k;                                                                    \
            test_rand_fr(&k);                                                             \
            cuzk_##G##_jac_mul_var(&t, &g, &k);                                           \
            cuzk_##G##_jac_to_affine(&a[i], &t);                                          \
            test_rand_fr(&k);                                                             \
            cuzk_##G##_jac_mul_var(&t, &g, &k);                                           \
            cuzk_##G##_jac_to_affine(&b[i], &t);                                          \
        }                                                                                 \
        /* edges: a = b, a = -b, infinity on either side or both */                       \
        b[0] = a[0];                                                                      \
        cuzk_##G##_affine_neg(&b[1], &a[1]);                                              \
        cuzk_##G##_affine_set_infinity(&a[2]);                                            \
        cuzk_##G##_affine_set_infinity(&b[3]);                                            \
        cuzk_##G##_affine_set_infinity(&a[4]);                                            \
        cuzk_##G##_affine_set_infinity(&b[4]);                                            \
        a[5] = GEN;                                                      \
        b[5] = GEN;                                                      \
        gpu_aff<GF> *da, *db;                                                             \
        gpu_jac<GF> *dout;                                                                \
        CK(cudaMalloc(&da, n * sizeof(AFF)));                                             \
        CK(cudaMalloc(&db, n * sizeof(AFF)));                                             \
        CK(cudaMalloc(&dout, NPT * n * sizeof(JAC)));                                     \
        CK(cudaMemcpy(da, a, n * sizeof(AFF), cudaMemcpyHostToDevice));                   \
        CK(cudaMemcpy(db, b, n * sizeof(AFF), cudaMemcpyHostToDevice));                   \
        point_kernel<GF><<<(unsigned)((n + 63) / 64), 64>>>(dout, da, db, n);             \
        CK(cudaGetLastError());                                                           \
        JAC *out = (JAC *)malloc(NPT * n * sizeof(JAC));                                  \
        CK(cudaMemcpy(out, dout, NPT * n * sizeof(JAC), cudaMemcpyDeviceToHost));         \
        size_t bad = 0;                                                                   \
        for (size_t i = 0; i < n; i++) {                                                  \
            JAC ja, jb, x, y, r[NPT];                                                     \
            cuzk_##G##_jac_from_affine(&ja, &a[i]);                                       \
            cuzk_##G##_jac_from_affine(&jb, &b[i]);                                       \
            cuzk_##G##_jac_add(&x, &ja, &jb);                                             \
            cuzk_##G##_jac_dbl(&y, &x);                                                   \
            r[0] = x;                                                                     \
            r[1] = y;                                                                     \
            cuzk_##G##_jac_add(&r[2], &y, &x);                                            \
            cuzk_##G##_jac_add(&r[3], &x, &jb);                                           \
            cuzk_##G##_jac_add(&r[4], &y, &jb);                                           \
            r[5] = y;                                                                     \
            cuzk_##G##_jac_set_infinity(&r[6]);                                           \
            for (int k = 0; k < NPT; k++) {                                               \
                AFF want, got;                                                            \
                cuzk_##G##_jac_to_affine(&want, &r[k]);                                   \
                cuzk_##G##_jac_to_affine(&got, &out[NPT * i + k]);                        \
                if (memcmp(&want, &got, sizeof want) != 0 && bad++ < 10)                  \
                    GPU_CHECK(0, "%s op %d differs at pair %zu", NAME, k, i);             \
            }                                                                             \
        }                                                                                 \
        GPU_CHECK(bad == 0, "%s: %zu mismatches", NAME, bad);                             \
        printf("[gpu_fp] %s points: %zu pairs x %d ops\n", NAME, n, NPT);                 \
        free(a);                                                                          \
        free(b);                                                                          \
        free(out);                                                                        \
        cudaFree(da);                                                                     \
        cudaFree(db);                                                                     \
        cudaFree(dout);                                                                   \
    }

DEFINE_POINT_TEST(g1, CUZK_G1_GENERATOR, cuzk_g1_affine, cuzk_g1_jac, cuzk_fp, gpu_fp, "g1")
DEFINE_POINT_TEST(g2, CUZK_G2_GENERATOR, cuzk_g2_affine, cuzk_g2_jac, cuzk_fp2, gpu_fp2, "g2")

#include "bench_gpu_fp.cuh"

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--bench") == 0) {
        GPU_TEST_BEGIN("gpu_fp_bench");
        bench_fp();
        GPU_TEST_END();
    }
    GPU_TEST_BEGIN("gpu_fp");
    test_fields();
    test_points_g1(test_iters(100000) / 200 + 8);
    test_points_g2(test_iters(100000) / 500 + 8);
    GPU_TEST_END();
}
