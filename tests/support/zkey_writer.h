/*
 * zkey_writer.h — a test-only snarkjs .zkey writer: serialises a SNARKJS-flavour key (from
 * cuzk_groth16_setup_dev) and its circuit into the .zkey layout the reader expects, so
 * the reader's tests (tests/unit/test_zkey.c) and the fuzz seed corpus
 * (tests/fuzz/gen_seeds_files.c) have valid keys without node. Not a product format
 * writer: it aborts on allocation failure and trusts its inputs.
 * Threading: pure functions on caller memory.
 */
#ifndef CUZK_TEST_ZKEY_WRITER_H
#define CUZK_TEST_ZKEY_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/groth16.h"
#include "cuzk/r1cs.h"

/* A growable byte buffer; free p when done. */
typedef struct zkey_buf {
    uint8_t *p;
    size_t n, cap;
} zkey_buf;

void zkey_buf_put(zkey_buf *b, const void *d, size_t n);

/* Appends the 32-byte .zkey form of an A/B coefficient (double Montgomery, see there). */
void zkey_put_coef(zkey_buf *b, const cuzk_fr *c);

/* The whole .zkey file of pk (SNARKJS flavour) for its circuit r1cs: sections 1-9 in
 * snarkjs's "fresh key" order, A/B coefficients in double Montgomery form, and the
 * input rows (one per public input and ONE) appended to A as snarkjs does. */
zkey_buf zkey_write(const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs);

#endif
