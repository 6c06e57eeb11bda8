/*
 * uint32.c — UInt32 as bellpepper's uint32.rs: 32 Booleans LSB first; rotations and
 * shifts only reorder bits (shr fills with constant false), xor / ch / maj work bit by bit
 * (bit 0 first), addmany allocates its result bits and hands one equality to a MultiEq.
 *
 * Threading: as the cuzk_cs.
 */
#include "circuits/gadgets/bits.h"

gad_u32 gad_u32_const(uint32_t v)
{
    gad_u32 x;
    for (unsigned i = 0; i < 32; i++)
        x.b[i] = gb_const((v >> i) & 1);
    return x;
}

gad_u32 gad_u32_alloc(cuzk_cs *cs, uint32_t v)
{
    gad_u32 x;
    for (unsigned i = 0; i < 32; i++)
        x.b[i] = gad_bit_alloc(cs, (v >> i) & 1);
    return x;
}

uint32_t gad_u32_value(const gad_u32 *x)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < 32; i++)
        v |= (uint32_t)x->b[i].value << i;
    return v;
}

gad_u32 gad_u32_from_bits_be(const gad_bool bits[32])
{
    gad_u32 x;
    for (unsigned i = 0; i < 32; i++)
        x.b[i] = bits[31 - i];
    return x;
}

void gad_u32_into_bits_be(const gad_u32 *x, gad_bool out[32])
{
    for (unsigned i = 0; i < 32; i++)
        out[i] = x->b[31 - i];
}

gad_u32 gad_u32_rotr(const gad_u32 *x, unsigned by)
{
    gad_u32 r;
    by %= 32;
    for (unsigned i = 0; i < 32; i++)
        r.b[i] = x->b[(i + by) % 32];
    return r;
}

gad_u32 gad_u32_shr(const gad_u32 *x, unsigned by)
{
    gad_u32 r;
    by %= 32;
    for (unsigned i = 0; i < 32; i++)
        r.b[i] = i + by < 32 ? x->b[i + by] : gb_const(false);
    return r;
}

gad_u32 gad_u32_xor(cuzk_cs *cs, const gad_u32 *a, const gad_u32 *b)
{
    gad_u32 r;
    for (unsigned i = 0; i < 32; i++)
        r.b[i] = gad_bool_xor(cs, a->b[i], b->b[i]);
    return r;
}

gad_u32 gad_u32_sha256_ch(cuzk_cs *cs, const gad_u32 *a, const gad_u32 *b, const gad_u32 *c)
{
    gad_u32 r;
    for (unsigned i = 0; i < 32; i++)
        r.b[i] = gad_bool_sha256_ch(cs, a->b[i], b->b[i], c->b[i]);
    return r;
}

gad_u32 gad_u32_sha256_maj(cuzk_cs *cs, const gad_u32 *a, const gad_u32 *b, const gad_u32 *c)
{
    gad_u32 r;
    for (unsigned i = 0; i < 32; i++)
        r.b[i] = gad_bool_sha256_maj(cs, a->b[i], b->b[i], c->b[i]);
    return r;
}

/*
 * addmany: lhs = sum over operands and bits of bit * 2^i (constant bits through ONE),
 * result bits r_0.. allocated while max_value = n * (2^32 - 1) still has bits (33 for 2
 * operands, 34 for 3..4, 35 for 5..8, 36 for 9..10), rhs = sum r_i 2^i, one MultiEq
 * equality of that many bits; the carry bits are dropped.
 */
gad_u32 gad_u32_addmany(cuzk_cs *cs, gad_multieq *me, const gad_u32 *ops, unsigned n)
{
    uint64_t sum = 0;
    bool all_constants = true;
    for (unsigned k = 0; k < n; k++) {
        sum += gad_u32_value(&ops[k]);
        for (unsigned i = 0; i < 32; i++)
            all_constants &= gb_is_const(ops[k].b[i]);
    }
    if (all_constants)
        return gad_u32_const((uint32_t)sum);
    if (cs->rows) {
        cs_lc_clear(&me->tmp_l);
        for (unsigned k = 0; k < n; k++)
            for (unsigned i = 0; i < 32; i++)
                gb_lc_add(cs, &me->tmp_l, ops[k].b[i], &cs->pow2[i]);
        cs_lc_clear(&me->tmp_r);
    }
    gad_u32 r;
    unsigned nbits = 0;
    for (uint64_t max = (uint64_t)n * 0xffffffffu; max; max >>= 1, nbits++) {
        gad_bool b = gad_bit_alloc(cs, (sum >> nbits) & 1);
        if (cs->rows)
            cs_lc_add(cs, &me->tmp_r, b.var, &cs->pow2[nbits]);
        if (nbits < 32)
            r.b[nbits] = b;
    }
    gad_multieq_enforce_equal(cs, me, nbits, &me->tmp_l, &me->tmp_r);
    return r;
}
