/* index_expr.c — the minimum of `apply_expr` a conditional needs (Wave's
 * `apply_expr(reg, lambda x: x > 0)` makes its condition; test_apply_expr's
 * `M - x - 1` is the integer form): registers of i32 elements, one
 * expression per element.
 *
 * The expression is lowered by expr.c with each parameter symbol bound, for
 * the element at hand, to the register's dword: the binding is an entry of
 * the expression cache, dropped with everything lowered from it once the
 * element is done. A relation `x OP 0` (the symbolic engine's form) becomes
 * a VOPC compare into vcc and 0/1 in a dword (the i1 value); any other
 * expression its 32-bit integer value. The dispatcher asks this file only
 * after elementwise.c declined the op, so a fuller apply_expr there takes
 * precedence. Integer `scalar`s of an expression (scalar kernel arguments)
 * are here too, asked before elementwise.c, which has the constant ones. */
#include "isel.h"

/* Do a and b hold the same elements in the same order? */
static bool same_layout(Isel *s, const NodeIndex *a, const NodeIndex *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->ndims != b->ndims || a->ncopies != b->ncopies || a->epc != b->epc)
		return false;
	for (int i = 0; i < a->ndims; i++) {
		if (a->d[i].dim != b->d[i].dim)
			return false;
		for (int64_t cn = 0; cn < a->ncopies; cn++)
			for (int64_t e = 0; e < a->epc; e++)
				if (index_coord(s->c, a, i, cn, e) != index_coord(s->c, b, i, cn, e))
					return false;
	}
	return true;
}

/* vcc = (x OP 0) for relation kind k, x a VGPR holding an i32. VOPC wants
 * the VGPR second, so the constant goes first with the relation mirrored;
 * x >= 0 is -1 < x and x <= 0 is 1 > x. */
static void rel_to_vcc(Isel *s, SymKind k, MOpnd x)
{
	MOp op;
	int64_t kimm = 0;
	switch (k) {
	case SYM_GT: op = I_V_CMP_LT_I32; break;
	case SYM_GE: op = I_V_CMP_LT_I32, kimm = -1; break;
	case SYM_LT: op = I_V_CMP_GT_I32; break;
	case SYM_LE: op = I_V_CMP_GT_I32, kimm = 1; break;
	case SYM_EQ: op = I_V_CMP_EQ_U32; break;
	default: op = I_V_CMP_NE_U32; break;
	}
	MOpnd d = mo_special(MO_VCC), u[2] = {mo_imm(kimm), x};
	mblock_add(s->b, op, 1, &d, 2, u)->flags |= MIF_E32;
}

/* A 32-bit integer `scalar` whose value is an expression (a scalar kernel
 * argument's symbol, a size): computed in the entry block, which dominates
 * every use, into a VGPR; one naming a loop's trip, in the loop. */
static bool select_int_scalar(Isel *s, Op *op)
{
	const NodeIndex *ix = s->c->index[op->id];
	if (!op->expr || (op->dtype != DT_I32 && op->dtype != DT_U32) || !ix || ix->ndims != 0)
		return false;
	Sym *e = kernel_subs(s->c->k, op->expr);
	/* one that names an enclosing loop's trip (a while loop's axis,
	 * frontend/load_while.c: Wave's stream-K work unit) is computed where
	 * it is, in the loop */
	bool in_loop = false;
	if (s->iv_sym && sym_mentions(e, s->iv_sym))
		in_loop = true;
	for (int i = 0; i < s->nouter && !in_loop; i++)
		in_loop = sym_mentions(e, s->outer_sym[i]);
	MOpnd x = in_loop ? isel_expr_lower(s, e, op->loc) : isel_expr_lower_entry(s, e, op->loc);
	if (s->c->failed)
		return true;
	TVal *r = ARENA_NEW(&s->c->arena, TVal);
	*r = (TVal){.dtype = op->dtype, .n = 1, .nd = 1, .packed = false, .ix = ix};
	r->d = ARENA_NEWN(&s->c->arena, MOpnd, 1);
	MBlock *save = s->b;
	if (!in_loop)
		s->b = s->f->blocks.data[0];
	r->d[0] = isel_v1(s);
	mblock_add(s->b, I_V_MOV_B32, 1, &r->d[0], 1, &x);
	s->b = save;
	s->val[op_result(op)->id] = r;
	return true;
}

bool isel_select_index_expr(Isel *s, Op *op)
{
	Analysis *c = s->c;
	if (op->kind == OP_SCALAR)
		return select_int_scalar(s, op);
	if (op->kind != OP_APPLY_EXPR)
		return false;
	Value *res = op_result(op);
	const NodeIndex *ix = c->index[op->id];
	/* the kernel's symbol values in (M - x - 1 with M known) */
	Sym *ex = kernel_subs(c->k, op->expr);
	bool rel = sym_kind_is_rel(sym_kind(ex));
	if (!ix || (res->dtype == DT_I1) != (rel || sym_kind(ex) == SYM_TRUE || sym_kind(ex) == SYM_FALSE) ||
		(res->dtype != DT_I1 && res->dtype != DT_I32))
		return false;
	TVal **regs = ARENA_NEWN(&c->arena, TVal *, op->nargs + 1);
	for (int a = 0; a < op->nargs; a++) {
		regs[a] = s->val[op->args[a]->id];
		if (!regs[a] || regs[a]->dtype != DT_I32 || !same_layout(s, regs[a]->ix, ix))
			return false;
		regs[a] = isel_tval_in_vgprs(s, regs[a]);
	}
	int64_t n = ix->ncopies * ix->epc;
	TVal *r = isel_tval_new(s, res->dtype, n, ix);
	r->packed = false;
	r->nd = (int)n;
	r->d = ARENA_NEWN(&c->arena, MOpnd, n ? n : 1);
	MOpnd one = {0};
	MBlock *pre = s->pre;
	s->pre = NULL; /* the parameters are defined here, not before a loop */
	for (int64_t e = 0; e < n && !c->failed; e++) {
		size_t mark = s->cache.len;
		for (int a = 0; a < op->nargs; a++)
			vec_push(&s->cache, ((ExprCacheEnt){op->params[a], regs[a]->d[e]}));
		Sym *val = rel ? sym_arg(ex, 0) : sym_kind(ex) == SYM_TRUE ? sym_int(c->k->sc, 1)
				 : sym_kind(ex) == SYM_FALSE ? sym_int(c->k->sc, 0) : ex;
		MOpnd x = isel_expr_lower(s, val, op->loc);
		s->cache.len = mark;
		if (c->failed)
			break;
		x = isel_expr_to_vgpr(s, x);
		if (!rel) {
			r->d[e] = x;
			continue;
		}
		if (!one.kind) {
			one = isel_v1(s);
			MOpnd k1 = mo_imm(1);
			mblock_add(s->b, I_V_MOV_B32, 1, &one, 1, &k1);
		}
		rel_to_vcc(s, sym_kind(op->expr), x);
		r->d[e] = isel_v1(s);
		MOpnd u[3] = {mo_imm(0), one, mo_special(MO_VCC)};
		mblock_add(s->b, I_V_CNDMASK_B32, 1, &r->d[e], 3, u)->flags |= MIF_E32;
	}
	s->pre = pre;
	s->val[res->id] = r;
	return true;
}
