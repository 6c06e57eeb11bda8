/*
 * peer_files.c — client-named files opened once, with the client's rights, walking the
 * checked path without following symlinks (peer_files.h).
 *
 * Threading: the identity switch uses the raw setgroups/setfsgid/setfsuid system calls,
 * which change only the calling thread's credentials (glibc's wrappers for setgroups
 * would change every thread's); it is undone before the function returns.
 */
#define _GNU_SOURCE /* realpath, syscall, O_PATH */

#include "peer_files.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

cuzk_status peer_files_init(peer_files *pf, const char *dirs, cuzk_error *err)
{
    memset(pf, 0, sizeof *pf);
    if (!dirs || !dirs[0])
        return CUZK_OK;
    char *list = strdup(dirs);
    if (!list)
        return cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
    cuzk_status st = CUZK_OK;
    char *save = NULL;
    for (char *d = strtok_r(list, ",", &save); d && st == CUZK_OK; d = strtok_r(NULL, ",", &save)) {
        struct stat sb;
        char *canon = d[0] == '/' ? realpath(d, NULL) : NULL;
        char **nd = realloc(pf->dirs, (pf->ndirs + 1) * sizeof *nd);
        if (!canon || stat(canon, &sb) != 0 || !S_ISDIR(sb.st_mode))
            st = cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                "input directory %s: not an absolute path to a directory", d);
        else if (!nd)
            st = cuzk_error_set(err, CUZK_ERR_NOMEM, "out of memory");
        if (nd)
            pf->dirs = nd;
        if (st != CUZK_OK) {
            free(canon);
            break;
        }
        if (strcmp(canon, "/") == 0)
            canon[0] = 0; /* "/" + "/file": every path is under it */
        pf->dirs[pf->ndirs++] = canon;
    }
    free(list);
    if (st != CUZK_OK)
        peer_files_fini(pf);
    return st;
}

void peer_files_fini(peer_files *pf)
{
    for (size_t i = 0; i < pf->ndirs; i++)
        free(pf->dirs[i]);
    free(pf->dirs);
    memset(pf, 0, sizeof *pf);
}

peer_files_mode peer_files_mode_for(uid_t daemon_euid, const rpc_peer *peer)
{
    if (!peer->is_unix || !peer->has_creds)
        return PEER_FILES_DIRS_ONLY;
    if (daemon_euid == 0)
        return PEER_FILES_AS_PEER;
    if (peer->uid == daemon_euid || peer->uid == 0)
        return PEER_FILES_AS_DAEMON; /* it can read at least what the daemon can */
    return PEER_FILES_DIRS_ONLY;
}

bool peer_files_may_name(const peer_files *pf, const rpc_peer *peer)
{
    return pf->ndirs > 0 || peer_files_mode_for(geteuid(), peer) != PEER_FILES_DIRS_ONLY;
}

static bool under_dirs(const peer_files *pf, const char *path)
{
    for (size_t i = 0; i < pf->ndirs; i++) {
        size_t n = strlen(pf->dirs[i]);
        if (strncmp(path, pf->dirs[i], n) == 0 && path[n] == '/')
            return true;
    }
    return false;
}

/* The calling thread's filesystem identity. */
typedef struct fs_identity {
    uid_t fsuid;
    gid_t fsgid;
    gid_t *groups;
    int ngroups;
} fs_identity;

static uid_t fsuid_now(void) { return (uid_t)syscall(SYS_setfsuid, (uid_t)-1); }
static gid_t fsgid_now(void) { return (gid_t)syscall(SYS_setfsgid, (gid_t)-1); }

/* Takes the peer's identity in this thread; false (nothing changed) when it cannot. */
static bool become_peer(const rpc_peer *peer, fs_identity *saved)
{
    saved->fsuid = fsuid_now();
    saved->fsgid = fsgid_now();
    saved->ngroups = getgroups(0, NULL);
    saved->groups = malloc((size_t)(saved->ngroups > 0 ? saved->ngroups : 1) * sizeof(gid_t));
    if (saved->ngroups < 0 || !saved->groups ||
        getgroups(saved->ngroups, saved->groups) != saved->ngroups) {
        free(saved->groups);
        return false;
    }
    /* groups first: setting them needs CAP_SETGID, which a non-zero fsuid keeps anyway;
     * the fsuid last, as it drops the file capabilities (CAP_DAC_OVERRIDE ...). */
    if (syscall(SYS_setgroups, peer->ngroups, peer->groups) != 0) {
        free(saved->groups);
        return false;
    }
    syscall(SYS_setfsgid, peer->gid);
    syscall(SYS_setfsuid, peer->uid);
    if (fsuid_now() == peer->uid && fsgid_now() == peer->gid)
        return true;
    syscall(SYS_setfsuid, saved->fsuid);
    syscall(SYS_setfsgid, saved->fsgid);
    syscall(SYS_setgroups, saved->ngroups, saved->groups);
    free(saved->groups);
    return false;
}

static void become_daemon(fs_identity *saved)
{
    syscall(SYS_setfsuid, saved->fsuid); /* first: restores the file capabilities */
    syscall(SYS_setfsgid, saved->fsgid);
    int rc = (int)syscall(SYS_setgroups, saved->ngroups, saved->groups);
    free(saved->groups);
    if (rc != 0 || fsuid_now() != saved->fsuid || fsgid_now() != saved->fsgid) {
        /* This worker thread would go on opening files as a client: never. */
        fprintf(stderr, "cuzkd: cannot restore the thread's file identity; aborting\n");
        abort();
    }
}

void (*peer_files_hook_before_open)(const char *canon);

/* Opens canon (absolute, as realpath gives it: no symlink, no "." or "..") by walking it
 * one component at a time from "/" with O_NOFOLLOW, so a component that has become a
 * symlink since it was resolved stops the walk instead of leading elsewhere. Each step
 * runs with the thread's current identity: the kernel checks search permission on every
 * directory and read permission on the file, as it would for the peer. O_NONBLOCK: a FIFO
 * must not hang the daemon (fstat then refuses it). -1 on any failure. */
static int open_walk(const char *canon)
{
    if (canon[0] != '/')
        return -1;
    char *buf = strdup(canon);
    int dfd = buf ? open("/", O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
    char *save = NULL, *comp = buf ? strtok_r(buf + 1, "/", &save) : NULL;
    int fd = -1;
    while (dfd >= 0 && comp) {
        char *next = strtok_r(NULL, "/", &save);
        int nfd = openat(dfd, comp,
                         next ? O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
                              : O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
        struct stat sb;
        close(dfd);
        dfd = -1;
        if (nfd >= 0 && next && (fstat(nfd, &sb) != 0 || !S_ISDIR(sb.st_mode))) {
            close(nfd); /* O_PATH|O_NOFOLLOW would hand back a symlink itself */
            nfd = -1;
        }
        if (!next)
            fd = nfd;
        else
            dfd = nfd;
        comp = next;
    }
    if (dfd >= 0)
        close(dfd);
    free(buf);
    struct stat sb;
    if (fd >= 0 && (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode))) {
        close(fd);
        fd = -1;
    }
    return fd;
}

cuzk_status peer_files_open(const peer_files *pf, const rpc_peer *peer, const char *field,
                            const char *path, char **canon, int *fd, cuzk_error *err)
{
    *canon = NULL;
    *fd = -1;
    if (path[0] != '/')
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "%s %s: not an absolute path (the daemon's working directory "
                              "means nothing to a client)", field, path);
    peer_files_mode mode = peer_files_mode_for(geteuid(), peer);
    fs_identity saved;
    if (mode == PEER_FILES_AS_PEER && !become_peer(peer, &saved))
        mode = PEER_FILES_DIRS_ONLY; /* root without CAP_SETUID (a container) */
    bool in_dirs_only = pf->ndirs || mode == PEER_FILES_DIRS_ONLY;
    char *c = NULL;
    int f = -1;
    /* The lexical test first: a path plainly outside the input directories is refused
     * before the file system is asked anything about it. Then the canonical path must be
     * inside too (a symlink or ".." may lead out), and only that path is opened, walked
     * without following anything: what is opened is what was checked. */
    if (!in_dirs_only || under_dirs(pf, path))
        c = realpath(path, NULL);
    if (c && (!in_dirs_only || under_dirs(pf, c))) {
        if (peer_files_hook_before_open)
            peer_files_hook_before_open(c);
        f = open_walk(c);
    }
    if (mode == PEER_FILES_AS_PEER)
        become_daemon(&saved);
    if (f < 0) {
        free(c);
        return cuzk_error_set(err, CUZK_ERR_NOT_FOUND,
                              "%s %s: no such file, or not a regular file this client may "
                              "read%s", field, path, pf->ndirs ? " under daemon.input_dirs" : "");
    }
    *canon = c;
    *fd = f;
    return CUZK_OK;
}

cuzk_status peer_files_check(const peer_files *pf, const rpc_peer *peer, const char *field,
                             const char *path, char **canon, cuzk_error *err)
{
    int fd;
    cuzk_status st = peer_files_open(pf, peer, field, path, canon, &fd, err);
    if (st == CUZK_OK)
        close(fd);
    return st;
}
