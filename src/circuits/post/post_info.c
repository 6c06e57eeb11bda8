/*
 * post_info.c — the registered PoSt proofs (filecoin-proofs-api RegisteredPoStProof and
 * Go's abi numbering), the shapes they fix (filecoin-proofs constants.rs and
 * parameters.rs: WINDOW_POST_SECTOR_COUNT, WINDOW_POST_CHALLENGE_COUNT = 10,
 * WINNING_POST_CHALLENGE_COUNT = 66 over WINNING_POST_SECTOR_COUNT = 1 sector, laid out as
 * 66 circuit sectors of 1 challenge), and the structural check of a partition's vanilla
 * proofs against that shape.
 *
 * Threading: pure functions over constant tables.
 */
#include <string.h>

#include "cuzk/post_circuit.h"

typedef struct size_row {
    const char *tag;
    uint64_t sector_size;
    uint32_t window_sectors; /* WINDOW_POST_SECTOR_COUNT */
    uint32_t sub_arity, top_arity;
} size_row;

/* 2349 and 2300 keep one 32 / 64 GiB WindowPoSt partition under 2^27 rows (125,279,217
 * and 129,887,900 constraints, constants.rs). */
static const size_row k_sizes[] = {
    {"2KiB", 2048ull, 2, 0, 0},
    {"8MiB", 8ull << 20, 2, 0, 0},
    {"512MiB", 512ull << 20, 2, 0, 0},
    {"32GiB", 32ull << 30, 2349, 8, 0},
    {"64GiB", 64ull << 30, 2300, 8, 2},
};
#define N_SIZES (sizeof k_sizes / sizeof k_sizes[0])

/* Go abi.RegisteredPoStProof order within each run of five. */
static const char *const k_names[3][N_SIZES] = {
    {"StackedDrgWinning2KiBV1", "StackedDrgWinning8MiBV1", "StackedDrgWinning512MiBV1",
     "StackedDrgWinning32GiBV1", "StackedDrgWinning64GiBV1"},
    {"StackedDrgWindow2KiBV1", "StackedDrgWindow8MiBV1", "StackedDrgWindow512MiBV1",
     "StackedDrgWindow32GiBV1", "StackedDrgWindow64GiBV1"},
    {"StackedDrgWindow2KiBV1_2", "StackedDrgWindow8MiBV1_2", "StackedDrgWindow512MiBV1_2",
     "StackedDrgWindow32GiBV1_2", "StackedDrgWindow64GiBV1_2"},
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

/* run 0: Winning V1, 1: Window V1, 2: Window V1_2 */
static void fill(cuzk_post_info *out, unsigned run, size_t s)
{
    const size_row *r = &k_sizes[s];
    memset(out, 0, sizeof *out);
    out->name = k_names[run][s];
    out->kind = run == 0 ? CUZK_POST_WINNING : CUZK_POST_WINDOW;
    out->api = run == 2 ? CUZK_POST_API_1_2 : CUZK_POST_API_1_0;
    out->sector_size = r->sector_size;
    out->nodes = r->sector_size / 32;
    if (run == 0) {
        out->sectors = 66;
        out->challenges = 1;
        out->vanilla_challenges = 66;
    } else {
        out->sectors = r->window_sectors;
        out->challenges = 10;
        out->vanilla_challenges = 10;
    }
    out->base_arity = 8;
    out->sub_arity = r->sub_arity;
    out->top_arity = r->top_arity;
    uint64_t base_nodes = out->nodes;
    if (r->sub_arity)
        base_nodes /= r->sub_arity;
    if (r->top_arity)
        base_nodes /= r->top_arity;
    out->base_levels = log2_u64(base_nodes) / 3;
}

cuzk_status cuzk_post_info_from_name(const char *name, cuzk_post_info *out, cuzk_error *err)
{
    if (!name || !out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt info: NULL argument");
    for (unsigned run = 0; run < 3; run++)
        for (size_t s = 0; s < N_SIZES; s++)
            if (strcmp(name, k_names[run][s]) == 0) {
                fill(out, run, s);
                return CUZK_OK;
            }
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED, "PoSt: unknown registered proof \"%.64s\"",
                          name);
}

cuzk_status cuzk_post_info_from_abi(uint64_t abi, cuzk_post_info *out, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt info: NULL argument");
    if (abi >= 3 * N_SIZES)
        return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                              "PoSt: unknown registered proof number %llu",
                              (unsigned long long)abi);
    fill(out, (unsigned)(abi / N_SIZES), (size_t)(abi % N_SIZES));
    return CUZK_OK;
}

cuzk_status cuzk_post_info_get(cuzk_post_kind kind, uint64_t sector_size, cuzk_post_info *out,
                               cuzk_error *err)
{
    if (!out || (kind != CUZK_POST_WINNING && kind != CUZK_POST_WINDOW))
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt info: bad argument");
    for (size_t s = 0; s < N_SIZES; s++)
        if (k_sizes[s].sector_size == sector_size) {
            fill(out, kind == CUZK_POST_WINNING ? 0 : 2, s);
            return CUZK_OK;
        }
    return cuzk_error_set(err, CUZK_ERR_UNSUPPORTED,
                          "PoSt: no registered proof for sector size %llu",
                          (unsigned long long)sector_size);
}

uint32_t cuzk_post_info_levels(const cuzk_post_info *info)
{
    return info->base_levels + (info->sub_arity ? 1 : 0) + (info->top_arity ? 1 : 0);
}

static uint32_t level_arity(const cuzk_post_info *info, uint32_t l)
{
    if (l < info->base_levels)
        return info->base_arity;
    if (l == info->base_levels && info->sub_arity)
        return info->sub_arity;
    return info->top_arity;
}

uint32_t cuzk_post_partition_count(const cuzk_post_info *info, uint64_t n_sectors)
{
    if (!info || info->kind == CUZK_POST_WINNING || !info->sectors)
        return 1;
    uint64_t n = (n_sectors + info->sectors - 1) / info->sectors;
    return n ? (uint32_t)n : 1;
}

cuzk_status cuzk_post_partition_check_shape(const cuzk_post_partition *p, cuzk_error *err)
{
    if (!p || !p->given)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt partition: no sector proofs");
    const cuzk_post_info *in = &p->info;
    uint32_t levels = cuzk_post_info_levels(in);
    if (levels > CUZK_C1_MAX_LEVELS || !in->sectors || !in->challenges)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt partition: impossible shape");
    if (in->kind == CUZK_POST_WINNING) {
        if (p->n_given != 1)
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "PoSt: WinningPoSt takes 1 sector proof, got %u", p->n_given);
        if ((uint64_t)in->sectors * in->challenges != in->vanilla_challenges)
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt partition: impossible shape");
    } else {
        if (p->n_given < 1 || p->n_given > in->sectors)
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "PoSt: a WindowPoSt partition takes 1..%u sector proofs, got %u",
                                  in->sectors, p->n_given);
        if (in->challenges != in->vanilla_challenges)
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt partition: impossible shape");
    }
    for (uint32_t i = 0; i < p->n_given; i++) {
        const cuzk_post_sector_proof *s = &p->given[i];
        if (i > 0 && s->sector_id <= p->given[i - 1].sector_id)
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "PoSt: sector %u (id %llu): sector ids out of order (previous "
                                  "id %llu); they must be strictly increasing",
                                  i, (unsigned long long)s->sector_id,
                                  (unsigned long long)p->given[i - 1].sector_id);
        if (s->n_proofs != in->vanilla_challenges || !s->proofs)
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "PoSt: sector %u (id %llu): %u inclusion proofs, expected %u",
                                  i, (unsigned long long)s->sector_id, s->n_proofs,
                                  in->vanilla_challenges);
        for (uint32_t c = 0; c < s->n_proofs; c++) {
            const cuzk_c1_merkle_proof *m = &s->proofs[c];
            if (m->n_levels != levels || !m->siblings)
                return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                      "PoSt: sector %u (id %llu) challenge %u: path of %u levels, "
                                      "expected %u",
                                      i, (unsigned long long)s->sector_id, c, m->n_levels, levels);
            for (uint32_t l = 0; l < levels; l++)
                if (m->arity[l] != level_arity(in, l) || m->index[l] >= m->arity[l])
                    return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                          "PoSt: sector %u (id %llu) challenge %u: level %u has "
                                          "arity %u index %u, expected arity %u",
                                          i, (unsigned long long)s->sector_id, c, l, m->arity[l],
                                          m->index[l], level_arity(in, l));
            if (memcmp(m->root, s->comm_r_last, 32) != 0)
                return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                      "PoSt: sector %u (id %llu) challenge %u: the path's root is "
                                      "not the sector's comm_r_last",
                                      i, (unsigned long long)s->sector_id, c);
        }
    }
    return CUZK_OK;
}
