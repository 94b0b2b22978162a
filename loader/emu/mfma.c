/* mfma.c — matrix FMA (v_mfma_*) for the single-block shapes, with the
 * operand lane layouts AMD documents for CDNA3 (the ISA guide's matrix
 * instructions and AMD's Matrix Instruction Calculator):
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
 * gfx950's 16x16x32 and 32x32x16 f16/bf16 forms follow the same rule with
 * KL = 8 (four registers of two elements), as the CDNA4 ISA guide lays them
 * out; they fault on other processors.
 *
 * Element types: f16, bf16, f32, i8, and the gfx942 fp8/bf8 (E4M3/E5M2
 * "FNUZ" encodings, decoded exactly; their NaN/bias details are not
 * confirmed on hardware).
 *
 * Products are accumulated in double and rounded once to f32 (i32 for the
 * i8 forms), then added to C: hardware does not promise a summation order,
 * so tests compare with a tolerance. EXEC is ignored, as on hardware. C may
 * be an inline constant. AGPR operands (acc_cd, acc bits) index the unified
 * file from accum_offset. Blocked shapes (…_2b/_4b/_16b), xf32, f64 and the
 * cbsz/abid/blgp broadcast controls are not implemented and stop with a
 * message. */
#include <math.h>
#include <string.h>

#include "../../util/dtype.h"
#include "emu_int.h"

typedef enum { E_F16, E_BF16, E_F32, E_I8, E_FP8, E_BF8 } Elem;

typedef struct {
	int m, k;      /* M = N, K */
	int per_reg;   /* A/B elements per register */
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

static double elem(Elem t, uint32_t reg, int part)
{
	switch (t) {
	case E_F16: return dtype_f16_to_f32((uint16_t)(reg >> (16 * part)));
	case E_BF16: return dtype_bf16_to_f32((uint16_t)(reg >> (16 * part)));
	case E_I8: return (int8_t)(reg >> (8 * part));
	case E_FP8: return fnuz8((uint8_t)(reg >> (8 * part)), 3, 8);
	case E_BF8: return fnuz8((uint8_t)(reg >> (8 * part)), 2, 16);
	default: {
		float f;
		memcpy(&f, &reg, 4);
		return f;
	}
	}
}

void emu_exec_mfma(Emu *e, Wave *w, const Inst *in)
{
	Shape s;
	if (!shape_of((IsaOp)in->id, &s)) {
		emu_fail(e, w, in, "unimplemented instruction %s", emu_inst_name(in));
		return;
	}
	if ((isa_info[in->id].flags & IF_GFX950) && e->arch != EMU_GFX950) {
		emu_fail(e, w, in, "%s is a gfx950 instruction (the code object is for another processor)",
			emu_inst_name(in));
		return;
	}
	if (e->arch == EMU_GFX950 && (s.a == E_FP8 || s.a == E_BF8 || s.b == E_FP8 || s.b == E_BF8)) {
		emu_fail(e, w, in, "%s on gfx950 reads the OCP fp8 formats, which are not emulated yet",
			emu_inst_name(in));
		return;
	}
	if (in->cbsz || in->abid || in->blgp) {
		emu_fail(e, w, in, "unimplemented MFMA broadcast controls cbsz/abid/blgp");
		return;
	}
	const IsaInfo *r = &isa_info[in->id];
	int M = s.m, G = 64 / M, KL = s.k / G, nab = r->src[0], ncd = r->dst;
	if (in->src[0] < SRC_VGPR || in->src[1] < SRC_VGPR) {
		emu_fail(e, w, in, "MFMA A/B operands must be registers");
		return;
	}
	unsigned ra = in->src[0] - SRC_VGPR + (in->acc_a ? w->accum_offset : 0);
	unsigned rb = in->src[1] - SRC_VGPR + (in->acc_b ? w->accum_offset : 0);
	unsigned rd = in->dst + (in->acc_cd ? w->accum_offset : 0);
	if (!emu_vreg_ok(e, w, in, ra, (unsigned)nab) || !emu_vreg_ok(e, w, in, rb, (unsigned)nab) ||
	    !emu_vreg_ok(e, w, in, rd, (unsigned)ncd))
		return;
	/* gather A (M x K) and B (K x N) */
	double A[32][32], B[32][32];
	for (int l = 0; l < 64; l++) {
		int row = l % M, kb = KL * (l / M);
		for (int el = 0; el < KL; el++) {
			int reg = el / s.per_reg, part = el % s.per_reg;
			A[row][kb + el] = elem(s.a, vreg(w, ra + (unsigned)reg)[l], part);
			B[kb + el][row] = elem(s.b, vreg(w, rb + (unsigned)reg)[l], part);
		}
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
				int64_t acc = 0;
				for (int k = 0; k < s.k; k++)
					acc += (int64_t)A[i][k] * (int64_t)B[k][j];
				out[reg][l] = (uint32_t)((int32_t)c + (int32_t)acc);
			} else {
				double acc = 0;
				for (int k = 0; k < s.k; k++)
					acc += A[i][k] * B[k][j];
				float cf, df;
				memcpy(&cf, &c, 4);
				df = (float)(acc + cf);
				memcpy(&out[reg][l], &df, 4);
			}
		}
	for (int reg = 0; reg < ncd; reg++)
		memcpy(vreg(w, rd + (unsigned)reg), out[reg], sizeof out[reg]);
}
