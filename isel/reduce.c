/* reduce.c — sum/max/min over one dim: within the thread, across the lanes
 * of a wave, and across the waves of a workgroup.
 *
 * Algorithm (Wave's decompose_reduce_ops, with the bounds made exact):
 *   1. every element of the wave's window takes part, also those beyond
 *      the dim's size: they hold what the op chain computed from their
 *      masked (zero) reads — Wave's semantics, which the reference
 *      interpreter defines (docs/interpreter.md, "Bounds"); a kernel that
 *      wants the identity there must mask (select) it itself. Lanes past
 *      the window (a vector shape that is not a multiple of 64, softmax
 *      with N = 46; index analysis sets the dim's limit) are replaced by
 *      the combine's identity (0, -inf, +inf) with v_cndmask;
 *   2. the thread's elements fold pairwise (a tree, for ILP), separately
 *      for each result copy: copies along the other dims (BLOCK_M > 1)
 *      map one to one onto the result's, and steps 3-5 run per copy (an
 *      LDS slot set of its own in step 4);
 *   3. the lanes that share a result are those whose start along the
 *      reduced dim differs: evaluating the start for lanes 0..63 gives the
 *      cluster size k (a power of two; lane l and l % k must agree on the
 *      other dims). Butterfly stages of stride 1, 2, 4, ... k/2 combine
 *      partner values; each stage leaves every lane of a 2m-group with the
 *      same value, so a mirror serves as the xor-partner permutation:
 *        1, 2: DPP quad_perm [1,0,3,2], [2,3,0,1]
 *        4, 8: DPP row_half_mirror, row_mirror
 *        16:   ds_swizzle_b32 swap 16 (within 32 lanes)
 *        32:   v_readlane of lanes 0 and 32, combined per lane;
 *      the combine is commutative, so all lanes end with identical bits;
 *   4. for a block reduction whose dim is spread over the waves of its
 *      workgroup dim g (wave id floor($T0/64) for g = 0, else $Tg; no
 *      waves along other dims) — without block each wave keeps its own
 *      window's result — each wave stores its value to
 *      an LDS slot, waits, meets the others at s_barrier and folds every
 *      wave's slot in wave order (so all waves agree);
 *   5. an init operand, if given, is combined last.
 * f32 only for now. Requires: the source's per-thread value. */
#include <string.h>

#include "isel.h"

static MOp combine_op(OpKind k)
{
	return k == OP_SUM ? I_V_ADD_F32 : k == OP_MAX ? I_V_MAX_F32 : I_V_MIN_F32;
}

static MOpnd combine(Isel *s, OpKind k, MOpnd a, MOpnd b, uint16_t dpp)
{
	MOpnd r = isel_v1(s), u[2] = {a, b};
	MInst *in = mblock_add(s->b, combine_op(k), 1, &r, 2, u);
	in->dpp = dpp;
	return r;
}

/* The start along the reduced dim at lane l of wave w, other ids 0. */
static bool start_at(Analysis *c, Sym *start, int64_t t0, int64_t *out)
{
	SymCtx *sc = c->k->sc;
	Sym *from[3 + 3 + MAX_DIMS], *to[3 + 3 + MAX_DIMS];
	int n = 0;
	char name[16];
	for (int g = 0; g < 3; g++) {
		snprintf(name, sizeof name, "$T%d", g);
		from[n] = sym_symbol(sc, name);
		to[n++] = sym_int(sc, g == 0 ? t0 : 0);
		snprintf(name, sizeof name, "$WG%d", g);
		from[n] = sym_symbol(sc, name);
		to[n++] = sym_int(sc, 0);
	}
	for (int i = 0; i < c->ntile; i++) {
		from[n] = c->tile[i].iv;
		to[n++] = sym_int(sc, 0);
	}
	return sym_is_int(sym_simplify(sc, sym_subs(sc, start, n, from, to), NULL), out);
}

/* Element x (at coordinate coord along the reduced dim) or, where coord is
 * not below limit, the combine's identity: lanes past the reduction's
 * window take no part. */
static MOpnd in_window(Isel *s, Op *op, MOpnd x, Sym *coord, int64_t limit, MOpnd *ident)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	Sym *rel = sym_simplify(sc, sym_rel(sc, SYM_LT, coord, sym_int(sc, limit)), c->assume);
	if (sym_kind(rel) == SYM_TRUE)
		return x;
	if (ident->kind != MO_VREG) { /* made once per op: cndmask takes no literal beside vcc */
		uint32_t bits = op->kind == OP_SUM ? 0 : op->kind == OP_MAX ? 0xff800000u : 0x7f800000u;
		MOpnd d = isel_v1(s), u = mo_imm(bits);
		mblock_add(s->b, I_V_MOV_B32, 1, &d, 1, &u);
		*ident = d;
	}
	if (sym_kind(rel) == SYM_FALSE)
		return *ident;
	isel_expr_cond_to_vcc(s, rel, op->loc);
	MOpnd r = isel_v1(s), u[3] = {*ident, isel_expr_to_vgpr(s, x), mo_special(MO_VCC)};
	MInst *in = mblock_add(s->b, I_V_CNDMASK_B32, 1, &r, 3, u);
	in->flags |= MIF_E32;
	return r;
}

/* Step 3: the butterfly across the `cluster` lanes that share a result. */
static MOpnd across_lanes(Isel *s, OpKind kind, MOpnd acc, int64_t cluster)
{
	for (int64_t m = 1; m < cluster; m *= 2) {
		if (m == 1 || m == 2 || m == 4 || m == 8) {
			static const uint16_t ctrl[] = {[1] = 0xb1, [2] = 0x4e, [4] = 0x141, [8] = 0x140};
			acc = combine(s, kind, acc, acc, ctrl[m]);
		} else if (m == 16) {
			MOpnd t = isel_v1(s);
			MInst *in = mblock_add(s->b, I_DS_SWIZZLE_B32, 1, &t, 1, &acc);
			in->offset = 0x401f; /* bitmask mode: and 0x1f, xor 0x10 */
			acc = combine(s, kind, t, acc, 0);
		} else {
			MOpnd lo = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), hi = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1);
			MOpnd u[2] = {acc, mo_imm(0)};
			mblock_add(s->b, I_V_READLANE_B32, 1, &lo, 2, u);
			u[1] = mo_imm(32);
			mblock_add(s->b, I_V_READLANE_B32, 1, &hi, 2, u);
			acc = combine(s, kind, lo, isel_expr_to_vgpr(s, hi), 0);
		}
	}
	return acc;
}

/* Step 4: every wave's value through its LDS slot at base + 4 * wid. */
static MOpnd across_waves(Isel *s, Op *op, MOpnd acc, int waves, int base, Sym *wid)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	Sym *slot = sym_simplify(sc, sym_add(sc, sym_mul(sc, wid, sym_int(sc, 4)), sym_int(sc, base)), c->assume);
	MOpnd addr = isel_expr_to_vgpr(s, isel_expr_lower(s, slot, op->loc));
	MOpnd u[2] = {addr, acc};
	mblock_add(s->b, I_DS_WRITE_B32, 0, NULL, 2, u);
	MInst *w = mblock_add(s->b, I_S_WAITCNT, 0, NULL, 0, NULL);
	w->lgkmcnt = 0; /* the slot is written before the others may read it */
	mblock_add(s->b, I_S_BARRIER, 0, NULL, 0, NULL);
	MOpnd a0 = isel_expr_to_vgpr(s, mo_imm(base));
	MOpnd got = {0};
	for (int i = 0; i < waves; i++) {
		MOpnd t = isel_v1(s);
		MInst *in = mblock_add(s->b, I_DS_READ_B32, 1, &t, 1, &a0);
		in->offset = 4 * i;
		got = i ? combine(s, op->kind, got, t, 0) : t;
	}
	return got;
}

/* The result copy of source copy cn: its copy numbers along the result's
 * dims (row-major, as indices.c numbers copies); -1 if the result lacks a
 * dim along which the source has copies, other than the reduced one. */
static int64_t result_copy(const NodeIndex *ix, const NodeIndex *rx, int k, int64_t cn)
{
	int64_t along[MAX_DIMS];
	for (int i = ix->ndims - 1; i >= 0; i--) {
		along[i] = cn % ix->d[i].copies;
		cn /= ix->d[i].copies;
	}
	int64_t r = 0;
	for (int q = 0; q < rx->ndims; q++) {
		int p = -1;
		for (int i = 0; i < ix->ndims; i++)
			if (ix->d[i].dim == rx->d[q].dim)
				p = i;
		if (p < 0 || p == k || ix->d[p].copies != rx->d[q].copies || ix->d[p].step != rx->d[q].step)
			return -1;
		r = r * rx->d[q].copies + along[p];
	}
	return r;
}

void isel_select_reduce(Isel *s, Op *op)
{
	Analysis *c = s->c;
	const TVal *v = s->val[op->args[0]->id];
	const NodeIndex *rx = c->index[op->id];
	if (!v || !rx)
		return;
	if (op_reduce_nsrc(op) != 1 || v->dtype != DT_F32) {
		analysis_error(c, op->loc, "%s: only f32 reductions of one source are compiled yet", op->path);
		return;
	}
	const NodeIndex *ix = v->ix;
	int k = -1;
	for (int i = 0; ix && i < ix->ndims; i++)
		if (ix->d[i].dim == op->dim)
			k = i;
	/* each source copy feeds one result copy: copies along the other
	 * dims (BLOCK_M > 1) map one to one, the reduced dim's fold */
	int64_t *dst = k >= 0 ? ARENA_NEWN(&c->arena, int64_t, ix->ncopies) : NULL;
	bool ok = k >= 0 && rx->epc == 1 && ix->ncopies == rx->ncopies * ix->d[k].copies;
	for (int64_t cn = 0; ok && cn < ix->ncopies; cn++)
		ok = (dst[cn] = result_copy(ix, rx, k, cn)) >= 0;
	if (!ok) {
		analysis_error(c, op->loc, "%s: this reduction's layout (elements along dims other than %s) is not "
					  "compiled yet",
			op->path, sym_name(op->dim));
		return;
	}
	/* 3. which lanes share a result */
	int64_t st[64], lanes = MIN(64, c->wg_size[0]);
	for (int64_t l = 0; l < lanes; l++)
		if (!start_at(c, ix->d[k].start, l, &st[l])) {
			analysis_error(c, op->loc, "%s: the start of %s is not a function of the lane", op->path,
				sym_name(op->dim));
			return;
		}
	int64_t cluster = 1;
	while (cluster < lanes) {
		bool periodic = true;
		for (int64_t l = 0; l < lanes && periodic; l++)
			periodic = st[l] == st[l % cluster];
		if (periodic)
			break;
		cluster *= 2;
	}
	/* 4. which waves share a result: those along the reduced dim's
	 * workgroup dim g (wave id floor($T0/64) for g = 0, else $Tg), when
	 * the reduction is a block one — without block, the result is the
	 * wave's own window (the interpreter's semantics; writing it where the
	 * waves would collide is rejected by index analysis) */
	const DimDist *dd = analysis_dist(c, op->dim);
	bool cross = op->block && dd && dd->waves > 1;
	int g = dd ? dd->wg_dim : 0, waves = dd ? dd->waves : 1;
	int64_t all = (int64_t)(c->wg_size[0] / 64) * c->wg_size[1] * c->wg_size[2];
	if (cross && all != waves) {
		analysis_error(c, op->loc, "%s: a block reduction over %s with waves along other workgroup dims too is not "
					  "compiled yet",
			op->path, sym_name(op->dim));
		return;
	}
	SymCtx *sc = c->k->sc;
	Sym *wid = g == 0 ? sym_floor(sc, sym_div(sc, sym_symbol(sc, "$T0"), sym_int(sc, 64)))
			  : sym_symbol(sc, g == 1 ? "$T1" : "$T2");
	Value *init = op_reduce_init(op);
	const TVal *iv = NULL;
	if (init && (!(iv = s->val[init->id]) || !(iv = isel_tval_gather(s, iv, rx, op))))
		return;
	TVal *r = isel_tval_new(s, DT_F32, rx->ncopies, rx);
	MOpnd *x = ARENA_NEWN(&c->arena, MOpnd, v->n), ident = {0};
	for (int64_t rc = 0; rc < rx->ncopies; rc++) {
		/* 2. the thread's elements of this result, pairwise */
		int64_t n = 0;
		for (int64_t cn = 0; cn < ix->ncopies; cn++)
			for (int64_t j = 0; dst[cn] == rc && j < ix->epc; j++) {
				x[n] = v->d[cn * ix->epc + j];
				if (ix->d[k].limit)
					x[n] = in_window(s, op, x[n], index_coord(c, ix, k, cn, j), ix->d[k].limit, &ident);
				n++;
			}
		for (; n > 1; n = (n + 1) / 2) {
			for (int64_t i = 0; i < n / 2; i++)
				x[i] = combine(s, op->kind, x[2 * i], x[2 * i + 1], 0);
			if (n % 2)
				x[n / 2] = x[n - 1]; /* the odd one out joins the next level */
		}
		MOpnd acc = across_lanes(s, op->kind, isel_expr_to_vgpr(s, x[0]), cluster);
		if (cross) {
			bool reuse;
			int base = isel_lds_alloc(s, 4 * waves, &reuse);
			if (base < 0) {
				analysis_error(c, op->loc, "%s: the cross-wave slots (%d bytes) do not fit in the 64 KiB of LDS "
							  "left by %d allocated",
					op->path, 4 * waves, s->lds_top);
				return;
			}
			if (reuse)
				isel_lds_barrier(s);
			acc = across_waves(s, op, acc, waves, base, wid);
		}
		/* 5. init */
		r->d[rc] = iv ? combine(s, op->kind, iv->d[rc], acc, 0) : acc;
	}
	s->val[op_result(op)->id] = r;
}
