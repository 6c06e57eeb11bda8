/*
 * public_inputs.c — the public inputs of a StackedDRG partition proof as rust-fil-proofs'
 * StackedCompound::generate_public_inputs orders them (cuzk/porep.h): replica_id, comm_d,
 * comm_r, then per challenge the tree D path's node, the 14 parents' nodes, the challenge,
 * the tree R path's node and the tree C path's node. A private-root path's only input is
 * its index bits packed LSB first, base levels first: the node index itself.
 * The parents come from the C1 column proofs (column.index), so no graph code is needed;
 * a verifier that does not trust the prover must derive them from the DRG and expander
 * graphs instead (and the challenges with cuzk_c1_check_challenges).
 *
 * Threading: pure function.
 */
#include "circuits/porep/porep_internal.h"

static cuzk_status fr_in(cuzk_fr *f, const uint8_t b[32], const char *what, cuzk_error *err)
{
    if (cuzk_fr_from_bytes_le(f, b) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_NONCANONICAL, "porep public inputs: %s >= r", what);
    return CUZK_OK;
}

cuzk_status cuzk_porep_public_inputs(const cuzk_c1_output *c1, unsigned partition,
                                     cuzk_fr *out, size_t n, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "porep public inputs: out is NULL");
    cuzk_porep_shape s;
    cuzk_status st = porep_check_c1(c1, partition, &s, false, err);
    if (st)
        return st;
    if (n != cuzk_porep_public_input_count(&s))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "porep public inputs: room for %zu, the circuit has %zu", n,
                              cuzk_porep_public_input_count(&s));
    if ((st = fr_in(&out[0], c1->replica_id, "replica_id", err)) ||
        (st = fr_in(&out[1], c1->comm_d, "comm_d", err)) ||
        (st = fr_in(&out[2], c1->comm_r, "comm_r", err)))
        return st;
    const cuzk_c1_challenge_proof *p = c1->proofs + (size_t)partition * s.challenges;
    cuzk_fr *x = out + 3;
    for (unsigned i = 0; i < s.challenges; i++) {
        uint64_t node = cuzk_c1_challenge(&p[i]);
        cuzk_fr_from_u64(x++, node);
        for (unsigned j = 0; j < CUZK_C1_DRG_PARENTS; j++)
            cuzk_fr_from_u64(x++, p[i].drg_parents[j].index);
        for (unsigned j = 0; j < CUZK_C1_EXP_PARENTS; j++)
            cuzk_fr_from_u64(x++, p[i].exp_parents[j].index);
        for (unsigned k = 0; k < 3; k++)
            cuzk_fr_from_u64(x++, node);
    }
    return CUZK_OK;
}
