/* elementwise_test.c — the interpreter on the copy, elementwise, reduction
 * and softmax examples, each against a naive reference computed here in
 * plain loops. Tolerances are stated per test: copy, add and cast are exact
 * (the inputs are chosen so that f16 addition is exact, and the cast
 * reference rounds with util's dtype_f32_to_f16); the reduction and softmax
 * references run in double and allow f32 rounding. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"

static void check_copy(const char *name, int64_t M, int64_t N)
{
	Example ex;
	ex_open(&ex, name, NULL);
	InterpArg *a = ex_arg(&ex, "a"), *b = ex_arg(&ex, "b");
	ck_assert_int_eq(a->shape[0], M);
	ck_assert_int_eq(a->shape[1], N);
	fill(a, 1, -8, 8, 1.0 / 128);
	fill(b, 2, 100, 101, 1); /* every element must be overwritten */
	ex_run(&ex);
	double *ref = xmalloc(sizeof(double) * a->count);
	for (int64_t m = 0; m < M; m++)
		for (int64_t n = 0; n < N; n++)
			ref[m * N + n] = el(a, (uint64_t)(m * N + n));
	expect_close(name, b, ref, 0, 0);
	free(ref);
	ex_close(&ex);
}

START_TEST(copy_unaligned_111x813)
{
	/* BLOCK_N = 256: the last workgroup along N covers 768..1023, so
	 * reads past 813 give zero and writes past it must be dropped (ASan
	 * would see a write outside b). */
	check_copy("copy", 111, 813);
}
END_TEST

START_TEST(copy_aligned_256x1024)
{
	check_copy("copy_aligned", 256, 1024);
}
END_TEST

START_TEST(vector_add_exact)
{
	Example ex;
	ex_open(&ex, "add", NULL);
	InterpArg *a = ex_arg(&ex, "a"), *b = ex_arg(&ex, "b"), *c = ex_arg(&ex, "c");
	fill(a, 3, -2, 2, 1.0 / 64);
	fill(b, 4, -2, 2, 1.0 / 64);
	ex_run(&ex);
	double *ref = xmalloc(sizeof(double) * c->count);
	for (uint64_t i = 0; i < c->count; i++)
		ref[i] = el(a, i) + el(b, i); /* exact in f16 for these inputs */
	expect_close("add", c, ref, 0, 0);
	free(ref);
	ex_close(&ex);
}
END_TEST

START_TEST(cast_f32_to_f16_rounds_to_nearest_even)
{
	Example ex;
	ex_open(&ex, "cast", NULL);
	InterpArg *a = ex_arg(&ex, "a"), *b = ex_arg(&ex, "b");
	fill(a, 5, -4, 4, 1.0 / 8192); /* finer than f16's ulp above 0.25 */
	ex_run(&ex);
	double *ref = xmalloc(sizeof(double) * b->count);
	int rounded = 0;
	for (uint64_t i = 0; i < b->count; i++) {
		float x = (float)el(a, i);
		ref[i] = dtype_f16_to_f32(dtype_f32_to_f16(x));
		rounded += ref[i] != x;
	}
	ck_assert_int_gt(rounded, 1000); /* the test does exercise rounding */
	expect_close("cast", b, ref, 0, 0);
	free(ref);
	ex_close(&ex);
}
END_TEST

START_TEST(reduce_sum_rows)
{
	/* c[m] = sum_n a[m,n]*b[m,n]; N = 200 with BLOCK_N = 256, so the
	 * padding reads zero and adds nothing. Tolerance: f32 rounding of a
	 * 200-term sum, 1e-5 relative + 1e-5. */
	Example ex;
	ex_open(&ex, "reduce_sum", NULL);
	InterpArg *a = ex_arg(&ex, "a"), *b = ex_arg(&ex, "b"), *c = ex_arg(&ex, "c");
	int64_t M = a->shape[0], N = a->shape[1];
	fill(a, 6, -1, 1, 1.0 / 1024);
	fill(b, 7, -1, 1, 1.0 / 1024);
	ex_run(&ex);
	double *ref = xcalloc((size_t)M, sizeof(double));
	for (int64_t m = 0; m < M; m++)
		for (int64_t n = 0; n < N; n++)
			ref[m] += el(a, (uint64_t)(m * N + n)) * el(b, (uint64_t)(m * N + n));
	expect_close("reduce_sum", c, ref, 1e-5, 1e-5);
	free(ref);
	ex_close(&ex);
}
END_TEST

START_TEST(softmax_rows)
{
	/* b = exp(a - rowmax) / rowsum; reference in double; tolerance for
	 * f32 rounding: 1e-6 + 1e-5 relative. */
	Example ex;
	ex_open(&ex, "softmax", NULL);
	InterpArg *a = ex_arg(&ex, "a"), *b = ex_arg(&ex, "b");
	int64_t M = a->shape[0], N = a->shape[1];
	fill(a, 8, -6, 6, 1.0 / 256);
	ex_run(&ex);
	double *ref = xmalloc(sizeof(double) * b->count);
	for (int64_t m = 0; m < M; m++) {
		double mx = -INFINITY, s = 0;
		for (int64_t n = 0; n < N; n++)
			mx = fmax(mx, el(a, (uint64_t)(m * N + n)));
		for (int64_t n = 0; n < N; n++)
			s += exp(el(a, (uint64_t)(m * N + n)) - mx);
		for (int64_t n = 0; n < N; n++)
			ref[m * N + n] = exp(el(a, (uint64_t)(m * N + n)) - mx) / s;
	}
	expect_close("softmax", b, ref, 1e-6, 1e-5);
	free(ref);
	ex_close(&ex);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("interp.elementwise");
	TCase *tc = tcase_create("examples");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, copy_unaligned_111x813);
	tcase_add_test(tc, copy_aligned_256x1024);
	tcase_add_test(tc, vector_add_exact);
	tcase_add_test(tc, cast_f32_to_f16_rounds_to_nearest_even);
	tcase_add_test(tc, reduce_sum_rows);
	tcase_add_test(tc, softmax_rows);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
