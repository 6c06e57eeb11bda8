#!/usr/bin/env bash
# run_oracle.sh — the noble_oracle ctest: generates vectors with @noble/curves, then checks
# them with the C checker.
#   usage: run_oracle.sh INTEROP_SOURCE_DIR CHECKER OUT_DIR
# Exit 77 (ctest SKIP) when node or the npm packages are missing: `npm ci` in
# tests/interop installs them (scripts/test.sh does, and sets CUZK_REQUIRE_ORACLE=1 so
# that a missing piece fails instead). CUZK_TEST_SEED replays a run; CUZK_TEST_ITERS sets
# the vectors per op (default 200).
set -euo pipefail
src=$1 checker=$2 out=$3
missing() {
  if [ "${CUZK_REQUIRE_ORACLE:-0}" = 1 ]; then
    echo "noble_oracle: FAIL: $1 (CUZK_REQUIRE_ORACLE=1)"
    exit 1
  fi
  echo "noble_oracle: SKIP: $1"
  exit 77
}
command -v node >/dev/null 2>&1 || missing "node not found"
[ -f "$src/node_modules/@noble/curves/package.json" ] ||
  missing "@noble/curves not installed (run: npm ci --prefix $src)"

seed=${CUZK_TEST_SEED:-}
if [ -z "$seed" ]; then
  seed=0x$(od -An -N8 -tx8 /dev/urandom | tr -d ' \n')
fi
count=${CUZK_TEST_ITERS:-200}
vectors=$out/noble_vectors.txt
echo "[noble_oracle] CUZK_TEST_SEED=$seed CUZK_TEST_ITERS=$count (set them to replay)"
node "$src/noble_vectors.mjs" "$seed" "$count" "$vectors"
"$checker" "$vectors"

# The checker must refuse an incomplete file, or a generator that wrote nothing (or died
# half-way) would pass: empty, cut in half at a line boundary, and whole but without the
# closing "# end" line must each exit 1 (a crash or a usage error is not a pass either).
expect_incomplete() {
  local what=$1 file=$2 rc=0
  "$checker" "$file" >"$out/noble_incomplete.log" 2>&1 || rc=$?
  if [ "$rc" != 1 ] || ! grep -q '^INCOMPLETE' "$out/noble_incomplete.log"; then
    echo "noble_oracle: FAIL: the checker did not reject $what (exit $rc)"
    tail -n 5 "$out/noble_incomplete.log"
    exit 1
  fi
  echo "noble_oracle: $what rejected"
}
: >"$out/noble_empty.txt"
expect_incomplete "an empty vector file" "$out/noble_empty.txt"
head -n "$(($(wc -l <"$vectors") / 2))" "$vectors" >"$out/noble_half.txt"
expect_incomplete "a truncated vector file" "$out/noble_half.txt"
grep -v '^# end:' "$vectors" >"$out/noble_noend.txt"
expect_incomplete "a vector file without its end line" "$out/noble_noend.txt"
