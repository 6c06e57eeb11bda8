/*
 * setup_dev_internal.h — what the files of the development setup share (setup_dev.c drives
 * the recipe; setup_dev_lagrange.c, setup_dev_qap.c, setup_dev_scalars.c and
 * setup_dev_fixed.c each do one of its parallel steps). The recipe, the threading and the
 * temporaries are described at the top of setup_dev.c.
 * Threading: the step functions run their work on T->pool and return when it is done;
 * call them from one thread.
 */
#ifndef CUZK_GROTH16_SETUP_DEV_INTERNAL_H
#define CUZK_GROTH16_SETUP_DEV_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/groth16.h"
#include "cuzk/poly.h"

/* ---- sizes of the parallel steps ------------------------------------------------------ */

/* Window width of the generator tables: measured on the 2-core dev box (Release, 20k
 * random scalars, one thread), us per point G1 / G2: w = 8 6.7 / 18.1, w = 12 4.8 / 13.1,
 * w = 13 4.5 / 12.1, w = 14 7.1 / 16.7, w = 16 6.6 / 13.3 — past 13 the tables (7.5 / 15
 * MiB at 13) stop fitting the cache and every lookup misses. */
#define FB_W 13
#define FB_GRAIN 2048 /* points per pool chunk: four of the ec layer's 512-point batches */
/* Domain points per pool chunk of the Lagrange and power loops: a block pays one pow
 * (~380 multiplications) and one inversion (~300) for ~7 multiplications a point. */
#define SD_BLOCK 8192
/* Rows per block of the u/v/w bitmaps; ranges of columns (a multiple of 64) */
#define SD_ROWS 4096
#define SD_PARTS 256
#define SD_WORDS (SD_PARTS / 64)
/* Input columns below this are summed per worker (their terms are everywhere) */
#define SD_HOT 1024u
/* Variables per pool chunk of the scalar and gather loops */
#define SD_VARS 65536

/* ---- small helpers -------------------------------------------------------------------- */

/* Monotonic seconds, for the log lines; setup_dev.c. */
double sd_now_s(void);

static inline void sd_pow_u64(cuzk_fr *r, const cuzk_fr *a, uint64_t e)
{
    cuzk_fr_pow(r, a, &e, 1);
}

/* One progress line to o->log (nothing without one); setup_dev.c. */
void sd_log(const cuzk_groth16_setup_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Whether the caller asked the setup to stop (cuzk_groth16_setup_opts.cancel). */
static inline bool sd_cancelled(const cuzk_groth16_setup_opts *o)
{
    return o && o->cancel && *o->cancel;
}

/* ---- the setup's state ------------------------------------------------------------------ */

typedef struct sd_waste {
    cuzk_fr tau, alpha, beta, gamma, delta, gamma_inv, delta_inv;
} sd_waste;

/* Everything secret that setup allocates, so one function can wipe and free it. */
typedef struct sd_temps {
    cuzk_domain *dom;
    cuzk_fr *lag, *u, *v, *w, *sc; /* sc: scalars to multiply, size max vector */
    size_t n_lag, n_vars, n_sc;
    void *t1, *t2;
    size_t t1_size, t2_size;
    uint8_t *fb_scratch; /* per pool worker, fb_scratch_size bytes each */
    size_t fb_scratch_size, n_workers;
    cuzk_fr *hot_sums; /* per worker, 3 x hot */
    size_t n_hot_sums;
    uint64_t *masks;   /* 3 x row blocks x SD_WORDS */
    size_t *counts;    /* per SD_VARS block of variables */
    const cuzk_groth16_setup_opts *opts;
    const cuzk_groth16_fixed_base_hook *hook;
    cuzk_pool *pool;
} sd_temps;

/* ---- the steps ---------------------------------------------------------------------------- */

/* setup_dev_fixed.c: out = sc[i] times the G1 / G2 generator, on the hook or the pool (the
 * tables T->t1 / T->t2 and T->fb_scratch); logged as `what`. */
cuzk_status sd_fixed_g1s(cuzk_g1_affine *out, const cuzk_fr *sc, size_t n, sd_temps *T,
                         const char *what, cuzk_error *err);
cuzk_status sd_fixed_g2s(cuzk_g2_affine *out, const cuzk_fr *sc, size_t n, sd_temps *T,
                         const char *what, cuzk_error *err);

/* setup_dev_lagrange.c: lag[j] = c * x_j / (tau - x_j) for x_j = g * omega^j, j < n (g = 1
 * for the plain domain); c = (tau^N - 1)/N is the caller's; scratch holds n elements.
 * Fails if tau is one of the x_j. */
cuzk_status sd_lagrange_like(cuzk_fr *lag, cuzk_fr *scratch, size_t n, const cuzk_fr *g,
                             const cuzk_fr *omega, const cuzk_fr *tau, const cuzk_fr *c,
                             cuzk_pool *pool, cuzk_error *err);
/* setup_dev_lagrange.c: out[i] = x0 tau^i for i < n, on the pool. */
cuzk_status sd_powers(cuzk_fr *out, size_t n, const cuzk_fr *x0, const cuzk_fr *tau,
                      cuzk_pool *pool);

/* setup_dev_qap.c: u, v, w (zeroed by the caller) from T->lag, without the input rows. */
cuzk_status sd_eval_qap(sd_temps *T, const cuzk_r1cs *r1cs, cuzk_error *err);

/* setup_dev_scalars.c: T->sc[var - base] = (beta u + alpha v + w) * inv for var in
 * [base, end); with check, *bad is the lowest variable whose scalar is zero (UINT32_MAX:
 * none). */
cuzk_status sd_icl_scalars(sd_temps *T, const sd_waste *W, const cuzk_fr *inv, uint32_t base,
                           uint32_t end, bool check, uint32_t *bad);
/* setup_dev_scalars.c: T->sc = the entries of src selected for a (is_a: the A density and
 * every input) or b (the B density), every one for snarkjs (sj), in variable order; their
 * count in *k. */
cuzk_status sd_gather(sd_temps *T, const cuzk_r1cs *r1cs, const cuzk_fr *src, bool sj, bool is_a,
                      size_t *k);

#endif
