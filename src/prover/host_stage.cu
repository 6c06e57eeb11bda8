/*
 * host_stage.cu — the pool of host_stage.h: a few slots, best fit among idle buffers; a
 * new buffer only when none fits well (at most 4x the request rounded to 2 MiB, so a
 * results buffer never holds a witness-sized one that the next witness would then have to
 * allocate again);
 * idle buffers freed, largest first, only to make room under the limit.
 * Threading: the pool's mutex around the slots and the driver calls.
 */
#include <cuda_runtime.h>
#include <string.h>

#include "prover/host_stage.h"

#define ROUND (2u << 20) /* whole 2 MiB: fewer distinct sizes, huge-page friendly */

void host_stage_init(host_stage *s, size_t limit)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_init(&s->mu, NULL);
    s->limit = limit;
}

static void drop(host_stage *s, host_stage_buf *b)
{
    if (cudaFreeHost(b->p) != cudaSuccess)
        (void)cudaGetLastError();
    s->pinned -= b->bytes;
    s->frees++;
    memset(b, 0, sizeof *b);
}

void *host_stage_take(host_stage *s, size_t bytes)
{
    if (!bytes)
        bytes = 1;
    void *out = NULL;
    host_stage_buf *slot = NULL;
    size_t want = (bytes + ROUND - 1) / ROUND * ROUND;
    pthread_mutex_lock(&s->mu);
    if (bytes > s->limit)
        goto done;
    {
        host_stage_buf *fit = NULL;
        for (int i = 0; i < HOST_STAGE_SLOTS; i++) {
            host_stage_buf *b = &s->b[i];
            if (!b->p && !b->pending)
                slot = slot ? slot : b;
            else if (b->p && !b->busy && b->bytes >= bytes && (!fit || b->bytes < fit->bytes))
                fit = b;
        }
        bool room = slot && s->pinned + want <= s->limit;
        if (fit && (fit->bytes / 4 <= want || !room)) {
            fit->busy = true;
            out = fit->p;
            slot = NULL;
            goto done;
        }
        /* make room: idle buffers that do not fit, the largest first */
        while (!room) {
            host_stage_buf *big = NULL;
            for (int i = 0; i < HOST_STAGE_SLOTS; i++)
                if (s->b[i].p && !s->b[i].busy && (!big || s->b[i].bytes > big->bytes))
                    big = &s->b[i];
            if (!big) {
                slot = NULL;
                goto done;
            }
            drop(s, big);
            slot = slot ? slot : big;
            room = s->pinned + want <= s->limit;
        }
        /* counted now, allocated below without the mutex: pinning GiBs takes seconds
         * (2.2 s for 3.75 GiB on the H200 box), and a give must not wait for it */
        *slot = (host_stage_buf){NULL, want, true, true};
        s->pinned += want;
    }
done:
    pthread_mutex_unlock(&s->mu);
    if (!slot)
        return out;
    void *p = NULL;
    if (cudaHostAlloc(&p, want, cudaHostAllocPortable) != cudaSuccess) {
        (void)cudaGetLastError();
        p = NULL;
    }
    pthread_mutex_lock(&s->mu);
    if (p) {
        slot->p = p;
        slot->pending = false;
        s->allocs++;
    } else {
        s->pinned -= want;
        memset(slot, 0, sizeof *slot);
    }
    pthread_mutex_unlock(&s->mu);
    return p;
}

void host_stage_give(host_stage *s, void *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < HOST_STAGE_SLOTS; i++)
        if (s->b[i].p == p)
            s->b[i].busy = false;
    pthread_mutex_unlock(&s->mu);
}

void host_stage_destroy(host_stage *s)
{
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < HOST_STAGE_SLOTS; i++)
        if (s->b[i].p)
            drop(s, &s->b[i]);
    pthread_mutex_unlock(&s->mu);
    pthread_mutex_destroy(&s->mu);
}
