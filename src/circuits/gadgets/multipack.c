/*
 * multipack.c — packing bits into field elements as bellpepper's multipack.rs:
 * pack_into_inputs (public inputs, one per 254-bit chunk, LSB first), pack_bits (one aux
 * number from the first 254 bits; the same function rust-fil-proofs' hashers call) and
 * compute_multipacking (the verifier's side: the input values for given bits).
 *
 * Threading: as the cuzk_cs.
 */
#include "circuits/gadgets/bits.h"

/* value = sum bits_i 2^i over n <= 254 bits, and, with rows, lc = the same sum. */
static void pack(cuzk_cs *cs, const gad_bool *bits, size_t n, cuzk_fr *value, cs_lc *lc)
{
    *value = CUZK_FR_ZERO;
    for (size_t i = 0; i < n; i++) {
        if (cs->values && bits[i].value)
            cuzk_fr_add(value, value, &cs->pow2[i]);
        if (lc)
            gb_lc_add(cs, lc, bits[i], &cs->pow2[i]);
    }
}

void gad_pack_into_inputs(cuzk_cs *cs, const gad_bool *bits, size_t n)
{
    for (size_t at = 0; at < n; at += GAD_FR_CAPACITY) {
        size_t len = n - at < GAD_FR_CAPACITY ? n - at : GAD_FR_CAPACITY;
        cuzk_fr v;
        /* num * ONE = input: the row's A is built before the input exists, as in Rust */
        cs_lc *r = cs->rows ? cs_row_begin(cs) : NULL;
        pack(cs, bits + at, len, &v, r ? &r[0] : NULL);
        cs_var x = cs_alloc_input(cs, &v);
        if (r) {
            cs_lc_add_var(cs, &r[1], CS_ONE);
            cs_lc_add_var(cs, &r[2], x);
            cs_row_end(cs);
        } else {
            cs_row_skip(cs);
        }
    }
}

gad_num gad_pack_bits(cuzk_cs *cs, const gad_bool *bits, size_t n)
{
    gad_num x;
    cs_lc *r = cs->rows ? cs_row_begin(cs) : NULL;
    pack(cs, bits, n < GAD_FR_CAPACITY ? n : GAD_FR_CAPACITY, &x.value, r ? &r[0] : NULL);
    x.var = cs_alloc(cs, &x.value);
    if (r) {
        cs_lc_add_var(cs, &r[1], CS_ONE);
        cs_lc_add_var(cs, &r[2], x.var);
        cs_row_end(cs);
    } else {
        cs_row_skip(cs);
    }
    return x;
}

void gad_compute_multipacking(cuzk_fr *out, const bool *bits, size_t n)
{
    cuzk_fr coeff = CUZK_FR_ONE;
    for (size_t i = 0; i < n; i++) {
        if (i % GAD_FR_CAPACITY == 0) {
            out[i / GAD_FR_CAPACITY] = CUZK_FR_ZERO;
            coeff = CUZK_FR_ONE;
        }
        if (bits[i])
            cuzk_fr_add(&out[i / GAD_FR_CAPACITY], &out[i / GAD_FR_CAPACITY], &coeff);
        cuzk_fr_dbl(&coeff, &coeff);
    }
}
