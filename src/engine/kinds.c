/*
 * kinds.c — the registry of job kinds (kind.h, struct ekind): by proof kind and by circuit
 * id, the kinds' names and metric slots, and what every kind shares: freeing a
 * synthesized partition, the rule that the extension kinds (synthetic, Groth16) take
 * no Filecoin proof fields, and the verification of a journaled result's proofs. The kinds themselves: kind_synthetic.c, kind_groth16.c,
 * kind_porep.c, kind_post.c, kind_snap.c (their shared Filecoin code: kind_fil.h).
 * Threading: reentrant; the registry is constant.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/formats.h"
#include "engine/kind.h"
#include "engine/metrics.h"

cuzk_status engine_verify_partitions(const cuzk_groth16_vk *vk, const cuzk_fr *inputs,
                                     size_t stride, const uint8_t *proofs, uint32_t partitions,
                                     cuzk_pool *pool, cuzk_error *err)
{
    cuzk_groth16_pvk pvk;
    if (!vk || vk->n_ic == 0 || cuzk_groth16_pvk_prepare(&pvk, vk) != CUZK_OK)
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "no verifying key to check with");
    size_t n = vk->n_ic - 1;
    size_t ss = cuzk_groth16_verify_scratch_size(&pvk, cuzk_pool_nthreads(pool));
    void *scratch = ss ? malloc(ss) : NULL;
    if (ss && !scratch)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory verifying");
    cuzk_status st = CUZK_OK;
    for (uint32_t p = 0; p < partitions && st == CUZK_OK; p++) {
        cuzk_groth16_proof proof;
        cuzk_error pe = {0};
        st = cuzk_groth16_proof_from_bellperson(&proof, proofs + (size_t)p * CUZK_GROTH16_PROOF_BYTES,
                                                CUZK_GROTH16_PROOF_BYTES, &pe);
        if (st == CUZK_OK)
            st = cuzk_groth16_verify_pool(&pvk, inputs + (size_t)p * stride, n, &proof,
                                          scratch, ss, pool, &pe);
        if (st != CUZK_OK)
            st = cuzk_error_set(err, st == CUZK_ERR_NOMEM ? st : CUZK_ERR_INVALID_PROOF,
                                "partition %u's proof does not verify: %s", p, pe.msg);
    }
    free(scratch);
    return st;
}

void esynth_free(esynth *s)
{
    free(s->w_owned);
    cuzk_compact_assignment_free(&s->ca);
    cuzk_r1cs_destroy(s->r1cs_owned);
    memset(s, 0, sizeof *s);
}

cuzk_status engine_no_filecoin_proof(const ereq *q, const char *what, cuzk_error *err)
{
    if (q->registered_proof || q->sector_size)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "%s job: %s %llu names a Filecoin proof; this kind has none", what,
                              q->registered_proof ? "registered_proof" : "sector_size",
                              (unsigned long long)(q->registered_proof ? q->registered_proof
                                                                       : q->sector_size));
    return CUZK_OK;
}

extern const ekind engine_kind_synthetic;
extern const ekind engine_kind_groth16;
extern const ekind engine_kind_porep;
extern const ekind engine_kind_snap;
extern const ekind engine_kind_window_post;
extern const ekind engine_kind_winning_post;
static const ekind *const k_filecoin[] = {&engine_kind_porep, &engine_kind_snap,
                                          &engine_kind_window_post, &engine_kind_winning_post};

const ekind *engine_kind_find(cuzk_proof_kind k)
{
    if (k == CUZK_PROOF_SYNTHETIC)
        return &engine_kind_synthetic;
    if (k == CUZK_PROOF_GROTH16)
        return &engine_kind_groth16;
    for (size_t i = 0; i < sizeof k_filecoin / sizeof k_filecoin[0]; i++)
        if (k_filecoin[i]->kind == k)
            return k_filecoin[i];
    return NULL;
}

const ekind *engine_kind_for_circuit(const char *id)
{
    if (engine_kind_synthetic.owns_circuit(id))
        return &engine_kind_synthetic;
    if (engine_kind_groth16.owns_circuit(id))
        return &engine_kind_groth16;
    for (size_t i = 0; i < sizeof k_filecoin / sizeof k_filecoin[0]; i++)
        if (k_filecoin[i]->owns_circuit(id))
            return k_filecoin[i];
    return NULL;
}

const char *cuzk_proof_kind_name(cuzk_proof_kind k)
{
    const ekind *kd = engine_kind_find(k);
    return kd ? kd->name : "unknown";
}

unsigned engine_kind_slot(int kind)
{
    if (kind >= 1 && kind <= 4)
        return (unsigned)kind;
    if (kind == CUZK_PROOF_GROTH16)
        return 5;
    if (kind == CUZK_PROOF_SYNTHETIC)
        return 6;
    return 7;
}
