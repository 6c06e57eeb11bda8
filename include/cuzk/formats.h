/*
 * cuzk/formats.h — readers (and later writers) for the files cuzk exchanges with other
 * provers: snarkjs/circom .r1cs and .wtns today; bellperson .params/.vk, proof bytes,
 * snarkjs .zkey and C1 output JSON each get their own section below.
 *
 * Conventions for every reader
 *   - An in-memory form (const uint8_t *data, size_t len) that never reads outside the
 *     buffer, whatever its contents (fuzz targets call it directly), and a file form
 *     (path) that maps the file read-only and calls the in-memory form.
 *   - Bad data is an error, never an abort: each failure returns its own cuzk_status
 *     (CUZK_ERR_TRUNCATED, _FORMAT, _LENGTH, _NONCANONICAL, _UNSUPPORTED for a valid file
 *     of another curve or version, _IO for the file itself) with a message that names the
 *     byte offset (absolute, from the start of the file) where the problem was found.
 *   - Allocation is bounded by the input: no count read from a file is trusted to size a
 *     buffer before the bytes it implies are known to be present.
 *
 * Threading: readers are pure functions of their input; no global state.
 */
#ifndef CUZK_FORMATS_H
#define CUZK_FORMATS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/ff.h"
#include "cuzk/r1cs.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* =======================================================================================
 * snarkjs / circom .r1cs (iden3 binfile, magic "r1cs", version 1)
 *
 *   section 1 header:      u32 n8, prime[n8], u32 nWires, u32 nPubOut, u32 nPubIn,
 *                          u32 nPrvIn, u64 nLabels, u32 nConstraints
 *   section 2 constraints: nConstraints x (LC A, LC B, LC C); LC = u32 nTerms, then
 *                          nTerms x (u32 wireId, coeff[n8] little-endian, standard form)
 *   section 3 wire->label: nWires x u64
 *   sections 4, 5:         PLONK custom gates; rejected (CUZK_ERR_UNSUPPORTED)
 *   Other section ids are ignored; sections may appear in any order.
 *
 * Requirements beyond the layout: the prime is BLS12-381's r (n8 = 32), else
 * CUZK_ERR_UNSUPPORTED "wrong curve: field prime is 0x..."; 1 + nPubOut + nPubIn + nPrvIn
 * <= nWires; every wireId < nWires; coefficients < r; sections 1, 2 and 3 present exactly
 * once (3 is required because its size, 8 * nWires, is what bounds the variable count by
 * the file size); section sizes exact.
 *
 * Variable order. circom numbers wires [ONE, outputs, public inputs, private inputs,
 * internal signals], and snarkjs's public signals are outputs then public inputs. That is
 * already cuzk's (ONE, public, aux) order with
 *     n_public = nPubOut + nPubIn,   n_aux = nWires - 1 - n_public,
 * so wire k is variable k, and a .wtns witness (same wire order) is directly a dense
 * cuzk_witness for the resulting cuzk_r1cs.
 * ======================================================================================= */
typedef struct cuzk_snarkjs_r1cs_header {
    uint32_t n_wires;
    uint32_t n_pub_out;
    uint32_t n_pub_in;
    uint32_t n_prv_in;
    uint64_t n_labels;
    uint32_t n_constraints;
} cuzk_snarkjs_r1cs_header;

/* Parses a whole .r1cs into a new cuzk_r1cs (*out, release with cuzk_r1cs_destroy).
 * header (optional) receives the file's header fields. */
cuzk_status cuzk_r1cs_from_snarkjs(cuzk_r1cs **out, cuzk_snarkjs_r1cs_header *header,
                                   const uint8_t *data, size_t len, cuzk_error *err);
cuzk_status cuzk_r1cs_load_snarkjs(cuzk_r1cs **out, cuzk_snarkjs_r1cs_header *header,
                                   const char *path, cuzk_error *err);

/* =======================================================================================
 * snarkjs .wtns (iden3 binfile, magic "wtns", version 2)
 *
 *   section 1 header: u32 n8, prime[n8], u32 nWitness
 *   section 2 values: nWitness x value[n8], little-endian, standard form
 *
 * The prime must be BLS12-381's r (n8 = 32); every value < r. Values come back in
 * Montgomery form in wire order, value 0 being ONE (not checked here: cuzk_r1cs_check
 * does).
 * ======================================================================================= */

/* Validates the container and header and returns nWitness (the values section is checked
 * to hold exactly nWitness * 32 bytes, so nWitness <= len / 32). */
cuzk_status cuzk_snarkjs_wtns_count(const uint8_t *data, size_t len, uint32_t *n_witness,
                                    cuzk_error *err);

/* Decodes all values into out, which has room for n values; n must equal nWitness
 * (CUZK_ERR_LENGTH otherwise). */
cuzk_status cuzk_frs_from_snarkjs_wtns(cuzk_fr *out, size_t n, const uint8_t *data, size_t len,
                                       cuzk_error *err);

/* Reads a .wtns file into a new array (*out, release with free()) of *n values. */
cuzk_status cuzk_frs_load_snarkjs_wtns(cuzk_fr **out, uint32_t *n, const char *path,
                                       cuzk_error *err);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_FORMATS_H */
