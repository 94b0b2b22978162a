/* load_scan.c — the loader's rules for `cumsum` (Wave's tkw.cumsum): an
 * inclusive prefix sum of `arg` along `dim` (default: its last dim in
 * Wave's dim order, wave_last_dim), over
 * the wave's window of the dim, or the workgroup's with `block`. The result
 * has the arg's type. */
#include "load_graph.h"

/* May v's dim order in Wave differ from the format's? Below a binary op
 * whose operands hold the same dims in two orders it may (Wave: the lhs's
 * dims if they strictly contain the rhs's, else the rhs's; the format: the
 * lhs's if they contain the rhs's); reads, registers, permutes, broadcasts
 * and arguments fix an order; any other op keeps whatever its args bring.
 * memo[id]: 0 unknown, 1 no, 2 yes; a deep chain counts as yes. */
static bool order_may_differ(const Value *v, uint8_t *memo, int depth)
{
	if (v->kind != VAL_RESULT)
		return false;
	if (memo[v->id])
		return memo[v->id] == 2;
	const Op *d = v->def;
	bool yes = depth > 200;
	if (!yes && (op_is_binary(d->kind) || op_is_compare(d->kind)) &&
	    d->args[0]->shape.rank == d->args[1]->shape.rank && !shape_eq(d->args[0]->shape, d->args[1]->shape))
		yes = true;
	if (!yes && d->kind != OP_READ && d->kind != OP_REGISTER && d->kind != OP_PERMUTE && d->kind != OP_BROADCAST)
		for (int i = 0; i < d->nargs && !yes; i++)
			yes = d->args[i] && order_may_differ(d->args[i], memo, depth + 1);
	memo[v->id] = yes ? 2 : 1;
	return yes;
}

/* The last dim of v in Wave's dim order: followed back through unary ops,
 * casts and binary ops (taking the operand Wave's rule takes); NULL where
 * another op's order may differ from the format's. */
static Sym *wave_last_dim(const Value *v, uint8_t *memo)
{
	for (int depth = 0; v->kind == VAL_RESULT; depth++) {
		const Op *d = v->def;
		if (depth > 200)
			return NULL;
		if (d->kind == OP_CAST || op_is_unary(d->kind)) {
			v = d->args[0];
		} else if (op_is_binary(d->kind) || op_is_compare(d->kind)) {
			const Value *a = d->args[0], *b = d->args[1];
			v = a->shape.rank > b->shape.rank ? a : b;
		} else {
			if (order_may_differ(v, memo, 0))
				return NULL;
			break;
		}
	}
	return v->shape.rank ? v->shape.dims[v->shape.rank - 1] : NULL;
}

bool ld_build_scan(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Value *a = op->args[0], *res = op_result(op);
	if (a->shape.rank == 0) {
		ld_err(L, jvs[0], "shape mismatch: cumsum of the scalar '%s'", a->name);
		return false;
	}
	JV fd = jv_get(L, n->jv, "dim");
	if (!fd.v) {
		/* Wave's dim=None: the last, in Wave's order */
		op->dim = wave_last_dim(a, ARENA_NEWN(&L->tmp, uint8_t, (size_t)g->k->nvalues));
		if (!op->dim || shape_find(a->shape, op->dim) < 0) {
			ld_err(L, jvs[0], "cumsum of '%s' %s without dim: its last dim in Wave's order is not known (a binary op below it has the same dims in two orders): give "
					  "dim", a->name, ld_vstr(g, a));
			return false;
		}
	} else if (!(op->dim = ld_get_dim(L, fd))) {
		return false;
	} else if (shape_find(a->shape, op->dim) < 0) {
		ld_err(L, fd, "shape mismatch: '%s' %s has no dim '%s' to scan", a->name, ld_vstr(g, a), sym_name(op->dim));
		return false;
	}
	JV fb = jv_get(L, n->jv, "block");
	if (fb.v && !get_bool(L, fb, &op->block))
		return false;
	if (a->dtype == DT_I1) {
		ld_err(L, jvs[0], "dtype mismatch: cumsum of the mask '%s' %s (cast it to an integer first)", a->name,
			ld_vstr(g, a));
		return false;
	}
	res->dtype = a->dtype;
	res->shape = a->shape;
	return true;
}
