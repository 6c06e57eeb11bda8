/*
 * batch_add_impl.h — sum of the points selected by a bitmap, with batched affine
 * additions; written once and instantiated by msm_g1.c and msm_g2.c.
 *
 * The includer defines PT/PTS, AFF, JAC, XYZZ, FT and the field ops F_ADD F_SUB F_DBL
 * F_MUL F_SQR F_EQ F_IS_ZERO F_INV_VAR (signatures of cuzk_fp_*) and F_ONE (an lvalue),
 * and includes it after pippenger_impl.h (PT(msm_aff_is_inf) comes from there).
 *
 * Why: an affine addition P + Q needs one inversion; Montgomery's trick shares one
 * inversion across many independent pairs (3 multiplications each), so a pair costs
 * about 2M+1S+3M = 6 multiplications, against 8M+2S for a mixed XYZZ addition.
 *
 * How: each thread streams its selected points into a buffer of BA_CAP points; when the
 * buffer cannot take another 64-bit word's worth, one "round" adds the points pairwise
 * (buf[2i] + buf[2i+1], one shared inversion) and compacts the results into the front,
 * halving the count. Streaming keeps every round near BA_CAP/2 pairs, so inversions stay
 * rare. At the end each buffer is reduced by rounds to at most BA_DRAIN points, which go
 * into the thread's XYZZ accumulator; the accumulators are added at the end.
 * Pair special cases: x1 == x2 with y1 == y2 is a doubling (lambda = 3x^2 / 2y);
 * x1 == x2 otherwise is P + (-P) = O and the pair disappears. Infinity inputs are skipped
 * when gathering, so the buffer only ever holds finite points.
 *
 * Scratch per thread (MSM_ALIGN-aligned): state (count + accumulator), BA_CAP points,
 * BA_CAP/2 denominators, BA_CAP/2 prefix products.
 *
 * Threading: bitmap words are split over the pool; worker_id selects the thread state.
 */
#include <string.h>

#include "msm/msm_internal.h"

#ifndef BA_CAP
/* 1024 points: 96 KiB of G1 (192 KiB of G2) buffer plus denominators stays in L2, and
 * ~480 pairs per inversion make the inversion (~100 multiplications' worth) ~0.2%. */
#define BA_CAP 1024u
/* Below this many points a round's inversion costs more than XYZZ additions would. */
#define BA_DRAIN 16u
#endif

typedef struct PT(ba_state) {
    size_t count;
    XYZZ acc;
} PT(ba_state);

typedef struct PT(ba_ctx) {
    const AFF *points;
    const uint64_t *bitmap;
    size_t n;
    unsigned char *base;   /* per-thread regions, stride bytes apart */
    size_t stride;
} PT(ba_ctx);

static size_t PT(ba_stride)(void)
{
    return msm_round_up(sizeof(PT(ba_state))) + msm_round_up(BA_CAP * sizeof(AFF)) +
           2 * msm_round_up(BA_CAP / 2 * sizeof(FT));
}

/* One pairwise round over buf[0..*count); see the file comment. */
static void PT(ba_round)(AFF *buf, size_t *count, FT *den, FT *pre)
{
    size_t cnt = *count;
    size_t np = cnt / 2;
    /* denominators: x2 - x1, or 2y for a doubling, or 0 for a cancelling pair */
    for (size_t i = 0; i < np; i++) {
        const AFF *a = &buf[2 * i], *b = &buf[2 * i + 1];
        F_SUB(&den[i], &b->x, &a->x);
        if (F_IS_ZERO(&den[i]) && F_EQ(&a->y, &b->y))
            F_DBL(&den[i], &a->y);
    }
    /* Montgomery's trick, skipping zeros: pre[i] = product of the non-zero den[0..i] */
    FT acc = F_ONE;
    for (size_t i = 0; i < np; i++) {
        if (!F_IS_ZERO(&den[i]))
            F_MUL(&acc, &acc, &den[i]);
        pre[i] = acc;
    }
    FT inv;
    F_INV_VAR(&inv, &acc);
    /* walk back: inv = 1/prod(den[0..i]) turns into 1/den[i], stored over den[i] */
    for (size_t i = np; i-- > 0;) {
        if (F_IS_ZERO(&den[i]))
            continue;
        FT di;
        if (i > 0)
            F_MUL(&di, &inv, &pre[i - 1]);
        else
            di = inv;
        F_MUL(&inv, &inv, &den[i]);
        den[i] = di;
    }
    /* Ascending order: pair i writes slot w <= i only after pairs 0..i-1, which were
     * the only readers of slots below 2i, have read them. */
    size_t w = 0;
    for (size_t i = 0; i < np; i++) {
        if (F_IS_ZERO(&den[i]))
            continue;           /* P + (-P) (or a 2-torsion doubling): infinity */
        const AFF a = buf[2 * i], b = buf[2 * i + 1];
        FT lam, t;
        if (F_EQ(&a.x, &b.x)) {
            F_SQR(&t, &a.x);
            F_DBL(&lam, &t);
            F_ADD(&t, &lam, &t);        /* 3 x^2 */
        } else {
            F_SUB(&t, &b.y, &a.y);
        }
        F_MUL(&lam, &t, &den[i]);
        AFF *r = &buf[w++];
        F_SQR(&t, &lam);
        F_SUB(&t, &t, &a.x);
        F_SUB(&r->x, &t, &b.x);         /* x3 = lam^2 - x1 - x2 */
        F_SUB(&t, &a.x, &r->x);
        F_MUL(&t, &lam, &t);
        F_SUB(&r->y, &t, &a.y);         /* y3 = lam (x1 - x3) - y1 */
    }
    if (cnt & 1)
        buf[w++] = buf[cnt - 1];
    *count = w;
}

static void PT(ba_regions)(const PT(ba_ctx) *ctx, unsigned worker_id, PT(ba_state) **st,
                           AFF **buf, FT **den, FT **pre)
{
    unsigned char *cur = ctx->base + (size_t)worker_id * ctx->stride;
    *st = msm_carve(&cur, sizeof(PT(ba_state)));
    *buf = msm_carve(&cur, BA_CAP * sizeof(AFF));
    *den = msm_carve(&cur, BA_CAP / 2 * sizeof(FT));
    *pre = msm_carve(&cur, BA_CAP / 2 * sizeof(FT));
}

static void PT(ba_chunk)(void *ctxp, size_t begin, size_t end, unsigned worker_id)
{
    const PT(ba_ctx) *ctx = ctxp;
    PT(ba_state) *st;
    AFF *buf;
    FT *den, *pre;
    PT(ba_regions)(ctx, worker_id, &st, &buf, &den, &pre);
    size_t count = st->count;
    for (size_t w = begin; w < end; w++) {
        uint64_t word = ctx->bitmap[w];
        if (w * 64 + 64 > ctx->n)                 /* ignore bits at positions >= n */
            word &= ((uint64_t)1 << (ctx->n - w * 64)) - 1;
        if (!word)
            continue;
        while (count + 64 > BA_CAP)
            PT(ba_round)(buf, &count, den, pre);
        while (word) {
            size_t i = w * 64 + (size_t)__builtin_ctzll(word);
            word &= word - 1;
            if (!PT(msm_aff_is_inf)(&ctx->points[i]))
                buf[count++] = ctx->points[i];
        }
    }
    st->count = count;
}

static void PT(ba_drain)(void *ctxp, size_t begin, size_t end, unsigned worker_id)
{
    const PT(ba_ctx) *ctx = ctxp;
    for (size_t t = begin; t < end; t++) {
        PT(ba_state) *st;
        AFF *buf;
        FT *den, *pre;
        /* drain thread t's state (not worker_id's): states are per filling thread */
        PT(ba_regions)(ctx, (unsigned)t, &st, &buf, &den, &pre);
        size_t count = st->count;
        while (count > BA_DRAIN)
            PT(ba_round)(buf, &count, den, pre);
        for (size_t i = 0; i < count; i++)
            PT(xyzz_add_affine)(&st->acc, &st->acc, &buf[i]);
        st->count = 0;
    }
}

size_t PTS(sum_bitmap_scratch_size)(size_t n, size_t nthreads)
{
    (void)n;
    if (nthreads == 0)
        nthreads = 1;
    return MSM_ALIGN + nthreads * PT(ba_stride)();
}

cuzk_status PTS(sum_bitmap)(JAC *out, const AFF *points, const uint64_t *bitmap, size_t n,
                            void *scratch, size_t scratch_size, cuzk_pool *pool)
{
    if (!out || (n > 0 && (!points || !bitmap)))
        return CUZK_ERR_INVALID_ARG;
    size_t nthreads = cuzk_pool_nthreads(pool);
    if (!scratch || scratch_size < PTS(sum_bitmap_scratch_size)(n, nthreads))
        return CUZK_ERR_INVALID_ARG;
    PT(ba_ctx) ctx = {points, bitmap, n, msm_align_ptr(scratch), PT(ba_stride)()};
#if CUZK_VERIFY_ON
    PT(msm_verify_points)(points, n);
    CUZK_VERIFY_CHECK((size_t)(ctx.base + nthreads * ctx.stride - (unsigned char *)scratch) <=
                          PTS(sum_bitmap_scratch_size)(n, nthreads),
                      "the per-thread states end past the scratch size (%zu threads)",
                      nthreads);
#endif
    for (size_t t = 0; t < nthreads; t++) {
        PT(ba_state) *st = (PT(ba_state) *)(void *)(ctx.base + t * ctx.stride);
        st->count = 0;
        PT(xyzz_set_infinity)(&st->acc);
    }
    /* 16 words = up to 1024 points per hand-off */
    cuzk_status s = cuzk_pool_for(pool, (n + 63) / 64, PT(ba_chunk), &ctx, 16);
    if (s == CUZK_OK)
        s = cuzk_pool_for(pool, nthreads, PT(ba_drain), &ctx, 1);
    if (s != CUZK_OK)
        return s;
    XYZZ sum;
    PT(xyzz_set_infinity)(&sum);
    for (size_t t = 0; t < nthreads; t++) {
        PT(ba_state) *st = (PT(ba_state) *)(void *)(ctx.base + t * ctx.stride);
        PT(xyzz_add)(&sum, &sum, &st->acc);
    }
    PT(xyzz_to_jac)(out, &sum);
    return CUZK_OK;
}
