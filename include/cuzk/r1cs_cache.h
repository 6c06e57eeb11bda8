/*
 * cuzk/r1cs_cache.h — the CSR cache file (formats layer): a recorded constraint system
 * (cuzk/r1cs.h) with its witness map and coefficient table, written once per circuit and
 * memory-mapped read-only on later loads, so the cuzk_r1cs points straight into the page
 * cache (zero copy). A Filecoin PoRep partition takes minutes and tens of GB to record;
 * mapping its cache takes milliseconds plus the checks below.
 *
 * File layout (version 2; little-endian, native widths: it is a local cache, not an
 * interchange format — a big-endian host refuses it)
 *   page 0, 4096 bytes, the header:
 *     0    magic "CUZKCSR\0"                 8    u32 version (2)   12  u32 header bytes (4096)
 *     16   circuit id, 64 bytes NUL-padded   80   u64 n_constraints
 *     88   u32 n_vars, n_public, n_aux, flags (bit 0 c_absent, bit 1 witness map present)
 *     104  u64 nnz of A, B, C                128  u32 coefficient-table size, u32 sections
 *     136  u64 file bytes                    144  u64 section alignment (4096)
 *     152  the section table: per section u32 kind, u32 0, u64 offset, u64 bytes,
 *          u64 checksum (32 bytes each)
 *     4088 u64 checksum of bytes [0, 4088)
 *   then the sections in kind order, each starting on a 4096-byte boundary (zero padding):
 *     row_ptr A/B/C (u64, n_constraints + 1 each), col A/B/C (u32, nnz), density A/B/C
 *     (u64, ceil(n_vars/64)), the witness map's is_bit (u64, ceil(n_vars/64), empty
 *     without a map), coefficient values (Fr Montgomery, table size), coefficient index
 *     A/B/C (u32, nnz): 14 sections.
 *   Every offset and length is derived from the shape; the reader recomputes the layout
 *   and requires the table and the file size to match it exactly.
 *   Coefficients are stored only as the distinct-value table and a u32 index a term (a
 *   Filecoin circuit has ~1,500 distinct values), so a term costs 8 bytes (col + index),
 *   a row 8 more (row_ptr). Version 1 also stored each term's 32-byte coefficient (three
 *   more sections after col, ~72 % of the file); this build refuses it (CUZK_ERR_FORMAT
 *   "version 1, this build reads 2"), and the engine then records the circuit again and
 *   rewrites the file. The mapped r1cs has m[].coeff NULL and the table set: readers go
 *   through cuzk_r1cs_coeff or the table (cuzk/r1cs.h, "Coefficients").
 *
 * Checksums: a 64-bit multiply-rotate hash (4 lanes, ~10 GB/s a core) over 1 MiB chunks,
 *   the chunk hashes folded in order, so any thread count gives the same value. Not
 *   cryptographic: it catches torn writes and bit rot, not an adversary (the cache lives
 *   in the operator's own directory, like the dev keys).
 *
 * Checks on load (what each level costs for a 32 GiB PoRep partition, ~9 GB of file,
 * by bytes from the 512 MiB partition's ~70 bytes a row; version 1's was ~30 GB):
 *   SHAPE   the header (magic, version, id, checksum), the layout, the file size, the
 *           small sections' checksums (density, witness map, coefficient values) and each
 *           matrix's row_ptr end points: O(n_vars), milliseconds.
 *   BOUNDS  SHAPE plus every index an evaluator follows: row_ptr non-decreasing, columns
 *           < n_vars and strictly increasing in a row, coefficient indices < table size
 *           (nearly the whole file, ~9 GB, read in parallel on the pool). A cache that
 *           passes cannot make the CPU SpMV or the GPU read out of bounds.
 *   FULL    BOUNDS plus the checksum of every section (the whole file, in parallel). A
 *           coefficient index flipped to another in-range value passes BOUNDS and would
 *           give proofs that fail their self-check; FULL refuses it up front.
 *   ONCE    FULL the first time, BOUNDS afterwards: a FULL pass leaves <path>.ok naming
 *           the file (device, inode, size, mtime in ns, header checksum); a later ONCE load
 *           of the same, unchanged file only needs BOUNDS. Anything that rewrites,
 *           truncates or replaces the file changes that identity and brings FULL back;
 *           only damage under an unchanged mtime (bit rot below the file system) would
 *           pass, and then shows as proofs that fail the engine's self-check. The engine
 *           loads at this level: FULL of a 32 GiB partition's ~9 GB on every start would
 *           cost more than the 2 s load target (docs/perf.md has each level's cost).
 *
 * Errors: a missing file is CUZK_ERR_NOT_FOUND; anything else wrong with it (truncated,
 * corrupt, other version, other circuit) is CUZK_ERR_FORMAT naming what, never a crash.
 *
 * Ownership: the loaded cuzk_r1cs owns the mapping (cuzk_r1cs_destroy unmaps it); its
 * arrays are read-only (touching them for writing faults).
 * Threading: reentrant; the checks and checksums run on the given pool (NULL: calling
 * thread). Writers use a unique temporary name and rename, so concurrent writers of one
 * path leave one complete file.
 */
#ifndef CUZK_R1CS_CACHE_H
#define CUZK_R1CS_CACHE_H

#include "cuzk/pool.h"
#include "cuzk/r1cs.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_R1CS_CACHE_VERSION 2u /* 1: also 32-byte coefficients, refused */
#define CUZK_R1CS_CACHE_ID_MAX 63u /* circuit id bytes, NUL excluded */

typedef enum cuzk_r1cs_cache_check {
    CUZK_R1CS_CACHE_CHECK_SHAPE = 0,
    CUZK_R1CS_CACHE_CHECK_BOUNDS = 1,
    CUZK_R1CS_CACHE_CHECK_FULL = 2,
    CUZK_R1CS_CACHE_CHECK_ONCE = 3,
} cuzk_r1cs_cache_check;

/* Writes r1cs (and map, optional: then map->n_vars must equal r1cs->n_vars) as circuit_id
 * to path: a temporary file in the same directory, fsync'd, renamed over path. The
 * coefficient table is r1cs's own when it has one (a mapped r1cs: rewriting it gives the
 * same bytes), else computed here from m[].coeff. Errors:
 * INVALID_ARG (NULL, an id longer than CUZK_R1CS_CACHE_ID_MAX, a map of another size),
 * IO (naming the path), NOMEM; on error path is untouched and no temporary is left. */
cuzk_status cuzk_r1cs_cache_write(const char *path, const char *circuit_id,
                                  const cuzk_r1cs *r1cs, const cuzk_witness_map *map,
                                  cuzk_pool *pool, cuzk_error *err);

/* Maps path and checks it at the given level; circuit_id must be the one it was written
 * for. *r1cs is a mapped constraint system carrying the coefficient table and no
 * m[].coeff (NULL: read coefficients with cuzk_r1cs_coeff); map (optional)
 * receives the witness map (release with cuzk_witness_map_free; a file written without one
 * is CUZK_ERR_FORMAT when map is given). Errors: NOT_FOUND, FORMAT, IO, NOMEM. */
cuzk_status cuzk_r1cs_cache_open(const char *path, const char *circuit_id,
                                 cuzk_r1cs_cache_check check, cuzk_r1cs **r1cs,
                                 cuzk_witness_map *map, cuzk_pool *pool, cuzk_error *err);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_R1CS_CACHE_H */
