/*
 * json_dom.h — a strict JSON (RFC 8259) document reader for large machine-written inputs:
 * the whole text parsed into one read-only tree whose nodes, strings and child arrays live
 * in a few large blocks, so a 38.6 MB PoRep C1 output (≈10 M small integers) costs no
 * allocation per value. jansson's json_loadb built the same tree with a malloc per value
 * and took 1.65-1.9 s for it on a 2-vCPU VM, plus 0.2-0.3 s to free it (s14).
 *
 * Accepted: one object or array at the top (whitespace around it), nested at most
 * JD_MAX_DEPTH deep; strings of valid UTF-8 with the standard escapes (\uXXXX with
 * surrogate pairs; \u0000 and lone surrogates rejected); numbers as the grammar says, kept
 * as int64 when they have no fraction or exponent (out of range: an error) and as double
 * otherwise; true, false, null. Rejected, with the 1-based line and column of the fault:
 * anything else, trailing text, and an object with a key twice (as jansson's
 * JSON_REJECT_DUPLICATES). Object members keep their order.
 * Internal to the formats layer and the layers above it.
 *
 * Threading: a jd_doc is immutable after jd_parse; any threads may read it.
 */
#ifndef CUZK_FORMATS_JSON_DOM_H
#define CUZK_FORMATS_JSON_DOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* arrays and objects nested at most this deep (jansson 2.14 takes 2047, refuses 2048) */
#define JD_MAX_DEPTH 2047

typedef enum {
    JD_NULL,
    JD_TRUE,
    JD_FALSE,
    JD_INTEGER,
    JD_REAL,
    JD_STRING,
    JD_ARRAY,
    JD_OBJECT
} jd_type;

typedef struct jd_value jd_value;
typedef struct jd_member jd_member;

struct jd_value {
    uint32_t type; /* jd_type */
    uint32_t n;    /* string: bytes; array: elements; object: members */
    union {
        int64_t i;
        double r;
        const char *s; /* NUL-terminated, n bytes before the NUL */
        const jd_value *items;
        const jd_member *members;
    } u;
};

struct jd_member {
    const char *key; /* NUL-terminated */
    uint32_t klen;
    jd_value value;
};

typedef struct jd_doc jd_doc;

typedef struct jd_error {
    int line, column; /* 1-based, of the byte where the fault was found */
    char text[120];
} jd_error;

/* The document of text[0..len); NULL with *err filled (text NULL with len 0 is an empty
 * document, an error) or on allocation failure ("out of memory"). */
jd_doc *jd_parse(const char *text, size_t len, jd_error *err);
void jd_free(jd_doc *d); /* NULL: no-op */
const jd_value *jd_root(const jd_doc *d);

static inline jd_type jd_typeof(const jd_value *v) { return (jd_type)v->type; }
static inline bool jd_is_object(const jd_value *v) { return v && v->type == JD_OBJECT; }
static inline bool jd_is_array(const jd_value *v) { return v && v->type == JD_ARRAY; }
static inline bool jd_is_string(const jd_value *v) { return v && v->type == JD_STRING; }
static inline bool jd_is_integer(const jd_value *v) { return v && v->type == JD_INTEGER; }

/* Sizes are 0 and getters NULL (or 0) for a value of another type or out of range. */
size_t jd_array_size(const jd_value *v);
const jd_value *jd_array_get(const jd_value *v, size_t i);
size_t jd_object_size(const jd_value *v);
const jd_value *jd_object_get(const jd_value *v, const char *key);
const char *jd_object_key_at(const jd_value *v, size_t i);
const char *jd_string_value(const jd_value *v);
size_t jd_string_length(const jd_value *v);
int64_t jd_integer_value(const jd_value *v);

#endif /* CUZK_FORMATS_JSON_DOM_H */
