/* dynindex.c — where a thread must hold a dynamic value of an index
 * mapping that has dynamic_val_mappings (Wave's
 * ReadOp/WriteOp.transform_index_backwards).
 *
 * An access element with register coordinates (the mapping's iterators)
 * takes dynamic value d's element at the coordinates its
 * dynamic_val_mappings entry gives (docs/kernel-format.md). Wave sets the
 * index of the dynamic value's node to that entry applied to the access's
 * index; here the same: each dim of the value gets its expression with the
 * iterators bound to the access's per-thread coordinates (over $J), its
 * run where the expression still varies with $J, and its copies where it
 * moves by a fixed step per copy of the access. indices.c gives a read
 * that produces the value this index; isel/dynmap.c finds each access
 * element's dynamic element in the thread by coordinates, and moves the
 * value into this index (isel/relayout.c) when the thread lacks one. When
 * no index of this form holds every element an access thread needs (two
 * dims of the value varying along one run, a step that is not fixed), the
 * reason is returned and the access is rejected. */
#include <string.h>

#include "analysis.h"

enum { MAX_ELEMS = 512 }; /* as indices.c: a lane's registers */

/* The register side of op's mapping: outputs for a read, inputs for a
 * write or atomic_add (bare iterators, one per register dim). */
static void reg_side(const Op *op, int *n, Sym ***dims, Sym ***exprs)
{
	const Mapping *m = op->mapping;
	bool rd = op->kind == OP_READ;
	*n = rd ? m->nout : m->nin;
	*dims = rd ? m->out_dims : m->in_dims;
	*exprs = rd ? m->out_exprs : m->in_exprs;
}

/* Is symbol s free in e? */
static bool mentions(SymCtx *sc, const Sym *e, const Sym *s)
{
	Sym *fs[16];
	size_t n = sym_free_symbols(sc, e, fs, 16);
	for (size_t i = 0; i < n && i < 16; i++)
		if (fs[i] == s)
			return true;
	return n > 16; /* too many to tell: assume it does */
}

/* f with each iterator bound to at[p], the coordinate along the access
 * index's dim p its register dim has; NULL when an iterator is left (not
 * on the register side of an indexed dim). */
static Sym *bind_at(Analysis *c, const Op *op, const NodeIndex *aix, Sym *f, Sym *const *at)
{
	SymCtx *sc = c->k->sc;
	const Mapping *m = op->mapping;
	int n;
	Sym **dims, **exprs, *from[MAX_DIMS], *to[MAX_DIMS];
	reg_side(op, &n, &dims, &exprs);
	int nb = 0;
	for (int r = 0; r < n && nb < MAX_DIMS; r++) {
		const DimIndex *di = index_dim(aix, dims[r]);
		if (di && sym_kind(exprs[r]) == SYM_SYMBOL) {
			from[nb] = exprs[r];
			to[nb++] = at[di - aix->d];
		}
	}
	Sym *e = sym_simplify(sc, sym_subs(sc, kernel_subs(c->k, f), nb, from, to), c->assume);
	for (int i = 0; i < m->niters; i++)
		if (mentions(sc, e, m->iters[i]))
			return NULL;
	return e;
}

/* dynamic_val_mappings entry d's expression for dim, or NULL. */
static Sym *dvm_expr(const Mapping *m, int d, const Sym *dim)
{
	for (int k = 0; k < m->dvm_n[d]; k++)
		if (m->dvm_dims[d][k] == dim)
			return m->dvm_exprs[d][k];
	return NULL;
}

Sym *index_dyn_coord(Analysis *c, const Op *op, const NodeIndex *aix, int d, const Sym *dim, int64_t cn, int64_t j)
{
	Sym *f = dvm_expr(op->mapping, d, dim), *at[MAX_DIMS];
	if (!f)
		return NULL;
	for (int p = 0; p < aix->ndims; p++)
		at[p] = index_coord(c, aix, p, cn, j);
	return bind_at(c, op, aix, f, at);
}


/* Does e (over $J) take more than one value along the access's run? $J
 * is only known below 64 (indices.c), so each element is tried: an
 * offset per 4 elements along a run of 4 is one element. */
static bool varies(Analysis *c, Sym *e, const NodeIndex *aix)
{
	SymCtx *sc = c->k->sc;
	Sym *J = sym_symbol(sc, "$J");
	if (!mentions(sc, e, J))
		return false;
	Sym *e0 = sym_simplify(sc, sym_subs(sc, e, 1, &J, &(Sym *){sym_int(sc, 0)}), c->assume);
	for (int64_t j = 1; j < aix->epc; j++) {
		Sym *ej = sym_subs(sc, e, 1, &J, &(Sym *){sym_int(sc, j)});
		if (sym_simplify(sc, sym_sub(sc, ej, e0), c->assume) != sym_int(sc, 0))
			return true;
	}
	return false;
}

/* Dim di's copies: along each dim p of the access with copies, the
 * coordinate f gives must move by one fixed step per copy (or not at
 * all), at every element of the run; at most one such dim, and none that
 * another dim of the value took (copies are a product over the value's
 * dims). */
static bool dyn_copies(Analysis *c, const Op *op, const NodeIndex *aix, Sym *f, Sym *const *at0, bool *taken,
	DimIndex *di, const char **why)
{
	SymCtx *sc = c->k->sc;
	Sym *J = sym_symbol(sc, "$J");
	for (int p = 0; p < aix->ndims; p++) {
		const DimIndex *ap = &aix->d[p];
		if (ap->copies < 2)
			continue;
		int64_t step = 0;
		for (int64_t j = 0; j < aix->epc; j++) {
			Sym *at[MAX_DIMS], *jv = sym_int(sc, j);
			for (int q = 0; q < aix->ndims; q++)
				at[q] = sym_subs(sc, at0[q], 1, &J, &jv);
			Sym *base = bind_at(c, op, aix, f, at), *a0 = at[p];
			for (int64_t cc = 1; cc < ap->copies; cc++) {
				at[p] = sym_add(sc, a0, sym_int(sc, cc * ap->step));
				Sym *e = bind_at(c, op, aix, f, at);
				int64_t dlt;
				if (!e || !base || !sym_is_int(sym_simplify(sc, sym_sub(sc, e, base), c->assume), &dlt) ||
					((j || cc > 1) && dlt != cc * step)) {
					*why = "its coordinate does not move by a fixed step from one copy of the access to the "
					       "next";
					return false;
				}
				if (!j && cc == 1)
					step = dlt;
			}
		}
		if (!step)
			continue;
		if (di->copies > 1 || taken[p]) {
			*why = "two of its coordinates move with the access's copies";
			return false;
		}
		taken[p] = true;
		di->copies = ap->copies;
		di->step = step;
	}
	return true;
}

NodeIndex *index_dyn_value(Analysis *c, const Op *op, const NodeIndex *aix, int d, const char **why)
{
	SymCtx *sc = c->k->sc;
	const Mapping *m = op->mapping;
	const Value *x = op->args[op->nargs - op->ndyn + d];
	Sym *J = sym_symbol(sc, "$J"), *zero = sym_int(sc, 0);
	NodeIndex *ni = ARENA_NEW(&c->arena, NodeIndex);
	ni->ndims = x->shape.rank;
	ni->ncopies = ni->epc = 1;
	bool taken[MAX_DIMS] = {false}, sized = false;
	Sym *at0[MAX_DIMS];
	for (int p = 0; p < aix->ndims; p++)
		at0[p] = aix->d[p].coord;
	for (int k = 0; k < x->shape.rank; k++) {
		DimIndex *di = &ni->d[k];
		Sym *f = dvm_expr(m, d, x->shape.dims[k]);
		di->dim = x->shape.dims[k];
		di->coord = f ? bind_at(c, op, aix, f, at0) : NULL;
		if (!di->coord) {
			*why = "its dynamic_val_mappings entry names an iterator that indexes no dim of the access";
			return NULL;
		}
		di->start = sym_simplify(sc, sym_subs(sc, di->coord, 1, &J, &zero), c->assume);
		di->size = di->stride = di->copies = 1;
		di->step = di->limit = 0;
		if (varies(c, di->coord, aix)) {
			/* along the access's run (its one dim of size > 1) */
			for (int p = 0; p < aix->ndims; p++)
				if (aix->d[p].size > 1)
					di->size = aix->d[p].size;
			if (sized) {
				*why = "two of its coordinates vary along the access's run of elements";
				return NULL;
			}
			sized = true;
		} else {
			di->coord = di->start;
		}
		if (!dyn_copies(c, op, aix, f, at0, taken, di, why))
			return NULL;
		ni->ncopies *= di->copies;
		ni->epc *= di->size;
	}
	if (ni->ncopies * ni->epc > MAX_ELEMS) {
		*why = "a thread would hold more of its elements than its registers";
		return NULL;
	}
	return ni;
}

/* v is taken as dynamic value d of user: record it, and back through
 * elementwise ops of v's shape (a table scaled before use), so the read at
 * the chain's start gets the index and the ops after it take it over
 * (Wave propagates a dynamic value's index backward the same way). */
static void mark_user(Value *v, Op *user, int d, Op **ou, int *which)
{
	if (ou[v->id])
		return;
	ou[v->id] = user;
	which[v->id] = d;
	if (v->kind != VAL_RESULT)
		return;
	Op *def = v->def;
	OpClass k = op_class(def->kind);
	if (k != OPC_UNARY && k != OPC_BINARY && k != OPC_CAST)
		return;
	for (int i = 0; i < def->nargs; i++)
		if (def->args[i] && shape_eq(def->args[i]->shape, v->shape))
			mark_user(def->args[i], user, d, ou, which);
}

void index_dyn_users(Region *r, Op **user, int *which)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		if (op->body)
			index_dyn_users(op->body, user, which);
		const Mapping *m = op->mapping;
		if (!m || !m->dvm_n || op->ndyn != m->ndyn)
			continue;
		for (int d = 0; d < m->ndyn; d++)
			mark_user(op->args[op->nargs - op->ndyn + d], op, d, user, which);
	}
}
