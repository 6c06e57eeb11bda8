/*
 * json_dom.c — see json_dom.h. A recursive-descent parser over the text: the children of
 * an array or object collect on a growing stack while it is open and move into the arena
 * as one block when it closes, so each node is copied once and every array's elements are
 * contiguous. Strings are copied (escapes decoded) into the arena, NUL-terminated.
 * Threading: a parse has no shared state.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/json_dom.h"
#include "util/util_export.h"

typedef struct jd_block {
    struct jd_block *next;
    size_t used, cap;
    max_align_t data[];
} jd_block;

struct jd_doc {
    jd_block *blocks;
    jd_value root;
};

#define JD_BLOCK_MIN ((size_t)1 << 20)
#define JD_BLOCK_MAX ((size_t)64 << 20)

typedef struct parser {
    const char *t;
    size_t len, pos;
    jd_doc *doc;
    size_t next_block;
    jd_value *vs; /* open arrays' elements */
    size_t vn, vcap;
    jd_member *ms; /* open objects' members */
    size_t mn, mcap;
    jd_error *err;
    bool failed;
} parser;

static void *arena(parser *p, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    jd_block *b = p->doc->blocks;
    if (!b || b->cap - b->used < n) {
        size_t cap = p->next_block > n ? p->next_block : n;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->cap = cap;
        b->used = 0;
        b->next = p->doc->blocks;
        p->doc->blocks = b;
        if (p->next_block < JD_BLOCK_MAX)
            p->next_block *= 2;
    }
    void *r = (char *)b->data + b->used;
    b->used += n;
    return r;
}

static bool fail(parser *p, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(parser *p, size_t at, const char *fmt, ...)
{
    if (p->failed)
        return false;
    p->failed = true;
    int line = 1, col = 1;
    for (size_t i = 0; i < at && i < p->len; i++) {
        if (p->t[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    p->err->line = line;
    p->err->column = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err->text, sizeof p->err->text, fmt, ap);
    va_end(ap);
    return false;
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len) {
        char c = p->t[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        p->pos++;
    }
}

/* buf (n used of *cap elements of size bytes) with room for one more: buf itself, or the
 * larger copy (*cap updated); NULL when out of memory (buf is still valid then). */
static void *reserve(parser *p, void *buf, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return buf;
    size_t c = *cap ? 2 * *cap : 64;
    void *g = realloc(buf, c * size);
    if (!g) {
        fail(p, p->pos, "out of memory");
        return NULL;
    }
    *cap = c;
    return g;
}

static bool push_value(parser *p, const jd_value *v)
{
    jd_value *vs = reserve(p, p->vs, p->vn, &p->vcap, sizeof *vs);
    if (!vs)
        return false;
    p->vs = vs;
    p->vs[p->vn++] = *v;
    return true;
}

static bool push_member(parser *p, const jd_member *m)
{
    jd_member *ms = reserve(p, p->ms, p->mn, &p->mcap, sizeof *ms);
    if (!ms)
        return false;
    p->ms = ms;
    p->ms[p->mn++] = *m;
    return true;
}

static bool hex4(parser *p, size_t at, unsigned *out)
{
    if (p->len - at < 4)
        return fail(p, at, "unexpected end of input in a \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int h = cuzk_hex_digit(p->t[at + (size_t)i]);
        if (h < 0)
            return fail(p, at, "invalid \\u escape");
        v = v << 4 | (unsigned)h;
    }
    *out = v;
    return true;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | cp >> 12);
        o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | cp >> 18);
    o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* p->pos at the opening quote; the decoded string into the arena. */
static bool parse_string(parser *p, const char **out, uint32_t *out_len)
{
    size_t start = ++p->pos, i = start;
    bool plain = true;
    for (;;) { /* find the closing quote, checking as we go */
        if (i >= p->len)
            return fail(p, start - 1, "unterminated string");
        unsigned char c = (unsigned char)p->t[i];
        if (c == '"')
            break;
        if (c < 0x20)
            return fail(p, i, "control character 0x%02x in a string", c);
        if (c == '\\') {
            plain = false;
            if (i + 1 >= p->len)
                return fail(p, start - 1, "unterminated string");
            i += 2;
        } else if (c >= 0x80) {
            size_t k = cuzk_utf8_seq_len(p->t + i, p->len - i); /* RFC 3629, as Go reads it */
            if (!k)
                return fail(p, i, "invalid UTF-8 in a string");
            i += k;
        } else {
            i++;
        }
    }
    size_t span = i - start;
    if (span > UINT32_MAX - 1)
        return fail(p, start, "string too long");
    char *o = arena(p, span + 1);
    if (!o)
        return fail(p, start, "out of memory");
    size_t n = 0;
    if (plain) {
        memcpy(o, p->t + start, span);
        n = span;
    } else {
        for (size_t j = start; j < i;) {
            char c = p->t[j];
            if (c != '\\') {
                o[n++] = c;
                j++;
                continue;
            }
            char e = p->t[j + 1];
            j += 2;
            switch (e) {
            case '"': o[n++] = '"'; break;
            case '\\': o[n++] = '\\'; break;
            case '/': o[n++] = '/'; break;
            case 'b': o[n++] = '\b'; break;
            case 'f': o[n++] = '\f'; break;
            case 'n': o[n++] = '\n'; break;
            case 'r': o[n++] = '\r'; break;
            case 't': o[n++] = '\t'; break;
            case 'u': {
                unsigned cp, lo;
                if (j + 4 > i || !hex4(p, j, &cp))
                    return fail(p, j - 2, "invalid \\u escape");
                j += 4;
                if (cp >= 0xdc00 && cp <= 0xdfff)
                    return fail(p, j - 6, "invalid Unicode: lone low surrogate \\u%04x", cp);
                if (cp >= 0xd800 && cp <= 0xdbff) {
                    if (j + 6 > i || p->t[j] != '\\' || p->t[j + 1] != 'u' ||
                        !hex4(p, j + 2, &lo) || lo < 0xdc00 || lo > 0xdfff)
                        return fail(p, j - 6, "invalid Unicode: lone high surrogate \\u%04x", cp);
                    j += 6;
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                }
                if (cp == 0)
                    return fail(p, j - 6, "\\u0000 is not allowed");
                n += put_utf8(o + n, cp);
                break;
            }
            default:
                return fail(p, j - 2, "invalid escape \\%c", e);
            }
        }
    }
    o[n] = '\0';
    p->pos = i + 1;
    *out = o;
    *out_len = (uint32_t)n;
    return true;
}

static bool is_digit(const parser *p, size_t i)
{
    return i < p->len && p->t[i] >= '0' && p->t[i] <= '9';
}

static bool parse_number(parser *p, jd_value *v)
{
    size_t s = p->pos, i = s;
    bool neg = false, real = false;
    if (i < p->len && p->t[i] == '-') {
        neg = true;
        i++;
    }
    if (!is_digit(p, i))
        return fail(p, s, "invalid number");
    if (p->t[i] == '0') {
        i++;
        if (is_digit(p, i))
            return fail(p, s, "invalid number: leading zero");
    } else {
        while (is_digit(p, i))
            i++;
    }
    size_t int_end = i;
    if (i < p->len && p->t[i] == '.') {
        real = true;
        i++;
        if (!is_digit(p, i))
            return fail(p, s, "invalid number: no digit after '.'");
        while (is_digit(p, i))
            i++;
    }
    if (i < p->len && (p->t[i] == 'e' || p->t[i] == 'E')) {
        real = true;
        i++;
        if (i < p->len && (p->t[i] == '+' || p->t[i] == '-'))
            i++;
        if (!is_digit(p, i))
            return fail(p, s, "invalid number: no digit in the exponent");
        while (is_digit(p, i))
            i++;
    }
    if (!real) {
        uint64_t m = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
        for (size_t j = s + neg; j < int_end; j++) {
            unsigned d = (unsigned)(p->t[j] - '0');
            if (m > (lim - d) / 10)
                return fail(p, s, "integer out of the 64-bit range");
            m = m * 10 + d;
        }
        v->type = JD_INTEGER;
        v->u.i = neg ? (int64_t)(0 - m) : (int64_t)m;
    } else {
        char small[64], *buf = small;
        size_t n = i - s;
        if (n >= sizeof small && !(buf = malloc(n + 1)))
            return fail(p, s, "out of memory");
        memcpy(buf, p->t + s, n);
        buf[n] = '\0';
        errno = 0;
        double d = strtod(buf, NULL);
        int e = errno;
        if (buf != small)
            free(buf);
        if (e == ERANGE && isinf(d))
            return fail(p, s, "real number overflow");
        v->type = JD_REAL;
        v->u.r = d;
    }
    v->n = 0;
    p->pos = i;
    return true;
}

static bool literal(parser *p, const char *word, jd_type type, jd_value *v)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->t + p->pos, word, n) != 0)
        return fail(p, p->pos, "invalid token");
    p->pos += n;
    v->type = type;
    v->n = 0;
    v->u.i = 0;
    return true;
}

static int key_cmp(const void *a, const void *b)
{
    const jd_member *x = *(const jd_member *const *)a, *y = *(const jd_member *const *)b;
    size_t n = x->klen < y->klen ? x->klen : y->klen;
    int c = memcmp(x->key, y->key, n);
    return c ? c : (x->klen > y->klen) - (x->klen < y->klen);
}

/* Fails (at the object's opening brace) when a key of members[0..k) appears twice. */
static bool unique_keys(parser *p, size_t open, const jd_member *m, size_t k)
{
    const char *dup = NULL;
    if (k <= 16) {
        for (size_t a = 1; a < k && !dup; a++)
            for (size_t b = 0; b < a && !dup; b++)
                if (m[a].klen == m[b].klen && memcmp(m[a].key, m[b].key, m[a].klen) == 0)
                    dup = m[a].key;
    } else {
        const jd_member **idx = malloc(k * sizeof *idx);
        if (!idx)
            return fail(p, open, "out of memory");
        for (size_t a = 0; a < k; a++)
            idx[a] = &m[a];
        qsort(idx, k, sizeof *idx, key_cmp);
        for (size_t a = 1; a < k && !dup; a++)
            if (key_cmp(&idx[a - 1], &idx[a]) == 0)
                dup = idx[a]->key;
        free(idx);
    }
    return dup ? fail(p, open, "duplicate object key \"%.60s\"", dup) : true;
}

static bool parse_value(parser *p, unsigned depth, jd_value *v);

static bool parse_array(parser *p, unsigned depth, jd_value *v)
{
    size_t open = p->pos++, base = p->vn;
    skip_ws(p);
    if (p->pos < p->len && p->t[p->pos] == ']') {
        p->pos++;
    } else {
        for (;;) {
            jd_value e;
            if (!parse_value(p, depth + 1, &e) || !push_value(p, &e))
                return false;
            skip_ws(p);
            if (p->pos >= p->len)
                return fail(p, open, "unterminated array");
            char c = p->t[p->pos++];
            if (c == ']')
                break;
            if (c != ',')
                return fail(p, p->pos - 1, "expected ',' or ']'");
            skip_ws(p);
        }
    }
    size_t n = p->vn - base;
    if (n > UINT32_MAX)
        return fail(p, open, "array too long");
    jd_value *items = NULL;
    if (n) {
        if (!(items = arena(p, n * sizeof *items)))
            return fail(p, open, "out of memory");
        memcpy(items, p->vs + base, n * sizeof *items);
    }
    p->vn = base;
    v->type = JD_ARRAY;
    v->n = (uint32_t)n;
    v->u.items = items;
    return true;
}

static bool parse_object(parser *p, unsigned depth, jd_value *v)
{
    size_t open = p->pos++, base = p->mn;
    skip_ws(p);
    if (p->pos < p->len && p->t[p->pos] == '}') {
        p->pos++;
    } else {
        for (;;) {
            jd_member m;
            if (p->pos >= p->len || p->t[p->pos] != '"')
                return fail(p, p->pos, p->pos >= p->len ? "unterminated object"
                                                        : "expected a string key");
            if (!parse_string(p, &m.key, &m.klen))
                return false;
            skip_ws(p);
            if (p->pos >= p->len || p->t[p->pos] != ':')
                return fail(p, p->pos, "expected ':'");
            p->pos++;
            skip_ws(p);
            if (!parse_value(p, depth + 1, &m.value) || !push_member(p, &m))
                return false;
            skip_ws(p);
            if (p->pos >= p->len)
                return fail(p, open, "unterminated object");
            char c = p->t[p->pos++];
            if (c == '}')
                break;
            if (c != ',')
                return fail(p, p->pos - 1, "expected ',' or '}'");
            skip_ws(p);
        }
    }
    size_t n = p->mn - base;
    if (n > UINT32_MAX)
        return fail(p, open, "object too long");
    if (!unique_keys(p, open, p->ms + base, n))
        return false;
    jd_member *members = NULL;
    if (n) {
        if (!(members = arena(p, n * sizeof *members)))
            return fail(p, open, "out of memory");
        memcpy(members, p->ms + base, n * sizeof *members);
    }
    p->mn = base;
    v->type = JD_OBJECT;
    v->n = (uint32_t)n;
    v->u.members = members;
    return true;
}

/* depth: of the array or object v would be (the top one is 1), as jansson counts */
static bool parse_value(parser *p, unsigned depth, jd_value *v)
{
    if (p->pos < p->len && (p->t[p->pos] == '[' || p->t[p->pos] == '{') && depth > JD_MAX_DEPTH)
        return fail(p, p->pos, "maximum nesting depth %d exceeded", JD_MAX_DEPTH);
    if (p->pos >= p->len)
        return fail(p, p->pos, "unexpected end of input");
    char c = p->t[p->pos];
    switch (c) {
    case '{':
        return parse_object(p, depth, v);
    case '[':
        return parse_array(p, depth, v);
    case '"':
        v->type = JD_STRING;
        return parse_string(p, &v->u.s, &v->n);
    case 't':
        return literal(p, "true", JD_TRUE, v);
    case 'f':
        return literal(p, "false", JD_FALSE, v);
    case 'n':
        return literal(p, "null", JD_NULL, v);
    default:
        if (c == '-' || (c >= '0' && c <= '9'))
            return parse_number(p, v);
        return fail(p, p->pos, "invalid token");
    }
}

void jd_free(jd_doc *d)
{
    if (!d)
        return;
    for (jd_block *b = d->blocks; b;) {
        jd_block *next = b->next;
        free(b);
        b = next;
    }
    free(d);
}

jd_doc *jd_parse(const char *text, size_t len, jd_error *err)
{
    jd_error scratch;
    parser p;
    memset(&p, 0, sizeof p);
    p.t = text;
    p.len = text ? len : 0;
    p.err = err ? err : &scratch;
    p.next_block = JD_BLOCK_MIN;
    memset(p.err, 0, sizeof *p.err);
    p.doc = calloc(1, sizeof *p.doc);
    if (!p.doc) {
        fail(&p, 0, "out of memory");
        return NULL;
    }
    bool ok;
    skip_ws(&p);
    if (p.pos >= p.len) {
        ok = fail(&p, p.pos, "'[' or '{' expected near end of input");
    } else if (p.t[p.pos] != '[' && p.t[p.pos] != '{') {
        ok = fail(&p, p.pos, "'[' or '{' expected");
    } else {
        ok = parse_value(&p, 1, &p.doc->root);
        if (ok) {
            skip_ws(&p);
            if (p.pos < p.len)
                ok = fail(&p, p.pos, "end of input expected");
        }
    }
    free(p.vs);
    free(p.ms);
    if (!ok) {
        jd_free(p.doc);
        return NULL;
    }
    return p.doc;
}

const jd_value *jd_root(const jd_doc *d) { return d ? &d->root : NULL; }

size_t jd_array_size(const jd_value *v) { return jd_is_array(v) ? v->n : 0; }

const jd_value *jd_array_get(const jd_value *v, size_t i)
{
    return jd_is_array(v) && i < v->n ? &v->u.items[i] : NULL;
}

size_t jd_object_size(const jd_value *v) { return jd_is_object(v) ? v->n : 0; }

const jd_value *jd_object_get(const jd_value *v, const char *key)
{
    if (!jd_is_object(v) || !key)
        return NULL;
    size_t kl = strlen(key);
    for (uint32_t i = 0; i < v->n; i++)
        if (v->u.members[i].klen == kl && memcmp(v->u.members[i].key, key, kl) == 0)
            return &v->u.members[i].value;
    return NULL;
}

const char *jd_object_key_at(const jd_value *v, size_t i)
{
    return jd_is_object(v) && i < v->n ? v->u.members[i].key : NULL;
}

const char *jd_string_value(const jd_value *v) { return jd_is_string(v) ? v->u.s : NULL; }

size_t jd_string_length(const jd_value *v) { return jd_is_string(v) ? v->n : 0; }

int64_t jd_integer_value(const jd_value *v) { return jd_is_integer(v) ? v->u.i : 0; }
