/* local.c — allocations (Wave's tkw.allocate): the workgroup's own buffers
 * in LDS, their accesses (read, write, atomic_add, atomic_min,
 * scatter_add) as DS instructions, and the barriers that order them.
 *
 * Space: an allocate op takes its distributed_shape's bytes (its padding
 * included: the last dim's rows are that long) on the LDS stack at a
 * 16-byte boundary, plus bytes no element uses: lanes whose element is
 * out of bounds address them instead (16 they read, and 16 per wave they
 * write: waves storing different values to one place would race, which is
 * harmless but what the emulator's checks report), since a DS access has
 * no range check. The plan places it (passes/plan/lds_place.c) on the
 * region's LDS stack, and space a region that ended used gets a barrier
 * before it is reused.
 *
 * Addresses: an element's coordinate along each register dim counts from
 * its workgroup's tile and its loop trip's window (the index's coordinate
 * minus the workgroup's start of a workgroup dim, minus the trip's window
 * start inside the iterate over the dim: Wave's remove_global_indexing),
 * through the op's mapping (iterators bound to those coordinates, dynamic
 * values as expr.c's per-lane symbols) to the allocation's dims; scatter_add
 * takes its index register's element along `dim` (a per-lane symbol of its
 * dword, as dynmap.c's). The byte address, row-major over the distributed
 * extents, is one VGPR per distinct lane expression with the constant rest
 * in the offset field. Bounds: each register coordinate inside its dim (as
 * for global memory), each allocation coordinate in [0, extent) (the last
 * dim's extent without the padding); what the ranges do not prove becomes a
 * lane mask, which sends the lane's address to the unused bytes (a masked
 * read then gives 0, by v_cndmask). A copy's run of elements is one
 * ds_read/ds_write_b64 or _b128 when contiguous, unmasked or masked alike,
 * and aligned (proved from the expression); else one access per element
 * (16-bit elements: ds_read_u16 and ds_write_b16, joined or split as
 * relayout.c does).
 *
 * Atomics: one DS atomic per element (ds_add_u32, ds_add_f32, ds_min_i32,
 * ds_min_u32; ds_add_rtn_u32 when an atomic_add's old values are used); an
 * element several lanes of a wave hold (a reduction's result) is combined
 * by one of them (atomic.c's repeat bits), as atomic.c does in global
 * memory.
 *
 * Barriers (the plan, made once before selection): the interpreter runs the
 * waves in lockstep, so every op sees what the ops before it stored
 * (docs/kernel-format.md, "Allocations"). Walking the graph in program order
 * with, per allocation, what was read, written, added and min-ed since the
 * last barrier, an access that conflicts with one of them (a read after a
 * store, a store after a read or a store, an add after a min and the
 * reverse; adds after adds commute) gets an s_barrier before it (the wait
 * pass puts lgkmcnt(0) before each barrier), which clears the state. A loop
 * body is walked from the state at its entry joined with the state at its
 * end until that stops growing, so a trip's first write waits for the last
 * trip's reads. A conditional whose condition is the same in every lane
 * and wave (isel_cond_uniform: scalar arguments, constants, symbols,
 * workgroup ids) is taken by all the waves or by none: its body is walked
 * as straight-line code (barriers, explicit or planned, inside it; control.c
 * then branches around it with a scalar branch), and the state after it
 * joins the body's end with its entry. Any other conditional's body may run
 * in some waves only: the barrier its accesses need goes before the
 * conditional, and one needed between the body's own accesses is a located
 * error, as is an explicit barrier inside it (or inside a uniform
 * conditional nested in it). A workgroup of one wave needs none (a
 * wave's DS accesses complete in order); explicit barriers
 * (shared_memory_barrier, workgroup_barrier) are emitted as they are. */
#include <stdio.h>
#include <string.h>

#include "isel.h"

enum {
	TRASH_BYTES = PLAN_LOCAL_TRASH_BYTES, /* per wave, the bytes its lanes out of bounds write; 16 more they read */
	MAX_SLOTS = 64,   /* allocations one barrier plan tracks */
	MAX_LCONDS = 4 * MAX_DIMS + 6,
};

/* ---- the barrier plan ---- */

enum { K_READ, K_WRITE, K_ADD, K_MIN, K_NONE };

/* What was done to each allocation (a bit per slot) since the last
 * barrier. */
typedef struct SyncSet {
	uint64_t k[4];
} SyncSet;

typedef struct SyncWalk {
	Isel *s;
	int *slot;   /* by op id: an allocate's bit, else -1 */
	bool mark;   /* record the barriers in s->local_sync */
	bool need;   /* some access needed a barrier */
	const Op *bad; /* an access or barrier inside a conditional that cannot have one */
} SyncWalk;

static int access_kind(const Op *op)
{
	switch (op->kind) {
	case OP_READ: return K_READ;
	case OP_WRITE: return K_WRITE;
	case OP_ATOMIC_ADD: case OP_SCATTER_ADD: return K_ADD;
	case OP_ATOMIC_MIN: return K_MIN;
	default: return K_NONE;
	}
}

/* The allocations an access of kind k must not pass without a barrier. */
static uint64_t conflicts(const SyncSet *st, int k)
{
	uint64_t all = st->k[K_READ] | st->k[K_WRITE] | st->k[K_ADD] | st->k[K_MIN];
	switch (k) {
	case K_READ: return all & ~st->k[K_READ];
	case K_ADD: return all & ~st->k[K_ADD];
	case K_MIN: return all & ~st->k[K_MIN];
	default: return all;
	}
}

static SyncSet join(SyncSet a, SyncSet b)
{
	for (int i = 0; i < 4; i++)
		a.k[i] |= b.k[i];
	return a;
}

static bool same(const SyncSet *a, const SyncSet *b) { return !memcmp(a, b, sizeof *a); }

static SyncSet walk(SyncWalk *w, Region *r, SyncSet st, bool in_cond);

static SyncSet walk_loop(SyncWalk *w, Op *op, SyncSet st, bool in_cond)
{
	bool mark = w->mark;
	w->mark = false;
	SyncSet in = st;
	for (int n = 0; n < 8; n++) { /* grows monotonically: a few rounds */
		SyncSet next = join(in, walk(w, op->body, in, in_cond));
		if (same(&next, &in))
			break;
		in = next;
	}
	w->mark = mark;
	/* the loop may run no trip */
	return join(st, walk(w, op->body, in, in_cond));
}

/* A conditional's body runs in some waves only: a barrier it needs goes
 * before it, and none may be needed inside. */
static SyncSet walk_cond(SyncWalk *w, Op *op, SyncSet st)
{
	bool mark = w->mark, need = w->need;
	w->mark = false;
	w->need = false;
	walk(w, op->body, st, true);
	bool before = w->need;
	w->need = false;
	SyncSet empty = {{0}};
	walk(w, op->body, empty, true);
	if (w->need && !w->bad)
		w->bad = op;
	w->mark = mark;
	w->need = need || before;
	if (before) {
		if (mark)
			w->s->local_sync[op->id] = true;
		st = empty;
	}
	return join(st, walk(w, op->body, st, true));
}

static SyncSet walk(SyncWalk *w, Region *r, SyncSet st, bool in_cond)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		if (op_is_barrier(op->kind)) {
			if (in_cond && !w->bad)
				w->bad = op;
			memset(&st, 0, sizeof st);
			continue;
		}
		if (op->kind == OP_ITERATE) {
			st = walk_loop(w, op, st, in_cond);
			continue;
		}
		if (op->kind == OP_CONDITIONAL && !in_cond && isel_cond_uniform(w->s, op)) {
			/* every wave takes the branch or none does: the body's
			 * barriers go where its accesses need them */
			st = join(st, walk(w, op->body, st, false));
			continue;
		}
		if (op->kind == OP_CONDITIONAL) {
			st = walk_cond(w, op, st);
			continue;
		}
		Value *mem = op_memory(op);
		int k = access_kind(op);
		if (!mem || !value_is_local(mem) || k == K_NONE || w->slot[mem->def->id] < 0)
			continue;
		uint64_t bit = UINT64_C(1) << w->slot[mem->def->id];
		if (conflicts(&st, k) & bit) {
			w->need = true;
			if (w->mark)
				w->s->local_sync[op->id] = true;
			memset(&st, 0, sizeof st);
		}
		st.k[k] |= bit;
	}
	return st;
}

static void number_allocs(Isel *s, Region *r, int *slot, int *n)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		if (op->kind == OP_ALLOCATE) {
			if (*n == MAX_SLOTS)
				analysis_error(s->c, op->loc, "%s: more than %d allocations in one kernel", op->path, MAX_SLOTS);
			slot[op->id] = (*n)++;
		}
		if (op->body)
			number_allocs(s, op->body, slot, n);
	}
}

void isel_local_plan(Isel *s)
{
	Analysis *c = s->c;
	Kernel *k = c->k;
	s->local_sync = ARENA_NEWN(&c->arena, bool, k->nops + 1);
	s->local_base = ARENA_NEWN(&c->arena, int, k->nops + 1);
	for (int i = 0; i < k->nops; i++)
		s->local_base[i] = -1;
	int waves = (c->wg_size[0] * c->wg_size[1] * c->wg_size[2] + 63) / 64;
	int *slot = ARENA_NEWN(&c->arena, int, k->nops + 1), n = 0;
	for (int i = 0; i < k->nops; i++)
		slot[i] = -1;
	number_allocs(s, k->body, slot, &n);
	s->has_alloc = n > 0;
	if (n == 0 || c->failed)
		return;
	SyncWalk w = {.s = s, .slot = slot, .mark = waves > 1};
	SyncSet empty = {{0}};
	walk(&w, k->body, empty, false);
	if (w.bad && waves > 1 && w.bad->kind == OP_CONDITIONAL)
		analysis_error(c, w.bad->loc, "%s: the accesses of allocations in conditional '%s' need a barrier between "
					      "them; a barrier inside a conditional (which may run in some waves only) is not "
					      "compiled",
			w.bad->path, w.bad->name);
	else if (w.bad && waves > 1)
		analysis_error(c, w.bad->loc, "%s: %s inside a conditional (which may run in some waves only) is not compiled",
			w.bad->path, op_name(w.bad->kind));
}

void isel_local_sync(Isel *s, Op *op)
{
	if (s->local_sync && s->local_sync[op->id])
		isel_lds_barrier(s);
}

void isel_select_barrier(Isel *s, Op *op)
{
	(void)op;
	isel_lds_barrier(s);
}

/* ---- space ---- */

/* The allocation's storage extents and bytes; false after reporting. */
static bool alloc_extents(Isel *s, const Op *a, int64_t *ext, int64_t *bytes)
{
	Analysis *c = s->c;
	Value *v = op_result((Op *)a);
	*bytes = dtype_size(v->dtype);
	for (int i = 0; i < v->shape.rank; i++) {
		ext[i] = analysis_int(c, a->alloc_ext[i], a->loc, "distributed_shape");
		if (c->failed)
			return false;
		int64_t lds = s->f->target->lds_bytes;
		if (ext[i] < 1 || (i == v->shape.rank - 1 && ext[i] <= a->padding) || ext[i] > lds ||
			(*bytes *= ext[i]) > lds) {
			analysis_error(c, a->loc, "%s: allocation %s of %lld bytes or more does not fit in the %lld bytes of "
						  "LDS (an extent below 1 or all padding is no allocation either)",
				a->path, v->name, (long long)*bytes, (long long)lds);
			return false;
		}
	}
	return true;
}

void isel_select_allocate(Isel *s, Op *op)
{
	Value *v = op_result(op);
	int es = dtype_size(v->dtype);
	if (es != 4 && es != 2) {
		analysis_error(s->c, op->loc, "%s: an allocation of %s elements is not compiled yet (32- and 16-bit ones are)",
			op->path, dtype_name(v->dtype));
		return;
	}
	int64_t ext[MAX_DIMS], bytes;
	if (v->shape.rank > MAX_DIMS) {
		analysis_error(s->c, op->loc, "%s: rank %d is more than %d dims", op->path, v->shape.rank, MAX_DIMS);
		return;
	}
	if (!alloc_extents(s, op, ext, &bytes))
		return;
	/* where the plan placed it (passes/plan/lds_place.c) */
	const PlanLds *pl = &s->plan->lds[op->id];
	if (pl->error) {
		analysis_error(s->c, op->loc, "%s", pl->error);
		return;
	}
	if (!pl->nbuf)
		die("allocation %s has no place in LDS", op->name);
	s->local_base[op->id] = pl->base;
	if (isel_lds_place(s, pl->base, (int)pl->buf_bytes)) /* a wave may still read this space */
		isel_lds_barrier(s);
}

/* ---- accesses ---- */

typedef struct LElem {
	Sym *bytes;  /* byte address from the allocation's base */
	bool never;
	int nconds;
	Sym *conds[MAX_LCONDS];
} LElem;

typedef struct LAccess {
	Op *op;
	Value *mem;
	const Op *alloc;
	const NodeIndex *ix;
	int es;
	int64_t base;     /* the allocation's LDS offset */
	int64_t trash;    /* its unused bytes: 16 read, then 16 per wave written */
	int64_t n;
	LElem *el;
	Vec(struct LAddr { Sym *lane; MOpnd reg; }) addrs;
} LAccess;

static bool add_cond(Isel *s, LAccess *a, LElem *e, Sym *rel)
{
	if (sym_kind(rel) == SYM_TRUE)
		return true;
	if (sym_kind(rel) == SYM_FALSE) {
		e->never = true;
		return true;
	}
	for (int i = 0; i < e->nconds; i++)
		if (e->conds[i] == rel)
			return true;
	if (e->nconds == MAX_LCONDS) {
		analysis_error(s->c, a->op->loc, "%s: too many bounds per element", a->op->path);
		return false;
	}
	e->conds[e->nconds++] = rel;
	return true;
}

/* Where the coordinates along register dim `dim` of op count from in an
 * allocation (the top comment); NULL after reporting. */
static Sym *local_base(Isel *s, Op *op, Sym *dim)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	Sym *b = sym_int(sc, 0);
	const DimDist *d = analysis_dist(c, dim);
	if (d && d->alias_of) {
		analysis_error(c, op->loc, "%s: an allocation indexed along %s, a symbolic alias, is not compiled", op->path,
			sym_name(dim));
		return NULL;
	}
	if (d)
		b = d->wg_start;
	for (Region *r = op->parent; r && r->owner; r = r->parent)
		if (r->owner->kind == OP_ITERATE && r->owner->dim == dim) {
			TileLoop *t = analysis_tile(c, dim);
			if (t)
				b = sym_add(sc, b, t->base);
			break;
		}
	return b;
}

/* The register side and memory side of op's mapping (memory.c's
 * map_sides): a read maps memory inputs from register outputs, the
 * stores the other way round. */
static void sides(const Op *op, const Mapping *m, int *nreg, Sym ***rdims, Sym ***rexprs, int *nmem, Sym ***mdims,
	Sym ***mexprs)
{
	bool rd = op->kind == OP_READ;
	*nreg = rd ? m->nout : m->nin;
	*rdims = rd ? m->out_dims : m->in_dims;
	*rexprs = rd ? m->out_exprs : m->in_exprs;
	*nmem = rd ? m->nin : m->nout;
	*mdims = rd ? m->in_dims : m->out_dims;
	*mexprs = rd ? m->in_exprs : m->out_exprs;
}

/* The symbol of dword o of a value a lane holds (dynmap.c's form). */
static Sym *lane_dword(Isel *s, MOpnd o)
{
	SymCtx *sc = s->c->k->sc;
	if (o.kind == MO_IMM)
		return sym_int(sc, (int32_t)o.imm);
	char name[48];
	snprintf(name, sizeof name, "%s%u_%u", ISEL_DYN_PREFIX, (unsigned)o.reg, (unsigned)o.sub);
	return sym_symbol(sc, name);
}

/* Does copy cn's first element decide the bounds of its whole run (as
 * memory.c asks of a wide access)? Yes when the run lies along one dim of
 * the allocation (no mapping, no scatter) and its first coordinate, the
 * first local one, the dim's size and the allocation's extent along it are
 * multiples of the run's length: then c0 < B gives c0 + j < B for every j
 * of the run (the simplifier need not prove each, Mod(4*$T0, 16) + 3 < 16
 * for instance). */
static bool aligned_run(Isel *s, const LAccess *a, int64_t cn, Sym *const *base, Sym *const *size, const int64_t *ext)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	const NodeIndex *ix = a->ix;
	if (a->op->mapping || a->op->kind == OP_SCATTER_ADD || ix->epc < 2)
		return false;
	for (int k = 0; k < ix->ndims; k++) {
		const DimIndex *di = &ix->d[k];
		if (di->size < 2)
			continue;
		int64_t r = di->size, v;
		int i = shape_find(a->mem->shape, di->dim);
		Sym *c0 = index_coord(c, ix, k, cn, 0);
		Sym *l0 = sym_sub(sc, c0, base[k]);
		if (i < 0 || !size[k] || !sym_is_int(size[k], &v) || v % r ||
			(ext[i] - (i == a->mem->shape.rank - 1 ? a->alloc->padding : 0)) % r)
			return false;
		for (int q = 0; q < 2; q++)
			if (!sym_is_int(sym_simplify(sc, sym_mod(sc, q ? l0 : c0, sym_int(sc, r)), c->assume), &v) || v)
				return false;
		return true;
	}
	return false;
}

/* Every element's address and bounds; false after reporting. idx: the
 * scatter_add's index register in the op's element order, or NULL. */
static bool plan_local(Isel *s, LAccess *a, const TVal *idx)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	Op *op = a->op;
	const NodeIndex *ix = a->ix;
	Value *mem = a->mem;
	const Op *al = a->alloc;
	const Mapping *m = op->mapping;
	int rank = mem->shape.rank;
	if (m && m->dvm_n) {
		analysis_error(c, op->loc, "%s: dynamic_val_mappings on an access of an allocation is not compiled", op->path);
		return false;
	}
	int64_t ext[MAX_DIMS], bytes, stride[MAX_DIMS];
	if (rank > MAX_DIMS || ix->ndims > MAX_DIMS || !alloc_extents(s, al, ext, &bytes))
		return false;
	for (int i = rank - 1, st = 1; i >= 0; i--) {
		stride[i] = st;
		st *= (int)ext[i];
	}
	Sym *base[MAX_DIMS], *size[MAX_DIMS];
	int pos[MAX_DIMS];
	for (int k = 0; k < ix->ndims; k++) {
		if (!(base[k] = local_base(s, op, ix->d[k].dim)))
			return false;
		Sym *rt = isel_extent_of(s, ix->d[k].dim);
		rt = rt ? rt : analysis_runtime(c, ix->d[k].dim);
		size[k] = rt ? rt : sym_int(sc, analysis_int(c, ix->d[k].dim, op->loc, sym_name(ix->d[k].dim)));
		const DimDist *dd = analysis_dist(c, ix->d[k].dim);
		if (dd && dd->unbounded)
			size[k] = NULL; /* a tied dim's coordinates pass its size (memory.c) */
		if (c->failed)
			return false;
	}
	for (int i = 0; i < rank; i++) {
		pos[i] = -1;
		for (int k = 0; k < ix->ndims; k++)
			if (ix->d[k].dim == mem->shape.dims[i])
				pos[i] = k;
		if (pos[i] < 0 && !m) {
			analysis_error(c, op->loc, "%s: dim %s of %s has no index", op->path, sym_name(mem->shape.dims[i]),
				mem->name);
			return false;
		}
	}
	int nreg = 0, nmem = 0;
	Sym **rdims = NULL, **rexprs = NULL, **mdims = NULL, **mexprs = NULL;
	if (m)
		sides(op, m, &nreg, &rdims, &rexprs, &nmem, &mdims, &mexprs);
	TVal **dv = isel_dyn_values(s, op, m, ix);
	if (c->failed)
		return false;
	a->el = ARENA_NEWN(&c->arena, LElem, a->n ? a->n : 1);
	bool run_ok = false;
	for (int64_t e = 0; e < a->n; e++) {
		LElem *el = &a->el[e];
		int64_t cn = e / ix->epc, j = e % ix->epc;
		Sym *lc[MAX_DIMS], *mc[MAX_DIMS];
		for (int k = 0; k < ix->ndims; k++) {
			Sym *co = index_coord(c, ix, k, cn, j), *win[2];
			if (size[k] && !add_cond(s, a, el, sym_simplify(sc, sym_rel(sc, SYM_LT, co, size[k]), c->assume)))
				return false;
			int nw = op->kind == OP_READ ? 0 : isel_window_conds(s, op, ix->d[k].dim, co, true, win);
			for (int q = 0; q < nw; q++)
				if (!add_cond(s, a, el, sym_simplify(sc, win[q], c->assume)))
					return false;
			lc[k] = sym_simplify(sc, sym_sub(sc, co, base[k]), c->assume);
		}
		if (!m) {
			for (int i = 0; i < rank; i++)
				mc[i] = lc[pos[i]];
		} else {
			Sym *from[2 * MAX_DIMS + 16], *to[2 * MAX_DIMS + 16];
			if (nreg > MAX_DIMS || m->ndyn > MAX_DIMS + 16) {
				analysis_error(c, op->loc, "%s: mapping too large", op->path);
				return false;
			}
			for (int r = 0; r < nreg; r++) {
				int k = -1;
				for (int q = 0; q < ix->ndims; q++)
					if (ix->d[q].dim == rdims[r])
						k = q;
				if (k < 0 || sym_kind(rexprs[r]) != SYM_SYMBOL) {
					analysis_error(c, op->loc, "%s: the mapping's register side %s must be a bare iterator of "
								  "an indexed dim",
						op->path, sym_name(rdims[r]));
					return false;
				}
				from[r] = rexprs[r];
				to[r] = lc[k];
			}
			int nd = isel_dyn_bind(s, m, dv, e, from + nreg, to + nreg);
			for (int i = 0; i < rank; i++) {
				Sym *x = NULL;
				for (int q = 0; q < nmem; q++)
					if (mdims[q] == mem->shape.dims[i])
						x = mexprs[q];
				if (!x) {
					analysis_error(c, op->loc, "%s: the mapping does not give dim %s of %s", op->path,
						sym_name(mem->shape.dims[i]), mem->name);
					return false;
				}
				mc[i] = sym_simplify(sc, sym_subs(sc, kernel_subs(c->k, x), nreg + nd, from, to), c->assume);
			}
		}
		if (idx)
			mc[op->sdim] = lane_dword(s, idx->d[isel_elem_dword(idx, e)]);
		Sym *lin = sym_int(sc, 0);
		for (int i = 0; i < rank; i++) {
			int64_t lim = ext[i] - (i == rank - 1 ? al->padding : 0);
			if (!add_cond(s, a, el, sym_simplify(sc, sym_rel(sc, SYM_GE, mc[i], sym_int(sc, 0)), c->assume)) ||
				!add_cond(s, a, el, sym_simplify(sc, sym_rel(sc, SYM_LT, mc[i], sym_int(sc, lim)), c->assume)))
				return false;
			lin = sym_add(sc, lin, sym_mul(sc, mc[i], sym_int(sc, stride[i])));
		}
		el->bytes = sym_simplify(sc, sym_mul(sc, lin, sym_int(sc, a->es)), c->assume);
		if (j == 0)
			run_ok = aligned_run(s, a, cn, base, size, ext);
		else if (run_ok) { /* the run's first element decides */
			const LElem *e0 = &a->el[e - j];
			el->never = e0->never;
			el->nconds = e0->nconds;
			memcpy(el->conds, e0->conds, sizeof el->conds);
		}
	}
	return true;
}

/* A VGPR and offset addressing `bytes` past the allocation's base: an
 * address register made for this access whose distance is a constant the
 * offset field holds, else a new one. */
static MOpnd addr_of(Isel *s, LAccess *a, Sym *bytes, int64_t *off)
{
	SymCtx *sc = s->c->k->sc;
	for (size_t i = 0; i < a->addrs.len; i++) {
		int64_t d;
		if (sym_is_int(sym_simplify(sc, sym_sub(sc, bytes, a->addrs.data[i].lane), s->c->assume), &d) &&
			a->base + d >= 0 && a->base + d <= 65535) {
			*off = a->base + d;
			return a->addrs.data[i].reg;
		}
	}
	/* the expression's constant in the offset field, when the rest is not
	 * negative (the address adds the two unsigned: 256 - 256*i + 4*j
	 * keeps its 256 in the register) */
	Sym *lane = bytes;
	int64_t k = 0;
	if (sym_kind(bytes) == SYM_ADD && sym_is_int(sym_arg(bytes, 0), &k) && a->base + k >= 0 && a->base + k <= 65535)
		lane = sym_simplify(sc, sym_sub(sc, bytes, sym_int(sc, k)), s->c->assume);
	if (lane != bytes &&
		sym_kind(sym_simplify(sc, sym_rel(sc, SYM_GE, lane, sym_int(sc, 0)), s->c->assume)) != SYM_TRUE)
		lane = bytes;
	if (lane == bytes)
		k = 0;
	struct LAddr x = {lane, isel_expr_to_vgpr(s, isel_expr_lower(s, lane, a->op->loc))};
	vec_push(&a->addrs, x);
	*off = a->base + k;
	return x.reg;
}

/* Element e's lane mask (an S2 vreg), or UINT32_MAX when it has no
 * condition. */
static uint32_t elem_mask(Isel *s, LAccess *a, const LElem *e)
{
	if (!e->nconds)
		return UINT32_MAX;
	uint32_t mask;
	bool in_vcc;
	isel_expr_conds_mask(s, e->nconds, e->conds, a->op->loc, &mask, &in_vcc);
	if (in_vcc) {
		mask = mfunc_vreg(s->f, RC_S2);
		MOpnd d = mo_vreg(mask, RC_S2), u = mo_special(MO_VCC);
		mblock_add(s->b, I_S_MOV_B64, 1, &d, 1, &u);
	}
	return mask;
}

/* v_cndmask_b32 d = mask ? yes : no. */
static MOpnd select_by(Isel *s, uint32_t mask, MOpnd yes, MOpnd no)
{
	MOpnd vcc = mo_special(MO_VCC), m = mo_vreg(mask, RC_S2);
	mblock_add(s->b, I_S_MOV_B64, 1, &vcc, 1, &m);
	MOpnd d = isel_v1(s), u[3] = {isel_expr_to_vgpr(s, no), isel_expr_to_vgpr(s, yes), vcc};
	mblock_add(s->b, I_V_CNDMASK_B32, 1, &d, 3, u)->flags |= MIF_E32;
	return d;
}

/* The bytes this wave's masked lanes write: its own 16 after the 16 the
 * masked lanes read (waves writing one place would race, harmlessly on the
 * hardware, but the emulator's late-memory and race checks see it). */
static MOpnd trash_of_wave(Isel *s, const LAccess *a)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	Sym *t = sym_add(sc, sym_symbol(sc, "$T0"),
		sym_mul(sc, sym_int(sc, c->wg_size[0]),
			sym_add(sc, sym_symbol(sc, "$T1"), sym_mul(sc, sym_int(sc, c->wg_size[1]), sym_symbol(sc, "$T2")))));
	Sym *at = sym_add(sc, sym_int(sc, a->trash + TRASH_BYTES),
		sym_mul(sc, sym_floor(sc, sym_div(sc, t, sym_int(sc, 64))), sym_int(sc, TRASH_BYTES)));
	return isel_expr_lower(s, sym_simplify(sc, at, c->assume), a->op->loc);
}

/* The address of element e (its mask in *mask, UINT32_MAX for none): a
 * masked lane's goes to the unused bytes (read: the second 16). */
static MOpnd elem_addr(Isel *s, LAccess *a, const LElem *e, bool read, uint32_t *mask, int64_t *off)
{
	MOpnd r = addr_of(s, a, e->bytes, off);
	*mask = elem_mask(s, a, e);
	if (*mask == UINT32_MAX)
		return r;
	if (*off) {
		MOpnd d = isel_v1(s), u[2] = {mo_imm(*off), r};
		mblock_add(s->b, I_V_ADD_U32, 1, &d, 2, u);
		r = d;
		*off = 0;
	}
	return select_by(s, *mask, r, read ? mo_imm(a->trash) : trash_of_wave(s, a));
}

/* Is byte address `bytes` (from the base, itself 16-aligned) a multiple
 * of al? */
static bool aligned(Isel *s, Sym *bytes, int64_t al)
{
	SymCtx *sc = s->c->k->sc;
	int64_t r;
	return sym_is_int(sym_simplify(sc, sym_mod(sc, bytes, sym_int(sc, al)), s->c->assume), &r) && r == 0;
}

/* How many of the elements from e on (at most n) one wide access serves:
 * contiguous, with the same bounds, none never accessed; 1 when none. */
static int64_t run_len(Isel *s, const LAccess *a, int64_t e, int64_t n)
{
	SymCtx *sc = s->c->k->sc;
	const LElem *e0 = &a->el[e];
	if (e0->never)
		return 1;
	int64_t k = 1;
	for (; k < n; k++) {
		const LElem *x = &a->el[e + k];
		int64_t d;
		if (x->never || x->nconds != e0->nconds ||
			!sym_is_int(sym_simplify(sc, sym_sub(sc, x->bytes, e0->bytes), s->c->assume), &d) || d != k * a->es)
			break;
		bool eq = true;
		for (int i = 0; i < x->nconds && eq; i++)
			eq = x->conds[i] == e0->conds[i];
		if (!eq)
			break;
	}
	return k;
}

/* Dwords per access for a run of nd dwords at bytes: 4, 2 or 1, as the
 * alignment allows. */
static int dword_chunk(Isel *s, Sym *bytes, int nd)
{
	if (nd >= 4 && aligned(s, bytes, 16))
		return 4;
	if (nd >= 2 && aligned(s, bytes, 8))
		return 2;
	return 1;
}

static MOp read_op(int w) { return w == 4 ? I_DS_READ_B128 : w == 2 ? I_DS_READ_B64 : I_DS_READ_B32; }
static MOp write_op(int w) { return w == 4 ? I_DS_WRITE_B128 : w == 2 ? I_DS_WRITE_B64 : I_DS_WRITE_B32; }

/* Element e of v in the low bits of a VGPR. */
static MOpnd elem_low(Isel *s, const TVal *v, int64_t e)
{
	bool packed = dtype_size(v->dtype) == 2 && v->packed;
	MOpnd d = isel_vgpr(s, v->d[packed ? e / 2 : e]);
	if (!packed || e % 2 == 0)
		return d;
	MOpnd t = isel_v1(s), u[2] = {mo_imm(16), d};
	mblock_add(s->b, I_V_LSHRREV_B32, 1, &t, 2, u);
	return t;
}

static bool start_access(Isel *s, Op *op, LAccess *a, const NodeIndex *ix)
{
	Value *mem = op_memory(op);
	*a = (LAccess){.op = op, .mem = mem, .alloc = mem->def, .ix = ix, .es = dtype_size(mem->dtype)};
	a->base = s->local_base[mem->def->id];
	if (a->base < 0) {
		analysis_error(s->c, op->loc, "%s: allocation %s has no space here", op->path, mem->name);
		return false;
	}
	int64_t ext[MAX_DIMS], bytes;
	if (!alloc_extents(s, a->alloc, ext, &bytes))
		return false;
	a->trash = a->base + ((bytes + 15) & ~15);
	a->n = ix->ncopies * ix->epc;
	return true;
}

void isel_select_local_read(Isel *s, Op *op)
{
	const NodeIndex *ix = s->c->index[op->id];
	LAccess a;
	if (!ix || !start_access(s, op, &a, ix) || !plan_local(s, &a, NULL))
		return;
	TVal *v = isel_tval_new(s, a.mem->dtype, a.n, ix);
	bool halves = a.es == 2;
	MOpnd *part = ARENA_NEWN(&s->c->arena, MOpnd, a.n ? a.n : 1); /* 16-bit elements loaded alone */
	uint32_t *mask = ARENA_NEWN(&s->c->arena, uint32_t, a.n ? a.n : 1);
	for (int64_t e = 0; e < a.n; e++)
		mask[e] = UINT32_MAX;
	int per = isel_per_dword(v);
	for (int64_t e = 0; e < a.n;) {
		const LElem *el = &a.el[e];
		int64_t run = run_len(s, &a, e, a.n - e);
		/* whole dwords of the value: 32-bit elements, or packed 16-bit
		 * pairs from an even element at a 4-aligned address */
		int64_t nd = (halves && (!v->packed || e % 2 || !aligned(s, el->bytes, 4))) ? 0 : run / per;
		if (el->never) {
			if (halves)
				part[e] = isel_v1(s), isel_mov(s, part[e], mo_imm(0));
			else
				v->d[e] = isel_v1(s), isel_mov(s, v->d[e], mo_imm(0));
			e++;
			continue;
		}
		if (nd >= 1) {
			int w = dword_chunk(s, el->bytes, (int)nd);
			int64_t off;
			uint32_t m;
			MOpnd ad = elem_addr(s, &a, el, true, &m, &off);
			uint32_t r = mfunc_vreg(s->f, rc_make(RF_VGPR, w));
			isel_ds(s, read_op(w), ad, off, mo_vreg(r, rc_make(RF_VGPR, w)), false);
			for (int k = 0; k < w; k++) {
				v->d[e / per + k] = mo_vsub(r, k, RC_V1);
				mask[e + (int64_t)k * per] = m;
			}
			e += (int64_t)w * per;
			continue;
		}
		int64_t off;
		uint32_t m;
		MOpnd ad = elem_addr(s, &a, el, true, &m, &off), x = isel_v1(s);
		isel_ds(s, halves ? I_DS_READ_U16 : I_DS_READ_B32, ad, off, x, false);
		mask[e] = m;
		if (halves)
			part[e] = x;
		else
			v->d[e] = x;
		e++;
	}
	/* masked lanes read the unused bytes: their elements are 0 */
	for (int64_t e = 0; e < a.n; e++) {
		if (mask[e] == UINT32_MAX)
			continue;
		MOpnd *slot = halves && part[e].kind != MO_NONE ? &part[e] : &v->d[e / per];
		*slot = select_by(s, mask[e], *slot, mo_imm(0));
		for (int64_t f = e + 1; f < a.n && !(halves && part[e].kind != MO_NONE); f++)
			if (f / per == e / per)
				mask[f] = UINT32_MAX; /* the same dword */
	}
	/* 16-bit elements loaded alone joined into their dwords */
	MOpnd sel = {0};
	for (int64_t e = 0; halves && e < a.n; e++) {
		if (part[e].kind == MO_NONE)
			continue;
		if (!v->packed) {
			v->d[e] = part[e];
			continue;
		}
		if (e % 2 == 0) {
			v->d[e / 2] = part[e];
			continue;
		}
		if (sel.kind == MO_NONE) {
			MOpnd k = mo_imm(0x05040100);
			sel = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1);
			mblock_add(s->b, I_S_MOV_B32, 1, &sel, 1, &k);
		}
		MOpnd lo = v->d[e / 2], u[3] = {part[e], lo, sel};
		v->d[e / 2] = isel_v1(s);
		mblock_add(s->b, I_V_PERM_B32, 1, &v->d[e / 2], 3, u);
	}
	vec_free(&a.addrs);
	s->val[op_result(op)->id] = v;
}

void isel_select_local_write(Isel *s, Op *op)
{
	const NodeIndex *ix = s->c->index[op->id];
	const TVal *v = s->val[op->args[0]->id];
	LAccess a;
	if (!ix || !v || !start_access(s, op, &a, ix))
		return;
	if (v->dtype != a.mem->dtype) {
		analysis_error(s->c, op->loc, "%s: writing %s to %s %s needs a cast op", op->path, dtype_name(v->dtype),
			dtype_name(a.mem->dtype), a.mem->name);
		return;
	}
	if (!plan_local(s, &a, NULL))
		return;
	if (v->ix != ix && !(v = isel_tval_gather(s, v, ix, op)))
		return;
	v = isel_tval_in_vgprs(s, (TVal *)v);
	int per = isel_per_dword(v);
	for (int64_t e = 0; e < a.n;) {
		const LElem *el = &a.el[e];
		if (el->never) {
			e++;
			continue;
		}
		int64_t run = run_len(s, &a, e, a.n - e);
		int64_t nd = (a.es == 2 && (!v->packed || e % 2 || !aligned(s, el->bytes, 4))) ? 0 : run / per;
		int64_t off;
		uint32_t m;
		if (nd >= 1) {
			int w = dword_chunk(s, el->bytes, (int)nd);
			MOpnd ad = elem_addr(s, &a, el, false, &m, &off);
			isel_ds(s, write_op(w), ad, off, isel_tuple_of(s, v, (int)(e / per), w), true);
			e += (int64_t)w * per;
			continue;
		}
		MOpnd ad = elem_addr(s, &a, el, false, &m, &off);
		isel_ds(s, a.es == 2 ? I_DS_WRITE_B16 : I_DS_WRITE_B32, ad, off, elem_low(s, v, e), true);
		e++;
	}
	vec_free(&a.addrs);
}

/* The DS atomic of op on dtype t (ret: returning the old value); 0 after
 * reporting. */
static MOp local_atomic(Isel *s, Op *op, DType t, bool ret)
{
	bool intg = t == DT_I32 || t == DT_U32;
	if (op->kind == OP_ATOMIC_MIN && intg && !ret)
		return t == DT_I32 ? I_DS_MIN_I32 : I_DS_MIN_U32;
	if (op->kind != OP_ATOMIC_MIN && intg)
		return ret ? I_DS_ADD_RTN_U32 : I_DS_ADD_U32;
	if (op->kind != OP_ATOMIC_MIN && t == DT_F32 && !ret)
		return I_DS_ADD_F32;
	analysis_error(s->c, op->loc, "%s: %s of %s elements in an allocation%s is not compiled yet (adds of i32, u32 "
				  "and f32, the old values of i32 and u32 adds, and mins of i32 and u32 are)",
		op->path, op_name(op->kind), dtype_name(t), ret ? " with its old values used" : "");
	return 0;
}

void isel_select_local_combine(Isel *s, Op *op)
{
	Analysis *c = s->c;
	const NodeIndex *ix = c->index[op->id];
	const TVal *v = s->val[op->args[0]->id];
	LAccess a;
	if (!ix || !v || !start_access(s, op, &a, ix))
		return;
	Value *res = op_result(op);
	bool ret = res && s->uses[res->id] > 0;
	MOp mop = local_atomic(s, op, a.mem->dtype, ret);
	if (!mop)
		return;
	if (v->ix != ix && !(v = isel_tval_gather(s, v, ix, op)))
		return;
	v = isel_tval_in_vgprs(s, (TVal *)v);
	TVal *idx = NULL;
	if (op->kind == OP_SCATTER_ADD) {
		const TVal *iv = s->val[op->args[1]->id];
		if (!iv)
			return;
		if (dtype_size(iv->dtype) != 4) {
			analysis_error(c, op->loc, "%s: a %s index register is not compiled yet (32-bit ones are)", op->path,
				dtype_name(iv->dtype));
			return;
		}
		if (iv->ix != ix && !(iv = isel_tval_gather(s, iv, ix, op)))
			return;
		idx = ARENA_NEW(&c->arena, TVal);
		*idx = *iv;
		idx->d = ARENA_NEWN(&c->arena, MOpnd, iv->nd ? iv->nd : 1);
		for (int i = 0; i < iv->nd; i++) /* each dword a VGPR its symbol can name */
			idx->d[i] = iv->d[i].kind == MO_IMM ? iv->d[i] : isel_expr_to_vgpr(s, isel_vgpr(s, iv->d[i]));
	}
	if (!plan_local(s, &a, idx))
		return;
	TVal *old = ret ? isel_tval_new(s, a.mem->dtype, a.n, ix) : NULL;
	SymCtx *sc = c->k->sc;
	for (int64_t e = 0; e < a.n; e++) {
		LElem *el = &a.el[e];
		/* copies of the element in other lanes of the wave combine once */
		int64_t bits = isel_repeat_bits(c, ix, e / ix->epc, e % ix->epc);
		if (bits < 0 || (bits && ret)) {
			analysis_error(c, op->loc, "%s: %s of a value whose lanes hold copies of one element %s is not compiled "
						  "yet",
				op->path, op_name(op->kind),
				bits < 0 ? "that cannot be told apart" : "(a reduction's result) with its old values used");
			return;
		}
		for (int b = 0; b < 6; b++)
			if ((bits >> b & 1) &&
				!add_cond(s, &a, el, sym_rel(sc, SYM_LT, sym_mod(sc, sym_symbol(sc, "$T0"), sym_int(sc, 2 << b)),
					sym_int(sc, 1 << b))))
				return;
		if (el->never) {
			if (old)
				old->d[e] = isel_v1(s), isel_mov(s, old->d[e], mo_imm(0));
			continue;
		}
		int64_t off;
		uint32_t m;
		MOpnd ad = elem_addr(s, &a, el, false, &m, &off), data = elem_low(s, v, e);
		if (!ret) {
			isel_ds(s, mop, ad, off, data, true);
			continue;
		}
		MOpnd r = isel_v1(s), u[2] = {ad, data};
		mblock_add(s->b, mop, 1, &r, 2, u)->offset = (int32_t)off;
		old->d[e] = m == UINT32_MAX ? r : select_by(s, m, r, mo_imm(0));
	}
	vec_free(&a.addrs);
	if (old)
		s->val[res->id] = old;
}
