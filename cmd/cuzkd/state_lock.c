/*
 * state_lock.c — see state_lock.h.
 *
 * Why a lock: a second daemon on the same state_dir would load the first one's journal,
 * remove the temporaries of its in-flight writes and resume (prove again, then finish)
 * the same jobs. flock (not a pid file checked for liveness) because the kernel releases
 * it whenever the holder dies, kill -9 included, so a stale file never blocks a start and
 * a recycled pid never fakes a live holder. The pid in the file is only for the message
 * (like PostgreSQL's postmaster.pid): written in place, truncated first, by the holder
 * only, into the file it has locked. The file is never renamed over or removed: a new
 * inode would carry no lock, and a second daemon could lock it while the first still
 * held the old one. Opened with O_NOFOLLOW so a link planted in the directory cannot make
 * the daemon truncate another file.
 * Threading: start-up only (single-threaded).
 */
#include "state_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkdir -p dir with 0700 for the parts it makes; false with errno at the part that failed */
static bool make_dirs(const char *dir, char *failed, size_t cap)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s", dir) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        snprintf(failed, cap, "%s", dir);
        return false;
    }
    for (char *p = tmp + 1;; p++) {
        bool end = *p == 0;
        if (*p != '/' && !end)
            continue;
        *p = 0;
        struct stat sb;
        if (mkdir(tmp, 0700) != 0 && errno != EEXIST) {
            snprintf(failed, cap, "%s", tmp);
            return false;
        }
        if (stat(tmp, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            errno = ENOTDIR;
            snprintf(failed, cap, "%s", tmp);
            return false;
        }
        if (end)
            return true;
        *p = '/';
    }
}

bool cuzkd_state_lock(const char *state_dir, int *fd_out, char *why, size_t cap)
{
    *fd_out = -1;
    char failed[4096], path[4200];
    if (!make_dirs(state_dir, failed, sizeof failed)) {
        snprintf(why, cap, "state_dir %s: cannot make %s: %s", state_dir, failed,
                 strerror(errno));
        return false;
    }
    snprintf(path, sizeof path, "%s/" CUZKD_LOCK_NAME, state_dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        snprintf(why, cap, "state_dir %s: cannot open the lock file %s: %s", state_dir, path,
                 strerror(errno));
        return false;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        char pid[32] = "";
        ssize_t n = e == EWOULDBLOCK ? pread(fd, pid, sizeof pid - 1, 0) : -1;
        close(fd);
        if (e != EWOULDBLOCK) {
            snprintf(why, cap, "state_dir %s: cannot lock %s: %s", state_dir, path, strerror(e));
            return false;
        }
        pid[n > 0 ? n : 0] = 0;
        pid[strcspn(pid, "\n")] = 0;
        snprintf(why, cap,
                 "another cuzkd (pid %s) is running on state_dir %s (it holds the lock on "
                 "%s): one daemon per state directory. Stop it first, or give this one "
                 "another daemon.state_dir (and another listen address)",
                 pid[0] ? pid : "unknown: it has not written it yet", state_dir, path);
        return false;
    }
    /* the pid is for a second daemon's message only: a full disk (the journal's writes
     * then fail with UNAVAILABLE, which clients retry) must not stop the start, and the
     * lock holds without it */
    char text[32];
    int n = snprintf(text, sizeof text, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) == 0 && pwrite(fd, text, (size_t)n, 0) != n)
        (void)ftruncate(fd, 0);
    *fd_out = fd;
    return true;
}
