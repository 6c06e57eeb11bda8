/*
 * cmd_setup.c — `cuzk setup --r1cs C.r1cs --params out.params --vk out.vk [--threads N]`:
 * a development Groth16 setup (bellperson file formats) for a circom/snarkjs .r1cs.
 *
 * NOT a trusted setup: the toxic waste is drawn from getrandom(2) by this process, so
 * whoever ran it could have kept it and could forge proofs. The command says so loudly on
 * every run. The keys are for tests and demos only.
 *
 * Files: the .params and .vk go to temporaries and replace their destinations only when
 * both are complete (cmd/cuzk/outputs.h); an output that names the .r1cs or the other
 * output is refused before the setup runs, and a failed setup leaves old files untouched.
 *
 * Where it runs: --backend auto (default) takes the point multiplications (~95 % of the
 * CPU time) to the GPU when this build has CUDA and a device is present, cpu keeps them on
 * the pool, gpu[:N] insists on device N; the keys are byte-identical either way (for a
 * given seed: cuzk/groth16.h). stderr says which one ran and the time of each phase.
 *
 * Threading: the pool (--threads) runs the setup's O(n) steps, and its fixed-base
 * multiplications when no GPU does.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "outputs.h"
#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"
#include "progress.h"

void cmd_setup_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk setup --r1cs C.r1cs --params out.params --vk out.vk [--threads N]\n"
            "                  [--backend auto|cpu|gpu|gpu:N]\n"
            "       cuzk setup --circuit ID --seed SEED [--param-dir DIR] [--csr-cache DIR]\n"
            "                  [--devices SPEC] [--threads N]\n"
            "\n"
            "Development setup for tests and demos ONLY: random toxic waste, known to this\n"
            "process while it runs. Writes a bellperson .params (proving key) and .vk, both\n"
            "or neither (an existing file is replaced only when both are complete).\n"
            "options: --threads N (default: all CPUs)\n"
            "         --backend B where the point multiplications run (default auto: the GPU\n"
            "                   when present, else the CPU; the same keys either way)\n"
            "With --circuit (porep-32g, wpost-2k, winning-32g, snap-8m, ...): a dev key for\n"
            "that Filecoin circuit from SEED (64 hex digits or a decimal number; the same\n"
            "key for the same seed), written as Filecoin ships keys: <Filecoin's name>.params\n"
            "and .vk in DIR (default $FIL_PROOFS_PARAMETER_CACHE, else\n"
            "/var/tmp/filecoin-proof-parameters) and their parameters.json entries with the\n"
            "real BLAKE2b digests; the .params is streamed to disk once (~47 GB for\n"
            "porep-32g). The circuit is recorded once into --csr-cache. Prints: path, bytes,\n"
            "digest and the time of each step. NOT Filecoin's trusted setup.\n"
            "exit: 0 keys written, 2 bad input (message on stderr, nothing written),\n"
            "1 the machine failed (out of memory)\n");
}

static void warn_loudly(void)
{
    fprintf(stderr,
            "\n"
            "************************************************************************\n"
            "*  WARNING: DEVELOPMENT SETUP - NOT A TRUSTED SETUP                     *\n"
            "*  The toxic waste (tau, alpha, beta, gamma, delta) was drawn at random *\n"
            "*  by this process. Anyone who could read its memory can forge proofs.  *\n"
            "*  Use these keys for TESTS AND DEMOS ONLY, never to secure anything.   *\n"
            "************************************************************************\n"
            "\n");
}

/* The setup's phase times (cuzk_groth16_setup_opts.log) */
static void setup_log(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "cuzk %s\n", msg);
}

/* The savers' messages name the temporary they wrote to; say which output it was for. */
static int write_failed(const char *path, cuzk_status st, const cuzk_error *e)
{
    if (strncmp(e->msg, "cannot write ", 13) == 0)
        fprintf(stderr, "cuzk setup: %s\n", e->msg);
    else
        fprintf(stderr, "cuzk setup: cannot write %s: %s\n", path, e->msg);
    return st == CUZK_ERR_NOMEM ? CUZK_EXIT_FAIL : CUZK_EXIT_USAGE;
}

int cmd_setup(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--circuit") == 0 || strncmp(argv[i], "--circuit=", 10) == 0)
            return cmd_setup_fil(argc, argv);
    static const struct option opts[] = {{"r1cs", required_argument, NULL, 'r'},
                                         {"params", required_argument, NULL, 'P'},
                                         {"vk", required_argument, NULL, 'v'},
                                         {"threads", required_argument, NULL, 't'},
                                         {"backend", required_argument, NULL, 'b'},
                                         {NULL, 0, NULL, 0}};
    const char *r1cs_path = NULL, *params_path = NULL, *vk_path = NULL, *backend = "auto";
    unsigned threads = 0;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'r': r1cs_path = optarg; break;
        case 'P': params_path = optarg; break;
        case 'v': vk_path = optarg; break;
        case 'b': backend = optarg; break;
        case 't':
            if (cli_parse_threads(optarg, &threads))
                break;
            fprintf(stderr, "cuzk setup: --threads needs a number from 0 (all CPUs) to 1024 "
                            "(try 'cuzk help setup')\n");
            return CUZK_EXIT_USAGE;
        default:
            fprintf(stderr, "cuzk setup: unknown option or missing value: %s (try 'cuzk "
                            "help setup')\n", argv[optind - 1]);
            return CUZK_EXIT_USAGE;
        }
    }
    const char *missing = !r1cs_path ? "--r1cs" : !params_path ? "--params" : !vk_path ? "--vk"
                                                                                     : NULL;
    if (optind != argc || missing) {
        fprintf(stderr, "cuzk setup: %s%s (try 'cuzk help setup')\n",
                optind != argc ? "unexpected argument " : missing,
                optind != argc ? argv[optind] : " is required");
        return CUZK_EXIT_USAGE;
    }
    const char *inputs[] = {r1cs_path}, *outputs[] = {params_path, vk_path};
    cuzk_outfiles *set = NULL;
    int rc = cli_outputs_begin("setup", &set, inputs, 1, outputs, 2);
    if (rc != CUZK_EXIT_OK)
        return rc;
    warn_loudly();
    cuzk_r1cs *r1cs = NULL;
    cuzk_error e;
    cuzk_status st = cuzk_r1cs_load_snarkjs(&r1cs, NULL, r1cs_path, &e);
    if (st != CUZK_OK) {
        cli_outputs_end(set);
        return cli_fail("setup", r1cs_path, st, &e);
    }
    cuzk_pool *pool = NULL;
    if (!cli_pool_create("setup", threads, &pool)) {
        cli_outputs_end(set);
        cuzk_r1cs_destroy(r1cs);
        return CUZK_EXIT_FAIL;
    }
    /* the point multiplications on the GPU when the backend is one */
    cuzk_prover *prover = NULL;
    cuzk_groth16_fixed_base_hook *hook = NULL;
    if ((st = cuzk_prover_open(&prover, backend, pool, &e)) != CUZK_OK) {
        cli_outputs_end(set);
        cuzk_pool_destroy(pool);
        cuzk_r1cs_destroy(r1cs);
        fprintf(stderr, "cuzk setup: --backend %s: %s\n", backend, e.msg);
        return st == CUZK_ERR_INVALID_ARG || st == CUZK_ERR_UNSUPPORTED ? CUZK_EXIT_USAGE
                                                                        : CUZK_EXIT_FAIL;
    }
    if (cuzk_prover_kind(prover) == CUZK_BACKEND_CUDA &&
        cuzk_prover_fixed_base_hook_open(prover, &hook, &e) != CUZK_OK)
        fprintf(stderr, "cuzk setup: no GPU setup (%s): on the CPU\n", e.msg);
    fprintf(stderr, "cuzk setup: point multiplications on %s\n",
            hook ? hook->name : cuzk_prover_describe(prover));
    cuzk_groth16_setup_opts so;
    memset(&so, 0, sizeof so);
    so.fixed_base = hook;
    so.log = setup_log;
    /* The setup has no progress hook: the bar marks its three phases. */
    cli_progress bar;
    cli_progress_init(&bar, "setup");
    cli_progress_update(&bar, 0, 3);
    cuzk_groth16_pk pk;
    cuzk_groth16_vk vk;
    memset(&pk, 0, sizeof pk);
    memset(&vk, 0, sizeof vk);
    const char *tmp_params = NULL, *tmp_vk = NULL;
    st = cuzk_groth16_setup_dev_ex(&pk, &vk, r1cs, CUZK_GROTH16_BELLPERSON, NULL, pool, &so, &e);
    cuzk_prover_fixed_base_hook_close(hook);
    cuzk_prover_close(prover);
    cli_progress_update(&bar, 1, 3);
    if (st != CUZK_OK) {
        cli_progress_done(&bar);
        rc = cli_fail("setup", "setup failed", st, &e);
    } else if ((st = cuzk_outfiles_temp_path(set, 0, &tmp_params, &e)) != CUZK_OK ||
               (st = cuzk_groth16_pk_save_bellperson(&pk, tmp_params, &e)) != CUZK_OK) {
        cli_progress_done(&bar);
        rc = write_failed(params_path, st, &e);
    } else {
        cli_progress_update(&bar, 2, 3);
        if ((st = cuzk_outfiles_temp_path(set, 1, &tmp_vk, &e)) == CUZK_OK)
            st = cuzk_groth16_vk_save_bellperson(&vk, tmp_vk, &e);
        cli_progress_update(&bar, 3, 3);
        cli_progress_done(&bar);
        if (st != CUZK_OK) {
            rc = write_failed(vk_path, st, &e);
        } else if ((rc = cli_outputs_commit("setup", set)) == CUZK_EXIT_OK)
            fprintf(stderr,
                    "wrote %s (%zu h, %zu l, %zu a, %zu b points; domain 2^%u) and %s "
                    "(%zu public inputs) -- DEVELOPMENT KEYS, NOT FOR PRODUCTION\n",
                    params_path, pk.n_h, pk.n_l, pk.n_a, pk.n_b_g1, pk.log2n, vk_path,
                    vk.n_ic - 1);
    }
    cli_outputs_end(set);
    cuzk_groth16_pk_free(&pk);
    cuzk_groth16_vk_free(&vk);
    cuzk_pool_destroy(pool);
    cuzk_r1cs_destroy(r1cs);
    return rc;
}
