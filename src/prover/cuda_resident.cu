/*
 * cuda_resident.cu — the device-resident keys and constraint systems of the CUDA prover
 * backend (cuda_resident.h): uploads on first use, CSR matrices with 4-byte coefficient
 * indices into a table of distinct values, the bellperson density index lists, the
 * compact-witness map, NTT domains, least-recently-used eviction of idle entries, streamed
 * entries uploaded whole once they fit, and the entries' adoption and forgetting.
 * Threading: callers hold cuda_prover.cache_mu.
 */
#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_export.h"
#include "prover/cuda_resident.h"
#include "prover/host_pin.h"
#include "prover/prover_internal.h"

void cuda_log(cuda_prover *cp, bool warn, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cuzk_prover_log(cp->owner, warn, msg);
}

void key_release(dev_key *k)
{
    for (int i = 0; i < k->n_pinned; i++)
        host_pin_drop(k->pinned[i]);
    cudaFree(k->h);
    cudaFree(k->l);
    cudaFree(k->a);
    cudaFree(k->b_g1);
    cudaFree(k->b_g2);
    memset(k, 0, sizeof *k);
}

void circuit_release(dev_circuit *c)
{
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++) {
        cudaFree(c->row_ptr[m]);
        cudaFree(c->col[m]);
        cudaFree(c->coeff_idx[m]);
        cudaFree(c->long_rows[m]);
    }
    cudaFree(c->table);
    cudaFree(c->a_idx);
    cudaFree(c->b_idx);
    cudaFree(c->d_is_bit);
    cudaFree(c->d_rank);
    for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
        free(c->owned_ci[m]);
    for (int i = 0; i < c->n_pinned; i++)
        host_pin_drop(c->pinned[i]);
    memset(c, 0, sizeof *c);
}

cuzk_status device_free(cuda_prover *cp, free_mode mode, size_t *free_b, size_t *total_b,
                        cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    size_t pool_idle = 0;
    cudaMemPool_t pool;
    CUZK_CUDA_TRY(err, cudaDeviceGetDefaultMemPool(&pool, cp->dev));
    if (mode == FREE_TRIM) { /* memory cached by the stream-ordered pool counts as used: hand it back */
        CUZK_CUDA_TRY(err, cudaMemPoolTrimTo(pool, 0));
        __atomic_add_fetch(&cp->trims, 1, __ATOMIC_RELAXED);
    } else if (mode == FREE_POOLED) {
        uint64_t reserved = 0, used = 0; /* the attributes are cuuint64_t: 64 bits */
        CUZK_CUDA_TRY(err, cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent,
                                                   &reserved));
        CUZK_CUDA_TRY(err, cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
        pool_idle = reserved > used ? (size_t)(reserved - used) : 0;
    }
    CUZK_CUDA_TRY(err, cudaMemGetInfo(free_b, total_b));
    *free_b += pool_idle;
    if (cp->mem_limit && cp->mem_limit < *total_b) {
        size_t hidden = *total_b - cp->mem_limit;
        *free_b = *free_b > hidden ? *free_b - hidden : 0;
        *total_b = cp->mem_limit;
    }
    return CUZK_OK;
fail:
    return st;
}

/* Fails with NOMEM (naming what) unless `bytes` more fit on the device with headroom;
 * pooled: they will come from the stream-ordered pool (see free_mode). */
cuzk_status check_fits(cuda_prover *cp, size_t bytes, bool pooled, const char *what,
                       cuzk_error *err)
{
    size_t free_b = 0, total_b = 0;
    cuzk_status st = device_free(cp, pooled ? FREE_POOLED : FREE_DRIVER, &free_b, &total_b, err);
    if (st == CUZK_OK && bytes + HEADROOM_BYTES > free_b)
        st = device_free(cp, FREE_TRIM, &free_b, &total_b, err);
    if (st != CUZK_OK)
        return st;
    if (bytes + HEADROOM_BYTES > free_b)
        return cuzk_error_set(err, CUZK_ERR_NOMEM,
                              "gpu: %s needs %.2f GiB of device memory, %.2f GiB of %.2f GiB "
                              "are free",
                              what, (double)bytes / (1u << 30), (double)free_b / (1u << 30),
                              (double)total_b / (1u << 30));
    return CUZK_OK;
}

cuzk_status pool_alloc(cuda_prover *cp, void **p, size_t bytes, cudaStream_t s,
                       cuzk_error *err)
{
    const char *what = "cudaMallocAsync";
    /* CUZK_GPU_FAULT=pool: every first attempt is refused, so tests reach the trim */
    const char *f = getenv("CUZK_GPU_FAULT");
    cudaError_t e = f && !strcmp(f, "pool") ? cudaErrorMemoryAllocation
                                              : cudaMallocAsync(p, bytes, s);
    if (e == cudaErrorMemoryAllocation) {
        what = "cudaMallocAsync after trimming the pool";
        /* the pool's idle blocks were counted as free (FREE_POOLED) but none of them was
         * large enough: give them back to the driver and ask again */
        (void)cudaGetLastError();
        cudaMemPool_t pool;
        e = cudaDeviceGetDefaultMemPool(&pool, cp->dev);
        if (e == cudaSuccess)
            e = cudaMemPoolTrimTo(pool, 0);
        if (e == cudaSuccess) {
            __atomic_add_fetch(&cp->trims, 1, __ATOMIC_RELAXED);
            e = cudaMallocAsync(p, bytes, s);
        }
    }
    if (e != cudaSuccess) {
        *p = NULL;
        return cuzk_cuda_error(err, e, what, __FILE__, __LINE__);
    }
    return CUZK_OK;
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

/* Matrix m's rows of more than CUZK_GPU_SPMV_SHORT_MAX terms, listed on the device
 * (c->m[m].n_long of them; none: no list, and the row kernel takes every row). */
static cuzk_status upload_long_rows(dev_circuit *c, int m, const cuzk_csr *h, uint64_t rows,
                                    cuzk_error *err)
{
    uint64_t cap = cuzk_gpu_csr_long_bound(h->nnz);
    c->m[m].n_long = 0;
    if (cap == 0)
        return CUZK_OK;
    uint32_t *list = (uint32_t *)malloc(cap * sizeof *list);
    if (!list)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "gpu: out of host memory");
    uint64_t n = cuzk_gpu_csr_long_rows(h->row_ptr, rows, list);
    cuzk_status st = upload(&c->long_rows[m], list, n, err);
    free(list);
    if (st == CUZK_OK)
        c->m[m].n_long = n;
    return st;
}

/* The entry of owner among n slots (*hit), else a free one, else the least recently used
 * idle one that never() spares (the caller releases it); -1 when there is none. */
static int slot_pick(dev_slot *const *slots, int n, const void *owner, bool *hit,
                     bool (*never)(const dev_slot *))
{
    int pick = -1;
    *hit = false;
    for (int i = 0; i < n; i++)
        if (slots[i]->owner == owner && !slots[i]->retired) {
            *hit = true;
            return i;
        }
    for (int i = 0; i < n && pick < 0; i++)
        if (!slots[i]->owner)
            pick = i;
    if (pick < 0)
        for (int i = 0; i < n; i++)
            if (!slots[i]->in_use && !slots[i]->retired && !(never && never(slots[i])) &&
                (pick < 0 || slots[i]->last_used < slots[pick]->last_used))
                pick = i;
    return pick;
}


/* Releases the least recently used idle key or circuit other than `keep`; false if there
 * is none (then nothing more can be freed for a new upload). */
static bool evict_one(cuda_prover *cp, const dev_slot *keep)
{
    dev_slot *best = NULL;
    for (int i = 0; i < MAX_RESIDENT; i++) {
        dev_slot *c[2] = {cp->keys[i].sole ? NULL : &cp->keys[i].slot, &cp->circuits[i].slot};
        for (int j = 0; j < 2; j++)
            if (c[j] && c[j]->owner && !c[j]->in_use && !c[j]->retired && c[j] != keep &&
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
cuzk_status make_room(cuda_prover *cp, size_t bytes, bool pooled, const char *what,
                      const dev_slot *keep, cuzk_error *err)
{
    cuzk_status st;
    while ((st = check_fits(cp, bytes, pooled, what, err)) == CUZK_ERR_NOMEM &&
           evict_one(cp, keep))
        ;
    return st;
}

/* Device bytes idle residents other than `keep` hold (what evictions could give back). */
static size_t reclaimable(const cuda_prover *cp, const dev_slot *keep)
{
    size_t b = 0;
    for (int i = 0; i < MAX_RESIDENT; i++) {
        const dev_slot *k = &cp->keys[i].slot, *c = &cp->circuits[i].slot;
        if (k->owner && !k->in_use && !k->retired && !cp->keys[i].sole && k != keep)
            b += cp->keys[i].bytes;
        if (c->owner && !c->in_use && !c->retired && c != keep)
            b += cp->circuits[i].bytes;
    }
    return b;
}

size_t idle_bytes(const cuda_prover *cp) { return reclaimable(cp, NULL); }

/* Pins the n host arrays a streamed entry copies from (so the staging copies run at full
 * PCIe speed), appending the pinned ones to pinned[*n_pinned]; returns how many the driver
 * refused (copied from pageable memory then: slower, correct). */
static int pin_arrays(const void *const *v, const size_t *len, int n, const void **pinned,
                      int *n_pinned)
{
    int unpinned = 0;
    for (int i = 0; i < n; i++) {
        if (!len[i])
            continue;
        if (host_pin_take(v[i], len[i]))
            pinned[(*n_pinned)++] = v[i];
        else
            unpinned++;
    }
    return unpinned;
}

/* The key's vectors stay in host memory, pinned. */
static void key_stream(cuda_prover *cp, dev_key *k, const cuzk_groth16_pk *pk, size_t bytes,
                       const char *why)
{
    const void *v[5] = {pk->h, pk->l, pk->a, pk->b_g1, pk->b_g2};
    size_t len[5] = {pk->n_h * sizeof(cuzk_g1_affine), pk->n_l * sizeof(cuzk_g1_affine),
                     pk->n_a * sizeof(cuzk_g1_affine), pk->n_b_g1 * sizeof(cuzk_g1_affine),
                     pk->n_b_g2 * sizeof(cuzk_g2_affine)};
    k->streamed = true;
    int unpinned = pin_arrays(v, len, 5, k->pinned, &k->n_pinned);
    cuda_log(cp, !cp->force_stream, "gpu:%d: proving key of 2^%u (%.2f GiB) streamed from %s "
             "host memory: %s", cp->dev, pk->log2n, (double)bytes / (1u << 30),
             unpinned ? "pageable (pinning refused)" : "pinned", why);
}

/* dev_slot is dev_key's first member */
static bool key_is_sole(const dev_slot *s) { return ((const dev_key *)s)->sole; }

/* Loads pk into the free (released) slot k: uploaded whole when it fits next to `reserve`,
 * else streamed; whole_only: NOMEM rather than streamed (k left free). */
static cuzk_status key_load(cuda_prover *cp, const cuzk_groth16_pk *pk, size_t reserve,
                            dev_key *k, bool whole_only, cuzk_error *err)
{
    size_t bytes = gpu_key_bytes(pk->n_h, pk->n_l, pk->n_a, pk->n_b_g1, pk->n_b_g2);
    size_t free_b = 0, total_b = 0;
    cuzk_status st = device_free(cp, FREE_TRIM, &free_b, &total_b, err);
    if (st != CUZK_OK)
        return st;
    size_t could = free_b + reclaimable(cp, &k->slot);
    if (cp->force_stream || bytes + reserve + HEADROOM_BYTES > could) {
        if (whole_only)
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "gpu: the proving key does not fit");
        char why[256];
        if (cp->force_stream)
            snprintf(why, sizeof why, "CUZK_GPU_SRS=stream");
        else
            snprintf(why, sizeof why, "it needs %.2f GiB next to %.2f GiB of circuit and working "
                     "set, and %.2f GiB of %.2f GiB can be freed on the device",
                     (double)bytes / (1u << 30), (double)reserve / (1u << 30),
                     (double)could / (1u << 30), (double)total_b / (1u << 30));
        key_stream(cp, k, pk, bytes, why);
    } else {
        st = make_room(cp, bytes + reserve, false, "the proving key", &k->slot, err);
        if (st == CUZK_OK && (st = upload(&k->h, pk->h, pk->n_h, err)) == CUZK_OK &&
            (st = upload(&k->l, pk->l, pk->n_l, err)) == CUZK_OK &&
            (st = upload(&k->a, pk->a, pk->n_a, err)) == CUZK_OK &&
            (st = upload(&k->b_g1, pk->b_g1, pk->n_b_g1, err)) == CUZK_OK)
            st = upload(&k->b_g2, pk->b_g2, pk->n_b_g2, err);
        if (st == CUZK_ERR_NOMEM && !whole_only) { /* the estimate was optimistic: stream */
            char why[CUZK_ERROR_MSG_MAX + 32];
            snprintf(why, sizeof why, "the upload ran out of device memory (%s)",
                     err ? err->msg : "no message");
            key_release(k);
            (void)cudaGetLastError();
            key_stream(cp, k, pk, bytes, why);
            st = CUZK_OK;
        } else if (st != CUZK_OK) {
            key_release(k);
            if (whole_only) /* the caller goes on with the streamed copy */
                (void)cudaGetLastError();
            return st;
        } else {
            k->bytes = bytes;
        }
    }
    k->pk = pk;
    k->slot.owner = pk;
    return CUZK_OK;
}

/* Whether an entry of `bytes` would now be uploaded whole next to `reserve` (key_load's and
 * circuit_load's rule, counted without trimming the pool: the streamed copy is kept until
 * the whole one is in, so its own device bytes do not count as free). */
static bool whole_fits(cuda_prover *cp, size_t bytes, size_t reserve, const dev_slot *self)
{
    size_t free_b = 0, total_b = 0;
    if (device_free(cp, FREE_POOLED, &free_b, &total_b, NULL) != CUZK_OK) {
        (void)cudaGetLastError();
        return false;
    }
    return bytes + reserve + HEADROOM_BYTES <= free_b + reclaimable(cp, self);
}

/* Retires slots[old] (a streamed entry) for a whole copy loaded by load() into another
 * slot; the index of the slot to use (old when no slot is free or the copy did not fit). */
static int supersede(dev_slot *const *slots, int old, const void *owner,
                     bool (*never)(const dev_slot *),
                     bool (*load)(int slot, void *ctx), void *ctx, void (*release)(int slot, void *ctx))
{
    bool hit;
    slots[old]->retired = true; /* neither picked as the new slot nor evicted for it */
    int alt = slot_pick(slots, MAX_RESIDENT, owner, &hit, never);
    if (alt < 0 || !load(alt, ctx)) {
        slots[old]->retired = false;
        return old;
    }
    if (!slots[old]->in_use)
        release(old, ctx);
    return alt;
}

typedef struct key_up {
    cuda_prover *cp;
    const cuzk_groth16_pk *pk;
    size_t reserve;
} key_up;

static bool key_up_load(int slot, void *ctx)
{
    key_up *u = (key_up *)ctx;
    key_release(&u->cp->keys[slot]);
    return key_load(u->cp, u->pk, u->reserve, &u->cp->keys[slot], true, NULL) == CUZK_OK;
}

static void key_up_release(int slot, void *ctx) { key_release(&((key_up *)ctx)->cp->keys[slot]); }

bool key_whole_here(const cuda_prover *cp, const cuzk_groth16_pk *pk)
{
    for (int i = 0; i < MAX_RESIDENT; i++) {
        const dev_key *k = &cp->keys[i];
        if (k->slot.owner == pk && !k->slot.retired)
            return !k->streamed;
    }
    return false;
}

void key_unuse(dev_key *k)
{
    if (--k->slot.in_use == 0 && k->slot.retired)
        key_release(k);
}

cuzk_status key_get(cuda_prover *cp, const cuzk_groth16_pk *pk, size_t reserve, dev_key **out,
                    cuzk_error *err)
{
    dev_slot *slots[MAX_RESIDENT];
    for (int i = 0; i < MAX_RESIDENT; i++)
        slots[i] = &cp->keys[i].slot;
    bool hit;
    int slot = slot_pick(slots, MAX_RESIDENT, pk, &hit, key_is_sole);
    if (hit) {
        dev_key *k = &cp->keys[slot];
        size_t bytes = k->streamed ? gpu_key_bytes(pk->n_h, pk->n_l, pk->n_a, pk->n_b_g1,
                                                   pk->n_b_g2)
                                   : 0;
        if (k->streamed && !cp->force_stream && key_points_present(pk) &&
            whole_fits(cp, bytes, reserve, &k->slot)) {
            key_up u = {cp, pk, reserve};
            slot = supersede(slots, slot, pk, key_is_sole, key_up_load, &u, key_up_release);
            if (!cp->keys[slot].streamed)
                cuda_log(cp, false, "gpu:%d: proving key of 2^%u (%.2f GiB) fits the device "
                         "now: uploaded whole, no longer copied from host memory", cp->dev,
                         pk->log2n, (double)bytes / (1u << 30));
        }
        *out = &cp->keys[slot];
        return CUZK_OK;
    }
    if (slot < 0)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "gpu: %d proving keys are in use or adopted; no slot for another",
                              MAX_RESIDENT);
    if (!key_points_present(pk)) /* adopted elsewhere, or forgotten here: nothing to upload */
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "gpu:%d: the proving key's points are not in host memory and "
                              "not resident on this device", cp->dev);
    key_release(&cp->keys[slot]);
    cuzk_status st = key_load(cp, pk, reserve, &cp->keys[slot], false, err);
    if (st == CUZK_OK)
        *out = &cp->keys[slot];
    return st;
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

void circuit_unuse(dev_circuit *c)
{
    if (--c->slot.in_use == 0 && c->slot.retired)
        circuit_release(c);
}

static cuzk_status circuit_load(cuda_prover *cp, const cuzk_groth16_pk *pk,
                                const cuzk_r1cs *r1cs, size_t reserve, dev_circuit *c,
                                bool whole_only, cuzk_error *err);

typedef struct circuit_up {
    cuda_prover *cp;
    const cuzk_groth16_pk *pk;
    const cuzk_r1cs *r1cs;
    size_t reserve;
} circuit_up;

static bool circuit_up_load(int slot, void *ctx)
{
    circuit_up *u = (circuit_up *)ctx;
    circuit_release(&u->cp->circuits[slot]);
    return circuit_load(u->cp, u->pk, u->r1cs, u->reserve, &u->cp->circuits[slot], true,
                        NULL) == CUZK_OK;
}

static void circuit_up_release(int slot, void *ctx)
{
    circuit_release(&((circuit_up *)ctx)->cp->circuits[slot]);
}

cuzk_status circuit_get(cuda_prover *cp, const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs,
                        size_t reserve, dev_circuit **out, cuzk_error *err)
{
    bool bell = pk->flavour == CUZK_GROTH16_BELLPERSON;
    dev_slot *slots[MAX_RESIDENT];
    for (int i = 0; i < MAX_RESIDENT; i++)
        slots[i] = &cp->circuits[i].slot;
    bool hit;
    int slot = slot_pick(slots, MAX_RESIDENT, r1cs, &hit, NULL);
    if (hit && cp->circuits[slot].bellperson != bell) { /* other flavour: rebuild */
        if (cp->circuits[slot].slot.in_use)
            return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                                  "gpu: this circuit is in use with another key flavour");
        circuit_release(&cp->circuits[slot]);
        hit = false;
    }
    if (hit) {
        if (cp->circuits[slot].streamed && !cp->force_stream_csr) {
            const uint64_t nnz[CUZK_R1CS_MATRICES] = {r1cs->m[0].nnz, r1cs->m[1].nnz,
                                                      r1cs->m[2].nnz};
            size_t mat = gpu_csr_matrix_bytes(r1cs->n_constraints, nnz, bell);
            /* the tables are on the device already; the whole copy needs them again */
            size_t bytes = cp->circuits[slot].bytes + mat;
            if (whole_fits(cp, bytes, reserve, slots[slot])) {
                circuit_up u = {cp, pk, r1cs, reserve};
                slot = supersede(slots, slot, r1cs, NULL, circuit_up_load, &u,
                                 circuit_up_release);
                if (!cp->circuits[slot].streamed)
                    cuda_log(cp, false, "gpu:%d: constraint system of %llu rows (%.2f GiB) "
                             "fits the device now: uploaded whole, no longer copied from host "
                             "memory", cp->dev, (unsigned long long)r1cs->n_constraints,
                             (double)mat / (1u << 30));
            }
        }
        *out = &cp->circuits[slot];
        return CUZK_OK;
    }
    if (slot < 0)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "gpu: %d circuits are in use; no slot for another", MAX_RESIDENT);
    circuit_release(&cp->circuits[slot]);
    cuzk_status st = circuit_load(cp, pk, r1cs, reserve, &cp->circuits[slot], false, err);
    if (st == CUZK_OK)
        *out = &cp->circuits[slot];
    return st;
}

/* Loads r1cs into the free (released) slot c: its matrices uploaded when they fit next to
 * `reserve`, else streamed; whole_only: NOMEM rather than streamed (c left free). */
static cuzk_status circuit_load(cuda_prover *cp, const cuzk_groth16_pk *pk,
                                const cuzk_r1cs *r1cs, size_t reserve, dev_circuit *c,
                                bool whole_only, cuzk_error *err)
{
    bool bell = pk->flavour == CUZK_GROTH16_BELLPERSON;
    cuzk_fr *table = NULL;
    uint32_t n_table = 0, *cidx[CUZK_R1CS_MATRICES] = {NULL, NULL, NULL}, *idx = NULL;
    /* A circuit mapped from its CSR cache carries its table (read-only, borrowed): hashing
     * every coefficient again would cost seconds on a 32 GiB PoRep partition. */
    const cuzk_fr *tab = r1cs->coeff_values;
    const uint32_t *ci[CUZK_R1CS_MATRICES] = {r1cs->coeff_index[0], r1cs->coeff_index[1],
                                              r1cs->coeff_index[2]};
    cuzk_status st = CUZK_OK;
    if (tab) {
        n_table = r1cs->n_coeff_values;
    } else {
        st = cuzk_r1cs_coeff_table(r1cs, &table, &n_table, cidx, err);
        tab = table;
        for (int m = 0; m < CUZK_R1CS_MATRICES; m++)
            ci[m] = cidx[m];
    }
    const int n_mat = bell ? CUZK_R1CS_MATRICES : CUZK_R1CS_C;
    const uint64_t nnz[CUZK_R1CS_MATRICES] = {r1cs->m[0].nnz, r1cs->m[1].nnz, r1cs->m[2].nnz};
    size_t bytes = gpu_csr_tables_bytes(n_table, r1cs->n_vars, bell);
    size_t mat_bytes = gpu_csr_matrix_bytes(r1cs->n_constraints, nnz, bell);
    if (st == CUZK_OK) {
        size_t free_b = 0, total_b = 0;
        st = device_free(cp, FREE_TRIM, &free_b, &total_b, err);
        size_t could = free_b + reclaimable(cp, &c->slot);
        bool stream = cp->force_stream_csr || bytes + mat_bytes + reserve + HEADROOM_BYTES > could;
        if (st == CUZK_OK && stream && whole_only) {
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "gpu: the constraint system does not fit");
        } else if (st == CUZK_OK && stream) {
            char why[256];
            if (cp->force_stream_csr)
                snprintf(why, sizeof why, "CUZK_GPU_CSR=stream");
            else
                snprintf(why, sizeof why, "it needs %.2f GiB next to %.2f GiB of working set, "
                         "and %.2f GiB of %.2f GiB can be freed on the device",
                         (double)(bytes + mat_bytes) / (1u << 30),
                         (double)reserve / (1u << 30), (double)could / (1u << 30),
                         (double)total_b / (1u << 30));
            c->streamed = true;
            int unpinned = 0;
            for (int m = 0; m < n_mat; m++) {
                const cuzk_csr *h = &r1cs->m[m];
                const void *v[3] = {h->row_ptr, h->col, ci[m]};
                size_t len[3] = {(r1cs->n_constraints + 1) * 8, h->nnz * 4, h->nnz * 4};
                unpinned += pin_arrays(v, len, 3, c->pinned, &c->n_pinned);
                c->h_ci[m] = ci[m];
                c->owned_ci[m] = cidx[m]; /* kept: the evaluations read them */
                cidx[m] = NULL;
            }
            cuda_log(cp, !cp->force_stream_csr, "gpu:%d: constraint system of %llu rows "
                     "(%.2f GiB) streamed from %s host memory: %s", cp->dev,
                     (unsigned long long)r1cs->n_constraints,
                     (double)mat_bytes / (1u << 30),
                     unpinned ? "pageable (pinning refused)" : "pinned", why);
        } else if (st == CUZK_OK) {
            bytes += mat_bytes;
        }
    }
    if (st == CUZK_OK)
        st = make_room(cp, bytes, false, "the constraint system", &c->slot, err);
    if (st == CUZK_OK)
        st = upload(&c->table, tab, n_table, err);
    for (int m = 0; m < n_mat && st == CUZK_OK; m++) {
        const cuzk_csr *h = &r1cs->m[m];
        cuzk_gpu_csr *d = &c->m[m];
        /* snarkjs keys never evaluate C (c = a*b), and a .zkey has none */
        if (!c->streamed) {
            st = upload(&c->row_ptr[m], h->row_ptr, r1cs->n_constraints + 1, err);
            if (st == CUZK_OK)
                st = upload(&c->col[m], h->col, h->nnz, err);
            if (st == CUZK_OK)
                st = upload(&c->coeff_idx[m], ci[m], h->nnz, err);
            if (st == CUZK_OK)
                st = upload_long_rows(c, m, h, r1cs->n_constraints, err);
        }
        d->rows = r1cs->n_constraints;
        d->nnz = h->nnz;
        d->nz_base = 0;
        d->d_row_ptr = c->row_ptr[m];
        d->d_col = c->col[m];
        d->d_coeff_idx = c->coeff_idx[m];
        d->d_table = c->table;
        d->d_long = c->long_rows[m];
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
        if (whole_only) /* the caller goes on with the streamed copy */
            (void)cudaGetLastError();
        return st;
    }
    c->r1cs = r1cs;
    c->slot.owner = r1cs;
    c->bellperson = bell;
    c->bytes = bytes;
    return CUZK_OK;
}

/* The compact-witness map of c's circuit on the device (replacing another map). */
cuzk_status map_get(cuda_prover *cp, dev_circuit *c, const cuzk_witness_map *map,
                    cuzk_error *err)
{
    if (c->map == map)
        return CUZK_OK;
    cudaFree(c->d_is_bit);
    cudaFree(c->d_rank);
    c->d_is_bit = NULL;
    c->d_rank = NULL;
    c->map = NULL;
    size_t words = ((size_t)map->n_vars + 63) / 64;
    cuzk_status st = check_fits(cp, gpu_map_bytes(map->n_vars), false, "the witness map", err);
    if (st == CUZK_OK)
        st = upload(&c->d_is_bit, map->is_bit, words, err);
    if (st == CUZK_OK)
        st = upload(&c->d_rank, map->rank, words, err);
    if (st == CUZK_OK)
        c->map = map;
    return st;
}

cuzk_status domain_get(cuda_prover *cp, const cuzk_groth16_pk *pk, cuzk_gpu_domain **out,
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

/* ---- forgetting and adoption --------------------------------------------------------- */

void resident_forget(cuda_prover *cp, const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs)
{
    for (int i = 0; i < MAX_RESIDENT; i++) {
        if (pk && cp->keys[i].pk == pk)
            key_release(&cp->keys[i]);
        if (r1cs && cp->circuits[i].r1cs == r1cs)
            circuit_release(&cp->circuits[i]);
    }
}

cuzk_status resident_key_adopt(cuda_prover *cp, const cuzk_groth16_pk *pk, cuzk_error *err)
{
    dev_key *live = NULL;
    bool retired = false;
    for (int i = 0; i < MAX_RESIDENT; i++)
        if (cp->keys[i].pk == pk && cp->keys[i].slot.owner == pk) {
            if (cp->keys[i].slot.retired)
                retired = true;
            else
                live = &cp->keys[i];
        }
    if (live && !live->streamed && !retired) {
        live->sole = true;
        return CUZK_OK;
    }
    return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "gpu:%d: the proving key is %s", cp->dev,
                          !live           ? "not resident on the device"
                          : live->streamed ? "streamed from host memory"
                                           : "resident, but a start still streams it from "
                                             "host memory");
}
