/*
 * filecoin_export.h — the filecoin layer's internal interface for the layers above it
 * (prover, engine, server, the CLI): the only filecoin header they may include
 * (tests/lint/check_layers.sh enforces it). Empty today: the engine and the CLI need only
 * the public headers (cuzk/c1.h, cuzk/post.h, cuzk/snap.h, cuzk/param_digest.h and the
 * generators cuzk/c1_synth.h, cuzk/fil_synth.h, cuzk/vanilla_synth.h). The document walkers
 * and writers (json_walk.h, bincode_walk.h, serde_out.h, vanilla_doc.h) and the generated
 * trees (merkle_synth.h) stay private to src/filecoin; one that a higher layer comes to need
 * is exported here, not included from there.
 */
#ifndef CUZK_FILECOIN_EXPORT_H
#define CUZK_FILECOIN_EXPORT_H

#endif
