/*
 * cs.h — the constraint system circuits are written against (bellperson's
 * ConstraintSystem): variables, linear combinations, rows, and the three backends of
 * cuzk/circuits.h (record, witness, count). Internal to the circuits layer.
 *
 * Variables are cs_var, tagged as cuzk_r1cs_var (ONE, PUBLIC(i), AUX(j)): the final index
 * of an aux variable depends on the number of inputs, known only at the end.
 *
 * Gadget contract
 *   - Allocation and row order is the circuit: call cs_alloc* / cs_enforce exactly where
 *     bellperson's gadget does, whatever the backend.
 *   - Values: compute them only when cs->values (the witness backend); elsewhere pass
 *     anything (NULL for cs_alloc). Constants (Boolean::Constant) are known everywhere.
 *   - Rows: build linear combinations only when cs->rows; otherwise call cs_row_skip (or
 *     cs_enforce with anything) so every backend counts the row.
 *   - Failures (out of memory, too many variables) are sticky in cs->status; gadgets do not
 *     check them, the runner reports them at the end. Variables returned after a failure
 *     are junk but valid to pass on.
 *
 * Threading: a cuzk_cs belongs to one thread.
 */
#ifndef CUZK_CIRCUITS_CS_H
#define CUZK_CIRCUITS_CS_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/circuits.h"
#include "cuzk/ff.h"
#include "cuzk/r1cs.h"

typedef cuzk_r1cs_var cs_var;
#define CS_ONE CUZK_R1CS_VAR_ONE

typedef struct cs_term {
    cs_var var;
    cuzk_fr coeff;
} cs_term;

/* AllocatedNum: a variable and its value (valid only when cs->values). */
typedef struct gad_num {
    cs_var var;
    cuzk_fr value;
} gad_num;

/* A linear combination: terms in any order, duplicates allowed until cs_lc_normalize. */
typedef struct cs_lc {
    cs_term *t;
    uint32_t n, cap;
} cs_lc;

typedef enum cs_backend { CS_RECORD = 0, CS_WITNESS = 1, CS_COUNT = 2 } cs_backend;

/* A growable bitmap. */
typedef struct cs_bits {
    uint64_t *w;
    size_t cap; /* words */
} cs_bits;

struct cuzk_cs {
    cs_backend backend;
    bool values;  /* witness values are computed */
    bool rows;    /* rows are built */
    bool compact; /* WITNESS: marked bits go to a bitmap */
    cuzk_status status;
    cuzk_error err;
    uint64_t n_public, n_aux, n_rows, n_bits;

    /* Montgomery constants gadgets use as coefficients */
    cuzk_fr one, neg_one, two, neg_two;
    cuzk_fr pow2[256]; /* 2^i */

    cs_lc row[3]; /* scratch A, B, C of the row being built */

    /* RECORD: per matrix, tagged vars + coefficients of every term, and row starts */
    struct {
        cs_var *var;
        cuzk_fr *coeff;
        uint64_t len, cap;
    } mat[CUZK_R1CS_MATRICES];
    uint64_t *row_ptr[CUZK_R1CS_MATRICES];
    uint64_t row_cap;
    cs_bits aux_is_bit; /* RECORD: aux j is a bit (bit j - aux_base); grown only as far as
                         * its highest set bit, so it may hold fewer words than n_aux needs */
    /* RECORD of one piece of a circuit (cs_init_at): the numbers of the inputs and aux
     * the earlier pieces allocate, so this piece's variables get their final numbers */
    uint64_t pub_base, aux_base;

    /* WITNESS */
    cuzk_fr *in_val; /* in_val[0] = ONE, then inputs */
    uint64_t in_cap;
    cuzk_fr *aux_val; /* dense: every aux; compact: the unmarked ones */
    uint64_t aux_len, aux_cap;
    cs_bits aux_bits; /* compact: values of marked aux, in order */

    /* COUNT */
    uint64_t nnz[CUZK_R1CS_MATRICES];
    cs_bits dens_in[CUZK_R1CS_MATRICES], dens_aux[CUZK_R1CS_MATRICES];
    /* COUNT: the distinct coefficients other than ONE (what the coefficient table of
     * cuzk_r1cs_coeff_table will hold besides ONE): an open-addressing set, linear
     * probing, load <= 1/2; coeff_vals[coeff_n] in insertion order, slots hold index + 1 */
    cuzk_fr *coeff_vals;
    uint32_t *coeff_slots;
    uint64_t coeff_n, coeff_cap, coeff_mask;
};

void cs_init(cuzk_cs *cs, cs_backend backend, bool compact);
/* A RECORD cs for a piece of a circuit that starts after pub_base inputs and aux_base aux
 * variables (allocated by the pieces before it): its variables are numbered as if the
 * whole circuit ran on one cs, so pieces recorded in parallel concatenate without
 * renumbering (cs_record_concat, cs_concat.h). A piece that reads a variable allocated by
 * another piece must run after it. */
void cs_init_at(cuzk_cs *cs, uint64_t pub_base, uint64_t aux_base);
void cs_release(cuzk_cs *cs);

/* Records the first failure (printf-style message) and keeps it. */
void cs_fail(cuzk_cs *cs, cuzk_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Allocations. value may be NULL when !cs->values. */
cs_var cs_alloc(cuzk_cs *cs, const cuzk_fr *value);
cs_var cs_alloc_bit_slow(cuzk_cs *cs, bool value);
/* An aux the circuit keeps 0/1: marked. Inline because SHA-256 gadgets allocate ~one bit
 * per row: the compact witness's common case (room in the bitmap, no failure, far from
 * 2^32 variables) is one OR into the bitmap; everything else takes cs_alloc_bit_slow. */
static inline cs_var cs_alloc_bit(cuzk_cs *cs, bool value)
{
    uint64_t j = cs->n_aux, b = cs->n_bits;
    if (cs->compact && (b >> 6) < cs->aux_bits.cap && cs->status == CUZK_OK &&
        1 + cs->n_public + j + 1 < UINT32_MAX) {
        cs->aux_bits.w[b >> 6] |= (uint64_t)value << (b & 63);
        cs->n_aux = j + 1;
        cs->n_bits = b + 1;
        return CUZK_R1CS_VAR_AUX(j);
    }
    return cs_alloc_bit_slow(cs, value);
}
cs_var cs_alloc_input(cuzk_cs *cs, const cuzk_fr *value);

/* ---- linear combinations ---- */
void cs_lc_free(cs_lc *l);
static inline void cs_lc_clear(cs_lc *l) { l->n = 0; }
void cs_lc_add(cuzk_cs *cs, cs_lc *l, cs_var v, const cuzk_fr *coeff);
static inline void cs_lc_add_var(cuzk_cs *cs, cs_lc *l, cs_var v) { cs_lc_add(cs, l, v, &cs->one); }
static inline void cs_lc_sub_var(cuzk_cs *cs, cs_lc *l, cs_var v)
{
    cs_lc_add(cs, l, v, &cs->neg_one);
}
/* dst += scale * src (scale NULL: 1). */
void cs_lc_add_lc(cuzk_cs *cs, cs_lc *dst, const cs_lc *src, const cuzk_fr *scale);
/* dst = src */
void cs_lc_copy(cuzk_cs *cs, cs_lc *dst, const cs_lc *src);
/* Sorts by variable, merges duplicates, drops zero coefficients. */
void cs_lc_normalize(cs_lc *l);

/* ---- rows ---- */
/* Adds the row <a,w> * <b,w> = <c,w>; normalizes a, b, c in place. */
void cs_enforce(cuzk_cs *cs, cs_lc *a, cs_lc *b, cs_lc *c);
/* The scratch row: three cleared linear combinations (A, B, C) ... */
static inline cs_lc *cs_row_begin(cuzk_cs *cs)
{
    cs->row[0].n = cs->row[1].n = cs->row[2].n = 0;
    return cs->row;
}
/* ... then enforced. */
static inline void cs_row_end(cuzk_cs *cs) { cs_enforce(cs, &cs->row[0], &cs->row[1], &cs->row[2]); }
/* A row whose linear combinations are not built (only valid when !cs->rows). */
static inline void cs_row_skip(cuzk_cs *cs) { cs->n_rows++; }

/* ---- values ---- */
static inline cuzk_fr cs_fr_bool(bool b) { return b ? CUZK_FR_ONE : CUZK_FR_ZERO; }

/* ---- backends' results (runner use) ---- */
cuzk_status cs_record_finish(cuzk_cs *cs, cuzk_r1cs **out, cuzk_witness_map *map);
void cs_count_finish(cuzk_cs *cs, cuzk_circuit_counts *out);
cuzk_status cs_witness_finish_dense(cuzk_cs *cs, cuzk_fr **values, uint32_t *n_vars);
cuzk_status cs_witness_finish_compact(cuzk_cs *cs, cuzk_compact_assignment *out);

#endif
