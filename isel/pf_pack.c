/* pf_pack.c — 16-bit tiles of a prefetched loop carried as their loaded
 * halves, packed a trip later where they are written to LDS.
 *
 * memory.c loads a 16-bit tile whose pairs are not adjacent in memory (an
 * operand read across its rows, such as attention's V) one buffer_load_ushort
 * per element into its own register, and packs each pair into a dword with
 * v_perm_b32 right after the loads (not a d16 load into the dword's upper
 * half: with SRAM ECC on that zeroes the lower half). In the prefetch
 * schedule (prefetch.c, lds_stage.c) those loads are the next trip's: packing
 * them at once makes the wave wait for them within the trip that issued
 * them, and the loads' latency is not hidden at all (vanilla attention's V
 * tile: the trip's largest stall in the cycle model).
 *
 * So a pipelined loop's tile loads are lowered with Isel.pf_halves set:
 * memory.c then leaves the pairs unjoined and isel_pf_halves gives the
 * registers to carry to the next trip, the loads' own (the halves, and the
 * dwords that were loaded whole), and how they pack (PfPack). isel_pf_pack
 * joins them, into new registers, where the carried tile is written to LDS:
 * by then the loads had a trip to land. A tile without pairs is carried as
 * it was.
 *
 * Contract: the packed value equals the value memory.c made (the same
 * v_perm_b32 on the same halves); the carried set costs one more VGPR per
 * packed dword for the trip. The layout of the halves (PfPack) depends
 * only on the op's element layout, so every lowering of a tile's loads
 * (prologue and loop) has the same one; a difference is a compiler bug. */
#include "isel.h"

enum { PAIR_SEL = 0x05040100 }; /* memory.c's pair packing */

TVal *isel_pf_halves(Isel *s, const TVal *v, const MOpnd *hi, PfPack *pk)
{
	Arena *ar = &s->c->arena;
	*pk = (PfPack){0};
	pk->nd = v->nd;
	pk->hi = ARENA_NEWN(ar, int, v->nd + 1);
	pk->lo = ARENA_NEWN(ar, int, v->nd + 1);
	pk->shape = v;
	TVal *raw = ARENA_NEW(ar, TVal);
	*raw = *v;
	raw->d = ARENA_NEWN(ar, MOpnd, 2 * v->nd + 1);
	raw->nd = 0;
	for (int k = 0; k < v->nd; k++) {
		if (hi[k].kind == MO_NONE) {
			pk->hi[k] = -1;
			pk->lo[k] = raw->nd;
			raw->d[raw->nd++] = v->d[k];
			continue;
		}
		/* dword k is v_perm_b32(hi, lo, PAIR_SEL), lo in v->d[k] */
		pk->hi[k] = raw->nd;
		raw->d[raw->nd++] = hi[k];
		pk->lo[k] = raw->nd;
		raw->d[raw->nd++] = v->d[k];
		pk->sel = PAIR_SEL;
		pk->n++;
	}
	if (!pk->n)
		return (TVal *)v;
	raw->splat = false;
	return raw;
}

bool isel_pf_pack_same(const PfPack *a, const PfPack *b)
{
	if (a->nd != b->nd || a->n != b->n)
		return false;
	for (int k = 0; k < a->nd; k++)
		if (a->hi[k] != b->hi[k] || a->lo[k] != b->lo[k])
			return false;
	return true;
}

TVal *isel_pf_pack(Isel *s, const TVal *shape, const TVal *raw, const PfPack *pk)
{
	if (!pk->n)
		return (TVal *)raw;
	Arena *ar = &s->c->arena;
	TVal *w = ARENA_NEW(ar, TVal);
	*w = *shape;
	w->splat = false;
	w->d = ARENA_NEWN(ar, MOpnd, shape->nd ? shape->nd : 1);
	MOpnd sel = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), k = mo_imm(pk->sel);
	mblock_add(s->b, I_S_MOV_B32, 1, &sel, 1, &k); /* VOP3 takes no literal on gfx9 */
	for (int i = 0; i < pk->nd; i++) {
		if (pk->hi[i] < 0) {
			w->d[i] = raw->d[pk->lo[i]];
			continue;
		}
		MOpnd u[3] = {raw->d[pk->hi[i]], raw->d[pk->lo[i]], sel};
		w->d[i] = isel_v1(s);
		mblock_add(s->b, I_V_PERM_B32, 1, &w->d[i], 3, u);
	}
	return w;
}
