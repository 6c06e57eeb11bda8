#!/usr/bin/env bash
# cuzkd_test.sh CUZKD WORKDIR [CUZK] — configuration errors name file:line and exit 2; the
# example config (--print-config) is accepted as is; SIGTERM stops the daemon with exit 0.
# The default address is Curio's, unix:///run/curio/cuzk.sock, for cuzkd and (given CUZK,
# in a build with the client) for the cuzk client alike; a socket whose directory is missing
# gets it made; one whose directory cannot be made stops cuzkd (exit 1) with a message
# saying what to do (builds with the gRPC server).
set -u
cuzkd=$1
cuzk=${3:-}
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cuzkd_workdir "$2"
log=run.log

expect_error() { # file-content expected-message
    printf '%b' "$1" > c.toml
    out=$("$cuzkd" --check-config --config c.toml 2>&1); rc=$?
    [ $rc -eq 2 ] || fail "exit $rc for: $1 ($out)"
    case "$out" in *"$2"*) ;; *) fail "message for: $1: got '$out', want '$2'";; esac
}
expect_error '[gpus]\nbogus = 3\n' 'c.toml:2: unknown key bogus in [gpus]'
expect_error '\n\n[nope]\nx = 1\n' 'c.toml:4: unknown section [nope]'
expect_error 'x = 1\n' 'c.toml:1: unknown key x at the top level'
expect_error '[memory]\nsafety_margin = -1\n' 'c.toml:2: memory.safety_margin: expected a size'
expect_error '[memory]\ntotal_budget = "lots"\n' 'c.toml:2: memory.total_budget: expected "auto" or a size'
expect_error '[synthesis]\nworkers = 0\n' 'c.toml:2: synthesis.workers: 0 is out of bounds [1, 256]'
expect_error '[gpus]\ndevices = "gpu:0"\n' 'c.toml:2: gpus.devices: expected an array of strings'
expect_error '[logging]\nlevel = "loud"\n' 'c.toml:2: logging.level: expected'
expect_error '[jobs]\nresult_ttl = "soon"\n' 'c.toml:2: jobs.result_ttl: expected a duration'
expect_error '[daemon]\nlisten = "a"\nlisten = "b"\n' 'c.toml:3: key listen given twice'
expect_error '[daemon]\nsocket_mode = 660\n' 'c.toml:2: daemon.socket_mode: expected octal permission bits'
expect_error '[daemon]\nsocket_mode = "0999"\n' 'c.toml:2: daemon.socket_mode: expected octal'
expect_error '[daemon]\nauth_token = "short"\n' 'c.toml:2: daemon.auth_token: expected "" or 16 to 256'
expect_error '[daemon]\nauth_token = "has a space in it, sixteen+"\n' 'c.toml:2: daemon.auth_token: expected'
printf '[daemon]\nauth_token = "do-not-print-me-0123456789"\n' > c.toml
out=$("$cuzkd" --check-config --config c.toml 2>&1) || fail "auth_token rejected: $out"
case "$out" in *do-not-print-me*) fail "the token was printed: $out";; esac
case "$out" in *'config daemon.auth_token = (set, not shown)'*) ;; *) fail "token dump: $out";; esac
printf '[daemon]\nsocket_group = "no-such-group-cuzk"\n' > c.toml
out=$("$cuzkd" --check-config --config c.toml 2>&1); rc=$?
case "$rc:$out" in 2:*"no group 'no-such-group-cuzk'"*|0:*) ;; *) fail "unknown socket_group: $rc $out";; esac
out=$("$cuzkd" --check-config --config missing.toml 2>&1); [ $? -eq 2 ] || fail "missing file: $out"
out=$("$cuzkd" --bogus 2>&1); [ $? -eq 2 ] || fail "unknown option accepted"

"$cuzkd" --print-config > example.toml || fail "print-config"
out=$("$cuzkd" --check-config --config example.toml 2>&1) || fail "example rejected: $out"
case "$out" in *'config memory.total_budget = "auto"'*) ;; *) fail "dump: $out";; esac
printf '[memory]\ntotal_budget = "2GiB"\n[gpus]\ndevices = ["cpu", "cpu"]\n[jobs]\nresult_ttl = "2h"\n' > ok.toml
out=$("$cuzkd" --check-config --config ok.toml --log-level debug 2>&1) || fail "ok.toml: $out"
case "$out" in *'config gpus.devices = "cpu,cpu"'*) ;; *) fail "devices: $out";; esac
case "$out" in *'config jobs.result_ttl = 7200'*) ;; *) fail "ttl: $out";; esac
case "$out" in *'config logging.level = "debug"'*) ;; *) fail "override: $out";; esac

# one default address for both ends
default='unix:///run/curio/cuzk.sock'
grep -qx "listen = \"$default\"" example.toml ||
    fail "cuzkd's default: $(grep '^listen' example.toml)"
if [ -n "$cuzk" ]; then
    out=$("$cuzk" help submit 2>&1)
    case "$out" in
        *"not in this build"*) ;;
        *"else $default)"*) ;;
        *) fail "the client's default is not cuzkd's ($default): $out";;
    esac
fi

# start on the CPU with a journal in the work dir, then SIGTERM
printf '[daemon]\nstate_dir = "%s/state"\nlisten = "unix://%s/cuzk.sock,127.0.0.1:0"\n[memory]\ntotal_budget = "1GiB"\n' "$work" "$work" > run.toml
# (the engine's line, not the server's: this build may have no gRPC server); under umask 0
# the socket is still 0660, not 0777
(umask 0; exec "$cuzkd" --config run.toml --devices cpu) > run.log 2>&1 &
pid=$!
cuzkd_wait "engine up" 100
if grep -q "cuzkd serving on" run.log || { sleep 1; grep -q "cuzkd serving on" run.log; }; then
    mode=$(stat -c %a cuzk.sock) || fail "no socket"
    [ "$mode" = 660 ] || fail "socket mode $mode under umask 0, expected 660"
    grep -q "WARN  gRPC on TCP 127.0.0.1:0 without a token: anyone" run.log ||
        fail "no warning for a TCP listener without a token"
fi
cuzkd_stop
grep -q "cuzkd stopped" run.log || fail "no clean stop"
[ -d state ] || fail "journal directory not created"

# the socket's directory: made when missing; when it cannot be, a clear stop
if ! grep -q "no gRPC server" run.log; then
    log=sock.log
    "$cuzkd" --config run.toml --devices cpu --listen "unix://$work/run/curio/cuzk.sock" \
        > sock.log 2>&1 &
    pid=$!
    cuzkd_wait "cuzkd serving on" 100
    [ -S run/curio/cuzk.sock ] || fail "no socket in the directory cuzkd was to make"
    cuzkd_stop "socket directory"
    touch afile
    out=$("$cuzkd" --config run.toml --devices cpu --listen "unix://$work/afile/x/cuzk.sock" 2>&1)
    rc=$?
    [ $rc -eq 1 ] || fail "exit $rc for a socket directory that cannot be made: $out"
    case "$out" in *"cannot make $work/afile/x, the directory of the socket"*"--listen"*) ;;
        *) fail "socket directory message: $out";; esac
fi
echo "cuzkd_test: all passed"
