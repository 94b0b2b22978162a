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

int coalesce_copies(MFunc *f)
{
	size_t n = f->vregs.len ? f->vregs.len : 1;
	Uses u = {xcalloc(n, sizeof(uint32_t)), xcalloc(n, sizeof(uint32_t)), xcalloc(n, sizeof(uint32_t)),
		xcalloc(n, sizeof(uint32_t))};
	int total = 0;
	for (int r = 0; r < MAX_ROUNDS; r++) {
		int k = round_once(f, &u);
		total += k;
		if (!k)
			break;
	}
	free(u.ndef), free(u.nread), free(u.def_block), free(u.def_idx);
	return total;
}
