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
    uint32_t n_sections; /* in the container (unknown ids included) */
} cuzk_snarkjs_r1cs_header;

/* Validates everything but the constraint bodies, exactly as the loader does before it
 * reads them: container, version, header (1 + nPubOut + nPubIn + nPrvIn <= nWires), custom
 * gates, the wire->label size, and a constraints section of at least 12 bytes per
 * constraint; then fills *h. Touches only the section table and the header (for
 * `cuzk inspect`). A file it accepts can still fail to load on a bad constraint. */
cuzk_status cuzk_snarkjs_r1cs_header_read(cuzk_snarkjs_r1cs_header *h, const uint8_t *data,
                                          size_t len, cuzk_error *err);

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


/* =======================================================================================
 * bellperson (Filecoin) Groth16 files — src/formats/bellperson_*.c
 *
 * Layout (filecoin.md 1.2-1.5): no header, no padding; counts are u32 big-endian; points
 * are zcash-encoded (G1 96 / G2 192 bytes uncompressed in keys, 48 / 96 compressed in
 * proofs; see cuzk/ec.h).
 *   .vk:      alpha_g1 | beta_g1 | beta_g2 | gamma_g2 | delta_g1 | delta_g2 (864 bytes)
 *             u32 n_ic | n_ic x G1                      (size 868 + 96 n_ic)
 *   .params:  the .vk bytes, then u32 n | n points for h, l, a (G1), b_g1 (G1), b_g2 (G2).
 *   proof:    A (G1 compressed) | B (G2 compressed) | C (G1 compressed) = 192 bytes; a
 *             multi-partition proof is the concatenation of its partition proofs.
 *   public inputs: variables 1..n_public in order (ONE excluded), each 32 bytes
 *             little-endian canonical (blstrs Scalar::to_bytes_le).
 * A .params file yields a CUZK_GROTH16_BELLPERSON key: domain n = n_h + 1 (must be a
 * power of two), append_input_rows = true, and n_b_g1 must equal n_b_g2.
 *
 * Checks. The verifying key (first 6 points and ic) is always fully checked (on curve, in
 * the subgroup). The big vectors follow the trust level. Identity points are rejected
 * everywhere, as bellperson's reader does. Every count is checked against the bytes that
 * remain before anything is allocated. Errors name the byte offset, the vector and the
 * index: CUZK_ERR_TRUNCATED (file ends inside a declared vector), CUZK_ERR_FORMAT
 * (trailing bytes, identity point, inconsistent counts), or the point decoder's status
 * (CUZK_ERR_BAD_FLAGS, _NONCANONICAL, _NOT_ON_CURVE, _NOT_IN_SUBGROUP).
 * Threading: points are decoded in parallel over the given pool (NULL: calling thread).
 * ======================================================================================= */
#include "cuzk/groth16.h"

typedef enum cuzk_params_trust {
    CUZK_PARAMS_CHECKED = 0,          /* h/l/a/b: on curve and in the subgroup */
    CUZK_PARAMS_TRUSTED_ONCURVE = 1,  /* h/l/a/b: on curve only (bellperson checked=false) */
    CUZK_PARAMS_UNCHECKED = 2,        /* h/l/a/b: encoding only (flags, canonical) */
} cuzk_params_trust;

#define CUZK_BELLPERSON_VK_FIXED_BYTES 864u
#define CUZK_GROTH16_PROOF_BYTES 192u

/* Parses a .vk (or the vk prefix of a .params: then consumed != NULL receives the bytes
 * used and trailing bytes are allowed; with consumed == NULL trailing bytes are an error).
 * vk is allocated on success (cuzk_groth16_vk_free). */
cuzk_status cuzk_groth16_vk_from_bellperson(cuzk_groth16_vk *vk, const uint8_t *data,
                                            size_t len, size_t *consumed, cuzk_error *err);
cuzk_status cuzk_groth16_vk_load_bellperson(cuzk_groth16_vk *vk, const char *path,
                                            cuzk_error *err);
size_t cuzk_groth16_vk_bellperson_size(const cuzk_groth16_vk *vk);
/* Writes the .vk bytes; cap must be >= cuzk_groth16_vk_bellperson_size (else LENGTH). */
cuzk_status cuzk_groth16_vk_to_bellperson(uint8_t *out, size_t cap, const cuzk_groth16_vk *vk,
                                          cuzk_error *err);
cuzk_status cuzk_groth16_vk_save_bellperson(const cuzk_groth16_vk *vk, const char *path,
                                            cuzk_error *err);

/* Parses a whole .params into pk (allocated on success; cuzk_groth16_pk_free). */
cuzk_status cuzk_groth16_pk_from_bellperson(cuzk_groth16_pk *pk, const uint8_t *data,
                                            size_t len, cuzk_params_trust trust,
                                            cuzk_pool *pool, cuzk_error *err);
/* Maps path read-only and parses it; the mapping is released before returning. */
cuzk_status cuzk_groth16_pk_load_bellperson(cuzk_groth16_pk *pk, const char *path,
                                            cuzk_params_trust trust, cuzk_pool *pool,
                                            cuzk_error *err);
/* Size and writers of a .params (BELLPERSON keys only: CUZK_ERR_UNSUPPORTED otherwise). */
size_t cuzk_groth16_pk_bellperson_size(const cuzk_groth16_pk *pk);
cuzk_status cuzk_groth16_pk_to_bellperson(uint8_t *out, size_t cap, const cuzk_groth16_pk *pk,
                                          cuzk_error *err);
cuzk_status cuzk_groth16_pk_save_bellperson(const cuzk_groth16_pk *pk, const char *path,
                                            cuzk_error *err);
/* The same bytes as cuzk_groth16_pk_to_bellperson, handed to out in order, at most
 * block bytes of points at a time (0: 64 MiB; at least one G2 point, else INVALID_ARG):
 * for keys too big to hold twice (a 32 GiB PoRep .params is ~47 GB). Points are encoded
 * in parallel over pool (NULL: calling thread); out runs on the calling thread, and its
 * error (anything but CUZK_OK) stops the stream and is returned. */
typedef cuzk_status (*cuzk_bytes_out_fn)(void *ctx, const uint8_t *p, size_t n,
                                         cuzk_error *err);
cuzk_status cuzk_groth16_pk_stream_bellperson(const cuzk_groth16_pk *pk, size_t block,
                                              cuzk_bytes_out_fn out, void *ctx, cuzk_pool *pool,
                                              cuzk_error *err);

/* Proofs: 192 bytes each; readers fully check the points (on curve, subgroup) and refuse
 * the point at infinity in A, B or C (CUZK_ERR_FORMAT), as bellperson's Proof::read does. */
void cuzk_groth16_proof_to_bellperson(uint8_t out[CUZK_GROTH16_PROOF_BYTES],
                                      const cuzk_groth16_proof *proof);
cuzk_status cuzk_groth16_proof_from_bellperson(cuzk_groth16_proof *proof, const uint8_t *in,
                                               size_t len, cuzk_error *err);
/* n partition proofs <-> n x 192 bytes (len must be exactly that). */
void cuzk_groth16_proofs_to_bellperson(uint8_t *out, const cuzk_groth16_proof *proofs,
                                       size_t n);
cuzk_status cuzk_groth16_proofs_from_bellperson(cuzk_groth16_proof *proofs, size_t n,
                                                const uint8_t *in, size_t len,
                                                cuzk_error *err);

/* Public inputs as bellperson passes them: n x 32 bytes LE canonical. */
void cuzk_frs_to_bellperson(uint8_t *out, const cuzk_fr *in, size_t n);
cuzk_status cuzk_frs_from_bellperson(cuzk_fr *out, size_t n, const uint8_t *in, size_t len,
                                     cuzk_error *err);


/* =======================================================================================
 * snarkjs .zkey (Groth16, BLS12-381) — src/formats/snarkjs_zkey.c
 *
 *   iden3 binfile, magic "zkey", version 1. Sections (any order; unknown ids ignored):
 *   1 protocol      u32 (1 = groth16; 2 plonk, 10 fflonk are CUZK_ERR_UNSUPPORTED)
 *   2 header        u32 n8q, q[n8q], u32 n8r, r[n8r], u32 nVars, u32 nPublic,
 *                   u32 domainSize, alpha1, beta1 (G1), beta2, gamma2 (G2), delta1 (G1),
 *                   delta2 (G2)
 *   3 IC            (nPublic + 1) x G1
 *   4 coefficients  u32 nCoef, nCoef x {u32 matrix (0 = A, 1 = B), u32 constraint,
 *                   u32 signal, value[32]}; value = coef * R^2 mod r, R = 2^256 ("double
 *                   Montgomery"), so the plain coefficient is value * R^-2
 *   5 A, 6 B1       nVars x G1       7 B2   nVars x G2
 *   8 C             (nVars - nPublic - 1) x G1      9 H   domainSize x G1
 *   10 contributions (MPC transcript; not read)
 *   Points: affine, each Fp coordinate 48 bytes LE Montgomery, infinity all zero (cuzk/ec.h
 *   *_mont_le).
 *
 * Requirements: q and r are BLS12-381's (else CUZK_ERR_UNSUPPORTED "wrong curve");
 * domainSize a power of two; every section's size exact; every coefficient entry's
 * constraint < domainSize, signal < nVars, matrix 0 or 1, value < r.
 *
 * The key: a CUZK_GROTH16_SNARKJS pk (and its vk) with append_input_rows = false, because
 * section 4 already holds the public-input rows (A-row nConstraints + s = signal s). The
 * vk part (header points, IC) is always fully checked (on curve, subgroup, not infinity:
 * CUZK_ERR_FORMAT, as in the other vk readers); the big vectors
 * (A, B1, B2, C, H) follow the cuzk_params_trust level. The A and B matrices come back as
 * a cuzk_r1cs (*ab): rows = 1 + the largest constraint index in section 4, n_public =
 * nPublic, n_vars = nVars, and c_absent = true: a .zkey has no C matrix (snarkjs proves
 * with c = a*b row by row), so m[C] is empty and the prover takes c = a*b. The r1cs is
 * immutable and may serve any number of concurrent proofs. A witness that does not satisfy
 * the circuit is caught by the prover's final self-check (CUZK_ERR_INVALID_PROOF "the
 * proof does not verify: the witness does not satisfy the circuit"); to name the failing
 * constraint, check the witness against the circuit's .r1cs (cuzk_r1cs_check).
 * Threading: points are decoded over the given pool (NULL: calling thread).
 * ======================================================================================= */
typedef struct cuzk_snarkjs_zkey_header {
    uint32_t protocol;    /* 1 = groth16 */
    uint32_t n_vars;      /* witness length, ONE included */
    uint32_t n_public;    /* outputs + public inputs */
    uint32_t domain_size; /* power of two */
    uint32_t n_coeffs;    /* section 4 entries (A and B, input rows included) */
    uint32_t n_sections;
    bool has_contributions; /* section 10 present */
} cuzk_snarkjs_zkey_header;

/* Reads the protocol, header and section table only (for `cuzk inspect`): touches
 * sections 1, 2 and the first 4 bytes of 4, checks every section size against the
 * header. The header's points are not decoded. */
cuzk_status cuzk_snarkjs_zkey_header_read(cuzk_snarkjs_zkey_header *h, const uint8_t *data,
                                          size_t len, cuzk_error *err);

/* The verifying key alone (sections 1, 2, 3; fully checked). vk is allocated on success. */
cuzk_status cuzk_groth16_vk_from_snarkjs_zkey(cuzk_groth16_vk *vk, const uint8_t *data,
                                              size_t len, cuzk_error *err);

/* The whole key: pk (allocated on success; cuzk_groth16_pk_free), *ab (the A/B matrices,
 * cuzk_r1cs_destroy), header (optional). progress (optional) is called from the calling
 * thread with (done, total) as the point vectors are decoded. */
typedef void (*cuzk_progress_fn)(void *ctx, uint64_t done, uint64_t total);
cuzk_status cuzk_groth16_pk_from_snarkjs_zkey(cuzk_groth16_pk *pk, cuzk_r1cs **ab,
                                              cuzk_snarkjs_zkey_header *header,
                                              const uint8_t *data, size_t len,
                                              cuzk_params_trust trust, cuzk_pool *pool,
                                              cuzk_progress_fn progress, void *progress_ctx,
                                              cuzk_error *err);
cuzk_status cuzk_groth16_pk_load_snarkjs_zkey(cuzk_groth16_pk *pk, cuzk_r1cs **ab,
                                              cuzk_snarkjs_zkey_header *header,
                                              const char *path, cuzk_params_trust trust,
                                              cuzk_pool *pool, cuzk_progress_fn progress,
                                              void *progress_ctx, cuzk_error *err);

/* =======================================================================================
 * snarkjs JSON: proof.json, public.json, verification_key.json — src/formats/snarkjs_json.c
 *
 *   proof.json  {"pi_a": [x, y, "1"], "pi_b": [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]],
 *                "pi_c": [x, y, "1"], "protocol": "groth16", "curve": "bls12381"}
 *   public.json ["v1", "v2", ...] (outputs, then public inputs; ONE excluded)
 *   verification_key.json {"protocol", "curve", "nPublic", "vk_alpha_1", "vk_beta_2",
 *                "vk_gamma_2", "vk_delta_2", "vk_alphabeta_12", "IC": [...]}
 *   Numbers are decimal strings of canonical integers; points are projective with z = 1
 *   (snarkjs writes affine points that way; the point at infinity is [0, 1, 0], which the
 *   writers produce but the readers refuse, see below).
 *
 * Readers are strict: decimal digits only (no sign, no leading zeros except "0", no
 * exponent), values < the modulus, z must be 1, points on the curve and in the subgroup
 * and never the point at infinity (CUZK_ERR_FORMAT; any other z = 0 form is
 * CUZK_ERR_BAD_INFINITY) in a proof or a verifying key, as bellperson's readers require
 * (a vk with gamma = delta = infinity accepts the forged proof (alpha, beta, anything)
 * for any public input), protocol "groth16" and curve "bls12381" (a bn128 file is
 * CUZK_ERR_UNSUPPORTED "wrong curve"), nPublic == len(IC) - 1. vk_alphabeta_12 is
 * ignored on read and written on write (snarkjs verifiers do not read it either).
 * Readers take a NUL-free buffer (data, len); writers return a malloc'd NUL-terminated
 * string (free()).
 *
 * Built only with jansson (CUZK_HAVE_JANSSON); without it every function here returns
 * CUZK_ERR_UNSUPPORTED "built without JSON support".
 * ======================================================================================= */
cuzk_status cuzk_groth16_proof_from_snarkjs_json(cuzk_groth16_proof *proof,
                                                 const char *data, size_t len,
                                                 cuzk_error *err);
cuzk_status cuzk_groth16_proof_to_snarkjs_json(char **out, const cuzk_groth16_proof *proof,
                                               cuzk_error *err);

/* *out (malloc'd, free()) receives *n Montgomery values. */
cuzk_status cuzk_frs_from_snarkjs_json(cuzk_fr **out, size_t *n, const char *data,
                                       size_t len, cuzk_error *err);
cuzk_status cuzk_frs_to_snarkjs_json(char **out, const cuzk_fr *v, size_t n,
                                     cuzk_error *err);

/* vk is allocated on success (cuzk_groth16_vk_free); beta_g1 and delta_g1 are not in the
 * JSON and are set to infinity (verification does not use them). */
cuzk_status cuzk_groth16_vk_from_snarkjs_json(cuzk_groth16_vk *vk, const char *data,
                                              size_t len, cuzk_error *err);
/* Writes vk_alphabeta_12 = e(alpha, beta) as snarkjs does (one pairing). */
cuzk_status cuzk_groth16_vk_to_snarkjs_json(char **out, const cuzk_groth16_vk *vk,
                                            cuzk_error *err);

/* Reads a whole (small) text file into a malloc'd buffer (+ NUL; *len excludes it) for the
 * JSON readers. CUZK_ERR_IO on failure, CUZK_ERR_LENGTH above max_len bytes. */
cuzk_status cuzk_file_read_text(char **out, size_t *len, const char *path, size_t max_len,
                                cuzk_error *err);
/* Writes len bytes to path (truncating). CUZK_ERR_IO with the path on failure. */
cuzk_status cuzk_file_write(const char *path, const void *data, size_t len, cuzk_error *err);


/* =======================================================================================
 * Development key cache (src/formats/dev_key_cache.c) — NOT Filecoin's trusted setup.
 *
 * cuzk_groth16_dev_key_cached gives a BELLPERSON key for r1cs from the cache file path,
 * making it with cuzk_groth16_setup_dev when nothing there belongs to r1cs. path must end
 * in ".dev.params" (CUZK_ERR_INVALID_ARG otherwise) so the name says what it is. A key is
 * stored in one of two forms:
 *   PARAMS  path itself, a plain bellperson .params (fresh random toxic waste), and beside
 *           it path + ".info", a text note: a banner saying it is a development setup
 *           whose maker knew the toxic waste (NOT Filecoin's trusted setup, proofs convince
 *           nobody else), the r1cs's identity (cuzk_r1cs_shape_digest) and the .params size;
 *   SEED    for keys too large to keep (a 32 GiB PoRep key is ~47 GB as .params):
 *           path + ".seed", a text note with the same banner, saying the key is made again
 *           from the toxic-waste SEED it holds at every load (so whoever reads it can forge
 *           proofs for the key), the r1cs's identity, the .params size, the SHA-256 of the
 *           verifying key and a SHA-256 of the note's own lines; and path + ".vk", the
 *           bellperson verifying key (what `cuzk verify-seal --dev-key-dir` reads). A load
 *           runs cuzk_groth16_setup_dev_ex with the seed: seconds with a GPU hook, minutes
 *           on CPUs alone at 32 GiB.
 * The form of a new key: opts->store; AUTO (the default) stores SEED when the .params would
 * exceed opts->seed_above bytes (0: the environment's CUZK_DEV_KEY_SEED_ABOVE, BYTES with
 * an optional K/M/G/T suffix, else 4 GiB), PARAMS otherwise. Making a key of one form
 * removes the other form's files at path.
 *
 * Load: a PARAMS pair is taken only when the note is byte-for-byte the one this r1cs and
 * the file's size give, the file parses (points on the curve: CUZK_PARAMS_TRUSTED_ONCURVE;
 * no subgroup checks, the file is our own) and cuzk_groth16_pk_check_circuit accepts it;
 * else a SEED note is taken only when it is intact (its check line) and names this r1cs,
 * and the key made from its seed must have the verifying key it records (if not, another
 * setup version made it: the files are rewritten for the new key and *made says so; a
 * missing or damaged .vk is rewritten). Anything else (missing, other circuit, truncated,
 * corrupt, a damaged seed) makes a new key, written all-or-nothing through cuzk/outfiles.h
 * (temporaries, fsync, rename; the note is renamed last, so it is the commit mark). Two
 * processes filling the same cache at once each write a complete valid pair. A setup that
 * fails (a GPU error) is an error, never a silent switch to another key.
 *
 * pk (and vk, may be NULL) are allocated on success; *made (may be NULL) says whether the
 * key is new (made now, or remade from a seed into another key). opts->setup (the
 * fixed-base hook, e.g. the GPU's, and the logger for per-phase times) is passed to the
 * setup; opts NULL: AUTO, CPU, silent. A cancel (opts->setup->cancel) is seen after the
 * digest, throughout the setup and before any file is begun: CUZK_ERR_CANCELLED, no file
 * left behind. Errors: INVALID_ARG (also a malformed CUZK_DEV_KEY_SEED_ABOVE), those of
 * the setup, CANCELLED, IO (cannot write the cache, without opts->save_err; nothing is
 * left behind), UNSUPPORTED without OpenSSL (the digest is SHA-256).
 * Threading: setup, digest and decoding run on pool (NULL: the calling thread).
 * ======================================================================================= */
#define CUZK_DEV_KEY_SUFFIX ".dev.params"
#define CUZK_DEV_KEY_NOTE_SUFFIX ".info"
#define CUZK_DEV_KEY_SEED_SUFFIX ".seed"
#define CUZK_DEV_KEY_VK_SUFFIX ".vk"

typedef enum cuzk_dev_key_store {
    CUZK_DEV_KEY_STORE_AUTO = 0,   /* SEED above seed_above bytes of .params, else PARAMS */
    CUZK_DEV_KEY_STORE_PARAMS = 1,
    CUZK_DEV_KEY_STORE_SEED = 2,
} cuzk_dev_key_store;

typedef struct cuzk_dev_key_opts {
    cuzk_dev_key_store store;
    uint64_t seed_above;                  /* AUTO's threshold (0: see above) */
    const cuzk_groth16_setup_opts *setup; /* NULL: CPU pool, no log, no cancel */
    /* NULL: a key made here whose files cannot be written fails the call (IO). Else such a
     * key is returned anyway (CUZK_OK, *made true) and *save_err says why it is not on
     * disk (code CUZK_OK when nothing failed): the caller never has to make it twice. */
    cuzk_error *save_err;
} cuzk_dev_key_opts;

cuzk_status cuzk_groth16_dev_key_cached(cuzk_groth16_pk *pk, cuzk_groth16_vk *vk,
                                        const cuzk_r1cs *r1cs, const char *path,
                                        cuzk_pool *pool, bool *made, cuzk_error *err);
cuzk_status cuzk_groth16_dev_key_cached_ex(cuzk_groth16_pk *pk, cuzk_groth16_vk *vk,
                                           const cuzk_r1cs *r1cs, const char *path,
                                           cuzk_pool *pool, const cuzk_dev_key_opts *opts,
                                           bool *made, cuzk_error *err);
/* The r1cs's identity the notes record (hex, NUL-terminated): v2, a SHA-256 tree over its
 * shape (sizes, every CSR row pointer, column and coefficient; 64 MiB leaves hashed in
 * parallel on pool, NULL: the calling thread). The same for a recorded r1cs and the
 * mapped CSR cache written from it. */
cuzk_status cuzk_r1cs_shape_digest(char hex[65], const cuzk_r1cs *r1cs, cuzk_error *err);
cuzk_status cuzk_r1cs_shape_digest_pool(char hex[65], const cuzk_r1cs *r1cs, cuzk_pool *pool,
                                        cuzk_error *err);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_FORMATS_H */
