/* set_extent_test.c — set_symbol of a distributed dim sets its run-time
 * extent (docs/kernel-format.md, "set_symbol"): tests/driver/data/
 * set_extent.json sets N, a tiled dim, to len[m] in each row's workgroup and
 * sums, in a loop over N, a[m, n] (a read whose register bound is the set
 * extent), 1 per element of every trip (so the trip count shows: 64 per
 * trip) and 100 per element where apply_expr's `x < N` holds:
 *     c[m] = 64 * ceiling(E / 64) + 100 * E + sum_{n < min(E, N)} a[m, n]
 * with E = len[m] and N the launch extent (a's own length). The extents
 * cover no trip, a partial one, whole ones and one past a's length. The
 * interpreter is checked against that formula; the compiled kernel
 * against the interpreter on both targets. */
#include <math.h>
#include <stdio.h>

#include "../../frontend/frontend.h"
#include "../../interp/interp.h"
#include "../../util/npy.h"
#include "../test.h"

enum { ROWS = 8, COLS = 300 };
static const int32_t extents[ROWS] = {0, 1, 63, 64, 65, 200, 300, 350};

static double expected(const float *a, int m)
{
	int64_t e = extents[m];
	double s = 64.0 * (double)((e + 63) / 64) + 100.0 * (double)e;
	for (int64_t n = 0; n < e && n < COLS; n++)
		s += a[m * COLS + n];
	return s;
}

/* Small exact values: the sums are exact in f32 in any order. */
static void fill_a(float *a)
{
	for (int i = 0; i < ROWS * COLS; i++)
		a[i] = (float)((i * 37 + 11) % 17 - 8) / 4.0f;
}

START_TEST(interp_matches_formula)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/tests/driver/data/set_extent.json", test_root());
	Diag d;
	diag_init(&d);
	Kernel *k = load_kernel_file(path, &d);
	ck_assert_msg(k != NULL, "%s does not load", path);
	const int64_t dyn[] = {ROWS, COLS};
	Interp in;
	ck_assert(interp_init(&in, k, dyn, &d) == 0);
	InterpArg *len = interp_arg(&in, "len"), *a = interp_arg(&in, "a"), *c = interp_arg(&in, "c");
	ck_assert(len && a && c && len->dtype == DT_I32 && a->dtype == DT_F32 && c->dtype == DT_F32);
	for (int m = 0; m < ROWS; m++)
		((int32_t *)len->data)[m] = extents[m];
	fill_a((float *)a->data);
	ck_assert_msg(interp_run(&in) == 0, "interp_run failed");
	for (int m = 0; m < ROWS; m++) {
		double want = expected((const float *)a->data, m), got = ((const float *)c->data)[m];
		ck_assert_msg(fabs(got - want) < 1e-3, "row %d (extent %d): %g, expected %g", m, extents[m], got, want);
	}
	interp_free(&in);
	kernel_free(k);
}
END_TEST

/* Each target under both schedules of the loop: prefetched, the loads of
 * the trip after the launch extent's last (row 7: 350 > 300) read that
 * trip, not the launch extent's last again. */
START_TEST(compiled_matches_interp)
{
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942", *sched = _i / 2 ? "prefetch" : "none";
	char path[4096], err[256];
	snprintf(path, sizeof path, "%s/len.npy", test_tmpdir(_i % 2 ? "set_extent_gfx90a" : "set_extent_gfx942"));
	int64_t shape[1] = {ROWS};
	ck_assert_msg(npy_write(path, DT_I32, 1, shape, extents, err, sizeof err) == 0, "%s", err);
	CmdResult r = test_wavecc("run tests/driver/data/set_extent.json -D M=%d -D N=%d --in len=%s --mcpu %s --schedule %s",
		ROWS, COLS, path, mcpu, sched);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s, schedule %s: status %d\n%s%s", mcpu, sched, r.status,
		r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* The extent is compiled over a runtime launch extent only: bound with -D,
 * the loop would have a compile-time trip count. */
START_TEST(compile_time_launch_extent_rejected)
{
	CmdResult r = test_wavecc("compile tests/driver/data/set_extent.json -D N=300 -o /dev/null");
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "set_extent.json:") &&
			      strstr(r.err, "graph[1]: set_symbol of N: its launch extent is a compile-time integer"),
		"%s", r.err);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("set_extent");
	TCase *tc = tcase_create("set_extent");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, interp_matches_formula);
	tcase_add_loop_test(tc, compiled_matches_interp, 0, 4);
	tcase_add_test(tc, compile_time_launch_extent_rejected);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
