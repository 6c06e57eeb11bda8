/*
 * timeline.h — the engine's timeline: complete events ("X": a stage of one partition on
 * one track) kept in a ring in memory and, optionally, streamed to a file, in Chrome's
 * trace-event JSON (Perfetto and chrome://tracing open it).
 *
 * Tracks are named once (etimeline_track) and numbered; the JSON gives each its own tid
 * with a thread_name record, so every worker and stage gets a row.
 * Threading: every function takes the timeline's own lock; callable from any thread.
 */
#ifndef CUZK_ENGINE_TIMELINE_H
#define CUZK_ENGINE_TIMELINE_H

#include <stdint.h>

#include "cuzk/status.h"

typedef struct etimeline etimeline;

/* capacity: events kept in memory; path (optional): stream file, rotated to path.1 past
 * rotate_bytes. */
cuzk_status etimeline_create(etimeline **out, unsigned capacity, const char *path,
                             uint64_t rotate_bytes, cuzk_error *err);
void etimeline_destroy(etimeline *t);

/* Registers a track name ("synth 0", "gpu:0 worker 1", "finalize 0"); returns its id. */
int etimeline_track(etimeline *t, const char *name);

/* One complete event on track: [t0_ms, t1_ms] (cuzk_prover_clock_ms), named (e.g.
 * "synthesize"), with the job id and partition as arguments. */
void etimeline_event(etimeline *t, int track, const char *name, double t0_ms, double t1_ms,
                     const char *job_id, int partition);

/* Writes the events in memory as one JSON document, all-or-nothing (temp + rename). */
cuzk_status etimeline_write(etimeline *t, const char *path, cuzk_error *err);

/* Total events ever recorded (tests). */
uint64_t etimeline_count(etimeline *t);

#endif
