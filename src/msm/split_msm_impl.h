/*
 * split_msm_impl.h — the MSM that picks the 0/1 split when it pays (cuzk/msm.h,
 * cuzk_g{1,2}s_msm_auto), instantiated by msm_g1.c / msm_g2.c with PT/PTS/AFF/JAC.
 *
 * Split buffers, carved from the caller's split scratch after realigning it to 64 bytes:
 *   ones bitmap (ceil(n/64) u64) | tail scalars (n Fr) | tail indices (n u32) | tail points (n AFF)
 * Threading: runs on the caller's pool; no global state.
 */
#include <stdint.h>

#define SPLIT_ALIGN 64u
static size_t PTS(split_align)(size_t x)
{
    return (x + (SPLIT_ALIGN - 1)) & ~(size_t)(SPLIT_ALIGN - 1);
}

size_t PTS(msm_auto_split_size)(size_t n)
{
    if (n > UINT32_MAX)
        return 0;
    return SPLIT_ALIGN + PTS(split_align)((n + 63) / 64 * sizeof(uint64_t)) +
           PTS(split_align)(n * sizeof(cuzk_fr)) + PTS(split_align)(n * sizeof(uint32_t)) +
           PTS(split_align)(n * sizeof(AFF));
}

cuzk_status PTS(msm_auto)(JAC *out, const AFF *points, const cuzk_fr *scalars, size_t n,
                          void *split_scratch, size_t split_size, void *scratch,
                          size_t scratch_size, cuzk_pool *pool)
{
    if (!out || (n && (!points || !scalars)))
        return CUZK_ERR_INVALID_ARG;
    if (n == 0 || n > UINT32_MAX) /* tail indices are u32: beyond that, no split */
        return PTS(msm)(out, points, scalars, n, scratch, scratch_size, pool);
    size_t need = PTS(msm_auto_split_size)(n);
    if (!split_scratch || need == 0 || split_size < need)
        return CUZK_ERR_INVALID_ARG;
    uint8_t *base = (uint8_t *)(((uintptr_t)split_scratch + (SPLIT_ALIGN - 1)) &
                                ~(uintptr_t)(SPLIT_ALIGN - 1));
    uint64_t *bitmap = (uint64_t *)base;
    base += PTS(split_align)((n + 63) / 64 * sizeof(uint64_t));
    cuzk_fr *tail = (cuzk_fr *)base;
    base += PTS(split_align)(n * sizeof(cuzk_fr));
    uint32_t *idx = (uint32_t *)base;
    base += PTS(split_align)(n * sizeof(uint32_t));
    AFF *tail_pts = (AFF *)base;

    size_t tl = 0, ones = 0;
    cuzk_status st = cuzk_msm_split_scalars(bitmap, tail, idx, &tl, &ones, scalars, n);
    if (st != CUZK_OK)
        return st;
    if (!cuzk_msm_split_pays(n, ones))
        return PTS(msm)(out, points, scalars, n, scratch, scratch_size, pool);
    JAC tail_sum;
    if ((st = PTS(sum_bitmap)(out, points, bitmap, n, scratch, scratch_size, pool)) != CUZK_OK)
        return st;
    PTS(gather)(tail_pts, points, idx, tl);
    if ((st = PTS(msm)(&tail_sum, tail_pts, tail, tl, scratch, scratch_size, pool)) != CUZK_OK)
        return st;
    PT(jac_add)(out, out, &tail_sum);
    return CUZK_OK;
}
