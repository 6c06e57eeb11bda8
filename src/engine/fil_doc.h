/*
 * fil_doc.h — building the JSON job documents of cuzk/post.h and cuzk/snap.h from the
 * cuzk.v1 request fields (kind_post.c, kind_snap.c), so one strict parser per kind (and its
 * messages) serves both the document form and the field form. Internal to src/engine.
 * Threading: a fil_doc belongs to one thread.
 */
#ifndef CUZK_ENGINE_FIL_DOC_H
#define CUZK_ENGINE_FIL_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/request.h"

/* A growing NUL-terminated string; oom is sticky (later writes are dropped). */
typedef struct fil_doc {
    char *d;
    size_t len, cap;
    bool oom;
} fil_doc;

void fil_doc_put(fil_doc *b, const char *s, size_t n);
void fil_doc_puts(fil_doc *b, const char *s);
/* "[b0,b1,...]": 32-byte values as the parsers' JSON arrays of ints. */
void fil_doc_bytes(fil_doc *b, const uint8_t *d, size_t n);
/* One vanilla proof as an array element: spliced as is when it is one JSON object and
 * nothing else, else as a base64 string of its bytes (bincode), which the parser decodes. */
void fil_doc_vanilla(fil_doc *b, const ebuf *v);

#endif
