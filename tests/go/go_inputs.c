/*
 * go_inputs.c — `cuzk_go_inputs DIR`: the 2 KiB WindowPoSt, WinningPoSt and SnapDeals inputs
 * of the Go client test (tests/go/main.go), as Curio sends them in cuzk.v1's fields:
 * DIR/<kind>/fields ("name value" lines: kind, registered_proof as Go's abi number,
 * sector_size, partition_index, vanilla_proofs = the count), randomness.bin or the three
 * commitments (32 bytes each), and vanilla.<i>.bin, each vanilla proof as filecoin-ffi's
 * bincode bytes. The proofs are consistent (tests/support/vanilla_fixture.h over cuzk/vanilla_synth.h:
 * synthetic trees, challenges derived as the verifier derives them). PoRep's C1 output is
 * `cuzk gen-c1`'s. Seeded by CUZK_TEST_SEED (printed).
 * Single-threaded.
 */
#define _GNU_SOURCE

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cuzk/post.h"
#include "cuzk/snap.h"
#include "vanilla_fixture.h"
#include "test_rng.h"

static int put(const char *dir, const char *name, const void *p, size_t n)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(p, 1, n, f) == n;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "cuzk_go_inputs: cannot write %s\n", path);
    return ok ? 0 : -1;
}

static int b64v(char c)
{
    const char *t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *p = c ? strchr(t, c) : NULL;
    return p ? (int)(p - t) : -1;
}

/* The vanilla proofs of a job document written with bincode: base64 strings. */
static int put_vanilla(const char *dir, const char *doc_text, size_t *count)
{
    json_t *doc = json_loads(doc_text, 0, NULL);
    json_t *arr = doc ? json_object_get(doc, "vanilla_proofs") : NULL;
    if (!arr)
        return -1;
    *count = json_array_size(arr);
    int rc = 0;
    for (size_t i = 0; i < *count && rc == 0; i++) {
        const char *s = json_string_value(json_array_get(arr, i));
        size_t len = s ? strlen(s) : 0, n = 0;
        uint8_t *o = malloc(len / 4 * 3 + 3);
        uint32_t acc = 0;
        int bits = 0;
        for (size_t k = 0; o && k < len && s[k] != '='; k++) {
            int v = b64v(s[k]);
            if (v < 0) {
                rc = -1;
                break;
            }
            acc = acc << 6 | (uint32_t)v;
            bits += 6;
            if (bits >= 8) {
                bits -= 8;
                o[n++] = (uint8_t)(acc >> bits);
            }
        }
        char name[48];
        snprintf(name, sizeof name, "vanilla.%zu.bin", i);
        if (!o || rc != 0 || put(dir, name, o, n) != 0)
            rc = -1;
        free(o);
    }
    json_decref(doc);
    return rc;
}

static int post(const char *root, const char *kind_dir, cuzk_post_kind kind, unsigned kind_pb,
                unsigned abi, uint32_t sectors)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/%s", root, kind_dir);
    mkdir(dir, 0755);
    cuzk_post_info info;
    cuzk_post_job *s = NULL;
    if (cuzk_post_info_get(kind, 2048, &info, NULL) != CUZK_OK ||
        !(s = vf_post(&info, 0, sectors, 1000 + test_rng_u64() % 1000)))
        return -1;
    char *doc = vf_post_doc(s, 1);
    size_t n = 0;
    int rc = doc ? put_vanilla(dir, doc, &n) : -1;
    char fields[256];
    int fl = snprintf(fields, sizeof fields,
                      "kind %u\nregistered_proof %u\nsector_size 2048\nminer_id 1000\n"
                      "partition_index 0\nvanilla_proofs %zu\n", kind_pb, abi, n);
    if (rc == 0)
        rc = put(dir, "randomness.bin", s->randomness, 32) || put(dir, "fields", fields, (size_t)fl);
    free(doc);
    cuzk_post_job_free(s);
    return rc;
}

static int snap(const char *root)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/snap", root);
    mkdir(dir, 0755);
    cuzk_snap_info info;
    cuzk_snap_job *s = NULL;
    if (cuzk_snap_info_get(2048, CUZK_SNAP_MAIN, &info, NULL) != CUZK_OK || !(s = vf_snap(&info)))
        return -1;
    char *doc = vf_snap_doc(s, 1);
    size_t n = 0;
    int rc = doc ? put_vanilla(dir, doc, &n) : -1;
    char fields[256];
    /* Go's abi.RegisteredUpdateProof_StackedDrg2KiBV1 = 0 */
    int fl = snprintf(fields, sizeof fields,
                      "kind 2\nregistered_proof 0\nsector_size 2048\nsector_number 7\n"
                      "miner_id 1000\nvanilla_proofs %zu\n", n);
    if (rc == 0)
        rc = put(dir, "comm_r_old.bin", s->comm_r_old, 32) ||
             put(dir, "comm_r_new.bin", s->comm_r_new, 32) ||
             put(dir, "comm_d_new.bin", s->comm_d_new, 32) || put(dir, "fields", fields, (size_t)fl);
    free(doc);
    cuzk_snap_job_free(s);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: cuzk_go_inputs DIR\n");
        return 2;
    }
    test_rng_init("cuzk_go_inputs");
    mkdir(argv[1], 0755);
    /* Go's abi.RegisteredPoStProof: StackedDrgWinning2KiBV1 = 0, StackedDrgWindow2KiBV1_1
     * = 10; cuzk.v1 kinds WINDOW_POST_PARTITION = 3, WINNING_POST = 4 */
    if (post(argv[1], "wpost", CUZK_POST_WINDOW, 3, 10, 2) != 0 ||
        post(argv[1], "winning", CUZK_POST_WINNING, 4, 0, 1) != 0 || snap(argv[1]) != 0) {
        fprintf(stderr, "cuzk_go_inputs: could not make the inputs\n");
        return 1;
    }
    return 0;
}
