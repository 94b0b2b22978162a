/* linear.c — register allocation by linear scan over live intervals built
 * from liveness over the CFG (allocate_registers, regalloc_mfunc).
 *
 * Algorithm:
 *   1. mir_live_fill (ir/mir_live.c) gives the live dwords on entry to and
 *      exit from each block; positions (RaPositions) number the
 *      instructions in layout order.
 *   2. Each vreg's interval is the hull [lo, hi] of every position where one
 *      of its dwords is live or touched: the start of a block it is live into,
 *      the end of a block it is live out of, and each instruction naming it.
 *      A value live around a loop's back edge is live out of the latch and
 *      into the header, so its hull covers the whole loop: loop-carried
 *      values (an accumulator redefined inside the loop) and values defined
 *      before the loop and read after it keep their register through every
 *      iteration. The hull over-approximates (holes are not reused), which
 *      keeps the scan one array walk.
 *   3. Physical registers the code names before allocation (kernarg s[0:1],
 *      workgroup ids, v0) get hulls the same way; each stays busy from the
 *      start until its last live position.
 *   4. Vregs are taken by interval start (a counting sort over positions);
 *      each gets the lowest register of its file, aligned for its class
 *      (rc_align), whose dwords' previous holders all ended before it starts.
 *      Intervals are closed, so a register is never reused within one
 *      instruction: a result never shares a register with a source of the
 *      same instruction unless it is the same vreg. That is exactly the
 *      MFMA early-clobber rule (vdst differs from srcA/srcB and, unless it is
 *      the same accumulator vreg, from srcC), given for every instruction.
 *   5. Files: SGPRs up to t->sgprs, 256 arch VGPRs, t->agprs AGPRs (each
 *      capped further by RaLimits, for tests). Under a unified cap U
 *      (RaLimits.unified: the registers a wave may hold when several waves
 *      share a SIMD) a value's file ends where the other file's registers
 *      given out so far leave room: VGPRs below U - AGPRs used (down to a
 *      multiple of 4, where the AGPRs start), AGPRs below U - the VGPRs
 *      used rounded up to 4; neither bound ever falls below what its file
 *      already uses, so the allocation ends within U. When a file runs out at a
 *      value, values live across that point are victims (spill.c): VGPR
 *      values move to AGPRs, SGPR values to VGPR lanes, and where the
 *      AGPRs run out too, VGPR and AGPR values to scratch memory. The
 *      victims' registers are free for the rest of the round, the scan goes
 *      on and takes the victims of every later value that finds no room;
 *      then spill.c rewrites the function for all of them and the scan
 *      starts over. Running out with nothing left to spill (every value
 *      live there named by the instruction or fixed, or scratch full) is an
 *      error naming the kernel, the file and the pressure, and no register
 *      is rewritten then.
 *   6. Every MO_VREG operand becomes MO_PREG (first register + sub); f->nregs
 *      gets the next free register of each file for the kernel descriptor.
 * Cost: liveness plus O(vregs x registers) for first fit.
 * Requires: mir_verify-clean MIR with vregs. Keeps (optionally) a copy of
 * the function and the vreg→register map for the checker (check.c), and
 * after spills the function as it came for the spill checker
 * (spill_check.c). */
#include <limits.h>
#include <string.h>

#include "regalloc.h"

static int file_limit(const Target *t, const RaLimits *lim, RegFile f)
{
	int n = f == RF_SGPR ? t->sgprs : f == RF_VGPR ? 256 : t->agprs;
	return lim && lim->regs[f] > 0 && lim->regs[f] < n ? lim->regs[f] : n;
}

static int align4(int x) { return (x + 3) / 4 * 4; }

/* Where file rf ends for the next value: its own cap, and under a unified
 * cap what the other file's registers used so far leave of it. */
static int value_limit(const Target *t, const RaLimits *lim, RegFile rf, const int *used)
{
	int n = file_limit(t, lim, rf);
	if (!lim || lim->unified <= 0 || rf == RF_SGPR)
		return n;
	int room = rf == RF_VGPR ? (lim->unified - used[RF_AGPR]) / 4 * 4 : lim->unified - align4(used[RF_VGPR]);
	return MAX(0, MIN(n, room));
}

static const char *file_word(RegFile f) { return f == RF_SGPR ? "scalar" : f == RF_VGPR ? "vector" : "accumulator"; }

static MFunc *mfunc_copy(const MFunc *f)
{
	MFunc *g = mfunc_new(f->name, f->target);
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		const MBlock *b = f->blocks.data[bi];
		MBlock *c = mfunc_block(g, b->label);
		vec_grow(&c->insts, b->insts.len);
		if (b->insts.len)
			memcpy(c->insts.data, b->insts.data, b->insts.len * sizeof(MInst));
		c->insts.len = b->insts.len;
	}
	for (size_t v = 0; v < f->vregs.len; v++)
		vec_push(&g->vregs, f->vregs.data[v]);
	memcpy(g->nregs, f->nregs, sizeof g->nregs);
	g->allocated = f->allocated;
	g->lds_bytes = f->lds_bytes;
	g->scratch_bytes = f->scratch_bytes;
	g->scratch_wave_sgpr = f->scratch_wave_sgpr;
	g->input_sgprs = f->input_sgprs;
	return g;
}

void regalloc_positions_fill(RaPositions *ps, const MFunc *f)
{
	size_t nb = f->blocks.len;
	ps->nblocks = nb;
	ps->bstart = xmalloc((nb + 1) * sizeof *ps->bstart);
	ps->bend = xmalloc((nb + 1) * sizeof *ps->bend);
	int pos = 0;
	for (size_t bi = 0; bi < nb; bi++) {
		size_t n = f->blocks.data[bi]->insts.len;
		ps->bstart[bi] = pos;
		pos += n ? (int)n : 1;
		ps->bend[bi] = pos - 1;
	}
	ps->npos = pos;
}

void regalloc_positions_free(RaPositions *ps)
{
	free(ps->bstart);
	free(ps->bend);
	memset(ps, 0, sizeof *ps);
}

/* Widen the hull of every owner of a slot in `set` to `pos`. */
static void extend_set(const MirLive *lv, const uint64_t *set, int pos, int *lo, int *hi)
{
	for (size_t wi = 0; wi < lv->words; wi++)
		for (uint64_t x = set[wi]; x; x &= x - 1) {
			size_t s = wi * 64 + (size_t)__builtin_ctzll(x);
			uint32_t o = lv->owner[s];
			lo[o] = MIN(lo[o], pos);
			hi[o] = MAX(hi[o], pos);
		}
}

/* Block and instruction at a position, for messages. */
static void locate(const RaPositions *ps, int pos, size_t *bi, int *ii)
{
	size_t b = 0;
	while (b + 1 < ps->nblocks && ps->bstart[b + 1] <= pos)
		b++;
	*bi = b;
	*ii = pos - ps->bstart[b];
}

/* The graph op (instruction note) that first defines each vreg. */
static const char **def_notes(const MFunc *f)
{
	const char **note = xcalloc(f->vregs.len + 1, sizeof *note);
	for (size_t bi = 0; bi < f->blocks.len; bi++)
		for (size_t i = 0; i < f->blocks.data[bi]->insts.len; i++) {
			const MInst *in = &f->blocks.data[bi]->insts.data[i];
			for (int k = 0; k < in->ndef; k++)
				if (in->def[k].kind == MO_VREG && in->def[k].reg < f->vregs.len && !note[in->def[k].reg])
					note[in->def[k].reg] = in->note;
		}
	return note;
}

/* The message when vreg v finds no room: the graph op it belongs to, and
 * what holds the file there, by the graph op that defined each live value
 * (a kernel author knows ops, not vreg numbers). */
static void out_of_registers(const MFunc *f, const RaPositions *ps, Buf *err, RegAssign *keep, uint32_t v, int size,
	int rf, int lim, int pos, const int *busy, const uint32_t *who, int spilled, bool scratch_full)
{
	const char **note = def_notes(f);
	size_t bi;
	int ii;
	locate(ps, pos, &bi, &ii);
	const MInst *at = ii < (int)f->blocks.data[bi]->insts.len ? &f->blocks.data[bi]->insts.data[ii] : NULL;
	const char *op = note[v] ? note[v] : at ? at->note : NULL;
	/* a value the entry code made (constants, offsets) has no op: the
	 * first op whose code follows names the place */
	for (size_t b = bi; !op && b < f->blocks.len; b++)
		for (size_t i = b == bi ? (size_t)ii : 0; !op && i < f->blocks.data[b]->insts.len; i++)
			op = f->blocks.data[b]->insts.data[i].note;
	int live = 0;
	for (int i = 0; i < lim; i++)
		live += busy[i] >= pos;
	buf_printf(err, "out of %s registers%s%s%s: a value of %d dword%s needs room where %d of %d are live, held by ",
		file_word(rf), op ? " at graph op '" : "", op ? op : "", op ? "'" : "", size, size > 1 ? "s" : "", live,
		lim);
	/* dwords per defining op, in register order of first appearance */
	const char *names[64];
	int dw[64], nn = 0, fixed = 0;
	for (int i = 0; i < lim; i++) {
		if (busy[i] < pos)
			continue;
		if (who[i] == UINT32_MAX) {
			fixed++;
			continue;
		}
		const char *n = note[who[i]] ? note[who[i]] : "(no graph op)";
		int j = 0;
		while (j < nn && names[j] != n)
			j++;
		if (j == nn && nn < 64) {
			names[nn] = n;
			dw[nn++] = 0;
		}
		if (j < nn)
			dw[j]++;
	}
	for (int j = 0; j < nn && j < 12; j++)
		buf_printf(err, "%s'%s' (%d)", j ? ", " : "the values of ops ", names[j], dw[j]);
	if (nn > 12)
		buf_printf(err, " and %d more ops", nn - 12);
	if (fixed)
		buf_printf(err, "%s%d fixed registers", nn ? " and " : "", fixed);
	buf_printf(err, " (kernel %s, block %zu, instruction %d); ", f->name, bi, ii);
	if (scratch_full)
		buf_printf(err, "%d values were spilled and scratch memory is full (%d KiB per work-item): ", spilled,
			SPILL_SCRATCH_MAX_BYTES / 1024);
	else if (spilled)
		buf_printf(err, "%d values were spilled (VGPRs to AGPRs, SGPRs to VGPR lanes, VGPRs and AGPRs to scratch "
				"memory) and no more can go: ", spilled);
	else
		buf_printf(err, "no value live there can be spilled: ");
	buf_printf(err, "the instruction there needs more registers than the file has; smaller tiles or fewer elements "
			"per thread lower the pressure");
	if (keep)
		keep->fail_op = op;
	free(note);
}

/* Take victims for value v, which found no room at pos in file rf: VGPRs
 * to AGPRs, SGPRs to lanes, and what the AGPRs cannot take (or a VGPR
 * value that may go nowhere else) to scratch. Their registers are free
 * from here on in this round (the scan goes on as if they were spilled
 * already, so one round finds most of what must go). Returns how many. */
static int take_victims(const MFunc *f, Spill *sp, SpillReqs *out, RegFile rf, bool unified, const MInst *at,
	int pos, const int *lo, const int *hi, int *busy, uint32_t *who, int lim, int size)
{
	uint32_t got[MIR_MAX_PHYS];
	uint8_t home = rf == RF_SGPR ? SPILL_TO_LANES : SPILL_TO_AGPR;
	/* under a unified cap an AGPR home takes the room a VGPR gives up:
	 * VGPR values go to scratch */
	int n = rf == RF_AGPR || (unified && rf == RF_VGPR)
			? 0
			: spill_pick(f, sp, rf, false, at, pos, lo, hi, busy, who, lim, size, got);
	if (n == 0 && rf != RF_SGPR) {
		home = SPILL_TO_SCRATCH;
		n = spill_pick(f, sp, rf, true, at, pos, lo, hi, busy, who, lim, size, got);
	}
	for (int i = 0; i < n; i++) {
		vec_push(out, ((SpillReq){got[i], home}));
		if (home == SPILL_TO_SCRATCH)
			sp->scratch_pending += rc_size(f->vregs.data[got[i]]);
		for (int r = 0; r < lim; r++)
			if (who[r] == got[i]) {
				who[r] = UINT32_MAX;
				busy[r] = -1;
			}
	}
	return n;
}

/* One allocation round: 0 done, -1 out of registers (err written), 1 a
 * file ran out and the values in `reqs` should move to their homes first. */
static int allocate_once(MFunc *f, const RaLimits *lims, RegAssign *keep, Buf *err, Spill *sp, SpillReqs *reqs)
{
	const Target *t = f->target;
	MirLive lv;
	mir_live_fill(&lv, f);
	RaPositions ps;
	regalloc_positions_fill(&ps, f);
	size_t nv = f->vregs.len, nown = nv + RF_COUNT * MIR_MAX_PHYS;
	int *lo = xmalloc(nown * sizeof *lo), *hi = xmalloc(nown * sizeof *hi);
	for (size_t o = 0; o < nown; o++)
		lo[o] = INT_MAX, hi[o] = -1;
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		const MBlock *b = f->blocks.data[bi];
		extend_set(&lv, lv.in + bi * lv.words, ps.bstart[bi], lo, hi);
		extend_set(&lv, lv.out + bi * lv.words, ps.bend[bi], lo, hi);
		for (size_t i = 0; i < b->insts.len; i++) {
			const MInst *in = &b->insts.data[i];
			int pos = ps.bstart[bi] + (int)i;
			for (int k = 0; k < in->ndef + in->nuse; k++) {
				uint32_t s;
				int n = mir_live_opnd(&lv, k < in->ndef ? in->def[k] : in->use[k - in->ndef], &s);
				for (int d = 0; d < n; d++) {
					uint32_t o = lv.owner[s + d];
					lo[o] = MIN(lo[o], pos);
					hi[o] = MAX(hi[o], pos);
				}
			}
		}
	}
	/* busy[file][reg]: the last position its current holder is live at. */
	int(*busy)[MIR_MAX_PHYS] = xmalloc(RF_COUNT * sizeof *busy);
	/* who[file][reg]: the vreg holding it (UINT32_MAX: a fixed register) */
	uint32_t(*who)[MIR_MAX_PHYS] = xmalloc(RF_COUNT * sizeof *who);
	memset(who, 0xff, RF_COUNT * sizeof *who);
	int used[RF_COUNT] = {0};
	for (int rf = 0; rf < RF_COUNT; rf++)
		for (int r = 0; r < MIR_MAX_PHYS; r++) {
			size_t o = nv + (size_t)rf * MIR_MAX_PHYS + (size_t)r;
			busy[rf][r] = hi[o];
			if (hi[o] >= 0)
				used[rf] = r + 1;
		}
	/* Counting sort of the named vregs by start; ties keep vreg order. */
	int *first = xcalloc((size_t)ps.npos + 2, sizeof *first);
	size_t n = 0;
	for (size_t v = 0; v < nv; v++)
		if (hi[v] >= 0)
			first[lo[v] + 1]++, n++;
	for (int p = 0; p < ps.npos; p++)
		first[p + 1] += first[p];
	uint32_t *order = xmalloc((nv + 1) * sizeof *order);
	for (size_t v = 0; v < nv; v++)
		if (hi[v] >= 0)
			order[first[lo[v]]++] = (uint32_t)v;
	uint32_t *phys = xmalloc((nv + 1) * sizeof *phys);
	for (size_t v = 0; v < nv; v++)
		phys[v] = RA_NONE;
	int rc = 0;
	for (size_t oi = 0; oi < n; oi++) {
		uint32_t v = order[oi];
		RegClass cls = f->vregs.data[v];
		RegFile rf = rc_file(cls);
		int size = rc_size(cls), align = rc_align(cls, t), lim = value_limit(t, lims, rf, used);
		int r;
		for (;;) {
			for (r = 0; r + size <= lim; r += align) {
				bool ok = true;
				for (int d = 0; d < size && ok; d++)
					ok = busy[rf][r + d] < lo[v];
				if (ok)
					break;
			}
			if (r + size <= lim)
				break;
			size_t bi;
			int ii;
			locate(&ps, lo[v], &bi, &ii);
			const MBlock *bb = f->blocks.data[bi];
			const MInst *at = ii < (int)bb->insts.len ? &bb->insts.data[ii] : NULL;
			if (take_victims(f, sp, reqs, rf, lims && lims->unified > 0, at, lo[v], lo, hi, busy[rf], who[rf],
				    lim, size) == 0)
				break;
		}
		if (r + size > lim) {
			if (reqs->len) { /* spill what was found, then try again */
				rc = 1;
				break;
			}
			out_of_registers(f, &ps, err, keep, v, size, rf, lim, lo[v], busy[rf], who[rf],
				sp->count + sp->scratch_values, 4 * (sp->scratch_dwords + size) > SPILL_SCRATCH_MAX_BYTES);
			if (lim < file_limit(t, lims, rf))
				buf_printf(err, " (the waves that share a SIMD allow each %d VGPRs and AGPRs together)",
					lims->unified);
			rc = -1;
			break;
		}
		for (int d = 0; d < size; d++) {
			busy[rf][r + d] = hi[v];
			who[rf][r + d] = v;
		}
		phys[v] = (uint32_t)r;
		used[rf] = MAX(used[rf], r + size);
	}
	if (rc == 0 && reqs->len)
		rc = 1; /* the victims go first */
	if (rc == 0) {
		if (keep)
			keep->pre = mfunc_copy(f);
		for (size_t bi = 0; bi < f->blocks.len; bi++) {
			MBlock *b = f->blocks.data[bi];
			for (size_t i = 0; i < b->insts.len; i++) {
				MInst *in = &b->insts.data[i];
				for (int k = 0; k < in->ndef + in->nuse; k++) {
					MOpnd *o = k < in->ndef ? &in->def[k] : &in->use[k - in->ndef];
					if (o->kind == MO_VREG)
						*o = mo_preg(phys[o->reg] + o->sub, o->rc);
				}
			}
		}
		for (int r = 0; r < RF_COUNT; r++)
			f->nregs[r] = used[r];
		f->allocated = true;
	}
	if (rc == 0 && keep)
		keep->phys = phys;
	else
		free(phys);
	free(order);
	free(first);
	free(busy);
	free(who);
	free(lo);
	free(hi);
	regalloc_positions_free(&ps);
	mir_live_free(&lv);
	spill_round_end(sp);
	return rc;
}

int regalloc_mfunc_limits(MFunc *f, const RaLimits *lim, RegAssign *keep, Buf *err)
{
	check_that(!f->allocated);
	Spill sp = {.lanes_vreg = UINT32_MAX, .rsrc_vreg = UINT32_MAX};
	SpillReqs reqs = {0};
	int rc;
	MFunc *orig = NULL;
	if (lim && lim->nscratch > 0) { /* a test's choice of victims */
		if (keep)
			orig = mfunc_copy(f);
		for (int i = 0; i < lim->nscratch && i < (int)ARRAY_LEN(lim->scratch); i++)
			vec_push(&reqs, ((SpillReq){lim->scratch[i], SPILL_TO_SCRATCH}));
		spill_apply(f, &sp, reqs.data, reqs.len);
		reqs.len = 0;
	}
	while ((rc = allocate_once(f, lim, keep, err, &sp, &reqs)) == 1) {
		if (!orig && keep)
			orig = mfunc_copy(f); /* for the spill checker */
		spill_apply(f, &sp, reqs.data, reqs.len);
		reqs.len = 0;
	}
	vec_free(&reqs);
	if (keep) {
		keep->spills = sp.count;
		keep->scratch_values = sp.scratch_values;
		keep->scratch_dwords = sp.scratch_dwords;
		if (rc == 0)
			keep->orig = orig;
		else
			mfunc_free(orig);
	}
	spill_free(&sp);
	return rc;
}

int regalloc_mfunc(MFunc *f, RegAssign *keep, Buf *err) { return regalloc_mfunc_limits(f, NULL, keep, err); }

void regassign_free(RegAssign *ra)
{
	if (!ra)
		return;
	mfunc_free(ra->pre);
	mfunc_free(ra->orig);
	free(ra->phys);
	ra->pre = NULL;
	ra->orig = NULL;
	ra->phys = NULL;
}
