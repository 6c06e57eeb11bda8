/*
 * sched.h — the engine's scheduler (sched.c): every decision about which partition goes
 * next at each stage, the memory reservations of the latency classes, and which keys stay
 * resident. The stages (pipeline.c) ask it; they decide nothing themselves. Internal to
 * src/engine.
 *
 * Model
 *   Classes. A job's priority puts its partitions in one of two classes:
 *     latency  CRITICAL (WinningPoSt) and HIGH (WindowPoSt): answers someone waits for;
 *     bulk     NORMAL and LOW (PoRep, SnapDeals, synthetic streams): throughput.
 *   Within the queues every stage takes the best partition first: (priority, job seq,
 *   partition). Nothing preempts a kernel or a synthesis: the unit of preemption is the
 *   partition, and a bulk job yields at its next partition boundary.
 *
 *   What each stage keeps free for the latency class:
 *     admission   bulk partitions are admitted while fewer than synthesis_workers of them
 *                 are in synthesis (queued, running, or synthesized and waiting for room
 *                 in the device queue), and only into memory above the latency reserve
 *                 (below). A latency partition needs no synthesis slot and may use the
 *                 reserve; while one waits for memory nothing else is admitted.
 *     synthesis   one more synthesis worker than configured takes latency partitions only,
 *                 so one is always free for them (the others take them first too).
 *     device      the device queue holds at most device_queue_depth bulk partitions
 *                 (default: one per device worker); a synthesized bulk partition waits
 *                 for room holding its synthesis slot, a latency one never waits. Each
 *                 device has one worker more than configured that takes latency
 *                 partitions only, and the prover's device mutex is a priority gate
 *                 (src/prover/prio_gate.h): a prepared bulk partition waiting for the
 *                 device yields to a latency one.
 *     finalize    the finalizer queue is ordered like the others, and one more finalizer
 *                 than configured takes latency partitions only (the CPU backend's
 *                 finalize takes its prover gate with the partition's priority).
 *   Memory. The latency reserve is the largest working set of a latency partition seen so
 *   far (learned at its admission; 0 until one came): bulk admissions leave that much of
 *   the budget free beyond what latency partitions already hold. A bulk partition's
 *   growth after synthesis (its estimate corrected) may dip into it, and so may a bulk
 *   admission while no partition is in flight (nothing would give memory back), so the
 *   reserve never blocks the bulk class for good.
 *   Keys. With keep_latency_keys (default on), a key used by a latency job is pinned: a
 *   bulk admission never evicts it to make room; only a latency admission may, or a bulk
 *   one that could not fit even with every unpinned byte free (the budget does not
 *   allow keeping it). Idle unpinned keys go least recently used first, as before.
 *
 *   The bound. A latency partition that arrives while the box is saturated with bulk work
 *   is admitted at once (reserve) with its key resident (pinned), synthesized at once
 *   (its own worker), taken by a device's latency worker as soon as it is synthesized,
 *   and enters the device when the partition holding it now releases it (the gate):
 *   it waits at most about one bulk partition's device time plus its own synthesis,
 *   device and finalize time. Not covered: the CPU pool that synthesis shares has no
 *   priority, so its synthesis runs beside bulk synthesis, not before it.
 *
 * Dependencies (one way; nothing below calls up):
 *     pipeline.c (the stage threads) -> jobs.c (a job's end) -> sched.c
 *     pipeline.c -> sched.c -> {srs.c -> budget.c, releaser.c} -> state.h
 *   sched.c reads jobs through jobs.h's struct and engine_job_over (data, no calls into
 *   jobs.c); srs.c asks a waiting key user's cancel flag, not its job.
 *
 * Threading: every function runs with engine->mu held (some release it while memory is
 * freed or while waiting, as said).
 */
#ifndef CUZK_ENGINE_SCHED_H
#define CUZK_ENGINE_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/prover.h"
#include "engine/kind.h"

typedef struct ejob ejob;
typedef struct epart epart;
typedef struct srs_entry srs_entry;
typedef struct srs_early srs_early;

/* A partition on its road. Threading: guarded by engine->mu while it sits in a queue and
 * owned by the one stage working on it otherwise. */
struct epart {
    cuzk_engine *e;            /* for the background releaser's callback */
    ejob *job;
    uint32_t idx;
    srs_entry *srs;            /* referenced from admission to the end */
    uint64_t bytes_held;       /* budget reserved for the working set */
    bool latency;              /* of the latency class (sched.h) */
    esynth syn;
    srs_early *early;          /* synthesized from its key's early circuit (srs.h): the key
                                * is awaited before the device stage; dropped at the end */
    bool scratch_later;        /* CPU devices, early: the prover's scratch is charged once
                                * the key is loaded (it is sized from the key) */
    cuzk_prove_job *pj;
    int device;                /* the device that ran start (-1 before) */
    int exclude_device;        /* after a failure: prefer another device (-1 none) */
    unsigned attempts;
    int wait_dev;              /* waits for that device to empty (edevice.drain; -1 none) */
    unsigned mem_waits;        /* how often it did (not attempts: bounded apart) */
    cuzk_status st;            /* a failure on its way to the job */
    char err[CUZK_ERROR_MSG_MAX];
    double t_admit, t_synth0, t_synth1, t_dev0, t_dev1;
    epart *next;
};

/* Whether j's partitions are of the latency class (HIGH or CRITICAL). */
bool engine_sched_latency(const ejob *j);

/* ---- admission */
/* The job whose next partition is to be admitted now, or NULL when none may be (paused,
 * nothing to admit, or the best job's class has no free synthesis slot). */
ejob *engine_sched_pick(cuzk_engine *e);
/* Reserves n bytes for a partition of class latency (or its key), evicting idle keys the
 * key rule allows; false when it does not fit now (the caller waits on dispatch_cv). */
bool engine_sched_reserve(cuzk_engine *e, uint64_t n, bool latency);
/* Records the admission of p (job, srs and bytes_held set): pins a latency job's key,
 * counts its class, queues it for synthesis. */
void engine_sched_admitted(cuzk_engine *e, epart *p);

/* ---- synthesis */
/* The next partition to synthesize (latency_only: a latency one or none). */
epart *engine_sched_synth_take(cuzk_engine *e, bool latency_only);
/* Resizes p's reservation to what it really takes; growing waits (mu released) while
 * other partitions can still give memory back; false when it cannot grow. */
bool engine_sched_resize(cuzk_engine *e, epart *p, uint64_t actual);
/* Whether synthesized p may enter the device queue now (else wait on room_cv). */
bool engine_sched_room(const cuzk_engine *e, const epart *p);
/* p leaves synthesis (into the device queue or to its end): its slot is free. */
void engine_sched_synth_done(cuzk_engine *e, epart *p);

/* ---- devices */
void engine_sched_dev_put(cuzk_engine *e, epart *p);
/* The next partition for a worker of device dev (latency_only: a latency one or none). */
epart *engine_sched_dev_take(cuzk_engine *e, unsigned dev, bool latency_only);
/* The head of the device queue whatever it is (the last device went out of service). */
epart *engine_sched_dev_pop(cuzk_engine *e);
/* Device memory: p's start on device dev failed for it (CUZK_ERR_NOMEM) while other
 * partitions were in a start there. Then p goes back to the device queue, not counted as
 * an attempt, and waits for dev to empty: no worker of dev takes another partition until
 * then, and p starts there alone (edevice.drain, alone). At most SCHED_MEMORY_WAITS times
 * a partition; false (the caller retries or fails it as any failure) when nothing else
 * was on the device or the waits are used up. */
#define SCHED_MEMORY_WAITS 4
bool engine_sched_dev_memory_wait(cuzk_engine *e, epart *p, unsigned dev);
/* p's start on dev returned (any outcome; mu held, the device's busy count already
 * down), or p, taken, will not start there (its job is over, the engine stops, it went
 * back to the queue or failed: p may be freed already, only its address is compared):
 * a partition that had the device alone gives it back. */
void engine_sched_dev_done(cuzk_engine *e, const epart *p, unsigned dev);

/* ---- finalize */
void engine_sched_fin_put(cuzk_engine *e, epart *p);
epart *engine_sched_fin_take(cuzk_engine *e, bool latency_only);

/* ---- a partition's end */
/* The end of p's road: its memory freed (mu released meanwhile, or by the background
 * releaser), then its budget, key reference and job count given back. */
void engine_sched_part_end(cuzk_engine *e, epart *p);
/* Takes every queued partition of j off the queues and ends it (mu released meanwhile). */
void engine_sched_purge(cuzk_engine *e, ejob *j);
/* Frees a list of partitions that never reached their end (destroy, no thread left). */
void engine_parts_free(cuzk_engine *e, epart *list);

/* ---- the test event log (engine_testing.h): stage is an ENGINE_EV_* */
void engine_sched_event(cuzk_engine *e, const epart *p, int stage, int device, double t_ms);

/* A key load that no unfinished job wants any more (every job that asked for it ended) is
 * told to stop (its load_cancel); a preload's load is left alone. */
void engine_sched_cancel_unwanted_loads(cuzk_engine *e);

#endif
