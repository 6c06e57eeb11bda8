/*
 * cmd_verify.c — `cuzk verify --vk VK --public public.json --proof PROOF`.
 *
 * VK is snarkjs's verification_key.json or a bellperson .vk; PROOF is snarkjs's proof.json
 * or a 192-byte bellperson proof; each is recognised by its content (JSON starts with '{'
 * after optional whitespace and holds no raw control byte: cli_looks_json), so the two
 * forms may even be mixed. public.json is snarkjs's array of decimal strings (outputs
 * then public inputs, i.e. variables 1..n in order).
 * A bellperson .vk is first checked against a parameters.json beside it, when there is one
 * (cuzk/param_digest.h: Filecoin's parameter directory).
 *
 * Prints OK and exits 0 for a valid proof, prints INVALID and exits 1 for a well-formed
 * proof that does not verify, exits 2 with a message for malformed input (bad JSON, a value
 * >= the modulus, a point off the curve or outside the subgroup, a wrong input count).
 *
 * --threads N (0: every CPU) spreads the public inputs' sum over a pool when there are
 * enough of them to pay for one (32; a 32 GiB WindowPoSt proof has 25,839); the pairing
 * product runs on the calling thread.
 *
 * Threading: the calling thread, and a pool for a long public-input list.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "cuzk/formats.h"
#include "cuzk/param_digest.h"
#include "cuzk/groth16.h"
#include "progress.h"

/* Key, public input and proof files are small; anything larger is not one of them. */
#define MAX_TEXT (64u << 20)

void cmd_verify_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk verify --vk VK --public public.json --proof PROOF [--threads N]\n"
            "\n"
            "VK: verification_key.json (snarkjs) or a bellperson .vk\n"
            "PROOF: proof.json (snarkjs) or a 192-byte bellperson proof\n"
            "public.json: snarkjs's array of decimal strings\n"
            "--threads N: threads for the public inputs' sum (0: all CPUs; used from 32 inputs)\n"
            "prints OK (exit 0) or INVALID (exit 1); exit 2 on malformed input\n");
}

static int load_vk(cuzk_groth16_vk *vk, const char *path)
{
    char *text;
    size_t len;
    cuzk_error e;
    cuzk_status st = cuzk_file_read_text(&text, &len, path, MAX_TEXT, &e);
    if (st != CUZK_OK)
        return cli_fail("verify", path, st, &e);
    if (cli_looks_json(text, len, "{"))
        st = cuzk_groth16_vk_from_snarkjs_json(vk, text, len, &e);
    else if ((st = cuzk_param_file_check(path, 0, NULL, &e)) == CUZK_OK)
        /* a Filecoin .vk: checked against a parameters.json beside it, when there is one */
        st = cuzk_groth16_vk_from_bellperson(vk, (const uint8_t *)text, len, NULL, &e);
    free(text);
    return st == CUZK_OK ? CUZK_EXIT_OK : cli_fail("verify", path, st, &e);
}

static int load_proof(cuzk_groth16_proof *proof, const char *path)
{
    char *text;
    size_t len;
    cuzk_error e;
    cuzk_status st = cuzk_file_read_text(&text, &len, path, MAX_TEXT, &e);
    if (st != CUZK_OK)
        return cli_fail("verify", path, st, &e);
    if (cli_looks_json(text, len, "{"))
        st = cuzk_groth16_proof_from_snarkjs_json(proof, text, len, &e);
    else
        st = cuzk_groth16_proof_from_bellperson(proof, (const uint8_t *)text, len, &e);
    free(text);
    return st == CUZK_OK ? CUZK_EXIT_OK : cli_fail("verify", path, st, &e);
}

static int load_public(cuzk_fr **pub, size_t *n, const char *path)
{
    char *text;
    size_t len;
    cuzk_error e;
    cuzk_status st = cuzk_file_read_text(&text, &len, path, MAX_TEXT, &e);
    if (st != CUZK_OK)
        return cli_fail("verify", path, st, &e);
    st = cuzk_frs_from_snarkjs_json(pub, n, text, len, &e);
    free(text);
    return st == CUZK_OK ? CUZK_EXIT_OK : cli_fail("verify", path, st, &e);
}

int cmd_verify(int argc, char **argv)
{
    static const struct option opts[] = {{"vk", required_argument, NULL, 'v'},
                                         {"public", required_argument, NULL, 'u'},
                                         {"proof", required_argument, NULL, 'p'},
                                         {"threads", required_argument, NULL, 't'},
                                         {NULL, 0, NULL, 0}};
    const char *vk_path = NULL, *pub_path = NULL, *proof_path = NULL;
    unsigned threads = 0;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'v': vk_path = optarg; break;
        case 'u': pub_path = optarg; break;
        case 'p': proof_path = optarg; break;
        case 't':
            if (cli_parse_threads(optarg, &threads))
                break;
            fprintf(stderr, "cuzk verify: --threads needs a number from 0 (all CPUs) to 1024 "
                            "(try 'cuzk help verify')\n");
            return CUZK_EXIT_USAGE;
        default:
            fprintf(stderr, "cuzk verify: unknown option or missing value: %s (try 'cuzk "
                            "help verify')\n", argv[optind - 1]);
            return CUZK_EXIT_USAGE;
        }
    }
    const char *missing = !vk_path ? "--vk" : !pub_path ? "--public" : !proof_path ? "--proof"
                                                                                 : NULL;
    if (optind != argc || missing) {
        fprintf(stderr, "cuzk verify: %s%s (try 'cuzk help verify')\n",
                optind != argc ? "unexpected argument " : missing,
                optind != argc ? argv[optind] : " is required");
        return CUZK_EXIT_USAGE;
    }
    cuzk_groth16_vk vk;
    memset(&vk, 0, sizeof vk);
    cuzk_groth16_proof proof;
    cuzk_fr *pub = NULL;
    size_t n_pub = 0;
    int rc;
    if ((rc = load_vk(&vk, vk_path)) != CUZK_EXIT_OK)
        return rc;
    if ((rc = load_proof(&proof, proof_path)) != CUZK_EXIT_OK ||
        (rc = load_public(&pub, &n_pub, pub_path)) != CUZK_EXIT_OK)
        goto done;
    if (n_pub + 1 != vk.n_ic) {
        fprintf(stderr, "cuzk verify: %s has %zu public inputs, the key expects %zu\n",
                pub_path, n_pub, vk.n_ic - 1);
        rc = CUZK_EXIT_USAGE;
        goto done;
    }
    cuzk_groth16_pvk pvk;
    cuzk_error e;
    memset(&e, 0, sizeof e);
    cuzk_pool *pool = NULL;
    void *scratch = NULL;
    size_t sz = 0;
    cuzk_status st = cuzk_groth16_pvk_prepare(&pvk, &vk);
    if (st == CUZK_OK && n_pub >= 32) {
        if (threads != 1 && !cli_pool_create("verify", threads, &pool)) {
            rc = CUZK_EXIT_FAIL;
            goto done;
        }
        sz = cuzk_groth16_verify_scratch_size(&pvk, cuzk_pool_nthreads(pool));
        if (sz && !(scratch = malloc(sz)))
            st = cuzk_error_set(&e, CUZK_ERR_NOMEM, "out of memory");
    }
    if (st == CUZK_OK)
        st = cuzk_groth16_verify_pool(&pvk, pub, n_pub, &proof, scratch, sz, pool, &e);
    free(scratch);
    cuzk_pool_destroy(pool);
    if (st == CUZK_OK) {
        printf("OK\n");
        rc = CUZK_EXIT_OK;
    } else if (st == CUZK_ERR_INVALID_PROOF) {
        printf("INVALID\n");
        rc = CUZK_EXIT_FAIL;
    } else {
        rc = cli_fail("verify", "verification", st, &e);
    }
done:
    free(pub);
    cuzk_groth16_vk_free(&vk);
    return rc;
}
