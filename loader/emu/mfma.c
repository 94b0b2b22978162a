/* mfma.c — matrix FMA (v_mfma_*) for the single-block shapes, with the
 * operand lane layouts AMD documents for CDNA3 and CDNA4 (the ISA guides'
 * matrix instructions and AMD's Matrix Instruction Calculator):
 *
 *   M = N = 16 or 32, G = 64 / M lane groups, KL = K / G elements per lane.
 *   A[i][k]: lane i + M*floor(k/KL), element e = k % KL of that lane;
 *   B[k][j]: lane j + M*floor(k/KL), same element rule;
 *   element e lives in register e / per_reg, part e % per_reg (f16/bf16: two
 *   per register, low half first; i8: four; f32: one).
 *   D[i][j] and C: lane j + M*floor((i % (4G)) / 4), register
 *   4*floor(i / (4G)) + i % 4   (16x16: reg i%4, lane j + 16*floor(i/4);
 *   32x32: reg 4*floor(i/8) + i%4, lane j + 32*(floor(i/4) % 2)).
 *
 *   (gfx90a's i8 16x16x16 and 32x32x8: KL = 4, one dword of 4 bytes per lane,
 *   k = 4*floor(lane/M) + byte.)
 *
 * gfx950's 16x16x32 and 32x32x16 f16/bf16 forms and its i8 16x16x64 and
 * 32x32x32 follow the same rule with KL = 8 and 16 (four registers); they
 * fault on other processors.
 *
 * gfx950's f8f6f4 family (v_mfma_[scale_]f32_16x16x128_f8f6f4 and
 * 32x32x64): 32 elements of A and of B per lane, each operand in the format
 * its field names (cbsz for A, blgp for B: 0 fp8 e4m3fn, 1 bf8 e5m2, 2 fp6
 * e2m3, 3 bf6 e3m2, 4 fp4 e2m1), packed from bit 0 of the first register
 * up (8, 6 or 4 bits an element; a 6-bit one may straddle two registers).
 * Which k element e of lane l holds depends on the width: the 8- and
 * 6-bit formats take K in two halves of 16 per lane (as AMD's CDNA4 blog
 * on matrix cores lays out 32x32x64 fp8, and Wave's ScaledMMAType mapping
 * 16x16x128's fp8 and fp6): k = (K/2)*floor(e/16) + 16*floor(l/M) + e%16
 * (a 6-bit half is three registers); fp4 runs K contiguously:
 * k = 32*floor(l/M) + e (the blog's fp4 layout, Wave's MMA_SCALE_FP4).
 * The scaled forms multiply each product
 * by 2^(sa - 127) * 2^(sb - 127), the e8m0 scales of A's row and B's
 * column for the 32-wide block k / 32: for A row i and block b the byte
 * scale_sel[0] of scale register A in lane i + M*b, for B column j the
 * byte scale_sel[1] of scale register B in lane j + M*b (0xff is NaN: the
 * block's products, so the result, are NaN). Element decodings follow the
 * OCP 8-bit and MX specifications (ocp_value): e4m3fn has no infinity and
 * S.1111.111 as NaN, e5m2 is IEEE-like, the 6- and 4-bit formats have
 * neither.
 *
 * Element types: f16, bf16, f32, i8, the fp8/bf8 of the fp8 MFMAs: gfx942's
 * E4M3/E5M2 "FNUZ" encodings (decoded exactly; their NaN/bias details are
 * not confirmed on hardware) and, on gfx950, the OCP e4m3fn and e5m2.
 *
 * Products are accumulated in double and rounded once to f32 (i32 for the
 * i8 forms), then added to C: hardware does not promise a summation order,
 * so tests compare with a tolerance. EXEC is ignored, as on hardware. C may
 * be an inline constant. AGPR operands (acc_cd, acc bits) index the unified
 * file from accum_offset. v_mfma_f64_16x16x4_f64 has its own layout and
 * accumulation (exec_mfma_f64). Blocked shapes (…_2b/_4b/_16b, f64's
 * 4x4x4_4b too), xf32, the
 * cbsz/abid/blgp broadcast controls of the other MFMAs and a lone
 * v_mfma_ld_scale_b32 are not implemented and stop with a message. */
#include <math.h>
#include <string.h>

#include "../../util/dtype.h"
#include "emu_int.h"

typedef enum {
	E_F16, E_BF16, E_F32, E_I8, E_FP8, E_BF8, /* E_FP8/E_BF8: FNUZ on gfx942, OCP on gfx950 */
	E_OCP_FP8, E_OCP_BF8, E_FP6, E_BF6, E_FP4 /* the f8f6f4 formats, in cbsz/blgp order */
} Elem;

typedef struct {
	int m, k;      /* M = N, K */
	int per_reg;   /* A/B elements per register (f8f6f4: by format) */
	Elem a, b;     /* element types of A and B */
} Shape;

static bool shape_of(IsaOp id, Shape *s)
{
	switch (id) {
	case I_V_MFMA_F32_16X16X16_F16: *s = (Shape){16, 16, 2, E_F16, E_F16}; return true;
	case I_V_MFMA_F32_32X32X8_F16: *s = (Shape){32, 8, 2, E_F16, E_F16}; return true;
	case I_V_MFMA_F32_16X16X16_BF16: *s = (Shape){16, 16, 2, E_BF16, E_BF16}; return true;
	case I_V_MFMA_F32_32X32X8_BF16: *s = (Shape){32, 8, 2, E_BF16, E_BF16}; return true;
	case I_V_MFMA_F32_16X16X4_F32: *s = (Shape){16, 4, 1, E_F32, E_F32}; return true;
	case I_V_MFMA_F32_32X32X2_F32: *s = (Shape){32, 2, 1, E_F32, E_F32}; return true;
	case I_V_MFMA_I32_16X16X16_I8: *s = (Shape){16, 16, 4, E_I8, E_I8}; return true; /* gfx90a */
	case I_V_MFMA_I32_32X32X8_I8: *s = (Shape){32, 8, 4, E_I8, E_I8}; return true;   /* gfx90a */
	case I_V_MFMA_I32_16X16X32_I8: *s = (Shape){16, 32, 4, E_I8, E_I8}; return true;
	case I_V_MFMA_I32_32X32X16_I8: *s = (Shape){32, 16, 4, E_I8, E_I8}; return true;
	case I_V_MFMA_F32_16X16X32_BF8_BF8: *s = (Shape){16, 32, 4, E_BF8, E_BF8}; return true;
	case I_V_MFMA_F32_16X16X32_BF8_FP8: *s = (Shape){16, 32, 4, E_BF8, E_FP8}; return true;
	case I_V_MFMA_F32_16X16X32_FP8_BF8: *s = (Shape){16, 32, 4, E_FP8, E_BF8}; return true;
	case I_V_MFMA_F32_16X16X32_FP8_FP8: *s = (Shape){16, 32, 4, E_FP8, E_FP8}; return true;
	case I_V_MFMA_F32_32X32X16_BF8_BF8: *s = (Shape){32, 16, 4, E_BF8, E_BF8}; return true;
	case I_V_MFMA_F32_32X32X16_BF8_FP8: *s = (Shape){32, 16, 4, E_BF8, E_FP8}; return true;
	case I_V_MFMA_F32_32X32X16_FP8_BF8: *s = (Shape){32, 16, 4, E_FP8, E_BF8}; return true;
	case I_V_MFMA_F32_32X32X16_FP8_FP8: *s = (Shape){32, 16, 4, E_FP8, E_FP8}; return true;
	/* gfx950: eight 16-bit elements per lane in four registers */
	case I_V_MFMA_F32_16X16X32_F16: *s = (Shape){16, 32, 2, E_F16, E_F16}; return true;
	case I_V_MFMA_F32_32X32X16_F16: *s = (Shape){32, 16, 2, E_F16, E_F16}; return true;
	case I_V_MFMA_F32_16X16X32_BF16: *s = (Shape){16, 32, 2, E_BF16, E_BF16}; return true;
	case I_V_MFMA_F32_32X32X16_BF16: *s = (Shape){32, 16, 2, E_BF16, E_BF16}; return true;
	/* gfx950: sixteen i8 per lane in four registers */
	case I_V_MFMA_I32_16X16X64_I8: *s = (Shape){16, 64, 4, E_I8, E_I8}; return true;
	case I_V_MFMA_I32_32X32X32_I8: *s = (Shape){32, 32, 4, E_I8, E_I8}; return true;
	/* gfx950 f8f6f4: the formats come from cbsz/blgp (exec_f8f6f4) */
	case I_V_MFMA_F32_16X16X128_F8F6F4: case I_V_MFMA_SCALE_F32_16X16X128_F8F6F4:
		*s = (Shape){16, 128, 0, E_OCP_FP8, E_OCP_FP8};
		return true;
	case I_V_MFMA_F32_32X32X64_F8F6F4: case I_V_MFMA_SCALE_F32_32X32X64_F8F6F4:
		*s = (Shape){32, 64, 0, E_OCP_FP8, E_OCP_FP8};
		return true;
	default: return false;
	}
}

/* gfx942 fp8 formats (MI300, "FNUZ"): fp8 = E4M3 with bias 8, bf8 = E5M2
 * with bias 16; no infinities, no negative zero, 0x80 is the only NaN. */
static double fnuz8(uint8_t v, int mbits, int bias)
{
	if (v == 0x80)
		return NAN;
	int e = (v & 0x7f) >> mbits, m = v & ((1 << mbits) - 1);
	double mag = e == 0 ? ldexp(m, 1 - bias - mbits) : ldexp((1 << mbits) + m, e - bias - mbits);
	return (v & 0x80) ? -mag : mag;
}

/* An OCP float of 1 sign, `eb` exponent and `mb` mantissa bits (bias
 * 2^(eb-1) - 1) in the low bits of v: e5m2 reserves its top exponent for
 * infinity and NaN as IEEE does; e4m3fn has no infinity and only
 * S.1111.111 is NaN; the 6- and 4-bit MX formats have neither (OCP 8-bit
 * floating point specification, OCP Microscaling Formats v1.0). */
static double ocp_value(uint32_t v, int eb, int mb)
{
	int bias = (1 << (eb - 1)) - 1, emax = (1 << eb) - 1;
	uint32_t sign = v >> (eb + mb) & 1;
	int e = (int)(v >> mb) & emax, m = (int)v & ((1 << mb) - 1);
	double mag;
	if (eb == 5 && mb == 2 && e == emax)
		mag = m ? NAN : INFINITY;
	else if (eb == 4 && mb == 3 && e == emax && m == (1 << mb) - 1)
		mag = NAN;
	else
		mag = e == 0 ? ldexp(m, 1 - bias - mb) : ldexp((1 << mb) + m, e - bias - mb);
	return sign ? -mag : mag;
}

/* Bits [bit, bit + n) of a lane's register tuple starting at r (n <= 8). */
static uint32_t lane_bits(Wave *w, unsigned r, int lane, int bit, int n)
{
	uint64_t v = vreg(w, r + (unsigned)(bit / 32))[lane];
	if (bit % 32 + n > 32)
		v |= (uint64_t)vreg(w, r + (unsigned)(bit / 32) + 1)[lane] << 32;
	return (uint32_t)(v >> (bit % 32)) & ((1u << n) - 1);
}

/* Element `part` of register value reg in type t (not the f8f6f4 formats). */
static double elem(Elem t, uint32_t reg, int part, bool ocp)
{
	switch (t) {
	case E_F16: return dtype_f16_to_f32((uint16_t)(reg >> (16 * part)));
	case E_BF16: return dtype_bf16_to_f32((uint16_t)(reg >> (16 * part)));
	case E_I8: return (int8_t)(reg >> (8 * part));
	case E_FP8:
		return ocp ? ocp_value((reg >> (8 * part)) & 0xff, 4, 3) : fnuz8((uint8_t)(reg >> (8 * part)), 3, 8);
	case E_BF8:
		return ocp ? ocp_value((reg >> (8 * part)) & 0xff, 5, 2) : fnuz8((uint8_t)(reg >> (8 * part)), 2, 16);
	default: {
		float f;
		memcpy(&f, &reg, 4);
		return f;
	}
	}
}

/* Bits per element of f8f6f4 format f, and its exponent and mantissa bits. */
static const struct { int bits, eb, mb; } FMT8[5] = {{8, 4, 3}, {8, 5, 2}, {6, 2, 3}, {6, 3, 2}, {4, 2, 1}};

/* One f8f6f4 operand (M x K for A, stored as X[row][k]) from the tuple at
 * r in format f (see the file comment for the k of each element). */
static void gather_f8f6f4(Wave *w, unsigned r, unsigned f, int M, int K, double X[32][128])
{
	int bits = FMT8[f].bits;
	for (int l = 0; l < 64; l++)
		for (int e = 0; e < 32; e++) {
			int k = bits != 4 ? (K / 2) * (e / 16) + 16 * (l / M) + e % 16 : 32 * (l / M) + e;
			X[l % M][k] = ocp_value(lane_bits(w, r, l, e * bits, bits), FMT8[f].eb, FMT8[f].mb);
		}
}

/* A scaled MFMA's e8m0 scales: S[x][b] = 2^(byte - 127) (NaN for 0xff) of
 * operand `which`'s scale register in lane x + M*b. */
static bool gather_scales(Emu *e, Wave *w, const Inst *in, int which, int M, int nb, double S[32][4])
{
	unsigned c = in->scale_src[which];
	uint32_t uni = 0;
	if (c >= SRC_VGPR) {
		if (!emu_vreg_ok(e, w, in, c - SRC_VGPR, 1))
			return false;
	} else
		uni = emu_scalar_src(e, w, in, c, T_B32);
	for (int x = 0; x < M; x++)
		for (int b = 0; b < nb; b++) {
			uint32_t v = c >= SRC_VGPR ? vreg(w, c - SRC_VGPR)[x + M * b] : uni;
			unsigned byte = v >> (8 * in->scale_sel[which]) & 0xff;
			S[x][b] = byte == 0xff ? NAN : ldexp(1.0, (int)byte - 127);
		}
	return true;
}

static double f64_at(Wave *w, unsigned r, int lane)
{
	uint64_t u = (uint64_t)vreg(w, r)[lane] | (uint64_t)vreg(w, r + 1)[lane] << 32;
	double d;
	memcpy(&d, &u, 8);
	return d;
}

/* v_mfma_f64_16x16x4_f64 (gfx90a, gfx942): A[i][k] is the f64 pair of
 * lane i + 16k, B[k][j] that of lane j + 16k; D[i][j] the pair 2·(i % 4)
 * of lane j + 16·floor(i / 4) (eight registers). Each element is
 * C + sum over k of A·B, the products fused one at a time in k order
 * (fma), which clang-19's kernels of tests/validate/mfma_test.c check
 * against a double reference. C may be an inline constant (f64). */
static void exec_mfma_f64(Emu *e, Wave *w, const Inst *in)
{
	if (in->cbsz || in->abid || in->blgp) {
		emu_fail(e, w, in, "unimplemented MFMA broadcast controls cbsz/abid/blgp");
		return;
	}
	if (in->src[0] < SRC_VGPR || in->src[1] < SRC_VGPR) {
		emu_fail(e, w, in, "MFMA A/B operands must be registers");
		return;
	}
	unsigned ra = in->src[0] - SRC_VGPR + (in->acc_a ? w->accum_offset : 0);
	unsigned rb = in->src[1] - SRC_VGPR + (in->acc_b ? w->accum_offset : 0);
	unsigned rd = in->dst + (in->acc_cd ? w->accum_offset : 0);
	bool cconst = in->src[2] < SRC_VGPR;
	unsigned rc = in->src[2] - SRC_VGPR + (in->acc_cd ? w->accum_offset : 0);
	if (!emu_vreg_ok(e, w, in, ra, 2) || !emu_vreg_ok(e, w, in, rb, 2) || !emu_vreg_ok(e, w, in, rd, 8) ||
	    (!cconst && !emu_vreg_ok(e, w, in, rc, 8)))
		return;
	double cval = 0;
	if (cconst) {
		uint64_t u = emu_scalar_src64(e, w, in, in->src[2], T_F64);
		memcpy(&cval, &u, 8);
	}
	uint32_t out[8][64];
	for (int l = 0; l < 64; l++)
		for (int v = 0; v < 4; v++) {
			int i = 4 * (l / 16) + v, j = l % 16;
			double acc = cconst ? cval : f64_at(w, rc + 2 * (unsigned)v, l);
			for (int k = 0; k < 4; k++)
				acc = fma(f64_at(w, ra, i + 16 * k), f64_at(w, rb, j + 16 * k), acc);
			uint64_t u;
			memcpy(&u, &acc, 8);
			out[2 * v][l] = (uint32_t)u;
			out[2 * v + 1][l] = (uint32_t)(u >> 32);
		}
	for (int reg = 0; reg < 8; reg++)
		memcpy(vreg(w, rd + (unsigned)reg), out[reg], sizeof out[reg]);
}

/* Acc[i][j] = sum over k of A[i][k] * B[k][j] for an M x M result (per
 * 32-wide scale block, times the blocks' scales, when scaled), each sum
 * in k order: what the emulator computes for one MFMA. M is a constant at
 * each call (16 or 32), so a row of sums stays in vector registers across
 * the k loop (this is the emulator's hottest loop in GEMM runs). */
static _Thread_local double A[32][128], Bt[32][128], B[128][32], Acc[32][32], SA[32][4], SB[32][4];

static inline void products(int M, int K, int nblk, bool scaled, double SA_[32][4], double SB_[32][4])
{
	int kw = K / nblk;
	for (int i = 0; i < M; i++) {
		double acc[32] = {0};
		for (int bl = 0; bl < nblk; bl++) {
			double p[32] = {0};
			for (int k = bl * kw; k < bl * kw + kw; k++) {
				double a = A[i][k];
				for (int j = 0; j < M; j++)
					p[j] += a * B[k][j];
			}
			for (int j = 0; j < M; j++)
				acc[j] += scaled ? p[j] * SA_[i][bl] * SB_[j][bl] : p[j];
		}
		for (int j = 0; j < M; j++)
			Acc[i][j] = acc[j];
	}
}

void emu_exec_mfma(Emu *e, Wave *w, const Inst *in)
{
	Shape s;
	const IsaInfo *r = &isa_info[in->id];
	if (in->id == I_V_MFMA_F64_16X16X4_F64) {
		exec_mfma_f64(e, w, in);
		return;
	}
	if (!shape_of((IsaOp)in->id, &s)) {
		emu_fail(e, w, in, "unimplemented instruction %s", emu_inst_name(in));
		return;
	}
	if ((r->flags & IF_GFX950) && e->arch != EMU_GFX950) {
		emu_fail(e, w, in, "%s is a gfx950 instruction (the code object is for another processor)",
			emu_inst_name(in));
		return;
	}
	bool f864 = r->flags & IF_F8F6F4, ocp = e->arch == EMU_GFX950;
	if (f864) {
		if (in->cbsz > 4 || in->blgp > 4 || (!(r->flags & IF_MSCALE) && in->abid)) {
			emu_fail(e, w, in, "%s with cbsz:%u blgp:%u abid:%u: reserved formats or broadcast", emu_inst_name(in),
				in->cbsz, in->blgp, in->abid);
			return;
		}
	} else if (in->cbsz || in->abid || in->blgp) {
		emu_fail(e, w, in, "unimplemented MFMA broadcast controls cbsz/abid/blgp");
		return;
	}
	int M = s.m, G = 64 / M, KL = s.k / G, ncd = r->dst;
	if (in->src[0] < SRC_VGPR || in->src[1] < SRC_VGPR) {
		emu_fail(e, w, in, "MFMA A/B operands must be registers");
		return;
	}
	unsigned ra = in->src[0] - SRC_VGPR + (in->acc_a ? w->accum_offset : 0);
	unsigned rb = in->src[1] - SRC_VGPR + (in->acc_b ? w->accum_offset : 0);
	unsigned rd = in->dst + (in->acc_cd ? w->accum_offset : 0);
	if (!emu_vreg_ok(e, w, in, ra, (unsigned)emu_operand_width(in, 0)) ||
	    !emu_vreg_ok(e, w, in, rb, (unsigned)emu_operand_width(in, 1)) || !emu_vreg_ok(e, w, in, rd, (unsigned)ncd))
		return;
	/* gather A (M x K) and B, stored transposed as Bt[j][k] (N x K) */
	int nb = s.k / 32; /* scale blocks */
	if (f864) {
		gather_f8f6f4(w, ra, in->cbsz, M, s.k, A);
		gather_f8f6f4(w, rb, in->blgp, M, s.k, Bt);
		if ((r->flags & IF_MSCALE) &&
			(!gather_scales(e, w, in, 0, M, nb, SA) || !gather_scales(e, w, in, 1, M, nb, SB)))
			return;
	} else
		for (int l = 0; l < 64; l++) {
			int row = l % M, kb = KL * (l / M);
			for (int el = 0; el < KL; el++) {
				int reg = el / s.per_reg, part = el % s.per_reg;
				A[row][kb + el] = elem(s.a, vreg(w, ra + (unsigned)reg)[l], part, ocp);
				Bt[row][kb + el] = elem(s.b, vreg(w, rb + (unsigned)reg)[l], part, ocp);
			}
		}
	bool scaled = r->flags & IF_MSCALE;
	/* the products, P[i][j] = sum over k of A[i][k] * B[k][j] (per scale
	 * block when scaled), each sum in k order as before; the loops run j
	 * innermost over B's transpose so that they vectorize (the emulator's
	 * hottest loop in GEMM runs) */
	static _Thread_local int64_t Pi[32][32];
	for (int j = 0; j < M; j++)
		for (int k = 0; k < s.k; k++)
			B[k][j] = Bt[j][k];
	if (s.a == E_I8) {
		for (int i = 0; i < M; i++) {
			for (int j = 0; j < M; j++)
				Pi[i][j] = 0;
			for (int k = 0; k < s.k; k++) {
				int64_t a = (int64_t)A[i][k];
				for (int j = 0; j < M; j++)
					Pi[i][j] += a * (int64_t)B[k][j];
			}
		}
	} else if (M == 16) {
		products(16, s.k, scaled ? nb : 1, scaled, SA, SB);
	} else {
		products(32, s.k, scaled ? nb : 1, scaled, SA, SB);
	}
	/* C, then D = A*B + C */
	uint32_t out[16][64];
	bool cconst = in->src[2] < SRC_VGPR;
	unsigned rc = in->src[2] - SRC_VGPR + (in->acc_cd ? w->accum_offset : 0);
	if (!cconst && !emu_vreg_ok(e, w, in, rc, (unsigned)ncd))
		return;
	uint32_t cval = cconst ? emu_scalar_src(e, w, in, in->src[2], s.a == E_I8 ? T_I32 : T_F32) : 0;
	for (int l = 0; l < 64; l++)
		for (int reg = 0; reg < ncd; reg++) {
			int i = 4 * G * (reg / 4) + 4 * (l / M) + reg % 4, j = l % M;
			uint32_t c = cconst ? cval : vreg(w, rc + (unsigned)reg)[l];
			if (s.a == E_I8) {
				out[reg][l] = (uint32_t)((int32_t)c + (int32_t)Pi[i][j]);
			} else {
				float cf, df;
				memcpy(&cf, &c, 4);
				df = (float)(Acc[i][j] + cf);
				memcpy(&out[reg][l], &df, 4);
			}
		}
	for (int reg = 0; reg < ncd; reg++)
		memcpy(vreg(w, rd + (unsigned)reg), out[reg], sizeof out[reg]);
}
