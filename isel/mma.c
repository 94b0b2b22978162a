/* mma.c — accumulator registers and matrix multiply-accumulate (MFMA).
 *
 * Layouts come from index analysis (passes/indices.c, wave-dsl.md §3): an
 * lhs copy (m, k) is 4 f16 along K packed in 2 dwords, an rhs copy (n, k)
 * the same along K, an accumulator copy (m, n) 4 (16x16x16) or 16
 * (32x32x8) f32 in one VGPR tuple. `register` ops in the accumulator role
 * allocate those tuples (v_mov of the splat value, f32). An mma op runs,
 * for each K copy in turn, one MFMA per (m, n) copy — independent MFMAs
 * back to back, so a dependent one waits as little as possible — writing
 * the accumulator tuple in place (dst == srcC, which the hardware allows
 * and the allocator sees as one vreg). When the accumulator value has
 * other uses the tuples are copied first. Accumulators live in VGPRs
 * (gfx90a and gfx942 accept VGPR srcC/dst); AGPR placement is a register
 * allocation decision for later.
 * Requires: the operands' per-thread values. */
#include <string.h>

#include "isel.h"

/* The copy number of the copy at (ca along da, cb along db) in ix. */
static int64_t copy_num(const NodeIndex *ix, const Sym *da, int64_t ca, const Sym *db, int64_t cb)
{
	int64_t cn = 0;
	for (int i = 0; i < ix->ndims; i++)
		cn = cn * ix->d[i].copies + (ix->d[i].dim == da ? ca : ix->d[i].dim == db ? cb : 0);
	return cn;
}

static int64_t copies_of(const NodeIndex *ix, const Sym *d)
{
	const DimIndex *di = index_dim(ix, d);
	return di ? di->copies : 1;
}

void select_register(Isel *s, Op *op)
{
	Compile *c = s->c;
	const NodeIndex *ix = c->index[op->id];
	if (!ix)
		return;
	if (op->dtype != DT_F32) {
		compile_error(c, op->loc, "%s: %s registers are not compiled yet", op->path, dtype_name(op->dtype));
		return;
	}
	float f = (float)op->value;
	uint32_t bits;
	memcpy(&bits, &f, 4);
	TVal *v = tval_new(s, DT_F32, ix->ncopies * ix->epc, ix);
	int w = (int)ix->epc;
	/* an accumulator copy is one tuple (the MFMA's srcC/dst, 4 or 16
	 * dwords); elsewhere each element is its own VGPR, as a run of up to
	 * MAX_EPC elements has no tuple class */
	bool tuple = c->mode == IM_MMA && w > 1;
	for (int64_t cn = 0; cn < ix->ncopies; cn++) {
		uint32_t r = tuple ? mfunc_vreg(s->f, rc_make(RF_VGPR, w)) : 0;
		for (int k = 0; k < w; k++) {
			MOpnd d = tuple ? mo_vsub(r, k, RC_V1) : isel_v1(s), u = mo_imm(bits);
			mblock_add(s->b, EI_V_MOV_B32, 1, &d, 1, &u);
			v->d[cn * w + k] = d;
		}
	}
	s->val[op_result(op)->id] = v;
}

void select_mma(Isel *s, Op *op)
{
	Compile *c = s->c;
	const TVal *a = s->val[op->args[0]->id], *b = s->val[op->args[1]->id], *acc = s->val[op->args[2]->id];
	const NodeIndex *rx = c->index[op->id];
	if (!a || !b || !acc || !rx)
		return;
	MmaType mt = op_mma_type(c->k, op);
	MOp mfma = mt == MMA_F32_16x16x16_F16 ? EI_V_MFMA_F32_16X16X16_F16
		   : mt == MMA_F32_32x32x8_F16	  ? EI_V_MFMA_F32_32X32X8_F16
						  : 0;
	if (!mfma || a->dtype != DT_F16 || b->dtype != DT_F16 || acc->dtype != DT_F32 || !a->packed || !b->packed ||
		a->ix->epc != 4 || b->ix->epc != 4) {
		compile_error(c, op->loc, "%s: this mma (%s, %s x %s -> %s) is not compiled yet", op->path,
			mt == MMA_NONE ? "?" : mma_info[mt].name, dtype_name(a->dtype), dtype_name(b->dtype),
			dtype_name(acc->dtype));
		return;
	}
	Sym *M = op->args[0]->shape.dims[0], *K = op->args[0]->shape.dims[1], *N = op->args[1]->shape.dims[0];
	int64_t mc = copies_of(rx, M), nc = copies_of(rx, N), kc = copies_of(a->ix, K);
	if (kc != copies_of(b->ix, K) || mc != copies_of(a->ix, M) || nc != copies_of(b->ix, N)) {
		compile_error(c, op->loc, "%s: the operands' expansion copies do not match", op->path);
		return;
	}
	if (!(acc = tval_gather(s, acc, rx, op)))
		return;
	int w = (int)rx->epc;
	RegClass rc = rc_make(RF_VGPR, w);
	TVal *r = tval_new(s, DT_F32, acc->n, rx);
	MOpnd *ct = ARENA_NEWN(&c->arena, MOpnd, rx->ncopies);
	for (int64_t cn = 0; cn < rx->ncopies; cn++) {
		ct[cn] = tuple_of(s, acc, (int)(cn * w), w);
		if (s->uses[op->args[2]->id] > 1 && ct[cn].reg == acc->d[cn * w].reg) {
			uint32_t t = mfunc_vreg(s->f, rc);
			for (int k = 0; k < w; k++) {
				MOpnd d = mo_vsub(t, k, RC_V1);
				mblock_add(s->b, EI_V_MOV_B32, 1, &d, 1, &acc->d[cn * w + k]);
			}
			ct[cn] = mo_vreg(t, rc);
		}
		for (int k = 0; k < w; k++)
			r->d[cn * w + k] = mo_vsub(ct[cn].reg, k, RC_V1);
	}
	for (int64_t kk = 0; kk < kc; kk++)
		for (int64_t m = 0; m < mc; m++)
			for (int64_t n = 0; n < nc; n++) {
				int64_t ca = copy_num(a->ix, M, m, K, kk), cb = copy_num(b->ix, N, n, K, kk);
				int64_t cr = copy_num(rx, M, m, N, n);
				MOpnd A = tuple_of(s, a, (int)(2 * ca), 2), B = tuple_of(s, b, (int)(2 * cb), 2);
				MOpnd u[3] = {A, B, ct[cr]};
				mblock_add(s->b, mfma, 1, &ct[cr], 3, u);
			}
	s->val[op_result(op)->id] = r;
}
