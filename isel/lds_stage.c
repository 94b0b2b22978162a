/* lds_stage.c — operands in shared memory, staged through LDS (Wave's
 * `promote` and its barrier placement).
 *
 * A read of a tensor whose address space is shared means what a read of
 * it in global memory means (the interpreter runs it that way); the
 * compiler stages the workgroup's part of the tensor in LDS and each wave
 * reads its elements from there, so neighbouring waves that need the same
 * rows (the A tile is read by every wave along N) fetch it from global
 * memory once per workgroup.
 *
 * Algorithm, per region (the kernel body or a loop body), before its ops:
 *   1. The box. For each shared read R directly in the region, per memory
 *      dim (register dim, for a mapped R): start = the workgroup's and, inside the loop over the dim, the
 *      trip's first coordinate (indices.c's constraint starts without the
 *      wave part); extent = the workgroup tile, the loop tile, or the
 *      whole dim, widened to every coordinate R's elements reach (interval
 *      bounds of coord - start; a K copy past a short loop tile reaches
 *      into the next tile, whose lanes mma.c zeroes). A coordinate below
 *      the start is an error. The box is a cache of global memory: LDS
 *      holds global[start + rel] for every rel in it (0 past the tensor),
 *      so R reads exactly what it would read from global memory.
 *   2. LDS layout: row-major over the box, each row of the fastest dim
 *      padded by 8 bytes. A box row of 16·m bytes then has a stride of
 *      4·m' + 2 dwords, so the 16 (or 32) rows an MFMA operand read takes
 *      from one column group land on 16 distinct even bank pairs: no bank
 *      conflicts for ds_read_b64 (32 banks of 4 bytes, CDNA3 ISA guide's
 *      LDS chapter). Where that padding costs a workgroup per CU (the
 *      region's tiles are planned padded, then again unpadded when the
 *      function's LDS size without it allows more workgroups), a tile
 *      lds_layout.c can swizzle is unpadded and its 8-byte granules XORed
 *      within the row by a key of the row: conflict-free as well, every
 *      write and read at most 8 bytes at the swizzle of its own coordinates
 *      (swz_access). Allocations follow each other; over 64 KiB is an
 *      error naming the read.
 *   3. Cooperative load: the box, in row-major order, is cut into chunks
 *      of `vec` contiguous elements (16 bytes at most, fewer when the fast
 *      dim or the tensor's row length is not a multiple, so that each chunk
 *      is valid or masked as a whole); all threads of the workgroup take
 *      consecutive chunks, round after round. A round is a constant step
 *      along one dim when the workgroup's chunks fill whole rows (or
 *      whole rounds fit in a row), which makes the load an ordinary
 *      NodeIndex read: memory.c's buffer loads with bounds (past the
 *      tensor, the load returns 0 and 0 goes to LDS). Rows of a last,
 *      partial round land in the allocation's tail, which nothing reads.
 *   4. Barriers: all global loads of the region first, then (in a loop of
 *      more than one trip) s_barrier, so no wave overwrites what another
 *      still reads from the previous trip; the LDS writes; s_barrier, so
 *      every wave's writes are in before anyone reads. The wait pass puts
 *      s_waitcnt lgkmcnt before each barrier (passes/machine/waitcnt.c).
 *   5. The read R itself (isel_read_shared): LDS address of each element =
 *      base + sum(rel_i * stride_i); per lane base, constant distances in
 *      the DS offset field; a copy's run of contiguous elements is one
 *      ds_read_b32/b64/b128 as the alignment of the address allows (in a
 *      swizzled tile: per granule, a base per distinct XOR term).
 * Mapped reads (an implicit-GEMM conv's A and B): a read through a mapping
 * whose result is an MMA operand is staged the same way with "the box's
 * dims" being its register dims (the mapping's outputs, [M, K]) instead of
 * the memory's: the cooperative load reads the op through its mapping
 * (memory.c bounds each element, 0 outside), LDS holds the register tile
 * densely, and the MMA's operand reads are those of an unmapped tile.
 * Requires: the region's ops not writing a tensor they read through LDS
 * (checked). */
#include <string.h>

#include "isel.h"
#include "lds_layout.h"

enum { LDS_BYTES = 65536, ROW_PAD_BYTES = 8, CHUNK_BYTES = 16 };

/* One read's LDS tile. */
typedef struct Staged {
	int base;                 /* bytes */
	int rank;
	Sym *dims[MAX_DIMS];      /* the box's dims: the memory's, or a mapped read's register dims */
	Sym *start[MAX_DIMS];     /* the box's first coordinate per dim */
	int64_t extent[MAX_DIMS]; /* the box */
	int64_t stride[MAX_DIMS]; /* LDS elements per step along each dim */
	int64_t rows;             /* LDS rows along the outermost dim >1 (incl. the tail) */
	int nbuf;                 /* a prefetched loop's buffers (prefetch.c), one after the other */
	int64_t buf_bytes;        /* ... each this long */
	LdsSwizzle swz;           /* row_bytes 0: rows padded; else unpadded and swizzled (lds_layout.c) */
} Staged;

static const TileLoop *loop_over(Analysis *c, const Op *op, const Sym *dim)
{
	for (Region *r = op->parent; r && r->owner; r = r->parent)
		if (r->owner->dim == dim)
			return analysis_tile(c, dim);
	return NULL;
}

/* Step 1 for dim i of the read. */
static bool box_dim(Isel *s, Op *op, Value *mem, const NodeIndex *ix, int i, Staged *st)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	Sym *dim = st->dims[i];
	const DimDist *d = analysis_dist(c, dim);
	const TileLoop *t = loop_over(c, op, dim);
	Sym *start = sym_int(sc, 0);
	/* a runtime extent needs a tile: a workgroup or loop constraint */
	int64_t ext = d || t ? 0 : analysis_int(c, dim, op->loc, sym_name(dim));
	if (c->failed)
		return false;
	if (d) {
		start = sym_add(sc, start, d->wg_start);
		ext = d->wg_tile;
	}
	if (t) {
		start = sym_add(sc, start, t->base);
		ext = d ? MIN(ext, t->tile) : t->tile;
	}
	start = sym_simplify(sc, start, c->assume);
	int pos = -1;
	for (int k = 0; k < ix->ndims; k++)
		if (ix->d[k].dim == dim)
			pos = k;
	if (pos < 0) {
		analysis_error(c, op->loc, "%s: dim %s of %s has no index", op->path, sym_name(dim), mem->name);
		return false;
	}
	for (int64_t cn = 0; cn < ix->ncopies; cn++)
		for (int64_t j = 0; j < ix->epc; j++) {
			Sym *rel = sym_simplify(sc, sym_sub(sc, index_coord(c, ix, pos, cn, j), start), c->assume);
			SymBound b = sym_bounds(sc, rel, c->assume);
			if (!b.has_lo || !b.has_hi || b.lo.p < 0 || b.hi.q != 1 || b.hi.p > INT32_MAX) {
				analysis_error(c, op->loc, "%s: staging %s in LDS: along %s the read reaches %s, outside the "
							  "workgroup's tile from %s: not compiled yet",
					op->path, mem->name, sym_name(dim), sym_str(sc, rel), sym_str(sc, start));
				return false;
			}
			ext = MAX(ext, b.hi.p + 1);
		}
	st->start[i] = start;
	st->extent[i] = ext;
	return true;
}

/* Step 3: the cooperative load's index, chunks of vec elements; false if
 * the workgroup's rounds do not step along a single dim. */
static bool coop_index(Isel *s, const Staged *st, int64_t vec, NodeIndex *gx, int64_t *rows)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	int r = st->rank, last = r - 1;
	int64_t threads = (int64_t)c->wg_size[0] * c->wg_size[1] * c->wg_size[2];
	Sym *tid = sym_add(sc, sym_symbol(sc, "$T0"),
		sym_add(sc, sym_mul(sc, sym_symbol(sc, "$T1"), sym_int(sc, c->wg_size[0])),
			sym_mul(sc, sym_symbol(sc, "$T2"), sym_int(sc, (int64_t)c->wg_size[0] * c->wg_size[1]))));
	Sym *flat = sym_mul(sc, tid, sym_int(sc, vec));
	int o = last; /* the outermost dim with more than one element */
	for (int i = 0; i < r; i++)
		if (st->extent[i] > 1) {
			o = i;
			break;
		}
	int64_t inner = 1; /* elements of a step along o */
	for (int i = o + 1; i < r; i++)
		inner *= st->extent[i];
	int64_t round = threads * vec;
	memset(gx, 0, sizeof *gx);
	gx->ndims = r;
	gx->epc = vec;
	gx->ncopies = 1;
	for (int i = 0; i < r; i++) {
		DimIndex *di = &gx->d[i];
		di->dim = st->dims[i];
		di->size = i == last ? vec : 1;
		di->start = st->start[i];
		di->copies = 1;
	}
	if (round % inner == 0) {
		/* each round covers round/inner whole steps of o */
		int64_t step = round / inner, need = st->extent[o];
		/* in chunks, not elements: Mod(8*x, 128) and 8*Mod(x, 16) are
		 * the same, but only the second form simplifies against the
		 * element distances memory.c takes */
		int64_t p = 1;
		for (int i = last; i >= o; i--) {
			Sym *rel;
			if (i == last)
				rel = i == o ? flat
					     : sym_mul(sc, sym_int(sc, vec), sym_mod(sc, tid, sym_int(sc, st->extent[i] / vec)));
			else {
				Sym *q = sym_floordiv(sc, tid, sym_int(sc, p / vec));
				rel = i == o ? q : sym_mod(sc, q, sym_int(sc, st->extent[i]));
			}
			gx->d[i].start = sym_simplify(sc, sym_add(sc, st->start[i], rel), c->assume);
			p *= st->extent[i];
		}
		gx->d[o].copies = need / step + (need % step != 0);
		gx->d[o].step = step;
		*rows = gx->d[o].copies * step;
	} else if (st->extent[last] % round == 0) {
		/* a row holds whole rounds: copies along every dim */
		for (int i = 0; i < last; i++) {
			gx->d[i].start = st->start[i];
			gx->d[i].copies = st->extent[i];
			gx->d[i].step = 1;
		}
		gx->d[last].start = sym_simplify(sc, sym_add(sc, st->start[last], flat), c->assume);
		gx->d[last].copies = st->extent[last] / round;
		gx->d[last].step = round;
		*rows = st->extent[o];
	} else
		return false;
	Sym *J = sym_symbol(sc, "$J");
	for (int i = 0; i < r; i++) {
		DimIndex *di = &gx->d[i];
		di->coord = di->size > 1 ? sym_add(sc, di->start, J) : di->start;
		gx->ncopies *= di->copies;
	}
	return gx->ncopies * vec <= 4096;
}

static int64_t pow2_dividing(int64_t v, int64_t cap);

/* The coordinate along box dim i of element j of copy cn of ix (which
 * indexes the box's dims), relative to the box's start. */
static Sym *box_rel(Isel *s, const Staged *st, const NodeIndex *ix, int i, int64_t cn, int64_t j)
{
	int pos = 0;
	for (int k = 0; k < ix->ndims; k++)
		if (ix->d[k].dim == st->dims[i])
			pos = k;
	return sym_sub(s->c->k->sc, index_coord(s->c, ix, pos, cn, j), st->start[i]);
}

/* The LDS element offset (from the allocation's base) of element j of copy
 * cn of ix, in the unswizzled layout. */
static Sym *lds_elem(Isel *s, const Staged *st, const NodeIndex *ix, int64_t cn, int64_t j)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	Sym *lin = sym_int(sc, 0);
	for (int i = 0; i < st->rank; i++)
		lin = sym_add(sc, lin, sym_mul(sc, box_rel(s, st, ix, i, cn, j), sym_int(sc, st->stride[i])));
	return sym_simplify(sc, lin, c->assume);
}

/* A swizzled tile's byte offset (from the allocation's base) of element j
 * of copy cn of ix, and in *align the alignment (bytes, <= the granule)
 * of its byte within the row, which the address keeps. */
static Sym *swz_elem(Isel *s, const Staged *st, int es, const NodeIndex *ix, int64_t cn, int64_t j, int64_t *align)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	int last = st->rank - 1;
	Sym *row = sym_int(sc, 0);
	for (int i = 0; i < last; i++)
		row = sym_add(sc, row, sym_mul(sc, box_rel(s, st, ix, i, cn, j), sym_int(sc, st->stride[i] / st->extent[last])));
	Sym *colb = sym_simplify(sc, sym_mul(sc, box_rel(s, st, ix, last, cn, j), sym_int(sc, es)), c->assume);
	*align = pow2_dividing(sym_multiple_of(sc, colb, c->assume), LDS_GRANULE);
	return isel_lds_swizzle_offset(sc, &st->swz, sym_simplify(sc, row, c->assume), colb, c->assume);
}

/* A swizzled tile's accesses' address registers: each access is at a
 * constant distance from one of these bases, or makes a new one. */
enum { SWZ_MAX_BASES = 16 };
typedef struct SwzBases {
	int n;
	Sym *at[4 * SWZ_MAX_BASES]; /* the tile offset of each base */
	MOpnd reg[4 * SWZ_MAX_BASES];
} SwzBases;

/* The base of b that x is a constant distance d >= 0 past, or -1. */
static int swz_match(Isel *s, const SwzBases *b, Sym *x, int64_t *d)
{
	for (int k = 0; k < b->n; k++)
		if (sym_is_int(sym_simplify(s->c->k->sc, sym_sub(s->c->k->sc, x, b->at[k]), s->c->assume), d) && *d >= 0)
			return k;
	return -1;
}

/* How many bases the accesses of ix need (an estimate: every element
 * counted), at most SWZ_MAX_BASES + 1. */
static int swz_bases_needed(Isel *s, const Staged *st, int es, const NodeIndex *ix)
{
	SwzBases b = {0};
	for (int64_t cn = 0; cn < ix->ncopies; cn++)
		for (int64_t j = 0; j < ix->epc; j++) {
			int64_t d, align;
			Sym *x = swz_elem(s, st, es, ix, cn, j, &align);
			if (swz_match(s, &b, x, &d) < 0) {
				if (b.n == SWZ_MAX_BASES)
					return SWZ_MAX_BASES + 1;
				b.at[b.n++] = x;
			}
		}
	return b.n;
}

/* The largest power of two dividing v, at most cap (v == 0: cap). */
static int64_t pow2_dividing(int64_t v, int64_t cap)
{
	int64_t p = 1;
	while (p < cap && (v == 0 || v % (2 * p) == 0))
		p *= 2;
	return p;
}

/* The lane's LDS byte address of element (0, 0) of ix, a VGPR, and the
 * alignment (bytes, power of two <= 16) every address base + k·align has.
 * With several buffers (a prefetched loop), in the one of trip iv + ahead. */
static MOpnd lds_base_addr(Isel *s, Op *op, const Staged *st, Value *mem, const NodeIndex *ix, int ahead,
	int64_t *align)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	int es = dtype_size(mem->dtype);
	Sym *bytes = sym_simplify(sc, sym_add(sc, sym_mul(sc, lds_elem(s, st, ix, 0, 0), sym_int(sc, es)),
					      sym_int(sc, st->base)),
		c->assume);
	*align = pow2_dividing(sym_multiple_of(sc, bytes, c->assume), CHUNK_BYTES);
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
	Sym *x = swz_elem(s, st, dtype_size(mem->dtype), ix, cn, j, align);
	int k = swz_match(s, b, x, off);
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
	Sym *d = sym_simplify(sc, sym_sub(sc, lds_elem(s, st, ix, cn, j), lds_elem(s, st, ix, 0, 0)),
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
		while (w > 1 && (w > n - d || pow2_dividing(off + 4 * d, CHUNK_BYTES) < 4 * w || align < 4 * w))
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

/* Step 3's LDS writes of the cooperative value v (index gx), into the
 * buffer of trip iv + ahead. */
static bool write_box(Isel *s, Op *op, const Staged *st, Value *mem, const NodeIndex *gx, const TVal *v, int ahead)
{
	int es = dtype_size(mem->dtype);
	if (st->swz.row_bytes)
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

/* Step 2's strides, rows along the outermost dim >1 padded by pad
 * elements (but a one-row box); the tile's bytes, a multiple of 16. */
static int64_t layout_box(Staged *st, int es, int64_t pad)
{
	int last = st->rank - 1, o = last;
	for (int i = 0; i < st->rank; i++)
		if (st->extent[i] > 1) {
			o = i;
			break;
		}
	int64_t stride = 1;
	for (int i = last; i >= 0; i--) {
		st->stride[i] = stride;
		int64_t n = i == o ? st->rows : st->extent[i];
		stride *= n;
		if (i == last && o != last)
			stride += pad;
	}
	int64_t bytes = stride * es;
	return (bytes + CHUNK_BYTES - 1) / CHUNK_BYTES * CHUNK_BYTES;
}

/* Can st (laid out unpadded) be swizzled (st->swz set)? Rows of a width
 * lds_layout.c takes, elements of at most a dword, and few enough address
 * registers for the cooperative writes (gx) and the read's own index. */
static bool swizzle_fits(Isel *s, Op *op, Value *mem, Staged *st, const NodeIndex *gx)
{
	int es = dtype_size(mem->dtype), last = st->rank - 1;
	const NodeIndex *ix = s->c->index[op->id];
	bool rows = false; /* a box of more than one row */
	for (int i = 0; i < last; i++)
		rows |= st->extent[i] > 1;
	st->swz.row_bytes = 0;
	if (!rows || es > 4 || !ix || !isel_lds_swizzle_for(st->extent[last] * es, &st->swz))
		return false;
	if (swz_bases_needed(s, st, es, gx) > SWZ_MAX_BASES || swz_bases_needed(s, st, es, ix) > SWZ_MAX_BASES)
		st->swz.row_bytes = 0;
	return st->swz.row_bytes != 0;
}

static Staged *plan_box(Isel *s, Op *op, Value *mem, const NodeIndex *ix)
{
	Analysis *c = s->c;
	Staged *st = ARENA_NEW(&c->arena, Staged);
	/* a mapped read's box is over its register dims (the mapping's
	 * outputs, [M, K] for conv's A): the MMA's operand reads index those */
	const Shape *box = op->mapping ? &op_result(op)->shape : &mem->shape;
	st->rank = box->rank;
	for (int i = 0; i < st->rank; i++)
		st->dims[i] = box->dims[i];
	for (int i = 0; i < st->rank; i++)
		if (!box_dim(s, op, mem, ix, i, st))
			return NULL;
	return st;
}

/* Step 3's global load of the box (index gx). memory.c applies an op's
 * mapping only to the op's own index (any other index of the op is an
 * unmapped tile load); a mapped read's box is over the same register dims
 * as its own index, so gx stands in for it during the load: each element
 * goes through the mapping and is bounded (or 0) as the read's own would. */
static TVal *coop_load(Isel *s, Op *op, Value *mem, NodeIndex *gx)
{
	if (!op->mapping)
		return isel_read_global(s, op, mem, gx);
	NodeIndex **own = &s->c->index[op->id], *saved = *own;
	*own = gx;
	TVal *v = isel_read_global(s, op, mem, gx);
	*own = saved;
	return v;
}

/* Steps 2 and 3 for one read: its layout and allocation, the cooperative
 * global load (into *gx, *v). */
static bool load_box(Isel *s, Op *op, Value *mem, Staged *st, NodeIndex *gx, TVal **v, bool *reused)
{
	Analysis *c = s->c;
	int es = dtype_size(mem->dtype), last = st->rank - 1;
	/* a runtime row length is not known to be a multiple of a chunk: one
	 * element per chunk, each with its own bound */
	Sym *rt_last = analysis_runtime(c, st->dims[last]);
	int64_t size_last = rt_last ? 1 : analysis_int(c, st->dims[last], op->loc, sym_name(st->dims[last]));
	/* through a mapping memory.c bounds each element of a chunk on its own
	 * (a chunk's elements land anywhere in memory), so the register row's
	 * length does not limit the chunk */
	if (op->mapping)
		size_last = 0;
	int64_t rows = 0, vec;
	/* a chunk is valid or masked whole when the fast dim's size and the
	 * box's start along it are multiples of it */
	int64_t start_mult = sym_multiple_of(c->k->sc, st->start[last], c->assume);
	/* when the workgroup's threads cover no whole rows or rounds of the
	 * box (a 24-wide tile row in chunks of 8, 256 threads), the box grows
	 * along the fast dim up to the next power of two: it caches global
	 * memory, so the extra columns are just loaded (0 past the tensor) and
	 * never read */
	int64_t want = st->extent[last], top = 1;
	while (top < want)
		top *= 2;
	bool found = false;
	/* a mapped read takes the chunk size that loads the fewest elements
	 * (its loads go element by element where the mapping scatters them,
	 * so a wide chunk whose last round mostly fills the tail only costs) */
	int64_t best = INT64_MAX, best_e = 0, best_vec = 0;
	for (int64_t e = want; e <= top && !found; e++) {
		st->extent[last] = e;
		for (vec = CHUNK_BYTES / es; vec >= 1; vec /= 2)
			if (e % vec == 0 && (vec == 1 || size_last % vec == 0) &&
				(vec == 1 || start_mult == 0 || start_mult % vec == 0) && coop_index(s, st, vec, gx, &rows)) {
				if (!op->mapping) {
					found = true;
					break;
				}
				if (gx->ncopies * vec < best) {
					best = gx->ncopies * vec;
					best_e = e;
					best_vec = vec;
				}
			}
	}
	if (best_vec) {
		st->extent[last] = best_e;
		vec = best_vec;
		found = coop_index(s, st, vec, gx, &rows);
	}
	if (!found) {
		st->extent[last] = want;
		analysis_error(c, op->loc, "%s: staging %s in LDS: the workgroup's %lld threads do not cover its "
					  "tile in whole rows or rounds: not compiled yet",
			op->path, mem->name, (long long)((int64_t)c->wg_size[0] * c->wg_size[1] * c->wg_size[2]));
		return false;
	}
	/* step 2: the layout, rows along the outermost dim >1 padded, or
	 * unpadded and swizzled (s->lds_swizzle) where lds_layout.c can */
	st->rows = rows;
	st->nbuf = s->pipe && s->pipe->body == op->parent ? s->pipe->nbuf : 1;
	int64_t bytes = layout_box(st, es, 0);
	if (swizzle_fits(s, op, mem, st, gx)) {
		if (!s->lds_swizzle) {
			st->swz.row_bytes = 0;
			int64_t plain = bytes;
			bytes = layout_box(st, es, ROW_PAD_BYTES / es);
			s->lds_swz_saving += (bytes - plain) * st->nbuf;
		}
	} else
		bytes = layout_box(st, es, ROW_PAD_BYTES / es);
	st->buf_bytes = bytes;
	bool reuse = false;
	st->base = bytes * st->nbuf > LDS_BYTES ? -1 : isel_lds_alloc(s, (int)(bytes * st->nbuf), &reuse);
	if (st->base < 0 && st->nbuf > 1) {
		/* two buffers of every tile do not fit: stage_prefetched plans
		 * again with one */
		s->pipe->refit = true;
		return false;
	}
	if (st->base < 0) {
		analysis_error(c, op->loc, "%s: staging %s in LDS takes %lld bytes, %d already allocated: over the "
					  "64 KiB of LDS",
			op->path, mem->name, (long long)bytes, s->lds_top);
		return false;
	}
	*reused |= reuse;
	if (!v) /* a prefetched loop loads later (stage_prefetched) */
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
		size_t first = s->b->insts.len;
		TVal *v = coop_load(s, p->ops[i], p->ops[i]->args[0], &p->gx[i]);
		if (!v)
			break;
		/* carried as loaded, packed where written (pf_pack.c) */
		PfPack pk;
		TVal *raw = isel_pf_unpack(s, first, v, &pk);
		if (!ahead) {
			p->r[i] = isel_pf_carried(s, raw);
			p->shape[i] = v;
			p->pack[i] = pk;
		} else {
			check_that(isel_pf_pack_same(&pk, &p->pack[i]));
			isel_pf_into(s, first, raw, p->r[i]);
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

/* A prefetched loop's staging (the schedule: prefetch.c): the tiles
 * planned, the prologue's loads of trips 0 and 1 and LDS writes of trip 0
 * emitted into p->prol. The barrier before those writes keeps them after
 * every read of the space by an earlier region or an enclosing loop's
 * previous trip. */
/* The LDS tiles of a prefetched loop's staged reads (p->ops, p->gx),
 * planned and allocated: 0, -1 after reporting, 1 when two buffers per
 * tile (p->nbuf 2) do not fit (p->refit; nothing reported). */
static int plan_tiles(Isel *s, Region *r, Pipe *p, bool *reused)
{
	Analysis *c = s->c;
	p->n = 0;
	for (size_t i = 0; i < r->ops.len && !c->failed; i++) {
		Op *op = r->ops.data[i];
		if (!plan_staged_read(s->c, op))
			continue;
		if (region_writes_mem(c->k->body, op->args[0])) {
			analysis_error(c, op->loc, "%s: %s is read through LDS and also written by the kernel: not "
						  "compiled yet",
				op->path, op->args[0]->name);
			return -1;
		}
		Staged *st = plan_box(s, op, op->args[0], c->index[op->id]);
		if (!st || !load_box(s, op, op->args[0], st, &p->gx[p->n], NULL, reused))
			return p->refit ? 1 : -1;
		s->staged[op->id] = st;
		p->ops[p->n++] = op;
	}
	return c->failed ? -1 : 0;
}

/* After planning a region's tiles padded (peak: the function's LDS size
 * before): would laying the swizzleable ones out unpadded let more
 * workgroups share a CU? Decided on LDS alone; where the registers cap
 * the workgroups anyway, allocate_registers selects the function again
 * with a plan whose swizzle is off. */
static bool swizzle_pays(Isel *s, int peak)
{
	if (!s->plan->swizzle)
		return false;
	int64_t unpadded = MAX(peak, s->lds_top - s->lds_swz_saving);
	return s->lds_swz_saving > 0 && isel_lds_workgroups_per_cu(unpadded) > isel_lds_workgroups_per_cu(s->f->lds_bytes);
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
	int lds_top = s->lds_top, lds_bytes = s->f->lds_bytes;
	s->lds_swz_saving = 0;
	int rc = plan_tiles(s, r, p, &reused);
	if (rc > 0) { /* again with one buffer per tile */
		s->lds_top = lds_top;
		s->f->lds_bytes = lds_bytes;
		p->nbuf = 1;
		s->lds_swz_saving = 0;
		rc = plan_tiles(s, r, p, &reused);
	}
	if (!rc && swizzle_pays(s, lds_bytes)) { /* again unpadded */
		s->got->swizzled++;
		s->got->lds_padded = MAX(s->got->lds_padded, s->f->lds_bytes);
		s->lds_top = lds_top;
		s->f->lds_bytes = lds_bytes;
		s->lds_swizzle = true;
		rc = plan_tiles(s, r, p, &reused);
		s->lds_swizzle = false;
	}
	if (rc)
		return;
	isel_pf_plan_globals(s, r, p);
	/* none left (bitcast.c took the reads over): an empty prologue */
	if ((!p->n && !p->ng) || c->failed)
		return;
	if (p->n && p->nbuf > 1)
		s->got->lds_doubled++;
	MBlock *body = s->b;
	s->b = p->prol;
	Mark m = mark(s);
	/* what the prologue lowers for the trip it is in does not hold in the
	 * loop: its own cache scope */
	PfSave sv;
	isel_pf_begin(s, 0, &sv);
	bool *fixed = ARENA_NEWN(&c->arena, bool, p->n + 1);
	for (size_t i = 0; i < p->n; i++)
		fixed[i] = isel_shared_fixed(s, p->ops[i]);
	p->four = isel_fs_fits(s, p, fixed);
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
		/* the body selected again (peel.c): the tiles, prologue and
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
	/* the tiles planned padded first (no loads), to see whether the
	 * swizzled layout pays */
	int lds_top = s->lds_top, lds_bytes = s->f->lds_bytes;
	s->lds_swz_saving = 0;
	for (size_t i = 0; i < r->ops.len && !c->failed; i++) {
		Op *op = r->ops.data[i];
		Staged *st = plan_staged_read(s->c, op) ? plan_box(s, op, op->args[0], c->index[op->id]) : NULL;
		if (st && !load_box(s, op, op->args[0], st, &gx[0], NULL, &reused))
			return;
	}
	if (c->failed)
		return;
	bool swz = swizzle_pays(s, lds_bytes);
	if (swz) {
		s->got->swizzled++;
		s->got->lds_padded = MAX(s->got->lds_padded, s->f->lds_bytes);
	}
	s->lds_top = lds_top;
	s->f->lds_bytes = lds_bytes;
	reused = false;
	s->lds_swizzle = swz;
	for (size_t i = 0; i < r->ops.len && !c->failed; i++) {
		Op *op = r->ops.data[i];
		if (!plan_staged_read(s->c, op))
			continue;
		Value *mem = op->args[0];
		if (region_writes_mem(s->c->k->body, mem)) {
			analysis_error(c, op->loc, "%s: %s is read through LDS and also written by the kernel: not "
						  "compiled yet",
				op->path, mem->name);
			s->lds_swizzle = false;
			return;
		}
		Staged *st = plan_box(s, op, mem, c->index[op->id]);
		if (!st || !load_box(s, op, mem, st, &gx[k], &v[k], &reused)) {
			s->lds_swizzle = false;
			return;
		}
		s->staged[op->id] = st;
		ops[k++] = op;
		note_since(s, &m, op->name);
	}
	s->lds_swizzle = false;
	/* in a loop, no wave may overwrite what another still reads from the
	 * previous trip; in reused space, what a region that ended read */
	if (in_loop || reused)
		isel_lds_barrier(s);
	for (size_t i = 0; i < k && !c->failed; i++)
		if (!write_box(s, ops[i], s->staged[ops[i]->id], ops[i]->args[0], &gx[i], v[i], 0))
			return;
	mblock_add(s->b, I_S_BARRIER, 0, NULL, 0, NULL);
	note_since(s, &m, ops[0]->name);
}

bool isel_shared_fixed(Isel *s, const Op *op)
{
	const Staged *st = s->staged[op->id];
	return st && !isel_depends_on_loop(s, lds_elem(s, st, s->c->index[op->id], 0, 0));
}

/* isel_read_shared from the buffer of trip iv + ahead. */
static TVal *read_shared(Isel *s, Op *op, Value *mem, const NodeIndex *ix, int ahead)
{
	Analysis *c = s->c;
	const Staged *st = s->staged[op->id];
	if (!st)
		die("shared read %s was not staged", op->name);
	int es = dtype_size(mem->dtype);
	TVal *v = isel_tval_new(s, mem->dtype, ix->ncopies * ix->epc, ix);
	int64_t align = 0;
	bool swz = st->swz.row_bytes != 0;
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
				while (w > 1 && (w > per - d || pow2_dividing(at, CHUNK_BYTES) < 4 * w || align < 4 * w))
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
