#!/usr/bin/env bash
# run.sh — the README's main command: installs the build dependencies, builds cuzk
# (Release; the CUDA kernels too when nvcc is found) and runs the benchmarks.
#   usage: bash scripts/run.sh [bench arguments]     (default: every group)
#   env:   BUILD_DIR (default build), CUZK_JOBS (default: all cores)
# Examples: bash scripts/run.sh pairing --json; bash scripts/run.sh field --min-time 2
# stdout carries only what `cuzk bench` prints (with --json: one JSON object); package
# installation, configure and build logs go to stderr.
set -euo pipefail
exec 3>&1 1>&2
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$CUZK_ROOT"
build=${BUILD_DIR:-build}

install_pkgs build-essential cmake libjansson-dev
find_nvcc

log "configure ($build, Release)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUZK_TESTS=OFF
log "build"
cmake --build "$build" -j "$CUZK_JOBS"

log "$build/cuzk bench $*"
"$build/cuzk" bench "$@" >&3
