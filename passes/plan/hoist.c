/* hoist.c — hoist_reads: the loop-invariant global reads the plan hoists
 * (PLAN_READ_HOISTED, plan.c step 3 has the conditions) moved in the
 * analysed graph out of their loop, so that selection meets them as
 * ordinary reads before it and loads them once.
 *
 * Attention reads its Q tile from global memory inside the loop over K2,
 * at coordinates that do not move with K2: every trip loaded it again
 * (eight buffer loads a trip at Wave's shapes) and its first MFMA waited
 * for them. The machine-level hoisting (passes/machine/licm.c) moves only
 * VALU arithmetic; a load is moved here, where its meaning is known.
 *
 * Algorithm: plan_loops records every read it hoists (Plan.hoist): the
 * region it is written in, its place there and the loop it leaves (the
 * innermost loop of more than one trip around it; loops of one trip in
 * between are left too). The graph follows the plan it is selected from:
 *   1. every recorded read that lies elsewhere goes back to its place (all
 *      of them leave first, then each is put back in graph order, so the
 *      regions are as written);
 *   2. every read the plan still hoists (plan_lighten's plain step drops
 *      them all) leaves its region and is put right before its loop, in
 *      the loop's region, in graph order: where the loop's first trip
 *      would read it.
 * A split loop's two bodies (isel/peel.c) then read the registers loaded
 * once, and a loop of no trips loads it anyway: buffer loads are
 * bounds-checked and the values go unused. Contract (plan.c): the read's
 * index mentions none of the loops it leaves, nothing in the kernel
 * writes its tensor, and every use of its value is an MMA's operand
 * (which never rewrites its registers) in a body that sets no symbol.
 *
 * The view gets a graph of its own where it has a loop (kernel_view_prune
 * keeping everything: ids keep their numbers; split.c copies loops too), so the
 * caller's kernel, which the interpreter runs, is never changed; plan_loops
 * asks for it before it records ops (plan_own_graph). */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* Is there a loop in r? */
static bool has_loop(const Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++)
		if (r->ops.data[i]->kind == OP_ITERATE || (r->ops.data[i]->body && has_loop(r->ops.data[i]->body)))
			return true;
	return false;
}

void plan_own_graph(Analysis *c, bool always)
{
	Kernel *k = c->k;
	if (k->owns_graph || !k->view_of || (!always && !has_loop(k->body)))
		return; /* (nothing for plan_loops to hoist or split) */
	bool *op = xcalloc((size_t)k->nops + 1, sizeof *op), *val = xcalloc((size_t)k->nvalues + 1, sizeof *val);
	memset(op, 1, (size_t)k->nops + 1);
	memset(val, 1, (size_t)k->nvalues + 1);
	kernel_view_prune(k, op, val);
	free(op);
	free(val);
}

void plan_hoist_reads(Analysis *c, const Plan *p)
{
	check_that(!p->nhoist || c->k->owns_graph); /* plan_own_graph */
	for (int i = 0; i < p->nhoist; i++) /* 1 */
		if (p->hoist[i].read->parent != p->hoist[i].home)
			region_take_out(p->hoist[i].read);
	for (int i = 0; i < p->nhoist; i++)
		if (!p->hoist[i].read->parent)
			region_put_at(p->hoist[i].home, p->hoist[i].place, p->hoist[i].read);
	for (int i = 0; i < p->nhoist; i++) { /* 2 */
		const PlanHoist *h = &p->hoist[i];
		if (!(p->read[h->read->id] & PLAN_READ_HOISTED))
			continue;
		region_take_out(h->read);
		region_put_at(h->loop->parent, region_place_of(h->loop->parent, h->loop), h->read);
	}
}
