#!/bin/sh
# example.sh — the README's example run: the main job on a shipped example.
set -eu
cd "$(dirname "$0")/.."
echo "== wavecc sym: simplify Wave GEMM index expressions (examples/sym/)"
./wavecc sym --assume examples/sym/gemm.assume < examples/sym/gemm.txt
