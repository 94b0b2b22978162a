/* sched_pressure.c — the scheduler's register-pressure tracker: live VGPR
 * and AGPR dwords along a region's schedule (contract in sched_pressure.h).
 *
 * Liveness is the machine IR's (ir/mir_live.c), the one the allocator
 * builds its intervals from: per dword, a def kills the dwords it writes (a
 * MIF_TIED def also reads them), block sets by backward dataflow over
 * mfunc_succs to a fixpoint, computed once per function (a schedule keeps
 * every dependence, so the blocks' sets do not change). A region's state
 * at its start is exact: the block's exit set, stepped backward
 * (mir_live_step) to the region's end, is `keep` (what must survive the
 * region); stepped on through the region, it gives what is live at the
 * start. Both are then held as one byte per vreg dword (physical registers
 * are not counted), the form the per-candidate queries read. Along a
 * schedule a dword dies at its last read in the region unless kept, and a
 * def nobody reads is dead at once; a dword read, redefined and read again
 * stays live in between (an over-count both orders share, as dependences
 * keep that pattern in every order). */
#include <stdlib.h>
#include <string.h>

#include "sched_pressure.h"

/* Runs the body with `d` set to each vreg dword `in` reads (write: false; a
 * tied def is read too) or writes (write: true), repeats included. */
#define FOR_DWORDS(p, in, write, ...) \
	do { \
		int nops_ = (write) ? (in)->ndef : (in)->nuse + 1; \
		for (int k_ = 0; k_ < nops_; k_++) { \
			MOpnd o_; \
			if (write) \
				o_ = (in)->def[k_]; \
			else if (k_ < (in)->nuse) \
				o_ = (in)->use[k_]; \
			else if (((in)->flags & MIF_TIED) && (in)->ndef) \
				o_ = (in)->def[0]; \
			else \
				continue; \
			if (o_.kind != MO_VREG) \
				continue; \
			uint32_t b_ = (p)->lv.vbase[o_.reg] + o_.sub; \
			for (uint32_t d = b_; d < b_ + (uint32_t)rc_size(o_.rc); d++) { \
				__VA_ARGS__ \
			} \
		} \
	} while (0)

void sched_pressure_init(SchedPressure *p, const MFunc *f)
{
	*p = (SchedPressure){.f = f};
	mir_live_fill(&p->lv, f);
	p->ndw = p->lv.vbase[p->lv.nvregs];
	size_t n = p->ndw + 1;
	p->file = xcalloc(n, 1);
	for (size_t v = 0; v < p->lv.nvregs; v++)
		for (uint32_t d = p->lv.vbase[v]; d < p->lv.vbase[v + 1]; d++)
			p->file[d] = (uint8_t)rc_file(f->vregs.data[v]);
	p->set = xcalloc(p->lv.words, sizeof *p->set);
	p->live = xcalloc(n, 1);
	p->keep = xcalloc(n, 1);
	p->uses = xcalloc(n, sizeof *p->uses);
	p->rmark = xcalloc(n, sizeof *p->rmark);
	p->wmark = xcalloc(n, sizeof *p->wmark);
}

void sched_pressure_free(SchedPressure *p)
{
	mir_live_free(&p->lv);
	free(p->file);
	free(p->set);
	free(p->live);
	free(p->keep);
	free(p->uses);
	free(p->rmark);
	free(p->wmark);
}

static int weight(const SchedPressure *p, uint32_t d, int *v)
{
	*v = p->file[d] == RF_VGPR;
	return p->file[d] != RF_SGPR;
}

/* The vreg dwords of a set of slots, one byte each. */
static void unpack(const SchedPressure *p, const uint64_t *set, uint8_t *bytes)
{
	memset(bytes, 0, p->ndw);
	for (size_t wi = 0; wi < p->lv.words; wi++)
		for (uint64_t x = set[wi]; x; x &= x - 1) {
			size_t d = wi * 64 + (size_t)__builtin_ctzll(x);
			if (d >= p->ndw)
				return; /* physical registers: not counted */
			bytes[d] = 1;
		}
}

void sched_pressure_region(SchedPressure *p, size_t bi, size_t lo, size_t hi)
{
	const MBlock *b = p->f->blocks.data[bi];
	memcpy(p->set, p->lv.out + bi * p->lv.words, p->lv.words * sizeof *p->set);
	for (size_t i = b->insts.len; i-- > hi;)
		mir_live_step(&p->lv, p->set, &b->insts.data[i]);
	unpack(p, p->set, p->keep);
	memset(p->uses, 0, p->ndw * sizeof *p->uses);
	for (size_t i = hi; i-- > lo;) {
		const MInst *in = &b->insts.data[i];
		mir_live_step(&p->lv, p->set, in);
		p->epoch++;
		FOR_DWORDS(p, in, false, if (p->rmark[d] != p->epoch) { p->rmark[d] = p->epoch; p->uses[d]++; });
	}
	unpack(p, p->set, p->live);
	p->cur = p->curv = 0;
	for (uint32_t d = 0; d < p->ndw; d++)
		if (p->live[d]) {
			int v, w = weight(p, d, &v);
			p->cur += w;
			p->curv += v;
		}
	p->peak = p->cur;
	p->peakv = p->curv;
}

void sched_pressure_delta(SchedPressure *p, const MInst *in, SchedDelta *out)
{
	uint32_t e = ++p->epoch;
	int add = 0, addv = 0, freed = 0;
	FOR_DWORDS(p, in, false, p->rmark[d] = e;);
	FOR_DWORDS(p, in, true, {
		if (p->wmark[d] == e)
			continue;
		p->wmark[d] = e;
		int v, w = weight(p, d, &v);
		if (!p->live[d]) {
			add += w;
			addv += v;
		}
		if (p->uses[d] - (p->rmark[d] == e) == 0 && !p->keep[d])
			freed += w; /* a def nobody reads */
	});
	FOR_DWORDS(p, in, false, {
		if (p->rmark[d] != e || p->wmark[d] == e)
			continue;
		p->rmark[d] = e - 1; /* count once */
		int v, w = weight(p, d, &v);
		if (p->live[d] && p->uses[d] == 1 && !p->keep[d])
			freed += w;
	});
	out->peak = p->cur + add;
	out->peakv = p->curv + addv;
	out->after = add - freed;
}

void sched_pressure_place(SchedPressure *p, const MInst *in)
{
	SchedDelta dl;
	sched_pressure_delta(p, in, &dl);
	if (dl.peak > p->peak)
		p->peak = dl.peak;
	if (dl.peakv > p->peakv)
		p->peakv = dl.peakv;
	uint32_t e = ++p->epoch;
	FOR_DWORDS(p, in, false, if (p->rmark[d] != e) { p->rmark[d] = e; p->uses[d]--; });
	FOR_DWORDS(p, in, true, if (!p->live[d]) {
		p->live[d] = 1;
		int v, w = weight(p, d, &v);
		p->cur += w;
		p->curv += v;
	});
	/* dwords read for the last time, and dead defs */
	for (int pass = 0; pass < 2; pass++)
		FOR_DWORDS(p, in, pass == 1, if (p->live[d] && p->uses[d] == 0 && !p->keep[d]) {
			p->live[d] = 0;
			int v, w = weight(p, d, &v);
			p->cur -= w;
			p->curv -= v;
		});
}
