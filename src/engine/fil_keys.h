/*
 * fil_keys.h — the keys of the Filecoin job kinds (kind_porep.c, kind_post.c, kind_snap.c):
 * circuit ids, Filecoin's .params file names, recording the circuit once per (kind, sector
 * size), the dev key used when the user has no Filecoin parameters, and the partition witness
 * helpers the kinds share. Internal to src/engine.
 * Threading: reentrant; loading runs on the given pool.
 */
#ifndef CUZK_ENGINE_FIL_KEYS_H
#define CUZK_ENGINE_FIL_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/plan.h"
#include "engine/kind.h"

typedef enum fil_circuit {
    FIL_POREP = 0,   /* StackedDRG partition (every PoRep variant of a size) */
    FIL_WPOST = 1,   /* Fallback PoSt, WindowPoSt shape */
    FIL_WINNING = 2, /* Fallback PoSt, WinningPoSt shape */
    FIL_SNAP = 3,    /* SnapDeals (EmptySectorUpdate, main variant) partition */
} fil_circuit;

/* "porep-2k", "wpost-32g", "winning-64g", "snap-32g", ... Returns false for an unsupported size. */
bool fil_circuit_id(fil_circuit c, uint64_t sector_size, char *out, size_t cap);
/* The inverse; false for anything else. */
bool fil_parse_id(const char *id, fil_circuit *c, uint64_t *sector_size);
bool fil_owns(const char *id);

/* The circuit's exact counts (fil_counts.c, cuzk/plan.h); NULL for an unsupported size. */
const cuzk_fil_counts *fil_counts(fil_circuit c, uint64_t sector_size);
/* log2 of the circuit's NTT domain (rows incl. input rows, rounded up to a power of 2). */
unsigned fil_log2_domain(fil_circuit c, uint64_t sector_size);
/* What admission charges (fil_plan.c, from the exact counts): the decoded key with its
 * recorded circuit (mapped from the CSR cache when e has a cache directory, else as
 * recorded in memory) and witness map; one partition's compact witness, plus, when e
 * has a CPU device, its dense expansion and the CPU prover's scratch for e's pool. 0 for
 * an unsupported size. */
uint64_t fil_key_bytes(const cuzk_engine *e, fil_circuit c, uint64_t sector_size);
uint64_t fil_partition_bytes(const cuzk_engine *e, fil_circuit c, uint64_t sector_size);
/* The same for a partition proved on a GPU (gpu) or on the CPU. */
uint64_t fil_partition_bytes_on(const cuzk_engine *e, fil_circuit c, uint64_t sector_size,
                                bool gpu);
/* The circuit of a Filecoin proof kind; false for the others. */
bool fil_circuit_of(cuzk_proof_kind kind, fil_circuit *c);

/* At submit: the key can be had (Filecoin's .params in param_dir, or dev keys allowed by
 * dev_key_dir), else CUZK_ERR_NOT_FOUND saying which file is missing where. */
cuzk_status fil_key_available(const cuzk_engine *e, const char *id, cuzk_error *err);

/* ekind.key_file / ekind.load_key of the Filecoin kinds. */
bool fil_key_file(const cuzk_engine *e, const char *id, char *path, size_t cap);
cuzk_status fil_load_key(const cuzk_engine *e, const char *id, const ereq *req,
                         const uint8_t *map, size_t map_len, srs_key *key, cuzk_pool *pool,
                         cuzk_error *err);

/* The recorded circuit of id: mapped from its CSR cache file when that is sound, else
 * rec(ctx, ...) records it and the cache is (re)written (fil_csr_cache.c). map is as in
 * cuzk_circuit_record. */
typedef cuzk_status (*fil_record_fn)(void *ctx, cuzk_r1cs **r1cs, cuzk_witness_map *map,
                                     cuzk_error *err);
cuzk_status fil_circuit_cached(const cuzk_engine *e, const char *id, fil_record_fn rec,
                               void *ctx, cuzk_r1cs **r1cs, cuzk_witness_map *map,
                               cuzk_pool *pool, cuzk_error *err);
/* <dir>/<id>.csr with dir = csr_cache_dir, else dev_key_dir, else state_dir; false when
 * none is set. */
bool fil_csr_cache_path(const cuzk_engine *e, const char *id, char *path, size_t cap);
/* Whether e has such a directory (circuits are then mapped from their caches). */
bool fil_csr_cached(const cuzk_engine *e);

/* The dev key's cache file for id in dir (written into path). */
bool fil_dev_key_path(const char *dir, const char *id, char *path, size_t cap);

/* The partition witness of every Filecoin kind (kind_porep.c), checked against the key's
 * circuit: engine_fil_witness runs the circuit's generic compact witness backend;
 * engine_fil_witness_adopt takes ownership of a compact witness made elsewhere (the fast
 * PoRep and PoSt witnesses) once it fits. */
cuzk_status engine_fil_witness(const srs_key *key, cuzk_circuit_fn fn, const void *ctx,
                               esynth *out, cuzk_error *err);
cuzk_status engine_fil_witness_adopt(const srs_key *key, cuzk_compact_assignment *ca,
                                     esynth *out, cuzk_error *err);

#endif
