/* pk_f32.c — f32 add, sub and mul two elements at a time with gfx90a's,
 * gfx942's and gfx950's packed f32 rows (v_pk_add_f32, v_pk_mul_f32): the
 * same IEEE operation on each dword as v_add_f32 / v_mul_f32, one VALU
 * issue for two. Attention's softmax scales, masks and shifts its scores
 * and rescales its accumulator this way: the scores and the accumulator
 * are MFMA tuples (4 or 16 dwords of one register), the other operand a
 * constant or a row's value repeated along the tuple.
 *
 * Algorithm (isel_pk_f32_binary, for a binary op in such a loop's body):
 * walk the result's dwords; where one operand's dwords i..i+w-1 are a whole
 * VGPR tuple of w >= 2 dwords, in order (an MFMA result, or a result of
 * this file), and the other operand gives each aligned pair either as an
 * aligned pair of its own or as one value for both dwords, the result
 * there is a new tuple of w dwords written a pair at a time. A repeated
 * value becomes a pair once per op (two v_mov_b32; licm hoists those of
 * loop-invariant values); for a - b it is -b (v_xor_b32 of the sign bit:
 * a + -b is a - b exactly), and a - b needs a as the tuple. The result's
 * dwords are the new tuple's, so an MFMA reading it as its accumulator
 * reads the tuple itself (isel_tuple_of), with no copies. Any other dword
 * is computed as before, one VOP2 each. Returns NULL (nothing emitted)
 * when no tuple qualifies, so such code is unchanged.
 *
 * (x + 0) * c, with x + 0 read only by the mul and c a constant whose sign
 * bit is clear (Wave's folded K2 mask adds +0 to the scores, which are then
 * scaled), is fma(x, c, +0): the add is selected as nothing and the mul is
 * v_pk_fma_f32 (v_fma_f32 off the tuples). Exact: for x = -0 both give +0
 * (-0 * c is -0, plus +0 is +0; -0 + 0 is +0, times c is +0), else x + 0
 * is x and the fma rounds x * c once, as the mul does; NaN and flushed
 * denormals alike.
 *
 * Only in the body of a loop that holds an mma (isel_pk_f32_loop: the
 * attention and online-softmax loops; elsewhere the code stays as it
 * was): epilogues run once, and the rows' even register pairs would only
 * constrain the allocator there. */
#include <math.h>
#include <string.h>

#include "elt.h"

/* The vreg of a whole tuple that v's dwords i.. are, in order (a VGPR
 * tuple of an even size >= 2 that fits in the value), or 0 with *w = 0. */
static uint32_t whole_tuple(const Isel *s, const TVal *v, int i, int *w)
{
	MOpnd f = v->d[i];
	*w = 0;
	if (f.kind != MO_VREG || f.sub != 0 || rc_file(f.rc) != RF_VGPR)
		return 0;
	int n = rc_size(s->f->vregs.data[f.reg]);
	if (n < 2 || n % 2 || i + n > v->nd)
		return 0;
	for (int k = 1; k < n; k++)
		if (v->d[i + k].kind != MO_VREG || v->d[i + k].reg != f.reg || v->d[i + k].sub != k)
			return 0;
	*w = n;
	return f.reg;
}

/* The repeated operands an op made pairs of (once each). */
enum { PAIRS = 16 };
typedef struct PairCache {
	int n;
	MOpnd of[PAIRS], pair[PAIRS];
} PairCache;

/* Is x the same in every trip of the loop being selected: an immediate,
 * or a register no instruction of the blocks after the one before the
 * loop writes? Its pair is then made in the block before the loop. */
static bool invariant(const Isel *s, MOpnd x)
{
	if (x.kind == MO_IMM)
		return true;
	if (x.kind != MO_VREG || !s->pre)
		return false;
	size_t bi = 0;
	while (bi < s->f->blocks.len && s->f->blocks.data[bi] != s->pre)
		bi++;
	for (bi++; bi < s->f->blocks.len; bi++) {
		const MBlock *b = s->f->blocks.data[bi];
		for (size_t i = 0; i < b->insts.len; i++)
			for (int d = 0; d < b->insts.data[i].ndef; d++)
				if (b->insts.data[i].def[d].kind == MO_VREG && b->insts.data[i].def[d].reg == x.reg)
					return false;
	}
	return true;
}

/* The pair operand for dwords i, i + 1 of v: an aligned VGPR pair of its
 * own, or a value repeated in both (negated when neg), made a pair unless
 * dry; kind MO_NONE when neither (or more than PAIRS values repeat). */
static MOpnd pair_of(Isel *s, const TVal *v, int i, bool neg, PairCache *pc, bool dry)
{
	MOpnd x = v->d[i], y = v->d[i + 1];
	if (!neg && x.kind == MO_VREG && y.kind == MO_VREG && x.reg == y.reg && x.sub % 2 == 0 && y.sub == x.sub + 1 &&
		rc_file(x.rc) == RF_VGPR)
		return mo_vsub(x.reg, x.sub, RC_V2);
	if (memcmp(&x, &y, sizeof x) != 0 || isel_is_agpr(x) || (x.kind != MO_VREG && x.kind != MO_IMM))
		return (MOpnd){0};
	for (int j = 0; j < pc->n; j++)
		if (memcmp(&pc->of[j], &x, sizeof x) == 0)
			return pc->pair[j];
	if (pc->n == PAIRS)
		return (MOpnd){0};
	if (dry)
		return x;
	uint32_t p = mfunc_vreg(s->f, RC_V2);
	MBlock *b = s->b;
	if (invariant(s, x))
		s->b = s->pre;
	for (int k = 0; k < 2; k++) {
		MOpnd d = mo_vsub(p, k, RC_V1);
		if (neg) {
			MOpnd u[2] = {mo_imm((int64_t)0x80000000u), x};
			mblock_add(s->b, I_V_XOR_B32, 1, &d, 2, u);
		} else {
			mblock_add(s->b, I_V_MOV_B32, 1, &d, 1, &x);
		}
	}
	s->b = b;
	pc->of[pc->n] = x;
	pc->pair[pc->n] = mo_vreg(p, RC_V2);
	return pc->pair[pc->n++];
}

/* Dword i of the result the VOP2 way, in a new V1. */
static void one_dword(Isel *s, OpKind k, const TVal *a, const TVal *b, int i, TVal *r)
{
	MOp m = k == OP_ADD ? I_V_ADD_F32 : k == OP_SUB ? I_V_SUB_F32 : I_V_MUL_F32;
	MOpnd x = isel_vgpr(s, a->d[i]), y = isel_vgpr(s, b->d[i]), u[2] = {x, y};
	r->d[i] = isel_v1(s);
	mblock_add(s->b, m, 1, &r->d[i], 2, u);
}

/* The w dwords from i as one tuple of pk rows, or false (nothing
 * emitted) when some pair cannot be had. */
static bool tuple_run(Isel *s, OpKind k, const TVal *a, const TVal *b, int i, int w, TVal *r, PairCache *pc)
{
	if (w > 16)
		return false;
	for (int q = 0; q < w / 2; q++)
		if (!pair_of(s, a, i + 2 * q, false, &pc[0], true).kind ||
			!pair_of(s, b, i + 2 * q, k == OP_SUB, &pc[1], true).kind)
			return false;
	RegClass rc = rc_make(RF_VGPR, w);
	uint32_t t = mfunc_vreg(s->f, rc);
	MOp m = k == OP_MUL ? I_V_PK_MUL_F32 : I_V_PK_ADD_F32;
	for (int q = 0; q < w / 2; q++) {
		MOpnd pa = pair_of(s, a, i + 2 * q, false, &pc[0], false);
		MOpnd pb = pair_of(s, b, i + 2 * q, k == OP_SUB, &pc[1], false);
		MOpnd d = mo_vsub(t, 2 * q, RC_V2), u[2] = {pa, pb};
		mblock_add(s->b, m, 1, &d, 2, u);
		r->d[i + 2 * q] = mo_vsub(t, 2 * q, RC_V1);
		r->d[i + 2 * q + 1] = mo_vsub(t, 2 * q + 1, RC_V1);
	}
	return true;
}

TVal *isel_pk_f32_binary(Isel *s, Op *op, const TVal *a, const TVal *b, const NodeIndex *ix)
{
	OpKind k = op->kind;
	if (!isel_pk_f32_loop(s, op) || a->dtype != DT_F32 || b->dtype != DT_F32 || a->nd != b->nd ||
		(k != OP_ADD && k != OP_SUB && k != OP_MUL))
		return NULL;
	/* does any tuple qualify? (a sum or product is taken either way) */
	bool any = false;
	for (int i = 0; i < a->nd && !any; i++) {
		int w;
		any = whole_tuple(s, a, i, &w) || (k != OP_SUB && whole_tuple(s, b, i, &w));
	}
	if (!any)
		return NULL;
	TVal *r = isel_tval_new(s, DT_F32, a->n, ix);
	PairCache *pc = ARENA_NEWN(&s->c->arena, PairCache, 4);
	for (int i = 0; i < r->nd;) {
		int w;
		if (whole_tuple(s, a, i, &w) && tuple_run(s, k, a, b, i, w, r, pc)) {
			i += w;
			continue;
		}
		if (k != OP_SUB && whole_tuple(s, b, i, &w) && tuple_run(s, k, b, a, i, w, r, pc + 2)) {
			i += w;
			continue;
		}
		one_dword(s, k, a, b, i, r);
		i++;
	}
	return r;
}

bool isel_pk_f32_dests(Isel *s, const Op *op, const TVal *a, TVal *r)
{
	if (!isel_pk_f32_loop(s, op) || a->dtype != DT_F32 || r->nd != a->nd)
		return false;
	bool any = false;
	for (int i = 0; i < r->nd;) {
		int w;
		uint32_t t = whole_tuple(s, a, i, &w) ? mfunc_vreg(s->f, rc_make(RF_VGPR, w)) : 0;
		if (!t) {
			r->d[i++] = isel_v1(s);
			continue;
		}
		for (int k = 0; k < w; k++)
			r->d[i + k] = mo_vsub(t, k, RC_V1);
		i += w;
		any = true;
	}
	return any;
}

void isel_pk_f32_scale(Isel *s, const TVal *a, MOpnd *x, uint32_t k)
{
	PairCache pc = {0};
	TVal kv = {.dtype = DT_F32, .n = 2, .nd = 2, .d = (MOpnd[2]){mo_imm(k), mo_imm(k)}};
	for (int i = 0; i < a->nd;) {
		int w;
		if (!s->iv_sym || !whole_tuple(s, a, i, &w) || w > 16) {
			MOpnd t = isel_v1(s), u[2] = {mo_imm(k), isel_vgpr(s, a->d[i])};
			mblock_add(s->b, I_V_MUL_F32, 1, &t, 2, u);
			x[i++] = t;
			continue;
		}
		uint32_t t = mfunc_vreg(s->f, rc_make(RF_VGPR, w));
		for (int q = 0; q < w / 2; q++) {
			MOpnd d = mo_vsub(t, 2 * q, RC_V2), u[2] = {mo_vsub(a->d[i].reg, 2 * q, RC_V2), pair_of(s, &kv, 0, false, &pc, false)};
			mblock_add(s->b, I_V_PK_MUL_F32, 1, &d, 2, u);
			x[i + 2 * q] = mo_vsub(t, 2 * q, RC_V1);
			x[i + 2 * q + 1] = mo_vsub(t, 2 * q + 1, RC_V1);
		}
		i += w;
	}
}

bool isel_pk_f32_sum(Isel *s, const MOpnd *x, int64_t n, MOpnd *out)
{
	if (!s->iv_sym || n < 4 || n % 2 || n > 256)
		return false;
	MOpnd p[128];
	for (int64_t i = 0; i < n; i += 2) {
		if (x[i].kind != MO_VREG || x[i + 1].kind != MO_VREG || x[i].reg != x[i + 1].reg || x[i].sub % 2 ||
			x[i + 1].sub != x[i].sub + 1 || rc_file(x[i].rc) != RF_VGPR)
			return false;
		p[i / 2] = mo_vsub(x[i].reg, x[i].sub, RC_V2);
	}
	/* pairs of pairs, a tree (the odd one out joins the next level) */
	for (int64_t m = n / 2; m > 1; m = (m + 1) / 2) {
		for (int64_t i = 0; i < m / 2; i++) {
			MOpnd d = mo_vreg(mfunc_vreg(s->f, RC_V2), RC_V2), u[2] = {p[2 * i], p[2 * i + 1]};
			mblock_add(s->b, I_V_PK_ADD_F32, 1, &d, 2, u);
			p[i] = d;
		}
		if (m % 2)
			p[m / 2] = p[m - 1];
	}
	MOpnd d = isel_v1(s), u[2] = {mo_vsub(p[0].reg, p[0].sub, RC_V1), mo_vsub(p[0].reg, p[0].sub + 1, RC_V1)};
	mblock_add(s->b, I_V_ADD_F32, 1, &d, 2, u);
	*out = d;
	return true;
}

/* ---- (x + 0) * c as fma(x, c, +0) ---- */

/* Is v, in every element, the f32 constant k (a register op, or a select
 * the plan folded to one, or one that picks it in a diagonal split's main
 * loop), with k's sign bit clear when pos? */
static bool f32_constant(const Isel *s, const Value *v, double *k)
{
	while (v->kind == VAL_RESULT && v->def->kind == OP_SELECT) {
		int c = isel_select_cond_known(s, v->def);
		if (c < 0)
			return false;
		v = v->def->args[c ? 1 : 2];
	}
	if (v->kind != VAL_RESULT || v->def->kind != OP_REGISTER || v->dtype != DT_F32)
		return false;
	*k = v->def->value;
	return true;
}

/* The mul reading add op's result (its one reader, in its region), or
 * NULL. */
static const Op *one_mul(const Isel *s, const Op *op)
{
	const Value *r = op_result(op);
	if (s->uses[r->id] != 1)
		return NULL;
	for (size_t i = 0; i < op->parent->ops.len; i++) {
		const Op *u = op->parent->ops.data[i];
		for (int a = 0; a < u->nargs; a++)
			if (u->args[a] == r)
				return u->kind == OP_MUL && op_result(u)->dtype == DT_F32 && u->nargs == 2 ? u : NULL;
	}
	return NULL;
}

/* The operand of zero add op that is not +0 (its index), or -1. */
static int nonzero_arg(const Isel *s, const Op *op)
{
	double k;
	for (int a = 0; a < 2; a++)
		if (f32_constant(s, op->args[a], &k) && k == 0 && !signbit(k) && op->args[1 - a]->dtype == DT_F32)
			return 1 - a;
	return -1;
}

/* Is mul u's operand other than v a constant with its sign bit clear?
 * Then fma(x, c, +0) == (x + 0) * c: for x = -0 both give +0 (which
 * needs c's sign clear), otherwise x + 0 is x and fma rounds x * c once,
 * as the mul does. */
static bool positive_factor(const Isel *s, const Op *u, const Value *v)
{
	double k;
	const Value *c = u->args[0] == v ? u->args[1] : u->args[0];
	return c != v && f32_constant(s, c, &k) && !signbit(k);
}

bool isel_pk_f32_zero_add(Isel *s, Op *op)
{
	if (op->kind != OP_ADD || !isel_pk_f32_loop(s, op) || op->nargs != 2 || op_result(op)->dtype != DT_F32 ||
		nonzero_arg(s, op) < 0)
		return false;
	const Op *u = one_mul(s, op);
	if (!u || !positive_factor(s, u, op_result(op)))
		return false;
	s->fused[op->id] = true;
	return true;
}

bool isel_pk_f32_fma_zero(Isel *s, Op *op)
{
	if (op->kind != OP_MUL || op->nargs != 2)
		return false;
	int k = -1;
	for (int a = 0; a < 2; a++)
		if (op->args[a]->kind == VAL_RESULT && op->args[a]->def->kind == OP_ADD && s->fused[op->args[a]->def->id])
			k = a;
	if (k < 0)
		return false;
	const Op *add = op->args[k]->def;
	const NodeIndex *ix = s->c->index[op->id];
	const TVal *x = isel_elt_words(s, s->val[add->args[nonzero_arg(s, add)]->id]);
	const TVal *c = isel_elt_words(s, s->val[op->args[1 - k]->id]);
	if (!x || !c || !ix || !(x = isel_tval_gather(s, x, ix, op)) || !(c = isel_tval_gather(s, c, ix, op)))
		return true; /* reported, or reported at the add's operand */
	TVal *r = isel_tval_new(s, DT_F32, x->n, ix);
	PairCache pc = {0};
	for (int i = 0; i < r->nd;) {
		int w;
		bool run = whole_tuple(s, x, i, &w) && w <= 16;
		for (int q = 0; run && q < w / 2; q++)
			run = pair_of(s, c, i + 2 * q, false, &pc, true).kind != MO_NONE;
		if (run) {
			uint32_t t = mfunc_vreg(s->f, rc_make(RF_VGPR, w));
			for (int q = 0; q < w / 2; q++) {
				MOpnd d = mo_vsub(t, 2 * q, RC_V2);
				MOpnd u[3] = {mo_vsub(x->d[i].reg, 2 * q, RC_V2), pair_of(s, c, i + 2 * q, false, &pc, false), mo_imm(0)};
				mblock_add(s->b, I_V_PK_FMA_F32, 1, &d, 3, u);
				r->d[i + 2 * q] = mo_vsub(t, 2 * q, RC_V1);
				r->d[i + 2 * q + 1] = mo_vsub(t, 2 * q + 1, RC_V1);
			}
			i += w;
			continue;
		}
		MOpnd cv = c->d[i];
		if (cv.kind == MO_IMM) { /* VOP3 takes no literal on gfx9 */
			MOpnd t = isel_v1(s);
			mblock_add(s->b, I_V_MOV_B32, 1, &t, 1, &cv);
			cv = t;
		}
		MOpnd u[3] = {isel_vgpr(s, x->d[i]), isel_vgpr(s, cv), mo_imm(0)};
		r->d[i] = isel_v1(s);
		mblock_add(s->b, I_V_FMA_F32, 1, &r->d[i], 3, u);
		i++;
	}
	s->val[op_result(op)->id] = r;
	return true;
}

