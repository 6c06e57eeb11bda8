/*
 * backend_cuda.cu — the CUDA prover backend: one device, the protocol of DESIGN.md §4.
 *
 * Per device (cuda_prover): a device mutex (a gate handed over by the partition's priority,
 * prio_gate.h) held only around kernel work, a cache of
 * device-resident proving keys and constraint systems (uploaded once, on first use, under
 * the cache lock; CSR matrices with 4-byte coefficient indices into a table of distinct
 * values, the density index lists of bellperson keys, and the NTT domains).
 *
 * Per start (one batch of partitions of one circuit):
 *   before the mutex   the job's streams and events are created, the job admitted and
 *                      its device buffers allocated (stream-ordered) in one section of
 *                      the cache lock, the witnesses copied into the prover's pinned
 *                      staging (host_stage.h; pinned in place when it is full) and the
 *                      first two uploads started on the job's copy stream, one event per
 *                      upload: the kernels wait on the event, the host never does;
 *   under the mutex    per partition: A·w, B·w, C·w (SpMV), input rows, H (NTTs), the H,
 *                      L, A, B_G1 and B_G2 MSMs (0/1 split on the device), results into a
 *                      device array; the upload of partition i+2 is queued behind the
 *                      kernels that read buffer i % 2 (double buffering);
 *   after the mutex    results copied back (already queued), device buffers freed and the
 *                      admission released in one section of the cache lock, staging
 *                      given back to the pool (or witnesses unpinned), streams and events
 *                      destroyed; for a start of the latency classes on a thread of its
 *                      own, after start has returned (cuda_release.cu).
 * The kernels of one partition, and the copies a streamed key or circuit adds to them, are
 * in cuda_partition.cu. Finalize (assembly + self-check) is the common code of
 * src/prover/prover.c.
 *
 * Every CUDA call goes through CUZK_CUDA_TRY; every path releases what it holds. A CUDA
 * error fails that job with its message; a sticky error (the context is lost) also marks
 * the prover broken, so later starts fail fast instead of producing garbage.
 *
 * Test hook: CUZK_GPU_FAULT=alloc|kernel in the environment makes the next start fail at
 * that point (a simulated OOM, or an invalid launch), to test the cleanup paths.
 *
 * Threading: any number of threads may call start on one prover; the cache lock and the
 * device mutex serialise what must be; the waiter of the highest priority takes the
 * device next (cuzk_prove_opts.priority), so a prepared LOW partition yields to a CRITICAL one.
 */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/gpu.h"
#include "gpu/gpu_export.h"
#include "prover/cuda_resident.h"
#include "prover/cuda_run.h"
#include "prover/host_pin.h"
#include "prover/prover_internal.h"

static const cuzk_prove_stage k_ev_stage[EV_COUNT] = {
    CUZK_STAGE_COUNT,   CUZK_STAGE_EVAL,  CUZK_STAGE_NTT_H,    CUZK_STAGE_MSM_H,
    CUZK_STAGE_MSM_L,   CUZK_STAGE_MSM_A, CUZK_STAGE_MSM_B_G1, CUZK_STAGE_MSM_B_G2};

/* The host arrays of a witness that cross PCIe: the dense values, or bits + dense. */
static void witness_parts(const cuzk_witness *w, const void *part[2])
{
    part[0] = w->kind == CUZK_WITNESS_COMPACT ? (const void *)w->bits : (const void *)w->values;
    part[1] = w->kind == CUZK_WITNESS_COMPACT ? (const void *)w->dense : NULL;
}

/* The host bytes partition i's part k is uploaded from: its staging copy, or the witness
 * itself (pinned in place, or pageable at worst). */
static const void *upload_src(const run *R, const cuzk_witness *w, size_t i, int k)
{
    if (R->h_stage)
        return (const char *)R->h_stage + i * R->stage_stride + (k ? R->stage_off1 : 0);
    const void *part[2];
    witness_parts(w, part);
    return part[k];
}

static cuzk_status upload_witness(run *R, const cuzk_witness *w, size_t i, int buf,
                                  cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    CUZK_CUDA_TRY(err, cudaStreamWaitEvent(R->copy, R->consumed[buf], 0));
    for (int k = 0; k < 2; k++)
        if (R->up_bytes[k])
            CUZK_CUDA_TRY(err, cudaMemcpyAsync(R->d_up[buf][k], upload_src(R, w, i, k),
                                               R->up_bytes[k], cudaMemcpyHostToDevice, R->copy));
    CUZK_CUDA_TRY(err, cudaEventRecord(R->uploaded[buf], R->copy));
    return CUZK_OK;
fail:
    return st;
}

/* Partition i's witness copied into its staging place (over pool); with buf >= 0 also
 * uploaded into slot buf, a chunk at a time right behind the copy, so the DMA of one chunk
 * overlaps the copy of the next. */
#define STAGE_CHUNK ((size_t)64 << 20)
static cuzk_status stage_witness(run *R, const cuzk_witness *w, size_t i, int buf,
                                 cuzk_pool *pool, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    const void *part[2];
    witness_parts(w, part);
    if (buf >= 0)
        CUZK_CUDA_TRY(err, cudaStreamWaitEvent(R->copy, R->consumed[buf], 0));
    for (int k = 0; k < 2; k++) {
        char *dst = (char *)upload_src(R, w, i, k);
        const char *src = (const char *)part[k];
        for (size_t off = 0; off < R->up_bytes[k]; off += STAGE_CHUNK) {
            size_t len = R->up_bytes[k] - off < STAGE_CHUNK ? R->up_bytes[k] - off : STAGE_CHUNK;
            host_stage_copy(pool, dst + off, src + off, len);
            if (buf >= 0)
                CUZK_CUDA_TRY(err, cudaMemcpyAsync((char *)R->d_up[buf][k] + off, dst + off, len,
                                                   cudaMemcpyHostToDevice, R->copy));
        }
    }
    if (buf >= 0)
        CUZK_CUDA_TRY(err, cudaEventRecord(R->uploaded[buf], R->copy));
    return CUZK_OK;
fail:
    return st;
}

/* A sticky error leaves the context unusable: later starts must not run on it. */
void cuda_note_sticky(cuda_prover *cp, const cuzk_error *err)
{
    cudaError_t e = cudaPeekAtLastError();
    if (e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure ||
        e == cudaErrorHardwareStackError || e == cudaErrorIllegalInstruction ||
        e == cudaErrorMisalignedAddress || e == cudaErrorInvalidAddressSpace ||
        e == cudaErrorInvalidPc || e == cudaErrorECCUncorrectable) {
        /* the message first: readers test the flag, then read it */
        if (!__atomic_load_n(&cp->broken, __ATOMIC_ACQUIRE))
            snprintf(cp->broken_msg, sizeof cp->broken_msg, "%s",
                     err ? err->msg : cudaGetErrorString(e));
        __atomic_store_n(&cp->broken, 1, __ATOMIC_RELEASE);
    }
}

/* The MSM scratch of a partition (the MSMs of gpu_msm_sizes) with windows of at most
 * `bits` (cuzk/gpu.h; ~0u: the default windows). */
static size_t msm_scratch(const cuzk_gpu_shape *s, unsigned bits)
{
    size_t h, g1, g2;
    gpu_msm_sizes(s, &h, &g1, &g2);
    return max2(max2(cuzk_gpu_g1s_msm_scratch_size_capped(h, bits),
                     cuzk_gpu_g1s_msm_auto_scratch_size_capped(g1, bits)),
                cuzk_gpu_g2s_msm_auto_scratch_size_capped(g2, bits));
}

/* A card too small for the working set with the default MSM windows proves with narrower
 * ones (msm_plan_fit: fewer buckets; at 2^27 c = 22 -> 19 saves 3.9 GiB): the widest cap
 * whose working set fits what the device could give one job, every idle resident evicted
 * and every other job's working set back. The capacity, not the free memory of the
 * moment, so a second worker waits for the first rather than shrinking its windows. A
 * cap is logged when it changes. (Measured on the H200 with CUZK_GPU_MEM_LIMIT=24G: the
 * scratch goes from 11.75 to 7.18 GiB at the narrowest windows; what is left is the
 * canonical scalars, the sorted pairs and the split's index lists.) */
static cuzk_status msm_window_cap(cuda_prover *cp, const cuzk_gpu_shape *shape,
                                  size_t *scratch, size_t *need, size_t stream_need,
                                  cuzk_error *err)
{
    size_t free_b = 0, total_b = 0, could = 0;
    cuzk_status st = CUZK_OK;
    /* the pool's idle reserve counted first: trimming the stream-ordered pool on every
     * start would make the next allocations go to the driver (cuda_resident.h, free_mode);
     * only a card that looks too small is measured after a trim */
    for (int trim = 0; trim < 2; trim++) {
        pthread_mutex_lock(&cp->cache_mu);
        st = device_free(cp, trim ? FREE_TRIM : FREE_POOLED, &free_b, &total_b, err);
        could = free_b + idle_bytes(cp) + cp->admitted_bytes;
        pthread_mutex_unlock(&cp->cache_mu);
        if (st != CUZK_OK || *need + stream_need + HEADROOM_BYTES <= could)
            return st;
    }
    size_t base = *need - *scratch, sc = *scratch;
    unsigned bits;
    for (bits = 21; bits >= 4; bits--) {
        sc = msm_scratch(shape, bits);
        if (base + sc + stream_need + HEADROOM_BYTES <= could)
            break;
    }
    /* Nothing fits: the default windows, and admission fails with its numbers (narrower
     * windows would only slow the job down on a card that can take it later). At 2^27
     * the rest of the working set (a and b, two n-vectors, and the expanded witness:
     * 12.5 GiB) and 8.4 GiB of scratch at 21-bit windows fit a 24 GiB card (measured). */
    if (bits < 4)
        return CUZK_OK;
    if (__atomic_exchange_n(&cp->msm_cap_logged, bits, __ATOMIC_RELAXED) != bits)
        cuda_log(cp, true, "gpu:%d: MSM windows capped at %u bits for 2^%u: the working set "
                 "needs %.2f GiB with the default windows and %.2f GiB of %.2f GiB can be "
                 "freed on the device (MSM scratch %.2f -> %.2f GiB)", cp->dev, bits,
                 shape->log2n, (double)(*need + stream_need) / (1u << 30),
                 (double)could / (1u << 30), (double)total_b / (1u << 30),
                 (double)*scratch / (1u << 30), (double)sc / (1u << 30));
    *need = base + sc;
    *scratch = sc;
    return CUZK_OK;
}

/* The working set admission counted, allocated under cache_mu (see unuse): abc_bytes for
 * a, b (, c), g_bytes for the density gathers when they do not fit there (0: they do),
 * w_bytes for the expanded compact witness (0: dense). */
static cuzk_status alloc_working_set(cuda_prover *cp, run *R, const cuzk_prove_job *job,
                                     size_t slots, size_t abc_bytes, size_t g_bytes,
                                     size_t w_bytes, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    if ((st = cuda_fault("alloc", err)) != CUZK_OK)
        return st;
    for (size_t b = 0; b < slots; b++)
        for (int k = 0; k < 2; k++)
            if (R->up_bytes[k] &&
                (st = pool_alloc(cp, &R->d_up[b][k], R->up_bytes[k], R->copy, err)) != CUZK_OK)
                return st;
    if (w_bytes && (st = pool_alloc(cp, (void **)&R->d_w, w_bytes, R->copy, err)) != CUZK_OK)
        return st;
    if ((st = pool_alloc(cp, (void **)&R->d_abc, abc_bytes, R->copy, err)) != CUZK_OK)
        return st;
    if (g_bytes && (st = pool_alloc(cp, (void **)&R->d_g, g_bytes, R->copy, err)) != CUZK_OK)
        return st;
    if ((st = pool_alloc(cp, &R->d_scratch, R->scratch_size, R->copy, err)) != CUZK_OK)
        return st;
    if ((st = pool_alloc(cp, (void **)&R->d_res, job->n * sizeof(cuzk_groth16_msm_results),
                         R->copy, err)) != CUZK_OK)
        return st;
    R->h_res = (cuzk_groth16_msm_results *)host_stage_take(
        &cp->stage, job->n * sizeof(cuzk_groth16_msm_results));
    R->h_res_kept = R->h_res != NULL;
    if (!R->h_res_kept)
        CUZK_CUDA_TRY(err, cudaMallocHost((void **)&R->h_res,
                                          job->n * sizeof(cuzk_groth16_msm_results)));
    if (R->streamed || R->csr_streamed) {
        for (int b = 0; b < 2; b++) {
            if ((st = pool_alloc(cp, &R->d_stage[b], R->stage_bytes, R->copy, err)) != CUZK_OK)
                return st;
            CUZK_CUDA_TRY(err, cudaEventCreateWithFlags(&R->stage_ready[b],
                                                        cudaEventDisableTiming));
            CUZK_CUDA_TRY(err, cudaEventCreateWithFlags(&R->stage_free[b],
                                                        cudaEventDisableTiming));
            CUZK_CUDA_TRY(err, cudaEventRecord(R->stage_free[b], R->copy));
        }
    }
    if (R->streamed) {
        size_t n1 = job->n * 4 * R->maxc1, n2 = job->n * R->maxc2;
        if ((st = pool_alloc(cp, (void **)&R->d_pg1, n1 * sizeof(cuzk_g1_jac), R->copy, err)) !=
                CUZK_OK ||
            (st = pool_alloc(cp, (void **)&R->d_pg2, n2 * sizeof(cuzk_g2_jac), R->copy, err)) !=
                CUZK_OK)
            return st;
        R->h_pg1 = (cuzk_g1_jac *)host_stage_take(&cp->stage, n1 * sizeof(cuzk_g1_jac));
        R->h_pg2 = (cuzk_g2_jac *)host_stage_take(&cp->stage, n2 * sizeof(cuzk_g2_jac));
        R->h_pg_kept = R->h_pg1 && R->h_pg2;
        if (!R->h_pg_kept) {
            host_stage_give(&cp->stage, R->h_pg1);
            host_stage_give(&cp->stage, R->h_pg2);
            R->h_pg1 = NULL;
            R->h_pg2 = NULL;
            CUZK_CUDA_TRY(err, cudaMallocHost((void **)&R->h_pg1, n1 * sizeof(cuzk_g1_jac)));
            CUZK_CUDA_TRY(err, cudaMallocHost((void **)&R->h_pg2, n2 * sizeof(cuzk_g2_jac)));
        }
    }
    /* the compute stream may use the buffers only after their allocation */
    CUZK_CUDA_TRY(err, cudaEventRecord(R->consumed[0], R->copy));
    CUZK_CUDA_TRY(err, cudaEventRecord(R->consumed[1], R->copy));
fail:
    return st;
}

static cuzk_status cuda_start(cuzk_prover *p, cuzk_prove_job *job, const volatile int *cancel,
                              cuzk_error *err)
{
    cuda_prover *cp = (cuda_prover *)p->impl;
    const cuzk_groth16_pk *pk = job->pk;
    const cuzk_r1cs *r1cs = job->r1cs;
    cuzk_status st = CUZK_OK;
    run R;
    memset(&R, 0, sizeof R);
    bool locked = false, admitted = false;
    dev_key *k = NULL;
    dev_circuit *c = NULL;
    cuzk_gpu_domain *gd = NULL;
    double t0 = cuzk_prover_now_ms(), t_lock = 0, t_unlock = 0;
    /* the profile's marks before the mutex: window cap, resident gets, streams and events,
     * admission, staging */
    double tp[5] = {0, 0, 0, 0, 0};

    /* The working set, known before anything is allocated: key_get weighs it against the
     * key to decide between a resident and a streamed key. Its pieces are gpu_ws_plan's
     * (gpu_need.c), the rule a memory plan counts with (cuzk_prover_gpu_need): compact
     * witnesses (one kind and map per batch: prover.c checks) cross PCIe as bitmap + dense
     * values and are expanded on the device; the density gathers run after H, in b (and c)
     * when they fit there. */
    cuzk_gpu_shape shape;
    gpu_shape_of(&shape, pk, r1cs, &job->ws[0], job->n);
    gpu_ws ws;
    gpu_ws_plan(&ws, &shape);
    const bool compact = shape.compact;
    R.scratch_size = msm_scratch(&shape, ~0u);
    size_t need = ws.base + R.scratch_size;
    /* what streaming would add, at the smallest staging, for key_get's decision */
    size_t stream_need = stage_plan(&R, job, ws.g1_max,
                                    cp->stage_bytes_req ? cp->stage_bytes_req : STAGE_BYTES_MIN);

    if (cp->broken)
        return cuzk_error_set(err, CUZK_ERR_CUDA, "gpu:%d is out of service after: %s",
                              cp->dev, cp->broken_msg);
    CUZK_CUDA_TRY(err, cudaSetDevice(cp->dev));
    if ((st = msm_window_cap(cp, &shape, &R.scratch_size, &need, stream_need, err)) != CUZK_OK)
        goto fail;
    tp[0] = cuzk_prover_now_ms();


    pthread_mutex_lock(&cp->cache_mu);
    for (;;) {
        /* Each entry is weighed next to the working set plus the staging the OTHER would
         * need if streamed: a key already whole here streams nothing, a whole circuit
         * neither. Counting the key's staging regardless made a 32 GiB PoRep circuit
         * stream beside its device-only key on an 80 GB card, 0.06 GiB short (H100, s25:
         * 21 s a proof, not 13). */
        st = circuit_get(cp, pk, r1cs, need + (key_whole_here(cp, pk) ? 0 : stream_need), &c,
                         err);
        if (st == CUZK_OK)
            c->slot.in_use++;
        if (st == CUZK_OK && compact)
            st = map_get(cp, c, job->ws[0].map, err);
        if (st == CUZK_OK)
            st = domain_get(cp, pk, &gd, err);
        if (st == CUZK_OK &&
            (st = key_get(cp, pk, need + (c->streamed ? stream_need : 0), &k, err)) == CUZK_OK)
            k->slot.in_use++;
        /* short while a latency start's late release still frees its working set (at
         * most a second): wait for it rather than fail. Short beside starts still in
         * flight is the engine's to wait out (engine_sched_dev_memory_wait): waiting here
         * for those would wait for a bulk stream to pause. */
        if (st != CUZK_ERR_NOMEM || !cp->late || (cancel && *cancel))
            break;
        if (c) {
            circuit_unuse(c);
            c = NULL;
        }
        pthread_cond_wait(&cp->released, &cp->cache_mu);
    }
    cp->clock++;
    if (k)
        k->slot.last_used = cp->clock;
    if (c)
        c->slot.last_used = cp->clock;
    pthread_mutex_unlock(&cp->cache_mu);
    if (st != CUZK_OK)
        goto fail;
    tp[1] = cuzk_prover_now_ms();
    R.streamed = k->streamed;
    R.csr_streamed = c->streamed;
    job->t.srs_streamed = k->streamed;
    if (R.streamed || R.csr_streamed) {
        /* a streamed matrix is copied a block of rows at a time: a buffer may hold all of it */
        size_t csr_max = 0;
        for (int m = 0; R.csr_streamed && m < CUZK_R1CS_MATRICES; m++)
            csr_max = max2(csr_max, (r1cs->n_constraints + 1) * 8 + r1cs->m[m].nnz * 8);
        size_t want = cp->stage_bytes_req;
        if (!want) {
            /* at most a quarter of what is spare, so another working set may still fit */
            size_t free_b = 0, total_b = 0, spare = 0;
            pthread_mutex_lock(&cp->cache_mu);
            st = device_free(cp, FREE_POOLED, &free_b, &total_b, err);
            pthread_mutex_unlock(&cp->cache_mu);
            if (st != CUZK_OK)
                goto fail;
            if (free_b > need + HEADROOM_BYTES)
                spare = (free_b - need - HEADROOM_BYTES) / 4;
            want = spare > STAGE_BYTES_MAX   ? STAGE_BYTES_MAX
                   : spare < STAGE_BYTES_MIN ? STAGE_BYTES_MIN
                                             : spare;
        }
        stream_need = stage_plan(&R, job, ws.g1_max, want, csr_max);
    }
    if (R.streamed)
        need += stream_need;
    else if (R.csr_streamed)
        need += 2 * R.stage_bytes;

    /* ---- before the mutex: streams, events, buffers, pinned witnesses, first uploads */
    CUZK_CUDA_TRY(err, cudaStreamCreateWithFlags(&R.copy, cudaStreamNonBlocking));
    CUZK_CUDA_TRY(err, cudaStreamCreateWithFlags(&R.compute, cudaStreamNonBlocking));
    for (int b = 0; b < 2; b++) {
        CUZK_CUDA_TRY(err, cudaEventCreateWithFlags(&R.uploaded[b], cudaEventDisableTiming));
        CUZK_CUDA_TRY(err, cudaEventCreateWithFlags(&R.consumed[b], cudaEventDisableTiming));
    }
    R.n_stage_ev = job->n * EV_COUNT;
    R.stage_ev = (cudaEvent_t *)calloc(R.n_stage_ev, sizeof *R.stage_ev);
    R.reg = (void **)calloc(2 * job->n, sizeof *R.reg);
    R.compact = compact;
    R.circ = c;
    R.up_bytes[0] = ws.up_bytes[0];
    R.up_bytes[1] = ws.up_bytes[1];
    if (!R.stage_ev || !R.reg) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "gpu: out of host memory");
        goto fail;
    }
    for (size_t e = 0; e < R.n_stage_ev; e++)
        CUZK_CUDA_TRY(err, cudaEventCreate(&R.stage_ev[e]));
    tp[2] = cuzk_prover_now_ms();
    {
        /* Admission: idle residents may go to make room; if the card is still too full
         * while other jobs hold working sets, wait for one of them to finish rather than
         * fail (two workers at 2^27 may not fit side by side: they then take turns). */
        bool replanned = false;
        pthread_mutex_lock(&cp->cache_mu);
        for (;;) {
            st = make_room(cp, need, true, "the proof's working set", NULL, err);
            if (st != CUZK_ERR_NOMEM || (cancel && *cancel))
                break;
            if (cp->admitted > 0) {
                pthread_cond_wait(&cp->released, &cp->cache_mu);
                continue;
            }
            /* Alone and still short: the card has less than when the windows were
             * planned (this job's own key and circuit were counted as evictable then, its
             * uploads came since, or another process took memory). Plan them once more on
             * what it has now. */
            if (replanned)
                break;
            replanned = true;
            pthread_mutex_unlock(&cp->cache_mu);
            cuda_log(cp, true, "gpu:%d: the proof's working set (%.2f GiB) does not fit the "
                     "card as planned: MSM windows planned again", cp->dev,
                     (double)need / (1u << 30));
            st = msm_window_cap(cp, &shape, &R.scratch_size, &need, 0, err);
            pthread_mutex_lock(&cp->cache_mu);
            if (st != CUZK_OK)
                break;
        }
        if (st == CUZK_OK) {
            cp->admitted++;
            cp->admitted_bytes += need;
            admitted = true;
            st = alloc_working_set(cp, &R, job, ws.slots, ws.abc_bytes, ws.g_bytes, ws.w_bytes,
                                   err);
        }
        pthread_mutex_unlock(&cp->cache_mu);
        if (st != CUZK_OK)
            goto fail;
    }
    tp[3] = cuzk_prover_now_ms();
    {
        /* The witnesses go through a pinned buffer the prover keeps (host_stage.h): copied
         * there, uploaded from there. When the pool cannot give one (CUZK_GPU_STAGE), they
         * are pinned in place for the job (counted: host_pin.h), or copied from pageable
         * memory if even that fails: slower, still correct. */
        R.stage_off1 = (ws.up_bytes[0] + 255) / 256 * 256;
        R.stage_stride = (R.stage_off1 + ws.up_bytes[1] + 255) / 256 * 256;
        if (job->n <= SIZE_MAX / R.stage_stride)
            R.h_stage = host_stage_take(&cp->stage, job->n * R.stage_stride);
        if (R.h_stage) {
            for (size_t i = 0; i < job->n; i++)
                if ((st = stage_witness(&R, &job->ws[i], i, i < 2 ? (int)i : -1, p->pool,
                                        err)) != CUZK_OK)
                    goto fail;
        } else {
            if (cp->stage.limit &&
                !__atomic_exchange_n(&cp->stage_refused_logged, 1u, __ATOMIC_RELAXED))
                cuda_log(cp, true, "gpu:%d: %.2f GiB of witnesses do not fit the pinned "
                         "staging (CUZK_GPU_STAGE, %.2f GiB, %.2f GiB pinned now): pinned in "
                         "place instead, which stalls the other worker's kernels", cp->dev,
                         (double)job->n * R.stage_stride / (1u << 30),
                         (double)cp->stage.limit / (1u << 30),
                         (double)cp->stage.pinned / (1u << 30));
            for (size_t i = 0; i < job->n; i++) {
                const void *part[2];
                witness_parts(&job->ws[i], part);
                for (int k = 0; k < 2; k++) {
                    if (!ws.up_bytes[k])
                        continue;
                    if (host_pin_take(part[k], ws.up_bytes[k]))
                        R.reg[R.n_reg++] = (void *)part[k];
                }
            }
            for (size_t i = 0; i < job->n && i < 2; i++)
                if ((st = upload_witness(&R, &job->ws[i], i, (int)i, err)) != CUZK_OK)
                    goto fail;
        }
    }
    if (cancel && *cancel) {
        st = cuzk_error_set(err, CUZK_ERR_CANCELLED, "gpu: cancelled");
        goto fail;
    }

    /* ---- under the mutex: kernels only */
    t_lock = tp[4] = cuzk_prover_now_ms();
    prio_gate_acquire(&cp->device_gate, job->priority);
    locked = true;
    job->t.ms[CUZK_STAGE_LOCK_WAIT] += cuzk_prover_now_ms() - t_lock;
    t_lock = cuzk_prover_now_ms();
    job->t.device_begin_ms = t_lock;
    for (size_t i = 0; i < job->n; i++) {
        if (cancel && *cancel) {
            st = cuzk_error_set(err, CUZK_ERR_CANCELLED, "gpu: cancelled");
            goto fail;
        }
        if ((st = prove_one(&R, job, i, k, c, gd, err)) != CUZK_OK)
            goto fail;
        if (i + 2 < job->n &&
            (st = upload_witness(&R, &job->ws[i + 2], i + 2, (int)(i & 1), err)) != CUZK_OK)
            goto fail;
    }
    CUZK_CUDA_TRY(err, cudaMemcpyAsync(R.h_res, R.d_res,
                                       job->n * sizeof(cuzk_groth16_msm_results),
                                       cudaMemcpyDeviceToHost, R.compute));
    if (R.streamed) {
        CUZK_CUDA_TRY(err, cudaMemcpyAsync(R.h_pg1, R.d_pg1,
                                           job->n * 4 * R.maxc1 * sizeof(cuzk_g1_jac),
                                           cudaMemcpyDeviceToHost, R.compute));
        CUZK_CUDA_TRY(err, cudaMemcpyAsync(R.h_pg2, R.d_pg2,
                                           job->n * R.maxc2 * sizeof(cuzk_g2_jac),
                                           cudaMemcpyDeviceToHost, R.compute));
    }
    CUZK_CUDA_TRY(err, cudaStreamSynchronize(R.compute));
    prio_gate_release(&cp->device_gate);
    locked = false;
    t_unlock = cuzk_prover_now_ms();
    job->t.device_end_ms = t_unlock;
    job->t.ms[CUZK_STAGE_DEVICE] += t_unlock - t_lock;

    /* ---- after the mutex */
    if (R.streamed)
        sum_parts(&R, job);
    memcpy(job->msm, R.h_res, job->n * sizeof(cuzk_groth16_msm_results));
    for (size_t i = 0; i < job->n; i++)
        for (int e = 1; e < EV_COUNT; e++) {
            float ms = 0;
            CUZK_CUDA_TRY(err, cudaEventElapsedTime(&ms, R.stage_ev[i * EV_COUNT + e - 1],
                                                    R.stage_ev[i * EV_COUNT + e]));
            job->t.ms[k_ev_stage[e]] += ms;
        }
    if (cp->profile && job->n) {
        /* the mutex's time that is not between the first kernel's start and the last
         * one's end: waits at its edges (uploads, the final copy and sync) */
        float span = 0;
        if (cudaEventElapsedTime(&span, R.stage_ev[EV_START],
                                 R.stage_ev[(job->n - 1) * EV_COUNT + EV_B2]) != cudaSuccess)
            (void)cudaGetLastError(); /* the log line is all it is for */
        cuda_log(cp, false, "gpu:%d: profile: %zu partition(s): before the mutex %.1f ms "
                 "(window cap %.1f, resident %.1f, streams %.1f, admission %.1f, staging "
                 "%.1f; lock wait %.1f), held %.1f ms, kernels' span %.1f ms, pool trims so "
                 "far %u, pinned staging %s (%u allocations so far)",
                 cp->dev, job->n, t_lock - t0, tp[0] - t0, tp[1] - tp[0], tp[2] - tp[1],
                 tp[3] - tp[2], tp[4] - tp[3], job->t.ms[CUZK_STAGE_LOCK_WAIT],
                 t_unlock - t_lock, (double)span, __atomic_load_n(&cp->trims, __ATOMIC_RELAXED),
                 R.h_stage ? "used" : "not used", cp->stage.allocs);
    }
    cuda_run_end(cp, k, c, &R, admitted, need, job->priority);
    job->t.ms[CUZK_STAGE_UPLOAD] += (t_lock - t0) - job->t.ms[CUZK_STAGE_LOCK_WAIT];
    return CUZK_OK;
fail:
    cuda_note_sticky(cp, err);
    cuda_run_end(cp, k, c, &R, admitted, need, 0);
    if (locked)
        prio_gate_release(&cp->device_gate);
    (void)t_unlock;
    return st;
}

/* ---- prover lifetime ------------------------------------------------------------------ */

static void cuda_forget(cuzk_prover *p, const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs)
{
    cuda_prover *cp = (cuda_prover *)p->impl;
    pthread_mutex_lock(&cp->cache_mu);
    /* the caller promises no job runs with them; a late release may still hold them */
    while (cuda_late_uses(cp, pk, r1cs))
        pthread_cond_wait(&cp->released, &cp->cache_mu);
    (void)cudaSetDevice(cp->dev);
    resident_forget(cp, pk, r1cs);
    pthread_mutex_unlock(&cp->cache_mu);
}

static void cuda_close(cuzk_prover *p)
{
    cuda_prover *cp = (cuda_prover *)p->impl;
    if (!cp)
        return;
    pthread_mutex_lock(&cp->cache_mu);
    while (cp->late)
        pthread_cond_wait(&cp->released, &cp->cache_mu);
    pthread_mutex_unlock(&cp->cache_mu);
    (void)cudaSetDevice(cp->dev);
    for (int i = 0; i < MAX_RESIDENT; i++) {
        key_release(&cp->keys[i]);
        circuit_release(&cp->circuits[i]);
        cuzk_gpu_domain_destroy(cp->domains[i].gd);
    }
    host_stage_destroy(&cp->stage);
    prio_gate_destroy(&cp->device_gate);
    pthread_mutex_destroy(&cp->cache_mu);
    pthread_cond_destroy(&cp->released);
    free(cp);
    p->impl = NULL;
}

/* "123", "64K", "40G" -> bytes; false if malformed. */
static bool parse_bytes(const char *v, size_t *out)
{
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    int sh = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : *end == 'T' ? 40 : 0;
    if (end == v || (sh && *++end) || (!sh && *end) || x == 0 || x > (SIZE_MAX >> sh))
        return false;
    *out = (size_t)x << sh;
    return true;
}

/* CUZK_GPU_MEM_LIMIT, CUZK_GPU_SRS and CUZK_GPU_CSR (cuzk/prover.h "Device memory"). */
static cuzk_status read_env(cuda_prover *cp, cuzk_error *err)
{
    const char *lim = getenv("CUZK_GPU_MEM_LIMIT"), *srs = getenv("CUZK_GPU_SRS");
    const char *csr = getenv("CUZK_GPU_CSR"), *prof = getenv("CUZK_GPU_PROFILE");
    const char *stage = getenv("CUZK_GPU_STAGE");
    cp->profile = prof && *prof && strcmp(prof, "0") != 0;
    size_t stage_limit = cuzk_prover_gpu_stage_default();
    if (stage && *stage && strcmp(stage, "0") == 0)
        stage_limit = 0;
    else if (stage && *stage && !parse_bytes(stage, &stage_limit))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "CUZK_GPU_STAGE=%s: want a byte count (suffix K, M, G or T) or 0",
                              stage);
    cp->stage.limit = stage_limit; /* host_stage_init keeps it once read_env succeeds */
    if (lim && *lim && !parse_bytes(lim, &cp->mem_limit))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "CUZK_GPU_MEM_LIMIT=%s: want a byte count (suffix K, M, G or T)",
                              lim);
    if (srs && *srs && strcmp(srs, "auto") != 0) {
        if (strncmp(srs, "stream", 6) != 0 || (srs[6] && srs[6] != ':') ||
            (srs[6] == ':' && !parse_bytes(srs + 7, &cp->stage_bytes_req)))
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                  "CUZK_GPU_SRS=%s: want auto, stream or stream:BYTES", srs);
        cp->force_stream = true;
    }
    if (csr && *csr && strcmp(csr, "auto") != 0) {
        if (strcmp(csr, "stream") != 0)
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                  "CUZK_GPU_CSR=%s: want auto or stream", csr);
        cp->force_stream_csr = true;
    }
    return CUZK_OK;
}

static bool cuda_in_service(const cuzk_prover *p, char *why, size_t cap)
{
    const cuda_prover *cp = (const cuda_prover *)p->impl;
    if (!__atomic_load_n(&cp->broken, __ATOMIC_ACQUIRE))
        return true;
    if (why && cap)
        snprintf(why, cap, "%s", cp->broken_msg);
    return false;
}

static cuzk_status cuda_key_adopt(cuzk_prover *p, const cuzk_groth16_pk *pk, cuzk_error *err)
{
    cuda_prover *cp = (cuda_prover *)p->impl;
    pthread_mutex_lock(&cp->cache_mu);
    cuzk_status st = resident_key_adopt(cp, pk, err);
    pthread_mutex_unlock(&cp->cache_mu);
    return st;
}

static const cuzk_prover_ops k_cuda_ops = {cuda_start, cuda_forget, cuda_close, cuda_in_service,
                                           cuda_key_adopt};

extern "C" cuzk_status cuzk_prover_cuda_init(cuzk_prover *p, int device, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    int count = cuzk_gpu_device_count();
    if (device < 0 || device >= count)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "gpu:%d: %d CUDA device(s) present",
                              device, count);
    cudaDeviceProp prop;
    cuda_prover *cp = NULL;
    CUZK_CUDA_TRY(err, cudaSetDevice(device));
    CUZK_CUDA_TRY(err, cudaGetDeviceProperties(&prop, device));
    {
        /* Keep freed stream-ordered memory in the pool: a proof's buffers are the next
         * proof's, and returning them to the driver each time costs a device sync. */
        cudaMemPool_t pool;
        uint64_t keep = UINT64_MAX;
        CUZK_CUDA_TRY(err, cudaDeviceGetDefaultMemPool(&pool, device));
        CUZK_CUDA_TRY(err, cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
    }
    cp = (cuda_prover *)calloc(1, sizeof *cp);
    if (!cp)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "gpu: out of host memory");
    cp->dev = device;
    cp->owner = p;
    if ((st = read_env(cp, err)) != CUZK_OK) {
        free(cp);
        return st;
    }
    host_stage_init(&cp->stage, cp->stage.limit);
    prio_gate_init(&cp->device_gate);
    pthread_mutex_init(&cp->cache_mu, NULL);
    pthread_cond_init(&cp->released, NULL);
    p->impl = cp;
    p->ops = &k_cuda_ops;
    p->pinned_host = cp->stage.limit;
    snprintf(p->desc, sizeof p->desc, "gpu:%d %.64s (%.1f GiB, %d SMs)", device, prop.name,
             (double)prop.totalGlobalMem / (1u << 30), prop.multiProcessorCount);
    return CUZK_OK;
fail:
    return st;
}
