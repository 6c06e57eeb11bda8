# lib.sh — sourced by the tests/cuzkd/*.sh scripts (not run on its own): the fresh work
# directory, failure with the daemon log's tail, the daemon killed on any exit, cuzkd started
# and waited for, stopped with SIGTERM, the skip without a gRPC client, the printed seed and
# the CLI client on the test's socket.
#
# The script sets cuzkd (and cuzk, for the client helpers) before calling these; they keep
# the daemon's pid in $pid, the work directory in $work (physical path) and the socket
# address in $addr = unix://$work/cuzk.sock. The daemon's config is d.toml and its log d.log
# in the work directory; $log names another log for fail to show.

pid=
log=d.log
extra_pids= # background helpers (samplers) to end with the daemon

cuzkd_cleanup() {
    local p
    for p in $extra_pids; do kill "$p" 2>/dev/null; done
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
}
trap cuzkd_cleanup EXIT

fail() {
    echo "FAIL: $*"
    [ -f "$log" ] && { echo "--- cuzkd log:"; tail -n 40 "$log"; }
    cuzkd_cleanup
    exit 1
}

# cuzkd_workdir DIR — an empty DIR, made the current directory; sets work and addr.
cuzkd_workdir() {
    rm -rf "$1" && mkdir -p "$1" && cd "$1" || exit 1
    work=$(pwd -P)
    addr="unix://$work/cuzk.sock"
}

# cuzkd_wait TEXT TRIES [N0] — waits TRIES x 0.1 s until $log holds TEXT more than N0
# times (default 0); fails as soon as the daemon ($pid) has exited.
cuzkd_logged() { local n; n=$(grep -c "$1" "$log" 2>/dev/null); [ "${n:-0}" -gt "$2" ]; }
cuzkd_wait() {
    local n0=${3:-0}
    for _ in $(seq 1 "$2"); do
        cuzkd_logged "$1" "$n0" && return 0
        kill -0 "$pid" 2>/dev/null || fail "cuzkd exited at start"
        sleep 0.1
    done
    cuzkd_logged "$1" "$n0" || fail "cuzkd did not start"
}

# cuzkd_start [N0] — starts cuzkd on d.toml (its output appended to d.log, so a restart
# keeps the earlier runs') and waits up to 30 s for its N0+1-th "cuzkd serving on".
cuzkd_start() {
    "$cuzkd" --config d.toml >> d.log 2>&1 &
    pid=$!
    cuzkd_wait "cuzkd serving on" 300 "${1:-0}"
}

# cuzkd_stop [WHAT] — SIGTERM; fails unless cuzkd exits 0.
cuzkd_stop() {
    kill -TERM "$pid"
    wait "$pid"; local rc=$?
    pid=
    [ $rc -eq 0 ] || fail "exit $rc after SIGTERM${1:+ ($1)}"
}

# Exit 77 (skip) when this build's `cuzk` has no gRPC client.
cuzkd_need_client() {
    local out
    out=$("$cuzk" status --addr "unix://$work/none.sock" 2>&1)
    case "$out" in *"no gRPC client"*) echo "skipped: this build has no gRPC client"; exit 77;; esac
}

# cuzkd_seed NAME [TAIL] — seed: CUZK_TEST_SEED or fresh (24 bits), printed (TAIL appended).
cuzkd_seed() {
    seed=$(( ${CUZK_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')} & 0xffffff ))
    echo "$1: seed $seed (CUZK_TEST_SEED replays)${2-}"
}

C() { "$cuzk" "$1" --addr "$addr" "${@:2}"; }
submit() { C submit "$@" 2>/dev/null || fail "submit $*"; }
