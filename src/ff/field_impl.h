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
 *   FIELD_MUL_IMPL(r,a,b) / FIELD_SQR_IMPL(r,a)  the limb multiplier (portable or asm)
 * and this file emits the functions shared by both fields. Field-specific pieces (sqrt,
 * constants, wide reduction) stay in fp.c / fr.c.
 */
#include <string.h>

void FIELD(add)(FTYPE *r, const FTYPE *a, const FTYPE *b) { mont_add(r->l, a->l, b->l, FMOD, FN); }
void FIELD(sub)(FTYPE *r, const FTYPE *a, const FTYPE *b) { mont_sub(r->l, a->l, b->l, FMOD, FN); }
void FIELD(neg)(FTYPE *r, const FTYPE *a) { mont_neg(r->l, a->l, FMOD, FN); }
void FIELD(dbl)(FTYPE *r, const FTYPE *a) { mont_add(r->l, a->l, a->l, FMOD, FN); }
void FIELD(mul)(FTYPE *r, const FTYPE *a, const FTYPE *b) { FIELD_MUL_IMPL(r->l, a->l, b->l); }
void FIELD(sqr)(FTYPE *r, const FTYPE *a) { FIELD_SQR_IMPL(r->l, a->l); }

bool FIELD(is_zero)(const FTYPE *a) { return mont_is_zero(a->l, FN); }
bool FIELD(eq)(const FTYPE *a, const FTYPE *b) { return mont_eq(a->l, b->l, FN); }
bool FIELD(is_one)(const FTYPE *a) { return mont_eq(a->l, FONE.l, FN); }

void FIELD(cmov)(FTYPE *r, const FTYPE *a, const FTYPE *b, bool cond)
{
    mont_cmov(r->l, a->l, b->l, cond, FN);
}

/* Square-and-multiply over all bits of e with a constant-time select, so the sequence of
 * operations depends only on the length of e. */
void FIELD(pow)(FTYPE *r, const FTYPE *a, const uint64_t *e, size_t nlimbs)
{
    FTYPE acc = FONE, base = *a, t;
    for (size_t i = nlimbs; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            FIELD(sqr)(&acc, &acc);
            FIELD(mul)(&t, &acc, &base);
            FIELD(cmov)(&acc, &acc, &t, (e[i] >> bit) & 1);
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
