/* licm.c — loop-invariant VALU address arithmetic hoisted out of
 * single-block loops, on virtual registers (before allocation).
 *
 * Instruction selection already lowers index expressions that do not
 * mention the induction variable before the loop (isel/expr.c); what is
 * left is arithmetic made per access, such as memory.c's `v_add_u32 v,
 * imm, voff` for an offset past the MUBUF field, whose operands are all
 * defined before the loop. Such an instruction computes the same value in
 * every trip.
 *
 * Algorithm: for each block L that ends in a backward conditional branch to
 * itself (a loop of one block) and whose only other predecessor is the
 * block before it, falling through (its preheader P): repeatedly, move to
 * the end of P (before a branch ending it) each instruction of L that
 *   - is one of a few pure VALU rows (no carry out, no vcc, no exec, no
 *     DPP, no tied def: v_add_u32, v_lshlrev_b32, v_lshrrev_b32,
 *     v_and_b32, v_or_b32, v_mul_lo_u32, v_bfe_u32, v_mov_b32),
 *   - defines one whole virtual register that nothing else in the function
 *     defines, and
 *   - reads only immediates and virtual registers no instruction of L
 *     defines;
 * until none moves. P runs once before the loop with the loop's exec (isel
 * never puts a loop under an exec mask), and VALU writes no SCC, so the
 * branch ending P is unaffected. Contract: virtual registers in, the same
 * values in every register every instruction reads. */
#include <stdint.h>
#include <stdlib.h>

#include "machine.h"

static bool pure_valu(const MInst *in)
{
	switch (in->op) {
	case I_V_ADD_U32:
	case I_V_LSHLREV_B32:
	case I_V_LSHRREV_B32:
	case I_V_AND_B32:
	case I_V_OR_B32:
	case I_V_MUL_LO_U32:
	case I_V_BFE_U32:
	case I_V_MOV_B32:
		return in->ndef == 1 && !in->dpp && !(in->flags & MIF_TIED);
	default:
		return false;
	}
}

/* in defines one whole vreg defined nowhere else, reading only immediates
 * and vregs no instruction left in the loop defines (in_loop[v]: how many
 * of its definitions the loop still holds). */
static bool hoistable(const MInst *in, const int *ndefs, const int *in_loop)
{
	if (!pure_valu(in) || in->def[0].kind != MO_VREG || in->def[0].sub || ndefs[in->def[0].reg] != 1)
		return false;
	for (int u = 0; u < in->nuse; u++) {
		MOpnd o = in->use[u];
		if (o.kind == MO_IMM)
			continue;
		if (o.kind != MO_VREG || in_loop[o.reg])
			return false;
	}
	return true;
}

static void count_defs(const MInst *in, int *in_loop, int by)
{
	for (int d = 0; d < in->ndef; d++)
		if (in->def[d].kind == MO_VREG)
			in_loop[in->def[d].reg] += by;
}

/* Is block p the only predecessor of block l other than l itself, falling
 * through into it? */
static bool preheader(const MFunc *f, size_t p, size_t l)
{
	for (size_t b = 0; b < f->blocks.len; b++) {
		int succ[2], n = mfunc_succs(f, b, succ);
		for (int k = 0; k < n; k++)
			if ((size_t)succ[k] == l && b != l && b != p)
				return false;
	}
	int succ[2], n = mfunc_succs(f, p, succ);
	for (int k = 0; k < n; k++)
		if ((size_t)succ[k] == l)
			return true;
	return false;
}

/* Passes over the loop, each moving (in order) every instruction
 * hoistable when it is reached, until a pass moves none; the moved ones go
 * to the end of the preheader, before its branch, in the order they moved.
 * A pass keeps the rest in order by compaction, and the loop's definitions
 * are counted per vreg, so a pass costs the loop's length. */
static int hoist_loop(MFunc *f, size_t l, const int *ndefs)
{
	MBlock *loop = f->blocks.data[l], *pre = f->blocks.data[l - 1];
	int *in_loop = xcalloc(f->vregs.len + 1, sizeof *in_loop);
	for (size_t i = 0; i < loop->insts.len; i++)
		count_defs(&loop->insts.data[i], in_loop, 1);
	Vec(MInst) moved = {0};
	for (size_t before = SIZE_MAX; moved.len != before;) {
		before = moved.len;
		size_t k = 0;
		for (size_t i = 0; i < loop->insts.len; i++) {
			MInst in = loop->insts.data[i];
			if (hoistable(&in, ndefs, in_loop)) {
				count_defs(&in, in_loop, -1);
				vec_push(&moved, in);
			} else
				loop->insts.data[k++] = in;
		}
		loop->insts.len = k;
	}
	size_t at = pre->insts.len;
	if (at && mop_is_branch(pre->insts.data[at - 1].op))
		at--;
	for (size_t j = 0; j < moved.len; j++)
		mblock_insert(pre, at + j, moved.data[j]);
	int n = (int)moved.len;
	vec_free(&moved);
	free(in_loop);
	return n;
}

int hoist_invariants(MFunc *f)
{
	int n = 0;
	int *ndefs = mfunc_vreg_defs(f);
	for (size_t l = 1; l < f->blocks.len; l++) {
		const MBlock *bl = f->blocks.data[l];
		if (!bl->insts.len)
			continue;
		const MInst *last = &bl->insts.data[bl->insts.len - 1];
		if (mop_is_branch(last->op) && !mop_is_uncond_branch(last->op) && (size_t)last->target == l &&
			preheader(f, l - 1, l))
			n += hoist_loop(f, l, ndefs);
	}
	free(ndefs);
	return n;
}
