/*
 * devices.h — the engine's devices (state.h: edevice). Internal to src/engine.
 * Threading: reads only what create fixes (which device is which backend).
 */
#ifndef CUZK_ENGINE_DEVICES_H
#define CUZK_ENGINE_DEVICES_H

#include <stdbool.h>

#include "cuzk/engine.h"

/* Any device on the CPU backend: partitions are then charged the CPU prover's memory. */
bool engine_has_cpu_device(const cuzk_engine *e);

#endif
