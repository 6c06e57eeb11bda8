/*
 * jw_arena.h — the arena that owns a parsed (or generated) Filecoin document's arrays:
 * zeroed chunks on a singly linked list, freed together. The parsers (json_walk.h,
 * bincode_walk.h) allocate into it, and so do the generators of cuzk/vanilla_synth.h, so a
 * cuzk_post_job or cuzk_snap_job is released by its one free function whoever made it.
 * Internal to the filecoin layer.
 *
 * Threading: an arena belongs to one thread while it grows; freeing needs no lock.
 */
#ifndef CUZK_FILECOIN_JW_ARENA_H
#define CUZK_FILECOIN_JW_ARENA_H

#include <stddef.h>

/* n zeroed bytes (n may be 0) linked into *arena; NULL on failure (*arena unchanged). */
void *jw_arena_alloc(void **arena, size_t n);
/* Frees every chunk of the arena (NULL: no-op). */
void jw_arena_free(void *arena);

#endif
