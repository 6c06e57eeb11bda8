/*
 * stacked.c — the StackedDRG partition circuit (rust-fil-proofs storage-proofs-porep
 * stacked/circuit/proof.rs StackedCircuit::synthesize and params.rs Proof::synthesize),
 * allocation for allocation and row for row; the order is stated in cuzk/porep.h and
 * filecoin.md §2.4.
 *
 * Values are read from the C1 output only on the witness backend; elsewhere the same
 * calls run on no data (the placeholder circuit). Every 32-byte value is the little-endian
 * Fr repr the parser checked canonical; a hand-built non-canonical one reads as zero and
 * leaves the system unsatisfied rather than reading garbage.
 *
 * A challenge is cut into segments (porep_internal.h) that the plain synthesis runs in
 * order on one cs and the fast witness (witness.c) runs in parallel, one cs each.
 *
 * Threading: as the cuzk_cs; the circuit object is only read.
 */
#include <stdlib.h>
#include <string.h>

#include "circuits/porep/porep_internal.h"

#define N_PARENTS POREP_PARENTS

static void fr_of(cuzk_fr *f, const uint8_t b[32])
{
    if (cuzk_fr_from_bytes_le(f, b) != CUZK_OK)
        *f = CUZK_FR_ZERO;
}

/* Allocates a number from C1 bytes (bytes == NULL: no values). */
static gad_num alloc_bytes(cuzk_cs *cs, const uint8_t *bytes)
{
    cuzk_fr v = CUZK_FR_ZERO;
    if (bytes)
        fr_of(&v, bytes);
    return gad_num_alloc(cs, &v);
}

/* enforce_inclusion: PoRCircuit with leaf and root allocated, root private. */
static void inclusion(cuzk_cs *cs, const gad_merkle_shape *sh, const gad_num *leaf,
                      const gad_num *root, const cuzk_c1_merkle_proof *m)
{
    unsigned index[CUZK_C1_MAX_LEVELS];
    cuzk_fr sib[CUZK_C1_MAX_LEVELS * 7];
    if (m) {
        size_t k = 0;
        for (unsigned l = 0; l < m->n_levels; l++) {
            index[l] = m->index[l];
            for (unsigned j = 0; j + 1 < m->arity[l]; j++, k++)
                fr_of(&sib[k], m->siblings[k]);
        }
    }
    gad_por(cs, sh, leaf, root, m ? index : NULL, m ? sib : NULL);
}

void porep_chal_prefill(porep_chal *ch, const porep_ctx *x, const cuzk_c1_challenge_proof *p)
{
    memset(ch, 0, sizeof *ch);
    fr_of(&ch->data.value, p->comm_d_proof.leaf);
    for (unsigned j = 0; j < N_PARENTS; j++) {
        const cuzk_c1_column_proof *col = j < CUZK_C1_DRG_PARENTS
                                              ? &p->drg_parents[j]
                                              : &p->exp_parents[j - CUZK_C1_DRG_PARENTS];
        for (unsigned l = 0; l < x->s->layers; l++)
            fr_of(&ch->cols[j][l].value, col->rows[l]);
    }
    uint64_t node = cuzk_c1_challenge(p);
    for (unsigned i = 0; i < 64; i++)
        ch->node[i] = (gad_bool){GB_IS, (bool)((node >> i) & 1), 0};
}

void porep_segment(cuzk_cs *cs, const porep_ctx *x, porep_chal *ch,
                   const cuzk_c1_challenge_proof *p, unsigned seg,
                   gad_bool (*pbits)[POREP_NODE_BITS])
{
    const unsigned layers = x->s->layers;
    if (seg == POREP_SEG_DATA) {
        ch->data = alloc_bytes(cs, p ? p->comm_d_proof.leaf : NULL);
        inclusion(cs, &x->tree_d, &ch->data, &x->comm_d, p ? &p->comm_d_proof : NULL);
    } else if (seg < POREP_SEG_NODE) { /* a parent's column, hashed and opened in tree C */
        unsigned j = seg - POREP_SEG_PARENT0;
        const cuzk_c1_column_proof *col = !p ? NULL
                                          : j < CUZK_C1_DRG_PARENTS
                                              ? &p->drg_parents[j]
                                              : &p->exp_parents[j - CUZK_C1_DRG_PARENTS];
        for (unsigned l = 0; l < layers; l++)
            ch->cols[j][l] = alloc_bytes(cs, col ? col->rows[l] : NULL);
        gad_num h = porep_column_hash(cs, ch->cols[j], layers);
        inclusion(cs, &x->tree_rc, &h, &x->comm_c, col ? &col->proof : NULL);
    } else if (seg == POREP_SEG_NODE) { /* the challenge: UInt64::alloc, pack_into_input */
        gad_bits_alloc_u64(cs, p ? cuzk_c1_challenge(p) : 0, ch->node);
        gad_pack_into_inputs(cs, ch->node, 64);
    } else if (seg < POREP_SEG_LABEL1 + layers) {
        unsigned layer = seg - POREP_SEG_LABEL1 + 1, n = 0;
        for (unsigned j = 0; j < CUZK_C1_DRG_PARENTS; j++)
            porep_num_to_stream_bits(cs, &ch->cols[j][layer - 1], pbits[n++]);
        if (layer > 1) /* expander parents' values are the previous layer's labels */
            for (unsigned j = 0; j < CUZK_C1_EXP_PARENTS; j++)
                porep_num_to_stream_bits(cs, &ch->cols[CUZK_C1_DRG_PARENTS + j][layer - 2],
                                         pbits[n++]);
        /* the list repeated to 37: 6 x 6 + the first (layer 1); 14, 14, first 9 (later) */
        const gad_bool *parents[POREP_LABEL_PARENTS];
        for (unsigned i = 0; i < POREP_LABEL_PARENTS; i++)
            parents[i] = pbits[i % n];
        ch->labels[layer - 1] = porep_create_label(cs, x->replica_id, layer, ch->node, parents);
    } else {
        /* encoding: replica node = last label + data node, opened in tree R */
        gad_num encoded = gad_constraint_add(cs, &ch->labels[layers - 1], &ch->data);
        inclusion(cs, &x->tree_rc, &encoded, &x->comm_r_last,
                  p ? &p->comm_r_last_proof : NULL);
        /* the challenged column is the labels: its hash opened in tree C */
        gad_num h = porep_column_hash(cs, ch->labels, layers);
        inclusion(cs, &x->tree_rc, &h, &x->comm_c, p ? &p->c_x.proof : NULL);
    }
}

cuzk_status porep_preamble(cuzk_cs *cs, const cuzk_porep_circuit *c, porep_ctx *x,
                           const cuzk_c1_challenge_proof **proofs, cuzk_error *err)
{
    if (c->shape.layers > POREP_MAX_LAYERS || c->shape.layers == 0)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "porep circuit: %u layers",
                              c->shape.layers);
    memset(x, 0, sizeof *x);
    x->s = &c->shape;
    x->tree_d = (gad_merkle_shape){GAD_HASH_SHA256, 2, c->shape.tree_d_levels, 0, 0};
    x->tree_rc = (gad_merkle_shape){GAD_HASH_POSEIDON, c->shape.base_arity,
                                    c->shape.base_levels, c->shape.sub_arity,
                                    c->shape.top_arity};
    const cuzk_c1_output *c1 = cs->values ? c->c1 : NULL;
    const cuzk_c1_challenge_proof *pr =
        c1 ? c1->proofs + (size_t)c->partition * c->shape.challenges : NULL;
    *proofs = pr;

    gad_num replica_id = alloc_bytes(cs, c1 ? c1->replica_id : NULL);
    gad_num_inputize(cs, &replica_id);
    porep_num_to_stream_bits(cs, &replica_id, x->replica_id);
    x->comm_d = alloc_bytes(cs, c1 ? c1->comm_d : NULL);
    gad_num_inputize(cs, &x->comm_d);
    gad_num comm_r = alloc_bytes(cs, c1 ? c1->comm_r : NULL);
    gad_num_inputize(cs, &comm_r);
    x->comm_r_last = alloc_bytes(cs, pr ? pr[0].comm_r_last_proof.root : NULL);
    x->comm_c = alloc_bytes(cs, pr ? pr[0].c_x.proof.root : NULL);

    /* comm_r = Poseidon-2(comm_c, comm_r_last) */
    gad_num pair[2] = {x->comm_c, x->comm_r_last};
    gad_num h = gad_hash_leaves(cs, GAD_HASH_POSEIDON, pair, 2);
    gad_equal(cs, &comm_r, &h);
    return CUZK_OK;
}

cuzk_status cuzk_porep_circuit_synthesize(cuzk_cs *cs, const void *circuit, cuzk_error *err)
{
    const cuzk_porep_circuit *c = circuit;
    if (!c || !cs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "porep circuit: NULL argument");
    if (cs->values && !c->c1)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "porep circuit: the placeholder circuit has no witness values "
                              "(make the circuit from a C1 output)");
    porep_ctx x;
    const cuzk_c1_challenge_proof *proofs;
    cuzk_status st = porep_preamble(cs, c, &x, &proofs, err);
    if (st)
        return st;
    gad_bool (*pbits)[POREP_NODE_BITS] = malloc(N_PARENTS * sizeof *pbits);
    porep_chal *ch = malloc(sizeof *ch);
    if (!pbits || !ch) {
        free(pbits);
        free(ch);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "porep circuit: out of memory");
    }
    unsigned nseg = porep_segments(&c->shape);
    for (unsigned i = 0; i < c->shape.challenges && cs->status == CUZK_OK; i++)
        for (unsigned seg = 0; seg < nseg; seg++)
            porep_segment(cs, &x, ch, proofs ? &proofs[i] : NULL, seg, pbits);
    free(pbits);
    free(ch);
    return CUZK_OK;
}
