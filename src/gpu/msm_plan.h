/*
 * msm_plan.h — the device MSM's plans as plain arithmetic (C17 and CUDA C alike, no CUDA
 * headers): the window width, the window batches and the scratch layouts of the Pippenger
 * MSM (msm_pippenger.cuh), the bitmap sum (msm_bitmap.cuh) and the 0/1-split MSM
 * (msm_split.cuh). The one input only a device can give is CUB's temporary storage (its
 * radix sort and its flagged select): the msm_*_plan_make of the .cuh files ask CUB for it
 * and lay the scratch out here. A host without a device lays it out with
 * msm_cub_bytes_bound instead, so the memory plan of a GPU proof (cuzk/prover.h,
 * cuzk_prover_gpu_need) is the scratch the kernels will ask for, by the same code, not an
 * estimate of its own.
 * Threading: pure functions.
 */
#ifndef CUZK_GPU_MSM_PLAN_H
#define CUZK_GPU_MSM_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Pairs per thread in the bucket accumulation (at least; see msm_chunk), and entries per
 * thread in tree reductions. */
#define MSM_CHUNK 32u
/* The accumulation's chunk grows with the batch, up to MSM_CHUNK_MAX pairs, as long as
 * the batch still gives MSM_ACC_THREADS threads (a few times what the device holds at
 * once): every chunk whose bucket runs past its borders costs two slot additions in the
 * "cut runs" passes, which at 32 pairs per chunk and 2^27 pairs were ~10% of the MSM.
 * 256 -> 512 (s14, H200, real 32 GiB PoRep partition): cut runs 22.3 -> 16.9 ms, the
 * accumulation itself 706 -> 708 ms (2^27 pairs a window: 262 K threads, ~8 waves). */
#define MSM_CHUNK_MAX 512u
#define MSM_ACC_THREADS ((size_t)1 << 17)
/* Entries per thread in the passes over cut runs (see msm_pippenger.cuh). */
#define MSM_CHUNK2 8u
/* Bucket groups per window in the reduction: at least 2048 (with ~16 windows, ~32K
 * threads) and at most 128 buckets per group. Each thread's running sum is a dependent
 * chain of 2 XYZZ additions a bucket, and its group's offset (lo - 1) * sum a
 * double-and-add of ~21 doublings: fewer, longer groups halve the double-and-adds
 * (64 -> 128, s14, H200, a real PoRep partition: bucket reduce 52.4 -> 48.2 ms; at 2^27
 * still 196 K threads). */
#define MSM_MIN_GROUPS 2048u
#define MSM_GROUP_LEN 128u
/* Sorted pairs per window batch: 4 arrays of 4-byte keys/values, 1 GiB at most. */
#define MSM_BATCH_PAIRS ((size_t)1 << 26)
/* Threads per block of the window-sum tree (a power of two). */
#define MSM_TREE 256u
#define MSM_SCRATCH_ALIGN 256u
#define MSM_MIN_C 4u
#define MSM_MAX_C 22u
/* A canonical scalar on the device (msm_scalar.cuh: 8 32-bit limbs). */
#define MSM_SCALAR_BYTES 32u

static inline size_t msm_align_up(size_t x)
{
    return (x + MSM_SCRATCH_ALIGN - 1) & ~(size_t)(MSM_SCRATCH_ALIGN - 1);
}

static inline size_t msm_div_up(size_t a, size_t b) { return (a + b - 1) / b; }

static inline unsigned msm_gpu_num_windows(unsigned c) { return (256u + c - 1) / c; }

/* Pairs per accumulation thread for a batch of m pairs: MSM_CHUNK doubled while m still
 * leaves more than MSM_ACC_THREADS threads, at most MSM_CHUNK_MAX. A function of m only. */
static inline unsigned msm_chunk(size_t m)
{
    unsigned t = MSM_CHUNK;
    while (t < MSM_CHUNK_MAX && m / (2 * t) >= MSM_ACC_THREADS)
        t *= 2;
    return t;
}

/* Slots (2 per chunk) that any batch of m <= cap pairs can need. With t = msm_chunk(m):
 * chunks = ceil(m / t) <= ceil(cap / MSM_CHUNK); when t < MSM_CHUNK_MAX the doubling stopped
 * because m / (2t) < MSM_ACC_THREADS, so chunks <= 2 MSM_ACC_THREADS + 2; when
 * t = MSM_CHUNK_MAX, chunks <= ceil(cap / MSM_CHUNK_MAX). Not monotone in m, hence the
 * bound rather than msm_chunk(cap). */
static inline size_t msm_slots_cap(size_t cap)
{
    size_t grow = msm_div_up(cap, MSM_CHUNK);
    size_t lim = 2 * MSM_ACC_THREADS + 2;
    size_t a = grow < lim ? grow : lim;
    size_t b = msm_div_up(cap, MSM_CHUNK_MAX);
    return 2 * (a > b ? a : b);
}

/* Window width for n points: minimises W(c) * (n + 4 * 2^(c-1)), the sorted pairs plus
 * the bucket reduction. The weight 4 is measured (H200, G1, 2^27 random scalars): a pair
 * costs 0.45 ns in the accumulation, a bucket 1.65 ns in the reduction (two XYZZ
 * additions in a dependent chain); with it 2^27 takes c = 22 (W = 12), 4.6 % faster than
 * c = 20 (W = 13), which the weight 8 chose. Capped at 22 bits (W = 12): the buckets of all
 * windows, W 2^(c-1) XYZZ points, are 4.8 GiB there for G1, and wider windows cannot lower
 * W below 11. */
static inline unsigned msm_gpu_window_bits(size_t n, unsigned max_c)
{
    unsigned best = MSM_MIN_C;
    double best_cost = 0;
    for (unsigned c = MSM_MIN_C; c <= max_c; c++) {
        double cost = (double)msm_gpu_num_windows(c) *
                      ((double)n + 4.0 * (double)((size_t)1 << (c - 1)));
        if (c == MSM_MIN_C || cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    return best;
}

/* The run parameters for n points, and the scratch layout (offsets in bytes from the
 * aligned base), which depends only on cap_n >= n: a layout made for cap_n serves every
 * n <= cap_n (the 0/1 split runs its tail MSM in scratch sized for all the points). */
typedef struct msm_plan {
    size_t n, nb, groups, pairs, cub_bytes, cap_a, cap_b;
    unsigned c, nwin, wpb, key_bits; /* wpb: windows per batch */
    unsigned max_c;                  /* the cap the plan was made under */
    size_t off_kc, off_ka, off_kb, off_va, off_vb, off_cub, off_bk, off_ida, off_pa, off_idb,
        off_pb, off_gs, off_tree, off_ws, off_res, total;
} msm_plan;

static inline size_t msm_groups(size_t nb)
{
    size_t g = nb < MSM_MIN_GROUPS ? nb : MSM_MIN_GROUPS;
    return nb / MSM_GROUP_LEN > g ? nb / MSM_GROUP_LEN : g;
}

/* Sorted-pair capacity planned for cap_n points: all windows at once when that is at most
 * MSM_BATCH_PAIRS, else batches (one window at a time when n alone exceeds it). CUB's
 * sort is sized for this many pairs. */
static inline size_t msm_pairs_cap(size_t cap_n, unsigned max_c)
{
    size_t all = cap_n * msm_gpu_num_windows(msm_gpu_window_bits(cap_n, max_c));
    size_t p = all < MSM_BATCH_PAIRS ? all : MSM_BATCH_PAIRS;
    return p > cap_n ? p : cap_n;
}

/* Fills the plan for 1 <= n <= cap_n < 2^31 with windows of at most max_c bits, CUB's sort
 * of msm_pairs_cap(cap_n, max_c) pairs taking cub_bytes. xyzz_bytes: one XYZZ point. */
static inline void msm_plan_layout(msm_plan *pl, size_t n, size_t cap_n, size_t xyzz_bytes,
                                   unsigned max_c, size_t cub_bytes)
{
    pl->n = n;
    pl->max_c = max_c;
    pl->c = msm_gpu_window_bits(n, max_c);
    pl->nwin = msm_gpu_num_windows(pl->c);
    pl->nb = (size_t)1 << (pl->c - 1);
    pl->groups = msm_groups(pl->nb);
    size_t pairs_cap = msm_pairs_cap(cap_n, max_c);
    size_t wpb = pairs_cap / n;
    pl->wpb = wpb < 1 ? 1u : wpb > pl->nwin ? pl->nwin : (unsigned)wpb;
    pl->pairs = n * pl->wpb;
    size_t max_key = (size_t)pl->wpb * (pl->nb + 1) - 1;
    pl->key_bits = 1;
    while ((max_key >> pl->key_bits) != 0)
        pl->key_bits++;

    /* layout: from cap_n only */
    pl->cap_a = msm_slots_cap(pairs_cap);
    pl->cap_b = 2 * msm_div_up(pl->cap_a, MSM_CHUNK2);
    pl->cub_bytes = cub_bytes;
    size_t bk_max = 0, gs_max = 0;
    for (unsigned c = MSM_MIN_C; c <= msm_gpu_window_bits(cap_n, max_c); c++) {
        size_t nb = (size_t)1 << (c - 1), w = msm_gpu_num_windows(c);
        bk_max = w * (nb + 1) > bk_max ? w * (nb + 1) : bk_max;
        gs_max = w * msm_groups(nb) > gs_max ? w * msm_groups(nb) : gs_max;
    }
    const size_t max_windows = msm_gpu_num_windows(MSM_MIN_C);
    size_t off = 0;
#define MSM_TAKE(field, bytes)                                                            \
    do {                                                                                  \
        pl->field = off;                                                                  \
        off += msm_align_up(bytes);                                                       \
    } while (0)
    MSM_TAKE(off_kc, cap_n * MSM_SCALAR_BYTES);
    MSM_TAKE(off_ka, pairs_cap * sizeof(uint32_t));
    MSM_TAKE(off_kb, pairs_cap * sizeof(uint32_t));
    MSM_TAKE(off_va, pairs_cap * sizeof(uint32_t));
    MSM_TAKE(off_vb, pairs_cap * sizeof(uint32_t));
    MSM_TAKE(off_cub, cub_bytes);
    MSM_TAKE(off_bk, bk_max * xyzz_bytes);
    MSM_TAKE(off_ida, pl->cap_a * sizeof(uint32_t));
    MSM_TAKE(off_pa, pl->cap_a * xyzz_bytes);
    MSM_TAKE(off_idb, pl->cap_b * sizeof(uint32_t));
    MSM_TAKE(off_pb, pl->cap_b * xyzz_bytes);
    MSM_TAKE(off_gs, gs_max * xyzz_bytes);
    MSM_TAKE(off_tree, max_windows * MSM_TREE * xyzz_bytes);
    MSM_TAKE(off_ws, max_windows * xyzz_bytes);
    MSM_TAKE(off_res, xyzz_bytes);
#undef MSM_TAKE
    pl->total = off + MSM_SCRATCH_ALIGN; /* room to realign the caller's pointer */
}

/* ---- the bitmap sum (msm_bitmap.cuh) ---- */

/* nw bitmap words; np partial sums, one a lane of each warp's 32 words (msm_bitmap.cuh) */
typedef struct msm_bitmap_plan {
    size_t n, nw, np, cap_b;
    size_t off_a, off_b, off_res, total;
} msm_bitmap_plan;

static inline void msm_bitmap_plan_make(msm_bitmap_plan *pl, size_t n, size_t xyzz_bytes)
{
    pl->n = n;
    pl->nw = msm_div_up(n, 64);
    pl->np = msm_div_up(pl->nw, 32) * 32;
    pl->cap_b = msm_div_up(pl->np, MSM_CHUNK);
    size_t off = 0;
    pl->off_a = off;
    off += msm_align_up(pl->np * xyzz_bytes);
    pl->off_b = off;
    off += msm_align_up(pl->cap_b * xyzz_bytes);
    pl->off_res = off;
    off += msm_align_up(xyzz_bytes);
    pl->total = off + MSM_SCRATCH_ALIGN;
}

/* ---- the 0/1-split MSM (msm_split.cuh) ---- */

typedef struct msm_auto_plan {
    size_t n, nw, sel_bytes, sub_bytes;
    unsigned max_c; /* window cap of the tail / plain MSM (msm_plan_layout) */
    size_t off_bitmap, off_cnt, off_idx, off_iota, off_flags, off_sel, off_res_a, off_res_b,
        off_sub, total;
} msm_auto_plan;

/* Device counters read back in step 3 of the split (msm_split.cuh). */
typedef struct msm_split_counts {
    unsigned long long ones;
    int tail;
    int pad;
} msm_split_counts;

/* The split's plan for 1 <= n < 2^31: sort_bytes is CUB's sort of msm_pairs_cap(n, max_c)
 * pairs (the tail or plain MSM, planned for all n points), sel_bytes its flagged select of
 * n items. */
static inline void msm_auto_plan_layout(msm_auto_plan *pl, size_t n, size_t xyzz_bytes,
                                        unsigned max_c, size_t sort_bytes, size_t sel_bytes)
{
    msm_plan mp;
    msm_bitmap_plan bp;
    msm_plan_layout(&mp, n, n, xyzz_bytes, max_c, sort_bytes);
    pl->max_c = max_c;
    msm_bitmap_plan_make(&bp, n, xyzz_bytes);
    pl->n = n;
    pl->nw = msm_div_up(n, 64);
    pl->sel_bytes = sel_bytes;
    pl->sub_bytes = mp.total > bp.total ? mp.total : bp.total;
    size_t off = 0;
#define MSM_TAKE(field, bytes)                                                            \
    do {                                                                                  \
        pl->field = off;                                                                  \
        off += msm_align_up(bytes);                                                       \
    } while (0)
    MSM_TAKE(off_bitmap, pl->nw * sizeof(uint64_t));
    MSM_TAKE(off_cnt, sizeof(msm_split_counts));
    MSM_TAKE(off_idx, n * sizeof(uint32_t));
    MSM_TAKE(off_iota, n * sizeof(uint32_t));
    MSM_TAKE(off_flags, n);
    MSM_TAKE(off_sel, sel_bytes);
    MSM_TAKE(off_res_a, xyzz_bytes);
    MSM_TAKE(off_res_b, xyzz_bytes);
    MSM_TAKE(off_sub, pl->sub_bytes);
#undef MSM_TAKE
    pl->total = off + MSM_SCRATCH_ALIGN;
}

/* ---- without a device ---- */

/* An upper bound on CUB's temporary storage for sorting `items` (key, value) pairs of
 * 32-bit keys or selecting from `items` flags, for plans made on a host without a device
 * (the real sizes come from CUB, which asks the device). CUB 2.x's onesweep radix sort
 * (cub/device/dispatch/dispatch_radix_sort.cuh, InvokeOnesweep, with the caller's double
 * buffers: no extra key or value copies) takes 256 4-byte lookback counters per tile of at
 * least 256 x 8 items (at most items / 2 bytes) plus bins and pass counters of a few KiB;
 * the flagged select one 16-byte tile status per tile of at least 128 items. At 2^26
 * pairs that is at most 33 MiB next to the 1 GiB of sorted pairs. */
static inline size_t msm_cub_bytes_bound(size_t items) { return items / 2 + ((size_t)1 << 20); }

#endif /* CUZK_GPU_MSM_PLAN_H */
