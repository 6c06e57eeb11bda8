/*
 * grpc_wire.c — gRPC status names, message framing, grpc-timeout and grpc-message
 * encodings (see grpc_wire.h). Pure functions; thread-safe.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "grpc_wire.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/util_export.h"

const char *grpc_status_name(int code)
{
    switch (code) {
    case GRPC_OK: return "OK";
    case GRPC_CANCELLED: return "CANCELLED";
    case GRPC_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case GRPC_DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case GRPC_NOT_FOUND: return "NOT_FOUND";
    case GRPC_PERMISSION_DENIED: return "PERMISSION_DENIED";
    case GRPC_RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case GRPC_FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case GRPC_UNIMPLEMENTED: return "UNIMPLEMENTED";
    case GRPC_INTERNAL: return "INTERNAL";
    case GRPC_UNAVAILABLE: return "UNAVAILABLE";
    case GRPC_UNAUTHENTICATED: return "UNAUTHENTICATED";
    default: return "UNKNOWN";
    }
}

void grpc_frame_header_put(uint8_t out[GRPC_FRAME_HEADER], int compressed, uint32_t len)
{
    out[0] = compressed ? 1 : 0;
    out[1] = (uint8_t)(len >> 24);
    out[2] = (uint8_t)(len >> 16);
    out[3] = (uint8_t)(len >> 8);
    out[4] = (uint8_t)len;
}

int grpc_timeout_parse(const char *s, size_t len, int64_t *ns)
{
    /* The spec allows at most 8 digits, so value * 3600e9 stays below 2^63 only for
     * hours up to ~2.5e6; saturate rather than overflow. */
    if (len < 2 || len > 9)
        return -1;
    int64_t v = 0;
    for (size_t i = 0; i + 1 < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    int64_t unit;
    switch (s[len - 1]) {
    case 'H': unit = 3600LL * 1000000000LL; break;
    case 'M': unit = 60LL * 1000000000LL; break;
    case 'S': unit = 1000000000LL; break;
    case 'm': unit = 1000000LL; break;
    case 'u': unit = 1000LL; break;
    case 'n': unit = 1; break;
    default: return -1;
    }
    *ns = v > INT64_MAX / unit ? INT64_MAX : v * unit;
    return 0;
}

void grpc_timeout_format(int64_t ns, char out[16])
{
    static const struct {
        int64_t unit;
        char c;
    } k_units[] = {{1, 'n'}, {1000, 'u'}, {1000000, 'm'}, {1000000000, 'S'},
                   {60000000000LL, 'M'}, {3600000000000LL, 'H'}};
    if (ns < 1)
        ns = 1;
    for (size_t i = 0; i < sizeof k_units / sizeof k_units[0]; i++) {
        /* Round up so the peer never sees a shorter deadline than ours. */
        int64_t v = (ns + k_units[i].unit - 1) / k_units[i].unit;
        if (v <= 99999999 || i + 1 == sizeof k_units / sizeof k_units[0]) {
            if (v > 99999999)
                v = 99999999;
            int n = 0;
            char digits[12];
            do {
                digits[n++] = (char)('0' + v % 10);
                v /= 10;
            } while (v);
            for (int j = 0; j < n; j++)
                out[j] = digits[n - 1 - j];
            out[n] = k_units[i].c;
            out[n + 1] = 0;
            return;
        }
    }
}

char *grpc_message_encode(const char *msg)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(msg);
    char *out = malloc(3 * n + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)msg[i];
        if (c >= 0x20 && c <= 0x7e && c != '%') {
            out[o++] = (char)c;
        } else {
            out[o++] = '%';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
        }
    }
    out[o] = 0;
    return out;
}

char *grpc_message_decode(const char *s, size_t len)
{
    char *out = malloc(len + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        int hi, lo;
        if (s[i] == '%' && i + 2 < len && (hi = cuzk_hex_digit(s[i + 1])) >= 0 &&
            (lo = cuzk_hex_digit(s[i + 2])) >= 0) {
            out[o++] = (char)(hi << 4 | lo);
            i += 2;
        } else {
            out[o++] = s[i];
        }
    }
    out[o] = 0;
    return out;
}

int64_t grpc_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
