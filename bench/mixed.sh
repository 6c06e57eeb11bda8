#!/usr/bin/env bash
# mixed.sh — a storage provider's day on one box (issue 31, item 3): a back-to-back stream of
# low-priority proofs with WinningPoSt every MIXED_WIN_EVERY seconds, and a WindowPoSt
# partition and a SnapDeals job arriving mid-stream, all through a real cuzkd with
# `cuzk submit` / `cuzk await` (each job's latency is submit -> proof as the client sees it).
# Each kind is first run ALONE (after one unmeasured warm-up job that loads its key and maps
# or records its circuit), then UNDER LOAD; the report prints, per kind, latency min / median
# / max alone and under load, the stream's seconds a proof alone and mixed, key loads and
# evictions (cuzkd's cuzk_srs_loads_total / cuzk_srs_evictions_total, per phase), the device
# busy ratio over each phase's window (bench/timeline_busy.py on cuzkd's timeline), and the
# ratios the issue's goals are stated in:
#   - CRITICAL (WinningPoSt) latency under load minus its median alone, in units of P, one
#     stream partition's device time alone (median over the stream's partitions; goal ~1 P);
#   - WindowPoSt (HIGH) latency under load minus alone, seconds (goal <= 2 s on the H200);
#   - the stream's wall time mixed against alone + the device time the other jobs took
#     inside the stream's window (goal: <= +5 %).
# Every proof is checked: PoRep with `cuzk verify-seal`, PoSt and 2 KiB SnapDeals with `cuzk
# verify` against the public inputs gen-vanilla wrote, a 32 GiB SnapDeals (16 partitions) and
# synthetic jobs by cuzkd's own self-check (COMPLETED + 192 bytes a partition). The script
# exits 1 when a job failed, was lost (no COMPLETED answer; or cuzkd counted fewer completions
# than jobs sent), a proof did not verify, or cuzkd died; it never judges timing.
#
# Modes (MIXED_MODE):
#   cpu   (default; runs anywhere, and as the ctest cuzkd_mixed): cuzkd on devices = ["cpu"],
#         2 KiB Filecoin kinds with dev keys (WinningPoSt CRITICAL and WindowPoSt HIGH: their
#         kinds' defaults; SnapDeals NORMAL), the stream `--synthetic MIXED_SYN_LOG2
#         --partitions MIXED_SYN_PARTS --priority low` (a dev setup, so real proofs; set
#         MIXED_STREAM=porep for 2 KiB PoRep C2s instead: ~30 s a proof on 2 cores, and a dev
#         key made once, minutes). One cuzkd life for every stage; a few minutes on 2 cores.
#   h200  the real 32 GiB kinds on DEVICES (default gpu:0): a PoRep C2 stream (NORMAL, its
#         default; MIXED_STREAM_PRIORITY=low to lower it), WinningPoSt, one WindowPoSt
#         partition (2,349 sectors), SnapDeals (16 partitions). Inputs, dev keys and circuit
#         caches are bench/e2e.sh's ($WORK/in-porep32.json, in-winning32.json,
#         in-wpost32.json, in-snap32.json, $WORK/devkeys, $WORK/csr; default WORK
#         ./e2e-work), so a run after `bench/e2e.sh porep32 winning32 wpost32 snap32` finds
#         everything ready (a missing input is generated). One stage per 10-minute command:
#             MIXED_MODE=h200 BIN=.devbin bash bench/mixed.sh alone    # ~5 min
#             MIXED_MODE=h200 BIN=.devbin bash bench/mixed.sh mixed    # ~6-7 min
#             MIXED_MODE=h200 BIN=.devbin bash bench/mixed.sh report
#         Each stage starts its own cuzkd (the alone stage's numbers are kept in $WORK).
#
#   usage: bash bench/mixed.sh [stage...]   stages: alone | mixed | report
#                                           (default: alone mixed report)
#   env:   BIN     folder holding cuzk and cuzkd (default build); BIN/lib first on
#                  LD_LIBRARY_PATH when present (the carried Debian libraries);
#                  CUZK, CUZKD name the binaries themselves (the ctest does)
#          WORK    work folder: inputs, state, timelines, records (cpu: ./mixed-work;
#                  h200: ./e2e-work)
#          OUT     logs (default ./out/mixed)
#          DEVICES cuzkd's devices (cpu: cpu; h200: gpu:0)
#          MIXED_DEVKEYS    dev key directory (cpu: $BIN/dev-keys, the build tree's, shared
#                           with the tests; h200: $WORK/devkeys); MIXED_CSR circuit caches
#                           (cpu: the dev key directory; h200: $WORK/csr)
#          MIXED_SIZE       sector size of the Filecoin kinds (cpu 2KiB, h200 32GiB)
#          MIXED_STREAM     synthetic | porep (cpu: synthetic; h200: porep)
#          MIXED_STREAM_PRIORITY  low | normal | high | critical | "" = the kind's default
#                           (cpu: low; h200: "")
#          MIXED_K          stream jobs, alone and mixed (cpu 6, h200 8)
#          MIXED_SYN_LOG2, MIXED_SYN_PARTS  the synthetic stream's 2^N and partitions
#                           (14, 2); cuzkd's synthetic_setup_max_log2n is set to N
#          MIXED_WIN_EVERY  seconds between WinningPoSts under load (cpu auto: 4 x its median
#                           latency alone, at least 2 s, so that they take a small share
#                           of 2 busy cores as they do of a GPU; h200 15)
#          MIXED_WIN_MAX    at most this many WinningPoSts under load (default 2 x MIXED_K)
#          MIXED_WIN_ALONE, MIXED_WPOST_ALONE, MIXED_SNAP_ALONE  jobs measured alone
#                           (3, 2, 1)
#          MIXED_KINDS      the other kinds of the day (default "winning wpost snap")
#          MIXED_THREADS    cuzkd's [synthesis] threads (cpu 2, h200 0 = every CPU)
#          MIXED_WORKERS    cuzkd's gpu_workers_per_device (cpu 1, h200 2)
#          MIXED_EVICTION_MIN_IDLE  cuzkd's [memory] eviction_min_idle (default: cuzkd's, 5m).
#                           When the four kinds' keys do not fit the memory budget together
#                           (a 128 GiB host: PoRep 32 GiB alone is 44 GiB of key), a key
#                           used less than this ago is not evicted and the job needing room
#                           waits: up to 5 minutes, more than a stage's 10. "0s" shows the
#                           evictions instead (the report counts them).
set -uo pipefail
export LC_ALL=C
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
MODE=${MIXED_MODE:-cpu}
case $MODE in cpu | h200) ;; *) echo "MIXED_MODE=$MODE: cpu or h200" >&2; exit 2 ;; esac
BIN=${BIN:-build}
case $BIN in /*) ;; *) BIN=$ROOT/$BIN ;; esac
[ -d "$BIN/lib" ] && export LD_LIBRARY_PATH="$BIN/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
CUZK=${CUZK:-$BIN/cuzk}
CUZKD=${CUZKD:-$BIN/cuzkd}
if [ "$MODE" = cpu ]; then
  WORK=${WORK:-$ROOT/mixed-work}
  DEVICES=${DEVICES:-cpu}
  SIZE=${MIXED_SIZE:-2KiB}
  STREAM=${MIXED_STREAM:-synthetic}
  STREAM_PRIO=${MIXED_STREAM_PRIORITY-low}
  K=${MIXED_K:-6}
  WIN_EVERY=${MIXED_WIN_EVERY:-auto}
  THREADS=${MIXED_THREADS:-2}
  WORKERS=${MIXED_WORKERS:-1}
else
  WORK=${WORK:-$ROOT/e2e-work}
  DEVICES=${DEVICES:-gpu:0}
  SIZE=${MIXED_SIZE:-32GiB}
  STREAM=${MIXED_STREAM:-porep}
  STREAM_PRIO=${MIXED_STREAM_PRIORITY-}
  K=${MIXED_K:-8}
  WIN_EVERY=${MIXED_WIN_EVERY:-15}
  THREADS=${MIXED_THREADS:-0}
  WORKERS=${MIXED_WORKERS:-2}
fi
case $WORK in /*) ;; *) WORK=$ROOT/$WORK ;; esac
OUT=${OUT:-$ROOT/out/mixed}
case $OUT in /*) ;; *) OUT=$ROOT/$OUT ;; esac
if [ "$MODE" = cpu ]; then
  DEVKEYS=${MIXED_DEVKEYS:-$BIN/dev-keys}
  CSR=${MIXED_CSR:-$DEVKEYS}
else
  DEVKEYS=${MIXED_DEVKEYS:-$WORK/devkeys}
  CSR=${MIXED_CSR:-$WORK/csr}
fi
SYN_LOG2=${MIXED_SYN_LOG2:-14}
SYN_PARTS=${MIXED_SYN_PARTS:-2}
WIN_MAX=${MIXED_WIN_MAX:-$((2 * K))}
WIN_ALONE=${MIXED_WIN_ALONE:-3}
WPOST_ALONE=${MIXED_WPOST_ALONE:-2}
SNAP_ALONE=${MIXED_SNAP_ALONE:-1}
OTHERS=${MIXED_KINDS:-winning wpost snap}
case $STREAM in synthetic | porep) ;; *) echo "MIXED_STREAM=$STREAM: synthetic or porep" >&2; exit 2 ;; esac
[ -x "$CUZK" ] && [ -x "$CUZKD" ] || { echo "no $CUZK / $CUZKD (BIN=$BIN)" >&2; exit 2; }
mkdir -p "$WORK" "$OUT" "$DEVKEYS" "$CSR" || exit 2
WORK=$(cd "$WORK" && pwd -P)
REC=$WORK/mixed-$MODE.tsv     # one row a job: phase label kind prio id t_sub t_done state verdict timeline
PHASES=$WORK/mixed-$MODE-phases.tsv # one row a phase: phase loads evictions busy t0 t1 timeline ids
JOBS=$WORK/mixed-jobs         # per-job record files while a phase runs
ADDR="unix://$WORK/mixed.sock"
log() { printf '==> %s\n' "$*" >&2; }
now() { date +%s.%N; }
fails=()
bad() { fails+=("$*"); echo "mixed: FAIL: $*" >&2; }

stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(alone mixed report)
for s in "${stages[@]}"; do
  case $s in alone | mixed | report) ;; *) echo "unknown stage $s (alone | mixed | report)" >&2; exit 2 ;; esac
done

# ---- kinds, inputs, keys ----------------------------------------------------------------
# size tag of circuit ids (porep-2k, wpost-32g) and e2e.sh's input names: its 32 GiB stages
# (porep32, winning32, wpost32, snap32) and its KIND:SIZE stages (in-winning-post-2KiB.json)
case $SIZE in 2KiB) TAG=2k ;; 8MiB) TAG=8m ;; 512MiB) TAG=512m ;; 32GiB) TAG=32g ;; 64GiB) TAG=64g ;;
  *) echo "MIXED_SIZE=$SIZE: 2KiB 8MiB 512MiB 32GiB 64GiB" >&2; exit 2 ;; esac
cli_kind() { case $1 in porep) echo porep ;; winning) echo winning-post ;; wpost) echo window-post ;;
  snap) echo snap ;; synthetic) echo synthetic ;; esac; }
input_of() { # kind -> the input document's path
  case $SIZE in
    32GiB) echo "$WORK/in-${1}32.json" ;;
    64GiB) echo "$WORK/in-${1}64.json" ;;
    *) echo "$WORK/in-$(cli_kind "$1")-$SIZE.json" ;;
  esac
}
make_input() { # kind (a missing one: gen-c1 / gen-vanilla, SYNTHETIC TEST DATA)
  local f
  f=$(input_of "$1")
  [ -s "$f" ] && { [ "$1" = porep ] || [ "$1" = snap ] || [ -s "$f.pub.json" ]; } && return 0
  log "generating $f"
  case $1 in
    porep) "$CUZK" gen-c1 --sector-size "$SIZE" --out "$f" >&2 ;;
    snap) # 2 KiB: one partition, whose public inputs cuzk verify takes
      if [ "$SIZE" = 2KiB ]; then
        "$CUZK" gen-vanilla --kind snap --sector-size "$SIZE" --out "$f" --public "$f.pub.json" >&2
      else
        "$CUZK" gen-vanilla --kind snap --sector-size "$SIZE" --out "$f" >&2
      fi ;;
    *) "$CUZK" gen-vanilla --kind "$(cli_kind "$1")" --sector-size "$SIZE" --out "$f" \
      --public "$f.pub.json" >&2 ;;
  esac
}
cid_of() { case $1 in porep) echo "porep-$TAG" ;; winning) echo "winning-$TAG" ;;
  wpost) echo "wpost-$TAG" ;; snap) echo "snap-$TAG" ;; esac; }
default_prio() { # the kind's default priority (src/engine/kind_*.c), for the records
  case $1 in winning) echo critical ;; wpost) echo high ;; *) echo normal ;; esac
}
prio_of() { # kind -> --priority argument ("" = the kind's default)
  if [ "$1" = "$STREAM" ]; then echo "$STREAM_PRIO"; else
    local v="MIXED_PRIORITY_$1"; echo "${!v:-}"; fi
}
job_args() { # kind seq -> submit arguments
  case $1 in
    # one seed for all: the key is named by it (synthetic-N-SEED), so one key for the stream
    synthetic) echo "--synthetic $SYN_LOG2 --partitions $SYN_PARTS --seed 1" ;;
    *) echo "--kind $(cli_kind "$1") --vanilla $(input_of "$1")" ;;
  esac
}

# The verifying key of a dev key (e2e.sh's vk_of): its .params.vk beside a seed-form key, else
# the head of its .params (864 fixed bytes, n_ic, n_ic x 96).
vk_of() { # devkey-stem out
  if [ -s "$1.dev.params.vk" ]; then
    cp "$1.dev.params.vk" "$2"
  elif [ -s "$1.dev.params" ]; then
    local n_ic
    n_ic=$(od -An -j864 -N4 -tu1 "$1.dev.params" |
      awk '{print $1*16777216 + $2*65536 + $3*256 + $4}')
    head -c $((864 + 4 + 96 * n_ic)) "$1.dev.params" >"$2"
  else
    return 1
  fi
}
verify() { # kind proof -> VERIFIED | SELF_CHECKED | INVALID: ... (never a timing matter)
  local k=$1 p=$2 in out cid
  [ -s "$p" ] || { echo "INVALID: no proof"; return; }
  case $k in
    synthetic)
      [ $(($(stat -c %s "$p") % 192)) = 0 ] && echo SELF_CHECKED || echo "INVALID: size"
      return ;;
    porep)
      in=$(input_of porep)
      cid=$(cid_of porep)
      if [ -s "$DEVKEYS/cuzk-DEV-UNTRUSTED-$cid.dev.params.vk" ]; then
        out=$("$CUZK" verify-seal --c1 "$in" --proof "$p" \
          --key "$DEVKEYS/cuzk-DEV-UNTRUSTED-$cid.dev.params.vk" 2>&1 | tail -1)
      else
        out=$("$CUZK" verify-seal --c1 "$in" --proof "$p" --dev-key-dir "$DEVKEYS" 2>&1 | tail -1)
      fi
      case $out in OK*) echo VERIFIED ;; *) echo "INVALID: $out" ;; esac
      return ;;
  esac
  in=$(input_of "$k")
  cid=$(cid_of "$k")
  if [ -s "$in.pub.json" ]; then
    vk_of "$DEVKEYS/cuzk-DEV-UNTRUSTED-$cid" "$WORK/$cid.vk" || { echo "INVALID: no key"; return; }
    out=$("$CUZK" verify --vk "$WORK/$cid.vk" --public "$in.pub.json" --proof "$p" 2>&1 | tail -1)
    [ "$out" = OK ] && echo VERIFIED || echo "INVALID: $out"
  else # SnapDeals above 2 KiB (16 partitions, no public-input file): cuzkd's self-check
    [ $(($(stat -c %s "$p") % 192)) = 0 ] && echo SELF_CHECKED || echo "INVALID: size"
  fi
}

# ---- the daemon -------------------------------------------------------------------------
DAEMON=
LIFE=0
TIMELINE=
DLOG=$OUT/cuzkd-$MODE.log
start_daemon() {
  LIFE=$((LIFE + 1))
  TIMELINE=$WORK/mixed-timeline-$MODE-$(date +%s)-$LIFE.json
  rm -f "$WORK/mixed.sock"
  rm -rf "$WORK/mixed-state"
  cat >"$WORK/mixed.toml" <<EOF
[daemon]
listen = "$ADDR"
state_dir = "$WORK/mixed-state"
timeline = "$TIMELINE"
timeline_rotate = "4GiB"
${MIXED_EVICTION_MIN_IDLE:+[memory]
eviction_min_idle = \"$MIXED_EVICTION_MIN_IDLE\"}
[gpus]
devices = ["$DEVICES"]
gpu_workers_per_device = $WORKERS
[synthesis]
threads = $THREADS
[srs]
dev_key_dir = "$DEVKEYS"
csr_cache_dir = "$CSR"
param_cache = ""
synthetic_setup_max_log2n = $((SYN_LOG2 > 12 ? SYN_LOG2 : 12))
EOF
  echo "---- mixed.sh: life $LIFE ($(date -u +%FT%TZ)) ----" >>"$DLOG"
  "$CUZKD" --config "$WORK/mixed.toml" >>"$DLOG" 2>&1 &
  DAEMON=$!
  local i
  for i in $(seq 1 600); do
    [ "$(grep -c "cuzkd serving on" "$DLOG")" -ge "$LIFE" ] && return 0
    kill -0 "$DAEMON" 2>/dev/null || break
    sleep 0.1
  done
  echo "cuzkd did not start:" >&2
  tail -20 "$DLOG" >&2
  DAEMON=
  return 1
}
stop_daemon() {
  [ -n "$DAEMON" ] || return 0
  kill -0 "$DAEMON" 2>/dev/null || bad "cuzkd died during the run (see $DLOG)"
  kill -TERM "$DAEMON" 2>/dev/null
  wait "$DAEMON"
  local rc=$?
  [ $rc = 0 ] || bad "cuzkd exited $rc after SIGTERM"
  DAEMON=
}
cleanup() {
  local p
  for p in ${BG_PIDS:-}; do kill "$p" 2>/dev/null; done
  [ -n "$DAEMON" ] && kill -9 "$DAEMON" 2>/dev/null
}
trap cleanup EXIT
metric() { # name -> its value in cuzkd's Prometheus text (0 when absent)
  awk -v n="$1" '$1 == n { v = $2 } END { print v + 0 }' "$WORK/metrics.txt"
}
metrics_now() { # -> "loads evictions completed failed"
  "$CUZK" metrics --addr "$ADDR" >"$WORK/metrics.txt" 2>"$WORK/metrics.err" ||
    { bad "cuzk metrics: $(head -c 200 "$WORK/metrics.err")"; : >"$WORK/metrics.txt"; }
  echo "$(metric cuzk_srs_loads_total) $(metric cuzk_srs_evictions_total)" \
    "$(metric cuzk_proofs_completed_total) $(metric cuzk_proofs_failed_total)"
}

# ---- jobs ---------------------------------------------------------------------------------
# submit PHASE LABEL KIND: the submit in the foreground (so a stream keeps its order), the
# await in the background; the job's row goes to $JOBS/LABEL when its answer is in.
SEQ=0
BG_PIDS=
SENT=0
submit() {
  local phase=$1 label=$2 kind=$3 prio args t0 id
  prio=$(prio_of "$kind")
  SEQ=$((SEQ + 1))
  args=$(job_args "$kind" "$SEQ")
  t0=$(now)
  # shellcheck disable=SC2086
  id=$("$CUZK" submit --addr "$ADDR" $args ${prio:+--priority $prio} \
    --request-id "mixed-$$-$label" 2>"$JOBS/$label.err")
  if ! [[ $id =~ ^[0-9a-f-]{36}$ ]]; then
    printf '%s\t%s\t%s\t%s\t-\t%s\t-\tNOT_SUBMITTED\t-\t%s\n' "$phase" "$label" "$kind" \
      "${prio:-$(default_prio "$kind")}" "$t0" "$TIMELINE" >"$JOBS/$label"
    return 1
  fi
  SENT=$((SENT + 1))
  (
    out=$("$CUZK" await "$id" --addr "$ADDR" --out "$JOBS/$label.bin" 2>&1)
    t1=$(now)
    st=LOST
    case $out in
      *"job $id: COMPLETED"*) st=COMPLETED ;;
      *"job $id: FAILED"*) st=FAILED ;;
      *"job $id: CANCELLED"*) st=CANCELLED ;;
    esac
    printf '%s\n' "$out" >"$JOBS/$label.out"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t-\t%s\n' "$phase" "$label" "$kind" \
      "${prio:-$(default_prio "$kind")}" "$id" "$t0" "$t1" "$st" "$TIMELINE" >"$JOBS/$label.row"
    mv "$JOBS/$label.row" "$JOBS/$label"
  ) &
  BG_PIDS="$BG_PIDS $!"
  echo "$id"
}
done_label() { [ -s "$JOBS/$1" ]; }
wait_labels() { # label... : until each has its row (the awaits return)
  local l
  for l in "$@"; do
    while ! done_label "$l"; do
      kill -0 "$DAEMON" 2>/dev/null || { bad "cuzkd died while $l was in flight"; return 1; }
      sleep 0.05
    done
  done
}
one() { # phase label kind: submit, wait for the answer; 1 unless COMPLETED (the run stops
  # at the first failed job: a failing self-check's diagnosis takes minutes on a CPU)
  submit "$1" "$2" "$3" >/dev/null || { bad "$2: not submitted: $(head -c 300 "$JOBS/$2.err")"; return 1; }
  wait_labels "$2" || return 1
  [ "$(cut -f8 "$JOBS/$2")" = COMPLETED ] ||
    { bad "$2 ($3): $(cut -f8 "$JOBS/$2"): $(grep -h -m1 . "$JOBS/$2.out" 2>/dev/null)"; return 1; }
}
# collect PHASE: every row of the phase's jobs, each proof verified, into $REC
collect() {
  local phase=$1 f row label kind v st
  wait $BG_PIDS 2>/dev/null
  BG_PIDS=
  [ -f "$REC" ] && { awk -F'\t' -v p="$phase" '$1 != p && $1 != "warm-" p' "$REC" >"$REC.tmp"
    mv "$REC.tmp" "$REC"; }
  for f in "$JOBS"/*; do
    case $f in *.bin | *.err | *.out | *.row) continue ;; esac
    [ -f "$f" ] || continue
    row=$(cat "$f")
    label=$(basename "$f")
    kind=$(cut -f3 <<<"$row")
    st=$(cut -f8 <<<"$row")
    v=-
    if [ "$st" = COMPLETED ]; then
      v=$(verify "$kind" "$JOBS/$label.bin")
      case $v in INVALID*) bad "$label ($kind): proof $v" ;; esac
    else
      bad "$label ($kind): $st: $(head -c 300 "$JOBS/$label.out" "$JOBS/$label.err" 2>/dev/null |
        tr '\n' ' ')"
    fi
    awk -F'\t' -v OFS='\t' -v v="${v// /_}" '{ $9 = v; print }' <<<"$row" >>"$REC"
  done
}
begin_phase() {
  rm -rf "$JOBS"
  mkdir -p "$JOBS"
  SENT=0
}
end_phase() { # phase m0(loads evictions completed failed) ids...
  local phase=$1 m0=$2 m1 busy
  shift 2
  m1=$(metrics_now)
  read -r l0 e0 c0 f0 <<<"$m0"
  read -r l1 e1 c1 f1 <<<"$m1"
  # lost: cuzkd completed fewer jobs than were sent and answered COMPLETED
  [ $((c1 - c0)) -ge "$SENT" ] || bad "$phase: $SENT jobs sent, cuzkd counted $((c1 - c0)) completed"
  [ "$f1" = "$f0" ] || bad "$phase: cuzkd counted $((f1 - f0)) failed jobs"
  busy=$(python3 "$ROOT/bench/timeline_busy.py" "$TIMELINE" "$@" 2>>"$OUT/busy.log" || echo NA)
  [ -f "$PHASES" ] && { awk -F'\t' -v p="$phase" '$1 != p' "$PHASES" >"$PHASES.tmp"; mv "$PHASES.tmp" "$PHASES"; }
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$phase" $((l1 - l0)) $((e1 - e0)) "$busy" "$TIMELINE" \
    "$DEVICES" >>"$PHASES"
  collect "$phase"
}

# Warm-ups, once per daemon life and kind: the key loaded (or a dev key made), the circuit
# mapped or recorded, none of it in the measured latencies.
declare -A WARM
warm() { # kind phase
  [ -n "${WARM[$1]:-}" ] && return 0
  log "warm-up: $1"
  local t0=$SECONDS
  one "warm-$2" "warm-$1" "$1" || { collect "$2"; return 1; }
  WARM[$1]=1
  log "warm-up $1: $((SECONDS - t0)) s: $(grep -h 'timings' "$JOBS/warm-$1.out" 2>/dev/null)"
}
ensure_daemon() {
  if [ -z "$DAEMON" ]; then
    WARM=()
    start_daemon || return 1
  fi
}
the_kinds() { echo "$STREAM $OTHERS"; }

stream() { # phase: K jobs of the stream back to back; sets STREAM_LABELS
  local i
  STREAM_LABELS=()
  for i in $(seq 1 "$K"); do
    submit "$1" "$1-stream-$i" "$STREAM" >/dev/null
    STREAM_LABELS+=("$1-stream-$i")
  done
}

stage_alone() {
  ensure_daemon || return 1
  begin_phase
  local k
  for k in $(the_kinds); do warm "$k" alone || return 1; done
  SENT=0 # the warm-ups are before the phase's metrics
  local m0
  m0=$(metrics_now)
  for k in $OTHERS; do
    local n=0 i
    case $k in winning) n=$WIN_ALONE ;; wpost) n=$WPOST_ALONE ;; snap) n=$SNAP_ALONE ;; porep) n=1 ;; esac
    for i in $(seq 1 "$n"); do
      log "alone: $k $i/$n"
      one alone "alone-$k-$i" "$k" || { collect alone; return 1; }
    done
  done
  log "alone: the stream, $K x $STREAM back to back"
  stream alone
  wait_labels "${STREAM_LABELS[@]}" || return 1
  # busy over the stream alone; the others' alone windows are mostly idle between jobs
  local f ids=()
  for f in "${STREAM_LABELS[@]}"; do ids+=("$(cut -f5 "$JOBS/$f")"); done
  end_phase alone "$m0" "${ids[@]}"
}

stage_mixed() {
  ensure_daemon || return 1
  begin_phase
  local k
  for k in $(the_kinds); do warm "$k" mixed || return 1; done
  SENT=0
  # when the others arrive: from the stream's time alone (its rows, if there), else a guess
  local t_alone
  t_alone=$(awk -F'\t' '$1 == "alone" && $2 ~ /-stream-/ { if (!a || $6 < a) a = $6; if ($7 > b) b = $7 }
    END { if (a) printf "%.1f", b - a; else print 0 }' "$REC" 2>/dev/null)
  if [ -z "$t_alone" ] || [ "$t_alone" = 0 ]; then
    [ "$MODE" = cpu ] && t_alone=$((K * 2)) || t_alone=$((K * 13))
  fi
  if [ "$WIN_EVERY" = auto ]; then
    WIN_EVERY=$(awk -F'\t' '$1 == "alone" && $3 == "winning" && $8 == "COMPLETED" { print $7 - $6 }' \
      "$REC" 2>/dev/null | sort -g | awk '{ v[n++] = $1 }
      END { if (!n) { print 4; exit } m = n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2
            m *= 4; printf "%.1f", m < 2 ? 2 : m }')
  fi
  local at_wpost at_snap
  at_wpost=$(awk -v t="$t_alone" 'BEGIN { printf "%.1f", t / 3 }')
  at_snap=$(awk -v t="$t_alone" 'BEGIN { printf "%.1f", t / 2 }')
  log "mixed: $K x $STREAM (alone: ${t_alone} s); $OTHERS: WinningPoSt every $WIN_EVERY s" \
    "(at most $WIN_MAX), WindowPoSt at ${at_wpost} s, SnapDeals at ${at_snap} s"
  local m0
  m0=$(metrics_now)
  local T0
  T0=$(now)
  stream mixed
  # the others, on a clock from the stream's start, until the stream is done
  (
    w=0
    next_win=0
    wp=0
    sn=0
    has_win=0
    case " $OTHERS " in *" winning "*) has_win=1 ;; esac
    case " $OTHERS " in *" wpost "*) ;; *) wp=1 ;; esac
    case " $OTHERS " in *" snap "*) ;; *) sn=1 ;; esac
    while :; do
      all=1
      for l in "${STREAM_LABELS[@]}"; do done_label "$l" || { all=0; break; }; done
      [ $all = 1 ] && [ $wp = 1 ] && [ $sn = 1 ] && break
      kill -0 "$DAEMON" 2>/dev/null || break
      t=$(awk -v a="$T0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
      if [ $all = 0 ] && [ "$has_win" = 1 ] && [ "$w" -lt "$WIN_MAX" ] &&
        awk -v t="$t" -v n="$next_win" 'BEGIN { exit !(t >= n) }'; then
        w=$((w + 1))
        submit mixed "mixed-winning-$w" winning >/dev/null
        next_win=$(awk -v n="$next_win" -v e="$WIN_EVERY" 'BEGIN { print n + e }')
      fi
      if [ $wp = 0 ] && awk -v t="$t" -v n="$at_wpost" 'BEGIN { exit !(t >= n) }'; then
        wp=1
        submit mixed mixed-wpost-1 wpost >/dev/null
      fi
      if [ $sn = 0 ] && awk -v t="$t" -v n="$at_snap" 'BEGIN { exit !(t >= n) }'; then
        sn=1
        submit mixed mixed-snap-1 snap >/dev/null
      fi
      sleep 0.05
    done
    wait
    echo "$SENT" >"$JOBS/.sent-others"
  ) &
  local clock=$!
  wait "$clock"
  wait_labels "${STREAM_LABELS[@]}" || return 1
  # the clock's subshell counted on from this shell's SENT
  SENT=$(cat "$JOBS/.sent-others" 2>/dev/null || echo "$SENT")
  local f ids=()
  for f in "$JOBS"/mixed-*; do
    case $f in *.bin | *.err | *.out | *.row) continue ;; esac
    ids+=("$(cut -f5 "$f")")
  done
  end_phase mixed "$m0" "${ids[@]}"
}

stage_report() {
  [ -s "$REC" ] || { echo "no records yet ($REC)"; return 0; }
  python3 "$ROOT/bench/mixed_report.py" "$REC" "$PHASES" "$STREAM" "$MODE"
}

rc=0
for s in "${stages[@]}"; do
  case $s in
    alone) make_input_all=1 ;;
    mixed) make_input_all=1 ;;
    report) make_input_all=0 ;;
  esac
  if [ $make_input_all = 1 ]; then
    for k in $(the_kinds); do
      [ "$k" = synthetic ] && continue
      make_input "$k" || { bad "input for $k"; rc=1; }
    done
    [ $rc = 0 ] || break
  fi
  log "stage $s ($MODE: $DEVICES, $SIZE, stream $K x $STREAM${STREAM_PRIO:+ $STREAM_PRIO})"
  "stage_$s" || { bad "stage $s did not finish"; rc=1; }
  [ "$s" != report ] && [ ${#fails[@]} -gt 0 ] && break
done
stop_daemon
if [ ${#fails[@]} -gt 0 ]; then
  printf 'mixed: FAILED (%d): see %s\n' ${#fails[@]} "$DLOG"
  printf '  %s\n' "${fails[@]}"
  exit 1
fi
exit $rc
