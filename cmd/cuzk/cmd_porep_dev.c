/*
 * cmd_porep_dev.c — PoRep commands beside the prover, for the README's main job and tests:
 *   cuzk gen-c1 --sector-size S [--seed N] --out FILE
 *       SYNTHETIC TEST DATA: a consistent C1 output (cuzk_c1_synth) written as
 *       filecoin-ffi's JSON (cuzk_c1_write_json). Not a sealed sector.
 *   cuzk verify-seal --c1 FILE --proof FILE (--params-dir DIR | --dev-key-dir DIR | --key FILE)
 *       (alias verify-porep) checks a PoRep C2 proof (partitions x 192 bytes) against a
 *       verifying key and the public inputs the C1 output gives (cuzk_porep_public_inputs),
 *       partition by partition, independently of the engine that made it. A Filecoin key
 *       (--params-dir: the size's .vk, else its .params; --key FILE) is first checked
 *       against the parameters.json beside it (cuzk/param_digest.h).
 * Threading: main thread only.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli_args.h"
#include "commands.h"
#include "cuzk/c1.h"
#include "cuzk/c1_synth.h"
#include "cuzk/formats.h"
#include "cuzk/param_digest.h"
#include "cuzk/porep.h"
#include "util/util_export.h"

void cmd_gen_c1_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk gen-c1 --sector-size SIZE [--seed N] --out FILE\n"
            "*** SYNTHETIC TEST DATA, NOT A SEALED SECTOR ***\n"
            "writes a PoRep C1 output (filecoin-ffi's SealCommitPhase1Output JSON, V1_1, all\n"
            "partitions) that is consistent (Merkle paths, labels, comm_r, challenges as the\n"
            "verifier derives them) but encodes no data: a C2 proof of it proves nothing\n"
            "about any sector. For demos, benchmarks and tests of the C2 prover.\n"
            "  --sector-size SIZE  2KiB, 8MiB, 512MiB, 32GiB or 64GiB\n"
            "  --seed N            reproducible output (default 1)\n");
}

int cmd_gen_c1(int argc, char **argv)
{
    static const struct option opts[] = {{"sector-size", required_argument, NULL, 's'},
                                         {"seed", required_argument, NULL, 'S'},
                                         {"out", required_argument, NULL, 'o'},
                                         {NULL, 0, NULL, 0}};
    const char *size_arg = NULL, *out = NULL;
    uint64_t seed = 1;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        char *end;
        switch (c) {
        case 's': size_arg = optarg; break;
        case 'o': out = optarg; break;
        case 'S':
            errno = 0;
            seed = strtoull(optarg, &end, 10);
            if (!isdigit((unsigned char)optarg[0]) || *end || errno) {
                fprintf(stderr, "cuzk gen-c1: --seed needs a non-negative integer\n");
                return CUZK_EXIT_USAGE;
            }
            break;
        default:
            fprintf(stderr, "cuzk gen-c1: unknown option or missing value: %s (try 'cuzk help "
                            "gen-c1')\n", argv[optind - 1]);
            return CUZK_EXIT_USAGE;
        }
    }
    if (!size_arg || !out || optind != argc) {
        fprintf(stderr, "cuzk gen-c1: needs --sector-size SIZE and --out FILE\n");
        return CUZK_EXIT_USAGE;
    }
    uint64_t size = 0;
    cuzk_porep_shape shape;
    if (!cuzk_parse_size(size_arg, &size) ||
        cuzk_porep_shape_for_size(size, &shape, NULL) != CUZK_OK) {
        fprintf(stderr, "cuzk gen-c1: --sector-size %s: not 2KiB, 8MiB, 512MiB, 32GiB or "
                        "64GiB\n", size_arg);
        return CUZK_EXIT_USAGE;
    }
    cuzk_error err = {0};
    cuzk_c1_output *c1 = NULL;
    /* every partition of the registered proof: the file is a whole C1 output */
    unsigned parts = size >= (32ull << 30) ? 10 : 1;
    if (cuzk_c1_synth(size, parts, seed, &c1, &err) != CUZK_OK ||
        cuzk_c1_write_json(c1, out, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk gen-c1: %s\n", err.msg);
        cuzk_c1_synth_free(c1);
        return CUZK_EXIT_FAIL;
    }
    fprintf(stderr, "cuzk gen-c1: SYNTHETIC TEST DATA (not a sealed sector)\n");
    printf("%s: %s, %u partition(s) x %u challenges, seed %llu\n", out, c1->info.name,
           c1->info.partitions, c1->info.challenges, (unsigned long long)seed);
    cuzk_c1_synth_free(c1);
    return CUZK_EXIT_OK;
}

void cmd_verify_seal_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk verify-seal --c1 FILE --proof FILE\n"
            "                        (--params-dir DIR | --dev-key-dir DIR | --key FILE)\n"
            "checks a PoRep C2 proof (partitions x 192 bytes) against the verifying key and\n"
            "the public inputs of the C1 output; prints OK, or INVALID (exit 1).\n"
            "(verify-porep is an alias.)\n"
            "  --params-dir DIR   Filecoin's parameters: the sector size's .vk (else its .params),\n"
            "                     named as Filecoin names them; checked first against\n"
            "                     DIR/parameters.json's digest when that file is there\n"
            "  --dev-key-dir DIR  the dev key cuzk made there (cuzk-DEV-UNTRUSTED-porep-*:\n"
            "                     NOT Filecoin's trusted setup; its .dev.params, or the\n"
            "                     .dev.params.vk of a key kept as its seed)\n"
            "  --key FILE         a bellperson .vk or .params (only its verifying key is read;\n"
            "                     checked against a parameters.json beside it)\n");
}

/* A Filecoin key file against the parameters.json beside it; the verdict goes to stderr. */
static int check_key_file(const char *cmd, const char *path)
{
    cuzk_param_check pc;
    cuzk_error err = {0};
    if (cuzk_param_file_check(path, 0, &pc, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk %s: %s\n", cmd, err.msg);
        return CUZK_EXIT_FAIL;
    }
    if (pc.verdict == CUZK_PARAM_NO_MANIFEST || pc.verdict == CUZK_PARAM_UNCHECKABLE)
        fprintf(stderr, "cuzk %s: %s: digest not checked: %s\n", cmd, path, pc.reason);
    else
        fprintf(stderr, "cuzk %s: %s: digest %s matches parameters.json%s\n", cmd, path,
                pc.actual, pc.verdict == CUZK_PARAM_MATCHED_CACHED ? " (remembered)" : "");
    return CUZK_EXIT_OK;
}

/* --params-dir: DIR/<Filecoin's name>.vk, else .params, for the C1's sector size. */
static int params_dir_key(const char *cmd, const char *dir, uint64_t sector_size, char *path,
                          size_t cap)
{
    const char *base = cuzk_porep_param_base(sector_size);
    if (!base) {
        fprintf(stderr, "cuzk %s: no Filecoin parameters for sector size %llu\n", cmd,
                (unsigned long long)sector_size);
        return CUZK_EXIT_FAIL;
    }
    static const char *const exts[] = {".vk", ".params"};
    for (int i = 0; i < 2; i++) {
        if (snprintf(path, cap, "%s/%s%s", dir, base, exts[i]) >= (int)cap) {
            fprintf(stderr, "cuzk %s: --params-dir: path too long\n", cmd);
            return CUZK_EXIT_FAIL;
        }
        if (access(path, R_OK) == 0)
            return CUZK_EXIT_OK;
    }
    fprintf(stderr, "cuzk %s: neither %s/%s.vk nor .params found\n", cmd, dir, base);
    return CUZK_EXIT_FAIL;
}

/* The verifying key at the head of a .vk or .params, without reading the big vectors. */
static cuzk_status load_vk_prefix(cuzk_groth16_vk *vk, const char *path, cuzk_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    uint8_t head[CUZK_BELLPERSON_VK_FIXED_BYTES + 4];
    cuzk_status st = CUZK_OK;
    uint8_t *buf = NULL;
    if (fread(head, 1, sizeof head, f) != sizeof head) {
        st = cuzk_error_set(err, CUZK_ERR_TRUNCATED, "%s: shorter than a verifying key", path);
        goto out;
    }
    const uint8_t *p = head + CUZK_BELLPERSON_VK_FIXED_BYTES;
    uint32_t n_ic = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    if (n_ic == 0 || n_ic > (1u << 20)) {
        st = cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: %u public inputs in its key", path, n_ic);
        goto out;
    }
    size_t len = sizeof head + (size_t)n_ic * 96;
    if (!(buf = malloc(len))) {
        st = cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
        goto out;
    }
    memcpy(buf, head, sizeof head);
    if (fread(buf + sizeof head, 1, len - sizeof head, f) != len - sizeof head) {
        st = cuzk_error_set(err, CUZK_ERR_TRUNCATED, "%s: ends inside its verifying key", path);
        goto out;
    }
    size_t used = 0;
    st = cuzk_groth16_vk_from_bellperson(vk, buf, len, &used, err);
out:
    free(buf);
    fclose(f);
    return st;
}

static const char *size_tag(uint64_t s)
{
    return s == 2048 ? "2k" : s == 8ull << 20 ? "8m" : s == 512ull << 20 ? "512m"
         : s == 32ull << 30 ? "32g" : s == 64ull << 30 ? "64g" : NULL;
}

/* Verifies every partition; prints the verdict. */
static int verify_all(const char *cmd, const cuzk_c1_output *c1, const uint8_t *proof,
                      size_t len, const cuzk_groth16_vk *vk)
{
    cuzk_error err = {0};
    cuzk_porep_shape shape;
    size_t parts = c1->info.partitions;
    if (len != parts * CUZK_GROTH16_PROOF_BYTES) {
        fprintf(stderr, "cuzk %s: the proof has %zu bytes, %s needs %zu x 192\n", cmd, len,
                c1->info.name, parts);
        return CUZK_EXIT_FAIL;
    }
    if (cuzk_porep_shape_for_size(c1->info.sector_size, &shape, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk %s: %s\n", cmd, err.msg);
        return CUZK_EXIT_FAIL;
    }
    size_t n = cuzk_porep_public_input_count(&shape);
    if (vk->n_ic != n + 1) {
        fprintf(stderr, "cuzk %s: the key has %zu public inputs, %s has %zu\n", cmd,
                vk->n_ic - 1, c1->info.name, n);
        return CUZK_EXIT_FAIL;
    }
    cuzk_fr *in = malloc(n * sizeof *in);
    cuzk_groth16_pvk pvk;
    if (!in || cuzk_groth16_pvk_prepare(&pvk, vk) != CUZK_OK) {
        free(in);
        fprintf(stderr, "cuzk %s: cannot prepare the key\n", cmd);
        return CUZK_EXIT_FAIL;
    }
    int rc = CUZK_EXIT_OK;
    for (size_t k = 0; k < parts && rc == CUZK_EXIT_OK; k++) {
        cuzk_groth16_proof pr;
        cuzk_status st = cuzk_groth16_proof_from_bellperson(
            &pr, proof + k * CUZK_GROTH16_PROOF_BYTES, CUZK_GROTH16_PROOF_BYTES, &err);
        if (!st)
            st = cuzk_porep_public_inputs(c1, (unsigned)k, in, n, &err);
        if (!st)
            st = cuzk_groth16_verify(&pvk, in, n, &pr, &err);
        if (st) {
            printf("INVALID (partition %zu: %s)\n", k, err.msg);
            rc = CUZK_EXIT_FAIL;
        }
    }
    if (rc == CUZK_EXIT_OK)
        printf("OK (%s, %zu partition(s))\n", c1->info.name, parts);
    free(in);
    return rc;
}

int cmd_verify_seal(int argc, char **argv)
{
    static const struct option opts[] = {{"c1", required_argument, NULL, 'c'},
                                         {"proof", required_argument, NULL, 'p'},
                                         {"dev-key-dir", required_argument, NULL, 'd'},
                                         {"key", required_argument, NULL, 'k'},
                                         {"params-dir", required_argument, NULL, 'P'},
                                         {NULL, 0, NULL, 0}};
    const char *cmd = argv[0]; /* verify-seal or its alias verify-porep */
    const char *c1_path = NULL, *proof_path = NULL, *devdir = NULL, *key = NULL,
               *pdir = NULL;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'c': c1_path = optarg; break;
        case 'p': proof_path = optarg; break;
        case 'd': devdir = optarg; break;
        case 'k': key = optarg; break;
        case 'P': pdir = optarg; break;
        default:
            fprintf(stderr, "cuzk %s: unknown option or missing value: %s (try 'cuzk help "
                            "%s')\n", cmd, argv[optind - 1], cmd);
            return CUZK_EXIT_USAGE;
        }
    }
    if (!c1_path || !proof_path || (!!devdir + !!key + !!pdir) != 1 || optind != argc) {
        fprintf(stderr, "cuzk %s: needs --c1 FILE, --proof FILE and one of --params-dir DIR, "
                        "--dev-key-dir DIR or --key FILE\n", cmd);
        return CUZK_EXIT_USAGE;
    }
    cuzk_error err = {0};
    char *json = NULL, *proof = NULL;
    size_t json_len = 0, proof_len = 0;
    cuzk_c1_output *c1 = NULL;
    cuzk_groth16_vk vk = {0};
    int rc = CUZK_EXIT_FAIL;
    char keybuf[4096];
    if (cuzk_file_read_text(&json, &json_len, c1_path, (size_t)1 << 31, &err) ||
        cuzk_c1_parse(json, json_len, &c1, &err)) {
        fprintf(stderr, "cuzk %s: %s: %s\n", cmd, c1_path, err.msg);
        goto out;
    }
    if (cuzk_file_read_text(&proof, &proof_len, proof_path, (size_t)1 << 20, &err)) {
        fprintf(stderr, "cuzk %s: %s: %s\n", cmd, proof_path, err.msg);
        goto out;
    }
    if (devdir) {
        const char *tag = size_tag(c1->info.sector_size);
        if (!tag || snprintf(keybuf, sizeof keybuf, "%s/cuzk-DEV-UNTRUSTED-porep-%s.dev.params",
                             devdir, tag) >= (int)sizeof keybuf) {
            fprintf(stderr, "cuzk %s: no dev key name for %s\n", cmd, c1->info.name);
            goto out;
        }
        /* a key kept as its seed (cuzk/formats.h, SEED form) has its .vk beside the note */
        if (access(keybuf, R_OK) != 0 && strlen(keybuf) + sizeof CUZK_DEV_KEY_VK_SUFFIX <=
                                              sizeof keybuf) {
            strcat(keybuf, CUZK_DEV_KEY_VK_SUFFIX);
            if (access(keybuf, R_OK) != 0)
                keybuf[strlen(keybuf) - strlen(CUZK_DEV_KEY_VK_SUFFIX)] = 0;
        }
        key = keybuf;
    } else {
        /* a Filecoin key (or the user's own): its digest first, when a manifest is there */
        if (pdir && params_dir_key(cmd, pdir, c1->info.sector_size, keybuf, sizeof keybuf))
            goto out;
        if (pdir)
            key = keybuf;
        if (check_key_file(cmd, key) != CUZK_EXIT_OK)
            goto out;
    }
    if (load_vk_prefix(&vk, key, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk %s: %s\n", cmd, err.msg);
        goto out;
    }
    rc = verify_all(cmd, c1, (const uint8_t *)proof, proof_len, &vk);
out:
    cuzk_groth16_vk_free(&vk);
    cuzk_c1_free(c1);
    free(proof);
    free(json);
    return rc;
}
