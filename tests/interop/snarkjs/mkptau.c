/*
 * mkptau.c — test tool: writes a *prepared* snarkjs powers-of-tau file (.ptau, BLS12-381)
 * from a random tau/alpha/beta that this process knows, computing every point directly as
 * [scalar]G with cuzk's fixed-base multiplication.
 *
 * Why: `snarkjs powersoftau prepare phase2` is JavaScript and measured 3 minutes at power 12
 * and about 26 minutes at power 14 on the 2-core CI machine, which does not fit CI. The
 * interop test still runs `snarkjs groth16 setup` on this file, so snarkjs builds the .zkey
 * and the verification key itself; only the ceremony is replaced. The toxic waste is known
 * to this process and wiped at exit: for tests only, never for real keys. The smallest
 * interop circuit keeps using a ptau made by snarkjs itself (run.sh), so both paths are
 * exercised.
 *
 * Layout (snarkjs powersoftau_new.js / preparephase2.js): "ptau" version 1, 11 sections
 *   1 header: u32 n8 = 48, q (48 bytes LE), u32 power, u32 ceremonyPower
 *   2 tauG1 [2^(P+1) - 1], 3 tauG2 [2^P], 4 alphaTauG1 [2^P], 5 betaTauG1 [2^P],
 *   6 betaG2 [1], 7 contributions (u32 count = 0),
 *   12 tauG1 Lagrange for p = 0..P+1, 13 tauG2 Lagrange p = 0..P, 14 alpha, 15 beta p = 0..P
 *   (each power p: 2^p points, natural order over snarkjs's 2^p-th root w[p]).
 * Points are x || y in Montgomery form, 48-byte little-endian limbs (snarkjs "LEM").
 * `snarkjs groth16 setup` for a domain of 2^(P-1) reads only the Lagrange tables of powers
 * P-1 and P (and P+1 of section 12 is never needed below that), so only powers >= P-1 are
 * computed; smaller ones are written as zero points, which snarkjs never reads.
 *
 * Threading: NTHREADS pthreads split each point vector.
 * Usage: mkptau POWER OUT.ptau   (POWER 1..20); exit 0 on success, 1 on any failure.
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/poly.h"

#define NTHREADS 2
#define CHUNK 2048

static cuzk_g1_fixed_table *g_t1;
static cuzk_g2_fixed_table *g_t2;

static void die(const char *what)
{
    fprintf(stderr, "mkptau: %s\n", what);
    exit(1);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

typedef struct job {
    const cuzk_fr *k;
    size_t n;
    int g2;
    uint8_t *out; /* n * (96 or 192) bytes */
} job;

/* Chunks of CHUNK points: fixed-base mul, one batch inversion, encode. */
static void *worker(void *arg)
{
    job *j = arg;
    if (!j->g2) {
        cuzk_g1_jac *jac = xmalloc(CHUNK * sizeof *jac);
        cuzk_g1_affine *aff = xmalloc(CHUNK * sizeof *aff);
        cuzk_fp *scr = xmalloc(CHUNK * sizeof *scr);
        for (size_t b = 0; b < j->n; b += CHUNK) {
            size_t m = j->n - b < CHUNK ? j->n - b : CHUNK;
            for (size_t i = 0; i < m; i++)
                cuzk_g1_fixed_mul(&jac[i], g_t1, &j->k[b + i]);
            cuzk_g1s_jac_to_affine(aff, jac, m, scr);
            for (size_t i = 0; i < m; i++)
                cuzk_g1_affine_to_mont_le(j->out + (b + i) * 96, &aff[i]);
        }
        free(jac);
        free(aff);
        free(scr);
    } else {
        cuzk_g2_jac *jac = xmalloc(CHUNK * sizeof *jac);
        cuzk_g2_affine *aff = xmalloc(CHUNK * sizeof *aff);
        cuzk_fp2 *scr = xmalloc(CHUNK * sizeof *scr);
        for (size_t b = 0; b < j->n; b += CHUNK) {
            size_t m = j->n - b < CHUNK ? j->n - b : CHUNK;
            for (size_t i = 0; i < m; i++)
                cuzk_g2_fixed_mul(&jac[i], g_t2, &j->k[b + i]);
            cuzk_g2s_jac_to_affine(aff, jac, m, scr);
            for (size_t i = 0; i < m; i++)
                cuzk_g2_affine_to_mont_le(j->out + (b + i) * 192, &aff[i]);
        }
        free(jac);
        free(aff);
        free(scr);
    }
    return NULL;
}

static void put(FILE *f, const void *p, size_t n)
{
    if (n && fwrite(p, 1, n, f) != n)
        die("write failed");
}

/* Writes [k_i]G for i < n (G1 or G2). */
static void write_points(FILE *f, const cuzk_fr *k, size_t n, int g2)
{
    size_t ps = g2 ? 192 : 96;
    uint8_t *out = xmalloc(n * ps);
    pthread_t th[NTHREADS];
    job jb[NTHREADS];
    size_t per = (n + NTHREADS - 1) / NTHREADS;
    for (int t = 0; t < NTHREADS; t++) {
        size_t b = (size_t)t * per < n ? (size_t)t * per : n;
        size_t e = b + per < n ? b + per : n;
        jb[t] = (job){k + b, e - b, g2, out + b * ps};
        if (pthread_create(&th[t], NULL, worker, &jb[t]) != 0)
            die("pthread_create failed");
    }
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    put(f, out, n * ps);
    free(out);
}

static void write_zeros(FILE *f, size_t bytes)
{
    static const uint8_t z[4096];
    while (bytes) {
        size_t m = bytes < sizeof z ? bytes : sizeof z;
        put(f, z, m);
        bytes -= m;
    }
}

/* The file format is little-endian; this tool runs on x86-64 / little-endian hosts only. */
static void u32(FILE *f, uint32_t v) { put(f, &v, 4); }
static void u64(FILE *f, uint64_t v) { put(f, &v, 8); }

static void rand_fr(cuzk_fr *r)
{
    uint8_t b[64];
    FILE *u = fopen("/dev/urandom", "rb");
    if (!u || fread(b, 1, sizeof b, u) != sizeof b)
        die("cannot read /dev/urandom");
    fclose(u);
    cuzk_fr_from_bytes_wide_le(r, b);
    memset(b, 0, sizeof b);
}

/* k[i] = c * x^i */
static void powers(cuzk_fr *k, size_t n, const cuzk_fr *c, const cuzk_fr *x)
{
    cuzk_fr acc = *c;
    for (size_t i = 0; i < n; i++) {
        k[i] = acc;
        cuzk_fr_mul(&acc, &acc, x);
    }
}

/* k[i] = c * L_i(tau) over the snarkjs domain of 2^p points:
 * L_i(tau) = (tau^N - 1)/N * w^i / (tau - w^i). */
static void lagrange(cuzk_fr *k, unsigned p, const cuzk_fr *c, const cuzk_fr *tau)
{
    static cuzk_domain d;
    size_t n = (size_t)1 << p;
    if (cuzk_domain_init_snarkjs(&d, p) != CUZK_OK)
        die("domain init failed");
    cuzk_fr *den = xmalloc(n * sizeof *den), *scr = xmalloc(n * sizeof *scr);
    cuzk_fr w = CUZK_FR_ONE, tn = *tau, pre;
    for (unsigned i = 0; i < p; i++)
        cuzk_fr_sqr(&tn, &tn);
    cuzk_fr_sub(&pre, &tn, &CUZK_FR_ONE);
    cuzk_fr_mul(&pre, &pre, &d.n_inv);
    cuzk_fr_mul(&pre, &pre, c);
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_sub(&den[i], tau, &w);
        k[i] = w;
        cuzk_fr_mul(&w, &w, &d.omega);
    }
    cuzk_frs_inv_var(den, n, scr);
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_mul(&k[i], &k[i], &den[i]);
        cuzk_fr_mul(&k[i], &k[i], &pre);
    }
    free(den);
    free(scr);
}

static long sect_begin(FILE *f, uint32_t id)
{
    u32(f, id);
    long pos = ftell(f);
    if (pos < 0)
        die("ftell failed");
    u64(f, 0);
    return pos;
}

static void sect_end(FILE *f, long pos)
{
    long end = ftell(f);
    if (end < 0 || fseek(f, pos, SEEK_SET) != 0)
        die("seek failed");
    u64(f, (uint64_t)(end - pos - 8));
    if (fseek(f, end, SEEK_SET) != 0)
        die("seek failed");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: mkptau POWER OUT.ptau\n");
        return 1;
    }
    int pw = atoi(argv[1]);
    if (pw < 1 || pw > 20)
        die("POWER must be 1..20");
    unsigned P = (unsigned)pw;
    FILE *f = fopen(argv[2], "wb");
    if (!f)
        die("cannot create the output file");
    g_t1 = xmalloc(cuzk_g1_fixed_table_size());
    g_t2 = xmalloc(cuzk_g2_fixed_table_size());
    if (cuzk_g1_fixed_table_init(g_t1, &CUZK_G1_GENERATOR) != CUZK_OK ||
        cuzk_g2_fixed_table_init(g_t2, &CUZK_G2_GENERATOR) != CUZK_OK)
        die("fixed-base table init failed");
    cuzk_fr tau, alpha, beta;
    rand_fr(&tau);
    rand_fr(&alpha);
    rand_fr(&beta);
    size_t N = (size_t)1 << P;
    cuzk_fr *k = xmalloc(4 * N * sizeof *k);

    put(f, "ptau", 4);
    u32(f, 1);
    u32(f, 11);
    long s = sect_begin(f, 1);
    u32(f, 48);
    uint8_t q[48];
    for (int i = 0; i < 6; i++)
        for (int b = 0; b < 8; b++)
            q[8 * i + b] = (uint8_t)(CUZK_FP_MODULUS[i] >> (8 * b));
    put(f, q, sizeof q);
    u32(f, P);
    u32(f, P);
    sect_end(f, s);

    s = sect_begin(f, 2);
    powers(k, 2 * N - 1, &CUZK_FR_ONE, &tau);
    write_points(f, k, 2 * N - 1, 0);
    sect_end(f, s);
    s = sect_begin(f, 3);
    powers(k, N, &CUZK_FR_ONE, &tau);
    write_points(f, k, N, 1);
    sect_end(f, s);
    s = sect_begin(f, 4);
    powers(k, N, &alpha, &tau);
    write_points(f, k, N, 0);
    sect_end(f, s);
    s = sect_begin(f, 5);
    powers(k, N, &beta, &tau);
    write_points(f, k, N, 0);
    sect_end(f, s);
    s = sect_begin(f, 6);
    write_points(f, &beta, 1, 1);
    sect_end(f, s);
    s = sect_begin(f, 7);
    u32(f, 0);
    sect_end(f, s);

    const cuzk_fr *mult[4] = {&CUZK_FR_ONE, &CUZK_FR_ONE, &alpha, &beta};
    for (int sec = 12; sec <= 15; sec++) {
        s = sect_begin(f, (uint32_t)sec);
        unsigned top = sec == 12 ? P + 1 : P;
        int g2 = sec == 13;
        for (unsigned p = 0; p <= top; p++) {
            size_t n = (size_t)1 << p;
            if (p + 1 < P) { /* powers groth16 setup never reads for this P */
                write_zeros(f, n * (g2 ? 192 : 96));
                continue;
            }
            if (n > 4 * N)
                die("internal: scalar buffer too small");
            lagrange(k, p, mult[sec - 12], &tau);
            write_points(f, k, n, g2);
        }
        sect_end(f, s);
    }
    if (fclose(f) != 0)
        die("close failed");
    memset(&tau, 0, sizeof tau);
    memset(&alpha, 0, sizeof alpha);
    memset(&beta, 0, sizeof beta);
    memset(k, 0, 4 * N * sizeof *k);
    free(k);
    free(g_t1);
    free(g_t2);
    return 0;
}
