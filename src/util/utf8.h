/*
 * utf8.h — UTF-8 validity for text that leaves the process: error messages are cut to
 * fixed buffers (cuzk_error's 256 bytes, the engine's job records) and may carry bytes
 * from requests or file names, but protobuf strings and gRPC messages must be valid
 * UTF-8 (grpc-go fails a whole reply with INTERNAL when a string field is not).
 * "Valid" is RFC 3629 as Go's utf8.ValidString reads it: no overlong forms, no
 * surrogates (U+D800..DFFF), nothing above U+10FFFF.
 *
 * Threading: pure functions.
 */
#ifndef CUZK_UTIL_UTF8_H
#define CUZK_UTIL_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Length of the valid UTF-8 sequence starting at s (at most n bytes available): 1..4,
 * or 0 when s[0] does not start one. */
size_t cuzk_utf8_seq_len(const char *s, size_t n);

bool cuzk_utf8_valid(const char *s, size_t n);

/* Where to cut s[0..n) so that the cut does not fall inside a character: n, or the start
 * of the last character when n splits it (text truncated by snprintf). */
size_t cuzk_utf8_cut(const char *s, size_t n);

/* Makes the NUL-terminated s valid UTF-8 in place: every byte that does not start a
 * valid sequence becomes '?' (a character cut off at the end, too). Never lengthens s.
 * Returns the number of bytes replaced. */
size_t cuzk_utf8_scrub(char *s);

#endif
