/*
 * snap_fixture.h — consistent SnapDeals vanilla proofs made here (no sealer needed): random
 * old replica and new data leaves, full trees R-old, D-new (SHA-256 pairs; the poseidon
 * variant: tree R's shape and hash) and R-new with new = old + data * rho(high bits), comm_c
 * random, comm_r = Poseidon-2(comm_c, root); every partition's challenges derived from
 * comm_r_new as the verifier does and their three paths, its apex leaves from tree D. Full
 * trees keep it to small sectors (up to 2^16 nodes: the rust test sizes and 2 KiB).
 * Plus the job JSON of cuzk/snap.h as storage-proofs-update's serde derive writes it.
 * Single-threaded (tests only); random values from test_rng; SHA-256 from OpenSSL.
 */
#ifndef CUZK_TEST_SNAP_FIXTURE_H
#define CUZK_TEST_SNAP_FIXTURE_H

#include <string.h>

#include "cuzk/snap.h"

typedef struct sf_set {
    cuzk_snap_info info;
    uint32_t h;
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
    uint32_t n;                       /* info.partitions */
    cuzk_snap_partition_proof *parts;
} sf_set;

/* Every partition of a sector of info's shape with the default h. 0, or -1 on failure. */
int sf_make(sf_set *out, const cuzk_snap_info *info);
void sf_free(sf_set *s);

/* Partition k, as cuzk_snap_job_partition takes it from a parsed job. */
static inline cuzk_snap_partition sf_partition(const sf_set *s, uint32_t k)
{
    cuzk_snap_job job = {.info = s->info, .h = s->h, .n_partitions = s->n, .partitions = s->parts};
    memcpy(job.comm_r_old, s->comm_r_old, 32);
    memcpy(job.comm_r_new, s->comm_r_new, 32);
    memcpy(job.comm_d_new, s->comm_d_new, 32);
    return cuzk_snap_job_partition(&job, k);
}

/* The job document (malloc'd, NUL-terminated); bincode != 0 writes each partition proof
 * as base64 of its bincode bytes, and bincode > 1 appends bincode - 1 zero bytes to the
 * first one (a malformed input). */
char *sf_job_json(const sf_set *s, int bincode);

#endif
