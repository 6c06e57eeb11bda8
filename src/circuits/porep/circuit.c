/*
 * circuit.c — making a StackedDRG partition circuit (cuzk/porep.h): from a parsed C1 output
 * (checked here for everything the synthesis relies on: the partition exists, the C1's
 * shape is the sector size's circuit, every Merkle path has the tree's height and arities,
 * comm_r_last and comm_c agree across the partition's challenges as StackedCompound's
 * circuit() requires), or as a placeholder without values for counting and recording.
 *
 * Threading: make/free are pure; a made circuit is immutable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/porep/porep_internal.h"

/* "2 KiB", "512 MiB", "32 GiB" for messages. */
static const char *size_name(uint64_t b, char buf[24])
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    unsigned u = 0;
    while (u < 4 && b >= 1024 && b % 1024 == 0) {
        b /= 1024;
        u++;
    }
    snprintf(buf, 24, "%llu %s", (unsigned long long)b, unit[u]);
    return buf;
}

/* The path's height and arities are the tree's; every position is inside its level. */
static cuzk_status check_path(const cuzk_c1_merkle_proof *m, unsigned levels, unsigned base,
                              unsigned base_levels, unsigned sub, unsigned top,
                              const char *where, const char *what, cuzk_error *err)
{
    if (m->n_levels != levels)
        return cuzk_error_set(err, CUZK_ERR_LENGTH, "porep circuit: %s %s: %u levels, the tree has %u",
                              where, what, m->n_levels, levels);
    if (!m->siblings)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "porep circuit: %s %s: no siblings",
                              where, what);
    for (unsigned l = 0; l < levels; l++) {
        unsigned want = l < base_levels ? base : (l == base_levels && sub) ? sub : top;
        if (m->arity[l] != want)
            return cuzk_error_set(err, CUZK_ERR_LENGTH,
                                  "porep circuit: %s %s: level %u has arity %u, the tree %u",
                                  where, what, l, m->arity[l], want);
        if (m->index[l] >= want)
            return cuzk_error_set(err, CUZK_ERR_FORMAT,
                                  "porep circuit: %s %s: level %u position %u >= arity %u",
                                  where, what, l, m->index[l], want);
    }
    return CUZK_OK;
}

static cuzk_status check_challenge(const cuzk_porep_shape *s, const cuzk_c1_challenge_proof *p,
                                   const cuzk_c1_challenge_proof *first, const char *where,
                                   cuzk_error *err)
{
    unsigned rc_levels = s->base_levels + (s->sub_arity ? 1 : 0) + (s->top_arity ? 1 : 0);
    cuzk_status st = check_path(&p->comm_d_proof, s->tree_d_levels, 2, s->tree_d_levels, 0, 0,
                                where, "comm_d_proofs", err);
    if (!st)
        st = check_path(&p->comm_r_last_proof, rc_levels, s->base_arity, s->base_levels,
                        s->sub_arity, s->top_arity, where, "comm_r_last_proof", err);
    const cuzk_c1_column_proof *cols[1 + CUZK_C1_DRG_PARENTS + CUZK_C1_EXP_PARENTS];
    cols[0] = &p->c_x;
    for (unsigned j = 0; j < CUZK_C1_DRG_PARENTS; j++)
        cols[1 + j] = &p->drg_parents[j];
    for (unsigned j = 0; j < CUZK_C1_EXP_PARENTS; j++)
        cols[1 + CUZK_C1_DRG_PARENTS + j] = &p->exp_parents[j];
    for (unsigned j = 0; j < sizeof cols / sizeof *cols && !st; j++) {
        char what[40];
        if (j == 0)
            snprintf(what, sizeof what, "c_x");
        else if (j <= CUZK_C1_DRG_PARENTS)
            snprintf(what, sizeof what, "drg_parents[%u]", j - 1);
        else
            snprintf(what, sizeof what, "exp_parents[%u]", j - 1 - CUZK_C1_DRG_PARENTS);
        if (!cols[j]->rows)
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "porep circuit: %s %s: no rows",
                                  where, what);
        st = check_path(&cols[j]->proof, rc_levels, s->base_arity, s->base_levels,
                        s->sub_arity, s->top_arity, where, what, err);
    }
    if (st)
        return st;
    if (!p->labeling)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "porep circuit: %s: no labeling proofs (the challenge)", where);
    if (memcmp(p->comm_r_last_proof.root, first->comm_r_last_proof.root, 32) != 0)
        return cuzk_error_set(err, CUZK_ERR_INVALID_PROOF,
                              "porep circuit: %s: comm_r_last differs from challenge 0's", where);
    if (memcmp(p->c_x.proof.root, first->c_x.proof.root, 32) != 0)
        return cuzk_error_set(err, CUZK_ERR_INVALID_PROOF,
                              "porep circuit: %s: comm_c differs from challenge 0's", where);
    return CUZK_OK;
}

cuzk_status porep_check_c1(const cuzk_c1_output *c1, unsigned partition, cuzk_porep_shape *s,
                           bool paths, cuzk_error *err)
{
    if (!c1 || !c1->proofs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "porep circuit: no C1 output");
    cuzk_status st = cuzk_porep_shape_for_size(c1->info.sector_size, s, err);
    if (st)
        return st;
    char sz[24];
    size_name(s->sector_size, sz);
    if (partition >= c1->info.partitions)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "porep circuit: partition %u out of range: the C1 output has %u",
                              partition, c1->info.partitions);
    if (c1->info.challenges != s->challenges)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "porep circuit: the C1 output has %u challenges per partition, "
                              "the %s circuit has %u",
                              c1->info.challenges, sz, s->challenges);
    if (c1->info.layers != s->layers)
        return cuzk_error_set(err, CUZK_ERR_LENGTH,
                              "porep circuit: the C1 output has %u layers, the %s circuit has %u",
                              c1->info.layers, sz, s->layers);
    const cuzk_c1_challenge_proof *p = c1->proofs + (size_t)partition * s->challenges;
    for (unsigned i = 0; i < s->challenges; i++) {
        char where[48];
        snprintf(where, sizeof where, "partition %u challenge %u", partition, i);
        st = paths ? check_challenge(s, &p[i], &p[0], where, err)
             : p[i].labeling ? CUZK_OK
                             : cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                              "porep circuit: %s: no labeling proofs", where);
        if (st)
            return st;
    }
    return CUZK_OK;
}

cuzk_status cuzk_porep_circuit_make(const cuzk_c1_output *c1, unsigned partition,
                                    cuzk_porep_circuit **out, cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "porep circuit: out is NULL");
    *out = NULL;
    cuzk_porep_shape s;
    cuzk_status st = porep_check_c1(c1, partition, &s, true, err);
    if (st)
        return st;
    cuzk_porep_circuit *c = calloc(1, sizeof *c);
    if (!c)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "porep circuit: out of memory");
    c->shape = s;
    c->c1 = c1;
    c->partition = partition;
    *out = c;
    return CUZK_OK;
}

cuzk_status cuzk_porep_circuit_placeholder(uint64_t sector_size, cuzk_porep_circuit **out,
                                           cuzk_error *err)
{
    if (!out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "porep circuit: out is NULL");
    *out = NULL;
    cuzk_porep_shape s;
    cuzk_status st = cuzk_porep_shape_for_size(sector_size, &s, err);
    if (st)
        return st;
    cuzk_porep_circuit *c = calloc(1, sizeof *c);
    if (!c)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "porep circuit: out of memory");
    c->shape = s;
    *out = c;
    return CUZK_OK;
}

void cuzk_porep_circuit_free(cuzk_porep_circuit *c)
{
    free(c);
}

const cuzk_porep_shape *cuzk_porep_circuit_shape(const cuzk_porep_circuit *c)
{
    return c ? &c->shape : NULL;
}
