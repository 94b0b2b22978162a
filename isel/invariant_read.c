/* invariant_read.c — a loop's global reads that read the same elements in
 * every trip, loaded once before the loop.
 *
 * Attention reads its Q tile from global memory inside the loop over K2,
 * at coordinates that do not move with K2: every trip loaded it again
 * (eight buffer loads a trip at Wave's shapes) and its first MFMA waited
 * for them. The machine-level hoisting (passes/machine/licm.c) moves only
 * VALU arithmetic; a load is hoisted here, where its meaning is known.
 *
 * A read is hoisted into the block before the innermost loop (Isel.pre,
 * which holds its loop-invariant code) when:
 *   - it is a plain read (no mapping) of a global tensor that nothing in
 *     the kernel writes, of elements of at most 4 bytes (index64.c's
 *     checks run at the op), directly in the loop's body (not under a
 *     conditional's exec mask);
 *   - its index (every dim's start and coordinate) does not mention the
 *     loop's induction variable, and the body sets no symbol (set_symbol
 *     could move what the index names);
 *   - every use of its value is an MMA's lhs or rhs operand, which only
 *     reads its registers: nothing can rewrite them in place, so the
 *     registers hold the tile for every trip;
 *   - the driver has not asked for the plain form (Analysis.no_hoist: the
 *     longer live range cost spills or waves, driver/options.c).
 * A loop of no trips loads it anyway: buffer loads are bounds-checked, and
 * the values go unused. Contract: the value is the one the read would give
 * in any trip. */
#include "isel.h"

/* Is every use of v in region r (and the regions nested in it) an MMA's
 * lhs or rhs, and does r set no symbol? */
static bool only_mma_operand(const Region *r, const Value *v)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (op->kind == OP_SET_SYMBOL)
			return false;
		for (int a = 0; a < op->nargs; a++)
			if (op->args[a] == v && !(op->kind == OP_MMA && a < 2))
				return false;
		if (op->body && !only_mma_operand(op->body, v))
			return false;
	}
	return true;
}

static bool hoistable(Isel *s, const Op *op)
{
	const Region *body = op->parent;
	if (s->c->no_hoist || !s->iv_sym || !s->pre || s->masked || !body || !body->owner ||
		body->owner->kind != OP_ITERATE)
		return false;
	return isel_loop_movable_read(s, op) && !isel_read_moves_with(s, op, s->iv_sym) &&
	       only_mma_operand(body, op_result((Op *)op));
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
		s->c->hoisted_reads++;
		HoistedRead *h = ARENA_NEW(&s->c->arena, HoistedRead);
		*h = (HoistedRead){op, s->pre, v, s->hoisted};
		s->hoisted = h;
	}
	return v;
}
