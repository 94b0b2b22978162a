/* priority.c — s_setprio around the MFMAs of the MMAs the plan raised
 * (passes/plan/pingpong.c: a loop's second matrix product, attention's
 * P·V), after register allocation.
 *
 * In each single-block loop (a block whose last instruction branches back
 * to itself) holding MFMAs noted with a raised MMA's name: s_setprio 1
 * right before the first of them and s_setprio 0 right after the last, so
 * a wave issues its second product ahead of the other waves of its SIMD
 * and falls back to the normal priority for the rest of its trip. The
 * cycle model arbitrates as the hardware does (loader/timing/cu.c: highest
 * priority first, then oldest). s_setprio reads and writes no register or
 * counter: no wait or hazard changes; the order of the rest is kept. */
#include "machine.h"

static bool raised(const MInst *in, const char *const *names, int n)
{
	if (isa_class(in->op) != MC_MFMA || !in->note)
		return false;
	for (int k = 0; k < n; k++)
		if (in->note == names[k])
			return true;
	return false;
}

static void setprio(MBlock *b, size_t at, int level, const char *note)
{
	MInst in = {.op = I_S_SETPRIO, .nuse = 1, .vmcnt = -1, .lgkmcnt = -1, .target = -1, .note = note};
	in.use[0] = mo_imm(level);
	mblock_insert(b, at, in);
}

/* Does in read a register of d (a defined range)? */
static bool reads(const MInst *in, const MOpnd *d)
{
	for (int u = 0; u < in->nuse; u++) {
		const MOpnd *o = &in->use[u];
		if (o->kind == MO_PREG && d->kind == MO_PREG && rc_file(o->rc) == rc_file(d->rc) &&
			o->reg < d->reg + (uint32_t)rc_size(d->rc) && d->reg < o->reg + (uint32_t)rc_size(o->rc))
			return true;
	}
	return false;
}

/* The first instruction before `before` that reads what an MFMA of the
 * block not in names wrote earlier in the block (the trip's first use of
 * its first product), or `before`. */
static size_t first_consumer(const MBlock *b, size_t before, const char *const *names, int n)
{
	for (size_t i = 0; i < before; i++) {
		const MInst *in = &b->insts.data[i];
		if (isa_class(in->op) == MC_MFMA)
			continue;
		for (size_t j = 0; j < i; j++) {
			const MInst *m = &b->insts.data[j];
			if (isa_class(m->op) == MC_MFMA && !raised(m, names, n) && m->ndef && reads(in, &m->def[0]))
				return i;
		}
	}
	return before;
}

int raise_priorities(MFunc *f, const char *const *names, int n)
{
	int loops = 0;
	for (size_t bi = 0; bi < f->blocks.len && n; bi++) {
		MBlock *b = f->blocks.data[bi];
		if (!b->insts.len)
			continue;
		const MInst *last = &b->insts.data[b->insts.len - 1];
		if (!mop_is_branch(last->op) || mop_is_uncond_branch(last->op) || last->target != (int32_t)bi)
			continue;
		size_t first = b->insts.len, end = 0;
		for (size_t i = 0; i < b->insts.len; i++)
			if (raised(&b->insts.data[i], names, n)) {
				if (first == b->insts.len)
					first = i;
				end = i + 1;
			}
		if (first == b->insts.len)
			continue;
		const char *note = b->insts.data[first].note;
		size_t low = first_consumer(b, first, names, n);
		if (low < first && bi + 1 < f->blocks.len) {
			/* normal priority from the first use of the first product to
			 * the second: raised across the back edge and the next
			 * trip's first product; normal again after the loop */
			setprio(f->blocks.data[bi + 1], 0, 0, note);
			setprio(b, first, 1, note);
			setprio(b, low, 0, note);
		} else {
			setprio(b, end, 0, note);
			setprio(b, first, 1, note);
		}
		loops++;
	}
	return loops;
}
