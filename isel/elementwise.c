/* elementwise.c — per-thread arithmetic, conversions and broadcasts on
 * TVals.
 *
 * Operands come gathered into the op's layout (elt.c). f16 values packed two per dword use packed VOP3P instructions; f32 one
 * VOP2 per dword. exp(x) is v_exp_f32(x * log2(e)) (v_exp_f32 is 2^x);
 * x / y is x * v_rcp_f32(y), about 1 ulp from IEEE division (the default
 * f32 tolerance of `wavecc run` is 1e-5 relative); conversions are elt.c's
 * and, to and from the integer types, cast_int.c's.
 * Requires: operand values selected before (graph order). */
#include <string.h>

#include "elt.h"

/* Whether the result of op may overwrite operand number k's AGPRs (v, as
 * gathered): f32 accumulator dwords in AGPRs, op the value's only use, v
 * the value itself (each dword once). A big accumulator's epilogue then
 * needs no second register set: each dword is read into a VGPR, computed
 * and written back (the AGPR file is where spills would go anyway). */
static bool reusable_agprs(Isel *s, Op *op, const TVal *v, int k)
{
	Value *arg = op->args[k];
	return s->acc_agpr && v && v->dtype == DT_F32 && v == s->val[arg->id] && s->uses[arg->id] == 1 && v->nd > 0 &&
	       isel_is_agpr(v->d[0]);
}

/* The result dword i: back into in_place's AGPR when there is one. */
static MOpnd back_in_place(Isel *s, const TVal *in_place, int i, MOpnd x)
{
	if (!in_place || !isel_is_agpr(in_place->d[i]))
		return x;
	isel_mov(s, in_place->d[i], x);
	return in_place->d[i];
}


/* maximum and minimum give NaN when either operand is NaN (the
 * interpreter's rule); v_max/v_min return the other operand then, so a
 * NaN pair (v_cmp_u: unordered) selects a quiet NaN, made once per op in
 * *qnan. r is the f32 result of x and y. */
static MOpnd nan_f32(Isel *s, MOpnd r, MOpnd x, MOpnd y, MOpnd *qnan)
{
	if (!qnan->kind)
		*qnan = isel_elt_vconst(s, 0x7fc00000u);
	isel_elt_cmp(s, I_V_CMP_U_F32, x, y);
	return isel_elt_cnd(s, r, *qnan);
}

/* The same for two f16 halves (v_cmp_u_f16 reads the low ones; the high
 * ones are shifted down), joined with v_perm_b32; one half when !both. */
static MOpnd nan_f16x2(Isel *s, MOpnd r, MOpnd x, MOpnd y, bool both, MOpnd *qnan)
{
	if (!qnan->kind)
		*qnan = isel_elt_vconst(s, 0x7e007e00u);
	isel_elt_cmp(s, I_V_CMP_U_F16, x, y);
	MOpnd lo = isel_elt_cnd(s, r, *qnan);
	if (!both)
		return lo;
	MOpnd xh = isel_elt_op2(s, I_V_LSHRREV_B32, mo_imm(16), x), yh = isel_elt_op2(s, I_V_LSHRREV_B32, mo_imm(16), y);
	isel_elt_cmp(s, I_V_CMP_U_F16, xh, yh);
	MOpnd hi = isel_elt_cnd(s, r, *qnan);
	return isel_elt_pack_halves(s, lo, false, hi, true);
}

static bool is_max_min(MOp m) { return m == I_V_MAX_F32 || m == I_V_MIN_F32 || m == I_V_PK_MAX_F16 || m == I_V_PK_MIN_F16; }

/* A bf16 binary op: no bf16 ALU on gfx9, so each pair of elements in f32
 * (op f32, through the reciprocal for a division), rounded back and
 * packed (LLVM's lowering), element by element so that no f32 copy of a
 * whole value is ever live. */
static TVal *binary_bf16(Isel *s, const TVal *a, const TVal *b, const NodeIndex *ix, MOp f32, bool div)
{
	TVal *r = isel_tval_new(s, DT_BF16, a->n, ix);
	MOpnd k = {0}, qnan = {0};
	for (int i = 0; i < r->nd; i++) {
		MOpnd h[2];
		int64_t e0 = r->packed ? 2 * i : i;
		int nh = r->packed && e0 + 1 < a->n ? 2 : 1;
		for (int q = 0; q < nh; q++) {
			MOpnd x = isel_elt_bf16_f32(s, a, e0 + q), y = isel_elt_bf16_f32(s, b, e0 + q);
			if (div) {
				MOpnd t = isel_v1(s);
				mblock_add(s->b, I_V_RCP_F32, 1, &t, 1, &y);
				y = t;
			}
			MOpnd d = isel_v1(s), u[2] = {x, y};
			mblock_add(s->b, f32, 1, &d, 2, u);
			if (is_max_min(f32))
				d = nan_f32(s, d, x, y, &qnan);
			h[q] = isel_elt_f32_to_bf16_hi(s, d, &k);
		}
		r->d[i] = isel_v1(s);
		if (nh == 1) {
			MOpnd u[2] = {mo_imm(16), h[0]};
			mblock_add(s->b, I_V_LSHRREV_B32, 1, &r->d[i], 2, u);
			continue;
		}
		MOpnd sel = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), kv = mo_imm(0x07060302);
		mblock_add(s->b, I_S_MOV_B32, 1, &sel, 1, &kv);
		MOpnd u[3] = {h[1], h[0], sel};
		mblock_add(s->b, I_V_PERM_B32, 1, &r->d[i], 3, u);
	}
	return r;
}

/* powf, atan2, remf and float floordiv/mod (math.c) in f32; f16 and bf16 through f32 (which holds
 * them exactly), rounded back once. */
static bool math_binary(Isel *s, Op *op, const TVal *a, const TVal *b, const NodeIndex *ix)
{
	DType t = a->dtype;
	if (t != DT_F32 && t != DT_F16 && t != DT_BF16)
		return false;
	const TVal *fa = t == DT_F32 ? a : isel_elt_cast(s, a, DT_F32), *fb = t == DT_F32 ? b : isel_elt_cast(s, b, DT_F32);
	TVal *r = isel_tval_new(s, DT_F32, a->n, ix);
	for (int i = 0; i < r->nd; i++) {
		if (op->kind == OP_REMF && t == DT_F16) { /* f16's exponents: 2 steps (math.c) */
			r->d[i] = isel_math_remf(s, isel_vgpr(s, fa->d[i]), isel_vgpr(s, fb->d[i]), 39);
			continue;
		}
		r->d[i] = isel_v1(s);
		if (!isel_math_binary_f32(s, op->kind, r->d[i], isel_vgpr(s, fa->d[i]), isel_vgpr(s, fb->d[i])))
			return false;
	}
	s->val[op_result(op)->id] = t == DT_F32 ? r : isel_elt_cast(s, r, t);
	return true;
}

static bool select_binary(Isel *s, Op *op)
{
	Analysis *c = s->c;
	/* (x + 0) * c in a loop: one fma (pk_f32.c) */
	if (isel_pk_f32_zero_add(s, op) || isel_pk_f32_fma_zero(s, op))
		return true;
	const NodeIndex *ix = c->index[op->id];
	const TVal *a = isel_elt_words(s, s->val[op->args[0]->id]), *b = isel_elt_words(s, s->val[op->args[1]->id]);
	if (!a || !b || !ix || a->dtype != b->dtype)
		return false;
	if (!(a = isel_tval_gather(s, a, ix, op)) || !(b = isel_tval_gather(s, b, ix, op)))
		return true; /* reported */
	if (isel_elt_is_word_int(a->dtype))
		return isel_select_int_binary(s, op, a, b, ix);
	if (op->kind == OP_POWF || op->kind == OP_ATAN2 || op->kind == OP_REMF)
		return math_binary(s, op, a, b, ix);
	if (op->kind == OP_FLOORDIV || op->kind == OP_MOD)
		return math_binary(s, op, a, b, ix);
	MOp f16 = 0, f32 = 0;
	bool div = false;
	switch (op->kind) {
	case OP_ADD: f16 = I_V_PK_ADD_F16; f32 = I_V_ADD_F32; break;
	case OP_SUB: f32 = I_V_SUB_F32; break;
	case OP_MUL: f16 = I_V_PK_MUL_F16; f32 = I_V_MUL_F32; break;
	case OP_TRUEDIV: f32 = I_V_MUL_F32; div = true; break;
	case OP_MAXIMUM: f16 = I_V_PK_MAX_F16; f32 = I_V_MAX_F32; break;
	case OP_MINIMUM: f16 = I_V_PK_MIN_F16; f32 = I_V_MIN_F32; break;
	default: return false;
	}
	DType t = a->dtype;
	if (t == DT_BF16) {
		s->val[op_result(op)->id] = binary_bf16(s, a, b, ix, f32, div);
		return true;
	}
	if (t == DT_F16 && op->kind == OP_SUB && a->packed == b->packed) {
		/* a - b = a + (-b) exactly: both halves' signs flipped, then
		 * v_pk_add_f16 (one rounding, as the interpreter's) */
		TVal *r = isel_tval_new(s, DT_F16, a->n, ix);
		for (int i = 0; i < r->nd; i++) {
			MOpnd nb = isel_v1(s), u[2] = {mo_imm((int64_t)0x80008000), isel_vgpr(s, b->d[i])};
			mblock_add(s->b, I_V_XOR_B32, 1, &nb, 2, u);
			MOpnd w[2] = {isel_vgpr(s, a->d[i]), nb};
			r->d[i] = isel_v1(s);
			mblock_add(s->b, I_V_PK_ADD_F16, 1, &r->d[i], 2, w);
		}
		s->val[op_result(op)->id] = r;
		return true;
	}
	if (t == DT_F16 && op->kind == OP_TRUEDIV) {
		/* through f32 (x * v_rcp_f32(y)), rounded back to f16 once */
		TVal *fa = isel_elt_cast(s, a, DT_F32), *fb = isel_elt_cast(s, b, DT_F32);
		TVal *q = isel_tval_new(s, DT_F32, a->n, ix);
		for (int i = 0; i < q->nd; i++) {
			MOpnd rc = isel_v1(s), d = isel_v1(s), u[2];
			mblock_add(s->b, I_V_RCP_F32, 1, &rc, 1, &fb->d[i]);
			u[0] = fa->d[i];
			u[1] = rc;
			mblock_add(s->b, I_V_MUL_F32, 1, &d, 2, u);
			q->d[i] = d;
		}
		s->val[op_result(op)->id] = isel_elt_cast(s, q, DT_F16);
		return true;
	}
	MOp mop = a->dtype == DT_F16 ? f16 : a->dtype == DT_F32 ? f32 : 0;
	if (!mop)
		return false;
	const TVal *in_place = reusable_agprs(s, op, a, 0) ? a : reusable_agprs(s, op, b, 1) ? b : NULL;
	TVal *r = t == DT_F32 && !in_place && !div ? isel_pk_f32_binary(s, op, a, b, ix) : NULL;
	if (r) { /* pk_f32.c: two dwords a row */
		s->val[op_result(op)->id] = r;
		return true;
	}
	r = isel_tval_new(s, a->dtype, a->n, ix);
	MOpnd rcp_of[2] = {{0}, {0}}; /* the last reciprocal: broadcast divisors repeat */
	MOpnd qnan = {0};
	for (int i = 0; i < r->nd; i++) {
		MOpnd x = isel_vgpr(s, a->d[i]), y = isel_vgpr(s, b->d[i]);
		if (div) {
			if (rcp_of[0].kind && memcmp(&rcp_of[0], &y, sizeof y) == 0) {
				y = rcp_of[1];
			} else {
				MOpnd t = isel_v1(s);
				mblock_add(s->b, I_V_RCP_F32, 1, &t, 1, &y);
				rcp_of[0] = y;
				rcp_of[1] = y = t;
			}
		}
		r->d[i] = isel_v1(s);
		MOpnd u[2] = {x, y};
		mblock_add(s->b, mop, 1, &r->d[i], 2, u);
		if (is_max_min(mop) && t == DT_F32)
			r->d[i] = nan_f32(s, r->d[i], x, y, &qnan);
		else if (is_max_min(mop))
			r->d[i] = nan_f16x2(s, r->d[i], x, y, r->packed && 2 * i + 1 < r->n, &qnan);
		r->d[i] = back_in_place(s, in_place, i, r->d[i]);
	}
	s->val[op_result(op)->id] = r;
	return true;
}

/* neg and abs of 16-bit floats: the sign bits of both halves of each
 * dword at once (f16 and bf16 alike; NaNs keep their payload, as the
 * interpreter's sign flip does). */
static bool sign_op_16(Isel *s, Op *op, const TVal *a)
{
	TVal *r = isel_tval_new(s, a->dtype, a->n, a->ix);
	r->packed = a->packed;
	r->nd = a->nd;
	for (int i = 0; i < r->nd; i++) {
		MOpnd u[2] = {mo_imm(op->kind == OP_NEG ? (int64_t)0x80008000 : 0x7fff7fff), isel_vgpr(s, a->d[i])};
		r->d[i] = isel_v1(s);
		mblock_add(s->b, op->kind == OP_NEG ? I_V_XOR_B32 : I_V_AND_B32, 1, &r->d[i], 2, u);
	}
	s->val[op_result(op)->id] = r;
	return true;
}

static bool select_unary(Isel *s, Op *op)
{
	const TVal *a = isel_elt_words(s, s->val[op->args[0]->id]);
	if (a && isel_elt_is_word_int(a->dtype))
		return isel_select_int_unary(s, op, a);
	if (a && (a->dtype == DT_F16 || a->dtype == DT_BF16) && (op->kind == OP_NEG || op->kind == OP_ABS))
		return sign_op_16(s, op, a);
	if (a && (a->dtype == DT_F16 || a->dtype == DT_BF16)) {
		/* exp, log2, reciprocal, sqrt of 16-bit floats: in f32 (which
		 * holds them exactly), rounded back once */
		const TVal *f = isel_elt_cast(s, a, DT_F32);
		s->val[op_result(op)->id] = NULL;
		s->val[op->args[0]->id] = (TVal *)f;
		bool ok = select_unary(s, op);
		s->val[op->args[0]->id] = (TVal *)a;
		const TVal *r = s->val[op_result(op)->id];
		if (!ok || !r)
			return false;
		TVal *r16 = isel_elt_cast(s, r, a->dtype);
		r16->ix = a->ix;
		s->val[op_result(op)->id] = r16;
		return true;
	}
	if (!a || a->dtype != DT_F32)
		return false;
	TVal *r = isel_tval_new(s, a->dtype, a->n, a->ix);
	const TVal *in_place = reusable_agprs(s, op, a, 0) ? a : NULL;
	if ((op->kind == OP_EXP2 || op->kind == OP_EXP) && !in_place) {
		/* all elements at once: elt.c interleaves them around the hazards */
		MOpnd *x = ARENA_NEWN(&s->c->arena, MOpnd, r->nd ? r->nd : 1);
		/* in a loop, tuples in, tuples out (pk_f32.c: the packed sums) */
		bool tuples = isel_pk_f32_dests(s, op, a, r);
		if (op->kind == OP_EXP && tuples) {
			isel_pk_f32_scale(s, a, x, 0x3fb8aa3b); /* log2(e) as f32 */
		} else {
			for (int i = 0; i < r->nd; i++) {
				x[i] = isel_vgpr(s, a->d[i]);
				if (!tuples)
					r->d[i] = isel_v1(s);
				if (op->kind == OP_EXP) {
					MOpnd t = isel_v1(s), u[2] = {mo_imm(0x3fb8aa3b), x[i]}; /* log2(e) as f32 */
					mblock_add(s->b, I_V_MUL_F32, 1, &t, 2, u);
					x[i] = t;
				}
			}
		}
		isel_elt_exp2_f32_n(s, r->d, x, r->nd);
		s->val[op_result(op)->id] = r;
		return true;
	}
	for (int i = 0; i < r->nd; i++) {
		MOpnd x = isel_vgpr(s, a->d[i]);
		r->d[i] = isel_v1(s);
		switch (op->kind) {
		case OP_EXP: {
			MOpnd t = isel_v1(s), u[2] = {mo_imm(0x3fb8aa3b), x}; /* log2(e) as f32 */
			mblock_add(s->b, I_V_MUL_F32, 1, &t, 2, u);
			isel_elt_exp2_f32(s, r->d[i], t);
			break;
		}
		case OP_EXP2: isel_elt_exp2_f32(s, r->d[i], x); break;
		case OP_LOG2: isel_elt_log2_f32(s, r->d[i], x); break;
		case OP_RECIPROCAL: mblock_add(s->b, I_V_RCP_F32, 1, &r->d[i], 1, &x); break;
		case OP_SQRT: mblock_add(s->b, I_V_SQRT_F32, 1, &r->d[i], 1, &x); break;
		case OP_NEG: {
			MOpnd u[2] = {mo_imm(0x80000000), x};
			mblock_add(s->b, I_V_XOR_B32, 1, &r->d[i], 2, u);
			break;
		}
		case OP_ABS: {
			MOpnd u[2] = {mo_imm(0x7fffffff), x};
			mblock_add(s->b, I_V_AND_B32, 1, &r->d[i], 2, u);
			break;
		}
		default:
			if (!isel_math_unary_f32(s, op->kind, r->d[i], x))
				return false;
		}
		r->d[i] = back_in_place(s, in_place, i, r->d[i]);
	}
	s->val[op_result(op)->id] = r;
	return true;
}

static bool select_cast(Isel *s, Op *op)
{
	const TVal *a = isel_elt_words(s, s->val[op->args[0]->id]);
	if (op->dtype == DT_F8E4M3FNUZ && isel_is_gfx90a(s)) {
		analysis_error(s->c, op->loc, "%s: a cast to f8e4m3fnuz needs v_cvt_pk_fp8_f32, which gfx90a does not have",
			op->path);
		return true;
	}
	/* gfx950's fp8 conversions and MFMAs take the OCP encodings (e4m3fn,
	 * e5m2), not the FNUZ ones gfx942's take: no FNUZ value is converted
	 * there */
	if ((op->dtype == DT_F8E4M3FNUZ || (a && a->dtype == DT_F8E4M3FNUZ)) && isel_is_gfx950(s)) {
		analysis_error(s->c, op->loc, "%s: a cast %s f8e4m3fnuz is not compiled for gfx950, whose fp8 instructions "
					      "use the OCP encodings (f8e4m3fn): use f8e4m3fn there",
			op->path, op->dtype == DT_F8E4M3FNUZ ? "to" : "from");
		return true;
	}
	/* the OCP ones are gfx950's: gfx942's fp8 instructions read FNUZ */
	if ((op->dtype == DT_F8E4M3FN || op->dtype == DT_F8E5M2 || (a && (a->dtype == DT_F8E4M3FN || a->dtype == DT_F8E5M2))) &&
		!isel_is_gfx950(s)) {
		analysis_error(s->c, op->loc, "%s: a cast %s %s needs gfx950's OCP fp8 conversions, which %s does not have",
			op->path, a && (a->dtype == DT_F8E4M3FN || a->dtype == DT_F8E5M2) ? "from" : "to",
			dtype_name(a && (a->dtype == DT_F8E4M3FN || a->dtype == DT_F8E5M2) ? a->dtype : op->dtype),
			s->f->target->name);
		return true;
	}
	if (a && a->dtype == DT_F8E4M3FNUZ && isel_is_gfx90a(s)) {
		analysis_error(s->c, op->loc, "%s: a cast from f8e4m3fnuz needs v_cvt_f32_fp8, which gfx90a does not have",
			op->path);
		return true;
	}
	if (!a)
		return false;
	TVal *r = a->dtype == DT_I1 || op->dtype == DT_I1 ? isel_elt_cast_i1(s, a, op->dtype) : isel_elt_cast(s, a, op->dtype);
	if (!r && a->dtype != DT_I1 && op->dtype != DT_I1)
		r = isel_cast_int(s, a, op->dtype);
	if (!r) {
		analysis_error(s->c, op->loc, "%s: a cast from %s to %s is not compiled yet", op->path, dtype_name(a->dtype),
			dtype_name(op->dtype));
		return true;
	}
	s->val[op_result(op)->id] = r;
	return true;
}

static bool select_broadcast(Isel *s, Op *op)
{
	const TVal *a = s->val[op->args[0]->id];
	const NodeIndex *ix = s->c->index[op->id];
	if (!a || !ix)
		return false;
	TVal *r = isel_tval_gather(s, a, ix, op);
	if (r)
		s->val[op_result(op)->id] = r;
	return true;
}

/* A scalar constant: one VGPR (made in the entry block, which dominates
 * every use), f32 bits or an f16 value in both halves. */
/* A scalar whose value is a runtime integer expression (a dynamic size):
 * the integer, uniform, converted to f32 (v_cvt_f32_i32 rounds to
 * nearest even, as the interpreter's conversion does), then to the
 * scalar's 16-bit type in both halves. In the entry block, which
 * dominates every use. */
static MOpnd runtime_scalar(Isel *s, Op *op, Sym *e)
{
	MBlock *save = s->b;
	s->b = s->f->blocks.data[0];
	MOpnd n = isel_expr_to_vgpr(s, isel_expr_lower_entry(s, e, op->loc)), f = isel_v1(s);
	mblock_add(s->b, I_V_CVT_F32_I32, 1, &f, 1, &n);
	MOpnd r = f;
	if (op->dtype == DT_F16) {
		MOpnd h = isel_v1(s), u[2];
		mblock_add(s->b, I_V_CVT_F16_F32, 1, &h, 1, &f);
		u[0] = h;
		u[1] = h;
		r = isel_v1(s);
		mblock_add(s->b, I_V_PACK_B32_F16, 1, &r, 2, u);
	} else if (op->dtype == DT_BF16) {
		MOpnd k = {0}, hi = isel_elt_f32_to_bf16_hi(s, f, &k);
		MOpnd sel = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), kv = mo_imm(0x07060302);
		mblock_add(s->b, I_S_MOV_B32, 1, &sel, 1, &kv);
		MOpnd u[3] = {hi, hi, sel};
		r = isel_v1(s);
		mblock_add(s->b, I_V_PERM_B32, 1, &r, 3, u);
	}
	s->b = save;
	return r;
}

static bool select_scalar(Isel *s, Op *op)
{
	const NodeIndex *ix = s->c->index[op->id];
	uint32_t bits;
	double value = op->value;
	if (op->expr && (op->dtype == DT_F32 || op->dtype == DT_F16 || op->dtype == DT_BF16)) {
		/* an integer expression: known now, or at run time */
		Sym *rt = analysis_runtime(s->c, op->expr);
		if (rt) {
			if (!ix || ix->ndims != 0)
				die("scalar %s without a rank-0 index", op->name);
			TVal *r = ARENA_NEW(&s->c->arena, TVal);
			*r = (TVal){.dtype = op->dtype, .n = 1, .nd = 1, .packed = false, .ix = ix};
			r->d = ARENA_NEWN(&s->c->arena, MOpnd, 1);
			r->d[0] = runtime_scalar(s, op, rt);
			s->val[op_result(op)->id] = r;
			return true;
		}
		int64_t v = analysis_int(s->c, op->expr, op->loc, op->path);
		if (s->c->failed)
			return true;
		value = (double)v;
	}
	if (op->dtype == DT_F32) {
		float f = (float)value;
		memcpy(&bits, &f, 4);
	} else if (op->dtype == DT_F16 || op->dtype == DT_BF16) {
		uint32_t h = op->dtype == DT_F16 ? dtype_f32_to_f16((float)value) : dtype_f32_to_bf16((float)value);
		bits = h | h << 16;
	} else if (op->dtype == DT_I32 && !op->expr && value == (double)(int32_t)value) {
		bits = (uint32_t)(int32_t)value;
	} else {
		analysis_error(s->c, op->loc, "%s: %s scalars are not compiled yet", op->path, dtype_name(op->dtype));
		return true;
	}
	if (!ix || ix->ndims != 0)
		die("scalar %s without a rank-0 index", op->name);
	TVal *r = ARENA_NEW(&s->c->arena, TVal);
	*r = (TVal){.dtype = op->dtype, .n = 1, .nd = 1, .packed = false, .ix = ix};
	r->d = ARENA_NEWN(&s->c->arena, MOpnd, 1);
	MBlock *save = s->b;
	s->b = s->f->blocks.data[0];
	r->d[0] = isel_v1(s);
	MOpnd u = mo_imm(bits);
	mblock_add(s->b, I_V_MOV_B32, 1, &r->d[0], 1, &u);
	s->b = save;
	s->val[op_result(op)->id] = r;
	return true;
}

bool isel_select_elementwise(Isel *s, Op *op)
{
	if (op->kind == OP_SCALAR && op->sarg)
		return isel_select_scalar_arg(s, op);
	if (op->kind == OP_SCALAR)
		return isel_select_int_scalar(s, op) || select_scalar(s, op);
	if (op_is_compare(op->kind))
		return isel_select_compare(s, op);
	if (op->kind == OP_SELECT)
		return isel_select_select(s, op);
	if (op->kind == OP_SELF_INDEX)
		return isel_select_self_index(s, op);
	if (op->kind == OP_APPLY_EXPR)
		return isel_select_apply_expr(s, op);
	if (op_is_binary(op->kind))
		return select_binary(s, op);
	if (op_is_unary(op->kind))
		return select_unary(s, op);
	if (op->kind == OP_CAST)
		return select_cast(s, op);
	if (op->kind == OP_BROADCAST || op->kind == OP_PERMUTE)
		return select_broadcast(s, op); /* both: the operand's elements gathered into the op's index */
	return false;
}
