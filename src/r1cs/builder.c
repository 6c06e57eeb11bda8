/*
 * builder.c — the constraint recorder: appends rows of (matrix, var, coeff) terms and
 * freezes them into the CSR cuzk_r1cs (see cuzk/r1cs.h for the model).
 *
 * Recording keeps, per matrix, a growable term list (tagged var, coeff) and the start of
 * every row. Vars stay tagged by kind until finish because the number of public inputs,
 * which fixes every aux index, is only final then. finish rewrites each matrix in place
 * (tag -> column, sort, merge duplicates, drop zeros), so the coefficient array recorded
 * becomes the CSR's array and the peak is the recording plus one u32 column array.
 *
 * Threading: a builder belongs to one thread at a time; no shared state.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/r1cs.h"
#include "r1cs/r1cs_internal.h"

typedef struct term_list {
    uint64_t *vars;      /* tagged cuzk_r1cs_var while recording, column after mapping */
    cuzk_fr *coeffs;
    uint64_t len, cap;
    uint64_t *row_start; /* row_start[i] = first term of row i; room for rows + 1 */
} term_list;

struct cuzk_r1cs_builder {
    uint64_t rows, row_cap;
    uint32_t n_public, n_aux;
    term_list t[CUZK_R1CS_MATRICES];
};

/* Next capacity >= need by doubling, or 0 if it would not fit size_t for elem-byte items. */
static uint64_t next_cap(uint64_t cap, uint64_t need, size_t elem)
{
    uint64_t n = cap ? cap : 16;
    while (n < need) {
        if (n > UINT64_MAX / 2)
            return 0;
        n *= 2;
    }
    return n > SIZE_MAX / elem ? 0 : n;
}

/* realloc to n elements (n * elem fits size_t: next_cap checked it); NULL on failure, in
 * which case p is still valid and owned by the caller. */
static void *resize(void *p, uint64_t n, size_t elem) { return realloc(p, (size_t)(n * elem)); }

cuzk_status cuzk_r1cs_builder_create(cuzk_r1cs_builder **out, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "r1cs builder: out is NULL");
    *out = NULL;
    cuzk_r1cs_builder *b = calloc(1, sizeof *b);
    if (!b)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "r1cs builder: out of memory");
    *out = b;
    return CUZK_OK;
}

static void term_list_free(term_list *t)
{
    free(t->vars);
    free(t->coeffs);
    free(t->row_start);
    memset(t, 0, sizeof *t);
}

void cuzk_r1cs_builder_destroy(cuzk_r1cs_builder *b)
{
    if (!b)
        return;
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
        term_list_free(&b->t[m]);
    free(b);
}

/* 1 + public + aux is the column count and must fit the u32 column type. */
static cuzk_status alloc_vars(cuzk_r1cs_builder *b, uint32_t *kind_count, uint32_t count,
                              cuzk_r1cs_var tag, cuzk_r1cs_var *first, cuzk_error *err)
{
    if (!b)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "r1cs builder: NULL builder");
    uint64_t total = 1u + (uint64_t)b->n_public + b->n_aux + count;
    if (total > UINT32_MAX)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "r1cs builder: %llu variables exceed the 2^32-1 limit",
                              (unsigned long long)total);
    if (first)
        *first = tag | *kind_count;
    *kind_count += count;
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_builder_alloc_public(cuzk_r1cs_builder *b, uint32_t count,
                                           cuzk_r1cs_var *first, cuzk_error *err)
{
    return alloc_vars(b, b ? &b->n_public : NULL, count, CUZK_R1CS_VAR_PUBLIC(0), first, err);
}

cuzk_status cuzk_r1cs_builder_alloc_aux(cuzk_r1cs_builder *b, uint32_t count,
                                        cuzk_r1cs_var *first, cuzk_error *err)
{
    return alloc_vars(b, b ? &b->n_aux : NULL, count, CUZK_R1CS_VAR_AUX(0), first, err);
}

cuzk_status cuzk_r1cs_builder_begin_row(cuzk_r1cs_builder *b, cuzk_error *err)
{
    if (!b)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "r1cs builder: NULL builder");
    /* +2: this row's start and, at finish, the end sentinel. */
    if (b->rows + 2 > b->row_cap) {
        uint64_t n = next_cap(b->row_cap, b->rows + 2, sizeof(uint64_t));
        for (int m = 0; m < CUZK_R1CS_MATRICES; m++) {
            uint64_t *q = n ? resize(b->t[m].row_start, n, sizeof *q) : NULL;
            if (!q)
                return cuzk_error_set(err, CUZK_ERR_NOMEM,
                                      "r1cs builder: out of memory at row %llu",
                                      (unsigned long long)b->rows);
            b->t[m].row_start = q;
        }
        b->row_cap = n;
    }
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
        b->t[m].row_start[b->rows] = b->t[m].len;
    b->rows++;
    return CUZK_OK;
}

uint64_t cuzk_r1cs_builder_rows(const cuzk_r1cs_builder *b) { return b ? b->rows : 0; }

static bool var_valid(const cuzk_r1cs_builder *b, cuzk_r1cs_var v)
{
    uint64_t kind = v >> 32, idx = v & 0xffffffffu;
    switch (kind) {
    case 0: return idx == 0;
    case 1: return idx < b->n_public;
    case 2: return idx < b->n_aux;
    default: return false;
    }
}

cuzk_status cuzk_r1cs_builder_add_term(cuzk_r1cs_builder *b, cuzk_r1cs_matrix m,
                                       cuzk_r1cs_var var, const cuzk_fr *coeff,
                                       cuzk_error *err)
{
    if (!b || !coeff || (unsigned)m >= CUZK_R1CS_MATRICES)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "r1cs builder: bad add_term argument");
    if (b->rows == 0)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "r1cs builder: add_term before the first begin_row");
    if (!var_valid(b, var))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "r1cs builder: variable 0x%llx (kind %llu, index %llu) was not "
                              "allocated (public %u, aux %u)",
                              (unsigned long long)var, (unsigned long long)(var >> 32),
                              (unsigned long long)(var & 0xffffffffu), b->n_public, b->n_aux);
#ifdef CUZK_VERIFY
    /* Unreduced limbs would make every later comparison (zero tests, merging) wrong. */
    bool below = false;
    for (int i = CUZK_FR_LIMBS; i-- > 0;)
        if (coeff->l[i] != CUZK_FR_MODULUS[i]) {
            below = coeff->l[i] < CUZK_FR_MODULUS[i];
            break;
        }
    if (!below)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "r1cs builder: coefficient is not reduced below r");
#endif
    term_list *t = &b->t[m];
    if (t->len == t->cap) {
        uint64_t n = next_cap(t->cap, t->len + 1, sizeof(cuzk_fr));
        uint64_t *v = n ? resize(t->vars, n, sizeof *v) : NULL;
        if (v)
            t->vars = v;
        cuzk_fr *c = v ? resize(t->coeffs, n, sizeof *c) : NULL;
        if (!c)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "r1cs builder: out of memory at row %llu",
                                  (unsigned long long)(b->rows - 1));
        t->coeffs = c;
        t->cap = n;
    }
    t->vars[t->len] = var;
    t->coeffs[t->len] = *coeff;
    t->len++;
    return CUZK_OK;
}

/* ---- finish -------------------------------------------------------------------------- */

static void swap_terms(uint64_t *v, cuzk_fr *c, uint64_t i, uint64_t j)
{
    uint64_t tv = v[i];
    v[i] = v[j];
    v[j] = tv;
    cuzk_fr tc = c[i];
    c[i] = c[j];
    c[j] = tc;
}

static void sift_down(uint64_t *v, cuzk_fr *c, uint64_t root, uint64_t n)
{
    for (;;) {
        uint64_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && v[child + 1] > v[child])
            child++;
        if (v[root] >= v[child])
            return;
        swap_terms(v, c, root, child);
        root = child;
    }
}

/* Sorts the parallel arrays by v. Rows are usually a handful of terms (insertion sort),
 * but packing gadgets produce rows with hundreds, so long rows use heapsort to stay
 * O(n log n) without extra memory. */
static void sort_row(uint64_t *v, cuzk_fr *c, uint64_t n)
{
    if (n <= 16) {
        for (uint64_t i = 1; i < n; i++)
            for (uint64_t j = i; j > 0 && v[j - 1] > v[j]; j--)
                swap_terms(v, c, j - 1, j);
        return;
    }
    for (uint64_t i = n / 2; i-- > 0;)
        sift_down(v, c, i, n);
    for (uint64_t end = n - 1; end > 0; end--) {
        swap_terms(v, c, 0, end);
        sift_down(v, c, 0, end);
    }
}

/* In place: tags -> columns, sort and merge each row, drop zeros; then moves the result
 * into csr (taking ownership of the builder's arrays). */
static cuzk_status freeze_matrix(term_list *t, uint64_t rows, uint32_t n_public, cuzk_csr *csr,
                                 cuzk_error *err)
{
    for (uint64_t k = 0; k < t->len; k++) {
        uint64_t kind = t->vars[k] >> 32, idx = t->vars[k] & 0xffffffffu;
        t->vars[k] = kind == 0 ? 0 : kind == 1 ? 1 + idx : 1 + (uint64_t)n_public + idx;
    }
    uint64_t w = 0;
    for (uint64_t i = 0; i < rows; i++) {
        uint64_t s = t->row_start[i], e = i + 1 < rows ? t->row_start[i + 1] : t->len;
        t->row_start[i] = w;
        if (e > s) /* an empty matrix has NULL arrays: no pointer arithmetic on them */
            sort_row(t->vars + s, t->coeffs + s, e - s);
        for (uint64_t k = s; k < e;) {
            uint64_t col = t->vars[k];
            cuzk_fr acc = t->coeffs[k];
            for (k++; k < e && t->vars[k] == col; k++)
                cuzk_fr_add(&acc, &acc, &t->coeffs[k]);
            if (!cuzk_fr_is_zero(&acc)) {
                t->vars[w] = col;
                t->coeffs[w] = acc;
                w++;
            }
        }
    }
    if (rows == 0 && !t->row_start) {
        t->row_start = malloc(sizeof(uint64_t));
        if (!t->row_start)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "r1cs builder: out of memory");
    }
    t->row_start[rows] = w;

    uint32_t *col = malloc((size_t)(w ? w : 1) * sizeof *col);
    if (!col)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "r1cs builder: out of memory (%llu terms)",
                              (unsigned long long)w);
    for (uint64_t k = 0; k < w; k++)
        col[k] = (uint32_t)t->vars[k];
    if (!t->coeffs) {
        t->coeffs = malloc(sizeof *t->coeffs);
        if (!t->coeffs) {
            free(col);
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "r1cs builder: out of memory");
        }
    } else if (w < t->len) {
        cuzk_fr *shrunk = realloc(t->coeffs, (size_t)(w ? w : 1) * sizeof *shrunk);
        if (shrunk) /* a failed shrink just keeps the larger block */
            t->coeffs = shrunk;
    }
    free(t->vars);
    csr->nnz = w;
    csr->row_ptr = t->row_start;
    csr->col = col;
    csr->coeff = t->coeffs;
    memset(t, 0, sizeof *t);
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_builder_finish(cuzk_r1cs_builder *b, cuzk_r1cs **out, cuzk_error *err)
{
    if (out)
        *out = NULL;
    if (!b || !out) {
        cuzk_r1cs_builder_destroy(b);
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "r1cs builder: NULL argument");
    }
    cuzk_r1cs *r = calloc(1, sizeof *r);
    if (!r) {
        cuzk_r1cs_builder_destroy(b);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "r1cs builder: out of memory");
    }
    r->n_constraints = b->rows;
    r->n_public = b->n_public;
    r->n_aux = b->n_aux;
    r->n_vars = 1 + b->n_public + b->n_aux;
    cuzk_status st = CUZK_OK;
    for (int m = 0; m < CUZK_R1CS_MATRICES && st == CUZK_OK; m++)
        st = freeze_matrix(&b->t[m], b->rows, b->n_public, &r->m[m], err);
    cuzk_r1cs_builder_destroy(b);
    if (st == CUZK_OK)
        st = r1cs_compute_density(r, err);
    if (st != CUZK_OK) {
        cuzk_r1cs_destroy(r);
        return st;
    }
    *out = r;
    return CUZK_OK;
}
