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
#include "prover/prover_internal.h"

#define MAX_RESIDENT 4
/* Device memory left free after our allocations: the CUDA context, CUB's and the
 * stream-ordered pool's own bookkeeping need headroom, and another process may share the
 * card. */
#define HEADROOM_BYTES ((size_t)1 << 30)

/* Residency bookkeeping shared by keys and circuits (the first member of both). */
typedef struct dev_slot {
    const void *owner;  /* the host pk / r1cs this entry mirrors; NULL: free */
    uint64_t last_used; /* cuda_prover.clock at the last start that used it */
    int in_use;         /* starts running with it: never evicted then */
} dev_slot;

typedef struct dev_key {
    dev_slot slot;
    const cuzk_groth16_pk *pk;
    cuzk_g1_affine *h, *l, *a, *b_g1;
    cuzk_g2_affine *b_g2;
    size_t bytes;
} dev_key;

typedef struct dev_circuit {
    dev_slot slot;
    const cuzk_r1cs *r1cs;
    bool bellperson;          /* density index lists present */
    cuzk_gpu_csr m[CUZK_R1CS_MATRICES];
    uint64_t *row_ptr[CUZK_R1CS_MATRICES];
    uint32_t *col[CUZK_R1CS_MATRICES], *coeff_idx[CUZK_R1CS_MATRICES];
    cuzk_fr *table;           /* distinct coefficients, shared by the three matrices */
    uint32_t *a_idx, *b_idx;  /* bellperson: variables of the A and B vectors */
    const cuzk_witness_map *map; /* the compact-witness map uploaded below (NULL: none) */
    uint64_t *d_is_bit;
    uint32_t *d_rank;
    size_t n_a_idx, n_b_idx;
    size_t bytes;
} dev_circuit;

typedef struct dev_domain {
    unsigned log2n;
    cuzk_domain_convention conv;
    cuzk_gpu_domain *gd;
} dev_domain;

typedef struct cuda_prover {
    int dev;
    pthread_mutex_t device_mu; /* kernel work */
    pthread_mutex_t cache_mu;  /* the resident caches below, and the admission state */
    pthread_cond_t released;   /* a job's working set went back (admission waits on it) */
    int admitted;              /* jobs holding a working set now */
    dev_key keys[MAX_RESIDENT];
    dev_circuit circuits[MAX_RESIDENT];
    dev_domain domains[MAX_RESIDENT];
    uint64_t clock;            /* counts starts, for least-recently-used eviction */
    int broken;                /* a sticky CUDA error was seen: the context is gone */
    char broken_msg[CUZK_ERROR_MSG_MAX];
} cuda_prover;

/* ---- resident caches ------------------------------------------------------------------ */

static void key_release(dev_key *k)
{
    cudaFree(k->h);
    cudaFree(k->l);
    cudaFree(k->a);
    cudaFree(k->b_g1);
    cudaFree(k->b_g2);
    memset(k, 0, sizeof *k);
}

static void circuit_release(dev_circuit *c)
{
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++) {
        cudaFree(c->row_ptr[m]);
        cudaFree(c->col[m]);
        cudaFree(c->coeff_idx[m]);
    }
    cudaFree(c->table);
    cudaFree(c->a_idx);
    cudaFree(c->b_idx);
    cudaFree(c->d_is_bit);
    cudaFree(c->d_rank);
    memset(c, 0, sizeof *c);
}

/* Fails with NOMEM (naming what) unless `bytes` more fit on the device with headroom. */
static cuzk_status check_fits(size_t bytes, const char *what, cuzk_error *err)
{
    size_t free_b = 0, total_b = 0;
    cuzk_status st = CUZK_OK;
    CUZK_CUDA_TRY(err, cudaMemGetInfo(&free_b, &total_b));
    if (bytes + HEADROOM_BYTES > free_b) {
        /* memory cached by the stream-ordered pool counts as used: hand it back first */
        int dev = 0;
        cudaMemPool_t pool;
        CUZK_CUDA_TRY(err, cudaGetDevice(&dev));
        CUZK_CUDA_TRY(err, cudaDeviceGetDefaultMemPool(&pool, dev));
        CUZK_CUDA_TRY(err, cudaMemPoolTrimTo(pool, 0));
        CUZK_CUDA_TRY(err, cudaMemGetInfo(&free_b, &total_b));
    }
    if (bytes + HEADROOM_BYTES > free_b)
        return cuzk_error_set(err, CUZK_ERR_NOMEM,
                              "gpu: %s needs %.2f GiB of device memory, %.2f GiB of %.2f GiB "
                              "are free (streaming from host memory is not implemented)",
                              what, (double)bytes / (1u << 30), (double)free_b / (1u << 30),
                              (double)total_b / (1u << 30));
    return CUZK_OK;
fail:
    return st;
}

template <typename T>
static cuzk_status upload(T **dst, const T *src, size_t n, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    *dst = NULL;
    if (n == 0)
        return CUZK_OK;
    CUZK_CUDA_TRY(err, cudaMalloc((void **)dst, n * sizeof(T)));
    CUZK_CUDA_TRY(err, cudaMemcpy(*dst, src, n * sizeof(T), cudaMemcpyHostToDevice));
    return CUZK_OK;
fail:
    return st;
}

/* The entry of owner among n slots (*hit), else a free one, else the least recently used
 * idle one (the caller releases it); -1 when every entry is in use. */
static int slot_pick(dev_slot *const *slots, int n, const void *owner, bool *hit)
{
    int pick = -1;
    *hit = false;
    for (int i = 0; i < n; i++)
        if (slots[i]->owner == owner) {
            *hit = true;
            return i;
        }
    for (int i = 0; i < n && pick < 0; i++)
        if (!slots[i]->owner)
            pick = i;
    if (pick < 0)
        for (int i = 0; i < n; i++)
            if (!slots[i]->in_use && (pick < 0 || slots[i]->last_used < slots[pick]->last_used))
                pick = i;
    return pick;
}

static void key_release(dev_key *k);
static void circuit_release(dev_circuit *c);

/* Releases the least recently used idle key or circuit other than `keep`; false if there
 * is none (then nothing more can be freed for a new upload). */
static bool evict_one(cuda_prover *cp, const dev_slot *keep)
{
    dev_slot *best = NULL;
    for (int i = 0; i < MAX_RESIDENT; i++) {
        dev_slot *c[2] = {&cp->keys[i].slot, &cp->circuits[i].slot};
        for (int j = 0; j < 2; j++)
            if (c[j]->owner && !c[j]->in_use && c[j] != keep &&
                (!best || c[j]->last_used < best->last_used))
                best = c[j];
    }
    if (!best)
        return false;
    for (int i = 0; i < MAX_RESIDENT; i++) {
        if (best == &cp->keys[i].slot)
            key_release(&cp->keys[i]);
        if (best == &cp->circuits[i].slot)
            circuit_release(&cp->circuits[i]);
    }
    return true;
}

/* check_fits, evicting idle residents (least recently used first) while that helps. */
static cuzk_status make_room(cuda_prover *cp, size_t bytes, const char *what,
                             const dev_slot *keep, cuzk_error *err)
{
    cuzk_status st;
    while ((st = check_fits(bytes, what, err)) == CUZK_ERR_NOMEM && evict_one(cp, keep))
        ;
    return st;
}

static cuzk_status key_get(cuda_prover *cp, const cuzk_groth16_pk *pk, dev_key **out,
                           cuzk_error *err)
{
    dev_slot *slots[MAX_RESIDENT];
    for (int i = 0; i < MAX_RESIDENT; i++)
        slots[i] = &cp->keys[i].slot;
    bool hit;
    int slot = slot_pick(slots, MAX_RESIDENT, pk, &hit);
    if (hit) {
        *out = &cp->keys[slot];
        return CUZK_OK;
    }
    if (slot < 0)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "gpu: %d proving keys are in use; no slot for another",
                              MAX_RESIDENT);
    key_release(&cp->keys[slot]);
    dev_key *k = &cp->keys[slot];
    size_t bytes = (pk->n_h + pk->n_l + pk->n_a + pk->n_b_g1) * sizeof(cuzk_g1_affine) +
                   pk->n_b_g2 * sizeof(cuzk_g2_affine);
    cuzk_status st = make_room(cp, bytes, "the proving key", &k->slot, err);
    if (st == CUZK_OK && (st = upload(&k->h, pk->h, pk->n_h, err)) == CUZK_OK &&
        (st = upload(&k->l, pk->l, pk->n_l, err)) == CUZK_OK &&
        (st = upload(&k->a, pk->a, pk->n_a, err)) == CUZK_OK &&
        (st = upload(&k->b_g1, pk->b_g1, pk->n_b_g1, err)) == CUZK_OK)
        st = upload(&k->b_g2, pk->b_g2, pk->n_b_g2, err);
    if (st != CUZK_OK) {
        key_release(k);
        return st;
    }
    k->pk = pk;
    k->slot.owner = pk;
    k->bytes = bytes;
    *out = k;
    return CUZK_OK;
}

/* The bellperson A / B vector variables in order (cuzk/groth16.h "Keys and flavours"). */
static size_t density_list(uint32_t *dst, const cuzk_r1cs *r1cs, cuzk_r1cs_matrix m,
                           bool all_inputs)
{
    size_t k = 0;
    uint32_t aux0 = 1 + r1cs->n_public;
    for (uint32_t v = 0; v < r1cs->n_vars; v++)
        if ((all_inputs && v < aux0) || cuzk_r1cs_density_test(r1cs, m, v))
            dst[k++] = v;
    return k;
}

static cuzk_status circuit_get(cuda_prover *cp, const cuzk_groth16_pk *pk,
                               const cuzk_r1cs *r1cs, dev_circuit **out, cuzk_error *err)
{
    bool bell = pk->flavour == CUZK_GROTH16_BELLPERSON;
    dev_slot *slots[MAX_RESIDENT];
    for (int i = 0; i < MAX_RESIDENT; i++)
        slots[i] = &cp->circuits[i].slot;
    bool hit;
    int slot = slot_pick(slots, MAX_RESIDENT, r1cs, &hit);
    if (hit && cp->circuits[slot].bellperson != bell) { /* other flavour: rebuild */
        if (cp->circuits[slot].slot.in_use)
            return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                                  "gpu: this circuit is in use with another key flavour");
        circuit_release(&cp->circuits[slot]);
        hit = false;
    }
    if (hit) {
        *out = &cp->circuits[slot];
        return CUZK_OK;
    }
    if (slot < 0)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "gpu: %d circuits are in use; no slot for another", MAX_RESIDENT);
    circuit_release(&cp->circuits[slot]);
    dev_circuit *c = &cp->circuits[slot];
    cuzk_fr *table = NULL;
    uint32_t n_table = 0, *cidx[CUZK_R1CS_MATRICES] = {NULL, NULL, NULL}, *idx = NULL;
    cuzk_status st = cuzk_r1cs_coeff_table(r1cs, &table, &n_table, cidx, err);
    size_t bytes = (size_t)n_table * sizeof(cuzk_fr);
    for (int m = 0; m < (bell ? CUZK_R1CS_MATRICES : CUZK_R1CS_C); m++)
        bytes += (r1cs->n_constraints + 1) * 8 + r1cs->m[m].nnz * 8;
    if (bell)
        bytes += 2 * (size_t)r1cs->n_vars * 4;
    if (st == CUZK_OK)
        st = make_room(cp, bytes, "the constraint system", &c->slot, err);
    if (st == CUZK_OK)
        st = upload(&c->table, table, n_table, err);
    for (int m = 0; m < CUZK_R1CS_MATRICES && st == CUZK_OK; m++) {
        const cuzk_csr *h = &r1cs->m[m];
        cuzk_gpu_csr *d = &c->m[m];
        if (m == CUZK_R1CS_C && !bell)
            continue; /* snarkjs keys never evaluate C (c = a*b), and a .zkey has none */
        st = upload(&c->row_ptr[m], h->row_ptr, r1cs->n_constraints + 1, err);
        if (st == CUZK_OK)
            st = upload(&c->col[m], h->col, h->nnz, err);
        if (st == CUZK_OK)
            st = upload(&c->coeff_idx[m], cidx[m], h->nnz, err);
        d->rows = r1cs->n_constraints;
        d->nnz = h->nnz;
        d->d_row_ptr = c->row_ptr[m];
        d->d_col = c->col[m];
        d->d_coeff_idx = c->coeff_idx[m];
        d->d_table = c->table;
    }
    if (st == CUZK_OK && bell) {
        idx = (uint32_t *)malloc((size_t)r1cs->n_vars * sizeof *idx);
        if (!idx)
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "gpu: out of host memory");
        if (st == CUZK_OK) {
            c->n_a_idx = density_list(idx, r1cs, CUZK_R1CS_A, true);
            st = c->n_a_idx == pk->n_a
                     ? upload(&c->a_idx, idx, c->n_a_idx, err)
                     : cuzk_error_set(err, CUZK_ERR_INTERNAL, "gpu: A density mismatch");
        }
        if (st == CUZK_OK) {
            c->n_b_idx = density_list(idx, r1cs, CUZK_R1CS_B, false);
            st = c->n_b_idx == pk->n_b_g1
                     ? upload(&c->b_idx, idx, c->n_b_idx, err)
                     : cuzk_error_set(err, CUZK_ERR_INTERNAL, "gpu: B density mismatch");
        }
    }
    free(idx);
    free(table);
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
        free(cidx[m]);
    if (st != CUZK_OK) {
        circuit_release(c);
        return st;
    }
    c->r1cs = r1cs;
    c->slot.owner = r1cs;
    c->bellperson = bell;
    c->bytes = bytes;
    *out = c;
    return CUZK_OK;
}

/* The compact-witness map of c's circuit on the device (replacing another map). */
static cuzk_status map_get(dev_circuit *c, const cuzk_witness_map *map, cuzk_error *err)
{
    if (c->map == map)
        return CUZK_OK;
    cudaFree(c->d_is_bit);
    cudaFree(c->d_rank);
    c->d_is_bit = NULL;
    c->d_rank = NULL;
    c->map = NULL;
    size_t words = ((size_t)map->n_vars + 63) / 64;
    cuzk_status st = check_fits(words * 12, "the witness map", err);
    if (st == CUZK_OK)
        st = upload(&c->d_is_bit, map->is_bit, words, err);
    if (st == CUZK_OK)
        st = upload(&c->d_rank, map->rank, words, err);
    if (st == CUZK_OK)
        c->map = map;
    return st;
}

static cuzk_status domain_get(cuda_prover *cp, const cuzk_groth16_pk *pk, cuzk_gpu_domain **out,
                              cuzk_error *err)
{
    cuzk_domain_convention conv = pk->flavour == CUZK_GROTH16_SNARKJS ? CUZK_DOMAIN_SNARKJS
                                                                      : CUZK_DOMAIN_BELLPERSON;
    int slot = -1;
    for (int i = 0; i < MAX_RESIDENT; i++) {
        dev_domain *d = &cp->domains[i];
        if (d->gd && d->log2n == pk->log2n && d->conv == conv) {
            *out = d->gd;
            return CUZK_OK;
        }
        if (!d->gd && slot < 0)
            slot = i;
    }
    if (slot < 0) { /* domains are small: recycle the first slot */
        cuzk_gpu_domain_destroy(cp->domains[0].gd);
        cp->domains[0].gd = NULL;
        slot = 0;
    }
    cuzk_domain *hd = (cuzk_domain *)malloc(sizeof *hd);
    if (!hd)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "gpu: out of host memory");
    cuzk_status st = conv == CUZK_DOMAIN_SNARKJS ? cuzk_domain_init_snarkjs(hd, pk->log2n)
                                                 : cuzk_domain_init_bellperson(hd, pk->log2n);
    if (st != CUZK_OK)
        st = cuzk_error_set(err, st, "gpu: cannot build the 2^%u domain", pk->log2n);
    else
        st = cuzk_gpu_domain_create(&cp->domains[slot].gd, hd, err);
    free(hd);
    if (st != CUZK_OK)
        return st;
    cp->domains[slot].log2n = pk->log2n;
    cp->domains[slot].conv = conv;
    *out = cp->domains[slot].gd;
    return CUZK_OK;
}

/* ---- one start ------------------------------------------------------------------------ */

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
} run;

static size_t max2(size_t a, size_t b) { return a > b ? a : b; }

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
    if ((st = cuzk_gpu_spmv(&c->m[CUZK_R1CS_A], w, a, gs, err)) != CUZK_OK ||
        (st = cuzk_gpu_spmv(&c->m[CUZK_R1CS_B], w, b, gs, err)) != CUZK_OK)
        goto fail;
    if (!snarkjs && (st = cuzk_gpu_spmv(&c->m[CUZK_R1CS_C], w, cc, gs, err)) != CUZK_OK)
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
    if ((st = cuzk_gpu_g1s_msm(&res->h, k->h, a, pk->n_h, R->d_scratch, R->scratch_size, gs,
                               err)) != CUZK_OK)
        goto fail;
    CUZK_CUDA_TRY(err, cudaEventRecord(ev[EV_H], s));
    if ((st = cuzk_gpu_g1s_msm_auto(&res->l, k->l, w + aux0, pk->n_l, R->d_scratch,
                                    R->scratch_size, gs, err)) != CUZK_OK)
        goto fail;
    CUZK_CUDA_TRY(err, cudaEventRecord(ev[EV_L], s));
    {
        const cuzk_fr *sa = w, *sb = w;
        if (!snarkjs) {
            if ((st = cuzk_gpu_fr_gather(g, w, c->a_idx, c->n_a_idx, gs, err)) != CUZK_OK)
                goto fail;
            sa = g;
        }
        if ((st = cuzk_gpu_g1s_msm_auto(&res->a, k->a, sa, pk->n_a, R->d_scratch,
                                        R->scratch_size, gs, err)) != CUZK_OK)
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
        if ((st = cuzk_gpu_g1s_msm_auto(&res->b_g1, k->b_g1, sb, pk->n_b_g1, R->d_scratch,
                                        R->scratch_size, gs, err)) != CUZK_OK)
            goto fail;
        CUZK_CUDA_TRY(err, cudaEventRecord(ev[EV_B1], s));
        if ((st = cuzk_gpu_g2s_msm_auto(&res->b_g2, k->b_g2, sb, pk->n_b_g2, R->d_scratch,
                                        R->scratch_size, gs, err)) != CUZK_OK)
            goto fail;
        if (snarkjs && !R->compact)
            CUZK_CUDA_TRY(err, cudaEventRecord(R->consumed[buf], s));
        CUZK_CUDA_TRY(err, cudaEventRecord(ev[EV_B2], s));
    }
    return CUZK_OK;
fail:
    return st;
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
    if (R->compute)
        CUZK_CUDA_IGNORE(cudaStreamSynchronize(R->compute));
    if (R->h_res)
        CUZK_CUDA_IGNORE(cudaFreeHost(R->h_res));
    for (size_t i = 0; i < R->n_reg; i++)
        CUZK_CUDA_IGNORE(cudaHostUnregister(R->reg[i]));
    free(R->reg);
    for (int b = 0; b < 2; b++) {
        if (R->uploaded[b])
            CUZK_CUDA_IGNORE(cudaEventDestroy(R->uploaded[b]));
        if (R->consumed[b])
            CUZK_CUDA_IGNORE(cudaEventDestroy(R->consumed[b]));
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
        cp->broken = 1;
        snprintf(cp->broken_msg, sizeof cp->broken_msg, "%s",
                 err ? err->msg : cudaGetErrorString(e));
    }
}

static void unuse(cuda_prover *cp, dev_key *k, dev_circuit *c, bool admitted)
{
    pthread_mutex_lock(&cp->cache_mu);
    if (admitted) { /* the working set is back (run_release synchronised the frees) */
        cp->admitted--;
        pthread_cond_broadcast(&cp->released);
    }
    if (k && k->pk)
        k->slot.in_use--;
    if (c && c->r1cs)
        c->slot.in_use--;
    pthread_mutex_unlock(&cp->cache_mu);
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

    if (cp->broken)
        return cuzk_error_set(err, CUZK_ERR_CUDA, "gpu:%d is out of service after: %s",
                              cp->dev, cp->broken_msg);
    CUZK_CUDA_TRY(err, cudaSetDevice(cp->dev));

    pthread_mutex_lock(&cp->cache_mu);
    st = key_get(cp, pk, &k, err);
    if (st == CUZK_OK)
        k->slot.in_use++;
    if (st == CUZK_OK && (st = circuit_get(cp, pk, r1cs, &c, err)) == CUZK_OK)
        c->slot.in_use++;
    if (st == CUZK_OK && compact)
        st = map_get(c, job->ws[0].map, err);
    if (st == CUZK_OK)
        st = domain_get(cp, pk, &gd, err);
    cp->clock++;
    if (k)
        k->slot.last_used = cp->clock;
    if (c)
        c->slot.last_used = cp->clock;
    pthread_mutex_unlock(&cp->cache_mu);
    if (st != CUZK_OK)
        goto fail;

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
        size_t g_len = max2(pk->n_a, pk->n_b_g1);
        R.scratch_size = max2(max2(cuzk_gpu_g1s_msm_scratch_size(pk->n_h),
                                   cuzk_gpu_g1s_msm_auto_scratch_size(max2(pk->n_l, g_len))),
                              cuzk_gpu_g2s_msm_auto_scratch_size(pk->n_b_g2));
        /* the density gathers run after H, when b and c (2n elements) are dead */
        bool g_in_bc = g_len <= 2 * n;
        size_t slots = job->n > 1 ? 2 : 1;
        size_t need = slots * (up_bytes[0] + up_bytes[1]) + (compact ? wbytes : 0) +
                      3 * n * sizeof(cuzk_fr) +
                      (g_in_bc ? 0 : g_len * sizeof(cuzk_fr)) + R.scratch_size +
                      job->n * sizeof(cuzk_groth16_msm_results);
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
        /* the compute stream may use the buffers only after their allocation */
        CUZK_CUDA_TRY(err, cudaEventRecord(R.consumed[0], R.copy));
        CUZK_CUDA_TRY(err, cudaEventRecord(R.consumed[1], R.copy));
    }
    for (size_t i = 0; i < job->n; i++) {
        /* Pinned in place so the copies run at full PCIe speed and asynchronously; a
         * buffer that cannot be pinned (already pinned, or special memory) is copied
         * from pageable memory, which is slower but correct. */
        const void *part[2];
        witness_parts(&job->ws[i], part);
        for (int k = 0; k < 2; k++) {
            if (!up_bytes[k])
                continue;
            if (cudaHostRegister((void *)part[k], up_bytes[k], cudaHostRegisterDefault) ==
                cudaSuccess)
                R.reg[R.n_reg++] = (void *)part[k];
            else
                (void)cudaGetLastError();
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
    CUZK_CUDA_TRY(err, cudaStreamSynchronize(R.compute));
    pthread_mutex_unlock(&cp->device_mu);
    locked = false;
    t_unlock = cuzk_prover_now_ms();
    job->t.device_end_ms = t_unlock;
    job->t.ms[CUZK_STAGE_DEVICE] += t_unlock - t_lock;

    /* ---- after the mutex */
    memcpy(job->msm, R.h_res, job->n * sizeof(cuzk_groth16_msm_results));
    for (size_t i = 0; i < job->n; i++)
        for (int e = 1; e < EV_COUNT; e++) {
            float ms = 0;
            CUZK_CUDA_TRY(err, cudaEventElapsedTime(&ms, R.stage_ev[i * EV_COUNT + e - 1],
                                                    R.stage_ev[i * EV_COUNT + e]));
            job->t.ms[k_ev_stage[e]] += ms;
        }
    run_release(&R);
    unuse(cp, k, c, admitted);
    job->t.ms[CUZK_STAGE_UPLOAD] += (t_lock - t0) - job->t.ms[CUZK_STAGE_LOCK_WAIT];
    return CUZK_OK;
fail:
    note_sticky(cp, err);
    run_release(&R);
    if (locked)
        pthread_mutex_unlock(&cp->device_mu);
    unuse(cp, k, c, admitted);
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

static const cuzk_prover_ops k_cuda_ops = {cuda_start, cuda_forget, cuda_close};

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
