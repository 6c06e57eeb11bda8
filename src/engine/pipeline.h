/*
 * pipeline.h — a partition on its road (struct epart) and the pipeline's threads
 * (pipeline.c): the dispatcher, synthesis workers, device workers and finalizers.
 * Internal to src/engine.
 * Threading: a partition is guarded by engine->mu while it sits in a queue and owned by
 * the one stage working on it otherwise.
 */
#ifndef CUZK_ENGINE_PIPELINE_H
#define CUZK_ENGINE_PIPELINE_H

#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/prover.h"
#include "engine/kind.h"

typedef struct ejob ejob;
typedef struct epart epart;
typedef struct srs_entry srs_entry;

struct epart {
    cuzk_engine *e;            /* for the background releaser's callback */
    ejob *job;
    uint32_t idx;
    srs_entry *srs;            /* referenced from admission to the end */
    uint64_t bytes_held;       /* budget reserved for the working set */
    esynth syn;
    cuzk_prove_job *pj;
    int device;                /* the device that ran start (-1 before) */
    int exclude_device;        /* after a failure: prefer another device (-1 none) */
    unsigned attempts;
    cuzk_status st;            /* a failure on its way to the job */
    char err[CUZK_ERROR_MSG_MAX];
    double t_admit, t_synth0, t_synth1, t_dev0, t_dev1;
    epart *next;
};

/* Takes every queued partition of j off the queues and ends it (mu held, released
 * meanwhile). */
void engine_job_purge(cuzk_engine *e, ejob *j);
/* Frees a list of partitions that never reached their end (destroy, no thread left). */
void engine_parts_free(cuzk_engine *e, epart *list);
/* Thread mains: the dispatcher's arg is the engine, the others' a worker_arg (state.h). */
void *engine_dispatcher_main(void *arg);
void *engine_synth_main(void *arg);
void *engine_device_main(void *arg);
void *engine_finalizer_main(void *arg);

#endif
