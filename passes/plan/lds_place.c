/* lds_place.c — where the whole kernel's LDS lies: each staged tile's
 * offset, the buffers a pipelined loop's tiles get and the layout of each
 * region's tiles, and each allocation's offset (Wave's tkw.allocate; a
 * step of plan_loops, done again for every lighter plan). Selection
 * (isel/lds_stage.c, isel/local.c) places them where this says.
 *
 * Algorithm: one walk over the regions in selection order (isel.c's:
 * the kernel body, then each op's nested regions; a loop of no trips, one
 * over a dim an enclosing loop has and a conditional whose condition is
 * false are not selected), with the LDS stack of tiles as its state: a
 * region's tiles are placed when it is entered, one after the other from
 * the stack's top, an allocation where its op is (its bytes at a 16-byte
 * boundary, and the bytes out-of-bounds lanes address: isel/local.c), and
 * both are freed when the region ends (two loops in a row share one set
 * of tiles).
 *   1. A pipelined loop's body (the plan's pipe): its tiles get the
 *      buffers the loop asks for, one buffer each where two of every tile
 *      do not fit in the target's LDS (then four_stage, which needs two,
 *      gives way to prefetch);
 *   2. the layout: every region's tiles are placed rows padded first;
 *      where the unpadded, swizzled layout of the tiles that have one
 *      gains a workgroup per CU (the LDS the tiles took so far, with and
 *      without the padding they save: plan_lds_workgroups_per_cu), or
 *      where a pipelined loop's tiles fit only unpadded, and the plan
 *      allows swizzling, they are placed again unpadded. A plain
 *      region's padded placement may run past the LDS (only to compare).
 *      On gfx950 under Wave's use_global_to_shared, a tile of a region
 *      that is neither a pipelined loop's body nor a conditional's, whose
 *      cooperative load can go straight to LDS (lds_tr.c), is unpadded and
 *      not swizzled (layout 2);
 *   3. a tile that cannot be staged, or that does not fit, gets its
 *      message (PlanLds.error; isel reports it at the read, in the order
 *      of the kernel's ops) and the walk stops placing.
 * Selection's own LDS (cross-wave slots, values moved between layouts:
 * known where they are selected, not here) goes on its stack past the
 * tiles live where it is taken; a later region's tiles may then lie on it.
 * That space is dead once its op is done (each op reads back what it
 * wrote before the next begins), and selection writes such tiles after an
 * s_barrier, as it does space a region that ended used
 * (tests/driver/data/gemm_reduce_before_loop.json). */
#include <string.h>

#include "plan.h"

typedef struct LdsWalk {
	Analysis *c;
	Plan *p;
	int cond;    /* conditional bodies around */
	int top;     /* the end of the tiles live at this point */
	int peak;    /* the most LDS the tiles took so far (the function's size so far) */
	int max;     /* the target's LDS bytes */
	bool failed; /* a tile got an error: nothing more is placed */
} LdsWalk;

/* Tile placement results. */
enum { PLACED = 0, NO_TWO = 1, NO_PADDED = 2, PLACE_FAILED = -1 };

static void fail_tile(LdsWalk *w, const Op *op, PlanLds *pl, int64_t bytes)
{
	Analysis *c = w->c;
	const PlanTile *t = w->p->tile[op->id];
	const Value *mem = op->args[0];
	bool can = t->swz.row_bytes != 0;
	Buf box = {0}, which = {0};
	for (int i = 0; i < t->rank; i++) {
		buf_printf(&box, "%s%s %lld", i ? " x " : "", sym_name(t->dims[i]), (long long)t->extent[i]);
		/* the constraints whose tiles make the box: what to shrink */
		for (size_t j = 0; j < c->k->cons.len; j++) {
			const Constraint *k = &c->k->cons.data[j];
			if ((k->kind == CON_WORKGROUP || k->kind == CON_TILING) && k->dim == t->dims[i] && k->path)
				buf_printf(&which, "%s%s.tile (%s, along %s)", which.len ? ", " : ": ", k->path,
					k->kind == CON_WORKGROUP ? "workgroup" : "tiling", sym_name(k->dim));
		}
	}
	pl->error = arena_printf(&c->arena,
		"%s: staging %s in LDS takes %lld bytes (%s), %d already allocated: over the %d KiB of LDS; its box is "
		"%s elements of %s: use smaller tiles along these dims%s",
		op->path, mem->name, (long long)bytes,
		pl->layout == 2 ? "unpadded" : pl->layout ? "unpadded, swizzled"
		: can && w->p->swizzle ? "rows padded; unpadded it would not fit either"
				       : "rows padded by 8 bytes",
		w->top, w->max / 1024, buf_cstr(&box), dtype_name(mem->dtype), buf_cstr(&which));
	buf_free(&box);
	buf_free(&which);
}

/* Staged read op's tile in nbuf buffers, unpadded where `swizzle` and the
 * tile has that layout; *saving adds the bytes the unpadded layout would
 * save. trial: a padded placement only to compare, which may run past the
 * LDS; piped: a pipelined loop's, which may fit unpadded. */
static int place_tile(LdsWalk *w, const Op *op, int nbuf, bool swizzle, bool trial, bool piped, int64_t *saving)
{
	const PlanTile *t = w->p->tile[op->id];
	PlanLds *pl = &w->p->lds[op->id];
	*pl = (PlanLds){.base = -1, .nbuf = nbuf};
	if (!t)
		die("staged read %s has no tile in the plan", op->name);
	if (t->error) {
		pl->error = t->error;
		return PLACE_FAILED;
	}
	/* gfx950's direct-to-LDS loads write the unpadded layout unswizzled */
	bool dma = !piped && !w->cond && w->c->opts.global_to_shared && plan_tile_dma(w->c, t);
	bool can = t->swz.row_bytes != 0 && !dma;
	pl->layout = dma ? 2 : can && swizzle;
	pl->buf_bytes = t->bytes[pl->layout ? 1 : 0];
	int64_t bytes = pl->buf_bytes * nbuf;
	if (can && !swizzle)
		*saving += (t->bytes[0] - t->bytes[1]) * nbuf;
	if (bytes <= w->max && w->top + bytes <= w->max) {
		pl->base = w->top;
		w->top += (int)bytes;
	} else if (trial) {
		pl->base = w->top;
		w->top += (int)MIN(bytes, 4 * (int64_t)w->max);
	} else if (nbuf > 1)
		return NO_TWO;
	else if (piped && !swizzle && w->p->swizzle)
		return NO_PADDED;
	else {
		fail_tile(w, op, pl, bytes);
		return PLACE_FAILED;
	}
	w->peak = MAX(w->peak, w->top);
	return PLACED;
}

/* Every staged read of r, in order, until one is not placed. */
static int place_region(LdsWalk *w, const Region *r, int nbuf, bool swizzle, bool trial, bool piped, int64_t *saving)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (!plan_staged_read(w->c, op))
			continue;
		int rc = place_tile(w, op, nbuf, swizzle, trial, piped, saving);
		if (rc != PLACED)
			return rc;
	}
	return PLACED;
}

/* After placing tiles padded from a function size of peak: would the
 * unpadded layout (saving bytes less) let more workgroups share a CU? */
static bool swizzle_pays(const LdsWalk *w, int peak, int64_t saving)
{
	if (!w->p->swizzle || saving <= 0)
		return false;
	int64_t unpadded = MAX(peak, w->top - saving);
	return plan_lds_workgroups_per_cu(unpadded, w->max) > plan_lds_workgroups_per_cu(w->peak, w->max);
}

/* The placement started from top and peak is undone. */
static void undo(LdsWalk *w, int top, int peak)
{
	w->top = top;
	w->peak = peak;
}

/* Steps 2 and 3 for a region that is not a pipelined loop's body. */
static void stage_plain(LdsWalk *w, const Region *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->ops.len; i++)
		n += plan_staged_read(w->c, r->ops.data[i]);
	if (!n)
		return;
	int top = w->top, peak = w->peak;
	int64_t saving = 0;
	if (place_region(w, r, 1, false, w->p->swizzle, false, &saving) != PLACED) {
		w->failed = true;
		return;
	}
	bool swz = swizzle_pays(w, peak, saving);
	if (swz) {
		w->p->swizzled++;
		w->p->lds_padded = MAX(w->p->lds_padded, w->peak);
	}
	undo(w, top, peak);
	w->failed = place_region(w, r, 1, swz, false, false, &saving) != PLACED;
}

/* Steps 1 to 3 for the body r of loop lp, pipelined. */
static void stage_piped(LdsWalk *w, const Region *r, LoopPlan *lp)
{
	int top = w->top, peak = w->peak;
	int nbuf = lp->lds_stages > 1 ? 2 : 1;
	int64_t saving = 0;
	int rc = place_region(w, r, nbuf, false, false, true, &saving);
	if (rc == NO_TWO) { /* again with one buffer per tile */
		undo(w, top, peak);
		nbuf = 1;
		saving = 0;
		rc = place_region(w, r, nbuf, false, false, true, &saving);
	}
	bool over = rc == NO_PADDED; /* padded does not fit: unpadded or not at all */
	if (over || (rc == PLACED && swizzle_pays(w, peak, saving))) {
		w->p->swizzled++;
		w->p->lds_padded = MAX(w->p->lds_padded, over ? w->max + 1 : w->peak);
		undo(w, top, peak);
		rc = place_region(w, r, nbuf, true, false, true, &saving);
	}
	w->failed = rc != PLACED;
	if (lp->staged) {
		lp->lds_stages = nbuf;
		/* four_stage reads the next trip's tiles from the other buffer */
		if (lp->pipe == PIPE_FOUR_STAGE && nbuf != 2)
			lp->pipe = PIPE_PREFETCH;
	}
}

/* Does conditional op's condition, an expression of symbols, decide that
 * its body never runs (isel/control.c selects no such body)? */
static bool never_runs(const LdsWalk *w, const Op *op)
{
	if (!op->expr)
		return false;
	Analysis *c = w->c;
	Sym *e = sym_simplify(c->k->sc, kernel_subs(c->k, op->expr), c->assume);
	int64_t v;
	return sym_kind(e) == SYM_FALSE || (sym_is_int(e, &v) && !v);
}

/* The region of r's op's body, if selection selects it: an iterate over a
 * dim with a tiling loop of trips, not inside a loop over the same dim and
 * not a split loop's tail, or a conditional whose condition may hold. */
static const Region *selected_body(const LdsWalk *w, const Op *op)
{
	if (op->kind == OP_CONDITIONAL)
		return never_runs(w, op) ? NULL : op->body;
	if (op->kind != OP_ITERATE || op->cont) /* a split's tail: its tiles are the main loop's (split.c) */
		return NULL;
	const TileLoop *t = analysis_tile(w->c, op->dim);
	if (!t || t->trips == 0)
		return NULL;
	for (const Region *r = op->parent; r && r->owner; r = r->parent)
		if (r->owner->dim == op->dim)
			return NULL;
	return op->body;
}

/* An allocation's extent along dim i of its value (a compile-time integer
 * in [1, lds]); false where isel/local.c reports it. */
static bool alloc_extent(const LdsWalk *w, const Op *a, int i, int64_t *ext)
{
	Sym *e = kernel_subs(w->c->k, a->alloc_ext[i]);
	const Value *v = op_result((Op *)a);
	return sym_is_int(e, ext) && *ext >= 1 && *ext <= w->max && (i < v->shape.rank - 1 || *ext > a->padding);
}

/* Allocation op on the stack: its distributed shape's bytes at a 16-byte
 * boundary, then PLAN_LOCAL_TRASH_BYTES per wave and 16 more, which lanes
 * out of bounds address. Nothing is placed (and the walk stops) where
 * isel/local.c rejects the allocation. */
static void place_alloc(LdsWalk *w, const Op *a)
{
	Analysis *c = w->c;
	PlanLds *pl = &w->p->lds[a->id];
	*pl = (PlanLds){.base = -1};
	const Value *v = op_result((Op *)a);
	int64_t bytes = dtype_size(v->dtype), ext;
	w->failed = true;
	if ((bytes != 4 && bytes != 2) || v->shape.rank > MAX_DIMS)
		return;
	for (int i = 0; i < v->shape.rank; i++)
		if (!alloc_extent(w, a, i, &ext) || (bytes *= ext) > w->max)
			return;
	int pad = (16 - w->top % 16) % 16;
	int waves = (c->wg_size[0] * c->wg_size[1] * c->wg_size[2] + 63) / 64;
	int64_t want = pad + ((bytes + 15) & ~15) + PLAN_LOCAL_TRASH_BYTES * (waves + 1);
	if (want > w->max || w->top + want > w->max) {
		pl->error = arena_printf(&c->arena, "%s: allocation %s (%lld bytes) does not fit in the LDS left (%d of %d "
						    "bytes in use here)",
			a->path, v->name, (long long)bytes, w->top, w->max);
		return;
	}
	w->failed = false;
	*pl = (PlanLds){.base = w->top + pad, .nbuf = 1, .buf_bytes = want - pad};
	w->top += (int)want;
	w->peak = MAX(w->peak, w->top);
}

static void walk_region(LdsWalk *w, const Region *r)
{
	int base = w->top;
	LoopPlan *lp = r->owner ? plan_loop(w->p, r->owner) : NULL;
	if (lp && lp->pipe != PIPE_NONE)
		stage_piped(w, r, lp);
	else
		stage_plain(w, r);
	for (size_t i = 0; i < r->ops.len && !w->failed; i++) {
		const Op *op = r->ops.data[i];
		if (op->kind == OP_ALLOCATE)
			place_alloc(w, op);
		const Region *body = selected_body(w, op);
		w->cond += op->kind == OP_CONDITIONAL;
		if (body)
			walk_region(w, body);
		w->cond -= op->kind == OP_CONDITIONAL;
	}
	w->top = base;
}

void plan_place_lds(Analysis *c, Plan *p)
{
	p->swizzled = 0;
	p->lds_padded = 0;
	memset(p->lds, 0, sizeof *p->lds * (size_t)(p->nops + 1));
	LdsWalk w = {.c = c, .p = p, .max = c->t->lds_bytes};
	walk_region(&w, c->k->body);
	p->lds_bytes = w.peak;
}
