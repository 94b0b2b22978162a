/* linear.c — register allocation by linear scan over live intervals.
 *
 * Algorithm: number the instructions in layout order; a virtual register's
 * interval runs from its first definition to its last use (a tied def —
 * a d16 load keeping the other half — counts as a use). Physical registers
 * named directly (the kernarg pointer, workgroup ids, work-item ids the
 * hardware preloads) are busy from the start to their last use. Intervals
 * are taken by start; each gets the lowest register of its file, aligned
 * for its class (rc_align), whose dwords are all free — free meaning the
 * previous holder's interval ended before this one starts (closed intervals:
 * a register is never reused within one instruction, so a result never
 * overlaps a source still being read, whatever the instruction).
 * Straight-line code only for now: loops need liveness over the CFG and
 * loop-carried values; running out of registers is reported with the
 * pressure (spilling comes later).
 * Requires: isel. Rewrites every MO_VREG to MO_PREG; fills f->nregs. */
#include <stdlib.h>
#include "../passes/passes.h"

enum { MAX_PHYS = 512 };

typedef struct Interval {
	int start, end;
} Interval;

static int file_limit(const Target *t, RegFile f)
{
	return f == RF_SGPR ? t->sgprs : f == RF_VGPR ? 256 : t->agprs;
}

void allocate_registers(Compile *c)
{
	MFunc *f = c->mf;
	size_t nv = f->vregs.len;
	Interval *iv = xcalloc(nv + 1, sizeof *iv);
	for (size_t v = 0; v < nv; v++)
		iv[v].start = -1;
	int busy[RF_COUNT][MAX_PHYS];
	for (int r = 0; r < RF_COUNT; r++)
		for (int i = 0; i < MAX_PHYS; i++)
			busy[r][i] = -1;
	int pos = 0;
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		MBlock *b = f->blocks.data[bi];
		for (size_t i = 0; i < b->insts.len; i++, pos++) {
			MInst *in = &b->insts.data[i];
			for (int k = 0; k < in->ndef + in->nuse; k++) {
				bool def = k < in->ndef;
				MOpnd o = def ? in->def[k] : in->use[k - in->ndef];
				if (o.kind == MO_PREG) {
					for (int d = 0; d < rc_size(o.rc); d++)
						busy[rc_file(o.rc)][o.reg + d] = MAX(busy[rc_file(o.rc)][o.reg + d], pos);
					continue;
				}
				if (o.kind != MO_VREG)
					continue;
				Interval *t = &iv[o.reg];
				if (t->start < 0)
					t->start = pos;
				t->end = MAX(t->end, pos);
			}
		}
	}
	int used[RF_COUNT] = {0};
	for (int r = 0; r < RF_COUNT; r++)
		for (int i = 0; i < MAX_PHYS; i++)
			if (busy[r][i] >= 0)
				used[r] = i + 1;
	/* Intervals by start: vregs are created in roughly that order, so an
	 * insertion sort over indices is near-linear. */
	uint32_t *order = xmalloc((nv + 1) * sizeof *order);
	size_t n = 0;
	for (size_t v = 0; v < nv; v++) {
		if (iv[v].start < 0)
			continue;
		size_t j = n++;
		while (j > 0 && iv[order[j - 1]].start > iv[v].start) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = (uint32_t)v;
	}
	uint32_t *phys = xcalloc(nv + 1, sizeof *phys);
	for (size_t oi = 0; oi < n && !c->failed; oi++) {
		uint32_t v = order[oi];
		RegClass rc = f->vregs.data[v];
		RegFile rf = rc_file(rc);
		int size = rc_size(rc), align = rc_align(rc, f->target), lim = file_limit(f->target, rf);
		int r = 0;
		for (;; r += align) {
			if (r + size > lim) {
				int live = 0;
				for (int i = 0; i < lim; i++)
					live += busy[rf][i] >= iv[v].start;
				compile_error(c, (Loc){c->k->file, 1, 1},
					"kernel %s: out of %s registers (%d of %d live where %%%u needs %d; spilling is not "
					"implemented yet)",
					c->k->name, rf == RF_SGPR ? "scalar" : rf == RF_VGPR ? "vector" : "accumulator", live,
					lim, v, size);
				break;
			}
			bool ok = true;
			for (int d = 0; d < size && ok; d++)
				ok = busy[rf][r + d] < iv[v].start;
			if (ok)
				break;
		}
		if (c->failed)
			break;
		for (int d = 0; d < size; d++)
			busy[rf][r + d] = iv[v].end;
		phys[v] = (uint32_t)r;
		used[rf] = MAX(used[rf], r + size);
	}
	if (!c->failed) {
		for (size_t bi = 0; bi < f->blocks.len; bi++) {
			MBlock *b = f->blocks.data[bi];
			for (size_t i = 0; i < b->insts.len; i++) {
				MInst *in = &b->insts.data[i];
				for (int k = 0; k < in->ndef + in->nuse; k++) {
					MOpnd *o = k < in->ndef ? &in->def[k] : &in->use[k - in->ndef];
					if (o->kind == MO_VREG) {
						*o = mo_preg(phys[o->reg] + o->sub, o->rc);
					}
				}
			}
		}
		for (int r = 0; r < RF_COUNT; r++)
			f->nregs[r] = used[r];
		f->allocated = true;
	}
	free(iv);
	free(order);
	free(phys);
}
