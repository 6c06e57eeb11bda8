/*
 * releaser.c — the engine's background releaser (releaser.h): one thread that frees what
 * the pipeline's workers hand it, so a finalizer that ends a partition holding gigabytes
 * (a PoSt witness is ~4 GiB of field values at 32 GiB; munmap of it costs a noticeable
 * fraction of a second, page by page) goes straight back to the next proof.
 *
 * Bounded: at most max_items callbacks and max_bytes of declared memory wait at once; a
 * submit beyond that is refused and the caller frees inline, so a slow releaser slows its
 * callers down instead of letting garbage pile up past the memory budget (the engine gives
 * a partition's budget back only after its memory is freed, in the callback).
 * Threading: submit from any thread; the callbacks run on the releaser thread, in order.
 */
#include <pthread.h>
#include <stdlib.h>

#include "engine/releaser.h"

typedef struct rel_item {
    void (*fn)(void *);
    void *arg;
    uint64_t bytes;
    struct rel_item *next;
} rel_item;

struct ereleaser {
    pthread_mutex_t mu;
    pthread_cond_t cv, idle_cv;
    pthread_t th;
    rel_item *head, *tail;
    unsigned items, max_items;
    uint64_t bytes, max_bytes;
    bool stopping, busy;
    ereleaser_stats st;
};

static void *rel_main(void *arg)
{
    ereleaser *r = arg;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (!r->head && !r->stopping)
            pthread_cond_wait(&r->cv, &r->mu);
        rel_item *it = r->head;
        if (!it)
            break; /* stopping and drained */
        r->head = it->next;
        if (!r->head)
            r->tail = NULL;
        r->busy = true;
        pthread_mutex_unlock(&r->mu);
        it->fn(it->arg);
        pthread_mutex_lock(&r->mu);
        r->busy = false;
        r->items--;
        r->bytes -= it->bytes;
        r->st.done++;
        r->st.bytes_done += it->bytes;
        free(it);
        pthread_cond_broadcast(&r->idle_cv);
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

cuzk_status ereleaser_start(ereleaser **out, unsigned max_items, uint64_t max_bytes,
                            cuzk_error *err)
{
    *out = NULL;
    ereleaser *r = calloc(1, sizeof *r);
    if (!r)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "releaser: out of memory");
    r->max_items = max_items ? max_items : 1;
    r->max_bytes = max_bytes;
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->cv, NULL);
    pthread_cond_init(&r->idle_cv, NULL);
    if (pthread_create(&r->th, NULL, rel_main, r) != 0) {
        pthread_cond_destroy(&r->idle_cv);
        pthread_cond_destroy(&r->cv);
        pthread_mutex_destroy(&r->mu);
        free(r);
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "releaser: cannot start its thread");
    }
    *out = r;
    return CUZK_OK;
}

bool ereleaser_submit(ereleaser *r, void (*fn)(void *), void *arg, uint64_t bytes)
{
    if (!r)
        return false;
    rel_item *it = malloc(sizeof *it);
    if (!it)
        return false;
    *it = (rel_item){fn, arg, bytes, NULL};
    pthread_mutex_lock(&r->mu);
    /* one item always fits, however large: the bound limits waiting garbage, not size */
    bool ok = !r->stopping && r->items < r->max_items &&
              (r->items == 0 || r->bytes + bytes <= r->max_bytes);
    if (ok) {
        if (r->tail)
            r->tail->next = it;
        else
            r->head = it;
        r->tail = it;
        r->items++;
        r->bytes += bytes;
        r->st.queued++;
        if (r->items > r->st.max_depth)
            r->st.max_depth = r->items;
        pthread_cond_signal(&r->cv);
    } else {
        r->st.refused++;
    }
    pthread_mutex_unlock(&r->mu);
    if (!ok)
        free(it);
    return ok;
}

void ereleaser_drain(ereleaser *r)
{
    if (!r)
        return;
    pthread_mutex_lock(&r->mu);
    while (r->head || r->busy)
        pthread_cond_wait(&r->idle_cv, &r->mu);
    pthread_mutex_unlock(&r->mu);
}

ereleaser_stats ereleaser_get_stats(ereleaser *r)
{
    ereleaser_stats s = {0};
    if (!r)
        return s;
    pthread_mutex_lock(&r->mu);
    s = r->st;
    s.pending = r->items;
    s.bytes_pending = r->bytes;
    pthread_mutex_unlock(&r->mu);
    return s;
}

void ereleaser_stop(ereleaser *r)
{
    if (!r)
        return;
    pthread_mutex_lock(&r->mu);
    r->stopping = true;
    pthread_cond_signal(&r->cv);
    pthread_mutex_unlock(&r->mu);
    pthread_join(r->th, NULL); /* the thread runs what was queued before it exits */
    pthread_cond_destroy(&r->idle_cv);
    pthread_cond_destroy(&r->cv);
    pthread_mutex_destroy(&r->mu);
    free(r);
}
