/*
 * r1cs_cache_hash.c — see r1cs_cache_hash.h. Four independent accumulators per 32-byte
 * stripe keep four multiplies in flight (~10 GB/s a core), which is what lets a full check
 * of a multi-GB cache stay near memory speed; the 1 MiB chunks are the parallel grain.
 * Threading: reentrant; no global state.
 */
#include "formats/r1cs_cache_hash.h"

#include <stdlib.h>
#include <string.h>

/* odd 64-bit constants with well-mixed bits (the xxh64 primes) */
#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full
#define P3 0x165667B19E3779F9ull
#define CHUNK ((uint64_t)1 << 20)

static inline uint64_t rotl(uint64_t x, int r) { return x << r | x >> (64 - r); }

/* the murmur3 finalizer: every input bit reaches every output bit */
static inline uint64_t fmix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

static inline uint64_t lane(uint64_t acc, uint64_t w) { return rotl(acc + w * P2, 31) * P1; }

uint64_t r1cs_cache_hash(const void *vp, uint64_t n, uint64_t seed)
{
    const uint8_t *p = vp;
    uint64_t a[4] = {seed + P1 + P2, seed + P2, seed, seed - P1};
    uint64_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int l = 0; l < 4; l++) {
            uint64_t w;
            memcpy(&w, p + i + 8 * l, 8);
            a[l] = lane(a[l], w);
        }
    uint8_t tail[32] = {0};
    if (n > i)
        memcpy(tail, p + i, n - i);
    for (int l = 0; l < 4; l++) {
        uint64_t w;
        memcpy(&w, tail + 8 * l, 8);
        a[l] = lane(a[l], w);
    }
    uint64_t h = rotl(a[0], 1) + rotl(a[1], 7) + rotl(a[2], 12) + rotl(a[3], 18);
    return fmix(h ^ n * P3);
}

typedef struct sum_ctx {
    const uint8_t *p;
    uint64_t n;
    uint64_t *out;
} sum_ctx;

static void chunks(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    sum_ctx *x = vctx;
    for (size_t c = begin; c < end; c++) {
        uint64_t at = (uint64_t)c * CHUNK, len = x->n - at < CHUNK ? x->n - at : CHUNK;
        x->out[c] = r1cs_cache_hash(x->p + at, len, (uint64_t)c);
    }
}

cuzk_status r1cs_cache_checksum(const void *p, uint64_t n, uint64_t seed, cuzk_pool *pool,
                                uint64_t *sum, cuzk_error *err)
{
    uint64_t nc = (n + CHUNK - 1) / CHUNK;
    uint64_t *h = malloc((nc ? nc : 1) * sizeof *h);
    if (!h)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "csr cache: out of memory for checksums");
    sum_ctx x = {p, n, h};
    (void)cuzk_pool_for(pool, nc, chunks, &x, 1);
    uint64_t s = fmix(seed ^ n * P3);
    for (uint64_t c = 0; c < nc; c++)
        s = fmix(s ^ h[c]) + P1;
    free(h);
    *sum = s;
    return CUZK_OK;
}
