/*
 * state.h — the engine's shared state (struct cuzk_engine): configuration, devices, the
 * three stage queues, the memory budget's counters, the key table, the job table,
 * counters, and the threads. Internal to src/engine; what lives in the structures it
 * points to is in jobs.h (jobs), pipeline.h (partitions) and srs.h (keys).
 *
 * Threading model (one lock): every field of cuzk_engine and of the jobs, partitions and
 * key entries it reaches is guarded by engine->mu, except where a comment says otherwise
 * (the immutable request copy, the key's decoded contents while its entry is referenced,
 * a partition's synthesized data while one stage owns the partition). Work that takes
 * time (synthesis, key loading, prover calls, journal writes of job inputs) runs with the
 * lock released. Stages hand partitions over through queues guarded by mu, each with its
 * condition variable. Lock order: engine->mu, then the timeline's and the journal's own
 * locks (never the reverse).
 */
#ifndef CUZK_ENGINE_STATE_H
#define CUZK_ENGINE_STATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/pool.h"
#include "cuzk/prover.h"
#include "engine/metrics.h"
#include "engine/timeline.h"

typedef struct ejob ejob;
typedef struct epart epart;
typedef struct srs_entry srs_entry;

typedef struct edevice {
    int ordinal;
    cuzk_prover *prover;
    char name[128];
    bool is_gpu;
    unsigned busy_workers;
    char current_job[CUZK_JOB_ID_SIZE];
    cuzk_proof_kind current_kind;
    uint64_t done, failed;
    double busy_ms;            /* device-held time (the backend's device interval) */
    bool out_of_service;       /* taken out of rotation (its prover said so); for good */
    /* A start failed for device memory while the device's other partitions held it:
     * `drain` such partitions wait (in the device queue) for this device to empty, and
     * then one of them starts alone (`alone`: no other partition is taken meanwhile), so
     * a WindowPoSt arriving on a card full of a PoRep stream's working sets waits for
     * them instead of failing (H100, s26). A partition of a higher priority still joins
     * it (a WinningPoSt does not wait behind a WindowPoSt's 11 s). Under mu. */
    unsigned drain;
    const struct epart *alone; /* the partition that has it alone (identity only: never
                                * read), NULL when none */
    int alone_prio;            /* its job's priority: only a higher one may join it */
    char out_why[CUZK_ERROR_MSG_MAX];
    int track;                 /* timeline track of its device-held intervals */
} edevice;

typedef struct worker_arg {
    cuzk_engine *e;
    unsigned dev, idx;
    int track;
    bool latency_only;         /* the scheduler's extra worker of a stage (sched.h) */
} worker_arg;

struct cuzk_engine {
    cuzk_engine_config cfg;    /* strings point into the owned copies below */
    struct ereleaser *releaser; /* frees of big partitions, off the workers' path */
    uint64_t release_later_min; /* partitions holding this much or more go to it */
    /* a key the device did not hold whole is offered to it again after this long
     * (srs_device.c; 60 s, cuzk_engine_set_adopt_retry_ms in tests) */
    uint64_t adopt_retry_ms;
    unsigned devs_in_service;  /* devices not taken out of rotation (mu) */
    char *devices_s, *state_dir_s, *param_dir_s, *timeline_s, *dev_key_dir_s;
    char *csr_cache_dir_s;

    pthread_mutex_t mu;
    pthread_cond_t dispatch_cv; /* dispatcher: new job, budget freed, worker free, stop */
    pthread_cond_t synth_cv;    /* synthesis workers: an admitted partition */
    pthread_cond_t dev_cv;      /* device workers: a synthesized partition */
    pthread_cond_t room_cv;     /* synthesis workers: room in the device queue */
    pthread_cond_t fin_cv;      /* finalizers: a started partition */
    pthread_cond_t done_cv;     /* awaiters and drain: a job changed state */
    pthread_cond_t srs_cv;      /* a key finished loading */
    pthread_cond_t reap_cv;     /* the reaper's sleep (woken at stop) */
    bool stopping;

    cuzk_pool *pool;
    edevice *devs;
    unsigned n_devs;

    ejob *jobs;
    uint64_t next_seq;
    uint64_t next_watch;
    unsigned n_unfinished;     /* jobs QUEUED or RUNNING */

    epart *synth_q;            /* admitted, waiting for a synthesis worker (sorted) */
    unsigned synth_q_len, synth_busy;
    epart *dev_q;              /* synthesized, waiting for a device (sorted) */
    unsigned dev_q_len, dev_busy;
    epart *fin_q;              /* started, waiting for a finalizer (sorted) */
    unsigned fin_q_len, fin_busy;
    /* the scheduler's (sched.h): admitted partitions not yet in the device queue, by
     * class; bulk partitions in the device queue; the latency reserve and what latency
     * partitions hold of the budget */
    unsigned synth_bulk, synth_lat, dev_q_bulk;
    uint64_t lat_reserve, lat_held;

    /* memory budget */
    uint64_t budget, used, peak;
    uint64_t pinned; /* the devices' pinned staging, already taken off budget */
    uint64_t hot_bytes, working_bytes;
    uint64_t device_only_bytes; /* key points held on the GPU only (srs_device.c) */
    srs_entry *srs;
    struct srs_grave *graveyard; /* evicted keys to free outside mu (srs.c) */
    unsigned burying;            /* threads freeing a list taken from the graveyard */
    struct fil_bg *fil_bg;       /* the .params digests still running behind served keys
                                  * (kind_fil_load.c), under mu; joined at destroy */

    /* counters */
    uint64_t completed, failed, cancelled;
    double t_start;
    emetrics metrics;          /* histograms, guarded by mu */
    etimeline *timeline;       /* its own lock */
    struct ejournal *journal;  /* its own lock; NULL without state_dir */

    /* test hook: fault injection (engine_testing.h) */
    int fault_stage;
    unsigned fault_count;
    int fault_device;
    bool paused;               /* engine_testing.h: the dispatcher admits nothing */
    bool hold_loads;           /* engine_testing.h: key loads wait before they start */
    bool hold_points;          /* engine_testing.h: loads wait after their circuit is out */
    bool hold_bury;            /* engine_testing.h: evicted keys are not freed */
    unsigned loaders;          /* key loads running on their own threads (srs.c): waited
                                * for at destroy */
    bool hold_devices;         /* engine_testing.h: device workers take nothing */
    bool record_events;        /* engine_testing.h: the scheduler's event log */
    struct cuzk_engine_event *events;
    size_t n_events, cap_events;

    pthread_t dispatcher, reaper;
    pthread_t *threads;
    worker_arg *args;
    unsigned n_threads;
};

#endif
