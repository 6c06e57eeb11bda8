/*
 * bits.h — bit-level gadgets with bellperson's exact layout (bellpepper-core boolean.rs,
 * bellpepper uint32.rs / multieq.rs / sha256.rs / multipack.rs): Booleans, 32-bit words,
 * the MultiEq row packer, SHA-256, and packing bits into field elements.
 *
 * Layout facts every function here reproduces (order of aux allocations and rows, the
 * A/B/C placement of each term, the special cases for constants) are stated at each
 * definition in the .c files; filecoin.md §3 summarizes them.
 *
 * Values: a gad_bool carries its value (valid in the witness backend, and always for
 * constants). In the other backends allocated bits read false; gadgets never branch on
 * values, only on the kind (constant / variable / negated variable), as bellperson does.
 *
 * Threading: as the cuzk_cs they run on.
 */
#ifndef CUZK_CIRCUITS_GADGETS_BITS_H
#define CUZK_CIRCUITS_GADGETS_BITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "circuits/cs.h"

/* ---- Boolean (bellpepper-core boolean.rs) ---- */
typedef enum gb_kind { GB_CONST = 0, GB_IS = 1, GB_NOT = 2 } gb_kind;

typedef struct gad_bool {
    uint8_t kind;  /* gb_kind */
    bool value;    /* the Boolean's value (a GB_NOT's value is the negated variable's) */
    cs_var var;    /* GB_IS / GB_NOT */
} gad_bool;

static inline gad_bool gb_const(bool v)
{
    gad_bool b = {GB_CONST, v, 0};
    return b;
}
static inline bool gb_is_const(gad_bool b) { return b.kind == GB_CONST; }
static inline gad_bool gb_not(gad_bool b)
{
    if (b.kind != GB_CONST)
        b.kind = b.kind == GB_IS ? GB_NOT : GB_IS;
    b.value = !b.value;
    return b;
}

/* AllocatedBit::alloc: alloc b (marked bit); (1 - b) * b = 0. */
gad_bool gad_bit_alloc(cuzk_cs *cs, bool value);
/* AllocatedBit::alloc_conditionally: alloc b; (1 - must_be_false - b) * b = 0. */
gad_bool gad_bit_alloc_conditionally(cuzk_cs *cs, bool value, gad_bool must_be_false);
/* AllocatedBit ops on two allocated bits (kind GB_IS); the result is a marked bit. */
gad_bool gad_bit_xor(cuzk_cs *cs, gad_bool a, gad_bool b);     /* 2a * b = a + b - c */
gad_bool gad_bit_and(cuzk_cs *cs, gad_bool a, gad_bool b);     /* a * b = c */
gad_bool gad_bit_and_not(cuzk_cs *cs, gad_bool a, gad_bool b); /* a * (1 - b) = c */
gad_bool gad_bit_nor(cuzk_cs *cs, gad_bool a, gad_bool b);     /* (1 - a) * (1 - b) = c */

/* lc += coeff * b (Boolean::lc): constant true -> coeff*ONE, NOT -> coeff*ONE - coeff*v. */
void gb_lc_add(cuzk_cs *cs, cs_lc *lc, gad_bool b, const cuzk_fr *coeff);

gad_bool gad_bool_xor(cuzk_cs *cs, gad_bool a, gad_bool b);
gad_bool gad_bool_and(cuzk_cs *cs, gad_bool a, gad_bool b);
gad_bool gad_bool_or(cuzk_cs *cs, gad_bool a, gad_bool b);
gad_bool gad_bool_sha256_ch(cuzk_cs *cs, gad_bool a, gad_bool b, gad_bool c);
gad_bool gad_bool_sha256_maj(cuzk_cs *cs, gad_bool a, gad_bool b, gad_bool c);
/* Boolean::enforce_equal: one row 0 * 0 = a - b (constant cases as bellperson); two
 * different constants make the circuit unsatisfiable: cs fails with UNSATISFIED. */
void gad_bool_enforce_equal(cuzk_cs *cs, gad_bool a, gad_bool b);

/* u64_into_boolean_vec_le / UInt64::alloc: 64 allocated bits, LSB first. */
void gad_bits_alloc_u64(cuzk_cs *cs, uint64_t value, gad_bool out[64]);

/* ---- UInt32 (uint32.rs): bits LSB first ---- */
typedef struct gad_u32 {
    gad_bool b[32];
} gad_u32;

gad_u32 gad_u32_const(uint32_t v);
gad_u32 gad_u32_alloc(cuzk_cs *cs, uint32_t v);  /* 32 allocated bits, LSB first */
uint32_t gad_u32_value(const gad_u32 *x);         /* from the bits' values */
gad_u32 gad_u32_from_bits_be(const gad_bool bits[32]);
void gad_u32_into_bits_be(const gad_u32 *x, gad_bool out[32]);
gad_u32 gad_u32_rotr(const gad_u32 *x, unsigned by);
gad_u32 gad_u32_shr(const gad_u32 *x, unsigned by);
gad_u32 gad_u32_xor(cuzk_cs *cs, const gad_u32 *a, const gad_u32 *b);
gad_u32 gad_u32_sha256_ch(cuzk_cs *cs, const gad_u32 *a, const gad_u32 *b, const gad_u32 *c);
gad_u32 gad_u32_sha256_maj(cuzk_cs *cs, const gad_u32 *a, const gad_u32 *b, const gad_u32 *c);

/* ---- MultiEq (multieq.rs): equalities packed into rows lhs * ONE = rhs ---- */
typedef struct gad_multieq {
    unsigned bits_used;
    cs_lc lhs, rhs;
    cs_lc tmp_l, tmp_r; /* addmany's scratch */
} gad_multieq;

void gad_multieq_init(gad_multieq *me);
/* Adds lhs = rhs (both < 2^nbits); flushes the pending row first when 254 <= used + nbits. */
void gad_multieq_enforce_equal(cuzk_cs *cs, gad_multieq *me, unsigned nbits, const cs_lc *lhs,
                               const cs_lc *rhs);
/* The pending row, if any (MultiEq's drop), then frees the scratch. */
void gad_multieq_finish(cuzk_cs *cs, gad_multieq *me);

/* UInt32::addmany (2..10 operands): allocates bitlen(n*(2^32-1)) result bits and one
 * equality into me; all-constant operands give a constant. */
gad_u32 gad_u32_addmany(cuzk_cs *cs, gad_multieq *me, const gad_u32 *ops, unsigned n);

/* ---- SHA-256 (sha256.rs) ---- */
/* One compression of 512 input bits (big-endian words) from cur; its own MultiEq. */
void gad_sha256_compression(cuzk_cs *cs, const gad_bool in[512], const gad_u32 cur[8],
                            gad_u32 out[8]);
/* sha256_block_no_padding: one compression from the IV; out = 256 bits, big-endian. */
void gad_sha256_block_no_padding(cuzk_cs *cs, const gad_bool in[512], gad_bool out[256]);
/* sha256 of nbits (a multiple of 8) message bits, MSB of each byte first; padding and IV
 * are constants. out = 256 bits, big-endian. */
void gad_sha256(cuzk_cs *cs, const gad_bool *in, size_t nbits, gad_bool out[256]);

/* ---- multipack (multipack.rs) ---- */
#define GAD_FR_CAPACITY 254u /* Fr::CAPACITY */

/* pack_into_inputs: per chunk of 254 bits, alloc_input x; (sum bits_i 2^i) * ONE = x. */
void gad_pack_into_inputs(cuzk_cs *cs, const gad_bool *bits, size_t n);
/* pack_bits: the first min(n, 254) bits; alloc x; (sum bits_i 2^i) * ONE = x. */
gad_num gad_pack_bits(cuzk_cs *cs, const gad_bool *bits, size_t n);
/* compute_multipacking: the inputs pack_into_inputs allocates for these bit values. */
void gad_compute_multipacking(cuzk_fr *out, const bool *bits, size_t n);
static inline size_t gad_multipacking_len(size_t n)
{
    return (n + GAD_FR_CAPACITY - 1) / GAD_FR_CAPACITY;
}

#endif
