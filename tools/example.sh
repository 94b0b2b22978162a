#!/bin/sh
# example.sh — the README's example run: the main job on a shipped example.
set -eu
cd "$(dirname "$0")/.."
echo "== wavecc sym: simplify Wave GEMM index expressions (examples/sym/)"
./wavecc sym --assume examples/sym/gemm.assume < examples/sym/gemm.txt
echo
echo "== wavecc run: compile examples/copy.json (111x813 f16 copy), run it on the emulator, check it against the interpreter"
./wavecc run examples/copy.json
