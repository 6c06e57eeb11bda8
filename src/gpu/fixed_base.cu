/*
 * fixed_base.cu — batched fixed-base multiplication on the device (cuzk/gpu.h): r[i] =
 * k[i] * B for one base and hundreds of millions of scalars, the point vectors of a
 * development Groth16 key (a 32 GiB PoRep key: ~427 M G1 and ~33 M G2 points). Host
 * arrays in and out; the result is byte-identical to cuzk_g1s/g2s_fixed_mul_var.
 *
 * Table (built on the device, once per base and kept in the context): w-bit signed windows
 * as on the host (src/ec/fixed_batch_impl.h): nwin = ceil(256/w) windows of nent =
 * 2^(w-1) affine entries, t[i][e] = (e+1) 2^(wi) B. A canonical scalar (< r < 2^255) is
 * recoded into nwin digits d_i in [-2^(w-1), 2^(w-1)] (d = bits + carry; above 2^(w-1)
 * subtract 2^w and carry one), so k B = sum_i sign(d_i) t[i][|d_i| - 1]: at most nwin - 1
 * additions and no doublings. The entries themselves are made by the same kernels: entry
 * (i, e) is the sum of 2^(wi + b) B over the set bits b of e + 1 (the 2^j B, j < w nwin,
 * come from the host: w nwin doublings), normalised to affine like any result.
 *
 * Kernels (one thread a point):
 *   fb_mul_kernel        scalar Montgomery -> canonical (msm_scalar.cuh), digits on the
 *                        fly, XYZZ accumulation with mixed additions (ec.cuh, complete:
 *                        a doubling or P + (-P) cannot occur for canonical scalars, see
 *                        the host file, but would still be right), XYZZ out;
 *   fb_table_kernel      the table entries' XYZZ sums (above);
 *   fb_normalize_kernel  XYZZ -> affine with Montgomery's trick: thread t takes the K
 *                        points t, t + T, t + 2T, ... (coalesced across a warp), one
 *                        inversion (Fermat, a^(p-2)) for all K: 1/ZZZ, then 1/ZZ =
 *                        (ZZ/ZZZ)^2 since ZZ^3 = ZZZ^2. The prefix products live in the
 *                        output's x slots until the backward pass overwrites them.
 *                        ZZ = 0 (a zero scalar) gives (0, 0), the host's infinity.
 *
 * Cost (H200: one Fp multiplication ~9.5 SM-cycles per SM, 132 SMs at ~1.98 GHz, i.e.
 * ~27.5 G Fp multiplications a second). w = 20: 13 windows, <= 12 mixed additions of
 * 8M + 2S (+ ~7 additions/subtractions, ~1 M) ~ 11 M each = 132 M, normalisation 3 M
 * (the trick) + 4 M + 1 S (affine) + 570 M / 64 (the inversion shared by K = 64 points)
 * ~ 17 M: ~150 Fp multiplications = ~1,400 SM-cycles a G1 point, ~180 M G1 points/s on
 * the device. G2 (Fp2 multiplication = 3 M + additions ~ 3.5 M): ~435 M-equivalents,
 * ~63 M points/s. The 32 GiB PoRep key: 427 M G1 -> ~2.4 s, 33.1 M G2 -> ~0.5 s, tables
 * (6.8 M entries each, ~10 additions an entry) ~0.15 s: ~3 s of kernels. (Cross-check: the
 * MSM's accumulation does a G1 mixed XYZZ addition in 0.45 ns of device time, docs/perf.md;
 * 427 M x 12 of them is 2.3 s.) The copies (14 GB of scalars in, 47 GB of points out;
 * PCIe 5 at ~50 GB/s: ~1.2 s) overlap the kernels: two chunks in flight on two streams,
 * and while the device works on chunk c the host moves chunk c - 1 out of the pinned
 * staging and chunk c + 1 in (memcpy on the pool).
 *
 * Threading: one call at a time per context (documented in gpu.h); contexts on the same
 * or different devices are independent. Every CUDA call goes through CUZK_CUDA_TRY; an
 * error drains both streams and returns, the buffers stay owned by the context and are
 * released by destroy.
 */
/* explicit_bzero: g++ (nvcc's host compiler) defines _GNU_SOURCE, so string.h declares it */

#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/gpu.h"
#include "gpu/ec.cuh"
#include "gpu/gpu_check.cuh"
#include "gpu/msm_scalar.cuh"
#include "gpu/prof.cuh"

#define FB_THREADS 128u
#define FB_DEFAULT_W 20u
#define FB_MIN_W 8u
#define FB_MAX_W 22u
#define FB_DEFAULT_CHUNK ((size_t)1 << 22)
#define FB_MAX_CHUNK ((size_t)1 << 28)
/* points sharing one inversion in the normalisation (see fb_norm_k) */
#define FB_NORM_K_MAX 64u
/* table entries built per launch (their XYZZ sums sit in a temporary buffer) */
#define FB_TABLE_PIECE ((size_t)1 << 20)
/* host copies below this many bytes are not worth the pool's hand-off */
#define FB_COPY_GRAIN ((size_t)1 << 21)

/* ---- device field inversion --------------------------------------------------------- */

/* p - 2, little-endian 32-bit limbs */
#define FB_P_MINUS_2                                                                       \
    {0xffffaaa9u, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu, 0xf6b0f624u, 0x6730d2a0u,         \
     0xf38512bfu, 0x64774b84u, 0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau}

/* a^(p-2) = 1/a (0 for 0) by square-and-multiply, ~380 S + ~190 M: one per FB_NORM_K_MAX
 * points, so not worth a window table in local memory. */
static __device__ __noinline__ gpu_fp fb_fp_inv(gpu_fp a)
{
    const uint32_t e[12] = FB_P_MINUS_2;
    gpu_fp r = gpu_fp_one();
    bool started = false;
    for (int i = 11; i >= 0; i--)
        for (int b = 31; b >= 0; b--) {
            if (started)
                r = gpu_fp_sqr(r);
            if ((e[i] >> b) & 1) {
                r = started ? gpu_fp_mul(r, a) : a;
                started = true;
            }
        }
    return r;
}

static __device__ __forceinline__ gpu_fp fb_inv(gpu_fp a) { return fb_fp_inv(a); }

/* 1/(c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2) */
static __device__ __forceinline__ gpu_fp2 fb_inv(gpu_fp2 a)
{
    gpu_fp t = fb_fp_inv(gpu_fp_add(gpu_fp_sqr(a.c0), gpu_fp_sqr(a.c1)));
    gpu_fp2 r = {gpu_fp_mul(a.c0, t), gpu_fp_neg(gpu_fp_mul(a.c1, t))};
    return r;
}

/* ---- kernels ---------------------------------------------------------------------------- */

/* One affine point, 16 bytes at a time through the read-only path (tables and the
 * powers are cudaMalloc'd, so 16-byte aligned; a point is 96 or 192 bytes). */
template <class F> static __device__ __forceinline__ gpu_aff<F> fb_load(const gpu_aff<F> *p)
{
    static_assert(sizeof(gpu_aff<F>) % 16 == 0, "affine point not a multiple of 16 bytes");
    gpu_aff<F> r;
    const uint4 *q = (const uint4 *)(const void *)p;
    uint4 *d = (uint4 *)(void *)&r;
#pragma unroll
    for (unsigned i = 0; i < sizeof(gpu_aff<F>) / 16; i++)
        d[i] = __ldg(q + i);
    return r;
}

/* Bits [pos, pos + w) of the 256-bit canonical k (w <= 31); zero beyond bit 255. */
static __device__ __forceinline__ uint32_t fb_bits(const uint32_t *k, unsigned pos, unsigned w)
{
    unsigned li = pos >> 5, sh = pos & 31;
    uint64_t lo = li < 8 ? k[li] : 0;
    uint64_t hi = li + 1 < 8 ? k[li + 1] : 0;
    return (uint32_t)(((hi << 32 | lo) >> sh) & (((uint64_t)1 << w) - 1));
}

template <class F>
static __global__ void __launch_bounds__(FB_THREADS)
    fb_mul_kernel(gpu_xyzz<F> *acc, const msm_scalar *k, size_t n, const gpu_aff<F> *table,
                  unsigned w, unsigned nwin)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const msm_scalar s = msm_scalar_from_mont(k[i]);
    const uint32_t nent = 1u << (w - 1);
    const int32_t half = (int32_t)nent;
    gpu_xyzz<F> r;
    gpu_xyzz_set_inf(&r);
    int32_t carry = 0;
    for (unsigned win = 0; win < nwin; win++) {
        int32_t d = (int32_t)fb_bits(s.l, win * w, w) + carry;
        carry = d > half;
        d -= carry << w;
        if (d == 0)
            continue;
        gpu_aff<F> e = fb_load(table + (size_t)win * nent + (uint32_t)(d < 0 ? -d : d) - 1);
        if (d < 0)
            e.y = gf_neg(e.y);
        r = gpu_xyzz_add_aff(r, e);
    }
    acc[i] = r;
}

/* Entries [t0, t0 + m) of the table (entry t: window t / nent, multiple t % nent + 1) as
 * XYZZ sums of the powers pow2[j] = 2^j B. */
template <class F>
static __global__ void __launch_bounds__(FB_THREADS)
    fb_table_kernel(gpu_xyzz<F> *acc, const gpu_aff<F> *pow2, size_t t0, size_t m,
                    unsigned w)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m)
        return;
    const size_t nent = (size_t)1 << (w - 1);
    const size_t t = t0 + i;
    const unsigned win = (unsigned)(t / nent);
    const uint32_t mult = (uint32_t)(t % nent) + 1;
    gpu_xyzz<F> r;
    gpu_xyzz_set_inf(&r);
    for (unsigned b = 0; b < w; b++)
        if ((mult >> b) & 1)
            r = gpu_xyzz_add_aff(r, fb_load(pow2 + win * w + b));
    acc[i] = r;
}

/* out[i] = affine(in[i]) for i < n; thread t handles i = t + j T, j < kk (T threads). */
template <class F>
static __global__ void __launch_bounds__(FB_THREADS)
    fb_normalize_kernel(gpu_aff<F> *out, const gpu_xyzz<F> *in, size_t n, size_t T,
                        unsigned kk)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= T)
        return;
    F prod;
    gf_set_one(&prod);
    for (unsigned j = 0; j < kk; j++) {
        size_t i = t + (size_t)j * T;
        if (i >= n)
            break;
        F z = in[i].zzz;
        if (gf_is_zero(z))
            continue;
        out[i].x = prod; /* the prefix product before this point */
        prod = gf_mul(prod, z);
    }
    F inv = fb_inv(prod);
    for (unsigned j = kk; j-- > 0;) {
        size_t i = t + (size_t)j * T;
        if (i >= n)
            continue;
        const gpu_xyzz<F> p = in[i];
        gpu_aff<F> a;
        if (gf_is_zero(p.zzz)) {
            gf_set_zero(&a.x);
            gf_set_zero(&a.y);
        } else {
            F izzz = gf_mul(inv, out[i].x); /* 1/ZZZ */
            inv = gf_mul(inv, p.zzz);
            F izz = gf_sqr(gf_mul(p.zz, izzz)); /* (ZZ/ZZZ)^2 = 1/ZZ */
            a.x = gf_mul(p.x, izz);
            a.y = gf_mul(p.y, izzz);
        }
        out[i] = a;
    }
}

/* ---- host side ---------------------------------------------------------------------------- */

/* The host types of a group, for the table's powers of B. */
template <class F> struct fb_host;
template <> struct fb_host<gpu_fp> {
    typedef cuzk_g1_affine aff;
    typedef cuzk_g1_jac jac;
    typedef cuzk_fp fe;
    static const aff *generator(void) { return &CUZK_G1_GENERATOR; }
    static bool is_inf(const aff *a) { return cuzk_g1_affine_is_infinity(a); }
    static void from_aff(jac *r, const aff *a) { cuzk_g1_jac_from_affine(r, a); }
    static void dbl(jac *r, const jac *a) { cuzk_g1_jac_dbl(r, a); }
    static void to_aff(aff *r, const jac *a, size_t n, fe *s) { cuzk_g1s_jac_to_affine(r, a, n, s); }
    static const int group = 0;
};
template <> struct fb_host<gpu_fp2> {
    typedef cuzk_g2_affine aff;
    typedef cuzk_g2_jac jac;
    typedef cuzk_fp2 fe;
    static const aff *generator(void) { return &CUZK_G2_GENERATOR; }
    static bool is_inf(const aff *a) { return cuzk_g2_affine_is_infinity(a); }
    static void from_aff(jac *r, const aff *a) { cuzk_g2_jac_from_affine(r, a); }
    static void dbl(jac *r, const jac *a) { cuzk_g2_jac_dbl(r, a); }
    static void to_aff(aff *r, const jac *a, size_t n, fe *s) { cuzk_g2s_jac_to_affine(r, a, n, s); }
    static const int group = 1;
};

struct cuzk_gpu_fixed_base {
    int dev;
    size_t chunk;
    unsigned w, nwin;
    cuzk_pool *pool;
    cudaStream_t s[2];
    cudaEvent_t done[2];
    /* per group (0 = G1, 1 = G2): the device table and the base it was built for */
    void *d_table[2];
    bool have_base[2];
    cuzk_g2_affine base[2]; /* a G1 base occupies the first bytes */
    /* per slot: scalars, XYZZ sums, affine results on the device; pinned scalars and
     * results on the host; bytes each buffer holds */
    void *d_k[2], *d_acc[2], *d_out[2], *h_k[2], *h_out[2];
    size_t k_bytes, acc_bytes, out_bytes;
};

/* The normalisation's points per thread for a launch of n: up to FB_NORM_K_MAX, while at
 * least 2^16 threads remain (a few times what the device holds at once). */
static unsigned fb_norm_k(size_t n)
{
    size_t k = n >> 16;
    return k < 1 ? 1u : k > FB_NORM_K_MAX ? FB_NORM_K_MAX : (unsigned)k;
}

static unsigned fb_blocks(size_t n) { return (unsigned)((n + FB_THREADS - 1) / FB_THREADS); }

template <class F>
static cuzk_status fb_normalize(gpu_aff<F> *d_out, const gpu_xyzz<F> *d_in, size_t n,
                                cudaStream_t s, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    unsigned kk = fb_norm_k(n);
    size_t T = (n + kk - 1) / kk;
    fb_normalize_kernel<F><<<fb_blocks(T), FB_THREADS, 0, s>>>(d_out, d_in, n, T, kk);
    CUZK_CUDA_TRY(err, cudaGetLastError());
fail:
    return st;
}

typedef struct fb_copy_ctx {
    uint8_t *dst;
    const uint8_t *src;
} fb_copy_ctx;

static void fb_copy_fn(void *ctx, size_t begin, size_t end, unsigned wid)
{
    (void)wid;
    const fb_copy_ctx *c = (const fb_copy_ctx *)ctx;
    memcpy(c->dst + begin, c->src + begin, end - begin);
}

/* memcpy, spread over the pool when it is large enough to pay */
static void fb_memcpy(cuzk_pool *pool, void *dst, const void *src, size_t bytes)
{
    if (!pool || cuzk_pool_nthreads(pool) < 2 || bytes < 2 * FB_COPY_GRAIN) {
        memcpy(dst, src, bytes);
        return;
    }
    fb_copy_ctx c = {(uint8_t *)dst, (const uint8_t *)src};
    (void)cuzk_pool_for(pool, bytes, fb_copy_fn, &c, FB_COPY_GRAIN);
}

/* Frees one slot buffer kind of both slots (device or pinned). */
static void fb_free_dev(void **p)
{
    for (int i = 0; i < 2; i++) {
        if (p[i])
            CUZK_CUDA_IGNORE(cudaFree(p[i]));
        p[i] = NULL;
    }
}

static void fb_free_host(void **p, size_t bytes, bool wipe)
{
    for (int i = 0; i < 2; i++) {
        if (p[i]) {
            if (wipe)
                explicit_bzero(p[i], bytes);
            CUZK_CUDA_IGNORE(cudaFreeHost(p[i]));
        }
        p[i] = NULL;
    }
}

/* Makes the slot buffers hold `cap` points of group F (grows, never shrinks). */
template <class F> static cuzk_status fb_reserve(cuzk_gpu_fixed_base *fb, size_t cap, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    size_t kb = cap * sizeof(cuzk_fr), ab = cap * sizeof(gpu_xyzz<F>),
           ob = cap * sizeof(gpu_aff<F>);
    if (kb > fb->k_bytes) {
        fb_free_dev(fb->d_k);
        fb_free_host(fb->h_k, fb->k_bytes, true);
        fb->k_bytes = 0;
        for (int i = 0; i < 2; i++) {
            CUZK_CUDA_TRY(err, cudaMalloc(&fb->d_k[i], kb));
            CUZK_CUDA_TRY(err, cudaHostAlloc(&fb->h_k[i], kb, cudaHostAllocDefault));
        }
        fb->k_bytes = kb;
    }
    if (ab > fb->acc_bytes) {
        fb_free_dev(fb->d_acc);
        fb->acc_bytes = 0;
        for (int i = 0; i < 2; i++)
            CUZK_CUDA_TRY(err, cudaMalloc(&fb->d_acc[i], ab));
        fb->acc_bytes = ab;
    }
    if (ob > fb->out_bytes) {
        fb_free_dev(fb->d_out);
        fb_free_host(fb->h_out, fb->out_bytes, false);
        fb->out_bytes = 0;
        for (int i = 0; i < 2; i++) {
            CUZK_CUDA_TRY(err, cudaMalloc(&fb->d_out[i], ob));
            CUZK_CUDA_TRY(err, cudaHostAlloc(&fb->h_out[i], ob, cudaHostAllocDefault));
        }
        fb->out_bytes = ob;
    }
    return CUZK_OK;
fail:
    /* a half-made kind: free it whole and forget its size, so the next call retries */
    if (!fb->k_bytes) {
        fb_free_dev(fb->d_k);
        fb_free_host(fb->h_k, 0, false);
    }
    if (!fb->acc_bytes)
        fb_free_dev(fb->d_acc);
    if (!fb->out_bytes) {
        fb_free_dev(fb->d_out);
        fb_free_host(fb->h_out, 0, false);
    }
    return st;
}

/* The table of base's multiples for group F on the device (built unless it is there). */
template <class F>
static cuzk_status fb_table(cuzk_gpu_fixed_base *fb, const typename fb_host<F>::aff *base,
                            cuzk_error *err)
{
    typedef fb_host<F> H;
    const int g = H::group;
    if (fb->have_base[g] && memcmp(&fb->base[g], base, sizeof *base) == 0)
        return CUZK_OK;
    cuzk_status st = CUZK_OK;
    const unsigned nb = fb->w * fb->nwin;
    const size_t nent = (size_t)1 << (fb->w - 1), total = (size_t)fb->nwin * nent;
    typename H::jac *pj = (typename H::jac *)malloc(nb * sizeof *pj);
    typename H::aff *pa = (typename H::aff *)malloc(nb * sizeof *pa);
    typename H::fe *ps = (typename H::fe *)malloc(nb * sizeof *ps);
    gpu_aff<F> *d_pow2 = NULL;
    gpu_xyzz<F> *d_tmp = NULL;
    size_t piece = total < FB_TABLE_PIECE ? total : FB_TABLE_PIECE;
    cudaStream_t s = fb->s[0];
    fb->have_base[g] = false;
    if (!pj || !pa || !ps) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "gpu fixed-base: no host memory");
        goto fail;
    }
    /* 2^j B for j < w nwin (the doublings of the table, on the host) */
    H::from_aff(&pj[0], base);
    for (unsigned j = 1; j < nb; j++)
        H::dbl(&pj[j], &pj[j - 1]);
    H::to_aff(pa, pj, nb, ps);
    if (!fb->d_table[g])
        CUZK_CUDA_TRY(err, cudaMalloc(&fb->d_table[g], total * sizeof(gpu_aff<F>)));
    CUZK_CUDA_TRY(err, cudaMalloc(&d_pow2, nb * sizeof(gpu_aff<F>)));
    CUZK_CUDA_TRY(err, cudaMalloc(&d_tmp, piece * sizeof(gpu_xyzz<F>)));
    CUZK_CUDA_TRY(err, cudaMemcpyAsync(d_pow2, pa, nb * sizeof(gpu_aff<F>),
                                       cudaMemcpyHostToDevice, s));
    for (size_t t0 = 0; t0 < total; t0 += piece) {
        size_t m = total - t0 < piece ? total - t0 : piece;
        fb_table_kernel<F><<<fb_blocks(m), FB_THREADS, 0, s>>>(d_tmp, d_pow2, t0, m, fb->w);
        CUZK_CUDA_TRY(err, cudaGetLastError());
        if ((st = fb_normalize<F>((gpu_aff<F> *)fb->d_table[g] + t0, d_tmp, m, s, err)) !=
            CUZK_OK)
            goto fail;
    }
    CUZK_CUDA_TRY(err, cudaStreamSynchronize(s));
    memset(&fb->base[g], 0, sizeof fb->base[g]);
    memcpy(&fb->base[g], base, sizeof *base);
    fb->have_base[g] = true;
fail:
    CUZK_CUDA_IGNORE(cudaStreamSynchronize(s));
    if (d_pow2)
        CUZK_CUDA_IGNORE(cudaFree(d_pow2));
    if (d_tmp)
        CUZK_CUDA_IGNORE(cudaFree(d_tmp));
    free(pj);
    free(pa);
    free(ps);
    return st;
}

/* Enqueues chunk c (points [off, off + m)) on slot c & 1: upload, multiply, normalise,
 * download, event. The host has already put the scalars into h_k of the slot. */
template <class F>
static cuzk_status fb_enqueue(cuzk_gpu_fixed_base *fb, int slot, size_t m, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    const int g = fb_host<F>::group;
    cudaStream_t s = fb->s[slot];
    gpu_xyzz<F> *acc = (gpu_xyzz<F> *)fb->d_acc[slot];
    gpu_aff<F> *out = (gpu_aff<F> *)fb->d_out[slot];
    gpu_prof_mark(s, "fixed_base_upload");
    CUZK_CUDA_TRY(err, cudaMemcpyAsync(fb->d_k[slot], fb->h_k[slot], m * sizeof(cuzk_fr),
                                       cudaMemcpyHostToDevice, s));
    gpu_prof_mark(s, "fixed_base_mul");
    fb_mul_kernel<F><<<fb_blocks(m), FB_THREADS, 0, s>>>(
        acc, (const msm_scalar *)fb->d_k[slot], m, (const gpu_aff<F> *)fb->d_table[g], fb->w,
        fb->nwin);
    CUZK_CUDA_TRY(err, cudaGetLastError());
    gpu_prof_mark(s, "fixed_base_normalize");
    if ((st = fb_normalize<F>(out, acc, m, s, err)) != CUZK_OK)
        return st;
    gpu_prof_mark(s, "fixed_base_download");
    CUZK_CUDA_TRY(err, cudaMemcpyAsync(fb->h_out[slot], out, m * sizeof(gpu_aff<F>),
                                       cudaMemcpyDeviceToHost, s));
    gpu_prof_mark(s, NULL);
    CUZK_CUDA_TRY(err, cudaEventRecord(fb->done[slot], s));
fail:
    return st;
}

template <class F>
static cuzk_status fb_run(cuzk_gpu_fixed_base *fb, typename fb_host<F>::aff *r,
                          const typename fb_host<F>::aff *base, const cuzk_fr *k, size_t n,
                          cuzk_error *err)
{
    typedef fb_host<F> H;
    static_assert(sizeof(gpu_aff<F>) == sizeof(typename H::aff), "device affine layout");
    static_assert(sizeof(msm_scalar) == sizeof(cuzk_fr), "device scalar layout");
    if (!fb || (n && (!r || !k)))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "gpu fixed-base: NULL argument");
    if (!base)
        base = H::generator();
    if (H::is_inf(base))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "gpu fixed-base: base at infinity");
    if (n == 0)
        return CUZK_OK;
    cuzk_status st = CUZK_OK;
    const size_t cap = n < fb->chunk ? n : fb->chunk;
    const size_t nchunks = (n + cap - 1) / cap;
    size_t c = 0;
    CUZK_CUDA_TRY(err, cudaSetDevice(fb->dev));
    if ((st = fb_table<F>(fb, base, err)) != CUZK_OK || (st = fb_reserve<F>(fb, cap, err)) != CUZK_OK)
        return st;
    for (c = 0; c < nchunks; c++) {
        int slot = (int)(c & 1);
        if (c >= 2) { /* chunk c - 2 used this slot: take its points out first */
            size_t p = (c - 2) * cap, m = n - p < cap ? n - p : cap;
            CUZK_CUDA_TRY(err, cudaEventSynchronize(fb->done[slot]));
            fb_memcpy(fb->pool, r + p, fb->h_out[slot], m * sizeof *r);
        }
        size_t p = c * cap, m = n - p < cap ? n - p : cap;
        fb_memcpy(fb->pool, fb->h_k[slot], k + p, m * sizeof *k);
        if ((st = fb_enqueue<F>(fb, slot, m, err)) != CUZK_OK)
            goto fail;
    }
    for (c = nchunks >= 2 ? nchunks - 2 : 0; c < nchunks; c++) {
        int slot = (int)(c & 1);
        size_t p = c * cap, m = n - p < cap ? n - p : cap;
        CUZK_CUDA_TRY(err, cudaEventSynchronize(fb->done[slot]));
        fb_memcpy(fb->pool, r + p, fb->h_out[slot], m * sizeof *r);
    }
    /* the scalars are derived from a setup's toxic waste: leave none behind (the bytes
     * this call used of each slot) */
    for (int i = 0; i < 2 && (size_t)i < nchunks; i++) {
        explicit_bzero(fb->h_k[i], cap * sizeof *k);
        CUZK_CUDA_TRY(err, cudaMemsetAsync(fb->d_k[i], 0, cap * sizeof *k, fb->s[i]));
    }
    for (int i = 0; i < 2; i++)
        CUZK_CUDA_TRY(err, cudaStreamSynchronize(fb->s[i]));
    return CUZK_OK;
fail:
    for (int i = 0; i < 2; i++) {
        CUZK_CUDA_IGNORE(cudaStreamSynchronize(fb->s[i]));
        if (fb->h_k[i])
            explicit_bzero(fb->h_k[i], fb->k_bytes);
    }
    (void)cudaGetLastError();
    return st;
}

/* "4194304", "4096K", "4M" -> a count; false if malformed */
static bool fb_parse_count(const char *v, size_t *out)
{
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    int sh = *end == 'K' ? 10 : *end == 'M' ? 20 : 0;
    if (end == v || (sh && *++end) || *end || x == 0 || x > (FB_MAX_CHUNK >> sh))
        return false;
    *out = (size_t)x << sh;
    return true;
}

/* The chunk of opts.chunk 0: the environment's, else the default; false when the
 * environment's is malformed (*out is the default then). */
static bool fb_env_chunk(size_t *out)
{
    const char *v = getenv("CUZK_GPU_FIXED_BASE_CHUNK");
    *out = FB_DEFAULT_CHUNK;
    if (v && *v && !fb_parse_count(v, out)) {
        *out = FB_DEFAULT_CHUNK;
        return false;
    }
    return true;
}

extern "C" size_t cuzk_gpu_fixed_base_host_bytes(const cuzk_gpu_fixed_base_opts *opts)
{
    size_t chunk = opts ? opts->chunk : 0;
    if (chunk == 0)
        (void)fb_env_chunk(&chunk);
    if (chunk > FB_MAX_CHUNK)
        chunk = FB_MAX_CHUNK;
    return 2 * chunk * (sizeof(cuzk_fr) + sizeof(cuzk_g2_affine));
}

extern "C" cuzk_status cuzk_gpu_fixed_base_create(cuzk_gpu_fixed_base **out, int device,
                                                  const cuzk_gpu_fixed_base_opts *opts,
                                                  cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "gpu fixed-base: NULL argument");
    *out = NULL;
    cuzk_gpu_fixed_base_opts o;
    memset(&o, 0, sizeof o);
    if (opts)
        o = *opts;
    int count = cuzk_gpu_device_count();
    if (device < 0 || device >= count)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "gpu fixed-base: gpu:%d: %d CUDA device(s) present", device,
                              count);
    if (o.window == 0) {
        const char *v = getenv("CUZK_GPU_FIXED_BASE_WINDOW");
        char *end = NULL;
        unsigned long x = v && *v ? strtoul(v, &end, 10) : FB_DEFAULT_W;
        if (v && *v && (*end || x < FB_MIN_W || x > FB_MAX_W))
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                  "CUZK_GPU_FIXED_BASE_WINDOW=%s: want %u..%u bits", v,
                                  FB_MIN_W, FB_MAX_W);
        o.window = (unsigned)x;
    }
    if (o.window < FB_MIN_W || o.window > FB_MAX_W)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "gpu fixed-base: window %u bits outside %u..%u", o.window,
                              FB_MIN_W, FB_MAX_W);
    if (o.chunk == 0 && !fb_env_chunk(&o.chunk))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "CUZK_GPU_FIXED_BASE_CHUNK=%s: want a point count from 1 "
                              "to 2^28 (suffix K or M)",
                              getenv("CUZK_GPU_FIXED_BASE_CHUNK"));
    if (o.chunk > FB_MAX_CHUNK)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "gpu fixed-base: chunk %zu above 2^28 points", o.chunk);
    cuzk_status st = CUZK_OK;
    cuzk_gpu_fixed_base *fb = (cuzk_gpu_fixed_base *)calloc(1, sizeof *fb);
    if (!fb)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "gpu fixed-base: no host memory");
    fb->dev = device;
    fb->chunk = o.chunk;
    fb->w = o.window;
    fb->nwin = (256u + o.window - 1) / o.window;
    fb->pool = o.pool;
    CUZK_CUDA_TRY(err, cudaSetDevice(device));
    for (int i = 0; i < 2; i++) {
        CUZK_CUDA_TRY(err, cudaStreamCreateWithFlags(&fb->s[i], cudaStreamNonBlocking));
        CUZK_CUDA_TRY(err, cudaEventCreateWithFlags(&fb->done[i], cudaEventDisableTiming));
    }
    *out = fb;
    return CUZK_OK;
fail:
    cuzk_gpu_fixed_base_destroy(fb);
    return st;
}

extern "C" void cuzk_gpu_fixed_base_destroy(cuzk_gpu_fixed_base *fb)
{
    if (!fb)
        return;
    CUZK_CUDA_IGNORE(cudaSetDevice(fb->dev));
    for (int i = 0; i < 2; i++)
        if (fb->s[i])
            CUZK_CUDA_IGNORE(cudaStreamSynchronize(fb->s[i]));
    fb_free_dev(fb->d_k);
    fb_free_dev(fb->d_acc);
    fb_free_dev(fb->d_out);
    fb_free_host(fb->h_k, fb->k_bytes, true);
    fb_free_host(fb->h_out, fb->out_bytes, false);
    for (int g = 0; g < 2; g++)
        if (fb->d_table[g])
            CUZK_CUDA_IGNORE(cudaFree(fb->d_table[g]));
    for (int i = 0; i < 2; i++) {
        if (fb->done[i])
            CUZK_CUDA_IGNORE(cudaEventDestroy(fb->done[i]));
        if (fb->s[i])
            CUZK_CUDA_IGNORE(cudaStreamDestroy(fb->s[i]));
    }
    free(fb);
}

extern "C" cuzk_status cuzk_gpu_g1s_fixed_mul(cuzk_gpu_fixed_base *fb, cuzk_g1_affine *r,
                                              const cuzk_g1_affine *base, const cuzk_fr *k,
                                              size_t n, cuzk_error *err)
{
    return fb_run<gpu_fp>(fb, r, base, k, n, err);
}

extern "C" cuzk_status cuzk_gpu_g2s_fixed_mul(cuzk_gpu_fixed_base *fb, cuzk_g2_affine *r,
                                              const cuzk_g2_affine *base, const cuzk_fr *k,
                                              size_t n, cuzk_error *err)
{
    return fb_run<gpu_fp2>(fb, r, base, k, n, err);
}
