/*
 * jw_arena.c — see jw_arena.h: each allocation is one malloc'd chunk with a link in front,
 * so the arena never moves what it handed out. Threading: none of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "filecoin/jw_arena.h"

typedef struct chunk {
    struct chunk *next;
    max_align_t data[];
} chunk;

void *jw_arena_alloc(void **arena, size_t n)
{
    chunk *c = malloc(sizeof(chunk) + (n ? n : 1));
    if (!c)
        return NULL;
    c->next = *arena;
    *arena = c;
    memset(c->data, 0, n);
    return c->data;
}

void jw_arena_free(void *arena)
{
    for (chunk *c = arena; c;) {
        chunk *next = c->next;
        free(c);
        c = next;
    }
}
