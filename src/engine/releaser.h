/*
 * releaser.h — a bounded background releaser: one thread that runs the frees handed to it,
 * in order, so the workers that end big partitions do not pay for the unmapping (see
 * releaser.c). Internal to the engine.
 * Threading: submit / stats from any thread; stop once, after the last submit.
 */
#ifndef CUZK_ENGINE_RELEASER_H
#define CUZK_ENGINE_RELEASER_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/status.h"

typedef struct ereleaser ereleaser;

typedef struct ereleaser_stats {
    uint64_t queued, done, refused; /* refused: full, the caller freed inline */
    uint64_t bytes_done;
    unsigned pending, max_depth;
    uint64_t bytes_pending;
} ereleaser_stats;

/* At most max_items callbacks and max_bytes of declared memory waiting at once (one item
 * is always accepted whatever its size, when nothing waits). */
cuzk_status ereleaser_start(ereleaser **out, unsigned max_items, uint64_t max_bytes,
                            cuzk_error *err);
/* Queues fn(arg) (freeing about `bytes`); false when full, stopping or r is NULL: then the
 * caller runs it itself. */
bool ereleaser_submit(ereleaser *r, void (*fn)(void *), void *arg, uint64_t bytes);
/* Waits until everything queued so far has run. */
void ereleaser_drain(ereleaser *r);
ereleaser_stats ereleaser_get_stats(ereleaser *r);
/* Runs what is queued, then joins the thread and frees r (NULL: no-op). */
void ereleaser_stop(ereleaser *r);

#endif /* CUZK_ENGINE_RELEASER_H */
