/*
 * curve_mul_impl.h — scalar multiplication on top of curve_impl.h (same macros, same
 * includer): the constant-time signed-window sum and the interleaved wNAF sum that the
 * GLV/GLS methods of g1.c/g2.c are built on, the arbitrary-length sliding window,
 * multiplication by the BLS parameter |x| (subgroup checks) and the fixed-base table.
 *
 * Constant time: jac_sum_windows_ct and fixed_mul are constant-time in the scalar
 * (branch-free digit recoding, full-table cmov scans, additions that resolve their special
 * cases by cmov); everything named _var is not.
 * Threading: pure functions on caller memory; fixed tables are read-only after init.
 */

/* ---------------------------------------------------------------------------------------
 * Scalar multiplication
 * ------------------------------------------------------------------------------------- */

/* The canonical value of an Fr scalar as 4 limbs. */
static void scalar_limbs(uint64_t k[4], const cuzk_fr *s) { cuzk_fr_to_canonical(k, s); }

/* Signed digit -> (|d|, sign) without branches; d in [-128, 127]. */
static inline void digit_abs(int8_t d, unsigned *mag, bool *neg)
{
    int32_t v = d;
    int32_t m = v >> 31;                  /* all ones iff negative */
    *mag = (unsigned)((v ^ m) - m);
    *neg = m != 0;
}

/*
 * Constant-time core of the GLV (G1) / GLS (G2) multiplications in g1.c / g2.c:
 * sum_j k_j * B_j for m sub-scalars given as signed 5-bit windows (digits in [-16, 16],
 * nd per sub-scalar, dig[j*nd + i] = digit i of k_j) and affine tables
 * tabs[j*16 + e] = (e+1) B_j. One shared doubling chain (5 doublings per window); per
 * window and sub-scalar a scan of all 16 entries with cmov, a conditional negation and
 * the unified mixed addition below, so neither the memory access pattern nor the
 * operation sequence depends on the digits. A zero digit selects "infinity" (flagged
 * from the digit, no data test), which the addition absorbs by cmov; so small and even
 * sub-scalars need no odd-recoding.
 */
#define CT_W 5
#define CT_ENTRIES 16

/*
 * Unified mixed addition a + b (b affine, b_inf says b is the point at infinity),
 * constant-time, 9M+4S: the doubling is written in the shape of the addition
 * (Jacobian, a = 0). Addition with U1 = X1, U2 = x2 Z1^2, S1 = Y1, S2 = y2 Z1^3,
 * H = U2 - U1, R = S2 - S1 gives
 *   X3 = R^2 - H^2 (U1 + U2),  Y3 = R (U1 H^2 - X3) - S1 H^3,  Z3 = Z1 H,
 * and dbl (M = 3X1^2, S = 4X1Y1^2: X3 = M^2 - 2S, Y3 = M(S - X3) - 8Y1^4, Z3 = 2Y1Z1) is
 * the same expression with H = 2Y1, R = 3X1^2, U1 = U2 = X1, S1 = Y1. So only H, R and
 * U2 are selected (H = R = 0 means a == b), instead of computing a full doubling beside
 * the addition (9M+9S). a == -b gives H = 0, R != 0, hence Z3 = 0: infinity.
 */
static void jac_madd_unified_ct(JAC *r, const JAC *a, const AFF *b, bool b_inf)
{
    FT z1z1, u2, s2, h, rr, t, hh, hhh, v;
    JAC out, bj;
    bool a_inf = F_IS_ZERO(&a->z);
    F_SQR(&z1z1, &a->z);
    F_MUL(&u2, &b->x, &z1z1);
    F_MUL(&s2, &b->y, &a->z);
    F_MUL(&s2, &s2, &z1z1);
    F_SUB(&h, &u2, &a->x);
    F_SUB(&rr, &s2, &a->y);
    bool dbl = (int)F_IS_ZERO(&h) & (int)F_IS_ZERO(&rr);
    F_DBL(&t, &a->y);
    F_CMOV(&h, &h, &t, dbl);
    F_SQR(&v, &a->x);
    F_DBL(&t, &v);
    F_ADD(&t, &t, &v);
    F_CMOV(&rr, &rr, &t, dbl);
    F_CMOV(&u2, &u2, &a->x, dbl);
    F_SQR(&hh, &h);
    F_MUL(&hhh, &hh, &h);
    F_MUL(&v, &a->x, &hh);                 /* U1 H^2 */
    F_ADD(&t, &a->x, &u2);
    F_MUL(&t, &t, &hh);                    /* H^2 (U1 + U2) */
    F_SQR(&out.x, &rr);
    F_SUB(&out.x, &out.x, &t);
    F_SUB(&t, &v, &out.x);
    F_MUL(&t, &t, &rr);
    F_MUL(&v, &a->y, &hhh);                /* S1 H^3 */
    F_SUB(&out.y, &t, &v);
    F_MUL(&out.z, &a->z, &h);
    bj.x = b->x;
    bj.y = b->y;
    bj.z = F_ONE;
    jac_cmov(&out, &out, &bj, a_inf);
    jac_cmov(&out, &out, a, b_inf);        /* last: both at infinity gives a */
    *r = out;
}

/* out[e] = (e+1) a in affine for e < 16, with one constant-time inversion (Montgomery's
 * trick). Multiples of a point of prime order r > 16 never hit the special cases of
 * jac_add, whose branches depend on a only, never on a scalar. For a at infinity every Z
 * is 0, the inverse of the product is 0 and the entries are garbage: callers check. */
static void ct_affine_table(AFF out[CT_ENTRIES], const JAC *a)
{
    JAC t[CT_ENTRIES];
    FT pre[CT_ENTRIES], acc = F_ONE, inv, zi, zi2;
    t[0] = *a;
    PT(jac_dbl)(&t[1], a);
    for (int i = 2; i < CT_ENTRIES; i++)
        PT(jac_add)(&t[i], &t[i - 1], a);
    for (int i = 0; i < CT_ENTRIES; i++) {
        pre[i] = acc;
        F_MUL(&acc, &acc, &t[i].z);
    }
    F_INV(&inv, &acc);
    for (int i = CT_ENTRIES - 1; i >= 0; i--) {
        F_MUL(&zi, &inv, &pre[i]);
        F_MUL(&inv, &inv, &t[i].z);
        F_SQR(&zi2, &zi);
        F_MUL(&out[i].x, &t[i].x, &zi2);
        F_MUL(&zi2, &zi2, &zi);
        F_MUL(&out[i].y, &t[i].y, &zi2);
    }
}

/* The shared loop; a_inf (the base point was at infinity) forces the result to O. */
static void jac_sum_windows_ct(JAC *r, const AFF *tabs, size_t m, const int8_t *dig,
                               size_t nd, bool a_inf)
{
    JAC acc, inf;
    AFF sel, nsel;
    PT(jac_set_infinity)(&acc);
    for (size_t i = nd; i-- > 0;) {
        if (i + 1 < nd)                       /* public: depends on the position only */
            for (int j = 0; j < CT_W; j++)
                PT(jac_dbl)(&acc, &acc);
        for (size_t j = 0; j < m; j++) {
            unsigned mag;
            bool neg;
            digit_abs(dig[j * nd + i], &mag, &neg);
            sel = tabs[j * CT_ENTRIES];
            for (unsigned e = 1; e < CT_ENTRIES; e++) {
                bool hit = mag == e + 1;
                F_CMOV(&sel.x, &sel.x, &tabs[j * CT_ENTRIES + e].x, hit);
                F_CMOV(&sel.y, &sel.y, &tabs[j * CT_ENTRIES + e].y, hit);
            }
            PT(affine_neg)(&nsel, &sel);
            F_CMOV(&sel.y, &sel.y, &nsel.y, neg);
            jac_madd_unified_ct(&acc, &acc, &sel, mag == 0);
        }
    }
    PT(jac_set_infinity)(&inf);
    jac_cmov(&acc, &acc, &inf, a_inf);
    *r = acc;
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
