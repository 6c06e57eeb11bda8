#!/usr/bin/env bash
# run_e2e.sh — the grpc-js interop test: starts SERVER (a cuzk gRPC server binary that
# takes a listen address and prints "ready" once listening) on a temporary unix socket,
# runs interop.js against it, then stops it with SIGTERM and requires a clean exit.
# Exit 77 (skip) when node or tests/e2e/node_modules is missing, unless
# CUZK_REQUIRE_ORACLE=1.
#   usage: run_e2e.sh E2E_DIR PROTO_ROOT SERVER
set -uo pipefail
e2e=$1 proto=$2 server=$3
if ! command -v node >/dev/null 2>&1 || [ ! -d "$e2e/node_modules/@grpc/grpc-js" ]; then
  if [ "${CUZK_REQUIRE_ORACLE:-0}" = 1 ]; then
    echo "node or $e2e/node_modules missing (run: npm ci --prefix tests/e2e)" >&2
    exit 1
  fi
  echo "skipped: node or $e2e/node_modules missing (npm ci --prefix tests/e2e)"
  exit 77
fi
dir=$(mktemp -d /tmp/cuzk-e2e-XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
sock="unix://$dir/cuzk.sock"
"$server" "$sock" >"$dir/out" 2>"$dir/err" &
pid=$!
for _ in $(seq 100); do
  grep -q ready "$dir/out" 2>/dev/null && break
  sleep 0.1
done
grep -q ready "$dir/out" || { echo "server did not start:"; cat "$dir/err"; exit 1; }
rc=0
node "$e2e/interop.js" "$proto" "$sock" || rc=1
kill -TERM "$pid"
if ! wait "$pid"; then
  echo "server exited with an error after SIGTERM:"; cat "$dir/err"; rc=1
fi
pid=
[ -e "$dir/cuzk.sock" ] && { echo "socket file left behind"; rc=1; }
exit "$rc"
