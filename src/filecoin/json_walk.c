/*
 * json_walk.c — the shared strict JSON walk of the Filecoin input parsers (json_walk.h),
 * factored out of the C1 output parser unchanged in behaviour: the same checks in the same
 * order, the same messages with the parser's prefix.
 *
 * Threading: a jw_ctx belongs to one parse; no global state.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ff.h"
#include "filecoin/json_walk.h"

/* ---- parse context: the JSON path of the value being read ------------------------------ */

size_t jw_push(jw_ctx *c, const char *fmt, ...)
{
    size_t old = c->plen;
    if (c->plen < sizeof c->path - 1) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(c->path + c->plen, sizeof c->path - c->plen, fmt, ap);
        va_end(ap);
        if (n > 0)
            c->plen += (size_t)n;
        if (c->plen > sizeof c->path - 1)
            c->plen = sizeof c->path - 1;
    }
    return old;
}

void jw_pop(jw_ctx *c, size_t old)
{
    c->plen = old;
    c->path[old] = '\0';
}

cuzk_status jw_fail(jw_ctx *c, cuzk_status code, const char *fmt, ...)
{
    char what[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return cuzk_error_set(c->err, code, "%s %s: %s", c->what, c->plen ? c->path : "(top)", what);
}

const char *jw_type_name(const jd_value *v)
{
    switch (jd_typeof(v)) {
    case JD_OBJECT: return "an object";
    case JD_ARRAY: return "an array";
    case JD_STRING: return "a string";
    case JD_INTEGER: return "an integer";
    case JD_REAL: return "a real number";
    case JD_TRUE: case JD_FALSE: return "a boolean";
    default: return "null";
    }
}

/* obj[key], which must exist; the path is extended by ".key" on success (caller pops). */
cuzk_status jw_field(jw_ctx *c, const jd_value *obj, const char *key, const jd_value **out,
                     size_t *old)
{
    if (!jd_is_object(obj))
        return jw_fail(c, CUZK_ERR_FORMAT, "expected an object, got %s", jw_type_name(obj));
    *out = jd_object_get(obj, key);
    if (!*out)
        return jw_fail(c, CUZK_ERR_FORMAT, "missing field \"%s\"", key);
    *old = jw_push(c, ".%s", key);
    return CUZK_OK;
}

cuzk_status jw_expect_array(jw_ctx *c, const jd_value *v, size_t want)
{
    if (!jd_is_array(v))
        return jw_fail(c, CUZK_ERR_FORMAT, "expected an array, got %s", jw_type_name(v));
    if (jd_array_size(v) != want)
        return jw_fail(c, CUZK_ERR_LENGTH, "expected %zu elements, got %zu", want,
                    jd_array_size(v));
    return CUZK_OK;
}

cuzk_status jw_get_uint(jw_ctx *c, const jd_value *v, uint64_t max, uint64_t *out)
{
    if (!jd_is_integer(v))
        return jw_fail(c, CUZK_ERR_FORMAT, "expected an integer, got %s", jw_type_name(v));
    int64_t x = jd_integer_value(v);
    if (x < 0 || (uint64_t)x > max)
        return jw_fail(c, CUZK_ERR_FORMAT, "integer %lld out of range 0..%llu", (long long)x,
                    (unsigned long long)max);
    *out = (uint64_t)x;
    return CUZK_OK;
}

/* 32 integers 0..255: raw bytes (seed, ticket), or with canonical set a domain value, the
 * LE repr of a canonical Fr. */
cuzk_status jw_get_bytes32(jw_ctx *c, const jd_value *v, uint8_t out[32], int canonical)
{
    cuzk_status st = jw_expect_array(c, v, 32);
    if (st)
        return st;
    for (size_t i = 0; i < 32; i++) {
        const jd_value *e = jd_array_get(v, i);
        /* the path is formatted only for a bad byte: ~10 M bytes in a 32 GiB C1 output */
        if (jd_is_integer(e) && jd_integer_value(e) >= 0 && jd_integer_value(e) <= 255) {
            out[i] = (uint8_t)jd_integer_value(e);
            continue;
        }
        uint64_t b = 0;
        size_t old = jw_push(c, "[%zu]", i);
        st = jw_get_uint(c, e, 255, &b);
        jw_pop(c, old);
        return st;
    }
    cuzk_fr f;
    if (canonical && cuzk_fr_from_bytes_le(&f, out) != CUZK_OK)
        return jw_fail(c, CUZK_ERR_NONCANONICAL, "value is not a canonical field element (>= r)");
    return CUZK_OK;
}

static cuzk_status jw_get_domain(jw_ctx *c, const jd_value *v, uint8_t out[32])
{
    return jw_get_bytes32(c, v, out, 1);
}

cuzk_status jw_get_bytes_field(jw_ctx *c, const jd_value *obj, const char *key, uint8_t out[32],
                               int canonical)
{
    const jd_value *v = NULL;
    size_t old = 0;
    cuzk_status st = jw_field(c, obj, key, &v, &old);
    if (st)
        return st;
    st = jw_get_bytes32(c, v, out, canonical);
    jw_pop(c, old);
    return st;
}

cuzk_status jw_get_uint_field(jw_ctx *c, const jd_value *obj, const char *key, uint64_t max,
                              uint64_t *out)
{
    const jd_value *v = NULL;
    size_t old = 0;
    cuzk_status st = jw_field(c, obj, key, &v, &old);
    if (st)
        return st;
    st = jw_get_uint(c, v, max, out);
    jw_pop(c, old);
    return st;
}

/* An array of `want` domain values into a fresh arena array. */
cuzk_status jw_get_domains(jw_ctx *c, const jd_value *v, size_t want, uint8_t (**out)[32])
{
    cuzk_status st = jw_expect_array(c, v, want);
    if (st)
        return st;
    *out = jw_arena_alloc(c->arena, want * 32);
    if (!*out)
        return jw_fail(c, CUZK_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < want; i++) {
        size_t old = jw_push(c, "[%zu]", i);
        st = jw_get_domain(c, jd_array_get(v, i), (*out)[i]);
        jw_pop(c, old);
        if (st)
            return st;
    }
    return CUZK_OK;
}

/* ---- Merkle proofs ---------------------------------------------------------------------- */

/* InclusionPath {path: [PathElement{hashes, index}]} of `levels` levels of `arity`,
 * appended to m at level m->n_levels, siblings at *sib. */
static cuzk_status get_inclusion_path(jw_ctx *c, const jd_value *obj, const char *key,
                                      uint32_t levels, uint32_t arity,
                                      cuzk_c1_merkle_proof *m, size_t *sib)
{
    const jd_value *ip = NULL, *path = NULL;
    size_t o1 = 0, o2 = 0;
    cuzk_status st = jw_field(c, obj, key, &ip, &o1);
    if (st)
        return st;
    if ((st = jw_field(c, ip, "path", &path, &o2)) || (st = jw_expect_array(c, path, levels)))
        return st;
    for (uint32_t l = 0; l < levels; l++) {
        const jd_value *el = jd_array_get(path, l);
        size_t o3 = jw_push(c, "[%u]", l), o4 = 0;
        uint64_t index = 0;
        const jd_value *hashes = NULL;
        if ((st = jw_get_uint_field(c, el, "index", arity - 1, &index)))
            return st;
        if ((st = jw_field(c, el, "hashes", &hashes, &o4)) ||
            (st = jw_expect_array(c, hashes, arity - 1)))
            return st;
        for (uint32_t h = 0; h < arity - 1; h++) {
            size_t o5 = jw_push(c, "[%u]", h);
            st = jw_get_domain(c, jd_array_get(hashes, h), m->siblings[*sib + h]);
            jw_pop(c, o5);
            if (st)
                return st;
        }
        *sib += arity - 1;
        m->arity[m->n_levels] = (uint8_t)arity;
        m->index[m->n_levels] = (uint8_t)index;
        m->n_levels++;
        jw_pop(c, o4);
        jw_pop(c, o3);
    }
    jw_pop(c, o2);
    jw_pop(c, o1);
    return CUZK_OK;
}

cuzk_status jw_get_merkle(jw_ctx *c, const jd_value *obj, const char *key, const jw_tree_shape *s,
                          cuzk_c1_merkle_proof *m)
{
    const char *want = !s->sub_arity ? "Single" : !s->top_arity ? "Sub" : "Top";
    const jd_value *mp = (const jd_value *)obj, *data = NULL, *body = NULL;
    size_t o1 = c->plen, o2 = 0, o3 = 0;
    cuzk_status st = key ? jw_field(c, obj, key, &mp, &o1) : CUZK_OK;
    if (st || (st = jw_field(c, mp, "data", &data, &o2)))
        return st;
    if (!jd_is_object(data))
        return jw_fail(c, CUZK_ERR_FORMAT, "expected an object, got %s", jw_type_name(data));
    if (jd_object_size(data) != 1 || !jd_object_get(data, want)) {
        const char *got = jd_object_size(data) ? jd_object_key_at(data, 0)
                                                 : "nothing";
        return jw_fail(c, CUZK_ERR_FORMAT, "expected one \"%s\" proof for %s, got \"%.32s\"%s",
                       want, s->name, got, jd_object_size(data) > 1 ? " and more" : "");
    }
    if ((st = jw_field(c, data, want, &body, &o3)))
        return st;
    if (s->base_levels + (s->sub_arity ? 1u : 0u) + (s->top_arity ? 1u : 0u) > CUZK_C1_MAX_LEVELS)
        return jw_fail(c, CUZK_ERR_INTERNAL, "tree of too many levels");
    size_t n_sib = (size_t)s->base_levels * (s->base_arity - 1);
    if (s->sub_arity)
        n_sib += s->sub_arity - 1;
    if (s->top_arity)
        n_sib += s->top_arity - 1;
    m->siblings = jw_arena_alloc(c->arena, n_sib * 32);
    if (!m->siblings)
        return jw_fail(c, CUZK_ERR_NOMEM, "out of memory");
    m->n_levels = 0;
    size_t sib = 0;
    if ((st = jw_get_bytes_field(c, body, "root", m->root, 1)) ||
        (st = jw_get_bytes_field(c, body, "leaf", m->leaf, 1)))
        return st;
    if (!s->sub_arity) {
        st = get_inclusion_path(c, body, "path", s->base_levels, s->base_arity, m, &sib);
    } else {
        st = get_inclusion_path(c, body, "base_proof", s->base_levels, s->base_arity, m, &sib);
        if (!st)
            st = get_inclusion_path(c, body, "sub_proof", 1, s->sub_arity, m, &sib);
        if (!st && s->top_arity)
            st = get_inclusion_path(c, body, "top_proof", 1, s->top_arity, m, &sib);
    }
    if (st)
        return st;
    jw_pop(c, o3);
    jw_pop(c, o2);
    jw_pop(c, o1);
    return CUZK_OK;
}

/* ---- documents ----------------------------------------------------------------------- */

cuzk_status jw_parse_text(jw_ctx *c, const char *text, size_t len, jw_doc_fn parse, void *arg)
{
    jd_error jerr;
    jd_doc *doc = jd_parse(text, len, &jerr);
    if (!doc)
        return jw_fail(c, CUZK_ERR_FORMAT, "JSON error at line %d column %d: %.60s", jerr.line,
                       jerr.column, jerr.text);
    cuzk_status st = parse(c, jd_root(doc), arg);
    jd_free(doc);
    return st;
}

cuzk_status jw_get_registered_proof(jw_ctx *c, const jd_value *root, const char *kind,
                                    jw_proof_lookup_fn lookup, void *info)
{
    const jd_value *v = NULL;
    size_t old = 0;
    cuzk_status st = jw_field(c, root, "registered_proof", &v, &old);
    if (st)
        return st;
    if (jd_is_string(v))
        st = lookup(jd_string_value(v), 0, info);
    else if (jd_is_integer(v) && jd_integer_value(v) >= 0)
        st = lookup(NULL, (uint64_t)jd_integer_value(v), info);
    else
        return jw_fail(c, CUZK_ERR_FORMAT, "expected a name or an abi number, got %s",
                       jw_type_name(v));
    if (st && jd_is_string(v))
        return jw_fail(c, CUZK_ERR_UNSUPPORTED, "unknown registered %s proof \"%.64s\"", kind,
                       jd_string_value(v));
    if (st)
        return jw_fail(c, CUZK_ERR_UNSUPPORTED, "unknown registered %s proof number %lld", kind,
                       (long long)jd_integer_value(v));
    jw_pop(c, old);
    return CUZK_OK;
}

/* ---- base64 wrapper -------------------------------------------------------------------- */

static int b64_val(unsigned char ch)
{
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+') return 62;
    if (ch == '/') return 63;
    return -1;
}

/* Strict standard base64 with padding (Go's encoding/json form of []byte). */
cuzk_status jw_b64_decode(jw_ctx *c, const char *s, size_t n, char **out, size_t *out_len)
{
    if (n % 4)
        return jw_fail(c, CUZK_ERR_FORMAT, "base64 length %zu is not a multiple of 4", n);
    size_t pad = 0;
    if (n && s[n - 1] == '=')
        pad = n >= 2 && s[n - 2] == '=' ? 2 : 1;
    char *buf = malloc(n / 4 * 3 + 1);
    if (!buf)
        return jw_fail(c, CUZK_ERR_NOMEM, "out of memory");
    size_t w = 0;
    for (size_t i = 0; i < n; i += 4) {
        uint32_t acc = 0;
        for (size_t j = 0; j < 4; j++) {
            int v = (i + j >= n - pad) ? 0 : b64_val((unsigned char)s[i + j]);
            if (v < 0) {
                free(buf);
                return jw_fail(c, CUZK_ERR_FORMAT, "bad base64 character at offset %zu", i + j);
            }
            acc = acc << 6 | (uint32_t)v;
        }
        buf[w++] = (char)(acc >> 16);
        buf[w++] = (char)(acc >> 8);
        buf[w++] = (char)acc;
    }
    w -= pad;
    if (pad && (s[n - pad - 1] && (b64_val((unsigned char)s[n - pad - 1]) &
                                   (pad == 2 ? 0x0f : 0x03)))) {
        free(buf);
        return jw_fail(c, CUZK_ERR_FORMAT, "non-canonical base64 padding bits");
    }
    *out = buf;
    *out_len = w;
    return CUZK_OK;
}

