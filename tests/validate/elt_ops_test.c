/* elt_ops_test.c — emulator validation of the instructions wavecc's
 * elementwise selection (isel/compare.c, math.c, index.c) emits beyond the
 * other suites' lists: f32, i32 and u32 compares into vcc and v_cndmask,
 * the f16 unordered compare (NaN-propagating maximum/minimum), signed and
 * unsigned min/max, the unsigned division sequence
 * (v_rcp_iflag_f32, v_cvt_u32_f32, v_mul_hi_u32, v_mul_lo_u32), and the bit
 * operations. clang-19 builds kernels/elt_ops.cl for gfx942, gfx942:sramecc-
 * and gfx90a; references are computed here from the same inputs, NaN, the
 * signed zeros and the 32-bit extremes included. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

static const char *const kernels[] = {"elt_ops", NULL};
static void setup_gfx942(void) { vk_compile_arch("validate_elt_ops", kernels, "gfx942"); }
static void setup_noecc(void) { vk_compile_arch("validate_elt_ops_noecc", kernels, "gfx942:sramecc-"); }
static void setup_gfx90a(void) { vk_compile_arch("validate_elt_ops_gfx90a", kernels, "gfx90a"); }

enum { N = 1000, NO = 29 };

/* the low 16 bits as an f16: a NaN (exponent all ones, mantissa not 0)? */
static bool f16_nan(uint32_t bits) { return (bits & 0x7fff) > 0x7c00; }

static void reference(const float *a, const float *b, const int32_t *x, const int32_t *y, uint32_t *w)
{
	for (int i = 0; i < N; i++) {
		float fa = a[i], fb = b[i];
		int32_t ix = x[i], iy = y[i];
		uint32_t ux = (uint32_t)ix, uy = (uint32_t)iy, *o = w + i * NO;
		o[0] = fa == fb;
		o[1] = fa != fb;
		o[2] = fa < fb;
		o[3] = fa <= fb;
		o[4] = fa > fb;
		o[5] = fa >= fb;
		o[6] = ix == iy;
		o[7] = ix != iy;
		o[8] = ix < iy;
		o[9] = ix <= iy;
		o[10] = ix > iy;
		o[11] = ix >= iy;
		o[12] = ux < uy;
		o[13] = ux <= uy;
		o[14] = ux > uy;
		o[15] = ux >= uy;
		o[16] = (uint32_t)(ix > iy ? ix : iy);
		o[17] = ux < uy ? ux : uy;
		o[18] = ux > uy ? ux : uy;
		o[19] = ~ux;
		o[20] = uy ? ux / uy : 0;
		o[21] = ux - uy * 3u;
		o[22] = (uint32_t)(((uint64_t)ux * uy) >> 32);
		o[23] = (uint32_t)(ix < iy ? ix : iy);
		o[24] = ux & uy;
		o[25] = ux | uy;
		o[26] = ux ^ uy;
		o[27] = ux & 0x7fffffffu;
		o[28] = f16_nan(ux) || f16_nan(uy);
	}
}

START_TEST(elt_ops)
{
	static float a[N], b[N];
	static int32_t x[N], y[N];
	static uint32_t out[N * NO], want[N * NO];
	VkRng r = {12};
	const float fs[] = {0.0f, -0.0f, NAN, 1.0f, INFINITY, -INFINITY, 1e-40f, 2.5f};
	/* ints: extremes, and f16 bit patterns 0x7e00 (NaN), 0x7c00 (inf), 0xfc01 (NaN) */
	const int32_t is[] = {0, -1, INT32_MIN, INT32_MAX, 0x7e00, 0x7c00, 0xfc01, 3};
	for (int i = 0; i < N; i++) {
		/* small ranges so that equal pairs are common */
		a[i] = (float)vk_int(&r, -6, 6) / 2;
		b[i] = (float)vk_int(&r, -6, 6) / 2;
		x[i] = i % 3 ? vk_int(&r, -10, 10) : (int32_t)vk_next(&r);
		y[i] = i % 5 ? vk_int(&r, -10, 10) : (int32_t)vk_next(&r);
	}
	for (int i = 0; i < 64; i++) { /* every pair of specials */
		a[i] = fs[i % 8];
		b[i] = fs[i / 8];
		x[i] = is[i % 8];
		y[i] = is[i / 8];
	}
	VkArg args[] = {
		{"a", DT_F32, 1, {N}, a, VK_IN},
		{"b", DT_F32, 1, {N}, b, VK_IN},
		{"x", DT_I32, 1, {N}, x, VK_IN},
		{"y", DT_I32, 1, {N}, y, VK_IN},
		{"io", DT_I32, 2, {N, NO}, out, VK_OUT},
	};
	vk_run("elt_ops.launch.json", "n=1000", args, ARRAY_LEN(args));
	reference(a, b, x, y, want);
	vk_check_u32("elt_ops [n][29]", out, want, N * NO);
	static const char *const insns[] = {"v_cmp_eq_f32_e32", "v_cmp_neq_f32_e32", "v_cmp_lt_f32_e32",
		"v_cmp_le_f32_e32", "v_cmp_gt_f32_e32", "v_cmp_ge_f32_e32", "v_cmp_u_f16_e32", "v_cmp_eq_u32_e32", "v_cmp_ne_u32_e32",
		"v_cmp_lt_i32_e32", "v_cmp_le_i32_e32", "v_cmp_gt_i32_e32", "v_cmp_ge_i32_e32", "v_cmp_lt_u32_e32",
		"v_cmp_le_u32_e32", "v_cmp_gt_u32_e32", "v_cmp_ge_u32_e32", "v_cndmask_b32_e32", "v_max_i32_e32",
		"v_min_i32_e32", "v_max_u32_e32", "v_min_u32_e32", "v_not_b32_e32", "v_and_b32_e32", "v_or_b32_e32",
		"v_xor_b32_e32", "v_add_u32_e32", "v_sub_u32_e32", "v_mul_hi_u32", "v_mul_lo_u32",
		"v_rcp_iflag_f32_e32", "v_cvt_u32_f32_e32", "v_cvt_f32_u32_e32", "v_ashrrev_i32_e32", "v_mov_b32_e32",
		NULL};
	vk_expect_insns("elt_ops", insns);
}
END_TEST

/* Does a line of text hold all of the (up to three) parts, in order? */
static bool line_has(const char *text, const char *a, const char *b, const char *c)
{
	for (const char *l = text; l && *l;) {
		const char *e = strchr(l, '\n'), *p = strstr(l, a), *q = p ? strstr(p, b) : NULL, *r = q ? strstr(q, c) : NULL;
		if (r && (!e || r < e))
			return true;
		l = e ? e + 1 : NULL;
	}
	return false;
}

/* Lane masks held in SGPR pairs (the form isel/compare.c's select reads
 * a kept mask with): four masks live at once, each selecting twice and
 * summed into a word; bit-exact against C. */
START_TEST(elt_masks)
{
	enum { NM = 9 };
	static float a[N], b[N], out[N * NM], want[N * NM];
	static int32_t x[N];
	VkRng r = {13};
	for (int i = 0; i < N; i++) {
		a[i] = (float)vk_int(&r, -6, 6) / 2;
		b[i] = (float)vk_int(&r, -6, 6) / 2;
		/* around each bound: 300, -5 and 7 */
		x[i] = i % 4 == 0 ? vk_int(&r, 295, 305) : i % 4 == 1 ? vk_int(&r, -8, -2) : vk_int(&r, 5, 9);
	}
	for (int i = 0; i < N; i++) {
		float fa = a[i], fb = b[i];
		int ix = x[i];
		bool m0 = ix < 300, m1 = ix > -5, m2 = ix != 7, m3 = fa < fb;
		float *w = want + i * NM;
		w[0] = m0 ? fa : fb;
		w[1] = m1 ? fb : fa;
		w[2] = m2 ? fa : fb;
		w[3] = m3 ? fb : fa;
		w[4] = m0 ? fb * 2.0f : fa * 3.0f;
		w[5] = m1 ? fa * fb : fa + fb;
		w[6] = m2 ? fa - fb : fb - fa;
		w[7] = m3 ? fa * 5.0f : fb * 7.0f;
		w[8] = (float)((int)m0 + 2 * (int)m1 + 4 * (int)m2 + 8 * (int)m3);
	}
	VkArg args[] = {
		{"a", DT_F32, 1, {N}, a, VK_IN},
		{"b", DT_F32, 1, {N}, b, VK_IN},
		{"x", DT_I32, 1, {N}, x, VK_IN},
		{"out", DT_F32, 2, {N, NM}, out, VK_OUT},
	};
	vk_run("elt_masks.launch.json", "n=1000", args, ARRAY_LEN(args));
	vk_check_u32("elt_masks [n][9]", (const uint32_t *)out, (const uint32_t *)want, N * NM);
	/* a compare into an SGPR pair, two VGPR operands (isel/elt.c's exp2
	 * range test), and the VOP3 v_cndmask */
	static const char *const insns[] = {"v_cmp_lt_f32_e64", "v_cndmask_b32_e64", NULL};
	vk_expect_insns("elt_ops", insns);
	if (strcmp(vk_arch(), "gfx942") == 0) {
		/* v_cndmask_b32_e64 reading an SGPR pair: between two VGPRs and 0/1 */
		const char *d = vk_disasm("elt_ops");
		ck_assert_msg(line_has(d, "v_cndmask_b32_e64 v", ", v", ", s[") && line_has(d, "v_cndmask_b32_e64 v", ", 0, 1, s[", ""),
			"elt_ops.hsaco: clang-19 no longer selects with a mask in an SGPR pair");
	}
}
END_TEST

static TCase *cases(const char *arch, void (*setup)(void))
{
	TCase *tc = tcase_create(arch);
	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, elt_ops);
	tcase_add_test(tc, elt_masks);
	return tc;
}

int main(void)
{
	Suite *s = suite_create("validate_elt_ops");
	suite_add_tcase(s, cases("gfx942", setup_gfx942));
	suite_add_tcase(s, cases("gfx942:sramecc-", setup_noecc));
	suite_add_tcase(s, cases("gfx90a", setup_gfx90a));
	return run_suite(s);
}
