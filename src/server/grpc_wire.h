/*
 * grpc_wire.h — the parts of the gRPC-over-HTTP/2 protocol that both ends share: status
 * codes, the 5-byte Length-Prefixed-Message header, the grpc-timeout header value, the
 * percent-encoding of grpc-message, and listen/connect addresses ("unix:///path",
 * "unix:path", "HOST:PORT", "[V6]:PORT").
 *
 * Internal to the server and client libraries. Pure functions except the socket helpers,
 * which open file descriptors the caller owns. Thread-safe.
 */
#ifndef CUZK_GRPC_WIRE_H
#define CUZK_GRPC_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cuzk/status.h"

/* gRPC status codes (grpc/doc/statuscodes.md); only the ones cuzk uses are named. */
enum {
    GRPC_OK = 0,
    GRPC_CANCELLED = 1,
    GRPC_UNKNOWN = 2,
    GRPC_INVALID_ARGUMENT = 3,
    GRPC_DEADLINE_EXCEEDED = 4,
    GRPC_NOT_FOUND = 5,
    GRPC_PERMISSION_DENIED = 7,
    GRPC_RESOURCE_EXHAUSTED = 8,
    GRPC_FAILED_PRECONDITION = 9,
    GRPC_UNIMPLEMENTED = 12,
    GRPC_INTERNAL = 13,
    GRPC_UNAVAILABLE = 14,
    GRPC_UNAUTHENTICATED = 16,
};

/* Curio's client raises both directions to 256 MiB; the same limit is our default. */
#define GRPC_DEFAULT_MAX_MESSAGE (256u << 20)
#define GRPC_FRAME_HEADER 5

/* "OK", "CANCELLED", ...; codes without a name here give "UNKNOWN". */
const char *grpc_status_name(int code);

void grpc_frame_header_put(uint8_t out[GRPC_FRAME_HEADER], int compressed, uint32_t len);

/*
 * Parses a grpc-timeout value ("1..8 digits" + one of H M S m u n) into nanoseconds.
 * Returns 0 on success, -1 when malformed. Values past ~292 years saturate.
 */
int grpc_timeout_parse(const char *s, size_t len, int64_t *ns);

/* Formats ns as a grpc-timeout value (at most 8 digits, the finest unit that fits). */
void grpc_timeout_format(int64_t ns, char out[16]);

/*
 * Percent-encodes msg for the grpc-message header (bytes outside 0x20..0x7E and '%'
 * become %XX). Returns a malloc'd NUL-terminated string, or NULL when out of memory.
 */
char *grpc_message_encode(const char *msg);

/* Decodes a grpc-message value; invalid escapes are kept as they are. malloc'd or NULL. */
char *grpc_message_decode(const char *s, size_t len);

/* Monotonic clock in nanoseconds. */
int64_t grpc_now_ns(void);

/* Who may connect to a unix socket: its permission bits and group. */
typedef struct grpc_unix_perms {
    unsigned mode;  /* 0 = GRPC_UNIX_MODE */
    int set_group;  /* 0: the group the daemon creates files with */
    gid_t group;
} grpc_unix_perms;

/* Owner and group may connect, nobody else: the socket takes jobs and names files. */
#define GRPC_UNIX_MODE 0660u

/*
 * Opens a non-blocking listening socket for spec. A unix socket path that exists and is a
 * socket nobody listens on (a stale one from a killed daemon) is replaced; any other
 * existing file is an error. A unix socket gets perms (NULL = GRPC_UNIX_MODE, group
 * unchanged) before it listens, so no one connects while it has the umask's mode. *fd
 * receives the socket. For TCP, port 0 picks a free port; *bound_port (may be NULL)
 * receives the actual port (0 for unix sockets).
 */
cuzk_status grpc_listen(const char *spec, int backlog, const grpc_unix_perms *perms, int *fd,
                        int *bound_port, cuzk_error *err);

/* Connects (blocking) to spec; *fd receives the connected socket (blocking mode). */
cuzk_status grpc_connect(const char *spec, int *fd, cuzk_error *err);

/* For a unix spec, copies the path into out (size n) and returns 1; 0 for TCP specs. */
int grpc_addr_unix_path(const char *spec, char *out, size_t n);

#endif
