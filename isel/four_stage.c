/* four_stage.c — the four_stage schedule of a reduction loop (Wave's
 * SchedulingType.FOUR_STAGE): the prefetch schedule (prefetch.c, lds_stage.c)
 * one stage deeper, so that the LDS reads of a trip's MMA operands overlap
 * the MFMAs of the trip before instead of stalling the waves right after
 * the barrier. Four stages per trip's data: global load, LDS write, LDS
 * read (into carried registers P), MFMAs.
 *
 * The schedule with S = 2 buffers, one barrier per trip (every load of
 * trip j is of min(j, last), as in prefetch.c):
 *     prologue:  R = load(0); s_barrier; LDS[0] = R; R = load(1); s_barrier;
 *                P = LDS reads of buffer 0; LDS[1] = R; R = load(2); s_barrier
 *     trip i:    the MFMAs on P; P = LDS reads of buffer (i + 1) % 2;
 *                LDS[i % 2] = R; R = load(min(i + 3, last)); s_barrier
 * At the top of trip i: P holds trip i's operands, buffer (i + 1) % 2 trip
 * i + 1's tiles (written before the barrier that ended trip i - 1, or the
 * prologue's last), R trip i + 2's. Between the barriers B(i-1) (ending
 * trip i - 1, or the prologue's last) and B(i), every wave reads only
 * buffer (i + 1) % 2 and writes only buffer i % 2; buffer i % 2 was last
 * read (into P, trip i's operands) between B(i-2) and B(i-1), and is next
 * read between B(i) and B(i+1). So no wave writes a buffer another may
 * still read, and every read follows the barrier after its writes, for
 * any number of trips: 1 (the prologue's loads of 1 and 2 are of trip 0
 * again, unused), odd or runtime counts (a runtime 0 skips the prologue
 * with the loop), and a masked last trip (the loads bound it as in
 * prefetch.c). The last trip's reads of buffer (last + 1) % 2 read tiles
 * in bounds that nobody writes then, and are unused; the barrier ending it
 * keeps every LDS access of the loop before whatever follows.
 *
 * Only with two buffers: with one, the next trip's reads would have to
 * end before a barrier that the LDS writes follow, in the trip's middle,
 * and as they wait for the MFMAs that read P (below), every MFMA would
 * come before it and none would be left to run under the writes and the
 * second barrier (the cycle model: 71% against prefetch's 81% matrix-core
 * utilisation for the 128x256x64 ping-pong GEMM). Reading into copies
 * instead costs a second set of operand registers, which spills at those
 * tile sizes.
 *
 * The MFMAs read P itself, not a copy: the next trip's reads refill P at
 * the end of the body, and the list scheduler (passes/machine/sched.c)
 * moves each up to just after the last MFMA that reads its registers, so
 * the reads run under the trip's remaining MFMAs, and no second set of
 * operand registers is live. That needs the read's value to be used only
 * as an MMA's lhs or rhs (nothing else may hold P's registers past the
 * refill: not the loop's outputs, not an elementwise op that passes its
 * operand through).
 *
 * The buffer parity is the real trip's, (i + 1) % 2, not the clamped
 * one's: at the last trip min(i + 1, last) % 2 would be the buffer the
 * trip writes. So a read whose LDS address moves with the loop (other than
 * its buffer) would need the next trip's index too. The plan
 * (passes/plan/plan.c) asks for four_stage only where every staged read's
 * value is only an MMA operand and its tile's address does not move, and
 * (passes/plan/lds_place.c) where its tiles fit twice in LDS. */
#include "isel.h"

bool isel_fs_fits(Isel *s, Pipe *p)
{
	/* the plan asked for it where the reads' values are only MMA
	 * operands, the tiles' LDS addresses do not move with the loop and
	 * two buffers of every tile fit */
	if (p->lp->pipe != PIPE_FOUR_STAGE || !p->n || s->c->failed)
		return false;
	p->lnext = ARENA_NEWN(&s->c->arena, TVal *, p->n);
	return true;
}

/* Name op on what s->b has had since instruction first. */
static void note_since(Isel *s, size_t first, const Op *op)
{
	for (size_t j = first; j < s->b->insts.len; j++)
		if (!s->b->insts.data[j].note)
			s->b->insts.data[j].note = op->name;
}

void isel_fs_keep(Isel *s, Pipe *p, size_t i, size_t first, TVal *v)
{
	p->lnext[i] = isel_pf_carried(s, v);
	note_since(s, first, p->ops[i]);
}

TVal *isel_fs_shared_read(Isel *s, Op *op)
{
	Pipe *p = s->pipe;
	if (!p || !p->four || p->body != op->parent)
		return NULL;
	size_t i = 0;
	while (i < p->n && p->ops[i] != op)
		i++;
	if (i == p->n || !p->lnext[i])
		return NULL;
	/* the registers, in a TVal of the trip's own (consumers may change
	 * the struct, never the registers: the plan's only-MMA-operand rule) */
	TVal *v = ARENA_NEW(&s->c->arena, TVal);
	*v = *p->lnext[i];
	v->d = ARENA_NEWN(&s->c->arena, MOpnd, v->nd ? v->nd : 1);
	for (int k = 0; k < v->nd; k++)
		v->d[k] = p->lnext[i]->d[k];
	return v;
}

void isel_fs_into(Isel *s, Pipe *p, size_t i, size_t first, TVal *v)
{
	isel_pf_into(s, v, p->lnext[i]);
	note_since(s, first, p->ops[i]);
}
