/*
 * ntt.cu — the NTT family on the device (cuzk/gpu.h): device domains, the four
 * natural-order transforms and the Groth16 quotient H in the bellperson and snarkjs
 * styles, bit-identical to src/poly (field arithmetic is exact and every element is
 * fully reduced, so any correct schedule gives the host's bytes).
 *
 * Threading: a device domain is read-only after create and may be shared by streams and
 * threads; the transforms are asynchronous on the caller's stream (see cuzk/gpu.h).
 *
 * Schedule (n = 2^k). A transform is P = ceil(k / 10) global passes (sizes s_1..s_P,
 * s_P the largest); each pass does its s radix-2 stages in shared memory on tiles of
 * 2^min(k,10) elements, two stages per round (radix 4 in registers, 4 elements a thread).
 * Passes are the "four-step" factorisation: pass i runs a pure 2^s-point DIF on columns of
 * stride 2^lo (lo = number of index bits below the pass) with the twiddles of the
 * primitive 2^s-th root only, then multiplies element (h, r, c) by the twist
 *     omega^(2^hi * c * rev_s(r))            (hi = index bits above the pass)
 * so every butterfly reads its twiddle from one small table and the only extra work is
 * one twist per element per non-final pass. The output is in bit-reversed order. The DIT
 * transform (bit-reversed in, natural out) is the transpose: the passes in reverse order,
 * twist before the pure DIT sub-transform. Twists and coset scalings c * g^e, e < n,
 * come from two-level tables (t_lo[e mod 2^L] * t_hi[e >> L], L = ceil(k/2)), a few MiB
 * at k = 28; inverse twists read omega^(n - e). The twists of passes with hi >= k - 19
 * (all of them up to k = 19, the middle pass at k = 27) are multiples of 2^hi and come
 * from one load of a one-level table of at most 2^19 entries (16 MiB) instead: a load
 * from L2 is cheaper than a multiplication. Stage 0 of every sub-transform has twiddle
 * 1 and skips its multiplication.
 * Everything element-wise is fused into a pass: coset shift into the first DIF pass,
 * 1/n and n^-1 g^(+-rev(i)) into the last one, a := a*b - c into the last DIT pass of c
 * (snarkjs, whose key's H points absorb 1/Z), or a := a*b into b's and a := (a - c)/Z
 * into c's (bellperson, so that c can be evaluated into b's buffer between the two).
 * Natural order out costs one in-place bit-reversal pass (16 x 16 tile pairs swapped
 * through shared memory, so every global access is a 512-byte run).
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/gpu.h"
#include "gpu/fr.cuh"
#include "gpu/gpu_check.cuh"
#include "gpu/prof.cuh"

#define NTT_TILE_LOG 10u  /* 2^10 elements = 32 KiB of shared memory per block */
#define NTT_EPT 4u        /* elements per thread */
#define NTT_THREADS (1u << NTT_TILE_LOG) / NTT_EPT
#define NTT_MAX_PASSES 3u /* ceil(28 / 10) */
#define BITREV_RB 4u      /* bit-reversal tiles of 2^4 x 2^4 */
#define TW1_LOG 19u       /* one-level twist table: at most 2^19 entries (16 MiB) */

/* Two-level table of c * g^e for e < 2^k: lo[e & (2^L - 1)] * hi[e >> L]. */
typedef struct pow_table {
    const gpu_fr *lo, *hi;
} pow_table;

struct cuzk_gpu_domain {
    unsigned k, L;
    cuzk_domain_convention convention;
    unsigned npass, s[NTT_MAX_PASSES], smax; /* pass sizes; smax = s[npass - 1] */
    cuzk_fr n_inv, z_coset_inv;
    gpu_fr *d_tables;        /* the one allocation below */
    const gpu_fr *wtab[2];   /* [inverse] powers W^(+-e), e < 2^(smax-1), W = omega^(n/2^smax) */
    pow_table omega;         /* omega^e (inverse: omega^(n - e)) */
    pow_table coset;         /* g^e */
    pow_table inv_coset;     /* n^-1 g^e */
    pow_table inv_coset_inv; /* n^-1 g^-e */
    /* omega^(j 2^tw1_shift), j < 2^(k - tw1_shift): twists of the passes with hi >=
     * tw1_shift in one load instead of a two-level product; at most 2^TW1_LOG entries */
    const gpu_fr *tw1;
    unsigned tw1_shift;
};

/* What the last DIT pass of a fused quotient writes to h_a (x: the pass's output). */
enum ntt_h_mode {
    NTT_H_NONE = 0,
    NTT_H_MUL_SUB = 1, /* h_a * h_b - x (snarkjs) */
    NTT_H_MUL = 2,     /* h_a * x */
    NTT_H_SUB = 3,     /* (h_a - x) / Z (bellperson) */
};

/* What one pass kernel does; passed by value. */
typedef struct ntt_pass {
    gpu_fr *a;            /* data, transformed in place */
    const gpu_fr *wtab;   /* sub-transform twiddles for the direction */
    pow_table omega;      /* twist table */
    const gpu_fr *tw1;    /* one-level twist table omega^(j 2^tw1_shift), or NULL */
    pow_table pre;        /* DIF: x[i] *= pre(i) at load (natural index i); lo == NULL: none */
    pow_table post;       /* DIF: x[i] *= post(rev_k(i)) at store; lo == NULL: none */
    gpu_fr post_c;        /* DIF: x *= post_c at store when post_const */
    gpu_fr *h_a;          /* DIT fused H (h_fuse, an ntt_h_mode): h_a[i] := ... */
    const gpu_fr *h_b;
    gpu_fr h_z;
    uint32_t k, s, lo, hi, logc, logh, tile_log, wshift, L, tw1_shift;
    uint32_t dit, inverse, post_const, h_fuse;
} ntt_pass;

/*
 * The tile in shared memory: element t's two 16-byte halves at slot sw(t) of two uint4
 * arrays, so every access is one 128-bit instruction. sw XORs the 3 low bits (the 16-byte
 * bank slot) with a function of bits 3..5; found by enumerating the round access patterns
 * (stride 2^pos, radix 2 and 4): conflict-free for all but the radix-2 round at pos = 3
 * (2-way), where the plain layout had up to 4-way conflicts at pos < 3.
 */
__device__ __forceinline__ uint32_t ntt_sw(uint32_t t)
{
    uint32_t h = (t >> 3) & 7u;
    return t ^ (h ^ ((h & 3u) << 1));
}

__device__ __forceinline__ void sm_ld(gpu_fr *x, const uint4 *lo, const uint4 *hi, uint32_t t)
{
    uint32_t j = ntt_sw(t);
    uint4 u = lo[j], v = hi[j];
    x->l[0] = u.x, x->l[1] = u.y, x->l[2] = u.z, x->l[3] = u.w;
    x->l[4] = v.x, x->l[5] = v.y, x->l[6] = v.z, x->l[7] = v.w;
}

__device__ __forceinline__ void sm_st(uint4 *lo, uint4 *hi, uint32_t t, const gpu_fr *x)
{
    uint32_t j = ntt_sw(t);
    lo[j] = make_uint4(x->l[0], x->l[1], x->l[2], x->l[3]);
    hi[j] = make_uint4(x->l[4], x->l[5], x->l[6], x->l[7]);
}

__device__ __forceinline__ uint32_t ntt_rev(uint32_t x, uint32_t bits)
{
    return bits == 0 ? 0u : __brev(x) >> (32u - bits);
}

__device__ __forceinline__ void ntt_pow(gpu_fr *r, const pow_table *t, uint32_t L, uint32_t e)
{
    gpu_fr lo, hi;
    gpu_fr_load_ro(&lo, t->lo + (e & ((1u << L) - 1u)));
    gpu_fr_load_ro(&hi, t->hi + (e >> L));
    gpu_fr_mul(r, &lo, &hi);
}

/* The twist of tile element t (see the file comment). */
__device__ __forceinline__ void ntt_twist(gpu_fr *x, const ntt_pass *p, uint32_t c0, uint32_t t)
{
    uint32_t c = c0 + (t & ((1u << p->logc) - 1u));
    uint32_t r = (t >> p->logc) & ((1u << p->s) - 1u);
    uint32_t e = (c * ntt_rev(r, p->s)) << p->hi;
    if (p->inverse)
        e = (0u - e) & ((1u << p->k) - 1u);
    gpu_fr w;
    if (p->tw1) /* e is a multiple of 2^hi, hi >= tw1_shift */
        gpu_fr_load_ro(&w, p->tw1 + (e >> p->tw1_shift));
    else
        ntt_pow(&w, &p->omega, p->L, e);
    gpu_fr_mul(x, x, &w);
}

/* Twiddle of the butterfly whose lower element has sub-transform row r, at stage b. */
__device__ __forceinline__ void ntt_twiddle(gpu_fr *w, const ntt_pass *p, uint32_t r, uint32_t b)
{
    uint32_t e = (r & ((1u << b) - 1u)) << (p->s - 1u - b);
    gpu_fr_load_ro(w, p->wtab + (e << p->wshift));
}

/* one: the twiddle is 1 (stage 0, uniform over the block), w is not read */
__device__ __forceinline__ void ntt_bfly(gpu_fr *x, gpu_fr *y, const gpu_fr *w, bool dit,
                                         bool one)
{
    gpu_fr t;
    if (one) {
        gpu_fr_sub(&t, x, y);
        gpu_fr_add(x, x, y);
        *y = t;
    } else if (dit) {
        gpu_fr_mul(&t, y, w);
        gpu_fr_sub(y, x, &t);
        gpu_fr_add(x, x, &t);
    } else {
        gpu_fr_sub(&t, x, y);
        gpu_fr_add(x, x, y);
        gpu_fr_mul(y, &t, w);
    }
}

/* One round: stages bl .. bl+nst-1 (nst = 1 or 2) over the tile in shared memory. */
__device__ __forceinline__ void ntt_round(uint4 *sl, uint4 *sh, const ntt_pass *p, uint32_t bl,
                                          uint32_t nst)
{
    const uint32_t te = 1u << p->tile_log;
    const uint32_t pos = p->logc + bl; /* tile bit of stage bl */
    const uint32_t groups = NTT_EPT >> nst;
    const uint32_t smask = (1u << p->s) - 1u;
    for (uint32_t g = 0; g < groups; g++) {
        uint32_t u = threadIdx.x * groups + g;
        uint32_t base = ((u >> pos) << (pos + nst)) | (u & ((1u << pos) - 1u));
        if (base >= te)
            continue;
        gpu_fr x[4], w;
#pragma unroll
        for (uint32_t q = 0; q < 4; q++)
            if (q < (1u << nst))
                sm_ld(&x[q], sl, sh, base + (q << pos));
        uint32_t r0 = (base >> p->logc) & smask; /* row of x[0]; x[q] adds q << bl */
        const bool one = bl == 0; /* stage 0 multiplies by 1 */
        if (nst == 1) {
            if (bl)
                ntt_twiddle(&w, p, r0, bl);
            ntt_bfly(&x[0], &x[1], &w, p->dit, one);
        } else if (!p->dit) {
            ntt_twiddle(&w, p, r0, bl + 1);
            ntt_bfly(&x[0], &x[2], &w, false, false);
            ntt_twiddle(&w, p, r0 + (1u << bl), bl + 1);
            ntt_bfly(&x[1], &x[3], &w, false, false);
            if (bl)
                ntt_twiddle(&w, p, r0, bl);
            ntt_bfly(&x[0], &x[1], &w, false, one);
            ntt_bfly(&x[2], &x[3], &w, false, one); /* r0 + 2^(bl+1): same bits below bl */
        } else {
            if (bl)
                ntt_twiddle(&w, p, r0, bl);
            ntt_bfly(&x[0], &x[1], &w, true, one);
            ntt_bfly(&x[2], &x[3], &w, true, one);
            ntt_twiddle(&w, p, r0, bl + 1);
            ntt_bfly(&x[0], &x[2], &w, true, false);
            ntt_twiddle(&w, p, r0 + (1u << bl), bl + 1);
            ntt_bfly(&x[1], &x[3], &w, true, false);
        }
#pragma unroll
        for (uint32_t q = 0; q < 4; q++)
            if (q < (1u << nst))
                sm_st(sl, sh, base + (q << pos), &x[q]);
    }
    __syncthreads();
}

__global__ void __launch_bounds__(NTT_THREADS) ntt_pass_kernel(const ntt_pass p)
{
    __shared__ uint4 sl[1u << NTT_TILE_LOG], sh[1u << NTT_TILE_LOG];
    const uint32_t te = 1u << p.tile_log;
    /* tile = (hh: logh bits)(r: s bits)(c: logc bits); blocks walk column groups first */
    const uint32_t cg_log = p.lo - p.logc;
    const uint32_t bid = blockIdx.x;
    const uint32_t c0 = (bid & ((1u << cg_log) - 1u)) << p.logc;
    const uint32_t h0 = (bid >> cg_log) << p.logh;
    const uint32_t cmask = (1u << p.logc) - 1u, smask = (1u << p.s) - 1u;

#pragma unroll
    for (uint32_t q = 0; q < NTT_EPT; q++) {
        uint32_t t = threadIdx.x + q * blockDim.x;
        if (t >= te)
            break;
        uint32_t i = ((h0 + (t >> (p.logc + p.s))) << (p.lo + p.s)) |
                     (((t >> p.logc) & smask) << p.lo) | (c0 + (t & cmask));
        gpu_fr x;
        gpu_fr_load(&x, p.a + i);
        if (p.pre.lo) {
            gpu_fr w;
            ntt_pow(&w, &p.pre, p.L, i);
            gpu_fr_mul(&x, &x, &w);
        }
        if (p.dit && p.lo > 0)
            ntt_twist(&x, &p, c0, t);
        sm_st(sl, sh, t, &x);
    }
    __syncthreads();

    if (!p.dit) {
        for (int b = (int)p.s - 1; b >= 0; b -= 2) {
            uint32_t nst = b >= 1 ? 2u : 1u;
            ntt_round(sl, sh, &p, (uint32_t)b + 1u - nst, nst);
        }
    } else {
        for (uint32_t b = 0; b < p.s; b += 2)
            ntt_round(sl, sh, &p, b, p.s - b >= 2 ? 2u : 1u);
    }

#pragma unroll
    for (uint32_t q = 0; q < NTT_EPT; q++) {
        uint32_t t = threadIdx.x + q * blockDim.x;
        if (t >= te)
            break;
        uint32_t i = ((h0 + (t >> (p.logc + p.s))) << (p.lo + p.s)) |
                     (((t >> p.logc) & smask) << p.lo) | (c0 + (t & cmask));
        gpu_fr x;
        sm_ld(&x, sl, sh, t);
        if (!p.dit && p.lo > 0)
            ntt_twist(&x, &p, c0, t);
        if (p.post.lo) {
            gpu_fr w;
            ntt_pow(&w, &p.post, p.L, ntt_rev(i, p.k));
            gpu_fr_mul(&x, &x, &w);
        }
        if (p.post_const)
            gpu_fr_mul(&x, &x, &p.post_c);
        if (p.h_fuse) {
            gpu_fr ha;
            gpu_fr_load(&ha, p.h_a + i);
            if (p.h_fuse == NTT_H_MUL) {
                gpu_fr_mul(&x, &ha, &x);
            } else {
                if (p.h_fuse == NTT_H_MUL_SUB) {
                    gpu_fr hb;
                    gpu_fr_load(&hb, p.h_b + i);
                    gpu_fr_mul(&ha, &ha, &hb);
                }
                gpu_fr_sub(&x, &ha, &x);
                if (p.h_fuse == NTT_H_SUB)
                    gpu_fr_mul(&x, &x, &p.h_z);
            }
            gpu_fr_store(p.h_a + i, &x);
        } else {
            gpu_fr_store(p.a + i, &x);
        }
    }
}

/* In-place bit reversal, k >= 2 * BITREV_RB: block `mid` swaps its tile with rev(mid)'s. */
__global__ void __launch_bounds__(1u << (2 * BITREV_RB)) ntt_bitrev_tiles_kernel(gpu_fr *a,
                                                                              uint32_t k)
{
    __shared__ gpu_fr ta[1u << (2 * BITREV_RB)], tb[1u << (2 * BITREV_RB)];
    const uint32_t rb = BITREV_RB, side = 1u << BITREV_RB;
    const uint32_t mid = blockIdx.x, rmid = ntt_rev(mid, k - 2 * rb);
    if (rmid < mid)
        return;
    const uint32_t hi = threadIdx.x >> rb, lo = threadIdx.x & (side - 1u);
    const uint32_t ia = (hi << (k - rb)) | (mid << rb) | lo;
    const uint32_t ib = (hi << (k - rb)) | (rmid << rb) | lo;
    gpu_fr_load(&ta[threadIdx.x], a + ia);
    gpu_fr_load(&tb[threadIdx.x], a + ib);
    __syncthreads();
    /* position (hi, rmid, lo) receives element rev = (rev(lo), mid, rev(hi)) of tile A */
    const uint32_t src = (ntt_rev(lo, rb) << rb) | ntt_rev(hi, rb);
    gpu_fr_store(a + ib, &ta[src]);
    if (rmid != mid)
        gpu_fr_store(a + ia, &tb[src]);
}

__global__ void ntt_bitrev_small_kernel(gpu_fr *a, uint32_t k)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (1u << k))
        return;
    uint32_t j = ntt_rev(i, k);
    if (i < j) {
        gpu_fr x, y;
        gpu_fr_load(&x, a + i);
        gpu_fr_load(&y, a + j);
        gpu_fr_store(a + i, &y);
        gpu_fr_store(a + j, &x);
    }
}

/* ---------------------------------------------------------------------------------------
 * Host side
 * ------------------------------------------------------------------------------------- */

static bool domain_ok(const cuzk_domain *d)
{
    return d && (d->convention == CUZK_DOMAIN_BELLPERSON ||
                 d->convention == CUZK_DOMAIN_SNARKJS) &&
           d->log2n <= CUZK_DOMAIN_MAX_LOG2 && d->n == (size_t)1 << d->log2n;
}

/* out[j] = c * g^j for j < count */
static void host_powers(cuzk_fr *out, size_t count, const cuzk_fr *c, const cuzk_fr *g)
{
    cuzk_fr cur = *c;
    for (size_t j = 0; j < count; j++) {
        out[j] = cur;
        cuzk_fr_mul(&cur, &cur, g);
    }
}

static void host_pow2(cuzk_fr *r, const cuzk_fr *a, unsigned e) /* r = a^(2^e) */
{
    *r = *a;
    for (unsigned i = 0; i < e; i++)
        cuzk_fr_sqr(r, r);
}

extern "C" cuzk_status cuzk_gpu_domain_create(cuzk_gpu_domain **out, const cuzk_domain *d,
                                              cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    cuzk_gpu_domain *gd = NULL;
    cuzk_fr *host = NULL;
    if (!out || !domain_ok(d))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "cuzk_gpu_domain_create: NULL or uninitialised domain");
    *out = NULL;
    gd = (cuzk_gpu_domain *)calloc(1, sizeof *gd);
    if (!gd)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "cuzk_gpu_domain_create: out of memory");

    {
        const unsigned k = d->log2n;
        gd->k = k;
        gd->L = (k + 1) / 2;
        gd->convention = d->convention;
        gd->n_inv = d->n_inv;
        gd->z_coset_inv = d->z_coset_inv;
        /* pass sizes: as even as possible, the larger ones last (lo = 0 is contiguous;
         * the earlier passes get more columns per tile, i.e. longer global runs) */
        gd->npass = k == 0 ? 1 : (k + NTT_TILE_LOG - 1) / NTT_TILE_LOG;
        for (unsigned i = 0; i < gd->npass; i++)
            gd->s[i] = k / gd->npass + (i >= gd->npass - k % gd->npass ? 1 : 0);
        gd->smax = gd->s[gd->npass - 1];

        const size_t nlo = (size_t)1 << gd->L, nhi = (size_t)1 << (k - gd->L);
        const size_t nw = gd->smax > 0 ? (size_t)1 << (gd->smax - 1) : 1;
        /* layout: wtab fwd, wtab inv, then 4 tables of (lo, hi) */
        gd->tw1_shift = k > TW1_LOG ? k - TW1_LOG : 0;
        const size_t n1 = (size_t)1 << (k - gd->tw1_shift);
        const size_t total = 2 * nw + 4 * (nlo + nhi) + n1;
        host = (cuzk_fr *)malloc(total * sizeof(cuzk_fr));
        if (!host) {
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "cuzk_gpu_domain_create: out of memory");
            goto fail;
        }
        cuzk_fr w, winv, step;
        host_pow2(&w, &d->omega, k - gd->smax);
        host_pow2(&winv, &d->omega_inv, k - gd->smax);
        host_powers(host, nw, &CUZK_FR_ONE, &w);
        host_powers(host + nw, nw, &CUZK_FR_ONE, &winv);
        cuzk_fr *t = host + 2 * nw;
        const cuzk_fr *bases[4] = {&d->omega, &d->shift, &d->shift, &d->shift_inv};
        const cuzk_fr *scales[4] = {&CUZK_FR_ONE, &CUZK_FR_ONE, &d->n_inv, &d->n_inv};
        for (unsigned j = 0; j < 4; j++) {
            host_powers(t + j * (nlo + nhi), nlo, scales[j], bases[j]);
            host_pow2(&step, bases[j], gd->L);
            host_powers(t + j * (nlo + nhi) + nlo, nhi, &CUZK_FR_ONE, &step);
        }
        host_pow2(&step, &d->omega, gd->tw1_shift);
        host_powers(t + 4 * (nlo + nhi), n1, &CUZK_FR_ONE, &step);

        CUZK_CUDA_TRY(err, cudaMalloc((void **)&gd->d_tables, total * sizeof(gpu_fr)));
        CUZK_CUDA_TRY(err, cudaMemcpy(gd->d_tables, host, total * sizeof(cuzk_fr),
                                      cudaMemcpyHostToDevice));
        gd->wtab[0] = gd->d_tables;
        gd->wtab[1] = gd->d_tables + nw;
        const gpu_fr *dt = gd->d_tables + 2 * nw;
        pow_table *pt[4] = {&gd->omega, &gd->coset, &gd->inv_coset, &gd->inv_coset_inv};
        for (unsigned j = 0; j < 4; j++) {
            pt[j]->lo = dt + j * (nlo + nhi);
            pt[j]->hi = dt + j * (nlo + nhi) + nlo;
        }
        gd->tw1 = dt + 4 * (nlo + nhi);
    }
    free(host);
    *out = gd;
    return CUZK_OK;
fail:
    free(host);
    cuzk_gpu_domain_destroy(gd);
    return st;
}

extern "C" void cuzk_gpu_domain_destroy(cuzk_gpu_domain *gd)
{
    if (!gd)
        return;
    if (gd->d_tables)
        CUZK_CUDA_IGNORE(cudaFree(gd->d_tables));
    free(gd);
}

/* Element-wise work fused into a transform. */
typedef struct ntt_fuse {
    const pow_table *pre;  /* DIF: x[i] *= pre(i) before */
    const pow_table *post; /* DIF: x[i] *= post(rev(i)) after (bit-reversed positions) */
    const cuzk_fr *post_c; /* DIF: x *= post_c after */
    gpu_fr *h_a;           /* DIT: h_a := (h_mode) */
    const gpu_fr *h_b;
    int h_mode;
} ntt_fuse;

static void pass_geometry(ntt_pass *p, const cuzk_gpu_domain *gd, unsigned i)
{
    unsigned hi = 0;
    for (unsigned j = 0; j < i; j++)
        hi += gd->s[j];
    p->k = gd->k;
    p->L = gd->L;
    p->s = gd->s[i];
    p->hi = hi;
    p->lo = gd->k - hi - p->s;
    p->tile_log = gd->k < NTT_TILE_LOG ? gd->k : NTT_TILE_LOG;
    unsigned room = p->tile_log - p->s;
    p->logc = p->lo < room ? p->lo : room;
    p->logh = room - p->logc;
    p->wshift = gd->smax - p->s;
}

/* One whole transform: DIF (natural -> bit-reversed) or DIT (bit-reversed -> natural). */
static cuzk_status run_transform(const cuzk_gpu_domain *gd, gpu_fr *a, bool dit, bool inverse,
                                 const ntt_fuse *f, cudaStream_t s, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    const unsigned np = gd->npass;
    const unsigned tile_log = gd->k < NTT_TILE_LOG ? gd->k : NTT_TILE_LOG;
    const unsigned blocks = 1u << (gd->k - tile_log);
    const unsigned threads = tile_log >= 2 ? (1u << tile_log) / NTT_EPT : 1u;
    for (unsigned step = 0; step < np; step++) {
        unsigned i = dit ? np - 1 - step : step;
        ntt_pass p;
        memset(&p, 0, sizeof p);
        pass_geometry(&p, gd, i);
        p.a = a;
        p.wtab = gd->wtab[inverse ? 1 : 0];
        p.omega = gd->omega;
        if (p.hi >= gd->tw1_shift) {
            p.tw1 = gd->tw1;
            p.tw1_shift = gd->tw1_shift;
        }
        p.dit = dit;
        p.inverse = inverse;
        if (f && !dit && step == 0 && f->pre)
            p.pre = *f->pre;
        if (f && !dit && step == np - 1) {
            if (f->post)
                p.post = *f->post;
            if (f->post_c) {
                p.post_const = 1;
                memcpy(&p.post_c, f->post_c, sizeof p.post_c);
            }
        }
        if (f && dit && step == np - 1 && f->h_a) {
            p.h_fuse = (uint32_t)f->h_mode;
            p.h_a = f->h_a;
            p.h_b = f->h_b;
            memcpy(&p.h_z, &gd->z_coset_inv, sizeof p.h_z);
        }
        static const char *const pass_names[] = {"ntt: pass 1", "ntt: pass 2", "ntt: pass 3",
                                                 "ntt: pass 4", "ntt: pass 5", "ntt: pass 6+"};
        gpu_prof_mark(s, pass_names[step < 5 ? step : 5]);
        ntt_pass_kernel<<<blocks, threads, 0, s>>>(p);
        CUZK_CUDA_TRY(err, cudaGetLastError());
    }
    gpu_prof_mark(s, NULL);
fail:
    return st;
}

static cuzk_status run_bitrev(const cuzk_gpu_domain *gd, gpu_fr *a, cudaStream_t s,
                              cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    const unsigned k = gd->k;
    gpu_prof_mark(s, "ntt: bitrev");
    if (k >= 2 * BITREV_RB) {
        ntt_bitrev_tiles_kernel<<<1u << (k - 2 * BITREV_RB), 1u << (2 * BITREV_RB), 0, s>>>(a,
                                                                                        k);
    } else {
        ntt_bitrev_small_kernel<<<1, 1u << (2 * BITREV_RB), 0, s>>>(a, k);
    }
    CUZK_CUDA_TRY(err, cudaGetLastError());
    gpu_prof_mark(s, NULL);
fail:
    return st;
}

static cuzk_status check_args(const cuzk_gpu_domain *gd, const void *a, const char *fn,
                              cuzk_error *err)
{
    if (!gd || !a)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "%s: NULL domain or array", fn);
    if ((uintptr_t)a % 16 != 0)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "%s: array not 16-byte aligned", fn);
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_ntt(const cuzk_gpu_domain *gd, cuzk_fr *d_a,
                                    cuzk_gpu_ntt_kind kind, cuzk_gpu_stream s, cuzk_error *err)
{
    cuzk_status st = check_args(gd, d_a, "cuzk_gpu_ntt", err);
    if (st != CUZK_OK)
        return st;
    gpu_fr *a = (gpu_fr *)d_a;
    cudaStream_t cs = (cudaStream_t)s;
    ntt_fuse f;
    memset(&f, 0, sizeof f);
    bool inverse;
    switch (kind) {
    case CUZK_GPU_NTT:
        inverse = false;
        break;
    case CUZK_GPU_INTT: /* 1/n commutes with the permutation: fold it into the last pass */
        inverse = true;
        f.post_c = &gd->n_inv;
        break;
    case CUZK_GPU_COSET_NTT:
        inverse = false;
        f.pre = &gd->coset;
        break;
    case CUZK_GPU_COSET_INTT: /* coefficient i = rev(position) gets n^-1 g^-i */
        inverse = true;
        f.post = &gd->inv_coset_inv;
        break;
    default:
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "cuzk_gpu_ntt: unknown kind %d",
                              (int)kind);
    }
    st = run_transform(gd, a, false, inverse, &f, cs, err);
    if (st != CUZK_OK)
        return st;
    return run_bitrev(gd, a, cs, err);
}

static cuzk_status check_h_args(const cuzk_gpu_domain *gd, const void *a, const void *b,
                                const void *c, const char *fn, cuzk_error *err)
{
    cuzk_status st = check_args(gd, a, fn, err);
    if (st == CUZK_OK)
        st = check_args(gd, b, fn, err);
    if (st == CUZK_OK)
        st = check_args(gd, c, fn, err);
    if (st == CUZK_OK && (a == b || a == c || b == c))
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "%s: a, b, c must be distinct", fn);
    return st;
}

/* v: evaluations on <omega> -> its coset evaluations (an iNTT as DIF with n^-1 g^rev(i)
 * fused, then an NTT as DIT), the last pass writing h into a as `mode` says (NTT_H_NONE:
 * v itself; b: the second factor of NTT_H_MUL_SUB). */
static cuzk_status to_coset_fused(const cuzk_gpu_domain *gd, gpu_fr *v, gpu_fr *a,
                                  const gpu_fr *b, int mode, cudaStream_t s, cuzk_error *err)
{
    ntt_fuse to_coset;
    memset(&to_coset, 0, sizeof to_coset);
    to_coset.post = &gd->inv_coset;
    cuzk_status st = run_transform(gd, v, false, true, &to_coset, s, err);
    if (st != CUZK_OK)
        return st;
    ntt_fuse last;
    memset(&last, 0, sizeof last);
    if (mode != NTT_H_NONE) {
        last.h_a = a;
        last.h_b = b;
        last.h_mode = mode;
    }
    return run_transform(gd, v, true, false, &last, s, err);
}

extern "C" cuzk_status cuzk_gpu_h_bellperson_begin(const cuzk_gpu_domain *gd, cuzk_fr *d_a,
                                                   cuzk_fr *d_b, cuzk_gpu_stream s,
                                                   cuzk_error *err)
{
    cuzk_status st = check_args(gd, d_a, "cuzk_gpu_h_bellperson_begin", err);
    if (st == CUZK_OK)
        st = check_args(gd, d_b, "cuzk_gpu_h_bellperson_begin", err);
    if (st == CUZK_OK && d_a == d_b)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                            "cuzk_gpu_h_bellperson_begin: a, b must be distinct");
    if (st != CUZK_OK)
        return st;
    cudaStream_t cs = (cudaStream_t)s;
    gpu_fr *a = (gpu_fr *)d_a;
    if ((st = to_coset_fused(gd, a, NULL, NULL, NTT_H_NONE, cs, err)) != CUZK_OK)
        return st;
    /* b's last pass writes a := a*b on the coset; b is dead after it */
    return to_coset_fused(gd, (gpu_fr *)d_b, a, NULL, NTT_H_MUL, cs, err);
}

extern "C" cuzk_status cuzk_gpu_h_bellperson_end(const cuzk_gpu_domain *gd, cuzk_fr *d_a,
                                                 cuzk_fr *d_c, cuzk_gpu_stream s,
                                                 cuzk_error *err)
{
    cuzk_status st = check_args(gd, d_a, "cuzk_gpu_h_bellperson_end", err);
    if (st == CUZK_OK)
        st = check_args(gd, d_c, "cuzk_gpu_h_bellperson_end", err);
    if (st == CUZK_OK && d_a == d_c)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                            "cuzk_gpu_h_bellperson_end: a, c must be distinct");
    if (st != CUZK_OK)
        return st;
    cudaStream_t cs = (cudaStream_t)s;
    gpu_fr *a = (gpu_fr *)d_a;
    /* c's last pass writes a := (a*b - c) / Z on the coset */
    if ((st = to_coset_fused(gd, (gpu_fr *)d_c, a, NULL, NTT_H_SUB, cs, err)) != CUZK_OK)
        return st;
    /* coset iNTT: DIF with n^-1 g^-rev(i) fused, then the one permutation */
    ntt_fuse f;
    memset(&f, 0, sizeof f);
    f.post = &gd->inv_coset_inv;
    st = run_transform(gd, a, false, true, &f, cs, err);
    if (st != CUZK_OK)
        return st;
    return run_bitrev(gd, a, cs, err);
}

extern "C" cuzk_status cuzk_gpu_h_bellperson(const cuzk_gpu_domain *gd, cuzk_fr *d_a,
                                             cuzk_fr *d_b, cuzk_fr *d_c, cuzk_gpu_stream s,
                                             cuzk_error *err)
{
    cuzk_status st = check_h_args(gd, d_a, d_b, d_c, "cuzk_gpu_h_bellperson", err);
    if (st == CUZK_OK)
        st = cuzk_gpu_h_bellperson_begin(gd, d_a, d_b, s, err);
    if (st == CUZK_OK)
        st = cuzk_gpu_h_bellperson_end(gd, d_a, d_c, s, err);
    return st;
}

extern "C" cuzk_status cuzk_gpu_h_snarkjs(const cuzk_gpu_domain *gd, cuzk_fr *d_a,
                                          cuzk_fr *d_b, cuzk_fr *d_c, cuzk_gpu_stream s,
                                          cuzk_error *err)
{
    cuzk_status st = check_h_args(gd, d_a, d_b, d_c, "cuzk_gpu_h_snarkjs", err);
    if (st != CUZK_OK)
        return st;
    /* a and b to the coset, then c's last pass writes a := a*b - c (snarkjs keeps the
     * coset values: no division, no coset iNTT) */
    cudaStream_t cs = (cudaStream_t)s;
    gpu_fr *a = (gpu_fr *)d_a;
    if ((st = to_coset_fused(gd, a, NULL, NULL, NTT_H_NONE, cs, err)) != CUZK_OK ||
        (st = to_coset_fused(gd, (gpu_fr *)d_b, NULL, NULL, NTT_H_NONE, cs, err)) != CUZK_OK)
        return st;
    return to_coset_fused(gd, (gpu_fr *)d_c, a, (const gpu_fr *)d_b, NTT_H_MUL_SUB, cs, err);
}
