/*
 * grpc_addr.c — listen/connect addresses for the gRPC server and client: unix sockets
 * ("unix:///abs/path", "unix:rel/path") and TCP ("HOST:PORT", "[V6]:PORT", ":PORT" = all
 * interfaces). Thread-safe; returned descriptors belong to the caller.
 */
#define _GNU_SOURCE /* accept4 flags, SOCK_NONBLOCK */

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "grpc_wire.h"

int grpc_addr_unix_path(const char *spec, char *out, size_t n)
{
    const char *p;
    if (strncmp(spec, "unix://", 7) == 0)
        p = spec + 7;
    else if (strncmp(spec, "unix:", 5) == 0)
        p = spec + 5;
    else
        return 0;
    snprintf(out, n, "%s", p);
    return 1;
}

static cuzk_status unix_addr(const char *spec, struct sockaddr_un *sa, cuzk_error *err)
{
    char path[sizeof sa->sun_path + 1];
    grpc_addr_unix_path(spec, path, sizeof path);
    if (!path[0])
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "'%s': empty unix socket path", spec);
    if (strlen(path) >= sizeof sa->sun_path)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                              "'%s': unix socket path longer than %zu bytes", spec,
                              sizeof sa->sun_path - 1);
    memset(sa, 0, sizeof *sa);
    sa->sun_family = AF_UNIX;
    memcpy(sa->sun_path, path, strlen(path) + 1);
    return CUZK_OK;
}

/* Splits "HOST:PORT" / "[V6]:PORT" into host (NULL for "" = any) and port. */
static cuzk_status split_host_port(const char *spec, char *host, size_t hn, char *port,
                                   size_t pn, cuzk_error *err)
{
    const char *colon;
    const char *h = spec;
    size_t hl;
    if (spec[0] == '[') {
        const char *close = strchr(spec, ']');
        if (!close || close[1] != ':')
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                  "'%s': expected [IPV6]:PORT", spec);
        h = spec + 1;
        hl = (size_t)(close - h);
        colon = close + 1;
    } else {
        colon = strrchr(spec, ':');
        if (!colon)
            return cuzk_error_set(err, CUZK_ERR_INVALID_ARG,
                                  "'%s': expected unix:///PATH or HOST:PORT", spec);
        hl = (size_t)(colon - spec);
    }
    const char *p = colon + 1;
    if (!*p || strspn(p, "0123456789") != strlen(p) || strlen(p) > 5 || atoi(p) > 65535)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "'%s': bad port", spec);
    if (hl >= hn)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "'%s': host name too long", spec);
    memcpy(host, h, hl);
    host[hl] = 0;
    snprintf(port, pn, "%s", p);
    return CUZK_OK;
}

static cuzk_status resolve(const char *spec, int passive, struct addrinfo **res,
                           cuzk_error *err)
{
    char host[256], port[8];
    cuzk_status st = split_host_port(spec, host, sizeof host, port, sizeof port, err);
    if (st != CUZK_OK)
        return st;
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = passive ? AI_PASSIVE : 0};
    int rc = getaddrinfo(host[0] ? host : NULL, port, &hints, res);
    if (rc != 0)
        return cuzk_error_set(err, CUZK_ERR_IO, "'%s': %s", spec, gai_strerror(rc));
    return CUZK_OK;
}

/* A unix socket file nobody accepts on is left over from a killed daemon. */
static int stale_unix_socket(const struct sockaddr_un *sa)
{
    struct stat st;
    if (lstat(sa->sun_path, &st) != 0 || !S_ISSOCK(st.st_mode))
        return 0;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    int alive = connect(fd, (const struct sockaddr *)sa, sizeof *sa) == 0;
    close(fd);
    return !alive;
}

cuzk_status grpc_listen(const char *spec, int backlog, const grpc_unix_perms *perms,
                        int *fd_out, int *bound_port, cuzk_error *err)
{
    if (!spec || !fd_out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "grpc_listen: NULL argument");
    *fd_out = -1;
    if (bound_port)
        *bound_port = 0;
    if (strncmp(spec, "unix:", 5) == 0) {
        struct sockaddr_un sa;
        cuzk_status st = unix_addr(spec, &sa, err);
        if (st != CUZK_OK)
            return st;
        if (stale_unix_socket(&sa))
            unlink(sa.sun_path);
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return cuzk_error_set(err, CUZK_ERR_IO, "socket: %s", strerror(errno));
        if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
            int e = errno;
            close(fd);
            return cuzk_error_set(err, CUZK_ERR_IO, "'%s': %s", spec, strerror(e));
        }
        /* bind made the file with the umask's mode (0777 under umask 0); nobody can
         * connect before listen, so set the permissions in between. */
        unsigned mode = perms && perms->mode ? perms->mode : GRPC_UNIX_MODE;
        const char *what = NULL;
        if (perms && perms->set_group && lchown(sa.sun_path, (uid_t)-1, perms->group) != 0)
            what = "cannot set the socket's group";
        else if (chmod(sa.sun_path, mode & 07777) != 0)
            what = "cannot set the socket's mode";
        else if (listen(fd, backlog) != 0)
            what = "listen";
        if (what) {
            int e = errno;
            close(fd);
            unlink(sa.sun_path);
            return cuzk_error_set(err, CUZK_ERR_IO, "'%s': %s: %s", spec, what, strerror(e));
        }
        *fd_out = fd;
        return CUZK_OK;
    }
    struct addrinfo *res;
    cuzk_status st = resolve(spec, 1, &res, err);
    if (st != CUZK_OK)
        return st;
    int e = 0;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
                        ai->ai_protocol);
        if (fd < 0) {
            e = errno;
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, backlog) == 0) {
            if (bound_port) {
                struct sockaddr_storage ss;
                socklen_t sl = sizeof ss;
                if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
                    *bound_port = ss.ss_family == AF_INET6
                                      ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
                                      : ntohs(((struct sockaddr_in *)&ss)->sin_port);
            }
            freeaddrinfo(res);
            *fd_out = fd;
            return CUZK_OK;
        }
        e = errno;
        close(fd);
    }
    freeaddrinfo(res);
    return cuzk_error_set(err, CUZK_ERR_IO, "'%s': %s", spec, strerror(e));
}

cuzk_status grpc_connect(const char *spec, int *fd_out, cuzk_error *err)
{
    if (!spec || !fd_out)
        return cuzk_error_set(err, CUZK_ERR_INVALID_ARG, "grpc_connect: NULL argument");
    *fd_out = -1;
    if (strncmp(spec, "unix:", 5) == 0) {
        struct sockaddr_un sa;
        cuzk_status st = unix_addr(spec, &sa, err);
        if (st != CUZK_OK)
            return st;
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return cuzk_error_set(err, CUZK_ERR_IO, "socket: %s", strerror(errno));
        if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
            int e = errno;
            close(fd);
            return cuzk_error_set(err, CUZK_ERR_IO, "connect '%s': %s", spec, strerror(e));
        }
        *fd_out = fd;
        return CUZK_OK;
    }
    struct addrinfo *res;
    cuzk_status st = resolve(spec, 0, &res, err);
    if (st != CUZK_OK)
        return st;
    int e = 0;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            e = errno;
            continue;
        }
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
            int one = 1;
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            freeaddrinfo(res);
            *fd_out = fd;
            return CUZK_OK;
        }
        e = errno;
        close(fd);
    }
    freeaddrinfo(res);
    return cuzk_error_set(err, CUZK_ERR_IO, "connect '%s': %s", spec, strerror(e));
}
