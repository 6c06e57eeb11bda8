#!/usr/bin/env bash
# run_go_client.sh GO_DIR PROTO_ROOT CUZKD CUZK GO_INPUTS WORKDIR DEV_KEYS — the Go client
# test: generates the Go code of proto/cuzk/v1/proving.proto (protoc, protoc-gen-go,
# protoc-gen-go-grpc), builds main.go offline in GOPATH mode against Debian's grpc-go
# (/usr/share/gocode; GOPROXY=off, no network), makes 2 KiB inputs (cuzk gen-c1,
# cuzk_go_inputs), starts cuzkd on a unix socket and a TCP port with a shared token, runs
# the client (main.go says what it checks), then SIGTERM: exit 0, socket removed.
# The Go build cache is $CUZK_GO_CACHE (scripts/test.sh shares one between its stages),
# else WORKDIR/gocache. CUZK_GO_PROVE=1 proves the Filecoin kinds with the dev keys in
# DEV_KEYS (made there on first use: minutes on 2 cores).
# Exit 77 (skip) when Go or a package is missing, unless CUZK_REQUIRE_GO=1.
set -uo pipefail
src=$1 proto=$2 cuzkd=$3 cuzk=$4 inputs_tool=$5 work=$6 devkeys=$7

missing=
for t in go protoc protoc-gen-go protoc-gen-go-grpc; do
    command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
done
for d in google.golang.org/grpc google.golang.org/protobuf; do
    [ -d "/usr/share/gocode/src/$d" ] || missing="$missing /usr/share/gocode/src/$d"
done
# github.com/golang/protobuf 1.3 (what grpc-go's package may pull in) panics on the APIv2
# messages protoc-gen-go writes; 1.5 wraps APIv2
[ -e /usr/share/gocode/src/github.com/golang/protobuf/proto/table_unmarshal.go ] &&
    missing="$missing golang-github-golang-protobuf-1-5-dev(1-3-dev is installed)"
if [ -n "$missing" ]; then
    msg="Go or its gRPC packages missing:$missing (apt-get install golang-go golang-google-grpc-dev golang-google-protobuf-dev golang-github-golang-protobuf-1-5-dev protoc-gen-go protoc-gen-go-grpc protobuf-compiler)"
    if [ "${CUZK_REQUIRE_GO:-0}" = 1 ]; then echo "FAIL: $msg"; exit 1; fi
    echo "skipped: $msg"
    exit 77
fi

rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
pid=
cleanup() { [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f d.log ] && { echo "--- cuzkd log:"; tail -n 30 d.log; }; exit 1; }

# ---- generate and build, offline ----------------------------------------------------------
gp=$work/gopath
mkdir -p "$gp/src/cuzk.test/goclient" || exit 1
protoc -I "$proto" --go_out="$gp/src" --go_opt=Mcuzk/v1/proving.proto=cuzk.test/cuzkv1 \
    --go-grpc_out="$gp/src" --go-grpc_opt=Mcuzk/v1/proving.proto=cuzk.test/cuzkv1 \
    cuzk/v1/proving.proto || fail "protoc"
cp "$src/main.go" "$gp/src/cuzk.test/goclient/" || exit 1
t0=$SECONDS
GO111MODULE=off GOPATH="$gp:/usr/share/gocode" GOCACHE="${CUZK_GO_CACHE:-$work/gocache}" \
    GOPROXY=off GOFLAGS= CGO_ENABLED=0 go build -o goclient cuzk.test/goclient ||
    fail "go build"
echo "go build: $((SECONDS - t0)) s ($(go version))"

# ---- inputs --------------------------------------------------------------------------------
seed=$(( ${CUZK_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')} & 0xffffff ))
echo "go_client: seed $seed (CUZK_TEST_SEED replays)"
mkdir -p in/porep || exit 1
"$cuzk" gen-c1 --sector-size 2KiB --seed "$seed" --out in/porep/vanilla_proof.bin >/dev/null 2>&1 ||
    fail "gen-c1"
printf 'kind 1\nsector_size 2048\nsector_number 1\nminer_id 1000\n' > in/porep/fields
CUZK_TEST_SEED=$seed "$inputs_tool" in > inputs.log 2>&1 || fail "inputs: $(cat inputs.log)"

# ---- the daemon ----------------------------------------------------------------------------
token="go-client-token-$seed-0123456789"
prove=false
keydir=""
if [ "${CUZK_GO_PROVE:-0}" = 1 ]; then
    prove=true
    keydir=$devkeys
    mkdir -p "$keydir"
fi
cat > d.toml <<CONF
[daemon]
listen = "unix://$work/cuzk.sock,127.0.0.1:0"
state_dir = "$work/state"
auth_token = "$token"
[memory]
total_budget = "4GiB"
[gpus]
devices = ["cpu"]
[synthesis]
threads = 2
workers = 1
[srs]
param_cache = ""
dev_key_dir = "$keydir"
CONF
chmod 600 d.toml
"$cuzkd" --config d.toml > d.log 2>&1 &
pid=$!
for _ in $(seq 300); do
    grep -q "gRPC listener [0-9]*: TCP port" d.log 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
grep -q "cuzkd serving on" d.log || fail "cuzkd did not start"
port=$(sed -n 's/.*gRPC listener [0-9]*: TCP port \([0-9]*\).*/\1/p' d.log | head -n1)
[ -n "$port" ] || fail "no TCP port logged"

# ---- the client ----------------------------------------------------------------------------
rc=0
./goclient -addr "unix://$work/cuzk.sock" -tcp "127.0.0.1:$port" -token "$token" \
    -inputs "$work/in" -prove="$prove" || rc=1
grep -q "refused /cuzk.v1.ProvingEngine/GetStatus from tcp 127.0.0.1:.*UNAUTHENTICATED" d.log ||
    { echo "FAIL: the refused TCP call was not logged"; rc=1; }
grep -q "$token" d.log && { echo "FAIL: the token is in the log"; rc=1; }
kill -TERM "$pid"
wait "$pid" || { echo "FAIL: cuzkd exited with an error after SIGTERM"; rc=1; }
pid=
[ -e cuzk.sock ] && { echo "FAIL: socket file left behind"; rc=1; }
[ "$rc" = 0 ] || { echo "--- cuzkd log (tail)"; tail -n 30 d.log; }
exit "$rc"
