/* basic_test.c — emulator validation, float kernels: elementwise f32 and i32
 * math, f16/bf16 conversions and f16 arithmetic, transcendental instructions,
 * correctly rounded division, mixed precision with masked DPP, fp8, the clamp
 * modifier, a 3-D multi-workgroup grid and bad input to wavecc run. Integer
 * and bit-level kernels are in ints_test.c. Kernels are clang-19 output
 * (tests/validate/kernels/); references are computed here in C from the
 * same inputs. Every test also asserts the instructions clang emitted, so a
 * test cannot silently stop covering what it claims. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

static const char *const kernels942[] = {"elementwise", "convert", "transcendental", "grid3d", "fdiv_exact", "mixed",
					 "fp8", "fp8_mods", "fclamp", "elementwise_o0", NULL};
static void setup_gfx942(void) { vk_compile_arch("validate_basic", kernels942, "gfx942"); }
/* gfx942 with SRAM ECC off (`:sramecc-`): clang may use d16 loads that keep the other half, and the
 * emulator keeps it because the code object says so */
static void setup_noecc(void) { vk_compile_arch("validate_basic_noecc", kernels942, "gfx942:sramecc-"); }

/* gfx90a has no fp8 conversions */
static void setup_gfx90a(void)
{
	static const char *const kernels[] = {"elementwise", "convert", "transcendental", "grid3d", "fdiv_exact", "mixed",
					      "fclamp", "elementwise_o0", NULL};
	vk_compile_arch("validate_basic_gfx90a", kernels, "gfx90a");
}

/* ---- elementwise ---- */

/* v_cvt_i32_f32: truncation, saturating, NaN -> 0. */
static int32_t cvt_i32_sat(float f)
{
	if (isnan(f))
		return 0;
	if (f >= 2147483648.0f)
		return INT32_MAX;
	if (f <= -2147483904.0f || f < -2147483648.0f)
		return INT32_MIN;
	return (int32_t)f;
}

/* The checks of elementwise for the code object STEM.hsaco (STEM.launch.json). */
static void run_elementwise(const char *stem)
{
	char desc[64];
	snprintf(desc, sizeof desc, "%s.launch.json", stem);
	enum { N = 1000 };
	static float a[N], b[N], c[N], fo[N * 6];
	static int32_t x[N], y[N], io[N * 12];
	static double fw[N * 6];
	static uint32_t iw[N * 12];
	VkRng r = {1};
	const float fspecial[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-40f, -3e-39f, 3.4e38f, 1.0f, -1.0f, 0.5f,
				  1e-45f};
	for (int i = 0; i < N; i++) {
		a[i] = vk_float(&r, -100, 100);
		b[i] = vk_float(&r, -100, 100);
		c[i] = vk_float(&r, -100, 100);
		x[i] = i % 3 ? (int32_t)vk_next(&r) : vk_int(&r, -1000, 1000);
		y[i] = i % 4 ? (int32_t)vk_next(&r) : vk_int(&r, -40, 40);
	}
	for (size_t i = 0; i < ARRAY_LEN(fspecial); i++)
		for (size_t j = 0; j < ARRAY_LEN(fspecial); j++) {
			a[i * 12 + j] = fspecial[i];
			b[i * 12 + j] = fspecial[j];
			c[i * 12 + j] = fspecial[(i + j) % 12];
		}
	a[200] = 3e6f; /* * 1000 saturates the f32 -> i32 conversion */
	a[201] = -3e6f;
	x[300] = INT32_MIN;
	y[300] = 7;
	x[301] = 12345;
	y[301] = -1;
	x[302] = INT32_MAX;
	y[302] = 0;
	for (int i = 0; i < N; i++)
		if (x[i] == INT32_MIN && y[i] == -1)
			y[i] = 1;

	VkArg args[] = {
		{"a", DT_F32, 1, {N}, a, VK_IN},       {"b", DT_F32, 1, {N}, b, VK_IN},
		{"c", DT_F32, 1, {N}, c, VK_IN},       {"x", DT_I32, 1, {N}, x, VK_IN},
		{"y", DT_I32, 1, {N}, y, VK_IN},       {"fo", DT_F32, 2, {N, 6}, fo, VK_OUT},
		{"io", DT_I32, 2, {N, 12}, io, VK_OUT},
	};
	vk_run(desc, "n=1000", args, ARRAY_LEN(args));

	for (int i = 0; i < N; i++) {
		double *f = fw + i * 6;
		f[0] = a[i] + b[i];
		f[1] = a[i] * b[i];
		f[2] = fmaf(a[i], b[i], c[i]);
		f[3] = fminf(a[i], b[i]);
		/* clang contracts a - b*c into v_fma_f32; the unfused result is accepted too */
		float fused = fmaf(-b[i], c[i], a[i]), unfused = a[i] - b[i] * c[i];
		f[4] = vk_fbits(fo[i * 6 + 4]) == vk_fbits(unfused) ? unfused : fused;
		f[5] = a[i] > b[i] ? c[i] : -c[i];
		uint32_t ux = (uint32_t)x[i], uy = (uint32_t)y[i], *o = iw + i * 12;
		o[0] = ux + uy;
		o[1] = ux * uy;
		o[2] = (uint32_t)(x[i] >> (uy & 31));
		o[3] = ux >> (uy & 31);
		o[4] = ux << (uy & 31);
		o[5] = (ux & uy) ^ (ux | ~uy);
		o[6] = uy ? (uint32_t)(x[i] / y[i]) : 0;
		o[7] = uy ? ux % uy : 0;
		o[8] = (uint32_t)(x[i] < y[i] ? x[i] : y[i]);
		o[9] = (uint32_t)__builtin_popcount(ux) + (ux ? (uint32_t)__builtin_clz(ux) : 32u) * 64u;
		o[10] = (uint32_t)(((int64_t)x[i] * y[i]) >> 32);
		o[11] = (uint32_t)cvt_i32_sat(a[i] * 1000.0f);
	}
	/* f32 results are exact: every op here is correctly rounded on the GPU */
	vk_check_f32("elementwise f32 results [n][6]", fo, fw, N * 6, 0, 0);
	vk_check_u32("elementwise i32 results [n][12]", (uint32_t *)io, iw, N * 12);
	static const char *const insns[] = {"v_add_f32", "v_mul_f32", "v_fma_f32", "v_min_f32", "v_cndmask_b32",
					    "v_mul_hi_i32", "v_mul_lo_u32", "v_rcp_iflag_f32", "v_ffbh_u32",
					    "v_bcnt_u32_b32", "v_cvt_i32_f32", "v_ashrrev_i32", "global_store_dwordx4",
					    "s_and_saveexec_b64", "v_min_i32", "v_max_i32", NULL};
	if (strcmp(stem, "elementwise") == 0)
		vk_expect_insns(stem, insns);
	else
		vk_expect_insns(stem, vk_spill_insns);
}

START_TEST(elementwise) { run_elementwise("elementwise"); }
END_TEST

START_TEST(elementwise_o0) { run_elementwise("elementwise_o0"); }
END_TEST

/* ---- conversions ---- */

static uint16_t h_bits(_Float16 h)
{
	uint16_t u;
	memcpy(&u, &h, 2);
	return u;
}

static _Float16 bits_h(uint16_t u)
{
	_Float16 h;
	memcpy(&h, &u, 2);
	return h;
}

static bool f16_is_nan(uint16_t u) { return (u & 0x7c00) == 0x7c00 && (u & 0x3ff); }

/* f32 -> f16 rounding toward zero (finite overflow gives the largest finite). */
static uint16_t f16_rtz(float f)
{
	uint16_t sign = signbit(f) ? 0x8000 : 0;
	double a = fabs((double)f);
	if (isnan(f))
		return 0x7e00;
	if (isinf(f))
		return sign | 0x7c00;
	if (a >= 65536.0)
		return sign | 0x7bff;
	if (a < 0x1p-14)
		return sign | (uint16_t)(a * 0x1p24); /* subnormal: truncating multiple of 2^-24 */
	int e;
	double m = frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
	return sign | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)((m * 2 - 1) * 1024);
}

START_TEST(convert)
{
	enum { N = 200 };
	static float f[N], o32[N * 3];
	static uint16_t h[N], bh[N], o16[N * 8], w16[N * 8];
	static double w32[N * 3];
	const float fspecial[] = {
		1.0f + 0x1p-11f,         1.0f + 3 * 0x1p-11f, 0x1p-24f,   0x1p-25f,  3 * 0x1p-25f, 0x1p-14f - 0x1p-25f,
		1e-7f,                   65504.0f,            65519.99f,  65520.0f,  1e6f,         -INFINITY,
		NAN,                     -0.0f,               1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, 1e-40f, -2.5f,
		0x1.fffffep127f,         -0x1.0101p-126f,     0x1.00ap0f, -0x1.003p-20f, 2049.0f, 2051.0f,
	};
	VkRng r = {2};
	for (int i = 0; i < N; i++) {
		float m = vk_float(&r, 1, 2) * (vk_next(&r) & 1 ? -1.0f : 1.0f);
		f[i] = ldexpf(m, vk_int(&r, -30, 18));
		/* f16 operands in [2^-8, 2^8] keep the packed fma reference exact in double */
		float hv = ldexpf(vk_float(&r, 1, 2), vk_int(&r, -8, 7)) * (vk_next(&r) & 1 ? -1.0f : 1.0f);
		h[i] = h_bits((_Float16)hv);
		bh[i] = (uint16_t)vk_next(&r);
	}
	memcpy(f, fspecial, sizeof fspecial);
	const uint16_t hspecial[] = {0x0001, 0x03ff, 0x0400, 0x8000, 0x7c00, 0xfc00, 0x7bff, 0x3c00, 0x3c01, 0xc000};
	for (size_t i = 0; i < ARRAY_LEN(hspecial); i++)
		h[40 + 2 * i] = hspecial[i];
	const uint16_t bspecial[] = {0x0001, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x3f80, 0x0080};
	memcpy(bh, bspecial, sizeof bspecial);

	VkArg args[] = {
		{"f", DT_F32, 1, {N}, f, VK_IN},          {"h", DT_F16, 1, {N}, h, VK_IN},
		{"bh", DT_BF16, 1, {N}, bh, VK_IN},       {"o16", DT_U16, 2, {N, 8}, o16, VK_OUT},
		{"o32", DT_F32, 2, {N, 3}, o32, VK_OUT},
	};
	vk_run("convert.launch.json", "n=200", args, ARRAY_LEN(args));

	for (int i = 0; i < N; i++) {
		uint16_t *p = w16 + i * 8;
		_Float16 hx = bits_h(h[i]), hy = bits_h(h[(i + 1) % N]);
		p[0] = h_bits((_Float16)f[i]);
		p[1] = vk_bf16(f[i]);
		p[2] = f16_rtz(f[i]);
		p[3] = f16_rtz(-f[i]);
		p[4] = h_bits((_Float16)((float)hx + (float)hy));
		p[5] = h_bits((_Float16)((float)hx * (float)hy));
		p[6] = h_bits((_Float16)fma((double)hx, (double)hy, (double)hx));
		p[7] = h_bits((_Float16)fma((double)hy, (double)hx, (double)hy));
		/* NaN results: only NaN-ness is specified, not the payload */
		for (int k = 0; k < 8; k++)
			if (f16_is_nan(p[k]) && k != 1 && f16_is_nan(o16[i * 8 + k]))
				p[k] = o16[i * 8 + k];
		w32[i * 3] = (double)hx;
		w32[i * 3 + 1] = vk_bitsf((uint32_t)bh[i] << 16);
		w32[i * 3 + 2] = (float)hx * (float)hy;
	}
	vk_check_u16("convert f16/bf16 bits [n][8] (f16 rne, bf16 rne, pkrtz x, pkrtz -x, add, mul, pk_fma x2)", o16,
		     w16, N * 8);
	vk_check_f32("convert f32 results [n][3] (f16->f32, bf16->f32, f16 product)", o32, w32, N * 3, 0, 0);
	static const char *const insns[] = {"v_cvt_f16_f32", "v_cvt_f32_f16", "v_cvt_pkrtz_f16_f32", "v_add_f16",
					    "v_mul_f16", "v_pk_fma_f16", "v_bfe_u32", "v_add3_u32", "v_cmp_u_f32",
					    "global_load_ushort", NULL};
	vk_expect_insns("convert", insns);
}
END_TEST

/* ---- transcendental ---- */

START_TEST(transcendental)
{
	enum { N = 300, NO = 11 };
	static float x[N], y[N], out[N * NO];
	static double w[N * NO];
	VkRng r = {3};
	for (int i = 0; i < N; i++) {
		x[i] = vk_float(&r, -20, 20);
		y[i] = ldexpf(vk_float(&r, 1, 2), vk_int(&r, -10, 14));
	}
	const float xs[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.25f, 0.5f, 0.125f, 3.0f, 1.0f};
	const float ys[] = {1.0f, 4.0f, 0.0f, INFINITY, 2.0f, 0.5f, 1e-3f, 1e4f, 1.0f};
	memcpy(x, xs, sizeof xs);
	memcpy(y, ys, sizeof ys);

	VkArg args[] = {
		{"x", DT_F32, 1, {N}, x, VK_IN},
		{"y", DT_F32, 1, {N}, y, VK_IN},
		{"out", DT_F32, 2, {N, NO}, out, VK_OUT},
	};
	vk_run("transcendental.launch.json", "n=300", args, ARRAY_LEN(args));

	static double col[NO][N];
	static float gcol[NO][N];
	for (int i = 0; i < N; i++) {
		double a = x[i], b = y[i];
		double *o = w + i * NO;
		o[0] = exp2(a);
		o[1] = log2(b);
		o[2] = 1.0 / a;
		o[3] = 1.0 / sqrt(b);
		o[4] = sqrt(b);
		o[5] = sin(2 * M_PI * a);
		o[6] = cos(2 * M_PI * a);
		o[7] = sqrt(b);
		o[8] = exp(a);
		o[9] = log(b);
		o[10] = a / b;
		for (int k = 0; k < NO; k++) {
			col[k][i] = o[k];
			gcol[k][i] = out[i * NO + k];
		}
	}
	/* Tolerances: the ISA documents 1 ulp for v_exp/v_log/v_rcp/v_rsq/v_sqrt; allow 2. Near log2(1) = 0 an
	 * absolute 2^-21 covers the hardware's absolute-error bound. v_sin/v_cos: absolute 2^-16. clang's
	 * expansions of sqrtf, expf, logf and division use OpenCL's 3 / 3 / 3 / 2.5 ulp budget. */
	static const struct { const char *name; double ulps, abs; } tol[NO] = {
		{"v_exp_f32", 2, 0},      {"v_log_f32", 2, 0x1p-21}, {"v_rcp_f32", 2, 0},     {"v_rsq_f32", 2, 0},
		{"v_sqrt_f32", 2, 0},     {"v_sin_f32", 0, 0x1p-16}, {"v_cos_f32", 0, 0x1p-16}, {"sqrtf", 3, 0},
		{"expf", 3, 0},           {"logf", 3, 0x1p-21},      {"division", 3, 0},
	};
	for (int k = 0; k < NO; k++)
		vk_check_f32(tol[k].name, gcol[k], col[k], N, tol[k].ulps, tol[k].abs);
	static const char *const insns[] = {"v_exp_f32", "v_log_f32", "v_rcp_f32", "v_rsq_f32", "v_sqrt_f32",
					    "v_sin_f32", "v_cos_f32", "v_ldexp_f32", "v_frexp_mant_f32",
					    "v_frexp_exp_i32_f32", "v_rndne_f32", NULL};
	vk_expect_insns("transcendental", insns);
}
END_TEST

/* ---- correctly rounded f32 division and sqrt ---- */

START_TEST(fdiv_exact)
{
	enum { N = 400 };
	static float a[N], b[N], o[N * 2];
	static uint32_t want[N * 2];
	VkRng r = {15};
	for (int i = 0; i < N; i++) {
		/* exponents from the denormal range to near overflow, so quotients under- and overflow too */
		a[i] = ldexpf(vk_float(&r, 1, 2), vk_int(&r, -149, 127)) * (vk_next(&r) & 1 ? -1.0f : 1.0f);
		b[i] = ldexpf(vk_float(&r, 1, 2), i % 2 ? vk_int(&r, -20, 20) : vk_int(&r, -149, 127));
	}
	const float sa[] = {1.0f, 0x1p-149f, 0x1p-149f, 1e-40f, 3e-39f, 0.0f, INFINITY, 1.0f, 0x1p127f, 1.0f, 7.0f, 0x1p-126f};
	const float sb[] = {3.0f, 0x1p-149f, 3.0f, 1e-45f, 7e-40f, 0.0f, INFINITY, 0.0f, 0x1p-10f, 0x1p-140f, 0x1p-149f, 2.0f};
	memcpy(a, sa, sizeof sa);
	memcpy(b, sb, sizeof sb);
	VkArg args[] = {{"a", DT_F32, 1, {N}, a, VK_IN}, {"b", DT_F32, 1, {N}, b, VK_IN},
			{"o", DT_F32, 2, {N, 2}, o, VK_OUT}};
	vk_run("fdiv_exact.launch.json", "n=400", args, ARRAY_LEN(args));
	for (int i = 0; i < N; i++) {
		float q = a[i] / b[i], s = sqrtf(fabsf(a[i]));
		want[i * 2] = isnan(q) && isnan(o[i * 2]) ? vk_fbits(o[i * 2]) : vk_fbits(q);
		want[i * 2 + 1] = vk_fbits(s);
	}
	vk_check_u32("fdiv_exact [n][2] (a/b, sqrt|a|) as bits", (uint32_t *)o, want, N * 2);
	static const char *const insns[] = {"v_div_scale_f32", "v_div_fmas_f32", "v_div_fixup_f32", "v_rcp_f32",
					    "v_sqrt_f32", "v_cmp_class_f32", NULL};
	vk_expect_insns("fdiv_exact", insns);
}
END_TEST

/* ---- 3-D grid ---- */

START_TEST(grid3d)
{
	enum { D = 3, H = 7, W = 19, S = D * H * W };
	static float in[S], out[S];
	static int32_t ids[S];
	static uint32_t wid[S];
	static double wout[S];
	for (int i = 0; i < S; i++)
		in[i] = (float)i * 0.5f - 100.0f;
	VkArg args[] = {
		{"in", DT_F32, 3, {D, H, W}, in, VK_IN},
		{"ids", DT_I32, 3, {D, H, W}, ids, VK_OUT},
		{"out", DT_F32, 3, {D, H, W}, out, VK_OUT},
	};
	vk_run("grid3d.launch.json", "D=3 H=7 W=19", args, ARRAY_LEN(args));
	for (int z = 0; z < D; z++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				int i = (z * H + y) * W + x;
				wid[i] = (uint32_t)(x | y << 10 | z << 20);
				wout[i] = in[i] * 2.0f + (float)(x % 8 + 8 * (y % 4 + 4 * (z % 2)));
			}
	vk_check_u32("grid3d ids [D][H][W] (x | y<<10 | z<<20)", (uint32_t *)ids, wid, S);
	vk_check_f32("grid3d out [D][H][W]", out, wout, S, 0, 0);
	static const char *const insns[] = {"v_bfe_u32", "v_fmac_f32", NULL};
	vk_expect_insns("grid3d", insns);
}
END_TEST

/* ---- mixed precision and masked DPP ---- */

START_TEST(mixed)
{
	enum { N = 128 };
	static uint16_t h[N], oh[N * 2], wh[N * 2];
	static float f[N], of[N * 3];
	static uint32_t wf[N * 3], od[N * 4], wd[N * 4];
	VkRng r = {19};
	for (int i = 0; i < N; i++) {
		_Float16 hv = (_Float16)vk_float(&r, -30, 30);
		memcpy(&h[i], &hv, 2);
		f[i] = vk_float(&r, -30, 30);
	}
	VkArg args[] = {{"h", DT_F16, 1, {N}, h, VK_IN},         {"f", DT_F32, 1, {N}, f, VK_IN},
			{"of", DT_F32, 2, {N, 3}, of, VK_OUT},   {"oh", DT_F16, 2, {N, 2}, oh, VK_OUT},
			{"od", DT_I32, 2, {N, 4}, od, VK_OUT}};
	vk_run("mixed.launch.json", "n=128", args, ARRAY_LEN(args));
	for (int g = 0; g < N; g++) {
		float a = vk_h2f(h[g]), b = vk_h2f(h[(g + 1) % N]), x = f[g], y = f[(g + 2) % N];
		wf[g * 3] = vk_fbits(fmaf(a, b, x));
		wf[g * 3 + 1] = vk_fbits(fmaf(a, x, y));
		wf[g * 3 + 2] = vk_fbits(fmaf(x, y, b));
		wh[g * 2] = (uint16_t)vk_f2h(fmaf(a, x, y)); /* fused in f32, then rounded to f16 */
		wh[g * 2 + 1] = (uint16_t)vk_f2h(fmaf(a, b, a));
		int l = g % 64, row = (l % 64) / 16, i = l % 16, bank = i / 4, w0 = g - l;
#define V(lane) ((uint32_t)((w0 + (lane)) * 3 + 1))
		wd[g * 4] = (0x5 >> row & 1) && i >= 1 ? V(l - 1) : (uint32_t)-1;
		wd[g * 4 + 1] = (0x3 >> bank & 1) && i >= 2 ? V(l - 2) : (uint32_t)-2;
		wd[g * 4 + 2] = (0xa >> row & 1) && (0x6 >> bank & 1) ? (i >= 3 ? V(l - 3) : 0u) : (uint32_t)-3;
		wd[g * 4 + 3] = V((l & ~3) + ((l & 3) + 1) % 4);
#undef V
	}
	vk_check_u32("mixed f32 [n][3] (fma_mix / pk_fma with op_sel_hi) as bits", (uint32_t *)of, wf, N * 3);
	vk_check_u16("mixed f16 [n][2]", oh, wh, N * 2);
	vk_check_u32("mixed DPP [n][4] (row_mask 0x5, bank_mask 0x3, row 0xa + bank 0x6, quad_perm)", od, wd, N * 4);
	static const char *const insns[] = {"v_fma_mix_f32", "v_pk_fma_f32", "v_mov_b32_dpp", NULL};
	vk_expect_insns("mixed", insns);
}
END_TEST

/* ---- fp8 / bf8 conversions (gfx942) ---- */

/* Inputs for the encoders, each used as given (E4M3) and times 256 (E5M2):
 * E4M3 ties (1 + 1/16 -> 1, 1 + 3/16 -> 1.25), subnormals (2^-11 -> 0, 3 * 2^-11 -> 2^-9), the largest (240;
 * times 256 it is the E5M2 tie between 57344 and 65536, so NaN), E5M2 ties and subnormal steps ((1 + 1/8)/256,
 * 2^-25, 3 * 2^-26); overflow (247 -> 240 but 63232 overflows E5M2; 248 is the E4M3 tie that overflows; 224 is
 * E5M2's largest 57344 times 1/256; 239.99 stays below the E5M2 tie), huge values, +-inf, NaN (both signs);
 * negative values that round to zero (must give 0x00: 0x80 would be NaN), -0, f32 denormals. */
static const float fp8_specials[] = {
	1.0625f, 1.1875f, 0x1p-11f, 3 * 0x1p-11f, 240.0f, -0x1p-7f, 1.125f / 256, 1.375f / 256, 0x1p-25f, 3 * 0x1p-26f,
	0.0f, 7 * 0x1p-10f, 247.0f, 248.0f, -248.0f, 300.0f, 224.0f, 239.99f, 1e30f, -3.4e38f, INFINITY, -INFINITY,
	NAN, -NAN, -0x1p-12f, -0x1p-11f, -0x1p-26f, -1e-30f, -0.0f, 1e-40f, -1e-40f, -0x1.8p-10f};
enum { FP8_NS = ARRAY_LEN(fp8_specials) };

START_TEST(fp8)
{
	enum { N = 1030 }; /* 1024 lanes take every code through every byte; 6 more leave a partial workgroup */
	static float a[N], b[N], dec[N * 2], pkd[N * 4];
	static uint32_t enc[N * 4], wenc[N * 4];
	static double wdec[N * 2], wpkd[N * 4];
	VkRng r = {25};
	for (int i = 0; i < N; i++) {
		/* magnitudes from 2^-9 up to 200 */
		a[i] = ldexpf(vk_float(&r, 1, 2), vk_int(&r, -9, 6)) * (vk_next(&r) & 1 ? -1.0f : 1.0f);
		b[i] = ldexpf(vk_float(&r, 1, 2), vk_int(&r, -9, 6)) * (vk_next(&r) & 1 ? -1.0f : 1.0f);
	}
	/* every special against another special, against its mirror and against random values */
	for (int i = 0; i < FP8_NS; i++) {
		a[i] = fp8_specials[i], b[i] = fp8_specials[FP8_NS - 1 - i];
		a[FP8_NS + i] = -fp8_specials[i], b[FP8_NS + i] = fp8_specials[(i + 3) % FP8_NS];
		b[2 * FP8_NS + i] = fp8_specials[i];
	}
	VkArg args[] = {{"a", DT_F32, 1, {N}, a, VK_IN},
			{"b", DT_F32, 1, {N}, b, VK_IN},
			{"dec", DT_F32, 2, {N, 2}, dec, VK_OUT},
			{"enc", DT_U32, 2, {N, 4}, enc, VK_OUT},
			{"pkd", DT_F32, 2, {N, 4}, pkd, VK_OUT}};
	vk_run("fp8.launch.json", "n=1030", args, ARRAY_LEN(args));
	const uint32_t old = 0x13572468u;
	for (int g = 0; g < N; g++) {
		unsigned c = (unsigned)g % 256;
		wdec[g * 2] = vk_fnuz_decode((uint8_t)c, 3, 8);
		wdec[g * 2 + 1] = vk_fnuz_decode((uint8_t)c, 2, 16);
		uint32_t w = c | ((c * 7 + 3) & 0xff) << 8 | ((c * 13 + 5) & 0xff) << 16 | (c ^ 0xa5) << 24;
		uint32_t pw = (g / 256) & 1 ? w >> 16 : w & 0xffff, qw = (g / 256) & 1 ? w & 0xffff : w >> 16;
		wpkd[g * 4] = vk_fnuz_decode((uint8_t)pw, 3, 8);
		wpkd[g * 4 + 1] = vk_fnuz_decode((uint8_t)(pw >> 8), 3, 8);
		wpkd[g * 4 + 2] = vk_fnuz_decode((uint8_t)qw, 2, 16);
		wpkd[g * 4 + 3] = vk_fnuz_decode((uint8_t)(qw >> 8), 2, 16);
		uint32_t fx = vk_fnuz_encode(a[g], 3, 8), fy = vk_fnuz_encode(b[g], 3, 8);
		/* the kernel scales in f32: huge values become inf, which encodes like any overflow */
		uint32_t bx = vk_fnuz_encode(a[g] * 256.0, 2, 16), by = vk_fnuz_encode(b[g] * 256.0, 2, 16);
		uint32_t *e = wenc + g * 4;
		e[0] = (old & 0xffff0000u) | fx | fy << 8;
		e[1] = (old & 0xffffu) | fy << 16 | fx << 24;
		e[2] = (old & 0xffff0000u) | bx | by << 8;
		e[3] = (old & 0xffffu) | by << 16 | bx << 24;
	}
	/* the references pin the edges themselves, so a codec change cannot slip through unnoticed */
	ck_assert_uint_eq(vk_fnuz_encode(248.0, 3, 8), 0x80);
	ck_assert_uint_eq(vk_fnuz_encode(247.0, 3, 8), 0x7f);
	ck_assert_uint_eq(vk_fnuz_encode(-0x1p-11, 3, 8), 0x00);
	ck_assert_uint_eq(vk_fnuz_encode(61440.0, 2, 16), 0x80);
	ck_assert_uint_eq(vk_fnuz_encode(-61439.0, 2, 16), 0xff);
	vk_check_f32("fp8 decode [n][2] (every E4M3 / E5M2 code from every byte position)", dec, wdec, N * 2, 0, 0);
	vk_check_f32("fp8 packed decode [n][4] (pk_f32_fp8 / pk_f32_bf8, both words)", pkd, wpkd, N * 4, 0, 0);
	vk_check_u32("fp8 encode [n][4] (pk_fp8 lo/hi word, pk_bf8 lo/hi word; overflow, inf, NaN to 0x80)", enc, wenc,
		     N * 4);
	static const char *const insns[] = {"v_cvt_f32_fp8_sdwa", "v_cvt_f32_bf8_sdwa", "v_cvt_pk_f32_fp8_e32",
					    "v_cvt_pk_f32_fp8_sdwa", "v_cvt_pk_f32_bf8_e32", "v_cvt_pk_f32_bf8_sdwa",
					    "v_cvt_pk_fp8_f32", "v_cvt_pk_bf8_f32", NULL};
	vk_expect_insns("fp8", insns);
}
END_TEST

/* The encoders' VOP3 bits clang-19 never sets, through kernels/fp8_mods.s: clamp and omod are ignored (ISA guide
 * table 31; saturation would need MODE.FP16_OVFL, which clang's kernels leave 0), neg and abs apply. With clamp
 * honoured, 300 would give 0x7f instead of 0x80; with omod, most of the random values would change. */
START_TEST(fp8_mods)
{
	static float a[64], b[64];
	static uint32_t out[64 * 4], want[64 * 4];
	VkRng r = {26};
	for (int i = 0; i < 64; i++) {
		a[i] = ldexpf(vk_float(&r, 1, 2), vk_int(&r, -9, 7)) * (vk_next(&r) & 1 ? -1.0f : 1.0f);
		b[i] = ldexpf(vk_float(&r, 1, 2), vk_int(&r, -9, 7)) * (vk_next(&r) & 1 ? -1.0f : 1.0f);
	}
	for (int i = 0; i < FP8_NS; i++)
		a[i] = fp8_specials[i], b[63 - i] = fp8_specials[i];
	VkArg args[] = {{"a", DT_F32, 1, {64}, a, VK_IN},
			{"b", DT_F32, 1, {64}, b, VK_IN},
			{"out", DT_U32, 2, {64, 4}, out, VK_OUT}};
	vk_run("fp8_mods.launch.json", NULL, args, ARRAY_LEN(args));
	for (int l = 0; l < 64; l++) {
		double x = a[l], y = b[l];
		uint32_t *w = want + l * 4;
		w[0] = 0xdead0000u | vk_fnuz_encode(x, 3, 8) | (uint32_t)vk_fnuz_encode(y, 3, 8) << 8;
		w[1] = 0x0000beefu | (uint32_t)vk_fnuz_encode(x, 2, 16) << 16 | (uint32_t)vk_fnuz_encode(y, 2, 16) << 24;
		w[2] = 0x0000beefu | (uint32_t)vk_fnuz_encode(-x, 3, 8) << 16 | (uint32_t)vk_fnuz_encode(fabs(y), 3, 8) << 24;
		w[3] = 0xdead0000u | vk_fnuz_encode(-fabs(x), 2, 16) | (uint32_t)vk_fnuz_encode(y, 2, 16) << 8;
	}
	vk_check_u32("fp8_mods [64][4] (clamp+mul:2 fp8, clamp+div:2 bf8 high word, -x |y| fp8, -|x| y bf8)", out, want,
		     64 * 4);
}
END_TEST

/* ---- the float clamp modifier ---- */

static double clamp01(double v) { return isnan(v) ? 0 : v < 0 ? 0 : v > 1 ? 1 : v; }

START_TEST(fclamp)
{
	enum { N = 256 };
	static float a[N], b[N], of[N * 3], gh[N * 3];
	static uint16_t oh[N * 3];
	static double wf[N * 3], wh[N * 3];
	VkRng r = {27};
	for (int i = 0; i < N; i++) {
		a[i] = vk_float(&r, -2, 2);
		b[i] = vk_float(&r, -2, 2);
	}
	const float sa[] = {INFINITY, NAN, 0.5f, -0.0f, 1.0f, 0x1p-140f};
	const float sb[] = {0.0f, 1.0f, NAN, -0.0f, 1.0f, 0x1p-10f};
	memcpy(a, sa, sizeof sa);
	memcpy(b, sb, sizeof sb);
	VkArg args[] = {{"a", DT_F32, 1, {N}, a, VK_IN}, {"b", DT_F32, 1, {N}, b, VK_IN},
			{"of", DT_F32, 2, {N, 3}, of, VK_OUT}, {"oh", DT_F16, 2, {N, 3}, oh, VK_OUT}};
	vk_run("fclamp.launch.json", "n=256", args, ARRAY_LEN(args));
	for (int i = 0; i < N; i++) {
		float x = a[i], y = b[i];
		wf[i * 3] = clamp01(x * y);
		wf[i * 3 + 1] = clamp01(x + y);
		wf[i * 3 + 2] = clamp01(fmaf(x, y, 0.25f));
		double hx = vk_h2f(vk_f2h(x)), hy = vk_h2f(vk_f2h(y));
		wh[i * 3] = clamp01(vk_h2f(vk_f2h(fma(hx, hy, hx))));
		wh[i * 3 + 1] = clamp01(vk_h2f(vk_f2h(fma(hy, hx, 0.5))));
		wh[i * 3 + 2] = clamp01(vk_h2f(vk_f2h(hx - hy)));
		for (int k = 0; k < 3; k++)
			gh[i * 3 + k] = vk_h2f(oh[i * 3 + k]);
	}
	/* exact; NaN results must have become 0 (DX10 clamp), so no NaN is accepted */
	vk_check_f32("fclamp f32 [n][3] (mul, add, fma with clamp)", of, wf, N * 3, 0, 0);
	vk_check_f32("fclamp f16 [n][3] (pk_fma x2, sub with clamp)", gh, wh, N * 3, 0, 0);
	static const char *const insns[] = {"v_mul_f32_e64", "v_add_f32_e64", "v_max_f32_e64", "v_sub_f16_e64",
					    "v_pk_fma_f16", NULL};
	vk_expect_insns("fclamp", insns);
	ck_assert_msg(strstr(vk_disasm("fclamp"), " clamp ") != NULL, "fclamp.hsaco: no clamp modifier in the code");
}
END_TEST

/* Bad input through the same path: an input file whose dtype disagrees
 * with the descriptor (exit 1) and a missing -D for a shape symbol (bad
 * usage, exit 2) are errors that name the argument or symbol, never a
 * crash or a silent reinterpretation of the bytes. */
START_TEST(bad_input)
{
	enum { N = 1000 };
	static int32_t wrong[N];
	static float ok[N];
	VkArg args[] = {{"a", DT_I32, 1, {N}, wrong, VK_IN}, {"b", DT_F32, 1, {N}, ok, VK_IN}};
	CmdResult r = vk_run_raw("elementwise.launch.json", "n=1000", args, ARRAY_LEN(args));
	ck_assert_msg(r.status == 1, "wrong dtype: exit %d, stderr: %s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "--in a:") && strstr(r.err, "dtype mismatch"), "message names arg a: %s", r.err);
	cmd_result_free(&r);
	args[0] = (VkArg){"a", DT_F32, 1, {N}, ok, VK_IN};
	r = vk_run_raw("elementwise.launch.json", NULL, args, ARRAY_LEN(args));
	/* a missing -D is bad usage (exit 2), as in interp and run K.json (issue 9) */
	ck_assert_msg(r.status == 2, "unbound n: exit %d, stderr: %s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "unbound symbol 'n'") != NULL, "message names symbol n: %s", r.err);
	cmd_result_free(&r);
}
END_TEST

/* The same cases on gfx942 and, recompiled by clang, on gfx90a. */
static TCase *cases(const char *arch, void (*setup)(void))
{
	TCase *tc = tcase_create(arch);
	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, elementwise);
	tcase_add_test(tc, elementwise_o0);
	tcase_add_test(tc, convert);
	tcase_add_test(tc, transcendental);
	tcase_add_test(tc, grid3d);
	tcase_add_test(tc, fdiv_exact);
	tcase_add_test(tc, mixed);
	tcase_add_test(tc, bad_input);
	tcase_add_test(tc, fclamp);
	if (strncmp(arch, "gfx942", 6) == 0) { /* gfx90a has no fp8 conversions */
		tcase_add_test(tc, fp8);
		tcase_add_test(tc, fp8_mods);
	}
	return tc;
}

int main(void)
{
	Suite *s = suite_create("validate_basic");
	suite_add_tcase(s, cases("gfx942", setup_gfx942));
	suite_add_tcase(s, cases("gfx942:sramecc-", setup_noecc));
	suite_add_tcase(s, cases("gfx90a", setup_gfx90a));
	return run_suite(s);
}
