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
 * neither staging nor select_read touches it. Any other value (a mapped
 * read, which index analysis indexes where its bitcast needs it) keeps its
 * dwords: the index's last dim regrouped (index_bitcast_scaled: a run of 2
 * i32 is a run of 4 f16 at twice the start), then gathered into the
 * bitcast's own index (register renaming where they agree). A run that
 * does not split into whole dwords is a located error. */
#include "isel.h"

/* v's dwords seen as res's dtype: the elements along the last dim
 * regrouped (each i32 element two f16 ones, or two packed f16 one i32),
 * the index scaled to match; NULL where the thread does not hold whole
 * groups in whole dwords. */
static TVal *regroup(Isel *s, const TVal *v, Value *res)
{
	Analysis *c = s->c;
	int sa = dtype_bits(v->dtype), sr = dtype_bits(res->dtype);
	if (!v->ix || res->shape.rank < 1 || sa > 32 || sr > 32 || v->dtype == DT_I1 || res->dtype == DT_I1)
		return NULL;
	/* in bits: an i8 element is two f4e2m1fn ones */
	int g = sa > sr ? sa / sr : sr / sa;
	NodeIndex *nx = index_bitcast_scaled(c, v->ix, res->shape.dims[res->shape.rank - 1], sa > sr ? g : 1, sa > sr ? 1 : g);
	if (!nx)
		return NULL;
	TVal *r = isel_tval_new(s, res->dtype, v->n * sa / sr, nx);
	/* the same bytes: every dword of v is one of r, both filled */
	bool whole = (sa == 32 || v->packed) && (sr == 32 || r->packed) && r->nd == v->nd;
	if (!whole)
		return NULL;
	for (int i = 0; i < r->nd; i++)
		r->d[i] = v->d[i];
	return r;
}

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
	int sa = dtype_bits(a->dtype), sr = dtype_bits(res->dtype);
	if (sa == sr) {
		TVal *r = ARENA_NEW(&c->arena, TVal);
		*r = *v;
		r->dtype = res->dtype;
		/* in the bitcast's own index where it has another (index
		 * analysis gives both the same role; gather where not) */
		if (ix && v->ix && ix != v->ix && !(r = isel_tval_gather(s, r, ix, op)))
			return;
		s->val[res->id] = r;
		return;
	}
	TVal *r = regroup(s, v, res);
	if (!r) {
		analysis_error(c, op->loc, "%s: a bitcast from %s to %s of a value whose elements along %s are not held in "
					  "whole groups of %d per dword is not compiled yet",
			op->path, dtype_name(a->dtype), dtype_name(res->dtype),
			a->shape.rank ? sym_name(a->shape.dims[a->shape.rank - 1]) : "its last dim",
			32 / (sa > sr ? sr : sa));
		return;
	}
	if (ix && !(r = isel_tval_gather(s, r, ix, op)))
		return;
	s->val[res->id] = r;
}
