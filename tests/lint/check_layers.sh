#!/usr/bin/env bash
# check_layers.sh — the layer rule of docs/architecture.md: each layer uses only the layers
# below it.
#   Internal headers: a file in src/<layer>/ may include its own layer's headers
#   ("<layer>/x.h") and, from a layer below it, only that layer's declared internal
#   interface "<lower>/<lower>_export.h"; the CLI (cmd/, bench/) may include only
#   *_export.h headers.
#   Public headers: each include/cuzk/*.h belongs to one layer (the table `pub` below); a
#   file in src/<layer>/, and a public header itself, may include only public headers of its
#   own layer or of a lower one. A header missing from the table is an error, so a new one
#   must be placed.
# Layers of equal rank are siblings and may not include each other (formats and circuits
# know nothing of one another). Tests are white-box and not checked.
#   usage: check_layers.sh ROOT        exit 0 clean, 1 with every violation listed
#          check_layers.sh --self-test first proves on a scratch tree that crossings,
#                                      upward exports and upward public headers are caught,
#                                      then checks ROOT
set -euo pipefail

# Rank of each layer: a layer may use only layers of a lower rank.
declare -A rank=([util]=0 [ff]=1 [ec]=2 [pairing]=3 [poly]=3 [msm]=3 [r1cs]=3 [groth16]=4
                 [circuits]=5 [formats]=5 [gpu]=5 [filecoin]=6 [prover]=7 [engine]=8
                 [server]=9 [cmd]=10 [bench]=10)

# Layer of each public header (include/cuzk/<name>; generated ones under their subfolder).
declare -A pub=(
  [status.h]=util [pool.h]=util
  [ff.h]=ff [ec.h]=ec [pairing.h]=pairing [poly.h]=poly [msm.h]=msm [r1cs.h]=r1cs
  [groth16.h]=groth16
  [circuits.h]=circuits [c1_types.h]=circuits [porep.h]=circuits [post_circuit.h]=circuits
  [snap_circuit.h]=circuits
  [formats.h]=formats [outfiles.h]=formats [r1cs_cache.h]=formats
  [gpu.h]=gpu
  [c1.h]=filecoin [c1_synth.h]=filecoin [post.h]=filecoin [snap.h]=filecoin
  [fil_synth.h]=filecoin [vanilla_synth.h]=filecoin [param_digest.h]=filecoin
  [prover.h]=prover
  [engine.h]=engine [plan.h]=engine
  [server.h]=server [client.h]=server [v1/proving.pb-c.h]=server
)

# A file of layer $1 includes public header $2 (the part after "cuzk/"): fine when the
# header is of that layer or a lower one.
pub_ok() {
  local layer=$1 name=$2 owner
  owner=${pub[$name]-}
  [ -n "$owner" ] || return 1
  [ "$owner" = "$layer" ] || [ "${rank[$owner]}" -lt "${rank[$layer]}" ]
}

check_tree() {
  local root=$1 bad=0 f layer line inc dir base
  while IFS= read -r f; do
    case $f in
      "$root"/src/*) layer=${f#"$root"/src/}; layer=${layer%%/*} ;;
      "$root"/include/cuzk/*)
        base=${f#"$root"/include/cuzk/}
        layer=${pub[$base]-}
        if [ -z "$layer" ]; then
          echo "$f: public header with no layer in check_layers.sh" >&2
          bad=1
          continue
        fi ;;
      "$root"/cmd/*) layer=cmd ;;
      "$root"/bench/*) layer=bench ;;
      *) continue ;;
    esac
    if [ -z "${rank[$layer]+x}" ]; then
      echo "$f: layer '$layer' has no rank in check_layers.sh" >&2
      bad=1
      continue
    fi
    while IFS= read -r line; do
      inc=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' <<<"$line")
      case $inc in */*) ;; *) continue ;; esac
      dir=${inc%%/*}
      base=${inc#*/}
      if [ "$dir" = cuzk ]; then
        pub_ok "$layer" "$base" && continue
        if [ -z "${pub[$base]-}" ]; then
          echo "$f: includes \"$inc\": a public header with no layer in check_layers.sh" >&2
        else
          echo "$f: includes \"$inc\": a public header of layer ${pub[$base]}," \
            "not below $layer" >&2
        fi
        bad=1
        continue
      fi
      [ "$dir" = "$layer" ] && continue
      if [ -n "${rank[$dir]+x}" ] && [ "$base" = "${dir}_export.h" ] &&
         [ "${rank[$dir]}" -lt "${rank[$layer]}" ]; then
        continue
      fi
      echo "$f: includes \"$inc\": another layer's internal header" \
        "(only ${dir}_export.h, and only from a higher layer)" >&2
      bad=1
    done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" || true)
  done < <(find "$root/src" "$root/include/cuzk" "$root/cmd" "$root/bench" -type f \
             \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) 2>/dev/null | sort)
  return "$bad"
}

if [ "${1:-}" = --self-test ]; then
  shift
  t=$(mktemp -d)
  trap 'rm -rf "$t"' EXIT
  mkdir -p "$t/src/ff" "$t/src/pairing" "$t/src/msm" "$t/src/formats" "$t/src/filecoin" \
           "$t/src/engine" "$t/include/cuzk" "$t/cmd/cuzk" "$t/bench"
  printf '#include "ff/ff_export.h"\n#include "cuzk/ff.h"\n' >"$t/src/pairing/ok.c"
  printf '#include "ff/fp_internal.h"\n' >"$t/src/ff/ok.c"
  printf '#include "cuzk/formats.h"\n#include "cuzk/groth16.h"\n' >"$t/src/formats/ok.c"
  printf '#include "cuzk/circuits.h"\n#include "cuzk/post.h"\n' >"$t/src/filecoin/ok.c"
  printf '#include "filecoin/filecoin_export.h"\n#include "cuzk/snap.h"\n' >"$t/src/engine/ok.c"
  printf '#include "cuzk/c1_types.h"\n' >"$t/include/cuzk/post_circuit.h"
  printf '#include "cuzk/post_circuit.h"\n' >"$t/include/cuzk/post.h"
  check_tree "$t" 2>/dev/null || { echo "self-test: a clean tree was flagged" >&2; exit 1; }
  for bad in 'src/pairing/x.c:ff/tower_fp2.h' 'cmd/cuzk/x.c:msm/msm_internal.h' \
             'src/ff/x.c:pairing/pairing_export.h' 'bench/x.c:  #  include "ec/ec_internal.h"' \
             'src/formats/x.c:cuzk/circuits.h' 'src/formats/x.c:cuzk/c1.h' \
             'src/msm/x.c:cuzk/groth16.h' 'src/filecoin/x.c:cuzk/engine.h' \
             'src/ff/x.c:cuzk/no_such_layer.h' 'include/cuzk/porep.h:cuzk/c1.h' \
             'src/formats/x.c:filecoin/filecoin_export.h' 'src/engine/x.c:filecoin/json_walk.h' \
             'include/cuzk/unplaced.h:cuzk/status.h'; do
    file=${bad%%:*} inc=${bad#*:}
    case $inc in *include*) printf '%s\n' "$inc" >"$t/$file" ;;
                 *) printf '#include "%s"\n' "$inc" >"$t/$file" ;; esac
    if check_tree "$t" 2>/dev/null; then
      echo "self-test: '$inc' in $file was not caught" >&2
      exit 1
    fi
    rm "$t/$file"
  done
  echo "self-test: crossings caught"
fi

root=${1:?usage: check_layers.sh [--self-test] ROOT}
if check_tree "$root"; then
  echo "layer includes: clean"
else
  echo "layer includes: violations above" >&2
  exit 1
fi
