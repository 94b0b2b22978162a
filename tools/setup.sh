#!/bin/sh
# setup.sh — install wavecc's dependencies (Debian 12 packages), build it,
# and run an example. Run as root or with sudo available. python3-torch is
# optional for wavecc (CPU torch tensors from Python); installed so that
# tests/python/torch_example.py runs rather than skips.
#   tools/setup.sh            install, build, run the example
#   tools/setup.sh --deps     install only
set -eu
cd "$(dirname "$0")/.."

PKGS="build-essential pkg-config libjansson-dev libelf-dev libmsgpack-dev check \
llvm-19 clang-19 lld-19 libclang-rt-19-dev libamdhip64-dev python3 python3-numpy python3-sympy llvm-22 clang-22 lld-22 \
python3-torch"

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $PKGS

[ "${1:-}" = "--deps" ] && exit 0

make -j"$(nproc)"
sh tools/example.sh
