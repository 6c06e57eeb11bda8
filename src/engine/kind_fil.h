/*
 * kind_fil.h — what the Filecoin job kinds (kind_porep.c, kind_post.c, kind_snap.c) share:
 * their circuits' ids and Filecoin's .params file names (kind_fil_keys.c), loading a key:
 * the circuit recorded once per (kind, sector size) and the .params or a dev key
 * (kind_fil_load.c), the recorded circuits' cache on disk (kind_fil_cache.c), what a key
 * and a partition are charged (kind_fil_sizes.c), and the partition witness
 * (kind_fil_witness.c), and a journaled result's verification (kind_fil_verify.c).
 * Internal to src/engine.
 * Threading: reentrant; loading runs on the given pool.
 */
#ifndef CUZK_ENGINE_KIND_FIL_H
#define CUZK_ENGINE_KIND_FIL_H

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

/* ---- ids and files (kind_fil_keys.c) ---------------------------------------------------- */

/* "porep-2k", "wpost-32g", "winning-64g", "snap-32g", ... Returns false for an unsupported size. */
bool fil_circuit_id(fil_circuit c, uint64_t sector_size, char *out, size_t cap);
/* The inverse; false for anything else. */
bool fil_parse_id(const char *id, fil_circuit *c, uint64_t *sector_size);
bool fil_owns(const char *id); /* ekind.owns_circuit */

/* At submit: the key can be had (Filecoin's .params in param_dir, or dev keys allowed by
 * dev_key_dir), else CUZK_ERR_NOT_FOUND saying which file is missing where
 * (ekind.key_available). */
cuzk_status fil_key_available(const cuzk_engine *e, const char *id, cuzk_error *err);
/* ekind.key_file: the .params id is decoded from. */
bool fil_key_file(const cuzk_engine *e, const char *id, char *path, size_t cap);
/* The dev key's cache file for id in dir (written into path). */
bool fil_dev_key_path(const char *dir, const char *id, char *path, size_t cap);

/* ---- loading (kind_fil_load.c, kind_fil_cache.c) ---------------------------------------- */

/* ekind.load_key of the Filecoin kinds. */
/* Stops (asks to end, then joins) the background digests of served .params
 * (kind_fil_load.c); engine destroy, after the engine's threads are joined. */
void fil_bg_stop(cuzk_engine *e);
/* Filecoin's base file name (no extension) of circuit id's .params/.vk; false if none. */
bool fil_official_base(const char *id, char *out, size_t cap);
cuzk_status fil_load_key(const cuzk_engine *e, const char *id, const ereq *req,
                         const uint8_t *map, size_t map_len, srs_key *key,
                         const volatile int *cancel, const srs_publish *publish,
                         cuzk_pool *pool, cuzk_error *err);

/* The recorded circuit of id: mapped from its CSR cache file when that is sound, else
 * rec(ctx, ...) records it and the cache is (re)written (kind_fil_cache.c). map is as in
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

/* ---- sizes (kind_fil_sizes.c) ----------------------------------------------------------- */

/* The circuit's exact counts (cuzk/plan.h); NULL for an unsupported size. */
const cuzk_fil_counts *fil_counts(fil_circuit c, uint64_t sector_size);
/* log2 of the circuit's NTT domain (rows incl. input rows, rounded up to a power of 2). */
unsigned fil_log2_domain(fil_circuit c, uint64_t sector_size);
/* What admission charges (from the exact counts): the decoded key with its recorded
 * circuit (mapped from the CSR cache when e has a cache directory, else as recorded in
 * memory) and witness map; one partition's compact witness, plus, when e has a CPU
 * device, its dense expansion and the CPU prover's scratch for e's pool. 0 for an
 * unsupported size. */
uint64_t fil_key_bytes(const cuzk_engine *e, fil_circuit c, uint64_t sector_size);
uint64_t fil_partition_bytes(const cuzk_engine *e, fil_circuit c, uint64_t sector_size);
/* The same for a partition proved on a GPU (gpu) or on the CPU. */
uint64_t fil_partition_bytes_on(const cuzk_engine *e, fil_circuit c, uint64_t sector_size,
                                bool gpu);
/* ekind.key_bytes: fil_key_bytes of the circuit id names. */
bool fil_key_estimate(const cuzk_engine *e, const char *id, uint64_t *bytes);
/* ekind.key_make_bytes: when the key will be made from its seed (no official .params, a
 * dev_key_dir without the key's PARAMS-form file), the setup's temporaries and the GPU
 * hook's pinned buffers (19.4 + 1.75 GiB for WindowPoSt 32 GiB); else 0. */
uint64_t fil_key_make_bytes(const cuzk_engine *e, const char *id);
/* The circuit of a Filecoin proof kind; false for the others. */
bool fil_circuit_of(cuzk_proof_kind kind, fil_circuit *c);

/* ---- the partition witness (kind_fil_witness.c) ----------------------------------------- */

/* The partition witness of every Filecoin kind, checked against the key's circuit:
 * engine_fil_witness runs the circuit's generic compact witness backend;
 * engine_fil_witness_adopt takes ownership of a compact witness made elsewhere (the fast
 * PoRep and PoSt witnesses) once it fits. */
cuzk_status engine_fil_witness(const srs_key *key, cuzk_circuit_fn fn, const void *ctx,
                               esynth *out, cuzk_error *err);
cuzk_status engine_fil_witness_adopt(const srs_key *key, cuzk_compact_assignment *ca,
                                     esynth *out, cuzk_error *err);

/* ---- a journaled result (kind_fil_verify.c) -------------------------------------------- */

/* ekind.verify_result of the Filecoin kinds: the verifying key only (the .vk beside the
 * .params, the .params' head, or a cached dev key's), and the public inputs a verifier
 * derives from the planned job. */
cuzk_status fil_verify_result(const cuzk_engine *e, const ereq *req, const ekind_plan *plan,
                              const uint8_t *proofs, uint32_t partitions, cuzk_pool *pool,
                              cuzk_error *err);

#endif
