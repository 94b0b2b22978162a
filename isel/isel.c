/* isel.c — instruction selection: the per-thread program of the graph
 * (accesses from passes/indices.c, elementwise ops) → machine IR with
 * virtual registers.
 *
 * Algorithm:
 *   - entry: copy the kernarg pointer s[0:1], the workgroup ids s2.. and the
 *     packed work-item ids in v0 into virtual registers (so allocation can
 *     reuse the incoming registers), load each buffer pointer from the
 *     kernarg segment straight into a 4-dword buffer descriptor and finish it
 *     (stride 0: raw buffer; num_records = the tensor's bytes), so every
 *     access is range-checked by the hardware;
 *   - an access's byte offset base*size is split by uniformity (isel/expr.c):
 *     the wave-uniform part goes to the MUBUF soffset (an SGPR, SALU
 *     arithmetic), the per-lane part to the offset VGPR (VALU);
 *   - a run of ept elements is one or more dwordx1..x4 accesses when
 *     indices.c found it contiguous and valid as a whole; otherwise one
 *     access per element, 16-bit elements pairing in a dword (ushort into
 *     the low half, short_d16_hi into the high half);
 *   - a lane whose element fails a bound gets the offset 0x80000000, beyond
 *     num_records: the load returns 0, the store is dropped (masking for
 *     free, no EXEC manipulation);
 *   - per-thread values are lists of dwords (TVal): a 16-bit element j lives
 *     in dword j/2, half j%2; a 32-bit element in dword j.
 * Requires: analyze_indices. Fills: c->mf (one block, virtual registers). */
#include <stdlib.h>
#include <string.h>

#include "isel.h"

static void emit_entry(Isel *s)
{
	Compile *c = s->c;
	MOpnd d, u;
	s->kernarg = mfunc_vreg(s->f, RC_S2);
	d = mo_vreg(s->kernarg, RC_S2);
	u = mo_preg(0, RC_S2);
	mblock_add(s->b, EI_S_MOV_B64, 1, &d, 1, &u);
	int sg = 2;
	for (int g = 0; g < 3; g++) {
		s->wg_id[g] = UINT32_MAX;
		if (c->grid[g] > 1 || g == 0) {
			s->wg_id[g] = mfunc_vreg(s->f, RC_S1);
			d = mo_vreg(s->wg_id[g], RC_S1);
			u = mo_preg((uint32_t)sg++, RC_S1);
			mblock_add(s->b, EI_S_MOV_B32, 1, &d, 1, &u);
		}
	}
	s->tid_raw = mfunc_vreg(s->f, RC_V1);
	d = mo_vreg(s->tid_raw, RC_V1);
	u = mo_preg(0, RC_V1);
	mblock_add(s->b, EI_V_MOV_B32, 1, &d, 1, &u);
	for (int g = 0; g < 3; g++)
		s->tid[g] = UINT32_MAX;
}

/* The buffer descriptor of memory argument `mem`, built on first use. */
static uint32_t descriptor(Isel *s, Value *mem)
{
	if (s->desc[mem->arg_idx] != UINT32_MAX)
		return s->desc[mem->arg_idx];
	uint32_t v = mfunc_vreg(s->f, RC_S4);
	int64_t bytes = dtype_size(mem->dtype);
	for (int i = 0; i < mem->shape.rank; i++)
		bytes *= compile_int(s->c, mem->shape.dims[i], mem->loc, sym_name(mem->shape.dims[i]));
	MOpnd d = mo_vsub(v, 0, RC_S2), u[2] = {mo_vreg(s->kernarg, RC_S2), mo_imm(8 * mem->arg_idx)};
	mblock_add(s->b, EI_S_LOAD_DWORDX2, 1, &d, 2, u);
	d = mo_vsub(v, 1, RC_S1);
	MOpnd a[2] = {mo_vsub(v, 1, RC_S1), mo_imm(0xffff)}; /* stride 0, base bits 47:32 */
	mblock_add(s->b, EI_S_AND_B32, 1, &d, 2, a);
	d = mo_vsub(v, 2, RC_S1);
	u[0] = mo_imm(bytes);
	mblock_add(s->b, EI_S_MOV_B32, 1, &d, 1, u);
	d = mo_vsub(v, 3, RC_S1);
	u[0] = mo_imm(0x00020000); /* DATA_FORMAT 32; no add_tid, no swizzle */
	mblock_add(s->b, EI_S_MOV_B32, 1, &d, 1, u);
	s->desc[mem->arg_idx] = v;
	return v;
}

enum { OOB_OFFSET = (int64_t)0x80000000 };

/* Offsets of one access: soffset (uniform bytes) and the lane offset
 * VGPR of element 0. */
static void access_offsets(Isel *s, const Access *a, MOpnd *soff, MOpnd *voff)
{
	SymCtx *sc = s->c->k->sc;
	Sym *bytes = sym_mul(sc, a->base, sym_int(sc, dtype_size(a->mem->dtype)));
	Sym *lane, *uni;
	expr_split(s, bytes, &lane, &uni);
	*soff = expr_lower(s, uni, a->op->loc);
	if (soff->kind == MO_IMM && (soff->imm < -16 || soff->imm > 64))
		*soff = expr_to_sgpr(s, *soff);
	*voff = expr_to_vgpr(s, expr_lower(s, lane, a->op->loc));
}

/* The lane offset for element j, with the bounds applied: lanes whose
 * element is out of bounds get OOB_OFFSET. */
static MOpnd masked_offset(Isel *s, const Access *a, MOpnd voff, int64_t j)
{
	SymCtx *sc = s->c->k->sc;
	Sym *J = sym_symbol(sc, "$J");
	Sym *jv = sym_int(sc, j);
	bool have = false, never = false;
	uint32_t mask = 0;
	for (int i = 0; i < a->nconds; i++) {
		Sym *cond = sym_simplify(sc, sym_subs(sc, a->conds[i], 1, &J, &jv), NULL);
		if (sym_kind(cond) == SYM_TRUE)
			continue;
		if (sym_kind(cond) == SYM_FALSE) {
			never = true;
			continue;
		}
		expr_cond_to_vcc(s, cond, a->op->loc);
		if (have) {
			uint32_t m2 = mfunc_vreg(s->f, RC_S2);
			MOpnd d = mo_vreg(m2, RC_S2), u[2] = {mo_vreg(mask, RC_S2), mo_special(MO_VCC)};
			mblock_add(s->b, EI_S_AND_B64, 1, &d, 2, u);
			mask = m2;
		} else if (i + 1 < a->nconds) {
			mask = mfunc_vreg(s->f, RC_S2);
			MOpnd d = mo_vreg(mask, RC_S2), u = mo_special(MO_VCC);
			mblock_add(s->b, EI_S_MOV_B64, 1, &d, 1, &u);
		} else {
			mask = UINT32_MAX; /* the one condition is in vcc already */
		}
		have = true;
	}
	MOpnd r = mo_vreg(mfunc_vreg(s->f, RC_V1), RC_V1);
	if (never) {
		MOpnd u = mo_imm(OOB_OFFSET);
		mblock_add(s->b, EI_V_MOV_B32, 1, &r, 1, &u);
		return r;
	}
	if (!have)
		return voff;
	if (mask != UINT32_MAX) {
		MOpnd d = mo_special(MO_VCC), u = mo_vreg(mask, RC_S2);
		mblock_add(s->b, EI_S_MOV_B64, 1, &d, 1, &u);
	}
	/* The out-of-range offset lives in a VGPR: VOP2 reading vcc may not
	 * also take a literal (one constant-bus read on gfx9). */
	if (s->oob == UINT32_MAX) {
		s->oob = mfunc_vreg(s->f, RC_V1);
		MOpnd d = mo_vreg(s->oob, RC_V1), u = mo_imm(OOB_OFFSET);
		mblock_add(s->b, EI_V_MOV_B32, 1, &d, 1, &u);
	}
	MOpnd u[3] = {mo_vreg(s->oob, RC_V1), voff, mo_special(MO_VCC)};
	MInst *in = mblock_add(s->b, EI_V_CNDMASK_B32, 1, &r, 3, u);
	in->flags |= MIF_E32;
	return r;
}

static MOp load_op(int dwords)
{
	static const MOp ops[] = {0, EI_BUFFER_LOAD_DWORD, EI_BUFFER_LOAD_DWORDX2, EI_BUFFER_LOAD_DWORDX3,
		EI_BUFFER_LOAD_DWORDX4};
	return ops[dwords];
}

static MOp store_op(int dwords)
{
	static const MOp ops[] = {0, EI_BUFFER_STORE_DWORD, EI_BUFFER_STORE_DWORDX2, EI_BUFFER_STORE_DWORDX3,
		EI_BUFFER_STORE_DWORDX4};
	return ops[dwords];
}

/* One MUBUF instruction: data (load def or store use), offset VGPR,
 * descriptor, soffset, immediate offset. Offsets past the 12-bit field go
 * into the VGPR. */
static void mubuf(Isel *s, MOp op, bool store, MOpnd data, MOpnd voff, uint32_t desc, MOpnd soff, int64_t imm,
	uint32_t extra)
{
	if (imm >= 4096) {
		MOpnd d = mo_vreg(mfunc_vreg(s->f, RC_V1), RC_V1), u[2] = {expr_imm_operand(s, imm), voff};
		mblock_add(s->b, EI_V_ADD_U32, 1, &d, 2, u);
		voff = d;
		imm = 0;
	}
	MOpnd u[4];
	int n = 0;
	if (store)
		u[n++] = data;
	u[n++] = voff;
	u[n++] = mo_vreg(desc, RC_S4);
	u[n++] = soff;
	MInst *in = mblock_add(s->b, op, store ? 0 : 1, &data, n, u);
	in->flags |= MIF_OFFEN | extra;
	in->offset = (int32_t)imm;
}

static bool is16(DType t) { return dtype_size(t) == 2; }

static int tval_dwords(DType t, int64_t ept) { return is16(t) ? (int)((ept + 1) / 2) : (int)ept; }

static TVal *tval_new(Isel *s, DType t, int64_t ept)
{
	TVal *v = ARENA_NEW(&s->c->arena, TVal);
	v->dtype = t;
	v->ept = ept;
	v->n = tval_dwords(t, ept);
	return v;
}

static void select_read(Isel *s, Op *op)
{
	const Access *a = s->c->access[op->id];
	DType t = a->mem->dtype;
	int es = dtype_size(t);
	TVal *v = tval_new(s, t, a->ept);
	uint32_t desc = descriptor(s, a->mem);
	MOpnd soff, voff;
	access_offsets(s, a, &soff, &voff);
	if (a->vector_ok && (es == 4 || (es == 2 && a->ept % 2 == 0))) {
		voff = masked_offset(s, a, voff, 0);
		for (int d = 0; d < v->n; d += 4) {
			int w = MIN(4, v->n - d);
			uint32_t r = mfunc_vreg(s->f, rc_make(RF_VGPR, w));
			mubuf(s, load_op(w), false, mo_vreg(r, rc_make(RF_VGPR, w)), voff, desc, soff, 4 * d, 0);
			for (int k = 0; k < w; k++)
				v->d[d + k] = mo_vsub(r, k, RC_V1);
		}
	} else if (es == 4 || es == 2) {
		for (int64_t j = 0; j < a->ept; j++) {
			MOpnd vj = masked_offset(s, a, voff, j);
			int64_t imm = j * a->stride * es;
			if (es == 4 || j % 2 == 0) {
				v->d[es == 4 ? j : j / 2] = mo_vreg(mfunc_vreg(s->f, RC_V1), RC_V1);
				mubuf(s, es == 4 ? EI_BUFFER_LOAD_DWORD : EI_BUFFER_LOAD_USHORT, false,
					v->d[es == 4 ? j : j / 2], vj, desc, soff, imm, 0);
			} else {
				mubuf(s, EI_BUFFER_LOAD_SHORT_D16_HI, false, v->d[j / 2], vj, desc, soff, imm, MIF_TIED);
			}
		}
	} else {
		compile_error(s->c, op->loc, "%s: %s elements are not compiled yet", op->path, dtype_name(t));
		return;
	}
	s->val[op_result(op)->id] = v;
}

/* The dwords of v as one contiguous tuple starting at dword d0 (w dwords):
 * the load's own tuple if it already is one, else copies. */
static MOpnd tuple_of(Isel *s, const TVal *v, int d0, int w)
{
	MOpnd f = v->d[d0];
	bool same = f.sub == 0 && rc_size(s->f->vregs.data[f.reg]) == w;
	for (int k = 1; same && k < w; k++)
		same = v->d[d0 + k].reg == f.reg && v->d[d0 + k].sub == k;
	if (same)
		return mo_vreg(f.reg, rc_make(RF_VGPR, w));
	uint32_t r = mfunc_vreg(s->f, rc_make(RF_VGPR, w));
	for (int k = 0; k < w; k++) {
		MOpnd d = mo_vsub(r, k, RC_V1);
		mblock_add(s->b, EI_V_MOV_B32, 1, &d, 1, &v->d[d0 + k]);
	}
	return mo_vreg(r, rc_make(RF_VGPR, w));
}

static void select_write(Isel *s, Op *op)
{
	const Access *a = s->c->access[op->id];
	DType t = a->mem->dtype;
	int es = dtype_size(t);
	const TVal *v = s->val[op->args[0]->id];
	if (!v || v->dtype != t) {
		compile_error(s->c, op->loc, "%s: writing %s to %s %s needs a cast op", op->path,
			v ? dtype_name(v->dtype) : "?", dtype_name(t), a->mem->name);
		return;
	}
	uint32_t desc = descriptor(s, a->mem);
	MOpnd soff, voff;
	access_offsets(s, a, &soff, &voff);
	if (a->vector_ok && (es == 4 || (es == 2 && a->ept % 2 == 0))) {
		voff = masked_offset(s, a, voff, 0);
		for (int d = 0; d < v->n; d += 4) {
			int w = MIN(4, v->n - d);
			mubuf(s, store_op(w), true, tuple_of(s, v, d, w), voff, desc, soff, 4 * d, 0);
		}
	} else {
		for (int64_t j = 0; j < a->ept; j++) {
			MOpnd vj = masked_offset(s, a, voff, j);
			int64_t imm = j * a->stride * es;
			MOp sop = es == 4 ? EI_BUFFER_STORE_DWORD
				  : j % 2 ? EI_BUFFER_STORE_SHORT_D16_HI : EI_BUFFER_STORE_SHORT;
			mubuf(s, sop, true, v->d[es == 4 ? j : j / 2], vj, desc, soff, imm, 0);
		}
	}
}

void select_instructions(Compile *c)
{
	Kernel *k = c->k;
	if (c->ept > TVAL_MAX_DWORDS) {
		compile_error(c, (Loc){k->file, 1, 1}, "%lld elements per thread: at most %d are compiled yet",
			(long long)c->ept, TVAL_MAX_DWORDS);
		return;
	}
	Isel s = {.c = c, .oob = UINT32_MAX};
	s.f = c->mf = mfunc_new(k->name, c->t);
	s.b = mfunc_block(s.f, NULL);
	s.val = ARENA_NEWN(&c->arena, TVal *, k->nvalues);
	s.desc = ARENA_NEWN(&c->arena, uint32_t, k->args.len + 1);
	for (size_t i = 0; i < k->args.len; i++)
		s.desc[i] = UINT32_MAX;
	emit_entry(&s);
	for (size_t i = 0; i < k->body->ops.len && !c->failed; i++) {
		Op *op = k->body->ops.data[i];
		s.note = op->name;
		size_t first = s.b->insts.len;
		switch (op->kind) {
		case OP_READ:
			select_read(&s, op);
			break;
		case OP_WRITE:
			select_write(&s, op);
			break;
		default:
			if (!select_elementwise(&s, op))
				compile_error(c, op->loc, "%s: op '%s' is not compiled yet", op->path, op_name(op->kind));
		}
		for (size_t j = first; j < s.b->insts.len; j++)
			s.b->insts.data[j].note = op->name;
	}
	mblock_add(s.b, EI_S_ENDPGM, 0, NULL, 0, NULL);
	vec_free(&s.cache);
}
