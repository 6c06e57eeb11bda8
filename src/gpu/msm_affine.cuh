/*
 * msm_affine.cuh — the MSM's bucket sums by batch-affine additions (the default plan,
 * msm_plan.h MSM_CAP_BA), written once over the coordinate field F.
 *
 * Why: the XYZZ accumulation (msm_pippenger.cuh) chains mixed additions of 8M + 2S in a
 * thread, and at 2^27 it is the integer multiplier's limit (0.44 ns a pair, 705 ms of a
 * PoRep partition). An affine addition is 2M + 1S once the inverse of x2 - x1 is known,
 * and Montgomery's trick shares one inversion over many independent additions for 3M
 * each: ~6M an addition. Independent additions need a different order than a chain:
 *
 * Input: one window batch's pairs sorted by key (bucket), (key, point index | sign), key 0
 * for zero digits (skipped). The batch is cut into slices of at most ba_slice pairs; a
 * slice is summed alone, and a run (bucket) that crosses a slice border is added into its
 * bucket in XYZZ by each slice it touches (slices go one after another on the stream, so
 * the two additions never race). Within a slice, with o the offset of a pair in its run:
 *   round r pairs the position j with o = 0 mod 2^(r+1) and j + 2^r in the same run, and
 *   j's running sum becomes the sum of [j, j + 2^(r+1)) of its run; after
 *   ceil(log2(longest run)) rounds a run's first position holds its bucket's sum.
 * Running sums live at pt[(j - slice start) / 2]: only positions that paired in round 0
 * (o even, j + 1 in the run) ever hold one, and no two of them share j / 2; every other
 * position's value is still its input point, read in place (negated by the sign bit).
 * A round is three kernels over its list of left positions j:
 *   1. denominators: per thread K = MSM_BA_K additions t, t + T, t + 2T, ... (coalesced
 *      across a warp), the prefix products of their denominators, the thread's product;
 *   2. inversion: per thread G = MSM_BA_G thread products, their prefix products, one
 *      inversion, and back: the inverse of each thread's product;
 *   3. sums: per thread its K additions backwards, each inverse from the running inverse
 *      and the stored prefix, the affine sum written back, and j appended to the next
 *      round's list when it pairs again (warp-aggregated atomics: list order is free,
 *      since each sum is a function of its inputs alone).
 * Kernels 1 and 3 classify each addition the same way from the same inputs, so the
 * denominators of 3 are those of 1: x2 != x1: (y2 - y1) / (x2 - x1); P == Q (y != 0):
 * 3 x^2 / 2y; P == -Q, a 2-torsion double, or either point at infinity: no division
 * (denominator 1) and the result is infinity or the other point. Infinity is (0, 0) as in
 * the inputs. So the sums are exact for every input, including repeated points.
 * The rounds a batch needs come from its longest run: one read-back a batch (a few per
 * MSM), so no round is launched in vain.
 * Threading: host functions enqueue on the caller's stream and wait on it once a batch.
 */
#ifndef CUZK_GPU_MSM_AFFINE_CUH
#define CUZK_GPU_MSM_AFFINE_CUH

#include "gpu/fp_inv.cuh"

enum { BA_SUM, BA_DBL, BA_RES_A, BA_RES_B, BA_RES_INF };

/* What one slice's kernels share (device pointers into the plan's scratch). */
template <class F> struct ba_slice {
    const uint32_t *keys, *vals;
    const gpu_aff<F> *points;
    gpu_aff<F> *pt;
    F *pre, *tot, *q;
    const uint32_t *start;
    uint32_t *cnt;
    gpu_xyzz<F> *buckets;
    uint32_t sb, se, m; /* the slice [sb, se) of the batch's m pairs */
    bool vec;
};

template <class F>
static __device__ __forceinline__ gpu_aff<F> ba_input(const ba_slice<F> &S, uint32_t j)
{
    uint32_t v = S.vals[j];
    gpu_aff<F> p = msm_load_aff(S.points, v & 0x7fffffffu, S.vec);
    if (v >> 31)
        p.y = gf_neg(p.y); /* -0 = 0: infinity stays (0, 0) */
    return p;
}

/* j's value in round r as the left of a pair: a running sum from round 1 on */
template <class F>
static __device__ __forceinline__ gpu_aff<F> ba_left(const ba_slice<F> &S, uint32_t j, unsigned r)
{
    return r == 0 ? ba_input(S, j) : S.pt[(j - S.sb) >> 1];
}

/* q's value in round r as the right of a pair: a running sum when q paired in round 0 */
template <class F>
static __device__ __forceinline__ gpu_aff<F> ba_right(const ba_slice<F> &S, uint32_t q, unsigned r)
{
    if (r > 0 && q + 1 < S.se && S.keys[q + 1] == S.keys[q])
        return S.pt[(q - S.sb) >> 1];
    return ba_input(S, q);
}

template <class F>
static __device__ __forceinline__ int ba_classify(const gpu_aff<F> &a, const gpu_aff<F> &b, F *d)
{
    if (gpu_aff_is_inf(a) || gpu_aff_is_inf(b)) {
        gf_set_one(d);
        return gpu_aff_is_inf(a) ? BA_RES_B : BA_RES_A;
    }
    F dx = gf_sub(b.x, a.x);
    if (!gf_is_zero(dx)) {
        *d = dx;
        return BA_SUM;
    }
    if (gf_eq(a.y, b.y) && !gf_is_zero(a.y)) {
        *d = gf_dbl(a.y);
        return BA_DBL;
    }
    gf_set_one(d);
    return BA_RES_INF;
}

/* the first position of j's run within the slice */
template <class F>
static __device__ __forceinline__ uint32_t ba_run_start(const ba_slice<F> &S, uint32_t j)
{
    uint32_t st = S.start[S.keys[j]];
    return st > S.sb ? st : S.sb;
}

/* Appends j where pred, one atomic a warp; every lane of the warp calls it. */
static __device__ __forceinline__ void ba_append(uint32_t *list, uint32_t *count, bool pred,
                                                 uint32_t j)
{
    unsigned mask = __ballot_sync(0xffffffffu, pred);
    if (!mask)
        return;
    unsigned lane = threadIdx.x & 31u;
    int leader = __ffs((int)mask) - 1;
    uint32_t base = 0;
    if ((int)lane == leader)
        base = atomicAdd(count, (uint32_t)__popc(mask));
    base = __shfl_sync(0xffffffffu, base, leader);
    if (pred)
        list[base + (uint32_t)__popc(mask & ((1u << lane) - 1u))] = j;
}

/* A run's sum into its bucket: stored, or added when the run goes on past the slice. */
template <class F>
static __device__ __forceinline__ void ba_to_bucket(const ba_slice<F> &S, uint32_t st, uint32_t key,
                                                    const gpu_aff<F> &sum)
{
    bool border = (st == S.sb && S.sb > 0 && S.keys[S.sb - 1] == key) ||
                  (S.keys[S.se - 1] == key && S.se < S.m && S.keys[S.se] == key);
    S.buckets[key] = border ? gpu_xyzz_add_aff(S.buckets[key], sum) : gpu_xyzz_from_aff(sum);
}

/* ---- kernels ------------------------------------------------------------------------ */

/* start[key] = the batch position of its run's first pair */
static __global__ void ba_heads_kernel(uint32_t *start, const uint32_t *keys, size_t m)
{
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= m)
        return;
    uint32_t k = keys[j];
    if (k != 0 && (j == 0 || keys[j - 1] != k))
        start[k] = (uint32_t)j;
}

/* cnt[MSM_BA_MAXRUN] = the longest run of the batch */
static __global__ void ba_maxrun_kernel(uint32_t *cnt, const uint32_t *start, const uint32_t *keys,
                                        size_t m)
{
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; /* every lane reaches the shuffles */
    uint32_t len = 0;
    if (j < m) {
        uint32_t k = keys[j];
        if (k != 0 && (j + 1 == m || keys[j + 1] != k))
            len = (uint32_t)j - start[k] + 1;
    }
    for (unsigned o = 16; o > 0; o >>= 1) {
        uint32_t other = __shfl_down_sync(0xffffffffu, len, o);
        len = other > len ? other : len;
    }
    if ((threadIdx.x & 31u) == 0 && len)
        atomicMax(cnt + MSM_BA_MAXRUN, len);
}

/* Round 0's list; a run of one pair in the slice goes to its bucket at once. */
template <class F> static __global__ void ba_list0_kernel(ba_slice<F> S, uint32_t *list)
{
    uint32_t j = S.sb + blockIdx.x * blockDim.x + threadIdx.x;
    bool pair = false;
    if (j < S.se) {
        uint32_t k = S.keys[j];
        if (k != 0) {
            uint32_t st = ba_run_start(S, j);
            bool right = j + 1 < S.se && S.keys[j + 1] == k;
            pair = right && ((j - st) & 1u) == 0;
            if (j == st && !right)
                ba_to_bucket(S, st, k, ba_input(S, j));
        }
    }
    ba_append(list, S.cnt, pair, j);
}

template <class F>
static __global__ void __launch_bounds__(128) ba_denominators_kernel(ba_slice<F> S, const uint32_t *list,
                                                                     unsigned r)
{
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x, c = S.cnt[r];
    uint32_t nthr = (c + MSM_BA_K - 1) / MSM_BA_K;
    if (t >= nthr)
        return;
    F p;
    for (uint32_t i = 0; i < MSM_BA_K; i++) {
        uint32_t e = i * nthr + t;
        if (e >= c)
            break;
        uint32_t j = list[e];
        F d;
        (void)ba_classify(ba_left(S, j, r), ba_right(S, j + (1u << r), r), &d);
        p = i == 0 ? d : gf_mul(p, d);
        S.pre[e] = p;
    }
    S.tot[t] = p;
}

template <class F> static __global__ void ba_invert_kernel(ba_slice<F> S, unsigned r)
{
    uint32_t g = blockIdx.x * blockDim.x + threadIdx.x, c = S.cnt[r];
    uint32_t nthr = (c + MSM_BA_K - 1) / MSM_BA_K;
    uint32_t t0 = g * MSM_BA_G;
    if (t0 >= nthr)
        return;
    uint32_t t1 = t0 + MSM_BA_G < nthr ? t0 + MSM_BA_G : nthr;
    F acc = S.tot[t0];
    S.q[t0] = acc;
    for (uint32_t t = t0 + 1; t < t1; t++) {
        acc = gf_mul(acc, S.tot[t]);
        S.q[t] = acc;
    }
    F inv = gf_inv(acc);
    for (uint32_t t = t1 - 1; t > t0; t--) {
        F T = S.tot[t];
        S.tot[t] = gf_mul(inv, S.q[t - 1]);
        inv = gf_mul(inv, T);
    }
    S.tot[t0] = inv;
}

template <class F>
static __global__ void __launch_bounds__(128) ba_sums_kernel(ba_slice<F> S, const uint32_t *list,
                                                             uint32_t *next, unsigned r)
{
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x, c = S.cnt[r];
    uint32_t nthr = (c + MSM_BA_K - 1) / MSM_BA_K;
    bool live = t < nthr;
    F rinv;
    if (live)
        rinv = S.tot[t];
    const uint32_t step = 2u << r;
    for (int i = (int)MSM_BA_K - 1; i >= 0; i--) {
        uint32_t e = (uint32_t)i * nthr + t, j = 0;
        bool again = false;
        if (live && e < c) {
            j = list[e];
            gpu_aff<F> a = ba_left(S, j, r), b = ba_right(S, j + (1u << r), r), s;
            F d;
            int kind = ba_classify(a, b, &d);
            F inv = i > 0 ? gf_mul(rinv, S.pre[e - nthr]) : rinv;
            rinv = gf_mul(rinv, d);
            if (kind == BA_SUM || kind == BA_DBL) {
                F num;
                if (kind == BA_SUM) {
                    num = gf_sub(b.y, a.y);
                } else {
                    F x2 = gf_sqr(a.x);
                    num = gf_add(gf_dbl(x2), x2);
                }
                F lam = gf_mul(num, inv);
                s.x = gf_sub(gf_sub(gf_sqr(lam), a.x), b.x);
                s.y = gf_sub(gf_mul(lam, gf_sub(a.x, s.x)), a.y);
            } else if (kind == BA_RES_A) {
                s = a;
            } else if (kind == BA_RES_B) {
                s = b;
            } else {
                gf_set_zero(&s.x);
                gf_set_zero(&s.y);
            }
            S.pt[(j - S.sb) >> 1] = s;
            uint32_t k = S.keys[j];
            again = ((j - ba_run_start(S, j)) & step) == 0 && j + step < S.se &&
                    S.keys[j + step] == k;
        }
        ba_append(next, S.cnt + r + 1, again, j);
    }
}

/* Each run of two or more pairs in the slice: its sum, at its first position, to its bucket. */
template <class F> static __global__ void ba_final_kernel(ba_slice<F> S)
{
    uint32_t j = S.sb + blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= S.se)
        return;
    uint32_t k = S.keys[j];
    if (k == 0 || j != ba_run_start(S, j) || j + 1 >= S.se || S.keys[j + 1] != k)
        return;
    ba_to_bucket(S, j, k, S.pt[(j - S.sb) >> 1]);
}

/* ---- host --------------------------------------------------------------------------- */

static inline unsigned ba_blocks(size_t threads, unsigned bs)
{
    return (unsigned)((threads + bs - 1) / bs);
}

/*
 * The buckets of one sorted window batch: keys, vals (m pairs) from the sort; buckets: the
 * batch's buckets (bucket key at buckets[key]), at infinity. pl: the plan (pl->ba), base
 * its scratch. Waits on the stream once, for the longest run.
 */
template <class F>
static cuzk_status msm_ba_accumulate(gpu_xyzz<F> *buckets, const uint32_t *keys, const uint32_t *vals,
                                     size_t m, const gpu_aff<F> *points, bool vec,
                                     const msm_plan *pl, uint8_t *base, cudaStream_t s,
                                     cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    uint32_t *cnt = (uint32_t *)(base + pl->off_ba_cnt);
    uint32_t *start = (uint32_t *)(base + pl->off_ba_start);
    uint32_t *lists[2] = {(uint32_t *)(base + pl->off_ba_la), (uint32_t *)(base + pl->off_ba_lb)};
    uint32_t maxrun = 0;
    const unsigned bs = 128;

    CUZK_CUDA_TRY(err, cudaMemsetAsync(cnt + MSM_BA_MAXRUN, 0, sizeof(uint32_t), s));
    ba_heads_kernel<<<ba_blocks(m, 256), 256, 0, s>>>(start, keys, m);
    CUZK_CUDA_TRY(err, cudaGetLastError());
    ba_maxrun_kernel<<<ba_blocks(m, 256), 256, 0, s>>>(cnt, start, keys, m);
    CUZK_CUDA_TRY(err, cudaGetLastError());
    CUZK_CUDA_TRY(err, cudaMemcpyAsync(&maxrun, cnt + MSM_BA_MAXRUN, sizeof maxrun,
                                       cudaMemcpyDeviceToHost, s));
    CUZK_CUDA_TRY(err, cudaStreamSynchronize(s));

    for (size_t sb = 0; sb < m; sb += pl->ba_slice) {
        size_t len = m - sb < pl->ba_slice ? m - sb : pl->ba_slice;
        ba_slice<F> S;
        S.keys = keys;
        S.vals = vals;
        S.points = points;
        S.pt = (gpu_aff<F> *)(base + pl->off_ba_pt);
        S.pre = (F *)(base + pl->off_ba_pre);
        S.tot = (F *)(base + pl->off_ba_tot);
        S.q = (F *)(base + pl->off_ba_q);
        S.start = start;
        S.cnt = cnt;
        S.buckets = buckets;
        S.sb = (uint32_t)sb;
        S.se = (uint32_t)(sb + len);
        S.m = (uint32_t)m;
        S.vec = vec;
        size_t longest = maxrun < len ? maxrun : len;
        unsigned rounds = 0;
        while (((size_t)1 << rounds) < longest)
            rounds++;
        CUZK_CUDA_TRY(err, cudaMemsetAsync(cnt, 0, MSM_BA_MAXRUN * sizeof(uint32_t), s));
        ba_list0_kernel<F><<<ba_blocks(len, 256), 256, 0, s>>>(S, lists[0]);
        CUZK_CUDA_TRY(err, cudaGetLastError());
        for (unsigned r = 0; r < rounds; r++) {
            /* lefts of round r own disjoint [j, j + 2^r]: at most len / (2^r + 1) */
            size_t most = len / (((size_t)1 << r) + 1) + 1;
            size_t thr = msm_div_up(most, MSM_BA_K);
            ba_denominators_kernel<F><<<ba_blocks(thr, bs), bs, 0, s>>>(S, lists[r & 1], r);
            CUZK_CUDA_TRY(err, cudaGetLastError());
            ba_invert_kernel<F><<<ba_blocks(msm_div_up(thr, MSM_BA_G), 64), 64, 0, s>>>(S, r);
            CUZK_CUDA_TRY(err, cudaGetLastError());
            ba_sums_kernel<F><<<ba_blocks(thr, bs), bs, 0, s>>>(S, lists[r & 1],
                                                                lists[(r + 1) & 1], r);
            CUZK_CUDA_TRY(err, cudaGetLastError());
        }
        ba_final_kernel<F><<<ba_blocks(len, 256), 256, 0, s>>>(S);
        CUZK_CUDA_TRY(err, cudaGetLastError());
    }
fail:
    return st;
}

#endif /* CUZK_GPU_MSM_AFFINE_CUH */
