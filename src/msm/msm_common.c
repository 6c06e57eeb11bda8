/*
 * msm_common.c — the parts of the MSM layer that do not depend on the group: window
 * choice, scalar conversion to canonical form, the 0/1/significant scalar split and the
 * rule deciding when that split pays (shared with the GPU path).
 *
 * Threading: msm_scalars_to_canonical runs on the caller's pool; the rest is pure and
 * single-threaded on caller memory.
 */
#include <string.h>

#include "cuzk/msm.h"
#include "msm/msm_internal.h"
#include "util/util_export.h"

/*
 * Pippenger cost for n points and width c, in bucket-addition units:
 *   ceil(256/c) windows * (n bucket additions + 2^(c-1) buckets * msm_reduction_units(c)).
 * The doublings (256 in all) do not depend on c. c is capped at MSM_MAX_C (see there).
 */
unsigned cuzk_msm_window_bits(size_t n)
{
    unsigned best = 2;
    double best_cost = 0;
    for (unsigned c = 2; c <= MSM_MAX_C; c++) {
        double w = (double)msm_num_windows(c);
        double cost = w * ((double)n + msm_reduction_units(c) * (double)((size_t)1 << (c - 1)));
        if (c == 2 || cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    return best;
}

/* A bitmap sum costs about 6 multiplications per point against roughly 10/c + a share of
 * the window work for Pippenger; below an eighth ones the split does not pay for itself. */
bool cuzk_msm_split_pays(size_t n, size_t ones) { return ones >= 64 && ones * 8 >= n; }

typedef struct to_canon_ctx {
    uint64_t *out;
    const cuzk_fr *in;
} to_canon_ctx;

static void to_canon_chunk(void *ctxp, size_t begin, size_t end, unsigned worker_id)
{
    (void)worker_id;
    to_canon_ctx *ctx = ctxp;
    for (size_t i = begin; i < end; i++)
        cuzk_fr_to_canonical(ctx->out + 4 * i, &ctx->in[i]);
}

void msm_scalars_to_canonical(uint64_t *out, const cuzk_fr *in, size_t n, cuzk_pool *pool)
{
    to_canon_ctx ctx = {out, in};
    /* ~50 ns per conversion: 4096 per chunk keeps the hand-off cost negligible */
    cuzk_pool_for(pool, n, to_canon_chunk, &ctx, 4096);
}

cuzk_status msm_check_canonical(const uint64_t *k, size_t n, cuzk_error *err)
{
    for (size_t i = 0; i < n; i++) {
        const uint64_t *ki = k + 4 * i;
        for (int j = CUZK_FR_LIMBS; j-- > 0;) {
            if (ki[j] < CUZK_FR_MODULUS[j])
                break;
            if (ki[j] > CUZK_FR_MODULUS[j] || j == 0)
                return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                      "msm: canonical scalar %zu is not below r", i);
        }
    }
    return CUZK_OK;
}

cuzk_status cuzk_msm_split_scalars(uint64_t *ones_bitmap, cuzk_fr *tail_scalars,
                                   uint32_t *tail_index, size_t *tail_len,
                                   size_t *ones_count, const cuzk_fr *scalars, size_t n)
{
    if (!tail_len || (n > 0 && (!ones_bitmap || !tail_scalars || !tail_index || !scalars)))
        return CUZK_ERR_INVALID_ARG;
    if (n > (size_t)UINT32_MAX)
        return CUZK_ERR_INVALID_ARG;
    /* an unreduced one (R + r) would land in the tail instead of the bitmap */
    CUZK_VERIFY_CHECK(verify_first_unreduced(scalars->l, n, CUZK_FR_MODULUS, CUZK_FR_LIMBS) ==
                          SIZE_MAX,
                      "scalar %zu of %zu is not reduced",
                      verify_first_unreduced(scalars->l, n, CUZK_FR_MODULUS, CUZK_FR_LIMBS), n);
    size_t nwords = (n + 63) / 64;
    size_t t = 0, ones = 0;
    for (size_t w = 0; w < nwords; w++) {
        uint64_t word = 0;
        size_t end = (w + 1) * 64 < n ? (w + 1) * 64 : n;
        for (size_t i = w * 64; i < end; i++) {
            const cuzk_fr *s = &scalars[i];
            /* Montgomery one and zero compare as raw limbs: both forms are reduced */
            if (memcmp(s, &CUZK_FR_ONE, sizeof *s) == 0) {
                word |= (uint64_t)1 << (i % 64);
                ones++;
            } else if (!cuzk_fr_is_zero(s)) {
                tail_scalars[t] = *s;
                tail_index[t] = (uint32_t)i;
                t++;
            }
        }
        ones_bitmap[w] = word;
    }
    *tail_len = t;
    if (ones_count)
        *ones_count = ones;
    return CUZK_OK;
}
