/* valu.c — vector ALU: VOP1, VOP2, VOPC, VOP3 and (non-MFMA) VOP3P.
 *
 * Each instruction is executed a whole row at a time: the sources are first
 * gathered into 64-lane arrays (VGPR rows, broadcast scalars and constants,
 * DPP lane permutations, SDWA byte/word selects, then the abs/neg input
 * modifiers), the operation runs over all 64 lanes (cheap and branch-free;
 * no operation here can trap on garbage inputs), and the result is written
 * only to the lanes enabled by EXEC (and, for DPP, by row/bank masks and
 * valid source lanes). Output modifiers (omod, clamp) apply to float
 * results. 16-bit results zero the high half, as on gfx9, unless VOP3
 * op_sel[3] or SDWA dst_sel places them elsewhere.
 *
 * Float arithmetic uses the host's IEEE round-to-nearest-even; f16 goes
 * through util/dtype.h's RNE conversions. Transcendentals use libm
 * (exp2f, log2f, 1/x, 1/sqrtf, sqrtf), which are at least as accurate as the
 * hardware's ~1 ulp approximations. The division helpers (v_div_scale,
 * v_div_fmas, v_div_fixup) follow the ISA's description: div_scale scales
 * both operands by 2^±64 (f64: 2^±128) when the divisor is a denormal, its
 * reciprocal would be one, or the numerator is tiny, and only one of them
 * (setting VCC) when the quotient would overflow or be a denormal;
 * div_fmas then undoes that scale, upward when its addend (the quotient
 * estimate) is >= 2, downward otherwise. The gfx942 fp8/bf8 conversions
 * follow the CDNA3 ISA guide's FNUZ formats and FP16_OVFL = 0 overflow rule
 * (see fnuz8_to_f32 / f32_to_fnuz8).
 *
 * emu_exec_valu dispatches on the row: VOPC compares (exec_vopc); the rows
 * that do not fit the row model, lane reads and writes, swaps, AGPR moves
 * and the fp8/bf8 conversions (exec_lane_op); VOP3P packed math, dword
 * pairs (exec_pk_f32) or halves, mixes and dots (exec_pk16); rows with a
 * 64-bit operand (exec_valu64); and the 32/16-bit rows (exec_valu32), which
 * gather the sources, run one family per row type (valu_f32, valu_f16,
 * valu_i16, valu_b32, valu_i32: the type that reads the sources groups the
 * conversions with the arithmetic of their source type) and apply the
 * output modifiers, the carry out and the write in one place. */
#include <math.h>
#include <string.h>

#include "../../util/dtype.h"
#include "emu_int.h"

static inline float F(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t U(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double D(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static inline uint64_t UD(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
/* v_exp_f32 / v_log_f32 do not handle denormals (whatever the denorm mode
 * says): a denormal input counts as zero (log2 gives -inf) and a result that
 * would be denormal is +0. That is why LLVM's exp2 lowering adds 64 to inputs
 * below -126 and scales the result by 2^-64, and its log2 lowering scales
 * inputs below 2^-126 by 2^32 and subtracts 32. The f16 forms are kept exact:
 * LLVM emits bare v_exp_f16 / v_log_f16 for f16 exp2/log2, denormals
 * included. */
static float exp2_nodenorm(float x)
{
	if (fpclassify(x) == FP_SUBNORMAL)
		x = 0;
	float r = exp2f(x);
	return fpclassify(r) == FP_SUBNORMAL ? 0.0f : r;
}
static float log2_nodenorm(float x) { return log2f(fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x); }
static inline float H(uint32_t u) { return dtype_f16_to_f32((uint16_t)u); }
static inline uint32_t UH(float f) { return dtype_f32_to_f16(f); }

static bool is_f16ish(IsaType t) { return t == T_F16 || t == T_I16 || t == T_U16 || t == T_B16 || t == T_BF16; }

/* DPP: source lane for lane l, or -1 when out of range. */
static int dpp_src_lane(unsigned c, int l)
{
	int r = l & 15;
	if (c <= 0xff)
		return (l & ~3) | ((c >> (2 * (l & 3))) & 3);
	if (c >= 0x101 && c <= 0x10f)
		return r + (int)(c & 15) > 15 ? -1 : l + (int)(c & 15);
	if (c >= 0x111 && c <= 0x11f)
		return r < (int)(c & 15) ? -1 : l - (int)(c & 15);
	if (c >= 0x121 && c <= 0x12f)
		return (l & ~15) | ((r - (int)(c & 15)) & 15);
	if (c >= 0x150 && c <= 0x15f) /* row_newbcast:n (gfx90a, gfx942): lane n of each row to the row */
		return (l & ~15) | (int)(c & 15);
	switch (c) {
	case 0x130: return l == 63 ? -1 : l + 1;
	case 0x134: return (l + 1) & 63;
	case 0x138: return l == 0 ? -1 : l - 1;
	case 0x13c: return (l - 1) & 63;
	case 0x140: return (l & ~15) | (15 - r);
	case 0x141: return (l & ~7) | (7 - (l & 7));
	case 0x142: return l < 16 ? -1 : (l & ~15) - 1;
	case 0x143: return l < 32 ? -1 : 31;
	default: return -2;
	}
}

static uint32_t sdwa_sel(uint32_t v, unsigned sel, bool sx)
{
	switch (sel) {
	case 0: case 1: case 2: case 3: {
		uint32_t b = (v >> (8 * sel)) & 0xff;
		return sx ? (uint32_t)(int32_t)(int8_t)b : b;
	}
	case 4: case 5: {
		uint32_t h = (v >> (16 * (sel - 4))) & 0xffff;
		return sx ? (uint32_t)(int32_t)(int16_t)h : h;
	}
	default: return v;
	}
}

typedef struct {
	uint64_t wmask;     /* lanes written */
	uint64_t dpp_zero;  /* DPP lanes whose source is invalid and bound_ctrl zeroes */
} Ctx;

/* Gather 32-bit source i. `t` is the operand type (for constants and abs/neg). */
static void src32(Emu *e, Wave *w, const Inst *in, int i, IsaType t, uint32_t *out, Ctx *cx, bool agpr)
{
	unsigned c = in->src[i];
	if (c >= SRC_VGPR) {
		unsigned r = c - SRC_VGPR + (agpr ? w->accum_offset : 0);
		if (!emu_vreg_ok(e, w, in, r, 1)) {
			memset(out, 0, 64 * 4);
			return;
		}
		const uint32_t *row = vreg(w, r);
		if (i == 0 && in->dpp) {
			for (int l = 0; l < 64; l++) {
				int s = dpp_src_lane(in->dpp_ctrl, l);
				if (s == -2) {
					emu_fail(e, w, in, "unsupported DPP control 0x%x", in->dpp_ctrl);
					return;
				}
				if (s < 0 || !((w->exec >> s) & 1)) {
					out[l] = 0;
					if (in->bound_ctrl)
						cx->dpp_zero |= 1ull << l;
					else
						cx->wmask &= ~(1ull << l);
				} else
					out[l] = row[s];
			}
			for (int rw = 0; rw < 4; rw++)
				if (!((in->row_mask >> rw) & 1))
					cx->wmask &= ~(0xffffull << (16 * rw));
			for (int l = 0; l < 64; l++)
				if (!((in->bank_mask >> ((l >> 2) & 3)) & 1))
					cx->wmask &= ~(1ull << l);
		} else
			memcpy(out, row, 64 * 4);
	} else {
		uint32_t v = emu_scalar_src(e, w, in, c, t);
		for (int l = 0; l < 64; l++)
			out[l] = v;
	}
	if (in->sdwa && i < 2) {
		bool flt = t == T_F16 || t == T_F32;
		for (int l = 0; l < 64; l++)
			out[l] = sdwa_sel(out[l], in->sdwa_sel[i], in->sdwa_sext[i] && !flt);
	}
	bool ab = (in->abs >> i) & 1, ng = (in->neg >> i) & 1;
	if (t == T_B32 && (ab || ng)) /* untyped moves/selects (v_cndmask): modifiers act on f32 */
		t = T_F32;
	if ((ab || ng) && (t == T_F32 || t == T_F16 || t == T_BF16)) {
		uint32_t sign = t == T_F32 ? 0x80000000u : 0x8000u;
		for (int l = 0; l < 64; l++) {
			uint32_t v = out[l];
			if (ab)
				v &= ~sign;
			if (ng)
				v ^= sign;
			out[l] = v;
		}
	} else if (ng && (t == T_I32 || t == T_U32) && in->fmt == FMT_VOP3P) {
		/* integer neg in VOP3P is not a modifier */
	}
}

static void src64(Emu *e, Wave *w, const Inst *in, int i, IsaType t, uint64_t *out)
{
	unsigned c = in->src[i];
	if (c >= SRC_VGPR) {
		unsigned r = c - SRC_VGPR;
		if (!emu_vreg_ok(e, w, in, r, 2)) {
			memset(out, 0, 64 * 8);
			return;
		}
		const uint32_t *lo = vreg(w, r), *hi = vreg(w, r + 1);
		for (int l = 0; l < 64; l++)
			out[l] = lo[l] | (uint64_t)hi[l] << 32;
	} else {
		uint64_t v = emu_scalar_src64(e, w, in, c, t);
		for (int l = 0; l < 64; l++)
			out[l] = v;
	}
	if (t == T_F64) {
		bool ab = (in->abs >> i) & 1, ng = (in->neg >> i) & 1;
		for (int l = 0; l < 64 && (ab || ng); l++) {
			if (ab)
				out[l] &= ~(1ull << 63);
			if (ng)
				out[l] ^= 1ull << 63;
		}
	}
}

static float omod_clamp_f(const Inst *in, float f)
{
	if (in->omod == 1)
		f *= 2.0f;
	else if (in->omod == 2)
		f *= 4.0f;
	else if (in->omod == 3)
		f *= 0.5f;
	if (in->clamp)
		f = isnan(f) ? 0.0f : f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
	return f;
}

/* Write a 32-bit result row through the write mask, with SDWA/op_sel placement. */
static void write32(Emu *e, Wave *w, const Inst *in, unsigned reg, const uint32_t *d, uint64_t m, bool r16)
{
	if (!emu_vreg_ok(e, w, in, reg, 1))
		return;
	uint32_t *row = vreg(w, reg);
	if (in->sdwa && in->sdwa_dst_sel != 6) {
		unsigned sel = in->sdwa_dst_sel;
		unsigned sh = sel < 4 ? 8 * sel : 16 * (sel - 4);
		uint32_t mask = (sel < 4 ? 0xffu : 0xffffu) << sh;
		for (int l = 0; l < 64; l++) {
			if (!((m >> l) & 1))
				continue;
			uint32_t v = (d[l] << sh) & mask;
			if (in->sdwa_dst_unused == 2)
				v |= row[l] & ~mask;
			else if (in->sdwa_dst_unused == 1 && (v >> (sh + (sel < 4 ? 7 : 15)) & 1))
				v |= ~mask & ~((1u << sh) - 1);
			row[l] = v;
		}
		return;
	}
	if (r16 && (in->opsel & 8) && (in->vop3 || in->fmt == FMT_VOP3)) {
		for (int l = 0; l < 64; l++)
			if ((m >> l) & 1)
				row[l] = (row[l] & 0xffff) | d[l] << 16;
		return;
	}
	if (r16) {
		for (int l = 0; l < 64; l++)
			if ((m >> l) & 1)
				row[l] = d[l] & 0xffff;
		return;
	}
	if (m == ~0ull) {
		memcpy(row, d, 64 * 4);
		return;
	}
	for (int l = 0; l < 64; l++)
		if ((m >> l) & 1)
			row[l] = d[l];
}

static void write64(Emu *e, Wave *w, const Inst *in, unsigned reg, const uint64_t *d, uint64_t m)
{
	if (!emu_vreg_ok(e, w, in, reg, 2))
		return;
	uint32_t *lo = vreg(w, reg), *hi = vreg(w, reg + 1);
	for (int l = 0; l < 64; l++)
		if ((m >> l) & 1)
			lo[l] = (uint32_t)d[l], hi[l] = (uint32_t)(d[l] >> 32);
}

/* Biased exponent field of x in a format with exponent bias `bias`
 * (0 for zeros and denormals, all ones for inf and NaN). */
static int exp_field(double x, int bias)
{
	if (!isfinite(x))
		return 2 * bias + 1;
	if (x == 0 || fabs(x) < ldexp(1.0, 1 - bias))
		return 0;
	return ilogb(x) + bias;
}

/* v_div_scale: s1 is the divisor, s2 the numerator, s0 one of the two (the
 * one to return, maybe scaled). Parameters per format: bias, scale exponent
 * sc (64 / 128), the exponent gap that means overflow (96 / 768) and the
 * exponent below which a numerator is "tiny" (23 / 53). */
static double div_scale(double s0, double s1, double s2, int bias, int sc, int gap, int tiny, bool *vcc)
{
	*vcc = false;
	if (isnan(s1) || isnan(s2) || isinf(s1) || isinf(s2))
		return s0; /* div_fixup gives the special result */
	if (s1 == 0 || s2 == 0)
		return NAN;
	int e1 = exp_field(s1, bias), e2 = exp_field(s2, bias);
	bool rcp_denorm = fabs(s1) > ldexp(1.0, bias - 1);
	bool quot_denorm = ldexp(fabs(s2), bias - 1) < fabs(s1); /* exact: scaling up never rounds */
	if (e2 - e1 >= gap) { /* quotient near overflow: scale the divisor only */
		*vcc = true;
		return s0 == s1 ? ldexp(s0, sc) : s0;
	}
	if (e1 == 0) /* denormal divisor: scale both */
		return ldexp(s0, sc);
	if (rcp_denorm && quot_denorm) {
		*vcc = true;
		return s0 == s1 ? ldexp(s0, -sc) : s0;
	}
	if (rcp_denorm)
		return ldexp(s0, -sc);
	if (quot_denorm) { /* denormal quotient: scale the numerator only */
		*vcc = true;
		return s0 == s2 ? ldexp(s0, sc) : s0;
	}
	if (e2 <= tiny) /* tiny numerator: scale both */
		return ldexp(s0, sc);
	return s0;
}

/* v_div_fixup's special cases; q is the quotient computed so far. */
static double div_fixup(double q, double den, double num)
{
	double sgn = (signbit(den) != signbit(num)) ? -1.0 : 1.0;
	if (isnan(num))
		return num;
	if (isnan(den))
		return den;
	if ((den == 0 && num == 0) || (isinf(den) && isinf(num)))
		return NAN;
	if (den == 0 || isinf(num))
		return sgn * INFINITY;
	if (isinf(den) || num == 0)
		return sgn * 0.0;
	return isnan(q) ? sgn * INFINITY : sgn * fabs(q);
}

/* Integer results: wrap, or saturate when the clamp bit is set. */
static uint32_t sat_i32(const Inst *in, int64_t v)
{
	if (in->clamp)
		v = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
	return (uint32_t)v;
}

static uint32_t sat_u32(const Inst *in, uint64_t v)
{
	return in->clamp && v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* Unsigned 32-bit results given as an exact signed value (differences). */
static uint32_t sat_u32s(const Inst *in, int64_t v)
{
	if (in->clamp)
		v = v < 0 ? 0 : v > (int64_t)UINT32_MAX ? (int64_t)UINT32_MAX : v;
	return (uint32_t)v;
}

/* 16-bit lanes: the exact value wraps to 16 bits, or saturates to the
 * lane type's range under clamp. */
static uint32_t sat_u16(const Inst *in, int64_t v)
{
	if (in->clamp)
		v = v < 0 ? 0 : v > 0xffff ? 0xffff : v;
	return (uint32_t)v & 0xffff;
}

static uint32_t sat_i16(const Inst *in, int64_t v)
{
	if (in->clamp)
		v = v < -32768 ? -32768 : v > 32767 ? 32767 : v;
	return (uint32_t)v & 0xffff;
}

/* VOP3P: inline constants and literals are the same value in both halves;
 * register operands (SGPRs as well as VGPRs) supply their own high half. */
static bool src_is_constant(unsigned c)
{
	return (c >= SRC_ZERO && c <= 208) || (c >= 240 && c <= 248) || c == SRC_LITERAL;
}

static uint32_t clamp_h(const Inst *in, uint32_t h)
{
	return in->clamp ? UH(omod_clamp_f(in, H(h))) : h;
}

static uint32_t f32_class(float f)
{
	uint32_t u = U(f);
	bool neg = u >> 31;
	if (isnan(f))
		return (u & 0x400000) ? 1u << 1 : 1u << 0;
	if (isinf(f))
		return neg ? 1u << 2 : 1u << 9;
	if (f == 0)
		return neg ? 1u << 5 : 1u << 6;
	if (fpclassify(f) == FP_SUBNORMAL)
		return neg ? 1u << 4 : 1u << 7;
	return neg ? 1u << 3 : 1u << 8;
}

static uint32_t f64_class(double f)
{
	uint64_t u = UD(f);
	bool neg = u >> 63;
	if (isnan(f))
		return (u & (1ull << 51)) ? 1u << 1 : 1u << 0;
	if (isinf(f))
		return neg ? 1u << 2 : 1u << 9;
	if (f == 0)
		return neg ? 1u << 5 : 1u << 6;
	if (fpclassify(f) == FP_SUBNORMAL)
		return neg ? 1u << 4 : 1u << 7;
	return neg ? 1u << 3 : 1u << 8;
}

/* f32 -> f16 with round toward zero (v_cvt_pkrtz). */
static uint32_t f16_rtz(float f)
{
	uint16_t h = dtype_f32_to_f16(f);
	if (isnan(f) || isinf(f))
		return h;
	float back = dtype_f16_to_f32(h);
	if (fabsf(back) > fabsf(f)) /* rounded away from zero: step one ulp toward zero */
		h = (uint16_t)(h - 1);
	if ((h & 0x7fff) == 0x7c00 && !isinf(f)) /* overflow truncates to max finite */
		h = (uint16_t)((h & 0x8000) | 0x7bff);
	return h;
}

/* gfx942's 8-bit floats and their conversions (v_cvt_f32_fp8/bf8,
 * v_cvt_pk_f32_fp8/bf8, v_cvt_pk_fp8/bf8_f32). The formats are the "FNUZ"
 * ones: fp8 = E4M3 with bias 8 (largest 240), bf8 = E5M2 with bias 16
 * (largest 57344); every exponent field is finite, there is no negative
 * zero and 0x80 is the only NaN (CDNA3 ISA guide, section 7.2, table 30).
 *
 * f32 -> 8 bits rounds to nearest even. What happens past the range is set
 * by the ISA guide's "FP16_OVFL rule" (section 7.2): with MODE.FP16_OVFL = 0
 * NaN, +-inf and finite values beyond the largest give NaN for fp8 and +-Inf
 * for bf8 -- and bf8's Inf encoding is 0x80 as well (table 30), so both
 * formats give 0x80; with FP16_OVFL = 1 inf and overflow saturate to +-max
 * and NaN stays NaN. Triton's AMD backend relies on the same bit
 * (adjustModeRegister sets MODE bit 23 to make f32 -> fp8/bf8 saturating),
 * and MLIR's ArithToAMDGPU clamps before the instruction
 * (saturateFP8Truncf: "so that subsequent conversion instructions don't
 * overflow those out-of-range values to NaN"). The emulator does not model
 * MODE (s_setreg is a no-op, the descriptor's FP16_OVFL bit is not read), so
 * it always follows the FP16_OVFL = 0 column; clang-19 and wavecc emit
 * .amdhsa_fp16_overflow 0.
 *
 * The VOP3 clamp bit is not a saturation control here: table 31 lists the
 * packed conversions as "ignores: clamp, omod; supports: neg, abs", and
 * llvm-mc (19 and 22) rejects clamp on them for gfx942 and will not
 * disassemble the encoding with the bit set. So clamp and omod are ignored.
 * The brief's "saturate under clamp" (LLVM's APFloat analogue) has no
 * source for gfx942; APFloat does agree on the rest: round first, then a
 * result above the largest value overflows (248 is the E4M3 tie between 240
 * and 256 and goes to 256, i.e. NaN; 247 gives 240); a result that rounds
 * to zero is +0 (0x00) whatever the sign, since 0x80 would be NaN (table 30
 * lists +-0 as 0x00). HIP's host-side reference (cast_to_f8 with
 * negative_zero_nan and no clip) returns sign|0x78 (E4M3) or sign|0x7c
 * (E5M2) on overflow -- finite values, 128 and 32768; it disagrees with the
 * ISA guide and is not followed.
 *
 * The decodes ignore abs, neg and SDWA sext (table 31); 8-bit values are
 * exact in f32. The NaN produced is the default quiet NaN. */
static float fnuz8_to_f32(uint32_t code, int mbits, int bias)
{
	code &= 0xff;
	if (code == 0x80)
		return F(0x7fc00000u);
	int e = (int)(code & 0x7f) >> mbits, m = (int)code & ((1 << mbits) - 1);
	float mag = e ? ldexpf((float)((1 << mbits) + m), e - bias - mbits) : ldexpf((float)m, 1 - bias - mbits);
	return (code & 0x80) ? -mag : mag;
}

/* f32 bits -> FNUZ code, RNE, FP16_OVFL = 0 (see above). Integer only: the
 * significand is rounded to a multiple of the target quantum 2^qe, where qe
 * is the binade's (or, below the normals, the subnormals') ulp. The rounded
 * multiple q then is the code itself for subnormals and, for normals, the
 * code minus the exponent field's offset -- a carry out of the mantissa
 * moves into the exponent field by itself. */
static uint32_t f32_to_fnuz8(uint32_t u, int mbits, int bias)
{
	uint32_t sign = (u >> 24) & 0x80, mag = u & 0x7fffffffu;
	if (mag >= 0x7f800000u) /* NaN and +-inf */
		return 0x80;
	int be = (int)(mag >> 23);
	uint64_t sig = mag & 0x7fffffu;
	if (be)
		sig |= 0x800000u;
	else
		be = 1; /* f32 denormal */
	int ex = be - 127;                                  /* value = sig * 2^(ex - 23) */
	int qe = (ex > 1 - bias ? ex : 1 - bias) - mbits;   /* quantum exponent */
	int sh = qe - (ex - 23);                            /* >= 23 - mbits > 0 */
	if (sh > 40)
		return 0; /* below half the smallest subnormal */
	uint64_t q = sig >> sh, rem = sig & ((1ull << sh) - 1), half = 1ull << (sh - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	if (q == 0)
		return 0; /* no negative zero */
	int64_t code = ex > 1 - bias ? (int64_t)(ex + bias - 1) * (1 << mbits) + (int64_t)q : (int64_t)q;
	return code > 0x7f ? 0x80 : sign | (uint32_t)code;
}

static uint32_t cvt_pk_fnuz8(float x, float y, int mbits, int bias)
{
	return f32_to_fnuz8(U(x), mbits, bias) | f32_to_fnuz8(U(y), mbits, bias) << 8;
}

/* gfx950's 8-bit floats are the OCP ones, e4m3fn (fp8) and e5m2 (bf8), and
 * its scaled conversions add the MX element formats e2m1 (fp4); all keep a
 * sign bit with zero (OCP 8-bit floating point specification, OCP
 * Microscaling Formats v1.0). Decoding is exact: e5m2 has IEEE infinities
 * and NaNs in its top exponent, e4m3fn no infinity and only S.1111.111 as
 * NaN, e2m1 neither. Encoding rounds to nearest even; what happens past the
 * range follows gfx942's FP16_OVFL = 0 column (above) for the 8-bit
 * formats -- a value that rounds above the largest (448, 57344), an
 * infinity or a NaN gives NaN (S.1111.111) for fp8, +-inf (or NaN for NaN)
 * for bf8 -- and the MX specification's clamp for e2m1, which has no
 * infinity or NaN: beyond +-6 gives +-6, and so does a NaN (the format has
 * nothing else to give; gem5's model of these instructions does the same). */
typedef struct { int eb, mb; } OcpFmt;
static const OcpFmt OCP_FP8 = {4, 3}, OCP_BF8 = {5, 2}, OCP_FP4 = {2, 1};

static double ocp_to_f64(uint32_t v, OcpFmt f)
{
	int bias = (1 << (f.eb - 1)) - 1, emax = (1 << f.eb) - 1;
	int e = (int)(v >> f.mb) & emax, m = (int)v & ((1 << f.mb) - 1);
	double mag;
	if (f.eb == 5 && e == emax)
		mag = m ? NAN : INFINITY;
	else if (f.eb == 4 && f.mb == 3 && e == emax && m == (1 << f.mb) - 1)
		mag = NAN;
	else
		mag = e ? ldexp((1 << f.mb) + m, e - bias - f.mb) : ldexp(m, 1 - bias - f.mb);
	return (v >> (f.eb + f.mb)) & 1 ? -mag : mag;
}

static uint32_t f64_to_ocp(double x, OcpFmt f)
{
	uint32_t sign = signbit(x) ? 1u << (f.eb + f.mb) : 0, nan = sign | ((1u << (f.eb + f.mb)) - 1);
	int bias = (1 << (f.eb - 1)) - 1;
	/* the largest finite code: e4m3fn's S.1111.110, e5m2's S.11110.11,
	 * e2m1's S.11.1 */
	uint32_t maxc = f.eb == 4 ? 0x7e : f.eb == 5 ? 0x7b : (1u << (f.eb + f.mb)) - 1;
	bool mx = f.eb == 2; /* e2m1: clamp */
	if (isnan(x))
		return mx ? sign | maxc : f.eb == 5 ? sign | 0x7f : nan;
	double mag = fabs(x);
	if (mag == 0)
		return sign;
	uint32_t code;
	if (isinf(mag))
		code = maxc + 1;
	else {
		int ex;
		frexp(mag, &ex);
		int qe = (ex - 1 > 1 - bias ? ex - 1 : 1 - bias) - f.mb; /* the quantum's exponent */
		double q = nearbyint(ldexp(mag, -qe));                     /* round to nearest even */
		code = ex - 1 > 1 - bias ? (uint32_t)((ex - 1 + bias) << f.mb) + (uint32_t)q - (1u << f.mb) : (uint32_t)q;
	}
	if (code <= maxc)
		return sign | code;
	return mx ? sign | maxc : f.eb == 5 ? sign | 0x7c : nan;
}

/* The scale of a scaled conversion: 2^(exponent field - 127) of the f32
 * operand (its mantissa is not read), NaN for an all-ones field (gem5's
 * model of these instructions reads the scale the same way). */
static double scalef32(uint32_t u)
{
	unsigned ef = (u >> 23) & 0xff;
	return ef == 0xff ? NAN : ldexp(1.0, (int)ef - 127);
}

static int32_t cvt_i32(double f)
{
	if (isnan(f))
		return 0;
	if (f >= 2147483647.0)
		return INT32_MAX;
	if (f <= -2147483648.0)
		return INT32_MIN;
	return (int32_t)f;
}

static uint32_t cvt_u32(double f)
{
	if (isnan(f) || f <= 0)
		return 0;
	if (f >= 4294967295.0)
		return UINT32_MAX;
	return (uint32_t)f;
}

static int cmp_f(unsigned op, double a, double b)
{
	bool un = isnan(a) || isnan(b);
	switch (op) {
	case 0: return 0;
	case 1: return a < b;
	case 2: return a == b;
	case 3: return a <= b;
	case 4: return a > b;
	case 5: return !un && a != b;
	case 6: return a >= b;
	case 7: return !un;
	case 8: return un;
	case 9: return !(a >= b);
	case 10: return un || a == b;
	case 11: return !(a > b);
	case 12: return !(a <= b);
	case 13: return !(a == b);
	case 14: return !(a < b);
	default: return 1;
	}
}

static int cmp_i(unsigned op, int64_t a, int64_t b)
{
	switch (op) {
	case 0: return 0;
	case 1: return a < b;
	case 2: return a == b;
	case 3: return a <= b;
	case 4: return a > b;
	case 5: return a != b;
	case 6: return a >= b;
	default: return 1;
	}
}

static int cmp_u(unsigned op, uint64_t a, uint64_t b)
{
	switch (op) {
	case 0: return 0;
	case 1: return a < b;
	case 2: return a == b;
	case 3: return a <= b;
	case 4: return a > b;
	case 5: return a != b;
	case 6: return a >= b;
	default: return 1;
	}
}

static void exec_vopc(Emu *e, Wave *w, const Inst *in, Ctx *cx)
{
	const IsaInfo *r = &isa_info[in->id];
	IsaType t = (IsaType)r->type;
	uint64_t res = 0, act = w->exec;
	unsigned op = (unsigned)(r->op942 >= 0 ? r->op942 : r->op90a) & 0xf;
	bool cmpx = (r->flags & IF_CMPX) != 0;
	if (in->id == I_V_CMP_CLASS_F32 || in->id == I_V_CMPX_CLASS_F32 || in->id == I_V_CMP_CLASS_F16) {
		uint32_t a[64], b[64];
		src32(e, w, in, 0, t, a, cx, false);
		src32(e, w, in, 1, T_U32, b, cx, false);
		for (int l = 0; l < 64; l++) {
			float f = t == T_F16 ? H(a[l]) : F(a[l]);
			if (f32_class(f) & b[l])
				res |= 1ull << l;
		}
	} else if (in->id == I_V_CMP_CLASS_F64) {
		uint64_t a[64];
		uint32_t b[64];
		src64(e, w, in, 0, t, a);
		src32(e, w, in, 1, T_U32, b, cx, false);
		for (int l = 0; l < 64; l++)
			if (f64_class(D(a[l])) & b[l])
				res |= 1ull << l;
	} else if (t == T_F64 || t == T_I64 || t == T_U64) {
		uint64_t a[64], b[64];
		src64(e, w, in, 0, t, a);
		src64(e, w, in, 1, t, b);
		unsigned o = t == T_F64 ? op : op & 7;
		for (int l = 0; l < 64; l++) {
			int c = t == T_F64 ? cmp_f(o, D(a[l]), D(b[l])) : t == T_I64 ? cmp_i(o, (int64_t)a[l], (int64_t)b[l])
										      : cmp_u(o, a[l], b[l]);
			res |= (uint64_t)c << l;
		}
	} else {
		uint32_t a[64], b[64];
		src32(e, w, in, 0, t, a, cx, false);
		src32(e, w, in, 1, t, b, cx, false);
		bool sixteen = t == T_F16 || t == T_I16 || t == T_U16;
		unsigned o = (t == T_F32 || t == T_F16) ? op : op & 7;
		for (int l = 0; l < 64; l++) {
			uint32_t x = a[l], y = b[l];
			if (sixteen && in->vop3) {
				if (in->opsel & 1) x >>= 16;
				if (in->opsel & 2) y >>= 16;
			}
			int c;
			switch (t) {
			case T_F32: c = cmp_f(o, F(x), F(y)); break;
			case T_F16: c = cmp_f(o, H(x), H(y)); break;
			case T_I16: c = cmp_i(o, (int16_t)x, (int16_t)y); break;
			case T_U16: c = cmp_u(o, x & 0xffff, y & 0xffff); break;
			case T_I32: c = cmp_i(o, (int32_t)x, (int32_t)y); break;
			default: c = cmp_u(o, x, y); break;
			}
			res |= (uint64_t)c << l;
		}
	}
	res &= act & cx->wmask;
	emu_sreg_write64(e, w, in->sdst, res);
	if (cmpx)
		w->exec = res;
}

/* v_cvt_f32_fp8/bf8 and v_cvt_pk_f32_fp8/bf8. The byte (word) comes from
 * SDWA src0_sel; abs, neg, sext and the SDWA destination fields are ignored
 * (ISA guide table 31: "ignores: abs, neg, sext"; "the other SDWA fields are
 * ignored"). The VOP3 forms' op_sel byte/word select has nothing pinning its
 * bits down for gfx942 (llvm-mc-19 rejects op_sel on these), so it is
 * reported rather than guessed. */
static void exec_cvt_from_fnuz8(Emu *e, Wave *w, const Inst *in, Ctx *cx)
{
	if (in->opsel) {
		emu_fail(e, w, in, "op_sel on %s is not modelled", emu_inst_name(in));
		return;
	}
	bool bf8 = in->id == I_V_CVT_F32_BF8 || in->id == I_V_CVT_PK_F32_BF8;
	bool pk = in->id == I_V_CVT_PK_F32_FP8 || in->id == I_V_CVT_PK_F32_BF8;
	int mbits = bf8 ? 2 : 3, bias = bf8 ? 16 : 8;
	bool ocp = e->arch == EMU_GFX950; /* gfx950: the OCP encodings */
	OcpFmt of = bf8 ? OCP_BF8 : OCP_FP8;
#define FROM8(v) (ocp ? (float)ocp_to_f64((v) & 0xff, of) : fnuz8_to_f32((v), mbits, bias))
	Inst plain = *in;
	plain.abs = plain.neg = 0;
	plain.sdwa_sext[0] = false;
	plain.sdwa_dst_sel = 6; /* DWORD: the whole result is written */
	uint32_t a[64];
	src32(e, w, &plain, 0, T_U32, a, cx, false);
	if (e->failed)
		return;
	uint64_t m = w->exec & cx->wmask;
	if (pk) {
		uint64_t d[64];
		for (int l = 0; l < 64; l++)
			d[l] = U(FROM8(a[l])) | (uint64_t)U(FROM8(a[l] >> 8)) << 32;
		write64(e, w, in, in->dst, d, m);
	} else {
		uint32_t d[64];
		for (int l = 0; l < 64; l++)
			d[l] = U(FROM8(a[l]));
		write32(e, w, &plain, in->dst, d, m, false);
	}
#undef FROM8
}

/* gfx950's scaled conversions (ir/isa/insts.h ISA_INSTS_VOP3_MX): source 0
 * holds the narrow values (widening) or the first f32 (narrowing: sources 0
 * and 1, the scale source 2), the scale is source 1 (widening); op_sel
 * picks the source byte (fp4, the single fp8) or word (the fp8 pair) and
 * the destination byte (fp4) or word (fp8) a narrowing writes, keeping the
 * rest of it. Widening multiplies by the scale, exactly, then rounds to
 * f32; narrowing divides, then rounds to the format (f64_to_ocp). The
 * first element is the low one. abs, neg, clamp and omod are not
 * modelled (llvm-mc-22 takes none of them here) and stop the run. */
static void exec_cvt_scalef32(Emu *e, Wave *w, const Inst *in, Ctx *cx)
{
	if (in->abs || in->neg || in->clamp || in->omod) {
		emu_fail(e, w, in, "abs/neg/clamp/omod on %s are not modelled", emu_inst_name(in));
		return;
	}
	IsaOp id = (IsaOp)in->id;
	bool narrow = id == I_V_CVT_SCALEF32_PK_FP8_F32 || id == I_V_CVT_SCALEF32_PK_BF8_F32 ||
		      id == I_V_CVT_SCALEF32_PK_FP4_F32;
	bool fp4 = id == I_V_CVT_SCALEF32_PK_FP4_F32 || id == I_V_CVT_SCALEF32_PK_F32_FP4;
	bool bf8 = id == I_V_CVT_SCALEF32_PK_BF8_F32 || id == I_V_CVT_SCALEF32_PK_F32_BF8 || id == I_V_CVT_SCALEF32_F32_BF8;
	OcpFmt f = fp4 ? OCP_FP4 : bf8 ? OCP_BF8 : OCP_FP8;
	int bits = fp4 ? 4 : 8;
	uint32_t a[64], b[64], c[64];
	src32(e, w, in, 0, narrow ? T_F32 : T_B32, a, cx, false);
	src32(e, w, in, 1, T_F32, b, cx, false);
	if (narrow)
		src32(e, w, in, 2, T_F32, c, cx, false);
	if (e->failed)
		return;
	uint64_t m = w->exec & cx->wmask;
	if (narrow) {
		/* two codes into the op_sel[3:2] byte (fp4) or op_sel[3] word (fp8) */
		unsigned sh = fp4 ? 8 * ((in->opsel >> 2) & 3) : 16 * ((in->opsel >> 3) & 1), width = 2 * (unsigned)bits;
		uint32_t mask = ((1u << width) - 1) << sh, d[64];
		if (!emu_vreg_ok(e, w, in, in->dst, 1))
			return;
		const uint32_t *old = vreg(w, in->dst);
		for (int l = 0; l < 64; l++) {
			double s = scalef32(c[l]);
			uint32_t p = f64_to_ocp(F(a[l]) / s, f) | f64_to_ocp(F(b[l]) / s, f) << bits;
			d[l] = (old[l] & ~mask) | (p << sh & mask);
		}
		write32(e, w, in, in->dst, d, m, false);
		return;
	}
	/* widening: the byte op_sel[1:0] (fp4, the single fp8) or the word
	 * op_sel[0] (the fp8 pair) */
	bool pair = id != I_V_CVT_SCALEF32_F32_FP8 && id != I_V_CVT_SCALEF32_F32_BF8;
	unsigned sh = fp4 || !pair ? 8 * (in->opsel & 3) : 16 * (in->opsel & 1);
	if (!pair) {
		uint32_t d[64];
		for (int l = 0; l < 64; l++)
			d[l] = U((float)(ocp_to_f64(a[l] >> sh & 0xff, f) * scalef32(b[l])));
		write32(e, w, in, in->dst, d, m, false);
		return;
	}
	uint64_t d[64];
	uint32_t em = (1u << bits) - 1;
	for (int l = 0; l < 64; l++) {
		double s = scalef32(b[l]);
		float x = (float)(ocp_to_f64(a[l] >> sh & em, f) * s), y = (float)(ocp_to_f64(a[l] >> (sh + (unsigned)bits) & em, f) * s);
		d[l] = U(x) | (uint64_t)U(y) << 32;
	}
	write64(e, w, in, in->dst, d, m);
}
/* The body of a 32-bit lane loop: a, b, c are the source rows, d the result. */
#define LOOP(...) do { for (int l = 0; l < 64; l++) { __VA_ARGS__; } } while (0)

/* ---- lane operations ---- */

/* The rows that do not fit the row model: lane reads and writes, swaps and
 * AGPR moves (an SGPR or AGPR operand, a single lane) and the fp8/bf8
 * conversions (their own source rules). False if in is none of them. */
/* gfx950's v_permlane16_swap_b32 vdst, vsrc swaps the odd rows (16 lanes)
 * of vdst with the even rows of vsrc: lanes 16-31 of vdst with lanes 0-15 of
 * vsrc and lanes 48-63 with 32-47 (lane i of one row with lane i of the
 * other); v_permlane32_swap_b32 the upper half of vdst (lanes 32-63) with
 * the lower half of vsrc (CDNA4 ISA guide; LLVM's permlane16/32_swap
 * intrinsics return the two registers, tests/loader/emu/clang_test.c).
 * fi and bound_ctrl change only what inactive lanes give: a partial EXEC
 * is not emulated. */
static void exec_permlane_swap(Emu *e, Wave *w, const Inst *in)
{
	if (in->src[0] < SRC_VGPR) {
		emu_fail(e, w, in, "%s swaps two VGPRs; its source is not one", emu_inst_name(in));
		return;
	}
	if (w->exec != ~0ull) {
		emu_fail(e, w, in, "%s with a partial EXEC (0x%016llx) is not emulated", emu_inst_name(in),
			 (unsigned long long)w->exec);
		return;
	}
	unsigned y = in->src[0] - SRC_VGPR;
	if (!emu_vreg_ok(e, w, in, in->dst, 1) || !emu_vreg_ok(e, w, in, y, 1))
		return;
	uint32_t *dv = vreg(w, in->dst), *sv = vreg(w, y);
	int row = in->id == I_V_PERMLANE16_SWAP_B32 ? 16 : 32;
	for (int l = 0; l < 64; l++)
		if ((l / row) % 2 == 0) { /* sv's lane l (an even row) with dv's lane l + row */
			uint32_t t = dv[l + row];
			dv[l + row] = sv[l];
			sv[l] = t;
		}
}

static bool exec_lane_op(Emu *e, Wave *w, const Inst *in, Ctx *cx)
{
	uint64_t exec = w->exec;
	switch (in->id) {
	case I_V_NOP: return true;
	case I_V_READFIRSTLANE_B32: {
		if (in->src[0] >= SRC_VGPR && !emu_vreg_ok(e, w, in, in->src[0] - SRC_VGPR, 1))
			return true;
		int lane = exec ? __builtin_ctzll(exec) : 0;
		uint32_t v = in->src[0] >= SRC_VGPR ? vreg(w, in->src[0] - SRC_VGPR)[lane] : emu_scalar_src(e, w, in, in->src[0], T_B32);
		emu_sreg_write(e, w, in->dst, v);
		return true;
	}
	case I_V_READLANE_B32: {
		unsigned lane = emu_scalar_src(e, w, in, in->src[1], T_U32) & 63;
		if (in->src[0] < SRC_VGPR || !emu_vreg_ok(e, w, in, in->src[0] - SRC_VGPR, 1))
			return true;
		emu_sreg_write(e, w, in->dst, vreg(w, in->src[0] - SRC_VGPR)[lane]);
		return true;
	}
	case I_V_WRITELANE_B32: {
		uint32_t v = emu_scalar_src(e, w, in, in->src[0], T_B32);
		unsigned lane = emu_scalar_src(e, w, in, in->src[1], T_U32) & 63;
		if (emu_vreg_ok(e, w, in, in->dst, 1))
			vreg(w, in->dst)[lane] = v;
		return true;
	}
	case I_V_SWAP_B32: {
		if (in->src[0] < SRC_VGPR) {
			emu_fail(e, w, in, "v_swap_b32 swaps two VGPRs; its source is not one");
			return true;
		}
		if (!emu_vreg_ok(e, w, in, in->dst, 1) || !emu_vreg_ok(e, w, in, in->src[0] - SRC_VGPR, 1))
			return true;
		uint32_t *x = vreg(w, in->dst), *y = vreg(w, in->src[0] - SRC_VGPR);
		for (int l = 0; l < 64; l++)
			if ((exec >> l) & 1) {
				uint32_t tmp = x[l];
				x[l] = y[l], y[l] = tmp;
			}
		return true;
	}
	case I_V_PERMLANE16_SWAP_B32: case I_V_PERMLANE32_SWAP_B32:
		exec_permlane_swap(e, w, in);
		return true;
	case I_V_CVT_F32_FP8: case I_V_CVT_F32_BF8: case I_V_CVT_PK_F32_FP8: case I_V_CVT_PK_F32_BF8:
		exec_cvt_from_fnuz8(e, w, in, cx);
		return true;
	case I_V_CVT_SCALEF32_PK_FP8_F32: case I_V_CVT_SCALEF32_PK_BF8_F32: case I_V_CVT_SCALEF32_PK_F32_FP8:
	case I_V_CVT_SCALEF32_PK_F32_BF8: case I_V_CVT_SCALEF32_F32_FP8: case I_V_CVT_SCALEF32_F32_BF8:
	case I_V_CVT_SCALEF32_PK_FP4_F32: case I_V_CVT_SCALEF32_PK_F32_FP4:
		exec_cvt_scalef32(e, w, in, cx);
		return true;
	case I_V_MFMA_LD_SCALE_B32: /* alone, not the first half of a v_mfma_scale_* */
		emu_fail(e, w, in, "%s not followed by an f8f6f4 MFMA with abid:1 is not emulated", emu_inst_name(in));
		return true;
	case I_V_ACCVGPR_READ_B32: case I_V_ACCVGPR_WRITE_B32: case I_V_ACCVGPR_MOV_B32: {
		bool from_acc = in->id != I_V_ACCVGPR_WRITE_B32, to_acc = in->id != I_V_ACCVGPR_READ_B32;
		uint32_t a[64];
		src32(e, w, in, 0, T_B32, a, cx, from_acc && in->src[0] >= SRC_VGPR);
		write32(e, w, in, in->dst + (to_acc ? w->accum_offset : 0), a, exec, false);
		return true;
	}
	default: return false;
	}
}

/* ---- packed math (VOP3P) ---- */

/* v_pk_*_f32 and v_pk_mov_b32: dword pairs, each half of a source chosen by
 * op_sel (low) and op_sel_hi (high); constants fill both halves. */
static void exec_pk_f32(Emu *e, Wave *w, const Inst *in)
{
	const IsaInfo *r = &isa_info[in->id];
	IsaType t = (IsaType)r->type;
	uint64_t exec = w->exec;
	int ns = (r->src[0] > 0) + (r->src[1] > 0) + (r->src[2] > 0);
	uint64_t A[64], B[64], C[64], DD[64];
	for (int i = 0; i < ns; i++) {
		uint64_t *X = i == 0 ? A : i == 1 ? B : C;
		src64(e, w, in, i, T_B64, X);
		if (src_is_constant(in->src[i])) {
			uint32_t v = emu_scalar_src(e, w, in, in->src[i], T_F32);
			for (int l = 0; l < 64; l++)
				X[l] = v | (uint64_t)v << 32;
		}
		for (int l = 0; l < 64; l++) {
			uint32_t lo = (in->opsel >> i) & 1 ? (uint32_t)(X[l] >> 32) : (uint32_t)X[l];
			uint32_t hi = (in->opsel_hi >> i) & 1 ? (uint32_t)(X[l] >> 32) : (uint32_t)X[l];
			if (t == T_F32) {
				if ((in->neg >> i) & 1) lo ^= 0x80000000u;
				if ((in->neg_hi >> i) & 1) hi ^= 0x80000000u;
			}
			X[l] = lo | (uint64_t)hi << 32;
		}
	}
	for (int l = 0; l < 64; l++) {
		float al = F((uint32_t)A[l]), ah = F((uint32_t)(A[l] >> 32));
		float bl = F((uint32_t)B[l]), bh = F((uint32_t)(B[l] >> 32));
		float lo, hi;
		switch (in->id) {
		case I_V_PK_FMA_F32: lo = fmaf(al, bl, F((uint32_t)C[l])), hi = fmaf(ah, bh, F((uint32_t)(C[l] >> 32))); break;
		case I_V_PK_MUL_F32: lo = al * bl, hi = ah * bh; break;
		case I_V_PK_ADD_F32: lo = al + bl, hi = ah + bh; break;
		/* pk_mov: D.lo = op_sel[0] ? S0.hi : S0.lo, D.hi = op_sel[1] ?
		 * S1.hi : S1.lo — the low dwords selected above */
		case I_V_PK_MOV_B32: DD[l] = (uint32_t)A[l] | (uint64_t)(uint32_t)B[l] << 32; continue;
		default: emu_fail(e, w, in, "unimplemented instruction %s", emu_inst_name(in)); return;
		}
		DD[l] = U(omod_clamp_f(in, lo)) | (uint64_t)U(omod_clamp_f(in, hi)) << 32;
	}
	write64(e, w, in, in->dst, DD, exec);
}

/* The 16-bit packed rows (both halves, each source half chosen by op_sel /
 * op_sel_hi), the mixed-precision FMAs (op_sel_hi: an f16 source whose half
 * op_sel picks, else f32) and the dot products (exact sums; clamp saturates
 * integer results to the result type). */
static void exec_pk16(Emu *e, Wave *w, const Inst *in, Ctx *cx)
{
	const IsaInfo *r = &isa_info[in->id];
	IsaType t = (IsaType)r->type;
	uint64_t exec = w->exec;
	int ns = (r->src[0] > 0) + (r->src[1] > 0) + (r->src[2] > 0);
	uint32_t a[64], b[64], c[64], d[64];
	uint32_t lo[3][64], hi[3][64];
	for (int i = 0; i < ns; i++) {
		uint32_t *X = i == 0 ? a : i == 1 ? b : c;
		Inst tmp = *in;
		tmp.neg = tmp.abs = 0;
		src32(e, w, &tmp, i, t, X, cx, false);
		if (src_is_constant(in->src[i])) /* constants apply to both halves */
			for (int l = 0; l < 64; l++)
				X[l] = (X[l] & 0xffff) | X[l] << 16;
		bool mix = in->id == I_V_FMA_MIX_F32 || in->id == I_V_FMA_MIXLO_F16 || in->id == I_V_FMA_MIXHI_F16;
		for (int l = 0; l < 64; l++) {
			uint32_t v = X[l];
			lo[i][l] = (in->opsel >> i) & 1 ? v >> 16 : v & 0xffff;
			hi[i][l] = (in->opsel_hi >> i) & 1 ? v >> 16 : v & 0xffff;
			if (mix) { /* opsel_hi: f16 source (opsel picks half), else f32 */
				float f = (in->opsel_hi >> i) & 1 ? H(lo[i][l]) : F(in->src[i] < SRC_VGPR ? emu_scalar_src(e, w, in, in->src[i], T_F32) : v);
				if ((in->neg_hi >> i) & 1) f = fabsf(f);
				if ((in->neg >> i) & 1) f = -f;
				lo[i][l] = U(f);
			} else if (t == T_F16) {
				if ((in->neg >> i) & 1) lo[i][l] ^= 0x8000;
				if ((in->neg_hi >> i) & 1) hi[i][l] ^= 0x8000;
			}
		}
	}
	for (int l = 0; l < 64; l++) {
		uint32_t x0 = lo[0][l], x1 = lo[1][l], x2 = ns > 2 ? lo[2][l] : 0;
		uint32_t y0 = hi[0][l], y1 = hi[1][l], y2 = ns > 2 ? hi[2][l] : 0;
		uint32_t rl = 0, rh = 0;
		switch (in->id) {
#define PK(expr_lo, expr_hi) rl = (expr_lo) & 0xffff, rh = (expr_hi) & 0xffff; break
		/* floats: clamp to [0, 1] (NaN -> 0); integers: saturate under clamp */
		case I_V_PK_FMA_F16: PK(clamp_h(in, UH((float)((double)H(x0) * H(x1) + H(x2)))), clamp_h(in, UH((float)((double)H(y0) * H(y1) + H(y2)))));
		case I_V_PK_ADD_F16: PK(clamp_h(in, UH(H(x0) + H(x1))), clamp_h(in, UH(H(y0) + H(y1))));
		case I_V_PK_MUL_F16: PK(clamp_h(in, UH(H(x0) * H(x1))), clamp_h(in, UH(H(y0) * H(y1))));
		case I_V_PK_MIN_F16: PK(clamp_h(in, UH(fminf(H(x0), H(x1)))), clamp_h(in, UH(fminf(H(y0), H(y1)))));
		case I_V_PK_MAX_F16: PK(clamp_h(in, UH(fmaxf(H(x0), H(x1)))), clamp_h(in, UH(fmaxf(H(y0), H(y1)))));
		case I_V_PK_ADD_U16: PK(sat_u16(in, (int64_t)x0 + x1), sat_u16(in, (int64_t)y0 + y1));
		case I_V_PK_ADD_I16: PK(sat_i16(in, (int64_t)(int16_t)x0 + (int16_t)x1), sat_i16(in, (int64_t)(int16_t)y0 + (int16_t)y1));
		case I_V_PK_SUB_U16: PK(sat_u16(in, (int64_t)x0 - x1), sat_u16(in, (int64_t)y0 - y1));
		case I_V_PK_SUB_I16: PK(sat_i16(in, (int64_t)(int16_t)x0 - (int16_t)x1), sat_i16(in, (int64_t)(int16_t)y0 - (int16_t)y1));
		case I_V_PK_MUL_LO_U16: PK(x0 * x1, y0 * y1);
		case I_V_PK_MAD_U16: PK(sat_u16(in, (int64_t)x0 * x1 + x2), sat_u16(in, (int64_t)y0 * y1 + y2));
		case I_V_PK_MAD_I16: PK(sat_i16(in, (int64_t)(int16_t)x0 * (int16_t)x1 + (int16_t)x2), sat_i16(in, (int64_t)(int16_t)y0 * (int16_t)y1 + (int16_t)y2));
		case I_V_PK_LSHLREV_B16: PK(x1 << (x0 & 15), y1 << (y0 & 15));
		case I_V_PK_LSHRREV_B16: PK(x1 >> (x0 & 15), y1 >> (y0 & 15));
		case I_V_PK_ASHRREV_I16: PK((uint32_t)((int16_t)x1 >> (x0 & 15)), (uint32_t)((int16_t)y1 >> (y0 & 15)));
		case I_V_PK_MAX_I16: PK((int16_t)x0 > (int16_t)x1 ? x0 : x1, (int16_t)y0 > (int16_t)y1 ? y0 : y1);
		case I_V_PK_MIN_I16: PK((int16_t)x0 < (int16_t)x1 ? x0 : x1, (int16_t)y0 < (int16_t)y1 ? y0 : y1);
		case I_V_PK_MAX_U16: PK(x0 > x1 ? x0 : x1, y0 > y1 ? y0 : y1);
		case I_V_PK_MIN_U16: PK(x0 < x1 ? x0 : x1, y0 < y1 ? y0 : y1);
#undef PK
		case I_V_FMA_MIX_F32: d[l] = U(omod_clamp_f(in, fmaf(F(x0), F(x1), F(x2)))); continue;
		case I_V_FMA_MIXLO_F16: d[l] = UH(omod_clamp_f(in, fmaf(F(x0), F(x1), F(x2)))); continue;
		case I_V_FMA_MIXHI_F16: d[l] = UH(omod_clamp_f(in, fmaf(F(x0), F(x1), F(x2)))); continue;
		/* integer dots: exact sums; clamp saturates to the result type */
		case I_V_DOT2_F32_F16: d[l] = U(omod_clamp_f(in, (float)((double)H(x0) * H(x1) + (double)H(y0) * H(y1) + F(c[l])))); continue;
		case I_V_DOT2_I32_I16: d[l] = sat_i32(in, (int64_t)(int16_t)x0 * (int16_t)x1 + (int64_t)(int16_t)y0 * (int16_t)y1 + (int32_t)c[l]); continue;
		case I_V_DOT2_U32_U16: d[l] = sat_u32(in, (uint64_t)x0 * x1 + (uint64_t)y0 * y1 + c[l]); continue;
		case I_V_DOT4_I32_I8: case I_V_DOT4_U32_U8: {
			bool sg = in->id == I_V_DOT4_I32_I8;
			int64_t s = sg ? (int64_t)(int32_t)c[l] : (int64_t)c[l];
			for (int k = 0; k < 4; k++) {
				uint32_t p = (a[l] >> (8 * k)) & 0xff, q = (b[l] >> (8 * k)) & 0xff;
				s += sg ? (int64_t)((int8_t)p * (int8_t)q) : (int64_t)(p * q);
			}
			d[l] = sg ? sat_i32(in, s) : sat_u32(in, (uint64_t)s);
			continue;
		}
		default: emu_fail(e, w, in, "unimplemented instruction %s", emu_inst_name(in)); return;
		}
		d[l] = rl | rh << 16;
	}
	if (in->id == I_V_FMA_MIXLO_F16 || in->id == I_V_FMA_MIXHI_F16) {
		if (!emu_vreg_ok(e, w, in, in->dst, 1))
			return;
		uint32_t *row = vreg(w, in->dst);
		bool hiw = in->id == I_V_FMA_MIXHI_F16;
		for (int l = 0; l < 64; l++)
			if ((exec >> l) & 1)
				row[l] = hiw ? (row[l] & 0xffff) | d[l] << 16 : (row[l] & 0xffff0000u) | (d[l] & 0xffff);
		return;
	}
	write32(e, w, in, in->dst, d, exec, false);
}

/* ---- 64-bit operands ---- */

/* Every row with a 64-bit source or result: f64 arithmetic and
 * conversions, 64-bit moves and shifts, mad_u64_u32 / mad_i64_i32. */
static void exec_valu64(Emu *e, Wave *w, const Inst *in, Ctx *cx)
{
	const IsaInfo *r = &isa_info[in->id];
	IsaType t = (IsaType)r->type;
	uint64_t exec = w->exec;
	uint32_t a[64], b[64], c[64], d[64];
	uint64_t A[64], B[64], C[64], DD[64];
	for (int i = 0; i < 3; i++) {
		if (!r->src[i])
			continue;
		if (r->src[i] == 2)
			src64(e, w, in, i, t, i == 0 ? A : i == 1 ? B : C);
		else
			src32(e, w, in, i, (in->id == I_V_LDEXP_F64) ? T_I32 : t, i == 0 ? a : i == 1 ? b : c, cx, false);
	}
	if (e->failed)
		return;
	bool wide = r->dst == 2;
	/* v_fmac_f64 reads its destination pair as the addend */
	if (in->id == I_V_FMAC_F64 && !emu_vreg_ok(e, w, in, in->dst, 2))
		return;
	uint64_t carry = 0, vcc_in = in->id == I_V_DIV_FMAS_F64 ? emu_sreg_read64(e, w, SRC_VCC_LO) : 0;
	for (int l = 0; l < 64; l++) {
		switch (in->id) {
		case I_V_MOV_B64: DD[l] = A[l]; break;
		case I_V_CVT_I32_F64: d[l] = (uint32_t)cvt_i32(D(A[l])); break;
		case I_V_CVT_U32_F64: d[l] = cvt_u32(D(A[l])); break;
		case I_V_CVT_F32_F64: d[l] = U((float)D(A[l])); break;
		case I_V_CVT_F64_I32: DD[l] = UD((double)(int32_t)a[l]); break;
		case I_V_CVT_F64_U32: DD[l] = UD((double)a[l]); break;
		case I_V_CVT_F64_F32: DD[l] = UD((double)F(a[l])); break;
		case I_V_TRUNC_F64: DD[l] = UD(trunc(D(A[l]))); break;
		case I_V_CEIL_F64: DD[l] = UD(ceil(D(A[l]))); break;
		case I_V_RNDNE_F64: DD[l] = UD(nearbyint(D(A[l]))); break;
		case I_V_FLOOR_F64: DD[l] = UD(floor(D(A[l]))); break;
		case I_V_RCP_F64: DD[l] = UD(1.0 / D(A[l])); break;
		case I_V_RSQ_F64: DD[l] = UD(1.0 / sqrt(D(A[l]))); break;
		case I_V_SQRT_F64: DD[l] = UD(sqrt(D(A[l]))); break;
		case I_V_FMAC_F64: {
			uint32_t *lo = vreg(w, in->dst), *hi = vreg(w, in->dst + 1);
			DD[l] = UD(fma(D(A[l]), D(B[l]), D(lo[l] | (uint64_t)hi[l] << 32)));
			break;
		}
		case I_V_FMA_F64: DD[l] = UD(fma(D(A[l]), D(B[l]), D(C[l]))); break;
		case I_V_ADD_F64: DD[l] = UD(D(A[l]) + D(B[l])); break;
		case I_V_MUL_F64: DD[l] = UD(D(A[l]) * D(B[l])); break;
		case I_V_MIN_F64: DD[l] = UD(fmin(D(A[l]), D(B[l]))); break;
		case I_V_MAX_F64: DD[l] = UD(fmax(D(A[l]), D(B[l]))); break;
		case I_V_LDEXP_F64: DD[l] = UD(ldexp(D(A[l]), (int32_t)b[l])); break;
		case I_V_DIV_FMAS_F64: {
			double f = fma(D(A[l]), D(B[l]), D(C[l]));
			if ((vcc_in >> l) & 1)
				f = ldexp(f, exp_field(D(C[l]), 1023) > 1023 ? 128 : -128);
			DD[l] = UD(f);
			break;
		}
		case I_V_DIV_SCALE_F64: {
			bool v;
			DD[l] = UD(div_scale(D(A[l]), D(B[l]), D(C[l]), 1023, 128, 768, 53, &v));
			carry |= (uint64_t)v << l;
			break;
		}
		case I_V_DIV_FIXUP_F64: DD[l] = UD(div_fixup(D(A[l]), D(B[l]), D(C[l]))); break;
		case I_V_LSHLREV_B64: DD[l] = B[l] << (a[l] & 63); break;
		case I_V_LSHRREV_B64: DD[l] = B[l] >> (a[l] & 63); break;
		case I_V_ASHRREV_I64: DD[l] = (uint64_t)((int64_t)B[l] >> (a[l] & 63)); break;
		case I_V_LSHL_ADD_U64: DD[l] = (A[l] << (b[l] & 7)) + C[l]; break;
		case I_V_MAD_U64_U32: DD[l] = (uint64_t)a[l] * b[l] + C[l]; break;
		case I_V_MAD_I64_I32: DD[l] = (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)b[l]) + C[l]; break;
		default: emu_fail(e, w, in, "unimplemented instruction %s", emu_inst_name(in)); return;
		}
	}
	if (in->id == I_V_MAD_U64_U32 || in->id == I_V_MAD_I64_I32 || in->id == I_V_DIV_SCALE_F64) {
		if (in->id == I_V_MAD_U64_U32)
			for (int l = 0; l < 64; l++) {
				unsigned __int128 p = (unsigned __int128)a[l] * b[l] + C[l];
				carry |= (uint64_t)((p >> 64) != 0) << l;
			}
		emu_sreg_write64(e, w, in->sdst, carry & exec);
	}
	uint64_t m = exec & cx->wmask;
	if (in->omod || in->clamp)
		for (int l = 0; l < 64 && wide && t == T_F64; l++) {
			double f = D(DD[l]);
			f = in->omod == 1 ? f * 2 : in->omod == 2 ? f * 4 : in->omod == 3 ? f * 0.5 : f;
			if (in->clamp)
				f = isnan(f) ? 0 : f < 0 ? 0 : f > 1 ? 1 : f;
			DD[l] = UD(f);
		}
	if (wide)
		write64(e, w, in, in->dst, DD, m);
	else
		write32(e, w, in, in->dst, d, m, false);
}

/* ---- 32-bit and 16-bit operands, one family per row type ---- */

/* The rows of a 32-bit or 16-bit operation: the sources (op_sel applied),
 * the destination before the write (mac, dot2c/dot4c and cvt_pk_fp8 read
 * it), VCC or the VOP3 mask in, and what the family sets: the carry out, an
 * f32 result (omod and clamp apply) or a 16-bit one (the high half zeroed). */
typedef struct {
	uint32_t a[64], b[64], c[64], d[64];
	const uint32_t *dold;
	uint64_t vcc_in, carry;
	bool fres, r16;
} Rows;

/* Rows of type f32: f32 arithmetic, transcendentals, the division helpers
 * and the conversions from f32. False if in is not implemented. */
static bool valu_f32(Emu *e, Wave *w, const Inst *in, Rows *rw)
{
	const uint32_t *a = rw->a, *b = rw->b, *c = rw->c, *dold = rw->dold;
	uint32_t *d = rw->d;
	switch (in->id) {
	case I_V_CVT_U32_F32: LOOP(d[l] = cvt_u32(F(a[l]))); break;
	case I_V_CVT_I32_F32: LOOP(d[l] = (uint32_t)cvt_i32(F(a[l]))); break;
	case I_V_CVT_F16_F32: LOOP(d[l] = UH(F(a[l]))); rw->r16 = true; break;
	case I_V_CVT_RPI_I32_F32: LOOP(d[l] = (uint32_t)cvt_i32(floor((double)F(a[l]) + 0.5))); break;
	case I_V_CVT_FLR_I32_F32: LOOP(d[l] = (uint32_t)cvt_i32(floor((double)F(a[l])))); break;
	case I_V_FRACT_F32: LOOP(float f = F(a[l]); float q = f - floorf(f); d[l] = U(isinf(f) ? NAN : q >= 1.0f ? 0x1.fffffep-1f : q)); rw->fres = true; break;
	case I_V_TRUNC_F32: LOOP(d[l] = U(truncf(F(a[l])))); rw->fres = true; break;
	case I_V_CEIL_F32: LOOP(d[l] = U(ceilf(F(a[l])))); rw->fres = true; break;
	case I_V_RNDNE_F32: LOOP(d[l] = U(nearbyintf(F(a[l])))); rw->fres = true; break;
	case I_V_FLOOR_F32: LOOP(d[l] = U(floorf(F(a[l])))); rw->fres = true; break;
	case I_V_EXP_F32: LOOP(d[l] = U(exp2_nodenorm(F(a[l])))); rw->fres = true; break;
	case I_V_LOG_F32: LOOP(d[l] = U(log2_nodenorm(F(a[l])))); rw->fres = true; break;
	case I_V_RCP_F32: case I_V_RCP_IFLAG_F32: LOOP(d[l] = U(1.0f / F(a[l]))); rw->fres = true; break;
	case I_V_RSQ_F32: LOOP(d[l] = U((float)(1.0 / sqrt((double)F(a[l]))))); rw->fres = true; break;
	case I_V_SQRT_F32: LOOP(d[l] = U(sqrtf(F(a[l])))); rw->fres = true; break;
	case I_V_SIN_F32: LOOP(d[l] = U((float)sin(F(a[l]) * 6.283185307179586))); rw->fres = true; break;
	case I_V_COS_F32: LOOP(d[l] = U((float)cos(F(a[l]) * 6.283185307179586))); rw->fres = true; break;
	case I_V_FREXP_EXP_I32_F32: LOOP(int ex = 0; float f = F(a[l]); if (isfinite(f)) frexpf(f, &ex); d[l] = (uint32_t)ex); break;
	case I_V_FREXP_MANT_F32: LOOP(int ex; float f = F(a[l]); d[l] = U(isfinite(f) ? frexpf(f, &ex) : f)); break;
	case I_V_ADD_F32: LOOP(d[l] = U(F(a[l]) + F(b[l]))); rw->fres = true; break;
	case I_V_SUB_F32: LOOP(d[l] = U(F(a[l]) - F(b[l]))); rw->fres = true; break;
	case I_V_SUBREV_F32: LOOP(d[l] = U(F(b[l]) - F(a[l]))); rw->fres = true; break;
	case I_V_MUL_F32: LOOP(d[l] = U(F(a[l]) * F(b[l]))); rw->fres = true; break;
	case I_V_MIN_F32: LOOP(d[l] = U(fminf(F(a[l]), F(b[l])))); rw->fres = true; break;
	case I_V_MAX_F32: LOOP(d[l] = U(fmaxf(F(a[l]), F(b[l])))); rw->fres = true; break;
	case I_V_MAC_F32: LOOP(d[l] = U(F(a[l]) * F(b[l]) + F(dold[l]))); rw->fres = true; break;
	case I_V_FMAC_F32: LOOP(d[l] = U(fmaf(F(a[l]), F(b[l]), F(dold[l])))); rw->fres = true; break;
	case I_V_MADMK_F32: LOOP(d[l] = U(F(a[l]) * F(in->lit) + F(b[l]))); break;
	case I_V_MADAK_F32: LOOP(d[l] = U(F(a[l]) * F(b[l]) + F(in->lit))); break;
	case I_V_FMAMK_F32: LOOP(d[l] = U(fmaf(F(a[l]), F(in->lit), F(b[l])))); break;
	case I_V_FMAAK_F32: LOOP(d[l] = U(fmaf(F(a[l]), F(b[l]), F(in->lit)))); break;
	case I_V_MAD_F32: LOOP(d[l] = U(F(a[l]) * F(b[l]) + F(c[l]))); rw->fres = true; break;
	case I_V_FMA_F32: LOOP(d[l] = U(fmaf(F(a[l]), F(b[l]), F(c[l])))); rw->fres = true; break;
	case I_V_MIN3_F32: LOOP(d[l] = U(fminf(fminf(F(a[l]), F(b[l])), F(c[l])))); rw->fres = true; break;
	case I_V_MAX3_F32: LOOP(d[l] = U(fmaxf(fmaxf(F(a[l]), F(b[l])), F(c[l])))); rw->fres = true; break;
	case I_V_MED3_F32: LOOP(float x = F(a[l]), y = F(b[l]), z = F(c[l]); d[l] = U(fmaxf(fminf(x, y), fminf(fmaxf(x, y), z)))); rw->fres = true; break;
	case I_V_DIV_FIXUP_F32: LOOP(d[l] = U((float)div_fixup(F(a[l]), F(b[l]), F(c[l])))); rw->fres = true; break;
	case I_V_DIV_SCALE_F32: LOOP(bool v; d[l] = U((float)div_scale(F(a[l]), F(b[l]), F(c[l]), 127, 64, 96, 23, &v)); rw->carry |= (uint64_t)v << l); break;
	case I_V_DIV_FMAS_F32: {
		uint64_t vcc = emu_sreg_read64(e, w, SRC_VCC_LO);
		/* scaled in double, rounded once to f32 (a product of two f32 is exact in double) */
		LOOP(d[l] = (vcc >> l) & 1 ? U((float)ldexp(fma((double)F(a[l]), F(b[l]), F(c[l])), exp_field(F(c[l]), 127) > 127 ? 64 : -64))
					     : U(fmaf(F(a[l]), F(b[l]), F(c[l]))));
		rw->fres = true;
		break;
	}
	case I_V_MUL_LEGACY_F32: LOOP(float x = F(a[l]), y = F(b[l]); d[l] = U(x == 0.0f || y == 0.0f ? 0.0f : x * y)); rw->fres = true; break;
	case I_V_LDEXP_F32: LOOP(d[l] = U(ldexpf(F(a[l]), (int32_t)b[l] < -400 ? -400 : (int32_t)b[l] > 400 ? 400 : (int32_t)b[l]))); rw->fres = true; break;
	case I_V_CVT_PKRTZ_F16_F32: LOOP(d[l] = f16_rtz(F(a[l])) | f16_rtz(F(b[l])) << 16); break;
	/* gfx950: round to nearest even on the bits, a NaN quiet with its sign
	 * and high payload (util/dtype.c's rule); clamp and omod not emulated */
	case I_V_CVT_PK_BF16_F32:
		if (in->clamp || in->omod)
			return false;
		LOOP(d[l] = dtype_f32_to_bf16(F(a[l])) | (uint32_t)dtype_f32_to_bf16(F(b[l])) << 16);
		break;
	/* f32 pair -> two 8-bit codes in the op_sel[3] word, the other word kept;
	 * neg/abs were applied by src32, clamp and omod are ignored (see above) */
	case I_V_CVT_PK_FP8_F32: case I_V_CVT_PK_BF8_F32: {
		/* gfx950: the OCP encodings */
		bool bf8 = in->id == I_V_CVT_PK_BF8_F32, ocp = e->arch == EMU_GFX950;
		LOOP(uint32_t p = ocp ? f64_to_ocp(F(a[l]), bf8 ? OCP_BF8 : OCP_FP8) | f64_to_ocp(F(b[l]), bf8 ? OCP_BF8 : OCP_FP8) << 8
				      : cvt_pk_fnuz8(F(a[l]), F(b[l]), bf8 ? 2 : 3, bf8 ? 16 : 8);
			d[l] = in->opsel & 8 ? (dold[l] & 0xffffu) | p << 16 : (dold[l] & 0xffff0000u) | p);
		break;
	}
	default: return false;
	}
	return true;
}

/* Rows of type f16: f16 arithmetic and the conversions from f16. */
static bool valu_f16(const Inst *in, Rows *rw)
{
	const uint32_t *a = rw->a, *b = rw->b, *c = rw->c, *dold = rw->dold;
	uint32_t *d = rw->d;
	switch (in->id) {
	case I_V_CVT_F32_F16: LOOP(d[l] = U(H(a[l]))); rw->fres = true; break;
	case I_V_CVT_U16_F16: LOOP(float f = H(a[l]); d[l] = isnan(f) || f <= 0 ? 0 : f >= 65535.0f ? 65535 : (uint32_t)f); rw->r16 = true; break;
	case I_V_CVT_I16_F16: LOOP(float f = H(a[l]); d[l] = (uint16_t)(isnan(f) ? 0 : f >= 32767.0f ? 32767 : f <= -32768.0f ? -32768 : (int)f)); rw->r16 = true; break;
	case I_V_RCP_F16: LOOP(d[l] = UH(1.0f / H(a[l]))); rw->r16 = true; break;
	case I_V_SQRT_F16: LOOP(d[l] = UH(sqrtf(H(a[l])))); rw->r16 = true; break;
	case I_V_RSQ_F16: LOOP(d[l] = UH(1.0f / sqrtf(H(a[l])))); rw->r16 = true; break;
	case I_V_LOG_F16: LOOP(d[l] = UH(log2f(H(a[l])))); rw->r16 = true; break;
	case I_V_EXP_F16: LOOP(d[l] = UH(exp2f(H(a[l])))); rw->r16 = true; break;
	case I_V_FLOOR_F16: LOOP(d[l] = UH(floorf(H(a[l])))); rw->r16 = true; break;
	case I_V_CEIL_F16: LOOP(d[l] = UH(ceilf(H(a[l])))); rw->r16 = true; break;
	case I_V_TRUNC_F16: LOOP(d[l] = UH(truncf(H(a[l])))); rw->r16 = true; break;
	case I_V_RNDNE_F16: LOOP(d[l] = UH(nearbyintf(H(a[l])))); rw->r16 = true; break;
	case I_V_FRACT_F16: LOOP(float f = H(a[l]); d[l] = UH(isinf(f) ? NAN : f - floorf(f))); rw->r16 = true; break;
	case I_V_ADD_F16: LOOP(d[l] = UH(H(a[l]) + H(b[l]))); rw->r16 = true; break;
	case I_V_SUB_F16: LOOP(d[l] = UH(H(a[l]) - H(b[l]))); rw->r16 = true; break;
	case I_V_SUBREV_F16: LOOP(d[l] = UH(H(b[l]) - H(a[l]))); rw->r16 = true; break;
	case I_V_MUL_F16: LOOP(d[l] = UH(H(a[l]) * H(b[l]))); rw->r16 = true; break;
	case I_V_MAC_F16: LOOP(d[l] = UH(H(a[l]) * H(b[l]) + H(dold[l]))); rw->r16 = true; break;
	case I_V_MAX_F16: LOOP(d[l] = UH(fmaxf(H(a[l]), H(b[l])))); rw->r16 = true; break;
	case I_V_MIN_F16: LOOP(d[l] = UH(fminf(H(a[l]), H(b[l])))); rw->r16 = true; break;
	case I_V_LDEXP_F16: LOOP(d[l] = UH(ldexpf(H(a[l]), (int32_t)b[l] < -64 ? -64 : (int32_t)b[l] > 64 ? 64 : (int32_t)b[l]))); rw->r16 = true; break;
	/* dot2c accumulates into the destination */
	case I_V_DOT2C_F32_F16: LOOP(d[l] = U((float)((double)H(a[l]) * H(b[l]) + (double)H(a[l] >> 16) * H(b[l] >> 16) + F(dold[l])))); break;
	case I_V_MIN3_F16: LOOP(d[l] = UH(fminf(fminf(H(a[l]), H(b[l])), H(c[l])))); rw->r16 = true; break;
	case I_V_MAX3_F16: LOOP(d[l] = UH(fmaxf(fmaxf(H(a[l]), H(b[l])), H(c[l])))); rw->r16 = true; break;
	case I_V_MED3_F16: LOOP(float x = H(a[l]), y = H(b[l]), z = H(c[l]); d[l] = UH(fmaxf(fminf(x, y), fminf(fmaxf(x, y), z)))); rw->r16 = true; break;
	case I_V_MAD_F16: case I_V_MAD_LEGACY_F16: LOOP(d[l] = UH(H(a[l]) * H(b[l]) + H(c[l]))); rw->r16 = true; break;
	case I_V_FMA_F16: case I_V_FMA_LEGACY_F16: LOOP(d[l] = UH((float)((double)H(a[l]) * H(b[l]) + H(c[l])))); rw->r16 = true; break;
	case I_V_DIV_FIXUP_F16: LOOP(d[l] = UH((float)div_fixup(H(a[l]), H(b[l]), H(c[l])))); rw->r16 = true; break;
	case I_V_PACK_B32_F16: LOOP(
		uint32_t x = (in->opsel & 1) ? a[l] >> 16 : a[l] & 0xffff, y = (in->opsel & 2) ? b[l] >> 16 : b[l] & 0xffff;
		d[l] = x | y << 16); break;
	default: return false;
	}
	return true;
}

/* Rows of the 16-bit integer types: arithmetic (the VOP3 and SDWA integer
 * clamp saturates to the result type), shifts and the conversions to f16. */
static bool valu_i16(const Inst *in, Rows *rw)
{
	const uint32_t *a = rw->a, *b = rw->b, *c = rw->c;
	uint32_t *d = rw->d;
	switch (in->id) {
	case I_V_CVT_F16_U16: LOOP(d[l] = UH((float)(a[l] & 0xffff))); rw->r16 = true; break;
	case I_V_CVT_F16_I16: LOOP(d[l] = UH((float)(int16_t)a[l])); rw->r16 = true; break;
	case I_V_ADD_U16: LOOP(d[l] = sat_u16(in, (int64_t)(a[l] & 0xffff) + (b[l] & 0xffff))); rw->r16 = true; break;
	case I_V_SUB_U16: LOOP(d[l] = sat_u16(in, (int64_t)(a[l] & 0xffff) - (b[l] & 0xffff))); rw->r16 = true; break;
	case I_V_SUBREV_U16: LOOP(d[l] = sat_u16(in, (int64_t)(b[l] & 0xffff) - (a[l] & 0xffff))); rw->r16 = true; break;
	case I_V_MUL_LO_U16: LOOP(d[l] = a[l] * b[l]); rw->r16 = true; break;
	case I_V_LSHLREV_B16: LOOP(d[l] = b[l] << (a[l] & 15)); rw->r16 = true; break;
	case I_V_LSHRREV_B16: LOOP(d[l] = (b[l] & 0xffff) >> (a[l] & 15)); rw->r16 = true; break;
	case I_V_ASHRREV_I16: LOOP(d[l] = (uint32_t)((int16_t)b[l] >> (a[l] & 15))); rw->r16 = true; break;
	case I_V_MAX_U16: LOOP(d[l] = (a[l] & 0xffff) > (b[l] & 0xffff) ? a[l] : b[l]); rw->r16 = true; break;
	case I_V_MIN_U16: LOOP(d[l] = (a[l] & 0xffff) < (b[l] & 0xffff) ? a[l] : b[l]); rw->r16 = true; break;
	case I_V_MAX_I16: LOOP(d[l] = (int16_t)a[l] > (int16_t)b[l] ? a[l] : b[l]); rw->r16 = true; break;
	case I_V_MIN_I16: LOOP(d[l] = (int16_t)a[l] < (int16_t)b[l] ? a[l] : b[l]); rw->r16 = true; break;
	case I_V_MAD_U32_U16: LOOP(d[l] = (a[l] & 0xffff) * (b[l] & 0xffff) + c[l]); break;
	case I_V_MAD_I32_I16: LOOP(d[l] = (uint32_t)((int16_t)a[l] * (int16_t)b[l]) + c[l]); break;
	case I_V_MAD_U16: case I_V_MAD_LEGACY_U16: LOOP(d[l] = sat_u16(in, (int64_t)(a[l] & 0xffff) * (b[l] & 0xffff) + (c[l] & 0xffff))); rw->r16 = true; break;
	case I_V_MAD_I16: case I_V_MAD_LEGACY_I16: LOOP(d[l] = sat_i16(in, (int64_t)(int16_t)a[l] * (int16_t)b[l] + (int16_t)c[l])); rw->r16 = true; break;
	default: return false;
	}
	return true;
}

/* Rows of type b32: moves, bit operations, shifts, permutes, bit counts,
 * and v_cndmask_b32. */
static bool valu_b32(Emu *e, Wave *w, const Inst *in, Rows *rw)
{
	const uint32_t *a = rw->a, *b = rw->b, *c = rw->c;
	uint32_t *d = rw->d;
	switch (in->id) {
	case I_V_MOV_B32: memcpy(d, a, sizeof rw->d); break;
	case I_V_NOT_B32: LOOP(d[l] = ~a[l]); break;
	case I_V_BFREV_B32: LOOP(uint32_t v = a[l], o = 0; for (int k = 0; k < 32; k++) o |= ((v >> k) & 1u) << (31 - k); d[l] = o); break;
	case I_V_FFBH_U32: LOOP(d[l] = a[l] ? (uint32_t)__builtin_clz(a[l]) : 0xffffffffu); break;
	case I_V_FFBL_B32: LOOP(d[l] = a[l] ? (uint32_t)__builtin_ctz(a[l]) : 0xffffffffu); break;
	case I_V_FFBH_I32: LOOP(uint32_t v = (int32_t)a[l] < 0 ? ~a[l] : a[l]; d[l] = v ? (uint32_t)__builtin_clz(v) - 1 : 0xffffffffu); break;
	case I_V_CNDMASK_B32: {
		uint64_t m = in->vop3 ? emu_sreg_read64(e, w, in->src[2]) : rw->vcc_in;
		LOOP(d[l] = (m >> l) & 1 ? b[l] : a[l]);
		break;
	}
	case I_V_LSHRREV_B32: LOOP(d[l] = b[l] >> (a[l] & 31)); break;
	case I_V_LSHLREV_B32: LOOP(d[l] = b[l] << (a[l] & 31)); break;
	case I_V_AND_B32: LOOP(d[l] = a[l] & b[l]); break;
	case I_V_OR_B32: LOOP(d[l] = a[l] | b[l]); break;
	case I_V_XOR_B32: LOOP(d[l] = a[l] ^ b[l]); break;
	case I_V_XNOR_B32: LOOP(d[l] = ~(a[l] ^ b[l])); break;
	case I_V_BFI_B32: LOOP(d[l] = (a[l] & b[l]) | (~a[l] & c[l])); break;
	case I_V_ALIGNBIT_B32: LOOP(d[l] = (uint32_t)((((uint64_t)a[l] << 32) | b[l]) >> (c[l] & 31))); break;
	case I_V_ALIGNBYTE_B32: LOOP(d[l] = (uint32_t)((((uint64_t)a[l] << 32) | b[l]) >> (8 * (c[l] & 3)))); break;
	case I_V_PERM_B32: LOOP(
		uint64_t v = (uint64_t)a[l] << 32 | b[l]; uint32_t o = 0;
		for (int k = 0; k < 4; k++) {
			unsigned s = (c[l] >> (8 * k)) & 0xff, byte;
			if (s < 8) byte = (v >> (8 * s)) & 0xff;
			else if (s < 12) byte = ((v >> (16 * (s - 8) + 15)) & 1) ? 0xff : 0;
			else if (s == 12) byte = 0;
			else byte = 0xff;
			o |= byte << (8 * k);
		}
		d[l] = o); break;
	case I_V_LSHL_OR_B32: LOOP(d[l] = (a[l] << (b[l] & 31)) | c[l]); break;
	case I_V_AND_OR_B32: LOOP(d[l] = (a[l] & b[l]) | c[l]); break;
	case I_V_OR3_B32: LOOP(d[l] = a[l] | b[l] | c[l]); break;
	case I_V_BCNT_U32_B32: LOOP(d[l] = (uint32_t)__builtin_popcount(a[l]) + b[l]); break;
	case I_V_MBCNT_LO_U32_B32: LOOP(d[l] = (uint32_t)__builtin_popcount(a[l] & (uint32_t)((1ull << (l < 32 ? l : 32)) - 1)) + b[l]); break;
	case I_V_MBCNT_HI_U32_B32: LOOP(d[l] = (uint32_t)__builtin_popcount(a[l] & (uint32_t)(l <= 32 ? 0 : (1ull << (l - 32)) - 1)) + b[l]); break;
	case I_V_BFM_B32: LOOP(d[l] = (uint32_t)(((1ull << (a[l] & 31)) - 1) << (b[l] & 31))); break;
	default: return false;
	}
	return true;
}

/* Rows of the 32-bit integer types: arithmetic with carries and
 * saturation, 24-bit multiplies, bit fields, sums of absolute differences,
 * three-operand min/max/median, and the conversions from integers. */
static bool valu_i32(const Inst *in, Rows *rw)
{
	const uint32_t *a = rw->a, *b = rw->b, *c = rw->c, *dold = rw->dold;
	uint32_t *d = rw->d;
	switch (in->id) {
	case I_V_CVT_F32_I32: LOOP(d[l] = U((float)(int32_t)a[l])); rw->fres = true; break;
	case I_V_CVT_F32_U32: LOOP(d[l] = U((float)a[l])); rw->fres = true; break;
	case I_V_CVT_F32_UBYTE0: LOOP(d[l] = U((float)(a[l] & 0xff))); break;
	/* S0[3:0] as a signed 4-bit integer over 16: -0.5 .. 0.4375 */
	case I_V_CVT_OFF_F32_I4: LOOP(d[l] = U((float)((int32_t)((a[l] & 15) ^ 8) - 8) / 16.0f)); break;
	case I_V_CVT_F32_UBYTE1: LOOP(d[l] = U((float)((a[l] >> 8) & 0xff))); break;
	case I_V_CVT_F32_UBYTE2: LOOP(d[l] = U((float)((a[l] >> 16) & 0xff))); break;
	case I_V_CVT_F32_UBYTE3: LOOP(d[l] = U((float)(a[l] >> 24))); break;
	case I_V_MUL_I32_I24: LOOP(d[l] = (uint32_t)((int32_t)(a[l] << 8) >> 8) * (uint32_t)((int32_t)(b[l] << 8) >> 8)); break;
	case I_V_MUL_HI_I32_I24: LOOP(d[l] = (uint32_t)(((int64_t)((int32_t)(a[l] << 8) >> 8) * ((int32_t)(b[l] << 8) >> 8)) >> 32)); break;
	case I_V_MUL_U32_U24: LOOP(d[l] = (a[l] & 0xffffff) * (b[l] & 0xffffff)); break;
	case I_V_MUL_HI_U32_U24: LOOP(d[l] = (uint32_t)(((uint64_t)(a[l] & 0xffffff) * (b[l] & 0xffffff)) >> 32)); break;
	case I_V_MIN_I32: LOOP(d[l] = (int32_t)a[l] < (int32_t)b[l] ? a[l] : b[l]); break;
	case I_V_MAX_I32: LOOP(d[l] = (int32_t)a[l] > (int32_t)b[l] ? a[l] : b[l]); break;
	case I_V_MIN_U32: LOOP(d[l] = a[l] < b[l] ? a[l] : b[l]); break;
	case I_V_MAX_U32: LOOP(d[l] = a[l] > b[l] ? a[l] : b[l]); break;
	case I_V_ASHRREV_I32: LOOP(d[l] = (uint32_t)((int32_t)b[l] >> (a[l] & 31))); break;
	case I_V_ADD_CO_U32: LOOP(uint64_t s = (uint64_t)a[l] + b[l]; d[l] = (uint32_t)s; rw->carry |= (s >> 32) << l); break;
	case I_V_SUB_CO_U32: LOOP(d[l] = a[l] - b[l]; rw->carry |= (uint64_t)(b[l] > a[l]) << l); break;
	case I_V_SUBREV_CO_U32: LOOP(d[l] = b[l] - a[l]; rw->carry |= (uint64_t)(a[l] > b[l]) << l); break;
	case I_V_ADDC_CO_U32: LOOP(uint64_t s = (uint64_t)a[l] + b[l] + ((rw->vcc_in >> l) & 1); d[l] = (uint32_t)s; rw->carry |= (s >> 32) << l); break;
	case I_V_SUBB_CO_U32: LOOP(uint64_t s = (uint64_t)a[l] - b[l] - ((rw->vcc_in >> l) & 1); d[l] = (uint32_t)s; rw->carry |= (uint64_t)((s >> 32) != 0) << l); break;
	case I_V_SUBBREV_CO_U32: LOOP(uint64_t s = (uint64_t)b[l] - a[l] - ((rw->vcc_in >> l) & 1); d[l] = (uint32_t)s; rw->carry |= (uint64_t)((s >> 32) != 0) << l); break;
	/* dot4c accumulates into the destination */
	case I_V_DOT4C_I32_I8: LOOP(uint32_t acc = dold[l];
		for (int k = 0; k < 32; k += 8) acc += (uint32_t)((int8_t)(a[l] >> k) * (int8_t)(b[l] >> k));
		d[l] = acc); break;
	case I_V_ADD_U32: LOOP(d[l] = sat_u32(in, (uint64_t)a[l] + b[l])); break;
	case I_V_SUB_U32: LOOP(d[l] = sat_u32s(in, (int64_t)a[l] - b[l])); break;
	case I_V_SUBREV_U32: LOOP(d[l] = sat_u32s(in, (int64_t)b[l] - a[l])); break;
	case I_V_MAD_I32_I24: LOOP(d[l] = (uint32_t)((int32_t)(a[l] << 8) >> 8) * (uint32_t)((int32_t)(b[l] << 8) >> 8) + c[l]); break;
	case I_V_MAD_U32_U24: LOOP(d[l] = (a[l] & 0xffffff) * (b[l] & 0xffffff) + c[l]); break;
	case I_V_BFE_U32: LOOP(unsigned o = b[l] & 31, n = c[l] & 31; d[l] = n == 0 ? 0 : (a[l] >> o) & ((1u << n) - 1)); break;
	/* A field running past bit 31 takes the sign bit's copies (an
	 * arithmetic shift), as LLVM's constant folding of sbfe does. */
	case I_V_BFE_I32: LOOP(unsigned o = b[l] & 31, n = c[l] & 31;
		d[l] = n == 0 ? 0 : o + n < 32 ? (uint32_t)((int32_t)(a[l] << (32 - o - n)) >> (32 - n)) : (uint32_t)((int32_t)a[l] >> o)); break;
	/* sums of absolute differences; msad skips bytes whose S1 (reference) byte is 0 */
	case I_V_SAD_U8: case I_V_SAD_HI_U8: case I_V_MSAD_U8: LOOP(uint32_t acc = 0;
		for (int k = 0; k < 32; k += 8) {
			int x = (a[l] >> k) & 0xff, y = (b[l] >> k) & 0xff;
			if (in->id != I_V_MSAD_U8 || y)
				acc += (uint32_t)(x > y ? x - y : y - x);
		}
		d[l] = (in->id == I_V_SAD_HI_U8 ? acc << 16 : acc) + c[l]); break;
	case I_V_SAD_U16: LOOP(uint32_t acc = 0;
		for (int k = 0; k < 32; k += 16) { int x = (a[l] >> k) & 0xffff, y = (b[l] >> k) & 0xffff; acc += (uint32_t)(x > y ? x - y : y - x); }
		d[l] = acc + c[l]); break;
	case I_V_SAD_U32: LOOP(d[l] = (a[l] > b[l] ? a[l] - b[l] : b[l] - a[l]) + c[l]); break;
	case I_V_MIN3_I32: LOOP(int32_t x = (int32_t)a[l], y = (int32_t)b[l], z = (int32_t)c[l]; int32_t m = x < y ? x : y; d[l] = (uint32_t)(m < z ? m : z)); break;
	case I_V_MAX3_I32: LOOP(int32_t x = (int32_t)a[l], y = (int32_t)b[l], z = (int32_t)c[l]; int32_t m = x > y ? x : y; d[l] = (uint32_t)(m > z ? m : z)); break;
	case I_V_MED3_I32: LOOP(int32_t x = (int32_t)a[l], y = (int32_t)b[l], z = (int32_t)c[l]; int32_t lo = x < y ? x : y, hi = x < y ? y : x; int32_t m = hi < z ? hi : z; d[l] = (uint32_t)(lo > m ? lo : m)); break;
	case I_V_MIN3_U32: LOOP(uint32_t m = a[l] < b[l] ? a[l] : b[l]; d[l] = m < c[l] ? m : c[l]); break;
	case I_V_MAX3_U32: LOOP(uint32_t m = a[l] > b[l] ? a[l] : b[l]; d[l] = m > c[l] ? m : c[l]); break;
	case I_V_MED3_U32: LOOP(uint32_t lo = a[l] < b[l] ? a[l] : b[l], hi = a[l] < b[l] ? b[l] : a[l]; uint32_t m = hi < c[l] ? hi : c[l]; d[l] = lo > m ? lo : m); break;
	case I_V_XAD_U32: LOOP(d[l] = (a[l] ^ b[l]) + c[l]); break;
	case I_V_LSHL_ADD_U32: LOOP(d[l] = (a[l] << (b[l] & 31)) + c[l]); break;
	case I_V_ADD_LSHL_U32: LOOP(d[l] = (a[l] + b[l]) << (c[l] & 31)); break;
	case I_V_ADD3_U32: LOOP(d[l] = a[l] + b[l] + c[l]); break;
	case I_V_MUL_LO_U32: LOOP(d[l] = a[l] * b[l]); break;
	case I_V_MUL_HI_U32: LOOP(d[l] = (uint32_t)(((uint64_t)a[l] * b[l]) >> 32)); break;
	case I_V_MUL_HI_I32: LOOP(d[l] = (uint32_t)(((int64_t)(int32_t)a[l] * (int32_t)b[l]) >> 32)); break;
	case I_V_CVT_PK_U16_U32: LOOP(d[l] = (a[l] > 0xffff ? 0xffff : a[l]) | (b[l] > 0xffff ? 0xffff : b[l]) << 16); break;
	case I_V_CVT_PK_I16_I32: LOOP(
		int32_t x = (int32_t)a[l], y = (int32_t)b[l];
		x = x > 32767 ? 32767 : x < -32768 ? -32768 : x; y = y > 32767 ? 32767 : y < -32768 ? -32768 : y;
		d[l] = ((uint32_t)x & 0xffff) | ((uint32_t)y & 0xffff) << 16); break;
	case I_V_ADD_I32: LOOP(d[l] = sat_i32(in, (int64_t)(int32_t)a[l] + (int32_t)b[l])); break;
	case I_V_SUB_I32: LOOP(d[l] = sat_i32(in, (int64_t)(int32_t)a[l] - (int32_t)b[l])); break;
	default: return false;
	}
	return true;
}

/* Gather the sources, run the row type's family, apply the output
 * modifiers and write the result (and the carry out). */
static void exec_valu32(Emu *e, Wave *w, const Inst *in, Ctx *cx)
{
	const IsaInfo *r = &isa_info[in->id];
	IsaType t = (IsaType)r->type;
	uint64_t exec = w->exec;
	int ns = (r->src[0] > 0) + (r->src[1] > 0) + (r->src[2] > 0);
	Rows rw;
	uint32_t *a = rw.a, *b = rw.b, *c = rw.c, *d = rw.d;
	IsaType st[3] = {t, t, t};
	switch (in->id) {
	case I_V_LDEXP_F32: case I_V_LDEXP_F16: st[1] = T_I32; break;
	case I_V_CNDMASK_B32: st[2] = T_B32; break;
	case I_V_CVT_PKRTZ_F16_F32: break;
	case I_V_PACK_B32_F16: break;
	default: break;
	}
	for (int i = 0; i < ns && i < 3; i++)
		src32(e, w, in, i, st[i], i == 0 ? a : i == 1 ? b : c, cx, false);
	if (e->failed)
		return;
	if (is_f16ish(t) && (in->vop3 || in->fmt == FMT_VOP3) && in->id != I_V_PACK_B32_F16)
		for (int l = 0; l < 64; l++) {
			if (in->opsel & 1) a[l] >>= 16;
			if (in->opsel & 2) b[l] >>= 16;
			if (in->opsel & 4) c[l] >>= 16;
		}
	rw.vcc_in = rw.carry = 0;
	rw.fres = rw.r16 = false;
	if (r->flags & IF_VCCIN)
		rw.vcc_in = in->vop3 ? emu_sreg_read64(e, w, in->src[2]) : emu_sreg_read64(e, w, SRC_VCC_LO);
	rw.dold = emu_vreg_ok(e, w, in, in->dst, 1) ? vreg(w, in->dst) : NULL;
	if (!rw.dold)
		return;
	bool ok;
	switch (t) {
	case T_F32: ok = valu_f32(e, w, in, &rw); break;
	case T_F16: ok = valu_f16(in, &rw); break;
	case T_I16: case T_U16: case T_B16: ok = valu_i16(in, &rw); break;
	case T_B32: ok = valu_b32(e, w, in, &rw); break;
	default: ok = valu_i32(in, &rw); break; /* T_I32, T_U32 */
	}
	if (!ok) {
		emu_fail(e, w, in, "unimplemented instruction %s", emu_inst_name(in));
		return;
	}
	if (rw.fres && (in->omod || in->clamp))
		LOOP(d[l] = U(omod_clamp_f(in, F(d[l]))));
	if (rw.r16 && (in->omod || in->clamp) && t == T_F16)
		LOOP(d[l] = UH(omod_clamp_f(in, H(d[l]))));
	uint64_t m = exec & cx->wmask;
	/* bound_ctrl lanes (invalid source, computed from 0) stay in wmask;
	 * lanes that row_mask/bank_mask disable are never written. */
	if (r->flags & IF_VCCOUT) {
		unsigned sd = in->vop3 ? in->sdst : SRC_VCC_LO;
		emu_sreg_write64(e, w, sd, rw.carry & exec);
	}
	if (in->id == I_V_DIV_SCALE_F32)
		emu_sreg_write64(e, w, in->sdst, rw.carry & exec);
	write32(e, w, in, in->dst, d, m, rw.r16);
}

/* Dispatch by format and operand widths: compares, the lane operations,
 * packed math, 64-bit operands, then 32/16-bit rows by row type. */
void emu_exec_valu(Emu *e, Wave *w, const Inst *in)
{
	const IsaInfo *r = &isa_info[in->id];
	Ctx cx = {~0ull, 0};
	if ((r->flags & IF_GFX950) && e->arch != EMU_GFX950) {
		emu_fail(e, w, in, "%s is a gfx950 instruction (the code object is for another processor)",
			emu_inst_name(in));
		return;
	}
	if (in->fmt == FMT_VOPC)
		exec_vopc(e, w, in, &cx);
	else if (exec_lane_op(e, w, in, &cx))
		return;
	else if (in->fmt == FMT_VOP3P && r->src[0] == 2)
		exec_pk_f32(e, w, in);
	else if (in->fmt == FMT_VOP3P)
		exec_pk16(e, w, in, &cx);
	else if (r->src[0] == 2 || r->src[1] == 2 || r->src[2] == 2 || r->dst == 2)
		exec_valu64(e, w, in, &cx);
	else
		exec_valu32(e, w, in, &cx);
}
