/*
 * host_stage.cu — the pool of host_stage.h: a few slots, best fit among idle buffers; a
 * new buffer only when none fits well (at most 4x the request rounded to 2 MiB, so a
 * results buffer never holds a witness-sized one that the next witness would then have to
 * allocate again), with an idle spare of its size when the limit allows (the device's
 * other worker's); idle buffers freed, largest first, only to make room under the limit,
 * and only when that makes enough.
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

/* Pins `bytes` (NULL if the driver refuses, leaving no CUDA error behind). */
static void *pin(size_t bytes)
{
    void *p = NULL;
    if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) {
        (void)cudaGetLastError();
        p = NULL;
    }
    return p;
}

/* An allocation that was counted and reserved under the mutex settles: the slot gets its
 * buffer (busy or idle), or is emptied and uncounted if the driver refused. */
static void settle(host_stage *s, host_stage_buf *b, void *p, bool busy)
{
    if (p) {
        b->p = p;
        b->busy = busy;
        b->pending = false;
        s->allocs++;
    } else {
        s->pinned -= b->bytes;
        memset(b, 0, sizeof *b);
    }
}

void *host_stage_take(host_stage *s, size_t bytes)
{
    if (!bytes)
        bytes = 1;
    void *out = NULL;
    host_stage_buf *slot = NULL, *spare = NULL;
    size_t want = (bytes + ROUND - 1) / ROUND * ROUND;
    pthread_mutex_lock(&s->mu);
    if (bytes > s->limit)
        goto done;
    {
        host_stage_buf *fit = NULL;
        size_t idle = 0;
        for (int i = 0; i < HOST_STAGE_SLOTS; i++) {
            host_stage_buf *b = &s->b[i];
            if (!b->p && !b->pending)
                slot = slot ? slot : b;
            else if (b->p && !b->busy) {
                idle += b->bytes;
                if (b->bytes >= bytes && (!fit || b->bytes < fit->bytes))
                    fit = b;
            }
        }
        bool room = slot && s->pinned + want <= s->limit;
        if (fit && (fit->bytes / 4 <= want || !room)) {
            fit->busy = true;
            out = fit->p;
            slot = NULL;
            goto done;
        }
        /* make room: idle buffers that do not fit, the largest first; none is dropped
         * when even all of them would not make enough */
        if (!room && s->pinned - idle + want > s->limit) {
            slot = NULL;
            goto done;
        }
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
        /* and a spare of the same size, idle, for the device's other worker: its first
         * start would otherwise pin while this one holds the device, and a pinning that
         * long stalls the holder's launches (a 3.75 GiB one held a WindowPoSt partition
         * 1.9 s longer, H200, s17); here it is paid before this start's kernels */
        if (s->pinned + want <= s->limit)
            for (int i = 0; i < HOST_STAGE_SLOTS && !spare; i++)
                if (!s->b[i].p && !s->b[i].pending) {
                    spare = &s->b[i];
                    *spare = (host_stage_buf){NULL, want, false, true};
                    s->pinned += want;
                }
    }
done:
    pthread_mutex_unlock(&s->mu);
    if (!slot)
        return out;
    void *p = pin(want);
    void *q = p && spare ? pin(want) : NULL;
    pthread_mutex_lock(&s->mu);
    settle(s, slot, p, true);
    if (spare)
        settle(s, spare, q, false);
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

/* One thread copies ~5 GB/s; the PCIe DMA behind the copy is several times faster. */
#define COPY_PIECE ((size_t)4 << 20)

typedef struct copy_ctx {
    char *dst;
    const char *src;
    size_t len;
} copy_ctx;

static void copy_pieces(void *arg, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const copy_ctx *c = (const copy_ctx *)arg;
    for (size_t i = begin; i < end; i++) {
        size_t off = i * COPY_PIECE;
        memcpy(c->dst + off, c->src + off, c->len - off < COPY_PIECE ? c->len - off : COPY_PIECE);
    }
}

void host_stage_copy(cuzk_pool *pool, void *dst, const void *src, size_t len)
{
    copy_ctx c = {(char *)dst, (const char *)src, len};
    size_t n = (len + COPY_PIECE - 1) / COPY_PIECE;
    /* a failed hand-off may leave pieces uncopied: the whole copy again is still right */
    if (!pool || n < 2 || cuzk_pool_for(pool, n, copy_pieces, &c, 1) != CUZK_OK)
        memcpy(dst, src, len);
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
