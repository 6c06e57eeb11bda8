/*
 * gpu_test.h — the GPU test harness (no cmocka: it must build on the GPU machine, which
 * has only the CUDA toolkit). Each tests/gpu/test_gpu_*.cu is one executable:
 *
 *   int main(void) { GPU_TEST_BEGIN("ntt"); ... GPU_CHECK(cond, "fmt", ...); GPU_TEST_END(); }
 *
 * GPU_TEST_BEGIN prints the seed (tests/support/test_rng.h: CUZK_TEST_SEED replays) and
 * exits 77 — ctest's SKIP_RETURN_CODE — when no CUDA device is present, so CI machines
 * without a GPU report the test as skipped, not passed. GPU_CHECK counts failures and
 * prints each with file:line; GPU_TEST_END exits 1 if any check failed.
 * Single-threaded.
 */
#ifndef CUZK_GPU_TEST_H
#define CUZK_GPU_TEST_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

/* test_rng.c is C: its declarations need C linkage here */
extern "C" {
#include "test_rng.h"
}

static int gpu_test_failures_ = 0;

#define GPU_TEST_SKIP 77

static inline void gpu_test_begin(const char *name)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        printf("[%s] SKIP: no CUDA device (%s)\n", name,
               e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
        exit(GPU_TEST_SKIP);
    }
    test_rng_init(name);
}

#define GPU_TEST_BEGIN(name) gpu_test_begin(name)
/* A CUDA call in a test's own setup: a failure there is not a finding, it ends the test. */
#define CK(expr)                                                                          \
    do {                                                                                  \
        cudaError_t e_ = (expr);                                                          \
        if (e_ != cudaSuccess) {                                                          \
            printf("CUDA error %s at %s:%d: %s\n", #expr, __FILE__, __LINE__,             \
                   cudaGetErrorString(e_));                                               \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)
#define GPU_CHECK(cond, ...)                                                              \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            gpu_test_failures_++;                                                         \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            printf(__VA_ARGS__);                                                          \
            printf("\n");                                                                 \
            if (gpu_test_failures_ > 20) {                                                \
                printf("too many failures; replay with CUZK_TEST_SEED=0x%llx\n",          \
                       (unsigned long long)test_rng_seed());                              \
                exit(1);                                                                  \
            }                                                                             \
        }                                                                                 \
    } while (0)
#define GPU_TEST_END()                                                                    \
    do {                                                                                  \
        if (gpu_test_failures_) {                                                         \
            printf("%d failure(s); replay with CUZK_TEST_SEED=0x%llx\n", gpu_test_failures_, \
                   (unsigned long long)test_rng_seed());                                  \
            return 1;                                                                     \
        }                                                                                 \
        printf("all checks passed\n");                                                    \
        return 0;                                                                         \
    } while (0)

#endif
