/* ints_test.c — emulator validation, integer and bit-level kernels: f64 and
 * i64 arithmetic with 64-bit division expansions, bit manipulation (perm,
 * alignbit, bfe, med3), dot products, packed f32 / min3 / max3 / sad / f16
 * transcendentals, and 8/16-bit integer vectors on the packed ALU and SDWA.
 * Kernels are clang-19 output (tests/validate/kernels/), built for gfx942 and
 * again for gfx90a; references are computed here in C. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

static const char *const kernels[] = {"wide_math", "bits", "dot", "packed", "small_ints", "cvt_int", NULL};
static void setup_gfx942(void) { vk_compile_arch("validate_ints", kernels, "gfx942"); }
static void setup_gfx90a(void) { vk_compile_arch("validate_ints_gfx90a", kernels, "gfx90a"); }
/* gfx942 with SRAM ECC off (`:sramecc-`): clang may use d16 loads that keep the other half, and the
 * emulator keeps it because the code object says so */
static void setup_noecc(void) { vk_compile_arch("validate_ints_noecc", kernels, "gfx942:sramecc-"); }

/* ---- f64 and i64 ---- */

START_TEST(wide_math)
{
	enum { N = 300 };
	static double a[N], b[N], fo[N * 8];
	static int64_t x[N], y[N], io[N * 8];
	static uint64_t fw[N * 8], iw[N * 8];
	VkRng r = {11};
	for (int i = 0; i < N; i++) {
		double m = (double)(vk_next(&r) >> 11) * 0x1p-53 + 1.0;
		a[i] = ldexp(vk_next(&r) & 1 ? -m : m, vk_int(&r, -60, 60));
		m = (double)(vk_next(&r) >> 11) * 0x1p-53 + 1.0;
		b[i] = ldexp(vk_next(&r) & 1 ? -m : m, i % 7 ? vk_int(&r, -60, 60) : vk_int(&r, -1070, 1020));
		x[i] = i % 3 ? (int64_t)vk_next(&r) : vk_int(&r, -100000, 100000);
		y[i] = i % 4 ? (int64_t)vk_next(&r) : vk_int(&r, -70, 70);
	}
	const double sa[] = {0.0, -0.0, INFINITY, NAN, 0x1p-1074, 1e-310, 1.7e308, 3.0, -7.5, 1.0};
	const double sb[] = {0.0, 0.0, INFINITY, 2.0, 0x1p-1074, 3.0, 1e-300, 0.0, -0.0, 3.0};
	memcpy(a, sa, sizeof sa);
	memcpy(b, sb, sizeof sb);
	y[20] = 0;
	x[21] = INT64_MIN;
	y[21] = -1;
	VkArg args[] = {
		{"a", DT_F64, 1, {N}, a, VK_IN},        {"b", DT_F64, 1, {N}, b, VK_IN},
		{"x", DT_I64, 1, {N}, x, VK_IN},        {"y", DT_I64, 1, {N}, y, VK_IN},
		{"fo", DT_F64, 2, {N, 8}, fo, VK_OUT},  {"io", DT_I64, 2, {N, 8}, io, VK_OUT},
	};
	vk_run("wide_math.launch.json", "n=300", args, ARRAY_LEN(args));
	for (int i = 0; i < N; i++) {
		double f[8];
		f[0] = a[i] + b[i];
		f[1] = a[i] * b[i];
		f[2] = fma(a[i], b[i], 1.5);
		f[3] = a[i] / b[i];
		f[4] = sqrt(fabs(a[i]));
		f[5] = (double)(float)a[i];
		f[6] = (double)x[i];
		f[7] = (double)(int32_t)x[i] + (double)(uint32_t)y[i];
		for (int k = 0; k < 8; k++) {
			memcpy(&fw[i * 8 + k], &f[k], 8);
			/* NaN: any NaN will do */
			if (isnan(f[k]) && isnan(fo[i * 8 + k]))
				memcpy(&fw[i * 8 + k], &fo[i * 8 + k], 8);
		}
		uint64_t ux = (uint64_t)x[i], uy = (uint64_t)y[i], *o = iw + i * 8;
		o[0] = ux + uy;
		o[1] = ux * uy;
		o[2] = (uint64_t)(x[i] >> (uy & 63));
		o[3] = (ux >> (uy & 63)) ^ (ux << (uy & 63));
		o[4] = uy ? ux / uy : 0;
		o[5] = uy && !(x[i] == INT64_MIN && y[i] == -1) ? (uint64_t)(x[i] % y[i]) : 0;
		/* f64 -> i64 is only defined in range; elsewhere take whatever the kernel wrote */
		o[6] = fabs(a[i]) < 0x1p62 ? (uint64_t)(int64_t)a[i] : (uint64_t)io[i * 8 + 6];
		o[7] = (uint64_t)((x[i] < y[i]) + 2 * (ux < uy) + 4 * (x[i] == y[i]));
	}
	/* compared as bits: exact, and -0.0 differs from +0.0 */
	vk_check_u32("wide_math f64 results [n][8] (as 2 x u32)", (uint32_t *)fo, (uint32_t *)fw, N * 16);
	vk_check_u32("wide_math i64 results [n][8] (as 2 x u32)", (uint32_t *)io, (uint32_t *)iw, N * 16);
	static const char *const insns[] = {"v_add_f64", "v_mul_f64", "v_fma_f64", "v_div_scale_f64", "v_div_fmas_f64",
					    "v_div_fixup_f64", "v_rcp_f64", "v_rsq_f64", "v_cvt_f32_f64", "v_cvt_f64_f32",
					    "v_cvt_f64_i32", "v_cvt_f64_u32", "v_ldexp_f64", "v_cmp_class_f64",
					    "v_ashrrev_i64", "v_lshrrev_b64", "v_addc_co_u32", "v_subb_co_u32",
					    "v_cmp_lt_u64", "v_trunc_f64", "v_floor_f64", NULL};
	vk_expect_insns("wide_math", insns);
}
END_TEST

/* ---- bit manipulation, dot products, small integer types ---- */

/* v_perm_b32 byte select from the 64-bit {s0 (high), s1 (low)}. */
static uint32_t perm_ref(uint32_t s0, uint32_t s1, uint32_t sel)
{
	uint64_t in = (uint64_t)s0 << 32 | s1;
	uint32_t d = 0;
	for (int i = 0; i < 4; i++) {
		uint32_t k = (sel >> (8 * i)) & 0xff, byte;
		if (k >= 13)
			byte = 0xff;
		else if (k == 12)
			byte = 0;
		else if (k >= 8)
			byte = (in >> (16 * (k - 8) + 15)) & 1 ? 0xff : 0; /* sign of byte 1, 3, 5 or 7 */
		else
			byte = (uint32_t)(in >> (8 * k)) & 0xff;
		d |= byte << (8 * i);
	}
	return d;
}

static uint32_t sbfe_ref(uint32_t src, uint32_t off, uint32_t w)
{
	if (w == 0)
		return 0;
	if (off + w < 32)
		return (uint32_t)((int32_t)(src << (32 - off - w)) >> (32 - w));
	return (uint32_t)((int32_t)src >> off);
}

START_TEST(bits)
{
	enum { N = 300 };
	static uint32_t u[N], w[N], o[N * 16], want[N * 16];
	static int8_t c8[N], o8[N], w8[N];
	static int16_t s16[N], o16[N], w16[N];
	static float f[N];
	VkRng r = {12};
	for (int i = 0; i < N; i++) {
		u[i] = (uint32_t)vk_next(&r);
		w[i] = (uint32_t)vk_next(&r);
		c8[i] = (int8_t)vk_next(&r);
		s16[i] = (int16_t)vk_next(&r);
		f[i] = vk_float(&r, -10, 10);
	}
	u[0] = 0;
	w[0] = 0x00001f1f; /* bfe with offset 31, width 31 */
	u[1] = 0x80000000u;
	w[1] = 0x00000800; /* width 8, offset 0 */
	VkArg args[] = {
		{"u", DT_U32, 1, {N}, u, VK_IN},          {"w", DT_U32, 1, {N}, w, VK_IN},
		{"c8", DT_I8, 1, {N}, c8, VK_IN},         {"s16", DT_I16, 1, {N}, s16, VK_IN},
		{"f", DT_F32, 1, {N}, f, VK_IN},          {"o", DT_U32, 2, {N, 16}, o, VK_OUT},
		{"o8", DT_I8, 1, {N}, o8, VK_OUT},        {"o16", DT_I16, 1, {N}, o16, VK_OUT},
	};
	vk_run("bits.launch.json", "n=300", args, ARRAY_LEN(args));
	for (int i = 0; i < N; i++) {
		uint32_t a = u[i], b = w[i], *p = want + i * 16;
		p[0] = perm_ref(a, b, 0x0c050a01u);
		uint32_t sh = b & 31;
		p[1] = (uint32_t)((((uint64_t)a << 32) | b) >> sh);
		uint32_t off = b & 31, wd = (b >> 8) & 31;
		p[2] = wd ? (a >> off) & ((1u << wd) - 1) : 0;
		p[3] = sbfe_ref(a, off, wd);
		float fa = f[i], fb = f[(i + 1) % N], fc = f[(i + 2) % N];
		float v[3] = {fa, fb, fc}; /* median by a 3-element sort */
		for (int x = 0; x < 2; x++)
			for (int y = 0; y < 2 - x; y++)
				if (v[y] > v[y + 1]) {
					float t = v[y];
					v[y] = v[y + 1];
					v[y + 1] = t;
				}
		p[4] = vk_fbits(v[1]);
		p[5] = a + b;
		p[6] = a - b;
		p[7] = a * b;
		uint32_t ma = (a & 0x3fff3fffu) | 0x20002000u, mb = (b & 0x3fff3fffu) | 0x20002000u;
		double max_ = vk_h2f(ma), may = vk_h2f(ma >> 16), mbx = vk_h2f(mb), mby = vk_h2f(mb >> 16);
		p[8] = vk_f2h(may * mbx + max_) | vk_f2h(max_ * mby + max_) << 16;
		int q = (i / 4) * 4;
		p[9] = u[q] ^ u[q + 1] ^ u[q + 2];
		p[10] = w[q] + w[q + 1] + w[q + 2] + w[q + 3];
		p[11] = 0;
		for (int k = 0; k < 4; k++)
			p[11] |= (uint32_t)(uint8_t)((a >> (8 * k)) + (b >> (8 * k)) * 3) << (8 * k);
		int16_t sax = (int16_t)a, say = (int16_t)(a >> 16), sby = (int16_t)(b >> 16);
		p[12] = (uint16_t)(sax * sby) | (uint32_t)(uint16_t)(say >> 3) << 16;
		p[13] = (uint32_t)(int32_t)c8[i] + (uint32_t)(int32_t)s16[i] * 1000u;
		p[14] = (uint32_t)__builtin_popcount(a ^ b) | (uint32_t)__builtin_clz(a | 1) << 8 |
			(uint32_t)__builtin_ctz(b | 0x80000000u) << 16;
		p[15] = (uint32_t)(uint8_t)c8[i] * 65536u + (uint16_t)s16[i];
		w8[i] = (int8_t)(c8[i] * 5 - 7);
		w16[i] = (int16_t)(s16[i] * 3 + (int16_t)(a >> 20));
	}
	static uint32_t gcol[N], wcol[N];
	static const char *const what[16] = {
		"v_perm_b32",        "v_alignbit_b32", "v_bfe_u32", "v_bfe_i32", "v_med3_f32", "add",
		"sub",               "mul",            "v_pk_fma_f16 op_sel", "dwordx3 load", "dwordx4 load",
		"i8 x4 arithmetic",  "i16 mul / ashr", "sign-extending loads", "popcount/clz/ctz", "zero-extending loads",
	};
	for (int k = 0; k < 16; k++) {
		for (int i = 0; i < N; i++) {
			gcol[i] = o[i * 16 + k];
			wcol[i] = want[i * 16 + k];
		}
		vk_check_u32(what[k], gcol, wcol, N);
	}
	static uint32_t g8[N], e8[N], g16[N], e16[N];
	for (int i = 0; i < N; i++) {
		g8[i] = (uint8_t)o8[i], e8[i] = (uint8_t)w8[i];
		g16[i] = (uint16_t)o16[i], e16[i] = (uint16_t)w16[i];
	}
	vk_check_u32("byte store", g8, e8, N);
	vk_check_u32("short store", g16, e16, N);
	static const char *const insns[] = {"v_perm_b32", "v_alignbit_b32", "v_bfe_u32", "v_bfe_i32", "v_med3_f32",
					    "v_pk_fma_f16",
					    "v_or_b32_sdwa", "v_mad_legacy_u16", "v_lshrrev_b16", "v_ffbl_b32",
					    "global_load_dwordx4", "global_store_byte", "global_store_short", NULL};
	vk_expect_insns("bits", insns);
}
END_TEST

/* ---- dot products ---- */

START_TEST(dot)
{
	enum { N = 200 };
	static uint32_t u[N], w[N], o[N * 5], want[N * 5];
	static float f[N], gdot[N];
	static double wdot[N];
	VkRng r = {13};
	for (int i = 0; i < N; i++) {
		u[i] = (uint32_t)vk_next(&r);
		w[i] = (uint32_t)vk_next(&r);
		f[i] = vk_float(&r, -10, 10);
	}
	for (int i = 0; i < 8; i++) /* saturating cases for the clamped forms */
		u[i] = w[i] = i & 1 ? 0x80808080u : 0xffffffffu;
	VkArg args[] = {{"u", DT_U32, 1, {N}, u, VK_IN},
			{"w", DT_U32, 1, {N}, w, VK_IN},
			{"f", DT_F32, 1, {N}, f, VK_IN},
			{"o", DT_U32, 2, {N, 5}, o, VK_OUT}};
	vk_run("dot.launch.json", "n=200", args, ARRAY_LEN(args));
	for (int i = 0; i < N; i++) {
		uint32_t a = u[i], b = w[i], am = a & 0x7bff7bffu, bm = b & 0x7bff7bffu, *p = want + i * 5;
		wdot[i] = (double)vk_h2f(am) * vk_h2f(bm) + (double)vk_h2f(am >> 16) * vk_h2f(bm >> 16) + f[i];
		gdot[i] = vk_bitsf(o[i * 5]);
		p[0] = o[i * 5]; /* checked with a tolerance below */
		int64_t sd = 0, ud = 0;
		for (int k = 0; k < 4; k++) {
			sd += (int8_t)(a >> (8 * k)) * (int8_t)(b >> (8 * k));
			ud += ((a >> (8 * k)) & 0xff) * ((b >> (8 * k)) & 0xff);
		}
		p[1] = (uint32_t)(sd + i);
		p[2] = (uint32_t)(ud + (b >> 3));
		int64_t sc = sd + (int32_t)(b ^ a), uc = ud + (0xffff0000u | b);
		p[3] = (uint32_t)(sc > INT32_MAX ? INT32_MAX : sc < INT32_MIN ? INT32_MIN : sc);
		p[4] = (uint32_t)(uc > UINT32_MAX ? UINT32_MAX : uc);
	}
	vk_check_u32("dot [n][5] (fdot2 bits, sdot4, udot4, sdot4 clamp, udot4 clamp)", o, want, N * 5);
	/* the f16 dot product's internal rounding is not documented: within 1 ulp of the exact value */
	vk_check_f32("v_dot2c_f32_f16 value", gdot, wdot, N, 1, 0);
	static const char *const insns[] = {"v_dot2c_f32_f16", "v_dot4c_i32_i8", "v_dot4_u32_u8", "v_dot4_i32_i8",
					    NULL};
	vk_expect_insns("dot", insns);
}
END_TEST

/* ---- packed f32, min3/max3, byte conversions, f16 transcendentals ---- */

/* Spacing of f16 values at |w| (normal range). */
static double ulp_f16(double w)
{
	int e;
	frexp(fabs(w), &e); /* |w| in [2^(e-1), 2^e) */
	return ldexp(1.0, MAX(e - 1, -14) - 10);
}

START_TEST(packed)
{
	enum { N = 256 };
	static float a[N * 2], b[N * 2], o2[N * 6], of[N * 8];
	static uint32_t u[N], w2[N * 6], wf[N * 8];
	static uint16_t h[N], oh[N * 5];
	VkRng r = {17};
	for (int i = 0; i < N; i++) {
		a[2 * i] = vk_float(&r, -50, 50);
		a[2 * i + 1] = vk_float(&r, -50, 50);
		b[2 * i] = vk_float(&r, -50, 50);
		b[2 * i + 1] = vk_float(&r, -50, 50);
		u[i] = (uint32_t)vk_next(&r);
		_Float16 hv = (_Float16)vk_float(&r, 0.1f, 10.0f);
		memcpy(&h[i], &hv, 2);
	}
	a[0] = -1e-10f; /* fract: 1 - 1e-10 rounds to 1.0, clamped below 1 */
	a[2] = -3.25f;
	VkArg args[] = {
		{"a", DT_F32, 2, {N, 2}, a, VK_IN},           {"b", DT_F32, 2, {N, 2}, b, VK_IN},
		{"u", DT_U32, 1, {N}, u, VK_IN},              {"h", DT_F16, 1, {N}, h, VK_IN},
		{"o2", DT_F32, 3, {N, 3, 2}, o2, VK_OUT},     {"of", DT_F32, 2, {N, 8}, of, VK_OUT},
		{"oh", DT_F16, 2, {N, 5}, oh, VK_OUT},
	};
	vk_run("packed.launch.json", "n=256", args, ARRAY_LEN(args));
	for (int i = 0; i < N; i++) {
		float x0 = a[2 * i], x1 = a[2 * i + 1], y0 = b[2 * i], y1 = b[2 * i + 1];
		uint32_t *p = w2 + i * 6, *f = wf + i * 8, w = u[i];
		p[0] = vk_fbits(x0 + y0), p[1] = vk_fbits(x1 + y1);
		p[2] = vk_fbits(x0 * y0), p[3] = vk_fbits(x1 * y1);
		p[4] = vk_fbits(fmaf(x0, y0, x1)), p[5] = vk_fbits(fmaf(x1, y1, x0));
		f[0] = vk_fbits(fmaxf(x0, fmaxf(x1, y0)));
		f[1] = vk_fbits(fminf(x0, fminf(x1, y1)));
		f[2] = vk_fbits((float)(w & 0xff) + (float)((w >> 8) & 0xff) * 2.0f);
		f[3] = vk_fbits((float)((w >> 16) & 0xff) - (float)(w >> 24));
		f[4] = vk_fbits(fminf((float)((double)x0 - floor((double)x0)), 0x1.fffffep-1f));
		uint32_t sad = 5, w7 = w * 7u;
		for (int k = 0; k < 4; k++) {
			int d = (int)((w >> (8 * k)) & 0xff) - (int)((w7 >> (8 * k)) & 0xff);
			sad += (uint32_t)(d < 0 ? -d : d);
		}
		f[5] = sad;
		f[6] = vk_fbits((float)sad);
		int32_t i0 = (int32_t)w, i1 = (int32_t)(w * 3u), i2 = (int32_t)(w ^ 0x55555555u);
		int32_t mx = MAX(MAX(i0, i1), i2);
		f[7] = vk_fbits((float)(mx >> 8));
	}
	vk_check_u32("packed f32 [n][3][2] (v_pk_add/mul/fma_f32) as bits", (uint32_t *)o2, w2, N * 6);
	static uint32_t gcol[N], wcol[N];
	static const char *const what[8] = {"v_max3_f32", "v_min3_f32", "v_cvt_f32_ubyte0/1", "ubyte2/3 difference",
					    "v_fract_f32", "v_sad_u8", "v_sad_u8 -> f32", "v_max3_i32"};
	for (int k = 0; k < 8; k++) {
		for (int i = 0; i < N; i++) {
			gcol[i] = vk_fbits(of[i * 8 + k]);
			wcol[i] = wf[i * 8 + k];
		}
		vk_check_u32(what[k], gcol, wcol, N);
	}
	/* f16 transcendentals: within 1 f16 ulp of the exact value */
	static const char *const hname[5] = {"v_rcp_f16", "v_sqrt_f16", "v_rsq_f16", "v_exp_f16", "v_log_f16"};
	for (int k = 0; k < 5; k++) {
		int bad = 0, first = -1;
		double fg = 0, fw = 0;
		for (int i = 0; i < N; i++) {
			double x = vk_h2f(h[i]), want, got = vk_h2f(oh[i * 5 + k]);
			want = k == 0 ? 1 / x : k == 1 ? sqrt(x) : k == 2 ? 1 / sqrt(x) : k == 3 ? exp2(x) : log2(x);
			double tol = k == 4 ? MAX(ulp_f16(want), 0x1p-14) : ulp_f16(want);
			if (!(fabs(got - want) <= tol) && bad++ == 0)
				first = i, fg = got, fw = want;
		}
		ck_assert_msg(bad == 0, "%s: %d of %d outside 1 f16 ulp; first at [%d]: x=%g got %g want %g", hname[k], bad,
			      N, first, first >= 0 ? (double)vk_h2f(h[first]) : 0.0, fg, fw);
	}
	static const char *const insns[] = {"v_pk_add_f32", "v_pk_mul_f32", "v_pk_fma_f32", "v_max3_f32", "v_min3_f32",
					    "v_max3_i32", "v_cvt_f32_ubyte0", "v_cvt_f32_ubyte1", "v_fract_f32", "v_sad_u8",
					    "v_rcp_f16", "v_sqrt_f16", "v_rsq_f16", "v_exp_f16", "v_log_f16", NULL};
	vk_expect_insns("packed", insns);
}
END_TEST

/* ---- 8- and 16-bit integer vectors: packed 16-bit ALU, SDWA, saturation ---- */

static uint32_t pack16(int lo, int hi) { return (uint32_t)(uint16_t)lo | (uint32_t)(uint16_t)hi << 16; }

START_TEST(small_ints)
{
	enum { N = 300 };
	static uint32_t u[N], w[N], o[N * 12], want[N * 12];
	VkRng r = {26};
	for (int i = 0; i < N; i++) {
		u[i] = (uint32_t)vk_next(&r);
		w[i] = (uint32_t)vk_next(&r);
	}
	u[0] = 0x7fff8000u, w[0] = 0x00017fffu; /* saturation at both ends */
	u[1] = 0x0000ffffu, w[1] = 0x00010001u;
	VkArg args[] = {{"u", DT_U32, 1, {N}, u, VK_IN}, {"w", DT_U32, 1, {N}, w, VK_IN},
			{"o", DT_U32, 2, {N, 12}, o, VK_OUT}};
	vk_run("small_ints.launch.json", "n=300", args, ARRAY_LEN(args));
	for (int g = 0; g < N; g++) {
		uint32_t a = u[g], b = w[g], *p = want + g * 12;
		int16_t sa[2] = {(int16_t)a, (int16_t)(a >> 16)}, sb[2] = {(int16_t)b, (int16_t)(b >> 16)};
		uint16_t ua[2] = {(uint16_t)a, (uint16_t)(a >> 16)}, ub[2] = {(uint16_t)b, (uint16_t)(b >> 16)};
		int r0[2], r1[2], r2[2], r3[2], r4[2], r5[2], r6[2], r7[2];
		static const int mulk[2] = {3, -5}, shr[2] = {3, 9}, shl[2] = {1, 15};
		for (int h = 0; h < 2; h++) {
			r0[h] = sa[h] + sb[h];
			r1[h] = sa[h] - sb[h] * mulk[h];
			r2[h] = MAX(sa[h], sb[h]);
			r3[h] = MIN(ua[h], ub[h]);
			r4[h] = sa[h] >> shr[h];
			r5[h] = ua[h] << shl[h];
			r6[h] = MAX(-32768, MIN(32767, sa[h] + sb[h]));
			r7[h] = MAX(0, (int)ua[h] - (int)ub[h]);
		}
		p[0] = pack16(r0[0], r0[1]);
		p[1] = pack16(r1[0], r1[1]);
		p[2] = pack16(r2[0], r2[1]);
		p[3] = pack16(r3[0], r3[1]);
		p[4] = pack16(r4[0], r4[1]);
		p[5] = pack16(r5[0], r5[1]);
		p[6] = pack16(r6[0], r6[1]);
		p[7] = pack16(r7[0], r7[1]);
		p[8] = p[9] = p[11] = 0;
		static const int add8[4] = {1, 2, 3, 4};
		for (int k = 0; k < 4; k++) {
			int8_t ca = (int8_t)(a >> 8 * k), cb = (int8_t)(b >> 8 * k);
			uint8_t xa = (uint8_t)(a >> 8 * k), xb = (uint8_t)(b >> 8 * k);
			p[8] |= (uint32_t)(uint8_t)(ca * cb + add8[k]) << 8 * k;
			p[9] |= (uint32_t)(uint8_t)(xa > xb ? xa - xb : xb - xa) << 8 * k;
			p[11] |= (uint32_t)MIN(255, xa + xb) << 8 * k;
		}
		p[10] = (uint32_t)((int)(int8_t)(a >> 8) * (int)(int8_t)(b >> 24) + (int)(int8_t)(a >> 16) - (int)(uint8_t)b);
	}
	static const char *const what[12] = {"short2 +", "short2 - *", "short2 max", "ushort2 min", "short2 >>",
					     "ushort2 <<", "short2 add_sat", "ushort2 sub_sat", "char4 * +", "uchar4 max-min",
					     "char lanes mixed", "uchar4 add_sat"};
	static uint32_t gcol[N], wcol[N];
	for (int k = 0; k < 12; k++) {
		for (int i = 0; i < N; i++) {
			gcol[i] = o[i * 12 + k];
			wcol[i] = want[i * 12 + k];
		}
		vk_check_u32(what[k], gcol, wcol, N);
	}
	static const char *const insns[] = {"v_pk_add_u16", "v_pk_add_i16", "v_pk_sub_u16", "v_pk_max_i16", "v_pk_min_u16",
					    "v_pk_lshlrev_b16", "v_pk_ashrrev_i16", "v_pk_mad_u16", "v_add_u16_sdwa",
					    "v_sub_u16_sdwa", "v_mul_lo_u16_sdwa", "v_min_u16_sdwa", "v_max_u16_sdwa",
					    "v_sub_u32_sdwa", "v_or_b32_sdwa", NULL};
	vk_expect_insns("small_ints", insns);
}
END_TEST

/* ---- integer <-> float conversions at the edges ---- */

static uint32_t cvt_u32_sat(float v)
{
	if (isnan(v) || v <= 0)
		return 0;
	return v >= 4294967296.0f ? UINT32_MAX : (uint32_t)v;
}

static uint32_t cvt_i32_sat(float v)
{
	if (isnan(v))
		return 0;
	return v >= 2147483648.0f ? INT32_MAX : v < -2147483648.0f ? (uint32_t)INT32_MIN : (uint32_t)(int32_t)v;
}

START_TEST(cvt_int)
{
	enum { N = 256 };
	static int32_t x[N];
	static float f[N];
	static uint32_t o[N * 8], want[N * 8];
	VkRng r = {30};
	for (int i = 0; i < N; i++) {
		x[i] = (int32_t)vk_next(&r);
		f[i] = ldexpf(vk_float(&r, 1, 2), vk_int(&r, -3, 34)) * (vk_next(&r) & 1 ? -1.0f : 1.0f);
	}
	const int32_t sx[] = {16777217, 16777219, -16777217, INT32_MAX, INT32_MIN, -1, 0x7fffffc0, 33554435};
	const float sf[] = {NAN, -NAN, INFINITY, -INFINITY, -0.5f, 4294967040.0f, 4294967296.0f, 2147483520.0f,
			    -2147483648.0f, -2147483904.0f, 2.5f, 3.5f, -2.5f, -0.0f, 0x1p-149f, 1e30f};
	memcpy(x, sx, sizeof sx);
	memcpy(f, sf, sizeof sf);
	VkArg args[] = {{"x", DT_I32, 1, {N}, x, VK_IN}, {"f", DT_F32, 1, {N}, f, VK_IN},
			{"o", DT_U32, 2, {N, 8}, o, VK_OUT}};
	vk_run("cvt_int.launch.json", "n=256", args, ARRAY_LEN(args));
	for (int i = 0; i < N; i++) {
		uint32_t *p = want + i * 8;
		float v = f[i];
		p[0] = vk_fbits((float)x[i]);
		p[1] = vk_fbits((float)(uint32_t)x[i]);
		p[2] = cvt_u32_sat(v);
		p[3] = cvt_i32_sat(v);
		p[4] = vk_fbits(floorf(v));
		p[5] = vk_fbits(ceilf(v));
		p[6] = vk_fbits(truncf(v));
		p[7] = vk_fbits(rintf(v));
		for (int k = 4; k < 8; k++) /* NaN in, NaN out: the payload is not checked */
			if (isnan(v) && isnan(vk_bitsf(o[i * 8 + k])))
				p[k] = o[i * 8 + k];
	}
	static const char *const what[8] = {"v_cvt_f32_i32", "v_cvt_f32_u32", "v_cvt_u32_f32 (saturating)",
					    "v_cvt_i32_f32 (saturating)", "v_floor_f32", "v_ceil_f32", "v_trunc_f32",
					    "v_rndne_f32"};
	static uint32_t gcol[N], wcol[N];
	for (int k = 0; k < 8; k++) {
		for (int i = 0; i < N; i++) {
			gcol[i] = o[i * 8 + k];
			wcol[i] = want[i * 8 + k];
		}
		vk_check_u32(what[k], gcol, wcol, N);
	}
	static const char *const insns[] = {"v_cvt_f32_i32", "v_cvt_f32_u32", "v_cvt_u32_f32", "v_cvt_i32_f32",
					    "v_floor_f32", "v_ceil_f32", "v_trunc_f32", "v_rndne_f32", NULL};
	vk_expect_insns("cvt_int", insns);
}
END_TEST

/* The same cases on gfx942 and, recompiled by clang, on gfx90a. */
static TCase *cases(const char *arch, void (*setup)(void))
{
	TCase *tc = tcase_create(arch);
	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, wide_math);
	tcase_add_test(tc, bits);
	tcase_add_test(tc, dot);
	tcase_add_test(tc, packed);
	tcase_add_test(tc, small_ints);
	tcase_add_test(tc, cvt_int);
	return tc;
}

int main(void)
{
	Suite *s = suite_create("validate_ints");
	suite_add_tcase(s, cases("gfx942", setup_gfx942));
	suite_add_tcase(s, cases("gfx942:sramecc-", setup_noecc));
	suite_add_tcase(s, cases("gfx90a", setup_gfx90a));
	return run_suite(s);
}
