/*
 * device.cu — device discovery for the rest of cuzk (cuzk_gpu_device_count,
 * cuzk_gpu_device_memory).
 * Threading: stateless; safe from any thread.
 */
#include <cuda_runtime.h>

#include "cuzk/gpu.h"

extern "C" int cuzk_gpu_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError(); /* no driver / no device: clear the sticky-free error */
        return 0;
    }
    return n;
}

extern "C" uint64_t cuzk_gpu_device_memory(int device)
{
    cudaDeviceProp prop;
    if (device < 0 || device >= cuzk_gpu_device_count() ||
        cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return (uint64_t)prop.totalGlobalMem;
}
