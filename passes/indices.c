/* indices.c — index analysis for reads and writes: each thread's elements
 * as symbolic expressions, and the bounds that mask the rest.
 *
 * Algorithm: for a memory tensor of shape [D0, ..., Dr-1] (row-major) the
 * element a thread touches along dim D distributed over workgroup dim g is
 *     start(D) = $WGg * wg_tile(D) + $Tg * (g == 0 ? ept : 1)
 * (Wave's read/write anchor for an identity mapping: the workgroup offset
 * plus the thread's share of the wave tile; waves of one workgroup follow
 * one another because the thread id runs across them). The linear index of
 * element j of the thread's run is base + j*stride with
 *     base = sum_D start(D) * rowstride(D),  stride = rowstride(D_g0).
 * For every dim whose tile is partial, element j is valid iff
 * start(D) + (D is the run's dim ? $J : 0) < size(D); the relations are kept
 * symbolic (isel lowers them to lane masks on buffer offsets). When the run
 * is contiguous (stride 1) and either the run's dim is not partial or its
 * size is a multiple of ept, elements of a run are valid together and one
 * wide access serves the run.
 * Expressions are simplified under the thread-id bounds ($T0 < wg_size[0],
 * ...), so later stages see Wave-style canonical forms.
 * Not yet: index mappings, MMA and reduction anchors, propagation through
 * elementwise ops (elementwise results take their operands' indices, which
 * for these kernels are the same), iterate bodies.
 * Requires: analyze_constraints. Fills: c->access. */
#include "passes.h"

static Sym *tsym(Compile *c, const char *prefix, int g)
{
	char name[16];
	snprintf(name, sizeof name, "%s%d", prefix, g);
	return sym_symbol(c->k->sc, name);
}

static Access *analyze_access(Compile *c, Op *op, Value *mem, SymAssume *as)
{
	SymCtx *sc = c->k->sc;
	if (op->mapping) {
		compile_error(c, op->loc, "%s: index mappings are not compiled yet", op->path);
		return NULL;
	}
	if (mem->space != AS_GLOBAL) {
		compile_error(c, op->loc, "%s: %s lives in shared memory: not compiled yet", op->path, mem->name);
		return NULL;
	}
	Access *a = ARENA_NEW(&c->arena, Access);
	a->op = op;
	a->mem = mem;
	a->ept = c->ept;
	Sym *base = sym_int(sc, 0), *J = sym_symbol(sc, "$J");
	int64_t rowstride = 1, run_stride = 0;
	bool run_partial = false;
	int64_t run_size = 0;
	for (int i = mem->shape.rank - 1; i >= 0; i--) {
		Sym *dim = mem->shape.dims[i];
		DimDist *d = compile_dist(c, dim);
		if (!d) {
			compile_error(c, op->loc, "%s: dim %s of %s has no workgroup constraint: not compiled yet",
				op->path, sym_name(dim), mem->name);
			return NULL;
		}
		int64_t size = compile_int(c, dim, op->loc, sym_name(dim));
		if (c->failed)
			return NULL;
		/* An id whose range is one value is that value (0): keeps the
		 * expressions free of symbols the simplifier would have to prove away. */
		Sym *wg = c->grid[d->wg_dim] > 1 ? tsym(c, "$WG", d->wg_dim) : sym_int(sc, 0);
		Sym *th = c->wg_size[d->wg_dim] > 1 ? tsym(c, "$T", d->wg_dim) : sym_int(sc, 0);
		Sym *start = sym_add(sc, sym_mul(sc, wg, sym_int(sc, d->wg_tile)), sym_mul(sc, th, sym_int(sc, d->ept)));
		base = sym_add(sc, base, sym_mul(sc, start, sym_int(sc, rowstride)));
		if (d->wg_dim == 0) {
			run_stride = rowstride;
			run_partial = d->partial;
			run_size = size;
		}
		if (d->partial) {
			if (a->nconds == MAX_DIMS)
				die("too many bounds");
			Sym *e = d->wg_dim == 0 ? sym_add(sc, start, J) : start;
			a->conds[a->nconds++] = sym_simplify(sc, sym_rel(sc, SYM_LT, e, sym_int(sc, size)), as);
		}
		if (rowstride > INT32_MAX / (size ? size : 1)) {
			compile_error(c, op->loc, "%s: %s has 2^31 or more elements: not compiled yet", op->path,
				mem->name);
			return NULL;
		}
		rowstride *= size;
	}
	if (rowstride * dtype_size(mem->dtype) > INT32_MAX) {
		compile_error(c, op->loc, "%s: %s is 2 GiB or larger: buffer offsets are 32-bit", op->path, mem->name);
		return NULL;
	}
	a->base = sym_simplify(sc, base, as);
	a->stride = run_stride;
	a->vector_ok = run_stride == 1 && (!run_partial || run_size % a->ept == 0);
	return a;
}

void analyze_indices(Compile *c)
{
	Kernel *k = c->k;
	SymAssume *as = sym_assume_new(k->sc);
	for (int g = 0; g < 3; g++) {
		const char *why;
		Sym *t = tsym(c, "$T", g), *w = tsym(c, "$WG", g);
		sym_assume_add(as, sym_rel(k->sc, SYM_GE, t, sym_int(k->sc, 0)), &why);
		sym_assume_add(as, sym_rel(k->sc, SYM_LT, t, sym_int(k->sc, c->wg_size[g])), &why);
		sym_assume_add(as, sym_rel(k->sc, SYM_GE, w, sym_int(k->sc, 0)), &why);
		sym_assume_add(as, sym_rel(k->sc, SYM_LT, w, sym_int(k->sc, c->grid[g])), &why);
	}
	sym_assume_add(as, sym_rel(k->sc, SYM_GE, sym_symbol(k->sc, "$J"), sym_int(k->sc, 0)), &(const char *){0});
	sym_assume_add(as, sym_rel(k->sc, SYM_LT, sym_symbol(k->sc, "$J"), sym_int(k->sc, c->ept)), &(const char *){0});
	c->access = ARENA_NEWN(&c->arena, Access *, k->nops);
	for (size_t i = 0; i < k->body->ops.len && !c->failed; i++) {
		Op *op = k->body->ops.data[i];
		if (op->kind == OP_READ)
			c->access[op->id] = analyze_access(c, op, op->args[0], as);
		else if (op->kind == OP_WRITE)
			c->access[op->id] = analyze_access(c, op, op->args[1], as);
	}
}
