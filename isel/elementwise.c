/* elementwise.c — per-thread arithmetic, conversions and broadcasts on
 * TVals.
 *
 * Operands of an elementwise op hold the same elements in the same order
 * when their indices are the same node index or equal dim by dim; when
 * they differ (a broadcast's result against its source, an operand with
 * fewer dims), isel_tval_gather matches elements by their coordinates: result
 * element e takes the source element whose coordinate along every source
 * dim simplifies to the same expression. Broadcasting costs no
 * instructions: the same dword serves several elements.
 * f16 values packed two per dword use packed VOP3P instructions; f32 one
 * VOP2 per dword. exp(x) is v_exp_f32(x * log2(e)) (v_exp_f32 is 2^x);
 * x / y is x * v_rcp_f32(y), about 1 ulp from IEEE division (the default
 * f32 tolerance of `wavecc run` is 1e-5 relative). Conversions f32 -> f16
 * round to nearest even (v_cvt_f16_f32) and pack pairs with
 * v_pack_b32_f16; f16 -> f32 takes the high half through a shift.
 * Requires: operand values selected before (graph order). */
#include <string.h>

#include "elt.h"

static bool same_index(const NodeIndex *a, const NodeIndex *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->ndims != b->ndims || a->ncopies != b->ncopies || a->epc != b->epc)
		return false;
	for (int i = 0; i < a->ndims; i++)
		if (a->d[i].dim != b->d[i].dim || a->d[i].coord != b->d[i].coord || a->d[i].size != b->d[i].size ||
			a->d[i].copies != b->d[i].copies || a->d[i].step != b->d[i].step)
			return false;
	return true;
}

/* The source element of v that element j of copy cn of ix is, matched by
 * coordinates along v's dims; -1 if v has none in this thread. */
static int64_t gather_source(Isel *s, const TVal *v, const NodeIndex *ix, int64_t cn, int64_t j)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	const NodeIndex *vx = v->ix;
	for (int64_t e = 0; e < v->n; e++) {
		bool eq = true;
		for (int k = 0; k < vx->ndims && eq; k++) {
			int p = -1;
			for (int q = 0; q < ix->ndims; q++)
				if (ix->d[q].dim == vx->d[k].dim)
					p = q;
			if (p < 0) {
				eq = vx->d[k].size == 1 && vx->d[k].copies == 1;
				continue;
			}
			Sym *a = index_coord(c, vx, k, e / vx->epc, e % vx->epc);
			Sym *b = index_coord(c, ix, p, cn, j);
			eq = sym_simplify(sc, sym_sub(sc, a, b), c->assume) == sym_int(sc, 0);
		}
		if (eq)
			return e;
	}
	return -1;
}

/* The dword of v holding element e, and whether in its high half. */
static MOpnd elem_at(const TVal *v, int64_t e, bool *hi)
{
	bool packed = dtype_size(v->dtype) == 2 && v->packed;
	*hi = packed && e % 2;
	return v->d[packed ? e / 2 : e];
}

/* A dword whose low half is lo's half (lo_hi: the high one) and whose high
 * half is hi's: the dword itself when it already is, else v_perm_b32
 * (bytes 0-3 select from the second source, 4-7 from the first). */
MOpnd elt_pack_halves(Isel *s, MOpnd lo, bool lo_hi, MOpnd hi, bool hi_hi)
{
	if (!lo_hi && hi_hi && memcmp(&lo, &hi, sizeof lo) == 0)
		return lo;
	uint32_t sel = (lo_hi ? 0x0302u : 0x0100u) | (hi_hi ? 0x0706u : 0x0504u) << 16;
	MOpnd k = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), kv = mo_imm(sel);
	mblock_add(s->b, I_S_MOV_B32, 1, &k, 1, &kv); /* VOP3 takes no literal on gfx9 */
	MOpnd d = isel_v1(s), u[3] = {hi, lo, k};
	mblock_add(s->b, I_V_PERM_B32, 1, &d, 3, u);
	return d;
}

TVal *elt_new(Isel *s, DType t, int64_t n, const NodeIndex *ix)
{
	TVal *v = isel_tval_new(s, t, n, ix);
	if (t == DT_I1 && v->packed) {
		v->packed = false;
		v->nd = (int)n;
		v->d = ARENA_NEWN(&s->c->arena, MOpnd, n ? n : 1);
	}
	return v;
}

const TVal *elt_words(Isel *s, const TVal *v)
{
	if (!v || v->dtype != DT_I1 || !v->packed)
		return v;
	TVal *r = elt_new(s, DT_I1, v->n, v->ix);
	for (int64_t e = 0; e < v->n; e++)
		r->d[e] = elt_op3(s, I_V_BFE_U32, isel_vgpr(s, v->d[e / 4]), mo_imm(8 * (e % 4)), mo_imm(8));
	return r;
}

const TVal *elt_operand(Isel *s, Op *op, int k)
{
	const NodeIndex *ix = s->c->index[op->id];
	const TVal *v = op->args[k] ? elt_words(s, s->val[op->args[k]->id]) : NULL;
	if (!v || !ix)
		return NULL;
	return isel_tval_gather(s, v, ix, op);
}

/* One dword of 8-bit elements: byte j is source element src[j] of v (cnt
 * of them, the other bytes 0), by v_perm_b32 from the one or two source
 * dwords that hold them; bytes from more dwords join two such words with
 * v_or_b32 (each has zeros where the other has bytes). A broadcast mask
 * (Wave's custom attention mask, [B, M] spread along K2) takes one. */
static MOpnd gather_bytes(Isel *s, const TVal *v, const int64_t *src, int cnt)
{
	int per = v->packed ? 4 : 1;
	MOpnd dw[4];
	int nd = 0, which[4], byte[4];
	for (int j = 0; j < cnt; j++) {
		MOpnd d = v->d[src[j] / per];
		int k = 0;
		while (k < nd && memcmp(&dw[k], &d, sizeof d))
			k++;
		if (k == nd)
			dw[nd++] = d;
		which[j] = k;
		byte[j] = (int)(src[j] % per);
	}
	MOpnd out = mo_imm(0);
	for (int pair = 0; pair < nd; pair += 2) {
		/* bytes 0-3 of the selector pick from the second source (dw[pair]),
		 * 4-7 from the first (dw[pair + 1]); 0x0c gives a zero byte */
		uint32_t sel = 0;
		for (int j = 0; j < 4; j++) {
			uint32_t b = 0x0c;
			if (j < cnt && which[j] == pair)
				b = (uint32_t)byte[j];
			else if (j < cnt && which[j] == pair + 1)
				b = 4 + (uint32_t)byte[j];
			sel |= b << (8 * j);
		}
		MOpnd k = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), kv = mo_imm(sel);
		mblock_add(s->b, I_S_MOV_B32, 1, &k, 1, &kv); /* VOP3 takes no literal on gfx9 */
		MOpnd d = isel_v1(s), u[3] = {pair + 1 < nd ? dw[pair + 1] : dw[pair], dw[pair], k};
		for (int a = 0; a < 2; a++)
			u[a] = isel_vgpr(s, u[a]);
		mblock_add(s->b, I_V_PERM_B32, 1, &d, 3, u);
		out = pair ? elt_op2(s, I_V_OR_B32, out, d) : d;
	}
	return out;
}

TVal *isel_tval_gather(Isel *s, const TVal *v, const NodeIndex *ix, Op *op)
{
	Analysis *c = s->c;
	if (same_index(v->ix, ix))
		return (TVal *)v;
	const NodeIndex *vx = v->ix;
	if (vx && vx->ndims == 0 && v->nd == 1) {
		/* a scalar: every element is its one dword (a 16-bit scalar holds
		 * its value in both halves, so packed or not it serves) */
		TVal *r = elt_new(s, v->dtype, ix->ncopies * ix->epc, ix);
		for (int i = 0; i < r->nd; i++)
			r->d[i] = v->d[0];
		return r;
	}
	if (v->splat && dtype_size(v->dtype) >= 2) {
		/* a splat register made outside a loop is consumed inside with
		 * the loop's index: any of its dwords holds every element (a
		 * 16-bit splat holds the value in both halves) */
		TVal *r = elt_new(s, v->dtype, ix->ncopies * ix->epc, ix);
		for (int i = 0; i < r->nd; i++)
			r->d[i] = v->d[0];
		r->splat = true;
		return r;
	}
	bool bytes = dtype_size(v->dtype) == 1 && (v->packed || v->dtype != DT_I1);
	if (!vx) {
		analysis_error(c, op->loc, "%s: a value without a per-thread layout cannot be rearranged", op->path);
		return NULL;
	}
	int64_t n = ix->ncopies * ix->epc;
	int64_t *src = ARENA_NEWN(&c->arena, int64_t, n);
	for (int64_t cn = 0; cn < ix->ncopies; cn++)
		for (int64_t j = 0; j < ix->epc; j++) {
			src[cn * ix->epc + j] = gather_source(s, v, ix, cn, j);
			if (src[cn * ix->epc + j] < 0)
				return isel_relayout(s, v, ix, op); /* held by other lanes */
		}
	TVal *r = elt_new(s, v->dtype, n, ix);
	if (bytes) {
		/* 8-bit values four per dword: whole dwords taken in order (a
		 * chained f8 MMA's operand in its accumulator's lanes) are the
		 * source's dwords; anything else would need byte moves */
		for (int i = 0; i < r->nd; i++) {
			int64_t e0 = r->packed ? 4 * (int64_t)i : i;
			bool whole = r->packed && v->packed && src[e0] % 4 == 0;
			for (int64_t j = 1; whole && j < 4 && e0 + j < n; j++)
				whole = src[e0 + j] == src[e0] + j;
			if (!whole) {
				r->d[i] = gather_bytes(s, v, src + e0, r->packed ? (int)(n - e0 < 4 ? n - e0 : 4) : 1);
				continue;
			}
			r->d[i] = v->d[src[e0] / 4];
		}
		return r;
	}
	if (dtype_size(v->dtype) != 2) {
		for (int64_t e = 0; e < n; e++)
			r->d[e] = v->d[src[e]];
		return r;
	}
	/* 16-bit: each result dword from the halves its elements live in; a
	 * broadcast asks for the same pair again and again, made once */
	typedef struct Pair {
		MOpnd a, b, d;
		bool h0, h1;
	} Pair;
	Pair *made = ARENA_NEWN(&c->arena, Pair, r->nd ? r->nd : 1);
	int nmade = 0;
	for (int i = 0; i < r->nd; i++) {
		bool h0, h1;
		int64_t e0 = r->packed ? 2 * i : i;
		MOpnd a = elem_at(v, src[e0], &h0);
		if (!r->packed || e0 + 1 >= n) {
			if (!h0) {
				r->d[i] = a;
				continue;
			}
			MOpnd t = isel_v1(s), u[2] = {mo_imm(16), a};
			mblock_add(s->b, I_V_LSHRREV_B32, 1, &t, 2, u);
			r->d[i] = t;
			continue;
		}
		MOpnd b = elem_at(v, src[e0 + 1], &h1);
		int m = 0;
		while (m < nmade && !(made[m].h0 == h0 && made[m].h1 == h1 && !memcmp(&made[m].a, &a, sizeof a) &&
					!memcmp(&made[m].b, &b, sizeof b)))
			m++;
		if (m == nmade)
			made[nmade++] = (Pair){a, b, elt_pack_halves(s, a, h0, b, h1), h0, h1};
		r->d[i] = made[m].d;
	}
	return r;
}


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

static MOpnd f32_to_bf16_hi(Isel *s, MOpnd x, MOpnd *k7fff);

/* maximum and minimum give NaN when either operand is NaN (the
 * interpreter's rule); v_max/v_min return the other operand then, so a
 * NaN pair (v_cmp_u: unordered) selects a quiet NaN, made once per op in
 * *qnan. r is the f32 result of x and y. */
static MOpnd nan_f32(Isel *s, MOpnd r, MOpnd x, MOpnd y, MOpnd *qnan)
{
	if (!qnan->kind)
		*qnan = elt_vconst(s, 0x7fc00000u);
	elt_cmp(s, I_V_CMP_U_F32, x, y);
	return elt_cnd(s, r, *qnan);
}

/* The same for two f16 halves (v_cmp_u_f16 reads the low ones; the high
 * ones are shifted down), joined with v_perm_b32; one half when !both. */
static MOpnd nan_f16x2(Isel *s, MOpnd r, MOpnd x, MOpnd y, bool both, MOpnd *qnan)
{
	if (!qnan->kind)
		*qnan = elt_vconst(s, 0x7e007e00u);
	elt_cmp(s, I_V_CMP_U_F16, x, y);
	MOpnd lo = elt_cnd(s, r, *qnan);
	if (!both)
		return lo;
	MOpnd xh = elt_op2(s, I_V_LSHRREV_B32, mo_imm(16), x), yh = elt_op2(s, I_V_LSHRREV_B32, mo_imm(16), y);
	elt_cmp(s, I_V_CMP_U_F16, xh, yh);
	MOpnd hi = elt_cnd(s, r, *qnan);
	return elt_pack_halves(s, lo, false, hi, true);
}

static bool is_max_min(MOp m) { return m == I_V_MAX_F32 || m == I_V_MIN_F32 || m == I_V_PK_MAX_F16 || m == I_V_PK_MIN_F16; }

/* Element e of a bf16 value as f32 (the bf16 bits on top). */
static MOpnd bf16_elem_f32(Isel *s, const TVal *v, int64_t e)
{
	MOpnd d = isel_v1(s), src = v->d[v->packed ? e / 2 : e];
	if (v->packed && e % 2) {
		MOpnd u[2] = {mo_imm((int64_t)0xffff0000), src};
		mblock_add(s->b, I_V_AND_B32, 1, &d, 2, u);
	} else {
		MOpnd u[2] = {mo_imm(16), src};
		mblock_add(s->b, I_V_LSHLREV_B32, 1, &d, 2, u);
	}
	return d;
}

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
			MOpnd x = bf16_elem_f32(s, a, e0 + q), y = bf16_elem_f32(s, b, e0 + q);
			if (div) {
				MOpnd t = isel_v1(s);
				mblock_add(s->b, I_V_RCP_F32, 1, &t, 1, &y);
				y = t;
			}
			MOpnd d = isel_v1(s), u[2] = {x, y};
			mblock_add(s->b, f32, 1, &d, 2, u);
			if (is_max_min(f32))
				d = nan_f32(s, d, x, y, &qnan);
			h[q] = f32_to_bf16_hi(s, d, &k);
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

static bool select_binary(Isel *s, Op *op)
{
	Analysis *c = s->c;
	const NodeIndex *ix = c->index[op->id];
	const TVal *a = elt_words(s, s->val[op->args[0]->id]), *b = elt_words(s, s->val[op->args[1]->id]);
	if (!a || !b || !ix || a->dtype != b->dtype)
		return false;
	if (!(a = isel_tval_gather(s, a, ix, op)) || !(b = isel_tval_gather(s, b, ix, op)))
		return true; /* reported */
	if (elt_is_word_int(a->dtype))
		return isel_select_int_binary(s, op, a, b, ix);
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
		TVal *fa = elt_cast(s, a, DT_F32), *fb = elt_cast(s, b, DT_F32);
		TVal *q = isel_tval_new(s, DT_F32, a->n, ix);
		for (int i = 0; i < q->nd; i++) {
			MOpnd rc = isel_v1(s), d = isel_v1(s), u[2];
			mblock_add(s->b, I_V_RCP_F32, 1, &rc, 1, &fb->d[i]);
			u[0] = fa->d[i];
			u[1] = rc;
			mblock_add(s->b, I_V_MUL_F32, 1, &d, 2, u);
			q->d[i] = d;
		}
		s->val[op_result(op)->id] = elt_cast(s, q, DT_F16);
		return true;
	}
	MOp mop = a->dtype == DT_F16 ? f16 : a->dtype == DT_F32 ? f32 : 0;
	if (!mop)
		return false;
	TVal *r = isel_tval_new(s, a->dtype, a->n, ix);
	const TVal *in_place = reusable_agprs(s, op, a, 0) ? a : reusable_agprs(s, op, b, 1) ? b : NULL;
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

/* v_cndmask's src1 must be a VGPR */
MOpnd elt_vconst(Isel *s, uint32_t k)
{
	MOpnd d = isel_v1(s), u = mo_imm(k);
	mblock_add(s->b, I_V_MOV_B32, 1, &d, 1, &u);
	return d;
}

MOpnd elt_cnd(Isel *s, MOpnd no, MOpnd yes)
{
	MOpnd d = isel_v1(s), u[3] = {no, yes, mo_special(MO_VCC)};
	mblock_add(s->b, I_V_CNDMASK_B32, 1, &d, 3, u)->flags |= MIF_E32;
	return d;
}

/* d = vcc ? yes : no, no an inline constant. */
static MOpnd cnd(Isel *s, uint32_t no, uint32_t yes) { return elt_cnd(s, mo_imm(no), elt_vconst(s, yes)); }

MOpnd elt_op1(Isel *s, MOp op, MOpnd x)
{
	MOpnd d = isel_v1(s);
	mblock_add(s->b, op, 1, &d, 1, &x);
	return d;
}

MOpnd elt_op2(Isel *s, MOp op, MOpnd x, MOpnd y)
{
	MOpnd d = isel_v1(s), u[2] = {x, y};
	mblock_add(s->b, op, 1, &d, 2, u);
	return d;
}

MOpnd elt_op3(Isel *s, MOp op, MOpnd x, MOpnd y, MOpnd z)
{
	MOpnd d = isel_v1(s), u[3] = {x, y, z};
	mblock_add(s->b, op, 1, &d, 3, u);
	return d;
}

void elt_cmp(Isel *s, MOp op, MOpnd x, MOpnd y)
{
	MOpnd d = mo_special(MO_VCC), u[2] = {x, y};
	mblock_add(s->b, op, 1, &d, 2, u)->flags |= MIF_E32;
}

/* vcc = k > x (f32 bits k) */
static void vcc_gt(Isel *s, uint32_t k, MOpnd x)
{
	MOpnd d = mo_special(MO_VCC), u[2] = {mo_imm(k), x};
	mblock_add(s->b, I_V_CMP_GT_F32, 1, &d, 2, u)->flags |= MIF_E32;
}

/* r = 2^x. v_exp_f32 flushes denormal results to 0, so below -126 (the
 * smallest normal exponent) compute 2^(x + 64) * 2^-64, as LLVM does:
 * the multiply produces the denormal, which the FP mode keeps. */
void elt_exp2_f32(Isel *s, MOpnd r, MOpnd x)
{
	vcc_gt(s, 0xc2fc0000u /* -126.0 */, x);
	MOpnd add = cnd(s, 0, 0x42800000u /* 64.0 */), scale = cnd(s, 0x3f800000u /* 1.0 */, 0x1f800000u /* 2^-64 */);
	MOpnd t = isel_v1(s), e = isel_v1(s), u[2] = {x, add};
	mblock_add(s->b, I_V_ADD_F32, 1, &t, 2, u);
	mblock_add(s->b, I_V_EXP_F32, 1, &e, 1, &t);
	MOpnd m[2] = {e, scale};
	mblock_add(s->b, I_V_MUL_F32, 1, &r, 2, m);
}

/* r = log2(x). v_log_f32 reads a denormal input as 0 (-inf out), so below
 * 2^-126 compute log2(x * 2^32) - 32, as LLVM does. */
void elt_log2_f32(Isel *s, MOpnd r, MOpnd x)
{
	vcc_gt(s, 0x00800000u /* 2^-126 */, x);
	MOpnd scale = cnd(s, 0x3f800000u /* 1.0 */, 0x4f800000u /* 2^32 */), sub = cnd(s, 0, 0x42000000u /* 32.0 */);
	MOpnd t = isel_v1(s), l = isel_v1(s), u[2] = {x, scale};
	mblock_add(s->b, I_V_MUL_F32, 1, &t, 2, u);
	mblock_add(s->b, I_V_LOG_F32, 1, &l, 1, &t);
	MOpnd m[2] = {l, sub};
	mblock_add(s->b, I_V_SUB_F32, 1, &r, 2, m);
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
	const TVal *a = elt_words(s, s->val[op->args[0]->id]);
	if (a && elt_is_word_int(a->dtype))
		return isel_select_int_unary(s, op, a);
	if (a && (a->dtype == DT_F16 || a->dtype == DT_BF16) && (op->kind == OP_NEG || op->kind == OP_ABS))
		return sign_op_16(s, op, a);
	if (a && (a->dtype == DT_F16 || a->dtype == DT_BF16)) {
		/* exp, log2, reciprocal, sqrt of 16-bit floats: in f32 (which
		 * holds them exactly), rounded back once */
		const TVal *f = elt_cast(s, a, DT_F32);
		s->val[op_result(op)->id] = NULL;
		s->val[op->args[0]->id] = (TVal *)f;
		bool ok = select_unary(s, op);
		s->val[op->args[0]->id] = (TVal *)a;
		const TVal *r = s->val[op_result(op)->id];
		if (!ok || !r)
			return false;
		TVal *r16 = elt_cast(s, r, a->dtype);
		r16->ix = a->ix;
		s->val[op_result(op)->id] = r16;
		return true;
	}
	if (!a || a->dtype != DT_F32)
		return false;
	TVal *r = isel_tval_new(s, a->dtype, a->n, a->ix);
	const TVal *in_place = reusable_agprs(s, op, a, 0) ? a : NULL;
	for (int i = 0; i < r->nd; i++) {
		MOpnd x = isel_vgpr(s, a->d[i]);
		r->d[i] = isel_v1(s);
		switch (op->kind) {
		case OP_EXP: {
			MOpnd t = isel_v1(s), u[2] = {mo_imm(0x3fb8aa3b), x}; /* log2(e) as f32 */
			mblock_add(s->b, I_V_MUL_F32, 1, &t, 2, u);
			elt_exp2_f32(s, r->d[i], t);
			break;
		}
		case OP_EXP2: elt_exp2_f32(s, r->d[i], x); break;
		case OP_LOG2: elt_log2_f32(s, r->d[i], x); break;
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
			if (!math_unary_f32(s, op->kind, r->d[i], x))
				return false;
		}
		r->d[i] = back_in_place(s, in_place, i, r->d[i]);
	}
	s->val[op_result(op)->id] = r;
	return true;
}

/* The bf16 of f32 x in the high half of the result (the low half is
 * rounding residue): round to nearest even on the bits,
 * x + 0x7fff + bit 16 of x; a NaN keeps its sign and payload and gets the
 * quiet bit (util/dtype.c's rule, which the interpreter follows). */
static MOpnd f32_to_bf16_hi(Isel *s, MOpnd x, MOpnd *k7fff)
{
	if (k7fff->kind != MO_VREG) { /* VOP3 takes no literal on gfx9 */
		*k7fff = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1);
		MOpnd u = mo_imm(0x7fff);
		mblock_add(s->b, I_S_MOV_B32, 1, k7fff, 1, &u);
	}
	MOpnd lsb = isel_v1(s), u3[3] = {x, mo_imm(16), mo_imm(1)};
	mblock_add(s->b, I_V_BFE_U32, 1, &lsb, 3, u3);
	MOpnd r = isel_v1(s), a3[3] = {x, *k7fff, lsb};
	mblock_add(s->b, I_V_ADD3_U32, 1, &r, 3, a3);
	MOpnd q = isel_v1(s), o[2] = {mo_imm(0x400000), x};
	mblock_add(s->b, I_V_OR_B32, 1, &q, 2, o);
	MOpnd vcc = mo_special(MO_VCC), c[2] = {x, x};
	mblock_add(s->b, I_V_CMP_U_F32, 1, &vcc, 2, c)->flags |= MIF_E32;
	MOpnd d = isel_v1(s), m[3] = {r, q, mo_special(MO_VCC)};
	mblock_add(s->b, I_V_CNDMASK_B32, 1, &d, 3, m)->flags |= MIF_E32;
	return d;
}

/* Element e of a float value (f32, f16 or bf16) as f32 in a VGPR. */
MOpnd elt_f32(Isel *s, const TVal *a, int64_t e)
{
	if (a->dtype == DT_BF16)
		return bf16_elem_f32(s, a, e);
	bool hi;
	MOpnd src = isel_vgpr(s, elem_at(a, e, &hi));
	if (a->dtype == DT_F32)
		return src;
	if (hi) {
		MOpnd t = isel_v1(s), u[2] = {mo_imm(16), src};
		mblock_add(s->b, I_V_LSHRREV_B32, 1, &t, 2, u);
		src = t;
	}
	MOpnd d = isel_v1(s);
	mblock_add(s->b, I_V_CVT_F32_F16, 1, &d, 1, &src);
	return d;
}

/* A float value to f8 E4M3 FNUZ (gfx942's fp8): v_cvt_pk_fp8_f32 turns
 * two f32 into the codes in bytes 0-1 of its result (round to nearest
 * even; util/dtype.c's rule); a packed dword's two pairs are joined with
 * v_perm_b32, so no write into the other word of a live register (op_sel)
 * is needed. f16 and bf16 go through f32, which holds them exactly. */
static TVal *cast_to_fp8(Isel *s, const TVal *a, TVal *r)
{
	MOpnd pair[2];
	for (int i = 0; i < r->nd; i++) {
		int per = isel_per_dword(r);
		for (int h = 0; h < (per == 4 ? 2 : 1); h++) {
			int64_t e = (int64_t)i * per + 2 * h;
			MOpnd x0 = elt_f32(s, a, e), x1 = per == 4 ? elt_f32(s, a, e + 1) : mo_imm(0);
			pair[h] = isel_v1(s);
			MOpnd u[2] = {x0, x1};
			mblock_add(s->b, I_V_CVT_PK_FP8_F32, 1, &pair[h], 2, u);
		}
		if (per == 1) {
			r->d[i] = pair[0];
			continue;
		}
		MOpnd sel = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), kv = mo_imm(0x05040100);
		mblock_add(s->b, I_S_MOV_B32, 1, &sel, 1, &kv); /* VOP3 takes no literal on gfx9 */
		MOpnd u[3] = {pair[1], pair[0], sel};
		r->d[i] = isel_v1(s);
		mblock_add(s->b, I_V_PERM_B32, 1, &r->d[i], 3, u);
	}
	return r;
}

/* a converted to dtype to, element by element (same index); NULL if the
 * conversion is not compiled. */
TVal *elt_cast(Isel *s, const TVal *a, DType to)
{
	TVal *r = isel_tval_new(s, to, a->n, a->ix);
	if (a->dtype == to) {
		*r = *a;
	} else if (to == DT_F8E4M3FNUZ && (a->dtype == DT_F32 || a->dtype == DT_F16 || a->dtype == DT_BF16) &&
		   !isel_is_gfx90a(s)) {
		return cast_to_fp8(s, a, r);
	} else if (a->dtype == DT_I32 && (to == DT_F32 || to == DT_F16 || to == DT_BF16)) {
		/* v_cvt_f32_i32 rounds to nearest even, as the interpreter's
		 * conversion of the exact integer does; f16/bf16 then from f32
		 * (the interpreter also rounds them through f32) */
		TVal *f = isel_tval_new(s, DT_F32, a->n, a->ix);
		for (int64_t j = 0; j < a->n; j++) {
			MOpnd x = isel_vgpr(s, a->d[j]);
			f->d[j] = isel_v1(s);
			mblock_add(s->b, I_V_CVT_F32_I32, 1, &f->d[j], 1, &x);
		}
		return to == DT_F32 ? f : elt_cast(s, f, to);
	} else if (a->dtype == DT_F8E4M3FNUZ && !isel_is_gfx90a(s) &&
		   (to == DT_F32 || to == DT_F16 || to == DT_BF16)) {
		/* each code's byte moved down, v_cvt_f32_fp8 (exact: every E4M3
		 * FNUZ value is an f32, an f16 and a bf16), then as from f32 */
		TVal *f = isel_tval_new(s, DT_F32, a->n, a->ix);
		for (int64_t j = 0; j < a->n; j++) {
			MOpnd src = isel_vgpr(s, a->d[isel_elem_dword(a, j)]);
			int part = (int)(j % isel_per_dword(a));
			if (part) {
				MOpnd t = isel_v1(s), u[2] = {mo_imm(8 * part), src};
				mblock_add(s->b, I_V_LSHRREV_B32, 1, &t, 2, u);
				src = t;
			}
			f->d[j] = isel_v1(s);
			mblock_add(s->b, I_V_CVT_F32_FP8, 1, &f->d[j], 1, &src);
		}
		return to == DT_F32 ? f : elt_cast(s, f, to);
	} else if (a->dtype == DT_F32 && to == DT_F16) {
		for (int i = 0; i < r->nd; i++) {
			int64_t e = r->packed ? 2 * i : i;
			MOpnd lo = isel_v1(s);
			MOpnd x0 = isel_vgpr(s, a->d[e]);
			mblock_add(s->b, I_V_CVT_F16_F32, 1, &lo, 1, &x0);
			if (!r->packed || e + 1 >= a->n) {
				r->d[i] = lo;
				continue;
			}
			MOpnd hi = isel_v1(s);
			MOpnd x1 = isel_vgpr(s, a->d[e + 1]);
			mblock_add(s->b, I_V_CVT_F16_F32, 1, &hi, 1, &x1);
			r->d[i] = isel_v1(s);
			MOpnd u[2] = {lo, hi};
			mblock_add(s->b, I_V_PACK_B32_F16, 1, &r->d[i], 2, u);
		}
	} else if (a->dtype == DT_F32 && to == DT_BF16) {
		MOpnd k = {0};
		for (int i = 0; i < r->nd; i++) {
			int64_t e = r->packed ? 2 * i : i;
			MOpnd lo = f32_to_bf16_hi(s, isel_vgpr(s, a->d[e]), &k);
			r->d[i] = isel_v1(s);
			if (!r->packed || e + 1 >= a->n) {
				MOpnd u[2] = {mo_imm(16), lo};
				mblock_add(s->b, I_V_LSHRREV_B32, 1, &r->d[i], 2, u);
				continue;
			}
			MOpnd hi = f32_to_bf16_hi(s, isel_vgpr(s, a->d[e + 1]), &k);
			/* the two high halves: bytes {lo.2, lo.3, hi.2, hi.3} */
			MOpnd sel = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), kv = mo_imm(0x07060302);
			mblock_add(s->b, I_S_MOV_B32, 1, &sel, 1, &kv);
			MOpnd u[3] = {hi, lo, sel};
			mblock_add(s->b, I_V_PERM_B32, 1, &r->d[i], 3, u);
		}
	} else if (a->dtype == DT_BF16 && to == DT_F32) {
		for (int64_t j = 0; j < a->n; j++) {
			MOpnd src = a->d[a->packed ? j / 2 : j];
			r->d[j] = isel_v1(s);
			if (a->packed && j % 2) {
				MOpnd u[2] = {mo_imm((int64_t)0xffff0000), src};
				mblock_add(s->b, I_V_AND_B32, 1, &r->d[j], 2, u);
			} else {
				MOpnd u[2] = {mo_imm(16), src};
				mblock_add(s->b, I_V_LSHLREV_B32, 1, &r->d[j], 2, u);
			}
		}
	} else if (a->dtype == DT_F16 && to == DT_F32) {
		for (int64_t j = 0; j < a->n; j++) {
			MOpnd src = a->d[a->packed ? j / 2 : j];
			if (a->packed && j % 2) {
				MOpnd t = isel_v1(s), u[2] = {mo_imm(16), src};
				mblock_add(s->b, I_V_LSHRREV_B32, 1, &t, 2, u);
				src = t;
			}
			r->d[j] = isel_v1(s);
			mblock_add(s->b, I_V_CVT_F32_F16, 1, &r->d[j], 1, &src);
		}
	} else {
		return NULL;
	}
	return r;
}

static bool select_cast(Isel *s, Op *op)
{
	const TVal *a = elt_words(s, s->val[op->args[0]->id]);
	if (op->dtype == DT_F8E4M3FNUZ && isel_is_gfx90a(s)) {
		analysis_error(s->c, op->loc, "%s: a cast to f8e4m3fnuz needs v_cvt_pk_fp8_f32, which gfx90a does not have",
			op->path);
		return true;
	}
	if (a && a->dtype == DT_F8E4M3FNUZ && isel_is_gfx90a(s)) {
		analysis_error(s->c, op->loc, "%s: a cast from f8e4m3fnuz needs v_cvt_f32_fp8, which gfx90a does not have",
			op->path);
		return true;
	}
	TVal *r = !a ? NULL : a->dtype == DT_I1 || op->dtype == DT_I1 ? elt_cast_i1(s, a, op->dtype)
								  : elt_cast(s, a, op->dtype);
	if (!r)
		return false;
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
		MOpnd k = {0}, hi = f32_to_bf16_hi(s, f, &k);
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
