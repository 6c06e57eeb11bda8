/*
 * groth16_internal.h — helpers shared by the files of src/groth16 (and the bellperson
 * format readers): key shape derived from an r1cs, and the CSPRNG.
 * Threading: pure functions; g16_random_bytes is thread-safe (getrandom(2)).
 */
#ifndef CUZK_GROTH16_INTERNAL_H
#define CUZK_GROTH16_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/groth16.h"

/* The point-vector counts a key of this flavour has for r1cs (input rows appended). */
typedef struct g16_shape {
    size_t n_inputs;   /* 1 + n_public */
    size_t rows;       /* circuit rows + input rows */
    unsigned log2n;
    size_t n;          /* 2^log2n */
    size_t n_h, n_l, n_a, n_b;
} g16_shape;

cuzk_status g16_shape_of(g16_shape *sh, const cuzk_r1cs *r1cs, cuzk_groth16_flavour flavour,
                         bool append_input_rows, cuzk_error *err);

/* The toxic waste (tau, alpha, beta, gamma, delta) that cuzk_groth16_setup_dev derives from
 * a 32-byte test seed, for tests that rebuild the key the slow, straightforward way. */
void g16_setup_dev_waste(cuzk_fr waste[5], const uint8_t seed[32]);

/* Fills buf with n bytes from getrandom(2) (retries on EINTR / short reads). */
cuzk_status g16_random_bytes(void *buf, size_t n, cuzk_error *err);

#endif
