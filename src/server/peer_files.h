/*
 * peer_files.h — files a client names (a GROTH16 job's zkey/params/r1cs/wtns paths, a
 * PreloadSRS "zkey:<path>"): the daemon reads them later with its own rights, often
 * root's, so a path is accepted only when the client could read that file itself.
 *
 * Model
 *   A unix-socket peer has kernel credentials (SO_PEERCRED, SO_PEERGROUPS). A daemon
 *   running as root takes the peer's identity for the check: in the calling thread only,
 *   it sets the supplementary groups, fsgid and fsuid to the peer's (raw syscalls, which
 *   Linux applies per thread), resolves the path and opens it, and switches back. So the
 *   kernel itself decides, with everything it knows (modes, ACLs, search permission on
 *   every directory), as it would for the peer. A daemon that is not root does the same
 *   as itself for peers of its own user (and root). Every other peer (TCP, or another
 *   user when the daemon cannot take identities) may name only files under the
 *   configured input directories, which the operator declares readable by any client.
 *   When input directories are configured they bind every peer.
 *
 *   What the engine receives is the canonical path (no symlink, no "..") that was
 *   checked. The engine opens it again later (at once for a key, at synthesis for a
 *   witness, after a restart from the journal): a client that can write to a directory
 *   on that path could swap the file in between. Input directories only trusted users
 *   can write close that gap; the README says so.
 *
 *   A refused path gets one message whatever the reason (no such file, not readable,
 *   not a regular file, outside the input directories), so a client cannot probe which
 *   files exist.
 *
 * Threading: peer_files_check runs on any thread (it changes only the calling thread's
 * filesystem identity, and restores it before returning); the policy is read-only after
 * init.
 */
#ifndef CUZK_SERVER_PEER_FILES_H
#define CUZK_SERVER_PEER_FILES_H

#include <stdbool.h>
#include <sys/types.h>

#include "cuzk/status.h"
#include "rpc.h"

typedef struct peer_files {
    char **dirs; /* canonical input directories */
    size_t ndirs;
} peer_files;

/* How a peer's paths are checked. */
typedef enum peer_files_mode {
    PEER_FILES_AS_PEER,   /* open as the peer (the daemon is root) */
    PEER_FILES_AS_DAEMON, /* open as the daemon: the peer is the daemon's user, or root */
    PEER_FILES_DIRS_ONLY  /* only under the input directories, opened as the daemon */
} peer_files_mode;

/* dirs: comma-separated absolute directories, or NULL / "" for none. Each must exist.
 * CUZK_ERR_INVALID_ARG naming the bad one. */
cuzk_status peer_files_init(peer_files *pf, const char *dirs, cuzk_error *err);
void peer_files_fini(peer_files *pf);

peer_files_mode peer_files_mode_for(uid_t daemon_euid, const rpc_peer *peer);

/* Whether this peer may name files at all (false: DIRS_ONLY without input directories). */
bool peer_files_may_name(const peer_files *pf, const rpc_peer *peer);

/*
 * Checks path (field names it in messages: "wtns_path") for peer. On CUZK_OK *canon is
 * the malloc'd canonical path to hand to the engine. Errors: CUZK_ERR_INVALID_ARG (not an
 * absolute path), CUZK_ERR_NOT_FOUND (refused, one message for every reason),
 * CUZK_ERR_NOMEM. Call only when peer_files_may_name.
 */
cuzk_status peer_files_check(const peer_files *pf, const rpc_peer *peer, const char *field,
                             const char *path, char **canon, cuzk_error *err);

#endif
