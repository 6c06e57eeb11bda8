/*
 * cmd_prove.c — `cuzk prove`, two forms:
 *   snarkjs:    --zkey K.zkey --wtns W.wtns --proof proof.json --public public.json
 *               [--r1cs C.r1cs]
 *   bellperson: --params P.params --r1cs C.r1cs --wtns W.wtns --out proof.bin
 *               [--public public.json]
 * plus --threads N (default: all CPUs), --check-key (verify every key point is in its
 * subgroup; by default the big vectors are only checked to be on the curve, as bellperson
 * does, while the verifying-key part is always fully checked) and --backend cpu|gpu[:N]|auto
 * (cuzk/prover.h; default auto: the GPU when this build has CUDA and a device is present).
 *
 * A bellperson .params is first checked against a parameters.json beside it, when there
 * is one (cuzk/param_digest.h: Filecoin's parameter directory); silent otherwise.
 *
 * A witness that does not satisfy the circuit never gives a proof: exit 2, nothing
 * written. The bellperson form checks it against the .r1cs and names the first failing
 * constraint. The snarkjs form's .zkey has no C matrix (snarkjs folds it into the key), so
 * there the .r1cs is optional: given, the witness is checked against it the same way;
 * otherwise the prover's own pairing check of the proof against the key's verifying key
 * rejects it ("the proof does not verify").
 *
 * Files: every input and output is declared before any work (cmd/cuzk/outputs.h), so an
 * output that names an input or another output, or cannot be created, is refused up front;
 * outputs are written to temporaries and renamed only when all are complete.
 *
 * Threading: the pool (--threads) runs key decoding, NTTs and MSMs; the rest is on the
 * main thread.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "outputs.h"
#include "cuzk/formats.h"
#include "cuzk/param_digest.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"
#include "progress.h"

void cmd_prove_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk prove --zkey K.zkey --wtns W.wtns --proof proof.json "
            "--public public.json\n"
            "                  [--r1cs C.r1cs]\n"
            "       cuzk prove --params P.params --r1cs C.r1cs --wtns W.wtns --out proof.bin\n"
            "                  [--public public.json]\n"
            "options: --threads N (default: all CPUs), --check-key (subgroup-check every key\n"
            "         point; default: on-curve only for the large vectors),\n"
            "         --backend cpu|gpu|gpu:N|auto (default auto: the GPU when present)\n"
            "\n"
            "snarkjs form: writes proof.json and public.json as snarkjs does (verify them with\n"
            "`snarkjs groth16 verify`). With --r1cs the witness is checked against the circuit\n"
            "first (the failing constraint is named); without it a witness that does not\n"
            "satisfy the circuit is caught by the proof's own pairing check.\n"
            "bellperson form: checks the witness against the .r1cs, writes the 192-byte proof\n"
            "and, with --public, the public inputs as snarkjs-style JSON.\n"
            "Outputs are written only when all of them are complete; an output may not be an\n"
            "input or another output.\n"
            "exit: 0 proof written; 2 bad input or a witness that does not satisfy the circuit\n"
            "(message on stderr, nothing written); 1 the machine failed (out of memory)\n");
}

typedef struct prove_args {
    const char *zkey, *wtns, *proof, *pub, *params, *r1cs, *out, *backend;
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
        {"check-key", no_argument, NULL, 'k'},    {"backend", required_argument, NULL, 'b'},
        {NULL, 0, NULL, 0}};
    memset(a, 0, sizeof *a);
    a->backend = "auto";
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
        case 'b': a->backend = optarg; break;
        case 't':
            if (!cli_parse_threads(optarg, &a->threads))
                return usage_error("--threads needs a number from 0 (all CPUs) to 1024");
            break;
        default:
            fprintf(stderr, "cuzk prove: unknown option or missing value: %s (try 'cuzk help "
                            "prove')\n", argv[optind - 1]);
            return CUZK_EXIT_USAGE;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "cuzk prove: unexpected argument %s (try 'cuzk help prove')\n",
                argv[optind]);
        return CUZK_EXIT_USAGE;
    }
    if (a->zkey && a->params)
        return usage_error("give --zkey (snarkjs form) or --params (bellperson form), not both");
    if (!a->zkey && !a->params)
        return usage_error("--zkey or --params is required");
    if (!a->wtns)
        return usage_error("--wtns is required");
    if (a->zkey) {
        if (a->out)
            return usage_error("--out is for the bellperson form (--params); use --proof with "
                               "--zkey");
        if (!a->proof)
            return usage_error("--proof is required with --zkey");
        if (!a->pub)
            return usage_error("--public is required with --zkey");
    } else {
        if (a->proof)
            return usage_error("--proof is for the snarkjs form (--zkey); use --out with "
                               "--params");
        if (!a->r1cs)
            return usage_error("--r1cs is required with --params");
        if (!a->out)
            return usage_error("--out is required with --params");
    }
    return CUZK_EXIT_OK;
}

/* Proves with pk over r1cs and w on the chosen backend; the proof lands in *proof. Any
 * failure of the prover (a witness that does not satisfy the circuit, a proof that fails
 * its own pairing check, a bad key) is exit 2 and nothing is written: no proof leaves cuzk
 * unless it verified (the backend's finalize self-checks every proof). */
static int run_prover(cuzk_groth16_proof *proof, const cuzk_groth16_pk *pk,
                      const cuzk_r1cs *r1cs, const cuzk_witness *w, const char *backend,
                      cuzk_pool *pool)
{
    cuzk_error e;
    cuzk_status st = cuzk_groth16_pk_check_circuit(pk, r1cs, &e);
    if (st != CUZK_OK)
        return cli_fail("prove", "key and circuit do not match", st, &e);
    cuzk_prover *p = NULL;
    if ((st = cuzk_prover_open(&p, backend, pool, &e)) != CUZK_OK)
        return cli_fail("prove", backend, st, &e);
    cli_progress bar;
    cli_progress_init(&bar, "proving");
    cli_progress_update(&bar, 0, 1);
    memset(&e, 0, sizeof e);
    st = cuzk_prover_prove(p, pk, r1cs, w, proof, NULL, &e);
    cli_progress_update(&bar, 1, 1);
    cli_progress_done(&bar);
    cuzk_prover_close(p);
    if (st == CUZK_OK)
        return CUZK_EXIT_OK;
    const char *why = st == CUZK_ERR_UNSATISFIED ? "the witness does not satisfy the circuit"
                      : st == CUZK_ERR_INVALID_PROOF ? "the proof does not verify"
                                                     : "proving failed";
    fprintf(stderr, "cuzk prove: %s: %s; no proof written\n", why,
            e.msg[0] ? e.msg : cuzk_status_name(st));
    return CUZK_EXIT_USAGE;
}

/* Output indices in the cuzk_outfiles set (see cmd_prove). */
enum { OUT_PROOF = 0, OUT_PUBLIC = 1 };

static int put_text(cuzk_outfiles *set, size_t idx, char *text)
{
    cuzk_error e;
    cuzk_status st = cuzk_outfiles_write(set, idx, text, strlen(text), &e);
    free(text);
    return st == CUZK_OK ? CUZK_EXIT_OK : cli_fail("prove", "", st, &e);
}

static int put_public(cuzk_outfiles *set, const cuzk_fr *pub, size_t n)
{
    char *text;
    cuzk_error e;
    cuzk_status st = cuzk_frs_to_snarkjs_json(&text, pub, n, &e);
    if (st != CUZK_OK)
        return cli_fail("prove", cuzk_outfiles_path(set, OUT_PUBLIC), st, &e);
    return put_text(set, OUT_PUBLIC, text);
}

/* snarkjs form with --r1cs: the circuit must be the key's, and the witness must satisfy
 * it (the .zkey alone cannot say which constraint fails). */
static int check_r1cs(const prove_args *a, const cuzk_snarkjs_zkey_header *h,
                      const cuzk_witness *wit)
{
    cuzk_r1cs *r1cs = NULL;
    cuzk_error e;
    cuzk_status st = cuzk_r1cs_load_snarkjs(&r1cs, NULL, a->r1cs, &e);
    if (st != CUZK_OK)
        return cli_fail("prove", a->r1cs, st, &e);
    int rc = CUZK_EXIT_OK;
    if (r1cs->n_vars != h->n_vars || r1cs->n_public != h->n_public) {
        fprintf(stderr, "cuzk prove: %s (%u wires, %u public) is not the circuit of %s (%u "
                        "wires, %u public)\n", a->r1cs, r1cs->n_vars, r1cs->n_public, a->zkey,
                h->n_vars, h->n_public);
        rc = CUZK_EXIT_USAGE;
    } else if ((st = cuzk_r1cs_check(r1cs, wit, NULL, &e)) != CUZK_OK) {
        fprintf(stderr, "cuzk prove: %s: %s; no proof written\n",
                st == CUZK_ERR_UNSATISFIED ? "the witness does not satisfy the circuit"
                                           : a->wtns, e.msg);
        rc = st == CUZK_ERR_NOMEM ? CUZK_EXIT_FAIL : CUZK_EXIT_USAGE;
    }
    cuzk_r1cs_destroy(r1cs);
    return rc;
}

static int prove_snarkjs(const prove_args *a, const cuzk_fr *w, uint32_t n_w, cuzk_pool *pool,
                         cuzk_outfiles *set)
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
    } else if (a->r1cs && (rc = check_r1cs(a, &h, &wit)) != CUZK_EXIT_OK) {
        /* message printed */
    } else if ((rc = run_prover(&proof, &pk, ab, &wit, a->backend, pool)) == CUZK_EXIT_OK) {
        if ((st = cuzk_groth16_proof_to_snarkjs_json(&text, &proof, &e)) != CUZK_OK)
            rc = cli_fail("prove", a->proof, st, &e);
        else if ((rc = put_text(set, OUT_PROOF, text)) == CUZK_EXIT_OK)
            rc = put_public(set, w + 1, h.n_public);
    }
    cuzk_groth16_pk_free(&pk);
    cuzk_r1cs_destroy(ab);
    return rc;
}

static int prove_bellperson(const prove_args *a, const cuzk_fr *w, uint32_t n_w,
                            cuzk_pool *pool, cuzk_outfiles *set)
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
    /* a Filecoin .params is checked against the parameters.json beside it (silent when
     * there is none: most --params are the user's own) */
    cuzk_param_check pc;
    if ((st = cuzk_param_file_check(a->params, 0, &pc, &e)) != CUZK_OK) {
        cuzk_r1cs_destroy(r1cs);
        return cli_fail("prove", a->params, st, &e);
    }
    if (pc.verdict == CUZK_PARAM_MATCHED || pc.verdict == CUZK_PARAM_MATCHED_CACHED)
        fprintf(stderr, "cuzk prove: %s: digest %s matches parameters.json\n", a->params,
                pc.actual);
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
    int rc = run_prover(&proof, &pk, r1cs, &wit, a->backend, pool);
    if (rc == CUZK_EXIT_OK) {
        uint8_t bytes[CUZK_GROTH16_PROOF_BYTES];
        cuzk_groth16_proof_to_bellperson(bytes, &proof);
        if ((st = cuzk_outfiles_write(set, OUT_PROOF, bytes, sizeof bytes, &e)) != CUZK_OK)
            rc = cli_fail("prove", "", st, &e);
        else if (a->pub)
            rc = put_public(set, w + 1, r1cs->n_public);
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
    /* Every path is checked before the work: an output that is an input or another
     * output, or that cannot be written, costs nothing. */
    const char *inputs[] = {a.zkey, a.params, a.r1cs, a.wtns};
    const char *outputs[] = {a.zkey ? a.proof : a.out, a.pub};
    cuzk_outfiles *set = NULL;
    rc = cli_outputs_begin("prove", &set, inputs, 4, outputs, 2);
    if (rc != CUZK_EXIT_OK)
        return rc;
    cuzk_fr *w = NULL;
    uint32_t n_w = 0;
    cuzk_error e;
    cuzk_pool *pool = NULL;
    cuzk_status st = cuzk_frs_load_snarkjs_wtns(&w, &n_w, a.wtns, &e);
    if (st != CUZK_OK) {
        rc = cli_fail("prove", a.wtns, st, &e);
    } else if (!cli_pool_create("prove", a.threads, &pool)) {
        rc = CUZK_EXIT_FAIL;
    } else {
        rc = a.zkey ? prove_snarkjs(&a, w, n_w, pool, set)
                    : prove_bellperson(&a, w, n_w, pool, set);
        if (rc == CUZK_EXIT_OK)
            rc = cli_outputs_commit("prove", set);
    }
    cli_outputs_end(set);
    cuzk_pool_destroy(pool);
    free(w);
    return rc;
}
