/*
 * test_gpu_prove.cu — whole proofs on the CUDA backend against the CPU backend, through the
 * prover interface (cuzk/prover.h): for the same key, witness, r and s the two must give
 * the same proof bytes, and the GPU's proofs pass the self-check. Also: batches of
 * partitions, two threads sharing one device, cancellation, an unsatisfying witness, and
 * injected CUDA failures (an OOM and a failed launch) that fail one proof cleanly while
 * the next proof on the same device succeeds, the pinned staging off or too small, and a
 * latency-class start whose release runs after it returned.
 * Circuits: the synthetic PoRep-shaped workload (cuzk/circuits.h) with a dev setup, both
 * key flavours. Exits 77 (skipped) without a CUDA device.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/circuits.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"
#include "gpu_test.h"
#include "prover/cuda_testing.h"
#include "prover/host_stage.h"

typedef struct fixture {
    cuzk_synthetic c;
    cuzk_groth16_pk pk;
    cuzk_witness w;
} fixture;

static cuzk_pool *g_pool;
static unsigned g_max_log2 = 12; /* CUZK_GPU_TEST_MAX_LOG2 lowers it (sanitizer runs) */

static unsigned cap(unsigned k) { return k < g_max_log2 ? k : g_max_log2; }

static bool fixture_make(fixture *f, unsigned k, cuzk_groth16_flavour fl)
{
    cuzk_error e;
    memset(f, 0, sizeof *f);
    if (cuzk_synthetic_porep(&f->c, k, test_rng_u64(), g_pool, &e) != CUZK_OK) {
        printf("synthetic 2^%u: %s\n", k, e.msg);
        return false;
    }
    uint8_t seed[32];
    test_rng_bytes(seed, sizeof seed);
    if (cuzk_groth16_setup_dev(&f->pk, NULL, f->c.r1cs, fl, seed, g_pool, &e) != CUZK_OK) {
        printf("setup 2^%u: %s\n", k, e.msg);
        return false;
    }
    f->w = cuzk_witness_dense(f->c.witness, f->c.r1cs->n_vars);
    return true;
}

static cuzk_prover *g_gpu; /* fixtures are forgotten by the device cache when freed */

static void fixture_free(fixture *f)
{
    cuzk_prover_forget(g_gpu, &f->pk, f->c.r1cs);
    cuzk_groth16_pk_free(&f->pk);
    cuzk_synthetic_free(&f->c);
}

/* n proofs of f's witness with the given r, s on prover p (timings: optional). */
static cuzk_status prove_n(cuzk_prover *p, const fixture *f, size_t n, const cuzk_fr *r,
                           const cuzk_fr *s, cuzk_groth16_proof *out, cuzk_error *e,
                           bool compact, cuzk_prove_timings *timings = NULL, int priority = 0)
{
    cuzk_witness ws[4];
    for (size_t i = 0; i < n; i++)
        ws[i] = compact ? cuzk_synthetic_compact(&f->c) : f->w;
    cuzk_prove_job *job;
    cuzk_prove_opts o = {NULL, priority};
    cuzk_status st = cuzk_prover_start_opts(p, &f->pk, f->c.r1cs, ws, n, &o, &job, e);
    if (st != CUZK_OK)
        return st;
    cuzk_prove_timings t;
    return cuzk_prover_finalize(job, r, s, out, timings ? timings : &t, e);
}

/* Three proofs of f (2^k) on the CPU and on gpu with the same fresh r, s, from dense and
 * compact witnesses: the GPU's must be the CPU's bytes (srs_streamed: the timings must
 * also say the key was streamed). */
static void expect_cpu_proofs(cuzk_prover *cpu, cuzk_prover *gpu, const fixture *f, unsigned k,
                              const char *what, bool srs_streamed)
{
    cuzk_error e;
    cuzk_fr r[3], s[3];
    for (int i = 0; i < 3; i++) {
        test_rand_fr(&r[i]);
        test_rand_fr(&s[i]);
    }
    cuzk_groth16_proof pc[3], pg[3];
    cuzk_status st = prove_n(cpu, f, 3, r, s, pc, &e, false);
    GPU_CHECK(st == CUZK_OK, "cpu %s 2^%u: %s", what, k, e.msg);
    for (int compact = 0; compact < 2; compact++) {
        cuzk_prove_timings t;
        memset(&t, 0, sizeof t);
        st = prove_n(gpu, f, 3, r, s, pg, &e, compact != 0, &t);
        GPU_CHECK(st == CUZK_OK, "%s 2^%u compact %d: %s", what, k, compact, e.msg);
        GPU_CHECK(!srs_streamed || t.srs_streamed,
                  "%s 2^%u: the timings must say the key was streamed", what, k);
        if (st == CUZK_OK)
            GPU_CHECK(memcmp(pc, pg, sizeof pc) == 0,
                      "%s 2^%u compact %d: GPU proof differs from the CPU's", what, k, compact);
    }
}

static void test_equal_to_cpu(cuzk_prover *cpu, cuzk_prover *gpu)
{
    const cuzk_groth16_flavour fls[2] = {CUZK_GROTH16_BELLPERSON, CUZK_GROTH16_SNARKJS};
    for (int fi = 0; fi < 2; fi++)
        for (unsigned k = 3; k <= g_max_log2; k += (k < 6 ? 1 : 3)) {
            fixture f;
            if (!fixture_make(&f, k, fls[fi])) {
                GPU_CHECK(false, "fixture 2^%u", k);
                continue;
            }
            expect_cpu_proofs(cpu, gpu, &f, k, fi ? "gpu snarkjs" : "gpu bellperson", false);
            fixture_free(&f);
        }
}

static void test_bad_witness(cuzk_prover *gpu)
{
    fixture f;
    if (!fixture_make(&f, cap(8), CUZK_GROTH16_BELLPERSON)) {
        GPU_CHECK(false, "fixture");
        return;
    }
    /* flip a bit-valued aux variable: some constraint no longer holds */
    cuzk_fr *v = &f.c.witness[f.c.r1cs->n_vars / 3];
    *v = cuzk_fr_is_zero(v) ? CUZK_FR_ONE : CUZK_FR_ZERO;
    cuzk_groth16_proof p;
    cuzk_error e;
    cuzk_status st = cuzk_prover_prove(gpu, &f.pk, f.c.r1cs, &f.w, &p, NULL, &e);
    GPU_CHECK(st == CUZK_ERR_INVALID_PROOF || st == CUZK_ERR_UNSATISFIED,
              "unsatisfying witness gave %s: %s", cuzk_status_name(st), e.msg);
    fixture_free(&f);
}

static void test_faults_and_cancel(cuzk_prover *gpu)
{
    fixture f;
    if (!fixture_make(&f, cap(10), CUZK_GROTH16_BELLPERSON)) {
        GPU_CHECK(false, "fixture");
        return;
    }
    const char *faults[2] = {"alloc", "kernel"};
    const cuzk_status want[2] = {CUZK_ERR_NOMEM, CUZK_ERR_CUDA};
    cuzk_groth16_proof p;
    cuzk_error e;
    for (int i = 0; i < 2; i++) {
        setenv("CUZK_GPU_FAULT", faults[i], 1);
        cuzk_status st = cuzk_prover_prove(gpu, &f.pk, f.c.r1cs, &f.w, &p, NULL, &e);
        unsetenv("CUZK_GPU_FAULT");
        GPU_CHECK(st == want[i], "fault %s gave %s", faults[i], cuzk_status_name(st));
        GPU_CHECK(strstr(e.msg, "injected") != NULL, "fault %s message: %s", faults[i], e.msg);
        st = cuzk_prover_prove(gpu, &f.pk, f.c.r1cs, &f.w, &p, NULL, &e);
        GPU_CHECK(st == CUZK_OK, "proof after fault %s: %s", faults[i], e.msg);
    }
    volatile int cancel = 1;
    static int dummy;
    cuzk_prove_job *job = (cuzk_prove_job *)&dummy; /* must be reset to NULL */
    cuzk_status st = cuzk_prover_start(gpu, &f.pk, f.c.r1cs, &f.w, 1, &cancel, &job, &e);
    GPU_CHECK(st == CUZK_ERR_CANCELLED && job == NULL, "cancel gave %s", cuzk_status_name(st));
    st = cuzk_prover_prove(gpu, &f.pk, f.c.r1cs, &f.w, &p, NULL, &e);
    GPU_CHECK(st == CUZK_OK, "proof after cancel: %s", e.msg);
    fixture_free(&f);
}

/* Every working-set allocation refused once by the pool (CUZK_GPU_FAULT=pool): each is
 * asked again after a pool trim (pool_alloc), and the proofs are still the CPU's bytes. */
static void test_pool_refusal(cuzk_prover *cpu, cuzk_prover *gpu)
{
    fixture f;
    if (!fixture_make(&f, cap(10), CUZK_GROTH16_BELLPERSON)) {
        GPU_CHECK(false, "fixture");
        return;
    }
    setenv("CUZK_GPU_FAULT", "pool", 1);
    expect_cpu_proofs(cpu, gpu, &f, cap(10), "refused pool allocations", false);
    unsetenv("CUZK_GPU_FAULT");
    fixture_free(&f);
}

/* The pinned staging (CUZK_GPU_STAGE, host_stage.h) off, and so small that the results
 * take it and the witnesses are pinned in place: the same bytes as the CPU's either way,
 * batches included (partitions 3+ uploaded under the device mutex); a malformed value is
 * refused at open. */
static void test_stage_limits(cuzk_prover *cpu)
{
    fixture f;
    if (!fixture_make(&f, cap(10), CUZK_GROTH16_BELLPERSON)) {
        GPU_CHECK(false, "fixture");
        return;
    }
    const char *limits[2] = {"0", "2M"};
    for (int i = 0; i < 2; i++) {
        cuzk_prover *p = NULL;
        cuzk_error e;
        setenv("CUZK_GPU_STAGE", limits[i], 1);
        cuzk_status st = cuzk_prover_open(&p, "gpu:0", g_pool, &e);
        unsetenv("CUZK_GPU_STAGE");
        GPU_CHECK(st == CUZK_OK, "open gpu with CUZK_GPU_STAGE=%s: %s", limits[i], e.msg);
        if (st != CUZK_OK)
            continue;
        expect_cpu_proofs(cpu, p, &f, cap(10), limits[i][0] == '0' ? "no staging" : "staging 2M",
                          false);
        cuzk_prover_forget(p, &f.pk, f.c.r1cs);
        cuzk_prover_close(p);
    }
    cuzk_prover *bad = NULL;
    cuzk_error e;
    setenv("CUZK_GPU_STAGE", "12Q", 1);
    GPU_CHECK(cuzk_prover_open(&bad, "gpu:0", g_pool, &e) == CUZK_ERR_INVALID_ARG,
              "a malformed CUZK_GPU_STAGE must be refused");
    unsetenv("CUZK_GPU_STAGE");
    fixture_free(&f);
}

/* The staging pool's own rules (host_stage.h), with a 32 MiB limit: a new buffer comes
 * with an idle spare of its size while there is room (the other worker's next take pins
 * nothing), a returned buffer is reused by the next request it fits well, a request whose
 * 2 MiB-rounded size is under a quarter of every idle buffer gets its own, idle buffers are
 * freed (largest first) to make room and busy ones never, none is freed when that would
 * not make enough, and over the limit the answer is NULL. */
static void test_host_stage(void)
{
    const size_t M = 1u << 20;
    host_stage hs;
    host_stage_init(&hs, 32 * M);
    void *a = host_stage_take(&hs, 100);
    GPU_CHECK(a && hs.allocs == 2 && hs.pinned == 4 * M, "first take and its spare: %u "
              "allocs, %zu", hs.allocs, hs.pinned);
    void *a2 = host_stage_take(&hs, 64);
    GPU_CHECK(a2 && a2 != a && hs.allocs == 2, "the spare serves a second take unpinned");
    host_stage_give(&hs, a);
    host_stage_give(&hs, a2);
    void *a3 = host_stage_take(&hs, 2 * M);
    GPU_CHECK((a3 == a || a3 == a2) && hs.allocs == 2, "a returned buffer is reused");
    host_stage_give(&hs, a3);
    void *b = host_stage_take(&hs, 9 * M); /* 10 MiB, and a 10 MiB spare */
    GPU_CHECK(b && hs.allocs == 4 && hs.pinned == 24 * M, "second size: %u allocs, %zu",
              hs.allocs, hs.pinned);
    GPU_CHECK(host_stage_take(&hs, 23 * M) == NULL && hs.frees == 0 && hs.pinned == 24 * M,
              "24 MiB cannot be made room for beside a busy 10 MiB: nothing freed");
    host_stage_give(&hs, b);
    void *b2 = host_stage_take(&hs, 3 * M); /* 4 MiB: a 10 MiB one is at most 4x that */
    GPU_CHECK(b2 && hs.allocs == 4, "a 10 MiB buffer fits a 4 MiB take well enough");
    host_stage_give(&hs, b2);
    void *x1 = host_stage_take(&hs, M), *x2 = host_stage_take(&hs, M);
    void *x3 = host_stage_take(&hs, M); /* the 2 MiB ones busy, the 10 MiB ones 5x too big */
    GPU_CHECK(x1 && x2 && x3 && hs.allocs == 6 && hs.pinned == 28 * M,
              "no waste of a big idle buffer: %u allocs, %zu", hs.allocs, hs.pinned);
    host_stage_give(&hs, x1);
    host_stage_give(&hs, x2);
    host_stage_give(&hs, x3);
    void *d = host_stage_take(&hs, 29 * M); /* 30 MiB: five idle buffers freed, no spare */
    GPU_CHECK(d && hs.frees == 5 && hs.pinned == 32 * M && hs.allocs == 7,
              "room made: %u frees, %zu", hs.frees, hs.pinned);
    GPU_CHECK(host_stage_take(&hs, 33 * M) == NULL, "larger than the limit");
    host_stage_give(&hs, d);
    host_stage_destroy(&hs);
    /* the copy over the pool: pieces of 4 MiB, a ragged tail, an offset start */
    size_t n = 21 * M + 12345;
    unsigned char *src = (unsigned char *)malloc(n), *dst = (unsigned char *)calloc(1, n + 3);
    GPU_CHECK(src && dst, "copy buffers");
    if (src && dst) {
        for (size_t i = 0; i < n; i++)
            src[i] = (unsigned char)(i * 131 + (i >> 13));
        host_stage_copy(g_pool, dst + 3, src, n);
        GPU_CHECK(memcmp(dst + 3, src, n) == 0 && dst[0] == 0 && dst[2] == 0,
                  "host_stage_copy over the pool");
        memset(dst, 0, n + 3);
        host_stage_copy(NULL, dst, src, 5 * M + 1);
        GPU_CHECK(memcmp(dst, src, 5 * M + 1) == 0 && dst[5 * M + 1] == 0,
                  "host_stage_copy without a pool");
    }
    free(src);
    free(dst);
    host_stage off;
    host_stage_init(&off, 0);
    GPU_CHECK(host_stage_take(&off, 1) == NULL, "a pool with limit 0 is off");
    host_stage_destroy(&off);
}

/* More circuits than the device cache holds: the least recently used ones are evicted and
 * re-uploaded on demand, and every proof still succeeds. */
static void test_eviction(cuzk_prover *gpu)
{
    enum { N = 6 };
    fixture f[N];
    for (int i = 0; i < N; i++)
        if (!fixture_make(&f[i], cap(5 + (unsigned)(i % 3)), CUZK_GROTH16_BELLPERSON)) {
            GPU_CHECK(false, "fixture");
            return;
        }
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < N; i++) {
            cuzk_groth16_proof p;
            cuzk_error e;
            cuzk_status st = cuzk_prover_prove(gpu, &f[i].pk, f[i].c.r1cs, &f[i].w, &p, NULL, &e);
            GPU_CHECK(st == CUZK_OK, "eviction round %d circuit %d: %s", round, i, e.msg);
        }
    for (int i = 0; i < N; i++)
        fixture_free(&f[i]);
}

/* Streamed-data runs over fixtures 2^4, 2^7 (snarkjs), 2^10 (expect_cpu_proofs each).
 * Returns the number of fixtures (one log line each is expected of the caller's logger). */
static int prove_like_cpu(cuzk_prover *cpu, cuzk_prover *gpu, const char *what, bool srs_streamed)
{
    int fixtures = 0;
    for (unsigned k = 4; k <= cap(10); k += 3, fixtures++) {
        fixture f;
        if (!fixture_make(&f, k, k == 7 ? CUZK_GROTH16_SNARKJS : CUZK_GROTH16_BELLPERSON)) {
            GPU_CHECK(false, "fixture 2^%u", k);
            continue;
        }
        expect_cpu_proofs(cpu, gpu, &f, k, what, srs_streamed);
        cuzk_prover_forget(gpu, &f.pk, f.c.r1cs);
        fixture_free(&f);
    }
    return fixtures;
}

static int g_logged_stream;
static void count_log(void *ctx, bool warn, const char *msg)
{
    (void)ctx;
    (void)warn;
    if (strstr(msg, "streamed"))
        __atomic_add_fetch(&g_logged_stream, 1, __ATOMIC_SEQ_CST);
}

/* A streamed key (its vectors copied through staging buffers of a few dozen points, so
 * every MSM runs in many chunks with a short last one) gives the CPU's proofs bit for bit,
 * in batches, from dense and compact witnesses; the decision is logged once per key. A
 * device limit too small for the circuit fails cleanly with NOMEM. */
static void test_streamed(cuzk_prover *cpu)
{
    cuzk_prover *st_gpu = NULL, *tiny = NULL;
    cuzk_error e;
    /* 37 G2 points = 74 G1 points a chunk; the variable is read at open */
    setenv("CUZK_GPU_SRS", "stream:7104", 1);
    cuzk_status st = cuzk_prover_open(&st_gpu, "gpu:0", g_pool, &e);
    unsetenv("CUZK_GPU_SRS");
    GPU_CHECK(st == CUZK_OK, "open streamed gpu: %s", e.msg);
    setenv("CUZK_GPU_SRS", "stream:12Q", 1);
    GPU_CHECK(cuzk_prover_open(&tiny, "gpu:0", g_pool, &e) == CUZK_ERR_INVALID_ARG,
              "a malformed CUZK_GPU_SRS must be refused");
    unsetenv("CUZK_GPU_SRS");
    if (st != CUZK_OK)
        return;
    cuzk_prover_set_log(st_gpu, count_log, NULL);
    g_logged_stream = 0;
    int keys = prove_like_cpu(cpu, st_gpu, "streamed", true);
    GPU_CHECK(g_logged_stream == keys, "one log line per streamed key: %d keys, %d lines", keys,
              g_logged_stream);
    cuzk_prover_close(st_gpu);

    setenv("CUZK_GPU_MEM_LIMIT", "64M", 1); /* less than the CUDA context already holds */
    st = cuzk_prover_open(&tiny, "gpu:0", g_pool, &e);
    unsetenv("CUZK_GPU_MEM_LIMIT");
    GPU_CHECK(st == CUZK_OK, "open limited gpu: %s", e.msg);
    if (st == CUZK_OK) {
        fixture f;
        if (fixture_make(&f, cap(6), CUZK_GROTH16_BELLPERSON)) {
            cuzk_groth16_proof p;
            st = cuzk_prover_prove(tiny, &f.pk, f.c.r1cs, &f.w, &p, NULL, &e);
            GPU_CHECK(st == CUZK_ERR_NOMEM && strstr(e.msg, "constraint system"),
                      "a 64 MiB device limit gave %s: %s", cuzk_status_name(st), e.msg);
            cuzk_prover_forget(tiny, &f.pk, f.c.r1cs);
            fixture_free(&f);
        }
        cuzk_prover_close(tiny);
    }
}

static int g_logged_csr;
static void count_csr_log(void *ctx, bool warn, const char *msg)
{
    (void)ctx;
    (void)warn;
    if (strstr(msg, "constraint system") && strstr(msg, "streamed"))
        __atomic_add_fetch(&g_logged_csr, 1, __ATOMIC_SEQ_CST);
}

/* A streamed constraint system (CUZK_GPU_CSR=stream) gives the CPU's proofs bit for bit:
 * with a resident key (one block of rows a matrix), and with a streamed key whose staging
 * buffers hold 7104 bytes, so every matrix is evaluated in many blocks (a few hundred rows
 * each) with a short last one; dense and compact witnesses, batches of 3; the decision is
 * logged once per circuit. A malformed CUZK_GPU_CSR is refused. */
static void test_csr_streamed(cuzk_prover *cpu)
{
    cuzk_error e;
    cuzk_prover *bad = NULL;
    setenv("CUZK_GPU_CSR", "streamed", 1);
    GPU_CHECK(cuzk_prover_open(&bad, "gpu:0", g_pool, &e) == CUZK_ERR_INVALID_ARG,
              "a malformed CUZK_GPU_CSR must be refused");
    for (int small_stage = 0; small_stage < 2; small_stage++) {
        cuzk_prover *gpu = NULL;
        setenv("CUZK_GPU_CSR", "stream", 1);
        if (small_stage)
            setenv("CUZK_GPU_SRS", "stream:7104", 1);
        cuzk_status st = cuzk_prover_open(&gpu, "gpu:0", g_pool, &e);
        unsetenv("CUZK_GPU_CSR");
        unsetenv("CUZK_GPU_SRS");
        GPU_CHECK(st == CUZK_OK, "open csr-streamed gpu: %s", e.msg);
        if (st != CUZK_OK)
            return;
        cuzk_prover_set_log(gpu, count_csr_log, NULL);
        g_logged_csr = 0;
        int circuits = prove_like_cpu(cpu, gpu, small_stage ? "csr+key streamed" : "csr streamed",
                                      small_stage != 0);
        GPU_CHECK(g_logged_csr == circuits, "one log line per streamed circuit: %d circuits, "
                  "%d lines", circuits, g_logged_csr);
        cuzk_prover_close(gpu);
    }
}

typedef struct worker_arg {
    cuzk_prover *gpu;
    const fixture *f;
    int ok;
} worker_arg;

static void *worker(void *arg)
{
    worker_arg *a = (worker_arg *)arg;
    a->ok = 1;
    for (int i = 0; i < 4; i++) {
        cuzk_groth16_proof p;
        cuzk_error e;
        if (cuzk_prover_prove(a->gpu, &a->f->pk, a->f->c.r1cs, &a->f->w, &p, NULL, &e) !=
            CUZK_OK) {
            printf("worker: %s\n", e.msg);
            a->ok = 0;
        }
    }
    return NULL;
}

/* A key adopted by the device (cuzk_prover_key_adopt) proves the CPU's bytes after its
 * host points are freed, survives more keys than the device cache holds (never evicted to
 * make room), and is refused once forgotten; a key never started here, or streamed, is not
 * adopted. */
static void test_adopt(cuzk_prover *cpu, cuzk_prover *gpu)
{
    fixture f, g[5];
    cuzk_error e;
    unsigned k = cap(10);
    if (!fixture_make(&f, k, CUZK_GROTH16_BELLPERSON)) {
        GPU_CHECK(false, "fixture");
        return;
    }
    GPU_CHECK(cuzk_prover_key_adopt(gpu, &f.pk, &e) == CUZK_ERR_NOT_FOUND,
              "a key never started here must not be adopted");
    cuzk_fr r[2], s[2];
    for (int i = 0; i < 2; i++) {
        test_rand_fr(&r[i]);
        test_rand_fr(&s[i]);
    }
    cuzk_groth16_proof pc[2], pg[2];
    GPU_CHECK(prove_n(cpu, &f, 2, r, s, pc, &e, false) == CUZK_OK, "cpu: %s", e.msg);
    GPU_CHECK(prove_n(gpu, &f, 2, r, s, pg, &e, false) == CUZK_OK, "gpu: %s", e.msg);
    cuzk_status st = cuzk_prover_key_adopt(gpu, &f.pk, &e);
    GPU_CHECK(st == CUZK_OK, "adopt: %s", e.msg);
    if (st != CUZK_OK) {
        fixture_free(&f);
        return;
    }
    free(f.pk.h), free(f.pk.l), free(f.pk.a), free(f.pk.b_g1), free(f.pk.b_g2);
    f.pk.h = f.pk.l = f.pk.a = f.pk.b_g1 = NULL;
    f.pk.b_g2 = NULL;
    for (int compact = 0; compact < 2; compact++) {
        memset(pg, 0, sizeof pg);
        st = prove_n(gpu, &f, 2, r, s, pg, &e, compact != 0);
        GPU_CHECK(st == CUZK_OK, "adopted key, compact %d: %s", compact, e.msg);
        GPU_CHECK(memcmp(pc, pg, sizeof pc) == 0,
                  "adopted key, compact %d: the GPU's proof differs from the CPU's", compact);
    }
    /* more keys than the cache's slots come and go; the adopted one stays */
    int made = 0;
    for (int i = 0; i < 5; i++, made++)
        if (!fixture_make(&g[i], cap(5 + (unsigned)(i % 3)), CUZK_GROTH16_BELLPERSON))
            break;
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < made; i++) {
            cuzk_groth16_proof p;
            st = cuzk_prover_prove(gpu, &g[i].pk, g[i].c.r1cs, &g[i].w, &p, NULL, &e);
            GPU_CHECK(st == CUZK_OK, "other key %d beside the adopted one: %s", i, e.msg);
        }
    memset(pg, 0, sizeof pg);
    st = prove_n(gpu, &f, 2, r, s, pg, &e, false);
    GPU_CHECK(st == CUZK_OK && memcmp(pc, pg, sizeof pc) == 0,
              "the adopted key after other keys: %s", st == CUZK_OK ? "proof differs" : e.msg);
    for (int i = 0; i < made; i++)
        fixture_free(&g[i]);
    /* forgotten: the device copy and the adoption are gone, and nothing is read through
     * the freed vectors */
    cuzk_prover_forget(gpu, &f.pk, NULL);
    st = prove_n(gpu, &f, 1, r, s, pg, &e, false);
    GPU_CHECK(st == CUZK_ERR_INVALID_ARG, "a forgotten adopted key gave %s: %s",
              cuzk_status_name(st), e.msg);
    fixture_free(&f);

    /* a streamed key stays in host memory: not adopted */
    cuzk_prover *sg = NULL;
    setenv("CUZK_GPU_SRS", "stream", 1);
    st = cuzk_prover_open(&sg, "gpu:0", g_pool, &e);
    unsetenv("CUZK_GPU_SRS");
    GPU_CHECK(st == CUZK_OK, "open streamed gpu: %s", e.msg);
    if (st == CUZK_OK && fixture_make(&f, cap(6), CUZK_GROTH16_BELLPERSON)) {
        cuzk_groth16_proof p;
        cuzk_prover_set_log(sg, count_log, NULL);
        GPU_CHECK(cuzk_prover_prove(sg, &f.pk, f.c.r1cs, &f.w, &p, NULL, &e) == CUZK_OK,
                  "streamed: %s", e.msg);
        st = cuzk_prover_key_adopt(sg, &f.pk, &e);
        GPU_CHECK(st == CUZK_ERR_NOT_FOUND && strstr(e.msg, "streamed"),
                  "a streamed key gave %s: %s", cuzk_status_name(st), e.msg);
        cuzk_prover_forget(sg, &f.pk, f.c.r1cs);
        fixture_free(&f);
    }
    cuzk_prover_close(sg);
}

static int g_logged_whole;
static void count_whole_log(void *ctx, bool warn, const char *msg)
{
    (void)ctx;
    (void)warn;
    if (strstr(msg, "fits the device now: uploaded whole"))
        __atomic_add_fetch(&g_logged_whole, 1, __ATOMIC_SEQ_CST);
}

static bool slots_are(cuzk_prover *gpu, int keys, int circuits, int streamed, const char *when)
{
    cuzk_cuda_slots sl;
    cuzk_prover_cuda_slots(gpu, &sl);
    bool ok = sl.keys == keys && sl.circuits == circuits &&
              sl.streamed_keys == streamed && sl.streamed_circuits == streamed;
    GPU_CHECK(ok, "%s: %d keys, %d circuits, %d+%d streamed; want %d, %d, %d+%d", when, sl.keys,
              sl.circuits, sl.streamed_keys, sl.streamed_circuits, keys, circuits, streamed,
              streamed);
    return ok;
}

/* A streamed key and circuit are decided again at their next use: once they fit, they are
 * uploaded whole (logged once each) and the streamed copies released, at once when idle,
 * else when the last start still using them ends; the proofs stay the CPU's bytes. */
static void test_stream_upgrade(cuzk_prover *cpu)
{
    cuzk_error e;
    cuzk_prover *gpu = NULL;
    GPU_CHECK(cuzk_prover_open(&gpu, "gpu:0", g_pool, &e) == CUZK_OK, "open gpu: %s", e.msg);
    if (!gpu)
        return;
    cuzk_prover_set_log(gpu, count_whole_log, NULL);
    fixture f[2];
    for (int i = 0; i < 2; i++)
        if (!fixture_make(&f[i], cap(8 + 2 * (unsigned)i), CUZK_GROTH16_BELLPERSON)) {
            GPU_CHECK(false, "fixture");
            cuzk_prover_close(gpu);
            return;
        }
    /* idle streamed copies: replaced in their slots' stead, released at once */
    cuzk_prover_cuda_force_stream(gpu, true, true);
    expect_cpu_proofs(cpu, gpu, &f[0], 8, "upgrade: streamed", true);
    slots_are(gpu, 1, 1, 1, "streamed");
    cuzk_prover_cuda_force_stream(gpu, false, false);
    g_logged_whole = 0;
    expect_cpu_proofs(cpu, gpu, &f[0], 8, "upgrade: whole", false);
    GPU_CHECK(g_logged_whole == 2, "an idle upgrade logs key and circuit once: %d lines",
              g_logged_whole);
    slots_are(gpu, 1, 1, 0, "after an idle upgrade");
    cuzk_prove_timings t;
    cuzk_groth16_proof pr;
    cuzk_fr r, s;
    test_rand_fr(&r);
    test_rand_fr(&s);
    GPU_CHECK(prove_n(gpu, &f[0], 1, &r, &s, &pr, &e, false, &t) == CUZK_OK && !t.srs_streamed,
              "after the upgrade the key must be resident: %s", e.msg);

    /* a streamed copy a start still runs with: retired, released by that start's end */
    cuzk_prover_cuda_force_stream(gpu, true, true);
    expect_cpu_proofs(cpu, gpu, &f[1], 10, "upgrade in use: streamed", true);
    slots_are(gpu, 2, 2, 1, "second fixture streamed");
    cuzk_cuda_hold h;
    GPU_CHECK(cuzk_prover_cuda_hold(gpu, &f[1].pk, f[1].c.r1cs, &h), "hold the streamed copy");
    cuzk_prover_cuda_force_stream(gpu, false, false);
    g_logged_whole = 0;
    expect_cpu_proofs(cpu, gpu, &f[1], 10, "upgrade in use: whole", false);
    GPU_CHECK(g_logged_whole == 2, "an upgrade in use logs key and circuit once: %d lines",
              g_logged_whole);
    slots_are(gpu, 3, 3, 1, "while the streamed copy is held");
    /* the caller frees the host points of an adopted key: not while a start streams them */
    cuzk_status ast = cuzk_prover_key_adopt(gpu, &f[1].pk, &e);
    GPU_CHECK(ast == CUZK_ERR_NOT_FOUND, "adopted while a start streams the key: %s",
              cuzk_status_name(ast));
    cuzk_prover_cuda_unhold(gpu, &h);
    slots_are(gpu, 2, 2, 0, "after the hold ended");
    ast = cuzk_prover_key_adopt(gpu, &f[1].pk, &e);
    GPU_CHECK(ast == CUZK_OK, "adopt once the streamed copy is gone: %s", e.msg);
    expect_cpu_proofs(cpu, gpu, &f[1], 10, "upgrade in use: after", false);

    /* forgetting reaches a retired copy too (a forget voids the hold: cuzk/prover.h has no
     * start run with what is forgotten) */
    cuzk_prover_cuda_force_stream(gpu, true, true);
    cuzk_prover_forget(gpu, &f[1].pk, f[1].c.r1cs);
    expect_cpu_proofs(cpu, gpu, &f[1], 10, "forget: streamed", true);
    GPU_CHECK(cuzk_prover_cuda_hold(gpu, &f[1].pk, f[1].c.r1cs, &h), "hold again");
    cuzk_prover_cuda_force_stream(gpu, false, false);
    expect_cpu_proofs(cpu, gpu, &f[1], 10, "forget: whole", false);
    slots_are(gpu, 3, 3, 1, "retired again");
    for (int i = 0; i < 2; i++)
        cuzk_prover_forget(gpu, &f[i].pk, f[i].c.r1cs);
    slots_are(gpu, 0, 0, 0, "after forgetting both");
    GPU_CHECK(cuzk_prover_held(gpu) == 0, "held after forgetting: %zu", cuzk_prover_held(gpu));
    cuzk_prover_close(gpu);
    for (int i = 0; i < 2; i++) {
        cuzk_groth16_pk_free(&f[i].pk);
        cuzk_synthetic_free(&f[i].c);
    }
}

static void test_two_workers(cuzk_prover *gpu)
{
    fixture f;
    if (!fixture_make(&f, cap(11), CUZK_GROTH16_BELLPERSON)) {
        GPU_CHECK(false, "fixture");
        return;
    }
    pthread_t th[2];
    worker_arg a[2] = {{gpu, &f, 0}, {gpu, &f, 0}};
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, worker, &a[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    GPU_CHECK(a[0].ok && a[1].ok, "two workers on one device");
    cuzk_prover_forget(gpu, &f.pk, f.c.r1cs);
    fixture_free(&f);
}

/* A start of the latency classes (priority 4, the engine's CRITICAL) returns before its
 * release, which runs on a thread of its own (backend_cuda.cu late_release): its proofs
 * are the CPU's; a forget right after it waits for that release and leaves no device slot
 * behind (a forget that did not wait would free what the release then unuses, or leave
 * the slot to it); a close right after a start waits for the release too. */
static void test_late_release(cuzk_prover *cpu)
{
    fixture f;
    unsigned k = cap(10);
    if (!fixture_make(&f, k, CUZK_GROTH16_BELLPERSON)) {
        GPU_CHECK(false, "fixture");
        return;
    }
    cuzk_error e;
    cuzk_prover *gpu = NULL;
    GPU_CHECK(cuzk_prover_open(&gpu, "gpu:0", g_pool, &e) == CUZK_OK, "open gpu: %s", e.msg);
    for (int round = 0; gpu && round < 6; round++) {
        cuzk_fr r[2], s[2];
        for (int i = 0; i < 2; i++) {
            test_rand_fr(&r[i]);
            test_rand_fr(&s[i]);
        }
        cuzk_groth16_proof pc[2], pg[2];
        cuzk_status st = prove_n(cpu, &f, 2, r, s, pc, &e, false);
        GPU_CHECK(st == CUZK_OK, "cpu: %s", e.msg);
        st = prove_n(gpu, &f, 2, r, s, pg, &e, round & 1, NULL, 4);
        GPU_CHECK(st == CUZK_OK, "critical start, round %d: %s", round, e.msg);
        if (st == CUZK_OK)
            GPU_CHECK(memcmp(pc, pg, sizeof pc) == 0,
                      "critical start, round %d: GPU proof differs from the CPU's", round);
        cuzk_prover_forget(gpu, &f.pk, f.c.r1cs);
        cuzk_cuda_slots sl;
        cuzk_prover_cuda_slots(gpu, &sl);
        GPU_CHECK(sl.keys == 0 && sl.circuits == 0,
                  "round %d: %d key(s), %d circuit(s) left after the forget", round, sl.keys,
                  sl.circuits);
    }
    if (gpu) {
        cuzk_fr r, s;
        test_rand_fr(&r);
        test_rand_fr(&s);
        cuzk_groth16_proof p;
        GPU_CHECK(prove_n(gpu, &f, 1, &r, &s, &p, &e, false, NULL, 4) == CUZK_OK,
                  "critical start before the close: %s", e.msg);
    }
    cuzk_prover_close(gpu); /* at once: waits for that start's release */
    fixture_free(&f);
}

int main(void)
{
    GPU_TEST_BEGIN("gpu_prove");
    const char *mx = getenv("CUZK_GPU_TEST_MAX_LOG2");
    if (mx && atoi(mx) >= 3)
        g_max_log2 = (unsigned)atoi(mx);
    cuzk_error e;
    cuzk_prover *cpu = NULL, *gpu = NULL, *bad = NULL;
    if (cuzk_pool_create(&g_pool, 0) != CUZK_OK)
        return 1;
    GPU_CHECK(cuzk_prover_open(&cpu, "cpu", g_pool, &e) == CUZK_OK, "open cpu: %s", e.msg);
    GPU_CHECK(cuzk_prover_open(&gpu, "gpu:0", g_pool, &e) == CUZK_OK, "open gpu: %s", e.msg);
    GPU_CHECK(cuzk_prover_open(&bad, "gpu:999", g_pool, &e) == CUZK_ERR_UNSUPPORTED,
              "gpu:999 must not open");
    GPU_CHECK(cuzk_prover_open(&bad, "tpu", g_pool, &e) == CUZK_ERR_INVALID_ARG,
              "unknown backend must not open");
    g_gpu = gpu;
    if (cpu && gpu) {
        printf("cpu: %s\ngpu: %s\n", cuzk_prover_describe(cpu), cuzk_prover_describe(gpu));
        test_equal_to_cpu(cpu, gpu);
        test_bad_witness(gpu);
        test_faults_and_cancel(gpu);
        test_pool_refusal(cpu, gpu);
        test_stage_limits(cpu);
        test_host_stage();
        test_two_workers(gpu);
        test_eviction(gpu);
        test_adopt(cpu, gpu);
        test_streamed(cpu);
        test_csr_streamed(cpu);
        test_stream_upgrade(cpu);
        test_late_release(cpu);
    }
    cuzk_prover_close(cpu);
    cuzk_prover_close(gpu);
    cuzk_pool_destroy(g_pool);
    GPU_TEST_END();
}
