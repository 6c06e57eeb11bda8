/*
 * pool.c — the CPU worker pool (see cuzk/pool.h for the model).
 *
 * Threading: nthreads-1 pthreads sleep on `wake` until the generation counter moves;
 * the caller publishes a job under the mutex, bumps the generation, broadcasts, then takes
 * chunks itself. Chunks are claimed with one atomic fetch-add each, so there is no lock on
 * the hot path. Every worker, busy or not, reports back once per generation (`pending`),
 * which is what lets the job live in the pool struct and lets the caller return only when
 * nobody can still touch it. The mutex hand-off also publishes the workers' writes to the
 * caller.
 */
#define _POSIX_C_SOURCE 200809L

#include "cuzk/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

/* Chunks per participant when the grain allows it: enough for dynamic load balancing
 * when threads run at different speeds, few enough that the atomic is never contended. */
#define CHUNKS_PER_THREAD 8

typedef struct worker_arg {
    struct cuzk_pool *pool;
    unsigned id;
} worker_arg;

struct cuzk_pool {
    unsigned nthreads;      /* participants, caller included */
    unsigned nstarted;      /* worker threads actually running */
    pthread_t *threads;
    worker_arg *args;

    pthread_mutex_t mu;
    pthread_cond_t wake;    /* workers wait here for a new generation or stop */
    pthread_cond_t done;    /* the caller waits here for pending == 0 */
    uint64_t generation;
    unsigned pending;       /* workers that have not yet finished this generation */
    bool stop;

    /* current job: written under mu before the generation moves, read-only after */
    cuzk_pool_fn fn;
    void *ctx;
    size_t n, chunk, nchunks;
    atomic_size_t next_chunk;

    atomic_flag busy;       /* set while a cuzk_pool_for is running */
};

static void run_chunks(struct cuzk_pool *p, cuzk_pool_fn fn, void *ctx, size_t n,
                       size_t chunk, size_t nchunks, unsigned id)
{
    for (;;) {
        size_t c = atomic_fetch_add_explicit(&p->next_chunk, 1, memory_order_relaxed);
        if (c >= nchunks)
            break;
        size_t begin = c * chunk;
        size_t end = n - begin < chunk ? n : begin + chunk;
        fn(ctx, begin, end, id);
    }
}

static void *worker_main(void *argp)
{
    worker_arg *arg = argp;
    struct cuzk_pool *p = arg->pool;
    /* Generation 0 is "no job yet"; a worker that starts late must still run the
     * generations published before it first took the lock. */
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->generation == seen && !p->stop)
            pthread_cond_wait(&p->wake, &p->mu);
        if (p->stop)
            break;
        seen = p->generation;
        cuzk_pool_fn fn = p->fn;
        void *ctx = p->ctx;
        size_t n = p->n, chunk = p->chunk, nchunks = p->nchunks;
        pthread_mutex_unlock(&p->mu);

        run_chunks(p, fn, ctx, n, chunk, nchunks, arg->id);

        pthread_mutex_lock(&p->mu);
        if (--p->pending == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void stop_workers(struct cuzk_pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->nstarted; i++)
        pthread_join(p->threads[i], NULL);
    p->nstarted = 0;
}

static void free_pool(struct cuzk_pool *p)
{
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->mu);
    free(p->args);
    free(p->threads);
    free(p);
}

cuzk_status cuzk_pool_create(cuzk_pool **pool, unsigned nthreads)
{
    if (!pool)
        return CUZK_ERR_INVALID_ARG;
    *pool = NULL;
    if (nthreads == 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = online < 1 ? 1u
                   : online > (long)CUZK_POOL_MAX_THREADS ? CUZK_POOL_MAX_THREADS
                                                          : (unsigned)online;
    }
    if (nthreads > CUZK_POOL_MAX_THREADS)
        return CUZK_ERR_INVALID_ARG;

    struct cuzk_pool *p = calloc(1, sizeof *p);
    if (!p)
        return CUZK_ERR_NOMEM;
    p->nthreads = nthreads;
    atomic_init(&p->next_chunk, 0);
    atomic_flag_clear(&p->busy);
    if (pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p);
        return CUZK_ERR_NOMEM;
    }
    if (pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->mu);
        free(p);
        return CUZK_ERR_NOMEM;
    }
    if (pthread_cond_init(&p->done, NULL) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->mu);
        free(p);
        return CUZK_ERR_NOMEM;
    }
    unsigned nworkers = nthreads - 1;
    if (nworkers > 0) {
        p->threads = calloc(nworkers, sizeof *p->threads);
        p->args = calloc(nworkers, sizeof *p->args);
        if (!p->threads || !p->args) {
            free_pool(p);
            return CUZK_ERR_NOMEM;
        }
    }
    for (unsigned i = 0; i < nworkers; i++) {
        p->args[i].pool = p;
        p->args[i].id = i + 1;
        if (pthread_create(&p->threads[i], NULL, worker_main, &p->args[i]) != 0) {
            stop_workers(p);
            free_pool(p);
            return CUZK_ERR_NOMEM;
        }
        p->nstarted++;
    }
    *pool = p;
    return CUZK_OK;
}

void cuzk_pool_destroy(cuzk_pool *pool)
{
    if (!pool)
        return;
    stop_workers(pool);
    free_pool(pool);
}

unsigned cuzk_pool_nthreads(const cuzk_pool *pool) { return pool ? pool->nthreads : 1u; }

cuzk_status cuzk_pool_for(cuzk_pool *pool, size_t n, cuzk_pool_fn fn, void *ctx,
                          size_t grain)
{
    if (!fn)
        return CUZK_ERR_INVALID_ARG;
    if (n == 0)
        return CUZK_OK;
    if (grain == 0)
        grain = 1;
    unsigned nt = pool ? pool->nthreads : 1u;
    size_t per = (size_t)nt * CHUNKS_PER_THREAD;
    size_t chunk = n / per + (n % per != 0);
    if (chunk < grain)
        chunk = grain;
    size_t nchunks = n / chunk + (n % chunk != 0);

    /* Inline: no pool, nothing to share, or the pool is already running a loop (a nested
     * call from inside fn, or a second driver thread) — waiting would deadlock. */
    if (nt == 1 || nchunks == 1 || atomic_flag_test_and_set(&pool->busy)) {
        fn(ctx, 0, n, 0);
        return CUZK_OK;
    }

    pthread_mutex_lock(&pool->mu);
    pool->fn = fn;
    pool->ctx = ctx;
    pool->n = n;
    pool->chunk = chunk;
    pool->nchunks = nchunks;
    atomic_store_explicit(&pool->next_chunk, 0, memory_order_relaxed);
    pool->pending = pool->nstarted;
    pool->generation++;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mu);

    run_chunks(pool, fn, ctx, n, chunk, nchunks, 0);

    pthread_mutex_lock(&pool->mu);
    while (pool->pending != 0)
        pthread_cond_wait(&pool->done, &pool->mu);
    pthread_mutex_unlock(&pool->mu);
    atomic_flag_clear(&pool->busy);
    return CUZK_OK;
}
