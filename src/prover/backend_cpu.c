/*
 * backend_cpu.c — the CPU prover backend: the groth16 layer's own prover (prove_start for
 * the satisfaction check, evaluation, H and the G1 MSMs; prove_finalize for the B_G2 MSM
 * and assembly) behind the backend interface, with its scratch owned by the job.
 * Threading: the pool is shared by every job of this prover; concurrent jobs on one
 * prover take turns on it (cuzk/pool.h), so the CPU backend serialises them here, with a
 * gate handed over by the job's priority (prio_gate.h): start and finalize of a CRITICAL
 * job go before those of a waiting LOW one.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "prover/prio_gate.h"
#include "prover/prover_internal.h"

typedef struct cpu_prover {
    prio_gate gate; /* one job at a time drives the pool; the highest priority next */
} cpu_prover;

typedef struct cpu_job {
    size_t n;
    cuzk_groth16_prover_state *st; /* n states */
    void **scratch;                /* n scratch blocks */
    cuzk_fr **expanded;            /* n dense copies of compact witnesses (else NULL) */
    cuzk_witness *dense;           /* the dense views the groth16 prover reads */
} cpu_job;

static void cpu_job_free(cuzk_prove_job *job)
{
    cpu_job *cj = job->impl;
    if (!cj)
        return;
    for (size_t i = 0; i < cj->n; i++) {
        free(cj->scratch[i]);
        free(cj->expanded[i]);
    }
    free(cj->scratch);
    free(cj->expanded);
    free(cj->dense);
    free(cj->st);
    free(cj);
    job->impl = NULL;
}

static cuzk_status cpu_assemble(cuzk_prove_job *job, size_t i, const cuzk_fr *r,
                                const cuzk_fr *s, cuzk_groth16_proof *proof, cuzk_error *err)
{
    cpu_job *cj = job->impl;
    cpu_prover *cp = job->p->impl;
    prio_gate_acquire(&cp->gate, job->priority);
    double t0 = cuzk_prover_now_ms();
    cuzk_status st = cuzk_groth16_prove_finalize(&cj->st[i], r, s, proof, err);
    job->t.ms[CUZK_STAGE_MSM_B_G2] += cuzk_prover_now_ms() - t0;
    prio_gate_release(&cp->gate);
    free(cj->scratch[i]); /* finalize was the last user of this partition's scratch */
    cj->scratch[i] = NULL;
    return st;
}

static cuzk_status cpu_start(cuzk_prover *p, cuzk_prove_job *job, const volatile int *cancel,
                             cuzk_error *err)
{
    cpu_prover *cp = p->impl;
    cpu_job *cj = calloc(1, sizeof *cj);
    if (!cj)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cpu prover: out of memory");
    job->impl = cj;
    job->impl_free = cpu_job_free;
    job->assemble = cpu_assemble;
    cj->n = job->n;
    cj->st = calloc(job->n, sizeof *cj->st);
    cj->scratch = calloc(job->n, sizeof *cj->scratch);
    cj->expanded = calloc(job->n, sizeof *cj->expanded);
    cj->dense = calloc(job->n, sizeof *cj->dense);
    if (!cj->st || !cj->scratch || !cj->expanded || !cj->dense)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cpu prover: out of memory");
    for (size_t i = 0; i < job->n; i++) {
        const cuzk_witness *w = &job->ws[i];
        if (w->kind == CUZK_WITNESS_DENSE) {
            cj->dense[i] = *w;
            continue;
        }
        /* the CPU evaluators read dense witnesses: expand (uploads do not apply here) */
        if (!(cj->expanded[i] = malloc((size_t)w->n_vars * sizeof(cuzk_fr))))
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "cpu prover: out of memory");
        cuzk_status est = cuzk_witness_expand(cj->expanded[i], w, p->pool);
        if (est != CUZK_OK)
            return cuzk_error_set(err, est, "cpu prover: cannot expand witness %zu", i);
        cj->dense[i] = cuzk_witness_dense(cj->expanded[i], w->n_vars);
    }
    size_t need = cuzk_groth16_prove_scratch_size(job->pk, job->r1cs, cuzk_pool_nthreads(p->pool));
    if (need == 0)
        return cuzk_groth16_pk_check_circuit(job->pk, job->r1cs, err);
    cuzk_status st = CUZK_OK;
    for (size_t i = 0; i < job->n && st == CUZK_OK; i++) {
        if (cancel && *cancel)
            return cuzk_error_set(err, CUZK_ERR_CANCELLED, "cpu prover: cancelled");
        if (!(cj->scratch[i] = malloc(need)))
            return cuzk_error_set(err, CUZK_ERR_NOMEM,
                                  "cpu prover: cannot allocate %zu bytes of scratch", need);
        double t0 = cuzk_prover_now_ms();
        prio_gate_acquire(&cp->gate, job->priority);
        double t1 = cuzk_prover_now_ms();
        st = cuzk_groth16_prove_start(&cj->st[i], job->pk, job->r1cs, &cj->dense[i],
                                      cj->scratch[i], need, p->pool, err);
        prio_gate_release(&cp->gate);
        double t2 = cuzk_prover_now_ms();
        job->t.ms[CUZK_STAGE_LOCK_WAIT] += t1 - t0;
        job->t.ms[CUZK_STAGE_DEVICE] += t2 - t1;
        if (i == 0)
            job->t.device_begin_ms = t1;
        job->t.device_end_ms = t2;
    }
    return st;
}

static void cpu_close(cuzk_prover *p)
{
    cpu_prover *cp = p->impl;
    if (!cp)
        return;
    prio_gate_destroy(&cp->gate);
    free(cp);
    p->impl = NULL;
}

static const cuzk_prover_ops k_cpu_ops = {.start = cpu_start, .forget = NULL, .close = cpu_close};

cuzk_status cuzk_prover_cpu_init(cuzk_prover *p, cuzk_error *err)
{
    cpu_prover *cp = calloc(1, sizeof *cp);
    if (!cp)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cpu prover: out of memory");
    prio_gate_init(&cp->gate);
    p->impl = cp;
    p->ops = &k_cpu_ops;
    snprintf(p->desc, sizeof p->desc, "cpu (%u threads)", cuzk_pool_nthreads(p->pool));
    return CUZK_OK;
}
