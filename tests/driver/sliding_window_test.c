/* sliding_window_test.c — Wave's causal sliding-window attention
 * (templates/vanilla_attention.py: `m - k2 <= window` with the window an
 * i64 register, isel/index64.c) compiled with a window that masks, checked
 * against softmax computed here in double.
 *
 * At Wave's own shapes (wave_test.c) the window of 1024 never masks
 * (m - k2 <= 1023); tests/driver/data/attention_sliding_window_40_*.json
 * are the transcribed kernels with the window at 40, run at B = 2, M = 128,
 * K2 = 200 (unaligned to BLOCK_K2 = 64): rows past 40 lose keys to the
 * window. `wavecc run` compares the compiled kernel with the interpreter;
 * this test also compares its output with an independent reference and
 * checks the reference differs from plain causal attention, so a window the
 * kernel ignored, or applied off by one, fails.
 *
 * Inputs: q, k, v uniform in [-1, 1), rounded to f16 here. The kernel
 * scales q·k by log2(e)/sqrt(K1) and uses exp2, as the reference does; the
 * remaining difference is the probabilities' rounding to f16 before the
 * second mma (Wave's tolerance against torch: atol = rtol = 1e-3). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/dtype.h"
#include "../../util/npy.h"
#include "../test.h"
#include "ref_inputs.h"

enum { B = 2, M = 128, N = 128, K1 = 64, K2 = 200, WINDOW = 40 };

static const char *const files[] = {"attention_sliding_window_40_32x32x8.json",
	"attention_sliding_window_40_16x16x16.json"};

/* out[b, m, n] = sum_j p_j v[b, n, j] / sum_j p_j over the keys j <= m
 * with m - j <= window (window < 0: causal only), p_j = 2^(s_j - max s),
 * s_j = scale * q[b, m]·k[b, j]; v is [B, N, K2] (V transposed) */
static double *reference(const double *q, const double *k, const double *v, int window)
{
	double *ref = calloc((size_t)B * M * N, sizeof(double)), s[K2];
	ck_assert(ref != NULL);
	const double scale = 1.4426950408889634 / sqrt(K1);
	for (int b = 0; b < B; b++)
		for (int m = 0; m < M; m++) {
			int lo = window < 0 || m - window < 0 ? 0 : m - window, hi = m < K2 - 1 ? m : K2 - 1;
			double mx = -INFINITY, den = 0;
			for (int j = lo; j <= hi; j++) {
				s[j] = 0;
				for (int x = 0; x < K1; x++)
					s[j] += q[((size_t)b * M + m) * K1 + x] * k[((size_t)b * K2 + j) * K1 + x];
				s[j] *= scale;
				mx = fmax(mx, s[j]);
			}
			for (int j = lo; j <= hi; j++) {
				s[j] = exp2(s[j] - mx);
				den += s[j];
			}
			for (int n = 0; n < N; n++) {
				double acc = 0;
				for (int j = lo; j <= hi; j++)
					acc += s[j] * v[((size_t)b * N + n) * K2 + j];
				ref[((size_t)b * M + m) * N + n] = acc / den;
			}
		}
	return ref;
}

START_TEST(window_masks)
{
	const char *file = files[_i / 2], *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	char tag[64], path[1024], err[256];
	snprintf(tag, sizeof tag, "sliding_window_%d", _i);
	const char *dir = test_tmpdir(tag);
	size_t nq = (size_t)B * M * K1, nk = (size_t)B * K2 * K1, nv = (size_t)B * N * K2;
	uint16_t *hq = malloc(nq * 2), *hk = malloc(nk * 2), *hv = malloc(nv * 2);
	double *q = malloc(nq * sizeof(double)), *k = malloc(nk * sizeof(double)), *v = malloc(nv * sizeof(double));
	ck_assert(hq && hk && hv && q && k && v);
	ref_fill_f16(hq, q, nq, 31, 1);
	ref_fill_f16(hk, k, nk, 37, 1);
	ref_fill_f16(hv, v, nv, 41, 1);
	ref_write_npy(dir, "q", DT_F16, 3, (int64_t[]){B, M, K1}, hq);
	ref_write_npy(dir, "k", DT_F16, 3, (int64_t[]){B, K2, K1}, hk);
	ref_write_npy(dir, "v", DT_F16, 3, (int64_t[]){B, N, K2}, hv);

	CmdResult r = test_wavecc("run tests/driver/data/%s -D B=%d -D M=%d -D N=%d -D K1=%d -D K2=%d --mcpu %s "
				  "--in q='%s/q.npy' --in k='%s/k.npy' --in v='%s/v.npy' --out c='%s/c.npy' "
				  "--atol 1e-3 --rtol 1e-3",
		file, B, M, N, K1, K2, mcpu, dir, dir, dir, dir);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s on %s: status %d\n%s%s", file, mcpu, r.status,
		r.out, r.err);
	cmd_result_free(&r);

	NpyArray out;
	snprintf(path, sizeof path, "%s/c.npy", dir);
	ck_assert_msg(npy_read(path, &out, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_check(&out, "c", DT_F32, 3, (int64_t[]){B, M, N}, err, sizeof err) == 0, "%s", err);
	double *ref = reference(q, k, v, WINDOW), *causal = reference(q, k, v, -1);
	const float *got = out.data;
	double moved = 0; /* how far the window moves the output from plain causal attention */
	for (size_t i = 0; i < out.count; i++) {
		double d = fabs(got[i] - ref[i]);
		ck_assert_msg(d <= 1e-3 + 1e-3 * fabs(ref[i]), "%s on %s: c[%zu] (row %zu) = %.6f, reference %.6f", file,
			mcpu, i, i / N % M, got[i], ref[i]);
		moved = fmax(moved, fabs(ref[i] - causal[i]));
	}
	/* the window masks: rows past it differ from causal attention by far
	 * more than the tolerance */
	ck_assert_msg(moved > 0.05, "the window of %d does not change the reference (%g)", WINDOW, moved);
	npy_free(&out);
	free(ref), free(causal);
	free(hq), free(hk), free(hv), free(q), free(k), free(v);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver.sliding_window");
	TCase *tc = tcase_create("window_masks");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, window_masks, 0, (int)(2 * ARRAY_LEN(files)));
	suite_add_tcase(s, tc);
	return run_suite(s);
}
