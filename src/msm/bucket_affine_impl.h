/*
 * bucket_affine_impl.h — Pippenger bucket accumulation in affine coordinates with batched
 * inversions, for one window over one point range; included by pippenger_impl.h (same
 * macros: PT, AFF, XYZZ, FT, F_ADD F_SUB F_DBL F_NEG F_MUL F_SQR F_EQ F_IS_ZERO F_INV_VAR
 * F_ONE).
 *
 * Why: an affine bucket addition B += P costs one inversion plus 2M+1S; with Montgomery's
 * trick over BA_BATCH independent additions the inversion costs 3M each, so ~5M+1S per
 * addition against 8M+2S for the XYZZ mixed addition (madd-2008-s), and an affine bucket
 * is half the size of an XYZZ one (less cache pressure at large c).
 *
 * How: additions are collected into a batch in which every bucket appears at most once
 * (a per-bucket stamp equal to the current epoch marks "already in this batch"). A point
 * whose bucket is already in the batch waits in a queue and joins a later batch. An empty
 * bucket just takes the point (no arithmetic). A full batch, or a full queue, is flushed:
 * denominators x_P - x_B (2 y_B for a doubling, 0 for P == -B, which empties the bucket),
 * one shared inversion, then the chord/tangent formulas. Every flush makes progress (the
 * batch is never empty when the queue is full), so the loop terminates for any digit
 * pattern, including windows with a handful of buckets. The window sum is then taken by
 * aff_reduce (row/column trees of the same batched additions, see there).
 *
 * Threading: one workspace per thread (see pippenger_impl.h); no shared writes.
 */

/* 512 additions per inversion keep the inversion (~85 multiplications' worth with
 * safegcd, measured) under 0.2 M per addition (256 measured 2-3 % slower on 2^16 points,
 * 1024 no faster); with >= 1024 buckets a batch of 512 sees ~128 expected conflicts
 * (B^2 / 2nb), which the queue absorbs. */
#define BA_BATCH 512u
#define BA_QUEUE 512u

/* Infinity is (0, 0), as PT(affine_is_infinity) says; inlined here because the bucket
 * loops test it for every point and bucket (a cross-file call was ~3 % of an MSM). */
static inline bool PT(msm_aff_is_inf)(const AFF *p)
{
    return (int)F_IS_ZERO(&p->x) & (int)F_IS_ZERO(&p->y);
}

typedef struct PT(aff_ws) {
    AFF *bk;           /* nb buckets, infinity = (0, 0) */
    uint32_t *stamp;   /* nb epochs */
    uint32_t *bidx;    /* batch: bucket index */
    AFF *bpt;          /* batch: point to add (sign applied) */
    FT *den, *pre;     /* batch: denominators / inverses, prefix products */
    uint32_t *qidx;    /* queue */
    AFF *qpt;
    AFF *tr;           /* nb: the buckets transposed, for the reduction (aff_reduce) */
    size_t bc, qc;     /* batch and queue fill */
    uint32_t epoch;
} PT(aff_ws);

static size_t PT(aff_ws_bytes)(size_t nb)
{
    return msm_round_up(nb * sizeof(AFF)) + msm_round_up(nb * sizeof(uint32_t)) +
           msm_round_up(BA_BATCH * sizeof(uint32_t)) + msm_round_up(BA_BATCH * sizeof(AFF)) +
           2 * msm_round_up(BA_BATCH * sizeof(FT)) + msm_round_up(BA_QUEUE * sizeof(uint32_t)) +
           msm_round_up(BA_QUEUE * sizeof(AFF)) + msm_round_up(nb * sizeof(AFF));
}

static void PT(aff_ws_init)(PT(aff_ws) *ws, unsigned char *cur, size_t nb)
{
    ws->bk = msm_carve(&cur, nb * sizeof(AFF));
    ws->stamp = msm_carve(&cur, nb * sizeof(uint32_t));
    ws->bidx = msm_carve(&cur, BA_BATCH * sizeof(uint32_t));
    ws->bpt = msm_carve(&cur, BA_BATCH * sizeof(AFF));
    ws->den = msm_carve(&cur, BA_BATCH * sizeof(FT));
    ws->pre = msm_carve(&cur, BA_BATCH * sizeof(FT));
    ws->qidx = msm_carve(&cur, BA_QUEUE * sizeof(uint32_t));
    ws->qpt = msm_carve(&cur, BA_QUEUE * sizeof(AFF));
    ws->tr = msm_carve(&cur, nb * sizeof(AFF));
    memset(ws->bk, 0, nb * sizeof(AFF));
    memset(ws->stamp, 0, nb * sizeof(uint32_t));
    ws->bc = ws->qc = 0;
    ws->epoch = 1;
}

/* Applies the batch to the buckets. */
static void PT(aff_apply)(PT(aff_ws) *ws)
{
    const size_t n = ws->bc;
    FT *den = ws->den, *pre = ws->pre;
    for (size_t j = 0; j < n; j++) {
        const AFF *b = &ws->bk[ws->bidx[j]], *p = &ws->bpt[j];
        F_SUB(&den[j], &p->x, &b->x);
        if (F_IS_ZERO(&den[j]) && F_EQ(&p->y, &b->y))
            F_DBL(&den[j], &b->y);
    }
    FT acc = F_ONE, inv;
    for (size_t j = 0; j < n; j++) {
        if (!F_IS_ZERO(&den[j]))
            F_MUL(&acc, &acc, &den[j]);
        pre[j] = acc;
    }
    F_INV_VAR(&inv, &acc);
    for (size_t j = n; j-- > 0;) {
        if (F_IS_ZERO(&den[j]))
            continue;
        FT dj;
        if (j > 0)
            F_MUL(&dj, &inv, &pre[j - 1]);
        else
            dj = inv;
        F_MUL(&inv, &inv, &den[j]);
        den[j] = dj;
    }
    for (size_t j = 0; j < n; j++) {
        AFF *b = &ws->bk[ws->bidx[j]];
        const AFF *p = &ws->bpt[j];
        if (F_IS_ZERO(&den[j])) {       /* B + (-B): the bucket empties */
            memset(b, 0, sizeof *b);
            continue;
        }
        FT lam, t, x3;
        if (F_EQ(&p->x, &b->x)) {
            F_SQR(&t, &b->x);
            F_DBL(&lam, &t);
            F_ADD(&t, &lam, &t);        /* 3 x^2 */
        } else {
            F_SUB(&t, &p->y, &b->y);
        }
        F_MUL(&lam, &t, &den[j]);
        F_SQR(&t, &lam);
        F_SUB(&t, &t, &b->x);
        F_SUB(&x3, &t, &p->x);          /* x3 = lam^2 - xB - xP */
        F_SUB(&t, &b->x, &x3);
        F_MUL(&t, &lam, &t);
        F_SUB(&b->y, &t, &b->y);        /* y3 = lam (xB - x3) - yB */
        b->x = x3;
    }
    ws->bc = 0;
    ws->epoch++;
}

/* Queues an addition of p to bucket b into the batch (caller guarantees b is not in
 * the batch and the batch has room). */
static inline void PT(aff_insert)(PT(aff_ws) *ws, uint32_t b, const AFF *p)
{
    AFF *bk = &ws->bk[b];
    if (PT(msm_aff_is_inf)(bk)) {
        *bk = *p;
        return;
    }
    ws->stamp[b] = ws->epoch;
    ws->bidx[ws->bc] = b;
    ws->bpt[ws->bc] = *p;
    ws->bc++;
}

/* Applies the batch, then moves queued additions whose bucket is free into the new
 * batch (at most BA_QUEUE <= BA_BATCH of them, so the batch cannot overflow). */
static void PT(aff_apply_requeue)(PT(aff_ws) *ws)
{
    PT(aff_apply)(ws);
    size_t keep = 0;
    for (size_t q = 0; q < ws->qc; q++) {
        uint32_t b = ws->qidx[q];
        if (ws->stamp[b] != ws->epoch) {
            PT(aff_insert)(ws, b, &ws->qpt[q]);
        } else {
            ws->qidx[keep] = b;
            ws->qpt[keep] = ws->qpt[q];
            keep++;
        }
    }
    ws->qc = keep;
}

/* Flushes until the batch has room again. */
static void PT(aff_flush)(PT(aff_ws) *ws)
{
    do
        PT(aff_apply_requeue)(ws);
    while (ws->bc == BA_BATCH);     /* the queue refilled the whole batch: apply it too */
}

static void PT(aff_add)(PT(aff_ws) *ws, uint32_t b, const AFF *p)
{
    if (ws->stamp[b] == ws->epoch) {
        if (ws->qc == BA_QUEUE)
            PT(aff_flush)(ws);
        if (ws->stamp[b] == ws->epoch) {
            /* the flush freed at least one queue slot (see the file comment) */
            ws->qidx[ws->qc] = b;
            ws->qpt[ws->qc] = *p;
            ws->qc++;
            return;
        }
    }
    PT(aff_insert)(ws, b, p);
    if (ws->bc == BA_BATCH)
        PT(aff_flush)(ws);
}

/* One level of batched pairwise sums in place: v[j] += v[j + step] for every j that is a
 * multiple of 2 step (j + step < cnt), through the batch arrays of ws. Infinity on either
 * side costs no arithmetic; equal and opposite pairs are aff_apply's doubling and
 * cancellation. */
static void PT(aff_tree_level)(PT(aff_ws) *ws, AFF *v, size_t cnt, size_t step)
{
    AFF *bk = ws->bk;
    ws->bk = v;
    ws->bc = 0;
    for (size_t j = 0; j + step < cnt; j += 2 * step) {
        const AFF *q = &v[j + step];
        if (PT(msm_aff_is_inf)(q))
            continue;
        if (PT(msm_aff_is_inf)(&v[j])) {
            v[j] = *q;
            continue;
        }
        ws->bidx[ws->bc] = (uint32_t)j;
        ws->bpt[ws->bc] = *q;
        if (++ws->bc == BA_BATCH)
            PT(aff_apply)(ws);
    }
    if (ws->bc > 0)
        PT(aff_apply)(ws);
    ws->bk = bk;
}

/* XYZZ running sum over v[0], v[stride], ..., v[(cnt-1) stride]: *wsum = sum_i i v_i,
 * *sum = sum_i v_i (2 (cnt - 1) additions). */
static void PT(aff_running_sum)(XYZZ *wsum, XYZZ *sum, const AFF *v, size_t cnt,
                                size_t stride)
{
    XYZZ run, acc;
    PT(xyzz_set_infinity)(&run);
    PT(xyzz_set_infinity)(&acc);
    for (size_t i = cnt; i-- > 1;) {
        PT(xyzz_add_affine)(&run, &run, &v[i * stride]);
        PT(xyzz_add)(&acc, &acc, &run);
    }
    PT(xyzz_add_affine)(&run, &run, &v[0]);
    *wsum = acc;
    *sum = run;
}

/*
 * The window sum sum_m (m + 1) B_m of the nb = 2^(c-1) affine buckets. Why not the plain
 * running sum: its 2 nb XYZZ additions (~24 multiplications per bucket) were a quarter of
 * the MSM at c = 13..14. Instead write m = a G + b (G = 2^h, h = floor((c-1)/2), K = nb/G):
 *   sum_m (m + 1) B_m = G sum_a a T_a + sum_b b U_b + sum_a T_a,
 *   T_a = sum_b B_{aG+b} (rows),  U_b = sum_a B_{aG+b} (columns).
 * The rows and columns are 2 nb batched affine additions (~6.5 multiplications each, as
 * in the accumulation) in pairwise trees; what is left are running sums over K and G
 * points and h doublings. The buckets are consumed.
 */
static void PT(aff_reduce)(XYZZ *out, PT(aff_ws) *ws, size_t nb, unsigned c)
{
    const unsigned h = (c - 1) / 2;
    const size_t g = (size_t)1 << h, k = nb >> h;
    AFF *bk = ws->bk, *tr = ws->tr;
    for (size_t a = 0; a < k; a++)          /* columns made contiguous: tr[b K + a] */
        for (size_t b = 0; b < g; b++)
            tr[b * k + a] = bk[a * g + b];
    for (size_t step = 1; step < g; step *= 2)  /* rows: T_a lands in bk[a G] */
        PT(aff_tree_level)(ws, bk, nb, step);
    for (size_t step = 1; step < k; step *= 2)  /* columns: U_b lands in tr[b K] */
        PT(aff_tree_level)(ws, tr, nb, step);
    XYZZ rows_w, rows, cols_w, cols;
    PT(aff_running_sum)(&rows_w, &rows, bk, k, g);
    PT(aff_running_sum)(&cols_w, &cols, tr, g, k);
    for (unsigned i = 0; i < h; i++)
        PT(xyzz_dbl)(&rows_w, &rows_w);
    PT(xyzz_add)(&rows_w, &rows_w, &cols_w);
    PT(xyzz_add)(out, &rows_w, &rows);
}

/* Window win of points [begin, end) into nb affine buckets; returns the window sum. */
static void PT(aff_window)(XYZZ *out, PT(aff_ws) *ws, const AFF *points, const uint64_t *k,
                           size_t begin, size_t end, unsigned win, unsigned c)
{
    const size_t nb = (size_t)1 << (c - 1);
    int32_t d_next = begin < end ? msm_booth_digit(k + 4 * begin, win, c) : 0;
    for (size_t i = begin; i < end; i++) {
        int32_t d = d_next;
        if (i + 1 < end) {
            d_next = msm_booth_digit(k + 4 * (i + 1), win, c);
            if (d_next != 0) {
                size_t nbk = (size_t)(d_next > 0 ? d_next : -d_next) - 1;
                __builtin_prefetch(&ws->bk[nbk], 1);
                __builtin_prefetch(&ws->stamp[nbk], 1);
            }
        }
        if (d == 0 || PT(msm_aff_is_inf)(&points[i]))
            continue;
        if (d > 0) {
            PT(aff_add)(ws, (uint32_t)d - 1, &points[i]);
        } else {
            AFF q;
            q.x = points[i].x;
            F_NEG(&q.y, &points[i].y);
            PT(aff_add)(ws, (uint32_t)(-d) - 1, &q);
        }
    }
    while (ws->bc > 0 || ws->qc > 0)
        PT(aff_flush)(ws);

    PT(aff_reduce)(out, ws, nb, c);
}
