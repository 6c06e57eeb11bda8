/*
 * coeff_table.c — cuzk_r1cs_coeff_table: the distinct coefficients of a constraint system
 * and, per matrix, each non-zero's index into them. Circuits use few distinct values (±1,
 * powers of two, a few hundred constants), so a 4-byte index replaces a 32-byte field
 * element per term: the device keeps its CSR matrices resident at an eighth of the size.
 *
 * An open-addressing hash table (linear probing, power-of-two size, load <= 1/2) over the
 * 32-byte values; ONE, by far the most common coefficient, is index 0 and skips the hash.
 * Threading: single-threaded over the matrices (it runs once per circuit).
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/r1cs.h"

typedef struct table {
    cuzk_fr *vals;
    uint32_t n, cap_vals;
    uint32_t *slots; /* index + 1; 0 = empty */
    size_t mask;
} table;

static uint64_t hash_fr(const cuzk_fr *a)
{
    uint64_t h = a->l[0] * 0x9e3779b97f4a7c15ull ^ a->l[1] * 0xc2b2ae3d27d4eb4full ^
                 a->l[2] * 0x165667b19e3779f9ull ^ a->l[3];
    return h ^ (h >> 29);
}

static bool grow(table *t)
{
    size_t cap = (t->mask + 1) * 2;
    uint32_t *s = calloc(cap, sizeof *s);
    if (!s)
        return false;
    for (size_t i = 0; i <= t->mask; i++)
        if (t->slots[i]) {
            size_t j = hash_fr(&t->vals[t->slots[i] - 1]) & (cap - 1);
            while (s[j])
                j = (j + 1) & (cap - 1);
            s[j] = t->slots[i];
        }
    free(t->slots);
    t->slots = s;
    t->mask = cap - 1;
    return true;
}

/* Index of v, inserting it when new; UINT32_MAX on allocation failure. */
static uint32_t lookup(table *t, const cuzk_fr *v)
{
    size_t j = hash_fr(v) & t->mask;
    while (t->slots[j]) {
        if (!memcmp(&t->vals[t->slots[j] - 1], v, sizeof *v))
            return t->slots[j] - 1;
        j = (j + 1) & t->mask;
    }
    if (t->n == UINT32_MAX - 1)
        return UINT32_MAX;
    if (t->n == t->cap_vals) {
        uint32_t c = t->cap_vals * 2;
        cuzk_fr *nv = realloc(t->vals, (size_t)c * sizeof *nv);
        if (!nv)
            return UINT32_MAX;
        t->vals = nv;
        t->cap_vals = c;
    }
    t->vals[t->n] = *v;
    t->slots[j] = ++t->n;
    if ((size_t)t->n * 2 > t->mask + 1 && !grow(t))
        return UINT32_MAX;
    return t->n - 1;
}

cuzk_status cuzk_r1cs_coeff_table(const cuzk_r1cs *r1cs, cuzk_fr **values, uint32_t *n_values,
                                  uint32_t *index[CUZK_R1CS_MATRICES], cuzk_error *err)
{
    if (!r1cs || !values || !n_values || !index)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "coeff table: NULL argument");
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
        if (r1cs->m[m].nnz && !r1cs->m[m].coeff && !(r1cs->coeff_values && r1cs->coeff_index[m]))
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                  "coeff table: matrix %d has terms but no coefficients", m);
    table t = {.cap_vals = 64, .mask = 127};
    t.vals = malloc(t.cap_vals * sizeof *t.vals);
    t.slots = calloc(t.mask + 1, sizeof *t.slots);
    uint32_t *idx[CUZK_R1CS_MATRICES] = {NULL, NULL, NULL};
    /* From r1cs's own table (a mapped cache): its index i becomes remap[i], looked up once
     * per distinct value, so the pass costs a load per term instead of a hash. */
    uint32_t *remap = NULL;
    cuzk_status st = CUZK_OK;
    if (r1cs->coeff_values) {
        remap = malloc((r1cs->n_coeff_values ? r1cs->n_coeff_values : 1) * sizeof *remap);
        if (!remap)
            goto nomem;
        memset(remap, 0xff, (size_t)r1cs->n_coeff_values * sizeof *remap);
    }
    if (!t.vals || !t.slots || lookup(&t, &CUZK_FR_ONE) != 0)
        goto nomem;
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++) {
        const cuzk_csr *c = &r1cs->m[m];
        idx[m] = malloc((c->nnz ? c->nnz : 1) * sizeof *idx[m]);
        if (!idx[m])
            goto nomem;
        if (c->coeff) {
            for (uint64_t k = 0; k < c->nnz; k++) {
                const cuzk_fr *v = &c->coeff[k];
                uint32_t i = cuzk_fr_is_one(v) ? 0 : lookup(&t, v);
                if (i == UINT32_MAX)
                    goto nomem;
                idx[m][k] = i;
            }
            continue;
        }
        const uint32_t *ci = r1cs->coeff_index[m];
        for (uint64_t k = 0; k < c->nnz; k++) {
            uint32_t j = ci[k];
            if (remap[j] == UINT32_MAX) {
                const cuzk_fr *v = &r1cs->coeff_values[j];
                if ((remap[j] = cuzk_fr_is_one(v) ? 0 : lookup(&t, v)) == UINT32_MAX)
                    goto nomem;
            }
            idx[m][k] = remap[j];
        }
    }
    free(remap);
    free(t.slots);
    *values = t.vals;
    *n_values = t.n;
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
        index[m] = idx[m];
    return CUZK_OK;
nomem:
    st = cuzk_error_set(err, CUZK_ERR_NOMEM, "coeff table: out of memory");
    free(remap);
    free(t.vals);
    free(t.slots);
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
        free(idx[m]);
    return st;
}

cuzk_status cuzk_r1cs_compact(cuzk_r1cs *r1cs, cuzk_error *err)
{
    if (!r1cs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "compact: NULL r1cs");
    if (r1cs->backing_release || r1cs->coeff_values)
        return CUZK_OK;
    cuzk_fr *vals = NULL;
    uint32_t n = 0, *idx[CUZK_R1CS_MATRICES] = {NULL, NULL, NULL};
    cuzk_status st = cuzk_r1cs_coeff_table(r1cs, &vals, &n, idx, err);
    if (st != CUZK_OK)
        return st;
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++) {
        free(r1cs->m[m].coeff);
        r1cs->m[m].coeff = NULL;
        r1cs->coeff_index[m] = idx[m];
    }
    r1cs->coeff_values = vals;
    r1cs->n_coeff_values = n;
    return CUZK_OK;
}
