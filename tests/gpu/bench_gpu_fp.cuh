/*
 * bench_gpu_fp.cuh — `test_gpu_fp --bench`: throughput of the device field and point
 * arithmetic with operands in registers (no memory traffic), the compute floor the MSM
 * and NTT kernels are measured against: Fp and Fr multiplications (4 independent chains
 * per thread) and XYZZ + affine mixed additions (1 and 2 independent accumulators per thread).
 * Timed with CUDA events after a warm-up; best of 5. Included by test_gpu_fp.cu only.
 */
#include "gpu/fr.cuh"

#define BFP_ITERS 512

static __device__ __forceinline__ gpu_fr gf_mul(gpu_fr a, gpu_fr b)
{
    gpu_fr r;
    gpu_fr_mul(&r, &a, &b);
    return r;
}
static __device__ __forceinline__ gpu_fr gf_add(gpu_fr a, gpu_fr b)
{
    gpu_fr r;
    gpu_fr_add(&r, &a, &b);
    return r;
}

template <class F> __global__ void bfp_mul_kernel(F *out, const F *in)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    F x0 = in[(t * 4 + 0) & 1023], x1 = in[(t * 4 + 1) & 1023], x2 = in[(t * 4 + 2) & 1023],
      x3 = in[(t * 4 + 3) & 1023], y = in[(t * 7) & 1023];
    for (int i = 0; i < BFP_ITERS; i++) {
        x0 = gf_mul(x0, y);
        x1 = gf_mul(x1, y);
        x2 = gf_mul(x2, y);
        x3 = gf_mul(x3, y);
    }
    out[t] = gf_add(gf_add(x0, x1), gf_add(x2, x3));
}


/* one accumulator a thread, as in the MSM's bucket accumulation (its additions form one
 * dependent chain), against two independent ones */
__global__ void bfp_madd1_kernel(gpu_fp *out, const gpu_fp *in)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    gpu_g1_xyzz a0;
    gpu_g1_aff p;
    a0.x = in[(t + 1) & 1023];
    a0.y = in[(t + 2) & 1023];
    a0.zz = in[(t + 3) & 1023];
    a0.zzz = in[(t + 4) & 1023];
    p.x = in[(t + 6) & 1023];
    p.y = in[(t + 7) & 1023];
    for (int i = 0; i < BFP_ITERS / 8; i++) {
        a0 = gpu_xyzz_add_aff(a0, p);
        p.x = gf_add(p.x, a0.zz);
    }
    out[t] = a0.x;
}

__global__ void bfp_madd_kernel(gpu_fp *out, const gpu_fp *in)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    gpu_g1_xyzz a0, a1;
    gpu_g1_aff p;
    a0.x = in[(t + 1) & 1023];
    a0.y = in[(t + 2) & 1023];
    a0.zz = in[(t + 3) & 1023];
    a0.zzz = in[(t + 4) & 1023];
    a1 = a0;
    a1.x = in[(t + 5) & 1023];
    p.x = in[(t + 6) & 1023];
    p.y = in[(t + 7) & 1023];
    for (int i = 0; i < BFP_ITERS / 8; i++) {
        a0 = gpu_xyzz_add_aff(a0, p);
        a1 = gpu_xyzz_add_aff(a1, p);
        p.x = gf_add(p.x, a0.zz); /* keep the operands moving */
    }
    out[t] = gf_add(a0.x, a1.y);
}

static double bfp_time(void (*launch)(void *, const void *, unsigned, unsigned), void *out,
                       const void *in, unsigned blocks, unsigned threads)
{
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    launch(out, in, blocks, threads);
    cudaDeviceSynchronize();
    float best = 1e30f;
    for (int r = 0; r < 5; r++) {
        cudaEventRecord(e0);
        launch(out, in, blocks, threads);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        best = ms < best ? ms : best;
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return best;
}

static void bfp_launch_fp(void *o, const void *i, unsigned b, unsigned t)
{
    bfp_mul_kernel<gpu_fp><<<b, t>>>((gpu_fp *)o, (const gpu_fp *)i);
}
static void bfp_launch_fr(void *o, const void *i, unsigned b, unsigned t)
{
    bfp_mul_kernel<gpu_fr><<<b, t>>>((gpu_fr *)o, (const gpu_fr *)i);
}
static void bfp_launch_madd(void *o, const void *i, unsigned b, unsigned t)
{
    bfp_madd_kernel<<<b, t>>>((gpu_fp *)o, (const gpu_fp *)i);
}
static void bfp_launch_madd1(void *o, const void *i, unsigned b, unsigned t)
{
    bfp_madd1_kernel<<<b, t>>>((gpu_fp *)o, (const gpu_fp *)i);
}

static void bench_fp(void)
{
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int clk_khz = 0;
    cudaDeviceGetAttribute(&clk_khz, cudaDevAttrClockRate, 0);
    unsigned sms = (unsigned)prop.multiProcessorCount;
    gpu_fp *in, *out;
    CK(cudaMalloc(&in, 1024 * sizeof(gpu_fp)));
    CK(cudaMalloc(&out, (size_t)sms * 64 * 256 * sizeof(gpu_fp)));
    /* random field elements < p (top limb kept small) */
    gpu_fp h[1024];
    for (int i = 0; i < 1024; i++) {
        for (int j = 0; j < 12; j++)
            h[i].l[j] = (uint32_t)test_rng_u64();
        h[i].l[11] &= 0x0fffffffu;
    }
    CK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    printf("device: %s, %u SMs, %.0f MHz\n", prop.name, sms, clk_khz / 1e3);
    const unsigned tpb[3] = {128, 256, 384};
    static const char *name[4] = {"fp mul", "fr mul", "g1 madd", "g1 madd x1"};
    for (int v = 0; v < 4; v++) {
        for (int ti = 0; ti < 3; ti++) {
            unsigned threads = tpb[ti], blocks = sms * (v >= 2 ? 8 : 16);
            /* a kernel using many registers cannot launch this many threads a block */
            cudaFuncAttributes fa;
            CK(v == 0   ? cudaFuncGetAttributes(&fa, bfp_mul_kernel<gpu_fp>)
               : v == 1 ? cudaFuncGetAttributes(&fa, bfp_mul_kernel<gpu_fr>)
               : v == 2 ? cudaFuncGetAttributes(&fa, bfp_madd_kernel)
                        : cudaFuncGetAttributes(&fa, bfp_madd1_kernel));
            if ((unsigned)fa.maxThreadsPerBlock < threads) {
                printf("bench %-10s %3u thr/block: not launchable (%d registers a thread)\n",
                       name[v], threads, fa.numRegs);
                continue;
            }
            double ms = bfp_time(v == 0   ? bfp_launch_fp
                                 : v == 1 ? bfp_launch_fr
                                 : v == 2 ? bfp_launch_madd
                                          : bfp_launch_madd1,
                                 out, in, blocks, threads);
            CK(cudaGetLastError());
            double ops = (double)blocks * threads *
                         (v == 2 ? 2.0 * (BFP_ITERS / 8) : v == 3 ? BFP_ITERS / 8 : 4.0 * BFP_ITERS);
            double per_sm_cycles = ms * 1e-3 * (clk_khz * 1e3) * sms / ops;
            printf("bench %-10s %3u thr/block: %8.3f ms, %7.2f G/s, %7.1f SM-cycles each (%d "
                   "registers)\n",
                   name[v], threads, ms, ops / ms / 1e6, per_sm_cycles, fa.numRegs);
        }
    }
    cudaFree(in);
    cudaFree(out);
}
