/*
 * kind_fil_verify.c — a Filecoin job's journaled result verified before it is served after
 * a restart (ekind.verify_result of the PoRep, PoSt and SnapDeals kinds; kind_fil.h).
 * Only the verifying key is read, never the proving key: the .vk beside the .params when
 * there is one (check_param_files holds it to be the .params' own key), else the vk at the
 * head of the .params (a few hundred KiB of a file of up to ~47 GB); for a dev key, the
 * cached key's .vk or the head of its .dev.params. A dev key made in memory only (no
 * dev_key_dir) is gone with the process that made it: nothing can verify its proofs, so
 * they are proved again. The public inputs are what a verifier derives from the job's
 * inputs (cuzk_porep_public_inputs, cuzk_post_public_inputs, cuzk_snap_public_inputs), for
 * the job planned again (plan->parsed).
 * Threading: reentrant; the verification's input sums run on the given pool.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/c1.h"
#include "cuzk/formats.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "cuzk/snap.h"
#include "cuzk/snap_circuit.h"
#include "engine/kind_fil.h"
#include "engine/state.h"

/* The vk at the head of a bellperson .params (or a whole .vk): the fixed block, the u32
 * BE count of IC points, the points. */
static cuzk_status vk_from_head(const char *path, cuzk_groth16_vk *vk, cuzk_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* a FIFO must not block */
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "%s: cannot open", path);
    uint8_t nb[4];
    cuzk_status st = CUZK_OK;
    uint8_t *b = NULL;
    size_t len = 0;
    if (pread(fd, nb, 4, CUZK_BELLPERSON_VK_FIXED_BYTES) != 4) {
        st = cuzk_error_set(err, CUZK_ERR_TRUNCATED, "%s: ends inside its vk", path);
    } else {
        uint64_t n_ic = (uint64_t)nb[0] << 24 | (uint64_t)nb[1] << 16 | (uint64_t)nb[2] << 8 |
                        nb[3];
        /* Filecoin's largest, a 32 GiB WindowPoSt, has 25,840: 2.5 MB */
        if (n_ic == 0 || n_ic > (1u << 20))
            st = cuzk_error_set(err, CUZK_ERR_FORMAT, "%s: a vk of %llu IC points", path,
                                (unsigned long long)n_ic);
        else if (!(b = malloc(len = CUZK_BELLPERSON_VK_FIXED_BYTES + 4 + n_ic * 96)))
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory reading %s", path);
        else if (pread(fd, b, len, 0) != (ssize_t)len)
            st = cuzk_error_set(err, CUZK_ERR_TRUNCATED, "%s: ends inside its vk", path);
    }
    close(fd);
    size_t used = 0;
    if (st == CUZK_OK)
        st = cuzk_groth16_vk_from_bellperson(vk, b, len, &used, err);
    free(b);
    return st;
}

/* The verifying key of circuit id, as the engine's key loader would find its key. */
static cuzk_status fil_load_vk(const cuzk_engine *e, const char *id, cuzk_groth16_vk *vk,
                               cuzk_error *err)
{
    char path[4096], side[4200];
    if (fil_key_file(e, id, path, sizeof path)) {
        size_t n = strlen(path) - strlen(".params");
        snprintf(side, sizeof side, "%.*s.vk", (int)n, path);
        return access(side, R_OK) == 0 ? cuzk_groth16_vk_load_bellperson(vk, side, err)
                                       : vk_from_head(path, vk, err);
    }
    if (fil_dev_key_path(e->cfg.dev_key_dir, id, path, sizeof path)) {
        snprintf(side, sizeof side, "%s" CUZK_DEV_KEY_VK_SUFFIX, path);
        if (access(side, R_OK) == 0)
            return cuzk_groth16_vk_load_bellperson(vk, side, err);
        if (access(path, R_OK) == 0)
            return vk_from_head(path, vk, err);
    }
    return cuzk_error_set(err, CUZK_ERR_NOT_FOUND,
                          "no verifying key of %s on disk (its .params, or a cached dev key)",
                          id);
}

cuzk_status fil_verify_result(const cuzk_engine *e, const ereq *req, const ekind_plan *plan,
                              const uint8_t *proofs, uint32_t partitions, cuzk_pool *pool,
                              cuzk_error *err)
{
    (void)req;
    fil_circuit c;
    uint64_t size;
    if (!plan->parsed || !fil_parse_id(plan->circuit_id, &c, &size))
        return cuzk_error_set(err, CUZK_ERR_INTERNAL, "no planned Filecoin job to verify");
    cuzk_groth16_vk vk = {0};
    cuzk_status st = fil_load_vk(e, plan->circuit_id, &vk, err);
    if (st != CUZK_OK)
        return st;
    size_t n = vk.n_ic ? vk.n_ic - 1 : 0;
    cuzk_fr *in = calloc((size_t)partitions * (n ? n : 1), sizeof *in);
    if (!in) {
        cuzk_groth16_vk_free(&vk);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory verifying");
    }
    for (uint32_t p = 0; p < partitions && st == CUZK_OK; p++) {
        cuzk_fr *o = in + (size_t)p * n;
        if (c == FIL_POREP) {
            st = cuzk_porep_public_inputs(plan->parsed, p, o, n, err);
        } else if (c == FIL_SNAP) {
            cuzk_snap_partition sp = cuzk_snap_job_partition(plan->parsed, p);
            st = n == 4 ? cuzk_snap_public_inputs(&sp, o, err)
                        : cuzk_error_set(err, CUZK_ERR_FORMAT,
                                         "the SnapDeals vk has %zu inputs, not 4", n);
        } else {
            const cuzk_post_job *job = plan->parsed;
            cuzk_post_partition pp = cuzk_post_job_partition(job);
            st = p == 0 ? cuzk_post_public_inputs(&pp, job->randomness, o, n, err)
                        : cuzk_error_set(err, CUZK_ERR_INTERNAL, "a PoSt job of %u partitions",
                                         partitions);
        }
    }
    if (st == CUZK_OK)
        st = engine_verify_partitions(&vk, in, n, proofs, partitions, pool, err);
    free(in);
    cuzk_groth16_vk_free(&vk);
    return st;
}
