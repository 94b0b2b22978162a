/* dynself.c — a self_index as a dynamic value of an index mapping (Wave's
 * T5 relative position bias reads `rpe` at m - k2 with m and k2 two
 * self_index values).
 *
 * Element c of self_index(D) holds c, so the element a dynamic_val_mappings
 * entry names holds the coordinate that entry gives for D: the access takes
 * that expression itself, lowered per element, and no thread has to hold
 * the self_index's elements (moving them through LDS would need elements of
 * D that no work-item of the workgroup covers). Contract: only when every
 * such coordinate is proven inside [0, D) (outside, the mapping semantics
 * give 0, which this does not build; the caller then takes the general
 * path) and the value is i32 or an i64 that index64.c proves fits 32 bits
 * (then held as i32 words). NULL means "not this case", never an error. */
#include "elt.h"

/* The extent of a distributed or tiled dim (a constant, or an expression
 * of dynamic symbols); NULL for any other dim. */
static Sym *extent(Analysis *c, const Sym *dim)
{
	SymCtx *sc = c->k->sc;
	const DimDist *dd = analysis_dist(c, dim);
	if (dd)
		return dd->size >= 0 ? sym_int(sc, dd->size) : dd->size_sym;
	const TileLoop *t = analysis_tile(c, dim);
	if (t)
		return t->size >= 0 ? sym_int(sc, t->size) : t->size_sym;
	return NULL;
}

/* Is e proven inside [0, dim) under the analysis' assumptions? */
static bool in_dim(Isel *s, Sym *e, const Sym *dim)
{
	SymCtx *sc = s->c->k->sc;
	Sym *size = extent(s->c, dim);
	if (!size)
		return false;
	SymBound lo = sym_bounds(sc, e, s->c->assume);
	SymBound room = sym_bounds(sc, sym_sub(sc, size, e), s->c->assume);
	return lo.has_lo && lo.lo.q > 0 && lo.lo.p >= 0 && room.has_lo && room.lo.q > 0 && room.lo.p > 0;
}

TVal *isel_dyn_self_index(Isel *s, Op *op, const Mapping *m, const NodeIndex *ix, int d, const Value *x)
{
	Analysis *c = s->c;
	if (!m->dvm_n || x->kind != VAL_RESULT || x->def->kind != OP_SELF_INDEX)
		return NULL;
	Op *si = x->def;
	if (x->dtype != DT_I32 && !((x->dtype == DT_I64 || x->dtype == DT_U64) && isel_i64_proven(s, si)))
		return NULL;
	int64_t n = ix->ncopies * ix->epc;
	Sym **coord = ARENA_NEWN(&c->arena, Sym *, n + 1);
	for (int64_t e = 0; e < n; e++) {
		coord[e] = index_dyn_coord(c, op, ix, d, si->dim, e / ix->epc, e % ix->epc);
		if (!coord[e] || !in_dim(s, coord[e], si->dim))
			return NULL;
	}
	TVal *g = isel_tval_new(s, DT_I32, n, ix);
	for (int64_t e = 0; e < n; e++)
		g->d[e] = isel_expr_lower(s, coord[e], op->loc);
	return g;
}
