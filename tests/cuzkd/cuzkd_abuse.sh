#!/usr/bin/env bash
# cuzkd_abuse.sh CUZKD ABUSE WORKDIR — garbage on the socket and clients that vanish
# mid-call, against the real daemon (tests/cuzkd/cuzkd_abuse.c drives it): cuzkd starts
# on a temporary unix socket on the CPU; after the abuse it must still serve (a following
# job completes), hold no more open descriptors than before (the abandoned calls'
# connections are closed: counted in /proc/PID/fd), and stop on SIGTERM with exit 0 — in
# the ASan stage an exit 0 also means LeakSanitizer found nothing.
set -u
cuzkd=$1 abuse=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
work=$(pwd -P)
pid=
fail() {
    echo "FAIL: $*"
    [ -f d.log ] && { echo "--- cuzkd log:"; tail -n 40 d.log; }
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
    exit 1
}
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null' EXIT
addr="unix://$work/cuzk.sock"
cat > d.toml <<CONF
[daemon]
listen = "$addr"
state_dir = ""
[memory]
total_budget = "2GiB"
[gpus]
devices = ["cpu"]
[synthesis]
threads = 2
workers = 1
CONF
"$cuzkd" --config d.toml > d.log 2>&1 &
pid=$!
for _ in $(seq 1 300); do
    grep -q "cuzkd serving on" d.log && break
    kill -0 "$pid" 2>/dev/null || fail "cuzkd exited at start"
    sleep 0.1
done
grep -q "cuzkd serving on" d.log || fail "cuzkd did not start"
fds() { ls "/proc/$pid/fd" | wc -l; }
fd0=$(fds)
"$abuse" "$addr" || fail "cuzkd_abuse failed"
kill -0 "$pid" 2>/dev/null || fail "cuzkd died"
# the server notices closed connections within its wait slices
for _ in $(seq 1 100); do [ "$(fds)" -le "$fd0" ] && break; sleep 0.1; done
[ "$(fds)" -le "$fd0" ] || fail "cuzkd holds $(fds) descriptors, $fd0 before the abuse: $(ls -l /proc/$pid/fd)"
kill -TERM "$pid"
wait "$pid"; rc=$?
pid=
[ $rc -eq 0 ] || fail "exit $rc after SIGTERM"
grep -q "cuzkd stopped" d.log || fail "no clean stop"
echo "cuzkd_abuse: all passed (descriptors $fd0 before and after)"
