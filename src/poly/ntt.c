/*
 * ntt.c — the radix-2 transforms: decimation in frequency (natural -> bit-reversed) and
 * decimation in time (bit-reversed -> natural), and the bit-reversal permutation.
 *
 * Threading: each stage is one cuzk_pool_for over disjoint butterfly sets; the pool call
 * is the barrier between stages. Results do not depend on the thread count.
 *
 * Layout of one transform (n = 2^k, B = 2^min(k, 10) elements = 32 KiB, one L1d):
 *   - "big" stages, half-size m >= B: each is one pass over the array. The butterflies of
 *     a stage are cut into units of (tile of 32 consecutive j) x (one group of 2m), ordered
 *     tile-major, so a chunk reuses its 32 twiddles omega_2m^j across all groups and walks
 *     memory in runs of 1 KiB. Twiddles are computed on the fly: a pow at a chunk's first
 *     tile, then one multiplication per twiddle per tile (no n-sized table).
 *   - the small stages, m < B, all run inside one B-block before moving on (one pass for
 *     log2 B stages), reading twiddles omega_2m^j = omega_B^(j*B/2m) from the domain.
 *   DIF runs big stages then blocks; DIT mirrors it. Butterflies with j = 0 skip the
 *   multiplication by 1 (the whole m = 1 stage has no multiplication).
 */
#include "poly/poly_internal.h"
#include "util/util_export.h"

#define TILE 32u
/* smallest chunk of big-stage units (TILE butterflies each) worth a hand-off: ~2^11
 * butterflies also amortise the pow that starts each chunk (~400 multiplications). */
#define BIG_GRAIN 64u

/* DIF: (u, v) -> (u + v, (u - v) w) */
static inline void bfly_dif(cuzk_fr *x, cuzk_fr *y, const cuzk_fr *w)
{
    cuzk_fr t;
    cuzk_fr_sub(&t, x, y);
    cuzk_fr_add(x, x, y);
    cuzk_fr_mul(y, &t, w);
}

static inline void bfly_dif1(cuzk_fr *x, cuzk_fr *y)
{
    cuzk_fr t;
    cuzk_fr_sub(&t, x, y);
    cuzk_fr_add(x, x, y);
    *y = t;
}

/* DIT: (u, v) -> (u + v w, u - v w) */
static inline void bfly_dit(cuzk_fr *x, cuzk_fr *y, const cuzk_fr *w)
{
    cuzk_fr t;
    cuzk_fr_mul(&t, y, w);
    cuzk_fr_sub(y, x, &t);
    cuzk_fr_add(x, x, &t);
}

static inline void bfly_dit1(cuzk_fr *x, cuzk_fr *y)
{
    cuzk_fr t = *y;
    cuzk_fr_sub(y, x, &t);
    cuzk_fr_add(x, x, &t);
}

typedef struct big_stage_ctx {
    cuzk_fr *a;
    size_t m;       /* half-size of the butterfly groups */
    size_t groups;  /* n / 2m */
    cuzk_fr w;      /* omega_2m */
    cuzk_fr wtile;  /* omega_2m^TILE */
    bool dit;
} big_stage_ctx;

static void big_stage_fn(void *vctx, size_t u0, size_t u1, unsigned worker_id)
{
    const big_stage_ctx *s = vctx;
    const size_t m = s->m, groups = s->groups;
    size_t tile = u0 / groups, g = u0 % groups;
    cuzk_fr w[TILE];
    poly_pow_u64(&w[0], &s->w, (uint64_t)(tile * TILE));
    for (unsigned t = 1; t < TILE; t++)
        cuzk_fr_mul(&w[t], &w[t - 1], &s->w);
    size_t u = u0;
    for (;;) {
        size_t gend = groups - g < u1 - u ? groups : g + (u1 - u);
        for (; g < gend; g++, u++) {
            cuzk_fr *x = s->a + g * 2 * m + tile * TILE;
            cuzk_fr *y = x + m;
            if (s->dit) {
                for (unsigned t = 0; t < TILE; t++)
                    bfly_dit(&x[t], &y[t], &w[t]);
            } else {
                for (unsigned t = 0; t < TILE; t++)
                    bfly_dif(&x[t], &y[t], &w[t]);
            }
        }
        if (u >= u1)
            break;
        g = 0;
        tile++;
        for (unsigned t = 0; t < TILE; t++)
            cuzk_fr_mul(&w[t], &w[t], &s->wtile);
    }
}

static cuzk_status big_stage(cuzk_fr *a, size_t n, size_t m, const cuzk_fr *w2m, bool dit,
                             cuzk_pool *pool)
{
    big_stage_ctx s = {.a = a, .m = m, .groups = n / (2 * m), .w = *w2m, .dit = dit};
    poly_pow_u64(&s.wtile, w2m, TILE);
    return cuzk_pool_for(pool, (m / TILE) * s.groups, big_stage_fn, &s, BIG_GRAIN);
}

typedef struct block_ctx {
    cuzk_fr *a;
    size_t bsize;        /* B */
    const cuzk_fr *tw;   /* omega_B^j, j < B/2 */
    bool dit;
} block_ctx;

/* One stage of half-size m (< B) over the block x of B elements. */
static void block_stage(cuzk_fr *x, size_t bsize, size_t m, const cuzk_fr *tw, bool dit)
{
    size_t stride = bsize / (2 * m);
    for (size_t g = 0; g < bsize; g += 2 * m) {
        cuzk_fr *p = x + g, *q = x + g + m;
        if (dit) {
            bfly_dit1(&p[0], &q[0]);
            for (size_t j = 1; j < m; j++)
                bfly_dit(&p[j], &q[j], &tw[j * stride]);
        } else {
            bfly_dif1(&p[0], &q[0]);
            for (size_t j = 1; j < m; j++)
                bfly_dif(&p[j], &q[j], &tw[j * stride]);
        }
    }
}

static void block_fn(void *vctx, size_t b0, size_t b1, unsigned worker_id)
{
    const block_ctx *s = vctx;
    const size_t bsize = s->bsize;
    for (size_t b = b0; b < b1; b++) {
        cuzk_fr *x = s->a + b * bsize;
        if (s->dit) {
            for (size_t m = 1; m < bsize; m *= 2)
                block_stage(x, bsize, m, s->tw, true);
        } else {
            for (size_t m = bsize / 2; m >= 1; m /= 2)
                block_stage(x, bsize, m, s->tw, false);
        }
    }
}

static cuzk_status ntt_core(const cuzk_domain *d, cuzk_fr *a, bool inverse, bool dit,
                            cuzk_pool *pool)
{
    if (!poly_domain_ok(d) || !a)
        return CUZK_ERR_INVALID_ARG;
    const unsigned k = d->log2n;
    const size_t n = d->n;
    CUZK_VERIFY_CHECK(verify_first_unreduced(a->l, n, CUZK_FR_MODULUS, CUZK_FR_LIMBS) ==
                          SIZE_MAX,
                      "element %zu of %zu is not reduced",
                      verify_first_unreduced(a->l, n, CUZK_FR_MODULUS, CUZK_FR_LIMBS), n);
    if (n == 1)
        return CUZK_OK;
    const unsigned logb = k < CUZK_NTT_BLOCK_LOG2 ? k : CUZK_NTT_BLOCK_LOG2;
    const size_t bsize = (size_t)1 << logb;

    /* root[s] = omega^(2^s) = omega_{n / 2^s}; the stage of half-size m uses
     * omega_2m = root[k - 1 - log2 m]. */
    cuzk_fr root[CUZK_DOMAIN_MAX_LOG2];
    root[0] = inverse ? d->omega_inv : d->omega;
    for (unsigned s = 1; s < k; s++)
        cuzk_fr_sqr(&root[s], &root[s - 1]);

    block_ctx bc = {.a = a, .bsize = bsize, .tw = d->tw_[inverse ? 1 : 0], .dit = dit};
    cuzk_status st;
    if (!dit) {
        for (unsigned lm = k - 1; lm >= logb; lm--) {
            st = big_stage(a, n, (size_t)1 << lm, &root[k - 1 - lm], false, pool);
            if (st != CUZK_OK)
                return st;
        }
        return cuzk_pool_for(pool, n / bsize, block_fn, &bc, 1);
    }
    st = cuzk_pool_for(pool, n / bsize, block_fn, &bc, 1);
    for (unsigned lm = logb; st == CUZK_OK && lm < k; lm++)
        st = big_stage(a, n, (size_t)1 << lm, &root[k - 1 - lm], true, pool);
    return st;
}

cuzk_status cuzk_ntt_nr(const cuzk_domain *d, cuzk_fr *a, bool inverse, cuzk_pool *pool)
{
    return ntt_core(d, a, inverse, false, pool);
}

cuzk_status cuzk_ntt_rn(const cuzk_domain *d, cuzk_fr *a, bool inverse, cuzk_pool *pool)
{
    return ntt_core(d, a, inverse, true, pool);
}

typedef struct bitrev_ctx {
    cuzk_fr *a;
    unsigned k;
} bitrev_ctx;

/* Small sizes: each pair {i, rev(i)} is swapped only by the chunk holding the smaller
 * index, so chunks never touch the same element twice and need no synchronisation. */
static void bitrev_fn(void *vctx, size_t i0, size_t i1, unsigned worker_id)
{
    const bitrev_ctx *s = vctx;
    for (size_t i = i0; i < i1; i++) {
        size_t j = poly_rev(i, s->k);
        if (i < j) {
            cuzk_fr t = s->a[i];
            s->a[i] = s->a[j];
            s->a[j] = t;
        }
    }
}

/* Large sizes, cache-blocked: write i = hi|mid|lo with lo and hi of RB bits each; then
 * rev(i) = rev(lo)|rev(mid)|rev(hi), so the 2^RB x 2^RB tile of one `mid` (2^RB runs of
 * 2^RB consecutive elements) maps onto the tile of rev(mid). Swapping tile against tile
 * uses every cache line fully instead of touching a random line per element. The pair of
 * tiles belongs to the chunk holding min(mid, rev(mid)): no two chunks share an element. */
#define RB 5u

static void bitrev_tiles_fn(void *vctx, size_t m0, size_t m1, unsigned worker_id)
{
    const bitrev_ctx *s = vctx;
    const unsigned k = s->k, lo_shift = k - RB;
    const size_t side = (size_t)1 << RB;
    for (size_t mid = m0; mid < m1; mid++) {
        size_t rmid = poly_rev(mid, k - 2 * RB);
        if (rmid < mid)
            continue;
        for (size_t hi = 0; hi < side; hi++) {
            size_t rhi = poly_rev(hi, RB);
            for (size_t lo = 0; lo < side; lo++) {
                size_t i = (hi << lo_shift) | (mid << RB) | lo;
                size_t j = (poly_rev(lo, RB) << lo_shift) | (rmid << RB) | rhi;
                if (rmid == mid && j <= i)
                    continue;
                cuzk_fr t = s->a[i];
                s->a[i] = s->a[j];
                s->a[j] = t;
            }
        }
    }
}

cuzk_status cuzk_poly_bitreverse(cuzk_fr *a, unsigned log2n, cuzk_pool *pool)
{
    if (!a || log2n > 32)
        return CUZK_ERR_INVALID_ARG;
    bitrev_ctx s = {.a = a, .k = log2n};
    if (log2n >= 2 * RB + 2)
        return cuzk_pool_for(pool, (size_t)1 << (log2n - 2 * RB), bitrev_tiles_fn, &s, 4);
    return cuzk_pool_for(pool, (size_t)1 << log2n, bitrev_fn, &s, 4096);
}
