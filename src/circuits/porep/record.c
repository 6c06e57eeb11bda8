/*
 * record.c — the fast recording of a StackedDRG partition (cuzk_porep_record): the same
 * constraint system as the plain record backend on the placeholder circuit, with the
 * challenges' segments (porep_internal.h) recorded in parallel.
 *
 * Why it can be split: the record backend numbers variables in allocation order, and every
 * segment allocates a fixed number of inputs and aux variables (the shape fixes them, the
 * same for every challenge). So one challenge's segments are counted (CS_COUNT, in
 * parallel), which gives every segment's first input and aux number; each segment is then
 * recorded on a cs that starts there (cs_init_at), so its rows carry final numbers and the
 * results concatenate without renumbering (cs_record_concat). Segments read variables of
 * earlier segments of their challenge through porep_chal, hence three phases: data,
 * parent and node segments; label segments (columns, node); tails (data, labels). A count
 * that disagreed with the recording would be caught by cs_record_concat's base check.
 * A 32 GiB partition has 18 challenges x 28 segments: 504 tasks for the pool.
 * test_porep_record compares it with the plain backend bit for bit.
 *
 * Threading: runs on pool (NULL: the caller); per-worker scratch by worker id; each
 * challenge's porep_chal is written by its segments at disjoint fields (data, cols[j],
 * node, labels[l]) and read only in later phases.
 */
#include <stdlib.h>
#include <string.h>

#include "circuits/cs_concat.h"
#include "circuits/porep/porep_internal.h"

typedef struct rjob {
    const porep_ctx *x;
    unsigned nseg;
    porep_chal *chal;                        /* per challenge */
    cuzk_cs *cs;                             /* [challenge * nseg + seg] */
    bool count;                              /* counting challenge 0 (CS_COUNT) */
    uint64_t *pub, *aux;                     /* per (challenge, seg): first input / aux */
    unsigned *task;                          /* this phase's (challenge * nseg + seg) */
    gad_bool (*pbits)[POREP_PARENTS][POREP_NODE_BITS]; /* per worker */
} rjob;

static void record_fn(void *ctx, size_t begin, size_t end, unsigned worker)
{
    rjob *j = ctx;
    for (size_t t = begin; t < end; t++) {
        unsigned k = j->task[t];
        cuzk_cs *cs = &j->cs[k];
        if (j->count)
            cs_init(cs, CS_COUNT, false);
        else
            cs_init_at(cs, j->pub[k], j->aux[k]);
        porep_segment(cs, j->x, &j->chal[k / j->nseg], NULL, k % j->nseg, j->pbits[worker]);
    }
}

/* Runs the segments of challenges [0, nch) in three phases (porep_internal.h's
 * dependencies: data, parents and node; then labels; then tails): a later segment reads
 * the variables of earlier ones through its porep_chal, and the gadgets fold constants,
 * so even counting needs them (a label over a constant node allocates fewer bits). */
static cuzk_status run_phases(rjob *j, const cuzk_porep_shape *s, unsigned nch, cuzk_pool *pool,
                              cuzk_error *err)
{
    for (int phase = 0; phase < 3; phase++) {
        size_t t = 0;
        for (unsigned i = 0; i < nch; i++)
            for (unsigned seg = 0; seg < j->nseg; seg++) {
                int ph = porep_segment_is_tail(s, seg) ? 2 : seg >= POREP_SEG_LABEL1 ? 1 : 0;
                if (ph == phase)
                    j->task[t++] = i * j->nseg + seg;
            }
        /* stoppable: a daemon stopping, or the jobs that wanted this key gone, ends a
         * recording of minutes at its next segment (the scope's flag, cuzk/pool.h) */
        cuzk_status st = cuzk_pool_for_stoppable(pool, t, record_fn, j, 1);
        if (st == CUZK_ERR_CANCELLED)
            return cuzk_error_set(err, st, "porep record: cancelled");
        if (st)
            return cuzk_error_set(err, st, "porep record: the worker pool failed");
    }
    return CUZK_OK;
}

cuzk_status cuzk_porep_record(uint64_t sector_size, cuzk_pool *pool, cuzk_r1cs **r1cs,
                              cuzk_witness_map *map, cuzk_error *err)
{
    if (!r1cs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "porep record: r1cs is NULL");
    *r1cs = NULL;
    cuzk_porep_circuit *c = NULL;
    cuzk_status st = cuzk_porep_circuit_placeholder(sector_size, &c, err);
    if (st)
        return st;
    const unsigned nch = c->shape.challenges, nseg = porep_segments(&c->shape);
    const size_t nk = (size_t)nch * nseg, nthr = cuzk_pool_nthreads(pool);
    rjob j = {.nseg = nseg};
    porep_ctx x;
    cuzk_cs *main_cs = calloc(1, sizeof *main_cs);
    cuzk_cs **pieces = malloc((nk + 1) * sizeof *pieces);
    j.chal = calloc(nch, sizeof *j.chal);
    j.cs = calloc(nk, sizeof *j.cs);
    j.pub = malloc(2 * nk * sizeof *j.pub);
    j.task = malloc(nk * sizeof *j.task);
    j.pbits = malloc(nthr * sizeof *j.pbits);
    size_t inited = 0; /* j.cs entries that hold a cs (released at the end) */
    if (!main_cs || !pieces || !j.chal || !j.cs || !j.pub || !j.task || !j.pbits) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "porep record: out of memory");
        goto out;
    }
    j.aux = j.pub + nk;
    cs_init(main_cs, CS_RECORD, false);
    const cuzk_c1_challenge_proof *proofs;
    if ((st = porep_preamble(main_cs, c, &x, &proofs, err)))
        goto out;
    j.x = &x;

    /* counts of one challenge's segments, then every segment's first input and aux */
    j.count = true;
    inited = nseg;
    if ((st = run_phases(&j, &c->shape, 1, pool, err)))
        goto out;
    j.count = false;
    memset(j.chal, 0, sizeof *j.chal);
    uint64_t pub = main_cs->n_public, aux = main_cs->n_aux;
    for (size_t k = 0; k < nk; k++) {
        const cuzk_cs *cnt = &j.cs[k % nseg];
        if (cnt->status != CUZK_OK) {
            if (err)
                *err = cnt->err;
            st = cnt->status;
            goto out;
        }
        j.pub[k] = pub;
        j.aux[k] = aux;
        pub += cnt->n_public;
        aux += cnt->n_aux;
    }
    for (unsigned s = 0; s < nseg; s++)
        cs_release(&j.cs[s]);

    /* data, parents, node; then labels; then tails */
    inited = nk;
    if ((st = run_phases(&j, &c->shape, nch, pool, err)))
        goto out;
    pieces[0] = main_cs;
    for (size_t k = 0; k < nk; k++)
        pieces[k + 1] = &j.cs[k];
    st = cs_record_concat(pieces, nk + 1, pool, r1cs, map, err); /* releases every piece */
out:
    if (j.cs)
        for (size_t k = 0; k < inited; k++)
            cs_release(&j.cs[k]);
    if (main_cs) {
        cs_release(main_cs);
        free(main_cs);
    }
    free(pieces);
    free(j.chal);
    free(j.cs);
    free(j.pub);
    free(j.task);
    free(j.pbits);
    cuzk_porep_circuit_free(c);
    return st;
}
