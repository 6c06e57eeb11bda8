/*
 * post_check_pool.c — cuzk_post_job_check (cuzk/post.h): a PoSt job's paths, comm_r and
 * challenges checked over the pool in slices of sectors, with the sequential check's
 * message on failure.
 * Threading: slices on the pool; the job is only read.
 */
#include "cuzk/post.h"

#define CHECK_SLICE 32u

typedef struct check_ctx {
    const cuzk_post_job *job;
    _Atomic int failed;
} check_ctx;

static void check_range(void *arg, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    check_ctx *c = arg;
    const cuzk_post_job *job = c->job;
    for (size_t s = begin; s < end && !c->failed; s++) {
        uint32_t first = (uint32_t)s * CHECK_SLICE;
        uint32_t n = job->n_sectors - first < CHECK_SLICE ? job->n_sectors - first : CHECK_SLICE;
        cuzk_post_partition p = {job->info, job->partition_index, n, job->sectors + first};
        if (cuzk_post_partition_check(&p, job->randomness, NULL) != CUZK_OK ||
            (first && job->sectors[first].sector_id <= job->sectors[first - 1].sector_id))
            c->failed = 1;
    }
}

cuzk_status cuzk_post_job_check(const cuzk_post_job *job, cuzk_pool *pool, cuzk_error *err)
{
    if (!job)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "PoSt check: no job");
    cuzk_post_partition whole = cuzk_post_job_partition(job);
    if (!pool || (job->info.api != CUZK_POST_API_1_2 && job->info.kind != CUZK_POST_WINNING))
        return cuzk_post_partition_check(&whole, job->randomness, err);
    check_ctx c = {job, 0};
    size_t slices = (job->n_sectors + CHECK_SLICE - 1) / CHECK_SLICE;
    if (cuzk_pool_for(pool, slices, check_range, &c, 1) == CUZK_OK && !c.failed)
        return CUZK_OK;
    cuzk_status st = cuzk_post_partition_check(&whole, job->randomness, err);
    return st != CUZK_OK ? st
                         : cuzk_error_set(err, CUZK_ERR_INTERNAL,
                                          "PoSt check: a slice failed, the whole passed");
}
