#!/usr/bin/env bash
# cuzkd_abuse.sh CUZKD ABUSE WORKDIR — garbage on the socket and clients that vanish
# mid-call, against the real daemon (tests/cuzkd/cuzkd_abuse.c drives it): cuzkd starts
# on a temporary unix socket on the CPU; after the abuse it must still serve (a following
# job completes), hold no more open descriptors than before (the abandoned calls'
# connections are closed: counted in /proc/PID/fd), and stop on SIGTERM with exit 0 — in
# the ASan stage an exit 0 also means LeakSanitizer found nothing.
set -u
cuzkd=$1 abuse=$2
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cuzkd_workdir "$3"
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
cuzkd_start
fds() { ls "/proc/$pid/fd" | wc -l; }
fd0=$(fds)
"$abuse" "$addr" || fail "cuzkd_abuse failed"
kill -0 "$pid" 2>/dev/null || fail "cuzkd died"
# the server notices closed connections within its wait slices
for _ in $(seq 1 100); do [ "$(fds)" -le "$fd0" ] && break; sleep 0.1; done
[ "$(fds)" -le "$fd0" ] || fail "cuzkd holds $(fds) descriptors, $fd0 before the abuse: $(ls -l /proc/$pid/fd)"
cuzkd_stop
grep -q "cuzkd stopped" d.log || fail "no clean stop"
echo "cuzkd_abuse: all passed (descriptors $fd0 before and after)"
