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
 * Threading: as the cuzk_cs; the circuit object is only read.
 */
#include <stdlib.h>
#include <string.h>

#include "circuits/porep/porep_internal.h"

#define N_PARENTS (CUZK_C1_DRG_PARENTS + CUZK_C1_EXP_PARENTS)
#define MAX_LAYERS 11u

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

typedef struct shared {
    const cuzk_porep_shape *s;
    gad_merkle_shape tree_d, tree_rc;
    gad_num comm_d, comm_c, comm_r_last;
    gad_bool replica_id[POREP_NODE_BITS];
    gad_bool (*pbits)[POREP_NODE_BITS]; /* N_PARENTS parents' bits, reused per layer */
} shared;

/* Proof::synthesize for one challenge; p == NULL: no values. */
static void challenge(cuzk_cs *cs, shared *sh, const cuzk_c1_challenge_proof *p)
{
    const unsigned layers = sh->s->layers;
    gad_num data = alloc_bytes(cs, p ? p->comm_d_proof.leaf : NULL);
    inclusion(cs, &sh->tree_d, &data, &sh->comm_d, p ? &p->comm_d_proof : NULL);

    /* the 6 DRG then 8 expander parents' columns, each hashed and opened in tree C */
    gad_num cols[N_PARENTS][MAX_LAYERS];
    for (unsigned j = 0; j < N_PARENTS; j++) {
        const cuzk_c1_column_proof *col = !p ? NULL
                                          : j < CUZK_C1_DRG_PARENTS
                                              ? &p->drg_parents[j]
                                              : &p->exp_parents[j - CUZK_C1_DRG_PARENTS];
        for (unsigned l = 0; l < layers; l++)
            cols[j][l] = alloc_bytes(cs, col ? col->rows[l] : NULL);
        gad_num h = porep_column_hash(cs, cols[j], layers);
        inclusion(cs, &sh->tree_rc, &h, &sh->comm_c, col ? &col->proof : NULL);
    }

    /* the challenge: UInt64::alloc, pack_into_input */
    gad_bool node[64];
    gad_bits_alloc_u64(cs, p ? cuzk_c1_challenge(p) : 0, node);
    gad_pack_into_inputs(cs, node, 64);

    gad_num labels[MAX_LAYERS];
    for (unsigned layer = 1; layer <= layers; layer++) {
        unsigned n = 0;
        for (unsigned j = 0; j < CUZK_C1_DRG_PARENTS; j++)
            porep_num_to_stream_bits(cs, &cols[j][layer - 1], sh->pbits[n++]);
        if (layer > 1) /* expander parents' values are the previous layer's labels */
            for (unsigned j = 0; j < CUZK_C1_EXP_PARENTS; j++)
                porep_num_to_stream_bits(cs, &cols[CUZK_C1_DRG_PARENTS + j][layer - 2],
                                         sh->pbits[n++]);
        /* the list repeated to 37: 6 x 6 + the first (layer 1); 14, 14, first 9 (later) */
        const gad_bool *parents[POREP_LABEL_PARENTS];
        for (unsigned i = 0; i < POREP_LABEL_PARENTS; i++)
            parents[i] = sh->pbits[i % n];
        labels[layer - 1] = porep_create_label(cs, sh->replica_id, layer, node, parents);
    }

    /* encoding: replica node = last label + data node, opened in tree R */
    gad_num encoded = gad_constraint_add(cs, &labels[layers - 1], &data);
    inclusion(cs, &sh->tree_rc, &encoded, &sh->comm_r_last, p ? &p->comm_r_last_proof : NULL);

    /* the challenged column is the labels: its hash opened in tree C */
    gad_num ch = porep_column_hash(cs, labels, layers);
    inclusion(cs, &sh->tree_rc, &ch, &sh->comm_c, p ? &p->c_x.proof : NULL);
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
    if (c->shape.layers > MAX_LAYERS || c->shape.layers == 0)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "porep circuit: %u layers",
                              c->shape.layers);
    shared sh;
    memset(&sh, 0, sizeof sh);
    sh.s = &c->shape;
    sh.tree_d = (gad_merkle_shape){GAD_HASH_SHA256, 2, c->shape.tree_d_levels, 0, 0};
    sh.tree_rc = (gad_merkle_shape){GAD_HASH_POSEIDON, c->shape.base_arity,
                                    c->shape.base_levels, c->shape.sub_arity,
                                    c->shape.top_arity};
    sh.pbits = malloc(N_PARENTS * sizeof *sh.pbits);
    if (!sh.pbits)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "porep circuit: out of memory");

    const cuzk_c1_output *c1 = cs->values ? c->c1 : NULL;
    const cuzk_c1_challenge_proof *proofs =
        c1 ? c1->proofs + (size_t)c->partition * c->shape.challenges : NULL;

    gad_num replica_id = alloc_bytes(cs, c1 ? c1->replica_id : NULL);
    gad_num_inputize(cs, &replica_id);
    porep_num_to_stream_bits(cs, &replica_id, sh.replica_id);
    sh.comm_d = alloc_bytes(cs, c1 ? c1->comm_d : NULL);
    gad_num_inputize(cs, &sh.comm_d);
    gad_num comm_r = alloc_bytes(cs, c1 ? c1->comm_r : NULL);
    gad_num_inputize(cs, &comm_r);
    sh.comm_r_last = alloc_bytes(cs, proofs ? proofs[0].comm_r_last_proof.root : NULL);
    sh.comm_c = alloc_bytes(cs, proofs ? proofs[0].c_x.proof.root : NULL);

    /* comm_r = Poseidon-2(comm_c, comm_r_last) */
    gad_num pair[2] = {sh.comm_c, sh.comm_r_last};
    gad_num h = gad_hash_leaves(cs, GAD_HASH_POSEIDON, pair, 2);
    gad_equal(cs, &comm_r, &h);

    for (unsigned i = 0; i < c->shape.challenges && cs->status == CUZK_OK; i++)
        challenge(cs, &sh, proofs ? &proofs[i] : NULL);
    free(sh.pbits);
    return CUZK_OK;
}
