/* index64.c — i64 index values (Wave's `tkw.self_index(dim, tkl.i64)`
 * feeding `apply_expr` masks, and the attention templates' i64 window
 * register), held as 32-bit words where every value is proven to fit.
 *
 * An i64 value is compiled only when the range of each of its elements is
 * proven inside [-2^31, 2^31): a self_index's coordinates (their bounds
 * under the analysis' assumptions: ids, loop variables), an apply_expr's
 * result (interval bounds of the expression with each parameter in its
 * register's range, checked for every subexpression, so no 32-bit step
 * wraps), a constant register or scalar (exactly [v, v]), add, sub, mul,
 * neg, maximum and minimum of proven values (interval arithmetic: with
 * operands and result inside 32 bits the 32-bit result is the exact one),
 * and what broadcast and permute pass on. Such a value is a TVal of i32
 * words; signed 32-bit arithmetic, comparison and selection on it give
 * exactly the i64 result (u64 values must also be proven non-negative, so
 * signed and unsigned agree). Ops whose range is not proven (a constant of
 * 2^31 or more, a product that may overflow, reductions, writes of i64)
 * are rejected by isel_i64_guard, at the op, before anything is selected:
 * a wrapped value would be a wrong kernel, a rejection is not. A read may
 * take proven i64 values as its mapping's dynamic values. */
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

/* The analysis' assumptions and runtime values in [0, kernel_runtime_max],
 * as analyze_indices assumes them; NULL if they do not combine. */
static SymAssume *runtime_assume(Isel *s)
{
	SymCtx *sc = s->c->k->sc;
	SymAssume *a = sym_assume_new(sc);
	const Kernel *kern = s->c->k;
	for (size_t i = 0; i < kern->dyn_syms.len; i++) {
		Sym *n = kern->dyn_syms.data[i];
		const char *why;
		if (analysis_runtime_arg(kern, n, NULL) >= 0 &&
			(sym_assume_add(a, sym_rel(sc, SYM_GE, n, sym_int(sc, 0)), &why) != 0 ||
				sym_assume_add(a, sym_rel(sc, SYM_LE, n, sym_int(sc, kernel_runtime_max(kern, n))), &why) != 0))
			return NULL;
	}
	return a;
}

/* apply_expr: the range of its result, with every subexpression proven to
 * fit 32 bits; false if not proven. */
static bool apply_expr_range(Isel *s, const Op *op, int depth, int64_t *lo, int64_t *hi)
{
	SymCtx *sc = s->c->k->sc;
	SymAssume *a = runtime_assume(s);
	if (!a)
		return false;
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

/* A constant register's or scalar's value: exactly [v, v] when it is an
 * integer; a scalar's expression (sizes, ids) by its bounds, with every
 * step inside 32 bits. */
static bool const_range(Isel *s, const Op *op, int64_t *lo, int64_t *hi)
{
	if (op->kind == OP_SCALAR && op->sarg)
		return false; /* a runtime argument: any i64 */
	if (op->kind == OP_SCALAR && op->expr) {
		SymAssume *a = runtime_assume(s);
		Sym *e = a ? sym_simplify(s->c->k->sc, kernel_subs(s->c->k, op->expr), s->c->assume) : NULL;
		return e && !sym_is_error(e) && all_fit(s, e, a) && bounds(s, e, a, lo, hi);
	}
	double v = op->value;
	if (v != v || v < -9.2e18 || v > 9.2e18 || v != (double)(int64_t)v)
		return false;
	*lo = *hi = (int64_t)v;
	return true;
}

/* Interval arithmetic of an integer op on proven operand ranges (each
 * inside 32 bits, so no corner product overflows 64). */
static bool arith_range(Isel *s, const Op *op, int depth, int64_t *lo, int64_t *hi)
{
	int64_t l[2], h[2];
	int n = op->kind == OP_NEG ? 1 : 2;
	for (int i = 0; i < n; i++)
		if (!value_range(s, op->args[i], depth + 1, &l[i], &h[i]) || !fits32(l[i], h[i]))
			return false;
	switch (op->kind) {
	case OP_NEG: *lo = -h[0]; *hi = -l[0]; return true;
	case OP_ADD: *lo = l[0] + l[1]; *hi = h[0] + h[1]; return true;
	case OP_SUB: *lo = l[0] - h[1]; *hi = h[0] - l[1]; return true;
	case OP_MAXIMUM: *lo = MAX(l[0], l[1]); *hi = MAX(h[0], h[1]); return true;
	case OP_MINIMUM: *lo = MIN(l[0], l[1]); *hi = MIN(h[0], h[1]); return true;
	case OP_MUL: {
		int64_t c[4] = {l[0] * l[1], l[0] * h[1], h[0] * l[1], h[0] * h[1]};
		*lo = *hi = c[0];
		for (int i = 1; i < 4; i++) {
			*lo = MIN(*lo, c[i]);
			*hi = MAX(*hi, c[i]);
		}
		return true;
	}
	default: return false;
	}
}

static bool is_arith(OpKind k)
{
	return k == OP_ADD || k == OP_SUB || k == OP_MUL || k == OP_NEG || k == OP_MAXIMUM || k == OP_MINIMUM;
}

/* The proven range of an integer value's elements. */
static bool value_range(Isel *s, const Value *v, int depth, int64_t *lo, int64_t *hi)
{
	if (depth > 32)
		return false;
	if (v->kind == VAL_RESULT) {
		const Op *d = v->def;
		bool ok;
		if (d->kind == OP_SELF_INDEX)
			return self_index_range(s, d, lo, hi);
		if (d->kind == OP_BROADCAST || d->kind == OP_PERMUTE)
			return value_range(s, d->args[0], depth + 1, lo, hi);
		if (d->kind == OP_APPLY_EXPR)
			return apply_expr_range(s, d, depth, lo, hi);
		if (is64(v->dtype) && (d->kind == OP_REGISTER || d->kind == OP_SCALAR || is_arith(d->kind))) {
			ok = is_arith(d->kind) ? arith_range(s, d, depth, lo, hi) : const_range(s, d, lo, hi);
			/* u64 wraps below 0 where i32 words would not */
			return ok && (v->dtype != DT_U64 || *lo >= 0);
		}
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
	if (op->kind == OP_APPLY_EXPR)
		return apply_expr_range(s, op, 0, &lo, &hi) && fits32(lo, hi);
	return op->nresults == 1 && value_range(s, op_result(op), 0, &lo, &hi) && fits32(lo, hi);
}

/* A constant or arithmetic op with an i64 result: compiled when its range
 * is proven; else reported at the op, with the range when there is one. */
static bool guard_value(Isel *s, Op *op)
{
	int64_t lo, hi;
	if (isel_i64_proven(s, op))
		return true;
	if (value_range(s, op_result(op), 0, &lo, &hi))
		analysis_error(s->c, op->loc,
			"%s: %s on %s values: the result's range [%lld, %lld] does not fit 32 bits: not compiled yet "
			"(i64 values are compiled as 32-bit words where proven in range)",
			op->path, op_name(op->kind), dtype_name(op_result(op)->dtype), (long long)lo, (long long)hi);
	else
		analysis_error(s->c, op->loc,
			"%s: %s on %s values whose range is not proven to fit 32 bits is not compiled yet (i64 values "
			"are compiled as 32-bit words where proven in range: self_index, apply_expr, integer constants, "
			"add, sub, mul, neg, maximum, minimum of such values)",
			op->path, op_name(op->kind), dtype_name(op_result(op)->dtype));
	return false;
}

/* A read whose i64 operands (its mapping's dynamic values) are all proven
 * in 32 bits: dynself.c takes a self_index, dynmap.c rejects any other. */
static bool read_dyn_proven(Isel *s, const Op *op)
{
	if (op->nresults != 1 || is64(op_result(op)->dtype))
		return false;
	for (int i = 0; i < op->nargs; i++) {
		int64_t lo, hi;
		const Value *a = op->args[i];
		if (a && !value_is_memory(a) && is64(a->dtype) && !(value_range(s, a, 0, &lo, &hi) && fits32(lo, hi)))
			return false;
	}
	return true;
}

bool isel_i64_guard(Isel *s, Op *op)
{
	bool uses64 = false;
	for (int i = 0; i < op->nargs; i++)
		uses64 |= op->args[i] && !value_is_memory(op->args[i]) && is64(op->args[i]->dtype);
	for (int i = 0; i < op->nresults; i++)
		uses64 |= op->kind != OP_ITERATE && op->kind != OP_GET_RESULT && is64(op->results[i]->dtype);
	if (!uses64)
		return true;
	switch (op->kind) {
	case OP_SELF_INDEX: case OP_APPLY_EXPR: case OP_SELECT: case OP_BROADCAST: case OP_PERMUTE:
	case OP_ITERATE: case OP_OUTPUT: case OP_GET_RESULT:
		return true;
	case OP_REGISTER: case OP_SCALAR: case OP_ADD: case OP_SUB: case OP_MUL: case OP_NEG: case OP_MAXIMUM:
	case OP_MINIMUM:
		if (op->nresults == 1 && is64(op_result(op)->dtype))
			return guard_value(s, op);
		break;
	case OP_READ:
		if (read_dyn_proven(s, op))
			return true;
		break;
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
		"proven in range, through self_index, apply_expr, integer constants, add, sub, mul, neg, maximum, "
		"minimum, comparisons, select, broadcast, permute and casts from i64)",
		op->path, op_name(op->kind));
	return false;
}
