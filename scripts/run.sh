#!/usr/bin/env bash
# run.sh — the README's main command: installs the build dependencies, builds cuzk
# (Release; the CUDA kernels too when nvcc is found), then
#   1. the main job: a 2 KiB PoRep C2 through the proving daemon. `cuzk gen-c1` writes a
#      C1 output (SYNTHETIC TEST DATA, not a sealed sector; cached in $BUILD_DIR); cuzkd
#      starts in the background (its socket and journal in a temporary directory, its
#      timeline in $BUILD_DIR, srs.dev_key_dir = $CUZK_DEV_KEY_DIR); the CLI client
#      submits the C1 output as a PoRep job and awaits the 192-byte proof, which
#      `cuzk verify-porep` checks against the key's verifying key and the C1's public
#      inputs; prints the timings and where the timeline is. The key is a DEV setup made on
#      the first run (minutes on 2 cores) and loaded from the cache later: NOT Filecoin's
#      trusted setup (CUZK_PARAMS_DIR = a directory of Filecoin's .params makes cuzkd use
#      those instead: srs.param_cache). Then a Groth16 job on a small demo circuit whose
#      proof `cuzk verify` checks (keys from `cuzk setup`); stops the daemon with SIGTERM;
#   2. the short benchmarks (`cuzk bench`), as before.
#   usage: bash scripts/run.sh [--no-bench | bench arguments]   (default: every group)
#   env:   BUILD_DIR (default build; relative to the repository root, or absolute),
#          CUZK_JOBS (default: all cores), CUZK_DEV_KEY_DIR
#          (default $XDG_CACHE_HOME or ~/.cache, /cuzk/dev-keys), CUZK_PARAMS_DIR (none)
# Examples: bash scripts/run.sh pairing --json; bash scripts/run.sh field --min-time 2
# stdout carries the main job's result lines and what `cuzk bench` prints; with --json
# stdout is only the bench's JSON object (the main job's lines go to stderr then). Package
# installation, configure and build logs and the daemon's log go to stderr / files.
set -euo pipefail
exec 3>&1 1>&2
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$CUZK_ROOT"
build=$(root_path "${BUILD_DIR:-build}") # absolute from here on

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
cuzk="$build/cuzk"
cuzkd="$build/cuzkd"
tmp=$(mktemp -d /tmp/cuzk-run-XXXXXX)
devkeys=${CUZK_DEV_KEY_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/cuzk/dev-keys}
daemon=
cleanup() {
  [ -n "$daemon" ] && kill -TERM "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

# runs the daemon job; returns non-zero (after saying why) when a step fails
main_job() {
  local addr="unix://$tmp/cuzk.sock"
  local timeline="$build/cuzkd-timeline.json"
  local dlog="$build/cuzkd.log"
  rm -f "$timeline" "$timeline.1"
  # the C1 output: synthetic test data, made once per build directory
  local c1="$build/porep-2k.c1.json"
  if [ ! -s "$c1" ]; then
    log "cuzk gen-c1 --sector-size 2KiB --out $c1  (SYNTHETIC TEST DATA)"
    "$cuzk" gen-c1 --sector-size 2KiB --seed 1 --out "$c1" >/dev/null || return 1
  fi
  mkdir -p "$devkeys"
  # the defaults (devices: the GPU when present, else the CPU; memory budget: RAM minus
  # a margin) except where the socket, the journal and the timeline go
  cat > "$tmp/cuzkd.toml" <<EOF
[daemon]
listen = "$addr"
state_dir = "$tmp/state"
timeline = "$timeline"
[srs]
dev_key_dir = "$devkeys"
param_cache = "${CUZK_PARAMS_DIR:-}"
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

  local id out
  if [ -s "$devkeys/cuzk-DEV-UNTRUSTED-porep-2k.dev.params" ]; then
    log "cuzk submit --kind porep --vanilla $c1; cuzk await  (the cached dev key is loaded)"
  else
    log "cuzk submit --kind porep --vanilla $c1; cuzk await  (first run: cuzkd makes the" \
      "dev key, about 1.5 min on 2 cores)"
  fi
  local t0=$SECONDS
  id=$("$cuzk" submit --addr "$addr" --kind porep --vanilla "$c1") || return 1
  out=$("$cuzk" await "$id" --addr "$addr" --out "$tmp/porep.bin") ||
    { echo "$out"; return 1; }
  say "main job: cuzkd, PoRep C2 of a 2 KiB sector (C1: $c1, synthetic test data)" \
    "in $((SECONDS - t0)) s"
  say "$(printf '%s\n' "$out" | grep -v '^proof written')"
  local key
  if grep -q "using a DEV KEY" "$dlog"; then
    key=(--dev-key-dir "$devkeys")
  elif [ -n "${CUZK_POREP_VK:-}" ]; then
    key=(--key "$CUZK_POREP_VK")
  else
    key=()
  fi
  if [ ${#key[@]} -gt 0 ]; then
    out=$("$cuzk" verify-porep --c1 "$c1" --proof "$tmp/porep.bin" "${key[@]}") ||
      { echo "the daemon's PoRep proof does not verify: $out"; return 1; }
    say "verify: the daemon's 192-byte PoRep proof: $out (cuzk verify-porep ${key[*]})"
  else
    say "verify: the proof was checked by cuzkd against Filecoin's parameters in" \
      "$CUZK_PARAMS_DIR (CUZK_POREP_VK=the .vk adds an independent cuzk verify-porep)"
  fi
  if grep -q "using a DEV KEY" "$dlog"; then
    say "************************************************************************************"
    say "*** DEV KEY: proved and verified with a development setup made by cuzk, cached in"
    say "***   $devkeys"
    say "*** It is NOT Filecoin's trusted setup: its proofs never verify on chain. For real"
    say "*** proofs point cuzkd at Filecoin's .params (srs.param_cache in its config;"
    say "*** CUZK_PARAMS_DIR=DIR here; --params-dir DIR for cuzk porep-prove)."
    say "************************************************************************************"
  fi

  # an independent check of a proof from the daemon: a demo circuit, keys from cuzk setup
  local d="$tmp/demo"
  mkdir -p "$d"
  log "demo circuit: cuzk setup, cuzk submit --params/--r1cs/--wtns, cuzk verify"
  "$build/tests/cli/cuzk_cli_fixture" "$d" >/dev/null 2>&1 &&
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
