/*
 * engine_internal.h — the engine's shared state: jobs, partitions, the three stage queues,
 * the memory budget, the key (SRS) table, counters. Internal to src/engine.
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
#ifndef CUZK_ENGINE_INTERNAL_H
#define CUZK_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cuzk/circuits.h"
#include "cuzk/engine.h"
#include "cuzk/groth16.h"
#include "cuzk/pool.h"
#include "cuzk/prover.h"
#include "cuzk/r1cs.h"
#include "engine/metrics.h"
#include "engine/request.h"
#include "engine/timeline.h"

typedef struct cuzk_engine cuzk_engine;
typedef struct ejob ejob;
typedef struct epart epart;
typedef struct srs_entry srs_entry;
typedef struct ekind ekind;

/* ---- keys ------------------------------------------------------------------------------ */

/* What a key loader produces: the proving key and, when the circuit is fixed per key (a
 * .zkey's A/B matrices, the synthetic circuit, a Filecoin circuit), that circuit. */
typedef struct srs_key {
    cuzk_groth16_pk pk;
    cuzk_r1cs *r1cs;       /* NULL: each partition brings its own circuit */
    cuzk_witness_map *wmap; /* with r1cs from a recorded circuit: its bit variables (the
                               partitions' compact witnesses are laid out by it); malloc'd */
    bool benchmark_only;   /* a random key: proofs cannot verify */
    /* Synthetic keys only: the circuit's witness in compact form (laid out by wmap),
     * computed once at load. Every partition of the synthetic workload has this same
     * witness, so synthesis is a view of it: the benchmark measures the engine and the
     * prover, not the generator (whose full circuit + witness run took 5.5 s per 2^27
     * partition on 16 cores, twice the GPU's time). Real circuits' witness cost is what
     * `cuzk bench synth` measures. */
    uint64_t *wbits;
    cuzk_fr *wdense;
    uint64_t bytes;        /* what it occupies in memory (charged to the budget) */
} srs_key;

struct srs_entry {
    char id[256];
    cuzk_srs_tier tier;
    const ekind *kind;     /* whose loader */
    bool job_own;          /* a key given as bytes: dropped when its last user leaves */
    const ereq *req;       /* job_own: the request holding the bytes (alive while refs) */
    bool loading;          /* a thread is loading it (others wait on srs_cv) */
    cuzk_status load_status; /* the last load's outcome (failures are reported to users) */
    char load_error[CUZK_ERROR_MSG_MAX];
    srs_key key;           /* valid when tier == HOT */
    uint64_t charged;      /* bytes of the budget this entry holds while HOT */
    uint64_t est_bytes;    /* what a load is expected to take (then: what it took) */
    uint64_t pending_charge; /* budget reserved at admission for the coming load */
    uint64_t load_gen;     /* loads finished (waiters tell a failed load from a new one) */
    uint64_t file_size;    /* for keys from files: the file's size (WARM/COLD report it) */
    void *map;             /* WARM: the file mapping kept after eviction (page cache) */
    size_t map_len;
    uint32_t refs;         /* partitions admitted that use it */
    double last_used_ms;
    uint64_t load_ms_last;
    srs_entry *next;
};

/* ---- kinds ----------------------------------------------------------------------------- */

/* Planning a job at submit (cheap, no file decoding): how many partitions, which key, and
 * upper bounds on the memory a partition and the key take. */
typedef struct ekind_plan {
    uint32_t partitions;
    char circuit_id[256];
    bool job_own_key;          /* the key is in the request's bytes */
    uint64_t partition_bytes;  /* witness + own circuit + prover scratch, upper bound */
    uint64_t key_bytes;        /* decoded key + shared circuit, upper bound */
    void *parsed;              /* the kind's parsed inputs, kept for synthesis (owned by
                                  the job; released by the kind's plan_free) */
} ekind_plan;

/* A synthesized partition: the witness (and the circuit when it is the partition's own). */
typedef struct esynth {
    cuzk_witness w;
    cuzk_fr *w_owned;          /* freed with free() */
    cuzk_compact_assignment ca; /* a compact witness's arrays (cuzk_compact_assignment_free) */
    cuzk_r1cs *r1cs_owned;     /* NULL: the key's circuit */
    uint64_t bytes;            /* what the above occupy */
} esynth;

struct ekind {
    cuzk_proof_kind kind;
    const char *name;
    cuzk_priority default_priority;
    /* Validates the request and plans it; CUZK_ERR_UNSUPPORTED for circuits not built. */
    cuzk_status (*plan)(const cuzk_engine *e, const ereq *req, ekind_plan *plan,
                        cuzk_error *err);
    /* Whether a circuit id names one of this kind's keys (preload/evict by id). */
    bool (*owns_circuit)(const char *circuit_id);
    /* Loads the key named circuit_id (req: the job's request for job-own keys, else NULL);
     * map/map_len: the file mapping to decode from when the kind keys by file (the SRS
     * manager maps it and keeps it as the WARM tier), else NULL. */
    cuzk_status (*load_key)(const cuzk_engine *e, const char *circuit_id, const ereq *req,
                            const uint8_t *map, size_t map_len, srs_key *key,
                            cuzk_pool *pool, cuzk_error *err);
    /* The file a key is decoded from (written into path), or false if generated. */
    bool (*key_file)(const cuzk_engine *e, const char *circuit_id, char *path, size_t cap);
    /* Synthesizes partition part of the job: its witness (and own circuit, if any). plan
     * is the job's (its parsed inputs included), read-only here. */
    cuzk_status (*synthesize)(const cuzk_engine *e, const ereq *req, const ekind_plan *plan,
                              const srs_key *key, uint32_t part, cuzk_pool *pool, esynth *out,
                              cuzk_error *err);
    /* Releases plan->parsed (NULL: the kind keeps nothing there). */
    void (*plan_free)(ekind_plan *plan);
};

/* The Filecoin fields that choose a circuit (registered_proof, sector_size) name nothing
 * for the extension kinds, whose circuit is in the request: one given there is a confused
 * request, refused with CUZK_ERR_INVALID_ARG (kinds.c; what: the kind's name). */
cuzk_status engine_no_filecoin_proof(const ereq *q, const char *what, cuzk_error *err);

const ekind *engine_kind_find(cuzk_proof_kind k);
const ekind *engine_kind_for_circuit(const char *circuit_id);
void esynth_free(esynth *s);

/* ---- jobs and partitions --------------------------------------------------------------- */

typedef struct ewatch {
    uint64_t id;
    cuzk_job_watch_fn fn;
    void *ctx;
    struct ewatch *next;
} ewatch;

struct ejob {
    char id[CUZK_JOB_ID_SIZE];
    uint64_t seq;              /* submission order (FIFO within a priority; journal order) */
    ereq *req;                 /* owned, immutable after submit */
    const ekind *kind;
    ekind_plan plan;
    cuzk_priority prio;
    cuzk_job_state state;      /* QUEUED, RUNNING or a finished state */
    uint32_t next_part;        /* next partition to admit */
    uint32_t in_flight;        /* admitted partitions not yet returned */
    uint32_t parts_done;
    uint8_t *proof;            /* plan.partitions x 192 bytes, filled as partitions finish */
    bool benchmark_only;
    cuzk_status err_code;
    char err[CUZK_ERROR_MSG_MAX];
    volatile int cancel;       /* read by the prover between stages */
    double t_submit, t_first_admit, t_finish, t_collected; /* cuzk_prover_clock_ms */
    int64_t wall_finish;       /* time(NULL) at finish, for the journal's TTL */
    uint64_t srs_ms, synth_ms, dev_ms, fin_ms;
    bool collected;
    bool spooling;             /* being journaled by submit: not yet schedulable */
    char device[64];
    ewatch *watches;
    ejob *next;                /* the job table (a list, newest first) */
};

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

/* ---- devices --------------------------------------------------------------------------- */

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
    char out_why[CUZK_ERROR_MSG_MAX];
    int track;                 /* timeline track of its device-held intervals */
} edevice;

typedef struct worker_arg {
    cuzk_engine *e;
    unsigned dev, idx;
    int track;
} worker_arg;

/* ---- the engine ------------------------------------------------------------------------ */

struct cuzk_engine {
    cuzk_engine_config cfg;    /* strings point into the owned copies below */
    struct ereleaser *releaser; /* frees of big partitions, off the workers' path */
    uint64_t release_later_min; /* partitions holding this much or more go to it */
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
    epart *fin_q;              /* started, waiting for a finalizer (FIFO) */
    epart *fin_q_tail;
    unsigned fin_q_len, fin_busy;

    /* memory budget */
    uint64_t budget, used, peak;
    uint64_t hot_bytes, working_bytes;
    srs_entry *srs;
    struct srs_grave *graveyard; /* evicted keys to free outside mu (srs.c) */

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

    pthread_t dispatcher, reaper;
    pthread_t *threads;
    worker_arg *args;
    unsigned n_threads;
};

/* A job is over once it is COMPLETED, FAILED or CANCELLED (mu held). */
static inline bool engine_job_over(const ejob *j)
{
    return j->state != CUZK_JOB_QUEUED && j->state != CUZK_JOB_RUNNING;
}

/* Copies src into dst[cap], truncating (messages and names are best-effort text). */
static inline void engine_strcpy(char *dst, size_t cap, const char *src)
{
    size_t n = strnlen(src, cap - 1);
    memcpy(dst, src, n);
    dst[n] = 0;
}

/* ---- shared helpers (engine.c, jobs.c, pipeline.c, budget.c, srs.c) ----------------------- */

void engine_log(const cuzk_engine *e, cuzk_log_level lvl, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
double engine_now_ms(void);

/* dev_setup.c: the options a development setup (cuzk_groth16_setup_dev_ex) of e runs
 * with: the fixed-base hook of e's first in-service GPU device, opened into *hook (close
 * it with cuzk_prover_fixed_base_hook_close after the setup; NULL when e has no GPU: the
 * multiplications stay on the CPU pool), and e's log for the setup's phase times. Logs
 * which of the two `what` (a key's name) gets. */
void engine_setup_opts(const cuzk_engine *e, const char *what, cuzk_groth16_setup_opts *opts,
                       cuzk_groth16_fixed_base_hook **hook);

/* jobs.c */
ejob *engine_job_find(cuzk_engine *e, const char *id);
/* Ends a job (state FAILED/CANCELLED/COMPLETED) once: counters, journal, watches. mu held. */
void engine_job_finish(cuzk_engine *e, ejob *j, cuzk_job_state st, cuzk_status code,
                       const char *msg);
void engine_jobs_free_all(cuzk_engine *e);
/* Fills r from j (mu held); with_proof copies the proof bytes (malloc'd). */
void engine_job_result(cuzk_engine *e, const ejob *j, cuzk_job_result *r, bool with_proof);
/* Plans j with its kind (mu NOT held: it may read file headers); sizes its proof. */
cuzk_status engine_job_plan(cuzk_engine *e, ejob *j, cuzk_error *err);
void engine_jobs_reap(cuzk_engine *e);  /* drops expired results; mu held */
cuzk_status engine_job_enqueue(cuzk_engine *e, ereq *req, const char *id, uint64_t seq,
                               ejob **out, cuzk_error *err); /* mu held; takes req */

/* pipeline.c */
void engine_job_purge(cuzk_engine *e, ejob *j); /* mu held, released meanwhile */
void *engine_dispatcher_main(void *arg);
void *engine_synth_main(void *arg);
void *engine_device_main(void *arg);
void *engine_finalizer_main(void *arg);

/* budget.c (mu held) */
bool engine_budget_try(cuzk_engine *e, uint64_t n);     /* evicts idle keys if needed */
void engine_budget_release(cuzk_engine *e, uint64_t n);
uint64_t engine_budget_auto(uint64_t margin);

/* srs.c (mu held unless said) */
srs_entry *engine_srs_get(cuzk_engine *e, const char *id, const ekind *k, const ereq *req,
                          bool create);
bool engine_srs_evict_one(cuzk_engine *e, uint64_t need); /* LRU idle HOT key */
uint64_t engine_srs_evict_entry(cuzk_engine *e, srs_entry *s); /* -> bytes freed */
/* Makes s HOT, loading it if needed with mu released during the load; the budget comes
 * from s->pending_charge (reserved at admission) or is reserved here. *wait_ms (optional)
 * += the time spent. j: the job whose partition needs the key (NULL for a preload): while
 * another thread loads the key, the wait ends with CUZK_ERR_CANCELLED as soon as j is
 * over or the engine stops, so a cancelled job never holds a worker behind a slow load. */
cuzk_status engine_srs_ensure(cuzk_engine *e, srs_entry *s, const ejob *j, uint64_t *wait_ms,
                              cuzk_error *err);
void engine_srs_unref(cuzk_engine *e, srs_entry *s);
void engine_srs_bury(cuzk_engine *e);      /* frees evicted keys; mu NOT held */
void engine_srs_free_all(cuzk_engine *e);  /* destroy; mu NOT held */
uint64_t engine_key_estimate(const cuzk_engine *e, const char *id, uint64_t file_size);
uint64_t engine_synthetic_key_bytes(unsigned log2n);

/* kinds.c: what keys and circuits occupy in host memory, the one rule for the budget's
 * charges (srs_key.bytes) and the plans made before loading (cuzk/plan.h). */
uint64_t engine_pk_bytes(const cuzk_groth16_pk *pk);
uint64_t engine_pk_bytes_of(uint64_t n_ic, uint64_t n_h, uint64_t n_l, uint64_t n_a,
                            uint64_t n_b_g1, uint64_t n_b_g2);
uint64_t engine_r1cs_bytes(const cuzk_r1cs *r);
/* values: 32-byte coefficients per term (a recorded circuit); n_table: the table of
 * distinct coefficients with a 4-byte index per term (a mapped CSR cache), else 0 */
uint64_t engine_r1cs_bytes_of(uint64_t rows, uint64_t n_vars, const uint64_t nnz[3],
                              bool values, uint64_t n_table);
uint64_t engine_wmap_bytes(uint64_t n_vars); /* a compact-witness map: is_bit + rank */
/* A compact witness: the bits' bitmap and the other variables' dense values. */
uint64_t engine_compact_witness_bytes(uint64_t n_vars, uint64_t n_bits);
/* Any device on the CPU backend: partitions are then charged the CPU prover's memory. */
bool engine_has_cpu_device(const cuzk_engine *e);

#endif
