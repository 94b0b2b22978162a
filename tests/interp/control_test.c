/* control_test.c — the interpreter's conditional (interp/control.c) on
 * Wave's transcribed tests, against references computed here: writes in the
 * body store only where the condition holds, results select between the
 * body's value and the else value, an expression condition runs the body
 * or not; set_symbol's symbol in a mapping is the register's element;
 * cumsum restarts at each wave's window unless it is a block scan. */
#include <stdbool.h>
#include <stdlib.h>

#include "../../passes/graph/analysis.h"
#include "harness.h"

/* test_conditional: b = a where mask > 0; b keeps its old value elsewhere. */
START_TEST(masked_write)
{
	Example ex;
	ex_open(&ex, "../tests/driver/wave/conditional", NULL);
	InterpArg *a = ex_arg(&ex, "a"), *mask = ex_arg(&ex, "mask"), *b = ex_arg(&ex, "b");
	fill(a, 1, -8, 8, 1.0 / 128);
	fill(mask, 2, -3, 3, 1);
	fill(b, 3, 100, 101, 1);
	ex_run(&ex);
	double *ref = xmalloc(sizeof(double) * b->count);
	int64_t held = 0;
	for (uint64_t i = 0; i < b->count; i++) {
		held += el(mask, i) > 0;
		ref[i] = el(mask, i) > 0 ? el(a, i) : 100;
	}
	ck_assert(held > 0 && held < (int64_t)b->count); /* both branches seen */
	expect_close("conditional", b, ref, 0, 0);
	free(ref);
	ex_close(&ex);
}
END_TEST

/* A per-element condition with a result: b = mask > 0 ? a * a : a. */
START_TEST(selected_result)
{
	Example ex;
	ex_open(&ex, "../tests/driver/data/conditional_select", NULL);
	InterpArg *a = ex_arg(&ex, "a"), *mask = ex_arg(&ex, "mask"), *b = ex_arg(&ex, "b");
	fill(a, 4, -4, 4, 1.0 / 8);
	fill(mask, 5, -3, 3, 1);
	ex_run(&ex);
	double *ref = xmalloc(sizeof(double) * b->count);
	for (uint64_t i = 0; i < b->count; i++)
		ref[i] = el(mask, i) > 0 ? el(a, i) * el(a, i) : el(a, i); /* exact in f16 */
	expect_close("conditional_select", b, ref, 0, 0);
	free(ref);
	ex_close(&ex);
}
END_TEST

/* test_conditional_return: b = threshold > 10 ? a * 2.5 : a. */
START_TEST(expression_condition)
{
	for (int t = 0; t < 2; t++) {
		Example ex;
		ex_open(&ex, "../tests/driver/wave/conditional_return", NULL);
		InterpArg *a = ex_arg(&ex, "a"), *b = ex_arg(&ex, "b");
		char err[128];
		ck_assert_int_eq(interp_set_scalar(ex_arg(&ex, "threshold"), t ? "50" : "2", err, sizeof err), 0);
		fill(a, 6, -4, 4, 1.0 / 8);
		ex_run(&ex);
		double *ref = xmalloc(sizeof(double) * b->count);
		for (uint64_t i = 0; i < b->count; i++)
			ref[i] = t ? el(a, i) * 2.5 : el(a, i);
		expect_close("conditional_return", b, ref, 0, 0);
		free(ref);
		ex_close(&ex);
	}
}
END_TEST

/* test_set_symbol and test_apply_expr (M = 111, N = 813): b[m, n] =
 * a[row, n] with row = off[m, n], or M - off[m, n] - 1 after apply_expr;
 * rows outside [0, S) read 0. */
static void check_set_symbol(const char *name, bool reversed)
{
	int64_t dyn[1] = {111};
	Example ex;
	ex_open(&ex, name, dyn);
	InterpArg *a = ex_arg(&ex, "a"), *off = ex_arg(&ex, "off"), *b = ex_arg(&ex, "b");
	const int64_t M = 111, N = 813;
	fill(a, 7, -8, 8, 1.0 / 64);
	fill(off, 8, -2, 113, 1); /* a few rows past each end */
	ex_run(&ex);
	double *ref = xmalloc(sizeof(double) * b->count);
	for (int64_t m = 0; m < M; m++)
		for (int64_t n = 0; n < N; n++) {
			int64_t row = (int64_t)el(off, (uint64_t)(m * N + n));
			if (reversed)
				row = M - row - 1;
			ref[m * N + n] = row >= 0 && row < M ? el(a, (uint64_t)(row * N + n)) : 0;
		}
	expect_close(name, b, ref, 0, 0);
	free(ref);
	ex_close(&ex);
}

START_TEST(set_symbol_gathers_rows)
{
	check_set_symbol("../tests/driver/wave/set_symbol", false);
	check_set_symbol("../tests/driver/wave/apply_expr", true);
}
END_TEST

/* test_block_scanop_cumsum at (3, 1000): 4 waves of 256 along N; with
 * block each row is one prefix sum, without it each wave's 256 restart. */
static void check_scan(bool block)
{
	Diag d;
	diag_init(&d);
	char path[1024];
	snprintf(path, sizeof path, "%s/tests/driver/wave/block_scan.json", test_root());
	Kernel *k = load_kernel_file(path, &d);
	ck_assert_ptr_nonnull(k);
	const char *names[2] = {"M", "N"};
	const int64_t vals[2] = {3, 1000};
	Kernel *v = subst_bound_view(k, 2, names, vals, &d);
	ck_assert_ptr_nonnull(v);
	for (size_t i = 0; i < v->body->ops.len; i++)
		if (v->body->ops.data[i]->kind == OP_CUMSUM)
			v->body->ops.data[i]->block = block;
	Interp in;
	ck_assert_int_eq(interp_init(&in, v, NULL, &d), 0);
	InterpArg *a = interp_arg(&in, "a"), *c = interp_arg(&in, "c");
	ck_assert(a && c);
	fill(a, 9, -50, 50, 1);
	ck_assert_int_eq(interp_run(&in), 0);
	double *ref = xmalloc(sizeof(double) * c->count);
	for (int64_t m = 0; m < 3; m++) {
		double acc = 0;
		for (int64_t n = 0; n < 1000; n++) {
			if (!block && n % 256 == 0)
				acc = 0;
			acc += el(a, (uint64_t)(m * 1000 + n));
			ref[m * 1000 + n] = acc;
		}
	}
	expect_close(block ? "block cumsum" : "wave cumsum", c, ref, 0, 0);
	free(ref);
	interp_free(&in);
	kernel_view_free(v);
	kernel_free(k);
}

START_TEST(cumsum_block_and_wave)
{
	check_scan(true);
	check_scan(false);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("interp_control");
	TCase *tc = tcase_create("conditional");
	tcase_add_test(tc, masked_write);
	tcase_add_test(tc, selected_result);
	tcase_add_test(tc, expression_condition);
	suite_add_tcase(s, tc);
	tc = tcase_create("set_symbol");
	tcase_add_test(tc, set_symbol_gathers_rows);
	suite_add_tcase(s, tc);
	tc = tcase_create("cumsum");
	tcase_add_test(tc, cumsum_block_and_wave);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
