/* watch.c — memory watched by the late-memory mode (late.c) and the race
 * detector (EmuPolicy.races), which is here. Only LDS and writable global regions are
 * watched: a read-only region cannot be written, so no access to it
 * completes late or races. Every LDS access (lds_ptr) and global access
 * (dev_ptr) of a watched launch comes here with its lane, address and size;
 * the shadow arrays of a region are allocated when it is first touched
 * (calloc: pages never touched cost nothing).
 *
 * Writes are settled after their instruction ran (emu_watch_settle): the
 * value of what they write is logged before, and a write that left the
 * bytes as they were cannot be told from no write, so it neither races nor
 * hides anything (several waves or workgroups storing the same value, as a
 * reduction's total replicated across waves is, are no error).
 *
 * The late marks (stores not yet complete) are late.c's: this file hands
 * it each access and the settling.
 *
 * Races (after FastTrack, Flanagan and Freund, PLDI 2009, reduced to
 * barrier epochs): each dword keeps its last write and the reads since,
 * each as a site (workgroup, barrier epoch, wave, lane, pc). Two accesses
 * are ordered when they come from one wave (program order) or from one
 * workgroup in different epochs (an s_barrier released between them);
 * accesses of different workgroups are never ordered (the hardware runs
 * them concurrently; no synchronisation between workgroups is modelled, so a
 * kernel that orders them through atomics and flags is reported too). A
 * read races with the last write if they are unordered and that write
 * changed the memory; a write that changes it races with the last write
 * (unless both are atomics) and with the reads since. The reads since the
 * last write are the latest one's site and the mask of the waves that read
 * in its workgroup and epoch, and a flag for reads by an earlier workgroup
 * that a later one's read displaced; a write clears them (earlier reads are
 * ordered before it or were reported). LDS sites of another workgroup are
 * stale (LDS is per workgroup).
 *
 * The records are per dword while every access covers the dword whole; an
 * access to part of one splits it into four byte records (the dword's
 * history copied), so two waves writing the two halves of a dword do not
 * race. Each distinct pair of instructions is counted once and the first
 * EMU_RACE_REPORTS are described in EmuLaunch.report. Epochs are kept in
 * 20 bits: a workgroup passing more than 2^20 barriers could see two epochs
 * as one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/util.h"
#include "emu_int.h"

typedef struct RaceSite {
	uint32_t wg;   /* linear workgroup id + 1; 0: none */
	uint32_t pc;   /* offset from the code region's base */
	uint32_t bits; /* epoch:20 wave:4 lane:6 atomic:1 changed:1 */
} RaceSite;

enum { SITE_CHANGED = 1u << 31, REC_XWG = 1 };

typedef struct RaceRec {
	RaceSite w, r;  /* the last write; the latest read since */
	uint16_t rmask; /* the waves that read in r's workgroup and epoch */
	uint16_t flags; /* REC_XWG: an earlier workgroup read it too */
} RaceRec;

typedef struct RaceDword {
	RaceRec rec;
	uint32_t split; /* 0, or 1 + the index of its four byte records */
} RaceDword;

typedef struct RaceBytes {
	RaceRec b[4];
} RaceBytes;

/* A race record the instruction being issued writes. */
typedef struct RaceWrite {
	RaceDword *dw;       /* the record: the dword's, or its byte `byte`'s (the split */
	int byte;            /* records may move as others split), -1: the dword's */
	const uint8_t *host; /* the record's first byte */
	uint8_t old[4];
	uint8_t mask;        /* the bytes of it written */
	bool race;           /* conflicts with `other` */
	int32_t region;
	uint64_t off;        /* of the first byte written */
	RaceSite other, me;
} RaceWrite;

typedef struct Watch {
	size_t nregions;
	RaceDword **race;     /* per region: race records, NULL until touched */
	RaceDword *lds_race;
	Vec(RaceBytes) splits;
	/* the distinct pairs of racing instructions: open addressing */
	uint64_t *pairs;
	size_t npairs, cap;
	size_t report_used;
	Vec(RaceWrite) race_log; /* the current instruction's writes */
} Watch;


static uint32_t site_epoch(const RaceSite *s) { return s->bits & 0xfffff; }
static uint32_t site_wave(const RaceSite *s) { return (s->bits >> 20) & 15; }
static uint32_t site_lane(const RaceSite *s) { return (s->bits >> 24) & 63; }
static bool site_atomic(const RaceSite *s) { return (s->bits >> 30) & 1; }
static bool site_changed(const RaceSite *s) { return (s->bits & SITE_CHANGED) != 0; }

void emu_watch_new(Emu *e)
{
	Watch *wt = xcalloc(1, sizeof *wt);
	wt->nregions = emu_mem_count(e->mem);
	wt->race = xcalloc(wt->nregions + 1, sizeof *wt->race);
	if (e->races)
		wt->lds_race = xcalloc(e->wg->lds_size / 4 + 1, sizeof *wt->lds_race);
	e->wt = wt;
}

void emu_watch_free(Emu *e)
{
	Watch *wt = e->wt;
	if (!wt)
		return;
	for (size_t i = 0; i < wt->nregions; i++)
		free(wt->race[i]);
	free(wt->race);
	free(wt->lds_race);
	vec_free(&wt->splits);
	free(wt->pairs);
	vec_free(&wt->race_log);
	free(wt);
	e->wt = NULL;
}

uint64_t emu_watch_races(const Emu *e) { return e->wt ? e->wt->npairs : 0; }

/* What an access of `in` does to memory: an LDS DMA (buffer_load ... lds)
 * reads global memory and writes LDS. */
static EmuAccess access_kind(const Inst *in, bool lds)
{
	const IsaInfo *r = &isa_info[in->id];
	if (emu_is_lds_dma(in))
		return lds ? MA_WRITE : MA_READ;
	if (r->flags & IF_ATOMIC)
		return MA_ATOMIC;
	if (r->flags & IF_STORE)
		return MA_WRITE;
	return MA_READ;
}

/* ---- races: reports ---- */

/* Record the pair (a, b) of instruction offsets; true when it is new. */
static bool new_pair(Watch *wt, uint32_t a, uint32_t b)
{
	uint64_t key = (a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a) + 1; /* 0: an empty slot */
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
	emu_where_text(r, off, where, sizeof where);
	site_text(e, a, sa, sizeof sa);
	site_text(e, b, sb, sizeof sb);
	const char *why = a->wg != b->wg ? "different workgroups" : "no s_barrier between them";
	char *out = e->l->report + wt->report_used;
	size_t room = e->l->report_len - wt->report_used;
	int k = snprintf(out, room, "race on %s: %s and %s: %s\n", where, sa, sb, why);
	if (k > 0)
		wt->report_used += (size_t)k < room ? (size_t)k : room - 1;
}

/* ---- races: the records ---- */

static RaceDword *dwords_of(Emu *e, const EmuRegion *r)
{
	Watch *wt = e->wt;
	if (!r)
		return wt->lds_race;
	if (!wt->race[r->index])
		wt->race[r->index] = xcalloc(r->size / 4 + 1, sizeof **wt->race);
	return wt->race[r->index];
}

/* The byte records of dword d, splitting it first. */
static RaceRec *bytes_of(Watch *wt, RaceDword *d)
{
	if (!d->split) {
		RaceBytes b = {{d->rec, d->rec, d->rec, d->rec}};
		vec_push(&wt->splits, b);
		d->split = (uint32_t)wt->splits.len;
	}
	return wt->splits.data[d->split - 1].b;
}

/* Are site s and the access (workgroup cur, epoch ep, wave) unordered?
 * LDS sites of other workgroups are stale. */
static bool unordered(const RaceSite *s, uint32_t cur, uint32_t ep, uint32_t wave, bool lds)
{
	if (!s->wg)
		return false;
	if (s->wg != cur)
		return !lds;
	return site_epoch(s) == ep && site_wave(s) != wave;
}

static RaceSite site_of(Emu *e, Wave *w, int lane, EmuAccess kind)
{
	return (RaceSite){e->wg_linear + 1, (uint32_t)(w->pc - e->code.base),
			  (e->epoch & 0xfffff) | (w->id & 15) << 20 | ((uint32_t)lane & 63) << 24 |
				  (uint32_t)(kind == MA_ATOMIC) << 30};
}

static void read_rec(Emu *e, RaceRec *x, const RaceSite *me, const EmuRegion *r, uint64_t off)
{
	bool lds = r == NULL;
	uint32_t cur = me->wg, ep = site_epoch(me), wave = site_wave(me);
	if (unordered(&x->w, cur, ep, wave, lds) && site_changed(&x->w))
		report(e, &x->w, me, r, off);
	if (x->r.wg == cur && site_epoch(&x->r) == ep) {
		x->rmask |= (uint16_t)(1u << wave);
	} else {
		if (!lds && x->r.wg && x->r.wg != cur)
			x->flags |= REC_XWG;
		x->rmask = (uint16_t)(1u << wave);
	}
	x->r = *me;
}

/* The write or atomic `me` takes the record; what it conflicts with is
 * settled after the instruction ran. */
static void write_rec(RaceWrite *rw, RaceRec *x, const RaceSite *me, bool lds)
{
	uint32_t cur = me->wg, ep = site_epoch(me), wave = site_wave(me);
	if (unordered(&x->w, cur, ep, wave, lds) && !(site_atomic(&x->w) && site_atomic(me))) {
		rw->race = true, rw->other = x->w;
	} else if (x->r.wg && (x->r.wg != cur ? !lds : site_epoch(&x->r) == ep && (x->rmask & ~(1u << wave)))) {
		rw->race = true, rw->other = x->r;
		if (site_wave(&x->r) == wave) /* the latest reader is this wave: name another one */
			for (uint32_t k = 0; k < 16; k++)
				if ((x->rmask >> k) & 1 && k != wave) {
					rw->other.bits = (rw->other.bits & ~(15u << 20)) | k << 20;
					break;
				}
	} else if (!lds && (x->flags & REC_XWG)) {
		rw->race = true, rw->other = x->r;
	}
	x->w = *me;
	x->r.wg = 0;
	x->rmask = 0;
	x->flags = 0;
}

static void race_access(Emu *e, Wave *w, const EmuRegion *r, uint64_t off, unsigned size, int lane, EmuAccess kind)
{
	Watch *wt = e->wt;
	RaceDword *dw = dwords_of(e, r);
	RaceSite me = site_of(e, w, lane, kind);
	const uint8_t *host = r ? r->host : e->wg->lds;
	for (uint64_t d = off / 4; d * 4 < off + size; d++) {
		uint64_t lo = d * 4 < off ? off : d * 4, hi = d * 4 + 4 > off + size ? off + size : d * 4 + 4;
		RaceDword *x = &dw[d];
		bool whole = lo == d * 4 && hi == d * 4 + 4;
		RaceRec *recs = whole && !x->split ? &x->rec : bytes_of(wt, x);
		for (uint64_t b = lo; b < hi; b++) {
			RaceRec *rec = recs == &x->rec ? recs : &recs[b % 4];
			if (kind == MA_READ) {
				read_rec(e, rec, &me, r, b);
			} else {
				RaceWrite rw = {.dw = x, .byte = recs == &x->rec ? -1 : (int)(b % 4),
						.region = r ? (int32_t)r->index : -1, .off = b, .me = me};
				uint64_t first = recs == &x->rec ? d * 4 : b;
				rw.host = host + first;
				rw.mask = recs == &x->rec ? 15 : 1;
				memcpy(rw.old, rw.host, recs == &x->rec ? 4 : 1);
				write_rec(&rw, rec, &me, r == NULL);
				vec_push(&wt->race_log, rw);
			}
			if (recs == &x->rec)
				break; /* one record for the whole dword */
		}
	}
}

/* ---- the entries ---- */

bool emu_watch(Emu *e, Wave *w, const Inst *in, const EmuRegion *r, uint64_t addr, unsigned size, int lane)
{
	if (r && !r->writable)
		return true;
	uint64_t off = r ? addr - r->addr : addr;
	EmuAccess kind = access_kind(in, r == NULL);
	if (e->late && !emu_late_access(e, w, in, r, off, size, lane, kind))
		return false;
	if (e->races)
		race_access(e, w, r, off, size, lane, kind);
	return true;
}

void emu_watch_settle(Emu *e, Wave *w, const Inst *in)
{
	Watch *wt = e->wt;
	if (!e->races) {
		emu_late_settle(e, w, in);
		return;
	}
	for (size_t i = 0; i < wt->race_log.len; i++) {
		RaceWrite *rw = &wt->race_log.data[i];
		bool changed = false;
		for (int b = 0; b < 4; b++)
			changed |= (rw->mask >> b & 1) && rw->host[b] != rw->old[b];
		if (!changed)
			continue; /* left as it was: as if not written */
		RaceRec *rec = rw->byte < 0 ? &rw->dw->rec : &wt->splits.data[rw->dw->split - 1].b[rw->byte];
		if (rec->w.pc == rw->me.pc && rec->w.wg == rw->me.wg)
			rec->w.bits |= SITE_CHANGED;
		if (rw->race)
			report(e, &rw->other, &rw->me, rw->region >= 0 ? emu_mem_region(e->mem, (size_t)rw->region) : NULL,
			       rw->off);
	}
	wt->race_log.len = 0;
	if (e->late)
		emu_late_settle(e, w, in);
}
