/* mask_bound.c — bound_masked_loops: a loop's trip count stopped where its
 * remaining trips are proven to be fully masked identities (causal
 * attention's tiles above the diagonal).
 *
 * Causal attention masks the scores of query row m against key k2 > m:
 * bias = select(m >= k2 [& k2 < K2], 0, C) with C a large negative constant
 * (Wave's -1e6), added to the scores before the online softmax. A
 * workgroup holding rows m <= m_hi runs every K2 tile, though each tile
 * starting past m_hi has every score masked: the running max, the sum and
 * the accumulator leave such a trip as they entered it. Stopping the loop
 * at U = floor(m_hi / T) + 1 trips (T the tile) halves the work of a
 * square causal attention; the tiles on the diagonal keep their masks.
 *
 * Algorithm, per iterate over a dim K that no other iterate shares (one
 * TileLoop per dim), starting at 0, without Wave's `iters`, without a set
 * extent of K, of more than one trip:
 *   1. the cut: in the condition of a `select` of the body, a comparison
 *      between self_index(D) and self_index(K) that holds only for
 *      k <= m + off (`m >= k`: off 0; `m > k`: off -1), D distributed over
 *      workgroups; m_hi = the workgroup's last row along D (wg_start +
 *      wg_tile - 1) and U = floor((m_hi + off) / T) + 1;
 *   2. masked trips: every select of the body whose condition, element by
 *      element of the select's index (the coordinates its self_index
 *      values stand for, as passes/plan/fold_mask.c reads them), simplifies
 *      to False with the induction variable replaced by U + u (u >= 0) is
 *      "masked": its value in a trip iv >= U is its if_false operand;
 *   3. witnesses: for such a select whose operands are the constants 0
 *      and C < 0 (a bias), every element's row has an unmasked element in
 *      a trip below U: the condition with the K coordinate replaced by
 *      w = 0 or w = m (the element's row) simplifies to True, and
 *      0 <= w <= U*T - 1 and w < size(K) (a runtime size symbol replaced
 *      by U*T + 1 + v, v >= 0: a trip past U runs only when K2 > U*T);
 *   4. identity: the body is evaluated abstractly for a trip iv >= U,
 *      each value one of: any; a constant; a bias (C here, 0 at the
 *      witnesses); deep(c) (the value it would have unmasked plus at most
 *      c); neg(b) (at most b); same(i) (equal to carried value i). Rules:
 *        x + bias(C) = deep(C); deep(c) * s (s > 0 constant) = deep(c s);
 *        deep(c) + constant = deep(c);
 *        max over K of deep(c) with init carried value i, whose result is
 *          output i, c <= -GAP = same(i) (the running max); the source
 *          is noted as i's;
 *        that source - same(i) = neg(c + SPREAD); neg(b) +- constant,
 *          * positive constant as bounds do;
 *        exp2(neg(b)), b <= -152, = 0; exp(neg(b)), b <= -106, = 0;
 *          exp2/exp(0) = 1;
 *        same(i) - same(i) = 0; x * 1 = x; x * 0 = 0; x + 0 = x;
 *        sum over K of 0 with init x = x; casts, broadcasts and permutes
 *          of 0 and 1 keep them; minimum(0, c >= 0) = 0;
 *        mma with an operand 0 = its accumulator;
 *        select of a masked condition = its if_false operand;
 *      anything else is "any". Writes, atomics, set_symbols, conditionals
 *      and nested loops in the body stop the proof. The trip is an
 *      identity when every output i is same(i).
 * Then the loop's trip count becomes Min(trips, U) (an expression of the
 * workgroup ids and runtime sizes, computed before the loop and tested
 * like any runtime trip count; isel/isel.c), and the workgroups along the
 * row dim take their tiles in reverse order, longest first (heavy_first,
 * a reordering of the grid).
 *
 * Contract (what "identity" rests on): the values are finite, and the
 * values a row's running max reduces, taken unmasked, lie within SPREAD =
 * 2^15 of each other (in the max's units: Wave's exp2 domain, where 2^15
 * means weights of 2^-32768). Then a masked score, at least GAP = 2^16
 * below its unmasked value, stays below the running max (which holds the
 * witness) by more than 2^15: the max keeps its value, exp2/exp of the
 * difference rounds to 0 in f32 (as in the interpreter, which rounds each
 * op to its dtype), e_delta_max = exp2(0) = 1, and sums and MMAs add
 * zeros. Results are equal as numbers (a zero may differ in sign). Wave's
 * masks (-1e6, scaled by log2(e)/sqrt(d) <= 0.26 for head dims >= 32)
 * place masked scores at least 2.6e5 below; Wave's own GQA template
 * stops its loop at the diagonal the same way (its `iters`). */
#include <math.h>
#include <stdlib.h>

#include "analysis.h"

#define GAP 65536.0    /* the least distance of a masked value below its unmasked one */
#define SPREAD 32768.0 /* the assumed spread of a row's unmasked values */

typedef enum { A_ANY, A_CONST, A_BIAS, A_DEEP, A_NEG, A_SAME } AKind;

typedef struct Abs {
	AKind k;
	double v; /* CONST: the value; BIAS: C; DEEP: c; NEG: b */
	int i;    /* SAME: the carried value */
} Abs;

typedef struct Cut {
	Analysis *c;
	SymCtx *sc;
	const Op *loop;
	const TileLoop *t;
	Sym *U;       /* the trips kept */
	Sym *late;    /* U + u: the induction variable of a masked trip */
	Abs *abs;     /* by value id, for the body's values */
	bool *known;  /* by value id */
	int *maxsrc;  /* by carried index: the value id the running max reduces, or -1 */
} Cut;

/* ---- the condition as an expression of its element's coordinates ---- */

typedef struct Coords {
	int n;
	Sym *dim[MAX_DIMS];
	Sym *at[MAX_DIMS];
} Coords;

static Sym *coord(const Coords *co, const Sym *dim)
{
	for (int i = 0; i < co->n; i++)
		if (co->dim[i] == dim)
			return co->at[i];
	return NULL;
}

static bool int_type(DType t) { return !dtype_is_float(t); }

/* v's value at the coordinates co: an integer or boolean expression, or
 * NULL where v is not built of self_index values, integer constants and
 * integer arithmetic, comparisons and logic. */
static Sym *sym_value(Cut *x, const Value *v, const Coords *co, int depth)
{
	SymCtx *sc = x->sc;
	if (v->kind != VAL_RESULT || depth > 32 || !int_type(v->dtype))
		return NULL;
	const Op *op = v->def;
	Sym *a, *b;
	switch (op->kind) {
	case OP_SELF_INDEX:
		return coord(co, op->dim);
	case OP_BROADCAST:
	case OP_PERMUTE:
		return sym_value(x, op->args[0], co, depth + 1);
	case OP_CAST:
		if (!int_type(op->args[0]->dtype) || !(a = sym_value(x, op->args[0], co, depth + 1)))
			return NULL;
		if (op->dtype == DT_I1)
			return sym_is_bool(a) ? a : sym_rel(sc, SYM_NE, a, sym_int(sc, 0));
		return !sym_is_bool(a) && dtype_size(op->dtype) >= 4 ? a : NULL;
	case OP_REGISTER:
		return op->value == floor(op->value) && fabs(op->value) < 1e15 ? sym_int(sc, (int64_t)op->value) : NULL;
	case OP_APPLY_EXPR: {
		if (op->nargs != op->nparams || op->nargs > 4)
			return NULL;
		Sym *to[4];
		for (int i = 0; i < op->nargs; i++)
			if (!(to[i] = sym_value(x, op->args[i], co, depth + 1)) || sym_is_bool(to[i]))
				return NULL;
		Sym *e = kernel_subs(x->c->k, op->expr);
		return sym_is_error(e) ? NULL : sym_subs(sc, e, op->nargs, op->params, to);
	}
	default:
		break;
	}
	if (op->nargs != 2 || !(a = sym_value(x, op->args[0], co, depth + 1)) ||
		!(b = sym_value(x, op->args[1], co, depth + 1)))
		return NULL;
	bool ints = !sym_is_bool(a) && !sym_is_bool(b), bools = sym_is_bool(a) && sym_is_bool(b);
	switch (op->kind) {
	case OP_ADD: return ints ? sym_add(sc, a, b) : NULL;
	case OP_SUB: return ints ? sym_sub(sc, a, b) : NULL;
	case OP_AND: return bools ? sym_and(sc, a, b) : NULL;
	case OP_OR: return bools ? sym_or(sc, a, b) : NULL;
	case OP_EQ: return ints ? sym_rel(sc, SYM_EQ, a, b) : NULL;
	case OP_NE: return ints ? sym_rel(sc, SYM_NE, a, b) : NULL;
	case OP_LT: return ints ? sym_rel(sc, SYM_LT, a, b) : NULL;
	case OP_LE: return ints ? sym_rel(sc, SYM_LE, a, b) : NULL;
	case OP_GT: return ints ? sym_rel(sc, SYM_GT, a, b) : NULL;
	case OP_GE: return ints ? sym_rel(sc, SYM_GE, a, b) : NULL;
	default: return NULL;
	}
}

/* Is boolean e proven `want` (True or False) under the analysis'
 * assumptions? And/Or/Not part by part. */
static bool proven(Cut *x, Sym *e, bool want)
{
	SymKind k = sym_kind(e);
	if ((k == SYM_AND && !want) || (k == SYM_OR && want)) {
		for (int i = 0; i < sym_nargs(e); i++)
			if (proven(x, sym_arg(e, i), want))
				return true;
	} else if (k == SYM_AND || k == SYM_OR) {
		for (int i = 0; i < sym_nargs(e); i++)
			if (!proven(x, sym_arg(e, i), want))
				return false;
		return true;
	} else if (k == SYM_NOT)
		return proven(x, sym_arg(e, 0), !want);
	Sym *s = sym_simplify(x->sc, e, x->c->assume);
	return sym_kind(s) == (want ? SYM_TRUE : SYM_FALSE);
}

/* The coordinates of element e of ix. */
static void coords_of(Cut *x, const NodeIndex *ix, int64_t e, Coords *co)
{
	co->n = ix->ndims;
	for (int q = 0; q < ix->ndims; q++) {
		co->dim[q] = ix->d[q].dim;
		co->at[q] = index_coord(x->c, ix, q, e / ix->epc, e % ix->epc);
	}
}

/* Step 2: is select op's condition False for every element in every trip
 * iv >= U? */
static bool masked_late(Cut *x, const Op *op)
{
	const NodeIndex *ix = x->c->index[op->id];
	if (!ix)
		return false;
	for (int64_t e = 0; e < ix->ncopies * ix->epc; e++) {
		Coords co;
		coords_of(x, ix, e, &co);
		Sym *v = sym_value(x, op->args[0], &co, 0);
		if (!v || !sym_is_bool(v) || !proven(x, sym_subs(x->sc, v, 1, &x->t->iv, &x->late), false))
			return false;
	}
	return true;
}

/* Step 3: has every element's row of select op an unmasked element in a
 * kept trip? */
static bool witnessed(Cut *x, const Op *op, const Sym *rowdim)
{
	SymCtx *sc = x->sc;
	Analysis *c = x->c;
	const TileLoop *t = x->t;
	const NodeIndex *ix = c->index[op->id];
	int kq = -1;
	for (int q = 0; q < ix->ndims; q++)
		if (ix->d[q].dim == t->dim)
			kq = q;
	if (kq < 0)
		return false;
	Sym *last = sym_sub(sc, sym_mul(sc, x->U, sym_int(sc, t->tile)), sym_int(sc, 1));
	Sym *size = t->size >= 0 ? sym_int(sc, t->size) : t->size_sym;
	if (t->size < 0) { /* a trip past U runs only when size > U*T */
		Sym *v = sym_symbol(sc, "$MASK_V");
		const char *why;
		sym_assume_add(c->assume, sym_rel(sc, SYM_GE, v, sym_int(sc, 0)), &why);
		Sym *at = sym_add(sc, sym_add(sc, last, sym_int(sc, 2)), v);
		if (sym_kind(size) != SYM_SYMBOL)
			return false;
		size = at;
	}
	for (int64_t e = 0; e < ix->ncopies * ix->epc; e++) {
		Coords co;
		coords_of(x, ix, e, &co);
		Sym *m = coord(&co, rowdim), *cand[2] = {sym_int(sc, 0), m};
		bool ok = false;
		for (int w = 0; w < 2 && !ok && cand[w]; w++) {
			Coords at = co;
			at.at[kq] = cand[w];
			Sym *v = sym_value(x, op->args[0], &at, 0);
			if (t->size < 0 && v)
				v = sym_subs(sc, v, 1, (Sym *const *)&t->size_sym, &size);
			Sym *in[3] = {sym_rel(sc, SYM_GE, cand[w], sym_int(sc, 0)), sym_rel(sc, SYM_LE, cand[w], last),
				sym_rel(sc, SYM_LT, cand[w], size)};
			ok = v && sym_is_bool(v) && proven(x, v, true) && proven(x, in[0], true) && proven(x, in[1], true) &&
			     proven(x, in[2], true);
		}
		if (!ok)
			return false;
	}
	return true;
}

/* ---- step 1: the cut ---- */

/* The self_index v stands for, through broadcasts, permutes and integer
 * casts, or NULL. */
static const Op *self_index_of(const Value *v)
{
	while (v->kind == VAL_RESULT &&
	       (v->def->kind == OP_BROADCAST || v->def->kind == OP_PERMUTE ||
		       (v->def->kind == OP_CAST && int_type(v->def->dtype) && dtype_size(v->def->dtype) >= 4 &&
			       int_type(v->def->args[0]->dtype))))
		v = v->def->args[0];
	return v->kind == VAL_RESULT && v->def->kind == OP_SELF_INDEX ? v->def : NULL;
}

/* U from a comparison of the condition tree of v (and_ of them), with its
 * row dim in *rowdim; NULL if none. */
static Sym *cut_from(Cut *x, const Value *v, const Sym **rowdim, int depth)
{
	SymCtx *sc = x->sc;
	if (v->kind != VAL_RESULT || depth > 16)
		return NULL;
	const Op *op = v->def;
	switch (op->kind) {
	case OP_BROADCAST:
	case OP_PERMUTE:
	case OP_CAST:
		return cut_from(x, op->args[0], rowdim, depth + 1);
	case OP_AND: {
		Sym *u = cut_from(x, op->args[0], rowdim, depth + 1);
		return u ? u : cut_from(x, op->args[1], rowdim, depth + 1);
	}
	case OP_GE:
	case OP_GT:
	case OP_LE:
	case OP_LT:
		break;
	default:
		return NULL;
	}
	const Op *l = self_index_of(op->args[0]), *r = self_index_of(op->args[1]);
	if (!l || !r)
		return NULL;
	/* m >= k, m > k, k <= m, k < m: true for k <= m + off */
	const Op *m = NULL;
	int off = 0;
	if (r->dim == x->t->dim && l->dim != x->t->dim && (op->kind == OP_GE || op->kind == OP_GT)) {
		m = l;
		off = op->kind == OP_GT ? -1 : 0;
	} else if (l->dim == x->t->dim && r->dim != x->t->dim && (op->kind == OP_LE || op->kind == OP_LT)) {
		m = r;
		off = op->kind == OP_LT ? -1 : 0;
	}
	DimDist *d = m ? analysis_dist(x->c, m->dim) : NULL;
	if (!d || !d->wg_start || d->wg_tile <= 0)
		return NULL;
	Sym *hi = sym_add(sc, d->wg_start, sym_int(sc, d->wg_tile - 1 + off));
	*rowdim = m->dim;
	return sym_simplify(sc, sym_add(sc, sym_floor(sc, sym_div(sc, hi, sym_int(sc, x->t->tile))), sym_int(sc, 1)),
		x->c->assume);
}

/* ---- step 4: the trip evaluated abstractly ---- */

static Abs any(void) { return (Abs){.k = A_ANY}; }
static Abs konst(double v) { return (Abs){.k = A_CONST, .v = v}; }
static bool is_const(Abs a, double v) { return a.k == A_CONST && a.v == v; }

static Abs abs_of(Cut *x, const Value *v)
{
	if (v->kind == VAL_ITER_ARG && v->loop == x->loop)
		return (Abs){.k = A_SAME, .i = v->arg_idx};
	if (x->known[v->id])
		return x->abs[v->id];
	/* defined outside the body: a constant register or anything */
	if (v->kind == VAL_RESULT && v->def->kind == OP_REGISTER)
		return konst(v->def->value);
	return any();
}

/* Is output i of the loop the value v? */
static int output_index_of(Cut *x, const Value *v)
{
	const Op *out = vec_last(&x->loop->body->ops);
	for (int i = 0; i < out->nargs; i++)
		if (out->args[i] == v)
			return i;
	return -1;
}

static Abs eval_binary(Cut *x, const Op *op)
{
	Abs a = abs_of(x, op->args[0]), b = abs_of(x, op->args[1]);
	switch (op->kind) {
	case OP_ADD:
		if (is_const(b, 0))
			return a;
		if (is_const(a, 0))
			return b;
		if (a.k == A_BIAS || b.k == A_BIAS) {
			Abs o = a.k == A_BIAS ? b : a, bias = a.k == A_BIAS ? a : b;
			return o.k == A_ANY ? (Abs){.k = A_DEEP, .v = bias.v} : any();
		}
		if ((a.k == A_DEEP && b.k == A_CONST) || (b.k == A_DEEP && a.k == A_CONST))
			return a.k == A_DEEP ? a : b;
		if ((a.k == A_NEG && b.k == A_CONST) || (b.k == A_NEG && a.k == A_CONST))
			return (Abs){.k = A_NEG, .v = a.v + b.v};
		return any();
	case OP_SUB:
		if (is_const(b, 0))
			return a;
		if (a.k == A_SAME && b.k == A_SAME && a.i == b.i)
			return konst(0);
		if (a.k == A_DEEP && b.k == A_SAME && x->maxsrc[b.i] == op->args[0]->id)
			return (Abs){.k = A_NEG, .v = a.v + SPREAD};
		if (a.k == A_DEEP && b.k == A_CONST)
			return a;
		if (a.k == A_NEG && b.k == A_CONST)
			return (Abs){.k = A_NEG, .v = a.v - b.v};
		return any();
	case OP_MUL:
		if (is_const(b, 1))
			return a;
		if (is_const(a, 1))
			return b;
		if (is_const(a, 0) || is_const(b, 0))
			return konst(0);
		if ((a.k == A_DEEP || a.k == A_NEG) && b.k == A_CONST && b.v > 0)
			return (Abs){.k = a.k, .v = a.v * b.v};
		if ((b.k == A_DEEP || b.k == A_NEG) && a.k == A_CONST && a.v > 0)
			return (Abs){.k = b.k, .v = b.v * a.v};
		return any();
	case OP_MINIMUM:
		if ((is_const(a, 0) && b.k == A_CONST && b.v >= 0) || (is_const(b, 0) && a.k == A_CONST && a.v >= 0))
			return konst(0);
		return any();
	default:
		return any();
	}
}

/* sum/max over the loop's dim of one source with an init. */
static Abs eval_reduce(Cut *x, const Op *op)
{
	if (op_reduce_nsrc(op) != 1 || !op->has_init || op->dim != x->t->dim)
		return any();
	Abs src = abs_of(x, op->args[0]), init = abs_of(x, op_reduce_init(op));
	if (op->kind == OP_SUM && is_const(src, 0))
		return init;
	if (op->kind == OP_MAX && src.k == A_DEEP && src.v <= -GAP && init.k == A_SAME &&
		output_index_of(x, op_result(op)) == init.i && x->maxsrc[init.i] < 0) {
		x->maxsrc[init.i] = op->args[0]->id;
		return init;
	}
	return any();
}

/* The abstract value of op's result in a masked trip; false when op
 * stops the proof. */
static bool eval_op(Cut *x, const Op *op, Abs *r)
{
	*r = any();
	switch (op->kind) {
	case OP_WRITE:
	case OP_ATOMIC_ADD:
	case OP_SET_SYMBOL:
	case OP_CONDITIONAL:
	case OP_ITERATE:
		return false;
	case OP_REGISTER:
		*r = konst(op->value);
		break;
	case OP_BROADCAST:
	case OP_PERMUTE:
		*r = abs_of(x, op->args[0]);
		break;
	case OP_CAST: {
		Abs a = abs_of(x, op->args[0]);
		if (dtype_is_float(op->dtype) && (is_const(a, 0) || is_const(a, 1)))
			*r = a;
		break;
	}
	case OP_EXP:
	case OP_EXP2: {
		Abs a = abs_of(x, op->args[0]);
		if (is_const(a, 0))
			*r = konst(1);
		else if (a.k == A_NEG && a.v <= (op->kind == OP_EXP2 ? -152.0 : -106.0))
			*r = konst(0);
		break;
	}
	case OP_SELECT:
		if (masked_late(x, op)) {
			Abs t = abs_of(x, op->args[1]), f = abs_of(x, op->args[2]);
			*r = is_const(t, 0) && f.k == A_CONST && f.v < 0 ? (Abs){.k = A_BIAS, .v = f.v} : f;
		}
		break;
	case OP_MMA: {
		Abs a = abs_of(x, op->args[0]), b = abs_of(x, op->args[1]);
		if (is_const(a, 0) || is_const(b, 0))
			*r = abs_of(x, op->args[2]);
		break;
	}
	case OP_SUM:
	case OP_MAX:
		*r = eval_reduce(x, op);
		break;
	default:
		if (op_is_binary(op->kind) && op->nargs == 2 && dtype_is_float(op_result(op)->dtype))
			*r = eval_binary(x, op);
		break;
	}
	return true;
}

/* Steps 2-4 for the loop with the cut U. */
static bool identity_past(Cut *x, const Sym *rowdim)
{
	Analysis *c = x->c;
	const Region *body = x->loop->body;
	for (size_t i = 0; i < body->ops.len; i++) {
		const Op *op = body->ops.data[i];
		if (op->kind == OP_OUTPUT) {
			for (int j = 0; j < op->nargs; j++) {
				Abs a = abs_of(x, op->args[j]);
				if (a.k != A_SAME || a.i != j)
					return false;
			}
			return op->nargs == body->nparams;
		}
		Abs r;
		if (!eval_op(x, op, &r) || c->failed)
			return false;
		if (r.k == A_BIAS && !witnessed(x, op, rowdim))
			return false;
		for (int j = 0; j < op->nresults; j++) {
			x->abs[op->results[j]->id] = op->nresults == 1 ? r : any();
			x->known[op->results[j]->id] = true;
		}
	}
	return false;
}

/* Does a set_symbol in r (or a region in it) set dim's extent? */
static bool sets_extent(const Kernel *k, const Region *r, const Sym *dim)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (op->kind == OP_SET_SYMBOL && op_sets_extent(k, op) && op->dim == dim)
			return true;
		if (op->body && sets_extent(k, op->body, dim))
			return true;
	}
	return false;
}

/* Iterates over dim in r (and the regions in it). */
static int loops_over(const Region *r, const Sym *dim)
{
	int n = 0;
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		n += op->kind == OP_ITERATE && op->dim == dim;
		if (op->body)
			n += loops_over(op->body, dim);
	}
	return n;
}

/* The first cut any select of the body's conditions gives. */
static Sym *find_cut(Cut *x, const Sym **rowdim)
{
	const Region *body = x->loop->body;
	for (size_t i = 0; i < body->ops.len; i++) {
		const Op *op = body->ops.data[i];
		Sym *u = op->kind == OP_SELECT ? cut_from(x, op->args[0], rowdim, 0) : NULL;
		if (u)
			return u;
	}
	return NULL;
}

/* Heavy workgroups first: the cut count rises with the id along rowdim's
 * grid dim g, and the hardware hands out workgroups in id order, so the
 * last, longest ones would start last and run alone at the end (the tail
 * of a grid of more than one round). Workgroup i takes the id grid - 1 - i
 * along g instead (a reordering, as Wave's reordering constraint gives,
 * isel.c's entry): the same tiles in the reverse order, longest first, as
 * FlashAttention launches causal row blocks. Only where the dim is alone
 * on a grid dim of constant size with no reordering, grid constraint or
 * apply_fn of its own, and every grid dim between it and the outermost is
 * one workgroup. */
static void heavy_first(Analysis *c, const Sym *rowdim)
{
	SymCtx *sc = c->k->sc;
	const DimDist *d = analysis_dist(c, rowdim);
	if (!d || d->apply_fn || d->alias_of || d->wg_logical != d->wg_dim || d->wg_dim < 0 || d->wg_dim > 2)
		return;
	int g = d->wg_dim;
	if (c->reorder[g] || c->grid[g] < 2 || d->count != c->grid[g])
		return;
	/* (a grid dim of more than one workgroup between g and the outermost,
	 * Wave's N halves at BLOCK_N 64: the model then gives mixed results,
	 * docs/compiler.md) */
	for (int h = g + 1; h < 2; h++)
		if (c->grid[h] != 1)
			return;
	for (int i = 0; i < c->ndist; i++)
		if (&c->dist[i] != d && c->dist[i].wg_tile > 0 && c->dist[i].wg_dim == g && !c->dist[i].alias_of)
			return;
	for (size_t i = 0; i < c->k->cons.len; i++)
		if (c->k->cons.data[i].kind == CON_GRID || c->k->cons.data[i].kind == CON_REORDERING)
			return;
	static const char *const ids[3] = {"$WG0", "$WG1", "$WG2"};
	c->reorder[g] = sym_sub(sc, sym_int(sc, c->grid[g] - 1), sym_symbol(sc, ids[g]));
}

static void bound_loop(Analysis *c, Op *op)
{
	SymCtx *sc = c->k->sc;
	TileLoop *t = analysis_tile(c, op->dim);
	int64_t start;
	if (!t || t->iters || !analysis_many(t->trips) || t->tile <= 0 || !sym_is_int(t->start, &start) || start != 0 ||
		loops_over(c->k->body, op->dim) != 1 || sets_extent(c->k, c->k->body, op->dim))
		return;
	Cut x = {.c = c, .sc = sc, .loop = op, .t = t};
	const Sym *rowdim = NULL;
	if (!(x.U = find_cut(&x, &rowdim)))
		return;
	Sym *old = t->trips > 0 ? sym_int(sc, t->trips) : t->count;
	Sym *now = sym_simplify(sc, sym_min(sc, old, x.U), c->assume);
	int64_t n;
	if (!old || now == old || (sym_is_int(now, &n) && n >= t->trips))
		return;
	Sym *u = sym_symbol(sc, "$MASK_U");
	const char *why;
	sym_assume_add(c->assume, sym_rel(sc, SYM_GE, u, sym_int(sc, 0)), &why);
	x.late = sym_add(sc, x.U, u);
	x.abs = ARENA_NEWN(&c->arena, Abs, c->k->nvalues);
	x.known = ARENA_NEWN(&c->arena, bool, c->k->nvalues);
	x.maxsrc = ARENA_NEWN(&c->arena, int, op->body->nparams + 1);
	for (int i = 0; i < op->body->nparams; i++)
		x.maxsrc[i] = -1;
	if (!identity_past(&x, rowdim))
		return;
	if (sym_is_int(now, &n) && n >= 2) { /* a loop of one trip would lose its induction variable */
		t->trips = n;
		return;
	}
	t->trips = -1;
	t->count = now;
	heavy_first(c, rowdim);
}

void bound_masked_loops(Analysis *c)
{
	const Region *r = c->k->body;
	for (size_t i = 0; i < r->ops.len && !c->failed; i++) {
		Op *op = r->ops.data[i];
		if (op->kind == OP_ITERATE)
			bound_loop(c, op);
	}
}
