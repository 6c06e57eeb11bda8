/*
 * r1cs_cache_hash.h — the CSR cache's checksum (cuzk/r1cs_cache.h): a 64-bit, 4-lane
 * multiply-rotate hash of 1 MiB chunks, the chunk hashes folded in order so the value does
 * not depend on the thread count. Catches torn writes and bit flips; not cryptographic.
 * Threading: reentrant; r1cs_cache_checksum splits chunks over the pool.
 */
#ifndef CUZK_FORMATS_R1CS_CACHE_HASH_H
#define CUZK_FORMATS_R1CS_CACHE_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/pool.h"
#include "cuzk/status.h"

/* Hash of n bytes (any n, any alignment) under seed. */
uint64_t r1cs_cache_hash(const void *p, uint64_t n, uint64_t seed);

/* The checksum of a section of n bytes: chunk hashes (chunk i seeded by i) folded under
 * seed. Allocates the chunk hashes (CUZK_ERR_NOMEM). */
cuzk_status r1cs_cache_checksum(const void *p, uint64_t n, uint64_t seed, cuzk_pool *pool,
                                uint64_t *sum, cuzk_error *err);

#endif
