/*
 * cuzk/param_digest.h — Filecoin parameter files checked against their parameters.json
 * digests (filecoin layer, src/filecoin/param_digest.c), the .vk beside a .params checked
 * against the .params' own verifying key, and Filecoin's PoRep parameter file names
 * (src/filecoin/fil_param_names.c).
 *
 * parameters.json is the manifest rust-fil-proofs ships (filecoin-proof-params) and
 * paramfetch writes into the parameter directory: an object keyed by file name
 * ("v28-stacked-proof-of-replication-...-<hash>.params" and ".vk"), each value
 * {"cid": "Qm...", "digest": "<32 hex>", "sector_size": N}. The digest is the first 16
 * bytes of the BLAKE2b-512 of the whole file, lower-case hex — rust-fil-proofs'
 * get_digest_for_file_within_cache (blake2b_simd's default 64-byte output, hex cut to 32
 * characters) and go-paramfetch's checkFile (blake2b.New512, hex of sum[:16]) agree.
 *
 * The manifest of a file is parameters.json in the file's own directory. A 32 GiB PoRep
 * .params is 47 GiB and BLAKE2b is sequential (one core, see docs/perf.md for the rate),
 * so each digest is computed once and remembered, keyed by the file's device, inode, size,
 * mtime and ctime (ctime moves on every write and on every utimes, so a file rewritten
 * in place under a forged mtime still misses):
 *   - on disk, in a sidecar beside the file, ".<name>.cuzk-digest" (one text line: that key
 *     and the full 128-hex digest), written to a temporary and renamed into place. On disk
 *     because the CLI is one process per proof (seal-commit per sector) and must not pay a
 *     minute of hashing each time; beside the file because the key names that file system's
 *     inode, and the rename is atomic only within one directory;
 *   - in memory, for the process (a small table under a mutex), so a parameter directory
 *     that is read-only (a shared mount) costs one hash per process, not one per load;
 *     the result says when the sidecar could not be written.
 * The cache stores the file's actual digest, never a verdict: a new parameters.json is
 * judged against it afresh.
 *
 * Threading: reentrant; the in-memory table is guarded by its own mutex.
 */
#ifndef CUZK_PARAM_DIGEST_H
#define CUZK_PARAM_DIGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_PARAM_MANIFEST "parameters.json"
#define CUZK_PARAM_DIGEST_HEX 32 /* characters of a manifest digest */

typedef enum cuzk_param_verdict {
    CUZK_PARAM_MATCHED = 0,      /* hashed now; equal to the manifest's digest */
    CUZK_PARAM_MATCHED_CACHED,   /* equal; the digest came from the cache (file unchanged) */
    CUZK_PARAM_NO_MANIFEST,      /* no parameters.json beside the file: NOT checked */
    CUZK_PARAM_UNCHECKABLE,      /* a manifest, but this build cannot read it or hash
                                  * (no jansson or no OpenSSL): NOT checked; see reason */
    CUZK_PARAM_NOT_HASHED,       /* CUZK_PARAM_CACHED_ONLY and no digest remembered for the
                                  * file as it is: NOT checked yet (the manifest has an
                                  * entry for it) */
} cuzk_param_verdict;

typedef struct cuzk_param_check {
    cuzk_param_verdict verdict;
    char expected[CUZK_PARAM_DIGEST_HEX + 1]; /* the manifest's digest ("" without one) */
    char actual[CUZK_PARAM_DIGEST_HEX + 1];   /* the file's ("" when not computed) */
    uint64_t bytes_hashed;                    /* 0 when cached or not checked */
    double seconds;                           /* time spent hashing */
    bool cache_written;  /* MATCHED: the sidecar was written (false: directory read-only) */
    char reason[160];    /* NO_MANIFEST / UNCHECKABLE: why, for the log */
} cuzk_param_check;

/* flags of cuzk_param_file_check */
#define CUZK_PARAM_NO_CACHE 1u /* hash the file even when a cached digest exists */
#define CUZK_PARAM_NO_MEMO 2u  /* skip the in-process table (the sidecar is still read) */
#define CUZK_PARAM_CACHED_ONLY 4u /* judge only a remembered digest (a stat); without one
                                   * return CUZK_OK, verdict CUZK_PARAM_NOT_HASHED */

/* Checks the file at path against its entry (its base name) in the parameters.json of its
 * directory; out (optional) says what was done. Errors, each naming the file:
 *   FORMAT     the digest differs ("<name>: digest <actual>, parameters.json expects
 *              <expected>: ..." — the base name first, as Filecoin's names are long);
 *              or parameters.json is not the manifest described above
 *   NOT_FOUND  parameters.json has no entry for the file's name (an unknown or renamed
 *              file is not loaded unchecked while a manifest says what belongs here)
 *   IO         the file (or the manifest) cannot be read
 *   INVALID_ARG NULL path */
cuzk_status cuzk_param_file_check(const char *path, unsigned flags, cuzk_param_check *out,
                                  cuzk_error *err);

/* The same check on a thread of its own, for a file whose bytes need not be pinned before
 * it is used (the engine's policy: kind_fil_load.c): done(ctx, status, check, error) runs
 * once on that thread when the check ends — CUZK_ERR_CANCELLED when joined with stop
 * before the end (the hash looks at the flag between 4 MiB reads). The digest is
 * remembered as cuzk_param_file_check remembers it, so a mismatch found here is found
 * again by a later CUZK_PARAM_CACHED_ONLY check. join waits for the thread (stop: asks it
 * to end first) and frees the handle; every started check must be joined. */
typedef struct cuzk_param_bgcheck cuzk_param_bgcheck;
typedef void (*cuzk_param_done_fn)(void *ctx, cuzk_status st, const cuzk_param_check *pc,
                                   const cuzk_error *err);
cuzk_status cuzk_param_file_check_start(const char *path, unsigned flags,
                                        cuzk_param_done_fn done, void *ctx,
                                        cuzk_param_bgcheck **out, cuzk_error *err);
bool cuzk_param_file_check_finished(const cuzk_param_bgcheck *b); /* done has returned */
void cuzk_param_file_check_join(cuzk_param_bgcheck *b, bool stop);

/* BLAKE2b-512 of the whole file, streamed (lower-case hex, 128 characters + NUL), and the
 * byte count. UNSUPPORTED without OpenSSL; IO. No cache: this is the measurement. */
cuzk_status cuzk_param_file_blake2b(const char *path, char hex[129], uint64_t *bytes,
                                    cuzk_error *err);

/* The .vk beside a .params must be the .params' verifying key: bellperson writes the vk
 * block (the fixed 864 bytes, n_ic, n_ic G1 points) first in the .params and alone in the
 * .vk, so the .vk must equal that prefix of the .params byte for byte. params/params_len:
 * the .params bytes (mapped); vk_path: the .vk. Errors: FORMAT (the bytes differ, or the
 * .params' vk block is cut short), IO. */
cuzk_status cuzk_param_vk_matches(const uint8_t *params, size_t params_len, const char *params_name,
                                  const char *vk_path, cuzk_error *err);

/* A proving key written as Filecoin ships it (src/filecoin/param_write.c): dir/<base>.params
 * (bellperson format, streamed: written once, never held as bytes), dir/<base>.vk, and
 * their entries in dir/parameters.json ({"cid", "digest": first 32 hex of the file's
 * BLAKE2b-512, "sector_size"}; other entries kept). The digest is taken over the bytes as
 * they are written, so the file is not read back. "cid" is NOT an IPFS CID (cuzk does not
 * build UnixFS DAGs; no reader checks it): it says the key is a dev key. Each file goes
 * through a temporary in dir, flushed (fdatasync) and renamed: a failure leaves the old
 * files. Errors: IO, FORMAT (an existing parameters.json that is not an object),
 * UNSUPPORTED (a build without OpenSSL or jansson; a non-BELLPERSON key), INVALID_ARG.
 * Threading: points encoded over pool; hashing and writing on the calling thread. */
typedef struct cuzk_param_written {
    char params_digest[CUZK_PARAM_DIGEST_HEX + 1], vk_digest[CUZK_PARAM_DIGEST_HEX + 1];
    uint64_t params_bytes, vk_bytes;
} cuzk_param_written;
struct cuzk_groth16_pk;
struct cuzk_pool;
cuzk_status cuzk_param_files_write(const struct cuzk_groth16_pk *pk, const char *dir,
                                   const char *base, uint64_t sector_size,
                                   struct cuzk_pool *pool, cuzk_param_written *out,
                                   cuzk_error *err);

/* "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-<hash>":
 * the base name (no extension) of Filecoin's PoRep .params / .vk for a sector size (every
 * PoRep variant of one size shares it); NULL for an unsupported size. */
const char *cuzk_porep_param_base(uint64_t sector_size);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_PARAM_DIGEST_H */
