/*
 * oracle_g2.c — G2 vectors from @noble/curves checked against cuzk/ec.h: the shared
 * checks of oracle_group_impl.h instantiated for G2. Threading: single-threaded.
 */
#include "oracle.h"

#define GRP "g2"
#define G(name) cuzk_g2_##name
#define GS(name) cuzk_g2s_##name
#define ORACLE_GROUP_ENTRY oracle_g2
#define COORD cuzk_fp2
#define COORD_BYTES (2 * CUZK_FP_BYTES)
#define coord_parse oracle_fp2_parse
#define coord_hex oracle_fp2_hex
#define COMP_BYTES CUZK_G2_COMPRESSED_BYTES
#define UNCOMP_BYTES CUZK_G2_UNCOMPRESSED_BYTES

#include "oracle_group_impl.h"
