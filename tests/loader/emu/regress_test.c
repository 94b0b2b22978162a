/* regress_test.c — regression tests for the emulator bugs found by the
 * clang-19 validation suites (/tmp/wavecc-notes/emu-bugs.md): the f32 and
 * f64 division sequences with denormal operands, v_dot4c/v_dot2c, the
 * v_sad family, ds_cmpst, DPP row/bank masks with bound_ctrl and scratch
 * (private segment) memory. Each test is
 * hand-written assembly (llvm-mc-19) whose expected values are computed here
 * independently: the host's correctly rounded division, byte loops, a
 * sequential model of the LDS compare-and-store. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../../util/dtype.h"
#include "emu_harness.h"

static uint32_t U(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float F(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t UD(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

/* Loads: v1 = 4*lane, v12 = 8*lane; s[4:5], s[6:7], s[8:9], s[10:11],
 * s[12:13], s[14:15] = the kernarg pointers at 0..40. */
static const char *prologue =
	"s_load_dwordx8 s[4:11], s[0:1], 0x0\n"
	"s_load_dwordx4 s[12:15], s[0:1], 0x20\n"
	"v_and_b32 v0, 0x3ff, v0\n"
	"v_lshlrev_b32 v1, 2, v0\n"
	"v_lshlrev_b32 v12, 3, v0\n"
	"s_waitcnt lgkmcnt(0)\n";

/* The correctly rounded division sequences clang-19 emits for gfx942 with
 * denormals kept (f32 under -cl-fp32-correctly-rounded-divide-sqrt). */
static const char *div_code =
	"global_load_dword v4, v1, s[4:5]\n"
	"global_load_dword v2, v1, s[6:7]\n"
	"global_load_dwordx2 v[20:21], v12, s[8:9]\n"
	"global_load_dwordx2 v[22:23], v12, s[10:11]\n"
	"s_waitcnt vmcnt(0)\n"
	"v_div_scale_f32 v3, s[20:21], v2, v2, v4\n"
	"v_rcp_f32_e32 v5, v3\n"
	"v_div_scale_f32 v6, vcc, v4, v2, v4\n"
	"v_fma_f32 v7, -v3, v5, 1.0\n"
	"v_fmac_f32_e32 v5, v7, v5\n"
	"v_mul_f32_e32 v7, v6, v5\n"
	"v_fma_f32 v8, -v3, v7, v6\n"
	"v_fmac_f32_e32 v7, v8, v5\n"
	"v_fma_f32 v3, -v3, v7, v6\n"
	"v_div_fmas_f32 v3, v3, v5, v7\n"
	"v_div_fixup_f32 v10, v3, v2, v4\n"
	"global_store_dword v1, v10, s[12:13]\n"
	"v_div_scale_f64 v[6:7], s[20:21], v[22:23], v[22:23], v[20:21]\n"
	"v_rcp_f64_e32 v[8:9], v[6:7]\n"
	"v_div_scale_f64 v[10:11], vcc, v[20:21], v[22:23], v[20:21]\n"
	"v_fma_f64 v[24:25], -v[6:7], v[8:9], 1.0\n"
	"v_fmac_f64_e32 v[8:9], v[8:9], v[24:25]\n"
	"v_fma_f64 v[24:25], -v[6:7], v[8:9], 1.0\n"
	"v_fmac_f64_e32 v[8:9], v[8:9], v[24:25]\n"
	"v_mul_f64 v[24:25], v[10:11], v[8:9]\n"
	"v_fma_f64 v[6:7], -v[6:7], v[24:25], v[10:11]\n"
	"v_div_fmas_f64 v[6:7], v[6:7], v[8:9], v[24:25]\n"
	"v_div_fixup_f64 v[26:27], v[6:7], v[22:23], v[20:21]\n"
	"global_store_dwordx2 v12, v[26:27], s[14:15]\n";

static bool same_f(float x, float y) { return U(x) == U(y) || (isnan(x) && isnan(y)); }
static bool same_d(double x, double y) { return UD(x) == UD(y) || (isnan(x) && isnan(y)); }

/* Bugs 1 and 5: quotients with denormal divisors and dividends, near the
 * ends of the exponent range, and the special cases; every lane must equal
 * the host's IEEE quotient bit for bit. */
START_TEST(divide_denormals)
{
	static const float fcase[][2] = {
		{1e-45f, 1e-45f}, {3e-39f, 7e-40f}, {0.0444f, 2.9e-40f}, {4.495e-41f, 2.63384e-40f},
		{1.72e-43f, 7.050443e-12f}, {1.0f, 3.0f}, {3e38f, 1e-38f}, {1e-38f, 3e38f}, {2e-38f, 3e37f},
		{1.0f, 3e38f}, {1e-30f, 1e30f}, {0.0f, 1e-45f}, {1e-45f, 0.0f}, {0.0f, 0.0f}, {INFINITY, 2.0f},
		{2.0f, INFINITY}, {INFINITY, INFINITY}, {NAN, 1.0f}, {-7.0f, 1e-40f}, {-1e-40f, -3.0f},
		{3.4028235e38f, 1e-45f}, {1e-45f, 3.4028235e38f}, {1.17549435e-38f, 2.0f}, {5.877472e-39f, 0.5f},
	};
	static const double dcase[][2] = {
		{5e-324, 5e-324}, {5e-324, 1e-310}, {1e-310, 5e-324}, {1e-310, 1e-310}, {3e-320, 7e-321},
		{5e-324, 1.0}, {1.0, 3.0}, {1e308, 1e-308}, {1e-308, 1e308}, {1.0, 1.7e308}, {1e-300, 1e300},
		{2e-300, 3e20}, {0.0, 5e-324}, {5e-324, 0.0}, {INFINITY, 2.0}, {2.0, INFINITY}, {NAN, 1.0},
		{-7.0, 1e-310}, {1.7976931348623157e308, 5e-324}, {2.2250738585072014e-308, 2.0},
	};
	enum { NF = sizeof fcase / sizeof fcase[0], ND = sizeof dcase / sizeof dcase[0] };
	float fa[64], fb[64], fo[64];
	double da[64], db[64], dout[64];
	uint32_t seed = 99;
	for (int l = 0; l < 64; l++) {
		if (l < NF) {
			fa[l] = fcase[l][0], fb[l] = fcase[l][1];
		} else { /* random bit patterns, many of them denormal */
			seed = seed * 1664525u + 1013904223u;
			fa[l] = F(seed >> (l % 3 == 0 ? 6 : 1));
			seed = seed * 1664525u + 1013904223u;
			fb[l] = F(seed >> (l % 4 == 0 ? 6 : 1));
		}
		if (l < ND) {
			da[l] = dcase[l][0], db[l] = dcase[l][1];
		} else {
			uint64_t x = (uint64_t)seed * 0x9e3779b97f4a7c15ull, y = x * 0xbf58476d1ce4e5b9ull + 7;
			x >>= l % 3 == 0 ? 12 : 1, y >>= l % 4 == 0 ? 12 : 1;
			memcpy(&da[l], &x, 8), memcpy(&db[l], &y, 8);
		}
	}
	Buf b = {0};
	buf_puts(&b, prologue);
	buf_puts(&b, div_code);
	Harness h;
	h_init(&h, buf_cstr(&b));
	buf_free(&b);
	h_buffer(&h, fa, sizeof fa, 0, false);
	h_buffer(&h, fb, sizeof fb, 8, false);
	h_buffer(&h, da, sizeof da, 16, false);
	h_buffer(&h, db, sizeof db, 24, false);
	h_buffer(&h, fo, sizeof fo, 32, true);
	h_buffer(&h, dout, sizeof dout, 40, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	int bad = 0;
	for (int l = 0; l < 64; l++) {
		volatile float qf = fa[l] / fb[l];
		volatile double qd = da[l] / db[l];
		if (!same_f(fo[l], qf) && bad++ < 10)
			fprintf(stderr, "f32 lane %d: %a / %a = %a, want %a\n", l, fa[l], fb[l], fo[l], qf);
		if (!same_d(dout[l], qd) && bad++ < 10)
			fprintf(stderr, "f64 lane %d: %a / %a = %a, want %a\n", l, da[l], db[l], dout[l], qd);
	}
	ck_assert_int_eq(bad, 0);
	h_free(&h);
}
END_TEST

/* v_div_scale's VCC: set only for the lanes whose quotient needs a single
 * operand scaled (overflowing or denormal quotient). */
START_TEST(div_scale_vcc)
{
	Harness h;
	h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		   "v_mov_b32 v1, 0x00000001\n" /* divisor: smallest denormal */
		   "v_mov_b32 v2, 0x7f000000\n" /* numerator 2^127: quotient overflows */
		   "v_div_scale_f32 v4, s[10:11], v2, v1, v2\n"
		   "v_mov_b32 v2, 0x2b800000\n" /* 2^-40 */
		   "v_div_scale_f32 v5, s[12:13], v2, v1, v2\n" /* denormal divisor: both scaled, no VCC */
		   "v_div_scale_f32 v6, s[14:15], v1, v1, v2\n"
		   "v_mov_b32 v7, s10\nv_mov_b32 v8, s12\n"
		   "v_mov_b32 v0, 0\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "global_store_dwordx4 v0, v[4:7], s[4:5]\n"
		   "global_store_dword v0, v8, s[4:5] offset:16\n");
	h.l.wg_size[0] = 1;
	uint32_t out[5] = {0};
	h_buffer(&h, out, sizeof out, 0, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	ck_assert_uint_eq(out[0], 0x7f000000u);           /* numerator not scaled */
	ck_assert_uint_eq(out[3], 1u);                    /* VCC set in lane 0 */
	ck_assert_uint_eq(out[1], U(0x1p24f));           /* 2^-40 * 2^64 */
	ck_assert_uint_eq(out[2], U(ldexpf(0x1p-149f, 64)));
	ck_assert_uint_eq(out[4], 0u);
	h_free(&h);
}
END_TEST

/* Bugs 2 and 6: v_dot4c_i32_i8 / v_dot2c_f32_f16 (accumulating into the
 * destination), the v_sad family, and v_dot4 with clamp (saturating), on
 * random inputs. */
static uint32_t absdiff(uint32_t x, uint32_t y) { return x > y ? x - y : y - x; }

START_TEST(dot_and_sad)
{
	enum { NOUT = 9 };
	Buf b = {0};
	buf_puts(&b, prologue);
	buf_puts(&b, "global_load_dword v2, v1, s[4:5]\n"
		     "global_load_dword v3, v1, s[6:7]\n"
		     "global_load_dword v4, v1, s[8:9]\n"
		     "s_waitcnt vmcnt(0)\n"
		     "v_mov_b32 v10, v4\nv_dot4c_i32_i8 v10, v2, v3\n"
		     "v_mov_b32 v11, v4\nv_dot2c_f32_f16 v11, v2, v3\n"
		     "v_sad_u8 v12, v2, v3, v4\n"
		     "v_sad_hi_u8 v13, v2, v3, v4\n"
		     "v_sad_u16 v14, v2, v3, v4\n"
		     "v_sad_u32 v15, v2, v3, 5\n"
		     "v_msad_u8 v16, v2, v3, v4\n"
		     "v_dot4_u32_u8 v17, v2, v3, v4 clamp\n"
		     "v_dot4_i32_i8 v18, v2, v3, v4 clamp\n");
	for (int i = 0; i < NOUT; i++)
		buf_printf(&b, "global_store_dword v1, v%d, s[10:11] offset:%d\n", 10 + i, 256 * i);
	Harness h;
	h_init(&h, buf_cstr(&b));
	buf_free(&b);
	uint32_t x[64], y[64], z[64], out[NOUT][64];
	uint32_t seed = 7;
	for (int l = 0; l < 64; l++) {
		seed = seed * 1664525u + 1013904223u, x[l] = seed;
		seed = seed * 1664525u + 1013904223u, y[l] = seed & (l % 3 ? ~0u : 0x00ff00ffu); /* zero bytes for msad */
		seed = seed * 1664525u + 1013904223u, z[l] = seed;
		/* dot2c: finite halves, accumulator a small float */
		if (l % 2) {
			x[l] = (x[l] & 0x3fff3fffu), y[l] = (y[l] & 0x3fff3fffu);
			z[l] = U((float)(int)(seed % 1000) / 7.0f);
		} else if (l % 10 < 6) { /* accumulators that saturate under clamp */
			static const uint32_t edge[3] = {0xfffffff0u, 0x7ffffff0u, 0x80000010u};
			z[l] = edge[l % 10 / 2];
		}
	}
	h_buffer(&h, x, sizeof x, 0, false);
	h_buffer(&h, y, sizeof y, 8, false);
	h_buffer(&h, z, sizeof z, 16, false);
	h_buffer(&h, out, sizeof out, 24, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	int bad = 0;
	for (int l = 0; l < 64; l++) {
		int64_t dot = (int32_t)z[l], udot = z[l];
		uint32_t sad = 0, msad = 0, sad16 = 0;
		for (int k = 0; k < 4; k++) {
			int8_t p = (int8_t)(uint8_t)(x[l] >> (8 * k)), q = (int8_t)(uint8_t)(y[l] >> (8 * k));
			dot += p * q;
			udot += ((x[l] >> (8 * k)) & 0xff) * ((y[l] >> (8 * k)) & 0xff);
			uint32_t d = absdiff((x[l] >> (8 * k)) & 0xff, (y[l] >> (8 * k)) & 0xff);
			sad += d;
			msad += ((y[l] >> (8 * k)) & 0xff) ? d : 0;
		}
		for (int k = 0; k < 2; k++)
			sad16 += absdiff((x[l] >> (16 * k)) & 0xffff, (y[l] >> (16 * k)) & 0xffff);
		uint32_t want[NOUT] = {(uint32_t)dot, 0, sad + z[l], (sad << 16) + z[l], sad16 + z[l], absdiff(x[l], y[l]) + 5,
				       msad + z[l], udot > UINT32_MAX ? UINT32_MAX : (uint32_t)udot,
				       (uint32_t)(dot > INT32_MAX ? INT32_MAX : dot < INT32_MIN ? INT32_MIN : dot)};
		double f = (double)dtype_f16_to_f32((uint16_t)x[l]) * dtype_f16_to_f32((uint16_t)y[l]) +
			   (double)dtype_f16_to_f32((uint16_t)(x[l] >> 16)) * dtype_f16_to_f32((uint16_t)(y[l] >> 16));
		want[1] = U((float)(f + F(z[l])));
		for (int i = 0; i < NOUT; i++) {
			if (i == 1 && !(l % 2))
				continue; /* random halves may be NaN/inf */
			if (out[i][l] != want[i] && bad++ < 10)
				fprintf(stderr, "output %d lane %d: got 0x%08x want 0x%08x\n", i, l, out[i][l], want[i]);
		}
	}
	ck_assert_int_eq(bad, 0);
	h_free(&h);
}
END_TEST

/* Bug 4: ds_cmpst_rtn_b32 (compare = data0, new = data1). All lanes race on
 * one dword comparing with its initial 0: lanes act in order, so exactly the
 * first active lane stores and every later one sees its value. Then each
 * lane on its own dword, where only even lanes' compare values match. */
START_TEST(ds_cmpst)
{
	Buf b = {0};
	buf_puts(&b, prologue);
	buf_puts(&b, "v_mov_b32 v2, 0\n"
		     "v_add_u32 v3, 100, v0\n"              /* new value: 100 + lane */
		     "v_mov_b32 v9, 0\n"
		     "ds_write_b32 v9, v9 offset:512\n"
		     "v_mov_b32 v4, 0xdead\n"
		     "v_cmp_ne_u32 vcc, 0, v0\n"
		     "s_and_saveexec_b64 s[20:21], vcc\n"   /* lane 0 sits out: lane 1 wins */
		     "ds_cmpst_rtn_b32 v4, v9, v2, v3 offset:512\n"
		     "s_mov_b64 exec, s[20:21]\n"
		     "v_and_b32 v5, 1, v0\n"                /* own dword holds 7*lane; compare with 7*lane + (lane & 1) */
		     "v_mul_u32_u24 v6, 7, v0\n"
		     "ds_write_b32 v1, v6\n"
		     "v_add_u32 v7, v6, v5\n"
		     "ds_cmpst_b32 v1, v7, v3\n"
		     "ds_read_b32 v8, v1\n"
		     "ds_read_b32 v10, v9 offset:512\n"
		     "s_waitcnt lgkmcnt(0)\n"
		     "global_store_dword v1, v4, s[4:5]\n"
		     "global_store_dword v1, v8, s[4:5] offset:256\n"
		     "global_store_dword v1, v10, s[4:5] offset:512\n");
	Harness h;
	h_init(&h, buf_cstr(&b));
	buf_free(&b);
	h.l.kd.group_segment_fixed_size = 1024;
	uint32_t out[3][64];
	memset(out, 0xee, sizeof out);
	h_buffer(&h, out, sizeof out, 0, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	/* sequential model of the first race */
	uint32_t cell = 0, ret[64];
	for (int l = 1; l < 64; l++) {
		ret[l] = cell;
		if (cell == 0)
			cell = 100 + (uint32_t)l;
	}
	ck_assert_uint_eq(out[0][0], 0xdead); /* inactive lane 0: v4 not written */
	for (int l = 0; l < 64; l++) {
		if (l)
			ck_assert_uint_eq(out[0][l], ret[l]);
		ck_assert_uint_eq(out[1][l], l % 2 ? 7u * l : 100u + l);
		ck_assert_uint_eq(out[2][l], cell);
	}
	ck_assert_uint_eq(cell, 101);
	h_free(&h);
}
END_TEST

/* Bug 9: DPP lanes that row_mask/bank_mask disable are not written, even
 * when bound_ctrl would zero an invalid source lane. */
START_TEST(dpp_masks_bound_ctrl)
{
	Buf b = {0};
	buf_puts(&b, prologue);
	buf_puts(&b, "v_mov_b32 v2, -3\n"
		     "v_add_u32 v7, 1000, v0\n"
		     "v_mov_b32_dpp v2, v7 row_shr:3 row_mask:0xa bank_mask:0x6 bound_ctrl:0\n"
		     "global_store_dword v1, v2, s[4:5]\n");
	Harness h;
	h_init(&h, buf_cstr(&b));
	buf_free(&b);
	uint32_t out[64];
	h_buffer(&h, out, sizeof out, 0, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	for (int l = 0; l < 64; l++) {
		bool on = ((0xa >> (l / 16)) & 1) && ((0x6 >> ((l % 16) / 4)) & 1);
		uint32_t want = !on ? (uint32_t)-3 : l % 16 >= 3 ? 1000u + (uint32_t)l - 3 : 0;
		ck_assert_msg(out[l] == want, "lane %d: got %d want %d", l, (int)out[l], (int)want);
	}
	h_free(&h);
}
END_TEST

/* Bug 7: scratch_* on gfx942's architected flat scratch. Every lane has its
 * own private_segment_fixed_size bytes; the address is SGPR (or off) + VGPR
 * (or off) + offset; FLAT through src_private_base reaches the same memory.
 * The expected contents come from a per-lane model of the same stores.
 * gfx90a reaches the same memory through MUBUF and its private-segment V#. */
START_TEST(scratch_private)
{
	Buf b = {0};
	buf_puts(&b, prologue);
	buf_puts(&b, "v_mov_b32 v2, 8\n"
		     "s_mov_b32 s20, 16\n"
		     "v_add_u32 v18, 1000, v0\n"
		     "v_add_u32 v19, 2000, v0\n"
		     "v_add_u32 v20, 3000, v0\n"
		     "scratch_store_dwordx3 off, v[18:20], off\n"        /* [0..2] */
		     "scratch_store_dword v2, v19, off offset:4\n"       /* [3] */
		     "scratch_store_dword off, v20, s20 offset:8\n"      /* [6] */
		     "scratch_store_dword v2, v18, s20 offset:-4\n"      /* [5] */
		     "s_mov_b64 s[22:23], src_private_base\n"
		     "v_mov_b32 v6, 28\n"
		     "v_mov_b32 v7, s23\n"
		     "flat_store_dword v[6:7], v0\n"                    /* [7] */
		     "v_mov_b32 v6, 4\n"
		     "flat_load_dword v16, v[6:7]\n"                    /* [1] */
		     "scratch_store_short v2, v0, off offset:32\n"      /* low half of [10] */
		     "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
		     "scratch_load_dwordx4 v[8:11], off, off\n"
		     "scratch_load_dwordx4 v[12:15], off, s20\n"
		     "scratch_load_dword v17, v2, off offset:32\n"
		     "s_waitcnt vmcnt(0)\n");
	for (int i = 0; i < 10; i++)
		buf_printf(&b, "global_store_dword v1, v%d, s[4:5] offset:%d\n", 8 + i, 256 * i);
	Harness h;
	h_init(&h, buf_cstr(&b));
	buf_free(&b);
	h.l.kd.private_segment_fixed_size = 64;
	h.l.kd.enable_private_segment = true;
	uint32_t out[10][64];
	h_buffer(&h, out, sizeof out, 0, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	for (uint32_t l = 0; l < 64; l++) {
		uint32_t m[16] = {0};
		m[0] = 1000 + l, m[1] = 2000 + l, m[2] = 3000 + l;
		m[3] = 2000 + l, m[6] = 3000 + l, m[5] = 1000 + l, m[7] = l;
		uint32_t v16 = m[1];
		m[10] = l & 0xffff;
		uint32_t want[10] = {m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], v16, m[10]};
		for (int i = 0; i < 10; i++)
			ck_assert_msg(out[i][l] == want[i], "output %d lane %u: got %u want %u", i, l, out[i][l], want[i]);
	}
	h_free(&h);
	/* gfx90a: the private-segment buffer V# in user SGPRs, used by MUBUF */
	h_init(&h, "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
		   "v_and_b32 v0, 0x3ff, v0\n"
		   "v_lshlrev_b32 v1, 2, v0\n"
		   "v_add_u32 v2, 500, v0\n"
		   "v_mov_b32 v3, 4\n"
		   "buffer_store_dword v2, off, s[8:11], 0 offset:8\n"
		   "buffer_store_dword v0, v3, s[8:11], 0 offen offset:8\n"
		   "buffer_load_dword v5, off, s[8:11], 0 offset:12\n"
		   "buffer_load_dword v6, v3, s[8:11], 0 offen offset:4\n"
		   "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
		   "global_store_dword v1, v5, s[4:5]\n"
		   "global_store_dword v1, v6, s[4:5] offset:256\n");
	h.l.arch = EMU_GFX90A;
	h.l.kd.private_segment_fixed_size = 16;
	h.l.kd.sgpr_private_segment_buffer = 8;
	uint32_t o2[2][64];
	h_buffer(&h, o2, sizeof o2, 0, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	for (uint32_t l = 0; l < 64; l++) {
		ck_assert_uint_eq(o2[0][l], l);
		ck_assert_uint_eq(o2[1][l], 500 + l);
	}
	h_free(&h);
	/* with the private segment enabled, the wave's scratch offset comes in
	 * the SGPR after the workgroup ids (s5 here: 2 user SGPRs, 3 ids),
	 * nonzero: the kernel adds it to the V#'s base as LLVM does (or passes
	 * it as soffset); one that forgets it reaches outside its bytes */
	static const char *const with_offset[] = {
		("s_add_u32 s8, s8, s20\ns_addc_u32 s9, s9, 0\n"
		 "buffer_store_dword v0, off, s[8:11], 0 offset:4\nbuffer_load_dword v5, off, s[8:11], 0 offset:4\n"),
		"buffer_store_dword v0, off, s[8:11], s20 offset:4\nbuffer_load_dword v5, off, s[8:11], s20 offset:4\n",
		"buffer_store_dword v0, off, s[8:11], 0 offset:4\nbuffer_load_dword v5, off, s[8:11], 0 offset:4\n"};
	for (int i = 0; i < 3; i++) {
		Buf k = {0};
		buf_printf(&k, "s_mov_b32 s20, s5\ns_load_dwordx2 s[4:5], s[0:1], 0x0\nv_and_b32 v0, 0x3ff, v0\n"
			       "v_lshlrev_b32 v1, 2, v0\n%ss_waitcnt vmcnt(0) lgkmcnt(0)\nglobal_store_dword v1, v5, s[4:5]\n",
			with_offset[i]);
		h_init(&h, buf_cstr(&k));
		buf_free(&k);
		h.l.arch = EMU_GFX90A;
		h.l.kd.private_segment_fixed_size = 16;
		h.l.kd.sgpr_private_segment_buffer = 8;
		h.l.kd.enable_private_segment = true;
		h_buffer(&h, o2, sizeof o2[0], 0, true);
		if (i < 2) {
			ck_assert_msg(h_run(&h) == 0, "%s", h.err);
			for (uint32_t l = 0; l < 64; l++)
				ck_assert_uint_eq(o2[0][l], l);
		} else {
			ck_assert_int_eq(h_run(&h), -1);
			ck_assert_msg(strstr(h.err, "scratch access outside the lane's 16 private bytes") != NULL, "%s", h.err);
		}
		h_free(&h);
	}
	/* outside the lane's private bytes: an error naming the access */
	h_init(&h, "v_mov_b32 v2, 0\nscratch_load_dword v1, v2, off offset:64\n");
	h.l.kd.private_segment_fixed_size = 64;
	ck_assert_int_eq(h_run(&h), -1);
	ck_assert_msg(strstr(h.err, "scratch access outside the lane's 64 private bytes") != NULL, "%s", h.err);
	h_free(&h);
}
END_TEST

/* Bugs 11, 13, 14, 15: VOP3P with SGPR sources (each half of the register
 * feeds its own lane), v_pk_mov_b32's op_sel, and the clamp bit on packed
 * integer, SDWA, VOP3 integer and packed float arithmetic. Inputs are
 * random lane values plus the saturation edges; references are computed
 * here lane by lane. */
static uint32_t lohi(uint32_t lo, uint32_t hi) { return (lo & 0xffff) | (hi & 0xffff) << 16; }
static int64_t sx16(uint32_t v) { return (int16_t)(uint16_t)v; }
static uint32_t clampu16(int64_t v) { return v < 0 ? 0 : v > 0xffff ? 0xffff : (uint32_t)v; }
static uint32_t clampi16(int64_t v) { return (uint32_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v) & 0xffff; }
static uint32_t clamph(float f)
{
	return dtype_f32_to_f16(isnan(f) ? 0.0f : f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f);
}

START_TEST(packed_sgpr_and_clamp)
{
	enum { NOUT = 10 };
	static const char *code =
		"s_load_dwordx4 s[4:7], s[0:1], 0x0\n"
		"s_load_dwordx2 s[8:9], s[0:1], 0x10\n"
		"v_and_b32 v0, 0x3ff, v0\n"
		"v_lshlrev_b32 v1, 2, v0\n"
		"v_mul_u32_u24 v30, 40, v0\n"
		"s_waitcnt lgkmcnt(0)\n"
		"global_load_dword v10, v1, s[4:5]\n"
		"global_load_dword v11, v1, s[6:7]\n"
		"s_waitcnt vmcnt(0)\n"
		"s_mov_b32 s1, 0x5fffd\n"
		"s_mov_b32 s2, 0x90003\n"
		"s_mov_b32 s12, 0x11112222\n"
		"s_mov_b32 s13, 0x33334444\n"
		"v_pk_mad_u16 v12, v10, s1, v11\n"
		"v_pk_ashrrev_i16 v13, s2, v10\n"
		"v_pk_add_i16 v14, v10, v11 clamp\n"
		"v_pk_sub_u16 v15, v10, v11 clamp\n"
		"v_sub_u16_sdwa v16, v10, v11 clamp dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:BYTE_1\n"
		"v_pk_fma_f16 v17, v10, v11, v10 clamp\n"
		"v_add_u32_e64 v18, v10, v11 clamp\n"
		"v_sub_i32 v19, v10, v11 clamp\n"
		"v_pk_mov_b32 v[20:21], s[12:13], s[12:13] op_sel:[1,0]\n"
		"v_pk_mov_b32 v[22:23], v[10:11], v[10:11] op_sel:[0,1]\n"
		"v_add_u32 v21, v21, v22\n" /* fold the VGPR form into column 9 */
		"v_add_u32 v21, v21, v23\n"
		"global_store_dword v30, v12, s[8:9]\n"
		"global_store_dword v30, v13, s[8:9] offset:4\n"
		"global_store_dword v30, v14, s[8:9] offset:8\n"
		"global_store_dword v30, v15, s[8:9] offset:12\n"
		"global_store_dword v30, v16, s[8:9] offset:16\n"
		"global_store_dword v30, v17, s[8:9] offset:20\n"
		"global_store_dword v30, v18, s[8:9] offset:24\n"
		"global_store_dword v30, v19, s[8:9] offset:28\n"
		"global_store_dword v30, v20, s[8:9] offset:32\n"
		"global_store_dword v30, v21, s[8:9] offset:36\n";
	uint32_t a[64], b[64], out[64][NOUT];
	static const uint32_t edge[][2] = {
		{0x7fff0001, 0x00017fff}, {0x80000001, 0x80000002}, {0x00000005, 0x00070003}, {0xffffffff, 0x00000001},
		{0x7fffffff, 0xffffffff}, {0x3c003800, 0x3c003c00}, {0xbc00fc00, 0x3c007e00}, {0x0000ff00, 0x00000100},
	};
	uint32_t seed = 7;
	for (int l = 0; l < 64; l++) {
		if (l < 8) {
			a[l] = edge[l][0], b[l] = edge[l][1];
		} else if (l < 40) { /* halves in [-2, 2] for the f16 column */
			seed = seed * 1664525u + 1013904223u;
			float x = (float)(int)(seed >> 20) / 1024.0f - 2.0f, y = (float)(int)((seed >> 8) & 0xfff) / 1024.0f - 2.0f;
			seed = seed * 1664525u + 1013904223u;
			float z = (float)(int)(seed >> 20) / 1024.0f - 2.0f, t = (float)(int)((seed >> 8) & 0xfff) / 1024.0f - 2.0f;
			a[l] = lohi(dtype_f32_to_f16(x), dtype_f32_to_f16(y)), b[l] = lohi(dtype_f32_to_f16(z), dtype_f32_to_f16(t));
		} else {
			seed = seed * 1664525u + 1013904223u;
			a[l] = seed;
			seed = seed * 1664525u + 1013904223u;
			b[l] = seed;
		}
	}
	memset(out, 0, sizeof out);
	Harness h;
	h_init(&h, code);
	h_buffer(&h, a, sizeof a, 0, false);
	h_buffer(&h, b, sizeof b, 8, false);
	h_buffer(&h, out, sizeof out, 16, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	int bad = 0;
	for (int l = 0; l < 64; l++) {
		uint32_t x = a[l], y = b[l], xl = x & 0xffff, xh = x >> 16, yl = y & 0xffff, yh = y >> 16;
		uint32_t want[NOUT];
		want[0] = lohi(xl * 0xfffd + yl, xh * 5 + yh);
		want[1] = lohi((uint32_t)(sx16(xl) >> 3), (uint32_t)(sx16(xh) >> 9));
		want[2] = lohi(clampi16(sx16(xl) + sx16(yl)), clampi16(sx16(xh) + sx16(yh)));
		want[3] = lohi(clampu16((int64_t)xl - yl), clampu16((int64_t)xh - yh));
		want[4] = clampu16((int64_t)((x >> 8) & 0xff) - ((y >> 8) & 0xff));
		float fl = (float)((double)dtype_f16_to_f32((uint16_t)xl) * dtype_f16_to_f32((uint16_t)yl) + dtype_f16_to_f32((uint16_t)xl));
		float fh = (float)((double)dtype_f16_to_f32((uint16_t)xh) * dtype_f16_to_f32((uint16_t)yh) + dtype_f16_to_f32((uint16_t)xh));
		want[5] = lohi(clamph(fl), clamph(fh));
		want[6] = (uint64_t)x + y > UINT32_MAX ? UINT32_MAX : x + y;
		int64_t dif = (int64_t)(int32_t)x - (int32_t)y;
		want[7] = (uint32_t)(dif > INT32_MAX ? INT32_MAX : dif < INT32_MIN ? INT32_MIN : dif);
		want[8] = 0x33334444;
		want[9] = 0x11112222 + x + y; /* v22 = a.lo (op_sel 0), v23 = b: S1 = v[10:11], op_sel 1 -> v11 */
		for (int k = 0; k < NOUT; k++)
			if (out[l][k] != want[k] && bad++ < 12)
				fprintf(stderr, "lane %d column %d: a=0x%08x b=0x%08x got 0x%08x want 0x%08x\n", l, k, x, y,
					out[l][k], want[k]);
	}
	ck_assert_int_eq(bad, 0);
	h_free(&h);
}
END_TEST

/* Bug 17: the 64-bit global atomics (add/cmpswap/smin _x2, add_f64, with
 * and without return) and global_atomic_pk_add_f16, each lane on its own
 * slot (so the result does not depend on lane order), plus one counter that
 * every lane adds to. */
START_TEST(atomics_64_and_pk_f16)
{
	static const char *code =
		"s_load_dwordx8 s[4:11], s[0:1], 0x0\n"
		"s_load_dwordx2 s[12:13], s[0:1], 0x20\n"
		"v_and_b32 v0, 0x3ff, v0\n"
		"v_lshlrev_b32 v1, 2, v0\n"
		"v_lshlrev_b32 v12, 3, v0\n"
		"v_lshlrev_b32 v30, 5, v0\n"
		"s_waitcnt lgkmcnt(0)\n"
		"global_load_dwordx2 v[2:3], v12, s[6:7]\n"
		"global_load_dwordx2 v[4:5], v12, s[6:7] offset:512\n"
		"global_load_dword v6, v1, s[6:7] offset:1024\n"
		"s_waitcnt vmcnt(0)\n"
		"global_atomic_add_x2 v[8:9], v30, v[2:3], s[4:5] sc0\n"
		"global_atomic_cmpswap_x2 v[10:11], v30, v[2:5], s[4:5] offset:8 sc0\n"
		"global_atomic_smin_x2 v30, v[2:3], s[4:5] offset:16\n"
		"global_atomic_add_f64 v30, v[2:3], s[4:5] offset:24\n"
		"global_atomic_pk_add_f16 v1, v6, s[10:11]\n"
		"v_mov_b32 v7, 0\n"
		"global_atomic_add_x2 v7, v[2:3], s[12:13] sc1\n"
		"s_waitcnt vmcnt(0)\n"
		"global_store_dwordx2 v12, v[8:9], s[8:9]\n"
		"global_store_dwordx2 v12, v[10:11], s[8:9] offset:512\n";
	uint64_t slot[64][4], init[64][4], in[2 * 64 + 32], ret[128], counter = 0x0123456789abcdefull;
	uint32_t half[64], half0[64], pkin[64];
	uint32_t seed = 5;
	for (int l = 0; l < 64; l++) {
		double v = (l - 20) * 1.25 + (l % 3 ? 1e10 : -3e-5);
		memcpy(&in[l], &v, 8);
		seed = seed * 1664525u + 1013904223u;
		init[l][0] = (uint64_t)seed << 32 | (seed ^ 0xdeadbeefu);
		init[l][1] = 0xfeedf00d00000000ull + (uint64_t)l * 0x100000001ull;
		in[64 + l] = init[l][1] + (uint64_t)(l & 1); /* cmp: equal on even lanes */
		init[l][2] = (uint64_t)(int64_t)((int32_t)seed >> 4) << 20;
		double f = 0.5 * l;
		memcpy(&init[l][3], &f, 8);
		seed = seed * 1664525u + 1013904223u;
		half0[l] = lohi(dtype_f32_to_f16((float)(seed >> 22) / 256.0f - 2.0f), dtype_f32_to_f16((float)((seed >> 8) & 0x3ff) / 64.0f));
		seed = seed * 1664525u + 1013904223u;
		pkin[l] = lohi(dtype_f32_to_f16((float)(seed >> 22) / 32.0f - 16.0f), dtype_f32_to_f16((float)((seed >> 8) & 0x3ff) / 1024.0f));
	}
	/* lane 0: ties round to even: 1.0 + 2^-11 = 1.0 (0x3c00); 0x3c01 + 2^-11 = 0x3c02 */
	half0[0] = 0x3c013c00u;
	pkin[0] = 0x10001000u;
	memcpy(&in[128], pkin, sizeof pkin);
	memcpy(slot, init, sizeof slot);
	memcpy(half, half0, sizeof half);
	memset(ret, 0, sizeof ret);
	Harness h;
	h_init(&h, code);
	h_buffer(&h, slot, sizeof slot, 0, true);
	h_buffer(&h, in, sizeof in, 8, false);
	h_buffer(&h, ret, sizeof ret, 16, true);
	h_buffer(&h, half, sizeof half, 24, true);
	h_buffer(&h, &counter, sizeof counter, 32, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	uint64_t total = 0x0123456789abcdefull;
	for (int l = 0; l < 64; l++) {
		uint64_t v = in[l];
		total += v;
		ck_assert_uint_eq(ret[l], init[l][0]);
		ck_assert_uint_eq(slot[l][0], init[l][0] + v);
		ck_assert_uint_eq(ret[64 + l], init[l][1]);
		ck_assert_uint_eq(slot[l][1], l & 1 ? init[l][1] : v);
		ck_assert_uint_eq(slot[l][2], (int64_t)v < (int64_t)init[l][2] ? v : init[l][2]);
		double dv, di, dr;
		memcpy(&dv, &v, 8), memcpy(&di, &init[l][3], 8), memcpy(&dr, &slot[l][3], 8);
		ck_assert(dr == dv + di);
		uint32_t x = pkin[l], y = half0[l];
		uint32_t want = lohi(dtype_f32_to_f16((float)((double)dtype_f16_to_f32((uint16_t)x) + dtype_f16_to_f32((uint16_t)y))),
				     dtype_f32_to_f16((float)((double)dtype_f16_to_f32((uint16_t)(x >> 16)) + dtype_f16_to_f32((uint16_t)(y >> 16)))));
		ck_assert_msg(half[l] == want, "lane %d: pk_add_f16 0x%08x + 0x%08x = 0x%08x, want 0x%08x", l, y, x, half[l], want);
	}
	ck_assert_uint_eq(half[0], 0x3c023c00u);
	ck_assert_uint_eq(counter, total);
	h_free(&h);
}
END_TEST

/* v_exp_f32 / v_log_f32 do not handle denormals: a denormal result is +0, a
 * denormal input counts as zero (LLVM's exp2/log2 lowerings rescale around
 * exactly that). v_exp_f16 / v_log_f16 are used bare by LLVM for f16 and
 * keep their denormals. Lane l takes input x[l]. */
START_TEST(exp_log_denormals)
{
	static const float xs[] = {-130.0f, -126.5f, -126.0f, -127.0f, -149.0f, -125.99f, 1e-40f, -1e-40f,
				   0x1p-126f, -0.0f, 0.0f, 3.0f, -INFINITY, 0x1p-149f};
	enum { N = sizeof xs / sizeof xs[0] };
	float x[64] = {0}, out[3][64];
	memcpy(x, xs, sizeof xs);
	Harness h;
	h_init(&h, "s_load_dwordx4 s[4:7], s[0:1], 0x0\n"
		   "v_and_b32 v0, 0x3ff, v0\n"
		   "v_lshlrev_b32 v1, 2, v0\n"
		   "s_waitcnt lgkmcnt(0)\n"
		   "global_load_dword v2, v1, s[4:5]\n"
		   "s_waitcnt vmcnt(0)\n"
		   "v_exp_f32 v3, v2\n"
		   "v_log_f32 v4, v2\n"
		   "v_mov_b32 v5, 0xcc00\n" /* f16 -16: 2^-16 is an f16 denormal */
		   "v_exp_f16 v5, v5\n"
		   "s_nop 1\n"
		   "global_store_dword v1, v3, s[6:7]\n"
		   "global_store_dword v1, v4, s[6:7] offset:256\n"
		   "global_store_dword v1, v5, s[6:7] offset:512\n");
	h_buffer(&h, x, sizeof x, 0, false);
	h_buffer(&h, out, sizeof out, 8, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	for (int l = 0; l < N; l++) {
		float e = exp2f(fpclassify(xs[l]) == FP_SUBNORMAL ? 0.0f : xs[l]);
		float want_e = fpclassify(e) == FP_SUBNORMAL ? 0.0f : e;
		float want_l = fpclassify(xs[l]) == FP_SUBNORMAL ? -INFINITY : log2f(xs[l]);
		ck_assert_msg(U(out[0][l]) == U(want_e), "v_exp_f32(%a) = %a, want %a", (double)xs[l], (double)out[0][l],
			      (double)want_e);
		ck_assert_msg(U(out[1][l]) == U(want_l) || (isnan(out[1][l]) && isnan(want_l)), "v_log_f32(%a) = %a, want %a",
			      (double)xs[l], (double)out[1][l], (double)want_l);
	}
	ck_assert_msg(F(U(out[0][0])) == 0.0f, "v_exp_f32(-130) must be 0");
	ck_assert_msg(U(out[0][2]) == U(0x1p-126f), "v_exp_f32(-126) = 2^-126 (normal)");
	ck_assert_msg(U(out[0][6]) == U(1.0f), "v_exp_f32(denormal) = 1");
	uint32_t h16 = U(out[2][0]) & 0xffff;
	ck_assert_msg(h16 == 0x0100, "v_exp_f16(-16) = 0x%04x, want the f16 denormal 2^-16 (0x0100)", h16);
	h_free(&h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("emu_regress");
	TCase *tc = tcase_create("regress");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, divide_denormals);
	tcase_add_test(tc, div_scale_vcc);
	tcase_add_test(tc, dot_and_sad);
	tcase_add_test(tc, ds_cmpst);
	tcase_add_test(tc, dpp_masks_bound_ctrl);
	tcase_add_test(tc, scratch_private);
	tcase_add_test(tc, packed_sgpr_and_clamp);
	tcase_add_test(tc, atomics_64_and_pk_f16);
	tcase_add_test(tc, exp_log_denormals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
