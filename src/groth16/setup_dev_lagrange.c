/*
 * setup_dev_lagrange.c — the development setup's domain values at tau (steps 1 and 3 of
 * the recipe in setup_dev.c): the Lagrange-like values c * x_j / (tau - x_j) over a
 * (possibly shifted) radix-2 domain, with one batch inversion per block, and the powers
 * x0 tau^i of bellperson's h.
 * Threading: blocks of SD_BLOCK domain points on the pool, each starting from its own pow
 * (g omega^begin, or x0 tau^begin), so the bytes are those of one thread.
 */
#define _DEFAULT_SOURCE /* explicit_bzero */

#include <string.h>

#include "groth16/setup_dev_internal.h"

typedef struct lag_job {
    cuzk_fr *lag, *scratch;
    const cuzk_fr *g, *omega, *tau, *c;
    int hit; /* tau is one of the x_j (__atomic) */
} lag_job;

static void lag_block(void *ctx, size_t b, size_t e, unsigned wid)
{
    (void)wid;
    lag_job *J = ctx;
    cuzk_fr x0, x, t;
    sd_pow_u64(&x0, J->omega, b);
    cuzk_fr_mul(&x0, &x0, J->g); /* x_b = g omega^b */
    x = x0;
    for (size_t j = b; j < e; j++) {
        cuzk_fr_sub(&J->lag[j], J->tau, &x);
        if (cuzk_fr_is_zero(&J->lag[j])) {
            __atomic_store_n(&J->hit, 1, __ATOMIC_RELAXED);
            return;
        }
        cuzk_fr_mul(&x, &x, J->omega);
    }
    /* lag = 1/(tau - x_j), then multiply by c * x_j (x_j walked again) */
    cuzk_frs_inv_var(J->lag + b, e - b, J->scratch + b);
    x = x0;
    for (size_t j = b; j < e; j++) {
        cuzk_fr_mul(&t, J->c, &x);
        cuzk_fr_mul(&J->lag[j], &J->lag[j], &t);
        cuzk_fr_mul(&x, &x, J->omega);
    }
    explicit_bzero(&t, sizeof t);
}

cuzk_status sd_lagrange_like(cuzk_fr *lag, cuzk_fr *scratch, size_t n, const cuzk_fr *g,
                             const cuzk_fr *omega, const cuzk_fr *tau, const cuzk_fr *c,
                             cuzk_pool *pool, cuzk_error *err)
{
    lag_job J = {lag, scratch, g, omega, tau, c, 0};
    cuzk_status st = cuzk_pool_for(pool, n, lag_block, &J, SD_BLOCK);
    if (st == CUZK_OK && J.hit)
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "setup: tau hit the domain");
    return st;
}

/* out[i] = x0 tau^i for i < n, in blocks starting at x0 tau^begin */
typedef struct pow_job {
    cuzk_fr *out;
    const cuzk_fr *x0, *tau;
} pow_job;

static void pow_block(void *ctx, size_t b, size_t e, unsigned wid)
{
    (void)wid;
    const pow_job *J = ctx;
    cuzk_fr x;
    sd_pow_u64(&x, J->tau, b);
    cuzk_fr_mul(&x, &x, J->x0);
    for (size_t i = b; i < e; i++) {
        J->out[i] = x;
        cuzk_fr_mul(&x, &x, J->tau);
    }
    explicit_bzero(&x, sizeof x);
}

cuzk_status sd_powers(cuzk_fr *out, size_t n, const cuzk_fr *x0, const cuzk_fr *tau,
                      cuzk_pool *pool)
{
    pow_job J = {out, x0, tau};
    return cuzk_pool_for(pool, n, pow_block, &J, SD_BLOCK);
}
