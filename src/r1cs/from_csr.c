/*
 * from_csr.c — cuzk_r1cs_from_csr: a frozen constraint system from CSR arrays generated
 * elsewhere (the synthetic workloads build hundreds of millions of rows directly, which the
 * row-by-row builder cannot do in reasonable time). The arrays are checked against every
 * CSR invariant of cuzk/r1cs.h before the object is created, in parallel.
 * Threading: the checks run on the given pool; the result is immutable.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "cuzk/r1cs.h"
#include "r1cs/r1cs_internal.h"

typedef struct check_ctx {
    const cuzk_csr *c;
    uint64_t rows;
    uint32_t n_vars;
    _Atomic uint64_t first_bad; /* lowest bad row, UINT64_MAX when none */
} check_ctx;

static void check_rows(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    check_ctx *x = vctx;
    const cuzk_csr *c = x->c;
    for (size_t r = begin; r < end; r++) {
        uint64_t b = c->row_ptr[r], e = c->row_ptr[r + 1];
        bool ok = b <= e && e <= c->nnz;
        /* direct c->coeff: adopted arrays are caller-built and must carry coeff (checked
         * below, "matrix missing"); only a mapped cache goes without (cuzk/r1cs.h) */
        for (uint64_t k = b; ok && k < e; k++)
            ok = c->col[k] < x->n_vars && (k == b || c->col[k] > c->col[k - 1]) &&
                 !cuzk_fr_is_zero(&c->coeff[k]);
        if (!ok) {
            uint64_t cur = atomic_load(&x->first_bad);
            while (r < cur && !atomic_compare_exchange_weak(&x->first_bad, &cur, r))
                ;
            return;
        }
    }
}

cuzk_status cuzk_r1cs_from_csr(cuzk_r1cs **out, uint64_t n_constraints, uint32_t n_public,
                               uint32_t n_aux, cuzk_csr m[CUZK_R1CS_MATRICES],
                               cuzk_pool *pool, cuzk_error *err)
{
    if (!out || !m)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "r1cs from csr: NULL argument");
    *out = NULL;
    uint64_t n_vars = 1 + (uint64_t)n_public + n_aux;
    cuzk_status st = CUZK_OK;
    if (n_vars > UINT32_MAX) {
        st = cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "r1cs from csr: 2^32 or more variables");
        goto fail;
    }
    for (int k = 0; k < CUZK_R1CS_MATRICES && st == CUZK_OK; k++) {
        cuzk_csr *c = &m[k];
        if (!c->row_ptr || (c->nnz && (!c->col || !c->coeff))) {
            st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "r1cs from csr: matrix %d missing", k);
            break;
        }
        if (c->row_ptr[0] != 0 || c->row_ptr[n_constraints] != c->nnz) {
            st = cuzk_error_set(err, CUZK_ERR_FORMAT,
                                "r1cs from csr: matrix %d row pointers do not span its %llu "
                                "terms", k, (unsigned long long)c->nnz);
            break;
        }
        check_ctx x = {.c = c, .rows = n_constraints, .n_vars = (uint32_t)n_vars};
        atomic_init(&x.first_bad, UINT64_MAX);
        if ((st = cuzk_pool_for(pool, n_constraints, check_rows, &x, 4096)) != CUZK_OK)
            break;
        uint64_t bad = atomic_load(&x.first_bad);
        if (bad != UINT64_MAX)
            st = cuzk_error_set(err, CUZK_ERR_FORMAT,
                                "r1cs from csr: matrix %d row %llu breaks the CSR rules "
                                "(columns strictly increasing and < %llu, coefficients "
                                "non-zero)",
                                k, (unsigned long long)bad, (unsigned long long)n_vars);
    }
    if (st != CUZK_OK)
        goto fail;
    cuzk_r1cs *r = calloc(1, sizeof *r);
    if (!r) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "r1cs from csr: out of memory");
        goto fail;
    }
    r->n_constraints = n_constraints;
    r->n_vars = (uint32_t)n_vars;
    r->n_public = n_public;
    r->n_aux = n_aux;
    for (int k = 0; k < CUZK_R1CS_MATRICES; k++) {
        r->m[k] = m[k];
        m[k] = (cuzk_csr){0};
    }
    if ((st = r1cs_compute_density(r, err)) != CUZK_OK) {
        cuzk_r1cs_destroy(r);
        return st;
    }
    *out = r;
    return CUZK_OK;
fail:
    for (int k = 0; k < CUZK_R1CS_MATRICES; k++) {
        free(m[k].row_ptr);
        free(m[k].col);
        free(m[k].coeff);
        m[k] = (cuzk_csr){0};
    }
    return st;
}
