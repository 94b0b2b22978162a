/* attention_test.c — the interpreter on the attention examples against a
 * naive attention computed here in double:
 *   s[b,m,j] = sum_k1 q[b,m,k1] * k[b,j,k1]
 *   c[b,m,n] = sum_j 2^(s[b,m,j] - max_j s) * v[b,n,j] / sum_j 2^(s - max)
 * (Wave's kernels use exp2; the host pre-scales q by log2(e)/sqrt(K1), which
 * the test leaves out since it does not change the kernel.)
 *
 * Vanilla attention runs the online softmax inside an iterate over K2;
 * decode attention splits K2 across waves and workgroups in phase 0 and
 * combines the U partial results in phase 1 (the test passes phase 0's
 * outputs to phase 1 through the library, as the two launches would).
 *
 * Tolerance: the kernels round the probabilities to f16 before the second
 * mma (relative error up to 2^-11 each), so 2e-3 absolute plus 2e-3
 * relative on outputs of magnitude below 1. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"

static double *reference(const InterpArg *q, const InterpArg *k, const InterpArg *v, int64_t B, int64_t M,
	int64_t N, int64_t K1, int64_t K2)
{
	double *ref = xcalloc((size_t)(B * M * N), sizeof(double));
	double *s = xmalloc(sizeof(double) * (size_t)K2);
	for (int64_t b = 0; b < B; b++)
		for (int64_t m = 0; m < M; m++) {
			double mx = -INFINITY, den = 0;
			for (int64_t j = 0; j < K2; j++) {
				s[j] = 0;
				for (int64_t c = 0; c < K1; c++)
					s[j] += el(q, (uint64_t)((b * M + m) * K1 + c)) * el(k, (uint64_t)((b * K2 + j) * K1 + c));
				mx = fmax(mx, s[j]);
			}
			for (int64_t j = 0; j < K2; j++) {
				s[j] = exp2(s[j] - mx);
				den += s[j];
			}
			for (int64_t n = 0; n < N; n++) {
				double acc = 0;
				for (int64_t j = 0; j < K2; j++)
					acc += s[j] * el(v, (uint64_t)((b * N + n) * K2 + j));
				ref[(b * M + m) * N + n] = acc / den;
			}
		}
	free(s);
	return ref;
}

START_TEST(vanilla_attention_online_softmax)
{
	Example ex;
	ex_open(&ex, "attention", NULL);
	InterpArg *q = ex_arg(&ex, "q"), *k = ex_arg(&ex, "k"), *v = ex_arg(&ex, "v"), *c = ex_arg(&ex, "c");
	int64_t B = q->shape[0], M = q->shape[1], K1 = q->shape[2], K2 = k->shape[1], N = v->shape[1];
	ck_assert_int_gt(K2, 64); /* more than one loop step */
	fill(q, 31, -0.5, 0.5, 1.0 / 256);
	fill(k, 32, -0.5, 0.5, 1.0 / 256);
	fill(v, 33, -1, 1, 1.0 / 256);
	ex_run(&ex);
	double *ref = reference(q, k, v, B, M, N, K1, K2);
	expect_close("attention", c, ref, 2e-3, 2e-3);
	free(ref);
	ex_close(&ex);
}
END_TEST

START_TEST(masked_attention_unaligned_k2)
{
	/* The vanilla_attention template's bias mask (self_index, apply_expr
	 * `x < K2`, select between 0 and -1e6) on K2 = 100 with BLOCK_K2 = 64:
	 * the second step's last 28 keys read zero and must be masked out. */
	Example ex;
	ex_open(&ex, "attention_masked", NULL);
	InterpArg *q = ex_arg(&ex, "q"), *k = ex_arg(&ex, "k"), *v = ex_arg(&ex, "v"), *c = ex_arg(&ex, "c");
	int64_t B = q->shape[0], M = q->shape[1], K1 = q->shape[2], K2 = k->shape[1], N = v->shape[1];
	ck_assert_int_eq(K2, 100);
	fill(q, 34, -0.5, 0.5, 1.0 / 256);
	fill(k, 35, -0.5, 0.5, 1.0 / 256);
	fill(v, 36, -1, 1, 1.0 / 256);
	ex_run(&ex);
	double *ref = reference(q, k, v, B, M, N, K1, K2);
	expect_close("masked attention", c, ref, 2e-3, 2e-3);
	free(ref);
	ex_close(&ex);
}
END_TEST

START_TEST(decode_attention_two_phases)
{
	Example p0, p1;
	ex_open(&p0, "decode_attention_phase0", NULL);
	ex_open(&p1, "decode_attention_phase1", NULL);
	InterpArg *q = ex_arg(&p0, "q"), *k = ex_arg(&p0, "k"), *v = ex_arg(&p0, "v");
	InterpArg *o0 = ex_arg(&p0, "output"), *m0 = ex_arg(&p0, "output_max");
	InterpArg *l1 = ex_arg(&p1, "logits"), *lm1 = ex_arg(&p1, "logits_max"), *out = ex_arg(&p1, "output");
	int64_t B = q->shape[0], M = q->shape[1], K1 = q->shape[2], K2 = k->shape[1], N = v->shape[1];
	ck_assert_int_eq(o0->shape[0], 8); /* U = K2 / (BLOCK_K2 / K_WAVES) splits */
	ck_assert_int_eq(l1->count, o0->count);
	ck_assert_int_eq(lm1->count, m0->count);
	fill(q, 41, -0.5, 0.5, 1.0 / 256);
	fill(k, 42, -0.5, 0.5, 1.0 / 256);
	fill(v, 43, -1, 1, 1.0 / 256);
	fill(o0, 44, 50, 51, 1);
	fill(m0, 45, 50, 51, 1);
	ex_run(&p0);
	memcpy(l1->data, o0->data, o0->count * sizeof(float));
	memcpy(lm1->data, m0->data, m0->count * sizeof(float));
	ex_run(&p1);
	double *ref = reference(q, k, v, B, M, N, K1, K2);
	expect_close("decode attention", out, ref, 2e-3, 2e-3);
	free(ref);
	ex_close(&p0);
	ex_close(&p1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("interp.attention");
	TCase *tc = tcase_create("examples");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, vanilla_attention_online_softmax);
	tcase_add_test(tc, masked_attention_unaligned_k2);
	tcase_add_test(tc, decode_attention_two_phases);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
