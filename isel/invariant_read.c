/* invariant_read.c — a loop's global reads that read the same elements in
 * every trip, loaded once before the loop, where the plan says so
 * (PLAN_READ_HOISTED, passes/plan/plan.c step 3 has the conditions).
 *
 * Attention reads its Q tile from global memory inside the loop over K2,
 * at coordinates that do not move with K2: every trip loaded it again
 * (eight buffer loads a trip at Wave's shapes) and its first MFMA waited
 * for them. The machine-level hoisting (passes/machine/licm.c) moves only
 * VALU arithmetic; a load is moved by the plan, where its meaning is known.
 *
 * Translation: the read is lowered into the block before the innermost
 * loop (Isel.pre, which holds its loop-invariant code), once: a loop body
 * selected twice (peel.c's main loop and masked tail) reads the registers
 * loaded once. A loop of no trips loads it anyway: buffer loads are
 * bounds-checked, and the values go unused. Contract: the value is the one
 * the read would give in any trip (every use of it is an MMA's operand,
 * which never rewrites its registers). */
#include "isel.h"

static bool hoistable(Isel *s, const Op *op)
{
	/* s->pre: the innermost loop of more than one trip, the one the plan
	 * hoists out of */
	return (s->plan->read[op->id] & PLAN_READ_HOISTED) && s->iv_sym && s->pre;
}

/* A read loaded before its loop: a loop body selected twice (peel.c's
 * main loop and masked tail) reads the registers loaded once. */
typedef struct HoistedRead {
	const Op *op;
	const MBlock *pre;
	TVal *v;
	struct HoistedRead *next;
} HoistedRead;

TVal *isel_read_hoisted(Isel *s, Op *op)
{
	if (!hoistable(s, op))
		return NULL;
	for (HoistedRead *h = s->hoisted; h; h = h->next)
		if (h->op == op && h->pre == s->pre)
			return h->v;
	MBlock *b = s->b;
	size_t first = s->pre->insts.len;
	s->b = s->pre;
	TVal *v = isel_read_global(s, op, op->args[0], s->c->index[op->id]);
	s->b = b;
	for (size_t j = first; j < s->pre->insts.len; j++)
		if (!s->pre->insts.data[j].note)
			s->pre->insts.data[j].note = op->name;
	if (v) {
		HoistedRead *h = ARENA_NEW(&s->c->arena, HoistedRead);
		*h = (HoistedRead){op, s->pre, v, s->hoisted};
		s->hoisted = h;
	}
	return v;
}
