/* fold_mask.c — boolean `apply_expr`s over `self_index` values that the
 * index ranges decide, and the `select`s they steer.
 *
 * Wave's attention masks the scores past the end of K2: k2_mask =
 * apply_expr(self_index(K2), x < K2), then select(k2_mask, 0, -inf) added to
 * the scores. Where K2 is a multiple of its tile the relation holds for
 * every element of every trip, yet each trip compared every element and
 * selected per lane (16 v_cmp, 32 v_cndmask and the coordinates' adds per
 * trip at Wave's shapes, about a sixth of the loop's VALU).
 *
 * isel_fold_apply_expr: when every register of a boolean apply_expr is a
 * self_index over a dim of the op's own index, element e's parameters are
 * its coordinates along those dims (index_coord, what the self_index value
 * gathered into the op's layout holds there); the relation with them
 * substituted, simplified under the analysis' assumptions (the launch and
 * loop ranges), is True or False for every element, or the fold does not
 * apply. A value decided the same way for all its elements is recorded
 * (Isel.konst), and its words are still made (v_mov of 0 or 1), for any
 * other reader; nothing reads them after the select below, and
 * coalesce_copies drops such dead VALU definitions.
 *
 * isel_i1_known: a condition value's constant, seen through i1-to-i1 casts,
 * broadcasts and permutes (which move or repeat elements, never change
 * them) to a recorded apply_expr. select.c's select with a known condition
 * is its chosen operand, with no instruction.
 *
 * Contract: a fold gives the values the lowered relation would, for every
 * element in every trip: the substitution is exact (the coordinates are the
 * self_index values), and the simplifier's True/False holds for every
 * value the assumptions allow. */
#include "elt.h"

/* The position of dim in ix, or -1. */
static int dim_pos(const NodeIndex *ix, const Sym *dim)
{
	for (int q = 0; q < ix->ndims; q++)
		if (ix->d[q].dim == dim)
			return q;
	return -1;
}

bool isel_fold_apply_expr(Isel *s, Op *op)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	const NodeIndex *ix = c->index[op->id];
	if (!s->konst || !ix || op_result(op)->dtype != DT_I1 || op->nparams != op->nargs || op->nargs < 1 ||
		op->nargs > 4)
		return false;
	int pos[4];
	for (int i = 0; i < op->nargs; i++) {
		const Value *a = op->args[i];
		if (a->kind != VAL_RESULT || a->def->kind != OP_SELF_INDEX || (pos[i] = dim_pos(ix, a->def->dim)) < 0)
			return false;
	}
	Sym *expr = kernel_subs(c->k, op->expr);
	if (sym_is_error(expr))
		return false;
	int64_t n = ix->ncopies * ix->epc;
	int known = 0; /* 1 false, 2 true, -1 mixed */
	for (int64_t e = 0; e < n; e++) {
		Sym *to[4];
		for (int i = 0; i < op->nargs; i++)
			to[i] = index_coord(c, ix, pos[i], e / ix->epc, e % ix->epc);
		Sym *v = sym_simplify(sc, sym_subs(sc, expr, op->nargs, op->params, to), c->assume);
		SymKind k = sym_kind(v);
		if (k != SYM_TRUE && k != SYM_FALSE)
			return false;
		int this = k == SYM_TRUE ? 2 : 1;
		known = !known ? this : known == this ? known : -1;
	}
	if (known <= 0)
		return false;
	TVal *w = isel_elt_new(s, DT_I1, n, ix);
	MOpnd one = isel_elt_op1(s, I_V_MOV_B32, mo_imm(known == 2));
	for (int64_t e = 0; e < n; e++)
		w->d[e] = one;
	w->splat = true;
	s->val[op_result(op)->id] = w;
	s->konst[op_result(op)->id] = (int8_t)known;
	return true;
}

int isel_i1_known(const Isel *s, const Value *v)
{
	while (s->konst && v->kind == VAL_RESULT) {
		const Op *d = v->def;
		bool through = d->kind == OP_BROADCAST || d->kind == OP_PERMUTE ||
			       (d->kind == OP_CAST && d->nargs == 1 && d->args[0]->dtype == DT_I1 && v->dtype == DT_I1);
		if (!through)
			break;
		v = d->args[0];
	}
	if (!s->konst || v->kind != VAL_RESULT || v->dtype != DT_I1)
		return -1;
	return s->konst[v->id] == 2 ? 1 : s->konst[v->id] == 1 ? 0 : -1;
}
