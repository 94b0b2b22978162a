/* peel.c — a reduction loop over an unaligned dim split in two: a main
 * loop whose loads need no lane masks along the loop's dim, then a masked
 * tail loop over the remaining trips (issue 15).
 *
 * Why: a loop over dim K of size S in tiles of T has ceil(S / T) trips, and
 * when T does not divide S, or S is a runtime size, memory.c cannot prove
 * the loads' bounds `coord < S` along K, so every trip computes their lane
 * masks (v_cmp + v_cndmask per load), although only the last tiles can be
 * partial.
 *
 * The plan decides the split (passes/plan/plan.c, step 2: the loop
 * qualifies and some read of its body has a bound along K that the
 * analysis' assumptions do not prove but that holds for every trip below
 * F = floor(S / T), the whole tiles: the bound with the induction variable
 * replaced by F - 1 - u, u >= 0 a symbol of the plan's, simplifies to
 * True; for a runtime S the same bound still mentions S, as in
 * 64 * floor(K / 64) - 64 - 64 u + lane < K, which the simplifier proves
 * as it is). Translation (isel.c's select_iterate calls in):
   - the body is selected twice into two loops that share the induction
 *     register and the carried registers:
 *       main:  trips [0, M), selected with Isel.peel->main set: memory.c's
 *              add_bound asks isel_peel_drops of each bound, which drops
 *              the ones the bound analysis proves over the main loop's
 *              trips and the trips its loads read ahead (plan_main_range,
 *              analysis_range_proves: passes/graph/trip_range.c);
 *       tail:  trips [M, trips), selected as the loop was before.
 *     M is the plan's (LoopPlan.split): F - A, where A is the most trips
 *     ahead any load of the body reads (the prefetch schedule loads trip
 *     min(i + A, last) in trip i), so that every trip any load of the main
 *     loop reads is below F. With constant sizes M is min(F - A, trips -
 *     1) and the plan asks F - 3 >= 1 of a pipelined loop (A is at most 3:
 *     four_stage), so both loops have trips and need no guard; with
 *     runtime sizes M = min(F - A, trips) is computed in the block before
 *     the loop, a guard `0 < M` skips the main loop and one `iv < trips`
 *     the tail;
 *   - between the two selections the selector's per-trip state goes back
 *     to what it was before the main loop: the values (select_op replaces
 *     an accumulator's value by a VGPR copy made in the loop), the
 *     expression cache and the lane-mask ring (both may hold registers
 *     defined in the main loop, which does not dominate the tail), the
 *     LDS reuse mark. A prefetched loop's prologue,
 *     tiles and carried registers are made once, by the first selection
 *     (lds_stage.c's isel_stage_shared does not stage the body again); the
 *     prologue's loads keep their bounds (isel_peel_drops skips the
 *     prologue block, whose trips need not be whole).
 *
 * Contract: the plan splits only an outermost and innermost loop outside
 * conditionals, over a dim with no set extent, starting at 0, without
 * iters, whose body has no writes, atomics, nested loops, conditionals,
 * set_symbols or mapped reads; everything else is selected as before. Bounds on other
 * dims and on the tail's trips are untouched. */
#include "isel.h"

struct IselPeel {
	const LoopPlan *lp; /* the plan's split: F, the whole tiles, and the proofs */
	const TileLoop *t;
	bool main;  /* the main loop's body is being selected */
	int guard_main;    /* runtime: the guard block before the main loop, or -1 */
	int guard_tail;    /* runtime: the guard block before the tail loop, or -1 */
	MOpnd split;       /* M */
	TVal **val;        /* the values before the main loop */
	bool *fused;       /* compare.c's and pk_f32.c's fused ops before the main loop */
	int lds_dirty;
};

bool isel_peel_drops(Isel *s, Sym *rel)
{
	IselPeel *p = s->peel;
	if (!p || !p->main || p->lp->diag || (s->pipe && s->b == s->pipe->prol) || !sym_mentions(rel, p->t->iv))
		return false;
	TripRange r = plan_main_range(p->lp);
	return analysis_range_proves(s->c, p->t, &r, rel);
}

bool isel_peel_diag_true(const Isel *s, const Op *sel)
{
	const IselPeel *p = s->peel;
	return p && p->main && p->lp->diag && s->plan->diag_true && s->plan->diag_true[sel->id];
}

IselPeel *isel_peel_begin(Isel *s, const LoopPlan *lp)
{
	IselPeel *p = ARENA_NEW(&s->c->arena, IselPeel);
	p->lp = lp;
	p->t = lp->t;
	p->guard_main = p->guard_tail = -1;
	if (p->t->trips < 0 || lp->diag) { /* filled by isel_peel_tail, once M is known */
		mfunc_block(s->f, NULL);
		p->guard_main = (int)(s->f->blocks.len - 1);
	}
	return p;
}

void isel_peel_main(Isel *s, IselPeel *p)
{
	Analysis *c = s->c;
	p->val = ARENA_NEWN(&c->arena, TVal *, c->k->nvalues);
	memcpy(p->val, s->val, sizeof *p->val * (size_t)c->k->nvalues);
	p->fused = ARENA_NEWN(&c->arena, bool, c->k->nops);
	memcpy(p->fused, s->fused, sizeof *p->fused * (size_t)c->k->nops);
	p->lds_dirty = s->lds_dirty;
	p->main = true;
	s->peel = p;
}

/* M (the plan's), into an SGPR in the block before the loop (it dominates
 * both loops). */
static MOpnd split_count(Isel *s, const IselPeel *p, Op *op)
{
	Sym *m = p->lp->split;
	MBlock *b = s->b;
	s->b = s->pre;
	MOpnd r = isel_expr_lower(s, m, op->loc); /* an immediate when constant */
	if (r.kind != MO_IMM) /* s_cmp reads an SGPR (M is uniform: runtime sizes only) */
		r = isel_expr_to_sgpr(s, r);
	s->b = b;
	return r;
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

int isel_peel_tail(Isel *s, IselPeel *p, Op *op, int main_idx)
{
	Analysis *c = s->c;
	s->cache.len = 0; /* the main loop's values do not reach the tail */
	p->split = split_count(s, p, op);
	if (c->failed)
		return -1;
	/* the plan's F - 3 >= 1 keeps a constant main loop non-empty */
	if (p->t->trips > 0 && !p->lp->diag && (p->split.kind != MO_IMM || p->split.imm < 1)) {
		analysis_error(c, op->loc, "%s: internal: the split loop's main part has no trips", op->path);
		return -1;
	}
	/* the main loop's back edge */
	MOpnd d = mo_vreg(s->iv, RC_S1), u[2] = {mo_vreg(s->iv, RC_S1), mo_imm(1)};
	mblock_add(s->b, I_S_ADD_U32, 1, &d, 2, u);
	MOpnd cmp[2] = {mo_vreg(s->iv, RC_S1), p->split};
	mblock_add(s->b, I_S_CMP_LT_U32, 0, NULL, 2, cmp);
	mblock_branch(s->b, I_S_CBRANCH_SCC1, main_idx);
	if (p->guard_main >= 0) {
		guard_block(s, op, p->guard_main, I_S_CMP_LT_I32, mo_imm(0), p->split);
		MBlock *b = s->b;
		s->b = s->pre;
		Sym *count = p->t->trips > 0 ? sym_int(c->k->sc, p->t->trips) : isel_loop_count(s, p->t);
		MOpnd n = isel_expr_to_sgpr(s, isel_expr_lower(s, count, op->loc));
		s->b = b;
		p->guard_tail = guard_block(s, op, -1, I_S_CMP_LT_U32, mo_vreg(s->iv, RC_S1), n);
		/* no main trips: straight to the tail's guard */
		MBlock *g = s->f->blocks.data[p->guard_main];
		g->insts.data[g->insts.len - 1].target = p->guard_tail;
	}
	/* the tail is selected from the state before the main loop */
	memcpy(s->val, p->val, sizeof *p->val * (size_t)c->k->nvalues);
	memcpy(s->fused, p->fused, sizeof *p->fused * (size_t)c->k->nops);
	s->nlanemask = 0;
	s->lds_dirty = p->lds_dirty;
	p->main = false;
	s->b = mfunc_block(s->f, NULL);
	return (int)(s->f->blocks.len - 1);
}

void isel_peel_done(Isel *s, IselPeel *p)
{
	s->peel = NULL;
	if (p->guard_tail >= 0) { /* past the tail: the block after the loops */
		MBlock *g = s->f->blocks.data[p->guard_tail];
		g->insts.data[g->insts.len - 1].target = (int32_t)(s->f->blocks.len - 1);
	}
}
