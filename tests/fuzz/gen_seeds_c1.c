/*
 * gen_seeds_c1.c — the seed corpus of fuzz_c1: a consistent 2 KiB C1 output from
 * cuzk_c1_synth written as filecoin-ffi's JSON (~100 KB: generated at build time, not
 * committed), the same bytes in curio's base64 wrapper ({"SectorNum", "Phase1Out",
 * "SectorSize"}), and a second seed's output. Each is read back through cuzk_c1_parse and
 * must pass cuzk_c1_check and cuzk_c1_check_challenges, so mutations start on the
 * accepting path of the parser and of the checker. Without jansson or OpenSSL (no parser,
 * no checker, no synthesiser) the corpus is a single "{}". Single-threaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/c1.h"
#include "cuzk/c1_synth.h"
#include "cuzk/formats.h"
#include "gen_seeds.h"

#if defined(CUZK_HAVE_OPENSSL) && defined(CUZK_HAVE_JANSSON)
#include <openssl/evp.h>

/* The file at path must parse and pass both checks. */
static char *read_valid(const char *path, size_t *len)
{
    char *txt = NULL;
    cuzk_c1_output *c1 = NULL;
    cuzk_error e = {0};
    int ok = cuzk_file_read_text(&txt, len, path, (size_t)1 << 26, &e) == CUZK_OK &&
             cuzk_c1_parse(txt, *len, &c1, &e) == CUZK_OK && cuzk_c1_check(c1, &e) == CUZK_OK &&
             cuzk_c1_check_challenges(c1, &e) == CUZK_OK;
    if (!ok)
        fprintf(stderr, "gen_seeds: %s: %s\n", path, e.msg);
    seeds_require(ok, "a synthetic C1 seed is refused");
    cuzk_c1_free(c1);
    return txt;
}

void seeds_c1(const char *root)
{
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s", seeds_dir(root, "fuzz_c1"));
    static const uint64_t k_seeds[] = {1, 0x5eed};
    for (size_t i = 0; i < 2; i++) {
        cuzk_c1_output *c1 = NULL;
        cuzk_error e = {0};
        snprintf(path, sizeof path, "%s/c1-2k-%zu.json", dir, i);
        seeds_require(cuzk_c1_synth(2048, 1, k_seeds[i], &c1, &e) == CUZK_OK &&
                          cuzk_c1_write_json(c1, path, &e) == CUZK_OK,
                      "cuzk_c1_synth / cuzk_c1_write_json failed");
        cuzk_c1_synth_free(c1);
    }
    /* curio's wrapper around the first */
    size_t len = 0;
    snprintf(path, sizeof path, "%s/c1-2k-0.json", dir);
    char *txt = read_valid(path, &len);
    size_t cap = 4 * ((len + 2) / 3) + 1;
    char *b64 = malloc(cap), *doc = malloc(cap + 100);
    seeds_require(b64 && doc, "out of memory");
    EVP_EncodeBlock((unsigned char *)b64, (const unsigned char *)txt, (int)len);
    int n = snprintf(doc, cap + 100, "{\"SectorNum\":7,\"Phase1Out\":\"%s\",\"SectorSize\":2048}",
                     b64);
    seeds_put(dir, "c1-2k-wrapped.json", doc, (size_t)n);
    free(txt);
    snprintf(path, sizeof path, "%s/c1-2k-wrapped.json", dir);
    free(read_valid(path, &len));
    snprintf(path, sizeof path, "%s/c1-2k-1.json", dir);
    free(read_valid(path, &len));
    free(b64);
    free(doc);
}
#else
void seeds_c1(const char *root)
{
    seeds_put(seeds_dir(root, "fuzz_c1"), "empty.json", "{}", 2);
}
#endif
