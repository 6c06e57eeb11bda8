/*
 * cuda_release.cu — the end of a CUDA start (cuda_run.h, cuda_run_end): its device memory
 * and admission given back and its uses of the resident key and circuit dropped, together
 * under cache_mu (unuse); then its host buffers (staging back to the pool, unpins, result
 * buffers), events and streams (run_release). Inline, or for a start of the latency
 * classes on a thread of its own after the start has returned (late release); forget and
 * close wait for those (cuda_late_uses, cuda_prover.late).
 * Threading: any thread; cache_mu as said.
 */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_export.h"
#include "prover/cuda_resident.h"
#include "prover/cuda_run.h"
#include "prover/host_pin.h"
#include "prover/prover_internal.h"

/* Drain first: nothing may still read or write the buffers we free. Errors are ignored
 * here: the first one was reported by the failing call. The memory goes back to the
 * stream-ordered pool, which keeps it (cuzk_prover_cuda_init): device_free counts it as
 * free once trimmed. */
static void run_free_device(run *R)
{
    if (R->copy)
        CUZK_CUDA_IGNORE(cudaStreamSynchronize(R->copy));
    if (R->compute)
        CUZK_CUDA_IGNORE(cudaStreamSynchronize(R->compute));
    cudaStream_t fs = R->compute ? R->compute : 0;
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < 2; k++)
            if (R->d_up[b][k])
                CUZK_CUDA_IGNORE(cudaFreeAsync(R->d_up[b][k], fs));
    if (R->d_w)
        CUZK_CUDA_IGNORE(cudaFreeAsync(R->d_w, fs));
    if (R->d_abc)
        CUZK_CUDA_IGNORE(cudaFreeAsync(R->d_abc, fs));
    if (R->d_g)
        CUZK_CUDA_IGNORE(cudaFreeAsync(R->d_g, fs));
    if (R->d_scratch)
        CUZK_CUDA_IGNORE(cudaFreeAsync(R->d_scratch, fs));
    if (R->d_res)
        CUZK_CUDA_IGNORE(cudaFreeAsync(R->d_res, fs));
    for (int b = 0; b < 2; b++)
        if (R->d_stage[b])
            CUZK_CUDA_IGNORE(cudaFreeAsync(R->d_stage[b], fs));
    if (R->d_pg1)
        CUZK_CUDA_IGNORE(cudaFreeAsync(R->d_pg1, fs));
    if (R->d_pg2)
        CUZK_CUDA_IGNORE(cudaFreeAsync(R->d_pg2, fs));
    if (R->compute)
        CUZK_CUDA_IGNORE(cudaStreamSynchronize(R->compute));
    memset(R->d_up, 0, sizeof R->d_up);
    memset(R->d_stage, 0, sizeof R->d_stage);
    R->d_w = NULL;
    R->d_abc = R->d_g = NULL;
    R->d_scratch = NULL;
    R->d_res = NULL;
    R->d_pg1 = NULL;
    R->d_pg2 = NULL;
}

/* Everything else the run holds (after unuse, which frees its device memory). */
static void run_release(cuda_prover *cp, run *R)
{
    run_free_device(R);
    host_stage_give(&cp->stage, R->h_stage);
    if (R->h_res_kept)
        host_stage_give(&cp->stage, R->h_res);
    else if (R->h_res)
        CUZK_CUDA_IGNORE(cudaFreeHost(R->h_res));
    if (R->h_pg_kept) {
        host_stage_give(&cp->stage, R->h_pg1);
        host_stage_give(&cp->stage, R->h_pg2);
    } else {
        if (R->h_pg1)
            CUZK_CUDA_IGNORE(cudaFreeHost(R->h_pg1));
        if (R->h_pg2)
            CUZK_CUDA_IGNORE(cudaFreeHost(R->h_pg2));
    }
    for (size_t i = 0; i < R->n_reg; i++)
        host_pin_drop(R->reg[i]);
    free(R->reg);
    for (int b = 0; b < 2; b++) {
        if (R->uploaded[b])
            CUZK_CUDA_IGNORE(cudaEventDestroy(R->uploaded[b]));
        if (R->consumed[b])
            CUZK_CUDA_IGNORE(cudaEventDestroy(R->consumed[b]));
        if (R->stage_ready[b])
            CUZK_CUDA_IGNORE(cudaEventDestroy(R->stage_ready[b]));
        if (R->stage_free[b])
            CUZK_CUDA_IGNORE(cudaEventDestroy(R->stage_free[b]));
    }
    for (size_t e = 0; e < R->n_stage_ev; e++)
        if (R->stage_ev[e])
            CUZK_CUDA_IGNORE(cudaEventDestroy(R->stage_ev[e]));
    free(R->stage_ev);
    if (R->copy)
        CUZK_CUDA_IGNORE(cudaStreamDestroy(R->copy));
    if (R->compute)
        CUZK_CUDA_IGNORE(cudaStreamDestroy(R->compute));
    memset(R, 0, sizeof *R);
}

/* Releases the job's device memory and its admission together under cache_mu, so that
 * msm_window_cap and admission, which measure the device under it, never see the memory
 * free and still counted as coming back (measured at 24 GiB with two workers: the second
 * planned no window cap, then needed 24.20 GiB with 22.73 free). */
static void unuse(cuda_prover *cp, dev_key *k, dev_circuit *c, run *R, bool admitted,
                  size_t need)
{
    pthread_mutex_lock(&cp->cache_mu);
    run_free_device(R);
    if (admitted) {
        cp->admitted--;
        cp->admitted_bytes -= need;
        pthread_cond_broadcast(&cp->released);
    }
    if (k && k->pk)
        key_unuse(k);
    if (c && c->r1cs)
        circuit_unuse(c);
    pthread_mutex_unlock(&cp->cache_mu);
}

/* A start of the latency classes (priority >= LATE_MIN_PRIORITY: the engine's HIGH and
 * CRITICAL) hands its release to a thread of its own and returns as soon as its results
 * are read back. Why: unuse takes cache_mu, which the device's other worker holds while it
 * prepares a bulk partition, and freeing or unpinning host memory (cudaFreeHost,
 * cudaHostUnregister) waits for the kernels the other worker launched once the gate
 * passed to it: a 40 ms WinningPoSt partition answered 0.95 s after its kernels ended, a
 * bulk partition's time (H100, s25). Its working set stays admitted until the thread has
 * freed it (a start that needs the room waits on `released`, as for any other job). */
enum { LATE_MIN_PRIORITY = 3 };

typedef struct late_rel {
    cuda_prover *cp;
    dev_key *k;
    dev_circuit *c;
    const cuzk_groth16_pk *pk; /* what k and c held for this start (forget matches them) */
    const cuzk_r1cs *r1cs;
    run R;
    bool admitted;
    size_t need;
    struct late_rel *next;
} late_rel;

bool cuda_late_uses(const cuda_prover *cp, const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs)
{
    for (const late_rel *l = cp->late; l; l = l->next)
        if ((pk && l->pk == pk) || (r1cs && l->r1cs == r1cs))
            return true;
    return false;
}

static void *late_release_main(void *arg)
{
    late_rel *l = (late_rel *)arg;
    cuda_prover *cp = l->cp;
    (void)cudaSetDevice(cp->dev);
    double t = cuzk_prover_now_ms();
    unuse(cp, l->k, l->c, &l->R, l->admitted, l->need);
    double t_unused = cuzk_prover_now_ms();
    run_release(cp, &l->R);
    if (cp->profile)
        cuda_log(cp, false, "gpu:%d: profile: released after the answer in %.1f ms (device "
                 "memory and admission %.1f ms, host buffers %.1f ms)", cp->dev,
                 cuzk_prover_now_ms() - t, t_unused - t, cuzk_prover_now_ms() - t_unused);
    pthread_mutex_lock(&cp->cache_mu);
    for (late_rel **pp = &cp->late; *pp; pp = &(*pp)->next)
        if (*pp == l) {
            *pp = l->next;
            break;
        }
    pthread_cond_broadcast(&cp->released);
    pthread_mutex_unlock(&cp->cache_mu);
    free(l);
    return NULL;
}

/* Hands R's release to its own thread (R is then cleared); false when no thread could be
 * had, and the caller releases inline as before. */
static bool release_late(cuda_prover *cp, dev_key *k, dev_circuit *c, run *R, bool admitted,
                         size_t need)
{
    late_rel *l = (late_rel *)calloc(1, sizeof *l);
    if (!l)
        return false;
    *l = late_rel{cp, k, c, k ? k->pk : NULL, c ? c->r1cs : NULL, *R, admitted, need, NULL};
    pthread_attr_t at;
    if (pthread_attr_init(&at) != 0) {
        free(l);
        return false;
    }
    (void)pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    pthread_mutex_lock(&cp->cache_mu);
    l->next = cp->late;
    cp->late = l;
    pthread_t th;
    bool ok = pthread_create(&th, &at, late_release_main, l) == 0;
    if (!ok)
        cp->late = l->next;
    pthread_mutex_unlock(&cp->cache_mu);
    pthread_attr_destroy(&at);
    if (!ok) {
        free(l);
        return false;
    }
    memset(R, 0, sizeof *R);
    return true;
}

/* The inline release; the profile says how long the answer waited for it. */
static void release_now(cuda_prover *cp, dev_key *k, dev_circuit *c, run *R, bool admitted,
                        size_t need)
{
    double t = cuzk_prover_now_ms();
    unuse(cp, k, c, R, admitted, need);
    double t_unused = cuzk_prover_now_ms();
    bool res_kept = R->h_res_kept;
    size_t n_reg = R->n_reg;
    run_release(cp, R);
    if (cp->profile)
        cuda_log(cp, false, "gpu:%d: profile: released in %.1f ms (device memory and "
                 "admission %.1f ms; host buffers %.1f ms: results %s, %zu pinned in place)",
                 cp->dev, cuzk_prover_now_ms() - t, t_unused - t,
                 cuzk_prover_now_ms() - t_unused, res_kept ? "kept" : "freed", n_reg);
}

void cuda_run_end(cuda_prover *cp, dev_key *k, dev_circuit *c, run *R, bool admitted,
                  size_t need, int priority)
{
    if (priority >= LATE_MIN_PRIORITY && release_late(cp, k, c, R, admitted, need))
        return;
    release_now(cp, k, c, R, admitted, need);
}
