/*
 * kind_post.c — the WINDOW_POST_PARTITION and WINNING_POST job kinds (Fallback PoSt,
 * cuzk/post.h), one partition each. The inputs come either as the PoSt job document of
 * cuzk/post.h in vanilla_proof, or as cuzk.v1's fields (registered_proof as Go's abi
 * number, randomness, partition_index, vanilla_proofs: one FallbackPoStSectorProof per
 * sector, bincode bytes as filecoin-ffi takes them or serde JSON), which are put into that
 * document here, so one strict parser (and its messages) serves both. Parsing runs
 * cuzk_post_partition_check: paths reach comm_r_last, comm_r = H(comm_c, comm_r_last), the
 * leaves are the challenges the randomness derives. All at submit, before proving work.
 * Keys: fil_keys.h ("wpost-<size>", "winning-<size>").
 * Threading: reentrant; the parsed job is immutable once planned.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/post.h"
#include "engine/fil_keys.h"

cuzk_status engine_fil_witness(const srs_key *key, cuzk_circuit_fn fn, const void *ctx,
                               esynth *out, cuzk_error *err);

typedef struct sbuf {
    char *d;
    size_t len, cap;
    bool oom;
} sbuf;

static void put(sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *d = realloc(b->d, cap);
        if (!d) {
            b->oom = true;
            return;
        }
        b->d = d;
        b->cap = cap;
    }
    memcpy(b->d + b->len, s, n);
    b->len += n;
    b->d[b->len] = 0;
}

static void puts_(sbuf *b, const char *s) { put(b, s, strlen(s)); }

static void put_base64(sbuf *b, const uint8_t *d, size_t n)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) |
                     (i + 2 < n ? d[i + 2] : 0);
        char q[4] = {t[v >> 18], t[(v >> 12) & 63], i + 1 < n ? t[(v >> 6) & 63] : '=',
                     i + 2 < n ? t[v & 63] : '='};
        put(b, q, 4);
    }
}

/* Whether d is one JSON object and nothing else (braces balanced outside strings), so it
 * can be spliced into the document as one element; the parser checks the rest. */
static bool one_object(const uint8_t *d, size_t n)
{
    size_t i = 0, depth = 0;
    bool str = false, esc = false, closed = false;
    while (i < n && (d[i] == ' ' || d[i] == '\n' || d[i] == '\r' || d[i] == '\t'))
        i++;
    if (i == n || d[i] != '{')
        return false;
    for (; i < n; i++) {
        uint8_t c = d[i];
        if (closed) {
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
                return false;
        } else if (str) {
            if (esc)
                esc = false;
            else if (c == '\\')
                esc = true;
            else if (c == '"')
                str = false;
        } else if (c == '"') {
            str = true;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return false;
            closed = --depth == 0;
        } else if (c == 0) {
            return false;
        }
    }
    return closed;
}

/* The cuzk.v1 fields as the job document of cuzk/post.h (malloc'd). */
static cuzk_status request_doc(const ereq *q, char **out, size_t *len, cuzk_error *err)
{
    if (q->randomness.len != 32)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "PoSt job: randomness (32 bytes) is required");
    if (!q->n_vanilla_proofs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "PoSt job: vanilla_proofs (one per sector) or a job document in "
                              "vanilla_proof is required");
    sbuf b = {0};
    char num[64];
    snprintf(num, sizeof num, "{\"registered_proof\": %" PRIu64 ", \"partition_index\": %u",
             q->registered_proof, q->partition_index);
    puts_(&b, num);
    puts_(&b, ", \"randomness\": [");
    for (int i = 0; i < 32; i++) {
        snprintf(num, sizeof num, "%s%u", i ? "," : "", q->randomness.data[i]);
        puts_(&b, num);
    }
    puts_(&b, "], \"vanilla_proofs\": [");
    for (size_t i = 0; i < q->n_vanilla_proofs; i++) {
        const ebuf *v = &q->vanilla_proofs[i];
        if (i)
            puts_(&b, ",");
        if (one_object(v->data, v->len)) {
            put(&b, (const char *)v->data, v->len);
        } else {
            puts_(&b, "\"");
            put_base64(&b, v->data, v->len);
            puts_(&b, "\"");
        }
    }
    puts_(&b, "]}");
    if (b.oom) {
        free(b.d);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    }
    *out = b.d;
    *len = b.len;
    return CUZK_OK;
}

static cuzk_status post_plan(const cuzk_engine *e, const ereq *q, ekind_plan *p,
                             cuzk_error *err)
{
    bool winning = q->kind == CUZK_PROOF_WINNING_POST;
    const char *what = winning ? "WinningPoSt" : "WindowPoSt";
    char *doc = NULL;
    size_t len = 0;
    cuzk_status st;
    if (q->vanilla_proof.len && q->n_vanilla_proofs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "%s job: give a job document (vanilla_proof) or vanilla_proofs, "
                              "not both",
                              what);
    if (!q->vanilla_proof.len && (st = request_doc(q, &doc, &len, err)) != CUZK_OK)
        return st;
    cuzk_post_job *job = NULL;
    st = doc ? cuzk_post_job_parse(doc, len, &job, err)
             : cuzk_post_job_parse((const char *)q->vanilla_proof.data, q->vanilla_proof.len,
                                   &job, err);
    free(doc);
    if (st != CUZK_OK)
        return st;
    if ((job->info.kind == CUZK_POST_WINNING) != winning)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "%s job: %s is a %s proof", what,
                            job->info.name, winning ? "WindowPoSt" : "WinningPoSt");
    else if (q->sector_size && q->sector_size != job->info.sector_size)
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                            "%s job: sector_size %llu but %s is for %llu-byte sectors", what,
                            (unsigned long long)q->sector_size, job->info.name,
                            (unsigned long long)job->info.sector_size);
    fil_circuit c = winning ? FIL_WINNING : FIL_WPOST;
    if (st == CUZK_OK && !fil_circuit_id(c, job->info.sector_size, p->circuit_id,
                                         sizeof p->circuit_id))
        st = cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "%s job: sector size %llu", what,
                            (unsigned long long)job->info.sector_size);
    if (st == CUZK_OK)
        st = fil_key_available(e, p->circuit_id, err);
    if (st != CUZK_OK) {
        cuzk_post_job_free(job);
        return st;
    }
    p->partitions = 1;
    p->key_bytes = fil_key_bytes(c, job->info.sector_size);
    p->partition_bytes = fil_partition_bytes(c, job->info.sector_size);
    p->parsed = job;
    return CUZK_OK;
}

static void post_plan_free(ekind_plan *p)
{
    cuzk_post_job_free(p->parsed);
    p->parsed = NULL;
}

static cuzk_status post_synthesize(const cuzk_engine *e, const ereq *q, const ekind_plan *plan,
                                   const srs_key *key, uint32_t part, cuzk_pool *pool,
                                   esynth *out, cuzk_error *err)
{
    (void)e;
    (void)q;
    (void)part;
    (void)pool;
    cuzk_post_partition p = cuzk_post_job_partition(plan->parsed);
    return engine_fil_witness(key, cuzk_post_circuit, &p, out, err);
}

const ekind engine_kind_window_post = {
    .kind = CUZK_PROOF_WINDOW_POST_PARTITION,
    .name = "window_post_partition",
    .default_priority = CUZK_PRIORITY_HIGH,
    .plan = post_plan,
    .owns_circuit = fil_owns,
    .load_key = fil_load_key,
    .key_file = fil_key_file,
    .synthesize = post_synthesize,
    .plan_free = post_plan_free,
};

const ekind engine_kind_winning_post = {
    .kind = CUZK_PROOF_WINNING_POST,
    .name = "winning_post",
    .default_priority = CUZK_PRIORITY_CRITICAL,
    .plan = post_plan,
    .owns_circuit = fil_owns,
    .load_key = fil_load_key,
    .key_file = fil_key_file,
    .synthesize = post_synthesize,
    .plan_free = post_plan_free,
};
