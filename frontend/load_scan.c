/* load_scan.c — the loader's rules for `cumsum` (Wave's tkw.cumsum): an
 * inclusive prefix sum of `arg` along `dim` (default: its last dim in
 * Wave's dim order, wave_last_dim), over
 * the wave's window of the dim, or the workgroup's with `block`. The result
 * has the arg's type. */
#include "load_graph.h"

/* The last dim of v in Wave's dim order, which the format's differs from
 * only below a binary op whose operands hold the same dims in two orders
 * (Wave: the lhs's dims if they strictly contain the rhs's, else the
 * rhs's; the format: the lhs's if they contain the rhs's). Followed back
 * through unary ops, casts and binary ops; any other op's result has one
 * order in both. */
static Sym *wave_last_dim(const Value *v, int depth)
{
	while (v->kind == VAL_RESULT && depth++ < 256) {
		const Op *d = v->def;
		if (d->kind == OP_CAST || op_is_unary(d->kind)) {
			v = d->args[0];
		} else if (op_is_binary(d->kind) || op_is_compare(d->kind)) {
			const Value *a = d->args[0], *b = d->args[1];
			bool strict = a->shape.rank > b->shape.rank;
			v = strict ? a : b;
		} else {
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
		op->dim = wave_last_dim(a, 0);
		if (!op->dim || shape_find(a->shape, op->dim) < 0) {
			ld_err(L, jvs[0], "cumsum of '%s' %s without dim: its last dim in Wave's order is not known: give "
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
