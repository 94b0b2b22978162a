/* coalesce.c — before allocation: copies folded into their source's
 * definition, and unread definitions removed (coalesce_copies).
 *
 * Instruction selection builds values in temporaries and copies them into
 * the register a consumer needs (a tuple a store or MFMA reads, a
 * loop-carried value, a select's result), and leaves definitions nobody
 * reads (a zero accumulator the MFMA replaces with srcC = 0). The linear
 * scan (linear.c) does not coalesce, so each copy costs a v_mov_b32 and a
 * register. Two rewrites, repeated until neither applies (a chain of copies
 * folds one link per round):
 *
 *   fold   `v_mov_b32 D, S` where S is a one-dword VGPR vreg with exactly
 *          one definition I and exactly one read (this copy), I is earlier
 *          in the same block, I is not a partial (tied) write, I names no
 *          dword of D's vreg, and between I and the copy no instruction
 *          touches D's dword or may write EXEC: then I writes D directly and
 *          the copy goes. Every read of D sees the same value in the same
 *          lanes as before (D is not read or written in between, and the
 *          lanes written are the same EXEC), and S had no other reader.
 *   dead   a VALU instruction (VALU, transcendental, MFMA) whose definitions
 *          are all vregs no instruction reads, with no implicit VCC or EXEC
 *          write, is removed: it has no other effect.
 *   rename (when neither applies) a VGPR tuple T copied dword by dword
 *          into a tuple C of its class, T named in that block only, becomes
 *          C throughout and the copies go: an MFMA result copied into a
 *          loop-carried accumulator. Per dword x (renamable() checks it):
 *          T.x written before read and not named after its copy, C.x not
 *          written before the copy and read only before T.x is first
 *          written (the value it replaces) or after the copy (the same
 *          value), no EXEC write in between, and no MFMA made to overlap
 *          its own sources.
 *
 * Contract: takes mir_verify-clean MIR with vregs (before allocation) and
 * leaves it mir_verify-clean, computing the same values in every register
 * that is read. Vreg numbers are kept (an unused vreg gets no register). */
#include <string.h>

#include "regalloc.h"

enum { MAX_ROUNDS = 16 };

/* Per vreg: definitions, reads, and where the last definition is. */
typedef struct Uses {
	uint32_t *ndef, *nread;
	uint32_t *def_block, *def_idx;
} Uses;

static bool is_valu(MOp op)
{
	MClass c = isa_class(op);
	return c == MC_VALU || c == MC_TRANS || c == MC_MFMA;
}

static void count_uses(const MFunc *f, Uses *u)
{
	size_t n = f->vregs.len;
	memset(u->ndef, 0, n * sizeof *u->ndef);
	memset(u->nread, 0, n * sizeof *u->nread);
	for (size_t b = 0; b < f->blocks.len; b++) {
		const MBlock *bl = f->blocks.data[b];
		for (size_t i = 0; i < bl->insts.len; i++) {
			const MInst *in = &bl->insts.data[i];
			for (int k = 0; k < in->nuse; k++)
				if (in->use[k].kind == MO_VREG)
					u->nread[in->use[k].reg]++;
			for (int k = 0; k < in->ndef; k++) {
				if (in->def[k].kind != MO_VREG)
					continue;
				uint32_t v = in->def[k].reg;
				u->ndef[v]++;
				u->def_block[v] = (uint32_t)b;
				u->def_idx[v] = (uint32_t)i;
				if (in->flags & MIF_TIED)
					u->nread[v]++; /* a partial write reads what it keeps */
			}
		}
	}
}

/* Do a and b (vreg operands) share a dword? */
static bool vdword_overlap(MOpnd a, MOpnd b)
{
	return a.kind == MO_VREG && b.kind == MO_VREG && a.reg == b.reg && a.sub < b.sub + rc_size(b.rc) &&
	       b.sub < a.sub + rc_size(a.rc);
}

static bool names_vreg(const MInst *in, uint32_t v)
{
	for (int k = 0; k < in->nuse; k++)
		if (in->use[k].kind == MO_VREG && in->use[k].reg == v)
			return true;
	for (int k = 0; k < in->ndef; k++)
		if (in->def[k].kind == MO_VREG && in->def[k].reg == v)
			return true;
	return false;
}

static bool touches(const MInst *in, MOpnd d)
{
	for (int k = 0; k < in->nuse; k++)
		if (vdword_overlap(in->use[k], d))
			return true;
	for (int k = 0; k < in->ndef; k++)
		if (vdword_overlap(in->def[k], d))
			return true;
	return false;
}

/* May in change EXEC (v_cmpx, s_*saveexec, anything naming exec)? */
static bool may_write_exec(const MInst *in)
{
	if ((isa_info[in->op].flags & IF_CMPX) || strstr(mop_name(in->op), "exec"))
		return true;
	for (int k = 0; k < in->ndef; k++)
		if (in->def[k].kind == MO_EXEC)
			return true;
	return false;
}

/* The fold rule for the copy at index i of block bl (index b); true if done
 * (the caller then drops the copy). drop[] marks what this round dropped so
 * far: a definition found there is stale (it was a copy folded this round;
 * the next round recounts). */
static bool fold_copy(MFunc *f, const Uses *u, size_t b, MBlock *bl, size_t i, const bool *drop)
{
	MInst *mv = &bl->insts.data[i];
	if (mv->op != I_V_MOV_B32 || mv->dpp || mv->flags || mv->ndef != 1 || mv->nuse != 1)
		return false;
	MOpnd d = mv->def[0], s = mv->use[0];
	if (d.kind != MO_VREG || s.kind != MO_VREG || d.reg == s.reg || rc_file(d.rc) != RF_VGPR ||
		f->vregs.data[s.reg] != RC_V1 || u->ndef[s.reg] != 1 || u->nread[s.reg] != 1 || u->def_block[s.reg] != b ||
		u->def_idx[s.reg] >= i)
		return false;
	if (drop[u->def_idx[s.reg]])
		return false;
	MInst *def = &bl->insts.data[u->def_idx[s.reg]];
	if ((def->flags & MIF_TIED) || names_vreg(def, d.reg))
		return false;
	for (size_t j = u->def_idx[s.reg] + 1; j < i; j++)
		if (touches(&bl->insts.data[j], d) || may_write_exec(&bl->insts.data[j]))
			return false;
	for (int k = 0; k < def->ndef; k++)
		if (def->def[k].kind == MO_VREG && def->def[k].reg == s.reg)
			def->def[k] = d;
	return true;
}

/* The dead rule for in. */
static bool is_dead(const MInst *in, const Uses *u)
{
	if (!is_valu(in->op) || in->ndef == 0 || (isa_info[in->op].flags & (IF_VCCOUT | IF_CMPX | IF_SDST)))
		return false;
	for (int k = 0; k < in->ndef; k++)
		if (in->def[k].kind != MO_VREG || u->nread[in->def[k].reg] != 0)
			return false;
	return true;
}

/* One round over every block; returns the instructions removed. */
static int round_once(MFunc *f, Uses *u)
{
	int removed = 0;
	count_uses(f, u);
	for (size_t b = 0; b < f->blocks.len; b++) {
		MBlock *bl = f->blocks.data[b];
		bool *drop = xcalloc(bl->insts.len + 1, sizeof *drop);
		/* marked first, compacted after: fold_copy indexes the block
		 * by the positions count_uses recorded */
		for (size_t i = 0; i < bl->insts.len; i++) {
			drop[i] = is_dead(&bl->insts.data[i], u) || fold_copy(f, u, b, bl, i, drop);
			removed += drop[i];
		}
		size_t o = 0;
		for (size_t i = 0; i < bl->insts.len; i++)
			if (!drop[i])
				bl->insts.data[o++] = bl->insts.data[i];
		bl->insts.len = o;
		free(drop);
	}
	return removed;
}

/* ---- tuple copies: rename ---- */

/* Per vreg: the block every instruction naming it is in (-1 none, -2
 * several). */
static int32_t *vreg_blocks(const MFunc *f)
{
	int32_t *blk = xcalloc(f->vregs.len + 1, sizeof *blk);
	for (size_t v = 0; v < f->vregs.len; v++)
		blk[v] = -1;
	for (size_t b = 0; b < f->blocks.len; b++) {
		const MBlock *bl = f->blocks.data[b];
		for (size_t i = 0; i < bl->insts.len; i++) {
			const MInst *in = &bl->insts.data[i];
			const MOpnd *o[MI_MAX_DEFS + MI_MAX_USES];
			int n = 0;
			for (int k = 0; k < in->ndef; k++)
				o[n++] = &in->def[k];
			for (int k = 0; k < in->nuse; k++)
				o[n++] = &in->use[k];
			for (int k = 0; k < n; k++)
				if (o[k]->kind == MO_VREG)
					blk[o[k]->reg] = blk[o[k]->reg] == -1 || blk[o[k]->reg] == (int32_t)b ? (int32_t)b : -2;
		}
	}
	return blk;
}

/* Is in `v_mov_b32 C.k, T.k` (both whole-class-equal VGPR tuples)? */
static bool tuple_copy(const MFunc *f, const MInst *in, uint32_t *t, uint32_t *c)
{
	if (in->op != I_V_MOV_B32 || in->dpp || in->flags || in->ndef != 1 || in->nuse != 1)
		return false;
	MOpnd d = in->def[0], s = in->use[0];
	if (d.kind != MO_VREG || s.kind != MO_VREG || d.reg == s.reg || d.sub != s.sub)
		return false;
	RegClass rt = f->vregs.data[s.reg];
	if (rt != f->vregs.data[d.reg] || rc_file(rt) != RF_VGPR || rc_size(rt) < 2)
		return false;
	*t = s.reg;
	*c = d.reg;
	return true;
}

/* Reads (as a use, or a tied def) and writes of dword x of vreg v by in. */
static bool reads_dword(const MInst *in, uint32_t v, int x)
{
	MOpnd o = {.kind = MO_VREG, .rc = RC_V1, .reg = v, .sub = (uint8_t)x};
	for (int k = 0; k < in->nuse; k++)
		if (vdword_overlap(in->use[k], o))
			return true;
	for (int k = 0; k < in->ndef; k++)
		if ((in->flags & MIF_TIED) && vdword_overlap(in->def[k], o))
			return true;
	return false;
}

static bool writes_dword(const MInst *in, uint32_t v, int x)
{
	MOpnd o = {.kind = MO_VREG, .rc = RC_V1, .reg = v, .sub = (uint8_t)x};
	for (int k = 0; k < in->ndef; k++)
		if (vdword_overlap(in->def[k], o))
			return true;
	return false;
}

/* An MFMA naming both t and c other than `dst t, srcC c` (whole): after the
 * rename its result would overlap a source (the early-clobber rule). */
static bool mfma_clash(const MInst *in, uint32_t t, uint32_t c)
{
	if (isa_class(in->op) != MC_MFMA || !names_vreg(in, t) || !names_vreg(in, c))
		return false;
	bool in_place = in->def[0].kind == MO_VREG && in->def[0].reg == t && in->def[0].sub == 0 && in->nuse > 2 &&
			in->use[2].kind == MO_VREG && in->use[2].reg == c && in->use[2].sub == 0 &&
			in->use[0].reg != c && in->use[1].reg != c;
	return !in_place;
}

/* Copies of every dword of tuple t into tuple c at positions cp[] of block
 * bl, t named nowhere else: may t be c throughout? Per dword x, with fd the
 * first write of t.x: t.x is written before it is read, not named after
 * its copy; c.x is not written from t's first mention to its copy and read only
 * up to fd (the value t.x replaces) or after the copy (the same value);
 * EXEC is not written in between; no MFMA would overlap itself. */
static bool renamable(const MBlock *bl, uint32_t t, uint32_t c, int w, const size_t *cp)
{
	size_t first = SIZE_MAX, last = 0;
	for (int x = 0; x < w; x++)
		last = cp[x] > last ? cp[x] : last;
	for (size_t i = 0; i < last && first == SIZE_MAX; i++)
		if (names_vreg(&bl->insts.data[i], t))
			first = i;
	if (first == SIZE_MAX)
		return false;
	for (size_t i = first; i <= last; i++) {
		const MInst *in = &bl->insts.data[i];
		if (may_write_exec(in) || mfma_clash(in, t, c))
			return false;
	}
	for (int x = 0; x < w; x++) {
		size_t fd = SIZE_MAX;
		for (size_t i = first; i < bl->insts.len; i++) {
			const MInst *in = &bl->insts.data[i];
			bool copy = i == cp[x];
			if (!copy && fd == SIZE_MAX && reads_dword(in, t, x))
				return false; /* t.x read before it is written */
			if (fd == SIZE_MAX && writes_dword(in, t, x))
				fd = i;
			if (i > cp[x] && (reads_dword(in, t, x) || writes_dword(in, t, x)))
				return false; /* t.x is c.x now: neither read nor changed */
			if (!copy && i < cp[x] && writes_dword(in, c, x))
				return false;
			if (!copy && reads_dword(in, c, x) && i > fd && i < cp[x])
				return false;
		}
		if (fd == SIZE_MAX || fd > cp[x])
			return false;
	}
	return true;
}

static void rename_vreg(MInst *in, uint32_t from, uint32_t to)
{
	for (int k = 0; k < in->ndef; k++)
		if (in->def[k].kind == MO_VREG && in->def[k].reg == from)
			in->def[k].reg = to;
	for (int k = 0; k < in->nuse; k++)
		if (in->use[k].kind == MO_VREG && in->use[k].reg == from)
			in->use[k].reg = to;
}

/* The tuple rule on block bl (index b): each tuple t copied wholly into c
 * and named nowhere else becomes c, and its copies go. Returns the copies
 * removed. */
static int rename_tuples_in(const MFunc *f, const int32_t *blk, size_t b, MBlock *bl)
{
	int removed = 0;
	bool *drop = xcalloc(bl->insts.len + 1, sizeof *drop);
	for (size_t i = 0; i < bl->insts.len; i++) {
		uint32_t t, c;
		if (drop[i] || !tuple_copy(f, &bl->insts.data[i], &t, &c) || blk[t] != (int32_t)b)
			continue;
		int w = rc_size(f->vregs.data[t]), found = 0;
		size_t cp[32];
		for (int x = 0; x < w; x++)
			cp[x] = SIZE_MAX;
		for (size_t j = i; j < bl->insts.len; j++) {
			uint32_t t2, c2;
			const MInst *in = &bl->insts.data[j];
			if (tuple_copy(f, in, &t2, &c2) && t2 == t && c2 == c && cp[in->def[0].sub] == SIZE_MAX) {
				cp[in->def[0].sub] = j;
				found++;
			}
		}
		if (found != w || !renamable(bl, t, c, w, cp))
			continue;
		for (size_t j = 0; j < bl->insts.len; j++)
			rename_vreg(&bl->insts.data[j], t, c);
		for (int x = 0; x < w; x++)
			drop[cp[x]] = true;
		removed += w;
	}
	size_t o = 0;
	for (size_t i = 0; i < bl->insts.len; i++)
		if (!drop[i])
			bl->insts.data[o++] = bl->insts.data[i];
	bl->insts.len = o;
	free(drop);
	return removed;
}

static int rename_tuples(MFunc *f)
{
	int32_t *blk = vreg_blocks(f);
	int removed = 0;
	for (size_t b = 0; b < f->blocks.len; b++)
		removed += rename_tuples_in(f, blk, b, f->blocks.data[b]);
	free(blk);
	return removed;
}

int coalesce_copies(MFunc *f)
{
	size_t n = f->vregs.len ? f->vregs.len : 1;
	Uses u = {xcalloc(n, sizeof(uint32_t)), xcalloc(n, sizeof(uint32_t)), xcalloc(n, sizeof(uint32_t)),
		xcalloc(n, sizeof(uint32_t))};
	int total = 0;
	for (int r = 0; r < MAX_ROUNDS; r++) {
		int k = round_once(f, &u);
		if (!k)
			k = rename_tuples(f); /* on what the one-dword folds left */
		total += k;
		if (!k)
			break;
	}
	free(u.ndef), free(u.nread), free(u.def_block), free(u.def_idx);
	return total;
}
