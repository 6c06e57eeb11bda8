/*
 * kind_fil_witness.c — a Filecoin partition's witness (kind_fil.h): in compact form (the
 * bits the recorded circuit marks as a bitmap, the rest dense), checked to fit the key's
 * recorded circuit before it is proved, since the partition's witness and the key's
 * circuit come from different runs (a witness backend now, the recorder or a CSR cache
 * earlier); a mismatch is an internal error, never a proof of the wrong circuit.
 * Threading: reentrant.
 */
#include <string.h>

#include "engine/kind_fil.h"
#include "engine/sizes.h"

/* Takes ownership of ca (a partition's compact witness) once it fits the key's circuit. */
cuzk_status engine_fil_witness_adopt(const srs_key *key, cuzk_compact_assignment *ca,
                                     esynth *out, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    if (!key->r1cs || !key->wmap)
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL, "Filecoin key has no recorded circuit");
    else if (ca->n_vars != key->r1cs->n_vars || ca->n_bits != key->wmap->n_bits)
        st = cuzk_error_set(err, CUZK_ERR_INTERNAL,
                            "the partition's witness (%u variables, %u bits) does not fit the "
                            "recorded circuit (%u, %u)",
                            ca->n_vars, ca->n_bits, key->r1cs->n_vars, key->wmap->n_bits);
    if (st != CUZK_OK) {
        cuzk_compact_assignment_free(ca);
        return st;
    }
    out->ca = *ca;
    out->w = cuzk_witness_compact(key->wmap, ca->bits, ca->dense);
    out->bytes = engine_compact_witness_bytes(ca->n_vars, ca->n_bits);
    memset(ca, 0, sizeof *ca);
    return CUZK_OK;
}

/* The witness of one partition in compact form, by the circuit's generic witness backend,
 * checked against the key's circuit. */
cuzk_status engine_fil_witness(const srs_key *key, cuzk_circuit_fn fn, const void *ctx,
                               esynth *out, cuzk_error *err)
{
    cuzk_compact_assignment ca = {0};
    cuzk_status st = cuzk_circuit_witness_compact(fn, ctx, &ca, err);
    if (st != CUZK_OK) {
        cuzk_compact_assignment_free(&ca);
        return st;
    }
    return engine_fil_witness_adopt(key, &ca, out, err);
}
