/*
 * field_impl.h — one prime field's public functions, instantiated by fp.c and fr.c.
 *
 * The includer defines:
 *   FIELD(name)     pastes the prefix: FIELD(add) -> cuzk_fp_add
 *   FIELDS(name)    batch prefix: FIELDS(inv_var) -> cuzk_fps_inv_var
 *   FTYPE           the element type (cuzk_fp)
 *   FN, FBYTES      limb count, encoded byte length
 *   FMOD, FM0INV    modulus limbs and -m^-1 mod 2^64
 *   FR2             R^2 mod m (to enter Montgomery form)
 *   FONE            R mod m (Montgomery 1)
 *   FHALF_EXP       (m-1)/2 as FN limbs (Euler's criterion)
 *   FIELD(inv_var)  declared before inclusion (batch inversion calls it)
 *   FIELD_MUL_IMPL(r,a,b) / FIELD_SQR_IMPL(r,a)  the limb multiplier (portable or asm)
 *   FIELD_ADD_IMPL / FIELD_SUB_IMPL / FIELD_DBL_IMPL / FIELD_NEG_IMPL  likewise
 * and this file emits the functions shared by both fields.
 * Threading: pure functions on caller memory; thread-safe. Field-specific pieces (sqrt,
 * constants, wide reduction) stay in fp.c / fr.c.
 */
#include <string.h>

#include "util/util_export.h"

void FIELD(add)(FTYPE *r, const FTYPE *a, const FTYPE *b) { FIELD_ADD_IMPL(r->l, a->l, b->l); }
void FIELD(sub)(FTYPE *r, const FTYPE *a, const FTYPE *b) { FIELD_SUB_IMPL(r->l, a->l, b->l); }
void FIELD(neg)(FTYPE *r, const FTYPE *a) { FIELD_NEG_IMPL(r->l, a->l); }
void FIELD(dbl)(FTYPE *r, const FTYPE *a) { FIELD_DBL_IMPL(r->l, a->l); }
void FIELD(mul)(FTYPE *r, const FTYPE *a, const FTYPE *b) { FIELD_MUL_IMPL(r->l, a->l, b->l); }
void FIELD(sqr)(FTYPE *r, const FTYPE *a) { FIELD_SQR_IMPL(r->l, a->l); }

bool FIELD(is_zero)(const FTYPE *a) { return mont_is_zero(a->l, FN); }
bool FIELD(eq)(const FTYPE *a, const FTYPE *b) { return mont_eq(a->l, b->l, FN); }
bool FIELD(is_one)(const FTYPE *a) { return mont_eq(a->l, FONE.l, FN); }

void FIELD(cmov)(FTYPE *r, const FTYPE *a, const FTYPE *b, bool cond)
{
    mont_cmov(r->l, a->l, b->l, cond, FN);
}

/*
 * Fixed 4-bit windows over all of e, most significant first: 4 squarings, a table lookup
 * that reads all 16 entries and keeps one with masks, and one multiplication per window.
 * The sequence of operations depends only on nlimbs, so this is constant-time in a and in
 * e. About 1.6x fewer multiplications than a bitwise ladder with a select per bit.
 */
void FIELD(pow)(FTYPE *r, const FTYPE *a, const uint64_t *e, size_t nlimbs)
{
    FTYPE tab[16], acc = FONE, t;
    tab[0] = FONE;
    tab[1] = *a;
    for (size_t i = 2; i < 16; i++)
        FIELD(mul)(&tab[i], &tab[i - 1], a);
    for (size_t i = nlimbs; i-- > 0;) {
        for (int w = 60; w >= 0; w -= 4) {
            uint64_t idx = (e[i] >> w) & 15;
            for (int k = 0; k < 4; k++)
                FIELD(sqr)(&acc, &acc);
            t = tab[0];
            for (uint64_t k = 1; k < 16; k++)
                FIELD(cmov)(&t, &t, &tab[k], k == idx);
            FIELD(mul)(&acc, &acc, &t);
        }
    }
    *r = acc;
}

cuzk_status FIELD(from_canonical)(FTYPE *r, const uint64_t limbs[FN])
{
    if (!mont_lt(limbs, FMOD, FN))
        return CUZK_ERR_NONCANONICAL;
    FTYPE t;
    memcpy(t.l, limbs, sizeof t.l);
    FIELD(mul)(r, &t, &FR2);
    return CUZK_OK;
}

void FIELD(to_canonical)(uint64_t limbs[FN], const FTYPE *a)
{
    FTYPE one = {{1}};
    FTYPE t;
    FIELD(mul)(&t, a, &one);
    memcpy(limbs, t.l, sizeof t.l);
}

void FIELD(from_u64)(FTYPE *r, uint64_t v)
{
    FTYPE t = {{v}};
    /* v < 2^64 < m, so t is canonical */
    FIELD(mul)(r, &t, &FR2);
}

cuzk_status FIELD(from_bytes_be)(FTYPE *r, const uint8_t in[FBYTES])
{
    uint64_t l[FN];
    limbs_from_bytes_be(l, in, FN);
    return FIELD(from_canonical)(r, l);
}

cuzk_status FIELD(from_bytes_le)(FTYPE *r, const uint8_t in[FBYTES])
{
    uint64_t l[FN];
    limbs_from_bytes_le(l, in, FN);
    return FIELD(from_canonical)(r, l);
}

void FIELD(to_bytes_be)(uint8_t out[FBYTES], const FTYPE *a)
{
    uint64_t l[FN];
    FIELD(to_canonical)(l, a);
    limbs_to_bytes_be(out, l, FN);
}

void FIELD(to_bytes_le)(uint8_t out[FBYTES], const FTYPE *a)
{
    uint64_t l[FN];
    FIELD(to_canonical)(l, a);
    limbs_to_bytes_le(out, l, FN);
}

cuzk_status FIELD(from_mont_le)(FTYPE *r, const uint8_t in[FBYTES])
{
    uint64_t l[FN];
    limbs_from_bytes_le(l, in, FN);
    if (!mont_lt(l, FMOD, FN))
        return CUZK_ERR_NONCANONICAL;
    memcpy(r->l, l, sizeof r->l);
    return CUZK_OK;
}

void FIELD(to_mont_le)(uint8_t out[FBYTES], const FTYPE *a) { limbs_to_bytes_le(out, a->l, FN); }

/*
 * r = a^e for a *public* exponent e (a fixed constant such as (p+1)/4). Sliding window of
 * width 5 over the bits of e: the sequence of squarings/multiplications and the table
 * indices depend only on e, so this stays constant-time in a. Costs about
 * bits(e) squarings + bits(e)/6 multiplications + 16 for the table of odd powers, against
 * bits(e) multiplications more for the plain ladder in FIELD(pow).
 */
#define FIELD_POW_WIN 5
static void FIELD(pow_pub)(FTYPE *r, const FTYPE *a, const uint64_t *e, size_t nlimbs)
{
    FTYPE tab[1 << (FIELD_POW_WIN - 1)]; /* tab[i] = a^(2i+1) */
    FTYPE a2, acc = FONE;
    FIELD(sqr)(&a2, a);
    tab[0] = *a;
    for (size_t i = 1; i < (1u << (FIELD_POW_WIN - 1)); i++)
        FIELD(mul)(&tab[i], &tab[i - 1], &a2);

    size_t nbits = nlimbs * 64;
    while (nbits > 0 && !((e[(nbits - 1) / 64] >> ((nbits - 1) % 64)) & 1))
        nbits--;
#define EBIT(k) ((unsigned)((e[(k) / 64] >> ((k) % 64)) & 1))
    bool started = false;
    size_t i = nbits;
    while (i > 0) {
        size_t top = i - 1;
        if (!EBIT(top)) {
            if (started)
                FIELD(sqr)(&acc, &acc);
            i--;
            continue;
        }
        /* window [low, top] ending in a set bit, at most FIELD_POW_WIN bits long */
        size_t low = top + 1 >= FIELD_POW_WIN ? top + 1 - FIELD_POW_WIN : 0;
        while (!EBIT(low))
            low++;
        unsigned w = 0;
        for (size_t k = top + 1; k-- > low;)
            w = (w << 1) | EBIT(k);
        if (started) {
            for (size_t k = low; k <= top; k++)
                FIELD(sqr)(&acc, &acc);
            FIELD(mul)(&acc, &acc, &tab[w >> 1]);
        } else {
            acc = tab[w >> 1];
            started = true;
        }
        i = low;
    }
#undef EBIT
    *r = acc;
}

/* Euler's criterion a^((m-1)/2) in {0, 1, -1}; the three outcomes are told apart with
 * full-width comparisons so the answer costs the same for every a. */
int FIELD(legendre)(const FTYPE *a)
{
    FTYPE t, one_neg;
    FIELD(pow_pub)(&t, a, FHALF_EXP, FN);
    FIELD(neg)(&one_neg, &FONE);
    int is1 = (int)FIELD(eq)(&t, &FONE);
    int ism1 = (int)FIELD(eq)(&t, &one_neg);
    return is1 - ism1;
}

/*
 * Montgomery's trick: one inversion plus 3(n-1) multiplications. scratch[i] holds the
 * product of the non-zero a[0..i-1]; zeros are skipped in the running product (so they do
 * not make it zero) and left as they are. Variable-time (branches on zero entries).
 */
void FIELDS(inv_var)(FTYPE *a, size_t n, FTYPE *scratch)
{
    CUZK_VERIFY_CHECK(verify_first_unreduced(a->l, n, FMOD, FN) == SIZE_MAX,
                      "element %zu of %zu is not reduced",
                      verify_first_unreduced(a->l, n, FMOD, FN), n);
    FTYPE acc = FONE, inv, t;
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!FIELD(is_zero)(&a[i]))
            FIELD(mul)(&acc, &acc, &a[i]);
    }
    FIELD(inv_var)(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (FIELD(is_zero)(&a[i]))
            continue;
        FIELD(mul)(&t, &inv, &scratch[i]);
        FIELD(mul)(&inv, &inv, &a[i]);
        a[i] = t;
    }
}
