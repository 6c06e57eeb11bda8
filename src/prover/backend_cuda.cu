/*
 * backend_cuda.cu — the CUDA prover backend: one device, the protocol of DESIGN.md §4.
 *
 * Per device (cuda_prover): a device mutex held only around kernel work, a cache of
 * device-resident proving keys and constraint systems (uploaded once, on first use, under
 * the cache lock; CSR matrices with 4-byte coefficient indices into a table of distinct
 * values, the density index lists of bellperson keys, and the NTT domains).
 *
 * Per start (one batch of partitions of one circuit):
 *   before the mutex   the job's streams and events are created, its device buffers
 *                      allocated (stream-ordered), the witnesses pinned in place and the
 *                      first two uploads started on the job's copy stream, one event per
 *                      upload: the kernels wait on the event, the host never does;
 *   under the mutex    per partition: A·w, B·w, C·w (SpMV), input rows, H (NTTs), the H,
 *                      L, A, B_G1 and B_G2 MSMs (0/1 split on the device), results into a
 *                      device array; the upload of partition i+2 is queued behind the
 *                      kernels that read buffer i % 2 (double buffering);
 *   after the mutex    results copied back (already queued), buffers freed on the stream,
 *                      witnesses unpinned, streams and events destroyed.
 * Finalize (assembly + self-check) is the common code of src/prover/prover.c.
 *
 * Every CUDA call goes through CUZK_CUDA_TRY; every path releases what it holds. A CUDA
 * error fails that job with its message; a sticky error (the context is lost) also marks
 * the prover broken, so later starts fail fast instead of producing garbage.
 *
 * Test hook: CUZK_GPU_FAULT=alloc|kernel in the environment makes the next start fail at
 * that point (a simulated OOM, or an invalid launch), to test the cleanup paths.
 *
 * Threading: any number of threads may call start on one prover; the cache lock and the
 * device mutex serialise what must be.
 */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/gpu.h"
#include "gpu/gpu_export.h"
#include "prover/cuda_resident.h"
#include "prover/host_pin.h"
#include "prover/prover_internal.h"

enum { EV_START, EV_EVAL, EV_NTT, EV_H, EV_L, EV_A, EV_B1, EV_B2, EV_COUNT };
static const cuzk_prove_stage k_ev_stage[EV_COUNT] = {
    CUZK_STAGE_COUNT,   CUZK_STAGE_EVAL,  CUZK_STAGE_NTT_H,    CUZK_STAGE_MSM_H,
    CUZK_STAGE_MSM_L,   CUZK_STAGE_MSM_A, CUZK_STAGE_MSM_B_G1, CUZK_STAGE_MSM_B_G2};

typedef struct run {
    cudaStream_t copy, compute;
    cudaEvent_t uploaded[2], consumed[2];
    cudaEvent_t *stage_ev; /* n * EV_COUNT timing events */
    size_t n_stage_ev;
    void **reg;            /* host buffers pinned in place (cudaHostRegister succeeded) */
    size_t n_reg;
    bool compact;
    void *d_up[2][2];      /* upload slots: dense: [slot][0] is the witness itself;
                              compact: [slot][0] bits, [slot][1] dense values */
    size_t up_bytes[2];
    cuzk_fr *d_w;          /* compact: the expanded witness the kernels read */
    const cuzk_witness_map *map;
    const dev_circuit *circ;
    cuzk_fr *d_abc, *d_g;  /* d_g only when the gathers do not fit in b, c */
    void *d_scratch;
    size_t scratch_size;
    cuzk_groth16_msm_results *d_res, *h_res;
    /* a streamed key (dev_key.streamed): two staging buffers for its point vectors, and
     * one partial result per chunk, summed on the host after the batch */
    bool streamed;
    bool csr_streamed;     /* dev_circuit.streamed: the evaluations use the staging too */
    void *d_stage[2];
    size_t stage_bytes;
    unsigned stage_next;
    cudaEvent_t stage_ready[2], stage_free[2];
    size_t maxc1, maxc2;          /* chunks of the longest G1 / G2 vector */
    cuzk_g1_jac *d_pg1, *h_pg1;   /* [partition][H, L, A, B_G1][maxc1] */
    cuzk_g2_jac *d_pg2, *h_pg2;   /* [partition][maxc2] */
} run;

typedef cuzk_status (*g1_msm_fn)(cuzk_g1_jac *, const cuzk_g1_affine *, const cuzk_fr *, size_t,
                                  void *, size_t, cuzk_gpu_stream, cuzk_error *);
typedef cuzk_status (*g2_msm_fn)(cuzk_g2_jac *, const cuzk_g2_affine *, const cuzk_fr *, size_t,
                                  void *, size_t, cuzk_gpu_stream, cuzk_error *);

static size_t max2(size_t a, size_t b) { return a > b ? a : b; }

/* Staging buffers of a streamed key (two of them): 1 GiB each, less when the device has
 * less to spare (at least 256 MiB). At 2^27 on the H200 the L and A MSMs (12.5 GiB of
 * points each) are bound by the host-to-device copy, whose rate differed between the lent
 * hosts (~37 GB/s on one, ~13 GB/s on others) more than between 1 GiB and 4 GiB buffers
 * (6.0 s a partition with either on the same kind of host); 1 GiB keeps the footprint small. */
#define STAGE_BYTES_MIN ((size_t)256 << 20)
#define STAGE_BYTES_MAX ((size_t)1 << 30)

static cuzk_status fault(const char *where, cuzk_error *err)
{
    const char *f = getenv("CUZK_GPU_FAULT");
    if (!f || strcmp(f, where) != 0)
        return CUZK_OK;
    if (!strcmp(where, "alloc"))
        return cuzk_cuda_error(err, cudaErrorMemoryAllocation, "injected allocation failure",
                               __FILE__, __LINE__);
    return cuzk_cuda_error(err, cudaErrorInvalidConfiguration, "injected kernel failure",
                           __FILE__, __LINE__);
}

/* The host arrays of a witness that cross PCIe: the dense values, or bits + dense. */
static void witness_parts(const cuzk_witness *w, const void *part[2])
{
    part[0] = w->kind == CUZK_WITNESS_COMPACT ? (const void *)w->bits : (const void *)w->values;
    part[1] = w->kind == CUZK_WITNESS_COMPACT ? (const void *)w->dense : NULL;
}

static cuzk_status upload_witness(run *R, const cuzk_witness *w, int buf, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    const void *part[2];
    witness_parts(w, part);
    CUZK_CUDA_TRY(err, cudaStreamWaitEvent(R->copy, R->consumed[buf], 0));
    for (int k = 0; k < 2; k++)
        if (R->up_bytes[k])
            CUZK_CUDA_TRY(err, cudaMemcpyAsync(R->d_up[buf][k], part[k], R->up_bytes[k],
                                               cudaMemcpyHostToDevice, R->copy));
    CUZK_CUDA_TRY(err, cudaEventRecord(R->uploaded[buf], R->copy));
    return CUZK_OK;
fail:
    return st;
}

static size_t chunks(size_t n, size_t chunk) { return (n + chunk - 1) / chunk; }

/* Sizes R's staging (whole G1 and G2 points per buffer: multiples of 192 bytes, at most the
 * longest vector, or the largest streamed matrix: csr_max) and its chunk counts; returns
 * the device bytes streaming adds. */
static size_t stage_plan(run *R, const cuzk_prove_job *job, size_t g1_max, size_t want,
                         size_t csr_max = 0)
{
    const cuzk_groth16_pk *pk = job->pk;
    size_t vec_max = max2(g1_max * sizeof(cuzk_g1_affine), pk->n_b_g2 * sizeof(cuzk_g2_affine));
    vec_max = max2(vec_max, csr_max + sizeof(cuzk_g2_affine));
    size_t sb = want < vec_max ? want : vec_max;
    sb = sb / sizeof(cuzk_g2_affine) * sizeof(cuzk_g2_affine);
    R->stage_bytes = sb > sizeof(cuzk_g2_affine) ? sb : sizeof(cuzk_g2_affine);
    R->maxc1 = chunks(g1_max, R->stage_bytes / sizeof(cuzk_g1_affine));
    R->maxc2 = chunks(pk->n_b_g2, R->stage_bytes / sizeof(cuzk_g2_affine));
    return 2 * R->stage_bytes +
           job->n * (4 * R->maxc1 * sizeof(cuzk_g1_jac) + R->maxc2 * sizeof(cuzk_g2_jac));
}

/* Partial results of partition i's G1 MSM w (0 H, 1 L, 2 A, 3 B_G1); NULL unless streamed. */
static cuzk_g1_jac *g1_parts(const run *R, size_t i, int w)
{
    return R->streamed ? R->d_pg1 + (i * 4 + (size_t)w) * R->maxc1 : NULL;
}

/* Queues the copy of np host ranges, back to back from offset 0, into the next staging
 * buffer; *slot receives its index. The copy waits until the kernel that last read that
 * buffer is done. */
static cuzk_status stage_copy_parts(run *R, const void *const *h, const size_t *bytes, int np,
                                    int *slot, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    int b = (int)(R->stage_next++ & 1);
    size_t off = 0;
    CUZK_CUDA_TRY(err, cudaStreamWaitEvent(R->copy, R->stage_free[b], 0));
    for (int i = 0; i < np; i++) {
        if (bytes[i])
            CUZK_CUDA_TRY(err, cudaMemcpyAsync((char *)R->d_stage[b] + off, h[i], bytes[i],
                                               cudaMemcpyHostToDevice, R->copy));
        off += bytes[i];
    }
    CUZK_CUDA_TRY(err, cudaEventRecord(R->stage_ready[b], R->copy));
    *slot = b;
    return CUZK_OK;
fail:
    return st;
}

static cuzk_status stage_copy(run *R, const void *h, size_t bytes, int *slot, cuzk_error *err)
{
    return stage_copy_parts(R, &h, &bytes, 1, slot, err);
}

/* out = M w for matrix m of c: from its device copy, or, streamed, a block of rows at a
 * time through the staging buffers (the copies run ahead on the copy stream: block j + 1
 * is copied while block j is evaluated). A block is as many rows as fit one buffer with
 * their row_ptr slice (8 bytes a row) and terms (8 bytes each: col and coefficient). */
static cuzk_status spmv_eval(run *R, const dev_circuit *c, int m, const cuzk_fr *w, cuzk_fr *out,
                             cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    cuzk_gpu_stream gs = (cuzk_gpu_stream)R->compute;
    if (!c->streamed)
        return cuzk_gpu_spmv(&c->m[m], w, out, gs, err);
    const cuzk_csr *h = &c->r1cs->m[m];
    const uint64_t *rp = h->row_ptr;
    const uint64_t rows = c->r1cs->n_constraints;
    for (uint64_t r0 = 0; r0 < rows;) {
        /* the largest r1 with 8 (r1 - r0 + 1) + 8 (rp[r1] - rp[r0]) <= stage bytes */
        uint64_t lo = r0, hi = rows;
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo + 1) / 2;
            if (8 * (mid - r0 + 1) + 8 * (rp[mid] - rp[r0]) <= R->stage_bytes)
                lo = mid;
            else
                hi = mid - 1;
        }
        if (lo == r0)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "gpu: row %llu of the constraint system "
                                  "(%llu terms) does not fit a %zu-byte staging buffer",
                                  (unsigned long long)r0,
                                  (unsigned long long)(rp[r0 + 1] - rp[r0]), R->stage_bytes);
        uint64_t r1 = lo, nz = rp[r1] - rp[r0];
        const void *part[3] = {rp + r0, h->col + rp[r0], c->h_ci[m] + rp[r0]};
        size_t len[3] = {(size_t)(r1 - r0 + 1) * 8, (size_t)nz * 4, (size_t)nz * 4};
        int b;
        if ((st = stage_copy_parts(R, part, len, 3, &b, err)) != CUZK_OK)
            return st;
        const char *base = (const char *)R->d_stage[b];
        cuzk_gpu_csr blk = c->m[m];
        blk.rows = r1 - r0;
        blk.nnz = nz;
        blk.nz_base = rp[r0];
        blk.d_row_ptr = (const uint64_t *)base;
        blk.d_col = (const uint32_t *)(base + len[0]);
        blk.d_coeff_idx = (const uint32_t *)(base + len[0] + len[1]);
        CUZK_CUDA_TRY(err, cudaStreamWaitEvent(R->compute, R->stage_ready[b], 0));
        if ((st = cuzk_gpu_spmv(&blk, w, out + r0, gs, err)) != CUZK_OK)
            return st;
        CUZK_CUDA_TRY(err, cudaEventRecord(R->stage_free[b], R->compute));
        r0 = r1;
    }
    return CUZK_OK;
fail:
    return st;
}

/* One MSM over a key vector: from its device copy, or, streamed, chunk by chunk through
 * the staging buffers: chunk j + 1's copy is queued before chunk j's MSM, so the copy of
 * one overlaps the MSM of the other; chunk j's MSM writes d_parts[j]. */
template <typename A, typename J, typename Fn>
static cuzk_status msm_key(run *R, Fn fn, J *d_out, J *d_parts, const A *d_pts, const A *h_pts,
                           const cuzk_fr *sc, size_t n, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    cuzk_gpu_stream gs = (cuzk_gpu_stream)R->compute;
    if (!R->streamed)
        return fn(d_out, d_pts, sc, n, R->d_scratch, R->scratch_size, gs, err);
    size_t chunk = R->stage_bytes / sizeof(A), nc = chunks(n, chunk);
    int slot[2] = {0, 0};
    if (nc && (st = stage_copy(R, h_pts, (n < chunk ? n : chunk) * sizeof(A), &slot[0], err)) !=
                  CUZK_OK)
        return st;
    for (size_t j = 0; j < nc; j++) {
        size_t off = j * chunk, len = n - off < chunk ? n - off : chunk;
        if (j + 1 < nc) {
            size_t off2 = off + chunk, len2 = n - off2 < chunk ? n - off2 : chunk;
            if ((st = stage_copy(R, h_pts + off2, len2 * sizeof(A), &slot[(j + 1) & 1], err)) !=
                CUZK_OK)
                return st;
        }
        int b = slot[j & 1];
        CUZK_CUDA_TRY(err, cudaStreamWaitEvent(R->compute, R->stage_ready[b], 0));
        if ((st = fn(d_parts + j, (const A *)R->d_stage[b], sc + off, len, R->d_scratch,
                     R->scratch_size, gs, err)) != CUZK_OK)
            return st;
        CUZK_CUDA_TRY(err, cudaEventRecord(R->stage_free[b], R->compute));
    }
    return CUZK_OK;
fail:
    return st;
}

/* The kernels of one partition, all on R->compute. */
static cuzk_status prove_one(run *R, const cuzk_prove_job *job, size_t i, const dev_key *k,
                             const dev_circuit *c, const cuzk_gpu_domain *gd, cuzk_error *err)
{
    const cuzk_groth16_pk *pk = job->pk;
    const cuzk_r1cs *r1cs = job->r1cs;
    bool snarkjs = pk->flavour == CUZK_GROTH16_SNARKJS;
    size_t n = (size_t)1 << pk->log2n, m = r1cs->n_constraints;
    int buf = (int)(i & 1);
    cuzk_fr *w = R->compact ? R->d_w : (cuzk_fr *)R->d_up[buf][0];
    cuzk_fr *a = R->d_abc, *b = a + n, *cc = b + n;
    cuzk_fr *g = R->d_g ? R->d_g : b; /* see cuda_start: b, c are free after H */
    cuzk_groth16_msm_results *res = R->d_res + i;
    cudaEvent_t *ev = R->stage_ev + i * EV_COUNT;
    cudaStream_t s = R->compute;
    cuzk_gpu_stream gs = (cuzk_gpu_stream)s;
    uint32_t aux0 = 1 + r1cs->n_public;
    cuzk_g2_jac *pg2 = R->streamed ? R->d_pg2 + i * R->maxc2 : NULL;
    cuzk_status st = CUZK_OK;

    CUZK_CUDA_TRY(err, cudaStreamWaitEvent(s, R->uploaded[buf], 0));
    CUZK_CUDA_TRY(err, cudaEventRecord(ev[EV_START], s));
    if ((st = fault("kernel", err)) != CUZK_OK)
        goto fail;
    if (R->compact) { /* expand; the upload slot is free right after */
        const uint64_t *bits = (const uint64_t *)R->d_up[buf][0];
        const cuzk_fr *dense = (const cuzk_fr *)R->d_up[buf][1];
        if ((st = cuzk_gpu_witness_expand(w, r1cs->n_vars, R->circ->d_is_bit, R->circ->d_rank,
                                          bits, dense, gs, err)) != CUZK_OK)
            goto fail;
        CUZK_CUDA_TRY(err, cudaEventRecord(R->consumed[buf], s));
    }
    if ((st = spmv_eval(R, c, CUZK_R1CS_A, w, a, err)) != CUZK_OK ||
        (st = spmv_eval(R, c, CUZK_R1CS_B, w, b, err)) != CUZK_OK)
        goto fail;
    if (!snarkjs && (st = spmv_eval(R, c, CUZK_R1CS_C, w, cc, err)) != CUZK_OK)
        goto fail;
    {
        size_t rows = m;
        if (pk->append_input_rows) { /* rows input_i * 0 = 0: a = w_i, b = c = 0 */
            CUZK_CUDA_TRY(err, cudaMemcpyAsync(a + m, w, pk->vk.n_ic * sizeof(cuzk_fr),
                                               cudaMemcpyDeviceToDevice, s));
            CUZK_CUDA_TRY(err, cudaMemsetAsync(b + m, 0, pk->vk.n_ic * sizeof(cuzk_fr), s));
            CUZK_CUDA_TRY(err, cudaMemsetAsync(cc + m, 0, pk->vk.n_ic * sizeof(cuzk_fr), s));
            rows += pk->vk.n_ic;
        }
        cuzk_fr *vs[3] = {a, b, cc};
        for (int v = 0; v < 3; v++)
            CUZK_CUDA_TRY(err, cudaMemsetAsync(vs[v] + rows, 0, (n - rows) * sizeof(cuzk_fr), s));
        /* snarkjs never evaluates C: c = a*b row by row, equal to C.w when satisfied */
        if (snarkjs && (st = cuzk_gpu_fr_mul_pointwise(cc, a, b, rows, gs, err)) != CUZK_OK)
            goto fail;
    }
    CUZK_CUDA_TRY(err, cudaEventRecord(ev[EV_EVAL], s));
    st = snarkjs ? cuzk_gpu_h_snarkjs(gd, a, b, cc, gs, err)
                 : cuzk_gpu_h_bellperson(gd, a, b, cc, gs, err);
    if (st != CUZK_OK)
        goto fail;
    CUZK_CUDA_TRY(err, cudaEventRecord(ev[EV_NTT], s));
    if ((st = msm_key(R, cuzk_gpu_g1s_msm, &res->h, g1_parts(R, i, 0), k->h, pk->h, a, pk->n_h,
                      err)) != CUZK_OK)
        goto fail;
    CUZK_CUDA_TRY(err, cudaEventRecord(ev[EV_H], s));
    if ((st = msm_key(R, cuzk_gpu_g1s_msm_auto, &res->l, g1_parts(R, i, 1), k->l, pk->l,
                      w + aux0, pk->n_l, err)) != CUZK_OK)
        goto fail;
    CUZK_CUDA_TRY(err, cudaEventRecord(ev[EV_L], s));
    {
        const cuzk_fr *sa = w, *sb = w;
        if (!snarkjs) {
            if ((st = cuzk_gpu_fr_gather(g, w, c->a_idx, c->n_a_idx, gs, err)) != CUZK_OK)
                goto fail;
            sa = g;
        }
        if ((st = msm_key(R, cuzk_gpu_g1s_msm_auto, &res->a, g1_parts(R, i, 2), k->a,
                          pk->a, sa, pk->n_a, err)) != CUZK_OK)
            goto fail;
        CUZK_CUDA_TRY(err, cudaEventRecord(ev[EV_A], s));
        if (!snarkjs) {
            if ((st = cuzk_gpu_fr_gather(g, w, c->b_idx, c->n_b_idx, gs, err)) != CUZK_OK)
                goto fail;
            sb = g;
        }
        /* the witness buffer is free once the last gather (or MSM) has read it */
        if (!snarkjs && !R->compact)
            CUZK_CUDA_TRY(err, cudaEventRecord(R->consumed[buf], s));
        if ((st = msm_key(R, cuzk_gpu_g1s_msm_auto, &res->b_g1, g1_parts(R, i, 3),
                          k->b_g1, pk->b_g1, sb, pk->n_b_g1, err)) != CUZK_OK)
            goto fail;
        CUZK_CUDA_TRY(err, cudaEventRecord(ev[EV_B1], s));
        if ((st = msm_key(R, cuzk_gpu_g2s_msm_auto, &res->b_g2, pg2, k->b_g2,
                          pk->b_g2, sb, pk->n_b_g2, err)) != CUZK_OK)
            goto fail;
        if (snarkjs && !R->compact)
            CUZK_CUDA_TRY(err, cudaEventRecord(R->consumed[buf], s));
        CUZK_CUDA_TRY(err, cudaEventRecord(ev[EV_B2], s));
    }
    return CUZK_OK;
fail:
    return st;
}

/* A streamed key's MSM results: the sums of their chunks' partials (infinity for an
 * empty vector), into R->h_res. */
static void sum_parts(run *R, const cuzk_prove_job *job)
{
    const cuzk_groth16_pk *pk = job->pk;
    size_t c1 = R->stage_bytes / sizeof(cuzk_g1_affine), c2 = R->stage_bytes / sizeof(cuzk_g2_affine);
    const size_t n1[4] = {pk->n_h, pk->n_l, pk->n_a, pk->n_b_g1};
    for (size_t i = 0; i < job->n; i++) {
        cuzk_g1_jac *out1[4] = {&R->h_res[i].h, &R->h_res[i].l, &R->h_res[i].a,
                                &R->h_res[i].b_g1};
        for (int w = 0; w < 4; w++) {
            const cuzk_g1_jac *p = R->h_pg1 + (i * 4 + (size_t)w) * R->maxc1;
            cuzk_g1_jac acc, t;
            memset(&acc, 0, sizeof acc); /* z = 0: infinity */
            for (size_t j = 0; j < chunks(n1[w], c1); j++) {
                cuzk_g1_jac_add(&t, &acc, &p[j]);
                acc = t;
            }
            *out1[w] = acc;
        }
        const cuzk_g2_jac *p2 = R->h_pg2 + i * R->maxc2;
        cuzk_g2_jac acc2, t2;
        memset(&acc2, 0, sizeof acc2);
        for (size_t j = 0; j < chunks(pk->n_b_g2, c2); j++) {
            cuzk_g2_jac_add(&t2, &acc2, &p2[j]);
            acc2 = t2;
        }
        R->h_res[i].b_g2 = acc2;
    }
}

static void run_release(run *R)
{
    /* Drain first: nothing may still read or write the buffers we free. Errors are
     * ignored here: the first one was reported by the failing call. */
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
    if (R->h_res)
        CUZK_CUDA_IGNORE(cudaFreeHost(R->h_res));
    if (R->h_pg1)
        CUZK_CUDA_IGNORE(cudaFreeHost(R->h_pg1));
    if (R->h_pg2)
        CUZK_CUDA_IGNORE(cudaFreeHost(R->h_pg2));
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

/* A sticky error leaves the context unusable: later starts must not run on it. */
static void note_sticky(cuda_prover *cp, const cuzk_error *err)
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

static void unuse(cuda_prover *cp, dev_key *k, dev_circuit *c, bool admitted, size_t need)
{
    pthread_mutex_lock(&cp->cache_mu);
    if (admitted) { /* the working set is back (run_release synchronised the frees) */
        cp->admitted--;
        cp->admitted_bytes -= need;
        pthread_cond_broadcast(&cp->released);
    }
    if (k && k->pk)
        k->slot.in_use--;
    if (c && c->r1cs)
        c->slot.in_use--;
    pthread_mutex_unlock(&cp->cache_mu);
}

/* The MSM scratch of a partition with windows of at most `bits` (cuzk/gpu.h). */
static size_t msm_scratch(const cuzk_groth16_pk *pk, size_t g_len, unsigned bits)
{
    return max2(max2(cuzk_gpu_g1s_msm_scratch_size_capped(pk->n_h, bits),
                     cuzk_gpu_g1s_msm_auto_scratch_size_capped(max2(pk->n_l, g_len), bits)),
                cuzk_gpu_g2s_msm_auto_scratch_size_capped(pk->n_b_g2, bits));
}

/* A card too small for the working set with the default MSM windows proves with narrower
 * ones (msm_plan_fit: fewer buckets; at 2^27 c = 22 -> 19 saves 3.9 GiB): the widest cap
 * whose working set fits what the device could give one job, every idle resident evicted
 * and every other job's working set back. The capacity, not the free memory of the
 * moment, so a second worker waits for the first rather than shrinking its windows. A
 * cap is logged when it changes. (Measured on the H200 with CUZK_GPU_MEM_LIMIT=24G: the
 * scratch goes from 11.75 to 7.18 GiB at the narrowest windows; what is left is the
 * canonical scalars, the sorted pairs and the split's index lists.) */
static cuzk_status msm_window_cap(cuda_prover *cp, const cuzk_groth16_pk *pk, size_t g_len,
                                  size_t *scratch, size_t *need, size_t stream_need,
                                  cuzk_error *err)
{
    size_t free_b = 0, total_b = 0;
    pthread_mutex_lock(&cp->cache_mu);
    cuzk_status st = device_free(cp, true, &free_b, &total_b, err);
    size_t could = free_b + idle_bytes(cp) + cp->admitted_bytes;
    pthread_mutex_unlock(&cp->cache_mu);
    if (st != CUZK_OK || *need + stream_need + HEADROOM_BYTES <= could)
        return st;
    size_t base = *need - *scratch, sc = *scratch;
    unsigned bits;
    for (bits = 21; bits >= 4; bits--) {
        sc = msm_scratch(pk, g_len, bits);
        if (base + sc + stream_need + HEADROOM_BYTES <= could)
            break;
    }
    /* Nothing fits: the default windows, and admission fails with its numbers (narrower
     * windows would only slow the job down on a card that can take it later). At 2^27
     * the rest of the working set (a, b, c and the expanded witness: 16.5 GiB) and the
     * least scratch (7.2 GiB) need 23.6 GiB: a 24 GiB card is short by ~1.5 GiB. */
    if (bits < 4)
        return CUZK_OK;
    if (__atomic_exchange_n(&cp->msm_cap_logged, bits, __ATOMIC_RELAXED) != bits)
        cuda_log(cp, true, "gpu:%d: MSM windows capped at %u bits for 2^%u: the working set "
                 "needs %.2f GiB with the default windows and %.2f GiB of %.2f GiB can be "
                 "freed on the device (MSM scratch %.2f -> %.2f GiB)", cp->dev, bits,
                 pk->log2n, (double)(*need + stream_need) / (1u << 30),
                 (double)could / (1u << 30), (double)total_b / (1u << 30),
                 (double)*scratch / (1u << 30), (double)sc / (1u << 30));
    *need = base + sc;
    *scratch = sc;
    return CUZK_OK;
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
    size_t n = (size_t)1 << pk->log2n;
    size_t wbytes = (size_t)r1cs->n_vars * sizeof(cuzk_fr);
    /* compact witnesses (one kind and map per batch: prover.c checks) cross PCIe as
     * bitmap + dense values and are expanded on the device */
    bool compact = job->ws[0].kind == CUZK_WITNESS_COMPACT;
    size_t n_bits = compact ? job->ws[0].map->n_bits : 0;
    size_t up_bytes[2] = {compact ? (n_bits + 63) / 64 * 8 : wbytes,
                          compact ? (r1cs->n_vars - n_bits) * sizeof(cuzk_fr) : 0};
    double t0 = cuzk_prover_now_ms(), t_lock = 0, t_unlock = 0;

    /* The working set, known before anything is allocated: key_get weighs it against the
     * key to decide between a resident and a streamed key. */
    size_t g_len = max2(pk->n_a, pk->n_b_g1);
    R.scratch_size = max2(max2(cuzk_gpu_g1s_msm_scratch_size(pk->n_h),
                               cuzk_gpu_g1s_msm_auto_scratch_size(max2(pk->n_l, g_len))),
                          cuzk_gpu_g2s_msm_auto_scratch_size(pk->n_b_g2));
    /* the density gathers run after H, when b and c (2n elements) are dead */
    bool g_in_bc = g_len <= 2 * n;
    size_t slots = job->n > 1 ? 2 : 1;
    size_t need = slots * (up_bytes[0] + up_bytes[1]) + (compact ? wbytes : 0) +
                  3 * n * sizeof(cuzk_fr) + (g_in_bc ? 0 : g_len * sizeof(cuzk_fr)) +
                  R.scratch_size + job->n * sizeof(cuzk_groth16_msm_results);
    size_t g1_max = max2(max2(pk->n_h, pk->n_l), g_len);
    /* what streaming would add, at the smallest staging, for key_get's decision */
    size_t stream_need = stage_plan(&R, job, g1_max,
                                    cp->stage_bytes_req ? cp->stage_bytes_req : STAGE_BYTES_MIN);

    if (cp->broken)
        return cuzk_error_set(err, CUZK_ERR_CUDA, "gpu:%d is out of service after: %s",
                              cp->dev, cp->broken_msg);
    CUZK_CUDA_TRY(err, cudaSetDevice(cp->dev));
    if ((st = msm_window_cap(cp, pk, g_len, &R.scratch_size, &need, stream_need, err)) != CUZK_OK)
        goto fail;


    pthread_mutex_lock(&cp->cache_mu);
    st = circuit_get(cp, pk, r1cs, need + stream_need, &c, err);
    if (st == CUZK_OK)
        c->slot.in_use++;
    if (st == CUZK_OK && compact)
        st = map_get(cp, c, job->ws[0].map, err);
    if (st == CUZK_OK)
        st = domain_get(cp, pk, &gd, err);
    if (st == CUZK_OK && (st = key_get(cp, pk, need + stream_need, &k, err)) == CUZK_OK)
        k->slot.in_use++;
    cp->clock++;
    if (k)
        k->slot.last_used = cp->clock;
    if (c)
        c->slot.last_used = cp->clock;
    pthread_mutex_unlock(&cp->cache_mu);
    if (st != CUZK_OK)
        goto fail;
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
            if ((st = device_free(cp, false, &free_b, &total_b, err)) != CUZK_OK)
                goto fail;
            if (free_b > need + HEADROOM_BYTES)
                spare = (free_b - need - HEADROOM_BYTES) / 4;
            want = spare > STAGE_BYTES_MAX   ? STAGE_BYTES_MAX
                   : spare < STAGE_BYTES_MIN ? STAGE_BYTES_MIN
                                             : spare;
        }
        stream_need = stage_plan(&R, job, g1_max, want, csr_max);
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
    R.up_bytes[0] = up_bytes[0];
    R.up_bytes[1] = up_bytes[1];
    if (!R.stage_ev || !R.reg) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "gpu: out of host memory");
        goto fail;
    }
    for (size_t e = 0; e < R.n_stage_ev; e++)
        CUZK_CUDA_TRY(err, cudaEventCreate(&R.stage_ev[e]));
    {
        /* Admission: idle residents may go to make room; if the card is still too full
         * while other jobs hold working sets, wait for one of them to finish rather than
         * fail (two workers at 2^27 may not fit side by side: they then take turns). */
        pthread_mutex_lock(&cp->cache_mu);
        while ((st = make_room(cp, need, "the proof's working set", NULL, err)) ==
                   CUZK_ERR_NOMEM &&
               cp->admitted > 0 && !(cancel && *cancel))
            pthread_cond_wait(&cp->released, &cp->cache_mu);
        if (st == CUZK_OK) {
            cp->admitted++;
            cp->admitted_bytes += need;
            admitted = true;
        }
        pthread_mutex_unlock(&cp->cache_mu);
        if (st != CUZK_OK)
            goto fail;
        if ((st = fault("alloc", err)) != CUZK_OK)
            goto fail;
        for (size_t b = 0; b < slots; b++)
            for (int k = 0; k < 2; k++)
                if (up_bytes[k])
                    CUZK_CUDA_TRY(err, cudaMallocAsync(&R.d_up[b][k], up_bytes[k], R.copy));
        if (compact)
            CUZK_CUDA_TRY(err, cudaMallocAsync((void **)&R.d_w, wbytes, R.copy));
        CUZK_CUDA_TRY(err, cudaMallocAsync((void **)&R.d_abc, 3 * n * sizeof(cuzk_fr), R.copy));
        if (!g_in_bc)
            CUZK_CUDA_TRY(err, cudaMallocAsync((void **)&R.d_g, g_len * sizeof(cuzk_fr), R.copy));
        CUZK_CUDA_TRY(err, cudaMallocAsync(&R.d_scratch, R.scratch_size, R.copy));
        CUZK_CUDA_TRY(err, cudaMallocAsync((void **)&R.d_res,
                                           job->n * sizeof(cuzk_groth16_msm_results), R.copy));
        CUZK_CUDA_TRY(err, cudaMallocHost((void **)&R.h_res,
                                          job->n * sizeof(cuzk_groth16_msm_results)));
        if (R.streamed || R.csr_streamed) {
            for (int b = 0; b < 2; b++) {
                CUZK_CUDA_TRY(err, cudaMallocAsync(&R.d_stage[b], R.stage_bytes, R.copy));
                CUZK_CUDA_TRY(err, cudaEventCreateWithFlags(&R.stage_ready[b],
                                                            cudaEventDisableTiming));
                CUZK_CUDA_TRY(err, cudaEventCreateWithFlags(&R.stage_free[b],
                                                            cudaEventDisableTiming));
                CUZK_CUDA_TRY(err, cudaEventRecord(R.stage_free[b], R.copy));
            }
        }
        if (R.streamed) {
            size_t n1 = job->n * 4 * R.maxc1, n2 = job->n * R.maxc2;
            CUZK_CUDA_TRY(err, cudaMallocAsync((void **)&R.d_pg1, n1 * sizeof(cuzk_g1_jac), R.copy));
            CUZK_CUDA_TRY(err, cudaMallocAsync((void **)&R.d_pg2, n2 * sizeof(cuzk_g2_jac), R.copy));
            CUZK_CUDA_TRY(err, cudaMallocHost((void **)&R.h_pg1, n1 * sizeof(cuzk_g1_jac)));
            CUZK_CUDA_TRY(err, cudaMallocHost((void **)&R.h_pg2, n2 * sizeof(cuzk_g2_jac)));
        }
        /* the compute stream may use the buffers only after their allocation */
        CUZK_CUDA_TRY(err, cudaEventRecord(R.consumed[0], R.copy));
        CUZK_CUDA_TRY(err, cudaEventRecord(R.consumed[1], R.copy));
    }
    for (size_t i = 0; i < job->n; i++) {
        /* Pinned in place so the copies run at full PCIe speed and asynchronously
         * (counted: host_pin.h); a buffer that cannot be pinned is copied from pageable
         * memory, which is slower but correct. */
        const void *part[2];
        witness_parts(&job->ws[i], part);
        for (int k = 0; k < 2; k++) {
            if (!up_bytes[k])
                continue;
            if (host_pin_take(part[k], up_bytes[k]))
                R.reg[R.n_reg++] = (void *)part[k];
        }
    }
    for (size_t i = 0; i < job->n && i < 2; i++)
        if ((st = upload_witness(&R, &job->ws[i], (int)i, err)) != CUZK_OK)
            goto fail;
    if (cancel && *cancel) {
        st = cuzk_error_set(err, CUZK_ERR_CANCELLED, "gpu: cancelled");
        goto fail;
    }

    /* ---- under the mutex: kernels only */
    t_lock = cuzk_prover_now_ms();
    pthread_mutex_lock(&cp->device_mu);
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
            (st = upload_witness(&R, &job->ws[i + 2], (int)(i & 1), err)) != CUZK_OK)
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
    pthread_mutex_unlock(&cp->device_mu);
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
    run_release(&R);
    unuse(cp, k, c, admitted, need);
    job->t.ms[CUZK_STAGE_UPLOAD] += (t_lock - t0) - job->t.ms[CUZK_STAGE_LOCK_WAIT];
    return CUZK_OK;
fail:
    note_sticky(cp, err);
    run_release(&R);
    if (locked)
        pthread_mutex_unlock(&cp->device_mu);
    unuse(cp, k, c, admitted, need);
    (void)t_unlock;
    return st;
}

/* ---- prover lifetime ------------------------------------------------------------------ */

static void cuda_forget(cuzk_prover *p, const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs)
{
    cuda_prover *cp = (cuda_prover *)p->impl;
    pthread_mutex_lock(&cp->cache_mu);
    (void)cudaSetDevice(cp->dev);
    for (int i = 0; i < MAX_RESIDENT; i++) {
        /* the caller promises no job runs with them (cuzk/prover.h) */
        if (pk && cp->keys[i].pk == pk)
            key_release(&cp->keys[i]);
        if (r1cs && cp->circuits[i].r1cs == r1cs)
            circuit_release(&cp->circuits[i]);
    }
    pthread_mutex_unlock(&cp->cache_mu);
}

static void cuda_close(cuzk_prover *p)
{
    cuda_prover *cp = (cuda_prover *)p->impl;
    if (!cp)
        return;
    (void)cudaSetDevice(cp->dev);
    for (int i = 0; i < MAX_RESIDENT; i++) {
        key_release(&cp->keys[i]);
        circuit_release(&cp->circuits[i]);
        cuzk_gpu_domain_destroy(cp->domains[i].gd);
    }
    pthread_mutex_destroy(&cp->device_mu);
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
    const char *csr = getenv("CUZK_GPU_CSR");
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

static const cuzk_prover_ops k_cuda_ops = {cuda_start, cuda_forget, cuda_close, cuda_in_service};

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
    pthread_mutex_init(&cp->device_mu, NULL);
    pthread_mutex_init(&cp->cache_mu, NULL);
    pthread_cond_init(&cp->released, NULL);
    p->impl = cp;
    p->ops = &k_cuda_ops;
    snprintf(p->desc, sizeof p->desc, "gpu:%d %.64s (%.1f GiB, %d SMs)", device, prop.name,
             (double)prop.totalGlobalMem / (1u << 30), prop.multiProcessorCount);
    return CUZK_OK;
fail:
    return st;
}
