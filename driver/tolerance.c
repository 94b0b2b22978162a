/* tolerance.c — the default tolerance of each buffer `wavecc run K.json`
 * compares, derived from the graph: the lowest precision a value passes
 * through on its way to the buffer (run_graph.h, compile_check_tolerances;
 * docs/interpreter.md, "Tolerances").
 *
 * Why: the compiled kernel and the reference interpreter agree bit for bit
 * on data movement and on IEEE arithmetic of equal operands, but not on
 * everything: an MFMA sums its products in another order than the
 * interpreter's increasing k, transcendental functions differ in the last
 * bit, atomics land in another order. Those differences are f32-sized. A
 * value that carries one and is then rounded to a narrower type (f16, bf16,
 * an f8) can round to the neighbouring value of that type on one side only:
 * the difference becomes one ulp of the narrow type, and if the narrow
 * values are then summed (an mma or a sum takes them: a chained GEMM's
 * intermediate, attention's probabilities) the differences of many terms
 * add up. The tolerance must follow the narrowest such rounding.
 *
 * The walk: one forward pass over the graph in program order (regions in op
 * order, an iterate's or conditional's body where the op stands), repeated
 * until nothing changes (loop-carried values and memory the graph reads back
 * make it a fixpoint; the facts only grow, over a finite set of precisions).
 * Each value gets
 *   u   the unit roundoff of the narrowest rounding of a value the two sides
 *       may compute differently (0: the value is exact: the same bits on
 *       both sides), with `at`, the op that rounds there;
 *   ua  the largest u among the values an accumulation (mma operands,
 *       sum/cumsum sources, atomic_add into memory) sums, with `acc_at`.
 * The transfer, by op:
 *   - sources (register, scalar, self_index) and reads of the inputs: exact;
 *   - data movement (read of a buffer the graph writes, permute, broadcast,
 *     extract, get_result, select, bitcast, topk, abs, neg, maximum, minimum,
 *     max/min reductions, comparisons, iterate/conditional results and iter
 *     args): the join (largest u, largest ua) of the operands, no rounding;
 *   - arithmetic (every other unary, binary, apply_expr; mma; sum, cumsum;
 *     atomic_add): the join of the operands, then a rounding at the result's
 *     dtype (u at least its unit roundoff: the two sides may differ here even
 *     on equal operands); mma, sum, cumsum and atomic_add also accumulate
 *     their summed operands' u into ua;
 *   - cast: a rounding at the target dtype only of a value that is not exact
 *     (the same value rounds the same way on both sides);
 *   - write, atomic_add, atomic_min, scatter_add (its sum as atomic_add's):
 *     the memory value (an argument's or an allocation's) joins what is
 *     stored into it.
 * Integer results join their operands and add no rounding (their compare is
 * exact anyway). A buffer's level is the precision whose unit roundoff is
 * the larger of its u and its own dtype's; the tolerance is that level's row
 * of TOL_LEVELS, the "accumulated" pair when the level's rounding is also
 * the buffer's ua (it was summed afterwards). Integer buffers compare
 * exactly. */
#include <stdlib.h>

#include "run_graph.h"

/* The levels, widest first. X(dtype, unit roundoff u, atol, rtol,
 * accumulated atol, accumulated rtol). Rounded to the level and not summed
 * after: two ulps at the top of a binade, rtol about 4u, atol about 2u (f16
 * and bf16: the per-dtype defaults wavecc always had; f32 and f64 likewise,
 * 1e-5 covering MFMA sums and transcendental functions). Rounded and then
 * summed: Wave's chained-GEMM tolerance for f16 (chained_gemm_test.py: atol
 * 5e-2, rtol 5e-3, about 100u and 10u), bf16 scaled by the ratio of its u
 * to f16's (8x); the f8 types not so (128x and 256x would give an atol of
 * 6.4 and 12.8, a check that passes nearly anything): where the kernel and
 * the interpreter round the same f32 values to f8 they agree on all but a
 * few terms, and Wave's f8 chained GEMMs and attentions pass at f16's
 * accumulated pair on the emulator, so the f8 rows take four times it
 * (atol 2e-1, rtol 2e-2), which --atol and --rtol widen where a kernel
 * needs it. The f8 rows hold both encodings of a format (fn and fnuz share
 * the mantissa). */
#define TOL_LEVELS(X) \
	X(DT_F64, 0x1p-53, 1e-12, 1e-12, 1e-12, 1e-12) \
	X(DT_F32, 0x1p-24, 1e-5, 1e-5, 1e-5, 1e-5) \
	X(DT_F16, 0x1p-11, 1e-3, 2e-3, 5e-2, 5e-3) \
	X(DT_BF16, 0x1p-8, 1e-2, 1.6e-2, 4e-1, 4e-2) \
	X(DT_F8E4M3FNUZ, 0x1p-4, 1.25e-1, 2.5e-1, 2e-1, 2e-2) \
	X(DT_F8E4M3FN, 0x1p-4, 1.25e-1, 2.5e-1, 2e-1, 2e-2) \
	X(DT_F8E5M2FNUZ, 0x1p-3, 2.5e-1, 5e-1, 2e-1, 2e-2) \
	X(DT_F8E5M2, 0x1p-3, 2.5e-1, 5e-1, 2e-1, 2e-2)

typedef struct {
	DType dtype;
	double unit, atol, rtol, acc_atol, acc_rtol;
} TolLevel;

static const TolLevel LEVELS[] = {
#define X(t, u, a, r, aa, ar) {t, u, a, r, aa, ar},
	TOL_LEVELS(X)
#undef X
};

static const TolLevel *level_of(DType t)
{
	for (size_t i = 0; i < ARRAY_LEN(LEVELS); i++)
		if (LEVELS[i].dtype == t)
			return &LEVELS[i];
	return NULL;
}

/* The unit roundoff of float dtype t; 0 for integers. */
static double unit(DType t)
{
	const TolLevel *l = level_of(t);
	return l ? l->unit : 0;
}

/* What the walk knows of one value. */
typedef struct {
	double u, ua;
	DType dt;             /* the narrowest rounding's dtype (with u) */
	const Op *at, *acc_at;
} Prec;

typedef struct {
	const Kernel *k;
	Prec *p; /* by value id */
	bool changed;
} Walk;

static Prec join(Prec a, Prec b)
{
	if (b.u > a.u) {
		a.u = b.u;
		a.dt = b.dt;
		a.at = b.at;
	}
	if (b.ua > a.ua) {
		a.ua = b.ua;
		a.acc_at = b.acc_at;
	}
	return a;
}

/* a rounded to dtype t by op */
static Prec rounded(Prec a, DType t, const Op *op)
{
	if (unit(t) > a.u) {
		a.u = unit(t);
		a.dt = t;
		a.at = op;
	}
	return a;
}

/* a after op sums values whose narrowest rounding is s */
static Prec summed(Prec a, Prec s, const Op *op)
{
	if (s.u > a.ua) {
		a.ua = s.u;
		a.acc_at = op;
	}
	return a;
}

/* v's facts grow to include x */
static void grow(Walk *w, const Value *v, Prec x)
{
	Prec *p = &w->p[v->id];
	Prec n = join(*p, x);
	if (n.u != p->u || n.ua != p->ua) {
		*p = n;
		w->changed = true;
	}
}

static Prec of(const Walk *w, const Value *v) { return w->p[v->id]; }

/* The join of op's operands args[from..to). */
static Prec operands(const Walk *w, const Op *op, int from, int to)
{
	Prec a = {0};
	for (int i = from; i < to && i < op->nargs; i++)
		if (op->args[i])
			a = join(a, of(w, op->args[i]));
	return a;
}

static void walk_region(Walk *w, const Region *r);

/* An iterate or a conditional: its body's params start from the init
 * (else) values and, for an iterate, take the loop-carried outputs; its
 * results are the params joined with the body's outputs. */
static void walk_body(Walk *w, const Op *op)
{
	const Region *b = op->body;
	for (int i = 0; i < b->nparams && i < op->ninit; i++)
		grow(w, b->params[i], of(w, op->args[i]));
	walk_region(w, b);
	const Op *out = b->ops.len ? b->ops.data[b->ops.len - 1] : NULL;
	for (int i = 0; i < op->nresults; i++) {
		Prec x = i < b->nparams ? of(w, b->params[i]) : (Prec){0};
		if (out && out->kind == OP_OUTPUT && i < out->nargs)
			x = join(x, of(w, out->args[i]));
		if (op->kind == OP_ITERATE && i < b->nparams)
			grow(w, b->params[i], x);
		grow(w, op->results[i], x);
	}
}

/* The ops that compute nothing new: the value moves, or one operand is
 * chosen. */
static bool moves(OpKind k)
{
	switch (k) {
	case OP_ABS: case OP_NEG: case OP_MAXIMUM: case OP_MINIMUM: case OP_MAX: case OP_MIN: case OP_SELECT:
	case OP_BITCAST: case OP_BROADCAST: case OP_PERMUTE: case OP_EXTRACT: case OP_EXTRACT_SLICE: case OP_TOPK:
	case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
		return true;
	default:
		return false;
	}
}

static void walk_op(Walk *w, const Op *op)
{
	const Value *res = op_result(op);
	switch (op->kind) {
	case OP_REGISTER: case OP_SCALAR: case OP_SELF_INDEX: case OP_OUTPUT: case OP_SET_SYMBOL:
		return; /* exact, or no value */
	case OP_READ:
		grow(w, res, of(w, op->args[0]));
		return;
	case OP_WRITE:
		grow(w, op->args[1], of(w, op->args[0]));
		return;
	case OP_ATOMIC_ADD: case OP_SCATTER_ADD: {
		const Value *mem = op_memory(op);
		Prec lhs = of(w, op->args[0]);
		grow(w, mem, summed(rounded(join(lhs, of(w, mem)), mem->dtype, op), lhs, op));
		if (res)
			grow(w, res, of(w, mem));
		return;
	}
	case OP_ATOMIC_MIN: /* picks one of two values: no rounding */
		grow(w, op->args[1], of(w, op->args[0]));
		grow(w, res, of(w, op->args[1]));
		return;
	case OP_ALLOCATE: case OP_SHARED_MEMORY_BARRIER: case OP_WORKGROUP_BARRIER: case OP_MEMORY_COUNTER_WAIT_BARRIER:
	case OP_MEMORY_COUNTER_WAIT: case OP_SET_WAVE_PRIO: case OP_SCHEDULING_BARRIER: case OP_SCHEDULING_GROUP_BARRIER:
		return;
	case OP_MMA: case OP_SCALED_MMA: {
		/* scaled_mma: the scales are powers of two, exact */
		bool sc = op->kind == OP_SCALED_MMA;
		Prec lhs = of(w, op->args[0]), rhs = of(w, op->args[sc ? 2 : 1]);
		Prec x = join(join(lhs, rhs), of(w, op->args[sc ? 4 : 2]));
		grow(w, res, summed(summed(rounded(x, res->dtype, op), lhs, op), rhs, op));
		return;
	}
	case OP_ITERATE: case OP_CONDITIONAL:
		walk_body(w, op);
		return;
	case OP_GET_RESULT: {
		const Value *v = op->args[0];
		if (v->kind == VAL_RESULT && (v->def->kind == OP_ITERATE || v->def->kind == OP_CONDITIONAL) &&
			op->res_idx >= 0 && op->res_idx < v->def->nresults)
			v = v->def->results[op->res_idx];
		grow(w, res, of(w, v));
		return;
	}
	case OP_CAST: {
		Prec x = of(w, op->args[0]);
		grow(w, res, x.u > 0 ? rounded(x, res->dtype, op) : x);
		return;
	}
	case OP_SUM: case OP_CUMSUM: {
		int nsrc = op->kind == OP_SUM ? op_reduce_nsrc(op) : op->nargs;
		Prec src = operands(w, op, 0, nsrc);
		grow(w, res, summed(rounded(operands(w, op, 0, op->nargs), res->dtype, op), src, op));
		return;
	}
	default:
		break;
	}
	if (!res)
		return;
	Prec x = operands(w, op, 0, op->nargs);
	grow(w, res, moves(op->kind) || !dtype_is_float(res->dtype) ? x : rounded(x, res->dtype, op));
}

static void walk_region(Walk *w, const Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++)
		walk_op(w, r->ops.data[i]);
}

void compile_check_tolerances(const Kernel *k, CheckTolerance *out)
{
	Walk w = {.k = k, .p = xcalloc((size_t)k->nvalues + 1, sizeof(Prec))};
	/* each pass only grows the facts, over a finite set: a few passes */
	for (int pass = 0; pass < 64; pass++) {
		w.changed = false;
		walk_region(&w, k->body);
		if (!w.changed)
			break;
	}
	for (size_t i = 0; i < k->args.len; i++) {
		const Value *mem = k->args.data[i];
		Prec p = w.p[mem->id];
		CheckTolerance *t = &out[i];
		*t = (CheckTolerance){.level = mem->dtype};
		const TolLevel *l = level_of(mem->dtype);
		if (!l)
			continue; /* integers: exact */
		if (p.u > l->unit)
			l = level_of(p.dt);
		t->level = l->dtype;
		t->at = p.u == l->unit ? p.at : NULL;
		/* summed at the level, where that changes the tolerance */
		t->accumulated = p.ua >= l->unit && (l->acc_atol != l->atol || l->acc_rtol != l->rtol);
		t->acc_at = t->accumulated ? p.acc_at : NULL;
		t->atol = t->accumulated ? l->acc_atol : l->atol;
		t->rtol = t->accumulated ? l->acc_rtol : l->rtol;
	}
	free(w.p);
}
