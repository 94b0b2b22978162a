/* gemm_test.c — the interpreter on the GEMM family of examples against
 * naive loops: v_mfma 16x16x16 and 32x32x8 variants with shared-space
 * operands, a global-only variant, an unaligned shape (100x70x90 on 64x64x32
 * tiles: out-of-bounds reads give zero, writes are dropped), batched GEMM,
 * and conv2d nhwc/hwcf as an implicit GEMM through index mappings.
 *
 * Tolerance: exact. Inputs are multiples of 1/64 in [-2, 2), so every
 * product is a multiple of 2^-12 below 4 in magnitude and every partial sum
 * of up to 144 products fits in 24 bits: f32 accumulation is exact in any
 * order and must equal the double reference bit for bit. One test uses
 * inputs that round: the interpreter must then sum each element's products
 * in k order in f32, as a sequential float loop does — whether the K loop
 * runs trip by trip or (interp/exec.c plain_gemm_body) as one trip. */
#include <stdlib.h>

#include "harness.h"

/* c[b,m,n] = sum_k a[b,m,k] * b[b,n,k] over a batch of nb. */
static void check_gemm(const char *name, int nb)
{
	Example ex;
	ex_open(&ex, name, NULL);
	InterpArg *a = ex_arg(&ex, "a"), *b = ex_arg(&ex, "b"), *c = ex_arg(&ex, "c");
	int r = a->rank;
	int64_t M = a->shape[r - 2], K = a->shape[r - 1], N = b->shape[r - 2];
	fill(a, 11, -2, 2, 1.0 / 64);
	fill(b, 12, -2, 2, 1.0 / 64);
	fill(c, 13, 50, 51, 1); /* every element must be overwritten */
	ex_run(&ex);
	double *ref = xcalloc((size_t)(nb * M * N), sizeof(double));
	for (int64_t bb = 0; bb < nb; bb++)
		for (int64_t m = 0; m < M; m++)
			for (int64_t n = 0; n < N; n++)
				for (int64_t k = 0; k < K; k++)
					ref[(bb * M + m) * N + n] += el(a, (uint64_t)((bb * M + m) * K + k)) *
						el(b, (uint64_t)((bb * N + n) * K + k));
	expect_close(name, c, ref, 0, 0);
	free(ref);
	ex_close(&ex);
}

START_TEST(gemm_mfma_16x16x16_shared)
{
	check_gemm("gemm_16x16x16", 1);
}
END_TEST

START_TEST(gemm_mfma_32x32x8_shared)
{
	check_gemm("gemm_32x32x8", 1);
}
END_TEST

START_TEST(gemm_global_only)
{
	check_gemm("gemm_global", 1);
}
END_TEST

START_TEST(gemm_unaligned_100x70x90)
{
	check_gemm("gemm_unaligned", 1);
}
END_TEST

START_TEST(batched_gemm)
{
	check_gemm("batched_gemm", 3);
}
END_TEST

/* Inputs on a fine grid (steps of 2^-10 in [-4, 4), rounded to f16) make
 * partial sums round in f32; over 7 K trips (K = 200 on tiles of 32, the
 * last partial) the result must be the bits of a float loop adding the
 * exact f16 products in k order. */
START_TEST(gemm_rounding_sums_in_k_order)
{
	Example ex;
	const int64_t dyn[3] = {70, 50, 200}; /* M, N, K */
	ex_open(&ex, "gemm_dynamic", dyn);
	InterpArg *a = ex_arg(&ex, "a"), *b = ex_arg(&ex, "b"), *c = ex_arg(&ex, "c");
	const int64_t M = dyn[0], N = dyn[1], K = dyn[2];
	fill(a, 31, -4, 4, 1.0 / 1024);
	fill(b, 32, -4, 4, 1.0 / 1024);
	fill(c, 33, 50, 51, 1);
	ex_run(&ex);
	double *ref = xcalloc((size_t)(M * N), sizeof(double));
	int inexact = 0;
	for (int64_t m = 0; m < M; m++)
		for (int64_t n = 0; n < N; n++) {
			float acc = 0;
			double exact = 0;
			for (int64_t k = 0; k < K; k++) {
				double p = el(a, (uint64_t)(m * K + k)) * el(b, (uint64_t)(n * K + k));
				acc += (float)p; /* p is exact in float: 11+11 significand bits */
				exact += p;
			}
			ref[m * N + n] = acc;
			inexact += (double)acc != exact;
		}
	ck_assert_msg(inexact > M * N / 2, "the inputs must make f32 sums round (%d of %lld did)", inexact,
		      (long long)(M * N));
	expect_close("gemm_rounding", c, ref, 0, 0);
	free(ref);
	ex_close(&ex);
}
END_TEST

START_TEST(conv2d_igemm_nhwc_hwcf)
{
	/* out[n,ho,wo,f] = sum_{hf,wf,c} x[n, ho*s+hf, wo*s+wf, c] * we[hf,wf,c,f]
	 * (square image and filter: Wave's mapping pairs H with W_OUT/WF). */
	Example ex;
	ex_open(&ex, "conv2d_igemm", NULL);
	InterpArg *x = ex_arg(&ex, "x"), *w = ex_arg(&ex, "we"), *o = ex_arg(&ex, "out");
	int64_t N = x->shape[0], H = x->shape[1], W = x->shape[2], C = x->shape[3];
	int64_t HF = w->shape[0], WF = w->shape[1], NF = w->shape[3];
	int64_t HO = o->shape[1], WO = o->shape[2], s = 1;
	ck_assert_int_eq(HO, H - HF + 1);
	ck_assert_int_eq(WO, W - WF + 1);
	fill(x, 21, -2, 2, 1.0 / 64);
	fill(w, 22, -2, 2, 1.0 / 64);
	fill(o, 23, 50, 51, 1);
	ex_run(&ex);
	double *ref = xcalloc((size_t)o->count, sizeof(double));
	for (int64_t n = 0; n < N; n++)
		for (int64_t ho = 0; ho < HO; ho++)
			for (int64_t wo = 0; wo < WO; wo++)
				for (int64_t f = 0; f < NF; f++) {
					double acc = 0;
					for (int64_t hf = 0; hf < HF; hf++)
						for (int64_t wf = 0; wf < WF; wf++)
							for (int64_t c = 0; c < C; c++)
								acc += el(x, (uint64_t)(((n * H + ho * s + hf) * W + wo * s + wf) * C + c)) *
									el(w, (uint64_t)(((hf * WF + wf) * C + c) * NF + f));
					ref[((n * HO + ho) * WO + wo) * NF + f] = acc;
				}
	expect_close("conv2d", o, ref, 0, 0);
	free(ref);
	ex_close(&ex);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("interp.gemm");
	TCase *tc = tcase_create("examples");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, gemm_mfma_16x16x16_shared);
	tcase_add_test(tc, gemm_mfma_32x32x8_shared);
	tcase_add_test(tc, gemm_global_only);
	tcase_add_test(tc, gemm_unaligned_100x70x90);
	tcase_add_test(tc, batched_gemm);
	tcase_add_test(tc, gemm_rounding_sums_in_k_order);
	tcase_add_test(tc, conv2d_igemm_nhwc_hwcf);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
