/*
 * witness.cu — expanding a compact witness (cuzk/r1cs.h) on the device: the bit variables'
 * values arrive as a packed bitmap and the others as a dense array, ~70 MB for a 2^27
 * PoRep partition instead of ~4.2 GB, and the SpMV and gathers read the dense vector this
 * writes. One thread per variable: its word's rank plus a popcount locates it.
 * Threading: asynchronous on the caller's stream; see cuzk/gpu.h.
 */
#include <cuda_runtime.h>

#include "cuzk/gpu.h"
#include "gpu/fr.cuh"
#include "gpu/gpu_check.cuh"
#include "gpu/prof.cuh"

#define EXPAND_THREADS 256

__global__ void expand_kernel(cuzk_fr *__restrict__ w, uint32_t n_vars,
                              const uint64_t *__restrict__ is_bit,
                              const uint32_t *__restrict__ rank,
                              const uint64_t *__restrict__ bits,
                              const cuzk_fr *__restrict__ dense)
{
    uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n_vars)
        return;
    uint64_t word = is_bit[v >> 6];
    uint32_t sh = v & 63;
    uint32_t k = rank[v >> 6] + (sh ? __popcll(word & (~0ull >> (64 - sh))) : 0);
    gpu_fr r;
    if ((word >> sh) & 1) {
        if ((bits[k >> 6] >> (k & 63)) & 1)
            gpu_fr_one(&r);
        else
            gpu_fr_zero(&r);
    } else {
        gpu_fr_load_ro(&r, reinterpret_cast<const gpu_fr *>(dense + (v - k)));
    }
    gpu_fr_store(reinterpret_cast<gpu_fr *>(w + v), &r);
}

extern "C" cuzk_status cuzk_gpu_witness_expand(cuzk_fr *d_w, uint32_t n_vars,
                                               const uint64_t *d_is_bit,
                                               const uint32_t *d_rank,
                                               const uint64_t *d_bits,
                                               const cuzk_fr *d_dense, cuzk_gpu_stream s,
                                               cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    if (n_vars == 0)
        return CUZK_OK;
    if (!d_w || !d_is_bit || !d_rank || !d_dense)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "gpu witness expand: NULL argument");
    gpu_prof_mark((cudaStream_t)s, "witness expand");
    expand_kernel<<<(n_vars + EXPAND_THREADS - 1) / EXPAND_THREADS, EXPAND_THREADS, 0,
                    (cudaStream_t)s>>>(d_w, n_vars, d_is_bit, d_rank, d_bits, d_dense);
    CUZK_CUDA_TRY(err, cudaGetLastError());
    gpu_prof_mark((cudaStream_t)s, NULL);
    return CUZK_OK;
fail:
    return st;
}
