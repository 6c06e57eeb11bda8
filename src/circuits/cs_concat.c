/*
 * cs_concat.c — see cs_concat.h. The concatenation copies each piece's inputs and dense
 * values at prefix-sum offsets and shifts its bitmap into place, the two boundary words
 * of each piece ORed atomically (neighbouring pieces share them), all on the pool.
 * Threading: as the header says.
 */
#include <stdlib.h>
#include <string.h>

#include "circuits/cs_concat.h"

typedef struct merge {
    cuzk_cs **cs;       /* pieces in circuit order */
    uint64_t *pub, *aux, *bit; /* offsets (prefix sums) per segment */
    uint64_t n_public;
    cuzk_fr *dense;     /* dense: every variable; compact: the unmarked ones */
    uint64_t *bits;     /* compact */
    uint64_t n_bits;
} merge;

/* 64 bits of src (nb bits, held in nw words) starting at bit s (may be negative: zeros
 * below 0). A bitmap grows only as far as its highest set bit (the recorder's aux_is_bit),
 * so nw may be less than ceil(nb/64): the words it lacks are zeros, never read. */
static uint64_t get64(const uint64_t *src, size_t nw, uint64_t nb, int64_t s)
{
    uint64_t v = 0;
    if (s >= 0) {
        uint64_t w = (uint64_t)s >> 6, sh = (uint64_t)s & 63;
        if ((uint64_t)s < nb && w < nw)
            v = src[w] >> sh;
        if (sh && (uint64_t)s + 64 - sh < nb && w + 1 < nw)
            v |= src[w + 1] << (64 - sh);
    } else if (s > -64 && nw) {
        v = src[0] << (unsigned)(-s);
    }
    if ((int64_t)nb - s < 64) /* bits past the end are zero in src, but be explicit */
        v &= ((int64_t)nb - s <= 0) ? 0 : (((uint64_t)1 << ((int64_t)nb - s)) - 1);
    return v;
}

static void put_bits(uint64_t *dst, uint64_t off, const cs_bits *src, uint64_t nb)
{
    if (!nb)
        return;
    uint64_t d0 = off >> 6, d1 = (off + nb - 1) >> 6;
    for (uint64_t d = d0; d <= d1; d++) {
        uint64_t v = get64(src->w, src->cap, nb, (int64_t)(d * 64) - (int64_t)off);
        if (d == d0 || d == d1) /* shared with the neighbouring segment */
            __atomic_fetch_or(&dst[d], v, __ATOMIC_RELAXED);
        else
            dst[d] = v;
    }
}

static void merge_fn(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    merge *m = ctx;
    for (size_t s = begin; s < end; s++) {
        cuzk_cs *cs = m->cs[s];
        if (cs->n_public)
            memcpy(m->dense + 1 + m->pub[s], cs->in_val + 1, cs->n_public * sizeof(cuzk_fr));
        if (cs->aux_len)
            memcpy(m->dense + 1 + m->n_public + m->aux[s], cs->aux_val,
                   cs->aux_len * sizeof(cuzk_fr));
        if (m->bits)
            put_bits(m->bits, m->bit[s], &cs->aux_bits, cs->n_bits);
        cs_release(cs); /* early: the pieces and the result together are the peak */
    }
}

cuzk_status cs_concat(cuzk_cs **cs, size_t n, bool compact, cuzk_pool *pool,
                      cuzk_fr **dense_out, uint64_t **bits_out, uint64_t *n_vars_out,
                      uint64_t *n_bits_out, cuzk_error *err)
{
    merge m = {0};
    cuzk_status st = CUZK_OK;
    m.cs = cs;
    m.pub = malloc((n ? n : 1) * 3 * sizeof *m.pub);
    if (!m.pub) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "witness: out of memory");
        goto out;
    }
    m.aux = m.pub + n;
    m.bit = m.aux + n;
    uint64_t pub = 0, aux = 0, bit = 0, n_aux = 0;
    for (size_t s = 0; s < n; s++) {
        if (cs[s]->status != CUZK_OK) {
            if (err)
                *err = cs[s]->err;
            st = cs[s]->status;
            goto out;
        }
        m.pub[s] = pub;
        m.aux[s] = aux;
        m.bit[s] = bit;
        pub += cs[s]->n_public;
        aux += cs[s]->aux_len;
        bit += cs[s]->n_bits;
        n_aux += cs[s]->n_aux;
    }
    uint64_t n_vars = 1 + pub + n_aux;
    if (n_vars >= UINT32_MAX) {
        st = cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "circuit: 2^32 variables or more");
        goto out;
    }
    m.n_public = pub;
    m.n_bits = bit;
    size_t nd = (size_t)(1 + pub + aux), nw = (size_t)((bit + 63) / 64);
    m.dense = malloc(nd * sizeof(cuzk_fr));
    m.bits = compact ? calloc(nw ? nw : 1, sizeof(uint64_t)) : NULL;
    if (!m.dense || (compact && !m.bits)) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "witness: out of memory");
        goto out;
    }
    m.dense[0] = CUZK_FR_ONE;
    if ((st = cuzk_pool_for(pool, n, merge_fn, &m, 1)) != CUZK_OK) {
        cuzk_error_set(err, st, "witness: the worker pool failed");
        goto out;
    }
    *dense_out = m.dense;
    if (bits_out)
        *bits_out = m.bits;
    else
        free(m.bits);
    *n_vars_out = n_vars;
    *n_bits_out = bit;
    m.dense = NULL;
    m.bits = NULL;
out:
    for (size_t s = 0; s < n; s++)
        cs_release(cs[s]); /* the merged ones are zeroed already: a no-op */
    free(m.dense);
    free(m.bits);
    free(m.pub);
    return st;
}

/* ---- recorded pieces ------------------------------------------------------------------ */

typedef struct rmerge {
    cuzk_cs **cs;
    uint64_t *row, *nnz[CUZK_R1CS_MATRICES]; /* per piece: first row, first term */
    uint64_t n_public;
    cuzk_csr *m;
    uint64_t *is_bit; /* map: over the final variables */
} rmerge;

static void rmerge_fn(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    rmerge *r = ctx;
    for (size_t s = begin; s < end; s++) {
        cuzk_cs *cs = r->cs[s];
        uint64_t rows = cs->n_rows, r0 = r->row[s];
        for (int k = 0; k < CUZK_R1CS_MATRICES; k++) {
            cuzk_csr *M = &r->m[k];
            uint64_t t0 = r->nnz[k][s], len = cs->mat[k].len;
            for (uint64_t i = 0; i < rows; i++)
                M->row_ptr[r0 + i + 1] = t0 + cs->row_ptr[k][i + 1];
            for (uint64_t i = 0; i < len; i++) {
                cs_var v = cs->mat[k].var[i];
                uint32_t idx = (uint32_t)v;
                M->col[t0 + i] = (v >> 32) == 0   ? 0
                                 : (v >> 32) == 1 ? 1 + idx
                                                  : (uint32_t)(1 + r->n_public + idx);
            }
            if (len)
                memcpy(M->coeff + t0, cs->mat[k].coeff, len * sizeof(cuzk_fr));
        }
        if (r->is_bit) /* aux j of this piece is bit j - aux_base of its own map */
            put_bits(r->is_bit, 1 + r->n_public + cs->aux_base, &cs->aux_is_bit,
                     cs->n_aux - cs->aux_base);
        cs_release(cs);
    }
}

cuzk_status cs_record_concat(cuzk_cs **cs, size_t n, cuzk_pool *pool, cuzk_r1cs **r1cs,
                             cuzk_witness_map *map, cuzk_error *err)
{
    rmerge r = {.cs = cs};
    cuzk_csr m[CUZK_R1CS_MATRICES];
    memset(m, 0, sizeof m);
    cuzk_status st = CUZK_OK;
    *r1cs = NULL;
    if (map)
        memset(map, 0, sizeof *map);
    r.row = malloc((n + 1) * (1 + CUZK_R1CS_MATRICES) * sizeof *r.row);
    if (!r.row) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "circuit: out of memory");
        goto out;
    }
    for (int k = 0; k < CUZK_R1CS_MATRICES; k++)
        r.nnz[k] = r.row + (n + 1) * (1 + (size_t)k);
    uint64_t pub = 0, aux = 0, rows = 0, nnz[CUZK_R1CS_MATRICES] = {0};
    for (size_t s = 0; s < n; s++) {
        if (cs[s]->status != CUZK_OK) {
            if (err)
                *err = cs[s]->err;
            st = cs[s]->status;
            goto out;
        }
        if (cs[s]->backend != CS_RECORD || cs[s]->pub_base != pub || cs[s]->aux_base != aux) {
            st = cuzk_error_set(err, CUZK_ERR_INTERNAL,
                                "circuit: piece %zu starts at input %llu, aux %llu; the "
                                "pieces before it end at %llu, %llu",
                                s, (unsigned long long)cs[s]->pub_base,
                                (unsigned long long)cs[s]->aux_base, (unsigned long long)pub,
                                (unsigned long long)aux);
            goto out;
        }
        r.row[s] = rows;
        for (int k = 0; k < CUZK_R1CS_MATRICES; k++) {
            r.nnz[k][s] = nnz[k];
            nnz[k] += cs[s]->mat[k].len;
        }
        pub = cs[s]->n_public;
        aux = cs[s]->n_aux;
        rows += cs[s]->n_rows;
    }
    if (1 + pub + aux >= UINT32_MAX) {
        st = cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "circuit: 2^32 variables or more");
        goto out;
    }
    r.n_public = pub;
    for (int k = 0; k < CUZK_R1CS_MATRICES; k++) {
        m[k].nnz = nnz[k];
        m[k].row_ptr = calloc(rows + 1, sizeof(uint64_t));
        m[k].col = malloc((nnz[k] ? nnz[k] : 1) * sizeof(uint32_t));
        m[k].coeff = malloc((nnz[k] ? nnz[k] : 1) * sizeof(cuzk_fr));
        if (!m[k].row_ptr || !m[k].col || !m[k].coeff) {
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "circuit: out of memory");
            goto out;
        }
    }
    uint64_t n_vars = 1 + pub + aux;
    if (map && !(r.is_bit = calloc((size_t)(n_vars + 63) / 64, sizeof(uint64_t)))) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "circuit: out of memory");
        goto out;
    }
    r.m = m;
    if ((st = cuzk_pool_for(pool, n, rmerge_fn, &r, 1)) != CUZK_OK) {
        cuzk_error_set(err, st, "circuit: the worker pool failed");
        goto out;
    }
    st = cuzk_r1cs_from_csr(r1cs, rows, (uint32_t)pub, (uint32_t)aux, m, pool, err);
    memset(m, 0, sizeof m); /* owned by *r1cs now, or freed by the failed call */
    if (st == CUZK_OK && map && (st = cuzk_witness_map_init(map, r.is_bit, (uint32_t)n_vars,
                                                            err)) != CUZK_OK) {
        cuzk_r1cs_destroy(*r1cs);
        *r1cs = NULL;
    }
out:
    for (size_t s = 0; s < n; s++)
        cs_release(cs[s]);
    for (int k = 0; k < CUZK_R1CS_MATRICES; k++) {
        free(m[k].row_ptr);
        free(m[k].col);
        free(m[k].coeff);
    }
    free(r.is_bit);
    free(r.row);
    return st;
}
