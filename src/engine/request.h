/*
 * request.h — the engine's own copy of a job request (every buffer owned, paths made
 * absolute, each input file held open from submit) and its byte encoding, which is what
 * the journal spools to disk.
 *
 * Files: an input given by path is opened once, when the request is accepted (cuzkd: as
 * its client, and handed over as a descriptor), its identity recorded, and read through
 * that descriptor only (ereq_input_map), so a path swapped afterwards (a symlink to a file
 * the client may not read) reaches nothing. A request read back from the journal after a
 * restart has no descriptors: its paths are opened again without following a final
 * symlink, and the file must be the one recorded (device, inode, size, times).
 *
 * Threading: an ereq is immutable once built (ereq_strip and ereq_close_files excepted:
 * only when nothing reads it); any thread may read it and map its files.
 */
#ifndef CUZK_ENGINE_REQUEST_H
#define CUZK_ENGINE_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "formats/formats_export.h"

typedef struct ebuf {
    uint8_t *data; /* NULL when len == 0 */
    size_t len;
} ebuf;

/* What a path named when the request was accepted: the file's identity and version.
 * Zero when the input was not a path (or the record predates identities). */
typedef struct efile_id {
    uint64_t dev, ino, size;
    int64_t mtime_ns, ctime_ns;
} efile_id;

typedef struct ereq {
    char request_id[CUZK_REQUEST_ID_MAX + 1];
    cuzk_proof_kind kind;
    cuzk_priority priority;
    uint64_t sector_size, registered_proof, sector_number, miner_id;
    uint32_t partition_index;
    ebuf vanilla_proof;
    ebuf *vanilla_proofs;
    size_t n_vanilla_proofs;
    ebuf randomness, comm_r_old, comm_r_new, comm_d_new;
    char *zkey_path, *params_path, *r1cs_path, *wtns_path; /* absolute, or NULL */
    efile_id zkey_id, params_id, r1cs_id, wtns_id; /* the files those paths named */
    int fd[4]; /* by ereq_input: the open files, -1 where none (no path, read back from the
                  journal, or closed at the job's end) */
    ebuf zkey, params, r1cs, wtns;
    uint32_t log2n, partitions;
    uint64_t seed;
    /* The payload (vanilla proofs, key/circuit/witness bytes) was dropped once the job
     * ended FAILED or CANCELLED (ereq_strip): it can be reported, not proved again. */
    bool stripped;
} ereq;

/* The GROTH16 inputs that can be files, the index of ereq.fd. */
typedef enum ereq_input { EREQ_ZKEY, EREQ_PARAMS, EREQ_R1CS, EREQ_WTNS } ereq_input;

/* Copies r. Without r->groth16.has_fds, paths are resolved with realpath and must name
 * regular files the daemon can open, and are opened here; with it, the given descriptors
 * are duplicated (the paths must be absolute) and must be regular files (CUZK_ERR_INVALID_ARG
 * naming the input otherwise: a FIFO, a device, a directory, an unreadable file). Each
 * file's identity is taken from its descriptor. Fixed-size fields are checked (randomness
 * and commitments 32 bytes or empty, request_id length). Kind-specific checks are the
 * kind's plan. */
cuzk_status ereq_from_request(ereq **out, const cuzk_job_request *r, cuzk_error *err);
void ereq_free(ereq *q); /* NULL is a no-op; closes the files */

/* Maps input in of q, given by path: through the descriptor held since submit, else (a
 * request from the journal) by opening the path with O_NOFOLLOW. Either way the file must
 * still be the one recorded at submit (device, inode, size and modification time, where
 * an identity was recorded):
 * CUZK_ERR_IO "changed since the job was submitted" otherwise. CUZK_ERR_INVALID_ARG when
 * the input has no path. Release with mapped_file_close. */
cuzk_status ereq_input_map(const ereq *q, ereq_input in, mapped_file *mf, cuzk_error *err);

/* Closes the files q holds (its job has ended and no partition reads them); the paths and
 * identities stay. Only when nothing reads q. */
void ereq_close_files(ereq *q);

/* Whether a and b ask for the same proof: the same kind and every input the same (the
 * Filecoin fields, every byte buffer, each path with the identity of the file it named:
 * device, inode, size, modification and change times), so one's result is the other's.
 * The request_id and the priority are not inputs. Exact comparison, no digest: the
 * requests are kept whole while their results are served. */
bool ereq_same(const ereq *a, const ereq *b);

/* Total bytes of the request's inline buffers (what a journal spool holds). */
size_t ereq_payload_bytes(const ereq *q);

/* Frees the payload counted by ereq_payload_bytes, closes the files, and marks q stripped (a failed or
 * cancelled job is never proved again from its request, so its bytes have no use). Only
 * when nothing reads q any more. ereq_stripped_view: the same without freeing, a shallow
 * copy for encoding (its buffers point into q; never ereq_free it). */
void ereq_strip(ereq *q);
ereq ereq_stripped_view(const ereq *q);

/* Encoding: "CZRQ" u32 version, then (u16 tag, u64 len, bytes) fields, little-endian,
 * ending with the END tag; a path's file identity follows as its own field (records
 * written before identities existed decode with zero identities). *out is malloc'd.
 * Decode checks every length against the buffer. */
cuzk_status ereq_encode(const ereq *q, uint8_t **out, size_t *len, cuzk_error *err);
cuzk_status ereq_decode(ereq **out, const uint8_t *data, size_t len, cuzk_error *err);

#endif
