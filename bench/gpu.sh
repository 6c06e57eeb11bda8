#!/usr/bin/env bash
# gpu.sh — everything the GPU machine runs, in one call: build (Release, sm_90, Ninja),
# the GPU tests (GPU vs CPU bit for bit), compute-sanitizer memcheck + racecheck at small
# sizes, then the benchmarks, ending with one table. Logs and JSON go to $OUT (the device
# tool's output folder; ./out here otherwise).
#   usage: bash bench/gpu.sh [stage...]     stages: build test sanitize bench (default: all)
#   env:   GPU_NTT_LOG2 / GPU_MSM_LOG2 / GPU_PROVE_LOG2 / GPU_POST_LOG2 / GPU_PIPE_LOG2
#          size lists (GPU_POST_LOG2: gpu-prove with a dense random witness)
#          (comma-separated; the pipeline bench: the engine, 10-partition jobs)
#          GPU_FB_LOG2 / GPU_SETUP_LOG2  sizes of gpu-fixed-base (the dev setup's point
#                      multiplications, G1 and G2) and gpu-setup (a whole dev setup of the
#                      synthetic PoRep-shaped circuit on the GPU; 2^27: the 32 GiB PoRep key)
#          GPU_RUNS    timed runs per item (default 5)
#          GPU_BENCH   which benches the bench stage runs (default: all of
#                      ntt,msm,g2,prove,dense,pipeline,fixedbase,setup,cards), so a device lent with a
#                      per-command time limit can take the stage in several calls
#          GPU_SMALL_CARDS  device sizes the bench stage rehearses with CUZK_GPU_MEM_LIMIT
#                      (default 48G,32G,24G; empty: none): one 2^27 partition each, whose
#                      log says what was streamed or narrowed, or why it cannot fit
#          BUILD       build directory (default build-gpu); with a prebuilt one (cuzk and
#                      tests/gpu/test_gpu_* inside), skip the build stage
# Needs only what the GPU machine has: CMake, Ninja, gcc, nvcc (no cmocka, jansson, npm).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${OUT:-$PWD/out}
BUILD=${BUILD:-build-gpu}
RUNS=${GPU_RUNS:-5}
mkdir -p "$OUT"
stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(build test sanitize bench)
rc=0
log() { printf '\n==> %s\n' "$*" >&2; }

stage_build() {
  local gen=()
  command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
  cmake -S . -B "$BUILD" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    >"$OUT/configure.log" 2>&1 &&
    cmake --build "$BUILD" -j "$(nproc)" >"$OUT/build.log" 2>&1 ||
    { tail -40 "$OUT/build.log" "$OUT/configure.log" >&2; return 1; }
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm --format=csv,noheader >&2 || true
}

# Runs each GPU test binary directly (so a prebuilt, carried build works without ctest):
# exit 0 passed, 77 skipped (no device), anything else failed.
stage_test() {
  local t ok=0 rc
  : >"$OUT/gpu-tests.log"
  for t in "$BUILD"/tests/gpu/test_gpu_*; do
    [ -x "$t" ] || continue
    "$t" >>"$OUT/gpu-tests.log" 2>&1
    rc=$?
    case $rc in
      0) echo "test $(basename "$t"): passed" >&2 ;;
      77) if tail -3 "$OUT/gpu-tests.log" | grep -q "no CUDA device"; then
            echo "test $(basename "$t"): SKIPPED (no device)" >&2; ok=1
          else # e.g. the multi-GPU test on a one-GPU host
            echo "test $(basename "$t"): skipped ($(tail -1 "$OUT/gpu-tests.log"))" >&2
          fi ;;
      *) echo "test $(basename "$t"): FAILED ($rc)" >&2; ok=1 ;;
    esac
  done
  grep -E "^FAIL" "$OUT/gpu-tests.log" | head -20 >&2
  return $ok
}

stage_sanitize() {
  # Small sizes: the sanitizers slow kernels down 10-100x, racecheck (shared memory) far
  # more. test_gpu_msm takes --small (its sizes are not capped by the environment): without
  # it, its racecheck did not finish in 240 s on the H200.
  local t name log ok=0 max args rc
  for t in "$BUILD"/tests/gpu/test_gpu_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    args=()
    [ "$name" = test_gpu_msm ] && args=(--small)
    for tool in memcheck racecheck; do
      max=8
      [ "$tool" = racecheck ] && max=6
      log="$OUT/sanitize-$name-$tool.log"
      CUZK_GPU_TEST_MAX_LOG2=$max CUZK_TEST_ITERS=2 timeout 300 compute-sanitizer --tool "$tool" \
        --error-exitcode 99 "$t" "${args[@]}" >"$log" 2>&1
      rc=$?
      if [ $rc -eq 0 ]; then
        echo "sanitize $name $tool: clean" >&2
      elif [ $rc -eq 77 ]; then # the test skipped itself (e.g. the multi-GPU test on one GPU)
        echo "sanitize $name $tool: skipped ($(grep SKIP "$log" | tail -1))" >&2
      else
        echo "sanitize $name $tool: FAILED (see $OUT)" >&2
        tail -30 "$log" >&2
        ok=1
      fi
    done
  done
  return $ok
}

# The benches run with CUZK_GPU_PROFILE=1: each prints the device time per phase (MSM
# digits / sort / accumulate / ..., NTT passes, SpMV) next to its row.
stage_bench() {
  local b="$BUILD/cuzk" opts=(--runs "$RUNS") want=",${GPU_BENCH:-ntt,msm,g2,prove,dense,pipeline,fixedbase,setup,cards},"
  on() { [[ $want == *",$1,"* ]]; }
  export CUZK_GPU_PROFILE=1
  if on ntt; then
    CUZK_TRACE="$OUT/timeline" "$b" bench gpu-ntt --log2 "${GPU_NTT_LOG2:-20,22,24,26,27}" "${opts[@]}" \
      2>&1 | tee "$OUT/bench-ntt.txt" >&2 || return 1
  fi
  if on msm; then
    "$b" bench gpu-msm --log2 "${GPU_MSM_LOG2:-20,22,24,26,27}" "${opts[@]}" \
      2>&1 | tee "$OUT/bench-msm.txt" >&2 || return 1
  fi
  if on g2; then
    "$b" bench gpu-msm --g2 --log2 "${GPU_MSM_G2_LOG2:-22,24}" "${opts[@]}" \
      2>&1 | grep -E "g2|group" | tee "$OUT/bench-msm-g2.txt" >&2 || return 1
  fi
  if on prove; then
    CUZK_TRACE="$OUT/timeline" "$b" bench gpu-prove --log2 "${GPU_PROVE_LOG2:-22,27}" "${opts[@]}" \
      2>&1 | tee "$OUT/bench-prove.txt" >&2 || return 1
  fi
  if on dense; then # a PoSt partition's scalar mix (every witness value a field element)
    "$b" bench gpu-prove --dense-witness --log2 "${GPU_POST_LOG2:-27}" "${opts[@]}" \
      2>&1 | sed 's/^gpu  /gpu-dense/' | tee "$OUT/bench-prove-dense.txt" >&2 || return 1
  fi
  if on pipeline; then
    CUZK_TRACE="$OUT/timeline" "$b" bench pipeline --backend gpu --log2 "${GPU_PIPE_LOG2:-27}" \
      --runs 1 --threads "$(nproc)" 2>&1 | tee "$OUT/bench-pipeline.txt" >&2 || return 1
  fi
  if on fixedbase; then
    "$b" bench gpu-fixed-base --g2 --log2 "${GPU_FB_LOG2:-20,24,26}" --runs 2 \
      2>&1 | tee "$OUT/bench-fixed-base.txt" >&2 || return 1
  fi
  if on setup; then # ~100 GB of host memory at 2^27 (circuit, key, scalars)
    "$b" bench gpu-setup --log2 "${GPU_SETUP_LOG2:-27}" \
      2>&1 | tee "$OUT/bench-setup.txt" >&2 || return 1
  fi
  # smaller cards: a failure to fit is a finding, not a failed stage (the row says why)
  local lim
  on cards || return 0
  for lim in $(tr ',' ' ' <<<"${GPU_SMALL_CARDS-48G,32G,24G}"); do
    CUZK_GPU_MEM_LIMIT=$lim "$b" bench gpu-prove --log2 27 --runs 1 2>&1 |
      grep -E "^gpu .*(prove_start|stage device|2 workers)|streamed|capped|planned again" |
      sed "s/^gpu  /gpu-$lim/" | tee -a "$OUT/bench-small-cards.txt" >&2
  done
}

for s in "${stages[@]}"; do
  log "stage $s"
  t0=$SECONDS
  if "stage_$s"; then echo "stage $s: ok ($((SECONDS - t0)) s)" >&2
  else echo "stage $s: FAILED ($((SECONDS - t0)) s)" >&2; rc=1; fi
done
if [ -f "$OUT/bench-ntt.txt" ] || [ -f "$OUT/bench-prove.txt" ] || [ -f "$OUT/bench-pipeline.txt" ]; then
  printf '\n==== results (%s) ====\n' "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
  cat "$OUT"/bench-*.txt 2>/dev/null | grep -E "^(gpu|gpu-dense|gpu-[0-9]+G|pipeline) "
fi
exit $rc
