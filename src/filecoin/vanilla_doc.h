/*
 * vanilla_doc.h — what the PoSt and SnapDeals job documents (cuzk/post.h, cuzk/snap.h)
 * share: the "vanilla_proofs" array, each element one vanilla proof in either form, the
 * JSON object serde_json writes or a base64 string of its bincode bytes (the []byte lotus
 * and curio pass to filecoin-ffi), read to its last byte. Each kind's parser
 * (post_vanilla.c, snap_vanilla.c) gives the two readers of its proof and checks counts and
 * order; this walks the array and the forms, so both kinds fail alike ("expected an
 * object or a base64 string", trailing bytes). Internal to the filecoin layer.
 *
 * Threading: a parse belongs to one thread; no global state.
 */
#ifndef CUZK_FILECOIN_VANILLA_DOC_H
#define CUZK_FILECOIN_VANILLA_DOC_H

#include "filecoin/bincode_walk.h"

/* How one vanilla proof is read into out in each form; ctx is the kind's parser. */
typedef struct vd_reader {
    cuzk_status (*json)(void *ctx, const jd_value *v, void *out);
    cuzk_status (*bincode)(void *ctx, bw_reader *r, void *out);
    const char *trailing; /* the FORMAT message for bytes left over */
} vd_reader;

/* root.vanilla_proofs, which must be an array: *vps, its length *n. The path is extended
 * by ".vanilla_proofs" on success (the caller pops *old once every proof is read). */
cuzk_status vd_proofs(jw_ctx *j, const jd_value *root, const jd_value **vps, size_t *n,
                      size_t *old);

/* One element v: an object read by rd->json, or a base64 string whose bincode bytes
 * rd->bincode reads, all of them; anything else is FORMAT. */
cuzk_status vd_proof(jw_ctx *j, const jd_value *v, const vd_reader *rd, void *ctx, void *out);

#endif
