/*
 * pipeline.h — the pipeline's threads (pipeline.c): the dispatcher, synthesis workers,
 * device workers and finalizers (a partition on its road, struct epart, is sched.h's).
 * Internal to src/engine.
 * Threading: a partition is guarded by engine->mu while it sits in a queue and owned by
 * the one stage working on it otherwise.
 */
#ifndef CUZK_ENGINE_PIPELINE_H
#define CUZK_ENGINE_PIPELINE_H

#include <stdint.h>

#include "cuzk/engine.h"
#include "engine/sched.h"

typedef struct ejob ejob;
typedef struct epart epart;
typedef struct srs_entry srs_entry;


/* Thread mains: the dispatcher's arg is the engine, the others' a worker_arg (state.h). */
void *engine_dispatcher_main(void *arg);
void *engine_synth_main(void *arg);
void *engine_device_main(void *arg);
void *engine_finalizer_main(void *arg);

#endif
