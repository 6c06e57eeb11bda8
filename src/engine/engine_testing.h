/*
 * engine_testing.h — hooks for tests: fault injection into one pipeline stage, pausing
 * admission, holding key loads, the background releaser, the scheduler's event log and
 * counts. Not part of the public API; the
 * tests include it from src/.
 * Threading: thread-safe (takes the engine lock).
 */
#ifndef CUZK_ENGINE_TESTING_H
#define CUZK_ENGINE_TESTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/prover.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    ENGINE_FAULT_NONE = 0,
    ENGINE_FAULT_SYNTH = 1,  /* the next synthesis fails (CUZK_ERR_INTERNAL) */
    ENGINE_FAULT_DEVICE = 2, /* the next prover start fails (CUZK_ERR_CUDA) */
    ENGINE_FAULT_VERIFY = 3, /* the next finalize reports a failed self-check */
    /* the next prover start on a device where another partition is in a start fails with
     * CUZK_ERR_NOMEM, as on a GPU whose memory the others' working sets hold */
    ENGINE_FAULT_DEVICE_MEMORY = 4,
};

/* The next `count` passes through `stage` fail (on device `device` only, -1 any). */
void cuzk_engine_inject_fault(cuzk_engine *e, int stage, unsigned count, int device);

/* While paused the dispatcher admits no partition (jobs queue up); tests use it to line
 * up several jobs before any starts. */
void cuzk_engine_pause(cuzk_engine *e, bool paused);

/* While held, every key load waits before it starts (as a slow load would: partitions of
 * other jobs that need the key wait for it); releasing lets them go on. */
void cuzk_engine_hold_loads(cuzk_engine *e, bool hold);

/* While held, a key load whose circuit is out (srs_early, srs.h) waits before its points,
 * as a slow .params decode or dev setup would; its jobs' partitions synthesize meanwhile and
 * wait for the key before their device stage. A cancelled load or a stopping engine ends
 * the hold. */
void cuzk_engine_hold_points(cuzk_engine *e, bool hold);

/* The memory budget becomes `bytes` (a test sizes it by keys it measured first: a key's
 * first load is charged its kind's estimate, later ones what it took). */
void cuzk_engine_set_budget(cuzk_engine *e, uint64_t bytes);

/* While held, evicted keys stay in the graveyard unfreed (engine_srs_bury waits, as a
 * slow unpin of a big key would); a stopping engine ends the hold. */
void cuzk_engine_hold_bury(cuzk_engine *e, bool hold);

/* Partitions holding at least `bytes` are freed by the background releaser (default
 * 256 MiB; 0 sends every partition there). */
void cuzk_engine_set_release_later_min(cuzk_engine *e, uint64_t bytes);
/* A key the device did not hold whole when offered (keys_on_device_only) is offered again
 * after `ms` (default 60 s). */
void cuzk_engine_set_adopt_retry_ms(cuzk_engine *e, uint64_t ms);
/* Device d's prover (NULL when there is no such device); the engine keeps owning it. */
cuzk_prover *cuzk_engine_device_prover(cuzk_engine *e, int d);
/* Waits until the background releaser has run everything handed to it so far. */
void cuzk_engine_release_drain(cuzk_engine *e);

/* The pk and r1cs objects the engine's provers were given and not yet told to forget
 * (cuzk_prover_held, summed over the devices), once the background releaser and the
 * graveyard of evicted keys are done: 0 once every key is evicted and every partition
 * freed, whatever the backend. */
size_t cuzk_engine_prover_held(cuzk_engine *e);

/* While held, device workers take no partition (synthesized ones pile up to the device
 * queue's bounds); releasing lets them go on. */
void cuzk_engine_hold_devices(cuzk_engine *e, bool hold);

/* The scheduler's event log (sched.c): while recording, every partition's steps are
 * appended in the order the engine made them (under its lock): admitted, synthesized into
 * the device queue, taken by a device worker, entered the device (t_ms: when the prover
 * took the device mutex, cuzk_prove_timings.device_begin_ms; recorded once start
 * returns), done. */
enum {
    ENGINE_EV_ADMIT = 1,
    ENGINE_EV_READY = 2,
    ENGINE_EV_TAKE = 3,
    ENGINE_EV_DEVICE = 4,
    ENGINE_EV_DONE = 5,
};
typedef struct cuzk_engine_event {
    char job[CUZK_JOB_ID_SIZE];
    uint32_t partition;
    int stage;      /* ENGINE_EV_* */
    int device;     /* TAKE, DEVICE: the device's index; else -1 */
    int priority;   /* the job's */
    double t_ms;    /* cuzk_prover_clock_ms */
} cuzk_engine_event;
void cuzk_engine_events_record(cuzk_engine *e, bool on); /* on: starts a new log */
/* Copies up to cap events (oldest first); returns how many were recorded in all. */
size_t cuzk_engine_events(cuzk_engine *e, cuzk_engine_event *out, size_t cap);

/* The scheduler's counts now (a test waits for a saturated pipeline with them). */
typedef struct cuzk_engine_sched_counts {
    unsigned synth_bulk, synth_latency; /* admitted, not yet in the device queue */
    unsigned dev_q_bulk, dev_q_len;     /* waiting for a device */
    unsigned dev_busy;                  /* partitions in a device worker */
    unsigned bulk_room;                 /* the device queue's bound for bulk partitions */
} cuzk_engine_sched_counts;
void cuzk_engine_sched_counts_get(cuzk_engine *e, cuzk_engine_sched_counts *out);

/* The dispatcher's admission rule for the first partition of a Filecoin job (kind,
 * sector_size) whose key is not loaded: its partition and key estimates as the kind's plan
 * and the key table make them, against the engine's budget. devices: -1 the engine's own,
 * 0 as if every device were the CPU, 1 as if every one were a GPU (a test on a host
 * without one). Nothing is loaded or allocated: a test can set a 128 GiB budget on a small
 * machine. True when admitted (why: the numbers), else false with the refusal the job
 * would fail with. */
/* Called by submit once a new job is planned and journaled, before it becomes joinable
 * (engine->mu not held): a test widens the window where concurrent submits of its
 * request_id find it spooling. NULL: nothing. */
extern void (*cuzk_engine_spooled_hook)(const char *request_id);

bool cuzk_engine_admission_check(cuzk_engine *e, cuzk_proof_kind kind, uint64_t sector_size,
                                 int devices, char *why, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
