/*
 * post_fixture.h — consistent Fallback PoSt vanilla proofs made here (no sealer needed):
 * per sector a sparse tree R (the challenged leaves random, every other node of a level
 * equal to that level's default: a random leaf hashed up), comm_c random and
 * comm_r = Poseidon-2(comm_c, comm_r_last); the challenges are derived from the randomness
 * exactly as the verifier derives them, so any sector size works (32 GiB paths cost only
 * their 10 levels). Plus the job JSON of cuzk/post.h, as filecoin-proofs' serde derive
 * writes FallbackPoStSectorProof.
 * Single-threaded (tests only); random values from test_rng.
 */
#ifndef CUZK_TEST_POST_FIXTURE_H
#define CUZK_TEST_POST_FIXTURE_H

#include "cuzk/post.h"

typedef struct pf_set {
    cuzk_post_info info;
    uint8_t randomness[32];
    uint32_t k;
    uint32_t n;
    cuzk_post_sector_proof *sectors;
} pf_set;

/* n sector proofs (ids first_id, first_id + 3, ...) of partition k; randomness random
 * with its top two bits cleared. Returns 0, or -1 on failure. */
int pf_make(pf_set *out, const cuzk_post_info *info, uint32_t k, uint32_t n, uint64_t first_id);
void pf_free(pf_set *s);

static inline cuzk_post_partition pf_partition(const pf_set *s)
{
    cuzk_post_partition p = {s->info, s->k, s->n, s->sectors};
    return p;
}

/* The job document (malloc'd, NUL-terminated); bincode != 0 writes each vanilla proof as
 * a base64 string of its bincode bytes instead of a JSON object, and bincode > 1 appends
 * bincode - 1 zero bytes to the first one (a malformed input). */
char *pf_job_json(const pf_set *s, int bincode);

#endif
