/*
 * test_rng.h — seedable test RNG (xoshiro256**) and random field/curve elements.
 *
 * CUZK_TEST_SEED (decimal or 0x hex) fixes the seed; otherwise a fresh one is drawn from
 * /dev/urandom. CUZK_TEST_ITERS sets the iteration count of random tests (default given by
 * each test). test_rng_init() prints the seed so any failure can be replayed.
 * Single-threaded (tests only).
 */
#ifndef CUZK_TEST_RNG_H
#define CUZK_TEST_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/ff.h"

#ifdef __cplusplus
extern "C" {
#endif

uint64_t test_rng_init(const char *test_name);   /* returns the seed */
uint64_t test_rng_seed(void);
uint64_t test_rng_u64(void);
void test_rng_bytes(uint8_t *out, size_t n);
/* CUZK_TEST_ITERS or dflt */
size_t test_iters(size_t dflt);

void test_rand_fp(cuzk_fp *r);   /* uniform in [0, p) */
void test_rand_fr(cuzk_fr *r);   /* uniform in [0, r) */
void test_rand_fp2(cuzk_fp2 *r);

#ifdef __cplusplus
}
#endif

#endif
