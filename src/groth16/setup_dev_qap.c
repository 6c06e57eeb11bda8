/*
 * setup_dev_qap.c — the development setup's u_v = A_v(tau), v_v = B_v(tau), w_v = C_v(tau)
 * for every variable (step 2 of the recipe in setup_dev.c), by walking the CSR: row j
 * contributes coeff * L_j(tau) to its column's sum (the input rows are the caller's).
 * Threading: by column ownership, so no two threads write one sum and the bytes are those
 * of one thread: the columns of aux variables are cut into at most SD_PARTS ranges of 2^s;
 * a pass over blocks of SD_ROWS rows notes which ranges each block touches (a bitmap),
 * then each range's owner walks only those blocks and adds only the terms of its own
 * columns. The columns below SD_HOT that are inputs (ONE is in most of B's rows: a boolean
 * constraint is x * (1 - x) = 0) are summed per worker in the first pass and folded after
 * it. Allocates the per-worker sums and the bitmaps into T (freed with T).
 */
#include <stdlib.h>
#include <string.h>

#include "groth16/setup_dev_internal.h"

/* coeff == 1 (most terms of a Filecoin circuit): the product is lag itself, exactly */
static inline bool fr_is_one(const cuzk_fr *a)
{
    return ((a->l[0] ^ CUZK_FR_ONE.l[0]) | (a->l[1] ^ CUZK_FR_ONE.l[1]) |
            (a->l[2] ^ CUZK_FR_ONE.l[2]) | (a->l[3] ^ CUZK_FR_ONE.l[3])) == 0;
}

typedef struct qap_job {
    const cuzk_r1cs *r1cs;
    const cuzk_fr *lag;
    cuzk_fr *uvw[3];
    uint32_t hot;          /* columns below: summed per worker */
    unsigned shift;        /* column c >= hot lies in range (c - hot) >> shift */
    size_t nblocks;
    uint64_t *masks;       /* [mat][block][SD_WORDS] */
    cuzk_fr *hot_sums;     /* [worker][mat][hot] */
} qap_job;

static inline const cuzk_fr *term_coeff(const cuzk_r1cs *r, int mat, uint64_t k)
{
    const cuzk_fr *c = r->m[mat].coeff;
    return c ? &c[k] : &r->coeff_values[r->coeff_index[mat][k]];
}

/* coeff * lag added to *dst */
static inline void add_term(cuzk_fr *dst, const cuzk_fr *coeff, const cuzk_fr *lag)
{
    if (fr_is_one(coeff)) {
        cuzk_fr_add(dst, dst, lag);
    } else {
        cuzk_fr t;
        cuzk_fr_mul(&t, coeff, lag);
        cuzk_fr_add(dst, dst, &t);
    }
}

/* Pass 1, blocks [b0, b1): the ranges each block touches; the hot columns' terms */
static void qap_scan(void *ctx, size_t b0, size_t b1, unsigned wid)
{
    const qap_job *J = ctx;
    const cuzk_r1cs *r = J->r1cs;
    const uint64_t m = r->n_constraints;
    for (int mat = 0; mat < 3; mat++) {
        const cuzk_csr *M = &r->m[mat];
        cuzk_fr *hs = J->hot_sums + ((size_t)wid * 3 + (size_t)mat) * J->hot;
        for (size_t blk = b0; blk < b1; blk++) {
            uint64_t *mk = J->masks + ((size_t)mat * J->nblocks + blk) * SD_WORDS;
            uint64_t j1 = (blk + 1) * (uint64_t)SD_ROWS < m ? (blk + 1) * (uint64_t)SD_ROWS : m;
            for (uint64_t j = blk * (uint64_t)SD_ROWS; j < j1; j++)
                for (uint64_t k = M->row_ptr[j]; k < M->row_ptr[j + 1]; k++) {
                    uint32_t c = M->col[k];
                    if (c < J->hot) {
                        add_term(&hs[c], term_coeff(r, mat, k), &J->lag[j]);
                    } else {
                        uint32_t p = (c - J->hot) >> J->shift;
                        mk[p >> 6] |= (uint64_t)1 << (p & 63);
                    }
                }
        }
    }
}

/* Pass 2, ranges [p0, p1): each adds the terms of its own columns */
static void qap_part(void *ctx, size_t p0, size_t p1, unsigned wid)
{
    (void)wid;
    const qap_job *J = ctx;
    const cuzk_r1cs *r = J->r1cs;
    const uint64_t m = r->n_constraints;
    for (size_t p = p0; p < p1; p++) {
        uint64_t lo = J->hot + ((uint64_t)p << J->shift), hi = lo + ((uint64_t)1 << J->shift);
        for (int mat = 0; mat < 3; mat++) {
            const cuzk_csr *M = &r->m[mat];
            cuzk_fr *dst = J->uvw[mat];
            for (size_t blk = 0; blk < J->nblocks; blk++) {
                const uint64_t *mk = J->masks + ((size_t)mat * J->nblocks + blk) * SD_WORDS;
                if (!((mk[p >> 6] >> (p & 63)) & 1))
                    continue;
                uint64_t j1 = (blk + 1) * (uint64_t)SD_ROWS < m ? (blk + 1) * (uint64_t)SD_ROWS
                                                                : m;
                for (uint64_t j = blk * (uint64_t)SD_ROWS; j < j1; j++)
                    for (uint64_t k = M->row_ptr[j]; k < M->row_ptr[j + 1]; k++) {
                        uint32_t c = M->col[k];
                        if (c >= lo && c < hi)
                            add_term(&dst[c], term_coeff(r, mat, k), &J->lag[j]);
                    }
            }
        }
    }
}

/* u, v, w (zeroed by the caller) from lag, without the input rows */
cuzk_status sd_eval_qap(sd_temps *T, const cuzk_r1cs *r1cs, cuzk_error *err)
{
    const uint32_t nv = r1cs->n_vars, aux0 = 1 + r1cs->n_public;
    qap_job J;
    memset(&J, 0, sizeof J);
    J.r1cs = r1cs;
    J.lag = T->lag;
    J.uvw[0] = T->u;
    J.uvw[1] = T->v;
    J.uvw[2] = T->w;
    J.hot = aux0 < SD_HOT ? aux0 : SD_HOT;
    if (J.hot > nv)
        J.hot = nv;
    uint64_t span = nv - J.hot;
    while ((span >> J.shift) >= SD_PARTS)
        J.shift++;
    size_t nparts = span ? (size_t)(((span - 1) >> J.shift) + 1) : 0;
    J.nblocks = (size_t)((r1cs->n_constraints + SD_ROWS - 1) / SD_ROWS);
    T->n_hot_sums = T->n_workers * 3 * (size_t)J.hot;
    T->hot_sums = calloc(T->n_hot_sums ? T->n_hot_sums : 1, sizeof(cuzk_fr));
    T->masks = calloc(3 * (J.nblocks ? J.nblocks : 1) * SD_WORDS, sizeof(uint64_t));
    if (!T->hot_sums || !T->masks)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "setup: no memory for temporaries");
    J.masks = T->masks;
    J.hot_sums = T->hot_sums;
    cuzk_status st = cuzk_pool_for(T->pool, J.nblocks, qap_scan, &J, 4);
    if (st == CUZK_OK)
        st = cuzk_pool_for(T->pool, nparts, qap_part, &J, 1);
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "setup: pool");
    for (int mat = 0; mat < 3; mat++)
        for (size_t wid = 0; wid < T->n_workers; wid++) {
            const cuzk_fr *hs = J.hot_sums + (wid * 3 + (size_t)mat) * J.hot;
            for (uint32_t c = 0; c < J.hot; c++)
                cuzk_fr_add(&J.uvw[mat][c], &J.uvw[mat][c], &hs[c]);
        }
    return CUZK_OK;
}
