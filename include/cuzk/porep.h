/*
 * cuzk/porep.h — the PoRep C2 circuit (rust-fil-proofs StackedCircuit, StackedDRG) for one
 * partition, on the constraint-system backends of cuzk/circuits.h, and the public inputs a
 * verifier checks its proof against.
 *
 * The circuit reproduces bellperson/rust-fil-proofs exactly (allocation order, input order,
 * row order), so Filecoin's parameters prove and verify it:
 *   replica_id alloc + inputize + to_bits_le; comm_d alloc + inputize; comm_r alloc +
 *   inputize; comm_r_last, comm_c alloc; comm_r = Poseidon-2(comm_c, comm_r_last);
 *   then per challenge: data leaf + tree D path (SHA-256, binary); per DRG parent (6) then
 *   expander parent (8): column values, column hash, tree C path; the challenge as a UInt64
 *   packed into an input; per layer the label (SHA-256 over replica_id, layer, node and 37
 *   parents); encoded = last label + data leaf and its tree R path; the column hash of the
 *   labels and its tree C path.
 * Public inputs (cuzk_porep_public_inputs), ONE excluded: replica_id, comm_d, comm_r, then
 * per challenge: the challenge (tree D path), the 6 DRG and 8 expander parents' nodes,
 * the challenge (UInt64), the challenge (tree R path), the challenge (tree C path):
 * 3 + 18 * challenges values (39 for 2 KiB..512 MiB, 327 for 32/64 GiB).
 *
 * Values come from a parsed C1 output (cuzk/c1.h). The circuit does not re-check the C1
 * data (cuzk_c1_check does that first, with messages); an inconsistent C1 output gives an
 * unsatisfied constraint system. What the circuit itself needs is checked when it is made:
 * the partition exists, the shape (layers, challenges per partition, tree heights and
 * arities) is the one the sector size fixes, every path has that shape.
 *
 * The placeholder circuit (cuzk_porep_circuit_placeholder) has the same shape for any
 * supported sector size and no values: it runs on the counting and recording backends
 * (the witness backend refuses it). Counting a 32 GiB partition stores nothing per row.
 *
 * Threading: a cuzk_porep_circuit is immutable once made; any number of threads may run it
 * at once (each on its own backend). cuzk_porep_witness_* run on a caller's pool. It borrows the C1 output, which must outlive it.
 */
#ifndef CUZK_POREP_H
#define CUZK_POREP_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/c1_types.h"
#include "cuzk/circuits.h"
#include "cuzk/ff.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a sector size fixes in the circuit (every PoRep variant of a size has the same
 * circuit: NI-PoRep and synthetic PoRep change only the partition count). */
typedef struct cuzk_porep_shape {
    uint64_t sector_size;     /* bytes */
    uint64_t nodes;           /* sector_size / 32 */
    uint32_t layers;          /* 2 or 11 */
    uint32_t challenges;      /* per partition: 2 or 18 */
    uint32_t tree_d_levels;   /* binary SHA-256 tree D */
    uint32_t base_arity;      /* trees R and C: 8 */
    uint32_t base_levels;     /* levels of each base tree */
    uint32_t sub_arity;       /* 0 or 8 */
    uint32_t top_arity;       /* 0 or 2 */
} cuzk_porep_shape;

/* The shape of a sector size: 2 KiB, 8 MiB, 512 MiB, 32 GiB or 64 GiB.
 * Errors: INVALID_ARG (NULL), UNSUPPORTED (another size). */
cuzk_status cuzk_porep_shape_for_size(uint64_t sector_size, cuzk_porep_shape *out,
                                      cuzk_error *err);

/* Public inputs per partition, ONE excluded: 3 + 18 * challenges. */
static inline size_t cuzk_porep_public_input_count(const cuzk_porep_shape *s)
{
    return 3 + (size_t)18 * s->challenges;
}

typedef struct cuzk_porep_circuit cuzk_porep_circuit;

/* The circuit of partition `partition` of c1 (borrowed). Errors (message says what and
 * where): INVALID_ARG (NULL; partition >= the C1's partitions), UNSUPPORTED (sector size),
 * LENGTH (challenges per partition, layer count, a path's height or arity other than the
 * sector size's circuit has), FORMAT (a path position outside its level), NOMEM. */
cuzk_status cuzk_porep_circuit_make(const cuzk_c1_output *c1, unsigned partition,
                                    cuzk_porep_circuit **out, cuzk_error *err);

/* The circuit of a sector size without values (counting and recording only). Errors:
 * INVALID_ARG, UNSUPPORTED, NOMEM. */
cuzk_status cuzk_porep_circuit_placeholder(uint64_t sector_size, cuzk_porep_circuit **out,
                                           cuzk_error *err);

void cuzk_porep_circuit_free(cuzk_porep_circuit *c); /* NULL: no-op */

const cuzk_porep_shape *cuzk_porep_circuit_shape(const cuzk_porep_circuit *c);

/* The circuit function (cuzk_circuit_fn) with ctx = a cuzk_porep_circuit, e.g.
 * cuzk_circuit_count(cuzk_porep_circuit_synthesize, circuit, &counts, &err). On the
 * witness backend a placeholder circuit fails with INVALID_ARG. */
cuzk_status cuzk_porep_circuit_synthesize(cuzk_cs *cs, const void *circuit, cuzk_error *err);

/* The partition's witness, fast: the same assignment as cuzk_circuit_witness_dense /
 * _compact(cuzk_porep_circuit_synthesize, c, ...) bit for bit, with the challenges' segments
 * spread over pool's threads (NULL: the calling thread). This is the PoRep witness entry
 * point (the prover's); the generic runners stay the single-threaded reference. Results
 * as those runners' (malloc'd; release with free / cuzk_compact_assignment_free).
 * Errors: INVALID_ARG (NULL; a placeholder circuit), NOMEM, the pool's. */
cuzk_status cuzk_porep_witness_dense(const cuzk_porep_circuit *c, cuzk_pool *pool,
                                     cuzk_fr **values, uint32_t *n_vars, cuzk_error *err);
cuzk_status cuzk_porep_witness_compact(const cuzk_porep_circuit *c, cuzk_pool *pool,
                                       cuzk_compact_assignment *out, cuzk_error *err);

/* The partition's constraint system, fast: what cuzk_circuit_record(
 * cuzk_porep_circuit_synthesize, placeholder, ...) records, row for row and bit for bit
 * (CSR and witness map), with the challenges' segments recorded on pool's threads (NULL:
 * the calling thread). One challenge's segments are counted first (every challenge has
 * the same counts), so each segment is recorded already numbered as in the sequential run:
 * data, parents and node first, then the labels (they read the parents' columns and the
 * node), then the tails (they read the data and the labels). The recording peak is
 * about twice the recorded terms at 40 bytes each. Results as cuzk_circuit_record's.
 * Errors: INVALID_ARG, UNSUPPORTED (sector size), NOMEM, INTERNAL, the pool's. */
cuzk_status cuzk_porep_record(uint64_t sector_size, cuzk_pool *pool, cuzk_r1cs **r1cs,
                              cuzk_witness_map *map, cuzk_error *err);

/* The public inputs of partition `partition` (Montgomery Fr, ONE excluded) into out[n],
 * n = cuzk_porep_public_input_count: from comm_d, comm_r, replica_id, each challenge's node
 * (labeling_proofs[0].node) and its parents' column indices. Errors: INVALID_ARG (NULL,
 * partition out of range, n wrong), UNSUPPORTED (sector size), LENGTH (challenge count),
 * NONCANONICAL (a commitment >= r). */
cuzk_status cuzk_porep_public_inputs(const cuzk_c1_output *c1, unsigned partition,
                                     cuzk_fr *out, size_t n, cuzk_error *err);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_POREP_H */
