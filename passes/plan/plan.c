/* plan.c — plan_loops: what happens to each loop of the analysed kernel
 * and to the reads in it, decided before instruction selection (plan.h).
 *
 * Algorithm: one walk over the regions in selection order (isel.c's), with
 * the innermost loop of more than one trip, the number of such loops
 * around, the conditional bodies around and the run-time extents set so
 * far (set_symbol of a distributed dim) as its state:
 *   0. reads fused into a bitcast: a read whose one use is a bitcast to
 *      another width, in the same region, is read by the bitcast (isel's
 *      bitcast.c reads the buffer in the bitcast's dtype); it loses its
 *      index, so nothing below stages, moves or hoists it. Done for the
 *      whole kernel first;
 *   1. masks: fold_mask.c decides the boolean apply_exprs the index ranges
 *      decide;
 *   LDS tiles: on entering each region, every read of it staged through
 *      LDS (plan_staged_read) gets its tile (lds_tiles.c: the box, the
 *      cooperative load, the padded and swizzled layouts);
 *   2. each iterate of more than one trip (a loop of one trip is selected
 *      straight, one of none not at all) gets a LoopPlan:
 *      - pipelining (Wave's `schedule`: prefetch, four_stage; modulo and
 *        prefetch_attention were mapped to those by driver/options.c)
 *        where the loop is outside conditionals and its body stages
 *        shared reads through LDS or has global reads that move with the
 *        loop (those are loaded a trip ahead: PLAN_READ_PREFETCHED);
 *        four_stage where, moreover, two LDS buffers are asked for (and
 *        fit: step 4) and every staged read's value is only an MMA's lhs
 *        or rhs (the next trip's LDS reads refill the registers the MFMAs
 *        read) and its tile's address does not move with the loop (only
 *        its buffer does), else prefetch;
 *      - the split into a main loop without the bounds along the loop's
 *        dim and a masked tail (isel/peel.c translates it): an outermost
 *        loop outside conditionals over a dim with no set extent, from 0,
 *        without iters, whose body holds no writes, atomics, nested
 *        regions, set_symbols or mapped reads, with a whole tile left
 *        after the trips its loads may read ahead (3 at most: four_stage),
 *        where some read of the body has a bound along the dim that the
 *        assumptions do not prove but that holds for every trip below
 *        F = floor(S / T): the bound with the induction variable replaced
 *        by F - 1 - u, u >= 0, simplifies to True (the range [0, F) of
 *        passes/graph/trip_range.c). The main loop's own range
 *        (plan_main_range: trips [0, split), its loads up to `ahead`
 *        trips past the current one) proves the bounds selection drops;
 *   3. each global read directly in a loop's body (a loop of one trip
 *      counts, hoisting to the loop around it), outside conditionals,
 *      that a load may move (plan_movable_read), whose index does not
 *      mention the innermost loop's induction variable and whose value
 *      only MMAs read (as lhs or rhs, which never rewrite their registers)
 *      in a body that sets no symbol, and whose index mentions no loop of
 *      one trip between it and that loop, is loaded once before the
 *      innermost loop (PLAN_READ_HOISTED; Plan.hoist records where it is
 *      written and the loop, and the graph pass hoist.c moves it there);
 *   4. the LDS of the whole kernel (lds_place.c): where each tile lies,
 *      the buffers each pipelined loop's tiles get (four_stage gives way
 *      to prefetch where two do not fit) and each region's layout;
 *   5. the MMAs whose MFMAs run at raised wave priority (pingpong.c).
 * The walk runs on a graph of the view's own (plan_own_graph), as hoist.c
 * moves the ops it records.
 * plan_lighten makes the driver's lighter plans (allocate_registers): a
 * function from plan to plan, whose LDS is placed again. */
#include <string.h>

#include "plan.h"

typedef struct Walk {
	Analysis *c;
	Plan *p;
	int cap;          /* of p->loop */
	int *uses;        /* by value id */
	const Sym *iv;    /* the innermost loop of more than one trip: its induction variable ... */
	int loop;         /* ... and its plan (-1: none) */
	int hcap;         /* of p->hoist */
	int depth;        /* such loops around */
	int cond;         /* conditional bodies around */
	const Sym **extent; /* dims whose run-time extent a set_symbol set, in order */
	int nextent;
} Walk;

bool plan_movable_read(Analysis *c, const Op *op)
{
	return op->kind == OP_READ && !op->is_volatile && !op->acquire && !op->mapping && c->index[op->id] && op->args[0]->space == AS_GLOBAL &&
	       dtype_size(op->args[0]->dtype) <= 4 && !region_writes_mem(c->k->body, op->args[0]);
}

bool plan_read_moves_with(Analysis *c, const Op *op, const Sym *iv)
{
	const NodeIndex *ix = c->index[op->id];
	for (int k = 0; k < ix->ndims; k++)
		if (sym_mentions(ix->d[k].start, iv) || sym_mentions(ix->d[k].coord, iv))
			return true;
	return false;
}

/* Is every use of v in r (and the regions nested in it) an MMA's lhs or
 * rhs? With no_set: and r sets no symbol. */
static bool only_mma_operand(const Region *r, const Value *v, bool no_set)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (no_set && op->kind == OP_SET_SYMBOL)
			return false;
		for (int a = 0; a < op->nargs; a++)
			if (op->args[a] == v && !(op->kind == OP_MMA && a < 2) && !(op->kind == OP_SCALED_MMA && a < 4))
				return false;
		if (op->body && !only_mma_operand(op->body, v, no_set))
			return false;
	}
	return true;
}

/* Is every use of v in r (and below) a scaled MMA's scale, directly or
 * through a bitcast of the same width? */
static bool only_scale_operand(const Region *r, const Value *v)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		for (int a = 0; a < op->nargs; a++) {
			if (op->args[a] != v || (op->kind == OP_SCALED_MMA && (a == 1 || a == 3)))
				continue;
			if (op->kind != OP_BITCAST || !op_result(op) ||
				dtype_size(op_result(op)->dtype) != dtype_size(v->dtype) || !only_scale_operand(r, op_result(op)))
				return false;
		}
		if (op->body && !only_scale_operand(op->body, v))
			return false;
	}
	return true;
}

/* A global read prefetched a trip ahead: one a load may move, or a mapped
 * read (no dynamic values) of 8-bit scales that only scaled MMAs read
 * (Wave's preshuffled scales; isel/memory.c loads them four a dword). */
static bool prefetched_read(Analysis *c, const Region *body, const Op *x, const Sym *iv)
{
	if (x->is_volatile || x->acquire) /* read where it is written, every trip */
		return false;
	if (plan_movable_read(c, x))
		return plan_read_moves_with(c, x, iv);
	return x->kind == OP_READ && x->mapping && !x->mapping->ndyn && c->index[x->id] &&
	       x->args[0]->space == AS_GLOBAL && dtype_size(x->args[0]->dtype) == 1 &&
	       !region_writes_mem(c->k->body, x->args[0]) && plan_read_moves_with(c, x, iv) &&
	       only_scale_operand(body, op_result((Op *)x));
}

/* Step 0. */
static void fuse_bitcast_reads(Walk *w, Region *r)
{
	Analysis *c = w->c;
	for (size_t i = 0; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		if (op->body)
			fuse_bitcast_reads(w, op->body);
		if (op->kind != OP_BITCAST)
			continue;
		Value *a = op->args[0], *res = op_result(op);
		if (a->kind != VAL_RESULT || a->def->kind != OP_READ || a->def->is_volatile || a->def->acquire || a->def->mapping ||
			a->def->parent != op->parent ||
			w->uses[a->id] != 1 || dtype_size(a->dtype) == dtype_size(res->dtype) || !c->index[a->def->id] ||
			!c->index[op->id])
			continue;
		c->index[a->def->id] = NULL;
		w->p->read[a->def->id] |= PLAN_READ_FUSED;
	}
}

/* Does rel, over lp's induction variable, hold in every trip below the
 * whole tiles F (a range [0, F): passes/graph/trip_range.c)? */
static bool proved_whole(Analysis *c, const LoopPlan *lp, Sym *rel)
{
	return sym_mentions(rel, lp->t->iv) && analysis_range_proves(c, lp->t, &(TripRange){.to = lp->whole}, rel);
}

TripRange plan_main_range(const LoopPlan *lp)
{
	return (TripRange){.to = lp->split, .ahead = lp->ahead};
}

/* Ops whose selection the two loops of a split could not share (mapped
 * reads: only when the split drops bounds of loads). */
static bool body_plain(const Region *r, bool mapped)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (op->body || op_stores(op->kind) || op->kind == OP_SET_SYMBOL ||
			op->kind == OP_ITERATE || op->kind == OP_CONDITIONAL || (!mapped && op->kind == OP_READ && op->mapping))
			return false;
	}
	return true;
}

/* Is some bound along the loop's dim of a read of the body unproved, and
 * proved over the whole tiles? (The reads' own indices; staged reads load
 * their tiles through other indices over the same trips.) */
static bool masks_to_drop(Analysis *c, const LoopPlan *lp, const Region *body, Sym *size)
{
	SymCtx *sc = c->k->sc;
	for (size_t i = 0; i < body->ops.len; i++) {
		const Op *op = body->ops.data[i];
		const NodeIndex *ix = op->kind == OP_READ ? c->index[op->id] : NULL;
		for (int k = 0; ix && k < ix->ndims; k++) {
			if (ix->d[k].dim != lp->t->dim)
				continue;
			for (int64_t cn = 0; cn < ix->ncopies; cn++)
				for (int64_t j = 0; j < ix->epc; j++) {
					Sym *rel = sym_simplify(sc, sym_rel(sc, SYM_LT, index_coord(c, ix, k, cn, j), size),
						c->assume);
					if (sym_kind(rel) != SYM_TRUE && proved_whole(c, lp, rel))
						return true;
				}
		}
	}
	return false;
}

static bool extent_set(const Walk *w, const Sym *dim)
{
	for (int i = 0; i < w->nextent; i++)
		if (w->extent[i] == dim)
			return true;
	return false;
}

/* Step 2's split of loop lp (op, over t). */
static void plan_peel(Walk *w, LoopPlan *lp, const Op *op)
{
	Analysis *c = w->c;
	SymCtx *sc = c->k->sc;
	const TileLoop *t = lp->t;
	int64_t start;
	if (w->depth || w->cond || t->iters || t->tile <= 0 || !sym_is_int(t->start, &start) || start != 0 ||
		extent_set(w, t->dim) || !body_plain(op->body, true))
		return;
	Sym *size = t->size >= 0 ? sym_int(sc, t->size) : analysis_runtime(c, t->dim);
	if (!size || (t->size >= 0 && ((t->trips >= 0 && t->trips <= 1) || t->size / t->tile < 1)))
		return;
	lp->whole = sym_simplify(sc, sym_floor(sc, sym_div(sc, size, sym_int(sc, t->tile))), c->assume);
	if (!body_plain(op->body, false) || !masks_to_drop(c, lp, op->body, size)) {
		/* else causal attention's split at the diagonal (diag_split.c) */
		if (plan_diag_split(c, w->p, lp, op))
			lp->peel_unpiped = lp->peel = true;
		return;
	}
	/* a pipelined loop's loads read up to 3 trips ahead (four_stage):
	 * its main loop needs F - 3 >= 1 */
	lp->peel_unpiped = true;
	lp->peel = !lp->pipe || t->size < 0 || t->size / t->tile - 3 >= 1;
}

static void walk_region(Walk *w, Region *r);

/* The LDS tile of staged read op, made once. On gfx950 a mapped read that
 * only reorders the dims is staged as its memory lies (contiguous loads)
 * where the transposing DS reads then give each lane its elements
 * (lds_tr.c), else over its register dims. */
static PlanTile *tile_of(Walk *w, const Op *op)
{
	PlanTile **t = &w->p->tile[op->id];
	PlanTr tr;
	if (!*t && op->mapping && w->c->t && strcmp(w->c->t->name, "gfx950") == 0) {
		PlanTile *m = plan_tile_mem(w->c, op);
		if (m && !m->error && plan_tile_tr(w->c, m, 0, w->c->index[op->id], &tr)) {
			m->tr = true;
			m->swz.row_bytes = 0;
			*t = m;
		}
	}
	if (!*t)
		*t = plan_tile(w->c, op);
	return *t;
}

/* Is staged read op's LDS address the same in every trip of the loop over
 * iv (only its buffer changes)? */
static bool tile_fixed(Walk *w, const Op *op, const Sym *iv)
{
	const PlanTile *t = tile_of(w, op);
	return !t->error && !sym_mentions(plan_tile_elem(w->c, t, 0, w->c->index[op->id], 0, 0), iv);
}

/* Step 2 for one iterate. */
static void plan_iterate(Walk *w, Op *op)
{
	Analysis *c = w->c;
	TileLoop *t = analysis_tile(c, op->dim);
	if (!t)
		return;
	for (Region *r = op->parent; r && r->owner; r = r->parent)
		if (r->owner->dim == op->dim)
			return; /* isel reports it */
	if (t->trips == 0)
		return;
	if (!analysis_many(t->trips)) {
		walk_region(w, op->body);
		return;
	}
	if (w->p->nloops == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 4;
		LoopPlan *n = ARENA_NEWN(&c->arena, LoopPlan, w->cap);
		if (w->p->nloops)
			memcpy(n, w->p->loop, sizeof *n * (size_t)w->p->nloops);
		w->p->loop = n;
	}
	int idx = w->p->nloops++;
	LoopPlan *lp = &w->p->loop[idx];
	*lp = (LoopPlan){.op = op, .t = t, .lds_stages = c->opts.lds_stages};
	w->p->loop_of[op->id] = idx;
	Region *body = op->body;
	bool moves = false;
	for (size_t i = 0; i < body->ops.len; i++) {
		const Op *x = body->ops.data[i];
		lp->staged |= plan_staged_read(c, x);
		moves |= prefetched_read(c, body, x, t->iv);
	}
	ScheduleKind k = c->opts.schedule;
	if ((k == SCHED_PREFETCH || k == SCHED_FOUR_STAGE) && !w->cond && (lp->staged || moves)) {
		bool four = k == SCHED_FOUR_STAGE && lp->staged && lp->lds_stages == 2;
		for (size_t i = 0; i < body->ops.len && four; i++) {
			const Op *x = body->ops.data[i];
			four = !plan_staged_read(c, x) ||
			       (only_mma_operand(body, op_result((Op *)x), false) && tile_fixed(w, x, t->iv));
		}
		lp->pipe = four ? PIPE_FOUR_STAGE : PIPE_PREFETCH;
		for (size_t i = 0; i < body->ops.len; i++) {
			const Op *x = body->ops.data[i];
			if (prefetched_read(c, body, x, t->iv)) {
				w->p->read[x->id] |= PLAN_READ_PREFETCHED;
			}
		}
	}
	plan_peel(w, lp, op);
	const Sym *iv = w->iv;
	int loop = w->loop;
	w->iv = t->iv;
	w->loop = idx;
	w->depth++;
	walk_region(w, body);
	w->depth--;
	w->iv = iv;
	w->loop = loop;
}

/* Does read op's index mention the induction variable of a loop between
 * it and loop (loops of one trip, left with it)? */
static bool moves_with_between(Analysis *c, const Op *op, const Op *loop)
{
	for (const Region *r = op->parent; r && r->owner && r->owner != loop; r = r->parent) {
		const TileLoop *t = r->owner->kind == OP_ITERATE ? analysis_tile(c, r->owner->dim) : NULL;
		if (!t || plan_read_moves_with(c, op, t->iv))
			return true;
	}
	return false;
}

/* Step 3 for read op, the place-th op of its region. */
static void plan_hoist(Walk *w, Op *op, size_t place)
{
	Analysis *c = w->c;
	Region *body = op->parent;
	if (!w->iv || w->cond || !body || !body->owner || body->owner->kind != OP_ITERATE)
		return;
	Op *loop = (Op *)w->p->loop[w->loop].op;
	if (!plan_movable_read(c, op) || plan_read_moves_with(c, op, w->iv) ||
		!only_mma_operand(body, op_result(op), true) || moves_with_between(c, op, loop))
		return;
	w->p->read[op->id] |= PLAN_READ_HOISTED;
	if (w->p->nhoist == w->hcap) {
		w->hcap = w->hcap ? 2 * w->hcap : 4;
		PlanHoist *n = ARENA_NEWN(&c->arena, PlanHoist, w->hcap);
		if (w->p->nhoist)
			memcpy(n, w->p->hoist, sizeof *n * (size_t)w->p->nhoist);
		w->p->hoist = n;
	}
	w->p->hoist[w->p->nhoist++] = (PlanHoist){op, body, place, loop};
}

static void walk_region(Walk *w, Region *r)
{
	/* the region's staged reads: their LDS tiles (lds_tiles.c) */
	for (size_t i = 0; i < r->ops.len; i++)
		if (plan_staged_read(w->c, r->ops.data[i]))
			tile_of(w, r->ops.data[i]);
	for (size_t i = 0; i < r->ops.len && !w->c->failed; i++) {
		Op *op = r->ops.data[i];
		switch (op->kind) {
		case OP_ITERATE:
			plan_iterate(w, op);
			break;
		case OP_CONDITIONAL:
			w->cond++;
			walk_region(w, op->body);
			w->cond--;
			break;
		case OP_READ:
			plan_hoist(w, op, i);
			break;
		case OP_SET_SYMBOL:
			if (op_sets_extent(w->c->k, op))
				w->extent[w->nextent++] = op->dim;
			break;
		default:
			if (op->body)
				walk_region(w, op->body);
		}
	}
}

/* The split loops' main counts (LoopPlan.ahead, .split), once the pipes
 * are final (after the LDS placement). */
static void split_counts(Analysis *c, Plan *p)
{
	SymCtx *sc = c->k->sc;
	for (int i = 0; i < p->nloops; i++) {
		LoopPlan *lp = &p->loop[i];
		const Region *body = lp->op->body;
		bool staged = false, global = false;
		for (size_t j = 0; j < body->ops.len; j++) {
			const Op *x = body->ops.data[j];
			staged |= plan_staged_read(c, x);
			global |= (p->read[x->id] & PLAN_READ_PREFETCHED) != 0;
		}
		lp->ahead = !lp->pipe ? 0 : staged ? (lp->pipe == PIPE_FOUR_STAGE ? 3 : 2) : global ? 1 : 0;
		lp->split = NULL;
		if (!lp->peel)
			continue;
		if (lp->diag) {
			lp->split = lp->diag_split;
			continue;
		}
		const TileLoop *t = lp->t;
		Sym *m = sym_sub(sc, lp->whole, sym_int(sc, lp->ahead));
		m = sym_min(sc, m, t->trips > 0 ? sym_int(sc, t->trips - 1) : t->count);
		lp->split = sym_simplify(sc, m, c->assume);
	}
}

/* p->sum: what p asks for, counted. */
static void summarise(Plan *p)
{
	PlanSummary *s = &p->sum;
	*s = (PlanSummary){0};
	for (int i = 0; i < p->nloops; i++) {
		const LoopPlan *lp = &p->loop[i];
		s->peeled += lp->peel && !lp->diag; /* a diagonal split keeps one form of the offsets */
		if (!lp->pipe)
			continue;
		s->prefetched++;
		s->lds_doubled += lp->staged && lp->lds_stages > 1;
		s->four_staged += lp->pipe == PIPE_FOUR_STAGE;
	}
	for (int i = 0; i < p->nops; i++)
		s->hoisted_reads += (p->read[i] & PLAN_READ_HOISTED) != 0;
}

/* What follows from the loops' plans: the LDS placement, the split
 * counts, the summary. */
static void plan_finish(Analysis *c, Plan *p)
{
	plan_place_lds(c, p);
	split_counts(c, p);
	summarise(p);
}

Plan plan_loops(Analysis *c)
{
	if (!analysis_mx_not_compiled(c)) /* scaled_mma off gfx950, f6 and stray MX values */
		return (Plan){0};
	Kernel *k = c->k;
	ScheduleKind asked = c->opts.asked;
	Plan p = {
		.schedule = c->opts.schedule,
		/* the default, or a Wave name it stands in for, gives way */
		.yields = !asked || (asked != SCHED_NONE && asked != SCHED_PREFETCH),
		.swizzle = true,
		.split = true,
		.licm = true,
	};
	/* hoist_reads moves the ops recorded here; qk_ahead.c adds ops first */
	plan_own_graph(c, plan_qk_ahead_wanted(c));
	plan_qk_ahead(c, &p);
	p.nops = (int)k->nops;
	p.nvalues = (int)k->nvalues;
	p.loop_of = ARENA_NEWN(&c->arena, int, p.nops + 1);
	for (int i = 0; i <= p.nops; i++)
		p.loop_of[i] = -1;
	p.read = ARENA_NEWN(&c->arena, uint8_t, p.nops + 1);
	p.tile = ARENA_NEWN(&c->arena, PlanTile *, p.nops + 1);
	p.lds = ARENA_NEWN(&c->arena, PlanLds, p.nops + 1);
	p.konst = ARENA_NEWN(&c->arena, int8_t, p.nvalues + 1);
	p.diag_true = ARENA_NEWN(&c->arena, uint8_t, p.nops + 1);
	Walk w = {.c = c, .p = &p, .loop = -1};
	w.uses = ARENA_NEWN(&c->arena, int, p.nvalues + 1);
	w.extent = ARENA_NEWN(&c->arena, const Sym *, p.nops + 1);
	region_count_uses(k->body, w.uses);
	fuse_bitcast_reads(&w, k->body);
	plan_fold_masks(c, k->body, p.konst);
	walk_region(&w, k->body);
	plan_pingpong(c, &p, k->body);
	if (!c->failed)
		plan_finish(c, &p);
	return p;
}

Plan plan_copy(const Plan *p, Arena *a)
{
	Plan q = *p;
	q.loop = ARENA_NEWN(a, LoopPlan, p->nloops + 1);
	if (p->nloops)
		memcpy(q.loop, p->loop, sizeof *q.loop * (size_t)p->nloops);
	q.read = ARENA_NEWN(a, uint8_t, p->nops + 1);
	q.lds = ARENA_NEWN(a, PlanLds, p->nops + 1);
	if (p->read) { /* (a function allocated with no plan made has none) */
		memcpy(q.read, p->read, (size_t)p->nops + 1);
		memcpy(q.lds, p->lds, sizeof *q.lds * ((size_t)p->nops + 1));
	}
	return q;
}

void plan_no_swizzle(Analysis *c, Plan *p)
{
	p->swizzle = false;
	plan_finish(c, p);
}

bool plan_lighten(Analysis *c, Plan *p, int machine_hoisted)
{
	const PlanSummary *got = &p->sum;
	/* the default pipelines and hoists where it costs no spills and no
	 * waves: a kernel whose registers are full without them (attention)
	 * is better off as it was */
	bool pf = p->yields && got->prefetched;
	if (p->light == LIGHT_NONE && got->peeled) {
		/* a split loop's two bodies keep both forms of the loads'
		 * offsets live: the lightest step first */
		p->light = LIGHT_UNPEELED;
		p->split = false;
		for (int i = 0; i < p->nloops; i++)
			p->loop[i].peel = p->loop[i].peel && p->loop[i].diag;
	} else if (p->light < LIGHT_TWO_BUFFERS && pf && got->four_staged) {
		/* the LDS reads a trip ahead hold a second set of operands */
		p->light = LIGHT_TWO_BUFFERS;
		p->schedule = SCHED_PREFETCH;
		for (int i = 0; i < p->nloops; i++)
			if (p->loop[i].pipe == PIPE_FOUR_STAGE)
				p->loop[i].pipe = PIPE_PREFETCH;
	} else if (p->light < LIGHT_ONE_BUFFER && pf && got->lds_doubled) {
		p->light = LIGHT_ONE_BUFFER;
		if (p->schedule == SCHED_FOUR_STAGE) /* four_stage with one buffer is prefetch */
			p->schedule = SCHED_PREFETCH;
		for (int i = 0; i < p->nloops; i++) {
			p->loop[i].lds_stages = 1;
			if (p->loop[i].pipe == PIPE_FOUR_STAGE)
				p->loop[i].pipe = PIPE_PREFETCH;
		}
	} else if (p->light < LIGHT_UNPIPED && pf && (machine_hoisted || got->hoisted_reads)) {
		/* the prefetch's carried registers go first, the hoisted reads
		 * (a few registers, no reload a trip) stay: attention's Q tile */
		p->light = LIGHT_UNPIPED;
		p->schedule = SCHED_NONE;
		for (int i = 0; i < p->nloops; i++) {
			LoopPlan *lp = &p->loop[i];
			lp->pipe = PIPE_NONE;
			lp->peel = lp->peel_unpiped && (p->split || lp->diag);
		}
		for (int i = 0; i < p->nops; i++)
			p->read[i] &= (uint8_t)~PLAN_READ_PREFETCHED;
	} else if (p->light != LIGHT_PLAIN && (pf || machine_hoisted || got->hoisted_reads)) {
		p->light = LIGHT_PLAIN;
		p->licm = false;
		if (pf)
			p->schedule = SCHED_NONE;
		for (int i = 0; i < p->nloops; i++) {
			LoopPlan *lp = &p->loop[i];
			if (pf) {
				lp->pipe = PIPE_NONE;
				/* unpipelined, a loop of fewer whole tiles splits */
				lp->peel = lp->peel_unpiped && (p->split || lp->diag);
			}
		}
		for (int i = 0; i < p->nops; i++)
			p->read[i] &= (uint8_t) ~(PLAN_READ_HOISTED | (pf ? PLAN_READ_PREFETCHED : 0));
	} else
		return false;
	plan_finish(c, p);
	return true;
}
