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
	's/t->bytes\[0\] = layout_box\(t, 0, row_pad_bytes\(c, op, t\) \/ t->es\);/t->bytes[0] = layout_box(t, 0, t->swz.row_bytes ? row_pad_bytes(c, op, t) \/ t->es : 0);/' \
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


mutant isel_red_mirror isel/reduce.c \
	's/\[4\] = 0x141, \[8\] = 0x140/[4] = 0x140, [8] = 0x140/' \
	isel/isel_file "the butterfly's stride-4 stage is row_half_mirror (golden isel checks)"
mutant isel_bf16_round_bit isel/elt.c \
	's/u3\[3\] = \{x, mo_imm\(16\), mo_imm\(1\)\}/u3[3] = {x, mo_imm(15), mo_imm(1)}/' \
	driver/fixed_vectors "cast_bf16: the tie rounds on bit 16"
mutant isel_load_halves_swapped isel/memory.c \
	's/MOpnd u\[3\] = \{hi_reg\[i\], v->d\[i\], sel\};/MOpnd u[3] = {v->d[i], hi_reg[i], sel};/' \
	isel/isel_file "two ushort loads joined low half first (golden isel checks)"
mutant ra_interference_first_dword regalloc/linear.c \
	's/for \(int d = 0; d < size && ok; d\+\+\)\n(\t+)ok = busy/for (int d = 0; d < 1 && ok; d++)\n$1ok = busy/' \
	passes/machine/mir_file "a tuple's every dword checked for a free register"
mutant ra_check_mfma_overlap regalloc/check.c \
	's/if \(overlap && !\(u == 2 && same\)\)/if (overlap && u != 2)/' \
	regalloc/regalloc "checker_catches_mfma_overlap: an MFMA result over its own A or B"
mutant wc_barrier_lds_off_by_one passes/machine/waitcnt.c \
	's/if \(in->op == I_S_BARRIER && s->ds_mem >= 0\)/if (in->op == I_S_BARRIER && s->ds_mem > 0)/' \
	passes/machine/waitcnt "barrier_waits_for_lds: the LDS op just before the barrier waited for"
mutant wcc_lenient_lgkm passes/machine/waitcnt_check.c \
	's/\(q == Q_DS && in->lgkmcnt >= 0 && o\.after >= in->lgkmcnt\)/(q == Q_DS && in->lgkmcnt >= 0 && o.after + 1 >= in->lgkmcnt)/' \
	passes/machine/waitcnt "the checker flags an lgkmcnt one too weak"
mutant hz_xdl_srcab_short passes/machine/hazard_rules.c \
	's/g942 && !is_xdl\(t, p\) \? np \+ 2 : np \+ 3 \+ xdl_950\(t, p\);\n(\t+)\/\* 942: XDL NP\+3/g942 && !is_xdl(t, p) ? np + 2 : np + 2 + xdl_950(t, p);\n$1\/* 942: XDL NP+3/' \
	passes/machine/hazards "MFMA D -> MFMA SrcA wait states on gfx942"
mutant isel_i16_zero_extended isel/cast_int.c \
	's/bool sign = a->dtype == DT_I8 \|\| a->dtype == DT_I16;/bool sign = a->dtype == DT_I8;/' \
	driver/elt_ops "an i16 element sign-extended before its cast"
mutant sched_barrier_no_lds passes/machine/sched.c \
	's/lds = global = store = true;/global = store = true;/' \
	driver/run "LDS reads kept after the barrier that orders them"
mutant dce_set_symbol_dead passes/graph/dce.c \
	's/op_stores\(op->kind\) \|\| op->kind == OP_SET_SYMBOL \|\|/op_stores(op->kind) ||/' \
	driver/set_extent "set_symbol is a root of liveness"
mutant dce_cond_output passes/graph/dce.c \
	's/case OP_CONDITIONAL:\n(\t+)if \(body_output\(op\)\)\n(\t+)op_live\(l, body_output\(op\)\);\n/case OP_CONDITIONAL:\n/' \
	isel/isel_file "a conditional's yielded values are live"
mutant interp_round_half_even interp/tensor.c \
	's/case IT_ROUND: return round\(a\);/case IT_ROUND: return nearbyint(a);/' \
	driver/elt_ops "round: halves go away from zero"
mutant interp_int_floordiv_trunc interp/tensor.c \
	's/return b == 0 \? 0 : floor\(a \/ b\);/return b == 0 ? 0 : trunc(a \/ b);/' \
	driver/elt_ops "integer // floors negative quotients"
mutant sym_mod_symbolic_inclusive ir/sym/sym_simp.c \
	's/sym_rat_cmp\(bx\.hi, bm\.lo\) < 0\)/sym_rat_cmp(bx.hi, bm.lo) <= 0)/' \
	ir/sym/sym_random "Mod(x, m) is x only for x < m"
mutant sym_max_diff_lo ir/sym/sym_simp.c \
	's/int r = is_max \? \(d\.has_hi \? sym_rat_cmp\(d\.hi, rat_i\(0\)\) : 1\)/int r = is_max ? (d.has_lo ? sym_rat_cmp(d.lo, rat_i(0)) : 1)/' \
	ir/sym/sym_random "Max's dominance by the upper bound of the difference"
mutant ra_agpr_copy_write regalloc/spill.c \
	's/return from == RF_VGPR \? I_V_ACCVGPR_WRITE_B32 : I_V_ACCVGPR_MOV_B32;/return I_V_ACCVGPR_WRITE_B32;/' \
	regalloc/spill_forward "a forwarded AGPR reload into an AGPR is v_accvgpr_mov_b32"
mutant isel_store_byte_shift isel/memory.c \
	's/u\[2\] = \{mo_imm\(8 \* part\), isel_vgpr\(s, x\)\}/u[2] = {mo_imm(8), isel_vgpr(s, x)}/' \
	driver/exact_outputs "i8_transposed_write: bytes 1-3 of a dword stored to their own rows"
mutant licm_multi_def passes/machine/licm.c \
	's/ \|\| ndefs\[in->def\[0\]\.reg\] != 1\)/)/' \
	passes/machine/licm "redefined_constant_stays: a vreg defined twice is not hoisted"
mutant isel_atomic_umin_signed isel/atomic.c \
	's/return t == DT_I32 \? I_BUFFER_ATOMIC_SMIN : I_BUFFER_ATOMIC_UMIN;/return I_BUFFER_ATOMIC_SMIN;/' \
	driver/exact_outputs "u32_atomic_min: buffer_atomic_umin for u32, values past 2^31"
mutant fe_mma_two_k frontend/load_mma.c \
	's/if \(nk != 1\) \{/if (nk < 1) {/' \
	frontend/frontend "err_mma_two_reduction_dims: two shared reduction dims rejected by the count"


mutant idx_wave_id_32 passes/graph/indices.c \
	's/sym_floor\(x->sc, sym_div\(x->sc, tsym\(c, \"\$T\", 0\), num\(x, 64\)\)\)/sym_floor(x->sc, sym_div(x->sc, tsym(c, \"\$T\", 0), num(x, 32)))/' \
	passes/graph/indices "the wave id along workgroup dim 0: lane id over 64"
mutant fe_iter_arg_scope_swapped frontend/load_graph.c \
	's/if \(e->kind == E_PARAM && !ld_list_encloses\(e->list, n->list\)\)/if (e->kind == E_PARAM \&\& !ld_list_encloses(n->list, e->list))/' \
	frontend/frontend "an iter arg used after its loop is rejected"
mutant interp_cumsum_exclusive interp/scan.c \
	's/acc = it_round\(x->dtype, acc \+ x->v\[at\]\);\n(\t+)y->v\[at\] = acc;/y->v[at] = acc;\n$1acc = it_round(x->dtype, acc + x->v[at]);/' \
	interp/control "cumsum is inclusive"
mutant isel_udiv_magic_off_by_one isel/expr.c \
	's/\/ \(uint64_t\)d\) \+ 1\);/\/ (uint64_t)d));/' \
	driver/fixed_vectors "index arithmetic dividing by a constant that is no power of two (its magic reciprocal)"
mutant coalesce_fold_across_exec regalloc/coalesce.c \
	's/if \(touches\(&bl->insts\.data\[j\], d\) \|\| may_write_exec\(&bl->insts\.data\[j\]\)\)/if (touches(\&bl->insts.data[j], d))/' \
	regalloc/coalesce "a copy is not folded into a def across an EXEC write"


mutant cse_saveexec_not_exec passes/machine/cse.c \
	's/if \(\(isa_info\[in->op\]\.flags & IF_CMPX\) \|\| strstr\(isa_info\[in->op\]\.name, "exec"\)\)/if (isa_info[in->op].flags \& IF_CMPX)/' \
	passes/machine/mir_file "cse_kept.mir: nothing is shared across s_and_saveexec (EXEC changes)"

mutant idx_acc32_row_stride passes/graph/indices.c \
	's/sym_floor\(sc, sym_div\(sc, J, num\(x, 4\)\)\), num\(x, 8\)\)/sym_floor(sc, sym_div(sc, J, num(x, 4))), num(x, 4))/' \
	isel/isel_file "a 32x32 accumulator's register g holds row 8*floor(g/4) + ... (golden isel checks)"
mutant emu_d16_keeps_wrong_half loader/emu/vmem.c \
	's/return \(old & 0xffff0000u\) \| \(v & 0xffff\);/return (old \& 0xffffu) | (v \& 0xffff);/' \
	loader/emu/d16 "a d16 load keeps the high half of its register"


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
