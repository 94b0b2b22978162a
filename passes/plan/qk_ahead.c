/* qk_ahead.c — a step of plan_loops: the first MMA of a loop's chained
 * pair (attention's S = Q·Kᵀ) computed a trip ahead of the work that uses
 * it, its product carried (software pipelining of the pair across the
 * loop).
 *
 * A trip of attention's loop over K2 is one wave's chain: S_j = Q·K_jᵀ,
 * the online softmax of S_j, then P_j·V_j. Within a trip every step waits
 * for the one before, so the matrix core idles through the softmax unless
 * another wave fills it. With S_{j+1} computed in trip j instead, nothing
 * in trip j's softmax waits for it: the list scheduler issues its MFMAs
 * under the softmax's vector work.
 *
 * Algorithm, for each iterate of more than one trip (nested ones too)
 * whose body (straight-line: no nested regions, writes, atomics or
 * set_symbols) holds an MMA A such that:
 *   - its accumulator is a `register` of +0.0;
 *   - one of its lhs and rhs is a read R of the body (no mapping, no
 *     dynamic values, not volatile or acquiring) whose index mentions the
 *     loop's induction variable iv and whose value only A reads;
 *   - the other is defined outside the body, or is a read Q of the body
 *     that a load may move (plan.c's plan_movable_read) whose index does not
 *     mention iv and whose value only MMAs read (it then leaves the body
 *     for the place right before the loop, as hoist.c would put it);
 *   - A's product reaches the lhs or rhs of another MMA of the body (the
 *     chained pair: pingpong.c's criterion) and not the body's output;
 * the graph becomes:
 *   before the loop: Z0 = the zero register, R0 = R at trip 0 (its index
 *                    with iv = 0), S0 = A(R0 or Q, Z0);
 *   the iterate:     S carried, S0 its init;
 *   the body:        A's uses read the carried S; R's index takes iv + 1
 *                    and R and A move to the body's end (before its output),
 *                    whose new value is A's product (trip iv + 1's S).
 * The MMAs keep A's index (a layout: the same registers hold trip iv + 1's
 * scores as trip iv's), so the carried value needs no rearranging; only
 * the read's address moves. In the last trip R reads trip `trips`, past the
 * loop's window: its bounds (analysis_range_proves proves none for
 * iv + 1 at the last trip) mask what lies past the tensor, the prefetch
 * (isel/prefetch.c) clamps its own trip, and the product goes unused. A
 * loop cut at the diagonal (mask_bound.c) or split (plan.c, diag_split.c)
 * stays right: the masks and selects of the body read the carried S at
 * trip iv, as they read A's product at trip iv before, and the outputs the
 * cut and splits reason about are computed from the same values; only
 * the unused last S differs. A loop of no trips computes S0 and drops it.
 *
 * The graph is the view's own (plan_own_graph); the new ops get indices
 * (Analysis.index, grown) and are planned as any other op by the walk
 * that follows. Chosen where the loop plan takes it: `--dump-plan` prints
 * `QK a trip ahead (A)` on the loop's line. */
#include <math.h>
#include <string.h>

#include "plan.h"

static bool straight(const Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (op->body || op->kind == OP_WRITE || op->kind == OP_ATOMIC_ADD || op->kind == OP_SET_SYMBOL ||
			op->kind == OP_CONDITIONAL)
			return false;
	}
	return true;
}

static bool in_body(const Value *v, const Region *body)
{
	if (v->kind == VAL_ITER_ARG)
		return v->loop == body->owner;
	return v->kind == VAL_RESULT && v->def->parent == body;
}

static int uses_in(const Region *r, const Value *v)
{
	int n = 0;
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		for (int a = 0; a < op->nargs; a++)
			n += op->args[a] == v;
		if (op->body)
			n += uses_in(op->body, v);
	}
	return n;
}

static bool only_mma_reads(const Region *r, const Value *v)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		for (int a = 0; a < op->nargs; a++)
			if (op->args[a] == v && !(op->kind == OP_MMA && a < 2))
				return false;
		if (op->body && !only_mma_reads(op->body, v))
			return false;
	}
	return true;
}

static bool index_mentions(const NodeIndex *ix, const Sym *iv)
{
	for (int k = 0; ix && k < ix->ndims; k++)
		if (sym_mentions(ix->d[k].start, iv) || sym_mentions(ix->d[k].coord, iv))
			return true;
	return false;
}

static bool plain_read(const Op *op)
{
	return op->kind == OP_READ && !op->mapping && !op->ndyn && !op->is_volatile && !op->acquire &&
	       op->nargs == 1;
}

/* plan.c's plan_movable_read: a plain read of a global tensor of at most
 * 4-byte elements that nothing in the kernel writes. */
static bool movable(Analysis *c, const Op *op)
{
	return plain_read(op) && c->index[op->id] && op->args[0]->space == AS_GLOBAL &&
	       dtype_size(op->args[0]->dtype) <= 4 && !region_writes_mem(c->k->body, op->args[0]);
}

/* Does A's product reach the lhs or rhs of another MMA of body, and not
 * its output? (ops in order, as pingpong.c's dependence) */
static bool chained(Analysis *c, const Region *body, const Op *a)
{
	uint8_t *dep = ARENA_NEWN(&c->arena, uint8_t, c->k->nvalues + 1);
	dep[a->results[0]->id] = 1;
	bool second = false;
	for (size_t i = 0; i < body->ops.len; i++) {
		const Op *op = body->ops.data[i];
		if (op == a)
			continue;
		if (op->kind == OP_OUTPUT) {
			for (int j = 0; j < op->nargs; j++)
				if (op->args[j] == a->results[0])
					return false;
			continue;
		}
		if (op->kind == OP_MMA && (dep[op->args[0]->id] || dep[op->args[1]->id]))
			second = true;
		bool d = false;
		for (int j = 0; j < op->nargs && !d; j++)
			d = op->args[j] && dep[op->args[j]->id];
		for (int k = 0; k < op->nresults; k++)
			dep[op->results[k]->id] = d;
	}
	return second;
}

/* The candidate MMA of loop's body, its moving read (*r) and its other
 * operand's read in the body (*q, or NULL), or NULL. */
static Op *candidate(Analysis *c, const Op *loop, const TileLoop *t, Op **r, Op **q)
{
	const Region *body = loop->body;
	if (!straight(body) || !c->index)
		return NULL;
	for (size_t i = 0; i < body->ops.len; i++) {
		Op *a = body->ops.data[i];
		if (a->kind != OP_MMA || a->nargs != 3 || !c->index[a->id])
			continue;
		const Value *z = a->args[2];
		if (z->kind != VAL_RESULT || z->def->kind != OP_REGISTER || z->def->value != 0 ||
			signbit(z->def->value) || !c->index[z->def->id])
			continue;
		for (int side = 0; side < 2; side++) {
			Value *mv = a->args[side], *ov = a->args[1 - side];
			if (mv->kind != VAL_RESULT || mv->def->parent != body || !plain_read(mv->def) ||
				region_writes_mem(c->k->body, mv->def->args[0]) || value_is_local(mv->def->args[0]) ||
				dtype_size(mv->def->args[0]->dtype) > 4 ||
				!c->index[mv->def->id] || !index_mentions(c->index[mv->def->id], t->iv) ||
				uses_in(c->k->body, mv) != 1)
				continue;
			Op *qo = NULL;
			if (in_body(ov, body)) {
				if (ov->kind != VAL_RESULT || !movable(c, ov->def) ||
					index_mentions(c->index[ov->def->id], t->iv) || !only_mma_reads(c->k->body, ov))
					continue;
				qo = ov->def;
			}
			if (!chained(c, body, a))
				continue;
			*r = mv->def;
			*q = qo;
			return a;
		}
	}
	return NULL;
}

static NodeIndex *index_subst(Analysis *c, const NodeIndex *ix, Sym *iv, Sym *to)
{
	SymCtx *sc = c->k->sc;
	NodeIndex *n = ARENA_NEW(&c->arena, NodeIndex);
	*n = *ix;
	for (int k = 0; k < n->ndims; k++) {
		n->d[k].start = sym_simplify(sc, sym_subs(sc, ix->d[k].start, 1, &iv, &to), c->assume);
		n->d[k].coord = sym_simplify(sc, sym_subs(sc, ix->d[k].coord, 1, &iv, &to), c->assume);
	}
	return n;
}

/* Analysis.index and mma_operand grown to the kernel's ops. */
static void grow_tables(Analysis *c, int old)
{
	int n = c->k->nops;
	NodeIndex **ix = ARENA_NEWN(&c->arena, NodeIndex *, (size_t)n + 1);
	memcpy(ix, c->index, sizeof *ix * (size_t)old);
	c->index = ix;
	uint8_t *ah = ARENA_NEWN(&c->arena, uint8_t, (size_t)n + 1);
	if (c->ahead)
		memcpy(ah, c->ahead, (size_t)old);
	c->ahead = ah;
	if (c->mma_operand) {
		NodeIndex **m = ARENA_NEWN(&c->arena, NodeIndex *, 2 * (size_t)n + 2);
		memcpy(m, c->mma_operand, sizeof *m * 2 * (size_t)old);
		c->mma_operand = m;
	}
}

/* A copy of op (attributes, operands, result types) named name, in no
 * region yet. */
static Op *clone_op(Kernel *k, const Op *op, const char *name)
{
	Op *n = op_new(k, NULL, op->kind, name, op->nargs, op->nresults);
	Op keep = *n;
	*n = *op;
	n->id = keep.id;
	n->name = keep.name;
	n->parent = NULL;
	n->args = keep.args;
	n->results = keep.results;
	n->path = op->path;
	for (int a = 0; a < op->nargs; a++)
		n->args[a] = op->args[a];
	for (int i = 0; i < op->nresults; i++) {
		n->results[i]->dtype = op->results[i]->dtype;
		n->results[i]->shape = op->results[i]->shape;
		n->results[i]->loc = op->results[i]->loc;
	}
	return n;
}

static void put_before(Op *loop, Op *op) { region_put_at(loop->parent, region_place_of(loop->parent, loop), op); }

static void rotate(Analysis *c, Op *loop, const TileLoop *t, Op *a, Op *r, Op *q)
{
	Kernel *k = c->k;
	SymCtx *sc = k->sc;
	Region *body = loop->body;
	int old = k->nops;
	if (q) { /* the loop-invariant operand leaves first (hoist.c's place) */
		region_take_out(q);
		put_before(loop, q);
	}
	Op *zop = a->args[2]->def;
	Op *z0 = clone_op(k, zop, arena_printf(&k->arena, "%s_first", zop->name));
	Op *r0 = clone_op(k, r, arena_printf(&k->arena, "%s_first", r->name));
	Op *a0 = clone_op(k, a, arena_printf(&k->arena, "%s_first", a->name));
	for (int s = 0; s < 2; s++)
		if (a0->args[s] == r->results[0])
			a0->args[s] = r0->results[0];
	if (r->args[0]->space != AS_GLOBAL) {
		/* the first trip's tile, outside the loop that stages its
		 * reads, loads straight from global memory into the MMA's
		 * operand layout (as a hoisted Q tile): the same argument (its
		 * id and position, so its buffer descriptor) read as global */
		Value *g = ARENA_NEW(&k->arena, Value);
		*g = *r->args[0];
		g->space = AS_GLOBAL;
		g->space_sym = NULL;
		r0->args[0] = g;
	}
	a0->args[2] = z0->results[0];
	put_before(loop, z0);
	put_before(loop, r0);
	put_before(loop, a0);
	grow_tables(c, old);
	Sym *iv = t->iv;
	c->index[z0->id] = c->index[zop->id];
	c->index[r0->id] = index_subst(c, c->index[r->id], iv, sym_int(sc, 0));
	c->index[a0->id] = c->index[a->id];
	if (c->mma_operand) {
		c->mma_operand[2 * a0->id] = c->mma_operand[2 * a->id];
		c->mma_operand[2 * a0->id + 1] = c->mma_operand[2 * a->id + 1];
	}
	c->index[r->id] = index_subst(c, c->index[r->id], iv, sym_add(sc, iv, sym_int(sc, 1)));
	c->ahead[r->id] = 1;
	/* the carried S: init a0's product, A's uses read it */
	Value *sv = a->results[0];
	Value *param = region_add_param(k, body, arena_printf(&k->arena, "%s_carried", a->name), sv->dtype, sv->shape);
	param->loc = sv->loc;
	for (size_t i = 0; i < body->ops.len; i++) {
		Op *op = body->ops.data[i];
		for (int j = 0; j < op->nargs && op->kind != OP_OUTPUT; j++)
			if (op->args[j] == sv)
				op->args[j] = param;
	}
	/* init args: [0, ninit) then the captures */
	Value **args = ARENA_NEWN(&k->arena, Value *, loop->nargs + 1);
	memcpy(args, loop->args, sizeof *args * (size_t)loop->ninit);
	args[loop->ninit] = a0->results[0];
	memcpy(args + loop->ninit + 1, loop->args + loop->ninit, sizeof *args * (size_t)(loop->nargs - loop->ninit));
	loop->args = args;
	loop->nargs++;
	loop->ninit++;
	/* its result (unused) */
	Value **res = ARENA_NEWN(&k->arena, Value *, loop->nresults + 1);
	memcpy(res, loop->results, sizeof *res * (size_t)loop->nresults);
	Value *rv = value_new_result(k, loop, loop->nresults, arena_printf(&k->arena, "%s_last", a->name));
	rv->dtype = sv->dtype;
	rv->shape = sv->shape;
	res[loop->nresults++] = rv;
	loop->results = res;
	/* R and A to the body's end; the output's new value A's product */
	Op *out = vec_last(&body->ops);
	region_take_out(r);
	region_take_out(a);
	region_put_at(body, body->ops.len - 1, r);
	region_put_at(body, body->ops.len - 1, a);
	Value **oargs = ARENA_NEWN(&k->arena, Value *, out->nargs + 1);
	memcpy(oargs, out->args, sizeof *oargs * (size_t)out->nargs);
	oargs[out->nargs++] = sv;
	out->args = oargs;
}

/* The values of body that depend on v (ops in order). */
static uint8_t *depending(Analysis *c, const Region *body, const Value *v)
{
	uint8_t *dep = ARENA_NEWN(&c->arena, uint8_t, c->k->nvalues + 1);
	dep[v->id] = 1;
	for (size_t i = 0; i < body->ops.len; i++) {
		const Op *op = body->ops.data[i];
		bool d = false;
		for (int j = 0; j < op->nargs && !d; j++)
			d = op->args[j] && dep[op->args[j]->id];
		for (int k = 0; k < op->nresults; k++)
			dep[op->results[k]->id] |= d;
	}
	return dep;
}

/* The elements A contracts a trip: the product of the extents of its lhs
 * dims that its result lacks (a tiled dim's tile), or -1 when one is not
 * a compile-time integer. */
static int64_t reduction_extent(Analysis *c, const Op *a)
{
	const Shape *l = &a->args[0]->shape, *res = &a->results[0]->shape;
	int64_t n = 1;
	for (int i = 0; i < l->rank; i++) {
		bool kept = false;
		for (int j = 0; j < res->rank && !kept; j++)
			kept = strcmp(sym_name(l->dims[i]), sym_name(res->dims[j])) == 0;
		if (kept)
			continue;
		int64_t x = -1;
		const TileLoop *t = analysis_tile(c, l->dims[i]);
		if (t && t->tile > 0)
			x = t->tile;
		else if (!sym_is_int(kernel_subs(c->k, l->dims[i]), &x))
			return -1;
		n *= x;
	}
	return n;
}

/* The rule by which the rewrite is taken where the kernel does not ask
 * (no "qk_ahead" option), from the cycle model's figures of attention's
 * class (docs/compiler.md, "Q·Kᵀ a trip ahead"): it paid with head dim 64
 * and no causal bound, and lost with head dim 128 (the ping-pong of two
 * 2-wave tiles loses its alternation) and on causal loops cut at the
 * diagonal, and at head dim 64 with 128-row tiles (32 rows a wave:
 * SDXL 128x64 0.212 -> 0.228 ms, Wave's vanilla graphs 0.184 -> 0.187 ms).
 * So: A contracts at most 64 elements a trip, each wave holds at most 16
 * elements of each dim of A's result the waves split, every workgroup
 * runs the same constant number of trips (a loop cut at the diagonal, or
 * of a runtime count, has none), and the chain A starts reaches the other
 * MMA through an exponential (the online softmax: the vector work the
 * carried product lets the next trip's MFMAs go under). */
enum { AHEAD_MAX_REDUCTION = 64, AHEAD_MAX_WAVE_TILE = 16 };

/* Does every dim of A's result that the waves split hold at most
 * AHEAD_MAX_WAVE_TILE elements a wave (16 query rows: it paid at 64-row
 * tiles in 4 waves and lost at 128-row ones)? */
static bool small_wave_tile(Analysis *c, const Op *a)
{
	const Shape *res = &a->results[0]->shape;
	for (int j = 0; j < res->rank; j++) {
		const DimDist *d = analysis_dist(c, res->dims[j]);
		if (d && d->wave_tile > AHEAD_MAX_WAVE_TILE)
			return false;
	}
	return true;
}

static bool pays(Analysis *c, const Op *loop, const TileLoop *t, const Op *a)
{
	int64_t k = reduction_extent(c, a);
	if (t->trips < 2 || k < 1 || k > AHEAD_MAX_REDUCTION || !small_wave_tile(c, a))
		return false;
	const Region *body = loop->body;
	uint8_t *from_a = depending(c, body, a->results[0]);
	for (size_t i = 0; i < body->ops.len; i++) {
		const Op *e = body->ops.data[i];
		if ((e->kind != OP_EXP && e->kind != OP_EXP2) || !from_a[e->args[0]->id])
			continue;
		uint8_t *from_e = depending(c, body, e->results[0]);
		for (size_t j = 0; j < body->ops.len; j++) {
			const Op *m = body->ops.data[j];
			if (m != a && m->kind == OP_MMA && (from_e[m->args[0]->id] || from_e[m->args[1]->id]))
				return true;
		}
	}
	return false;
}

/* Does a loop under r have a candidate the rule takes (read-only)? */
static bool any_pays(Analysis *c, const Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (!op->body)
			continue;
		if (any_pays(c, op->body))
			return true;
		if (op->kind != OP_ITERATE)
			continue;
		TileLoop *t = analysis_tile(c, op->dim);
		Op *rd = NULL, *q = NULL, *a;
		if (t && analysis_many(t->trips) && op->ninit == op->body->nparams &&
			(a = candidate(c, op, t, &rd, &q)) && pays(c, op, t, a))
			return true;
	}
	return false;
}

static void walk(Analysis *c, Plan *p, Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		if (!op->body)
			continue;
		walk(c, p, op->body);
		if (op->kind != OP_ITERATE)
			continue;
		TileLoop *t = analysis_tile(c, op->dim);
		if (!t || !analysis_many(t->trips) || op->ninit != op->body->nparams)
			continue;
		Op *rd = NULL, *q = NULL, *a = candidate(c, op, t, &rd, &q);
		if (!a || (!c->opts.qk_ahead_set && !pays(c, op, t, a)))
			continue;
		rotate(c, op, t, a, rd, q);
		const Op **grown = ARENA_NEWN(&c->arena, const Op *, 2 * ((size_t)p->nahead + 1));
		if (p->nahead)
			memcpy(grown, p->ahead, sizeof *grown * 2 * (size_t)p->nahead);
		grown[2 * p->nahead] = op;
		grown[2 * p->nahead + 1] = a;
		p->ahead = grown;
		p->nahead++;
		i = region_place_of(r, op); /* ops were put before it */
	}
}

bool plan_qk_ahead_wanted(Analysis *c)
{
	if (c->opts.qk_ahead_set)
		return c->opts.qk_ahead;
	return c->index && any_pays(c, c->k->body);
}

void plan_qk_ahead(Analysis *c, Plan *p)
{
	if (!plan_qk_ahead_wanted(c) || !c->k->owns_graph)
		return;
	walk(c, p, c->k->body);
}

