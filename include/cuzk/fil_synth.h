/*
 * cuzk/fil_synth.h — BENCHMARK DATA: one Fallback PoSt partition (cuzk/post.h) or one
 * SnapDeals partition (cuzk/snap.h) of any supported sector size, of the exact shape its
 * circuit takes (sector and challenge counts, every path's levels and arities, canonical
 * values), filled with pseudo-random values of a seed. For `cuzk bench synth`: the witness
 * backends do the same work whatever the values (Poseidon and SHA-256 rounds, bit
 * decompositions, selections), so witness time, memory and the compact witness's bit
 * fraction are those of a real partition, at 32 GiB too (no tree is built).
 *
 * NOT consistent, unlike cuzk/c1_synth.h: paths do not hash to their roots, comm_r is not
 * H(comm_c, comm_r_last), the leaves are not the derived challenges. So the witness does
 * not satisfy the circuit, and cuzk_post_partition_check / cuzk_snap_partition_check (which
 * the job parsers run) refuse these partitions: they can never reach a proof. Consistent
 * data at test sizes: cuzk/vanilla_synth.h (the tests' tests/support/vanilla_fixture.c).
 *
 * Threading: pure (no global state); the results are owned by the caller.
 */
#ifndef CUZK_FIL_SYNTH_H
#define CUZK_FIL_SYNTH_H

#include <stdint.h>

#include "cuzk/post.h"
#include "cuzk/snap.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Partition 0 of `kind` (Winning V1, Window V1_2) for sector_size, full: info.sectors
 * sector proofs (ids increasing). Passes cuzk_post_partition_check_shape. Release with
 * cuzk_post_synth_free. Errors: INVALID_ARG (NULL), UNSUPPORTED (size), NOMEM. */
cuzk_status cuzk_post_synth(cuzk_post_kind kind, uint64_t sector_size, uint64_t seed,
                            cuzk_post_partition *out, cuzk_error *err);
void cuzk_post_synth_free(cuzk_post_partition *p); /* zeroed after; NULL: no-op */

/* Partition 0 of the main-variant SnapDeals proof for sector_size, default h. Passes
 * cuzk_snap_partition_check_shape. Release with cuzk_snap_synth_free. Errors: as above. */
cuzk_status cuzk_snap_synth(uint64_t sector_size, uint64_t seed, cuzk_snap_partition *out,
                            cuzk_error *err);
void cuzk_snap_synth_free(cuzk_snap_partition *p); /* zeroed after; NULL: no-op */

#ifdef __cplusplus
}
#endif

#endif
