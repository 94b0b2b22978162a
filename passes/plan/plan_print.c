/* plan_print.c — the loop plan as text (`wavecc compile --dump-plan`).
 *
 * One line for the kernel, then per loop (graph order) its pipelining, LDS
 * buffers and split, the second iterate of a split loop (split.c), then one line per read the plan moves, fuses or
 * stages through LDS (its tile and where it lies), per allocation (where
 * it lies) and per folded mask, each naming the graph op, and the LDS the
 * tiles take. Names and symbols only, no
 * addresses or ids, so the text is the same from run to run and can be a
 * golden test's expectation:
 *     plan: schedule prefetch (yields), swizzle on, licm on, light none
 *     loop mma_loop over K: prefetch, 1 LDS buffer, staged; split at floor(K/64) - 2 (floor(K/64) whole tiles)
 *       read a: staged, box M 64 x K 32, chunks of 8, 4608 B padded or 4096 B swizzled; at 0 padded
 *     (a block-loaded tile, lds_tiles.c: "chunks of 4 in blocks of 4 rows")
 *       tail mma_loop: trips from floor(K/64) - 2, continues the pipeline
 *       read b: prefetched
 *     mask k2_mask: true
 *     lds: 4608 B, 0 regions swizzled */
#include "plan.h"

static const char *const light_name[] = {"none", "unpeeled", "two_buffers", "one_buffer", "unpiped", "plain"};
static const char *const pipe_name[] = {"none", "prefetch", "four_stage"};

static const char *op_label(const Op *op)
{
	return op->name ? op->name : op_name(op->kind);
}

/* A staged read's LDS tile: the box, the chunks of its cooperative load,
 * the bytes of a buffer padded and, where it can be, swizzled; where it
 * lies (lds_place.c). */
static void print_tile(Buf *b, const PlanTile *t, const PlanLds *pl, int depth)
{
	buf_printf(b, "%*sread %s: staged", 2 * depth, "", op_label(t->op));
	if (t->error) {
		buf_printf(b, ", cannot be: %s\n", t->error);
		return;
	}
	buf_printf(b, ", box ");
	for (int i = 0; i < t->rank; i++)
		buf_printf(b, "%s%s %lld", i ? " x " : "", sym_name(t->dims[i]), (long long)t->extent[i]);
	buf_printf(b, ", chunks of %lld", (long long)t->vec);
	if (t->tb) /* lds_tiles.c's block load: tb rows a lane, written transposed */
		buf_printf(b, " in blocks of %d rows", t->tb);
	buf_printf(b, ", %lld B padded", (long long)t->bytes[0]);
	if (t->swz.row_bytes)
		buf_printf(b, " or %lld B swizzled", (long long)t->bytes[1]);
	if (pl->nbuf)
		buf_printf(b, "; at %d %s%s", pl->base, pl->layout ? "swizzled" : "padded",
			pl->nbuf > 1 ? ", 2 buffers" : "");
	else if (pl->error)
		buf_printf(b, "; not placed: %s", pl->error);
	buf_printf(b, "\n");
}

/* The reads of region r (and the regions in it) the plan decided about,
 * and its allocations. */
static void print_reads(Buf *b, const Plan *p, const Region *r, int depth)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		uint8_t d = op->id < p->nops ? p->read[op->id] : 0;
		const PlanTile *t = op->id < p->nops ? p->tile[op->id] : NULL;
		if (d)
			buf_printf(b, "%*sread %s:%s%s%s\n", 2 * depth, "", op_label(op),
				d & PLAN_READ_PREFETCHED ? " prefetched" : "", d & PLAN_READ_HOISTED ? " hoisted" : "",
				d & PLAN_READ_FUSED ? " fused into its bitcast" : "");
		if (t)
			print_tile(b, t, &p->lds[op->id], depth);
		if (op->kind == OP_ALLOCATE && p->lds && p->lds[op->id].nbuf)
			buf_printf(b, "%*sallocate %s: at %d, %lld B\n", 2 * depth, "", op_label(op), p->lds[op->id].base,
				(long long)p->lds[op->id].buf_bytes);
		if (op->body && !plan_loop(p, op) && !op->cont) /* a planned loop prints its own, and its tail's */
			print_reads(b, p, op->body, depth);
	}
}

static void print_masks(Buf *b, const Plan *p, const Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (op->kind == OP_APPLY_EXPR && p->konst[op_result((Op *)op)->id])
			buf_printf(b, "mask %s: %s\n", op_label(op), p->konst[op_result((Op *)op)->id] == 2 ? "true" : "false");
		if (op->body && !op->cont) /* a split's tail: its main loop's masks */
			print_masks(b, p, op->body);
	}
}

void plan_print(Buf *b, const Analysis *c, const Plan *p)
{
	SymCtx *sc = c->k->sc;
	buf_printf(b, "plan: schedule %s%s, swizzle %s, licm %s, light %s\n", kernel_schedule_name(p->schedule),
		p->yields ? " (yields)" : "", p->swizzle ? "on" : "off", p->licm ? "on" : "off", light_name[p->light]);
	print_reads(b, p, c->k->body, 0);
	for (int i = 0; i < p->nloops; i++) {
		const LoopPlan *lp = &p->loop[i];
		buf_printf(b, "loop %s over %s: %s", op_label(lp->op), sym_name(lp->t->dim), pipe_name[lp->pipe]);
		if (lp->pipe != PIPE_NONE && lp->staged)
			buf_printf(b, ", %d LDS buffer%s", lp->lds_stages, lp->lds_stages == 1 ? "" : "s");
		if (lp->staged)
			buf_printf(b, ", staged");
		if (lp->peel && lp->split && lp->diag)
			buf_printf(b, "; split at the diagonal, %s", sym_str(sc, lp->split));
		else if (lp->peel && lp->split)
			buf_printf(b, "; split at %s (%s whole tiles)", sym_str(sc, lp->split), sym_str(sc, lp->whole));
		const Op *ahead = plan_ahead_mma(p, lp->op);
		if (ahead)
			buf_printf(b, "; %s a trip ahead", op_label(ahead));
		buf_printf(b, "\n");
		if (lp->op->tail) /* split.c: the second iterate */
			buf_printf(b, "  tail %s: trips from %s%s\n", op_label(lp->op->tail), sym_str(sc, lp->split),
				lp->pipe != PIPE_NONE ? ", continues the pipeline" : "");
		print_reads(b, p, lp->op->body, 1);
	}
	print_masks(b, p, c->k->body);
	if (p->lds_bytes) {
		buf_printf(b, "lds: %d B, %d region%s swizzled", p->lds_bytes, p->swizzled,
			p->swizzled == 1 ? "" : "s");
		if (p->swizzled)
			buf_printf(b, p->lds_padded > c->t->lds_bytes ? " (padded: over the LDS)" : " (padded: %d B)",
				p->lds_padded);
		buf_printf(b, "\n");
	}
}
