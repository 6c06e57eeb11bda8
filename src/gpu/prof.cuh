/*
 * prof.cuh — an opt-in phase profiler for the device routines: with CUZK_GPU_PROFILE set
 * in the environment, gpu_prof_mark(s, "phase") records an event on stream s, and the
 * time from it to the next mark on the same stream is charged to "phase" (a mark named
 * NULL only closes the previous phase). cuzk_gpu_profile_report (cuzk/gpu.h) waits for
 * the device, prints the totals per phase and forgets them. Without the variable a mark
 * is one branch on a cached flag, so the routines keep it in their normal path.
 * Why events and not host clocks: the routines only enqueue; events measure the device.
 * Threading: marks from any thread (one mutex); phase names must be string literals.
 */
#ifndef CUZK_GPU_PROF_CUH
#define CUZK_GPU_PROF_CUH

#include <cuda_runtime.h>

bool gpu_prof_enabled(void);
void gpu_prof_mark_slow(cudaStream_t s, const char *phase);

static inline void gpu_prof_mark(cudaStream_t s, const char *phase)
{
    if (gpu_prof_enabled())
        gpu_prof_mark_slow(s, phase);
}

#endif /* CUZK_GPU_PROF_CUH */
