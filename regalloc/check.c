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
 *   3. liveness per dword by iterating in = uses | (out & ~defs) backward
 *      over each block's instructions, out = union of the successors' live-in
 *      sets (mfunc_succs; an empty block falls through to the next
 *      non-empty one), until no block's live-in set grows — no gen/kill
 *      summaries, no intervals. Only the live-in set of each block is kept,
 *      as a list of slots: memory is the program plus the values live at
 *      block boundaries, never instructions x slots (a table of that size
 *      ran a 100,000-op kernel out of memory);
 *   4. interference: walking each block backward from its live-out set,
 *      every physical dword keeps the list of live slots that sit in it; at
 *      every def, no dword live after the instruction that belongs to
 *      another value may sit in a physical dword the def writes; and no two
 *      values live on entry share one. (If two values are ever live at
 *      once, walking back to the latest def of either reaches one of these
 *      two cases, so checking defs and the entry is complete.) Values are
 *      vregs and the physical registers named before allocation;
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
	/* per block: the slots live on entry (empty blocks: none, see entry_of) */
	uint32_t **bin;
	size_t *nin;
	uint64_t *live;  /* scratch: a set of slots (words) */
} Chk;

/* key of a physical dword: file * MIR_MAX_PHYS + reg */
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
	if (o.kind == MO_PREG && o.reg + (uint32_t)rc_size(o.rc) <= MIR_MAX_PHYS) {
		*first = k->vdw + (size_t)k->fslot[rc_file(o.rc) * MIR_MAX_PHYS + o.reg];
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
	return (long)rc_file(k->pre->vregs.data[v]) * MIR_MAX_PHYS + (long)(k->phys[v] + (s - k->vbase[v]));
}

/* The value a slot belongs to: its vreg, or nv + key for a fixed dword. */
static size_t slot_value(const Chk *k, size_t s) { return s < k->vdw ? k->vown[s] : k->nv + k->fkey[s - k->vdw]; }

static void slot_name(const Chk *k, size_t s, char *out, size_t len)
{
	if (s < k->vdw)
		snprintf(out, len, "%%%u.%u", k->vown[s], (unsigned)(s - k->vbase[k->vown[s]]));
	else
		snprintf(out, len, "fixed %c%zu", file_ch[k->fkey[s - k->vdw] / MIR_MAX_PHYS], k->fkey[s - k->vdw] % MIR_MAX_PHYS);
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

typedef Vec(uint32_t) SlotVec;

/* The first non-empty block at or after block b (empty blocks fall
 * through), or -1 past the end. */
static long entry_of(const MFunc *f, size_t b)
{
	while (b < f->blocks.len && f->blocks.data[b]->insts.len == 0)
		b++;
	return b < f->blocks.len ? (long)b : -1;
}

/* Add the live-out set of block bi to k->live, listing its slots in *cand
 * (may repeat). */
static void live_out(Chk *k, size_t bi, SlotVec *cand)
{
	int sb[2];
	int m = mfunc_succs(k->pre, bi, sb);
	for (int j = 0; j < m; j++) {
		long e = entry_of(k->pre, (size_t)sb[j]);
		if (e < 0)
			continue;
		for (size_t x = 0; x < k->nin[e]; x++) {
			bs_set(k->live, k->bin[e][x]);
			vec_push(cand, k->bin[e][x]);
		}
	}
}

/* live = live before instruction mi, given live after it. */
static void transfer(Chk *k, const MInst *mi, SlotVec *cand)
{
	size_t s;
	for (int d = 0; d < mi->ndef; d++) {
		int n = slots(k, mi->def[d], &s);
		for (int j = 0; j < n; j++)
			if (!(d == 0 && (mi->flags & MIF_TIED))) {
				bs_clr(k->live, s + (size_t)j);
			} else {
				bs_set(k->live, s + (size_t)j);
				if (cand)
					vec_push(cand, (uint32_t)(s + (size_t)j));
			}
	}
	for (int u = 0; u < mi->nuse; u++) {
		int n = slots(k, mi->use[u], &s);
		for (int j = 0; j < n; j++) {
			bs_set(k->live, s + (size_t)j);
			if (cand)
				vec_push(cand, (uint32_t)(s + (size_t)j));
		}
	}
}

/* Iterate the blocks' live-in sets to the fixpoint. The sets only grow
 * (each starts empty and in = uses | (out & ~defs) is monotone in out), so a
 * set changes exactly when its size does. */
static void fill_live_in(Chk *k)
{
	const MFunc *pre = k->pre;
	size_t nb = pre->blocks.len;
	SlotVec cand = {0};
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t bi = nb; bi-- > 0;) {
			const MBlock *b = pre->blocks.data[bi];
			if (!b->insts.len)
				continue;
			cand.len = 0;
			live_out(k, bi, &cand);
			for (size_t i = b->insts.len; i-- > 0;)
				transfer(k, &b->insts.data[i], &cand);
			/* the live slots among the candidates, each once; clearing
			 * them empties the scratch set for the next block */
			size_t n = 0;
			for (size_t x = 0; x < cand.len; x++)
				if (bs_get(k->live, cand.data[x])) {
					bs_clr(k->live, cand.data[x]);
					cand.data[n++] = cand.data[x];
				}
			if (n != k->nin[bi]) {
				free(k->bin[bi]);
				k->bin[bi] = xmalloc((n + 1) * sizeof *k->bin[bi]);
				for (size_t x = 0; x < n; x++)
					k->bin[bi][x] = cand.data[x];
				k->nin[bi] = n;
				changed = true;
			}
		}
	}
	vec_free(&cand);
}

static void mfma_clobber(Chk *k, size_t bi, size_t ii, const MInst *in)
{
	if (!(isa_info[in->op].flags & IF_MFMA) || in->ndef < 1)
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

/* The live slots sitting in each physical dword: a doubly linked list per
 * key through the slots (memory: slots + keys). */
typedef struct Occ {
	long *head;          /* per key: a slot, or -1 */
	long *next, *prev;   /* per slot */
} Occ;

static void occ_add(const Chk *k, Occ *o, size_t s)
{
	long key = slot_key(k, s);
	if (key < 0)
		return;
	o->prev[s] = -1;
	o->next[s] = o->head[key];
	if (o->head[key] >= 0)
		o->prev[o->head[key]] = (long)s;
	o->head[key] = (long)s;
}

static void occ_del(const Chk *k, Occ *o, size_t s)
{
	long key = slot_key(k, s);
	if (key < 0)
		return;
	if (o->prev[s] >= 0)
		o->next[o->prev[s]] = o->next[s];
	else
		o->head[key] = o->next[s];
	if (o->next[s] >= 0)
		o->prev[o->next[s]] = o->prev[s];
}

typedef struct Clash {
	size_t ii, s, other; /* instruction in its block, the slot written, the live one */
	long key;
} Clash;
typedef Vec(Clash) ClashVec;

/* Interference in block bi: walk it backward from its live-out set,
 * keeping k->live and the per-dword lists, and report (in instruction
 * order) every def into a dword another live value sits in. Leaves k->live
 * empty. */
static void check_block(Chk *k, size_t bi, Occ *o, SlotVec *cand, ClashVec *clash)
{
	const MBlock *b = k->pre->blocks.data[bi];
	cand->len = 0;
	live_out(k, bi, cand);
	for (size_t x = 0; x < cand->len; x++)
		if (o->prev[cand->data[x]] == -2) /* not listed yet (two successors may share it) */
			occ_add(k, o, cand->data[x]);
	clash->len = 0;
	for (size_t i = b->insts.len; i-- > 0;) {
		const MInst *mi = &b->insts.data[i];
		size_t s;
		/* what the defs write is left out: anything still listed in their
		 * dwords is then another value's */
		for (int d = 0; d < mi->ndef; d++) {
			int n = slots(k, mi->def[d], &s);
			for (int j = 0; j < n; j++)
				if (bs_get(k->live, s + (size_t)j)) {
					bs_clr(k->live, s + (size_t)j);
					occ_del(k, o, s + (size_t)j);
					o->prev[s + (size_t)j] = -2;
				}
		}
		for (int d = mi->ndef; d-- > 0;) {
			int n = slots(k, mi->def[d], &s);
			for (int j = n; j-- > 0;) {
				long key = slot_key(k, s + (size_t)j);
				if (key < 0 || o->head[key] < 0 ||
					slot_value(k, (size_t)o->head[key]) == slot_value(k, s + (size_t)j))
					continue;
				vec_push(clash, ((Clash){i, s + (size_t)j, (size_t)o->head[key], key}));
			}
		}
		/* live before: the tied defs and the uses join */
		for (int u = -1; u < mi->nuse; u++) {
			if (u < 0 && !(mi->ndef && (mi->flags & MIF_TIED)))
				continue;
			int n = slots(k, u < 0 ? mi->def[0] : mi->use[u], &s);
			for (int j = 0; j < n; j++)
				if (!bs_get(k->live, s + (size_t)j)) {
					bs_set(k->live, s + (size_t)j);
					occ_add(k, o, s + (size_t)j);
				}
		}
	}
	/* empty the set and the lists for the next block */
	for (size_t x = 0; x < cand->len; x++)
		bs_clr(k->live, cand->data[x]);
	for (size_t i = 0; i < b->insts.len; i++) {
		const MInst *mi = &b->insts.data[i];
		for (int j = 0; j < mi->ndef + mi->nuse; j++) {
			size_t s;
			int n = slots(k, j < mi->ndef ? mi->def[j] : mi->use[j - mi->ndef], &s);
			for (int d = 0; d < n; d++) {
				bs_clr(k->live, s + (size_t)d);
				long key = slot_key(k, s + (size_t)d);
				if (key >= 0)
					o->head[key] = -1;
				o->prev[s + (size_t)d] = -2;
			}
		}
	}
	for (size_t x = 0; x < cand->len; x++) {
		long key = slot_key(k, cand->data[x]);
		if (key >= 0)
			o->head[key] = -1;
		o->prev[cand->data[x]] = -2;
	}
	char a[48], c[48];
	for (size_t x = clash->len; x-- > 0;) {
		const Clash *e = &clash->data[x];
		slot_name(k, e->s, a, sizeof a);
		slot_name(k, e->other, c, sizeof c);
		report(k, bi, e->ii, "writes %s into %c%ld while %s, which lives there too, is live", a,
			file_ch[e->key / MIR_MAX_PHYS], e->key % MIR_MAX_PHYS, c);
	}
}

/* No two values live on entry share a physical dword. */
static void check_entry(Chk *k)
{
	long e = entry_of(k->pre, 0);
	if (e < 0)
		return;
	size_t n = k->nin[e];
	uint32_t *in = xmalloc((n + 1) * sizeof *in);
	/* slot order, as the dwords are numbered */
	for (size_t i = 0; i < n; i++)
		bs_set(k->live, k->bin[e][i]);
	size_t m = 0;
	for (size_t wi = 0; wi < k->words && m < n; wi++)
		for (uint64_t x = k->live[wi]; x; x &= x - 1)
			in[m++] = (uint32_t)(wi * 64 + (size_t)__builtin_ctzll(x));
	size_t nkeys = RF_COUNT * MIR_MAX_PHYS;
	long *occ = xmalloc(nkeys * sizeof *occ);
	for (size_t i = 0; i < nkeys; i++)
		occ[i] = -1;
	char a[48], b[48];
	for (size_t i = 0; i < n; i++) {
		bs_clr(k->live, in[i]);
		long key = slot_key(k, in[i]);
		if (key < 0)
			continue;
		if (occ[key] >= 0 && slot_value(k, (size_t)occ[key]) != slot_value(k, in[i])) {
			slot_name(k, (size_t)occ[key], a, sizeof a);
			slot_name(k, in[i], b, sizeof b);
			report(k, 0, 0, "%s and %s are both live on entry in %c%ld", a, b, file_ch[key / MIR_MAX_PHYS],
				key % MIR_MAX_PHYS);
		}
		occ[key] = in[i];
	}
	free(occ);
	free(in);
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
	k.fslot = xmalloc(RF_COUNT * MIR_MAX_PHYS * sizeof *k.fslot);
	k.fkey = xmalloc((RF_COUNT * MIR_MAX_PHYS + 1) * sizeof *k.fkey);
	for (int i = 0; i < RF_COUNT * MIR_MAX_PHYS; i++)
		k.fslot[i] = -1;
	for (size_t bi = 0; bi < pre->blocks.len; bi++)
		for (size_t i = 0; i < pre->blocks.data[bi]->insts.len; i++) {
			const MInst *x = &pre->blocks.data[bi]->insts.data[i];
			for (int j = 0; j < x->ndef + x->nuse; j++) {
				MOpnd o = j < x->ndef ? x->def[j] : x->use[j - x->ndef];
				if (o.kind == MO_PREG && o.reg + (uint32_t)rc_size(o.rc) <= MIR_MAX_PHYS)
					for (int d = 0; d < rc_size(o.rc); d++)
						k.fslot[rc_file(o.rc) * MIR_MAX_PHYS + o.reg + (uint32_t)d] = 0;
			}
		}
	size_t nfix = 0;
	for (int i = 0; i < RF_COUNT * MIR_MAX_PHYS; i++)
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

	size_t nb = pre->blocks.len;
	k.bin = xcalloc(nb + 1, sizeof *k.bin);
	k.nin = xcalloc(nb + 1, sizeof *k.nin);
	k.live = xcalloc(k.words + 1, sizeof *k.live);
	fill_live_in(&k);

	Occ o = {xmalloc(RF_COUNT * MIR_MAX_PHYS * sizeof(long)), xmalloc((k.nslots + 1) * sizeof(long)),
		xmalloc((k.nslots + 1) * sizeof(long))};
	for (size_t i = 0; i < RF_COUNT * MIR_MAX_PHYS; i++)
		o.head[i] = -1;
	for (size_t i = 0; i < k.nslots; i++)
		o.prev[i] = -2; /* -2: not listed */
	SlotVec cand = {0};
	ClashVec clash = {0};
	for (size_t bi = 0; bi < nb; bi++)
		if (pre->blocks.data[bi]->insts.len)
			check_block(&k, bi, &o, &cand, &clash);
	check_entry(&k);
	vec_free(&cand);
	vec_free(&clash);
	free(o.head);
	free(o.next);
	free(o.prev);
	for (size_t bi = 0; bi < nb; bi++)
		free(k.bin[bi]);
	free(k.bin);
	free(k.nin);
	free(k.live);
out:
	if (k.n > MAX_REPORTS)
		buf_printf(msg, "regalloc check: %s: %d more problems\n", pre->name, k.n - MAX_REPORTS);
	free(k.vbase);
	free(k.vown);
	free(k.fslot);
	free(k.fkey);
	return k.n;
}
