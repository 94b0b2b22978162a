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

static Suite *suite(void)
{
	Suite *s = suite_create("emu_clang");
	TCase *tc = tcase_create("clang");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, clang_wave_reduce);
	tcase_add_test(tc, clang_ieee_division);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
