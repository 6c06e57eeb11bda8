/*
 * toml.h — a small strict TOML subset parser, enough for configuration files:
 *   # comments, [table] and [table.sub] headers, key = value with bare keys
 *   ([A-Za-z0-9_-]+), values: "basic strings" (escapes \" \\ \n \t \r \uXXXX refused),
 *   'literal strings', integers (decimal, optional sign, _ between digits), true/false,
 *   and one-line arrays of those ([1, 2] / ["a", "b"], trailing comma allowed).
 * Everything else (dotted keys, inline tables, floats, dates, multi-line strings, arrays
 * of tables, a key or table given twice) is an error naming file:line.
 * The parser hands each key/value to a callback with its table and line; the callback
 * decides whether the key is known (cmd/cuzkd's option table).
 * Threading: reentrant; no global state.
 */
#ifndef CUZK_UTIL_TOML_H
#define CUZK_UTIL_TOML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

typedef enum cuzk_toml_type {
    CUZK_TOML_STRING = 0,
    CUZK_TOML_INT = 1,
    CUZK_TOML_BOOL = 2,
    CUZK_TOML_ARRAY = 3,
} cuzk_toml_type;

typedef struct cuzk_toml_value {
    cuzk_toml_type type;
    const char *str;                 /* STRING: NUL-terminated (valid during the callback) */
    int64_t i;                       /* INT */
    bool b;                          /* BOOL */
    const struct cuzk_toml_value *items; /* ARRAY: n scalar items */
    size_t n;
} cuzk_toml_value;

const char *cuzk_toml_type_name(cuzk_toml_type t); /* "string", "integer", ... */

/* Called for each key; table is "" at the top. A non-OK return stops the parse and is
 * returned (the callback fills err, conventionally "file:line: ..."). */
typedef cuzk_status (*cuzk_toml_kv_fn)(void *ctx, const char *table, const char *key,
                                       const cuzk_toml_value *v, const char *file,
                                       unsigned line, cuzk_error *err);

/* Parses text (len bytes, NUL-free). file names the source in messages. Errors:
 * CUZK_ERR_FORMAT "file:line: ..." or the callback's. */
cuzk_status cuzk_toml_parse(const char *text, size_t len, const char *file,
                            cuzk_toml_kv_fn fn, void *ctx, cuzk_error *err);

#endif
