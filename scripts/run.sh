#!/usr/bin/env bash
# run.sh — the README's main command: installs the build dependencies, builds cuzk
# (Release; the CUDA kernels too when nvcc is found), then
#   1. the main job: starts the proving daemon cuzkd on its defaults in the background (its
#      socket and journal in a temporary directory, its timeline in $BUILD_DIR), sends a
#      synthetic PoRep-shaped job (10 partitions of 2^12 constraints, a dev setup: real
#      proofs, each pairing-checked by the daemon before it returns) through the CLI client,
#      prints the result with its timings and where the timeline is; then a Groth16 job on
#      a small demo circuit whose returned proof `cuzk verify` checks independently (keys
#      from `cuzk setup`); stops the daemon with SIGTERM;
#   2. the short benchmarks (`cuzk bench`), as before.
#   usage: bash scripts/run.sh [--no-bench | bench arguments]   (default: every group)
#   env:   BUILD_DIR (default build), CUZK_JOBS (default: all cores)
# Examples: bash scripts/run.sh pairing --json; bash scripts/run.sh field --min-time 2
# stdout carries the main job's result lines and what `cuzk bench` prints; with --json
# stdout is only the bench's JSON object (the main job's lines go to stderr then). Package
# installation, configure and build logs and the daemon's log go to stderr / files.
set -euo pipefail
exec 3>&1 1>&2
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$CUZK_ROOT"
build=${BUILD_DIR:-build}

bench=1
out_fd=3
for a in "$@"; do
  [ "$a" = --json ] && out_fd=2
done
if [ "${1:-}" = --no-bench ]; then
  bench=0
  shift
fi
say() { printf '%s\n' "$*" >&"$out_fd"; }

install_pkgs build-essential cmake libjansson-dev pkg-config libnghttp2-dev \
  libprotobuf-c-dev protobuf-c-compiler libmicrohttpd-dev
find_nvcc

log "configure ($build, Release)"
# CUZK_TESTS=ON only for the demo circuit's generator (cuzk_cli_fixture); the build below
# names its targets, so no test is compiled.
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUZK_TESTS=ON
log "build"
cmake --build "$build" -j "$CUZK_JOBS" --target cuzk cuzkd cuzk_cli_fixture

# ---- the main job: cuzkd + the CLI client ----------------------------------------------------
cuzk="$CUZK_ROOT/$build/cuzk"
cuzkd="$CUZK_ROOT/$build/cuzkd"
tmp=$(mktemp -d /tmp/cuzk-run-XXXXXX)
daemon=
cleanup() {
  [ -n "$daemon" ] && kill -TERM "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

# runs the daemon job; returns non-zero (after saying why) when a step fails
main_job() {
  local addr="unix://$tmp/cuzk.sock"
  local timeline="$CUZK_ROOT/$build/cuzkd-timeline.json"
  local dlog="$CUZK_ROOT/$build/cuzkd.log"
  rm -f "$timeline" "$timeline.1"
  # the defaults (devices: the GPU when present, else the CPU; memory budget: RAM minus
  # a margin) except where the socket, the journal and the timeline go
  cat > "$tmp/cuzkd.toml" <<EOF
[daemon]
listen = "$addr"
state_dir = "$tmp/state"
timeline = "$timeline"
EOF
  log "cuzkd --config $tmp/cuzkd.toml  (log: $dlog)"
  "$cuzkd" --config "$tmp/cuzkd.toml" > "$dlog" 2>&1 &
  daemon=$!
  local i
  for i in $(seq 1 600); do
    grep -q "cuzkd serving on" "$dlog" && break
    kill -0 "$daemon" 2>/dev/null || break
    sleep 0.1
  done
  if ! grep -q "cuzkd serving on" "$dlog"; then
    echo "cuzkd did not start:" && tail -n 20 "$dlog"
    return 1
  fi

  local parts=10 log2n=12 id out
  log "cuzk submit --synthetic $log2n --partitions $parts; cuzk await"
  id=$("$cuzk" submit --addr "$addr" --synthetic "$log2n" --partitions "$parts") || return 1
  out=$("$cuzk" await "$id" --addr "$addr" --out "$tmp/synthetic.bin") ||
    { echo "$out"; return 1; }
  say "main job: cuzkd, synthetic PoRep-shaped job ($parts partitions of 2^$log2n constraints)"
  say "$(printf '%s\n' "$out" | grep -v '^proof written')"
  local bytes
  bytes=$(stat -c %s "$tmp/synthetic.bin")
  if [ "$bytes" -ne $((parts * 192)) ]; then
    echo "expected $((parts * 192)) proof bytes, got $bytes"
    return 1
  fi
  say "proof: $bytes bytes ($parts x 192), each pairing-checked by cuzkd before it returned"

  # an independent check of a proof from the daemon: a demo circuit, keys from cuzk setup
  local d="$tmp/demo"
  mkdir -p "$d"
  log "demo circuit: cuzk setup, cuzk submit --params/--r1cs/--wtns, cuzk verify"
  "$CUZK_ROOT/$build/tests/cli/cuzk_cli_fixture" "$d" >/dev/null 2>&1 &&
    "$cuzk" setup --r1cs "$d/c.r1cs" --params "$d/b.params" --vk "$d/b.vk" 2>/dev/null &&
    "$cuzk" prove --params "$d/b.params" --r1cs "$d/c.r1cs" --wtns "$d/w.wtns" \
      --out "$d/local.bin" --public "$d/public.json" >/dev/null ||
    { echo "demo circuit: could not make the keys"; return 1; }
  id=$("$cuzk" submit --addr "$addr" --params "$d/b.params" --r1cs "$d/c.r1cs" \
    --wtns "$d/w.wtns") || return 1
  out=$("$cuzk" await "$id" --addr "$addr" --out "$d/proof.bin") || { echo "$out"; return 1; }
  out=$("$cuzk" verify --vk "$d/b.vk" --public "$d/public.json" --proof "$d/proof.bin") ||
    { echo "the daemon's proof does not verify: $out"; return 1; }
  say "verify: the daemon's Groth16 proof of the demo circuit: $out (cuzk verify)"

  log "stopping cuzkd (SIGTERM)"
  kill -TERM "$daemon"
  local rc=0
  wait "$daemon" || rc=$?
  daemon=
  if [ "$rc" -ne 0 ]; then
    echo "cuzkd exited with $rc:" && tail -n 20 "$dlog"
    return 1
  fi
  say "timeline: $timeline (Chrome trace events: open in https://ui.perfetto.dev);" \
    "daemon log: $dlog"
}

probe=$("$cuzk" status --addr "unix://$tmp/none.sock" 2>&1 || true)
case "$probe" in
  *"no gRPC client"*) log "this build has no gRPC (nghttp2/protobuf-c not found): no daemon job" ;;
  *) main_job || { echo "run.sh: the daemon job failed" >&2; exit 1; } ;;
esac

# ---- the benchmarks --------------------------------------------------------------------------
if [ "$bench" = 1 ]; then
  log "$build/cuzk bench $*"
  "$build/cuzk" bench "$@" >&3
fi
