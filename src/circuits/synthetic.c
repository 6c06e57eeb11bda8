/*
 * synthetic.c — the synthetic PoRep-shaped circuit of cuzk/circuits.h, generated straight
 * into CSR arrays.
 *
 * Row r < R-1 (R circuit rows) defines aux variable 2 + r; its type depends on its place p
 * in its block of BLOCK rows (length L, the last block shorter):
 *   p < L/4                       bool    A: ONE - b       B: b     C: -
 *   L/4 <= p < L - dense(L)       logic   x = row p-1's output, y = a bool of the block
 *                                 p even: A: 2x  B: y  C: x + y - c   (c = x xor y)
 *                                 p odd:  A: x   B: y  C: c           (c = x and y)
 *   the last dense(L) rows        dense   A: x + 2y + k*ONE  B: ONE  C: d  (x = previous
 *                                 output, y a bool of the block, k random)
 * Blocks under 8 rows are all bools. Row R-1 binds the public input: A: last  B: ONE
 * C: public. Each block is generated from its own RNG stream (splitmix64 of seed and block
 * index), so blocks are independent: one pass counts terms per block, a prefix sum places
 * them, a second pass writes rows and witness values, both in parallel.
 * Threading: runs on the given pool; no global state.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/circuits.h"

#define BLOCK 1000u
/* Real circuits use few distinct coefficients (±1, powers of two, a few hundred round
 * constants); the dense rows draw theirs from this many random constants. */
#define N_CONSTANTS 256u
/* PoRep 32 GiB: ~130.3M rows in a 2^27 domain (cuzk.md §5). */
#define FILL_NUM 971u
#define FILL_DEN 1000u

typedef enum { T_BOOL, T_XOR, T_AND, T_DENSE, T_FINAL } row_type;

typedef struct gen {
    uint64_t R;            /* circuit rows; rows 0..R-2 each define one aux variable */
    uint64_t nblocks;
    uint64_t seed;
    uint64_t *blk_nnz[3];  /* per block, then exclusive prefix: first term of the block */
    cuzk_csr m[3];
    cuzk_fr *w;
    uint64_t *blk_bits;
    cuzk_fr two, minus_one;
    cuzk_fr k[256]; /* the circuit's constants (N_CONSTANTS of them) */
} gen;

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t block_len(const gen *g, uint64_t b)
{
    uint64_t s = b * BLOCK, left = (g->R - 1) - s;
    return left < BLOCK ? left : BLOCK;
}

static uint64_t n_bool(uint64_t L) { return L < 8 ? L : L / 4; }
static uint64_t n_dense(uint64_t L) { return L < 8 ? 0 : (13 * L + 999) / 1000; }

static row_type type_of(uint64_t p, uint64_t L)
{
    if (p < n_bool(L))
        return T_BOOL;
    if (p >= L - n_dense(L))
        return T_DENSE;
    return (p & 1) ? T_AND : T_XOR;
}

/* terms of a row type in A, B, C */
static const uint8_t k_terms[5][3] = {
    [T_BOOL] = {2, 1, 0}, [T_XOR] = {1, 1, 3}, [T_AND] = {1, 1, 1},
    [T_DENSE] = {3, 1, 1}, [T_FINAL] = {1, 1, 1},
};

static void count_block(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    gen *g = ctx;
    for (size_t b = begin; b < end; b++) {
        uint64_t L = block_len(g, b), c[3] = {0, 0, 0};
        for (uint64_t p = 0; p < L; p++)
            for (int m = 0; m < 3; m++)
                c[m] += k_terms[type_of(p, L)][m];
        for (int m = 0; m < 3; m++)
            g->blk_nnz[m][b] = c[m];
    }
}

/* A row's terms, sorted by column, written at *pos of matrix m. */
typedef struct term { uint32_t col; cuzk_fr c; } term;

static void put_row(gen *g, int m, uint64_t row, uint64_t *pos, term *t, int n)
{
    for (int i = 1; i < n; i++) /* insertion sort: at most 3 terms */
        for (int j = i; j > 0 && t[j].col < t[j - 1].col; j--) {
            term x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    cuzk_csr *c = &g->m[m];
    c->row_ptr[row] = *pos;
    for (int i = 0; i < n; i++) {
        c->col[*pos] = t[i].col;
        c->coeff[*pos] = t[i].c;
        (*pos)++;
    }
}

static void fill_block(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    gen *g = ctx;
    for (size_t b = begin; b < end; b++) {
        uint64_t L = block_len(g, b), s0 = b * BLOCK, rng = g->seed ^ (b * 0xd1b54a32d192ed03ull);
        uint64_t pos[3] = {g->blk_nnz[0][b], g->blk_nnz[1][b], g->blk_nnz[2][b]};
        uint64_t nb = n_bool(L), bits = 0;
        for (uint64_t p = 0; p < L; p++) {
            uint64_t r = s0 + p;
            uint32_t v = (uint32_t)(2 + r), x = v - 1;
            row_type ty = type_of(p, L);
            uint32_t y = 0;
            if (ty != T_BOOL) { /* a bool of this block other than x */
                y = (uint32_t)(2 + s0 + splitmix(&rng) % nb);
                if (y == x)
                    y = (uint32_t)(2 + s0 + (y - 2 - s0 + 1) % nb);
            }
            term A[3], B[1], C[3];
            int na = 0, nbt = 0, nc = 0;
            cuzk_fr *val = &g->w[v];
            switch (ty) {
            case T_BOOL:
                *val = (splitmix(&rng) & 1) ? CUZK_FR_ONE : CUZK_FR_ZERO;
                A[na++] = (term){0, CUZK_FR_ONE};
                A[na++] = (term){v, g->minus_one};
                B[nbt++] = (term){v, CUZK_FR_ONE};
                break;
            case T_XOR:
            case T_AND: {
                bool bx = cuzk_fr_is_one(&g->w[x]), by = cuzk_fr_is_one(&g->w[y]);
                bool c = ty == T_XOR ? bx != by : bx && by;
                *val = c ? CUZK_FR_ONE : CUZK_FR_ZERO;
                A[na++] = (term){x, ty == T_XOR ? g->two : CUZK_FR_ONE};
                B[nbt++] = (term){y, CUZK_FR_ONE};
                if (ty == T_XOR) {
                    C[nc++] = (term){x, CUZK_FR_ONE};
                    C[nc++] = (term){y, CUZK_FR_ONE};
                    C[nc++] = (term){v, g->minus_one};
                } else {
                    C[nc++] = (term){v, CUZK_FR_ONE};
                }
                break;
            }
            default: { /* T_DENSE: d = x + 2y + k */
                cuzk_fr k = g->k[splitmix(&rng) % N_CONSTANTS], t;
                cuzk_fr_dbl(&t, &g->w[y]);
                cuzk_fr_add(&t, &t, &g->w[x]);
                cuzk_fr_add(val, &t, &k);
                A[na++] = (term){0, k};
                A[na++] = (term){x, CUZK_FR_ONE};
                A[na++] = (term){y, g->two};
                B[nbt++] = (term){0, CUZK_FR_ONE};
                C[nc++] = (term){v, CUZK_FR_ONE};
                break;
            }
            }
            if (ty != T_DENSE)
                bits++;
            put_row(g, 0, r, &pos[0], A, na);
            put_row(g, 1, r, &pos[1], B, nbt);
            put_row(g, 2, r, &pos[2], C, nc);
        }
        g->blk_bits[b] = bits;
    }
}

void cuzk_synthetic_free(cuzk_synthetic *s)
{
    if (!s)
        return;
    cuzk_r1cs_destroy(s->r1cs);
    free(s->witness);
    cuzk_witness_map_free(&s->map);
    free(s->bit_values);
    free(s->dense);
    memset(s, 0, sizeof *s);
}

cuzk_witness cuzk_synthetic_compact(const cuzk_synthetic *s)
{
    return cuzk_witness_compact(&s->map, s->bit_values, s->dense);
}

typedef struct mark_ctx {
    const gen *g;
    uint64_t *is_bit;
} mark_ctx;

/* is_bit for the variables of blocks [begin, end): every non-dense row's variable. A
 * block's variables may share a word with its neighbours', so words are OR-ed atomically. */
static void mark_bits(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    mark_ctx *x = vctx;
    for (size_t b = begin; b < end; b++) {
        uint64_t L = block_len(x->g, b);
        for (uint64_t p = 0; p < L; p++)
            if (type_of(p, L) != T_DENSE) {
                uint64_t v = 2 + b * BLOCK + p;
                __atomic_fetch_or(&x->is_bit[v >> 6], (uint64_t)1 << (v & 63),
                                  __ATOMIC_RELAXED);
            }
    }
}

/* The compact form of the witness: map from the row types, then the split. */
static cuzk_status make_compact(cuzk_synthetic *out, const gen *g, cuzk_pool *pool,
                                cuzk_error *err)
{
    uint32_t n_vars = out->r1cs->n_vars;
    size_t words = ((size_t)n_vars + 63) / 64;
    uint64_t *is_bit = calloc(words ? words : 1, sizeof *is_bit);
    if (!is_bit)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "synthetic: out of memory");
    mark_ctx x = {g, is_bit};
    cuzk_status st = cuzk_pool_for(pool, g->nblocks, mark_bits, &x, 16);
    if (st == CUZK_OK)
        st = cuzk_witness_map_init(&out->map, is_bit, n_vars, err);
    free(is_bit);
    if (st != CUZK_OK)
        return st;
    out->bit_values = malloc(((size_t)out->map.n_bits + 63) / 64 * 8 + 8);
    out->dense = malloc(((size_t)n_vars - out->map.n_bits) * sizeof(cuzk_fr));
    if (!out->bit_values || !out->dense)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "synthetic: out of memory");
    return cuzk_witness_compress(out->bit_values, out->dense, &out->map, out->witness, err);
}

cuzk_status cuzk_synthetic_porep(cuzk_synthetic *out, unsigned log2n, uint64_t seed,
                                 cuzk_pool *pool, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "synthetic: out is NULL");
    memset(out, 0, sizeof *out);
    if (log2n < 2 || log2n > 28)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "synthetic: domain 2^%u outside 2^2..2^28", log2n);
    gen g;
    memset(&g, 0, sizeof g);
    uint64_t n = (uint64_t)1 << log2n;
    /* rows + 2 appended input rows must exceed n/2 and fit in n */
    g.R = n * FILL_NUM / FILL_DEN - 2;
    if (g.R < 2 || g.R + 2 <= n / 2)
        g.R = n - 2;
    g.nblocks = (g.R - 1 + BLOCK - 1) / BLOCK;
    g.seed = seed;
    cuzk_fr_from_u64(&g.two, 2);
    cuzk_fr_neg(&g.minus_one, &CUZK_FR_ONE);
    for (unsigned i = 0; i < N_CONSTANTS; i++) {
        uint64_t s = seed ^ 0xc0ffee, z;
        uint8_t wide[64];
        for (int j = 0; j < 8; j++) {
            s += i * 0x2545f4914f6cdd1dull;
            z = splitmix(&s);
            memcpy(wide + 8 * j, &z, 8);
        }
        cuzk_fr_from_bytes_wide_le(&g.k[i], wide);
        if (cuzk_fr_is_zero(&g.k[i]))
            g.k[i] = CUZK_FR_ONE;
    }
    uint32_t n_aux = (uint32_t)(g.R - 1);
    size_t n_vars = 2 + (size_t)n_aux;
    cuzk_status st = CUZK_OK;
    for (int m = 0; m < 3; m++)
        g.blk_nnz[m] = malloc((g.nblocks + 1) * sizeof(uint64_t));
    g.blk_bits = calloc(g.nblocks + 1, sizeof(uint64_t));
    g.w = malloc(n_vars * sizeof(cuzk_fr));
    if (!g.blk_nnz[0] || !g.blk_nnz[1] || !g.blk_nnz[2] || !g.blk_bits || !g.w) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "synthetic: out of memory");
        goto fail;
    }
    if ((st = cuzk_pool_for(pool, g.nblocks, count_block, &g, 16)) != CUZK_OK)
        goto fail;
    for (int m = 0; m < 3; m++) { /* exclusive prefix; the final row goes last */
        uint64_t acc = 0;
        for (uint64_t b = 0; b < g.nblocks; b++) {
            uint64_t c = g.blk_nnz[m][b];
            g.blk_nnz[m][b] = acc;
            acc += c;
        }
        g.blk_nnz[m][g.nblocks] = acc;
        g.m[m].nnz = acc + k_terms[T_FINAL][m];
        g.m[m].row_ptr = malloc((g.R + 1) * sizeof(uint64_t));
        g.m[m].col = malloc((g.m[m].nnz ? g.m[m].nnz : 1) * sizeof(uint32_t));
        g.m[m].coeff = malloc((g.m[m].nnz ? g.m[m].nnz : 1) * sizeof(cuzk_fr));
        if (!g.m[m].row_ptr || !g.m[m].col || !g.m[m].coeff) {
            st = cuzk_error_set(err, CUZK_ERR_NOMEM,
                                "synthetic: out of memory for %llu terms",
                                (unsigned long long)g.m[m].nnz);
            goto fail;
        }
    }
    g.w[0] = CUZK_FR_ONE;
    if ((st = cuzk_pool_for(pool, g.nblocks, fill_block, &g, 16)) != CUZK_OK)
        goto fail;
    {
        /* the final row: last * ONE = public */
        uint32_t last = (uint32_t)(n_vars - 1);
        g.w[1] = g.w[last];
        term A[1] = {{last, CUZK_FR_ONE}}, B[1] = {{0, CUZK_FR_ONE}}, C[1] = {{1, CUZK_FR_ONE}};
        uint64_t pos[3] = {g.blk_nnz[0][g.nblocks], g.blk_nnz[1][g.nblocks],
                           g.blk_nnz[2][g.nblocks]};
        put_row(&g, 0, g.R - 1, &pos[0], A, 1);
        put_row(&g, 1, g.R - 1, &pos[1], B, 1);
        put_row(&g, 2, g.R - 1, &pos[2], C, 1);
        for (int m = 0; m < 3; m++)
            g.m[m].row_ptr[g.R] = g.m[m].nnz;
    }
    for (uint64_t b = 0; b < g.nblocks; b++)
        out->bits += g.blk_bits[b];
    if ((st = cuzk_r1cs_from_csr(&out->r1cs, g.R, 1, n_aux, g.m, pool, err)) != CUZK_OK)
        goto fail;
    out->witness = g.w;
    g.w = NULL;
    st = make_compact(out, &g, pool, err);
fail:
    for (int m = 0; m < 3; m++) {
        free(g.blk_nnz[m]);
        free(g.m[m].row_ptr); /* NULL after a successful adoption */
        free(g.m[m].col);
        free(g.m[m].coeff);
    }
    free(g.blk_bits);
    free(g.w);
    if (st != CUZK_OK)
        cuzk_synthetic_free(out);
    return st;
}
