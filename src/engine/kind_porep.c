/*
 * kind_porep.c — the POREP_SEAL_COMMIT job kind (PoRep C2): the request's vanilla_proof is
 * a C1 output (cuzk/c1.h), parsed and checked at submit (Merkle paths, labels, comm_r, and
 * the challenges the verifier derives), so a malformed or inconsistent input is refused
 * with the parser's message before any proving work. The parsed C1 stays with the job
 * (plan.parsed); partition p is the StackedDRG circuit of C1 partition p (cuzk/porep.h),
 * its compact witness laid out by the key's recorded circuit. Proofs are concatenated in
 * partition order by the pipeline. Keys: kind_fil.h ("porep-<size>").
 * Threading: reentrant; the parsed C1 is immutable and read by every synthesis worker.
 */
#include "cuzk/c1.h"
#include "cuzk/porep.h"
#include "engine/kind_fil.h"
#include "engine/state.h"

static cuzk_status porep_plan(const cuzk_engine *e, const ereq *q, ekind_plan *p,
                              cuzk_error *err)
{
    if (!q->vanilla_proof.len)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "PoRep job: vanilla_proof (the C1 output) is required");
    cuzk_c1_output *c1 = NULL;
    cuzk_status st = cuzk_c1_parse((const char *)q->vanilla_proof.data, q->vanilla_proof.len,
                                   &c1, err);
    if (st != CUZK_OK)
        return st;
    if (q->sector_size && q->sector_size != c1->info.sector_size)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                            "PoRep job: sector_size %llu but the C1 output is %s (%llu bytes)",
                            (unsigned long long)q->sector_size, c1->info.name,
                            (unsigned long long)c1->info.sector_size);
    /* Curio sends the sector's abi.RegisteredSealProof; 0 is both StackedDrg2KiBV1 and
     * "not given" (proto3's default, no presence on the wire), so it is taken as not given
     * and the C1's own registered proof rules. Any other number must name exactly the C1's
     * registered proof, version and sector size: the circuit is the size's (every variant
     * of a size proves on it), but the variant sets the partitions and the challenges, so
     * a number that names another version, another size or none is a confused request,
     * never to be proved. */
    cuzk_porep_info rp;
    if (st == CUZK_OK && q->registered_proof &&
        cuzk_porep_info_from_abi(q->registered_proof, &rp, NULL) != CUZK_OK)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                            "PoRep job: registered_proof %llu is no registered seal proof (Go's "
                            "abi.RegisteredSealProof numbers 0-19); the C1 output is %s",
                            (unsigned long long)q->registered_proof, c1->info.name);
    else if (st == CUZK_OK && q->registered_proof && rp.sector_size != c1->info.sector_size)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                            "PoRep job: registered_proof %llu is %s, for %llu-byte sectors, but "
                            "the C1 output is %s (%llu bytes)",
                            (unsigned long long)q->registered_proof, rp.name,
                            (unsigned long long)rp.sector_size, c1->info.name,
                            (unsigned long long)c1->info.sector_size);
    else if (st == CUZK_OK && q->registered_proof && rp.variant != c1->info.variant)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                            "PoRep job: registered_proof %llu is %s, but the C1 output is %s "
                            "(another version of the seal proof)",
                            (unsigned long long)q->registered_proof, rp.name, c1->info.name);
    if (st == CUZK_OK)
        st = cuzk_c1_check_pool(c1, e->pool, err); /* ~2.9 s on one thread at 32 GiB */
    /* synthetic PoRep's ChaCha20 challenge set is not derived here (cuzk/c1.h) */
    if (st == CUZK_OK && c1->info.variant != CUZK_POREP_SYNTHETIC)
        st = cuzk_c1_check_challenges(c1, err);
    if (st == CUZK_OK && !fil_circuit_id(FIL_POREP, c1->info.sector_size, p->circuit_id,
                                         sizeof p->circuit_id))
        st = cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "PoRep job: sector size %llu",
                            (unsigned long long)c1->info.sector_size);
    if (st == CUZK_OK)
        st = fil_key_available(e, p->circuit_id, err);
    if (st != CUZK_OK) {
        cuzk_c1_free(c1);
        return st;
    }
    p->partitions = c1->info.partitions;
    p->key_bytes = fil_key_bytes(e, FIL_POREP, c1->info.sector_size);
    p->partition_bytes = fil_partition_bytes(e, FIL_POREP, c1->info.sector_size);
    p->parsed = c1;
    return CUZK_OK;
}

static void porep_plan_free(ekind_plan *p)
{
    cuzk_c1_free(p->parsed);
    p->parsed = NULL;
}

static cuzk_status porep_synthesize(const cuzk_engine *e, const ereq *q, const ekind_plan *plan,
                                    const srs_key *key, uint32_t part, cuzk_pool *pool,
                                    esynth *out, cuzk_error *err)
{
    (void)e;
    (void)q;
    cuzk_porep_circuit *c = NULL;
    cuzk_status st = cuzk_porep_circuit_make(plan->parsed, part, &c, err);
    if (st == CUZK_OK) {
        /* the parallel witness path (challenge segments over the pool), bit-identical to
         * the generic backend (test_porep_witness) */
        cuzk_compact_assignment ca = {0};
        st = cuzk_porep_witness_compact(c, pool, &ca, err);
        if (st == CUZK_OK)
            st = engine_fil_witness_adopt(key, &ca, out, err);
        else
            cuzk_compact_assignment_free(&ca);
    }
    cuzk_porep_circuit_free(c);
    return st;
}

const ekind engine_kind_porep = {
    .kind = CUZK_PROOF_POREP_SEAL_COMMIT,
    .name = "porep_seal_commit",
    .default_priority = CUZK_PRIORITY_NORMAL,
    .plan = porep_plan,
    .owns_circuit = fil_owns,
    .load_key = fil_load_key,
    .key_file = fil_key_file,
    .key_bytes = fil_key_estimate,
    .key_make_bytes = fil_key_make_bytes,
    .key_available = fil_key_available,
    .synthesize = porep_synthesize,
    .plan_free = porep_plan_free,
    .verify_result = fil_verify_result,
};
