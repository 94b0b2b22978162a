/* reduce_elem.c — the element arithmetic of reductions (reduce.h): 16-bit
 * floats widened to f32 and rounded back after every sum, so that each
 * step equals the dtype's own addition (f32 holds a sum of two f16 or bf16
 * values closely enough that rounding it again to the 16-bit type is the
 * correctly rounded result: 24 >= 2*11+2 bits), as the interpreter and
 * Wave's f16 arithmetic compute it. Max and min of widened values are
 * exact. i32 sums wrap, as the interpreter's int32 rounding does. */
#include "reduce.h"

bool isel_red_dtype_ok(DType t) { return t == DT_F32 || t == DT_F16 || t == DT_BF16 || t == DT_I32; }

static MOpnd add1(Isel *s, MOp op, MOpnd a, MOpnd b)
{
	MOpnd r = isel_v1(s), u[2] = {a, b};
	mblock_add(s->b, op, 1, &r, 2, u);
	return r;
}

MOpnd isel_red_elem(Isel *s, RedArith *ra, const TVal *v, int64_t e)
{
	int per = isel_per_dword(v);
	MOpnd d = isel_vgpr(s, v->d[e / per]);
	bool hi = per == 2 && e % 2;
	switch (v->dtype) {
	case DT_F16: {
		if (hi)
			d = add1(s, I_V_LSHRREV_B32, mo_imm(16), d);
		MOpnd r = isel_v1(s);
		mblock_add(s->b, I_V_CVT_F32_F16, 1, &r, 1, &d);
		return r;
	}
	case DT_BF16: /* the bf16 bits on top of an f32 */
		return hi ? add1(s, I_V_AND_B32, mo_imm((int64_t)0xffff0000), d) : add1(s, I_V_LSHLREV_B32, mo_imm(16), d);
	default:
		(void)ra;
		return d;
	}
}

/* x (an f32 in a VGPR) rounded to bf16 to nearest even, NaN kept quiet:
 * the bf16 bits on top, zeros below (LLVM's expansion: no bf16 convert on
 * gfx9). */
static MOpnd round_bf16(Isel *s, RedArith *ra, MOpnd x)
{
	if (ra->k7fff.kind != MO_VREG) { /* VOP3 takes no literal on gfx9 */
		ra->k7fff = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1);
		MOpnd u = mo_imm(0x7fff);
		mblock_add(s->b, I_S_MOV_B32, 1, &ra->k7fff, 1, &u);
	}
	MOpnd lsb = isel_v1(s), u3[3] = {x, mo_imm(16), mo_imm(1)};
	mblock_add(s->b, I_V_BFE_U32, 1, &lsb, 3, u3);
	MOpnd up = isel_v1(s), a3[3] = {x, ra->k7fff, lsb};
	mblock_add(s->b, I_V_ADD3_U32, 1, &up, 3, a3);
	MOpnd q = add1(s, I_V_OR_B32, mo_imm(0x400000), x);
	MOpnd vcc = mo_special(MO_VCC), c[2] = {x, x};
	mblock_add(s->b, I_V_CMP_U_F32, 1, &vcc, 2, c)->flags |= MIF_E32;
	MOpnd d = isel_v1(s), m[3] = {up, q, mo_special(MO_VCC)};
	mblock_add(s->b, I_V_CNDMASK_B32, 1, &d, 3, m)->flags |= MIF_E32;
	return add1(s, I_V_AND_B32, mo_imm((int64_t)0xffff0000), d);
}

/* x rounded to the dtype and widened again (sums of 16-bit values). */
static MOpnd round_to(Isel *s, RedArith *ra, MOpnd x)
{
	if (ra->kind != OP_SUM)
		return x;
	if (ra->dtype == DT_BF16)
		return round_bf16(s, ra, x);
	if (ra->dtype != DT_F16)
		return x;
	MOpnd h = isel_v1(s), r = isel_v1(s);
	mblock_add(s->b, I_V_CVT_F16_F32, 1, &h, 1, &x);
	mblock_add(s->b, I_V_CVT_F32_F16, 1, &r, 1, &h);
	return r;
}

MOpnd isel_red_combine(Isel *s, RedArith *ra, MOpnd a, MOpnd b, uint16_t dpp)
{
	MOp op;
	if (ra->dtype == DT_I32) {
		op = ra->kind == OP_SUM ? I_V_ADD_U32 : ra->kind == OP_MAX ? I_V_MAX_I32 : I_V_MIN_I32;
		if (dpp && op == I_V_MIN_I32) {
			/* v_min_i32 takes its DPP operand through a v_mov_b32_dpp:
			 * the DPP forms validated are add_u32, max_i32, mov_b32 */
			MOpnd t = isel_v1(s);
			mblock_add(s->b, I_V_MOV_B32, 1, &t, 1, &a)->dpp = dpp;
			a = t;
			dpp = 0;
		}
	} else {
		op = ra->kind == OP_SUM ? I_V_ADD_F32 : ra->kind == OP_MAX ? I_V_MAX_F32 : I_V_MIN_F32;
	}
	MOpnd r = isel_v1(s), u[2] = {a, b};
	mblock_add(s->b, op, 1, &r, 2, u)->dpp = dpp;
	return round_to(s, ra, r);
}

MOp isel_red_op3(const RedArith *ra)
{
	/* max and min need no rounding (the larger of two values of the dtype
	 * is one of them), so three go into one instruction; the forms
	 * validated on the emulator against clang (tests/validate/ints_test.c):
	 * v_max3_f32, v_min3_f32, v_max3_i32 */
	if (ra->kind == OP_SUM)
		return 0;
	if (ra->dtype == DT_I32)
		return ra->kind == OP_MAX ? I_V_MAX3_I32 : 0;
	return ra->kind == OP_MAX ? I_V_MAX3_F32 : I_V_MIN3_F32;
}

MOpnd isel_red_combine3(Isel *s, RedArith *ra, MOpnd a, MOpnd b, MOpnd c)
{
	MOpnd r = isel_v1(s), u[3] = {a, b, c};
	mblock_add(s->b, isel_red_op3(ra), 1, &r, 3, u);
	return r;
}

MOpnd isel_red_identity(Isel *s, RedArith *ra)
{
	if (ra->ident.kind == MO_VREG) /* made once per op: cndmask takes no literal beside vcc */
		return ra->ident;
	uint32_t bits;
	if (ra->dtype == DT_I32)
		bits = ra->kind == OP_SUM ? 0 : ra->kind == OP_MAX ? 0x80000000u : 0x7fffffffu;
	else
		bits = ra->kind == OP_SUM ? 0 : ra->kind == OP_MAX ? 0xff800000u : 0x7f800000u;
	MOpnd d = isel_v1(s), u = mo_imm((int64_t)bits);
	mblock_add(s->b, I_V_MOV_B32, 1, &d, 1, &u);
	return ra->ident = d;
}

/* Domain value x as the dtype's bits in the low half of a dword. */
static MOpnd narrow(Isel *s, RedArith *ra, MOpnd x)
{
	if (ra->dtype == DT_BF16)
		return add1(s, I_V_LSHRREV_B32, mo_imm(16), x);
	MOpnd h = isel_v1(s);
	mblock_add(s->b, I_V_CVT_F16_F32, 1, &h, 1, &x); /* exact: x is an f16 value */
	return h;
}

TVal *isel_red_result(Isel *s, RedArith *ra, const MOpnd *x, int64_t n, const NodeIndex *ix)
{
	TVal *r = isel_tval_new(s, ra->dtype, n, ix);
	if (ra->dtype == DT_F32 || ra->dtype == DT_I32) {
		for (int64_t e = 0; e < n; e++)
			r->d[e] = x[e];
		return r;
	}
	for (int i = 0; i < r->nd; i++) {
		int64_t e = r->packed ? 2 * i : i;
		MOpnd lo = isel_expr_to_vgpr(s, x[e]);
		if (!r->packed || e + 1 >= n) {
			r->d[i] = narrow(s, ra, lo);
			continue;
		}
		MOpnd hi = isel_expr_to_vgpr(s, x[e + 1]);
		if (ra->dtype == DT_BF16) { /* hi's low half is zero */
			r->d[i] = add1(s, I_V_OR_B32, narrow(s, ra, lo), hi);
		} else {
			r->d[i] = isel_v1(s);
			MOpnd u[2] = {narrow(s, ra, lo), narrow(s, ra, hi)};
			mblock_add(s->b, I_V_PACK_B32_F16, 1, &r->d[i], 2, u);
		}
	}
	return r;
}
