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
 * So isel_pf_unpack takes the packing out of the freshly lowered loads: the
 * v_perm_b32 rows that define the tile's dwords are removed (with the
 * selector's s_mov when nothing else reads it), and the registers carried
 * to the next trip are the loads' own (the halves, and the dwords that were
 * loaded whole). isel_pf_pack packs them again, into new registers, where
 * the carried tile is written to LDS: by then the loads had a trip to land.
 * A tile without such rows is carried as it was.
 *
 * Contract: the packed value equals the value memory.c made (the same
 * v_perm_b32 on the same halves); the carried set costs one more VGPR per
 * packed dword for the trip. The layout of the halves (PfPack) depends
 * only on the op's element layout, so every lowering of a tile's loads
 * (prologue and loop) has the same one; a difference is a compiler bug. */
#include <string.h>

#include "isel.h"

enum { PAIR_SEL = 0x05040100 }; /* memory.c's pair packing */

/* The row of [first, end) of b that defines vreg r (dword 0 of a V1), or -1. */
static long def_row(const MBlock *b, size_t first, MOpnd r)
{
	for (size_t i = first; i < b->insts.len; i++) {
		const MInst *in = &b->insts.data[i];
		if (in->ndef == 1 && in->def[0].kind == MO_VREG && in->def[0].reg == r.reg && in->def[0].sub == r.sub)
			return (long)i;
	}
	return -1;
}

/* Does a row of [first, end) of b other than the removed ones read vreg r? */
static bool read_since(const MBlock *b, size_t first, uint32_t r)
{
	for (size_t i = first; i < b->insts.len; i++) {
		const MInst *in = &b->insts.data[i];
		for (int u = 0; u < in->nuse; u++)
			if (in->use[u].kind == MO_VREG && in->use[u].reg == r)
				return true;
	}
	return false;
}

/* Is sel an SGPR set in [first, end) of b to the pair packing's selector
 * (bytes {lo.0, lo.1, hi.0, hi.1})? A v_perm_b32 with any other selector
 * (an 8-bit tile's byte inserts, values.c) is not a pair of halves. */
static bool pair_selector(const MBlock *b, size_t first, MOpnd sel)
{
	long i = sel.kind == MO_VREG ? def_row(b, first, sel) : -1;
	if (i < 0)
		return false;
	const MInst *in = &b->insts.data[i];
	return in->op == I_S_MOV_B32 && in->use[0].kind == MO_IMM && (uint32_t)in->use[0].imm == PAIR_SEL;
}

static void remove_row(MBlock *b, size_t i)
{
	memmove(&b->insts.data[i], &b->insts.data[i + 1], (b->insts.len - i - 1) * sizeof *b->insts.data);
	b->insts.len--;
}

TVal *isel_pf_unpack(Isel *s, size_t first, TVal *v, PfPack *pk)
{
	Arena *ar = &s->c->arena;
	MBlock *b = s->b;
	*pk = (PfPack){0};
	pk->nd = v->nd;
	pk->hi = ARENA_NEWN(ar, int, v->nd + 1);
	pk->lo = ARENA_NEWN(ar, int, v->nd + 1);
	TVal *raw = ARENA_NEW(ar, TVal);
	*raw = *v;
	raw->d = ARENA_NEWN(ar, MOpnd, 2 * v->nd + 1);
	raw->nd = 0;
	MOpnd sel = {0};
	for (int k = 0; k < v->nd; k++) {
		long i = v->d[k].kind == MO_VREG && v->d[k].rc == RC_V1 ? def_row(b, first, v->d[k]) : -1;
		const MInst *in = i >= 0 ? &b->insts.data[i] : NULL;
		if (!in || in->op != I_V_PERM_B32 || in->use[0].kind != MO_VREG || in->use[1].kind != MO_VREG ||
			!pair_selector(b, first, in->use[2])) {
			pk->hi[k] = -1;
			pk->lo[k] = raw->nd;
			raw->d[raw->nd++] = v->d[k];
			continue;
		}
		/* v_perm_b32 d, hi, lo, sel (memory.c's pair packing) */
		pk->hi[k] = raw->nd;
		raw->d[raw->nd++] = in->use[0];
		pk->lo[k] = raw->nd;
		raw->d[raw->nd++] = in->use[1];
		sel = in->use[2];
		pk->sel = PAIR_SEL;
		pk->n++;
		remove_row(b, (size_t)i);
	}
	if (!pk->n)
		return v;
	/* the selector, if nothing reads it now */
	long si = def_row(b, first, sel);
	if (si >= 0 && b->insts.data[si].op == I_S_MOV_B32 && !read_since(b, first, sel.reg))
		remove_row(b, (size_t)si);
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
