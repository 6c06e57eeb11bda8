/*
 * device.cu — device discovery for the rest of cuzk (cuzk_gpu_device_count).
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
