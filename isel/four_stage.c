/* four_stage.c — the four_stage schedule of a reduction loop (Wave's
 * SchedulingType.FOUR_STAGE): the prefetch schedule with two LDS buffers
 * (prefetch.c, shared.c) one stage deeper, so that the LDS reads of a trip
 * overlap the MFMAs of the one before it instead of stalling the waves
 * right after the barrier. Four stages per trip's data: global load, LDS
 * write, LDS read (into carried registers P), MFMAs.
 *
 * The schedule (S = 2 buffers, one barrier per trip; every load of trip j
 * is of min(j, last), as in prefetch.c):
 *     prologue:  R = load(0); s_barrier; LDS[0] = R; R = load(1); s_barrier;
 *                P = LDS reads of buffer 0; LDS[1] = R; R = load(2); s_barrier
 *     trip i:    operands = copy of P; P = LDS reads of buffer (i + 1) % 2;
 *                LDS[i % 2] = R; R = load(min(i + 3, last)); the MFMAs on
 *                the operands; s_barrier
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
 * in bounds nobody writes then, and are unused; the barrier ending it
 * keeps every LDS access of the loop before whatever follows.
 *
 * The buffer parity is the real trip's, (i + 1) % 2, not the clamped
 * one's: at the last trip min(i + 1, last) % 2 would be the buffer the
 * trip writes. So a read whose LDS address moves with the loop (other than
 * its buffer) would need the next trip's index too; such a loop, one whose
 * tiles got one buffer (two did not fit in LDS), or one without staged
 * reads gets the plain prefetch schedule.
 *
 * Cost: P and the trip's copy of it are both live while the MFMAs run, a
 * second set of operand registers; where that spills or costs a wave the
 * driver steps down to prefetch with two buffers (driver/options.c,
 * compile_lighten). */
#include "isel.h"

bool isel_fs_fits(Isel *s, Pipe *p)
{
	if (s->c->opts.schedule != SCHED_FOUR_STAGE || !p->n || p->nbuf != 2 || s->c->failed)
		return false;
	for (size_t i = 0; i < p->n; i++)
		if (!isel_shared_fixed(s, p->ops[i]))
			return false;
	p->lnext = ARENA_NEWN(&s->c->arena, TVal *, p->n);
	s->c->four_staged++;
	return true;
}

/* Name op on what s->b has had since instruction first. */
static void note_since(Isel *s, size_t first, const Op *op)
{
	for (size_t j = first; j < s->b->insts.len; j++)
		if (!s->b->insts.data[j].note)
			s->b->insts.data[j].note = op->name;
}

bool isel_fs_prologue(Isel *s, Pipe *p)
{
	for (size_t i = 0; i < p->n; i++) {
		size_t first = s->b->insts.len;
		TVal *v = isel_read_shared_ahead(s, p->ops[i], 0);
		if (!v)
			return false;
		p->lnext[i] = isel_pf_carried(s, v);
		note_since(s, first, p->ops[i]);
	}
	return true;
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
	TVal *cur = isel_pf_take(s, p->lnext[i]);
	size_t first = s->b->insts.len;
	TVal *v = isel_read_shared_ahead(s, op, 1);
	if (v)
		isel_pf_into(s, first, v, p->lnext[i]);
	return v ? cur : NULL;
}
