/* split.c — split_loops: each loop the plan splits (LoopPlan.peel: an
 * unaligned reduction loop's unmasked main loop and masked tail, plan.c
 * step 2; causal attention's split at the diagonal, diag_split.c) made two
 * iterates in the analysed graph, so that selection meets two ordinary
 * loops one after the other.
 *
 * Algorithm, run before each selection from a plan (after hoist_reads,
 * whose moves the copy must see):
 *   1. every tail a split made before (a plan of the lighter-form search,
 *      or the one before it) leaves the graph (op_tail_detach: the uses
 *      of its results go back to the main iterate's);
 *   2. each loop the plan splits gets a new copy of itself (op_tail_new:
 *      its body's ops and values with new ids, the same names, indices
 *      and attributes), put right after it (op_tail_attach): the tail,
 *      whose inits are the main iterate's results and whose results the
 *      rest of the kernel reads; the main iterate runs trips [0, split)
 *      (plan_main_range), the tail the rest (plan_tail_range). The tail
 *      continues the main loop's software pipelining (Op.cont: the
 *      prologue, LDS tiles and carried registers are the main loop's;
 *      isel/isel.c hands the tail the main loop's pipe);
 *   3. every table keyed by op or value id that the later stages read
 *      grows to the new ids, each copy's entry its original's: the
 *      analysis' indices and MMA operand indices, the plan's read
 *      decisions, LDS tiles and places and folded masks (a diagonal
 *      split's known selects, Plan.diag_true, stay the main body's).
 * The tables of p are replaced (plan copies keep theirs); c->index grows
 * in c's arena. The graph is a view's own (plan_own_graph), never the
 * caller's kernel, which the interpreter runs. */
#include <string.h>

#include "plan.h"

/* x's first n entries in a new array of m (the rest zero), elements of size es. */
static void *grown(Analysis *c, const void *x, size_t n, size_t m, size_t es)
{
	void *r = arena_alloc(&c->arena, es * (m ? m : 1));
	memset(r, 0, es * (m ? m : 1));
	if (x && n)
		memcpy(r, x, es * (n < m ? n : m));
	return r;
}

/* Step 3 for one pair: the copy b of op a, and its body's ops and values
 * (a split body holds no nested region: plan.c's body_plain). */
static void copy_entries(Analysis *c, Plan *p, const Op *a, const Op *b, int nops0)
{
	if (a->id < nops0) {
		c->index[b->id] = c->index[a->id];
		if (c->mma_operand) {
			c->mma_operand[2 * (size_t)b->id] = c->mma_operand[2 * (size_t)a->id];
			c->mma_operand[2 * (size_t)b->id + 1] = c->mma_operand[2 * (size_t)a->id + 1];
		}
	}
	if (a->id < p->nops) {
		p->read[b->id] = p->read[a->id];
		p->tile[b->id] = p->tile[a->id];
		p->lds[b->id] = p->lds[a->id];
	}
	for (int j = 0; j < a->nresults && j < b->nresults; j++)
		if (a->results[j]->id < p->nvalues)
			p->konst[b->results[j]->id] = p->konst[a->results[j]->id];
}

void plan_split_loops(Analysis *c, Plan *p)
{
	Kernel *k = c->k;
	for (int i = 0; i < p->nloops; i++) /* 1 */
		if (p->loop[i].op->tail)
			op_tail_detach(k, (Op *)p->loop[i].op);
	bool any = false;
	for (int i = 0; i < p->nloops; i++)
		any |= p->loop[i].peel;
	if (!any || c->failed)
		return;
	int nops0 = k->nops;
	Op **tail = ARENA_NEWN(&c->arena, Op *, p->nloops + 1);
	for (int i = 0; i < p->nloops; i++) /* 2 */
		if (p->loop[i].peel)
			tail[i] = op_tail_new(k, (Op *)p->loop[i].op);
	/* 3 */
	c->index = grown(c, c->index, (size_t)nops0, (size_t)k->nops, sizeof *c->index);
	if (c->mma_operand)
		c->mma_operand = grown(c, c->mma_operand, 2 * (size_t)nops0, 2 * (size_t)k->nops, sizeof *c->mma_operand);
	size_t n = (size_t)p->nops + 1, m = (size_t)k->nops + 1;
	int *loop_of = grown(c, p->loop_of, n, m, sizeof *p->loop_of);
	for (size_t j = n; j < m; j++)
		loop_of[j] = -1;
	p->loop_of = loop_of;
	p->read = grown(c, p->read, n, m, sizeof *p->read);
	p->tile = grown(c, p->tile, n, m, sizeof *p->tile);
	p->lds = grown(c, p->lds, n, m, sizeof *p->lds);
	p->diag_true = grown(c, p->diag_true, n, m, sizeof *p->diag_true);
	p->konst = grown(c, p->konst, (size_t)p->nvalues + 1, (size_t)k->nvalues + 1, sizeof *p->konst);
	for (int i = 0; i < p->nloops; i++) {
		if (!p->loop[i].peel)
			continue;
		Op *a = (Op *)p->loop[i].op, *b = tail[i];
		copy_entries(c, p, a, b, nops0);
		for (size_t j = 0; j < a->body->ops.len; j++)
			copy_entries(c, p, a->body->ops.data[j], b->body->ops.data[j], nops0);
	}
	p->nops = k->nops;
	p->nvalues = k->nvalues;
	for (int i = 0; i < p->nloops; i++)
		if (p->loop[i].peel)
			op_tail_attach((Op *)p->loop[i].op, tail[i]);
}

TripRange plan_tail_range(const LoopPlan *lp)
{
	return (TripRange){.from = lp->split};
}
