/*
 * cuda_partition.cu — the kernels of one partition on the CUDA backend (prove_one: the
 * compact witness expanded, A·w, B·w, C·w, the quotient H, the H, L, A, B_G1 and B_G2 MSMs)
 * and what a streamed key or constraint system adds to them: copies through the run's two
 * staging buffers on the copy stream, each gated by events so that the copy of one chunk
 * overlaps the kernels of the other; then the host sums of a streamed key's partial MSMs.
 * Threading: called by the thread that owns the run, under the device mutex (prove_one)
 * or after it (sum_parts).
 */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/gpu.h"
#include "gpu/gpu_export.h"
#include "prover/cuda_run.h"

cuzk_status cuda_fault(const char *where, cuzk_error *err)
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

size_t stage_plan(run *R, const cuzk_prove_job *job, size_t g1_max, size_t want,
                  size_t csr_max)
{
    gpu_stage g;
    gpu_stage_plan(&g, g1_max, job->pk->n_b_g2, job->n, want, csr_max);
    R->stage_bytes = g.stage_bytes;
    R->maxc1 = g.maxc1;
    R->maxc2 = g.maxc2;
    return g.bytes;
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
        blk.d_long = NULL; /* the list numbers rows of the whole matrix: a thread a row */
        blk.n_long = 0;
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
cuzk_status prove_one(run *R, const cuzk_prove_job *job, size_t i, const dev_key *k,
                             const dev_circuit *c, const cuzk_gpu_domain *gd, cuzk_error *err)
{
    const cuzk_groth16_pk *pk = job->pk;
    const cuzk_r1cs *r1cs = job->r1cs;
    bool snarkjs = pk->flavour == CUZK_GROTH16_SNARKJS;
    size_t n = (size_t)1 << pk->log2n, m = r1cs->n_constraints;
    int buf = (int)(i & 1);
    cuzk_fr *w = R->compact ? R->d_w : (cuzk_fr *)R->d_up[buf][0];
    /* bellperson: two n-vectors, c evaluated into b's buffer once a*b is on the coset
     * (cuzk_gpu_h_bellperson_begin/end); snarkjs: c = a*b before the transforms, three */
    cuzk_fr *a = R->d_abc, *b = a + n, *cc = snarkjs ? b + n : b;
    cuzk_fr *g = R->d_g ? R->d_g : b; /* see cuda_start: b (and c) are dead after H */
    cuzk_groth16_msm_results *res = R->d_res + i;
    cudaEvent_t *ev = R->stage_ev + i * EV_COUNT;
    cudaStream_t s = R->compute;
    cuzk_gpu_stream gs = (cuzk_gpu_stream)s;
    uint32_t aux0 = 1 + r1cs->n_public;
    cuzk_g2_jac *pg2 = R->streamed ? R->d_pg2 + i * R->maxc2 : NULL;
    cuzk_status st = CUZK_OK;

    CUZK_CUDA_TRY(err, cudaStreamWaitEvent(s, R->uploaded[buf], 0));
    CUZK_CUDA_TRY(err, cudaEventRecord(ev[EV_START], s));
    if ((st = cuda_fault("kernel", err)) != CUZK_OK)
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
    {
        const size_t rows = pk->append_input_rows ? m + pk->vk.n_ic : m;
        if (pk->append_input_rows) /* rows input_i * 0 = 0: a = w_i, b = c = 0 */
            CUZK_CUDA_TRY(err, cudaMemcpyAsync(a + m, w, pk->vk.n_ic * sizeof(cuzk_fr),
                                               cudaMemcpyDeviceToDevice, s));
        CUZK_CUDA_TRY(err, cudaMemsetAsync(a + rows, 0, (n - rows) * sizeof(cuzk_fr), s));
        CUZK_CUDA_TRY(err, cudaMemsetAsync(b + m, 0, (n - m) * sizeof(cuzk_fr), s));
        if (snarkjs) { /* snarkjs never evaluates C: c = a*b row by row (C.w when satisfied) */
            CUZK_CUDA_TRY(err, cudaMemsetAsync(cc + rows, 0, (n - rows) * sizeof(cuzk_fr), s));
            if ((st = cuzk_gpu_fr_mul_pointwise(cc, a, b, rows, gs, err)) != CUZK_OK)
                goto fail;
        }
        CUZK_CUDA_TRY(err, cudaEventRecord(ev[EV_EVAL], s));
        if (snarkjs) {
            st = cuzk_gpu_h_snarkjs(gd, a, b, cc, gs, err);
        } else if ((st = cuzk_gpu_h_bellperson_begin(gd, a, b, gs, err)) == CUZK_OK &&
                   (st = spmv_eval(R, c, CUZK_R1CS_C, w, cc, err)) == CUZK_OK) {
            /* C.w into b's buffer, b being dead: its SpMV (~4 ms at 2^27) counts as NTT */
            cudaError_t ce = cudaMemsetAsync(cc + m, 0, (n - m) * sizeof(cuzk_fr), s);
            st = ce == cudaSuccess ? cuzk_gpu_h_bellperson_end(gd, a, cc, gs, err)
                                   : cuzk_cuda_error(err, ce, "cudaMemsetAsync", __FILE__,
                                                     __LINE__);
        }
        if (st != CUZK_OK)
            goto fail;
    }
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
void sum_parts(run *R, const cuzk_prove_job *job)
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
