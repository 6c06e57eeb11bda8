/*
 * curve_mul_impl.h — scalar multiplication on top of curve_impl.h (same macros, same
 * includer): the constant-time signed-window method, the interleaved wNAF sum used by the
 * GLV/GLS methods of g1.c/g2.c, the arbitrary-length sliding window, multiplication by the
 * BLS parameter |x| (subgroup checks) and the fixed-base table.
 *
 * Constant time: jac_mul and fixed_mul are constant-time in the scalar (branch-free digit
 * recoding, full-table cmov scans, cmov-complete additions); everything named _var is not.
 * Threading: pure functions on caller memory; fixed tables are read-only after init.
 */

/* ---------------------------------------------------------------------------------------
 * Scalar multiplication
 * ------------------------------------------------------------------------------------- */

/* The canonical value of an Fr scalar as 4 limbs. */
static void scalar_limbs(uint64_t k[4], const cuzk_fr *s) { cuzk_fr_to_canonical(k, s); }

/* r = cond ? -a : a on a Jacobian point, constant-time. */
static void jac_cneg(JAC *r, const JAC *a, bool cond)
{
    FT ny;
    F_NEG(&ny, &a->y);
    r->x = a->x;
    F_CMOV(&r->y, &a->y, &ny, cond);
    r->z = a->z;
}

/* Signed digit -> (|d|, sign) without branches; d in [-128, 127]. */
static inline void digit_abs(int8_t d, unsigned *mag, bool *neg)
{
    int32_t v = d;
    int32_t m = v >> 31;                  /* all ones iff negative */
    *mag = (unsigned)((v ^ m) - m);
    *neg = m != 0;
}

/* Constant-time multiplication: signed 5-bit windows (digits in [-16, 16], 52 of them
 * cover 256 bits plus the final carry), a 16-entry table 1P..16P read by scanning every
 * entry with cmov, and the cmov-complete addition, so neither the memory access pattern
 * nor the operation sequence depends on k. Works for any point on the curve. */
#define CT_W 5
#define CT_DIGITS 52
#define CT_ENTRIES 16
void PT(jac_mul)(JAC *r, const JAC *a, const cuzk_fr *k)
{
    uint64_t kl[4];
    int8_t dig[CT_DIGITS];
    JAC tab[CT_ENTRIES], acc, sel;
    scalar_limbs(kl, k);
    cuzk_ec_signed_windows(dig, CT_DIGITS, kl, 4, CT_W);

    tab[0] = *a;
    PT(jac_dbl)(&tab[1], a);
    for (int i = 2; i < CT_ENTRIES; i++)
        jac_add_ct(&tab[i], &tab[i - 1], a);   /* a may have small order: needs complete */

    PT(jac_set_infinity)(&acc);
    for (int i = CT_DIGITS - 1; i >= 0; i--) {
        for (int j = 0; j < CT_W; j++)
            PT(jac_dbl)(&acc, &acc);
        unsigned mag;
        bool neg;
        digit_abs(dig[i], &mag, &neg);
        PT(jac_set_infinity)(&sel);
        for (unsigned e = 0; e < CT_ENTRIES; e++)
            jac_cmov(&sel, &sel, &tab[e], mag == e + 1);
        jac_cneg(&sel, &sel, neg);
        jac_add_ct(&acc, &acc, &sel);
    }
    *r = acc;
    ec_wipe(kl, sizeof kl);
    ec_wipe(dig, sizeof dig);
}

/* Interleaved wNAF sum (Straus): sum_j naf_j * B_j, where tab holds for each base j the
 * affine odd multiples B_j, 3B_j, ..., (2^(w-1)-1)B_j (stride `per` entries). Affine
 * tables make every addition a mixed one (7M+4S instead of 11M+5S), which pays for the
 * one batched inversion many times over. Variable-time. */
static void wnaf_sum_affine_var(JAC *r, const AFF *tab, size_t per, const int8_t *const *naf,
                                size_t m, size_t len)
{
    JAC acc;
    AFF t;
    bool started = false;
    PT(jac_set_infinity)(&acc);
    for (size_t i = len; i-- > 0;) {
        if (started)
            PT(jac_dbl)(&acc, &acc);
        for (size_t j = 0; j < m; j++) {
            int d = naf[j][i];
            if (d > 0) {
                PT(jac_add_affine)(&acc, &acc, &tab[j * per + (size_t)(d - 1) / 2]);
            } else if (d < 0) {
                PT(affine_neg)(&t, &tab[j * per + (size_t)(-d - 1) / 2]);
                PT(jac_add_affine)(&acc, &acc, &t);
            } else {
                continue;
            }
            started = true;
        }
    }
    *r = acc;
}

/* tab[i] = (2i+1) a for i < n */
static void jac_odd_multiples(JAC *tab, const JAC *a, size_t n)
{
    JAC a2;
    tab[0] = *a;
    PT(jac_dbl)(&a2, a);
    for (size_t i = 1; i < n; i++)
        PT(jac_add)(&tab[i], &tab[i - 1], &a2);
}

/* out[i] = (2i+1) a in affine, n <= 16, one inversion. */
static void affine_odd_multiples(AFF *out, const JAC *a, size_t n)
{
    JAC tab[16];
    FT scratch[16];
    jac_odd_multiples(tab, a, n);
    PTS(jac_to_affine)(out, tab, n, scratch);
}

/* Left-to-right sliding window over odd multiples: no recoding buffer, so any scalar
 * length works without allocation (cofactor clearing uses 636-bit scalars). */
void PT(jac_mul_u64s_var)(JAC *r, const JAC *a, const uint64_t *k, size_t nlimbs)
{
    size_t nbits = 0;
    for (size_t i = nlimbs; i-- > 0;) {
        if (k[i]) {
            nbits = 64 * i + 64 - (size_t)__builtin_clzll(k[i]);
            break;
        }
    }
    JAC acc;
    PT(jac_set_infinity)(&acc);
    if (nbits == 0 || PT(jac_is_infinity)(a)) {
        *r = acc;
        return;
    }
    /* window width by length: roughly minimises 2^(w-2) table adds + nbits/(w+1) adds */
    unsigned w = nbits > 160 ? 5 : nbits > 48 ? 4 : nbits > 12 ? 3 : 1;
    JAC tab[16];
    jac_odd_multiples(tab, a, (size_t)1 << (w - 1));
    bool started = false;
    size_t i = nbits;                        /* bits [0, i) remain */
    while (i > 0) {
        if (!ec_scalar_bits(k, nlimbs, i - 1, 1)) {
            if (started)
                PT(jac_dbl)(&acc, &acc);
            i--;
            continue;
        }
        size_t lo = i >= w ? i - w : 0;
        while (!ec_scalar_bits(k, nlimbs, lo, 1))
            lo++;                            /* window ends in a set bit: odd value */
        unsigned width = (unsigned)(i - lo);
        uint64_t v = ec_scalar_bits(k, nlimbs, lo, width);
        if (started) {
            for (unsigned j = 0; j < width; j++)
                PT(jac_dbl)(&acc, &acc);
            PT(jac_add)(&acc, &acc, &tab[(v - 1) / 2]);
        } else {
            acc = tab[(v - 1) / 2];
            started = true;
        }
        i = lo;
    }
    *r = acc;
}

/* [|x|]a for the BLS parameter |x| = 0xd201000000010000 (bits 63, 62, 60, 57, 48, 16):
 * double-and-add on its 6 set bits, 63 doublings + 5 additions. When the caller also has
 * a in affine form (aff != NULL, same point) the additions are mixed ones. Variable-time
 * (used on public points: subgroup checks). */
static void jac_mul_abs_x_var(JAC *r, const JAC *a, const AFF *aff)
{
    static const uint64_t abs_x = 0xd201000000010000ULL;
    JAC acc = *a;
    for (int bit = 62; bit >= 0; bit--) {
        PT(jac_dbl)(&acc, &acc);
        if ((abs_x >> bit) & 1) {
            if (aff)
                PT(jac_add_affine)(&acc, &acc, aff);
            else
                PT(jac_add)(&acc, &acc, a);
        }
    }
    *r = acc;
}

/* ---------------------------------------------------------------------------------------
 * Fixed-base multiplication
 *
 * A windowed (Yao / BGMW-style) table rather than a Lim-Lee comb: for window j it holds
 * the affine points i * 64^j * B for i = 1..32, so k*B is one mixed addition per signed
 * 6-bit digit (43 of them, digits in [-32, 32]) and no doublings at all; a comb of the same
 * size would still need ~40 doublings. Size: 43*32 affine points (132 KiB for G1,
 * 264 KiB for G2). fixed_mul is constant-time in k: the digit recoding is branch-free,
 * every entry of a window is scanned with cmov and the addition is cmov-complete.
 * ------------------------------------------------------------------------------------- */
#define FIXED_W 6
#define FIXED_WINDOWS 43        /* 43*6 = 258 >= 257 bits: 256-bit scalar plus final carry */
#define FIXED_ENTRIES 32        /* 2^(FIXED_W-1) */

struct PT(fixed_table) {
    AFF t[FIXED_WINDOWS][FIXED_ENTRIES];
};

size_t PT(fixed_table_size)(void) { return sizeof(struct PT(fixed_table)); }

cuzk_status PT(fixed_table_init)(struct PT(fixed_table) *t, const AFF *base)
{
    if (!t || !base)
        return CUZK_ERR_INVALID_ARG;
    JAC row[FIXED_ENTRIES], bj;
    FT scratch[FIXED_ENTRIES];
    PT(jac_from_affine)(&bj, base);
    for (int w = 0; w < FIXED_WINDOWS; w++) {
        row[0] = bj;
        PT(jac_dbl)(&row[1], &bj);
        for (int i = 2; i < FIXED_ENTRIES; i++)
            PT(jac_add)(&row[i], &row[i - 1], &bj);
        PT(jac_dbl)(&bj, &row[FIXED_ENTRIES - 1]);   /* 64^(w+1) B = 2 * 32 * 64^w B */
        PTS(jac_to_affine)(t->t[w], row, FIXED_ENTRIES, scratch);
    }
    return CUZK_OK;
}

void PT(fixed_mul)(JAC *r, const struct PT(fixed_table) *t, const cuzk_fr *k)
{
    uint64_t kl[4];
    int8_t dig[FIXED_WINDOWS];
    JAC acc;
    AFF sel, nsel;
    scalar_limbs(kl, k);
    cuzk_ec_signed_windows(dig, FIXED_WINDOWS, kl, 4, FIXED_W);
    PT(jac_set_infinity)(&acc);
    for (int w = 0; w < FIXED_WINDOWS; w++) {
        unsigned mag;
        bool neg;
        digit_abs(dig[w], &mag, &neg);
        PT(affine_set_infinity)(&sel);
        for (unsigned e = 0; e < FIXED_ENTRIES; e++) {
            bool hit = mag == e + 1;
            F_CMOV(&sel.x, &sel.x, &t->t[w][e].x, hit);
            F_CMOV(&sel.y, &sel.y, &t->t[w][e].y, hit);
        }
        PT(affine_neg)(&nsel, &sel);
        F_CMOV(&sel.y, &sel.y, &nsel.y, neg);
        jac_add_affine_ct(&acc, &acc, &sel);
    }
    *r = acc;
    ec_wipe(kl, sizeof kl);
    ec_wipe(dig, sizeof dig);
}
