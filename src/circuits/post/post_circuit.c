/*
 * post_circuit.c — the Fallback PoSt circuit (rust-fil-proofs storage-proofs-post
 * fallback/circuit.rs, FallbackPoStCircuit::synthesize_default; the parallel
 * synthesize_extendable gives the same system) and its counts. Layout in cuzk/post_circuit.h.
 *
 * Which vanilla data a circuit sector reads (filecoin-proofs single_partition_vanilla_proofs
 * and FallbackPoStCompound::circuit): WindowPoSt circuit sector s is given sector
 * min(s, n_given - 1) (a short partition repeats its last sector) with its challenges in
 * order; WinningPoSt circuit sector s is the one sector with only its inclusion proof s.
 *
 * cuzk_post_witness_compact runs the sectors, which share no variable, each on its own
 * witness system on the pool, and concatenates them (cs_concat.h): the plain witness
 * backend's assignment, bit for bit (test_post_witness).
 * Threading: as the cuzk_cs; the parallel witness on the given pool; no global state
 * besides the Poseidon tables (poseidon.h).
 */
#include <string.h>

#include <stdlib.h>

#include "circuits/cs_concat.h"
#include "circuits/gadgets/merkle.h"
#include "circuits/poseidon.h"
#include "cuzk/post_circuit.h"

#define MAX_SIBLINGS (CUZK_C1_MAX_LEVELS * 7u)

static void fr_of(cuzk_fr *out, const uint8_t b[32])
{
    /* the shape check and the parser have made every value canonical; a non-canonical one
     * from a hand-built struct reads as zero and leaves the witness unsatisfied */
    if (cuzk_fr_from_bytes_le(out, b) != CUZK_OK)
        *out = CUZK_FR_ZERO;
}

/* What every sector of a partition shares: the tree shape and Poseidon-2. */
typedef struct post_common {
    gad_merkle_shape shape;
    uint32_t levels;
    const pos_params *h2;
} post_common;

static cuzk_status post_prepare(const cuzk_post_partition *p, bool values, post_common *pc,
                                cuzk_error *err)
{
    if (!p)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt circuit: no partition");
    const cuzk_post_info *in = &p->info;
    if (values && !p->given)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "PoSt circuit: the witness needs the vanilla proofs");
    if (p->given) {
        cuzk_status st = cuzk_post_partition_check_shape(p, err);
        if (st != CUZK_OK)
            return st;
    }
    pc->shape = (gad_merkle_shape){GAD_HASH_POSEIDON, in->base_arity, in->base_levels,
                                   in->sub_arity, in->top_arity};
    pc->levels = cuzk_post_info_levels(in);
    if (pc->levels > CUZK_C1_MAX_LEVELS || gad_merkle_levels(&pc->shape) != pc->levels)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt circuit: impossible tree shape");
    pc->h2 = pos_params_get(2);
    if (!pc->h2)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "PoSt circuit: no Poseidon-2 constants");
    return CUZK_OK;
}

/* Circuit sector s: its commitments (comm_r an input), comm_r = H(comm_c, comm_r_last),
 * and its challenges' inclusion paths in tree R. Allocates nothing shared with the other
 * sectors, so sectors can run on separate witness systems (cuzk_post_witness_compact). */
static void post_sector(cuzk_cs *cs, const cuzk_post_partition *p, const post_common *pc,
                        uint32_t s)
{
    const cuzk_post_info *in = &p->info;
    unsigned index[CUZK_C1_MAX_LEVELS];
    cuzk_fr sib[MAX_SIBLINGS];
    const cuzk_post_sector_proof *sp = NULL;
    uint32_t first = 0;
    if (p->given) {
        if (in->kind == CUZK_POST_WINNING) {
            sp = &p->given[0];
            first = s * in->challenges;
        } else {
            sp = &p->given[s < p->n_given ? s : p->n_given - 1];
        }
    }
    cuzk_fr v_crl, v_cc, v_cr;
    if (cs->values) {
        fr_of(&v_crl, sp->comm_r_last);
        fr_of(&v_cc, sp->comm_c);
        fr_of(&v_cr, sp->comm_r);
    }
    gad_num comm_r_last = gad_num_alloc(cs, cs->values ? &v_crl : NULL);
    gad_num comm_c = gad_num_alloc(cs, cs->values ? &v_cc : NULL);
    gad_num comm_r = gad_num_alloc(cs, cs->values ? &v_cr : NULL);
    gad_num_inputize(cs, &comm_r);
    gad_num pre[2] = {comm_c, comm_r_last};
    gad_num h = gad_poseidon_hash(cs, pc->h2, pre);
    gad_equal(cs, &comm_r, &h);
    for (uint32_t c = 0; c < in->challenges; c++) {
        cuzk_fr v_leaf;
        if (cs->values) {
            const cuzk_c1_merkle_proof *m = &sp->proofs[first + c];
            fr_of(&v_leaf, m->leaf);
            size_t k = 0;
            for (uint32_t l = 0; l < pc->levels; l++) {
                index[l] = m->index[l];
                for (uint32_t j = 0; j + 1 < m->arity[l]; j++, k++)
                    fr_of(&sib[k], m->siblings[k]);
            }
        }
        gad_num leaf = gad_num_alloc(cs, cs->values ? &v_leaf : NULL);
        gad_por(cs, &pc->shape, &leaf, &comm_r_last, index, sib);
    }
}

cuzk_status cuzk_post_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    const cuzk_post_partition *p = vctx;
    post_common pc;
    cuzk_status st = post_prepare(p, cs->values, &pc, err);
    if (st != CUZK_OK)
        return st;
    for (uint32_t s = 0; s < p->info.sectors && cs->status == CUZK_OK; s++)
        post_sector(cs, p, &pc, s);
    return CUZK_OK;
}

/* ---- the parallel witness ---------------------------------------------------------------- */

typedef struct post_job {
    const cuzk_post_partition *p;
    const post_common *pc;
    cuzk_cs *cs;
    bool compact;
} post_job;

static void post_sector_job(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    post_job *j = ctx;
    for (size_t s = begin; s < end; s++) {
        cs_init(&j->cs[s], CS_WITNESS, j->compact);
        post_sector(&j->cs[s], j->p, j->pc, (uint32_t)s);
    }
}

cuzk_status cuzk_post_witness_compact(const cuzk_post_partition *p, cuzk_pool *pool,
                                      cuzk_compact_assignment *out, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt witness: out is NULL");
    memset(out, 0, sizeof *out);
    post_common pc;
    cuzk_status st = post_prepare(p, true, &pc, err);
    if (st != CUZK_OK)
        return st;
    uint32_t n = p->info.sectors;
    post_job j = {p, &pc, calloc(n ? n : 1, sizeof(cuzk_cs)), true};
    cuzk_cs **pieces = malloc((n ? n : 1) * sizeof *pieces);
    if (!j.cs || !pieces) {
        free(j.cs);
        free(pieces);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "PoSt witness: out of memory");
    }
    if ((st = cuzk_pool_for(pool, n, post_sector_job, &j, 1)) != CUZK_OK) {
        cuzk_error_set(err, st, "PoSt witness: the worker pool failed");
        for (uint32_t s = 0; s < n; s++)
            cs_release(&j.cs[s]);
    } else {
        for (uint32_t s = 0; s < n; s++)
            pieces[s] = &j.cs[s];
        uint64_t nv = 0, nb = 0;
        st = cs_concat(pieces, n, true, pool, &out->dense, &out->bits, &nv, &nb, err);
        if (st == CUZK_OK) {
            out->n_vars = (uint32_t)nv;
            out->n_bits = (uint32_t)nb;
        }
    }
    free(pieces);
    free(j.cs);
    return st;
}

cuzk_status cuzk_post_circuit_counts(cuzk_post_kind kind, uint64_t sector_size,
                                     uint32_t sectors, uint32_t challenges,
                                     cuzk_circuit_counts *out, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt counts: out is NULL");
    cuzk_post_partition p;
    memset(&p, 0, sizeof p);
    cuzk_status st = cuzk_post_info_get(kind, sector_size, &p.info, err);
    if (st != CUZK_OK)
        return st;
    if (sectors)
        p.info.sectors = sectors;
    if (challenges)
        p.info.challenges = challenges;
    return cuzk_circuit_count(cuzk_post_circuit, &p, out, err);
}

/* ---- the parallel recording --------------------------------------------------------------- */

typedef struct post_rec {
    const cuzk_post_partition *p;
    const post_common *pc;
    cuzk_cs *cs;
    uint64_t pub, aux; /* one sector's inputs and aux (every sector has the same) */
} post_rec;

static void post_record_job(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    post_rec *j = ctx;
    for (size_t s = begin; s < end; s++) {
        cs_init_at(&j->cs[s], s * j->pub, s * j->aux);
        post_sector(&j->cs[s], j->p, j->pc, (uint32_t)s);
    }
}

cuzk_status cuzk_post_record(const cuzk_post_partition *p, cuzk_pool *pool, cuzk_r1cs **r1cs,
                             cuzk_witness_map *map, cuzk_error *err)
{
    if (!r1cs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt record: r1cs is NULL");
    *r1cs = NULL;
    post_common pc;
    cuzk_status st = post_prepare(p, false, &pc, err);
    if (st != CUZK_OK)
        return st;
    uint32_t n = p->info.sectors;
    if (!n)
        return cuzk_circuit_record(cuzk_post_circuit, p, r1cs, map, err);
    /* sector 0's counts number every sector: they share no variable (post_sector) */
    cuzk_cs *cnt = malloc(sizeof *cnt);
    if (!cnt)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "PoSt record: out of memory");
    cs_init(cnt, CS_COUNT, false);
    post_sector(cnt, p, &pc, 0);
    post_rec j = {p, &pc, NULL, cnt->n_public, cnt->n_aux};
    st = cnt->status;
    if (st != CUZK_OK && err)
        *err = cnt->err;
    cs_release(cnt);
    free(cnt);
    if (st != CUZK_OK)
        return st;
    j.cs = calloc(n, sizeof(cuzk_cs));
    cuzk_cs **pieces = malloc(n * sizeof *pieces);
    if (!j.cs || !pieces) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "PoSt record: out of memory");
    } else if ((st = cuzk_pool_for_stoppable(pool, n, post_record_job, &j, 1)) != CUZK_OK) {
        cuzk_error_set(err, st, st == CUZK_ERR_CANCELLED ? "PoSt record: cancelled"
                                                         : "PoSt record: the worker pool failed");
    } else {
        for (uint32_t s = 0; s < n; s++)
            pieces[s] = &j.cs[s];
        st = cs_record_concat(pieces, n, pool, r1cs, map, err);
    }
    if (j.cs)
        for (uint32_t s = 0; s < n; s++)
            cs_release(&j.cs[s]);
    free(pieces);
    free(j.cs);
    return st;
}
