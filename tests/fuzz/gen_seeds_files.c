/*
 * gen_seeds_files.c — the seed corpora of the file-reader fuzz targets, so that each starts
 * from files its reader accepts and mutations begin on the accepting path:
 *   fuzz_r1cs, fuzz_wtns   the circom/snarkjs files of fuzz_templates.h
 *   fuzz_params            a dev-setup bellperson .params, its .vk, a 192-byte proof and
 *                          public-input bytes (x^3 + x + 5 circuit)
 *   fuzz_zkey              a dev-setup snarkjs .zkey (tests/support/zkey_writer.c) of a
 *                          small mixed circuit, with public inputs, bits and C-only terms
 *   fuzz_json              proof.json, public.json, verification_key.json from the writers
 *   fuzz_csr_cache         a CSR cache of the x^3 + x + 5 circuit
 * Every valid seed is first read back through the reader the target fuzzes; a refusal
 * fails the build (a seed corpus that silently stopped being valid would leave the
 * accepting paths unfuzzed again). Without jansson the JSON readers only say
 * CUZK_ERR_UNSUPPORTED, and fuzz_json gets a single "{}" seed. Single-threaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/test_groth16_circuits.h"
#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "cuzk/r1cs_cache.h"
#include "fuzz_templates.h"
#include "gen_seeds.h"
#include "zkey_writer.h"

static size_t from_hex(uint8_t *out, const char *hex)
{
    size_t n = 0;
    for (const char *h = hex; h[0] && h[1]; h += 2) {
        unsigned hi = (unsigned)h[0], lo = (unsigned)h[1];
        hi = hi <= '9' ? hi - '0' : hi - 'a' + 10;
        lo = lo <= '9' ? lo - '0' : lo - 'a' + 10;
        out[n++] = (uint8_t)(hi << 4 | lo);
    }
    return n;
}

static void snarkjs_file_seeds(const char *root)
{
    static uint8_t r1cs[sizeof k_r1cs_template / 2], wtns[sizeof k_wtns_template / 2];
    size_t nr = from_hex(r1cs, k_r1cs_template), nw = from_hex(wtns, k_wtns_template);
    cuzk_r1cs *r = NULL;
    seeds_require(cuzk_r1cs_from_snarkjs(&r, NULL, r1cs, nr, NULL) == CUZK_OK,
                  "the .r1cs template is refused");
    cuzk_r1cs_destroy(r);
    seeds_put(seeds_dir(root, "fuzz_r1cs"), "cubic.r1cs", r1cs, nr);

    uint32_t n = 0;
    cuzk_fr v[16];
    seeds_require(cuzk_snarkjs_wtns_count(wtns, nw, &n, NULL) == CUZK_OK && n <= 16 &&
                      cuzk_frs_from_snarkjs_wtns(v, n, wtns, nw, NULL) == CUZK_OK,
                  "the .wtns template is refused");
    seeds_put(seeds_dir(root, "fuzz_wtns"), "cubic.wtns", wtns, nw);
}

/* Any well-formed proof will do for the decoders: the key's own points. */
static cuzk_groth16_proof proof_of(const cuzk_groth16_vk *vk)
{
    cuzk_groth16_proof p = {vk->alpha_g1, vk->beta_g2, vk->delta_g1};
    return p;
}

static void bellperson_seeds(const char *root)
{
    const char *dir = seeds_dir(root, "fuzz_params");
    tc_circuit c;
    seeds_require(tc_xcube(&c, 3) == 0, "tc_xcube");
    static const uint8_t seed[32] = {4, 5, 6};
    cuzk_groth16_pk pk;
    cuzk_groth16_vk vk;
    seeds_require(cuzk_groth16_setup_dev(&pk, &vk, c.r1cs, CUZK_GROTH16_BELLPERSON, seed, NULL,
                                         NULL) == CUZK_OK,
                  "bellperson dev setup");

    size_t n = cuzk_groth16_pk_bellperson_size(&pk);
    uint8_t *b = malloc(n);
    seeds_require(b && cuzk_groth16_pk_to_bellperson(b, n, &pk, NULL) == CUZK_OK,
                  "write .params");
    cuzk_groth16_pk back;
    seeds_require(cuzk_groth16_pk_from_bellperson(&back, b, n, CUZK_PARAMS_CHECKED, NULL,
                                                  NULL) == CUZK_OK,
                  "the .params seed is refused");
    cuzk_groth16_pk_free(&back);
    seeds_put(dir, "xcube.params", b, n);
    free(b);

    n = cuzk_groth16_vk_bellperson_size(&vk);
    b = malloc(n);
    seeds_require(b && cuzk_groth16_vk_to_bellperson(b, n, &vk, NULL) == CUZK_OK, "write .vk");
    cuzk_groth16_vk vback;
    size_t used = 0;
    seeds_require(cuzk_groth16_vk_from_bellperson(&vback, b, n, &used, NULL) == CUZK_OK &&
                      used == n,
                  "the .vk seed is refused");
    cuzk_groth16_vk_free(&vback);
    seeds_put(dir, "xcube.vk", b, n);
    free(b);

    uint8_t proof[CUZK_GROTH16_PROOF_BYTES];
    cuzk_groth16_proof p = proof_of(&vk), pback;
    cuzk_groth16_proof_to_bellperson(proof, &p);
    seeds_require(cuzk_groth16_proof_from_bellperson(&pback, proof, sizeof proof, NULL) ==
                      CUZK_OK,
                  "the proof seed is refused");
    seeds_put(dir, "proof.bin", proof, sizeof proof);

    uint8_t pub[32 * 4];
    seeds_require(c.r1cs->n_public <= 4, "x^3 + x + 5 has at most 4 public inputs");
    cuzk_frs_to_bellperson(pub, c.w + 1, c.r1cs->n_public);
    seeds_put(dir, "public.bin", pub, 32 * c.r1cs->n_public);

    cuzk_groth16_pk_free(&pk);
    cuzk_groth16_vk_free(&vk);
    tc_free(&c);
}

static void snarkjs_key_seeds(const char *root)
{
    tc_circuit c;
    seeds_require(tc_mixed(&c, 2, 3, 4, 7) == 0, "tc_mixed");
    static const uint8_t seed[32] = {7, 8, 9};
    cuzk_groth16_pk pk;
    cuzk_groth16_vk vk;
    seeds_require(cuzk_groth16_setup_dev(&pk, &vk, c.r1cs, CUZK_GROTH16_SNARKJS, seed, NULL,
                                         NULL) == CUZK_OK,
                  "snarkjs dev setup");

    sw_buf z = zkey_write(&pk, c.r1cs);
    cuzk_groth16_pk back;
    cuzk_r1cs *ab = NULL;
    cuzk_error e;
    cuzk_status st = cuzk_groth16_pk_from_snarkjs_zkey(&back, &ab, NULL, z.p, z.n,
                                                       CUZK_PARAMS_TRUSTED_ONCURVE, NULL, NULL,
                                                       NULL, &e);
    if (st != CUZK_OK)
        fprintf(stderr, "gen_seeds: %s\n", e.msg);
    seeds_require(st == CUZK_OK, "the .zkey seed is refused");
    cuzk_groth16_pk_free(&back);
    cuzk_r1cs_destroy(ab);
    seeds_put(seeds_dir(root, "fuzz_zkey"), "mixed.zkey", z.p, z.n);
    free(z.p);

    const char *dir = seeds_dir(root, "fuzz_json");
    char *proof_json = NULL, *pub_json = NULL, *vk_json = NULL;
    cuzk_groth16_proof p = proof_of(&vk);
    st = cuzk_groth16_proof_to_snarkjs_json(&proof_json, &p, NULL);
    if (st == CUZK_ERR_UNSUPPORTED) {
        fprintf(stderr, "gen_seeds: no JSON support in this build; fuzz_json gets \"{}\"\n");
        seeds_put(dir, "empty.json", "{}", 2);
    } else {
        seeds_require(st == CUZK_OK &&
                          cuzk_frs_to_snarkjs_json(&pub_json, c.w + 1, c.r1cs->n_public,
                                                   NULL) == CUZK_OK &&
                          cuzk_groth16_vk_to_snarkjs_json(&vk_json, &vk, NULL) == CUZK_OK,
                      "write JSON");
        cuzk_groth16_proof pp;
        cuzk_fr *v = NULL;
        size_t nv = 0;
        cuzk_groth16_vk vv;
        seeds_require(cuzk_groth16_proof_from_snarkjs_json(&pp, proof_json, strlen(proof_json),
                                                           NULL) == CUZK_OK,
                      "the proof.json seed is refused");
        seeds_require(cuzk_frs_from_snarkjs_json(&v, &nv, pub_json, strlen(pub_json), NULL) ==
                          CUZK_OK,
                      "the public.json seed is refused");
        seeds_require(cuzk_groth16_vk_from_snarkjs_json(&vv, vk_json, strlen(vk_json), NULL) ==
                          CUZK_OK,
                      "the verification_key.json seed is refused");
        free(v);
        cuzk_groth16_vk_free(&vv);
        seeds_put(dir, "proof.json", proof_json, strlen(proof_json));
        seeds_put(dir, "public.json", pub_json, strlen(pub_json));
        seeds_put(dir, "verification_key.json", vk_json, strlen(vk_json));
    }
    free(proof_json);
    free(pub_json);
    free(vk_json);
    cuzk_groth16_pk_free(&pk);
    cuzk_groth16_vk_free(&vk);
    tc_free(&c);
}

/* A CSR cache of the x^3 + x + 5 circuit, written straight into its seed folder. */
static void csr_cache_seeds(const char *root)
{
    tc_circuit c;
    seeds_require(tc_xcube(&c, 3) == 0, "xcube circuit");
    char path[4200];
    snprintf(path, sizeof path, "%s/xcube.csr", seeds_dir(root, "fuzz_csr_cache"));
    seeds_require(cuzk_r1cs_cache_write(path, "xcube", c.r1cs, NULL, NULL, NULL) == CUZK_OK,
                  "csr cache seed write");
    cuzk_r1cs *back = NULL;
    seeds_require(cuzk_r1cs_cache_open(path, "xcube", CUZK_R1CS_CACHE_CHECK_FULL, &back, NULL,
                                       NULL, NULL) == CUZK_OK,
                  "csr cache seed read back");
    cuzk_r1cs_destroy(back);
    tc_free(&c);
}

void seeds_files(const char *root)
{
    csr_cache_seeds(root);
    snarkjs_file_seeds(root);
    bellperson_seeds(root);
    snarkjs_key_seeds(root);
}
