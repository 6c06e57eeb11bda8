/*
 * cmd_gen_vanilla.c — SYNTHETIC TEST DATA for the PoSt and SnapDeals provers:
 *   cuzk gen-vanilla --kind window-post|winning-post|snap --sector-size S [--seed N]
 *                    [--sectors N] [--partition K] [--form bincode|json] [--threads N]
 *                    [--no-check] --out FILE [--public FILE]
 * writes a consistent job document (cuzk_post_job_synth / cuzk_snap_job_synth, then
 * cuzk_post_job_write / cuzk_snap_job_write): what `cuzk window-post | winning-post |
 * snap-prove --vanilla FILE` and cuzkd (`cuzk remote-prove --kind K --vanilla FILE`) take.
 * Before writing, the document goes through the check the provers apply to every job
 * (cuzk_post_partition_check / cuzk_snap_partition_check, over the pool: slices of a
 * WindowPoSt partition, SnapDeals partitions); --no-check skips it. --public
 * writes the public inputs a verifier derives from the document (cuzk_post_public_inputs /
 * cuzk_snap_public_inputs) as snarkjs's public.json, for `cuzk verify` of a one-partition
 * proof. The outputs are judged before any work and written all or nothing (outputs.h).
 * Threading: main thread; generation spreads over a pool of --threads.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <errno.h>
#include <getopt.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli_args.h"
#include "commands.h"
#include "cuzk/formats.h"
#include "cuzk/vanilla_synth.h"
#include "outputs.h"

#define CMD "gen-vanilla"

void cmd_gen_vanilla_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk gen-vanilla --kind KIND --sector-size SIZE [--seed N] [--sectors N]\n"
            "                        [--partition K] [--form bincode|json] [--threads N]\n"
            "                        [--no-check] --out FILE [--public FILE]\n"
            "*** SYNTHETIC TEST DATA, NOT PROOFS OF ANY STORED SECTOR ***\n"
            "writes a PoSt or SnapDeals job document (the --vanilla input of window-post,\n"
            "winning-post, snap-prove and of cuzkd's jobs) that is consistent: challenges as\n"
            "the verifier derives them, Merkle paths that reach their roots, comm_r =\n"
            "H(comm_c, comm_r_last), SnapDeals' new replica = old + data * rho. It passes the\n"
            "provers' checks and its proofs verify, but it encodes no data: a proof of it\n"
            "proves nothing about any storage. For end-to-end runs, benchmarks and tests of\n"
            "the provers at any sector size (only the challenged paths are built, so 32 GiB\n"
            "takes seconds).\n"
            "  --kind KIND         window-post (one partition), winning-post, or snap (every\n"
            "                      partition of the sector update)\n"
            "  --sector-size SIZE  2KiB, 8MiB, 512MiB, 32GiB or 64GiB\n"
            "  --seed N            reproducible output, decimal or 0x hex (default 1)\n"
            "  --sectors N         window-post: sector proofs in the partition (default a full\n"
            "                      partition: 2349 at 32GiB, 2300 at 64GiB, 2 below)\n"
            "  --partition K       window-post: the partition index (default 0)\n"
            "  --form FORM         bincode: each vanilla proof as base64 of its bincode bytes,\n"
            "                      as lotus and curio send them (default; ~2.5x smaller and\n"
            "                      much cheaper to parse), or json: serde_json objects\n"
            "  --threads N         generation threads (default: all CPUs)\n"
            "  --no-check          skip the provers' check before writing\n"
            "  --public FILE       also write the public inputs a verifier derives, as\n"
            "                      snarkjs's public.json (for `cuzk verify --vk VK --public FILE\n"
            "                      --proof PROOF`; one-partition documents: PoSt, 2KiB snap)\n");
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int bad_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "cuzk " CMD ": ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (try 'cuzk help " CMD "')\n");
    return CUZK_EXIT_USAGE;
}

typedef enum { K_WINDOW, K_WINNING, K_SNAP } kind;

typedef struct opts {
    kind kind;
    uint64_t size, seed, sectors, partition;
    unsigned threads;
    cuzk_vanilla_form form;
    bool check;
    const char *out, *size_arg, *pub;
} opts;

static int parse(int argc, char **argv, opts *o)
{
    static const struct option lo[] = {
        {"kind", required_argument, NULL, 'k'},      {"sector-size", required_argument, NULL, 's'},
        {"seed", required_argument, NULL, 'S'},      {"sectors", required_argument, NULL, 'n'},
        {"partition", required_argument, NULL, 'p'}, {"form", required_argument, NULL, 'f'},
        {"threads", required_argument, NULL, 't'},   {"no-check", no_argument, NULL, 'C'},
        {"out", required_argument, NULL, 'o'},       {"public", required_argument, NULL, 'P'},
        {NULL, 0, NULL, 0}};
    const char *kind_arg = NULL;
    uint64_t v = 0;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (c) {
        case 'k': kind_arg = optarg; break;
        case 's': o->size_arg = optarg; break;
        case 'o': o->out = optarg; break;
        case 'P': o->pub = optarg; break;
        case 'C': o->check = false; break;
        case 'S':
            if (!cli_parse_u64(optarg, &o->seed))
                return bad_usage("--seed %s: not a decimal or 0x hex 64-bit number", optarg);
            break;
        case 'n':
            if (!cli_parse_u64(optarg, &o->sectors) || !o->sectors)
                return bad_usage("--sectors %s: not a positive number", optarg);
            break;
        case 'p':
            if (!cli_parse_u64(optarg, &o->partition) || o->partition > UINT32_MAX)
                return bad_usage("--partition %s: not a partition index", optarg);
            break;
        case 't':
            if (!cli_parse_u64(optarg, &v) || !v || v > CUZK_POOL_MAX_THREADS)
                return bad_usage("--threads %s: not a thread count", optarg);
            o->threads = (unsigned)v;
            break;
        case 'f':
            if (strcmp(optarg, "bincode") == 0)
                o->form = CUZK_VANILLA_BINCODE;
            else if (strcmp(optarg, "json") == 0)
                o->form = CUZK_VANILLA_JSON;
            else
                return bad_usage("--form %s: not bincode or json", optarg);
            break;
        default:
            return bad_usage("unknown option or missing value: %s", argv[optind - 1]);
        }
    }
    if (!kind_arg || !o->size_arg || !o->out || optind != argc) {
        fprintf(stderr, "cuzk " CMD ": needs --kind KIND, --sector-size SIZE and --out FILE\n");
        return CUZK_EXIT_USAGE;
    }
    if (strcmp(kind_arg, "window-post") == 0)
        o->kind = K_WINDOW;
    else if (strcmp(kind_arg, "winning-post") == 0)
        o->kind = K_WINNING;
    else if (strcmp(kind_arg, "snap") == 0 || strcmp(kind_arg, "snap-deals") == 0)
        o->kind = K_SNAP;
    else
        return bad_usage("--kind %s: not window-post, winning-post or snap", kind_arg);
    if (!cli_parse_size(o->size_arg, &o->size))
        return bad_usage("--sector-size %s: not 2KiB, 8MiB, 512MiB, 32GiB or 64GiB",
                         o->size_arg);
    if (o->kind != K_WINDOW && (o->sectors || o->partition))
        return bad_usage("%s: --sectors and --partition are for window-post", kind_arg);
    return CUZK_EXIT_OK;
}

static const char *human(double bytes, char *buf, size_t cap)
{
    static const char *const u[] = {"B", "KiB", "MiB", "GiB"};
    int i = 0;
    while (bytes >= 1024 && i < 3) {
        bytes /= 1024;
        i++;
    }
    snprintf(buf, cap, i ? "%.1f %s" : "%.0f %s", bytes, u[i]);
    return buf;
}

/* ---- the provers' check, spread over the pool ----------------------------------------- */

typedef struct snap_check_ctx {
    const cuzk_snap_job *job;
    cuzk_status *st;
    cuzk_error *err;
} snap_check_ctx;

static void snap_check_range(void *arg, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    snap_check_ctx *c = arg;
    for (size_t k = begin; k < end; k++) {
        cuzk_snap_partition p = cuzk_snap_job_partition(c->job, (uint32_t)k);
        c->st[k] = cuzk_snap_partition_check(&p, &c->err[k]);
    }
}

/* every partition, the first failure's message */
static cuzk_status snap_check(const cuzk_snap_job *job, cuzk_pool *pool, cuzk_error *err)
{
    uint32_t n = job->n_partitions;
    cuzk_status *st = calloc(n, sizeof *st);
    cuzk_error *e = calloc(n, sizeof *e);
    cuzk_status r = CUZK_OK;
    if (!st || !e)
        r = cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    snap_check_ctx c = {job, st, e};
    if (r == CUZK_OK && cuzk_pool_for(pool, n, snap_check_range, &c, 1) != CUZK_OK)
        r = cuzk_error_set(err, CUZK_ERR_INTERNAL, "SnapDeals check: the pool failed");
    for (uint32_t k = 0; r == CUZK_OK && k < n; k++)
        if (st[k] != CUZK_OK) {
            r = st[k];
            if (err)
                *err = e[k];
        }
    free(st);
    free(e);
    return r;
}

/* Generates, checks and writes the document into f; fills the summary line and, with
 * --public, *pub: the public inputs of the document's (one) partition as public.json text
 * (malloc'd). */
static cuzk_status run(const opts *o, cuzk_pool *pool, FILE *f, char **pub, char *summary,
                       size_t cap, double t[3], cuzk_error *err)
{
    cuzk_status st;
    double t0 = now_s();
    if (o->kind == K_SNAP) {
        cuzk_snap_info in;
        cuzk_snap_job *job = NULL;
        if ((st = cuzk_snap_info_get(o->size, CUZK_SNAP_MAIN, &in, err)) ||
            (st = cuzk_snap_job_synth(&in, 0, o->seed, pool, &job, err)))
            return st;
        t[0] = now_s() - t0;
        if (o->check)
            st = snap_check(job, pool, err);
        t[1] = now_s() - t0 - t[0];
        if (!st)
            st = cuzk_snap_job_write(job, o->form, f, err);
        if (!st && o->pub) {
            cuzk_fr x[4];
            cuzk_snap_partition p = cuzk_snap_job_partition(job, 0);
            if (!(st = cuzk_snap_public_inputs(&p, x, err)))
                st = cuzk_frs_to_snarkjs_json(pub, x, 4, err);
        }
        snprintf(summary, cap, "%s, %u partition(s) x %u challenges, h %u", in.name,
                 job->n_partitions, in.challenges, job->h);
        cuzk_snap_job_free(job);
    } else {
        cuzk_post_info in;
        cuzk_post_job *job = NULL;
        cuzk_post_kind pk = o->kind == K_WINNING ? CUZK_POST_WINNING : CUZK_POST_WINDOW;
        if ((st = cuzk_post_info_get(pk, o->size, &in, err)))
            return st;
        /* sector ids 1, 2, ... over the whole sector list: partition k starts at k*sectors+1 */
        cuzk_post_synth_opts so = {(uint32_t)o->partition, (uint32_t)o->sectors,
                                   o->partition * in.sectors + 1, 1};
        if ((st = cuzk_post_job_synth(&in, &so, o->seed, pool, &job, err)))
            return st;
        t[0] = now_s() - t0;
        cuzk_post_partition p = cuzk_post_job_partition(job);
        if (o->check)
            st = cuzk_post_job_check(job, pool, err);
        t[1] = now_s() - t0 - t[0];
        if (!st)
            st = cuzk_post_job_write(job, o->form, f, err);
        size_t n = cuzk_post_info_n_inputs(&in);
        cuzk_fr *x = !st && o->pub ? malloc(n * sizeof *x) : NULL;
        if (!st && o->pub && !x)
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
        if (x && !(st = cuzk_post_public_inputs(&p, job->randomness, x, n, err)))
            st = cuzk_frs_to_snarkjs_json(pub, x, n, err);
        free(x);
        snprintf(summary, cap, "%s, partition %u, %u sector(s) x %u challenges", in.name,
                 job->partition_index, job->n_sectors, in.vanilla_challenges);
        cuzk_post_job_free(job);
    }
    t[2] = now_s() - t0 - t[0] - t[1];
    return st;
}

int cmd_gen_vanilla(int argc, char **argv)
{
    opts o = {.seed = 1, .form = CUZK_VANILLA_BINCODE, .check = true};
    int rc = parse(argc, argv, &o);
    if (rc != CUZK_EXIT_OK)
        return rc;
    /* a size no kind has is a bad command line, found before any work */
    cuzk_post_info pi;
    cuzk_snap_info si;
    if (o.kind == K_SNAP ? cuzk_snap_info_get(o.size, CUZK_SNAP_MAIN, &si, NULL) ||
                               cuzk_snap_info_from_name(si.name, &si, NULL)
                         : cuzk_post_info_get(o.kind == K_WINNING ? CUZK_POST_WINNING
                                                                  : CUZK_POST_WINDOW,
                                              o.size, &pi, NULL))
        return bad_usage("--sector-size %s: not 2KiB, 8MiB, 512MiB, 32GiB or 64GiB",
                         o.size_arg);
    if (o.pub && o.kind == K_SNAP && si.partitions != 1) {
        fprintf(stderr, "cuzk " CMD ": --public: %s has %u partitions; public.json holds one "
                        "partition's inputs (2KiB SnapDeals has one)\n", si.name, si.partitions);
        return CUZK_EXIT_USAGE;
    }
    if (o.kind == K_WINDOW && o.sectors > pi.sectors) {
        fprintf(stderr, "cuzk " CMD ": --sectors %llu: a %s partition has 1..%u sectors\n",
                (unsigned long long)o.sectors, pi.name, pi.sectors);
        return CUZK_EXIT_USAGE;
    }
    cuzk_outfiles *set = NULL;
    const char *outs[] = {o.out, o.pub};
    if ((rc = cli_outputs_begin(CMD, &set, NULL, 0, outs, 2)) != CUZK_EXIT_OK)
        return rc;
    rc = CUZK_EXIT_FAIL;
    cuzk_error err = {0};
    cuzk_pool *pool = NULL;
    const char *tmp = NULL;
    FILE *f = NULL;
    char summary[200] = "", *pub = NULL;
    double t[3] = {0, 0, 0};
    if (cuzk_pool_create(&pool, o.threads) != CUZK_OK) {
        fprintf(stderr, "cuzk " CMD ": cannot start %u threads\n", o.threads);
        goto out;
    }
    if (cuzk_outfiles_temp_path(set, 0, &tmp, &err) != CUZK_OK) {
        fprintf(stderr, "cuzk " CMD ": %s\n", err.msg);
        goto out;
    }
    if (!(f = fopen(tmp, "w"))) {
        fprintf(stderr, "cuzk " CMD ": %s: %s\n", o.out, strerror(errno));
        goto out;
    }
    cuzk_status st = run(&o, pool, f, &pub, summary, sizeof summary, t, &err);
    int close_err = fclose(f);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk " CMD ": %s\n", err.msg);
        goto out;
    }
    if (close_err) {
        fprintf(stderr, "cuzk " CMD ": %s: %s\n", o.out, strerror(errno));
        goto out;
    }
    if (pub && cuzk_outfiles_write(set, 1, pub, strlen(pub), &err) != CUZK_OK) {
        fprintf(stderr, "cuzk " CMD ": %s: %s\n", o.pub, err.msg);
        goto out;
    }
    if ((rc = cli_outputs_commit(CMD, set)) != CUZK_EXIT_OK)
        goto out;
    struct stat sb;
    char hb[32];
    fprintf(stderr, "cuzk " CMD ": SYNTHETIC TEST DATA (no stored sector behind it)\n");
    printf("%s: %s, seed 0x%llx, %s, %s (generated %.2f s on %u thread(s), %s %.2f s, "
           "written %.2f s)\n",
           o.out, summary, (unsigned long long)o.seed,
           o.form == CUZK_VANILLA_BINCODE ? "bincode" : "json",
           stat(o.out, &sb) == 0 ? human((double)sb.st_size, hb, sizeof hb) : "?", t[0],
           cuzk_pool_nthreads(pool), o.check ? "checked" : "check skipped", t[1], t[2]);
    rc = CUZK_EXIT_OK;
out:
    free(pub);
    cuzk_pool_destroy(pool);
    cli_outputs_end(set);
    return rc;
}
