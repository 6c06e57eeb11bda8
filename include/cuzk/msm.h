/*
 * cuzk/msm.h — multi-scalar multiplication on G1 and G2 (CPU): sum_i k_i * P_i.
 *
 * Model
 *   Points are affine (cuzk_g1_affine / cuzk_g2_affine, Montgomery coordinates); points at
 *   infinity are allowed and contribute nothing. Scalars come either as cuzk_fr (Montgomery
 *   form, as stored everywhere; converted to canonical inside the scratch) or, for the
 *   *_canonical variants, as the canonical integers in raw little-endian 64-bit limbs,
 *   CUZK_FR_LIMBS per scalar, each < r. The result is Jacobian.
 *
 * Algorithm
 *   Pippenger's bucket method with signed (Booth) digits: a window of c bits gives digits
 *   in [-2^(c-1), 2^(c-1)], so 2^(c-1) buckets per window; a negative digit adds -P.
 *   c is chosen from n only (never from the thread count), so results do not depend on the
 *   pool. Small windows accumulate buckets in XYZZ coordinates with mixed additions; from
 *   11 bits up (n >= ~1,600) buckets are affine and additions are batched, 512 at a time,
 *   around one shared inversion (~5M+1S per addition instead of 8M+2S). Affine buckets
 *   are reduced by row/column trees of the same batched additions, XYZZ ones by the
 *   running-sum trick; windows are combined with c doublings each.
 *   Speed against blst's Pippenger: `cuzk bench`, logged in docs/perf.md.
 *
 * 0/1 fast path (Filecoin witnesses are mostly bits)
 *   cuzk_msm_split_scalars classifies scalars into 0, 1 and "significant": the ones go to a
 *   bitmap, the significant ones (with their point indices) to a compact tail. Then
 *     MSM(points, scalars) = sum_bitmap(points, ones) + MSM(gathered tail points, tail).
 *   cuzk_g{1,2}s_sum_bitmap adds the selected points with batched affine additions: many
 *   independent pair additions share one Montgomery batch inversion (about 6 field
 *   multiplications per addition instead of 10 for XYZZ), reduced as a tree.
 *
 * Memory
 *   Nothing here allocates. Each routine has a *_scratch_size(n, nthreads) in bytes;
 *   scratch must be at least that large (smaller -> CUZK_ERR_INVALID_ARG), and nthreads
 *   must be at least cuzk_pool_nthreads(pool) of the pool later passed in. Any alignment
 *   the scratch has is fine (it is realigned inside; the size accounts for that).
 *
 * Threading
 *   pool may be NULL (single-threaded on the caller). With a pool the work is split over
 *   windows and, when there are more threads than windows, over point ranges whose partial
 *   sums are added. The call blocks until done. Concurrent calls need distinct scratch and
 *   distinct pools (see pool.h).
 *
 * Timing: variable-time in the scalars (MSM scalars in proving are secret only as a whole
 * witness; the cost profile is the same as every production prover's Pippenger).
 */
#ifndef CUZK_MSM_H
#define CUZK_MSM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/pool.h"
#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Window width (bits) the MSM uses for n points; exposed for benchmarks and tests. */
unsigned cuzk_msm_window_bits(size_t n);

/* ---------------------------------------------------------------------------------------
 * Pippenger MSM. Errors: CUZK_ERR_INVALID_ARG for NULL out, NULL points/scalars with
 * n > 0, or scratch smaller than the scratch size for (n, cuzk_pool_nthreads(pool)).
 * n == 0 gives infinity.
 * ------------------------------------------------------------------------------------- */
size_t cuzk_g1s_msm_scratch_size(size_t n, size_t nthreads);
cuzk_status cuzk_g1s_msm(cuzk_g1_jac *out, const cuzk_g1_affine *points,
                         const cuzk_fr *scalars, size_t n, void *scratch,
                         size_t scratch_size, cuzk_pool *pool);
/* scalars: n * CUZK_FR_LIMBS canonical limbs (scalar i at scalars[4i .. 4i+3], LE), each
 * < r: a scalar >= r is CUZK_ERR_INVALID_ARG naming its index in err (optional), checked
 * before any work (the signed windows cover 256 bits only for scalars below 2^255, and a
 * reduction would hide a caller's encoding bug). */
cuzk_status cuzk_g1s_msm_canonical(cuzk_g1_jac *out, const cuzk_g1_affine *points,
                                   const uint64_t *scalars, size_t n, void *scratch,
                                   size_t scratch_size, cuzk_pool *pool, cuzk_error *err);

size_t cuzk_g2s_msm_scratch_size(size_t n, size_t nthreads);
cuzk_status cuzk_g2s_msm(cuzk_g2_jac *out, const cuzk_g2_affine *points,
                         const cuzk_fr *scalars, size_t n, void *scratch,
                         size_t scratch_size, cuzk_pool *pool);
cuzk_status cuzk_g2s_msm_canonical(cuzk_g2_jac *out, const cuzk_g2_affine *points,
                                   const uint64_t *scalars, size_t n, void *scratch,
                                   size_t scratch_size, cuzk_pool *pool, cuzk_error *err);

/* ---------------------------------------------------------------------------------------
 * 0/1 fast path.
 * ------------------------------------------------------------------------------------- */

/*
 * out = sum of points[i] for every i < n whose bit (bitmap[i / 64] >> (i % 64)) & 1 is
 * set; bits at positions >= n are ignored. bitmap has ceil(n / 64) words.
 * Errors: CUZK_ERR_INVALID_ARG (NULL out, NULL points/bitmap with n > 0, scratch too small).
 */
size_t cuzk_g1s_sum_bitmap_scratch_size(size_t n, size_t nthreads);
cuzk_status cuzk_g1s_sum_bitmap(cuzk_g1_jac *out, const cuzk_g1_affine *points,
                                const uint64_t *bitmap, size_t n, void *scratch,
                                size_t scratch_size, cuzk_pool *pool);
size_t cuzk_g2s_sum_bitmap_scratch_size(size_t n, size_t nthreads);
cuzk_status cuzk_g2s_sum_bitmap(cuzk_g2_jac *out, const cuzk_g2_affine *points,
                                const uint64_t *bitmap, size_t n, void *scratch,
                                size_t scratch_size, cuzk_pool *pool);

/*
 * Classifies scalars[0..n) (Montgomery form):
 *   0            -> nothing,
 *   1            -> bit i of ones_bitmap (ceil(n / 64) words, all written),
 *   anything else -> tail_scalars[t] = scalars[i], tail_index[t] = i, in increasing i.
 * *tail_len receives the number of tail entries (tail arrays need room for n entries in
 * the worst case); ones_count (may be NULL) the number of ones.
 * Then sum_i scalars[i] * P_i = sum_bitmap(P, ones_bitmap) + MSM(P[tail_index], tail).
 * Errors: CUZK_ERR_INVALID_ARG (NULL arrays with n > 0, n > UINT32_MAX).
 */
cuzk_status cuzk_msm_split_scalars(uint64_t *ones_bitmap, cuzk_fr *tail_scalars,
                                   uint32_t *tail_index, size_t *tail_len,
                                   size_t *ones_count, const cuzk_fr *scalars, size_t n);

/* dst[t] = points[index[t]] for t < m: gathers the tail points after a split. */
void cuzk_g1s_gather(cuzk_g1_affine *dst, const cuzk_g1_affine *points,
                     const uint32_t *index, size_t m);
void cuzk_g2s_gather(cuzk_g2_affine *dst, const cuzk_g2_affine *points,
                     const uint32_t *index, size_t m);

/*
 * The one rule deciding whether the 0/1 split pays for n scalars of which `ones` equal 1,
 * shared by the CPU (cuzk_g{1,2}s_msm_auto) and the GPU (cuzk_gpu_g{1,2}s_msm_auto):
 * at least an eighth of the scalars, and at least 64, are ones.
 */
bool cuzk_msm_split_pays(size_t n, size_t ones);

/*
 * out = sum_i scalars[i] * P_i, through the split above (sum_bitmap of the ones + MSM of
 * the gathered tail) when cuzk_msm_split_pays(n, ones), else a
 * plain MSM. This is the prover's entry point for the witness-driven MSMs.
 * split_scratch: cuzk_g{1,2}s_msm_auto_split_size(n) bytes, any alignment (for
 * n > UINT32_MAX the size is 0 and a plain MSM runs); scratch: at least the larger of the
 * msm and sum_bitmap scratch sizes for n. Errors: CUZK_ERR_INVALID_ARG for NULL or short buffers.
 */
size_t cuzk_g1s_msm_auto_split_size(size_t n);
cuzk_status cuzk_g1s_msm_auto(cuzk_g1_jac *out, const cuzk_g1_affine *points,
                              const cuzk_fr *scalars, size_t n, void *split_scratch,
                              size_t split_size, void *scratch, size_t scratch_size,
                              cuzk_pool *pool);
size_t cuzk_g2s_msm_auto_split_size(size_t n);
cuzk_status cuzk_g2s_msm_auto(cuzk_g2_jac *out, const cuzk_g2_affine *points,
                              const cuzk_fr *scalars, size_t n, void *split_scratch,
                              size_t split_size, void *scratch, size_t scratch_size,
                              cuzk_pool *pool);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_MSM_H */
