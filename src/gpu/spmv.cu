/*
 * spmv.cu — constraint evaluation on the device: a = A·w, b = B·w, c = C·w from CSR
 * matrices resident on the GPU (cuzk_gpu_spmv), plus the two small vector kernels the
 * prover needs around it (pointwise product for snarkjs keys, density gathers).
 *
 * One thread per row: most Filecoin rows are short (1-4 terms), so a warp per row would
 * idle most lanes. But a warp lasts as long as its longest row, and the few long rows (the
 * packing and sum rows of SHA-256 and Merkle gadgets: up to ~930 terms in PoRep's A, 256 in
 * its C) hold 38 % of A's terms: thread per row, PoRep's A keeps 8 % of its lanes busy. So
 * rows longer than CUZK_GPU_SPMV_SHORT_MAX terms, listed once per matrix (d_long), are left
 * by the row kernel to a second kernel that gives each a warp (lanes stride the terms, then
 * a shuffle reduction). Coefficients come from a small table (cuzk_gpu_csr); index 0 is
 * ONE, the most common by far, whose multiplication is skipped, so most terms cost one
 * addition.
 * Threading: asynchronous on the caller's stream; see cuzk/gpu.h.
 */
#include <cuda_runtime.h>

#include "cuzk/gpu.h"
#include "gpu/fr.cuh"
#include "gpu/gpu_check.cuh"
#include "gpu/prof.cuh"

#define SPMV_THREADS 256

static __device__ __forceinline__ void load_fr(gpu_fr *r, const cuzk_fr *p)
{
    gpu_fr_load_ro(r, reinterpret_cast<const gpu_fr *>(p));
}

static __device__ __forceinline__ void store_fr(cuzk_fr *p, const gpu_fr *v)
{
    gpu_fr_store(reinterpret_cast<gpu_fr *>(p), v);
}

/* The sum of terms [k, e) of a row (k, e relative to the block's first term). */
static __device__ __forceinline__ void row_terms(gpu_fr *acc, uint64_t k, uint64_t e,
                                                 uint64_t step, const uint32_t *__restrict__ col,
                                                 const uint32_t *__restrict__ coeff_idx,
                                                 const cuzk_fr *__restrict__ table,
                                                 const cuzk_fr *__restrict__ w)
{
    gpu_fr v, c;
    for (; k < e; k += step) {
        load_fr(&v, w + col[k]);
        uint32_t ci = coeff_idx[k];
        if (ci != 0) { /* index 0 is ONE */
            load_fr(&c, table + ci);
            gpu_fr_mul(&v, &v, &c);
        }
        gpu_fr_add(acc, acc, &v);
    }
}

/* skip_long: rows of more than CUZK_GPU_SPMV_SHORT_MAX terms are spmv_long_kernel's. */
__global__ void spmv_kernel(uint64_t rows, uint64_t nz_base, const uint64_t *__restrict__ row_ptr,
                            const uint32_t *__restrict__ col,
                            const uint32_t *__restrict__ coeff_idx,
                            const cuzk_fr *__restrict__ table, const cuzk_fr *__restrict__ w,
                            cuzk_fr *__restrict__ out, bool skip_long)
{
    uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    uint64_t k = row_ptr[r] - nz_base, e = row_ptr[r + 1] - nz_base;
    if (skip_long && e - k > CUZK_GPU_SPMV_SHORT_MAX)
        return;
    gpu_fr acc;
    gpu_fr_zero(&acc);
    row_terms(&acc, k, e, 1, col, coeff_idx, table, w);
    store_fr(out + r, &acc);
}

/* One warp per listed row. */
__global__ void spmv_long_kernel(uint64_t n_long, const uint32_t *__restrict__ long_rows,
                                 uint64_t nz_base, const uint64_t *__restrict__ row_ptr,
                                 const uint32_t *__restrict__ col,
                                 const uint32_t *__restrict__ coeff_idx,
                                 const cuzk_fr *__restrict__ table,
                                 const cuzk_fr *__restrict__ w, cuzk_fr *__restrict__ out)
{
    uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    unsigned lane = threadIdx.x % 32;
    if (warp >= n_long) /* uniform within the warp */
        return;
    uint32_t r = long_rows[warp];
    gpu_fr acc, o;
    gpu_fr_zero(&acc);
    row_terms(&acc, row_ptr[r] - nz_base + lane, row_ptr[r + 1] - nz_base, 32, col, coeff_idx,
              table, w);
#pragma unroll
    for (unsigned off = 16; off > 0; off /= 2) {
#pragma unroll
        for (int i = 0; i < 8; i++)
            o.l[i] = __shfl_down_sync(0xffffffffu, acc.l[i], off);
        gpu_fr_add(&acc, &acc, &o);
    }
    if (lane == 0)
        store_fr(out + r, &acc);
}

__global__ void mul_pointwise_kernel(cuzk_fr *r, const cuzk_fr *a, const cuzk_fr *b, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        gpu_fr x, y;
        load_fr(&x, a + i);
        load_fr(&y, b + i);
        gpu_fr_mul(&x, &x, &y);
        store_fr(r + i, &x);
    }
}

__global__ void gather_kernel(cuzk_fr *dst, const cuzk_fr *src, const uint32_t *idx, size_t m)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < m)
        dst[t] = src[idx[t]];
}

extern "C" uint64_t cuzk_gpu_csr_long_rows(const uint64_t *row_ptr, uint64_t rows, uint32_t *out)
{
    uint64_t n = 0;
    for (uint64_t r = 0; r < rows; r++)
        if (row_ptr[r + 1] - row_ptr[r] > CUZK_GPU_SPMV_SHORT_MAX)
            out[n++] = (uint32_t)r;
    return n;
}

static unsigned blocks_for(uint64_t n) { return (unsigned)((n + SPMV_THREADS - 1) / SPMV_THREADS); }

extern "C" cuzk_status cuzk_gpu_spmv(const cuzk_gpu_csr *m, const cuzk_fr *d_w, cuzk_fr *d_out,
                                     cuzk_gpu_stream s, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    if (!m || !d_w || !d_out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "gpu spmv: NULL argument");
    if (m->rows == 0)
        return CUZK_OK;
    gpu_prof_mark((cudaStream_t)s, "spmv");
    spmv_kernel<<<blocks_for(m->rows), SPMV_THREADS, 0, (cudaStream_t)s>>>(
        m->rows, m->nz_base, m->d_row_ptr, m->d_col, m->d_coeff_idx, m->d_table, d_w, d_out,
        m->d_long != NULL);
    CUZK_CUDA_TRY(err, cudaGetLastError());
    if (m->d_long && m->n_long) {
        spmv_long_kernel<<<blocks_for(m->n_long * 32), SPMV_THREADS, 0, (cudaStream_t)s>>>(
            m->n_long, m->d_long, m->nz_base, m->d_row_ptr, m->d_col, m->d_coeff_idx,
            m->d_table, d_w, d_out);
        CUZK_CUDA_TRY(err, cudaGetLastError());
    }
    gpu_prof_mark((cudaStream_t)s, NULL);
    return CUZK_OK;
fail:
    return st;
}

extern "C" cuzk_status cuzk_gpu_fr_mul_pointwise(cuzk_fr *d_r, const cuzk_fr *d_a,
                                                 const cuzk_fr *d_b, size_t n,
                                                 cuzk_gpu_stream s, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    if (n == 0)
        return CUZK_OK;
    if (!d_r || !d_a || !d_b)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "gpu mul_pointwise: NULL argument");
    mul_pointwise_kernel<<<blocks_for(n), SPMV_THREADS, 0, (cudaStream_t)s>>>(d_r, d_a, d_b, n);
    CUZK_CUDA_TRY(err, cudaGetLastError());
    return CUZK_OK;
fail:
    return st;
}

extern "C" cuzk_status cuzk_gpu_fr_gather(cuzk_fr *d_dst, const cuzk_fr *d_src,
                                          const uint32_t *d_idx, size_t m, cuzk_gpu_stream s,
                                          cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    if (m == 0)
        return CUZK_OK;
    if (!d_dst || !d_src || !d_idx)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "gpu gather: NULL argument");
    gather_kernel<<<blocks_for(m), SPMV_THREADS, 0, (cudaStream_t)s>>>(d_dst, d_src, d_idx, m);
    CUZK_CUDA_TRY(err, cudaGetLastError());
    return CUZK_OK;
fail:
    return st;
}
