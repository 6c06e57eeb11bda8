/*
 * test_fil_plan.c — the memory plan of the Filecoin kinds (cuzk/plan.h) and the engine's
 * admission with it:
 *   - the counts table against the counting backend: every kind at 2 KiB and 8 MiB, every
 *     PoSt size (a PoSt partition's sectors are identical blocks: 1, 2 and 3 sectors are
 *     counted, the counts checked affine and extended, as `cuzk inspect circuit` does);
 *   - the large sizes against what is cheap: the 32 GiB PoRep key of issue 20 (2^27 h,
 *     130,169,893 l, 129,753,620 a, ~33.1 M b; ~44.1 GiB as affine points), domains,
 *     PoRep's and PoSt's input counts, cuzk/post.h's rows per sector;
 *   - the memory formulas: the key as engine_pk_bytes charges it, the CPU prover's scratch
 *     from sizes equal to the one from a real key;
 *   - plans: on a 128 GiB host (the issue's budget, 123,749 MiB) with one 141 GiB GPU every
 *     kind and size fits; a small budget or a small card does not, with what is short; the
 *     smaller cards of docs/perf.md's rehearsals are planned as the backend ran them;
 *   - the engine admits by the same numbers (cuzk_engine_admission_check: a 128 GiB budget
 *     is only a number, nothing is allocated), and refuses with what is short.
 * Single-threaded (the engines are created idle).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cuzk/circuits.h"
#include "cuzk/plan.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "cuzk/snap.h"
#include "engine/engine_testing.h"

#define GIB (1ull << 30)
#define MIB (1ull << 20)
/* The budget the engine computed on the issue's 128 GiB host (MemTotal - 5 GiB). */
#define ISSUE_BUDGET (123749ull * MIB)

static const cuzk_proof_kind k_kinds[] = {CUZK_PROOF_POREP_SEAL_COMMIT,
                                          CUZK_PROOF_WINDOW_POST_PARTITION,
                                          CUZK_PROOF_WINNING_POST, CUZK_PROOF_SNAP_DEALS_UPDATE};
static const uint64_t k_sizes[] = {2048ull, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};

static void assert_row(const cuzk_fil_counts *t, const cuzk_circuit_counts *c)
{
    assert_int_equal(t->constraints, c->n_constraints);
    assert_int_equal(t->inputs, c->n_public + 1);
    assert_int_equal(t->aux, c->n_aux);
    for (int m = 0; m < 3; m++)
        assert_int_equal(t->nnz[m], c->nnz[m]);
    assert_int_equal(t->a_aux, c->a_aux_density);
    assert_int_equal(t->b_inputs, c->b_input_density);
    assert_int_equal(t->b_aux, c->b_aux_density);
    assert_int_equal(t->bits, c->n_bits);
    assert_int_equal(t->coeffs, c->n_coeff_values);
}

static void count_post(cuzk_post_kind k, uint64_t size, cuzk_circuit_counts *out)
{
    cuzk_post_info in;
    assert_int_equal(cuzk_post_info_get(k, size, &in, NULL), CUZK_OK);
    if (in.sectors <= 3) {
        assert_int_equal(cuzk_post_circuit_counts(k, size, 0, 0, out, NULL), CUZK_OK);
        return;
    }
    cuzk_circuit_counts c[3];
    for (uint32_t s = 0; s < 3; s++)
        assert_int_equal(cuzk_post_circuit_counts(k, size, s + 1, 0, &c[s], NULL), CUZK_OK);
    const uint64_t *f0 = (const uint64_t *)&c[0], *f1 = (const uint64_t *)&c[1],
                   *f2 = (const uint64_t *)&c[2];
    uint64_t *o = (uint64_t *)out;
    for (size_t i = 0; i < sizeof *out / sizeof(uint64_t); i++) {
        assert_int_equal(f2[i] - f1[i], f1[i] - f0[i]);
        o[i] = f0[i] + (uint64_t)(in.sectors - 1) * (f1[i] - f0[i]);
    }
}

static void test_counts_small(void **state)
{
    (void)state;
    for (int s = 0; s < 2; s++) {
        cuzk_circuit_counts c;
        cuzk_porep_circuit *pc = NULL;
        assert_int_equal(cuzk_porep_circuit_placeholder(k_sizes[s], &pc, NULL), CUZK_OK);
        assert_int_equal(cuzk_circuit_count(cuzk_porep_circuit_synthesize, pc, &c, NULL), CUZK_OK);
        cuzk_porep_circuit_free(pc);
        assert_row(cuzk_fil_counts_get(CUZK_PROOF_POREP_SEAL_COMMIT, k_sizes[s]), &c);
        assert_int_equal(cuzk_snap_circuit_counts(k_sizes[s], CUZK_SNAP_MAIN, &c, NULL), CUZK_OK);
        assert_row(cuzk_fil_counts_get(CUZK_PROOF_SNAP_DEALS_UPDATE, k_sizes[s]), &c);
    }
    for (int s = 0; s < 5; s++) {
        cuzk_circuit_counts c;
        count_post(CUZK_POST_WINDOW, k_sizes[s], &c);
        assert_row(cuzk_fil_counts_get(CUZK_PROOF_WINDOW_POST_PARTITION, k_sizes[s]), &c);
        count_post(CUZK_POST_WINNING, k_sizes[s], &c);
        assert_row(cuzk_fil_counts_get(CUZK_PROOF_WINNING_POST, k_sizes[s]), &c);
    }
}

static void test_counts_large(void **state)
{
    (void)state;
    unsigned n = 0;
    const cuzk_fil_counts *t = cuzk_fil_counts_table(&n);
    assert_int_equal(n, 20);
    for (unsigned i = 0; i < n; i++) {
        /* one row per kind and size, in that order; domains: rows with inputs, rounded up */
        assert_int_equal(t[i].kind, k_kinds[i / 5]);
        assert_int_equal(t[i].sector_size, k_sizes[i % 5]);
        assert_ptr_equal(cuzk_fil_counts_get(t[i].kind, t[i].sector_size), &t[i]);
        uint64_t rows = t[i].constraints + t[i].inputs;
        assert_true((1ull << t[i].log2n) >= rows && (1ull << (t[i].log2n - 1)) < rows);
        assert_true(t[i].bits <= t[i].aux && t[i].a_aux <= t[i].aux && t[i].b_aux <= t[i].aux);
        assert_int_equal(t[i].b_inputs, 1); /* ONE only, in every Filecoin circuit */
        uint64_t s = t[i].sector_size;
        if (t[i].kind == CUZK_PROOF_POREP_SEAL_COMMIT) {
            cuzk_porep_shape sh;
            assert_int_equal(cuzk_porep_shape_for_size(s, &sh, NULL), CUZK_OK);
            assert_int_equal(t[i].inputs, 1 + cuzk_porep_public_input_count(&sh));
        } else if (t[i].kind == CUZK_PROOF_SNAP_DEALS_UPDATE) {
            assert_int_equal(t[i].inputs, 5);
        } else {
            /* cuzk/post.h: 313 + challenges (path + 2) rows a sector, the path 530 rows a
             * level of arity 8, 314 for 64 GiB's top level of arity 2 */
            cuzk_post_info in;
            assert_int_equal(cuzk_post_info_get(t[i].kind == CUZK_PROOF_WINNING_POST
                                                    ? CUZK_POST_WINNING : CUZK_POST_WINDOW,
                                                s, &in, NULL), CUZK_OK);
            uint64_t path = cuzk_post_info_levels(&in) * 530ull - (in.top_arity == 2 ? 216 : 0);
            uint64_t per = 313 + (uint64_t)in.challenges * (path + 2);
            assert_int_equal(t[i].constraints, in.sectors * per);
            assert_int_equal(t[i].inputs, cuzk_post_info_n_inputs(&in) + 1);
        }
    }
    /* issue 20's 32 GiB PoRep key */
    const cuzk_fil_counts *p = cuzk_fil_counts_get(CUZK_PROOF_POREP_SEAL_COMMIT, 32ull << 30);
    uint64_t n_h, n_l, n_a, n_b;
    cuzk_fil_counts_key(p, &n_h, &n_l, &n_a, &n_b);
    assert_int_equal(p->log2n, 27);
    assert_int_equal(n_h, (1ull << 27) - 1);
    assert_int_equal(n_l, 130169893);
    assert_int_equal(n_a, 129753620);
    assert_true(n_b > 33000000 && n_b < 33200000);
    double pts = ((double)(n_h + n_l + n_a + n_b) * 96 + (double)n_b * 192) / GIB;
    assert_true(pts > 44.0 && pts < 44.2);
    assert_null(cuzk_fil_counts_get(CUZK_PROOF_GROTH16, 2048));
    assert_null(cuzk_fil_counts_get(CUZK_PROOF_POREP_SEAL_COMMIT, 4096));
}

static void test_memory(void **state)
{
    (void)state;
    cuzk_fil_memory m;
    cuzk_error e = {0};
    assert_int_equal(cuzk_fil_memory_get(CUZK_PROOF_POREP_SEAL_COMMIT, 32ull << 30, 16, &m, &e),
                     CUZK_OK);
    /* the key as engine_pk_bytes charges it: vectors, ic, the struct */
    uint64_t pts = ((1ull << 27) - 1 + 130169893 + 129753620 + 33112282) * 96 + 33112282 * 192ull;
    assert_true(m.key_host >= pts + 328 * 96 && m.key_host < pts + 328 * 96 + 4096);
    /* the mapped circuit: row pointers, 4-byte columns and coefficient indices, density
     * bitmaps, the table, the witness map: ~9 GB (issue 20) */
    uint64_t nnz = 309404723ull + 130327340 + 282656500, words = (130170221 + 63) / 64;
    uint64_t csr = 3 * (130278541 + 1) * 8ull + nnz * 8 + 3 * words * 8 + 2466 * 32;
    assert_true(m.circuit_host >= csr + words * 12 && m.circuit_host < csr + words * 12 + 8192);
    assert_int_equal(m.circuit_recorded - m.circuit_host, nnz * 28 - 2466 * 32);
    /* the compact witness: ~70 MB (the bits' bitmap, 1.7 M dense values) */
    assert_true(m.witness > 60 * MIB && m.witness < 75 * MIB);
    assert_true(m.partition_host_gpu < 80 * MIB);
    assert_true(m.partition_host_cpu > m.partition_host_gpu + 130170221ull * 32);
    assert_int_equal(m.device.key, pts);
    assert_int_equal(cuzk_fil_memory_get(CUZK_PROOF_POREP_SEAL_COMMIT, 4096, 1, &m, &e),
                     CUZK_ERR_UNSUPPORTED);
}

/* cuzk_groth16_prove_scratch_size_for (a key's sizes) = cuzk_groth16_prove_scratch_size
 * (a real key and circuit). */
static void test_cpu_scratch(void **state)
{
    (void)state;
    cuzk_synthetic syn;
    cuzk_groth16_pk pk;
    assert_int_equal(cuzk_synthetic_porep(&syn, 10, 1, NULL, NULL), CUZK_OK);
    assert_int_equal(cuzk_groth16_pk_random(&pk, syn.r1cs, CUZK_GROTH16_BELLPERSON, 7, NULL, NULL),
                     CUZK_OK);
    for (size_t t = 1; t <= 16; t *= 4) {
        cuzk_groth16_pk sizes;
        memset(&sizes, 0, sizeof sizes);
        sizes.flavour = pk.flavour;
        sizes.log2n = pk.log2n;
        sizes.n_h = pk.n_h;
        sizes.n_l = pk.n_l;
        sizes.n_a = pk.n_a;
        sizes.n_b_g1 = pk.n_b_g1;
        sizes.n_b_g2 = pk.n_b_g2;
        assert_int_equal(cuzk_groth16_prove_scratch_size_for(&sizes, t),
                         cuzk_groth16_prove_scratch_size(&pk, syn.r1cs, t));
    }
    cuzk_groth16_pk_free(&pk);
    cuzk_synthetic_free(&syn);
}

static cuzk_plan_machine h200_host(void)
{
    cuzk_plan_machine m;
    memset(&m, 0, sizeof m);
    m.budget = ISSUE_BUDGET;
    m.gpu = true;
    m.device_memory = 141 * GIB;
    m.cpu_threads = 16;
    return m;
}

static void test_plan_fits(void **state)
{
    (void)state;
    cuzk_plan_machine m = h200_host();
    for (int k = 0; k < 4; k++)
        for (int s = 0; s < 5; s++) {
            cuzk_plan p;
            cuzk_error e = {0};
            assert_int_equal(cuzk_plan_make(k_kinds[k], k_sizes[s], &m, &p, &e), CUZK_OK);
            if (!p.fits)
                fail_msg("%s %llu does not fit: %s", cuzk_proof_kind_name(k_kinds[k]),
                         (unsigned long long)k_sizes[s], p.reason);
            assert_true(p.partitions_in_flight >= 1);
            assert_true(p.key_host_bytes + p.circuit_host_bytes +
                            p.partitions_in_flight * p.partition_host_bytes <= p.budget);
        }
    /* 32 GiB PoRep: eight partitions in flight (2 synthesizing, 2 waiting for the device,
     * 2 on it, 2 finalizing: the engine's default stages); on the H200 key and circuit stay resident
     * next to two working sets (docs/perf.md: 75.5 GiB used with one) */
    cuzk_plan p;
    assert_int_equal(cuzk_plan_make(CUZK_PROOF_POREP_SEAL_COMMIT, 32ull << 30, &m, &p, NULL),
                     CUZK_OK);
    assert_int_equal(p.partitions, 10);
    assert_int_equal(p.partitions_in_flight, 8);
    assert_false(p.key_streamed);
    assert_false(p.circuit_streamed);
    assert_int_equal(p.device_working_sets, 2);
    /* the engine's own rule from RAM: 128 GiB less the 5 GiB margin, less the GPU's pinned
     * staging (an eighth of RAM, at most 12 GiB) */
    m.budget = 0;
    m.memory = 128 * GIB;
    assert_int_equal(cuzk_plan_make(CUZK_PROOF_POREP_SEAL_COMMIT, 64ull << 30, &m, &p, NULL),
                     CUZK_OK);
    assert_int_equal(p.stage_host_bytes, 12 * GIB);
    assert_int_equal(p.budget, 111 * GIB);
    assert_true(p.fits);
    m.memory = 64 * GIB;
    assert_int_equal(cuzk_plan_make(CUZK_PROOF_POREP_SEAL_COMMIT, 2048, &m, &p, NULL), CUZK_OK);
    assert_int_equal(p.stage_host_bytes, 8 * GIB);
    assert_int_equal(p.budget, 51 * GIB);
    /* staging more than half the budget: the engine would not start */
    m.memory = 128 * GIB;
    m.budget = 20 * GIB;
    assert_int_equal(cuzk_plan_make(CUZK_PROOF_POREP_SEAL_COMMIT, 2048, &m, &p, NULL), CUZK_OK);
    assert_false(p.host_fits);
    assert_false(p.fits);
    assert_non_null(strstr(p.reason, "pinned staging (12.00 GiB)"));
    m.budget = 0;
    /* on the CPU the partition holds its dense witness and the prover's scratch */
    m.gpu = false;
    assert_int_equal(cuzk_plan_make(CUZK_PROOF_POREP_SEAL_COMMIT, 32ull << 30, &m, &p, NULL),
                     CUZK_OK);
    assert_true(p.fits);
    assert_true(p.partition_host_bytes > 20 * GIB);
    assert_int_equal(p.partition_device_bytes, 0);
}

static void test_plan_short(void **state)
{
    (void)state;
    cuzk_plan_machine m = h200_host();
    cuzk_plan p;
    m.budget = 40 * GIB;
    assert_int_equal(cuzk_plan_make(CUZK_PROOF_POREP_SEAL_COMMIT, 32ull << 30, &m, &p, NULL),
                     CUZK_OK);
    assert_false(p.fits);
    assert_false(p.host_fits);
    assert_int_equal(p.partitions_in_flight, 0);
    /* 40 GiB less 5 GiB of staging (an eighth of it: the plan knows no RAM here) */
    assert_int_equal(p.stage_host_bytes, 5 * GIB);
    assert_non_null(strstr(p.reason, "memory budget is 35.00 GiB"));
    assert_non_null(strstr(p.reason, "short"));
    /* without a CSR cache the circuit is held as recorded: 32-byte coefficients */
    m = h200_host();
    m.no_csr_cache = true;
    assert_int_equal(cuzk_plan_make(CUZK_PROOF_POREP_SEAL_COMMIT, 32ull << 30, &m, &p, NULL),
                     CUZK_OK);
    assert_int_equal(p.circuit_host_bytes, p.mem.circuit_recorded);
    /* a 16 GiB card: even the working set at the narrowest windows does not fit */
    m = h200_host();
    m.device_memory = 16 * GIB;
    assert_int_equal(cuzk_plan_make(CUZK_PROOF_POREP_SEAL_COMMIT, 32ull << 30, &m, &p, NULL),
                     CUZK_OK);
    assert_true(p.host_fits);
    assert_false(p.device_fits);
    assert_false(p.fits);
    assert_non_null(strstr(p.reason, "device"));
    assert_non_null(strstr(p.reason, "short"));
    /* bad machines */
    memset(&m, 0, sizeof m);
    assert_int_equal(cuzk_plan_make(CUZK_PROOF_POREP_SEAL_COMMIT, 2048, &m, &p, NULL),
                     CUZK_ERR_INVALID_ARG);
    m.memory = 8 * GIB;
    m.gpu = true;
    assert_int_equal(cuzk_plan_make(CUZK_PROOF_POREP_SEAL_COMMIT, 2048, &m, &p, NULL),
                     CUZK_ERR_INVALID_ARG);
    m.gpu = false;
    assert_int_equal(cuzk_plan_make(CUZK_PROOF_POREP_SEAL_COMMIT, 1000, &m, &p, NULL),
                     CUZK_ERR_UNSUPPORTED);
}

/* The smaller cards the backend was run on at 2^27 (docs/perf.md, sessions 9 and 10,
 * CUZK_GPU_MEM_LIMIT on the H200; the synthetic circuit, a little smaller than PoRep's):
 * 48 GB: key streamed, circuit resident; 32 GB: both streamed, default windows; 24 GB: both
 * streamed, windows capped (21 bits measured). */
static void test_plan_small_cards(void **state)
{
    (void)state;
    cuzk_plan_machine m = h200_host();
    cuzk_plan p;
    m.device_memory = 48 * GIB;
    assert_int_equal(cuzk_plan_make(CUZK_PROOF_POREP_SEAL_COMMIT, 32ull << 30, &m, &p, NULL),
                     CUZK_OK);
    assert_true(p.fits);
    assert_true(p.key_streamed);
    assert_false(p.circuit_streamed);
    m.device_memory = 32 * GIB;
    assert_int_equal(cuzk_plan_make(CUZK_PROOF_POREP_SEAL_COMMIT, 32ull << 30, &m, &p, NULL),
                     CUZK_OK);
    assert_true(p.fits);
    assert_true(p.key_streamed && p.circuit_streamed);
    assert_null(strstr(p.reason, "capped"));
    m.device_memory = 24 * GIB;
    assert_int_equal(cuzk_plan_make(CUZK_PROOF_POREP_SEAL_COMMIT, 32ull << 30, &m, &p, NULL),
                     CUZK_OK);
    assert_true(p.fits);
    assert_non_null(strstr(p.reason, "capped"));
}

static cuzk_engine *engine(uint64_t budget)
{
    cuzk_engine_config c;
    cuzk_engine_config_default(&c);
    c.devices = "cpu";
    c.threads = 2;
    c.memory_budget = budget;
    c.csr_cache_dir = "/nonexistent-cuzk-test"; /* circuits would be mapped from a cache */
    c.log_level = CUZK_LOG_ERROR;
    cuzk_engine *e = NULL;
    cuzk_error err = {0};
    if (cuzk_engine_create(&e, &c, &err) != CUZK_OK)
        fail_msg("engine: %s", err.msg);
    return e;
}

/* The engine admits every kind and size on the issue's 128 GiB host, by the plan's numbers
 * (nothing is loaded: the budget is a number), on a GPU and on the CPU. */
static void test_engine_admits(void **state)
{
    (void)state;
    cuzk_engine *e = engine(ISSUE_BUDGET);
    char why[256];
    for (int k = 0; k < 4; k++)
        for (int s = 0; s < 5; s++)
            for (int gpu = 0; gpu < 2; gpu++) {
                cuzk_plan_machine m = h200_host();
                m.gpu = gpu;
                m.cpu_threads = 2;
                cuzk_plan p;
                assert_int_equal(cuzk_plan_make(k_kinds[k], k_sizes[s], &m, &p, NULL), CUZK_OK);
                bool ok = cuzk_engine_admission_check(e, k_kinds[k], k_sizes[s], gpu, why,
                                                      sizeof why);
                if (!ok)
                    fail_msg("refused: %s", why);
                assert_true(p.host_fits);
            }
    assert_true(cuzk_engine_admission_check(e, CUZK_PROOF_POREP_SEAL_COMMIT, 32ull << 30, 1,
                                            why, sizeof why));
    print_message("%s\n", why);
    cuzk_engine_destroy(e);
}

/* Under a 40 GiB budget the engine refuses a 32 GiB PoRep with what is short, and its
 * verdict agrees with the plan's for every kind and size. */
static void test_engine_refuses(void **state)
{
    (void)state;
    cuzk_engine *e = engine(40 * GIB);
    char why[256];
    assert_false(cuzk_engine_admission_check(e, CUZK_PROOF_POREP_SEAL_COMMIT, 32ull << 30, 1,
                                             why, sizeof why));
    print_message("%s\n", why);
    assert_non_null(strstr(why, "porep-32g"));
    assert_non_null(strstr(why, "short"));
    for (int k = 0; k < 4; k++)
        for (int s = 0; s < 5; s++) {
            /* a GPU plan whose budget is the CPU engine's 40 GiB once its 12 GiB of
             * staging are off */
            cuzk_plan_machine m = h200_host();
            m.memory = 128 * GIB;
            m.budget = 52 * GIB;
            m.cpu_threads = 2;
            cuzk_plan p;
            assert_int_equal(cuzk_plan_make(k_kinds[k], k_sizes[s], &m, &p, NULL), CUZK_OK);
            assert_int_equal(cuzk_engine_admission_check(e, k_kinds[k], k_sizes[s], 1, why,
                                                         sizeof why),
                             p.host_fits);
        }
    assert_false(cuzk_engine_admission_check(e, CUZK_PROOF_GROTH16, 2048, 1, why, sizeof why));
    cuzk_engine_destroy(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_small),    cmocka_unit_test(test_counts_large),
        cmocka_unit_test(test_memory),          cmocka_unit_test(test_cpu_scratch),
        cmocka_unit_test(test_plan_fits),       cmocka_unit_test(test_plan_short),
        cmocka_unit_test(test_plan_small_cards), cmocka_unit_test(test_engine_admits),
        cmocka_unit_test(test_engine_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
