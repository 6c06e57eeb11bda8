/*
 * msm_bitmap.cuh — sum of the points selected by a bitmap (the "ones" of the 0/1 split),
 * written once over the coordinate field and instantiated by msm_g1.cu / msm_g2.cu.
 *
 * Thread t adds the selected points of bitmap word t (64 points) with XYZZ mixed
 * additions; the per-word sums are then added as a tree, MSM_CHUNK entries per thread per
 * level, until one is left. Every point is read once, coalesced within a warp's words.
 * Threading: host functions enqueue on the caller's stream.
 */
#ifndef CUZK_GPU_MSM_BITMAP_CUH
#define CUZK_GPU_MSM_BITMAP_CUH

#include "gpu/msm_pippenger.cuh"

/* msm_bitmap_plan and its layout: msm_plan.h. */

template <class F>
__global__ void msm_bitmap_word_kernel(gpu_xyzz<F> *out, const gpu_aff<F> *points,
                                       const uint64_t *bitmap, size_t n, size_t nw)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nw)
        return;
    uint64_t word = bitmap[t];
    size_t rest = n - t * 64;
    if (rest < 64)
        word &= ((uint64_t)1 << rest) - 1; /* bits at positions >= n are ignored */
    gpu_xyzz<F> acc;
    gpu_xyzz_set_inf(&acc);
    if (word) {
        /* the next selected point is loaded before the current addition, so its latency
         * hides behind the arithmetic instead of stalling each iteration */
        const gpu_aff<F> *base = points + t * 64;
        gpu_aff<F> next = base[__ffsll((long long)word) - 1];
        word &= word - 1;
        for (;;) {
            gpu_aff<F> cur = next;
            bool more = word != 0;
            if (more) {
                next = base[__ffsll((long long)word) - 1];
                word &= word - 1;
            }
            acc = gpu_xyzz_add_aff(acc, cur);
            if (!more)
                break;
        }
    }
    out[t] = acc;
}

/* out[t] = sum of in[t MSM_CHUNK .. (t + 1) MSM_CHUNK) (clipped to m) */
template <class F>
__global__ void msm_xyzz_sum_kernel(gpu_xyzz<F> *out, const gpu_xyzz<F> *in, size_t m)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t begin = t * MSM_CHUNK;
    if (begin >= m)
        return;
    size_t end = begin + MSM_CHUNK < m ? begin + MSM_CHUNK : m;
    gpu_xyzz<F> acc = in[begin];
    for (size_t j = begin + 1; j < end; j++)
        acc = gpu_xyzz_add(acc, in[j]);
    out[t] = acc;
}

/* res (device XYZZ) = sum of points[i] with bit i set; base holds pl->total bytes. */
template <class F>
static cuzk_status msm_bitmap_run(gpu_xyzz<F> *res, const gpu_aff<F> *points,
                                  const uint64_t *bitmap, const msm_bitmap_plan *pl,
                                  uint8_t *base, cudaStream_t s, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    gpu_xyzz<F> *a = (gpu_xyzz<F> *)(base + pl->off_a), *b = (gpu_xyzz<F> *)(base + pl->off_b);
    size_t m = pl->nw;
    gpu_prof_mark(s, "msm: bitmap sum");
    msm_bitmap_word_kernel<F><<<msm_blocks(m, 128), 128, 0, s>>>(a, points, bitmap, pl->n, m);
    CUZK_CUDA_TRY(err, cudaGetLastError());
    if (m == 1) {
        CUZK_CUDA_TRY(err, cudaMemcpyAsync(res, a, sizeof *res, cudaMemcpyDeviceToDevice, s));
    }
    while (m > 1) {
        size_t next = msm_div_up(m, MSM_CHUNK);
        msm_xyzz_sum_kernel<F><<<msm_blocks(next, 64), 64, 0, s>>>(next == 1 ? res : b, a, m);
        CUZK_CUDA_TRY(err, cudaGetLastError());
        gpu_xyzz<F> *tp = a;
        a = b;
        b = tp;
        m = next;
    }
    gpu_prof_mark(s, NULL);
fail:
    return st;
}

#endif /* CUZK_GPU_MSM_BITMAP_CUH */
