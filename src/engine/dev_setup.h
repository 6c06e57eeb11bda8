/*
 * dev_setup.h — where the engine's development setups run (dev_setup.c). Internal to
 * src/engine.
 * Threading: reentrant.
 */
#ifndef CUZK_ENGINE_DEV_SETUP_H
#define CUZK_ENGINE_DEV_SETUP_H

#include "cuzk/engine.h"
#include "cuzk/groth16.h"

/* The options a development setup (cuzk_groth16_setup_dev_ex) of e runs with: the
 * fixed-base hook of e's first in-service GPU device, opened into *hook (close it with
 * cuzk_prover_fixed_base_hook_close after the setup; NULL when e has no GPU: the
 * multiplications stay on the CPU pool), e's log for the setup's phase times, and cancel
 * (the key load's flag, ekind.load_key; may be NULL) as the setup's stop flag. Logs which
 * of the two `what` (a key's name) gets. */
void engine_setup_opts(const cuzk_engine *e, const char *what, const volatile int *cancel,
                       cuzk_groth16_setup_opts *opts, cuzk_groth16_fixed_base_hook **hook);
/* The pinned host memory the hook engine_setup_opts would open holds (0: the setup would
 * run on the CPU pool). */
uint64_t engine_setup_hook_host_bytes(const cuzk_engine *e);

#endif
