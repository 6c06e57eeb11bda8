/*
 * cmd_inspect.c — `cuzk inspect FILE`: what a .zkey, .r1cs, .wtns, bellperson .params or
 * .vk holds (sizes, counts, curve, domain), read from headers and section tables only.
 *
 * The file is memory-mapped and only the bytes that describe its structure are touched
 * (binfile section tables and headers; for bellperson files the u32 counts, skipping the
 * point vectors by arithmetic), so inspecting a 50 GiB .params reads a few pages. The kind
 * is taken from the content: the iden3 magic ("zkey", "r1cs", "wtns"), otherwise a
 * bellperson .vk when its size is exactly what its IC count implies, otherwise a .params.
 * Points are not decoded or checked (use prove/verify for that).
 *
 * Exit: 0 printed, 2 unreadable or malformed file. Threading: single-threaded.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "cuzk/formats.h"
#include "formats/formats_export.h"
#include "progress.h"

void cmd_inspect_usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk inspect FILE\n"
            "\n"
            "Prints what a snarkjs .zkey / .r1cs / .wtns or a bellperson .params / .vk holds,\n"
            "from its headers only (the file is not loaded whole). Exit 2 if malformed.\n");
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
    binfile bf;
    bin_cursor c;
    cuzk_error e;
    cuzk_status st = binfile_open(&bf, mf->data, mf->len, "r1cs", "r1cs", &e);
    uint32_t n8 = 0, wires = 0, pub_out = 0, pub_in = 0, prv_in = 0, ncons = 0;
    uint64_t labels = 0;
    if (st == CUZK_OK)
        st = binfile_section(&bf, 1, "header", true, &c, NULL, &e);
    if (st == CUZK_OK && (st = bin_read_u32(&c, &n8, "n8", &e)) == CUZK_OK &&
        (st = bin_check_prime(&c, n8, CUZK_FR_MODULUS, CUZK_FR_LIMBS, "BLS12-381 r", &e)) ==
            CUZK_OK &&
        (st = bin_read_u32(&c, &wires, "nWires", &e)) == CUZK_OK &&
        (st = bin_read_u32(&c, &pub_out, "nPubOut", &e)) == CUZK_OK &&
        (st = bin_read_u32(&c, &pub_in, "nPubIn", &e)) == CUZK_OK &&
        (st = bin_read_u32(&c, &prv_in, "nPrvIn", &e)) == CUZK_OK &&
        (st = bin_read_u64(&c, &labels, "nLabels", &e)) == CUZK_OK)
        st = bin_read_u32(&c, &ncons, "nConstraints", &e);
    if (st != CUZK_OK)
        return cli_fail("inspect", path, st, &e);
    uint64_t rows = (uint64_t)ncons + pub_out + pub_in + 1;
    printf("kind:        circom .r1cs v%u, %u sections\n", bf.version, bf.n_sections);
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

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Bellperson: the vk's fixed part, u32 n_ic and the IC points, then for a .params five
 * vectors, each u32 count + points (G1 96 bytes, the last one G2 192 bytes). */
static int inspect_bellperson(const mapped_file *mf, const char *path)
{
    const uint8_t *d = mf->data;
    uint64_t len = mf->len, pos = CUZK_BELLPERSON_VK_FIXED_BYTES;
    if (len < pos + 4) {
        fprintf(stderr, "cuzk inspect: %s: not a .zkey/.r1cs/.wtns and too short (%llu bytes) "
                        "for a bellperson .vk\n", path, (unsigned long long)len);
        return CUZK_EXIT_USAGE;
    }
    uint64_t n_ic = be32(d + pos);
    pos += 4 + n_ic * 96;
    if (pos == len) {
        printf("kind:        bellperson .vk\n");
        printf("curve:       bls12-381 (zcash encoding, not decoded)\n");
        print_size(len);
        printf("public:      %llu inputs (IC has %llu points)\n",
               (unsigned long long)(n_ic ? n_ic - 1 : 0), (unsigned long long)n_ic);
        return CUZK_EXIT_OK;
    }
    static const char *names[5] = {"h", "l", "a", "b_g1", "b_g2"};
    uint64_t n[5];
    for (int i = 0; i < 5; i++) {
        if (pos > len || len - pos < 4) {
            fprintf(stderr, "cuzk inspect: %s: truncated before the %s count at offset %llu "
                            "(not a .vk either: size %llu, IC implies %llu)\n",
                    path, names[i], (unsigned long long)pos, (unsigned long long)len,
                    (unsigned long long)(CUZK_BELLPERSON_VK_FIXED_BYTES + 4 + n_ic * 96));
            return CUZK_EXIT_USAGE;
        }
        n[i] = be32(d + pos);
        pos += 4 + n[i] * (i == 4 ? 192 : 96);
    }
    if (pos != len) {
        fprintf(stderr, "cuzk inspect: %s: bellperson .params layout implies %llu bytes, the "
                        "file has %llu\n", path, (unsigned long long)pos,
                (unsigned long long)len);
        return CUZK_EXIT_USAGE;
    }
    printf("kind:        bellperson .params (Groth16 proving key)\n");
    printf("curve:       bls12-381 (zcash encoding, not decoded)\n");
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
    if (mf.len >= 4 && memcmp(mf.data, "zkey", 4) == 0)
        rc = inspect_zkey(&mf, path);
    else if (mf.len >= 4 && memcmp(mf.data, "r1cs", 4) == 0)
        rc = inspect_r1cs(&mf, path);
    else if (mf.len >= 4 && memcmp(mf.data, "wtns", 4) == 0)
        rc = inspect_wtns(&mf, path);
    else
        rc = inspect_bellperson(&mf, path);
    mapped_file_close(&mf);
    return rc;
}
