/*
 * request.h — the engine's own copy of a job request (every buffer owned, paths made
 * absolute) and its byte encoding, which is what the journal spools to disk.
 * Threading: an ereq is immutable once built; any thread may read it.
 */
#ifndef CUZK_ENGINE_REQUEST_H
#define CUZK_ENGINE_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"

typedef struct ebuf {
    uint8_t *data; /* NULL when len == 0 */
    size_t len;
} ebuf;

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
    ebuf zkey, params, r1cs, wtns;
    uint32_t log2n, partitions;
    uint64_t seed;
} ereq;

/* Copies r. Paths are resolved with realpath and must name regular files the daemon can
 * open (CUZK_ERR_INVALID_ARG naming the input otherwise: a FIFO, a device, a directory,
 * an unreadable file); fixed-size fields are checked (randomness and commitments 32 bytes
 * or empty, request_id length). Kind-specific checks are the kind's plan. */
cuzk_status ereq_from_request(ereq **out, const cuzk_job_request *r, cuzk_error *err);
void ereq_free(ereq *q); /* NULL is a no-op */

/* Total bytes of the request's inline buffers (what a journal spool holds). */
size_t ereq_payload_bytes(const ereq *q);

/* Encoding: "CZRQ" u32 version, then (u16 tag, u64 len, bytes) fields, little-endian.
 * *out is malloc'd. Decode checks every length against the buffer. */
cuzk_status ereq_encode(const ereq *q, uint8_t **out, size_t *len, cuzk_error *err);
cuzk_status ereq_decode(ereq **out, const uint8_t *data, size_t len, cuzk_error *err);

#endif
