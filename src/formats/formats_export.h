/*
 * formats_export.h — the formats layer's internal interface for the layers above it: the
 * iden3 binfile section reader (binfile.h) and the read-only file mapping (mapped_file.h),
 * which `cuzk inspect` uses to describe a file from its headers without loading it, and
 * the JSON document reader (json_dom.h) the Filecoin layer's document parsers use. Not
 * public API, but the only formats header another layer may include
 * (tests/lint/check_layers.sh enforces it). Threading: see the three headers.
 */
#ifndef CUZK_FORMATS_EXPORT_H
#define CUZK_FORMATS_EXPORT_H

#include "formats/binfile.h"
#include "formats/json_dom.h"
#include "formats/mapped_file.h"

struct cuzk_r1cs;
/* true when r is a circuit mapped from a CSR cache file (cuzk_r1cs_cache_open) and that
 * file changed since (truncated: its lost pages now read as zeros; or rewritten in place):
 * the key manager then loads the key again instead of proving from it. */
bool cuzk_r1cs_cache_changed(const struct cuzk_r1cs *r);

#endif
