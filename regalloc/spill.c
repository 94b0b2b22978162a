/* spill.c — values moved from the 256 arch VGPRs into AGPRs when the VGPRs
 * run out (regalloc_mfunc's fallback, before any scratch memory).
 *
 * gfx90a and gfx942 give each lane one file of 512 registers, 256 VGPRs and
 * 256 AGPRs; v_accvgpr_write_b32 / v_accvgpr_read_b32 move a dword between
 * them in one VALU instruction, far cheaper than a scratch store and load.
 *
 * Algorithm (spill everywhere): a victim is a VGPR value (one dword or a
 * tuple). Its vreg becomes an AGPR tuple of the same size; each instruction
 * that reads it reads a fresh VGPR temporary whose dwords it names are
 * filled by v_accvgpr_read_b32 just before, and each that writes it writes
 * a fresh temporary whose written dwords v_accvgpr_write_b32 copies into
 * the AGPRs just after (dwords it does not write keep their values, as
 * before). Temporaries live for one instruction and are never victims.
 * Under a partial EXEC the write copies exactly the lanes the instruction
 * wrote, so values merged from masked writes stay merged. The allocator
 * then runs again from the start.
 * Victims (spill_pick): among the VGPR values live across the position
 * where a value found no room and not named by the instruction there, the
 * cheapest: fewest instructions naming them per position of live range,
 * times their size (an operand tuple loaded early and read late goes before
 * an accumulator every MFMA rewrites). Values whose def also reads the old
 * contents (MIF_TIED) are never victims.
 * SGPR values (spill_sgpr) go to lanes of a VGPR the same way, as LLVM
 * spills SGPRs: v_writelane_b32 after each def (a tied def: the other
 * lanes keep theirs), v_readlane_b32 into a fresh SGPR temporary before
 * each use; both ignore EXEC. One VGPR holds 64 spilled dwords; it is set
 * to 0 at the kernel's start, so it is defined wherever it is read.
 * Requires: MIR with vregs, not yet allocated. */
#include <stdlib.h>
#include <string.h>

#include "regalloc.h"

static bool marked(const Spill *sp, uint32_t v) { return v < sp->nmark && sp->mark[v]; }

static void mark(Spill *sp, uint32_t v)
{
	if (v >= sp->nmark) {
		size_t n = (v + 1) * 2;
		sp->mark = xrealloc(sp->mark, n);
		memset(sp->mark + sp->nmark, 0, n - sp->nmark);
		sp->nmark = n;
	}
	sp->mark[v] = 1;
}

/* Values a tied def writes (their old contents are read too) never spill. */
static void mark_tied(const MFunc *f, Spill *sp)
{
	for (size_t bi = 0; bi < f->blocks.len; bi++)
		for (size_t i = 0; i < f->blocks.data[bi]->insts.len; i++) {
			const MInst *in = &f->blocks.data[bi]->insts.data[i];
			if ((in->flags & MIF_TIED) && in->ndef && in->def[0].kind == MO_VREG)
				mark(sp, in->def[0].reg);
		}
}

static bool names(const MInst *in, uint32_t v)
{
	for (int k = 0; k < in->ndef + in->nuse; k++) {
		const MOpnd *o = k < in->ndef ? &in->def[k] : &in->use[k - in->ndef];
		if (o->kind == MO_VREG && o->reg == v)
			return true;
	}
	return false;
}

/* How many instructions name each vreg (recounted per round). */
static int *name_counts(const MFunc *f)
{
	int *n = xcalloc(f->vregs.len + 1, sizeof *n);
	for (size_t bi = 0; bi < f->blocks.len; bi++)
		for (size_t i = 0; i < f->blocks.data[bi]->insts.len; i++) {
			const MInst *in = &f->blocks.data[bi]->insts.data[i];
			uint32_t seen[MI_MAX_DEFS + MI_MAX_USES];
			int ns = 0;
			for (int k = 0; k < in->ndef + in->nuse; k++) {
				const MOpnd *o = k < in->ndef ? &in->def[k] : &in->use[k - in->ndef];
				bool dup = o->kind != MO_VREG;
				for (int j = 0; j < ns && !dup; j++)
					dup = seen[j] == o->reg;
				if (!dup) {
					seen[ns++] = o->reg;
					n[o->reg]++;
				}
			}
		}
	return n;
}

int spill_pick(const MFunc *f, Spill *sp, RegFile rf, const MInst *at, int pos, const int *lo, const int *hi,
	const int *busy, const uint32_t *who, int lim, int want, uint32_t *out)
{
	if (!sp->tied_marked) {
		mark_tied(f, sp);
		sp->tied_marked = true;
	}
	int *uses = name_counts(f);
	int n = 0, got = 0;
	while (got < want && n < MIR_MAX_PHYS) {
		uint32_t best = UINT32_MAX;
		double best_cost = 0;
		for (int r = 0; r < lim; r++) {
			uint32_t u = who[r];
			if (busy[r] < pos || u == UINT32_MAX || rc_file(f->vregs.data[u]) != rf || marked(sp, u) ||
				lo[u] >= pos || hi[u] <= pos || (at && names(at, u)))
				continue;
			bool taken = false;
			for (int k = 0; k < n; k++)
				taken |= out[k] == u;
			double cost = (double)uses[u] * rc_size(f->vregs.data[u]) / (double)(hi[u] - lo[u] + 1);
			if (!taken && (best == UINT32_MAX || cost < best_cost)) {
				best = u;
				best_cost = cost;
			}
		}
		if (best == UINT32_MAX)
			break;
		out[n++] = best;
		got += rc_size(f->vregs.data[best]);
	}
	free(uses);
	return n;
}

/* The dwords of vreg v that operands of `in` name, as a mask (defs or uses). */
static uint32_t dwords_named(const MInst *in, uint32_t v, bool defs)
{
	uint32_t m = 0;
	int k0 = defs ? 0 : in->ndef, k1 = defs ? in->ndef : in->ndef + in->nuse;
	for (int k = k0; k < k1; k++) {
		const MOpnd *o = k < in->ndef ? &in->def[k] : &in->use[k - in->ndef];
		if (o->kind == MO_VREG && o->reg == v)
			for (int d = 0; d < rc_size(o->rc); d++)
				m |= 1u << (o->sub + d);
	}
	return m;
}

/* Operands of `in` naming v (defs or uses) name temporary t instead. */
static void rename_vreg(MInst *in, uint32_t v, uint32_t t, bool defs)
{
	int k0 = defs ? 0 : in->ndef, k1 = defs ? in->ndef : in->ndef + in->nuse;
	for (int k = k0; k < k1; k++) {
		MOpnd *o = k < in->ndef ? &in->def[k] : &in->use[k - in->ndef];
		if (o->kind == MO_VREG && o->reg == v)
			o->reg = t; /* same sub-dword and class: a VGPR tuple like v was */
	}
}

/* Where a spilled value lives: in AGPR dwords of its own vreg, or in
 * lanes of a VGPR. move() emits the copy of dword d between the home
 * and temporary t (of the value's class): in (home -> t) or out. */
typedef struct Home {
	uint32_t v;        /* the spilled vreg */
	uint32_t lanes;    /* SGPR spills: the VGPR ... */
	int lane0;         /* ... and the first of the value's lanes */
	bool sgpr;
} Home;

static void move(MBlock *out, const Home *h, uint32_t t, int d, bool in, const char *note)
{
	MInst *mi;
	if (!h->sgpr) {
		MOpnd a = mo_vsub(h->v, d, rc_make(RF_AGPR, 1)), x = mo_vsub(t, d, RC_V1);
		mi = in ? mblock_add(out, I_V_ACCVGPR_READ_B32, 1, &x, 1, &a)
			: mblock_add(out, I_V_ACCVGPR_WRITE_B32, 1, &a, 1, &x);
	} else {
		MOpnd l = mo_vreg(h->lanes, RC_V1), x = mo_vsub(t, d, RC_S1);
		MOpnd u[2] = {in ? l : x, mo_imm(h->lane0 + d)};
		mi = mblock_add(out, in ? I_V_READLANE_B32 : I_V_WRITELANE_B32, 1, in ? &x : &l, 2, u);
		if (!in)
			mi->flags |= MIF_TIED; /* the other lanes keep their values */
	}
	mi->note = note;
}

/* Every instruction naming h->v reads a fresh temporary of class tc
 * filled from the home just before and writes one copied home just
 * after (only the dwords it names). */
static void rewrite_uses(MFunc *f, Spill *sp, const Home *h, RegClass tc)
{
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		MBlock *b = f->blocks.data[bi];
		MBlock out = {.label = b->label};
		for (size_t i = 0; i < b->insts.len; i++) {
			MInst in = b->insts.data[i];
			uint32_t rd = dwords_named(&in, h->v, false), wr = dwords_named(&in, h->v, true);
			if (rd) {
				uint32_t t = mfunc_vreg(f, tc);
				mark(sp, t);
				for (int d = 0; d < 32; d++)
					if (rd >> d & 1)
						move(&out, h, t, d, true, in.note);
				rename_vreg(&in, h->v, t, false);
			}
			uint32_t tw = 0;
			if (wr) {
				tw = mfunc_vreg(f, tc);
				mark(sp, tw);
				rename_vreg(&in, h->v, tw, true);
			}
			vec_push(&out.insts, in);
			for (int d = 0; wr && d < 32; d++)
				if (wr >> d & 1)
					move(&out, h, tw, d, false, in.note);
		}
		vec_free(&b->insts);
		b->insts.data = out.insts.data;
		b->insts.len = out.insts.len;
		b->insts.cap = out.insts.cap;
	}
}

void spill_vreg(MFunc *f, Spill *sp, uint32_t v)
{
	RegClass vc = f->vregs.data[v];
	f->vregs.data[v] = rc_make(RF_AGPR, rc_size(vc));
	mark(sp, v);
	sp->count++;
	rewrite_uses(f, sp, &(Home){.v = v}, vc);
}

void spill_sgpr(MFunc *f, Spill *sp, uint32_t v)
{
	RegClass sc = f->vregs.data[v];
	int size = rc_size(sc);
	if (sp->lanes_vreg == UINT32_MAX || sp->lanes_used + size > 64) {
		/* a fresh VGPR of 64 lanes, zeroed first thing */
		sp->lanes_vreg = mfunc_vreg(f, RC_V1);
		mark(sp, sp->lanes_vreg);
		sp->lanes_used = 0;
		MOpnd d = mo_vreg(sp->lanes_vreg, RC_V1), z = mo_imm(0);
		MBlock tmp = {0};
		mblock_add(&tmp, I_V_MOV_B32, 1, &d, 1, &z);
		mblock_insert(f->blocks.data[0], 0, tmp.insts.data[0]);
		vec_free(&tmp.insts);
	}
	Home h = {.v = v, .lanes = sp->lanes_vreg, .lane0 = sp->lanes_used, .sgpr = true};
	sp->lanes_used += size;
	mark(sp, v);
	sp->count++;
	rewrite_uses(f, sp, &h, sc);
}

void spill_free(Spill *sp)
{
	free(sp->mark);
	*sp = (Spill){.lanes_vreg = UINT32_MAX};
}
