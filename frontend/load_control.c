/* load_control.c — the loader's rules for `conditional` (Wave's
 * tkw.conditional): the condition, the optional else values and their iter
 * args, and the body's output against them. Kept apart from load_ops.c so
 * that the ops added to format version 1 stay in files of their own.
 *
 * Operand layout (graph_ops.h): [else_return..., condition,
 * implicit_captures...]; the else values come first so that an iter arg's
 * arg_idx names its init value as it does for iterate. A condition that is
 * not the name of a value is an expression of symbols (Wave's IndexExpr
 * condition): it goes to Op.expr and has no operand slot. */
#include <string.h>

#include "load_graph.h"

static Loc node_loc(Ld *L, Node *n) { return (Loc){L->file, n->jv.pos ? n->jv.pos->line : 0, n->jv.pos ? n->jv.pos->col : 0}; }

static bool finish_build(G *g, Node *n, Op *op);

bool ld_build_conditional(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	JV er = jv_get(L, n->jv, "else_return");
	int ninit = er.v ? (int)json_array_size(er.v) : 0;
	op->ninit = ninit;
	JV fc = jv_get(L, n->jv, "condition");
	if (!ld_tab_find(g, intern(json_string_value(fc.v)))) {
		/* an expression: uniform, true when nonzero */
		return (op->expr = ld_get_expr(L, fc, NULL)) != NULL && finish_build(g, n, op);
	}
	Value *cond = op->args[ninit];
	/* Wave compares the condition with 0 (an i1 mask or any integer) */
	if (!ld_is_int_dtype(cond->dtype)) {
		ld_err(L, jvs[ninit], "dtype mismatch: the condition '%s' must be i1 or an integer, got %s", cond->name,
			ld_vstr(g, cond));
		return false;
	}
	if (n->body->params.len && n->body->params.len != (size_t)ninit) {
		ld_err(L, jv_get(L, n->jv, "iter_args"), "%zu iter_args for %d else_return values", n->body->params.len,
			ninit);
		return false;
	}
	for (int i = 0; i < ninit; i++) {
		Value *e = op->args[i];
		if (!ld_subset(cond->shape, e->shape)) {
			ld_err(L, jvs[i], "shape mismatch: else value '%s' %s lacks dims of the condition '%s' %s", e->name,
				ld_vstr(g, e), cond->name, ld_vstr(g, cond));
			return false;
		}
	}
	return finish_build(g, n, op);
}

/* The body's region, its iter args and the results' types. */
static bool finish_build(G *g, Node *n, Op *op)
{
	Ld *L = g->L;
	Kernel *k = g->k;
	int ninit = op->ninit;
	Region *r = region_new(k, op, n->list->region);
	op->body = r;
	n->body->region = r;
	for (size_t i = 0; i < n->body->params.len; i++) {
		Value *p = region_add_param(k, r, n->body->params.data[i], op->args[i]->dtype, op->args[i]->shape);
		p->loc = node_loc(L, n);
	}
	for (int i = 0; i < ninit; i++) {
		op->results[i]->dtype = op->args[i]->dtype;
		op->results[i]->shape = op->args[i]->shape;
	}
	return true; /* the walker builds the body, then calls ld_finish_conditional */
}

/* The body's output node (NULL if none) and how many there are. */
static Node *body_output(Node *n, int *count)
{
	Node *on = NULL;
	*count = 0;
	for (size_t i = 0; i < n->body->nodes.len; i++)
		if (n->body->nodes.data[i]->kind == OP_OUTPUT) {
			on = n->body->nodes.data[i];
			(*count)++;
		}
	return on;
}

bool ld_finish_conditional(G *g, Node *n, Op *op)
{
	Ld *L = g->L;
	Region *r = op->body;
	int ninit = op->ninit, nout;
	Node *on = body_output(n, &nout);
	JV body = jv_get(L, n->jv, "body");
	if (nout > 1) {
		ld_err(L, body, "the body of '%s' has %d output nodes (at most one)", n->name, nout);
		return false;
	}
	if (on && !on->op)
		return false; /* its values were poisoned by an error reported earlier */
	Op *last = r->ops.len ? vec_last(&r->ops) : NULL;
	if (ninit == 0) {
		if (on && on->op->nargs) {
			ld_err(L, jv_get(L, on->jv, "values"),
				"the body of '%s' yields %d values, but the conditional has no else_return to match them",
				n->name, on->op->nargs);
			return false;
		}
		return true;
	}
	if (!on || last != on->op) {
		ld_err(L, body, "the body of '%s' must end with an output yielding its %d value%s (the else_return's types)",
			n->name, ninit, ninit == 1 ? "" : "s");
		return false;
	}
	JV vals = jv_get(L, on->jv, "values");
	if (last->nargs != ninit) {
		ld_err(L, vals, "the body yields %d values for %d else_return values", last->nargs, ninit);
		return false;
	}
	for (int i = 0; i < ninit; i++) {
		Value *y = last->args[i], *e = op->args[i];
		if (y->dtype != e->dtype || !shape_eq(y->shape, e->shape)) {
			ld_err(L, jv_at(L, vals, (size_t)i),
				"type mismatch: the branches of '%s' disagree: the body yields '%s' %s, else_return '%s' is %s",
				n->name, y->name, ld_vstr(g, y), e->name, ld_vstr(g, e));
			return false;
		}
	}
	return true;
}
