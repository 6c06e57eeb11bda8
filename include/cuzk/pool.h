/*
 * cuzk/pool.h — the CPU worker pool: a fixed set of pthreads that run blocking
 * parallel-for loops (NTT stages, MSM buckets, SpMV rows, witness work).
 *
 * Model
 *   A pool owns nthreads-1 worker threads; the thread that calls cuzk_pool_for is the
 *   nthreads-th participant, so a pool of 1 thread has no worker threads at all and runs
 *   everything inline. Threads are created by cuzk_pool_create and joined by
 *   cuzk_pool_destroy; nothing else in cuzk starts threads behind the caller's back.
 *   Idle workers sleep on a condition variable (no spinning).
 *
 * Work splitting
 *   cuzk_pool_for(pool, n, fn, ctx, grain) covers [0, n) with disjoint chunks
 *   [begin, end) handed out dynamically (an atomic counter), so threads that finish early
 *   take more chunks. Chunk size = max(grain, ceil(n / (8 * nthreads))): grain is the
 *   smallest chunk worth the hand-off, the second term bounds the number of chunks.
 *   worker_id is in [0, nthreads) and unique among the threads running one call at any
 *   moment (the caller is 0), so fn may index per-thread scratch with it.
 *   The call returns after every chunk has finished; writes made by fn are visible to the
 *   caller on return (the completion is a mutex hand-off).
 *
 * Threading contract
 *   A pool may be shared: any number of threads may call cuzk_pool_for on it at once.
 *   Each call is a job; idle workers join the open job that has the fewest helpers, and
 *   a worker re-chooses after each chunk once another job has arrived, so concurrent
 *   calls all make progress in parallel and each gets a share of the workers (the caller
 *   always works on its own job, so a call completes even when every worker is busy).
 *   Calls from inside fn (nested) are jobs like any other: they do not deadlock, the
 *   nested call's thread is worker 0 of the nested call, and idle workers may help it.
 *   cuzk_pool_destroy must not run while any call is in progress.
 *   Different pools are independent.
 *   pool == NULL means "no pool": cuzk_pool_for runs inline, cuzk_pool_nthreads returns 1.
 *
 * Scope: priority and stopping
 *   A shared pool serves a daemon's jobs of every priority, and a WinningPoSt synthesis
 *   must not get only a fair share of the cores beside a PoRep one. So each thread has a
 *   scope (cuzk_pool_scope_enter), and every call it makes carries it: idle workers take
 *   the open job of the highest priority first (then the fewest helpers), and a worker
 *   leaves a job after its chunk when a job has been added since it joined, so a job of
 *   higher priority has every worker after at most one chunk each. Nothing interrupts a
 *   chunk. A worker running a job's chunk runs under that job's scope, so nested calls
 *   inherit it.
 *   The scope's cancel flag stops a long stage (a 32 GiB circuit's recording, a 44 GiB
 *   key's decoding) at its next chunk when its job or the daemon is stopped: only calls
 *   made with cuzk_pool_for_stoppable honour it, as only their callers are written to
 *   find the work partly done; cuzk_pool_for under the same scope runs to the end.
 */
#ifndef CUZK_POOL_H
#define CUZK_POOL_H

#include <stddef.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_pool cuzk_pool;

/* Upper bound on nthreads accepted by cuzk_pool_create. */
#define CUZK_POOL_MAX_THREADS 1024u

/* Body of a parallel-for: handles items [begin, end) on participant worker_id. */
typedef void (*cuzk_pool_fn)(void *ctx, size_t begin, size_t end, unsigned worker_id);

/*
 * Creates a pool of nthreads participants (0 = number of online CPUs). *pool receives
 * the pool or NULL on error. Errors: CUZK_ERR_INVALID_ARG (pool NULL, nthreads above
 * CUZK_POOL_MAX_THREADS), CUZK_ERR_NOMEM (allocation or thread creation failed; threads
 * already started are joined before returning).
 */
cuzk_status cuzk_pool_create(cuzk_pool **pool, unsigned nthreads);

/* Stops and joins the worker threads and frees the pool. NULL is a no-op. Must not run
 * concurrently with cuzk_pool_for on the same pool. */
void cuzk_pool_destroy(cuzk_pool *pool);

/* Number of participants (worker threads + the caller); 1 for NULL. */
unsigned cuzk_pool_nthreads(const cuzk_pool *pool);

/*
 * Runs fn over [0, n) in chunks (see the model above) and waits for all of them.
 * n == 0 calls nothing. grain 0 is treated as 1. Errors: CUZK_ERR_INVALID_ARG when fn is
 * NULL.
 */
cuzk_status cuzk_pool_for(cuzk_pool *pool, size_t n, cuzk_pool_fn fn, void *ctx,
                          size_t grain);

/* A thread's pool scope (see the model): the priority its calls' jobs get workers by
 * (higher first; 0 by default) and the flag that stops its stoppable calls (NULL: none). */
typedef struct cuzk_pool_scope {
    int priority;
    const volatile int *cancel;
} cuzk_pool_scope;

/* Makes s the calling thread's scope; returns the one it replaces, for the caller to put
 * back (scopes nest like a stack). */
cuzk_pool_scope cuzk_pool_scope_enter(cuzk_pool_scope s);
/* The calling thread's scope (inside a chunk: the scope of the job it belongs to). */
cuzk_pool_scope cuzk_pool_scope_get(void);

/*
 * cuzk_pool_for that stops handing out chunks once the scope's cancel flag is nonzero:
 * chunks already running finish, the rest never start, and it returns
 * CUZK_ERR_CANCELLED (CUZK_OK when every chunk ran, even if the flag rose meanwhile).
 * The caller must treat its output as garbage on CUZK_ERR_CANCELLED.
 */
cuzk_status cuzk_pool_for_stoppable(cuzk_pool *pool, size_t n, cuzk_pool_fn fn, void *ctx,
                                    size_t grain);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_POOL_H */
