/* control_test.c — emulator validation, control flow and memory kernels:
 * uniform loops and scalar branches, divergent control flow under EXEC,
 * cross-lane wave operations (DPP, ds_bpermute, ds_swizzle, readlane,
 * ballot/mbcnt), LDS tiling and reductions with barriers, and buffer
 * loads/stores with out-of-range masking. Kernels are clang-19 output
 * (tests/validate/kernels/); references are computed here in C. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

static const char *const kernels[] = {"loops", "divergent", "wave_ops", "lds_transpose", "lds_reduce", "buffer_oob",
				      "flat_atomic", "lds_types", "scalar_ops", "private_mem", "softmax", "buffer_sentinel",
				      "big_wg", "faults", "implicit", "lanes", "barriers",
				      "atomics2", "wave_ops_o0", "lds_reduce_o0", "buffer_atomic", NULL};
static void setup_gfx942(void) { vk_compile_arch("validate_control", kernels, "gfx942"); }
static void setup_gfx90a(void) { vk_compile_arch("validate_control_gfx90a", kernels, "gfx90a"); }
/* gfx942 with SRAM ECC off (`:sramecc-`): clang may use d16 loads that keep the other half, and the
 * emulator keeps it because the code object says so */
static void setup_noecc(void) { vk_compile_arch("validate_control_noecc", kernels, "gfx942:sramecc-"); }

static float h2f_ctl(uint16_t u)
{
	_Float16 h;
	memcpy(&h, &u, 2);
	return (float)h;
}

/* ---- loops: uniform trip counts and branches on the scalar unit ---- */

static void loops_ref(const int32_t *coef, int n, int k, int mode, uint32_t *want)
{
	for (int gid = 0; gid < n; gid++) {
		uint32_t acc = 0;
		for (int j = 0; j < k; j++)
			acc += (uint32_t)coef[j] * (uint32_t)(gid + j);
		if (mode == 1) {
			for (int a = 0; a < 3; a++)
				for (int b = 0; b <= a; b++)
					acc = acc * 3 + (uint32_t)(a - b);
		} else {
			acc ^= 0x5a5a;
		}
		int steps = 0, idx = 0;
		while (coef[idx] != 0 && steps < 100) {
			idx = coef[idx] & 15;
			steps++;
		}
		want[gid * 2] = acc;
		want[gid * 2 + 1] = (uint32_t)steps;
	}
}

START_TEST(loops)
{
	enum { N = 100 };
	static int32_t coef[64], out[N * 2];
	static uint32_t want[N * 2];
	static const struct { uint64_t seed; int k, mode; const char *defs; } runs[] = {
		{4, 40, 1, "n=100 k=40 mode=1"}, /* a chain through coef ending at a 0 */
		{5, 0, 0, "n=100 k=0 mode=0"},   /* zero-trip loop, other branch, chain capped at 100 */
		{6, 64, 7, "n=100 k=64 mode=7"},
	};
	for (size_t t = 0; t < ARRAY_LEN(runs); t++) {
		VkRng r = {runs[t].seed};
		for (int i = 0; i < 64; i++)
			coef[i] = vk_int(&r, -20, 20) | 1; /* odd: never 0, the chain decides the exit */
		if (t == 0) {
			coef[0] = 5, coef[5] = 9, coef[9] = 3, coef[3] = 44, coef[12] = 0; /* 0 -> 5 -> 9 -> 3 -> 12 */
		} else if (t == 1) {
			coef[0] = 2, coef[2] = 16; /* 0 -> 2 -> 0 -> ... never ends: capped */
		}
		VkArg args[] = {{"coef", DT_I32, 1, {64}, coef, VK_IN}, {"out", DT_I32, 2, {N, 2}, out, VK_OUT}};
		vk_run("loops.launch.json", runs[t].defs, args, ARRAY_LEN(args));
		loops_ref(coef, N, runs[t].k, runs[t].mode, want);
		vk_check_u32(runs[t].defs, (uint32_t *)out, want, N * 2);
	}
	static const char *const insns[] = {"s_cbranch_scc1", "s_cbranch_scc0", "s_cmp_lg_u32", "s_cmp_lt_i32", "s_cselect_b64",
					    "s_cbranch_vccnz", "s_load_dword", "s_add_u32", "s_addc_u32", "s_and_b32", NULL};
	vk_expect_insns("loops", insns);
}
END_TEST

/* ---- divergent control flow ---- */

START_TEST(divergent)
{
	enum { N = 500 };
	static int32_t x[N], out[N * 3];
	static uint32_t want[N * 3];
	VkRng r = {7};
	for (int i = 0; i < N; i++) {
		x[i] = i % 2 ? vk_int(&r, -100000, 100000) : vk_int(&r, -300, 300);
		out[i * 3] = out[i * 3 + 1] = out[i * 3 + 2] = -7; /* lanes that return early keep this */
	}
	x[10] = 0;
	x[11] = 27; /* c = 28 */
	x[12] = 30;
	for (int i = 0; i < N; i++) {
		int v = x[i], rr;
		if (v & 1)
			rr = v % 3 == 0 ? v * 7 : -v;
		else {
			rr = v >> 1;
			if (rr > 100)
				rr -= 1000;
		}
		uint32_t c = (uint32_t)(v < 0 ? -v : v) + 1u;
		int steps = 0;
		while (c != 1u) {
			c = (c & 1u) ? 3u * c + 1u : c >> 1;
			if (++steps >= 200)
				break;
		}
		want[i * 3] = (uint32_t)rr;
		want[i * 3 + 1] = (uint32_t)steps;
		want[i * 3 + 2] = v % 5 == 0 ? (uint32_t)-7 : (uint32_t)(rr + steps);
	}
	VkArg args[] = {{"x", DT_I32, 1, {N}, x, VK_IN}, {"out", DT_I32, 2, {N, 3}, out, VK_INOUT}};
	vk_run("divergent.launch.json", "n=500", args, ARRAY_LEN(args));
	vk_check_u32("divergent out [n][3] (branch result, collatz steps, sum unless v%5==0)", (uint32_t *)out, want,
		     N * 3);
	/* the integer compares are the ones isel/index_expr.c and
	 * isel/control.c emit for apply_expr relations and conditionals */
	static const char *const insns[] = {"s_and_saveexec_b64", "s_andn2_saveexec_b64", "s_xor_b64",
					    "s_cbranch_execz", "s_andn2_b64", "s_or_b64", "v_cmp_ne_u32",
					    "v_cmp_eq_u32", "v_cmp_lt_i32", "v_cmp_gt_i32", NULL};
	vk_expect_insns("divergent", insns);
}
END_TEST

/* ---- cross-lane wave operations ---- */

/* The checks of wave_ops for the code object STEM.hsaco (STEM.launch.json). */
static void run_wave_ops(const char *stem)
{
	char desc[64];
	snprintf(desc, sizeof desc, "%s.launch.json", stem);
	enum { N = 200, NOUT = 12, WAVES = 4 };
	static int32_t x[N], out[N * NOUT];
	static uint32_t want[N * NOUT];
	VkRng r = {8};
	for (int i = 0; i < N; i++)
		x[i] = vk_int(&r, -1000, 1000);
	for (int w = 0; w < WAVES; w++) {
		int32_t v[64];
		uint32_t s[64];
		for (int l = 0; l < 64; l++)
			v[l] = w * 64 + l < N ? x[w * 64 + l] : 0;
		uint32_t run = 0;
		int32_t mx = v[0];
		uint64_t bal = 0;
		for (int l = 0; l < 64; l++) {
			s[l] = run += (uint32_t)v[l];
			mx = v[l] > mx ? v[l] : mx;
			bal |= (uint64_t)(v[l] > 0) << l;
		}
		static const int qp[4] = {3, 2, 0, 1}, qs[4] = {1, 0, 3, 2};
		for (int l = 0; l < 64; l++) {
			int gid = w * 64 + l, row = l & ~15, i = l & 15;
			if (gid >= N)
				continue;
			uint32_t *o = want + gid * NOUT;
			o[0] = s[l];
			o[1] = s[63];
			o[2] = (uint32_t)mx;
			o[3] = (uint32_t)v[(l & ~3) + qp[l & 3]];
			o[4] = (uint32_t)v[row + 15 - i];
			o[5] = (uint32_t)v[(l & ~7) + 7 - (l & 7)];
			o[6] = (uint32_t)v[row + ((i - 3) & 15)]; /* row_ror:3: lane i reads lane i-3 of its row */
			o[7] = i + 5 < 16 ? (uint32_t)v[l + 5] : 7u; /* row_shl:5, bound_ctrl off: keeps old */
			o[8] = l ? (uint32_t)v[l - 1] : 0u;       /* wave_shr:1, bound_ctrl on: lane 0 reads 0 */
			int swz = (l & 0x20) | ((((l & 0x1f) & 0x1c) | 0x01) ^ 0x02);
			o[9] = (uint32_t)v[swz] + (uint32_t)v[(l & ~3) + qs[l & 3]] * 65536u;
			o[10] = l % 3 == 2 ? (uint32_t)(v[2] + 1000) : (uint32_t)-1;
			o[11] = (uint32_t)__builtin_popcountll(bal & ((1ull << l) - 1)) +
				(uint32_t)__builtin_popcountll(bal) * 256u;
		}
	}
	VkArg args[] = {{"x", DT_I32, 1, {N}, x, VK_IN}, {"out", DT_I32, 2, {N, NOUT}, out, VK_OUT}};
	vk_run(desc, "n=200", args, ARRAY_LEN(args));
	static const char *const what[NOUT] = {
		"DPP scan (row_shr, row_bcast)", "v_readlane lane 63", "ds_bpermute butterfly max", "quad_perm",
		"row_mirror", "row_half_mirror", "row_ror:3", "row_shl:5 bound_ctrl off", "wave_shr:1",
		"ds_swizzle bitmask + quad", "v_readfirstlane in a branch", "ballot + mbcnt",
	};
	/* compare per output column so a failure names the operation */
	static uint32_t gcol[N], wcol[N];
	for (int k = 0; k < NOUT; k++) {
		for (int i = 0; i < N; i++) {
			gcol[i] = (uint32_t)out[i * NOUT + k];
			wcol[i] = want[i * NOUT + k];
		}
		vk_check_u32(what[k], gcol, wcol, N);
	}
	static const char *const insns[] = {"v_add_u32_dpp", "v_mov_b32_dpp", "ds_bpermute_b32", "ds_swizzle_b32",
					    "v_readlane_b32", "v_readfirstlane_b32", "v_mbcnt_lo_u32_b32",
					    "v_mbcnt_hi_u32_b32", "s_bcnt1_i32_b64", NULL};
	if (strcmp(stem, "wave_ops") == 0)
		vk_expect_insns(stem, insns);
	else
		vk_expect_insns(stem, vk_spill_insns);
}

START_TEST(wave_ops) { run_wave_ops("wave_ops"); }
END_TEST

START_TEST(wave_ops_o0) { run_wave_ops("wave_ops_o0"); }
END_TEST

/* ---- LDS tiling ---- */

START_TEST(lds_transpose)
{
	enum { H = 37, W = 53 };
	static float in[H * W], out[W * H];
	static double want[W * H];
	for (int i = 0; i < H * W; i++)
		in[i] = (float)i + 0.25f;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			want[x * H + y] = in[y * W + x];
	VkArg args[] = {{"in", DT_F32, 2, {H, W}, in, VK_IN}, {"out", DT_F32, 2, {W, H}, out, VK_OUT}};
	vk_run("lds_transpose.launch.json", "H=37 W=53", args, ARRAY_LEN(args));
	vk_check_f32("lds_transpose out [W][H]", out, want, W * H, 0, 0);
	static const char *const insns[] = {"ds_write_b32", "ds_read_b32", "s_barrier", NULL};
	vk_expect_insns("lds_transpose", insns);
}
END_TEST

/* The checks of lds_reduce for the code object STEM.hsaco (STEM.launch.json). */
static void run_lds_reduce(const char *stem)
{
	char desc[64];
	snprintf(desc, sizeof desc, "%s.launch.json", stem);
	enum { N = 1000, WG = 256, NWG = 4 };
	static int32_t x[N], sums[NWG];
	static int64_t pairs[N];
	static uint32_t wsums[NWG];
	static uint64_t wpairs[N];
	VkRng r = {9};
	for (int i = 0; i < N; i++)
		x[i] = (int32_t)vk_next(&r);
	for (int g = 0; g < NWG; g++) {
		uint32_t s = 0;
		for (int t = 0; t < WG; t++)
			s += g * WG + t < N ? (uint32_t)x[g * WG + t] : 0;
		wsums[g] = s;
		for (int t = 0; t < WG; t++) {
			int gid = g * WG + t, src = g * WG + (t + WG / 2) % WG;
			int64_t v = src < N ? x[src] : 0;
			if (gid < N)
				wpairs[gid] = (uint64_t)v * 0x100000001ull + 3;
		}
	}
	VkArg args[] = {{"x", DT_I32, 1, {N}, x, VK_IN},
			{"sums", DT_I32, 1, {NWG}, sums, VK_OUT},
			{"pairs", DT_I64, 1, {N}, pairs, VK_OUT}};
	vk_run(desc, "n=1000", args, ARRAY_LEN(args));
	vk_check_u32("lds_reduce sums [4]", (uint32_t *)sums, wsums, NWG);
	vk_check_u32("lds_reduce pairs [n] (as 2 x u32)", (uint32_t *)pairs, (uint32_t *)wpairs, N * 2);
	static const char *const insns[] = {"ds_read2_b32", "ds_read2st64_b32", "ds_write_b64", "ds_read_b64",
					    "s_barrier", NULL};
	if (strcmp(stem, "lds_reduce") == 0)
		vk_expect_insns(stem, insns);
	else
		vk_expect_insns(stem, vk_spill_insns);
}

START_TEST(lds_reduce) { run_lds_reduce("lds_reduce"); }
END_TEST

START_TEST(lds_reduce_o0) { run_lds_reduce("lds_reduce_o0"); }
END_TEST

START_TEST(lds_types)
{
	enum { WG = 256, S = 512 };
	static float v4[S * 4];
	static int8_t c8[S];
	static int16_t s16[S];
	static int32_t out[S * 10];
	static uint32_t want[S * 10];
	VkRng r = {16};
	for (int i = 0; i < S * 4; i++)
		v4[i] = vk_float(&r, -100, 100);
	for (int i = 0; i < S; i++) {
		c8[i] = (int8_t)vk_next(&r);
		s16[i] = (int16_t)vk_next(&r);
	}
	for (int w = 0; w < S / WG; w++)
		for (int t = 0; t < WG; t++) {
			int g = w * WG + t, u = WG - 1 - t, gu = w * WG + u, t2 = (t + 64) % WG;
			const float *y = v4 + gu * 4;
			uint32_t *o = want + g * 10;
			o[0] = vk_fbits(((y[0] + y[1] * 2.0f) + y[2] * 4.0f) + y[3] * 8.0f);
			o[1] = (uint32_t)t2 + (uint32_t)-t2 * 3u + (uint32_t)(w * WG + t2) * 7u;
			o[2] = (uint32_t)(int32_t)c8[gu];
			o[3] = (uint8_t)c8[gu];
			o[4] = (uint32_t)(int32_t)s16[gu];
			o[5] = (uint16_t)s16[gu];
			o[6] = 12u * (uint32_t)u;
			int i0 = (t * 3) % (2 * WG), i1 = (t * 3 + 1) % (2 * WG);
			int w0 = i0 < WG ? 5 * i0 : 7 * (i0 - WG), w1 = i1 < WG ? 5 * i1 : 7 * (i1 - WG);
			o[7] = (uint32_t)(w0 - w1);
			o[8] = (uint32_t)((int8_t)(((t + 1) % WG) * 3) * 1000 + (uint8_t)(((t + 2) % WG) * 3));
			o[9] = (uint32_t)(int32_t)(int16_t)(-((t + 3) % WG) * 300);
		}
	VkArg args[] = {{"v4", DT_F32, 2, {S, 4}, v4, VK_IN},
			{"c8", DT_I8, 1, {S}, c8, VK_IN},
			{"s16", DT_I16, 1, {S}, s16, VK_IN},
			{"out", DT_I32, 2, {S, 10}, out, VK_OUT}};
	vk_run("lds_types.launch.json", NULL, args, ARRAY_LEN(args));
	static const char *const what[10] = {
		"ds_write_b128/ds_read_b128 float4", "int3 in LDS", "ds_read_i8", "ds_read_u8", "ds_read_i16",
		"ds_read_u16", "write2st64 / read", "read at 3t", "ds_write_b8 rewrite", "ds_write_b16 rewrite",
	};
	static uint32_t gcol[S], wcol[S];
	for (int k = 0; k < 10; k++) {
		for (int i = 0; i < S; i++) {
			gcol[i] = (uint32_t)out[i * 10 + k];
			wcol[i] = want[i * 10 + k];
		}
		vk_check_u32(what[k], gcol, wcol, S);
	}
	static const char *const insns[] = {"ds_write_b128", "ds_read_b128", "ds_write_b8", "ds_write_b16",
					    "ds_read_u8", "ds_read_i8", "ds_read_u16", "ds_read_i16", "ds_write2st64_b32",
					    NULL};
	vk_expect_insns("lds_types", insns);
}
END_TEST

/* ---- uniform arithmetic on the scalar unit ---- */

START_TEST(scalar_ops)
{
	static const struct { int32_t a, b; uint32_t c; int64_t d; uint64_t e; const char *defs; } runs[] = {
		{-123456789, 7, 0xdeadbeefu, -0x123456789abLL, 0x9876543210ull,
		 "a=-123456789 b=7 c=0xdeadbeef d=-1250999896491 e=0x9876543210"},
		{5, -3, 0x80u, 0x7fffffffffffLL, 3ull, "a=5 b=-3 c=128 d=0x7fffffffffff e=3"},
	};
	static int64_t out[128 * 16];
	static uint64_t want[128 * 16];
	for (size_t run = 0; run < ARRAY_LEN(runs); run++) {
		int32_t a = runs[run].a, b = runs[run].b;
		uint32_t c = runs[run].c;
		int64_t d = runs[run].d;
		uint64_t e = runs[run].e;
		uint64_t r[16];
		r[0] = (uint64_t)(int64_t)(int32_t)((uint32_t)a + (uint32_t)b);
		r[1] = (uint64_t)((int64_t)a * b);
		r[2] = ((uint64_t)c * (uint32_t)b) >> 32;
		r[3] = (uint64_t)(int64_t)(a >> (b & 31));
		r[4] = (uint64_t)(c >> (b & 31)) | (uint64_t)(uint32_t)(c << 3) << 32;
		r[5] = (uint64_t)(int64_t)(int32_t)((uint32_t)MIN(a, b) * 3u + (uint32_t)MAX(a, b));
		r[6] = (uint64_t)(int64_t)((a < 0 ? -a : a) ^ (int32_t)c);
		r[7] = (uint64_t)(__builtin_popcount(c) + __builtin_popcountll(e) * 100);
		r[8] = (uint64_t)((c ? __builtin_ctz(c) : 32) + (c ? __builtin_clz(c) : 32) * 100);
		r[9] = (c >> 5) & 0x7ff;
		r[10] = (uint64_t)d + e;
		r[11] = (uint64_t)d * e;
		r[12] = (uint64_t)(d >> (a & 63)) ^ (e << (b & 63));
		r[13] = (uint64_t)((d < (int64_t)e) + 2 * ((uint64_t)d < e) + 4 * (d == (int64_t)e));
		r[14] = (uint64_t)(int64_t)(b != 0 ? a / b : -1);
		r[15] = e != 0 ? (uint64_t)d % e : (uint64_t)-1;
		for (int g = 0; g < 128; g++)
			for (int k = 0; k < 16; k++)
				want[g * 16 + k] = r[k] + (uint64_t)((g % 64) * (k + 1));
		VkArg args[] = {{"out", DT_I64, 2, {128, 16}, out, VK_OUT}};
		vk_run("scalar_ops.launch.json", runs[run].defs, args, ARRAY_LEN(args));
		vk_check_u32(runs[run].defs, (uint32_t *)out, (uint32_t *)want, 128 * 16 * 2);
	}
	static const char *const insns[] = {"s_mul_i32", "s_mul_hi_u32", "s_add_u32", "s_addc_u32", "s_subb_u32",
					    "s_ashr_i64", "s_lshl_b64", "s_bfe_u32", "s_bcnt1_i32_b64", "s_ff1_i32_b32",
					    "s_flbit_i32_b32", "s_abs_i32", "s_min_i32", "s_max_i32", "s_cselect_b64",
					    "s_cmp_lg_u64", "s_cmp_eq_u64", "v_readfirstlane_b32", NULL};
	vk_expect_insns("scalar_ops", insns);
}
END_TEST

/* ---- private arrays in scratch memory ---- */

START_TEST(private_mem)
{
	enum { N = 150 };
	static int32_t idx[N], out[N * 2];
	static uint32_t want[N * 2];
	VkRng r = {18};
	for (int i = 0; i < N; i++)
		idx[i] = vk_int(&r, 0, 100000);
	for (int g = 0; g < N; g++) {
		int small[8], big[96], k = idx[g];
		for (int i = 0; i < 8; i++)
			small[i] = g * 8 + i;
		for (int i = 0; i < 96; i++)
			big[i] = i * i + g;
		small[k & 7] += 1000;
		big[(k >> 3) % 96] = -5;
		int s = 0;
		for (int i = 0; i < 8; i++)
			s += small[(k + i) & 7] * (i + 1);
		want[g * 2] = (uint32_t)s;
		want[g * 2 + 1] = (uint32_t)(big[(k * 7) % 96] + big[(k >> 3) % 96] + big[k % 96]);
	}
	VkArg args[] = {{"idx", DT_I32, 1, {N}, idx, VK_IN}, {"out", DT_I32, 2, {N, 2}, out, VK_OUT}};
	vk_run("private_mem.launch.json", "n=150", args, ARRAY_LEN(args));
	vk_check_u32("private_mem out [n][2]", (uint32_t *)out, want, N * 2);
	static const char *const insns[] = {"scratch_store_dwordx4", "scratch_load_dword", NULL};
	vk_expect_insns("private_mem", insns);
}
END_TEST

/* ---- row softmax: wave reductions by DPP, cross-wave through LDS ---- */

START_TEST(softmax)
{
	enum { R = 37, L = 500 };
	static float x[R * L], y[R * L];
	static uint16_t yh[R * L];
	static double want[R * L];
	static float goth[R * L];
	VkRng r = {20};
	for (int i = 0; i < R * L; i++)
		x[i] = vk_float(&r, -10, 10);
	const float log2e = 1.4426950408889634f;
	for (int row = 0; row < R; row++) {
		float m = -INFINITY;
		for (int j = 0; j < L; j++)
			m = fmaxf(m, x[row * L + j]);
		double s = 0;
		for (int j = 0; j < L; j++) /* the kernel's f32 argument, then an exact exp2 */
			s += want[row * L + j] = exp2((double)((x[row * L + j] - m) * log2e));
		for (int j = 0; j < L; j++)
			want[row * L + j] /= s;
	}
	VkArg args[] = {{"x", DT_F32, 2, {R, L}, x, VK_IN},
			{"y", DT_F32, 2, {R, L}, y, VK_OUT},
			{"yh", DT_F16, 2, {R, L}, yh, VK_OUT}};
	vk_run("softmax.launch.json", "R=37 L=500", args, ARRAY_LEN(args));
	/* v_exp_f32 and v_rcp_f32 (1 ulp each), the f32 sum in the kernel's order and the final multiply */
	vk_check_f32("softmax y [R][L] (f32)", y, want, R * L, 8, 0);
	size_t bad = 0, first = 0;
	for (int i = 0; i < R * L; i++) {
		_Float16 hv;
		memcpy(&hv, &yh[i], 2);
		goth[i] = (float)hv;
		double tol = MAX(ldexp(1.0, ilogb(want[i]) - 10), 0x1p-24); /* 1 f16 ulp */
		if (!(fabs(goth[i] - want[i]) <= tol) && bad++ == 0)
			first = i;
	}
	ck_assert_msg(bad == 0, "softmax yh [R][L] (f16): %zu outside 1 f16 ulp; first at [%zu]: got %g want %g", bad,
		      first, (double)goth[first], want[first]);
	static const char *const insns[] = {"v_mov_b32_dpp", "v_add_f32_dpp", "v_readlane_b32", "v_exp_f32",
					    "v_rcp_f32", "s_barrier", "ds_read_b128", "v_fma_mixlo_f16", NULL};
	vk_expect_insns("softmax", insns);
}
END_TEST

/* ---- buffer loads and stores with range checking ---- */

START_TEST(buffer_oob)
{
	enum { N = 100, LANES = 128, M = 302, SOFF = 8 };
	static uint32_t src[N], out[LANES * 10], dst[LANES], want[LANES * 10], wdst[LANES];
	static uint8_t bytes[512], wbytes[512];
	memset(bytes, 0xa5, sizeof bytes);
	memset(wbytes, 0xa5, sizeof wbytes);
	VkRng r = {10};
	for (int i = 0; i < N; i++)
		src[i] = (uint32_t)vk_next(&r);
	for (int i = 0; i < LANES; i++)
		dst[i] = wdst[i] = 0xdeadbeef;
	/* in range iff the whole access ends within num_records = N*4 bytes; wide loads are checked per dword */
#define IN(off, size) ((off) + (size) <= N * 4)
	for (int g = 0; g < LANES; g++) {
		int off = g * 4;
		uint32_t *o = want + g * 10;
		o[0] = IN(off, 4) ? src[g] : 0;
		o[1] = IN(off + SOFF, 4) ? src[g + SOFF / 4] : 0;
		o[2] = IN(off + 2, 2) ? src[g] >> 16 : 0;
		for (int k = 0; k < 2; k++)
			o[3 + k] = IN(off + 4 * k, 4) ? src[g + k] : 0;
		for (int k = 0; k < 4; k++)
			o[5 + k] = IN(off + 4 * k, 4) ? src[g + k] : 0;
		o[9] = IN(off + 1, 1) ? (src[g] >> 8) & 0xff : 0;
		if (off + 4 <= M)
			wdst[g] = (uint32_t)g * 3u + 1u;
		if (g + 1 <= M)
			wbytes[g] = (uint8_t)(g * 7 + 3);
		if (128 + 2 * g + 2 <= M) {
			wbytes[128 + 2 * g] = (uint8_t)(g * 5 + 1);
			wbytes[128 + 2 * g + 1] = (uint8_t)((g * 5 + 1) >> 8);
		}
	}
#undef IN
	VkArg args[] = {{"src", DT_U32, 1, {N}, src, VK_IN},
			{"out", DT_U32, 2, {LANES, 10}, out, VK_OUT},
			{"dst", DT_U32, 1, {LANES}, dst, VK_INOUT},
			{"bytes", DT_U8, 1, {512}, bytes, VK_INOUT}};
	vk_run("buffer_oob.launch.json", "n=100 m=302 soff=8", args, ARRAY_LEN(args));
	vk_check_u32("buffer_oob loads [128][10] (b32, b32+soffset, b16, b64 x2, b128 x4, b8)", out, want,
		     LANES * 10);
	vk_check_u32("buffer_oob stores [128] (dropped past 302 bytes)", dst, wdst, LANES);
	for (int i = 0; i < 512; i++)
		ck_assert_msg(bytes[i] == wbytes[i], "buffer_oob byte/short stores: byte %d is 0x%02x, want 0x%02x", i,
			bytes[i], wbytes[i]);
	static const char *const insns[] = {"buffer_load_dword", "buffer_load_dwordx2", "buffer_load_dwordx4",
					    "buffer_load_ushort", "buffer_load_ubyte", "buffer_store_dword",
					    "buffer_store_byte", "buffer_store_short", NULL};
	vk_expect_insns("buffer_oob", insns);
}
END_TEST

START_TEST(buffer_sentinel)
{
	enum { N = 100 };
	static uint32_t src[N], out[64 * 4], dst[N], want[64 * 4], wdst[N];
	VkRng r = {21};
	for (int i = 0; i < N; i++) {
		src[i] = (uint32_t)vk_next(&r);
		dst[i] = wdst[i] = 0xcafe0000u + (uint32_t)i;
	}
	for (int l = 0; l < 64; l++) {
		bool in = l % 4 == 0; /* only these lanes have an offset inside num_records */
		uint32_t *o = want + l * 4;
		o[0] = in ? src[l] : 0;
		o[1] = in ? src[l + 2] : 0;
		o[2] = in ? src[l + 4] : 0;
		o[3] = in ? src[l] ^ src[l + 1] : 0;
		if (in)
			wdst[l] = (uint32_t)l + 100u;
	}
	VkArg args[] = {{"src", DT_U32, 1, {N}, src, VK_IN},
			{"out", DT_U32, 2, {64, 4}, out, VK_OUT},
			{"dst", DT_U32, 1, {N}, dst, VK_INOUT}};
	vk_run("buffer_sentinel.launch.json", "n=100", args, ARRAY_LEN(args));
	vk_check_u32("buffer_sentinel loads [64][4] (voffset, +8, soffset 16, b64)", out, want, 64 * 4);
	vk_check_u32("buffer_sentinel stores (sentinel lanes dropped)", dst, wdst, N);
	static const char *const insns[] = {"buffer_load_dwordx3", "buffer_load_dword", "buffer_store_dword", NULL};
	vk_expect_insns("buffer_sentinel", insns);
}
END_TEST

/* ---- a 1024-work-item workgroup ---- */

START_TEST(big_wg)
{
	enum { WG = 1024, NWG = 3, S = WG * NWG };
	static int32_t x[S], out[S * 2];
	static uint32_t want[S * 2];
	VkRng r = {22};
	for (int i = 0; i < S; i++)
		x[i] = vk_int(&r, -1000000, 1000000);
	for (int w = 0; w < NWG; w++) {
		uint32_t total = 0, waves[16] = {0};
		for (int t = 0; t < WG; t++) {
			total += (uint32_t)x[w * WG + t];
			waves[t / 64] += (uint32_t)x[w * WG + t];
		}
		for (int t = 0; t < WG; t++) {
			want[(w * WG + t) * 2] = total;
			want[(w * WG + t) * 2 + 1] = waves[15 - t / 64];
		}
	}
	VkArg args[] = {{"x", DT_I32, 1, {S}, x, VK_IN}, {"out", DT_I32, 2, {S, 2}, out, VK_OUT}};
	vk_run("big_wg.launch.json", NULL, args, ARRAY_LEN(args));
	vk_check_u32("big_wg out [3072][2] (workgroup sum, another wave's partial sum)", (uint32_t *)out, want, S * 2);
	static const char *const insns[] = {"s_barrier", "ds_write_b32", "ds_read_b32", NULL};
	vk_expect_insns("big_wg", insns);
}
END_TEST

/* ---- kernels that fault: reported with exit 1, never a crash ---- */

START_TEST(faults)
{
	static int32_t p[64], out[64], flag[1];
	VkArg a1[] = {{"p", DT_I32, 1, {64}, p, VK_INOUT}};
	CmdResult r = vk_run_raw("oob_store.launch.json", "off=100000000", a1, ARRAY_LEN(a1));
	ck_assert_msg(r.status == 1 && strstr(r.err, "outside any mapped region") && strstr(r.err, "global_store_dword"),
		      "store 400 MB past a buffer: exit %d, %s", r.status, r.err);
	cmd_result_free(&r);
	VkArg a2[] = {{"out", DT_I32, 1, {64}, out, VK_OUT}};
	r = vk_run_raw("wild_load.launch.json", "addr=0x12345678", a2, ARRAY_LEN(a2));
	ck_assert_msg(r.status == 1 && strstr(r.err, "0x12345678") && strstr(r.err, "global_load_dword"),
		      "load from a wild pointer: exit %d, %s", r.status, r.err);
	cmd_result_free(&r);
	VkArg a3[] = {{"out", DT_I32, 1, {64}, out, VK_OUT}, {"flag", DT_I32, 1, {1}, flag, VK_IN}};
	r = vk_run_raw("spin.launch.json", "--max-instructions=100000", a3, ARRAY_LEN(a3));
	ck_assert_msg(r.status == 1 && strstr(r.err, "instruction limit of 100000"), "endless loop: exit %d, %s", r.status,
		      r.err);
	cmd_result_free(&r);
	/* the same loop ends normally once the flag is set: the cap is what stopped it above */
	flag[0] = 1;
	vk_run("spin.launch.json", "--max-instructions=100000", a3, ARRAY_LEN(a3));
	for (int i = 0; i < 64; i++)
		ck_assert_int_eq(out[i], 0);
}
END_TEST

/* ---- hidden kernel arguments and a constant table in the code object ---- */

START_TEST(implicit)
{
	enum { S = 384 };
	static const int table[32] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3,
				      2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5};
	static int32_t x[S], out[S * 8];
	static uint32_t want[S * 8];
	VkRng r = {23};
	for (int i = 0; i < S; i++)
		x[i] = vk_int(&r, 0, 1000000);
	for (int i = 0; i < S; i++) {
		/* grid 3 x 2 workgroups of 16 x 4: hidden block counts, group sizes; grid_dims 2 (wavecc run's
		 * launcher counts the highest dimension in use, docs/launch-format.md) */
		uint32_t w[8] = {3, 2, 1, 16 | 4 << 16, 1, 2, 16 * 100 + 4,
				 (uint32_t)(table[x[i] % 32] + table[i % 32] * 10)};
		memcpy(want + i * 8, w, sizeof w);
	}
	VkArg args[] = {{"x", DT_I32, 1, {S}, x, VK_IN}, {"out", DT_I32, 2, {S, 8}, out, VK_OUT}};
	vk_run("implicit.launch.json", NULL, args, ARRAY_LEN(args));
	static const char *const what[8] = {"hidden_block_count_x", "hidden_block_count_y", "hidden_block_count_z",
					    "hidden_group_size_x/y", "hidden_group_size_z", "hidden_grid_dims",
					    "workgroup_size builtins", "__constant table (s_getpc_b64)"};
	static uint32_t gcol[S], wcol[S];
	for (int k = 0; k < 8; k++) {
		for (int i = 0; i < S; i++) {
			gcol[i] = (uint32_t)out[i * 8 + k];
			wcol[i] = want[i * 8 + k];
		}
		vk_check_u32(what[k], gcol, wcol, S);
	}
	static const char *const insns[] = {"s_getpc_b64", "s_load_dwordx8", "v_bfe_u32", NULL};
	vk_expect_insns("implicit", insns);
}
END_TEST

START_TEST(lanes)
{
	enum { N = 128, K = 37 };
	static int32_t x[N], out[N * 4];
	static uint64_t times[N / 64];
	static uint32_t want[N * 4];
	VkRng r = {24};
	for (int i = 0; i < N; i++)
		x[i] = vk_int(&r, -100000, 100000);
	for (int w = 0; w < N / 64; w++) {
		const int32_t *v = x + w * 64;
		for (int src = 0; src < 64; src++) /* ds_permute: lane (5 src + 3) % 64 receives lane src's value */
			want[(w * 64 + (src * 5 + 3) % 64) * 4] = (uint32_t)v[src];
		for (int l = 0; l < 64; l++) {
			uint32_t *o = want + (w * 64 + l) * 4;
			o[1] = (uint32_t)v[K];
			o[2] = (uint32_t)v[(K * 7 + 1) & 63];
			o[3] = l % 2 == 0 ? (uint32_t)v[(l + 2) % 64] : (uint32_t)-1;
		}
	}
	VkArg args[] = {{"x", DT_I32, 1, {N}, x, VK_IN},
			{"out", DT_I32, 2, {N, 4}, out, VK_OUT},
			{"times", DT_U64, 1, {N / 64}, times, VK_OUT}};
	vk_run("lanes.launch.json", "n=128 k=37", args, ARRAY_LEN(args));
	vk_check_u32("lanes out [n][4] (ds_permute, readlane SGPR index x2, bpermute in a branch)", (uint32_t *)out, want,
		     N * 4);
	for (int w = 0; w < N / 64; w++)
		ck_assert_msg(times[w] < (1ull << 62), "s_memtime went backwards: difference %llu",
			      (unsigned long long)times[w]);
	static const char *const insns[] = {"ds_permute_b32", "ds_bpermute_b32", "v_readlane_b32", "s_memtime",
					    "s_sleep", "s_setprio", NULL};
	vk_expect_insns("lanes", insns);
}
END_TEST

/* ---- barriers with early-exiting waves and two barrier sites ---- */

START_TEST(barriers)
{
	enum { WG = 256, NWG = 3, S = WG * NWG };
	static int32_t x[S], out[S * 2];
	static uint32_t want[S * 2];
	VkRng r = {28};
	for (int i = 0; i < S; i++)
		x[i] = vk_int(&r, -1000000, 1000000);
	static const char *const defs[] = {"live_waves=3", "live_waves=4", "live_waves=1"};
	for (int run = 0; run < 3; run++) {
		int live = run == 0 ? 3 : run == 1 ? 4 : 1, n = live * 64;
		for (int i = 0; i < S * 2; i++) {
			out[i] = -77; /* lanes of exited waves keep this */
			want[i] = (uint32_t)-77;
		}
		for (int w = 0; w < NWG; w++) {
			int first[WG];
			for (int t = 0; t < n; t++)
				first[t] = x[w * WG + (t + 64) % n] + ((t / 64) % 2 == 0 ? 1 : -1);
			for (int t = 0; t < n; t++) {
				want[(w * WG + t) * 2] = (uint32_t)first[t];
				want[(w * WG + t) * 2 + 1] = (uint32_t)first[n - 1 - t] * 2u;
			}
		}
		VkArg args[] = {{"x", DT_I32, 1, {S}, x, VK_IN}, {"out", DT_I32, 2, {S, 2}, out, VK_INOUT}};
		vk_run("barriers.launch.json", defs[run], args, ARRAY_LEN(args));
		vk_check_u32(defs[run], (uint32_t *)out, want, S * 2);
	}
	static const char *const insns[] = {"s_barrier", "s_cbranch_scc1", "s_cbranch_vccz", NULL};
	vk_expect_insns("barriers", insns);
}
END_TEST

/* ---- float, packed-half and 64-bit atomics, LDS histogram ---- */

START_TEST(atomics2)
{
	enum { S = 1024, WG = 256 };
	static int32_t x[S], hist[16];
	static float fsum[4], lds_out[16];
	static uint16_t hsum[4];
	static int64_t lsum[2];
	VkRng r = {29};
	for (int i = 0; i < S; i++)
		x[i] = vk_int(&r, 0, (1 << 20) - 1);
	double wf[4] = {0}, wl[16] = {0}, wh[4] = {0};
	uint32_t whist[16] = {0};
	uint64_t wsum = 0;
	for (int i = 0; i < S; i++) {
		int v = x[i];
		wf[v & 3] += (v & 255) * 0.25;
		wh[(v & 1) * 2] += v & 3;
		wh[(v & 1) * 2 + 1] += 1;
		wsum += (uint64_t)((int64_t)v * 0x10001);
		whist[(v >> 8) & 15]++;
		wl[(i / WG) * 4 + (v & 3)] += v & 15;
	}
	VkArg args[] = {{"x", DT_I32, 1, {S}, x, VK_IN},           {"fsum", DT_F32, 1, {4}, fsum, VK_INOUT},
			{"hsum", DT_F16, 2, {2, 2}, hsum, VK_INOUT},   {"lsum", DT_I64, 1, {2}, lsum, VK_INOUT},
			{"hist", DT_I32, 1, {16}, hist, VK_INOUT},     {"lds_out", DT_F32, 1, {16}, lds_out, VK_OUT}};
	vk_run("atomics2.launch.json", NULL, args, ARRAY_LEN(args));
	vk_check_f32("global_atomic_add_f32 sums", fsum, wf, 4, 0, 0);
	float gh[4];
	for (int k = 0; k < 4; k++)
		gh[k] = h2f_ctl(hsum[k]);
	vk_check_f32("global_atomic_pk_add_f16 sums", gh, wh, 4, 0, 0);
	vk_check_u32("global_atomic_add_x2 sum (as 2 x u32)", (uint32_t *)&lsum[0], (uint32_t *)&wsum, 2);
	ck_assert_msg((uint64_t)lsum[1] >> 32 == 1 && ((uint64_t)lsum[1] & 0xffffffffu) < S,
		      "global_atomic_cmpswap_x2: exactly one work-item's value expected, got 0x%llx",
		      (unsigned long long)lsum[1]);
	vk_check_u32("ds_add_u32 histogram merged with global_atomic_add", (uint32_t *)hist, whist, 16);
	vk_check_f32("ds_add_f32 per-workgroup sums", lds_out, wl, 16, 0, 0);
	static const char *const insns[] = {"global_atomic_add_f32", "global_atomic_pk_add_f16", "global_atomic_add_x2",
					    "global_atomic_cmpswap_x2", "ds_add_u32", "ds_add_f32", "global_atomic_add",
					    NULL};
	vk_expect_insns("atomics2", insns);
}
END_TEST

/* ---- MUBUF atomics (buffer_atomic.ll): what atomic_add compiles to ---- */

START_TEST(buffer_atomic)
{
	enum { N = 300 };
	static int32_t x[N], cnt[16], uniq[N], out_old[N], cnt2[16];
	static float fsum[16], funiq[N], out_fold[N];
	static uint32_t wcnt[16], wuniq[N], wold[N], wcnt2[16];
	static double wf[16], wfu[N], wfold[N];
	VkRng r = {41};
	for (int i = 0; i < N; i++) {
		x[i] = vk_int(&r, -100000, 100000);
		uniq[i] = vk_int(&r, -1000, 1000);
		funiq[i] = (float)vk_int(&r, -1000, 1000) * 0.5f;
	}
	for (int k = 0; k < 16; k++) {
		cnt[k] = k * 1000, cnt2[k] = k;
		fsum[k] = (float)k;
		wcnt[k] = (uint32_t)cnt[k], wcnt2[k] = (uint32_t)cnt2[k], wf[k] = fsum[k];
	}
	for (int g = 0; g < N; g++) {
		int v = x[g];
		wcnt[v & 15] += (uint32_t)v;
		wf[v & 15] += (v & 255) * 0.25;
		wcnt2[(v & 7) + 8] += 1;
		/* out-of-range lanes change nothing and return 0 */
		wold[g] = g % 5 ? (uint32_t)uniq[g] : 0;
		wuniq[g] = (uint32_t)uniq[g] + (g % 5 ? (uint32_t)v : 0);
		wfold[g] = g % 7 ? funiq[g] : 0.0;
		wfu[g] = (double)funiq[g] + (g % 7 ? 0.5 * v : 0.0);
	}
	VkArg args[] = {{"x", DT_I32, 1, {N}, x, VK_IN},		{"cnt", DT_I32, 1, {16}, cnt, VK_INOUT},
			{"uniq", DT_I32, 1, {N}, uniq, VK_INOUT},	{"out_old", DT_I32, 1, {N}, out_old, VK_OUT},
			{"fsum", DT_F32, 1, {16}, fsum, VK_INOUT},	{"funiq", DT_F32, 1, {N}, funiq, VK_INOUT},
			{"out_fold", DT_F32, 1, {N}, out_fold, VK_OUT}, {"cnt2", DT_I32, 1, {16}, cnt2, VK_INOUT}};
	vk_run("buffer_atomic.launch.json", "n=300", args, ARRAY_LEN(args));
	vk_check_u32("buffer_atomic_add counters", (uint32_t *)cnt, wcnt, 16);
	vk_check_u32("buffer_atomic_add sc0/glc: the old values (0 out of range)", (uint32_t *)out_old, wold, N);
	vk_check_u32("buffer_atomic_add sc0/glc: the sums (dropped out of range)", (uint32_t *)uniq, wuniq, N);
	vk_check_u32("buffer_atomic_add offset:32", (uint32_t *)cnt2, wcnt2, 16);
	vk_check_f32("buffer_atomic_add_f32 sums", fsum, wf, 16, 0, 0);
	vk_check_f32("buffer_atomic_add_f32 sc0/glc: the old values", out_fold, wfold, N, 0, 0);
	vk_check_f32("buffer_atomic_add_f32 sc0/glc: the sums", funiq, wfu, N, 0, 0);
	static const char *const insns[] = {"buffer_atomic_add", "buffer_atomic_add_f32", NULL};
	vk_expect_insns("buffer_atomic", insns);
}
END_TEST

/* ---- generic pointers and atomics ---- */

START_TEST(flat_atomic)
{
	enum { WG = 128, NWG = 8, S = WG * NWG };
	static int32_t g[S], out[S * 4], counters[4];
	static uint32_t wg_[S], wout[S * 4];
	VkRng r = {14};
	for (int i = 0; i < S; i++)
		g[i] = vk_int(&r, -100000, 100000);
	counters[0] = 0, counters[1] = -5, counters[2] = 5, counters[3] = 0;
	int64_t sum = 0;
	int32_t mx = -5, mn = 5;
	for (int w = 0; w < NWG; w++)
		for (int t = 0; t < WG; t++) {
			int gid = w * WG + t;
			int32_t v = w & 1 ? 3 * ((t + 1) % WG) : g[w * WG + (t + 1) % WG];
			wg_[gid] = w & 1 ? (uint32_t)g[gid] : (uint32_t)(v + 1); /* odd workgroups work in LDS */
			wout[gid * 4] = (uint32_t)(v + 1);
			wout[gid * 4 + 1] = 7;
			wout[gid * 4 + 2] = 2 * WG;
			sum += t + 1;
			mx = MAX(mx, gid * 7 % 1000);
			mn = MIN(mn, -(gid * 13 % 777));
		}
	VkArg args[] = {{"g", DT_I32, 1, {S}, g, VK_INOUT},
			{"out", DT_I32, 2, {S, 4}, out, VK_OUT},
			{"counters", DT_I32, 1, {4}, counters, VK_INOUT}};
	vk_run("flat_atomic.launch.json", "sel=1", args, ARRAY_LEN(args));
	/* column 3: exactly one work-item per workgroup won the LDS compare-and-swap and all see its value */
	for (int w = 0; w < NWG; w++) {
		int winners = 0, winner = -1;
		for (int t = 0; t < WG; t++)
			if (out[(w * WG + t) * 4 + 3] >= 1000)
				winners++, winner = t;
		ck_assert_msg(winners == 1, "flat_atomic: workgroup %d has %d cmpxchg winners, want 1", w, winners);
		for (int t = 0; t < WG; t++)
			wout[(w * WG + t) * 4 + 3] = (t == winner ? 1000u : 0u) + 200u + (uint32_t)winner;
	}
	vk_check_u32("flat_atomic g (flat stores to global)", (uint32_t *)g, wg_, S);
	vk_check_u32("flat_atomic out [S][4] (flat load, add/ds_add results, ds_add total, cmpxchg)", (uint32_t *)out,
		     wout, S * 4);
	uint32_t wc[4] = {(uint32_t)sum, (uint32_t)mx, (uint32_t)mn, 5};
	vk_check_u32("flat_atomic counters (add, max, min, xchg)", (uint32_t *)counters, wc, 4);
	static const char *const insns[] = {"flat_load_dword", "flat_store_dword", "global_atomic_add",
					    "global_atomic_cmpswap", "global_atomic_swap", "ds_add_rtn_u32",
					    "ds_cmpst_rtn_b32", "s_ff1_i32_b64", "v_writelane_b32", NULL};
	vk_expect_insns("flat_atomic", insns);
}
END_TEST

/* The same cases on gfx942 and, recompiled by clang, on gfx90a. */
static TCase *cases(const char *arch, void (*setup)(void))
{
	TCase *tc = tcase_create(arch);
	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, loops);
	tcase_add_test(tc, divergent);
	tcase_add_test(tc, wave_ops);
	tcase_add_test(tc, wave_ops_o0);
	tcase_add_test(tc, lds_transpose);
	tcase_add_test(tc, lds_reduce);
	tcase_add_test(tc, lds_reduce_o0);
	tcase_add_test(tc, lds_types);
	tcase_add_test(tc, scalar_ops);
	tcase_add_test(tc, softmax);
	tcase_add_test(tc, buffer_oob);
	tcase_add_test(tc, flat_atomic);
	tcase_add_test(tc, private_mem);
	tcase_add_test(tc, buffer_sentinel);
	tcase_add_test(tc, big_wg);
	tcase_add_test(tc, faults);
	tcase_add_test(tc, lanes);
	tcase_add_test(tc, implicit);
	tcase_add_test(tc, barriers);
	tcase_add_test(tc, atomics2);
	tcase_add_test(tc, buffer_atomic);
	return tc;
}

int main(void)
{
	Suite *s = suite_create("validate_control");
	suite_add_tcase(s, cases("gfx942", setup_gfx942));
	suite_add_tcase(s, cases("gfx942:sramecc-", setup_noecc));
	suite_add_tcase(s, cases("gfx90a", setup_gfx90a));
	return run_suite(s);
}
