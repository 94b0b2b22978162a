/* mx_test.c — gfx950's MX and OCP fp8 instructions on the emulator against
 * kernels from an independent code generator: OpenCL C compiled by
 * clang-22 for gfx950 (the builtins __builtin_amdgcn_mfma_scale_f32_*_f8f6f4,
 * __builtin_amdgcn_cvt_scalef32_*, the fp8 MFMAs and conversions, the i8
 * MFMAs; inline assembly for the unscaled f8f6f4 MFMA, which has no
 * builtin), run on the emulator and checked against references computed
 * here with the OCP 8-bit and MX semantics written out in this file:
 *
 *   element values from the format definitions (fp4 from its table of
 *   eight magnitudes, the others from sign, exponent and mantissa), e8m0
 *   scales 2^(e - 127) with 0xff NaN, conversions to a format by searching
 *   all its codes for the nearest value (ties to the even code);
 *   operands packed into the lanes from the matrices as the CDNA4 layouts
 *   put them (8- and 6-bit formats of the f8f6f4 MFMAs in two halves of
 *   K, 4-bit ones contiguous; the scale of row/column x and block b in
 *   lane x + M*b) -- the direction opposite to the emulator's gather.
 *
 * clang is the check on the encodings (cbsz/blgp, the scale op_sel bytes,
 * the conversions' byte and word selects, the VOP3PX2 pair); the semantics
 * are the ones documented in loader/emu/mfma.c and valu.c. Nothing here
 * ran on a GPU. Without clang-22 the suite says so and passes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../loader/emu/emu_int.h"
#include "emu_harness.h"

static bool have_clang22(void)
{
	static int have = -1;
	if (have < 0) {
		have = h_have_tool("clang-22") && h_have_tool("llvm-objcopy-22");
		if (!have)
			test_skip("emu_mx", "clang-22 (and llvm-objcopy-22) not found: the gfx950 kernels are skipped "
					    "(tools/setup.sh installs them)");
	}
	return have;
}

/* ---- the formats, from their definitions ---- */

typedef enum { F_FP8, F_BF8, F_FP6, F_BF6, F_FP4 } Fmt; /* cbsz/blgp order */
static const int FBITS[5] = {8, 8, 6, 6, 4}, FEXP[5] = {4, 5, 2, 3, 2}, FMAN[5] = {3, 2, 3, 2, 1};

static double fmt_value(Fmt f, unsigned code)
{
	int eb = FEXP[f], mb = FMAN[f], w = FBITS[f];
	double sign = code >> (w - 1) & 1 ? -1.0 : 1.0;
	unsigned mag = code & ((1u << (w - 1)) - 1);
	if (f == F_FP4) {
		static const double t[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
		return sign * t[mag];
	}
	unsigned e = mag >> mb, m = mag & ((1u << mb) - 1), emax = (1u << eb) - 1;
	if (f == F_FP8 && e == emax && m == (1u << mb) - 1)
		return NAN; /* e4m3fn: S.1111.111 */
	if (f == F_BF8 && e == emax)
		return m ? NAN : sign * INFINITY;
	int bias = (1 << (eb - 1)) - 1;
	double frac = (double)m / (1 << mb);
	return sign * (e ? pow(2.0, (int)e - bias) * (1 + frac) : pow(2.0, 1 - bias) * frac);
}

/* The code nearest x (ties: the even code); overflow as documented in
 * loader/emu/valu.c: fp4 saturates (NaN too), fp8 gives NaN, bf8 +-inf
 * (NaN for NaN). */
static unsigned fmt_encode(Fmt f, double x)
{
	int w = FBITS[f];
	unsigned sign = signbit(x) ? 1u << (w - 1) : 0;
	double maxv = f == F_FP8 ? 448 : f == F_BF8 ? 57344 : f == F_FP4 ? 6 : 0;
	if (isnan(x))
		return f == F_FP4 ? sign | 7 : sign | 0x7f;
	double a = fabs(x);
	unsigned best = 0;
	double bd = INFINITY;
	for (unsigned c = 0; c < (1u << (w - 1)); c++) {
		double v = fmt_value(f, c);
		if (isnan(v) || isinf(v))
			continue;
		double d = fabs(v - a);
		if (d < bd || (d == bd && !(c & 1)))
			best = c, bd = d;
	}
	/* past the largest value by at least half its last step: overflow */
	double last = fmt_value(f, best) - fmt_value(f, best - 1);
	if (a >= maxv + last / 2 && !(a == maxv + last / 2 && !(best & 1)))
		return f == F_FP4 ? sign | 7 : f == F_BF8 ? sign | 0x7c : sign | 0x7f;
	return sign | best;
}

static double e8m0(unsigned s) { return s == 0xff ? NAN : ldexp(1.0, (int)s - 127); }

static uint32_t rnd(uint32_t *st)
{
	*st = *st * 1103515245u + 12345u;
	return *st >> 8;
}

/* A random finite code of f (no NaN or infinity). */
static unsigned rnd_code(Fmt f, uint32_t *st)
{
	for (;;) {
		unsigned c = rnd(st) & ((1u << FBITS[f]) - 1);
		double v = fmt_value(f, c);
		if (!isnan(v) && !isinf(v))
			return c;
	}
}

/* ---- f8f6f4 MFMAs ---- */

typedef struct {
	int m, k;          /* 16x16x128 or 32x32x64 */
	Fmt fa, fb;        /* cbsz, blgp */
	unsigned sela, selb; /* the scale bytes (0..3) */
	bool scaled;
	uint32_t seed;
	int nan_row;       /* >= 0: A's scale of that row, block 1, is 0xff */
} MxCase;

/* Element e of lane value v (8 dwords) in a format of w bits: bits w*e up. */
static void put_bits(uint32_t v[8], int bit, int w, unsigned x)
{
	for (int i = 0; i < w; i++, bit++)
		if (x >> i & 1)
			v[bit / 32] |= 1u << (bit % 32);
}

/* The k the CDNA4 layout gives element e of a lane in lane group g. */
static int lane_k(Fmt f, int K, int g, int e)
{
	return FBITS[f] != 4 ? (K / 2) * (e / 16) + 16 * g + e % 16 : 32 * g + e;
}

static void run_mx(const MxCase *c)
{
	int M = c->m, K = c->k, G = 64 / M, nb = K / 32, ncd = M == 16 ? 4 : 16;
	uint32_t st = c->seed;
	static unsigned A[32][128], B[32][128]; /* A[i][k], B stored as B[j][k] */
	static unsigned SA[32][4], SB[32][4];
	for (int x = 0; x < M; x++)
		for (int k = 0; k < K; k++) {
			A[x][k] = rnd_code(c->fa, &st);
			B[x][k] = rnd_code(c->fb, &st);
		}
	for (int x = 0; x < M; x++)
		for (int b = 0; b < nb; b++) {
			SA[x][b] = c->scaled ? 127 - 6 + rnd(&st) % 13 : 127;
			SB[x][b] = c->scaled ? 127 - 6 + rnd(&st) % 13 : 127;
		}
	if (c->nan_row >= 0)
		SA[c->nan_row][1] = 0xff;
	/* pack the lanes */
	static uint32_t pa[64][8], pb[64][8], sa[64], sb[64];
	static float cpk[64 * 16], dpk[64 * 16]; /* C and D: ncd floats per lane */
	memset(pa, 0, sizeof pa);
	memset(pb, 0, sizeof pb);
	for (int l = 0; l < 64; l++) {
		int x = l % M, g = l / M;
		for (int e = 0; e < 32; e++) {
			put_bits(pa[l], FBITS[c->fa] * e, FBITS[c->fa], A[x][lane_k(c->fa, K, g, e)]);
			put_bits(pb[l], FBITS[c->fb] * e, FBITS[c->fb], B[x][lane_k(c->fb, K, g, e)]);
		}
		/* the unused dwords of a 4- or 6-register operand: garbage */
		for (int d = FBITS[c->fa] * 4; d < 8; d++)
			pa[l][d] = rnd(&st);
		for (int d = FBITS[c->fb] * 4; d < 8; d++)
			pb[l][d] = rnd(&st);
		/* the scale bytes in their op_sel byte, garbage around them */
		sa[l] = rnd(&st) | rnd(&st) << 24;
		sb[l] = rnd(&st) | rnd(&st) << 24;
		sa[l] = (sa[l] & ~(0xffu << (8 * c->sela))) | (g < nb ? SA[x][g] : 0x55u) << (8 * c->sela);
		sb[l] = (sb[l] & ~(0xffu << (8 * c->selb))) | (g < nb ? SB[x][g] : 0x55u) << (8 * c->selb);
		for (int r = 0; r < ncd; r++)
			cpk[l * ncd + r] = (float)((int)(rnd(&st) % 201) - 100) / 8.0f;
	}
	char flags[160];
	snprintf(flags, sizeof flags, "-DM=%d -DCBSZ=%d -DBLGP=%d -DSA=%u -DSB=%u -DSCALED=%d", M, c->fa, c->fb, c->sela,
		 c->selb, c->scaled);
	static const char *CL =
		"typedef int v8i __attribute__((ext_vector_type(8)));\n"
		"typedef int v4i __attribute__((ext_vector_type(4)));\n"
		"typedef float v4f __attribute__((ext_vector_type(4)));\n"
		"typedef float v16f __attribute__((ext_vector_type(16)));\n"
		"#if M == 16\n#define VC v4f\n#define OP __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4\n"
		"#define ASM \"v_mfma_f32_16x16x128_f8f6f4 %0, %1, %2, %3 cbsz:4\"\n"
		"#else\n#define VC v16f\n#define OP __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4\n"
		"#define ASM \"v_mfma_f32_32x32x64_f8f6f4 %0, %1, %2, %3 cbsz:4\"\n#endif\n"
		"__kernel void k(__global v8i *a, __global v8i *b, __global int *sa, __global int *sb,\n"
		"                __global VC *c, __global VC *d) {\n"
		"  int l = __builtin_amdgcn_workitem_id_x();\n"
		"#if SCALED\n"
		"  d[l] = OP(a[l], b[l], c[l], CBSZ, BLGP, SA, sa[l], SB, sb[l]);\n"
		"#else\n" /* unscaled: fp4 A, fp8 B, through the assembler (no builtin) */
		"  VC r; v4i x = a[l].lo; v8i y = b[l];\n"
		"  __asm volatile(ASM : \"=v\"(r) : \"v\"(x), \"v\"(y), \"v\"(c[l]));\n"
		"  d[l] = r;\n"
		"#endif\n"
		"}\n";
	Harness h;
	ck_assert(h_init_cl(&h, CL, "gfx950", flags));
	h_buffer(&h, pa, sizeof pa, 0, false);
	h_buffer(&h, pb, sizeof pb, 8, false);
	h_buffer(&h, sa, sizeof sa, 16, false);
	h_buffer(&h, sb, sizeof sb, 24, false);
	h_buffer(&h, cpk, 64 * (size_t)ncd * 4, 32, false);
	h_buffer(&h, dpk, 64 * (size_t)ncd * 4, 40, true);
	ck_assert_msg(h_run(&h) == 0, "%s: %s", flags, h.err);
	int bad = 0;
	for (int l = 0; l < 64; l++)
		for (int r = 0; r < ncd; r++) {
			int i = M == 16 ? 4 * (l / 16) + r : 8 * (r / 4) + 4 * (l / 32) + r % 4, j = l % M;
			double want = cpk[l * ncd + r], mag = fabs(want);
			for (int k = 0; k < K; k++) {
				double t = fmt_value(c->fa, A[i][k]) * fmt_value(c->fb, B[j][k]) * e8m0(SA[i][k / 32]) *
					   e8m0(SB[j][k / 32]);
				want += t;
				mag += fabs(t);
			}
			float got = dpk[l * ncd + r];
			bool ok = isnan(want) ? isnan(got) : fabs(got - want) <= 1e-6 * mag + 1e-30;
			if (!ok && bad++ < 5)
				fprintf(stderr, "%s lane %d reg %d (D[%d][%d]): %.9g, want %.9g\n", flags, l, r, i, j,
					(double)got, want);
		}
	ck_assert_msg(bad == 0, "%s: %d of %d results differ", flags, bad, 64 * ncd);
	(void)G;
	h_free(&h);
}

START_TEST(scaled_mfma_16x16x128)
{
	if (!have_clang22())
		return;
	/* fp8 x fp8, bf8 x fp4, fp4 x fp4 (MXFP4), fp6 x bf6, fp4 x bf8; the
	 * scale bytes in each of the four places */
	static const MxCase cases[] = {
		{16, 128, F_FP8, F_FP8, 0, 0, true, 1, -1}, {16, 128, F_BF8, F_FP4, 1, 2, true, 2, -1},
		{16, 128, F_FP4, F_FP4, 3, 1, true, 3, -1}, {16, 128, F_FP6, F_BF6, 2, 3, true, 4, -1},
		{16, 128, F_FP4, F_BF8, 0, 3, true, 5, 6},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		run_mx(&cases[i]);
}
END_TEST

START_TEST(scaled_mfma_32x32x64)
{
	if (!have_clang22())
		return;
	static const MxCase cases[] = {
		{32, 64, F_FP8, F_BF8, 2, 1, true, 11, -1}, {32, 64, F_FP4, F_FP4, 1, 3, true, 12, 17},
		{32, 64, F_BF6, F_FP8, 0, 0, true, 13, -1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		run_mx(&cases[i]);
}
END_TEST

/* The unscaled forms, written as assembly (fp4 A: cbsz:4, fp8 B). */
START_TEST(unscaled_f8f6f4)
{
	if (!have_clang22())
		return;
	static const MxCase cases[] = {
		{16, 128, F_FP4, F_FP8, 0, 0, false, 21, -1}, {32, 64, F_FP4, F_FP8, 0, 0, false, 22, -1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		run_mx(&cases[i]);
}
END_TEST

/* ---- gfx950's fp8 and i8 MFMAs of the generic layout ---- */

/* v_mfma_f32_16x16x32_{fp8,bf8}_{fp8,bf8} on gfx950 read OCP e4m3fn/e5m2
 * (gfx942's FNUZ bytes mean other values); v_mfma_i32_16x16x64_i8 and
 * 32x32x32_i8 hold 16 k per lane: lane x + M*g, k = KL*g + e. */
START_TEST(ocp_fp8_and_i8_mfmas)
{
	if (!have_clang22())
		return;
	static const struct {
		const char *op, *va, *vc;
		int m, k, kind; /* kind 0: fp8 x bf8 (OCP), 1: i8 */
	} ops[] = {
		{"__builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8", "long", "v4f", 16, 32, 0},
		{"__builtin_amdgcn_mfma_i32_16x16x64_i8", "v4i", "v4i", 16, 64, 1},
		{"__builtin_amdgcn_mfma_i32_32x32x32_i8", "v4i", "v16i", 32, 32, 1},
	};
	for (size_t t = 0; t < sizeof ops / sizeof *ops; t++) {
		int M = ops[t].m, K = ops[t].k, KL = K / (64 / M), ncd = M == 16 ? 4 : 16, bytes = KL;
		bool i8 = ops[t].kind == 1;
		uint32_t st = 77u + (uint32_t)t;
		static unsigned A[32][64], B[32][64];
		static uint8_t pa[64][16], pb[64][16];
		static uint32_t cpk[64 * 16], dpk[64 * 16];
		for (int x = 0; x < M; x++)
			for (int k = 0; k < K; k++) {
				A[x][k] = i8 ? rnd(&st) & 0xff : rnd_code(F_FP8, &st);
				B[x][k] = i8 ? rnd(&st) & 0xff : rnd_code(F_BF8, &st);
			}
		for (int l = 0; l < 64; l++) {
			for (int e = 0; e < bytes; e++) {
				pa[l][e] = (uint8_t)A[l % M][KL * (l / M) + e];
				pb[l][e] = (uint8_t)B[l % M][KL * (l / M) + e];
			}
			for (int r = 0; r < ncd; r++) {
				float f = (float)((int)(rnd(&st) % 41) - 20);
				int32_t iv = (int32_t)(rnd(&st) % 2001) - 1000;
				memcpy(&cpk[l * ncd + r], i8 ? (const void *)&iv : (const void *)&f, 4);
			}
		}
		char src[1200];
		snprintf(src, sizeof src,
			 "typedef int v4i __attribute__((ext_vector_type(4)));\n"
			 "typedef int v16i __attribute__((ext_vector_type(16)));\n"
			 "typedef float v4f __attribute__((ext_vector_type(4)));\n"
			 "__kernel void k(__global %s *a, __global %s *b, __global %s *c, __global %s *d) {\n"
			 "  int l = __builtin_amdgcn_workitem_id_x();\n"
			 "  d[l] = %s(a[l], b[l], c[l], 0, 0, 0);\n"
			 "}\n",
			 ops[t].va, ops[t].va, ops[t].vc, ops[t].vc, ops[t].op);
		/* the A/B buffers: `bytes` per lane, packed */
		static uint8_t ab[64 * 16], bb[64 * 16];
		for (int l = 0; l < 64; l++) {
			memcpy(ab + l * bytes, pa[l], (size_t)bytes);
			memcpy(bb + l * bytes, pb[l], (size_t)bytes);
		}
		Harness h;
		ck_assert(h_init_cl(&h, src, "gfx950", NULL));
		h_buffer(&h, ab, 64 * (size_t)bytes, 0, false);
		h_buffer(&h, bb, 64 * (size_t)bytes, 8, false);
		h_buffer(&h, cpk, 64 * (size_t)ncd * 4, 16, false);
		h_buffer(&h, dpk, 64 * (size_t)ncd * 4, 24, true);
		ck_assert_msg(h_run(&h) == 0, "%s: %s", ops[t].op, h.err);
		for (int l = 0; l < 64; l++)
			for (int r = 0; r < ncd; r++) {
				int i = M == 16 ? 4 * (l / 16) + r : 8 * (r / 4) + 4 * (l / 32) + r % 4, j = l % M;
				if (i8) {
					int64_t want;
					int32_t c0;
					memcpy(&c0, &cpk[l * ncd + r], 4);
					want = c0;
					for (int k = 0; k < K; k++)
						want += (int64_t)(int8_t)A[i][k] * (int8_t)B[j][k];
					int32_t got;
					memcpy(&got, &dpk[l * ncd + r], 4);
					ck_assert_msg(got == (int32_t)want, "%s lane %d reg %d: %d, want %lld", ops[t].op, l, r, got,
						      (long long)want);
				} else {
					float c0, got;
					memcpy(&c0, &cpk[l * ncd + r], 4);
					memcpy(&got, &dpk[l * ncd + r], 4);
					double want = c0, mag = fabs(c0);
					for (int k = 0; k < K; k++) {
						double p = fmt_value(F_FP8, A[i][k]) * fmt_value(F_BF8, B[j][k]);
						want += p;
						mag += fabs(p);
					}
					ck_assert_msg(fabs(got - want) <= 1e-6 * mag, "%s lane %d reg %d: %.9g, want %.9g",
						      ops[t].op, l, r, (double)got, want);
				}
			}
		h_free(&h);
	}
}
END_TEST

/* ---- conversions ---- */

/* Each lane converts its own inputs; x[l] are f32 values, p[l] packed
 * narrow codes, s[l] the scale (a power of two, or an all-ones exponent:
 * NaN). Results, per lane, in o[l*16 + ...]:
 *   0,1   pk_f32_fp4 of p's byte 2
 *   2     pk_fp4_f32(x0, x1) into byte 1 of 0xa5a5a5a5
 *   3,4   pk_f32_fp8 of p's high word
 *   5,6   pk_f32_bf8 of p's low word
 *   7     f32_fp8 of p's byte 3
 *   8     f32_bf8 of p's byte 1
 *   9     pk_fp8_f32(x0, x1) into the high word of 0x1234abcd
 *   10    pk_bf8_f32(x2, x3) into the low word of 0x1234abcd
 *   11    (unscaled) cvt_pk_fp8_f32(x2, x3) into the low word, OCP on gfx950
 *   12    (unscaled) cvt_f32_fp8 of p's byte 1 */
static const char *CVT_CL =
	"typedef float v2f __attribute__((ext_vector_type(2)));\n"
	"typedef short v2s __attribute__((ext_vector_type(2)));\n"
	"__kernel void k(__global const float *x, __global const uint *p, __global const float *s, __global uint *o) {\n"
	"  int l = __builtin_amdgcn_workitem_id_x();\n"
	"  float x0 = x[4*l], x1 = x[4*l+1], x2 = x[4*l+2], x3 = x[4*l+3], sc = s[l];\n"
	"  uint q = p[l];\n"
	"  __global uint *r = o + 16 * l;\n"
	"  v2f a = __builtin_amdgcn_cvt_scalef32_pk_f32_fp4(q, sc, 2);\n"
	"  r[0] = as_uint(a.x); r[1] = as_uint(a.y);\n"
	"  r[2] = __builtin_amdgcn_cvt_scalef32_pk_fp4_f32(0xa5a5a5a5u, x0, x1, sc, 1);\n"
	"  v2f b = __builtin_amdgcn_cvt_scalef32_pk_f32_fp8(q, sc, true);\n"
	"  r[3] = as_uint(b.x); r[4] = as_uint(b.y);\n"
	"  v2f c = __builtin_amdgcn_cvt_scalef32_pk_f32_bf8(q, sc, false);\n"
	"  r[5] = as_uint(c.x); r[6] = as_uint(c.y);\n"
	"  r[7] = as_uint(__builtin_amdgcn_cvt_scalef32_f32_fp8(q, sc, 3));\n"
	"  r[8] = as_uint(__builtin_amdgcn_cvt_scalef32_f32_bf8(q, sc, 1));\n"
	"  v2s old = as_short2(0x1234abcdu);\n"
	"  r[9] = as_uint(__builtin_amdgcn_cvt_scalef32_pk_fp8_f32(old, x0, x1, sc, true));\n"
	"  r[10] = as_uint(__builtin_amdgcn_cvt_scalef32_pk_bf8_f32(old, x2, x3, sc, false));\n"
	"  r[11] = (uint)__builtin_amdgcn_cvt_pk_fp8_f32(x2, x3, 0x1234abcd, false);\n"
	"  r[12] = as_uint(__builtin_amdgcn_cvt_f32_fp8(q, 1));\n"
	"}\n";

static uint32_t fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* Widening reference: the code's value times the scale, as f32. */
static uint32_t widen(Fmt f, unsigned code, float s) { return fbits((float)(fmt_value(f, code) * s)); }

static bool same_f32(uint32_t got, uint32_t want)
{
	float g, w;
	memcpy(&g, &got, 4);
	memcpy(&w, &want, 4);
	return got == want || (isnan(g) && isnan(w));
}

START_TEST(scaled_conversions)
{
	if (!have_clang22())
		return;
	static float x[64 * 4], s[64];
	static uint32_t p[64], o[64 * 16];
	uint32_t st = 99;
	/* values: ties, subnormals, overflow, zeros of both signs, NaN, inf */
	static const float special[] = {0.25f, 0.75f, 2.5f, 5.0f, 7.0f, 1e6f, -0.0f, 0.0f, 464.0f, 480.0f,
		-465.0f, 61440.0f, 0.0009765625f, 0.001953125f, 0.00048828125f, 3.0f, -6.5f, 1.25f};
	for (int l = 0; l < 64; l++) {
		int e = (int)(rnd(&st) % 9) - 4;
		s[l] = ldexpf(1.0f, e);
		for (int i = 0; i < 4; i++) {
			int pick = (int)(rnd(&st) % 24);
			x[4 * l + i] = pick < (int)(sizeof special / sizeof *special)
					       ? special[pick] * s[l]
					       : (float)((int)(rnd(&st) % 2001) - 1000) / 37.0f * s[l];
		}
		p[l] = rnd(&st) | rnd(&st) << 24;
	}
	float nanscale;
	uint32_t nb = 0x7f800000u;
	memcpy(&nanscale, &nb, 4);
	s[5] = nanscale;
	x[4 * 7] = NAN;
	x[4 * 8 + 1] = INFINITY;
	Harness h;
	ck_assert(h_init_cl(&h, CVT_CL, "gfx950", NULL));
	h_buffer(&h, x, sizeof x, 0, false);
	h_buffer(&h, p, sizeof p, 8, false);
	h_buffer(&h, s, sizeof s, 16, false);
	h_buffer(&h, o, sizeof o, 24, true);
	ck_assert_msg(h_run(&h) == 0, "%s", h.err);
	for (int l = 0; l < 64; l++) {
		const uint32_t *r = o + 16 * l;
		float sc = s[l], x0 = x[4 * l], x1 = x[4 * l + 1], x2 = x[4 * l + 2], x3 = x[4 * l + 3];
		bool nan = l == 5;
		double sd = nan ? NAN : sc;
		uint32_t q = p[l];
		uint32_t want[13];
		want[0] = widen(F_FP4, q >> 16 & 0xf, (float)sd);
		want[1] = widen(F_FP4, q >> 20 & 0xf, (float)sd);
		want[2] = (0xa5a5a5a5u & ~0xff00u) | (fmt_encode(F_FP4, x0 / sd) | fmt_encode(F_FP4, x1 / sd) << 4) << 8;
		want[3] = widen(F_FP8, q >> 16 & 0xff, (float)sd);
		want[4] = widen(F_FP8, q >> 24, (float)sd);
		want[5] = widen(F_BF8, q & 0xff, (float)sd);
		want[6] = widen(F_BF8, q >> 8 & 0xff, (float)sd);
		want[7] = widen(F_FP8, q >> 24, (float)sd);
		want[8] = widen(F_BF8, q >> 8 & 0xff, (float)sd);
		want[9] = (0x1234abcdu & 0xffffu) | (fmt_encode(F_FP8, x0 / sd) | fmt_encode(F_FP8, x1 / sd) << 8) << 16;
		want[10] = (0x1234abcdu & 0xffff0000u) | fmt_encode(F_BF8, x2 / sd) | fmt_encode(F_BF8, x3 / sd) << 8;
		want[11] = (0x1234abcdu & 0xffff0000u) | fmt_encode(F_FP8, x2) | fmt_encode(F_FP8, x3) << 8;
		want[12] = widen(F_FP8, q >> 8 & 0xff, 1.0f);
		for (int i = 0; i < 13; i++) {
			bool narrow = i == 2 || i == 9 || i == 10 || i == 11;
			ck_assert_msg(narrow ? r[i] == want[i] : same_f32(r[i], want[i]),
				      "lane %d result %d: 0x%08x, want 0x%08x (x %g %g %g %g, scale %g, p 0x%08x)", l, i,
				      r[i], want[i], (double)x0, (double)x1, (double)x2, (double)x3, sd, q);
		}
	}
	h_free(&h);
}
END_TEST

/* The pair's decoding: every scale byte select and format field the
 * assembler can write comes back from emu_decode as written (the
 * mnemonics are decode_test's). */
START_TEST(scaled_pair_fields)
{
	if (!h_have_tool("llvm-mc-22"))
		return;
	Buf body = {0};
	for (int i = 0; i < 16; i++) {
		unsigned a = (unsigned)i & 3, b = (unsigned)i >> 2, fa = (unsigned)i % 5, fb = (unsigned)(i * 3) % 5;
		static const char *reg[5] = {"[4:11]", "[4:11]", "[4:9]", "[4:9]", "[4:7]"}, *regb[5] = {"[12:19]", "[12:19]", "[12:17]", "[12:17]", "[12:15]"};
		buf_printf(&body, "v_mfma_scale_f32_%s_f8f6f4 %s, v%s, v%s, %s, v%d, v%d op_sel:[%u,%u,0] op_sel_hi:[%u,%u,0] cbsz:%u blgp:%u\n",
			   i % 2 ? "32x32x64" : "16x16x128", i % 2 ? "a[0:15]" : "v[0:3]", reg[fa], regb[fb],
			   i % 2 ? "a[0:15]" : "v[0:3]", 20 + i, 40 + i, a & 1, b & 1, a >> 1, b >> 1, fa, fb);
	}
	uint8_t *code = NULL;
	size_t n = h_assemble(buf_cstr(&body), &code, "gfx950");
	ck_assert_uint_eq(n, 16 * 16 + 4); /* and s_endpgm */
	for (int i = 0; i < 16; i++) {
		Inst in;
		ck_assert_int_eq(emu_decode(EMU_GFX950, code + 16 * i, n - 16 * (size_t)i, &in), 4);
		unsigned a = (unsigned)i & 3, b = (unsigned)i >> 2;
		ck_assert_int_eq(in.id, i % 2 ? I_V_MFMA_SCALE_F32_32X32X64_F8F6F4 : I_V_MFMA_SCALE_F32_16X16X128_F8F6F4);
		ck_assert_uint_eq(in.scale_sel[0], a);
		ck_assert_uint_eq(in.scale_sel[1], b);
		ck_assert_uint_eq(in.cbsz, (unsigned)i % 5);
		ck_assert_uint_eq(in.blgp, (unsigned)(i * 3) % 5);
		ck_assert_uint_eq(in.scale_src[0], SRC_VGPR + 20 + (unsigned)i);
		ck_assert_uint_eq(in.scale_src[1], SRC_VGPR + 40 + (unsigned)i);
		ck_assert(in.acc_cd == (i % 2 == 1));
	}
	free(code);
	buf_free(&body);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("emu_mx");
	TCase *tc = tcase_create("mx");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, scaled_mfma_16x16x128);
	tcase_add_test(tc, scaled_mfma_32x32x64);
	tcase_add_test(tc, unscaled_f8f6f4);
	tcase_add_test(tc, ocp_fp8_and_i8_mfmas);
	tcase_add_test(tc, scaled_conversions);
	tcase_add_test(tc, scaled_pair_fields);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return run_suite(suite()); }
