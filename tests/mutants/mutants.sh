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

# Outside mutants (issue 27: written without reading the tests first), one
# per area; those no suite caught got the test their row names.
mutant dt_bf16_ties_away util/dtype.c \
	's/u \+= 0x7fff \+ \(\(u >> 16\) & 1\);/u += 0x8000;/' \
	util/util "f32_to_bf16 at a tie: to even"
mutant dt_f16_subnormal_ties_away util/dtype.c \
	's/if \(rem > mid \|\| \(rem == mid && \(half & 1\)\)\)/if (rem >= mid)/' \
	util/util "f32 to a subnormal f16 at a tie: to even"
mutant dt_f8_ties_odd util/dtype.c \
	's/\(above == below && !\(\(lo \+ 1\) & 1\)\)/(above == below && ((lo + 1) & 1))/' \
	util/util "f8_conversions: every midpoint between two codes goes to the even one"
mutant dt_f4_nibble_swapped util/dtype.c \
	's/\[i \/ 2\] >> \(4 \* \(i % 2\)\)\) & 0xf\)/[i \/ 2] >> (4 * (1 - i % 2))) & 0xf)/' \
	util/util "f4e2m1fn codes packed low nibble first"
mutant dt_e8m0_ties_up util/dtype.c \
	's/if \(f > 0\.75 \|\| \(f == 0\.75/if (f >= 0.75 || (f == 0.75/' \
	util/util "e8m0 of 1.5 * 2^e goes to the even code"
mutant emu_vopc_inactive_lanes loader/emu/valu.c \
	's/res &= act & cx->wmask;/res &= cx->wmask;/' \
	loader/emu/semantics "cmp_partial_exec: a compare gives 0 for the lanes EXEC disables"
mutant emu_mad_i64_unsigned loader/emu/valu.c \
	's/case I_V_MAD_I64_I32: DD\[l\] = \(uint64_t\)\(\(int64_t\)\(int32_t\)a\[l\] \* \(int32_t\)b\[l\]\)/case I_V_MAD_I64_I32: DD[l] = (uint64_t)((uint64_t)a[l] * b[l])/' \
	loader/emu/semantics "mad_i64_i32_hi: both factors sign-extended"
mutant emu_rpi_half_even loader/emu/valu.c \
	's/cvt_i32\(floor\(\(double\)F\(a\[l\]\) \+ 0\.5\)\)/cvt_i32(nearbyint((double)F(a[l])))/' \
	loader/emu/semantics "cvt_rpi_i32_f32: 2.5 gives 3"
mutant emu_pk_ashr_logical loader/emu/valu.c \
	's/PK\(\(uint32_t\)\(\(int16_t\)x1 >> \(x0 & 15\)\), \(uint32_t\)\(\(int16_t\)y1 >> \(y0 & 15\)\)\)/PK(x1 >> (x0 & 15), y1 >> (y0 & 15))/' \
	validate/ints "v_pk_ashrrev_i16 shifts in the sign"
mutant emu_ds_cmpst_swapped loader/emu/vmem.c \
	's/if \(old == vreg\(w, vd0\)\[l\]\)\n(\t+)st32\(base, vreg\(w, vd1\)\[l\]\);/if (old == vreg(w, vd1)[l])\n$1st32(base, vreg(w, vd0)[l]);/' \
	loader/emu/regress "ds_cmpst: data0 is the compare value"
mutant emu_ds_read2_stride loader/emu/vmem.c \
	's/unsigned stride = es \* n \* \(st64 \? 64 : 1\);/unsigned stride = es * (st64 ? 64 : 1);/' \
	loader/emu/semantics "ds_read2_b64: offsets in 8-byte units"
mutant emu_atomic_smin_unsigned loader/emu/vmem.c \
	's/return \(int32_t\)v < \(int32_t\)old \? v : old;/return v < old ? v : old;/' \
	loader/emu/semantics "ds_min_i32 compares as signed"
mutant emu_saveexec_no_and loader/emu/salu.c \
	's/case I_S_AND_SAVEEXEC_B64: d64 = w->exec, w->exec = a64 & w->exec,/case I_S_AND_SAVEEXEC_B64: d64 = w->exec, w->exec = a64,/' \
	loader/emu/semantics "and_saveexec_exec: EXEC = S0 & EXEC"
mutant isel_mfma_ab_swapped isel/mma.c \
	's/MOpnd u\[3\] = \{A\[m\], B\[n\], started/MOpnd u[3] = {B[n], A[m], started/' \
	isel/isel_file "the MFMA's A and B operands in order"


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
