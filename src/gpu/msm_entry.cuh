/*
 * msm_entry.cuh — the extern "C" MSM entry points of cuzk/gpu.h (plain MSM, bitmap sum,
 * 0/1-split MSM and their scratch sizes), stamped out per group by msm_g1.cu and
 * msm_g2.cu: argument checks, scratch checks, then the templates of msm_pippenger.cuh,
 * msm_bitmap.cuh and msm_split.cuh.
 *
 * The scratch a call gets picks its plan: the default window width when the scratch is
 * *_scratch_size(n), the widest cap that fits when it is smaller (msm_plan_fit), and an
 * error below *_scratch_size_least(n).
 * Scratch sizes need CUB's temporary-storage sizes, which ask the current device; without
 * one they are SIZE_MAX (no scratch can be large enough). n = 0 needs no scratch: the
 * result is infinity (Z = 0). n is limited to 2^31 - 1 (31-bit point indices in the sorted
 * pairs, CUB's int item counts); larger n is CUZK_ERR_INVALID_ARG.
 * Threading: see cuzk/gpu.h.
 */
#ifndef CUZK_GPU_MSM_ENTRY_CUH
#define CUZK_GPU_MSM_ENTRY_CUH

#include "cuzk/gpu.h"
#include "gpu/msm_split.cuh"

#define MSM_MAX_N ((size_t)0x7fffffff)

template <class F>
static cuzk_status msm_out_infinity(gpu_jac<F> *out, cudaStream_t s, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    CUZK_CUDA_TRY(err, cudaMemsetAsync(out, 0, sizeof *out, s));
fail:
    return st;
}

static cuzk_status msm_check(const void *out, const void *pts, const void *other, size_t n,
                             cuzk_error *err)
{
    if (!out || (n > 0 && (!pts || !other)))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "NULL device buffer");
    if (n > MSM_MAX_N)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "n = %zu exceeds 2^31 - 1", n);
    return CUZK_OK;
}

static cuzk_status msm_check_scratch(const void *scratch, size_t have, size_t need,
                                     cuzk_error *err)
{
    if (need == SIZE_MAX)
        return cuzk_error_set(err, CUZK_ERR_CUDA, "cannot size the device sort (no device?)");
    if (!scratch || have < need)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "device scratch too small: %zu bytes, need %zu", have, need);
    return CUZK_OK;
}

static unsigned msm_cap_bits(unsigned bits)
{
    return bits < MSM_MIN_C ? MSM_MIN_C : bits > MSM_MAX_C ? MSM_MAX_C : bits;
}

template <class F> static size_t msm_scratch_size_t(size_t n, unsigned max_c = MSM_MAX_C)
{
    msm_plan pl;
    if (n == 0)
        return 0;
    if (n > MSM_MAX_N || !msm_plan_make(&pl, n, n, sizeof(gpu_xyzz<F>), msm_cap_bits(max_c)))
        return SIZE_MAX;
    return pl.total;
}

template <class F> static size_t msm_bitmap_scratch_size_t(size_t n)
{
    msm_bitmap_plan pl;
    if (n == 0)
        return 0;
    if (n > MSM_MAX_N)
        return SIZE_MAX;
    msm_bitmap_plan_make(&pl, n, sizeof(gpu_xyzz<F>));
    return pl.total;
}

template <class F> static size_t msm_auto_scratch_size_t(size_t n, unsigned max_c = MSM_MAX_C)
{
    msm_auto_plan pl;
    if (n == 0)
        return 0;
    if (n > MSM_MAX_N || !msm_auto_plan_make(&pl, n, sizeof(gpu_xyzz<F>), msm_cap_bits(max_c)))
        return SIZE_MAX;
    return pl.total;
}

/* The least scratch any window cap needs (the totals are not monotone in the cap: at small
 * n narrower windows mean more windows and more sorted pairs). */
template <class F, bool AUTO> static size_t msm_least_scratch_t(size_t n)
{
    size_t least = SIZE_MAX;
    for (unsigned c = MSM_MIN_C; c <= MSM_MAX_C; c++) {
        size_t t = AUTO ? msm_auto_scratch_size_t<F>(n, c) : msm_scratch_size_t<F>(n, c);
        least = t < least ? t : least;
    }
    return least;
}

template <class F>
static cuzk_status msm_entry(gpu_jac<F> *out, const gpu_aff<F> *pts, const cuzk_fr *sc, size_t n,
                             void *scratch, size_t scratch_size, cudaStream_t s, cuzk_error *err)
{
    cuzk_status st = msm_check(out, pts, sc, n, err);
    if (st != CUZK_OK)
        return st;
    if (n == 0)
        return msm_out_infinity(out, s, err);
    msm_plan pl;
    if (!scratch || !msm_plan_fit(&pl, n, n, sizeof(gpu_xyzz<F>), scratch_size)) {
        st = msm_check_scratch(scratch, scratch ? scratch_size : 0,
                               msm_least_scratch_t<F, false>(n), err);
        return st != CUZK_OK ? st
                             : cuzk_error_set(err, CUZK_ERR_CUDA, "cannot plan the device MSM");
    }
    uint8_t *base = msm_scratch_base(scratch);
    gpu_xyzz<F> *res = (gpu_xyzz<F> *)(base + pl.off_res);
    if ((st = msm_pippenger_run<F>(res, pts, sc, &pl, base, s, err)) != CUZK_OK)
        return st;
    msm_finish_kernel<F><<<1, 1, 0, s>>>(out, res, (const gpu_xyzz<F> *)NULL);
    CUZK_CUDA_TRY(err, cudaGetLastError());
fail:
    return st;
}

template <class F>
static cuzk_status msm_bitmap_entry(gpu_jac<F> *out, const gpu_aff<F> *pts, const uint64_t *bm,
                                    size_t n, void *scratch, size_t scratch_size, cudaStream_t s,
                                    cuzk_error *err)
{
    cuzk_status st = msm_check(out, pts, bm, n, err);
    if (st != CUZK_OK)
        return st;
    if (n == 0)
        return msm_out_infinity(out, s, err);
    msm_bitmap_plan pl;
    msm_bitmap_plan_make(&pl, n, sizeof(gpu_xyzz<F>));
    if ((st = msm_check_scratch(scratch, scratch_size, pl.total, err)) != CUZK_OK)
        return st;
    uint8_t *base = msm_scratch_base(scratch);
    gpu_xyzz<F> *res = (gpu_xyzz<F> *)(base + pl.off_res);
    if ((st = msm_bitmap_run<F>(res, pts, bm, &pl, base, s, err)) != CUZK_OK)
        return st;
    msm_finish_kernel<F><<<1, 1, 0, s>>>(out, res, (const gpu_xyzz<F> *)NULL);
    CUZK_CUDA_TRY(err, cudaGetLastError());
fail:
    return st;
}

template <class F>
static cuzk_status msm_auto_entry(gpu_jac<F> *out, const gpu_aff<F> *pts, const cuzk_fr *sc,
                                  size_t n, void *scratch, size_t scratch_size, cudaStream_t s,
                                  cuzk_error *err)
{
    cuzk_status st = msm_check(out, pts, sc, n, err);
    if (st != CUZK_OK)
        return st;
    if (n == 0)
        return msm_out_infinity(out, s, err);
    msm_auto_plan pl;
    if (!scratch || !msm_auto_plan_fit(&pl, n, sizeof(gpu_xyzz<F>), scratch_size)) {
        st = msm_check_scratch(scratch, scratch ? scratch_size : 0,
                               msm_least_scratch_t<F, true>(n), err);
        return st != CUZK_OK ? st
                             : cuzk_error_set(err, CUZK_ERR_CUDA, "cannot plan the device MSM");
    }
    return msm_auto_run<F>(out, pts, sc, &pl, msm_scratch_base(scratch), s, err);
}

/* The extern "C" functions of cuzk/gpu.h for one group G (g1 / g2) over field F. */
#define MSM_DEFINE_ENTRY_POINTS(G, F)                                                      \
    extern "C" size_t cuzk_gpu_##G##s_msm_scratch_size(size_t n)                           \
    {                                                                                      \
        return msm_scratch_size_t<F>(n);                                                   \
    }                                                                                      \
    extern "C" size_t cuzk_gpu_##G##s_msm_scratch_size_capped(size_t n, unsigned bits)     \
    {                                                                                      \
        return msm_scratch_size_t<F>(n, bits);                                             \
    }                                                                                      \
    extern "C" size_t cuzk_gpu_##G##s_msm_scratch_size_least(size_t n)                     \
    {                                                                                      \
        return msm_least_scratch_t<F, false>(n);                                           \
    }                                                                                      \
    extern "C" cuzk_status cuzk_gpu_##G##s_msm(cuzk_##G##_jac *d_out,                      \
                                               const cuzk_##G##_affine *d_points,          \
                                               const cuzk_fr *d_scalars, size_t n,         \
                                               void *d_scratch, size_t scratch_size,       \
                                               cuzk_gpu_stream s, cuzk_error *err)         \
    {                                                                                      \
        return msm_entry<F>((gpu_jac<F> *)d_out, (const gpu_aff<F> *)d_points, d_scalars,  \
                            n, d_scratch, scratch_size, (cudaStream_t)s, err);             \
    }                                                                                      \
    extern "C" size_t cuzk_gpu_##G##s_sum_bitmap_scratch_size(size_t n)                    \
    {                                                                                      \
        return msm_bitmap_scratch_size_t<F>(n);                                            \
    }                                                                                      \
    extern "C" cuzk_status cuzk_gpu_##G##s_sum_bitmap(                                     \
        cuzk_##G##_jac *d_out, const cuzk_##G##_affine *d_points, const uint64_t *d_bitmap,\
        size_t n, void *d_scratch, size_t scratch_size, cuzk_gpu_stream s, cuzk_error *err)\
    {                                                                                      \
        return msm_bitmap_entry<F>((gpu_jac<F> *)d_out, (const gpu_aff<F> *)d_points,      \
                                   d_bitmap, n, d_scratch, scratch_size, (cudaStream_t)s,  \
                                   err);                                                   \
    }                                                                                      \
    extern "C" size_t cuzk_gpu_##G##s_msm_auto_scratch_size(size_t n)                      \
    {                                                                                      \
        return msm_auto_scratch_size_t<F>(n);                                              \
    }                                                                                      \
    extern "C" size_t cuzk_gpu_##G##s_msm_auto_scratch_size_capped(size_t n, unsigned bits)\
    {                                                                                      \
        return msm_auto_scratch_size_t<F>(n, bits);                                        \
    }                                                                                      \
    extern "C" size_t cuzk_gpu_##G##s_msm_auto_scratch_size_least(size_t n)                \
    {                                                                                      \
        return msm_least_scratch_t<F, true>(n);                                            \
    }                                                                                      \
    extern "C" cuzk_status cuzk_gpu_##G##s_msm_auto(                                       \
        cuzk_##G##_jac *d_out, const cuzk_##G##_affine *d_points, const cuzk_fr *d_scalars,\
        size_t n, void *d_scratch, size_t scratch_size, cuzk_gpu_stream s, cuzk_error *err)\
    {                                                                                      \
        return msm_auto_entry<F>((gpu_jac<F> *)d_out, (const gpu_aff<F> *)d_points,        \
                                 d_scalars, n, d_scratch, scratch_size, (cudaStream_t)s,   \
                                 err);                                                     \
    }

#endif /* CUZK_GPU_MSM_ENTRY_CUH */
