/*
 * vanilla_doc.c — see vanilla_doc.h.
 * Threading: pure functions; no global state.
 */
#include <stdlib.h>

#include "filecoin/vanilla_doc.h"

cuzk_status vd_proofs(jw_ctx *j, const jd_value *root, const jd_value **vps, size_t *n,
                      size_t *old)
{
    cuzk_status st = jw_field(j, root, "vanilla_proofs", vps, old);
    if (st)
        return st;
    if (!jd_is_array(*vps))
        return jw_fail(j, CUZK_ERR_FORMAT, "expected an array, got %s", jw_type_name(*vps));
    *n = jd_array_size(*vps);
    return CUZK_OK;
}

static cuzk_status read_bincode(jw_ctx *j, const jd_value *v, const vd_reader *rd, void *ctx,
                                void *out)
{
    char *bytes = NULL;
    size_t n = 0;
    cuzk_status st = jw_b64_decode(j, jd_string_value(v), jd_string_length(v), &bytes, &n);
    if (st)
        return st;
    bw_reader r = {j, (const uint8_t *)bytes, n, 0};
    st = rd->bincode(ctx, &r, out);
    if (!st && r.off != r.n)
        st = bw_fail(&r, CUZK_ERR_FORMAT, rd->trailing);
    free(bytes);
    return st;
}

cuzk_status vd_proof(jw_ctx *j, const jd_value *v, const vd_reader *rd, void *ctx, void *out)
{
    if (jd_is_string(v))
        return read_bincode(j, v, rd, ctx, out);
    if (jd_is_object(v))
        return rd->json(ctx, v, out);
    return jw_fail(j, CUZK_ERR_FORMAT, "expected an object or a base64 string, got %s",
                   jw_type_name(v));
}

