/* elementwise.c — per-thread arithmetic and conversions on TVals.
 *
 * Operands and results are TVals of the same elements per thread (the
 * kernels compiled so far give every op of the graph the same per-thread
 * index, see passes/indices.c). 16-bit floats are computed two per dword
 * with packed VOP3P instructions; 32-bit ones one per dword. Conversions
 * f32 -> f16 round to nearest even (v_cvt_f16_f32) and pack pairs with
 * v_pack_b32_f16; f16 -> f32 takes the high half through a shift.
 * Requires: operand values selected before (graph order). */
#include "isel.h"

static TVal *tval(Isel *s, DType t, int64_t ept)
{
	TVal *v = ARENA_NEW(&s->c->arena, TVal);
	v->dtype = t;
	v->ept = ept;
	v->n = dtype_size(t) == 2 ? (int)((ept + 1) / 2) : (int)ept;
	return v;
}

static MOpnd v1(Isel *s) { return mo_vreg(mfunc_vreg(s->f, RC_V1), RC_V1); }

static bool select_binary(Isel *s, Op *op)
{
	const TVal *a = s->val[op->args[0]->id], *b = s->val[op->args[1]->id];
	if (!a || !b || a->dtype != b->dtype || a->ept != b->ept)
		return false;
	MOp f16 = 0, f32 = 0;
	switch (op->kind) {
	case OP_ADD: f16 = EI_V_PK_ADD_F16; f32 = EI_V_ADD_F32; break;
	case OP_MUL: f16 = EI_V_PK_MUL_F16; f32 = EI_V_MUL_F32; break;
	case OP_MAXIMUM: f16 = EI_V_PK_MAX_F16; f32 = EI_V_MAX_F32; break;
	case OP_MINIMUM: f16 = EI_V_PK_MIN_F16; f32 = EI_V_MIN_F32; break;
	default: return false;
	}
	MOp mop = a->dtype == DT_F16 ? f16 : a->dtype == DT_F32 ? f32 : 0;
	if (!mop)
		return false;
	TVal *r = tval(s, a->dtype, a->ept);
	for (int i = 0; i < r->n; i++) {
		r->d[i] = v1(s);
		MOpnd u[2] = {a->d[i], b->d[i]};
		mblock_add(s->b, mop, 1, &r->d[i], 2, u);
	}
	s->val[op_result(op)->id] = r;
	return true;
}

static bool select_cast(Isel *s, Op *op)
{
	const TVal *a = s->val[op->args[0]->id];
	if (!a)
		return false;
	DType to = op->dtype;
	TVal *r = tval(s, to, a->ept);
	if (a->dtype == to) {
		*r = *a;
	} else if (a->dtype == DT_F32 && to == DT_F16) {
		for (int i = 0; i < r->n; i++) {
			MOpnd lo = v1(s);
			mblock_add(s->b, EI_V_CVT_F16_F32, 1, &lo, 1, &a->d[2 * i]);
			if (2 * i + 1 >= a->ept) {
				r->d[i] = lo;
				continue;
			}
			MOpnd hi = v1(s);
			mblock_add(s->b, EI_V_CVT_F16_F32, 1, &hi, 1, &a->d[2 * i + 1]);
			r->d[i] = v1(s);
			MOpnd u[2] = {lo, hi};
			mblock_add(s->b, EI_V_PACK_B32_F16, 1, &r->d[i], 2, u);
		}
	} else if (a->dtype == DT_F16 && to == DT_F32) {
		for (int64_t j = 0; j < a->ept; j++) {
			MOpnd src = a->d[j / 2];
			if (j % 2) {
				MOpnd t = v1(s), u[2] = {mo_imm(16), src};
				mblock_add(s->b, EI_V_LSHRREV_B32, 1, &t, 2, u);
				src = t;
			}
			r->d[j] = v1(s);
			mblock_add(s->b, EI_V_CVT_F32_F16, 1, &r->d[j], 1, &src);
		}
	} else {
		return false;
	}
	s->val[op_result(op)->id] = r;
	return true;
}

bool select_elementwise(Isel *s, Op *op)
{
	if (op_is_binary(op->kind))
		return select_binary(s, op);
	if (op->kind == OP_CAST)
		return select_cast(s, op);
	return false;
}
