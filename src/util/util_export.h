/*
 * util_export.h — the util layer's internal interface for the layers above it: the
 * CUZK_VERIFY invariant checks (util/verify.h), the strict TOML-subset parser
 * (util/toml.h, for cuzkd's configuration), the byte-size syntax of every command line
 * and config file (util/size.h), UTF-8 validity for text sent to clients
 * (util/utf8.h) and hex digits (util/hex.h). Not public API; the only util header another
 * layer may include (tests/lint/check_layers.sh enforces it).
 */
#ifndef CUZK_UTIL_EXPORT_H
#define CUZK_UTIL_EXPORT_H

#include "util/hex.h"
#include "util/size.h"
#include "util/toml.h"
#include "util/utf8.h"
#include "util/verify.h"

#endif
