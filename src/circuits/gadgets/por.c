/*
 * por.c — Merkle inclusion paths as rust-fil-proofs' PoRCircuit lays them out (leaf and
 * root already allocated, root private): see merkle.h for the order of allocations and
 * rows.
 *
 * Threading: as the cuzk_cs.
 */
#include "circuits/gadgets/merkle.h"

#define MAX_LEVELS 64u
#define MAX_ARITY 8u

unsigned gad_merkle_levels(const gad_merkle_shape *s)
{
    return s->base_levels + (s->sub_arity ? 1 : 0) + (s->top_arity ? 1 : 0);
}

unsigned gad_merkle_level_arity(const gad_merkle_shape *s, unsigned level)
{
    if (level < s->base_levels)
        return s->base_arity;
    if (level == s->base_levels && s->sub_arity)
        return s->sub_arity;
    return s->top_arity;
}

static unsigned log2u(unsigned x) { return (unsigned)__builtin_ctz(x); }

unsigned gad_merkle_index_bits(const gad_merkle_shape *s)
{
    unsigned n = 0;
    for (unsigned l = 0; l < gad_merkle_levels(s); l++)
        n += log2u(gad_merkle_level_arity(s, l));
    return n;
}

static bool shape_ok(const gad_merkle_shape *s)
{
    if (gad_merkle_levels(s) > MAX_LEVELS || (s->top_arity && !s->sub_arity))
        return false;
    for (unsigned l = 0; l < gad_merkle_levels(s); l++) {
        unsigned a = gad_merkle_level_arity(s, l);
        if (a < 2 || a > MAX_ARITY || (a & (a - 1)))
            return false;
    }
    return true;
}

void gad_por(cuzk_cs *cs, const gad_merkle_shape *s, const gad_num *leaf, const gad_num *root,
             const unsigned *index, const cuzk_fr *siblings)
{
    if (!shape_ok(s)) {
        cs_fail(cs, CUZK_ERR_INTERNAL, "merkle path: unsupported tree shape");
        return;
    }
    gad_bool bits[MAX_LEVELS * 3];
    unsigned nbits = 0;
    gad_num cur = *leaf;
    for (unsigned l = 0; l < gad_merkle_levels(s); l++) {
        unsigned arity = gad_merkle_level_arity(s, l), w = log2u(arity);
        unsigned idx = cs->values ? index[l] : 0;
        gad_bool *ib = bits + nbits;
        for (unsigned i = 0; i < w; i++)
            ib[i] = gad_bit_alloc(cs, (idx >> i) & 1);
        nbits += w;
        gad_num sib[MAX_ARITY - 1], children[MAX_ARITY];
        for (unsigned i = 0; i + 1 < arity; i++) {
            sib[i] = gad_num_alloc(cs, cs->values ? &siblings[i] : NULL);
        }
        if (cs->values)
            siblings += arity - 1;
        gad_insert(cs, &cur, ib, w, sib, children);
        cur = gad_hash_leaves(cs, s->hasher, children, arity);
    }
    gad_pack_into_inputs(cs, bits, nbits);
    gad_equal(cs, &cur, root);
}

void gad_por_bits(cuzk_cs *cs, const gad_merkle_shape *s, const gad_bool *bits,
                  const gad_num *leaf, const gad_num *path, const gad_num *root)
{
    if (!shape_ok(s)) {
        cs_fail(cs, CUZK_ERR_INTERNAL, "merkle path: unsupported tree shape");
        return;
    }
    gad_num cur = *leaf;
    for (unsigned l = 0; l < gad_merkle_levels(s); l++) {
        unsigned arity = gad_merkle_level_arity(s, l), w = log2u(arity);
        gad_num children[MAX_ARITY];
        gad_insert(cs, &cur, bits, w, path, children);
        bits += w;
        path += arity - 1;
        cur = gad_hash_leaves(cs, s->hasher, children, arity);
    }
    gad_equal(cs, &cur, root);
}
