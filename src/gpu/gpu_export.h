/*
 * gpu_export.h — the gpu layer's internal interface for the layer above it (the CUDA
 * prover backend, src/prover/backend_cuda.cu): the one CUDA-checking macro, so host
 * orchestration reports CUDA failures exactly as the kernels' entry points do. CUDA
 * sources only. Threading: see gpu_check.cuh.
 */
#ifndef CUZK_GPU_EXPORT_H
#define CUZK_GPU_EXPORT_H

#include "gpu/gpu_check.cuh"

#endif
