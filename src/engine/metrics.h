/*
 * metrics.h — the engine's histograms and the Prometheus text writer. The histograms are
 * plain data guarded by the engine lock; rendering takes a snapshot.
 */
#ifndef CUZK_ENGINE_METRICS_H
#define CUZK_ENGINE_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bucket upper bounds in seconds: 5 ms .. 20 min, roughly x2.5 apart, which spans a 2^10
 * synthetic partition on a laptop to a 32 GiB PoRep on one CPU. */
#define EMETRICS_BUCKETS 14

typedef struct ehist {
    uint64_t count[EMETRICS_BUCKETS + 1]; /* last = +Inf */
    double sum;
    uint64_t n;
} ehist;

typedef enum ehist_id {
    EH_QUEUE_WAIT = 0, /* submit -> first partition admitted, per job */
    EH_SRS_LOAD,       /* key load, per load */
    EH_SYNTHESIS,      /* per partition */
    EH_DEVICE,         /* cuzk_prover_start, per partition */
    EH_FINALIZE,       /* cuzk_prover_finalize, per partition */
    EH_JOB_TOTAL,      /* submit -> finished, per completed job */
    EH_COUNT
} ehist_id;

typedef struct emetrics {
    ehist h[EH_COUNT];
    uint64_t completed_by_kind[8], failed_by_kind[8]; /* index: engine_kind_slot */
    uint64_t partitions_retried, srs_loads, srs_evictions;
} emetrics;

extern const double emetrics_bounds[EMETRICS_BUCKETS];
void ehist_observe(ehist *h, double seconds);
/* Slot of a kind in the per-kind arrays (0..6; 7 = other). */
unsigned engine_kind_slot(int kind);

#endif
