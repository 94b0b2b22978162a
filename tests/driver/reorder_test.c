/* reorder_test.c — workgroup reordering over a grid of run-time size
 * (passes/graph/constraints.c add_reordering; docs/kernel-format.md,
 * "Workgroup reordering"): Wave's grouped order (the remainder columns'
 * branch divides by a run-time count, isel/expr.c's guarded division) and
 * a rotation, on copies of run-time M and N, on both targets against the
 * interpreter, at grids within the checked bound and past it (the plain
 * order there); the bound in the assembly; and the located rejections of
 * an order that depends on a size other than through its workgroup count
 * and of one that is no permutation of some grid. A copy's result does not
 * depend on which workgroup copies which tile, but one whose ids were not
 * a permutation would leave tiles unwritten (FAIL). Wave's GEMMs with the
 * order run in wave_test.c (reordered_gemm_dyn.json,
 * mxfp4_preshuffle_b_dyn_reorder.json). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../test.h"

typedef struct Shape {
	const char *file;
	int m, n;
} Shape;

/* 64-column tiles: N 200, 640 and 64 give 4, 10 and 1 columns; 2880 gives
 * 45, past the 44 the order is checked for */
static const Shape shapes[] = {
	{"reorder_grouped_copy", 5, 200},
	{"reorder_grouped_copy", 4, 640},
	{"reorder_grouped_copy", 7, 64},
	{"reorder_grouped_copy", 3, 2880},
	{"reorder_runtime_copy", 3, 200},
	{"reorder_runtime_copy", 5, 640},
	{"reorder_runtime_copy", 2, 2880},
};

START_TEST(runs)
{
	const Shape *s = &shapes[_i / 2];
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	CmdResult r = test_wavecc("run tests/driver/data/%s.json -D M=%d -D N=%d --mcpu %s", s->file, s->m, s->n, mcpu);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n") && strstr(r.out, "max abs err 0,"),
		"%s M=%d N=%d %s: status %d\n%s%s", s->file, s->m, s->n, mcpu, r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

START_TEST(bound_in_assembly)
{
	CmdResult r = test_wavecc("compile tests/driver/data/reorder_grouped_copy.json -S -o -");
	ck_assert_msg(r.status == 0 &&
			      strstr(r.out, "// reordering: checked to permute every grid of up to 44 along 0, 44 along 1 "
					    "workgroups; the plain order on larger ones\n") &&
			      strstr(r.out, "s_cselect_b32"),
		"status %d\n%s", r.status, r.err);
	cmd_result_free(&r);
	/* a grid known when compiling is checked whole: no bound */
	r = test_wavecc("compile tests/driver/wave/reordered_gemm.json -S -o -");
	ck_assert_msg(r.status == 0 && !strstr(r.out, "// reordering:"), "status %d\n%s", r.status, r.err);
	cmd_result_free(&r);
}
END_TEST

START_TEST(rejected)
{
	/* Mod(N, 2) in the order: not a function of the workgroup count */
	CmdResult r = test_wavecc("compile tests/driver/data/reorder_runtime_copy.json -D SHIFT=1 -o /dev/null");
	ck_assert_msg(r.status == 1 && strstr(r.err, "reorder_runtime_copy.json:45:5: error: constraints[5]: the "
						     "reordered id depends on a run-time size other than through the "
						     "number of workgroups it gives"),
		"status %d\n%s", r.status, r.err);
	cmd_result_free(&r);
	/* 2·id + 3 mod the count: two workgroups take one tile of an even grid */
	r = test_wavecc("compile tests/driver/data/reorder_runtime_copy.json -D SCALE=2 -o /dev/null");
	ck_assert_msg(r.status == 1 && strstr(r.err, "constraints[5]: workgroup (1, 0, 0) (in a grid of 2 x 1 x 1 "
						     "workgroups) takes the tile (1, 0, 0) another workgroup takes"),
		"status %d\n%s", r.status, r.err);
	cmd_result_free(&r);
}
END_TEST

/* The order's purpose, as `wavecc profile` models it: Wave's grouped
 * XCD order (reordered_gemm.json) against the same GEMM in the plain order
 * (tests/driver/data/reordered_gemm_plain.json) at 4096 x 4096 x 512, 32
 * x 16 workgroups: with groups of 16 rows the workgroups one XCD runs at
 * once share rows of A and columns of B, so fewer first touches miss L2
 * (the model gives 25.2 MB against 42.4 MB). At 8192^3 the model gives
 * the reverse (2522 MB against 2035 MB at --sample 4), which this test
 * does not explain and does not check. */
static double l2_miss_mb(const char *file)
{
	CmdResult r = test_wavecc("profile %s -D M=4096 -D N=4096 -D K=512 --sample 4", file);
	ck_assert_msg(r.status == 0, "%s: status %d\n%s", file, r.status, r.err);
	const char *p = strstr(r.out, "of them miss L2 (");
	ck_assert_msg(p, "%s: no L2 misses in\n%s", file, r.out);
	double mb = strtod(p + strlen("of them miss L2 ("), NULL);
	cmd_result_free(&r);
	return mb;
}

START_TEST(grouped_order_reuses_l2)
{
	double grouped = l2_miss_mb("tests/driver/wave/reordered_gemm.json");
	double plain = l2_miss_mb("tests/driver/data/reordered_gemm_plain.json");
	printf("reorder: L2 misses at 4096 x 4096 x 512 (profile's model): %.1f MB grouped, %.1f MB plain\n", grouped,
	       plain);
	ck_assert_msg(grouped > 0 && grouped < 0.75 * plain, "grouped %.1f MB, plain %.1f MB", grouped, plain);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver.reorder");
	TCase *tc = tcase_create("reorder");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, runs, 0, (int)(2 * ARRAY_LEN(shapes)));
	tcase_add_test(tc, bound_in_assembly);
	tcase_add_test(tc, rejected);
	tcase_add_test(tc, grouped_order_reuses_l2);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
