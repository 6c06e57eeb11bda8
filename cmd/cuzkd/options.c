/*
 * options.c — cuzkd's option table and everything it drives (options.h): TOML keys, help,
 * the annotated example config, the effective-config dump, and the engine configuration.
 * Threading: single-threaded (start-up).
 */
#include "options.h"

#include <ctype.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/formats.h"
#include "util/util_export.h"

typedef enum opt_type {
    O_STR, O_LIST, O_SIZE, O_BUDGET, O_UINT, O_DURATION, O_LEVEL,
    O_MODE,  /* permission bits as an octal string ("0660") */
    O_SECRET, /* a string never logged or printed (the dump says whether it is set) */
    O_BOOL    /* true or false (stored as 0 / 1) */
} opt_type;

typedef struct option {
    const char *section, *name;
    opt_type type;
    size_t off;          /* in cuzkd_config */
    const char *dflt;    /* as written in the config file */
    uint64_t min, max;   /* O_UINT, O_SIZE, O_DURATION */
    const char *help;
} option;

#define OFF(f) offsetof(cuzkd_config, f)
#define U64MAX UINT64_MAX

static const option k_opts[] = {
    {"daemon", "listen", O_STR, OFF(listen), "unix:///run/curio/cuzk.sock", 0, 0,
     "gRPC address(es): unix:///path, HOST:PORT, [V6]:PORT, comma-separated; the default "
     "is the cuzk client's too (a missing socket directory is made)"},
    {"daemon", "socket_mode", O_MODE, OFF(socket_mode), "0660", 0, 0777,
     "permission bits of unix sockets: who may connect (and so submit jobs and name files)"},
    {"daemon", "socket_group", O_STR, OFF(socket_group), "", 0, 0,
     "group of unix sockets (a name or a number): let another user's client in by adding "
     "it to this group; empty = the daemon's group"},
    {"daemon", "input_dirs", O_LIST, OFF(input_dirs), "[]", 0, 0,
     "directories whose files any client may name (GROTH16 paths, PreloadSRS zkey:<path>); "
     "when set, no file outside them; TCP clients may name files only here. Empty: a "
     "unix-socket client may name the files it can read itself"},
    {"daemon", "auth_token", O_SECRET, OFF(auth_token), "", 0, 0,
     "shared secret TCP clients must send as gRPC metadata 'authorization: Bearer <token>' "
     "(16-256 printable characters, no spaces; keep this file unreadable to others); "
     "empty = none, and a TCP listener is logged as open to anyone who can reach it"},
    {"daemon", "keepalive_interval", O_DURATION, OFF(keepalive_s), "60s", 0, 86400,
     "HTTP/2 PING to a client silent this long (a Prove waiting for its proof is silent; "
     "firewalls drop idle connections); 0 = off. TCP keepalive probes start after it too"},
    {"daemon", "keepalive_timeout", O_DURATION, OFF(keepalive_timeout_s), "20s", 1, 3600,
     "a connection whose client does not answer a keepalive PING within this is closed"},
    {"daemon", "status_listen", O_STR, OFF(status_listen), "", 0, 0,
     "plain HTTP for GET /metrics and GET /status (HOST:PORT); empty = off"},
    {"daemon", "state_dir", O_STR, OFF(state_dir), "~/.local/state/cuzk", 0, 0,
     "journal of accepted jobs (they survive a restart); empty = no journal"},
    {"daemon", "timeline", O_STR, OFF(timeline), "", 0, 0,
     "Chrome trace-event timeline written continuously (Perfetto opens it); empty = off"},
    {"daemon", "timeline_rotate", O_SIZE, OFF(timeline_rotate), "64MiB", 4096, U64MAX,
     "the timeline file is rotated to <file>.1 past this size"},
    {"logging", "level", O_LEVEL, OFF(log_level), "info", 0, 0, "error, warn, info or debug"},
    {"memory", "total_budget", O_BUDGET, OFF(total_budget), "auto", 0, 0,
     "one budget for resident keys and partition working sets; auto = RAM - safety_margin"},
    {"memory", "safety_margin", O_SIZE, OFF(safety_margin), "5GiB", 0, U64MAX,
     "memory left to the system when total_budget is auto"},
    {"memory", "eviction_min_idle", O_DURATION, OFF(eviction_min_idle_s), "5m", 0, 86400 * 365,
     "a key idle less than this is not evicted to make room"},
    {"gpus", "devices", O_LIST, OFF(devices), "[]", 0, 0,
     "prover devices: [\"gpu:0\", \"gpu:1\"], [\"cpu\"]; empty = auto (the GPU if present)"},
    {"gpus", "gpu_workers_per_device", O_UINT, OFF(workers_per_device), "2", 1, 16,
     "workers per device: one prepares while the other computes"},
    {"synthesis", "threads", O_UINT, OFF(threads), "0", 0, 1024,
     "CPU threads shared by all stages; 0 = all CPUs"},
    {"synthesis", "workers", O_UINT, OFF(synthesis_workers), "2", 1, 256,
     "partitions synthesized at once (each needs its working set in the budget)"},
    {"pipeline", "finalizers", O_UINT, OFF(finalizers), "2", 1, 64,
     "threads assembling and self-checking proofs"},
    {"pipeline", "device_queue_depth", O_UINT, OFF(device_queue_depth), "0", 0, 1024,
     "synthesized NORMAL/LOW partitions waiting for a device; 0 = one per device worker "
     "(CRITICAL and HIGH ones never wait for room)"},
    {"jobs", "result_ttl", O_DURATION, OFF(result_ttl_s), "1h", 1, 86400 * 365,
     "an uncollected result is kept this long"},
    {"jobs", "collected_ttl", O_DURATION, OFF(collected_ttl_s), "5m", 1, 86400 * 365,
     "a collected result is kept this long (a client may ask again)"},
    {"srs", "param_cache", O_STR, OFF(param_cache), "/var/tmp/filecoin-proof-parameters", 0, 0,
     "directory of the Filecoin .params files"},
    {"srs", "dev_key_dir", O_STR, OFF(dev_key_dir), "", 0, 0,
     "without a circuit's .params: make and cache a DEV key here (NOT Filecoin's trusted "
     "setup; proofs never verify on chain); empty = refuse such jobs"},
    {"srs", "csr_cache_dir", O_STR, OFF(csr_cache_dir), "", 0, 0,
     "recorded Filecoin circuits are cached here (<circuit>.csr, ~30 GB for a 32 GiB PoRep) "
     "and memory-mapped later; empty = dev_key_dir, else state_dir, else none"},
    {"srs", "keep_latency_keys", O_BOOL, OFF(keep_latency_keys), "true", 0, 1,
     "keys of CRITICAL and HIGH jobs (WinningPoSt, WindowPoSt) stay resident: NORMAL/LOW work "
     "(PoRep, SnapDeals) never evicts them unless it could not fit beside them at all"},
    {"srs", "keys_on_device_only", O_BOOL, OFF(keys_on_device_only), "true", 0, 1,
     "with one GPU: a PoRep or SnapDeals key resident on it gives back its host copy (44 GiB "
     "for a 32 GiB PoRep key), so a WindowPoSt key fits in host memory beside the stream"},
    {"srs", "synthetic_setup_max_log2n", O_UINT, OFF(synthetic_setup_max_log2n), "12", 2, 20,
     "synthetic jobs up to 2^N get a dev setup (verifiable); larger: random keys (bench only)"},
};
#define N_OPTS (sizeof k_opts / sizeof k_opts[0])

bool cuzkd_parse_size(const char *s, uint64_t *out) { return cuzk_parse_size(s, out); }

bool cuzkd_parse_duration(const char *s, uint64_t *seconds)
{
    char *end;
    if (!isdigit((unsigned char)*s))
        return false;
    unsigned long long v = strtoull(s, &end, 10);
    uint64_t mul = !*end ? 1 : !strcmp(end, "s") ? 1 : !strcmp(end, "m") ? 60
                 : !strcmp(end, "h") ? 3600 : !strcmp(end, "d") ? 86400 : 0;
    if (!mul || v > UINT64_MAX / mul)
        return false;
    *seconds = v * mul;
    return true;
}

cuzk_log_level cuzkd_log_level(const char *s, bool *ok)
{
    static const char *names[] = {"error", "warn", "info", "debug"};
    for (int i = 0; i < 4; i++)
        if (strcmp(s, names[i]) == 0) {
            *ok = true;
            return (cuzk_log_level)i;
        }
    *ok = false;
    return CUZK_LOG_INFO;
}

typedef struct setctx {
    cuzkd_config *c;
} setctx;

static cuzk_status bad(cuzk_error *err, const char *file, unsigned line, const option *o,
                       const char *why)
{
    return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s:%u: %s.%s: %s", file, line, o->section,
                          o->name, why);
}

/* Applies a textual or integer value to option o. */
static cuzk_status set_opt(cuzkd_config *c, const option *o, const cuzk_toml_value *v,
                           const char *file, unsigned line, cuzk_error *err)
{
    char *field = (char *)c + o->off;
    char msg[160];
    switch (o->type) {
    case O_SECRET: {
        size_t n = v->type == CUZK_TOML_STRING ? strlen(v->str) : 0;
        bool ok = v->type == CUZK_TOML_STRING && (n == 0 || (n >= 16 && n <= 256));
        for (size_t i = 0; ok && i < n; i++)
            ok = (unsigned char)v->str[i] > 0x20 && (unsigned char)v->str[i] < 0x7f;
        if (!ok)
            return bad(err, file, line, o, "expected \"\" or 16 to 256 printable characters "
                                           "without spaces");
        strcpy(field, v->str);
        return CUZK_OK;
    }
    case O_STR:
        if (v->type != CUZK_TOML_STRING)
            return bad(err, file, line, o, "expected a string");
        if (strncmp(v->str, "~/", 2) == 0 && getenv("HOME")) {
            /* "~/" is the user's home, as a shell would read it */
            if (snprintf(field, CUZKD_STR, "%s%s", getenv("HOME"), v->str + 1) >= CUZKD_STR)
                return bad(err, file, line, o, "too long");
            return CUZK_OK;
        }
        if (strlen(v->str) >= CUZKD_STR)
            return bad(err, file, line, o, "too long");
        strcpy(field, v->str);
        return CUZK_OK;
    case O_LIST: {
        if (v->type != CUZK_TOML_ARRAY || (v->n && v->items[0].type != CUZK_TOML_STRING))
            return bad(err, file, line, o, "expected an array of strings");
        size_t len = 0;
        field[0] = 0;
        for (size_t i = 0; i < v->n; i++) {
            size_t l = strlen(v->items[i].str);
            if (!l || strchr(v->items[i].str, ','))
                return bad(err, file, line, o, "empty item or a comma inside an item");
            if (len + l + 2 >= CUZKD_STR)
                return bad(err, file, line, o, "too long");
            if (i)
                field[len++] = ',';
            memcpy(field + len, v->items[i].str, l + 1);
            len += l;
        }
        return CUZK_OK;
    }
    case O_LEVEL: {
        bool ok;
        if (v->type != CUZK_TOML_STRING || (cuzkd_log_level(v->str, &ok), !ok))
            return bad(err, file, line, o, "expected \"error\", \"warn\", \"info\" or \"debug\"");
        strcpy(field, v->str);
        return CUZK_OK;
    }
    case O_BUDGET: {
        uint64_t b;
        if (v->type == CUZK_TOML_STRING && strcmp(v->str, "auto") == 0) {
            strcpy(field, "auto");
            return CUZK_OK;
        }
        if (v->type != CUZK_TOML_STRING || !cuzkd_parse_size(v->str, &b) || b < (64u << 20))
            return bad(err, file, line, o, "expected \"auto\" or a size of at least 64MiB "
                                           "(\"256GiB\")");
        snprintf(field, 32, "%s", v->str);
        return CUZK_OK;
    }
    case O_BOOL:
        if (v->type != CUZK_TOML_BOOL)
            return bad(err, file, line, o, "expected true or false");
        *(uint64_t *)(void *)field = v->b ? 1 : 0;
        return CUZK_OK;
    default: break;
    }
    uint64_t x = 0;
    bool ok;
    if (o->type == O_MODE) {
        /* a string, so that 0660 is not read as the decimal 660 */
        char *end;
        ok = v->type == CUZK_TOML_STRING && v->str[0] >= '0' && v->str[0] <= '7' &&
             (x = strtoull(v->str, &end, 8), !*end) && strlen(v->str) <= 4;
        if (!ok || x > o->max)
            return bad(err, file, line, o, "expected octal permission bits as a string (\"0660\")");
        *(uint64_t *)(void *)field = x;
        return CUZK_OK;
    }
    if (v->type == CUZK_TOML_INT)
        ok = v->i >= 0 && (x = (uint64_t)v->i, true);
    else if (v->type == CUZK_TOML_STRING && o->type == O_SIZE)
        ok = cuzkd_parse_size(v->str, &x);
    else if (v->type == CUZK_TOML_STRING && o->type == O_DURATION)
        ok = cuzkd_parse_duration(v->str, &x);
    else
        ok = false;
    if (!ok)
        return bad(err, file, line, o,
                   o->type == O_SIZE       ? "expected a size (\"5GiB\", \"512MiB\", bytes)"
                   : o->type == O_DURATION ? "expected a duration (\"5m\", \"30s\", \"1h\", seconds)"
                                           : "expected a non-negative integer");
    if (x < o->min || x > o->max) {
        snprintf(msg, sizeof msg, "%" PRIu64 " is out of bounds [%" PRIu64 ", %" PRIu64 "]", x,
                 o->min, o->max);
        return bad(err, file, line, o, msg);
    }
    *(uint64_t *)(void *)field = x;
    return CUZK_OK;
}

static cuzk_status on_kv(void *ctx, const char *table, const char *key, const cuzk_toml_value *v,
                         const char *file, unsigned line, cuzk_error *err)
{
    setctx *sc = ctx;
    bool section_known = false;
    for (size_t i = 0; i < N_OPTS; i++) {
        if (strcmp(k_opts[i].section, table) != 0)
            continue;
        section_known = true;
        if (strcmp(k_opts[i].name, key) == 0)
            return set_opt(sc->c, &k_opts[i], v, file, line, err);
    }
    if (!table[0])
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "%s:%u: unknown key %s at the top level (options live in "
                              "sections such as [daemon])",
                              file, line, key);
    if (!section_known)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s:%u: unknown section [%s] (key %s)", file,
                              line, table, key);
    return cuzk_error_set(err, CUZK_ERR_FORMAT, "%s:%u: unknown key %s in [%s]", file, line, key,
                          table);
}

void cuzkd_config_defaults(cuzkd_config *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < N_OPTS; i++) {
        const option *o = &k_opts[i];
        cuzk_toml_value v = {.type = CUZK_TOML_STRING, .str = o->dflt};
        if (o->type == O_LIST)
            v = (cuzk_toml_value){.type = CUZK_TOML_ARRAY};
        else if (o->type == O_UINT)
            v = (cuzk_toml_value){.type = CUZK_TOML_INT, .i = atoll(o->dflt)};
        else if (o->type == O_BOOL)
            v = (cuzk_toml_value){.type = CUZK_TOML_BOOL, .b = strcmp(o->dflt, "true") == 0};
        set_opt(c, o, &v, "defaults", 0, NULL);
    }
    if (c->state_dir[0] == '~') /* no HOME */
        snprintf(c->state_dir, sizeof c->state_dir, "/tmp/cuzk-state");
}

cuzk_status cuzkd_config_parse(cuzkd_config *c, const char *text, size_t len, const char *file,
                               cuzk_error *err)
{
    setctx sc = {c};
    return cuzk_toml_parse(text, len, file, on_kv, &sc, err);
}

cuzk_status cuzkd_config_load(cuzkd_config *c, const char *path, cuzk_error *err)
{
    char *text;
    size_t len;
    cuzk_status st = cuzk_file_read_text(&text, &len, path, 1 << 20, err);
    if (st != CUZK_OK)
        return st;
    st = cuzkd_config_parse(c, text, len, path, err);
    free(text);
    return st;
}

cuzk_status cuzkd_config_engine(const cuzkd_config *c, cuzk_engine_config *e, cuzk_error *err)
{
    cuzk_engine_config_default(e);
    bool ok;
    e->log_level = cuzkd_log_level(c->log_level, &ok);
    if (!ok)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "bad log level %s", c->log_level);
    if (strcmp(c->total_budget, "auto") != 0 && !cuzkd_parse_size(c->total_budget, &e->memory_budget))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "bad memory budget %s", c->total_budget);
    e->memory_safety_margin = c->safety_margin;
    e->threads = (unsigned)c->threads;
    e->synthesis_workers = (unsigned)c->synthesis_workers;
    e->devices = c->devices[0] ? c->devices : NULL;
    e->workers_per_device = (unsigned)c->workers_per_device;
    e->finalizers = (unsigned)c->finalizers;
    e->device_queue_depth = (unsigned)c->device_queue_depth;
    e->keep_latency_keys = c->keep_latency_keys != 0;
    e->keys_on_device_only = c->keys_on_device_only != 0;
    e->state_dir = c->state_dir[0] ? c->state_dir : NULL;
    e->param_dir = c->param_cache[0] ? c->param_cache : NULL;
    e->dev_key_dir = c->dev_key_dir[0] ? c->dev_key_dir : NULL;
    e->csr_cache_dir = c->csr_cache_dir[0] ? c->csr_cache_dir : NULL;
    e->result_ttl_s = c->result_ttl_s;
    e->collected_ttl_s = c->collected_ttl_s;
    e->eviction_min_idle_s = c->eviction_min_idle_s;
    e->synthetic_setup_max_log2n = (unsigned)c->synthetic_setup_max_log2n;
    e->timeline_path = c->timeline[0] ? c->timeline : NULL;
    e->timeline_rotate_bytes = c->timeline_rotate;
    return CUZK_OK;
}

static const char *type_name(opt_type t)
{
    static const char *n[] = {"string", "strings", "size", "size|auto", "integer", "duration",
                              "level", "octal", "secret", "boolean"};
    return n[t];
}

void cuzkd_options_help(FILE *out)
{
    fprintf(out, "configuration (TOML, --config FILE; unknown keys are errors):\n");
    const char *sec = "";
    for (size_t i = 0; i < N_OPTS; i++) {
        const option *o = &k_opts[i];
        if (strcmp(sec, o->section) != 0)
            fprintf(out, "  [%s]\n", sec = o->section);
        fprintf(out, "    %-26s %-10s default %s\n", o->name, type_name(o->type),
                o->dflt[0] ? o->dflt : "\"\"");
        fprintf(out, "        %s\n", o->help);
    }
}

void cuzkd_config_print_example(FILE *out)
{
    fprintf(out, "# cuzkd configuration (every option with its default; delete what you do not\n"
                 "# change). Sizes: \"5GiB\", \"512MiB\" or bytes; durations: \"5m\", \"30s\", \"1h\"\n"
                 "# or seconds. Unknown keys are errors.\n");
    const char *sec = "";
    for (size_t i = 0; i < N_OPTS; i++) {
        const option *o = &k_opts[i];
        if (strcmp(sec, o->section) != 0)
            fprintf(out, "\n[%s]\n", sec = o->section);
        fprintf(out, "# %s\n", o->help);
        if (o->type == O_UINT || o->type == O_LIST || o->type == O_BOOL)
            fprintf(out, "%s = %s\n", o->name, o->dflt);
        else
            fprintf(out, "%s = \"%s\"\n", o->name, o->dflt);
    }
}

void cuzkd_config_dump(const cuzkd_config *c, void (*log)(const char *line))
{
    char line[CUZKD_STR + 128];
    for (size_t i = 0; i < N_OPTS; i++) {
        const option *o = &k_opts[i];
        const char *field = (const char *)c + o->off;
        if (o->type == O_STR || o->type == O_LIST || o->type == O_LEVEL || o->type == O_BUDGET)
            snprintf(line, sizeof line, "config %s.%s = \"%s\"", o->section, o->name, field);
        else if (o->type == O_SECRET)
            snprintf(line, sizeof line, "config %s.%s = %s", o->section, o->name,
                     field[0] ? "(set, not shown)" : "\"\"");
        else if (o->type == O_BOOL)
            snprintf(line, sizeof line, "config %s.%s = %s", o->section, o->name,
                     *(const uint64_t *)(const void *)field ? "true" : "false");
        else if (o->type == O_MODE)
            snprintf(line, sizeof line, "config %s.%s = \"%04" PRIo64 "\"", o->section, o->name,
                     *(const uint64_t *)(const void *)field);
        else
            snprintf(line, sizeof line, "config %s.%s = %" PRIu64, o->section, o->name,
                     *(const uint64_t *)(const void *)field);
        log(line);
    }
}
