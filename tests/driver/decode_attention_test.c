/* decode_attention_test.c — Wave's decode attention (tests/kernel/attention/
 * decode_attention_test.py::testFlashDecoding, templates/decode_attention.py)
 * compiled and run in its two launches, checked the way the Wave test checks
 * it: against softmax(q·kᵀ)·v computed here in double.
 *
 * wave_test.c runs each phase against the interpreter on random inputs; this
 * test chains the compiled kernels as the host does: phase 0 (K2 split into
 * U = K2 / 32 slices, one per wave, each writing its partial result and
 * log-sum-exp to its own slot of U) writes .npy files that phase 1 (the loop
 * over U combining the slots) reads. A slot written by the wrong wave, or
 * not at all, changes the combined result.
 *
 * Inputs: q is pre-scaled by log2(e)/sqrt(K1) as the Wave test does on the
 * host (the kernels use exp2), k and v uniform in [-1, 1), all rounded to
 * f16 here; the reference uses exp2 on the same f16 values, so only the
 * kernels' own rounding remains: the probabilities cast to f16 before the
 * second mma (2^-11 relative each). Wave's tolerance against torch is
 * atol = rtol = 1e-3; phase 0 is compared with the interpreter at the same
 * tolerance, as the kernel's exp2 can differ from the interpreter's in the
 * last f32 bit, which can round a probability to the neighbouring f16. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/dtype.h"
#include "../../util/npy.h"
#include "../test.h"
#include "ref_inputs.h"

typedef struct {
	const char *mma;             /* phase 0 file suffix: the MMA type */
	int B, M, N, K1, K2;         /* Wave's shape, B shrunk */
} DecodeCase;

/* get_test_shapes("decode_attention") = the attention shapes (B, M, N, K1,
 * K2): (8, 128, 128, 64, 256) and (40, 1024, 64, 64, 1024). The second
 * runs with B = 2 and M = 128 (its 32 slots of U, N = 64), and as Wave
 * has it but for B = 2 with WAVECC_WAVE_SLOW=1 (slow_cases: a minute of
 * emulation) */
static const DecodeCase cases[] = {
	{"16x16x16", 8, 128, 128, 64, 256},
	{"32x32x8", 8, 128, 128, 64, 256},
	{"16x16x16", 2, 128, 64, 64, 1024},
	{"32x32x8", 2, 128, 64, 64, 1024},
};
static const DecodeCase slow_cases[] = {
	{"16x16x16", 2, 1024, 64, 64, 1024},
	{"32x32x8", 2, 1024, 64, 64, 1024},
};

/* out[b, m, n] = sum_j 2^(s_j - max s) v[b, n, j] / sum_j 2^(s_j - max s),
 * s_j = sum_c q[b, m, c] k[b, j, c] (v is [B, N, K2], Wave's permuted v) */
static double *reference(const DecodeCase *c, const double *q, const double *k, const double *v)
{
	double *ref = calloc((size_t)c->B * c->M * c->N, sizeof(double));
	double *s = malloc(sizeof(double) * (size_t)c->K2);
	ck_assert(ref && s);
	for (int64_t b = 0; b < c->B; b++)
		for (int64_t m = 0; m < c->M; m++) {
			double mx = -INFINITY, den = 0;
			const double *qr = q + (b * c->M + m) * c->K1;
			for (int64_t j = 0; j < c->K2; j++) {
				const double *kr = k + (b * c->K2 + j) * c->K1;
				s[j] = 0;
				for (int64_t x = 0; x < c->K1; x++)
					s[j] += qr[x] * kr[x];
				mx = fmax(mx, s[j]);
			}
			for (int64_t j = 0; j < c->K2; j++) {
				s[j] = exp2(s[j] - mx);
				den += s[j];
			}
			for (int64_t n = 0; n < c->N; n++) {
				const double *vr = v + (b * c->N + n) * c->K2;
				double acc = 0;
				for (int64_t j = 0; j < c->K2; j++)
					acc += s[j] * vr[j];
				ref[(b * c->M + m) * c->N + n] = acc / den;
			}
		}
	free(s);
	return ref;
}

static void run_phase(const char *fmt_args, const char *what, const char *mcpu)
{
	CmdResult r = test_wavecc("%s --mcpu %s", fmt_args, mcpu);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s on %s: status %d\n%s%s", what, mcpu, r.status,
		r.out, r.err);
	cmd_result_free(&r);
}

static void two_launches(const DecodeCase *c, const char *mcpu, int seed, const char *tag)
{
	char dims[256], args[4096], path[1024], err[256];
	const char *dir = test_tmpdir(tag);
	size_t nq = (size_t)c->B * c->M * c->K1, nk = (size_t)c->B * c->K2 * c->K1, nv = (size_t)c->B * c->N * c->K2;
	uint16_t *hq = malloc(nq * 2), *hk = malloc(nk * 2), *hv = malloc(nv * 2);
	double *q = malloc(nq * sizeof(double)), *k = malloc(nk * sizeof(double)), *v = malloc(nv * sizeof(double));
	ck_assert(hq && hk && hv && q && k && v);
	ref_fill_f16(hq, q, nq, 61 + (uint32_t)seed, 1.44269504089 / sqrt(c->K1));
	ref_fill_f16(hk, k, nk, 71 + (uint32_t)seed, 1);
	ref_fill_f16(hv, v, nv, 81 + (uint32_t)seed, 1);
	ref_write_npy(dir, "q", DT_F16, 3, (int64_t[]){c->B, c->M, c->K1}, hq);
	ref_write_npy(dir, "k", DT_F16, 3, (int64_t[]){c->B, c->K2, c->K1}, hk);
	ref_write_npy(dir, "v", DT_F16, 3, (int64_t[]){c->B, c->N, c->K2}, hv);

	snprintf(dims, sizeof dims, "-D B=%d -D M=%d -D N=%d -D K2=%d", c->B, c->M, c->N, c->K2);
	snprintf(args, sizeof args,
		"run tests/driver/wave/decode_attention_phase0_%s.json %s -D K1=%d --in q='%s/q.npy' --in k='%s/k.npy' "
		"--in v='%s/v.npy' --out output='%s/part.npy' --out output_max='%s/lse.npy' --atol 1e-3 --rtol 1e-3",
		c->mma, dims, c->K1, dir, dir, dir, dir, dir);
	run_phase(args, "phase 0", mcpu);
	snprintf(args, sizeof args,
		"run tests/driver/wave/decode_attention_phase1.json %s --in logits='%s/part.npy' --in "
		"logits_max='%s/lse.npy' --out output='%s/out.npy'",
		dims, dir, dir, dir);
	run_phase(args, "phase 1", mcpu);

	NpyArray out;
	snprintf(path, sizeof path, "%s/out.npy", dir);
	ck_assert_msg(npy_read(path, &out, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_check(&out, "output", DT_F32, 3, (int64_t[]){c->B, c->M, c->N}, err, sizeof err) == 0, "%s",
		err);
	double *ref = reference(c, q, k, v);
	const float *got = out.data;
	for (size_t i = 0; i < out.count; i++) {
		double d = fabs(got[i] - ref[i]);
		ck_assert_msg(d <= 1e-3 + 1e-3 * fabs(ref[i]), "%s B=%d M=%d on %s: output[%zu] = %.6f, reference %.6f",
			c->mma, c->B, c->M, mcpu, i, got[i], ref[i]);
	}
	/* the inputs are not degenerate: the outputs are not all alike */
	ck_assert_msg(fabs(ref[0] - ref[out.count - 1]) > 1e-3, "degenerate reference %g %g", ref[0], ref[out.count - 1]);
	npy_free(&out);
	free(ref);
	free(hq), free(hk), free(hv), free(q), free(k), free(v);
}

START_TEST(decode_two_launches)
{
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	char tag[64];
	snprintf(tag, sizeof tag, "decode_%d_%s", _i, mcpu);
	/* the small second shape's seeds: ones whose first and last outputs
	 * differ (the check that the inputs are not degenerate) */
	two_launches(&cases[_i / 2], mcpu, _i < 4 ? _i : _i + 16, tag);
}
END_TEST

START_TEST(decode_two_launches_slow)
{
	const char *mcpu = _i % 2 ? "gfx90a" : "gfx942";
	char tag[64];
	snprintf(tag, sizeof tag, "decode_slow_%d_%s", _i, mcpu);
	two_launches(&slow_cases[_i / 2], mcpu, 4 + _i, tag);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("driver.decode_attention");
	TCase *tc = tcase_create("two_launches");
	tcase_set_timeout(tc, 120);
	test_add_loop_sampled(tc, decode_two_launches, (int)(2 * ARRAY_LEN(cases)));
	suite_add_tcase(s, tc);
	const char *slow = getenv("WAVECC_WAVE_SLOW");
	if (slow && strcmp(slow, "1") == 0) {
		TCase *ts = tcase_create("slow");
		tcase_set_timeout(ts, 600);
		tcase_add_loop_test(ts, decode_two_launches_slow, 0, (int)(2 * ARRAY_LEN(slow_cases)));
		suite_add_tcase(s, ts);
	}
	return run_suite(s);
}
