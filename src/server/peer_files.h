/*
 * peer_files.h — files a client names (a GROTH16 job's zkey/params/r1cs/wtns paths, a
 * PreloadSRS "zkey:<path>"): the daemon runs with its own rights, often root's, so a file
 * is opened as the client, and only when the client could read it itself.
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
 *   The file is opened once, with that identity: the path is resolved (realpath), checked
 *   against the input directories, and then walked from "/" one component at a time with
 *   O_NOFOLLOW, so nothing swapped in since the resolution (a symlink in place of a
 *   directory or of the file) is followed. The engine receives that descriptor with the
 *   canonical path (its name, and the key of the SRS table) and reads the file through
 *   the descriptor only; it records the file's identity (device, inode, size, times) from
 *   it, so a later stage or a restart from the journal can tell a changed file. A
 *   PreloadSRS "zkey:<path>" / "params:<path>" is loaded likewise, through the descriptor
 *   (cuzk_engine_preload_fd).
 *
 *   A refused path gets one message whatever the reason (no such file, not readable,
 *   not a regular file, outside the input directories), so a client cannot probe which
 *   files exist.
 *
 * Threading: peer_files_open/check run on any thread (it changes only the calling thread's
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
 * Opens path (field names it in messages: "wtns_path") for peer, as described above. On
 * CUZK_OK *fd is a read-only descriptor (O_CLOEXEC, O_NONBLOCK) of a regular file, the
 * caller's to close, and *canon the malloc'd canonical path it was opened by. Errors:
 * CUZK_ERR_INVALID_ARG (not an absolute path), CUZK_ERR_NOT_FOUND (refused, one message
 * for every reason), CUZK_ERR_NOMEM. Call only when peer_files_may_name.
 */
cuzk_status peer_files_open(const peer_files *pf, const rpc_peer *peer, const char *field,
                            const char *path, char **canon, int *fd, cuzk_error *err);

/* peer_files_open, closing the descriptor: only the answer (and the canonical path). */
cuzk_status peer_files_check(const peer_files *pf, const rpc_peer *peer, const char *field,
                             const char *path, char **canon, cuzk_error *err);

/* Tests only: when set, called with the canonical path after it was resolved and checked
 * and just before it is opened, in the identity the open runs with (the place a racing
 * client would swap a symlink in). NULL in the daemon. */
extern void (*peer_files_hook_before_open)(const char *canon);

#endif
