/*
 * snarkjs_writer.h — test-only writers of the iden3 binary files that circom and snarkjs
 * exchange (the section container of src/formats/binfile.h; layouts in cuzk/formats.h and
 * reference/ecosystem.md): a growable byte buffer with little-endian puts, which the .zkey
 * writer (zkey_writer.h) builds on too, and whole .r1cs (version 1) and .wtns (version 2)
 * files. Both file writers write what they are given (wire ids, coefficient and value
 * bytes, counts) and take layout knobs (version, prime, sections left out, repeated or
 * added), so the readers' rejection tests (tests/unit/test_snarkjs_files.c) write their
 * malformed files with the same code that writes the valid ones the CLI fixture
 * (tests/cli/fixture.c) runs `cuzk` on, without node. Not a product format writer: it
 * aborts on allocation failure and trusts its inputs.
 * Threading: pure functions on caller memory.
 */
#ifndef CUZK_TEST_SNARKJS_WRITER_H
#define CUZK_TEST_SNARKJS_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/r1cs.h"

/* ---- bytes ------------------------------------------------------------------------------ */

/* A growable byte buffer, {0} when empty; free p when done. n <= cap, so a test may also
 * point it at its own exact-size block. */
typedef struct sw_buf {
    uint8_t *p;
    size_t n, cap;
} sw_buf;

void sw_put(sw_buf *b, const void *d, size_t n);
void sw_put_u32(sw_buf *b, uint32_t v);
void sw_put_u64(sw_buf *b, uint64_t v);
/* One section of the container: u32 id, u64 size, body. */
void sw_put_section(sw_buf *f, uint32_t id, const sw_buf *body);
/* The 32-byte little-endian prime of a header: BLS12-381's r, or bn128's r (the curve
 * circom defaults to: a wrong-curve file). */
void sw_prime_r(uint8_t out[32], bool bn128);

/* ---- .r1cs ------------------------------------------------------------------------------ */

/* A term of a linear combination; coeff is written as given (standard form, little-endian,
 * normally reduced), wire too. */
typedef struct sw_term {
    uint32_t wire;
    uint8_t coeff[32];
} sw_term;

/* Appends one linear combination to a constraints section body: u32 nTerms, then
 * (u32 wire, coeff[32]) per term. A constraint is its A, B and C in that order. */
void sw_r1cs_put_lc(sw_buf *c, const sw_term *t, uint32_t n);

/* The header section's fields, written as given (n_constraints need not match the
 * constraints section). */
typedef struct sw_r1cs_header {
    bool bn128; /* bn128's r as the prime */
    uint32_t n_wires, n_pub_out, n_pub_in, n_prv_in;
    uint64_t n_labels;
    uint32_t n_constraints;
} sw_r1cs_header;

void sw_r1cs_header_body(sw_buf *h, const sw_r1cs_header *hd);

/* Which sections the file holds, in this order: [77: a copy of the header, an id readers
 * must skip], then constraints (2) and header (1) [and the header again] in circom's order
 * or header first, then [the wire->label map (3)] [and 4: custom gates, PLONK-only, with the
 * map's body]. {0}: version 1, sections 1, 2, 3. */
typedef struct sw_r1cs_layout {
    uint32_t version;   /* 0 writes 1 */
    bool circom_order;  /* constraints before the header, as circom writes them */
    bool unknown_section, dup_header, no_constraints, no_map, custom_gates;
} sw_r1cs_layout;

/* A whole .r1cs file: the header hd, the constraints section body c (sw_r1cs_put_lc's),
 * and a wire->label map of n_wires labels 0, 1, ...; l NULL is {0}. */
sw_buf sw_r1cs_write(const sw_r1cs_header *hd, const sw_buf *c, const sw_r1cs_layout *l);

/* r as circom would wire it (cuzk variables are circom wires: ONE, public, aux): every
 * public variable an output, no inputs, one label per wire, sections 1, 2, 3. */
sw_buf sw_r1cs_of(const cuzk_r1cs *r);

/* ---- .wtns ------------------------------------------------------------------------------ */

/* {0}: version 2, BLS12-381's r, nWitness = the number of values written. */
typedef struct sw_wtns_layout {
    uint32_t version;    /* 0 writes 2 */
    bool bn128;          /* bn128's r as the prime */
    int64_t count_delta; /* added to nWitness in the header (the values stay as given) */
} sw_wtns_layout;

/* A whole .wtns file of the n 32-byte values as given (standard form, little-endian);
 * l NULL is {0}. */
sw_buf sw_wtns_write(const uint8_t (*vals)[32], uint32_t n, const sw_wtns_layout *l);

/* The valid .wtns of the n field elements w. */
sw_buf sw_wtns_of(const cuzk_fr *w, uint32_t n);

#endif
