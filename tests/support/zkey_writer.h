/*
 * zkey_writer.h — a test-only snarkjs .zkey writer: serialises a SNARKJS-flavour key (from
 * cuzk_groth16_setup_dev) and its circuit into the .zkey layout the reader expects, so
 * the reader's tests (tests/unit/test_zkey.c) and the fuzz seed corpus
 * (tests/fuzz/gen_seeds_files.c) have valid keys without node. Not a product format
 * writer: it aborts on allocation failure and trusts its inputs. Its byte buffer is
 * snarkjs_writer.h's (the .r1cs / .wtns writers), so a test links both files.
 * Threading: pure functions on caller memory.
 */
#ifndef CUZK_TEST_ZKEY_WRITER_H
#define CUZK_TEST_ZKEY_WRITER_H

#include "cuzk/groth16.h"
#include "cuzk/r1cs.h"
#include "snarkjs_writer.h"

/* Appends the 32-byte .zkey form of an A/B coefficient (double Montgomery, see there). */
void zkey_put_coef(sw_buf *b, const cuzk_fr *c);

/* The whole .zkey file of pk (SNARKJS flavour) for its circuit r1cs: sections 1-9 in
 * snarkjs's "fresh key" order, A/B coefficients in double Montgomery form, and the
 * input rows (one per public input and ONE) appended to A as snarkjs does. */
sw_buf zkey_write(const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs);

#endif
