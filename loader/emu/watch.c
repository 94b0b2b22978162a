/* watch.c — memory watched byte by byte, for the late-memory mode (late.c)
 * and the race detector (EmuPolicy.races). Only LDS and writable global
 * regions are watched: a read-only region cannot be written, so no access
 * to it completes late or races. Every LDS access (lds_ptr) and global
 * access (dev_ptr) of a watched launch comes here with its lane, address
 * and size; the shadow arrays are allocated when a region is first touched
 * (calloc: pages never touched cost nothing).
 *
 * Late marks: one tag per byte (the writing wave and its outstanding
 * store's slot, late.c) from a store's issue to its completion. Another
 * wave's access to a marked byte is an error naming the store and the wait
 * its wave has not executed; the writer's own accesses are in order (except
 * LDS written by a DMA, marked `own`).
 *
 * Races (after FastTrack, Flanagan and Freund, PLDI 2009, simplified to
 * barrier epochs): each byte keeps its last write and the reads since, each
 * as a site (workgroup, barrier epoch, wave, lane, pc). Two accesses are
 * ordered when they come from one wave (program order) or from one
 * workgroup in different epochs (an s_barrier released between them);
 * accesses of different workgroups are never ordered (the hardware runs
 * them concurrently; no inter-workgroup synchronisation is modelled, so a
 * kernel that orders workgroups through atomics and flags is reported too).
 * A read races with the last write if they are not ordered; a write with
 * the last write and with the reads since. Two atomics never race. The
 * reads since the last write are kept as the latest read and the latest
 * read by another wave of the same workgroup and epoch (one of the two is
 * another wave than any writer's), plus the latest read by another
 * workgroup that a later workgroup's read displaced; a write clears them
 * (earlier reads are ordered before it or were reported). LDS sites from
 * another workgroup are stale (LDS is per workgroup). Each distinct pair of
 * instructions is counted once and the first EMU_RACE_REPORTS are described
 * in EmuLaunch.report. Epochs are kept in 20 bits: a workgroup passing
 * more than 2^20 barriers could see two epochs as one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/util.h"
#include "emu_int.h"

typedef struct RaceSite {
	uint32_t wg; /* linear workgroup id + 1; 0: none */
	uint32_t pc; /* offset from the code region's base */
	uint32_t bits; /* epoch:20 wave:4 lane:6 atomic:1 */
} RaceSite;

typedef struct RaceByte {
	RaceSite w, r1, r2, x;
} RaceByte;

typedef struct Watch {
	size_t nregions;
	uint16_t **mark;  /* per region: late marks, NULL until touched */
	RaceByte **race;  /* per region: race records */
	uint16_t *lds_mark;
	RaceByte *lds_race;
	/* the distinct pairs of racing instructions: open addressing */
	uint64_t *pairs;
	size_t npairs, cap;
	size_t report_used;
} Watch;

enum { MA_READ, MA_WRITE, MA_ATOMIC };

static uint32_t site_epoch(const RaceSite *s) { return s->bits & 0xfffff; }
static uint32_t site_wave(const RaceSite *s) { return (s->bits >> 20) & 15; }
static uint32_t site_lane(const RaceSite *s) { return (s->bits >> 24) & 63; }
static bool site_atomic(const RaceSite *s) { return (s->bits >> 30) & 1; }

void emu_watch_new(Emu *e)
{
	Watch *wt = xcalloc(1, sizeof *wt);
	wt->nregions = emu_mem_count(e->mem);
	wt->mark = xcalloc(wt->nregions + 1, sizeof *wt->mark);
	wt->race = xcalloc(wt->nregions + 1, sizeof *wt->race);
	size_t lds = e->wg->lds_size ? e->wg->lds_size : 1;
	if (e->late)
		wt->lds_mark = xcalloc(lds, sizeof *wt->lds_mark);
	if (e->races)
		wt->lds_race = xcalloc(lds, sizeof *wt->lds_race);
	e->wt = wt;
}

void emu_watch_free(Emu *e)
{
	Watch *wt = e->wt;
	if (!wt)
		return;
	for (size_t i = 0; i < wt->nregions; i++) {
		free(wt->mark[i]);
		free(wt->race[i]);
	}
	free(wt->mark);
	free(wt->race);
	free(wt->lds_mark);
	free(wt->lds_race);
	free(wt->pairs);
	free(wt);
	e->wt = NULL;
}

uint64_t emu_watch_races(const Emu *e) { return e->wt ? e->wt->npairs : 0; }

/* What an access of `in` does to memory: an LDS DMA (buffer_load ... lds)
 * reads global memory and writes LDS. */
static int access_kind(const Inst *in, bool lds)
{
	const IsaInfo *r = &isa_info[in->id];
	if (in->fmt == FMT_MUBUF && in->lds)
		return lds ? MA_WRITE : MA_READ;
	if (r->flags & IF_ATOMIC)
		return MA_ATOMIC;
	if (r->flags & IF_STORE)
		return MA_WRITE;
	return MA_READ;
}

/* ---- late marks ---- */

static uint16_t *marks_of(Emu *e, const EmuRegion *r)
{
	Watch *wt = e->wt;
	if (!r)
		return wt->lds_mark;
	if (!wt->mark[r->index])
		wt->mark[r->index] = xcalloc(r->size ? r->size : 1, sizeof **wt->mark);
	return wt->mark[r->index];
}

static void where_text(const EmuRegion *r, uint64_t off, char *buf, size_t len)
{
	if (r)
		snprintf(buf, len, "offset %llu of '%s' (address 0x%llx)", (unsigned long long)off, r->name,
			 (unsigned long long)(r->addr + off));
	else
		snprintf(buf, len, "LDS offset 0x%llx", (unsigned long long)off);
}

static bool late_check(Emu *e, Wave *w, const Inst *in, const EmuRegion *r, uint64_t off, unsigned size, int lane,
	int kind)
{
	uint16_t *m = marks_of(e, r);
	uint16_t mine = kind == MA_WRITE ? emu_late_tag(w) : 0;
	bool dma = in->fmt == FMT_MUBUF && in->lds;
	for (unsigned b = 0; b < size; b++) {
		uint16_t t = m[off + b];
		if (!t || t == mine)
			continue;
		bool other = (unsigned)(t >> 7) - 1 != w->id;
		if (!other && (dma || !emu_late_tag_own(e->wg, t)))
			continue;
		char where[160], what[400];
		where_text(r, off + b, where, sizeof where);
		emu_late_tag_text(e, e->wg, t, what, sizeof what);
		emu_fail(e, w, in, "late memory: %s %s (lane %d), written by %s", kind == MA_READ ? "reads" : "writes",
			 where, lane, what);
		return false;
	}
	if (mine) {
		for (unsigned b = 0; b < size; b++)
			m[off + b] = mine;
		emu_late_wrote(w, r ? (int)r->index : -1, off, size);
	}
	return true;
}

void emu_watch_unmark(Emu *e, int region, uint64_t off, uint32_t size, uint16_t tag)
{
	Watch *wt = e->wt;
	uint16_t *m = region < 0 ? wt->lds_mark : wt->mark[region];
	if (!m)
		return;
	for (uint32_t b = 0; b < size; b++)
		if (m[off + b] == tag)
			m[off + b] = 0;
}

/* ---- races ---- */

static RaceByte *races_of(Emu *e, const EmuRegion *r)
{
	Watch *wt = e->wt;
	if (!r)
		return wt->lds_race;
	if (!wt->race[r->index])
		wt->race[r->index] = xcalloc(r->size ? r->size : 1, sizeof **wt->race);
	return wt->race[r->index];
}

/* Record the pair (a, b) of instruction offsets; true when it is new. */
static bool new_pair(Watch *wt, uint32_t a, uint32_t b)
{
	uint64_t key = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
	key++; /* 0 marks an empty slot */
	if (2 * (wt->npairs + 1) > wt->cap) {
		size_t cap = wt->cap ? 2 * wt->cap : 64;
		uint64_t *p = xcalloc(cap, sizeof *p);
		for (size_t i = 0; i < wt->cap; i++)
			if (wt->pairs[i]) {
				size_t h = (size_t)((wt->pairs[i] * UINT64_C(0x9e3779b97f4a7c15)) >> 20) & (cap - 1);
				while (p[h])
					h = (h + 1) & (cap - 1);
				p[h] = wt->pairs[i];
			}
		free(wt->pairs);
		wt->pairs = p;
		wt->cap = cap;
	}
	size_t h = (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> 20) & (wt->cap - 1);
	while (wt->pairs[h]) {
		if (wt->pairs[h] == key)
			return false;
		h = (h + 1) & (wt->cap - 1);
	}
	wt->pairs[h] = key;
	wt->npairs++;
	return true;
}

static void site_text(Emu *e, const RaceSite *s, char *buf, size_t len)
{
	const EmuLaunch *l = e->l;
	uint64_t lin = s->wg - 1;
	uint32_t x = (uint32_t)(lin % l->grid[0]), y = (uint32_t)(lin / l->grid[0] % l->grid[1]),
		 z = (uint32_t)(lin / l->grid[0] / l->grid[1]);
	uint64_t pc = e->code.base + s->pc;
	const Inst *in = emu_inst_at(e, pc);
	char dis[160] = "?";
	if (in)
		emu_print(in, pc, dis, sizeof dis);
	snprintf(buf, len, "%s at 0x%llx (workgroup (%u,%u,%u) wave %u lane %u, barrier epoch %u)", dis,
		 (unsigned long long)pc, x, y, z, site_wave(s), site_lane(s), site_epoch(s));
}

static void report(Emu *e, const RaceSite *a, const RaceSite *b, const EmuRegion *r, uint64_t off)
{
	Watch *wt = e->wt;
	if (!new_pair(wt, a->pc, b->pc) || wt->npairs > EMU_RACE_REPORTS || !e->l->report || !e->l->report_len)
		return;
	char where[160], sa[300], sb[300];
	where_text(r, off, where, sizeof where);
	site_text(e, a, sa, sizeof sa);
	site_text(e, b, sb, sizeof sb);
	const char *why = a->wg != b->wg ? "different workgroups" : "no s_barrier between them";
	char *out = e->l->report + wt->report_used;
	size_t room = e->l->report_len - wt->report_used;
	int k = snprintf(out, room, "race on %s: %s and %s: %s\n", where, sa, sb, why);
	if (k > 0)
		wt->report_used += (size_t)k < room ? (size_t)k : room - 1;
}

/* Are the site and the current access (workgroup cur, epoch ep, wave)
 * unordered? LDS sites of other workgroups are stale. */
static bool unordered(const RaceSite *s, uint32_t cur, uint32_t ep, uint32_t wave, bool lds)
{
	if (!s->wg)
		return false;
	if (s->wg != cur)
		return !lds;
	return site_epoch(s) == ep && site_wave(s) != wave;
}

static void race_check(Emu *e, Wave *w, const EmuRegion *r, uint64_t off, unsigned size, int lane, int kind)
{
	RaceByte *rb = races_of(e, r);
	bool lds = r == NULL;
	uint32_t cur = e->wg_linear + 1, ep = e->epoch & 0xfffff;
	RaceSite me = {cur, (uint32_t)(w->pc - e->code.base),
		       ep | (w->id & 15) << 20 | ((uint32_t)lane & 63) << 24 | (uint32_t)(kind == MA_ATOMIC) << 30};
	for (unsigned b = 0; b < size; b++) {
		RaceByte *x = &rb[off + b];
		if (unordered(&x->w, cur, ep, w->id, lds) && !(site_atomic(&x->w) && kind == MA_ATOMIC))
			report(e, &x->w, &me, r, off + b);
		if (kind == MA_READ) {
			bool same_set = x->r1.wg == cur && site_epoch(&x->r1) == ep;
			if (same_set && site_wave(&x->r1) != w->id)
				x->r2 = x->r1;
			else if (!same_set) {
				if (!lds && x->r1.wg && x->r1.wg != cur)
					x->x = x->r1;
				x->r2.wg = 0;
			}
			x->r1 = me;
			continue;
		}
		if (unordered(&x->r1, cur, ep, w->id, lds))
			report(e, &x->r1, &me, r, off + b);
		else if (unordered(&x->r2, cur, ep, w->id, lds))
			report(e, &x->r2, &me, r, off + b);
		if (!lds && x->x.wg && x->x.wg != cur)
			report(e, &x->x, &me, r, off + b);
		x->w = me;
		x->r1.wg = x->r2.wg = x->x.wg = 0;
	}
}

/* ---- the entry ---- */

bool emu_watch(Emu *e, Wave *w, const Inst *in, const EmuRegion *r, uint64_t addr, unsigned size, int lane)
{
	if (r && !r->writable)
		return true;
	uint64_t off = r ? addr - r->addr : addr;
	int kind = access_kind(in, r == NULL);
	if (e->late && !late_check(e, w, in, r, off, size, lane, kind))
		return false;
	if (e->races)
		race_check(e, w, r, off, size, lane, kind);
	return true;
}
