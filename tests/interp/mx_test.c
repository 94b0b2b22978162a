/* mx_test.c — the interpreter's scaled_mma (OCP Microscaling) against
 * references computed here: the kernels of wave_gemm_mxfp_test.py
 * (tests/driver/wave/ and their dynamic-shape copies in tests/interp/data/)
 * on i8 buffers holding packed e2m1 pairs, OCP f8 codes and e8m0 scales.
 *
 * The test decodes the formats itself (the e2m1 table of Wave's
 * mxfp_utils.py, e5m2 / e4m3 and 2^(s - 127) from the bit fields), never
 * through util/dtype.c, and sums in double. With Wave's data (e2m1 values,
 * scales 2^-3 .. 1) every partial sum is a multiple of 2^-8 below 2^15, so
 * the interpreter's f32 accumulation is exact and must equal the reference
 * bit for bit; the f8 cases round, and are compared with a float loop adding
 * the exact products in k order (the interpreter's documented order). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const double E2M1[16] = {0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6};

typedef struct {
	Kernel *k;
	Interp in;
	Diag d;
} Mx;

/* path under the repository root; dyn: M, N, K (or NULL) */
static void mx_open(Mx *x, const char *path, const int64_t *dyn)
{
	char p[1024];
	snprintf(p, sizeof p, "%s/%s", test_root(), path);
	diag_init(&x->d);
	x->k = load_kernel_file(p, &x->d);
	ck_assert_msg(x->k != NULL, "%s does not load", p);
	ck_assert_msg(interp_init(&x->in, x->k, dyn, &x->d) == 0, "%s: interp_init failed", p);
}

static void mx_close(Mx *x)
{
	interp_free(&x->in);
	kernel_free(x->k);
}

static InterpArg *arg(Mx *x, const char *name)
{
	InterpArg *a = interp_arg(&x->in, name);
	ck_assert_msg(a != NULL, "no argument %s", name);
	return a;
}

static uint64_t rng(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

/* random bytes; scales (scale != 0) 124..127 as Wave's inputs */
static void fill_bytes(InterpArg *a, uint64_t seed, bool scale)
{
	uint8_t *p = a->data;
	for (uint64_t i = 0; i < a->count; i++)
		p[i] = scale ? (uint8_t)(124 + rng(&seed) % 4) : (uint8_t)rng(&seed);
}

static double e8m0(uint8_t c) { return c == 0xff ? NAN : ldexp(1.0, (int)c - 127); }

/* element k of row r of packed f4 data with kb bytes per row */
static double f4_at(const InterpArg *a, int64_t r, int64_t k, int64_t kb)
{
	uint8_t b = ((const uint8_t *)a->data)[r * kb + k / 2];
	return E2M1[k % 2 ? b >> 4 : b & 0xf];
}

/* OCP f8 from its fields: e5m2 (bias 15, IEEE-like) or e4m3fn (bias 7,
 * S.1111.111 NaN) */
static double f8_at(const InterpArg *a, uint64_t i, bool e5)
{
	unsigned c = ((const uint8_t *)a->data)[i];
	int mb = e5 ? 2 : 3, bias = e5 ? 15 : 7, emax = e5 ? 31 : 15;
	unsigned e = (c >> mb) & (unsigned)emax, m = c & ((1u << mb) - 1);
	double s = c & 0x80 ? -1 : 1;
	if (e5 && (int)e == emax)
		return m ? NAN : s * INFINITY;
	if (!e5 && (c & 0x7f) == 0x7f)
		return NAN;
	return s * (e ? ldexp(1.0 + m / (double)(1 << mb), (int)e - bias) : ldexp((double)m, 1 - bias - mb));
}

/* c = sum_k a[m,k]·sa[m,k/32] · b[n,k]·sb[n,k/32] over f4 operands. */
static void ref_f4(const InterpArg *a, const InterpArg *sa, const InterpArg *b, const InterpArg *sb, int64_t M,
	int64_t N, int64_t K, bool sa_1d, double *ref)
{
	int64_t kb = K / 2, ks = K / 32;
	for (int64_t m = 0; m < M; m++)
		for (int64_t n = 0; n < N; n++) {
			double s = 0;
			for (int64_t k = 0; k < K; k++) {
				double x = f4_at(a, m, k, kb) * e8m0(((uint8_t *)sa->data)[sa_1d ? m : m * ks + k / 32]);
				double y = f4_at(b, n, k, kb) * e8m0(((uint8_t *)sb->data)[n * ks + k / 32]);
				s += x * y;
			}
			ref[m * N + n] = s;
		}
}

static void run(Mx *x)
{
	ck_assert_msg(interp_run(&x->in) == 0, "interp_run failed (diagnostics above)");
}

/* Hand-checked values: every e2m1 code 2 (1.0) and scale 127 (1.0) gives
 * c = K; row 0's second block at scale 128 (2.0) adds 32; a[0][0] = 0x70
 * (element 0 is 0.0, element 1 is 6.0: low nibble first) adds -1 + 5;
 * b[5][0] = 0xa2 (element 1 is -1.0) takes 2 from column 5; b_scale
 * 0xff (NaN) for column 3's first block makes that column NaN. */
START_TEST(mxfp4_hand_checked)
{
	Mx x;
	const int64_t M = 32, N = 32, K = 256, dyn[3] = {M, N, K};
	mx_open(&x, "tests/driver/wave/scaled_gemm_mxfp4_dyn.json", dyn);
	InterpArg *a = arg(&x, "a"), *sa = arg(&x, "a_scale"), *b = arg(&x, "b"), *sb = arg(&x, "b_scale");
	InterpArg *c = arg(&x, "c");
	memset(a->data, 0x22, a->count);
	memset(b->data, 0x22, b->count);
	memset(sa->data, 127, sa->count);
	memset(sb->data, 127, sb->count);
	((uint8_t *)sa->data)[1] = 128;
	((uint8_t *)a->data)[0] = 0x70;
	((uint8_t *)b->data)[5 * K / 2] = 0xa2;
	((uint8_t *)sb->data)[3 * K / 32] = 0xff;
	run(&x);
	const float *v = c->data;
	ck_assert_float_eq(v[0 * N + 0], 256 + 32 + 4);
	ck_assert_float_eq(v[0 * N + 5], 256 + 32 + (0 * 1 + 6 * -1) - 2); /* a: 0, 6; b: 1, -1 */
	ck_assert_float_eq(v[7 * N + 0], 256);
	ck_assert_float_eq(v[7 * N + 5], 256 - 2);
	ck_assert_float_eq(v[31 * N + 31], 256);
	for (int64_t m = 0; m < M; m++)
		ck_assert_msg(isnan(v[m * N + 3]), "c[%lld][3] = %g, not NaN (a NaN scale)", (long long)m, v[m * N + 3]);
	mx_close(&x);
}
END_TEST

/* Random MXFP4 data at an aligned and an unaligned shape (reads past M, N
 * give 0 and writes are dropped), against the double loop, bit for bit. */
static void mxfp4_random(int64_t M, int64_t N, int64_t K, uint64_t seed)
{
	Mx x;
	const int64_t dyn[3] = {M, N, K};
	mx_open(&x, "tests/driver/wave/scaled_gemm_mxfp4_dyn.json", dyn);
	InterpArg *a = arg(&x, "a"), *sa = arg(&x, "a_scale"), *b = arg(&x, "b"), *sb = arg(&x, "b_scale");
	fill_bytes(a, seed, false);
	fill_bytes(b, seed + 1, false);
	fill_bytes(sa, seed + 2, true);
	fill_bytes(sb, seed + 3, true);
	run(&x);
	double *ref = xcalloc((size_t)(M * N), sizeof(double));
	ref_f4(a, sa, b, sb, M, N, K, false, ref);
	expect_close("mxfp4", arg(&x, "c"), ref, 0, 0);
	free(ref);
	mx_close(&x);
}

START_TEST(mxfp4_random_vs_double)
{
	mxfp4_random(96, 64, 768, 11);
	mxfp4_random(100, 70, 512, 12);
}
END_TEST

/* testBroadcastedScaleGemmMXFP4: a_scale [M], one scale for all of a row */
START_TEST(mxfp4_broadcast_scale)
{
	Mx x;
	const int64_t M = 64, N = 64, K = 512, dyn[3] = {M, N, K};
	mx_open(&x, "tests/interp/data/broadcasted_scale_gemm_mxfp4_dyn.json", dyn);
	InterpArg *a = arg(&x, "a"), *sa = arg(&x, "a_scale"), *b = arg(&x, "b"), *sb = arg(&x, "b_scale");
	ck_assert_int_eq(sa->rank, 1);
	fill_bytes(a, 21, false);
	fill_bytes(b, 22, false);
	fill_bytes(sa, 23, true);
	fill_bytes(sb, 24, true);
	run(&x);
	double *ref = xcalloc((size_t)(M * N), sizeof(double));
	ref_f4(a, sa, b, sb, M, N, K, true, ref);
	expect_close("broadcast scale", arg(&x, "c"), ref, 0, 0);
	free(ref);
	mx_close(&x);
}
END_TEST

/* The preshuffled-scale kernel reads scales through Wave's e8m0_shuffle
 * mapping: the buffers hold the shuffled scales (the permutation written
 * out here from mxfp_utils.py), the reference reads the plain ones. */
START_TEST(mxfp4_preshuffled_scales)
{
	Mx x;
	const int64_t M = 256, N = 256, K = 1792, dyn[3] = {M, N, K}; /* K > 6 * BLOCK_K */
	mx_open(&x, "tests/interp/data/scaled_gemm_mxfp4_preshuffle_scales_dyn.json", dyn);
	InterpArg *a = arg(&x, "a"), *sa = arg(&x, "a_scale"), *b = arg(&x, "b"), *sb = arg(&x, "b_scale");
	fill_bytes(a, 31, false);
	fill_bytes(b, 32, false);
	InterpArg *sc[2] = {sa, sb};
	uint8_t *plain[2];
	int64_t ks = K / 32;
	for (int t = 0; t < 2; t++) {
		fill_bytes(sc[t], 33 + (uint64_t)t, true);
		plain[t] = xmalloc(sc[t]->count);
		memcpy(plain[t], sc[t]->data, sc[t]->count);
		/* view (256/32, 2, 16, ks/8, 2, 4), permute (0, 3, 5, 2, 4, 1) */
		uint8_t *o = sc[t]->data;
		size_t w = 0;
		for (int64_t p = 0; p < 256 / 32; p++)
			for (int64_t d = 0; d < ks / 8; d++)
				for (int64_t f = 0; f < 4; f++)
					for (int64_t cc = 0; cc < 16; cc++)
						for (int64_t e = 0; e < 2; e++)
							for (int64_t q = 0; q < 2; q++)
								o[w++] = plain[t][(p * 32 + q * 16 + cc) * ks + d * 8 + e * 4 + f];
	}
	run(&x);
	memcpy(sa->data, plain[0], sa->count);
	memcpy(sb->data, plain[1], sb->count);
	double *ref = xcalloc((size_t)(M * N), sizeof(double));
	ref_f4(a, sa, b, sb, M, N, K, false, ref);
	expect_close("preshuffled scales", arg(&x, "c"), ref, 0, 0);
	free(ref);
	free(plain[0]);
	free(plain[1]);
	mx_close(&x);
}
END_TEST

/* MXFP8 (e5m2 on F32_16x16x128, e4m3fn on F32_32x32x64): f32 sums that
 * round, compared with a float loop over the exact products in k order. */
static void mxfp8(const char *path, bool e5, uint64_t seed)
{
	Mx x;
	const int64_t M = 64, N = 96, K = 512, dyn[3] = {M, N, K};
	mx_open(&x, path, dyn);
	InterpArg *a = arg(&x, "a"), *sa = arg(&x, "a_scale"), *b = arg(&x, "b"), *sb = arg(&x, "b_scale");
	fill_bytes(a, seed, false);
	fill_bytes(b, seed + 1, false);
	fill_bytes(sa, seed + 2, true);
	fill_bytes(sb, seed + 3, true);
	/* no NaN or infinity codes in the data */
	InterpArg *d[2] = {a, b};
	for (int t = 0; t < 2; t++)
		for (uint64_t i = 0; i < d[t]->count; i++)
			if (!isfinite(f8_at(d[t], i, e5)))
				((uint8_t *)d[t]->data)[i] = 0x01;
	run(&x);
	double *ref = xcalloc((size_t)(M * N), sizeof(double));
	int inexact = 0;
	for (int64_t m = 0; m < M; m++)
		for (int64_t n = 0; n < N; n++) {
			float s = 0;
			double exact = 0;
			for (int64_t k = 0; k < K; k++) {
				double p = f8_at(a, (uint64_t)(m * K + k), e5) * e8m0(((uint8_t *)sa->data)[m * K / 32 + k / 32]) *
					   f8_at(b, (uint64_t)(n * K + k), e5) * e8m0(((uint8_t *)sb->data)[n * K / 32 + k / 32]);
				s = s + (float)p; /* p is exact in float */
				exact += p;
			}
			ref[m * N + n] = s;
			inexact += (double)s != exact;
		}
	ck_assert_msg(inexact > 0, "the f8 data must make some f32 sums round");
	expect_close(path, arg(&x, "c"), ref, 0, 0);
	free(ref);
	mx_close(&x);
}

START_TEST(mxfp8_e5m2_and_e4m3)
{
	mxfp8("tests/interp/data/scaled_gemm_mxfp8_dyn.json", true, 41);
	mxfp8("tests/interp/data/scaled_gemm_mxfp8_e4m3_32x32x64_dyn.json", false, 51);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("interp/mx");
	TCase *tc = tcase_create("mx");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, mxfp4_hand_checked);
	tcase_add_test(tc, mxfp4_random_vs_double);
	tcase_add_test(tc, mxfp4_broadcast_scale);
	tcase_add_test(tc, mxfp4_preshuffled_scales);
	tcase_add_test(tc, mxfp8_e5m2_and_e4m3);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
