/* sched_pressure.c — the scheduler's register-pressure tracker: live VGPR
 * and AGPR dwords along a region's schedule (contract in sched_pressure.h).
 *
 * Liveness is per dword of every virtual register, as the allocator counts
 * it (regalloc/liveness.c, which this folder may not call): a def kills the
 * dwords it writes (a MIF_TIED def also reads them), block sets by backward
 * dataflow over mfunc_succs to a fixpoint. A region's state at its start is
 * exact: the live set at the region's end, walked backward from the block's
 * exit, is `keep` (what must survive the region); walked on through the
 * region, it gives what is live at the start. Along a schedule a dword dies
 * at its last read in the region unless kept, and a def nobody reads is
 * dead at once; a dword read, redefined and read again stays live in
 * between (an over-count both orders share, as dependences keep that
 * pattern in every order). */
#include <stdlib.h>
#include <string.h>

#include "sched_pressure.h"

/* Runs the body with `d` set to each dword `in` reads (write: false; a tied def
 * is read too) or writes (write: true), repeats included. */
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
			for (uint32_t d = (p)->vbase[o_.reg] + o_.sub; d < (p)->vbase[o_.reg] + o_.sub + (uint32_t)rc_size(o_.rc); \
				d++) { \
				__VA_ARGS__ \
			} \
		} \
	} while (0)

static void block_liveness(SchedPressure *p)
{
	const MFunc *f = p->f;
	size_t nb = f->blocks.len, n = p->ndw;
	uint8_t *gen = xcalloc(nb * n + 1, 1), *kill = xcalloc(nb * n + 1, 1), *in = xcalloc(nb * n + 1, 1);
	p->live_out = xcalloc(nb * n + 1, 1);
	for (size_t bi = 0; bi < nb; bi++) {
		const MBlock *b = f->blocks.data[bi];
		uint8_t *g = gen + bi * n, *k = kill + bi * n;
		for (size_t i = 0; i < b->insts.len; i++) {
			const MInst *x = &b->insts.data[i];
			FOR_DWORDS(p, x, false, if (!k[d]) g[d] = 1;);
			if (!(x->flags & MIF_TIED))
				FOR_DWORDS(p, x, true, k[d] = 1;);
		}
	}
	for (bool more = true; more;) {
		more = false;
		for (size_t bi = nb; bi-- > 0;) {
			int succ[2];
			int ns = mfunc_succs(f, bi, succ);
			uint8_t *out = p->live_out + bi * n, *bin = in + bi * n;
			for (size_t d = 0; d < n; d++) {
				uint8_t o = 0;
				for (int j = 0; j < ns; j++)
					o |= in[(size_t)succ[j] * n + d];
				uint8_t i = gen[bi * n + d] | (o & (uint8_t)!kill[bi * n + d]);
				if (o != out[d] || i != bin[d]) {
					out[d] = o;
					bin[d] = i;
					more = true;
				}
			}
		}
	}
	free(gen);
	free(kill);
	free(in);
}

void sched_pressure_init(SchedPressure *p, const MFunc *f, const uint32_t *vbase, size_t nv)
{
	*p = (SchedPressure){.f = f, .vbase = vbase, .nv = nv, .ndw = vbase[nv]};
	size_t n = p->ndw + 1;
	p->file = xcalloc(n, 1);
	for (size_t v = 0; v < nv; v++)
		for (uint32_t d = vbase[v]; d < vbase[v + 1]; d++)
			p->file[d] = (uint8_t)rc_file(f->vregs.data[v]);
	p->live = xcalloc(n, 1);
	p->keep = xcalloc(n, 1);
	p->uses = xcalloc(n, sizeof *p->uses);
	p->rmark = xcalloc(n, sizeof *p->rmark);
	p->wmark = xcalloc(n, sizeof *p->wmark);
	block_liveness(p);
}

void sched_pressure_free(SchedPressure *p)
{
	free(p->file);
	free(p->live);
	free(p->keep);
	free(p->uses);
	free(p->rmark);
	free(p->wmark);
	free(p->live_out);
}

/* One instruction backward through a live set: its writes die (a tied def
 * is read as well), its reads are live. */
static void step_back(const SchedPressure *p, uint8_t *live, const MInst *in)
{
	FOR_DWORDS(p, in, true, live[d] = 0;);
	FOR_DWORDS(p, in, false, live[d] = 1;);
}

static int weight(const SchedPressure *p, uint32_t d, int *v)
{
	*v = p->file[d] == RF_VGPR;
	return p->file[d] != RF_SGPR;
}

void sched_pressure_region(SchedPressure *p, size_t bi, size_t lo, size_t hi)
{
	const MBlock *b = p->f->blocks.data[bi];
	memcpy(p->keep, p->live_out + bi * p->ndw, p->ndw);
	for (size_t i = b->insts.len; i-- > hi;)
		step_back(p, p->keep, &b->insts.data[i]);
	memcpy(p->live, p->keep, p->ndw);
	memset(p->uses, 0, p->ndw * sizeof *p->uses);
	for (size_t i = hi; i-- > lo;) {
		const MInst *in = &b->insts.data[i];
		step_back(p, p->live, in);
		p->epoch++;
		FOR_DWORDS(p, in, false, if (p->rmark[d] != p->epoch) { p->rmark[d] = p->epoch; p->uses[d]++; });
	}
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
