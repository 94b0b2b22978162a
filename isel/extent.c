/* extent.c — set_symbol of a distributed dim: its run-time extent
 * (docs/kernel-format.md, "set_symbol"; Wave's extend attention sets N_Q
 * and N_KV to each sequence's lengths).
 *
 * Algorithm: at the set_symbol (in the kernel body, in input order: the
 * loader keeps it there), the register's element — one 32-bit element per
 * lane, the same in every lane, as a per-sequence length read at a
 * workgroup tile of 1 is — goes to an SGPR (v_readfirstlane_b32), which the
 * op's uniform symbol `$E_<op>` stands for in every expression lowered
 * after it (expr.c finds it in Isel.setsym: the loader renamed the dim in
 * the apply_expr expressions and mappings that follow). The dim's current
 * extent symbol (Isel.extents, the latest set_symbol of the dim) then
 * replaces the dim's launch extent where the extent bounds register
 * coordinates: the trip count of an iterate over the dim (isel.c, through
 * isel_loop_count) and the register-side bounds of reads and writes
 * (memory.c). A buffer's own length along the dim stays the launch extent
 * (strides and num_records).
 * Contract: the dim's launch extent is a runtime size (a dynamic symbol
 * -D did not bind), so its loops have runtime trip counts and nothing was
 * proved from a compile-time extent; checked here, located at the op.
 * The value is a length, in [0, 2^31) as a runtime size is (the trip
 * count is computed as for one). */
#include "isel.h"

/* The register's one 32-bit element, the same in every lane (no index of
 * the value depends on the lane: lane 0's element is every lane's), read
 * into an SGPR; `what` names what the value sets, for the errors. */
static bool uniform_sgpr(Isel *s, Op *op, TVal *v, const char *what, MOpnd *d)
{
	if (v->n != 1 || dtype_size(v->dtype) != 4 || v->ix == NULL) {
		analysis_error(s->c, op->loc, "%s: set_symbol of %s: %s needs one 32-bit element per thread, '%s' has %lld of %s",
			op->path, sym_name(op->dim), what, op->args[0]->name, (long long)v->n, dtype_name(v->dtype));
		return false;
	}
	for (int i = 0; i < v->ix->ndims; i++) {
		Sym *lane, *uni;
		int64_t z;
		isel_expr_split(s, v->ix->d[i].start, &lane, &uni);
		if (sym_is_int(lane, &z) && z == 0)
			continue;
		analysis_error(s->c, op->loc,
			"%s: set_symbol of %s: '%s' differs between the lanes of a wave (index %s along %s); "
			"%s is one value per workgroup",
			op->path, sym_name(op->dim), op->args[0]->name, sym_str(s->c->k->sc, v->ix->d[i].start),
			sym_name(v->ix->d[i].dim), what);
		return false;
	}
	*d = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1);
	MOpnd u = isel_vgpr(s, v->d[0]);
	mblock_add(s->b, I_V_READFIRSTLANE_B32, 1, d, 1, &u);
	return true;
}

/* The set symbol's launch value (`launch`: its extent or value) must be a
 * runtime one: bound with -D, what the kernel computes from it was fixed
 * at compile time, and `sets` would be ignored. */
static bool runtime_launch(Isel *s, Op *op, const char *launch, const char *sets)
{
	if (analysis_runtime(s->c, op->dim))
		return true;
	analysis_error(s->c, op->loc,
		"%s: set_symbol of %s: its launch %s is a compile-time integer here (bound with -D); %s is compiled "
		"over a runtime launch %s only",
		op->path, sym_name(op->dim), launch, sets, launch);
	return false;
}

void isel_set_extent(Isel *s, Op *op, TVal *v)
{
	MOpnd d;
	if (!runtime_launch(s, op, "extent", "the extent it sets") || !uniform_sgpr(s, op, v, "an extent", &d))
		return;
	vec_push(&s->setsym, ((ExprCacheEnt){op->expr, d}));
	vec_push(&s->extents, ((IselExtent){op->dim, op->expr}));
}

void isel_set_loop_bound(Isel *s, Op *op, TVal *v)
{
	MOpnd d;
	if (!runtime_launch(s, op, "value", "a loop bound it sets") || !uniform_sgpr(s, op, v, "a loop bound", &d))
		return;
	/* clamped to [0, max] (signed): the range analysis assumed of the
	 * symbol as a launch value, which the interpreter clamps to alike */
	int64_t hi = kernel_runtime_max(s->c->k, op->dim);
	MOpnd lo[2] = {d, mo_imm(0)}, top = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), k = mo_imm(hi);
	mblock_add(s->b, I_S_MAX_I32, 1, &d, 2, lo);
	mblock_add(s->b, I_S_MOV_B32, 1, &top, 1, &k);
	MOpnd up[2] = {d, top};
	mblock_add(s->b, I_S_MIN_I32, 1, &d, 2, up);
	/* what was lowered with the launch value is stale from here on */
	size_t n = 0;
	for (size_t i = 0; i < s->cache.len; i++)
		if (!sym_mentions(s->cache.data[i].e, op->dim))
			s->cache.data[n++] = s->cache.data[i];
	s->cache.len = n;
	vec_push(&s->bounds, ((ExprCacheEnt){op->dim, d}));
}

Sym *isel_extent_of(const Isel *s, const Sym *dim)
{
	for (size_t i = s->extents.len; i-- > 0;)
		if (s->extents.data[i].dim == dim)
			return s->extents.data[i].sym;
	return NULL;
}

Sym *isel_loop_count(Isel *s, const TileLoop *t)
{
	Sym *e = isel_extent_of(s, t->dim);
	if (!e || !t->count || !t->size_sym || t->iters) /* iters: Wave's count, not the extent's */
		return t->count;
	SymCtx *sc = s->c->k->sc;
	Sym *from = t->size_sym;
	return sym_simplify(sc, sym_subs(sc, t->count, 1, &from, &e), s->c->assume);
}
