/*
 * test_gpu_fr.cu — device Fr arithmetic (src/gpu/fr.cuh) against the host's cuzk_fr_*,
 * bit for bit: add, sub, mul, sqr, neg, dbl, eq, is_zero on fresh random elements
 * (CUZK_TEST_ITERS, default 100000) and on edge cases (0, 1, R, r-1, r-2, (r+-1)/2,
 * 2^254, elements with all-ones low limbs, ...), every edge case paired with every other.
 * Single-threaded host; one kernel launch per batch.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ff.h"
#include "gpu/fr.cuh"
#include "gpu_test.h"

enum { OP_ADD, OP_SUB, OP_MUL, OP_SQR, OP_NEG, OP_DBL, OP_COUNT };
static const char *const OP_NAME[OP_COUNT] = {"add", "sub", "mul", "sqr", "neg", "dbl"};

/* out[op * n + i] = op(a[i], b[i]); flags[i] = eq(a,b) | is_zero(a) << 1 | eq(a,a) << 2 */
__global__ void fr_ops_kernel(gpu_fr *out, uint32_t *flags, const gpu_fr *a, const gpu_fr *b,
                              size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    gpu_fr x, y, r;
    gpu_fr_load(&x, a + i);
    gpu_fr_load(&y, b + i);
    gpu_fr_add(&r, &x, &y);
    gpu_fr_store(out + OP_ADD * n + i, &r);
    gpu_fr_sub(&r, &x, &y);
    gpu_fr_store(out + OP_SUB * n + i, &r);
    gpu_fr_mul(&r, &x, &y);
    gpu_fr_store(out + OP_MUL * n + i, &r);
    gpu_fr_sqr(&r, &x);
    gpu_fr_store(out + OP_SQR * n + i, &r);
    gpu_fr_neg(&r, &x);
    gpu_fr_store(out + OP_NEG * n + i, &r);
    /* aliasing: r = x, then r += r */
    r = x;
    gpu_fr_dbl(&r, &r);
    gpu_fr_store(out + OP_DBL * n + i, &r);
    flags[i] = (gpu_fr_eq(&x, &y) ? 1u : 0u) | (gpu_fr_is_zero(&x) ? 2u : 0u) |
               (gpu_fr_eq(&x, &x) ? 4u : 0u);
}

__global__ void fr_consts_kernel(gpu_fr *out)
{
    gpu_fr_zero(&out[0]);
    gpu_fr_one(&out[1]);
}

static void host_op(cuzk_fr *r, int op, const cuzk_fr *a, const cuzk_fr *b)
{
    switch (op) {
    case OP_ADD: cuzk_fr_add(r, a, b); break;
    case OP_SUB: cuzk_fr_sub(r, a, b); break;
    case OP_MUL: cuzk_fr_mul(r, a, b); break;
    case OP_SQR: cuzk_fr_sqr(r, a); break;
    case OP_NEG: cuzk_fr_neg(r, a); break;
    default: cuzk_fr_dbl(r, a); break;
    }
}

static void run_batch(const char *what, const cuzk_fr *a, const cuzk_fr *b, size_t n)
{
    gpu_fr *d_a, *d_b, *d_out;
    uint32_t *d_flags;
    CK(cudaMalloc((void **)&d_a, n * sizeof(gpu_fr)));
    CK(cudaMalloc((void **)&d_b, n * sizeof(gpu_fr)));
    CK(cudaMalloc((void **)&d_out, OP_COUNT * n * sizeof(gpu_fr)));
    CK(cudaMalloc((void **)&d_flags, n * sizeof(uint32_t)));
    CK(cudaMemcpy(d_a, a, n * sizeof(cuzk_fr), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b, b, n * sizeof(cuzk_fr), cudaMemcpyHostToDevice));
    fr_ops_kernel<<<(unsigned)((n + 127) / 128), 128>>>(d_out, d_flags, d_a, d_b, n);
    CK(cudaGetLastError());
    cuzk_fr *out = (cuzk_fr *)malloc(OP_COUNT * n * sizeof(cuzk_fr));
    uint32_t *flags = (uint32_t *)malloc(n * sizeof(uint32_t));
    CK(cudaMemcpy(out, d_out, OP_COUNT * n * sizeof(cuzk_fr), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(flags, d_flags, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        for (int op = 0; op < OP_COUNT; op++) {
            cuzk_fr want;
            host_op(&want, op, &a[i], &b[i]);
            if (memcmp(&want, &out[op * n + i], sizeof want) != 0 && bad++ < 10)
                GPU_CHECK(0, "%s: %s mismatch at %zu: a=%016llx.. b=%016llx..", what,
                          OP_NAME[op], i, (unsigned long long)a[i].l[3],
                          (unsigned long long)b[i].l[3]);
        }
        uint32_t want_flags = (cuzk_fr_eq(&a[i], &b[i]) ? 1u : 0u) |
                              (cuzk_fr_is_zero(&a[i]) ? 2u : 0u) | 4u;
        GPU_CHECK(flags[i] == want_flags, "%s: flags %u, want %u at %zu", what, flags[i],
                  want_flags, i);
    }
    GPU_CHECK(bad == 0, "%s: %zu mismatching results in %zu pairs", what, bad, n);
    printf("[fr] %s: %zu pairs x %d ops checked\n", what, n, OP_COUNT);
    free(out);
    free(flags);
    CK(cudaFree(d_a));
    CK(cudaFree(d_b));
    CK(cudaFree(d_out));
    CK(cudaFree(d_flags));
}

/* Montgomery-form edge cases, as raw limbs (all < r). */
static size_t edge_cases(cuzk_fr *e)
{
    size_t k = 0;
    const uint64_t *r = CUZK_FR_MODULUS;
    e[k++] = CUZK_FR_ZERO;
    e[k++] = CUZK_FR_ONE;                                    /* 1 */
    e[k++] = (cuzk_fr){{1, 0, 0, 0}};                        /* R^-1 */
    e[k++] = (cuzk_fr){{r[0] - 1, r[1], r[2], r[3]}};        /* r - 1 */
    e[k++] = (cuzk_fr){{r[0] - 2, r[1], r[2], r[3]}};        /* r - 2 */
    e[k++] = (cuzk_fr){{0x7fffffff80000000ull, 0xa9ded2017fff2dffull, 0x199cec0404d0ec02ull,
                        0x39f6d3a994cebea4ull}};             /* (r - 1) / 2 */
    e[k++] = (cuzk_fr){{0x7fffffff80000001ull, 0xa9ded2017fff2dffull, 0x199cec0404d0ec02ull,
                        0x39f6d3a994cebea4ull}};             /* (r + 1) / 2 */
    e[k++] = (cuzk_fr){{0, 0, 0, 1ull << 62}};               /* 2^254 */
    e[k++] = (cuzk_fr){{~0ull, ~0ull, ~0ull, r[3] - 1}};     /* just below r, all-ones low */
    e[k++] = (cuzk_fr){{~0ull, ~0ull, ~0ull, 0}};            /* 2^192 - 1 */
    e[k++] = (cuzk_fr){{0, 0, 0, r[3]}};                     /* r's top limb alone */
    e[k++] = (cuzk_fr){{0xffffffffull, 0, 0, 0}};            /* 2^32 - 1 */
    e[k++] = (cuzk_fr){{r[0], r[1], r[2], r[3] - 1}};        /* r - 2^192 */
    cuzk_fr minus_one;
    cuzk_fr_neg(&minus_one, &CUZK_FR_ONE);
    e[k++] = minus_one;
    return k;
}

int main(void)
{
    GPU_TEST_BEGIN("gpu_fr");

    /* constants */
    gpu_fr *d_c;
    CK(cudaMalloc((void **)&d_c, 2 * sizeof(gpu_fr)));
    fr_consts_kernel<<<1, 1>>>(d_c);
    CK(cudaGetLastError());
    cuzk_fr c[2];
    CK(cudaMemcpy(c, d_c, sizeof c, cudaMemcpyDeviceToHost));
    CK(cudaFree(d_c));
    GPU_CHECK(cuzk_fr_is_zero(&c[0]), "gpu_fr_zero is not zero");
    GPU_CHECK(memcmp(&c[1], &CUZK_FR_ONE, sizeof(cuzk_fr)) == 0, "gpu_fr_one != CUZK_FR_ONE");

    /* every edge case against every edge case */
    cuzk_fr e[32];
    size_t ne = edge_cases(e);
    size_t np = ne * ne;
    cuzk_fr *a = (cuzk_fr *)malloc(np * sizeof(cuzk_fr));
    cuzk_fr *b = (cuzk_fr *)malloc(np * sizeof(cuzk_fr));
    for (size_t i = 0; i < ne; i++)
        for (size_t j = 0; j < ne; j++) {
            a[i * ne + j] = e[i];
            b[i * ne + j] = e[j];
        }
    run_batch("edge x edge", a, b, np);
    free(a);
    free(b);

    /* fresh random pairs, some equal, some against edge cases */
    size_t n = test_iters(100000);
    a = (cuzk_fr *)malloc(n * sizeof(cuzk_fr));
    b = (cuzk_fr *)malloc(n * sizeof(cuzk_fr));
    for (size_t i = 0; i < n; i++) {
        test_rand_fr(&a[i]);
        switch (i % 16) {
        case 0: b[i] = a[i]; break;
        case 1: b[i] = e[test_rng_u64() % ne]; break;
        case 2: b[i] = a[i]; a[i] = e[test_rng_u64() % ne]; break;
        default: test_rand_fr(&b[i]); break;
        }
    }
    run_batch("random", a, b, n);
    free(a);
    free(b);

    GPU_TEST_END();
}
