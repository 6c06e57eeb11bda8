/*
 * fixture.c — writes the files the CLI tests (tests/cli/cli_test.sh) run `cuzk` on, so
 * they need neither node nor circom: `cuzk_cli_fixture DIR` writes
 *   DIR/c.r1cs    a circom-layout .r1cs of tc_mixed (test_groth16_circuits.h): 3 public
 *                 inputs, a squaring chain, booleans, a C-only and a B-only variable
 *   DIR/w.wtns    a satisfying witness (snarkjs .wtns v2)
 *   DIR/bad.wtns  the same witness with its last value plus one: the last constraint
 *                 (y0 * b_only = yb, yb only in C) fails
 *   DIR/k.zkey    a snarkjs-layout Groth16 .zkey for the circuit from a development setup
 *                 (CUZK_GROTH16_SNARKJS; the layout test_zkey.c checks against the reader)
 *   DIR/vk.json   its verification_key.json (only in builds with JSON support)
 * The circuit's constants and the setup's toxic waste come from the test RNG (seed printed,
 * CUZK_TEST_SEED replays). Bellperson keys are made by `cuzk setup` in the test itself.
 *
 * Exit 0 on success, 1 with a message otherwise. Single-threaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/ec.h"
#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "test_groth16_circuits.h"
#include "test_rng.h"
#include "zkey_writer.h"

typedef struct buf {
    uint8_t *p;
    size_t n, cap;
} buf;

static void die(const char *what)
{
    fprintf(stderr, "cuzk_cli_fixture: %s\n", what);
    exit(1);
}

static void put(buf *b, const void *d, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p)
            die("out of memory");
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}
static void put_u32(buf *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, x, 4);
}
static void put_u64(buf *b, uint64_t v)
{
    put_u32(b, (uint32_t)v);
    put_u32(b, (uint32_t)(v >> 32));
}
static void put_limbs(buf *b, const uint64_t *l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put_u64(b, l[i]);
}
/* standard form, little-endian (r1cs and wtns values) */
static void put_fr(buf *b, const cuzk_fr *v)
{
    uint64_t l[CUZK_FR_LIMBS];
    cuzk_fr_to_canonical(l, v);
    put_limbs(b, l, CUZK_FR_LIMBS);
}
/* An iden3 binfile: magic, version, then (id, u64 size, body) per section. */
static buf binfile(const char *magic, uint32_t version, buf *sections, const uint32_t *ids,
                   int n)
{
    buf f = {0};
    put(&f, magic, 4);
    put_u32(&f, version);
    put_u32(&f, (uint32_t)n);
    for (int i = 0; i < n; i++) {
        put_u32(&f, ids[i]);
        put_u64(&f, sections[i].n);
        if (sections[i].n)
            put(&f, sections[i].p, sections[i].n);
        free(sections[i].p);
    }
    return f;
}

static void put_field_header(buf *h)
{
    put_u32(h, 32);
    put_limbs(h, CUZK_FR_MODULUS, CUZK_FR_LIMBS);
}

/* circom wires = cuzk variables: ONE, public (all written as outputs), aux (internal). */
static buf write_r1cs(const cuzk_r1cs *r)
{
    buf s[3] = {{0}};
    put_field_header(&s[0]);
    put_u32(&s[0], r->n_vars);
    put_u32(&s[0], r->n_public); /* nPubOut */
    put_u32(&s[0], 0);           /* nPubIn */
    put_u32(&s[0], 0);           /* nPrvIn */
    put_u64(&s[0], r->n_vars);   /* nLabels */
    put_u32(&s[0], (uint32_t)r->n_constraints);
    for (uint64_t i = 0; i < r->n_constraints; i++)
        for (int m = 0; m < 3; m++) {
            const cuzk_csr *c = &r->m[m];
            put_u32(&s[1], (uint32_t)(c->row_ptr[i + 1] - c->row_ptr[i]));
            for (uint64_t k = c->row_ptr[i]; k < c->row_ptr[i + 1]; k++) {
                put_u32(&s[1], c->col[k]);
                put_fr(&s[1], cuzk_r1cs_coeff(r, (cuzk_r1cs_matrix)m, k));
            }
        }
    for (uint32_t v = 0; v < r->n_vars; v++)
        put_u64(&s[2], v);
    static const uint32_t ids[3] = {1, 2, 3};
    return binfile("r1cs", 1, s, ids, 3);
}

static buf write_wtns(const cuzk_fr *w, uint32_t n)
{
    buf s[2] = {{0}};
    put_field_header(&s[0]);
    put_u32(&s[0], n);
    for (uint32_t i = 0; i < n; i++)
        put_fr(&s[1], &w[i]);
    static const uint32_t ids[2] = {1, 2};
    return binfile("wtns", 2, s, ids, 2);
}

static void save(const char *dir, const char *name, buf *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->p, 1, b->n, f) != b->n || fclose(f) != 0)
        die(path);
    free(b->p);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        die("usage: cuzk_cli_fixture DIR");
    test_rng_init("cli_fixture");
    tc_circuit c;
    if (tc_mixed(&c, 3, 4, 8, test_rng_u64() & 0xffff) != 0)
        die("circuit");
    cuzk_error e;
    cuzk_witness wv = cuzk_witness_dense(c.w, c.r1cs->n_vars);
    if (cuzk_r1cs_check(c.r1cs, &wv, NULL, &e) != CUZK_OK)
        die(e.msg);
    uint8_t seed[32];
    test_rng_bytes(seed, sizeof seed);
    cuzk_groth16_pk pk;
    cuzk_groth16_vk vk;
    if (cuzk_groth16_setup_dev(&pk, &vk, c.r1cs, CUZK_GROTH16_SNARKJS, seed, NULL, &e) !=
        CUZK_OK)
        die(e.msg);
    buf f = write_r1cs(c.r1cs);
    save(argv[1], "c.r1cs", &f);
    f = write_wtns(c.w, c.r1cs->n_vars);
    save(argv[1], "w.wtns", &f);
    cuzk_fr one = tc_u(1);
    cuzk_fr_add(&c.w[c.r1cs->n_vars - 1], &c.w[c.r1cs->n_vars - 1], &one);
    if (cuzk_r1cs_check(c.r1cs, &wv, NULL, &e) != CUZK_ERR_UNSATISFIED)
        die("the changed witness still satisfies the circuit");
    f = write_wtns(c.w, c.r1cs->n_vars);
    save(argv[1], "bad.wtns", &f);
    zkey_buf z = zkey_write(&pk, c.r1cs);
    f = (buf){z.p, z.n, z.cap};
    save(argv[1], "k.zkey", &f);
#ifdef CUZK_HAVE_JANSSON
    char *text;
    if (cuzk_groth16_vk_to_snarkjs_json(&text, &vk, &e) != CUZK_OK)
        die(e.msg);
    f = (buf){(uint8_t *)text, strlen(text), 0};
    save(argv[1], "vk.json", &f);
#endif
    cuzk_groth16_pk_free(&pk);
    cuzk_groth16_vk_free(&vk);
    tc_free(&c);
    return 0;
}
