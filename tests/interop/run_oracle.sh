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
exec "$checker" "$vectors"
