/* mir_live.c — live dwords on entry to and exit from every block of a
 * machine function (mir_live_fill), and one instruction's step backward
 * through a live set (mir_live_step); slots and the rule in mir_live.h.
 * The register allocator builds its intervals from the block sets; the
 * list scheduler's pressure model starts each region from a block's exit
 * set and steps back from it.
 *
 * Algorithm: classic backward dataflow over the CFG of mfunc_succs.
 *   1. Number the slots: each vreg's dwords (vbase), then each physical
 *      dword the code names (pslot), in file and register order.
 *   2. Per block, one backward scan by the rule of mir_live_step gives gen
 *      (dwords read before any def in the block: the step from an empty
 *      set) and kill (dwords written). A def kills only the dwords it
 *      writes (sub-register defs leave the rest of the tuple live); a
 *      MIF_TIED def is a read as well as a write, so its dwords are in gen.
 *   3. out[b] = union of in[s] over successors s; in[b] = gen | (out & ~kill),
 *      iterated in reverse layout order until nothing changes. Loops are laid
 *      out header first, so a reducible loop settles in a couple of sweeps.
 * The MIR is not SSA: a loop-carried accumulator is one vreg defined before
 * the loop and redefined inside it; it is live around the back edge because
 * the read at the loop top is upward-exposed in the header and reaches back
 * from the latch's out set.
 * Cost: O(blocks x slots / 64) per sweep plus one pass over the operands.
 * Requires: valid branch targets (mir_verify) and physical registers below
 * MIR_MAX_PHYS (a violation is a compiler bug: die). */
#include <stdlib.h>
#include <string.h>

#include "mir_live.h"

int mir_live_opnd(const MirLive *lv, MOpnd o, uint32_t *first)
{
	if (o.kind == MO_VREG) {
		check_that(o.reg < lv->nvregs);
		*first = lv->vbase[o.reg] + o.sub;
		return rc_size(o.rc);
	}
	if (o.kind == MO_PREG) {
		int32_t s = lv->pslot[rc_file(o.rc) * MIR_MAX_PHYS + o.reg];
		check_that(s >= 0);
		*first = (uint32_t)s;
		return rc_size(o.rc);
	}
	return 0;
}

/* The rule: the dwords `in` writes die (and join kill, when given), then
 * the dwords it reads, a tied def[0] among them, are live. */
static inline void step(const MirLive *lv, uint64_t *live, uint64_t *kill, const MInst *in)
{
	uint32_t s;
	for (int d = 0; d < in->ndef; d++) {
		int n = mir_live_opnd(lv, in->def[d], &s);
		for (int k = 0; k < n; k++) {
			bs_clr(live, s + k);
			if (kill)
				bs_set(kill, s + k);
		}
	}
	for (int u = 0; u < in->nuse; u++) {
		int n = mir_live_opnd(lv, in->use[u], &s);
		for (int k = 0; k < n; k++)
			bs_set(live, s + k);
	}
	if ((in->flags & MIF_TIED) && in->ndef) {
		int n = mir_live_opnd(lv, in->def[0], &s);
		for (int k = 0; k < n; k++)
			bs_set(live, s + k);
	}
}

void mir_live_step(const MirLive *lv, uint64_t *live, const MInst *in) { step(lv, live, NULL, in); }

/* Slots for every physical dword named anywhere, in file/register order. */
static void number_fixed(MirLive *lv, const MFunc *f)
{
	lv->pslot = xmalloc(RF_COUNT * MIR_MAX_PHYS * sizeof *lv->pslot);
	for (int i = 0; i < RF_COUNT * MIR_MAX_PHYS; i++)
		lv->pslot[i] = -1;
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		const MBlock *b = f->blocks.data[bi];
		for (size_t i = 0; i < b->insts.len; i++) {
			const MInst *in = &b->insts.data[i];
			for (int k = 0; k < in->ndef + in->nuse; k++) {
				MOpnd o = k < in->ndef ? in->def[k] : in->use[k - in->ndef];
				if (o.kind != MO_PREG)
					continue;
				if (o.reg + (uint32_t)rc_size(o.rc) > MIR_MAX_PHYS)
					die("%s: physical register %u beyond any file", f->name, o.reg);
				for (int d = 0; d < rc_size(o.rc); d++)
					lv->pslot[rc_file(o.rc) * MIR_MAX_PHYS + o.reg + d] = 0;
			}
		}
	}
	size_t s = lv->vbase[lv->nvregs];
	for (int i = 0; i < RF_COUNT * MIR_MAX_PHYS; i++)
		if (lv->pslot[i] == 0)
			lv->pslot[i] = (int32_t)s++;
	lv->nslots = s;
}

void mir_live_fill(MirLive *lv, const MFunc *f)
{
	memset(lv, 0, sizeof *lv);
	size_t nv = f->vregs.len, nb = f->blocks.len;
	lv->nvregs = nv;
	lv->nblocks = nb;
	lv->vbase = xmalloc((nv + 1) * sizeof *lv->vbase);
	uint32_t s = 0;
	for (size_t v = 0; v < nv; v++) {
		lv->vbase[v] = s;
		s += (uint32_t)rc_size(f->vregs.data[v]);
	}
	lv->vbase[nv] = s;
	number_fixed(lv, f);
	lv->owner = xmalloc((lv->nslots + 1) * sizeof *lv->owner);
	for (size_t v = 0; v < nv; v++)
		for (uint32_t k = lv->vbase[v]; k < lv->vbase[v + 1]; k++)
			lv->owner[k] = (uint32_t)v;
	for (int i = 0; i < RF_COUNT * MIR_MAX_PHYS; i++)
		if (lv->pslot[i] >= 0)
			lv->owner[lv->pslot[i]] = (uint32_t)(nv + (size_t)i);
	size_t w = lv->words = (lv->nslots + 63) / 64 + 1;
	lv->in = xcalloc(nb * w + 1, sizeof(uint64_t));
	lv->out = xcalloc(nb * w + 1, sizeof(uint64_t));
	uint64_t *gen = xcalloc(nb * w + 1, sizeof(uint64_t)), *kill = xcalloc(nb * w + 1, sizeof(uint64_t));
	for (size_t bi = 0; bi < nb; bi++) {
		const MBlock *b = f->blocks.data[bi];
		for (size_t i = b->insts.len; i-- > 0;)
			step(lv, gen + bi * w, kill + bi * w, &b->insts.data[i]);
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t bi = nb; bi-- > 0;) {
			uint64_t *in = lv->in + bi * w, *out = lv->out + bi * w;
			const uint64_t *g = gen + bi * w, *k = kill + bi * w;
			int succ[2];
			int ns = mfunc_succs(f, bi, succ);
			for (int j = 0; j < ns; j++) {
				check_that(succ[j] >= 0 && (size_t)succ[j] < nb);
				const uint64_t *sin = lv->in + (size_t)succ[j] * w;
				for (size_t i = 0; i < w; i++)
					out[i] |= sin[i];
			}
			for (size_t i = 0; i < w; i++) {
				uint64_t x = g[i] | (out[i] & ~k[i]);
				if (x != in[i]) {
					in[i] = x;
					changed = true;
				}
			}
		}
	}
	free(gen);
	free(kill);
}

void mir_live_free(MirLive *lv)
{
	free(lv->vbase);
	free(lv->pslot);
	free(lv->owner);
	free(lv->in);
	free(lv->out);
	memset(lv, 0, sizeof *lv);
}
