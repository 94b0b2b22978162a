/* memory.c — buffer reads and writes of global tensors, with bounds.
 *
 * Algorithm, for a read or write whose index (passes/graph/indices.c) gives the
 * thread's elements:
 *   - each memory argument gets a 4-dword buffer descriptor on first use:
 *     the pointer from the kernarg segment, stride 0 (raw buffer),
 *     num_records = the tensor's bytes, so every access is range-checked;
 *   - the linear element index of element 0 of copy 0 is the access's
 *     base; its byte offset is split by uniformity (expr.c): wave-uniform
 *     terms (workgroup ids, the loop variable) go to the MUBUF soffset
 *     SGPR, per-lane terms to the offset VGPR;
 *   - every other element's distance from the base must simplify to an
 *     integer and becomes the instruction's immediate offset (past the
 *     12-bit field, a VALU add);
 *   - each element is in bounds iff coord < size holds along every dim;
 *     the relations are simplified under the id and loop ranges, and those
 *     that are not proved true are lowered to a lane mask (expr.c): a lane
 *     whose element is out of bounds gets the offset 0x80000000, beyond
 *     num_records, so the load returns 0 and the store is dropped
 *     (masking for free, no EXEC manipulation);
 *   - a copy's run of elements is one dwordx1..x4 access when its elements
 *     are contiguous and valid together (the run dim's size and start are
 *     multiples of the run length, so the first element's bounds decide);
 *     otherwise one access per element, 16-bit elements pairing in a dword
 *     (two ushort loads joined by v_perm_b32; never a d16 load, whose
 *     other half is zeroed, not kept, when SRAM ECC is on, as on MI200
 *     and MI300 by default: LLVM's d16PreservesUnusedBits).
 * gfx950's direct-to-LDS form (isel_read_global_lds, for lds_stage.c):
 * the same offsets and masking, each copy's 16-byte run one
 * buffer_load_dwordx4 ... lds writing LDS at M0 + offset + 16 lane (an
 * out-of-bounds lane's load gives 0, which goes to LDS).
 * Scale dwords: e8m0 scale bytes that only scaled MMAs read, four to an
 * aligned dword where they share one (TVal.sel; the MFMA's op_sel picks).
 * Swapped pairs (gfx950): a 16x16 MMA accumulator's N-neighbour copies are
 * stored after v_permlane16_swap_b32, twice the consecutive bytes a row.
 * Requires: isel.c's entry (kernarg pointer). */
#include <stdlib.h>
#include <string.h>

#include "isel.h"

enum { OOB_OFFSET = (int64_t)0x80000000 };

/* The buffer descriptor of memory argument `mem`, built on first use in
 * the entry block (it dominates every access). */
static uint32_t descriptor(Isel *s, Value *mem)
{
	if (s->desc[mem->arg_idx] != UINT32_MAX)
		return s->desc[mem->arg_idx];
	MBlock *save = s->b;
	s->b = s->f->blocks.data[0];
	uint32_t v = mfunc_vreg(s->f, RC_S4);
	SymCtx *sc = s->c->k->sc;
	Sym *bytes_sym = sym_int(sc, dtype_size(mem->dtype));
	for (int i = 0; i < mem->shape.rank; i++) {
		Sym *rt = analysis_runtime(s->c, mem->shape.dims[i]);
		bytes_sym = sym_mul(sc, bytes_sym,
			rt ? rt : sym_int(sc, analysis_int(s->c, mem->shape.dims[i], mem->loc, sym_name(mem->shape.dims[i]))));
	}
	/* num_records: the tensor's bytes (at run time: the product of the
	 * size arguments, 32-bit; tensors of 4 GiB or more are not supported) */
	MOpnd bytes = isel_expr_lower_entry(s, sym_simplify(sc, bytes_sym, NULL), mem->loc);
	MOpnd d = mo_vsub(v, 0, RC_S2), u[2];
	/* the entry block may already end in code; the load goes after the id copies */
	isel_kernarg_load(s, I_S_LOAD_DWORDX2, d, 8 * (int64_t)mem->arg_idx);
	d = mo_vsub(v, 1, RC_S1);
	MOpnd a[2] = {mo_vsub(v, 1, RC_S1), mo_imm(0xffff)}; /* stride 0, base bits 47:32 */
	mblock_add(s->b, I_S_AND_B32, 1, &d, 2, a);
	d = mo_vsub(v, 2, RC_S1);
	u[0] = bytes;
	mblock_add(s->b, I_S_MOV_B32, 1, &d, 1, u);
	d = mo_vsub(v, 3, RC_S1);
	u[0] = mo_imm(0x00020000); /* DATA_FORMAT 32; no add_tid, no swizzle */
	mblock_add(s->b, I_S_MOV_B32, 1, &d, 1, u);
	s->desc[mem->arg_idx] = v;
	s->b = save;
	return v;
}

/* One element of an access. */
/* bounds per element: memory dims above and below, register dims */
enum { MAX_CONDS = 3 * MAX_DIMS };

typedef struct Elem {
	int64_t delta; /* linear elements from the base */
	Sym *udelta;   /* plus this wave-uniform distance (a copy's step times a
			* runtime row length), or NULL */
	Sym *own;      /* a mapped element whose distance varies per lane: its
			* own linear index, addressed on its own (delta 0) */
	bool never;    /* some bound is false */
	int nconds;
	Sym *conds[MAX_CONDS];
} Elem;

typedef struct Access {
	Value *mem;
	const NodeIndex *ix;
	Sym *base;
	Sym *uni_bytes; /* the base's wave-uniform byte offset (base_offsets) */
	int64_t n, epc;
	Elem *el;
	bool *run_ok; /* per copy: one wide access serves the copy's run */
} Access;

/* The dim's extent: an integer (*rt NULL) or a runtime size (-1, *rt its
 * expression); -1 with *rt NULL after an error. */
static int64_t extent(Analysis *c, Op *op, Sym *dim, Sym **rt)
{
	*rt = analysis_runtime(c, dim);
	return *rt ? -1 : analysis_int(c, dim, op->loc, sym_name(dim));
}

/* An index mapping's side for a register (bare iterators) or for memory
 * (expressions): a read maps memory `inputs` from register `outputs`, a
 * write the other way round. */
static void map_sides(const Op *op, const Mapping *m, int *nreg, Sym ***rdims, Sym ***rexprs, int *nmem,
	Sym ***mdims, Sym ***mexprs)
{
	bool rd = op->kind == OP_READ;
	*nreg = rd ? m->nout : m->nin;
	*rdims = rd ? m->out_dims : m->in_dims;
	*rexprs = rd ? m->out_exprs : m->in_exprs;
	*nmem = rd ? m->nin : m->nout;
	*mdims = rd ? m->in_dims : m->out_dims;
	*mexprs = rd ? m->in_exprs : m->out_exprs;
}

/* The position of dim in ix, or -1. */
static int dim_pos(const NodeIndex *ix, const Sym *dim)
{
	for (int q = 0; q < ix->ndims; q++)
		if (ix->d[q].dim == dim)
			return q;
	return -1;
}

/* Is bound rel dropped in the main iterate of a split loop (s->range,
 * isel.c): proved over its trips and the trips its loads read ahead
 * (passes/graph/trip_range.c)? Never in a pipelined loop's prologue, whose
 * trips need not be whole, nor at the diagonal (no bound is dropped
 * there). */
static bool range_drops(Isel *s, Sym *rel)
{
	const LoopPlan *lp = s->range;
	if (!lp || lp->diag || (s->pipe && s->b == s->pipe->prol) || !sym_mentions(rel, lp->t->iv))
		return false;
	TripRange r = plan_main_range(lp);
	return analysis_range_proves(s->c, lp->t, &r, rel);
}

/* Bound rel of element e: false marks it never accessed, true is dropped,
 * anything else is one more condition of its lane mask; false after
 * reporting when there are too many. */
static bool add_bound(Isel *s, Op *op, Elem *e, Sym *rel)
{
	if (range_drops(s, rel)) /* a split loop's main trips: whole tiles */
		return true;
	if (sym_kind(rel) == SYM_FALSE)
		e->never = true;
	else if (sym_kind(rel) != SYM_TRUE && e->nconds < MAX_CONDS)
		e->conds[e->nconds++] = rel;
	else if (sym_kind(rel) != SYM_TRUE) {
		analysis_error(s->c, op->loc, "%s: too many bounds per element", op->path);
		return false;
	}
	return true;
}

/* The memory coordinate of element j of copy cn along memory dim i: the
 * element's own coordinate, or through the mapping, its expression with
 * every iterator bound to the register coordinate it names; NULL after
 * reporting. In bounds needs the register coordinates inside their dims
 * too (docs/interpreter.md, "Bounds"): those relations go to *extra. */
static Sym *mem_coord(Isel *s, Op *op, const Mapping *m, Value *mem, const NodeIndex *ix, const int *pos, int i,
	int64_t cn, int64_t j, int ndyn, Sym *const *dfrom, Sym *const *dto)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	if (!m)
		return index_coord(c, ix, pos[i], cn, j);
	int nreg, nmem;
	Sym **rdims, **rexprs, **mdims, **mexprs;
	map_sides(op, m, &nreg, &rdims, &rexprs, &nmem, &mdims, &mexprs);
	Sym *e = NULL;
	for (int q = 0; q < nmem; q++)
		if (mdims[q] == mem->shape.dims[i])
			e = mexprs[q];
	if (!e) {
		analysis_error(c, op->loc, "%s: the mapping does not give dim %s of %s: not compiled yet", op->path,
			sym_name(mem->shape.dims[i]), mem->name);
		return NULL;
	}
	Sym *from[2 * MAX_DIMS + 16], *to[2 * MAX_DIMS + 16];
	if (nreg > MAX_DIMS || ndyn > MAX_DIMS + 16) {
		analysis_error(c, op->loc, "%s: mapping too large", op->path);
		return NULL;
	}
	for (int r = 0; r < nreg; r++) {
		int k = dim_pos(ix, rdims[r]);
		if (k < 0 || sym_kind(rexprs[r]) != SYM_SYMBOL) {
			analysis_error(c, op->loc, "%s: the mapping's register side %s must be a bare iterator of an indexed "
						  "dim",
				op->path, sym_name(rdims[r]));
			return NULL;
		}
		from[r] = rexprs[r];
		to[r] = index_coord(c, ix, k, cn, j);
	}
	/* the element's dynamic values (dynmap.c), as symbols of their dwords */
	for (int d = 0; d < ndyn; d++) {
		from[nreg + d] = dfrom[d];
		to[nreg + d] = dto[d];
	}
	/* the kernel's symbol values first (C = 16 in an im2col), so the
	 * simplifier sees the numbers the floors and mods divide by */
	return sym_simplify(sc, sym_subs(sc, kernel_subs(c->k, e), nreg + ndyn, from, to), c->assume);
}

/* The register-side bounds of a mapped access: each register coordinate
 * inside its dim, each memory coordinate not below 0. */
static bool map_bounds(Isel *s, Op *op, const Mapping *m, const NodeIndex *ix, int64_t cn, int64_t j, Elem *e)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	int nreg, nmem;
	Sym **rdims, **rexprs, **mdims, **mexprs;
	map_sides(op, m, &nreg, &rdims, &rexprs, &nmem, &mdims, &mexprs);
	for (int r = 0; r < nreg; r++) {
		int k = dim_pos(ix, rdims[r]);
		/* a set extent (extent.c) bounds the register coordinates */
		Sym *rt = isel_extent_of(s, rdims[r]);
		rt = rt ? rt : analysis_runtime(c, rdims[r]);
		int64_t size = rt ? -1 : analysis_int(c, rdims[r], op->loc, sym_name(rdims[r]));
		if (c->failed || k < 0)
			return false;
		const DimDist *dd = analysis_dist(c, rdims[r]);
		if (dd && dd->unbounded)
			continue; /* a tied dim's coordinates pass its size (constraints.c, add_tied) */
		Sym *rel = sym_simplify(sc, sym_rel(sc, SYM_LT, index_coord(c, ix, k, cn, j), rt ? rt : sym_int(sc, size)),
			c->assume);
		if (!add_bound(s, op, e, rel))
			return false;
	}
	return true;
}

int isel_window_conds(Isel *s, Op *op, Sym *dim, Sym *co, bool wave, Sym **rel)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	const DimDist *d = analysis_dist(c, dim);
	TileLoop *t = NULL;
	for (Region *r = op->parent; wave && r && r->owner && !t; r = r->parent)
		if (r->owner->kind == OP_ITERATE && r->owner->dim == dim)
			t = analysis_tile(c, dim);
	if (d && (d->alias_of || d->unbounded))
		d = NULL; /* their windows are another dim's (constraints.c) */
	if (!wave) {
		if (!d || !analysis_many(d->count))
			return 0;
		rel[0] = sym_rel(sc, SYM_LT, co, sym_add(sc, d->wg_start, sym_int(sc, d->wg_tile)));
		return 1;
	}
	if (!d && !t)
		return 0;
	Sym *start = sym_int(sc, 0), *len = NULL;
	int n = 0;
	if (d) {
		start = d->wg_start;
		if (d->waves > 1) {
			Sym *wid;
			if (d->wg_dim == 0)
				wid = sym_floor(sc, sym_div(sc, sym_symbol(sc, "$T0"), sym_int(sc, 64)));
			else {
				char name[8];
				snprintf(name, sizeof name, "$T%d", d->wg_dim);
				wid = sym_symbol(sc, name);
			}
			/* the last wave's window ends with the workgroup's */
			rel[n++] = sym_rel(sc, SYM_LT, co, sym_add(sc, d->wg_start, sym_int(sc, d->wg_tile)));
			start = sym_add(sc, start, sym_mul(sc, wid, sym_int(sc, d->wave_tile)));
		}
		len = sym_int(sc, d->wave_tile);
	}
	if (t) {
		start = sym_add(sc, start, t->base);
		len = sym_int(sc, t->tile);
	}
	rel[n++] = sym_rel(sc, SYM_LT, co, sym_add(sc, start, len));
	return n;
}

/* The window bounds of a store's element (isel_window_conds): an atomic's
 * lanes past their wave's window would combine a second time; a write's
 * past their workgroup's tile store what another workgroup stores, the
 * same value as long as a value at a coordinate is the same in every
 * workgroup, which an allocation's reads (each workgroup's own buffer)
 * break. */
static bool store_window(Isel *s, Op *op, const NodeIndex *ix, int64_t cn, int64_t j, Elem *e)
{
	bool atomic = op_is_atomic(op->kind);
	if (!atomic && !(op->kind == OP_WRITE && s->has_alloc))
		return true;
	for (int k = 0; k < ix->ndims; k++) {
		Sym *rel[2];
		int n = isel_window_conds(s, op, ix->d[k].dim, index_coord(s->c, ix, k, cn, j), atomic, rel);
		for (int q = 0; q < n; q++)
			if (!add_bound(s, op, e, sym_simplify(s->c->k->sc, rel[q], s->c->assume)))
				return false;
	}
	return true;
}

/* Does another distributed dim share d's workgroup dim (a non-primary
 * constraint tied to it, or its primary)? */
static bool shares_wg_dim(const Analysis *c, const DimDist *d)
{
	for (int i = 0; i < c->ndist; i++) {
		const DimDist *o = &c->dist[i];
		if (o != d && !o->alias_of && o->wg_dim == d->wg_dim)
			return true;
	}
	return false;
}

/* A write whose layout steps along a distributed dim by a vector shape
 * that the workgroup tile is no multiple of (8 query heads a workgroup in
 * a 16-wide MMA) holds elements past the tile, which the next workgroup
 * along the dim owns. Where the dim has its workgroup dim to itself, the
 * next workgroup computes them from the same coordinates: the same value,
 * stored twice (store_window). Where another dim shares the workgroup id
 * (paged decode: the kv head BH, which B's workgroups give through an
 * apply_fn), this workgroup's copy has its own coordinate along that dim,
 * not the owner's: a wrong value that races with the right one, so it is
 * not stored. Wave's get_index_bound bounds such a dim to its tile (the
 * start plus the tile) in every case. */
static bool store_tile(Isel *s, Op *op, const NodeIndex *ix, int64_t cn, int64_t j, Elem *e)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	if (op->kind != OP_WRITE)
		return true;
	for (int k = 0; k < ix->ndims; k++) {
		const DimDist *d = analysis_dist(c, ix->d[k].dim);
		int64_t vs = ix->d[k].step;
		if (!d || d->alias_of || !analysis_many(d->count) || vs <= 1 || d->wg_tile % vs == 0 ||
			!shares_wg_dim(c, d))
			continue;
		Sym *rel = sym_rel(sc, SYM_LT, index_coord(c, ix, k, cn, j), sym_add(sc, d->wg_start, sym_int(sc, d->wg_tile)));
		if (!add_bound(s, op, e, sym_simplify(sc, rel, c->assume)))
			return false;
	}
	return true;
}

/* Is cond among e's conditions? (Simplified relations are hash-consed.) */
static bool has_cond(const Elem *e, const Sym *cond)
{
	for (int i = 0; i < e->nconds; i++)
		if (e->conds[i] == cond)
			return true;
	return false;
}

/* May element e be addressed as the base plus dl, with a base that is not
 * known to be >= 0? When dl is a constant >= 0 and e's bounds include
 * every bound of the base's element b: then e in bounds puts b in bounds,
 * so the base is a valid offset whenever e is accessed. */
static bool implies_base(const Elem *b, const Elem *e, Sym *dl)
{
	int64_t d;
	if (b->never || !sym_is_int(dl, &d) || d < 0)
		return false;
	for (int i = 0; i < b->nconds; i++)
		if (!has_cond(e, b->conds[i]))
			return false;
	return true;
}

/* Do the n elements of a mapped run have the same bounds (as sets)? Then
 * the first one's lane mask decides for all: one wide access. */
static bool same_bounds(const Elem *run, int64_t n)
{
	for (int64_t j = 0; j < n; j++) {
		if (run[j].never)
			return false;
		for (int i = 0; i < run[j].nconds; i++)
			if (!has_cond(&run[0], run[j].conds[i]))
				return false;
		for (int i = 0; i < run[0].nconds; i++)
			if (!has_cond(&run[j], run[0].conds[i]))
				return false;
	}
	return true;
}

static bool plan_access(Isel *s, Op *op, Value *mem, const NodeIndex *ix, Access *p)
{
	/* the op's own mapping, when this is the op's own index (not the
	 * cooperative load of an LDS tile) */
	const Mapping *map = (op->kind == OP_READ || op->kind == OP_WRITE || op_is_atomic(op->kind)) &&
				     ix == s->c->index[op->id] ? op->mapping : NULL;
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	int rank = mem->shape.rank;
	int pos[MAX_DIMS];
	int64_t size[MAX_DIMS], rs = 1;
	Sym *rowstride[MAX_DIMS], *size_s[MAX_DIMS], *rs_s = sym_int(sc, 1);
	bool runtime = false;
	for (int i = rank - 1; i >= 0; i--) {
		pos[i] = -1;
		for (int k = 0; k < ix->ndims; k++)
			if (ix->d[k].dim == mem->shape.dims[i])
				pos[i] = k;
		if (pos[i] < 0 && !map) {
			analysis_error(c, op->loc, "%s: dim %s of %s has no index", op->path, sym_name(mem->shape.dims[i]),
				mem->name);
			return false;
		}
		Sym *rt;
		size[i] = extent(c, op, mem->shape.dims[i], &rt);
		if (c->failed)
			return false;
		size_s[i] = rt ? rt : sym_int(sc, size[i]);
		rowstride[i] = rs_s;
		rs_s = sym_simplify(sc, sym_mul(sc, rs_s, size_s[i]), NULL);
		runtime |= rt != NULL;
		if (runtime)
			continue; /* runtime sizes: 32-bit arguments, tensors under 4 GiB (docs/compiler.md) */
		if (size[i] && rs > INT32_MAX / size[i]) {
			analysis_error(c, op->loc, "%s: %s has 2^31 or more elements: not compiled yet", op->path, mem->name);
			return false;
		}
		rs *= size[i];
	}
	if (!runtime && rs * dtype_size(mem->dtype) > INT32_MAX) {
		analysis_error(c, op->loc, "%s: %s is 2 GiB or larger: buffer offsets are 32-bit", op->path, mem->name);
		return false;
	}
	*p = (Access){.mem = mem, .ix = ix, .epc = ix->epc, .n = ix->ncopies * ix->epc};
	TVal **dv = isel_dyn_values(s, op, map, ix);
	if (c->failed)
		return false;
	p->el = ARENA_NEWN(&c->arena, Elem, p->n);
	p->run_ok = ARENA_NEWN(&c->arena, bool, ix->ncopies);
	for (int64_t cn = 0; cn < ix->ncopies; cn++) {
		for (int64_t j = 0; j < ix->epc; j++) {
			Elem *e = &p->el[cn * ix->epc + j];
			Sym *lin = sym_int(sc, 0), *dfrom[MAX_DIMS + 16], *dto[MAX_DIMS + 16];
			int nd = map && map->ndyn <= MAX_DIMS + 16 ? isel_dyn_bind(s, map, dv, cn * ix->epc + j, dfrom, dto) : 0;
			for (int i = 0; i < rank; i++) {
				Sym *co = mem_coord(s, op, map, mem, ix, pos, i, cn, j, nd, dfrom, dto);
				if (!co)
					return false;
				lin = sym_add(sc, lin, sym_mul(sc, co, rowstride[i]));
				if (!add_bound(s, op, e, sym_simplify(sc, sym_rel(sc, SYM_LT, co, size_s[i]), c->assume)))
					return false;
				/* without a mapping the register's coordinate is the
				 * memory's: a set extent (extent.c) bounds it too */
				Sym *set = map ? NULL : isel_extent_of(s, mem->shape.dims[i]);
				if (set && !add_bound(s, op, e, sym_simplify(sc, sym_rel(sc, SYM_LT, co, set), c->assume)))
					return false;
				/* a mapped coordinate may also fall below 0 (i - 1) */
				if (map && !add_bound(s, op, e, sym_simplify(sc, sym_rel(sc, SYM_GE, co, sym_int(sc, 0)), c->assume)))
					return false;
			}
			if (map && !map_bounds(s, op, map, ix, cn, j, e))
				return false;
			if (ix == c->index[op->id] && (!store_window(s, op, ix, cn, j, e) || !store_tile(s, op, ix, cn, j, e)))
				return false;
			if (!p->base)
				p->base = sym_simplify(sc, lin, c->assume);
			/* a mapped element that may lie before the tensor (j - 1, a
			 * dynamic row): offsets are unsigned, so a base below 0
			 * cannot carry the others; each in-bounds element's own
			 * index is >= 0. An element valid only where the base's
			 * element is (its bounds include the base's) may still
			 * count from the base: then the base is in bounds too */
			if (map && sym_kind(sym_simplify(sc, sym_rel(sc, SYM_GE, p->base, sym_int(sc, 0)), c->assume)) !=
					   SYM_TRUE && !implies_base(&p->el[0], e, sym_simplify(sc, sym_sub(sc, lin, p->base), c->assume))) {
				e->own = sym_simplify(sc, lin, c->assume);
				e->delta = 0;
				continue;
			}
			Sym *dl = sym_simplify(sc, sym_sub(sc, lin, p->base), c->assume);
			if (sym_is_int(dl, &e->delta)) {
				/* an element before the base (a reversed row): a negative
				 * immediate would land in the lane's unsigned offset */
				if (map && e->delta < 0) {
					e->own = sym_simplify(sc, lin, c->assume);
					e->delta = 0;
				}
				continue;
			}
			/* a runtime row length: the constant part in the offset
			 * field, the rest wave-uniform (an SGPR) when no lane is in it */
			Sym *lane, *uni;
			isel_expr_split(s, dl, &lane, &uni);
			int64_t k = 0;
			Sym *rest = sym_int(sc, 0);
			int nt = sym_kind(uni) == SYM_ADD ? sym_nargs(uni) : 1;
			for (int t = 0; t < nt; t++) {
				Sym *term = sym_kind(uni) == SYM_ADD ? sym_arg(uni, t) : uni;
				int64_t v;
				if (sym_is_int(term, &v))
					k += v;
				else
					rest = sym_add(sc, rest, term);
			}
			if (map && (sym_kind(lane) != SYM_INT || isel_depends_on_loop(s, rest))) {
				/* an im2col: the run's elements land on other rows */
				e->own = sym_simplify(sc, lin, c->assume);
				e->delta = 0;
				continue;
			}
			if (sym_kind(lane) != SYM_INT || !sym_is_int(lane, &(int64_t){0}) || isel_depends_on_loop(s, rest)) {
				analysis_error(c, op->loc, "%s: element %lld of copy %lld is %s elements from the first: only "
							  "constant or wave-uniform distances are compiled yet",
					op->path, (long long)j, (long long)cn, sym_str(sc, dl));
				return false;
			}
			int64_t lz;
			sym_is_int(lane, &lz);
			e->delta = k + lz;
			e->udelta = sym_simplify(sc, rest, c->assume);
		}
		/* one wide access: contiguous (the same uniform part), and valid together */
		bool ok = true;
		for (int64_t j = 0; j < ix->epc && ok; j++)
			ok = !p->el[cn * ix->epc + j].own;
		for (int64_t j = 1; j < ix->epc && ok; j++)
			ok = p->el[cn * ix->epc + j].delta == p->el[cn * ix->epc].delta + j &&
			     p->el[cn * ix->epc + j].udelta == p->el[cn * ix->epc].udelta;
		/* e0 in bounds says nothing of the others (N=255: 252 is, 255 is
		 * not); unless every element is proved in bounds, the run must
		 * be aligned to the dim's size so that e0 decides for all (a
		 * runtime size is not known to be a multiple: element by element) */
		bool bounded = false;
		for (int64_t j = 0; j < ix->epc; j++)
			bounded |= p->el[cn * ix->epc + j].nconds || p->el[cn * ix->epc + j].never;
		/* through a mapping the alignment of the register run says nothing
		 * of where the memory run meets a bound (j + 1 crosses the row
		 * end one element early): each element is checked on its own */
		if (ok && ix->epc > 1 && bounded && map)
			ok = same_bounds(p->el + cn * ix->epc, ix->epc);
		if (ok && ix->epc > 1 && bounded) {
			for (int k = 0; k < ix->ndims && ok; k++) {
				const DimIndex *di = &ix->d[k];
				if (di->size <= 1)
					continue;
				Sym *rt;
				int64_t sz = extent(c, op, di->dim, &rt);
				if (rt) {
					ok = false;
					break;
				}
				Sym *m = sym_simplify(sc, sym_mod(sc, index_coord(c, ix, k, cn, 0), sym_int(sc, di->size)),
					c->assume);
				int64_t mv;
				ok = sz % di->size == 0 && sym_is_int(m, &mv) && mv == 0;
			}
		}
		p->run_ok[cn] = ok;
	}
	return true;
}

/* Element index idx's byte offset split by uniformity: *lane (per lane,
 * for the offset VGPR) and *uni (wave-uniform, for soffset). Buffer
 * offsets are unsigned and the range check sees the lane's offset, so a
 * part that may be negative (a reversed mapping, N - 1 - j; a shift,
 * j - 1) is not split off: the whole goes to the lane, and the sum is
 * >= 0 wherever the element is in bounds. */
static void split_offset(Isel *s, const Access *p, Sym *idx, Sym **lane, Sym **uni)
{
	SymCtx *sc = s->c->k->sc;
	Sym *bytes = sym_mul(sc, idx, sym_int(sc, dtype_size(p->mem->dtype)));
	isel_expr_split(s, bytes, lane, uni);
	if (sym_kind(sym_simplify(sc, sym_rel(sc, SYM_GE, *lane, sym_int(sc, 0)), s->c->assume)) != SYM_TRUE ||
		sym_kind(sym_simplify(sc, sym_rel(sc, SYM_GE, *uni, sym_int(sc, 0)), s->c->assume)) != SYM_TRUE) {
		*lane = sym_simplify(sc, bytes, s->c->assume);
		*uni = sym_int(sc, 0);
	}
}

/* The soffset operand of a uniform byte offset. */
static MOpnd soffset_of(Isel *s, Op *op, Sym *uni)
{
	MOpnd o = isel_expr_lower(s, uni, op->loc);
	return o.kind == MO_IMM && (o.imm < -16 || o.imm > 64) ? isel_expr_to_sgpr(s, o) : o;
}

/* Offsets of the base: soffset (uniform bytes) and the lane offset VGPR. */
static void base_offsets(Isel *s, Op *op, Access *p, MOpnd *soff, MOpnd *voff)
{
	Sym *lane, *uni;
	split_offset(s, p, p->base, &lane, &uni);
	p->uni_bytes = uni;
	*soff = soffset_of(s, op, uni);
	*voff = isel_expr_lower(s, lane, op->loc);
	MBlock *save = s->b;
	if (s->pre && voff->kind != MO_VREG)
		s->b = s->pre;
	*voff = isel_expr_to_vgpr(s, *voff);
	s->b = save;
}

/* The soffset of element e: the base's, plus its uniform distance. */
static MOpnd elem_soffset(Isel *s, Op *op, const Access *p, MOpnd soff, const Elem *e)
{
	if (!e->udelta)
		return soff;
	SymCtx *sc = s->c->k->sc;
	Sym *b = sym_simplify(sc,
		sym_add(sc, p->uni_bytes, sym_mul(sc, e->udelta, sym_int(sc, dtype_size(p->mem->dtype)))), s->c->assume);
	return isel_expr_to_sgpr(s, isel_expr_lower(s, b, op->loc));
}

/* The offsets of an element addressed on its own (Elem.own): its byte
 * offset split by uniformity, soffset and offset VGPR; immediate 0. */
static void own_offsets(Isel *s, Op *op, const Access *p, const Elem *e, MOpnd *soff, MOpnd *voff)
{
	Sym *lane, *uni;
	split_offset(s, p, e->own, &lane, &uni);
	*soff = soffset_of(s, op, uni);
	*voff = isel_expr_to_vgpr(s, isel_expr_lower(s, lane, op->loc));
}

/* The lane offset for an element with bounds: out-of-bounds lanes get
 * OOB_OFFSET. Loop-invariant masks are made before the loop. */
static MOpnd masked_offset(Isel *s, Op *op, MOpnd voff, const Elem *e)
{
	if (!e->nconds && !e->never)
		return voff;
	MBlock *save = s->b;
	bool inv = true;
	for (int i = 0; i < e->nconds; i++)
		inv &= !isel_depends_on_loop(s, e->conds[i]);
	/* ... and the offset itself made before the loop (an element's own
	 * offset over the loop variable is made in it) */
	for (size_t i = 0; inv && s->pre && voff.kind == MO_VREG && i < s->b->insts.len; i++) {
		const MInst *in = &s->b->insts.data[i];
		for (int d = 0; d < in->ndef; d++)
			inv &= !(in->def[d].kind == MO_VREG && in->def[d].reg == voff.reg);
	}
	if (s->pre && inv)
		s->b = s->pre;
	MOpnd r;
	if (e->never) {
		r = isel_v1(s);
		MOpnd u = mo_imm(OOB_OFFSET);
		mblock_add(s->b, I_V_MOV_B32, 1, &r, 1, &u);
		s->b = save;
		return r;
	}
	r = isel_offset_where(s, op, voff, e->nconds, e->conds);
	s->b = save;
	return r;
}

MOpnd isel_offset_where(Isel *s, Op *op, MOpnd voff, int n, Sym *const *conds)
{
	if (n == 0)
		return voff;
	MOpnd r = isel_v1(s);
	uint32_t mask;
	bool in_vcc;
	isel_expr_conds_mask(s, n, conds, op->loc, &mask, &in_vcc);
	if (!in_vcc) {
		MOpnd d = mo_special(MO_VCC), u = mo_vreg(mask, RC_S2);
		mblock_add(s->b, I_S_MOV_B64, 1, &d, 1, &u);
	}
	/* The out-of-range offset lives in a VGPR: VOP2 reading vcc may not
	 * also take a literal (one constant-bus read on gfx9). It is made in
	 * the entry block, which dominates every use. */
	if (s->oob == UINT32_MAX) {
		MBlock *b = s->b;
		s->b = s->f->blocks.data[0];
		s->oob = mfunc_vreg(s->f, RC_V1);
		MOpnd d = mo_vreg(s->oob, RC_V1), u = mo_imm(OOB_OFFSET);
		mblock_add(s->b, I_V_MOV_B32, 1, &d, 1, &u);
		s->b = b;
	}
	MOpnd u[3] = {mo_vreg(s->oob, RC_V1), voff, mo_special(MO_VCC)};
	MInst *in = mblock_add(s->b, I_V_CNDMASK_B32, 1, &r, 3, u);
	in->flags |= MIF_E32;
	return r;
}

/* Element el's offsets from the access's base ones: its soffset in *eso
 * and the lane offset it returns, masked by its bounds. */
static MOpnd elem_offsets(Isel *s, Op *op, const Access *p, const Elem *el, MOpnd soff, MOpnd voff, MOpnd *eso)
{
	MOpnd evo = voff;
	*eso = soff;
	if (el->own)
		own_offsets(s, op, p, el, eso, &evo);
	else
		*eso = elem_soffset(s, op, p, soff, el);
	return masked_offset(s, op, evo, el);
}

static MOp load_op(int dwords)
{
	static const MOp ops[] = {0, I_BUFFER_LOAD_DWORD, I_BUFFER_LOAD_DWORDX2, I_BUFFER_LOAD_DWORDX3,
		I_BUFFER_LOAD_DWORDX4};
	return ops[dwords];
}

static MOp store_op(int dwords)
{
	static const MOp ops[] = {0, I_BUFFER_STORE_DWORD, I_BUFFER_STORE_DWORDX2, I_BUFFER_STORE_DWORDX3,
		I_BUFFER_STORE_DWORDX4};
	return ops[dwords];
}

/* s_waitcnt vmcnt(0) (and lgkmcnt(0) with lds), or the block's last
 * instruction made so when it is already an s_waitcnt vmcnt(0). */
static void wait_all(Isel *s, bool lds)
{
	MInst *w = s->b->insts.len ? &vec_last(&s->b->insts) : NULL;
	if (!w || w->op != I_S_WAITCNT || w->vmcnt != 0) {
		w = mblock_add(s->b, I_S_WAITCNT, 0, NULL, 0, NULL);
		w->vmcnt = 0;
		w->lgkmcnt = -1;
	}
	if (lds)
		w->lgkmcnt = 0;
}

/* One MUBUF instruction: data (load def or store use), offset VGPR,
 * descriptor, soffset, immediate byte offset. Offsets outside the 12-bit
 * field go into the VGPR. */
static void mubuf(Isel *s, MOp op, bool store, MOpnd data, MOpnd voff, uint32_t desc, MOpnd soff, int64_t imm,
	uint32_t extra)
{
	if (imm >= 4096 || imm < 0) {
		MOpnd d = isel_v1(s), u[2] = {mo_imm(imm), voff};
		mblock_add(s->b, I_V_ADD_U32, 1, &d, 2, u);
		voff = d;
		imm = 0;
	}
	MOpnd u[4];
	int n = 0;
	if (store)
		u[n++] = data;
	u[n++] = voff;
	u[n++] = mo_vreg(desc, RC_S4);
	u[n++] = soff;
	MInst *in = mblock_add(s->b, op, store ? 0 : 1, &data, n, u);
	in->flags |= MIF_OFFEN | extra | (s->vol ? MIF_VOL : 0) | (s->agent ? MIF_AGENT : 0);
	in->offset = (int32_t)imm;
	if (s->vol) /* as LLVM compiles a volatile access (AMDGPUUsage's memory
		     * model tables, gfx90a and gfx942): done before anything
		     * after it, so volatile accesses reach memory in program
		     * order (an SOPP row is a fence to the scheduler) */
		wait_all(s, false);
}

/* An acquire at agent scope after a read's loads (each with sc1, glc on
 * gfx90a: MIF_AGENT), as LLVM compiles a `load atomic acquire` at
 * syncscope("agent") (AMDGPUUsage's GFX942 and GFX90A memory-model tables;
 * clang-22): s_waitcnt vmcnt(0), then buffer_inv sc1 (gfx942, gfx950) or
 * buffer_wbinvl1_vol (gfx90a), so that later loads miss what the caches
 * held from before. A second s_waitcnt, an SOPP row and so a fence to the
 * scheduler, keeps those loads after the invalidate. */
void isel_acquire_after(Isel *s)
{
	wait_all(s, false);
	mblock_add(s->b, isel_is_gfx90a(s) ? I_BUFFER_WBINVL1_VOL : I_BUFFER_INV, 0, NULL, 0, NULL);
	wait_all(s, false);
}

/* A release at agent scope before a write's stores (each with sc1 on
 * gfx942 and gfx950: MIF_AGENT), as LLVM compiles a `store atomic release`
 * at syncscope("agent"): gfx942 and gfx950 buffer_wbl2 sc1 (the L2's dirty
 * lines written back), then s_waitcnt vmcnt(0) lgkmcnt(0); gfx90a the
 * wait alone. A wait before it too keeps the earlier accesses before it
 * in the schedule (an SOPP row is a fence to the scheduler). */
void isel_release_before(Isel *s)
{
	wait_all(s, true);
	if (!isel_is_gfx90a(s)) {
		mblock_add(s->b, I_BUFFER_WBL2, 0, NULL, 0, NULL);
		wait_all(s, true);
	}
}

/* 32-, 16- and 8-bit elements (8-bit: MMA operands, f8 results). */
static bool supported_dtype(Isel *s, Op *op, DType t)
{
	int es = dtype_size(t);
	if (es == 4 || es == 2 || es == 1)
		return true;
	analysis_error(s->c, op->loc, "%s: %s elements are not compiled yet", op->path, dtype_name(t));
	return false;
}

/* Whether copy cn of the plan is one wide access for v; if so, its first
 * dword *d0 and dword count *nd. */
static bool wide_run(const Access *p, const TVal *v, int64_t cn, int *d0, int *nd)
{
	if (!p->run_ok[cn] || (dtype_size(v->dtype) != 4 && !v->packed))
		return false;
	*d0 = isel_elem_dword(v, cn * p->epc);
	*nd = isel_elem_dword(v, p->epc);
	return true;
}

/* ---- scale dwords: 8-bit scales four to a dword ----
 *
 * A scaled MMA's scale is one e8m0 byte a lane; a read of them gathers
 * each byte into its own VGPR. When the value goes only to scaled MMAs'
 * scale operands (the MFMA picks a byte of its scale register by op_sel),
 * elements whose bytes share an aligned dword of memory (Wave's
 * preshuffled layout puts the two M copies and the two K blocks of a K
 * tile of 256 in one) are one buffer_load_dword, each element then byte
 * sel[e] of it. Elements are grouped when: their addresses differ by a
 * constant, the group's dword start is the first address minus a proved
 * constant (its address mod 4 simplifies to an integer), they have the
 * same bounds (one lane mask decides for all), and the tensor's bytes are
 * a multiple of 4 (an aligned dword holding an in-bounds byte is in bounds
 * whole). Others are a byte each, as before. */

/* Is v used (in region r and below) only as a scaled MMA's scale, or by a
 * same-width bitcast in the same index whose result is? */
static bool only_scale_uses(Analysis *c, const Region *r, const Value *v, const NodeIndex *ix)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *o = r->ops.data[i];
		for (int a = 0; a < o->nargs; a++) {
			if (o->args[a] != v || (o->kind == OP_SCALED_MMA && (a == 1 || a == 3)))
				continue;
			const Value *res = op_result(o);
			if (o->kind != OP_BITCAST || !res || dtype_size(res->dtype) != dtype_size(v->dtype) ||
				!isel_same_index(c->index[o->id], ix) || !only_scale_uses(c, c->k->body, res, ix))
				return false;
		}
		if (o->body && !only_scale_uses(c, o->body, v, ix))
			return false;
	}
	return true;
}

/* Element e's linear index (its own, or the base's plus its distance). */
static Sym *elem_index(SymCtx *sc, const Access *p, const Elem *e)
{
	if (e->own)
		return e->own;
	Sym *x = sym_add(sc, p->base, sym_int(sc, e->delta));
	return e->udelta ? sym_add(sc, x, e->udelta) : x;
}

static bool same_conds(const Elem *a, const Elem *b)
{
	if (a->never != b->never || a->nconds != b->nconds)
		return false;
	for (int i = 0; i < a->nconds; i++)
		if (!has_cond(b, a->conds[i]))
			return false;
	return true;
}

/* Are the tensor's bytes a multiple of 4 (some extent's product is)? */
static bool whole_dwords(Isel *s, Op *op, Value *mem)
{
	int64_t acc = dtype_size(mem->dtype) % 4;
	for (int i = 0; i < mem->shape.rank; i++) {
		Sym *rt;
		int64_t n = extent(s->c, op, mem->shape.dims[i], &rt);
		if (!rt)
			acc = acc * (n % 4) % 4;
	}
	return acc == 0;
}

/* Loads v's elements a dword per group as above, filling v->d and v->sel;
 * false (nothing emitted) where the value is not only scales. */
static bool read_scale_dwords(Isel *s, Op *op, Access *p, TVal *v, uint32_t desc, MOpnd soff, MOpnd voff)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	if (dtype_size(p->mem->dtype) != 1 || v->packed || p->epc != 1 || p->ix != c->index[op->id] || !op_result(op) ||
		!only_scale_uses(c, c->k->body, op_result(op), p->ix) || !whole_dwords(s, op, p->mem))
		return false;
	uint8_t *sel = ARENA_NEWN(&c->arena, uint8_t, p->n ? p->n : 1);
	bool *done = ARENA_NEWN(&c->arena, bool, p->n ? p->n : 1);
	/* each element's index, its byte in its dword (-1: not proved) and
	 * its dword's index */
	Sym **at = ARENA_NEWN(&c->arena, Sym *, p->n ? p->n : 1), **dw = ARENA_NEWN(&c->arena, Sym *, p->n ? p->n : 1);
	int *byte = ARENA_NEWN(&c->arena, int, p->n ? p->n : 1);
	for (int64_t e = 0; e < p->n; e++) {
		int64_t r;
		at[e] = sym_simplify(sc, elem_index(sc, p, &p->el[e]), c->assume);
		Sym *m = sym_simplify(sc, sym_mod(sc, at[e], sym_int(sc, 4)), c->assume);
		byte[e] = !p->el[e].never && sym_is_int(m, &r) && r >= 0 && r <= 3 ? (int)r : -1;
		dw[e] = sym_simplify(sc, sym_floordiv(sc, at[e], sym_int(sc, 4)), c->assume);
	}
	for (int64_t e = 0; e < p->n; e++) {
		if (done[e])
			continue;
		const Elem *el = &p->el[e];
		int r = byte[e];
		if (r < 0) {
			/* a byte on its own, in the low byte of its register */
			MOpnd eso, vo = elem_offsets(s, op, p, el, soff, voff, &eso);
			v->d[e] = isel_v1(s);
			mubuf(s, I_BUFFER_LOAD_UBYTE, false, v->d[e], vo, desc, eso, el->delta, 0);
			done[e] = true;
			continue;
		}
		/* the group's leader: this element moved back to its dword */
		Elem lead = *el;
		if (lead.own)
			lead.own = sym_simplify(sc, sym_sub(sc, lead.own, sym_int(sc, r)), c->assume);
		else
			lead.delta -= r;
		MOpnd eso, vo = elem_offsets(s, op, p, &lead, soff, voff, &eso), d = isel_v1(s);
		mubuf(s, I_BUFFER_LOAD_DWORD, false, d, vo, desc, eso, lead.own ? 0 : lead.delta, 0);
		for (int64_t f = e; f < p->n; f++) {
			int64_t k = 0;
			if (done[f] || byte[f] < 0 || !same_conds(el, &p->el[f]))
				continue;
			/* in the same dword: its index the same (or r + the elements'
			 * constant distance is its byte) */
			bool same = f == e || dw[f] == dw[e] ||
				    (sym_is_int(sym_simplify(sc, sym_sub(sc, dw[f], dw[e]), c->assume), &k) && k == 0) ||
				    (sym_is_int(sym_simplify(sc, sym_sub(sc, at[f], at[e]), c->assume), &k) && r + k == byte[f]);
			if (!same)
				continue;
			v->d[f] = d;
			sel[f] = (uint8_t)byte[f];
			done[f] = true;
		}
	}
	v->sel = sel;
	return true;
}

TVal *isel_read_global(Isel *s, Op *op, Value *mem, const NodeIndex *ix)
{
	DType t = mem->dtype;
	int es = dtype_size(t);
	Access p;
	if (!supported_dtype(s, op, t) || !plan_access(s, op, mem, ix, &p))
		return NULL;
	TVal *v = isel_tval_new(s, t, p.n, ix);
	uint32_t desc = descriptor(s, mem);
	MOpnd soff, voff;
	base_offsets(s, op, &p, &soff, &voff);
	/* 16-bit halves loaded apart: joined after every load is issued, so the
	 * loads overlap instead of each join waiting for its pair (one
	 * s_waitcnt per join); sel is v_perm_b32's selector, made once */
	int64_t *hi_of = ARENA_NEWN(&s->c->arena, int64_t, v->nd ? v->nd : 1);
	MOpnd *hi_reg = ARENA_NEWN(&s->c->arena, MOpnd, v->nd ? v->nd : 1), sel = {0};
	for (int i = 0; i < v->nd; i++)
		hi_of[i] = -1;
	if (read_scale_dwords(s, op, &p, v, desc, soff, voff))
		return v;
	for (int64_t cn = 0; cn < ix->ncopies; cn++) {
		const Elem *e0 = &p.el[cn * p.epc];
		int d0, nd;
		if (wide_run(&p, v, cn, &d0, &nd)) {
			MOpnd vo = masked_offset(s, op, voff, e0);
			for (int d = 0; d < nd; d += 4) {
				int w = MIN(4, nd - d);
				uint32_t r = mfunc_vreg(s->f, rc_make(RF_VGPR, w));
				mubuf(s, load_op(w), false, mo_vreg(r, rc_make(RF_VGPR, w)), vo, desc,
					elem_soffset(s, op, &p, soff, e0), e0->delta * es + 4 * d, 0);
				for (int k = 0; k < w; k++)
					v->d[d0 + d + k] = mo_vsub(r, k, RC_V1);
			}
			continue;
		}
		for (int64_t j = 0; j < p.epc; j++) {
			int64_t e = cn * p.epc + j;
			const Elem *el = &p.el[e];
			MOpnd eso, vo = elem_offsets(s, op, &p, el, soff, voff, &eso);
			int64_t imm = el->delta * es;
			int per = isel_per_dword(v);
			if (e % per == 0) {
				int di = isel_elem_dword(v, e);
				v->d[di] = isel_v1(s);
				mubuf(s, es == 4 ? I_BUFFER_LOAD_DWORD : es == 2 ? I_BUFFER_LOAD_USHORT : I_BUFFER_LOAD_UBYTE, false,
					v->d[di], vo, desc, eso, imm, 0);
			} else if (es == 1) {
				/* a byte into its own register (not a d16 load: memory.c's
				 * SRAM ECC note below), then into its place in the dword */
				MOpnd x = isel_v1(s);
				mubuf(s, I_BUFFER_LOAD_UBYTE, false, x, vo, desc, eso, imm, 0);
				v->d[e / 4] = isel_insert_byte(s, v->d[e / 4], x, (int)(e % 4));
			} else {
				/* Not buffer_load_short_d16_hi into the pair's dword: with
				 * SRAM ECC on (MI200/MI300 default) a d16 load zeroes the
				 * half it does not write. A ushort into its own register,
				 * then bytes {lo.0, lo.1, hi.0, hi.1} by v_perm_b32. */
				MOpnd hi = isel_v1(s);
				mubuf(s, I_BUFFER_LOAD_USHORT, false, hi, vo, desc, eso, imm, 0);
				hi_of[e / 2] = e;
				hi_reg[e / 2] = hi;
			}
		}
	}
	if (s->pf_halves) { /* carried as loaded, joined a trip later (pf_pack.c) */
		for (int i = 0; i < v->nd; i++)
			if (hi_of[i] < 0)
				hi_reg[i] = (MOpnd){0};
		return isel_pf_halves(s, v, hi_reg, s->pf_halves);
	}
	for (int i = 0; i < v->nd; i++) {
		if (hi_of[i] < 0)
			continue;
		if (sel.kind == MO_NONE) {
			MOpnd k = mo_imm(0x05040100);
			sel = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1);
			mblock_add(s->b, I_S_MOV_B32, 1, &sel, 1, &k); /* VOP3 takes no literal on gfx9 */
		}
		MOpnd u[3] = {hi_reg[i], v->d[i], sel};
		v->d[i] = isel_v1(s);
		mblock_add(s->b, I_V_PERM_B32, 1, &v->d[i], 3, u);
	}
	return v;
}

/* Is every copy of gx one 16-byte run, valid or out of bounds as a whole
 * (one buffer_load_dwordx4 each)? */
bool isel_lds_dma_fits(Isel *s, Op *op, Value *mem, const NodeIndex *gx)
{
	Access p;
	if (dtype_size(mem->dtype) * gx->epc != 16 || !plan_access(s, op, mem, gx, &p))
		return false;
	for (int64_t cn = 0; cn < gx->ncopies; cn++)
		if (!p.run_ok[cn] || p.el[cn * p.epc].own)
			return false;
	return true;
}

void isel_read_global_lds(Isel *s, Op *op, Value *mem, const NodeIndex *gx, const MOpnd *lds)
{
	int es = dtype_size(mem->dtype);
	Access p;
	if (!plan_access(s, op, mem, gx, &p))
		return;
	uint32_t desc = descriptor(s, mem);
	MOpnd soff, voff;
	base_offsets(s, op, &p, &soff, &voff);
	for (int64_t cn = 0; cn < gx->ncopies; cn++) {
		const Elem *e0 = &p.el[cn * p.epc];
		MOpnd vo = masked_offset(s, op, voff, e0), eso = elem_soffset(s, op, &p, soff, e0);
		int64_t imm = e0->delta * es;
		if (imm >= 4096 || imm < 0) { /* past the offset field: into the VGPR */
			MOpnd d = isel_v1(s), u[2] = {mo_imm(imm), vo};
			mblock_add(s->b, I_V_ADD_U32, 1, &d, 2, u);
			vo = d;
			imm = 0;
		}
		/* the immediate offset moves the LDS address too: M0 takes it off */
		MOpnd m0 = mo_special(MO_M0), u2[2] = {lds[cn], mo_imm(-imm)};
		if (imm)
			mblock_add(s->b, I_S_ADD_U32, 1, &m0, 2, u2);
		else
			mblock_add(s->b, I_S_MOV_B32, 1, &m0, 1, &lds[cn]);
		MOpnd u[4] = {vo, mo_vreg(desc, RC_S4), eso, mo_special(MO_M0)};
		MInst *in = mblock_add(s->b, I_BUFFER_LOAD_DWORDX4, 0, NULL, 4, u);
		in->flags |= MIF_OFFEN | MIF_LDS;
		in->offset = (int32_t)imm;
	}
}

static int cmp_key(const void *a, const void *b);

/* Whether a write's mapping sends distinct register elements to distinct
 * memory elements; false after reporting. Two elements stored to one
 * address race (which lands is up to the hardware; the interpreter keeps
 * the last in its order), so a mapping not shown one-to-one is rejected.
 * The memory expressions are grouped by the iterators they share; each
 * iterator of a dim longer than 1 must be in some group, and each group
 * must be one-to-one over its iterators' ranges: a single expression
 * affine in a single iterator (j + 2, 3*j + 1, N - 1 - j) is, any other
 * group (conv's floor(m / 36), Mod(m, 6), ...) is checked point by point
 * over at most 2^16 points. */
static bool write_one_to_one(Isel *s, Op *op, const Mapping *m)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	int nreg, nmem;
	Sym **rdims, **rexprs, **mdims, **mexprs;
	map_sides(op, m, &nreg, &rdims, &rexprs, &nmem, &mdims, &mexprs);
	if (nreg > 16 || nmem > 16)
		return true; /* the frontend limits mappings to MAX_DIMS */
	Sym *e[16];
	unsigned uses[16] = {0};
	int64_t len[16];
	for (int r = 0; r < nreg; r++) {
		Sym *rt = analysis_runtime(c, rdims[r]);
		len[r] = rt ? -1 : analysis_int(c, rdims[r], op->loc, sym_name(rdims[r]));
		if (c->failed)
			return false;
	}
	unsigned dynq = 0; /* memory expressions with a dynamic value */
	for (int q = 0; q < nmem; q++) {
		e[q] = kernel_subs(c->k, mexprs[q]);
		Sym *fs[16];
		size_t nf = sym_free_symbols(sc, e[q], fs, 16);
		for (size_t f = 0; f < nf && f < 16; f++) {
			for (int r = 0; r < nreg; r++)
				uses[q] |= (unsigned)(fs[f] == rexprs[r]) << r;
			for (int d = 0; d < m->ndyn; d++)
				dynq |= (unsigned)(fs[f] == m->dyn[d]) << q;
			/* a set symbol's per-lane value places by data too */
			dynq |= (unsigned)(strncmp(sym_name(fs[f]), "$T_", 3) == 0) << q;
		}
	}
	unsigned seen = 0, done = 0;
	for (int q = 0; q < nmem; q++)
		seen |= uses[q];
	/* A dynamic value (or a set_symbol's value: Wave's speculative
	 * decoding writes predicts[LAST_ACCEPTED_RETRIEVE_IDX]) in a memory
	 * coordinate places elements by data (a
	 * scatter, Wave's offset writes): distinct places are the input's
	 * contract, as for torch's scatter, and cannot be checked here. An
	 * iterator the expressions do not name reaches memory through the
	 * dynamic values then; groups with a dynamic value are not checked. */
	if (dynq)
		seen = ~0u;
	for (int r = 0; r < nreg; r++)
		if (!(seen >> r & 1) && len[r] != 1) {
			analysis_error(c, op->loc, "%s: the write's mapping does not use iterator %s (dim %s): elements along it "
						  "would be stored to the same place (a race)",
				op->path, sym_name(rexprs[r]), sym_name(rdims[r]));
			return false;
		}
	for (int q = 0; q < nmem; q++) {
		if (!uses[q] || (done >> q & 1))
			continue;
		/* the group of q: expressions sharing iterators with it, transitively */
		unsigned its = uses[q], grp = 0;
		for (bool grew = true; grew;) {
			grew = false;
			for (int k = 0; k < nmem; k++)
				if (!(grp >> k & 1) && (uses[k] & its)) {
					grp |= 1u << k;
					its |= uses[k];
					grew = true;
				}
		}
		done |= grp;
		if (grp & dynq)
			continue;
		int ni = __builtin_popcount(its), ng = __builtin_popcount(grp);
		if (ni == 1 && ng == 1) {
			int r = __builtin_ctz(its);
			Sym *step = sym_simplify(sc,
				sym_sub(sc, sym_subs(sc, e[q], 1, &rexprs[r], &(Sym *){sym_add(sc, rexprs[r], sym_int(sc, 1))}), e[q]),
				NULL);
			int64_t d;
			if (sym_is_int(step, &d) && d != 0)
				continue; /* affine: one-to-one */
		}
		int64_t points = 1;
		Sym *isyms[16];
		int64_t ilen[16];
		int nis = 0;
		for (int r = 0; r < nreg; r++)
			if (its >> r & 1) {
				if (len[r] < 0 || points > (1 << 16) / (len[r] ? len[r] : 1)) {
					points = -1;
					break;
				}
				points *= len[r];
				isyms[nis] = rexprs[r];
				ilen[nis++] = len[r];
			}
		if (points < 0) {
			analysis_error(c, op->loc, "%s: the write's mapping cannot be shown one-to-one (its memory expressions "
						  "in %s are not affine and range over more than 2^16 points): not compiled yet",
				op->path, sym_name(rexprs[__builtin_ctz(its)]));
			return false;
		}
		int64_t *tup = xcalloc((size_t)(points * (ng + 1)), sizeof *tup);
		int64_t val[16] = {0};
		bool ok = true;
		for (int64_t pt = 0; pt < points && ok; pt++) {
			int64_t x = pt;
			for (int i = nis - 1; i >= 0; i--) {
				val[i] = x % ilen[i];
				x /= ilen[i];
			}
			int col = 0;
			for (int k = 0; k < nmem && ok; k++) {
				if (!(grp >> k & 1))
					continue;
				SymRat rv;
				const char *why;
				ok = sym_eval(sc, e[k], nis, isyms, val, &rv, &why) == 0 && rv.q == 1;
				tup[pt * (ng + 1) + col++] = rv.p;
			}
		}
		if (ok) {
			/* each tuple as one mixed-radix key over the columns' ranges,
			 * sorted: a repeated key is a repeated place */
			int64_t n = ng + 1, *key = xcalloc((size_t)points, sizeof *key), radix = 1;
			bool fits = true;
			for (int col = ng - 1; col >= 0 && fits; col--) {
				int64_t lo = INT64_MAX, hi = INT64_MIN;
				for (int64_t pt = 0; pt < points; pt++) {
					lo = tup[pt * n + col] < lo ? tup[pt * n + col] : lo;
					hi = tup[pt * n + col] > hi ? tup[pt * n + col] : hi;
				}
				for (int64_t pt = 0; pt < points; pt++)
					key[pt] += (tup[pt * n + col] - lo) * radix;
				fits = hi - lo < (INT64_C(1) << 20) && radix <= (INT64_C(1) << 40) / (hi - lo + 1);
				radix *= hi - lo + 1;
			}
			if (fits) {
				qsort(key, (size_t)points, sizeof *key, cmp_key);
				for (int64_t pt = 1; pt < points && ok; pt++)
					ok = key[pt - 1] != key[pt];
			}
			free(key);
			if (!fits) {
				free(tup);
				analysis_error(c, op->loc, "%s: the write's mapping cannot be shown one-to-one (its memory "
							  "coordinates span too wide a range): not compiled yet",
					op->path);
				return false;
			}
		}
		free(tup);
		if (!ok) {
			analysis_error(c, op->loc, "%s: the write's mapping sends two elements to the same place (through %s): a "
						  "race, not compiled",
				op->path, sym_name(rexprs[__builtin_ctz(its)]));
			return false;
		}
	}
	return true;
}

static int cmp_key(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* ---- gfx950: accumulator rows joined by v_permlane16_swap_b32 ----
 *
 * A 16x16 MFMA's accumulator holds, per register, 16 consecutive N of a
 * row in each 16-lane row of the wave (4 rows in all): a store writes four
 * 64-byte pieces of four rows (f32; 32-byte ones in bf16), so every line
 * of the output is written in two (four) pieces. Two copies 16 elements
 * apart along the contiguous dim (N neighbours) are swapped per dword
 * (v_permlane16_swap_b32 a, b: a's odd 16-lane rows <-> b's even ones):
 * then each of a and b holds 32 consecutive N of two rows, and each lane
 * stores the element it now holds at that element's address. A lane's
 * partner in the swap is lane l ^ 16, so with P the lane's base offset and
 * Q the partner's (the base's lane part with $T0 -> $T0 ^ 16):
 *   a: odd rows (bit 4 of the lane) hold b's element of the partner,
 *      Q + 16 elements, even ones their own, P;
 *   b: odd rows their own, P + 16, even ones a's element of the partner, Q;
 * each store with a's element's immediate offset. Only where both copies'
 * elements are unconditionally in bounds (no lane mask to move) and their
 * distances are constants; correct for any layout, used for the MFMA's. */

/* Does v come (through casts and a loop's result) from a 16x16 MMA? */
static bool from_mma16(const Kernel *k, const Value *v)
{
	for (int guard = 0; v && v->kind == VAL_RESULT && v->def && guard < 16; guard++) {
		const Op *d = v->def;
		if (d->kind == OP_CAST)
			v = d->args[0];
		else if (d->kind == OP_ITERATE && d->body && d->body->ops.len &&
			 d->body->ops.data[d->body->ops.len - 1]->kind == OP_OUTPUT &&
			 v->res_idx < d->body->ops.data[d->body->ops.len - 1]->nargs)
			v = d->body->ops.data[d->body->ops.len - 1]->args[v->res_idx];
		else if (d->kind == OP_MMA || d->kind == OP_SCALED_MMA) {
			MmaType t = op_mma_type(k, d);
			return t != MMA_NONE && mma_info[t].m == 16 && mma_info[t].n == 16;
		} else
			return false;
	}
	return false;
}

/* Can copy b's elements pair with copy a's (b's 16 elements on)? */
static bool swap_pair(const Access *p, int64_t a, int64_t b)
{
	for (int64_t j = 0; j < p->epc; j++) {
		const Elem *x = &p->el[a * p->epc + j], *y = &p->el[b * p->epc + j];
		if (x->own || y->own || x->udelta || y->udelta || x->nconds || y->nconds || x->never || y->never ||
			y->delta != x->delta + 16)
			return false;
	}
	return true;
}

/* vcc ? t : f, one VGPR */
static MOpnd lane_select(Isel *s, uint32_t mask, bool in_vcc, MOpnd f, MOpnd t)
{
	if (!in_vcc) {
		MOpnd d = mo_special(MO_VCC), u = mo_vreg(mask, RC_S2);
		mblock_add(s->b, I_S_MOV_B64, 1, &d, 1, &u);
	}
	MOpnd r = isel_v1(s), u[3] = {isel_vgpr(s, f), isel_vgpr(s, t), mo_special(MO_VCC)};
	MInst *in = mblock_add(s->b, I_V_CNDMASK_B32, 1, &r, 3, u);
	in->flags |= MIF_E32;
	return r;
}

static MOpnd add_imm(Isel *s, MOpnd x, int64_t k)
{
	MOpnd d = isel_v1(s), u[2] = {mo_imm(k), isel_vgpr(s, x)};
	mblock_add(s->b, I_V_ADD_U32, 1, &d, 2, u);
	return d;
}

/* Stores the pairs it finds (done[cn] set for their copies); nothing where
 * the write does not qualify. */
static void write_swapped_pairs(Isel *s, Op *op, const Access *p, const TVal *v, uint32_t desc, MOpnd soff,
	MOpnd voff, bool *done)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	int es = dtype_size(p->mem->dtype), per = isel_per_dword(v);
	const NodeIndex *ix = p->ix;
	if (!isel_is_gfx950(s) || op->mapping || v->sel || (es != 4 && es != 2) || (es == 2 && !v->packed) ||
		p->epc % per || !from_mma16(c->k, op->args[0]))
		return;
	int64_t *mate = ARENA_NEWN(&c->arena, int64_t, ix->ncopies);
	int npairs = 0;
	bool *taken = ARENA_NEWN(&c->arena, bool, ix->ncopies);
	for (int64_t a = 0; a < ix->ncopies; a++)
		mate[a] = -1;
	for (int64_t a = 0; a < ix->ncopies; a++)
		for (int64_t b = 0; b < ix->ncopies && !taken[a] && !done[a] && !p->run_ok[a]; b++)
			if (b != a && !taken[b] && !done[b] && !p->run_ok[b] && swap_pair(p, a, b)) {
				mate[a] = b;
				taken[a] = taken[b] = true;
				npairs++;
			}
	if (!npairs)
		return;
	/* the partner lane's base: $T0 ^ 16 (the same wave) */
	Sym *t0 = sym_symbol(sc, "$T0"), *bit = sym_mod(sc, sym_floordiv(sc, t0, sym_int(sc, 16)), sym_int(sc, 2));
	Sym *partner = sym_sub(sc, sym_add(sc, t0, sym_int(sc, 16)), sym_mul(sc, bit, sym_int(sc, 32)));
	/* its offset less the base's wave-uniform part (the same terms: the
	 * partner is a lane of the same wave) */
	Sym *lane = sym_simplify(sc,
		sym_sub(sc, sym_mul(sc, sym_subs(sc, p->base, 1, &t0, &partner), sym_int(sc, es)), p->uni_bytes), c->assume);
	if (isel_depends_on_loop(s, lane))
		return;
	MOpnd q = isel_expr_to_vgpr(s, isel_expr_lower(s, lane, op->loc)), pv = isel_vgpr(s, voff);
	uint32_t mask;
	bool in_vcc;
	Sym *even = sym_simplify(sc, sym_rel(sc, SYM_LT, sym_mod(sc, t0, sym_int(sc, 32)), sym_int(sc, 16)), c->assume);
	if (!isel_expr_conds_mask(s, 1, &even, op->loc, &mask, &in_vcc))
		return;
	MOpnd oa = lane_select(s, mask, in_vcc, add_imm(s, q, 16 * es), pv);
	MOpnd ob = lane_select(s, mask, true, add_imm(s, pv, 16 * es), q); /* vcc still holds it */
	for (int64_t a = 0; a < ix->ncopies; a++) {
		if (mate[a] < 0)
			continue;
		int64_t b = mate[a];
		for (int64_t j = 0; j < p->epc; j += per) {
			MOpnd x = isel_v1(s), y = isel_v1(s);
			isel_mov(s, x, v->d[isel_elem_dword(v, a * p->epc + j)]);
			isel_mov(s, y, v->d[isel_elem_dword(v, b * p->epc + j)]);
			MOpnd d[2] = {x, y};
			mblock_add(s->b, I_V_PERMLANE16_SWAP_B32, 2, d, 2, d);
			for (int h = 0; h < per; h++) {
				const Elem *el = &p->el[a * p->epc + j + h];
				MOp sop = es == 4 ? I_BUFFER_STORE_DWORD : h ? I_BUFFER_STORE_SHORT_D16_HI : I_BUFFER_STORE_SHORT;
				mubuf(s, sop, true, x, oa, desc, soff, el->delta * es, 0);
				mubuf(s, sop, true, y, ob, desc, soff, el->delta * es, 0);
			}
		}
		done[a] = done[b] = true;
	}
}

void isel_select_write(Isel *s, Op *op)
{
	Value *mem = op->args[1];
	const NodeIndex *ix = s->c->index[op->id];
	DType t = mem->dtype;
	int es = dtype_size(t);
	const TVal *v = s->val[op->args[0]->id];
	if (!v || !ix)
		return;
	if (v->dtype != t) {
		analysis_error(s->c, op->loc, "%s: writing %s to %s %s needs a cast op", op->path, dtype_name(v->dtype),
			dtype_name(t), mem->name);
		return;
	}
	Access p;
	if (mem->space != AS_GLOBAL) {
		analysis_error(s->c, op->loc, "%s: writing %s, which lives in shared memory, is not compiled yet", op->path,
			mem->name);
		return;
	}
	if (op->mapping && !write_one_to_one(s, op, op->mapping))
		return;
	if (!supported_dtype(s, op, t) || !plan_access(s, op, mem, ix, &p))
		return;
	if (v->ix != ix && !(v = isel_tval_gather(s, v, ix, op)))
		return;
	/* under a condition of several elements per lane (control.c): each
	 * element stored where its own condition element holds */
	const TVal *wc = s->wcond;
	if (wc && wc->ix != ix && !(wc = isel_tval_gather(s, wc, ix, op)))
		return;
	uint32_t desc = descriptor(s, mem);
	MOpnd soff, voff;
	base_offsets(s, op, &p, &soff, &voff);
	bool *done = ARENA_NEWN(&s->c->arena, bool, ix->ncopies ? ix->ncopies : 1);
	if (!wc) /* (per-element conditions store element by element) */
		write_swapped_pairs(s, op, &p, v, desc, soff, voff, done);
	for (int64_t cn = 0; cn < ix->ncopies; cn++) {
		const Elem *e0 = &p.el[cn * p.epc];
		int d0, nd;
		if (done[cn])
			continue;
		if (!wc && wide_run(&p, v, cn, &d0, &nd)) {
			MOpnd vo = masked_offset(s, op, voff, e0);
			for (int d = 0; d < nd; d += 4) {
				int w = MIN(4, nd - d);
				mubuf(s, store_op(w), true, isel_tuple_of(s, v, d0 + d, w), vo, desc,
					elem_soffset(s, op, &p, soff, e0), e0->delta * es + 4 * d,
					0);
			}
			continue;
		}
		for (int64_t j = 0; j < p.epc; j++) {
			int64_t e = cn * p.epc + j;
			const Elem *el = &p.el[e];
			if (el->never)
				continue;
			MOpnd eso, vo = elem_offsets(s, op, &p, el, soff, voff, &eso);
			if (wc)
				vo = isel_cond_offset(s, wc, e, vo);
			int part = (int)(e % isel_per_dword(v)); /* the element's place in its dword */
			MOpnd x = v->d[isel_elem_dword(v, e)];
			MOp sop = es == 4 ? I_BUFFER_STORE_DWORD : es == 2 ? I_BUFFER_STORE_SHORT : I_BUFFER_STORE_BYTE;
			if (es == 2 && part)
				sop = I_BUFFER_STORE_SHORT_D16_HI;
			else if (es == 1 && part) {
				/* bytes 1-3 moved down first (store_byte_d16_hi is not
				 * among the instructions validated against clang) */
				MOpnd t = isel_v1(s), u[2] = {mo_imm(8 * part), isel_vgpr(s, x)};
				mblock_add(s->b, I_V_LSHRREV_B32, 1, &t, 2, u);
				x = t;
			}
			mubuf(s, sop, true, x, vo, desc, eso, el->delta * es, 0);
		}
	}
}

/* Each element of an access one instruction at a time (atomic.c): fn gets
 * the element's number, the descriptor, soffset, the lane offset (masked:
 * an out-of-bounds lane gets OOB_OFFSET, which the buffer's range check
 * drops) and an immediate byte offset inside the 12-bit field. Elements
 * never in bounds are skipped. False after reporting. */
bool isel_each_element(Isel *s, Op *op, Value *mem, const NodeIndex *ix, IselElemFn fn, void *ctx)
{
	Access p;
	if (!supported_dtype(s, op, mem->dtype) || !plan_access(s, op, mem, ix, &p))
		return false;
	uint32_t desc = descriptor(s, mem);
	MOpnd soff, voff;
	base_offsets(s, op, &p, &soff, &voff);
	for (int64_t e = 0; e < p.n; e++) {
		const Elem *el = &p.el[e];
		if (el->never)
			continue;
		MOpnd eso, vo = elem_offsets(s, op, &p, el, soff, voff, &eso);
		int64_t imm = el->delta * dtype_size(mem->dtype);
		if (imm >= 4096 || imm < 0) {
			MOpnd d = isel_v1(s), u[2] = {mo_imm(imm), vo};
			mblock_add(s->b, I_V_ADD_U32, 1, &d, 2, u);
			vo = d;
			imm = 0;
		}
		fn(s, op, ctx, e, desc, eso, vo, imm);
	}
	return true;
}
