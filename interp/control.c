/* control.c — the interpreter's `conditional` (Wave's tkw.conditional).
 *
 * Semantics at tensor level (docs/kernel-format.md): the condition holds per
 * element — an element of the condition tensor that is nonzero selects the
 * elements at its coordinates; a rank-0 condition, or an expression of
 * symbols (evaluated when the op runs), selects everything or nothing. The body runs over whole tensors like any region (its ops have no
 * side effects besides writes), and each write in it stores only the
 * elements whose coordinates the conditions of every enclosing conditional
 * select. A result is the body's output where the condition holds and the
 * else value elsewhere (an elementwise select). The conditions in force are
 * a stack in Run, read by interp_exec_write through run_cond_holds. */
#include "../ir/graph.h"
#include "interp.h"
#include "run.h"

int run_cond_holds(Run *r, const Op *op, const ITensor *x, const int64_t *c)
{
	for (int k = 0; k < r->ncond; k++) {
		const ITensor *t = run_get(r, r->cond[k]);
		int64_t off = 0;
		for (int i = 0; i < t->rank; i++) {
			int64_t p = 0;
			if (t->ext[i] != 1) {
				int j = 0;
				while (j < x->rank && x->dim[j] != t->dim[i])
					j++;
				if (j == x->rank)
					return run_fail(r, op, "the condition's dim %s is not a dim of the written tensor",
						t->dim[i]);
				p = c[j] - t->start[i];
				if (p < 0 || p >= t->ext[i])
					return 0; /* outside the condition's window: not selected */
			}
			off = off * t->ext[i] + p;
		}
		if (t->v[off] == 0)
			return 0;
	}
	return 1;
}

int interp_exec_conditional(Run *r, const Op *op, int (*exec_region)(Run *, Region *), void (*select_wave)(Run *, int))
{
	Region *body = op->body;
	int n = op->ninit;
	const Value *cond = op->expr ? NULL : op->args[n];
	int64_t holds = 1;
	if (op->expr && run_eval_int(r, op, op->expr, &holds) < 0)
		return -1;
	if (r->ncond == MAX_COND)
		return run_fail(r, op, "more than %d nested conditionals", MAX_COND);
	for (int w = 0; w < r->nw; w++) {
		select_wave(r, w);
		for (int i = 0; i < body->nparams; i++) {
			Value *p = body->params[i];
			ITensor *y = run_conform(r, op, run_get(r, op->args[i]), p->shape, p->dtype);
			if (!y)
				return -1;
			r->val[p->id] = y;
		}
	}
	if (!holds) { /* an expression condition that is false: the else values */
		for (int w = 0; w < r->nw; w++) {
			select_wave(r, w);
			for (int i = 0; i < n; i++) {
				ITensor *y = run_conform(r, op, run_get(r, op->args[i]), op->results[i]->shape, op->results[i]->dtype);
				if (!y)
					return -1;
				r->val[op->results[i]->id] = y;
			}
		}
		return 0;
	}
	if (cond)
		r->cond[r->ncond++] = cond;
	int rc = exec_region(r, body);
	if (cond)
		r->ncond--;
	if (rc < 0 || !n)
		return rc;
	Op *out = vec_last(&body->ops);
	check_that(out->kind == OP_OUTPUT && out->nargs == n);
	for (int w = 0; w < r->nw; w++) {
		select_wave(r, w);
		for (int i = 0; i < n; i++) {
			Value *v = op->results[i];
			ItErr e;
			const ITensor *ops[3] = {cond ? run_get(r, cond) : NULL, run_get(r, out->args[i]), run_get(r, op->args[i])};
			ITensor *y = cond ? it_map(&r->arena, &e, v->dtype, IT_SELECT, 3, ops) : (ITensor *)ops[1];
			if (!y)
				return run_fail(r, op, "%s", e.msg);
			if (!(y = run_conform(r, op, y, v->shape, v->dtype)))
				return -1;
			r->val[v->id] = y;
		}
	}
	return 0;
}

/* ---- set_symbol ----
 * The loader renamed the symbol in the mappings that follow to the op's
 * per-lane symbol (Op.expr); a mapped access binds it, per element, to the
 * register's element at the same coordinates (matched by dim name; a
 * register dim the access lacks must have one position in its window). As
 * a dim, a set symbol has one position from here on: a register indexed by
 * it holds one element along it (Wave gives it index 0). A set_symbol of a
 * distributed dim sets its extent instead (set_extent). */

/* The register's one element in this wave (*x), which `value`, set for
 * the whole workgroup (of `what`), needs; -1 after reporting. */
static int workgroup_element(Run *r, const Op *op, const char *what, const char *value, double *x)
{
	const ITensor *t = run_get(r, op->args[0]);
	if (t->count != 1)
		return run_fail(r, op, "set_symbol of %s, %s: '%s' holds %lld elements in this wave, %s needs one per "
				       "workgroup",
			sym_name(op->dim), what, op->args[0]->name, (long long)t->count, value);
	*x = t->v[0];
	return 0;
}

/* A later wave's value v against the first wave's (have). */
static int waves_agree(Run *r, const Op *op, int64_t have, int64_t v)
{
	if (have != v)
		return run_fail(r, op, "set_symbol of %s: the waves of a workgroup give %lld and %lld", sym_name(op->dim),
			(long long)have, (long long)v);
	return 0;
}

/* A set_symbol of a distributed dim's extent (op_sets_extent):
 * the register must hold one element in each wave (as a per-sequence
 * length read at a workgroup tile of 1 does), the same in every wave of the
 * workgroup; from here on it is the dim's extent (run_dim_size: trip
 * counts, register bounds) and the value of the op's symbol, which the
 * loader put for the dim in the expressions that follow. The first wave
 * records it, the others must agree. */
static int set_extent(Run *r, const Op *op)
{
	double x;
	if (workgroup_element(r, op, "a distributed dim", "the extent", &x) < 0)
		return -1;
	int64_t v = (int64_t)x;
	for (int i = 0; i < r->nset; i++)
		if (r->set[i].repl == op->expr)
			return waves_agree(r, op, r->set[i].size, v);
	if (r->nset == MAX_SET)
		return run_fail(r, op, "more than %d set_symbol ops", MAX_SET);
	r->set[r->nset++] = (struct RunSet){op->dim, op->expr, op->args[0], true, v, false};
	run_env_push(r, op->expr, v);
	return 0;
}

/* A set_symbol of a symbol a tiling constraint's start or iters uses
 * (op_sets_loop_bound, in the kernel body): besides the per-lane binding
 * of the mappings that follow, the symbol itself takes the value from here
 * on in the loops' start and trip count and in every expression evaluated
 * after it (run.c, run_loop_expr: the symbol may be bound by value, which
 * plain evaluation substitutes first). One element per wave, the same in every wave (the first
 * records it, the others must agree), clamped to [0, kernel_runtime_max]
 * as the compiled kernel clamps it: the range the compiler assumes of a
 * dynamic symbol. */
static int set_loop_bound(Run *r, const Op *op, struct RunSet *rs, bool first)
{
	double x;
	if (workgroup_element(r, op, "a loop's start or iters", "the bound", &x) < 0)
		return -1;
	int64_t hi = kernel_runtime_max(r->k, op->dim);
	int64_t v = !(x > 0) ? 0 : x >= (double)hi ? hi : (int64_t)x;
	if (!first)
		return waves_agree(r, op, rs->size, v);
	rs->size = v;
	rs->bound = true;
	return 0;
}

int interp_exec_set_symbol(Run *r, const Op *op)
{
	if (op_sets_extent(r->k, op))
		return set_extent(r, op);
	bool bound = op_sets_loop_bound(r->k, op);
	for (int i = 0; i < r->nset; i++)
		if (r->set[i].repl == op->expr) {
			r->set[i].v = op->args[0]; /* again (inside a loop, or another wave): the same binding */
			return bound ? set_loop_bound(r, op, &r->set[i], false) : 0;
		}
	if (r->nset == MAX_SET)
		return run_fail(r, op, "more than %d set_symbol ops", MAX_SET);
	r->set[r->nset++] = (struct RunSet){op->dim, op->expr, op->args[0], false, 0, false};
	return bound ? set_loop_bound(r, op, &r->set[r->nset - 1], true) : 0;
}

int run_bind_set_symbols(Run *r, const Op *op, const ITensor *x, const int64_t *c)
{
	/* a value without an element here stays unbound: a mapping that uses
	 * it then fails to evaluate, located at the op */
	(void)op;
	for (int k = 0; k < r->nset; k++) {
		if (r->set[k].extent) /* bound once, in the environment */
			continue;
		const ITensor *t = run_get(r, r->set[k].v);
		int64_t off = 0;
		bool ok = true;
		for (int i = 0; i < t->rank && ok; i++) {
			int64_t p = 0;
			if (t->ext[i] != 1) {
				int j = 0;
				while (j < x->rank && x->dim[j] != t->dim[i])
					j++;
				p = j < x->rank ? c[j] - t->start[i] : -1;
				ok = p >= 0 && p < t->ext[i];
			}
			off = off * t->ext[i] + p;
		}
		if (ok)
			run_env_push(r, r->set[k].repl, (int64_t)t->v[off]);
	}
	return 0;
}
