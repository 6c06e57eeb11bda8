/*
 * request.c — owned copies of job requests, their input files held open, and their journal
 * encoding (request.h).
 * Threading: pure functions of their arguments (ereq_input_map only reads q: mapping a
 * shared descriptor uses no file offset).
 */
#include "engine/request.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
    T_REQUEST_ID = 1, T_KIND, T_PRIORITY, T_SECTOR_SIZE, T_REGISTERED, T_SECTOR_NUMBER,
    T_MINER, T_PARTITION_INDEX, T_VANILLA, T_VANILLA_N, T_RANDOMNESS, T_COMM_R_OLD,
    T_COMM_R_NEW, T_COMM_D_NEW, T_ZKEY_PATH, T_PARAMS_PATH, T_R1CS_PATH, T_WTNS_PATH,
    T_ZKEY, T_PARAMS, T_R1CS, T_WTNS, T_LOG2N, T_PARTITIONS, T_SEED, T_END,
    T_ZKEY_ID, T_PARAMS_ID, T_R1CS_ID, T_WTNS_ID, /* efile_id: 5 x u64 */
    T_STRIPPED                                    /* u64 1: the payload was dropped */
};

#define REQ_MAGIC "CZRQ"
#define REQ_VERSION 1u

static cuzk_status buf_copy(ebuf *b, const uint8_t *data, size_t len)
{
    b->len = 0;
    b->data = NULL;
    if (len == 0)
        return CUZK_OK;
    if (!data || !(b->data = malloc(len)))
        return data ? CUZK_ERR_NOMEM : CUZK_ERR_INVALID_ARG;
    memcpy(b->data, data, len);
    b->len = len;
    return CUZK_OK;
}

static const char *file_type(mode_t m)
{
    return S_ISFIFO(m) ? "a FIFO" : S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

static efile_id id_of(const struct stat *sb)
{
    return (efile_id){.dev = (uint64_t)sb->st_dev, .ino = (uint64_t)sb->st_ino,
                      .size = (uint64_t)sb->st_size,
                      .mtime_ns = (int64_t)sb->st_mtim.tv_sec * 1000000000 + sb->st_mtim.tv_nsec,
                      .ctime_ns = (int64_t)sb->st_ctim.tv_sec * 1000000000 + sb->st_ctim.tv_nsec};
}

/* The input file at path, made absolute, checked to be a regular file the daemon can open,
 * and kept open (*fd): the engine reads it through that descriptor only. Anything else is
 * refused here: a worker that opened a FIFO would block in open() until a writer came (for
 * good, holding a synthesis worker and the shutdown), and a device or a directory is no
 * input. The type is checked before opening (opening a device can have effects) and again
 * on the descriptor, opened non-blocking (the path may have changed).
 * given_fd >= 0: the submitter opened the file (cuzkd, as its client): that descriptor is
 * duplicated and the path, which must be absolute, is not opened or resolved again. */
static cuzk_status path_copy(char **dst, efile_id *id, int *fd, const char *path,
                             int given_fd, bool has_fds, const char *what, cuzk_error *err)
{
    *dst = NULL;
    *fd = -1;
    memset(id, 0, sizeof *id);
    if (!path || !*path)
        return CUZK_OK;
    struct stat sb;
    if (has_fds) {
        if (path[0] != '/' || given_fd < 0)
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                  "%s file %s: %s", what, path,
                                  given_fd < 0 ? "no descriptor given for it"
                                               : "not an absolute path");
        if (fstat(given_fd, &sb) != 0)
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "%s file %s cannot be opened: %s",
                                  what, path, strerror(errno));
        if (!S_ISREG(sb.st_mode))
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                  "%s file %s is %s: give a regular file", what, path,
                                  file_type(sb.st_mode));
        if (!(*dst = strdup(path)))
            return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
        if ((*fd = fcntl(given_fd, F_DUPFD_CLOEXEC, 3)) < 0) {
            int e = errno;
            free(*dst);
            *dst = NULL;
            return cuzk_error_set(err, e == EMFILE ? CUZK_ERR_UNAVAILABLE : CUZK_ERR_IO,
                                  "%s file %s: cannot keep it open: %s", what, path,
                                  strerror(e));
        }
        *id = id_of(&sb);
        return CUZK_OK;
    }
    char *rp = realpath(path, NULL);
    if (!rp)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "%s file %s cannot be opened: %s", what,
                              path, strerror(errno));
    cuzk_status st = CUZK_OK;
    int f = -1;
    if (stat(rp, &sb) != 0 || (S_ISREG(sb.st_mode) &&
                               ((f = open(rp, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0 ||
                                fstat(f, &sb) != 0)))
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "%s file %s cannot be opened: %s", what,
                            path, strerror(errno));
    else if (!S_ISREG(sb.st_mode))
        st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "%s file %s is %s: give a regular file",
                            what, path, file_type(sb.st_mode));
    if (st != CUZK_OK) {
        if (f >= 0)
            close(f);
        free(rp);
        return st;
    }
    /* the version of the file this request means (a retry naming a rewritten file is
     * another request: ereq_same) */
    *id = id_of(&sb);
    *dst = rp;
    *fd = f;
    return CUZK_OK;
}

static const char *const input_names[4] = {"zkey", "params", "r1cs", "wtns"};

cuzk_status ereq_input_map(const ereq *q, ereq_input in, mapped_file *mf, cuzk_error *err)
{
    mf->data = NULL;
    mf->len = 0;
    if ((unsigned)in > EREQ_WTNS)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "no such request input %d", (int)in);
    const char *const paths[4] = {q->zkey_path, q->params_path, q->r1cs_path, q->wtns_path};
    const efile_id *const ids[4] = {&q->zkey_id, &q->params_id, &q->r1cs_id, &q->wtns_id};
    const char *path = paths[in], *what = input_names[in];
    if (!path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "the %s is not given by path", what);
    /* Restarted from the journal: no descriptor survives, so the path is opened again, with
     * the daemon's rights; not following a final symlink, and below only if it is still
     * the very file the client's open found (a swapped-in file has another inode). */
    struct stat sb;
    int fd = q->fd[in];
    if (fd < 0) {
        /* only a regular file is opened at all (opening a device can have effects); the
         * descriptor's identity is what decides below */
        if (lstat(path, &sb) != 0)
            return cuzk_error_set(err, CUZK_ERR_IO, "%s file %s cannot be opened: %s", what,
                                  path, strerror(errno));
        if (!S_ISREG(sb.st_mode))
            return cuzk_error_set(err, CUZK_ERR_IO, "%s file %s cannot be opened: it is %s",
                                  what, path, S_ISLNK(sb.st_mode) ? "a symlink now"
                                                                  : file_type(sb.st_mode));
        fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
    }
    if (fd < 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "%s file %s cannot be opened: %s", what, path,
                              strerror(errno));
    static const efile_id none;
    cuzk_status st = CUZK_OK;
    if (fstat(fd, &sb) != 0)
        st = cuzk_error_set(err, CUZK_ERR_IO, "%s file %s: cannot stat: %s", what, path,
                            strerror(errno));
    else if (memcmp(ids[in], &none, sizeof none) != 0) {
        /* The change time is not compared: unlinking or renaming over the path, or a chmod,
         * moves it without touching the bytes, and the file held open stays what it was. */
        efile_id now = id_of(&sb);
        const efile_id *was = ids[in];
        if (now.dev != was->dev || now.ino != was->ino || now.size != was->size ||
            now.mtime_ns != was->mtime_ns)
            st = cuzk_error_set(err, CUZK_ERR_IO,
                                "%s file %s changed since the job was submitted (%s)", what,
                                path, now.dev != ids[in]->dev || now.ino != ids[in]->ino
                                          ? "another file is there now"
                                          : "rewritten");
    }
    if (st == CUZK_OK)
        st = mapped_file_open_fd(mf, fd, path, err);
    if (fd != q->fd[in])
        close(fd);
    return st;
}

void ereq_close_files(ereq *q)
{
    for (int i = 0; i < 4; i++) {
        if (q->fd[i] >= 0)
            close(q->fd[i]);
        q->fd[i] = -1;
    }
}

void ereq_free(ereq *q)
{
    if (!q)
        return;
    ereq_close_files(q);
    free(q->vanilla_proof.data);
    for (size_t i = 0; i < q->n_vanilla_proofs; i++)
        free(q->vanilla_proofs[i].data);
    free(q->vanilla_proofs);
    ebuf *bs[] = {&q->randomness, &q->comm_r_old, &q->comm_r_new, &q->comm_d_new,
                  &q->zkey, &q->params, &q->r1cs, &q->wtns};
    for (size_t i = 0; i < sizeof bs / sizeof bs[0]; i++)
        free(bs[i]->data);
    free(q->zkey_path);
    free(q->params_path);
    free(q->r1cs_path);
    free(q->wtns_path);
    free(q);
}

cuzk_status ereq_from_request(ereq **out, const cuzk_job_request *r, cuzk_error *err)
{
    *out = NULL;
    if (r->request_id && strlen(r->request_id) > CUZK_REQUEST_ID_MAX)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "request_id longer than %d bytes",
                              CUZK_REQUEST_ID_MAX);
    const cuzk_bytes *fixed[] = {&r->randomness, &r->comm_r_old, &r->comm_r_new,
                                 &r->comm_d_new};
    static const char *fixed_names[] = {"randomness", "comm_r_old", "comm_r_new",
                                        "comm_d_new"};
    for (size_t i = 0; i < 4; i++)
        if (fixed[i]->len != 0 && fixed[i]->len != 32)
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "%s must be 32 bytes, not %zu",
                                  fixed_names[i], fixed[i]->len);
    if (r->n_vanilla_proofs && !r->vanilla_proofs)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "vanilla_proofs is NULL");
    ereq *q = calloc(1, sizeof *q);
    if (!q)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    for (int i = 0; i < 4; i++)
        q->fd[i] = -1;
    if (r->request_id)
        strcpy(q->request_id, r->request_id);
    q->kind = r->kind;
    q->priority = r->priority;
    q->sector_size = r->sector_size;
    q->registered_proof = r->registered_proof;
    q->sector_number = r->sector_number;
    q->miner_id = r->miner_id;
    q->partition_index = r->partition_index;
    q->log2n = r->synthetic.log2n;
    q->partitions = r->synthetic.partitions;
    q->seed = r->synthetic.seed;
    cuzk_status st = CUZK_OK;
    if (r->n_vanilla_proofs &&
        !(q->vanilla_proofs = calloc(r->n_vanilla_proofs, sizeof *q->vanilla_proofs)))
        st = CUZK_ERR_NOMEM;
    q->n_vanilla_proofs = q->vanilla_proofs ? r->n_vanilla_proofs : 0;
    for (size_t i = 0; i < q->n_vanilla_proofs && st == CUZK_OK; i++)
        st = buf_copy(&q->vanilla_proofs[i], r->vanilla_proofs[i].data,
                      r->vanilla_proofs[i].len);
    const cuzk_bytes *src[] = {&r->vanilla_proof, &r->randomness, &r->comm_r_old,
                               &r->comm_r_new, &r->comm_d_new, &r->groth16.zkey,
                               &r->groth16.params, &r->groth16.r1cs, &r->groth16.wtns};
    ebuf *dst[] = {&q->vanilla_proof, &q->randomness, &q->comm_r_old, &q->comm_r_new,
                   &q->comm_d_new, &q->zkey, &q->params, &q->r1cs, &q->wtns};
    for (size_t i = 0; i < sizeof src / sizeof src[0] && st == CUZK_OK; i++)
        st = buf_copy(dst[i], src[i]->data, src[i]->len);
    if (st != CUZK_OK) {
        ereq_free(q);
        return cuzk_error_set(err, st, st == CUZK_ERR_NOMEM ? "out of memory"
                                                            : "a byte field has no data");
    }
    const char *const paths[4] = {r->groth16.zkey_path, r->groth16.params_path,
                                  r->groth16.r1cs_path, r->groth16.wtns_path};
    const int given[4] = {r->groth16.zkey_fd, r->groth16.params_fd, r->groth16.r1cs_fd,
                          r->groth16.wtns_fd};
    char **dpaths[4] = {&q->zkey_path, &q->params_path, &q->r1cs_path, &q->wtns_path};
    efile_id *ids[4] = {&q->zkey_id, &q->params_id, &q->r1cs_id, &q->wtns_id};
    for (int i = 0; i < 4 && st == CUZK_OK; i++)
        st = path_copy(dpaths[i], ids[i], &q->fd[i], paths[i], given[i], r->groth16.has_fds,
                       input_names[i], err);
    if (st != CUZK_OK) {
        ereq_free(q);
        return st;
    }
    *out = q;
    return CUZK_OK;
}

static bool buf_same(const ebuf *a, const ebuf *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static bool path_same(const char *a, const efile_id *ia, const char *b, const efile_id *ib)
{
    if (!a || !b)
        return !a && !b;
    return strcmp(a, b) == 0 && memcmp(ia, ib, sizeof *ia) == 0;
}

bool ereq_same(const ereq *a, const ereq *b)
{
    if (a->kind != b->kind || a->sector_size != b->sector_size ||
        a->registered_proof != b->registered_proof || a->sector_number != b->sector_number ||
        a->miner_id != b->miner_id || a->partition_index != b->partition_index ||
        a->log2n != b->log2n || a->partitions != b->partitions || a->seed != b->seed ||
        a->n_vanilla_proofs != b->n_vanilla_proofs)
        return false;
    const ebuf *ba[] = {&a->vanilla_proof, &a->randomness, &a->comm_r_old, &a->comm_r_new,
                        &a->comm_d_new, &a->zkey, &a->params, &a->r1cs, &a->wtns};
    const ebuf *bb[] = {&b->vanilla_proof, &b->randomness, &b->comm_r_old, &b->comm_r_new,
                        &b->comm_d_new, &b->zkey, &b->params, &b->r1cs, &b->wtns};
    for (size_t i = 0; i < sizeof ba / sizeof ba[0]; i++)
        if (!buf_same(ba[i], bb[i]))
            return false;
    for (size_t i = 0; i < a->n_vanilla_proofs; i++)
        if (!buf_same(&a->vanilla_proofs[i], &b->vanilla_proofs[i]))
            return false;
    return path_same(a->zkey_path, &a->zkey_id, b->zkey_path, &b->zkey_id) &&
           path_same(a->params_path, &a->params_id, b->params_path, &b->params_id) &&
           path_same(a->r1cs_path, &a->r1cs_id, b->r1cs_path, &b->r1cs_id) &&
           path_same(a->wtns_path, &a->wtns_id, b->wtns_path, &b->wtns_id);
}

size_t ereq_payload_bytes(const ereq *q)
{
    size_t n = q->vanilla_proof.len + q->zkey.len + q->params.len + q->r1cs.len + q->wtns.len;
    for (size_t i = 0; i < q->n_vanilla_proofs; i++)
        n += q->vanilla_proofs[i].len;
    return n;
}

ereq ereq_stripped_view(const ereq *q)
{
    ereq v = *q;
    v.vanilla_proof = (ebuf){0};
    v.vanilla_proofs = NULL;
    v.n_vanilla_proofs = 0;
    v.zkey = v.params = v.r1cs = v.wtns = (ebuf){0};
    for (int i = 0; i < 4; i++)
        v.fd[i] = -1; /* the files stay q's */
    v.stripped = true;
    return v;
}

void ereq_strip(ereq *q)
{
    ereq_close_files(q);
    free(q->vanilla_proof.data);
    for (size_t i = 0; i < q->n_vanilla_proofs; i++)
        free(q->vanilla_proofs[i].data);
    free(q->vanilla_proofs);
    ebuf *bs[] = {&q->zkey, &q->params, &q->r1cs, &q->wtns};
    for (size_t i = 0; i < sizeof bs / sizeof bs[0]; i++)
        free(bs[i]->data);
    *q = ereq_stripped_view(q);
}

/* ---- encoding -------------------------------------------------------------------------- */

typedef struct wbuf {
    uint8_t *p;
    size_t len, cap;
    bool fail;
} wbuf;

static void put(wbuf *w, const void *d, size_t n)
{
    if (w->fail)
        return;
    if (w->len + n > w->cap) {
        size_t c = w->cap ? w->cap : 256;
        while (c < w->len + n)
            c *= 2;
        uint8_t *np = realloc(w->p, c);
        if (!np) {
            w->fail = true;
            return;
        }
        w->p = np;
        w->cap = c;
    }
    memcpy(w->p + w->len, d, n);
    w->len += n;
}

static void put_le(wbuf *w, uint64_t v, unsigned bytes)
{
    uint8_t b[8];
    for (unsigned i = 0; i < bytes; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    put(w, b, bytes);
}

static void field(wbuf *w, unsigned tag, const void *d, size_t n)
{
    put_le(w, tag, 2);
    put_le(w, n, 8);
    if (n)
        put(w, d, n);
}

static void field_u64(wbuf *w, unsigned tag, uint64_t v)
{
    uint8_t b[8];
    for (unsigned i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    field(w, tag, b, 8);
}

static void field_str(wbuf *w, unsigned tag, const char *s)
{
    if (s)
        field(w, tag, s, strlen(s));
}

cuzk_status ereq_encode(const ereq *q, uint8_t **out, size_t *len, cuzk_error *err)
{
    wbuf w = {0};
    put(&w, REQ_MAGIC, 4);
    put_le(&w, REQ_VERSION, 4);
    field_str(&w, T_REQUEST_ID, q->request_id);
    field_u64(&w, T_KIND, (uint64_t)q->kind);
    field_u64(&w, T_PRIORITY, (uint64_t)q->priority);
    field_u64(&w, T_SECTOR_SIZE, q->sector_size);
    field_u64(&w, T_REGISTERED, q->registered_proof);
    field_u64(&w, T_SECTOR_NUMBER, q->sector_number);
    field_u64(&w, T_MINER, q->miner_id);
    field_u64(&w, T_PARTITION_INDEX, q->partition_index);
    field(&w, T_VANILLA, q->vanilla_proof.data, q->vanilla_proof.len);
    for (size_t i = 0; i < q->n_vanilla_proofs; i++)
        field(&w, T_VANILLA_N, q->vanilla_proofs[i].data, q->vanilla_proofs[i].len);
    field(&w, T_RANDOMNESS, q->randomness.data, q->randomness.len);
    field(&w, T_COMM_R_OLD, q->comm_r_old.data, q->comm_r_old.len);
    field(&w, T_COMM_R_NEW, q->comm_r_new.data, q->comm_r_new.len);
    field(&w, T_COMM_D_NEW, q->comm_d_new.data, q->comm_d_new.len);
    field_str(&w, T_ZKEY_PATH, q->zkey_path);
    field_str(&w, T_PARAMS_PATH, q->params_path);
    field_str(&w, T_R1CS_PATH, q->r1cs_path);
    field_str(&w, T_WTNS_PATH, q->wtns_path);
    const struct { unsigned tag; const char *path; const efile_id *id; } ids[] = {
        {T_ZKEY_ID, q->zkey_path, &q->zkey_id}, {T_PARAMS_ID, q->params_path, &q->params_id},
        {T_R1CS_ID, q->r1cs_path, &q->r1cs_id}, {T_WTNS_ID, q->wtns_path, &q->wtns_id}};
    for (size_t i = 0; i < 4; i++)
        if (ids[i].path) {
            uint8_t b[40];
            const uint64_t v[5] = {ids[i].id->dev, ids[i].id->ino, ids[i].id->size,
                                   (uint64_t)ids[i].id->mtime_ns, (uint64_t)ids[i].id->ctime_ns};
            for (unsigned k = 0; k < 5; k++)
                for (unsigned by = 0; by < 8; by++)
                    b[8 * k + by] = (uint8_t)(v[k] >> (8 * by));
            field(&w, ids[i].tag, b, sizeof b);
        }
    field(&w, T_ZKEY, q->zkey.data, q->zkey.len);
    field(&w, T_PARAMS, q->params.data, q->params.len);
    field(&w, T_R1CS, q->r1cs.data, q->r1cs.len);
    field(&w, T_WTNS, q->wtns.data, q->wtns.len);
    field_u64(&w, T_LOG2N, q->log2n);
    field_u64(&w, T_PARTITIONS, q->partitions);
    field_u64(&w, T_SEED, q->seed);
    if (q->stripped)
        field_u64(&w, T_STRIPPED, 1);
    field(&w, T_END, NULL, 0);
    if (w.fail) {
        free(w.p);
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory encoding a request");
    }
    *out = w.p;
    *len = w.len;
    return CUZK_OK;
}

static uint64_t get_le(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static cuzk_status set_str(char **dst, const uint8_t *d, size_t n)
{
    free(*dst);
    if (!(*dst = malloc(n + 1)))
        return CUZK_ERR_NOMEM;
    memcpy(*dst, d, n);
    (*dst)[n] = 0;
    return CUZK_OK;
}

static cuzk_status set_id(efile_id *id, const uint8_t *d, size_t n)
{
    if (n != 40)
        return CUZK_ERR_FORMAT;
    id->dev = get_le(d, 8);
    id->ino = get_le(d + 8, 8);
    id->size = get_le(d + 16, 8);
    id->mtime_ns = (int64_t)get_le(d + 24, 8);
    id->ctime_ns = (int64_t)get_le(d + 32, 8);
    return CUZK_OK;
}

cuzk_status ereq_decode(ereq **out, const uint8_t *data, size_t len, cuzk_error *err)
{
    *out = NULL;
    if (len < 8 || memcmp(data, REQ_MAGIC, 4) != 0 || get_le(data + 4, 4) != REQ_VERSION)
        return cuzk_error_set(err, CUZK_ERR_FORMAT, "journal: not a request record");
    ereq *q = calloc(1, sizeof *q);
    if (!q)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    for (int i = 0; i < 4; i++)
        q->fd[i] = -1; /* no descriptor survives a restart: ereq_input_map opens the path */
    size_t off = 8;
    cuzk_status st = CUZK_OK;
    bool end = false;
    while (st == CUZK_OK && !end) {
        if (len - off < 10) {
            st = CUZK_ERR_TRUNCATED;
            break;
        }
        unsigned tag = (unsigned)get_le(data + off, 2);
        uint64_t n = get_le(data + off + 2, 8);
        off += 10;
        if (n > len - off) {
            st = CUZK_ERR_TRUNCATED;
            break;
        }
        const uint8_t *d = data + off;
        off += n;
        uint64_t v = n == 8 ? get_le(d, 8) : 0;
        bool is_u64 = false;
        switch (tag) {
        case T_REQUEST_ID:
            if (n > CUZK_REQUEST_ID_MAX)
                st = CUZK_ERR_FORMAT;
            else
                memcpy(q->request_id, d, n);
            break;
        case T_KIND: is_u64 = true; q->kind = (cuzk_proof_kind)v; break;
        case T_PRIORITY: is_u64 = true; q->priority = (cuzk_priority)v; break;
        case T_SECTOR_SIZE: is_u64 = true; q->sector_size = v; break;
        case T_REGISTERED: is_u64 = true; q->registered_proof = v; break;
        case T_SECTOR_NUMBER: is_u64 = true; q->sector_number = v; break;
        case T_MINER: is_u64 = true; q->miner_id = v; break;
        case T_PARTITION_INDEX: is_u64 = true; q->partition_index = (uint32_t)v; break;
        case T_LOG2N: is_u64 = true; q->log2n = (uint32_t)v; break;
        case T_PARTITIONS: is_u64 = true; q->partitions = (uint32_t)v; break;
        case T_SEED: is_u64 = true; q->seed = v; break;
        case T_STRIPPED: is_u64 = true; q->stripped = v != 0; break;
        case T_VANILLA: st = buf_copy(&q->vanilla_proof, d, n); break;
        case T_VANILLA_N: {
            ebuf *nb = realloc(q->vanilla_proofs, (q->n_vanilla_proofs + 1) * sizeof *nb);
            if (!nb) {
                st = CUZK_ERR_NOMEM;
                break;
            }
            q->vanilla_proofs = nb;
            st = buf_copy(&nb[q->n_vanilla_proofs], d, n);
            if (st == CUZK_OK)
                q->n_vanilla_proofs++;
            break;
        }
        case T_RANDOMNESS: st = buf_copy(&q->randomness, d, n); break;
        case T_COMM_R_OLD: st = buf_copy(&q->comm_r_old, d, n); break;
        case T_COMM_R_NEW: st = buf_copy(&q->comm_r_new, d, n); break;
        case T_COMM_D_NEW: st = buf_copy(&q->comm_d_new, d, n); break;
        case T_ZKEY_PATH: st = set_str(&q->zkey_path, d, n); break;
        case T_PARAMS_PATH: st = set_str(&q->params_path, d, n); break;
        case T_R1CS_PATH: st = set_str(&q->r1cs_path, d, n); break;
        case T_WTNS_PATH: st = set_str(&q->wtns_path, d, n); break;
        case T_ZKEY: st = buf_copy(&q->zkey, d, n); break;
        case T_PARAMS: st = buf_copy(&q->params, d, n); break;
        case T_R1CS: st = buf_copy(&q->r1cs, d, n); break;
        case T_WTNS: st = buf_copy(&q->wtns, d, n); break;
        case T_ZKEY_ID: st = set_id(&q->zkey_id, d, n); break;
        case T_PARAMS_ID: st = set_id(&q->params_id, d, n); break;
        case T_R1CS_ID: st = set_id(&q->r1cs_id, d, n); break;
        case T_WTNS_ID: st = set_id(&q->wtns_id, d, n); break;
        case T_END: end = true; break;
        default: st = CUZK_ERR_FORMAT; break;
        }
        if (is_u64 && n != 8)
            st = CUZK_ERR_FORMAT;
    }
    if (st == CUZK_OK && off != len)
        st = CUZK_ERR_FORMAT;
    if (st != CUZK_OK) {
        ereq_free(q);
        return cuzk_error_set(err, st, "journal: request record is %s",
                              st == CUZK_ERR_NOMEM ? "too large for memory" : "damaged");
    }
    *out = q;
    return CUZK_OK;
}
