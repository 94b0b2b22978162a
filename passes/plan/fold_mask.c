/* fold_mask.c — boolean `apply_expr`s over `self_index` values that the
 * index ranges decide (a plan_loops step; isel translates the plan).
 *
 * Wave's attention masks the scores past the end of K2: k2_mask =
 * apply_expr(self_index(K2), x < K2), then select(k2_mask, 0, -inf) added to
 * the scores. Where K2 is a multiple of its tile the relation holds for
 * every element of every trip, yet each trip compared every element and
 * selected per lane (16 v_cmp, 32 v_cndmask and the coordinates' adds per
 * trip at Wave's shapes, about a sixth of the loop's VALU).
 *
 * Algorithm (plan_fold_masks, every apply_expr of the kernel): when every
 * register of a boolean apply_expr is a self_index over a dim of the op's
 * own index, element e's parameters are its coordinates along those dims
 * (index_coord, what the self_index value gathered into the op's layout
 * holds there); the relation with them substituted, simplified under the
 * analysis' assumptions (the launch and loop ranges), is True or False for
 * every element, or the fold does not apply. A value decided the same way
 * for all its elements is recorded in the plan (Plan.konst). Selection
 * (isel/index.c) still makes its words (v_mov of 0 or 1) for any other
 * reader, and a select whose condition is known (isel/compare.c, seen
 * through i1 casts, broadcasts and permutes) is its chosen operand, with
 * no instruction; coalesce_copies drops the dead words.
 *
 * Contract: a fold gives the values the lowered relation would, for every
 * element in every trip: the substitution is exact (the coordinates are the
 * self_index values), and the simplifier's True/False holds for every
 * value the assumptions allow. */
#include "plan.h"

/* The position of dim in ix, or -1. */
static int dim_pos(const NodeIndex *ix, const Sym *dim)
{
	for (int q = 0; q < ix->ndims; q++)
		if (ix->d[q].dim == dim)
			return q;
	return -1;
}

/* 1 (false) or 2 (true) when op decides every element alike, else 0. */
static int8_t fold(Analysis *c, const Op *op)
{
	SymCtx *sc = c->k->sc;
	const NodeIndex *ix = c->index[op->id];
	if (!ix || op_result((Op *)op)->dtype != DT_I1 || op->nparams != op->nargs || op->nargs < 1 || op->nargs > 4)
		return 0;
	int pos[4];
	for (int i = 0; i < op->nargs; i++) {
		const Value *a = op->args[i];
		if (a->kind != VAL_RESULT || a->def->kind != OP_SELF_INDEX || (pos[i] = dim_pos(ix, a->def->dim)) < 0)
			return 0;
	}
	Sym *expr = kernel_subs(c->k, op->expr);
	if (sym_is_error(expr))
		return 0;
	int64_t n = ix->ncopies * ix->epc;
	int known = 0; /* 1 false, 2 true, -1 mixed */
	for (int64_t e = 0; e < n; e++) {
		Sym *to[4];
		for (int i = 0; i < op->nargs; i++)
			to[i] = index_coord(c, ix, pos[i], e / ix->epc, e % ix->epc);
		Sym *v = sym_simplify(sc, sym_subs(sc, expr, op->nargs, op->params, to), c->assume);
		SymKind k = sym_kind(v);
		if (k != SYM_TRUE && k != SYM_FALSE)
			return 0;
		int this = k == SYM_TRUE ? 2 : 1;
		known = !known ? this : known == this ? known : -1;
	}
	return known > 0 ? (int8_t)known : 0;
}

void plan_fold_masks(Analysis *c, Region *r, int8_t *konst)
{
	for (size_t i = 0; i < r->ops.len && !c->failed; i++) {
		Op *op = r->ops.data[i];
		if (op->kind == OP_APPLY_EXPR)
			konst[op_result(op)->id] = fold(c, op);
		if (op->body)
			plan_fold_masks(c, op->body, konst);
	}
}
