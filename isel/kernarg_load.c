/* kernarg_load.c — loads from the kernarg segment (buffer pointers, runtime
 * sizes, scalar arguments), all issued together at the top of the entry
 * block.
 *
 * Why: the selectors make these loads on first use (memory.c's descriptors,
 * expr.c's runtime sizes, scalar_arg.c), so appended to the entry block
 * they would sit between other code, and where a barrier or an LDS store
 * lies between two of them the scheduler may not move one past it (scalar
 * memory counts as global memory there). Each then costs its own
 * s_waitcnt lgkmcnt(0) and a full scalar-memory latency. Issued back to back
 * right after the entry copies, they are in flight together and the first
 * use waits once for all of them.
 *
 * Contract: isel_kernarg_load(s, op, d, offset) puts `op d, kernarg, offset`
 * in block 0 after the entry copies and the kernarg loads made before it.
 * That position dominates every use (block 0 dominates the function) and is
 * after the kernarg pointer's copy; d must be a fresh vreg (defined nowhere
 * else), so moving its definition earlier changes no value. Code keeping
 * indices into block 0 across the call sees them shift by one, past older
 * instructions only (isel.c's notes and prefetch.c's renames tolerate that:
 * they scan from a mark to the block's end). */
#include "isel.h"

void isel_kernarg_load(Isel *s, MOp op, MOpnd d, int64_t offset)
{
	MBlock *b0 = s->f->blocks.data[0];
	MOpnd u[2] = {mo_vreg(s->kernarg, RC_S2), mo_imm(offset)};
	MInst in = *mblock_add(b0, op, 1, &d, 2, u);
	b0->insts.len--;
	in.note = "kernel arguments";
	mblock_insert(b0, s->kernarg_end++, in);
}
