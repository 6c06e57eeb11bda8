/*
 * label.c — the labeling gadget and the column hash of the StackedDRG circuit, laid out as
 * rust-fil-proofs' create_label_circuit and hash_single_column (see porep_internal.h).
 *
 * The label's message is 9,984 bits: replica_id (256) | layer u32 BE (32, constant) |
 * node u64 BE (64) | 160 constant zero bits | 37 x 256 parent bits. SHA-256 pads it with
 * constants to 20 blocks; the compressions see constants wherever the message does, so
 * the layer and zero padding cost no rows.
 *
 * Threading: as the cuzk_cs. The message's gadget bits (160 KiB) are a heap buffer per
 * label, not a stack array, so the circuit runs on small-stack worker threads too.
 */
#include <stdlib.h>
#include <string.h>

#include "circuits/porep/porep_internal.h"

#define LABEL_BITS ((2u + POREP_LABEL_PARENTS) * POREP_NODE_BITS) /* 1,248 bytes */

/* Bits reversed inside each byte (reverse_bit_numbering on whole bytes). */
static void reverse_in_bytes(gad_bool *bits, size_t n)
{
    for (size_t at = 0; at + 8 <= n; at += 8)
        for (unsigned i = 0; i < 4; i++) {
            gad_bool x = bits[at + i];
            bits[at + i] = bits[at + 7 - i];
            bits[at + 7 - i] = x;
        }
}

void porep_num_to_stream_bits(cuzk_cs *cs, const gad_num *num, gad_bool out[POREP_NODE_BITS])
{
    gad_num_to_bits_le(cs, num, out);
    out[POREP_NODE_BITS - 1] = gb_const(false);
    reverse_in_bytes(out, POREP_NODE_BITS);
}

gad_num porep_create_label(cuzk_cs *cs, const gad_bool replica_id[POREP_NODE_BITS],
                           uint32_t layer, const gad_bool node_le[64],
                           const gad_bool *const parents[POREP_LABEL_PARENTS])
{
    gad_bool *msg = malloc(LABEL_BITS * sizeof *msg);
    if (!msg) {
        gad_num none = {0, CUZK_FR_ZERO};
        cs_fail(cs, CUZK_ERR_NOMEM, "circuit: out of memory");
        return none;
    }
    memcpy(msg, replica_id, POREP_NODE_BITS * sizeof *msg);
    gad_u32 l = gad_u32_const(layer);
    gad_u32_into_bits_be(&l, msg + 256);
    for (unsigned i = 0; i < 64; i++)
        msg[288 + i] = node_le[63 - i]; /* UInt64::to_bits_be */
    for (unsigned i = 352; i < 512; i++)
        msg[i] = gb_const(false);
    for (unsigned p = 0; p < POREP_LABEL_PARENTS; p++)
        memcpy(msg + 512 + p * POREP_NODE_BITS, parents[p], POREP_NODE_BITS * sizeof *msg);

    gad_bool digest[256];
    gad_sha256(cs, msg, LABEL_BITS, digest);
    free(msg);
    reverse_in_bytes(digest, 256);
    return gad_pack_bits(cs, digest, GAD_FR_CAPACITY);
}

gad_num porep_column_hash(cuzk_cs *cs, const gad_num *rows, unsigned layers)
{
    if (layers != 2 && layers != 11) {
        gad_num none = {0, CUZK_FR_ZERO};
        cs_fail(cs, CUZK_ERR_INTERNAL, "column hash: %u layers (2 or 11 supported)", layers);
        return none;
    }
    return gad_hash_leaves(cs, GAD_HASH_POSEIDON, rows, layers);
}
