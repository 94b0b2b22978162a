/* scalar_arg.c — scalar kernel arguments (Wave's `c: tkl.f32` parameters,
 * an OP_SCALAR with sarg set): the value is loaded from the kernarg segment
 * with s_load_dword into an SGPR at its offset (passes/graph/kernarg.c),
 * then copied into a VGPR, since the elementwise selectors put scalar
 * operands anywhere, also where VOP2 and VOP3 allow no SGPR. A 16-bit value
 * is repeated into both halves of its dword, as every 16-bit scalar is held
 * (isel_tval_gather hands the one dword to every element, packed or not);
 * v_perm_b32 copies bits only, so bf16 and f16 NaN payloads pass through.
 * All of it in the entry block, which dominates every use. 32-bit and
 * 16-bit dtypes are compiled; the others are a located error. */
#include "elt.h"

bool isel_select_scalar_arg(Isel *s, Op *op)
{
	Analysis *c = s->c;
	DType t = op->dtype;
	if (!(t == DT_F32 || t == DT_I32 || t == DT_U32 || t == DT_F16 || t == DT_BF16)) {
		analysis_error(c, op->loc, "%s: scalar argument '%s' of type %s is not compiled yet (f32, f16, bf16, i32 "
					   "and u32 are)",
			op->path, op->name, dtype_name(t));
		return true;
	}
	const NodeIndex *ix = c->index[op->id];
	if (!ix || ix->ndims != 0)
		die("scalar argument %s without a rank-0 index", op->name);
	MBlock *save = s->b;
	s->b = s->f->blocks.data[0];
	MOpnd sv = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1);
	isel_kernarg_load(s, I_S_LOAD_DWORD, sv, analysis_scalar_arg_offset(c->k, op->sarg - 1));
	MOpnd v = isel_elt_op1(s, I_V_MOV_B32, sv);
	if (dtype_size(t) == 2)
		v = isel_elt_pack_halves(s, v, false, v, false);
	s->b = save;
	TVal *r = isel_elt_new(s, t, 1, ix);
	r->d[0] = v;
	s->val[op_result(op)->id] = r;
	return true;
}
