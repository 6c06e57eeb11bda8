/*
 * cuzk/c1_synth.h — TEST DATA: a generator of consistent PoRep C1 outputs (cuzk/c1.h) for
 * any supported sector size, for benchmarks and tests. Not a sealer: nothing here encodes
 * a real sector, and a proof made from it proves nothing about any data.
 *
 * What it builds (filecoin.md §5: the circuit never checks that parents follow the DRG
 * graph, so consistency is all it needs): challenges as the interactive verifier derives
 * them from replica_id and seed (all distinct: the seed is redrawn otherwise); per
 * challenge 6 DRG + 8 expander parents drawn at random among the unchallenged nodes;
 * every unchallenged node's data and layer labels are pseudo-random functions of (seed,
 * node, layer); each challenged node's labels are SHA-256 of its parents as the labeling
 * proof defines them, its replica node = last label + data. Trees D (SHA-256, binary),
 * R and C (Poseidon-8 base, plus the 8 / 2 sub and top levels of 32 / 64 GiB) are sparse:
 * only the paths of the touched leaves are hashed, every untouched node takes a
 * pseudo-random value of (seed, tree, level, position) — any value is consistent, since
 * no path opens it. comm_r = Poseidon-2(comm_c, comm_r_last). So cuzk_c1_check and
 * cuzk_c1_check_challenges accept the result, and 32 GiB takes milliseconds.
 *
 * info.partitions is the number of partitions generated (<= the registered proof's), so
 * a benchmark can build one partition of a 32 GiB sector.
 *
 * Threading: pure (no global state); the result is immutable like a parsed C1 output.
 */
#ifndef CUZK_C1_SYNTH_H
#define CUZK_C1_SYNTH_H

#include <stdint.h>

#include "cuzk/c1.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A C1 output of the V1_1 proof of sector_size with `partitions` partitions (1 .. the
 * proof's), reproducible from seed. Release with cuzk_c1_synth_free (not cuzk_c1_free).
 * Errors: INVALID_ARG (NULL, partitions out of range), UNSUPPORTED (sector size; or built
 * without OpenSSL), NOMEM. */
cuzk_status cuzk_c1_synth(uint64_t sector_size, unsigned partitions, uint64_t seed,
                          cuzk_c1_output **out, cuzk_error *err);
void cuzk_c1_synth_free(cuzk_c1_output *c1); /* NULL: no-op */

#ifdef __cplusplus
}
#endif

#endif
