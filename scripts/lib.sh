# lib.sh — helpers sourced by scripts/run.sh and scripts/test.sh: logging, paths under the
# repository root, Debian package installation (only what is missing), locating nvcc. Not
# meant to be run directly.

CUZK_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CUZK_JOBS=${CUZK_JOBS:-$(nproc 2>/dev/null || echo 2)}

log() { printf '\n==> %s\n' "$*"; }

# root_path P — P as an absolute path: as is when it is one (BUILD_DIR=/abs/path), else
# relative to the repository root (BUILD_DIR=build).
root_path() {
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$CUZK_ROOT" "$1" ;;
  esac
}

# Runs a command as root: directly when we are root (CI), through sudo otherwise.
as_root() {
  if [ "$(id -u)" = 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    echo "need root (or sudo) to run: $*" >&2
    return 1
  fi
}

# Installs the Debian packages that are not installed yet; a machine that already has them
# all needs no network and no root.
install_pkgs() {
  local missing=() p
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "not a Debian system: make sure these are installed: $*" >&2
    return 0
  fi
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "apt-get install ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" </dev/null
}

# The CUDA toolkit often lives outside PATH; CMake's check_language(CUDA) looks in PATH.
find_nvcc() {
  command -v nvcc >/dev/null 2>&1 && return 0
  local d
  for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do
    if [ -x "$d/nvcc" ]; then
      export PATH="$d:$PATH"
      return 0
    fi
  done
  return 0  # no toolkit: CMake builds without CUDA
}
