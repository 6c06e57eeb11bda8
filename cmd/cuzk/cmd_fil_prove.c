/*
 * cmd_fil_prove.c — local Filecoin proving, no daemon: the same engine and job kinds cuzkd
 * runs (cuzk/engine.h), on this machine's devices.
 *   cuzk seal-commit  --c1 FILE      (PoRep C2: a C1 output, filecoin-ffi JSON; the old
 *                                     name porep-prove is an alias)
 *   cuzk window-post  --vanilla FILE (the PoSt job document of cuzk/post.h)
 *   cuzk winning-post --vanilla FILE
 *   cuzk snap-prove   --vanilla FILE (the SnapDeals job document of cuzk/snap.h: registered
 *                                     update proof, comm_r_old / comm_r_new / comm_d_new, one
 *                                     vanilla proof per partition as filecoin-ffi's JSON or
 *                                     bincode)
 * with --params-dir DIR (Filecoin's .params, named as Filecoin names them), --out PROOF
 * (partitions x 192 bytes; written to a temporary beside it and renamed once verified, so
 * a failed job leaves no file and an old proof intact: cuzk/outfiles.h; the path is
 * checked before any work), and the dev-key fallback: without the .params in DIR a dev key
 * (cuzk's own setup, NOT Filecoin's trusted setup) is made once and cached in
 * --dev-key-dir (default $XDG_CACHE_HOME/cuzk/dev-keys or ~/.cache/cuzk/dev-keys);
 * --no-dev-key refuses instead. The recorded circuit is cached in --csr-cache (default
 * $XDG_CACHE_HOME/cuzk/csr or ~/.cache/cuzk/csr) and memory-mapped on later runs.
 * Every proof is verified by the engine before it is written.
 * The engine checks Filecoin's .params (and .vk) against DIR/parameters.json's digests
 * before it uses them (cuzk/param_digest.h); its log lines say so, or that no
 * parameters.json was there to check against.
 * Threading: main thread; the engine runs its own threads.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "cuzk/engine.h"
#include "cuzk/formats.h"
#include "outputs.h"

static int g_dev_key_used;

static void log_line(void *ctx, cuzk_log_level l, const char *m)
{
    (void)ctx;
    if (strstr(m, "DEV KEY"))
        g_dev_key_used = 1;
    if (l <= CUZK_LOG_INFO)
        fprintf(stderr, "cuzk: %s\n", m);
}

static void mkdirs(const char *path)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0755);
            *s = '/';
        }
    mkdir(p, 0755);
}

static const struct {
    const char *cmd, *input;
    cuzk_proof_kind kind;
} k_cmds[] = {
    {"seal-commit", "c1", CUZK_PROOF_POREP_SEAL_COMMIT},
    {"window-post", "vanilla", CUZK_PROOF_WINDOW_POST_PARTITION},
    {"winning-post", "vanilla", CUZK_PROOF_WINNING_POST},
    {"snap-prove", "vanilla", CUZK_PROOF_SNAP_DEALS_UPDATE},
};

static const char *const k_what[] = {"PoRep C2 (seal commit)", "WindowPoSt", "WinningPoSt",
                                     "SnapDeals (sector update)"};
static const char *const k_input[] = {
    "the C1 output (filecoin-ffi JSON, or curio's base64 wrapper)",
    "the PoSt job document (registered proof, randomness, vanilla proofs)",
    "the PoSt job document (registered proof, randomness, vanilla proofs)",
    /* parenthesised: one string on two lines, not two entries missing a comma (clang's
     * -Wstring-concatenation) */
    ("the SnapDeals job document (registered update proof, comm_r_old,\n"
     "                    comm_r_new, comm_d_new, one vanilla proof per partition)")};

static void usage_of(FILE *out, int i)
{
    fprintf(out,
            "usage: cuzk %s --%s FILE --out PROOF [--params-dir DIR] [--dev-key-dir DIR]\n"
            "       [--no-dev-key] [--csr-cache DIR] [--devices SPEC] [--threads N]\n"
            "%s locally with the engine cuzkd uses; writes partitions x 192 bytes to PROOF.\n"
            "  --%s FILE        %s\n"
            "  --params-dir DIR  Filecoin's .params (default $FIL_PROOFS_PARAMETER_CACHE, else\n"
            "                    /var/tmp/filecoin-proof-parameters)\n"
            "  --dev-key-dir DIR without the .params: a DEV key (NOT Filecoin's trusted setup;\n"
            "                    proofs that never verify on chain) made once and cached here\n"
            "                    (default ~/.cache/cuzk/dev-keys); --no-dev-key refuses instead\n"
            "  --csr-cache DIR   the recorded circuit is cached here (<circuit>.csr) and mapped\n"
            "                    on later runs (default ~/.cache/cuzk/csr)\n"
            "  --devices SPEC    cpu | gpu:0 | auto (default auto); --threads N CPU threads\n",
            k_cmds[i].cmd, k_cmds[i].input,
            k_what[i], k_cmds[i].input, k_input[i]);
}

void cmd_seal_commit_usage(FILE *out) { usage_of(out, 0); }
void cmd_window_post_usage(FILE *out) { usage_of(out, 1); }
void cmd_winning_post_usage(FILE *out) { usage_of(out, 2); }
void cmd_snap_prove_usage(FILE *out) { usage_of(out, 3); }

static int run_kind(int i, int argc, char **argv)
{
    const char *cmd = k_cmds[i].cmd;
    static const struct option opts[] = {
        {"c1", required_argument, NULL, 'i'},          {"vanilla", required_argument, NULL, 'i'},
        {"out", required_argument, NULL, 'o'},         {"params-dir", required_argument, NULL, 'p'},
        {"dev-key-dir", required_argument, NULL, 'd'}, {"no-dev-key", no_argument, NULL, 'n'},
        {"devices", required_argument, NULL, 'D'},     {"threads", required_argument, NULL, 't'},
        {"csr-cache", required_argument, NULL, 'C'},   {NULL, 0, NULL, 0}};
    const char *in = NULL, *out = NULL, *params = NULL, *devdir = NULL, *devices = NULL;
    const char *csrdir = NULL;
    int no_dev = 0, idx = 0, c;
    unsigned threads = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, &idx)) != -1) {
        switch (c) {
        case 'i':
            if (strcmp(opts[idx].name, k_cmds[i].input) != 0) {
                fprintf(stderr, "cuzk %s: the input is --%s\n", cmd, k_cmds[i].input);
                return CUZK_EXIT_USAGE;
            }
            in = optarg;
            break;
        case 'o': out = optarg; break;
        case 'p': params = optarg; break;
        case 'd': devdir = optarg; break;
        case 'n': no_dev = 1; break;
        case 'D': devices = optarg; break;
        case 'C': csrdir = optarg; break;
        case 't': threads = (unsigned)strtoul(optarg, NULL, 10); break;
        default:
            fprintf(stderr, "cuzk %s: unknown option or missing value: %s (try 'cuzk help %s')\n",
                    cmd, argv[optind - 1], cmd);
            return CUZK_EXIT_USAGE;
        }
    }
    if (!in || !out || optind != argc) {
        fprintf(stderr, "cuzk %s: needs --%s FILE and --out PROOF (try 'cuzk help %s')\n", cmd,
                k_cmds[i].input, cmd);
        return CUZK_EXIT_USAGE;
    }
    if (!params)
        params = getenv("FIL_PROOFS_PARAMETER_CACHE");
    if (!params || !*params)
        params = "/var/tmp/filecoin-proof-parameters";
    char devbuf[4096];
    if (!devdir && !no_dev) {
        const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
        if (xdg && *xdg)
            snprintf(devbuf, sizeof devbuf, "%s/cuzk/dev-keys", xdg);
        else
            snprintf(devbuf, sizeof devbuf, "%s/.cache/cuzk/dev-keys", home ? home : "/tmp");
        devdir = devbuf;
    }
    if (no_dev)
        devdir = NULL;
    char csrbuf[4096];
    if (!csrdir) {
        const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
        if (xdg && *xdg)
            snprintf(csrbuf, sizeof csrbuf, "%s/cuzk/csr", xdg);
        else
            snprintf(csrbuf, sizeof csrbuf, "%s/.cache/cuzk/csr", home ? home : "/tmp");
        csrdir = csrbuf;
    }
    mkdirs(csrdir);
    if (devdir)
        mkdirs(devdir);

    /* the output path is judged before a minute of proving (an input, a directory, ...) */
    cuzk_outfiles *set = NULL;
    const char *ins[] = {in}, *outs[] = {out};
    int rc = cli_outputs_begin(cmd, &set, ins, 1, outs, 1);
    if (rc != CUZK_EXIT_OK)
        return rc;
    rc = CUZK_EXIT_FAIL;
    char *data = NULL;
    size_t len = 0;
    cuzk_error err = {0};
    if (cuzk_file_read_text(&data, &len, in, (size_t)1 << 31, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk %s: %s: %s\n", cmd, in, err.msg);
        cli_outputs_end(set);
        return CUZK_EXIT_FAIL;
    }
    cuzk_engine_config cfg;
    cuzk_engine_config_default(&cfg);
    cfg.devices = devices;
    cfg.threads = threads;
    cfg.param_dir = params;
    cfg.dev_key_dir = devdir;
    cfg.csr_cache_dir = csrdir;
    cfg.log = log_line;
    cfg.workers_per_device = 1;
    cuzk_engine *e = NULL;
    if (cuzk_engine_create(&e, &cfg, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk %s: %s\n", cmd, err.msg);
        cli_outputs_end(set);
        free(data);
        return CUZK_EXIT_FAIL;
    }
    cuzk_job_request r = {0};
    r.kind = k_cmds[i].kind;
    r.vanilla_proof = (cuzk_bytes){(const uint8_t *)data, len};
    cuzk_job_ticket t;
    cuzk_job_result res = {0};
    if (cuzk_engine_submit(e, &r, &t, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk %s: %s: %s\n", cmd, in, err.msg);
    } else if (cuzk_engine_await(e, t.job_id, 0, &res, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk %s: %s\n", cmd, err.msg);
    } else if (res.state != CUZK_JOB_COMPLETED) {
        fprintf(stderr, "cuzk %s: %s: %s\n", cmd, cuzk_job_state_name(res.state), res.error);
    } else if (cuzk_outfiles_write(set, 0, res.proof, res.proof_len, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk %s: %s: %s\n", cmd, out, err.msg);
    } else if (cli_outputs_commit(cmd, set) != CUZK_EXIT_OK) {
        /* message printed */
    } else {
        printf("%s: %u partition(s), %zu bytes, verified, written to %s "
               "(synthesis %.1f s, prove %.1f s, key %.1f s)\n",
               cmd, res.partitions, res.proof_len, out, res.t.synthesis_ms / 1e3,
               res.t.gpu_compute_ms / 1e3, res.t.srs_load_ms / 1e3);
        rc = CUZK_EXIT_OK;
    }
    if (g_dev_key_used)
        fprintf(stderr,
                "\n*** WARNING: proved with a DEV KEY made by cuzk (cached in %s), NOT "
                "Filecoin's\n*** trusted setup: this proof verifies only against that dev key, "
                "never on chain.\n*** Put Filecoin's .params in --params-dir for real "
                "proofs.\n\n",
                devdir);
    cuzk_job_result_free(&res);
    cuzk_engine_destroy(e);
    cli_outputs_end(set);
    free(data);
    return rc;
}

int cmd_seal_commit(int argc, char **argv) { return run_kind(0, argc, argv); }
int cmd_window_post(int argc, char **argv) { return run_kind(1, argc, argv); }
int cmd_winning_post(int argc, char **argv) { return run_kind(2, argc, argv); }
int cmd_snap_prove(int argc, char **argv) { return run_kind(3, argc, argv); }
