/* index64.c — i64 index values (Wave's `tkw.self_index(dim, tkl.i64)`
 * feeding `apply_expr` masks, as in the attention templates), held as
 * 32-bit words where every value is proven to fit.
 *
 * An i64 value is compiled only when the range of each of its elements is
 * proven inside [-2^31, 2^31): a self_index's coordinates (their bounds
 * under the analysis' assumptions: ids, loop variables), an apply_expr's
 * result (interval bounds of the expression with each parameter in its
 * register's range, checked for every subexpression, so no 32-bit step
 * wraps), and what broadcast and permute pass on. Such a value is a TVal of
 * i32 words; signed 32-bit arithmetic, comparison and selection on it give
 * exactly the i64 result. Ops that could leave the proven range (integer
 * arithmetic, reductions, writes of i64) are rejected by isel_i64_guard,
 * at the op, before anything is selected: a wrapped value would be a wrong
 * kernel, a rejection is not. */
#include "elt.h"

static bool is64(DType t) { return t == DT_I64 || t == DT_U64; }

static int64_t floor_rat(SymRat r) { return r.p >= 0 ? r.p / r.q : -((-r.p + r.q - 1) / r.q); }
static int64_t ceil_rat(SymRat r) { return -floor_rat((SymRat){-r.p, r.q}); }

static bool fits32(int64_t lo, int64_t hi) { return lo >= INT32_MIN && hi <= INT32_MAX; }

/* Bounds of e under a, as integers; false if a side is unknown. */
static bool bounds(Isel *s, Sym *e, const SymAssume *a, int64_t *lo, int64_t *hi)
{
	SymBound b = sym_bounds(s->c->k->sc, e, a);
	if (!b.has_lo || !b.has_hi || b.lo.q <= 0 || b.hi.q <= 0)
		return false;
	*lo = ceil_rat(b.lo);
	*hi = floor_rat(b.hi);
	return true;
}

static bool value_range(Isel *s, const Value *v, int depth, int64_t *lo, int64_t *hi);

/* Every element's coordinate of a self_index. */
static bool self_index_range(Isel *s, const Op *op, int64_t *lo, int64_t *hi)
{
	Analysis *c = s->c;
	const NodeIndex *ix = c->index[op->id];
	if (!ix || ix->ndims != 1)
		return false;
	*lo = INT64_MAX;
	*hi = INT64_MIN;
	for (int64_t e = 0; e < ix->ncopies * ix->epc; e++) {
		int64_t l, h;
		if (!bounds(s, index_coord(c, ix, 0, e / ix->epc, e % ix->epc), c->assume, &l, &h))
			return false;
		*lo = MIN(*lo, l);
		*hi = MAX(*hi, h);
	}
	return *lo <= *hi;
}

/* Does every subexpression of e (but relations and boolean connectives,
 * which give 0 or 1) stay inside 32 bits under a? */
static bool all_fit(Isel *s, Sym *e, const SymAssume *a)
{
	SymKind k = sym_kind(e);
	bool boolean = sym_kind_is_rel(k) || k == SYM_AND || k == SYM_OR || k == SYM_NOT;
	int64_t lo, hi;
	if (!boolean && (!bounds(s, e, a, &lo, &hi) || !fits32(lo, hi)))
		return false;
	for (int i = 0; i < sym_nargs(e); i++)
		if (!all_fit(s, sym_arg(e, i), a))
			return false;
	return true;
}

/* apply_expr: the range of its result, with every subexpression proven to
 * fit 32 bits; false if not proven. */
static bool apply_expr_range(Isel *s, const Op *op, int depth, int64_t *lo, int64_t *hi)
{
	SymCtx *sc = s->c->k->sc;
	SymAssume *a = sym_assume_new(sc);
	/* runtime sizes: [0, 2^31), as analyze_indices assumes them */
	const Kernel *kern = s->c->k;
	for (size_t i = 0; i < kern->dyn_syms.len; i++) {
		Sym *n = kern->dyn_syms.data[i];
		const char *why;
		if (analysis_runtime_arg(kern, n, NULL) >= 0 &&
			(sym_assume_add(a, sym_rel(sc, SYM_GE, n, sym_int(sc, 0)), &why) != 0 ||
				sym_assume_add(a, sym_rel(sc, SYM_LT, n, sym_int(sc, INT64_C(1) << 31)), &why) != 0))
			return false;
	}
	for (int i = 0; i < op->nparams && i < op->nargs; i++) {
		int64_t l, h;
		const char *why;
		if (!value_range(s, op->args[i], depth + 1, &l, &h))
			return false;
		if (sym_assume_add(a, sym_rel(sc, SYM_GE, op->params[i], sym_int(sc, l)), &why) != 0 ||
			sym_assume_add(a, sym_rel(sc, SYM_LE, op->params[i], sym_int(sc, h)), &why) != 0)
			return false;
	}
	Sym *e = sym_simplify(sc, kernel_subs(s->c->k, op->expr), NULL);
	if (sym_is_error(e) || !all_fit(s, e, a))
		return false;
	SymKind k = sym_kind(e);
	if (sym_kind_is_rel(k) || k == SYM_AND || k == SYM_OR || k == SYM_NOT) {
		*lo = 0;
		*hi = 1;
		return true;
	}
	return bounds(s, e, a, lo, hi);
}

/* The proven range of an integer value's elements. */
static bool value_range(Isel *s, const Value *v, int depth, int64_t *lo, int64_t *hi)
{
	if (depth > 32)
		return false;
	if (v->kind == VAL_RESULT) {
		const Op *d = v->def;
		if (d->kind == OP_SELF_INDEX)
			return self_index_range(s, d, lo, hi);
		if (d->kind == OP_BROADCAST || d->kind == OP_PERMUTE)
			return value_range(s, d->args[0], depth + 1, lo, hi);
		if (d->kind == OP_APPLY_EXPR)
			return apply_expr_range(s, d, depth, lo, hi);
	}
	switch (v->dtype) {
	case DT_I1: *lo = 0; *hi = 1; return true;
	case DT_I32: *lo = INT32_MIN; *hi = INT32_MAX; return true;
	case DT_U32: *lo = 0; *hi = UINT32_MAX; return true;
	default: return false;
	}
}

bool isel_i64_proven(Isel *s, Op *op)
{
	int64_t lo, hi;
	if (op->kind == OP_SELF_INDEX)
		return self_index_range(s, op, &lo, &hi) && fits32(lo, hi);
	return apply_expr_range(s, op, 0, &lo, &hi) && fits32(lo, hi);
}

bool isel_i64_guard(Isel *s, Op *op)
{
	bool uses64 = false;
	for (int i = 0; i < op->nargs; i++)
		uses64 |= op->args[i] && op->args[i]->kind != VAL_MEMORY && is64(op->args[i]->dtype);
	for (int i = 0; i < op->nresults; i++)
		uses64 |= op->kind != OP_ITERATE && op->kind != OP_GET_RESULT && is64(op->results[i]->dtype);
	if (!uses64)
		return true;
	switch (op->kind) {
	case OP_SELF_INDEX: case OP_APPLY_EXPR: case OP_SELECT: case OP_BROADCAST: case OP_PERMUTE:
	case OP_ITERATE: case OP_OUTPUT: case OP_GET_RESULT:
		return true;
	case OP_CAST: /* from a proven i64 (exact in i32) to anything; not to i64 */
		if (!is64(op_result(op)->dtype))
			return true;
		break;
	default:
		if (op_is_compare(op->kind))
			return true;
	}
	analysis_error(s->c, op->loc,
		"%s: %s on i64 values is not compiled yet (i64 index values are compiled as 32-bit words where "
		"proven in range, through self_index, apply_expr, comparisons, select, broadcast, permute and casts "
		"from i64)",
		op->path, op_name(op->kind));
	return false;
}
