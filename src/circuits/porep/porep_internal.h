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
#include "cuzk/c1_types.h"
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

#define POREP_PARENTS 14u   /* 6 DRG + 8 expander parents per challenge */
#define POREP_MAX_LAYERS 11u

/* What every challenge reads from the partition's common part (values, and variables for
 * the rows): set by porep_preamble, read-only afterwards. */
typedef struct porep_ctx {
    const cuzk_porep_shape *s;
    gad_merkle_shape tree_d, tree_rc;
    gad_num comm_d, comm_c, comm_r_last;
    gad_bool replica_id[POREP_NODE_BITS];
} porep_ctx;

/* One challenge's values that later segments read: what the data, parent and node
 * segments allocate and what the label segments compute. */
typedef struct porep_chal {
    gad_num data;
    gad_num cols[POREP_PARENTS][POREP_MAX_LAYERS];
    gad_bool node[64];
    gad_num labels[POREP_MAX_LAYERS];
} porep_chal;

/* A challenge's sub-circuit (Proof::synthesize) in allocation order, as segments:
 *   DATA        data leaf + tree D path
 *   PARENT0+j   parent j's column (layers values), its hash, tree C path (j < 14)
 *   NODE        the challenge as 64 bits, packed into an input
 *   LABEL1+l-1  layer l's parent stream bits (6 or 14 x 255 bits) and label (SHA-256)
 *   TAIL        encoding + tree R path, the labels' column hash + tree C path
 * Each segment's allocation counts are fixed by the shape. A LABEL segment reads ch's
 * cols and node, TAIL reads data and labels; so with those values known up front
 * (porep_chal_prefill) every segment but TAIL can be run independently, for a witness. */
enum {
    POREP_SEG_DATA = 0,
    POREP_SEG_PARENT0 = 1,
    POREP_SEG_NODE = 1 + POREP_PARENTS,
    POREP_SEG_LABEL1 = 2 + POREP_PARENTS,
};
static inline unsigned porep_segments(const cuzk_porep_shape *s)
{
    return POREP_SEG_LABEL1 + s->layers + 1;
}
static inline bool porep_segment_is_tail(const cuzk_porep_shape *s, unsigned seg)
{
    return seg == POREP_SEG_LABEL1 + s->layers;
}

struct cuzk_porep_circuit;

/* The partition's common part (replica_id, comm_d, comm_r inputs; comm_r_last, comm_c;
 * comm_r = Poseidon-2(comm_c, comm_r_last)) into *x; *proofs = the partition's challenge
 * proofs when cs computes values (else NULL). Error INTERNAL for a bad layer count. */
cuzk_status porep_preamble(cuzk_cs *cs, const struct cuzk_porep_circuit *c, porep_ctx *x,
                           const cuzk_c1_challenge_proof **proofs, cuzk_error *err);
/* Runs segment seg of the challenge whose proof is p (NULL: no values) on cs. pbits:
 * POREP_PARENTS x 256 scratch Booleans. */
void porep_segment(cuzk_cs *cs, const porep_ctx *x, porep_chal *ch,
                   const cuzk_c1_challenge_proof *p, unsigned seg,
                   gad_bool (*pbits)[POREP_NODE_BITS]);
/* ch's data, cols and node values from p (variables left 0: only for the witness). */
void porep_chal_prefill(porep_chal *ch, const porep_ctx *x, const cuzk_c1_challenge_proof *p);

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
