/*
 * fixture.c — writes the files the CLI tests (tests/cli/cli_test.sh) run `cuzk` on, so
 * they need neither node nor circom: `cuzk_cli_fixture DIR` writes
 *   DIR/c.r1cs    a circom-layout .r1cs of tc_mixed (test_groth16_circuits.h): 3 public
 *                 inputs, a squaring chain, booleans, a C-only and a B-only variable
 *   DIR/w.wtns    a satisfying witness (snarkjs .wtns v2)
 *   DIR/bad.wtns  the same witness with its last value plus one: the last constraint
 *                 (y0 * b_only = yb, yb only in C) fails
 *   DIR/k.zkey    a snarkjs-layout Groth16 .zkey for the circuit from a development setup
 *                 (CUZK_GROTH16_SNARKJS; the layout test_zkey.c checks against the reader)
 *   DIR/vk.json   its verification_key.json (only in builds with JSON support)
 * The files are written by tests/support/snarkjs_writer.h and zkey_writer.h. The circuit's
 * constants and the setup's toxic waste come from the test RNG (seed printed,
 * CUZK_TEST_SEED replays). Bellperson keys are made by `cuzk setup` in the test itself.
 *
 * Exit 0 on success, 1 with a message otherwise. Single-threaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "snarkjs_writer.h"
#include "test_groth16_circuits.h"
#include "test_rng.h"
#include "zkey_writer.h"

static void die(const char *what)
{
    fprintf(stderr, "cuzk_cli_fixture: %s\n", what);
    exit(1);
}

static void save(const char *dir, const char *name, sw_buf *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->p, 1, b->n, f) != b->n || fclose(f) != 0)
        die(path);
    free(b->p);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        die("usage: cuzk_cli_fixture DIR");
    test_rng_init("cli_fixture");
    tc_circuit c;
    if (tc_mixed(&c, 3, 4, 8, test_rng_u64() & 0xffff) != 0)
        die("circuit");
    cuzk_error e;
    cuzk_witness wv = cuzk_witness_dense(c.w, c.r1cs->n_vars);
    if (cuzk_r1cs_check(c.r1cs, &wv, NULL, &e) != CUZK_OK)
        die(e.msg);
    uint8_t seed[32];
    test_rng_bytes(seed, sizeof seed);
    cuzk_groth16_pk pk;
    cuzk_groth16_vk vk;
    if (cuzk_groth16_setup_dev(&pk, &vk, c.r1cs, CUZK_GROTH16_SNARKJS, seed, NULL, &e) !=
        CUZK_OK)
        die(e.msg);
    sw_buf f = sw_r1cs_of(c.r1cs);
    save(argv[1], "c.r1cs", &f);
    f = sw_wtns_of(c.w, c.r1cs->n_vars);
    save(argv[1], "w.wtns", &f);
    cuzk_fr one = tc_u(1);
    cuzk_fr_add(&c.w[c.r1cs->n_vars - 1], &c.w[c.r1cs->n_vars - 1], &one);
    if (cuzk_r1cs_check(c.r1cs, &wv, NULL, &e) != CUZK_ERR_UNSATISFIED)
        die("the changed witness still satisfies the circuit");
    f = sw_wtns_of(c.w, c.r1cs->n_vars);
    save(argv[1], "bad.wtns", &f);
    f = zkey_write(&pk, c.r1cs);
    save(argv[1], "k.zkey", &f);
#ifdef CUZK_HAVE_JANSSON
    char *text;
    if (cuzk_groth16_vk_to_snarkjs_json(&text, &vk, &e) != CUZK_OK)
        die(e.msg);
    f = (sw_buf){(uint8_t *)text, strlen(text), 0};
    save(argv[1], "vk.json", &f);
#endif
    cuzk_groth16_pk_free(&pk);
    cuzk_groth16_vk_free(&vk);
    tc_free(&c);
    return 0;
}
