/*
 * witness.c — the fast witness of a StackedDRG partition (cuzk_porep_witness_dense /
 * _compact): the same assignment as the plain witness backend (cuzk_circuit_witness_* on
 * cuzk_porep_circuit_synthesize), variable for variable and bit for bit, computed in
 * parallel.
 *
 * Why it can be split: the witness backend builds no rows, so a gadget only needs its
 * operands' values, never their variable numbers, and each challenge's sub-circuit is a
 * sequence of segments (porep_internal.h) whose inputs are C1 values known up front —
 * except the tail, which needs the labels. So: the partition's common part runs on the
 * calling thread; then every non-tail segment of every challenge (1 + 14 + 1 + layers per
 * challenge: 504 for 32 GiB, so 16 threads stay busy even though a partition has only 18
 * challenges) runs on its own witness cs on the pool, label segments first as they are the
 * heavy ones (20 SHA-256 compressions each); then the tails. Each cs gathers its inputs,
 * dense aux values and aux bits in allocation order; as segments allocate in the circuit's
 * order, the assignment is their concatenation, and the offsets are prefix sums of the
 * per-segment counts. The concatenation (parallel copies, bitmap words shifted into place,
 * the two boundary words of each segment ORed atomically) writes the result directly.
 * test_porep_witness compares it with the plain backend bit for bit.
 *
 * Threading: runs on the given pool (NULL: the calling thread does everything); per-thread
 * scratch indexed by the pool's worker id; the circuit and C1 output are only read.
 */
#include <stdlib.h>
#include <string.h>

#include "circuits/porep/porep_internal.h"

typedef struct job {
    const porep_ctx *x;
    const cuzk_c1_challenge_proof *proofs;
    unsigned nseg, layers;
    const porep_chal *chal;                  /* per challenge, prefilled from C1 */
    gad_num (*labels)[POREP_MAX_LAYERS];     /* per challenge: label segments' results */
    cuzk_cs *cs;                             /* [challenge * nseg + seg] */
    unsigned *task;                          /* phase A: task -> challenge * nseg + seg */
    gad_bool (*pbits)[POREP_PARENTS][POREP_NODE_BITS]; /* per worker */
    porep_chal *local;                       /* per worker */
    bool compact;
} job;

static void run_one(job *j, unsigned k, unsigned worker)
{
    unsigned i = k / j->nseg, seg = k % j->nseg;
    porep_chal *ch = &j->local[worker];
    memcpy(ch, &j->chal[i], sizeof *ch);
    if (porep_segment_is_tail(j->x->s, seg))
        memcpy(ch->labels, j->labels[i], sizeof ch->labels);
    cuzk_cs *cs = &j->cs[k];
    cs_init(cs, CS_WITNESS, j->compact);
    porep_segment(cs, j->x, ch, &j->proofs[i], seg, j->pbits[worker]);
    if (seg >= POREP_SEG_LABEL1 && !porep_segment_is_tail(j->x->s, seg))
        j->labels[i][seg - POREP_SEG_LABEL1] = ch->labels[seg - POREP_SEG_LABEL1];
}

static void phase_a(void *ctx, size_t begin, size_t end, unsigned worker)
{
    job *j = ctx;
    for (size_t t = begin; t < end; t++)
        run_one(j, j->task[t], worker);
}

static void phase_b(void *ctx, size_t begin, size_t end, unsigned worker)
{
    job *j = ctx;
    for (size_t i = begin; i < end; i++)
        run_one(j, (unsigned)i * j->nseg + j->nseg - 1, worker);
}

/* ---- concatenation ---- */
typedef struct merge {
    cuzk_cs **cs;       /* segments in circuit order, the common part first */
    uint64_t *pub, *aux, *bit; /* offsets (prefix sums) per segment */
    uint64_t n_public;
    cuzk_fr *dense;     /* dense: every variable; compact: the unmarked ones */
    uint64_t *bits;     /* compact */
    uint64_t n_bits;
} merge;

/* 64 bits of src (nb bits) starting at bit s (may be negative: zeros below 0). */
static uint64_t get64(const uint64_t *src, uint64_t nb, int64_t s)
{
    uint64_t v = 0;
    if (s >= 0) {
        uint64_t w = (uint64_t)s >> 6, sh = (uint64_t)s & 63;
        if ((uint64_t)s < nb)
            v = src[w] >> sh;
        if (sh && (uint64_t)s + 64 - sh < nb)
            v |= src[w + 1] << (64 - sh);
    } else if (s > -64) {
        v = src[0] << (unsigned)(-s);
    }
    if ((int64_t)nb - s < 64) /* bits past the end are zero in src, but be explicit */
        v &= ((int64_t)nb - s <= 0) ? 0 : (((uint64_t)1 << ((int64_t)nb - s)) - 1);
    return v;
}

static void put_bits(uint64_t *dst, uint64_t off, const uint64_t *src, uint64_t nb)
{
    if (!nb)
        return;
    uint64_t d0 = off >> 6, d1 = (off + nb - 1) >> 6;
    for (uint64_t d = d0; d <= d1; d++) {
        uint64_t v = get64(src, nb, (int64_t)(d * 64) - (int64_t)off);
        if (d == d0 || d == d1) /* shared with the neighbouring segment */
            __atomic_fetch_or(&dst[d], v, __ATOMIC_RELAXED);
        else
            dst[d] = v;
    }
}

static void merge_fn(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    merge *m = ctx;
    for (size_t s = begin; s < end; s++) {
        cuzk_cs *cs = m->cs[s];
        if (cs->n_public)
            memcpy(m->dense + 1 + m->pub[s], cs->in_val + 1, cs->n_public * sizeof(cuzk_fr));
        if (cs->aux_len)
            memcpy(m->dense + 1 + m->n_public + m->aux[s], cs->aux_val,
                   cs->aux_len * sizeof(cuzk_fr));
        if (m->bits)
            put_bits(m->bits, m->bit[s], cs->aux_bits.w, cs->n_bits);
        if (s) /* the common part is the caller's */
            cs_release(cs);
    }
}

static cuzk_status run(const cuzk_porep_circuit *c, cuzk_pool *pool, bool compact,
                       cuzk_fr **dense_out, uint64_t **bits_out, uint64_t *n_vars_out,
                       uint64_t *n_bits_out, cuzk_error *err)
{
    if (!c)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "porep witness: circuit is NULL");
    if (!c->c1)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "porep witness: the placeholder circuit has no witness values "
                              "(make the circuit from a C1 output)");
    const unsigned nch = c->shape.challenges, nseg = porep_segments(&c->shape);
    const unsigned nthr = cuzk_pool_nthreads(pool), nk = nch * nseg;
    cuzk_cs *main_cs = malloc(sizeof *main_cs);
    job j = {.nseg = nseg, .layers = c->shape.layers, .compact = compact};
    merge m = {0};
    porep_ctx x;
    cuzk_status st = CUZK_OK;
    porep_chal *chal = NULL;
    j.cs = calloc(nk, sizeof *j.cs);
    j.task = malloc(nk * sizeof *j.task);
    j.labels = calloc(nch, sizeof *j.labels);
    j.pbits = malloc(nthr * sizeof *j.pbits);
    j.local = malloc(nthr * sizeof *j.local);
    chal = malloc(nch * sizeof *chal);
    m.cs = malloc((nk + 1) * sizeof *m.cs);
    m.pub = malloc((nk + 1) * 3 * sizeof *m.pub);
    if (!main_cs || !j.cs || !j.task || !j.labels || !j.pbits || !j.local || !chal || !m.cs ||
        !m.pub) {
        free(main_cs);
        main_cs = NULL;
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "porep witness: out of memory");
        goto out;
    }
    cs_init(main_cs, CS_WITNESS, compact);
    if ((st = porep_preamble(main_cs, c, &x, &j.proofs, err)))
        goto out;
    j.x = &x;
    for (unsigned i = 0; i < nch; i++)
        porep_chal_prefill(&chal[i], &x, &j.proofs[i]);
    j.chal = chal;

    /* phase A: label segments first (the heavy ones), then the rest; phase B: tails */
    unsigned t = 0;
    for (unsigned pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < nch; i++)
            for (unsigned seg = 0; seg + 1 < nseg; seg++)
                if ((seg >= POREP_SEG_LABEL1) == (pass == 0))
                    j.task[t++] = i * nseg + seg;
    if ((st = cuzk_pool_for(pool, t, phase_a, &j, 1)) ||
        (st = cuzk_pool_for(pool, nch, phase_b, &j, 1))) {
        cuzk_error_set(err, st, "porep witness: the worker pool failed");
        goto out;
    }

    /* offsets */
    m.aux = m.pub + nk + 1;
    m.bit = m.aux + nk + 1;
    uint64_t pub = 0, aux = 0, bit = 0, n_aux = 0;
    for (unsigned s = 0; s <= nk; s++) {
        cuzk_cs *cs = s ? &j.cs[s - 1] : main_cs;
        if (cs->status != CUZK_OK) {
            if (err)
                *err = cs->err;
            st = cs->status;
            goto out;
        }
        m.cs[s] = cs;
        m.pub[s] = pub;
        m.aux[s] = aux;
        m.bit[s] = bit;
        pub += cs->n_public;
        aux += cs->aux_len;
        bit += cs->n_bits;
        n_aux += cs->n_aux;
    }
    uint64_t n_vars = 1 + pub + n_aux;
    if (n_vars >= UINT32_MAX) {
        st = cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "circuit: 2^32 variables or more");
        goto out;
    }
    m.n_public = pub;
    m.n_bits = bit;
    size_t nd = (size_t)(1 + pub + aux), nw = (size_t)((bit + 63) / 64);
    m.dense = malloc(nd * sizeof(cuzk_fr));
    m.bits = compact ? calloc(nw ? nw : 1, sizeof(uint64_t)) : NULL;
    if (!m.dense || (compact && !m.bits)) {
        free(m.dense);
        free(m.bits);
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "porep witness: out of memory");
        goto out;
    }
    m.dense[0] = CUZK_FR_ONE;
    if ((st = cuzk_pool_for(pool, nk + 1, merge_fn, &m, 1))) {
        free(m.dense);
        free(m.bits);
        cuzk_error_set(err, st, "porep witness: the worker pool failed");
        goto out;
    }
    *dense_out = m.dense;
    if (bits_out)
        *bits_out = m.bits;
    *n_vars_out = n_vars;
    *n_bits_out = bit;
out:
    if (j.cs)
        for (unsigned k = 0; k < nk; k++)
            cs_release(&j.cs[k]); /* merged ones are already zeroed */
    if (main_cs) {
        cs_release(main_cs);
        free(main_cs);
    }
    free(j.cs);
    free(j.task);
    free(j.labels);
    free(j.pbits);
    free(j.local);
    free(chal);
    free(m.cs);
    free(m.pub);
    return st;
}

cuzk_status cuzk_porep_witness_dense(const cuzk_porep_circuit *c, cuzk_pool *pool,
                                     cuzk_fr **values, uint32_t *n_vars, cuzk_error *err)
{
    if (!values || !n_vars)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "porep witness: NULL output");
    *values = NULL;
    *n_vars = 0;
    uint64_t nv = 0, nb = 0;
    cuzk_status st = run(c, pool, false, values, NULL, &nv, &nb, err);
    if (st == CUZK_OK)
        *n_vars = (uint32_t)nv;
    return st;
}

cuzk_status cuzk_porep_witness_compact(const cuzk_porep_circuit *c, cuzk_pool *pool,
                                       cuzk_compact_assignment *out, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "porep witness: out is NULL");
    memset(out, 0, sizeof *out);
    uint64_t nv = 0, nb = 0;
    cuzk_status st = run(c, pool, true, &out->dense, &out->bits, &nv, &nb, err);
    if (st == CUZK_OK) {
        out->n_vars = (uint32_t)nv;
        out->n_bits = (uint32_t)nb;
    }
    return st;
}
