/*
 * setup_dev_scalars.c — the development setup's scalar vectors (step 3 of the recipe in
 * setup_dev.c): the ic / l scalars (beta u + alpha v + w) / gamma or delta per variable,
 * and the a / b gathers of u / v (bellperson: the variables of the A / B density, every
 * input in A; snarkjs: every variable), both into T->sc.
 * Threading: the scalars in chunks of SD_VARS / 8 variables on the pool; a gather counts
 * the selected variables per block of SD_VARS, takes the prefix sum on this thread, then
 * fills each block on the pool, so the order is that of one thread.
 */
#define _DEFAULT_SOURCE /* explicit_bzero */

#include <string.h>

#include "groth16/setup_dev_internal.h"

static void atomic_min_u32(uint32_t *p, uint32_t v)
{
    uint32_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v < cur &&
           !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

/* sc[var - base] = (beta u + alpha v + w) * inv for var in [base, end) */
typedef struct icl_job {
    const sd_waste *W;
    const sd_temps *T;
    const cuzk_fr *inv;
    uint32_t base;
    bool check;   /* l of a bellperson key: a zero scalar is an error */
    uint32_t bad; /* the lowest variable with a zero scalar (UINT32_MAX: none) */
} icl_job;

static void icl_block(void *ctx, size_t b, size_t e, unsigned wid)
{
    (void)wid;
    icl_job *J = ctx;
    const sd_temps *T = J->T;
    cuzk_fr t, q;
    for (size_t i = b; i < e; i++) {
        size_t var = J->base + i;
        cuzk_fr_mul(&t, &J->W->beta, &T->u[var]);
        cuzk_fr_mul(&q, &J->W->alpha, &T->v[var]);
        cuzk_fr_add(&t, &t, &q);
        cuzk_fr_add(&t, &t, &T->w[var]);
        cuzk_fr_mul(&T->sc[i], &t, J->inv);
        if (J->check && cuzk_fr_is_zero(&T->sc[i]))
            atomic_min_u32(&J->bad, (uint32_t)var);
    }
    explicit_bzero(&t, sizeof t);
    explicit_bzero(&q, sizeof q);
}

cuzk_status sd_icl_scalars(sd_temps *T, const sd_waste *W, const cuzk_fr *inv, uint32_t base,
                           uint32_t end, bool check, uint32_t *bad)
{
    icl_job J = {W, T, inv, base, check, UINT32_MAX};
    cuzk_status st = cuzk_pool_for(T->pool, end - base, icl_block, &J, SD_VARS / 8);
    *bad = J.bad;
    return st;
}

/* The a (A density, every input) or b (B density) gather of src into sc */
typedef struct gather_job {
    const cuzk_r1cs *r1cs;
    const cuzk_fr *src;
    cuzk_fr *dst;
    size_t *counts; /* per SD_VARS block: selected variables, then their first index */
    uint32_t nv, aux0;
    bool sj, is_a, fill;
} gather_job;

static inline bool gather_sel(const gather_job *J, uint32_t var)
{
    if (J->sj)
        return true;
    if (J->is_a)
        return var < J->aux0 || cuzk_r1cs_density_test(J->r1cs, CUZK_R1CS_A, var);
    return cuzk_r1cs_density_test(J->r1cs, CUZK_R1CS_B, var);
}

static void gather_block(void *ctx, size_t b, size_t e, unsigned wid)
{
    (void)wid;
    const gather_job *J = ctx;
    for (size_t blk = b; blk < e; blk++) {
        uint32_t v0 = (uint32_t)(blk * SD_VARS);
        uint32_t v1 = J->nv - v0 < SD_VARS ? J->nv : v0 + SD_VARS;
        if (!J->fill) {
            size_t k = 0;
            for (uint32_t var = v0; var < v1; var++)
                k += gather_sel(J, var);
            J->counts[blk] = k;
        } else {
            cuzk_fr *d = J->dst + J->counts[blk];
            for (uint32_t var = v0; var < v1; var++)
                if (gather_sel(J, var))
                    *d++ = J->src[var];
        }
    }
}

/* sc = the selected entries of src in variable order; their count in *k */
cuzk_status sd_gather(sd_temps *T, const cuzk_r1cs *r1cs, const cuzk_fr *src, bool sj, bool is_a,
                      size_t *k)
{
    uint32_t nv = r1cs->n_vars;
    size_t nblk = ((size_t)nv + SD_VARS - 1) / SD_VARS;
    gather_job J = {r1cs, src, T->sc, T->counts, nv, 1 + r1cs->n_public, sj, is_a, false};
    cuzk_status st = cuzk_pool_for(T->pool, nblk, gather_block, &J, 1);
    if (st != CUZK_OK)
        return st;
    size_t total = 0;
    for (size_t b = 0; b < nblk; b++) {
        size_t c = T->counts[b];
        T->counts[b] = total;
        total += c;
    }
    *k = total;
    J.fill = true;
    return cuzk_pool_for(T->pool, nblk, gather_block, &J, 1);
}
