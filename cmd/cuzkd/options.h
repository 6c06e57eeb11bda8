/*
 * options.h — cuzkd's configuration: one table of options (section, name, type, default,
 * bounds, help) that drives the TOML parser's key checks, `cuzkd --help`, the effective
 * configuration logged at start and `cuzkd --print-config` (an annotated example file).
 * Threading: single-threaded (start-up).
 */
#ifndef CUZKD_OPTIONS_H
#define CUZKD_OPTIONS_H

#include <stdio.h>

#include "cuzk/engine.h"

#define CUZKD_STR 512

typedef struct cuzkd_config {
    char listen[CUZKD_STR];
    char status_listen[CUZKD_STR];
    char state_dir[CUZKD_STR];
    char timeline[CUZKD_STR];
    char param_cache[CUZKD_STR];
    char dev_key_dir[CUZKD_STR];
    char csr_cache_dir[CUZKD_STR];
    char devices[CUZKD_STR];      /* comma-joined prover specs; "" = auto */
    char log_level[16];
    char total_budget[32];        /* "auto" or a size */
    uint64_t safety_margin, timeline_rotate;
    uint64_t keepalive_s, keepalive_timeout_s;
    uint64_t socket_mode;
    char socket_group[CUZKD_STR];
    char input_dirs[CUZKD_STR];   /* comma-joined */
    char auth_token[CUZKD_STR];
    uint64_t eviction_min_idle_s, result_ttl_s, collected_ttl_s;
    uint64_t keep_latency_keys; /* 0 or 1 (a TOML boolean) */
    uint64_t keys_on_device_only; /* 0 or 1 */
    uint64_t threads, synthesis_workers, workers_per_device, finalizers, device_queue_depth,
             synthetic_setup_max_log2n;
} cuzkd_config;

void cuzkd_config_defaults(cuzkd_config *c);

/* Reads a TOML file over c. Errors: CUZK_ERR_IO (cannot read), CUZK_ERR_FORMAT with
 * "file:line: ..." (syntax, unknown section or key, wrong type, out of bounds). */
cuzk_status cuzkd_config_load(cuzkd_config *c, const char *path, cuzk_error *err);
/* The same from text (tests). */
cuzk_status cuzkd_config_parse(cuzkd_config *c, const char *text, size_t len,
                               const char *file, cuzk_error *err);

/* Fills the engine configuration (strings point into c). CUZK_ERR_INVALID_ARG for a bad
 * log level or budget. */
cuzk_status cuzkd_config_engine(const cuzkd_config *c, cuzk_engine_config *e, cuzk_error *err);
cuzk_log_level cuzkd_log_level(const char *s, bool *ok);

void cuzkd_options_help(FILE *out);           /* the table, for --help */
void cuzkd_config_print_example(FILE *out);   /* --print-config */
/* Logs every option's effective value (one line each) through log. */
void cuzkd_config_dump(const cuzkd_config *c, void (*log)(const char *line));

/* Parses sizes ("256GiB", "512MiB", "1024", "5 GB": util/size.h, the syntax of every
 * command) and durations ("5m", "30s", "1h", "90"); false if malformed. */
bool cuzkd_parse_size(const char *s, uint64_t *out);
bool cuzkd_parse_duration(const char *s, uint64_t *seconds);

#endif
