/*
 * cuzk/vanilla_synth.h — TEST DATA: generators of consistent PoSt and SnapDeals jobs
 * (cuzk/post.h, cuzk/snap.h) of any sector size, reproducible from a seed, for end-to-end
 * proving runs, benchmarks and tests. Not a sealer or a prover of storage: nothing here
 * encodes a real sector, and a proof made from a generated job proves nothing about any
 * data. Like cuzk/c1_synth.h for PoRep C1 outputs.
 *
 * The jobs pass every check a prover applies (cuzk_post_partition_check,
 * cuzk_snap_partition_check, which cuzk_post_job_parse / cuzk_snap_job_parse run), so their
 * proofs verify against the public inputs a verifier derives. How, without a whole tree:
 *
 *   PoSt (WindowPoSt: one partition; WinningPoSt: its one sector) — the challenges depend
 *     only on the randomness and the sector ids, so they are derived first, exactly as the
 *     verifier derives them, and each sector's tree R is sparse: the challenged leaves'
 *     paths are hashed up, every other node is a pseudo-random value (no path opens it, so
 *     any value is consistent). comm_c is random and comm_r = Poseidon-2(comm_c,
 *     comm_r_last). A 32 GiB path costs its 10 levels; sectors are spread over the pool.
 *   SnapDeals (every partition) — the challenges are derived from comm_r_new, the root of
 *     the tree the challenged paths open, and each new replica leaf must be old + data * rho
 *     with rho depending on comm_d_new and comm_r_old. So every leaf of the three trees must
 *     be fixed before any challenge is known: the sector is made of 4,096 aligned cells (at
 *     most; single leaves up to 4,096 nodes) whose leaves are equal within a cell (random
 *     old replica and data values per cell; a cell never straddles two rho regions, which
 *     have 2^(challenge_bits - h) nodes and h <= 12), and trees R-old, D-new and R-new are
 *     complete: a cell's subtree is one hash per level, the levels above the cells are
 *     hashed in full. new = old + data * rho then holds at every node of the sector, the
 *     apex leaves are tree D's nodes, and 32 GiB costs ~50,000 Poseidon-8 hashes.
 *
 * Values: every random value is a pseudo-random function of the seed (splitmix64), below
 * 2^254 (canonical); data values have their top two bits clear as sealed pieces do.
 * SHA-256 (challenges, tree D) is OpenSSL's: without it the generators return UNSUPPORTED.
 *
 * Results are cuzk_post_job / cuzk_snap_job, released with cuzk_post_job_free /
 * cuzk_snap_job_free; write them with cuzk_post_job_write_file / cuzk_snap_job_write_file.
 *
 * Threading: pure (no global state); the pool (NULL: the calling thread) is only borrowed.
 */
#ifndef CUZK_VANILLA_SYNTH_H
#define CUZK_VANILLA_SYNTH_H

#include <stdint.h>

#include "cuzk/pool.h"
#include "cuzk/post.h"
#include "cuzk/snap.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_post_synth_opts {
    uint32_t partition_index; /* k (WinningPoSt: 0) */
    uint32_t n_sectors;       /* sector proofs, 1..info.sectors (WinningPoSt: 1); 0: all */
    uint64_t first_sector_id; /* sector ids first, first + step, ... */
    uint64_t sector_id_step;  /* 0: 1 */
} cuzk_post_synth_opts;

/*
 * A PoSt job of the proof `info` describes (cuzk_post_info_get / _from_name; a test may cut
 * info->sectors down to a custom circuit shape): opts->n_sectors sector proofs (NULL opts:
 * a full partition 0, ids 1, 2, ...), randomness, comm_c and every tree value from seed.
 * Errors: INVALID_ARG (NULL, counts, a partition index whose sector ids overflow, an
 * impossible shape), UNSUPPORTED (no OpenSSL), NOMEM. *out is NULL on error.
 */
cuzk_status cuzk_post_job_synth(const cuzk_post_info *info, const cuzk_post_synth_opts *opts,
                                uint64_t seed, cuzk_pool *pool, cuzk_post_job **out,
                                cuzk_error *err);

/*
 * A SnapDeals job of every partition of the proof `info` describes (cuzk_snap_info_get:
 * any of the 11 sizes, either variant; the registered sizes are those the job document
 * names), with h (0: info->h; else one of info->hs). Errors: INVALID_ARG (NULL, h),
 * UNSUPPORTED (no OpenSSL), NOMEM. *out is NULL on error.
 */
cuzk_status cuzk_snap_job_synth(const cuzk_snap_info *info, uint32_t h, uint64_t seed,
                                cuzk_pool *pool, cuzk_snap_job **out, cuzk_error *err);

#ifdef __cplusplus
}
#endif

#endif
