/*
 * toml.c — the strict TOML subset of toml.h: a line-oriented scanner (every construct we
 * accept fits on one line), keeping the table names seen and the keys of the current
 * table to refuse duplicates.
 * Threading: reentrant; allocation only for the duplicate lists and the current line's
 * values, freed before returning.
 */
#include "util/toml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITEMS 64
#define MAX_NAME 128
#define MAX_SEEN 512

typedef struct parser {
    const char *file;
    unsigned line;
    cuzk_error *err;
    char table[MAX_NAME];
    char (*tables)[MAX_NAME]; /* every table header seen */
    size_t n_tables;
    char (*keys)[MAX_NAME];   /* keys of the current table */
    size_t n_keys;
    char *strbuf;             /* the line's decoded strings */
    size_t strlen_, strcap;
} parser;

const char *cuzk_toml_type_name(cuzk_toml_type t)
{
    switch (t) {
    case CUZK_TOML_STRING: return "string";
    case CUZK_TOML_INT: return "integer";
    case CUZK_TOML_BOOL: return "boolean";
    default: return "array";
    }
}

static cuzk_status fail(parser *p, const char *msg)
{
    return cuzk_error_set(p->err, CUZK_ERR_FORMAT, "%s:%u: %s", p->file, p->line, msg);
}

static const char *skip_ws(const char *s, const char *end)
{
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    return s;
}

static bool bare_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
}

/* Scans a bare key into out; NULL if none or too long. */
static const char *bare_key(const char *s, const char *end, char out[MAX_NAME])
{
    size_t n = 0;
    while (s < end && bare_char(*s)) {
        if (n + 1 >= MAX_NAME)
            return NULL;
        out[n++] = *s++;
    }
    out[n] = 0;
    return n ? s : NULL;
}

/* Appends a string to the line buffer; returns its offset or -1. */
static long str_begin(parser *p) { return (long)p->strlen_; }

static bool str_put(parser *p, char c)
{
    if (p->strlen_ + 1 >= p->strcap) {
        size_t nc = p->strcap ? 2 * p->strcap : 256;
        char *nb = realloc(p->strbuf, nc);
        if (!nb)
            return false;
        p->strbuf = nb;
        p->strcap = nc;
    }
    p->strbuf[p->strlen_++] = c;
    return true;
}

static const char *scan_string(parser *p, const char *s, const char *end, long *off,
                               cuzk_status *st)
{
    char q = *s++;
    *off = str_begin(p);
    while (s < end && *s != q) {
        char c = *s++;
        if (c == '\\' && q == '"') {
            if (s >= end)
                break;
            char e = *s++;
            c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == '"' ? '"'
                : e == '\\' ? '\\' : 0;
            if (!c) {
                *st = fail(p, "unsupported escape in a string");
                return NULL;
            }
        } else if ((unsigned char)c < 0x20) {
            *st = fail(p, "control character in a string");
            return NULL;
        }
        if (!str_put(p, c)) {
            *st = cuzk_error_set(p->err, CUZK_ERR_NOMEM, "out of memory");
            return NULL;
        }
    }
    if (s >= end) {
        *st = fail(p, "unterminated string");
        return NULL;
    }
    if (!str_put(p, 0)) {
        *st = cuzk_error_set(p->err, CUZK_ERR_NOMEM, "out of memory");
        return NULL;
    }
    return s + 1;
}

/* A scalar at s; strings are recorded as offsets into strbuf (in v->i) until the line is
 * complete (the buffer may move). */
static const char *scan_scalar(parser *p, const char *s, const char *end, cuzk_toml_value *v,
                               cuzk_status *st)
{
    memset(v, 0, sizeof *v);
    if (s < end && (*s == '"' || *s == '\'')) {
        long off;
        const char *r = scan_string(p, s, end, &off, st);
        v->type = CUZK_TOML_STRING;
        v->i = off;
        return r;
    }
    if (end - s >= 4 && memcmp(s, "true", 4) == 0 && (s + 4 == end || !bare_char(s[4]))) {
        v->type = CUZK_TOML_BOOL;
        v->b = true;
        return s + 4;
    }
    if (end - s >= 5 && memcmp(s, "false", 5) == 0 && (s + 5 == end || !bare_char(s[5]))) {
        v->type = CUZK_TOML_BOOL;
        return s + 5;
    }
    const char *t = s;
    bool neg = false;
    if (t < end && (*t == '+' || *t == '-'))
        neg = *t++ == '-';
    if (t >= end || *t < '0' || *t > '9') {
        *st = fail(p, "expected a value (\"string\", integer, true/false or [array])");
        return NULL;
    }
    if (*t == '0' && t + 1 < end && bare_char(t[1])) {
        *st = fail(p, "leading zeros, hex, octal and binary integers are not accepted");
        return NULL;
    }
    uint64_t acc = 0;
    bool prev_digit = false;
    for (; t < end && (bare_char(*t) || *t == '.'); t++) {
        if (*t == '_' && prev_digit && t + 1 < end && t[1] >= '0' && t[1] <= '9') {
            prev_digit = false;
            continue;
        }
        if (*t < '0' || *t > '9') {
            *st = fail(p, "not an integer (floats, dates and bare words are not accepted; "
                          "quote strings)");
            return NULL;
        }
        if (acc > (UINT64_C(1) << 63) / 10) {
            *st = fail(p, "integer out of range");
            return NULL;
        }
        acc = acc * 10 + (uint64_t)(*t - '0');
        prev_digit = true;
    }
    if (acc > (uint64_t)INT64_MAX + (neg ? 1 : 0)) {
        *st = fail(p, "integer out of range");
        return NULL;
    }
    v->type = CUZK_TOML_INT;
    v->i = neg ? (int64_t)(0 - acc) : (int64_t)acc;
    return t;
}

static bool seen(char (*list)[MAX_NAME], size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], name) == 0)
            return true;
    return false;
}

static cuzk_status parse_line(parser *p, const char *s, const char *end, cuzk_toml_kv_fn fn,
                              void *ctx)
{
    s = skip_ws(s, end);
    if (s == end || *s == '#')
        return CUZK_OK;
    cuzk_status st = CUZK_OK;
    if (*s == '[') {
        if (s + 1 < end && s[1] == '[')
            return fail(p, "arrays of tables are not accepted");
        char name[MAX_NAME] = "", part[MAX_NAME];
        s = skip_ws(s + 1, end);
        for (;;) {
            const char *r = bare_key(s, end, part);
            if (!r)
                return fail(p, "bad table name");
            if (strlen(name) + strlen(part) + 2 >= MAX_NAME)
                return fail(p, "table name too long");
            if (name[0])
                strcat(name, ".");
            strcat(name, part);
            s = skip_ws(r, end);
            if (s < end && *s == '.') {
                s = skip_ws(s + 1, end);
                continue;
            }
            break;
        }
        if (s >= end || *s != ']')
            return fail(p, "expected ] after the table name");
        s = skip_ws(s + 1, end);
        if (s < end && *s != '#')
            return fail(p, "unexpected text after the table header");
        if (seen(p->tables, p->n_tables, name) || p->n_tables >= MAX_SEEN) {
            char m[200];
            snprintf(m, sizeof m, "table [%s] given twice", name);
            return fail(p, m);
        }
        strcpy(p->tables[p->n_tables++], name);
        strcpy(p->table, name);
        p->n_keys = 0;
        return CUZK_OK;
    }
    char key[MAX_NAME];
    const char *r = bare_key(s, end, key);
    if (!r)
        return fail(p, *s == '"' || *s == '\'' ? "quoted keys are not accepted"
                                               : "expected key = value");
    s = skip_ws(r, end);
    if (s < end && *s == '.')
        return fail(p, "dotted keys are not accepted (use a [table])");
    if (s >= end || *s != '=')
        return fail(p, "expected = after the key");
    s = skip_ws(s + 1, end);
    if (seen(p->keys, p->n_keys, key) || p->n_keys >= MAX_SEEN) {
        char m[200];
        snprintf(m, sizeof m, "key %s given twice", key);
        return fail(p, m);
    }
    strcpy(p->keys[p->n_keys++], key);
    p->strlen_ = 0;
    cuzk_toml_value v, items[MAX_ITEMS];
    if (s < end && *s == '[') {
        size_t n = 0;
        s = skip_ws(s + 1, end);
        while (s < end && *s != ']') {
            if (n == MAX_ITEMS)
                return fail(p, "array too long");
            if (*s == '[' || *s == '{')
                return fail(p, "nested arrays and inline tables are not accepted");
            if (!(s = scan_scalar(p, s, end, &items[n], &st)))
                return st;
            if (n && items[n].type != items[0].type)
                return fail(p, "array items of different types");
            n++;
            s = skip_ws(s, end);
            if (s < end && *s == ',')
                s = skip_ws(s + 1, end);
            else if (s < end && *s != ']')
                return fail(p, "expected , or ] in the array");
        }
        if (s >= end)
            return fail(p, "unterminated array (arrays must fit on one line)");
        s++;
        for (size_t i = 0; i < n; i++)
            if (items[i].type == CUZK_TOML_STRING)
                items[i].str = p->strbuf + items[i].i;
        v = (cuzk_toml_value){.type = CUZK_TOML_ARRAY, .items = items, .n = n};
    } else {
        if (s < end && *s == '{')
            return fail(p, "inline tables are not accepted");
        if (!(s = scan_scalar(p, s, end, &v, &st)))
            return st;
        if (v.type == CUZK_TOML_STRING)
            v.str = p->strbuf + v.i;
    }
    s = skip_ws(s, end);
    if (s < end && *s != '#')
        return fail(p, "unexpected text after the value");
    return fn(ctx, p->table, key, &v, p->file, p->line, p->err);
}

cuzk_status cuzk_toml_parse(const char *text, size_t len, const char *file,
                            cuzk_toml_kv_fn fn, void *ctx, cuzk_error *err)
{
    if (!text || !fn)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "toml: NULL argument");
    parser p = {.file = file ? file : "<config>", .err = err};
    p.tables = calloc(MAX_SEEN, sizeof *p.tables);
    p.keys = calloc(MAX_SEEN, sizeof *p.keys);
    cuzk_status st = p.tables && p.keys ? CUZK_OK
                                        : cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    const char *s = text, *end = text + len;
    while (st == CUZK_OK && s < end) {
        p.line++;
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *le = nl ? nl : end;
        const char *ce = le > s && le[-1] == '\r' ? le - 1 : le;
        if (memchr(s, 0, (size_t)(ce - s)))
            st = fail(&p, "NUL byte");
        else
            st = parse_line(&p, s, ce, fn, ctx);
        s = nl ? nl + 1 : end;
    }
    free(p.tables);
    free(p.keys);
    free(p.strbuf);
    return st;
}
