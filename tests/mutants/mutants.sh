#!/bin/bash
# mutants.sh — the deliberate compiler bugs of issue 27, each applied to a
# copy of the tree and expected to fail at least one end-to-end test.
#
# A passing `wavecc run K.json` compares the emulator with the interpreter,
# so a bug in code both share (util/dtype.c's conversions, ir/sym's floor)
# or one that leaves results right but the kernel slow (LDS padding, the
# swizzle) passes it; the suites named here are the ones that must catch
# each bug. For every mutant the script copies the tracked files and the
# build folder (so only the mutated file recompiles) to a scratch folder,
# applies the edit (a perl substitution that must change the file), builds
# the command and the suite, runs the suite, and expects it to fail. It
# prints one line per mutant: "caught by SUITE" or "MISSED"; it exits 1 if
# one is missed or its edit no longer applies (the code moved: update the
# pattern).
#
# Usage: tests/mutants/mutants.sh [NAME...] or make check-mutants [MUTANTS=...] (default: all; from the tree's
# root, after `make`; a minute or a few per mutant on two cores)
#   MUTANTS_KEEP=1 keeps the scratch folder.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
[ -x build/wavecc ] || { echo "mutants.sh: build first (make)"; exit 2; }

# mutant NAME FILE PERL-SUBSTITUTION SUITE WHY: one row each (SUITE is
# tests/SUITE_test.c, which must fail with the edit)
names=() files=() substs=() suites=() whys=()
mutant() { names+=("$1"); files+=("$2"); substs+=("$3"); suites+=("$4"); whys+=("$5"); }
mutant store_bound_off_by_one isel/memory.c \
	's/sym_rel\(sc, SYM_LT, co, size_s\[i\]\)/sym_rel(sc, op->kind == OP_WRITE ? SYM_LE : SYM_LT, co, size_s[i])/' \
	driver/run "example_passes: a store one element past a row, under reversed workgroups and the canary"
mutant no_padding_when_unswizzled passes/plan/lds_tiles.c \
	's/t->bytes\[0\] = layout_box\(t, 0, ROW_PAD_BYTES \/ t->es\);/t->bytes[0] = layout_box(t, 0, t->swz.row_bytes ? ROW_PAD_BYTES \/ t->es : 0);/' \
	driver/lds_swizzle "padding_on_tiles_that_cannot_be_swizzled: GQA decode's k staged unpadded"
mutant swizzle_key_zero passes/plan/lds_layout.c \
	's/Sym \*key = sym_mod\(sc, sym_floordiv\(sc, row, sym_int\(sc, z->lines\)\), sym_int\(sc, z->keys\)\);/Sym *key = sym_int(sc, 0);/' \
	driver/lds_swizzle "swizzled_reads_conflict_free: unpadded rows read on one bank pair"
mutant f16_ties_away util/dtype.c \
	's/if \(rem > 0x1000 \|\| \(rem == 0x1000 && \(half & 1\)\)\)/if (rem >= 0x1000)/' \
	driver/fixed_vectors "cast_f16: 1 + 2^-11 must give 0x3c00"
mutant floor_truncates ir/sym/sym_rat.c \
	's/(int64_t sym_rat_floor\(SymRat a\)\n\{\n\tint64_t f = a.p \/ a.q;\n)\tif \(a.p % a.q != 0 && a.p < 0\)\n\t\tf--;\n/$1/' \
	driver/fixed_vectors "sym_index: floor((j - 37) / 4) over negative j - 37"

want=("$@")
scratch=$(mktemp -d "${TMPDIR:-/tmp}/wavecc-mutants.XXXXXX")
[ -n "${MUTANTS_KEEP:-}" ] || trap 'rm -rf "$scratch"' EXIT
missed=0
for ((k = 0; k < ${#names[@]}; k++)); do
	name=${names[k]} file=${files[k]} subst=${substs[k]} suite=${suites[k]} why=${whys[k]}
	if [ ${#want[@]} -gt 0 ] && [[ ! " ${want[*]} " == *" $name "* ]]; then
		continue
	fi
	tree="$scratch/$name"
	mkdir -p "$tree"
	git ls-files -z | xargs -0 cp -p --parents -t "$tree"
	cp -a build "$tree/build"
	if ! perl -0pi -e "$subst" "$tree/$file" || cmp -s "$file" "$tree/$file"; then
		echo "mutant $name: the edit no longer applies to $file (update tests/mutants/mutants.sh)"
		missed=1
		continue
	fi
	if ! make -C "$tree" -j2 all "build/tests/$suite.test" >"$tree/build.log" 2>&1; then
		echo "mutant $name: the mutated tree does not build (see $tree/build.log)"
		missed=1
		continue
	fi
	(cd "$tree" && WAVECC_BIN="$tree/build/wavecc" WAVECC_ROOT="$tree" WAVECC_BUILD="$tree/build" \
		"build/tests/$suite.test") >"$tree/test.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "mutant $name ($file): caught by $suite ($(grep -c ':F:\|:E:' "$tree/test.log") failing cases; $why)"
	else
		echo "mutant $name ($file): MISSED by $suite ($why)"
		missed=1
	fi
	[ -n "${MUTANTS_KEEP:-}" ] || rm -rf "$tree"
done
exit $missed
