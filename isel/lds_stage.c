/* lds_stage.c — operands in shared memory, staged through LDS (Wave's
 * `promote` and its barrier placement), as the plan's tiles say.
 *
 * A read of a tensor whose address space is shared means what a read of
 * it in global memory means (the interpreter runs it that way); the
 * compiler stages the workgroup's part of the tensor in LDS and each wave
 * reads its elements from there. The plan (passes/plan/lds_tiles.c) gives
 * each staged read its tile: the box, the cooperative load that fills it
 * (chunks of `vec` elements, an ordinary NodeIndex read gx), and two
 * layouts, rows padded by 8 bytes or unpadded and XOR-swizzled (where the
 * tile allows it), both free of bank conflicts for the MFMA operand reads.
 *
 * Algorithm, per region (the kernel body or a loop body), before its ops:
 *   1. The tiles where the plan placed them (passes/plan/lds_place.c: the
 *      offset, the buffers of a pipelined loop's tile, padded, swizzled or,
 *      loaded straight into LDS on gfx950, unpadded), taken on the LDS
 *      stack (values.c); a tile the plan could not place (over the
 *      target's LDS, 64 KiB, gfx950 160 KiB) is an error named at the read.
 *   2. The cooperative load of each tile: memory.c's buffer loads with
 *      bounds (past the tensor, the load returns 0 and 0 goes to LDS).
 *      Rows of a last, partial round land in the allocation's tail, which
 *      nothing reads.
 *   3. Barriers: all global loads of the region first, then (in a loop of
 *      more than one trip) s_barrier, so no wave overwrites what another
 *      still reads from the previous trip; the LDS writes (swizzled: every
 *      write and read at most 8 bytes at the swizzle of its own
 *      coordinates, swz_access); s_barrier, so every wave's writes are in
 *      before anyone reads. The wait pass puts s_waitcnt lgkmcnt before
 *      each barrier (passes/machine/waitcnt.c).
 *   4. The read R itself (isel_read_shared): LDS address of each element =
 *      base + its offset in the tile's layout; per lane base, constant
 *      distances in the DS offset field; a copy's run of contiguous
 *      elements is one ds_read_b32/b64/b128 as the alignment of the
 *      address allows (in a swizzled tile: per granule, a base per
 *      distinct XOR term).
 * Mapped reads (an implicit-GEMM conv's A and B): a read through a mapping
 * whose result is an MMA operand is staged the same way over its register
 * dims: the cooperative load reads the op through its mapping (memory.c
 * bounds each element, 0 outside), LDS holds the register tile densely,
 * and the MMA's operand reads are those of an unmapped tile. A block-loaded
 * tile (PlanTile.tb: attention's V, its register row across the memory's
 * rows) is loaded over the memory's dims, wide, and each lane's rows are
 * joined per column by v_perm_b32 into the dwords of the LDS row
 * (write_box_tb).
 * What the plan could not stage (a tile's error) is reported here, at the
 * read, in the order of the kernel's ops. */
#include <string.h>

#include "isel.h"
#include "../passes/plan/lds_layout.h"

enum { CHUNK_BYTES = 16 };

/* One read's LDS tile as allocated: the plan's tile in one of its layouts. */
typedef struct Staged {
	const PlanTile *t;        /* the box, the cooperative load, the layouts (passes/plan/lds_tiles.c) */
	int layout;               /* 0: rows padded; 1: unpadded and swizzled (t->swz); 2: unpadded (gfx950's
	                             direct-to-LDS loads: strides of layout 1, no swizzle) */
	int base;                 /* bytes */
	int nbuf;                 /* a prefetched loop's buffers (prefetch.c), one after the other */
	bool dma;                 /* gfx950: loaded straight into LDS (use_global_to_shared; layout 2) */
	int8_t tr_known;          /* read_tr: 0 not checked yet, 1 the transposing reads apply (tr), -1 not */
	PlanTr tr;
	int64_t buf_bytes;        /* ... each this long */
} Staged;

/* The plan's strides of st's layout (plan_tile_elem): padded, or unpadded. */
static int strides(const Staged *st) { return st->layout ? 1 : 0; }

/* A swizzled tile's accesses' address registers: each access is at a
 * constant distance from one of these bases, or makes a new one. */
enum { SWZ_MAX_BASES = 16 }; /* (lds_tiles.c takes a tile whose reads need at most this many) */
typedef struct SwzBases {
	int n;
	Sym *at[4 * SWZ_MAX_BASES]; /* the tile offset of each base */
	MOpnd reg[4 * SWZ_MAX_BASES];
} SwzBases;


/* The lane's LDS byte address of element (0, 0) of ix, a VGPR, and the
 * alignment (bytes, power of two <= 16) every address base + k·align has.
 * With several buffers (a prefetched loop), in the one of trip iv + ahead. */
static MOpnd lds_base_addr(Isel *s, Op *op, const Staged *st, Value *mem, const NodeIndex *ix, int ahead,
	int64_t *align)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	int es = dtype_size(mem->dtype);
	Sym *bytes = sym_simplify(sc, sym_add(sc, sym_mul(sc, plan_tile_elem(s->c, st->t, strides(st), ix, 0, 0), sym_int(sc, es)),
					      sym_int(sc, st->base)),
		c->assume);
	*align = plan_pow2_dividing(sym_multiple_of(sc, bytes, c->assume), CHUNK_BYTES);
	if (st->nbuf > 1) { /* buf_bytes is a multiple of 16: the alignment stays */
		Sym *which = sym_mod(sc, sym_add(sc, s->iv_sym, sym_int(sc, ahead)), sym_int(sc, st->nbuf));
		bytes = sym_add(sc, bytes, sym_mul(sc, which, sym_int(sc, st->buf_bytes)));
	}
	MBlock *save = s->b;
	MOpnd a = isel_expr_lower(s, bytes, op->loc);
	if (s->pre && a.kind != MO_VREG)
		s->b = s->pre;
	a = isel_expr_to_vgpr(s, a);
	s->b = save;
	return a;
}

/* A swizzled tile's access at element j of copy cn of ix (trip iv + ahead's
 * buffer): its address register *addr, DS offset *off and alignment *align
 * (bytes, <= the granule); false after reporting. */
static bool swz_access(Isel *s, Op *op, const Staged *st, Value *mem, const NodeIndex *ix, int64_t cn, int64_t j,
	int ahead, SwzBases *b, MOpnd *addr, int64_t *off, int64_t *align)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	Sym *x = plan_tile_swz_elem(s->c, st->t, ix, cn, j, align);
	int k = plan_tile_swz_match(s->c, b->at, b->n, x, off);
	if (k < 0) {
		if (b->n == 4 * SWZ_MAX_BASES) {
			analysis_error(c, op->loc, "%s: the swizzled LDS tile of %s takes more than %d address registers",
				op->path, mem->name, 4 * SWZ_MAX_BASES);
			return false;
		}
		Sym *bytes = sym_add(sc, x, sym_int(sc, st->base));
		if (st->nbuf > 1) {
			Sym *which = sym_mod(sc, sym_add(sc, s->iv_sym, sym_int(sc, ahead)), sym_int(sc, st->nbuf));
			bytes = sym_add(sc, bytes, sym_mul(sc, which, sym_int(sc, st->buf_bytes)));
		}
		MBlock *save = s->b;
		MOpnd a = isel_expr_lower(s, sym_simplify(sc, bytes, c->assume), op->loc);
		if (s->pre && a.kind != MO_VREG)
			s->b = s->pre;
		a = isel_expr_to_vgpr(s, a);
		s->b = save;
		k = b->n++;
		b->at[k] = x;
		b->reg[k] = a;
		*off = 0;
	}
	*addr = b->reg[k];
	return !c->failed;
}

/* The distance in bytes of element j of copy cn from element (0, 0);
 * false after reporting when it is not a constant. */
static bool lds_delta(Isel *s, Op *op, const Staged *st, Value *mem, const NodeIndex *ix, int64_t cn, int64_t j,
	int64_t *delta)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	Sym *d = sym_simplify(sc, sym_sub(sc, plan_tile_elem(s->c, st->t, strides(st), ix, cn, j), plan_tile_elem(s->c, st->t, strides(st), ix, 0, 0)),
		c->assume);
	if (sym_is_int(d, delta)) {
		*delta *= dtype_size(mem->dtype);
		return true;
	}
	analysis_error(c, op->loc, "%s: element %lld of copy %lld of %s is %s LDS elements from the first: only "
				  "constant distances are compiled yet",
		op->path, (long long)j, (long long)cn, mem->name, sym_str(sc, d));
	return false;
}

static MOp ds_read_op(int dwords)
{
	return dwords == 4 ? I_DS_READ_B128 : dwords == 2 ? I_DS_READ_B64 : I_DS_READ_B32;
}

static MOp ds_write_op(int dwords)
{
	return dwords == 4 ? I_DS_WRITE_B128 : dwords == 2 ? I_DS_WRITE_B64 : I_DS_WRITE_B32;
}

/* Dwords [d0, d0 + n) of v into LDS at addr + off, in the widest aligned
 * pieces. */
static void write_dwords(Isel *s, const TVal *v, int d0, int n, MOpnd addr, int64_t off, int64_t align)
{
	for (int d = 0; d < n;) {
		int w = 4;
		while (w > 1 && (w > n - d || plan_pow2_dividing(off + 4 * d, CHUNK_BYTES) < 4 * w || align < 4 * w))
			w /= 2;
		isel_ds(s, ds_write_op(w), addr, off + 4 * d, isel_tuple_of(s, v, d0 + d, w), true);
		d += w;
	}
}

/* write_box into a swizzled tile: pieces of at most a granule, each at its
 * own swizzled address. */
static bool write_box_swz(Isel *s, Op *op, const Staged *st, Value *mem, const NodeIndex *gx, const TVal *v,
	int ahead)
{
	int es = dtype_size(mem->dtype);
	SwzBases b = {0};
	for (int64_t cn = 0; cn < gx->ncopies; cn++) {
		MOpnd addr;
		int64_t off, align;
		if (es == 4 || v->packed) {
			int pd = isel_per_dword(v), per = (int)(gx->epc / pd);
			for (int d = 0; d < per;) {
				if (!swz_access(s, op, st, mem, gx, cn, (int64_t)d * pd, ahead, &b, &addr, &off, &align))
					return false;
				int w = 2;
				while (w > 1 && (w > per - d || align < 4 * w))
					w /= 2;
				isel_ds(s, ds_write_op(w), addr, off, isel_tuple_of(s, v, (int)(cn * per) + d, w), true);
				d += w;
			}
			continue;
		}
		for (int64_t j = 0; j < gx->epc; j++) {
			if (!swz_access(s, op, st, mem, gx, cn, j, ahead, &b, &addr, &off, &align))
				return false;
			isel_ds(s, es == 2 ? I_DS_WRITE_B16 : I_DS_WRITE_B8, addr, off, v->d[cn * gx->epc + j], true);
		}
	}
	return true;
}

/* write_box of a block-loaded tile (PlanTile.tb, passes/plan/lds_tiles.c:
 * gx over the memory's dims, copy (k, c) row k of the lane's tb rows of K,
 * chunk c along the memory's row): per column n, the tb elements of its
 * rows joined pairwise into dwords by v_perm_b32 (the low halves of rows k
 * and k + 1 for an even n, the high halves for an odd one: K runs along
 * the LDS row, lower k in the lower half) and written as one DS write at
 * row k = 0's element, the others 2, 4, ... bytes on (checked). */
static bool write_box_tb(Isel *s, Op *op, const Staged *st, Value *mem, const NodeIndex *gx, const TVal *v,
	int ahead)
{
	Analysis *c = s->c;
	int rows = st->t->tb, w = rows / 2;
	int64_t cN = gx->ncopies / rows, vec = gx->epc;
	if (!v->packed || rows < 2 || vec % 2) {
		analysis_error(c, op->loc, "%s: the block load of %s is not in pairs", op->path, mem->name);
		return false;
	}
	MOpnd sel[2];
	static const int64_t selk[2] = {0x05040100, 0x07060302}; /* low halves, high halves */
	for (int h = 0; h < 2; h++) { /* VOP3 takes no literal on gfx9 */
		MOpnd k = mo_imm(selk[h]);
		sel[h] = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1);
		mblock_add(s->b, I_S_MOV_B32, 1, &sel[h], 1, &k);
	}
	SwzBases b = {0};
	int64_t align = 0;
	MOpnd addr = st->layout == 1 ? mo_imm(0) : lds_base_addr(s, op, st, mem, gx, ahead, &align);
	RegClass rc = rc_make(RF_VGPR, w);
	for (int64_t cc = 0; cc < cN; cc++)
		for (int64_t j = 0; j < vec; j++) {
			int64_t off, d;
			if (st->layout == 1) {
				if (!swz_access(s, op, st, mem, gx, cc, j, ahead, &b, &addr, &off, &align))
					return false;
			} else if (!lds_delta(s, op, st, mem, gx, cc, j, &off))
				return false;
			/* rows 1 .. tb - 1 follow row 0 in LDS */
			for (int k = 1; k < rows; k++) {
				if (st->layout == 1) {
					int64_t al;
					Sym *x0 = plan_tile_swz_elem(c, st->t, gx, cc, j, &al);
					Sym *xk = plan_tile_swz_elem(c, st->t, gx, k * cN + cc, j, &al);
					if (!sym_is_int(sym_simplify(c->k->sc, sym_sub(c->k->sc, xk, x0), c->assume), &d))
						d = -1;
					d += off;
				} else if (!lds_delta(s, op, st, mem, gx, k * cN + cc, j, &d))
					return false;
				if (d != off + 2 * k) {
					analysis_error(c, op->loc, "%s: the block load of %s: row %d of column %lld is not "
								  "next to row 0 in LDS", op->path, mem->name, k, (long long)j);
					return false;
				}
			}
			uint32_t r = mfunc_vreg(s->f, rc);
			for (int a = 0; a < w; a++) {
				MOpnd lo = v->d[isel_elem_dword(v, ((2 * a) * cN + cc) * vec + j)];
				MOpnd hi = v->d[isel_elem_dword(v, ((2 * a + 1) * cN + cc) * vec + j)];
				MOpnd u[3] = {hi, lo, sel[j % 2]}, dst = w > 1 ? mo_vsub(r, a, RC_V1) : mo_vreg(r, RC_V1);
				mblock_add(s->b, I_V_PERM_B32, 1, &dst, 3, u);
			}
			int ww = w;
			while (ww > 1 && ((st->layout != 1 && plan_pow2_dividing(off, CHUNK_BYTES) < 4 * ww) ||
						 align < 4 * ww))
				ww /= 2;
			for (int a = 0; a < w; a += ww)
				isel_ds(s, ds_write_op(ww), addr, off + 4 * a,
					ww == w ? mo_vreg(r, rc) : w == 1 ? mo_vreg(r, RC_V1)
								     : mo_vsub(r, a, rc_make(RF_VGPR, ww)), true);
		}
	return true;
}

/* Step 3's LDS writes of the cooperative value v (index gx), into the
 * buffer of trip iv + ahead. */
static bool write_box(Isel *s, Op *op, const Staged *st, Value *mem, const NodeIndex *gx, const TVal *v, int ahead)
{
	int es = dtype_size(mem->dtype);
	if (st->t->tb)
		return write_box_tb(s, op, st, mem, gx, v, ahead);
	if (st->layout == 1)
		return write_box_swz(s, op, st, mem, gx, v, ahead);
	int64_t align;
	MOpnd addr = lds_base_addr(s, op, st, mem, gx, ahead, &align);
	for (int64_t cn = 0; cn < gx->ncopies; cn++) {
		int64_t off;
		if (!lds_delta(s, op, st, mem, gx, cn, 0, &off))
			return false;
		if (es == 4 || v->packed) { /* packed: each copy fills whole dwords */
			int per = (int)(gx->epc / isel_per_dword(v));
			write_dwords(s, v, (int)(cn * per), per, addr, off, align);
			continue;
		}
		/* 16- or 8-bit elements one per dword (vec 1 or 2) */
		for (int64_t j = 0; j < gx->epc; j++)
			isel_ds(s, es == 2 ? I_DS_WRITE_B16 : I_DS_WRITE_B8, addr, off + j * es, v->d[cn * gx->epc + j], true);
	}
	return true;
}

/* Step 3's global load of the box (index gx). memory.c applies an op's
 * mapping only to the op's own index (any other index of the op is an
 * unmapped tile load); a mapped read's box is over the same register dims
 * as its own index, so gx stands in for it during the load: each element
 * goes through the mapping and is bounded (or 0) as the read's own would. */
/* A mapped read's cooperative load goes through the op's mapping, which
 * memory.c applies to the op's own index only: gx stands in for that index
 * while the load is planned and emitted (returns the index to put back).
 * tr, tb: the box's load is over the memory's dims, without the mapping. */
static NodeIndex *as_own_index(Isel *s, Op *op, const NodeIndex *gx)
{
	const PlanTile *t = s->plan->tile[op->id];
	NodeIndex *saved = s->c->index[op->id];
	if (op->mapping && !(t && (t->tr || t->tb)))
		s->c->index[op->id] = (NodeIndex *)gx;
	return saved;
}

static TVal *coop_load(Isel *s, Op *op, Value *mem, NodeIndex *gx)
{
	NodeIndex *saved = as_own_index(s, op, gx);
	TVal *v = isel_read_global(s, op, mem, gx);
	s->c->index[op->id] = saved;
	return v;
}

/* A Staged for op from its plan tile (placed and laid out by load_box). */
static Staged *plan_box(Isel *s, Op *op)
{
	PlanTile *t = s->plan->tile[op->id];
	if (!t)
		die("staged read %s has no tile in the plan", op->name);
	Staged *st = ARENA_NEW(&s->c->arena, Staged);
	st->t = t;
	return st;
}

/* gfx950 with Wave's use_global_to_shared: op's tile, which the plan laid
 * out for it (unpadded, layout 2: passes/plan/lds_place.c), loads straight
 * into LDS where its loads allow (memory.c); else its cooperative load is
 * written to that layout as any other. */
static bool dma_fits(Isel *s, Op *op, const Staged *st)
{
	if (st->layout != 2)
		return false;
	NodeIndex *saved = as_own_index(s, op, &st->t->gx);
	bool fits = isel_lds_dma_fits(s, op, op->args[0], &st->t->gx);
	s->c->index[op->id] = saved;
	return fits;
}

/* Copy cn's LDS byte addresses of gx's first lane in each wave (S1), for
 * the direct-to-LDS loads: the tile address with $T0 at its wave's first
 * work-item, read into an SGPR, plus each copy's distance. */
static MOpnd *dma_bases(Isel *s, Op *op, const Staged *st, Value *mem, const NodeIndex *gx)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	int es = dtype_size(mem->dtype);
	Sym *t0 = sym_symbol(sc, "$T0"), *w0 = sym_sub(sc, t0, sym_mod(sc, t0, sym_int(sc, 64)));
	Sym *bytes = sym_add(sc, sym_mul(sc, sym_subs(sc, plan_tile_elem(c, st->t, 1, gx, 0, 0), 1, &t0, &w0),
					sym_int(sc, es)), sym_int(sc, st->base));
	MOpnd a = isel_expr_lower(s, sym_simplify(sc, bytes, c->assume), op->loc);
	MBlock *save = s->b;
	if (s->pre && a.kind != MO_VREG)
		s->b = s->pre;
	a = isel_expr_to_vgpr(s, a);
	s->b = save;
	MOpnd base = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1);
	mblock_add(s->b, I_V_READFIRSTLANE_B32, 1, &base, 1, &a);
	MOpnd *r = ARENA_NEWN(&c->arena, MOpnd, gx->ncopies);
	for (int64_t cn = 0; cn < gx->ncopies; cn++) {
		int64_t d;
		if (!lds_delta(s, op, st, mem, gx, cn, 0, &d))
			return NULL;
		r[cn] = base;
		if (d) {
			r[cn] = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1);
			MOpnd u[2] = {base, mo_imm(d)};
			mblock_add(s->b, I_S_ADD_U32, 1, &r[cn], 2, u);
		}
	}
	return r;
}

/* The plan's tile of op where the plan placed it (passes/plan/lds_place.c:
 * its offset, buffers and layout), and its cooperative global load (into
 * *gx, *v; no load without v, nor for a tile loaded straight into LDS). */
static bool load_box(Isel *s, Op *op, Value *mem, Staged *st, NodeIndex *gx, TVal **v, bool *reused)
{
	Analysis *c = s->c;
	const PlanLds *pl = &s->plan->lds[op->id];
	if (pl->error) {
		analysis_error(c, op->loc, "%s", pl->error);
		return false;
	}
	if (!pl->nbuf)
		die("staged read %s has no place in LDS", op->name);
	*gx = st->t->gx;
	st->layout = pl->layout;
	st->nbuf = pl->nbuf;
	st->buf_bytes = pl->buf_bytes;
	st->base = pl->base;
	st->dma = dma_fits(s, op, st);
	*reused |= isel_lds_place(s, pl->base, (int)(pl->buf_bytes * pl->nbuf));
	if (!v || st->dma) /* a prefetched loop loads later (stage_prefetched); a DMA after the barrier */
		return true;
	*v = coop_load(s, op, mem, gx);
	return *v != NULL;
}

/* Where the current block and the loop's preheader end, to note the
 * instructions emitted after it with the op they are for. */
typedef struct Mark {
	MBlock *b, *pre;
	size_t n, npre;
} Mark;

static Mark mark(Isel *s) { return (Mark){s->b, s->pre, s->b->insts.len, s->pre ? s->pre->insts.len : 0}; }

static void note_since(Isel *s, Mark *m, const char *name)
{
	for (size_t j = m->n; j < m->b->insts.len; j++)
		if (!m->b->insts.data[j].note)
			m->b->insts.data[j].note = name;
	for (size_t j = m->npre; m->pre && j < m->pre->insts.len; j++)
		if (!m->pre->insts.data[j].note)
			m->pre->insts.data[j].note = name;
	*m = mark(s);
}

/* The prefetch schedule's loads of trip min(iv + ahead, last) (prefetch.c)
 * into the carried registers p->r (made here when ahead is 0). */
static bool pf_load(Isel *s, Pipe *p, int ahead)
{
	PfSave sv;
	Mark m = mark(s);
	isel_pf_begin(s, ahead, &sv);
	for (size_t i = 0; i < p->n && !s->c->failed; i++) {
		/* carried as loaded, packed where written (pf_pack.c) */
		PfPack pk = {0};
		s->pf_halves = &pk;
		TVal *raw = coop_load(s, p->ops[i], p->ops[i]->args[0], &p->gx[i]);
		s->pf_halves = NULL;
		if (!raw)
			break;
		if (!ahead) {
			p->r[i] = isel_pf_carried(s, raw);
			p->shape[i] = (TVal *)pk.shape;
			p->pack[i] = pk;
		} else {
			check_that(isel_pf_pack_same(&pk, &p->pack[i]));
			isel_pf_into(s, raw, p->r[i]);
		}
		note_since(s, &m, p->ops[i]->name);
	}
	isel_pf_end(s, &sv);
	return !s->c->failed;
}

/* The carried tiles into LDS (the buffer of trip iv + ahead). */
static bool pf_write(Isel *s, Pipe *p, int ahead)
{
	Mark m = mark(s);
	for (size_t i = 0; i < p->n; i++) {
		TVal *w = isel_pf_pack(s, p->shape[i], p->r[i], &p->pack[i]);
		if (!write_box(s, p->ops[i], s->staged[p->ops[i]->id], p->ops[i]->args[0], &p->gx[i], w, ahead))
			return false;
		note_since(s, &m, p->ops[i]->name);
	}
	return true;
}

/* The barrier after which every wave reads the tiles just written. The
 * loads refilling the registers those writes read go out before it: a DS
 * instruction reads its data registers when it issues, and the loads'
 * results land long after, so they wait at no barrier. */
static void pf_barrier(Isel *s, Pipe *p)
{
	mblock_add(s->b, I_S_BARRIER, 0, NULL, 0, NULL);
	vec_last(&s->b->insts).note = p->ops[0]->name;
}

/* The LDS tiles of a prefetched loop's staged reads (p->ops, p->gx),
 * placed; false after reporting. */
static bool place_tiles(Isel *s, Region *r, Pipe *p, bool *reused)
{
	Analysis *c = s->c;
	p->n = 0;
	for (size_t i = 0; i < r->ops.len && !c->failed; i++) {
		Op *op = r->ops.data[i];
		if (!plan_staged_read(s->c, op))
			continue;
		Staged *st = plan_box(s, op);
		if (!load_box(s, op, op->args[0], st, &p->gx[p->n], NULL, reused))
			return false;
		s->staged[op->id] = st;
		p->ops[p->n++] = op;
	}
	return !c->failed;
}

/* four_stage (four_stage.c): the reads of trip iv + ahead's tiles, kept
 * in the carried registers (prologue, ahead 0) or refilling them (the
 * body's end, ahead 1). */
static bool fs_reads(Isel *s, Pipe *p, int ahead)
{
	for (size_t i = 0; i < p->n; i++) {
		size_t first = s->b->insts.len;
		TVal *v = isel_read_shared_ahead(s, p->ops[i], ahead);
		if (!v)
			return false;
		if (ahead)
			isel_fs_into(s, p, i, first, v);
		else
			isel_fs_keep(s, p, i, first, v);
	}
	return true;
}

/* A prefetched loop's staging (the schedule: prefetch.c): the tiles
 * placed, the prologue's loads of trips 0 and 1 and LDS writes of trip 0
 * emitted into p->prol. The barrier before those writes keeps them after
 * every read of the space by an earlier region or an enclosing loop's
 * previous trip. */
static void stage_prefetched(Isel *s, Region *r, Pipe *p)
{
	Analysis *c = s->c;
	size_t n = 0;
	for (size_t i = 0; i < r->ops.len; i++)
		n += plan_staged_read(s->c, r->ops.data[i]);
	p->gx = ARENA_NEWN(&c->arena, NodeIndex, n + 1);
	p->r = ARENA_NEWN(&c->arena, TVal *, n + 1);
	p->shape = ARENA_NEWN(&c->arena, TVal *, n + 1);
	p->pack = ARENA_NEWN(&c->arena, PfPack, n + 1);
	p->ops = ARENA_NEWN(&c->arena, Op *, n + 1);
	bool reused = false;
	if (!place_tiles(s, r, p, &reused))
		return;
	isel_pf_plan_globals(s, r, p);
	/* none left (bitcast.c took the reads over): an empty prologue */
	if ((!p->n && !p->ng) || c->failed)
		return;
	MBlock *body = s->b;
	s->b = p->prol;
	Mark m = mark(s);
	/* what the prologue lowers for the trip it is in does not hold in the
	 * loop: its own cache scope */
	PfSave sv;
	isel_pf_begin(s, 0, &sv);
	p->four = isel_fs_fits(s, p);
	if (p->n && pf_load(s, p, 0)) {
		isel_lds_barrier(s);
		if (pf_write(s, p, 0) && pf_load(s, p, 1))
			pf_barrier(s, p);
		/* four_stage.c: trip 0's LDS reads, and trip 1's tiles in */
		if (p->four && fs_reads(s, p, 0) && pf_write(s, p, 1) && pf_load(s, p, 2))
			pf_barrier(s, p);
	}
	if (p->n)
		note_since(s, &m, p->ops[0]->name);
	isel_pf_globals_prologue(s, p);
	isel_pf_end(s, &sv);
	s->b = body;
}

void isel_stage_shared_end(Isel *s, Region *r)
{
	Pipe *p = s->pipe;
	if (!p || p->body != r || !p->n || s->c->failed)
		return;
	Mark m = mark(s);
	/* four_stage.c: the next trip's operands, from the other buffer */
	if (p->four && !fs_reads(s, p, 1))
		return;
	/* one buffer: every wave is done reading this trip's tiles first */
	if (p->nbuf == 1)
		mblock_add(s->b, I_S_BARRIER, 0, NULL, 0, NULL);
	/* four_stage.c: trip i + 2's tiles into buffer i % 2 */
	if (p->four ? pf_write(s, p, 0) && pf_load(s, p, 3) : pf_write(s, p, 1) && pf_load(s, p, 2))
		pf_barrier(s, p);
	note_since(s, &m, p->ops[0]->name);
}

void isel_stage_shared(Isel *s, Region *r, bool in_loop)
{
	Analysis *c = s->c;
	if (s->pipe && s->pipe->body == r) {
		/* a split loop's tail (isel.c): the tiles, prologue and
		 * carried registers are made; its own LDS starts past the tiles */
		if (s->pipe->staged) {
			s->lds_top = s->pipe->lds_top;
			return;
		}
		stage_prefetched(s, r, s->pipe);
		s->pipe->staged = true;
		s->pipe->lds_top = s->lds_top;
		return;
	}
	size_t n = 0;
	for (size_t i = 0; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		n += plan_staged_read(s->c, op);
	}
	if (!n)
		return;
	NodeIndex *gx = ARENA_NEWN(&c->arena, NodeIndex, n);
	TVal **v = ARENA_NEWN(&c->arena, TVal *, n);
	Op **ops = ARENA_NEWN(&c->arena, Op *, n);
	size_t k = 0;
	Mark m = mark(s);
	bool reused = false;
	for (size_t i = 0; i < r->ops.len && !c->failed; i++) {
		Op *op = r->ops.data[i];
		if (!plan_staged_read(s->c, op))
			continue;
		Value *mem = op->args[0];
		Staged *st = plan_box(s, op);
		if (!load_box(s, op, mem, st, &gx[k], &v[k], &reused))
			return;
		s->staged[op->id] = st;
		ops[k++] = op;
		note_since(s, &m, op->name);
	}
	/* in a loop, no wave may overwrite what another still reads from the
	 * previous trip; in reused space, what a region that ended read */
	if (in_loop || reused)
		isel_lds_barrier(s);
	for (size_t i = 0; i < k && !c->failed; i++) {
		const Staged *st = s->staged[ops[i]->id];
		if (st->dma) { /* straight into LDS, after the barrier; the wait pass waits for it before the next */
			MOpnd *lds = dma_bases(s, ops[i], st, ops[i]->args[0], &gx[i]);
			if (lds) { /* through the read's mapping, as coop_load (a GQA head's k: {H_KV: j // ratio}) */
				NodeIndex *saved = as_own_index(s, ops[i], &gx[i]);
				isel_read_global_lds(s, ops[i], ops[i]->args[0], &gx[i], lds);
				s->c->index[ops[i]->id] = saved;
			}
			continue;
		}
		if (!write_box(s, ops[i], st, ops[i]->args[0], &gx[i], v[i], 0))
			return;
	}
	mblock_add(s->b, I_S_BARRIER, 0, NULL, 0, NULL);
	note_since(s, &m, ops[0]->name);
}

/* gfx950's transposing reads of ix (passes/plan/lds_tr.c): one address
 * register, the byte address of element (0, 0) of the lane that each lane
 * reads for (its $T0 replaced by 16*(T0/16) + n*(T0%R)) plus the pitch
 * times (T0%16)/R; each block of n elements of each copy one
 * ds_read_b64_tr_b16 (_b8) at its constant distance. False (nothing
 * emitted) when they do not apply. */
static bool read_tr(Isel *s, Op *op, Staged *st, Value *mem, const NodeIndex *ix, int ahead, TVal *v)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	if (st->layout == 1 || s->masked || !v->packed)
		return false;
	if (!st->tr_known) /* checked once per tile (its own index) */
		st->tr_known = ix == c->index[op->id] && plan_tile_tr(c, st->t, strides(st), ix, &st->tr) ? 1 : -1;
	if (st->tr_known < 0)
		return false;
	PlanTr tr = st->tr;
	int es = dtype_size(mem->dtype), R = 16 / tr.n;
	Sym *t0 = sym_symbol(sc, "$T0"), *m16 = sym_mod(sc, t0, sym_int(sc, 16));
	Sym *src = sym_add(sc, sym_sub(sc, t0, m16), sym_mul(sc, sym_int(sc, tr.n), sym_mod(sc, t0, sym_int(sc, R))));
	Sym *e00 = plan_tile_elem(c, st->t, strides(st), ix, 0, 0);
	Sym *bytes = sym_add(sc, sym_mul(sc, sym_subs(sc, e00, 1, &t0, &src), sym_int(sc, es)), sym_int(sc, st->base));
	bytes = sym_add(sc, bytes, sym_mul(sc, sym_floordiv(sc, m16, sym_int(sc, R)), sym_int(sc, tr.pitch * es)));
	if (st->nbuf > 1) {
		Sym *which = sym_mod(sc, sym_add(sc, s->iv_sym, sym_int(sc, ahead)), sym_int(sc, st->nbuf));
		bytes = sym_add(sc, bytes, sym_mul(sc, which, sym_int(sc, st->buf_bytes)));
	}
	MBlock *save = s->b;
	MOpnd addr = isel_expr_lower(s, sym_simplify(sc, bytes, c->assume), op->loc);
	if (s->pre && addr.kind != MO_VREG)
		s->b = s->pre;
	addr = isel_expr_to_vgpr(s, addr);
	s->b = save;
	MOp rd = es == 2 ? I_DS_READ_B64_TR_B16 : I_DS_READ_B64_TR_B8;
	for (int64_t cn = 0; cn < ix->ncopies; cn++)
		for (int64_t j = 0; j < ix->epc; j += tr.n) {
			int64_t d;
			if (!lds_delta(s, op, st, mem, ix, cn, j, &d))
				return true;
			uint32_t r = mfunc_vreg(s->f, RC_V2);
			isel_ds(s, rd, addr, d, mo_vreg(r, RC_V2), false);
			int d0 = isel_elem_dword(v, cn * ix->epc + j);
			v->d[d0] = mo_vsub(r, 0, RC_V1);
			v->d[d0 + 1] = mo_vsub(r, 1, RC_V1);
		}
	return true;
}

/* isel_read_shared from the buffer of trip iv + ahead. */
static TVal *read_shared(Isel *s, Op *op, Value *mem, const NodeIndex *ix, int ahead)
{
	Analysis *c = s->c;
	Staged *st = s->staged[op->id];
	if (!st)
		die("shared read %s was not staged", op->name);
	int es = dtype_size(mem->dtype);
	TVal *v = isel_tval_new(s, mem->dtype, ix->ncopies * ix->epc, ix);
	if (st->t->tr && read_tr(s, op, st, mem, ix, ahead, v))
		return c->failed ? NULL : v;
	int64_t align = 0;
	bool swz = st->layout == 1;
	SwzBases sb = {0};
	/* swizzled, each access has its own address register (one of sb's) */
	MOpnd addr = swz ? mo_imm(0) : lds_base_addr(s, op, st, mem, ix, ahead, &align);
	for (int64_t cn = 0; cn < ix->ncopies; cn++) {
		int64_t *off = ARENA_NEWN(&c->arena, int64_t, ix->epc);
		bool run = true;
		for (int64_t j = 0; j < ix->epc; j++) {
			if (!lds_delta(s, op, st, mem, ix, cn, j, &off[j]))
				return NULL;
			run &= off[j] == off[0] + j * es;
		}
		if (run && (es == 4 || v->packed)) {
			int pd = isel_per_dword(v), per = (int)(ix->epc / pd), d0 = (int)(cn * per);
			for (int d = 0; d < per;) {
				int64_t at = off[0] + 4 * d;
				if (swz && !swz_access(s, op, st, mem, ix, cn, (int64_t)d * pd, ahead, &sb, &addr, &at, &align))
					return NULL;
				/* swizzled: at most a granule */
				int w = swz ? 2 : 4;
				while (w > 1 && (w > per - d || plan_pow2_dividing(at, CHUNK_BYTES) < 4 * w || align < 4 * w))
					w /= 2;
				uint32_t r = mfunc_vreg(s->f, rc_make(RF_VGPR, w));
				isel_ds(s, ds_read_op(w), addr, at, mo_vreg(r, rc_make(RF_VGPR, w)), false);
				for (int q = 0; q < w; q++)
					v->d[d0 + d + q] = mo_vsub(r, q, RC_V1);
				d += w;
			}
			continue;
		}
		for (int64_t j = 0; j < ix->epc; j++) {
			int64_t e = cn * ix->epc + j;
			if (swz && !swz_access(s, op, st, mem, ix, cn, j, ahead, &sb, &addr, &off[j], &align))
				return NULL;
			if (e % isel_per_dword(v) == 0) {
				MOpnd x = isel_v1(s);
				isel_ds(s, es == 4 ? I_DS_READ_B32 : es == 2 ? I_DS_READ_U16 : I_DS_READ_U8, addr, off[j], x, false);
				v->d[isel_elem_dword(v, e)] = x;
			} else if (es == 1) {
				MOpnd x = isel_v1(s);
				isel_ds(s, I_DS_READ_U8, addr, off[j], x, false);
				v->d[e / 4] = isel_insert_byte(s, v->d[e / 4], x, (int)(e % 4));
			} else {
				/* not ds_read_u16_d16_hi into the pair's dword: with SRAM
				 * ECC on a d16 load zeroes the half it does not write
				 * (memory.c); a ushort, then v_perm_b32 joins the halves */
				MOpnd hi = isel_v1(s), lo = v->d[e / 2];
				isel_ds(s, I_DS_READ_U16, addr, off[j], hi, false);
				MOpnd sel = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), kk = mo_imm(0x05040100);
				mblock_add(s->b, I_S_MOV_B32, 1, &sel, 1, &kk);
				MOpnd u[3] = {hi, lo, sel};
				v->d[e / 2] = isel_v1(s);
				mblock_add(s->b, I_V_PERM_B32, 1, &v->d[e / 2], 3, u);
			}
		}
	}
	return v;
}

TVal *isel_read_shared(Isel *s, Op *op, Value *mem, const NodeIndex *ix)
{
	return read_shared(s, op, mem, ix, 0);
}

TVal *isel_read_shared_ahead(Isel *s, Op *op, int ahead)
{
	return read_shared(s, op, op->args[0], s->c->index[op->id], ahead);
}
