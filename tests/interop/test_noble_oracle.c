/*
 * test_noble_oracle.c — checks cuzk against vectors computed by @noble/curves.
 *
 * usage: test_noble_oracle VECTORS_FILE
 * The file comes from noble_vectors.mjs (run_oracle.sh runs both). Every line is checked;
 * each disagreement is printed with its line number, op, the cuzk entry point, and both
 * values (the first few per op; all are counted). The closing summary gives per-op counts
 * and the seed to replay with.
 * A file passes only if it is whole: it must end with the generator's "# end: N vectors"
 * line, hold exactly N vectors, at least ORACLE_MIN_VECTORS in all, and at least
 * ORACLE_MIN_PER_OP of every op in k_required_ops (an empty or truncated file, or a
 * generator that stopped emitting an op, fails rather than passing on what is there).
 * Exit status: 0 all agreed, 1 some failed or the file is incomplete, 2 usage/IO error.
 * Threading: single-threaded.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "util/hex.h"

#define MAX_OPS 64
#define MAX_REPORTS_PER_OP 8
#define LINE_MAX_CHARS 4096

/* What the smallest run (CUZK_TEST_ITERS=1) produces: 285 vectors, >= 4 of every op. */
#define ORACLE_MIN_VECTORS 250
#define ORACLE_MIN_PER_OP 4

/* Every op the areas check: each must be in the file. */
static const char *const k_required_ops[] = {
    "fp_add", "fp_sub", "fp_mul", "fp_sqr", "fp_neg", "fp_inv", "fp_sqrt",
    "fr_add", "fr_mul", "fr_inv",
    "fp2_mul", "fp2_sqr", "fp2_inv", "fp2_sqrt",
    "g1_add", "g1_dbl", "g1_mul", "g1_to_compressed", "g1_to_uncompressed",
    "g1_from_compressed", "g1_from_uncompressed", "g1_reject_compressed",
    "g1_reject_uncompressed",
    "g2_add", "g2_dbl", "g2_mul", "g2_to_compressed", "g2_to_uncompressed",
    "g2_from_compressed", "g2_from_uncompressed", "g2_reject_compressed",
    "g2_reject_uncompressed",
    "pairing", "pairing_bilinear",
};

typedef struct op_stats {
    char name[32];
    unsigned long vectors, failed, reported;
} op_stats;

static op_stats g_ops[MAX_OPS];
static size_t g_nops;
static op_stats g_unknown = {"(unknown op)", 0, 0, 0};
static op_stats *g_cur;          /* the op of the line being checked */
static unsigned long g_line_failures;
static char g_seed[64] = "?";
static char g_count[32] = "?";

static op_stats *stats_for(const char *op)
{
    for (size_t i = 0; i < g_nops; i++)
        if (strcmp(g_ops[i].name, op) == 0)
            return &g_ops[i];
    if (g_nops == MAX_OPS || strlen(op) >= sizeof g_ops[0].name)
        return &g_unknown;
    op_stats *s = &g_ops[g_nops++];
    strcpy(s->name, op);
    return s;
}

void oracle_fail(const oracle_line *ln, const char *what, const char *got, const char *want)
{
    g_line_failures++;
    if (g_cur->reported++ < MAX_REPORTS_PER_OP) {
        printf("MISMATCH line %lu op %s: %s\n  cuzk:  %s\n  noble: %s\n", ln->lineno, ln->op,
               what, got, want);
    } else if (g_cur->reported == MAX_REPORTS_PER_OP + 1) {
        printf("(further %s mismatches counted, not printed)\n", ln->op);
    }
}

void oracle_bad_vector(const oracle_line *ln, const char *why)
{
    oracle_fail(ln, "malformed vector", why, "(see noble_vectors.mjs for the format)");
}

bool oracle_expect(const oracle_line *ln, const char *what, const char *got, const char *want)
{
    if (strcmp(got, want) == 0)
        return true;
    oracle_fail(ln, what, got, want);
    return false;
}

bool oracle_hex_to_bytes(uint8_t *out, size_t n, const char *hex)
{
    if (strlen(hex) != 2 * n)
        return false;
    for (size_t i = 0; i < n; i++) {
        int hi = cuzk_hex_digit(hex[2 * i]), lo = cuzk_hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

void oracle_bytes_to_hex(char *out, const uint8_t *in, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = 0;
}

bool oracle_fp_parse(cuzk_fp *r, const oracle_line *ln, const char *hex)
{
    uint8_t b[CUZK_FP_BYTES];
    if (!oracle_hex_to_bytes(b, sizeof b, hex)) {
        oracle_bad_vector(ln, "Fp value is not 96 hex digits");
        return false;
    }
    cuzk_status st = cuzk_fp_from_bytes_be(r, b);
    if (st != CUZK_OK)
        oracle_fail(ln, "cuzk_fp_from_bytes_be of a canonical value", cuzk_status_name(st),
                    "CUZK_OK");
    return st == CUZK_OK;
}

bool oracle_fr_parse(cuzk_fr *r, const oracle_line *ln, const char *hex)
{
    uint8_t b[CUZK_FR_BYTES];
    if (!oracle_hex_to_bytes(b, sizeof b, hex)) {
        oracle_bad_vector(ln, "Fr value is not 64 hex digits");
        return false;
    }
    cuzk_status st = cuzk_fr_from_bytes_be(r, b);
    if (st != CUZK_OK)
        oracle_fail(ln, "cuzk_fr_from_bytes_be of a canonical value", cuzk_status_name(st),
                    "CUZK_OK");
    return st == CUZK_OK;
}

bool oracle_fp2_parse(cuzk_fp2 *r, const oracle_line *ln, const char *hex)
{
    char c0[ORACLE_HEX(CUZK_FP_BYTES)];
    if (strlen(hex) != 4 * CUZK_FP_BYTES) {
        oracle_bad_vector(ln, "Fp2 value is not 192 hex digits");
        return false;
    }
    memcpy(c0, hex, 2 * CUZK_FP_BYTES);
    c0[2 * CUZK_FP_BYTES] = 0;
    return oracle_fp_parse(&r->c0, ln, c0) &&
           oracle_fp_parse(&r->c1, ln, hex + 2 * CUZK_FP_BYTES);
}

void oracle_fp_hex(char *out, const cuzk_fp *a)
{
    uint8_t b[CUZK_FP_BYTES];
    cuzk_fp_to_bytes_be(b, a);
    oracle_bytes_to_hex(out, b, sizeof b);
}

void oracle_fr_hex(char *out, const cuzk_fr *a)
{
    uint8_t b[CUZK_FR_BYTES];
    cuzk_fr_to_bytes_be(b, a);
    oracle_bytes_to_hex(out, b, sizeof b);
}

void oracle_fp2_hex(char *out, const cuzk_fp2 *a)
{
    oracle_fp_hex(out, &a->c0);
    oracle_fp_hex(out + 2 * CUZK_FP_BYTES, &a->c1);
}

void oracle_fp12_hex(char *out, const cuzk_fp12 *a)
{
    const cuzk_fp6 *six[2] = {&a->c0, &a->c1};
    for (int i = 0; i < 2; i++) {
        const cuzk_fp2 *two[3] = {&six[i]->c0, &six[i]->c1, &six[i]->c2};
        for (int j = 0; j < 3; j++) {
            oracle_fp2_hex(out, two[j]);
            out += 4 * CUZK_FP_BYTES;
        }
    }
}

/* Copies the word after key ("seed ") in a header comment such as
 * "# cuzk oracle vectors: @noble/curves 2.4.0, seed 1234, count 200". */
static void read_header_word(char *out, size_t cap, const char *comment, const char *key)
{
    const char *s = strstr(comment, key);
    if (!s)
        return;
    s += strlen(key);
    size_t n = strcspn(s, ", \n");
    if (n < cap) {
        memcpy(out, s, n);
        out[n] = 0;
    }
}

static bool dispatch(const oracle_line *ln)
{
    static bool (*const areas[])(const oracle_line *) = {oracle_ff, oracle_g1, oracle_g2,
                                                         oracle_pairing};
    for (size_t i = 0; i < sizeof areas / sizeof areas[0]; i++)
        if (areas[i](ln))
            return true;
    return false;
}

static void check_line(char *text, unsigned long lineno)
{
    oracle_line ln = {.lineno = lineno};
    for (char *tok = strtok(text, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        if (ln.n == ORACLE_MAX_FIELDS) {
            ln.n++;  /* too many: reported below */
            break;
        }
        ln.f[ln.n++] = tok;
    }
    if (ln.n == 0)
        return;
    ln.op = ln.f[0];
    g_cur = stats_for(ln.op);
    g_cur->vectors++;
    g_line_failures = 0;
    if (ln.n > ORACLE_MAX_FIELDS) {
        oracle_bad_vector(&ln, "too many fields");
    } else if (!dispatch(&ln)) {
        oracle_bad_vector(&ln, "op unknown to the checker");
    }
    if (g_line_failures)
        g_cur->failed++;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s VECTORS_FILE\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    printf("noble oracle: cuzk ff backend %s, vectors %s\n", cuzk_ff_backend(), argv[1]);
    static char line[LINE_MAX_CHARS];
    unsigned long lineno = 0, nvec = 0, end_count = 0;
    bool ended = false;  /* the "# end: N vectors" line was the last one seen */
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            fprintf(stderr, "%s:%lu: line longer than %d characters\n", argv[1], lineno,
                    LINE_MAX_CHARS);
            fclose(f);
            return 2;
        }
        ended = false;
        if (line[0] == '#') {
            read_header_word(g_seed, sizeof g_seed, line, "seed ");
            read_header_word(g_count, sizeof g_count, line, "count ");
            ended = sscanf(line, "# end: %lu vectors", &end_count) == 1 &&
                    strchr(line, '\n') != NULL;
            continue;
        }
        if (strspn(line, " \t\r\n") != strlen(line))
            nvec++;
        check_line(line, lineno);
    }
    fclose(f);

    /* Completeness: a file that agrees on everything it holds but is not whole fails. */
    unsigned long incomplete = 0;
    if (!ended) {
        printf("INCOMPLETE: no closing \"# end: N vectors\" line (empty or truncated file)\n");
        incomplete++;
    } else if (end_count != nvec) {
        printf("INCOMPLETE: the file says %lu vectors, it holds %lu\n", end_count, nvec);
        incomplete++;
    }
    if (nvec < ORACLE_MIN_VECTORS) {
        printf("INCOMPLETE: %lu vectors, at least %d expected\n", nvec, ORACLE_MIN_VECTORS);
        incomplete++;
    }
    for (size_t i = 0; i < sizeof k_required_ops / sizeof k_required_ops[0]; i++) {
        unsigned long have = 0;
        for (size_t j = 0; j < g_nops; j++)
            if (strcmp(g_ops[j].name, k_required_ops[i]) == 0)
                have = g_ops[j].vectors;
        if (have < ORACLE_MIN_PER_OP) {
            printf("INCOMPLETE: op %s has %lu vectors, at least %d expected\n",
                   k_required_ops[i], have, ORACLE_MIN_PER_OP);
            incomplete++;
        }
    }

    unsigned long passed = 0, failed = 0;
    printf("%-24s %8s %8s\n", "op", "vectors", "failed");
    for (size_t i = 0; i <= g_nops; i++) {
        const op_stats *s = i < g_nops ? &g_ops[i] : &g_unknown;
        if (!s->vectors)
            continue;
        printf("%-24s %8lu %8lu\n", s->name, s->vectors, s->failed);
        failed += s->failed;
        passed += s->vectors - s->failed;
    }
    if (failed)
        printf("replay: CUZK_TEST_SEED=%s CUZK_TEST_ITERS=%s ctest -R noble_oracle "
               "--output-on-failure\n", g_seed, g_count);
    failed += incomplete;
    printf("seed %s\noracle: %lu passed, %lu failed\n", g_seed, passed, failed);
    return failed ? 1 : 0;
}
