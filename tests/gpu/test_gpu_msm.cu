/*
 * test_gpu_msm.cu — the device MSM family (cuzk_gpu_g{1,2}s_msm, _sum_bitmap, _msm_auto)
 * against the host msm layer, compared as affine points: n = 0..64 and powers of two up to
 * 2^16 (G1 up to 2^20), random scalars, PoRep-like scalars (mostly 0 and 1), edge scalars
 * (0, 1, r-1) and points at infinity in the input; repeated points and their negatives
 * under a few scalars (doublings and cancellations in the buckets); bitmap sums with
 * stray bits past n;
 * the split decision on both sides of cuzk_msm_split_pays; short scratch and NULL
 * arguments rejected. Scratch is filled with garbage so nothing relies on zeroed memory.
 *
 * `test_gpu_msm --small` runs a few sizes only (for compute-sanitizer);
 * `test_gpu_msm --bench [maxlog]` instead times the device routines (see bench_msm() below);
 * no test asserts on time. Single-threaded host; one stream.
 */
#include <stdlib.h>
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/gpu.h"
#include "cuzk/msm.h"
#include "cuzk/pool.h"
extern "C" {
#include "test_rng.h"
}
#include "gpu_test.h"

static cuzk_pool *g_pool;

/* ---- group traits: the host functions the generic test code needs ------------------- */
#define DEFINE_TRAITS(G, GEN, FT)                                                          \
    struct G##_traits {                                                                   \
        typedef cuzk_##G##_affine aff;                                                    \
        typedef cuzk_##G##_jac jac;                                                       \
        typedef FT field;                                                                 \
        static const char *name() { return #G; }                                          \
        static const aff &gen() { return GEN; }                                           \
        static void from_affine(jac *r, const aff *a) { cuzk_##G##_jac_from_affine(r, a); } \
        static void to_affine(aff *r, const jac *a) { cuzk_##G##_jac_to_affine(r, a); }   \
        static void add(jac *r, const jac *a, const jac *b) { cuzk_##G##_jac_add(r, a, b); } \
        static void mul(jac *r, const jac *a, const cuzk_fr *k) { cuzk_##G##_jac_mul_var(r, a, k); } \
        static void batch_affine(aff *r, const jac *a, size_t n, FT *s)                   \
        {                                                                                 \
            cuzk_##G##s_jac_to_affine(r, a, n, s);                                        \
        }                                                                                 \
        static void set_inf(aff *a) { cuzk_##G##_affine_set_infinity(a); }               \
        static void neg(aff *r, const aff *a) { cuzk_##G##_affine_neg(r, a); }            \
        static void host_msm(jac *r, const aff *p, const cuzk_fr *k, size_t n)            \
        {                                                                                 \
            size_t sz = cuzk_##G##s_msm_scratch_size(n, cuzk_pool_nthreads(g_pool));      \
            void *s = malloc(sz ? sz : 1);                                                \
            cuzk_status st = cuzk_##G##s_msm(r, p, k, n, s, sz, g_pool);                  \
            if (st != CUZK_OK) {                                                          \
                printf("host msm failed\n");                                              \
                exit(1);                                                                  \
            }                                                                             \
            free(s);                                                                      \
        }                                                                                 \
        static void host_bitmap(jac *r, const aff *p, const uint64_t *bm, size_t n)       \
        {                                                                                 \
            size_t sz = cuzk_##G##s_sum_bitmap_scratch_size(n, cuzk_pool_nthreads(g_pool)); \
            void *s = malloc(sz ? sz : 1);                                                \
            if (cuzk_##G##s_sum_bitmap(r, p, bm, n, s, sz, g_pool) != CUZK_OK) {          \
                printf("host bitmap sum failed\n");                                       \
                exit(1);                                                                  \
            }                                                                             \
            free(s);                                                                      \
        }                                                                                 \
        static size_t msm_size(size_t n) { return cuzk_gpu_##G##s_msm_scratch_size(n); }  \
        static size_t bitmap_size(size_t n) { return cuzk_gpu_##G##s_sum_bitmap_scratch_size(n); } \
        static size_t auto_size(size_t n) { return cuzk_gpu_##G##s_msm_auto_scratch_size(n); } \
        static size_t msm_capped(size_t n, unsigned b) { return cuzk_gpu_##G##s_msm_scratch_size_capped(n, b); } \
        static size_t auto_capped(size_t n, unsigned b) { return cuzk_gpu_##G##s_msm_auto_scratch_size_capped(n, b); } \
        static size_t msm_least(size_t n) { return cuzk_gpu_##G##s_msm_scratch_size_least(n); } \
        static size_t auto_least(size_t n) { return cuzk_gpu_##G##s_msm_auto_scratch_size_least(n); } \
        static cuzk_status msm(jac *o, const aff *p, const cuzk_fr *k, size_t n, void *s,  \
                               size_t ss, cudaStream_t st, cuzk_error *e)                 \
        {                                                                                 \
            return cuzk_gpu_##G##s_msm(o, p, k, n, s, ss, st, e);                         \
        }                                                                                 \
        static cuzk_status bitmap(jac *o, const aff *p, const uint64_t *b, size_t n,      \
                                  void *s, size_t ss, cudaStream_t st, cuzk_error *e)     \
        {                                                                                 \
            return cuzk_gpu_##G##s_sum_bitmap(o, p, b, n, s, ss, st, e);                  \
        }                                                                                 \
        static cuzk_status msm_auto(jac *o, const aff *p, const cuzk_fr *k, size_t n,     \
                                    void *s, size_t ss, cudaStream_t st, cuzk_error *e)   \
        {                                                                                 \
            return cuzk_gpu_##G##s_msm_auto(o, p, k, n, s, ss, st, e);                    \
        }                                                                                 \
    };

DEFINE_TRAITS(g1, CUZK_G1_GENERATOR, cuzk_fp)
DEFINE_TRAITS(g2, CUZK_G2_GENERATOR, cuzk_fp2)

/* Random points as a random walk over 8 random multiples of the generator: n additions
 * instead of n scalar multiplications. */
template <class T> static void make_points(typename T::aff *p, size_t n)
{
    if (n == 0)
        return;
    typename T::jac g, steps[8], cur;
    T::from_affine(&g, &T::gen());
    for (int j = 0; j < 8; j++) {
        cuzk_fr k;
        test_rand_fr(&k);
        T::mul(&steps[j], &g, &k);
    }
    cuzk_fr k0;
    test_rand_fr(&k0);
    T::mul(&cur, &g, &k0);
    typename T::jac *jac = (typename T::jac *)malloc(n * sizeof *jac);
    typename T::field *scr = (typename T::field *)malloc(n * sizeof *scr);
    for (size_t i = 0; i < n; i++) {
        jac[i] = cur;
        T::add(&cur, &cur, &steps[test_rng_u64() & 7]);
    }
    T::batch_affine(p, jac, n, scr);
    free(jac);
    free(scr);
}

enum { SC_RANDOM, SC_POREP, SC_EDGE, SC_KINDS };
static const char *sc_name[SC_KINDS] = {"random", "porep", "edge"};

static void make_scalars(cuzk_fr *k, size_t n, int kind)
{
    cuzk_fr rm1;
    cuzk_fr_neg(&rm1, &CUZK_FR_ONE); /* r - 1 */
    for (size_t i = 0; i < n; i++) {
        uint64_t u = test_rng_u64() % 1000;
        if (kind == SC_RANDOM) {
            test_rand_fr(&k[i]);
        } else if (kind == SC_POREP) {
            /* ~50% zero, ~48.7% one, 1.3% anything: a PoRep witness */
            if (u < 500)
                k[i] = CUZK_FR_ZERO;
            else if (u < 987)
                k[i] = CUZK_FR_ONE;
            else
                test_rand_fr(&k[i]);
        } else {
            if (u < 300)
                k[i] = CUZK_FR_ZERO;
            else if (u < 600)
                k[i] = CUZK_FR_ONE;
            else if (u < 900)
                k[i] = rm1;
            else
                test_rand_fr(&k[i]);
        }
    }
}

template <class T> static bool same_point(const typename T::jac *a, const typename T::jac *b)
{
    typename T::aff x, y;
    T::to_affine(&x, a);
    T::to_affine(&y, b);
    return memcmp(&x, &y, sizeof x) == 0;
}

/* Device buffers reused across sizes. */
struct dev_bufs {
    void *pts, *sc, *bm, *out, *scratch;
    size_t scratch_size;
};

static void *scratch_for(dev_bufs *d, size_t bytes)
{
    if (bytes == 0)
        return NULL;
    if (bytes > d->scratch_size) {
        if (d->scratch)
            CK(cudaFree(d->scratch));
        CK(cudaMalloc(&d->scratch, bytes));
        d->scratch_size = bytes;
    }
    CK(cudaMemset(d->scratch, 0xa5, bytes)); /* garbage: nothing may rely on zeroes */
    return d->scratch;
}

/* One size: MSM, auto MSM for each scalar kind, then a bitmap sum. */
template <class T>
static void check_size(dev_bufs *d, const typename T::aff *p, cuzk_fr *k, uint64_t *bm, size_t n)
{
    typedef typename T::jac jac;
    cuzk_error err;
    jac want, got;
    if (n)
        CK(cudaMemcpy(d->pts, p, n * sizeof *p, cudaMemcpyHostToDevice));
    for (int kind = 0; kind < SC_KINDS; kind++) {
        make_scalars(k, n, kind);
        if (n)
            CK(cudaMemcpy(d->sc, k, n * sizeof *k, cudaMemcpyHostToDevice));
        T::host_msm(&want, p, k, n);

        size_t ss = T::msm_size(n);
        void *s = scratch_for(d, ss);
        cuzk_status st = T::msm((jac *)d->out, (const typename T::aff *)d->pts,
                                (const cuzk_fr *)d->sc, n, s, ss, 0, &err);
        GPU_CHECK(st == CUZK_OK, "%s msm n=%zu: %s", T::name(), n, err.msg);
        CK(cudaMemcpy(&got, d->out, sizeof got, cudaMemcpyDeviceToHost));
        GPU_CHECK(same_point<T>(&want, &got), "%s msm n=%zu %s scalars differs", T::name(), n,
                  sc_name[kind]);

        ss = T::auto_size(n);
        s = scratch_for(d, ss);
        st = T::msm_auto((jac *)d->out, (const typename T::aff *)d->pts, (const cuzk_fr *)d->sc,
                         n, s, ss, 0, &err);
        GPU_CHECK(st == CUZK_OK, "%s msm_auto n=%zu: %s", T::name(), n, err.msg);
        CK(cudaMemcpy(&got, d->out, sizeof got, cudaMemcpyDeviceToHost));
        GPU_CHECK(same_point<T>(&want, &got), "%s msm_auto n=%zu %s scalars differs", T::name(),
                  n, sc_name[kind]);
    }
    /* bitmap: random density per size, and stray bits past n in the last word */
    size_t nw = (n + 63) / 64;
    uint64_t dens = test_rng_u64() % 4;
    for (size_t w = 0; w < nw; w++) {
        uint64_t a = test_rng_u64(), b = test_rng_u64();
        bm[w] = dens == 0 ? a & b : dens == 1 ? a : dens == 2 ? a | b : ~(uint64_t)0;
    }
    if (nw)
        CK(cudaMemcpy(d->bm, bm, nw * 8, cudaMemcpyHostToDevice));
    T::host_bitmap(&want, p, bm, n);
    size_t ss = T::bitmap_size(n);
    void *s = scratch_for(d, ss);
    cuzk_status st = T::bitmap((jac *)d->out, (const typename T::aff *)d->pts,
                               (const uint64_t *)d->bm, n, s, ss, 0, &err);
    GPU_CHECK(st == CUZK_OK, "%s sum_bitmap n=%zu: %s", T::name(), n, err.msg);
    CK(cudaMemcpy(&got, d->out, sizeof got, cudaMemcpyDeviceToHost));
    GPU_CHECK(same_point<T>(&want, &got), "%s sum_bitmap n=%zu differs", T::name(), n);
}

/* The split decision at its boundary (n = 512: 64 ones split, 63 do not); narrower windows
 * from a smaller scratch (every cap, and one byte under the default: the same result);
 * argument checks: scratch under the least plan's, NULL buffers. */
template <class T> static void check_split_and_args(dev_bufs *d, const typename T::aff *p, cuzk_fr *k)
{
    typedef typename T::jac jac;
    const size_t n = 512;
    cuzk_error err;
    jac want, got;
    CK(cudaMemcpy(d->pts, p, n * sizeof *p, cudaMemcpyHostToDevice));
    for (size_t ones = 63; ones <= 64; ones++) {
        for (size_t i = 0; i < n; i++) {
            if (i < ones)
                k[i] = CUZK_FR_ONE;
            else
                test_rand_fr(&k[i]);
        }
        CK(cudaMemcpy(d->sc, k, n * sizeof *k, cudaMemcpyHostToDevice));
        T::host_msm(&want, p, k, n);
        size_t ss = T::auto_size(n);
        void *s = scratch_for(d, ss);
        cuzk_status st = T::msm_auto((jac *)d->out, (const typename T::aff *)d->pts,
                                     (const cuzk_fr *)d->sc, n, s, ss, 0, &err);
        CK(cudaMemcpy(&got, d->out, sizeof got, cudaMemcpyDeviceToHost));
        GPU_CHECK(st == CUZK_OK && same_point<T>(&want, &got), "%s msm_auto %zu ones of %zu",
                  T::name(), ones, n);
    }
    for (size_t i = 0; i < n; i++)
        test_rand_fr(&k[i]);
    for (size_t i = 0; i < n; i += 5)
        k[i] = CUZK_FR_ONE; /* 20 % ones: the split pays */
    CK(cudaMemcpy(d->sc, k, n * sizeof *k, cudaMemcpyHostToDevice));
    T::host_msm(&want, p, k, n);
    for (unsigned bits = 3; bits <= 23; bits++) {
        for (int f = 0; f < 2; f++) {
            /* bits 23: one byte under the default, which must still fit a narrower plan */
            size_t ss = bits == 23 ? (f ? T::auto_size(n) : T::msm_size(n)) - 1
                        : f        ? T::auto_capped(n, bits)
                                   : T::msm_capped(n, bits);
            size_t least = f ? T::auto_least(n) : T::msm_least(n);
            void *s = scratch_for(d, ss);
            cuzk_status st = f ? T::msm_auto((jac *)d->out, (const typename T::aff *)d->pts,
                                             (const cuzk_fr *)d->sc, n, s, ss, 0, &err)
                               : T::msm((jac *)d->out, (const typename T::aff *)d->pts,
                                        (const cuzk_fr *)d->sc, n, s, ss, 0, &err);
            if (ss < least) {
                GPU_CHECK(st == CUZK_ERR_INVALID_ARG, "%s family %d, %zu bytes < least %zu: %d",
                          T::name(), f, ss, least, (int)st);
                continue;
            }
            CK(cudaMemcpy(&got, d->out, sizeof got, cudaMemcpyDeviceToHost));
            GPU_CHECK(st == CUZK_OK && same_point<T>(&want, &got),
                      "%s family %d with windows capped at %u bits (%zu bytes): %s", T::name(),
                      f, bits, ss, st == CUZK_OK ? "differs" : err.msg);
        }
    }
    /* scratch one byte under the least plan's, or NULL, is an error, not a crash */
    size_t sizes[3] = {T::msm_least(n), T::bitmap_size(n), T::auto_least(n)};
    for (int f = 0; f < 3; f++) {
        void *s = scratch_for(d, sizes[f]);
        cuzk_status st =
            f == 0 ? T::msm((jac *)d->out, (const typename T::aff *)d->pts, (const cuzk_fr *)d->sc,
                            n, s, sizes[f] - 1, 0, &err)
            : f == 1 ? T::bitmap((jac *)d->out, (const typename T::aff *)d->pts,
                                 (const uint64_t *)d->bm, n, s, sizes[f] - 1, 0, &err)
                     : T::msm_auto((jac *)d->out, (const typename T::aff *)d->pts,
                                   (const cuzk_fr *)d->sc, n, s, sizes[f] - 1, 0, &err);
        GPU_CHECK(st == CUZK_ERR_INVALID_ARG, "%s family %d: short scratch gave %d", T::name(), f,
                  (int)st);
        st = f == 0 ? T::msm((jac *)d->out, (const typename T::aff *)d->pts, (const cuzk_fr *)d->sc,
                             n, NULL, sizes[f], 0, &err)
             : f == 1 ? T::bitmap((jac *)d->out, (const typename T::aff *)d->pts, NULL, n, s,
                                  sizes[f], 0, &err)
                      : T::msm_auto(NULL, (const typename T::aff *)d->pts, (const cuzk_fr *)d->sc,
                                    n, s, sizes[f], 0, &err);
        GPU_CHECK(st == CUZK_ERR_INVALID_ARG, "%s family %d: NULL buffer gave %d", T::name(), f,
                  (int)st);
    }
    CK(cudaDeviceSynchronize());
}

/* Repeated points and their negatives under a few scalars: every bucket meets P + P (a
 * doubling), P + (-P) (infinity), infinity + Q and the sums of such sums, in the chains
 * and in the additions of cut runs (n = 2^15: chunks of several pairs of one bucket). */
template <class T> static void check_repeats(dev_bufs *d, const typename T::aff *p, cuzk_fr *k)
{
    typedef typename T::jac jac;
    typedef typename T::aff aff;
    const size_t n = (size_t)1 << 15;
    aff *q = (aff *)malloc(n * sizeof *q);
    cuzk_fr pick[4];
    test_rand_fr(&pick[0]);
    test_rand_fr(&pick[1]);
    pick[2] = CUZK_FR_ONE;
    cuzk_fr_neg(&pick[3], &CUZK_FR_ONE);
    for (size_t i = 0; i < n; i++) {
        q[i] = p[1 + i % 5];
        if (i % 6 == 5)
            T::set_inf(&q[i]);
        if (i % 7 == 3)
            T::neg(&q[i], &q[i]);
    }
    for (int mode = 0; mode < 2; mode++) {
        for (size_t i = 0; i < n; i++)
            k[i] = mode == 0 ? pick[i % 4] : pick[(i / 5) % 2];
        CK(cudaMemcpy(d->pts, q, n * sizeof *q, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(d->sc, k, n * sizeof *k, cudaMemcpyHostToDevice));
        jac want, got;
        cuzk_error err;
        T::host_msm(&want, q, k, n);
        for (int f = 0; f < 2; f++) {
            size_t ss = f ? T::auto_size(n) : T::msm_size(n);
            void *s = scratch_for(d, ss);
            cuzk_status st = f ? T::msm_auto((jac *)d->out, (const aff *)d->pts,
                                             (const cuzk_fr *)d->sc, n, s, ss, 0, &err)
                               : T::msm((jac *)d->out, (const aff *)d->pts,
                                        (const cuzk_fr *)d->sc, n, s, ss, 0, &err);
            GPU_CHECK(st == CUZK_OK, "%s repeats family %d: %s", T::name(), f, err.msg);
            CK(cudaMemcpy(&got, d->out, sizeof got, cudaMemcpyDeviceToHost));
            GPU_CHECK(same_point<T>(&want, &got), "%s repeats mode %d family %d differs",
                      T::name(), mode, f);
        }
    }
    free(q);
}

/* small: a handful of sizes only (for compute-sanitizer runs) */
template <class T> static void test_group(size_t max_log, bool small)
{
    size_t max_n = (size_t)1 << max_log;
    typename T::aff *p = (typename T::aff *)malloc(max_n * sizeof *p);
    cuzk_fr *k = (cuzk_fr *)malloc(max_n * sizeof *k);
    uint64_t *bm = (uint64_t *)malloc((max_n / 64 + 1) * 8);
    make_points<T>(p, max_n);
    /* points at infinity in the input, at the start, in the middle and at the end of
     * several small sizes */
    T::set_inf(&p[0]);
    T::set_inf(&p[5]);
    T::set_inf(&p[63]);
    T::set_inf(&p[max_n / 2 + 1]);
    dev_bufs d = {NULL, NULL, NULL, NULL, NULL, 0};
    CK(cudaMalloc(&d.pts, max_n * sizeof *p));
    CK(cudaMalloc(&d.sc, max_n * sizeof *k));
    CK(cudaMalloc(&d.bm, (max_n / 64 + 1) * 8));
    CK(cudaMalloc(&d.out, sizeof(typename T::jac)));
    static const size_t small_n[] = {0, 1, 2, 3, 17, 64, 1000, 4096};
    for (size_t i = 0; small && i < sizeof small_n / sizeof *small_n; i++)
        check_size<T>(&d, p, k, bm, small_n[i]);
    for (size_t n = 0; !small && n <= 64; n++)
        check_size<T>(&d, p, k, bm, n);
    if (!small && max_log >= 15)
        check_repeats<T>(&d, p, k);
    for (size_t lg = 7; !small && lg <= max_log; lg++) {
        check_size<T>(&d, p, k, bm, (size_t)1 << lg);
        if (lg == 10)
            check_size<T>(&d, p, k, bm, 1000); /* not a multiple of 64 */
    }
    check_split_and_args<T>(&d, p, k);
    printf("[gpu_msm] %s: %s done\n", T::name(),
           small ? "small sizes" : "n = 0..64, 2^7..2^max, repeats");
    cudaFree(d.pts);
    cudaFree(d.sc);
    cudaFree(d.bm);
    cudaFree(d.out);
    cudaFree(d.scratch);
    free(p);
    free(k);
    free(bm);
}

#include "bench_gpu_msm.cuh"

int main(int argc, char **argv)
{
    bool bench = argc > 1 && strcmp(argv[1], "--bench") == 0;
    bool small = argc > 1 && strcmp(argv[1], "--small") == 0;
    GPU_TEST_BEGIN(bench ? "gpu_msm_bench" : "gpu_msm");
    if (cuzk_pool_create(&g_pool, 16) != CUZK_OK)
        return 1;
    if (bench) {
        bench_msm(argc > 2 ? atoi(argv[2]) : 26);
    } else {
        /* the shared split rule itself: an eighth of the scalars and at least 64 */
        GPU_CHECK(cuzk_msm_split_pays(512, 64) && !cuzk_msm_split_pays(512, 63) &&
                      !cuzk_msm_split_pays(100, 63) && cuzk_msm_split_pays(100, 64),
                  "cuzk_msm_split_pays boundary");
        test_group<g1_traits>(20, small);
        test_group<g2_traits>(16, small);
    }
    cuzk_pool_destroy(g_pool);
    GPU_TEST_END();
}
