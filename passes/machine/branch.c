/* branch.c — relax_branches: a branch whose target lies beyond the reach
 * of its 16-bit offset becomes a long branch (ir/mir.h), as LLVM's
 * BranchRelaxation pass does for AMDGPU with SIInstrInfo's indirect branch.
 *
 * Reach: s_branch and s_cbranch_* jump from the instruction after them by
 * a signed 16-bit count of dwords, so at most 32767 dwords forward and
 * 32768 back (`reach` lowers that bound, for tests that want every branch
 * long, down to the 6 dwords of a long branch, which an inverted one must
 * jump over). A loop body of more than 128 KiB of code (hundreds of
 * transcendental ops in a K loop) is beyond it, and llvm-mc then rejects
 * the branch ("branch size exceeds simm16").
 *
 * Sizes: mir_inst_bytes, never fewer bytes than llvm-mc encodes, so the
 * distance summed from them bounds the real one: a branch found in reach
 * is in reach.
 *
 * Algorithm, in rounds until no branch is out of reach:
 *   1. lay the code out: each block's start, each branch's distance to its
 *      target (in dwords, from the instruction after the branch);
 *   2. every branch out of reach is rewritten (blocks from the last to the
 *      first, so inserted blocks do not move those still to do):
 *        s_branch T            → a long branch to T, in place;
 *        s_cbranch_X T in B    → s_cbranch_notX N, N being the block B
 *                                fell through to, and a new block after B
 *                                with a long branch to T (the inverted
 *                                branch jumps over those 24 bytes only);
 *   3. the code grew, which may push other branches out of reach: again.
 * Each round rewrites at least one branch, a long branch never needs it
 * again and an inverted one jumps 6 dwords, so the rounds end. A function with every branch in reach is
 * left as it is (no round rewrites anything), so kernels that fit keep
 * their code byte for byte.
 *
 * Registers: a long branch writes an SGPR pair and SCC. The pair is one not
 * live into T (the machine IR's liveness over the allocated function,
 * ir/mir_live.c): the lowest even pair below the SGPRs the function
 * already uses, else the next pair above them (MFunc.nregs grows); if the
 * target's SGPRs have no such pair the pass returns -1 with the branch's
 * graph op, and the driver rejects the kernel there. SCC must be dead at T: the
 * compiler sets SCC right before the branch or select that reads it and
 * never carries it into a block; scc_live_at walks the CFG from T to make
 * sure (a violation is a compiler bug: die).
 *
 * Place in the pipeline: last among the machine passes, after
 * insert_waitcnt and resolve_hazards, whose s_waitcnt and s_nop change the
 * sizes. What it inserts is scalar ALU work only: it moves no memory
 * counter and only lengthens the paths the hazard rules count wait states
 * on. The wait and hazard checkers run on its result. */
#include <stdlib.h>
#include <string.h>

#include "../../ir/mir_live.h"
#include "machine.h"

/* ---- SCC ---- */

static bool reads_scc(MOp op)
{
	switch (op) {
	case I_S_CBRANCH_SCC0: case I_S_CBRANCH_SCC1: case I_S_CSELECT_B32: case I_S_CSELECT_B64:
	case I_S_ADDC_U32: case I_S_SUBB_U32: case I_S_CMOV_B32: case I_S_CMOV_B64: case I_S_CMOVK_I32:
		return true;
	default:
		return false;
	}
}

/* Rows that set SCC (and do not read it first): compares, most SOP2
 * arithmetic, a few SOP1 rows. A row missing here only makes the walk
 * below look further. */
static bool writes_scc(MOp op)
{
	const IsaInfo *r = &isa_info[op];
	if (reads_scc(op))
		return false;
	switch ((IsaFormat)r->fmt) {
	case FMT_SOPC:
		return true;
	case FMT_SOP2:
		return op != I_S_BFM_B32 && op != I_S_MUL_I32 && op != I_S_MUL_HI_U32 && op != I_S_MUL_HI_I32 &&
		       strncmp(r->name, "s_pack_", 7) != 0;
	case FMT_SOP1:
		return op == I_S_NOT_B32 || op == I_S_NOT_B64 || op == I_S_ABS_I32 || strstr(r->name, "saveexec");
	default:
		return false;
	}
}

/* May SCC be read, from the start of block t on, before it is written? */
static bool scc_live_at(const MFunc *f, int t)
{
	size_t nb = f->blocks.len;
	bool *seen = xcalloc(nb, sizeof *seen);
	int *work = xmalloc(nb * sizeof *work), n = 0;
	bool live = false;
	work[n++] = t;
	seen[t] = true;
	while (n && !live) {
		int bi = work[--n];
		const MBlock *b = f->blocks.data[bi];
		bool killed = false;
		for (size_t i = 0; i < b->insts.len && !killed && !live; i++) {
			live = reads_scc(b->insts.data[i].op);
			killed = writes_scc(b->insts.data[i].op) || b->insts.data[i].op == I_S_ENDPGM;
		}
		if (killed || live)
			continue;
		int succ[2], ns = mfunc_succs(f, (size_t)bi, succ);
		for (int k = 0; k < ns; k++)
			if (!seen[succ[k]]) {
				seen[succ[k]] = true;
				work[n++] = succ[k];
			}
	}
	free(seen);
	free(work);
	return live;
}

/* ---- layout ---- */

static int block_bytes(const MBlock *b)
{
	int n = 0;
	for (size_t i = 0; i < b->insts.len; i++)
		n += mir_inst_bytes(&b->insts.data[i]);
	return n;
}

/* A short branch (s_branch, s_cbranch_*) ending block bi? */
static const MInst *short_branch(const MFunc *f, size_t bi)
{
	const MBlock *b = f->blocks.data[bi];
	if (!b->insts.len)
		return NULL;
	const MInst *in = &vec_last(&b->insts);
	return mop_is_branch(in->op) && in->op != I_S_SETPC_B64 ? in : NULL;
}

/* The blocks whose short branch is out of reach, in order, into out (nb
 * entries); returns how many. */
static size_t out_of_reach(const MFunc *f, int reach, size_t *out)
{
	size_t nb = f->blocks.len, n = 0;
	int64_t *start = xmalloc((nb + 1) * sizeof *start);
	start[0] = 0;
	for (size_t bi = 0; bi < nb; bi++)
		start[bi + 1] = start[bi] + block_bytes(f->blocks.data[bi]);
	for (size_t bi = 0; bi < nb; bi++) {
		const MInst *br = short_branch(f, bi);
		if (!br)
			continue;
		int64_t dw = (start[br->target] - start[bi + 1]) / 4; /* from the instruction after the branch */
		if (dw > reach || dw < -(int64_t)reach - 1)
			out[n++] = bi;
	}
	free(start);
	return n;
}

/* ---- rewriting ---- */

enum { LONG_BRANCH_DWORDS = 6 }; /* getpc 1, add 2, addc 2, setpc 1 */

static MOp inverted(MOp op)
{
	switch (op) {
	case I_S_CBRANCH_SCC0: return I_S_CBRANCH_SCC1;
	case I_S_CBRANCH_SCC1: return I_S_CBRANCH_SCC0;
	case I_S_CBRANCH_VCCZ: return I_S_CBRANCH_VCCNZ;
	case I_S_CBRANCH_VCCNZ: return I_S_CBRANCH_VCCZ;
	case I_S_CBRANCH_EXECZ: return I_S_CBRANCH_EXECNZ;
	case I_S_CBRANCH_EXECNZ: return I_S_CBRANCH_EXECZ;
	default: die("no inverse for %s", mop_name(op));
	}
}

/* An even SGPR pair not live into block t (lv: the function's liveness),
 * or -1. f->nregs[RF_SGPR] grows when the pair lies above it. */
static int free_pair(MFunc *f, const MirLive *lv, int t)
{
	const uint64_t *in = lv->in + (size_t)t * lv->words;
	for (int r = 0; r + 1 < f->target->sgprs; r += 2) {
		bool busy = false;
		for (int k = 0; k < 2; k++) {
			int32_t sl = lv->pslot[RF_SGPR * MIR_MAX_PHYS + r + k];
			busy |= sl >= 0 && bs_get(in, (size_t)sl);
		}
		if (busy)
			continue;
		if (r + 2 > f->nregs[RF_SGPR])
			f->nregs[RF_SGPR] = r + 2;
		return r;
	}
	return -1;
}

static MInst inst(MOp op, const char *note)
{
	return (MInst){.op = op, .vmcnt = -1, .lgkmcnt = -1, .target = -1, .note = note};
}

/* A long branch to block t on SGPRs s[p:p+1], appended to b. */
static void add_long_branch(MBlock *b, int t, int p, const char *note)
{
	MOpnd pair = mo_preg((uint32_t)p, RC_S2), lo = mo_preg((uint32_t)p, RC_S1), hi = mo_preg((uint32_t)p + 1, RC_S1);
	MInst g = inst(I_S_GETPC_B64, note), a = inst(I_S_ADD_U32, note), c = inst(I_S_ADDC_U32, note),
	      s = inst(I_S_SETPC_B64, note);
	g.ndef = 1, g.def[0] = pair;
	a.ndef = 1, a.nuse = 2, a.def[0] = lo, a.use[0] = lo, a.use[1] = mo_imm(0);
	a.flags = MIF_PCREL_LO, a.target = t;
	c.ndef = 1, c.nuse = 2, c.def[0] = hi, c.use[0] = hi, c.use[1] = mo_imm(0);
	c.flags = MIF_PCREL_HI, c.target = t;
	s.nuse = 1, s.use[0] = pair, s.target = t;
	vec_push(&b->insts, g);
	vec_push(&b->insts, a);
	vec_push(&b->insts, c);
	vec_push(&b->insts, s);
}

/* A new empty block at index at; every branch target from at on moves up. */
static MBlock *insert_block(MFunc *f, size_t at)
{
	MBlock *nb = mfunc_block(f, NULL); /* appended; moved into place below */
	memmove(&f->blocks.data[at + 1], &f->blocks.data[at], (f->blocks.len - 1 - at) * sizeof *f->blocks.data);
	f->blocks.data[at] = nb;
	for (size_t bi = 0; bi < f->blocks.len; bi++) {
		MBlock *b = f->blocks.data[bi];
		for (size_t i = 0; i < b->insts.len; i++) {
			MInst *in = &b->insts.data[i];
			bool names_block = mop_is_branch(in->op) || (in->flags & (MIF_PCREL_LO | MIF_PCREL_HI));
			if (names_block && in->target >= (int32_t)at)
				in->target++;
		}
	}
	return nb;
}

/* The short branch ending block bi made long over s[p:p+1]. */
static void make_long(MFunc *f, size_t bi, int p)
{
	MBlock *b = f->blocks.data[bi];
	MInst br = vec_last(&b->insts);
	if (scc_live_at(f, br.target))
		die("%s: SCC is live into block %d: a long branch there would clobber it", f->name, br.target);
	if (mop_is_uncond_branch(br.op)) {
		b->insts.len--;
		add_long_branch(b, br.target, p, br.note);
		return;
	}
	/* s_cbranch_notX to the block after the new one (what bi fell through
	 * to), and the new one jumps to the old target */
	MBlock *l = insert_block(f, bi + 1);
	int t = br.target >= (int32_t)bi + 1 ? br.target + 1 : br.target;
	MInst *inv = &vec_last(&f->blocks.data[bi]->insts);
	inv->op = inverted(br.op);
	inv->target = (int32_t)bi + 2;
	add_long_branch(l, t, p, br.note);
}

int relax_branches(MFunc *f, int reach, const char **where)
{
	if (reach <= 0 || reach > RELAX_REACH)
		reach = RELAX_REACH;
	if (reach < LONG_BRANCH_DWORDS)
		reach = LONG_BRANCH_DWORDS; /* an inverted branch must reach over a long one */
	int made = 0;
	size_t *far = NULL;
	for (;;) {
		far = xrealloc(far, (f->blocks.len + 1) * sizeof *far);
		size_t n = out_of_reach(f, reach, far);
		if (!n)
			break;
		/* the pairs first, from one liveness of this round's function
		 * (a long branch's pair is live only inside it) */
		MirLive lv;
		mir_live_fill(&lv, f);
		int *pair = xmalloc(n * sizeof *pair);
		bool ok = true;
		for (size_t k = 0; k < n && ok; k++) {
			const MInst *br = &vec_last(&f->blocks.data[far[k]]->insts);
			pair[k] = free_pair(f, &lv, br->target);
			ok = pair[k] >= 0;
			if (!ok && where)
				*where = br->note;
		}
		mir_live_free(&lv);
		for (size_t k = n; ok && k-- > 0;)
			make_long(f, far[k], pair[k]);
		free(pair);
		if (!ok) {
			made = -1;
			break;
		}
		made += (int)n;
	}
	free(far);
	return made;
}
