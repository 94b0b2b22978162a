/* diag_split.c — causal attention's loop split at the diagonal: a main
 * loop over the key tiles wholly below it, where the mask's selects pick
 * their unmasked operand with no compare, then the masked tail (a step of
 * plan_loops; isel/peel.c selects the two loops, isel/compare.c the
 * selects).
 *
 * Causal attention adds bias = select(m >= k2 [& k2 < K2], 0, C) to every
 * score. bound_masked_loops (passes/graph/mask_bound.c) stops the loop at
 * the workgroup's diagonal; of the trips left, all but the last few hold
 * only keys k2 <= the workgroup's first row, where the condition is True
 * for every element, yet each trip compared and selected per element (a
 * VOP3 compare and a v_cndmask per score: a third of the causal loop's
 * VALU at 32-key tiles).
 *
 * Algorithm, for a loop the plan would split (plan.c's conditions: an
 * outermost, unconditional loop from 0 without iters over a dim with no set
 * extent, whose body has no writes, atomics, nested regions, set_symbols
 * or mapped reads) and that no unaligned size splits already:
 *   1. the candidate: in the condition of a select of the body (its and_
 *      tree through i1 casts, broadcasts and permutes), a comparison of
 *      self_index(D) with self_index(K), K the loop's dim, that holds for
 *      k <= m + off (`m >= k`: off 0, `m > k`: -1, or written the other
 *      way round), D distributed over workgroups from wg_start: every key
 *      of trip iv is at most (iv + 1) T - 1, every row at least wg_start,
 *      so trips iv < L = floor((wg_start + off + 1) / T) hold it whole;
 *   2. the proof, per select of the body: every leaf of its condition is a
 *      mask the plan folded true (fold_mask.c) or a comparison of integer
 *      expressions of self_index values whose relation, at every element
 *      of the select's index (the coordinates, index_coord), holds in
 *      every trip of [0, L): the bound analysis of a loop's range
 *      (passes/graph/trip_range.c: the induction variable replaced by
 *      L - 1 - u, u >= 0, simplifies to True). Such a select is recorded
 *      (Plan.diag_true);
 *   3. when some select is and min(L, trips) is not a constant 0 or less
 *      (one row tile: no main trip anywhere), the loop is split
 *      (LoopPlan.diag): its main count is min(L, trips), computed before the loop (peel.c's runtime
 *      form: a guard skips each loop that runs no trip). The loads keep
 *      their bounds in both loops (the split proves nothing of them).
 *
 * Contract: in a trip of the main loop each recorded select gives its
 * if_true operand in every element, which is what the compares would pick:
 * the proof holds for every value the analysis' assumptions allow and the
 * induction variable takes exactly the values [0, min(L, trips)). */
#include "plan.h"

enum { MAX_LEAVES = 8 };

/* The self_index v stands for, through broadcasts, permutes and integer
 * casts of 4 bytes or more, or NULL. */
static const Op *self_index_of(const Value *v)
{
	while (v->kind == VAL_RESULT &&
	       (v->def->kind == OP_BROADCAST || v->def->kind == OP_PERMUTE ||
		       (v->def->kind == OP_CAST && !dtype_is_float(v->def->dtype) && dtype_size(v->def->dtype) >= 4 &&
			       !dtype_is_float(v->def->args[0]->dtype))))
		v = v->def->args[0];
	return v->kind == VAL_RESULT && v->def->kind == OP_SELF_INDEX ? v->def : NULL;
}

static bool is_order(OpKind k) { return k == OP_GE || k == OP_GT || k == OP_LE || k == OP_LT; }

/* The leaves of condition v (an and_ tree through i1 casts, broadcasts and
 * permutes; masks the plan folded true dropped): comparisons of two
 * self_index values. Their number, or -1 when some leaf is anything else. */
static int leaves(const Plan *p, const Value *v, const Op **leaf, int cap, int depth)
{
	while (v->kind == VAL_RESULT && (v->def->kind == OP_BROADCAST || v->def->kind == OP_PERMUTE ||
					  (v->def->kind == OP_CAST && v->def->args[0]->dtype == DT_I1)))
		v = v->def->args[0];
	if (v->kind != VAL_RESULT || depth > 16)
		return -1;
	if (v->dtype == DT_I1 && p->konst[v->id] == 2)
		return 0;
	const Op *op = v->def;
	if (op->kind == OP_AND && op->nargs == 2) {
		int a = leaves(p, op->args[0], leaf, cap, depth + 1);
		int b = a < 0 ? -1 : leaves(p, op->args[1], leaf + a, cap - a, depth + 1);
		return b < 0 ? -1 : a + b;
	}
	if (cap < 1 || !is_order(op->kind) || op->nargs != 2 || !self_index_of(op->args[0]) ||
		!self_index_of(op->args[1]))
		return -1;
	leaf[0] = op;
	return 1;
}

/* Step 1 for comparison op: L, or NULL. */
static Sym *candidate(Analysis *c, const TileLoop *t, const Op *op)
{
	SymCtx *sc = c->k->sc;
	const Op *l = self_index_of(op->args[0]), *r = self_index_of(op->args[1]), *m = NULL;
	int off = 0;
	if (r->dim == t->dim && l->dim != t->dim && (op->kind == OP_GE || op->kind == OP_GT)) {
		m = l;
		off = op->kind == OP_GT ? -1 : 0;
	} else if (l->dim == t->dim && r->dim != t->dim && (op->kind == OP_LE || op->kind == OP_LT)) {
		m = r;
		off = op->kind == OP_LT ? -1 : 0;
	}
	DimDist *d = m ? analysis_dist(c, m->dim) : NULL;
	if (!d || !d->wg_start || d->wg_tile <= 0)
		return NULL;
	Sym *lo = sym_add(sc, d->wg_start, sym_int(sc, off + 1));
	return sym_simplify(sc, sym_floor(sc, sym_div(sc, lo, sym_int(sc, t->tile))), c->assume);
}

/* The coordinate along dim of element e of ix, or NULL. */
static Sym *coord_along(Analysis *c, const NodeIndex *ix, const Sym *dim, int64_t e)
{
	for (int q = 0; q < ix->ndims; q++)
		if (ix->d[q].dim == dim)
			return index_coord(c, ix, q, e / ix->epc, e % ix->epc);
	return NULL;
}

static SymKind rel_kind(OpKind k)
{
	return k == OP_GE ? SYM_GE : k == OP_GT ? SYM_GT : k == OP_LE ? SYM_LE : SYM_LT;
}

/* Step 2 for select op with its n leaves: True at every element in every
 * trip of the range [0, L) (passes/graph/trip_range.c)? */
static bool proved(Analysis *c, const TileLoop *t, const Op *op, const Op **leaf, int n, Sym *L)
{
	SymCtx *sc = c->k->sc;
	const NodeIndex *ix = c->index[op->id];
	if (!ix)
		return false;
	TripRange r = {.to = L};
	for (int64_t e = 0; e < ix->ncopies * ix->epc; e++)
		for (int k = 0; k < n; k++) {
			Sym *a = coord_along(c, ix, self_index_of(leaf[k]->args[0])->dim, e);
			Sym *b = coord_along(c, ix, self_index_of(leaf[k]->args[1])->dim, e);
			if (!a || !b)
				return false;
			if (!analysis_range_proves(c, t, &r, sym_rel(sc, rel_kind(leaf[k]->kind), a, b)))
				return false;
		}
	return true;
}

bool plan_diag_split(Analysis *c, Plan *p, LoopPlan *lp, const Op *loop)
{
	SymCtx *sc = c->k->sc;
	const TileLoop *t = lp->t;
	const Region *body = loop->body;
	Sym *L = NULL;
	for (size_t i = 0; i < body->ops.len && !L; i++) {
		const Op *op = body->ops.data[i], *leaf[MAX_LEAVES];
		int n = op->kind == OP_SELECT ? leaves(p, op->args[0], leaf, MAX_LEAVES, 0) : -1;
		for (int k = 0; k < n && !L; k++)
			L = candidate(c, t, leaf[k]);
	}
	Sym *trips = t->trips > 0 ? sym_int(sc, t->trips) : t->count;
	if (!L || !trips)
		return false;
	bool any = false;
	for (size_t i = 0; i < body->ops.len; i++) {
		const Op *op = body->ops.data[i], *leaf[MAX_LEAVES];
		int n = op->kind == OP_SELECT ? leaves(p, op->args[0], leaf, MAX_LEAVES, 0) : -1;
		if (n > 0 && proved(c, t, op, leaf, n, L)) {
			p->diag_true[op->id] = 1;
			any = true;
		}
	}
	Sym *split = sym_simplify(sc, sym_min(sc, L, trips), c->assume);
	int64_t n;
	if (!any || (sym_is_int(split, &n) && n <= 0)) /* no workgroup's main loop would run */
		return false;
	lp->diag = true;
	lp->diag_split = split;
	return true;
}
