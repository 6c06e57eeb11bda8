/*
 * oracle_g1.c — G1 vectors from @noble/curves checked against cuzk/ec.h: the shared
 * checks of oracle_group_impl.h instantiated for G1. Threading: single-threaded.
 */
#include "oracle.h"

#define GRP "g1"
#define G(name) cuzk_g1_##name
#define GS(name) cuzk_g1s_##name
#define ORACLE_GROUP_ENTRY oracle_g1
#define COORD cuzk_fp
#define COORD_BYTES CUZK_FP_BYTES
#define coord_parse oracle_fp_parse
#define coord_hex oracle_fp_hex
#define COMP_BYTES CUZK_G1_COMPRESSED_BYTES
#define UNCOMP_BYTES CUZK_G1_UNCOMPRESSED_BYTES

#include "oracle_group_impl.h"
