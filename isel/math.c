/* math.c — f32 sequences for the float ops the hardware has no exact
 * instruction for, and integer arithmetic on 32-bit words.
 *
 * Float (f16 and bf16 come here through f32, which holds them exactly):
 *   rsqrt  v_rsq_f32; an input below 2^-126 is scaled by 2^24 first and
 *          the result by 2^12 (v_rsq_f32 reads a denormal as 0, as LLVM
 *          works around it);
 *   log    log2 (elementwise.c's, rescaled for denormals) times ln 2;
 *   tanh   |x| < 0.125: the odd Taylor polynomial to x^9 (relative
 *          error below 1e-11 there); else 1 - 2 / (e^(2|x|) + 1) with the
 *          sign of x put back (the cancellation costs a few ulps at
 *          |x| = 0.125 and nothing for large |x|, where e^(2|x|) = inf
 *          gives exactly 1); tanh_approx is the same sequence;
 *   sin, cos  v_sin_f32 / v_cos_f32 take revolutions and are meant for
 *          [-256, 256] of them: x is reduced to r = x - 2*pi*k with
 *          k = rndne(x / 2pi) by a three-part Cody-Waite split of 2pi
 *          (each part an fma, so r keeps its accuracy for |k| up to 2^20,
 *          |x| up to about 6.5e6), then r / 2pi in [-0.5, 0.5] goes to
 *          the instruction; the error is a few 1e-7 absolute;
 *   log10  log2 times log10(2);
 *   roundeven  v_rndne_f32 (exact); round  trunc, plus copysign(1, x)
 *          where the exact remainder is at least a half (exact).
 * Binary: atan2, powf (below, each with its algorithm); remf, C's fmod,
 *   exactly: the dividend's mantissa reduced modulo the divisor's, 20 bits
 *   of exponent difference a step (isel_math_remf).
 * Integers (i32, u32; i1 as 0/1 words): add, sub, mul wrap modulo 2^32
 * (the interpreter's int32 rounding of the exact result, which it forms
 * exactly while |a*b| < 2^53); max/min signed or unsigned; and_ or_ on
 * the bits; floordiv, mod (floor semantics, the sign of the divisor) and
 * truediv (truncating) through an unsigned 32-bit division by the
 * reciprocal (v_rcp_iflag_f32 estimate, one Newton step in integers, two
 * corrections: exact for every 32-bit operand pair), division by 0 giving
 * 0 as in the interpreter. i1 arithmetic is logical (add/or/max: or,
 * mul/and/min: and, sub: xor). */
#include "elt.h"

static MOpnd sconst(Isel *s, uint32_t k)
{
	/* VOP3 takes no literal on gfx9: constants of fma go through an SGPR */
	MOpnd d = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), u = mo_imm(k);
	mblock_add(s->b, I_S_MOV_B32, 1, &d, 1, &u);
	return d;
}

static void mov_to(Isel *s, MOpnd d, MOpnd x) { mblock_add(s->b, I_V_MOV_B32, 1, &d, 1, &x); }

static MOpnd rsqrt_f32(Isel *s, MOpnd x)
{
	if (s->c->opts.f32_denorm_flush) /* a denormal may read as 0 (elt.c, flush_ok) */
		return isel_elt_op1(s, I_V_RSQ_F32, x);
	isel_elt_cmp(s, I_V_CMP_GT_F32, mo_imm(0x00800000u /* 2^-126 */), x);
	MOpnd pre = isel_elt_cnd(s, mo_imm(0x3f800000u), isel_elt_vconst_shared(s, 0x4b800000u /* 2^24 */));
	MOpnd post = isel_elt_cnd(s, mo_imm(0x3f800000u), isel_elt_vconst_shared(s, 0x45800000u /* 2^12 */));
	MOpnd r = isel_elt_op1(s, I_V_RSQ_F32, isel_elt_op2(s, I_V_MUL_F32, x, pre));
	return isel_elt_op2(s, I_V_MUL_F32, r, post);
}

static MOpnd tanh_f32(Isel *s, MOpnd x)
{
	MOpnd ax = isel_elt_op2(s, I_V_AND_B32, mo_imm(0x7fffffff), x);
	/* large: 1 - 2 / (e^(2|x|) + 1), sign of x or'ed back in */
	MOpnd e = isel_v1(s);
	isel_elt_exp2_f32(s, e, isel_elt_op2(s, I_V_MUL_F32, mo_imm(0x4038aa3bu /* 2 log2(e) */), ax));
	MOpnd q = isel_elt_op1(s, I_V_RCP_F32, isel_elt_op2(s, I_V_ADD_F32, mo_imm(0x3f800000u), e));
	MOpnd t = isel_elt_op3(s, I_V_FMA_F32, q, mo_imm(0xc0000000u /* -2.0 */), mo_imm(0x3f800000u /* 1.0 */));
	MOpnd sign = isel_elt_op2(s, I_V_AND_B32, mo_imm(0x80000000u), x);
	MOpnd big = isel_elt_op2(s, I_V_OR_B32, sign, t);
	/* small: x + x^3 (-1/3 + x^2 (2/15 + x^2 (-17/315 + x^2 62/2835))) */
	MOpnd x2 = isel_elt_op2(s, I_V_MUL_F32, x, x);
	MOpnd p = isel_elt_vconst(s, 0x3cb327a4u /* 62/2835 */);
	static const uint32_t c[] = {0xbd5d0dd1u /* -17/315 */, 0x3e088889u /* 2/15 */, 0xbeaaaaabu /* -1/3 */};
	for (int i = 0; i < 3; i++)
		p = isel_elt_op3(s, I_V_FMA_F32, p, x2, sconst(s, c[i]));
	MOpnd small = isel_elt_op3(s, I_V_FMA_F32, x, isel_elt_op2(s, I_V_MUL_F32, x2, p), x);
	isel_elt_cmp(s, I_V_CMP_GT_F32, mo_imm(0x3e000000u /* 0.125 */), ax);
	return isel_elt_cnd(s, big, small);
}

/* sin or cos of x (see the file comment for the reduction). */
static MOpnd sincos_f32(Isel *s, MOp op, MOpnd x)
{
	MOpnd k = isel_elt_op1(s, I_V_RNDNE_F32, isel_elt_op2(s, I_V_MUL_F32, mo_imm(0x3e22f983u /* 1/2pi */), x));
	static const uint32_t negc[] = {0xc0c90fdbu, 0x343bbd2eu, 0x27f72cedu}; /* -(2pi split in three) */
	MOpnd r = x;
	for (int i = 0; i < 3; i++)
		r = isel_elt_op3(s, I_V_FMA_F32, k, sconst(s, negc[i]), r);
	return isel_elt_op1(s, op, isel_elt_op2(s, I_V_MUL_F32, mo_imm(0x3e22f983u), r));
}

/* sinh: |x| < 1: the odd Taylor polynomial to x^11 (the next term is
 * below 2e-10 relative); else h - 1/(4h) with h = e^|x| / 2 =
 * 2^(|x| log2(e) - 1), the exponent formed by two fmas over a split
 * log2(e) (so that h is finite up to sinh's own overflow, |x| ~ 89.4), the
 * sign of x put back. */
static MOpnd sinh_f32(Isel *s, MOpnd x)
{
	MOpnd ax = isel_elt_op2(s, I_V_AND_B32, mo_imm(0x7fffffff), x);
	/* past 128 sinh is infinite anyway (and inf would make f NaN) */
	MOpnd ac = isel_elt_op2(s, I_V_MIN_F32, isel_elt_vconst(s, 0x43000000u /* 128 */), ax);
	MOpnd lhi = sconst(s, 0x3fb8aa3bu /* log2(e), high */);
	MOpnd n = isel_elt_op1(s, I_V_RNDNE_F32, isel_elt_op3(s, I_V_FMA_F32, ac, lhi, mo_imm(0xbf800000u /* -1 */)));
	MOpnd n1 = isel_elt_op2(s, I_V_XOR_B32, mo_imm(0x80000000u), isel_elt_op2(s, I_V_ADD_F32, mo_imm(0x3f800000u), n));
	MOpnd f = isel_elt_op3(s, I_V_FMA_F32, ac, lhi, n1); /* |f| <= 1/2: one small rounding */
	f = isel_elt_op3(s, I_V_FMA_F32, ac, sconst(s, 0x32a57060u /* log2(e) - high */), f);
	MOpnd ef = isel_v1(s);
	isel_elt_exp2_f32(s, ef, f);
	MOpnd h = isel_elt_op2(s, I_V_LDEXP_F32, ef, isel_elt_op1(s, I_V_CVT_I32_F32, n));
	MOpnd big = isel_elt_op3(s, I_V_FMA_F32, isel_elt_op1(s, I_V_RCP_F32, h), sconst(s, 0xbe800000u /* -0.25 */), h);
	big = isel_elt_op2(s, I_V_OR_B32, isel_elt_op2(s, I_V_AND_B32, mo_imm(0x80000000u), x), big);
	/* small: x + x^3 (1/3! + x^2 (1/5! + x^2 (1/7! + x^2 (1/9! + x^2 / 11!)))) */
	MOpnd x2 = isel_elt_op2(s, I_V_MUL_F32, x, x);
	MOpnd p = isel_elt_vconst(s, 0x32d7322bu /* 1/11! */);
	static const uint32_t c[] = {0x3638ef1du /* 1/9! */, 0x39500d01u /* 1/7! */, 0x3c088889u /* 1/5! */,
		0x3e2aaaabu /* 1/3! */};
	for (int i = 0; i < 4; i++)
		p = isel_elt_op3(s, I_V_FMA_F32, p, x2, sconst(s, c[i]));
	MOpnd small = isel_elt_op3(s, I_V_FMA_F32, isel_elt_op2(s, I_V_MUL_F32, x, x2), p, x);
	isel_elt_cmp(s, I_V_CMP_GT_F32, mo_imm(0x3f800000u /* 1.0 */), ax);
	MOpnd r = isel_elt_cnd(s, big, small);
	isel_elt_cmp(s, I_V_CMP_U_F32, x, x); /* v_min_f32 dropped a NaN */
	return isel_elt_cnd(s, r, x);
}

/* cbrt: y = 2^(log2|x| / 3) (both rescaled around denormals, elt.c), one
 * Newton step y + (|x|/y^2 - y)/3 = (2y + |x|/y^2)/3, the sign of x put
 * back. Where the step is NaN (|x| 0 or infinite: y^2 0 or inf) y stays;
 * a NaN x gives NaN either way. */
static MOpnd cbrt_f32(Isel *s, MOpnd x)
{
	MOpnd ax = isel_elt_op2(s, I_V_AND_B32, mo_imm(0x7fffffff), x);
	MOpnd l = isel_v1(s), y = isel_v1(s);
	isel_elt_log2_f32(s, l, ax);
	isel_elt_exp2_f32(s, y, isel_elt_op2(s, I_V_MUL_F32, mo_imm(0x3eaaaaabu /* 1/3 */), l));
	MOpnd q = isel_elt_op2(s, I_V_MUL_F32, ax, isel_elt_op1(s, I_V_RCP_F32, isel_elt_op2(s, I_V_MUL_F32, y, y)));
	MOpnd n = isel_elt_op2(s, I_V_MUL_F32, mo_imm(0x3eaaaaabu), isel_elt_op3(s, I_V_FMA_F32, y, mo_imm(0x40000000u /* 2 */), q));
	isel_elt_cmp(s, I_V_CMP_U_F32, n, n);
	MOpnd r = isel_elt_cnd(s, n, y);
	return isel_elt_op2(s, I_V_OR_B32, isel_elt_op2(s, I_V_AND_B32, mo_imm(0x80000000u), x), r);
}

/* round: halves away from zero. t = trunc(x), x - t is exact; where
 * |x - t| >= 0.5 add copysign(1, x), else keep t (and so its -0). */
static MOpnd round_f32(Isel *s, MOpnd x)
{
	MOpnd t = isel_elt_op1(s, I_V_TRUNC_F32, x);
	MOpnd d = isel_elt_op3(s, I_V_FMA_F32, t, mo_imm(0xbf800000u /* -1.0 */), x);
	MOpnd one = isel_elt_op2(s, I_V_OR_B32, mo_imm(0x3f800000u), isel_elt_op2(s, I_V_AND_B32, mo_imm(0x80000000u), x));
	MOpnd up = isel_elt_op2(s, I_V_ADD_F32, t, one);
	isel_elt_cmp(s, I_V_CMP_LE_F32, mo_imm(0x3f000000u /* 0.5 */), isel_elt_op2(s, I_V_AND_B32, mo_imm(0x7fffffff), d));
	return isel_elt_cnd(s, t, up);
}

bool isel_math_unary_f32(Isel *s, OpKind k, MOpnd d, MOpnd x)
{
	MOpnd r;
	switch (k) {
	case OP_RSQRT: r = rsqrt_f32(s, x); break;
	case OP_LOG: {
		MOpnd l = isel_v1(s);
		isel_elt_log2_f32(s, l, x);
		r = isel_elt_op2(s, I_V_MUL_F32, mo_imm(0x3f317218u /* ln 2 */), l);
		break;
	}
	case OP_LOG10: {
		MOpnd l = isel_v1(s);
		isel_elt_log2_f32(s, l, x);
		r = isel_elt_op2(s, I_V_MUL_F32, mo_imm(0x3e9a209bu /* log10(2) */), l);
		break;
	}
	case OP_ROUND: r = round_f32(s, x); break;
	case OP_TANH: case OP_TANH_APPROX: r = tanh_f32(s, x); break;
	case OP_SIN: r = sincos_f32(s, I_V_SIN_F32, x); break;
	case OP_COS: r = sincos_f32(s, I_V_COS_F32, x); break;
	case OP_ROUNDEVEN: r = isel_elt_op1(s, I_V_RNDNE_F32, x); break;
	case OP_SINH: r = sinh_f32(s, x); break;
	case OP_CBRT: r = cbrt_f32(s, x); break;
	default: return false;
	}
	mov_to(s, d, r);
	return true;
}

/* atan2(y, x): t = min(|x|, |y|) / max(|x|, |y|) in [0, 1] (both scaled
 * by a power of two first where the larger is tiny or huge; 1 where they
 * are equal, infinities included; 0 where both are 0); above tan(pi/12)
 * t' = (t - 1/sqrt 3) / (1 + t/sqrt 3) and pi/6 added, so that the odd
 * Taylor series of atan to t^15 sees |t'| <= tan(pi/12) (next term below
 * 2e-11); then pi/2 - a where |y| > |x|, pi - a where x's sign is set, and
 * y's sign. A NaN operand gives NaN (v_min/v_max would drop it). */
static MOpnd atan2_f32(Isel *s, MOpnd y, MOpnd x)
{
	MOpnd ax = isel_elt_op2(s, I_V_AND_B32, mo_imm(0x7fffffff), x);
	MOpnd ay = isel_elt_op2(s, I_V_AND_B32, mo_imm(0x7fffffff), y);
	MOpnd mn = isel_elt_op2(s, I_V_MIN_F32, ax, ay), mx = isel_elt_op2(s, I_V_MAX_F32, ax, ay);
	/* both scaled by 2^64 below 2^-64 and by 2^-64 above 2^64, so that
	 * v_rcp_f32 sees no denormal and makes none */
	isel_elt_cmp(s, I_V_CMP_GT_F32, sconst(s, 0x1f800000u /* 2^-64 */), mx);
	MOpnd sc = isel_elt_cnd(s, mo_imm(0x3f800000u), isel_elt_vconst(s, 0x5f800000u /* 2^64 */));
	isel_elt_cmp(s, I_V_CMP_LT_F32, sconst(s, 0x5f800000u), mx);
	sc = isel_elt_cnd(s, sc, isel_elt_vconst(s, 0x1f800000u));
	MOpnd t = isel_elt_op2(s, I_V_MUL_F32, isel_elt_op2(s, I_V_MUL_F32, sc, mn),
		isel_elt_op1(s, I_V_RCP_F32, isel_elt_op2(s, I_V_MUL_F32, sc, mx)));
	isel_elt_cmp(s, I_V_CMP_EQ_F32, mn, mx);
	t = isel_elt_cnd(s, t, isel_elt_vconst(s, 0x3f800000u));
	isel_elt_cmp(s, I_V_CMP_EQ_F32, mo_imm(0), mx);
	t = isel_elt_cnd(s, t, isel_elt_vconst(s, 0));
	MOpnd k = sconst(s, 0x3f13cd3au /* 1/sqrt 3 */);
	MOpnd tr = isel_elt_op2(s, I_V_MUL_F32, isel_elt_op2(s, I_V_SUB_F32, t, k),
		isel_elt_op1(s, I_V_RCP_F32, isel_elt_op3(s, I_V_FMA_F32, t, k, mo_imm(0x3f800000u))));
	isel_elt_cmp(s, I_V_CMP_LT_F32, sconst(s, 0x3e8930a3u /* tan(pi/12) */), t);
	MOpnd u = isel_elt_cnd(s, t, tr);
	MOpnd off = isel_elt_cnd(s, mo_imm(0), isel_elt_vconst(s, 0x3f060a92u /* pi/6 */));
	MOpnd u2 = isel_elt_op2(s, I_V_MUL_F32, u, u);
	MOpnd p = isel_elt_vconst(s, 0xbd888889u /* -1/15 */);
	static const uint32_t c[] = {0x3d9d89d9u /* 1/13 */, 0xbdba2e8cu /* -1/11 */, 0x3de38e39u /* 1/9 */,
		0xbe124925u /* -1/7 */, 0x3e4ccccdu /* 1/5 */, 0xbeaaaaabu /* -1/3 */};
	for (int i = 0; i < 6; i++)
		p = isel_elt_op3(s, I_V_FMA_F32, p, u2, sconst(s, c[i]));
	MOpnd a = isel_elt_op2(s, I_V_ADD_F32, isel_elt_op3(s, I_V_FMA_F32, isel_elt_op2(s, I_V_MUL_F32, u, u2), p, u), off);
	isel_elt_cmp(s, I_V_CMP_LT_F32, ax, ay);
	a = isel_elt_cnd(s, a, isel_elt_op2(s, I_V_SUB_F32, sconst(s, 0x3fc90fdbu /* pi/2 */), a));
	isel_elt_cmp(s, I_V_CMP_CLASS_F32, x, isel_elt_vconst_shared(s, 0x3c /* -inf, -normal, -denormal, -0 */));
	a = isel_elt_cnd(s, a, isel_elt_op2(s, I_V_SUB_F32, sconst(s, 0x40490fdbu /* pi */), a));
	a = isel_elt_op2(s, I_V_OR_B32, isel_elt_op2(s, I_V_AND_B32, mo_imm(0x80000000u), y), a);
	isel_elt_cmp(s, I_V_CMP_U_F32, x, isel_vgpr(s, y));
	return isel_elt_cnd(s, a, isel_elt_vconst(s, 0x7fc00000u));
}

/* powf(x, y): 2^p, p = y log2|x|, with the product's rounding error e
 * (an fma) put back as 2^p (1 + e ln 2); the sign of x where y is an odd
 * integer; NaN for a finite x < 0 and a y that is no integer; 1 where x is
 * 1, where y is +-0, and where |x| is 1 and y infinite (C's pow). The
 * error is v_log_f32's times |p| ln 2 (docs/compiler.md). */
static MOpnd powf_f32(Isel *s, MOpnd x, MOpnd y)
{
	MOpnd ax = isel_elt_op2(s, I_V_AND_B32, mo_imm(0x7fffffff), x);
	MOpnd l = isel_v1(s), m = isel_v1(s);
	isel_elt_log2_f32(s, l, ax);
	MOpnd p = isel_elt_op2(s, I_V_MUL_F32, y, l);
	MOpnd e = isel_elt_op3(s, I_V_FMA_F32, y, l, isel_elt_op2(s, I_V_XOR_B32, mo_imm(0x80000000u), p));
	isel_elt_exp2_f32(s, m, p);
	MOpnd r = isel_elt_op3(s, I_V_FMA_F32, m, isel_elt_op2(s, I_V_MUL_F32, sconst(s, 0x3f317218u /* ln 2 */), e), m);
	/* e is NaN where p is infinite: keep 2^p there */
	isel_elt_cmp(s, I_V_CMP_U_F32, r, r);
	r = isel_elt_cnd(s, r, m);
	/* 0 * inf (|x| 1, y infinite) with neither operand NaN: 1 */
	isel_elt_cmp(s, I_V_CMP_U_F32, p, p);
	MOpnd one = isel_elt_vconst(s, 0x3f800000u);
	MOpnd r1 = isel_elt_cnd(s, r, one);
	isel_elt_cmp(s, I_V_CMP_O_F32, x, isel_vgpr(s, y));
	r = isel_elt_cnd(s, r, r1);
	/* odd integers: trunc(y/2) != y/2 where y is an integer */
	MOpnd h = isel_elt_op2(s, I_V_MUL_F32, mo_imm(0x3f000000u /* 0.5 */), y);
	isel_elt_cmp(s, I_V_CMP_NEQ_F32, isel_elt_op1(s, I_V_TRUNC_F32, h), h);
	MOpnd sg = isel_elt_cnd(s, mo_imm(0), isel_elt_op2(s, I_V_AND_B32, mo_imm(0x80000000u), x));
	isel_elt_cmp(s, I_V_CMP_NEQ_F32, isel_elt_op1(s, I_V_TRUNC_F32, y), y); /* y no integer (nor inf, nor NaN) */
	sg = isel_elt_cnd(s, sg, isel_elt_vconst(s, 0));
	r = isel_elt_op2(s, I_V_OR_B32, sg, r);
	MOpnd bad = isel_elt_cnd(s, one, isel_vgpr(s, x)); /* x where y is no integer */
	isel_elt_cmp(s, I_V_CMP_CLASS_F32, bad, isel_elt_vconst_shared(s, 0x18 /* -normal, -denormal */));
	r = isel_elt_cnd(s, r, isel_elt_vconst(s, 0x7fc00000u));
	isel_elt_cmp(s, I_V_CMP_EQ_F32, mo_imm(0x3f800000u), x);
	r = isel_elt_cnd(s, r, one);
	isel_elt_cmp(s, I_V_CMP_EQ_F32, mo_imm(0), y);
	return isel_elt_cnd(s, r, one);
}

/* remf(x, y), C's fmod, exactly: with |x| = X 2^(ex-1), |y| = Y 2^(ey-1),
 * X and Y in [1, 2) (v_frexp_*, denormals included), fmod(|x|, |y|) =
 * 2^(ey-1) fmod(X 2^n, Y), n = ex - ey <= 276. r = X is reduced REMF_K
 * bits at a time: t = r 2^k (k = min(n, REMF_K), exact), q = rndne(t / Y)
 * through v_rcp_f32 (t / Y < 2^(REMF_K+1) and a relative error under
 * 1.5 2^-23, so q is within 0.375 of t / Y: never a whole step off), r =
 * t - q Y by one fma (exact: a multiple of 2^-23 below 2 in magnitude), + Y
 * where negative (exact), so r in [0, Y). Enough steps cover the
 * largest n (14 for f32, 2 for f16 operands); a lane with n used up repeats r unchanged (q 0, or 1 and the
 * correction undoing it). The result r 2^(ey-1) is exact (the remainder
 * of f32 operands is an f32, denormal or not), with x's sign. |x| < |y|
 * (y infinite, x zero) gives x; y zero or NaN, x infinite or NaN: NaN. */
enum { REMF_K = 20 };

/* max_n: the largest n the operands' type allows (276 for f32 and bf16;
 * f16 values lie in [2^-24, 2^16): 39), so ceil(max_n / REMF_K) steps. */
MOpnd isel_math_remf(Isel *s, MOpnd x, MOpnd y, int max_n)
{
	MOpnd ax = isel_elt_op2(s, I_V_AND_B32, mo_imm(0x7fffffff), x);
	MOpnd ay = isel_elt_op2(s, I_V_AND_B32, mo_imm(0x7fffffff), y);
	MOpnd r = isel_elt_op2(s, I_V_LDEXP_F32, isel_elt_op1(s, I_V_FREXP_MANT_F32, ax), mo_imm(1));
	MOpnd yy = isel_elt_op2(s, I_V_LDEXP_F32, isel_elt_op1(s, I_V_FREXP_MANT_F32, ay), mo_imm(1));
	MOpnd ey = isel_elt_op1(s, I_V_FREXP_EXP_I32_F32, ay);
	MOpnd n = isel_elt_op2(s, I_V_SUB_U32, isel_elt_op1(s, I_V_FREXP_EXP_I32_F32, ax), ey);
	MOpnd inv = isel_elt_op1(s, I_V_RCP_F32, yy);
	MOpnd negy = isel_elt_op2(s, I_V_XOR_B32, mo_imm(0x80000000u), yy);
	for (int i = 0; i < (max_n + REMF_K - 1) / REMF_K; i++) {
		MOpnd k = isel_elt_op2(s, I_V_MIN_I32, mo_imm(REMF_K), n);
		n = isel_elt_op2(s, I_V_SUB_U32, n, k);
		MOpnd t = isel_elt_op2(s, I_V_LDEXP_F32, r, k);
		MOpnd q = isel_elt_op1(s, I_V_RNDNE_F32, isel_elt_op2(s, I_V_MUL_F32, t, inv));
		r = isel_elt_op3(s, I_V_FMA_F32, q, negy, t);
		isel_elt_cmp(s, I_V_CMP_GT_F32, mo_imm(0), r);
		r = isel_elt_cnd(s, r, isel_elt_op2(s, I_V_ADD_F32, r, yy));
	}
	r = isel_elt_op2(s, I_V_LDEXP_F32, r, isel_elt_op2(s, I_V_ADD_U32, mo_imm((int64_t)-1), ey));
	r = isel_elt_op2(s, I_V_OR_B32, isel_elt_op2(s, I_V_AND_B32, mo_imm(0x80000000u), x), r);
	isel_elt_cmp(s, I_V_CMP_LT_F32, ax, ay);
	r = isel_elt_cnd(s, r, isel_vgpr(s, x));
	MOpnd qnan = isel_elt_vconst(s, 0x7fc00000u);
	isel_elt_cmp(s, I_V_CMP_CLASS_F32, x, isel_elt_vconst_shared(s, 0x207 /* NaNs, infinities */));
	r = isel_elt_cnd(s, r, qnan);
	isel_elt_cmp(s, I_V_CMP_CLASS_F32, y, isel_elt_vconst_shared(s, 0x63 /* NaNs, zeros */));
	return isel_elt_cnd(s, r, qnan);
}

/* Float floordiv and mod as the interpreter rounds them: q = floor(a / b)
 * with a / b the correctly rounded double quotient, a - b q with the
 * product and the difference each rounded in double, the result rounded
 * to f32 once. In f64 (a, b exact there): the IEEE division sequence
 * LLVM emits (v_div_scale_f64 of divisor and dividend, v_rcp_f64, two
 * Newton steps by v_fma_f64, the quotient and its residual, v_div_fmas_f64
 * under div_scale's vcc, v_div_fixup_f64 for the special cases), then
 * v_floor_f64, v_mul_f64 and v_add_f64, v_cvt_f32_f64 (round to nearest
 * even). Negation (no VOP3 modifiers here) flips the high dword's sign.
 * f16 and bf16 come through f32 and are rounded from it, as the
 * interpreter rounds a double to them (through f32: interp/tensor.c). */
static MOpnd v2(Isel *s) { return mo_vreg(mfunc_vreg(s->f, RC_V2), RC_V2); }

static MOpnd f64_op(Isel *s, MOp op, int n, MOpnd x, MOpnd y, MOpnd z)
{
	MOpnd d = v2(s), u[3] = {x, y, z};
	mblock_add(s->b, op, 1, &d, n, u);
	return d;
}

static MOpnd f64_neg(Isel *s, MOpnd x)
{
	uint32_t r = mfunc_vreg(s->f, RC_V2);
	MOpnd lo = mo_vsub(r, 0, RC_V1), hi = mo_vsub(r, 1, RC_V1);
	MOpnd xl = mo_vsub(x.reg, x.sub, RC_V1), xh = mo_vsub(x.reg, x.sub + 1, RC_V1);
	mblock_add(s->b, I_V_MOV_B32, 1, &lo, 1, &xl);
	MOpnd u[2] = {mo_imm(0x80000000u), xh};
	mblock_add(s->b, I_V_XOR_B32, 1, &hi, 2, u);
	return mo_vreg(r, RC_V2);
}

static MOpnd floordiv_mod_f32(Isel *s, OpKind k, MOpnd x, MOpnd y)
{
	MOpnd a = f64_op(s, I_V_CVT_F64_F32, 1, x, (MOpnd){0}, (MOpnd){0});
	MOpnd b = f64_op(s, I_V_CVT_F64_F32, 1, y, (MOpnd){0}, (MOpnd){0});
	uint32_t one_r = mfunc_vreg(s->f, RC_V2);
	MOpnd one_lo = mo_vsub(one_r, 0, RC_V1), one_hi = mo_vsub(one_r, 1, RC_V1), z = mo_imm(0);
	mblock_add(s->b, I_V_MOV_B32, 1, &one_lo, 1, &z);
	MOpnd k1 = mo_imm(0x3ff00000u /* 1.0's high dword */);
	mblock_add(s->b, I_V_MOV_B32, 1, &one_hi, 1, &k1);
	MOpnd one = mo_vreg(one_r, RC_V2);
	MOpnd sd[2] = {v2(s), mo_special(MO_VCC)}, u[3] = {b, b, a};
	mblock_add(s->b, I_V_DIV_SCALE_F64, 2, sd, 3, u);
	MOpnd nsd = f64_neg(s, sd[0]);
	MOpnd r = f64_op(s, I_V_RCP_F64, 1, sd[0], (MOpnd){0}, (MOpnd){0});
	for (int i = 0; i < 2; i++)
		r = f64_op(s, I_V_FMA_F64, 3, r, f64_op(s, I_V_FMA_F64, 3, nsd, r, one), r);
	MOpnd sn[2] = {v2(s), mo_special(MO_VCC)}, w[3] = {a, b, a};
	mblock_add(s->b, I_V_DIV_SCALE_F64, 2, sn, 3, w);
	MOpnd q = f64_op(s, I_V_MUL_F64, 2, sn[0], r, (MOpnd){0});
	MOpnd e = f64_op(s, I_V_FMA_F64, 3, nsd, q, sn[0]);
	q = f64_op(s, I_V_DIV_FMAS_F64, 3, e, r, q);
	q = f64_op(s, I_V_FLOOR_F64, 1, f64_op(s, I_V_DIV_FIXUP_F64, 3, q, b, a), (MOpnd){0}, (MOpnd){0});
	if (k == OP_MOD)
		q = f64_op(s, I_V_ADD_F64, 2, a, f64_neg(s, f64_op(s, I_V_MUL_F64, 2, b, q, (MOpnd){0})), (MOpnd){0});
	return isel_elt_op1(s, I_V_CVT_F32_F64, q);
}

bool isel_math_binary_f32(Isel *s, OpKind k, MOpnd d, MOpnd x, MOpnd y)
{
	MOpnd r;
	switch (k) {
	case OP_POWF: r = powf_f32(s, x, y); break;
	case OP_ATAN2: r = atan2_f32(s, x, y); break;
	case OP_REMF: r = isel_math_remf(s, x, y, 276); break;
	case OP_FLOORDIV: case OP_MOD: r = floordiv_mod_f32(s, k, x, y); break;
	default: return false;
	}
	mov_to(s, d, r);
	return true;
}

/* n / d and n % d, unsigned 32-bit, d != 0 (see the file comment). */
static void udivmod(Isel *s, MOpnd n, MOpnd d, MOpnd *q, MOpnd *r)
{
	MOpnd rcp = isel_elt_op1(s, I_V_RCP_IFLAG_F32, isel_elt_op1(s, I_V_CVT_F32_U32, d));
	MOpnd z = isel_elt_op1(s, I_V_CVT_U32_F32, isel_elt_op2(s, I_V_MUL_F32, mo_imm(0x4f7ffffeu /* 2^32 - 512 */), rcp));
	MOpnd nz = isel_elt_op2(s, I_V_MUL_LO_U32, isel_elt_op2(s, I_V_SUB_U32, mo_imm(0), d), z);
	z = isel_elt_op2(s, I_V_ADD_U32, isel_elt_op2(s, I_V_MUL_HI_U32, z, nz), z);
	*q = isel_elt_op2(s, I_V_MUL_HI_U32, n, z);
	*r = isel_elt_op2(s, I_V_SUB_U32, n, isel_elt_op2(s, I_V_MUL_LO_U32, *q, d));
	for (int i = 0; i < 2; i++) {
		isel_elt_cmp(s, I_V_CMP_GE_U32, *r, d);
		*q = isel_elt_cnd(s, *q, isel_elt_op2(s, I_V_ADD_U32, mo_imm(1), *q));
		*r = isel_elt_cnd(s, *r, isel_elt_op2(s, I_V_SUB_U32, *r, d));
	}
}

MOpnd isel_math_int_div(Isel *s, OpKind k, DType t, MOpnd a, MOpnd b)
{
	a = isel_expr_to_vgpr(s, a);
	b = isel_expr_to_vgpr(s, b);
	MOpnd q, r, res;
	if (t == DT_U32) {
		udivmod(s, a, b, &q, &r);
		res = k == OP_MOD ? r : q;
	} else {
		MOpnd sa = isel_elt_op2(s, I_V_ASHRREV_I32, mo_imm(31), a), sb = isel_elt_op2(s, I_V_ASHRREV_I32, mo_imm(31), b);
		MOpnd ua = isel_elt_op2(s, I_V_XOR_B32, sa, isel_elt_op2(s, I_V_ADD_U32, sa, a));
		MOpnd ub = isel_elt_op2(s, I_V_XOR_B32, sb, isel_elt_op2(s, I_V_ADD_U32, sb, b));
		udivmod(s, ua, ub, &q, &r);
		MOpnd sq = isel_elt_op2(s, I_V_XOR_B32, sa, sb); /* -1 when the signs differ */
		MOpnd qt = isel_elt_op2(s, I_V_SUB_U32, isel_elt_op2(s, I_V_XOR_B32, sq, q), sq);
		MOpnd rt = isel_elt_op2(s, I_V_SUB_U32, isel_elt_op2(s, I_V_XOR_B32, sa, r), sa);
		if (k == OP_TRUEDIV) {
			res = qt;
		} else {
			/* floor: a nonzero remainder with differing signs moves the
			 * quotient down by one and the remainder up by b */
			isel_elt_cmp(s, I_V_CMP_NE_U32, mo_imm(0), rt);
			if (k == OP_FLOORDIV)
				res = isel_elt_op2(s, I_V_ADD_U32, qt, isel_elt_cnd(s, mo_imm(0), sq));
			else
				res = isel_elt_op2(s, I_V_ADD_U32, rt, isel_elt_cnd(s, mo_imm(0), isel_elt_op2(s, I_V_AND_B32, sq, b)));
		}
	}
	isel_elt_cmp(s, I_V_CMP_NE_U32, mo_imm(0), b);
	return isel_elt_cnd(s, mo_imm(0), res);
}

/* One element of an integer binary op; {0} if op is not compiled. */
static MOpnd int_binary(Isel *s, OpKind k, DType t, MOpnd x, MOpnd y)
{
	if (t == DT_I1) {
		MOp m = k == OP_ADD || k == OP_OR || k == OP_MAXIMUM ? I_V_OR_B32
			: k == OP_MUL || k == OP_AND || k == OP_MINIMUM ? I_V_AND_B32 : k == OP_SUB ? I_V_XOR_B32 : 0;
		return m ? isel_elt_op2(s, m, x, y) : (MOpnd){0};
	}
	bool u = t == DT_U32;
	switch (k) {
	case OP_ADD: return isel_elt_op2(s, I_V_ADD_U32, x, y);
	case OP_SUB: return isel_elt_op2(s, I_V_SUB_U32, x, y);
	case OP_MUL: return isel_elt_op2(s, I_V_MUL_LO_U32, x, y);
	case OP_MAXIMUM: return isel_elt_op2(s, u ? I_V_MAX_U32 : I_V_MAX_I32, x, y);
	case OP_MINIMUM: return isel_elt_op2(s, u ? I_V_MIN_U32 : I_V_MIN_I32, x, y);
	case OP_AND: return isel_elt_op2(s, I_V_AND_B32, x, y);
	case OP_OR: return isel_elt_op2(s, I_V_OR_B32, x, y);
	case OP_FLOORDIV: case OP_MOD: case OP_TRUEDIV: return isel_math_int_div(s, k, t, x, y);
	default: return (MOpnd){0};
	}
}

bool isel_select_int_binary(Isel *s, Op *op, const TVal *a, const TVal *b, const NodeIndex *ix)
{
	TVal *r = isel_elt_new(s, a->dtype, a->n, ix);
	for (int i = 0; i < r->nd; i++) {
		r->d[i] = int_binary(s, op->kind, a->dtype, isel_vgpr(s, a->d[i]), isel_vgpr(s, b->d[i]));
		if (!r->d[i].kind)
			return false;
	}
	s->val[op_result(op)->id] = r;
	return true;
}

bool isel_select_int_unary(Isel *s, Op *op, const TVal *a)
{
	TVal *r = isel_elt_new(s, a->dtype, a->n, a->ix);
	for (int i = 0; i < r->nd; i++) {
		MOpnd x = isel_vgpr(s, a->d[i]);
		switch (op->kind) {
		case OP_NEG: /* an i1's -1 rounds back to 1 */
			r->d[i] = a->dtype == DT_I1 ? x : isel_elt_op2(s, I_V_SUB_U32, mo_imm(0), x);
			break;
		case OP_ABS: /* |INT_MIN| wraps to INT_MIN, as the interpreter's rounding */
			r->d[i] = a->dtype == DT_I32 ? isel_elt_op2(s, I_V_MAX_I32, isel_elt_op2(s, I_V_SUB_U32, mo_imm(0), x), x) : x;
			break;
		case OP_INVERT:
			r->d[i] = a->dtype == DT_I1 ? isel_elt_op2(s, I_V_XOR_B32, mo_imm(1), x) : isel_elt_op1(s, I_V_NOT_B32, x);
			break;
		default: return false;
		}
		if (memcmp(&r->d[i], &x, sizeof x) == 0) /* a fresh register: the result may be loop-carried */
			r->d[i] = isel_elt_op1(s, I_V_MOV_B32, x);
	}
	s->val[op_result(op)->id] = r;
	return true;
}
