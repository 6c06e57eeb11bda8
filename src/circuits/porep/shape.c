/*
 * shape.c — what each sector size fixes in the StackedDRG circuit (cuzk_porep_shape):
 * layers and challenges per partition (filecoin-proofs' LAYERS and
 * POREP_MINIMUM_CHALLENGES: 2 for the test sizes, ceil(176 / 10 partitions) = 18 for
 * production), tree D's height (log2 nodes) and trees R/C's shape (Poseidon-8 base trees,
 * plus an arity-8 sub level for 32 GiB and an arity-2 top level for 64 GiB).
 * The C1 parser's registered-proof table (src/filecoin/c1_output.c) says the same per
 * proof name; the circuit keeps its own so it can be counted from a size alone and so a
 * C1 struct that disagrees with the keys' circuit is refused.
 *
 * Threading: pure functions over a constant table.
 */
#include "circuits/porep/porep_internal.h"

static const struct {
    uint64_t sector_size;
    uint32_t layers, challenges, sub_arity, top_arity;
} k_shapes[] = {
    {2048ull, 2, 2, 0, 0},
    {8ull << 20, 2, 2, 0, 0},
    {512ull << 20, 2, 2, 0, 0},
    {32ull << 30, 11, 18, 8, 0},
    {64ull << 30, 11, 18, 8, 2},
};

static uint32_t log2_u64(uint64_t v)
{
    uint32_t l = 0;
    while (v > 1) {
        v >>= 1;
        l++;
    }
    return l;
}

cuzk_status cuzk_porep_shape_for_size(uint64_t sector_size, cuzk_porep_shape *out,
                                      cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "porep shape: out is NULL");
    for (size_t i = 0; i < sizeof k_shapes / sizeof *k_shapes; i++) {
        if (k_shapes[i].sector_size != sector_size)
            continue;
        out->sector_size = sector_size;
        out->nodes = sector_size / 32;
        out->layers = k_shapes[i].layers;
        out->challenges = k_shapes[i].challenges;
        out->tree_d_levels = log2_u64(out->nodes);
        out->base_arity = 8;
        out->sub_arity = k_shapes[i].sub_arity;
        out->top_arity = k_shapes[i].top_arity;
        uint64_t base_nodes = out->nodes / (out->sub_arity ? out->sub_arity : 1) /
                              (out->top_arity ? out->top_arity : 1);
        out->base_levels = log2_u64(base_nodes) / 3;
        return CUZK_OK;
    }
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                          "porep: no circuit for sector size %llu bytes (2 KiB, 8 MiB, "
                          "512 MiB, 32 GiB or 64 GiB)",
                          (unsigned long long)sector_size);
}
