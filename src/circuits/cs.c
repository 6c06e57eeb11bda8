/*
 * cs.c — the constraint system's core (see cs.h): allocation, linear combinations, and
 * the per-row work of each backend (record: append terms; count: count them and mark
 * density; witness: nothing).
 *
 * Threading: a cuzk_cs belongs to one thread; no global state.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/cs.h"

void cs_init(cuzk_cs *cs, cs_backend backend, bool compact)
{
    memset(cs, 0, sizeof *cs);
    cs->backend = backend;
    cs->values = backend == CS_WITNESS;
    cs->rows = backend != CS_WITNESS;
    cs->compact = backend == CS_WITNESS && compact;
    cs->one = CUZK_FR_ONE;
    cuzk_fr_neg(&cs->neg_one, &cs->one);
    cuzk_fr_dbl(&cs->two, &cs->one);
    cuzk_fr_neg(&cs->neg_two, &cs->two);
    cs->pow2[0] = cs->one;
    for (int i = 1; i < 256; i++)
        cuzk_fr_dbl(&cs->pow2[i], &cs->pow2[i - 1]);
}

void cs_init_at(cuzk_cs *cs, uint64_t pub_base, uint64_t aux_base)
{
    cs_init(cs, CS_RECORD, false);
    cs->n_public = cs->pub_base = pub_base;
    cs->n_aux = cs->aux_base = aux_base;
}

void cs_release(cuzk_cs *cs)
{
    for (int k = 0; k < 3; k++) {
        cs_lc_free(&cs->row[k]);
        free(cs->mat[k].var);
        free(cs->mat[k].coeff);
        free(cs->row_ptr[k]);
        free(cs->dens_in[k].w);
        free(cs->dens_aux[k].w);
    }
    free(cs->coeff_vals);
    free(cs->coeff_slots);
    free(cs->aux_is_bit.w);
    free(cs->in_val);
    free(cs->aux_val);
    free(cs->aux_bits.w);
    memset(cs, 0, sizeof *cs);
}

void cs_fail(cuzk_cs *cs, cuzk_status code, const char *fmt, ...)
{
    if (cs->status != CUZK_OK)
        return;
    cs->status = code;
    cs->err.code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cs->err.msg, sizeof cs->err.msg, fmt, ap);
    va_end(ap);
}

/* Grows *p (elements of size elem, capacity *cap) to hold need; false on failure. */
static bool grow(cuzk_cs *cs, void **p, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    uint64_t n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    if (n > SIZE_MAX / elem) {
        cs_fail(cs, CUZK_ERR_NOMEM, "circuit: out of memory");
        return false;
    }
    void *q = realloc(*p, (size_t)n * elem);
    if (!q) {
        cs_fail(cs, CUZK_ERR_NOMEM, "circuit: out of memory");
        return false;
    }
    *p = q;
    *cap = n;
    return true;
}

static void bits_set(cuzk_cs *cs, cs_bits *b, uint64_t i, bool v)
{
    uint64_t w = i >> 6;
    if (w >= b->cap) {
        uint64_t old = b->cap, cap = b->cap;
        if (!grow(cs, (void **)&b->w, &cap, w + 1, sizeof *b->w))
            return;
        memset(b->w + old, 0, (size_t)(cap - old) * sizeof *b->w);
        b->cap = (size_t)cap;
    }
    if (v)
        b->w[w] |= (uint64_t)1 << (i & 63);
}

/* 1 + inputs + aux must stay below 2^32 (cuzk_r1cs numbers variables with u32). */
static bool room_for_var(cuzk_cs *cs)
{
    if (1 + cs->n_public + cs->n_aux < UINT32_MAX)
        return true;
    cs_fail(cs, CUZK_ERR_UNSUPPORTED, "circuit: 2^32 variables or more");
    return false;
}

cs_var cs_alloc(cuzk_cs *cs, const cuzk_fr *value)
{
    uint64_t j = cs->n_aux;
    if (!room_for_var(cs))
        return CUZK_R1CS_VAR_AUX(0);
    if (cs->values && cs->status == CUZK_OK &&
        grow(cs, (void **)&cs->aux_val, &cs->aux_cap, cs->aux_len + 1, sizeof(cuzk_fr)))
        cs->aux_val[cs->aux_len++] = *value;
    cs->n_aux++;
    return CUZK_R1CS_VAR_AUX(j);
}

cs_var cs_alloc_bit_slow(cuzk_cs *cs, bool value)
{
    uint64_t j = cs->n_aux;
    if (!room_for_var(cs))
        return CUZK_R1CS_VAR_AUX(0);
    if (cs->status == CUZK_OK) {
        if (cs->backend == CS_RECORD) {
            bits_set(cs, &cs->aux_is_bit, j - cs->aux_base, true);
        } else if (cs->compact) {
            bits_set(cs, &cs->aux_bits, cs->n_bits, value);
        } else if (cs->values &&
                   grow(cs, (void **)&cs->aux_val, &cs->aux_cap, cs->aux_len + 1,
                        sizeof(cuzk_fr))) {
            cs->aux_val[cs->aux_len++] = cs_fr_bool(value);
        }
    }
    cs->n_aux++;
    cs->n_bits++;
    return CUZK_R1CS_VAR_AUX(j);
}

cs_var cs_alloc_input(cuzk_cs *cs, const cuzk_fr *value)
{
    uint64_t i = cs->n_public;
    if (!room_for_var(cs))
        return CUZK_R1CS_VAR_PUBLIC(0);
    if (cs->values && cs->status == CUZK_OK &&
        grow(cs, (void **)&cs->in_val, &cs->in_cap, i + 2, sizeof(cuzk_fr))) {
        cs->in_val[0] = cs->one;
        cs->in_val[i + 1] = *value;
    }
    cs->n_public++;
    return CUZK_R1CS_VAR_PUBLIC(i);
}

/* ---- linear combinations ---- */

void cs_lc_free(cs_lc *l)
{
    free(l->t);
    l->t = NULL;
    l->n = l->cap = 0;
}

static bool lc_reserve(cuzk_cs *cs, cs_lc *l, uint64_t need)
{
    if (need <= l->cap)
        return true;
    if (need > UINT32_MAX / 2) {
        cs_fail(cs, CUZK_ERR_UNSUPPORTED, "circuit: linear combination too long");
        return false;
    }
    uint64_t cap = l->cap;
    if (!grow(cs, (void **)&l->t, &cap, need, sizeof *l->t))
        return false;
    l->cap = (uint32_t)cap;
    return true;
}

void cs_lc_add(cuzk_cs *cs, cs_lc *l, cs_var v, const cuzk_fr *coeff)
{
    if (!lc_reserve(cs, l, (uint64_t)l->n + 1))
        return;
    l->t[l->n].var = v;
    l->t[l->n].coeff = *coeff;
    l->n++;
}

void cs_lc_add_lc(cuzk_cs *cs, cs_lc *dst, const cs_lc *src, const cuzk_fr *scale)
{
    if (!lc_reserve(cs, dst, (uint64_t)dst->n + src->n))
        return;
    for (uint32_t i = 0; i < src->n; i++) {
        dst->t[dst->n].var = src->t[i].var;
        if (scale)
            cuzk_fr_mul(&dst->t[dst->n].coeff, &src->t[i].coeff, scale);
        else
            dst->t[dst->n].coeff = src->t[i].coeff;
        dst->n++;
    }
}

void cs_lc_copy(cuzk_cs *cs, cs_lc *dst, const cs_lc *src)
{
    dst->n = 0;
    cs_lc_add_lc(cs, dst, src, NULL);
}

static int term_cmp(const void *x, const void *y)
{
    cs_var a = ((const cs_term *)x)->var, b = ((const cs_term *)y)->var;
    return (a > b) - (a < b);
}

void cs_lc_normalize(cs_lc *l)
{
    uint32_t n = l->n;
    if (n < 2) {
        if (n == 1 && cuzk_fr_is_zero(&l->t[0].coeff))
            l->n = 0;
        return;
    }
    /* Gadget terms mostly arrive in order (bits LSB first), so check before sorting. */
    bool sorted = true;
    for (uint32_t i = 1; i < n && sorted; i++)
        sorted = l->t[i - 1].var <= l->t[i].var;
    if (!sorted) {
        if (n <= 16) {
            for (uint32_t i = 1; i < n; i++) {
                cs_term x = l->t[i];
                uint32_t j = i;
                for (; j > 0 && l->t[j - 1].var > x.var; j--)
                    l->t[j] = l->t[j - 1];
                l->t[j] = x;
            }
        } else {
            qsort(l->t, n, sizeof *l->t, term_cmp);
        }
    }
    uint32_t out = 0;
    for (uint32_t i = 0; i < n;) {
        cs_term acc = l->t[i++];
        while (i < n && l->t[i].var == acc.var)
            cuzk_fr_add(&acc.coeff, &acc.coeff, &l->t[i++].coeff);
        if (!cuzk_fr_is_zero(&acc.coeff))
            l->t[out++] = acc;
    }
    l->n = out;
}

/* ---- rows ---- */

static void record_row(cuzk_cs *cs, cs_lc *m[3])
{
    uint64_t r = cs->n_rows;
    if (r + 2 > cs->row_cap) {
        uint64_t cap = cs->row_cap;
        for (int k = 0; k < 3; k++) {
            uint64_t c = cs->row_cap;
            if (!grow(cs, (void **)&cs->row_ptr[k], &c, r + 2, sizeof(uint64_t)))
                return;
            cap = c;
        }
        cs->row_cap = cap;
    }
    for (int k = 0; k < 3; k++) {
        uint64_t len = cs->mat[k].len, need = len + m[k]->n, c = cs->mat[k].cap;
        if (!grow(cs, (void **)&cs->mat[k].var, &c, need, sizeof(cs_var)))
            return;
        c = cs->mat[k].cap;
        if (!grow(cs, (void **)&cs->mat[k].coeff, &c, need, sizeof(cuzk_fr)))
            return;
        cs->mat[k].cap = c;
        for (uint32_t i = 0; i < m[k]->n; i++) {
            cs->mat[k].var[len + i] = m[k]->t[i].var;
            cs->mat[k].coeff[len + i] = m[k]->t[i].coeff;
        }
        cs->row_ptr[k][r] = len;
        cs->row_ptr[k][r + 1] = need;
        cs->mat[k].len = need;
    }
}

/* The same mix as coeff_table.c's: Montgomery values look random, but small multiples of
 * ONE and powers of two share limbs, so every limb goes in. */
static uint64_t coeff_hash(const cuzk_fr *a)
{
    uint64_t h = a->l[0] * 0x9e3779b97f4a7c15ull ^ a->l[1] * 0xc2b2ae3d27d4eb4full ^
                 a->l[2] * 0x165667b19e3779f9ull ^ a->l[3];
    return h ^ (h >> 29);
}

/* Adds v (not ONE) to the set of distinct coefficients; failures go to cs_fail. */
static void coeff_note(cuzk_cs *cs, const cuzk_fr *v)
{
    if (!cs->coeff_slots) {
        cs->coeff_mask = 255;
        if (!(cs->coeff_slots = calloc(cs->coeff_mask + 1, sizeof *cs->coeff_slots))) {
            cs_fail(cs, CUZK_ERR_NOMEM, "circuit: out of memory");
            return;
        }
    }
    uint64_t j = coeff_hash(v) & cs->coeff_mask;
    while (cs->coeff_slots[j]) {
        if (!memcmp(&cs->coeff_vals[cs->coeff_slots[j] - 1], v, sizeof *v))
            return;
        j = (j + 1) & cs->coeff_mask;
    }
    if (cs->coeff_n + 1 >= UINT32_MAX ||
        !grow(cs, (void **)&cs->coeff_vals, &cs->coeff_cap, cs->coeff_n + 1, sizeof *v))
        return;
    cs->coeff_vals[cs->coeff_n++] = *v;
    cs->coeff_slots[j] = (uint32_t)cs->coeff_n;
    if (cs->coeff_n * 2 <= cs->coeff_mask + 1)
        return;
    uint64_t cap = (cs->coeff_mask + 1) * 2;
    uint32_t *s = calloc(cap, sizeof *s);
    if (!s) {
        cs_fail(cs, CUZK_ERR_NOMEM, "circuit: out of memory");
        return;
    }
    for (uint64_t i = 0; i < cs->coeff_n; i++) {
        uint64_t k = coeff_hash(&cs->coeff_vals[i]) & (cap - 1);
        while (s[k])
            k = (k + 1) & (cap - 1);
        s[k] = (uint32_t)(i + 1);
    }
    free(cs->coeff_slots);
    cs->coeff_slots = s;
    cs->coeff_mask = cap - 1;
}

static void count_row(cuzk_cs *cs, cs_lc *m[3])
{
    for (int k = 0; k < 3; k++) {
        cs->nnz[k] += m[k]->n;
        for (uint32_t i = 0; i < m[k]->n; i++) {
            const cuzk_fr *c = &m[k]->t[i].coeff;
            if (memcmp(c, &cs->one, sizeof *c) != 0)
                coeff_note(cs, c);
            cs_var v = m[k]->t[i].var;
            uint32_t idx = (uint32_t)v;
            switch (v >> 32) {
            case 0: bits_set(cs, &cs->dens_in[k], 0, true); break;
            case 1: bits_set(cs, &cs->dens_in[k], (uint64_t)idx + 1, true); break;
            default: bits_set(cs, &cs->dens_aux[k], idx, true); break;
            }
        }
    }
}

void cs_enforce(cuzk_cs *cs, cs_lc *a, cs_lc *b, cs_lc *c)
{
    if (cs->rows && cs->status == CUZK_OK) {
        cs_lc *m[3] = {a, b, c};
        for (int k = 0; k < 3; k++)
            cs_lc_normalize(m[k]);
        if (cs->backend == CS_RECORD)
            record_row(cs, m);
        else
            count_row(cs, m);
    }
    cs->n_rows++;
}
