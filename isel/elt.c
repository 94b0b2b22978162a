/* elt.c — the helpers the elementwise selectors share (elt.h): new
 * values and their registers, operands gathered into an op's layout, VALU
 * instruction builders, f32 exp2/log2 with their denormal rescaling, and
 * conversions between the element types (isel_elt_cast, isel_elt_cast_i1).
 *
 * Gathers: operands of an elementwise op hold the same elements in the
 * same order when their indices are the same node index or equal dim by
 * dim; when they differ (a broadcast's result against its source, an
 * operand with fewer dims), isel_tval_gather matches elements by their
 * coordinates: result element e takes the source element whose coordinate
 * along every source dim simplifies to the same expression (a source dim
 * the result lacks must hold one position, the same in every thread).
 * Broadcasting costs no instructions: the same dword serves several
 * elements. An element no register of the thread holds is moved through
 * LDS (relayout.c). Conversions f32 -> f16 round to nearest even
 * (v_cvt_f16_f32) and pack pairs with v_pack_b32_f16; f16 -> f32 takes
 * the high half through a shift.
 * The selectors (elementwise.c, compare.c, math.c, index.c) call these;
 * these call none of them. */
#include <string.h>

#include "elt.h"

bool isel_same_index(const NodeIndex *a, const NodeIndex *b)
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

/* e mentions none of the thread ids $T0-2. */
static bool thread_free(SymCtx *sc, const Sym *e)
{
	static const char *const tid[] = {"$T0", "$T1", "$T2"};
	for (int i = 0; i < 3; i++)
		if (sym_mentions(e, sym_symbol(sc, tid[i])))
			return false;
	return true;
}

/* A gather's coordinates, each made once: v's dims' positions in ix (-1:
 * ix lacks it), and v's elements' coordinates, computed when first asked
 * (a[e * ndims + k], NULL until then). */
typedef struct Coords {
	int *p;
	Sym **a;
} Coords;

static Coords coords_new(Isel *s, const TVal *v, const NodeIndex *ix)
{
	Arena *ar = &s->c->arena;
	const NodeIndex *vx = v->ix;
	Coords g = {ARENA_NEWN(ar, int, vx->ndims + 1), ARENA_NEWN(ar, Sym *, v->n * vx->ndims + 1)};
	for (int k = 0; k < vx->ndims; k++) {
		g.p[k] = -1;
		for (int q = 0; q < ix->ndims; q++)
			if (ix->d[q].dim == vx->d[k].dim)
				g.p[k] = q;
	}
	return g;
}

/* The source element of v that element j of copy cn of ix is, matched by
 * coordinates along v's dims; -1 if v has none in this thread. */
static int64_t gather_source(Isel *s, const TVal *v, const NodeIndex *ix, Coords *g, int64_t cn, int64_t j)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	const NodeIndex *vx = v->ix;
	Sym *b[MAX_DIMS] = {0}; /* element j of copy cn's, when first asked */
	for (int64_t e = 0; e < v->n; e++) {
		bool eq = true;
		for (int k = 0; k < vx->ndims && eq; k++) {
			int p = g->p[k];
			Sym **a = &g->a[e * vx->ndims + k];
			if (p < 0 && !(vx->d[k].size == 1 && vx->d[k].copies == 1)) {
				eq = false;
				continue;
			}
			if (!*a)
				*a = index_coord(c, vx, k, e / vx->epc, e % vx->epc);
			if (p < 0) {
				/* a dim ix lacks: v must hold one position along it,
				 * the same in every thread (a workgroup's, or a
				 * constant); a position per lane is no broadcast */
				eq = thread_free(sc, *a);
				continue;
			}
			if (!b[k])
				b[k] = index_coord(c, ix, p, cn, j);
			eq = *a == b[k] || sym_simplify(sc, sym_sub(sc, *a, b[k]), c->assume) == sym_int(sc, 0);
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
MOpnd isel_elt_pack_halves(Isel *s, MOpnd lo, bool lo_hi, MOpnd hi, bool hi_hi)
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

TVal *isel_elt_new(Isel *s, DType t, int64_t n, const NodeIndex *ix)
{
	TVal *v = isel_tval_new(s, t, n, ix);
	if (t == DT_I1 && v->packed) {
		v->packed = false;
		v->nd = (int)n;
		v->d = ARENA_NEWN(&s->c->arena, MOpnd, n ? n : 1);
	}
	return v;
}

const TVal *isel_elt_words(Isel *s, const TVal *v)
{
	if (!v || v->dtype != DT_I1 || !v->packed)
		return v;
	TVal *r = isel_elt_new(s, DT_I1, v->n, v->ix);
	for (int64_t e = 0; e < v->n; e++)
		r->d[e] = isel_elt_op3(s, I_V_BFE_U32, isel_vgpr(s, v->d[e / 4]), mo_imm(8 * (e % 4)), mo_imm(8));
	return r;
}

const TVal *isel_elt_operand(Isel *s, Op *op, int k)
{
	const NodeIndex *ix = s->c->index[op->id];
	const TVal *v = op->args[k] ? isel_elt_words(s, s->val[op->args[k]->id]) : NULL;
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
		out = pair ? isel_elt_op2(s, I_V_OR_B32, out, d) : d;
	}
	return out;
}

TVal *isel_tval_gather(Isel *s, const TVal *v, const NodeIndex *ix, Op *op)
{
	Analysis *c = s->c;
	if (isel_same_index(v->ix, ix))
		return (TVal *)v;
	const NodeIndex *vx = v->ix;
	if (vx && vx->ndims == 0 && v->nd == 1) {
		/* a scalar: every element is its one dword (a 16-bit scalar holds
		 * its value in both halves, so packed or not it serves) */
		TVal *r = isel_elt_new(s, v->dtype, ix->ncopies * ix->epc, ix);
		for (int i = 0; i < r->nd; i++)
			r->d[i] = v->d[0];
		return r;
	}
	if (v->splat && dtype_size(v->dtype) >= 2) {
		/* a splat register made outside a loop is consumed inside with
		 * the loop's index: any of its dwords holds every element (a
		 * 16-bit splat holds the value in both halves) */
		TVal *r = isel_elt_new(s, v->dtype, ix->ncopies * ix->epc, ix);
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
	Coords g = coords_new(s, v, ix);
	for (int64_t cn = 0; cn < ix->ncopies; cn++)
		for (int64_t j = 0; j < ix->epc; j++) {
			src[cn * ix->epc + j] = gather_source(s, v, ix, &g, cn, j);
			if (src[cn * ix->epc + j] < 0)
				return isel_relayout(s, v, ix, op); /* held by other lanes */
		}
	TVal *r = isel_elt_new(s, v->dtype, n, ix);
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
			made[nmade++] = (Pair){a, b, isel_elt_pack_halves(s, a, h0, b, h1), h0, h1};
		r->d[i] = made[m].d;
	}
	return r;
}


/* v_cndmask's src1 must be a VGPR */
MOpnd isel_elt_vconst(Isel *s, uint32_t k)
{
	MOpnd d = isel_v1(s), u = mo_imm(k);
	mblock_add(s->b, I_V_MOV_B32, 1, &d, 1, &u);
	return d;
}

/* k in a VGPR made once per kernel in the entry block, which dominates
 * every use and runs before any loop with every lane active (as
 * expr.c's entry reciprocals): for an operand only read, v_cndmask's src1
 * above all, one v_mov_b32 per constant instead of one per use inside a
 * loop, for one VGPR live throughout. Cached under a symbol no expression
 * contains, so a value lowered in a conditional body is not reused outside
 * (the cache is cut back there) but this one dominates anyway. */
MOpnd isel_elt_vconst_shared(Isel *s, uint32_t k)
{
	char name[32];
	snprintf(name, sizeof name, "$vconst@%08x", (unsigned)k);
	Sym *key = sym_symbol(s->c->k->sc, name);
	for (size_t i = 0; i < s->cache.len; i++)
		if (s->cache.data[i].e == key)
			return s->cache.data[i].o;
	MBlock *save = s->b;
	s->b = s->f->blocks.data[0];
	MOpnd d = isel_elt_vconst(s, k);
	s->b = save;
	vec_push(&s->cache, ((ExprCacheEnt){key, d}));
	return d;
}

/* The mask goes to its pair by a SALU copy (s_mov_b64), so neither the
 * word's v_cndmask here nor a select reading the pair later waits on
 * gfx942's VALU-writes-SGPR hazard (hazard_rules.h HZ_VALU_SGPR_VALU); a
 * select that reads the pair (compare.c) leaves the word unread, and
 * regalloc/coalesce.c removes it. */
MOpnd isel_elt_i1_from_vcc(Isel *s)
{
	MOpnd p = mo_vreg(mfunc_vreg(s->f, RC_S2), RC_S2), vcc = mo_special(MO_VCC);
	mblock_add(s->b, I_S_MOV_B64, 1, &p, 1, &vcc);
	MOpnd d = isel_v1(s), u[3] = {mo_imm(0), mo_imm(1), p};
	mblock_add(s->b, I_V_CNDMASK_B32, 1, &d, 3, u)->flags |= MIF_E64;
	isel_elt_i1_note(s, d, p);
	return d;
}

void isel_elt_i1_note(Isel *s, MOpnd word, MOpnd pair)
{
	s->lanemask[s->nlanemask++ % ISEL_LANEMASKS] = (IselLaneMask){word.reg, pair.reg};
}

void isel_elt_i1_forget(Isel *s, const TVal *v)
{
	int n = s->nlanemask < ISEL_LANEMASKS ? s->nlanemask : ISEL_LANEMASKS;
	for (int k = 0; k < v->nd; k++)
		for (int i = 0; v->d[k].kind == MO_VREG && i < n; i++)
			if (s->lanemask[i].d == v->d[k].reg)
				s->lanemask[i].d = UINT32_MAX;
}

/* The entry stays one: the pair is named by the copy from now on. */
void isel_elt_i1_moved(Isel *s, MOpnd word, MOpnd copy)
{
	int n = s->nlanemask < ISEL_LANEMASKS ? s->nlanemask : ISEL_LANEMASKS;
	for (int i = 0; word.kind == MO_VREG && i < n; i++)
		if (s->lanemask[i].d == word.reg)
			s->lanemask[i].d = copy.reg;
}

/* Only fresh vregs are noted, each defined once: a word and its pair are
 * defined together, so wherever the word is read the pair holds the same
 * condition (lanes the compare did not run hold 0 in the pair and an
 * unspecified word). */
bool isel_elt_i1_mask(const Isel *s, MOpnd word, MOpnd *pair)
{
	int n = s->nlanemask < ISEL_LANEMASKS ? s->nlanemask : ISEL_LANEMASKS;
	for (int i = 0; word.kind == MO_VREG && rc_file(word.rc) == RF_VGPR && i < n; i++)
		if (s->lanemask[i].d == word.reg) {
			*pair = mo_vreg(s->lanemask[i].p, RC_S2);
			return true;
		}
	return false;
}

MOpnd isel_elt_cnd(Isel *s, MOpnd no, MOpnd yes)
{
	MOpnd d = isel_v1(s), u[3] = {no, yes, mo_special(MO_VCC)};
	mblock_add(s->b, I_V_CNDMASK_B32, 1, &d, 3, u)->flags |= MIF_E32;
	return d;
}

/* d = vcc ? yes : no, no an inline constant. */
static MOpnd cnd(Isel *s, uint32_t no, uint32_t yes)
{
	return isel_elt_cnd(s, mo_imm(no), isel_elt_vconst_shared(s, yes));
}

MOpnd isel_elt_op1(Isel *s, MOp op, MOpnd x)
{
	MOpnd d = isel_v1(s);
	mblock_add(s->b, op, 1, &d, 1, &x);
	return d;
}

MOpnd isel_elt_op2(Isel *s, MOp op, MOpnd x, MOpnd y)
{
	MOpnd d = isel_v1(s), u[2] = {x, y};
	mblock_add(s->b, op, 1, &d, 2, u);
	return d;
}

MOpnd isel_elt_op3(Isel *s, MOp op, MOpnd x, MOpnd y, MOpnd z)
{
	MOpnd d = isel_v1(s), u[3] = {x, y, z};
	mblock_add(s->b, op, 1, &d, 3, u);
	return d;
}

void isel_elt_cmp(Isel *s, MOp op, MOpnd x, MOpnd y)
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

/* May f32 denormals be flushed (the kernel's denorm_fp_math_f32 option)?
 * Then v_exp_f32 and v_log_f32 are used bare, as LLVM does under
 * preserve-sign: a denormal result of 2^x becomes 0, a denormal input of
 * log2 reads as 0. The FP mode register stays IEEE: other instructions
 * may keep their denormals, which the mode allows. */
static bool flush_ok(const Isel *s)
{
	return s->c->opts.f32_denorm_flush;
}

/* r = 2^x. v_exp_f32 flushes denormal results to 0, so below -126 (the
 * smallest normal exponent) compute 2^(x + 64) * 2^-64, as LLVM does:
 * the multiply produces the denormal, which the FP mode keeps. */
void isel_elt_exp2_f32(Isel *s, MOpnd r, MOpnd x)
{
	if (flush_ok(s)) {
		mblock_add(s->b, I_V_EXP_F32, 1, &r, 1, &x);
		return;
	}
	vcc_gt(s, 0xc2fc0000u /* -126.0 */, x);
	MOpnd add = cnd(s, 0, 0x42800000u /* 64.0 */), scale = cnd(s, 0x3f800000u /* 1.0 */, 0x1f800000u /* 2^-64 */);
	MOpnd t = isel_v1(s), e = isel_v1(s), u[2] = {x, add};
	mblock_add(s->b, I_V_ADD_F32, 1, &t, 2, u);
	mblock_add(s->b, I_V_EXP_F32, 1, &e, 1, &t);
	MOpnd m[2] = {e, scale};
	mblock_add(s->b, I_V_MUL_F32, 1, &r, 2, m);
}

/* d = p ? yes : no, the lane mask in SGPR pair p (VOP3: no and yes VGPRs
 * or inline constants, p the one constant-bus read). */
static MOpnd cnd_pair(Isel *s, MOpnd no, MOpnd yes, MOpnd p)
{
	MOpnd d = isel_v1(s), u[3] = {no, yes, p};
	mblock_add(s->b, I_V_CNDMASK_B32, 1, &d, 3, u)->flags |= MIF_E64;
	return d;
}

/* p = x < -126 per lane, into a new SGPR pair (VOP3 takes no literal:
 * the bound comes from a VGPR). */
static MOpnd below_normal(Isel *s, MOpnd x)
{
	MOpnd p = mo_vreg(mfunc_vreg(s->f, RC_S2), RC_S2), u[2] = {x, isel_elt_vconst_shared(s, 0xc2fc0000u)};
	mblock_add(s->b, I_V_CMP_LT_F32, 1, &p, 2, u)->flags |= MIF_E64;
	return p;
}

/* r[i] = 2^x[i] for n elements: isel_elt_exp2_f32's scaling, each
 * element's range compare into its own SGPR pair two elements ahead, and
 * the scale's v_cndmask between v_exp and the multiply reading it. In that
 * order no compare is read within two VALU instructions (gfx942's
 * VALU-writes-SGPR hazard) and v_exp's result is not read by the next one
 * (transcendental forwarding), so no s_nop is needed (but for n = 2); three
 * pairs are live at a time. */
void isel_elt_exp2_f32_n(Isel *s, const MOpnd *r, const MOpnd *x, int n)
{
	if (flush_ok(s)) {
		for (int i = 0; i < n; i++)
			mblock_add(s->b, I_V_EXP_F32, 1, &r[i], 1, &x[i]);
		return;
	}
	MOpnd k64 = isel_elt_vconst_shared(s, 0x42800000u /* 64.0 */);
	MOpnd one = isel_elt_vconst_shared(s, 0x3f800000u), tiny = isel_elt_vconst_shared(s, 0x1f800000u /* 2^-64 */);
	/* the pairs of elements i, i + 1 (made before i's first use) */
	MOpnd p0 = n > 0 ? below_normal(s, x[0]) : (MOpnd){0}, p1 = n > 1 ? below_normal(s, x[1]) : (MOpnd){0};
	for (int i = 0; i < n; i++) {
		MOpnd p = p0;
		p0 = p1;
		if (i + 2 < n)
			p1 = below_normal(s, x[i + 2]);
		MOpnd add = cnd_pair(s, mo_imm(0), k64, p);
		MOpnd t = isel_v1(s), e = isel_v1(s), u[2] = {x[i], add};
		mblock_add(s->b, I_V_ADD_F32, 1, &t, 2, u);
		mblock_add(s->b, I_V_EXP_F32, 1, &e, 1, &t);
		MOpnd scale = cnd_pair(s, one, tiny, p), m[2] = {e, scale};
		mblock_add(s->b, I_V_MUL_F32, 1, &r[i], 2, m);
	}
}

/* r = log2(x). v_log_f32 reads a denormal input as 0 (-inf out), so below
 * 2^-126 compute log2(x * 2^32) - 32, as LLVM does. */
void isel_elt_log2_f32(Isel *s, MOpnd r, MOpnd x)
{
	if (flush_ok(s)) {
		mblock_add(s->b, I_V_LOG_F32, 1, &r, 1, &x);
		return;
	}
	vcc_gt(s, 0x00800000u /* 2^-126 */, x);
	MOpnd scale = cnd(s, 0x3f800000u /* 1.0 */, 0x4f800000u /* 2^32 */), sub = cnd(s, 0, 0x42000000u /* 32.0 */);
	MOpnd t = isel_v1(s), l = isel_v1(s), u[2] = {x, scale};
	mblock_add(s->b, I_V_MUL_F32, 1, &t, 2, u);
	mblock_add(s->b, I_V_LOG_F32, 1, &l, 1, &t);
	MOpnd m[2] = {l, sub};
	mblock_add(s->b, I_V_SUB_F32, 1, &r, 2, m);
}

/* gfx950's v_cvt_pk_bf16_f32: bf16(lo) | bf16(hi) << 16, each rounded to
 * nearest even, a NaN quiet with its sign and payload's top (util/dtype.c's
 * rule, the emulator's and the interpreter's). */
static MOpnd cvt_pk_bf16(Isel *s, MOpnd lo, MOpnd hi)
{
	MOpnd d = isel_v1(s), u[2] = {lo, hi};
	mblock_add(s->b, I_V_CVT_PK_BF16_F32, 1, &d, 2, u);
	return d;
}

/* The bf16 of f32 x in the high half of the result (the low half is
 * rounding residue): round to nearest even on the bits,
 * x + 0x7fff + bit 16 of x; a NaN keeps its sign and payload and gets the
 * quiet bit (util/dtype.c's rule, which the interpreter follows). */
MOpnd isel_elt_f32_to_bf16_hi(Isel *s, MOpnd x, MOpnd *k7fff)
{
	if (isel_is_gfx950(s)) /* gfx950 rounds the same way in one instruction (low half: bf16 of 0) */
		return cvt_pk_bf16(s, mo_imm(0), x);
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

/* Element e of a bf16 value as f32 (the bf16 bits on top). */
MOpnd isel_elt_bf16_f32(Isel *s, const TVal *v, int64_t e)
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

/* Element e of a float value (f32, f16 or bf16) as f32 in a VGPR. */
MOpnd isel_elt_f32(Isel *s, const TVal *a, int64_t e)
{
	if (a->dtype == DT_BF16)
		return isel_elt_bf16_f32(s, a, e);
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

/* A float value to f8 E4M3 FNUZ (gfx942's fp8) or, on gfx950, to OCP
 * f8e4m3fn or f8e5m2 (its fp8 instructions read and write those):
 * v_cvt_pk_fp8_f32 (v_cvt_pk_bf8_f32 for e5m2) turns two f32 into the
 * codes in bytes 0-1 of its result (round to nearest even; util/dtype.c's
 * rule); a packed dword's two pairs are joined with v_perm_b32, so no
 * write into the other word of a live register (op_sel) is needed. f16
 * and bf16 go through f32, which holds them exactly. */
static TVal *cast_to_fp8(Isel *s, const TVal *a, TVal *r)
{
	MOp cvt = r->dtype == DT_F8E5M2 ? I_V_CVT_PK_BF8_F32 : I_V_CVT_PK_FP8_F32;
	MOpnd pair[2];
	for (int i = 0; i < r->nd; i++) {
		int per = isel_per_dword(r);
		for (int h = 0; h < (per == 4 ? 2 : 1); h++) {
			int64_t e = (int64_t)i * per + 2 * h;
			MOpnd x0 = isel_elt_f32(s, a, e), x1 = per == 4 ? isel_elt_f32(s, a, e + 1) : mo_imm(0);
			pair[h] = isel_v1(s);
			MOpnd u[2] = {x0, x1};
			mblock_add(s->b, cvt, 1, &pair[h], 2, u);
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
TVal *isel_elt_cast(Isel *s, const TVal *a, DType to)
{
	TVal *r = isel_tval_new(s, to, a->n, a->ix);
	if (a->dtype == to) {
		*r = *a;
	} else if (((to == DT_F8E4M3FNUZ && !isel_is_gfx90a(s) && !isel_is_gfx950(s)) ||
			   ((to == DT_F8E4M3FN || to == DT_F8E5M2) && isel_is_gfx950(s))) &&
		   (a->dtype == DT_F32 || a->dtype == DT_F16 || a->dtype == DT_BF16)) {
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
		return to == DT_F32 ? f : isel_elt_cast(s, f, to);
	} else if (((a->dtype == DT_F8E4M3FNUZ && !isel_is_gfx90a(s) && !isel_is_gfx950(s)) ||
			   ((a->dtype == DT_F8E4M3FN || a->dtype == DT_F8E5M2) && isel_is_gfx950(s))) &&
		   (to == DT_F32 || to == DT_F16 || to == DT_BF16)) {
		/* each code's byte moved down, v_cvt_f32_fp8 (v_cvt_f32_bf8 for
		 * e5m2; exact: every value of the 8-bit formats is an f32, an
		 * f16 and a bf16), then as from f32 */
		MOp cvt = a->dtype == DT_F8E5M2 ? I_V_CVT_F32_BF8 : I_V_CVT_F32_FP8;
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
			mblock_add(s->b, cvt, 1, &f->d[j], 1, &src);
		}
		return to == DT_F32 ? f : isel_elt_cast(s, f, to);
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
	} else if (a->dtype == DT_F32 && to == DT_BF16 && isel_is_gfx950(s)) {
		for (int i = 0; i < r->nd; i++) { /* a pair per instruction; an unpacked or last one over 0 */
			int64_t e = r->packed ? 2 * i : i;
			bool pair = r->packed && e + 1 < a->n;
			r->d[i] = cvt_pk_bf16(s, isel_vgpr(s, a->d[e]), pair ? isel_vgpr(s, a->d[e + 1]) : mo_imm(0));
		}
	} else if (a->dtype == DT_F32 && to == DT_BF16) {
		MOpnd k = {0};
		for (int i = 0; i < r->nd; i++) {
			int64_t e = r->packed ? 2 * i : i;
			MOpnd lo = isel_elt_f32_to_bf16_hi(s, isel_vgpr(s, a->d[e]), &k);
			r->d[i] = isel_v1(s);
			if (!r->packed || e + 1 >= a->n) {
				MOpnd u[2] = {mo_imm(16), lo};
				mblock_add(s->b, I_V_LSHRREV_B32, 1, &r->d[i], 2, u);
				continue;
			}
			MOpnd hi = isel_elt_f32_to_bf16_hi(s, isel_vgpr(s, a->d[e + 1]), &k);
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

/* 8-bit integers to i1: byte != 0 (the interpreter's rounding to i1),
 * each byte taken out of its dword first (packed four per dword, or one
 * in the low byte of its own, whose other bits are not promised). */
static TVal *bytes_to_i1(Isel *s, const TVal *a)
{
	TVal *r = isel_elt_new(s, DT_I1, a->n, a->ix);
	int per = isel_per_dword(a);
	for (int64_t e = 0; e < a->n; e++) {
		MOpnd b = isel_elt_op3(s, I_V_BFE_U32, isel_vgpr(s, a->d[e / per]), mo_imm(8 * (uint32_t)(e % per)), mo_imm(8));
		isel_elt_cmp(s, I_V_CMP_NE_U32, mo_imm(0), b);
		r->d[e] = isel_elt_i1_from_vcc(s);
	}
	return r;
}

TVal *isel_elt_cast_i1(Isel *s, const TVal *a, DType to)
{
	if (a->dtype == to)
		return (TVal *)a;
	if (a->dtype == DT_I1) {
		if (to == DT_I32 || to == DT_U32) {
			/* 0 and 1 are the same words; fresh registers, as any result */
			TVal *r = isel_elt_new(s, to, a->n, a->ix);
			for (int64_t e = 0; e < a->n; e++)
				r->d[e] = isel_elt_op1(s, I_V_MOV_B32, a->d[e]);
			return r;
		}
		if (!dtype_is_float(to) || dtype_size(to) > 4 || dtype_size(to) < 2)
			return NULL;
		TVal *f = isel_elt_new(s, DT_F32, a->n, a->ix);
		for (int64_t e = 0; e < a->n; e++)
			f->d[e] = isel_elt_op1(s, I_V_CVT_F32_U32, a->d[e]);
		return to == DT_F32 ? f : isel_elt_cast(s, f, to);
	}
	if (to != DT_I1)
		return NULL;
	bool fl = a->dtype == DT_F32 || a->dtype == DT_F16 || a->dtype == DT_BF16;
	if (a->dtype == DT_I8 || a->dtype == DT_U8)
		return bytes_to_i1(s, a);
	if (!fl && a->dtype != DT_I32 && a->dtype != DT_U32)
		return NULL;
	/* x != 0: NaN is true, -0 false, as the interpreter's rounding to i1 */
	TVal *r = isel_elt_new(s, DT_I1, a->n, a->ix);
	for (int64_t e = 0; e < a->n; e++) {
		isel_elt_cmp(s, fl ? I_V_CMP_NEQ_F32 : I_V_CMP_NE_U32, mo_imm(0), fl ? isel_elt_f32(s, a, e) : isel_vgpr(s, a->d[e]));
		r->d[e] = isel_elt_i1_from_vcc(s);
	}
	return r;
}
