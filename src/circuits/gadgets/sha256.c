/*
 * sha256.c — the SHA-256 gadget as bellpepper's sha256.rs lays it out.
 *
 * One compression (its own MultiEq, flushed at its end):
 *   message schedule i = 16..63: s0 = (w[i-15] rotr 7 ^ rotr 18) ^ shr 3,
 *     s1 = (w[i-2] rotr 17 ^ rotr 19) ^ shr 10, w[i] = addmany(w[i-16], s0, w[i-7], s1);
 *   rounds i = 0..63: e = addmany of the deferred e (not in round 0, where e is the
 *     incoming word), S1 = (e rotr 6 ^ rotr 11) ^ rotr 25, ch(e, f, g), a = addmany of the
 *     deferred a, S0 = (a rotr 2 ^ rotr 13) ^ rotr 22, maj(a, b, c); the next e is deferred
 *     as [h, S1, ch, K_i, w_i, d], the next a as [h, S1, ch, K_i, w_i, S0, maj];
 *   output: h0 = deferred a + H0 (8 operands), h1..h3 = H_k + b/c/d, h4 = deferred e + H4
 *     (7 operands), h5..h7 = H_k + f/g/h.
 * With a constant IV the first rounds fold constants (ch/maj of constants cost nothing);
 * a first block costs 25,840 rows, a constant padding block after it 19,034.
 *
 * Threading: as the cuzk_cs.
 */
#include <string.h>

#include "circuits/gadgets/bits.h"

/* FIPS 180-4 §4.2.2 and §5.3.3 */
static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};
static const uint32_t IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

/* bellpepper's Maybe: a word either known (Concrete) or a pending addmany (Deferred). */
typedef struct maybe {
    bool deferred;
    unsigned n;
    gad_u32 ops[8];
} maybe;

static gad_u32 compute(cuzk_cs *cs, gad_multieq *me, maybe *m, const gad_u32 *extra)
{
    if (!m->deferred)
        return m->ops[0];
    if (extra)
        m->ops[m->n++] = *extra;
    return gad_u32_addmany(cs, me, m->ops, m->n);
}

static gad_u32 xor3(cuzk_cs *cs, const gad_u32 *x, unsigned r1, unsigned r2, unsigned r3,
                    bool shift3)
{
    gad_u32 a = gad_u32_rotr(x, r1), b = gad_u32_rotr(x, r2);
    gad_u32 c = shift3 ? gad_u32_shr(x, r3) : gad_u32_rotr(x, r3);
    gad_u32 t = gad_u32_xor(cs, &a, &b);
    return gad_u32_xor(cs, &t, &c);
}

void gad_sha256_compression(cuzk_cs *cs, const gad_bool in[512], const gad_u32 cur[8],
                            gad_u32 out[8])
{
    gad_u32 w[64];
    for (unsigned i = 0; i < 16; i++)
        w[i] = gad_u32_from_bits_be(in + 32 * i);
    gad_multieq me;
    gad_multieq_init(&me);
    for (unsigned i = 16; i < 64; i++) {
        gad_u32 ops[4];
        ops[1] = xor3(cs, &w[i - 15], 7, 18, 3, true);
        ops[3] = xor3(cs, &w[i - 2], 17, 19, 10, true);
        ops[0] = w[i - 16];
        ops[2] = w[i - 7];
        w[i] = gad_u32_addmany(cs, &me, ops, 4);
    }

    maybe a = {false, 1, {cur[0]}}, e = {false, 1, {cur[4]}};
    gad_u32 b = cur[1], c = cur[2], d = cur[3], f = cur[5], g = cur[6], h = cur[7];
    for (unsigned i = 0; i < 64; i++) {
        gad_u32 new_e = compute(cs, &me, &e, NULL);
        gad_u32 s1 = xor3(cs, &new_e, 6, 11, 25, false);
        gad_u32 ch = gad_u32_sha256_ch(cs, &new_e, &f, &g);
        gad_u32 new_a = compute(cs, &me, &a, NULL);
        gad_u32 s0 = xor3(cs, &new_a, 2, 13, 22, false);
        gad_u32 maj = gad_u32_sha256_maj(cs, &new_a, &b, &c);

        gad_u32 temp1[5] = {h, s1, ch, gad_u32_const(K[i]), w[i]};
        h = g;
        g = f;
        f = new_e;
        e.deferred = true;
        e.n = 6;
        memcpy(e.ops, temp1, sizeof temp1);
        e.ops[5] = d;
        d = c;
        c = b;
        b = new_a;
        a.deferred = true;
        a.n = 7;
        memcpy(a.ops, temp1, sizeof temp1);
        a.ops[5] = s0;
        a.ops[6] = maj;
    }
    gad_u32 pair[2];
    out[0] = compute(cs, &me, &a, &cur[0]);
    const gad_u32 *rest[3] = {&b, &c, &d};
    for (unsigned k = 0; k < 3; k++) {
        pair[0] = cur[1 + k];
        pair[1] = *rest[k];
        out[1 + k] = gad_u32_addmany(cs, &me, pair, 2);
    }
    out[4] = compute(cs, &me, &e, &cur[4]);
    const gad_u32 *rest2[3] = {&f, &g, &h};
    for (unsigned k = 0; k < 3; k++) {
        pair[0] = cur[5 + k];
        pair[1] = *rest2[k];
        out[5 + k] = gad_u32_addmany(cs, &me, pair, 2);
    }
    gad_multieq_finish(cs, &me);
}

static void iv_words(gad_u32 iv[8])
{
    for (unsigned k = 0; k < 8; k++)
        iv[k] = gad_u32_const(IV[k]);
}

static void words_to_bits_be(const gad_u32 h[8], gad_bool out[256])
{
    for (unsigned k = 0; k < 8; k++)
        gad_u32_into_bits_be(&h[k], out + 32 * k);
}

void gad_sha256_block_no_padding(cuzk_cs *cs, const gad_bool in[512], gad_bool out[256])
{
    gad_u32 iv[8], h[8];
    iv_words(iv);
    gad_sha256_compression(cs, in, iv, h);
    words_to_bits_be(h, out);
}

void gad_sha256(cuzk_cs *cs, const gad_bool *in, size_t nbits, gad_bool out[256])
{
    if (nbits % 8) {
        cs_fail(cs, CUZK_ERR_INTERNAL, "sha256 gadget: %zu bits is not whole bytes", nbits);
        nbits -= nbits % 8;
    }
    uint64_t len = nbits;
    size_t blocks = (nbits + 1 + 64 + 511) / 512;
    gad_u32 h[8], next[8];
    gad_bool block[512];
    iv_words(h);
    for (size_t bk = 0; bk < blocks; bk++) {
        for (size_t i = 0; i < 512; i++) {
            size_t p = bk * 512 + i, total = blocks * 512;
            if (p < nbits)
                block[i] = in[p];
            else if (p == nbits)
                block[i] = gb_const(true);
            else if (p < total - 64)
                block[i] = gb_const(false);
            else
                block[i] = gb_const((len >> (total - 1 - p)) & 1);
        }
        gad_sha256_compression(cs, block, h, next);
        memcpy(h, next, sizeof h);
    }
    words_to_bits_be(h, out);
}
