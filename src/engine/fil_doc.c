/*
 * fil_doc.c — see fil_doc.h.
 * Threading: a fil_doc belongs to one thread; no global state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fil_doc.h"

void fil_doc_put(fil_doc *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *d = realloc(b->d, cap);
        if (!d) {
            b->oom = true;
            return;
        }
        b->d = d;
        b->cap = cap;
    }
    memcpy(b->d + b->len, s, n);
    b->len += n;
    b->d[b->len] = 0;
}

void fil_doc_puts(fil_doc *b, const char *s) { fil_doc_put(b, s, strlen(s)); }

void fil_doc_bytes(fil_doc *b, const uint8_t *d, size_t n)
{
    char num[8];
    fil_doc_puts(b, "[");
    for (size_t i = 0; i < n; i++) {
        snprintf(num, sizeof num, "%s%u", i ? "," : "", d[i]);
        fil_doc_puts(b, num);
    }
    fil_doc_puts(b, "]");
}

static void put_base64(fil_doc *b, const uint8_t *d, size_t n)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) |
                     (i + 2 < n ? d[i + 2] : 0);
        char q[4] = {t[v >> 18], t[(v >> 12) & 63], i + 1 < n ? t[(v >> 6) & 63] : '=',
                     i + 2 < n ? t[v & 63] : '='};
        fil_doc_put(b, q, 4);
    }
}

/* Whether d is one JSON object and nothing else (braces balanced outside strings), so it
 * can be spliced into the document as one element; the parser checks the rest. */
static bool one_object(const uint8_t *d, size_t n)
{
    size_t i = 0, depth = 0;
    bool str = false, esc = false, closed = false;
    while (i < n && (d[i] == ' ' || d[i] == '\n' || d[i] == '\r' || d[i] == '\t'))
        i++;
    if (i == n || d[i] != '{')
        return false;
    for (; i < n; i++) {
        uint8_t c = d[i];
        if (closed) {
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
                return false;
        } else if (str) {
            if (esc)
                esc = false;
            else if (c == '\\')
                esc = true;
            else if (c == '"')
                str = false;
        } else if (c == '"') {
            str = true;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return false;
            closed = --depth == 0;
        } else if (c == 0) {
            return false;
        }
    }
    return closed;
}

void fil_doc_vanilla(fil_doc *b, const ebuf *v)
{
    if (one_object(v->data, v->len)) {
        fil_doc_put(b, (const char *)v->data, v->len);
    } else {
        fil_doc_puts(b, "\"");
        put_base64(b, v->data, v->len);
        fil_doc_puts(b, "\"");
    }
}
