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
 *   5. an init operand, if given, is combined last;
 *   6. a result whose layout is not the source's with the reduced dim
 *      gone (a reduction beside an MMA, its result given the
 *      accumulator's layout) is reduced into that natural layout, moved
 *      into its own (isel_tval_gather: through LDS across lanes), and
 *      combined with init there.
 * Several sources (Wave's `sum([a, b], dim)`) are first combined element
 * by element, in source order (Wave's emit_sources_reduction). f32, f16,
 * bf16 and i32 (reduce_elem.c: 16-bit values are widened to f32 and every
 * sum rounded back to the dtype); the thread's f32 and i32 elements fold
 * as a tree, 16-bit ones in coordinate order as Wave's local reduction
 * does (the rounding makes the order visible). Requires: the sources'
 * per-thread values. */
#include <string.h>

#include "elt.h"
#include "reduce.h"

/* Element x (at coordinate coord along the reduced dim) or, where coord is
 * not below limit, the combine's identity: lanes past the reduction's
 * window take no part. */
static MOpnd in_window(Isel *s, Op *op, RedArith *ra, MOpnd x, Sym *coord, int64_t limit)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	Sym *rel = sym_simplify(sc, sym_rel(sc, SYM_LT, coord, sym_int(sc, limit)), c->assume);
	if (sym_kind(rel) == SYM_TRUE)
		return x;
	MOpnd ident = isel_red_identity(s, ra);
	if (sym_kind(rel) == SYM_FALSE)
		return ident;
	isel_expr_cond_to_vcc(s, rel, op->loc);
	MOpnd r = isel_v1(s), u[3] = {ident, isel_expr_to_vgpr(s, x), mo_special(MO_VCC)};
	MInst *in = mblock_add(s->b, I_V_CNDMASK_B32, 1, &r, 3, u);
	in->flags |= MIF_E32;
	return r;
}

/* Step 3: the butterfly across the `cluster` lanes that share a result. */
static MOpnd across_lanes(Isel *s, RedArith *ra, MOpnd acc, int64_t cluster)
{
	for (int64_t m = 1; m < cluster; m *= 2) {
		if (m == 1 || m == 2 || m == 4 || m == 8) {
			static const uint16_t ctrl[] = {[1] = 0xb1, [2] = 0x4e, [4] = 0x141, [8] = 0x140};
			acc = isel_red_combine(s, ra, acc, acc, ctrl[m]);
		} else if (m == 16) {
			MOpnd t = isel_v1(s);
			MInst *in = mblock_add(s->b, I_DS_SWIZZLE_B32, 1, &t, 1, &acc);
			in->offset = 0x401f; /* bitmask mode: and 0x1f, xor 0x10 */
			acc = isel_red_combine(s, ra, t, acc, 0);
		} else {
			MOpnd lo = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), hi = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1);
			MOpnd u[2] = {acc, mo_imm(0)};
			mblock_add(s->b, I_V_READLANE_B32, 1, &lo, 2, u);
			u[1] = mo_imm(32);
			mblock_add(s->b, I_V_READLANE_B32, 1, &hi, 2, u);
			acc = isel_red_combine(s, ra, lo, isel_expr_to_vgpr(s, hi), 0);
		}
	}
	return acc;
}

/* Step 4: every wave's value through LDS. The slot of the wave at wr
 * along the reduced dim, wo along the others (flattened), is
 * base + 4 * (wo * waves + wr) — times 64 plus the lane when the value
 * differs between lanes (per_lane: a reduction in the MMA layout, where
 * each group of lanes holds its own rows). Each wave folds the slots of
 * its wo in wave order, so all agree. In a loop, a first s_barrier keeps
 * a fast wave from overwriting a slot a slow one still reads from the
 * previous trip. */
static MOpnd across_waves(Isel *s, Op *op, RedArith *ra, MOpnd acc, int waves, int base, Sym *wr, Sym *wo,
	bool per_lane)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	int64_t width = per_lane ? 64 : 1;
	Sym *lane = per_lane ? sym_mod(sc, sym_symbol(sc, "$T0"), sym_int(sc, 64)) : sym_int(sc, 0);
	Sym *row = sym_mul(sc, sym_add(sc, sym_mul(sc, wo, sym_int(sc, waves)), wr), sym_int(sc, width));
	Sym *slot = sym_add(sc, sym_mul(sc, sym_add(sc, row, lane), sym_int(sc, 4)), sym_int(sc, base));
	Sym *first = sym_add(sc,
		sym_mul(sc, sym_add(sc, sym_mul(sc, sym_mul(sc, wo, sym_int(sc, waves)), sym_int(sc, width)), lane),
			sym_int(sc, 4)),
		sym_int(sc, base));
	if (s->iv_sym)
		isel_lds_barrier(s);
	MOpnd addr = isel_expr_to_vgpr(s, isel_expr_lower(s, sym_simplify(sc, slot, c->assume), op->loc));
	MOpnd u[2] = {addr, acc};
	mblock_add(s->b, I_DS_WRITE_B32, 0, NULL, 2, u);
	MInst *w = mblock_add(s->b, I_S_WAITCNT, 0, NULL, 0, NULL);
	w->lgkmcnt = 0; /* the slot is written before the others may read it */
	mblock_add(s->b, I_S_BARRIER, 0, NULL, 0, NULL);
	MOpnd a0 = isel_expr_to_vgpr(s, isel_expr_lower(s, sym_simplify(sc, first, c->assume), op->loc));
	MOpnd got = {0};
	for (int i = 0; i < waves; i++) {
		MOpnd t = isel_v1(s);
		MInst *in = mblock_add(s->b, I_DS_READ_B32, 1, &t, 1, &a0);
		in->offset = (int32_t)(4 * width * i);
		got = i ? isel_red_combine(s, ra, got, t, 0) : t;
	}
	return got;
}

/* Step 3 when the reduced dim's lanes are not the low lane bits (the MMA
 * layout's rows, lanes 16 apart): one exchange per lane bit in `bits`,
 * each a true xor partner — DPP quad_perm for 1 and 2, ds_swizzle's
 * bitmask mode for 4, 8 and 16 (within 32 lanes), ds_bpermute_b32 for 32. */
static MOpnd across_lane_bits(Isel *s, Op *op, RedArith *ra, MOpnd acc, unsigned bits)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	for (int b = 0; b < 6; b++) {
		if (!(bits >> b & 1))
			continue;
		if (b < 2) {
			acc = isel_red_combine(s, ra, acc, acc, b == 0 ? 0xb1 : 0x4e);
			continue;
		}
		MOpnd t = isel_v1(s);
		if (b < 5) {
			MInst *in = mblock_add(s->b, I_DS_SWIZZLE_B32, 1, &t, 1, &acc);
			in->offset = 0x1f | (1 << b) << 10; /* and 0x1f, xor 1 << b */
		} else {
			/* lane l reads lane l ^ 32 = (l + 32) mod 64, byte address * 4 */
			Sym *a = sym_mul(sc, sym_mod(sc, sym_add(sc, sym_symbol(sc, "$T0"), sym_int(sc, 32)), sym_int(sc, 64)),
				sym_int(sc, 4));
			MOpnd addr = isel_expr_to_vgpr(s, isel_expr_lower(s, sym_simplify(sc, a, c->assume), op->loc));
			MOpnd u[2] = {addr, acc};
			mblock_add(s->b, I_DS_BPERMUTE_B32, 1, &t, 2, u);
		}
		acc = isel_red_combine(s, ra, t, acc, 0);
	}
	return acc;
}

/* Element e of the sources combined in source order (Wave's
 * emit_sources_reduction; the interpreter's order too). */
static MOpnd source_elem(Isel *s, RedArith *ra, const TVal **src, int nsrc, int64_t e)
{
	MOpnd x = isel_red_elem(s, ra, src[0], e); /* AGPR accumulators read once */
	for (int i = 1; i < nsrc; i++)
		x = isel_red_combine(s, ra, x, isel_red_elem(s, ra, src[i], e), 0);
	return x;
}

/* Step 2: the thread's n elements x pairwise (a tree, for ILP) ... */
static MOpnd fold_tree(Isel *s, RedArith *ra, MOpnd *x, int64_t n)
{
	/* f32 sums of tuples' pairs in a loop: two at a time (pk_f32.c) */
	MOpnd pk;
	if (ra->pk && ra->kind == OP_SUM && ra->dtype == DT_F32 && isel_pk_f32_sum(s, x, n, &pk))
		return pk;
	/* max and min: three at a time (v_max3_f32), a tree of ceil(log3 n)
	 * levels and about n/2 instructions instead of n - 1 */
	if (isel_red_op3(ra)) {
		for (; n > 1; n = (n + 2) / 3) {
			int64_t m = 0;
			for (int64_t i = 0; i < n; i += 3, m++)
				x[m] = n - i >= 3   ? isel_red_combine3(s, ra, x[i], x[i + 1], x[i + 2])
				       : n - i == 2 ? isel_red_combine(s, ra, x[i], x[i + 1], 0)
						    : x[i];
		}
		return x[0];
	}
	for (; n > 1; n = (n + 1) / 2) {
		for (int64_t i = 0; i < n / 2; i++)
			x[i] = isel_red_combine(s, ra, x[2 * i], x[2 * i + 1], 0);
		if (n % 2)
			x[n / 2] = x[n - 1]; /* the odd one out joins the next level */
	}
	return x[0];
}

/* ... or in coordinate order, where each step rounds (16-bit sums) and
 * the order shows in the result: Wave's local reduction and the
 * interpreter's fold both go up the coordinates. */
static MOpnd fold_in_order(Isel *s, RedArith *ra, MOpnd *x, int64_t n)
{
	MOpnd acc = x[0];
	for (int64_t i = 1; i < n; i++)
		acc = isel_red_combine(s, ra, acc, x[i], 0);
	return acc;
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

/* Whether every copy of source index ix maps onto one copy of result
 * index rx (dst[cn]). */
static bool maps_onto(const NodeIndex *ix, const NodeIndex *rx, int k, bool fold, int64_t *dst)
{
	if (rx->epc != (fold ? 1 : ix->epc) || ix->ncopies != rx->ncopies * ix->d[k].copies)
		return false;
	for (int64_t cn = 0; cn < ix->ncopies; cn++)
		if ((dst[cn] = result_copy(ix, rx, k, cn)) < 0)
			return false;
	return true;
}

/* ix without its dim k: each lane's results where its elements lay. */
static const NodeIndex *natural_index(Isel *s, const NodeIndex *ix, int k)
{
	NodeIndex *r = ARENA_NEW(&s->c->arena, NodeIndex);
	*r = *ix;
	r->ndims = 0;
	for (int i = 0; i < ix->ndims; i++)
		if (i != k)
			r->d[r->ndims++] = ix->d[i];
	r->ncopies = ix->ncopies / ix->d[k].copies;
	r->epc = ix->epc / ix->d[k].size;
	return r;
}

/* Whether op's dim is split over more than one wave. */
static bool dd0_waves(Analysis *c, const Op *op)
{
	const DimDist *dd = analysis_dist(c, op->dim);
	return dd && dd->waves > 1;
}

void isel_select_reduce(Isel *s, Op *op)
{
	Analysis *c = s->c;
	const TVal *v = s->val[op->args[0]->id];
	const NodeIndex *rx = c->index[op->id];
	if (!v || !rx)
		return;
	if (!isel_red_dtype_ok(v->dtype)) {
		analysis_error(c, op->loc, "%s: %s reductions are not compiled yet (f32, f16, bf16 and i32 are)", op->path,
			dtype_name(v->dtype));
		return;
	}
	const NodeIndex *ix = v->ix;
	/* the other sources in the first one's layout */
	int nsrc = op_reduce_nsrc(op);
	const TVal **src = ARENA_NEWN(&c->arena, const TVal *, nsrc);
	src[0] = v;
	for (int i = 1; i < nsrc; i++) {
		const TVal *w = s->val[op->args[i]->id];
		if (!w)
			return;
		if (w->dtype != v->dtype) {
			analysis_error(c, op->loc, "%s: the sources of a reduction differ in dtype (%s, %s)", op->path,
				dtype_name(v->dtype), dtype_name(w->dtype));
			return;
		}
		if (!(src[i] = isel_tval_gather(s, w, ix, op)))
			return;
	}
	int k = -1, edim = -1;
	for (int i = 0; ix && i < ix->ndims; i++) {
		if (ix->d[i].dim == op->dim)
			k = i;
		if (ix->d[i].size > 1)
			edim = i;
	}
	/* a thread's elements of one copy lie along one dim: the reduced one
	 * (they fold together) or another (the MMA layout's rows: element j
	 * of each copy feeds element j of the result) */
	bool fold = edim < 0 || edim == k;
	/* each source copy feeds one result copy: copies along the other
	 * dims (BLOCK_M > 1) map one to one, the reduced dim's fold. A result
	 * laid out otherwise (a reduction beside an MMA whose result has the
	 * accumulator's layout, its source not) is reduced in the source's
	 * own layout and moved into the result's after (step 6) */
	int64_t *dst = k >= 0 ? ARENA_NEWN(&c->arena, int64_t, ix->ncopies) : NULL;
	const NodeIndex *want = rx;
	bool ok = k >= 0 && maps_onto(ix, rx, k, fold, dst);
	if (!ok && k >= 0) {
		rx = natural_index(s, ix, k);
		ok = maps_onto(ix, rx, k, fold, dst);
	}
	if (!ok) {
		analysis_error(c, op->loc, "%s: this reduction's layout (elements along dims other than %s) is not "
					  "compiled yet",
			op->path, sym_name(op->dim));
		return;
	}
	/* in the MMA layout the copies along the reduced dim cover whole MMA
	 * tiles: when they do not tile the wave's window exactly (a wave tile
	 * of 24 in 16-wide MMA tiles), the extra columns belong to another
	 * wave or lie past the window, and the fold would take them in */
	if (c->mode == IM_MMA && ix->d[k].step > 0) {
		const DimDist *wd = analysis_dist(c, op->dim);
		const TileLoop *tl = analysis_tile(c, op->dim);
		bool in_loop = false;
		for (Region *rg = op->parent; rg && rg->owner; rg = rg->parent)
			in_loop |= rg->owner->dim == op->dim;
		int64_t window = in_loop && tl ? tl->tile : wd ? wd->wave_tile : -1;
		int64_t cover = ix->d[k].copies * ix->d[k].step;
		if (window > 0 && cover != window) {
			analysis_error(c, op->loc, "%s: the MMA layout covers %lld of %s per wave (%lld copies of %lld), the "
						  "wave's window is %lld: a reduction over it is not compiled yet",
				op->path, (long long)cover, sym_name(op->dim), (long long)ix->d[k].copies,
				(long long)ix->d[k].step, (long long)window);
			return;
		}
	}
	/* 3. which lanes share a result: the lane bits that change the
	 * reduced dim's start; none of them may change another dim's */
	int64_t lanes = MIN(64, c->wg_size[0]);
	int64_t *at = ARENA_NEWN(&c->arena, int64_t, lanes * MAX_DIMS); /* each dim's start per lane */
	for (int64_t l = 0; l < lanes; l++)
		for (int i = 0; i < ix->ndims; i++)
			if (!isel_at_lane(c, ix->d[i].start, l, &at[l * MAX_DIMS + i])) {
				analysis_error(c, op->loc, "%s: the start of %s is not a function of the lane", op->path,
					sym_name(ix->d[i].dim));
				return;
			}
	unsigned bits = 0;
	for (int b = 0; (1 << b) < lanes; b++) {
		bool red = false, other = false;
		for (int64_t l = 0; l < lanes; l++)
			for (int i = 0; i < ix->ndims; i++) {
				int64_t p = at[l * MAX_DIMS + i], q = at[(l ^ (1 << b)) * MAX_DIMS + i];
				red |= i == k && p != q;
				other |= i != k && p != q;
			}
		if (red && other) {
			analysis_error(c, op->loc, "%s: lanes that share a result of this reduction over %s differ along "
						  "another dim: not compiled yet",
				op->path, sym_name(op->dim));
			return;
		}
		bits |= (unsigned)red << b;
	}
	/* a 16-bit sum rounds at every step, so its order shows: the
	 * interpreter folds an MMA kernel's sums in coordinate order, which
	 * lanes that share a result (or waves) do not follow */
	if (c->mode == IM_MMA && op->kind == OP_SUM && dtype_size(v->dtype) < 4 && (bits || (op->block && dd0_waves(c, op)))) {
		analysis_error(c, op->loc, "%s: a sum of %s values in an MMA kernel whose lanes share a result is not compiled yet "
					  "(its roundings would follow the lanes' order, not the coordinate order the "
					  "interpreter defines; a sum of the values cast to f32 is)",
			op->path, dtype_name(v->dtype));
		return;
	}
	/* the low bits: the butterfly of mirrors; other sets bit by bit */
	bool prefix = (bits & (bits + 1)) == 0;
	int64_t cluster = prefix ? (int64_t)bits + 1 : 0;
	/* 4. which waves share a result: those along the reduced dim's
	 * workgroup dim g (wave id floor($T0/64) for g = 0, else $Tg), when
	 * the reduction is a block one — without block, the result is the
	 * wave's own window (the interpreter's semantics; writing it where the
	 * waves would collide is rejected by index analysis); waves along the
	 * other workgroup dims keep slots of their own */
	const DimDist *dd = analysis_dist(c, op->dim);
	bool cross = op->block && dd && dd->waves > 1;
	int g = dd ? dd->wg_dim : 0, waves = dd ? dd->waves : 1;
	int64_t all = (int64_t)(c->wg_size[0] / 64) * c->wg_size[1] * c->wg_size[2];
	SymCtx *sc = c->k->sc;
	Sym *wid[3], *wo = sym_int(sc, 0);
	int64_t nw[3] = {c->wg_size[0] / 64, c->wg_size[1], c->wg_size[2]};
	for (int q = 0; q < 3; q++)
		wid[q] = q == 0 ? sym_floor(sc, sym_div(sc, sym_symbol(sc, "$T0"), sym_int(sc, 64)))
				: sym_symbol(sc, q == 1 ? "$T1" : "$T2");
	for (int q = 2; q >= 0; q--)
		if (q != g)
			wo = sym_add(sc, sym_mul(sc, wo, sym_int(sc, nw[q])), wid[q]);
	if (cross && nw[g] != waves) {
		analysis_error(c, op->loc, "%s: a block reduction over %s whose waves are not all of workgroup dim %d is "
					  "not compiled yet",
			op->path, sym_name(op->dim), g);
		return;
	}
	bool per_lane = bits != (unsigned)(lanes - 1);
	Value *init = op_reduce_init(op);
	const TVal *iv = NULL;
	if (init && (!(iv = s->val[init->id]) || !(iv = isel_tval_gather(s, iv, want, op))))
		return;
	const TVal *iv_late = rx != want ? iv : NULL; /* combined after step 6 */
	if (iv_late)
		iv = NULL;
	RedArith ra = {.kind = op->kind, .dtype = v->dtype, .pk = isel_pk_f32_loop(s, op)};
	MOpnd *res = ARENA_NEWN(&c->arena, MOpnd, rx->ncopies * rx->epc);
	MOpnd *x = ARENA_NEWN(&c->arena, MOpnd, v->n);
	bool seq = dtype_size(v->dtype) < 4;
	for (int64_t rc = 0; rc < rx->ncopies; rc++)
		for (int64_t jr = 0; jr < rx->epc; jr++) {
			/* 2. the thread's elements of this result, pairwise */
			int64_t n = 0;
			for (int64_t cn = 0; cn < ix->ncopies; cn++)
				for (int64_t j = 0; dst[cn] == rc && j < ix->epc; j++) {
					if (!fold && j != jr)
						continue;
					x[n] = source_elem(s, &ra, src, nsrc, cn * ix->epc + j);
					if (ix->d[k].limit)
						x[n] = in_window(s, op, &ra, x[n], index_coord(c, ix, k, cn, j), ix->d[k].limit);
					n++;
				}
			MOpnd acc = isel_expr_to_vgpr(s, seq ? fold_in_order(s, &ra, x, n) : fold_tree(s, &ra, x, n));
			acc = prefix ? across_lanes(s, &ra, acc, cluster) : across_lane_bits(s, op, &ra, acc, bits);
			if (cross) {
				int bytes = (int)(4 * all * (per_lane ? 64 : 1));
				bool reuse;
				int base = isel_lds_alloc(s, bytes, &reuse);
				if (base < 0) {
					analysis_error(c, op->loc, "%s: the cross-wave slots (%d bytes) do not fit in the %d KiB of "
								  "LDS left by %d allocated",
						op->path, bytes, s->f->target->lds_bytes / 1024, s->lds_top);
					return;
				}
				if (reuse)
					isel_lds_barrier(s);
				acc = across_waves(s, op, &ra, acc, waves, base, wid[g], wo, per_lane);
			}
			/* 5. init */
			int64_t e = rc * rx->epc + jr;
			res[e] = iv ? isel_red_combine(s, &ra, isel_red_elem(s, &ra, iv, e), acc, 0) : acc;
		}
	TVal *r = isel_red_result(s, &ra, res, rx->ncopies * rx->epc, rx);
	if (rx != want) {
		/* 6. into the result's layout (across lanes through LDS where
		 * they differ), then init */
		if (!(r = isel_tval_gather(s, r, want, op)))
			return;
		if (iv_late) {
			MOpnd *fin = ARENA_NEWN(&c->arena, MOpnd, want->ncopies * want->epc);
			for (int64_t e = 0; e < want->ncopies * want->epc; e++)
				fin[e] = isel_red_combine(s, &ra, isel_red_elem(s, &ra, iv_late, e), isel_red_elem(s, &ra, r, e), 0);
			r = isel_red_result(s, &ra, fin, want->ncopies * want->epc, want);
		}
	}
	s->val[op_result(op)->id] = r;
}
