/*
 * engine_testing.h — hooks for tests: fault injection into one pipeline stage, pausing
 * admission, holding key loads, the background releaser. Not part of the public API; the
 * tests include it from src/.
 * Threading: thread-safe (takes the engine lock).
 */
#ifndef CUZK_ENGINE_TESTING_H
#define CUZK_ENGINE_TESTING_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/engine.h"

enum {
    ENGINE_FAULT_NONE = 0,
    ENGINE_FAULT_SYNTH = 1,  /* the next synthesis fails (CUZK_ERR_INTERNAL) */
    ENGINE_FAULT_DEVICE = 2, /* the next prover start fails (CUZK_ERR_CUDA) */
    ENGINE_FAULT_VERIFY = 3, /* the next finalize reports a failed self-check */
};

/* The next `count` passes through `stage` fail (on device `device` only, -1 any). */
void cuzk_engine_inject_fault(cuzk_engine *e, int stage, unsigned count, int device);

/* While paused the dispatcher admits no partition (jobs queue up); tests use it to line
 * up several jobs before any starts. */
void cuzk_engine_pause(cuzk_engine *e, bool paused);

/* While held, every key load waits before it starts (as a slow load would: partitions of
 * other jobs that need the key wait for it); releasing lets them go on. */
void cuzk_engine_hold_loads(cuzk_engine *e, bool hold);

/* Partitions holding at least `bytes` are freed by the background releaser (default
 * 256 MiB; 0 sends every partition there). */
void cuzk_engine_set_release_later_min(cuzk_engine *e, uint64_t bytes);
/* Waits until the background releaser has run everything handed to it so far. */
void cuzk_engine_release_drain(cuzk_engine *e);

#endif
