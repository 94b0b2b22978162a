/* isel.c — instruction selection: the per-thread program of the graph (the
 * indices of passes/graph/indices.c, the ops) → machine IR with virtual
 * registers.
 *
 * Algorithm:
 *   - entry: copy the kernarg pointer s[0:1], the workgroup ids s2.. and the
 *     packed work-item ids in v0 into virtual registers, so allocation can
 *     reuse the incoming registers;
 *   - the ops of each region in graph order, each by its selector (memory.c,
 *     elementwise.c, reduce.c, mma.c); every value becomes a TVal, the list
 *     of dwords holding the thread's elements in its index's order;
 *   - an iterate op becomes a counted loop: the block before it keeps the
 *     loop-invariant code (expr.c hoists index arithmetic that does not
 *     mention the induction variable there), the body block ends with
 *     `iv += 1; s_cmp_lt_u32 iv, trips; s_cbranch_scc1 body`, and the rest
 *     of the kernel continues in a new block. Loop-carried values are
 *     vregs defined before the loop and redefined in the body (the MIR is
 *     not SSA): an init value used only by the loop is taken over as is,
 *     and the body's outputs are copied back when they are other vregs.
 *     A loop of one trip is emitted straight, one of no trips (a constant
 *     iters of 0) not at all; a trip count known only at run time is
 *     tested before the loop (it may be 0). Loops nest: the enclosing
 *     loop's induction variable stays readable (Isel.outer_*), and each
 *     loop's invariant code goes to the block before it. Where the plan
 *     pipelines a loop (prefetch.c) a prologue block between the guard
 *     and the loop loads the first trips' tiles, and the body's staged
 *     and global reads load a trip ahead; a loop the plan splits is two
 *     iterates in the graph (passes/plan/split.c), selected as one loop
 *     (below: the main iterate's trips without the bounds its range
 *     proves, its tail continuing its registers and pipe).
 * Nothing here decides what happens to a loop: the plan does
 * (passes/plan), and selection translates it.
 * Requires: analyze_indices, plan_loops. Returns: the machine function (virtual registers), also when an error
 * was reported (the caller frees it). */
#include <stdlib.h>
#include <string.h>

#include "elt.h"
#include "isel.h"

static void emit_entry(Isel *s)
{
	Analysis *c = s->c;
	MOpnd d, u;
	s->kernarg = mfunc_vreg(s->f, RC_S2);
	d = mo_vreg(s->kernarg, RC_S2);
	u = mo_preg(0, RC_S2);
	mblock_add(s->b, I_S_MOV_B64, 1, &d, 1, &u);
	int sg = 2;
	for (int g = 0; g < 3; g++) {
		s->wg_id[g] = UINT32_MAX;
		if (analysis_many(c->grid[g]) || g == 0) {
			s->wg_id[g] = mfunc_vreg(s->f, RC_S1);
			d = mo_vreg(s->wg_id[g], RC_S1);
			u = mo_preg((uint32_t)sg++, RC_S1);
			mblock_add(s->b, I_S_MOV_B32, 1, &d, 1, &u);
		}
	}
	s->f->input_sgprs = sg;
	/* reordering constraints: the ids workgroups take, from the hardware's
	 * (constraints.c checked them to permute the grid), before anything
	 * else lowers an expression of them; what lowering them cached names
	 * the hardware ids and goes */
	uint32_t re[3];
	/* a reordering over a runtime grid reads the sizes: their kernarg
	 * loads go before it (else after the entry copies, below) */
	size_t k0 = s->kernarg_end = s->b->insts.len;
	for (int g = 0; g < 3; g++)
		if (c->reorder[g]) {
			Loc loc = {c->k->file, 1, 1};
			for (size_t i = 0; i < c->k->cons.len; i++)
				if (c->k->cons.data[i].kind == CON_REORDERING && c->k->cons.data[i].wg_dim == g)
					loc = c->k->cons.data[i].loc;
			MOpnd o = isel_expr_to_sgpr(s, isel_expr_lower(s, c->reorder[g], loc));
			re[g] = mfunc_vreg(s->f, RC_S1);
			d = mo_vreg(re[g], RC_S1);
			mblock_add(s->b, o.kind == MO_VREG && rc_file(o.rc) != RF_SGPR ? I_V_READFIRSTLANE_B32 : I_S_MOV_B32, 1,
				&d, 1, &o);
		}
	for (int g = 0; g < 3; g++)
		if (c->reorder[g])
			s->wg_id[g] = re[g];
	s->cache.len = 0;
	s->tid_raw = mfunc_vreg(s->f, RC_V1);
	d = mo_vreg(s->tid_raw, RC_V1);
	u = mo_preg(0, RC_V1);
	mblock_add(s->b, I_V_MOV_B32, 1, &d, 1, &u);
	for (int g = 0; g < 3; g++)
		s->tid[g] = UINT32_MAX;
	if (s->kernarg_end == k0)
		s->kernarg_end = s->b->insts.len; /* kernarg loads go here (kernarg_load.c) */
}

static void select_region(Isel *s, Region *r);

/* Whether a splat's elements share dwords (a gathered splat repeats one
 * register), which a loop-carried value must not: each is rewritten. */
static bool tval_aliased(const TVal *v)
{
	for (int i = 1; v->splat && i < v->nd; i++)
		if (!memcmp(&v->d[i], &v->d[0], sizeof(MOpnd)))
			return true;
	return false;
}

/* A fresh copy of v's dwords in new vregs of the same shape. */
static TVal *tval_copy(Isel *s, const TVal *v)
{
	TVal *r = ARENA_NEW(&s->c->arena, TVal);
	*r = *v;
	r->d = ARENA_NEWN(&s->c->arena, MOpnd, v->nd ? v->nd : 1);
	for (int i = 0; i < v->nd; i++) {
		RegClass a1 = rc_make(RF_AGPR, 1);
		r->d[i] = isel_is_agpr(v->d[i]) ? mo_vreg(mfunc_vreg(s->f, a1), a1) : isel_v1(s);
		isel_mov(s, r->d[i], v->d[i]);
	}
	return r;
}

/* The loop state of the enclosing loop, saved while a nested one runs. */
typedef struct LoopSave {
	MBlock *pre;
	Sym *iv_sym;
	uint32_t iv;
} LoopSave;

/* Enter a loop: the innermost loop's induction variable becomes an outer
 * one (expr.c still finds it), the block so far holds the loop-invariant
 * code. A trip count known only at run time (a runtime size, a
 * constraint's iters, which may be 0 or negative) is tested first in a
 * block of its own: s_cmp_lt_i32 0, trips; s_cbranch_scc0 past the loop
 * (its target set by loop_exit), so that a loop of no trips leaves the
 * carried values at their inits. Returns the guard block's index or -1. */
static int loop_enter(Isel *s, const TileLoop *t, Op *op, LoopSave *sv)
{
	sv->pre = s->pre;
	sv->iv_sym = s->iv_sym;
	sv->iv = s->iv;
	if (s->iv_sym) {
		if (s->nouter == MAX_DIMS) {
			analysis_error(s->c, op->loc, "%s: loops nested more than %d deep", op->path, MAX_DIMS);
			return -1;
		}
		s->outer_sym[s->nouter] = s->iv_sym;
		s->outer_iv[s->nouter++] = s->iv;
	}
	s->iv = mfunc_vreg(s->f, RC_S1);
	MOpnd d = mo_vreg(s->iv, RC_S1), z = mo_imm(0);
	mblock_add(s->b, I_S_MOV_B32, 1, &d, 1, &z);
	s->pre = s->b;
	int guard = -1;
	if (t->trips < 0) {
		s->b = mfunc_block(s->f, NULL);
		guard = (int)(s->f->blocks.len - 1);
		/* lowered into the block before (loop-invariant) */
		MOpnd n = isel_expr_to_sgpr(s, isel_expr_lower(s, isel_loop_count(s, t), op->loc));
		MOpnd cmp[2] = {mo_imm(0), n};
		mblock_add(s->b, I_S_CMP_LT_I32, 0, NULL, 2, cmp);
		mblock_branch(s->b, I_S_CBRANCH_SCC0, 0); /* the target: loop_exit */
	}
	s->iv_sym = t->iv;
	return guard;
}

/* Leave a loop whose body block is loop_idx: the back edge, the block
 * after the loop (the guard's target), the enclosing loop's state. */
static void loop_exit(Isel *s, const TileLoop *t, Op *op, int loop_idx, int guard, const LoopSave *sv)
{
	if (op->spin) {
		/* a spin-wait (frontend/load_while.c): no trip count, the while
		 * body's early exit (control.c) is the only way out, so a trip
		 * that re-reads an unchanged flag repeats the wave's state */
		mblock_branch(s->b, I_S_BRANCH, loop_idx);
	} else {
		MOpnd d = mo_vreg(s->iv, RC_S1), u[2] = {mo_vreg(s->iv, RC_S1), mo_imm(1)};
		mblock_add(s->b, I_S_ADD_U32, 1, &d, 2, u);
		MOpnd cmp[2] = {mo_vreg(s->iv, RC_S1), t->trips > 0 ? mo_imm(t->trips)
			: isel_expr_to_sgpr(s, isel_expr_lower(s, isel_loop_count(s, t), op->loc))};
		mblock_add(s->b, I_S_CMP_LT_U32, 0, NULL, 2, cmp);
		mblock_branch(s->b, I_S_CBRANCH_SCC1, loop_idx);
	}
	s->b = mfunc_block(s->f, NULL);
	if (guard >= 0) {
		MBlock *g = s->f->blocks.data[guard];
		g->insts.data[g->insts.len - 1].target = (int32_t)(s->f->blocks.len - 1);
	}
	s->pre = sv->pre;
	s->iv_sym = sv->iv_sym;
	s->iv = sv->iv;
	if (s->iv_sym)
		s->nouter--;
	/* subexpressions lowered in the loop hold the last trip's values */
	s->cache.len = 0;
}

/* A loop nested in a loop over the same dim has no meaning (Wave's
 * iterate binds the dim's window once). */
static bool nested_over_same_dim(Isel *s, Op *op)
{
	for (Region *r = op->parent; r && r->owner; r = r->parent)
		if (r->owner->dim == op->dim) {
			analysis_error(s->c, op->loc, "%s: iterate over %s inside an iterate over %s", op->path,
				sym_name(op->dim), sym_name(op->dim));
			return true;
		}
	return false;
}

/* The index iterate op's output i will have, where the analysis gives
 * it one (the output computed by a plain op of the body); NULL else. */
static const NodeIndex *output_index(Isel *s, Op *op, int i)
{
	Op *out = vec_last(&op->body->ops);
	Value *v = i < out->nargs ? out->args[i] : NULL;
	if (!v || v->kind != VAL_RESULT || v->def->body || v->def->kind == OP_GET_RESULT || v->def->nresults != 1)
		return NULL;
	return s->c->index[v->def->id];
}

/* One trip of loop op's body (its carried values in carried): the body's
 * ops, then its outputs copied into the carried registers (their layouts
 * must agree: the init was moved into the output's before the loop). */
static bool select_trip(Isel *s, Op *op, TVal **carried)
{
	Analysis *c = s->c;
	Region *body = op->body;
	Op *out = vec_last(&body->ops);
	select_region(s, body);
	if (c->failed)
		return false;
	/* the outputs go back into the carried registers as one parallel
	 * copy: a source that is itself some iter arg's register (outputs in
	 * another order than the iter args, an accumulator updated in place
	 * feeding another) is saved in a temporary first, or an earlier copy
	 * would overwrite it */
	TVal **src = ARENA_NEWN(&c->arena, TVal *, body->nparams + 1);
	for (int i = 0; i < out->nargs && i < body->nparams; i++) {
		TVal *o = s->val[out->args[i]->id];
		if (!o || o->nd != carried[i]->nd || (o->ix && carried[i]->ix && !isel_same_index(o->ix, carried[i]->ix))) {
			analysis_error(c, out->loc, "%s: output %d does not match its iter arg's layout", out->path, i);
			return false;
		}
		src[i] = ARENA_NEW(&c->arena, TVal);
		*src[i] = *o;
		src[i]->d = ARENA_NEWN(&c->arena, MOpnd, o->nd ? o->nd : 1);
		for (int k = 0; k < o->nd; k++) {
			src[i]->d[k] = o->d[k];
			if (memcmp(&o->d[k], &carried[i]->d[k], sizeof(MOpnd)) == 0)
				continue;
			bool clobbered = false;
			for (int j = 0; j < body->nparams && !clobbered; j++)
				for (int q = 0; q < carried[j]->nd && !clobbered; q++)
					clobbered = memcmp(&o->d[k], &carried[j]->d[q], sizeof(MOpnd)) == 0;
			if (clobbered) {
				src[i]->d[k] = isel_v1(s);
				isel_mov(s, src[i]->d[k], o->d[k]);
			}
		}
	}
	for (int i = 0; i < out->nargs && i < body->nparams; i++)
		for (int k = 0; k < src[i]->nd; k++)
			if (memcmp(&src[i]->d[k], &carried[i]->d[k], sizeof(MOpnd)) != 0)
				isel_mov(s, carried[i]->d[k], src[i]->d[k]);
	return true;
}

/* ---- split loops (passes/plan/split.c): two iterates, one loop ----
 * The main iterate runs trips [0, M) (plan_main_range), its tail, the next
 * op, the trips [M, trips) (plan_tail_range); they share the induction
 * register, the carried registers (the tail's inits are the main loop's
 * results, taken over as they are) and a pipelined loop's prologue, LDS
 * tiles and carried tiles: the tail continues the main loop's pipe.
 *   - main: its trips lower no bound along the loop's dim that the bound
 *     analysis proves over its range (memory.c's add_bound asks
 *     range_drops; never in the prologue, whose trips need not be
 *     whole, and never at the diagonal, where the main loop's known selects
 *     are its if_true operands instead: compare.c); its back edge
 *     compares with M (an immediate, or an SGPR computed in the block
 *     before the loop); with runtime trips or at the diagonal a guard
 *     `0 < M` before it and `iv < trips` before the tail;
 *   - between the two, the selector's per-trip state goes back to what it
 *     was before the main loop (the values: select_op replaces a captured
 *     accumulator by a VGPR copy made in the main loop, which does not
 *     dominate the tail; the fused marks, the expression cache and
 *     lane-mask ring, the LDS reuse mark);
 *   - tail: the pipe rebound to its body's ops (each the copy of the main
 *     body's op at the same place), then an ordinary trip and the loop's
 *     exit: its back edge against the trip count, the guards' targets. */
typedef struct IselSplit IselSplit;
struct IselSplit {
	const LoopPlan *lp;
	const Op *main;
	LoopSave sv;
	int guard;      /* the loop's guard (runtime trips), or -1 */
	int guard_main; /* before the main loop (runtime trips, diagonal), or -1 */
	int guard_tail; /* before the tail (the same), or -1 */
	Pipe *pipe, *outer_pipe;
	size_t nexits;
	TVal **val;     /* the values before the main loop */
	bool *fused;    /* compare.c's and pk_f32.c's fused ops before it */
	int lds_dirty;
};

/* After the prologue, before the main loop's block. */
static IselSplit *split_begin(Isel *s, Op *op, const LoopPlan *lp, const TileLoop *t)
{
	IselSplit *sp = ARENA_NEW(&s->c->arena, IselSplit);
	sp->lp = lp;
	sp->main = op;
	sp->guard_main = sp->guard_tail = -1;
	if (t->trips < 0 || lp->diag) { /* filled by split_main_end, once M is known */
		mfunc_block(s->f, NULL);
		sp->guard_main = (int)(s->f->blocks.len - 1);
	}
	return sp;
}

/* Before the main loop's body is selected. */
static void split_main(Isel *s, IselSplit *sp)
{
	Analysis *c = s->c;
	sp->val = ARENA_NEWN(&c->arena, TVal *, c->k->nvalues);
	memcpy(sp->val, s->val, sizeof *sp->val * (size_t)c->k->nvalues);
	sp->fused = ARENA_NEWN(&c->arena, bool, c->k->nops);
	memcpy(sp->fused, s->fused, sizeof *sp->fused * (size_t)c->k->nops);
	sp->lds_dirty = s->lds_dirty;
	s->range = sp->lp;
}

/* A block ending in `s_cmp_lt_X a, b; s_cbranch_scc0` (its target set
 * later), noted as the loop op's: a note printed before the block then
 * separates the notes of the code around it, as the text reads them back. */
static int guard_block(Isel *s, const Op *op, int idx, MOp cmp, MOpnd a, MOpnd b)
{
	MBlock *g = idx >= 0 ? s->f->blocks.data[idx] : mfunc_block(s->f, NULL);
	MOpnd u[2] = {a, b};
	mblock_add(g, cmp, 0, NULL, 2, u)->note = op->name;
	mblock_branch(g, I_S_CBRANCH_SCC0, 0);
	vec_last(&g->insts).note = op->name;
	return idx >= 0 ? idx : (int)(s->f->blocks.len - 1);
}

/* After the main loop's body (s->b its last block, main_idx its first): M
 * into the block before the loop, the back edge, the guards, the state
 * before the main loop; s->split for the tail. */
static void split_main_end(Isel *s, IselSplit *sp, Op *op, int main_idx)
{
	Analysis *c = s->c;
	const LoopPlan *lp = sp->lp;
	s->cache.len = 0; /* the main loop's values do not reach the tail */
	MBlock *b = s->b;
	s->b = s->pre;
	MOpnd m = isel_expr_lower(s, lp->split, op->loc); /* an immediate when constant */
	if (m.kind != MO_IMM) /* s_cmp reads an SGPR (M is uniform: runtime sizes only) */
		m = isel_expr_to_sgpr(s, m);
	s->b = b;
	if (c->failed)
		return;
	/* the plan's F - 3 >= 1 keeps a constant main loop non-empty */
	if (lp->t->trips > 0 && !lp->diag && (m.kind != MO_IMM || m.imm < 1)) {
		analysis_error(c, op->loc, "%s: internal: the split loop's main part has no trips", op->path);
		return;
	}
	MOpnd d = mo_vreg(s->iv, RC_S1), u[2] = {mo_vreg(s->iv, RC_S1), mo_imm(1)};
	mblock_add(s->b, I_S_ADD_U32, 1, &d, 2, u);
	MOpnd cmp[2] = {mo_vreg(s->iv, RC_S1), m};
	mblock_add(s->b, I_S_CMP_LT_U32, 0, NULL, 2, cmp);
	mblock_branch(s->b, I_S_CBRANCH_SCC1, main_idx);
	if (sp->guard_main >= 0) {
		guard_block(s, op, sp->guard_main, I_S_CMP_LT_I32, mo_imm(0), m);
		s->b = s->pre;
		Sym *count = lp->t->trips > 0 ? sym_int(c->k->sc, lp->t->trips) : isel_loop_count(s, lp->t);
		MOpnd n = isel_expr_to_sgpr(s, isel_expr_lower(s, count, op->loc));
		s->b = b;
		sp->guard_tail = guard_block(s, op, -1, I_S_CMP_LT_U32, mo_vreg(s->iv, RC_S1), n);
		/* no main trips: straight to the tail's guard */
		MBlock *g = s->f->blocks.data[sp->guard_main];
		g->insts.data[g->insts.len - 1].target = sp->guard_tail;
	}
	memcpy(s->val, sp->val, sizeof *sp->val * (size_t)c->k->nvalues);
	memcpy(s->fused, sp->fused, sizeof *sp->fused * (size_t)c->k->nops);
	s->nlanemask = 0;
	s->lds_dirty = sp->lds_dirty;
	s->split = sp;
}

/* The copy in tail body r of op x of the main body m (same place). */
static Op *tail_op_of(const Region *m, const Region *r, const Op *x)
{
	for (size_t i = 0; i < m->ops.len && i < r->ops.len; i++)
		if (m->ops.data[i] == x)
			return r->ops.data[i];
	return (Op *)x;
}

/* The main loop's pipe continued in the tail's body: its reads are the
 * copies of the ones it was made for, staged in the same tiles. */
static void split_pipe_rebind(Isel *s, Pipe *p, Region *r)
{
	Region *m = p->body;
	for (size_t i = 0; i < m->ops.len && i < r->ops.len; i++)
		s->staged[r->ops.data[i]->id] = s->staged[m->ops.data[i]->id];
	for (size_t i = 0; i < p->n; i++)
		p->ops[i] = tail_op_of(m, r, p->ops[i]);
	for (size_t i = 0; i < p->ng; i++)
		p->gops[i] = tail_op_of(m, r, p->gops[i]);
	p->body = r;
}

/* The tail op of a split loop over t (its carried registers made): its
 * trips, then the loop's exit. */
static void select_tail(Isel *s, Op *op, const TileLoop *t, TVal **carried)
{
	Analysis *c = s->c;
	IselSplit *sp = s->split;
	s->split = NULL;
	if (!sp || sp->main != op->cont) {
		analysis_error(c, op->loc, "%s: internal: a split loop's tail without its main loop", op->path);
		return;
	}
	s->b = mfunc_block(s->f, NULL);
	int loop_idx = (int)(s->f->blocks.len - 1);
	if (sp->pipe)
		split_pipe_rebind(s, sp->pipe, op->body);
	s->pipe = sp->pipe;
	bool ok = select_trip(s, op, carried);
	s->pipe = sp->outer_pipe;
	if (!ok)
		return;
	loop_exit(s, t, op, loop_idx, sp->guard, &sp->sv);
	for (size_t i = sp->nexits; i < s->exits.len; i++) {
		MBlock *x = s->f->blocks.data[s->exits.data[i]];
		vec_last(&x->insts).target = (int32_t)(s->f->blocks.len - 1);
	}
	s->exits.len = sp->nexits;
	if (sp->guard_tail >= 0) { /* past the tail: the block after the loop */
		MBlock *g = s->f->blocks.data[sp->guard_tail];
		g->insts.data[g->insts.len - 1].target = (int32_t)(s->f->blocks.len - 1);
	}
	for (int i = 0; i < op->nresults && i < op->body->nparams; i++)
		s->val[op->results[i]->id] = carried[i];
}

static void select_iterate(Isel *s, Op *op)
{
	Analysis *c = s->c;
	TileLoop *t = analysis_tile(c, op->dim);
	if (!t) {
		analysis_error(c, op->loc, "%s: iterate over %s has no tiling constraint", op->path, sym_name(op->dim));
		return;
	}
	if (nested_over_same_dim(s, op))
		return;
	Region *body = op->body;
	/* loop-carried values */
	TVal **carried = ARENA_NEWN(&c->arena, TVal *, body->nparams + 1);
	for (int i = 0; i < body->nparams; i++) {
		if (i >= op->ninit) {
			analysis_error(c, op->loc, "%s: iter arg without an init value", op->path);
			return;
		}
		TVal *init = s->val[op->args[i]->id];
		if (!init) {
			analysis_error(c, op->loc, "%s: init value %s has no per-thread value", op->path, op->args[i]->name);
			return;
		}
		/* the carried registers hold the output's layout from the first
		 * trip on: the init is moved into it (a reduction's result
		 * beside an MMA carried from a register made in another) */
		const NodeIndex *oix = output_index(s, op, i);
		bool moved = false;
		if (oix && init->ix && !isel_same_index(init->ix, oix)) {
			TVal *g = isel_tval_gather(s, init, oix, op);
			if (!g)
				return;
			moved = g != init;
			init = g;
		}
		carried[i] = !moved && s->uses[op->args[i]->id] == 1 && !tval_aliased(init) ? init : tval_copy(s, init);
		if (carried[i] == init)
			isel_elt_i1_forget(s, init); /* its words are rewritten each trip */
		if (carried[i]->splat) { /* rewritten each trip: no longer a splat */
			TVal *own = ARENA_NEW(&c->arena, TVal);
			*own = *carried[i];
			own->splat = false;
			carried[i] = own;
		}
		s->val[body->params[i]->id] = carried[i];
	}
	if (t->trips == 0) { /* iters 0 or less: the results are the inits */
		for (int i = 0; i < op->nresults && i < body->nparams; i++)
			s->val[op->results[i]->id] = carried[i];
		return;
	}
	/* implicit captures are plain values already selected */
	if (op->cont) { /* a split loop's tail: the loop goes on */
		select_tail(s, op, t, carried);
		return;
	}
	MBlock *loop = NULL;
	int loop_idx = -1, guard = -1;
	LoopSave sv = {0};
	Pipe *outer_pipe = s->pipe, *pipe = NULL;
	IselSplit *sp = NULL;
	const LoopPlan *lp = plan_loop(s->plan, op);
	if (lp && lp->peel != (op->tail != NULL)) {
		analysis_error(c, op->loc, "%s: internal: the loop's split is not in the graph", op->path);
		return;
	}
	if (analysis_many(t->trips)) {
		guard = loop_enter(s, t, op, &sv);
		if (c->failed)
			return;
		if (lp && lp->pipe != PIPE_NONE) /* the prologue block: prefetch.c */
			pipe = isel_pf_new(s, t, op, lp);
		if (op->tail) /* split: the main loop's guard block */
			sp = split_begin(s, op, lp, t);
		loop = s->b = mfunc_block(s->f, NULL);
		loop_idx = (int)(s->f->blocks.len - 1);
	}
	s->pipe = pipe;
	if (sp)
		split_main(s, sp);
	/* a while body (control.c) leaves a plain loop when no lane runs it */
	bool outer_exit = s->while_exit;
	size_t nexits = s->exits.len;
	s->while_exit = loop && !pipe && !sp;
	if (op->spin && !s->while_exit) {
		analysis_error(c, op->loc, "%s: a spin-wait is compiled as a plain loop (not software-pipelined, peeled or "
			       "of one trip)", op->path);
		s->while_exit = outer_exit;
		return;
	}
	size_t spin_exits = s->exits.len;
	bool ok = select_trip(s, op, carried);
	if (ok && op->spin && s->exits.len == spin_exits) {
		analysis_error(c, op->loc, "%s: a spin-wait whose loop has no exit (its while body did not compile to an "
			       "early exit) is not compiled", op->path);
		ok = false;
	}
	s->while_exit = outer_exit;
	s->range = NULL;
	if (ok && sp) { /* the tail (the next op) closes the loop */
		sp->guard = guard;
		sp->sv = sv;
		sp->outer_pipe = outer_pipe;
		sp->pipe = pipe;
		sp->nexits = nexits;
		split_main_end(s, sp, op, loop_idx);
		for (int i = 0; i < op->nresults && i < body->nparams; i++)
			s->val[op->results[i]->id] = carried[i];
		return;
	}
	s->pipe = outer_pipe;
	if (!ok)
		return;
	if (loop)
		loop_exit(s, t, op, loop_idx, guard, &sv);
	for (size_t i = nexits; i < s->exits.len; i++) {
		MBlock *x = s->f->blocks.data[s->exits.data[i]];
		vec_last(&x->insts).target = (int32_t)(s->f->blocks.len - 1);
	}
	s->exits.len = nexits;
	for (int i = 0; i < op->nresults && i < body->nparams; i++)
		s->val[op->results[i]->id] = carried[i];
}

static void select_read(Isel *s, Op *op)
{
	Value *mem = op->args[0];
	const NodeIndex *ix = s->c->index[op->id];
	if (!ix)
		return;
	/* a mapped read of a shared tensor that lds_stage.c did not stage (not an
	 * MMA operand, or dynamic values) reads global memory directly: the
	 * same values */
	bool global = mem->space == AS_GLOBAL || (op->mapping && !s->staged[op->id]);
	/* prefetched (prefetch.c), or read a trip ahead (four_stage.c); a
	 * volatile read (global: the loader checks) never is (passes/plan) */
	bool ordered = op->is_volatile || op->acquire;
	TVal *v = ordered ? NULL : global ? isel_pf_global_read(s, op) : isel_fs_shared_read(s, op);
	s->vol = op->is_volatile;
	s->agent = op->acquire;
	if (!v && !s->c->failed)
		v = global ? isel_read_global(s, op, mem, ix) : isel_read_shared(s, op, mem, ix);
	if (v && op->acquire)
		isel_acquire_after(s);
	s->vol = s->agent = false;
	if (v)
		s->val[op_result(op)->id] = v;
}

static void select_op(Isel *s, Op *op)
{
	Analysis *c = s->c;
	/* accumulators in AGPRs feed MFMAs and stores as they are; any other
	 * op reads them from VGPRs (once: the copy replaces the value) */
	bool elementwise = op_is_unary(op->kind) || op_is_binary(op->kind) || op->kind == OP_CAST ||
			   op->kind == OP_BROADCAST || op->kind == OP_PERMUTE;
	if (s->acc_agpr && !elementwise && op->kind != OP_MMA && op->kind != OP_SCALED_MMA && op->kind != OP_WRITE &&
		op->kind != OP_ITERATE &&
		op->kind != OP_OUTPUT && op->kind != OP_GET_RESULT)
		for (int a = 0; a < op->nargs; a++)
			if (op->args[a] && s->val[op->args[a]->id])
				s->val[op->args[a]->id] = isel_tval_in_vgprs(s, s->val[op->args[a]->id]);
	if (!isel_i64_guard(s, op) || s->fused[op->id]) /* fused: compare.c */
		return;
	Value *mem = op_memory(op);
	bool local = mem && value_is_local(mem); /* an allocation (local.c) */
	switch (op->kind) {
	case OP_READ:
		if (local)
			isel_select_local_read(s, op);
		else
			select_read(s, op);
		break;
	case OP_WRITE:
		if (local)
			isel_select_local_write(s, op);
		else {
			s->vol = op->is_volatile;
			s->agent = op->release;
			if (op->release)
				isel_release_before(s);
			isel_select_write(s, op);
			s->vol = s->agent = false;
		}
		break;
	case OP_ATOMIC_ADD:
	case OP_ATOMIC_MIN:
	case OP_SCATTER_ADD:
		if (local)
			isel_select_local_combine(s, op);
		else if (op->kind == OP_SCATTER_ADD)
			analysis_error(c, op->loc, "%s: scatter_add into global memory (%s) is not compiled yet: Wave lowers it "
						   "into a tkw.allocate'd buffer only (an allocation)",
				op->path, mem->name);
		else
			isel_select_atomic_add(s, op);
		break;
	case OP_ALLOCATE:
		isel_select_allocate(s, op);
		break;
	case OP_SHARED_MEMORY_BARRIER:
	case OP_WORKGROUP_BARRIER:
		isel_select_barrier(s, op);
		break;
	case OP_MEMORY_COUNTER_WAIT_BARRIER: case OP_MEMORY_COUNTER_WAIT: case OP_SET_WAVE_PRIO:
	case OP_SCHEDULING_BARRIER: case OP_SCHEDULING_GROUP_BARRIER:
		isel_select_hint(s, op); /* control.c */
		break;
	case OP_REGISTER:
		if (!isel_select_const_register(s, op))
			isel_select_register(s, op);
		break;
	case OP_MMA:
		if (op_mma_type(c->k, op) == MMA_GENERIC_DOT)
			isel_select_dot(s, op); /* dot.c */
		else
			isel_select_mma(s, op);
		break;
	case OP_SCALED_MMA:
		isel_select_scaled_mma(s, op);
		break;
	case OP_ITERATE:
		select_iterate(s, op);
		break;
	case OP_OUTPUT:
		break;
	case OP_CONDITIONAL:
		isel_select_conditional(s, op, select_region);
		break;
	case OP_SET_SYMBOL:
		isel_select_set_symbol(s, op);
		break;
	case OP_CUMSUM:
		isel_select_scan(s, op);
		break;
	case OP_BITCAST:
		isel_select_bitcast(s, op);
		break;
	case OP_TOPK:
		isel_select_topk(s, op);
		break;
	case OP_GET_RESULT: {
		Value *it = op->args[0];
		if (it->kind == VAL_RESULT && it->def->kind == OP_TOPK) { /* the result itself */
			s->val[op_result(op)->id] = s->val[it->id];
			break;
		}
		if (it->kind != VAL_RESULT || it->def->kind != OP_ITERATE || op->res_idx >= it->def->nresults) {
			analysis_error(c, op->loc, "%s: get_result of a non-iterate value", op->path);
			return;
		}
		s->val[op_result(op)->id] = s->val[it->def->results[op->res_idx]->id];
		break;
	}
	default:
		if (op_is_reduce(op->kind))
			isel_select_reduce(s, op);
		else if (op->kind == OP_SCALAR && isel_select_index_expr(s, op))
			; /* an integer scalar of an expression (index_expr.c) */
		else if (!isel_select_elementwise(s, op) && !isel_select_index_expr(s, op) && !c->failed)
			analysis_error(c, op->loc, "%s: op '%s' is not compiled yet", op->path, op_name(op->kind));
	}
}

/* A region's LDS (staged tiles, cross-wave slots) is read only inside it:
 * when it ends, the space goes back to the stack for the regions after it
 * (two GEMM loops in a row share one set of tiles). */
static void select_region(Isel *s, Region *r)
{
	int lds_base = s->lds_top;
	isel_stage_shared(s, r, s->iv_sym != NULL);
	for (size_t i = 0; i < r->ops.len && !s->c->failed; i++) {
		Op *op = r->ops.data[i];
		MBlock *b0 = s->b, *p0 = s->pre, *e0 = s->f->blocks.data[0];
		size_t first = b0->insts.len, pfirst = p0 ? p0->insts.len : 0, efirst = e0->insts.len;
		isel_local_sync(s, op); /* an allocation's barrier (local.c) */
		select_op(s, op);
		if (op->kind == OP_OUTPUT) /* a prefetched loop's next tiles (lds_stage.c) */
			isel_stage_shared_end(s, r);
		/* note the op on what it emitted (not on a loop's own blocks) */
		if (op->kind != OP_ITERATE) {
			for (size_t j = first; j < b0->insts.len; j++)
				if (!b0->insts.data[j].note)
					b0->insts.data[j].note = op->name;
			for (size_t j = pfirst; p0 && j < p0->insts.len; j++)
				if (!p0->insts.data[j].note)
					p0->insts.data[j].note = op->name;
			/* and what it added to the entry block (descriptors, sizes) */
			for (size_t j = efirst; j < e0->insts.len; j++)
				if (!e0->insts.data[j].note)
					e0->insts.data[j].note = op->name;
		}
	}
	if (s->lds_top > s->lds_dirty)
		s->lds_dirty = s->lds_top;
	s->lds_top = lds_base;
}

/* The uses of each value (by id), a split loop's two iterates counted as
 * the one loop they are: the tail's uses of values from outside it (the
 * captures its body and it read) are the main iterate's again. */
static void count_uses(const Kernel *k, int *uses)
{
	region_count_uses(k->body, uses);
	for (size_t i = 0; i < k->body->ops.len; i++) {
		const Op *tail = k->body->ops.data[i];
		if (!tail->cont)
			continue;
		for (int a = tail->ninit; a < tail->nargs; a++)
			uses[tail->args[a]->id]--;
		const Region *r = tail->body;
		for (size_t j = 0; j < r->ops.len; j++) {
			const Op *x = r->ops.data[j];
			for (int a = 0; a < x->nargs; a++) {
				const Value *v = x->args[a];
				bool inside = v && ((v->kind == VAL_ITER_ARG && v->loop == tail) ||
						    (v->kind == VAL_RESULT && v->def->parent == r));
				if (v && !inside)
					uses[v->id]--;
			}
		}
	}
}

MFunc *select_instructions(Analysis *c, const Plan *p)
{
	Kernel *k = c->k;
	Isel s = {.c = c, .plan = p, .oob = UINT32_MAX};
	s.f = mfunc_new(k->name, c->t);
	s.b = mfunc_block(s.f, NULL);
	s.val = ARENA_NEWN(&c->arena, TVal *, k->nvalues);
	s.uses = ARENA_NEWN(&c->arena, int, k->nvalues);
	count_uses(k, s.uses);
	s.staged = ARENA_NEWN(&c->arena, struct Staged *, k->nops);
	s.fused = ARENA_NEWN(&c->arena, bool, k->nops);
	int ndyn;
	analysis_runtime_arg(k, NULL, &ndyn);
	s.dyn = ARENA_NEWN(&c->arena, uint32_t, ndyn + 1);
	for (int i = 0; i < ndyn; i++)
		s.dyn[i] = UINT32_MAX;
	s.desc = ARENA_NEWN(&c->arena, uint32_t, k->args.len + 1);
	for (size_t i = 0; i < k->args.len; i++)
		s.desc[i] = UINT32_MAX;
	/* gfx950's scaled MFMAs: a scaled_mma elsewhere is rejected before
	 * anything is selected (or staged) for it */
	for (size_t i = 0; i < k->op_list.len; i++) {
		Op *op = k->op_list.data[i];
		if (op->kind == OP_SCALED_MMA && !isel_is_gfx950(&s)) {
			isel_select_scaled_mma(&s, op);
			break;
		}
	}
	if (c->failed)
		return s.f;
	emit_entry(&s);
	s.acc_agpr = isel_acc_in_agprs(&s, k->body);
	isel_local_plan(&s);
	select_region(&s, k->body);
	mblock_add(s.b, I_S_ENDPGM, 0, NULL, 0, NULL);
	vec_free(&s.cache);
	vec_free(&s.exits);
	vec_free(&s.loop_set);
	vec_free(&s.setsym);
	vec_free(&s.bounds);
	vec_free(&s.extents);
	return s.f;
}
