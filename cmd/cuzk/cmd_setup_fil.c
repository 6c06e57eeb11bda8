/*
 * cmd_setup_fil.c — `cuzk setup --circuit ID --seed SEED [--param-dir DIR] [--csr-cache DIR]
 * [--devices SPEC] [--threads N]`: a DEV key for a Filecoin circuit, made from a seed and
 * written as Filecoin ships keys — <Filecoin's name>.params and .vk in the parameter
 * directory (FIL_PROOFS_PARAMETER_CACHE's layout) and their parameters.json entries with
 * the real BLAKE2b digests (cuzk_engine_write_fil_params). The files load exactly as the
 * official ones do (cuzkd's srs.param_cache, `cuzk seal-commit --params-dir`), so cold
 * loads, digests and key tiers can be measured at full size (a 32 GiB PoRep .params is
 * ~47 GB, streamed to disk once) without the download.
 *
 * NOT Filecoin's trusted setup: whoever knows the seed can forge proofs for the key; its
 * proofs never verify on chain. The command says so on every run, and the manifest's "cid"
 * says so too.
 *
 * Threading: an engine (its pool, its GPU for the setup's point multiplications); the
 * command itself runs on the main thread.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_args.h"
#include "commands.h"
#include "cuzk/engine.h"
#include "progress.h"

static void log_line(void *ctx, cuzk_log_level l, const char *m)
{
    (void)ctx;
    if (l <= CUZK_LOG_INFO)
        fprintf(stderr, "cuzk: %s\n", m);
}

/* 64 hex digits, or a decimal number N (the seed is N as 8 little-endian bytes, then
 * zeros: short seeds for scripts and tests). */
static bool parse_seed(const char *s, uint8_t seed[32])
{
    memset(seed, 0, 32);
    size_t n = strlen(s);
    if (n == 64) {
        for (size_t i = 0; i < 32; i++) {
            unsigned v;
            if (!isxdigit((unsigned char)s[2 * i]) || !isxdigit((unsigned char)s[2 * i + 1]) ||
                sscanf(s + 2 * i, "%2x", &v) != 1)
                return false;
            seed[i] = (uint8_t)v;
        }
        return true;
    }
    if (n == 0 || n > 19)
        return false;
    unsigned long long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return false;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    for (int i = 0; i < 8; i++)
        seed[i] = (uint8_t)(v >> (8 * i));
    return true;
}

int cmd_setup_fil(int argc, char **argv)
{
    static const struct option opts[] = {{"circuit", required_argument, NULL, 'c'},
                                         {"seed", required_argument, NULL, 's'},
                                         {"param-dir", required_argument, NULL, 'p'},
                                         {"csr-cache", required_argument, NULL, 'C'},
                                         {"devices", required_argument, NULL, 'd'},
                                         {"threads", required_argument, NULL, 't'},
                                         {NULL, 0, NULL, 0}};
    const char *id = NULL, *seed_s = NULL, *dir = NULL, *csr = NULL, *devices = NULL;
    unsigned threads = 0;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'c': id = optarg; break;
        case 's': seed_s = optarg; break;
        case 'p': dir = optarg; break;
        case 'C': csr = optarg; break;
        case 'd': devices = optarg; break;
        case 't':
            if (cli_parse_threads(optarg, &threads))
                break;
            fprintf(stderr, "cuzk setup: --threads needs a number from 0 (all CPUs) to 1024\n");
            return CUZK_EXIT_USAGE;
        default:
            fprintf(stderr, "cuzk setup: unknown option or missing value: %s (try 'cuzk "
                            "help setup')\n", argv[optind - 1]);
            return CUZK_EXIT_USAGE;
        }
    }
    uint8_t seed[32];
    if (optind != argc || !id || !seed_s) {
        fprintf(stderr, "cuzk setup: --circuit and --seed are required (try 'cuzk help "
                        "setup')\n");
        return CUZK_EXIT_USAGE;
    }
    if (!parse_seed(seed_s, seed)) {
        fprintf(stderr, "cuzk setup: --seed %s: want 64 hex digits or a decimal number\n",
                seed_s);
        return CUZK_EXIT_USAGE;
    }
    if (!dir)
        dir = getenv("FIL_PROOFS_PARAMETER_CACHE");
    if (!dir || !*dir)
        dir = "/var/tmp/filecoin-proof-parameters";
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "cuzk setup: --param-dir %s: not a directory\n", dir);
        return CUZK_EXIT_USAGE;
    }
    fprintf(stderr,
            "cuzk setup: *** a DEV key for %s from seed %s, in Filecoin's file format and "
            "names -- NOT Filecoin's trusted setup; anyone with the seed can forge its "
            "proofs, and they never verify on chain ***\n",
            id, seed_s);
    cuzk_engine_config cfg;
    cuzk_engine_config_default(&cfg);
    cfg.devices = devices;
    cfg.threads = threads;
    cfg.csr_cache_dir = csr;
    cfg.log = log_line;
    cuzk_engine *e = NULL;
    cuzk_error err = {0};
    if (cuzk_engine_create(&e, &cfg, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk setup: %s\n", err.msg);
        return CUZK_EXIT_FAIL;
    }
    cuzk_fil_params_written w;
    cuzk_status st = cuzk_engine_write_fil_params(e, id, seed, dir, &w, &err);
    cuzk_engine_destroy(e);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk setup: %s: %s\n", id, err.msg);
        return st == CUZK_ERR_NOT_FOUND || st == CUZK_ERR_INVALID_ARG ? CUZK_EXIT_USAGE
                                                                      : CUZK_EXIT_FAIL;
    }
    printf("%s %llu %s record_s=%.1f setup_s=%.1f write_s=%.1f\n", w.params_path,
           (unsigned long long)w.params_bytes, w.params_digest, w.record_s, w.setup_s,
           w.write_s);
    return CUZK_EXIT_OK;
}
