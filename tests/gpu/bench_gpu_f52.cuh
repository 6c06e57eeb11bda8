/*
 * bench_gpu_f52.cuh — `test_gpu_f52 --bench`: multiplications a second with operands in
 * registers (4 independent chains a thread, no memory traffic) for
 *   int   the integer CIOS multiplier (fr.cuh / fp.cuh),
 *   f52   the FP64-pipe multiplier on 52-bit limbs (f52.cuh),
 *   mix   2 integer + 2 f52 chains in one thread (both pipes at once),
 *   f52w  f52 with the conversions from and to the host's words around each product
 *         (what an NTT butterfly holding integer elements would pay).
 * Timed with CUDA events after a warm-up; best of 5. Included by test_gpu_f52.cu only.
 */
#define BF52_ITERS 256

template <class F> struct bf52_int;
template <> struct bf52_int<f52_fr> {
    typedef gpu_fr T;
    static __device__ __forceinline__ void mul(T &x, const T &y) { gpu_fr_mul(&x, &x, &y); }
};
template <> struct bf52_int<f52_fp> {
    typedef gpu_fp T;
    static __device__ __forceinline__ void mul(T &x, const T &y) { x = gpu_fp_mul(x, y); }
};

template <class F> struct bf52_el {
    double l[F::N];
};

/* v: 0 int, 1 f52, 2 mix, 3 f52w; in: 1024 random elements < m as 64-bit words */
template <class F, int W, int V> __global__ void bf52_kernel(uint64_t *out, const uint64_t *in)
{
    typedef typename bf52_int<F>::T T;
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    T xi[4], yi;
    bf52_el<F> xf[4], yf;
#pragma unroll
    for (int c = 0; c < 4; c++) {
        memcpy(&xi[c], in + W * ((t * 4 + c) & 1023), sizeof(T));
        f52_from_words<F::N, W>(xf[c].l, in + W * ((t * 4 + c) & 1023));
    }
    memcpy(&yi, in + W * ((t * 7) & 1023), sizeof(T));
    f52_from_words<F::N, W>(yf.l, in + W * ((t * 7) & 1023));
    for (int i = 0; i < BF52_ITERS; i++) {
#pragma unroll
        for (int c = 0; c < 4; c++) {
            if (V == 0 || (V == 2 && c < 2)) {
                bf52_int<F>::mul(xi[c], yi);
            } else if (V == 3) {
                double x[F::N];
                f52_from_words<F::N, W>(x, (const uint64_t *)&xi[c]);
                f52_mul<F>(x, x, yf.l);
                f52_to_words<F::N, W>((uint64_t *)&xi[c], x);
            } else {
                f52_mul<F>(xf[c].l, xf[c].l, yf.l);
            }
        }
    }
    uint64_t acc = 0;
#pragma unroll
    for (int c = 0; c < 4; c++) {
        acc ^= ((const uint64_t *)&xi[c])[0];
        acc ^= F52_BITS(xf[c].l[0]);
    }
    out[t] = acc;
}

template <class F, int W, int V>
static double bf52_run(uint64_t *out, const uint64_t *in, unsigned blocks, unsigned threads,
                       int *regs)
{
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, bf52_kernel<F, W, V>));
    *regs = fa.numRegs;
    if ((unsigned)fa.maxThreadsPerBlock < threads)
        return -1;
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    bf52_kernel<F, W, V><<<blocks, threads>>>(out, in);
    CK(cudaDeviceSynchronize());
    float best = 1e30f;
    for (int r = 0; r < 5; r++) {
        CK(cudaEventRecord(e0));
        bf52_kernel<F, W, V><<<blocks, threads>>>(out, in);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        best = ms < best ? ms : best;
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    return best;
}

template <class F, int W>
static void bf52_field(const char *name, uint64_t *out, const uint64_t *in, unsigned sms,
                       int clk_khz)
{
    static const char *vname[4] = {"int", "f52", "mix", "f52w"};
    const unsigned tpb[3] = {128, 256, 384};
    for (int v = 0; v < 4; v++)
        for (int ti = 0; ti < 3; ti++) {
            unsigned threads = tpb[ti], blocks = sms * 16;
            int regs = 0;
            double ms = v == 0   ? bf52_run<F, W, 0>(out, in, blocks, threads, &regs)
                        : v == 1 ? bf52_run<F, W, 1>(out, in, blocks, threads, &regs)
                        : v == 2 ? bf52_run<F, W, 2>(out, in, blocks, threads, &regs)
                                 : bf52_run<F, W, 3>(out, in, blocks, threads, &regs);
            if (ms < 0) {
                printf("bench %s %-4s %3u thr/block: not launchable (%d registers)\n", name,
                       vname[v], threads, regs);
                continue;
            }
            double ops = (double)blocks * threads * 4.0 * BF52_ITERS;
            printf("bench %s %-4s %3u thr/block: %8.3f ms, %7.2f G/s, %6.2f SM-cycles each "
                   "(%d registers)\n",
                   name, vname[v], threads, ms, ops / ms / 1e6,
                   ms * 1e-3 * (clk_khz * 1e3) * sms / ops, regs);
        }
}

static void bench_f52(void)
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int clk_khz = 0;
    CK(cudaDeviceGetAttribute(&clk_khz, cudaDevAttrClockRate, 0));
    unsigned sms = (unsigned)prop.multiProcessorCount;
    uint64_t *in, *out;
    CK(cudaMalloc(&in, 1024 * sizeof(cuzk_fp)));
    CK(cudaMalloc(&out, (size_t)sms * 16 * 384 * sizeof(uint64_t)));
    printf("device: %s, %u SMs, %.0f MHz\n", prop.name, sms, clk_khz / 1e3);
    static cuzk_fp hp[1024];
    static cuzk_fr hr[1024];
    for (int i = 0; i < 1024; i++) {
        test_rand_fp(&hp[i]);
        test_rand_fr(&hr[i]);
    }
    CK(cudaMemcpy(in, hr, sizeof hr, cudaMemcpyHostToDevice));
    bf52_field<f52_fr, 4>("fr", out, in, sms, clk_khz);
    CK(cudaMemcpy(in, hp, sizeof hp, cudaMemcpyHostToDevice));
    bf52_field<f52_fp, 6>("fp", out, in, sms, clk_khz);
    cudaFree(in);
    cudaFree(out);
}
