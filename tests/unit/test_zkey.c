/*
 * test_zkey.c — the snarkjs .zkey reader. A test-only writer (tests/support/zkey_writer.c)
 * serialises a development SNARKJS-flavour key (cuzk_groth16_setup_dev) into the .zkey
 * layout; reading it back must
 * give the same points and the circuit's A/B rows plus the input rows, and a proof made from
 * the read key must verify under the
 * original vk (an independent check of the whole path: a wrong matrix, coefficient form or
 * point would make the pairing equation fail). The read A/B come without C (c_absent) and
 * are never modified: a bad witness is caught by the prover's self-check, two threads can
 * prove on one key and one r1cs at once over a shared pool. Bad input: every truncation, wrong curve,
 * wrong protocol, off-curve and out-of-range data must be rejected with the right status.
 * Real snarkjs-made keys are covered by tests/interop/snarkjs.
 * Threading: single-threaded, except the concurrent-proofs test (two prover threads).
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "test_groth16_circuits.h"
#include "test_rng.h"
#include "zkey_writer.h"

/* ---- fixture ----------------------------------------------------------------------------- */

typedef struct fixture {
    tc_circuit c;
    cuzk_groth16_pk pk;
    cuzk_groth16_vk vk;
    sw_buf file;
} fixture;

static void make_fixture(fixture *fx, uint32_t n_pub, uint32_t k, uint32_t bits)
{
    memset(fx, 0, sizeof *fx);
    assert_int_equal(tc_mixed(&fx->c, n_pub, k, bits, test_rng_u64() & 0xffff), 0);
    uint8_t seed[32];
    test_rng_bytes(seed, sizeof seed);
    cuzk_error e;
    assert_int_equal(cuzk_groth16_setup_dev(&fx->pk, &fx->vk, fx->c.r1cs, CUZK_GROTH16_SNARKJS,
                                            seed, NULL, &e),
                     CUZK_OK);
    fx->file = zkey_write(&fx->pk, fx->c.r1cs);
}

static void free_fixture(fixture *fx)
{
    tc_free(&fx->c);
    cuzk_groth16_pk_free(&fx->pk);
    cuzk_groth16_vk_free(&fx->vk);
    free(fx->file.p);
}

/* Proves with the read key; want CUZK_OK: the proof verifies under the setup's vk.
 * Otherwise the prover's self-check must refuse the proof (and not write it). */
static void prove_and_verify(const cuzk_groth16_pk *pk, const cuzk_r1cs *ab, const cuzk_fr *w,
                             const cuzk_groth16_vk *vk, cuzk_status want)
{
    cuzk_error e;
    cuzk_witness wit = cuzk_witness_dense(w, ab->n_vars);
    size_t sz = cuzk_groth16_prove_scratch_size(pk, ab, 1);
    assert_true(sz > 0);
    void *scratch = malloc(sz);
    cuzk_groth16_proof proof, untouched;
    memset(&proof, 0xa5, sizeof proof);
    untouched = proof;
    cuzk_status st = cuzk_groth16_prove(&proof, pk, ab, &wit, scratch, sz, NULL, &e);
    free(scratch);
    if (want != CUZK_OK) {
        assert_int_equal(st, want);
        assert_string_equal(e.msg, "the proof does not verify: the witness does not satisfy "
                                   "the circuit");
        assert_memory_equal(&proof, &untouched, sizeof proof);
        return;
    }
    if (st != CUZK_OK)
        print_error("prove: %s\n", e.msg);
    assert_int_equal(st, CUZK_OK);
    cuzk_groth16_pvk pvk;
    assert_int_equal(cuzk_groth16_pvk_prepare(&pvk, vk), CUZK_OK);
    assert_int_equal(cuzk_groth16_verify(&pvk, w + 1, ab->n_public, &proof, &e), want);
}

/* ---- tests ------------------------------------------------------------------------------- */

static void test_roundtrip_and_prove(void **state)
{
    (void)state;
    size_t iters = test_iters(2);
    for (size_t it = 0; it < iters; it++) {
        fixture fx;
        make_fixture(&fx, 1 + (uint32_t)(it % 3), 3 + (uint32_t)it, 5);
        cuzk_groth16_pk pk;
        cuzk_r1cs *ab;
        cuzk_snarkjs_zkey_header h;
        cuzk_error e;
        cuzk_status st = cuzk_groth16_pk_from_snarkjs_zkey(&pk, &ab, &h, fx.file.p, fx.file.n,
                                                           CUZK_PARAMS_CHECKED, NULL, NULL,
                                                           NULL, &e);
        if (st != CUZK_OK)
            print_error("%s\n", e.msg);
        assert_int_equal(st, CUZK_OK);
        const cuzk_r1cs *r = fx.c.r1cs;
        assert_int_equal(h.protocol, 1);
        assert_int_equal(h.n_vars, r->n_vars);
        assert_int_equal(h.n_public, r->n_public);
        assert_int_equal(h.domain_size, 1u << fx.pk.log2n);
        assert_false(h.has_contributions);
        assert_int_equal(pk.flavour, CUZK_GROTH16_SNARKJS);
        assert_false(pk.append_input_rows);
        assert_true(cuzk_groth16_vk_eq(&pk.vk, &fx.pk.vk));
        pk.append_input_rows = true; /* the only field that differs by design */
        assert_true(cuzk_groth16_pk_eq(&pk, &fx.pk));
        pk.append_input_rows = false;

        /* A and B: the circuit's rows, then the input rows var_i * 0 */
        assert_int_equal(ab->n_constraints, r->n_constraints + r->n_public + 1);
        for (int m = 0; m < 2; m++)
            for (uint64_t i = 0; i < r->n_constraints; i++) {
                uint64_t k0 = r->m[m].row_ptr[i], k1 = r->m[m].row_ptr[i + 1];
                assert_int_equal(ab->m[m].row_ptr[i + 1] - ab->m[m].row_ptr[i], k1 - k0);
                for (uint64_t k = k0; k < k1; k++) {
                    uint64_t j = ab->m[m].row_ptr[i] + (k - k0);
                    assert_int_equal(ab->m[m].col[j], r->m[m].col[k]);
                    assert_true(cuzk_fr_eq(&ab->m[m].coeff[j], &r->m[m].coeff[k]));
                }
            }
        for (uint32_t v = 0; v <= r->n_public; v++) {
            uint64_t i = r->n_constraints + v;
            assert_int_equal(ab->m[0].row_ptr[i + 1] - ab->m[0].row_ptr[i], 1);
            assert_int_equal(ab->m[0].col[ab->m[0].row_ptr[i]], v);
            assert_true(cuzk_fr_is_one(&ab->m[0].coeff[ab->m[0].row_ptr[i]]));
            assert_int_equal(ab->m[1].row_ptr[i + 1] - ab->m[1].row_ptr[i], 0);
        }

        /* a proof from the read key verifies under the setup's vk; wrong input rejected */
        prove_and_verify(&pk, ab, fx.c.w, &fx.vk, CUZK_OK);
        cuzk_fr bad[64];
        memcpy(bad, fx.c.w, ab->n_vars * sizeof(cuzk_fr) < sizeof bad
                                ? ab->n_vars * sizeof(cuzk_fr) : sizeof bad);
        if (ab->n_vars <= 64) {
            cuzk_fr_add(&bad[1], &bad[1], &CUZK_FR_ONE); /* breaks the witness */
            prove_and_verify(&pk, ab, bad, &fx.vk, CUZK_ERR_INVALID_PROOF);
        }

        /* vk alone, and the header reader */
        cuzk_groth16_vk vk2;
        assert_int_equal(cuzk_groth16_vk_from_snarkjs_zkey(&vk2, fx.file.p, fx.file.n, &e),
                         CUZK_OK);
        assert_true(cuzk_groth16_vk_eq(&vk2, &fx.vk));
        cuzk_groth16_vk_free(&vk2);
        cuzk_snarkjs_zkey_header h2;
        assert_int_equal(cuzk_snarkjs_zkey_header_read(&h2, fx.file.p, fx.file.n, &e), CUZK_OK);
        assert_int_equal(h2.n_coeffs, h.n_coeffs);

        cuzk_groth16_pk_free(&pk);
        cuzk_r1cs_destroy(ab);
        free_fixture(&fx);
    }
}

/* The stored integer for coefficient 1 is R^2 mod r (R = 2^256), computed independently:
 *   python3 -c "r=0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001;
 *               print(hex(pow(2, 512, r)))"
 * This pins the writer (and so, through the round trip, the reader) to the definition. */
static void test_double_montgomery_constant(void **state)
{
    (void)state;
    static const uint64_t r2[4] = {0xc999e990f3f29c6dull, 0x2b6cedcb87925c23ull,
                                   0x05d314967254398full, 0x0748d9d99f59ff11ull};
    sw_buf b = {0};
    zkey_put_coef(&b, &CUZK_FR_ONE);
    assert_int_equal(b.n, 32);
    uint8_t want[32];
    for (int i = 0; i < 32; i++)
        want[i] = (uint8_t)(r2[i / 8] >> (8 * (i % 8)));
    assert_memory_equal(b.p, want, 32);
    free(b.p);
}

static cuzk_status parse(const uint8_t *p, size_t n, cuzk_params_trust trust)
{
    cuzk_groth16_pk pk;
    cuzk_r1cs *ab = NULL;
    cuzk_error e;
    cuzk_status st = cuzk_groth16_pk_from_snarkjs_zkey(&pk, &ab, NULL, p, n, trust, NULL, NULL,
                                                       NULL, &e);
    if (st == CUZK_OK) {
        cuzk_groth16_pk_free(&pk);
        cuzk_r1cs_destroy(ab);
    } else {
        assert_null(ab);
        assert_true(strlen(e.msg) > 0);
    }
    return st;
}

static void test_truncated_everywhere(void **state)
{
    (void)state;
    fixture fx;
    make_fixture(&fx, 1, 1, 1);
    for (size_t n = 0; n < fx.file.n; n++)
        assert_int_not_equal(parse(fx.file.p, n, CUZK_PARAMS_UNCHECKED), CUZK_OK);
    assert_int_equal(parse(fx.file.p, fx.file.n, CUZK_PARAMS_CHECKED), CUZK_OK);
    /* one trailing byte breaks the section table */
    uint8_t *p = malloc(fx.file.n + 1);
    memcpy(p, fx.file.p, fx.file.n);
    p[fx.file.n] = 0;
    assert_int_not_equal(parse(p, fx.file.n + 1, CUZK_PARAMS_CHECKED), CUZK_OK);
    free(p);
    free_fixture(&fx);
}

/* Offset of section id's body in a file written by zkey_write. */
static size_t body_of(const sw_buf *f, uint32_t id, uint64_t *size)
{
    size_t pos = 12;
    while (pos + 12 <= f->n) {
        uint32_t sid;
        uint64_t sz;
        memcpy(&sid, f->p + pos, 4);
        memcpy(&sz, f->p + pos + 4, 8);
        if (sid == id) {
            if (size)
                *size = sz;
            return pos + 12;
        }
        pos += 12 + sz;
    }
    fail();
    return 0;
}

static void test_corruptions(void **state)
{
    (void)state;
    fixture fx;
    make_fixture(&fx, 2, 2, 2);
    uint8_t *p = malloc(fx.file.n);
    size_t hdr = body_of(&fx.file, 2, NULL), coef = body_of(&fx.file, 4, NULL);
    size_t pts = hdr + 4 + 48 + 4 + 32 + 12;

#define RESET() memcpy(p, fx.file.p, fx.file.n)
    RESET();
    p[body_of(&fx.file, 1, NULL)] = 2; /* plonk */
    assert_int_equal(parse(p, fx.file.n, CUZK_PARAMS_CHECKED), CUZK_ERR_UNSUPPORTED);
    RESET();
    p[hdr + 4] ^= 1; /* q changed: another curve */
    assert_int_equal(parse(p, fx.file.n, CUZK_PARAMS_CHECKED), CUZK_ERR_UNSUPPORTED);
    RESET();
    p[hdr + 4 + 48 + 4 + 31] ^= 0x10; /* r changed */
    assert_int_equal(parse(p, fx.file.n, CUZK_PARAMS_CHECKED), CUZK_ERR_UNSUPPORTED);
    RESET();
    p[hdr + 4 + 48 + 4 + 32 + 8] ^= 3; /* domainSize no longer a power of two */
    assert_int_not_equal(parse(p, fx.file.n, CUZK_PARAMS_CHECKED), CUZK_OK);
    RESET();
    p[hdr + 4 + 48 + 4 + 32] += 1; /* nVars: section sizes no longer match */
    assert_int_equal(parse(p, fx.file.n, CUZK_PARAMS_CHECKED), CUZK_ERR_LENGTH);
    RESET();
    p[pts + 5] ^= 0x01; /* alpha1.x: off the curve (the vk part is always checked) */
    assert_int_not_equal(parse(p, fx.file.n, CUZK_PARAMS_UNCHECKED), CUZK_OK);
    RESET();
    p[body_of(&fx.file, 3, NULL) + 3] ^= 0x01; /* IC[0] */
    assert_int_not_equal(parse(p, fx.file.n, CUZK_PARAMS_UNCHECKED), CUZK_OK);
    RESET();
    /* vk points at infinity (all-zero coordinates): gamma2, delta2, IC[1] are refused, as in
     * the other verifying-key readers */
    size_t gamma2 = pts + 2 * CUZK_G1_UNCOMPRESSED_BYTES + CUZK_G2_UNCOMPRESSED_BYTES;
    memset(p + gamma2, 0, CUZK_G2_UNCOMPRESSED_BYTES);
    assert_int_equal(parse(p, fx.file.n, CUZK_PARAMS_UNCHECKED), CUZK_ERR_FORMAT);
    cuzk_groth16_vk vkx;
    cuzk_error ex;
    assert_int_equal(cuzk_groth16_vk_from_snarkjs_zkey(&vkx, p, fx.file.n, &ex), CUZK_ERR_FORMAT);
    assert_non_null(strstr(ex.msg, "gamma2"));
    RESET();
    size_t delta2 = gamma2 + CUZK_G2_UNCOMPRESSED_BYTES + CUZK_G1_UNCOMPRESSED_BYTES;
    memset(p + delta2, 0, CUZK_G2_UNCOMPRESSED_BYTES);
    assert_int_equal(cuzk_groth16_vk_from_snarkjs_zkey(&vkx, p, fx.file.n, &ex), CUZK_ERR_FORMAT);
    assert_non_null(strstr(ex.msg, "delta2"));
    RESET();
    memset(p + body_of(&fx.file, 3, NULL) + CUZK_G1_UNCOMPRESSED_BYTES, 0,
           CUZK_G1_UNCOMPRESSED_BYTES);
    assert_int_equal(cuzk_groth16_vk_from_snarkjs_zkey(&vkx, p, fx.file.n, &ex), CUZK_ERR_FORMAT);
    assert_non_null(strstr(ex.msg, "IC point 1"));
    RESET();
    /* an A point off the curve: caught unless fully trusted */
    size_t a0 = body_of(&fx.file, 5, NULL);
    p[a0 + 2] ^= 0x01;
    assert_int_equal(parse(p, fx.file.n, CUZK_PARAMS_CHECKED), CUZK_ERR_NOT_ON_CURVE);
    assert_int_equal(parse(p, fx.file.n, CUZK_PARAMS_TRUSTED_ONCURVE), CUZK_ERR_NOT_ON_CURVE);
    RESET();
    size_t b2 = body_of(&fx.file, 7, NULL);
    p[b2 + 100] ^= 0x01;
    assert_int_not_equal(parse(p, fx.file.n, CUZK_PARAMS_TRUSTED_ONCURVE), CUZK_OK);
    RESET();
    memset(p + a0 + 47, 0xff, 1); /* limb >= q */
    assert_int_not_equal(parse(p, fx.file.n, CUZK_PARAMS_UNCHECKED), CUZK_OK);
    RESET();
    p[coef + 4] = 2; /* matrix 2 */
    assert_int_equal(parse(p, fx.file.n, CUZK_PARAMS_CHECKED), CUZK_ERR_FORMAT);
    RESET();
    p[coef + 4 + 4 + 3] = 0x7f; /* constraint far outside the domain */
    assert_int_equal(parse(p, fx.file.n, CUZK_PARAMS_CHECKED), CUZK_ERR_FORMAT);
    RESET();
    p[coef + 4 + 8 + 3] = 0x7f; /* signal >= nVars */
    assert_int_equal(parse(p, fx.file.n, CUZK_PARAMS_CHECKED), CUZK_ERR_FORMAT);
    RESET();
    memset(p + coef + 4 + 12, 0xff, 32); /* coefficient >= r */
    assert_int_equal(parse(p, fx.file.n, CUZK_PARAMS_CHECKED), CUZK_ERR_NONCANONICAL);
    RESET();
    memcpy(p, "zkez", 4);
    assert_int_not_equal(parse(p, fx.file.n, CUZK_PARAMS_CHECKED), CUZK_OK);
    RESET();
    p[4] = 2; /* version */
    assert_int_equal(parse(p, fx.file.n, CUZK_PARAMS_CHECKED), CUZK_ERR_UNSUPPORTED);
#undef RESET

    /* random bit flips anywhere: an error or a key, never a crash */
    size_t iters = test_iters(300);
    for (size_t i = 0; i < iters; i++) {
        memcpy(p, fx.file.p, fx.file.n);
        size_t at = (size_t)(test_rng_u64() % fx.file.n);
        p[at] ^= (uint8_t)(1u << (test_rng_u64() % 8));
        (void)parse(p, fx.file.n, CUZK_PARAMS_TRUSTED_ONCURVE);
    }
    free(p);
    free_fixture(&fx);
}

/* The A/B of a .zkey have no C: flagged, refused by the check, accepted by the prover;
 * bad witnesses are reported precisely; the r1cs is never modified by proving. */
static void test_no_c_matrix(void **state)
{
    (void)state;
    fixture fx;
    make_fixture(&fx, 1, 1, 1);
    cuzk_groth16_pk pk;
    cuzk_r1cs *ab;
    cuzk_error e;
    assert_int_equal(cuzk_groth16_pk_from_snarkjs_zkey(&pk, &ab, NULL, fx.file.p, fx.file.n,
                                                       CUZK_PARAMS_CHECKED, NULL, NULL, NULL,
                                                       &e),
                     CUZK_OK);
    assert_true(ab->c_absent);
    assert_int_equal(ab->m[CUZK_R1CS_C].nnz, 0);
    assert_int_equal(ab->density_count[CUZK_R1CS_C], 0);
    cuzk_witness w = cuzk_witness_dense(fx.c.w, ab->n_vars);
    assert_int_equal(cuzk_r1cs_check(ab, &w, NULL, &e), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(e.msg, "no C matrix"));
    /* the circuit's own r1cs does name the constraint */
    assert_int_equal(cuzk_r1cs_check(fx.c.r1cs, &w, NULL, &e), CUZK_OK);

    size_t sz = cuzk_groth16_prove_scratch_size(&pk, ab, 1);
    void *scratch = malloc(sz);
    assert_non_null(scratch);
    cuzk_groth16_proof proof;
    /* witness of the wrong length, ONE that is not 1 */
    cuzk_witness shortw = cuzk_witness_dense(fx.c.w, ab->n_vars - 1);
    assert_int_equal(cuzk_groth16_prove(&proof, &pk, ab, &shortw, scratch, sz, NULL, &e),
                     CUZK_ERR_INVALID_ARG);
    cuzk_fr save = fx.c.w[0];
    fx.c.w[0] = CUZK_FR_ZERO;
    assert_int_equal(cuzk_groth16_prove(&proof, &pk, ab, &w, scratch, sz, NULL, &e),
                     CUZK_ERR_FORMAT);
    fx.c.w[0] = save;
    /* a bad witness: the self-check names the constraint when the .r1cs is given */
    uint64_t before_nnz[3];
    for (int m = 0; m < 3; m++)
        before_nnz[m] = ab->m[m].nnz;
    uint32_t last = ab->n_vars - 1;
    cuzk_fr_add(&fx.c.w[last], &fx.c.w[last], &CUZK_FR_ONE);
    assert_int_equal(cuzk_groth16_prove(&proof, &pk, ab, &w, scratch, sz, NULL, &e),
                     CUZK_ERR_INVALID_PROOF);
    assert_non_null(strstr(e.msg, "the witness does not satisfy the circuit"));
    /* what the GPU backend / CLI do with the circuit at hand: prove_start, finalize, then
     * the self-check with the .r1cs, which names the lowest failing constraint */
    cuzk_groth16_prover_state ps;
    cuzk_fr r = tc_u(5), s = tc_u(7);
    assert_int_equal(cuzk_groth16_prove_start(&ps, &pk, ab, &w, scratch, sz, NULL, &e), CUZK_OK);
    assert_int_equal(cuzk_groth16_prove_finalize(&ps, &r, &s, &proof, &e), CUZK_OK);
    uint64_t want_row;
    assert_int_equal(cuzk_r1cs_check(fx.c.r1cs, &w, &want_row, &e), CUZK_ERR_UNSATISFIED);
    assert_int_equal(cuzk_groth16_proof_selfcheck(&pk, NULL, fx.c.r1cs, &w, &proof, NULL, &e),
                     CUZK_ERR_UNSATISFIED);
    char needle[48];
    snprintf(needle, sizeof needle, "constraint %llu unsatisfied", (unsigned long long)want_row);
    assert_string_equal(e.msg, needle);
    /* without the .r1cs, the .zkey's A/B are not enough to name it */
    assert_int_equal(cuzk_groth16_proof_selfcheck(&pk, NULL, ab, &w, &proof, NULL, &e),
                     CUZK_ERR_INVALID_PROOF);
    cuzk_fr_sub(&fx.c.w[last], &fx.c.w[last], &CUZK_FR_ONE);
    assert_true(ab->c_absent);
    for (int m = 0; m < 3; m++)
        assert_int_equal(ab->m[m].nnz, before_nnz[m]);
    free(scratch);
    cuzk_groth16_pk_free(&pk);
    cuzk_r1cs_destroy(ab);
    free_fixture(&fx);
}

/* Two threads prove at once on one key, one (immutable) r1cs and one shared pool, with
 * different witnesses (different public inputs); both proofs must verify. Before, binding
 * a witness rewrote the r1cs's C and a shared pool ran the second caller single-threaded. */
typedef struct job {
    const cuzk_groth16_pk *pk;
    const cuzk_r1cs *ab;
    cuzk_witness w;
    cuzk_pool *pool;
    cuzk_groth16_proof proof;
    cuzk_status st;
    cuzk_error e;
} job;

static void *prove_job(void *arg)
{
    job *j = arg;
    for (int rep = 0; rep < 3 && j->st == CUZK_OK; rep++) {
        size_t sz = cuzk_groth16_prove_scratch_size(j->pk, j->ab, cuzk_pool_nthreads(j->pool));
        void *scratch = malloc(sz);
        j->st = scratch ? cuzk_groth16_prove(&j->proof, j->pk, j->ab, &j->w, scratch, sz,
                                             j->pool, &j->e)
                        : CUZK_ERR_NOMEM;
        free(scratch);
    }
    return NULL;
}

static void test_concurrent_proofs(void **state)
{
    (void)state;
    fixture fx;
    make_fixture(&fx, 2, 4, 40);
    /* the same circuit shape with other public inputs: tc_mixed with another seed */
    tc_circuit other;
    assert_int_equal(tc_mixed(&other, 2, 4, 40, test_rng_u64() & 0xffff), 0);
    cuzk_groth16_pk pk;
    cuzk_r1cs *ab;
    cuzk_error e;
    assert_int_equal(cuzk_groth16_pk_from_snarkjs_zkey(&pk, &ab, NULL, fx.file.p,
                                                       fx.file.n, CUZK_PARAMS_CHECKED,
                                                       NULL, NULL, NULL, &e),
                     CUZK_OK);
    assert_int_equal(other.r1cs->n_vars, ab->n_vars);
    cuzk_pool *pool;
    assert_int_equal(cuzk_pool_create(&pool, 4), CUZK_OK);
    job jobs[2] = {{.pk = &pk, .ab = ab, .w = cuzk_witness_dense(fx.c.w, ab->n_vars),
                    .pool = pool},
                   {.pk = &pk, .ab = ab, .w = cuzk_witness_dense(other.w, ab->n_vars),
                    .pool = pool}};
    pthread_t th[2];
    for (int k = 0; k < 2; k++)
        assert_int_equal(pthread_create(&th[k], NULL, prove_job, &jobs[k]), 0);
    for (int k = 0; k < 2; k++)
        assert_int_equal(pthread_join(th[k], NULL), 0);
    cuzk_groth16_pvk pvk;
    assert_int_equal(cuzk_groth16_pvk_prepare(&pvk, &fx.vk), CUZK_OK);
    for (int k = 0; k < 2; k++) {
        if (jobs[k].st != CUZK_OK)
            print_error("job %d: %s\n", k, jobs[k].e.msg);
        assert_int_equal(jobs[k].st, CUZK_OK);
        assert_int_equal(cuzk_groth16_verify(&pvk, jobs[k].w.values + 1, ab->n_public,
                                             &jobs[k].proof, &e),
                         CUZK_OK);
    }
    cuzk_pool_destroy(pool);
    tc_free(&other);
    cuzk_groth16_pk_free(&pk);
    cuzk_r1cs_destroy(ab);
    free_fixture(&fx);
}

int main(void)
{
    test_rng_init("zkey");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip_and_prove),
        cmocka_unit_test(test_double_montgomery_constant),
        cmocka_unit_test(test_truncated_everywhere),
        cmocka_unit_test(test_corruptions),
        cmocka_unit_test(test_no_c_matrix),
        cmocka_unit_test(test_concurrent_proofs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
