/* reject_test.c — configurations the compiler cannot make correct are
 * rejected with a located error (file:line:col, the constraint or op, what
 * is unsupported), exit 1 and no output file; never a wrong kernel, an
 * overflow, an internal abort or a long loop (issue 9, "Bad input").
 *
 * Each case is an in-range or extreme edit of an example (or of a kernel in
 * tests/driver/data/) by -D, checked
 * with `wavecc compile` (the sanitizer build runs the same cases under
 * `make check-asan`, where an overflow aborts). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../test.h"

static CmdResult wavecc(const char *args)
{
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s", test_root(), test_bin(), args);
	return run_cmd(cmd, NULL);
}

typedef struct Reject {
	const char *args; /* example file and -D edits */
	const char *where; /* "examples/F.json:LINE:COL: error: " */
	const char *what; /* the rest of the message, or a distinctive part */
} Reject;

#define P63 "9223372036854775807"

static const Reject rejects[] = {
	/* grid = ceil(size / tile) near 2^63 (overflowed), and grids the
	 * dispatch cannot have */
	{"examples/copy.json -D M=" P63, "examples/copy.json:22:5: error: ",
		"constraints[1]: M = " P63 " in tiles of 1 gives " P63 " workgroups along grid dim 1: at most 65535"},
	{"examples/copy.json -D N=" P63, "examples/copy.json:28:5: error: ",
		"workgroups along grid dim 0: at most 67108863 are supported"},
	{"examples/copy.json -D BLOCK_N=" P63, "examples/copy.json:68:5: error: ",
		"graph[0]: N is covered by 2251799813685248 copies of 64 element(s) per thread: one value of more than 4096"},
	/* a tile expression that overflows is not a missing -D */
	{"examples/reduce_block.json -D ELEMS_PER_WAVE=" P63, "examples/reduce_block.json:29:5: error: ",
		"constraints[2]: the workgroup tile (BLOCK_N) cannot be evaluated: integer overflows 64 bits"},
	/* loop trip counts past the 32-bit counter (overflowed near 2^63) */
	{"examples/gemm_global.json -D K=" P63, "examples/gemm_global.json:28:5: error: ",
		"constraints[2]: tiling K = " P63 " by BLOCK_K = 32 gives 288230376151711744 loop trips"},
	/* waves x 64 in an int: a workgroup tile of 2^31 and 2^32 (wrapped
	 * to 0: a division by zero, a launch descriptor of workgroup_size 0) */
	{"examples/reduce_block.json -D BLOCK_N=2147483648", "examples/reduce_block.json:40:5: error: ",
		"constraints[4]: workgroup tile 2147483648 over wave tile 256 gives 8388608 waves along N"},
	{"examples/reduce_block.json -D BLOCK_N=4294967296", "examples/reduce_block.json:40:5: error: ",
		"a workgroup has at most 1024 work-items"},
	{"examples/reduce_block.json -D ELEMS_PER_WAVE=64 -D BLOCK_N=1088", "examples/reduce_block.json:40:5: error: ",
		"gives 17 waves along N (workgroup dim 0, 64 work-items each): a workgroup has at most 1024"},
	/* a reduced dim's vector shape wider than the wave's window: the
	 * lanes folded the next wave's elements */
	{"tests/driver/data/softmax_waves.json -D VS=256", "tests/driver/data/softmax_waves.json:70:5: error: ",
		"graph[0]: the reduced dim N is covered in 1 copies of 256 elements per wave, but the wave's window of N "
		"is 128 long and not the only one"},
	/* an in-place kernel whose lanes run past a workgroup tile of 16: the
	 * next workgroup read what was already incremented */
	{"tests/driver/data/add_inplace.json -D BLOCK_N=16", "tests/driver/data/add_inplace.json:94:5: error: ",
		"graph[3]: a is also read, and each wave writes 64 elements along N where its window is 16: lanes past "
		"the window would write elements another wave or workgroup reads (a race)"},
	/* a loop's iters set inside the loop itself: the bound is one value per
	 * workgroup, set in the kernel body (set_loop_bound_test.c) */
	{"tests/driver/data/set_loop_bound_in_loop.json", "tests/driver/data/set_loop_bound_in_loop.json:124:9: error: ",
		"graph[5].body[0]: set_symbol of TRIPS, which a tiling constraint's iters or start uses, inside 'loop': a "
		"loop bound is set only in the kernel body"},
	{"tests/driver/data/softmax_big_workgroup.json", "tests/driver/data/softmax_big_workgroup.json:13:5: error: ",
		"constraints[0]: workgroup of 1024 x 1 x 2 = 2048 work-items: at most 1024 are supported"},
	{"examples/copy.json -D BLOCK_N=4294967296", "examples/copy.json:68:5: error: ",
		"graph[0]: N is covered by 1048576 copies of 64 element(s) per thread: one value of more than 4096"},
	/* expansion copies: more than a lane's registers, reported before isel
	 * sizes tables by them (heap overflow at 2^36, 32 s at 2^24) */
	{"examples/gemm_global_32x32x8.json -D BLOCK_N=68719476736", "examples/gemm_global_32x32x8.json:87:5: error: ",
		"graph[0]: N is covered by 1073741824 copies of 1 element(s) per thread: one value of more than 4096"},
	/* the limit is a lane's 512 registers, not an element count: 1024 f32
	 * accumulators a lane are over it (packed f4 operands of 1024 are not:
	 * Wave's MXFP4 256x48 wave tiles, wave/README.md) */
	{"examples/gemm_global_32x32x8.json -D BLOCK_N=4096", "examples/gemm_global_32x32x8.json:87:5: error: ",
		"graph[0]: one value of 1024 f32 elements per thread takes 1024 registers: more than the 512"},
	{"examples/gemm_global_32x32x8.json -D BLOCK_N=16777216", "examples/gemm_global_32x32x8.json:87:5: error: ",
		"graph[0]: N is covered by 262144 copies"},
	{"examples/gemm_global.json -D BLOCK_M=4294967296", "examples/gemm_global.json:87:5: error: ",
		"graph[0]: M is covered by 134217728 copies of 4 element(s) per thread"},
	{"examples/gemm_global.json -D BLOCK_K=" P63, "examples/gemm_global.json:108:9: error: ",
		"graph[1].body[0]: K is covered by 576460752303423488 copies"},
	{"examples/reduce_block.json -D BLOCK_M=" P63, "examples/reduce_block.json:78:5: error: ",
		"graph[0]: M is covered by " P63 " copies"},
	/* a reduction's partial results (one per window) written where the
	 * windows collide: a race on the hardware */
	{"examples/reduce_sum.json -D BLOCK_N=64", "examples/reduce_sum.json:99:5: error: ",
		"graph[4]: c has no dim N, but the sum graph[3] reduces over N and N is split over 4 workgroups: each "
		"would write its partial result to the same elements of c (a race)"},
	{"examples/reduce_sum.json -D BLOCK_N=192", "examples/reduce_sum.json:99:5: error: ",
		"N is split over 2 workgroups: each would write its partial result"},
	{"examples/reduce_block.json -D ELEMS_PER_WAVE=192", "examples/reduce_block.json:101:5: error: ",
		"graph[4]: c has no dim N, but the sum graph[3] reduces over N and N is split over 2 workgroups"},
	{"tests/driver/data/reduce_sum_waves.json", "tests/driver/data/reduce_sum_waves.json:100:5: error: ",
		"N is split over 2 waves: each would write its partial result to the same elements of c (a race); a "
		"reduction across waves is not supported without \"block\": true"},
	/* a non-primary workgroup constraint takes the ids of the primary one
	 * on its workgroup_dim (GQA's H_KV on H's); without one, the
	 * interpreter gives it a single workgroup: rejected, not compiled to
	 * another grid (found by a configuration sweep) */
	{"tests/driver/data/gemm_wg_not_primary.json", "tests/driver/data/gemm_wg_not_primary.json:22:5: error: ",
		"constraints[1]: no primary workgroup constraint on workgroup_dim 1 for N to share"},
	/* a reduction of the MMA result whose 16-wide MMA tiles do not tile
	 * the wave's window of 24: the fold would take in another wave's
	 * columns (a sweep found it summing them twice) */
	{"tests/driver/data/gemm_reduce_partial_tile.json",
		"tests/driver/data/gemm_reduce_partial_tile.json:135:5: error: ",
		"graph[2]: the MMA layout covers 32 of N per wave (2 copies of 16), the wave's window is 24: a reduction "
		"over it is not compiled yet"},
	/* an f16 sum beside the MMA over lanes that share a result: its f16
	 * roundings would follow the lanes, not the interpreter's coordinate
	 * order (the f32 sum of a cast passes: run_test.c) */
	{"tests/driver/data/gemm_lhs_sum_k_f16.json", "tests/driver/data/gemm_lhs_sum_k_f16.json:125:9: error: ",
		"graph[2].body[2]: a sum of f16 values in an MMA kernel whose lanes share a result is not compiled yet"},
	/* a write mapping that sends two elements to one place (Mod(j, 5)
	 * along N): a race, rejected */
	{"tests/driver/data/copy_write_collide.json", "tests/driver/data/copy_write_collide.json:73:5: error: ",
		"graph[1]: the write's mapping sends two elements to the same place (through j): a race, not compiled"},
	/* a K4 f8 type whose K step straddles two loop trips (its lanes' two
	 * runs of 4 k lie in two K copies; the K8 and 8-bit types in short K
	 * tiles pass: run_test.c) */
	{"tests/driver/data/gemm_f8_k4_global_32x32x16.json -D BLOCK_K=8",
		"tests/driver/data/gemm_f8_k4_global_32x32x16.json:113:9: error: ",
		"graph[1].body[2]: F32_32x32x16_K4_F8 takes K in pairs of copies of 4; 1 copies is not compiled yet"},
	/* workgroup_dims folded into grid dim 2: Wave's numbering without
	 * gaps, one wave along a folded dim (runtime counts on any folded dim
	 * pass: tests/driver/rtdiv_test.c) */
	{"tests/driver/data/add_folded_wg_gap.json", "tests/driver/data/add_folded_wg_gap.json:43:5: error: ",
		"constraints[4]: workgroup_dim 4 without workgroup_dim 3"},
	{"tests/driver/data/add_folded_wg_waves.json", "tests/driver/data/add_folded_wg_waves.json:55:5: error: ",
		"constraints[6]: 2 waves along H on workgroup_dim 3"},
	/* a tiling start below 0: only mapped accesses mask coordinates < 0 */
	{"tests/driver/data/gemm_k_start.json -D START=-8", "tests/driver/data/gemm_k_start.json:29:5: error: ",
		"constraints[2]: start -8 is negative: not compiled"},
	/* a cumsum without dim of a select of a product of the same dims in two orders: Wave's last dim is not known
	 * (frontend/load_scan.c) */
	{"tests/driver/data/bdo_scan_wave_order_unknown.json", "tests/driver/data/bdo_scan_wave_order_unknown.json:104:14: error: ",
		"graph[5].arg: cumsum of 'sel' i32[N, M] without dim: its last dim in Wave's order is not known (a binary op "
		"below it has the same dims in two orders): give dim"},
	/* a reordering constraint whose ids are no permutation of the grid */
	{"tests/driver/data/reorder_not_permutation.json", "tests/driver/data/reorder_not_permutation.json:44:5: error: ",
		"constraints[5]: workgroup (1, 0, 0) takes the tile (0, 0, 0) another workgroup takes: the reordering is "
		"not a permutation of the grid"},
	{"tests/driver/wave/reordered_gemm.json -D GROUP_SIZE_M=0", "tests/driver/wave/reordered_gemm.json:44:5: error: ",
		"constraints[5]: the reordered id along grid dim 0 of workgroup (0, 0, 0) cannot be evaluated: Mod by zero"},
	/* an apply_fn sending two workgroups to one window, with a write along
	 * its dim (docs/kernel-format.md, "apply_fn") */
	{"tests/driver/data/apply_fn_overlap.json", "tests/driver/data/apply_fn_overlap.json:74:5: error: ",
		"graph[1]: 'write' writes along M, whose workgroup constraint's apply_fn gives workgroups overlapping "
		"windows"},
	/* K split over workgroups (workgroup_dim 2) and written with a plain
	 * write into c [M, N]: every K workgroup writes the same elements
	 * (Wave's lit promotion.py GEMM; it compiled and gave FAIL) */
	{"tests/driver/data/split_write_race.json", "tests/driver/data/split_write_race.json:128:5: error: ",
		"graph[2]: c has no dim K, but K is split over 2 workgroups: each would write its own values to the "
		"same elements of c (a race)"},
	/* loops with a condition (load_while.c): another form of condition, a
	 * step that is not a constant, a set symbol named before its set_symbol */
	{"tests/driver/data/while_condition_form.json", "tests/driver/data/while_condition_form.json:107:17: error: ",
		"graph[1].condition: the condition TILE_IDX > TOTAL_TILES is not compiled"},
	{"tests/driver/data/while_step.json", "tests/driver/data/while_step.json:284:5: error: ",
		"graph[1].body[16]: the next value of TILE_IDX is 2*TILE_IDX: a loop with a condition is compiled when it "
		"steps its axis by a positive constant"},
	/* a volatile read of shared memory; a read's memory_order other than
	 * acquire (isel/memory.c: the flags order global memory) */
	{"tests/driver/data/memory_flags_bad.json", "tests/driver/data/memory_flags_bad.json:92:16: error: ",
		"graph[0].volatile: a volatile read of 'a', which lives in shared memory: volatile, acquire and release "
		"accesses are compiled for global memory"},
	{"tests/driver/data/memory_flags_bad.json", "tests/driver/data/memory_flags_bad.json:92:16: error: ",
		"memory_flags_bad.json:107:20: error: graph[2].memory_order: a read's memory_order must be \"acquire\" (at "
		"agent scope)"},
	/* a loop stepping to the next multiple of T capped below its bound
	 * (it would stay at the cap for ever) */
	{"tests/driver/data/while_next_multiple_short.json", "tests/driver/data/while_next_multiple_short.json:149:5: error: ",
		"graph[3].body[9]: the next value of U is Min(R*($WG0 + 1) - 1, T + U - Mod(U, T)): the loop steps to the "
		"next multiple of T, capped at R*($WG0 + 1) - 1, which is not shown to be at least the bound"},
	/* a spin-wait whose flag is read plainly (not volatile, no acquire):
	 * it could be served from a cache or hoisted, and never end */
	{"tests/driver/data/while_spin_lock.json", "tests/driver/data/while_spin_lock.json:85:5: error: ",
		"graph[1].body[0]: 'flag' is read in a spin-wait without \"volatile\" or \"memory_order\": \"acquire\": a "
		"plain read may be served from a cache or hoisted out of the loop"},
	/* a condition over carried values with no bound of the axis (it may
	 * never end), one naming the axis beside a carried value (a trip it
	 * skips would not stay skipped), an iter arg index past the init args */
	{"tests/driver/data/while_unbounded.json", "tests/driver/data/while_unbounded.json:24:17: error: ",
		"graph[5].condition: the condition GET_ITER_ARG0 > 1 has no conjunct that bounds the axis STEP alone (STEP "
		"< B): a loop whose condition names carried values is compiled with one, as otherwise it may never end"},
	{"tests/driver/data/while_carried_axis.json", "tests/driver/data/while_carried_axis.json:24:17: error: ",
		"graph[5].condition: the condition (GET_ITER_ARG0 > STEP) & (MAX_STEPS > STEP) names the axis STEP beside "
		"a carried value"},
	{"tests/driver/data/while_lane_nested.json", "tests/driver/data/while_lane_nested.json:168:5: error: ",
		"graph[5].body[5]: op 'iterate' inside the loop 'loop' (its condition on carried values), which may differ "
		"between lanes: not compiled"},
	/* a loop whose axis is carried (max_trips): the axis must be a dynamic
	 * symbol, and the body must start by setting it from the carried value
	 * the start initialises */
	{"tests/driver/data/while_carried_not_dynamic.json", "tests/driver/data/while_carried_not_dynamic.json:22:45: error: ",
		"graph[3].axis: the axis CUR of a loop with max_trips is a value the loop carries: it must be a dynamic "
		"symbol (dynamic_symbols)"},
	{"tests/driver/data/while_carried_start.json", "tests/driver/data/while_carried_start.json:25:6: error: ",
		"graph[3].body[0]: the body of a loop with max_trips starts with the set_symbol of its axis CUR from its "
		"carried value 'acc'"},
	{"tests/driver/data/while_iter_arg_range.json", "tests/driver/data/while_iter_arg_range.json:24:17: error: ",
		"graph[5].condition: 'GET_ITER_ARG2' names no value the loop carries"},
	{"tests/driver/data/while_use_before_set.json", "tests/driver/data/while_use_before_set.json:96:3: error: ",
		"graph[0]: 'init_tile_id' names CTA_M_OFFSET, which set_symbol sets only for the ops after it in its body"},
	/* LDS: the two staged 256x128 f16 tiles need 2 x 67584 bytes padded,
	 * 2 x 65536 unpadded (128x128x128 fits unpadded: lds_swizzle_test.c) */
	{"examples/gemm_16x16x16.json -D BLOCK_M=256 -D BLOCK_N=256 -D BLOCK_K=128 -D M=256 -D N=256 -D K=256",
		"examples/gemm_16x16x16.json:114:9: error: ",
		"graph[1].body[1]: staging b in LDS takes 65536 bytes (unpadded, swizzled), 65536 already allocated: over "
		"the 64 KiB of LDS; its box is N 256 x K 128 elements of f16: use smaller tiles along these dims: "
		"constraints[1].tile (workgroup, along N), constraints[2].tile (tiling, along K)"},
};

START_TEST(rejected_with_location)
{
	const Reject *x = &rejects[_i];
	const char *dir = test_tmpdir("reject");
	char args[4096], out[2048], want[1024];
	snprintf(out, sizeof out, "%s/k%d.co", dir, _i);
	snprintf(args, sizeof args, "compile %s -o '%s'", x->args, out);
	CmdResult r = wavecc(args);
	ck_assert_msg(r.status == 1, "%s: status %d\n%s%s", args, r.status, r.out, r.err);
	snprintf(want, sizeof want, "%s", x->where);
	ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0, "%s: want location %s\ngot: %s", args, want, r.err);
	ck_assert_msg(strstr(r.err, x->what), "%s: want\n%s\ngot: %s", args, x->what, r.err);
	ck_assert_msg(!strstr(r.err, "internal error") && !strstr(r.err, "runtime error"), "%s: %s", args, r.err);
	struct stat st;
	ck_assert_msg(stat(out, &st) != 0, "%s: wrote %s", args, out);
	cmd_result_free(&r);
}
END_TEST

/* K tiles that are not a multiple of the MMA's K compiled with exit 0 and
 * gave wrong results (each trip's K copies reached into the next trip's
 * window, counted twice); the lanes past the window get zero operands now.
 * One trip over K (BLOCK_K 127 at K=100) needs no mask. */
START_TEST(k_tiles_pass)
{
	static const char *const runs[] = {"gemm_global.json -D BLOCK_K=1", "gemm_global.json -D BLOCK_K=3",
		"gemm_global.json -D BLOCK_K=5 --mcpu gfx90a", "gemm_global.json -D BLOCK_K=8",
		"gemm_global.json -D BLOCK_K=24 --mcpu gfx90a", "gemm_global.json -D BLOCK_K=31",
		"gemm_global.json -D BLOCK_K=33", "gemm_global.json -D BLOCK_K=127",
		"gemm_global.json -D K=100 -D BLOCK_K=127", "gemm_global_32x32x8.json -D BLOCK_K=12 -D K=63",
		"gemm_global_32x32x8.json -D BLOCK_K=5 --mcpu gfx90a", "gemm_global_unaligned.json -D BLOCK_K=24"};
	char args[4096];
	for (size_t i = 0; i < ARRAY_LEN(runs); i++) {
		snprintf(args, sizeof args, "run examples/%s --seed %zu", runs[i], 5 + i);
		CmdResult r = wavecc(args);
		ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out,
			r.err);
		cmd_result_free(&r);
	}
}
END_TEST

/* Operands staged through LDS (isel/lds_stage.c) at tile shapes that take
 * each of its paths: K tiles shorter than the MMA's K (the box widened to
 * the next tile), rounds of the workgroup's loads that fill several rows
 * or part of one (BLOCK_K 128, 256), 16-byte chunks, chunks narrowed to
 * the row length (K 91: one f16, 93 with BLOCK_K 16), partial rounds
 * (BLOCK_M 128 x BLOCK_N 32), one trip, unaligned M, N and K. */
START_TEST(shared_tiles_pass)
{
	static const char *const runs[] = {"gemm_16x16x16.json -D BLOCK_K=8", "gemm_16x16x16.json -D BLOCK_K=16",
		"gemm_16x16x16.json -D BLOCK_K=24 --mcpu gfx90a", "gemm_16x16x16.json -D K=100 -D BLOCK_K=127",
		"gemm_16x16x16.json -D BLOCK_K=128",
		"gemm_16x16x16.json -D BLOCK_K=256 -D K=256 -D BLOCK_M=32 -D BLOCK_N=32 --mcpu gfx90a",
		"gemm_16x16x16.json -D BLOCK_M=128 -D BLOCK_N=32", "gemm_unaligned.json -D K=91",
		"gemm_unaligned.json -D K=93 -D BLOCK_K=16 --mcpu gfx90a", "gemm_unaligned.json -D M=33 -D N=17 -D K=5",
		"gemm_32x32x8.json -D BLOCK_K=12 -D K=63", "gemm_32x32x8.json -D BLOCK_K=5 --mcpu gfx90a"};
	char args[4096];
	for (size_t i = 0; i < ARRAY_LEN(runs); i++) {
		snprintf(args, sizeof args, "run examples/%s --seed %zu", runs[i], 11 + i);
		CmdResult r = wavecc(args);
		ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out,
			r.err);
		cmd_result_free(&r);
	}
}
END_TEST

/* Layouts that gave wrong results (the list ends with two read/write ones). Without block, a reduction
 * covers its wave's window (the interpreter's semantics): the compiled
 * kernel combined the waves anyway (softmax with N over 2 or 4 waves);
 * written back per window it is correct. reduce_sum with M on workgroup
 * dim 0 and the reduced N on dim 1 gave M the lanes that hold N. */
START_TEST(reduction_variants_pass)
{
	static const char *const runs[] = {"tests/driver/data/softmax_waves.json",
		"tests/driver/data/softmax_waves.json -D WN=4", "tests/driver/data/softmax_waves.json -D N=300",
		"tests/driver/data/softmax_waves.json -D BLOCK_N=128 --mcpu gfx90a",
		"tests/driver/data/softmax_waves.json -D VS=64 --mcpu gfx90a",
		/* a vector shape that is not a multiple of 64 (or wider than the only
		 * window): the lanes past the window are left out (were rejected, or
		 * folded exp(0 - max) of the padding) */
		"examples/softmax.json -D N=46", "examples/softmax.json -D N=200 --mcpu gfx90a",
		"examples/softmax_wide.json -D N=1000", "tests/driver/data/softmax_waves.json -D WN=1 -D VS=320",
		"examples/reduce_max.json -D BLOCK_N=100 -D N=77",
		/* a block reduction over waves along workgroup dim 1: the waves were
		 * not combined (each wrote its partial sum) */
		"tests/driver/data/reduce_block_swapped.json", "tests/driver/data/reduce_block_swapped.json -D N=56 -D M=14",
		"tests/driver/data/reduce_block_swapped.json -D N=1060 -D ELEMS_PER_WAVE=320 --mcpu gfx90a",
		/* in place with whole tiles; and a dim without a vector shape whose
		 * wave tile is longer than one row (one copy read only the first) */
		"tests/driver/data/add_inplace.json", "tests/driver/data/copy_no_vector_shape_m.json -D BLOCK_M=2",
		"tests/driver/data/copy_no_vector_shape_m.json -D BLOCK_M=5 -D M=7 --mcpu gfx90a",
		"tests/driver/data/reduce_sum_waves.json -D WN=1", "tests/driver/data/reduce_sum_swapped.json",
		"tests/driver/data/reduce_sum_swapped.json -D BLOCK_M=2 -D N=300 --mcpu gfx90a"};
	char args[4096];
	for (size_t i = 0; i < ARRAY_LEN(runs); i++) {
		snprintf(args, sizeof args, "run %s --seed %zu", runs[i], 3 + i);
		CmdResult r = wavecc(args);
		ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out,
			r.err);
		cmd_result_free(&r);
	}
}
END_TEST

/* A register of more elements per thread than a VGPR tuple holds hit the
 * MIR's register-class invariant (an internal abort): N=70 in a workgroup
 * tile of 64 along workgroup dim 1 (one work-item there: 64 elements per
 * thread), or BLOCK_N 2048 along dim 0 (32). Each element is its own VGPR
 * now. */
static void write_fill(const char *path, int wg_dim, int block_n)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f,
		"{\"format\": \"wavecc-kernel/1\", \"name\": \"fill\",\n"
		" \"symbols\": {\"N\": 70, \"BLOCK_N\": %d},\n"
		" \"constraints\": [\n"
		"  {\"kind\": \"workgroup\", \"dim\": \"N\", \"tile\": \"BLOCK_N\", \"workgroup_dim\": %d},\n"
		"  {\"kind\": \"wave\", \"dim\": \"N\", \"tile\": \"BLOCK_N\"},\n"
		"  {\"kind\": \"hardware\", \"threads_per_wave\": 64}],\n"
		" \"arguments\": [{\"name\": \"c\", \"type\": \"memory\", \"shape\": [\"N\"], \"address_space\": "
		"\"global\", \"dtype\": \"f32\"}],\n"
		" \"graph\": [\n"
		"  {\"name\": \"r\", \"op\": \"register\", \"shape\": [\"N\"], \"dtype\": \"f32\", \"value\": 1.5},\n"
		"  {\"name\": \"write\", \"op\": \"write\", \"register\": \"r\", \"memory\": \"c\"}]}\n",
		block_n, wg_dim);
	fclose(f);
}

/* A dim's runtime size is at most 2^31 - 2^16 (the compiler relies on it to
 * keep tile coordinates signed 32-bit: ir/graph.h GRAPH_MAX_RUNTIME_SIZE),
 * a runtime value that sizes no dim up to 2^31 - 1: one past the limit is a
 * launch error (exit 1) naming the symbol, before any buffer is made. */
START_TEST(runtime_size_limit)
{
	CmdResult r = wavecc("run tests/driver/wave/sdpa_16x16x16.json -D B=1 -D M=2147418113 -D N=128 -D K2=256");
	ck_assert_msg(r.status == 1 && strstr(r.err, "runtime size of dim M = 2147418113: from 0 to 2^31 - 2^16"),
		"status %d\n%s%s", r.status, r.out, r.err);
	cmd_result_free(&r);
	r = wavecc("run tests/driver/data/copy_rotate_rt.json -D M=3 -D N=100 -D S=2147483648 -D R=3");
	ck_assert_msg(r.status == 1 && strstr(r.err, "runtime value of S = 2147483648: from 0 to 2^31 - 1"),
		"status %d\n%s%s", r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

START_TEST(wide_register_runs)
{
	const char *dir = test_tmpdir("reject_register");
	char path[2048], args[4096];
	static const struct {
		int wg_dim, block_n;
		const char *defs;
	} cases[] = {{1, 64, ""}, {1, 64, "-D N=3000"}, {0, 2048, ""}, {0, 64, ""}, {0, 1024, ""},
		{0, 4096, "-D N=3000"}};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		snprintf(path, sizeof path, "%s/fill%zu.json", dir, i);
		write_fill(path, cases[i].wg_dim, cases[i].block_n);
		snprintf(args, sizeof args, "run '%s' %s --mcpu %s", path, cases[i].defs, i % 2 ? "gfx90a" : "gfx942");
		CmdResult r = wavecc(args);
		ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s: status %d\n%s%s", args, r.status, r.out,
			r.err);
		cmd_result_free(&r);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compile/reject");
	TCase *tc = tcase_create("reject");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, rejected_with_location, 0, (int)ARRAY_LEN(rejects));
	tcase_add_test(tc, k_tiles_pass);
	tcase_add_test(tc, shared_tiles_pass);
	tcase_add_test(tc, reduction_variants_pass);
	tcase_add_test(tc, wide_register_runs);
	tcase_add_test(tc, runtime_size_limit);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
