#!/usr/bin/env bash
# e2e.sh — full-size Filecoin proofs end to end through cuzkd on the GPU machine, one stage
# per proof kind, each sized to fit one 10-minute command of the lent device:
#   generate the input (gen-c1 / gen-vanilla: SYNTHETIC TEST DATA, consistent, no sector),
#   start cuzkd on gpu:0 with dev keys and the circuit cache under $WORK, prove once with
#   `cuzk remote-prove` (Curio's Prove call; first run: circuit recorded or mapped, dev key
#   made or regenerated), verify it, then E2E_WARM proofs submitted back to back (the
#   engine pipelines them), and record: first-run seconds, warm seconds a proof (from the
#   first warm submit to the last answer, over E2E_WARM) and steady seconds a proof (between
#   the first and the last warm completion, over E2E_WARM - 1: the pipeline full), GPU busy
#   over the warm window from the timeline (bench/timeline_busy.py), cuzkd's peak RSS, the
#   peak device memory (nvidia-smi), the disk used under $WORK (cuzkd's peak RSS after the
#   first proof goes to the log; each second, the device's memory, SM clock, power and
#   temperature and cuzkd's RSS, and its anonymous part, go to OUT/poll-STAGE.log). Each
#   stage appends its row to $WORK/e2e.tsv and prints the table of every row so far.
#   usage: bash bench/e2e.sh [stage...]   stages: porep32 porep64 wpost32 winning32 snap32
#                                          table (default: all five, then table); also
#                                          KIND:SIZE (porep:2KiB) for a small run
#   env:   DEVICES   cuzkd's devices (default gpu:0; cpu for a run of the script here)
#   env:   BIN       folder holding cuzk and cuzkd (default build); BIN/lib, when present,
#                    goes first on LD_LIBRARY_PATH (the carried Debian libraries)
#          WORK      disk folder for caches, inputs, state (default ./e2e-work; not /tmp,
#                    which may be memory-backed: a 32 GiB circuit cache is ~9 GB)
#          E2E_WARM  warm proofs per stage (default 3)
#          E2E_THREADS  cuzkd's [synthesis] threads (default 0: every CPU)
#          E2E_KEEP  1 keeps every stage's circuit cache; 0 (default) removes the other
#                    stages' caches when less than 24 GiB of disk is free
#          OUT       logs (default ./out)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/out}
BIN=${BIN:-build}
WORK=${WORK:-$ROOT/e2e-work}
WARM=${E2E_WARM:-3}
case $BIN in /*) ;; *) BIN=$ROOT/$BIN ;; esac
case $WORK in /*) ;; *) WORK=$ROOT/$WORK ;; esac
[ -d "$BIN/lib" ] && export LD_LIBRARY_PATH="$BIN/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
CUZK=$BIN/cuzk
CUZKD=$BIN/cuzkd
mkdir -p "$OUT" "$WORK/devkeys" "$WORK/csr"
TSV=$WORK/e2e.tsv
log() { printf '\n==> %s\n' "$*" >&2; }
now() { date +%s.%N; }

stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(porep32 porep64 wpost32 winning32 snap32 table)

# kind (CLI), sector size, circuit id of each stage
stage_args() {
  case $1 in
    porep32) echo "porep 32GiB porep-32g" ;;
    porep64) echo "porep 64GiB porep-64g" ;;
    wpost32) echo "window-post 32GiB wpost-32g" ;;
    winning32) echo "winning-post 32GiB winning-32g" ;;
    snap32) echo "snap 32GiB snap-32g" ;;
    *:*) # KIND:SIZE, e.g. porep:2KiB (small runs of the script itself)
      local k=${1%%:*} z=${1#*:} p t
      case $k in porep) p=porep ;; window-post) p=wpost ;; winning-post) p=winning ;;
        snap) p=snap ;; *) return 1 ;; esac
      case $z in 2KiB) t=2k ;; 8MiB) t=8m ;; 512MiB) t=512m ;; 32GiB) t=32g ;; 64GiB) t=64g ;;
        *) return 1 ;; esac
      echo "$k $z $p-$t" ;;
    *) return 1 ;;
  esac
}

free_gib() { df -Pk "$WORK" | awk 'NR == 2 { printf "%d", $4 / 1048576 }'; }

make_room() { # keep only this stage's circuit cache when the disk runs short
  local keep=$1 f
  [ "${E2E_KEEP:-0}" = 1 ] && return
  for f in "$WORK"/csr/*.csr; do
    [ -e "$f" ] || continue
    [ "$(basename "$f" .csr)" = "$keep" ] && continue
    [ "$(free_gib)" -ge 24 ] && return
    log "removing $f (free disk $(free_gib) GiB)"
    rm -f "$f" "$f.ok"
  done
}

start_daemon() { # $1 stage; sets DAEMON, ADDR, TIMELINE, DLOG
  ADDR="unix://$WORK/cuzk.sock"
  TIMELINE=$WORK/timeline-$1.json
  DLOG=$OUT/cuzkd-$1.log
  rm -f "$TIMELINE" "$TIMELINE.1" "$WORK/cuzk.sock"
  rm -rf "$WORK/state"
  cat >"$WORK/cuzkd.toml" <<EOF
[daemon]
listen = "$ADDR"
state_dir = "$WORK/state"
timeline = "$TIMELINE"
timeline_rotate = "4GiB"
[gpus]
devices = ["${DEVICES:-gpu:0}"]
[synthesis]
threads = ${E2E_THREADS:-0}
[srs]
dev_key_dir = "$WORK/devkeys"
csr_cache_dir = "$WORK/csr"
param_cache = ""
EOF
  "$CUZKD" --config "$WORK/cuzkd.toml" >"$DLOG" 2>&1 &
  DAEMON=$!
  echo "$DAEMON" >"$WORK/cuzkd.pid"
  local i
  for i in $(seq 1 300); do
    grep -q "cuzkd serving on" "$DLOG" && return 0
    kill -0 "$DAEMON" 2>/dev/null || break
    sleep 0.2
  done
  echo "cuzkd did not start:" >&2
  tail -20 "$DLOG" >&2
  return 1
}

stop_daemon() {
  kill -TERM "$DAEMON" 2>/dev/null
  wait "$DAEMON" 2>/dev/null
}

# Peak device memory while the stage runs (MiB), polled every second into a file, and the
# poll log (see the file comment).
start_gpu_poll() { # stage
  GPU_MAX=$WORK/gpu-max
  GPU_LOG=$OUT/poll-$1.log
  echo 0 >"$GPU_MAX"
  : >"$GPU_LOG"
  rm -f "$WORK/cuzkd.pid"
  (
    m=0
    while :; do
      # memory MiB, SM clock MHz, power W, temperature C: the last three to the stage's
      # log (a kernel's time against the clock it ran at), with cuzkd's RSS GiB
      q=$(nvidia-smi --query-gpu=memory.used,clocks.sm,power.draw,temperature.gpu \
        --format=csv,noheader,nounits -i 0 2>/dev/null | head -1 | tr -d ' ')
      u=${q%%,*}
      u=$(printf '%s' "$u" | tr -dc 0-9)
      [ -n "$u" ] && [ "$u" -gt "$m" ] && m=$u && echo "$m" >"$GPU_MAX"
      # RSS and its anonymous part: mapped files (the circuit cache, checked in full
      # right after it is written) count in RSS but are clean pages the kernel can drop
      r=$(awk '/^VmRSS/ { v = $2 } /^RssAnon/ { a = $2 }
        END { if (v != "") printf "%.1f anon %.1f", v / 1048576, a / 1048576 }' \
        "/proc/$(cat "$WORK/cuzkd.pid" 2>/dev/null || echo 0)/status" 2>/dev/null)
      echo "$(date +%T) gpu $q rss ${r:-NA}" >>"$GPU_LOG"
      sleep 1
    done
  ) &
  GPU_POLL=$!
}

input_for() { # kind size file (PoSt: also file.pub.json, the verifier's public inputs)
  case $1 in
    porep) "$CUZK" gen-c1 --sector-size "$2" --out "$3" >&2 ;;
    snap) "$CUZK" gen-vanilla --kind "$1" --sector-size "$2" --out "$3" >&2 ;;
    *) "$CUZK" gen-vanilla --kind "$1" --sector-size "$2" --out "$3" --public "$3.pub.json" >&2 ;;
  esac
}

# The verifying key of a dev key: its .params.vk beside a seed-form key (.params.seed),
# else the head of its .params (864 fixed bytes, n_ic, n_ic x 96).
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

verify() { # kind input proof -> prints OK/INVALID/self-checked
  if [ "$1" = porep ]; then
    local vk
    vk=$(ls "$WORK"/devkeys/cuzk-DEV-UNTRUSTED-"$CID".dev.params.vk 2>/dev/null | head -1)
    if [ -n "$vk" ]; then
      "$CUZK" verify-seal --c1 "$2" --proof "$3" --key "$vk" 2>&1 | tail -1
    else
      "$CUZK" verify-seal --c1 "$2" --proof "$3" --dev-key-dir "$WORK/devkeys" 2>&1 | tail -1
    fi
  elif [ -s "$2.pub.json" ] && vk_of "$WORK/devkeys/cuzk-DEV-UNTRUSTED-$CID" "$WORK/$CID.vk"; then
    # PoSt: the proof against the public inputs gen-vanilla derived, with the key's vk
    "$CUZK" verify --vk "$WORK/$CID.vk" --public "$2.pub.json" --proof "$3" 2>&1 | tail -1
  else # SnapDeals (16 partitions: no public-input file): cuzkd verified it before replying
    echo "self-checked"
  fi
}

# Seconds between the first and the last of the warm jobs' completions (cuzkd's log), per
# proof after the first: the back-to-back rate once the pipeline is full, without the
# first warm job's latency (its document parsed and checked at submit, its first partition
# synthesized) that "warm s/proof" (submit of the first to the last answer, over N) holds.
steady_interval() { # job ids, in submission order
  [ $# -ge 2 ] || { echo NA; return; }
  local id t first="" last=""
  for id in "$1" "${@: -1}"; do
    t=$(grep -F "job $id completed" "$DLOG" | head -1 | cut -d' ' -f1)
    [ -n "$t" ] || { echo NA; return; }
    [ -z "$first" ] && first=$t || last=$t
  done
  awk -v a="$first" -v b="$last" -v n=$(($# - 1)) 'function s(x,  d) {
      split(substr(x, 12, 12), d, ":"); return d[1] * 3600 + d[2] * 60 + d[3] }
    BEGIN { x = s(b) - s(a); if (x < 0) x += 86400; printf "%.2f", x / n }'
}

run_stage() {
  local stage=$1 kind size
  stage_args "$stage" >/dev/null || { echo "unknown stage $stage" >&2; return 2; }
  read -r kind size CID <<<"$(stage_args "$stage")"
  local sn=${stage//:/-}
  log "stage $stage: $kind $size ($CID)"
  make_room "$CID"
  local in=$WORK/in-$sn.json
  [ -s "$in" ] || input_for "$kind" "$size" "$in" || return 1
  ls -la "$in" >&2
  start_gpu_poll "$sn"
  start_daemon "$sn" || { kill "$GPU_POLL"; return 1; }
  local t0 t1 rc=0 first warm=NA busy=NA steady=NA
  t0=$(now)
  "$CUZK" remote-prove --addr "$ADDR" --kind "$kind" --vanilla "$in" \
    --out "$WORK/proof-$sn.bin" >"$OUT/first-$sn.txt" 2>&1 || rc=1
  t1=$(now)
  first=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  cat "$OUT/first-$sn.txt" >&2
  # the first proof's peak (dev key, circuit record or cache) apart from the warm run's
  awk '/VmHWM/ { printf "cuzkd peak RSS after the first proof: %.1f GiB\n", $2 / 1048576 }' \
    "/proc/$DAEMON/status" >&2 2>/dev/null
  grep -E "srs:|dev key|circuit|admit|refus|plan" "$DLOG" | tail -12 >&2
  local ok=FAILED
  [ $rc = 0 ] && ok=$(verify "$kind" "$in" "$WORK/proof-$sn.bin")
  echo "verify: $ok" >&2
  if [ $rc = 0 ] && [ "$WARM" -gt 0 ]; then
    local ids=() i id tw0 tw1
    tw0=$(now)
    for i in $(seq 1 "$WARM"); do
      id=$("$CUZK" submit --addr "$ADDR" --kind "$kind" --vanilla "$in" \
        --request-id "e2e-$sn-$i-$$") || { rc=1; break; }
      ids+=("$id")
    done
    for id in "${ids[@]}"; do
      "$CUZK" await "$id" --addr "$ADDR" --out "$WORK/warm-$sn.bin" >>"$OUT/warm-$sn.txt" 2>&1 ||
        rc=1
    done
    tw1=$(now)
    warm=$(awk -v a="$tw0" -v b="$tw1" -v n="$WARM" 'BEGIN { printf "%.2f", (b - a) / n }')
    tail -n "$WARM" "$OUT/warm-$sn.txt" >&2
    busy=$(python3 "$ROOT/bench/timeline_busy.py" "$TIMELINE" "${ids[@]}" 2>>"$OUT/busy-$sn.log" ||
      echo NA)
    steady=$(steady_interval "${ids[@]}")
  fi
  local rss
  rss=$(awk '/VmHWM/ { printf "%.1f", $2 / 1048576 }' "/proc/$DAEMON/status" 2>/dev/null)
  stop_daemon
  kill "$GPU_POLL" 2>/dev/null
  wait "$GPU_POLL" 2>/dev/null
  local gpu disk
  gpu=$(awk '{ printf "%.1f", $1 / 1024 }' "$GPU_MAX")
  disk=$(du -sk "$WORK" | awk '{ printf "%.1f", $1 / 1048576 }')
  [ -n "$rss" ] || rss=NA
  printf '%s\t%s\t%s\t%.1f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$stage" "$kind" "$size" "$first" \
    "$warm" "$steady" "$busy" "$rss" "$gpu" "$disk" "$ok" >>"$TSV"
  grep -E "refus|error|FAIL" "$DLOG" | tail -5 >&2
  return $rc
}

table() {
  [ -s "$TSV" ] || { echo "no rows yet ($TSV)"; return 0; }
  printf '\n| stage | kind | sector | first proof s | warm s/proof | steady s/proof | GPU busy (warm) | cuzkd peak RSS GiB | device peak GiB | disk GiB | verify |\n'
  printf '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n'
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 }' "$TSV"
}

rc=0
for s in "${stages[@]}"; do
  if [ "$s" = table ]; then
    table
    continue
  fi
  run_stage "$s" || rc=1
  table >&2
done
exit $rc
