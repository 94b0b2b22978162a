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
 * the two elements of a dword have different conditions.
 *
 * Fused selects (in the body of a loop that holds an mma, attention's:
 * isel_pk_f32_loop): where a compare's result reaches
 * nothing but the conditions of 32-bit selects, through i1 casts,
 * broadcasts, permutes and and_ with other such compares or with a mask
 * the plan folded to true (causal attention's m >= k2 & k2 < K2), the
 * compare and those ops are selected as nothing (Isel.fused) and each
 * select computes its condition per element right where it picks: one
 * compare into vcc and v_cndmask_b32 (two VALU), or for an and_ of n
 * compares n compares into SGPR pairs, s_and_b64 and v_cndmask_b32 —
 * where the i1 words cost a compare, a v_cndmask into a word, an SGPR copy,
 * a v_and_b32 and a compare back into vcc per element. */
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

static bool fuse_compare(Isel *s, Op *op);

bool isel_select_compare(Isel *s, Op *op)
{
	if (fuse_compare(s, op))
		return true; /* each select computes it (select_fused) */
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

int isel_i1_known(const Isel *s, const Value *v) { return i1_known(s, v); }

/* In the main iterate of a split at causal attention's diagonal
 * (passes/plan/diag_split.c, split.c): does select sel's condition hold,
 * every element? (The plan marks the main body's selects; the tail's are
 * copies with ids of their own.) */
static bool diag_true(const Isel *s, const Op *sel)
{
	const Op *loop = sel->parent ? sel->parent->owner : NULL;
	return loop && loop->tail && s->plan->diag_true && sel->id < s->plan->nops && s->plan->diag_true[sel->id];
}

int isel_select_cond_known(const Isel *s, const Op *sel)
{
	return diag_true(s, sel) ? 1 : i1_known(s, sel->args[0]);
}

/* select with a condition the plan folded, or that holds in the main loop
 * of a split at causal attention's diagonal (isel.c): the chosen operand when it
 * is a splat in VGPRs, as a splat repeating its first register (so that a
 * loop carrying the result copies it, isel.c tval_aliased, rather than
 * rewriting a register the operand's other readers share); false when not
 * so (the select is lowered). */
static bool select_known(Isel *s, Op *op)
{
	int k = isel_select_cond_known(s, op);
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

/* ---- fused selects ---- */

/* Does the condition chain go on through op u, which reads v? An i1
 * cast, broadcast or permute of i1, or an and_ of i1 values. */
static bool through(const Op *u, const Value *v)
{
	if (v->dtype != DT_I1 || !op_result(u) || op_result(u)->dtype != DT_I1)
		return false;
	return u->kind == OP_BROADCAST || u->kind == OP_PERMUTE || u->kind == OP_CAST ||
	       (u->kind == OP_AND && u->nargs == 2);
}

/* Is every reader of v, in region r, a 32-bit select's condition or an op
 * the chain goes on through whose result is such a value too? The ops of
 * the chain go into ops (n of them, at most cap). */
static bool chain_ok(Isel *s, const Region *r, const Value *v, const Op **ops, int *n, int cap, int depth)
{
	if (depth > 8)
		return false;
	int seen = 0;
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *u = r->ops.data[i];
		for (int a = 0; a < u->nargs; a++) {
			if (u->args[a] != v)
				continue;
			seen++;
			if (u->kind == OP_SELECT) {
				const Value *t = u->args[1];
				if (a != 0 || dtype_size(t->dtype) != 4 || u->args[2]->dtype != t->dtype)
					return false;
				continue;
			}
			if (!through(u, v) || *n == cap)
				return false;
			bool dup = false;
			for (int k = 0; k < *n; k++)
				dup |= ops[k] == u;
			if (dup)
				continue;
			ops[(*n)++] = u;
			if (!chain_ok(s, r, op_result(u), ops, n, cap, depth + 1))
				return false;
		}
	}
	return seen > 0 && seen == s->uses[v->id];
}

/* Decide at compare op: are it and the chain after it fused (selected as
 * nothing, the selects computing the condition)? The other compares an
 * and_ of the chain joins whose results only the chain reads are fused
 * with it (marked now, before their turn); the and_s' other operands stay
 * values of their own (words), read by the selects. */
static bool fuse_compare(Isel *s, Op *op)
{
	enum { CAP = 16 };
	const Op *ops[CAP];
	int n = 0;
	if (!isel_pk_f32_loop(s, op) || s->masked || !chain_ok(s, op->parent, op_result(op), ops, &n, CAP, 0))
		return false;
	s->fused[op->id] = true;
	for (int k = 0; k < n; k++)
		s->fused[ops[k]->id] = true;
	for (int k = 0; k < n; k++)
		for (int a = 0; ops[k]->kind == OP_AND && a < 2; a++) {
			const Value *x = ops[k]->args[a];
			const Op *sub[CAP];
			int m = 0;
			if (x->kind == VAL_RESULT && op_is_compare(x->def->kind) && x->def->parent == op->parent &&
				!s->fused[x->def->id] && !s->val[x->id] && chain_ok(s, op->parent, x, sub, &m, CAP, 0))
				s->fused[x->def->id] = true;
		}
	return true;
}

/* A leaf of a fused condition: a fused compare, or an i1 value's words. */
typedef struct Leaf {
	const Value *v;
	const TVal *x, *y; /* a compare's operands, or the words, in the select's layout */
} Leaf;

/* The leaves of a fused condition v (an and_ tree through i1 casts,
 * broadcasts and permutes; values the plan folded true dropped), their
 * number; -1 when v is not a fused condition. */
static int fused_leaves(Isel *s, const Value *v, Leaf *leaf, int cap, bool top)
{
	while (v->kind == VAL_RESULT && (v->def->kind == OP_BROADCAST || v->def->kind == OP_PERMUTE ||
					  (v->def->kind == OP_CAST && v->def->args[0]->dtype == DT_I1)))
		v = v->def->args[0];
	if (i1_known(s, v) == 1)
		return 0;
	bool fused = v->kind == VAL_RESULT && s->fused[v->def->id];
	if (top && !fused)
		return -1;
	if (fused && v->def->kind == OP_AND) {
		int a = fused_leaves(s, v->def->args[0], leaf, cap, false);
		int b = a < 0 ? -1 : fused_leaves(s, v->def->args[1], leaf + a, cap - a, false);
		return b < 0 ? -1 : a + b;
	}
	if (cap < 1 || (fused && !op_is_compare(v->def->kind)) || (!fused && v->dtype != DT_I1))
		return -1;
	leaf[0] = (Leaf){.v = v};
	return 1;
}

/* Leaf l's lane mask for element e of the select's index, in a new SGPR
 * pair: the compare (VOP3), or the word compared with 0. The operands are
 * gathered to that index once. */
static bool leaf_mask(Isel *s, Op *sel, Leaf *l, int64_t e, MOpnd *pair)
{
	const NodeIndex *ix = s->c->index[sel->id];
	const Op *cmp = l->v->kind == VAL_RESULT && s->fused[l->v->def->id] ? l->v->def : NULL;
	if (!l->x) {
		const TVal *a = isel_elt_words(s, s->val[(cmp ? cmp->args[0] : l->v)->id]);
		const TVal *b = cmp ? isel_elt_words(s, s->val[cmp->args[1]->id]) : a;
		if (!a || !b || !(l->x = isel_tval_gather(s, a, ix, sel)) || !(l->y = isel_tval_gather(s, b, ix, sel)))
			return false;
	}
	MOp m = !cmp ? I_V_CMP_NE_U32 : l->x->dtype == l->y->dtype ? cmp_op(cmp->kind, l->x->dtype) : 0;
	if (!m)
		return false;
	bool fl = cmp && dtype_is_float(l->x->dtype);
	MOpnd a = !cmp ? mo_imm(0) : fl ? isel_elt_f32(s, l->x, e) : isel_vgpr(s, l->x->d[e]);
	MOpnd b = fl ? isel_elt_f32(s, l->y, e) : isel_vgpr(s, l->y->d[e]);
	*pair = mo_vreg(mfunc_vreg(s->f, RC_S2), RC_S2);
	MOpnd u[2] = {a, b};
	mblock_add(s->b, m, 1, pair, 2, u)->flags |= MIF_E64;
	return true;
}

static bool select_fused(Isel *s, Op *op)
{
	enum { CAP = 8 };
	Leaf leaf[CAP];
	int n = fused_leaves(s, op->args[0], leaf, CAP, true);
	if (n < 0)
		return false;
	if (n == 0) /* every leaf folded true */
		die("compare.c: a fused select of folded masks only");
	const NodeIndex *ix = s->c->index[op->id];
	const TVal *t = isel_elt_operand(s, op, 1), *f = t ? isel_elt_operand(s, op, 2) : NULL;
	if (!t || !f)
		return true; /* reported */
	if (t->packed || f->packed || t->nd != f->nd || dtype_size(t->dtype) != 4)
		die("compare.c: a fused select of operands chain_ok does not take");
	TVal *r = isel_elt_new(s, t->dtype, t->n, ix);
	/* element i's mask in an SGPR pair of its own (the leaves' pairs
	 * joined by s_and_b64), read LAG elements later: gfx942 wants two wait
	 * states between a VALU writing an SGPR and a VALU reading it
	 * (HZ_VALU_SGPR_VALU), which the compares of the elements between fill
	 * instead of s_nop */
	enum { LAG = 2 };
	MOpnd *mask = ARENA_NEWN(&s->c->arena, MOpnd, r->nd + 1);
	/* the results in aligned pairs, which packed f32 arithmetic on them
	 * takes as they are (pk_f32.c: the bias added to MFMA tuples) */
	uint32_t pair = 0;
	for (int i = 0; i < r->nd + LAG; i++) {
		if (i < r->nd) {
			MOpnd acc = {0};
			for (int k = 0; k < n; k++) {
				MOpnd p;
				if (!leaf_mask(s, op, &leaf[k], i, &p)) {
					if (!s->c->failed) /* chain_ok took a compare isel cannot */
						analysis_error(s->c, op->loc, "%s: its condition's compare is not compiled yet",
							op->path);
					return true;
				}
				if (acc.kind) {
					MOpnd d = mo_vreg(mfunc_vreg(s->f, RC_S2), RC_S2), u[2] = {acc, p};
					mblock_add(s->b, I_S_AND_B64, 1, &d, 2, u);
					p = d;
				}
				acc = p;
			}
			mask[i] = acc;
		}
		int e = i - LAG;
		if (e < 0)
			continue;
		if (e % 2 == 0 && e + 1 < r->nd)
			pair = mfunc_vreg(s->f, RC_V2);
		MOpnd d = e % 2 || e + 1 < r->nd ? mo_vsub(pair, e % 2, RC_V1) : isel_v1(s);
		MOpnd u[3] = {isel_vgpr(s, f->d[e]), isel_vgpr(s, t->d[e]), mask[e]};
		mblock_add(s->b, I_V_CNDMASK_B32, 1, &d, 3, u)->flags |= MIF_E64;
		r->d[e] = d;
	}
	s->val[op_result(op)->id] = r;
	return true;
}

bool isel_select_select(Isel *s, Op *op)
{
	if (select_known(s, op))
		return true;
	if (select_fused(s, op))
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

