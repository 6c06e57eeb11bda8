/*
 * num.h — field-element gadgets: bellpepper-core's AllocatedNum (num.rs) and
 * rust-fil-proofs' storage-proofs-core constraint.rs and insertion.rs (pick, insert_2/4/8)
 * with their exact layouts.
 *
 * Values are valid only in the witness backend (cs->values); elsewhere they are junk.
 *
 * Threading: as the cuzk_cs.
 */
#ifndef CUZK_CIRCUITS_GADGETS_NUM_H
#define CUZK_CIRCUITS_GADGETS_NUM_H

#include "circuits/cs.h"
#include "circuits/gadgets/bits.h"

#define GAD_FR_NUM_BITS 255u /* Fr::NUM_BITS */

/* AllocatedNum::alloc / alloc_input: a variable, no row. value may be NULL without values. */
gad_num gad_num_alloc(cuzk_cs *cs, const cuzk_fr *value);
gad_num gad_num_alloc_input(cuzk_cs *cs, const cuzk_fr *value);
/* inputize: alloc_input x; x * ONE = num. Returns x. */
gad_num gad_num_inputize(cuzk_cs *cs, const gad_num *num);
/* to_bits_le: 255 allocated bits of the canonical value, LSB first (allocated in that
 * order), then 0 * 0 = sum bits_i 2^i - num (no range check). */
void gad_num_to_bits_le(cuzk_cs *cs, const gad_num *num, gad_bool out[GAD_FR_NUM_BITS]);
/* add: alloc s; (a + b) * ONE = s.  mul: alloc p; a * b = p.  square: alloc q; a * a = q. */
gad_num gad_num_add(cuzk_cs *cs, const gad_num *a, const gad_num *b);
gad_num gad_num_mul(cuzk_cs *cs, const gad_num *a, const gad_num *b);
gad_num gad_num_square(cuzk_cs *cs, const gad_num *a);
/* conditionally_reverse: alloc c = cond ? b : a; (a - b) * cond = a - c;
 *                        alloc d = cond ? a : b; (b - a) * cond = b - d. */
void gad_num_conditionally_reverse(cuzk_cs *cs, const gad_num *a, const gad_num *b,
                                   gad_bool cond, gad_num *c, gad_num *d);

/* constraint::equal: a * ONE = b (no allocation). */
void gad_equal(cuzk_cs *cs, const gad_num *a, const gad_num *b);
/* constraint::add: alloc s; (a + b) * ONE = s.  constraint::sub: alloc d = a - b;
 * (d + b) * ONE = a. */
gad_num gad_constraint_add(cuzk_cs *cs, const gad_num *a, const gad_num *b);
gad_num gad_constraint_sub(cuzk_cs *cs, const gad_num *a, const gad_num *b);

/* pick: alloc c = cond ? a : b; (b - a) * cond = b - c. */
gad_num gad_pick(cuzk_cs *cs, gad_bool cond, const gad_num *a, const gad_num *b);
/* insert: out = elements with element inserted at the position the bits (LSB first)
 * give; 2^nbits = n_elements + 1, nbits = 1, 2 or 3 (insert_2, insert_4, insert_8). The
 * bits must be allocated and not negated for insert_8 (nor + and + 20 picks = 22 rows). */
void gad_insert(cuzk_cs *cs, const gad_num *element, const gad_bool *bits, unsigned nbits,
                const gad_num *elements, gad_num *out);

#endif
