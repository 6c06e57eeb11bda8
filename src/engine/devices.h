/*
 * devices.h — the engine's devices (state.h: edevice). Internal to src/engine.
 * Threading: open and close run alone (create, destroy); the rest reads what open fixed.
 */
#ifndef CUZK_ENGINE_DEVICES_H
#define CUZK_ENGINE_DEVICES_H

#include <stdbool.h>

#include "cuzk/engine.h"

/* Opens cfg.devices into e->devs ("all": every GPU, else the CPU); after e->pool, which
 * CPU backends run on. */
cuzk_status engine_devices_open(cuzk_engine *e, cuzk_error *err);
void engine_devices_close(cuzk_engine *e);
/* Any device on the CPU backend: partitions are then charged the CPU prover's memory. */
bool engine_has_cpu_device(const cuzk_engine *e);

#endif
