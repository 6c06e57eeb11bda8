/*
 * r1cs.c — lifetime of a frozen cuzk_r1cs, its density bitmaps, and witness views.
 * A frozen cuzk_r1cs is immutable, so the readers here are thread-safe; density is computed
 * once, single-threaded, while the object is being created.
 */
#include <stdlib.h>

#include "cuzk/r1cs.h"
#include "r1cs/r1cs_internal.h"

void cuzk_r1cs_destroy(cuzk_r1cs *r)
{
    if (!r)
        return;
    /* the arrays (and the coefficient table, coeff_values / coeff_index) are views into
     * the backing (a mapping), which owns them all */
    if (r->backing_release) {
        r->backing_release(r->backing);
        free(r);
        return;
    }
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++) {
        free(r->m[m].row_ptr);
        free(r->m[m].col);
        free(r->m[m].coeff); /* owned: builder-made, or NULL after cuzk_r1cs_compact */
        free((void *)r->coeff_index[m]);
        free(r->density[m]);
    }
    free((void *)r->coeff_values);
    free(r);
}

cuzk_status r1cs_compute_density(cuzk_r1cs *r, cuzk_error *err)
{
    size_t words = ((size_t)r->n_vars + 63) / 64;
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++) {
        uint64_t *d = calloc(words ? words : 1, sizeof *d);
        if (!d)
            return cuzk_error_set(err, CUZK_ERR_NOMEM,
                                  "r1cs: out of memory for a %u-variable density bitmap",
                                  r->n_vars);
        r->density[m] = d;
        const cuzk_csr *c = &r->m[m];
        /* Stored coefficients are non-zero by construction, so presence is enough. */
        for (uint64_t k = 0; k < c->nnz; k++)
            d[c->col[k] >> 6] |= (uint64_t)1 << (c->col[k] & 63);
        uint64_t cnt = 0;
        for (size_t i = 0; i < words; i++)
            cnt += (uint64_t)__builtin_popcountll(d[i]);
        r->density_count[m] = cnt;
    }
    return CUZK_OK;
}

uint64_t cuzk_r1cs_density_count(const cuzk_r1cs *r, cuzk_r1cs_matrix m, uint32_t begin,
                                 uint32_t end)
{
    if (!r || (unsigned)m >= CUZK_R1CS_MATRICES)
        return 0;
    if (end > r->n_vars)
        end = r->n_vars;
    if (begin >= end)
        return 0;
    const uint64_t *d = r->density[m];
    uint32_t wb = begin >> 6, we = (end - 1) >> 6;
    uint64_t lo_mask = ~(uint64_t)0 << (begin & 63);
    uint64_t hi_mask = ~(uint64_t)0 >> (63 - ((end - 1) & 63));
    if (wb == we)
        return (uint64_t)__builtin_popcountll(d[wb] & lo_mask & hi_mask);
    uint64_t cnt = (uint64_t)__builtin_popcountll(d[wb] & lo_mask);
    for (uint32_t i = wb + 1; i < we; i++)
        cnt += (uint64_t)__builtin_popcountll(d[i]);
    return cnt + (uint64_t)__builtin_popcountll(d[we] & hi_mask);
}

cuzk_witness cuzk_witness_dense(const cuzk_fr *values, uint32_t n_vars)
{
    cuzk_witness w = {.kind = CUZK_WITNESS_DENSE, .n_vars = n_vars, .values = values};
    return w;
}

void cuzk_witness_value(cuzk_fr *r, const cuzk_witness *w, uint32_t v)
{
    switch (w->kind) {
    case CUZK_WITNESS_DENSE:
        *r = w->values[v];
        return;
    case CUZK_WITNESS_COMPACT: {
        uint32_t k = cuzk_witness_map_bits_before(w->map, v);
        if ((w->map->is_bit[v >> 6] >> (v & 63)) & 1)
            *r = (w->bits[k >> 6] >> (k & 63)) & 1 ? CUZK_FR_ONE : CUZK_FR_ZERO;
        else
            *r = w->dense[v - k];
        return;
    }
    }
    *r = CUZK_FR_ZERO;
}
