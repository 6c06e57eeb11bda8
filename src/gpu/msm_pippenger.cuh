/*
 * msm_pippenger.cuh — the device Pippenger MSM, written once over the coordinate field
 * (gpu_fp for G1, gpu_fp2 for G2) and instantiated by msm_g1.cu / msm_g2.cu.
 *
 * Algorithm (steps 1-5 on the device, stream-ordered; step 6 on the host):
 *   1. scalars Montgomery -> canonical (msm_scalar.cuh), limb-major;
 *   2. windows of c bits (signed Booth digits, 2^(c-1) buckets, W = ceil(256/c) windows
 *      as on the host) are taken in batches of up to MSM_BATCH_PAIRS / n windows: one
 *      (key, value = point index | sign << 31) pair per point and window of the batch,
 *      key = (window in batch) * (2^(c-1) + 1) + |digit| (0 for a zero digit), sorted
 *      with CUB's radix sort over the key bits only. Batching matters for small n (the
 *      tails of the 0/1 split): one sort and one accumulation for all windows instead of
 *      W latency-bound rounds;
 *   3. bucket accumulation as a segmented reduction of the sorted pairs: thread t adds the
 *      points of pairs [tT, tT + T) into XYZZ sums, one per run of equal keys. A run that
 *      lies wholly inside the chunk is its bucket and is stored directly; a run cut by a
 *      chunk border goes to the thread's two border slots (id, partial sum). The slots
 *      form a list sorted by id in which every cut bucket is one contiguous run, so the
 *      same step repeats on it (XYZZ + XYZZ additions, MSM_CHUNK2 entries per thread, short
 *      because these passes are latency-bound chains) until nothing is cut. This keeps
 *      every thread's work at T additions however skewed the digits are (a plain MSM of
 *      mostly-one scalars puts almost every point in one bucket);
 *   4. bucket reduction, all windows at once: the 2^(c-1) buckets of a window are split
 *      into G groups of L; group g returns sum_m m B_m over its buckets as a running sum
 *      (giving sum (m - lo + 1) B_m) plus (lo - 1) * (sum B_m) by double-and-add;
 *   5. per window, a block adds its G group sums (tree in global scratch);
 *   6. the host combines the windows, top first: acc = 2^c acc + S_w. Its (W - 1) c
 *      doublings are one dependent chain; in a device thread they took 3.7 ms (G1) and
 *      13.4 ms (G2) an MSM whatever n (H200, s14: a 2^10 MSM's whole time), ~27 ms of
 *      each PoRep partition; on the host ~0.1 / 0.4 ms after one read-back of W points.
 * The window width is a function of n and of the scratch the caller gives (a smaller
 * scratch caps it: msm_plan_fit), so the work (and the result's representation) never
 * depends on timing; every width gives the same group element.
 *
 * Threading: host functions enqueue on the caller's stream and wait on it in step 6;
 * any host thread may call them with its own scratch.
 */
#ifndef CUZK_GPU_MSM_PIPPENGER_CUH
#define CUZK_GPU_MSM_PIPPENGER_CUH

#include <stddef.h>
#include <stdint.h>

#include <cub/device/device_radix_sort.cuh>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/status.h"
#include "gpu/ec.cuh"
#include "gpu/gpu_check.cuh"
#include "gpu/msm_plan.h"
#include "gpu/msm_scalar.cuh"
#include "gpu/prof.cuh"

static_assert(sizeof(msm_scalar) == MSM_SCALAR_BYTES, "msm_plan.h sizes canonical scalars");

/* The plan for 1 <= n <= cap_n < 2^31 with windows of at most max_c bits (msm_plan.h),
 * CUB's sort sized by CUB; false when CUB cannot size its sort (no device). xyzz_bytes:
 * size of one XYZZ point. */
static bool msm_plan_make(msm_plan *pl, size_t n, size_t cap_n, size_t xyzz_bytes,
                          unsigned max_c = MSM_MAX_C)
{
    cub::DoubleBuffer<uint32_t> kd(NULL, NULL), vd(NULL, NULL);
    size_t cub_bytes = 0;
    /* 32 key bits: an upper bound for every key width a run may sort */
    if (cub::DeviceRadixSort::SortPairs(NULL, cub_bytes, kd, vd,
                                        (int)msm_pairs_cap(cap_n, max_c), 0, 32) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    msm_plan_layout(pl, n, cap_n, xyzz_bytes, max_c, cub_bytes);
    return true;
}

/* The plan for n with the widest window cap whose scratch fits `have` bytes (the default
 * plan when the scratch is that large); false when even 4-bit windows do not fit or CUB
 * cannot size its sort. The buckets (W 2^(c-1) XYZZ points, 4.5 GiB for G1 at c = 22) are
 * what a cap saves: a card too small for the default working set proves with narrower
 * windows instead of not at all. */
static bool msm_plan_fit(msm_plan *pl, size_t n, size_t cap_n, size_t xyzz_bytes, size_t have)
{
    for (unsigned c = MSM_MAX_C; c >= MSM_MIN_C; c--) {
        if (!msm_plan_make(pl, n, cap_n, xyzz_bytes, c))
            return false;
        if (pl->total <= have)
            return true;
    }
    return false;
}

static inline uint8_t *msm_scratch_base(void *scratch)
{
    uintptr_t a = (uintptr_t)scratch;
    return (uint8_t *)((a + MSM_SCRATCH_ALIGN - 1) & ~(uintptr_t)(MSM_SCRATCH_ALIGN - 1));
}

/* ---- kernels ------------------------------------------------------------------------ */

/* idx: NULL, or the subset's indices into in (see msm_pippenger_run). Out limb-major:
 * limb l of scalar i at out[l * n + i]. The digits of a window need two limbs of each
 * scalar; read from 32-byte records a warp fetched 4x the bytes it used, and with one pass
 * a window the H MSM of a 2^27 partition read its scalars 12 times (digits: 15.5 ms a
 * real PoRep partition on the H200, s14). */
static __global__ void msm_to_canonical_kernel(uint32_t *out, const msm_scalar *in,
                                               const uint32_t *idx, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        msm_scalar v = msm_scalar_from_mont(in[idx ? idx[i] : i]);
#pragma unroll
        for (unsigned l = 0; l < 8; l++)
            out[l * n + i] = v.l[l];
    }
}

/* Pair (wl, i) of the batch starting at window w0 sits at wl * n + i; its value is the
 * point's index (idx[i] for a subset). */
static __global__ void msm_digits_kernel(uint32_t *keys, uint32_t *vals, const uint32_t *k,
                                         const uint32_t *idx, size_t n, size_t m, unsigned w0,
                                         unsigned c, uint32_t nb1)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= m)
        return;
    size_t wl = t / n, i = t % n;
    int32_t d = msm_booth_digit(k + i, n, w0 + (unsigned)wl, c);
    uint32_t mag = (uint32_t)(d < 0 ? -d : d);
    keys[t] = mag ? (uint32_t)wl * nb1 + mag : 0u;
    vals[t] = (idx ? idx[i] : (uint32_t)i) | (d < 0 ? 0x80000000u : 0u);
}

/*
 * One segmented-reduction step (see the file comment). Input: m entries sorted by key
 * (key 0 = nothing), either (key, point index | sign) pairs over affine points
 * (FROM_POINTS) or (id, XYZZ partial) slots. Runs wholly inside a chunk go to
 * buckets[key]; runs cut by a chunk border go to the chunk's slots 2t (the run touching
 * its start) and 2t + 1 (touching its end); a run that spans the whole chunk fills slot 2t
 * with its sum and slot 2t + 1 with infinity, so cut runs stay contiguous in the output.
 */
/* One affine point through the read-only path, 16 bytes at a time when the array is
 * 16-byte aligned (vec: the same for every thread). As 4-byte loads, each gather of a warp
 * is 24 (G1) requests of 32 distinct sectors; as 16-byte loads, 6: the 2^27 random MSM
 * took 871 -> 852 ms on the H200. */
template <class F>
static __device__ __forceinline__ gpu_aff<F> msm_load_aff(const gpu_aff<F> *points, uint32_t i,
                                                          bool vec)
{
    static_assert(sizeof(gpu_aff<F>) % 16 == 0, "affine point not a multiple of 16 bytes");
    gpu_aff<F> r;
    if (vec) {
        const uint4 *q = (const uint4 *)(const void *)(points + i);
        uint4 *d = (uint4 *)(void *)&r;
#pragma unroll
        for (unsigned k = 0; k < sizeof(gpu_aff<F>) / 16; k++)
            d[k] = __ldg(q + k);
    } else {
        r = points[i];
    }
    return r;
}

template <class F, bool FROM_POINTS>
static __global__ void __launch_bounds__(128) msm_accumulate_kernel(gpu_xyzz<F> *buckets, uint32_t *out_id,
                                      gpu_xyzz<F> *out_pt, const uint32_t *keys,
                                      const uint32_t *vals, const gpu_aff<F> *points,
                                      const gpu_xyzz<F> *in_pt, size_t m, unsigned chunk, bool vec)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t nch = (m + chunk - 1) / chunk;
    if (t >= nch)
        return;
    size_t begin = t * chunk, end = begin + chunk < m ? begin + chunk : m;
    if (nch > 1) {
        out_id[2 * t] = 0;
        out_id[2 * t + 1] = 0;
    }
    /* the keys just outside the chunk, read once: a run reaching a border goes on in the
     * neighbour's chunk when the neighbour's key is the same (keys never reach ~0u) */
    const uint32_t key_left = begin > 0 ? keys[begin - 1] : 0xffffffffu;
    const uint32_t key_right = end < m ? keys[end] : 0xffffffffu;
    uint32_t cur = keys[begin];
    size_t seg = begin;
    gpu_xyzz<F> acc;
    gpu_xyzz_set_inf(&acc);
    /* Keys and values are read two pairs ahead. G1 points are read one ahead too: a point's
     * address is then known an iteration before its load, and the load's latency (~200
     * registers a thread leave few warps an SM) lands under the addition before it. G2
     * points are read where they are used: the G2 addition alone fills the 255 registers,
     * and the 48 a point ahead take pushed it into local memory (H200, 92 M pairs in runs
     * of 44, s15: 1.775 ns a pair with the point ahead, 1.623 without; G1 0.404 with). */
    constexpr bool AHEAD = sizeof(F) == sizeof(gpu_fp);
    uint32_t k = cur, v = 0, k1 = 0xffffffffu, v1 = 0;
    gpu_aff<F> p;
    if (FROM_POINTS) {
        v = vals[begin];
        if (AHEAD && k != 0)
            p = msm_load_aff(points, v & 0x7fffffffu, vec);
    }
    if (begin + 1 < end) {
        k1 = keys[begin + 1];
        if (FROM_POINTS)
            v1 = vals[begin + 1];
    }
    for (size_t j = begin;; j++) {
        uint32_t k2 = 0xffffffffu, v2 = 0;
        gpu_aff<F> p1;
        if (j + 2 < end) {
            k2 = keys[j + 2];
            if (FROM_POINTS)
                v2 = vals[j + 2];
        }
        if (AHEAD && FROM_POINTS && j + 1 < end && k1 != 0)
            p1 = msm_load_aff(points, v1 & 0x7fffffffu, vec);
        if (k != cur) {
            if (cur != 0) {
                bool left = seg == begin && key_left == cur;
                bool right = j == end && key_right == cur;
                if (!left && !right) {
                    buckets[cur] = acc;
                } else if (left) {
                    out_id[2 * t] = cur;
                    out_pt[2 * t] = acc;
                    if (right) {
                        gpu_xyzz<F> inf;
                        gpu_xyzz_set_inf(&inf);
                        out_id[2 * t + 1] = cur;
                        out_pt[2 * t + 1] = inf;
                    }
                } else {
                    out_id[2 * t + 1] = cur;
                    out_pt[2 * t + 1] = acc;
                }
            }
            if (j == end)
                break;
            cur = k;
            seg = j;
            gpu_xyzz_set_inf(&acc);
        }
        if (k != 0) {
            if (FROM_POINTS) {
                if (!AHEAD)
                    p = msm_load_aff(points, v & 0x7fffffffu, vec);
                /* negated without a branch: half the lanes take it, and a divergent
                 * branch in this loop costs instruction fetches (ncu, session 10) */
                F ny = gf_neg(p.y);
                p.y = (v >> 31) ? ny : p.y;
                acc = gpu_xyzz_add_aff(acc, p);
            } else {
                acc = gpu_xyzz_add(acc, in_pt[j]);
            }
        }
        k = k1;
        v = v1;
        if (AHEAD)
            p = p1;
        k1 = k2;
        v1 = v2;
    }
}

/* Thread (w, g): buckets m in [lo, hi] = [g L + 1, (g + 1) L] of window w;
 * out = sum_m m B_m = (running sum: sum (m - lo + 1) B_m) + (lo - 1) * sum B_m. */
template <class F>
static __global__ void msm_bucket_reduce_kernel(gpu_xyzz<F> *gsum, const gpu_xyzz<F> *buckets,
                                         size_t nb, size_t groups, unsigned nwin)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (size_t)nwin * groups)
        return;
    size_t w = t / groups, g = t % groups, len = nb / groups;
    const gpu_xyzz<F> *b = buckets + w * (nb + 1);
    size_t lo = g * len + 1, hi = (g + 1) * len;
    gpu_xyzz<F> run, acc, mul;
    gpu_xyzz_set_inf(&run);
    gpu_xyzz_set_inf(&acc);
    gpu_xyzz_set_inf(&mul);
    for (size_t m = hi; m >= lo; m--) {
        run = gpu_xyzz_add(run, b[m]);
        acc = gpu_xyzz_add(acc, run);
    }
    size_t s = lo - 1;
    for (int bit = 63 - (s ? __clzll((long long)s) : 64); bit >= 0; bit--) {
        mul = gpu_xyzz_dbl(mul);
        if ((s >> bit) & 1)
            mul = gpu_xyzz_add(mul, run);
    }
    gsum[t] = gpu_xyzz_add(acc, mul);
}

/* Block w: sum of the window's group sums, through a tree in global scratch (XYZZ G2 points
 * would need 96 KiB of shared memory per block). */
template <class F>
static __global__ void msm_window_sum_kernel(gpu_xyzz<F> *wsum, gpu_xyzz<F> *tree,
                                      const gpu_xyzz<F> *gsum, size_t groups)
{
    unsigned w = blockIdx.x, tid = threadIdx.x;
    gpu_xyzz<F> acc;
    gpu_xyzz_set_inf(&acc);
    for (size_t g = tid; g < groups; g += MSM_TREE)
        acc = gpu_xyzz_add(acc, gsum[(size_t)w * groups + g]);
    gpu_xyzz<F> *tr = tree + (size_t)w * MSM_TREE;
    tr[tid] = acc;
    __syncthreads();
    for (unsigned s = MSM_TREE / 2; s > 0; s >>= 1) {
        if (tid < s)
            tr[tid] = gpu_xyzz_add(tr[tid], tr[tid + s]);
        __syncthreads();
    }
    if (tid == 0)
        wsum[w] = tr[0];
}

/* The host's XYZZ arithmetic of the group over F (same bytes as gpu_xyzz<F>). */
template <class F> struct msm_host_group;
template <> struct msm_host_group<gpu_fp> {
    typedef cuzk_g1_xyzz P;
    static void dbl(P *r, const P *a) { cuzk_g1_xyzz_dbl(r, a); }
    static void add(P *r, const P *a, const P *b) { cuzk_g1_xyzz_add(r, a, b); }
};
template <> struct msm_host_group<gpu_fp2> {
    typedef cuzk_g2_xyzz P;
    static void dbl(P *r, const P *a) { cuzk_g2_xyzz_dbl(r, a); }
    static void add(P *r, const P *a, const P *b) { cuzk_g2_xyzz_add(r, a, b); }
};

/* *res (device) = sum_w 2^(w c) S_w over the device window sums ws, Horner from the top
 * window on the host (file comment, step 6). Waits on the stream twice: for the window
 * sums, and for the result's copy to land before its host buffer goes. */
template <class F>
static cuzk_status msm_combine_host(gpu_xyzz<F> *res, const gpu_xyzz<F> *ws, unsigned nwin,
                                    unsigned c, cudaStream_t s, cuzk_error *err)
{
    typedef msm_host_group<F> G;
    typedef typename G::P P;
    static_assert(sizeof(P) == sizeof(gpu_xyzz<F>), "host and device XYZZ bytes");
    cuzk_status st = CUZK_OK;
    P w[(256u + MSM_MIN_C - 1) / MSM_MIN_C], acc, t;
    CUZK_CUDA_TRY(err, cudaMemcpyAsync(w, ws, nwin * sizeof(P), cudaMemcpyDeviceToHost, s));
    CUZK_CUDA_TRY(err, cudaStreamSynchronize(s));
    acc = w[nwin - 1];
    for (int i = (int)nwin - 2; i >= 0; i--) {
        for (unsigned b = 0; b < c; b++) {
            G::dbl(&t, &acc);
            acc = t;
        }
        G::add(&t, &acc, &w[i]);
        acc = t;
    }
    CUZK_CUDA_TRY(err, cudaMemcpyAsync(res, &acc, sizeof acc, cudaMemcpyHostToDevice, s));
    CUZK_CUDA_TRY(err, cudaStreamSynchronize(s));
fail:
    return st;
}

static inline unsigned msm_blocks(size_t threads, unsigned bs)
{
    return (unsigned)((threads + bs - 1) / bs);
}

/*
 * res (device XYZZ) = sum scalars[i] * points[i], i < pl->n; with idx, the subset
 * sum scalars[idx[j]] * points[idx[j]], j < pl->n (idx[j] < 2^31), read in place: the 0/1
 * split's tail needs no gathered copies of its points and scalars. Scalars are Montgomery
 * Fr. pl from msm_plan_make(n); base: the aligned scratch with at least pl->total bytes.
 * Enqueues, then waits on the stream for the window sums and combines them on the host.
 */
template <class F>
static cuzk_status msm_pippenger_run(gpu_xyzz<F> *res, const gpu_aff<F> *points,
                                     const cuzk_fr *scalars, const msm_plan *pl, uint8_t *base,
                                     cudaStream_t s, cuzk_error *err,
                                     const uint32_t *idx = NULL)
{
    cuzk_status st = CUZK_OK;
    const size_t n = pl->n;
    uint32_t *kc = (uint32_t *)(base + pl->off_kc); /* limb-major, stride n */
    uint32_t *ka = (uint32_t *)(base + pl->off_ka), *kb = (uint32_t *)(base + pl->off_kb);
    uint32_t *va = (uint32_t *)(base + pl->off_va), *vb = (uint32_t *)(base + pl->off_vb);
    gpu_xyzz<F> *bk = (gpu_xyzz<F> *)(base + pl->off_bk);
    uint32_t *ida = (uint32_t *)(base + pl->off_ida), *idb = (uint32_t *)(base + pl->off_idb);
    gpu_xyzz<F> *pa = (gpu_xyzz<F> *)(base + pl->off_pa), *pb = (gpu_xyzz<F> *)(base + pl->off_pb);
    gpu_xyzz<F> *gs = (gpu_xyzz<F> *)(base + pl->off_gs);
    gpu_xyzz<F> *tree = (gpu_xyzz<F> *)(base + pl->off_tree);
    gpu_xyzz<F> *ws = (gpu_xyzz<F> *)(base + pl->off_ws);
    const unsigned bs = 128;
    const bool vec = ((uintptr_t)points & 15u) == 0;

    gpu_prof_mark(s, "msm: canonical");
    msm_to_canonical_kernel<<<msm_blocks(n, 256), 256, 0, s>>>(
        kc, (const msm_scalar *)(const void *)scalars, idx, n);
    CUZK_CUDA_TRY(err, cudaGetLastError());
    /* every bucket starts at infinity (ZZ = 0); untouched buckets stay there */
    CUZK_CUDA_TRY(err, cudaMemsetAsync(bk, 0, (size_t)pl->nwin * (pl->nb + 1) * sizeof(gpu_xyzz<F>), s));
    for (unsigned w0 = 0; w0 < pl->nwin; w0 += pl->wpb) {
        unsigned nw = pl->nwin - w0 < pl->wpb ? pl->nwin - w0 : pl->wpb;
        size_t m = n * nw;
        gpu_prof_mark(s, "msm: digits");
        msm_digits_kernel<<<msm_blocks(m, 256), 256, 0, s>>>(ka, va, kc, idx, n, m, w0, pl->c,
                                                             (uint32_t)(pl->nb + 1));
        CUZK_CUDA_TRY(err, cudaGetLastError());
        gpu_prof_mark(s, "msm: sort");
        cub::DoubleBuffer<uint32_t> kd(ka, kb), vd(va, vb);
        size_t cub_bytes = pl->cub_bytes;
        CUZK_CUDA_TRY(err, cub::DeviceRadixSort::SortPairs(base + pl->off_cub, cub_bytes, kd, vd,
                                                           (int)m, 0, (int)pl->key_bits, s));
        gpu_xyzz<F> *bw = bk + (size_t)w0 * (pl->nb + 1);
        const unsigned chunk = msm_chunk(m);
        size_t nch = msm_div_up(m, chunk);
        gpu_prof_mark(s, "msm: accumulate");
        msm_accumulate_kernel<F, true><<<msm_blocks(nch, bs), bs, 0, s>>>(
            bw, ida, pa, kd.Current(), vd.Current(), points, NULL, m, chunk, vec);
        CUZK_CUDA_TRY(err, cudaGetLastError());
        /* cut runs: repeat on the slot list until one chunk holds it all */
        gpu_prof_mark(s, "msm: cut runs");
        m = nch > 1 ? 2 * nch : 0;
        uint32_t *in_id = ida, *out_id = idb;
        gpu_xyzz<F> *in_pt = pa, *out_pt = pb;
        while (m > 0) {
            nch = msm_div_up(m, MSM_CHUNK2);
            msm_accumulate_kernel<F, false><<<msm_blocks(nch, bs), bs, 0, s>>>(
                bw, out_id, out_pt, in_id, NULL, NULL, in_pt, m, MSM_CHUNK2, false);
            CUZK_CUDA_TRY(err, cudaGetLastError());
            m = nch > 1 ? 2 * nch : 0;
            uint32_t *ti = in_id;
            in_id = out_id;
            out_id = ti;
            gpu_xyzz<F> *tp = in_pt;
            in_pt = out_pt;
            out_pt = tp;
        }
    }
    gpu_prof_mark(s, "msm: bucket reduce");
    msm_bucket_reduce_kernel<F><<<msm_blocks((size_t)pl->nwin * pl->groups, 64), 64, 0, s>>>(
        gs, bk, pl->nb, pl->groups, pl->nwin);
    CUZK_CUDA_TRY(err, cudaGetLastError());
    gpu_prof_mark(s, "msm: window sums");
    msm_window_sum_kernel<F><<<pl->nwin, MSM_TREE, 0, s>>>(ws, tree, gs, pl->groups);
    CUZK_CUDA_TRY(err, cudaGetLastError());
    gpu_prof_mark(s, NULL);
    st = msm_combine_host<F>(res, ws, pl->nwin, pl->c, s, err);
fail:
    return st;
}

#endif /* CUZK_GPU_MSM_PIPPENGER_CUH */
