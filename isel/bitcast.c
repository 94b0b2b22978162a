/* bitcast.c — `bitcast`: the same bits as another dtype.
 *
 * Of one width, a value keeps its dwords (both dtypes pack alike: the
 * result has the source's index). Across widths the elements regroup along
 * the last dim, which only a read can give for free: a read whose one use
 * is a bitcast (Wave's packed GEMM: i32 memory read as f16 pairs) is
 * selected as a read of the same buffer seen as the result's dtype and
 * shape — row-major and little-endian, element (m, k) of the f16 view is
 * half k % 2 of i32 element (m, k / 2), the same bytes — in the layout the
 * bitcast's consumers need (its own index, an MMA operand's), straight from
 * global memory as mapped reads of shared tensors are. The plan makes the
 * fusion (passes/plan/plan.c, step 0): the read loses its index, so
 * neither staging nor select_read touches it. */
#include "isel.h"

void isel_select_bitcast(Isel *s, Op *op)
{
	Analysis *c = s->c;
	Value *a = op->args[0], *res = op_result(op);
	const NodeIndex *ix = c->index[op->id];
	if (a->kind == VAL_RESULT && a->def->kind == OP_READ && !c->index[a->def->id] && ix) {
		Op *rd = a->def;
		Value *mem = rd->args[0], *view = ARENA_NEW(&c->arena, Value);
		*view = *mem;
		view->dtype = res->dtype;
		view->shape = shape_new(c->k, mem->shape.rank);
		for (int i = 0; i < mem->shape.rank; i++)
			view->shape.dims[i] = i + 1 < mem->shape.rank ? mem->shape.dims[i] : res->shape.dims[res->shape.rank - 1];
		TVal *v = isel_read_global(s, rd, view, ix);
		if (v)
			s->val[res->id] = v;
		return;
	}
	TVal *v = s->val[a->id];
	if (!v)
		return;
	if (dtype_size(a->dtype) != dtype_size(res->dtype)) {
		analysis_error(c, op->loc, "%s: a bitcast from %s to %s of a value that is not read just for it is not "
					  "compiled yet",
			op->path, dtype_name(a->dtype), dtype_name(res->dtype));
		return;
	}
	TVal *r = ARENA_NEW(&c->arena, TVal);
	*r = *v;
	r->dtype = res->dtype;
	s->val[res->id] = r;
}
