/*
 * r1cs_export.h — the r1cs layer's internal interface for the layers above it (today the
 * snarkjs .zkey reader in src/formats, which builds a cuzk_r1cs from the key's A/B
 * sections instead of through the builder): not public API, but the only r1cs header
 * another layer may include (tests/lint/check_layers.sh enforces it).
 * Threading: see each function; none has global state.
 */
#ifndef CUZK_R1CS_EXPORT_H
#define CUZK_R1CS_EXPORT_H

#include "cuzk/r1cs.h"

/* Allocates and fills r->density[] / density_count[] from the frozen CSR matrices: the
 * last step of making an r1cs whose CSR was filled directly. */
cuzk_status r1cs_compute_density(cuzk_r1cs *r, cuzk_error *err);

#endif
