/* index.c — values computed from indices and constants: self_index,
 * apply_expr, integer scalars and constant registers of the 16-bit and
 * integer types.
 *
 * self_index: element e holds its own coordinate along the dim, the
 * index expression of indices.c lowered by expr.c (SALU/VALU by
 * uniformity), then copied into a fresh VGPR (a cached expression
 * register must never become a loop-carried value that the loop
 * overwrites).
 * apply_expr: the expression is lowered per element with each parameter
 * bound to that element of its register. Arithmetic is signed 32-bit:
 * floor(x / 2^k) is an arithmetic shift, Mod(x, 2^k) an and (both floor
 * semantics for any sign), other divisors go through math.c's integer
 * division; relations give 0/1, And/Or/Not combine them. Parts without
 * parameters go to expr.c (sizes, ids). Other forms are reported.
 * i64 results are 32-bit words where every value is proven to fit
 * (index64.c). Scalars of i32/u32/i1 (and i64/u64 proven to fit 32 bits):
 * a constant, or an integer expression of sizes and ids (lane-dependent
 * ones too, as Wave's `tkw.scalar(THREAD_0 * 4, i32)`). Registers of
 * f16/bf16/u32/i1 (and i64/u64 constants that fit 32 bits, as i32 words)
 * hold the splat value in every dword (both halves of a 16-bit dword);
 * f32 and i32 ones are mma.c's. */
#include "elt.h"

/* e with the kernel's symbol values substituted; NULL after reporting. */
static Sym *bound(Isel *s, Op *op, Sym *e)
{
	Sym *v = kernel_subs(s->c->k, e);
	if (sym_is_error(v)) {
		analysis_error(s->c, op->loc, "%s: %s cannot be evaluated: %s", op->path, sym_str(s->c->k->sc, e),
			sym_error_msg(v));
		return NULL;
	}
	return sym_simplify(s->c->k->sc, v, s->c->assume);
}

/* A fresh VGPR holding o. */
/* A copy of o in a new register; an i1 word's copy keeps its lane mask. */
static MOpnd fresh(Isel *s, MOpnd o)
{
	MOpnd d = isel_elt_op1(s, I_V_MOV_B32, o);
	isel_elt_i1_moved(s, o, d);
	return d;
}

/* Numeric result dtypes of an integer word: cast from i32 when float. */
static TVal *finish(Isel *s, TVal *w, DType to)
{
	if (to == DT_I32 || to == DT_U32 || to == DT_I1)
		return w;
	if (!dtype_is_float(to) || dtype_size(to) > 4 || dtype_size(to) < 2)
		return NULL;
	TVal *f = isel_elt_new(s, DT_F32, w->n, w->ix);
	for (int64_t e = 0; e < w->n; e++)
		f->d[e] = isel_elt_op1(s, w->dtype == DT_U32 ? I_V_CVT_F32_U32 : I_V_CVT_F32_I32, w->d[e]);
	return to == DT_F32 ? f : isel_elt_cast(s, f, to);
}

bool isel_select_self_index(Isel *s, Op *op)
{
	Analysis *c = s->c;
	const NodeIndex *ix = c->index[op->id];
	int p = -1;
	for (int q = 0; ix && q < ix->ndims; q++)
		if (ix->d[q].dim == op->dim)
			p = q;
	if (p < 0 || ix->ndims != 1)
		return false;
	bool wide = op->dtype == DT_I64 || op->dtype == DT_U64;
	if (wide && !isel_i64_proven(s, op)) {
		analysis_error(c, op->loc, "%s: self_index: %s coordinates of %s are not proven to fit 32 bits: not "
					   "compiled yet",
			op->path, dtype_name(op->dtype), sym_name(op->dim));
		return true;
	}
	DType word = op->dtype == DT_U32 ? DT_U32 : DT_I32;
	int64_t n = ix->ncopies * ix->epc;
	TVal *w = isel_elt_new(s, word, n, ix);
	for (int64_t e = 0; e < n; e++) {
		MOpnd o = isel_expr_lower(s, index_coord(c, ix, p, e / ix->epc, e % ix->epc), op->loc);
		if (c->failed)
			return true;
		w->d[e] = fresh(s, o);
	}
	TVal *r = wide ? w : finish(s, w, op->dtype); /* wide: i64 held as proven i32 words (index64.c) */
	if (!r)
		return false;
	s->val[op_result(op)->id] = r;
	return true;
}

typedef struct ExprEnv {
	Op *op;
	const TVal **reg; /* by parameter */
	int64_t e;        /* the element */
} ExprEnv;

static int param_of(const ExprEnv *x, const Sym *e)
{
	for (int i = 0; i < x->op->nparams; i++)
		if (x->op->params[i] == e)
			return i;
	return -1;
}

static bool mentions_param(const ExprEnv *x, const Sym *e)
{
	if (param_of(x, e) >= 0)
		return true;
	for (int i = 0; i < sym_nargs(e); i++)
		if (mentions_param(x, sym_arg(e, i)))
			return true;
	return false;
}

static bool is_vgpr(MOpnd o) { return o.kind == MO_VREG && rc_file(o.rc) == RF_VGPR; }

/* x OP y for a commutative VOP2 row: the VGPR operand second. */
static MOpnd comm(Isel *s, MOp m, MOpnd x, MOpnd y)
{
	if (!is_vgpr(y)) {
		MOpnd t = x;
		x = y;
		y = t;
	}
	return isel_elt_op2(s, m, x, isel_expr_to_vgpr(s, y));
}

static int log2_of(int64_t k)
{
	for (int i = 0; i < 31; i++)
		if (k == (INT64_C(1) << i))
			return i;
	return -1;
}

static MOpnd lower(Isel *s, const ExprEnv *x, Sym *e);

static MOpnd unsupported(Isel *s, const ExprEnv *x, Sym *e)
{
	analysis_error(s->c, x->op->loc, "%s: apply_expr: %s is not compiled yet", x->op->path,
		sym_str(s->c->k->sc, e));
	return mo_imm(0);
}

/* floor(m) for an m with rational coefficients: floor(m * den / den). */
static MOpnd lower_floor(Isel *s, const ExprEnv *x, Sym *m)
{
	SymCtx *sc = s->c->k->sc;
	int64_t den = 1;
	int n = sym_kind(m) == SYM_ADD ? sym_nargs(m) : 1;
	for (int i = 0; i < n; i++) {
		Sym *t = sym_kind(m) == SYM_ADD ? sym_arg(m, i) : m;
		SymRat r;
		if (sym_kind(t) == SYM_MUL && sym_is_num(sym_arg(t, 0), &r) && r.q > den && r.q % den == 0)
			den = r.q;
		else if (sym_is_num(t, &r) && r.q > den && r.q % den == 0)
			den = r.q;
	}
	Sym *num = sym_simplify(sc, sym_mul(sc, m, sym_int(sc, den)), NULL);
	MOpnd a = lower(s, x, num);
	if (s->c->failed || den == 1)
		return a;
	int sh = log2_of(den);
	if (sh > 0)
		return isel_elt_op2(s, I_V_ASHRREV_I32, mo_imm(sh), isel_expr_to_vgpr(s, a));
	return isel_math_int_div(s, OP_FLOORDIV, DT_I32, a, isel_elt_vconst(s, (uint32_t)den));
}

/* a + c REL 0 with c an integer constant, as the simplifier writes x < K:
 * *rest = a, *k = -c, so the relation compares a with -c instead (one
 * v_add_u32 less per element; the same i32 range the add assumed). */
static bool split_const(SymCtx *sc, Sym *a, Sym **rest, int64_t *k)
{
	int64_t c;
	if (sym_kind(a) != SYM_ADD)
		return false;
	for (int i = 0; i < sym_nargs(a); i++)
		if (sym_is_int(sym_arg(a, i), &c) && c > INT32_MIN && c <= INT32_MAX) {
			*rest = sym_simplify(sc, sym_add(sc, a, sym_int(sc, -c)), NULL);
			*k = -c;
			return true;
		}
	return false;
}

/* a REL b (b 0 when absent) to 0/1. VOPC's src1 must be a VGPR and its
 * src0 may be anything (a literal too): the VGPR side goes second, the
 * relation mirrored (a < b is b > a) when that is a; a constant b then
 * costs no v_mov. */
static MOpnd lower_rel(Isel *s, const ExprEnv *x, Sym *e)
{
	static const MOp ops[] = {I_V_CMP_LT_I32, I_V_CMP_LE_I32, I_V_CMP_GT_I32, I_V_CMP_GE_I32, I_V_CMP_EQ_U32,
		I_V_CMP_NE_U32};
	static const MOp mirrored[] = {I_V_CMP_GT_I32, I_V_CMP_GE_I32, I_V_CMP_LT_I32, I_V_CMP_LE_I32,
		I_V_CMP_EQ_U32, I_V_CMP_NE_U32};
	int r = sym_kind(e) - SYM_LT;
	Sym *as = sym_arg(e, 0);
	int64_t k = 0;
	if (sym_nargs(e) == 1)
		split_const(s->c->k->sc, as, &as, &k);
	MOpnd a = lower(s, x, as);
	MOpnd b = sym_nargs(e) > 1 ? lower(s, x, sym_arg(e, 1)) : mo_imm(k);
	if (!is_vgpr(b) && is_vgpr(a))
		isel_elt_cmp(s, mirrored[r], b, a);
	else
		isel_elt_cmp(s, ops[r], a, isel_expr_to_vgpr(s, b));
	return isel_elt_i1_from_vcc(s);
}

static MOpnd lower(Isel *s, const ExprEnv *x, Sym *e)
{
	int64_t v;
	if (s->c->failed)
		return mo_imm(0);
	int p = param_of(x, e);
	if (p >= 0)
		return isel_vgpr(s, x->reg[p]->d[x->e]);
	if (sym_is_int(e, &v))
		return v >= INT32_MIN && v <= UINT32_MAX ? mo_imm(v) : unsupported(s, x, e);
	SymKind k = sym_kind(e);
	if (!mentions_param(x, e) && !sym_kind_is_rel(k) && k != SYM_AND && k != SYM_OR && k != SYM_NOT)
		return isel_expr_lower(s, e, x->op->loc);
	switch (k) {
	case SYM_ADD: case SYM_MAX: case SYM_MIN: case SYM_AND: case SYM_OR: {
		MOp m = k == SYM_ADD ? I_V_ADD_U32 : k == SYM_MAX ? I_V_MAX_I32 : k == SYM_MIN ? I_V_MIN_I32
			: k == SYM_AND ? I_V_AND_B32 : I_V_OR_B32;
		MOpnd acc = lower(s, x, sym_arg(e, 0));
		for (int i = 1; i < sym_nargs(e) && !s->c->failed; i++)
			acc = comm(s, m, acc, lower(s, x, sym_arg(e, i)));
		return acc;
	}
	case SYM_MUL: {
		MOpnd acc = {0};
		for (int i = 0; i < sym_nargs(e) && !s->c->failed; i++) {
			Sym *f = sym_arg(e, i);
			if (sym_kind(f) == SYM_RAT)
				return unsupported(s, x, e);
			MOpnd t = isel_expr_to_vgpr(s, lower(s, x, f));
			acc = !acc.kind ? t : isel_elt_op2(s, I_V_MUL_LO_U32, acc, t);
		}
		return acc;
	}
	case SYM_POW: /* a small integer power: repeated products */
		if (!sym_is_int(sym_arg(e, 1), &v) || v < 1 || v > 16)
			return unsupported(s, x, e);
		else {
			MOpnd b = isel_expr_to_vgpr(s, lower(s, x, sym_arg(e, 0))), acc = b;
			for (int64_t i = 1; i < v; i++)
				acc = isel_elt_op2(s, I_V_MUL_LO_U32, acc, b);
			return acc;
		}
	case SYM_FLOOR: return lower_floor(s, x, sym_arg(e, 0));
	case SYM_CEIL: {
		SymCtx *sc = s->c->k->sc;
		MOpnd f = lower_floor(s, x, sym_simplify(sc, sym_neg(sc, sym_arg(e, 0)), NULL));
		return isel_elt_op2(s, I_V_SUB_U32, mo_imm(0), isel_expr_to_vgpr(s, f));
	}
	case SYM_MOD: {
		MOpnd a = lower(s, x, sym_arg(e, 0));
		if (sym_is_int(sym_arg(e, 1), &v) && v > 0 && log2_of(v) >= 0)
			return comm(s, I_V_AND_B32, mo_imm(v - 1), a);
		return isel_math_int_div(s, OP_MOD, DT_I32, a, lower(s, x, sym_arg(e, 1)));
	}
	case SYM_NOT: return comm(s, I_V_XOR_B32, mo_imm(1), lower(s, x, sym_arg(e, 0)));
	case SYM_TRUE: return mo_imm(1);
	case SYM_FALSE: return mo_imm(0);
	default:
		if (sym_kind_is_rel(k))
			return lower_rel(s, x, e);
		return unsupported(s, x, e);
	}
}

bool isel_select_apply_expr(Isel *s, Op *op)
{
	Analysis *c = s->c;
	const NodeIndex *ix = c->index[op->id];
	DType to = op_result(op)->dtype;
	if (!ix || op->nparams != op->nargs)
		return false;
	int8_t known = s->plan->konst[op_result(op)->id];
	if (known) { /* decided by the index ranges (passes/plan/fold_mask.c) */
		int64_t n = ix->ncopies * ix->epc;
		TVal *w = isel_elt_new(s, DT_I1, n, ix);
		MOpnd one = isel_elt_op1(s, I_V_MOV_B32, mo_imm(known == 2));
		for (int64_t e = 0; e < n; e++)
			w->d[e] = one;
		w->splat = true;
		s->val[op_result(op)->id] = w;
		return true;
	}
	const TVal **reg = ARENA_NEWN(&c->arena, const TVal *, op->nargs + 1);
	for (int i = 0; i < op->nargs; i++) {
		reg[i] = isel_elt_operand(s, op, i);
		if (!reg[i])
			return c->failed;
		if (!isel_elt_is_word_int(reg[i]->dtype)) {
			analysis_error(c, op->loc, "%s: apply_expr on %s registers is not compiled yet", op->path,
				dtype_name(reg[i]->dtype));
			return true;
		}
	}
	bool wide = to == DT_I64 || to == DT_U64;
	for (int i = 0; i < op->nargs; i++)
		wide |= op->args[i]->dtype == DT_I64 || op->args[i]->dtype == DT_U64;
	if (wide && !isel_i64_proven(s, op)) {
		analysis_error(c, op->loc, "%s: apply_expr on i64 values whose range is not proven to fit 32 bits "
					   "(every step of %s): not compiled yet",
			op->path, sym_str(c->k->sc, op->expr));
		return true;
	}
	Sym *expr = bound(s, op, op->expr);
	if (!expr)
		return true;
	SymKind top = sym_kind(expr);
	bool boolean = sym_kind_is_rel(top) || top == SYM_AND || top == SYM_OR || top == SYM_NOT;
	int64_t n = ix->ncopies * ix->epc;
	DType word = to == DT_I1 ? DT_I1 : to == DT_U32 ? DT_U32 : DT_I32;
	TVal *w = isel_elt_new(s, word, n, ix);
	for (int64_t e = 0; e < n; e++) {
		ExprEnv x = {op, reg, e};
		MOpnd o = lower(s, &x, expr);
		if (c->failed)
			return true;
		if (to == DT_I1 && !boolean) { /* rounding to i1: x != 0 */
			isel_elt_cmp(s, I_V_CMP_NE_U32, mo_imm(0), isel_expr_to_vgpr(s, o));
			o = isel_elt_i1_from_vcc(s);
		}
		w->d[e] = fresh(s, o);
	}
	TVal *r = to == DT_I64 || to == DT_U64 ? w : finish(s, w, to);
	if (!r)
		return false;
	s->val[op_result(op)->id] = r;
	return true;
}

/* The bits of an integer constant in dtype t, as the interpreter rounds
 * it; false if it is not an integer. */
static bool int_bits(DType t, double v, uint32_t *bits)
{
	if (v != v || v < -9.2e18 || v > 9.2e18)
		return false;
	if (t == DT_I1) {
		*bits = v != 0;
		return true;
	}
	if (v != (double)(int64_t)v)
		return false;
	*bits = (uint32_t)(int64_t)v;
	return true;
}

static bool wide(DType t) { return t == DT_I64 || t == DT_U64; }

bool isel_select_int_scalar(Isel *s, Op *op)
{
	/* i64: proven to fit 32 bits by isel_i64_guard before selection */
	if (!isel_elt_is_word_int(op->dtype) && !wide(op->dtype))
		return false;
	const NodeIndex *ix = s->c->index[op->id];
	if (!ix || ix->ndims != 0)
		die("scalar %s without a rank-0 index", op->name);
	TVal *r = isel_elt_new(s, wide(op->dtype) ? DT_I32 : op->dtype, 1, ix);
	if (op->expr) {
		Sym *v = bound(s, op, op->expr);
		MOpnd o = v ? isel_expr_lower(s, v, op->loc) : mo_imm(0);
		if (s->c->failed)
			return true;
		if (op->dtype == DT_I1) {
			isel_elt_cmp(s, I_V_CMP_NE_U32, mo_imm(0), isel_expr_to_vgpr(s, o));
			o = isel_elt_i1_from_vcc(s);
		}
		r->d[0] = fresh(s, o);
	} else {
		uint32_t bits;
		if (!int_bits(op->dtype, op->value, &bits)) {
			analysis_error(s->c, op->loc, "%s: %s scalar %g is not an integer", op->path, dtype_name(op->dtype),
				op->value);
			return true;
		}
		/* in the entry block, which dominates every use */
		MBlock *save = s->b;
		s->b = s->f->blocks.data[0];
		r->d[0] = isel_elt_vconst(s, bits);
		s->b = save;
	}
	s->val[op_result(op)->id] = r;
	return true;
}

bool isel_select_const_register(Isel *s, Op *op)
{
	DType t = op->dtype;
	const NodeIndex *ix = s->c->index[op->id];
	if (!ix || !(t == DT_F16 || t == DT_BF16 || t == DT_U32 || t == DT_I1 || wide(t)))
		return false;
	uint32_t bits;
	if (t == DT_F16 || t == DT_BF16) {
		uint32_t h = t == DT_F16 ? dtype_f32_to_f16((float)op->value) : dtype_f32_to_bf16((float)op->value);
		bits = h | h << 16;
	} else if (!int_bits(t, op->value, &bits)) {
		analysis_error(s->c, op->loc, "%s: %s register value %g is not an integer", op->path, dtype_name(t),
			op->value);
		return true;
	}
	/* one register per dword: a register may become a loop-carried value;
	 * i64 as i32 words (its value proven to fit by isel_i64_guard) */
	TVal *r = isel_elt_new(s, wide(t) ? DT_I32 : t, ix->ncopies * ix->epc, ix);
	for (int i = 0; i < r->nd; i++)
		r->d[i] = isel_elt_vconst(s, bits);
	r->splat = true;
	s->val[op_result(op)->id] = r;
	return true;
}
