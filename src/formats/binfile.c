/*
 * binfile.c — the iden3 binfile container and the bounds-checked cursor (see binfile.h).
 *
 * Every read first compares the requested size with the bytes left, in 64-bit unsigned
 * arithmetic that cannot overflow (sizes are compared, never added), so any truncation or
 * oversized declaration becomes CUZK_ERR_TRUNCATED naming the offset.
 *
 * Threading: pure functions over caller memory; no global state.
 */
#include "formats/binfile.h"

#include <stdio.h>
#include <string.h>

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

cuzk_status bin_read_bytes(bin_cursor *c, uint64_t n, const uint8_t **p, const char *field,
                           cuzk_error *err)
{
    if (n > bin_left(c))
        return cuzk_error_set(err, CUZK_ERR_TRUNCATED,
                              "%s file truncated at offset %zu: %s needs %llu bytes, %zu left",
                              c->kind, c->pos, field, (unsigned long long)n, bin_left(c));
    *p = c->base + c->pos;
    c->pos += (size_t)n;
    return CUZK_OK;
}

cuzk_status bin_read_u32(bin_cursor *c, uint32_t *v, const char *field, cuzk_error *err)
{
    const uint8_t *p = NULL;
    cuzk_status st = bin_read_bytes(c, 4, &p, field, err);
    if (st == CUZK_OK)
        *v = le32(p);
    return st;
}

cuzk_status bin_read_u64(bin_cursor *c, uint64_t *v, const char *field, cuzk_error *err)
{
    const uint8_t *p = NULL;
    cuzk_status st = bin_read_bytes(c, 8, &p, field, err);
    if (st == CUZK_OK)
        *v = le64(p);
    return st;
}

/* Section table entry i starting at c->pos: reads it and skips the body. */
static cuzk_status next_section(bin_cursor *c, uint32_t i, uint32_t *id, size_t *body_pos,
                                uint64_t *size, cuzk_error *err)
{
    cuzk_status st = bin_read_u32(c, id, "section id", err);
    if (st == CUZK_OK)
        st = bin_read_u64(c, size, "section size", err);
    if (st != CUZK_OK)
        return st;
    *body_pos = c->pos;
    if (*size > bin_left(c))
        return cuzk_error_set(err, CUZK_ERR_TRUNCATED,
                              "%s file truncated: section %u (id %u) at offset %zu declares %llu "
                              "bytes, %zu left",
                              c->kind, i, *id, c->pos, (unsigned long long)*size, bin_left(c));
    c->pos += (size_t)*size;
    return CUZK_OK;
}

cuzk_status binfile_open(binfile *bf, const uint8_t *data, size_t len, const char magic[4],
                         const char *kind, cuzk_error *err)
{
    if (!bf || (!data && len))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "%s reader: NULL buffer", kind);
    memset(bf, 0, sizeof *bf);
    bin_cursor c = {data, 0, len, kind};
    const uint8_t *m = NULL;
    cuzk_status st = bin_read_bytes(&c, 4, &m, "magic", err);
    if (st != CUZK_OK)
        return st;
    /* The bytes found are not quoted: cuzkd sends these messages to clients, and a file
     * that is not of this kind may be anything (it said "72 6f 6f 74" for /etc/shadow). */
    if (memcmp(m, magic, 4) != 0)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "not a %s file: it does not start with \"%.4s\"",
                              kind, magic);
    if ((st = bin_read_u32(&c, &bf->version, "version", err)) != CUZK_OK ||
        (st = bin_read_u32(&c, &bf->n_sections, "section count", err)) != CUZK_OK)
        return st;
    /* Each entry consumes at least 12 bytes, so this loop is bounded by len / 12. */
    for (uint32_t i = 0; i < bf->n_sections; i++) {
        uint32_t id;
        size_t body;
        uint64_t size;
        if ((st = next_section(&c, i, &id, &body, &size, err)) != CUZK_OK)
            return st;
    }
    if (c.pos != len)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s file: %zu unexpected bytes after the last of %u sections, at "
                              "offset %zu",
                              kind, len - c.pos, bf->n_sections, c.pos);
    bf->data = data;
    bf->len = len;
    bf->kind = kind;
    return CUZK_OK;
}

cuzk_status binfile_section(const binfile *bf, uint32_t id, const char *name, bool required,
                            bin_cursor *body, bool *found, cuzk_error *err)
{
    bin_cursor c = {bf->data, 12, bf->len, bf->kind};
    bool have = false;
    for (uint32_t i = 0; i < bf->n_sections; i++) {
        uint32_t sid;
        size_t pos;
        uint64_t size;
        cuzk_status st = next_section(&c, i, &sid, &pos, &size, err);
        if (st != CUZK_OK)
            return st; /* binfile_open walked the same table, so this is unreachable */
        if (sid != id)
            continue;
        if (have)
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "%s file: duplicate %s section (id %u) at offsets %zu and %zu",
                                  bf->kind, name, id, body->pos - 12, pos - 12);
        have = true;
        body->base = bf->data;
        body->pos = pos;
        body->end = pos + (size_t)size;
        body->kind = bf->kind;
    }
    if (found)
        *found = have;
    if (!have && required)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s file: missing %s section (id %u) in the section table at "
                              "offset 12",
                              bf->kind, name, id);
    return CUZK_OK;
}

cuzk_status bin_check_prime(bin_cursor *c, uint32_t n8, const uint64_t *limbs, size_t nlimbs,
                            const char *name, cuzk_error *err)
{
    size_t at = c->pos;
    const uint8_t *p = NULL;
    cuzk_status st = bin_read_bytes(c, n8, &p, "field prime", err);
    if (st != CUZK_OK)
        return st;
    bool same = n8 == nlimbs * 8;
    for (size_t i = 0; same && i < n8; i++)
        same = p[i] == (uint8_t)(limbs[i / 8] >> (8 * (i % 8)));
    if (same)
        return CUZK_OK;
    /* Name the declared prime when it is a known curve's (the common mistake: a circuit
     * compiled for bn128), printed big-endian without leading zeros. Any other bytes are
     * only described: cuzkd sends these messages to clients, and file content must not
     * travel in them. */
    static const struct {
        const char *hex, *curve;
    } known[] = {
        {"30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001", "BN254 (bn128) r"},
        {"30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", "BN254 (bn128) q"},
        {"1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feff"
         "ffffffaaab", "BLS12-381 q"},
        {"73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", "BLS12-381 r"},
    };
    char hex[2 * 64 + 1];
    size_t top = n8;
    while (top > 1 && p[top - 1] == 0)
        top--;
    if (n8 != 0 && top <= 64) {
        char *h = hex;
        h += sprintf(h, "%x", p[top - 1]);
        for (size_t i = top - 1; i-- > 0;)
            h += sprintf(h, "%02x", p[i]);
        for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
            if (strcmp(hex, known[k].hex) == 0)
                return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                                      "%s file: wrong curve: field prime is 0x%s (%s) at offset "
                                      "%zu (expected %s)",
                                      c->kind, hex, known[k].curve, at, name);
    }
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                          "%s file: wrong curve: the field prime at offset %zu (%u bytes) is no "
                          "curve cuzk knows (expected %s)",
                          c->kind, at, n8, name);
}
