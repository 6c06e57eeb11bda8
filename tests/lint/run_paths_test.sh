#!/usr/bin/env bash
# run_paths_test.sh REPO — scripts/run.sh takes BUILD_DIR relative to the repository root or
# absolute (`BUILD_DIR=/abs/path bash scripts/run.sh` looked for <repo>//abs/path/cuzk):
#   - scripts/lib.sh's root_path keeps an absolute path and puts a relative one under the
#     repository root;
#   - run.sh resolves BUILD_DIR through it once and never joins the root to it again.
set -u
repo=$1
fail() { echo "FAIL: $*"; exit 1; }
# shellcheck source=/dev/null
. "$repo/scripts/lib.sh" || fail "cannot source scripts/lib.sh"
root=$(cd "$repo" && pwd)
[ "$(type -t root_path)" = function ] || fail "scripts/lib.sh has no root_path"
[ "$(root_path /abs/path)" = /abs/path ] || fail "root_path /abs/path = $(root_path /abs/path)"
[ "$(root_path build)" = "$root/build" ] || fail "root_path build = $(root_path build)"
[ "$(root_path a/b)" = "$root/a/b" ] || fail "root_path a/b = $(root_path a/b)"
grep -q 'build=$(root_path "${BUILD_DIR:-build}")' "$repo/scripts/run.sh" ||
    fail "run.sh does not resolve BUILD_DIR with root_path"
if grep -n 'CUZK_ROOT/$build\|CUZK_ROOT/${build' "$repo/scripts/run.sh"; then
    fail "run.sh joins the repository root to the (absolute) build directory"
fi
echo "run_paths: all passed"
