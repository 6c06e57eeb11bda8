/*
 * kind_fil_keys.c — the keys of the Filecoin kinds by name (kind_fil.h): circuit ids
 * ("porep-32g", "wpost-2k", ...), the .params file each is decoded from, named as Filecoin
 * names them (parameters.json; PoSt files of one size come in pairs, Window and Winning,
 * told apart by their vk's input count), whether a key can be had at all (its .params in
 * param_dir, or a dev key allowed by dev_key_dir), and the dev key's cache file.
 * Loading is kind_fil_load.c.
 * Threading: reentrant; reads only the configuration and the file system.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/formats.h"
#include "cuzk/param_digest.h"
#include "engine/kind_fil.h"
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

static size_t size_index(uint64_t sector_size)
{
    for (size_t i = 0; i < N_SIZES; i++)
        if (k_sizes[i].size == sector_size)
            return i;
    return 0;
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

bool fil_official_base(const char *id, char *out, size_t cap)
{
    fil_circuit c;
    uint64_t size;
    if (!fil_parse_id(id, &c, &size))
        return false;
    size_t i = size_index(size);
    /* PoSt: Winning is the second of each pair (lotus' WinningPoStParams names the 32 and
     * 64 GiB ones); the loader tells the two apart by their input count anyway */
    const char *b = c == FIL_POREP ? cuzk_porep_param_base(size)
                    : c == FIL_SNAP ? k_snap_files[i]
                                    : k_post_files[i][c == FIL_WINNING ? 1 : 0];
    return b && snprintf(out, cap, "%s", b) < (int)cap;
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
