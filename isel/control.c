/* control.c — instruction selection for `conditional` (Wave's
 * tkw.conditional). A condition that is an expression of symbols is
 * wave-uniform and becomes a scalar branch around the body (select_uniform);
 * a condition value runs the body under an exec mask:
 *
 * The condition holds per lane: each lane holds one element of it (its
 * coordinates must be those of every element the body writes or returns in
 * that lane, checked against the indices), or it has rank 0 (the same in
 * every lane). The code is
 *     v_cmp_ne_u32 vcc, 0, cond          ; the lanes where it holds
 *     s_and_saveexec_b64 saved, vcc      ; exec &= vcc, old exec kept
 *     ... body ...
 *     s_or_b64 exec, exec, saved         ; every lane again
 * and each result is then v_cndmask(else value, body value) per dword.
 * Scalar (SALU) instructions of the body run whatever exec is, which is
 * harmless: they compute addresses and sizes. What the body lowers into
 * VGPRs holds only its active lanes' values, so the expression cache and the
 * work-item ids made inside are forgotten at its end. Ops whose lanes talk
 * to each other (reductions, MMAs, LDS staging) are rejected inside a masked
 * body: a masked lane would feed them stale values; loops inside either.
 * A condition the uniformity analysis (passes/graph/uniform.c) proves the
 * same in every lane of the wave runs its body under a scalar branch
 * instead, with every lane: v_cmp into vcc, s_and_b64 with exec into scc,
 * s_cbranch_scc0 past the body (so may a loop inside it; a condition of
 * rank > 0 still needs each write and result at the condition's
 * coordinates); any other condition around a loop is a located error
 * naming the iterate.
 * A body holding a barrier (explicit, or one the allocations' plan puts
 * there: local.c allows them only under such a uniform condition), or an op
 * whose lanes talk to each other, runs under the same scalar branch when
 * its condition is uniform, so that every wave of the workgroup takes
 * the branch or none does and they all meet at the same barriers.
 * A condition of several elements per lane (select_per_element): the body,
 * only elementwise ops and global reads and writes, runs in every lane;
 * each write stores an element only where its own condition element holds
 * (Isel.wcond: memory.c gives the others the out-of-range offset), and each
 * result is chosen element by element (v_cndmask per dword, or v_bfi_b32
 * with a mask of the halves for 16-bit pairs).
 * A loop's while body (Op.while_body, frontend/load_while.c: the body of
 * a loop whose condition names carried values, under that condition)
 * leaves the loop where no lane runs it (early_exit): s_and_b64 of vcc
 * with exec, s_cbranch_scc0 to the block after the loop; a rank-0 carried
 * value made of uniform values counts as uniform (the analysis' carried
 * values), so a condition on one is a scalar branch and the body runs with
 * every lane.
 * Also here: Wave's counter waits and scheduling hints (isel_select_hint). */
#include <string.h>

#include "elt.h"

/* Is every element of ix in this lane at the condition's coordinates? */
static bool agrees(Isel *s, const NodeIndex *cix, const NodeIndex *ix)
{
	Analysis *c = s->c;
	if (!cix || !ix)
		return false;
	for (int i = 0; i < cix->ndims; i++) {
		int j = 0;
		while (j < ix->ndims && ix->d[j].dim != cix->d[i].dim)
			j++;
		if (j == ix->ndims)
			return false;
		Sym *want = index_coord(c, cix, i, 0, 0);
		for (int64_t cn = 0; cn < ix->ncopies; cn++)
			for (int64_t e = 0; e < ix->epc; e++)
				if (index_coord(c, ix, j, cn, e) != want)
					return false;
	}
	return true;
}

/* Does op need every lane (its lanes talk to each other: MMAs, reductions,
 * LDS staging of a shared argument), or is it a loop? */
static bool needs_all_lanes(const Op *op)
{
	return op->kind == OP_ITERATE || op->kind == OP_MMA || op->kind == OP_SCALED_MMA || op_is_reduce(op->kind) ||
	       op->kind == OP_CUMSUM ||
	       (op->kind == OP_READ && op->args[0]->space == AS_SHARED && !op->mapping && !value_is_local(op->args[0])) ||
	       (op->kind == OP_WRITE && op->args[1]->space == AS_SHARED && !value_is_local(op->args[1]));
}

/* How a message names conditional op: a while body (Op.while_body) by its
 * loop, as the input wrote no conditional there. */
static const char *where(const Isel *s, const Op *op)
{
	const Op *l = op->parent ? op->parent->owner : NULL;
	if (op->while_body && l)
		return arena_printf(&s->c->arena, "the loop '%s' (its condition on carried values)", l->name);
	return arena_printf(&s->c->arena, "the conditional '%s'", op->name);
}

/* Reject what a body cannot run (masked: anything whose lanes talk to each
 * other, and loops; under a scalar branch, with every lane, nothing); check
 * each masked write's layout. */
static bool body_ok(Isel *s, Op *cop, const NodeIndex *cix, Region *r, bool masked)
{
	Analysis *c = s->c;
	for (size_t i = 0; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		bool bad = masked && needs_all_lanes(op);
		if (bad) {
			analysis_error(c, op->loc, "%s: op '%s' inside %s is not compiled yet", op->path, op_name(op->kind),
				where(s, cop));
			return false;
		}
		/* (an allocation's stores too: local.c runs them under the mask) */
		bool store = op->kind == OP_WRITE || (op_stores(op->kind) && value_is_local(op_memory(op)));
		if (store && cix && !agrees(s, cix, c->index[op->id])) {
			analysis_error(c, op->loc,
				"%s: a lane writes elements at other coordinates than its element of the condition of '%s': "
				"not compiled yet",
				op->path, cop->name);
			return false;
		}
		if (op->body && !body_ok(s, cop, cix, op->body, masked))
			return false;
	}
	return true;
}

/* The first loop in r or its nested bodies, or NULL. */
static const Op *first_loop(const Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (op->kind == OP_ITERATE)
			return op;
		const Op *l = op->body ? first_loop(op->body) : NULL;
		if (l)
			return l;
	}
	return NULL;
}

static bool has_lane_sym(const Sym *e);

/* Is v the same in every lane of the wave (wg: of every wave of the
 * workgroup too)? The uniformity analysis (passes/graph/uniform.c). */
static bool uniform_at(Isel *s, const Value *v, bool wg)
{
	return analysis_uniformity(s->c, v) >= (wg ? U_WG : U_WAVE);
}

/* vcc = the lanes whose element e of the condition is nonzero. */
static void elem_to_vcc(Isel *s, const TVal *cv, int64_t e)
{
	MOpnd x = isel_vgpr(s, cv->d[isel_elem_dword(cv, e)]);
	int bits = 8 * dtype_size(cv->dtype), part = (int)(e % isel_per_dword(cv));
	if (bits < 32) { /* only the element's own bits count */
		MOpnd t = isel_v1(s), u[3] = {x, mo_imm(part * bits), mo_imm(bits)};
		mblock_add(s->b, I_V_BFE_U32, 1, &t, 3, u);
		x = t;
	}
	MOpnd d = mo_special(MO_VCC), u[2] = {mo_imm(0), x};
	mblock_add(s->b, I_V_CMP_NE_U32, 1, &d, 2, u)->flags |= MIF_E32;
}

static void cond_to_vcc(Isel *s, const TVal *cv) { elem_to_vcc(s, cv, 0); }

MOpnd isel_cond_offset(Isel *s, const TVal *c, int64_t e, MOpnd voff)
{
	/* the constant in a VGPR: a VOP2 reading vcc takes no literal (one
	 * constant-bus read on gfx9) */
	MOpnd oob = isel_v1(s), k = mo_imm((int64_t)0x80000000);
	mblock_add(s->b, I_V_MOV_B32, 1, &oob, 1, &k);
	elem_to_vcc(s, c, e);
	return isel_elt_cnd(s, oob, isel_vgpr(s, voff));
}

/* Code made "once, in the entry block" (descriptors, runtime sizes, the
 * out-of-range offset) is appended to block 0 whenever it is first needed:
 * the conditional starts a block of its own so that block 0 ends before
 * the branch or the exec mask, and what is added there later runs
 * unconditionally with every lane. */
static void leave_entry_block(Isel *s)
{
	if (s->b == s->f->blocks.data[0])
		s->b = mfunc_block(s->f, NULL);
}

static bool has_lane_sym(const Sym *e)
{
	if (sym_kind(e) == SYM_SYMBOL && strncmp(sym_name(e), "$T", 2) == 0)
		return true;
	for (int i = 0; i < sym_nargs(e); i++)
		if (has_lane_sym(sym_arg(e, i)))
			return true;
	return false;
}

bool isel_cond_uniform(Isel *s, const Op *op)
{
	if (op->expr)
		return !has_lane_sym(op->expr);
	return uniform_at(s, op->args[op->ninit], true);
}

/* Does r (at any depth) hold a barrier: an explicit one, or one the
 * allocations' plan puts before an access (Isel.local_sync)? */
static bool has_barrier(const Isel *s, const Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (op_is_barrier(op->kind) || (s->local_sync && s->local_sync[op->id]))
			return true;
		if (op->body && has_barrier(s, op->body))
			return true;
	}
	return false;
}

/* The layout of the body's i-th output where the index analysis gives it
 * (a loop's result has its own output's), or NULL. */
static const NodeIndex *out_index(Isel *s, const Region *body, int i)
{
	const Op *out = vec_last(&body->ops);
	const Value *v = i < out->nargs ? out->args[i] : NULL;
	while (v && v->kind == VAL_RESULT && v->def->kind == OP_ITERATE) {
		const Op *o = vec_last(&v->def->body->ops);
		v = v->res_idx < o->nargs ? o->args[v->res_idx] : NULL;
	}
	if (!v || v->kind != VAL_RESULT || v->def->body || v->def->kind == OP_GET_RESULT || v->def->nresults != 1)
		return NULL;
	return s->c->index[v->def->id];
}

/* May the while body op (frontend/load_while.c) leave its loop when no
 * lane runs it? Then no later trip runs it either (its condition names only
 * values it keeps and symbols the loop does not change), so the loop's
 * exit is where the carried values already are. Only a plain loop
 * (isel.c: Isel.while_exit) whose body is the while body and its
 * condition. */
static bool early_exit(const Isel *s, const Op *op)
{
	return op->while_body && s->while_exit && op->parent && op->parent->owner &&
	       op->parent->owner->kind == OP_ITERATE;
}

/* scc = the uniform condition x OP 0 (OP from relation kind k; any other
 * expression: x != 0), in the forms s_cmp_lt_i32 / eq / lg take. */
static void cond_to_scc(Isel *s, SymKind k, MOpnd x)
{
	MOpnd u[2] = {x, mo_imm(0)};
	MOp op = I_S_CMP_LG_U32;
	switch (k) {
	case SYM_GT: op = I_S_CMP_LT_I32, u[0] = mo_imm(0), u[1] = x; break;  /* 0 < x */
	case SYM_GE: op = I_S_CMP_LT_I32, u[0] = mo_imm(-1), u[1] = x; break; /* -1 < x */
	case SYM_LT: op = I_S_CMP_LT_I32; break;                               /* x < 0 */
	case SYM_LE: op = I_S_CMP_LT_I32, u[1] = mo_imm(1); break;            /* x < 1 */
	case SYM_EQ: op = I_S_CMP_EQ_U32; break;
	default: break;
	}
	mblock_add(s->b, op, 0, NULL, 2, u);
}

/* A conditional on an expression of symbols: wave-uniform, so a scalar
 * branch around the body, which runs with every lane. A condition the
 * compiler can decide selects the body or nothing. Each result is a copy of
 * its else value made before the branch and overwritten at the body's end. */
static void select_uniform(Isel *s, Op *op, IselRegionFn region, const TVal *cv)
{
	Analysis *c = s->c;
	int n = op->ninit;
	Region *body = op->body;
	Sym *e = NULL;
	bool rel = false;
	int64_t known = -1, v;
	if (!cv) {
		if (has_lane_sym(op->expr)) {
			analysis_error(c, op->loc, "%s: a condition expression over work-item ids is not compiled yet",
				op->path);
			return;
		}
		e = sym_simplify(c->k->sc, kernel_subs(c->k, op->expr), c->assume);
		rel = sym_kind_is_rel(sym_kind(e));
		if (sym_kind(e) == SYM_TRUE || (sym_is_int(e, &v) && v))
			known = 1;
		else if (sym_kind(e) == SYM_FALSE || (sym_is_int(e, &v) && !v))
			known = 0;
	}
	TVal **res = ARENA_NEWN(&c->arena, TVal *, n + 1);
	for (int i = 0; i < n; i++) {
		TVal *ev = s->val[op->args[i]->id];
		if (!ev)
			return;
		if (known == 0) {
			s->val[op->results[i]->id] = ev;
			continue;
		}
		if (i < body->nparams)
			s->val[body->params[i]->id] = ev;
		/* the result takes the body's layout where it is known (an MMA's
		 * accumulator): the else value is moved into it */
		const NodeIndex *oix = out_index(s, body, i);
		if (oix && ev->ix && !isel_same_index(ev->ix, oix) && !(ev = isel_tval_gather(s, ev, oix, op)))
			return;
		ev = isel_tval_in_vgprs(s, ev);
		res[i] = ARENA_NEW(&c->arena, TVal);
		*res[i] = *ev;
		res[i]->splat = false; /* overwritten by the body's value */
		res[i]->d = ARENA_NEWN(&c->arena, MOpnd, ev->nd ? ev->nd : 1);
		for (int k = 0; k < ev->nd; k++) {
			res[i]->d[k] = isel_v1(s);
			isel_mov(s, res[i]->d[k], ev->d[k]);
		}
	}
	if (known == 0)
		return;
	leave_entry_block(s);
	MBlock *from = s->b;
	if (known < 0 && cv) {
		/* the same in every lane: scc = some active lane holds it */
		cond_to_vcc(s, cv);
		MOpnd t = mo_vreg(mfunc_vreg(s->f, RC_S2), RC_S2), u[2] = {mo_special(MO_VCC), mo_special(MO_EXEC)};
		mblock_add(s->b, I_S_AND_B64, 1, &t, 2, u);
		mblock_branch(s->b, I_S_CBRANCH_SCC0, 0); /* target set below */
		s->b = mfunc_block(s->f, NULL);
	} else if (known < 0) {
		MOpnd x = isel_expr_lower(s, rel ? sym_arg(e, 0) : e, op->loc);
		if (c->failed)
			return;
		cond_to_scc(s, rel ? sym_kind(e) : SYM_NE, isel_expr_to_sgpr(s, x));
		mblock_branch(s->b, I_S_CBRANCH_SCC0, 0); /* target set below */
		s->b = mfunc_block(s->f, NULL);
	}
	size_t cache_len = s->cache.len;
	uint32_t tid[3] = {s->tid[0], s->tid[1], s->tid[2]}, oob = s->oob;
	/* (a body around a loop runs with every lane: not masked) */
	s->masked += !cv;
	region(s, body);
	s->masked -= !cv;
	if (c->failed)
		return;
	if (n) {
		Op *out = vec_last(&body->ops);
		for (int i = 0; i < n; i++) {
			TVal *y = s->val[out->args[i]->id];
			if (y && y->ix && res[i]->ix && !isel_same_index(y->ix, res[i]->ix) &&
				!(y = isel_tval_gather(s, y, res[i]->ix, op)))
				return;
			if (!y || y->nd != res[i]->nd || y->packed != res[i]->packed) {
				analysis_error(c, op->loc, "%s: result %d: the body's value and the else value are laid out "
							   "differently: not compiled yet", op->path, i);
				return;
			}
			y = isel_tval_in_vgprs(s, y);
			for (int k = 0; k < y->nd; k++)
				isel_mov(s, res[i]->d[k], y->d[k]);
			s->val[op->results[i]->id] = res[i];
		}
	}
	if (known < 0) {
		/* values lowered in the body do not dominate what follows */
		s->cache.len = cache_len;
		for (int g = 0; g < 3; g++)
			s->tid[g] = tid[g];
		s->oob = oob;
		s->b = mfunc_block(s->f, NULL);
		if (cv && early_exit(s, op)) { /* a loop's while body that no lane runs: past the loop */
			for (size_t i = 0; i < s->f->blocks.len; i++)
				if (s->f->blocks.data[i] == from)
					vec_push(&s->exits, (int)i);
		} else
			vec_last(&from->insts).target = (int32_t)(s->f->blocks.len - 1);
	}
}

/* A body under a condition of several elements per lane: every lane runs
 * it (its ops are elementwise and reads, whose extra elements change
 * nothing), and each write stores only the elements whose own condition
 * element holds (memory.c through Isel.wcond: the others get the
 * out-of-range offset). Anything else in the body is a located error. */
static bool elem_body_ok(Isel *s, Op *cop, Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		OpClass k = op_class(op->kind);
		bool ok = k == OPC_SOURCE || k == OPC_UNARY || k == OPC_BINARY || k == OPC_COMPARE || k == OPC_SELECT ||
			  k == OPC_CAST || k == OPC_SHAPE || k == OPC_INDEX || op->kind == OP_OUTPUT || op_is_hint(op->kind) ||
			  (op->kind == OP_READ && !value_is_local(op->args[0]) && op->args[0]->space == AS_GLOBAL) ||
			  (op->kind == OP_WRITE && !value_is_local(op->args[1]) && op->args[1]->space == AS_GLOBAL);
		if (!ok) {
			analysis_error(s->c, op->loc, "%s: op '%s' inside %s, whose condition holds several "
						      "elements per thread, is not compiled yet (only elementwise ops, global "
						      "reads and writes)",
				op->path, op_name(op->kind), where(s, cop));
			return false;
		}
	}
	return true;
}

/* Result i of a per-element conditional: element by element the body's
 * value where the condition element holds, else the else value, in the
 * else value's layout (16-bit pairs through a mask of the halves and
 * v_bfi_b32). NULL after reporting. */
static TVal *select_elements(Isel *s, Op *op, int i, const TVal *cv, TVal *ev, const TVal *y)
{
	Analysis *c = s->c;
	ev = isel_tval_in_vgprs(s, ev);
	if (!ev->ix || (y->ix != ev->ix && !(y = isel_tval_gather(s, y, ev->ix, op))) ||
		(cv->ix != ev->ix && !(cv = isel_tval_gather(s, cv, ev->ix, op))))
		return NULL;
	y = isel_tval_in_vgprs(s, (TVal *)y);
	if (y->nd != ev->nd || y->n != ev->n || y->packed != ev->packed || cv->n != ev->n) {
		analysis_error(c, op->loc, "%s: result %d: the body's value and the else value are laid out differently: "
					   "not compiled yet", op->path, i);
		return NULL;
	}
	TVal *r = ARENA_NEW(&c->arena, TVal);
	*r = *ev;
	r->splat = false;
	r->d = ARENA_NEWN(&c->arena, MOpnd, ev->nd ? ev->nd : 1);
	int per = isel_per_dword(ev), bits = 32 / per;
	for (int k = 0; k < ev->nd; k++) {
		if (per == 1) {
			elem_to_vcc(s, cv, k);
			r->d[k] = isel_elt_cnd(s, ev->d[k], isel_vgpr(s, y->d[k]));
			continue;
		}
		MOpnd m = {0};
		for (int p = 0; p < per && (int64_t)k * per + p < ev->n; p++) {
			uint32_t field = (bits == 32 ? 0xffffffffu : ((1u << bits) - 1)) << (p * bits);
			elem_to_vcc(s, cv, (int64_t)k * per + p);
			MOpnd t = isel_elt_cnd(s, mo_imm(0), isel_elt_vconst_shared(s, field));
			m = p ? isel_elt_op2(s, I_V_OR_B32, m, t) : t;
		}
		r->d[k] = isel_elt_op3(s, I_V_BFI_B32, m, isel_vgpr(s, y->d[k]), isel_vgpr(s, ev->d[k]));
	}
	return r;
}

static void select_per_element(Isel *s, Op *op, IselRegionFn region, const TVal *cv)
{
	if (s->masked || s->wcond) {
		analysis_error(s->c, op->loc, "%s: a condition of %lld elements per thread inside another conditional is not "
					      "compiled yet", op->path, (long long)cv->n);
		return;
	}
	if (!elem_body_ok(s, op, op->body))
		return;
	Region *body = op->body;
	for (int i = 0; i < op->ninit; i++) {
		if (!s->val[op->args[i]->id])
			return;
		if (i < body->nparams)
			s->val[body->params[i]->id] = s->val[op->args[i]->id];
	}
	cv = s->wcond = isel_tval_in_vgprs(s, (TVal *)cv);
	region(s, body);
	s->wcond = NULL;
	if (s->c->failed || !op->ninit)
		return;
	Op *out = vec_last(&body->ops);
	for (int i = 0; i < op->ninit; i++) {
		TVal *y = s->val[out->args[i]->id];
		TVal *r = y ? select_elements(s, op, i, cv, s->val[op->args[i]->id], y) : NULL;
		if (!r)
			return;
		s->val[op->results[i]->id] = r;
	}
}

/* Does r (at any depth) hold an op whose lanes talk to each other, a loop
 * aside? */
static bool body_talks(const Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if ((op->kind != OP_ITERATE && needs_all_lanes(op)) || (op->body && body_talks(op->body)))
			return true;
	}
	return false;
}

/* Does r (at any depth, region skip aside) hold a set_symbol of sym? */
static bool sets_symbol(const Region *r, const Sym *sym, const Region *skip)
{
	if (r == skip)
		return false;
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *o = r->ops.data[i];
		if ((o->kind == OP_SET_SYMBOL && o->dim == sym) || (o->body && sets_symbol(o->body, sym, skip)))
			return true;
	}
	return false;
}

/* A set_symbol in body (at any depth) of a symbol also set outside it, in
 * root, or NULL. Under a scalar branch the code after the body would read
 * the symbol's register from either path, which selection does not join
 * (Wave's stream-K re-sets CTA_ID inside its reduction's conditional). */
static const Op *resets_symbol(const Region *body, const Region *r, const Region *root)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *o = r->ops.data[i];
		if (o->kind == OP_SET_SYMBOL && o->dim && sets_symbol(root, o->dim, body))
			return o;
		const Op *in = o->body ? resets_symbol(body, o->body, root) : NULL;
		if (in)
			return in;
	}
	return NULL;
}

void isel_select_conditional(Isel *s, Op *op, IselRegionFn region)
{
	Analysis *c = s->c;
	int n = op->ninit;
	Value *cond = op->expr ? NULL : op->args[n];
	const Op *loop = first_loop(op->body);
	/* a body holding a barrier runs under a scalar branch: the local plan
	 * (local.c) allowed one only under a condition the same in every wave;
	 * so does one holding ops whose lanes talk to each other (an MMA, a
	 * reduction, a shared argument's LDS staging: Wave's
	 * test_conditional_with_return reads one), which may meet other waves
	 * through LDS: a mask would feed them stale lanes, a uniform branch
	 * keeps every lane. A loop alone needs the wave's lanes to agree (a
	 * loop's control is scalar). */
	bool need_wg = has_barrier(s, op->body) || body_talks(op->body);
	bool uni = cond && uniform_at(s, cond, need_wg);
	if (cond && loop && !uni) {
		if (op->while_body)
			analysis_error(c, loop->loc, "%s: op 'iterate' inside %s, which may differ between lanes: not "
						   "compiled (a loop runs there when the carried values the condition names "
						   "are the same in every lane: made of scalar arguments, constants, symbols "
						   "and reads at such addresses)",
				loop->path, where(s, op));
		else
			analysis_error(c, loop->loc, "%s: op 'iterate' inside the conditional '%s', whose condition '%s' "
						   "may differ between lanes: not compiled (a loop runs in a conditional "
						   "whose condition is the same in every lane: made of scalar arguments, "
						   "constants, symbols and reads at such addresses)",
				loop->path, op->name, cond->name);
		return;
	}
	if (!body_ok(s, op, NULL, op->body, cond && !uni))
		return;
	if (!cond) {
		select_uniform(s, op, region, NULL);
		return;
	}
	TVal *cv = s->val[cond->id];
	if (!cv)
		return;
	const Op *reset = uni && cv->n == 1 && !op->while_body ? resets_symbol(op->body, op->body, c->k->body) : NULL;
	if (reset) {
		analysis_error(c, reset->loc, "%s: set_symbol '%s' inside the conditional '%s' sets a symbol also set "
					      "outside it: a conditional whose body re-sets a symbol is not compiled yet",
			reset->path, reset->name, op->name);
		return;
	}
	if (uni && cv->n == 1) {
		/* the same in every lane: a scalar branch, every lane in the
		 * body; a condition of rank > 0 selects per coordinate, so each
		 * write and result must be at the condition's coordinates */
		const NodeIndex *cix = cond->shape.rank ? c->index[cond->kind == VAL_RESULT ? cond->def->id : 0] : NULL;
		if (cond->shape.rank && (cond->kind != VAL_RESULT || !cix)) {
			analysis_error(c, op->loc, "%s: a condition of rank %d without a per-thread index is not compiled yet",
				op->path, cond->shape.rank);
			return;
		}
		if (cix && !body_ok(s, op, cix, op->body, false))
			return;
		for (int i = 0; cix && i < n; i++) {
			const TVal *e = s->val[op->args[i]->id];
			if (e && !agrees(s, cix, e->ix)) {
				analysis_error(c, op->loc, "%s: result %d: the else value's elements are at other "
							   "coordinates than the condition's: not compiled yet", op->path, i);
				return;
			}
		}
		select_uniform(s, op, region, cv);
		return;
	}
	if (uni && (loop || need_wg)) {
		analysis_error(c, op->loc, "%s: a condition of %lld elements per thread is not compiled yet", op->path,
			(long long)cv->n);
		return;
	}
	const NodeIndex *cix = cond->shape.rank ? c->index[cond->def ? cond->def->id : 0] : NULL;
	if (cv->n > 1 && cond->shape.rank && cond->kind == VAL_RESULT && cix && cv->ix) {
		select_per_element(s, op, region, cv);
		return;
	}
	if (cv->n != 1 || (cond->shape.rank && (cond->kind != VAL_RESULT || !cix))) {
		analysis_error(c, op->loc, "%s: a condition of %lld elements per thread is not compiled yet", op->path,
			(long long)cv->n);
		return;
	}
	if (!body_ok(s, op, cix, op->body, true))
		return;
	Region *body = op->body;
	for (int i = 0; i < n; i++) {
		if (!s->val[op->args[i]->id])
			return;
		if (i < body->nparams)
			s->val[body->params[i]->id] = s->val[op->args[i]->id];
	}
	/* enter: exec &= the condition's lanes */
	leave_entry_block(s);
	cond_to_vcc(s, cv);
	if (early_exit(s, op)) { /* a loop's while body that no lane runs: past the loop */
		MOpnd t = mo_vreg(mfunc_vreg(s->f, RC_S2), RC_S2), u[2] = {mo_special(MO_VCC), mo_special(MO_EXEC)};
		mblock_add(s->b, I_S_AND_B64, 1, &t, 2, u);
		mblock_branch(s->b, I_S_CBRANCH_SCC0, 0);
		vec_push(&s->exits, (int)(s->f->blocks.len - 1));
		s->b = mfunc_block(s->f, NULL);
	}
	MOpnd saved = mo_vreg(mfunc_vreg(s->f, RC_S2), RC_S2), vcc = mo_special(MO_VCC);
	mblock_add(s->b, I_S_AND_SAVEEXEC_B64, 1, &saved, 1, &vcc);
	size_t cache_len = s->cache.len;
	uint32_t tid[3] = {s->tid[0], s->tid[1], s->tid[2]}, oob = s->oob;
	s->masked++;
	region(s, body);
	s->masked--;
	if (c->failed)
		return;
	/* leave: values lowered under the mask hold only its lanes */
	s->cache.len = cache_len;
	for (int g = 0; g < 3; g++)
		s->tid[g] = tid[g];
	s->oob = oob;
	MOpnd ex = mo_special(MO_EXEC), u[2] = {ex, saved};
	mblock_add(s->b, I_S_OR_B64, 1, &ex, 2, u);
	if (!n)
		return;
	Op *out = vec_last(&body->ops);
	cond_to_vcc(s, cv);
	for (int i = 0; i < n; i++) {
		TVal *e = isel_tval_in_vgprs(s, s->val[op->args[i]->id]), *y = s->val[out->args[i]->id];
		if (!y || y->nd != e->nd || y->n != e->n || y->packed != e->packed ||
			(cix && (!agrees(s, cix, y->ix) || !agrees(s, cix, e->ix)))) {
			analysis_error(c, op->loc, "%s: result %d: the body's value and the else value are laid out "
						   "differently: not compiled yet", op->path, i);
			return;
		}
		y = isel_tval_in_vgprs(s, y);
		TVal *r = ARENA_NEW(&c->arena, TVal);
		*r = *e;
		r->d = ARENA_NEWN(&c->arena, MOpnd, e->nd ? e->nd : 1);
		for (int k = 0; k < e->nd; k++) {
			r->d[k] = isel_v1(s);
			MOpnd m[3] = {e->d[k], y->d[k], mo_special(MO_VCC)};
			mblock_add(s->b, I_V_CNDMASK_B32, 1, &r->d[k], 3, m)->flags |= MIF_E32;
		}
		s->val[op->results[i]->id] = r;
	}
}

/* ---- set_symbol ----
 * The loader renamed the set symbol in the mappings that follow to the
 * op's per-lane symbol `$T_<name>` (Op.expr); the `$T` prefix makes expr.c
 * treat it as per lane, and expr.c lowers it to the lane's element of the
 * register recorded here (Isel.setsym). One element per lane: a lane holding several
 * would need one binding per element of each access. */
void isel_select_set_symbol(Isel *s, Op *op)
{
	Value *reg = op->args[0];
	TVal *v = s->val[reg->id];
	if (!v)
		return;
	if (op_sets_extent(s->c->k, op)) {
		isel_set_extent(s, op, v);
		return;
	}
	if (v->n != 1 || dtype_size(v->dtype) != 4) {
		analysis_error(s->c, op->loc, "%s: set_symbol of %s with %lld elements per thread: only one 32-bit element "
					      "per thread is compiled yet",
			op->path, dtype_name(v->dtype), (long long)v->n);
		return;
	}
	/* inside a loop: what names the value is not hoisted before the loop
	 * (values.c), where the value does not exist yet */
	if (s->iv_sym)
		vec_push(&s->loop_set, op->expr);
	vec_push(&s->setsym, ((ExprCacheEnt){op->expr, isel_vgpr(s, v->d[0])}));
	if (op_sets_loop_bound(s->c->k, op))
		isel_set_loop_bound(s, op, v);
}

/* ---- Wave's counter waits and hints ----
 * memory_counter_wait: an s_waitcnt where it stands, vmcnt the smaller of
 * load and store (gfx9 counts both in vmcnt; 0..63), lgkmcnt ds (0..15);
 * exp has no counter of interest (exports only on gfx9). The wait pass
 * honours it and adds its own waits where they are needed, so it only ever
 * waits longer. memory_counter_wait_barrier: that wait, then the s_barrier
 * (the barrier plan in local.c counts it as a barrier). set_wave_prio: an
 * s_setprio. The scheduling barriers steer LLVM's scheduler in Wave and
 * emit nothing here (an SOPP row is a fence to wavecc's list scheduler, so
 * the waits and s_setprio keep their place among the other instructions). */
static int clamp(int v, int hi) { return v > hi ? hi : v; }

void isel_select_hint(Isel *s, Op *op)
{
	if (op->kind == OP_MEMORY_COUNTER_WAIT || op->kind == OP_MEMORY_COUNTER_WAIT_BARRIER) {
		int vm = op->hint[0], st = op->hint[1], ds = op->hint[2];
		if (vm < 0 || (st >= 0 && st < vm))
			vm = st;
		if (vm >= 0 || ds >= 0) {
			MInst *w = mblock_add(s->b, I_S_WAITCNT, 0, NULL, 0, NULL);
			w->vmcnt = (int16_t)(vm >= 0 ? clamp(vm, 63) : -1);
			w->lgkmcnt = (int16_t)(ds >= 0 ? clamp(ds, 15) : -1);
		}
		if (op->kind == OP_MEMORY_COUNTER_WAIT_BARRIER)
			isel_lds_barrier(s);
	} else if (op->kind == OP_SET_WAVE_PRIO) {
		MOpnd u = mo_imm(op->hint[0]);
		mblock_add(s->b, I_S_SETPRIO, 0, NULL, 1, &u);
	}
}
