/* compare.c — comparisons, select and conversions to and from i1.
 *
 * An i1 value is one VGPR per element holding 0 or 1 (elt.h). A
 * comparison writes the lane mask to vcc (v_cmp_*_e32), keeps it in an
 * SGPR pair and turns it into 0/1 with v_cndmask_b32; select reads the
 * pair when it is still known (elt.c: the last few masks made), else turns
 * its condition back into vcc (v_cmp_ne_u32 0, c), and picks with
 * v_cndmask_b32. Keeping masks as words lets i1 values broadcast, be
 * loop-carried and cross blocks like any other value; the pairs spare the
 * selects of a mask made nearby the way back.
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
	const TVal *a = isel_elt_operand(s, op, 0), *b = a ? isel_elt_operand(s, op, 1) : NULL;
	if (!a || !b)
		return s->c->failed;
	MOp m = a->dtype == b->dtype ? cmp_op(op->kind, a->dtype) : 0;
	if (!m)
		return false;
	bool fl = dtype_is_float(a->dtype);
	int64_t n = ix->ncopies * ix->epc;
	TVal *r = isel_elt_new(s, DT_I1, n, ix);
	for (int64_t e = 0; e < n; e++) {
		MOpnd x = fl ? isel_elt_f32(s, a, e) : isel_vgpr(s, a->d[e]), y = fl ? isel_elt_f32(s, b, e) : isel_vgpr(s, b->d[e]);
		isel_elt_cmp(s, m, x, y);
		r->d[e] = isel_elt_i1_from_vcc(s);
	}
	s->val[op_result(op)->id] = r;
	return true;
}

/* vcc = c != 0, unless vcc holds that already (*last). */
static void cond_to_vcc(Isel *s, MOpnd c, MOpnd *last)
{
	if (last->kind && memcmp(last, &c, sizeof c) == 0)
		return;
	isel_elt_cmp(s, I_V_CMP_NE_U32, mo_imm(0), c);
	*last = c;
}

/* c ? yes : no. When c's lane mask is still in its SGPR pair (elt.c), the
 * VOP3 v_cndmask reads the pair: no compare back into vcc, and the pair
 * (a SALU copy) makes no VALU-writes-SGPR wait. The pair is the one
 * constant-bus read VOP3 allows on gfx9, so no and yes must be VGPRs (they
 * are: isel_vgpr) or inline constants. */
static MOpnd pick(Isel *s, MOpnd c, MOpnd no, MOpnd yes, MOpnd *last)
{
	MOpnd p;
	if (!isel_elt_i1_mask(s, c, &p) || !mo_is_reg(no) || !mo_is_reg(yes) || rc_file(no.rc) != RF_VGPR ||
		rc_file(yes.rc) != RF_VGPR) {
		cond_to_vcc(s, c, last);
		return isel_elt_cnd(s, no, yes);
	}
	MOpnd d = isel_v1(s), u[3] = {no, yes, p};
	mblock_add(s->b, I_V_CNDMASK_B32, 1, &d, 3, u)->flags |= MIF_E64;
	return d;
}

/* The constant of an i1 value the plan folded (passes/plan/fold_mask.c),
 * seen through i1-to-i1 casts, broadcasts and permutes (which move or
 * repeat elements, never change them): 1, 0, or -1 when not known. */
static int i1_known(const Isel *s, const Value *v)
{
	const int8_t *konst = s->plan->konst;
	while (v->kind == VAL_RESULT) {
		const Op *d = v->def;
		bool through = d->kind == OP_BROADCAST || d->kind == OP_PERMUTE ||
			       (d->kind == OP_CAST && d->nargs == 1 && d->args[0]->dtype == DT_I1 && v->dtype == DT_I1);
		if (!through)
			break;
		v = d->args[0];
	}
	if (v->kind != VAL_RESULT || v->dtype != DT_I1)
		return -1;
	return konst[v->id] == 2 ? 1 : konst[v->id] == 1 ? 0 : -1;
}

/* select with a condition the plan folded: the chosen operand when it
 * is a splat in VGPRs, as a splat repeating its first register (so that a
 * loop carrying the result copies it, isel.c tval_aliased, rather than
 * rewriting a register the operand's other readers share); false when not
 * so (the select is lowered). */
static bool select_known(Isel *s, Op *op)
{
	int k = i1_known(s, op->args[0]);
	if (k < 0)
		return false;
	const TVal *v = isel_elt_operand(s, op, k ? 1 : 2);
	if (!v || !v->splat || v->nd < 1 || !mo_is_reg(v->d[0]) || rc_file(v->d[0].rc) != RF_VGPR)
		return false;
	TVal *r = ARENA_NEW(&s->c->arena, TVal);
	*r = *v;
	r->ix = s->c->index[op->id];
	r->d = ARENA_NEWN(&s->c->arena, MOpnd, v->nd);
	for (int i = 0; i < v->nd; i++)
		r->d[i] = v->d[0];
	s->val[op_result(op)->id] = r;
	return true;
}

bool isel_select_select(Isel *s, Op *op)
{
	if (select_known(s, op))
		return true;
	const NodeIndex *ix = s->c->index[op->id];
	const TVal *c = isel_elt_operand(s, op, 0), *t = c ? isel_elt_operand(s, op, 1) : NULL;
	const TVal *f = t ? isel_elt_operand(s, op, 2) : NULL;
	if (!c || !t || !f)
		return s->c->failed;
	if (c->dtype != DT_I1 || t->dtype != f->dtype || t->packed != f->packed || t->nd != f->nd ||
		dtype_size(t->dtype) == 1)
		return false;
	TVal *r = isel_elt_new(s, t->dtype, t->n, ix);
	r->packed = t->packed;
	r->nd = t->nd;
	MOpnd last = {0};
	bool pair = t->packed && dtype_size(t->dtype) == 2;
	for (int i = 0; i < r->nd; i++) {
		int64_t e0 = pair ? 2 * (int64_t)i : i;
		MOpnd yes = isel_vgpr(s, t->d[i]), no = isel_vgpr(s, f->d[i]);
		MOpnd lo = pick(s, c->d[e0], no, yes, &last);
		if (!pair || e0 + 1 >= t->n || memcmp(&c->d[e0], &c->d[e0 + 1], sizeof(MOpnd)) == 0) {
			r->d[i] = lo;
			continue;
		}
		MOpnd hi = pick(s, c->d[e0 + 1], no, yes, &last);
		r->d[i] = isel_elt_pack_halves(s, lo, false, hi, true);
	}
	s->val[op_result(op)->id] = r;
	return true;
}

