#!/usr/bin/env bash
# cuzkd_state.sh CUZKD CUZK WORKDIR — one daemon per state directory, and a stop that does
# not wait for a dev key being made, through the real daemon (CPU) and the CLI client:
#   - a second cuzkd on the first one's state_dir (on another socket, then on the same one)
#     exits 1 naming the first one's pid, and changes nothing: the journal's files, an
#     in-flight temporary of the first daemon and the lock file keep their bytes, the first
#     one's socket stays, and the first daemon goes on serving (a new job completes); after
#     a clean stop the state directory takes a new daemon;
#   - cancelling the only job that wants the 2 KiB PoRep dev key while it is being made
#     stops the setup (logged; no key made, no file left);
#   - SIGTERM while the 512 MiB PoRep circuit is being recorded: cuzkd exits 0, the load
#     is logged cancelled and the circuit never recorded;
#   - SIGTERM while the 2 KiB PoRep dev key is being made (a dev_key_dir that did not exist,
#     made at start with mode 0700): cuzkd exits 0 without finishing the setup (the log says
#     the load was cancelled, no key was made), no key file or temporary is left in the key
#     directory, and the socket stays while the engine stops: whenever the socket is found
#     gone, the log already says the engine had stopped (cuzkd logs that before removing it).
# The stop is waited for up to 120 s (a setup left to finish takes minutes on 2 cores; the
# bound only keeps a broken build from hanging the test).
# Exit 77 (skip) when the build has no gRPC client, or when CUZK_POREP_PROVE is set but not 1
# (the second part records the 2 KiB PoRep circuit: a few seconds to a minute).
set -u
cuzkd=$1 cuzk=$2
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cuzkd_workdir "$3"
cuzkd_need_client
cuzkd_seed cuzkd_state
cat > d.toml <<EOF
[daemon]
listen = "$addr"
state_dir = "$work/state"
[memory]
total_budget = "2GiB"
[gpus]
devices = ["cpu"]
gpu_workers_per_device = 1
EOF
cuzkd_start 0
[ "$(cat state/cuzkd.lock)" = "$pid" ] || fail "the lock file holds '$(cat state/cuzkd.lock)', not $pid"
j=$(submit --synthetic 8 --seed "$seed")
out=$(C await "$j" 2>&1) || fail "await: $out"
# a temporary of a journal write in flight, as the running daemon would have it
tmpf=state/0f0e0d0c-0b0a-4909-8807-060504030201.req.tmp
printf 'half a request' > "$tmpf"
snapshot() { (cd state && find . -type f -printf '%P %s\n' | sort && md5sum -- * | sort); }
before=$(snapshot)
[ -n "$before" ] || fail "empty state directory"

second() { # LISTEN: a second daemon on the same state_dir must refuse and change nothing
    local out rc
    out=$("$cuzkd" --config d.toml --listen "$1" 2>&1); rc=$?
    [ $rc -eq 1 ] || fail "a second cuzkd on the same state_dir (listen $1) exited $rc: $out"
    case "$out" in *"another cuzkd (pid $pid) is running on state_dir $work/state"*) ;;
        *) fail "the second cuzkd's message: $out";; esac
    case "$out" in *"engine up"*|*"journal"*) fail "the second cuzkd went on: $out";; esac
    [ "$(snapshot)" = "$before" ] || fail "the second cuzkd (listen $1) changed the state \
directory: before: $before; after: $(snapshot)"
    [ -S cuzk.sock ] || fail "the first daemon's socket is gone after a second start ($1)"
    kill -0 "$pid" 2>/dev/null || fail "the first daemon died"
}
second "unix://$work/other.sock"
[ -e other.sock ] && fail "the second cuzkd made its socket"
second "$addr"
out=$(C status 2>&1) || fail "status after the second starts: $out"
j=$(submit --synthetic 8 --seed "$((seed + 1))")
out=$(C await "$j" 2>&1) || fail "a job after the second starts: $out"
[ -f "$tmpf" ] || fail "the in-flight temporary was removed"
cuzkd_stop "first daemon"
cuzkd_start 1 # the lock went with the process
[ "$(cat state/cuzkd.lock)" = "$pid" ] || fail "the lock file does not hold the new pid"
cuzkd_stop "restarted daemon"

# ---- SIGTERM while the dev key is being made ------------------------------------------------
if [ -n "${CUZK_POREP_PROVE:-}" ] && [ "$CUZK_POREP_PROVE" != 1 ]; then
    echo "cuzkd_state: the two-daemon part passed; SIGTERM during setup skipped" \
         "(CUZK_POREP_PROVE=$CUZK_POREP_PROVE)"
    exit 0
fi
"$cuzk" gen-c1 --sector-size 2KiB --seed "$seed" --out c1.json || fail "gen-c1"
cat > d.toml <<EOF
[daemon]
listen = "$addr"
state_dir = "$work/kstate"
[srs]
dev_key_dir = "$work/keys/new"
param_cache = ""
[gpus]
devices = ["cpu"]
gpu_workers_per_device = 1
EOF
cuzkd_start 2
[ "$(stat -c %a keys/new 2>/dev/null)" = 700 ] ||
    fail "dev_key_dir not made at start with mode 700: $(stat -c %a keys/new 2>&1)"
porep_setup() { # submits the C1 and waits until its key's setup is in its point multiplications
    local n0
    # (earlier setups, the synthetic jobs' included, logged their own lines)
    n0=$(grep -c "setup: A, B, C at tau" d.log)
    id=$("$cuzk" submit --addr "$addr" --kind porep --vanilla "$work/c1.json" 2>/dev/null) ||
        fail "submit"
    cuzkd_wait "setup: A, B, C at tau" 6000 "$n0" # the bulk of the setup follows
}
# cancelling the only job that wants the key stops its setup (no key, no file)
porep_setup
out=$(C cancel "$id" 2>&1) || fail "cancel: $out"
cuzkd_wait "srs: cannot load porep-2k: .*cancelled" 1200
grep -q "srs: porep-2k: no job wants it any more: its load stops" d.log ||
    fail "the setup was not stopped by the cancel"
grep -q "dev key .* made" d.log && fail "the dev key was made for a cancelled job"
left=$(ls -A keys/new | grep -v '^porep-2k\.csr')
[ -z "$left" ] || fail "files left in the key directory after the cancel: $left"
n0=$(grep -c "srs: cannot load porep-2k" d.log)
# SIGTERM during the next job's setup
porep_setup
kill -TERM "$pid"
t0=$SECONDS
while kill -0 "$pid" 2>/dev/null; do
    if [ ! -S cuzk.sock ] && ! grep -q "engine stopped; closing the listeners" d.log; then
        fail "the socket was removed while the engine was still stopping"
    fi
    [ $((SECONDS - t0)) -le 120 ] ||
        fail "cuzkd still running 120 s after SIGTERM (during the dev setup)"
    sleep 0.05
done
wait "$pid"; rc=$?
pid=
[ $rc -eq 0 ] || fail "exit $rc after SIGTERM during the dev setup"
[ "$(grep -c "srs: cannot load porep-2k: .*cancelled" d.log)" -gt "$n0" ] ||
    fail "the key load was not cancelled by SIGTERM"
grep -q "dev key .* made" d.log && fail "the dev key was made after SIGTERM"
left=$(ls -A keys/new | grep -v '^porep-2k\.csr')  # the circuit's cache (and its mark) stays
[ -z "$left" ] || fail "files left in the key directory: $left"
[ -e cuzk.sock ] && fail "the socket was not removed at exit"

# ---- SIGTERM while a circuit is being recorded -------------------------------------------
# The 512 MiB PoRep circuit takes seconds to record here (no cache yet): the stop ends the
# recording at its next segment, so the log never says it was recorded.
"$cuzk" gen-c1 --sector-size 512MiB --seed "$seed" --out c1-512m.json || fail "gen-c1 512MiB"
n0=$(grep -c "cuzkd serving on" d.log)
cuzkd_start "$n0"
n0=$(grep -c "srs: cannot load porep-512m" d.log)
"$cuzk" submit --addr "$addr" --kind porep --vanilla "$work/c1-512m.json" >/dev/null 2>&1 ||
    fail "submit 512MiB"
cuzkd_wait "srs: porep-512m: recording its circuit" 3000
kill -TERM "$pid"
t0=$SECONDS
while kill -0 "$pid" 2>/dev/null; do
    [ $((SECONDS - t0)) -le 120 ] ||
        fail "cuzkd still running 120 s after SIGTERM (during the recording)"
    sleep 0.05
done
wait "$pid"; rc=$?
pid=
[ $rc -eq 0 ] || fail "exit $rc after SIGTERM during the recording"
[ "$(grep -c "srs: cannot load porep-512m: .*cancelled" d.log)" -gt "$n0" ] ||
    fail "the recording was not cancelled by SIGTERM"
grep -q "porep-512m circuit recorded" d.log && fail "the circuit was recorded after SIGTERM"
echo "cuzkd_state: stopped $((SECONDS - t0)) s after SIGTERM during the recording"
echo "cuzkd_state: all passed"
