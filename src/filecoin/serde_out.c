/*
 * serde_out.c — see serde_out.h. A 32-byte value's JSON is built digit by digit in a local
 * buffer and written with one fwrite: a 32 GiB WindowPoSt document in JSON form holds ~50
 * million such integers, where a printf each costs seconds. Base64 goes out 64 groups per
 * fwrite for the same reason.
 *
 * Threading: see the header.
 */
#include <errno.h>
#include <string.h>

#include "cuzk/outfiles.h"
#include "filecoin/serde_out.h"

void so_dom(FILE *f, const uint8_t d[32])
{
    char buf[32 * 4 + 2], *p = buf;
    *p++ = '[';
    for (int i = 0; i < 32; i++) {
        unsigned v = d[i];
        if (i)
            *p++ = ',';
        if (v >= 100)
            *p++ = (char)('0' + v / 100);
        if (v >= 10)
            *p++ = (char)('0' + v / 10 % 10);
        *p++ = (char)('0' + v % 10);
    }
    *p++ = ']';
    fwrite(buf, 1, (size_t)(p - buf), f);
}

void so_doms(FILE *f, const uint8_t (*d)[32], size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        so_dom(f, d[i]);
    }
    fputc(']', f);
}

/* InclusionPath {path: [PathElement {hashes, index}]} of levels [from, to); *sib walks
 * m->siblings */
static void path_json(FILE *f, const char *key, const cuzk_c1_merkle_proof *m, uint32_t from,
                      uint32_t to, size_t *sib)
{
    fprintf(f, "\"%s\":{\"path\":[", key);
    for (uint32_t l = from; l < to; l++) {
        fputs(l > from ? ",{\"hashes\":" : "{\"hashes\":", f);
        so_doms(f, (const uint8_t(*)[32])m->siblings + *sib, m->arity[l] - 1u);
        *sib += m->arity[l] - 1u;
        fprintf(f, ",\"index\":%u}", m->index[l]);
    }
    fputs("]}", f);
}

void so_merkle_json(FILE *f, const so_shape *s, const cuzk_c1_merkle_proof *m)
{
    size_t sib = 0;
    uint32_t base = s->base_levels;
    if (!s->sub) {
        fputs("{\"data\":{\"Single\":{\"root\":", f);
        so_dom(f, m->root);
        fputs(",\"leaf\":", f);
        so_dom(f, m->leaf);
        fputc(',', f);
        path_json(f, "path", m, 0, m->n_levels, &sib);
        fputs("}}}", f);
        return;
    }
    fputs(s->top ? "{\"data\":{\"Top\":{" : "{\"data\":{\"Sub\":{", f);
    path_json(f, "base_proof", m, 0, base, &sib);
    fputc(',', f);
    path_json(f, "sub_proof", m, base, base + 1, &sib);
    if (s->top) {
        fputc(',', f);
        path_json(f, "top_proof", m, base + 1, base + 2, &sib);
    }
    fputs(",\"root\":", f);
    so_dom(f, m->root);
    fputs(",\"leaf\":", f);
    so_dom(f, m->leaf);
    fputs("}}}", f);
}

/* ---- bincode in base64 ---- */

static const char k_b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void group(FILE *f, const uint8_t *g, unsigned n)
{
    uint32_t v = (uint32_t)g[0] << 16 | (n > 1 ? (uint32_t)g[1] << 8 : 0) | (n > 2 ? g[2] : 0);
    char o[4] = {k_b64[v >> 18 & 63], k_b64[v >> 12 & 63], n > 1 ? k_b64[v >> 6 & 63] : '=',
                 n > 2 ? k_b64[v & 63] : '='};
    fwrite(o, 1, 4, f);
}

void so_b64_put(so_b64 *b, const void *p, size_t n)
{
    const uint8_t *q = p;
    while (n && b->n && b->n < 3) { /* complete the pending group */
        b->pend[b->n++] = *q++;
        n--;
        if (b->n == 3) {
            group(b->f, b->pend, 3);
            b->n = 0;
        }
    }
    char out[4 * 64];
    while (n >= 3) { /* whole groups, 64 at a time */
        size_t g = n / 3 < 64 ? n / 3 : 64;
        for (size_t i = 0; i < g; i++, q += 3) {
            uint32_t v = (uint32_t)q[0] << 16 | (uint32_t)q[1] << 8 | q[2];
            out[4 * i] = k_b64[v >> 18 & 63];
            out[4 * i + 1] = k_b64[v >> 12 & 63];
            out[4 * i + 2] = k_b64[v >> 6 & 63];
            out[4 * i + 3] = k_b64[v & 63];
        }
        fwrite(out, 1, 4 * g, b->f);
        n -= 3 * g;
    }
    if (n) { /* 1 or 2 bytes left, and no group pending (the first loop emptied it) */
        memcpy(b->pend, q, n);
        b->n = (unsigned)n;
    }
}

void so_b64_end(so_b64 *b)
{
    if (b->n)
        group(b->f, b->pend, b->n);
    b->n = 0;
}

void so_b64_u64(so_b64 *b, uint64_t v)
{
    uint8_t x[8];
    for (int i = 0; i < 8; i++)
        x[i] = (uint8_t)(v >> (8 * i));
    so_b64_put(b, x, 8);
}

void so_b64_u32(so_b64 *b, uint32_t v)
{
    uint8_t x[4];
    for (int i = 0; i < 4; i++)
        x[i] = (uint8_t)(v >> (8 * i));
    so_b64_put(b, x, 4);
}

static void path_bincode(so_b64 *b, const cuzk_c1_merkle_proof *m, uint32_t from, uint32_t to,
                         size_t *sib)
{
    so_b64_u64(b, to - from);
    for (uint32_t l = from; l < to; l++) {
        so_b64_u64(b, m->arity[l] - 1u);
        so_b64_put(b, m->siblings[*sib], 32 * (m->arity[l] - 1u));
        *sib += m->arity[l] - 1u;
        so_b64_u64(b, m->index[l]);
    }
}

void so_merkle_bincode(so_b64 *b, const so_shape *s, const cuzk_c1_merkle_proof *m)
{
    size_t sib = 0;
    uint32_t base = s->base_levels;
    if (!s->sub) {
        so_b64_u32(b, 0);
        so_b64_put(b, m->root, 32);
        so_b64_put(b, m->leaf, 32);
        path_bincode(b, m, 0, m->n_levels, &sib);
        return;
    }
    so_b64_u32(b, s->top ? 2 : 1);
    path_bincode(b, m, 0, base, &sib);
    path_bincode(b, m, base, base + 1, &sib);
    if (s->top)
        path_bincode(b, m, base + 1, base + 2, &sib);
    so_b64_put(b, m->root, 32);
    so_b64_put(b, m->leaf, 32);
}

/* ---- files ---- */

cuzk_status so_write_stream(FILE *f, so_doc_fn write, const void *ctx, cuzk_error *err)
{
    write(f, ctx);
    if (fflush(f) != 0 || ferror(f))
        return cuzk_error_set(err, CUZK_ERR_IO, "write error: %s", strerror(errno));
    return CUZK_OK;
}

cuzk_status so_write_file(const char *path, so_doc_fn write, const void *ctx, cuzk_error *err)
{
    cuzk_outfiles *set = NULL;
    size_t idx = 0;
    const char *tmp = NULL;
    cuzk_status st;
    if ((st = cuzk_outfiles_create(&set, err)) || (st = cuzk_outfiles_add(set, path, &idx, err)) ||
        (st = cuzk_outfiles_temp_path(set, idx, &tmp, err))) {
        cuzk_outfiles_destroy(set);
        return st;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
        cuzk_outfiles_destroy(set);
        return st;
    }
    write(f, ctx);
    int bad = ferror(f);
    int e = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad)
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(e));
    else
        st = cuzk_outfiles_commit(set, err);
    cuzk_outfiles_destroy(set);
    return st;
}
