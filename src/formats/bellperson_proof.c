/*
 * bellperson_proof.c — Groth16 proofs as bellperson writes them (A | B | C compressed,
 * 192 bytes; partition proofs concatenated) and public inputs as 32-byte LE scalars.
 * Proof points are decoded with the fully checking decoders: a proof is untrusted input.
 * Threading: pure functions of their input.
 */
#include <string.h>

#include "cuzk/formats.h"

#define G1C CUZK_G1_COMPRESSED_BYTES
#define G2C CUZK_G2_COMPRESSED_BYTES

void cuzk_groth16_proof_to_bellperson(uint8_t out[CUZK_GROTH16_PROOF_BYTES],
                                      const cuzk_groth16_proof *proof)
{
    cuzk_g1_affine_to_zcash_compressed(out, &proof->a);
    cuzk_g2_affine_to_zcash_compressed(out + G1C, &proof->b);
    cuzk_g1_affine_to_zcash_compressed(out + G1C + G2C, &proof->c);
}

/* base: offset of this proof in a concatenation, for messages. A point at infinity is
 * refused, as bellperson's Proof::read does: a valid proof never has one. */
static cuzk_status proof_at(cuzk_groth16_proof *p, const uint8_t *in, size_t base, size_t k,
                            cuzk_error *err)
{
    cuzk_error e;
    cuzk_error_clear(&e);
    cuzk_status st = cuzk_g1_affine_from_zcash_compressed(&p->a, in, G1C, &e);
    if (st == CUZK_OK && cuzk_g1_affine_is_infinity(&p->a))
        st = cuzk_error_set(&e, CUZK_ERR_FORMAT, "point at infinity");
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "proof %zu: A at offset %zu: %s", k, base, e.msg);
    st = cuzk_g2_affine_from_zcash_compressed(&p->b, in + G1C, G2C, &e);
    if (st == CUZK_OK && cuzk_g2_affine_is_infinity(&p->b))
        st = cuzk_error_set(&e, CUZK_ERR_FORMAT, "point at infinity");
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "proof %zu: B at offset %zu: %s", k, base + G1C, e.msg);
    st = cuzk_g1_affine_from_zcash_compressed(&p->c, in + G1C + G2C, G1C, &e);
    if (st == CUZK_OK && cuzk_g1_affine_is_infinity(&p->c))
        st = cuzk_error_set(&e, CUZK_ERR_FORMAT, "point at infinity");
    if (st != CUZK_OK)
        return cuzk_error_set(err, st, "proof %zu: C at offset %zu: %s", k, base + G1C + G2C,
                              e.msg);
    return CUZK_OK;
}

cuzk_status cuzk_groth16_proof_from_bellperson(cuzk_groth16_proof *proof, const uint8_t *in,
                                               size_t len, cuzk_error *err)
{
    return cuzk_groth16_proofs_from_bellperson(proof, 1, in, len, err);
}

void cuzk_groth16_proofs_to_bellperson(uint8_t *out, const cuzk_groth16_proof *proofs,
                                       size_t n)
{
    for (size_t k = 0; k < n; k++)
        cuzk_groth16_proof_to_bellperson(out + k * CUZK_GROTH16_PROOF_BYTES, &proofs[k]);
}

cuzk_status cuzk_groth16_proofs_from_bellperson(cuzk_groth16_proof *proofs, size_t n,
                                                const uint8_t *in, size_t len, cuzk_error *err)
{
    if ((!proofs && n) || (!in && len))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "proof reader: NULL argument");
    if (n > SIZE_MAX / CUZK_GROTH16_PROOF_BYTES || len != n * CUZK_GROTH16_PROOF_BYTES)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "proof bytes: %zu bytes for %zu proofs (need %zu x %u)", len, n, n,
                              CUZK_GROTH16_PROOF_BYTES);
    for (size_t k = 0; k < n; k++) {
        cuzk_groth16_proof p;
        size_t base = k * CUZK_GROTH16_PROOF_BYTES;
        cuzk_status st = proof_at(&p, in + base, base, k, err);
        if (st != CUZK_OK)
            return st;
        proofs[k] = p;
    }
    return CUZK_OK;
}

void cuzk_frs_to_bellperson(uint8_t *out, const cuzk_fr *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cuzk_fr_to_bytes_le(out + i * CUZK_FR_BYTES, &in[i]);
}

cuzk_status cuzk_frs_from_bellperson(cuzk_fr *out, size_t n, const uint8_t *in, size_t len,
                                     cuzk_error *err)
{
    if ((!out && n) || (!in && len))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "public inputs: NULL argument");
    if (n > SIZE_MAX / CUZK_FR_BYTES || len != n * CUZK_FR_BYTES)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "public inputs: %zu bytes for %zu scalars (need 32 each)", len, n);
    for (size_t i = 0; i < n; i++) {
        cuzk_status st = cuzk_fr_from_bytes_le(&out[i], in + i * CUZK_FR_BYTES);
        if (st != CUZK_OK)
            return cuzk_error_set(err, st, "public input %zu at offset %zu is not below r", i,
                                  i * CUZK_FR_BYTES);
    }
    return CUZK_OK;
}
