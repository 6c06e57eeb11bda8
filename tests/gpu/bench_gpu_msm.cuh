/*
 * bench_gpu_msm.cuh — the timing mode of test_gpu_msm (`test_gpu_msm --bench [maxlog]`):
 * G1 MSM 2^20..2^maxlog (default 26) with random and PoRep-like scalars (plain MSM and the
 * 0/1-split msm_auto), G1 bitmap sums, G2 MSM 2^22..2^24. Points: 2^20 (G1) / 2^18 (G2)
 * random host points replicated on the device (fine for timing: the work does not depend
 * on the points being distinct); scalars drawn on the device from a hash of the seed.
 * CUDA events around each call after one warm-up, median of 5. Prints one table.
 * Included by test_gpu_msm.cu only.
 */
#ifndef CUZK_BENCH_GPU_MSM_CUH
#define CUZK_BENCH_GPU_MSM_CUH

static __device__ uint64_t bench_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* kind 0: uniform below 2^254 (< r); 1: PoRep-like (50% 0, 48.7% 1, 1.3% random). */
static __global__ void bench_fill_scalars(cuzk_fr *k, size_t n, int kind, uint64_t seed,
                                          cuzk_fr one)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint64_t h = bench_mix(seed ^ bench_mix(i));
    cuzk_fr r;
    for (int j = 0; j < 4; j++)
        r.l[j] = bench_mix(h + (uint64_t)j);
    r.l[3] &= (1ull << 62) - 1;
    if (kind == 1) {
        uint64_t u = h % 1000;
        if (u < 500)
            r.l[0] = r.l[1] = r.l[2] = r.l[3] = 0;
        else if (u < 987)
            r = one;
    }
    k[i] = r;
}

static __global__ void bench_fill_bitmap(uint64_t *bm, size_t nw, uint64_t seed)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nw)
        bm[i] = bench_mix(seed ^ bench_mix(i)); /* ~50% ones */
}

enum { B_MSM, B_AUTO, B_BITMAP };

template <class T>
static float bench_one(int op, void *pts, void *sc, void *bm, void *out, size_t n, void *scratch,
                       size_t ss)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    float t[6];
    for (int r = 0; r < 6; r++) {
        cuzk_error err;
        CK(cudaEventRecord(a, 0));
        cuzk_status st =
            op == B_MSM ? T::msm((typename T::jac *)out, (const typename T::aff *)pts,
                                 (const cuzk_fr *)sc, n, scratch, ss, 0, &err)
            : op == B_AUTO ? T::msm_auto((typename T::jac *)out, (const typename T::aff *)pts,
                                         (const cuzk_fr *)sc, n, scratch, ss, 0, &err)
                           : T::bitmap((typename T::jac *)out, (const typename T::aff *)pts,
                                       (const uint64_t *)bm, n, scratch, ss, 0, &err);
        CK(cudaEventRecord(b, 0));
        CK(cudaEventSynchronize(b));
        if (st != CUZK_OK) {
            printf("bench: call failed: %s\n", err.msg);
            exit(1);
        }
        CK(cudaEventElapsedTime(&t[r], a, b));
    }
    /* median of runs 1..5 (run 0 is the warm-up) */
    for (int i = 1; i < 6; i++)
        for (int j = i + 1; j < 6; j++)
            if (t[j] < t[i]) {
                float x = t[i];
                t[i] = t[j];
                t[j] = x;
            }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return t[3];
}

template <class T> static void bench_group(size_t lo_log, size_t hi_log, size_t base_log, bool full)
{
    size_t nmax = (size_t)1 << hi_log, nbase = (size_t)1 << base_log;
    typename T::aff *hp = (typename T::aff *)malloc(nbase * sizeof *hp);
    make_points<T>(hp, nbase);
    void *pts, *sc, *bm, *out, *scratch;
    CK(cudaMalloc(&pts, nmax * sizeof *hp));
    CK(cudaMalloc(&sc, nmax * sizeof(cuzk_fr)));
    CK(cudaMalloc(&bm, nmax / 64 * 8 + 8));
    CK(cudaMalloc(&out, sizeof(typename T::jac)));
    CK(cudaMemcpy(pts, hp, nbase * sizeof *hp, cudaMemcpyHostToDevice));
    for (size_t off = nbase; off < nmax; off += nbase)
        CK(cudaMemcpy((char *)pts + off * sizeof *hp, pts, nbase * sizeof *hp,
                      cudaMemcpyDeviceToDevice));
    size_t ss = T::auto_size(nmax);
    if (T::msm_size(nmax) > ss)
        ss = T::msm_size(nmax);
    CK(cudaMalloc(&scratch, ss));
    for (size_t lg = lo_log; lg <= hi_log; lg++) {
        size_t n = (size_t)1 << lg;
        unsigned blocks = (unsigned)((n + 255) / 256);
        for (int kind = 0; kind < 2; kind++) {
            bench_fill_scalars<<<blocks, 256>>>((cuzk_fr *)sc, n, kind, test_rng_u64(), CUZK_FR_ONE);
            CK(cudaGetLastError());
            if (kind == 0 || full) {
                float ms = bench_one<T>(B_MSM, pts, sc, bm, out, n, scratch, ss);
                printf("| %s msm      | 2^%-2zu | %-6s | %10.2f |\n", T::name(), lg,
                       kind ? "porep" : "random", ms);
            }
            float ms = bench_one<T>(B_AUTO, pts, sc, bm, out, n, scratch, ss);
            printf("| %s msm_auto | 2^%-2zu | %-6s | %10.2f |\n", T::name(), lg,
                   kind ? "porep" : "random", ms);
        }
        bench_fill_bitmap<<<(unsigned)((n / 64 + 255) / 256), 256>>>((uint64_t *)bm, n / 64,
                                                                     test_rng_u64());
        CK(cudaGetLastError());
        float ms = bench_one<T>(B_BITMAP, pts, sc, bm, out, n, scratch, ss);
        printf("| %s bitmap   | 2^%-2zu | 50%%    | %10.2f |\n", T::name(), lg, ms);
        fflush(stdout);
    }
    cudaFree(pts);
    cudaFree(sc);
    cudaFree(bm);
    cudaFree(out);
    cudaFree(scratch);
    free(hp);
}

static void bench_msm(int max_log)
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
    printf("| op          | n    | scalars | median ms |\n|---|---|---|---|\n");
    bench_group<g1_traits>(20, (size_t)max_log, 20, true);
    bench_group<g2_traits>(22, 24, 18, false);
}

#endif
