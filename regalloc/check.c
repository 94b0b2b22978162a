/* check.c — the independent register-allocation checker (regalloc_check,
 * check_allocation), run on every compilation right after allocation.
 *
 * It shares nothing with the allocator but the MIR: it takes the function as
 * it was before allocation (`pre`, a copy linear.c keeps), the vreg →
 * first-register map and the allocated function (`post`), and re-derives
 * everything it needs in a deliberately plain way:
 *   1. shape: post has pre's blocks and instructions, and every operand of
 *      post is pre's with each vreg replaced by phys[v] + sub (same class);
 *   2. placement: each named vreg lies inside its file (SGPRs up to
 *      t->sgprs, 256 VGPRs, t->agprs AGPRs), below post->nregs (the kernel
 *      descriptor's count) and aligned for its class;
 *   3. liveness per instruction, per dword, by iterating
 *      in = uses | (out & ~defs), out = union of the successors' in over an
 *      instruction-level CFG (the next instruction, or the first instruction
 *      of each successor block of mfunc_succs, empty blocks skipped) until
 *      nothing changes — no intervals; only the live-in sets of the blocks'
 *      first instructions are stored, each block walked backward
 *      instruction by instruction from its successors' (a set per
 *      instruction made memory quadratic in the program: 100,000 ops ran
 *      out of memory);
 *   4. interference: at every def, no dword live after the instruction that
 *      belongs to another value may sit in a physical dword the def writes;
 *      and no two values live on entry share one. (If two values are ever
 *      live at once, walking back to the latest def of either reaches one of
 *      these two cases, so checking defs and the entry is complete.) Values
 *      are vregs and the physical registers named before allocation;
 *   5. MFMA early clobber: the result shares no register with srcA/srcB and
 *      either none with srcC or exactly srcC's registers.
 * Failures are compiler bugs: the pipeline dies with the message. */
#include <string.h>

#include "regalloc.h"

enum { MAX_REPORTS = 20 };

typedef struct Chk {
	const MFunc *pre, *post;
	const uint32_t *phys;
	Buf *msg;
	int n;
	size_t nv, vdw, nslots, words;
	uint32_t *vbase; /* first slot of each vreg */
	/* fixed physical dwords named in pre: slot vdw + fslot[key]; key order,
	 * so a tuple's dwords are consecutive */
	int32_t *fslot;
	size_t *fkey;
	uint32_t *vown;  /* slot < vdw → its vreg */
	/* instructions flattened in layout order */
	size_t ni;
	const MInst **ins;
	size_t *iblock;  /* instruction → its block */
	long *bfirst;    /* block → its first instruction's index */
	uint64_t *bin;   /* per block: slots live before its first instruction (words each) */
} Chk;

/* key of a physical dword: file * RA_MAX_PHYS + reg */
static const char file_ch[RF_COUNT] = {'s', 'v', 'a'};

static int limit(const Target *t, RegFile f) { return f == RF_SGPR ? t->sgprs : f == RF_VGPR ? 256 : t->agprs; }

static void report(Chk *k, size_t bi, size_t ii, const char *fmt, ...) PRINTF_LIKE(4, 5);
static void report(Chk *k, size_t bi, size_t ii, const char *fmt, ...)
{
	if (k->n++ >= MAX_REPORTS)
		return;
	const MBlock *b = bi < k->pre->blocks.len ? k->pre->blocks.data[bi] : NULL;
	buf_printf(k->msg, "regalloc check: %s: block %zu inst %zu (%s): ", k->pre->name, bi, ii,
		b && ii < b->insts.len ? mop_name(b->insts.data[ii].op) : "-");
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(k->msg, fmt, ap);
	va_end(ap);
	buf_putc(k->msg, '\n');
}

/* First slot and width of an operand of pre (0: not a register). */
static int slots(const Chk *k, MOpnd o, size_t *first)
{
	if (o.kind == MO_VREG && o.reg < k->nv && o.sub + rc_size(o.rc) <= rc_size(k->pre->vregs.data[o.reg])) {
		*first = k->vbase[o.reg] + o.sub;
		return rc_size(o.rc);
	}
	if (o.kind == MO_PREG && o.reg + (uint32_t)rc_size(o.rc) <= RA_MAX_PHYS) {
		*first = k->vdw + (size_t)k->fslot[rc_file(o.rc) * RA_MAX_PHYS + o.reg];
		return rc_size(o.rc);
	}
	return 0;
}

/* The physical dword key a slot was given, or -1 (unallocated vreg). */
static long slot_key(const Chk *k, size_t s)
{
	if (s >= k->vdw)
		return (long)k->fkey[s - k->vdw];
	uint32_t v = k->vown[s];
	if (k->phys[v] == RA_NONE)
		return -1;
	return (long)rc_file(k->pre->vregs.data[v]) * RA_MAX_PHYS + (long)(k->phys[v] + (s - k->vbase[v]));
}

/* The value a slot belongs to: its vreg, or nv + key for a fixed dword. */
static size_t slot_value(const Chk *k, size_t s) { return s < k->vdw ? k->vown[s] : k->nv + k->fkey[s - k->vdw]; }

static void slot_name(const Chk *k, size_t s, char *out, size_t len)
{
	if (s < k->vdw)
		snprintf(out, len, "%%%u.%u", k->vown[s], (unsigned)(s - k->vbase[k->vown[s]]));
	else
		snprintf(out, len, "fixed %c%zu", file_ch[k->fkey[s - k->vdw] / RA_MAX_PHYS], k->fkey[s - k->vdw] % RA_MAX_PHYS);
}

static bool same_opnd(MOpnd a, MOpnd b)
{
	return a.kind == b.kind && a.rc == b.rc && a.reg == b.reg && a.imm == b.imm && a.sub == b.sub;
}

static bool check_shape(Chk *k)
{
	const MFunc *pre = k->pre, *post = k->post;
	if (pre->blocks.len != post->blocks.len) {
		report(k, 0, 0, "%zu blocks before allocation, %zu after", pre->blocks.len, post->blocks.len);
		return false;
	}
	int before = k->n;
	for (size_t bi = 0; bi < pre->blocks.len; bi++) {
		const MBlock *a = pre->blocks.data[bi], *b = post->blocks.data[bi];
		if (a->insts.len != b->insts.len) {
			report(k, bi, 0, "%zu instructions before allocation, %zu after", a->insts.len, b->insts.len);
			continue;
		}
		for (size_t i = 0; i < a->insts.len; i++) {
			const MInst *x = &a->insts.data[i], *y = &b->insts.data[i];
			if (x->op != y->op || x->ndef != y->ndef || x->nuse != y->nuse) {
				report(k, bi, i, "instruction changed by allocation");
				continue;
			}
			for (int j = 0; j < x->ndef + x->nuse; j++) {
				MOpnd o = j < x->ndef ? x->def[j] : x->use[j - x->ndef];
				MOpnd p = j < x->ndef ? y->def[j] : y->use[j - x->ndef];
				MOpnd want = o;
				if (o.kind == MO_VREG) {
					if (o.reg >= k->nv || k->phys[o.reg] == RA_NONE) {
						report(k, bi, i, "%%%u has no register", o.reg);
						continue;
					}
					if (o.sub + rc_size(o.rc) > rc_size(pre->vregs.data[o.reg]) ||
						rc_file(o.rc) != rc_file(pre->vregs.data[o.reg]))
						report(k, bi, i, "operand %d is outside %%%u's class", j, o.reg);
					want = mo_preg(k->phys[o.reg] + o.sub, o.rc);
				}
				if (!same_opnd(want, p))
					report(k, bi, i, "operand %d is not the allocated register of %%%u", j, o.reg);
			}
		}
	}
	return k->n == before;
}

static void check_placement(Chk *k)
{
	const Target *t = k->pre->target;
	for (size_t v = 0; v < k->nv; v++) {
		if (k->phys[v] == RA_NONE)
			continue;
		RegClass rc = k->pre->vregs.data[v];
		RegFile f = rc_file(rc);
		long end = (long)k->phys[v] + rc_size(rc);
		if (end > limit(t, f))
			report(k, 0, 0, "%%%zu at %c%u runs past the file (%d registers)", v, file_ch[f], k->phys[v],
				limit(t, f));
		if (end > k->post->nregs[f])
			report(k, 0, 0, "%%%zu at %c%u is not counted in nregs (%d)", v, file_ch[f], k->phys[v],
				k->post->nregs[f]);
		if (k->phys[v] % (uint32_t)rc_align(rc, t))
			report(k, 0, 0, "%%%zu at %c%u is misaligned (needs a multiple of %d)", v, file_ch[f], k->phys[v],
				rc_align(rc, t));
	}
}

/* The first non-empty block at or after b, or -1 past the end. */
static long entry_block(const MFunc *f, size_t b)
{
	while (b < f->blocks.len && f->blocks.data[b]->insts.len == 0)
		b++;
	return b < f->blocks.len ? (long)b : -1;
}

/* out = the union of the live-in sets of the successors of block bi's last
 * instruction: the first instruction of each successor block (empty blocks
 * fall through). */
static void block_live_out(const Chk *k, size_t bi, uint64_t *out)
{
	size_t w = k->words;
	memset(out, 0, w * sizeof *out);
	int sb[2];
	int m = mfunc_succs(k->pre, bi, sb);
	for (int j = 0; j < m; j++) {
		long e = entry_block(k->pre, (size_t)sb[j]);
		if (e >= 0)
			for (size_t x = 0; x < w; x++)
				out[x] |= k->bin[(size_t)e * w + x];
	}
}

/* live = the set live before mi, from the set live after it. */
static void transfer(const Chk *k, const MInst *mi, uint64_t *live)
{
	size_t s;
	for (int d = 0; d < mi->ndef; d++) {
		int n = slots(k, mi->def[d], &s);
		for (int j = 0; j < n; j++)
			if (!(d == 0 && (mi->flags & MIF_TIED)))
				bs_clr(live, s + (size_t)j);
			else
				bs_set(live, s + (size_t)j);
	}
	for (int u = 0; u < mi->nuse; u++) {
		int n = slots(k, mi->use[u], &s);
		for (int j = 0; j < n; j++)
			bs_set(live, s + (size_t)j);
	}
}

static void mfma_clobber(Chk *k, size_t bi, size_t ii, const MInst *in)
{
	if (!(emu_inst_info[in->op].flags & EIF_MFMA) || in->ndef < 1)
		return;
	MOpnd d = in->def[0];
	for (int u = 0; u < in->nuse; u++) {
		MOpnd s = in->use[u];
		if (d.kind != MO_PREG || s.kind != MO_PREG || rc_file(d.rc) != rc_file(s.rc))
			continue;
		uint32_t d0 = d.reg, d1 = d.reg + (uint32_t)rc_size(d.rc), s0 = s.reg, s1 = s.reg + (uint32_t)rc_size(s.rc);
		bool overlap = d0 < s1 && s0 < d1, same = d0 == s0 && d1 == s1;
		if (overlap && !(u == 2 && same))
			report(k, bi, ii, "MFMA result %c%u..%u overlaps source %d (%c%u..%u)", file_ch[rc_file(d.rc)], d0,
				d1 - 1, u, file_ch[rc_file(s.rc)], s0, s1 - 1);
	}
}

/* Stamp every physical dword a slot of `set` occupies with `st`. With
 * `pairs`, two values in one dword are reported (used for the entry only:
 * anywhere else the def check meets them first). */
static void occupy(Chk *k, const uint64_t *set, size_t st, size_t *stamp, size_t *occ, bool pairs)
{
	char a[48], b[48];
	for (size_t wi = 0; wi < k->words; wi++)
		for (uint64_t x = set[wi]; x; x &= x - 1) {
			size_t s = wi * 64 + (size_t)__builtin_ctzll(x);
			long key = slot_key(k, s);
			if (key < 0)
				continue;
			if (pairs && stamp[key] == st && slot_value(k, occ[key]) != slot_value(k, s)) {
				slot_name(k, occ[key], a, sizeof a);
				slot_name(k, s, b, sizeof b);
				report(k, 0, 0, "%s and %s are both live on entry in %c%ld", a, b, file_ch[key / RA_MAX_PHYS],
					key % RA_MAX_PHYS);
			}
			stamp[key] = st;
			occ[key] = s;
		}
}

int regalloc_check(const MFunc *pre, const uint32_t *phys, const MFunc *post, Buf *msg)
{
	Chk k = {.pre = pre, .post = post, .phys = phys, .msg = msg, .nv = pre->vregs.len};
	k.vbase = xmalloc((k.nv + 1) * sizeof *k.vbase);
	for (size_t v = 0; v < k.nv; v++) {
		k.vbase[v] = (uint32_t)k.vdw;
		k.vdw += (size_t)rc_size(pre->vregs.data[v]);
	}
	k.vown = xmalloc((k.vdw + 1) * sizeof *k.vown);
	for (size_t v = 0; v < k.nv; v++)
		for (int d = 0; d < rc_size(pre->vregs.data[v]); d++)
			k.vown[k.vbase[v] + (uint32_t)d] = (uint32_t)v;
	k.fslot = xmalloc(RF_COUNT * RA_MAX_PHYS * sizeof *k.fslot);
	k.fkey = xmalloc((RF_COUNT * RA_MAX_PHYS + 1) * sizeof *k.fkey);
	for (int i = 0; i < RF_COUNT * RA_MAX_PHYS; i++)
		k.fslot[i] = -1;
	for (size_t bi = 0; bi < pre->blocks.len; bi++)
		for (size_t i = 0; i < pre->blocks.data[bi]->insts.len; i++) {
			const MInst *x = &pre->blocks.data[bi]->insts.data[i];
			for (int j = 0; j < x->ndef + x->nuse; j++) {
				MOpnd o = j < x->ndef ? x->def[j] : x->use[j - x->ndef];
				if (o.kind == MO_PREG && o.reg + (uint32_t)rc_size(o.rc) <= RA_MAX_PHYS)
					for (int d = 0; d < rc_size(o.rc); d++)
						k.fslot[rc_file(o.rc) * RA_MAX_PHYS + o.reg + (uint32_t)d] = 0;
			}
		}
	size_t nfix = 0;
	for (int i = 0; i < RF_COUNT * RA_MAX_PHYS; i++)
		if (k.fslot[i] == 0) {
			k.fkey[nfix] = (size_t)i;
			k.fslot[i] = (int32_t)nfix++;
		}
	k.nslots = k.vdw + nfix;
	k.words = (k.nslots + 63) / 64;
	if (!check_shape(&k))
		goto out;
	check_placement(&k);
	for (size_t bi = 0; bi < post->blocks.len; bi++)
		for (size_t i = 0; i < post->blocks.data[bi]->insts.len; i++)
			mfma_clobber(&k, bi, i, &post->blocks.data[bi]->insts.data[i]);

	/* Flatten: instruction g, its block, the block's first instruction. */
	size_t nb = pre->blocks.len, ni = 0;
	long *bfirst = xmalloc((nb + 1) * sizeof *bfirst);
	for (size_t bi = 0; bi < nb; bi++) {
		bfirst[bi] = (long)ni;
		ni += pre->blocks.data[bi]->insts.len;
	}
	const MInst **ins = xmalloc((ni + 1) * sizeof *ins);
	size_t *iblock = xmalloc((ni + 1) * sizeof *iblock);
	for (size_t bi = 0; bi < nb; bi++)
		for (size_t i = 0; i < pre->blocks.data[bi]->insts.len; i++) {
			ins[bfirst[bi] + (long)i] = &pre->blocks.data[bi]->insts.data[i];
			iblock[bfirst[bi] + (long)i] = bi;
		}
	size_t w = k.words;
	k.ni = ni, k.ins = ins, k.iblock = iblock, k.bfirst = bfirst;
	uint64_t *bin = k.bin = xcalloc(nb * w + 1, sizeof *bin), *tmp = xcalloc(w + 1, sizeof *tmp),
		 *after = xcalloc(w + 1, sizeof *after);
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t bi = nb; bi-- > 0;) {
			const MBlock *b = pre->blocks.data[bi];
			if (!b->insts.len)
				continue;
			block_live_out(&k, bi, tmp);
			for (size_t i = b->insts.len; i-- > 0;)
				transfer(&k, &b->insts.data[i], tmp);
			uint64_t *in = bin + bi * w;
			if (memcmp(tmp, in, w * sizeof *tmp)) {
				memcpy(in, tmp, w * sizeof *tmp);
				changed = true;
			}
		}
	}

	/* Interference: per instruction, stamp each physical dword with the slot
	 * live in it after the instruction (other than the ones it writes), then
	 * test the dwords the defs write. Each block is walked backward from its
	 * live-out set, so `tmp` is the set live after each instruction in turn. */
	size_t nkeys = RF_COUNT * RA_MAX_PHYS;
	size_t *stamp = xcalloc(nkeys, sizeof *stamp), *occ = xcalloc(nkeys, sizeof *occ);
	char a[48], b[48];
	for (size_t bi = 0; bi < nb; bi++) {
		const MBlock *blk = pre->blocks.data[bi];
		if (!blk->insts.len)
			continue;
		block_live_out(&k, bi, tmp);
		for (size_t i = blk->insts.len; i-- > 0;) {
			size_t g = (size_t)bfirst[bi] + i;
			const MInst *mi = ins[g];
			/* what the defs write is left out: any stamp on their dwords is
			 * then another value's */
			memcpy(after, tmp, w * sizeof *tmp);
			for (int d = 0; d < mi->ndef; d++) {
				size_t s;
				int n = slots(&k, mi->def[d], &s);
				for (int j = 0; j < n; j++)
					bs_clr(after, s + (size_t)j);
			}
			occupy(&k, after, g + 1, stamp, occ, false);
			for (int d = 0; d < mi->ndef; d++) {
				size_t s;
				int n = slots(&k, mi->def[d], &s);
				for (int j = 0; j < n; j++) {
					long key = slot_key(&k, s + (size_t)j);
					if (key < 0 || stamp[key] != g + 1 ||
						slot_value(&k, occ[key]) == slot_value(&k, s + (size_t)j))
						continue;
					slot_name(&k, s + (size_t)j, a, sizeof a);
					slot_name(&k, occ[key], b, sizeof b);
					report(&k, bi, i, "writes %s into %c%ld while %s, which lives there too, is live", a,
						file_ch[key / RA_MAX_PHYS], key % RA_MAX_PHYS, b);
				}
			}
			transfer(&k, mi, tmp);
		}
	}
	long e = entry_block(pre, 0);
	if (e >= 0)
		occupy(&k, bin + (size_t)e * w, ni + 1, stamp, occ, true);
	free(stamp);
	free(occ);
	free(bin);
	free(tmp);
	free(after);
	free(ins);
	free(iblock);
	free(bfirst);
out:
	if (k.n > MAX_REPORTS)
		buf_printf(msg, "regalloc check: %s: %d more problems\n", pre->name, k.n - MAX_REPORTS);
	free(k.vbase);
	free(k.vown);
	free(k.fslot);
	free(k.fkey);
	return k.n;
}

int check_allocation(Compile *c, Buf *msg)
{
	if (!c->ra)
		return 0;
	int n = regalloc_check(c->ra->pre, c->ra->phys, c->mf, msg);
	regassign_free(c->ra);
	free(c->ra);
	c->ra = NULL;
	return n;
}
