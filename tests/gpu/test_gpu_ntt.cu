/*
 * test_gpu_ntt.cu — the device NTT family (src/gpu/ntt.cu) against src/poly, bit for bit:
 * for both conventions and every log2 n from 0 to CUZK_TEST_MAX_LOG2 (default 20) the
 * four transforms and both H pipelines on fresh random inputs; plus the error paths
 * (NULL pointers, bad kind, uninitialised or oversized host domain, aliased H arrays).
 *
 *   test_gpu_ntt                 the test (exit 77 without a device)
 *   test_gpu_ntt --bench [lo hi] timings with CUDA events, after a warm-up, median of 7
 *                                runs on fresh random data: the four transforms at
 *                                2^lo..2^hi (default 20..27) and both H at >= 2^22
 *
 * Single-threaded host (the CPU reference uses a cuzk_pool); one stream.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/gpu.h"
#include "cuzk/poly.h"
#include "cuzk/pool.h"
#include "gpu_test.h"

static const char *const KIND_NAME[4] = {"ntt", "intt", "coset_ntt", "coset_intt"};

static cuzk_status host_kind(const cuzk_domain *d, cuzk_fr *a, int kind, cuzk_pool *pool)
{
    switch (kind) {
    case CUZK_GPU_NTT: return cuzk_ntt(d, a, pool);
    case CUZK_GPU_INTT: return cuzk_intt(d, a, pool);
    case CUZK_GPU_COSET_NTT: return cuzk_coset_ntt(d, a, pool);
    default: return cuzk_coset_intt(d, a, pool);
    }
}

static void rand_vec(cuzk_fr *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        test_rand_fr(&v[i]);
}

static size_t first_diff(const cuzk_fr *x, const cuzk_fr *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(&x[i], &y[i], sizeof(cuzk_fr)) != 0)
            return i;
    return n;
}

static void check_size(unsigned k, cuzk_domain_convention conv, cuzk_pool *pool,
                       cuzk_fr *d_buf, cuzk_fr *h[4])
{
    const char *cname = conv == CUZK_DOMAIN_BELLPERSON ? "bellperson" : "snarkjs";
    cuzk_domain dom;
    cuzk_status st = conv == CUZK_DOMAIN_BELLPERSON ? cuzk_domain_init_bellperson(&dom, k)
                                                    : cuzk_domain_init_snarkjs(&dom, k);
    GPU_CHECK(st == CUZK_OK, "domain init %s 2^%u", cname, k);
    cuzk_gpu_domain *gd = NULL;
    cuzk_error err;
    st = cuzk_gpu_domain_create(&gd, &dom, &err);
    GPU_CHECK(st == CUZK_OK, "gpu domain %s 2^%u: %s", cname, k, err.msg);
    if (st != CUZK_OK)
        return;
    const size_t n = dom.n, bytes = n * sizeof(cuzk_fr);
    cuzk_fr *want = h[0], *got = h[1], *hb = h[2], *hc = h[3];
    cuzk_fr *d_a = d_buf, *d_b = d_buf + n, *d_c = d_buf + 2 * n;

    for (int kind = 0; kind < 4; kind++) {
        rand_vec(want, n);
        CK(cudaMemcpy(d_a, want, bytes, cudaMemcpyHostToDevice));
        st = cuzk_gpu_ntt(gd, d_a, (cuzk_gpu_ntt_kind)kind, NULL, &err);
        GPU_CHECK(st == CUZK_OK, "%s 2^%u %s: %s", cname, k, KIND_NAME[kind], err.msg);
        CK(cudaMemcpy(got, d_a, bytes, cudaMemcpyDeviceToHost));
        GPU_CHECK(host_kind(&dom, want, kind, pool) == CUZK_OK, "host %s", KIND_NAME[kind]);
        size_t at = first_diff(want, got, n);
        GPU_CHECK(at == n, "%s 2^%u %s: first difference at %zu", cname, k, KIND_NAME[kind],
                  at);
    }
    /* bell 2: the two halves, c copied into b's buffer between them (as the prover does) */
    for (int bell = 0; bell < 3; bell++) {
        rand_vec(want, n);
        rand_vec(hb, n);
        rand_vec(hc, n);
        CK(cudaMemcpy(d_a, want, bytes, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(d_b, hb, bytes, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(d_c, hc, bytes, cudaMemcpyHostToDevice));
        if (bell == 2) {
            st = cuzk_gpu_h_bellperson_begin(gd, d_a, d_b, NULL, &err);
            if (st == CUZK_OK) {
                CK(cudaMemcpy(d_b, hc, bytes, cudaMemcpyHostToDevice));
                st = cuzk_gpu_h_bellperson_end(gd, d_a, d_b, NULL, &err);
            }
        } else {
            st = bell ? cuzk_gpu_h_bellperson(gd, d_a, d_b, d_c, NULL, &err)
                      : cuzk_gpu_h_snarkjs(gd, d_a, d_b, d_c, NULL, &err);
        }
        const char *hname = bell == 2 ? "bellperson (halves)" : bell ? "bellperson" : "snarkjs";
        GPU_CHECK(st == CUZK_OK, "%s 2^%u h_%s: %s", cname, k, hname, err.msg);
        CK(cudaMemcpy(got, d_a, bytes, cudaMemcpyDeviceToHost));
        st = bell ? cuzk_poly_h_bellperson(&dom, want, hb, hc, pool)
                  : cuzk_poly_h_snarkjs(&dom, want, hb, hc, pool);
        GPU_CHECK(st == CUZK_OK, "host h");
        size_t at = first_diff(want, got, n);
        GPU_CHECK(at == n, "%s 2^%u h_%s: first difference at %zu", cname, k, hname, at);
    }
    CK(cudaDeviceSynchronize());
    cuzk_gpu_domain_destroy(gd);
}

static void check_errors(cuzk_fr *d_buf)
{
    cuzk_domain dom;
    cuzk_error err;
    cuzk_gpu_domain *gd = NULL;
    GPU_CHECK(cuzk_domain_init_bellperson(&dom, 4) == CUZK_OK, "init");

    GPU_CHECK(cuzk_gpu_domain_create(NULL, &dom, &err) == CUZK_ERR_INVALID_ARG, "NULL out");
    GPU_CHECK(cuzk_gpu_domain_create(&gd, NULL, &err) == CUZK_ERR_INVALID_ARG && !gd,
              "NULL domain");
    cuzk_domain bad = dom;
    bad.log2n = CUZK_DOMAIN_MAX_LOG2 + 1;
    bad.n = (size_t)1 << bad.log2n;
    GPU_CHECK(cuzk_gpu_domain_create(&gd, &bad, &err) == CUZK_ERR_INVALID_ARG && !gd,
              "log2n above the maximum");
    bad = dom;
    bad.n = 3;
    GPU_CHECK(cuzk_gpu_domain_create(&gd, &bad, &err) == CUZK_ERR_INVALID_ARG && !gd,
              "n != 2^log2n");
    memset(&bad, 0, sizeof bad);
    GPU_CHECK(cuzk_gpu_domain_create(&gd, &bad, &err) == CUZK_ERR_INVALID_ARG && !gd,
              "uninitialised domain");
    cuzk_gpu_domain_destroy(NULL);

    GPU_CHECK(cuzk_gpu_domain_create(&gd, &dom, &err) == CUZK_OK, "create: %s", err.msg);
    GPU_CHECK(cuzk_gpu_ntt(NULL, d_buf, CUZK_GPU_NTT, NULL, &err) == CUZK_ERR_INVALID_ARG,
              "NULL gpu domain");
    GPU_CHECK(cuzk_gpu_ntt(gd, NULL, CUZK_GPU_NTT, NULL, &err) == CUZK_ERR_INVALID_ARG,
              "NULL array");
    GPU_CHECK(cuzk_gpu_ntt(gd, (cuzk_fr *)((char *)d_buf + 8), CUZK_GPU_NTT, NULL, &err) ==
                  CUZK_ERR_INVALID_ARG,
              "misaligned array");
    GPU_CHECK(cuzk_gpu_ntt(gd, d_buf, (cuzk_gpu_ntt_kind)4, NULL, &err) == CUZK_ERR_INVALID_ARG,
              "bad kind");
    GPU_CHECK(cuzk_gpu_ntt(gd, d_buf, (cuzk_gpu_ntt_kind)-1, NULL, NULL) ==
                  CUZK_ERR_INVALID_ARG,
              "bad kind, NULL err");
    cuzk_fr *a = d_buf, *b = d_buf + 16, *c = d_buf + 32;
    GPU_CHECK(cuzk_gpu_h_bellperson_begin(gd, a, a, NULL, &err) == CUZK_ERR_INVALID_ARG,
              "h_bellperson_begin a == b");
    GPU_CHECK(cuzk_gpu_h_bellperson_end(gd, c, c, NULL, &err) == CUZK_ERR_INVALID_ARG,
              "h_bellperson_end a == c");
    GPU_CHECK(cuzk_gpu_h_bellperson_end(NULL, a, c, NULL, &err) == CUZK_ERR_INVALID_ARG,
              "h_bellperson_end NULL domain");
    GPU_CHECK(cuzk_gpu_h_bellperson(gd, a, a, c, NULL, &err) == CUZK_ERR_INVALID_ARG,
              "aliased a, b");
    GPU_CHECK(cuzk_gpu_h_snarkjs(gd, a, b, b, NULL, &err) == CUZK_ERR_INVALID_ARG,
              "aliased b, c");
    GPU_CHECK(cuzk_gpu_h_bellperson(gd, a, NULL, c, NULL, &err) == CUZK_ERR_INVALID_ARG,
              "NULL b");
    GPU_CHECK(cuzk_gpu_h_snarkjs(NULL, a, b, c, NULL, &err) == CUZK_ERR_INVALID_ARG,
              "NULL domain (h)");
    cuzk_gpu_domain_destroy(gd);
}

/* ---- bench ---------------------------------------------------------------------------- */

__device__ __forceinline__ uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Pseudo-random elements < r (top limb below r's); not uniform, which timing ignores. */
__global__ void fill_kernel(cuzk_fr *a, size_t n, uint64_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        cuzk_fr x;
        for (int j = 0; j < 4; j++)
            x.l[j] = mix64(seed ^ (i * 4 + j) * 0x9e3779b97f4a7c15ull);
        x.l[3] %= 0x73eda753299d7d48ull;
        a[i] = x;
    }
}

static void fill(cuzk_fr *d, size_t n)
{
    fill_kernel<<<1024, 256>>>(d, n, test_rng_u64());
    CK(cudaGetLastError());
}

static int cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return a < b ? -1 : a > b;
}

#define BENCH_RUNS 7

/* op: 0..3 = cuzk_gpu_ntt kind, 4 = h_bellperson, 5 = h_snarkjs; returns median ms */
static float time_op(cuzk_gpu_domain *gd, int op, cuzk_fr *d_a, cuzk_fr *d_b, cuzk_fr *d_c,
                     size_t n)
{
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    float ms[BENCH_RUNS];
    cuzk_error err;
    for (int run = -1; run < BENCH_RUNS; run++) { /* run -1: warm-up */
        fill(d_a, n);
        if (op >= 4) {
            fill(d_b, n);
            fill(d_c, n);
        }
        CK(cudaEventRecord(e0, 0));
        cuzk_status st = op < 4   ? cuzk_gpu_ntt(gd, d_a, (cuzk_gpu_ntt_kind)op, NULL, &err)
                         : op == 4 ? cuzk_gpu_h_bellperson(gd, d_a, d_b, d_c, NULL, &err)
                                   : cuzk_gpu_h_snarkjs(gd, d_a, d_b, d_c, NULL, &err);
        if (st != CUZK_OK) {
            printf("bench op %d failed: %s\n", op, err.msg);
            exit(1);
        }
        CK(cudaEventRecord(e1, 0));
        CK(cudaEventSynchronize(e1));
        if (run >= 0)
            CK(cudaEventElapsedTime(&ms[run], e0, e1));
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    qsort(ms, BENCH_RUNS, sizeof ms[0], cmp_float);
    return ms[BENCH_RUNS / 2];
}

static int bench(unsigned lo, unsigned hi)
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s, %d SMs; median of %d runs after warm-up (ms)\n", prop.name,
           prop.multiProcessorCount, BENCH_RUNS);
    printf("%-6s %10s %10s %10s %10s %12s %12s\n", "log2n", "ntt", "intt", "coset_ntt",
           "coset_intt", "h_bellperson", "h_snarkjs");
    for (unsigned k = lo; k <= hi; k++) {
        cuzk_domain dom;
        cuzk_gpu_domain *gd = NULL;
        cuzk_error err;
        if (cuzk_domain_init_bellperson(&dom, k) != CUZK_OK ||
            cuzk_gpu_domain_create(&gd, &dom, &err) != CUZK_OK) {
            printf("domain 2^%u failed\n", k);
            return 1;
        }
        const size_t n = dom.n;
        const bool with_h = k >= 22;
        cuzk_fr *d_a = NULL, *d_b = NULL, *d_c = NULL;
        CK(cudaMalloc((void **)&d_a, n * sizeof(cuzk_fr)));
        if (with_h) {
            CK(cudaMalloc((void **)&d_b, n * sizeof(cuzk_fr)));
            CK(cudaMalloc((void **)&d_c, n * sizeof(cuzk_fr)));
        }
        float t[6];
        for (int op = 0; op < 6; op++)
            t[op] = op < 4 || with_h ? time_op(gd, op, d_a, d_b, d_c, n) : -1.0f;
        printf("2^%-4u %10.3f %10.3f %10.3f %10.3f", k, t[0], t[1], t[2], t[3]);
        if (with_h)
            printf(" %12.3f %12.3f\n", t[4], t[5]);
        else
            printf(" %12s %12s\n", "-", "-");
        fflush(stdout);
        CK(cudaFree(d_a));
        if (with_h) {
            CK(cudaFree(d_b));
            CK(cudaFree(d_c));
        }
        cuzk_gpu_domain_destroy(gd);
    }
    return 0;
}

int main(int argc, char **argv)
{
    GPU_TEST_BEGIN("gpu_ntt");
    if (argc > 1 && strcmp(argv[1], "--bench") == 0) {
        unsigned lo = argc > 2 ? (unsigned)atoi(argv[2]) : 20;
        unsigned hi = argc > 3 ? (unsigned)atoi(argv[3]) : 27;
        if (lo > hi || hi > CUZK_DOMAIN_MAX_LOG2) {
            printf("usage: %s --bench [lo hi] (hi <= %u)\n", argv[0], CUZK_DOMAIN_MAX_LOG2);
            return 2;
        }
        return bench(lo, hi);
    }

    const char *env = getenv("CUZK_TEST_MAX_LOG2");
    unsigned maxk = env ? (unsigned)atoi(env) : 20;
    if (maxk > 24)
        maxk = 24;
    const size_t maxn = (size_t)1 << maxk;
    cuzk_pool *pool = NULL;
    GPU_CHECK(cuzk_pool_create(&pool, 8) == CUZK_OK, "pool");
    cuzk_fr *h[4];
    for (int i = 0; i < 4; i++)
        h[i] = (cuzk_fr *)malloc(maxn * sizeof(cuzk_fr));
    cuzk_fr *d_buf = NULL;
    CK(cudaMalloc((void **)&d_buf, 3 * maxn * sizeof(cuzk_fr)));

    check_errors(d_buf);
    for (unsigned k = 0; k <= maxk; k++) {
        check_size(k, CUZK_DOMAIN_BELLPERSON, pool, d_buf, h);
        check_size(k, CUZK_DOMAIN_SNARKJS, pool, d_buf, h);
        printf("[ntt] 2^%u: 4 transforms + 2 H x 2 conventions checked\n", k);
        fflush(stdout);
    }

    CK(cudaFree(d_buf));
    for (int i = 0; i < 4; i++)
        free(h[i]);
    cuzk_pool_destroy(pool);
    GPU_TEST_END();
}
