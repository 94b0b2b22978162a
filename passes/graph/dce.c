/* dce.c — eliminate_dead_ops: the ops whose results nothing needs leave
 * the analysed graph before any analysis sees them, so a graph with dead
 * ops compiles to the code of the same graph without them (they took
 * registers, loads and time, and an op the compiler rejects stopped the
 * kernel even where nothing read it).
 *
 * Roots (ops kept for what they do, not for a value): write, the atomics,
 * scatter_add, the barriers, set_symbol (it sets an extent or a value the
 * mappings after it read), the scalar kernel arguments (they are the
 * kernel's interface) and a spin-wait's carried flag (Op.spin: the wait is
 * what it does).
 *
 * Algorithm: liveness by worklists over ops and values, each visited once
 * (time linear in the graph):
 *   - a live op makes the values it reads live, and the op owning its
 *     region (an iterate or conditional around a write) live;
 *   - a live value makes its producer live: an op's result its op, a
 *     conditional's iter arg the conditional; an iterate's result or iter
 *     arg makes only that carried value live (carried value j: init arg j,
 *     iter arg j, output value j, result j), which makes the iterate live
 *     and its init arg j and output value j live;
 *   - a live conditional makes every value it reads (else values,
 *     condition, captures) and every value its body outputs live: its
 *     carried values are not split;
 *   - an iterate's implicit captures are no reads of their own: a capture
 *     is needed when an op of the body that is live reads it.
 * So an iterate whose results feed only dead ops dies with its body unless
 * the body writes, and a carried value nothing reads after the loop and
 * nothing live in the loop reads (a running max kept but never used) goes
 * with the ops computing it.
 *
 * When everything is live the view is left as it is (no copy). Otherwise
 * the view gets the live part as a graph of its own (kernel_view_prune,
 * ir/graph.c): the caller's kernel, which the interpreter runs, keeps its
 * dead ops. Runs right after subst_symbols, before every graph analysis. */
#include <stdlib.h>

#include "analysis.h"

typedef struct Live {
	const Kernel *k;
	bool *op, *val;       /* by id */
	Vec(const Op *) ops;  /* live ops to visit */
	Vec(const Value *) vals;
} Live;

static void op_live(Live *l, const Op *op)
{
	if (!l->op[op->id]) {
		l->op[op->id] = true;
		vec_push(&l->ops, op);
	}
}

static void val_live(Live *l, const Value *v)
{
	if (!l->val[v->id]) {
		l->val[v->id] = true;
		vec_push(&l->vals, v);
	}
}

static const Op *body_output(const Op *op)
{
	const Region *b = op->body;
	const Op *out = b && b->ops.len ? b->ops.data[b->ops.len - 1] : NULL;
	return out && out->kind == OP_OUTPUT ? out : NULL;
}

/* Carried value j of iterate it is live. */
static void carried_live(Live *l, const Op *it, int j)
{
	op_live(l, it);
	if (j < it->nresults)
		l->val[it->results[j]->id] = true; /* marks only: both lead here */
	if (j < it->body->nparams)
		l->val[it->body->params[j]->id] = true;
	if (j < it->ninit)
		val_live(l, it->args[j]);
	const Op *out = body_output(it);
	if (out && j < out->nargs)
		val_live(l, out->args[j]);
}

static void visit_value(Live *l, const Value *v)
{
	if (v->kind == VAL_RESULT && v->def->kind == OP_ITERATE)
		carried_live(l, v->def, v->res_idx);
	else if (v->kind == VAL_RESULT)
		op_live(l, v->def);
	else if (v->kind == VAL_ITER_ARG && v->loop->kind == OP_ITERATE)
		carried_live(l, v->loop, v->arg_idx);
	else if (v->kind == VAL_ITER_ARG)
		op_live(l, v->loop);
}

static void visit_op(Live *l, const Op *op)
{
	if (op->parent && op->parent->owner)
		op_live(l, op->parent->owner);
	switch (op->kind) {
	case OP_ITERATE: /* its carried values and captures: above */
		if (body_output(op))
			l->op[body_output(op)->id] = true;
		return;
	case OP_OUTPUT: /* an iterate's: by carried value; a conditional's: all */
		if (op->parent && op->parent->owner && op->parent->owner->kind == OP_ITERATE)
			return;
		break;
	case OP_CONDITIONAL:
		if (body_output(op))
			op_live(l, body_output(op));
		break;
	default:
		break;
	}
	for (int a = 0; a < op->nargs; a++)
		val_live(l, op->args[a]);
}

static bool root(const Op *op)
{
	return op_stores(op->kind) || op->kind == OP_SET_SYMBOL || op_is_barrier(op->kind) ||
	       op_is_hint(op->kind) || (op->kind == OP_SCALAR && op->sarg);
}

void eliminate_dead_ops(Analysis *c)
{
	Kernel *k = c->k;
	Live l = {.k = k};
	l.op = xcalloc((size_t)k->nops + 1, sizeof *l.op);
	l.val = xcalloc((size_t)k->nvalues + 1, sizeof *l.val);
	for (size_t i = 0; i < k->op_list.len; i++) {
		Op *op = k->op_list.data[i];
		if (root(op))
			op_live(&l, op);
		/* a spin-wait (load_while.c) is kept for the wait, with its
		 * carried flag: nothing need read its result */
		if (op->kind == OP_ITERATE && op->spin)
			for (int r = 0; r < op->nresults; r++)
				val_live(&l, op->results[r]);
	}
	while (l.ops.len || l.vals.len) {
		if (l.vals.len)
			visit_value(&l, l.vals.data[--l.vals.len]);
		else
			visit_op(&l, l.ops.data[--l.ops.len]);
	}
	/* anything dead: an op, or a carried value of a live iterate */
	bool dead = false;
	for (size_t i = 0; i < k->op_list.len && !dead; i++) {
		const Op *op = k->op_list.data[i];
		dead = !l.op[op->id];
		for (int j = 0; op->kind == OP_ITERATE && !dead && j < op->nresults; j++)
			dead = !l.val[op->results[j]->id] && !l.val[op->body->params[j]->id];
	}
	if (dead)
		kernel_view_prune(k, l.op, l.val);
	vec_free(&l.ops);
	vec_free(&l.vals);
	free(l.op);
	free(l.val);
}
