/*
 * bench.h — the `cuzk bench` item tables and the helpers the group files share.
 *
 * Each group file (bench_field.c, bench_curve.c, bench_pairing.c) exports a table of
 * items: a setup function that builds random inputs and a run function that performs n
 * operations on them. Inputs come from a seeded generator so a run can be replayed with
 * --seed.
 *
 * Threading: single-threaded; item states are file-level statics set up just before the
 * item runs.
 */
#ifndef CUZK_BENCH_H
#define CUZK_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/pairing.h"

#include "bench_timing.h"

typedef struct bench_item {
    const char *name;
    /* Builds the inputs; false means they are unusable (reported, item not timed). */
    bool (*setup)(void);
    bench_run_fn run;
    /* Operations done by one run() step, for items timed in batches (batch to affine). */
    unsigned ops_per_step;
} bench_item;

typedef struct bench_group {
    const char *name;
    const bench_item *items;
    size_t count;
} bench_group;

extern const bench_group bench_group_field;
extern const bench_group bench_group_curve;
extern const bench_group bench_group_pairing;

/* Random inputs (xoshiro256** seeded by bench_rng_seed). */
void bench_rng_seed(uint64_t seed);
void bench_rand_fp(cuzk_fp *r);
void bench_rand_fr(cuzk_fr *r);
/* Uniform-ish points of the prime-order groups: generator times a random scalar.
 * (The variable-time multiplication is used, so setup stays quick.) */
void bench_rand_g1(cuzk_g1_jac *r);
void bench_rand_g2(cuzk_g2_jac *r);
void bench_rand_g1_affine(cuzk_g1_affine *r);
void bench_rand_g2_affine(cuzk_g2_affine *r);

/* Folds an element into bench_sink. */
static inline void bench_sink_fp(const cuzk_fp *a) { bench_sink ^= a->l[0]; }
static inline void bench_sink_fr(const cuzk_fr *a) { bench_sink ^= a->l[0]; }

#endif
