/*
 * cuda_testing.h — hooks the GPU tests use to reach states of the CUDA backend's device
 * cache that device memory alone reaches only at full size: a streamed key or circuit that
 * would fit whole at its next use, while another start still runs with the streamed copy
 * (cuda_resident.h, "decided again at every use"). Not for production callers.
 */
#ifndef CUZK_PROVER_CUDA_TESTING_H
#define CUZK_PROVER_CUDA_TESTING_H

#include <stdbool.h>

#include "cuzk/groth16.h"
#include "cuzk/prover.h"
#include "cuzk/r1cs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Streams every key (srs) and every constraint system (csr) from now on, as
 * CUZK_GPU_SRS=stream and CUZK_GPU_CSR=stream do from the start; false: decided by memory. */
void cuzk_prover_cuda_force_stream(cuzk_prover *p, bool srs, bool csr);

/* The device entries of pk and r1cs counted as used by one more start, as a start running
 * with them counts them, until cuzk_prover_cuda_unhold. False if either is not on p. */
typedef struct cuzk_cuda_hold {
    void *key, *circuit;
} cuzk_cuda_hold;
bool cuzk_prover_cuda_hold(cuzk_prover *p, const cuzk_groth16_pk *pk, const cuzk_r1cs *r1cs,
                           cuzk_cuda_hold *h);
void cuzk_prover_cuda_unhold(cuzk_prover *p, cuzk_cuda_hold *h);

/* Occupied device-cache slots (retired ones included) and how many of them stream. */
typedef struct cuzk_cuda_slots {
    int keys, circuits, streamed_keys, streamed_circuits;
} cuzk_cuda_slots;
void cuzk_prover_cuda_slots(cuzk_prover *p, cuzk_cuda_slots *out);

#ifdef __cplusplus
}
#endif

#endif
