/*
 * bincode_walk.c — see bincode_walk.h. Used by the PoSt and SnapDeals vanilla parsers.
 *
 * Threading: pure functions on the reader.
 */
#include <string.h>

#include "cuzk/ff.h"
#include "filecoin/bincode_walk.h"

cuzk_status bw_fail(bw_reader *r, cuzk_status code, const char *what)
{
    return jw_fail(r->j, code, "(bincode) at byte %zu: %s", r->off, what);
}

cuzk_status bw_u64(bw_reader *r, uint64_t *v)
{
    if (r->n - r->off < 8)
        return bw_fail(r, CUZK_ERR_TRUNCATED, "truncated (an 8-byte integer)");
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = x << 8 | r->p[r->off + (size_t)i];
    r->off += 8;
    *v = x;
    return CUZK_OK;
}

cuzk_status bw_u32(bw_reader *r, uint32_t *v)
{
    if (r->n - r->off < 4)
        return bw_fail(r, CUZK_ERR_TRUNCATED, "truncated (a 4-byte enum variant)");
    const uint8_t *q = r->p + r->off;
    *v = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
    r->off += 4;
    return CUZK_OK;
}

cuzk_status bw_fr(bw_reader *r, uint8_t out[32])
{
    if (r->n - r->off < 32)
        return bw_fail(r, CUZK_ERR_TRUNCATED, "truncated (a 32-byte value)");
    memcpy(out, r->p + r->off, 32);
    cuzk_fr f;
    if (cuzk_fr_from_bytes_le(&f, out) != CUZK_OK)
        return bw_fail(r, CUZK_ERR_NONCANONICAL, "value is not a canonical field element (>= r)");
    r->off += 32;
    return CUZK_OK;
}

cuzk_status bw_len(bw_reader *r, uint64_t want, const char *what)
{
    uint64_t n = 0;
    cuzk_status st = bw_u64(r, &n);
    if (st)
        return st;
    if (n != want)
        return jw_fail(r->j, CUZK_ERR_LENGTH, "(bincode) at byte %zu: %s: expected %llu, got %llu",
                       r->off - 8, what, (unsigned long long)want, (unsigned long long)n);
    return CUZK_OK;
}

static cuzk_status path(bw_reader *r, uint32_t levels, uint32_t arity, cuzk_c1_merkle_proof *m,
                        size_t *sib)
{
    cuzk_status st = bw_len(r, levels, "path levels");
    for (uint32_t l = 0; !st && l < levels; l++) {
        uint64_t index = 0;
        if (m->n_levels >= CUZK_C1_MAX_LEVELS)
            return bw_fail(r, CUZK_ERR_FORMAT, "path too long");
        if ((st = bw_len(r, arity - 1, "hashes per level")))
            return st;
        for (uint32_t h = 0; h + 1 < arity && !st; h++)
            st = bw_fr(r, m->siblings[*sib + h]);
        if (st || (st = bw_u64(r, &index)))
            return st;
        if (index >= arity)
            return bw_fail(r, CUZK_ERR_FORMAT, "path index out of range for the level's arity");
        *sib += arity - 1;
        m->arity[m->n_levels] = (uint8_t)arity;
        m->index[m->n_levels] = (uint8_t)index;
        m->n_levels++;
    }
    return st;
}

cuzk_status bw_merkle(bw_reader *r, const jw_tree_shape *s, cuzk_c1_merkle_proof *m)
{
    uint32_t want = !s->sub_arity ? 0 : !s->top_arity ? 1 : 2, v = 0;
    cuzk_status st = bw_u32(r, &v);
    if (st)
        return st;
    if (v != want) {
        static const char *const names[] = {"Single", "Sub", "Top"};
        return jw_fail(r->j, CUZK_ERR_FORMAT,
                       "(bincode) at byte %zu: expected a \"%s\" proof for %s, got variant %u",
                       r->off - 4, names[want], s->name, v);
    }
    size_t n_sib = (size_t)s->base_levels * (s->base_arity - 1) +
                   (s->sub_arity ? s->sub_arity - 1 : 0) + (s->top_arity ? s->top_arity - 1 : 0);
    m->siblings = jw_arena_alloc(r->j->arena, n_sib ? n_sib * 32 : 1);
    if (!m->siblings)
        return jw_fail(r->j, CUZK_ERR_NOMEM, "out of memory");
    size_t sib = 0;
    if (want == 0) {
        if ((st = bw_fr(r, m->root)) || (st = bw_fr(r, m->leaf)))
            return st;
        return path(r, s->base_levels, s->base_arity, m, &sib);
    }
    if ((st = path(r, s->base_levels, s->base_arity, m, &sib)) ||
        (st = path(r, 1, s->sub_arity, m, &sib)) ||
        (want == 2 && (st = path(r, 1, s->top_arity, m, &sib))))
        return st;
    if ((st = bw_fr(r, m->root)) || (st = bw_fr(r, m->leaf)))
        return st;
    return CUZK_OK;
}
