/*
 * gpu_export.h — the gpu layer's internal interface for the layer above it (the prover
 * layer, src/prover): for CUDA sources (the CUDA backend) the one CUDA-checking macro, so
 * host orchestration reports CUDA failures exactly as the kernels' entry points do; for
 * every source, C included, the device MSM's plans as arithmetic (msm_plan.h), so the
 * prover's memory plan sizes the MSM scratch by the kernels' own layout even in a build
 * without CUDA. Threading: see gpu_check.cuh; msm_plan.h is pure.
 */
#ifndef CUZK_GPU_EXPORT_H
#define CUZK_GPU_EXPORT_H

#include "gpu/msm_plan.h"

#ifdef __CUDACC__
#include "gpu/gpu_check.cuh"
#endif

#endif
