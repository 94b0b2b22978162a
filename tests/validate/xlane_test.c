/* xlane_test.c — emulator validation of the cross-lane and matrix
 * instructions the compiler's instruction selection emits for reductions,
 * softmax and GEMM (issue 5):
 *   - every gfx9 DPP control on v_mov_b32 with row/bank masks and bound_ctrl
 *     both ways, with all lanes active and with inactive source lanes
 *     (xlane_dpp), and DPP folded into v_add_f32 / v_max_f32 / v_min_f32 (xlane_dpp_f32);
 *   - the DPP scans clang's atomic optimizer builds (xlane_scan);
 *   - ds_bpermute_b32 / ds_permute_b32 with arbitrary, out-of-range and
 *     colliding addresses, ds_swizzle_b32 bit-mask (xor 1..16) and quad
 *     modes, v_readlane / v_readfirstlane / v_writelane (xlane_perm);
 *   - MFMA 16x16x16 and 32x32x8 f16 chained over a K loop with accumulators
 *     in AGPRs and in VGPRs, v_accvgpr_read/write (xlane_mfma);
 *   - 4-wave LDS traffic with b32/b64/b128 writes and reads across a barrier
 *     and a cross-wave DPP reduction (xlane_lds);
 *   - v_exp_f32 / v_log_f32 / v_rcp_f32 and the three f32 division
 *     lowerings (fast, default 2.5 ulp, correctly rounded) (xlane_math).
 * Kernels are clang-19 output (tests/validate/kernels/xlane_*.cl), built for
 * gfx942 and gfx90a; the references are written here in C from the ISA's
 * description of each operation, not from the emulator's code. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

static const char *const kernels[] = {"xlane_dpp", "xlane_dpp_f32", "xlane_scan", "xlane_perm", "xlane_mfma",
				      "xlane_math", "xlane_math_fast", "xlane_math_exact", "xlane_lds", NULL};
static void setup_gfx942(void) { vk_compile_arch("validate_xlane", kernels, "gfx942"); }
static void setup_gfx90a(void) { vk_compile_arch("validate_xlane_gfx90a", kernels, "gfx90a"); }
/* gfx942 with SRAM ECC off (`:sramecc-`): clang may use d16 loads that keep the other half, and the
 * emulator keeps it because the code object says so */
static void setup_noecc(void) { vk_compile_arch("validate_xlane_noecc", kernels, "gfx942:sramecc-"); }
/* hand-written gfx942 assembly (llvm-mc-19 + ld.lld-19) */
static const char *const asm_kernels[] = {"xlane_dpp_asm", NULL};
static void setup_asm(void) { vk_compile_arch("validate_xlane_asm", asm_kernels, "gfx942"); }

/* ---- DPP reference ---- */

/* The DPP controls xlane_dpp.cl applies, in its order. */
static int dpp_ctrls(unsigned *c)
{
	int n = 0;
	for (unsigned q = 0; q < 256; q++)
		c[n++] = q; /* quad_perm */
	for (unsigned base = 0x100; base <= 0x120; base += 0x10)
		for (unsigned s = 1; s <= 15; s++)
			c[n++] = base + s; /* row_shl, row_shr, row_ror */
	static const unsigned rest[] = {0x130, 0x134, 0x138, 0x13c, 0x140, 0x141, 0x142, 0x143};
	for (size_t i = 0; i < ARRAY_LEN(rest); i++)
		c[n++] = rest[i];
	return n;
}

/* The lane whose value lane l reads under control c, or -1 when there is none
 * (outside the row for row shifts, outside the wave for wave shifts, row 0
 * for row_bcast:15, rows 0 and 1 for row_bcast:31). From the ISA's table:
 * row_shl:n moves data towards lower lanes (lane i reads lane i+n of its
 * row), row_shr the other way, row_ror rotates within the row, the wave
 * shifts and rotates move by one lane across the whole wave. */
static int dpp_src(unsigned c, int l)
{
	int row = l & ~15, i = l & 15;
	if (c < 0x100)
		return (l & ~3) + (int)((c >> (2 * (l & 3))) & 3);
	int n = (int)(c & 15);
	switch (c & ~15u) {
	case 0x100: return i + n < 16 ? l + n : -1;
	case 0x110: return i - n >= 0 ? l - n : -1;
	case 0x120: return row + (i - n + 16) % 16;
	}
	switch (c) {
	case 0x130: return l + 1 < 64 ? l + 1 : -1;   /* wave_shl:1 */
	case 0x134: return (l + 1) % 64;              /* wave_rol:1 */
	case 0x138: return l - 1 >= 0 ? l - 1 : -1;   /* wave_shr:1 */
	case 0x13c: return (l + 63) % 64;             /* wave_ror:1 */
	case 0x140: return row + 15 - i;              /* row_mirror */
	case 0x141: return (l & ~7) + 7 - (l & 7);    /* row_half_mirror */
	case 0x142: return l >= 16 ? row - 1 : -1;    /* row_bcast:15: lane 15 of the previous row */
	case 0x143: return l >= 32 ? 31 : -1;         /* row_bcast:31 */
	}
	ck_abort_msg("dpp_src: control 0x%x is not in the list", c);
	return -1;
}

/* llvm.amdgcn.update.dpp(old, v, ctrl, row_mask, bank_mask, bound_ctrl) for
 * lane l of a wave whose active lanes are `act`: a lane outside the row or
 * bank mask keeps old; a lane whose source is missing or inactive reads 0
 * with bound_ctrl and keeps old without it. */
static uint32_t dpp_ref(const uint32_t *v, uint32_t old, uint64_t act, unsigned c, unsigned rm, unsigned bm, bool bc,
			int l)
{
	if (!((rm >> (l / 16)) & 1) || !((bm >> ((l / 4) % 4)) & 1))
		return old;
	int s = dpp_src(c, l);
	if (s < 0 || !((act >> s) & 1))
		return bc ? 0 : old;
	return v[s];
}

static unsigned dpp_rm(unsigned c) { return 1 + (c * 7 + 3) % 15; }
static unsigned dpp_bm(unsigned c) { return 1 + (c * 11 + 5) % 15; }

START_TEST(xlane_dpp)
{
	enum { N = 128, NC = 309, NO = 3 * NC, SENT = 0x5eeded };
	static int32_t x[N], olds[N], out[N * NO];
	static uint32_t want[N * NO], gcol[N], wcol[N];
	unsigned ctrls[NC];
	ck_assert_int_eq(dpp_ctrls(ctrls), NC);
	VkRng r = {41};
	for (int i = 0; i < N; i++) {
		x[i] = (int32_t)vk_next(&r);
		olds[i] = vk_int(&r, -1000, 1000);
	}
	/* all lanes, then a random half (inactive lanes are invalid DPP sources), then lanes 0 and 63 off */
	static const uint64_t acts[] = {~0ull, 0x9d2c5680a3f1e647ull, 0x7ffffffffffffffeull};
	for (size_t t = 0; t < ARRAY_LEN(acts); t++) {
		uint64_t act = acts[t];
		char defs[96];
		snprintf(defs, sizeof defs, "n=%d act_lo=%u act_hi=%u", N, (unsigned)act, (unsigned)(act >> 32));
		for (int i = 0; i < N * NO; i++)
			out[i] = SENT;
		for (int w = 0; w < N / 64; w++)
			for (int l = 0; l < 64; l++) {
				int gid = w * 64 + l;
				for (int k = 0; k < NO; k++) {
					unsigned c = ctrls[k % NC];
					uint32_t *o = &want[gid * NO + k];
					if (!((act >> l) & 1)) {
						*o = SENT;
						continue;
					}
					const uint32_t *v = (const uint32_t *)x + w * 64;
					uint32_t old = (uint32_t)olds[gid];
					if (k < NC)
						*o = dpp_ref(v, old, act, c, 0xf, 0xf, true, l);
					else
						*o = dpp_ref(v, old, act, c, dpp_rm(c), dpp_bm(c), k >= 2 * NC, l);
				}
			}
		VkArg args[] = {{"x", DT_I32, 1, {N}, x, VK_IN},
				{"olds", DT_I32, 1, {N}, olds, VK_IN},
				{"out", DT_I32, 2, {N, NO}, out, VK_INOUT}};
		vk_run("xlane_dpp.launch.json", defs, args, ARRAY_LEN(args));
		/* compare per control so a failure names it */
		for (int k = 0; k < NO; k++) {
			for (int i = 0; i < N; i++) {
				gcol[i] = (uint32_t)out[i * NO + k];
				wcol[i] = want[i * NO + k];
			}
			unsigned c = ctrls[k % NC];
			char what[160];
			snprintf(what, sizeof what, "exec 0x%016llx, dpp_ctrl 0x%x, %s", (unsigned long long)act, c,
				 k < NC ? "masks 0xf, bound_ctrl on"
					: k < 2 * NC ? "row/bank masks, bound_ctrl off (keeps old)"
						     : "row/bank masks, bound_ctrl on");
			vk_check_u32(what, gcol, wcol, N);
		}
	}
	static const char *const insns[] = {"v_mov_b32_dpp", "s_and_saveexec_b64", NULL};
	vk_expect_insns("xlane_dpp", insns);
	/* every control and both bound_ctrl settings reach the code object, not folded away */
	const char *d = vk_disasm("xlane_dpp");
	static const char *const forms[] = {"quad_perm:[3,1,2,0]", "row_shl:15", "row_shr:7", "row_ror:13",
					    "wave_shl:1", "wave_rol:1", "wave_shr:1", "wave_ror:1", "row_mirror",
					    "row_half_mirror", "row_bcast:15", "row_bcast:31", "bound_ctrl:1", NULL};
	if (strcmp(vk_arch(), "gfx942") == 0)
		for (const char *const *f = forms; *f; f++)
			ck_assert_msg(strstr(d, *f) != NULL, "xlane_dpp.hsaco has no %s", *f);
}
END_TEST

START_TEST(xlane_dpp_f32)
{
	enum { N = 128, NC = 60, NO = 3 * NC };
	static float x[N], out[N * NO];
	static double want[N * NO];
	static float gcol[N];
	static double wcol[N];
	unsigned ctrls[NC];
	int nc = 0;
	for (unsigned base = 0x100; base <= 0x120; base += 0x10)
		for (unsigned s = 1; s <= 15; s++)
			ctrls[nc++] = base + s;
	static const unsigned rest[] = {0x130, 0x134, 0x138, 0x13c, 0x140, 0x141, 0x142, 0x143,
					0x1b,  0xb1,  0x4e,  0x00,  0xff,  0x39,  0x93};
	for (size_t i = 0; i < ARRAY_LEN(rest); i++)
		ctrls[nc++] = rest[i];
	ck_assert_int_eq(nc, NC);
	VkRng r = {42};
	for (int i = 0; i < N; i++)
		x[i] = vk_float(&r, -600.0f, 300.0f) * (i % 7 == 0 ? 1e-3f : 1.0f); /* mixed signs and magnitudes */
	for (int w = 0; w < N / 64; w++)
		for (int l = 0; l < 64; l++)
			for (int k = 0; k < NC; k++) {
				float a[64];
				for (int j = 0; j < 64; j++)
					a[j] = x[w * 64 + j] + (float)ctrls[k];
				int s = dpp_src(ctrls[k], l);
				float b = s < 0 ? 0.0f : a[s]; /* old 0 / bound_ctrl: a missing source reads 0 */
				want[(w * 64 + l) * NO + 3 * k] = a[l] + b;
				want[(w * 64 + l) * NO + 3 * k + 1] = fmaxf(a[l], b);
				want[(w * 64 + l) * NO + 3 * k + 2] = fminf(a[l], b);
			}
	VkArg args[] = {{"x", DT_F32, 1, {N}, x, VK_IN}, {"out", DT_F32, 2, {N, NO}, out, VK_OUT}};
	vk_run("xlane_dpp_f32.launch.json", "n=128", args, ARRAY_LEN(args));
	for (int k = 0; k < NO; k++) {
		for (int i = 0; i < N; i++) {
			gcol[i] = out[i * NO + k];
			wcol[i] = want[i * NO + k];
		}
		char what[96];
		static const char *const op[3] = {"v_add_f32_dpp", "v_max_f32_dpp", "v_min_f32_dpp"};
		snprintf(what, sizeof what, "%s with dpp_ctrl 0x%x", op[k % 3], ctrls[k / 3]);
		vk_check_f32(what, gcol, wcol, N, 0, 0); /* one f32 operation: bit-exact */
	}
	static const char *const insns[] = {"v_add_f32_dpp", "v_max_f32_dpp", "v_min_f32_dpp", NULL};
	vk_expect_insns("xlane_dpp_f32", insns);
}
END_TEST

/* ---- scans from clang's atomic optimizer ---- */

START_TEST(xlane_scan)
{
	enum { N = 192, W = N / 64 };
	static int32_t x[N], ictr[W * 4], out[N * 5];
	static float f[N], fctr[W];
	static uint32_t want[N * 5], wctr[W * 4], wf[W];
	VkRng r = {43};
	for (int i = 0; i < N; i++) {
		x[i] = vk_int(&r, -100000, 100000);
		f[i] = (float)vk_int(&r, -1000, 1000);
	}
	x[64 + 0] &= ~0x100; /* lane 0 of wave 1 inactive, so lane 1's exclusive scan is the identity */
	x[64 + 1] |= 0x100;
	for (int w = 0; w < W; w++) {
		for (int k = 0; k < 4; k++)
			ictr[w * 4 + k] = vk_int(&r, -5000, 5000);
		fctr[w] = (float)vk_int(&r, -5000, 5000);
	}
	ictr[4 * 2 + 1] = 0x7fffffff; /* a max counter already above every lane */
	for (int i = 0; i < N * 5; i++)
		out[i] = 0x5eed;
	for (int w = 0; w < W; w++) {
		uint32_t add = (uint32_t)ictr[w * 4], sub = (uint32_t)ictr[w * 4 + 3], umin = (uint32_t)ictr[w * 4 + 2];
		int32_t mx = ictr[w * 4 + 1];
		float fs = fctr[w];
		for (int l = 0; l < 64; l++) {
			int gid = w * 64 + l;
			uint32_t *o = &want[gid * 5];
			if (!(x[gid] & 0x100)) {
				for (int k = 0; k < 5; k++)
					o[k] = 0x5eed;
				continue;
			}
			o[0] = add, o[1] = (uint32_t)mx, o[2] = umin, o[3] = sub, o[4] = vk_fbits(fs);
			add += (uint32_t)x[gid];
			sub -= (uint32_t)x[gid];
			mx = x[gid] > mx ? x[gid] : mx;
			umin = (uint32_t)x[gid] < umin ? (uint32_t)x[gid] : umin;
			fs += f[gid];
		}
		wctr[w * 4] = add, wctr[w * 4 + 1] = (uint32_t)mx, wctr[w * 4 + 2] = umin, wctr[w * 4 + 3] = sub;
		wf[w] = vk_fbits(fs);
	}
	VkArg args[] = {{"x", DT_I32, 1, {N}, x, VK_IN},
			{"f", DT_F32, 1, {N}, f, VK_IN},
			{"ictr", DT_I32, 2, {W, 4}, ictr, VK_INOUT},
			{"fctr", DT_F32, 1, {W}, fctr, VK_INOUT},
			{"out", DT_I32, 2, {N, 5}, out, VK_INOUT}};
	vk_run("xlane_scan.launch.json", "n=192", args, ARRAY_LEN(args));
	static const char *const what[5] = {"atomic add (exclusive DPP scan)", "atomic max (signed)",
					    "atomic min (unsigned)", "atomic sub", "atomic add f32"};
	static uint32_t gcol[N], wcol[N];
	for (int k = 0; k < 5; k++) {
		for (int i = 0; i < N; i++) {
			gcol[i] = (uint32_t)out[i * 5 + k];
			wcol[i] = want[i * 5 + k];
		}
		vk_check_u32(what[k], gcol, wcol, N);
	}
	vk_check_u32("counters after the atomics", (uint32_t *)ictr, wctr, W * 4);
	uint32_t fb[W];
	for (int w = 0; w < W; w++)
		fb[w] = vk_fbits(fctr[w]);
	vk_check_u32("f32 counters after the atomics", fb, wf, W);
	static const char *const insns[] = {"v_add_u32_dpp", "v_max_i32_dpp", "v_min_u32_dpp", "v_mov_b32_dpp",
					    "v_readlane_b32", "v_readfirstlane_b32", "s_or_saveexec_b64",
					    "global_atomic_add_f32", NULL};
	vk_expect_insns("xlane_scan", insns);
	if (strcmp(vk_arch(), "gfx942") == 0) {
		const char *d = vk_disasm("xlane_scan");
		/* objdump ends the operands with the comment "//": no bound_ctrl after the masks */
		ck_assert_msg(strstr(d, "row_bcast:15 row_mask:0xa bank_mask:0xf//") != NULL,
			      "xlane_scan.hsaco: no row_bcast:15 with row_mask 0xa and bound_ctrl off");
		ck_assert_msg(strstr(d, "wave_shr:1") != NULL, "xlane_scan.hsaco: no wave_shr:1");
	}
}
END_TEST

/* ---- permutes, swizzles, readlane ---- */

/* ds_swizzle_b32's source lane for lane l: offset bit 15 selects quad-permute
 * mode (two bits per lane of the quad), otherwise bit-mask mode within each
 * half of 32 lanes: ((l & and) | or) ^ xor with 5-bit masks at bits 0, 5, 10. */
static int swizzle_src(unsigned off, int l)
{
	if (off & 0x8000)
		return (l & ~3) + (int)((off >> (2 * (l & 3))) & 3);
	unsigned and_m = off & 31, or_m = (off >> 5) & 31, xor_m = (off >> 10) & 31;
	return (l & 32) + (int)((((unsigned)l & 31 & and_m) | or_m) ^ xor_m);
}

START_TEST(xlane_perm)
{
	enum { N = 128, NO = 30, SENT = 0x5eed, RL = 22, WV = 1000 };
	static int32_t x[N], addr[N], paddr[N], out[N * NO];
	static uint32_t want[N * NO], gcol[N], wcol[N];
	static const unsigned swz[21] = {0x1f | 1 << 10,  0x1f | 2 << 10,  0x1f | 3 << 10,  0x1f | 4 << 10,
					 0x1f | 5 << 10,  0x1f | 6 << 10,  0x1f | 7 << 10,  0x1f | 8 << 10,
					 0x1f | 9 << 10,  0x1f | 10 << 10, 0x1f | 11 << 10, 0x1f | 12 << 10,
					 0x1f | 13 << 10, 0x1f | 14 << 10, 0x1f | 15 << 10, 0x1f | 16 << 10,
					 0x8000 | 0x00,   0x8000 | 0x1b,   0x8000 | 0xb1,   0x8000 | 0x4e,
					 0x18 | 5 << 5};
	VkRng r = {44};
	for (int i = 0; i < N; i++) {
		x[i] = (int32_t)vk_next(&r);
		/* byte addresses: any 32-bit value, only bits 7:2 select the lane */
		addr[i] = i % 4 == 0 ? (int32_t)vk_next(&r) : i % 4 == 1 ? -4 * vk_int(&r, 0, 200) : 4 * vk_int(&r, 0, 63) + (i & 3);
		paddr[i] = i % 3 ? 4 * vk_int(&r, 0, 63) : (int32_t)vk_next(&r); /* collisions: the higher lane wins */
	}
	static const uint64_t acts[] = {~0ull, 0x6a3c5f0e91b7d248ull};
	for (size_t t = 0; t < ARRAY_LEN(acts); t++) {
		uint64_t act = acts[t];
		for (int i = 0; i < N * NO; i++)
			out[i] = SENT;
		for (int w = 0; w < N / 64; w++) {
			const uint32_t *v = (const uint32_t *)x + w * 64;
			int first = __builtin_ctzll(act);
			uint32_t sum = 0;
			for (int i = 0; i < 64; i += 1 + (i & 1))
				sum += v[i] * (uint32_t)(i + 1);
			/* ds_permute: each active lane sends its value to lane (paddr >> 2) & 63; later lanes overwrite */
			uint32_t fwd[64];
			bool hit[64] = {false};
			for (int l = 0; l < 64; l++)
				if ((act >> l) & 1) {
					int d = (int)(((uint32_t)paddr[w * 64 + l] >> 2) & 63);
					fwd[d] = v[l], hit[d] = true;
				}
			for (int l = 0; l < 64; l++) {
				int gid = w * 64 + l;
				uint32_t *o = &want[gid * NO];
				o[26] = v[RL];
				o[27] = v[45];
				o[28] = v[63 - RL] + WV;
				o[29] = sum;
				if (!((act >> l) & 1)) {
					for (int k = 0; k < 26; k++)
						o[k] = SENT;
					continue;
				}
				/* ds_bpermute: an inactive source lane reads 0 */
				int s0 = (int)(((uint32_t)addr[gid] >> 2) & 63), s1 = (int)(((uint32_t)addr[gid] + 8) >> 2 & 63);
				int s2 = (l + 1) & 63;
				o[0] = (act >> s0) & 1 ? v[s0] : 0;
				o[1] = (act >> s1) & 1 ? v[s1] : 0;
				o[2] = (act >> s2) & 1 ? v[s2] : 0;
				/* a destination no lane sends to is not compared (marked below) */
				o[3] = hit[l] ? fwd[l] : SENT;
				for (int k = 0; k < 21; k++) {
					int s = swizzle_src(swz[k], l);
					o[4 + k] = (act >> s) & 1 ? v[s] : 0;
				}
				o[25] = v[first];
				if (!hit[l])
					out[gid * NO + 3] = SENT - 1; /* replaced after the run */
			}
		}
		char defs[128];
		snprintf(defs, sizeof defs, "n=%d act_lo=%u act_hi=%u rl=%d wv=%d", N, (unsigned)act,
			 (unsigned)(act >> 32), RL, WV);
		VkArg args[] = {{"x", DT_I32, 1, {N}, x, VK_IN},
				{"addr", DT_I32, 1, {N}, addr, VK_IN},
				{"paddr", DT_I32, 1, {N}, paddr, VK_IN},
				{"out", DT_I32, 2, {N, NO}, out, VK_INOUT}};
		vk_run("xlane_perm.launch.json", defs, args, ARRAY_LEN(args));
		for (int i = 0; i < N; i++)
			if (want[i * NO + 3] == SENT && ((act >> (i % 64)) & 1))
				out[i * NO + 3] = SENT; /* ds_permute destination nobody sent to: not specified */
		static const char *const what[NO] = {
			"ds_bpermute, arbitrary addresses", "ds_bpermute offset:8", "ds_bpermute, address past 255",
			"ds_permute with collisions", "swizzle xor 1", "swizzle xor 2", "swizzle xor 3", "swizzle xor 4",
			"swizzle xor 5", "swizzle xor 6", "swizzle xor 7", "swizzle xor 8", "swizzle xor 9",
			"swizzle xor 10", "swizzle xor 11", "swizzle xor 12", "swizzle xor 13", "swizzle xor 14",
			"swizzle xor 15", "swizzle xor 16", "swizzle quad [0,0,0,0]", "swizzle quad [3,2,1,0]",
			"swizzle quad [1,0,3,2]", "swizzle quad [2,3,0,1]", "swizzle and 0x18 or 5",
			"v_readfirstlane under exec", "v_readlane SGPR index", "v_readlane 45", "v_readlane 63-rl",
			"v_readlane unrolled loop"};
		for (int k = 0; k < NO; k++) {
			for (int i = 0; i < N; i++) {
				gcol[i] = (uint32_t)out[i * NO + k];
				wcol[i] = want[i * NO + k];
			}
			char msg[128];
			snprintf(msg, sizeof msg, "%s (exec 0x%016llx)", what[k], (unsigned long long)act);
			vk_check_u32(msg, gcol, wcol, N);
		}
	}
	static const char *const insns[] = {"ds_bpermute_b32", "ds_permute_b32", "ds_swizzle_b32", "v_readlane_b32",
					    "v_readfirstlane_b32", NULL};
	vk_expect_insns("xlane_perm", insns);
	if (strcmp(vk_arch(), "gfx942") == 0)
		ck_assert_msg(strstr(vk_disasm("xlane_perm"), "offset:8") != NULL,
			      "xlane_perm.hsaco: clang no longer folds +8 into ds_bpermute's offset");
}
END_TEST

/* ---- MFMA chains with AGPR and VGPR accumulators ---- */

/* Run one xlane_mfma kernel (SHAPE 16 or 32, FORM "agpr", "vgpr" or a
 * "zero" form, which starts from a zero accumulator and ignores C0) on an
 * M x N x K problem: integer inputs (every sum exact) and random ones. */
static void run_mfma(int shape, const char *form, int M, int N, int K)
{
	double c0_scale = strncmp(form, "zero", 4) == 0 ? 0.0 : 2.0;
	size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
	uint16_t *a = malloc(na * 2), *b = malloc(nb * 2);
	float *c0 = malloc(nc * 4), *c = malloc(nc * 4);
	double *want = malloc(nc * sizeof(double));
	char desc[64], defs[96], what[192];
	snprintf(desc, sizeof desc, "xlane_mfma%d_%s.launch.json", shape, form);
	for (int exact = 1; exact >= 0; exact--) {
		VkRng r = {(uint64_t)(45 + shape + exact)};
		float alpha = exact ? 0.5f : 0.75f;
		for (size_t i = 0; i < na; i++)
			a[i] = (uint16_t)vk_f2h(exact ? vk_int(&r, -4, 4) : vk_float(&r, -1.0f, 1.0f));
		for (size_t i = 0; i < nb; i++)
			b[i] = (uint16_t)vk_f2h(exact ? vk_int(&r, -4, 4) : vk_float(&r, -1.0f, 1.0f));
		for (size_t i = 0; i < nc; i++)
			c0[i] = exact ? (float)vk_int(&r, -50, 50) : vk_float(&r, -1.0f, 1.0f);
		for (int m = 0; m < M; m++)
			for (int n = 0; n < N; n++) {
				double acc = c0_scale * c0[m * N + n];
				for (int k = 0; k < K; k++)
					acc += (double)vk_h2f(a[m * K + k]) * vk_h2f(b[k * N + n]);
				want[m * N + n] = acc * alpha;
			}
		snprintf(defs, sizeof defs, "M=%d N=%d K=%d alpha=%.9g", M, N, K, (double)alpha);
		VkArg args[] = {{"A", DT_F16, 2, {M, K}, a, VK_IN},
				{"B", DT_F16, 2, {K, N}, b, VK_IN},
				{"C0", DT_F32, 2, {M, N}, c0, VK_IN},
				{"C", DT_F32, 2, {M, N}, c, VK_OUT}};
		vk_run(desc, defs, args, ARRAY_LEN(args));
		snprintf(what, sizeof what, "%s: C = alpha (%g C0 + A B), %s inputs", desc, c0_scale,
			exact ? "integer" : "random");
		/* f32 accumulation of K products of size <= 1, in an order the MFMA does not specify */
		vk_check_f32(what, c, want, nc, exact ? 0 : 4, exact ? 0 : K * 0x1p-22);
	}
	free(a), free(b), free(c0), free(c), free(want);
}

START_TEST(xlane_mfma)
{
	run_mfma(16, "agpr", 32, 48, 64);
	run_mfma(16, "vgpr", 32, 48, 64);
	run_mfma(32, "agpr", 64, 64, 48);
	run_mfma(32, "vgpr", 64, 64, 48);
	static const char *const insns[] = {"v_mfma_f32_16x16x16_f16", "v_mfma_f32_32x32x8_f16", "v_accvgpr_write_b32",
					    "v_accvgpr_read_b32", NULL};
	vk_expect_insns("xlane_mfma", insns);
	/* both accumulator forms, accumulating in place */
	static const char *const forms[] = {"v_mfma_f32_16x16x16_f16 a[0:3]",  "v_mfma_f32_16x16x16f16 a[0:3]",
					    "v_mfma_f32_16x16x16_f16 v[",     "v_mfma_f32_16x16x16f16 v[",
					    "v_mfma_f32_32x32x8_f16 a[0:15]", "v_mfma_f32_32x32x8f16 a[0:15]",
					    "v_mfma_f32_32x32x8_f16 v[",      "v_mfma_f32_32x32x8f16 v["};
	const char *d = vk_disasm("xlane_mfma");
	for (size_t i = 0; i < ARRAY_LEN(forms); i += 2)
		ck_assert_msg(strstr(d, forms[i]) || strstr(d, forms[i + 1]), "xlane_mfma.hsaco (%s) has no %s", vk_arch(),
			      forms[i]);
}
END_TEST

/* A zero accumulator as srcC's inline constant 0 (isel/mma.c's first MFMA
 * of a zero `register` accumulator), into VGPRs and into AGPRs. */
START_TEST(xlane_mfma_zero)
{
	run_mfma(16, "zero", 32, 48, 64);
	run_mfma(16, "zero_agpr", 32, 48, 64);
	run_mfma(32, "zero", 64, 64, 48);
	static const char *const forms[] = {"v_mfma_f32_16x16x16_f16 v[",     "v_mfma_f32_16x16x16f16 v[",
					    "v_mfma_f32_16x16x16_f16 a[0:3]",  "v_mfma_f32_16x16x16f16 a[0:3]",
					    "v_mfma_f32_32x32x8_f16 v[",      "v_mfma_f32_32x32x8f16 v["};
	const char *d = vk_disasm("xlane_mfma");
	for (size_t i = 0; i < ARRAY_LEN(forms); i += 2) {
		/* the form with srcC = 0: `... v[a:b], v[c:d], 0` at a line's end */
		bool found = false;
		for (int alt = 0; alt < 2 && !found; alt++)
			for (const char *p = strstr(d, forms[i + alt]); p && !found; p = strstr(p + 1, forms[i + alt])) {
				const char *e = strchr(p, '\n'), *z = strstr(p, "], 0 ");
				found = z && (!e || z < e);
			}
		ck_assert_msg(found, "xlane_mfma.hsaco (%s) has no %s..., 0", vk_arch(), forms[i]);
	}
}
END_TEST

/* ---- transcendentals and division ---- */

/* |got - want| in units of the f32 ulp at want (2^-149 in the denormal range);
 * 0 when both are the same infinity, zero or NaN, huge when only one is. */
static double ulp_err(float got, double want)
{
	if (isnan(want) || isnan(got))
		return isnan(want) && isnan(got) ? 0 : 1e30;
	float wf = (float)want; /* past FLT_MAX (rounded): the right answer is infinity */
	if (isinf(wf) || isinf(got))
		return got == wf ? 0 : 1e30;
	int e;
	frexp(want, &e); /* |want| in [2^(e-1), 2^e) */
	double ulp = ldexp(1.0, (e - 1 < -126 ? -126 : e - 1) - 23);
	return fabs((double)got - want) / ulp;
}

/* Fail unless every lane with tol[i] >= 0 is within tol[i] ulps; returns the
 * largest error seen (for the README's record, printed with
 * WAVECC_VALIDATE_VERBOSE=1). */
static double check_ulps(const char *what, const float *got, const double *want, const double *tol, int n)
{
	double worst = 0;
	int wi = -1;
	for (int i = 0; i < n; i++) {
		if (tol[i] < 0)
			continue;
		double e = ulp_err(got[i], want[i]);
		if (e > tol[i] && (wi < 0 || e - tol[i] > ulp_err(got[wi], want[wi]) - tol[wi]))
			wi = i;
		worst = e > worst ? e : worst;
	}
	ck_assert_msg(wi < 0, "%s: [%d] got %a (%.9g), want %.17g (%a): %.3g ulp > %g", what, wi, (double)got[wi],
		      (double)got[wi], want[wi], want[wi], ulp_err(got[wi], want[wi]), tol[wi]);
	if (getenv("WAVECC_VALIDATE_VERBOSE"))
		fprintf(stderr, "%s: %s: max %.3f ulp\n", vk_arch(), what, worst);
	return worst;
}

/* Run one build of xlane_math (STEM "xlane_math", "xlane_math_fast" or
 * "xlane_math_exact"). */
static void run_math(const char *stem)
{
	enum { N = 600, NO = 7 };
	static float x[N], y[N], out[N * NO], got[N];
	static double want[NO][N], tol[NO][N];
	static const float xs[] = {0.0f,   -0.0f,    1.0f,   -1.0f,    -126.0f, -126.5f, -130.0f, -140.25f, -149.0f,
				   -149.5f, -151.0f, -170.0f, 127.99f, 128.0f,  128.5f,  200.0f,  -0.75f,   1e-20f};
	static const float ys[] = {1.0f,    0.0f,    -0.0f,   1e-40f,  1.5e-39f, 1e-45f,  1.1754942e-38f, 1e38f,
				   3e38f,   -2.5f,   0.1f,    3.0f,    7e-39f,   6e-39f,  2e-38f,         8.5e37f};
	bool fast = strcmp(stem, "xlane_math_fast") == 0, exact = strcmp(stem, "xlane_math_exact") == 0;
	VkRng r = {46};
	for (int i = 0; i < N; i++) {
		x[i] = i < (int)ARRAY_LEN(xs) ? xs[i] : vk_float(&r, -40.0f, 40.0f);
		y[i] = i < (int)ARRAY_LEN(ys) ? ys[i] : ldexpf(vk_float(&r, 1.0f, 2.0f), vk_int(&r, -125, 125));
		if (i >= (int)ARRAY_LEN(ys) && i % 8 == 3)
			y[i] = -y[i];
	}
	for (int i = 0; i < N; i++) {
		double a = x[i], b = y[i], q = a / b;
		want[0][i] = want[3][i] = exp2(a);
		want[1][i] = want[5][i] = b < 0 ? NAN : log2(b);
		want[2][i] = 1.0 / b;
		want[4][i] = exp((double)(x[i] * 0.5f));
		want[6][i] = q;
		bool sub_b = b != 0 && fabs(b) < 0x1p-126, big_b = fabs(b) > 0x1p126;
		bool sub_q = q != 0 && fabs(q) < 0x1p-126;
		/* the raw instructions: about 1 ulp (LLVM relies on that); v_exp_f32 and v_log_f32 do
		 * not handle denormals: a denormal result is 0, a denormal input counts as 0 (docs/
		 * emulator.md); the reciprocal in the denormal range is not compared */
		if (fabs(want[0][i]) < 0x1p-126)
			want[0][i] = 0;
		if (sub_b)
			want[1][i] = -INFINITY;
		tol[0][i] = tol[1][i] = 1;
		tol[2][i] = sub_b || big_b ? -1 : 1;
		/* clang's expansions: OpenCL's bounds (exp2/exp/log2 3 ulp, division 2.5 ulp, correctly
		 * rounded with the exact build), denormals included: clang rescales around the
		 * instructions' flushing */
		tol[3][i] = tol[4][i] = tol[5][i] = 3;
		tol[6][i] = exact ? 0.5 : 2.5;
		if (fast) {
			/* bare instructions: no denormal rescaling, and expf's argument scaled by log2(e)
			 * in f32 loses about |x| ulps; the reciprocal of a huge divisor is a denormal */
			tol[3][i] = a < -126 ? -1 : 1;
			tol[4][i] = fabs(a) * 0.5 < 126 ? 2 + fabs(a) : -1;
			tol[5][i] = sub_b ? -1 : 1;
			tol[6][i] = sub_b || big_b || sub_q || fabs(q) > 0x1p127 ? -1 : 2.5;
		}
	}
	char desc[64];
	snprintf(desc, sizeof desc, "%s.launch.json", stem);
	VkArg args[] = {{"x", DT_F32, 1, {N}, x, VK_IN}, {"y", DT_F32, 1, {N}, y, VK_IN},
			{"out", DT_F32, 2, {N, NO}, out, VK_OUT}};
	vk_run(desc, "n=600", args, ARRAY_LEN(args));
	static const char *const what[NO] = {"v_exp_f32", "v_log_f32", "v_rcp_f32", "exp2f", "expf(x/2)", "log2f", "a / b"};
	for (int k = 0; k < NO; k++) {
		for (int i = 0; i < N; i++)
			got[i] = out[i * NO + k];
		char msg[96];
		snprintf(msg, sizeof msg, "%s %s", stem, what[k]);
		check_ulps(msg, got, want[k], tol[k], N);
	}
	/* the raw instructions flush where the hardware does, and clang's rescaled exp2f/log2f
	 * (the default build) still give the denormal-range answers */
	int i130 = 6, id = 3; /* x = -130, y = 1e-40 */
	ck_assert_msg(out[i130 * NO] == 0.0f, "v_exp_f32(-130) = %a, want 0 (a denormal result flushes)",
		      (double)out[i130 * NO]);
	ck_assert_msg(isinf(out[id * NO + 1]) && out[id * NO + 1] < 0,
		      "v_log_f32(1e-40) = %a, want -inf (a denormal input counts as 0)", (double)out[id * NO + 1]);
	{ /* all three builds: denormals are on, so even -cl-fast-relaxed-math keeps the rescaling */
		ck_assert_msg(out[i130 * NO + 3] == 0x1p-130f, "exp2f(-130) = %a, want 2^-130", (double)out[i130 * NO + 3]);
		ck_assert_msg(ulp_err(out[id * NO + 5], log2(1e-40f)) <= 3, "log2f(1e-40) = %a, want %a",
			      (double)out[id * NO + 5], log2(1e-40f));
	}
}

START_TEST(xlane_math)
{
	run_math("xlane_math");
	static const char *const insns[] = {"v_exp_f32", "v_log_f32", "v_rcp_f32", "v_frexp_mant_f32", "v_ldexp_f32",
					    NULL};
	vk_expect_insns("xlane_math", insns);
}
END_TEST

START_TEST(xlane_math_fast)
{
	run_math("xlane_math_fast");
	static const char *const insns[] = {"v_exp_f32", "v_log_f32", "v_rcp_f32", NULL};
	vk_expect_insns("xlane_math_fast", insns);
	ck_assert_msg(strcmp(vk_arch(), "gfx942") != 0 || strstr(vk_disasm("xlane_math_fast"), "v_div_") == NULL,
		      "xlane_math_fast: fast division should not need v_div_scale");
}
END_TEST

START_TEST(xlane_math_exact)
{
	run_math("xlane_math_exact");
	/* s_mov_b64 with vcc (`s_mov_b64 vcc, s[..]`): the SALU copy between vcc
	 * and an SGPR pair that isel/elt.c keeps lane masks with */
	static const char *const insns[] = {"v_div_scale_f32", "v_div_fmas_f32", "v_div_fixup_f32", "v_rcp_f32",
		"s_mov_b64", NULL};
	vk_expect_insns("xlane_math_exact", insns);
}
END_TEST

/* ---- LDS across waves ---- */

START_TEST(xlane_lds)
{
	enum { N = 512, WG = 256, NO = 10 };
	static float x[N], out[N * NO];
	static double want[N * NO];
	VkRng r = {47};
	for (int i = 0; i < N; i++)
		x[i] = (float)vk_int(&r, -1000, 1000);
	for (int g = 0; g < N / WG; g++) {
		const float *f = x + g * WG;
		double wsum[4] = {0}, wmax[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY}, run = 0;
		for (int t = 0; t < WG; t++) {
			wsum[t / 64] += f[t];
			wmax[t / 64] = f[t] > wmax[t / 64] ? f[t] : wmax[t / 64];
		}
		for (int t = 0; t < WG; t++) {
			double *o = &want[(g * WG + t) * NO];
			int src64 = -1;
			for (int u = 0; u < WG; u++) /* thread u wrote l64[(5u + 3) % 256] */
				if ((u * 5 + 3) % WG == (t ^ 64))
					src64 = u;
			float q = f[(t + 64) % WG];
			o[0] = f[WG - 1 - t];
			o[1] = f[src64], o[2] = -f[src64];
			o[3] = q, o[4] = q + 1.0f, o[5] = q * 2.0f, o[6] = q - 3.0f;
			o[7] = wsum[0] + wsum[1] + wsum[2] + wsum[3];
			o[8] = fmax(fmax(wmax[0], wmax[1]), fmax(wmax[2], wmax[3]));
			run = t % 64 == 0 ? f[t] : run + f[t];
			o[9] = run;
		}
	}
	VkArg args[] = {{"x", DT_F32, 1, {N}, x, VK_IN}, {"out", DT_F32, 2, {N, NO}, out, VK_OUT}};
	vk_run("xlane_lds.launch.json", "n=512", args, ARRAY_LEN(args));
	static const char *const what[NO] = {"ds_read_b32 of another wave's ds_write_b32",
					     "ds_read_b64 .x", "ds_read_b64 .y",
					     "ds_read_b128 .x", "ds_read_b128 .y", "ds_read_b128 .z", "ds_read_b128 .w",
					     "workgroup sum (DPP + LDS + barrier)", "workgroup max",
					     "wave inclusive scan (DPP)"};
	static float gcol[N];
	static double wcol[N];
	for (int k = 0; k < NO; k++) {
		for (int i = 0; i < N; i++) {
			gcol[i] = out[i * NO + k];
			wcol[i] = want[i * NO + k];
		}
		vk_check_f32(what[k], gcol, wcol, N, 0, 0);
	}
	static const char *const insns[] = {"ds_write_b32", "ds_write_b64", "ds_write_b128", "ds_read_b32",
					    "ds_read_b64",  "ds_read_b128", "s_barrier",     "v_add_f32_dpp", NULL};
	vk_expect_insns("xlane_lds", insns);
}
END_TEST

/* ---- DPP forms only an instruction selector writes (hand-written) ---- */

START_TEST(xlane_dpp_asm)
{
	enum { NO = 8 };
	static float x[64], y[64];
	static uint32_t out[64 * NO], want[64 * NO];
	VkRng r = {48};
	for (int l = 0; l < 64; l++) {
		x[l] = vk_float(&r, -10.0f, 10.0f);
		y[l] = vk_float(&r, -10.0f, 10.0f);
	}
	const float seven = 7.0f;
	for (int l = 0; l < 64; l++) {
		int row = l / 16, bank = (l / 4) % 4;
		uint32_t *o = &want[l * NO];
		int s;
		/* 0: row_bcast:15, rows 1 and 3 enabled, the others keep 7.0 */
		o[0] = vk_fbits(row == 1 || row == 3 ? x[dpp_src(0x142, l)] + y[l] : seven);
		/* 1: row_shr:3, banks 0 and 2 enabled; a missing source keeps 7.0 (bound_ctrl off) */
		s = dpp_src(0x113, l);
		o[1] = vk_fbits((bank == 0 || bank == 2) && s >= 0 ? fmaxf(x[s], y[l]) : seven);
		o[2] = vk_fbits(-x[dpp_src(0x125, l)] + fabsf(y[l])); /* neg on the DPP operand, abs on src1 */
		o[3] = vk_fbits(x[dpp_src(0x4e, l)] - y[l]);
		o[4] = vk_fbits(y[l] - x[dpp_src(0x140, l)]);
		s = dpp_src(0x101, l);
		o[5] = vk_fbits(fmaf(s >= 0 ? x[s] : 0.0f, y[l], y[l])); /* bound_ctrl: a missing source is 0 */
		s = dpp_src(0x138, l);
		o[6] = vk_fbits(fabsf(s >= 0 ? x[s] : 0.0f) * y[l]);
		o[7] = row >= 2 ? vk_fbits(x[31]) + vk_fbits(y[l]) : 7u;
	}
	VkArg args[] = {{"x", DT_F32, 1, {64}, x, VK_IN},
			{"y", DT_F32, 1, {64}, y, VK_IN},
			{"out", DT_F32, 2, {64, NO}, out, VK_OUT}};
	vk_run("xlane_dpp_asm.launch.json", NULL, args, ARRAY_LEN(args));
	static const char *const what[NO] = {
		"v_add_f32_dpp row_bcast:15 row_mask:0xa (old 7.0)", "v_max_f32_dpp row_shr:3 bank_mask:0x5 (old 7.0)",
		"v_add_f32_dpp -src0 |src1| row_ror:5",             "v_sub_f32_dpp quad_perm:[2,3,0,1]",
		"v_subrev_f32_dpp row_mirror",                       "v_fmac_f32_dpp row_shl:1 bound_ctrl",
		"v_mul_f32_dpp |src0| wave_shr:1 bound_ctrl",        "v_add_u32_dpp row_bcast:31 row_mask:0xc (old 7)"};
	uint32_t gcol[64], wcol[64];
	for (int k = 0; k < NO; k++) {
		for (int l = 0; l < 64; l++) {
			gcol[l] = out[l * NO + k];
			wcol[l] = want[l * NO + k];
		}
		vk_check_u32(what[k], gcol, wcol, 64);
	}
}
END_TEST

static TCase *cases(const char *arch, void (*setup)(void))
{
	TCase *tc = tcase_create(arch);
	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, xlane_dpp);
	tcase_add_test(tc, xlane_dpp_f32);
	tcase_add_test(tc, xlane_scan);
	tcase_add_test(tc, xlane_perm);
	tcase_add_test(tc, xlane_mfma);
	tcase_add_test(tc, xlane_mfma_zero);
	tcase_add_test(tc, xlane_math);
	tcase_add_test(tc, xlane_math_fast);
	tcase_add_test(tc, xlane_math_exact);
	tcase_add_test(tc, xlane_lds);
	return tc;
}

int main(void)
{
	Suite *s = suite_create("validate_xlane");
	suite_add_tcase(s, cases("gfx942", setup_gfx942));
	suite_add_tcase(s, cases("gfx942:sramecc-", setup_noecc));
	suite_add_tcase(s, cases("gfx90a", setup_gfx90a));
	TCase *tc = tcase_create("asm");
	tcase_add_unchecked_fixture(tc, setup_asm, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, xlane_dpp_asm);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
