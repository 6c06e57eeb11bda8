/*
 * r1cs_internal.h — helpers shared by the r1cs layer's files (not part of the public API).
 * Threading: see each function; none has global state.
 */
#ifndef CUZK_R1CS_INTERNAL_H
#define CUZK_R1CS_INTERNAL_H

#include "cuzk/r1cs.h"
#include "r1cs/r1cs_export.h"   /* r1cs_compute_density, shared with the .zkey reader */

#endif
