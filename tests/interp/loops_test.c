/* loops_test.c — the interpreter on loops against naive references:
 * nested iterates (an outer loop carrying a value through an inner one
 * whose zero accumulator spans the inner loop's dim), a tiling constraint
 * with a start and iters over the workgroup id (split K, trips running
 * out: a split with no trips keeps its init), the sequential batched GEMM
 * (Wave's testSequentialBatchedGemm) and workgroup dims folded into grid
 * dim 2. Inputs are multiples of 1/64 in [-2, 2): every sum is exact. */
#include <stdlib.h>

#include "harness.h"

/* c[m] = acc after I trips of acc = acc / 2 + sum_n a[m, n], from 0.5. */
START_TEST(nested_iterates_carry_values)
{
	Example ex;
	const int64_t dyn[2] = {4, 5}; /* M, I */
	ex_open(&ex, "../tests/driver/data/nested_sum_dyn", dyn);
	InterpArg *a = ex_arg(&ex, "a"), *c = ex_arg(&ex, "c");
	fill(a, 21, -2, 2, 1.0 / 64);
	fill(c, 22, 50, 51, 1);
	ex_run(&ex);
	int64_t N = a->shape[1];
	double ref[4];
	for (int64_t m = 0; m < 4; m++) {
		double row = 0, acc = 0.5;
		for (int64_t n = 0; n < N; n++)
			row += el(a, (uint64_t)(m * N + n));
		for (int i = 0; i < 5; i++)
			acc = acc / 2 + row;
		ref[m] = acc;
	}
	expect_close("nested_sum_dyn", c, ref, 1e-4, 1e-6);
	ex_close(&ex);
}
END_TEST

/* Split K (tests/driver/data/gemm_split_k_dyn.json): split s starts at
 * $WG2 * 32 and runs Min(2, ceil(K / 16) - 2 s) trips of 16, so the splits
 * partition K (K = 40: 2, 1 and -1 trips, which is none):
 * c[s, m, n] = sum over k in [32 s, min(K, 32 s + 32)) of a[m, k] b[n, k],
 * and the partial products sum to the GEMM a·bᵀ over all of K (checked
 * too: windows that overlapped would count some k twice). */
START_TEST(split_k_start_and_iters)
{
	Example ex;
	const int64_t dyn[1] = {40}; /* K */
	ex_open(&ex, "../tests/driver/data/gemm_split_k_dyn", dyn);
	InterpArg *a = ex_arg(&ex, "a"), *b = ex_arg(&ex, "b"), *c = ex_arg(&ex, "c");
	int64_t S = c->shape[0], M = c->shape[1], N = c->shape[2], K = 40;
	fill(a, 23, -2, 2, 1.0 / 64);
	fill(b, 24, -2, 2, 1.0 / 64);
	fill(c, 25, 50, 51, 1);
	ex_run(&ex);
	double *ref = xcalloc((size_t)(S * M * N), sizeof(double));
	for (int64_t s = 0; s < S; s++)
		for (int64_t m = 0; m < M; m++)
			for (int64_t n = 0; n < N; n++)
				for (int64_t k = 32 * s; k < K && k < 32 * s + 32; k++)
					ref[(s * M + m) * N + n] += el(a, (uint64_t)(m * K + k)) * el(b, (uint64_t)(n * K + k));
	/* the last split runs no trip and writes zeros */
	expect_close("gemm_split_k_dyn", c, ref, 0, 0);
	for (int64_t m = 0; m < M; m++)
		for (int64_t n = 0; n < N; n++) {
			double sum = 0, gemm = 0;
			for (int64_t s = 0; s < S; s++)
				sum += el(c, (uint64_t)((s * M + m) * N + n));
			for (int64_t k = 0; k < K; k++)
				gemm += el(a, (uint64_t)(m * K + k)) * el(b, (uint64_t)(n * K + k));
			ck_assert_msg(sum == gemm, "split K: the partials of (%lld, %lld) sum to %g, the GEMM is %g",
				(long long)m, (long long)n, sum, gemm);
		}
	free(ref);
	ex_close(&ex);
}
END_TEST

/* c[b, m, n] = sum_k a[b, m, k] b[b, n, k]: an iterate over B around the
 * K loop, the write inside the outer loop. */
START_TEST(sequential_batched_gemm)
{
	Example ex;
	ex_open(&ex, "../tests/driver/wave/sequential_batched_gemm", NULL);
	InterpArg *a = ex_arg(&ex, "a"), *b = ex_arg(&ex, "b"), *c = ex_arg(&ex, "c");
	int64_t B = a->shape[0], M = a->shape[1], K = a->shape[2], N = b->shape[1];
	fill(a, 26, -2, 2, 1.0 / 64);
	fill(b, 27, -2, 2, 1.0 / 64);
	fill(c, 28, 50, 51, 1);
	ex_run(&ex);
	double *ref = xcalloc((size_t)(B * M * N), sizeof(double));
	for (int64_t bb = 0; bb < B; bb++)
		for (int64_t m = 0; m < M; m++)
			for (int64_t n = 0; n < N; n++)
				for (int64_t k = 0; k < K; k++)
					ref[(bb * M + m) * N + n] += el(a, (uint64_t)((bb * M + m) * K + k)) *
						el(b, (uint64_t)((bb * N + n) * K + k));
	expect_close("sequential_batched_gemm", c, ref, 0, 0);
	free(ref);
	ex_close(&ex);
}
END_TEST

/* c = a + b over [B, H, G, M, N] with B, H, G on workgroup dims 2, 3, 4. */
START_TEST(folded_workgroup_dims)
{
	Example ex;
	ex_open(&ex, "../tests/driver/data/add_folded_wg", NULL);
	InterpArg *a = ex_arg(&ex, "a"), *b = ex_arg(&ex, "b"), *c = ex_arg(&ex, "c");
	fill(a, 29, -2, 2, 1.0 / 64);
	fill(b, 30, -2, 2, 1.0 / 64);
	fill(c, 31, 50, 51, 1);
	ex_run(&ex);
	uint64_t n = 1;
	for (int i = 0; i < a->rank; i++)
		n *= (uint64_t)a->shape[i];
	double *ref = xcalloc(n, sizeof(double));
	for (uint64_t i = 0; i < n; i++)
		ref[i] = el(a, i) + el(b, i);
	expect_close("add_folded_wg", c, ref, 0, 0);
	free(ref);
	ex_close(&ex);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("interp.loops");
	TCase *tc = tcase_create("loops");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, nested_iterates_carry_values);
	tcase_add_test(tc, split_k_start_and_iters);
	tcase_add_test(tc, sequential_batched_gemm);
	tcase_add_test(tc, folded_workgroup_dims);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
