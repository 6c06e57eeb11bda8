/*
 * prover.c — the backend-independent half of cuzk/prover.h: opening a backend from its
 * spec, the job record, and finalize (assembly + the self-check every proof passes before
 * it is returned), where the CUZK_PROVER_FAULT test hook (fault.c) cuts in.
 * Threading: see cuzk/prover.h; no global state here besides fault.c's.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#define _DEFAULT_SOURCE         /* explicit_bzero */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/gpu.h"
#include "prover/prover_internal.h"

static const char *const k_stage_names[CUZK_STAGE_COUNT] = {
    [CUZK_STAGE_UPLOAD] = "upload",     [CUZK_STAGE_LOCK_WAIT] = "lock_wait",
    [CUZK_STAGE_EVAL] = "eval",         [CUZK_STAGE_NTT_H] = "ntt_h",
    [CUZK_STAGE_MSM_H] = "msm_h",       [CUZK_STAGE_MSM_L] = "msm_l",
    [CUZK_STAGE_MSM_A] = "msm_a",       [CUZK_STAGE_MSM_B_G1] = "msm_b_g1",
    [CUZK_STAGE_MSM_B_G2] = "msm_b_g2", [CUZK_STAGE_DEVICE] = "device",
    [CUZK_STAGE_FINALIZE] = "finalize", [CUZK_STAGE_VERIFY] = "verify",
};

const char *cuzk_prove_stage_name(cuzk_prove_stage s)
{
    return (unsigned)s < CUZK_STAGE_COUNT ? k_stage_names[s] : "unknown";
}

double cuzk_prover_clock_ms(void) { return cuzk_prover_now_ms(); }

double cuzk_prover_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* "gpu:N" -> N; false for anything that is not a plain decimal device number. */
static bool parse_device(const char *s, int *dev)
{
    if (!*s)
        return false;
    long v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > 1000)
            return false;
        v = v * 10 + (*s - '0');
    }
    *dev = (int)v;
    return true;
}

cuzk_status cuzk_prover_open(cuzk_prover **out, const char *spec, cuzk_pool *pool,
                             cuzk_error *err)
{
    if (!out || !spec)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "prover: NULL argument");
    *out = NULL;
    cuzk_prover_fault_arm();
    bool gpu;
    int dev = 0;
    if (!strcmp(spec, "cpu")) {
        gpu = false;
    } else if (!strcmp(spec, "gpu")) {
        gpu = true;
    } else if (!strncmp(spec, "gpu:", 4)) {
        if (!parse_device(spec + 4, &dev))
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                  "prover: bad backend '%s' (cpu, gpu, gpu:N or auto)", spec);
        gpu = true;
    } else if (!strcmp(spec, "auto")) {
#ifdef CUZK_HAVE_CUDA
        gpu = cuzk_gpu_device_count() > 0;
#else
        gpu = false;
#endif
    } else {
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "prover: unknown backend '%s' (cpu, gpu, gpu:N or auto)", spec);
    }
    cuzk_prover *p = calloc(1, sizeof *p);
    if (!p)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "prover: out of memory");
    p->pool = pool;
    key_sole_init(&p->sole);
    prover_held_init(&p->held);
    cuzk_status st;
    if (!gpu) {
        p->kind = CUZK_BACKEND_CPU;
        st = cuzk_prover_cpu_init(p, err);
    } else {
#ifdef CUZK_HAVE_CUDA
        p->kind = CUZK_BACKEND_CUDA;
        st = cuzk_prover_cuda_init(p, dev, err);
#else
        st = cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                            "prover: this build has no CUDA support (backend '%s')", spec);
#endif
    }
    if (st != CUZK_OK) {
        key_sole_destroy(&p->sole);
        prover_held_destroy(&p->held);
        free(p);
        return st;
    }
    *out = p;
    return CUZK_OK;
}

unsigned cuzk_prover_gpu_count(void)
{
#ifdef CUZK_HAVE_CUDA
    int n = cuzk_gpu_device_count();
    return n > 0 ? (unsigned)n : 0;
#else
    return 0;
#endif
}

uint64_t cuzk_prover_gpu_memory(unsigned device)
{
#ifdef CUZK_HAVE_CUDA
    return cuzk_gpu_device_memory((int)device);
#else
    (void)device;
    return 0;
#endif
}

cuzk_status cuzk_prover_fixed_base_hook_open(cuzk_prover *p, cuzk_groth16_fixed_base_hook **out,
                                             cuzk_error *err)
{
    if (!p || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "prover: NULL argument");
    *out = NULL;
#ifdef CUZK_HAVE_CUDA
    if (p->kind == CUZK_BACKEND_CUDA)
        return cuzk_prover_cuda_fixed_base_hook(p, out, err);
#endif
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                          "prover: %s has no fixed-base hook (the setup stays on the CPU)",
                          p->desc);
}

uint64_t cuzk_prover_fixed_base_hook_host_bytes(const cuzk_prover *p)
{
#ifdef CUZK_HAVE_CUDA
    if (p && p->kind == CUZK_BACKEND_CUDA)
        return cuzk_gpu_fixed_base_host_bytes(NULL);
#endif
    (void)p;
    return 0;
}

void cuzk_prover_fixed_base_hook_close(cuzk_groth16_fixed_base_hook *hook)
{
#ifdef CUZK_HAVE_CUDA
    if (hook)
        cuzk_prover_cuda_fixed_base_close(hook);
#else
    (void)hook;
#endif
}

void cuzk_prover_close(cuzk_prover *p)
{
    if (!p)
        return;
    if (p->ops && p->ops->close)
        p->ops->close(p);
    key_sole_destroy(&p->sole);
    prover_held_destroy(&p->held);
    free(p);
}

cuzk_backend_kind cuzk_prover_kind(const cuzk_prover *p) { return p->kind; }
uint64_t cuzk_prover_pinned_host(const cuzk_prover *p) { return p ? p->pinned_host : 0; }
const char *cuzk_prover_describe(const cuzk_prover *p) { return p ? p->desc : "(none)"; }

bool cuzk_prover_in_service(const cuzk_prover *p, char *why, size_t cap)
{
    if (!p)
        return false;
    if (__atomic_load_n(&p->lost, __ATOMIC_SEQ_CST)) {
        if (why && cap)
            snprintf(why, cap, "device lost (injected: CUZK_PROVER_FAULT=lost)");
        return false;
    }
    if (p->ops->in_service)
        return p->ops->in_service(p, why, cap);
    return true;
}

void cuzk_prover_set_log(cuzk_prover *p, cuzk_prover_log_fn fn, void *ctx)
{
    if (!p)
        return;
    p->log_fn = fn;
    p->log_ctx = ctx;
}

void cuzk_prover_log(cuzk_prover *p, bool warn, const char *msg)
{
    if (p && p->log_fn)
        p->log_fn(p->log_ctx, warn, msg);
    else
        fprintf(stderr, "cuzk: %s%s\n", warn ? "warning: " : "", msg);
}

void cuzk_prover_forget(cuzk_prover *p, const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs)
{
    if (!p)
        return;
    if (pk)
        key_sole_forget(p, pk);
    if (p->ops->forget)
        p->ops->forget(p, pk, r1cs);
    prover_held_del(&p->held, pk);
    prover_held_del(&p->held, r1cs);
}

const cuzk_prove_timings *cuzk_prove_job_timings(const cuzk_prove_job *job)
{
    return &job->t;
}

void cuzk_prove_job_free(cuzk_prove_job *job)
{
    if (!job)
        return;
    if (job->impl_free)
        job->impl_free(job);
    free(job->ws);
    if (job->msm)
        explicit_bzero(job->msm, job->n * sizeof *job->msm);
    free(job->msm);
    free(job);
}

cuzk_status cuzk_prover_start(cuzk_prover *p, const cuzk_groth16_pk *pk,
                              const cuzk_r1cs *r1cs, const cuzk_witness *ws, size_t n,
                              const volatile int *cancel, cuzk_prove_job **job,
                              cuzk_error *err)
{
    cuzk_prove_opts o = {.cancel = cancel, .priority = 0};
    return cuzk_prover_start_opts(p, pk, r1cs, ws, n, &o, job, err);
}

cuzk_status cuzk_prover_start_opts(cuzk_prover *p, const cuzk_groth16_pk *pk,
                                   const cuzk_r1cs *r1cs, const cuzk_witness *ws, size_t n,
                                   const cuzk_prove_opts *opts, cuzk_prove_job **job,
                                   cuzk_error *err)
{
    const volatile int *cancel = opts ? opts->cancel : NULL;
    if (!job)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "prover start: job is NULL");
    *job = NULL;
    if (!p || !pk || !r1cs || !ws || n == 0)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "prover start: NULL argument or n = 0");
    cuzk_status st = cuzk_groth16_pk_check_circuit(pk, r1cs, err);
    if (st != CUZK_OK)
        return st;
    if (!key_points_present(pk) && !key_sole_has(p, pk))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "prover start: the key's points are not in host memory and %s "
                              "does not hold them (adopted by another prover?)", p->desc);
    for (size_t i = 0; i < n; i++) {
        const cuzk_witness *w = &ws[i];
        bool ok = w->kind == CUZK_WITNESS_DENSE
                      ? w->values != NULL
                      : w->kind == CUZK_WITNESS_COMPACT && w->map && w->dense &&
                            (w->bits || w->map->n_bits == 0) && w->map->n_vars == w->n_vars;
        if (!ok || w->n_vars != r1cs->n_vars)
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                  "prover start: witness %zu (%u variables) does not fit the "
                                  "circuit (%u variables)",
                                  i, w->n_vars, r1cs->n_vars);
        if (i && (w->kind != ws[0].kind ||
                  (w->kind == CUZK_WITNESS_COMPACT && ws[0].map != w->map)))
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                  "prover start: the witnesses of one batch must share one "
                                  "kind and map");
    }
    if (cancel && *cancel)
        return cuzk_error_set(err, CUZK_ERR_CANCELLED, "prover start: cancelled");
    if (cuzk_prover_fault_take(CUZK_FAULT_START, pk->log2n))
        return cuzk_error_set(err, CUZK_ERR_INTERNAL,
                              "prover start: injected fault (CUZK_PROVER_FAULT=start)");
    if (cuzk_prover_fault_take(CUZK_FAULT_LOST, pk->log2n))
        __atomic_store_n(&p->lost, 1, __ATOMIC_SEQ_CST);
    {
        char why[CUZK_ERROR_MSG_MAX - 32];
        if (!cuzk_prover_in_service(p, why, sizeof why))
            return cuzk_error_set(err, CUZK_ERR_CUDA, "%s is out of service: %s", p->desc, why);
    }
    cuzk_prove_job *j = calloc(1, sizeof *j);
    if (!j)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "prover start: out of memory");
    j->p = p;
    j->pk = pk;
    j->r1cs = r1cs;
    j->n = n;
    j->priority = opts ? opts->priority : 0;
    j->ws = malloc(n * sizeof *j->ws);
    j->msm = calloc(n, sizeof *j->msm);
    if (!j->ws || !j->msm) {
        cuzk_prove_job_free(j);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "prover start: out of memory");
    }
    memcpy(j->ws, ws, n * sizeof *ws);
    /* before the start: a start that fails may still have left a device copy */
    prover_held_add(&p->held, pk);
    prover_held_add(&p->held, r1cs);
    st = p->ops->start(p, j, cancel, err);
    if (st != CUZK_OK) {
        cuzk_prove_job_free(j);
        return st;
    }
    *job = j;
    return CUZK_OK;
}

cuzk_status cuzk_prover_finalize(cuzk_prove_job *job, const cuzk_fr *r, const cuzk_fr *s,
                                 cuzk_groth16_proof *proofs, cuzk_prove_timings *timings,
                                 cuzk_error *err)
{
    if (!job)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "prover finalize: job is NULL");
    cuzk_status st = CUZK_OK;
    cuzk_groth16_proof *out = NULL;
    if (!proofs || !r != !s) {
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                            "prover finalize: proofs is NULL, or only one of r, s given");
        goto done;
    }
    if (cuzk_prover_fault_take(CUZK_FAULT_FINALIZE, job->pk->log2n)) {
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL,
                            "prover finalize: injected fault (CUZK_PROVER_FAULT=finalize)");
        goto done;
    }
    out = malloc(job->n * sizeof *out);
    if (!out) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "prover finalize: out of memory");
        goto done;
    }
    double t0 = cuzk_prover_now_ms();
    for (size_t i = 0; i < job->n && st == CUZK_OK; i++) {
        cuzk_fr ri, si;
        if (r) {
            ri = r[i];
            si = s[i];
        } else if ((st = cuzk_fr_random(&ri, err)) != CUZK_OK ||
                   (st = cuzk_fr_random(&si, err)) != CUZK_OK) {
            break;
        }
        if (job->assemble)
            st = job->assemble(job, i, &ri, &si, &out[i], err);
        else
            cuzk_groth16_assemble(&out[i], &job->pk->vk, &job->msm[i], &ri, &si);
        explicit_bzero(&ri, sizeof ri); /* r, s and the proof together reveal the witness */
        explicit_bzero(&si, sizeof si);
    }
    /* a wrong proof from a faulty device, as the self-check below must catch it */
    if (st == CUZK_OK && cuzk_prover_fault_take(CUZK_FAULT_WRONG_PROOF, job->pk->log2n))
        cuzk_g1_affine_neg(&out[0].c, &out[0].c);
    double t1 = cuzk_prover_now_ms();
    job->t.ms[CUZK_STAGE_FINALIZE] += t1 - t0;
    /* one e(alpha, beta) for the whole batch */
    cuzk_groth16_pvk pvk;
    if (st == CUZK_OK && (st = cuzk_groth16_pvk_prepare(&pvk, &job->pk->vk)) != CUZK_OK)
        st = cuzk_error_set(err, st, "self-check: cannot prepare the verifying key");
    /* an adopted key's points are not in host memory: a failed proof is not diagnosed
     * point by point then */
    cuzk_groth16_pk view;
    key_sole_reader reader;
    const cuzk_groth16_pk *kpk = key_sole_read_begin(job->p, job->pk, &view, &reader);
    for (size_t i = 0; i < job->n && st == CUZK_OK; i++)
        st = cuzk_groth16_proof_selfcheck(kpk, &pvk, job->r1cs, &job->ws[i], &out[i],
                                          job->p->pool, err);
    key_sole_read_end(job->p, &reader);
    job->t.ms[CUZK_STAGE_VERIFY] += cuzk_prover_now_ms() - t1;
    if (st == CUZK_OK)
        memcpy(proofs, out, job->n * sizeof *out);
done:
    if (timings)
        *timings = job->t;
    free(out);
    cuzk_prove_job_free(job);
    return st;
}

cuzk_status cuzk_prover_prove(cuzk_prover *p, const cuzk_groth16_pk *pk,
                              const cuzk_r1cs *r1cs, const cuzk_witness *w,
                              cuzk_groth16_proof *proof, cuzk_prove_timings *timings,
                              cuzk_error *err)
{
    cuzk_prove_job *job;
    cuzk_status st = cuzk_prover_start(p, pk, r1cs, w, 1, NULL, &job, err);
    if (st != CUZK_OK)
        return st;
    return cuzk_prover_finalize(job, NULL, NULL, proof, timings, err);
}
