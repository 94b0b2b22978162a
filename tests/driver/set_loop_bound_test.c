/* set_loop_bound_test.c — set_symbol of a symbol a tiling constraint's
 * start or iters uses (docs/kernel-format.md, "set_symbol"; Wave's paged
 * decode sets SPLITS_ACTIVE and KV_START_IDX so): tests/driver/data/
 * set_loop_bound.json reads, per row's workgroup, trips[m] into TRIPS and
 * first[m] into START, then loops over N with iters TRIPS from START *
 * BLOCK_N, adding each trip's a[m, n] + 1 (the 1 counts 64 per trip, so
 * the trip count shows):
 *     c[m] = 64 * T + sum over n in [64 S, 64 (S + T)), n < N, of a[m, n]
 * with T and S the row's values clamped to [0, 2^31 - 1]. The launch
 * values of TRIPS and START (9 and 7) are not the rows': a kernel that
 * kept them would fail. The rows cover no trip, a negative start and a
 * negative count (clamped to 0), a window past the end of a and one
 * reaching into it. The interpreter is checked against the formula, the
 * compiled kernel against the interpreter on both targets and schedules.
 * set_loop_bound_expr.json adds what follows the loop: an apply_expr
 * TRIPS + 100 * START written to e, and a conditional `TRIPS > 1` writing
 * c's row to g; both see the set values (as Wave's emitter does from the
 * set_symbol on), not the launch values. */
#include <math.h>
#include <stdio.h>

#include "../../frontend/frontend.h"
#include "../../interp/interp.h"
#include "../../util/npy.h"
#include "../test.h"

enum { ROWS = 8, COLS = 300, LAUNCH_START = 7, LAUNCH_TRIPS = 9 };
static const int32_t trips[ROWS] = {0, 1, 2, 3, 2, -5, 1, 2};
static const int32_t first[ROWS] = {0, 0, 1, 2, -3, 1, 4, 10};

static double expected(const float *a, int m)
{
	int64_t t = trips[m] < 0 ? 0 : trips[m], f = first[m] < 0 ? 0 : first[m];
	double s = 64.0 * (double)t;
	for (int64_t n = 64 * f; n < 64 * (f + t) && n < COLS; n++)
		s += a[m * COLS + n];
	return s;
}

/* Small exact values: the sums are exact in f32 in any order. */
static void fill_a(float *a)
{
	for (int i = 0; i < ROWS * COLS; i++)
		a[i] = (float)((i * 37 + 11) % 17 - 8) / 4.0f;
}

/* tests/driver/data/NAME loaded into in at the launch values, trips,
 * first and a filled (a kernel the caller frees). */
static Kernel *open_filled(const char *name, Interp *in)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/tests/driver/data/%s", test_root(), name);
	Diag d;
	diag_init(&d);
	Kernel *k = load_kernel_file(path, &d);
	ck_assert_msg(k != NULL, "%s does not load", path);
	const int64_t dyn[] = {ROWS, COLS, LAUNCH_START, LAUNCH_TRIPS};
	ck_assert(interp_init(in, k, dyn, &d) == 0);
	InterpArg *t = interp_arg(in, "trips"), *f = interp_arg(in, "first"), *a = interp_arg(in, "a");
	ck_assert(t && f && a && t->dtype == DT_I32 && f->dtype == DT_I32 && a->dtype == DT_F32);
	for (int m = 0; m < ROWS; m++) {
		((int32_t *)t->data)[m] = trips[m];
		((int32_t *)f->data)[m] = first[m];
	}
	fill_a((float *)a->data);
	return k;
}

START_TEST(interp_matches_formula)
{
	Interp in;
	Kernel *k = open_filled("set_loop_bound.json", &in);
	InterpArg *a = interp_arg(&in, "a"), *c = interp_arg(&in, "c");
	ck_assert(c && c->dtype == DT_F32);
	ck_assert_msg(interp_run(&in) == 0, "interp_run failed");
	for (int m = 0; m < ROWS; m++) {
		double want = expected((const float *)a->data, m), got = ((const float *)c->data)[m];
		ck_assert_msg(fabs(got - want) < 1e-3, "row %d (trips %d from %d): %g, expected %g", m, trips[m],
			first[m], got, want);
	}
	interp_free(&in);
	kernel_free(k);
}
END_TEST

/* The set values in the expressions after the loop: e[m] = T + 100 S, and
 * g[m] = c[m] only where T > 1 (the rest keeps the NaN it starts as). */
START_TEST(interp_expressions_see_set_values)
{
	Interp in;
	Kernel *k = open_filled("set_loop_bound_expr.json", &in);
	InterpArg *c = interp_arg(&in, "c"), *e = interp_arg(&in, "e"), *g = interp_arg(&in, "g");
	ck_assert(c && e && g && e->dtype == DT_I32 && g->dtype == DT_F32);
	for (int m = 0; m < ROWS; m++)
		((float *)g->data)[m] = NAN;
	ck_assert_msg(interp_run(&in) == 0, "interp_run failed");
	for (int m = 0; m < ROWS; m++) {
		int32_t tt = trips[m] < 0 ? 0 : trips[m], ff = first[m] < 0 ? 0 : first[m];
		int32_t got = ((const int32_t *)e->data)[m];
		ck_assert_msg(got == tt + 100 * ff, "row %d: e = %d, expected %d", m, got, tt + 100 * ff);
		float gv = ((const float *)g->data)[m], cv = ((const float *)c->data)[m];
		if (tt > 1)
			ck_assert_msg(gv == cv, "row %d (trips %d): g = %g, expected c's %g", m, tt, gv, cv);
		else
			ck_assert_msg(isnan(gv), "row %d (trips %d): g written (%g) though TRIPS > 1 fails", m, tt, gv);
	}
	interp_free(&in);
	kernel_free(k);
}
END_TEST

START_TEST(compiled_matches_interp)
{
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942", *sched = _i / 2 % 2 ? "prefetch" : "none";
	char tp[4096], fp[4096], err[256];
	const char *dir = test_tmpdir(_i % 2 ? "set_loop_bound_gfx90a" : "set_loop_bound_gfx942");
	snprintf(tp, sizeof tp, "%s/trips.npy", dir);
	snprintf(fp, sizeof fp, "%s/first.npy", dir);
	int64_t shape[1] = {ROWS};
	ck_assert_msg(npy_write(tp, DT_I32, 1, shape, trips, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_write(fp, DT_I32, 1, shape, first, err, sizeof err) == 0, "%s", err);
	CmdResult r = test_wavecc("run tests/driver/data/set_loop_bound%s.json -D M=%d -D N=%d -D START=%d -D TRIPS=%d "
				  "--in trips=%s --in first=%s --mcpu %s --schedule %s",
		_i / 4 ? "_expr" : "", ROWS, COLS, LAUNCH_START, LAUNCH_TRIPS, tp, fp, mcpu, sched);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s, schedule %s: status %d\n%s%s", mcpu, sched,
		r.status, r.out, r.err);
	cmd_result_free(&r);
}
END_TEST

/* Compiled over a runtime launch value only: bound with -D, the loop's
 * count would be a compile-time integer. */
START_TEST(compile_time_launch_value_rejected)
{
	CmdResult r = test_wavecc("compile tests/driver/data/set_loop_bound.json -D TRIPS=3 -o /dev/null");
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "set_loop_bound.json:") &&
			      strstr(r.err, "graph[2]: set_symbol of TRIPS: its launch value is a compile-time integer"),
		"%s", r.err);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("set_loop_bound");
	TCase *tc = tcase_create("set_loop_bound");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, interp_matches_formula);
	tcase_add_test(tc, interp_expressions_see_set_values);
	tcase_add_loop_test(tc, compiled_matches_interp, 0, 8); /* 4-7: set_loop_bound_expr.json */
	tcase_add_test(tc, compile_time_launch_value_rejected);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
