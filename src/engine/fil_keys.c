/*
 * fil_keys.c — keys of the Filecoin kinds (fil_keys.h).
 *
 * A key is the circuit recorded once per (kind, sector size) — the placeholder PoRep
 * partition or the blank PoSt partition on the recording backend, with its witness map so
 * partitions are proved from compact witnesses; cached on disk and mapped on later loads
 * (fil_csr_cache.c) — plus a proving key:
 *   - Filecoin's .params from param_dir, named as Filecoin names them
 *     (v28-<prefix>-<sha256 of the public-params identifier>.params, parameters.json);
 *     checked against the recorded circuit (inputs, aux, domain, A/B densities) so a wrong
 *     file is an error, not invalid proofs. PoSt files of one size come in pairs (Window,
 *     Winning) that differ in their input count, so the file whose vk has the circuit's
 *     n_ic is taken. Before that, the file (and its .vk, when present, which must be the
 *     .params' own key) is checked against the digests of parameters.json in param_dir
 *     (cuzk/param_digest.h: hashed once, remembered); without parameters.json the load
 *     goes on and the log says the digests were not checked;
 *   - else, when dev_key_dir is set, a DEV key (cuzk's own setup, NOT Filecoin's trusted
 *     setup), loaded from dev_key_dir or made once and cached there (fil_dev_key).
 * Threading: reentrant; recording, setup and decoding use the pool.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/formats.h"
#include "cuzk/param_digest.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "cuzk/prover.h"
#include "cuzk/snap.h"
#include "engine/dev_setup.h"
#include "engine/fil_keys.h"
#include "engine/log.h"
#include "engine/sizes.h"
#include "engine/state.h"


static const struct {
    uint64_t size;
    const char *tag;
} k_sizes[] = {
    {2048ull, "2k"}, {8ull << 20, "8m"}, {512ull << 20, "512m"}, {32ull << 30, "32g"},
    {64ull << 30, "64g"},
};
#define N_SIZES (sizeof k_sizes / sizeof k_sizes[0])
static const char *k_prefix[] = {"porep-", "wpost-", "winning-", "snap-"};
#define N_PREFIX (sizeof k_prefix / sizeof k_prefix[0])

bool fil_circuit_id(fil_circuit c, uint64_t sector_size, char *out, size_t cap)
{
    for (size_t i = 0; i < N_SIZES; i++)
        if (k_sizes[i].size == sector_size)
            return snprintf(out, cap, "%s%s", k_prefix[c], k_sizes[i].tag) < (int)cap;
    return false;
}

bool fil_parse_id(const char *id, fil_circuit *c, uint64_t *sector_size)
{
    for (size_t k = 0; k < N_PREFIX; k++) {
        size_t n = strlen(k_prefix[k]);
        if (strncmp(id, k_prefix[k], n) != 0)
            continue;
        for (size_t i = 0; i < N_SIZES; i++)
            if (strcmp(id + n, k_sizes[i].tag) == 0) {
                *c = (fil_circuit)k;
                *sector_size = k_sizes[i].size;
                return true;
            }
    }
    return false;
}

bool fil_owns(const char *id)
{
    fil_circuit c;
    uint64_t s;
    return fil_parse_id(id, &c, &s);
}

/* ---- sizes (the exact counts: fil_counts.c; what they take in memory: fil_plan.c) -------- */

static size_t size_index(uint64_t sector_size)
{
    for (size_t i = 0; i < N_SIZES; i++)
        if (k_sizes[i].size == sector_size)
            return i;
    return 0;
}

unsigned fil_log2_domain(fil_circuit c, uint64_t sector_size)
{
    const cuzk_fil_counts *n = fil_counts(c, sector_size);
    return n ? n->log2n : 0;
}

/* ---- Filecoin's file names ------------------------------------------------------------- */

#define PFX_POREP "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-"
#define PFX_POST "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-"
#define PFX_SNAP "v28-empty-sector-update-merkletree-poseidon_hasher-"

/* parameters.json (rust-fil-proofs) names; PoRep: cuzk_porep_param_base (shared with the
 * CLI); PoSt: both files of the size. */
static const char *const k_post_files[N_SIZES][2] = {
    {PFX_POST "8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0",
     PFX_POST "8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e"},
    {PFX_POST "8-0-0-50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331",
     PFX_POST "8-0-0-5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9"},
    {PFX_POST "8-0-0-0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9",
     PFX_POST "8-0-0-7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781"},
    {PFX_POST "8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc",
     PFX_POST "8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e"},
    {PFX_POST "8-8-2-2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def",
     PFX_POST "8-8-2-b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c"},
};

/* SnapDeals (EmptySectorUpdate, main variant), one file per size (parameters.json). */
static const char *const k_snap_files[N_SIZES] = {
    PFX_SNAP "8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194",
    PFX_SNAP "8-0-0-92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63",
    PFX_SNAP "8-0-0-61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c",
    PFX_SNAP "8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18",
    PFX_SNAP "8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7",
};

/* n_ic of a .params (the u32 BE after the vk's fixed block), 0 if unreadable. */
static uint32_t file_n_ic(const char *path)
{
    uint8_t b[4];
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* a FIFO must not block */
    if (fd < 0)
        return 0;
    ssize_t r = pread(fd, b, 4, CUZK_BELLPERSON_VK_FIXED_BYTES);
    close(fd);
    return r == 4 ? (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]
                  : 0;
}

/* The .params for id in dir: path of the file (existing) or, when none exists, of the one
 * expected (the message names it). */
static bool params_file(const char *dir, fil_circuit c, uint64_t size, char *path, size_t cap)
{
    size_t i = size_index(size);
    if (c == FIL_SNAP) {
        if (snprintf(path, cap, "%s/%s.params", dir, k_snap_files[i]) >= (int)cap)
            return false;
        return access(path, R_OK) == 0;
    }
    if (c == FIL_POREP) {
        if (snprintf(path, cap, "%s/%s.params", dir, cuzk_porep_param_base(size)) >= (int)cap)
            return false;
        return access(path, R_OK) == 0;
    }
    const cuzk_fil_counts *n = fil_counts(c, size);
    uint64_t inputs = n ? n->inputs : 0;
    for (int f = 0; f < 2; f++) {
        if (snprintf(path, cap, "%s/%s.params", dir, k_post_files[i][f]) >= (int)cap)
            return false;
        if (access(path, R_OK) == 0 && file_n_ic(path) == inputs)
            return true;
    }
    snprintf(path, cap, "%s/%s*.params (the one of %" PRIu64 " public inputs)", dir,
             c == FIL_POREP ? PFX_POREP : PFX_POST, inputs - 1);
    return false;
}

bool fil_key_file(const cuzk_engine *e, const char *id, char *path, size_t cap)
{
    fil_circuit c;
    uint64_t size;
    return e->cfg.param_dir && fil_parse_id(id, &c, &size) &&
           params_file(e->cfg.param_dir, c, size, path, cap);
}

bool fil_dev_key_path(const char *dir, const char *id, char *path, size_t cap)
{
    return dir &&
           snprintf(path, cap, "%s/cuzk-DEV-UNTRUSTED-%s.dev.params", dir, id) < (int)cap;
}

cuzk_status fil_key_available(const cuzk_engine *e, const char *id, cuzk_error *err)
{
    char path[4096];
    if (fil_key_file(e, id, path, sizeof path) || e->cfg.dev_key_dir)
        return CUZK_OK;
    if (!e->cfg.param_dir)
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND,
                              "no Filecoin parameters for %s: the engine has no param_dir "
                              "(and no dev_key_dir for an untrusted dev key)",
                              id);
    return cuzk_error_set(err, CUZK_ERR_NOT_FOUND,
                          "no Filecoin parameters for %s: %s not found (and no dev_key_dir "
                          "for an untrusted dev key)",
                          id, path);
}

/* ---- the dev key -------------------------------------------------------------------------- */

/* The one place a dev key comes from: cuzk_groth16_dev_key_cached (loaded from cache_path
 * when its note's R1CS digest matches this circuit, else made and written atomically with
 * its "NOT Filecoin's trusted setup" note); in memory only without a cache path, or when
 * the cache cannot be used (a build without OpenSSL has no digest; an unwritable
 * directory), which is logged. */
static cuzk_status fil_dev_key(const cuzk_engine *e, const char *id, const char *cache_path,
                               const cuzk_r1cs *r1cs, cuzk_groth16_pk *pk, cuzk_pool *pool,
                               cuzk_error *err)
{
    /* on the engine's GPU when it has one (the same bytes as on the CPU) */
    cuzk_groth16_setup_opts so;
    cuzk_groth16_fixed_base_hook *hook = NULL;
    engine_setup_opts(e, id, &so, &hook);
    double t0 = engine_now_ms();
    cuzk_status st = CUZK_ERR_UNSUPPORTED;
    bool made = true;
    if (cache_path) {
        cuzk_error ce = {0};
        cuzk_dev_key_opts ko = {CUZK_DEV_KEY_STORE_AUTO, 0, &so};
        st = cuzk_groth16_dev_key_cached_ex(pk, NULL, r1cs, cache_path, pool, &ko, &made, &ce);
        if (st != CUZK_OK && st != CUZK_ERR_UNSUPPORTED && st != CUZK_ERR_IO) {
            if (err)
                *err = ce;
        } else if (st != CUZK_OK) {
            engine_log(e, CUZK_LOG_WARN, "dev key not cached at %s: %s", cache_path, ce.msg);
        }
    }
    if (!cache_path || st == CUZK_ERR_UNSUPPORTED || st == CUZK_ERR_IO) {
        cache_path = NULL;
        st = cuzk_groth16_setup_dev_ex(pk, NULL, r1cs, CUZK_GROTH16_BELLPERSON, NULL, pool, &so,
                                       err);
    }
    if (st == CUZK_OK)
        engine_log(e, CUZK_LOG_INFO, "dev key %s %s in %.1f s (%s)",
                   cache_path ? cache_path : "(in memory)", made ? "made" : "loaded",
                   (engine_now_ms() - t0) / 1e3, hook ? hook->name : "CPU");
    cuzk_prover_fixed_base_hook_close(hook);
    return st;
}

/* ---- loading ------------------------------------------------------------------------------ */

static void log_check(const cuzk_engine *e, const char *path, const cuzk_param_check *pc)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (pc->verdict == CUZK_PARAM_NO_MANIFEST || pc->verdict == CUZK_PARAM_UNCHECKABLE)
        engine_log(e, CUZK_LOG_WARN, "params: %s: digest NOT checked: %s", name, pc->reason);
    else if (pc->verdict == CUZK_PARAM_MATCHED_CACHED)
        engine_log(e, CUZK_LOG_INFO,
                   "params: %s: digest %s matches parameters.json (remembered; file unchanged)",
                   name, pc->actual);
    else
        engine_log(e, CUZK_LOG_INFO,
                   "params: %s: digest %s matches parameters.json (%.2f GiB hashed in %.1f s%s)",
                   name, pc->actual, pc->bytes_hashed / 1073741824.0, pc->seconds,
                   pc->cache_written ? "" : "; directory not writable: remembered by this "
                                            "process only");
}

/* Filecoin's .params, and its .vk when one lies beside it, against parameters.json before
 * anything is decoded (cuzk/param_digest.h); the .vk must be the .params' own key, so the
 * verifier that reads the small .vk and the prover agree. */
static cuzk_status check_param_files(const cuzk_engine *e, const char *id, const uint8_t *map,
                                     size_t map_len, cuzk_error *err)
{
    char path[4096], vk[4096];
    if (!fil_key_file(e, id, path, sizeof path))
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "%s: its .params left %s", id,
                              e->cfg.param_dir ? e->cfg.param_dir : "(no param_dir)");
    cuzk_param_check pc;
    cuzk_status st = cuzk_param_file_check(path, 0, &pc, err);
    if (st != CUZK_OK)
        return st;
    log_check(e, path, &pc);
    size_t n = strlen(path) - strlen(".params");
    snprintf(vk, sizeof vk, "%.*s.vk", (int)n, path);
    if (access(vk, F_OK) != 0)
        return CUZK_OK;
    if ((st = cuzk_param_file_check(vk, 0, &pc, err)) != CUZK_OK)
        return st;
    log_check(e, vk, &pc);
    return cuzk_param_vk_matches(map, map_len, path, vk, err);
}

/* Every kind records in parallel on the pool (a 32 GiB PoRep partition is ~2^27 rows:
 * minutes on one thread). */
static cuzk_status record(fil_circuit c, uint64_t size, cuzk_r1cs **r1cs, cuzk_witness_map *map,
                          cuzk_pool *pool, cuzk_error *err)
{
    if (c == FIL_SNAP) {
        /* the R1CS does not depend on k, h or the commitments (inputs only) */
        cuzk_snap_partition blank;
        memset(&blank, 0, sizeof blank);
        cuzk_status st = cuzk_snap_info_get(size, CUZK_SNAP_MAIN, &blank.info, err);
        blank.h = blank.info.h;
        if (st == CUZK_OK)
            st = cuzk_snap_record(&blank, pool, r1cs, map, err);
        return st;
    }
    if (c == FIL_POREP)
        return cuzk_porep_record(size, pool, r1cs, map, err);
    cuzk_post_partition blank = {0};
    cuzk_status st = cuzk_post_info_get(c == FIL_WPOST ? CUZK_POST_WINDOW : CUZK_POST_WINNING,
                                        size, &blank.info, err);
    if (st == CUZK_OK)
        st = cuzk_post_record(&blank, pool, r1cs, map, err);
    return st;
}

typedef struct record_args {
    fil_circuit c;
    uint64_t size;
    cuzk_pool *pool;
} record_args;

static cuzk_status record_cb(void *ctx, cuzk_r1cs **r1cs, cuzk_witness_map *map,
                             cuzk_error *err)
{
    const record_args *a = ctx;
    return record(a->c, a->size, r1cs, map, a->pool, err);
}

cuzk_status fil_load_key(const cuzk_engine *e, const char *id, const ereq *req,
                         const uint8_t *map, size_t map_len, srs_key *key, cuzk_pool *pool,
                         cuzk_error *err)
{
    (void)req;
    fil_circuit c;
    uint64_t size;
    if (!fil_parse_id(id, &c, &size))
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND, "unknown circuit id %s", id);
    memset(key, 0, sizeof *key);
    /* before recording: a 32 GiB circuit takes minutes and gigabytes to record (a file's
     * digest, once remembered, costs a stat) */
    cuzk_status st = map ? check_param_files(e, id, map, map_len, err)
                         : fil_key_available(e, id, err);
    if (st != CUZK_OK)
        return st;
    cuzk_witness_map *wm = calloc(1, sizeof *wm);
    if (!wm)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    cuzk_r1cs *r1cs = NULL;
    record_args ra = {c, size, pool};
    st = fil_circuit_cached(e, id, record_cb, &ra, &r1cs, wm, pool, err);
    if (st == CUZK_OK && map) {
        st = cuzk_groth16_pk_from_bellperson(&key->pk, map, map_len,
                                             CUZK_PARAMS_TRUSTED_ONCURVE, pool, err);
        if (st == CUZK_OK && (st = cuzk_groth16_pk_check_circuit(&key->pk, r1cs, err)) != CUZK_OK)
            cuzk_groth16_pk_free(&key->pk);
    } else if (st == CUZK_OK) {
        char path[4096];
        bool cached = fil_dev_key_path(e->cfg.dev_key_dir, id, path, sizeof path);
        engine_log(e, CUZK_LOG_WARN,
                   "srs: %s: using a DEV KEY (%s) — NOT Filecoin's trusted setup; its proofs "
                   "verify only against this dev key, never on chain",
                   id, cached ? path : "in memory");
        st = fil_dev_key(e, id, cached ? path : NULL, r1cs, &key->pk, pool, err);
    }
    if (st != CUZK_OK) {
        cuzk_r1cs_destroy(r1cs);
        cuzk_witness_map_free(wm);
        free(wm);
        return st;
    }
    key->r1cs = r1cs;
    key->wmap = wm;
    key->bytes = engine_pk_bytes(&key->pk) + engine_r1cs_bytes(r1cs) +
                 engine_wmap_bytes(r1cs->n_vars);
    return CUZK_OK;
}
