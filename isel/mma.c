/* mma.c — accumulator registers and matrix multiply-accumulate (MFMA).
 *
 * Layouts come from index analysis (passes/graph/indices.c, Wave's MMA layouts): an
 * lhs copy (m, k) is 4 f16 along K packed in 2 dwords, an rhs copy (n, k)
 * the same along K, an accumulator copy (m, n) 4 (16x16x16) or 16
 * (32x32x8) f32 in one VGPR tuple. `register` ops in the accumulator role
 * allocate those tuples (v_mov of the splat value, f32); elsewhere a
 * `register` is one VGPR that all its elements share. An mma op runs,
 * for each K copy in turn, one MFMA per (m, n) copy — independent MFMAs
 * back to back, so a dependent one waits as little as possible — writing
 * the accumulator tuple in place (dst == srcC, which the hardware allows
 * and the allocator sees as one vreg). When the accumulator value has
 * other uses the tuples are copied first; when it is a zero `register`,
 * each copy's first MFMA reads srcC = 0 and writes a fresh tuple (no
 * zeroing moves). Accumulators live in VGPRs
 * (gfx90a and gfx942 accept VGPR srcC/dst); AGPR placement is a register
 * allocation decision for later.
 * Inside a K loop whose tile is not a multiple of the MMA's K (BLOCK_K 8
 * or 24 with K steps of 16, an i8 or f8 type's K of 32 in a tile of 16),
 * the lanes of a K copy past the trip's window get zero operands
 * (v_cndmask) and copies wholly past it are skipped. The i8 types run on
 * the target that lacks their instruction through the other shape of the
 * family (mfma_on_target).
 * Requires: the operands' per-thread values. */
#include <math.h>
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
		if ((op->kind == OP_MMA || op->kind == OP_SCALED_MMA) && ix && ix->ncopies * ix->epc > ACC_VGPR_MAX)
			return true;
		if (op->body && isel_acc_in_agprs(s, op->body))
			return true;
	}
	return false;
}

/* Is every use of v an elementwise op (arithmetic, compare, select, cast,
 * broadcast, permute)? Then a `register` needs no accumulator tuple: an
 * MMA (directly, or through a loop's init) may read it only otherwise. */
static bool only_elementwise_uses(const Kernel *k, const Value *v)
{
	for (size_t i = 0; i < k->op_list.len; i++) {
		const Op *u = k->op_list.data[i];
		bool elt = op_is_unary(u->kind) || op_is_binary(u->kind) || op_is_compare(u->kind) ||
			   u->kind == OP_SELECT || u->kind == OP_CAST || u->kind == OP_BROADCAST || u->kind == OP_PERMUTE;
		for (int a = 0; a < u->nargs && !elt; a++)
			if (u->args[a] == v)
				return false;
	}
	return true;
}

void isel_select_register(Isel *s, Op *op)
{
	Analysis *c = s->c;
	const NodeIndex *ix = c->index[op->id];
	if (!ix)
		return;
	uint32_t bits;
	if (op->dtype == DT_F32) {
		float f = (float)op->value;
		memcpy(&bits, &f, 4);
	} else if (op->dtype == DT_I32 && op->value == (double)(int32_t)op->value) {
		bits = (uint32_t)(int32_t)op->value; /* an integer MMA's accumulator */
	} else if (op->dtype == DT_F16 || op->dtype == DT_BF16) {
		/* a 16-bit reduction's init: the value in both halves, right
		 * whether the dwords hold one element or a packed pair */
		uint32_t h = op->dtype == DT_F16 ? dtype_f32_to_f16((float)op->value) : dtype_f32_to_bf16((float)op->value);
		bits = h * 0x10001u;
	} else {
		analysis_error(c, op->loc, "%s: %s registers are not compiled yet", op->path, dtype_name(op->dtype));
		return;
	}
	TVal *v = isel_tval_new(s, op->dtype, ix->ncopies * ix->epc, ix);
	int w = (int)ix->epc;
	/* an accumulator copy is one tuple (the MFMA's srcC/dst, 4 or 16
	 * dwords); a register only elementwise ops read is one VGPR, which
	 * its elements share */
	bool tuple = c->mode == IM_MMA && w > 1 && !only_elementwise_uses(c->k, op_result(op));
	RegFile file = tuple && s->acc_agpr ? RF_AGPR : RF_VGPR;
	MOpnd src = mo_imm(bits);
	if (file == RF_AGPR && bits != 0) {
		/* v_accvgpr_write takes a VGPR or an inline constant */
		src = isel_v1(s);
		MOpnd k = mo_imm(bits);
		mblock_add(s->b, I_V_MOV_B32, 1, &src, 1, &k);
	}
	if (!tuple) {
		/* one VGPR for every dword: a splat's elements may share it (as a
		 * gathered splat's do), and a loop that carries the value copies
		 * it first (isel.c tval_aliased) */
		MOpnd d = isel_v1(s);
		isel_mov(s, d, src);
		for (int i = 0; i < v->nd; i++)
			v->d[i] = d;
	}
	for (int64_t cn = 0; tuple && cn < ix->ncopies; cn++) {
		uint32_t r = mfunc_vreg(s->f, rc_make(file, w));
		for (int k = 0; k < w; k++) {
			MOpnd d = mo_vsub(r, k, rc_make(file, 1));
			isel_mov(s, d, src);
			v->d[cn * w + k] = d;
		}
	}
	v->splat = file == RF_VGPR;
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
 * reaches past the trip's window [base, base + tile) (TileLoop.base) into the next
 * trip's: those lanes' operands are zeroed (both, so no inf or NaN of the
 * next tile gets in), as the window has them not. `in` holds, for the run
 * of n elements each lane holds along K (element j in dword j * es / 4),
 * whether element j is in the window. */
enum { MAX_RUN = 16 };
typedef struct KWindow {
	Sym *in[MAX_RUN];
	int n;
	bool all_in, all_out;
} KWindow;

static KWindow k_window(Analysis *c, const TVal *v, const Sym *K, int64_t cn, const TileLoop *t, int n)
{
	SymCtx *sc = c->k->sc;
	KWindow w = {.n = n, .all_in = true, .all_out = true};
	int pos = -1;
	for (int i = 0; i < v->ix->ndims; i++)
		if (v->ix->d[i].dim == K)
			pos = i;
	Sym *end = sym_add(sc, t->base, sym_int(sc, t->tile));
	for (int j = 0; j < n; j++) {
		/* a tile that is a multiple of 4 keeps each lane's runs of 4 (their
		 * starts are multiples of 4) wholly in or out: element 4q decides */
		w.in[j] = j % 4 && t->tile % 4 == 0
				  ? w.in[j - j % 4]
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

/* A VGPR of 0, made once per mma (cndmask reading vcc takes no literal). */
static MOpnd zero_vgpr(Isel *s, MOpnd *zero)
{
	if (zero->kind != MO_VREG) {
		MOpnd d = isel_v1(s), u = mo_imm(0);
		mblock_add(s->b, I_V_MOV_B32, 1, &d, 1, &u);
		*zero = d;
	}
	return *zero;
}

/* Dword k of a copy (its elements from 4k / es on), the elements outside
 * the K window zeroed. The window's end is monotone along the run: a
 * 16-bit dword whose high half is in is whole; one whose low half only is
 * in keeps that half (v_and 0xffff); an 8-bit dword is wholly in or out
 * (the tile is a multiple of 4: isel_select_mma checks). */
static MOpnd masked_dword(Isel *s, Op *op, MOpnd x, int es, int k, const KWindow *w, MOpnd *zero)
{
	int per = 4 / es, e0 = k * per;
	if (!w || w->all_in)
		return x;
	MOpnd r = zero_vgpr(s, zero);
	if (per != 2 || w->in[e0] == w->in[e0 + 1])
		return select_in(s, op, w->in[e0], x, r);
	if (sym_kind(w->in[e0]) != SYM_FALSE) {
		MOpnd lo = isel_v1(s), u[2] = {mo_imm(0xffff), isel_expr_to_vgpr(s, x)};
		mblock_add(s->b, I_V_AND_B32, 1, &lo, 2, u);
		r = select_in(s, op, w->in[e0], lo, r);
	}
	return select_in(s, op, w->in[e0 + 1], x, r);
}

/* The od-dword A or B operand of one MFMA: dwords [od*half, od*half + od)
 * of copy (x along X, kk along K) of v, each copy dpc dwords, masked to
 * the K window w when there is one; with kstep 2 (K4), copies kk and kk +
 * 1 whole, one after the other; an instruction wider than the copy (an
 * i8 type run on the next-larger MFMA, pad) gets zero dwords after it. */
static MOpnd mfma_operand(Isel *s, Op *op, const TVal *v, const Sym *X, int64_t x, const Sym *K, int64_t kk,
	int kstep, int dpc, int od, int half, const KWindow *w, MOpnd *zero)
{
	MOpnd *d = ARENA_NEWN(&s->c->arena, MOpnd, od);
	int n = 0, es = dtype_size(v->dtype);
	for (int q = 0; q < kstep; q++) {
		int64_t cn = copy_num(v->ix, X, x, K, kk + q);
		for (int i = 0; i < (kstep > 1 ? dpc : od) && n < od; i++) {
			int k = (kstep > 1 ? 0 : od * half) + i;
			d[n++] = k < dpc ? masked_dword(s, op, v->d[cn * dpc + k], es, k, w, zero) : zero_vgpr(s, zero);
		}
	}
	TVal t = {.dtype = v->dtype, .n = v->n, .packed = v->packed, .nd = od, .d = d, .ix = v->ix};
	return isel_tuple_of(s, &t, 0, od);
}

/* The MFMA that runs MMA type mt on operands of dtype t (0: none). The
 * *_F16 names with bf16 operands are the bf16 MFMAs of the same shape
 * (Wave's convention; gfx90a spells them ..bf16_1k); the K8 types run
 * their native shape twice per K step. */
static MOp mfma_of(MmaType mt, DType t, bool gfx950)
{
	switch (mt) {
	case MMA_F32_16x16x16_F16:
		return t == DT_F16 ? I_V_MFMA_F32_16X16X16_F16 : t == DT_BF16 ? I_V_MFMA_F32_16X16X16_BF16 : 0;
	case MMA_F32_16x16x32_K8_F16: /* gfx950 has the 8-element layout in one instruction */
		if (gfx950)
			return t == DT_F16 ? I_V_MFMA_F32_16X16X32_F16 : t == DT_BF16 ? I_V_MFMA_F32_16X16X32_BF16 : 0;
		return t == DT_F16 ? I_V_MFMA_F32_16X16X16_F16 : t == DT_BF16 ? I_V_MFMA_F32_16X16X16_BF16 : 0;
	case MMA_F32_32x32x8_F16:
		return t == DT_F16 ? I_V_MFMA_F32_32X32X8_F16 : t == DT_BF16 ? I_V_MFMA_F32_32X32X8_BF16 : 0;
	case MMA_F32_32x32x16_K8_F16:
		if (gfx950)
			return t == DT_F16 ? I_V_MFMA_F32_32X32X16_F16 : t == DT_BF16 ? I_V_MFMA_F32_32X32X16_BF16 : 0;
		return t == DT_F16 ? I_V_MFMA_F32_32X32X8_F16 : t == DT_BF16 ? I_V_MFMA_F32_32X32X8_BF16 : 0;
	/* gfx950's own: one instruction of the 8-element layout the K8 types
	 * mimic with two; as for the names above, the operands' dtype picks
	 * f16 or bf16 (Wave emits the MFMA of its operand type; its
	 * test_cdna4_mfma runs each type with f16 and bf16 data) */
	case MMA_F32_16x16x32_F16:
	case MMA_F32_16x16x32_BF16:
		return t == DT_F16 ? I_V_MFMA_F32_16X16X32_F16 : t == DT_BF16 ? I_V_MFMA_F32_16X16X32_BF16 : 0;
	case MMA_F32_32x32x16_F16:
	case MMA_F32_32x32x16_BF16:
		return t == DT_F16 ? I_V_MFMA_F32_32X32X16_F16 : t == DT_BF16 ? I_V_MFMA_F32_32X32X16_BF16 : 0;
	case MMA_I32_16x16x16_I8: return t == DT_I8 ? I_V_MFMA_I32_16X16X16_I8 : 0; /* gfx90a only */
	case MMA_I32_32x32x8_I8: return t == DT_I8 ? I_V_MFMA_I32_32X32X8_I8 : 0;    /* gfx90a only */
	case MMA_I32_16x16x32_I8: return t == DT_I8 ? I_V_MFMA_I32_16X16X32_I8 : 0;
	case MMA_I32_32x32x16_I8: return t == DT_I8 ? I_V_MFMA_I32_32X32X16_I8 : 0;
	/* the fp8 MFMAs read FNUZ bytes on gfx942 and OCP ones on gfx950
	 * (mfma_for keeps each dtype to its target); e5m2 is bf8 */
	case MMA_F32_16x16x32_F8:
		if (t == DT_F16 || t == DT_BF16) /* the shape on 16-bit data: gfx950's */
			return t == DT_F16 ? I_V_MFMA_F32_16X16X32_F16 : I_V_MFMA_F32_16X16X32_BF16;
		/* fall through */
	case MMA_F32_16x16x32_K4_F8:
		return t == DT_F8E4M3FNUZ || t == DT_F8E4M3FN ? I_V_MFMA_F32_16X16X32_FP8_FP8
		       : t == DT_F8E5M2                       ? I_V_MFMA_F32_16X16X32_BF8_BF8
							      : 0;
	case MMA_F32_32x32x16_F8:
		if (t == DT_F16 || t == DT_BF16)
			return t == DT_F16 ? I_V_MFMA_F32_32X32X16_F16 : I_V_MFMA_F32_32X32X16_BF16;
		/* fall through */
	case MMA_F32_32x32x16_K4_F8:
		return t == DT_F8E4M3FNUZ || t == DT_F8E4M3FN ? I_V_MFMA_F32_32X32X16_FP8_FP8
		       : t == DT_F8E5M2                       ? I_V_MFMA_F32_32X32X16_BF8_BF8
							      : 0;
	default: return 0;
	}
}

/* The i8 types on the target that lacks their instruction: CDNA2
 * (gfx90a) has 16x16x16 and 32x32x8, CDNA3 (gfx942) 16x16x32 and 32x32x16,
 * with one output layout per shape. The wider type's run of 8 k per lane
 * goes to two of the narrower MFMAs, a dword each (halves); the narrower
 * type's run of 4 to the wider one with a zero dword after it (pad): the
 * MFMA sums over its whole K, and A and B agree on which k sits where, so
 * the sum has the same terms (zeros add nothing, exactly, in i32). */
static MOp mfma_on_target(MOp m, bool gfx90a)
{
	if (gfx90a && m == I_V_MFMA_I32_16X16X32_I8)
		return I_V_MFMA_I32_16X16X16_I8;
	if (gfx90a && m == I_V_MFMA_I32_32X32X16_I8)
		return I_V_MFMA_I32_32X32X8_I8;
	if (!gfx90a && m == I_V_MFMA_I32_16X16X16_I8)
		return I_V_MFMA_I32_16X16X32_I8;
	if (!gfx90a && m == I_V_MFMA_I32_32X32X8_I8)
		return I_V_MFMA_I32_32X32X16_I8;
	return m;
}

/* The MFMA isel_select_mma gives type mt on operands t for processor
 * proc, or 0 when proc has none for it (the rule it applies). */
static MOp mfma_for(MmaType mt, DType t, const char *proc)
{
	bool gfx950 = strcmp(proc, "gfx950") == 0, gfx90a = strcmp(proc, "gfx90a") == 0;
	MOp mfma = mt == MMA_NONE ? 0 : mfma_on_target(mfma_of(mt, t, gfx950), gfx90a);
	bool ocp = t == DT_F8E4M3FN || t == DT_F8E5M2;
	if (!mfma || (gfx950 && t == DT_F8E4M3FNUZ) || (!gfx950 && ocp) || !isa_mfma_passes(mfma, gfx90a) ||
		((isa_info[mfma].flags & IF_GFX950) && !gfx950))
		return 0;
	return mfma;
}

bool isel_mma_supported(MmaType mt, DType t, const char *proc)
{
	return mfma_for(mt, t, proc) != 0;
}

/* The fix for an MMA type this target does not run with operands t (the
 * diagnostics' hint): a type it does run of the same M, N and K (the K8
 * form of a gfx950 type), else of the same M and N, with the same
 * accumulator; and the targets that run this one. */
static void hint_mma(Analysis *c, MmaType mt, DType t, const char *proc)
{
	const MmaInfo *mi = &mma_info[mt];
	MmaType alt = MMA_NONE;
	for (int pass = 0; pass < 2 && alt == MMA_NONE; pass++)
		for (int i = 0; i < MMA_COUNT && alt == MMA_NONE; i++) {
			const MmaInfo *o = &mma_info[i];
			if (i != mt && o->m == mi->m && o->n == mi->n && (pass || o->k == mi->k) && o->acc == mi->acc &&
				isel_mma_supported((MmaType)i, t, proc))
				alt = (MmaType)i;
		}
	Buf where = {0};
	int nwhere = 0;
	for (size_t i = 0; target_at(i); i++) {
		const char *p = target_at(i)->name;
		if (strcmp(p, proc) != 0 && !strstr(buf_cstr(&where), p) && isel_mma_supported(mt, t, p)) {
			buf_printf(&where, "%s%s", where.len ? ", " : "", p);
			nwhere++;
		}
	}
	/* a type only some targets have says which (Wave's gfx950-only MMA types on gfx942) */
	const char *only = nwhere == 1 ? ", the only target with it" : "";
	if (alt != MMA_NONE && where.len)
		diag_hint(c->diag, "on %s use %s (%dx%dx%d), or compile for %s%s (--mcpu; Wave's options.target)", proc,
			mma_info[alt].name, mma_info[alt].m, mma_info[alt].n, mma_info[alt].k, buf_cstr(&where), only);
	else if (alt != MMA_NONE)
		diag_hint(c->diag, "on %s use %s (%dx%dx%d)", proc, mma_info[alt].name, mma_info[alt].m, mma_info[alt].n,
			mma_info[alt].k);
	else if (where.len)
		diag_hint(c->diag, "compile for %s%s (--mcpu; Wave's options.target), which runs %s with %s operands",
			buf_cstr(&where), only, mi->name, dtype_name(t));
	else
		diag_hint(c->diag, "%s with %s operands runs on no target wavecc compiles for", mi->name, dtype_name(t));
	buf_free(&where);
}

/* Is v a `register` of all-zero bits (+0.0, integer 0)? Then the MFMAs
 * start from srcC = 0, the inline constant (as clang-19 emits for a zero
 * accumulator; tests/validate xlane_mfma_zero), and the register op's
 * moves are left unread (removed before allocation: regalloc/coalesce.c). */
static bool zero_acc(const Value *v)
{
	return v->kind == VAL_RESULT && v->def->kind == OP_REGISTER && v->def->value == 0 && !signbit(v->def->value);
}

/* The accumulator of an MMA op (its argument ai) as the MFMAs write it:
 * a tuple per copy of the result's layout rx, fresh from a zero
 * accumulator (the first MFMA of a copy then reads srcC = 0), else the
 * accumulator's own registers, copied first where another op still reads
 * them; r names the tuples' dwords as the result. */
typedef struct AccTuples {
	int w;         /* dwords a copy */
	TVal *r;       /* the result */
	MOpnd *ct;     /* each copy's tuple */
	bool *started; /* copy cn has had its first MFMA (or holds an accumulator) */
} AccTuples;

static bool acc_tuples(Isel *s, Op *op, int ai, const TVal *acc, const NodeIndex *rx, AccTuples *at)
{
	Analysis *c = s->c;
	bool zacc = zero_acc(op->args[ai]);
	if (!zacc && !(acc = isel_tval_gather(s, acc, rx, op)))
		return false;
	int w = at->w = (int)rx->epc;
	RegFile file = s->acc_agpr ? RF_AGPR : RF_VGPR;
	RegClass rc = rc_make(file, w);
	TVal *r = at->r = isel_tval_new(s, acc->dtype, rx->ncopies * w, rx);
	MOpnd *ct = at->ct = ARENA_NEWN(&c->arena, MOpnd, rx->ncopies);
	at->started = ARENA_NEWN(&c->arena, bool, rx->ncopies);
	for (int64_t cn = 0; cn < rx->ncopies; cn++) {
		at->started[cn] = !zacc;
		if (zacc)
			ct[cn] = mo_vreg(mfunc_vreg(s->f, rc), rc);
		else
			ct[cn] = isel_tuple_of(s, acc, (int)(cn * w), w);
		if (!zacc && s->uses[op->args[ai]->id] > 1 && ct[cn].reg == acc->d[cn * w].reg) {
			uint32_t t = mfunc_vreg(s->f, rc);
			for (int k = 0; k < w; k++)
				isel_mov(s, mo_vsub(t, k, rc_make(file, 1)), acc->d[cn * w + k]);
			ct[cn] = mo_vreg(t, rc);
		}
		for (int k = 0; k < w; k++)
			r->d[cn * w + k] = mo_vsub(ct[cn].reg, ct[cn].sub + k, rc_make(rc_file(ct[cn].rc), 1));
	}
	return true;
}

/* The MMA op's result: at's tuples, zeroed where no MFMA wrote a copy
 * (its K lies wholly past the window). */
static void acc_done(Isel *s, Op *op, const AccTuples *at)
{
	for (int64_t cn = 0; cn < at->r->ix->ncopies; cn++)
		for (int k = 0; k < at->w && !at->started[cn]; k++)
			isel_mov(s, at->r->d[cn * at->w + k], mo_imm(0));
	s->val[op_result(op)->id] = at->r;
}

void isel_select_mma(Isel *s, Op *op)
{
	Analysis *c = s->c;
	const TVal *a = s->val[op->args[0]->id], *b = s->val[op->args[1]->id], *acc = s->val[op->args[2]->id];
	const NodeIndex *rx = c->index[op->id];
	if (!a || !b || !acc || !rx)
		return;
	/* a chained MMA's operand held in another layout: moved into the one
	 * this mma reads (analysis gives it) */
	NodeIndex *const *want = c->mma_operand ? &c->mma_operand[2 * op->id] : NULL;
	if (want && ((want[0] && !(a = isel_tval_gather(s, a, want[0], op))) ||
			    (want[1] && !(b = isel_tval_gather(s, b, want[1], op)))))
		return;
	MmaType mt = op_mma_type(c->k, op);
	const MmaInfo *mi = &mma_info[mt];
	bool gfx90a = isel_is_gfx90a(s);
	MOp mfma = mt == MMA_NONE ? 0 : mfma_on_target(mfma_of(mt, a->dtype, isel_is_gfx950(s)), gfx90a);
	/* each lane holds kper consecutive k of an operand copy: dpc dwords,
	 * which `halves` MFMAs of od dwords each take in turn (two for the
	 * K8 types: elements 0-3, then 4-7; A and B agree on the k order, so
	 * the sum has the same terms) */
	bool k4 = mt == MMA_F32_16x16x32_K4_F8 || mt == MMA_F32_32x32x16_K4_F8;
	int64_t kper = mt == MMA_NONE ? 0 : k4 ? 4 : mi->k * mi->m / 64;
	int es = dtype_size(a->dtype), od = mfma ? isa_info[mfma].src[0] : 1;
	/* K4 (indices.c k4_type): one MFMA takes two K copies, a run of 4
	 * from each */
	int kstep = k4 ? 2 : 1;
	int dpc = (int)(kper * es / 4), halves = dpc * kstep / od;
	bool pad = kstep == 1 && od == 2 * dpc; /* an i8 type on the next-larger MFMA */
	if (pad)
		halves = 1;
	if (!mfma || b->dtype != a->dtype || acc->dtype != mi->acc || !a->packed || !b->packed || a->ix->epc != kper ||
		b->ix->epc != kper || halves < 1 || ((dpc * kstep) % od && !pad) || kper > MAX_RUN) {
		if (!mfma && mt != MMA_NONE)
			hint_mma(c, mt, a->dtype, s->f->target->name);
		analysis_error(c, op->loc, "%s: this mma (%s, %s x %s -> %s) is not compiled yet", op->path,
			mt == MMA_NONE ? "?" : mi->name, dtype_name(a->dtype), dtype_name(b->dtype), dtype_name(acc->dtype));
		return;
	}
	if (isel_is_gfx950(s) && a->dtype == DT_F8E4M3FNUZ) {
		hint_mma(c, mt, a->dtype, s->f->target->name);
		analysis_error(c, op->loc, "%s: MMA type %s with f8e4m3fnuz operands is not compiled for gfx950, whose fp8 "
					  "MFMAs read the OCP encoding (f8e4m3fn)",
			op->path, mi->name);
		return;
	}
	if (!isel_is_gfx950(s) && (a->dtype == DT_F8E4M3FN || a->dtype == DT_F8E5M2)) {
		hint_mma(c, mt, a->dtype, s->f->target->name);
		analysis_error(c, op->loc, "%s: MMA type %s with %s operands needs gfx950's OCP fp8 MFMAs, which %s does not "
					  "have (its fp8 MFMAs read f8e4m3fnuz)",
			op->path, mi->name, dtype_name(a->dtype), s->f->target->name);
		return;
	}
	if (!isa_mfma_passes(mfma, gfx90a) || ((isa_info[mfma].flags & IF_GFX950) && !isel_is_gfx950(s))) {
		hint_mma(c, mt, a->dtype, s->f->target->name);
		analysis_error(c, op->loc, "%s: MMA type %s with %s operands needs %s, which %s does not have", op->path,
			mi->name, dtype_name(a->dtype), isa_info[mfma].name, s->f->target->name);
		return;
	}
	int ra = op->args[0]->shape.rank, rb = op->args[1]->shape.rank;
	Sym *M = op->args[0]->shape.dims[ra - 2], *K = op->args[0]->shape.dims[ra - 1], *N = op->args[1]->shape.dims[rb - 2];
	int64_t mc = copies_of(rx, M), nc = copies_of(rx, N), kc = copies_of(a->ix, K);
	if (kc != copies_of(b->ix, K) || mc != copies_of(a->ix, M) || nc != copies_of(b->ix, N)) {
		analysis_error(c, op->loc, "%s: the operands' expansion copies do not match", op->path);
		return;
	}
	AccTuples at;
	if (!acc_tuples(s, op, 2, acc, rx, &at))
		return;
	MOpnd *ct = at.ct;
	bool *started = at.started;
	const TileLoop *t = loop_over(c, op, K);
	bool window = t && (analysis_many(t->trips) || t->iters) && t->tile % mi->k;
	if (kc % kstep) {
		analysis_error(c, op->loc, "%s: %s takes K in pairs of copies of %lld; %lld copies is not compiled yet",
			op->path, mi->name, (long long)kper, (long long)kc);
		return;
	}
	/* the K window (a tile that is not whole MMA steps) zeroes the
	 * lanes' elements past it: whole dwords of 8-bit elements, so a tile
	 * of whole dwords; the K4 runs straddle two copies */
	if (window && (k4 || (es == 1 && t->tile % 4) || es == 4)) {
		analysis_error(c, op->loc, "%s: a K tile of %lld is not a multiple of %s's K %d: not compiled yet for "
					  "this type%s",
			op->path, (long long)t->tile, mi->name, mi->k,
			es == 1 && !k4 ? " (8-bit operands need a tile of whole dwords, a multiple of 4)" : "");
		return;
	}
	/* gfx950's doubled-K MFMAs: i8 16x16x64 / 32x32x32 take two K copies
	 * of the 16x16x32 / 32x32x16 layout at once, the f8f6f4 16x16x128 /
	 * 32x32x64 four of the OCP fp8 ones (unscaled; cbsz = blgp = the
	 * format). A and B agree on which k sits in which lane and element, so
	 * the sum has the same terms, in half or a quarter of the passes.
	 * Whole groups of copies, no K window. */
	unsigned wfmt = 0;
	if (isel_is_gfx950(s) && !k4 && !window && kstep == 1 && halves == 1 && !pad) {
		MOp wide = 0;
		int wk = 1;
		if (mfma == I_V_MFMA_I32_16X16X32_I8 || mfma == I_V_MFMA_I32_32X32X16_I8)
			wide = mfma == I_V_MFMA_I32_16X16X32_I8 ? I_V_MFMA_I32_16X16X64_I8 : I_V_MFMA_I32_32X32X32_I8, wk = 2;
		else if (a->dtype == DT_F8E4M3FN || a->dtype == DT_F8E5M2) {
			bool s16 = mfma == I_V_MFMA_F32_16X16X32_FP8_FP8 || mfma == I_V_MFMA_F32_16X16X32_BF8_BF8;
			wide = s16 ? I_V_MFMA_F32_16X16X128_F8F6F4 : I_V_MFMA_F32_32X32X64_F8F6F4, wk = 4;
			wfmt = a->dtype == DT_F8E5M2 ? 1 : 0;
		}
		if (wide && kc % wk == 0 && dpc * wk == isa_info[wide].src[0]) {
			mfma = wide;
			kstep = wk;
			od = dpc * wk;
		} else
			wfmt = 0;
	}
	MOpnd zero = {0};
	for (int64_t kk = 0; kk < kc; kk += kstep) {
		KWindow wa, wb;
		if (window) {
			wa = k_window(c, a, K, copy_num(a->ix, M, 0, K, kk), t, (int)kper);
			wb = k_window(c, b, K, copy_num(b->ix, N, 0, K, kk), t, (int)kper);
			if (wa.all_out || wb.all_out)
				continue; /* the whole copy lies past the window: adds nothing */
		}
		MOpnd *A = ARENA_NEWN(&c->arena, MOpnd, mc), *B = ARENA_NEWN(&c->arena, MOpnd, nc);
		for (int half = 0; half < halves; half++) {
			for (int64_t m = 0; m < mc; m++)
				A[m] = mfma_operand(s, op, a, M, m, K, kk, kstep, dpc, od, half, window ? &wa : NULL, &zero);
			for (int64_t n = 0; n < nc; n++)
				B[n] = mfma_operand(s, op, b, N, n, K, kk, kstep, dpc, od, half, window ? &wb : NULL, &zero);
			for (int64_t m = 0; m < mc; m++)
				for (int64_t n = 0; n < nc; n++) {
					int64_t cr = copy_num(rx, M, m, N, n);
					MOpnd u[3] = {A[m], B[n], started[cr] ? ct[cr] : mo_imm(0)};
					MInst *in = mblock_add(s->b, mfma, 1, &ct[cr], 3, u);
					if (isa_info[mfma].flags & IF_F8F6F4)
						in->mods = MI_MODS_MFMA(wfmt, wfmt, 0, 0);
					started[cr] = true;
				}
		}
	}
	acc_done(s, op, &at);
}

/* ---- scaled_mma: gfx950's v_mfma_scale_f32_{16x16x128,32x32x64}_f8f6f4 ----
 *
 * The operands come in the layouts index analysis gives a scaled MMA
 * (passes/graph/indices.c): lhs and rhs f4e2m1fn with 32 consecutive k a
 * lane (four dwords, eight elements each), or 8-bit OCP floats in two
 * copies of 16 k, K/2 apart (the instruction's layout for 8-bit formats:
 * one MFMA takes the two copies, eight dwords, as the K4 types take two);
 * each scale one e8m0 byte a lane (row or column lane % M, block
 * floor(lane / M) of the MMA's K/32), in the low byte of its own dword
 * (op_sel 0) or, read four to a dword (memory.c's scale dwords), in the
 * byte TVal.sel gives, which the MFMA's op_sel/op_sel_hi pick. One MFMA per (K step, M copy, N copy), A's format in cbsz
 * and B's in blgp, each reading the scales of its M and N copy and of its
 * block copy (the block dim steps by the MMA's K/32, one copy per K step;
 * a scale broadcast along K has one). The accumulator as isel_select_mma
 * keeps it. What gfx950 cannot run (f6 operands, which have no packed
 * form here) or the layouts do not give is a located error. */

/* The f8f6f4 format code (cbsz/blgp) of an OCP element type, -1 for none. */
static int f8f6f4_code(DType t)
{
	switch (t) {
	case DT_F8E4M3FN: return 0;
	case DT_F8E5M2: return 1;
	case DT_F6E2M3FN: return 2;
	case DT_F6E3M2FN: return 3;
	case DT_F4E2M1FN: return 4;
	default: return -1;
	}
}

/* The scale dword of copy (x along X, block copy kb) of scale value sc:
 * its element's own VGPR (a splat's inline value moved into one), the
 * byte the element is in in *byte (memory.c's scale dwords: TVal.sel). */
static MOpnd scale_dword(Isel *s, const TVal *sc, const Sym *X, int64_t x, const Sym *B, int64_t kb, unsigned *byte)
{
	int64_t cn = copy_num(sc->ix, X, x, B, kb);
	*byte = sc->sel ? sc->sel[cn * sc->ix->epc] : 0;
	MOpnd d = sc->d[isel_elem_dword(sc, cn * sc->ix->epc)];
	if (d.kind != MO_VREG) {
		MOpnd v = isel_v1(s);
		isel_mov(s, v, d);
		return v;
	}
	return isel_vgpr(s, d);
}

/* The block dim of a scale: its dim that is not its operand's (NULL: the
 * scale is broadcast along K). */
static Sym *scale_block(const Value *sc, const Value *x)
{
	for (int i = 0; i < sc->shape.rank; i++)
		if (shape_find(x->shape, sc->shape.dims[i]) < 0)
			return sc->shape.dims[i];
	return NULL;
}

void isel_select_scaled_mma(Isel *s, Op *op)
{
	Analysis *c = s->c;
	Value *va = op->args[0], *vsa = op->args[1], *vb = op->args[2], *vsb = op->args[3];
	const TVal *a = s->val[va->id], *sa = s->val[vsa->id], *b = s->val[vb->id], *sb = s->val[vsb->id];
	const TVal *acc = s->val[op->args[4]->id];
	const NodeIndex *rx = c->index[op->id];
	MmaType mt = op_mma_type(c->k, op);
	const MmaInfo *mi = &mma_info[mt];
	if (!isel_is_gfx950(s) || !mma_is_scaled(mt)) {
		analysis_error(c, op->loc, "%s: scaled_mma (%s) needs gfx950's v_mfma_scale_f32_*_f8f6f4, which %s does not "
					  "have",
			op->path, mt == MMA_NONE ? "?" : mi->name, s->f->target->name);
		return;
	}
	if (!a || !sa || !b || !sb || !acc || !rx)
		return;
	int fa = f8f6f4_code(a->dtype), fb = f8f6f4_code(b->dtype);
	if (fa < 0 || fb < 0 || fa == 2 || fa == 3 || fb == 2 || fb == 3) {
		analysis_error(c, op->loc, "%s: scaled_mma of %s x %s is not compiled yet (f4e2m1fn and the OCP f8 types are; "
					  "f6 values have no packed form here)",
			op->path, dtype_name(a->dtype), dtype_name(b->dtype));
		return;
	}
	bool split = fa <= 1; /* 8-bit: K in two halves (indices.c, MmaLay.split) */
	int kstep = split ? 2 : 1;
	int64_t kper = split ? 16 : 32;
	int dpc = (int)(kper * dtype_bits(a->dtype) / 32), od = isa_f8f6f4_dwords((unsigned)fa);
	MOp mfma = mi->m == 16 ? I_V_MFMA_SCALE_F32_16X16X128_F8F6F4 : I_V_MFMA_SCALE_F32_32X32X64_F8F6F4;
	bool layouts = !(c->mma_operand && (c->mma_operand[2 * op->id] || c->mma_operand[2 * op->id + 1]));
	if (!layouts || !a->packed || !b->packed || a->ix->epc != kper || b->ix->epc != kper || dpc * kstep != od ||
		sa->ix->epc != 1 || sb->ix->epc != 1 || acc->dtype != mi->acc) {
		analysis_error(c, op->loc, "%s: this scaled_mma (%s, %s x %s) is not compiled yet: its operands or scales are "
					  "not held in the MFMA's layout (%lld k a lane%s, one scale a lane)",
			op->path, mi->name, dtype_name(a->dtype), dtype_name(b->dtype), (long long)kper,
			split ? " in two runs" : "");
		return;
	}
	int ra = va->shape.rank, rb = vb->shape.rank;
	Sym *M = va->shape.dims[ra - 2], *K = va->shape.dims[ra - 1], *N = vb->shape.dims[rb - 2];
	Sym *BA = scale_block(vsa, va), *BB = scale_block(vsb, vb);
	int64_t mc = copies_of(rx, M), nc = copies_of(rx, N), kc = copies_of(a->ix, K);
	if (kc != copies_of(b->ix, K) || mc != copies_of(a->ix, M) || nc != copies_of(b->ix, N) || kc % kstep ||
		(BA && copies_of(sa->ix, BA) != kc / kstep) || (BB && copies_of(sb->ix, BB) != kc / kstep)) {
		analysis_error(c, op->loc, "%s: the operands' and scales' expansion copies do not match", op->path);
		return;
	}
	const TileLoop *t = loop_over(c, op, K);
	if (t && (analysis_many(t->trips) || t->iters) && t->tile % mi->k) {
		analysis_error(c, op->loc, "%s: a K tile of %lld is not a multiple of %s's K %d: not compiled yet", op->path,
			(long long)t->tile, mi->name, mi->k);
		return;
	}
	/* the accumulator: as isel_select_mma keeps it */
	AccTuples at;
	if (!acc_tuples(s, op, 4, acc, rx, &at))
		return;
	MOpnd *ct = at.ct;
	bool *started = at.started;
	MOpnd zero = {0};
	for (int64_t kk = 0; kk < kc; kk += kstep) {
		int64_t kb = kk / kstep;
		MOpnd *A = ARENA_NEWN(&c->arena, MOpnd, mc), *B = ARENA_NEWN(&c->arena, MOpnd, nc);
		MOpnd *SA = ARENA_NEWN(&c->arena, MOpnd, mc), *SB = ARENA_NEWN(&c->arena, MOpnd, nc);
		unsigned *BYA = ARENA_NEWN(&c->arena, unsigned, mc), *BYB = ARENA_NEWN(&c->arena, unsigned, nc);
		for (int64_t m = 0; m < mc; m++) {
			A[m] = mfma_operand(s, op, a, M, m, K, kk, kstep, dpc, od, 0, NULL, &zero);
			SA[m] = scale_dword(s, sa, M, m, BA, kb, &BYA[m]);
		}
		for (int64_t n = 0; n < nc; n++) {
			B[n] = mfma_operand(s, op, b, N, n, K, kk, kstep, dpc, od, 0, NULL, &zero);
			SB[n] = scale_dword(s, sb, N, n, BB, kb, &BYB[n]);
		}
		for (int64_t m = 0; m < mc; m++)
			for (int64_t n = 0; n < nc; n++) {
				int64_t cr = copy_num(rx, M, m, N, n);
				MOpnd u[5] = {A[m], B[n], started[cr] ? ct[cr] : mo_imm(0), SA[m], SB[n]};
				MInst *in = mblock_add(s->b, mfma, 1, &ct[cr], 5, u);
				in->mods = MI_MODS_MFMA(fa, fb, BYA[m], BYB[n]);
				started[cr] = true;
			}
	}
	acc_done(s, op, &at);
}
