/*
 * fil_hash.c — Filecoin's hasher circuits over field elements (filecoin-hashers
 * hash_multi_leaf_circuit): SHA-256 of the leaves' little-endian encodings, truncated to
 * 254 bits, and Poseidon with the Merkle-tree constants. See merkle.h.
 *
 * Threading: as the cuzk_cs.
 */
#include <stdlib.h>

#include "circuits/gadgets/merkle.h"
#include "circuits/poseidon.h"

/* bits[i*8 .. i*8+8) reversed in place: LE field bits <-> the byte stream MSB first
 * (rust-fil-proofs' reverse_bit_numbering on whole bytes). */
static void reverse_in_bytes(gad_bool *bits, size_t n)
{
    for (size_t at = 0; at + 8 <= n; at += 8)
        for (unsigned i = 0; i < 4; i++) {
            gad_bool x = bits[at + i];
            bits[at + i] = bits[at + 7 - i];
            bits[at + 7 - i] = x;
        }
}

static gad_num sha256_leaves(cuzk_cs *cs, const gad_num *leaves, unsigned n)
{
    gad_num out = {0, CUZK_FR_ZERO};
    gad_bool *bits = malloc((size_t)n * 256 * sizeof *bits);
    if (!bits) {
        cs_fail(cs, CUZK_ERR_NOMEM, "circuit: out of memory");
        return out;
    }
    for (unsigned k = 0; k < n; k++) {
        gad_bool *b = bits + (size_t)k * 256;
        gad_num_to_bits_le(cs, &leaves[k], b);
        b[255] = gb_const(false);
        reverse_in_bytes(b, 256);
    }
    gad_bool digest[256];
    gad_sha256(cs, bits, (size_t)n * 256, digest);
    free(bits);
    reverse_in_bytes(digest, 256);
    return gad_pack_bits(cs, digest, GAD_FR_CAPACITY);
}

gad_num gad_hash_leaves(cuzk_cs *cs, gad_hasher h, const gad_num *leaves, unsigned n)
{
    if (h == GAD_HASH_SHA256)
        return sha256_leaves(cs, leaves, n);
    const pos_params *p = pos_params_get(n);
    if (!p) {
        gad_num none = {0, CUZK_FR_ZERO};
        cs_fail(cs, CUZK_ERR_INTERNAL, "poseidon: arity %u unsupported", n);
        return none;
    }
    return gad_poseidon_hash(cs, p, leaves);
}
