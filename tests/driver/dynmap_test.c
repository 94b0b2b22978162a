/* dynmap_test.c — index mappings with dynamic values (isel/dynmap.c)
 * beyond the transcribed Wave tests (wave_test.c: offset_read,
 * offset_write, offset_read_one, offset_write_one): offsets read inside a
 * loop and before it, the wide load a per-row offset keeps,
 * dynamic_val_mappings (a paged gather through a per-row block table, a
 * computed table, a second mapping that moves the table through LDS, a
 * row another workgroup reads, a GEMM operand gathered from a paged cache)
 * and the located rejections. */
#include <string.h>

#include "../../util/npy.h"
#include "../test.h"
#include "wave_inputs.h"

/* a[off[m, n], n] (an offset per element, read in the loop) times
 * b[roff[m], n] (an offset per row, read before the loop) under an
 * iterate over N, on both targets and shapes that do and do not divide
 * the tile; offsets -8..7 put rows out of bounds (masked to 0) */
static const char *const loop_shapes[] = {"-D M=16 -D N=256", "-D M=9 -D N=813", "-D M=3 -D N=27"};

/* `wavecc run` of a kernel under tests/driver/data must PASS; a gather
 * (no arithmetic) exactly. */
static void run_pass(const char *file, const char *args, const char *mcpu, int seed, const char *in)
{
	CmdResult r = test_wavecc("run tests/driver/data/%s %s --mcpu %s --seed %d %s", file, args, mcpu, seed, in);
	bool exact = strstr(file, "gather") || strstr(file, "dvm_");
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n") && (!exact || strstr(r.out, "max abs err 0,")),
		"%s %s %s %s: status %d\n%s%s", file, args, mcpu, in, r.status, r.out, r.err);
	cmd_result_free(&r);
}

START_TEST(offset_in_loop)
{
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	CmdResult r = test_wavecc("run tests/driver/data/dyn_offset_loop.json %s --mcpu %s --seed %d",
		loop_shapes[_i / 2], mcpu, 3 + _i);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s %s: status %d\n%s%s", loop_shapes[_i / 2], mcpu,
		r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* The same with dynamic_val_mappings: off[M, N1] holds one offset per 2
 * elements ({M: i, N1: floor(j/2)}, read in the loop, where the access
 * needs it) and roff[M] is named {M: i} (read before the loop in its own
 * index, which holds the row). A row whose b row is out of bounds is 0/0,
 * NaN; at M=3 the seeded roff leaves no row in bounds about half the time,
 * and a c that is NaN everywhere compares nothing (wavecc run fails it):
 * there roff is {2, 9, 0}, one row out of bounds and two in. */
START_TEST(mapped_offset_in_loop)
{
	char in[4200] = "";
	if (strstr(loop_shapes[_i / 2], "M=3 ")) {
		static const int32_t roff[3] = {2, 9, 0};
		char path[4096], err[256];
		int64_t n = 3;
		snprintf(path, sizeof path, "%s/roff.npy", test_tmpdir("dynmap_roff"));
		ck_assert_msg(npy_write(path, DT_I32, 1, &n, roff, err, sizeof err) == 0, "%s", err);
		snprintf(in, sizeof in, "--in roff=%s", path);
	}
	run_pass("dyn_offset_loop_dvm.json", loop_shapes[_i / 2], _i % 2 ? "gfx90a" : "gfx942", 9 + _i, in);
}
END_TEST

/* The per-row offset serves a run of 2 consecutive f32 along N: one
 * dwordx2 load; the per-element offsets cannot be shown contiguous, so
 * their elements load one dword at a time, each masked on its own. */
START_TEST(row_offset_stays_wide)
{
	CmdResult r = test_wavecc("compile tests/driver/data/dyn_offset_loop.json -D M=16 -D N=256 -S -o -");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, "buffer_load_dwordx2"), "no wide load:\n%s", r.out);
	ck_assert_msg(strstr(r.out, "buffer_load_dword v"), "no per-element load:\n%s", r.out);
	ck_assert_msg(strstr(r.out, "v_cndmask_b32"), "no masked offset:\n%s", r.out);
	cmd_result_free(&r);
}
END_TEST

/* cache[table[b, floor(n/P)]*P + n%P] for pages of P = 1..16 elements
 * (the table read gets one element per thread, a run of 4 elements per
 * thread, or one shared by several lanes), with the seeded table (-8..7:
 * pages outside the cache read 0) and with a table that is a permutation
 * of the pages (every element in bounds). */
static const char *const paged_shapes[] = {"-D P=4 -D NP=70", "-D P=2 -D NP=100", "-D P=8 -D NP=33",
	"-D P=1 -D NP=200", "-D P=16 -D NP=20"};
static const char *const paged_tables[] = {"table:3,70,1", "table:3,100,1", "table:3,33,1", "table:3,200,1",
	"table:3,20,1"};


START_TEST(paged_gather)
{
	int shape = _i / 4;
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	char in[4200] = "";
	if (_i / 2 % 2)
		wave_perm_input(paged_tables[shape], in, sizeof in);
	run_pass("dyn_paged_gather.json", paged_shapes[shape], mcpu, 11 + _i, in);
}
END_TEST

/* The table doubled before use: the read at the start of the chain gets
 * the index the gather needs (Wave propagates it back the same way). */
START_TEST(paged_gather_computed)
{
	run_pass("dyn_paged_gather_computed.json", paged_shapes[_i / 2], _i % 2 ? "gfx90a" : "gfx942", 3 + _i, "");
}
END_TEST

/* A second gather through the table reversed: the table, read where the
 * first needs it, moves through LDS to where the second does. */
static const char *const two_shapes[] = {"-D P=4 -D NP=64", "-D P=2 -D NP=128", "-D P=8 -D NP=32"};

START_TEST(second_mapping_relayout)
{
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	run_pass("dyn_paged_gather_two.json", two_shapes[_i / 2], mcpu, 7 + _i, "");
	CmdResult r = test_wavecc("compile tests/driver/data/dyn_paged_gather_two.json %s --mcpu %s -S -o -",
		two_shapes[_i / 2], mcpu);
	ck_assert_msg(r.status == 0 && strstr(r.out, "ds_write_b32") && strstr(r.out, "ds_read_b32"),
		"no LDS move:\n%s%s", r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* A GEMM whose B operand is a paged cache (bcache[n, table[floor(k/P)]*P
 * + k%P], paged attention's K-cache gather) in MMA layouts: the table read
 * in the loop gets, per lane, the page of each run of 4 K elements (per
 * copy of the 16x16x16 operand), for pages of 1 to 32 elements. */
static const char *const gemm_pages[] = {"-D P=1", "-D P=2", "-D P=4", "-D P=8", "-D P=16 -D K=128",
	"-D P=32 -D K=128"};

START_TEST(paged_gemm)
{
	run_pass("dyn_paged_gemm.json", gemm_pages[_i / 2], _i % 2 ? "gfx90a" : "gfx942", 21 + _i, "");
}
END_TEST

/* off[M, N1] with one offset per 4 elements (test_offset_read_one at
 * 256x1024): the offset read loads one dword per thread and the four
 * elements that share it load as one dwordx2. */
START_TEST(offset_one_stays_wide)
{
	CmdResult r = test_wavecc("compile tests/driver/wave/offset_read_one.json -D M=256 -D N=1024 -S -o -");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, "buffer_load_dwordx2") && strstr(r.out, "buffer_load_dword v") &&
			      !strstr(r.out, "buffer_load_ushort"),
		"expected one dword and one dwordx2 load:\n%s", r.out);
	cmd_result_free(&r);
}
END_TEST

/* dynamic_val_mappings {M: i + 1}: each row takes the next row's offsets,
 * which another workgroup's window holds; the offset read loads them, and
 * the interpreter reads them from memory (off is never written). */
START_TEST(other_row)
{
	run_pass("dvm_other_row.json", "-D M=111 -D N=813", _i % 2 ? "gfx90a" : "gfx942", 5 + _i, "");
}
END_TEST

/* The same with the offsets doubled first: the interpreter does not know
 * the computed value outside its window, and says so at the op. */
START_TEST(other_row_computed_interp)
{
	CmdResult r = test_wavecc("interp tests/driver/data/dvm_other_row_computed.json --seed 1");
	ck_assert_msg(r.status != 0 && strstr(r.err, "dvm_other_row_computed.json:") && strstr(r.err, "graph[2]") &&
			      strstr(r.err, "names an element outside the window this wave holds"),
		"status %d\n%s%s", r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

static const char *const rejects[][2] = {
	{"dyn_offset_i16", "graph[1]: dynamic value offset is i16: only 32-bit integer dynamic values are compiled yet"},
	{"dyn_offset_other_dim", "graph[1]: dynamic value offset has a dim the mapping's register side lacks"},
	{"dvm_not_list", "graph[1].mapping.dynamic_val_mappings: expected a list of objects (dim: expression), one per "
			 "dynamic value"},
	{"dvm_count", "graph[1].mapping.dynamic_val_mappings: dynamic_val_mappings has 2 entries but the mapping has 1 "
		      "dynamic values"},
	{"dvm_not_object", "graph[1].mapping.dynamic_val_mappings[0]: expected an object (dim: expression)"},
	{"dvm_not_dim", "graph[1].mapping.dynamic_val_mappings[0].N: N is not a dim of dynamic value 'offset' i32[M, "
			"N1]"},
	{"dvm_missing_dim", "graph[1].mapping.dynamic_val_mappings[0]: no expression for dim N1 of dynamic value "
			    "'offset'"},
	{"dvm_dyn_symbol", "graph[1].mapping.dynamic_val_mappings[0].M: symbol 'k'"},
};

/* off read before the loop while the access in it needs the offsets of
 * the current tile: a lane holds no element it needs, and the read cannot
 * be indexed by the loop's variable: rejected at the access. */
START_TEST(mapped_offset_outside_loop_rejected)
{
	CmdResult r = test_wavecc("compile tests/driver/data/dyn_offset_loop_dvm_outside.json -S -o -");
	ck_assert_msg(r.status == 1 && strstr(r.err, "dyn_offset_loop_dvm_outside.json:") &&
			      strstr(r.err, ": error: graph[4].body[0]") && strstr(r.err, "moving them through LDS fails"),
		"status %d\n%s", r.status, r.err);
	cmd_result_free(&r);
}
END_TEST

/* The reversed table's second gather with pages that span two workgroups:
 * the elements it needs are in the other workgroup: rejected at the op. */
START_TEST(relayout_across_workgroups_rejected)
{
	CmdResult r = test_wavecc("compile tests/driver/data/dyn_paged_gather_two.json -D P=4 -D NP=70 -S -o -");
	ck_assert_msg(r.status == 1 && strstr(r.err, "dyn_paged_gather_two.json:") && strstr(r.err, ": error: graph[3]") &&
			      strstr(r.err, "moving them through LDS fails"),
		"status %d\n%s", r.status, r.err);
	cmd_result_free(&r);
}
END_TEST

START_TEST(rejected)
{
	CmdResult r = test_wavecc("compile tests/driver/data/%s.json -S -o -", rejects[_i][0]);
	ck_assert_msg(r.status == 1 && strstr(r.err, ".json:") && strstr(r.err, ": error: ") &&
			      strstr(r.err, rejects[_i][1]),
		"%s: status %d\n%s", rejects[_i][0], r.status, r.err);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compile/dynmap");
	TCase *tc = tcase_create("dynmap");
	tcase_set_timeout(tc, 60);
	test_add_loop_sampled(tc, offset_in_loop, (int)(2 * ARRAY_LEN(loop_shapes)));
	tcase_add_test(tc, row_offset_stays_wide);
	tcase_add_loop_test(tc, rejected, 0, (int)ARRAY_LEN(rejects));
	test_add_loop_sampled(tc, paged_gather, (int)(4 * ARRAY_LEN(paged_shapes)));
	test_add_loop_sampled(tc, paged_gather_computed, (int)(2 * ARRAY_LEN(paged_shapes)));
	test_add_loop_sampled(tc, second_mapping_relayout, (int)(2 * ARRAY_LEN(two_shapes)));
	tcase_add_test(tc, offset_one_stays_wide);
	tcase_add_loop_test(tc, other_row, 0, 2);
	tcase_add_test(tc, other_row_computed_interp);
	tcase_add_test(tc, relayout_across_workgroups_rejected);
	test_add_loop_sampled(tc, mapped_offset_in_loop, (int)(2 * ARRAY_LEN(loop_shapes)));
	tcase_add_test(tc, mapped_offset_outside_loop_rejected);
	test_add_loop_sampled(tc, paged_gemm, (int)(2 * ARRAY_LEN(gemm_pages)));
	suite_add_tcase(s, tc);
	return run_suite(s);
}
