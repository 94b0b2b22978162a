/* dynmap.c — dynamic values of index mappings (Wave's dynamic_val_mappings:
 * offsets, gathers and scatters whose memory coordinates come from another
 * tensor's elements).
 *
 * A dynamic value is a register the thread already holds. Each element of
 * the access takes the dynamic value's element at the same register
 * coordinates, or with dynamic_val_mappings at the coordinates its
 * expressions give (docs/kernel-format.md, "Index mappings"; interp/memory.c
 * binds it the same way). The value is gathered into the access's element
 * order: by register coordinates (elementwise.c), or by the mapped ones
 * (dvm_gather), a read of it having been given the index the access needs
 * (passes/graph/dynindex.c) and any other value moved into that index
 * through LDS (relayout.c) when the thread lacks an element. Each element's
 * dword stands in the mapping's expressions as a symbol of its own,
 * `$DV<vreg>_<dword>` (isel.h), which expr.c lowers to that VGPR and treats
 * as a per-lane term. Elements that share a dword (an offset per row, read by a
 * run along the row) get the same symbol, so their distances still
 * simplify to integers and the run stays one wide access (memory.c).
 * Bounds need nothing special: the mapped coordinate's relations against
 * the memory's dims are not provable, so they become lane-mask conditions
 * and an offset outside the tensor reads 0 and drops its store, as the
 * interpreter does.
 * Only 32-bit integer values are compiled (i32, u32; both compare as
 * signed, so a u32 at 2^31 or more is out of bounds in both readings), and
 * a self_index (also i64) whose named coordinates are in range: that
 * coordinate is its value (dynself.c). */
#include <stdio.h>
#include <string.h>

#include "isel.h"

/* The symbol standing for dword o: an immediate is its value itself. */
static Sym *dword_sym(Isel *s, MOpnd o)
{
	SymCtx *sc = s->c->k->sc;
	if (o.kind == MO_IMM)
		return sym_int(sc, (int32_t)o.imm);
	char name[48];
	snprintf(name, sizeof name, "%s%u_%u", ISEL_DYN_PREFIX, (unsigned)o.reg, (unsigned)o.sub);
	return sym_symbol(sc, name);
}

/* Is every dim of v's shape among the access register's dims? */
static bool dims_covered(Shape v, int nreg, Sym **rdims)
{
	for (int i = 0; i < v.rank; i++) {
		bool found = false;
		for (int r = 0; r < nreg; r++)
			found |= rdims[r] == v.dims[i];
		if (!found)
			return false;
	}
	return true;
}

/* For each element (copy-major) of the access indexed by ix, the element
 * of v that dynamic_val_mappings entry d names, matched by coordinates;
 * false when the thread holds not all of them. */
static bool dvm_sources(Isel *s, Op *op, const TVal *v, const NodeIndex *ix, int d, int64_t *src)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	const NodeIndex *vx = v->ix;
	int nd = vx->ndims;
	Sym **have = ARENA_NEWN(&c->arena, Sym *, (size_t)(v->n * nd) + 1), *want[MAX_DIMS];
	for (int64_t e = 0; e < v->n; e++)
		for (int k = 0; k < nd; k++)
			have[e * nd + k] = index_coord(c, vx, k, e / vx->epc, e % vx->epc);
	for (int64_t cn = 0; cn < ix->ncopies; cn++)
		for (int64_t j = 0; j < ix->epc; j++) {
			for (int k = 0; k < nd; k++)
				if (!(want[k] = index_dyn_coord(c, op, ix, d, vx->d[k].dim, cn, j)))
					return false;
			int64_t hit = -1;
			for (int64_t e = 0; e < v->n && hit < 0; e++) {
				bool eq = true;
				for (int k = 0; k < nd && eq; k++)
					eq = sym_simplify(sc, sym_sub(sc, have[e * nd + k], want[k]), c->assume) == sym_int(sc, 0);
				if (eq)
					hit = e;
			}
			if (hit < 0)
				return false;
			src[cn * ix->epc + j] = hit;
		}
	return true;
}

/* v (32-bit elements) in ix's element order as dynamic_val_mappings entry
 * d picks its elements; moved first into the index the access needs
 * (dynindex.c) through LDS when the thread lacks some (a value read in
 * its own layout, or computed); NULL after reporting. */
static TVal *dvm_gather(Isel *s, Op *op, const TVal *v, const NodeIndex *ix, int d, const Value *x)
{
	Analysis *c = s->c;
	int64_t n = ix->ncopies * ix->epc;
	int64_t *src = ARENA_NEWN(&c->arena, int64_t, n + 1);
	if (!v->ix) {
		analysis_error(c, op->loc, "%s: dynamic value %s has no per-thread layout", op->path, x->name);
		return NULL;
	}
	if (!dvm_sources(s, op, v, ix, d, src)) {
		const char *why = "";
		NodeIndex *need = index_dyn_value(c, op, ix, d, &why);
		if (!need) {
			analysis_error(c, op->loc, "%s: dynamic value %s: no per-thread layout holds the elements "
						  "dynamic_val_mappings[%d] names for each thread: %s; not compiled",
				op->path, x->name, d, why);
			return NULL;
		}
		if (!(v = isel_relayout(s, v, need, op)))
			return NULL;
		if (!dvm_sources(s, op, v, ix, d, src)) {
			analysis_error(c, op->loc, "%s: dynamic value %s: the elements dynamic_val_mappings[%d] names are "
						  "not in the layout made for them; not compiled",
				op->path, x->name, d);
			return NULL;
		}
	}
	TVal *g = isel_tval_new(s, v->dtype, n, ix);
	for (int64_t e = 0; e < n; e++)
		g->d[e] = v->d[src[e]];
	return g;
}

/* v (the value of dynamic value x, number d of m) in ix's element order,
 * in dwords of its own (the caller rewrites them); NULL after reporting. */
static TVal *dyn_value(Isel *s, Op *op, const Mapping *m, const NodeIndex *ix, int d, const Value *x, const TVal *v)
{
	Analysis *c = s->c;
	if (m->dvm_n)
		return dvm_gather(s, op, v, ix, d, x);
	/* a dim the access lacks needs dynamic_val_mappings to say which of
	 * its elements an access element takes */
	bool rd = op->kind == OP_READ;
	if (!dims_covered(x->shape, rd ? m->nout : m->nin, rd ? m->out_dims : m->in_dims)) {
		analysis_error(c, op->loc, "%s: dynamic value %s has a dim the mapping's register side lacks: not "
					  "compiled",
			op->path, x->name);
		return NULL;
	}
	TVal *g = isel_tval_gather(s, v, ix, op);
	if (g == v) { /* a private copy */
		g = ARENA_NEW(&c->arena, TVal);
		*g = *v;
		g->d = ARENA_NEWN(&c->arena, MOpnd, v->nd ? v->nd : 1);
		memcpy(g->d, v->d, sizeof(MOpnd) * (size_t)v->nd);
	}
	return g;
}

TVal **isel_dyn_values(Isel *s, Op *op, const Mapping *m, const NodeIndex *ix)
{
	Analysis *c = s->c;
	if (!m || !m->ndyn)
		return NULL;
	TVal **dv = ARENA_NEWN(&c->arena, TVal *, m->ndyn);
	for (int d = 0; d < m->ndyn; d++) {
		Value *x = op->args[op->nargs - m->ndyn + d];
		const TVal *v = s->val[x->id];
		if (!v) {
			analysis_error(c, op->loc, "%s: dynamic value %s has no per-thread value", op->path, x->name);
			return NULL;
		}
		TVal *self = isel_dyn_self_index(s, op, m, ix, d, x);
		if (self) { /* a self_index: each element's coordinate (dynself.c) */
			for (int i = 0; i < self->nd; i++)
				if (self->d[i].kind != MO_IMM)
					self->d[i] = isel_expr_to_vgpr(s, isel_vgpr(s, self->d[i]));
			dv[d] = self;
			continue;
		}
		/* an i64 value here is proven to fit 32 bits and held as i32
		 * words (index64.c: isel_i64_guard passed the read) */
		bool wide = x->dtype == DT_I64 || x->dtype == DT_U64;
		if (dtype_info[x->dtype].cls == DTC_FLOAT || (dtype_size(x->dtype) != 4 && !wide)) {
			analysis_error(c, op->loc, "%s: dynamic value %s is %s: only 32-bit integer dynamic values are "
						  "compiled yet",
				op->path, x->name, dtype_name(x->dtype));
			return NULL;
		}
		TVal *g = dyn_value(s, op, m, ix, d, x, v);
		if (!g)
			return NULL;
		if (g == v) { /* a private copy: its dwords are rewritten below */
			g = ARENA_NEW(&c->arena, TVal);
			*g = *v;
			g->splat = false;
			g->d = ARENA_NEWN(&c->arena, MOpnd, v->nd ? v->nd : 1);
			memcpy(g->d, v->d, sizeof(MOpnd) * (size_t)v->nd);
		}
		/* AGPR or SGPR dwords into VGPRs, so each symbol names a VGPR */
		for (int i = 0; i < g->nd; i++)
			if (g->d[i].kind != MO_IMM)
				g->d[i] = isel_expr_to_vgpr(s, isel_vgpr(s, g->d[i]));
		dv[d] = g;
	}
	return dv;
}

int isel_dyn_bind(Isel *s, const Mapping *m, TVal *const *dv, int64_t e, Sym **from, Sym **to)
{
	if (!m || !dv)
		return 0;
	for (int d = 0; d < m->ndyn; d++) {
		from[d] = m->dyn[d];
		to[d] = dword_sym(s, dv[d]->d[isel_elem_dword(dv[d], e)]);
	}
	return m->ndyn;
}
