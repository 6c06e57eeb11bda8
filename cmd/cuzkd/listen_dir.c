/*
 * listen_dir.c — see listen_dir.h.
 * Threading: start-up only (single-threaded).
 */
#include "listen_dir.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* mkdir -p dir (a copy is cut at each '/'); false with errno set at the part that failed. */
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
        if (*p == '/' || end) {
            *p = 0;
            struct stat sb;
            if (mkdir(tmp, 0755) != 0 && errno != EEXIST) {
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
}

bool cuzkd_listen_dirs(const char *listen, char *why, size_t cap)
{
    const char *a = listen;
    while (*a) {
        size_t n = strcspn(a, ",");
        while (n && *a == ' ') {
            a++;
            n--;
        }
        if (n > 7 && strncmp(a, "unix://", 7) == 0) {
            char path[4096];
            snprintf(path, sizeof path, "%.*s", (int)(n - 7), a + 7);
            char *slash = strrchr(path, '/');
            if (slash && slash != path) {
                *slash = 0;
                char failed[4096];
                if (!make_dirs(path, failed, sizeof failed)) {
                    int e = errno;
                    snprintf(why, cap,
                             "cannot make %s, the directory of the socket unix://%s/%s (%s: "
                             "%s). Make it yourself (e.g. as root: mkdir -p %s; chown the "
                             "user running cuzkd), or listen elsewhere with daemon.listen or "
                             "--listen (e.g. unix:///tmp/cuzk.sock, then point the client at "
                             "it: cuzk --addr, $CUZK_ADDR, Curio's cuzk address)",
                             path, path, slash + 1, failed, strerror(e), path);
                    return false;
                }
            }
        }
        a += n;
        if (*a == ',')
            a++;
    }
    return true;
}
