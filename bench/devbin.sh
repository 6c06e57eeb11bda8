#!/usr/bin/env bash
# devbin.sh — packs prebuilt binaries for the GPU machine, which has CUDA and a compiler
# but none of cuzkd's Debian libraries: DEST gets cuzk, cuzkd, the GPU tests named in
# DEVBIN_TESTS, and DEST/lib the shared libraries they need beyond the C runtime
# (jansson, nghttp2, protobuf-c, microhttpd and what it links, libcudart), so that
#   LD_LIBRARY_PATH=DEST/lib DEST/cuzkd ...   (bench/e2e.sh does it with BIN=DEST)
# runs there. Build first with -DCMAKE_CUDA_ARCHITECTURES=90 (Release).
#   usage: bash bench/devbin.sh [BUILD [DEST]]   (default build .devbin; DEST is ignored by git)
#   env:   DEVBIN_TESTS  GPU test binaries to include (default: test_gpu_fixed_base if built)
#          DEVBIN_TAR=1  also DEST.tar.xz (unpack on the GPU machine with tar -xJf)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=${1:-build}
DEST=${2:-.devbin}
mkdir -p "$DEST/lib" "$DEST/tests/gpu"
strip -o "$DEST/cuzk" "$BUILD/cuzk"
strip -o "$DEST/cuzkd" "$BUILD/cuzkd"
for t in ${DEVBIN_TESTS:-test_gpu_fixed_base}; do
  [ -x "$BUILD/tests/gpu/$t" ] && strip -o "$DEST/tests/gpu/$t" "$BUILD/tests/gpu/$t"
done
# every resolved library except glibc's own and the C++ runtime (the GPU machine has them)
ldd "$DEST/cuzk" "$DEST/cuzkd" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u |
  while read -r lib; do
    case $(basename "$lib") in
      libc.so* | libm.so* | libdl.so* | libpthread.so* | librt.so* | libstdc++* | libgcc_s*) ;;
      *) cp -L "$lib" "$DEST/lib/" ;;
    esac
  done
du -sh "$DEST" "$DEST/lib"
# the device tool carries at most 64 MiB: the fat binaries compress about 3:1
if [ "${DEVBIN_TAR:-0}" = 1 ]; then
  tar -cJf "$DEST.tar.xz" "$DEST"
  du -sh "$DEST.tar.xz"
fi
