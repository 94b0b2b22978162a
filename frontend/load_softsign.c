/* load_softsign.c — Wave's tkw.softsign(x, logit_cap, apply_scaling,
 * head_dim), the softsign logit cap, expanded at load time into the
 * elementwise ops Wave lowers it to (its handle_softsign), each rounded to
 * x's dtype as Wave's arith ops on that element type are:
 *     cap  = logit_cap * head_dim^-1/2 with apply_scaling, else logit_cap
 *     rc   = scalar(1 / cap)          (the constant rounded to x's dtype)
 *     t    = abs(x * rc)
 *     d    = reciprocal(1 + t)        (Wave's divf(1, 1 + t))
 *     out  = x * d                    (the op itself, turned into the mul)
 * so the interpreter and the compiler see only ops they already have and
 * agree by construction. The helper ops are named "<name>#softsign.<k>"
 * and carry the softsign node's location and path, so an error in any of
 * them names the softsign. Fields: logit_cap (a number > 0, default 30),
 * apply_scaling (bool, default false), head_dim (an integer >= 1, needed
 * with apply_scaling). */
#include <math.h>

#include "load_graph.h"

/* A helper op before the softsign in its region: its result shaped and
 * typed, its location the softsign's. */
static Op *helper(G *g, Op *ss, OpKind kind, const char *what, int nargs, Value *a, Value *b)
{
	Kernel *k = g->k;
	Op *h = op_new(k, ss->parent, kind, arena_printf(&k->arena, "%s#softsign.%s", ss->name, what), nargs, 1);
	h->loc = ss->loc;
	h->path = ss->path;
	h->src = ss->src;
	Value *x = ss->args[0], *r = op_result(h);
	r->dtype = x->dtype;
	r->shape = nargs ? x->shape : (Shape){0, NULL};
	r->loc = ss->loc;
	if (nargs > 0)
		h->args[0] = a;
	if (nargs > 1)
		h->args[1] = b;
	return h;
}

static Op *constant(G *g, Op *ss, const char *what, double v)
{
	Op *c = helper(g, ss, OP_SCALAR, what, 0, NULL, NULL);
	c->dtype = ss->args[0]->dtype;
	c->value = v;
	return c;
}

bool ld_build_softsign(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Kernel *k = g->k;
	Value *x = op->args[0];
	double cap = 30.0;
	bool scaling = false;
	long long head_dim = 0;
	if (!dtype_is_float(x->dtype)) {
		ld_err(L, jvs[0], "softsign of '%s': a float value is needed, got %s", x->name, ld_vstr(g, x));
		return false;
	}
	JV f = jv_get(L, n->jv, "logit_cap");
	if (f.v && !get_number(L, f, &cap))
		return false;
	if (!(cap > 0) || !isfinite(cap)) {
		ld_err(L, f.v ? f : n->jv, "softsign's logit_cap must be a finite number above 0, got %g", cap);
		return false;
	}
	f = jv_get(L, n->jv, "apply_scaling");
	if (f.v && !json_is_null(f.v) && !get_bool(L, f, &scaling))
		return false;
	f = jv_get(L, n->jv, "head_dim");
	if (f.v && !json_is_null(f.v) && !get_int(L, f, 1, 1 << 30, &head_dim))
		return false;
	if (scaling && !head_dim) {
		ld_err(L, n->jv, "softsign with apply_scaling needs head_dim (the cap is logit_cap * head_dim^-1/2)");
		return false;
	}
	if (scaling)
		cap *= 1.0 / sqrt((double)head_dim);
	/* the softsign op is the region's last: the helpers go before it */
	Region *r = op->parent;
	r->ops.len--;
	Op *rc = constant(g, op, "rcap", 1.0 / cap);
	Op *one = constant(g, op, "one", 1.0);
	Op *scaled = helper(g, op, OP_MUL, "scaled", 2, x, op_result(rc));
	Op *abs = helper(g, op, OP_ABS, "abs", 1, op_result(scaled), NULL);
	Op *den = helper(g, op, OP_ADD, "denom", 2, op_result(one), op_result(abs));
	Op *rec = helper(g, op, OP_RECIPROCAL, "recip", 1, op_result(den), NULL);
	vec_push(&r->ops, op);
	op->kind = OP_MUL;
	op->nargs = 2;
	op->args = ARENA_NEWN(&k->arena, Value *, 2);
	op->args[0] = x;
	op->args[1] = op_result(rec);
	Value *res = op_result(op);
	res->dtype = x->dtype;
	res->shape = x->shape;
	return true;
}
