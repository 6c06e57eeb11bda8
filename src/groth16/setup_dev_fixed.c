/*
 * setup_dev_fixed.c — the development setup's fixed-base multiplications (step 4 of the
 * recipe in setup_dev.c): a batch of scalars times the G1 or G2 generator, either on the
 * caller's hook (cuzk_groth16_setup_opts: the prover layer's GPU) or on the pool through
 * the ec layer's cuzk_g{1,2}s_fixed_mul_var with the generator tables of sd_temps.
 * A cancel (cuzk_groth16_setup_opts.cancel) is seen by every pool chunk, which then does
 * nothing (a chunk is ~10 ms of one core), and before each batch.
 * Threading: the pool's chunks are FB_GRAIN points, each worker with its own slice of
 * T->fb_scratch (indexed by the pool's worker id); the hook is called from this thread.
 */
#include <stdio.h>

#include "cuzk/ec.h"
#include "groth16/setup_dev_internal.h"

typedef struct fb_job {
    const cuzk_groth16_setup_opts *opts; /* its cancel flag skips the chunks left */
    const void *table;
    const cuzk_fr *scalars;
    void *out;
    uint8_t *scratch; /* per worker, scratch_size bytes each */
    size_t scratch_size;
} fb_job;

static void fb_g1(void *ctx, size_t begin, size_t end, unsigned wid)
{
    const fb_job *j = ctx;
    if (sd_cancelled(j->opts))
        return; /* the batch is thrown away (fixed_batch) */
    (void)cuzk_g1s_fixed_mul_var((cuzk_g1_affine *)j->out + begin, j->table, j->scalars + begin,
                                 end - begin, j->scratch + (size_t)wid * j->scratch_size,
                                 j->scratch_size);
}

static void fb_g2(void *ctx, size_t begin, size_t end, unsigned wid)
{
    const fb_job *j = ctx;
    if (sd_cancelled(j->opts))
        return; /* the batch is thrown away (fixed_batch) */
    (void)cuzk_g2s_fixed_mul_var((cuzk_g2_affine *)j->out + begin, j->table, j->scalars + begin,
                                 end - begin, j->scratch + (size_t)wid * j->scratch_size,
                                 j->scratch_size);
}

static const char *fb_where(const sd_temps *T, char *buf, size_t cap)
{
    if (T->hook)
        return T->hook->name[0] ? T->hook->name : "hook";
    snprintf(buf, cap, "cpu, %zu thread(s)", T->n_workers);
    return buf;
}

/* out = sc[i] times the G1 (g2 false) or G2 generator, on the hook or the pool; logged. */
static cuzk_status fixed_batch(bool g2, void *out, const cuzk_fr *sc, size_t n, sd_temps *T,
                               const char *what, cuzk_error *err)
{
    if (n == 0)
        return CUZK_OK;
    if (sd_cancelled(T->opts))
        return cuzk_error_set(err, CUZK_ERR_CANCELLED, "setup: cancelled");
    double t0 = sd_now_s();
    cuzk_status st;
    if (T->hook) {
        st = g2 ? T->hook->g2s(T->hook->ctx, out, sc, n, err)
                : T->hook->g1s(T->hook->ctx, out, sc, n, err);
    } else {
        fb_job j = {T->opts, g2 ? T->t2 : T->t1, sc, out, T->fb_scratch, T->fb_scratch_size};
        st = cuzk_pool_for(T->pool, n, g2 ? fb_g2 : fb_g1, &j, FB_GRAIN);
    }
    /* chunks skipped after a cancel left out[] incomplete: never a key */
    if (st == CUZK_OK && sd_cancelled(T->opts))
        return cuzk_error_set(err, CUZK_ERR_CANCELLED, "setup: cancelled");
    char b[48];
    if (st == CUZK_OK && n > 16)
        sd_log(T->opts, "setup: %s: %zu %s points in %.3f s (%s)", what, n, g2 ? "G2" : "G1",
               sd_now_s() - t0, fb_where(T, b, sizeof b));
    return st;
}

cuzk_status sd_fixed_g1s(cuzk_g1_affine *out, const cuzk_fr *sc, size_t n, sd_temps *T,
                         const char *what, cuzk_error *err)
{
    return fixed_batch(false, out, sc, n, T, what, err);
}

cuzk_status sd_fixed_g2s(cuzk_g2_affine *out, const cuzk_fr *sc, size_t n, sd_temps *T,
                         const char *what, cuzk_error *err)
{
    return fixed_batch(true, out, sc, n, T, what, err);
}
