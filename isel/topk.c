/* topk.c — topk (Wave's tkw.topk): the k largest elements of a value along
 * its reduced dim and their coordinates (docs/kernel-format.md, "topk").
 *
 * Algorithm (Wave's decompose_topk_ops: k rounds of an arg-max, each
 * excluding what the rounds before took), in a reduction's layout (the
 * dim over the 64 lanes, elements_per_thread each, passes/graph/indices.c):
 *   - each element becomes a 64-bit key, its order the topk's: the high
 *     dword the value's (floats: IEEE totalOrder made unsigned, x ^
 *     0x80000000 for x >= 0 and ~x below, every NaN of one sign the
 *     extreme key of its side; f16 and bf16 widened to f32 first; i32: x ^
 *     0x80000000; u32: x), the low dword ~coordinate, so that equal values
 *     rank the lower coordinate first; an element past the dim's end (or
 *     past the reduction's window) gets key 0, below every element;
 *   - a round: the lane's largest key, then a butterfly over the 64 lanes
 *     (ds_bpermute_b32 of both dwords from lane ^ m, m = 1, 2, ..., 32): all
 *     lanes end with the same largest key, whose low dword names the
 *     element; every lane sets the element with that low dword to key 0;
 *   - the value is the key's high dword mapped back (a NaN comes back as
 *     the canonical NaN of its sign), the coordinate ~low dword.
 * Every lane holds all k results (the results' layout gives each lane the
 * k_dim copies). Contract (located errors otherwise): the kernel's index
 * mode is the reduction's over the dim (no mma); the wave's window covers
 * the dim (no wave, workgroup or loop splits it), whose extent is a
 * compile-time integer of at least k_dim; f32, f16, bf16, i32 or u32. */
#include "reduce.h"

typedef struct Key {
	MOpnd hi, lo;
} Key;

static MOpnd v2(Isel *s, MOp op, MOpnd a, MOpnd b)
{
	MOpnd d = isel_v1(s), u[2] = {a, b};
	mblock_add(s->b, op, 1, &d, 2, u);
	return d;
}

static MOpnd v1(Isel *s, MOp op, MOpnd a)
{
	MOpnd d = isel_v1(s);
	mblock_add(s->b, op, 1, &d, 1, &a);
	return d;
}

/* d = vcc ? yes : no */
static MOpnd pick(Isel *s, MOpnd no, MOpnd yes)
{
	MOpnd d = isel_v1(s), u[3] = {isel_expr_to_vgpr(s, no), isel_expr_to_vgpr(s, yes), mo_special(MO_VCC)};
	mblock_add(s->b, I_V_CNDMASK_B32, 1, &d, 3, u)->flags |= MIF_E32;
	return d;
}

/* The high dword of the key of x (the reduction's domain: f32 bits or an
 * integer). */
static MOpnd key_of(Isel *s, DType t, MOpnd x)
{
	x = isel_expr_to_vgpr(s, x);
	if (t == DT_U32)
		return x;
	if (t == DT_I32)
		return v2(s, I_V_XOR_B32, mo_imm((int64_t)0x80000000), x);
	MOpnd sign = v2(s, I_V_ASHRREV_I32, mo_imm(31), x);
	MOpnd key = v2(s, I_V_XOR_B32, v2(s, I_V_OR_B32, mo_imm((int64_t)0x80000000), sign), x);
	MOpnd u[2] = {x, x}, vcc = mo_special(MO_VCC);
	mblock_add(s->b, I_V_CMP_U_F32, 1, &vcc, 2, u)->flags |= MIF_E32;
	return pick(s, key, v1(s, I_V_NOT_B32, sign)); /* NaN: 0 below, all ones above */
}

/* The value (domain) of a key's high dword. */
static MOpnd value_of(Isel *s, DType t, MOpnd k)
{
	if (t == DT_U32)
		return k;
	if (t == DT_I32)
		return v2(s, I_V_XOR_B32, mo_imm((int64_t)0x80000000), k);
	MOpnd top = v2(s, I_V_ASHRREV_I32, mo_imm(31), k);
	return v2(s, I_V_XOR_B32, v2(s, I_V_OR_B32, mo_imm((int64_t)0x80000000), v1(s, I_V_NOT_B32, top)), k);
}

/* vcc = a's key above b's (unsigned, high dword first). */
static void above(Isel *s, Key a, Key b)
{
	MOpnd vcc = mo_special(MO_VCC);
	MOpnd gt = mo_vreg(mfunc_vreg(s->f, RC_S2), RC_S2), eq = mo_vreg(mfunc_vreg(s->f, RC_S2), RC_S2);
	MOpnd u[2] = {a.hi, b.hi};
	mblock_add(s->b, I_V_CMP_GT_U32, 1, &vcc, 2, u)->flags |= MIF_E32;
	mblock_add(s->b, I_S_MOV_B64, 1, &gt, 1, &vcc);
	mblock_add(s->b, I_V_CMP_EQ_U32, 1, &vcc, 2, u)->flags |= MIF_E32;
	mblock_add(s->b, I_S_MOV_B64, 1, &eq, 1, &vcc);
	MOpnd w[2] = {a.lo, b.lo};
	mblock_add(s->b, I_V_CMP_GT_U32, 1, &vcc, 2, w)->flags |= MIF_E32;
	MOpnd x[2] = {eq, vcc};
	mblock_add(s->b, I_S_AND_B64, 1, &vcc, 2, x);
	MOpnd y[2] = {gt, vcc};
	mblock_add(s->b, I_S_OR_B64, 1, &vcc, 2, y);
}

/* The larger of keys a and b. */
static Key larger(Isel *s, Key a, Key b)
{
	above(s, a, b);
	return (Key){pick(s, b.hi, a.hi), pick(s, b.lo, a.lo)};
}

/* Whether the reduced dim r of ix spreads over the 64 lanes (a distinct
 * coordinate per lane) and every other dim is the same in all of them. */
static bool lanes_hold_dim(Analysis *c, const NodeIndex *ix, int r)
{
	int64_t at[64];
	for (int i = 0; i < ix->ndims; i++)
		for (int l = 0; l < 64; l++) {
			if (!isel_at_lane(c, index_coord(c, ix, i, 0, 0), l, &at[l]))
				return false;
			if (i != r && at[l] != at[0])
				return false;
			for (int m = 0; i == r && m < l; m++)
				if (at[m] == at[l])
					return false;
		}
	return true;
}

/* The reason topk op (its value in layout ix, dim at position r) is not
 * compiled, or NULL. */
static const char *unsupported(Isel *s, Op *op, const NodeIndex *ix, int r, int64_t *n, int64_t *k)
{
	Analysis *c = s->c;
	DType t = op->args[0]->dtype;
	if (t != DT_F32 && t != DT_F16 && t != DT_BF16 && t != DT_I32 && t != DT_U32)
		return "only f32, f16, bf16, i32 and u32 values are";
	if (c->mode != IM_REDUCE || r < 0)
		return "only in a kernel whose values have a reduction's layout along the dim (no mma) is it";
	const DimDist *d = analysis_dist(c, op->dim);
	if ((d && (analysis_many(d->count) || d->waves > 1)) || analysis_tile(c, op->dim))
		return "a dim split over workgroups, waves or loop trips is not";
	if (analysis_runtime(c, op->dim) || analysis_runtime(c, op->kdim))
		return "a dim or k_dim known at run time only is not";
	*n = analysis_int(c, op->dim, op->loc, sym_name(op->dim));
	*k = analysis_int(c, op->kdim, op->loc, sym_name(op->kdim));
	if (c->failed)
		return "";
	if (*k < 1 || *k > *n)
		return "k_dim must be in [1, the dim's extent]: it is not";
	if (!lanes_hold_dim(c, ix, r))
		return "this layout (the dim not over the 64 lanes) is not";
	return NULL;
}

void isel_select_topk(Isel *s, Op *op)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	Value *a = op->args[0];
	const TVal *v = s->val[a->id];
	const NodeIndex *rx = c->index[op->id];
	if (!v || !v->ix || !rx)
		return;
	const NodeIndex *ix = v->ix;
	int r = -1;
	for (int i = 0; i < ix->ndims; i++)
		if (ix->d[i].dim == op->dim)
			r = i;
	int64_t n = 0, k = 0;
	const char *why = unsupported(s, op, ix, r, &n, &k);
	if (why) {
		if (!c->failed)
			analysis_error(c, op->loc, "%s: topk along %s: %s compiled yet", op->path, sym_name(op->dim), why);
		return;
	}
	RedArith ra = {.kind = OP_MAX, .dtype = a->dtype == DT_U32 ? DT_I32 : a->dtype};
	const DimIndex *dr = &ix->d[r];
	/* the results' layout: the source's with the dim's copies and run
	 * replaced by k_dim's k copies of one element */
	int q = -1;
	for (int i = 0; i < rx->ndims; i++)
		if (rx->d[i].dim == op->kdim)
			q = i;
	bool same = q >= 0 && rx->ndims == ix->ndims && rx->epc == 1 && rx->d[q].copies == k && ix->epc == dr->size;
	for (int i = 0; same && i < ix->ndims; i++)
		same = i == q || (rx->d[i].dim == ix->d[i].dim && rx->d[i].copies == ix->d[i].copies);
	if (!same || q != r) {
		analysis_error(c, op->loc, "%s: topk: its results' layout is not the source's with %s in %s's place: not "
					  "compiled yet",
			op->path, sym_name(op->kdim), sym_name(op->dim));
		return;
	}
	/* the lanes' partners for the butterfly: byte addresses (lane ^ m) * 4 */
	MOpnd partner[6];
	for (int b = 0; b < 6; b++) {
		Sym *t0 = sym_mod(sc, sym_symbol(sc, "$T0"), sym_int(sc, 64)), *m = sym_int(sc, 1 << b);
		Sym *x = sym_add(sc, sym_mod(sc, sym_add(sc, t0, m), sym_int(sc, 2 << b)),
			sym_sub(sc, t0, sym_mod(sc, t0, sym_int(sc, 2 << b)))); /* lane with bit b flipped */
		partner[b] = isel_expr_to_vgpr(s, isel_expr_lower(s, sym_simplify(sc, sym_mul(sc, x, sym_int(sc, 4)),
									   c->assume),
							  op->loc));
	}
	int64_t per = dr->copies * dr->size; /* elements along the dim per lane */
	int64_t outer = ix->ncopies / dr->copies, after = 1;
	for (int i = r + 1; i < ix->ndims; i++)
		after *= ix->d[i].copies;
	MOpnd *val = ARENA_NEWN(&c->arena, MOpnd, (size_t)(outer * k) + 1);
	TVal *idx = isel_tval_new(s, DT_I32, outer * k, rx);
	Key *key = ARENA_NEWN(&c->arena, Key, (size_t)per + 1);
	Sym *size = sym_int(sc, n);
	for (int64_t o = 0; o < outer && !c->failed; o++) {
		/* copy numbers: o splits into the dims before r (slower) and after */
		int64_t hi = o / after, lo = o % after;
		for (int64_t e = 0; e < per; e++) {
			int64_t cn = (hi * dr->copies + e / dr->size) * after + lo, j = e % dr->size;
			int64_t el = cn * ix->epc + j;
			Sym *co = index_coord(c, ix, r, cn, j);
			key[e].hi = key_of(s, a->dtype, isel_red_elem(s, &ra, v, el));
			key[e].lo = v1(s, I_V_NOT_B32, isel_expr_to_vgpr(s, isel_expr_lower(s, co, op->loc)));
			/* past the dim's end or the reduction's window: no element */
			Sym *conds[2];
			int nc = 0;
			Sym *in = sym_simplify(sc, sym_rel(sc, SYM_LT, co, size), c->assume);
			if (sym_kind(in) != SYM_TRUE)
				conds[nc++] = in;
			if (dr->limit) {
				in = sym_simplify(sc, sym_rel(sc, SYM_LT, co, sym_int(sc, dr->limit)), c->assume);
				if (sym_kind(in) != SYM_TRUE)
					conds[nc++] = in;
			}
			uint32_t mask;
			bool in_vcc;
			if (nc && isel_expr_conds_mask(s, nc, conds, op->loc, &mask, &in_vcc)) {
				if (!in_vcc) {
					MOpnd vcc = mo_special(MO_VCC), m = mo_vreg(mask, RC_S2);
					mblock_add(s->b, I_S_MOV_B64, 1, &vcc, 1, &m);
				}
				key[e].hi = pick(s, mo_imm(0), key[e].hi);
				key[e].lo = pick(s, mo_imm(0), key[e].lo);
			}
		}
		for (int64_t round = 0; round < k; round++) {
			Key best = key[0];
			for (int64_t e = 1; e < per; e++)
				best = larger(s, key[e], best);
			for (int b = 0; b < 6; b++) {
				Key t = {isel_v1(s), isel_v1(s)};
				MOpnd u[2] = {partner[b], best.hi};
				mblock_add(s->b, I_DS_BPERMUTE_B32, 1, &t.hi, 2, u);
				u[1] = best.lo;
				mblock_add(s->b, I_DS_BPERMUTE_B32, 1, &t.lo, 2, u);
				best = larger(s, t, best);
			}
			int64_t re = (hi * k + round) * after + lo; /* the result's element */
			val[re] = value_of(s, a->dtype, best.hi);
			idx->d[re] = v1(s, I_V_NOT_B32, best.lo);
			if (round + 1 == k)
				break;
			for (int64_t e = 0; e < per; e++) { /* the element taken drops out */
				MOpnd u[2] = {key[e].lo, best.lo}, vcc = mo_special(MO_VCC);
				mblock_add(s->b, I_V_CMP_EQ_U32, 1, &vcc, 2, u)->flags |= MIF_E32;
				key[e].hi = pick(s, key[e].hi, mo_imm(0));
				key[e].lo = pick(s, key[e].lo, mo_imm(0));
			}
		}
	}
	if (c->failed)
		return;
	TVal *vals;
	if (dtype_size(a->dtype) == 4) { /* the domain is the dtype's own */
		vals = isel_tval_new(s, a->dtype, outer * k, rx);
		for (int64_t e = 0; e < outer * k; e++)
			vals->d[e] = val[e];
	} else {
		vals = isel_red_result(s, &ra, val, outer * k, rx);
	}
	s->val[op->results[0]->id] = vals;
	s->val[op->results[1]->id] = idx;
}
