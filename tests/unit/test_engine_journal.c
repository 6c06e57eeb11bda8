/*
 * test_engine_journal.c — jobs survive a restart: accepted jobs are journaled before
 * submit returns; an engine destroyed with jobs queued resumes them at the next create;
 * finished results are served after a restart until they expire; a damaged record is
 * moved aside without stopping the engine. Results read back are checked: a flipped proof
 * byte, a COMPLETED record without its proof, are proved again, never served; a record of
 * an unknown kind is logged and set aside. Temporaries of interrupted writes are removed at
 * start; a failed outcome write is logged; a failed or cancelled job's request loses its
 * payload on disk, and its result still survives a restart. A removal cut short between
 * its two unlinks never brings an expired job back. A result is bound to its job and
 * verified before it is served after a restart: another job's record copied over this
 * one's, a record of other request bytes, a forged proof with the record's SHA-256
 * recomputed, and an earlier version's record are all proved again, never served.
 * Concurrent submits of one request_id never get an id that answers NOT_FOUND: refused at
 * planning, all get the error; planned, all get the one job. CPU backend, synthetic 2^8
 * jobs.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <pthread.h>

#include "cuzk/engine.h"
#include "cuzk/formats.h"
#include "engine/engine_testing.h"
#include "engine/journal.h"
#include "engine/request.h"
#include "test_rng.h"

static uint64_t g_seed;
static char g_dir[64];
static const char *g_state; /* the state directory engines are made on (make) */

/* The warnings and errors of the engines, kept for the tests to look into. */
static pthread_mutex_t g_log_mu = PTHREAD_MUTEX_INITIALIZER;
static char g_log[1 << 16];

static void quiet(void *ctx, cuzk_log_level l, const char *m)
{
    (void)ctx;
    if (l > CUZK_LOG_WARN)
        return;
    fprintf(stderr, "  engine: %s\n", m);
    pthread_mutex_lock(&g_log_mu);
    size_t n = strlen(g_log);
    snprintf(g_log + n, sizeof g_log - n, "%s\n", m);
    pthread_mutex_unlock(&g_log_mu);
}

static bool logged(const char *text)
{
    pthread_mutex_lock(&g_log_mu);
    bool found = strstr(g_log, text) != NULL;
    pthread_mutex_unlock(&g_log_mu);
    return found;
}

/* Outcome records are sealed with SHA-256 (OpenSSL): a build without it writes none, and
 * serves no result after a restart (journal.h); the tests of served results skip there. */
static void need_sha(void)
{
    uint8_t h[32];
    if (!ejournal_sha256("", 0, h)) {
        printf("no SHA-256 (built without OpenSSL): no outcome records, skipped\n");
        skip();
    }
}

static cuzk_engine *make(uint64_t result_ttl_s)
{
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = "cpu";
    c.memory_budget = 1ull << 30;
    c.threads = 2;
    c.state_dir = g_state;
    c.result_ttl_s = result_ttl_s;
    c.log = quiet;
    cuzk_engine *e = NULL;
    assert_int_equal(cuzk_engine_create(&e, &c, NULL), CUZK_OK);
    return e;
}

/* A fresh state directory <g_dir>/<name> for the engines the test makes; clears the log. */
static void fresh_state(const char *name)
{
    static char dir[128];
    snprintf(dir, sizeof dir, "%s/%s", g_dir, name);
    assert_int_equal(mkdir(dir, 0700), 0);
    g_state = dir;
    pthread_mutex_lock(&g_log_mu);
    g_log[0] = 0;
    pthread_mutex_unlock(&g_log_mu);
}

static void state_file(char *out, size_t cap, const char *id, const char *suffix)
{
    snprintf(out, cap, "%s/%s%s", g_state, id, suffix);
}

static bool exists(const char *path) { return access(path, F_OK) == 0; }

static off_t file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? sb.st_size : -1;
}

static void submit(cuzk_engine *e, unsigned parts, const char *rid, char id[CUZK_JOB_ID_SIZE])
{
    cuzk_job_request r = {.kind = CUZK_PROOF_SYNTHETIC, .request_id = rid};
    r.synthetic.log2n = 8;
    r.synthetic.partitions = parts;
    r.synthetic.seed = g_seed;
    cuzk_job_ticket t;
    assert_int_equal(cuzk_engine_submit(e, &r, &t, NULL), CUZK_OK);
    memcpy(id, t.job_id, CUZK_JOB_ID_SIZE);
}

static void test_restart(void **state)
{
    (void)state;
    need_sha();
    fresh_state("restart");
    char a[CUZK_JOB_ID_SIZE], b[CUZK_JOB_ID_SIZE], c[CUZK_JOB_ID_SIZE];
    cuzk_engine *e = make(0);
    submit(e, 1, NULL, c);
    cuzk_job_result res;
    assert_int_equal(cuzk_engine_await(e, c, 0, &res, NULL), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    uint8_t proof_c[192];
    memcpy(proof_c, res.proof, 192);
    cuzk_job_result_free(&res);
    /* queued jobs, never started, then the engine goes away */
    cuzk_engine_pause(e, true);
    submit(e, 2, "req-a", a);
    submit(e, 1, NULL, b);
    cuzk_engine_destroy(e);

    /* a damaged record next to them is set aside */
    char bad[128];
    snprintf(bad, sizeof bad, "%s/00000000-0000-4000-8000-000000000000.req", g_state);
    assert_int_equal(cuzk_file_write(bad, "garbage", 7, NULL), CUZK_OK);

    e = make(0);
    assert_int_equal(cuzk_engine_await(e, a, 0, &res, NULL), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    assert_int_equal(res.proof_len, 2 * 192);
    cuzk_job_result_free(&res);
    assert_int_equal(cuzk_engine_await(e, b, 0, &res, NULL), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    /* the finished result from before the restart is still served, proof and all */
    assert_int_equal(cuzk_engine_job_info(e, c, &res, NULL), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    assert_memory_equal(res.proof, proof_c, 192);
    cuzk_job_result_free(&res);
    /* request ids survive too */
    cuzk_job_request r = {.kind = CUZK_PROOF_SYNTHETIC, .request_id = "req-a"};
    r.synthetic.log2n = 8;
    r.synthetic.partitions = 2;
    cuzk_job_ticket t;
    r.synthetic.seed = g_seed;
    assert_int_equal(cuzk_engine_submit(e, &r, &t, NULL), CUZK_OK);
    assert_true(t.duplicate);
    assert_string_equal(t.job_id, a);
    /* ... and so do the inputs they were for: another request is another job */
    r.synthetic.partitions = 1;
    assert_int_equal(cuzk_engine_submit(e, &r, &t, NULL), CUZK_OK);
    assert_false(t.duplicate);
    assert_string_not_equal(t.job_id, a);
    assert_int_equal(cuzk_engine_await(e, t.job_id, 0, &res, NULL), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(e);
    char moved[160];
    snprintf(moved, sizeof moved, "%s.bad", bad);
    assert_int_equal(access(moved, F_OK), 0);
    unlink(moved);
}

static void test_expiry(void **state)
{
    (void)state;
    fresh_state("expiry");
    cuzk_engine *e = make(1);
    char a[CUZK_JOB_ID_SIZE];
    submit(e, 1, NULL, a);
    cuzk_job_result res;
    assert_int_equal(cuzk_engine_await(e, a, 0, &res, NULL), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    /* result_ttl 1 s; the reaper runs every second */
    for (int i = 0; i < 50 && cuzk_engine_job_info(e, a, &res, NULL) == CUZK_OK; i++) {
        cuzk_job_result_free(&res);
        usleep(100000);
    }
    assert_int_equal(cuzk_engine_job_info(e, a, &res, NULL), CUZK_ERR_NOT_FOUND);
    cuzk_engine_destroy(e);
    /* and its files are gone: a restart does not bring it back */
    e = make(1);
    assert_int_equal(cuzk_engine_job_info(e, a, &res, NULL), CUZK_ERR_NOT_FOUND);
    cuzk_engine_destroy(e);
}

/* What ejournal_remove left on disk at the moment between its two unlinks (where a kill -9
 * would stop it), and the outcome record's bytes then. */
static int g_cut_req = -1, g_cut_done = -1;
static char *g_cut_bytes;
static size_t g_cut_len;

static void at_cut(const char *id)
{
    char req[160], done[160];
    state_file(req, sizeof req, id, ".req");
    state_file(done, sizeof done, id, ".done");
    g_cut_req = exists(req);
    g_cut_done = exists(done);
    free(g_cut_bytes);
    g_cut_bytes = NULL;
    if (g_cut_done && cuzk_file_read_text(&g_cut_bytes, &g_cut_len, done, 1 << 20, NULL) != CUZK_OK)
        g_cut_bytes = NULL;
}

/* A removal cut short by a kill -9 must not bring an expired job back. The request goes
 * first, so the cut leaves an outcome without its request (before: a request without its
 * outcome, which the next start proved again); the next load drops that outcome. */
static void test_removal_cut_short(void **state)
{
    (void)state;
    need_sha();
    fresh_state("cut");
    ejournal_between_unlinks = at_cut;
    cuzk_engine *e = make(1);
    char a[CUZK_JOB_ID_SIZE];
    submit(e, 1, NULL, a);
    cuzk_job_result res;
    assert_int_equal(cuzk_engine_await(e, a, 0, &res, NULL), CUZK_OK);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    for (int i = 0; i < 50 && cuzk_engine_job_info(e, a, &res, NULL) == CUZK_OK; i++) {
        cuzk_job_result_free(&res);
        usleep(100000);
    }
    assert_int_equal(cuzk_engine_job_info(e, a, &res, NULL), CUZK_ERR_NOT_FOUND);
    cuzk_engine_destroy(e);
    ejournal_between_unlinks = NULL;
    assert_int_equal(g_cut_req, 0);  /* the request was already gone */
    assert_int_equal(g_cut_done, 1); /* the outcome not yet */
    assert_non_null(g_cut_bytes);

    /* the directory as the kill left it: the outcome alone */
    char done[160];
    state_file(done, sizeof done, a, ".done");
    assert_int_equal(cuzk_file_write(done, g_cut_bytes, g_cut_len, NULL), CUZK_OK);
    free(g_cut_bytes);
    g_cut_bytes = NULL;
    e = make(1);
    assert_int_equal(cuzk_engine_job_info(e, a, &res, NULL), CUZK_ERR_NOT_FOUND);
    assert_false(exists(done));
    assert_true(logged("removal was interrupted"));
    cuzk_engine_destroy(e);
}

static cuzk_job_result await_ok(cuzk_engine *e, const char *id)
{
    cuzk_job_result res;
    cuzk_error err = {0};
    cuzk_status st = cuzk_engine_await(e, id, 0, &res, &err);
    if (st != CUZK_OK)
        fail_msg("await %s: %s", id, err.msg);
    return res;
}

/* The digest a job's outcome record must carry: SHA-256 of its <id>.req after the
 * 12-byte header (journal.h). */
static void req_digest(const char *id, uint8_t out[32])
{
    char path[160];
    state_file(path, sizeof path, id, ".req");
    char *b;
    size_t n;
    assert_int_equal(cuzk_file_read_text(&b, &n, path, 1 << 24, NULL), CUZK_OK);
    assert_true(n > 12);
    assert_true(ejournal_sha256(b + 12, n - 12, out));
    free(b);
}

static char *read_file(const char *path, size_t *n)
{
    char *b;
    assert_int_equal(cuzk_file_read_text(&b, n, path, 1 << 24, NULL), CUZK_OK);
    return b;
}

/* A job of `parts` partitions run to completion, then the engine stopped; its proof in
 * proof (parts x 192 bytes) when not NULL. */
static void completed_job(unsigned parts, char id[CUZK_JOB_ID_SIZE], uint8_t *proof)
{
    cuzk_engine *e = make(0);
    submit(e, parts, NULL, id);
    cuzk_job_result res = await_ok(e, id);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    assert_int_equal(res.proof_len, parts * 192);
    if (proof)
        memcpy(proof, res.proof, res.proof_len);
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(e);
}

/* After a restart job id answers COMPLETED with a proof other than `not` (proved again:
 * fresh r, s), which verifies (the engine self-checks what it proves), and the log says
 * why its record was refused. */
static void proved_again(const char *id, const uint8_t *not, size_t len, const char *why)
{
    cuzk_engine *e = make(0);
    cuzk_job_result res = await_ok(e, id);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    assert_int_equal(res.proof_len, len);
    assert_memory_not_equal(res.proof, not, len);
    cuzk_job_result_free(&res);
    if (!logged(why))
        fail_msg("the log does not say \"%s\":\n%s", why, g_log);
    assert_true(logged("the job is proved again"));
    char aside[170];
    state_file(aside, sizeof aside, id, ".done.bad");
    assert_true(exists(aside));
    cuzk_engine_destroy(e);
}

/* Another job's outcome record copied over this one's (a valid record, checksum and all,
 * of the same circuit) is refused: it names the other job. */
static void test_other_jobs_record(void **state)
{
    (void)state;
    need_sha();
    fresh_state("other");
    char a[CUZK_JOB_ID_SIZE], b[CUZK_JOB_ID_SIZE];
    uint8_t pa[192], pb[192];
    completed_job(1, a, pa);
    completed_job(1, b, pb);
    char da[160], db[160];
    state_file(da, sizeof da, a, ".done");
    state_file(db, sizeof db, b, ".done");
    size_t n;
    char *rec = read_file(db, &n);
    assert_int_equal(cuzk_file_write(da, rec, n, NULL), CUZK_OK);
    free(rec);
    proved_again(a, pb, sizeof pb, "written for another job");
}

/* A record naming this job but carrying another request's digest (its .req replaced, or a
 * record forged for other inputs) is refused. */
static void test_other_request_record(void **state)
{
    (void)state;
    need_sha();
    fresh_state("otherreq");
    char a[CUZK_JOB_ID_SIZE];
    uint8_t pa[192];
    completed_job(1, a, pa);
    ejournal *j;
    assert_int_equal(ejournal_open(&j, g_state, NULL), CUZK_OK);
    ejournal_done d = {.state = CUZK_JOB_COMPLETED, .partitions = 1, .partitions_done = 1,
                       .wall_finish = (int64_t)time(NULL), .proof = pa, .proof_len = 192};
    req_digest(a, d.req_digest);
    d.req_digest[7] ^= 0x10;
    assert_int_equal(ejournal_finish(j, a, &d, NULL), CUZK_OK);
    ejournal_close(j);
    proved_again(a, pa, sizeof pa, "written for other request bytes");
}

/* A forged proof (valid points, A and C swapped, so it does not verify) with the record's
 * SHA-256 recomputed, as anyone who can write the directory can: the checksum holds, the
 * binding holds, the proof is verified and refused. */
static void test_forged_proof(void **state)
{
    (void)state;
    need_sha();
    fresh_state("forged");
    char a[CUZK_JOB_ID_SIZE];
    uint8_t pa[2 * 192];
    completed_job(2, a, pa);
    char done[160];
    state_file(done, sizeof done, a, ".done");
    size_t n;
    uint8_t *rec = (uint8_t *)read_file(done, &n);
    assert_true(n > sizeof pa + 32);
    uint8_t *proof = rec + n - 32 - sizeof pa;
    assert_memory_equal(proof, pa, sizeof pa);
    /* partition 1's proof: A (48 bytes) <-> C (the last 48) */
    uint8_t t[48], *p1 = proof + 192;
    memcpy(t, p1, 48);
    memcpy(p1, p1 + 144, 48);
    memcpy(p1 + 144, t, 48);
    uint8_t forged[2 * 192];
    memcpy(forged, proof, sizeof forged);
    assert_true(ejournal_sha256(rec, n - 32, rec + n - 32));
    assert_int_equal(cuzk_file_write(done, rec, n, NULL), CUZK_OK);
    free(rec);
    cuzk_groth16_proof pr[2];
    assert_int_equal(cuzk_groth16_proofs_from_bellperson(pr, 2, forged, sizeof forged, NULL),
                     CUZK_OK); /* well-formed: only verification tells */
    proved_again(a, forged, sizeof forged, "partition 1's proof does not verify");
}

/* A record of the previous version ("CZD2": FNV checksum, no binding), even one holding a
 * proof that would verify, is not trusted: the job is proved again, and the log says why. */
static void test_old_format_record(void **state)
{
    (void)state;
    need_sha();
    fresh_state("old");
    char a[CUZK_JOB_ID_SIZE];
    uint8_t pa[192];
    completed_job(1, a, pa);
    /* journal.h before this version: "CZD2", u32 state, u32 code, u32 benchmark_only, i64
     * finish, 6 x u64, u32 partitions done, u32 message length, 64 bytes device, u32 proof
     * length, u32 partitions, message, proof, u64 FNV-1a-64 */
    uint8_t rec[152 + 192 + 8] = "CZD2";
    size_t n = sizeof rec;
    uint64_t now = (uint64_t)time(NULL);
    rec[4] = CUZK_JOB_COMPLETED;
    for (int i = 0; i < 8; i++)
        rec[16 + i] = (uint8_t)(now >> (8 * i));
    rec[72] = 1;                                      /* partitions done */
    memcpy(rec + 80, "cpu", 3);                       /* device */
    rec[144] = 192;                                   /* proof length */
    rec[148] = 1;                                     /* partitions */
    memcpy(rec + 152, pa, 192);
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n - 8; i++)
        h = (h ^ rec[i]) * 0x100000001b3ull;
    for (int i = 0; i < 8; i++)
        rec[n - 8 + i] = (uint8_t)(h >> (8 * i));
    char done[160];
    state_file(done, sizeof done, a, ".done");
    assert_int_equal(cuzk_file_write(done, rec, n, NULL), CUZK_OK);
    proved_again(a, pa, sizeof pa, "written by an earlier version");
}

/* Concurrent submits of one request_id (Curio retries with the same id). */
#define RACERS 24
typedef struct racer {
    cuzk_engine *e;
    const cuzk_job_request *r;
    pthread_barrier_t *go;
    cuzk_status st;
    cuzk_error err;
    cuzk_job_ticket t;
} racer;

static void *race(void *arg)
{
    racer *x = arg;
    pthread_barrier_wait(x->go);
    x->st = cuzk_engine_submit(x->e, x->r, &x->t, &x->err);
    return NULL;
}

/* The first submit holds its job in spooling a while (the window the others must not be
 * handed its id in). */
static void slow_spool(const char *rid)
{
    (void)rid;
    usleep(50000);
}

static void run_race(cuzk_engine *e, const cuzk_job_request *r, racer *x)
{
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, RACERS);
    pthread_t th[RACERS];
    for (int i = 0; i < RACERS; i++) {
        x[i] = (racer){.e = e, .r = r, .go = &go};
        assert_int_equal(pthread_create(&th[i], NULL, race, &x[i]), 0);
    }
    for (int i = 0; i < RACERS; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&go);
}

static void test_join_race(void **state)
{
    (void)state;
    fresh_state("race");
    cuzk_engine *e = make(0);
    cuzk_engine_spooled_hook = slow_spool;
    static racer x[RACERS];
    /* refused at planning (log2n 1): every caller gets the planning error, none an id */
    cuzk_job_request r = {.kind = CUZK_PROOF_SYNTHETIC, .request_id = "porep-1000-7"};
    r.synthetic.log2n = 1;
    r.synthetic.partitions = 1;
    r.synthetic.seed = g_seed;
    run_race(e, &r, x);
    for (int i = 0; i < RACERS; i++) {
        if (x[i].st == CUZK_OK) {
            cuzk_job_result res;
            cuzk_error err = {0};
            cuzk_status st = cuzk_engine_job_info(e, x[i].t.job_id, &res, &err);
            fail_msg("caller %d got job %s for a refused input (now: %s %s)", i,
                     x[i].t.job_id, cuzk_status_name(st), err.msg);
        }
        assert_int_equal(x[i].st, CUZK_ERR_INVALID_ARG);
        assert_non_null(strstr(x[i].err.msg, "log2n must be 2..28"));
    }
    /* a good input: all get the one job, which completes */
    r.synthetic.log2n = 8;
    run_race(e, &r, x);
    cuzk_engine_spooled_hook = NULL;
    unsigned fresh = 0;
    for (int i = 0; i < RACERS; i++) {
        if (x[i].st != CUZK_OK)
            fail_msg("caller %d: %s", i, x[i].err.msg);
        assert_string_equal(x[i].t.job_id, x[0].t.job_id);
        fresh += !x[i].t.duplicate;
    }
    assert_int_equal(fresh, 1);
    cuzk_job_result res = await_ok(e, x[0].t.job_id);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(e);
}

/* Results read back from the journal are checked: a flipped proof byte in <id>.done is
 * found (checksum), reported, the record kept aside and the job proved again, never served
 * as COMPLETED with the damaged proof. */
static void test_damaged_result(void **state)
{
    (void)state;
    need_sha();
    fresh_state("damaged");
    cuzk_engine *e = make(0);
    char a[CUZK_JOB_ID_SIZE];
    submit(e, 2, NULL, a);
    cuzk_job_result res = await_ok(e, a);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(e);

    char done[160];
    state_file(done, sizeof done, a, ".done");
    char *d;
    size_t n;
    assert_int_equal(cuzk_file_read_text(&d, &n, done, 1 << 20, NULL), CUZK_OK);
    assert_true(n > 2 * 192 + 32);
    size_t at = n - 32 - 100; /* inside the second partition's proof */
    d[at] ^= 0x01;
    uint8_t bad[2 * 192];
    memcpy(bad, d + n - 32 - sizeof bad, sizeof bad);
    assert_int_equal(cuzk_file_write(done, d, n, NULL), CUZK_OK);
    free(d);

    e = make(0);
    res = await_ok(e, a);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    assert_int_equal(res.proof_len, sizeof bad);
    assert_memory_not_equal(res.proof, bad, sizeof bad); /* proved again (fresh r, s) */
    cuzk_groth16_proof proofs[2];
    assert_int_equal(cuzk_groth16_proofs_from_bellperson(proofs, 2, res.proof, res.proof_len,
                                                         NULL),
                     CUZK_OK);
    cuzk_job_result_free(&res);
    assert_true(logged("checksum mismatch"));
    char aside[170];
    snprintf(aside, sizeof aside, "%s.bad", done);
    assert_true(exists(aside));
    cuzk_engine_destroy(e);
}

/* A COMPLETED record with no proof bytes (before: await answered NOMEM, "out of memory
 * copying the proof", forever) is proved again. */
static void test_completed_without_proof(void **state)
{
    (void)state;
    need_sha();
    fresh_state("proofless");
    cuzk_engine *e = make(0);
    char a[CUZK_JOB_ID_SIZE];
    submit(e, 1, NULL, a);
    cuzk_job_result res = await_ok(e, a);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(e);

    ejournal *j;
    assert_int_equal(ejournal_open(&j, g_state, NULL), CUZK_OK);
    ejournal_done d = {.state = CUZK_JOB_COMPLETED, .partitions = 1, .partitions_done = 1,
                       .wall_finish = (int64_t)time(NULL)};
    req_digest(a, d.req_digest);
    assert_int_equal(ejournal_finish(j, a, &d, NULL), CUZK_OK);
    ejournal_close(j);

    e = make(0);
    res = await_ok(e, a);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    assert_int_equal(res.proof_len, 192);
    cuzk_job_result_free(&res);
    assert_true(logged("holds no proof for every partition"));
    cuzk_engine_destroy(e);
}

/* A record of a kind this build does not know is logged and set aside, not dropped. */
static void test_unknown_kind(void **state)
{
    (void)state;
    fresh_state("kind");
    cuzk_job_request r = {.kind = CUZK_PROOF_SYNTHETIC};
    ereq *q;
    assert_int_equal(ereq_from_request(&q, &r, NULL), CUZK_OK);
    q->kind = (cuzk_proof_kind)77;
    ejournal *j;
    assert_int_equal(ejournal_open(&j, g_state, NULL), CUZK_OK);
    const char *id = "11111111-2222-4333-8444-555555555555";
    assert_int_equal(ejournal_add(j, id, 5, q, NULL, NULL), CUZK_OK);
    ejournal_close(j);
    ereq_free(q);

    cuzk_engine *e = make(0);
    assert_true(logged("kind 77"));
    char req[160], aside[170];
    state_file(req, sizeof req, id, ".req");
    state_file(aside, sizeof aside, id, ".req.bad");
    assert_false(exists(req));
    assert_true(exists(aside));
    cuzk_engine_destroy(e);
}

/* Temporaries left by a kill -9 between write and rename are removed at start. */
static void test_temporaries_removed(void **state)
{
    (void)state;
    fresh_state("tmp");
    const char *id = "11111111-2222-4333-8444-666666666666";
    char rt[160], dt[160];
    state_file(rt, sizeof rt, id, ".req.tmp");
    state_file(dt, sizeof dt, id, ".done.tmp");
    assert_int_equal(cuzk_file_write(rt, "half a request", 14, NULL), CUZK_OK);
    assert_int_equal(cuzk_file_write(dt, "half", 4, NULL), CUZK_OK);
    cuzk_engine *e = make(0);
    assert_false(exists(rt));
    assert_false(exists(dt));
    assert_true(logged("removed 2 temporary file(s)"));
    cuzk_engine_destroy(e);
}

/* An outcome that cannot be written is logged (the job's result is still served). */
static void test_done_write_fails(void **state)
{
    (void)state;
    need_sha();
    fresh_state("donefail");
    cuzk_engine *e = make(0);
    cuzk_engine_pause(e, true);
    char a[CUZK_JOB_ID_SIZE];
    submit(e, 1, NULL, a);
    char dt[160];
    state_file(dt, sizeof dt, a, ".done.tmp");
    assert_int_equal(mkdir(dt, 0700), 0); /* the write's temporary cannot be created */
    cuzk_engine_pause(e, false);
    cuzk_job_result res = await_ok(e, a);
    assert_int_equal(res.state, CUZK_JOB_COMPLETED);
    cuzk_job_result_free(&res);
    assert_true(logged("cannot write"));
    assert_true(logged(".done"));
    cuzk_engine_destroy(e);
    rmdir(dt);
}

/* A failed or a cancelled job's request loses its payload on disk (a 200 MB request no
 * longer waits for its TTL), and its outcome is still served after a restart. */
static void test_failed_request_stripped(void **state)
{
    (void)state;
    need_sha();
    fresh_state("strip");
    cuzk_engine *e = make(0);
    size_t big = 1u << 20;
    uint8_t *payload = calloc(1, big);
    assert_non_null(payload);
    cuzk_job_request r = {.kind = CUZK_PROOF_SYNTHETIC, .vanilla_proof = {payload, big}};
    r.synthetic.log2n = 8;
    r.synthetic.partitions = 1;
    r.synthetic.seed = g_seed;
    char f[CUZK_JOB_ID_SIZE], c[CUZK_JOB_ID_SIZE];
    cuzk_job_ticket t;
    cuzk_engine_inject_fault(e, ENGINE_FAULT_SYNTH, 1, -1);
    assert_int_equal(cuzk_engine_submit(e, &r, &t, NULL), CUZK_OK);
    memcpy(f, t.job_id, sizeof f);
    char req[160];
    state_file(req, sizeof req, f, ".req");
    cuzk_job_result res = await_ok(e, f);
    assert_int_equal(res.state, CUZK_JOB_FAILED);
    char msg[CUZK_ERROR_MSG_MAX];
    snprintf(msg, sizeof msg, "%s", res.error);
    cuzk_job_result_free(&res);
    assert_true(file_size(req) >= 0 && file_size(req) < 4096);

    cuzk_engine_pause(e, true);
    assert_int_equal(cuzk_engine_submit(e, &r, &t, NULL), CUZK_OK);
    memcpy(c, t.job_id, sizeof c);
    state_file(req, sizeof req, c, ".req");
    assert_true(file_size(req) > (off_t)big);
    assert_int_equal(cuzk_engine_cancel(e, c, NULL, NULL), CUZK_OK);
    assert_true(file_size(req) >= 0 && file_size(req) < 4096);
    cuzk_engine_destroy(e);
    free(payload);

    e = make(0);
    res = await_ok(e, f);
    assert_int_equal(res.state, CUZK_JOB_FAILED);
    assert_string_equal(res.error, msg);
    cuzk_job_result_free(&res);
    res = await_ok(e, c);
    assert_int_equal(res.state, CUZK_JOB_CANCELLED);
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(e);
}

int main(void)
{
    g_seed = test_rng_init("test_engine_journal") % 1000;
    snprintf(g_dir, sizeof g_dir, "/tmp/cuzk_journal_XXXXXX");
    if (!mkdtemp(g_dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_restart),
        cmocka_unit_test(test_expiry),
        cmocka_unit_test(test_removal_cut_short),
        cmocka_unit_test(test_damaged_result),
        cmocka_unit_test(test_completed_without_proof),
        cmocka_unit_test(test_unknown_kind),
        cmocka_unit_test(test_temporaries_removed),
        cmocka_unit_test(test_done_write_fails),
        cmocka_unit_test(test_failed_request_stripped),
        cmocka_unit_test(test_other_jobs_record),
        cmocka_unit_test(test_other_request_record),
        cmocka_unit_test(test_forged_proof),
        cmocka_unit_test(test_old_format_record),
        cmocka_unit_test(test_join_race),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    if (system(cmd) != 0)
        return 1;
    return rc;
}
