/* lds_tiles.c — the LDS tiles of the plan: for each read of a shared tensor
 * that is staged through LDS (Wave's `promote`), the workgroup's box of the
 * tensor, the cooperative load that fills it, and its two layouts (a step
 * of plan_loops; isel/lds_stage.c allocates the tiles, picks a layout and
 * emits the loads, barriers, writes and reads).
 *
 * A read of a tensor whose address space is shared means what a read of it
 * in global memory means; the compiler stages the workgroup's part of the
 * tensor in LDS and each wave reads its elements from there, so
 * neighbouring waves that need the same rows fetch them from global memory
 * once per workgroup.
 *
 * Algorithm, per staged read R (plan_staged_read):
 *   1. The box. Per dim of the memory (of the register, for a mapped R):
 *      start = the workgroup's and, inside the loop over the dim, the
 *      trip's first coordinate (the constraint starts without the wave
 *      part); extent = the workgroup tile, the loop tile, or the whole dim,
 *      widened to every coordinate R's elements reach (interval bounds of
 *      coord - start; a K copy past a short loop tile reaches into the next
 *      tile, whose lanes mma.c zeroes). A coordinate below the start is an
 *      error. The box is a cache of global memory: LDS holds global[start +
 *      rel] for every rel in it (0 past the tensor), so R reads exactly
 *      what it would read from global memory.
 *   2. The cooperative load: the box, in row-major order, is cut into
 *      chunks of `vec` contiguous elements (16 bytes at most, fewer when
 *      the fast dim or the tensor's row length is not a multiple, so that
 *      each chunk is valid or masked as a whole); all threads of the
 *      workgroup take consecutive chunks, round after round. A round is a
 *      constant step along one dim when the workgroup's chunks fill whole
 *      rows (or whole rounds fit in a row), which makes the load an
 *      ordinary NodeIndex read (gx). When the threads cover no whole rows
 *      or rounds, the fast dim grows up to the next power of two (the extra
 *      columns are loaded, 0 past the tensor, and never read); where the
 *      fast dims hold one element (a batch dim last), the innermost dim of
 *      more than one does. A mapped
 *      read takes the chunk size that loads the fewest elements; a mapped
 *      16-bit read whose register row runs across the memory's rows
 *      (attention's V) is loaded in blocks instead where one round covers
 *      the box (tb_index: each lane 4 or 2 rows of a chunk along the
 *      memory's row, joined into the LDS rows' dwords as they are written).
 *   3. The layouts: row-major over the box, each row of the fastest dim
 *      padded by 8 bytes (layout 0: a box row of 16·m bytes then has a
 *      stride of 4·m' + 2 dwords, so the 16 or 32 rows an MFMA operand read
 *      takes from one column group land on 16 distinct even bank pairs, no
 *      bank conflicts for ds_read_b64), or unpadded (layout 1), which
 *      lds_layout.c's XOR swizzle keeps conflict-free where it applies:
 *      rows of a width it takes, elements of at most a dword, and few
 *      enough address registers for the cooperative writes and the read's
 *      own index (PlanTile.swz; row_bytes 0: layout 0 only).
 * What cannot be staged is recorded (PlanTile.error) and reported where
 * selection stages the read, so the order of a kernel's errors is the
 * order of its ops. */
#include <string.h>

#include "lds_layout.h"
#include "plan.h"

enum { ROW_PAD_BYTES = 8, WIDE_PAD_BYTES = 16, CHUNK_BYTES = 16, SWZ_MAX_BASES = 16 };

static bool feeds_scaled_operand(const Region *r, const Value *v);

/* The row padding of layout 0: 8 bytes, or 16 for a tile whose lanes read
 * 16 bytes of a row at once as a scaled MMA's lhs or rhs (gfx950's f4
 * operands: 32 k a lane). Rows of 16·m + 16 bytes keep every row's chunk
 * 16-byte aligned, so the read is one ds_read_b128 into the operand's own
 * tuple (with 8 bytes, two ds_read_b64 and four copies), and 8 lanes at
 * one column land on 8 distinct groups of 4 banks: no conflict. */
static int64_t row_pad_bytes(const Analysis *c, const Op *op, const PlanTile *t)
{
	const NodeIndex *ix = c->index[op->id];
	if (ix && ix->epc * t->es >= WIDE_PAD_BYTES && feeds_scaled_operand(c->k->body, op_result(op)))
		return WIDE_PAD_BYTES;
	return ROW_PAD_BYTES;
}

/* e as an integer into *v, or the message analysis_int would give into
 * t->error. */
static bool tile_int(Analysis *c, PlanTile *t, Sym *e, const char *what, int64_t *v)
{
	Sym *x = kernel_subs(c->k, e);
	if (sym_is_int(x, v))
		return true;
	if (sym_is_error(x))
		t->error = arena_printf(&c->arena, "%s (%s) cannot be evaluated: %s", what, sym_str(c->k->sc, e),
			sym_error_msg(x));
	else
		t->error = arena_printf(&c->arena, "%s is %s, not a compile-time integer (a runtime size is taken only "
						   "as a dim's extent under a workgroup or tiling constraint; bind the "
						   "symbol with -D)",
			what, sym_str(c->k->sc, x));
	return false;
}

static const TileLoop *loop_over(Analysis *c, const Op *op, const Sym *dim)
{
	for (Region *r = op->parent; r && r->owner; r = r->parent)
		if (r->owner->dim == dim)
			return analysis_tile(c, dim);
	return NULL;
}

static bool box_index(Analysis *c, const Op *op, const Value *mem, const NodeIndex *ix, int i, PlanTile *st, Sym *start,
	int64_t ext);

/* The window start of loop t's trip that read op reads: its base, a trip
 * on where qk_ahead.c moved the read ahead (Analysis.ahead). */
static Sym *read_base(Analysis *c, const Op *op, const TileLoop *t)
{
	SymCtx *sc = c->k->sc;
	if (!c->ahead || !c->ahead[op->id])
		return t->base;
	Sym *iv = t->iv, *to = sym_add(sc, t->iv, sym_int(sc, c->ahead[op->id]));
	return sym_subs(sc, t->base, 1, &iv, &to);
}

/* Step 1 for dim i of the read. */
static bool box_dim(Analysis *c, const Op *op, const Value *mem, const NodeIndex *ix, int i, PlanTile *st)
{
	SymCtx *sc = c->k->sc;
	Sym *dim = st->dims[i];
	const DimDist *d = analysis_dist(c, dim);
	const TileLoop *t = loop_over(c, op, dim);
	Sym *start = sym_int(sc, 0);
	/* an alias of a multiple p/q of a tiled or distributed dim (K/2 of
	 * packed MX operands, K/32 of their scales): that dim's tile, scaled,
	 * where it scales to whole elements */
	const Sym *base;
	int64_t p = 1, q = 1;
	if (!d && !t && analysis_alias_of(c, dim, &base, &p, &q)) {
		const DimDist *bd = analysis_dist(c, base);
		const TileLoop *bt = loop_over(c, op, base);
		int64_t bext = bd && bt ? MIN(bd->wg_tile, bt->tile) : bd ? bd->wg_tile : bt ? bt->tile : 0;
		if (bext > 0 && (bext * p) % q == 0) {
			Sym *bs = sym_add(sc, bd ? bd->wg_start : sym_int(sc, 0), bt ? read_base(c, op, bt) : sym_int(sc, 0));
			start = sym_simplify(sc, sym_div(sc, sym_mul(sc, bs, sym_int(sc, p)), sym_int(sc, q)), c->assume);
			int64_t ext = bext * p / q;
			return box_index(c, op, mem, ix, i, st, start, ext);
		}
	}
	/* a runtime extent needs a tile: a workgroup or loop constraint */
	int64_t ext = 0;
	if (!d && !t && !tile_int(c, st, dim, sym_name(dim), &ext))
		return false;
	if (d) {
		start = sym_add(sc, start, d->wg_start);
		ext = d->wg_tile;
	}
	if (t) {
		start = sym_add(sc, start, read_base(c, op, t));
		ext = d ? MIN(ext, t->tile) : t->tile;
	}
	return box_index(c, op, mem, ix, i, st, sym_simplify(sc, start, c->assume), ext);
}

/* Step 1's check of the read's index against the box [start, start + ext)
 * along dim i (the box grows to what the index reaches). */
static bool box_index(Analysis *c, const Op *op, const Value *mem, const NodeIndex *ix, int i, PlanTile *st, Sym *start,
	int64_t ext)
{
	SymCtx *sc = c->k->sc;
	Sym *dim = st->dims[i];
	int pos = -1;
	for (int k = 0; k < ix->ndims; k++)
		if (ix->d[k].dim == dim)
			pos = k;
	if (pos < 0) {
		st->error = arena_printf(&c->arena, "%s: dim %s of %s has no index", op->path, sym_name(dim), mem->name);
		return false;
	}
	for (int64_t cn = 0; cn < ix->ncopies; cn++)
		for (int64_t j = 0; j < ix->epc; j++) {
			Sym *rel = sym_simplify(sc, sym_sub(sc, index_coord(c, ix, pos, cn, j), start), c->assume);
			SymBound b = sym_bounds(sc, rel, c->assume);
			if (!b.has_lo || !b.has_hi || b.lo.p < 0 || b.hi.q != 1 || b.hi.p > INT32_MAX) {
				st->error = arena_printf(&c->arena, "%s: staging %s in LDS: along %s the read reaches %s, "
								    "outside the workgroup's tile from %s: not compiled yet",
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
static bool coop_index(Analysis *c, const PlanTile *st, int64_t vec, NodeIndex *gx, int64_t *rows)
{
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


int64_t plan_pow2_dividing(int64_t v, int64_t cap)
{
	int64_t p = 1;
	while (p < cap && (v == 0 || v % (2 * p) == 0))
		p *= 2;
	return p;
}

/* The coordinate along box dim i of element j of copy cn of ix (which
 * indexes the box's dims), relative to the box's start. */
static Sym *box_rel(Analysis *c, const PlanTile *t, const NodeIndex *ix, int i, int64_t cn, int64_t j)
{
	int pos = 0;
	for (int k = 0; k < ix->ndims; k++)
		if (ix->d[k].dim == t->dims[i])
			pos = k;
	return sym_sub(c->k->sc, index_coord(c, ix, pos, cn, j), t->start[i]);
}

Sym *plan_tile_elem(Analysis *c, const PlanTile *t, int layout, const NodeIndex *ix, int64_t cn, int64_t j)
{
	SymCtx *sc = c->k->sc;
	Sym *lin = sym_int(sc, 0);
	for (int i = 0; i < t->rank; i++)
		lin = sym_add(sc, lin, sym_mul(sc, box_rel(c, t, ix, i, cn, j), sym_int(sc, t->stride[layout][i])));
	return sym_simplify(sc, lin, c->assume);
}

Sym *plan_tile_swz_elem(Analysis *c, const PlanTile *t, const NodeIndex *ix, int64_t cn, int64_t j, int64_t *align)
{
	SymCtx *sc = c->k->sc;
	int last = t->rank - 1, es = t->es;
	Sym *row = sym_int(sc, 0);
	for (int i = 0; i < last; i++)
		row = sym_add(sc, row,
			sym_mul(sc, box_rel(c, t, ix, i, cn, j), sym_int(sc, t->stride[1][i] / t->extent[last])));
	Sym *colb = sym_simplify(sc, sym_mul(sc, box_rel(c, t, ix, last, cn, j), sym_int(sc, es)), c->assume);
	*align = plan_pow2_dividing(sym_multiple_of(sc, colb, c->assume), LDS_GRANULE);
	return plan_lds_swizzle_offset(sc, &t->swz, sym_simplify(sc, row, c->assume), colb, c->assume);
}

int plan_tile_swz_match(Analysis *c, Sym *const *at, int n, Sym *x, int64_t *d)
{
	for (int k = 0; k < n; k++)
		if (sym_is_int(sym_simplify(c->k->sc, sym_sub(c->k->sc, x, at[k]), c->assume), d) && *d >= 0)
			return k;
	return -1;
}

/* How many address bases the swizzled accesses of ix need (an estimate:
 * every element counted), at most SWZ_MAX_BASES + 1. */
static int swz_bases_needed(Analysis *c, const PlanTile *t, const NodeIndex *ix)
{
	Sym *at[SWZ_MAX_BASES];
	int n = 0;
	for (int64_t cn = 0; cn < ix->ncopies; cn++)
		for (int64_t j = 0; j < ix->epc; j++) {
			int64_t d, align;
			Sym *x = plan_tile_swz_elem(c, t, ix, cn, j, &align);
			if (plan_tile_swz_match(c, at, n, x, &d) < 0) {
				if (n == SWZ_MAX_BASES)
					return SWZ_MAX_BASES + 1;
				at[n++] = x;
			}
		}
	return n;
}

/* Step 3's strides of layout (0: rows along the outermost dim >1 padded
 * by pad elements, but a one-row box; 1: unpadded); the tile's bytes, a
 * multiple of 16. */
static int64_t layout_box(PlanTile *t, int layout, int64_t pad)
{
	int last = t->rank - 1, o = last;
	for (int i = 0; i < t->rank; i++)
		if (t->extent[i] > 1) {
			o = i;
			break;
		}
	int64_t stride = 1;
	for (int i = last; i >= 0; i--) {
		t->stride[layout][i] = stride;
		int64_t n = i == o ? t->rows : t->extent[i];
		stride *= n;
		if (i == last && o != last)
			stride += pad;
	}
	int64_t bytes = stride * t->es;
	return (bytes + CHUNK_BYTES - 1) / CHUNK_BYTES * CHUNK_BYTES;
}

/* Can t (laid out unpadded, layout 1) be swizzled (t->swz set)? Rows of a
 * width lds_layout.c takes, elements of at most a dword, and few enough
 * address registers for the cooperative writes (gx) and the read's own
 * index. */
static bool swizzle_fits(Analysis *c, const Op *op, PlanTile *t)
{
	int last = t->rank - 1;
	const NodeIndex *ix = c->index[op->id];
	bool rows = false; /* a box of more than one row */
	for (int i = 0; i < last; i++)
		rows |= t->extent[i] > 1;
	t->swz.row_bytes = 0;
	if (!rows || t->es > 4 || !ix || !plan_lds_swizzle_for(t->extent[last] * t->es, &t->swz))
		return false;
	if (swz_bases_needed(c, t, &t->gx) > SWZ_MAX_BASES || swz_bases_needed(c, t, ix) > SWZ_MAX_BASES)
		t->swz.row_bytes = 0;
	return t->swz.row_bytes != 0;
}

/* Steps 2 and 3 for t, its box made: the chunk size, the cooperative
 * load's index, the layouts. mapped: the box is over the register's dims. */
static bool chunk_and_lay_out(Analysis *c, const Op *op, const Value *mem, PlanTile *t, bool mapped)
{
	int last = t->rank - 1;
	/* a runtime row length is not known to be a multiple of a chunk: one
	 * element per chunk, each with its own bound */
	Sym *rt_last = analysis_runtime(c, t->dims[last]);
	int64_t size_last = 1;
	if (!rt_last && !tile_int(c, t, t->dims[last], sym_name(t->dims[last]), &size_last))
		return false;
	/* through a mapping memory.c bounds each element of a chunk on its own
	 * (a chunk's elements land anywhere in memory), so the register row's
	 * length does not limit the chunk */
	if (mapped)
		size_last = 0;
	int64_t rows = 0, vec;
	/* a chunk is valid or masked whole when the fast dim's size and the
	 * box's start along it are multiples of it */
	int64_t start_mult = sym_multiple_of(c->k->sc, t->start[last], c->assume);
	/* when the workgroup's threads cover no whole rows or rounds of the
	 * box (a 24-wide tile row in chunks of 8, 256 threads), the box grows
	 * along the fast dim up to the next power of two: it caches global
	 * memory, so the extra columns are just loaded (0 past the tensor) and
	 * never read */
	int g = last; /* the dim that grows: the fast dim, or the innermost one of
		       * more than one element when the fast dims hold one (a
		       * batch dim last: [K, N, B]) */
	while (g > 0 && t->extent[g] == 1)
		g--;
	int64_t want = t->extent[g], top = 1;
	while (top < want)
		top *= 2;
	bool found = false;
	/* a mapped read takes the chunk size that loads the fewest elements
	 * (its loads go element by element where the mapping scatters them,
	 * so a wide chunk whose last round mostly fills the tail only costs) */
	int64_t best = INT64_MAX, best_e = 0, best_vec = 0;
	for (int64_t e = want; e <= top && !found; e++) {
		t->extent[g] = e;
		for (vec = CHUNK_BYTES / t->es; vec >= 1; vec /= 2)
			if (e % vec == 0 && (vec == 1 || size_last % vec == 0) &&
				(vec == 1 || start_mult == 0 || start_mult % vec == 0) && coop_index(c, t, vec, &t->gx, &rows)) {
				if (!mapped) {
					found = true;
					break;
				}
				if (t->gx.ncopies * vec < best) {
					best = t->gx.ncopies * vec;
					best_e = e;
					best_vec = vec;
				}
			}
	}
	if (best_vec) {
		t->extent[g] = best_e;
		vec = best_vec;
		found = coop_index(c, t, vec, &t->gx, &rows);
	}
	if (!found) {
		t->extent[g] = want;
		t->error = arena_printf(&c->arena, "%s: staging %s in LDS: the workgroup's %lld threads do not cover "
						   "its tile in whole rows or rounds: not compiled yet",
			op->path, mem->name, (long long)((int64_t)c->wg_size[0] * c->wg_size[1] * c->wg_size[2]));
		return false;
	}
	t->vec = vec;
	t->rows = rows;
	t->bytes[1] = layout_box(t, 1, 0);
	swizzle_fits(c, op, t);
	t->bytes[0] = layout_box(t, 0, row_pad_bytes(c, op, t) / t->es);
	return true;
}

/* Does v feed an MMA as its lhs or rhs, in region r or one nested in it? */
static bool feeds_mma(const Region *r, const Value *v)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (op->kind == OP_MMA && (op->args[0] == v || op->args[1] == v))
			return true;
		/* a scaled_mma's operands and scales (gfx950) */
		if (op->kind == OP_SCALED_MMA && (op->args[0] == v || op->args[1] == v || op->args[2] == v || op->args[3] == v))
			return true;
		if (op->body && feeds_mma(op->body, v))
			return true;
	}
	return false;
}

/* Is v (or a bitcast of it) a scaled MMA's lhs or rhs, in region r or one
 * nested in it? */
static bool feeds_scaled_operand(const Region *r, const Value *v)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (op->kind == OP_SCALED_MMA && (op->args[0] == v || op->args[2] == v))
			return true;
		if (op->kind == OP_BITCAST && op->args[0] == v && feeds_scaled_operand(r, op_result(op)))
			return true;
		if (op->body && feeds_scaled_operand(op->body, v))
			return true;
	}
	return false;
}

bool plan_staged_read(const Analysis *c, const Op *op)
{
	/* an allocation is LDS already (isel/local.c) */
	if (op->kind != OP_READ || op->args[0]->space == AS_GLOBAL || value_is_local(op->args[0]) || !c->index[op->id])
		return false;
	return !op->mapping || (!op->mapping->ndyn && feeds_mma(op->parent, op_result(op)));
}

static bool reorders_dims(const Mapping *m);

/* Does every block-loaded column's row k lie k elements past its row 0 in
 * layout 0 (swz: k·es bytes in the swizzled layout), as the block writes
 * take them (one DS write per column)? */
static bool tb_rows_next(Analysis *c, const PlanTile *t, const NodeIndex *gx, int64_t rows, int64_t cN, bool swz)
{
	SymCtx *sc = c->k->sc;
	for (int64_t cc = 0; cc < cN; cc++)
		for (int64_t j = 0; j < gx->epc; j++)
			for (int64_t k = 1; k < rows; k++) {
				int64_t d, al;
				Sym *x0 = swz ? plan_tile_swz_elem(c, t, gx, cc, j, &al) : plan_tile_elem(c, t, 0, gx, cc, j);
				Sym *xk = swz ? plan_tile_swz_elem(c, t, gx, k * cN + cc, j, &al)
					      : plan_tile_elem(c, t, 0, gx, k * cN + cc, j);
				if (!sym_is_int(sym_simplify(sc, sym_sub(sc, xk, x0), c->assume), &d) ||
					d != (swz ? k * t->es : k))
					return false;
			}
	return true;
}

/* Step 2's block load of a mapped 16-bit tile whose register row (dim K,
 * the box's last) runs across the memory's rows (attention's V: register
 * [N, K2], memory [K2, N]): lane (i, g) of Nv x G loads rows r·g .. r·g +
 * r - 1 of K, vec contiguous elements each at n = vec·i (cN copies vec·Nv
 * apart), as any tile load over the memory's dims (wide loads, bounded per
 * row and chunk); its writes then join each column's r elements into r/2
 * dwords (isel/lds_stage.c). One round covers the box: threads·vec·r·cN =
 * ext(N)·ext(K). Fewer loads than chunks along K (one load per element
 * there, its pairs not adjacent in memory) and the registers hold pairs. */
static void tb_index(Analysis *c, const Op *op, const Value *mem, PlanTile *t)
{
	SymCtx *sc = c->k->sc;
	int r = t->rank, last = r - 1, mr = mem->shape.rank;
	if (t->error || t->es != 2 || !reorders_dims(op->mapping) || mr != r)
		return;
	Sym *kd = t->dims[last], *nd = mem->shape.dims[mr - 1];
	if (kd == nd)
		return;
	int kp = -1, np = -1; /* box positions */
	for (int i = 0; i < r; i++) {
		if (t->dims[i] == nd)
			np = i;
		else if (t->dims[i] != kd && t->extent[i] != 1)
			return; /* other dims one element */
	}
	kp = last;
	int64_t size_n;
	if (np < 0 || analysis_runtime(c, nd) || !sym_is_int(kernel_subs(c->k, nd), &size_n))
		return;
	int64_t threads = (int64_t)c->wg_size[0] * c->wg_size[1] * c->wg_size[2];
	int64_t ek = t->extent[kp], en = t->extent[np], smult = sym_multiple_of(sc, t->start[np], c->assume);
	for (int64_t rows = 4; rows >= 2; rows /= 2)
		for (int64_t vec = 8; vec >= 2; vec /= 2) {
			if (ek % rows || threads % (ek / rows) || size_n % vec || (smult && smult % vec))
				continue;
			int64_t G = ek / rows, Nv = threads / G;
			if (en % (vec * Nv))
				continue;
			int64_t cN = en / (vec * Nv);
			if (rows * cN * vec > 4096)
				continue;
			Sym *tid = sym_add(sc, sym_symbol(sc, "$T0"),
				sym_add(sc, sym_mul(sc, sym_symbol(sc, "$T1"), sym_int(sc, c->wg_size[0])),
					sym_mul(sc, sym_symbol(sc, "$T2"), sym_int(sc, (int64_t)c->wg_size[0] * c->wg_size[1]))));
			NodeIndex tgx, *gx = &tgx;
			memset(gx, 0, sizeof *gx);
			gx->ndims = mr;
			gx->epc = vec;
			gx->ncopies = rows * cN;
			Sym *J = sym_symbol(sc, "$J");
			for (int i = 0; i < mr; i++) {
				DimIndex *di = &gx->d[i];
				di->dim = mem->shape.dims[i];
				di->size = i == mr - 1 ? vec : 1;
				di->copies = 1;
				int bp = 0;
				for (int k = 0; k < r; k++)
					if (t->dims[k] == di->dim)
						bp = k;
				di->start = t->start[bp];
				if (di->dim == kd) {
					di->start = sym_add(sc, di->start, sym_mul(sc, sym_int(sc, rows),
										sym_mod(sc, tid, sym_int(sc, G))));
					di->copies = rows;
					di->step = 1;
				} else if (di->dim == nd) {
					di->start = sym_add(sc, di->start, sym_mul(sc, sym_int(sc, vec),
										sym_floordiv(sc, tid, sym_int(sc, G))));
					di->copies = cN;
					di->step = vec * Nv;
				}
				di->start = sym_simplify(sc, di->start, c->assume);
				di->coord = di->size > 1 ? sym_add(sc, di->start, J) : di->start;
			}
			if (!tb_rows_next(c, t, gx, rows, cN, 0))
				return;
			t->gx = tgx;
			t->tb = (int)rows;
			t->vec = vec;
			return;
		}
}

static PlanTile *make_tile(Analysis *c, const Op *op, bool mapped)
{
	const Value *mem = op->args[0];
	PlanTile *t = ARENA_NEW(&c->arena, PlanTile);
	t->op = op;
	t->es = dtype_size(mem->dtype);
	if (region_writes_mem(c->k->body, mem)) {
		t->error = arena_printf(&c->arena, "%s: %s is read through LDS and also written by the kernel: not "
						   "compiled yet",
			op->path, mem->name);
		return t;
	}
	/* a mapped read's box is over its register dims (the mapping's
	 * outputs, [M, K] for conv's A): the MMA's operand reads index those */
	const Shape *box = mapped ? &op_result((Op *)op)->shape : &mem->shape;
	t->rank = box->rank;
	for (int i = 0; i < t->rank; i++)
		t->dims[i] = box->dims[i];
	for (int i = 0; i < t->rank; i++)
		if (!box_dim(c, op, mem, c->index[op->id], i, t))
			return t;
	if (chunk_and_lay_out(c, op, mem, t, mapped) && mapped) {
		tb_index(c, op, mem, t);
		/* the block writes: swizzled where each column's rows stay in one
		 * granule (an 8-byte write), else padded */
		if (t->tb && (!swizzle_fits(c, op, t) ||
				     !tb_rows_next(c, t, &t->gx, t->tb, t->gx.ncopies / t->tb, true)))
			t->swz.row_bytes = 0;
	}
	return t;
}

PlanTile *plan_tile(Analysis *c, const Op *op) { return make_tile(c, op, op->mapping != NULL); }

/* Does mapping m only reorder the dims (memory dim D indexed by the
 * iterator that indexes register dim D)? */
static bool reorders_dims(const Mapping *m)
{
	if (!m || m->ndyn || m->nin != m->nout)
		return false;
	for (int i = 0; i < m->nin; i++) {
		int k = -1;
		for (int j = 0; j < m->nout; j++)
			if (m->out_dims[j] == m->in_dims[i])
				k = j;
		if (k < 0 || m->in_exprs[i] != m->out_exprs[k] || sym_kind(m->in_exprs[i]) != SYM_SYMBOL)
			return false;
	}
	return true;
}

PlanTile *plan_tile_mem(Analysis *c, const Op *op)
{
	return reorders_dims(op->mapping) && op->args[0]->shape.rank == op_result((Op *)op)->shape.rank
		       ? make_tile(c, op, false)
		       : NULL;
}
