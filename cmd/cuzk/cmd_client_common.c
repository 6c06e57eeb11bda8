/*
 * cmd_client_common.c — shared parts of the `cuzk` client commands (client_common.h).
 * Threading: main thread only.
 */
#define _GNU_SOURCE /* realpath */

#ifdef CUZK_HAVE_GRPC

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client_common.h"
#include "commands.h"
#include "cuzk/outfiles.h"
#include "outputs.h"
#include "util/util_export.h"

void cli_conn_opts_init(cli_conn_opts *o)
{
    const char *env = getenv("CUZK_ADDR");
    o->addr = env && env[0] ? env : CLI_DEFAULT_ADDR;
    o->timeout_ms = 0;
    env = getenv("CUZK_TOKEN");
    o->token = env && env[0] ? env : NULL;
}

static int parse_u64(const char *s, uint64_t *v)
{
    if (!s[0] || strspn(s, "0123456789") != strlen(s))
        return 0;
    errno = 0;
    unsigned long long x = strtoull(s, NULL, 10);
    if (errno)
        return 0;
    *v = x;
    return 1;
}

int cli_conn_opt(cli_conn_opts *o, int opt, const char *arg)
{
    uint64_t v;
    switch (opt) {
    case 'a': o->addr = arg; return 1;
    case 'K': o->token = arg[0] ? arg : NULL; return 1;
    case 'T':
        if (!parse_u64(arg, &v) || v > (uint64_t)INT64_MAX / 1000000) {
            fprintf(stderr, "cuzk: --timeout needs milliseconds\n");
            return -1;
        }
        o->timeout_ms = (int64_t)v;
        return 1;
    default: return 0;
    }
}

int cli_call(const char *cmd, const cli_conn_opts *o, const char *method,
             const ProtobufCMessage *m, const ProtobufCMessageDescriptor *desc, void **out)
{
    *out = NULL;
    cuzk_client *c;
    cuzk_error e = {0};
    if (cuzk_client_connect(o->addr, &c, &e) != CUZK_OK) {
        fprintf(stderr, "cuzk %s: cannot reach cuzkd: %s\n", cmd, e.msg);
        return CUZK_EXIT_FAIL;
    }
    if (cuzk_client_set_token(c, o->token, &e) != CUZK_OK) {
        cuzk_client_close(c);
        fprintf(stderr, "cuzk %s: --token: %s\n", cmd, e.msg);
        return CUZK_EXIT_USAGE;
    }
    size_t n = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) {
        cuzk_client_close(c);
        fprintf(stderr, "cuzk %s: out of memory\n", cmd);
        return CUZK_EXIT_FAIL;
    }
    protobuf_c_message_pack(m, buf);
    cuzk_client_reply r;
    cuzk_status st = cuzk_client_call(c, method, buf, n, o->timeout_ms, &r, &e);
    free(buf);
    cuzk_client_close(c);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk %s: %s: %s\n", cmd, method, e.msg);
        return CUZK_EXIT_FAIL;
    }
    int rc = CUZK_EXIT_OK;
    if (r.grpc_status != 0) {
        fprintf(stderr, "cuzk %s: %s: %s: %s\n", cmd, method,
                cuzk_grpc_status_name(r.grpc_status),
                r.grpc_message ? r.grpc_message : "(no message)");
        rc = CUZK_EXIT_FAIL;
    } else if (!(*out = protobuf_c_message_unpack(desc, NULL, r.len, r.body))) {
        fprintf(stderr, "cuzk %s: %s: malformed reply\n", cmd, method);
        rc = CUZK_EXIT_FAIL;
    }
    cuzk_client_reply_free(&r);
    return rc;
}

void cli_job_init(cli_job *j)
{
    memset(j, 0, sizeof *j);
    cuzk__v1__submit_proof_request__init(&j->req);
    j->req.synthetic_partitions = 1;
}

static const struct {
    const char *name;
    int value;
} k_kinds[] = {{"porep", 1}, {"snap", 2}, {"wpost", 3}, {"winning", 4},
               {"window-post", 3}, {"winning-post", 4},
               {"groth16", 100}, {"synthetic", 101}},
  k_prios[] = {{"low", 1}, {"normal", 2}, {"high", 3}, {"critical", 4}};

static int lookup(const char *cmd, const char *what, const char *arg, int *out, int which)
{
    size_t n = which ? sizeof k_prios / sizeof k_prios[0] : sizeof k_kinds / sizeof k_kinds[0];
    for (size_t i = 0; i < n; i++) {
        const char *name = which ? k_prios[i].name : k_kinds[i].name;
        if (strcmp(arg, name) == 0) {
            *out = which ? k_prios[i].value : k_kinds[i].value;
            return 1;
        }
    }
    fprintf(stderr, "cuzk %s: unknown %s '%s'\n", cmd, what, arg);
    return -1;
}

int cli_job_opt(const char *cmd, cli_job *j, int opt, const char *arg)
{
    uint64_t v = 0;
    int k;
    int numeric = (opt >= 1000 && opt <= 1002) || (opt >= 1013 && opt <= 1015);
    if (numeric && !parse_u64(arg, &v)) {
        fprintf(stderr, "cuzk %s: '%s' is not a number\n", cmd, arg);
        return -1;
    }
    /* a size as every other command takes it (util/size.h): 32GiB, 2048, 2 KiB */
    if (opt == 1012 && !cuzk_parse_size(arg, &v)) {
        fprintf(stderr, "cuzk %s: --sector-size '%s' is not a size (2KiB, 32GiB, 64GiB or "
                        "bytes)\n", cmd, arg);
        return -1;
    }
    switch (opt) {
    case 1000:
        j->has_synthetic = 1;
        j->req.synthetic_log2n = (uint32_t)v;
        return 1;
    case 1001: j->req.synthetic_partitions = (uint32_t)v; return 1;
    case 1002: j->req.synthetic_seed = v; return 1;
    case 1003: j->zkey = arg; return 1;
    case 1004: j->params = arg; return 1;
    case 1005: j->r1cs = arg; return 1;
    case 1006: j->wtns = arg; return 1;
    case 1007: j->send_files = 1; return 1;
    case 1008:
        if (lookup(cmd, "kind", arg, &k, 0) < 0)
            return -1;
        j->req.proof_kind = (Cuzk__V1__ProofKind)k;
        return 1;
    case 1009: j->vanilla = arg; return 1;
    case 1010:
        if (lookup(cmd, "priority", arg, &k, 1) < 0)
            return -1;
        j->req.priority = (Cuzk__V1__Priority)k;
        return 1;
    case 1011: j->req.request_id = (char *)arg; return 1;
    case 1012: j->req.sector_size = v; return 1;
    case 1013: j->req.registered_proof = v; return 1;
    case 1014: j->req.sector_number = v; return 1;
    case 1015: j->req.miner_id = v; return 1;
    default: return 0;
    }
}

/* Reads a whole file (at most 256 MiB, the message limit) into j->buffers. Regular files
 * only, opened non-blocking: a FIFO would hold the command in open() until a writer came. */
static int slurp(const char *cmd, cli_job *j, const char *path, ProtobufCBinaryData *out)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        fprintf(stderr, "cuzk %s: %s: %s\n", cmd, path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return CUZK_EXIT_FAIL;
    }
    if (!S_ISREG(sb.st_mode)) {
        fprintf(stderr, "cuzk %s: %s: not a regular file\n", cmd, path);
        close(fd);
        return CUZK_EXIT_FAIL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        fprintf(stderr, "cuzk %s: %s: %s\n", cmd, path, strerror(errno));
        close(fd);
        return CUZK_EXIT_FAIL;
    }
    size_t cap = 1 << 20, len = 0, k;
    uint8_t *buf = malloc(cap);
    while (buf && (k = fread(buf + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap) {
            uint8_t *nb = cap < (256u << 20) ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    int bad = !buf || ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        fprintf(stderr, "cuzk %s: %s: unreadable or larger than 256 MiB\n", cmd, path);
        return CUZK_EXIT_FAIL;
    }
    for (size_t i = 0; i < sizeof j->buffers / sizeof j->buffers[0]; i++)
        if (!j->buffers[i]) {
            j->buffers[i] = buf;
            break;
        }
    out->data = buf;
    out->len = len;
    return CUZK_EXIT_OK;
}

/* The daemon resolves paths itself, from its own working directory. */
static int absolute(const char *cmd, const char *path, char **out)
{
    char *p = realpath(path, NULL);
    if (!p) {
        fprintf(stderr, "cuzk %s: %s: %s\n", cmd, path, strerror(errno));
        return CUZK_EXIT_FAIL;
    }
    *out = p;
    return CUZK_EXIT_OK;
}

int cli_job_finish(const char *cmd, cli_job *j)
{
    int circuit = j->zkey || j->params || j->wtns || j->r1cs;
    int kinds = j->has_synthetic + circuit + (j->req.proof_kind != 0 && !j->has_synthetic &&
                                              !circuit);
    if (kinds != 1) {
        fprintf(stderr, "cuzk %s: give one job: --synthetic, --zkey/--params with --wtns, or "
                        "--kind with --vanilla (try 'cuzk help %s')\n", cmd, cmd);
        return CUZK_EXIT_USAGE;
    }
    Cuzk__V1__SubmitProofRequest *r = &j->req;
    if (j->has_synthetic) {
        r->proof_kind = CUZK__V1__PROOF_KIND__SYNTHETIC;
        return CUZK_EXIT_OK;
    }
    if (!circuit) {
        if (!j->vanilla) {
            fprintf(stderr, "cuzk %s: --kind needs --vanilla FILE\n", cmd);
            return CUZK_EXIT_USAGE;
        }
        return slurp(cmd, j, j->vanilla, &r->vanilla_proof);
    }
    if (!j->wtns || (j->zkey && j->params) || (!j->zkey && !j->params) ||
        (j->params && !j->r1cs)) {
        fprintf(stderr, "cuzk %s: a circuit job is --zkey F --wtns F [--r1cs F] or --params F "
                        "--r1cs F --wtns F\n", cmd);
        return CUZK_EXIT_USAGE;
    }
    r->proof_kind = CUZK__V1__PROOF_KIND__GROTH16;
    const char *paths[4] = {j->zkey, j->params, j->r1cs, j->wtns};
    ProtobufCBinaryData *bytes[4] = {&r->zkey, &r->params, &r->r1cs, &r->wtns};
    char **strs[4] = {&r->zkey_path, &r->params_path, &r->r1cs_path, &r->wtns_path};
    for (int i = 0; i < 4; i++) {
        if (!paths[i])
            continue;
        int rc = j->send_files ? slurp(cmd, j, paths[i], bytes[i]) : absolute(cmd, paths[i], strs[i]);
        if (rc != CUZK_EXIT_OK)
            return rc;
    }
    return CUZK_EXIT_OK;
}

void cli_job_free(cli_job *j)
{
    for (size_t i = 0; i < sizeof j->buffers / sizeof j->buffers[0]; i++)
        free(j->buffers[i]);
    char *strs[4] = {j->req.zkey_path, j->req.params_path, j->req.r1cs_path, j->req.wtns_path};
    for (int i = 0; i < 4; i++)
        if (strs[i] != protobuf_c_empty_string)
            free(strs[i]);
}

int cli_print_result(const char *cmd, const Cuzk__V1__AwaitProofResponse *r,
                     const char *out_path)
{
    const ProtobufCEnumValue *ev =
        protobuf_c_enum_descriptor_get_value(&cuzk__v1__await_proof_response__status__descriptor,
                                             (int)r->status);
    printf("job %s: %s\n", r->job_id, ev ? ev->name : "UNKNOWN");
    if (r->error_message[0])
        printf("error: %s\n", r->error_message);
    printf("partitions %u  proof %zu bytes%s%s%s\n", r->partitions, r->proof.len,
           r->benchmark_only ? "  (benchmark only: random key, no proof)" : "",
           r->device[0] ? "  device " : "", r->device);
    printf("timings ms: queue %llu  srs %llu  synthesis %llu  gpu %llu  finalize %llu  "
           "total %llu\n",
           (unsigned long long)r->queue_wait_ms, (unsigned long long)r->srs_load_ms,
           (unsigned long long)r->synthesis_ms, (unsigned long long)r->gpu_compute_ms,
           (unsigned long long)r->finalize_ms, (unsigned long long)r->total_ms);
    if (r->status != CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED)
        return CUZK_EXIT_FAIL;
    if (out_path && r->proof.len) {
        cuzk_outfiles *set;
        const char *outs[] = {out_path};
        int rc = cli_outputs_begin(cmd, &set, NULL, 0, outs, 1);
        if (rc != CUZK_EXIT_OK)
            return rc;
        cuzk_error e = {0};
        if (cuzk_outfiles_write(set, 0, r->proof.data, r->proof.len, &e) != CUZK_OK) {
            fprintf(stderr, "cuzk %s: %s: %s\n", cmd, out_path, e.msg);
            rc = CUZK_EXIT_FAIL;
        } else {
            rc = cli_outputs_commit(cmd, set);
        }
        cli_outputs_end(set);
        if (rc == CUZK_EXIT_OK)
            printf("proof written to %s\n", out_path);
        return rc;
    }
    return CUZK_EXIT_OK;
}

#endif
