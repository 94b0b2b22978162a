/* spill.c — where values go when a register file runs out
 * (regalloc_mfunc's fallbacks): VGPR values to AGPRs, SGPR values to lanes
 * of a VGPR, and, when the AGPRs run out as well, VGPR and AGPR values to
 * scratch memory (the private segment).
 *
 * gfx90a and gfx942 give each lane one file of 512 registers, 256 VGPRs and
 * 256 AGPRs; v_accvgpr_write_b32 / v_accvgpr_read_b32 move a dword between
 * them in one VALU instruction, far cheaper than a scratch store and load,
 * so AGPRs come first and scratch last, as in LLVM (SIRegisterInfo's
 * spillVGPRtoAGPR before the stack slot).
 *
 * Algorithm (spill everywhere): a victim is a value (one dword or a tuple)
 * given a home: AGPR dwords of its own vreg, lanes of a VGPR, or a slot of
 * scratch dwords. Each instruction that names it then names a fresh
 * temporary instead, filled from the home just before (the dwords it
 * reads) and copied home just after (the dwords it writes; those it does
 * not write keep their values, as before). Temporaries live for one
 * instruction and are never victims. Under a partial EXEC a copy moves
 * exactly the lanes the instruction touched, so values merged from masked
 * writes stay merged. The allocator then runs again from the start.
 * Every instruction added carries MIF_SPILL, so the spill checker
 * (spill_check.c) can follow values through homes.
 *
 * Victims (spill_pick): among the values of the file live across the
 * position where a value found no room and not named by the instruction
 * there, the cheapest: fewest instructions naming them (one in a loop
 * counting LOOP_WEIGHT times per loop around it) per position of live
 * range, times their size (an operand tuple loaded early and read late goes
 * before an accumulator every MFMA rewrites, a value live across a loop
 * and unused in it before one the loop reads). Values whose def also reads
 * the old contents (MIF_TIED) never go to AGPRs (their temporary would have
 * to be filled first); to scratch they may, with one temporary filled
 * before and stored after.
 *
 * SGPR values (spill_sgpr) go to lanes of a VGPR the same way, as LLVM
 * spills SGPRs: v_writelane_b32 after each def (a tied def: the other
 * lanes keep theirs), v_readlane_b32 into a fresh SGPR temporary before
 * each use; both ignore EXEC. One VGPR holds 64 spilled dwords; it is set
 * to 0 at the kernel's start, so it is defined wherever it is read.
 *
 * Scratch (spill_scratch): when the AGPRs run out, a VGPR or AGPR value
 * (an accumulator, or a VGPR value whose AGPR home is now in the way) gets
 * rc_size dwords of each lane's private segment. An instruction naming it
 * uses one temporary of its class for what it reads and writes: runs of its
 * dwords are loaded before (dwordx4 / x2 where the run and the register
 * allow) and stored after. A v_accvgpr_read/write of a home now in scratch
 * becomes the scratch load/store itself, so a value that went VGPR → AGPR
 * → scratch is reloaded straight into its VGPR temporary. The accesses, as
 * LLVM makes them (SIRegisterInfo::buildSpillLoadStore):
 *   gfx942, gfx950 (architected flat scratch): scratch_load_dword vD, off,
 *     off offset:N — the hardware sets up the lane's scratch base; nothing
 *     to initialise beyond the kernel descriptor's enable bit;
 *   gfx90a: buffer_load_dword vD, off, s[R:R+3], 0 offset:N through the
 *     private segment buffer V#: the ABI's input SGPRs (the kernarg pointer,
 *     the workgroup ids) move up by 4 behind the V# the hardware loads into
 *     s[0:3], and the wave's scratch offset arrives in the SGPR after the
 *     workgroup ids (AMDGPUUsage, "Initial Kernel Execution State"); the
 *     kernel's first instructions add it into the V#'s base, in a vreg of
 *     its own (never a victim): s_add_u32 R0, s0, sW; s_addc_u32 R1, s1, 0;
 *     s_mov_b64 R[2:3], s[2:3].
 * Offsets past the 12-bit field (4 KiB of spill per lane) go into an SGPR
 * temporary set just before (saddr on gfx942, soffset on gfx90a). Then,
 * block by block (forward_reloads): a reload of a slot that a store or
 * load at most FORWARD_GAP instructions before left in a register not
 * written since, with no EXEC write between, becomes moves from that
 * register; and a store the block writes over before anything loads the
 * slot (no EXEC write between: the same lanes) goes. Ordering:
 * a wave's own scratch accesses to one address complete in order, so a
 * reload needs no wait for the store before it; the reload's own result is
 * waited for by insert_waitcnt like any VMEM load.
 * Requires: MIR with vregs, not yet allocated. */
#include <stdlib.h>
#include <string.h>

#include "regalloc.h"

static uint8_t mark_of(const Spill *sp, uint32_t v) { return v < sp->nmark ? sp->mark[v] : SPILL_FREE; }

static void mark(Spill *sp, uint32_t v, uint8_t m)
{
	if (v >= sp->nmark) {
		size_t n = (v + 1) * 2;
		sp->mark = xrealloc(sp->mark, n);
		memset(sp->mark + sp->nmark, SPILL_FREE, n - sp->nmark);
		sp->nmark = n;
	}
	sp->mark[v] = m;
}

/* Values a tied def writes (their old contents are read too) never go to
 * AGPRs. */
static void mark_tied(const MFunc *f, Spill *sp)
{
	for (size_t bi = 0; bi < f->blocks.len; bi++)
		for (size_t i = 0; i < f->blocks.data[bi]->insts.len; i++) {
			const MInst *in = &f->blocks.data[bi]->insts.data[i];
			if ((in->flags & MIF_TIED) && in->ndef && in->def[0].kind == MO_VREG &&
				mark_of(sp, in->def[0].reg) == SPILL_FREE)
				mark(sp, in->def[0].reg, SPILL_TIED);
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

/* Each block's weight: LOOP_WEIGHT to the power of the loops around it.
 * Loops are laid out contiguously (isel), so a branch back from block l to
 * block h <= l encloses h..l. */
enum { LOOP_WEIGHT = 8, MAX_WEIGHT = 1 << 20 };
static int *block_weights(const MFunc *f)
{
	size_t nb = f->blocks.len;
	int *w = xmalloc((nb + 1) * sizeof *w);
	for (size_t b = 0; b < nb; b++)
		w[b] = 1;
	for (size_t l = 0; l < nb; l++) {
		int sb[2];
		int m = mfunc_succs(f, l, sb);
		for (int j = 0; j < m; j++)
			for (size_t b = (size_t)sb[j]; sb[j] <= (int)l && b <= l; b++)
				w[b] = MIN(w[b] * LOOP_WEIGHT, MAX_WEIGHT);
	}
	return w;
}

/* How many instructions name each vreg, an instruction in a loop counting
 * LOOP_WEIGHT times per loop around it (recounted per round). */
static int *name_counts(const MFunc *f)
{
	int *n = xcalloc(f->vregs.len + 1, sizeof *n);
	int *bw = block_weights(f);
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
					n[o->reg] += bw[bi];
				}
			}
		}
	free(bw);
	return n;
}

/* May u be a victim of this kind of spill? */
static bool may_spill(const Spill *sp, uint32_t u, bool scratch)
{
	uint8_t m = mark_of(sp, u);
	return scratch ? m == SPILL_FREE || m == SPILL_TIED || m == SPILL_AGPR : m == SPILL_FREE;
}

int spill_pick(const MFunc *f, Spill *sp, RegFile rf, bool scratch, const MInst *at, int pos, const int *lo,
	const int *hi, const int *busy, const uint32_t *who, int lim, int want, uint32_t *out)
{
	if (!sp->tied_marked) {
		mark_tied(f, sp);
		sp->tied_marked = true;
	}
	if (!sp->uses)
		sp->uses = name_counts(f);
	const int *uses = sp->uses;
	int n = 0, got = 0;
	while (got < want && n < MIR_MAX_PHYS) {
		uint32_t best = UINT32_MAX;
		double best_cost = 0;
		for (int r = 0; r < lim; r++) {
			uint32_t u = who[r];
			if (busy[r] < pos || u == UINT32_MAX || rc_file(f->vregs.data[u]) != rf || !may_spill(sp, u, scratch) ||
				lo[u] >= pos || hi[u] <= pos || (at && names(at, u)))
				continue;
			if (scratch && 4 * (sp->scratch_dwords + sp->scratch_pending + got + rc_size(f->vregs.data[u])) >
					       SPILL_SCRATCH_MAX_BYTES)
				continue; /* scratch is full */
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
			o->reg = t; /* same sub-dword and class: a tuple like v was */
	}
}

/* Where a spilled value lives: in AGPR dwords of its own vreg, in lanes
 * of a VGPR, or in scratch dwords. */
typedef enum HomeKind { HOME_AGPR, HOME_LANES, HOME_SCRATCH } HomeKind;
typedef struct Home {
	HomeKind kind;
	uint32_t v;        /* the spilled vreg */
	uint32_t lanes;    /* HOME_LANES: the VGPR ... */
	int lane0;         /* ... and the first of the value's lanes */
	int slot;          /* HOME_SCRATCH: the first dword of the value's scratch slot */
} Home;

static MInst *spill_add(MBlock *out, MOp op, int nd, const MOpnd *d, int nu, const MOpnd *u, const char *note)
{
	MInst *mi = mblock_add(out, op, nd, d, nu, u);
	mi->flags |= MIF_SPILL;
	mi->note = note;
	return mi;
}

/* Copy dword d between the AGPR or lane home and temporary t (of the
 * value's class): in (home -> t) or out. */
static void move(MBlock *out, const Home *h, uint32_t t, int d, bool in, const char *note)
{
	if (h->kind == HOME_AGPR) {
		MOpnd a = mo_vsub(h->v, d, rc_make(RF_AGPR, 1)), x = mo_vsub(t, d, RC_V1);
		if (in)
			spill_add(out, I_V_ACCVGPR_READ_B32, 1, &x, 1, &a, note);
		else
			spill_add(out, I_V_ACCVGPR_WRITE_B32, 1, &a, 1, &x, note);
		return;
	}
	MOpnd l = mo_vreg(h->lanes, RC_V1), x = mo_vsub(t, d, RC_S1);
	MOpnd u[2] = {in ? l : x, mo_imm(h->lane0 + d)};
	MInst *mi = spill_add(out, in ? I_V_READLANE_B32 : I_V_WRITELANE_B32, 1, in ? &x : &l, 2, u, note);
	if (!in)
		mi->flags |= MIF_TIED; /* the other lanes keep their values */
}

static bool is_gfx90a(const MFunc *f) { return strcmp(f->target->name, "gfx90a") == 0; }

/* One scratch access of rc_size(reg.rc) dwords (1, 2 or 4) at byte offset
 * `byte` of the lane's private segment: a load into reg or a store of it. */
static void scratch_access(MFunc *f, Spill *sp, MBlock *out, bool load, MOpnd reg, int byte, const char *note)
{
	static const MOp flat[2][5] = {
		{0, I_SCRATCH_STORE_DWORD, I_SCRATCH_STORE_DWORDX2, 0, I_SCRATCH_STORE_DWORDX4},
		{0, I_SCRATCH_LOAD_DWORD, I_SCRATCH_LOAD_DWORDX2, 0, I_SCRATCH_LOAD_DWORDX4}};
	static const MOp mubuf[2][5] = {
		{0, I_BUFFER_STORE_DWORD, I_BUFFER_STORE_DWORDX2, 0, I_BUFFER_STORE_DWORDX4},
		{0, I_BUFFER_LOAD_DWORD, I_BUFFER_LOAD_DWORDX2, 0, I_BUFFER_LOAD_DWORDX4}};
	int n = rc_size(reg.rc);
	check_that(n == 1 || n == 2 || n == 4);
	bool buf = is_gfx90a(f);
	/* past the offset field (12 bits; gfx942's is 13 signed): the offset
	 * in an SGPR, saddr or soffset */
	MOpnd base = buf ? mo_imm(0) : mo_special(MO_OFF);
	if (byte > 4095) {
		uint32_t s = mfunc_vreg(f, RC_S1);
		mark(sp, s, SPILL_TEMP);
		base = mo_vreg(s, RC_S1);
		MOpnd k = mo_imm(byte);
		spill_add(out, I_S_MOV_B32, 1, &base, 1, &k, note);
		byte = 0;
	}
	MOp op = (buf ? mubuf : flat)[load][n];
	MOpnd u[4];
	int nu = 0;
	if (buf) {
		if (!load)
			u[nu++] = reg;
		u[nu++] = mo_special(MO_OFF);
		u[nu++] = mo_vreg(sp->rsrc_vreg, RC_S4);
		u[nu++] = base;
	} else {
		u[nu++] = mo_special(MO_OFF);
		if (!load)
			u[nu++] = reg;
		u[nu++] = base;
	}
	MInst *mi = spill_add(out, op, load ? 1 : 0, &reg, nu, u, note);
	mi->offset = byte;
}

/* The dwords in mask between t's home slot and t: runs as wide as the
 * run, the width's alignment and the class allow. */
static void scratch_runs(MFunc *f, Spill *sp, MBlock *out, const Home *h, uint32_t t, RegClass tc, uint32_t mask,
	bool load, const char *note)
{
	RegFile file = rc_file(tc);
	bool wide = rc_size(tc) > 1; /* a tuple's register is even, so are its even dwords */
	for (int d = 0; d < 32;) {
		if (!(mask >> d & 1)) {
			d++;
			continue;
		}
		int run = 1;
		while (d + run < 32 && (mask >> (d + run) & 1))
			run++;
		int w = !wide || d % 2 ? 1 : run >= 4 ? 4 : run >= 2 ? 2 : 1;
		scratch_access(f, sp, out, load, mo_vsub(t, d, rc_make(file, w)), 4 * (h->slot + d), note);
		d += w;
	}
}

/* A spill's v_accvgpr_read/write of an AGPR home now in scratch: the
 * access itself (same lanes under EXEC). Returns whether `in` was one. */
static bool scratch_direct(MFunc *f, Spill *sp, MBlock *out, const Home *h, const MInst *in)
{
	if (!(in->flags & MIF_SPILL)) /* the kernel's own moves stay (the spill checker pairs them) */
		return false;
	if (in->op == I_V_ACCVGPR_READ_B32 && in->ndef == 1 && in->def[0].kind != MO_PREG &&
		rc_file(in->def[0].rc) == RF_VGPR && in->use[0].kind == MO_VREG && in->use[0].reg == h->v &&
		!(in->def[0].kind == MO_VREG && in->def[0].reg == h->v)) {
		scratch_access(f, sp, out, true, in->def[0], 4 * (h->slot + in->use[0].sub), in->note);
		return true;
	}
	if (in->op == I_V_ACCVGPR_WRITE_B32 && in->def[0].kind == MO_VREG && in->def[0].reg == h->v &&
		in->use[0].kind == MO_VREG && rc_file(in->use[0].rc) == RF_VGPR) {
		scratch_access(f, sp, out, false, in->use[0], 4 * (h->slot + in->def[0].sub), in->note);
		return true;
	}
	return false;
}

/* Instruction `in` with home h's value named by one temporary of class
 * tc for what it reads and writes (scratch), loaded before and stored
 * after; `pre`/`post` collect the spill code around it. */
static void via_scratch(MFunc *f, Spill *sp, MBlock *pre, MBlock *post, const Home *h, RegClass tc, MInst *in,
	uint32_t rd, uint32_t wr)
{
	uint32_t t = mfunc_vreg(f, tc);
	mark(sp, t, SPILL_TEMP);
	uint32_t ld = rd;
	if ((in->flags & MIF_TIED) && in->ndef && in->def[0].kind == MO_VREG && in->def[0].reg == h->v)
		for (int d = 0; d < rc_size(in->def[0].rc); d++)
			ld |= 1u << (in->def[0].sub + d);
	scratch_runs(f, sp, pre, h, t, tc, ld, true, in->note);
	rename_vreg(in, h->v, t, false);
	rename_vreg(in, h->v, t, true);
	scratch_runs(f, sp, post, h, t, tc, wr, false, in->note);
}

/* The same through an AGPR or lane home: a temporary for the reads, filled
 * before, and one for the writes, copied home after. */
static void via_copies(MFunc *f, Spill *sp, MBlock *pre, MBlock *post, const Home *h, RegClass tc, MInst *in,
	uint32_t rd, uint32_t wr)
{
	if (rd) {
		uint32_t t = mfunc_vreg(f, tc);
		mark(sp, t, SPILL_TEMP);
		for (int d = 0; d < 32; d++)
			if (rd >> d & 1)
				move(pre, h, t, d, true, in->note);
		rename_vreg(in, h->v, t, false);
	}
	if (wr) {
		uint32_t t = mfunc_vreg(f, tc);
		mark(sp, t, SPILL_TEMP);
		rename_vreg(in, h->v, t, true);
		for (int d = 0; d < 32; d++)
			if (wr >> d & 1)
				move(post, h, t, d, false, in->note);
	}
}

static void append(MBlock *to, MBlock *from)
{
	for (size_t i = 0; i < from->insts.len; i++)
		vec_push(&to->insts, from->insts.data[i]);
	from->insts.len = 0;
}

/* Every instruction naming a spilled value (home_of[v] >= 0) names fresh
 * temporaries instead (their class: the value's before it moved), filled
 * from the homes just before and copied home just after (only the dwords
 * it names), in one pass over the function. */
static void rewrite_uses(MFunc *f, Spill *sp, const Home *homes, const int32_t *home_of, size_t nhome_of,
	const RegClass *cls)
{
	MBlock pre = {0}, post = {0};
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		MBlock *b = f->blocks.data[bi];
		MBlock out = {.label = b->label};
		for (size_t i = 0; i < b->insts.len; i++) {
			MInst in = b->insts.data[i];
			/* the spilled values it names, each once */
			int32_t hs[MI_MAX_DEFS + MI_MAX_USES];
			int nh = 0;
			for (int k = 0; k < in.ndef + in.nuse; k++) {
				const MOpnd *o = k < in.ndef ? &in.def[k] : &in.use[k - in.ndef];
				if (o->kind != MO_VREG || o->reg >= nhome_of || home_of[o->reg] < 0)
					continue;
				bool dup = false;
				for (int j = 0; j < nh && !dup; j++)
					dup = hs[j] == home_of[o->reg];
				if (!dup)
					hs[nh++] = home_of[o->reg];
			}
			if (nh == 1 && homes[hs[0]].kind == HOME_SCRATCH && scratch_direct(f, sp, &out, &homes[hs[0]], &in))
				continue;
			for (int j = 0; j < nh; j++) {
				const Home *h = &homes[hs[j]];
				uint32_t rd = dwords_named(&in, h->v, false), wr = dwords_named(&in, h->v, true);
				if (h->kind == HOME_SCRATCH)
					via_scratch(f, sp, &pre, &post, h, cls[hs[j]], &in, rd, wr);
				else
					via_copies(f, sp, &pre, &post, h, cls[hs[j]], &in, rd, wr);
			}
			append(&out, &pre);
			vec_push(&out.insts, in);
			append(&out, &post);
		}
		vec_free(&b->insts);
		b->insts.data = out.insts.data;
		b->insts.len = out.insts.len;
		b->insts.cap = out.insts.cap;
	}
	vec_free(&pre.insts);
	vec_free(&post.insts);
}

/* A new instruction at the start of the entry block (after those put
 * there before it). */
static void entry_add(MFunc *f, int *at, MOp op, MOpnd d, int nu, const MOpnd *u)
{
	MBlock tmp = {0};
	spill_add(&tmp, op, 1, &d, nu, u, NULL);
	mblock_insert(f->blocks.data[0], (size_t)(*at)++, tmp.insts.data[0]);
	vec_free(&tmp.insts);
}

/* The lane home of an SGPR value of `size` dwords. */
static Home lane_home(MFunc *f, Spill *sp, uint32_t v, int size)
{
	if (sp->lanes_vreg == UINT32_MAX || sp->lanes_used + size > 64) {
		/* a fresh VGPR of 64 lanes, zeroed first thing */
		sp->lanes_vreg = mfunc_vreg(f, RC_V1);
		mark(sp, sp->lanes_vreg, SPILL_TEMP);
		sp->lanes_used = 0;
		int at = 0;
		MOpnd z = mo_imm(0);
		entry_add(f, &at, I_V_MOV_B32, mo_vreg(sp->lanes_vreg, RC_V1), 1, &z);
	}
	Home h = {.kind = HOME_LANES, .v = v, .lanes = sp->lanes_vreg, .lane0 = sp->lanes_used};
	sp->lanes_used += size;
	return h;
}

/* The first scratch spill: on gfx90a the private segment buffer ahead of
 * the ABI's input SGPRs, and the V# with the wave's offset in a vreg. */
static void scratch_setup(MFunc *f, Spill *sp)
{
	if (sp->scratch_ready)
		return;
	sp->scratch_ready = true;
	if (!is_gfx90a(f))
		return; /* architected flat scratch */
	/* The SGPRs the hardware initialises (as isel recorded them, at
	 * least the fixed ones the code names) move up by 4, and the wave's
	 * scratch offset follows them. */
	int abi = f->input_sgprs;
	for (size_t bi = 0; bi < f->blocks.len; bi++)
		for (size_t i = 0; i < f->blocks.data[bi]->insts.len; i++) {
			MInst *in = &f->blocks.data[bi]->insts.data[i];
			for (int k = 0; k < in->ndef + in->nuse; k++) {
				MOpnd *o = k < in->ndef ? &in->def[k] : &in->use[k - in->ndef];
				if (o->kind == MO_PREG && rc_file(o->rc) == RF_SGPR) {
					abi = MAX(abi, (int)o->reg + rc_size(o->rc));
					o->reg += 4;
				}
			}
		}
	f->scratch_wave_sgpr = abi + 4;
	sp->rsrc_vreg = mfunc_vreg(f, RC_S4);
	mark(sp, sp->rsrc_vreg, SPILL_TEMP);
	int at = 0;
	MOpnd add[2] = {mo_preg(0, RC_S1), mo_preg((uint32_t)f->scratch_wave_sgpr, RC_S1)};
	entry_add(f, &at, I_S_ADD_U32, mo_vsub(sp->rsrc_vreg, 0, RC_S1), 2, add);
	MOpnd addc[2] = {mo_preg(1, RC_S1), mo_imm(0)};
	entry_add(f, &at, I_S_ADDC_U32, mo_vsub(sp->rsrc_vreg, 1, RC_S1), 2, addc);
	MOpnd hi = mo_preg(2, RC_S2);
	entry_add(f, &at, I_S_MOV_B64, mo_vsub(sp->rsrc_vreg, 2, RC_S2), 1, &hi);
}

/* ---- reloads forwarded from registers ---- */

/* A scratch dword whose value a register dword holds: the source of the
 * store that wrote it or the destination of a load that read it. */
typedef struct Avail {
	size_t slot;   /* scratch dword */
	MOpnd reg;     /* one dword of a vreg */
	size_t at;     /* where it was stored or loaded (index in the block) */
} Avail;
typedef Vec(Avail) AvailVec;

/* A reload that follows a store or load of the same slot by at most
 * FORWARD_GAP instructions becomes register moves (a VALU move is cheaper
 * than a trip to memory and its wait). */
enum { FORWARD_GAP = 4 };

/* May in change EXEC (v_cmpx, the saveexec rows, an exec def)? */
static bool writes_exec(const MInst *in)
{
	for (int d = 0; d < in->ndef; d++)
		if (in->def[d].kind == MO_EXEC)
			return true;
	return (isa_info[in->op].flags & IF_CMPX) || strstr(isa_info[in->op].name, "exec") != NULL;
}

/* The scratch dword a spill access of the function starts at, its data
 * operand and whether it loads; false for anything else (or an offset in
 * an SGPR). */
static bool spill_access(const MInst *in, size_t *slot, MOpnd *data, bool *load)
{
	const IsaInfo *r = &isa_info[in->op];
	if (!(in->flags & MIF_SPILL) || (r->fmt != FMT_FLAT && r->fmt != FMT_MUBUF))
		return false;
	*load = (r->flags & IF_LOAD) != 0;
	*data = *load ? in->def[0] : in->use[r->fmt == FMT_MUBUF ? 0 : 1];
	MOpnd base = in->use[in->nuse - 1];
	if (!(base.kind == MO_OFF || (base.kind == MO_IMM && base.imm == 0)) || data->kind != MO_VREG)
		return false;
	*slot = (size_t)in->offset / 4;
	return true;
}

/* A move of one dword between register files. */
static MOp move_op(RegFile to, RegFile from)
{
	if (to == RF_VGPR)
		return from == RF_VGPR ? I_V_MOV_B32 : I_V_ACCVGPR_READ_B32;
	return from == RF_VGPR ? I_V_ACCVGPR_WRITE_B32 : I_V_ACCVGPR_MOV_B32;
}

/* One block: reloads forwarded where every dword they load is available. */
static void forward_block(MBlock *b, AvailVec *av)
{
	MBlock out = {.label = b->label};
	av->len = 0;
	for (size_t k = 0; k < b->insts.len; k++) {
		MInst in = b->insts.data[k];
		size_t slot;
		MOpnd data;
		bool load;
		/* entries too old to be worth a register's longer life go */
		size_t keep = 0;
		for (size_t i = 0; i < av->len; i++)
			if (k - av->data[i].at <= FORWARD_GAP)
				av->data[keep++] = av->data[i];
		av->len = keep;
		bool acc = spill_access(&in, &slot, &data, &load);
		int n = acc ? rc_size(data.rc) : 0;
		MOpnd from[4];
		int found = 0;
		for (int d = 0; acc && load && d < n; d++)
			for (size_t i = av->len; i-- > 0;)
				if (av->data[i].slot == slot + (size_t)d) {
					from[found++] = av->data[i].reg;
					break;
				}
		if (acc && load && found == n) {
			for (int d = 0; d < n; d++) {
				MOpnd to = mo_vsub(data.reg, data.sub + d, rc_make(rc_file(data.rc), 1));
				spill_add(&out, move_op(rc_file(to.rc), rc_file(from[d].rc)), 1, &to, 1, &from[d], in.note);
			}
		} else {
			vec_push(&out.insts, in);
		}
		/* what it writes is no longer what any slot holds ... */
		for (int j = 0; j < in.ndef; j++) {
			MOpnd o = in.def[j];
			if (o.kind != MO_VREG)
				continue;
			size_t w = 0;
			for (size_t i = 0; i < av->len; i++) {
				MOpnd r = av->data[i].reg;
				bool hit = r.reg == o.reg && r.sub >= o.sub && r.sub < o.sub + rc_size(o.rc);
				if (!hit)
					av->data[w++] = av->data[i];
			}
			av->len = w;
		}
		if (writes_exec(&in)) /* other lanes from here on */
			av->len = 0;
		if (!acc)
			continue;
		/* ... and the slots it accessed are held by its data now */
		for (int d = 0; d < n; d++) {
			size_t w = 0;
			for (size_t i = 0; i < av->len; i++)
				if (av->data[i].slot != slot + (size_t)d)
					av->data[w++] = av->data[i];
			av->len = w;
			MOpnd r = mo_vsub(data.reg, data.sub + d, rc_make(rc_file(data.rc), 1));
			vec_push(av, ((Avail){slot + (size_t)d, r, k}));
		}
	}
	vec_free(&b->insts);
	b->insts.data = out.insts.data;
	b->insts.len = out.insts.len;
	b->insts.cap = out.insts.cap;
}

/* One block, backward: a spill store whose dwords a later store of the
 * block writes again before anything loads them, with no EXEC write
 * between (the same lanes), is dead. over[s]: slot s is written again
 * below before a load (scratch, per block). */
static void drop_dead_stores(MBlock *b, uint8_t *over, size_t nslots)
{
	memset(over, 0, nslots);
	size_t w = b->insts.len;
	for (size_t k = b->insts.len; k-- > 0;) {
		MInst in = b->insts.data[k];
		size_t slot;
		MOpnd data;
		bool load;
		if (writes_exec(&in))
			memset(over, 0, nslots);
		if (spill_access(&in, &slot, &data, &load) && slot + (size_t)rc_size(data.rc) <= nslots) {
			int n = rc_size(data.rc);
			bool dead = !load;
			for (int d = 0; d < n; d++) {
				dead &= over[slot + (size_t)d];
				over[slot + (size_t)d] = !load;
			}
			if (dead)
				continue;
		}
		b->insts.data[--w] = in;
	}
	/* the kept instructions are at [w, len): close the gap */
	memmove(b->insts.data, b->insts.data + w, (b->insts.len - w) * sizeof(MInst));
	b->insts.len -= w;
}

/* Reloads of a slot a store or load just before in the block left in a
 * register become moves from it (no EXEC write between, the register not
 * written since); then stores written over before any load go. */
static void forward_reloads(MFunc *f, size_t nslots)
{
	AvailVec av = {0};
	uint8_t *over = xmalloc(nslots + 1);
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		forward_block(f->blocks.data[bi], &av);
		drop_dead_stores(f->blocks.data[bi], over, nslots);
	}
	free(over);
	vec_free(&av);
}

void spill_apply(MFunc *f, Spill *sp, const SpillReq *reqs, size_t n)
{
	if (!n)
		return;
	size_t nv = f->vregs.len;
	int32_t *home_of = xmalloc((nv + 1) * sizeof *home_of);
	for (size_t v = 0; v < nv; v++)
		home_of[v] = -1;
	Home *homes = xmalloc(n * sizeof *homes);
	RegClass *cls = xmalloc(n * sizeof *cls);
	for (size_t i = 0; i < n; i++) {
		uint32_t v = reqs[i].v;
		check_that(v < nv && home_of[v] < 0);
		RegClass c = f->vregs.data[v];
		cls[i] = c;
		home_of[v] = (int32_t)i;
		switch (reqs[i].home) {
		case SPILL_TO_AGPR:
			f->vregs.data[v] = rc_make(RF_AGPR, rc_size(c));
			mark(sp, v, SPILL_AGPR);
			sp->count++;
			homes[i] = (Home){.kind = HOME_AGPR, .v = v};
			break;
		case SPILL_TO_LANES:
			homes[i] = lane_home(f, sp, v, rc_size(c));
			mark(sp, v, SPILL_TEMP);
			sp->count++;
			break;
		default:
			scratch_setup(f, sp);
			homes[i] = (Home){.kind = HOME_SCRATCH, .v = v, .slot = sp->scratch_dwords};
			sp->scratch_dwords += rc_size(c);
			f->scratch_bytes = 4 * sp->scratch_dwords;
			mark(sp, v, SPILL_SCRATCH);
			sp->scratch_values++;
		}
	}
	rewrite_uses(f, sp, homes, home_of, nv, cls);
	if (sp->scratch_dwords)
		forward_reloads(f, (size_t)sp->scratch_dwords);
	free(home_of);
	free(homes);
	free(cls);
}

void spill_round_end(Spill *sp)
{
	free(sp->uses);
	sp->uses = NULL;
	sp->scratch_pending = 0;
}

void spill_free(Spill *sp)
{
	free(sp->mark);
	free(sp->uses);
	*sp = (Spill){.lanes_vreg = UINT32_MAX, .rsrc_vreg = UINT32_MAX};
}
