#!/usr/bin/env bash
# run_daemon_e2e.sh — the grpc-js test against the real daemon: starts CUZKD on a
# temporary unix socket with a temporary journal and a small CPU configuration, runs
# daemon.js against it, then stops it with SIGTERM and requires a clean exit (0, socket
# removed). Exit 77 (skip) when node or tests/e2e/node_modules is missing, unless
# CUZK_REQUIRE_ORACLE=1.
#   usage: run_daemon_e2e.sh E2E_DIR PROTO_ROOT CUZKD
set -uo pipefail
e2e=$1 proto=$2 cuzkd=$3
if ! command -v node >/dev/null 2>&1 || [ ! -d "$e2e/node_modules/@grpc/grpc-js" ]; then
  if [ "${CUZK_REQUIRE_ORACLE:-0}" = 1 ]; then
    echo "node or $e2e/node_modules missing (run: npm ci --prefix tests/e2e)" >&2
    exit 1
  fi
  echo "skipped: node or $e2e/node_modules missing (npm ci --prefix tests/e2e)"
  exit 77
fi
dir=$(mktemp -d /tmp/cuzk-e2e-daemon-XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
sock="unix://$dir/cuzk.sock"
cat > "$dir/c.toml" <<CONF
[daemon]
listen = "$sock"
state_dir = "$dir/state"
[memory]
total_budget = "2GiB"
[gpus]
devices = ["cpu"]
[synthesis]
threads = 2
workers = 1
CONF
"$cuzkd" --config "$dir/c.toml" >"$dir/log" 2>&1 &
pid=$!
for _ in $(seq 300); do
  grep -q "cuzkd serving on" "$dir/log" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
grep -q "cuzkd serving on" "$dir/log" || { echo "cuzkd did not start:"; cat "$dir/log"; exit 1; }
rc=0
node "$e2e/daemon.js" "$proto" "$sock" || rc=1
kill -TERM "$pid"
if ! wait "$pid"; then
  echo "cuzkd exited with an error after SIGTERM:"; tail -n 30 "$dir/log"; rc=1
fi
pid=
[ -e "$dir/cuzk.sock" ] && { echo "socket file left behind"; rc=1; }
[ "$rc" = 0 ] || { echo "--- cuzkd log (tail)"; tail -n 30 "$dir/log"; }
exit "$rc"
