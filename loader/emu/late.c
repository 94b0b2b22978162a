/* late.c — late memory (EmuPolicy.memory = EMU_MEMORY_LATE): memory
 * instructions complete as late as the wait counters allow, so a missing or
 * too weak s_waitcnt fails at run time.
 *
 * The counters (AMD CDNA3 ISA guide, "Data dependency resolution"; LLVM's
 * SIInsertWaitcnts for which events each counts): vmcnt counts the vector
 * memory instructions (MUBUF, GLOBAL, SCRATCH loads, stores and atomics,
 * FLAT), which return in issue order; lgkmcnt counts LDS instructions (DS,
 * in order among themselves), scalar memory (SMEM, out of order) and FLAT
 * (which may reach LDS: it counts on both). expcnt counts exports and GDS,
 * which do not exist here (gfx9 stores do not hold their data VGPRs).
 *
 * Every memory instruction of a wave is recorded as outstanding in its
 * counters. `s_waitcnt vmcnt(N)` completes the oldest vector memory
 * instructions until at most N remain. `s_waitcnt lgkmcnt(N)` completes,
 * for N = 0, all; for N > 0 only the oldest DS instructions until at most
 * N DS instructions remain: with SMEM or FLAT outstanding the counter may
 * reach N by their return instead, so nothing else is guaranteed (an LDS
 * instruction is guaranteed when N is below the number of DS instructions
 * from it on; an SMEM or FLAT one only at 0). s_endpgm completes all; a
 * counter at its maximum (vmcnt 63, lgkmcnt 15) completes the oldest one
 * first, as the hardware stalls the issue until one returns.
 *
 * A load writes its destination registers when it completes: it runs at
 * issue (reading memory then), its results are saved and the registers
 * restored; they get the results at completion (only the lanes EXEC held;
 * a d16 load that preserves the other half merges its half into the
 * register then, so two d16 loads into the halves of one register, both
 * outstanding, leave both).
 * Meanwhile an instruction reading or writing one of them is an error naming
 * the load, its address and the wait it lacks — except a later load of the
 * same in-order counter (two vmcnt loads, two DS loads) writing it, which
 * returns after it as on the hardware. Registers come from operands.c.
 *
 * A store (and an LDS DMA, buffer_load ... lds) writes memory at issue and
 * marks the bytes it changed with its tag (its wave and slot, one uint16 per
 * byte of LDS and of each writable region, allocated on first touch) until
 * it completes: another wave reading them, or writing a different value to
 * them, before is an error, since on hardware it may see them written or
 * not (a store is visible to other waves after the writer's covering wait
 * and a barrier); the writer's own accesses see its stores in order, except
 * the LDS a DMA writes, which even its own wave may read only after vmcnt
 * covers it. Writes are settled after their instruction ran (watch.c calls
 * emu_late_settle): one that left the bytes as they were marks nothing and
 * conflicts with nothing (waves storing one value, a reduction's total each
 * wave writes, are no error). Atomics act on memory at issue and mark
 * nothing; their returned values are late like loads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/util.h"
#include "emu_int.h"

enum { LATE_VM = 1, LATE_LGKM = 2 };
/* outstanding slots per wave (vmcnt 63 + lgkmcnt 15 at most), counter
 * maxima, the most VGPR rows a load returns (dwordx4, ds_read2_b64) or
 * dwords an SMEM load returns */
enum { LATE_SLOTS = 80, LATE_VM_MAX = 63, LATE_LGKM_MAX = 15, LATE_DATA = 4 * 64 };

typedef struct LateRange {
	int32_t region; /* -1: LDS */
	uint32_t size;
	uint64_t off;
} LateRange;

typedef struct LateOp {
	uint8_t wait;   /* LATE_VM | LATE_LGKM still outstanding; 0: free */
	bool lds;       /* a DS instruction: in order on lgkmcnt */
	bool own;       /* its memory marks hold for its own wave too (LDS DMA) */
	bool vgprs;     /* the destination is VGPRs (else SGPRs) */
	uint16_t dst, ndst;
	uint32_t keep;  /* the bits of the register it leaves as they are when it returns (a d16 load
	                   that preserves the other half merges then, after any older load's return) */
	uint64_t pc, exec;
	const Inst *in;
	uint32_t data[LATE_DATA];
	Vec(LateRange) wrote;
} LateOp;

/* A byte the instruction being issued writes, settled after it ran. */
typedef struct LateByte {
	uint8_t *host;
	uint8_t old;
	uint16_t late;  /* another wave's outstanding store on it, 0: none */
	uint16_t mine;  /* the tag to mark it with when changed, 0: none */
	int32_t region; /* -1: LDS */
	int lane;
	uint64_t off;
} LateByte;

/* The memory side: the marks, and the current instruction's writes. */
typedef struct LateMem {
	size_t nregions;
	uint16_t **mark; /* per region, NULL until touched */
	uint16_t *lds_mark;
	Vec(LateByte) log;
} LateMem;

typedef struct LateWave {
	LateOp op[LATE_SLOTS];
	uint8_t order[LATE_SLOTS]; /* outstanding slots, oldest first */
	uint32_t n;
	int cur;                   /* slot of the instruction being issued, -1 */
	uint16_t *vown;            /* per VGPR: slot + 1 of the load it waits for */
	uint16_t sown[NUM_SGPRS];
	uint32_t old[LATE_DATA];   /* the destination before the load ran */
} LateWave;

void emu_late_new(Emu *e, Workgroup *g)
{
	LateMem *lm = xcalloc(1, sizeof *lm);
	lm->nregions = emu_mem_count(e->mem);
	lm->mark = xcalloc(lm->nregions + 1, sizeof *lm->mark);
	lm->lds_mark = xcalloc(g->lds_size ? g->lds_size : 1, sizeof *lm->lds_mark);
	e->lm = lm;
	for (uint32_t i = 0; i < g->nwaves; i++) {
		LateWave *lw = xcalloc(1, sizeof *lw);
		lw->vown = xcalloc(g->waves[i].nregs, sizeof *lw->vown);
		lw->cur = -1;
		g->waves[i].late = lw;
	}
}

void emu_late_free(Emu *e, Workgroup *g)
{
	LateMem *lm = e->lm;
	if (lm) {
		for (size_t i = 0; i < lm->nregions; i++)
			free(lm->mark[i]);
		free(lm->mark);
		free(lm->lds_mark);
		vec_free(&lm->log);
		free(lm);
		e->lm = NULL;
	}
	for (uint32_t i = 0; i < g->nwaves; i++) {
		LateWave *lw = g->waves[i].late;
		if (!lw)
			continue;
		for (int k = 0; k < LATE_SLOTS; k++)
			vec_free(&lw->op[k].wrote);
		free(lw->vown);
		free(lw);
		g->waves[i].late = NULL;
	}
}

void emu_late_start(Wave *w)
{
	LateWave *lw = w->late;
	for (uint32_t i = 0; i < lw->n; i++)
		lw->op[lw->order[i]].wait = 0;
	lw->n = 0;
	lw->cur = -1;
	memset(lw->vown, 0, w->nregs * sizeof *lw->vown);
	memset(lw->sown, 0, sizeof lw->sown);
}

/* The counters a memory instruction counts on (0: none). */
static uint8_t counters(const Inst *in)
{
	switch (in->fmt) {
	case FMT_SMEM: return LATE_LGKM;
	case FMT_DS: return LATE_LGKM;
	case FMT_MUBUF: return LATE_VM;
	case FMT_FLAT: return in->seg == 0 ? LATE_VM | LATE_LGKM : LATE_VM;
	default: return 0;
	}
}

static bool in_order_lds(const LateOp *op) { return op->lds; }
/* Only vmcnt, which returns in order. */
static bool pure_vm(const LateOp *op) { return op->wait == LATE_VM; }

/* ---- completion ---- */

static uint16_t tag_of(const Wave *w, int slot) { return (uint16_t)((w->id + 1) << 7 | (unsigned)slot); }

/* Clear the marks `tag` left on [off, off+size) of region `region` (-1:
 * LDS). */
static void unmark(LateMem *lm, int region, uint64_t off, uint32_t size, uint16_t tag)
{
	uint16_t *m = region < 0 ? lm->lds_mark : lm->mark[region];
	if (!m)
		return;
	for (uint32_t b = 0; b < size; b++)
		if (m[off + b] == tag)
			m[off + b] = 0;
}

/* The results reach the registers, the marks leave memory. */
static void complete(Emu *e, Wave *w, int slot)
{
	LateWave *lw = w->late;
	LateOp *op = &lw->op[slot];
	for (unsigned k = 0; k < op->ndst; k++) {
		unsigned reg = op->dst + k;
		if (op->vgprs) {
			uint32_t *row = vreg(w, reg);
			const uint32_t *d = op->data + 64 * k;
			for (int l = 0; l < 64; l++)
				if ((op->exec >> l) & 1)
					row[l] = (row[l] & op->keep) | (d[l] & ~op->keep);
			if (lw->vown[reg] == slot + 1)
				lw->vown[reg] = 0;
		} else {
			w->sgpr[reg] = op->data[k];
			if (lw->sown[reg] == slot + 1)
				lw->sown[reg] = 0;
		}
	}
	for (size_t i = 0; i < op->wrote.len; i++) {
		LateRange *r = &op->wrote.data[i];
		unmark(e->lm, r->region, r->off, r->size, tag_of(w, slot));
	}
	op->wrote.len = 0;
	op->wait = 0;
}

/* Complete the ops whose counters are all clear, oldest first (two loads
 * of one in-order counter into one register write it in issue order). */
static void sweep(Emu *e, Wave *w)
{
	LateWave *lw = w->late;
	uint32_t k = 0;
	for (uint32_t i = 0; i < lw->n; i++) {
		int s = lw->order[i];
		if (lw->op[s].wait == 0)
			complete(e, w, s);
		else
			lw->order[k++] = (uint8_t)s;
	}
	lw->n = k;
}

/* Clear counter `c` from the oldest ops holding it until at most `keep`
 * remain (only DS ops when `lds_only`). */
static void drain(LateWave *lw, uint8_t c, uint32_t keep, bool lds_only)
{
	uint32_t have = 0;
	for (uint32_t i = 0; i < lw->n; i++) {
		LateOp *op = &lw->op[lw->order[i]];
		have += (op->wait & c) && (!lds_only || op->lds);
	}
	for (uint32_t i = 0; i < lw->n && have > keep; i++) {
		LateOp *op = &lw->op[lw->order[i]];
		if ((op->wait & c) && (!lds_only || op->lds)) {
			op->wait &= (uint8_t)~c;
			have--;
		}
	}
}

static void wait_counters(Emu *e, Wave *w, unsigned vm, unsigned lgkm)
{
	LateWave *lw = w->late;
	drain(lw, LATE_VM, vm, false);
	if (lgkm == 0)
		drain(lw, LATE_LGKM, 0, false);
	else
		drain(lw, LATE_LGKM, lgkm, true);
	sweep(e, w);
}

static void complete_all(Emu *e, Wave *w)
{
	LateWave *lw = w->late;
	for (uint32_t i = 0; i < lw->n; i++)
		lw->op[lw->order[i]].wait = 0;
	sweep(e, w);
}

/* ---- the check before an instruction ---- */

/* The wait that would complete op: "vmcnt(N)", "lgkmcnt(N)" or both. */
static void needed_wait(const LateWave *lw, const LateOp *op, char *buf, size_t len)
{
	uint32_t vm_after = 0, lds_after = 0;
	bool seen = false;
	for (uint32_t i = 0; i < lw->n; i++) {
		const LateOp *o = &lw->op[lw->order[i]];
		if (o == op) {
			seen = true;
			continue;
		}
		if (seen) {
			vm_after += (o->wait & LATE_VM) != 0;
			lds_after += (o->wait & LATE_LGKM) && o->lds;
		}
	}
	char vm[32] = "", lg[32] = "";
	if (op->wait & LATE_VM)
		snprintf(vm, sizeof vm, "vmcnt(%u)", vm_after);
	if (op->wait & LATE_LGKM)
		snprintf(lg, sizeof lg, "lgkmcnt(%u)", op->lds ? lds_after : 0);
	snprintf(buf, len, "%s%s%s", vm, vm[0] && lg[0] ? " " : "", lg);
}

static void reg_text(const Wave *w, bool vgpr, unsigned reg, char *buf, size_t len)
{
	if (!vgpr)
		snprintf(buf, len, reg == SRC_VCC_LO ? "vcc_lo" : reg == SRC_VCC_HI ? "vcc_hi" : "s%u", reg);
	else if (w->accum_offset && reg >= w->accum_offset)
		snprintf(buf, len, "a%u", reg - w->accum_offset);
	else
		snprintf(buf, len, "v%u", reg);
}

static void fail_pending(Emu *e, Wave *w, const Inst *in, const RegRange *rr, unsigned reg, int slot)
{
	LateWave *lw = w->late;
	LateOp *op = &lw->op[slot];
	char name[16], dis[160], wait[48];
	reg_text(w, rr->vgpr, reg, name, sizeof name);
	emu_print(op->in, op->pc, dis, sizeof dis);
	needed_wait(lw, op, wait, sizeof wait);
	emu_fail(e, w, in, "late memory: %s %s before the %s at 0x%llx has returned it: it needs s_waitcnt %s before "
		 "this instruction", rr->write ? "writes" : "reads", name, dis, (unsigned long long)op->pc, wait);
}

/* May `in` (a load issuing) write a register op waits for? Two loads of
 * one in-order counter return in order, so yes. */
static bool same_in_order(const Inst *in, const LateOp *op)
{
	uint8_t c = counters(in);
	if (c == LATE_VM)
		return pure_vm(op);
	if (c == LATE_LGKM && in->fmt == FMT_DS)
		return in_order_lds(op) && op->wait == LATE_LGKM;
	return false;
}

static bool check_regs(Emu *e, Wave *w, const Inst *in, const RegUse *u)
{
	LateWave *lw = w->late;
	for (int i = 0; i < 2 * u->n; i++) { /* the reads first, then the writes */
		const RegRange *rr = &u->r[i % u->n];
		if (rr->write != (i >= u->n))
			continue;
		for (unsigned k = 0; k < rr->n; k++) {
			unsigned reg = rr->first + k;
			uint16_t o = rr->vgpr ? (reg < w->nregs ? lw->vown[reg] : 0) : (reg < NUM_SGPRS ? lw->sown[reg] : 0);
			if (!o)
				continue;
			if (rr->write && counters(in) && same_in_order(in, &lw->op[o - 1]))
				continue;
			fail_pending(e, w, in, rr, reg, o - 1);
			return false;
		}
	}
	return true;
}

/* A free slot, completing the oldest op on a full counter first. */
static int take_slot(Emu *e, Wave *w, uint8_t c)
{
	LateWave *lw = w->late;
	uint32_t vm = 0, lgkm = 0;
	for (uint32_t i = 0; i < lw->n; i++) {
		vm += (lw->op[lw->order[i]].wait & LATE_VM) != 0;
		lgkm += (lw->op[lw->order[i]].wait & LATE_LGKM) != 0;
	}
	if ((c & LATE_VM) && vm >= LATE_VM_MAX)
		drain(lw, LATE_VM, LATE_VM_MAX - 1, false);
	if ((c & LATE_LGKM) && lgkm >= LATE_LGKM_MAX)
		drain(lw, LATE_LGKM, LATE_LGKM_MAX - 1, false);
	sweep(e, w);
	for (int s = 0; s < LATE_SLOTS; s++)
		if (!lw->op[s].wait)
			return s;
	return -1; /* cannot happen: at most 63 + 15 outstanding */
}

bool emu_late_before(Emu *e, Wave *w, const Inst *in)
{
	LateWave *lw = w->late;
	uint8_t c = counters(in);
	if (!c && !lw->n)
		return true;
	RegUse u;
	emu_reg_use(w, in, &u);
	int s = c ? take_slot(e, w, c) : -1; /* may complete the oldest: the issue waits for it */
	if (lw->n && !check_regs(e, w, in, &u))
		return false;
	if (!c)
		return true;
	if (s < 0) {
		emu_fail(e, w, in, "late memory: more than %d memory instructions outstanding", LATE_SLOTS);
		return false;
	}
	LateOp *op = &lw->op[s];
	op->wait = c;
	op->lds = in->fmt == FMT_DS;
	op->own = emu_is_lds_dma(in);
	op->pc = w->pc;
	op->exec = w->exec;
	op->in = in;
	op->ndst = 0;
	op->wrote.len = 0;
	uint32_t fl = isa_info[in->id].flags;
	op->keep = !(fl & IF_LOAD) || e->l->d16 != EMU_D16_PRESERVE ? 0 : (fl & IF_D16) ? 0xffff0000u : (fl & IF_D16HI) ? 0xffffu : 0;
	for (int i = 0; i < u.n; i++) {
		const RegRange *rr = &u.r[i];
		bool fits = rr->vgpr ? rr->first + rr->n <= w->nregs && rr->n * 64 <= LATE_DATA
				     : rr->first + rr->n <= NUM_SGPRS && rr->n <= LATE_DATA;
		if (!rr->write || !fits)
			continue; /* out of range: the executor reports it */
		op->vgprs = rr->vgpr;
		op->dst = rr->first;
		op->ndst = rr->n;
		if (rr->vgpr)
			memcpy(lw->old, vreg(w, rr->first), (size_t)rr->n * 64 * sizeof *lw->old);
		else
			memcpy(lw->old, &w->sgpr[rr->first], (size_t)rr->n * sizeof *lw->old);
		break;
	}
	lw->cur = s;
	return true;
}

void emu_late_after(Emu *e, Wave *w, const Inst *in)
{
	LateWave *lw = w->late;
	if (lw->cur >= 0) {
		int s = lw->cur;
		LateOp *op = &lw->op[s];
		lw->cur = -1;
		if (op->vgprs) {
			memcpy(op->data, vreg(w, op->dst), (size_t)op->ndst * 64 * sizeof *op->data);
			memcpy(vreg(w, op->dst), lw->old, (size_t)op->ndst * 64 * sizeof *op->data);
			for (unsigned k = 0; k < op->ndst; k++)
				lw->vown[op->dst + k] = (uint16_t)(s + 1);
		} else {
			memcpy(op->data, &w->sgpr[op->dst], (size_t)op->ndst * sizeof *op->data);
			memcpy(&w->sgpr[op->dst], lw->old, (size_t)op->ndst * sizeof *op->data);
			for (unsigned k = 0; k < op->ndst; k++)
				lw->sown[op->dst + k] = (uint16_t)(s + 1);
		}
		lw->order[lw->n++] = (uint8_t)s;
		return;
	}
	if (in->id == I_S_WAITCNT) {
		unsigned v = (unsigned)in->imm & 0xffff;
		wait_counters(e, w, (v & 15) | ((v >> 14) & 3) << 4, (v >> 8) & 15);
	} else if (in->id == I_S_ENDPGM) {
		complete_all(e, w);
	}
}

/* ---- the memory side ---- */

/* The tag of the store being issued, 0 when none. */
static uint16_t current_tag(const Wave *w)
{
	return w->late && w->late->cur >= 0 ? tag_of(w, w->late->cur) : 0;
}

/* The store being issued changed [off, off+size) of region `region`. */
static void wrote(Wave *w, int region, uint64_t off, uint32_t size)
{
	LateOp *op = &w->late->op[w->late->cur];
	if (op->wrote.len) { /* extend the last range when contiguous */
		LateRange *last = &vec_last(&op->wrote);
		if (last->region == region && last->off + last->size == off) {
			last->size += size;
			return;
		}
	}
	vec_push(&op->wrote, ((LateRange){region, size, off}));
}

/* Does the store with tag `tag` stay hidden from its own wave (LDS DMA)? */
static bool tag_own(const Workgroup *g, uint16_t tag)
{
	unsigned wave = (tag >> 7) - 1, slot = tag & 127;
	return wave < g->nwaves && g->waves[wave].late->op[slot].own;
}

/* The store with tag `tag`, for messages. */
static void tag_text(const Workgroup *g, uint16_t tag, char *buf, size_t len)
{
	unsigned wave = (tag >> 7) - 1, slot = tag & 127;
	if (wave >= g->nwaves) {
		snprintf(buf, len, "?");
		return;
	}
	const LateWave *lw = g->waves[wave].late;
	const LateOp *op = &lw->op[slot];
	char dis[160], wait[48];
	emu_print(op->in, op->pc, dis, sizeof dis);
	needed_wait(lw, op, wait, sizeof wait);
	snprintf(buf, len, "wave %u's %s at 0x%llx, which has not completed (wave %u has not executed s_waitcnt %s since)",
		 wave, dis, (unsigned long long)op->pc, wave, wait);
}

static uint16_t *marks_of(LateMem *lm, const EmuRegion *r)
{
	if (!r)
		return lm->lds_mark;
	if (!lm->mark[r->index])
		lm->mark[r->index] = xcalloc(r->size ? r->size : 1, sizeof **lm->mark);
	return lm->mark[r->index];
}

static void mem_fail(Emu *e, Wave *w, const Inst *in, const EmuRegion *r, uint64_t off, int lane, bool read, uint16_t t)
{
	char where[160], what[400];
	emu_where_text(r, off, where, sizeof where);
	tag_text(e->wg, t, what, sizeof what);
	emu_fail(e, w, in, "late memory: %s %s (lane %d), written by %s", read ? "reads" : "writes", where, lane, what);
}

/* Tag t on a byte as this access sees it: another wave's outstanding
 * store (or the own wave's LDS DMA), else 0. */
static uint16_t conflict(Emu *e, Wave *w, const Inst *in, uint16_t t, uint16_t mine)
{
	if (!t || t == mine)
		return 0;
	bool other = (unsigned)(t >> 7) - 1 != w->id;
	bool dma = emu_is_lds_dma(in);
	if (!other && (dma || !tag_own(e->wg, t)))
		return 0;
	return t;
}

bool emu_late_access(Emu *e, Wave *w, const Inst *in, const EmuRegion *r, uint64_t off, unsigned size, int lane,
	EmuAccess kind)
{
	LateMem *lm = e->lm;
	uint16_t *m = marks_of(lm, r);
	if (kind == MA_READ) {
		for (unsigned b = 0; b < size; b++) {
			uint16_t t = conflict(e, w, in, m[off + b], 0);
			if (t) {
				mem_fail(e, w, in, r, off + b, lane, true, t);
				return false;
			}
		}
		return true;
	}
	uint8_t *host = r ? r->host : e->wg->lds;
	uint16_t mine = kind == MA_WRITE ? current_tag(w) : 0;
	for (unsigned b = 0; b < size; b++) {
		LateByte lb = {host + off + b, host[off + b], conflict(e, w, in, m[off + b], mine), mine,
			       r ? (int32_t)r->index : -1, lane, off + b};
		vec_push(&lm->log, lb);
	}
	return true;
}

void emu_late_settle(Emu *e, Wave *w, const Inst *in)
{
	LateMem *lm = e->lm;
	for (size_t i = 0; i < lm->log.len && !e->failed; i++) {
		LateByte *lb = &lm->log.data[i];
		if (*lb->host == lb->old)
			continue; /* left as it was: as if not written */
		if (lb->late) {
			mem_fail(e, w, in, lb->region >= 0 ? emu_mem_region(e->mem, (size_t)lb->region) : NULL, lb->off, lb->lane,
				 false, lb->late);
			break;
		}
		if (lb->mine) {
			uint16_t *m = lb->region >= 0 ? lm->mark[lb->region] : lm->lds_mark;
			m[lb->off] = lb->mine;
			wrote(w, lb->region, lb->off, 1);
		}
	}
	lm->log.len = 0;
}
