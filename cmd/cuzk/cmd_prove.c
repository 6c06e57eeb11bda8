/*
 * cmd_prove.c — `cuzk prove`, two forms:
 *   snarkjs:    --zkey K.zkey --wtns W.wtns --proof proof.json --public public.json
 *   bellperson: --params P.params --r1cs C.r1cs --wtns W.wtns --out proof.bin
 *               [--public public.json]
 * plus --threads N (default: all CPUs) and --check-key (verify every key point is in its
 * subgroup; by default the big vectors are only checked to be on the curve, as bellperson
 * does, while the verifying-key part is always fully checked).
 *
 * snarkjs form: the .zkey carries everything the prover needs (its section 4 holds A and
 * B), so no .r1cs is read. Like snarkjs, it cannot tell a witness that does not satisfy the
 * circuit (the .zkey has no C matrix): such a proof simply fails verification. The
 * bellperson form checks the witness against the .r1cs first and names the first failing
 * constraint (exit 2, no proof written).
 *
 * Threading: the pool (--threads) runs key decoding, NTTs and MSMs; the rest is on the
 * main thread.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "progress.h"

void cmd_prove_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk prove --zkey K.zkey --wtns W.wtns --proof proof.json "
            "--public public.json\n"
            "       cuzk prove --params P.params --r1cs C.r1cs --wtns W.wtns --out proof.bin\n"
            "                  [--public public.json]\n"
            "options: --threads N (default: all CPUs), --check-key (subgroup-check every key\n"
            "         point; default: on-curve only for the large vectors)\n"
            "\n"
            "snarkjs form: writes proof.json and public.json as snarkjs does (verify them with\n"
            "`snarkjs groth16 verify`). A witness that does not satisfy the circuit is not\n"
            "detected (the .zkey has no C matrix, as with snarkjs): the proof will not verify.\n"
            "bellperson form: checks the witness against the .r1cs, writes the 192-byte proof\n"
            "and, with --public, the public inputs as snarkjs-style JSON.\n"
            "exit: 0 proof written, 2 bad input (message on stderr), 1 internal failure\n");
}

typedef struct prove_args {
    const char *zkey, *wtns, *proof, *pub, *params, *r1cs, *out;
    unsigned threads;
    bool check_key;
} prove_args;

static int usage_error(const char *msg)
{
    fprintf(stderr, "cuzk prove: %s (try 'cuzk help prove')\n", msg);
    return CUZK_EXIT_USAGE;
}

static int parse_args(prove_args *a, int argc, char **argv)
{
    static const struct option opts[] = {
        {"zkey", required_argument, NULL, 'z'},   {"wtns", required_argument, NULL, 'w'},
        {"proof", required_argument, NULL, 'p'},  {"public", required_argument, NULL, 'u'},
        {"params", required_argument, NULL, 'P'}, {"r1cs", required_argument, NULL, 'r'},
        {"out", required_argument, NULL, 'o'},    {"threads", required_argument, NULL, 't'},
        {"check-key", no_argument, NULL, 'k'},    {NULL, 0, NULL, 0}};
    memset(a, 0, sizeof *a);
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'z': a->zkey = optarg; break;
        case 'w': a->wtns = optarg; break;
        case 'p': a->proof = optarg; break;
        case 'u': a->pub = optarg; break;
        case 'P': a->params = optarg; break;
        case 'r': a->r1cs = optarg; break;
        case 'o': a->out = optarg; break;
        case 'k': a->check_key = true; break;
        case 't':
            if (!cli_parse_threads(optarg, &a->threads))
                return usage_error("--threads needs a number from 0 (all CPUs) to 1024");
            break;
        default: return usage_error("unknown option or missing value");
        }
    }
    if (optind != argc)
        return usage_error("unexpected argument");
    if (!a->wtns)
        return usage_error("--wtns is required");
    if (a->zkey) {
        if (a->params || a->r1cs || a->out || !a->proof || !a->pub)
            return usage_error("the snarkjs form takes --zkey --wtns --proof --public");
    } else if (a->params) {
        if (!a->r1cs || !a->out || a->proof)
            return usage_error("the bellperson form takes --params --r1cs --wtns --out");
    } else {
        return usage_error("give --zkey (snarkjs) or --params (bellperson)");
    }
    return CUZK_EXIT_OK;
}

/* Proves with pk over r1cs and w; the proof lands in *proof. */
static int run_prover(cuzk_groth16_proof *proof, const cuzk_groth16_pk *pk,
                      const cuzk_r1cs *r1cs, const cuzk_witness *w, cuzk_pool *pool)
{
    cuzk_error e;
    cuzk_status st = cuzk_groth16_pk_check_circuit(pk, r1cs, &e);
    if (st != CUZK_OK)
        return cli_fail("prove", "key and circuit do not match", st, &e);
    size_t sz = cuzk_groth16_prove_scratch_size(pk, r1cs, cuzk_pool_nthreads(pool));
    void *scratch = sz ? malloc(sz) : NULL;
    if (!scratch)
        return cli_fail("prove", "scratch", CUZK_ERR_NOMEM, NULL);
    cli_progress bar;
    cli_progress_init(&bar, "proving");
    cli_progress_update(&bar, 0, 1);
    st = cuzk_groth16_prove(proof, pk, r1cs, w, scratch, sz, pool, &e);
    cli_progress_update(&bar, 1, 1);
    cli_progress_done(&bar);
    free(scratch);
    if (st != CUZK_OK)
        return cli_fail("prove", st == CUZK_ERR_UNSATISFIED ? "the witness does not satisfy "
                                                              "the circuit"
                                                            : "proving failed",
                        st, &e);
    return CUZK_EXIT_OK;
}

static int write_json(const char *path, char *text, const char *what)
{
    cuzk_error e;
    cuzk_status st = cuzk_file_write(path, text, strlen(text), &e);
    free(text);
    return st == CUZK_OK ? CUZK_EXIT_OK : cli_fail("prove", what, st, &e);
}

static int write_public(const char *path, const cuzk_fr *pub, size_t n)
{
    char *text;
    cuzk_error e;
    cuzk_status st = cuzk_frs_to_snarkjs_json(&text, pub, n, &e);
    if (st != CUZK_OK)
        return cli_fail("prove", "public.json", st, &e);
    return write_json(path, text, path);
}

static int prove_snarkjs(const prove_args *a, const cuzk_fr *w, uint32_t n_w, cuzk_pool *pool)
{
    cuzk_groth16_pk pk;
    cuzk_r1cs *ab = NULL;
    cuzk_snarkjs_zkey_header h;
    cuzk_error e;
    cli_progress bar;
    cli_progress_init(&bar, "loading zkey");
    cuzk_status st = cuzk_groth16_pk_load_snarkjs_zkey(
        &pk, &ab, &h, a->zkey, a->check_key ? CUZK_PARAMS_CHECKED : CUZK_PARAMS_TRUSTED_ONCURVE,
        pool, cli_progress_update, &bar, &e);
    cli_progress_done(&bar);
    if (st != CUZK_OK)
        return cli_fail("prove", a->zkey, st, &e);
    int rc = CUZK_EXIT_OK;
    cuzk_witness wit = cuzk_witness_dense(w, n_w);
    cuzk_groth16_proof proof;
    char *text = NULL;
    if (n_w != h.n_vars) {
        fprintf(stderr, "cuzk prove: %s has %u values but %s needs %u (nVars)\n", a->wtns, n_w,
                a->zkey, h.n_vars);
        rc = CUZK_EXIT_USAGE;
    } else if ((rc = run_prover(&proof, &pk, ab, &wit, pool)) == CUZK_EXIT_OK) {
        if ((st = cuzk_groth16_proof_to_snarkjs_json(&text, &proof, &e)) != CUZK_OK)
            rc = cli_fail("prove", "proof.json", st, &e);
        else if ((rc = write_json(a->proof, text, a->proof)) == CUZK_EXIT_OK)
            rc = write_public(a->pub, w + 1, h.n_public);
    }
    cuzk_groth16_pk_free(&pk);
    cuzk_r1cs_destroy(ab);
    return rc;
}

static int prove_bellperson(const prove_args *a, const cuzk_fr *w, uint32_t n_w,
                            cuzk_pool *pool)
{
    cuzk_r1cs *r1cs = NULL;
    cuzk_error e;
    cuzk_status st = cuzk_r1cs_load_snarkjs(&r1cs, NULL, a->r1cs, &e);
    if (st != CUZK_OK)
        return cli_fail("prove", a->r1cs, st, &e);
    if (n_w != r1cs->n_vars) {
        fprintf(stderr, "cuzk prove: %s has %u values but %s has %u wires\n", a->wtns, n_w,
                a->r1cs, r1cs->n_vars);
        cuzk_r1cs_destroy(r1cs);
        return CUZK_EXIT_USAGE;
    }
    cuzk_groth16_pk pk;
    /* the .params reader has no progress hook: the bar brackets the load */
    cli_progress bar;
    cli_progress_init(&bar, "loading params");
    cli_progress_update(&bar, 0, 1);
    st = cuzk_groth16_pk_load_bellperson(
        &pk, a->params, a->check_key ? CUZK_PARAMS_CHECKED : CUZK_PARAMS_TRUSTED_ONCURVE, pool,
        &e);
    cli_progress_update(&bar, 1, 1);
    cli_progress_done(&bar);
    if (st != CUZK_OK) {
        cuzk_r1cs_destroy(r1cs);
        return cli_fail("prove", a->params, st, &e);
    }
    cuzk_witness wit = cuzk_witness_dense(w, n_w);
    cuzk_groth16_proof proof;
    int rc = run_prover(&proof, &pk, r1cs, &wit, pool);
    if (rc == CUZK_EXIT_OK) {
        uint8_t bytes[CUZK_GROTH16_PROOF_BYTES];
        cuzk_groth16_proof_to_bellperson(bytes, &proof);
        if ((st = cuzk_file_write(a->out, bytes, sizeof bytes, &e)) != CUZK_OK)
            rc = cli_fail("prove", a->out, st, &e);
        else if (a->pub)
            rc = write_public(a->pub, w + 1, r1cs->n_public);
    }
    cuzk_groth16_pk_free(&pk);
    cuzk_r1cs_destroy(r1cs);
    return rc;
}

int cmd_prove(int argc, char **argv)
{
    prove_args a;
    int rc = parse_args(&a, argc, argv);
    if (rc != CUZK_EXIT_OK)
        return rc;
#ifndef CUZK_HAVE_JANSSON
    if (a.zkey || a.pub) {
        fprintf(stderr, "cuzk prove: built without JSON support (jansson)\n");
        return CUZK_EXIT_USAGE;
    }
#endif
    cuzk_fr *w = NULL;
    uint32_t n_w = 0;
    cuzk_error e;
    cuzk_status st = cuzk_frs_load_snarkjs_wtns(&w, &n_w, a.wtns, &e);
    if (st != CUZK_OK)
        return cli_fail("prove", a.wtns, st, &e);
    cuzk_pool *pool = NULL;
    if (!cli_pool_create("prove", a.threads, &pool)) {
        free(w);
        return CUZK_EXIT_FAIL;
    }
    rc = a.zkey ? prove_snarkjs(&a, w, n_w, pool) : prove_bellperson(&a, w, n_w, pool);
    cuzk_pool_destroy(pool);
    free(w);
    return rc;
}
