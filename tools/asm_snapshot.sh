#!/bin/sh
# asm_snapshot.sh DIR — the assembly wavecc emits for every example and
# every kernel of tests/driver/data at its own symbols (gfx942, gfx90a and
# gfx950; a rejection's message is its file) and every Wave transcription case
# (tests/driver/wave_test.c's tables, with WAVECC_WAVE_ASM_DIR), one file
# each under DIR, so that a change's effect on generated code is a diff:
#   tools/asm_snapshot.sh /tmp/before; (change); tools/asm_snapshot.sh /tmp/after
#   diff -r /tmp/before /tmp/after
# Needs a built tree (make, and build/tests/driver/wave.test). BUILD=dir
# picks another build folder; WAVECC=path another wavecc to snapshot (an
# older build, say) with this tree's case list. The first line of each
# file names the case; run-only options (--atol, --seed, scalar arguments'
# -D) are left out of the compile.
set -eu
cd "$(dirname "$0")/.."
out=${1:?usage: tools/asm_snapshot.sh DIR}
BUILD=${BUILD:-build}
bin=${WAVECC:-$PWD/$BUILD/wavecc}
mkdir -p "$out"
out=$(cd "$out" && pwd)
for f in examples/*.json tests/driver/data/*.json; do
	case $f in examples/*) kind=example ;; *) kind=data ;; esac
	for t in gfx942 gfx90a gfx950; do
		n=$(basename "$f" .json)
		{ echo "// $f --mcpu $t"; "$bin" compile "$f" --mcpu "$t" -S -o - 2>&1 || true; } > "$out/$kind-$n-$t.s"
	done
done
WAVECC_WAVE_ASM_DIR="$out" WAVECC_BIN="$bin" WAVECC_ROOT="$PWD" WAVECC_BUILD="$PWD/$BUILD" \
	WAVECC_WAVE_JOBS=${WAVECC_WAVE_JOBS:-$(nproc)} CK_VERBOSITY=silent "$BUILD/tests/driver/wave.test" > /dev/null
echo "$(ls "$out" | wc -l) files in $out"
