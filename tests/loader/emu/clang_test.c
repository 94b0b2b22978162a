/* clang_test.c — kernels from an independent code generator: OpenCL C
 * compiled by clang-19 for gfx942 and for gfx90a (whose encodings, register
 * conventions — private segment buffer in s[0:3] — and MFMA forms differ),
 * taken straight from the relocatable object (.text and the KD decoded by
 * kd_decode), run on the emulator and checked against C references.
 * (Full code objects through `wavecc run` are tests/validate's job.) */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "emu_harness.h"

static const char *ARCHS[] = {"gfx942", "gfx90a"};

/* A wave-wide butterfly sum with ds_bpermute, a DPP row_shr prefix step,
 * readlane, and a divergent branch. */
static const char *REDUCE_CL =
	"__kernel void reduce(__global const int *x, __global int *o) {\n"
	"  int l = __builtin_amdgcn_workitem_id_x();\n"
	"  int g = __builtin_amdgcn_workgroup_id_x();\n"
	"  int v = x[g * 64 + l], s = v;\n"
	"  for (int k = 1; k < 64; k <<= 1)\n"
	"    s += __builtin_amdgcn_ds_bpermute((l ^ k) * 4, s);\n"
	"  int p = v + __builtin_amdgcn_update_dpp(0, v, 0x111, 0xf, 0xf, true);\n"
	"  int r = __builtin_amdgcn_readlane(v, 37);\n"
	"  int d = (v & 1) ? v * 3 : v - 100;\n"
	"  o[(g * 64 + l) * 4 + 0] = s;\n"
	"  o[(g * 64 + l) * 4 + 1] = p;\n"
	"  o[(g * 64 + l) * 4 + 2] = r;\n"
	"  o[(g * 64 + l) * 4 + 3] = d;\n"
	"}\n";

START_TEST(clang_wave_reduce)
{
	for (int a = 0; a < 2; a++) {
		Harness h;
		ck_assert(h_init_cl(&h, REDUCE_CL, ARCHS[a], NULL));
		int32_t x[128], o[128][4];
		for (int i = 0; i < 128; i++)
			x[i] = (i * 37) % 101 - 50;
		h_buffer(&h, x, sizeof x, 0, false);
		h_buffer(&h, o, sizeof o, 8, true);
		h.l.grid[0] = 2;
		ck_assert_msg(h_run(&h) == 0, "%s: %s", ARCHS[a], h.err);
		for (int g = 0; g < 2; g++) {
			int sum = 0;
			for (int l = 0; l < 64; l++)
				sum += x[g * 64 + l];
			for (int l = 0; l < 64; l++) {
				int i = g * 64 + l, v = x[i];
				ck_assert_int_eq(o[i][0], sum);
				ck_assert_int_eq(o[i][1], v + ((l & 15) ? x[i - 1] : 0));
				ck_assert_int_eq(o[i][2], x[g * 64 + 37]);
				ck_assert_int_eq(o[i][3], (v & 1) ? v * 3 : v - 100);
			}
		}
		h_free(&h);
	}
}
END_TEST

/* With -cl-fp32-correctly-rounded-divide-sqrt, clang emits the IEEE
 * v_div_scale / v_rcp / v_fma / v_div_fmas / v_div_fixup sequence: f32 and
 * f64 division must then be correctly rounded, special cases included.
 * (Without the flag clang uses a 2.5-ulp frexp/rcp/ldexp sequence, which
 * is not correctly rounded on hardware either.) */
static const char *DIV_CL =
	"__kernel void divide(__global const float *a, __global const float *b, __global float *o,\n"
	"                     __global const double *c, __global double *od) {\n"
	"  int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();\n"
	"  o[2 * i] = a[i] / b[i];\n"
	"  o[2 * i + 1] = __builtin_sqrtf(a[i]);\n"
	"  od[i] = c[i] / (double)b[i];\n"
	"}\n";

START_TEST(clang_ieee_division)
{
	for (int a = 0; a < 2; a++) {
		Harness h;
		ck_assert(h_init_cl(&h, DIV_CL, ARCHS[a], "-cl-fp32-correctly-rounded-divide-sqrt"));
		float x[64], y[64], o[64][2];
		double c[64], od[64];
		for (int i = 0; i < 64; i++) {
			x[i] = (float)(i * 7 + 1) / 3.0f;
			y[i] = (float)(i % 9 + 1) * 0.7f;
			c[i] = (double)i * 1.1 - 20.0;
		}
		y[5] = 0.0f;    /* x / 0 = inf */
		x[6] = 0.0f;    /* 0 / y = 0 */
		y[7] = INFINITY;
		x[8] = 1e-40f;  /* subnormal numerator */
		y[9] = 3e38f;
		h_buffer(&h, x, sizeof x, 0, false);
		h_buffer(&h, y, sizeof y, 8, false);
		h_buffer(&h, o, sizeof o, 16, true);
		h_buffer(&h, c, sizeof c, 24, false);
		h_buffer(&h, od, sizeof od, 32, true);
		ck_assert_msg(h_run(&h) == 0, "%s: %s", ARCHS[a], h.err);
		for (int i = 0; i < 64; i++) {
			float q = x[i] / y[i];
			ck_assert_msg(memcmp(&o[i][0], &q, 4) == 0, "%s lane %d: %a / %a = %a, emulator %a", ARCHS[a], i,
				      (double)x[i], (double)y[i], (double)q, (double)o[i][0]);
			float r = sqrtf(x[i]);
			ck_assert_msg(memcmp(&o[i][1], &r, 4) == 0, "%s lane %d: sqrt %a", ARCHS[a], i, (double)o[i][1]);
			ck_assert_double_eq(od[i], c[i] / (double)y[i]);
		}
		h_free(&h);
	}
}
END_TEST

/* LLVM 22 expands frem (here fmodf) into an exact reduction loop:
 * v_frexp_mant/exp_f32 of the magnitudes, v_ldexp_f32 by chunks of bits,
 * quotients rounded by v_rndne_f32 and taken off by v_fma_f32, a
 * correction by v_add_f32 under v_cmp/v_cndmask, exec-masked per lane,
 * and v_cmp_class for the special cases: the instructions of wavecc's
 * remf (isel/math.c). Checked bit for bit against C's fmodf over every
 * pair of 24 special values (zeros, infinities, NaN, denormals, the
 * largest finite) and 1600 random finite bit patterns, quotients to
 * 2^276 and denormal operands among them. */
static const char *FMOD_CL =
	"__kernel void rem(__global const float *a, __global const float *b, __global float *o) {\n"
	"  int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();\n"
	"  o[i] = __builtin_fmodf(a[i], b[i]);\n"
	"}\n";

static float bits_f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

START_TEST(clang_fmod)
{
	enum { NS = 24, NR = 1600, NP = NS * NS + NR, G = (NP + 63) / 64 };
	static const uint32_t sp[NS] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x00000001,
		0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x40400000,
		0xc0490fdb, 0x3f7fffff, 0x3f800001, 0x4b800001, 0x00000003, 0x00c00000, 0x0d000000, 0x47c35000,
		0x3dcccccd, 0x7f000001};
	static float x[G * 64], y[G * 64], o[G * 64];
	int n = 0;
	for (int i = 0; i < NS; i++)
		for (int j = 0; j < NS; j++, n++)
			x[n] = bits_f32(sp[i]), y[n] = bits_f32(sp[j]);
	uint64_t st = 0x2545f4914f6cdd1dull;
	for (; n < G * 64; n++) {
		uint32_t u[2];
		for (int k = 0; k < 2; k++)
			do {
				st ^= st << 13, st ^= st >> 7, st ^= st << 17;
				u[k] = (uint32_t)(st >> 20);
			} while ((u[k] & 0x7f800000u) == 0x7f800000u);
		x[n] = bits_f32(u[0]);
		y[n] = bits_f32(u[1]);
	}
	for (int a = 0; a < 2; a++) {
		Harness h;
		ck_assert(h_init_cl_llvm(&h, FMOD_CL, ARCHS[a], NULL, 22));
		h_buffer(&h, x, sizeof x, 0, false);
		h_buffer(&h, y, sizeof y, 8, false);
		h_buffer(&h, o, sizeof o, 16, true);
		h.l.grid[0] = G;
		ck_assert_msg(h_run(&h) == 0, "%s: %s", ARCHS[a], h.err);
		for (int i = 0; i < G * 64; i++) {
			float r = fmodf(x[i], y[i]);
			ck_assert_msg(isnan(r) ? isnan(o[i]) : memcmp(&o[i], &r, 4) == 0, "%s: fmodf(%a, %a) = %a, emulator %a",
				ARCHS[a], (double)x[i], (double)y[i], (double)r, (double)o[i]);
		}
		h_free(&h);
	}
}
END_TEST

/* A float floor division and modulo in double, as wavecc compiles a
 * float floordiv and mod (isel/math.c): v_cvt_f64_f32, the f64 IEEE
 * division (v_div_scale_f64, v_rcp_f64, v_fma_f64, v_div_fmas_f64,
 * v_div_fixup_f64), v_floor_f64, v_mul_f64, v_add_f64, v_cvt_f32_f64,
 * checked bit for bit against the same C over fmod's pairs. */
static const char *FLOORMOD_CL =
	"#pragma OPENCL FP_CONTRACT OFF\n"
	"__kernel void fm(__global const float *a, __global const float *b, __global float *o) {\n"
	"  int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();\n"
	"  double x = a[i], y = b[i], q = __builtin_floor(x / y);\n"
	"  o[2 * i] = (float)q;\n"
	"  o[2 * i + 1] = (float)(x - y * q);\n"
	"}\n";

START_TEST(clang_floor_mod_f64)
{
	enum { G = 30 };
	static float x[G * 64], y[G * 64], o[G * 64][2];
	static const uint32_t sp[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x00000001,
		0x007fffff, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xc0400000, 0x3dcccccd, 0x4b800001, 0x0d000000};
	enum { NS = sizeof sp / sizeof sp[0] };
	uint64_t st = 0x9e3779b97f4a7c15ull;
	for (int n = 0; n < G * 64; n++) {
		if (n < NS * NS) {
			x[n] = bits_f32(sp[n / NS]);
			y[n] = bits_f32(sp[n % NS]);
			continue;
		}
		uint32_t u[2];
		for (int k = 0; k < 2; k++)
			do {
				st ^= st << 13, st ^= st >> 7, st ^= st << 17;
				u[k] = (uint32_t)(st >> 20);
				if (n % 2) /* exponents within 2^40 of each other: quotients near doubles' precision */
					u[k] = (u[k] & 0x807fffffu) | ((100u + (u[k] >> 23) % 40u) << 23);
			} while ((u[k] & 0x7f800000u) == 0x7f800000u);
		x[n] = bits_f32(u[0]);
		y[n] = bits_f32(u[1]);
	}
	for (int a = 0; a < 2; a++) {
		Harness h;
		ck_assert(h_init_cl(&h, FLOORMOD_CL, ARCHS[a], "-ffp-contract=off"));
		h_buffer(&h, x, sizeof x, 0, false);
		h_buffer(&h, y, sizeof y, 8, false);
		h_buffer(&h, o, sizeof o, 16, true);
		h.l.grid[0] = G;
		ck_assert_msg(h_run(&h) == 0, "%s: %s", ARCHS[a], h.err);
		for (int i = 0; i < G * 64; i++) {
			volatile double q = floor((double)x[i] / (double)y[i]), p = (double)y[i] * q, d = (double)x[i] - p;
			float r[2] = {(float)q, (float)d};
			for (int k = 0; k < 2; k++)
				ck_assert_msg(isnan(r[k]) ? isnan(o[i][k]) : memcmp(&o[i][k], &r[k], 4) == 0,
					"%s: %s(%a, %a) = %a, emulator %a", ARCHS[a], k ? "mod" : "floordiv", (double)x[i],
					(double)y[i], (double)r[k], (double)o[i][k]);
		}
		h_free(&h);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("emu_clang");
	TCase *tc = tcase_create("clang");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, clang_wave_reduce);
	tcase_add_test(tc, clang_ieee_division);
	tcase_add_test(tc, clang_fmod);
	tcase_add_test(tc, clang_floor_mod_f64);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
