#!/usr/bin/env bash
# soak.sh — cuzkd under load and abuse for a long time (issue 21): SOAK_JOBS small jobs
# through SOAK_CLIENTS client loops, the daemon killed with SIGKILL every SOAK_KILL_EVERY
# acknowledged jobs and started again on the same journal, and then the audit:
#   - every acknowledged job (a `cuzk submit` that printed an id) completed exactly once as
#     its client saw it: one COMPLETED from `cuzk await`, with a proof that verifies;
#   - no request id ever had a second job: the jobs the daemon journaled (its state_dir,
#     read every second) and those it logged as completed are exactly the acknowledged ones,
#     one per request id; no job FAILED, none lost (NOT_FOUND);
#   - no job proved again once its outcome was journaled (its <id>.done seen before a second
#     "completed" line); a job killed before that is proved again at the restart, rightly;
#   - cuzkd never died unless killed, and stopped with exit 0 on SIGTERM at the end;
#   - its RSS (VmRSS) and open file descriptors, sampled every SOAK_SAMPLE_EVERY acknowledged
#     jobs, stay flat: per daemon life first/last/max, and no life beyond the first life's
#     maximum plus a tolerance (RSS: SOAK_RSS_TOL_PCT %, at least SOAK_RSS_TOL_MIB; fds:
#     SOAK_FD_TOL), nor a life that grows by more than that from its first sample to its last
#     (threads and journal files are sampled too, and shown). The RSS tolerance is wide
#     because glibc keeps freed memory: cuzkd's RSS climbs ~7 MiB over its first ~16,000
#     small jobs and then stays put while its live heap stays flat (heaptrack; docs/perf.md,
#     session 12); for a leak hunt run one long life (SOAK_KILL_EVERY=0) and read the KiB
#     per 1000 jobs column.
# Why: a Curio node runs cuzkd for months, across crashes and restarts; a job acknowledged
# and then lost or proved twice, or a slow leak, shows only after thousands of jobs.
#
# The jobs (SOAK_KIND):
#   groth16    a Groth16 job on the CLI test fixture's small circuit (bellperson keys from
#              `cuzk setup`, the paths read by the daemon); every returned proof is checked
#              independently with `cuzk verify` against the key's .vk and public inputs;
#   synthetic  `--synthetic SOAK_LOG2` (a dev setup for 2^N <= srs.synthetic_setup_max_log2n,
#              so real, verifiable proofs), whose key cuzkd makes in memory with its own toxic
#              waste and never exports: no outside verifier exists for these proofs. cuzkd
#              self-checks every proof (pairing check against the key's verifying key) before
#              COMPLETED, and a failed check FAILS the job; the script checks COMPLETED and
#              the proof's 192 bytes;
#   mixed      (default) even jobs groth16, odd jobs synthetic.
# groth16 and mixed need the fixture generator $BIN/tests/cli/cuzk_cli_fixture (built with
# the tests, as scripts/run.sh does); without it the script falls back to synthetic.
#
#   usage: bash bench/soak.sh
#   env:   BIN               folder holding cuzk and cuzkd (default build)
#          WORK              work folder: socket, journal, keys, client files (default: a
#                            new temporary directory, removed at the end unless SOAK_KEEP=1
#                            or the soak failed)
#          OUT               logs: cuzkd.log (every life), soak.tsv (samples), summary.txt
#                            (default ./out/soak)
#          SOAK_JOBS         jobs in all (default 10000)
#          SOAK_CLIENTS      concurrent client loops (default 20)
#          SOAK_KILL_EVERY   kill -9 cuzkd every this many acknowledged jobs (default 1000;
#                            0 = never)
#          SOAK_KIND         groth16 | synthetic | mixed (default mixed)
#          SOAK_LOG2         synthetic jobs' domain, 2^N (default 4; 2..12 keeps a dev setup)
#          SOAK_SAMPLE_EVERY RSS/fd sample every this many acknowledged jobs (default 100)
#          SOAK_RSS_TOL_PCT  RSS tolerance, percent of life 1's maximum (default 50)
#          SOAK_RSS_TOL_MIB  RSS tolerance, at least this many MiB (default 12)
#          SOAK_FD_TOL       open-fd tolerance (default 8 + 4 x SOAK_CLIENTS: each client's
#                            connection is an fd while it is open, and its job in flight
#                            holds its input files open from submit to its end (up to 3:
#                            .params, .r1cs, .wtns; DESIGN.md 4b), so a sample taken while
#                            the clients' jobs queue differs from one taken between them by
#                            up to that; a leak of one fd a job still shows as ~1000 a life)
#          SOAK_TIMEOUT      give up (fail) after this many seconds (default 7200)
#          SOAK_RETRY_S      a client gives up a job after this many seconds of failing
#                            calls (default 180)
#          SOAK_THREADS      cuzkd's synthesis.threads (default 2)
#          SOAK_FAULT_EVERY  a file fault every this many acknowledged jobs (default 100;
#                            0 = none; needs the groth16 fixture), see "File faults" below
#          SOAK_SWAP         1 (default): at each kill -9, the journal's result records are
#                            swapped among the jobs before the restart (see below)
#
# File faults (issue 32): every SOAK_FAULT_EVERY acknowledged jobs a victim job is sent on its
# own copies of the fixture's files (.params, .r1cs, .wtns), and one of them is truncated to
# half, truncated to nothing, deleted, corrupted in the middle (written in place) or replaced
# by a corrupted copy (rename), before the submit, right after it or ~50 ms after it. The
# victim may be refused at submit, FAIL or COMPLETE; a COMPLETED victim's proof must verify
# against the fixture's .vk (a wrong proof served is counted, goal 0), and the daemon must
# never die of it (cuzkd deaths not by kill -9, goal 0). The regular jobs never see a fault.
# Journal records: at each kill -9 the <id>.done records in state_dir are rotated (each job's
# record replaced by another job's, Groth16 and synthetic jobs mixed), so a daemon that served
# a result not bound to its job would hand a Groth16 client a synthetic proof (INVALID).
# Exit 0 when every check passed, 1 otherwise; the summary table says which failed.
set -uo pipefail
export LC_ALL=C # sort and comm agree
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
BIN=${BIN:-build}
case $BIN in /*) ;; *) BIN=$ROOT/$BIN ;; esac
OUT=${OUT:-$ROOT/out/soak}
case $OUT in /*) ;; *) OUT=$ROOT/$OUT ;; esac
[ -d "$BIN/lib" ] && export LD_LIBRARY_PATH="$BIN/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
CUZK=$BIN/cuzk
CUZKD=$BIN/cuzkd
FIXTURE=$BIN/tests/cli/cuzk_cli_fixture
JOBS=${SOAK_JOBS:-10000}
CLIENTS=${SOAK_CLIENTS:-20}
KILL_EVERY=${SOAK_KILL_EVERY:-1000}
KIND=${SOAK_KIND:-mixed}
LOG2=${SOAK_LOG2:-4}
SAMPLE_EVERY=${SOAK_SAMPLE_EVERY:-100}
RSS_TOL_PCT=${SOAK_RSS_TOL_PCT:-50}
RSS_TOL_MIB=${SOAK_RSS_TOL_MIB:-12}
FD_TOL=${SOAK_FD_TOL:-$((8 + 4 * CLIENTS))}
TIMEOUT=${SOAK_TIMEOUT:-7200}
RETRY_S=${SOAK_RETRY_S:-180}
THREADS=${SOAK_THREADS:-2}
FAULT_EVERY=${SOAK_FAULT_EVERY:-100}
SWAP=${SOAK_SWAP:-1}
RUN=$(date +%s)-$$ # in every request id: a rerun on an old journal cannot meet its ids

log() { printf '==> %s\n' "$*" >&2; }
die() { echo "soak: $*" >&2; exit 2; }
[ -x "$CUZK" ] && [ -x "$CUZKD" ] || die "no $CUZK / $CUZKD (BIN=$BIN)"
case $KIND in groth16 | synthetic | mixed) ;; *) die "SOAK_KIND=$KIND: groth16|synthetic|mixed" ;; esac
if [ "$KIND" != synthetic ] && [ ! -x "$FIXTURE" ]; then
  log "no $FIXTURE (build the tests): SOAK_KIND=synthetic, proofs self-checked by cuzkd only"
  KIND=synthetic
fi
[ "$KIND" = synthetic ] && [ "$FAULT_EVERY" -gt 0 ] && {
  log "SOAK_KIND=synthetic: no file faults (they need the groth16 fixture's files)"
  FAULT_EVERY=0
}
[ "$LOG2" -le 12 ] || log "SOAK_LOG2=$LOG2 > 12: cuzkd makes random benchmark keys, proofs unverifiable"

if [ -z "${WORK:-}" ]; then
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/cuzk-soak.XXXXXX") || die "mktemp"
  WORK_MADE=1
else
  case $WORK in /*) ;; *) WORK=$ROOT/$WORK ;; esac
  rm -rf "$WORK/state" "$WORK/c" "$WORK/jmap" "$WORK/audit" "$WORK/starts" "$WORK/crashes" \
    "$WORK/cuzk.sock" "$WORK/v" "$WORK/swaps" "$WORK/swapped_ids"
  WORK_MADE=0
fi
mkdir -p "$WORK/c" "$WORK/fx" "$WORK/jmap" "$WORK/v" "$OUT" || die "cannot make $WORK, $OUT"
WORK=$(cd "$WORK" && pwd -P)
ADDR="unix://$WORK/cuzk.sock"
DLOG=$OUT/cuzkd.log
TSV=$OUT/soak.tsv
: >"$DLOG"
printf 'acked\tlife\tpid\trss_kib\tfds\tthreads\tjournal_files\n' >"$TSV"

# ---- the jobs ---------------------------------------------------------------------------
if [ "$KIND" != synthetic ]; then
  "$FIXTURE" "$WORK/fx" >"$WORK/fx/fixture.log" 2>&1 || die "fixture: $(cat "$WORK/fx/fixture.log")"
  "$CUZK" setup --r1cs "$WORK/fx/c.r1cs" --params "$WORK/fx/b.params" --vk "$WORK/fx/b.vk" \
    --threads 1 >"$WORK/fx/setup.log" 2>&1 || die "cuzk setup: $(tail -3 "$WORK/fx/setup.log")"
  "$CUZK" prove --params "$WORK/fx/b.params" --r1cs "$WORK/fx/c.r1cs" --wtns "$WORK/fx/w.wtns" \
    --out "$WORK/fx/local.bin" --public "$WORK/fx/pub.json" --threads 1 >/dev/null 2>&1 ||
    die "local prove of the fixture"
fi
job_args() { # job number -> its submit arguments (the same on every retry)
  local kind=$KIND
  [ "$kind" = mixed ] && { [ $(($1 % 2)) = 0 ] && kind=groth16 || kind=synthetic; }
  if [ "$kind" = groth16 ]; then
    echo "groth16 --params $WORK/fx/b.params --r1cs $WORK/fx/c.r1cs --wtns $WORK/fx/w.wtns"
  else
    echo "synthetic --synthetic $LOG2"
  fi
}

# ---- the daemon -------------------------------------------------------------------------
cat >"$WORK/cuzkd.toml" <<EOF
[daemon]
listen = "$ADDR"
state_dir = "$WORK/state"
[memory]
total_budget = "1GiB"
[gpus]
devices = ["cpu"]
gpu_workers_per_device = 1
[synthesis]
threads = $THREADS
workers = 1
[jobs]
# results leave memory and the journal soon (a collected one after 10 s; the journal is read
# every second, so no job escapes the audit), so that memory reaches its steady state within
# a life; an uncollected one (and every result reloaded at a restart: the journal does not
# record collection) after a minute, longer than a client takes to come back after a kill
result_ttl = "60s"
collected_ttl = "10s"
[srs]
param_cache = ""
EOF
DAEMON=
LIFE=0
started=0 # "cuzkd serving on" lines so far
start_daemon() {
  LIFE=$((LIFE + 1))
  echo "---- soak: life $LIFE ($(date -u +%FT%TZ)) ----" >>"$DLOG"
  "$CUZKD" --config "$WORK/cuzkd.toml" >>"$DLOG" 2>&1 &
  DAEMON=$!
  echo "$DAEMON" >"$WORK/daemon.pid"
  local t0 i n
  t0=$(date +%s.%N)
  for i in $(seq 1 600); do
    n=$(grep -c "cuzkd serving on" "$DLOG")
    [ "$n" -gt "$started" ] && {
      started=$n
      echo "$LIFE $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')" \
        >>"$WORK/starts"
      return 0
    }
    kill -0 "$DAEMON" 2>/dev/null || break
    sleep 0.1
  done
  echo "cuzkd did not start (life $LIFE):" >&2
  tail -20 "$DLOG" >&2
  return 1
}

sample() { # acked -> a row of soak.tsv
  local rss thr fds jf
  read -r rss thr < <(awk '/^VmRSS:/ { r = $2 } /^Threads:/ { t = $2 } END { print r, t }' \
    "/proc/$DAEMON/status" 2>/dev/null)
  fds=$(ls "/proc/$DAEMON/fd" 2>/dev/null | wc -l)
  jf=$(ls "$WORK/state" 2>/dev/null | wc -l)
  [ -n "$rss" ] && printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$LIFE" "$DAEMON" "$rss" "$fds" \
    "$thr" "$jf" >>"$TSV"
}

# The journal, read every second by one background loop (snap_loop): every <id>.req with
# its request id ("R <id> <rid>") and every <id>.done ("D <id>") that appears is appended
# to jmap/log after the time of the reading that first saw it, so a result file seen before
# a job was proved again shows that the journal lost an outcome it had written.
snapshot_once() {
  local ts
  {
    find "$WORK/state" -maxdepth 1 -name '*.req' -print0 2>/dev/null |
      xargs -0 -r grep -aoE "soak-$RUN-[0-9]+" 2>/dev/null |
      sed -E 's|^.*/([^/]*)\.req:|R \1 |'
    find "$WORK/state" -maxdepth 1 -name '*.done' -printf 'D %f\n' 2>/dev/null |
      sed 's/\.done$//'
  } | sort -u >"$WORK/jmap/cur"
  ts=$(date +%s.%N)
  comm -13 "$WORK/jmap/seen" "$WORK/jmap/cur" | sed "s/^/$ts /" >>"$WORK/jmap/log"
  mv "$WORK/jmap/cur" "$WORK/jmap/seen"
}
snap_loop() { # until jmap/stop exists, then one last reading
  : >"$WORK/jmap/seen"
  while :; do
    snapshot_once
    [ -e "$WORK/jmap/stop" ] && { snapshot_once; return; }
    sleep 1
  done
}

# ---- a client ---------------------------------------------------------------------------
# Jobs c, c + CLIENTS, ...: submit with request id soak-RUN-N until it prints an id (a
# failed submit is retried with the same id and request), then await until COMPLETED (a
# failed await is retried), then verify. Files in $WORK/c: acks.C ("rid id kind"),
# results.C ("rid id STATE VERDICT"), errors.C (every failed call's message).
client() {
  local c=$1 n rid id out args kind t0 rc st verdict
  local acks=$WORK/c/acks.$c res=$WORK/c/results.$c err=$WORK/c/errors.$c proof=$WORK/c/p.$c
  for ((n = c; n < JOBS; n += CLIENTS)); do
    rid=soak-$RUN-$n
    read -r kind args <<<"$(job_args "$n")"
    id=
    t0=$SECONDS
    while :; do
      # shellcheck disable=SC2086
      id=$("$CUZK" submit --addr "$ADDR" --timeout 60000 $args --request-id "$rid" \
        2>"$WORK/c/e.$c")
      rc=$?
      [ $rc = 0 ] && [[ $id =~ ^[0-9a-f-]{36}$ ]] && break
      echo "submit $rid rc $rc: $(head -c 300 "$WORK/c/e.$c")" >>"$err"
      case $(cat "$WORK/c/e.$c") in *INVALID_ARGUMENT* | *PERMISSION_DENIED*) break ;; esac
      [ $((SECONDS - t0)) -ge "$RETRY_S" ] && break
      sleep "0.$((RANDOM % 3 + 1))"
      id=
    done
    if ! [[ $id =~ ^[0-9a-f-]{36}$ ]]; then
      echo "$rid - NOT_ACKED -" >>"$res"
      continue
    fi
    echo "$rid $id $kind" >>"$acks"
    st=
    t0=$SECONDS
    while :; do
      rm -f "$proof"
      out=$("$CUZK" await "$id" --addr "$ADDR" --timeout 300000 --out "$proof" 2>&1)
      rc=$?
      case $out in
        *"job $id: COMPLETED"*) [ $rc = 0 ] && st=COMPLETED ;;
        *"job $id: FAILED"*) st=FAILED ;;
        *"job $id: CANCELLED"*) st=CANCELLED ;;
        *NOT_FOUND*) st=NOT_FOUND ;; # lost: the journal is read before cuzkd serves
      esac
      [ -n "$st" ] && break
      echo "await $rid $id rc $rc: $(head -c 300 <<<"$out")" >>"$err"
      [ $((SECONDS - t0)) -ge "$RETRY_S" ] && { st=GAVE_UP; break; }
      sleep "0.$((RANDOM % 3 + 1))"
    done
    verdict=-
    if [ "$st" = COMPLETED ]; then
      if [ "$(stat -c %s "$proof" 2>/dev/null)" != 192 ]; then
        verdict=BAD_SIZE
      elif [ "$kind" = groth16 ]; then
        if "$CUZK" verify --vk "$WORK/fx/b.vk" --public "$WORK/fx/pub.json" --proof "$proof" \
          --threads 1 >"$WORK/c/v.$c" 2>&1; then verdict=VERIFIED; else
          verdict=INVALID
          echo "verify $rid $id: $(head -c 300 "$WORK/c/v.$c" | tr '\n' ' ')" >>"$err"
          cp "$proof" "$WORK/c/invalid-$rid.bin" 2>/dev/null
        fi
      else
        verdict=SELF_CHECKED
      fi
    fi
    [ "$st" = COMPLETED ] || echo "await $rid $id: $st: $(head -c 300 <<<"$out")" >>"$err"
    echo "$rid $id $st $verdict" >>"$res"
  done
}

# ---- file faults ------------------------------------------------------------------------
# One victim: its own copies of the fixture's files, one of them damaged (kind k of the
# 5 x 3 x 3 faults: what, which file, when). Its line in v/results: "vN fault STATE VERDICT".
damage() { # how file
  local sz
  sz=$(stat -c %s "$2" 2>/dev/null || echo 0)
  case $1 in
    half) truncate -s $((sz / 2)) "$2" ;;
    zero) truncate -s 0 "$2" ;;
    delete) rm -f "$2" ;;
    corrupt) # 4 KiB of junk in place, in the middle (a point, a coefficient or a value)
      head -c 4096 /dev/urandom | dd of="$2" bs=1 seek=$((sz / 2)) conv=notrunc status=none ;;
    replace) # a corrupted copy renamed over it: the path names a new inode
      cp "$2" "$2.new" &&
        head -c 4096 /dev/urandom | dd of="$2.new" bs=1 seek=$((sz / 3)) conv=notrunc status=none &&
        mv -f "$2.new" "$2" ;;
  esac
}
victim() { # n
  local n=$1 d=$WORK/v/$1 hows=(half zero delete corrupt replace) files=(b.params c.r1cs w.wtns)
  local whens=(before after late) how file when rid id out rc st verdict
  how=${hows[$((n % 5))]}
  file=${files[$(((n / 5) % 3))]}
  when=${whens[$(((n / 15) % 3))]}
  mkdir -p "$d"
  cp "$WORK/fx/b.params" "$WORK/fx/c.r1cs" "$WORK/fx/w.wtns" "$d/"
  [ "$when" = before ] && damage "$how" "$d/$file"
  rid=soak-$RUN-v$n
  id=$("$CUZK" submit --addr "$ADDR" --timeout 60000 --params "$d/b.params" \
    --r1cs "$d/c.r1cs" --wtns "$d/w.wtns" --request-id "$rid" 2>"$d/submit.err")
  rc=$?
  case $when in after) damage "$how" "$d/$file" ;; late) (sleep 0.05; damage "$how" "$d/$file") & ;; esac
  wait
  st= verdict=-
  if [ $rc != 0 ] || ! [[ $id =~ ^[0-9a-f-]{36}$ ]]; then
    # refused at submit (a clear error) or the daemon was being killed: both end the victim
    st=REFUSED
  else
    echo "$id" >>"$WORK/v/ids" # its completion in the log is not an unacknowledged job's
    local t0=$SECONDS
    while :; do
      rm -f "$d/proof"
      out=$("$CUZK" await "$id" --addr "$ADDR" --timeout 300000 --out "$d/proof" 2>&1)
      case $out in
        *"job $id: COMPLETED"*) st=COMPLETED ;;
        *"job $id: FAILED"*) st=FAILED ;;
        *"job $id: CANCELLED"*) st=CANCELLED ;;
        *NOT_FOUND*) st=NOT_FOUND ;;
      esac
      [ -n "$st" ] && break
      [ $((SECONDS - t0)) -ge "$RETRY_S" ] && { st=GAVE_UP; break; }
      sleep 0.2
    done
    if [ "$st" = COMPLETED ]; then
      if "$CUZK" verify --vk "$WORK/fx/b.vk" --public "$WORK/fx/pub.json" --proof "$d/proof" \
        --threads 1 >/dev/null 2>&1; then verdict=VERIFIED; else verdict=INVALID; fi
    fi
  fi
  echo "v$n $how:$file:$when $st $verdict $(head -c 160 "$d/submit.err" | tr '\n' ' ')" >>"$WORK/v/results"
  [ "$st" = FAILED ] && echo "v$n $(head -c 300 <<<"$out" | tr '\n' ' ')" >>"$WORK/v/failures"
  rm -rf "$d"
}
fault_client() { # a victim every FAULT_EVERY acknowledged jobs (the rest once the clients end)
  local n=0
  while [ "$n" -lt $((JOBS / FAULT_EVERY)) ]; do
    if [ -e "$WORK/v/stop" ] || [ "$(acked)" -ge $(((n + 1) * FAULT_EVERY)) ]; then
      victim "$n"
      n=$((n + 1))
    else
      sleep 0.2
    fi
  done
}
# At a kill: every <id>.done record moves to the next job's name (a rotation), so each job
# with a record finds another job's there at the restart.
swap_records() {
  local f files=() i n tmp=$WORK/swap.tmp
  for f in "$WORK"/state/*.done; do [ -e "$f" ] && files+=("$f"); done
  n=${#files[@]}
  [ "$n" -ge 2 ] || return 0
  cp "${files[0]}" "$tmp"
  for ((i = 0; i < n - 1; i++)); do cp "${files[$((i + 1))]}" "${files[$i]}"; done
  cp "$tmp" "${files[$((n - 1))]}"
  rm -f "$tmp"
  echo "$n" >>"$WORK/swaps"
  for f in "${files[@]}"; do basename "$f" .done; done >>"$WORK/swapped_ids"
}

# ---- the run ------------------------------------------------------------------------------
acked() { cat "$WORK"/c/acks.* 2>/dev/null | wc -l; }
cleanup() {
  local p
  for p in ${CLIENT_PIDS:-} ${SNAP_PID:-} ${FAULT_PID:-}; do kill "$p" 2>/dev/null; done
  [ -n "$DAEMON" ] && kill -9 "$DAEMON" 2>/dev/null
}
trap cleanup EXIT
log "soak: $JOBS jobs ($KIND, synthetic 2^$LOG2), $CLIENTS clients, kill -9 every $KILL_EVERY," \
  "work $WORK, logs $OUT"
start_daemon || exit 1
snap_loop &
SNAP_PID=$!
T0=$(date +%s.%N)
CLIENT_PIDS=
for ((c = 0; c < CLIENTS; c++)); do
  client "$c" &
  CLIENT_PIDS="$CLIENT_PIDS $!"
done
FAULT_PID=
if [ "$FAULT_EVERY" -gt 0 ]; then
  fault_client &
  FAULT_PID=$!
fi

next_kill=$KILL_EVERY
next_sample=$SAMPLE_EVERY
kills=0
crashes=0
timed_out=0
while :; do
  alive=0
  for p in $CLIENT_PIDS; do kill -0 "$p" 2>/dev/null && { alive=1; break; }; done
  a=$(acked)
  if ! kill -0 "$DAEMON" 2>/dev/null; then # died, not by us
    crashes=$((crashes + 1))
    wait "$DAEMON" 2>/dev/null
    echo "life $LIFE: cuzkd (pid $DAEMON) died on its own, exit $?, at $a acked" >>"$WORK/crashes"
    log "cuzkd died on its own at $a acknowledged jobs; restarting"
    start_daemon || break
  fi
  if [ "$a" -ge "$next_sample" ]; then
    sample "$a"
    next_sample=$(((a / SAMPLE_EVERY + 1) * SAMPLE_EVERY))
  fi
  if [ "$KILL_EVERY" -gt 0 ] && [ "$a" -ge "$next_kill" ] && [ "$a" -lt "$JOBS" ]; then
    sample "$a"
    kill -9 "$DAEMON"
    wait "$DAEMON" 2>/dev/null
    [ "$SWAP" = 1 ] && swap_records
    kills=$((kills + 1))
    log "$(date -u +%T) kill -9 #$kills at $a acknowledged jobs (life $LIFE, pid $DAEMON)"
    start_daemon || break
    next_kill=$(((a / KILL_EVERY + 1) * KILL_EVERY))
  fi
  [ $alive = 0 ] && break
  if awk -v a="$T0" -v b="$(date +%s.%N)" -v t="$TIMEOUT" 'BEGIN { exit !(b - a > t) }'; then
    timed_out=1
    log "SOAK_TIMEOUT ($TIMEOUT s) reached: stopping the clients"
    for p in $CLIENT_PIDS; do kill "$p" 2>/dev/null; done
    break
  fi
  sleep 0.1
done
wait $CLIENT_PIDS 2>/dev/null
touch "$WORK/v/stop"
[ -n "$FAULT_PID" ] && wait "$FAULT_PID" 2>/dev/null
FAULT_PID=
T1=$(date +%s.%N)
CLIENT_PIDS=
sample "$(acked)"
touch "$WORK/jmap/stop"
wait "$SNAP_PID" 2>/dev/null
SNAP_PID=
stop_rc=NA
if kill -0 "$DAEMON" 2>/dev/null; then
  kill -TERM "$DAEMON"
  wait "$DAEMON"
  stop_rc=$?
fi
DAEMON=

# ---- the audit ----------------------------------------------------------------------------
A=$WORK/audit
mkdir -p "$A"
cat "$WORK"/c/acks.* 2>/dev/null | sort >"$A/acks"          # rid id kind
cat "$WORK"/c/results.* 2>/dev/null | sort >"$A/results"    # rid id STATE VERDICT
cat "$WORK"/c/errors.* 2>/dev/null >"$A/errors"
awk '$2 == "R" { print $3, $4 }' "$WORK/jmap/log" | sort -u >"$A/journal" # id rid
grep -oE 'job [0-9a-f-]{36} completed' "$DLOG" | awk '{ print $2 }' | sort >"$A/completed"
awk '{ print $2 }' "$A/acks" | sort >"$A/acked_ids"
awk '{ print $2 }' "$A/acks" | sort -u >"$A/acked_ids_u"

n_acked=$(wc -l <"$A/acks")
n_acked_rids=$(awk '{ print $1 }' "$A/acks" | sort -u | wc -l)
n_dup_ack_ids=$(uniq -d "$A/acked_ids" | wc -l)             # one id acknowledged for 2 rids
n_not_acked=$(grep -c ' NOT_ACKED ' "$A/results")
n_completed=$(awk '$3 == "COMPLETED"' "$A/results" | wc -l)
n_completed_rids=$(awk '$3 == "COMPLETED" { print $1 }' "$A/results" | sort -u | wc -l)
n_twice=$(awk '$3 == "COMPLETED" { print $1 }' "$A/results" | sort | uniq -d | wc -l)
n_failed=$(awk '$3 == "FAILED" || $3 == "CANCELLED"' "$A/results" | wc -l)
n_lost=$(awk '$3 == "NOT_FOUND"' "$A/results" | wc -l)
n_gave_up=$(awk '$3 == "GAVE_UP"' "$A/results" | wc -l)
n_verified=$(awk '$4 == "VERIFIED"' "$A/results" | wc -l)
n_self=$(awk '$4 == "SELF_CHECKED"' "$A/results" | wc -l)
n_invalid=$(awk '$3 == "COMPLETED" && $4 != "VERIFIED" && $4 != "SELF_CHECKED"' "$A/results" | wc -l)
# the daemon's side: jobs per request id in the journal; completed jobs nobody acknowledged
n_journal_jobs=$(awk '{ print $1 }' "$A/journal" | sort -u | wc -l)
n_dup_rid=$(awk '{ print $2 }' "$A/journal" | sort | uniq -d | wc -l)
n_journal_unacked=$(awk '{ print $1 }' "$A/journal" | sort -u | comm -23 - "$A/acked_ids_u" | wc -l)
n_journal_missing=$(awk '{ print $1 }' "$A/journal" | sort -u | comm -13 - "$A/acked_ids_u" | wc -l)
sort -u "$A/completed" >"$A/completed_u"
touch "$WORK/v/ids"
sort -u "$A/acked_ids_u" "$WORK/v/ids" >"$A/known_ids"
n_log_unacked=$(comm -23 "$A/completed_u" "$A/known_ids" | wc -l)
n_log_missing=$(comm -13 "$A/completed_u" "$A/acked_ids_u" | wc -l)
n_reproved=$(uniq -d "$A/completed" | wc -l)                # proved again after a kill
# ... which is right only when the kill came before the job's outcome was journaled: a job
# proved again after its <id>.done was seen lost that outcome (resurrected)
: >"$A/resurrected"
touch "$WORK/swapped_ids"
for id in $(uniq -d "$A/completed"); do
  # a job whose record was swapped at a kill must be proved again: that is the point
  grep -qx "$id" "$WORK/swapped_ids" && continue
  d=$(awk -v id="$id" '$2 == "D" && $3 == id { print $1; exit }' "$WORK/jmap/log")
  [ -n "$d" ] || continue
  grep -E "^[^ ]+ INFO  job $id completed" "$DLOG" | while read -r t _; do
    tc=$(date -d "$t" +%s.%N)
    awk -v a="$tc" -v b="$d" 'BEGIN { exit !(a > b) }' &&
      echo "$id: .done seen at $(date -u -d "@$d" +%T.%N | cut -c1-12), completed again at $t"
  done >>"$A/resurrected"
done
n_resurrected=$(wc -l <"$A/resurrected")
n_retry_new=$(grep -c 'proving it as job' "$DLOG")
n_resumed=$(grep -oE 'journal: resumed [0-9]+' "$DLOG" | awk '{ s += $3 } END { print s + 0 }')
n_again=$(grep -oE '[0-9]+ job\(s\) to prove again' "$DLOG" | awk '{ s += $1 } END { print s + 0 }')
touch "$WORK/v/results"
n_victims=$(wc -l <"$WORK/v/results")
n_v_expected=$((FAULT_EVERY > 0 ? JOBS / FAULT_EVERY : 0))
n_v_completed=$(awk '$3 == "COMPLETED"' "$WORK/v/results" | wc -l)
n_v_failed=$(awk '$3 == "FAILED"' "$WORK/v/results" | wc -l)
n_v_refused=$(awk '$3 == "REFUSED"' "$WORK/v/results" | wc -l)
n_v_wrong=$(awk '$3 == "COMPLETED" && $4 != "VERIFIED"' "$WORK/v/results" | wc -l)
n_v_lost=$(awk '$3 == "NOT_FOUND" || $3 == "GAVE_UP"' "$WORK/v/results" | wc -l)
n_swapped=$(awk '{ s += $1 } END { print s + 0 }' "$WORK/swaps" 2>/dev/null || echo 0)
n_err_lines=$(grep -c ' ERROR ' "$DLOG")
n_warn_lines=$(grep -c ' WARN ' "$DLOG")
n_submit_retries=$(grep -c '^submit ' "$A/errors")
n_await_retries=$(grep -c '^await .* rc ' "$A/errors")
secs=$(awk -v a="$T0" -v b="$T1" 'BEGIN { printf "%.0f", b - a }')
rate=$(awk -v n="$n_completed" -v a="$T0" -v b="$T1" 'BEGIN { printf "%.2f", n / (b - a) }')
start_max=$(awk '{ if ($2 > m) m = $2 } END { printf "%.2f", m }' "$WORK/starts")

# RSS and fds per life: first, last, max; the checks
awk -F'\t' -v rp="$RSS_TOL_PCT" -v rm="$RSS_TOL_MIB" -v ft="$FD_TOL" '
  NR == 1 { next }
  { l = $2; if (!(l in f)) { f[l] = $4; ff[l] = $5; fa[l] = $1; order[++n] = l }
    la[l] = $4; lf[l] = $5; laa[l] = $1
    if ($4 > mx[l]) mx[l] = $4; if ($5 > mf[l]) mf[l] = $5; if ($7 > mj[l]) mj[l] = $7
    th[l] = $6; cnt[l]++ }
  END {
    if (!n) { print "no samples"; exit 1 }
    b = order[1]; tol = mx[b] * rp / 100; if (tol < rm * 1024) tol = rm * 1024
    bad = 0
    printf "| life | jobs acked at samples | RSS MiB first / last / max | RSS KiB per 1000 jobs | fds first / last / max | threads | journal files max | verdict |\n"
    printf "|---:|---|---|---:|---|---:|---:|---|\n"
    for (i = 1; i <= n; i++) {
      l = order[i]; v = "flat"
      if (la[l] - f[l] > tol) { v = "RSS GROWS"; bad = 1 }
      if (mx[l] > mx[b] + tol) { v = "RSS ABOVE LIFE 1"; bad = 1 }
      if (lf[l] - ff[l] > ft || mf[l] > mf[b] + ft) { v = v " FDS GROW"; bad = 1 }
      slope = laa[l] > fa[l] ? (la[l] - f[l]) * 1000 / (laa[l] - fa[l]) : 0
      printf "| %d | %d..%d (%d) | %.1f / %.1f / %.1f | %+.0f | %d / %d / %d | %d | %d | %s |\n",
        l, fa[l], laa[l], cnt[l], f[l] / 1024, la[l] / 1024, mx[l] / 1024, slope, ff[l], lf[l],
        mf[l], th[l], mj[l], v
    }
    printf "tolerance: RSS +%.1f MiB (%d%% of life 1 max %.1f MiB, at least %d MiB), fds +%d\n",
      tol / 1024, rp, mx[b] / 1024, rm, ft
    exit bad
  }' "$TSV" >"$A/flat"
flat_rc=$?

fails=()
chk() { # name value expected (numbers; = or <=) -> a row
  local ok=ok
  case $3 in
    "<="*) [ "$2" -le "${3#<=}" ] || ok=FAIL ;;
    ">="*) [ "$2" -ge "${3#>=}" ] || ok=FAIL ;;
    *) [ "$2" = "$3" ] || ok=FAIL ;;
  esac
  [ $ok = FAIL ] && fails+=("$1")
  printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$ok"
}
{
  echo
  echo "## soak: $JOBS jobs ($KIND; synthetic 2^$LOG2), $CLIENTS clients, kill -9 every $KILL_EVERY"
  echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $secs s, $rate jobs/s completed;" \
    "$kills kills, $LIFE lives, slowest start ${start_max} s"
  echo
  echo "| check | value | expected | |"
  echo "|---|---:|---:|---|"
  chk "jobs acknowledged" "$n_acked" "$JOBS"
  chk "request ids acknowledged" "$n_acked_rids" "$n_acked"
  chk "job ids acknowledged for two request ids" "$n_dup_ack_ids" 0
  chk "jobs never acknowledged (client gave up)" "$n_not_acked" 0
  chk "acknowledged jobs COMPLETED" "$n_completed" "$n_acked"
  chk "request ids COMPLETED" "$n_completed_rids" "$n_acked"
  chk "request ids COMPLETED twice" "$n_twice" 0
  chk "FAILED or CANCELLED" "$n_failed" 0
  chk "lost (await: NOT_FOUND)" "$n_lost" 0
  chk "await gave up" "$n_gave_up" 0
  chk "proofs verified by cuzk verify (groth16)" "$n_verified" "$(awk '$3 == "groth16"' "$A/acks" | wc -l)"
  chk "proofs self-checked by cuzkd only (synthetic)" "$n_self" "$(awk '$3 == "synthetic"' "$A/acks" | wc -l)"
  chk "proofs invalid or not 192 bytes" "$n_invalid" 0
  chk "journal: jobs seen" "$n_journal_jobs" "$n_acked"
  chk "journal: request ids with two jobs" "$n_dup_rid" 0
  chk "journal: jobs nobody acknowledged" "$n_journal_unacked" 0
  chk "journal: acknowledged jobs never seen" "$n_journal_missing" 0
  chk "log: completed jobs nobody acknowledged" "$n_log_unacked" 0
  chk "log: acknowledged jobs never logged completed" "$n_log_missing" 0
  chk "log: request ids proved as a new job" "$n_retry_new" 0
  chk "log: jobs proved again after their outcome was journaled" "$n_resurrected" 0
  chk "file faults: victim jobs run" "$n_victims" "$n_v_expected"
  chk "file faults: wrong proofs served (COMPLETED, not verifying)" "$n_v_wrong" 0
  chk "file faults: victims lost (NOT_FOUND or no answer)" "$n_v_lost" 0
  chk "cuzkd deaths not by kill -9" "$crashes" 0
  chk "SIGTERM at the end: exit" "$stop_rc" 0
  chk "timed out" "$timed_out" 0
  chk "RSS and fds flat (table below)" "$flat_rc" 0
  echo
  echo "informational: $((n_reproved - n_resurrected)) job(s) proved again after a kill that" \
    "came before their outcome was journaled (right), $n_resumed resumed from the journal over $kills restarts ($n_again proved again);" \
    "client retries: $n_submit_retries submits, $n_await_retries awaits; cuzkd log:" \
    "$n_err_lines ERROR, $n_warn_lines WARN lines; file-fault victims: $n_v_completed completed" \
    "(verified), $n_v_failed failed, $n_v_refused refused at submit; $n_swapped journal result" \
    "records swapped at the kills"
  [ "$n_resurrected" = 0 ] || { echo; cat "$A/resurrected"; }
  echo
  cat "$A/flat"
} >"$OUT/summary.txt" # not a pipeline: chk adds to fails in this shell
cat "$OUT/summary.txt"
if [ ${#fails[@]} -gt 0 ]; then
  echo "FAILED: ${fails[*]} (work kept in $WORK; audit files in $A)"
  exit 1
fi
echo "PASSED"
[ "$WORK_MADE" = 1 ] && [ "${SOAK_KEEP:-0}" != 1 ] && rm -rf "$WORK"
exit 0
