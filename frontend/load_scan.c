/* load_scan.c — the loader's rules for `cumsum` (Wave's tkw.cumsum): an
 * inclusive prefix sum of `arg` along `dim` (default: its last dim), over
 * the wave's window of the dim, or the workgroup's with `block`. The result
 * has the arg's type. */
#include "load_graph.h"

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
		op->dim = a->shape.dims[a->shape.rank - 1]; /* Wave's dim=None: the last */
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
