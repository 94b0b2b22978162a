/* math.c — f32 sequences for the unary ops the hardware has no exact
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
