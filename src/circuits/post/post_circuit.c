/*
 * post_circuit.c — the Fallback PoSt circuit (rust-fil-proofs storage-proofs-post
 * fallback/circuit.rs, FallbackPoStCircuit::synthesize_default; the parallel
 * synthesize_extendable gives the same system) and its counts. Layout in cuzk/post.h.
 *
 * Which vanilla data a circuit sector reads (filecoin-proofs single_partition_vanilla_proofs
 * and FallbackPoStCompound::circuit): WindowPoSt circuit sector s is given sector
 * min(s, n_given - 1) (a short partition repeats its last sector) with its challenges in
 * order; WinningPoSt circuit sector s is the one sector with only its inclusion proof s.
 *
 * Threading: as the cuzk_cs; no global state besides the Poseidon tables (poseidon.h).
 */
#include <string.h>

#include "circuits/gadgets/merkle.h"
#include "circuits/poseidon.h"
#include "cuzk/post.h"

#define MAX_SIBLINGS (CUZK_C1_MAX_LEVELS * 7u)

static void fr_of(cuzk_fr *out, const uint8_t b[32])
{
    /* the shape check and the parser have made every value canonical; a non-canonical one
     * from a hand-built struct reads as zero and leaves the witness unsatisfied */
    if (cuzk_fr_from_bytes_le(out, b) != CUZK_OK)
        *out = CUZK_FR_ZERO;
}

cuzk_status cuzk_post_circuit(cuzk_cs *cs, const void *vctx, cuzk_error *err)
{
    const cuzk_post_partition *p = vctx;
    if (!p)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt circuit: no partition");
    const cuzk_post_info *in = &p->info;
    if (cs->values && !p->given)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "PoSt circuit: the witness needs the vanilla proofs");
    if (p->given) {
        cuzk_status st = cuzk_post_partition_check_shape(p, err);
        if (st != CUZK_OK)
            return st;
    }
    gad_merkle_shape shape = {GAD_HASH_POSEIDON, in->base_arity, in->base_levels, in->sub_arity,
                              in->top_arity};
    uint32_t levels = cuzk_post_info_levels(in);
    if (levels > CUZK_C1_MAX_LEVELS || gad_merkle_levels(&shape) != levels)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt circuit: impossible tree shape");
    const pos_params *h2 = pos_params_get(2);
    if (!h2)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "PoSt circuit: no Poseidon-2 constants");

    unsigned index[CUZK_C1_MAX_LEVELS];
    cuzk_fr sib[MAX_SIBLINGS];
    for (uint32_t s = 0; s < in->sectors && cs->status == CUZK_OK; s++) {
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
        gad_num h = gad_poseidon_hash(cs, h2, pre);
        gad_equal(cs, &comm_r, &h);
        for (uint32_t c = 0; c < in->challenges; c++) {
            cuzk_fr v_leaf;
            if (cs->values) {
                const cuzk_c1_merkle_proof *m = &sp->proofs[first + c];
                fr_of(&v_leaf, m->leaf);
                size_t k = 0;
                for (uint32_t l = 0; l < levels; l++) {
                    index[l] = m->index[l];
                    for (uint32_t j = 0; j + 1 < m->arity[l]; j++, k++)
                        fr_of(&sib[k], m->siblings[k]);
                }
            }
            gad_num leaf = gad_num_alloc(cs, cs->values ? &v_leaf : NULL);
            gad_por(cs, &shape, &leaf, &comm_r_last, index, sib);
        }
    }
    return CUZK_OK;
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
