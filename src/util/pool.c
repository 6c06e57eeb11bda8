/*
 * pool.c — the CPU worker pool (see cuzk/pool.h for the model).
 *
 * Threading: every cuzk_pool_for is a job that lives on its caller's stack and is linked
 * into the pool's job list under the mutex while it runs. Idle workers sleep on `wake`;
 * a new job broadcasts it. A worker picks the open job with the fewest helpers (so
 * concurrent callers share the workers), runs its chunks, and after each chunk looks at
 * `jobs_added`: if a job arrived since it joined, it leaves and picks again, which is what
 * hands a share of the workers to a caller that came second. Chunks are claimed with one
 * atomic fetch-add each, so there is no lock on the hot path.
 *
 * A job is unlinked by its caller once its own chunk loop finds nothing left (every chunk
 * claimed), after which no worker can join it; the caller then waits on `done` until the
 * job's helper count is zero, so nobody can touch the job after the call returns. Leaving
 * a job goes through the mutex, which also publishes the helper's writes to the caller.
 *
 * Scope: the caller's thread-local scope is copied into its job; a worker runs a chunk with
 * its thread's scope set to the job's (nested calls inherit it) and back to none after.
 * A stoppable job whose flag rose moves next_chunk to the end, so nobody claims more; the
 * chunks claimed before still run and are waited for as ever.
 *
 * worker_id: the calling thread is 0 in its own call; worker thread k (1..nthreads-1)
 * always uses k. A thread runs one chunk at a time, so ids are unique within a call at any
 * moment even when a worker leaves a job and joins it again.
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

typedef struct pool_job {
    struct pool_job *next; /* job list link (under mu) */
    cuzk_pool_fn fn;
    void *ctx;
    size_t n, chunk, nchunks;
    atomic_size_t next_chunk;
    int prio;
    const volatile int *cancel;       /* stoppable jobs only */
    const volatile int *scope_cancel; /* the caller's scope's, for nested calls */
    atomic_bool stopped;        /* the flag rose with chunks unclaimed */
    unsigned helpers; /* workers inside run_chunks for this job (under mu) */
    bool closed;      /* unlinked: the caller waits for helpers == 0 (under mu) */
} pool_job;

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
    pthread_cond_t wake;    /* workers wait here for a job or stop */
    pthread_cond_t done;    /* callers wait here for their job's helpers to leave */
    pool_job *jobs;         /* open jobs, oldest first */
    bool stop;
    atomic_uint_fast64_t jobs_added; /* bumped (under mu) whenever a job is linked */
};

static _Thread_local cuzk_pool_scope tl_scope;

cuzk_pool_scope cuzk_pool_scope_enter(cuzk_pool_scope s)
{
    cuzk_pool_scope prev = tl_scope;
    tl_scope = s;
    return prev;
}

cuzk_pool_scope cuzk_pool_scope_get(void) { return tl_scope; }

static bool job_has_work(pool_job *j)
{
    return atomic_load_explicit(&j->next_chunk, memory_order_relaxed) < j->nchunks;
}

/* Runs chunks of j until none is left, or (for a worker: watch != NULL) until a new job
 * has been added since *seen. Returns true if chunks may remain. */
static bool run_chunks(pool_job *j, unsigned id, const atomic_uint_fast64_t *watch,
                       uint64_t seen)
{
    for (;;) {
        if (j->cancel && *j->cancel) {
            /* exact: stopped only when some chunk is left unrun (a CAS from below the end) */
            size_t c = atomic_load_explicit(&j->next_chunk, memory_order_relaxed);
            while (c < j->nchunks &&
                   !atomic_compare_exchange_weak_explicit(&j->next_chunk, &c, j->nchunks,
                                                          memory_order_relaxed,
                                                          memory_order_relaxed))
                ;
            if (c < j->nchunks)
                atomic_store_explicit(&j->stopped, true, memory_order_relaxed);
            return false;
        }
        size_t c = atomic_fetch_add_explicit(&j->next_chunk, 1, memory_order_relaxed);
        if (c >= j->nchunks)
            return false;
        size_t begin = c * j->chunk;
        size_t end = j->n - begin < j->chunk ? j->n : begin + j->chunk;
        j->fn(j->ctx, begin, end, id);
        if (watch && atomic_load_explicit(watch, memory_order_relaxed) != seen)
            return true;
    }
}

/* The open job with work left of the highest priority, then the fewest helpers (the
 * oldest on ties), or NULL. */
static pool_job *pick_job(struct cuzk_pool *p)
{
    pool_job *best = NULL;
    for (pool_job *j = p->jobs; j; j = j->next)
        if (job_has_work(j) &&
            (!best || j->prio > best->prio ||
             (j->prio == best->prio && j->helpers < best->helpers)))
            best = j;
    return best;
}

static void *worker_main(void *argp)
{
    worker_arg *arg = argp;
    struct cuzk_pool *p = arg->pool;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        pool_job *j = NULL;
        while (!p->stop && (j = pick_job(p)) == NULL)
            pthread_cond_wait(&p->wake, &p->mu);
        if (p->stop)
            break;
        j->helpers++;
        uint64_t seen = atomic_load_explicit(&p->jobs_added, memory_order_relaxed);
        pthread_mutex_unlock(&p->mu);

        tl_scope = (cuzk_pool_scope){.priority = j->prio, .cancel = j->scope_cancel};
        run_chunks(j, arg->id, &p->jobs_added, seen);
        tl_scope = (cuzk_pool_scope){0};

        pthread_mutex_lock(&p->mu);
        if (--j->helpers == 0 && j->closed)
            pthread_cond_broadcast(&p->done);
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
    atomic_init(&p->jobs_added, 0);
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

static cuzk_status pool_for(cuzk_pool *pool, size_t n, cuzk_pool_fn fn, void *ctx,
                           size_t grain, bool stoppable)
{
    const volatile int *cancel = stoppable ? tl_scope.cancel : NULL;
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

    /* Inline: no pool, or nothing to share. */
    if (nt == 1 || pool->nstarted == 0 || nchunks == 1) {
        if (cancel && *cancel)
            return CUZK_ERR_CANCELLED;
        fn(ctx, 0, n, 0);
        return CUZK_OK;
    }

    pool_job job = {.next = NULL, .fn = fn, .ctx = ctx, .n = n, .chunk = chunk,
                    .nchunks = nchunks, .prio = tl_scope.priority, .cancel = cancel,
                    .scope_cancel = tl_scope.cancel,
                    .helpers = 0, .closed = false};
    atomic_init(&job.next_chunk, 0);
    atomic_init(&job.stopped, false);
    pthread_mutex_lock(&pool->mu);
    pool_job **tail = &pool->jobs;
    while (*tail)
        tail = &(*tail)->next;
    *tail = &job;
    atomic_fetch_add_explicit(&pool->jobs_added, 1, memory_order_relaxed);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mu);

    run_chunks(&job, 0, NULL, 0);

    pthread_mutex_lock(&pool->mu);
    for (pool_job **l = &pool->jobs; *l; l = &(*l)->next)
        if (*l == &job) {
            *l = job.next;
            break;
        }
    job.closed = true;
    while (job.helpers != 0)
        pthread_cond_wait(&pool->done, &pool->mu);
    pthread_mutex_unlock(&pool->mu);
    return atomic_load_explicit(&job.stopped, memory_order_relaxed) ? CUZK_ERR_CANCELLED
                                                                    : CUZK_OK;
}

cuzk_status cuzk_pool_for(cuzk_pool *pool, size_t n, cuzk_pool_fn fn, void *ctx,
                          size_t grain)
{
    return pool_for(pool, n, fn, ctx, grain, false);
}

cuzk_status cuzk_pool_for_stoppable(cuzk_pool *pool, size_t n, cuzk_pool_fn fn, void *ctx,
                                    size_t grain)
{
    return pool_for(pool, n, fn, ctx, grain, true);
}
