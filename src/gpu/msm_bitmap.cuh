/*
 * msm_bitmap.cuh — sum of the points selected by a bitmap (the "ones" of the 0/1 split),
 * written once over the coordinate field and instantiated by msm_g1.cu / msm_g2.cu.
 *
 * A warp adds the selected points of 32 bitmap words (2,048 points) with XYZZ mixed
 * additions, its lanes sharing them out evenly (msm_bitmap_warp_kernel); the lanes' sums
 * are then added as a tree, MSM_CHUNK entries per thread per level, until one is left.
 * Every point is read once.
 * Threading: host functions enqueue on the caller's stream.
 */
#ifndef CUZK_GPU_MSM_BITMAP_CUH
#define CUZK_GPU_MSM_BITMAP_CUH

#include "gpu/msm_pippenger.cuh"

/* msm_bitmap_plan and its layout: msm_plan.h. */

#define MSM_BM_WARPS 4u /* warps a block; each holds its 2,048 positions in shared memory */

/* Warp w sums the selected points of bitmap words [32 w, 32 w + 32) (2,048 points): lane l
 * reads word l, a prefix sum of the words' counts over the warp gives each lane where its
 * positions go in the warp's list in shared memory, and then lane l adds selected points l,
 * l + 32, l + 64, ... of the list. Every lane does the same number of additions (within
 * one), where a thread a word made each warp wait for its fullest word; and a warp's 32
 * loads go to 32 neighbouring selected points instead of 32 points 64 apart. Lane l's sum
 * goes to out[32 w + l] (np = nw rounded up to 32 entries). */
template <class F>
__global__ void __launch_bounds__(32 * MSM_BM_WARPS)
    msm_bitmap_warp_kernel(gpu_xyzz<F> *out, const gpu_aff<F> *points, const uint64_t *bitmap,
                           size_t n, size_t nw)
{
    __shared__ uint16_t sel[MSM_BM_WARPS][2048];
    const unsigned lane = threadIdx.x & 31u, wb = threadIdx.x >> 5;
    const size_t warp = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (warp * 32 >= nw) /* uniform within the warp */
        return;
    const size_t t = warp * 32 + lane;
    uint64_t word = 0;
    if (t < nw) {
        word = bitmap[t];
        size_t rest = n - t * 64;
        if (rest < 64)
            word &= ((uint64_t)1 << rest) - 1; /* bits at positions >= n are ignored */
    }
    const unsigned cnt = (unsigned)__popcll(word);
    unsigned incl = cnt;
#pragma unroll
    for (unsigned o = 1; o < 32; o <<= 1) {
        unsigned v = __shfl_up_sync(0xffffffffu, incl, o);
        if (lane >= o)
            incl += v;
    }
    const unsigned total = __shfl_sync(0xffffffffu, incl, 31);
    uint16_t *list = sel[wb];
    for (unsigned pos = incl - cnt; word; word &= word - 1)
        list[pos++] = (uint16_t)(lane * 64 + (unsigned)(__ffsll((long long)word) - 1));
    __syncwarp();
    const gpu_aff<F> *base = points + warp * 2048;
    gpu_xyzz<F> acc;
    gpu_xyzz_set_inf(&acc);
    unsigned k = lane;
    if (sizeof(F) != sizeof(gpu_fp)) {
        /* G2: loaded where used, as in msm_accumulate_kernel (a point ahead spills) */
        for (; k < total; k += 32)
            acc = gpu_xyzz_add_aff(acc, base[list[k]]);
    } else if (k < total) {
        /* the next point is loaded before the current addition, so its latency hides
         * behind the arithmetic */
        gpu_aff<F> next = base[list[k]];
        for (;;) {
            gpu_aff<F> cur = next;
            k += 32;
            bool more = k < total;
            if (more)
                next = base[list[k]];
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
    size_t m = pl->np;
    gpu_prof_mark(s, "msm: bitmap sum");
    msm_bitmap_warp_kernel<F><<<msm_blocks(m, 32 * MSM_BM_WARPS), 32 * MSM_BM_WARPS, 0, s>>>(
        a, points, bitmap, pl->n, pl->nw);
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
