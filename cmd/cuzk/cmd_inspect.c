/*
 * cmd_inspect.c — `cuzk inspect FILE`: what a file cuzk reads holds (kind, sizes, counts,
 * curve, domain): snarkjs .zkey/.r1cs/.wtns and JSON (verification key, proof, public
 * inputs), bellperson .params/.vk and 192-byte proofs. Anything else is "not a file cuzk
 * reads" (exit 2), never decoded as whatever comes closest.
 *
 * The file is memory-mapped and, for the big kinds, only the bytes that describe its
 * structure are touched (binfile section tables and headers; for a .params the u32 counts,
 * skipping the point vectors by arithmetic), so inspecting a 50 GiB .params reads a few
 * pages. The kind comes from the content: the iden3 magic ("zkey", "r1cs", "wtns"); JSON
 * (first non-blank byte '{' or '['), parsed by the snarkjs readers; otherwise a bellperson
 * .vk when its size is exactly what its IC count implies, a .params when its five vector
 * counts add up to its size, a proof when its size is a multiple of 192 bytes. The small
 * kinds (.vk, proofs, JSON) are decoded and checked in full, and a .params's verifying-key
 * prefix is, so that a file of the right size that is not one is reported as such; the
 * big point vectors are not (use prove --check-key for that).
 *
 * `cuzk inspect circuit --kind K --sector-size S` is cmd_inspect_circuit.c's.
 *
 * Exit: 0 printed, 2 unreadable or malformed file, or not one cuzk reads.
 * Threading: single-threaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "formats/formats_export.h"
#include "progress.h"

void cmd_inspect_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk inspect FILE\n"
            "\n"
            "Prints what a file cuzk reads holds: a snarkjs .zkey / .r1cs / .wtns (from its\n"
            "headers only), a snarkjs verification key, proof or public inputs (JSON), a\n"
            "bellperson .params (headers and verifying key) / .vk / 192-byte proof.\n"
            "Exit 2 if malformed or not a file cuzk reads.\n"
            "\n");
    cmd_inspect_circuit_usage(out);
}

static void print_size(uint64_t n)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)n;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    printf("size:        %llu bytes (%.1f %s)\n", (unsigned long long)n, v, units[u]);
}

static unsigned log2_ceil(uint64_t n)
{
    unsigned k = 0;
    while (((uint64_t)1 << k) < n)
        k++;
    return k;
}

static int inspect_zkey(const mapped_file *mf, const char *path)
{
    cuzk_snarkjs_zkey_header h;
    cuzk_error e;
    cuzk_status st = cuzk_snarkjs_zkey_header_read(&h, mf->data, mf->len, &e);
    if (st != CUZK_OK)
        return cli_fail("inspect", path, st, &e);
    printf("kind:        snarkjs .zkey (Groth16), %u sections%s\n", h.n_sections,
           h.has_contributions ? ", with a contributions transcript" : "");
    printf("curve:       bls12-381\n");
    print_size(mf->len);
    printf("variables:   %u (ONE + %u public + %u private)\n", h.n_vars, h.n_public,
           h.n_vars - 1 - h.n_public);
    printf("domain:      2^%u = %u (5-based roots, H on the odd 2n-th roots)\n",
           log2_ceil(h.domain_size), h.domain_size);
    printf("A/B terms:   %u (public-input rows included)\n", h.n_coeffs);
    printf("points:      A %u, B1 %u, B2 %u (G2), C %u, H %u, IC %u\n", h.n_vars, h.n_vars,
           h.n_vars, h.n_vars - 1 - h.n_public, h.domain_size, h.n_public + 1);
    return CUZK_EXIT_OK;
}

static int inspect_r1cs(const mapped_file *mf, const char *path)
{
    cuzk_snarkjs_r1cs_header h;
    cuzk_error e;
    cuzk_status st = cuzk_snarkjs_r1cs_header_read(&h, mf->data, mf->len, &e);
    if (st != CUZK_OK)
        return cli_fail("inspect", path, st, &e);
    uint32_t wires = h.n_wires, pub_out = h.n_pub_out, pub_in = h.n_pub_in,
             prv_in = h.n_prv_in, ncons = h.n_constraints;
    uint64_t labels = h.n_labels;
    uint64_t rows = (uint64_t)ncons + pub_out + pub_in + 1;
    printf("kind:        circom .r1cs v1, %u sections\n", h.n_sections);
    printf("curve:       bls12-381\n");
    print_size(mf->len);
    printf("wires:       %u (ONE + %u outputs + %u public inputs + %u private inputs + %llu "
           "internal)\n",
           wires, pub_out, pub_in, prv_in,
           (unsigned long long)((uint64_t)wires - 1 - pub_out - pub_in - prv_in));
    printf("constraints: %u\n", ncons);
    printf("labels:      %llu\n", (unsigned long long)labels);
    printf("domain:      2^%u for Groth16 (%llu rows with the public-input rows)\n",
           log2_ceil(rows), (unsigned long long)rows);
    return CUZK_EXIT_OK;
}

static int inspect_wtns(const mapped_file *mf, const char *path)
{
    uint32_t n;
    cuzk_error e;
    cuzk_status st = cuzk_snarkjs_wtns_count(mf->data, mf->len, &n, &e);
    if (st != CUZK_OK)
        return cli_fail("inspect", path, st, &e);
    printf("kind:        snarkjs .wtns\n");
    printf("curve:       bls12-381\n");
    print_size(mf->len);
    printf("values:      %u (ONE included)\n", n);
    return CUZK_EXIT_OK;
}

static int not_ours(const char *path, const char *why)
{
    fprintf(stderr, "cuzk inspect: %s: not a file cuzk reads (%s)\n", path, why);
    return CUZK_EXIT_USAGE;
}

static bool contains(const char *t, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(t + i, needle, k) == 0)
            return true;
    return false;
}

static int inspect_json(const mapped_file *mf, const char *path)
{
    const char *t = (const char *)mf->data;
    size_t n = mf->len;
    cuzk_error e;
    cuzk_status st;
    size_t i = 0;
    while (t[i] != '{' && t[i] != '[')
        i++;
    if (t[i] == '[') {
        cuzk_fr *v = NULL;
        size_t nv = 0;
        if ((st = cuzk_frs_from_snarkjs_json(&v, &nv, t, n, &e)) != CUZK_OK)
            return cli_fail("inspect", path, st, &e);
        free(v);
        printf("kind:        snarkjs public inputs (JSON)\n");
        printf("curve:       bls12-381 (values < r)\n");
        print_size(n);
        printf("values:      %zu (outputs, then public inputs)\n", nv);
        return CUZK_EXIT_OK;
    }
    cuzk_groth16_vk vk;
    memset(&vk, 0, sizeof vk);
    if ((st = cuzk_groth16_vk_from_snarkjs_json(&vk, t, n, &e)) == CUZK_OK) {
        printf("kind:        a snarkjs verification key (JSON), Groth16\n");
        printf("curve:       bls12-381 (points checked)\n");
        print_size(n);
        printf("public:      %zu inputs (IC has %zu points)\n", vk.n_ic - 1, vk.n_ic);
        cuzk_groth16_vk_free(&vk);
        return CUZK_EXIT_OK;
    }
    cuzk_error e_vk = e;
    cuzk_status st_vk = st;
    cuzk_groth16_proof proof;
    if ((st = cuzk_groth16_proof_from_snarkjs_json(&proof, t, n, &e)) == CUZK_OK) {
        printf("kind:        a snarkjs proof (JSON), Groth16\n");
        printf("curve:       bls12-381 (points checked)\n");
        print_size(n);
        return CUZK_EXIT_OK;
    }
    /* A file that names the fields of one of them is a broken one: say what is wrong. */
    if (contains(t, n, "\"vk_alpha_1\""))
        return cli_fail("inspect", path, st_vk, &e_vk);
    if (contains(t, n, "\"pi_a\""))
        return cli_fail("inspect", path, st, &e);
    if (st == CUZK_ERR_UNSUPPORTED && st_vk == CUZK_ERR_UNSUPPORTED)
        return cli_fail("inspect", path, st, &e); /* e.g. built without JSON support */
    return not_ours(path, "JSON, but not a snarkjs verification key, proof or public inputs");
}

static int inspect_proofs(const mapped_file *mf, const char *path)
{
    size_t n = mf->len / CUZK_GROTH16_PROOF_BYTES;
    cuzk_groth16_proof *p = malloc(n * sizeof *p);
    if (!p)
        return cli_fail("inspect", path, CUZK_ERR_NOMEM, NULL);
    cuzk_error e;
    cuzk_status st = cuzk_groth16_proofs_from_bellperson(p, n, mf->data, mf->len, &e);
    free(p);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk inspect: %s: not a file cuzk reads (%zu bytes, the size of %zu "
                        "bellperson proof%s, but: %s)\n", path, mf->len, n, n > 1 ? "s" : "",
                e.msg);
        return CUZK_EXIT_USAGE;
    }
    if (n == 1)
        printf("kind:        a 192-byte proof (bellperson Groth16: A, B, C compressed)\n");
    else
        printf("kind:        %zu 192-byte proofs (bellperson Groth16, one per partition)\n", n);
    printf("curve:       bls12-381 (points checked)\n");
    print_size(mf->len);
    return CUZK_EXIT_OK;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Bellperson: the vk's fixed part, u32 n_ic and the IC points, then for a .params five
 * vectors, each u32 count + points (G1 96 bytes, the last one G2 192 bytes). Returns -1
 * when the file has neither layout (the caller tries the next kind). */
static int inspect_bellperson(const mapped_file *mf, const char *path)
{
    const uint8_t *d = mf->data;
    uint64_t len = mf->len, pos = CUZK_BELLPERSON_VK_FIXED_BYTES;
    if (len < pos + 4)
        return -1;
    uint64_t n_ic = be32(d + pos);
    pos += 4 + n_ic * 96;
    cuzk_groth16_vk vk;
    cuzk_error e;
    cuzk_status st;
    if (pos == len) {
        if ((st = cuzk_groth16_vk_from_bellperson(&vk, d, len, NULL, &e)) != CUZK_OK) {
            fprintf(stderr, "cuzk inspect: %s: not a file cuzk reads (its size fits a "
                            "bellperson .vk, but: %s)\n", path, e.msg);
            return CUZK_EXIT_USAGE;
        }
        cuzk_groth16_vk_free(&vk);
        printf("kind:        bellperson .vk (Groth16 verifying key)\n");
        printf("curve:       bls12-381 (zcash encoding, points checked)\n");
        print_size(len);
        printf("public:      %llu inputs (IC has %llu points)\n",
               (unsigned long long)(n_ic ? n_ic - 1 : 0), (unsigned long long)n_ic);
        return CUZK_EXIT_OK;
    }
    uint64_t n[5];
    for (int i = 0; i < 5; i++) {
        if (pos > len || len - pos < 4)
            return -1;
        n[i] = be32(d + pos);
        pos += 4 + n[i] * (i == 4 ? 192 : 96);
    }
    if (pos != len)
        return -1;
    size_t used = 0;
    if ((st = cuzk_groth16_vk_from_bellperson(&vk, d, len, &used, &e)) != CUZK_OK) {
        fprintf(stderr, "cuzk inspect: %s: not a file cuzk reads (its counts fit a bellperson "
                        ".params, but its verifying key: %s)\n", path, e.msg);
        return CUZK_EXIT_USAGE;
    }
    cuzk_groth16_vk_free(&vk);
    printf("kind:        bellperson .params (Groth16 proving key)\n");
    printf("curve:       bls12-381 (zcash encoding; verifying key checked, vectors not "
           "decoded)\n");
    print_size(len);
    printf("public:      %llu inputs (IC has %llu points)\n",
           (unsigned long long)(n_ic ? n_ic - 1 : 0), (unsigned long long)n_ic);
    printf("domain:      %llu = h + 1 (%s)\n", (unsigned long long)(n[0] + 1),
           ((n[0] + 1) & n[0]) == 0 ? "power of two" : "NOT a power of two");
    printf("points:      h %llu, l %llu (aux variables), a %llu, b_g1 %llu, b_g2 %llu (G2)\n",
           (unsigned long long)n[0], (unsigned long long)n[1], (unsigned long long)n[2],
           (unsigned long long)n[3], (unsigned long long)n[4]);
    return CUZK_EXIT_OK;
}

int cmd_inspect(int argc, char **argv)
{
    /* `inspect circuit --kind ...`; a file named "circuit" is still inspected alone */
    if (argc >= 3 && strcmp(argv[1], "circuit") == 0 && argv[2][0] == '-')
        return cmd_inspect_circuit(argc - 1, argv + 1);
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "cuzk inspect: takes one FILE (try 'cuzk help inspect')\n");
        return CUZK_EXIT_USAGE;
    }
    const char *path = argv[1];
    mapped_file mf;
    cuzk_error e;
    cuzk_status st = mapped_file_open(&mf, path, &e);
    if (st != CUZK_OK)
        return cli_fail("inspect", path, st, &e);
    int rc;
    if (mf.len == 0)
        rc = not_ours(path, "empty");
    else if (mf.len >= 4 && memcmp(mf.data, "zkey", 4) == 0)
        rc = inspect_zkey(&mf, path);
    else if (mf.len >= 4 && memcmp(mf.data, "r1cs", 4) == 0)
        rc = inspect_r1cs(&mf, path);
    else if (mf.len >= 4 && memcmp(mf.data, "wtns", 4) == 0)
        rc = inspect_wtns(&mf, path);
    else if (cli_looks_json(mf.data, mf.len, "{["))
        rc = inspect_json(&mf, path);
    else if ((rc = inspect_bellperson(&mf, path)) >= 0)
        ; /* a .vk or .params, or a file of their layout that failed to decode */
    else if (mf.len % CUZK_GROTH16_PROOF_BYTES == 0)
        rc = inspect_proofs(&mf, path);
    else
        rc = not_ours(path, "not a snarkjs .zkey/.r1cs/.wtns or JSON file, and its size fits "
                            "no bellperson .params, .vk or 192-byte proof");
    /* truncated or rewritten while it was described: what was printed is not the file */
    if (mapped_file_check(&mf, CUZK_OK, &e) != CUZK_OK)
        rc = cli_fail("inspect", path, CUZK_ERR_IO, &e);
    mapped_file_close(&mf);
    return rc;
}
