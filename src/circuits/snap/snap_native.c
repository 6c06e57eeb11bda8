/*
 * snap_native.c — SnapDeals values outside the circuit: phi and rho (vanilla.rs phi, rho),
 * the challenged nodes of a partition (challenges.rs Challenges::new / new_poseidon) and
 * the public inputs (circuit.rs PublicInputs::new / to_vec). Poseidon only, so it lives in
 * the circuits layer; the SHA-256 checks of vanilla proofs are in src/filecoin.
 *
 * Threading: pure functions (the Poseidon tables are built once, see snap_internal.h).
 */
#include <string.h>

#include "circuits/snap/snap_internal.h"

cuzk_status cuzk_snap_phi(cuzk_fr *phi, const uint8_t comm_d_new[32],
                          const uint8_t comm_r_old[32], cuzk_error *err)
{
    if (!phi || !comm_d_new || !comm_r_old)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals phi: NULL argument");
    const pos_params *gen = snap_pos_gen();
    if (!gen)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "SnapDeals: no Poseidon constants");
    cuzk_fr in[2];
    if (cuzk_fr_from_bytes_le(&in[0], comm_d_new) || cuzk_fr_from_bytes_le(&in[1], comm_r_old))
        return cuzk_error_set(err, CUZK_ERR_NONCANONICAL,
                              "SnapDeals phi: comm_d_new or comm_r_old is not canonical");
    pos_hash_optimized(phi, gen, in);
    return CUZK_OK;
}

void cuzk_snap_rho(cuzk_fr *rho, const cuzk_fr *phi, uint64_t high)
{
    const pos_params *gen = snap_pos_gen();
    cuzk_fr in[2] = {*phi, CUZK_FR_ZERO};
    cuzk_fr_from_u64(&in[1], high);
    if (gen)
        pos_hash_optimized(rho, gen, in);
    else
        *rho = CUZK_FR_ZERO;
}

cuzk_status cuzk_snap_challenges(const cuzk_snap_info *in, const uint8_t comm_r_new[32],
                                 uint32_t k, uint64_t *out, cuzk_error *err)
{
    if (!in || !comm_r_new || !out || k >= in->partitions)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals challenges: bad argument");
    const pos_params *gen = snap_pos_gen();
    if (!gen)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "SnapDeals: no Poseidon constants");
    cuzk_fr pre[2];
    if (cuzk_fr_from_bytes_le(&pre[0], comm_r_new))
        return cuzk_error_set(err, CUZK_ERR_NONCANONICAL,
                              "SnapDeals challenges: comm_r_new is not canonical");
    uint32_t rand_bits = in->challenge_bits - in->partition_bits;
    uint32_t per_digest = GAD_FR_CAPACITY / rand_bits;
    uint32_t digests = (in->challenges + per_digest - 1) / per_digest;
    uint64_t digest_index = (uint64_t)k * digests;
    uint64_t high = (uint64_t)k << rand_bits;
    uint64_t limbs[CUZK_FR_LIMBS] = {0};
    for (uint32_t i = 0; i < in->challenges; i++) {
        uint32_t at = i % per_digest;
        if (at == 0) {
            cuzk_fr d;
            cuzk_fr_from_u64(&pre[1], digest_index++);
            pos_hash_optimized(&d, gen, pre);
            cuzk_fr_to_canonical(limbs, &d);
        }
        uint64_t c = 0;
        for (uint32_t b = 0; b < rand_bits; b++) {
            uint32_t bit = at * rand_bits + b;
            c |= ((limbs[bit / 64] >> (bit % 64)) & 1) << b;
        }
        out[i] = c | high;
    }
    return CUZK_OK;
}

cuzk_status cuzk_snap_public_inputs(const cuzk_snap_partition *p, cuzk_fr out[4],
                                    cuzk_error *err)
{
    if (!p || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals public inputs: NULL argument");
    const cuzk_snap_info *in = &p->info;
    uint64_t hsel = cuzk_snap_h_select(in, p->h);
    if (p->k >= in->partitions || !hsel)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "SnapDeals public inputs: k = %u or h = %u out of range", p->k, p->h);
    cuzk_fr_from_u64(&out[0], (uint64_t)p->k | hsel << in->partition_bits);
    if (cuzk_fr_from_bytes_le(&out[1], p->comm_r_old) ||
        cuzk_fr_from_bytes_le(&out[2], p->comm_d_new) ||
        cuzk_fr_from_bytes_le(&out[3], p->comm_r_new))
        return cuzk_error_set(err, CUZK_ERR_NONCANONICAL,
                              "SnapDeals public inputs: a commitment is not canonical");
    return CUZK_OK;
}
