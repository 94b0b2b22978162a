/* topk_test.c — topk end to end: Wave's kernel (tests/driver/wave/topk.json,
 * also in wave_test.c) and its variants in tests/driver/topk/ through
 * `wavecc run` on gfx942 and gfx90a (adversarially on gfx90a), on the seeded
 * fill (values that repeat: ties) and on rows of IEEE special values (NaNs
 * of both signs, infinities, signed zeros, repeats), which the format
 * orders by totalOrder; and the located errors of what is not compiled. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../util/dtype.h"
#include "../../util/npy.h"
#include "../test.h"

static const char *const targets[] = {"gfx942", "gfx90a"};
static const char *const adverse =
	"--wave-order random --wg-order reverse --fill garbage --memory late --races --canary --order-seed 5";

/* topk_partial: N = 100 under a vector shape of 128 (lanes past the dim
 * hold no element), two rows per wave, k 5 */
static const char *const files[] = {"wave/topk.json", "topk/topk_f32.json", "topk/topk_bf16.json",
	"topk/topk_i32.json", "topk/topk_u32.json", "topk/topk_partial.json"};

START_TEST(topk_kernels_pass)
{
	const char *f = files[_i / 2], *t = targets[_i % 2];
	CmdResult r = test_wavecc("run tests/driver/%s --mcpu %s --seed %d %s", f, t, 7 + _i, _i % 2 ? adverse : "");
	ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s on %s: status %d\n%s%s", f, t, r.status, r.out,
		      r.err);
	cmd_result_free(&r);
}
END_TEST

/* Rows of special values in f32 and f16: the values and indices must
 * match the interpreter's totalOrder exactly. */
START_TEST(topk_special_values)
{
	static const uint32_t special[] = {0x7fc00000, 0xffc00000, 0x7f800000, 0xff800000, 0, 0x80000000,
		0x3f800000, 0xbf800000, 0x40200000, 0x3f000000, 0x7fc00001};
	enum { M = 32, N = 64 };
	float v[M * N];
	uint16_t h[M * N];
	uint64_t seed = 12345;
	for (int i = 0; i < M * N; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t b = special[(seed >> 33) % ARRAY_LEN(special)];
		memcpy(&v[i], &b, 4);
		h[i] = (uint16_t)dtype_f32_to_f16(v[i]);
	}
	char path[4096], err[256];
	int64_t shape[2] = {M, N};
	for (int f16 = 0; f16 < 2; f16++) {
		snprintf(path, sizeof path, "%s/special_%s.npy", test_tmpdir("topk_special"), f16 ? "f16" : "f32");
		ck_assert_msg(npy_write(path, f16 ? DT_F16 : DT_F32, 2, shape, f16 ? (const void *)h : (const void *)v, err,
				      sizeof err) == 0,
			"%s", err);
		for (int t = 0; t < 2; t++) {
			CmdResult r = test_wavecc("run tests/driver/%s -D K=8 --in a=%s --mcpu %s %s",
				f16 ? "wave/topk.json" : "topk/topk_f32.json", path, targets[t], t ? adverse : "");
			ck_assert_msg(r.status == 0 && strstr(r.out, "\nPASS\n"), "%s on %s: status %d\n%s%s", path, targets[t],
				r.status, r.out, r.err);
			cmd_result_free(&r);
		}
	}
}
END_TEST

/* The interpreter's order on one row: +NaN first (the lower index of two),
 * then +inf, 2.5, 1, +0, -0, -1, -inf, -NaN. */
START_TEST(topk_interp_order)
{
	static const uint32_t row[] = {0xbf800000, 0x80000000, 0x7fc00000, 0xff800000, 0, 0x3f800000, 0xffc00000,
		0x7f800000, 0x40200000, 0x7fc00000};
	enum { N = 64 };
	float v[N];
	for (int i = 0; i < N; i++) {
		uint32_t b = i < (int)ARRAY_LEN(row) ? row[i] : 0xff800000; /* -inf below: after the row's own */
		memcpy(&v[i], &b, 4);
	}
	char in[4096], vo[4096], io[4096], err[256];
	const char *dir = test_tmpdir("topk_order");
	snprintf(in, sizeof in, "%s/a.npy", dir);
	snprintf(vo, sizeof vo, "%s/v.npy", dir);
	snprintf(io, sizeof io, "%s/i.npy", dir);
	int64_t shape[2] = {1, N};
	ck_assert_msg(npy_write(in, DT_F32, 2, shape, v, err, sizeof err) == 0, "%s", err);
	CmdResult r = test_wavecc("interp tests/driver/topk/topk_f32.json -D M=1 -D N=64 -D K=8 --in a=%s --out values=%s "
				  "--out indices=%s",
		in, vo, io);
	ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
	cmd_result_free(&r);
	NpyArray va, ia;
	ck_assert_msg(npy_read(vo, &va, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(npy_read(io, &ia, err, sizeof err) == 0, "%s", err);
	static const int want_idx[] = {2, 9, 7, 8, 5, 4, 1, 0};
	const float *got = va.data;
	const int32_t *gi = ia.data;
	for (int k = 0; k < 8; k++)
		ck_assert_msg(gi[k] == want_idx[k], "index %d: got %d, want %d", k, gi[k], want_idx[k]);
	ck_assert(isnan(got[0]) && !signbit(got[0]) && isinf(got[2]) && got[3] == 2.5f && got[5] == 0 && !signbit(got[5]) &&
		  got[6] == 0 && signbit(got[6]) && got[7] == -1);
	npy_free(&va);
	npy_free(&ia);
}
END_TEST

/* file (tests/driver/topk/), the expected message after "error: " */
static const struct {
	const char *file, *msg;
} rejected[] = {
	/* the race check's: each wave's own top k written to the same elements */
	{"topk_split_rejected", "graph[4]: values has no dim N, but the topk graph[1] reduces over N and N is split over 2 "
				"waves: each would write its partial result to the same elements of values (a race); a "
				"reduction across waves is not supported\n"},
	{"topk_k_rejected", "graph[1]: topk along N: k_dim must be in [1, the dim's extent]: it is not compiled yet"},
	{"topk_bad_kdim", "graph[1].k_dim: shape mismatch: 'src' f16[M, N] has dim 'N' already"},
};

START_TEST(topk_bad_input_is_located)
{
	const char *f = rejected[_i].file;
	CmdResult r = test_wavecc("run tests/driver/topk/%s.json --seed 1", f);
	ck_assert_msg(r.status == 1, "%s: status %d\n%s%s", f, r.status, r.out, r.err);
	ck_assert_msg(strstr(r.err, f) && strstr(r.err, rejected[_i].msg), "%s: want '%s'\n%s", f, rejected[_i].msg,
		      r.err);
	cmd_result_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("topk");
	TCase *tc = tcase_create("topk");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, topk_kernels_pass, 0, (int)(2 * ARRAY_LEN(files)));
	tcase_add_test(tc, topk_special_values);
	tcase_add_test(tc, topk_interp_order);
	tcase_add_loop_test(tc, topk_bad_input_is_located, 0, (int)ARRAY_LEN(rejected));
	suite_add_tcase(s, tc);
	return run_suite(s);
}
