#!/usr/bin/env bash
# check_layers.sh — the layer rule of docs/architecture.md for internal headers: a file in
# src/<layer>/ may include its own layer's headers ("<layer>/x.h") and, from a layer below
# it, only that layer's declared internal interface "<lower>/<lower>_export.h"; the CLI
# (cmd/, bench/) may include only *_export.h headers. Public headers (cuzk/*.h) are free.
# Tests are white-box and not checked.
#   usage: check_layers.sh ROOT        exit 0 clean, 1 with every violation listed
#          check_layers.sh --self-test first proves on a scratch tree that a crossing and
#                                      an upward export are caught, then checks ROOT
set -euo pipefail

# Rank of each layer: an export header may be included only from a higher rank.
declare -A rank=([util]=0 [ff]=1 [ec]=2 [pairing]=3 [poly]=3 [msm]=3 [r1cs]=3 [groth16]=4
                 [circuits]=5 [formats]=5 [gpu]=5 [prover]=6 [engine]=7 [server]=8
                 [cmd]=9 [bench]=9)

check_tree() {
  local root=$1 bad=0 f layer line inc dir base
  while IFS= read -r f; do
    case $f in
      "$root"/src/*) layer=${f#"$root"/src/}; layer=${layer%%/*} ;;
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
      [ "$dir" = cuzk ] && continue
      [ "$dir" = "$layer" ] && continue
      if [ -n "${rank[$dir]+x}" ] && [ "$base" = "${dir}_export.h" ] &&
         [ "${rank[$dir]}" -lt "${rank[$layer]}" ]; then
        continue
      fi
      echo "$f: includes \"$inc\": another layer's internal header" \
        "(only ${dir}_export.h, and only from a higher layer)" >&2
      bad=1
    done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" || true)
  done < <(find "$root/src" "$root/cmd" "$root/bench" -type f \
             \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) 2>/dev/null | sort)
  return "$bad"
}

if [ "${1:-}" = --self-test ]; then
  shift
  t=$(mktemp -d)
  trap 'rm -rf "$t"' EXIT
  mkdir -p "$t/src/ff" "$t/src/pairing" "$t/src/msm" "$t/cmd/cuzk" "$t/bench"
  printf '#include "ff/ff_export.h"\n#include "cuzk/ff.h"\n' >"$t/src/pairing/ok.c"
  printf '#include "ff/fp_internal.h"\n' >"$t/src/ff/ok.c"
  check_tree "$t" 2>/dev/null || { echo "self-test: a clean tree was flagged" >&2; exit 1; }
  for bad in 'src/pairing/x.c:ff/tower_fp2.h' 'cmd/cuzk/x.c:msm/msm_internal.h' \
             'src/ff/x.c:pairing/pairing_export.h' 'bench/x.c:  #  include "ec/ec_internal.h"'; do
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
