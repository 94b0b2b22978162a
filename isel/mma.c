/* mma.c — accumulator registers and matrix multiply-accumulate (MFMA).
 *
 * Layouts come from index analysis (passes/graph/indices.c, Wave's MMA layouts): an
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
 * Inside a K loop whose tile is not a multiple of the MMA's K (BLOCK_K 8
 * or 24 with K steps of 16), the lanes of a K copy past the trip's window
 * get zero operands (v_cndmask) and copies wholly past it are skipped.
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

/* Accumulators go to AGPRs when one takes more than ACC_VGPR_MAX dwords
 * per lane: gfx90a and gfx942 give each lane up to 256 VGPRs and 256 AGPRs
 * from one 512-register file, MFMAs read and write AGPR accumulators
 * directly, and the VGPRs stay free for operands and addresses (a
 * 128x128 f32 wave tile is 256 dwords: the whole AGPR file). Smaller
 * accumulators stay in VGPRs, where the epilogue reads them without
 * v_accvgpr_read. */
enum { ACC_VGPR_MAX = 64 };

bool isel_acc_in_agprs(Isel *s, Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		const NodeIndex *ix = s->c->index[op->id];
		if (op->kind == OP_MMA && ix && ix->ncopies * ix->epc > ACC_VGPR_MAX)
			return true;
		if (op->body && isel_acc_in_agprs(s, op->body))
			return true;
	}
	return false;
}

void isel_select_register(Isel *s, Op *op)
{
	Analysis *c = s->c;
	const NodeIndex *ix = c->index[op->id];
	if (!ix)
		return;
	if (op->dtype != DT_F32) {
		analysis_error(c, op->loc, "%s: %s registers are not compiled yet", op->path, dtype_name(op->dtype));
		return;
	}
	float f = (float)op->value;
	uint32_t bits;
	memcpy(&bits, &f, 4);
	TVal *v = isel_tval_new(s, DT_F32, ix->ncopies * ix->epc, ix);
	int w = (int)ix->epc;
	/* an accumulator copy is one tuple (the MFMA's srcC/dst, 4 or 16
	 * dwords); elsewhere each element is its own VGPR, as a run of up to
	 * MAX_EPC elements has no tuple class */
	bool tuple = c->mode == IM_MMA && w > 1;
	RegFile file = tuple && s->acc_agpr ? RF_AGPR : RF_VGPR;
	MOpnd src = mo_imm(bits);
	if (file == RF_AGPR && bits != 0) {
		/* v_accvgpr_write takes a VGPR or an inline constant */
		src = isel_v1(s);
		MOpnd k = mo_imm(bits);
		mblock_add(s->b, I_V_MOV_B32, 1, &src, 1, &k);
	}
	for (int64_t cn = 0; cn < ix->ncopies; cn++) {
		uint32_t r = tuple ? mfunc_vreg(s->f, rc_make(file, w)) : 0;
		for (int k = 0; k < w; k++) {
			MOpnd d = tuple ? mo_vsub(r, k, rc_make(file, 1)) : isel_v1(s);
			isel_mov(s, d, src);
			v->d[cn * w + k] = d;
		}
	}
	s->val[op_result(op)->id] = v;
}

/* The loop over dim that op is in, if any. */
static const TileLoop *loop_over(Analysis *c, const Op *op, const Sym *dim)
{
	for (Region *r = op->parent; r && r->owner; r = r->parent)
		if (r->owner->dim == dim)
			return analysis_tile(c, dim);
	return NULL;
}

/* Inside a loop whose K tile is not a multiple of the MMA's K, a K copy
 * reaches past the trip's window [iv*tile, iv*tile + tile) into the next
 * trip's: those lanes' operands are zeroed (both, so no inf or NaN of the
 * next tile gets in), as the window has them not. `in` holds, for the run
 * of 4 f16 each lane holds along K (2 dwords, element j in the low half of
 * dword j/2 when j is even), whether element j is in the window. */
typedef struct KWindow {
	Sym *in[4];
	bool all_in, all_out;
} KWindow;

static KWindow k_window(Analysis *c, const TVal *v, const Sym *K, int64_t cn, const TileLoop *t)
{
	SymCtx *sc = c->k->sc;
	KWindow w = {.all_in = true, .all_out = true};
	int pos = -1;
	for (int i = 0; i < v->ix->ndims; i++)
		if (v->ix->d[i].dim == K)
			pos = i;
	Sym *end = sym_add(sc, sym_mul(sc, t->iv, sym_int(sc, t->tile)), sym_int(sc, t->tile));
	for (int j = 0; j < 4; j++) {
		/* a tile that is a multiple of 4 keeps each lane's run (its start
		 * is a multiple of 4) wholly in or out: element 0 decides */
		w.in[j] = j && t->tile % 4 == 0
				  ? w.in[0]
				  : sym_simplify(sc, sym_rel(sc, SYM_LT, index_coord(c, v->ix, pos, cn, j), end), c->assume);
		w.all_in &= sym_kind(w.in[j]) == SYM_TRUE;
		w.all_out &= sym_kind(w.in[j]) == SYM_FALSE;
	}
	return w;
}

/* r = in ? x : r (one lane mask from the relation in) */
static MOpnd select_in(Isel *s, Op *op, Sym *in, MOpnd x, MOpnd r)
{
	if (sym_kind(in) == SYM_TRUE)
		return x;
	if (sym_kind(in) == SYM_FALSE)
		return r;
	isel_expr_cond_to_vcc(s, in, op->loc);
	MOpnd d = isel_v1(s), u[3] = {r, isel_expr_to_vgpr(s, x), mo_special(MO_VCC)};
	MInst *mi = mblock_add(s->b, I_V_CNDMASK_B32, 1, &d, 3, u);
	mi->flags |= MIF_E32;
	return d;
}

/* The operand tuple of copy cn (2 dwords at 2 * cn), its elements outside
 * the K window zeroed. The window's end is monotone along the run: a dword
 * whose high half is in is whole; one whose low half only is in keeps that
 * half (v_and 0xffff). */
static MOpnd operand(Isel *s, Op *op, const TVal *v, int64_t cn, const KWindow *w, MOpnd *zero)
{
	if (!w || w->all_in)
		return isel_tuple_of(s, v, (int)(2 * cn), 2);
	if (zero->kind != MO_VREG) { /* a VGPR: cndmask reading vcc takes no literal */
		MOpnd d = isel_v1(s), u = mo_imm(0);
		mblock_add(s->b, I_V_MOV_B32, 1, &d, 1, &u);
		*zero = d;
	}
	TVal t = {.dtype = v->dtype, .n = 4, .packed = true, .nd = 2, .d = ARENA_NEWN(&s->c->arena, MOpnd, 2)};
	for (int k = 0; k < 2; k++) {
		MOpnd x = v->d[2 * cn + k], r = *zero;
		if (w->in[2 * k] == w->in[2 * k + 1]) { /* both halves in or out together */
			t.d[k] = select_in(s, op, w->in[2 * k], x, r);
			continue;
		}
		if (sym_kind(w->in[2 * k]) != SYM_FALSE) {
			MOpnd lo = isel_v1(s), u[2] = {mo_imm(0xffff), isel_expr_to_vgpr(s, x)};
			mblock_add(s->b, I_V_AND_B32, 1, &lo, 2, u);
			r = select_in(s, op, w->in[2 * k], lo, r);
		}
		t.d[k] = select_in(s, op, w->in[2 * k + 1], x, r);
	}
	return isel_tuple_of(s, &t, 0, 2);
}

void isel_select_mma(Isel *s, Op *op)
{
	Analysis *c = s->c;
	const TVal *a = s->val[op->args[0]->id], *b = s->val[op->args[1]->id], *acc = s->val[op->args[2]->id];
	const NodeIndex *rx = c->index[op->id];
	if (!a || !b || !acc || !rx)
		return;
	MmaType mt = op_mma_type(c->k, op);
	/* the *_F16 names with bf16 operands are the bf16 MFMAs of the same
	 * shape (Wave's convention; gfx90a spells them ..bf16_1k) */
	bool bf = a->dtype == DT_BF16;
	/* the K8 types are two native MFMAs per K step: each lane holds 8
	 * consecutive k, the first MFMA takes elements 0-3, the second 4-7
	 * (Wave's "virtual" MMAs; the k order inside a step does not change
	 * the sum's terms, A and B agreeing on it) */
	bool k8 = mt == MMA_F32_16x16x32_K8_F16 || mt == MMA_F32_32x32x16_K8_F16;
	bool s16 = mt == MMA_F32_16x16x16_F16 || mt == MMA_F32_16x16x32_K8_F16;
	bool s32 = mt == MMA_F32_32x32x8_F16 || mt == MMA_F32_32x32x16_K8_F16;
	MOp mfma = s16 ? (bf ? I_V_MFMA_F32_16X16X16_BF16 : I_V_MFMA_F32_16X16X16_F16)
		   : s32 ? (bf ? I_V_MFMA_F32_32X32X8_BF16 : I_V_MFMA_F32_32X32X8_F16)
			 : 0;
	int64_t kper = k8 ? 8 : 4;
	if (!mfma || (a->dtype != DT_F16 && a->dtype != DT_BF16) || b->dtype != a->dtype || acc->dtype != DT_F32 ||
		!a->packed || !b->packed ||
		a->ix->epc != kper || b->ix->epc != kper) {
		analysis_error(c, op->loc, "%s: this mma (%s, %s x %s -> %s) is not compiled yet", op->path,
			mt == MMA_NONE ? "?" : mma_info[mt].name, dtype_name(a->dtype), dtype_name(b->dtype),
			dtype_name(acc->dtype));
		return;
	}
	int ra = op->args[0]->shape.rank, rb = op->args[1]->shape.rank;
	Sym *M = op->args[0]->shape.dims[ra - 2], *K = op->args[0]->shape.dims[ra - 1], *N = op->args[1]->shape.dims[rb - 2];
	int64_t mc = copies_of(rx, M), nc = copies_of(rx, N), kc = copies_of(a->ix, K);
	if (kc != copies_of(b->ix, K) || mc != copies_of(a->ix, M) || nc != copies_of(b->ix, N)) {
		analysis_error(c, op->loc, "%s: the operands' expansion copies do not match", op->path);
		return;
	}
	if (!(acc = isel_tval_gather(s, acc, rx, op)))
		return;
	int w = (int)rx->epc;
	RegFile file = s->acc_agpr ? RF_AGPR : RF_VGPR;
	RegClass rc = rc_make(file, w);
	TVal *r = isel_tval_new(s, DT_F32, acc->n, rx);
	MOpnd *ct = ARENA_NEWN(&c->arena, MOpnd, rx->ncopies);
	for (int64_t cn = 0; cn < rx->ncopies; cn++) {
		ct[cn] = isel_tuple_of(s, acc, (int)(cn * w), w);
		if (s->uses[op->args[2]->id] > 1 && ct[cn].reg == acc->d[cn * w].reg) {
			uint32_t t = mfunc_vreg(s->f, rc);
			for (int k = 0; k < w; k++)
				isel_mov(s, mo_vsub(t, k, rc_make(file, 1)), acc->d[cn * w + k]);
			ct[cn] = mo_vreg(t, rc);
		}
		for (int k = 0; k < w; k++)
			r->d[cn * w + k] = mo_vsub(ct[cn].reg, ct[cn].sub + k, rc_make(rc_file(ct[cn].rc), 1));
	}
	const TileLoop *t = loop_over(c, op, K);
	bool window = t && analysis_many(t->trips) && t->tile % mma_info[mt].k;
	if (window && k8) {
		analysis_error(c, op->loc, "%s: a K tile of %lld is not a multiple of %s's K %d: not compiled yet for the "
					  "K8 types",
			op->path, (long long)t->tile, mma_info[mt].name, mma_info[mt].k);
		return;
	}
	MOpnd zero = {0};
	for (int64_t kk = 0; kk < kc; kk++) {
		KWindow wa, wb;
		if (window) {
			wa = k_window(c, a, K, copy_num(a->ix, M, 0, K, kk), t);
			wb = k_window(c, b, K, copy_num(b->ix, N, 0, K, kk), t);
			if (wa.all_out || wb.all_out)
				continue; /* the whole copy lies past the window: adds nothing */
		}
		MOpnd *A = ARENA_NEWN(&c->arena, MOpnd, mc), *B = ARENA_NEWN(&c->arena, MOpnd, nc);
		for (int half = 0; half < (k8 ? 2 : 1); half++) {
			for (int64_t m = 0; m < mc; m++)
				A[m] = k8 ? isel_tuple_of(s, a, (int)(4 * copy_num(a->ix, M, m, K, kk) + 2 * half), 2)
					  : operand(s, op, a, copy_num(a->ix, M, m, K, kk), window ? &wa : NULL, &zero);
			for (int64_t n = 0; n < nc; n++)
				B[n] = k8 ? isel_tuple_of(s, b, (int)(4 * copy_num(b->ix, N, n, K, kk) + 2 * half), 2)
					  : operand(s, op, b, copy_num(b->ix, N, n, K, kk), window ? &wb : NULL, &zero);
			for (int64_t m = 0; m < mc; m++)
				for (int64_t n = 0; n < nc; n++) {
					int64_t cr = copy_num(rx, M, m, N, n);
					MOpnd u[3] = {A[m], B[n], ct[cr]};
					mblock_add(s->b, mfma, 1, &ct[cr], 3, u);
				}
		}
	}
	s->val[op_result(op)->id] = r;
}
