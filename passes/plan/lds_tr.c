/* lds_tr.c — gfx950's LDS transfers of a staged tile: its transposing reads
 * and its direct-to-LDS loads.
 *
 * Transposing reads: when a read's
 * elements, n to a 64-bit read (n = 4 16-bit or 8 8-bit ones), run along a
 * tile dim that is strided in LDS (an MMA operand whose K runs across the
 * tile's rows: attention's V, a transposed B), each 16-lane row of the wave
 * can fetch them with ds_read_b64_tr_b16 / _b8 instead of one ds_read_u16 /
 * u8 per element.
 *
 * The instruction (CDNA4 ISA guide, "MFMA transpose loads"; the emulator's
 * model in loader/emu/vmem.c): lane i of a 16-lane row gets as its element
 * j element i % n of what lane R*j + i/n read (R = 16/n), each lane reading
 * 8 bytes at its own address. So it gives lane i the n elements it needs
 * (element j at E(i, j), in LDS elements) when
 *   (1) within every group of n lanes starting at a multiple of n, the
 *       lanes' elements are consecutive in LDS: E(L, j) = E(L - L%n, j) + L%n,
 *       and the group's first is 8-byte aligned: E(L - L%n, j) % n == 0;
 *   (2) a lane's n elements are a constant pitch P apart, the same for every
 *       copy and block, P * bytes a multiple of 8: E(L, j + k) = E(L, j) + kP;
 *   (3) every copy's and block's elements are a constant distance from
 *       element (0, 0) (the DS offset).
 * Then source lane s of a row reads at E(16*(s/16) + n*(s%R), 0) + D + P *
 * ((s%16)/R) for the block at distance D: one address register for the read
 * (isel/lds_stage.c lowers it: the tile address with $T0 replaced by that
 * lane), each block a DS offset. The lanes of a wave are 64 consecutive
 * work-items, so (1) is checked over every work-item of the workgroup (the
 * element offsets evaluated at each, from its $T0, $T1, $T2), which must
 * be whole waves whose x extent keeps 16-lane rows inside one $T0 run; a
 * tile offset with any other symbol (a loop variable, a runtime size) is
 * not taken.
 *
 * Direct-to-LDS loads (buffer_load_dwordx4 ... lds): lane l of a wave
 * writes its 16 bytes at M0 + 16 l, so the cooperative load's chunks go
 * straight to LDS when they are 16 bytes and, in the tile's unpadded
 * unswizzled layout (layout 1's strides), lane l's chunk of every copy lies
 * 16 l bytes past lane 0's of its wave (checked over every work-item) and
 * each copy a constant distance past copy 0 (M0 of copy c: the wave's
 * first lane's address, the same expression with $T0 at its wave's first
 * work-item, plus that distance). Waves along x only (x extent a multiple
 * of 64), so the wave's first work-item is $T0 - $T0 % 64. */
#include <string.h>

#include "plan.h"

enum { TR_THREADS_MAX = 1024 };

/* E (a tile element offset of $T0..$T2 only) at linear work-item L. */
static bool at_thread(Analysis *c, Sym *e, int64_t L, int64_t *out)
{
	SymCtx *sc = c->k->sc;
	Sym *t[3] = {sym_symbol(sc, "$T0"), sym_symbol(sc, "$T1"), sym_symbol(sc, "$T2")};
	int64_t x = c->wg_size[0], y = c->wg_size[1];
	int64_t v[3] = {L % x, L / x % y, L / (x * y)};
	SymRat r;
	const char *why;
	if (sym_eval(sc, e, 3, t, v, &r, &why) != 0 || r.q != 1)
		return false;
	*out = r.p;
	return true;
}

bool plan_tile_tr(Analysis *c, const PlanTile *t, int layout, const NodeIndex *ix, PlanTr *tr)
{
	SymCtx *sc = c->k->sc;
	memset(tr, 0, sizeof *tr);
	if (!c->t || strcmp(c->t->name, "gfx950") != 0 || (t->es != 1 && t->es != 2) || !ix)
		return false;
	int n = 8 / t->es;
	int64_t threads = (int64_t)c->wg_size[0] * c->wg_size[1] * c->wg_size[2];
	if (threads % 64 || threads > TR_THREADS_MAX || c->wg_size[0] % 16 || ix->epc % n)
		return false;
	Sym *e00 = plan_tile_elem(c, t, layout, ix, 0, 0);
	int64_t pitch = 0;
	for (int64_t cn = 0; cn < ix->ncopies; cn++)
		for (int64_t j = 0; j < ix->epc; j++) {
			int64_t d;
			Sym *x = sym_simplify(sc, sym_sub(sc, plan_tile_elem(c, t, layout, ix, cn, j), e00), c->assume);
			if (!sym_is_int(x, &d))
				return false; /* (3) */
			if (j % n == 0) {
				if (d % n)
					return false; /* a block's first element off the 8-byte grid */
				continue;
			}
			int64_t d0;
			Sym *y = sym_simplify(sc, sym_sub(sc, plan_tile_elem(c, t, layout, ix, cn, j - j % n), e00), c->assume);
			if (!sym_is_int(y, &d0))
				return false;
			if (j % n == 1 && !pitch)
				pitch = d - d0;
			if (!pitch || d - d0 != (j % n) * pitch)
				return false; /* (2) */
		}
	if (pitch * t->es % 8 || pitch < 0)
		return false;
	/* (1) over every work-item */
	for (int64_t L = 0; L < threads; L++) {
		int64_t e, e0;
		if (!at_thread(c, e00, L, &e) || !at_thread(c, e00, L - L % n, &e0))
			return false;
		if (e != e0 + L % n || e0 % n)
			return false;
	}
	tr->n = n;
	tr->pitch = pitch;
	return true;
}

bool plan_tile_dma(Analysis *c, const PlanTile *t)
{
	SymCtx *sc = c->k->sc;
	const NodeIndex *gx = &t->gx;
	int64_t threads = (int64_t)c->wg_size[0] * c->wg_size[1] * c->wg_size[2];
	if (!c->t || strcmp(c->t->name, "gfx950") != 0 || t->tb || t->vec * t->es != 16 || threads % 64 ||
		threads > TR_THREADS_MAX || c->wg_size[0] % 64 || gx->epc != t->vec)
		return false;
	Sym *e00 = plan_tile_elem(c, t, 1, gx, 0, 0);
	for (int64_t cn = 1; cn < gx->ncopies; cn++) { /* each copy a constant distance on */
		int64_t d;
		if (!sym_is_int(sym_simplify(sc, sym_sub(sc, plan_tile_elem(c, t, 1, gx, cn, 0), e00), c->assume), &d))
			return false;
	}
	for (int64_t L = 0; L < threads; L++) { /* lane l's chunk l chunks past lane 0's */
		int64_t e, e0;
		if (!at_thread(c, e00, L, &e) || !at_thread(c, e00, L - L % 64, &e0) || e != e0 + t->vec * (L % 64))
			return false;
	}
	return true;
}
