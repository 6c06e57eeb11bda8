/*
 * test_gpu_fixed_base.cu — the device fixed-base multiplication (cuzk/gpu.h,
 * src/gpu/fixed_base.cu) against the CPU's cuzk_g1s/g2s_fixed_mul_var, bit for bit, and a
 * whole development setup through the prover's GPU hook against the CPU setup.
 *
 *   sizes      n = 1, 2, 3, 17, 511, 513, 4099 (G2: up to 1,500) of fresh random scalars
 *              (seeded: CUZK_TEST_SEED replays) on a default context (2^22-point chunks,
 *              20-bit windows: one chunk), and n = 999 .. 4,099 on a context with
 *              1,000-point chunks and 8-bit windows: exactly one chunk, one plus one point,
 *              two (both staging slots), three (a slot reused) and five chunks, the last
 *              one short;
 *   edges      0 (infinity, (0, 0)), 1, 2, 3, r-1, r-2, r-3, (r-1)/2, (r+1)/2, powers of two
 *              and runs of ones around every window border of both widths, long runs of
 *              zeros (2^j + 1), alternating bits, digits of exactly 2^(w-1) and 2^(w-1)+1
 *              (the carry's edge) in every window, r - 2^j;
 *   bases      7 G as well as the generator (the table is rebuilt when the base changes,
 *              and again for the generator after it);
 *   errors     NULL arguments, a base at infinity, bad window widths and chunk sizes, a
 *              malformed CUZK_GPU_FIXED_BASE_CHUNK, a device that does not exist;
 *   setup      cuzk_groth16_setup_dev_ex with cuzk_prover_fixed_base_hook_open's hook on
 *              the synthetic PoRep-shaped circuit (2^12, both flavours, one seed): the same
 *              bytes as the CPU setup; the hook refuses a CPU prover.
 * Prints one PASS / FAIL line per case. Exits 77 (skipped) without a CUDA device.
 * Runs in a few seconds (the CPU reference dominates). With CUZK_GPU_TEST_MAX_LOG2 set (the
 * sanitizer runs of bench/gpu.sh) every table is 8-bit (CUZK_GPU_FIXED_BASE_WINDOW=8 for
 * the contexts that take the default, the prover's hook among them), sizes stop at 600
 * and the setup is 2^min(12, that log2): the sanitizers slow kernels down 10-100x.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/circuits.h"
#include "cuzk/ec.h"
#include "cuzk/gpu.h"
#include "cuzk/groth16.h"
#include "cuzk/pool.h"
#include "cuzk/prover.h"
#include "gpu_test.h"

static cuzk_pool *g_pool;
static bool g_small;      /* CUZK_GPU_TEST_MAX_LOG2 set: sanitizer-sized */
static unsigned g_setup_log2 = 12;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the CPU reference (the setup's own routine, 13-bit tables) ------------------------- */

#define REF_W 13

typedef struct cpu_ref {
    cuzk_g1_fixed_wide *t1;
    cuzk_g2_fixed_wide *t2;
    void *scratch;
    size_t scratch_size;
} cpu_ref;

static void ref_init(cpu_ref *c, const cuzk_g1_affine *b1, const cuzk_g2_affine *b2)
{
    c->t1 = (cuzk_g1_fixed_wide *)malloc(cuzk_g1_fixed_wide_size(REF_W));
    c->t2 = (cuzk_g2_fixed_wide *)malloc(cuzk_g2_fixed_wide_size(REF_W));
    c->scratch_size = cuzk_g2s_fixed_mul_var_scratch_size();
    if (cuzk_g1s_fixed_mul_var_scratch_size() > c->scratch_size)
        c->scratch_size = cuzk_g1s_fixed_mul_var_scratch_size();
    c->scratch = malloc(c->scratch_size);
    if (!c->t1 || !c->t2 || !c->scratch ||
        cuzk_g1_fixed_wide_init(c->t1, REF_W, b1) != CUZK_OK ||
        cuzk_g2_fixed_wide_init(c->t2, REF_W, b2) != CUZK_OK) {
        printf("cannot build the CPU reference tables\n");
        exit(1);
    }
}

static void ref_free(cpu_ref *c)
{
    free(c->t1);
    free(c->t2);
    free(c->scratch);
}

/* ---- scalars ------------------------------------------------------------------------------ */

/* The canonical 256-bit value v (4 LE limbs) as a scalar, if v < r. */
static bool fr_from_limbs(cuzk_fr *out, const uint64_t v[4])
{
    return cuzk_fr_from_canonical(out, v) == CUZK_OK;
}

static void set_bit(uint64_t v[4], unsigned b)
{
    if (b < 256)
        v[b / 64] |= (uint64_t)1 << (b % 64);
}

/* The edge-case scalars (a few hundred); returns how many were written (cap: 1024). */
static size_t edge_scalars(cuzk_fr *k)
{
    size_t n = 0;
    cuzk_fr one = CUZK_FR_ONE, t;
    uint64_t v[4];
    memset(&k[n++], 0, sizeof(cuzk_fr)); /* 0 */
    for (uint64_t small = 1; small <= 3; small++)
        cuzk_fr_from_u64(&k[n++], small);
    cuzk_fr_neg(&k[n++], &one); /* r - 1 */
    cuzk_fr_from_u64(&t, 2);
    cuzk_fr_neg(&k[n++], &t); /* r - 2 */
    cuzk_fr_from_u64(&t, 3);
    cuzk_fr_neg(&k[n++], &t); /* r - 3 */
    cuzk_fr_from_u64(&t, 2);
    cuzk_fr_inv(&t, &t);
    cuzk_fr_neg(&k[n++], &t); /* -(1/2) = (r - 1)/2 */
    k[n++] = t;               /* 1/2 = (r + 1)/2 */
    /* powers of two, 2^j - 1 (runs of ones), 2^j + 1 (runs of zeros), r - 2^j */
    for (unsigned j = 0; j < 255; j++) {
        bool border = j % 8 == 0 || j % 8 == 7 || j % 20 == 0 || j % 20 == 19 || j % 20 == 1 ||
                      j > 248;
        if (!border)
            continue;
        memset(v, 0, sizeof v);
        set_bit(v, j);
        if (fr_from_limbs(&k[n], v))
            n++;
        cuzk_fr_neg(&k[n], &k[n - 1]);
        n++;
        memset(v, 0, sizeof v);
        for (unsigned b = 0; b < j; b++)
            set_bit(v, b);
        if (j && fr_from_limbs(&k[n], v))
            n++;
        memset(v, 0, sizeof v);
        set_bit(v, j);
        set_bit(v, 0);
        if (fr_from_limbs(&k[n], v))
            n++;
    }
    /* a run of ones between two borders, alternating bits */
    const unsigned runs[][2] = {{20, 60}, {8, 248}, {1, 254}, {100, 101}, {39, 41}, {200, 254}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        memset(v, 0, sizeof v);
        for (unsigned b = runs[i][0]; b < runs[i][1]; b++)
            set_bit(v, b);
        if (fr_from_limbs(&k[n], v))
            n++;
    }
    for (unsigned pat = 0; pat < 2; pat++) {
        for (int l = 0; l < 4; l++)
            v[l] = pat ? 0xaaaaaaaaaaaaaaaaull : 0x5555555555555555ull;
        v[3] &= 0x3fffffffffffffffull;
        if (fr_from_limbs(&k[n], v))
            n++;
    }
    /* a digit of exactly 2^(w-1) (no carry) or 2^(w-1) + 1 (carry) in window i */
    const unsigned widths[] = {8, 20};
    for (size_t wi = 0; wi < 2; wi++) {
        unsigned w = widths[wi];
        for (unsigned i = 0; i * w < 255; i++)
            for (unsigned plus = 0; plus < 2; plus++) {
                memset(v, 0, sizeof v);
                set_bit(v, i * w + w - 1);
                if (plus)
                    set_bit(v, i * w);
                if (fr_from_limbs(&k[n], v))
                    n++;
            }
    }
    return n;
}

static void random_scalars(cuzk_fr *k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        test_rand_fr(&k[i]);
}

/* ---- comparisons ------------------------------------------------------------------------- */

/* Runs the device and the reference on k[0..n); true when every byte agrees. */
static bool check_g1(cuzk_gpu_fixed_base *fb, const cpu_ref *ref, const cuzk_g1_affine *base,
                     const cuzk_fr *k, size_t n, const char *what)
{
    cuzk_g1_affine *got = (cuzk_g1_affine *)malloc((n ? n : 1) * sizeof *got);
    cuzk_g1_affine *want = (cuzk_g1_affine *)malloc((n ? n : 1) * sizeof *want);
    if (!got || !want) {
        printf("out of memory\n");
        exit(1);
    }
    memset(got, 0xa5, (n ? n : 1) * sizeof *got);
    cuzk_error e = {};
    double t0 = now_s();
    cuzk_status st = cuzk_gpu_g1s_fixed_mul(fb, got, base, k, n, &e);
    double t1 = now_s();
    GPU_CHECK(st == CUZK_OK, "%s: gpu g1: %s", what, e.msg);
    GPU_CHECK(cuzk_g1s_fixed_mul_var(want, ref->t1, k, n, ref->scratch, ref->scratch_size) ==
                  CUZK_OK,
              "%s: cpu g1", what);
    size_t bad = n, nbad = 0;
    for (size_t i = 0; i < n; i++)
        if (memcmp(&got[i], &want[i], sizeof got[i]) != 0) {
            if (bad == n)
                bad = i;
            nbad++;
        }
    bool ok = st == CUZK_OK && nbad == 0;
    if (ok)
        printf("PASS g1 %-28s n = %zu (%.1f ms on the device)\n", what, n, (t1 - t0) * 1e3);
    else
        printf("FAIL g1 %-28s n = %zu: %zu point(s) differ, first at %zu\n", what, n, nbad,
               bad);
    GPU_CHECK(nbad == 0, "%s: %zu G1 point(s) differ, first at %zu", what, nbad, bad);
    free(got);
    free(want);
    return ok;
}

static bool check_g2(cuzk_gpu_fixed_base *fb, const cpu_ref *ref, const cuzk_g2_affine *base,
                     const cuzk_fr *k, size_t n, const char *what)
{
    cuzk_g2_affine *got = (cuzk_g2_affine *)malloc((n ? n : 1) * sizeof *got);
    cuzk_g2_affine *want = (cuzk_g2_affine *)malloc((n ? n : 1) * sizeof *want);
    if (!got || !want) {
        printf("out of memory\n");
        exit(1);
    }
    memset(got, 0xa5, (n ? n : 1) * sizeof *got);
    cuzk_error e = {};
    double t0 = now_s();
    cuzk_status st = cuzk_gpu_g2s_fixed_mul(fb, got, base, k, n, &e);
    double t1 = now_s();
    GPU_CHECK(st == CUZK_OK, "%s: gpu g2: %s", what, e.msg);
    GPU_CHECK(cuzk_g2s_fixed_mul_var(want, ref->t2, k, n, ref->scratch, ref->scratch_size) ==
                  CUZK_OK,
              "%s: cpu g2", what);
    size_t bad = n, nbad = 0;
    for (size_t i = 0; i < n; i++)
        if (memcmp(&got[i], &want[i], sizeof got[i]) != 0) {
            if (bad == n)
                bad = i;
            nbad++;
        }
    bool ok = st == CUZK_OK && nbad == 0;
    if (ok)
        printf("PASS g2 %-28s n = %zu (%.1f ms on the device)\n", what, n, (t1 - t0) * 1e3);
    else
        printf("FAIL g2 %-28s n = %zu: %zu point(s) differ, first at %zu\n", what, n, nbad,
               bad);
    GPU_CHECK(nbad == 0, "%s: %zu G2 point(s) differ, first at %zu", what, nbad, bad);
    free(got);
    free(want);
    return ok;
}

static cuzk_gpu_fixed_base *make(size_t chunk, unsigned window)
{
    cuzk_gpu_fixed_base_opts o;
    memset(&o, 0, sizeof o);
    o.chunk = chunk;
    o.window = window;
    o.pool = g_pool;
    cuzk_gpu_fixed_base *fb = NULL;
    cuzk_error e = {};
    if (cuzk_gpu_fixed_base_create(&fb, 0, &o, &e) != CUZK_OK) {
        printf("FAIL create (chunk %zu, window %u): %s\n", chunk, window, e.msg);
        exit(1);
    }
    return fb;
}

/* Every size and the edges on one context, G1 and G2, base b1 / b2 (NULL: generators). */
static void run_context(cuzk_gpu_fixed_base *fb, const char *name, const cpu_ref *ref,
                        const cuzk_g1_affine *b1, const cuzk_g2_affine *b2, const size_t *sizes,
                        size_t nsizes, size_t g2_max, bool edges = true)
{
    char what[64];
    size_t maxn = 0;
    for (size_t i = 0; i < nsizes; i++)
        maxn = sizes[i] > maxn ? sizes[i] : maxn;
    cuzk_fr *k = (cuzk_fr *)malloc((maxn > 1024 ? maxn : 1024) * sizeof *k);
    if (!k)
        exit(1);
    for (size_t i = 0; i < nsizes; i++) {
        if (g_small && sizes[i] > 600)
            continue;
        random_scalars(k, sizes[i]);
        snprintf(what, sizeof what, "%s random", name);
        check_g1(fb, ref, b1, k, sizes[i], what);
        if (sizes[i] <= g2_max)
            check_g2(fb, ref, b2, k, sizes[i], what);
    }
    if (!edges) {
        free(k);
        return;
    }
    size_t ne = edge_scalars(k);
    snprintf(what, sizeof what, "%s edges", name);
    check_g1(fb, ref, b1, k, ne, what);
    check_g2(fb, ref, b2, k, ne, what);
    /* every edge scalar alone (n = 1: its own chunk, its own normalisation) for the first
     * few, and zero alone */
    snprintf(what, sizeof what, "%s one edge", name);
    for (size_t i = 0; i < 8; i++) {
        check_g1(fb, ref, b1, k + i, 1, what);
        check_g2(fb, ref, b2, k + i, 1, what);
    }
    free(k);
}

/* ---- errors ------------------------------------------------------------------------------- */

static void errors(cuzk_gpu_fixed_base *fb)
{
    cuzk_error e = {};
    cuzk_fr k = CUZK_FR_ONE;
    cuzk_g1_affine r1, inf1;
    cuzk_g2_affine r2, inf2;
    memset(&inf1, 0, sizeof inf1);
    memset(&inf2, 0, sizeof inf2);
    int before = gpu_test_failures_;
    GPU_CHECK(cuzk_gpu_g1s_fixed_mul(NULL, &r1, NULL, &k, 1, &e) == CUZK_ERR_INVALID_ARG,
              "NULL context");
    GPU_CHECK(cuzk_gpu_g1s_fixed_mul(fb, NULL, NULL, &k, 1, &e) == CUZK_ERR_INVALID_ARG,
              "NULL out");
    GPU_CHECK(cuzk_gpu_g2s_fixed_mul(fb, &r2, NULL, NULL, 1, &e) == CUZK_ERR_INVALID_ARG,
              "NULL scalars");
    GPU_CHECK(cuzk_gpu_g1s_fixed_mul(fb, NULL, NULL, NULL, 0, &e) == CUZK_OK, "n = 0");
    GPU_CHECK(cuzk_gpu_g1s_fixed_mul(fb, &r1, &inf1, &k, 1, &e) == CUZK_ERR_INVALID_ARG,
              "G1 base at infinity");
    GPU_CHECK(cuzk_gpu_g2s_fixed_mul(fb, &r2, &inf2, &k, 1, &e) == CUZK_ERR_INVALID_ARG,
              "G2 base at infinity");
    cuzk_gpu_fixed_base *x = NULL;
    cuzk_gpu_fixed_base_opts o;
    memset(&o, 0, sizeof o);
    o.window = 7;
    GPU_CHECK(cuzk_gpu_fixed_base_create(&x, 0, &o, &e) == CUZK_ERR_INVALID_ARG && !x,
              "window 7");
    o.window = 23;
    GPU_CHECK(cuzk_gpu_fixed_base_create(&x, 0, &o, &e) == CUZK_ERR_INVALID_ARG && !x,
              "window 23");
    o.window = 0;
    o.chunk = ((size_t)1 << 28) + 1;
    GPU_CHECK(cuzk_gpu_fixed_base_create(&x, 0, &o, &e) == CUZK_ERR_INVALID_ARG && !x,
              "chunk 2^28 + 1");
    o.chunk = 0;
    GPU_CHECK(cuzk_gpu_fixed_base_create(&x, 999, &o, &e) == CUZK_ERR_INVALID_ARG && !x,
              "device 999");
    GPU_CHECK(cuzk_gpu_fixed_base_create(NULL, 0, &o, &e) == CUZK_ERR_INVALID_ARG, "NULL out");
    const char *bad[] = {"abc", "0", "12Q", "4M5", "300M"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("CUZK_GPU_FIXED_BASE_CHUNK", bad[i], 1);
        GPU_CHECK(cuzk_gpu_fixed_base_create(&x, 0, NULL, &e) == CUZK_ERR_INVALID_ARG && !x,
                  "CUZK_GPU_FIXED_BASE_CHUNK=%s accepted", bad[i]);
    }
    const char *badw[] = {"7", "23", "x", "12x"};
    const char *keep = getenv("CUZK_GPU_FIXED_BASE_WINDOW");
    for (size_t i = 0; i < sizeof badw / sizeof badw[0]; i++) {
        setenv("CUZK_GPU_FIXED_BASE_WINDOW", badw[i], 1);
        GPU_CHECK(cuzk_gpu_fixed_base_create(&x, 0, NULL, &e) == CUZK_ERR_INVALID_ARG && !x,
                  "CUZK_GPU_FIXED_BASE_WINDOW=%s accepted", badw[i]);
    }
    if (keep)
        setenv("CUZK_GPU_FIXED_BASE_WINDOW", "8", 1);
    else
        unsetenv("CUZK_GPU_FIXED_BASE_WINDOW");
    setenv("CUZK_GPU_FIXED_BASE_CHUNK", "3K", 1);
    GPU_CHECK(cuzk_gpu_fixed_base_create(&x, 0, NULL, &e) == CUZK_OK && x,
              "CUZK_GPU_FIXED_BASE_CHUNK=3K: %s", e.msg);
    unsetenv("CUZK_GPU_FIXED_BASE_CHUNK");
    cuzk_gpu_fixed_base_destroy(x);
    cuzk_gpu_fixed_base_destroy(NULL);
    printf("%s errors (NULLs, infinity bases, windows, chunks, environment, devices)\n",
           gpu_test_failures_ == before ? "PASS" : "FAIL");
}

/* ---- a whole setup through the prover's hook -------------------------------------------- */

static bool keys_same(const cuzk_groth16_pk *a, const cuzk_groth16_pk *b)
{
#define SAME(x, y, n) ((n) == 0 || memcmp((x), (y), (n)) == 0)
    const cuzk_groth16_vk *x = &a->vk, *y = &b->vk;
    return a->flavour == b->flavour && a->log2n == b->log2n && x->n_ic == y->n_ic &&
           a->n_h == b->n_h && a->n_l == b->n_l && a->n_a == b->n_a &&
           a->n_b_g1 == b->n_b_g1 && a->n_b_g2 == b->n_b_g2 &&
           SAME(&x->alpha_g1, &y->alpha_g1, sizeof x->alpha_g1) &&
           SAME(&x->beta_g1, &y->beta_g1, sizeof x->beta_g1) &&
           SAME(&x->delta_g1, &y->delta_g1, sizeof x->delta_g1) &&
           SAME(&x->beta_g2, &y->beta_g2, sizeof x->beta_g2) &&
           SAME(&x->gamma_g2, &y->gamma_g2, sizeof x->gamma_g2) &&
           SAME(&x->delta_g2, &y->delta_g2, sizeof x->delta_g2) &&
           SAME(x->ic, y->ic, x->n_ic * sizeof *x->ic) && SAME(a->h, b->h, a->n_h * 96) &&
           SAME(a->l, b->l, a->n_l * 96) && SAME(a->a, b->a, a->n_a * 96) &&
           SAME(a->b_g1, b->b_g1, a->n_b_g1 * 96) && SAME(a->b_g2, b->b_g2, a->n_b_g2 * 192);
#undef SAME
}

static void log_line(void *ctx, const char *msg)
{
    (void)ctx;
    printf("  %s\n", msg);
}

static void whole_setup(void)
{
    cuzk_error e = {};
    cuzk_prover *gpu = NULL, *cpu = NULL;
    if (cuzk_prover_open(&gpu, "gpu:0", g_pool, &e) != CUZK_OK ||
        cuzk_prover_open(&cpu, "cpu", g_pool, &e) != CUZK_OK) {
        GPU_CHECK(false, "prover: %s", e.msg);
        return;
    }
    cuzk_groth16_fixed_base_hook *hook = NULL;
    GPU_CHECK(cuzk_prover_fixed_base_hook_open(cpu, &hook, &e) == CUZK_ERR_UNSUPPORTED && !hook,
              "a CPU prover gave a fixed-base hook");
    if (cuzk_prover_fixed_base_hook_open(gpu, &hook, &e) != CUZK_OK) {
        GPU_CHECK(false, "hook: %s", e.msg);
        cuzk_prover_close(gpu);
        cuzk_prover_close(cpu);
        return;
    }
    cuzk_synthetic syn;
    if (cuzk_synthetic_porep(&syn, g_setup_log2, test_rng_u64(), g_pool, &e) != CUZK_OK) {
        GPU_CHECK(false, "synthetic: %s", e.msg);
        return;
    }
    for (int fl = CUZK_GROTH16_BELLPERSON; fl <= CUZK_GROTH16_SNARKJS; fl++) {
        uint8_t seed[32];
        test_rng_bytes(seed, sizeof seed);
        cuzk_groth16_pk a, b;
        cuzk_groth16_setup_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.fixed_base = hook;
        opts.log = log_line;
        double t0 = now_s();
        cuzk_status sa = cuzk_groth16_setup_dev(&a, NULL, syn.r1cs,
                                                (cuzk_groth16_flavour)fl, seed, g_pool, &e);
        double t1 = now_s();
        GPU_CHECK(sa == CUZK_OK, "cpu setup: %s", e.msg);
        cuzk_status sb = cuzk_groth16_setup_dev_ex(&b, NULL, syn.r1cs, (cuzk_groth16_flavour)fl,
                                                   seed, g_pool, &opts, &e);
        double t2 = now_s();
        GPU_CHECK(sb == CUZK_OK, "gpu setup: %s", e.msg);
        bool same = sa == CUZK_OK && sb == CUZK_OK && keys_same(&a, &b);
        GPU_CHECK(same, "%s key: the GPU setup's bytes differ from the CPU's",
                  fl == CUZK_GROTH16_BELLPERSON ? "bellperson" : "snarkjs");
        printf("%s setup 2^%u %s key: GPU hook (%s) %.2f s, CPU %.2f s, %s\n",
               same ? "PASS" : "FAIL", g_setup_log2,
               fl == CUZK_GROTH16_BELLPERSON ? "bellperson" : "snarkjs",
               hook->name, t2 - t1, t1 - t0, same ? "byte-identical" : "DIFFERENT");
        if (sa == CUZK_OK)
            cuzk_groth16_pk_free(&a);
        if (sb == CUZK_OK)
            cuzk_groth16_pk_free(&b);
    }
    cuzk_synthetic_free(&syn);
    cuzk_prover_fixed_base_hook_close(hook);
    cuzk_prover_close(gpu);
    cuzk_prover_close(cpu);
}

int main(void)
{
    GPU_TEST_BEGIN("test_gpu_fixed_base");
    const char *cap = getenv("CUZK_GPU_TEST_MAX_LOG2");
    if (cap && *cap) {
        unsigned c = (unsigned)atoi(cap);
        g_small = true;
        g_setup_log2 = c >= 4 && c < 12 ? c : 12;
        setenv("CUZK_GPU_FIXED_BASE_WINDOW", "8", 1);
    }
    if (cuzk_pool_create(&g_pool, 0) != CUZK_OK) {
        printf("no pool\n");
        return 1;
    }
    cpu_ref gen, seven;
    cuzk_g1_affine b1;
    cuzk_g2_affine b2;
    {
        cuzk_fr s;
        cuzk_g1_jac j1;
        cuzk_g2_jac j2;
        cuzk_fr_from_u64(&s, 7);
        cuzk_g1_jac_from_affine(&j1, &CUZK_G1_GENERATOR);
        cuzk_g1_jac_mul_var(&j1, &j1, &s);
        cuzk_g1_jac_to_affine(&b1, &j1);
        cuzk_g2_jac_from_affine(&j2, &CUZK_G2_GENERATOR);
        cuzk_g2_jac_mul_var(&j2, &j2, &s);
        cuzk_g2_jac_to_affine(&b2, &j2);
    }
    ref_init(&gen, &CUZK_G1_GENERATOR, &CUZK_G2_GENERATOR);
    ref_init(&seven, &b1, &b2);

    /* the default context: 20-bit windows (8 when small), 2^22-point chunks (every size in
     * one chunk) */
    cuzk_gpu_fixed_base *fb = make(0, 0);
    const size_t sizes[] = {1, 2, 3, 17, 511, 513, 4099};
    run_context(fb, "default w", &gen, NULL, NULL, sizes, sizeof sizes / sizeof *sizes, 1500);
    /* another base, then the generator again (the table is rebuilt each time) */
    const size_t few[] = {5, 1000};
    run_context(fb, "default w, base 7G", &seven, &b1, &b2, few, 2, 1000);
    run_context(fb, "default w, generator again", &gen, &CUZK_G1_GENERATOR, &CUZK_G2_GENERATOR, few, 1,
                1000);
    errors(fb);
    cuzk_gpu_fixed_base_destroy(fb);

    /* small chunks: one, one + 1, two (both slots), three (a slot reused), five short */
    fb = make(1000, 8);
    const size_t chunked[] = {999, 1000, 1001, 2000, 2500, 4099};
    run_context(fb, "w8 chunk 1000", &gen, NULL, NULL, chunked, sizeof chunked / sizeof *chunked,
                2500);
    run_context(fb, "w8 chunk 1000 base 7G", &seven, &b1, &b2, few, 2, 1000);
    cuzk_gpu_fixed_base_destroy(fb);
    /* 1-point chunks: every point is its own chunk */
    fb = make(1, 0);
    const size_t ones[] = {1, 2, 7};
    run_context(fb, "default w, chunk 1", &gen, NULL, NULL, ones, 3, 7, !g_small);
    cuzk_gpu_fixed_base_destroy(fb);

    whole_setup();

    ref_free(&gen);
    ref_free(&seven);
    cuzk_pool_destroy(g_pool);
    printf("%s\n", gpu_test_failures_ ? "FAIL test_gpu_fixed_base" : "PASS test_gpu_fixed_base");
    GPU_TEST_END();
}
