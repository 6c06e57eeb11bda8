/*
 * vanilla_fixture.h — the tests' side of the generated PoSt and SnapDeals jobs
 * (cuzk/vanilla_synth.h, the library module the CLI's gen-vanilla ships): jobs seeded from
 * test_rng (so CUZK_TEST_SEED replays them), and their job documents as strings
 * (cuzk_post_job_write / cuzk_snap_job_write), optionally with a malformed first vanilla
 * proof. Single-threaded (tests only).
 */
#ifndef CUZK_TEST_VANILLA_FIXTURE_H
#define CUZK_TEST_VANILLA_FIXTURE_H

#include <stdint.h>

#include "cuzk/post.h"
#include "cuzk/snap.h"

/* n sector proofs of partition k of the proof `in` describes (in->sectors may be cut down
 * to a custom circuit shape), ids first_id, first_id + 3, ...; NULL on failure. Release
 * with cuzk_post_job_free. */
cuzk_post_job *vf_post(const cuzk_post_info *in, uint32_t k, uint32_t n, uint64_t first_id);
/* Every partition of a sector of in's shape (any of the 11 sizes, either variant), the
 * default h; NULL on failure. Release with cuzk_snap_job_free. */
cuzk_snap_job *vf_snap(const cuzk_snap_info *in);

/* The job document (malloc'd, NUL-terminated, no trailing newline); bincode != 0 writes
 * each vanilla proof as a base64 string of its bincode bytes, and bincode > 1 appends
 * bincode - 1 zero bytes to the first one's (a malformed input). NULL on failure. */
char *vf_post_doc(const cuzk_post_job *j, int bincode);
char *vf_snap_doc(const cuzk_snap_job *j, int bincode);

#endif
