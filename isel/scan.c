/* scan.c — cumsum (an inclusive prefix sum along one dim) of 32-bit
 * integers, within the wave and, with `block`, across the waves of the
 * workgroup (the interpreter's semantics: interp/scan.c); of f32 and f16
 * within the wave, in element order (seq_scan: float adds do not
 * reassociate, so the parallel steps below would round differently).
 *
 * Layout: in each copy of the value, lane l holds the e consecutive
 * elements l*e .. l*e + e - 1 of the wave's window along the dim (the
 * read/write layout of a dim on workgroup dim 0 whose wave tile is 64*e),
 * nothing else varying with the lane; copies (along other dims, Wave's
 * vector shape 0 of test_self_index) scan on their own. Other layouts are
 * reported. Algorithm, per copy:
 *   1. the lane's elements in order: p[j] = p[j-1] + x[j];
 *   2. an inclusive scan of the lane totals t = p[e-1] across the wave:
 *      within each row of 16 lanes, four steps acc += acc from 1, 2, 4, 8
 *      lanes below (v_add_u32_dpp row_shr:k into a copy of acc, so the lanes
 *      whose source lies before their row keep acc: DPP with bound_ctrl off
 *      does not write them); then rows: lanes from 16, 32, 48 on add the
 *      row totals read from lanes 15, 31, 47 (v_readlane, v_cndmask);
 *   3. the lane's exclusive prefix is that minus t; element j is p[j] plus it;
 *   4. block (one copy): every wave stores its total (lane 63) to an LDS
 *      slot, meets the others at s_barrier and adds the slots of the waves
 *      before it along the dim (a v_cndmask per slot on wave id < slot), in
 *      order.
 * A lane's run may also come in copies along the dim itself (32-bit
 * integers): they follow one another and chain (chained_scan). */
#include <string.h>

#include "elt.h"

/* Is copy cn of ix the layout of the file comment along dim position k,
 * e each? */
static bool lane_runs(Analysis *c, const NodeIndex *ix, int k, int64_t e, int64_t cn)
{
	int64_t base, v;
	if (ix->epc != e || ix->d[k].size != e || !isel_at_lane(c, index_coord(c, ix, k, cn, 0), 0, &base))
		return false;
	for (int64_t l = 0; l < 64; l++)
		for (int i = 0; i < ix->ndims; i++) {
			int64_t v0;
			if (!isel_at_lane(c, index_coord(c, ix, i, cn, 0), 0, &v0) ||
				!isel_at_lane(c, index_coord(c, ix, i, cn, 0), l, &v))
				return false;
			if (i == k ? v != base + l * e : v != v0)
				return false;
		}
	return true;
}

static MOpnd vop2(Isel *s, MOp op, MOpnd a, MOpnd b)
{
	MOpnd d = isel_v1(s), u[2] = {a, b};
	mblock_add(s->b, op, 1, &d, 2, u);
	return d;
}

/* Step 2: the inclusive scan of t across the 64 lanes. */
static MOpnd wave_scan(Isel *s, Op *op, MOpnd t)
{
	SymCtx *sc = s->c->k->sc;
	MOpnd acc = t;
	for (int k = 1; k <= 8; k *= 2) {
		MOpnd d = isel_v1(s);
		mblock_add(s->b, I_V_MOV_B32, 1, &d, 1, &acc);
		MOpnd u[2] = {acc, acc};
		MInst *in = mblock_add(s->b, I_V_ADD_U32, 1, &d, 2, u);
		in->dpp = (uint16_t)(0x110 + k); /* row_shr:k */
		in->flags |= MIF_TIED;           /* lanes without a source keep d */
		acc = d;
	}
	MOpnd lane = isel_expr_to_vgpr(s, isel_expr_lower(s, sym_mod(sc, sym_symbol(sc, "$T0"), sym_int(sc, 64)), op->loc));
	MOpnd row[3];
	for (int r = 0; r < 3; r++) {
		row[r] = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1);
		MOpnd u[2] = {acc, mo_imm(16 * r + 15)};
		mblock_add(s->b, I_V_READLANE_B32, 1, &row[r], 2, u);
	}
	for (int r = 0; r < 3; r++) {
		MOpnd vcc = mo_special(MO_VCC), u[2] = {mo_imm(16 * r + 15), lane}; /* 16r + 15 < lane */
		mblock_add(s->b, I_V_CMP_LT_I32, 1, &vcc, 2, u)->flags |= MIF_E32;
		MOpnd rv = isel_v1(s);
		mblock_add(s->b, I_V_MOV_B32, 1, &rv, 1, &row[r]);
		MOpnd add = isel_v1(s), m[3] = {mo_imm(0), rv, mo_special(MO_VCC)};
		mblock_add(s->b, I_V_CNDMASK_B32, 1, &add, 3, m)->flags |= MIF_E32;
		acc = vop2(s, I_V_ADD_U32, acc, add);
	}
	return acc;
}

/* Step 4: the totals of the waves before this one along the dim (wave id
 * wr of `waves`, other waves wo), through LDS; 0 after reporting. */
static MOpnd waves_before(Isel *s, Op *op, MOpnd total, int waves, Sym *wr, Sym *wo)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	int64_t all = (int64_t)(c->wg_size[0] / 64) * c->wg_size[1] * c->wg_size[2];
	bool reuse;
	int base = isel_lds_alloc(s, (int)(4 * all), &reuse);
	if (base < 0) {
		analysis_error(c, op->loc, "%s: the cross-wave slots do not fit in the LDS left", op->path);
		return mo_imm(0);
	}
	if (reuse || s->iv_sym)
		isel_lds_barrier(s);
	Sym *row = sym_mul(sc, wo, sym_int(sc, waves));
	Sym *slot = sym_add(sc, sym_mul(sc, sym_add(sc, row, wr), sym_int(sc, 4)), sym_int(sc, base));
	Sym *first = sym_add(sc, sym_mul(sc, row, sym_int(sc, 4)), sym_int(sc, base));
	MOpnd addr = isel_expr_to_vgpr(s, isel_expr_lower(s, sym_simplify(sc, slot, c->assume), op->loc));
	MOpnd tv = isel_v1(s);
	mblock_add(s->b, I_V_MOV_B32, 1, &tv, 1, &total);
	MOpnd u[2] = {addr, tv};
	mblock_add(s->b, I_DS_WRITE_B32, 0, NULL, 2, u);
	MInst *w = mblock_add(s->b, I_S_WAITCNT, 0, NULL, 0, NULL);
	w->lgkmcnt = 0; /* the slot is written before the others may read it */
	mblock_add(s->b, I_S_BARRIER, 0, NULL, 0, NULL);
	MOpnd a0 = isel_expr_to_vgpr(s, isel_expr_lower(s, sym_simplify(sc, first, c->assume), op->loc));
	MOpnd me = isel_expr_to_vgpr(s, isel_expr_lower(s, sym_simplify(sc, wr, c->assume), op->loc));
	MOpnd sum = {0};
	for (int i = 0; i + 1 < waves; i++) { /* the last wave's total precedes nobody */
		MOpnd t = isel_v1(s);
		MInst *in = mblock_add(s->b, I_DS_READ_B32, 1, &t, 1, &a0);
		in->offset = 4 * i;
		MOpnd vcc = mo_special(MO_VCC), cu[2] = {mo_imm(i), me}; /* i < wave id */
		mblock_add(s->b, I_V_CMP_LT_I32, 1, &vcc, 2, cu)->flags |= MIF_E32;
		MOpnd add = isel_v1(s), m[3] = {mo_imm(0), t, mo_special(MO_VCC)};
		mblock_add(s->b, I_V_CNDMASK_B32, 1, &add, 3, m)->flags |= MIF_E32;
		sum = sum.kind ? vop2(s, I_V_ADD_U32, sum, add) : add;
	}
	return sum.kind ? sum : mo_imm(0);
}

/* Float cumsum of copy x (e elements a lane, consecutive along the dim,
 * lane l holding l*e .. l*e + e - 1) into out: in element order, one add
 * at a time, as the interpreter accumulates (interp/scan.c), so each
 * partial sum is rounded exactly as there. acc (the same in every lane)
 * takes lane l's elements, read by v_readlane, in turn, and lane l's
 * results are taken from it with a v_cndmask on lane == l. f16 elements
 * are added with v_add_f16 on the low halves of their own dwords (half:
 * the high halves shifted down first) and packed at the end. */
static void seq_scan(Isel *s, Op *op, const TVal *v, int64_t cn, int64_t e, TVal *r)
{
	SymCtx *sc = s->c->k->sc;
	bool f16 = v->dtype == DT_F16;
	MOp add = f16 ? I_V_ADD_F16 : I_V_ADD_F32;
	MOpnd *x = ARENA_NEWN(&s->c->arena, MOpnd, e), *y = ARENA_NEWN(&s->c->arena, MOpnd, e);
	for (int64_t j = 0; j < e; j++) {
		int64_t el = cn * e + j;
		x[j] = isel_vgpr(s, v->packed ? v->d[el / 2] : v->d[el]);
		if (v->packed && el % 2)
			x[j] = vop2(s, I_V_LSHRREV_B32, mo_imm(16), x[j]);
		y[j] = isel_v1(s);
		isel_mov(s, y[j], mo_imm(0));
	}
	MOpnd lane = isel_expr_to_vgpr(s, isel_expr_lower(s, sym_mod(sc, sym_symbol(sc, "$T0"), sym_int(sc, 64)), op->loc));
	MOpnd acc = isel_v1(s);
	isel_mov(s, acc, mo_imm(0));
	for (int l = 0; l < 64; l++) {
		MOpnd vcc = mo_special(MO_VCC), cu[2] = {mo_imm(l), lane};
		mblock_add(s->b, I_V_CMP_EQ_U32, 1, &vcc, 2, cu)->flags |= MIF_E32;
		for (int64_t j = 0; j < e; j++) {
			MOpnd t = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), u[2] = {x[j], mo_imm(l)};
			mblock_add(s->b, I_V_READLANE_B32, 1, &t, 2, u);
			acc = vop2(s, add, t, acc);
			MOpnd d = isel_v1(s), m[3] = {y[j], acc, mo_special(MO_VCC)};
			mblock_add(s->b, I_V_CNDMASK_B32, 1, &d, 3, m)->flags |= MIF_E32;
			y[j] = d;
		}
	}
	for (int64_t j = 0; j < e; j++) {
		int64_t el = cn * e + j;
		if (!r->packed)
			r->d[el] = y[j];
		else if (el % 2)
			r->d[el / 2] = isel_elt_pack_halves(s, y[j - 1], false, y[j], false);
		else if (j + 1 == e) /* an odd run: its last element alone */
			r->d[el / 2] = y[j];
	}
}

/* Steps 1 to 3 for the e elements x of one copy: the lane's running sums
 * into p (p[e - 1] its total), the wave's inclusive scan of the totals into
 * *incl; returns the lane's exclusive prefix (incl less its own total). */
static MOpnd lane_and_wave(Isel *s, Op *op, const MOpnd *x, int64_t e, MOpnd *p, MOpnd *incl)
{
	p[0] = isel_vgpr(s, x[0]);
	for (int64_t j = 1; j < e; j++)
		p[j] = vop2(s, I_V_ADD_U32, p[j - 1], isel_vgpr(s, x[j]));
	*incl = wave_scan(s, op, p[e - 1]);
	return vop2(s, I_V_SUB_U32, *incl, p[e - 1]);
}

/* Copies along the scanned dim (a lane's run longer than one copy holds:
 * indices.c default_ept's divisor): copy cn covers the wave's window from
 * cn*64*e on, so its scan starts from carry, the total of the copies
 * before it (the same in every lane: v_readlane of lane 63's inclusive
 * sum, added on the SALU); with `block` the waves before this one add the
 * wave's total over all copies to every element (step 4). */
static void chained_scan(Isel *s, Op *op, const TVal *v, int64_t C, int64_t e, bool cross, int waves, TVal *r)
{
	SymCtx *sc = s->c->k->sc;
	MOpnd carry = {0};
	MOpnd *p = ARENA_NEWN(&s->c->arena, MOpnd, e);
	for (int64_t cn = 0; cn < C; cn++) {
		MOpnd incl, excl = lane_and_wave(s, op, v->d + cn * e, e, p, &incl);
		if (carry.kind)
			excl = vop2(s, I_V_ADD_U32, carry, excl);
		for (int64_t j = 0; j < e; j++)
			r->d[cn * e + j] = vop2(s, I_V_ADD_U32, p[j], excl);
		MOpnd tot = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), u[2] = {incl, mo_imm(63)};
		mblock_add(s->b, I_V_READLANE_B32, 1, &tot, 2, u);
		if (carry.kind) {
			MOpnd d = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), w[2] = {carry, tot};
			mblock_add(s->b, I_S_ADD_U32, 1, &d, 2, w);
			tot = d;
		}
		carry = tot;
	}
	if (!cross)
		return;
	Sym *wr = sym_floor(sc, sym_div(sc, sym_symbol(sc, "$T0"), sym_int(sc, 64)));
	MOpnd before = waves_before(s, op, carry, waves, wr, sym_int(sc, 0));
	if (s->c->failed || before.kind != MO_VREG)
		return;
	for (int64_t i = 0; i < C * e; i++)
		r->d[i] = vop2(s, I_V_ADD_U32, r->d[i], before);
}

/* Do the C copies of ix (all along dim position k, e each) follow one
 * another along it, 64*e apart? */
static bool copies_follow(Analysis *c, const NodeIndex *ix, int k, int64_t e, int64_t C)
{
	int64_t b0, b;
	if (!isel_at_lane(c, index_coord(c, ix, k, 0, 0), 0, &b0))
		return false;
	for (int64_t cn = 1; cn < C; cn++)
		if (!isel_at_lane(c, index_coord(c, ix, k, cn, 0), 0, &b) || b != b0 + cn * 64 * e)
			return false;
	return true;
}

void isel_select_scan(Isel *s, Op *op)
{
	Analysis *c = s->c;
	TVal *v = s->val[op->args[0]->id];
	if (!v)
		return;
	bool fp = v->dtype == DT_F32 || v->dtype == DT_F16;
	if (v->dtype != DT_I32 && v->dtype != DT_U32 && !fp) {
		analysis_error(c, op->loc, "%s: cumsum of %s is not compiled yet (32-bit integers, f32 and f16 are)",
			op->path, dtype_name(v->dtype));
		return;
	}
	const NodeIndex *ix = v->ix;
	int k = -1;
	for (int i = 0; ix && i < ix->ndims; i++)
		if (ix->d[i].dim == op->dim)
			k = i;
	const DimDist *dd = analysis_dist(c, op->dim);
	int64_t e = k >= 0 ? ix->d[k].size : 0;
	/* C > 1: copies along the dim, chained (only those copies) */
	int64_t C = k >= 0 ? ix->d[k].copies : 1;
	bool chained = C > 1 && ix->ncopies == C && v->dtype != DT_F32 && v->dtype != DT_F16;
	bool runs = k >= 0 && dd && dd->wg_dim == 0 && dd->wave_tile == 64 * e * (chained ? C : 1) && !ix->d[k].limit;
	for (int64_t cn = 0; runs && cn < ix->ncopies; cn++)
		runs = lane_runs(c, ix, k, e, cn);
	runs = runs && (!chained || copies_follow(c, ix, k, e, C));
	if (!runs) {
		analysis_error(c, op->loc, "%s: cumsum over %s in this layout is not compiled yet (lanes must hold "
					  "consecutive runs covering the wave's window of a dim on workgroup dim 0)",
			op->path, sym_name(op->dim));
		return;
	}
	bool cross = op->block && dd->waves > 1;
	SymCtx *sc = c->k->sc;
	if (cross && (c->wg_size[0] / 64 != dd->waves || c->wg_size[1] * c->wg_size[2] != 1 || (ix->ncopies != 1 && !chained))) {
		analysis_error(c, op->loc, "%s: a block cumsum with waves along other dims than %s, or of a value "
					  "with several copies, is not compiled yet",
			op->path, sym_name(op->dim));
		return;
	}
	if (fp && cross) {
		analysis_error(c, op->loc, "%s: a block cumsum of %s across %d waves is not compiled yet (floats scan "
					  "within a wave)",
			op->path, dtype_name(v->dtype), dd->waves);
		return;
	}
	if (fp && v->packed && e % 2) {
		analysis_error(c, op->loc, "%s: a cumsum of f16 with an odd number of elements a lane is not compiled yet",
			op->path);
		return;
	}
	v = isel_tval_in_vgprs(s, v);
	TVal *r = ARENA_NEW(&c->arena, TVal);
	*r = *v;
	r->d = ARENA_NEWN(&c->arena, MOpnd, v->nd ? v->nd : 1);
	if (fp) {
		for (int64_t cn = 0; cn < ix->ncopies; cn++)
			seq_scan(s, op, v, cn, e, r);
		s->val[op_result(op)->id] = r;
		return;
	}
	if (chained) {
		chained_scan(s, op, v, C, e, cross, dd->waves, r);
		s->val[op_result(op)->id] = r;
		return;
	}
	MOpnd *p = ARENA_NEWN(&c->arena, MOpnd, e);
	for (int64_t cn = 0; cn < ix->ncopies; cn++) {
		MOpnd incl, excl = lane_and_wave(s, op, v->d + cn * e, e, p, &incl); /* 1. to 3. */
		if (cross) {
			MOpnd total = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), u[2] = {incl, mo_imm(63)};
			mblock_add(s->b, I_V_READLANE_B32, 1, &total, 2, u);
			Sym *wr = sym_floor(sc, sym_div(sc, sym_symbol(sc, "$T0"), sym_int(sc, 64)));
			MOpnd before = waves_before(s, op, total, dd->waves, wr, sym_int(sc, 0));
			if (c->failed)
				return;
			if (before.kind == MO_VREG)
				excl = vop2(s, I_V_ADD_U32, excl, before);
		}
		for (int64_t j = 0; j < e; j++)
			r->d[cn * e + j] = vop2(s, I_V_ADD_U32, p[j], excl);
	}
	s->val[op_result(op)->id] = r;
}
