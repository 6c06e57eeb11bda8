/*
 * msm_split.cuh — the witness-driven MSM with the 0/1 split on the device
 * (cuzk_gpu_g{1,2}s_msm_auto), written once over the coordinate field.
 *
 *   1. classify: one warp per 64 scalars builds the ones bitmap word with two ballots,
 *      counts the ones (one atomic per word), flags the "other" scalars;
 *   2. read back the ones: the routine's first host synchronisation;
 *   3. cuzk_msm_split_pays(n, ones) (the rule shared with the CPU path) decides:
 *      split: the flagged indices compacted in increasing order (CUB
 *             DeviceSelect::Flagged) and their count read back (the second
 *             synchronisation), then bitmap sum + tail MSM, added; the tail MSM reads its
 *             scalars and points in place through the index list (no gathered copies: at
 *             n = 2^27 G1 those were up to 16 GiB of scratch);
 *      else:  one plain MSM over everything.
 * Threading: host functions enqueue on the caller's stream and wait on it (step 2, and once
 * more for a split).
 */
#ifndef CUZK_GPU_MSM_SPLIT_CUH
#define CUZK_GPU_MSM_SPLIT_CUH

#include <cub/device/device_select.cuh>

#include "cuzk/msm.h"
#include "gpu/msm_bitmap.cuh"

/* The split's plan (msm_plan.h), CUB's sort and select sized by CUB; false when CUB
 * cannot size them (no device). */
static bool msm_auto_plan_make(msm_auto_plan *pl, size_t n, size_t xyzz_bytes,
                               unsigned max_c = MSM_MAX_C)
{
    cub::DoubleBuffer<uint32_t> kd(NULL, NULL), vd(NULL, NULL);
    size_t sort = 0, sel = 0;
    int *nsel = NULL;
    if (cub::DeviceRadixSort::SortPairs(NULL, sort, kd, vd, (int)msm_pairs_cap(n, max_c), 0,
                                        32) != cudaSuccess ||
        cub::DeviceSelect::Flagged(NULL, sel, (const uint32_t *)NULL, (const uint8_t *)NULL,
                                   (uint32_t *)NULL, nsel, (int)n) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    msm_auto_plan_layout(pl, n, xyzz_bytes, max_c, sort, sel);
    return true;
}

/* msm_plan_fit for the split: the widest window cap whose scratch fits `have`. */
static bool msm_auto_plan_fit(msm_auto_plan *pl, size_t n, size_t xyzz_bytes, size_t have)
{
    for (unsigned c = MSM_MAX_C; c >= MSM_MIN_C; c--) {
        if (!msm_auto_plan_make(pl, n, xyzz_bytes, c))
            return false;
        if (pl->total <= have)
            return true;
    }
    return false;
}

/* Warp v handles scalars [64 v, 64 v + 64): lanes read v*64 + lane and v*64 + 32 + lane. */
static __global__ void msm_classify_kernel(uint64_t *bitmap, msm_split_counts *cnt, uint32_t *iota,
                                    uint8_t *flags, const msm_scalar *scalars, size_t n)
{
    size_t gt = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t v = gt / 32;
    unsigned lane = threadIdx.x % 32;
    if (v * 64 >= n) /* whole warp leaves together: v is uniform within the warp */
        return;
    uint32_t half[2];
#pragma unroll
    for (int h = 0; h < 2; h++) {
        size_t i = v * 64 + 32 * h + lane;
        bool one = false;
        if (i < n) {
            msm_scalar k = scalars[i];
            one = msm_scalar_is_mont_one(k);
            flags[i] = (uint8_t)(!one && !msm_scalar_is_zero(k));
            iota[i] = (uint32_t)i;
        }
        half[h] = __ballot_sync(0xffffffffu, one);
    }
    if (lane == 0) {
        bitmap[v] = (uint64_t)half[0] | (uint64_t)half[1] << 32;
        unsigned ones = (unsigned)__popc(half[0]) + (unsigned)__popc(half[1]);
        if (ones)
            atomicAdd(&cnt->ones, (unsigned long long)ones);
    }
}

/* out = to_jac(a (+ b when b is not NULL)) */
template <class F>
static __global__ void msm_finish_kernel(gpu_jac<F> *out, const gpu_xyzz<F> *a, const gpu_xyzz<F> *b)
{
    gpu_xyzz<F> r = *a;
    if (b)
        r = gpu_xyzz_add(r, *b);
    *out = gpu_xyzz_to_jac(r);
}

/* n >= 1; base: aligned scratch of pl->total bytes. */
template <class F>
static cuzk_status msm_auto_run(gpu_jac<F> *out, const gpu_aff<F> *points, const cuzk_fr *scalars,
                                const msm_auto_plan *pl, uint8_t *base, cudaStream_t s,
                                cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    const size_t n = pl->n;
    uint64_t *bitmap = (uint64_t *)(base + pl->off_bitmap);
    msm_split_counts *cnt = (msm_split_counts *)(base + pl->off_cnt);
    uint32_t *idx = (uint32_t *)(base + pl->off_idx);
    uint32_t *iota = (uint32_t *)(base + pl->off_iota);
    uint8_t *flags = base + pl->off_flags;
    gpu_xyzz<F> *res_a = (gpu_xyzz<F> *)(base + pl->off_res_a);
    gpu_xyzz<F> *res_b = (gpu_xyzz<F> *)(base + pl->off_res_b);
    uint8_t *sub = msm_scratch_base(base + pl->off_sub);
    msm_split_counts host_cnt;
    size_t sel_bytes = pl->sel_bytes;

    gpu_prof_mark(s, "msm: classify");
    CUZK_CUDA_TRY(err, cudaMemsetAsync(cnt, 0, sizeof *cnt, s));
    msm_classify_kernel<<<msm_blocks(pl->nw * 32, 256), 256, 0, s>>>(
        bitmap, cnt, iota, flags, (const msm_scalar *)(const void *)scalars, n);
    CUZK_CUDA_TRY(err, cudaGetLastError());
    CUZK_CUDA_TRY(err, cudaMemcpyAsync(&host_cnt, cnt, sizeof host_cnt, cudaMemcpyDeviceToHost, s));
    CUZK_CUDA_TRY(err, cudaStreamSynchronize(s));

    if (cuzk_msm_split_pays(n, (size_t)host_cnt.ones)) {
        /* the tail's indices only when they are used: a dense witness (WindowPoSt, 1 % ones)
         * runs the plain MSM, and selecting ~100 M flags was ~15 ms of each of its MSMs */
        CUZK_CUDA_TRY(err, cub::DeviceSelect::Flagged(base + pl->off_sel, sel_bytes,
                                                      (const uint32_t *)iota,
                                                      (const uint8_t *)flags, idx, &cnt->tail,
                                                      (int)n, s));
        CUZK_CUDA_TRY(err, cudaMemcpyAsync(&host_cnt.tail, &cnt->tail, sizeof host_cnt.tail,
                                           cudaMemcpyDeviceToHost, s));
        CUZK_CUDA_TRY(err, cudaStreamSynchronize(s));
        gpu_prof_mark(s, NULL);
        size_t tl = (size_t)host_cnt.tail;
        msm_bitmap_plan bp;
        msm_bitmap_plan_make(&bp, n, sizeof(gpu_xyzz<F>));
        if ((st = msm_bitmap_run<F>(res_a, points, bitmap, &bp, sub, s, err)) != CUZK_OK)
            goto fail;
        if (tl == 0) {
            CUZK_CUDA_TRY(err, cudaMemsetAsync(res_b, 0, sizeof *res_b, s));
        } else {
            msm_plan mp;
            if (!msm_plan_make(&mp, tl, n, sizeof(gpu_xyzz<F>), pl->max_c) ||
                mp.total > pl->sub_bytes) {
                st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "tail MSM of %zu points does not "
                                    "fit the split scratch", tl);
                goto fail;
            }
            if ((st = msm_pippenger_run<F>(res_b, points, scalars, &mp, sub, s, err, idx)) !=
                CUZK_OK)
                goto fail;
        }
        msm_finish_kernel<F><<<1, 1, 0, s>>>(out, res_a, res_b);
    } else {
        gpu_prof_mark(s, NULL);
        msm_plan mp;
        if (!msm_plan_make(&mp, n, n, sizeof(gpu_xyzz<F>), pl->max_c)) {
            st = cuzk_error_set(err, CUZK_ERR_CUDA, "cannot size the device sort");
            goto fail;
        }
        if ((st = msm_pippenger_run<F>(res_b, points, scalars, &mp, sub, s, err)) != CUZK_OK)
            goto fail;
        msm_finish_kernel<F><<<1, 1, 0, s>>>(out, res_b, (const gpu_xyzz<F> *)NULL);
    }
    CUZK_CUDA_TRY(err, cudaGetLastError());
fail:
    return st;
}

#endif /* CUZK_GPU_MSM_SPLIT_CUH */
