/* compare.c — comparisons, select and conversions to and from i1.
 *
 * An i1 value is one VGPR per element holding 0 or 1 (elt.h). A
 * comparison writes the lane mask to vcc (v_cmp_*_e32) and turns it into
 * 0/1 with v_cndmask_b32; select turns its condition back into vcc
 * (v_cmp_ne_u32 0, c) and picks with v_cndmask_b32. Keeping masks as
 * words costs one instruction each way but lets i1 values broadcast, be
 * loop-carried and cross blocks like any other value.
 * Floats compare in f32 (f16 and bf16 convert exactly): lt le gt ge eq
 * are the ordered compares (false on NaN) and ne the unordered one (true
 * on NaN), as C's operators in the interpreter. i32 compares signed, u32
 * and i1 unsigned. A 16-bit select packs its halves with v_perm_b32 when
 * the two elements of a dword have different conditions. */
#include "elt.h"

static MOp cmp_op(OpKind k, DType t)
{
	static const MOp f32[] = {I_V_CMP_EQ_F32, I_V_CMP_NEQ_F32, I_V_CMP_LT_F32, I_V_CMP_LE_F32, I_V_CMP_GT_F32,
		I_V_CMP_GE_F32};
	/* equality is the same signed or not: the u32 rows, as clang emits */
	static const MOp i32[] = {I_V_CMP_EQ_U32, I_V_CMP_NE_U32, I_V_CMP_LT_I32, I_V_CMP_LE_I32, I_V_CMP_GT_I32,
		I_V_CMP_GE_I32};
	static const MOp u32[] = {I_V_CMP_EQ_U32, I_V_CMP_NE_U32, I_V_CMP_LT_U32, I_V_CMP_LE_U32, I_V_CMP_GT_U32,
		I_V_CMP_GE_U32};
	int i = k - OP_EQ; /* the compare rows: eq ne lt le gt ge */
	if (i < 0 || i > 5)
		return 0;
	if (t == DT_F32 || t == DT_F16 || t == DT_BF16)
		return f32[i];
	return t == DT_I32 ? i32[i] : t == DT_U32 || t == DT_I1 ? u32[i] : 0;
}

bool isel_select_compare(Isel *s, Op *op)
{
	const NodeIndex *ix = s->c->index[op->id];
	const TVal *a = elt_operand(s, op, 0), *b = a ? elt_operand(s, op, 1) : NULL;
	if (!a || !b)
		return s->c->failed;
	MOp m = a->dtype == b->dtype ? cmp_op(op->kind, a->dtype) : 0;
	if (!m)
		return false;
	bool fl = dtype_is_float(a->dtype);
	int64_t n = ix->ncopies * ix->epc;
	TVal *r = elt_new(s, DT_I1, n, ix);
	MOpnd one = elt_vconst(s, 1);
	for (int64_t e = 0; e < n; e++) {
		MOpnd x = fl ? elt_f32(s, a, e) : isel_vgpr(s, a->d[e]), y = fl ? elt_f32(s, b, e) : isel_vgpr(s, b->d[e]);
		elt_cmp(s, m, x, y);
		r->d[e] = elt_cnd(s, mo_imm(0), one);
	}
	s->val[op_result(op)->id] = r;
	return true;
}

/* vcc = c != 0, unless vcc holds that already (*last). */
static void cond_to_vcc(Isel *s, MOpnd c, MOpnd *last)
{
	if (last->kind && memcmp(last, &c, sizeof c) == 0)
		return;
	elt_cmp(s, I_V_CMP_NE_U32, mo_imm(0), c);
	*last = c;
}

bool isel_select_select(Isel *s, Op *op)
{
	const NodeIndex *ix = s->c->index[op->id];
	const TVal *c = elt_operand(s, op, 0), *t = c ? elt_operand(s, op, 1) : NULL;
	const TVal *f = t ? elt_operand(s, op, 2) : NULL;
	if (!c || !t || !f)
		return s->c->failed;
	if (c->dtype != DT_I1 || t->dtype != f->dtype || t->packed != f->packed || t->nd != f->nd ||
		dtype_size(t->dtype) == 1)
		return false;
	TVal *r = elt_new(s, t->dtype, t->n, ix);
	r->packed = t->packed;
	r->nd = t->nd;
	MOpnd last = {0};
	bool pair = t->packed && dtype_size(t->dtype) == 2;
	for (int i = 0; i < r->nd; i++) {
		int64_t e0 = pair ? 2 * (int64_t)i : i;
		MOpnd yes = isel_vgpr(s, t->d[i]), no = isel_vgpr(s, f->d[i]);
		cond_to_vcc(s, c->d[e0], &last);
		MOpnd lo = elt_cnd(s, no, yes);
		if (!pair || e0 + 1 >= t->n || memcmp(&c->d[e0], &c->d[e0 + 1], sizeof(MOpnd)) == 0) {
			r->d[i] = lo;
			continue;
		}
		cond_to_vcc(s, c->d[e0 + 1], &last);
		MOpnd hi = elt_cnd(s, no, yes);
		r->d[i] = elt_pack_halves(s, lo, false, hi, true);
	}
	s->val[op_result(op)->id] = r;
	return true;
}

/* 8-bit integers to i1: byte != 0 (the interpreter's rounding to i1),
 * each byte taken out of its dword first (packed four per dword, or one
 * in the low byte of its own, whose other bits are not promised). */
static TVal *bytes_to_i1(Isel *s, const TVal *a)
{
	TVal *r = elt_new(s, DT_I1, a->n, a->ix);
	MOpnd one = elt_vconst(s, 1);
	int per = isel_per_dword(a);
	for (int64_t e = 0; e < a->n; e++) {
		MOpnd b = elt_op3(s, I_V_BFE_U32, isel_vgpr(s, a->d[e / per]), mo_imm(8 * (uint32_t)(e % per)), mo_imm(8));
		elt_cmp(s, I_V_CMP_NE_U32, mo_imm(0), b);
		r->d[e] = elt_cnd(s, mo_imm(0), one);
	}
	return r;
}

TVal *elt_cast_i1(Isel *s, const TVal *a, DType to)
{
	if (a->dtype == to)
		return (TVal *)a;
	if (a->dtype == DT_I1) {
		if (to == DT_I32 || to == DT_U32) {
			/* 0 and 1 are the same words; fresh registers, as any result */
			TVal *r = elt_new(s, to, a->n, a->ix);
			for (int64_t e = 0; e < a->n; e++)
				r->d[e] = elt_op1(s, I_V_MOV_B32, a->d[e]);
			return r;
		}
		if (!dtype_is_float(to) || dtype_size(to) > 4 || dtype_size(to) < 2)
			return NULL;
		TVal *f = elt_new(s, DT_F32, a->n, a->ix);
		for (int64_t e = 0; e < a->n; e++)
			f->d[e] = elt_op1(s, I_V_CVT_F32_U32, a->d[e]);
		return to == DT_F32 ? f : elt_cast(s, f, to);
	}
	if (to != DT_I1)
		return NULL;
	bool fl = a->dtype == DT_F32 || a->dtype == DT_F16 || a->dtype == DT_BF16;
	if (a->dtype == DT_I8 || a->dtype == DT_U8)
		return bytes_to_i1(s, a);
	if (!fl && a->dtype != DT_I32 && a->dtype != DT_U32)
		return NULL;
	/* x != 0: NaN is true, -0 false, as the interpreter's rounding to i1 */
	TVal *r = elt_new(s, DT_I1, a->n, a->ix);
	MOpnd one = elt_vconst(s, 1);
	for (int64_t e = 0; e < a->n; e++) {
		elt_cmp(s, fl ? I_V_CMP_NEQ_F32 : I_V_CMP_NE_U32, mo_imm(0), fl ? elt_f32(s, a, e) : isel_vgpr(s, a->d[e]));
		r->d[e] = elt_cnd(s, mo_imm(0), one);
	}
	return r;
}
