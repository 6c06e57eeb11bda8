/*
 * gpu_check.cuh — the one checking macro every CUDA call in src/gpu goes through.
 *
 * CUZK_CUDA_TRY(err, expr) evaluates a cudaError_t expression; on failure it records
 * "expr failed at file:line: <CUDA message>" in the cuzk_error (which may be NULL) and
 * jumps to the enclosing function's `fail:` label with st = CUZK_ERR_CUDA (or
 * CUZK_ERR_NOMEM for cudaErrorMemoryAllocation), so every path reaches the cleanup code
 * that releases what the function holds. Kernel launches are checked with
 * CUZK_CUDA_TRY(err, cudaGetLastError()) right after the launch.
 *
 * Functions using it declare `cuzk_status st = CUZK_OK;` and a `fail:` label.
 * Threading: stateless; the error struct is the caller's.
 */
#ifndef CUZK_GPU_CHECK_CUH
#define CUZK_GPU_CHECK_CUH

#include <cuda_runtime.h>

#include "cuzk/status.h"

/* Fills err from a CUDA status; returns the cuzk status it maps to. */
static inline cuzk_status cuzk_cuda_error(cuzk_error *err, cudaError_t e, const char *expr,
                                          const char *file, int line)
{
    cuzk_status st = e == cudaErrorMemoryAllocation ? CUZK_ERR_NOMEM : CUZK_ERR_CUDA;
    return cuzk_error_set(err, st, "%s failed at %s:%d: %s (%s)", expr, file, line,
                          cudaGetErrorString(e), cudaGetErrorName(e));
}

#define CUZK_CUDA_TRY(err, expr)                                                          \
    do {                                                                                  \
        cudaError_t cuzk_e_ = (expr);                                                     \
        if (cuzk_e_ != cudaSuccess) {                                                     \
            st = cuzk_cuda_error((err), cuzk_e_, #expr, __FILE__, __LINE__);              \
            goto fail;                                                                    \
        }                                                                                 \
    } while (0)

/* For cleanup paths: reports nothing, keeps the first error. */
#define CUZK_CUDA_IGNORE(expr) ((void)(expr))

#endif
