/*
 * kind.h — the job kinds' interface (struct ekind): how a kind plans a job at submit,
 * loads the key its circuit ids name, and synthesizes a partition's witness. The engine
 * knows a kind only through this table; the kinds are kinds.c's registry (the synthetic
 * and generic Groth16 kinds, and the Filecoin kinds of kind_fil.h). Internal to
 * src/engine.
 * Threading: every hook is reentrant and called with engine->mu NOT held.
 */
#ifndef CUZK_ENGINE_KIND_H
#define CUZK_ENGINE_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuits.h"
#include "cuzk/engine.h"
#include "cuzk/groth16.h"
#include "cuzk/pool.h"
#include "cuzk/r1cs.h"
#include "engine/request.h"

typedef struct ekind ekind;

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

/* Frees what key owns (its points, circuit, witness map and synthetic witness) and zeroes
 * it; key itself is the caller's. Forget it on every prover that saw it first. */
void engine_srs_key_clear(srs_key *key);

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

/* How a loader hands out its circuit before the key's points (ekind.load_key): the SRS
 * manager's, so that partitions synthesize while a 44 GiB .params decodes or a dev key is
 * made (synthesis needs the circuit and its witness map, never the points). */
typedef struct srs_publish {
    void (*circuit)(void *ctx, cuzk_r1cs *r1cs, cuzk_witness_map *wmap);
    void *ctx;
} srs_publish;

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
     * manager maps it and keeps it as the WARM tier), else NULL. cancel: set (any thread)
     * when nobody wants the key any more or the engine stops; a loader that makes a key
     * (a dev setup) passes it on and then returns CUZK_ERR_CANCELLED, leaving no file.
     * publish (NULL: not wanted): a kind whose synthesize reads only key->r1cs and
     * key->wmap may call publish->circuit once, as soon as both are ready; they then
     * belong to the SRS manager: on success the kind puts the same two in key, on failure
     * it frees neither. */
    cuzk_status (*load_key)(const cuzk_engine *e, const char *circuit_id, const ereq *req,
                            const uint8_t *map, size_t map_len, srs_key *key,
                            const volatile int *cancel, const srs_publish *publish,
                            cuzk_pool *pool, cuzk_error *err);
    /* The file a key is decoded from (written into path), or false if generated. */
    bool (*key_file)(const cuzk_engine *e, const char *circuit_id, char *path, size_t cap);
    /* Whether req names that key file as its input *in: the SRS manager then maps it
     * through the request (ereq_input_map: the descriptor opened at submit, as the client)
     * rather than by path. NULL or false: by path (a preload, the kinds' own key files). */
    bool (*key_input)(const char *circuit_id, const ereq *req, ereq_input *in);
    /* What the key will be charged once loaded, known before loading (*bytes); false (or
     * NULL): unknown, the SRS manager guesses from its file's size. */
    bool (*key_bytes)(const cuzk_engine *e, const char *circuit_id, uint64_t *bytes);
    /* Host memory a load of the key holds for a while beyond what the loaded key is charged
     * (a dev key's setup temporaries): charged with the key for its load and given back
     * when the load settles (srs.c). NULL: none. */
    uint64_t (*key_make_bytes)(const cuzk_engine *e, const char *circuit_id);
    /* Whether the key can be had at all, checked before a preload creates its entry
     * (NULL: always; CUZK_ERR_NOT_FOUND saying what is missing). */
    cuzk_status (*key_available)(const cuzk_engine *e, const char *circuit_id,
                                 cuzk_error *err);
    /* Synthesizes partition part of the job: its witness (and own circuit, if any). plan
     * is the job's (its parsed inputs included), read-only here. */
    cuzk_status (*synthesize)(const cuzk_engine *e, const ereq *req, const ekind_plan *plan,
                              const srs_key *key, uint32_t part, cuzk_pool *pool, esynth *out,
                              cuzk_error *err);
    /* Releases plan->parsed (NULL: the kind keeps nothing there). */
    void (*plan_free)(ekind_plan *plan);
    /* Verifies a result read back from the journal before it is served after a restart
     * (resume.c): proofs holds partitions x 192 bytes (bellperson encoding), each of
     * which must verify against the job's verifying key with partition p's public
     * inputs. plan: the job's, planned again. CUZK_OK when every one verifies (else
     * CUZK_ERR_INVALID_PROOF, or what kept it from checking). NULL: the kind cannot
     * check a result without proving it, and its journaled results are proved again. */
    cuzk_status (*verify_result)(const cuzk_engine *e, const ereq *req, const ekind_plan *plan,
                                 const uint8_t *proofs, uint32_t partitions, cuzk_pool *pool,
                                 cuzk_error *err);
};

/* What every verify_result shares (kinds.c): partitions proofs (bellperson bytes) checked
 * against vk, with partition p's public inputs at inputs + p * stride (n = vk->n_ic - 1
 * of them, ONE excluded, Montgomery; stride 0: the same inputs for every partition). The
 * decoders check every point; CUZK_ERR_INVALID_PROOF names the first partition that
 * fails. */
cuzk_status engine_verify_partitions(const cuzk_groth16_vk *vk, const cuzk_fr *inputs,
                                     size_t stride, const uint8_t *proofs, uint32_t partitions,
                                     cuzk_pool *pool, cuzk_error *err);

/* The Filecoin fields that choose a circuit (registered_proof, sector_size) name nothing
 * for the extension kinds, whose circuit is in the request: one given there is a confused
 * request, refused with CUZK_ERR_INVALID_ARG (kinds.c; what: the kind's name). */
cuzk_status engine_no_filecoin_proof(const ereq *q, const char *what, cuzk_error *err);

const ekind *engine_kind_find(cuzk_proof_kind k);
const ekind *engine_kind_for_circuit(const char *circuit_id);
void esynth_free(esynth *s);

#endif
