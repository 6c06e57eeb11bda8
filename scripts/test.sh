#!/usr/bin/env bash
# test.sh — the README's test command (also what CI runs, through .ci/run). Installs the
# test dependencies, then runs, each in its own build directory:
#   release   src/ff/mont_x86_{fp,fr}.h and src/gpu/fp_sqr.cuh regenerated and compared (a
#             stale or hand-edited copy fails); Release build, x86-64 assembly field path
#             (CUZK_ASM default), CUDA when nvcc is found; ctest; a short `cuzk bench` smoke run
#   portable  Release build with -DCUZK_ASM=OFF (portable C limb path); ctest
#   verify    RelWithDebInfo build with -DCUZK_VERIFY=ON (invariant checks at the layer
#             boundaries: reduced field elements, on-curve points, scratch sizes); ctest
#   asan      RelWithDebInfo build with -DCUZK_SANITIZE=ON (ASan + UBSan, leaks checked); ctest
#             with CUZK_POREP_PROVE=0 (the 2 KiB PoRep dev setup + prove, minutes in Release,
#             are skipped under the sanitizers; everything before proving still runs)
#   fuzz      clang build with -DCUZK_FUZZ=ON; the fuzz smoke ctests, then each libFuzzer
#             target for FUZZ_SECONDS from its seed corpus (seeds-<target>, made by the build)
# Every stage runs even when an earlier one failed; the exit status is non-zero if any did.
#   usage: bash scripts/test.sh [stage...]          (default: all five)
#   env:   FUZZ_SECONDS (per target, default 60), CUZK_JOBS (default: all cores),
#          CUZK_TEST_SEED / CUZK_TEST_ITERS (passed to the tests: replay a failure)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$CUZK_ROOT"

stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(release portable verify asan fuzz)
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
t_start=$SECONDS

# ---- dependencies ------------------------------------------------------------------------
install_pkgs build-essential cmake ninja-build libcmocka-dev libjansson-dev libssl-dev clang python3
install_pkgs pkg-config libnghttp2-dev libprotobuf-c-dev protobuf-c-compiler libmicrohttpd-dev
# The Go client test (tests/go): grpc-go and its code generators, Debian's, used offline.
# grpc-go needs github.com/golang/protobuf 1.5 (1.3 cannot read APIv2 messages).
install_pkgs golang-go golang-google-grpc-dev golang-google-protobuf-dev \
  golang-github-golang-protobuf-1-5-dev protoc-gen-go protoc-gen-go-grpc protobuf-compiler
clang_major=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n1)
install_pkgs "libclang-rt-${clang_major}-dev"  # libFuzzer and the sanitizer runtimes
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || install_pkgs nodejs npm
find_nvcc
log "npm ci (tests/interop: @noble/curves, pinned by package-lock.json)"
npm ci --prefix tests/interop --no-audit --no-fund --loglevel=error </dev/null
log "npm ci (tests/interop/snarkjs: snarkjs 0.7.6, circom2 0.2.23)"
npm ci --prefix tests/interop/snarkjs --no-audit --no-fund --loglevel=error </dev/null
log "npm ci (tests/e2e: @grpc/grpc-js 1.14.7, @grpc/proto-loader 0.8.1)"
npm ci --prefix tests/e2e --no-audit --no-fund --loglevel=error </dev/null
# One prepared-ptau cache for every stage: phase-2 preparation is the slow part.
export CUZK_PTAU_CACHE="$CUZK_ROOT/build-ptau-cache"
# From here on a missing node or package fails the oracle test instead of skipping it, and
# missing Go packages fail the Go client test.
export CUZK_REQUIRE_ORACLE=1
export CUZK_REQUIRE_GO=1
# One Go build cache for every stage: grpc-go is compiled once.
export CUZK_GO_CACHE="$CUZK_ROOT/build-go-cache"

# ---- stages ------------------------------------------------------------------------------
tests_passed=0
tests_failed=0

# ctest in $1 with extra args; adds its counts to the totals.
run_ctest() {
  local dir=$1
  shift
  local rc=0
  ctest --test-dir "$dir" --output-on-failure --timeout 300 -j "$CUZK_JOBS" "$@" 2>&1 |
    tee "$dir/ctest.log" || rc=$?
  local line total failed
  line=$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$dir/ctest.log" | tail -n1)
  if [ -z "$line" ]; then
    echo "ctest in $dir ran no test" >&2
    tests_failed=$((tests_failed + 1))
    return 1
  fi
  total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")
  failed=$(sed -E 's/.*tests passed, ([0-9]+) tests? failed.*/\1/' <<<"$line")
  tests_passed=$((tests_passed + total - failed))
  tests_failed=$((tests_failed + failed))
  return "$rc"
}

# Ninja builds a target's objects while the libraries it links are still compiling (make
# waits for them), which keeps both cores busy through the long nvcc compilations of the
# release build and the unit tests' objects. A build directory keeps the generator it was
# made with (CMake refuses to switch).
configure() {
  local dir=$1 gen=()
  shift
  [ -f "$dir/CMakeCache.txt" ] || ! command -v ninja >/dev/null 2>&1 || gen=(-G Ninja)
  cmake -S . -B "$dir" "${gen[@]}" "$@"
}

configure_build() {
  local dir=$1
  shift
  configure "$dir" "$@" && cmake --build "$dir" -j "$CUZK_JOBS"
}

# src/ff/mont_x86_{fp,fr}.h and src/gpu/fp_sqr.cuh are generated (by the *_gen.py beside
# them); the build never runs the generators, so a hand edit of a header or a generator
# change without regenerating would otherwise go unnoticed.
check_generated() {
  local tmp rc=0 gen hdr
  tmp=$(mktemp)
  for gen in "src/ff/mont_x86_gen.py fp:src/ff/mont_x86_fp.h" \
    "src/ff/mont_x86_gen.py fr:src/ff/mont_x86_fr.h" src/gpu/fp_sqr_gen.py:src/gpu/fp_sqr.cuh; do
    hdr=${gen#*:}
    gen=${gen%%:*}
    # shellcheck disable=SC2086 # "generator [argument]"
    if ! python3 $gen >"$tmp"; then
      echo "$gen failed" >&2
      rc=1
    elif ! diff -u "$hdr" "$tmp" >"$tmp.diff"; then
      head -n 40 "$tmp.diff" >&2
      echo "$hdr differs from what $gen writes: run python3 $gen > $hdr" >&2
      rc=1
    else
      echo "$hdr matches $gen"
    fi
  done
  rm -f "$tmp" "$tmp.diff"
  if [ "$rc" = 0 ]; then
    tests_passed=$((tests_passed + 1))
  else
    tests_failed=$((tests_failed + 1))
  fi
  return "$rc"
}


stage_release() {
  local rc=0
  check_generated || rc=1
  configure_build build-release -DCMAKE_BUILD_TYPE=Release || return 1
  run_ctest build-release || rc=1
  log "cuzk bench smoke run"
  if build-release/cuzk bench field curve pairing --min-time 0.01 --json \
      >build-release/bench.json; then
    echo "bench smoke: $(wc -c <build-release/bench.json) bytes of JSON"
  else
    echo "bench smoke run failed" >&2
    rc=1
  fi
  return "$rc"
}

# The 2 KiB PoRep proving tests (a dev setup of 10 M points + a 2.7 M-row prove, minutes on
# 2 cores) run in the release stage only: the other stages change the arithmetic underneath
# (portable limbs, boundary checks, sanitizers), which the smaller tests cover in full.
stage_portable() {
  configure_build build-portable -DCMAKE_BUILD_TYPE=Release -DCUZK_ASM=OFF -DCUZK_CUDA=OFF &&
    CUZK_POREP_PROVE=0 run_ctest build-portable
}

# CUZK_VERIFY: every check that the release build skips for speed (tests/unit/test_verify.c
# shows that each kind fires). The portable limb path keeps the asm path's twin honest too.
stage_verify() {
  configure_build build-verify -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_VERIFY=ON \
    -DCUZK_CUDA=OFF &&
    CUZK_POREP_PROVE=0 run_ctest build-verify
}

stage_asan() {
  configure_build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_SANITIZE=ON \
    -DCUZK_CUDA=OFF &&
    CUZK_POREP_PROVE=0 \
      ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1 \
      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 run_ctest build-asan
}

# The fuzz targets are what tests/fuzz/CMakeLists.txt registers: each target <name> has a
# smoke ctest "<name>_smoke" (label "fuzz") and a seed corpus build-fuzz/tests/fuzz/
# seeds-<name> written by the build (valid files its reader accepts). Build them, run the
# smoke tests, then fuzz each for FUZZ_SECONDS into build-fuzz/tests/fuzz/corpus-<name>;
# a target without seeds fails (its accepting paths would go unfuzzed). A libFuzzer process
# is single-threaded, so CUZK_JOBS targets fuzz at once (one core each, as one at a time
# had): each still gets its FUZZ_SECONDS, the stage takes 1/CUZK_JOBS of the time. Each
# target's output goes to build-fuzz/tests/fuzz/fuzz-<name>.log; its tail is printed.
fuzz_one() {
  local name=$1
  cd "$CUZK_ROOT/build-fuzz/tests/fuzz" || return 1
  if [ -z "$(ls -A "seeds-$name" 2>/dev/null)" ]; then
    echo "$name: no seed corpus in build-fuzz/tests/fuzz/seeds-$name" >&2
    return 1
  fi
  echo "$name: $(ls "seeds-$name" | wc -l) seeds"
  mkdir -p "corpus-$name"
  local rc=0
  "./$name" -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 \
    "corpus-$name" "seeds-$name" >"fuzz-$name.log" 2>&1 || rc=$?
  tail -n 12 "fuzz-$name.log"
  return "$rc"
}

stage_fuzz() {
  local targets=() name rc=0 t0 running=0 dir=$CUZK_ROOT/build-fuzz/tests/fuzz
  CC=clang configure build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_FUZZ=ON \
    -DCUZK_CUDA=OFF || return 1
  mapfile -t targets < <(ctest --test-dir build-fuzz -N -L fuzz |
    sed -n 's/.*Test *#[0-9]*: \(fuzz_[A-Za-z0-9_]*\)_smoke$/\1/p')
  if [ ${#targets[@]} -eq 0 ]; then
    echo "no fuzz targets registered (tests/fuzz/CMakeLists.txt)" >&2
    return 1
  fi
  echo "fuzz targets: ${targets[*]}"
  cmake --build build-fuzz -j "$CUZK_JOBS" --target fuzz_seeds "${targets[@]}" &&
    run_ctest build-fuzz -L fuzz || return 1
  log "fuzzing ${#targets[@]} targets for ${FUZZ_SECONDS}s each, $CUZK_JOBS at a time"
  t0=$SECONDS
  for name in "${targets[@]}"; do
    rm -f "$dir/fuzz-$name.out" "$dir/fuzz-$name.rc"
    if [ "$running" -ge "$CUZK_JOBS" ]; then
      wait -n || true
      running=$((running - 1))
    fi
    (
      s=$SECONDS r=0
      fuzz_one "$name" >"$dir/fuzz-$name.out" 2>&1 || r=$?
      echo "$name: $((SECONDS - s))s" >>"$dir/fuzz-$name.out"
      echo "$r" >"$dir/fuzz-$name.rc"
    ) &
    running=$((running + 1))
  done
  wait
  for name in "${targets[@]}"; do
    log "$name for ${FUZZ_SECONDS}s"
    cat "$dir/fuzz-$name.out"
    if [ "$(cat "$dir/fuzz-$name.rc" 2>/dev/null)" = 0 ]; then
      tests_passed=$((tests_passed + 1))
    else
      echo "$name: FAILED (the fuzzer's whole output: $dir/fuzz-$name.log)" >&2
      tests_failed=$((tests_failed + 1))
      rc=1
    fi
  done
  echo "fuzzing: $((SECONDS - t0))s for ${#targets[@]} targets"
  return "$rc"
}

# CPU seconds used so far by this shell and the children it has waited for (every stage's
# commands): with the wall time in the summary, it tells a slow stage from a busy machine.
cpu_seconds() {
  local st
  read -r st </proc/$$/stat 2>/dev/null || { echo 0; return; }
  # shellcheck disable=SC2086 # the fields after "pid (comm) ": utime stime cutime cstime
  set -- ${st##*) }
  echo $(((${12} + ${13} + ${14} + ${15}) / $(getconf CLK_TCK)))
}

summary=()
any_failed=0
c_start=$(cpu_seconds)
for s in "${stages[@]}"; do
  case $s in release|portable|verify|asan|fuzz) ;; *) echo "unknown stage: $s" >&2; exit 2 ;; esac
  log "stage $s"
  t0=$SECONDS
  c0=$(cpu_seconds)
  if "stage_$s"; then result=ok; else result=FAILED; any_failed=1; fi
  summary+=("$(printf '%-9s %-7s %5ss  (%ss CPU)' "$s" "$result" $((SECONDS - t0)) \
    $(($(cpu_seconds) - c0)))")
done

log "summary ($((SECONDS - t_start))s in all, $(($(cpu_seconds) - c_start))s CPU in the stages)"
printf '%s\n' "${summary[@]}"
echo "summary: $tests_passed passed, $tests_failed failed"
exit "$any_failed"
