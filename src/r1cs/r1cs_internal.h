/*
 * r1cs_internal.h — helpers shared by the r1cs layer's files (not part of the public API).
 * Threading: see each function; none has global state.
 */
#ifndef CUZK_R1CS_INTERNAL_H
#define CUZK_R1CS_INTERNAL_H

#include "cuzk/r1cs.h"

/* Allocates and fills r->density[] / density_count[] from the frozen CSR matrices. */
cuzk_status r1cs_compute_density(cuzk_r1cs *r, cuzk_error *err);

#endif
