/*
 * srs.h — the key (SRS) manager's table (srs.c): one entry per circuit id, in tier HOT
 * (decoded, charged to the budget), WARM (its file mapped) or COLD, reference-counted by
 * the partitions that use it. Internal to src/engine.
 * Threading: entries are guarded by engine->mu; the functions run with mu held unless
 * said otherwise.
 */
#ifndef CUZK_ENGINE_SRS_H
#define CUZK_ENGINE_SRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/kind.h"
#include "engine/request.h"
#include "formats/formats_export.h"

typedef struct ejob ejob;
typedef struct srs_entry srs_entry;

/* The circuit of a key being loaded, handed out before its points (srs_publish, kind.h):
 * partitions of the key's jobs synthesize from it while the points decode (a cold 32 GiB
 * .params reads at ~1.5 GB/s, 30 s; a WindowPoSt dev key is made in 20 s) and wait for the
 * whole key only before the device (engine_srs_await). Owned by the SRS manager: when the
 * load succeeds the key adopts the circuit (the same pointers); when it fails, the
 * circuit is freed once the last partition synthesized from it has ended (users). */
typedef struct srs_early {
    cuzk_r1cs *r1cs;
    cuzk_witness_map *wmap;
    uint32_t users; /* partitions synthesized from it, not yet ended */
    bool detached;  /* its load is over: freed by the last user (with the circuit unless
                     * adopted) */
    bool adopted;   /* the loaded key owns r1cs and wmap */
} srs_early;

struct srs_entry {
    char id[256];
    cuzk_srs_tier tier;
    const ekind *kind;     /* whose loader */
    bool job_own;          /* a key given as bytes: dropped when its last user leaves */
    const ereq *req;       /* job_own: the request holding the bytes (alive while refs) */
    bool loading;          /* a thread is loading it (others wait on srs_cv) */
    bool load_for_preload; /* that load is a preload's: only a stopping engine cancels it */
    /* Stops the load (ekind.load_key's cancel), set under mu: the engine stops, or every
     * job that wanted the key is over (engine_sched_cancel_unwanted_loads, sched.c). */
    volatile int load_cancel;
    srs_early *early;      /* while loading: its circuit, once out (NULL before) */
    cuzk_status load_status; /* the last load's outcome (failures are reported to users) */
    char load_error[CUZK_ERROR_MSG_MAX];
    /* HOT: the loaded key, an allocation of its own (NULL otherwise). The provers know a
     * key by its pk's address (cuzk/prover.h: device copies are reused while the same pk
     * object is passed, and forgotten by it), so the key moves to the graveyard whole and
     * is forgotten there by the address the devices saw; a later load of this entry is
     * another object, never mistaken for the evicted one. */
    srs_key *key;
    uint64_t charged;      /* bytes of the budget this entry holds while HOT */
    uint64_t est_bytes;    /* what a load is expected to take (then: what it took) */
    uint64_t pending_charge; /* budget reserved at admission for the coming load */
    uint64_t load_gen;     /* loads finished (waiters tell a failed load from a new one) */
    uint64_t file_size;    /* for keys from files: the file's size (WARM/COLD report it) */
    /* keys from files: the mapping the key was (or is being) decoded from, kept while HOT
     * and as the WARM tier after eviction (page cache); its id is the identity of the
     * file the key came from (srs.c compares it with the path at each admission); NULL
     * when none (COLD, or the last load failed: a failed load keeps no mapping) */
    mapped_file *map;
    size_t map_len;
    bool detached;         /* left the table (its file changed) while in use: freed by the
                            * last unref; the table has a fresh entry for the id */
    uint32_t refs;         /* partitions admitted that use it */
    bool pinned;           /* a latency job's key: only the scheduler's rule evicts it */
    /* HOT with its points only on the one GPU (srs_device.c): charged for its circuit
     * alone; adopting: that hand-over is under way; adopt_gen: the load_gen it was last
     * tried for; adopt_after_ms: a key the device did not hold whole (streamed, or not
     * resident) is tried again from then, since the device uploads a streamed key whole
     * once it fits (cuda_resident.h); adopt_failed_gen: the load whose failure was logged */
    bool on_device_only, adopting;
    uint64_t adopt_gen, adopt_failed_gen;
    double adopt_after_ms;
    uint64_t device_only_bytes; /* the points' bytes given back while on_device_only */
    double last_used_ms;
    uint64_t load_ms_last;
    /* engine_srs_load_bytes's ekind.key_make_bytes, asked once (it stats key files and
     * may read a .params header, under mu, and the dispatcher asks again every 500 ms
     * while a job waits for memory) and asked again after each load settles or the
     * entry drops to COLD: a dev key made by that load is read back next time */
    bool make_known;
    uint64_t make_bytes;
    srs_entry *next;
};

/* What a load of s is charged until it settles: its estimate plus what the load holds
 * for a while beside the key (ekind.key_make_bytes: a dev key's setup temporaries, 21 GiB
 * for a 32 GiB WindowPoSt, uncounted until s25, when they took a 128 GiB box past its
 * memory). mu held (the kind may stat the key's files). */
uint64_t engine_srs_load_bytes(const cuzk_engine *e, srs_entry *s);

/* The entry of id (created COLD when create). A found key from a file whose identity at
 * its path changed since it was loaded (replaced, rewritten, truncated; or its mapping
 * lost pages) is not used again: idle or not decoded (WARM), it drops to COLD (the next
 * ensure reads the file again); HOT and in use, it leaves the table (its users keep the
 * old key) and a fresh entry takes its place (NULL when !create). Costs one stat of the key's path. */
srs_entry *engine_srs_get(cuzk_engine *e, const char *id, const ekind *k, const ereq *req,
                          bool create);
/* Evicts the least recently used idle HOT key, pinned ones only when pinned_too (the
 * scheduler's key rule, sched.h); false when none could go. */
bool engine_srs_evict_one(cuzk_engine *e, uint64_t need, bool pinned_too);
uint64_t engine_srs_evict_entry(cuzk_engine *e, srs_entry *s); /* -> bytes freed */
/* Makes s HOT, loading it if needed with mu released during the load (early == NULL; see
 * below for a synthesis's call); the budget comes
 * from s->pending_charge (reserved at admission) or is reserved here. *wait_ms (optional)
 * += the time spent. cancel: the cancel flag of the job whose partition needs the key
 * (NULL for a preload): while another thread loads the key, the wait ends with
 * CUZK_ERR_CANCELLED as soon as it is set or the engine stops, so a cancelled job never
 * holds a worker behind a slow load. jreq: the asking job's request, whose key file was
 * opened at submit and is read through that descriptor (NULL for a preload). key_fd: for
 * a preload, the key file as its caller opened it (cuzk_engine_preload_fd), read instead
 * of the path (-1: by path, a name the engine resolves itself).
 * early (a synthesis's call): when another thread is loading s and its circuit is out,
 * returns CUZK_OK at once with *early = that circuit, counted as one more user (the
 * partition keeps it, synthesizes from it, calls engine_srs_await before its device
 * stage and engine_srs_early_drop at its end); otherwise *early = NULL as before. */
cuzk_status engine_srs_ensure(cuzk_engine *e, srs_entry *s, const volatile int *cancel,
                              const ereq *jreq, int key_fd, uint64_t *wait_ms,
                              srs_early **early, cuzk_error *err);
/* For a partition synthesized from s's early circuit: waits for the load to end (ending
 * the wait with CUZK_ERR_CANCELLED when cancel is set or the engine stops); CUZK_OK when
 * s is HOT, else the load's failure. */
cuzk_status engine_srs_await(cuzk_engine *e, srs_entry *s, const volatile int *cancel,
                             cuzk_error *err);
/* A partition synthesized from o has ended (mu held, or no other thread left). */
void engine_srs_early_drop(cuzk_engine *e, srs_early *o);
void engine_srs_unref(cuzk_engine *e, srs_entry *s);
/* After a partition of s proved on device d (mu held): with keys_on_device_only, one GPU,
 * a NORMAL/LOW key (not pinned, not a job's own) resident there, hands the key's points to
 * the device and frees their host copy in the background releaser (srs_device.c). */
void engine_srs_offer_device(cuzk_engine *e, srs_entry *s, int d, bool latency);
/* A bulk key s was loaded (mu held): idle keys held on the device only are evicted, so that
 * s, the key now wanted, finds the device free instead of being streamed beside a key
 * nobody uses (srs_device.c). */
void engine_srs_device_make_way(cuzk_engine *e, srs_entry *s);
void engine_srs_bury(cuzk_engine *e);      /* frees evicted keys; mu NOT held */
/* engine_srs_bury, then waits for lists other threads took before it (mu NOT held): on
 * return every key evicted before the call is forgotten by the devices and freed. */
void engine_srs_bury_all(cuzk_engine *e);
void engine_srs_free_all(cuzk_engine *e);  /* destroy; mu NOT held */
/* What key id of kind k is expected to take once loaded: the kind's number, else a guess
 * from its file's size (file_size). */
uint64_t engine_key_estimate(const cuzk_engine *e, const ekind *k, const char *id,
                             uint64_t file_size);

#endif
