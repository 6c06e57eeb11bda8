/*
 * host_stage.h — pinned host buffers a CUDA prover keeps from one start to the next
 * (cudaHostAlloc once, then reused): the staging its witness uploads are copied through
 * and the buffers its results are read back into.
 *
 * Why: pinning a witness in place (cudaHostRegister) before its upload and unpinning it
 * after, and a cudaMallocHost / cudaFreeHost of the results, are driver calls that a start
 * makes while the device's other worker is launching and synchronising kernels. For a
 * 32 GiB WindowPoSt partition (a 3.75 GiB witness) the partitions that overlapped another
 * worker's preparation or release were held up to 0.6 s longer, with the same kernel
 * times (H200, s15). With the buffers kept, a start in steady state registers and frees
 * no host memory; it copies the witness into a buffer it already has (memcpy, off the
 * device's critical path).
 *
 * A take that must pin a new buffer pins an idle spare of the same size with it, when the
 * limit allows: two workers share a device, and the second one's first start would
 * otherwise pin seconds' worth while the first holds the device, which stalls its kernels.
 *
 * Bounded: at most `limit` bytes pinned at once (CUZK_GPU_STAGE, cuzk/prover.h). A request
 * that cannot be met within it, even after idle buffers are freed, gets NULL, and the
 * caller does what it did before (pins the witness in place, or allocates per start).
 * Threading: any thread; one mutex per pool.
 */
#ifndef CUZK_PROVER_HOST_STAGE_H
#define CUZK_PROVER_HOST_STAGE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "cuzk/pool.h"

#define HOST_STAGE_SLOTS 16

typedef struct host_stage_buf {
    void *p;      /* NULL: an empty slot, unless pending */
    size_t bytes;
    bool busy;
    bool pending; /* being allocated, outside the mutex (bytes already counted) */
} host_stage_buf;

typedef struct host_stage {
    pthread_mutex_t mu;
    host_stage_buf b[HOST_STAGE_SLOTS];
    size_t pinned; /* bytes allocated now, busy or idle */
    size_t limit;  /* 0: the pool is off, every take is NULL */
    unsigned allocs, frees; /* driver calls made so far (the profile log, tests) */
} host_stage;

void host_stage_init(host_stage *s, size_t limit);
/* A pinned buffer of at least `bytes`, or NULL (pool off, over the limit, or the driver
 * refused). Never leaves a CUDA error behind. */
void *host_stage_take(host_stage *s, size_t bytes);
/* Back to the pool, kept for the next take (p NULL: no-op). Nothing may still read or
 * write it (the caller synchronised its streams). */
void host_stage_give(host_stage *s, void *p);
/* memcpy(dst, src, len) in 4 MiB pieces over pool (NULL: on the caller's thread). Why: a
 * lone 32 GiB WindowPoSt start copies its 3.75 GiB witness into staging before its kernels
 * can start, and one thread copies ~5 GB/s. */
void host_stage_copy(cuzk_pool *pool, void *dst, const void *src, size_t len);
/* Frees every buffer; none may be taken. */
void host_stage_destroy(host_stage *s);

#endif /* CUZK_PROVER_HOST_STAGE_H */
