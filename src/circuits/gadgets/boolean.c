/*
 * boolean.c — AllocatedBit and Boolean gadgets as bellpepper-core's boolean.rs lays them
 * out: every allocation, every row, and which term sits in A, B or C (density depends on
 * it). Each function's comment gives the bellperson row; the constant cases follow the
 * Rust match arms in order.
 *
 * Threading: as the cuzk_cs.
 */
#include "circuits/gadgets/bits.h"

gad_bool gad_bit_alloc(cuzk_cs *cs, bool value)
{
    gad_bool b = {GB_IS, value, cs_alloc_bit(cs, value)};
    if (cs->rows) { /* (ONE - b) * b = 0 */
        cs_lc *r = cs_row_begin(cs);
        cs_lc_add_var(cs, &r[0], CS_ONE);
        cs_lc_sub_var(cs, &r[0], b.var);
        cs_lc_add_var(cs, &r[1], b.var);
        cs_row_end(cs);
    } else {
        cs_row_skip(cs);
    }
    return b;
}

gad_bool gad_bit_alloc_conditionally(cuzk_cs *cs, bool value, gad_bool must_be_false)
{
    gad_bool b = {GB_IS, value, cs_alloc_bit(cs, value)};
    if (cs->rows) { /* (ONE - must_be_false - b) * b = 0 */
        cs_lc *r = cs_row_begin(cs);
        cs_lc_add_var(cs, &r[0], CS_ONE);
        cs_lc_sub_var(cs, &r[0], must_be_false.var);
        cs_lc_sub_var(cs, &r[0], b.var);
        cs_lc_add_var(cs, &r[1], b.var);
        cs_row_end(cs);
    } else {
        cs_row_skip(cs);
    }
    return b;
}

gad_bool gad_bit_xor(cuzk_cs *cs, gad_bool a, gad_bool b)
{
    gad_bool c = {GB_IS, (bool)(a.value ^ b.value), 0};
    c.var = cs_alloc_bit(cs, c.value);
    if (cs->rows) { /* (a + a) * b = a + b - c */
        cs_lc *r = cs_row_begin(cs);
        cs_lc_add_var(cs, &r[0], a.var);
        cs_lc_add_var(cs, &r[0], a.var);
        cs_lc_add_var(cs, &r[1], b.var);
        cs_lc_add_var(cs, &r[2], a.var);
        cs_lc_add_var(cs, &r[2], b.var);
        cs_lc_sub_var(cs, &r[2], c.var);
        cs_row_end(cs);
    } else {
        cs_row_skip(cs);
    }
    return c;
}

gad_bool gad_bit_and(cuzk_cs *cs, gad_bool a, gad_bool b)
{
    gad_bool c = {GB_IS, (bool)(a.value & b.value), 0};
    c.var = cs_alloc_bit(cs, c.value);
    if (cs->rows) { /* a * b = c */
        cs_lc *r = cs_row_begin(cs);
        cs_lc_add_var(cs, &r[0], a.var);
        cs_lc_add_var(cs, &r[1], b.var);
        cs_lc_add_var(cs, &r[2], c.var);
        cs_row_end(cs);
    } else {
        cs_row_skip(cs);
    }
    return c;
}

gad_bool gad_bit_and_not(cuzk_cs *cs, gad_bool a, gad_bool b)
{
    gad_bool c = {GB_IS, (bool)(a.value & !b.value), 0};
    c.var = cs_alloc_bit(cs, c.value);
    if (cs->rows) { /* a * (ONE - b) = c */
        cs_lc *r = cs_row_begin(cs);
        cs_lc_add_var(cs, &r[0], a.var);
        cs_lc_add_var(cs, &r[1], CS_ONE);
        cs_lc_sub_var(cs, &r[1], b.var);
        cs_lc_add_var(cs, &r[2], c.var);
        cs_row_end(cs);
    } else {
        cs_row_skip(cs);
    }
    return c;
}

gad_bool gad_bit_nor(cuzk_cs *cs, gad_bool a, gad_bool b)
{
    gad_bool c = {GB_IS, (bool)(!a.value & !b.value), 0};
    c.var = cs_alloc_bit(cs, c.value);
    if (cs->rows) { /* (ONE - a) * (ONE - b) = c */
        cs_lc *r = cs_row_begin(cs);
        cs_lc_add_var(cs, &r[0], CS_ONE);
        cs_lc_sub_var(cs, &r[0], a.var);
        cs_lc_add_var(cs, &r[1], CS_ONE);
        cs_lc_sub_var(cs, &r[1], b.var);
        cs_lc_add_var(cs, &r[2], c.var);
        cs_row_end(cs);
    } else {
        cs_row_skip(cs);
    }
    return c;
}

void gb_lc_add(cuzk_cs *cs, cs_lc *lc, gad_bool b, const cuzk_fr *coeff)
{
    switch (b.kind) {
    case GB_CONST:
        if (b.value)
            cs_lc_add(cs, lc, CS_ONE, coeff);
        break;
    case GB_IS:
        cs_lc_add(cs, lc, b.var, coeff);
        break;
    default: {
        cuzk_fr neg;
        cuzk_fr_neg(&neg, coeff);
        cs_lc_add(cs, lc, CS_ONE, coeff);
        cs_lc_add(cs, lc, b.var, &neg);
        break;
    }
    }
}

/* The allocated bit under a GB_IS / GB_NOT, as AllocatedBit (kind GB_IS, its own value). */
static gad_bool inner(gad_bool b) { return b.kind == GB_NOT ? gb_not(b) : b; }

gad_bool gad_bool_xor(cuzk_cs *cs, gad_bool a, gad_bool b)
{
    if (a.kind == GB_CONST && !a.value)
        return b;
    if (b.kind == GB_CONST && !b.value)
        return a;
    if (a.kind == GB_CONST)
        return gb_not(b);
    if (b.kind == GB_CONST)
        return gb_not(a);
    if (a.kind != b.kind) { /* a XOR (NOT b) = NOT (a XOR b), the Is operand first */
        gad_bool is = a.kind == GB_IS ? a : b, not = a.kind == GB_IS ? b : a;
        return gb_not(gad_bit_xor(cs, is, inner(not)));
    }
    return gad_bit_xor(cs, inner(a), inner(b)); /* (NOT a) XOR (NOT b) = a XOR b */
}

gad_bool gad_bool_and(cuzk_cs *cs, gad_bool a, gad_bool b)
{
    if ((a.kind == GB_CONST && !a.value) || (b.kind == GB_CONST && !b.value))
        return gb_const(false);
    if (a.kind == GB_CONST)
        return b;
    if (b.kind == GB_CONST)
        return a;
    if (a.kind != b.kind) { /* a AND (NOT b): and_not(is, not's bit) */
        gad_bool is = a.kind == GB_IS ? a : b, not = a.kind == GB_IS ? b : a;
        return gad_bit_and_not(cs, is, inner(not));
    }
    if (a.kind == GB_NOT)
        return gad_bit_nor(cs, inner(a), inner(b));
    return gad_bit_and(cs, a, b);
}

gad_bool gad_bool_or(cuzk_cs *cs, gad_bool a, gad_bool b)
{
    return gb_not(gad_bool_and(cs, gb_not(a), gb_not(b)));
}

gad_bool gad_bool_sha256_ch(cuzk_cs *cs, gad_bool a, gad_bool b, gad_bool c)
{
    bool v = (a.value & b.value) ^ (!a.value & c.value);
    if (gb_is_const(a) && gb_is_const(b) && gb_is_const(c))
        return gb_const(v);
    if (gb_is_const(a) && !a.value) /* (a and b) xor ((not a) and c) = c */
        return c;
    if (gb_is_const(b) && !b.value) /* = (not a) and c */
        return gad_bool_and(cs, gb_not(a), c);
    if (gb_is_const(c) && !c.value) /* = a and b */
        return gad_bool_and(cs, a, b);
    if (gb_is_const(c) && c.value) /* = not (a and (not b)) */
        return gb_not(gad_bool_and(cs, a, gb_not(b)));
    if (gb_is_const(b) && b.value) /* = not ((not a) and (not c)) */
        return gb_not(gad_bool_and(cs, gb_not(a), gb_not(c)));
    /* a constant true, or no constant: alloc ch; (b - c) * a = ch - c */
    gad_bool ch = {GB_IS, v, cs_alloc_bit(cs, v)};
    if (cs->rows) {
        cs_lc *r = cs_row_begin(cs);
        gb_lc_add(cs, &r[0], b, &cs->one);
        gb_lc_add(cs, &r[0], c, &cs->neg_one);
        gb_lc_add(cs, &r[1], a, &cs->one);
        cs_lc_add_var(cs, &r[2], ch.var);
        gb_lc_add(cs, &r[2], c, &cs->neg_one);
        cs_row_end(cs);
    } else {
        cs_row_skip(cs);
    }
    return ch;
}

gad_bool gad_bool_sha256_maj(cuzk_cs *cs, gad_bool a, gad_bool b, gad_bool c)
{
    bool v = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
    if (gb_is_const(a) && gb_is_const(b) && gb_is_const(c))
        return gb_const(v);
    if (gb_is_const(a) && !a.value)
        return gad_bool_and(cs, b, c);
    if (gb_is_const(b) && !b.value)
        return gad_bool_and(cs, a, c);
    if (gb_is_const(c) && !c.value)
        return gad_bool_and(cs, a, b);
    if (gb_is_const(c) && c.value)
        return gb_not(gad_bool_and(cs, gb_not(a), gb_not(b)));
    if (gb_is_const(b) && b.value)
        return gb_not(gad_bool_and(cs, gb_not(a), gb_not(c)));
    if (gb_is_const(a) && a.value)
        return gb_not(gad_bool_and(cs, gb_not(b), gb_not(c)));
    /* maj is allocated before bc: alloc maj; bc = b and c; (2bc - b - c) * a = bc - maj */
    gad_bool maj = {GB_IS, v, cs_alloc_bit(cs, v)};
    gad_bool bc = gad_bool_and(cs, b, c);
    if (cs->rows) {
        cs_lc *r = cs_row_begin(cs);
        gb_lc_add(cs, &r[0], bc, &cs->two);
        gb_lc_add(cs, &r[0], b, &cs->neg_one);
        gb_lc_add(cs, &r[0], c, &cs->neg_one);
        gb_lc_add(cs, &r[1], a, &cs->one);
        gb_lc_add(cs, &r[2], bc, &cs->one);
        cs_lc_sub_var(cs, &r[2], maj.var);
        cs_row_end(cs);
    } else {
        cs_row_skip(cs);
    }
    return maj;
}

void gad_bool_enforce_equal(cuzk_cs *cs, gad_bool a, gad_bool b)
{
    if (gb_is_const(a) && gb_is_const(b)) {
        if (a.value != b.value)
            cs_fail(cs, CUZK_ERR_UNSATISFIED, "circuit: two different constant bits equated");
        return;
    }
    if (!cs->rows) {
        cs_row_skip(cs);
        return;
    }
    cs_lc *r = cs_row_begin(cs);
    if ((gb_is_const(a) && a.value) || (gb_is_const(b) && b.value)) {
        gad_bool x = gb_is_const(a) ? b : a; /* 0 * 0 = ONE - x */
        cs_lc_add_var(cs, &r[2], CS_ONE);
        gb_lc_add(cs, &r[2], x, &cs->neg_one);
    } else if (gb_is_const(a) || gb_is_const(b)) {
        gb_lc_add(cs, &r[2], gb_is_const(a) ? b : a, &cs->one); /* 0 * 0 = x */
    } else {
        gb_lc_add(cs, &r[2], a, &cs->one); /* 0 * 0 = a - b */
        gb_lc_add(cs, &r[2], b, &cs->neg_one);
    }
    cs_row_end(cs);
}

void gad_bits_alloc_u64(cuzk_cs *cs, uint64_t value, gad_bool out[64])
{
    for (unsigned i = 0; i < 64; i++)
        out[i] = gad_bit_alloc(cs, (value >> i) & 1);
}
