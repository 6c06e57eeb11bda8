/*
 * fixed_batch_impl.h — batched fixed-base multiplication with wide windows and affine
 * accumulators (key generation: every point of a dev setup is k_i * G for one G), written
 * once over the macros of curve_impl.h and instantiated by g1.c and g2.c after it.
 *
 * Table: for window width w (CUZK_FIXED_WIDE_MIN_W..MAX_W), nwin = ceil(256/w) windows and
 * 2^(w-1) affine entries per window, t[i][e] = (e+1) * 2^(w*i) * B. A canonical Fr scalar
 * is below 2^255, so nwin*w >= 256 signed digits in [-2^(w-1), 2^(w-1)] absorb the last
 * carry; a scalar is then the sum of at most nwin table entries (sign applied to y), with
 * no doublings at all. w = 16: 16 windows, 32768 entries each (48 MiB for G1, 96 MiB G2).
 *
 * Multiplication: the n points are processed in chunks of FB_CHUNK. Each accumulator is
 * an affine point (held in the output array itself), and all FB_CHUNK additions of one
 * window share one field inversion (Montgomery's trick), so an addition costs about
 * 5M + 1S + 1/FB_CHUNK inversion instead of a mixed Jacobian addition's 7M + 4S, and no
 * final conversion to affine is needed. The first non-zero digit of a scalar sets its
 * accumulator (no addition). When an accumulator and the entry share x (a doubling or
 * P + (-P)) that one addition goes through the Jacobian formulas and its own inversion.
 * For canonical scalars that should not happen: the partial sums are integers of
 * magnitude below 2^(w*i) while the entries of window i are at least 2^(w*i) and, below
 * the top windows, less than r. The check stays so that a flaw in that argument costs
 * speed, not a wrong key.
 *
 * Variable-time in the scalars (branches on zero digits, table addresses follow digits).
 * That is acceptable only where the caller accepts it (a development setup, whose toxic
 * waste is known to its runner anyway); fixed_mul in curve_mul_impl.h is the
 * constant-time alternative.
 *
 * Threading: pure functions on caller memory; a table is read-only after init, so any
 * number of threads may multiply with it at once (each with its own scratch).
 */

#define FB_CHUNK 512 /* points sharing one inversion per window: the inversion (~100 M)
                      * amortises to < 0.2 M per addition, while a chunk's accumulators
                      * and scratch (~100 KiB for G2) stay in L2 */

struct PT(fixed_wide) {
    uint32_t w, nwin, nent, pad;
    AFF t[]; /* [nwin][nent] */
};

static unsigned fw_windows(unsigned w) { return (256 + w - 1) / w; }

size_t PT(fixed_wide_size)(unsigned w)
{
    if (w < CUZK_FIXED_WIDE_MIN_W || w > CUZK_FIXED_WIDE_MAX_W)
        return 0;
    return sizeof(struct PT(fixed_wide)) +
           (size_t)fw_windows(w) * ((size_t)1 << (w - 1)) * sizeof(AFF);
}

/* Rows are built in Jacobian runs of FB_ROW points and normalised together, so the only
 * memory needed besides the table is on the stack. */
#define FB_ROW 64

cuzk_status PT(fixed_wide_init)(struct PT(fixed_wide) *t, unsigned w, const AFF *base)
{
    if (!t || !base || PT(fixed_wide_size)(w) == 0)
        return CUZK_ERR_INVALID_ARG;
    if (PT(affine_is_infinity)(base))
        return CUZK_ERR_INVALID_ARG;
    t->w = w;
    t->nwin = fw_windows(w);
    t->nent = 1u << (w - 1);
    t->pad = 0;
    JAC run[FB_ROW], bj, cur;
    FT scratch[FB_ROW];
    PT(jac_from_affine)(&bj, base); /* 2^(w*i) B */
    for (uint32_t i = 0; i < t->nwin; i++) {
        AFF *row = t->t + (size_t)i * t->nent;
        cur = bj;
        for (uint32_t e0 = 0; e0 < t->nent; e0 += FB_ROW) {
            uint32_t k = t->nent - e0 < FB_ROW ? t->nent - e0 : FB_ROW;
            for (uint32_t e = 0; e < k; e++) {
                run[e] = cur;                 /* (e0+e+1) 2^(w*i) B */
                PT(jac_add)(&cur, &cur, &bj);
            }
            PTS(jac_to_affine)(row + e0, run, k, scratch);
        }
        /* cur = (nent+1) 2^(wi) B; 2^(w(i+1)) B = 2 * nent * 2^(wi) B = 2 * row[nent-1] */
        PT(jac_dbl)(&bj, &run[(t->nent - 1) % FB_ROW]);
    }
    return CUZK_OK;
}

/* Per-point scratch of one chunk: the canonical scalar, its running carry, the current
 * digit, whether the accumulator is still infinity, and the prefix product. */
typedef struct PT(fb_slot) {
    FT pre;
    uint64_t k[4];
    int32_t digit;
    uint8_t carry, inf;
} PT(fb_slot);

size_t PTS(fixed_mul_var_scratch_size)(void) { return FB_CHUNK * sizeof(PT(fb_slot)); }

/* The one addition whose x coordinates agree: Jacobian formulas, single inversion. */
static void fb_add_slow(AFF *acc, const AFF *e, uint8_t *inf)
{
    JAC j;
    PT(jac_from_affine)(&j, acc);
    PT(jac_add_affine)(&j, &j, e);
    PT(jac_to_affine)(acc, &j);
    *inf = PT(jac_is_infinity)(&j);
}

static void fb_chunk(AFF *r, const struct PT(fixed_wide) *t, const cuzk_fr *k, size_t n,
                     PT(fb_slot) *s)
{
    const unsigned w = t->w;
    const int32_t half = (int32_t)1 << (w - 1);
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_to_canonical(s[i].k, &k[i]);
        s[i].carry = 0;
        s[i].inf = 1;
        PT(affine_set_infinity)(&r[i]);
    }
    for (uint32_t win = 0; win < t->nwin; win++) {
        const AFF *row = t->t + (size_t)win * t->nent;
        /* digits; the first non-zero one of a scalar just sets its accumulator */
        for (size_t i = 0; i < n; i++) {
            int32_t d = (int32_t)ec_scalar_bits(s[i].k, 4, (size_t)win * w, w) + s[i].carry;
            s[i].carry = d > half;
            d -= (int32_t)s[i].carry << w;
            if (d != 0 && s[i].inf) {
                r[i] = row[(d < 0 ? -d : d) - 1];
                if (d < 0)
                    F_NEG(&r[i].y, &r[i].y);
                s[i].inf = 0;
                d = 0;
            }
            s[i].digit = d;
        }
        /* forward: prefix products of x_e - x_acc */
        FT prod = F_ONE, den;
        for (size_t i = 0; i < n; i++) {
            int32_t d = s[i].digit;
            if (d == 0)
                continue;
            if (i + 8 < n && s[i + 8].digit != 0) {
                int32_t d8 = s[i + 8].digit;
                __builtin_prefetch(&row[(d8 < 0 ? -d8 : d8) - 1]);
            }
            const AFF *e = &row[(d < 0 ? -d : d) - 1];
            F_SUB(&den, &e->x, &r[i].x);
            if (F_IS_ZERO(&den)) {
                AFF ne = *e;
                if (d < 0)
                    F_NEG(&ne.y, &ne.y);
                fb_add_slow(&r[i], &ne, &s[i].inf);
                s[i].digit = 0;
                continue;
            }
            s[i].pre = prod;
            F_MUL(&prod, &prod, &den);
        }
        FT inv, li, lam, ey, x3;
        F_INV_VAR(&inv, &prod);
        /* backward: peel one denominator at a time and finish each addition */
        for (size_t i = n; i-- > 0;) {
            int32_t d = s[i].digit;
            if (d == 0)
                continue;
            const AFF *e = &row[(d < 0 ? -d : d) - 1];
            F_SUB(&den, &e->x, &r[i].x);
            F_MUL(&li, &inv, &s[i].pre);
            F_MUL(&inv, &inv, &den);
            if (d < 0)
                F_NEG(&ey, &e->y);
            else
                ey = e->y;
            F_SUB(&lam, &ey, &r[i].y);
            F_MUL(&lam, &lam, &li);           /* lambda = (y_e - y_a)/(x_e - x_a) */
            F_SQR(&x3, &lam);
            F_SUB(&x3, &x3, &r[i].x);
            F_SUB(&x3, &x3, &e->x);           /* x3 = lambda^2 - x_a - x_e */
            F_SUB(&den, &r[i].x, &x3);
            F_MUL(&den, &den, &lam);
            F_SUB(&r[i].y, &den, &r[i].y);    /* y3 = lambda (x_a - x3) - y_a */
            r[i].x = x3;
        }
    }
    ec_wipe(s, n * sizeof *s);
}

cuzk_status PTS(fixed_mul_var)(AFF *r, const struct PT(fixed_wide) *t, const cuzk_fr *k,
                               size_t n, void *scratch, size_t scratch_size)
{
    if (n == 0)
        return CUZK_OK;
    if (!r || !t || !k || !scratch || scratch_size < PTS(fixed_mul_var_scratch_size)())
        return CUZK_ERR_INVALID_ARG;
    for (size_t i = 0; i < n; i += FB_CHUNK)
        fb_chunk(r + i, t, k + i, n - i < FB_CHUNK ? n - i : FB_CHUNK, (PT(fb_slot) *)scratch);
    return CUZK_OK;
}
