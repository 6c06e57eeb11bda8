/*
 * porep_internal.h — the StackedDRG (PoRep C2) circuit's pieces inside the circuits layer:
 * the labeling gadget (rust-fil-proofs storage-proofs-porep stacked/circuit/create_label.rs),
 * the column hash (hash.rs), the bit helpers they share, and the circuit object that
 * cuzk/porep.h exposes as an opaque handle.
 *
 * Threading: gadgets run on the caller's cuzk_cs (one thread); a cuzk_porep_circuit is
 * immutable once made and may be synthesized by several threads at once.
 */
#ifndef CUZK_CIRCUITS_POREP_INTERNAL_H
#define CUZK_CIRCUITS_POREP_INTERNAL_H

#include "circuits/gadgets/merkle.h"
#include "cuzk/c1.h"
#include "cuzk/porep.h"

#define POREP_LABEL_PARENTS 37u /* TOTAL_PARENTS: the parent list repeated to 37 entries */
#define POREP_NODE_BITS 256u    /* one 32-byte node as a byte stream of bits */

/* reverse_bit_numbering(num.to_bits_le()): 255 allocated bits of the value (LSB first,
 * to_bits_le's 255 allocations and its one row), a constant false as bit 255, then the
 * bits reversed inside each byte: the node's 32-byte little-endian encoding as a bit
 * stream, most significant bit of each byte first, which is how SHA-256 reads it. */
void porep_num_to_stream_bits(cuzk_cs *cs, const gad_num *num, gad_bool out[POREP_NODE_BITS]);

/* create_label_circuit: SHA-256 over replica_id (256 stream bits) || layer (u32, big
 * endian, constant) || node (node_le: a UInt64's 64 bits LSB first, hashed big endian)
 * || zero padding to 64 bytes || 37 parents (256 stream bits each) = 1,248 bytes, 20
 * compressions; the digest's bits reversed inside each byte and the first 254 packed
 * (pack_bits): the digest read little endian with its top two bits cleared, which is the
 * native label (Sha256Domain::trim_to_fr32). No rows of its own besides SHA-256's and the
 * pack; the inputs' allocations are the caller's. */
gad_num porep_create_label(cuzk_cs *cs, const gad_bool replica_id[POREP_NODE_BITS],
                           uint32_t layer, const gad_bool node_le[64],
                           const gad_bool *const parents[POREP_LABEL_PARENTS]);

/* hash_single_column: neptune Poseidon with the Merkle-tree constants over the column's
 * layer values (arity 2 for 2 layers: 311 rows, 11 for 11 layers: 598 rows). Another
 * layer count fails the cs with CUZK_ERR_INTERNAL. */
gad_num porep_column_hash(cuzk_cs *cs, const gad_num *rows, unsigned layers);

/* The circuit handle of cuzk/porep.h. c1 == NULL: the placeholder circuit (no values). */
struct cuzk_porep_circuit {
    cuzk_porep_shape shape;
    const cuzk_c1_output *c1;
    unsigned partition;
};

/* The checks cuzk_porep_circuit_make and cuzk_porep_public_inputs share: c1 and its proofs
 * present, the sector size's shape into *s, the partition in range, the C1's challenges
 * per partition and layers equal to the shape's; with paths, every path of the partition
 * has the trees' shape and comm_r_last / comm_c agree across its challenges. */
cuzk_status porep_check_c1(const cuzk_c1_output *c1, unsigned partition, cuzk_porep_shape *s,
                           bool paths, cuzk_error *err);

#endif
