/*
 * rpc_peer.c — the peer of an accepted connection: who it is (a unix-socket peer's uid,
 * gid, pid and supplementary groups as the kernel recorded them at connect, SO_PEERCRED /
 * SO_PEERGROUPS; a TCP peer's address) and the socket options the connection gets
 * (TCP_NODELAY, keepalive probes).
 *
 * Threading: called by the I/O thread on sockets it owns; rpc_peer_copy/clear by anyone
 * who owns the peer.
 */
#define _GNU_SOURCE /* struct ucred, SO_PEERCRED */

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "rpc_internal.h"

void rpc_peer_clear(rpc_peer *p)
{
    free(p->groups);
    memset(p, 0, sizeof *p);
}

int rpc_peer_copy(rpc_peer *dst, const rpc_peer *src)
{
    *dst = *src;
    dst->groups = NULL;
    if (src->ngroups) {
        dst->groups = malloc(src->ngroups * sizeof *dst->groups);
        if (!dst->groups) {
            dst->ngroups = 0;
            return -1;
        }
        memcpy(dst->groups, src->groups, src->ngroups * sizeof *dst->groups);
    }
    return 0;
}

/* SO_PEERGROUPS (Linux 4.13) answers ERANGE with the size it needs. Without it the peer
 * keeps only its primary group: fewer rights, never more. */
static void peer_groups(rpc_peer *p, int fd)
{
#ifdef SO_PEERGROUPS
    socklen_t len = 16 * sizeof(gid_t);
    for (int tries = 0; tries < 3; tries++) {
        gid_t *g = malloc(len ? len : 1);
        if (!g)
            return;
        socklen_t got = len;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, g, &got) == 0) {
            p->groups = g;
            p->ngroups = got / sizeof(gid_t);
            return;
        }
        free(g);
        if (errno != ERANGE || got <= len)
            return;
        len = got;
    }
#else
    (void)p;
    (void)fd;
#endif
}

void rpc_socket_tune(int fd, int is_unix, int idle_s)
{
    if (is_unix)
        return;
    /* Probes every 10 s, 3 unanswered = dead: a vanished peer is noticed about 30 s
     * after the idle time even when the HTTP/2 PINGs are off. */
    int one = 1, intvl = 10, cnt = 3;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle_s, sizeof idle_s);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
}

void rpc_peer_identify(rpc_peer *p, int fd, int is_unix, const struct sockaddr_storage *sa)
{
    memset(p, 0, sizeof *p);
    p->is_unix = is_unix;
    if (is_unix) {
        struct ucred uc;
        socklen_t len = sizeof uc;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) == 0 && len == sizeof uc) {
            p->has_creds = 1;
            p->uid = uc.uid;
            p->gid = uc.gid;
            p->pid = uc.pid;
            peer_groups(p, fd);
            snprintf(p->desc, sizeof p->desc, "unix uid %u pid %d", (unsigned)uc.uid,
                     (int)uc.pid);
        } else {
            snprintf(p->desc, sizeof p->desc, "unix (no credentials)");
        }
        return;
    }
    char host[INET6_ADDRSTRLEN] = "?";
    unsigned port = 0;
    if (sa->ss_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
        port = ntohs(in->sin_port);
        snprintf(p->desc, sizeof p->desc, "tcp %s:%u", host, port);
    } else if (sa->ss_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
        port = ntohs(in6->sin6_port);
        snprintf(p->desc, sizeof p->desc, "tcp [%s]:%u", host, port);
    } else {
        snprintf(p->desc, sizeof p->desc, "tcp (unknown address)");
    }
}
