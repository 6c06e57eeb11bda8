/*
 * vanilla_fixture.c — see vanilla_fixture.h. Documents are written into memory with
 * open_memstream; a malformed first proof is made by decoding its base64, appending zero
 * bytes and encoding it again (filecoin/serde_out.h's encoder).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/vanilla_synth.h"
#include "filecoin/serde_out.h"
#include "test_rng.h"
#include "vanilla_fixture.h"

cuzk_post_job *vf_post(const cuzk_post_info *in, uint32_t k, uint32_t n, uint64_t first_id)
{
    cuzk_post_synth_opts o = {k, n, first_id, 3};
    cuzk_post_job *j = NULL;
    cuzk_error e = {0};
    if (cuzk_post_job_synth(in, &o, test_rng_u64(), NULL, &j, &e) != CUZK_OK)
        fprintf(stderr, "vf_post: %s\n", e.msg);
    return j;
}

cuzk_snap_job *vf_snap(const cuzk_snap_info *in)
{
    cuzk_snap_job *j = NULL;
    cuzk_error e = {0};
    if (cuzk_snap_job_synth(in, 0, test_rng_u64(), NULL, &j, &e) != CUZK_OK)
        fprintf(stderr, "vf_snap: %s\n", e.msg);
    return j;
}

static int b64_value(char c)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *p = c ? strchr(t, c) : NULL;
    return p ? (int)(p - t) : -1;
}

/* txt with the first "vanilla_proofs" string's bytes followed by `zeros` zero bytes */
static char *pad_first(char *txt, int zeros)
{
    char *start = strstr(txt, "\"vanilla_proofs\":[\"");
    if (!start)
        return txt;
    start += strlen("\"vanilla_proofs\":[\"");
    char *end = strchr(start, '"');
    size_t n = 0, len = (size_t)(end - start);
    uint8_t *bytes = malloc(len / 4 * 3 + (size_t)zeros + 1);
    char *out = NULL;
    size_t out_len = 0;
    FILE *f = bytes ? open_memstream(&out, &out_len) : NULL;
    if (!f) {
        free(bytes);
        free(txt);
        return NULL;
    }
    for (size_t i = 0; i + 4 <= len; i += 4) {
        int v[4];
        for (int k = 0; k < 4; k++)
            v[k] = start[i + (size_t)k] == '=' ? 0 : b64_value(start[i + (size_t)k]);
        uint32_t x = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 |
                     (uint32_t)v[3];
        bytes[n++] = (uint8_t)(x >> 16);
        if (start[i + 2] != '=')
            bytes[n++] = (uint8_t)(x >> 8);
        if (start[i + 3] != '=')
            bytes[n++] = (uint8_t)x;
    }
    memset(bytes + n, 0, (size_t)zeros);
    n += (size_t)zeros;
    fwrite(txt, 1, (size_t)(start - txt), f);
    so_b64 b = so_b64_begin(f);
    so_b64_put(&b, bytes, n);
    so_b64_end(&b);
    fputs(end, f);
    fclose(f);
    free(bytes);
    free(txt);
    return out;
}

typedef cuzk_status (*write_fn)(const void *job, cuzk_vanilla_form form, FILE *f,
                                cuzk_error *err);

static char *doc(const void *job, write_fn write, int bincode)
{
    char *txt = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&txt, &len);
    if (!f)
        return NULL;
    cuzk_error e = {0};
    cuzk_status st = write(job, bincode ? CUZK_VANILLA_BINCODE : CUZK_VANILLA_JSON, f, &e);
    fclose(f);
    if (st != CUZK_OK) {
        fprintf(stderr, "vanilla fixture: %s\n", e.msg);
        free(txt);
        return NULL;
    }
    if (len && txt[len - 1] == '\n')
        txt[len - 1] = '\0';
    return bincode > 1 ? pad_first(txt, bincode - 1) : txt;
}

static cuzk_status write_post(const void *job, cuzk_vanilla_form form, FILE *f, cuzk_error *err)
{
    return cuzk_post_job_write(job, form, f, err);
}

static cuzk_status write_snap(const void *job, cuzk_vanilla_form form, FILE *f, cuzk_error *err)
{
    return cuzk_snap_job_write(job, form, f, err);
}

char *vf_post_doc(const cuzk_post_job *j, int bincode)
{
    return doc(j, write_post, bincode);
}

char *vf_snap_doc(const cuzk_snap_job *j, int bincode)
{
    return doc(j, write_snap, bincode);
}
