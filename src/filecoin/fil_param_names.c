/*
 * fil_param_names.c — Filecoin's PoRep parameter file names (cuzk/param_digest.h), in the
 * filecoin layer so that the engine (src/engine/kind_fil_keys.c) and the CLI (cuzk verify-seal
 * --params-dir) find the same files. The name is rust-fil-proofs' parameter-cache id: "v28-" +
 * the circuit's identifier + "-" + SHA-256 of its public-params identifier, as in Filecoin's
 * parameters.json; every PoRep variant (V1, V1_1, synthetic, NI) of a sector size proves with
 * the same circuit and file.
 * Threading: pure (constant tables).
 */
#include <stddef.h>

#include "cuzk/param_digest.h"

#define PFX_POREP "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-"

const char *cuzk_porep_param_base(uint64_t sector_size)
{
    static const struct {
        uint64_t size;
        const char *name;
    } k_files[] = {
        {2048ull, PFX_POREP "8-0-0-sha256_hasher-"
                            "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f"},
        {8ull << 20, PFX_POREP "8-0-0-sha256_hasher-"
                               "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb"},
        {512ull << 20, PFX_POREP "8-0-0-sha256_hasher-"
                                 "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472"},
        {32ull << 30, PFX_POREP "8-8-0-sha256_hasher-"
                                "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820"},
        {64ull << 30, PFX_POREP "8-8-2-sha256_hasher-"
                                "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2"},
    };
    for (size_t i = 0; i < sizeof k_files / sizeof k_files[0]; i++)
        if (k_files[i].size == sector_size)
            return k_files[i].name;
    return NULL;
}
