/*
 * msm_internal.h — helpers shared by the G1 and G2 MSM instantiations (internal to
 * src/msm): scratch carving, scalar conversion, Booth digit extraction.
 * Threading: pure functions on caller memory, except msm_scalars_to_canonical which
 * spreads its loop over the given pool.
 */
#ifndef CUZK_MSM_INTERNAL_H
#define CUZK_MSM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/pool.h"
#include "cuzk/status.h"

/* Largest window: 2^15 buckets (6 MiB of G1 XYZZ, 3 MiB affine) per thread; wider
 * windows outgrow the caches faster than they save additions. */
#define MSM_MAX_C 16u
/* Affine batched buckets from this width up: with >= 1024 buckets a 256-addition batch
 * rarely conflicts; below it the XYZZ buckets win (measured in bench, see msm.h). */
#define MSM_AFFINE_MIN_C 11u

/* Scratch regions start on cache lines so per-thread bucket arrays never share one. */
#define MSM_ALIGN 64u

static inline size_t msm_round_up(size_t v)
{
    return (v + MSM_ALIGN - 1) & ~(size_t)(MSM_ALIGN - 1);
}

/* Carves `bytes` from *cursor (already aligned) and advances it, keeping alignment. */
static inline void *msm_carve(unsigned char **cursor, size_t bytes)
{
    void *p = *cursor;
    *cursor += msm_round_up(bytes);
    return p;
}

/* First MSM_ALIGN-aligned address in scratch. */
static inline unsigned char *msm_align_ptr(void *scratch)
{
    uintptr_t a = (uintptr_t)scratch;
    return (unsigned char *)((a + MSM_ALIGN - 1) & ~(uintptr_t)(MSM_ALIGN - 1));
}

/*
 * Cost of one window's bucket reduction per bucket, in bucket-addition units (what
 * cuzk_msm_window_bits and msm_chunks weigh against n): XYZZ buckets take the running sum
 * (2 XYZZ additions, ~2.8 units); affine buckets the row/column trees of batched additions
 * (bucket_affine_impl.h), measured at ~0.8 units at c = 13..15 on 2^16 points (docs/perf.md:
 * 1.0 leaves room for the larger windows' cache misses).
 */
static inline double msm_reduction_units(unsigned c)
{
    return c >= MSM_AFFINE_MIN_C ? 1.0 : 2.8;
}

/* Number of c-bit signed windows for a 255-bit scalar. The Booth recoding below leaves a
 * term -b_{W*c-1} * 2^(W*c) that must vanish, so W*c - 1 >= 255 (r < 2^255), i.e.
 * W = ceil(256 / c). */
static inline unsigned msm_num_windows(unsigned c) { return (256u + c - 1) / c; }

/*
 * Signed digit j of canonical scalar k (4 LE limbs) for window width c <= 20:
 *   d_j = sum_{i<c-1} b_{jc+i} 2^i - b_{jc+c-1} 2^(c-1) + b_{jc-1}    (b_{-1} = 0),
 * so d_j is in [-2^(c-1), 2^(c-1)] and sum_j d_j 2^(jc) = k (the b_{jc+c-1} terms of
 * neighbouring windows telescope). Each digit depends only on c+1 bits of k, so windows
 * can be processed independently by different threads.
 */
static inline int32_t msm_booth_digit(const uint64_t *k, unsigned j, unsigned c)
{
    /* v = bits [jc-1, jc+c) of k, with bit -1 taken as 0 */
    uint64_t v;
    size_t pos = (size_t)j * c;
    if (pos == 0) {
        v = (k[0] << 1) & (((uint64_t)1 << (c + 1)) - 1);
    } else {
        size_t p = pos - 1;
        size_t li = p / 64;
        unsigned sh = (unsigned)(p % 64);
        uint64_t lo = li < 4 ? k[li] >> sh : 0;
        uint64_t hi = (sh != 0 && li + 1 < 4) ? k[li + 1] << (64 - sh) : 0;
        v = (lo | hi) & (((uint64_t)1 << (c + 1)) - 1);
    }
    int32_t top = (int32_t)(v >> c);
    return (int32_t)(v >> 1) - (top << c) + (int32_t)(v & 1);
}

/* Converts n Montgomery scalars to canonical limbs (4 per scalar) on the pool. */
void msm_scalars_to_canonical(uint64_t *out, const cuzk_fr *in, size_t n, cuzk_pool *pool);

/* CUZK_OK when every canonical scalar k[4i..4i+3] (i < n) is below r; otherwise
 * CUZK_ERR_INVALID_ARG with the first offending index in err. The Booth windows need
 * k < 2^255 (see msm_num_windows), and r < 2^255, so this is what makes the digits exact. */
cuzk_status msm_check_canonical(const uint64_t *k, size_t n, cuzk_error *err);

/*
 * Point-range chunks per window. Tasks (windows x chunks) run in rounds of nthreads, and
 * every chunk pays the whole bucket reduction (msm_reduction_units * 2^(c-1)), so pick
 * the chunk count k (from ceil(nthreads / W), a few up) minimising
 *   ceil(W k / nthreads) * (n / k + 2.8 * 2^(c-1)).
 * E.g. 12 threads, 16 windows, n = 2^20: k = 3 (4 rounds of 12) beats k = 1 (2 rounds,
 * 4 threads idle in the second). Depends only on (n, nthreads, c), never on timing.
 */
static inline size_t msm_chunks(size_t n, size_t nthreads, unsigned nwin, unsigned c)
{
    if (nthreads <= 1)
        return 1;
    size_t k0 = (nthreads + nwin - 1) / nwin, best = k0;
    double best_t = 0;
    for (size_t k = k0; k < k0 + 4; k++) {
        size_t rounds = ((size_t)nwin * k + nthreads - 1) / nthreads;
        double red = msm_reduction_units(c) * (double)((size_t)1 << (c - 1));
        double t = (double)rounds * ((double)n / (double)k + red);
        if (k == k0 || t < best_t) {
            best = k;
            best_t = t;
        }
    }
    return best;
}

/*
 * The MSM with an explicit window width c (1..MSM_MAX_C) and bucket representation, on
 * canonical scalars (each < r, as for the _canonical entries): what cuzk_g{1,2}s_msm* run
 * after choosing c and affine from n (c >= 2 there). Internal to the msm layer and its
 * tests: the forced widths let tests run every width, both bucket kinds, on small inputs.
 */
size_t cuzk_g1s_msm_tuned_scratch_size(size_t n, size_t nthreads, unsigned c, bool affine);
cuzk_status cuzk_g1s_msm_tuned(cuzk_g1_jac *out, const cuzk_g1_affine *points,
                               const uint64_t *scalars, size_t n, unsigned c, bool affine,
                               void *scratch, size_t scratch_size, cuzk_pool *pool,
                               cuzk_error *err);
size_t cuzk_g2s_msm_tuned_scratch_size(size_t n, size_t nthreads, unsigned c, bool affine);
cuzk_status cuzk_g2s_msm_tuned(cuzk_g2_jac *out, const cuzk_g2_affine *points,
                               const uint64_t *scalars, size_t n, unsigned c, bool affine,
                               void *scratch, size_t scratch_size, cuzk_pool *pool,
                               cuzk_error *err);

#endif /* CUZK_MSM_INTERNAL_H */
