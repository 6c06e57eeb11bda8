/*
 * witness_compact.c — the compact witness (cuzk/r1cs.h): the per-circuit map of which
 * variables are bits (with a per-word rank so any variable's position is one popcount
 * away), the compact view, and conversion both ways.
 * Threading: maps are immutable after init; expand runs on the given pool.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/r1cs.h"

static size_t words_of(uint32_t n_vars) { return ((size_t)n_vars + 63) / 64; }

cuzk_status cuzk_witness_map_init(cuzk_witness_map *m, const uint64_t *is_bit,
                                  uint32_t n_vars, cuzk_error *err)
{
    if (!m || (!is_bit && n_vars))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "witness map: NULL argument");
    memset(m, 0, sizeof *m);
    size_t nw = words_of(n_vars);
    if (nw && ((is_bit[0] & 1) ||
               ((n_vars & 63) && (is_bit[nw - 1] >> (n_vars & 63)) != 0)))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "witness map: ONE or a variable >= %u is marked as a bit", n_vars);
    m->is_bit = malloc((nw ? nw : 1) * sizeof *m->is_bit);
    m->rank = malloc((nw ? nw : 1) * sizeof *m->rank);
    if (!m->is_bit || !m->rank) {
        cuzk_witness_map_free(m);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "witness map: out of memory");
    }
    uint32_t acc = 0;
    for (size_t i = 0; i < nw; i++) {
        m->is_bit[i] = is_bit[i];
        m->rank[i] = acc;
        acc += (uint32_t)__builtin_popcountll(is_bit[i]);
    }
    m->n_vars = n_vars;
    m->n_bits = acc;
    return CUZK_OK;
}

void cuzk_witness_map_free(cuzk_witness_map *m)
{
    if (!m)
        return;
    free(m->is_bit);
    free(m->rank);
    memset(m, 0, sizeof *m);
}

uint32_t cuzk_witness_map_bits_before(const cuzk_witness_map *m, uint32_t v)
{
    if (v >= m->n_vars)
        return m->n_bits;
    uint64_t below = (v & 63) ? m->is_bit[v >> 6] & (~(uint64_t)0 >> (64 - (v & 63))) : 0;
    return m->rank[v >> 6] + (uint32_t)__builtin_popcountll(below);
}

cuzk_witness cuzk_witness_compact(const cuzk_witness_map *map, const uint64_t *bits,
                                  const cuzk_fr *dense)
{
    cuzk_witness w;
    memset(&w, 0, sizeof w);
    w.kind = CUZK_WITNESS_COMPACT;
    w.n_vars = map ? map->n_vars : 0;
    w.map = map;
    w.bits = bits;
    w.dense = dense;
    return w;
}

typedef struct expand_ctx {
    cuzk_fr *out;
    const cuzk_witness *w;
} expand_ctx;

/* One task = 64 variables (one map word). */
static void expand_words(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    expand_ctx *x = vctx;
    const cuzk_witness_map *m = x->w->map;
    for (size_t i = begin; i < end; i++) {
        uint32_t v0 = (uint32_t)(i * 64);
        uint32_t k = m->rank[i];           /* bits before this word */
        uint32_t d = v0 - k;               /* dense values before this word */
        uint32_t vend = v0 + 64 < m->n_vars ? v0 + 64 : m->n_vars;
        uint64_t wbits = m->is_bit[i];
        for (uint32_t v = v0; v < vend; v++) {
            if ((wbits >> (v & 63)) & 1) {
                x->out[v] = (x->w->bits[k >> 6] >> (k & 63)) & 1 ? CUZK_FR_ONE : CUZK_FR_ZERO;
                k++;
            } else {
                x->out[v] = x->w->dense[d++];
            }
        }
    }
}

cuzk_status cuzk_witness_expand(cuzk_fr *out, const cuzk_witness *w, cuzk_pool *pool)
{
    if (!out || !w)
        return CUZK_ERR_INVALID_ARG;
    if (w->kind == CUZK_WITNESS_DENSE) {
        if (!w->values)
            return CUZK_ERR_INVALID_ARG;
        memcpy(out, w->values, (size_t)w->n_vars * sizeof *out);
        return CUZK_OK;
    }
    if (w->kind != CUZK_WITNESS_COMPACT || !w->map || !w->dense ||
        (w->map->n_bits && !w->bits) || w->n_vars != w->map->n_vars)
        return CUZK_ERR_INVALID_ARG;
    expand_ctx x = {out, w};
    return cuzk_pool_for(pool, words_of(w->n_vars), expand_words, &x, 1024);
}

cuzk_status cuzk_witness_compress(uint64_t *bits_out, cuzk_fr *dense_out,
                                  const cuzk_witness_map *map, const cuzk_fr *values,
                                  cuzk_error *err)
{
    if (!map || !values || !dense_out || (map->n_bits && !bits_out))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "witness compress: NULL argument");
    memset(bits_out, 0, ((size_t)map->n_bits + 63) / 64 * sizeof *bits_out);
    uint32_t k = 0, d = 0;
    for (uint32_t v = 0; v < map->n_vars; v++) {
        if ((map->is_bit[v >> 6] >> (v & 63)) & 1) {
            if (cuzk_fr_is_one(&values[v]))
                bits_out[k >> 6] |= (uint64_t)1 << (k & 63);
            else if (!cuzk_fr_is_zero(&values[v]))
                return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                      "witness compress: variable %u is marked as a bit but "
                                      "is neither 0 nor 1", v);
            k++;
        } else {
            dense_out[d++] = values[v];
        }
    }
    return CUZK_OK;
}
