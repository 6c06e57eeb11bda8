/*
 * cuzk/engine.h — the proving engine: a library that accepts proof jobs, schedules them by
 * priority, runs their partitions through a pipeline (CPU synthesis -> device prove ->
 * finalize + self-check) over one or more prover backends (cuzk/prover.h), keeps proving
 * keys resident under one memory budget, journals accepted jobs so they survive a
 * restart, and reports status, metrics and a timeline. The daemon (cmd/cuzkd) and the
 * gRPC server (src/server) are thin shells over this API; every call here is thread-safe.
 *
 * Jobs
 *   A job is one proof request (cuzk_job_request): a kind (numbered as Filecoin Curio's
 *   cuzk.v1 ProofKind, plus our extensions GROTH16 and SYNTHETIC), a priority, and the
 *   kind's inputs. cuzk_engine_submit validates the request cheaply, journals it (inputs
 *   fsync'd to the state directory when one is configured) and returns its id, a UUID
 *   string, before any proving. A request_id makes a retry find its job (Curio reuses ids
 *   such as porep-<miner>-<sector> and retries with them), by these rules:
 *     - a job of that id that is queued or running is joined (its id is returned,
 *       ticket.duplicate = true, nothing is queued) when the new request is the same
 *       request; a different request is refused (CUZK_ERR_INVALID_ARG: the id is in use);
 *     - a COMPLETED job not yet expired is returned only for the same request;
 *     - a FAILED or CANCELLED job is never replayed: the retry is a new job.
 *   "The same request": the same kind and inputs (registered proof, sector size, sector
 *   and miner ids, partition index, every byte field, each path with the identity of the
 *   file it named at submit: device, inode, size, modification and change times); the
 *   priority and the request_id itself are not inputs.
 *
 *   Life: QUEUED -> RUNNING -> COMPLETED | FAILED | CANCELLED. A finished job's result is
 *   kept until it is collected (returned by a cuzk_engine_await that saw it finished) plus
 *   collected_ttl_s, or result_ttl_s after it finished, whichever comes first; then the
 *   id is unknown (CUZK_ERR_NOT_FOUND).
 *
 * Scheduling
 *   Jobs start in priority order CRITICAL > HIGH > NORMAL > LOW, FIFO within a priority
 *   (submission order). A job is split into partitions (a PoRep C2 has 10, a synthetic
 *   job as many as asked); every partition is a work item keyed (job sequence,
 *   partition): synthesis workers take the lowest key first, so partitions of several
 *   jobs interleave and the device never waits between jobs, and jobs finish in the
 *   order they started. Nothing preempts a partition already on a device.
 *   Admission is by memory: a partition enters synthesis only when its estimated working
 *   set fits in the budget next to the resident keys (idle keys are evicted to make room);
 *   its bytes return when its proof is finalized (the large share as soon as the device
 *   is done with them).
 *
 * Proofs
 *   Every proof is pairing-checked against its verifying key before it is returned
 *   (cuzk_prover_finalize does it). A partition whose proof fails the check, or whose
 *   device reports an error, is retried once (on another device when there is one); a
 *   second failure fails the job with the error. A failed partition fails its job; its
 *   other partitions are skipped. A proof is the concatenation of the partitions' 192-byte
 *   bellperson encodings, in partition order.
 *   A synthetic job larger than synthetic_setup_max_log2n uses a random key (cuzk/groth16.h
 *   cuzk_groth16_pk_random): its proofs cannot verify, so they are never returned; the
 *   result is COMPLETED with benchmark_only set, no proof bytes, and the timings.
 *
 * Kinds
 *   POREP_SEAL_COMMIT: vanilla_proof = the C1 output (cuzk/c1.h: filecoin-ffi's JSON or
 *     curio's base64 wrapper), parsed and checked (paths, labels, commitments, challenges)
 *     at submit; one partition per C1 partition (cuzk/porep.h). sector_size, when given,
 *     must equal the C1's.
 *   WINDOW_POST_PARTITION, WINNING_POST: either vanilla_proof = the PoSt job document of
 *     cuzk/post.h, or the cuzk.v1 fields: registered_proof (Go abi number), randomness (32
 *     bytes), partition_index and vanilla_proofs (one per sector: bincode bytes as
 *     filecoin-ffi takes them, or serde JSON); parsed and checked (paths, comm_r,
 *     challenges) at submit; one partition. The registered proof must be of the job's kind.
 *   A malformed Filecoin input fails submit with the parser's message (CUZK_ERR_FORMAT,
 *   LENGTH, NONCANONICAL, INVALID_PROOF ...), before any proving work.
 *   SNAP_DEALS_UPDATE: either vanilla_proof = the SnapDeals job document of cuzk/snap.h,
 *     or the cuzk.v1 fields: registered_proof (Go abi number), comm_r_old, comm_r_new,
 *     comm_d_new and vanilla_proofs (one partition proof each); every partition checked at
 *     submit; one partition per partition proof.
 *   GROTH16: a circuit given as files or bytes, one partition:
 *     snarkjs:    zkey + wtns (+ optional r1cs to name a failing constraint);
 *     bellperson: params + r1cs + wtns.
 *   SYNTHETIC: cuzk_synthetic_porep(log2n, seed + partition) per partition.
 *
 * Keys (SRS)
 *   Keys are named by circuit id: "synthetic-<log2n>" (dev setup, or random key above
 *   synthetic_setup_max_log2n), "zkey:<absolute path>" and "params:<absolute path>" for
 *   GROTH16 jobs given by path (a key given as bytes belongs to its job alone), and the
 *   Filecoin ids "porep-<s>", "wpost-<s>", "winning-<s>", "snap-<s>" (s = 2k, 8m, 512m,
 *   32g, 64g):
 *   the circuit recorded once per id (kept with the key) and the .params of param_dir
 *   (Filecoin's file name; checked against the circuit), else the dev key cached in
 *   dev_key_dir (made on first use, logged as NOT Filecoin's trusted setup). Tiers: HOT (decoded in
 *   memory, ready), WARM (file mapped, pages not yet decoded), COLD (on disk only).
 *   A key is loaded on demand, reference-counted while a partition uses it, and evicted
 *   least-recently-used when idle (eviction_min_idle_s) and the budget is short; a key
 *   of a CRITICAL or HIGH job is kept (keep_latency_keys).
 *
 * Latency classes
 *   CRITICAL (WinningPoSt) and HIGH (WindowPoSt) jobs find a free place at every stage
 *   while NORMAL/LOW work saturates the engine: admission (a memory reserve, no synthesis
 *   slot needed), synthesis, the device (one extra worker per device; the device mutex is
 *   handed over by priority) and finalize (one extra finalizer), with at most
 *   device_queue_depth NORMAL/LOW partitions synthesized ahead. Nothing preempts a running
 *   partition: such a job waits about one NORMAL/LOW partition's device time, then runs.
 *   The model is in src/engine/sched.h.
 *
 * Threading
 *   Every function may be called from any thread at any time between create and destroy.
 *   The engine owns its threads (synthesis workers, device workers, finalizers, the
 *   dispatcher, the reaper, the background releaser, and the CPU pool's); callbacks (log,
 *   watch) run on them and must not call cuzk_engine_destroy.
 */
#ifndef CUZK_ENGINE_H
#define CUZK_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_engine cuzk_engine;

/* ---------------------------------------------------------------------------------------
 * Enumerations (values match cuzk.v1 where the proto has them)
 * ------------------------------------------------------------------------------------- */

typedef enum cuzk_proof_kind {
    CUZK_PROOF_UNSPECIFIED = 0,
    CUZK_PROOF_POREP_SEAL_COMMIT = 1,
    CUZK_PROOF_SNAP_DEALS_UPDATE = 2,
    CUZK_PROOF_WINDOW_POST_PARTITION = 3,
    CUZK_PROOF_WINNING_POST = 4,
    CUZK_PROOF_GROTH16 = 100,   /* extension: a generic Groth16 circuit (snarkjs/bellperson) */
    CUZK_PROOF_SYNTHETIC = 101, /* extension: the synthetic PoRep-shaped benchmark circuit */
} cuzk_proof_kind;

/* Stable lower-case name ("porep_seal_commit", "groth16", ...); "unknown" otherwise. */
const char *cuzk_proof_kind_name(cuzk_proof_kind k);

typedef enum cuzk_priority {
    CUZK_PRIORITY_DEFAULT = 0, /* the kind's default: WINNING_POST CRITICAL, WINDOW_POST
                                  HIGH, everything else NORMAL */
    CUZK_PRIORITY_LOW = 1,
    CUZK_PRIORITY_NORMAL = 2,
    CUZK_PRIORITY_HIGH = 3,
    CUZK_PRIORITY_CRITICAL = 4,
} cuzk_priority;

/* The first five equal cuzk.v1 AwaitProofResponse.Status. */
typedef enum cuzk_job_state {
    CUZK_JOB_UNKNOWN = 0,
    CUZK_JOB_COMPLETED = 1,
    CUZK_JOB_FAILED = 2,
    CUZK_JOB_CANCELLED = 3,
    CUZK_JOB_TIMEOUT = 4, /* only in an await result: the job was still queued/running */
    CUZK_JOB_QUEUED = 5,
    CUZK_JOB_RUNNING = 6,
} cuzk_job_state;

const char *cuzk_job_state_name(cuzk_job_state s); /* "completed", ...; never NULL */

/* Values equal cuzk.v1 SRSStatus.Tier. */
typedef enum cuzk_srs_tier {
    CUZK_SRS_HOT = 0,
    CUZK_SRS_WARM = 1,
    CUZK_SRS_COLD = 2,
} cuzk_srs_tier;

typedef enum cuzk_log_level {
    CUZK_LOG_ERROR = 0,
    CUZK_LOG_WARN = 1,
    CUZK_LOG_INFO = 2,
    CUZK_LOG_DEBUG = 3,
} cuzk_log_level;

/* A log line (no trailing newline). Called from engine threads, possibly concurrently. */
typedef void (*cuzk_log_fn)(void *ctx, cuzk_log_level level, const char *msg);

/* ---------------------------------------------------------------------------------------
 * Configuration
 * ------------------------------------------------------------------------------------- */

typedef struct cuzk_engine_config {
    /* Memory: one budget for resident keys and partition working sets. 0 = auto:
     * MemTotal (/proc/meminfo) minus memory_safety_margin. */
    uint64_t memory_budget;
    uint64_t memory_safety_margin;  /* default 5 GiB */

    unsigned threads;               /* CPU pool shared by all stages; 0 = all CPUs */
    unsigned synthesis_workers;     /* partitions synthesized at once; 0 = 2 */
    /* Devices: comma-separated prover specs (cuzk_prover_open): "auto" (default, NULL),
     * "cpu", "gpu:0,gpu:1", "cpu,cpu" (two CPU "devices", for tests), "all" (every GPU,
     * or the CPU when there is none). */
    const char *devices;
    unsigned workers_per_device;    /* device workers per device; 0 = 2 */
    unsigned finalizers;            /* finalize + self-check threads; 0 = 2 */
    /* Bound on synthesized NORMAL/LOW partitions waiting for a device; 0 = one per device
     * worker. CRITICAL and HIGH partitions are not counted: they never wait for room, and
     * each stage keeps one more thread for them (see "Latency classes" above). */
    unsigned device_queue_depth;
    /* Keys used by CRITICAL or HIGH jobs stay resident: a NORMAL/LOW admission never
     * evicts them, unless it could not fit beside them at all. Default (config_default)
     * true. */
    bool keep_latency_keys;
    /* With one device, a GPU: once a NORMAL/LOW job's key (PoRep, SnapDeals) is resident
     * on it (not streamed), its points' host copy is freed and its budget given back
     * (cuzk_prover_key_adopt); the key stays HOT with its circuit, and an eviction drops
     * the device copy with it (the next load reads the file again). Latency keys keep
     * their host copy: they stream from it when the device is full. Default true. */
    bool keys_on_device_only;

    const char *state_dir;          /* journal; NULL or "" = jobs do not survive a restart */
    const char *param_dir;          /* Filecoin .params files (the Filecoin kinds' keys),
                                       named as Filecoin names them (v28-...params) */
    /* Where the Filecoin kinds may make and cache a DEV key (cuzk's own setup over the
     * recorded circuit, NOT Filecoin's trusted setup: its proofs verify only against that
     * dev key, never on chain) for a circuit whose .params is not in param_dir. NULL or
     * "" = no dev keys: a Filecoin job without its .params is refused at submit. */
    const char *dev_key_dir;
    /* Where the Filecoin kinds cache their recorded circuits (<dir>/<circuit id>.csr,
     * cuzk/r1cs_cache.h), written after the first recording and memory-mapped on later
     * loads (a 32 GiB PoRep partition takes minutes to record). NULL or "" = dev_key_dir,
     * else state_dir, else no cache (every load records). */
    const char *csr_cache_dir;
    uint64_t result_ttl_s;          /* keep an uncollected result this long; 0 = 3600 */
    uint64_t collected_ttl_s;       /* keep a collected result this long; 0 = 300 */
    uint64_t eviction_min_idle_s;   /* a key idle less than this is not evicted; 0 = none */

    /* Synthetic keys: sizes up to this get a dev setup (verifiable proofs), larger ones a
     * random key (benchmark only). 0 = 12. */
    unsigned synthetic_setup_max_log2n;

    /* Timeline: events are kept in memory (timeline_events of them, 0 = 65536) for
     * cuzk_engine_timeline_write; with timeline_path set they are also streamed there as
     * Chrome trace-event JSON, rotated to <path>.1 past timeline_rotate_bytes (0 = 64 MiB). */
    const char *timeline_path;
    uint64_t timeline_rotate_bytes;
    unsigned timeline_events;

    cuzk_log_fn log;                /* NULL = stderr */
    void *log_ctx;
    cuzk_log_level log_level;       /* lines above this level are dropped; default INFO */
} cuzk_engine_config;

/* Fills cfg with the defaults above (zeros / NULLs, log_level INFO). */
void cuzk_engine_config_default(cuzk_engine_config *cfg);

/*
 * Creates an engine: opens the devices, the CPU pool and the journal, resumes the jobs the
 * journal holds (queued and running ones are queued again in their original order; finished
 * results are served until they expire, except a COMPLETED record that fails its checksum
 * or lacks its proof: that job is proved again, and the record is logged and kept aside),
 * and starts the threads. The config strings are
 * copied. Errors: CUZK_ERR_INVALID_ARG (bad config), CUZK_ERR_UNSUPPORTED (a device spec
 * this build or machine cannot open), CUZK_ERR_IO (state_dir unusable), NOMEM.
 */
cuzk_status cuzk_engine_create(cuzk_engine **out, const cuzk_engine_config *cfg,
                               cuzk_error *err);

/*
 * Shuts down: stops accepting (submit answers CUZK_ERR_UNAVAILABLE), cancels device work
 * in flight (a partition finishes its current kernel stage), joins every thread, releases
 * everything. Jobs not finished stay in the journal and resume at the next create; without
 * a journal they are lost. Watches that have not fired are dropped without a call.
 * NULL is a no-op. No other call may be in progress or start during destroy.
 */
void cuzk_engine_destroy(cuzk_engine *e);

/* Waits until no job is queued or running, or timeout_ms passes (0 = forever).
 * CUZK_OK when idle, CUZK_ERR_UNAVAILABLE on timeout. For benchmarks, tests and a
 * draining shutdown. */
cuzk_status cuzk_engine_drain(cuzk_engine *e, uint64_t timeout_ms);

/* ---------------------------------------------------------------------------------------
 * Jobs
 * ------------------------------------------------------------------------------------- */

typedef struct cuzk_bytes {
    const uint8_t *data;
    size_t len;
} cuzk_bytes;

#define CUZK_REQUEST_ID_MAX 128 /* bytes, NUL excluded */

typedef struct cuzk_job_request {
    const char *request_id;       /* idempotency key; NULL or "" = none */
    cuzk_proof_kind kind;
    cuzk_priority priority;       /* DEFAULT = the kind's default */

    /* Filecoin kinds (cuzk.v1 SubmitProofRequest; fields the kind does not use are
     * ignored). Byte buffers are copied by submit. */
    uint64_t sector_size;
    uint64_t registered_proof;
    cuzk_bytes vanilla_proof;            /* PoRep C1 output JSON */
    const cuzk_bytes *vanilla_proofs;    /* PoSt: per sector; Snap: per partition */
    size_t n_vanilla_proofs;
    uint64_t sector_number;
    uint64_t miner_id;
    cuzk_bytes randomness;               /* 32 bytes or empty */
    uint32_t partition_index;
    cuzk_bytes comm_r_old, comm_r_new, comm_d_new; /* 32 bytes each or empty */

    /* GROTH16: each input is a path (read by the engine, which must be able to open it; a
     * regular file: a FIFO, a device or a directory is refused at submit) or bytes
     * (copied); give one form per input, not both. snarkjs: zkey + wtns (+ r1cs).
     * bellperson: params + r1cs + wtns. */
    struct {
        const char *zkey_path, *params_path, *r1cs_path, *wtns_path;
        cuzk_bytes zkey, params, r1cs, wtns;
        /* With has_fds, each *_fd is a read-only descriptor of the regular file its path
         * names (-1 where no path is given), opened by the submitter (cuzkd opens a
         * client's files as the client): the engine reads through duplicates of those and
         * never opens the paths itself, which then only name the files. The submitter
         * closes its own descriptors. Without has_fds the engine opens each path once, at
         * submit, with its own rights. */
        bool has_fds;
        int zkey_fd, params_fd, r1cs_fd, wtns_fd;
    } groth16;

    /* SYNTHETIC: partitions x cuzk_synthetic_porep(log2n, seed + i). 2 <= log2n <= 28,
     * 1 <= partitions <= 64. */
    struct {
        uint32_t log2n;
        uint32_t partitions;
        uint64_t seed;
    } synthetic;
} cuzk_job_request;

#define CUZK_JOB_ID_SIZE 37 /* a UUID string, 36 characters + NUL */

typedef struct cuzk_job_ticket {
    char job_id[CUZK_JOB_ID_SIZE];
    uint32_t queue_position; /* jobs that will start before this one (0 = next) */
    char assigned_gpu[64];   /* "" until a device takes a partition of the job */
    bool duplicate;          /* request_id matched a job of the same request (queued,
                                running, or COMPLETED): its id is returned */
} cuzk_job_ticket;

/*
 * Accepts a job (see Jobs above). Returns once the job is journaled. Errors:
 * CUZK_ERR_INVALID_ARG (malformed request: unknown kind, missing or double inputs, sizes
 * out of range, request_id too long, request_id in use by a different queued or running
 * request), CUZK_ERR_UNSUPPORTED (a sector size the kind has no circuit for),
 * CUZK_ERR_NOT_FOUND (a Filecoin key that cannot be had: no .params, no dev_key_dir),
 * CUZK_ERR_IO (journal write failed),
 * CUZK_ERR_UNAVAILABLE (shutting down), NOMEM.
 */
cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_job_request *req,
                               cuzk_job_ticket *ticket, cuzk_error *err);

/* Stage times of a job in milliseconds (sums over its partitions for the stage ones). */
typedef struct cuzk_job_timings {
    uint64_t queue_wait_ms;   /* submit -> first partition admitted */
    uint64_t srs_load_ms;     /* waiting for its key to load */
    uint64_t synthesis_ms;    /* circuit + witness synthesis */
    uint64_t gpu_compute_ms;  /* cuzk_prover_start (device) */
    uint64_t finalize_ms;     /* cuzk_prover_finalize (assembly + self-check) */
    uint64_t total_ms;        /* submit -> finished (so far, while running) */
} cuzk_job_timings;

typedef struct cuzk_job_result {
    char job_id[CUZK_JOB_ID_SIZE];
    cuzk_job_state state;
    cuzk_proof_kind kind;
    cuzk_priority priority;
    uint32_t partitions;
    uint32_t partitions_done;
    uint8_t *proof;           /* COMPLETED: partitions x 192 bytes (malloc'd; NULL for
                                 benchmark-only results); release with _result_free */
    size_t proof_len;
    bool benchmark_only;      /* random-key synthetic job: timings only, no proof */
    cuzk_status error_code;   /* FAILED / CANCELLED: why */
    char error[CUZK_ERROR_MSG_MAX];
    char device[64];          /* the last device that worked on it ("" if none) */
    cuzk_job_timings t;
} cuzk_job_result;

void cuzk_job_result_free(cuzk_job_result *r); /* frees proof; NULL or zeroed is a no-op */

/*
 * Waits until the job is finished or timeout_ms passes (0 = forever, as cuzk.v1). On
 * CUZK_OK *out holds the state: a finished state with the proof or error, or
 * CUZK_JOB_TIMEOUT (the job goes on; await again). A finished result returned here counts
 * as collected. Errors: CUZK_ERR_NOT_FOUND (unknown or expired id), CUZK_ERR_UNAVAILABLE
 * (the engine is shutting down while waiting), NOMEM.
 */
cuzk_status cuzk_engine_await(cuzk_engine *e, const char *job_id, uint64_t timeout_ms,
                              cuzk_job_result *out, cuzk_error *err);

/* The job's current state without waiting or collecting (QUEUED / RUNNING / a finished
 * state; the proof is copied too when finished). CUZK_ERR_NOT_FOUND for unknown ids. */
cuzk_status cuzk_engine_job_info(cuzk_engine *e, const char *job_id, cuzk_job_result *out,
                                 cuzk_error *err);

/*
 * Cancels a queued or running job: queued partitions are dropped, running ones are told
 * to stop (a device stage finishes its kernel first; a partition waiting for a key that
 * another job's partition is loading stops waiting), everything is freed, the job ends
 * CANCELLED. *was_running (optional) = a partition of it had been admitted. A finished
 * job is left as it is (CUZK_OK, was_running false). CUZK_ERR_NOT_FOUND for unknown ids.
 */
cuzk_status cuzk_engine_cancel(cuzk_engine *e, const char *job_id, bool *was_running,
                               cuzk_error *err);

/*
 * Calls fn(ctx, job_id, state) once, from an engine thread, when the job finishes (or at
 * once, on the calling thread, if it already has). For event-loop servers that cannot
 * block in await: the callback runs with the engine's lock held, so it must only wake the
 * loop (write an eventfd, signal a condition) and never call into the engine; the loop
 * then calls cuzk_engine_await(..., timeout 1) to fetch the result. *watch_id receives a handle for
 * cuzk_engine_unwatch (a client gone before the job finished). CUZK_ERR_NOT_FOUND for
 * unknown ids.
 */
typedef void (*cuzk_job_watch_fn)(void *ctx, const char *job_id, cuzk_job_state state);
cuzk_status cuzk_engine_watch(cuzk_engine *e, const char *job_id, cuzk_job_watch_fn fn,
                              void *ctx, uint64_t *watch_id, cuzk_error *err);
/* Removes a watch that has not fired; after it returns fn will not be called for it.
 * Unknown or already fired ids are ignored. */
void cuzk_engine_unwatch(cuzk_engine *e, uint64_t watch_id);

/* ---------------------------------------------------------------------------------------
 * Keys
 * ------------------------------------------------------------------------------------- */

/* Loads a key into the HOT tier now. *already_loaded: it was HOT before; *load_ms: time
 * spent here. Errors: CUZK_ERR_NOT_FOUND (unknown circuit id), the loader's errors,
 * CUZK_ERR_NOMEM when it cannot fit the budget even after evicting idle keys. */
cuzk_status cuzk_engine_preload(cuzk_engine *e, const char *circuit_id, bool *already_loaded,
                                uint64_t *load_ms, cuzk_error *err);
/* The same for a "zkey:<path>" / "params:<path>" id whose file the caller opened (as the
 * client it serves, say): a load reads fd (a duplicate of it; the caller keeps and closes
 * its own), never what the path names by then. fd -1: cuzk_engine_preload. A key already
 * HOT or WARM from that path (the same file) is used as it is. */
cuzk_status cuzk_engine_preload_fd(cuzk_engine *e, const char *circuit_id, int fd,
                                   bool *already_loaded, uint64_t *load_ms, cuzk_error *err);

/* Drops a key from memory unless a partition is using it (then CUZK_ERR_UNAVAILABLE,
 * nothing evicted). *was_loaded / *freed_bytes: what was released. An unknown or cold key:
 * CUZK_OK, was_loaded false. */
cuzk_status cuzk_engine_evict(cuzk_engine *e, const char *circuit_id, bool *was_loaded,
                              uint64_t *freed_bytes, cuzk_error *err);

/* A DEV key for Filecoin circuit circuit_id ("porep-32g", "wpost-2k", ...) made from the
 * 32-byte toxic-waste seed (cuzk_groth16_setup_dev_ex: the same key for the same seed and
 * circuit on any pool or device; its point multiplications on e's GPU when it has one),
 * written into dir exactly as Filecoin ships keys: <Filecoin's name>.params and .vk plus
 * their parameters.json entries (cuzk_param_files_write). The circuit is e's recorded one
 * (its csr cache). NOT Filecoin's trusted setup: for exercising the official-file path
 * (cold loads, digests, tiers) at full size without the 47 GB download. *out: what was
 * written and how long each step took. Errors: NOT_FOUND (unknown id), the recording's,
 * the setup's and the writer's. Threading: uses e's pool; call it with no jobs running
 * (the key is not charged to the budget). */
typedef struct cuzk_fil_params_written {
    char params_path[4096];
    char params_digest[33], vk_digest[33]; /* parameters.json's "digest" of each */
    uint64_t params_bytes, vk_bytes;
    double record_s, setup_s, write_s;
} cuzk_fil_params_written;
cuzk_status cuzk_engine_write_fil_params(cuzk_engine *e, const char *circuit_id,
                                         const uint8_t seed[32], const char *dir,
                                         cuzk_fil_params_written *out, cuzk_error *err);

/* ---------------------------------------------------------------------------------------
 * Status, metrics, timeline
 * ------------------------------------------------------------------------------------- */

typedef struct cuzk_device_status {
    uint32_t ordinal;
    char name[128];           /* cuzk_prover_describe */
    bool is_gpu;
    uint64_t vram_total_bytes, vram_free_bytes; /* 0 for CPU devices */
    char current_job_id[CUZK_JOB_ID_SIZE];      /* "" when idle */
    cuzk_proof_kind current_kind;
    uint64_t partitions_done, partitions_failed;
    double busy_ratio;        /* device-held time / uptime */
    bool in_service;          /* false: taken out of rotation for good (see out_reason) */
    char out_reason[256];
} cuzk_device_status;

typedef struct cuzk_srs_status {
    char circuit_id[256];
    cuzk_srs_tier tier;
    uint64_t size_bytes;      /* bytes charged to the budget (HOT), or the file size */
    uint32_t ref_count;       /* partitions using it now */
    uint64_t idle_ms;         /* since last use */
} cuzk_srs_status;

typedef struct cuzk_queue_status {
    cuzk_proof_kind kind;
    uint32_t pending;         /* jobs queued, no partition admitted yet */
    uint32_t in_progress;     /* jobs with an admitted partition */
} cuzk_queue_status;

typedef struct cuzk_engine_status {
    cuzk_device_status *devices;
    size_t n_devices;
    cuzk_srs_status *srs;
    size_t n_srs;
    cuzk_queue_status *queues; /* one per kind with any job, in kind order */
    size_t n_queues;
    uint64_t jobs_completed, jobs_failed, jobs_cancelled;
    uint64_t uptime_s;
    uint64_t memory_budget_bytes;
    uint64_t memory_used_bytes;      /* reserved now: keys + working sets */
    uint64_t memory_peak_bytes;      /* highest memory_used_bytes since create */
    uint64_t memory_hot_bytes;       /* keys decoded in memory */
    uint64_t memory_warm_bytes;      /* keys mapped, not charged to the budget */
    uint64_t memory_working_bytes;   /* partition working sets */
    uint64_t memory_device_only_bytes; /* key points held on the GPU only, their host copy
                                        * given back (keys_on_device_only); not charged */
    uint64_t pinned_bytes;           /* host memory pinned for devices (0 on CPU) */
    uint32_t partitions_synthesizing, partitions_queued_device, partitions_on_device,
             partitions_finalizing;
} cuzk_engine_status;

/* Snapshot (allocated; release with cuzk_engine_status_free). Errors: NOMEM. */
cuzk_status cuzk_engine_get_status(cuzk_engine *e, cuzk_engine_status *out, cuzk_error *err);
void cuzk_engine_status_free(cuzk_engine_status *s);

/* Prometheus text exposition (version 0.0.4) of the engine's counters, gauges and
 * histograms (queue wait, SRS load, synthesis, device, finalize; device busy ratio; bytes
 * per tier). *out is malloc'd and NUL-terminated (free()); *len excludes the NUL. */
cuzk_status cuzk_engine_metrics_text(cuzk_engine *e, char **out, size_t *len, cuzk_error *err);

/* Writes the in-memory timeline (Chrome trace-event JSON, one track per worker and stage;
 * Perfetto and chrome://tracing open it) to path, all-or-nothing. */
cuzk_status cuzk_engine_timeline_write(cuzk_engine *e, const char *path, cuzk_error *err);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_ENGINE_H */
