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
 * per-segment counts; cs_concat.c writes the result.
 * test_porep_witness compares it with the plain backend bit for bit.
 *
 * Threading: runs on the given pool (NULL: the calling thread does everything); per-thread
 * scratch indexed by the pool's worker id; the circuit and C1 output are only read.
 */
#include <stdlib.h>
#include <string.h>

#include "circuits/cs_concat.h"
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
    cuzk_cs **segs = NULL;
    porep_ctx x;
    cuzk_status st = CUZK_OK;
    porep_chal *chal = NULL;
    j.cs = calloc(nk, sizeof *j.cs);
    j.task = malloc(nk * sizeof *j.task);
    j.labels = calloc(nch, sizeof *j.labels);
    j.pbits = malloc(nthr * sizeof *j.pbits);
    j.local = malloc(nthr * sizeof *j.local);
    chal = malloc(nch * sizeof *chal);
    segs = malloc((nk + 1) * sizeof *segs);
    if (!main_cs || !j.cs || !j.task || !j.labels || !j.pbits || !j.local || !chal || !segs) {
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

    for (unsigned k = 0; k <= nk; k++)
        segs[k] = k ? &j.cs[k - 1] : main_cs;
    st = cs_concat(segs, nk + 1, compact, pool, dense_out, bits_out, n_vars_out, n_bits_out,
                   err);
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
    free(segs);
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
