/*
 * pippenger_impl.h — Pippenger MSM with signed (Booth) windows, written once and
 * instantiated by msm_g1.c (over Fp) and msm_g2.c (over Fp2).
 *
 * The includer defines:
 *   PT(name), PTS(name)   public prefixes (cuzk_g1_ / cuzk_g1s_)
 *   AFF, JAC, XYZZ, FT    point and coordinate types
 *   F_ADD F_SUB F_DBL F_NEG F_MUL F_SQR F_EQ F_IS_ZERO F_INV_VAR F_ONE
 *                         field ops with the signatures of cuzk_fp_* (F_ONE an lvalue)
 *
 * Work split: task t handles window (t % W) over point chunk (t / W); there are
 * W * msm_chunks(n, nthreads, W, c) tasks, each writing its window partial sum to its
 * own slot, so the result is independent of which thread ran what. Each thread owns one bucket
 * workspace in the scratch (indexed by the pool's worker_id).
 *
 * Buckets: XYZZ with mixed additions for small windows, affine with batched inversions
 * (bucket_affine_impl.h) from MSM_AFFINE_MIN_C bits up, where there are enough buckets
 * for conflict-free batches.
 *
 * Scratch layout (each region MSM_ALIGN-aligned):
 *   canonical scalars  n * 4 u64        (used by the Montgomery entry point only)
 *   workspaces         nthreads * (2^(c-1) XYZZ buckets, or the affine workspace)
 *   task partial sums  W * chunks XYZZ
 *
 * Threading: see cuzk/msm.h; tasks run on the caller's pool.
 */
#include <string.h>

#include "msm/msm_internal.h"
#include "msm/bucket_affine_impl.h"
#include "util/util_export.h"

typedef struct PT(msm_ctx) {
    const AFF *points;
    const uint64_t *k;   /* canonical scalars, 4 limbs each */
    size_t n, nchunks;
    unsigned c, nwin;
    bool affine;         /* bucket representation */
    unsigned char *ws;   /* nthreads workspaces, ws_stride bytes apart */
    size_t ws_stride;
    XYZZ *partial;       /* nwin * nchunks */
} PT(msm_ctx);

static void PT(msm_task)(const PT(msm_ctx) *ctx, size_t t, unsigned worker_id)
{
    const unsigned c = ctx->c;
    const size_t nb = (size_t)1 << (c - 1);
    const unsigned win = (unsigned)(t % ctx->nwin);
    const size_t chunk = t / ctx->nwin;
    const size_t begin = ctx->n * chunk / ctx->nchunks;
    const size_t end = ctx->n * (chunk + 1) / ctx->nchunks;
    unsigned char *ws = ctx->ws + (size_t)worker_id * ctx->ws_stride;
    if (ctx->affine) {
        PT(aff_ws) aw;
        PT(aff_ws_init)(&aw, ws, nb);
        PT(aff_window)(&ctx->partial[t], &aw, ctx->points, ctx->k, begin, end, win, c);
        return;
    }
    XYZZ *b = (XYZZ *)(void *)ws;

    /* ZZ = 0 marks an empty bucket; zeroing the whole array is cheaper than tracking */
    memset(b, 0, nb * sizeof *b);

    int32_t d_next = begin < end ? msm_booth_digit(ctx->k + 4 * begin, win, c) : 0;
    for (size_t i = begin; i < end; i++) {
        int32_t d = d_next;
        if (i + 1 < end) {
            /* The bucket access is a random walk over up to MiBs: fetching the next
             * bucket while this addition runs hides most of the miss. */
            d_next = msm_booth_digit(ctx->k + 4 * (i + 1), win, c);
            if (d_next != 0)
                __builtin_prefetch(&b[(d_next > 0 ? d_next : -d_next) - 1], 1);
        }
        if (d > 0) {
            PT(xyzz_add_affine)(&b[d - 1], &b[d - 1], &ctx->points[i]);
        } else if (d < 0) {
            AFF q;
            q.x = ctx->points[i].x;
            F_NEG(&q.y, &ctx->points[i].y);
            PT(xyzz_add_affine)(&b[-d - 1], &b[-d - 1], &q);
        }
    }

    /* Running sum: after step j, run = sum_{m >= j} B_m and acc = sum_m (m+1) B_m over
     * the buckets seen, which is the window's sum sum_m digit * P with digit = m + 1. */
    XYZZ run, acc;
    PT(xyzz_set_infinity)(&run);
    PT(xyzz_set_infinity)(&acc);
    for (size_t m = nb; m-- > 0;) {
        PT(xyzz_add)(&run, &run, &b[m]);
        PT(xyzz_add)(&acc, &acc, &run);
    }
    ctx->partial[t] = acc;
}

#if CUZK_VERIFY_ON
/* VERIFY: the points an MSM or bitmap sum accepts are reduced and on the curve (the
 * addition formulas silently give garbage otherwise). */
static void PT(msm_verify_points)(const AFF *points, size_t n)
{
    const size_t per = sizeof *points / sizeof(cuzk_fp);
    size_t bad = verify_first_unreduced((const uint64_t *)(const void *)points, n * per,
                                        CUZK_FP_MODULUS, CUZK_FP_LIMBS);
    CUZK_VERIFY_CHECK(bad == SIZE_MAX, "point %zu of %zu has an unreduced coordinate",
                      bad / per, n);
    for (size_t i = 0; i < n; i++)
        CUZK_VERIFY_CHECK(PT(affine_on_curve)(&points[i]),
                          "point %zu of %zu is not on the curve", i, n);
}
#endif

static void PT(msm_chunk)(void *ctxp, size_t begin, size_t end, unsigned worker_id)
{
    for (size_t t = begin; t < end; t++)
        PT(msm_task)(ctxp, t, worker_id);
}

static size_t PT(msm_ws_stride)(unsigned c, bool affine)
{
    size_t nb = (size_t)1 << (c - 1);
    return affine ? PT(aff_ws_bytes)(nb) : msm_round_up(nb * sizeof(XYZZ));
}

size_t PTS(msm_tuned_scratch_size)(size_t n, size_t nthreads, unsigned c, bool affine)
{
    if (nthreads == 0)
        nthreads = 1;
    if (c < 1 || c > MSM_MAX_C)
        return 0;
    if (n > SIZE_MAX / 64)
        return SIZE_MAX;        /* impossible size: no scratch can be large enough */
    unsigned nwin = msm_num_windows(c);
    return MSM_ALIGN + msm_round_up(n * 4 * sizeof(uint64_t)) +
           nthreads * PT(msm_ws_stride)(c, affine) +
           msm_round_up((size_t)nwin * msm_chunks(n, nthreads, nwin, c) * sizeof(XYZZ));
}

size_t PTS(msm_scratch_size)(size_t n, size_t nthreads)
{
    unsigned c = cuzk_msm_window_bits(n);
    return PTS(msm_tuned_scratch_size)(n, nthreads, c, c >= MSM_AFFINE_MIN_C);
}

/* k: canonical scalars (checked < r here), or NULL to convert mont into the scratch
 * first. */
static cuzk_status PT(msm_run)(JAC *out, const AFF *points, const cuzk_fr *mont,
                               const uint64_t *k, size_t n, unsigned c, bool affine,
                               void *scratch, size_t scratch_size, cuzk_pool *pool,
                               cuzk_error *err)
{
    if (!out || (n > 0 && (!points || (!mont && !k))) || c < 1 || c > MSM_MAX_C)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "msm: bad argument");
    if (n == 0) {
        PT(jac_set_infinity)(out);
        return CUZK_OK;
    }
    size_t nthreads = cuzk_pool_nthreads(pool);
    size_t need = PTS(msm_tuned_scratch_size)(n, nthreads, c, affine);
    if (!scratch || scratch_size < need)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "msm: scratch of %zu bytes, %zu needed", scratch_size, need);
    if (k) {
        cuzk_status st = msm_check_canonical(k, n, err);
        if (st != CUZK_OK)
            return st;
    }
#if CUZK_VERIFY_ON
    PT(msm_verify_points)(points, n);
    if (mont) {
        size_t bad = verify_first_unreduced(mont->l, n, CUZK_FR_MODULUS, CUZK_FR_LIMBS);
        CUZK_VERIFY_CHECK(bad == SIZE_MAX, "scalar %zu of %zu is not reduced", bad, n);
    }
#endif
    unsigned nwin = msm_num_windows(c);
    size_t nchunks = msm_chunks(n, nthreads, nwin, c);

    unsigned char *cur = msm_align_ptr(scratch);
    uint64_t *kc = msm_carve(&cur, n * 4 * sizeof(uint64_t));
    PT(msm_ctx) ctx;
    ctx.points = points;
    ctx.n = n;
    ctx.nchunks = nchunks;
    ctx.c = c;
    ctx.nwin = nwin;
    ctx.affine = affine;
    ctx.ws_stride = PT(msm_ws_stride)(c, affine);
    ctx.ws = cur;
    cur += nthreads * ctx.ws_stride;
    ctx.partial = msm_carve(&cur, (size_t)nwin * nchunks * sizeof(XYZZ));
    CUZK_VERIFY_CHECK((size_t)(cur - (unsigned char *)scratch) <= need,
                      "carved %zu bytes of a %zu-byte scratch size",
                      (size_t)(cur - (unsigned char *)scratch), need);
    if (!k) {
        msm_scalars_to_canonical(kc, mont, n, pool);
        k = kc;
    }
    ctx.k = k;

    cuzk_status st = cuzk_pool_for(pool, (size_t)nwin * nchunks, PT(msm_chunk), &ctx, 1);
    if (st != CUZK_OK)
        return st;

    /* Horner over windows, top first: acc = acc * 2^c + window_j. */
    JAC acc, wj;
    PT(jac_set_infinity)(&acc);
    for (unsigned j = nwin; j-- > 0;) {
        if (!PT(jac_is_infinity)(&acc))
            for (unsigned i = 0; i < c; i++)
                PT(jac_dbl)(&acc, &acc);
        XYZZ s = ctx.partial[j];
        for (size_t ch = 1; ch < nchunks; ch++)
            PT(xyzz_add)(&s, &s, &ctx.partial[ch * nwin + j]);
        PT(xyzz_to_jac)(&wj, &s);
        PT(jac_add)(&acc, &acc, &wj);
    }
    *out = acc;
    return CUZK_OK;
}

cuzk_status PTS(msm)(JAC *out, const AFF *points, const cuzk_fr *scalars, size_t n,
                     void *scratch, size_t scratch_size, cuzk_pool *pool)
{
    if (n > 0 && !scalars)
        return CUZK_ERR_INVALID_ARG;
    unsigned c = cuzk_msm_window_bits(n);
    return PT(msm_run)(out, points, scalars, NULL, n, c, c >= MSM_AFFINE_MIN_C, scratch,
                       scratch_size, pool, NULL);
}

cuzk_status PTS(msm_canonical)(JAC *out, const AFF *points, const uint64_t *scalars,
                               size_t n, void *scratch, size_t scratch_size,
                               cuzk_pool *pool, cuzk_error *err)
{
    if (n > 0 && !scalars)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "msm: NULL scalars");
    unsigned c = cuzk_msm_window_bits(n);
    return PT(msm_run)(out, points, NULL, scalars, n, c, c >= MSM_AFFINE_MIN_C, scratch,
                       scratch_size, pool, err);
}

cuzk_status PTS(msm_tuned)(JAC *out, const AFF *points, const uint64_t *scalars, size_t n,
                           unsigned c, bool affine, void *scratch, size_t scratch_size,
                           cuzk_pool *pool, cuzk_error *err)
{
    if (n > 0 && !scalars)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "msm: NULL scalars");
    return PT(msm_run)(out, points, NULL, scalars, n, c, affine, scratch, scratch_size, pool,
                       err);
}

void PTS(gather)(AFF *dst, const AFF *points, const uint32_t *index, size_t m)
{
    for (size_t t = 0; t < m; t++)
        dst[t] = points[index[t]];
}
