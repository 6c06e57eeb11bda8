/*
 * snap_info.c — the SnapDeals shapes per sector size (storage-proofs-update constants.rs:
 * partition_count, challenge_count, apex_leaf_count, hs, validate_tree_r_shape; vanilla.rs
 * PublicParams::from_sector_size and from_sector_size_poseidon), the registered update
 * proofs (filecoin-proofs-api RegisteredUpdateProof, Go abi numbering), and the structural
 * check of a partition's vanilla proof against its shape.
 *
 * Threading: pure functions over constant tables.
 */
#include <string.h>

#include "cuzk/snap_circuit.h"

typedef struct size_row {
    const char *name;
    uint32_t log2_nodes;
    uint32_t sub_arity, top_arity;
} size_row;

/* Registered sizes first (Go abi.RegisteredUpdateProof 0..4), then the rust test sizes. */
static const size_row k_sizes[] = {
    {"StackedDrg2KiBV1", 6, 0, 0},     {"StackedDrg8MiBV1", 18, 0, 0},
    {"StackedDrg512MiBV1", 24, 0, 0},  {"StackedDrg32GiBV1", 30, 8, 0},
    {"StackedDrg64GiBV1", 31, 8, 2},   {"StackedDrg1KiBTest", 5, 4, 0},
    {"StackedDrg4KiBTest", 7, 2, 0},   {"StackedDrg8KiBTest", 8, 4, 0},
    {"StackedDrg16KiBTest", 9, 8, 0},  {"StackedDrg32KiBTest", 10, 8, 2},
    {"StackedDrg16MiBTest", 19, 2, 0},
};
#define N_SIZES (sizeof k_sizes / sizeof k_sizes[0])
#define N_REGISTERED 5u

static uint32_t log2u(uint32_t x) { return x ? (uint32_t)__builtin_ctz(x) : 0; }

static void fill(cuzk_snap_info *o, size_t s, cuzk_snap_variant variant)
{
    const size_row *r = &k_sizes[s];
    memset(o, 0, sizeof *o);
    o->name = r->name;
    o->variant = variant;
    o->nodes = 1ull << r->log2_nodes;
    o->sector_size = o->nodes * 32;
    o->challenge_bits = r->log2_nodes;
    /* thresholds in nodes: 8 KiB = 2^8, 32 KiB = 2^10, 16 MiB = 2^19 */
    uint32_t partitions = r->log2_nodes <= 8 ? 1 : r->log2_nodes <= 10 ? 2 : r->log2_nodes <= 19 ? 4 : 16;
    uint32_t challenges = r->log2_nodes <= 19 ? 10 : 86;
    if (variant == CUZK_SNAP_POSEIDON) {
        o->partitions = 1;
        o->challenges = challenges * partitions;
    } else {
        o->partitions = partitions;
        o->partition_bits = log2u(partitions);
        o->challenges = challenges;
        o->apex_leaves = r->log2_nodes <= 8 ? 8 : 128;
        o->apex_bits = log2u(o->apex_leaves);
    }
    for (unsigned i = 0; i < CUZK_SNAP_HS; i++)
        o->hs[i] = r->log2_nodes <= 10 ? 1 : 7 + i;
    o->h = o->hs[3];
    o->base_arity = 8;
    o->sub_arity = r->sub_arity;
    o->top_arity = r->top_arity;
    o->base_levels = (r->log2_nodes - log2u(r->sub_arity) - log2u(r->top_arity)) / 3;
}

cuzk_status cuzk_snap_info_get(uint64_t sector_size, cuzk_snap_variant variant,
                               cuzk_snap_info *out, cuzk_error *err)
{
    if (!out || (variant != CUZK_SNAP_MAIN && variant != CUZK_SNAP_POSEIDON))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals: bad argument");
    for (size_t s = 0; s < N_SIZES; s++)
        if ((32ull << k_sizes[s].log2_nodes) == sector_size) {
            fill(out, s, variant);
            return CUZK_OK;
        }
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "SnapDeals: no sector size of %llu bytes",
                          (unsigned long long)sector_size);
}

cuzk_status cuzk_snap_info_from_name(const char *name, cuzk_snap_info *out, cuzk_error *err)
{
    if (!name || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals: bad argument");
    for (size_t s = 0; s < N_REGISTERED; s++)
        if (!strcmp(name, k_sizes[s].name)) {
            fill(out, s, CUZK_SNAP_MAIN);
            return CUZK_OK;
        }
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "SnapDeals: unknown update proof \"%.64s\"",
                          name);
}

cuzk_status cuzk_snap_info_from_abi(uint64_t abi, cuzk_snap_info *out, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals: bad argument");
    if (abi >= N_REGISTERED)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "SnapDeals: unknown update proof number %llu",
                              (unsigned long long)abi);
    fill(out, (size_t)abi, CUZK_SNAP_MAIN);
    return CUZK_OK;
}

uint32_t cuzk_snap_info_r_levels(const cuzk_snap_info *in)
{
    return in->base_levels + (in->sub_arity ? 1 : 0) + (in->top_arity ? 1 : 0);
}

uint32_t cuzk_snap_info_d_levels(const cuzk_snap_info *in)
{
    return in->variant == CUZK_SNAP_POSEIDON ? cuzk_snap_info_r_levels(in) : in->challenge_bits;
}

uint64_t cuzk_snap_h_select(const cuzk_snap_info *in, uint32_t h)
{
    for (unsigned i = 0; i < CUZK_SNAP_HS; i++)
        if (in->hs[i] == h)
            return 1ull << i;
    return 0;
}

/* arity of level l of tree R */
static uint32_t r_arity(const cuzk_snap_info *in, uint32_t l)
{
    if (l < in->base_levels)
        return in->base_arity;
    if (l == in->base_levels && in->sub_arity)
        return in->sub_arity;
    return in->top_arity;
}

static cuzk_status check_path(const cuzk_snap_partition *p, uint32_t c, const char *tree,
                              const cuzk_c1_merkle_proof *m, int binary, cuzk_error *err)
{
    const cuzk_snap_info *in = &p->info;
    uint32_t levels = binary ? in->challenge_bits : cuzk_snap_info_r_levels(in);
    if (m->n_levels != levels)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "SnapDeals partition %u challenge %u: tree %s path has %u levels, "
                              "expected %u", p->k, c, tree, m->n_levels, levels);
    cuzk_fr f;
    if (cuzk_fr_from_bytes_le(&f, m->leaf) || cuzk_fr_from_bytes_le(&f, m->root))
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "SnapDeals partition %u challenge %u: tree %s leaf or root is not "
                              "a canonical field element", p->k, c, tree);
    for (uint32_t l = 0; l < levels; l++) {
        uint32_t a = binary ? 2 : r_arity(in, l);
        if (m->arity[l] != a || m->index[l] >= a)
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "SnapDeals partition %u challenge %u: tree %s level %u has "
                                  "arity %u index %u, expected arity %u",
                                  p->k, c, tree, l, m->arity[l], m->index[l], a);
    }
    return CUZK_OK;
}

cuzk_status cuzk_snap_partition_check_shape(const cuzk_snap_partition *p, cuzk_error *err)
{
    if (!p || !p->proof)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "SnapDeals: no partition proof");
    const cuzk_snap_info *in = &p->info;
    const cuzk_snap_partition_proof *pp = p->proof;
    if (p->k >= in->partitions)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "SnapDeals: partition %u out of range (%u partitions)", p->k,
                              in->partitions);
    if (!cuzk_snap_h_select(in, p->h))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "SnapDeals: h = %u is not allowed for %s", p->h, in->name);
    cuzk_fr f;
    if (cuzk_fr_from_bytes_le(&f, p->comm_r_old) || cuzk_fr_from_bytes_le(&f, p->comm_d_new) ||
        cuzk_fr_from_bytes_le(&f, p->comm_r_new) || cuzk_fr_from_bytes_le(&f, pp->comm_c))
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "SnapDeals partition %u: a commitment is not a canonical field "
                              "element", p->k);
    if (pp->n_apex != in->apex_leaves || (in->apex_leaves && !pp->apex_leaves))
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "SnapDeals partition %u: %u apex leaves, expected %u", p->k,
                              pp->n_apex, in->apex_leaves);
    for (uint32_t i = 0; i < pp->n_apex; i++)
        if (cuzk_fr_from_bytes_le(&f, pp->apex_leaves[i]))
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "SnapDeals partition %u: apex leaf %u is not canonical", p->k, i);
    if (pp->n_challenges != in->challenges || !pp->challenges)
        return cuzk_error_set(err, CUZK_ERR_FORMAT,
                              "SnapDeals partition %u: %u challenge proofs, expected %u", p->k,
                              pp->n_challenges, in->challenges);
    int d_binary = in->variant == CUZK_SNAP_MAIN;
    for (uint32_t c = 0; c < pp->n_challenges; c++) {
        const cuzk_snap_challenge_proof *cp = &pp->challenges[c];
        cuzk_status st;
        if ((st = check_path(p, c, "R-old", &cp->r_old, 0, err)) ||
            (st = check_path(p, c, "D-new", &cp->d_new, d_binary, err)) ||
            (st = check_path(p, c, "R-new", &cp->r_new, 0, err)))
            return st;
    }
    return CUZK_OK;
}
