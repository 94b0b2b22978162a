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

/* ---- set_symbol ----
 *
 * Wave's tkw.set_symbol(S, value): from here on, S in the index mappings of
 * the ops that follow (in input order, in the set_symbol's body and the
 * bodies nested in it) stands for the value, per element; S keeps its
 * launch value as an extent (memory shapes, grid). The loader renames S in
 * those mappings to the set_symbol's own symbol `$T_<name>` (Op.expr): a
 * per-lane value, which later stages bind to the register's element (the
 * `$T` prefix is what marks a symbol as per-lane for the compiler's
 * uniformity analysis). A node's mapping that mentions S depends on the
 * set_symbol, so the order is kept whatever the data dependencies. */


/* Is `name` one of the identifiers in string s? */
static bool text_mentions(const char *s, const char *name)
{
	size_t len = strlen(name);
	for (const char *p = s; *p;) {
		size_t w = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$.");
		if (w == len && strncmp(p, name, len) == 0)
			return true;
		p += w ? w : 1;
	}
	return false;
}

/* Does the "mapping" of node x mention symbol name in its expressions? */
static bool mapping_mentions(const Node *x, const char *name)
{
	json_t *m = json_object_get(x->jv.v, "mapping");
	const char *side[2] = {"inputs", "outputs"};
	for (int k = 0; k < 2 && json_is_object(m); k++) {
		const char *key;
		json_t *v;
		json_object_foreach(json_object_get(m, side[k]), key, v)
			if (json_is_string(v) && text_mentions(json_string_value(v), name))
				return true;
	}
	return false;
}

/* A set_symbol of a dim's extent, or of a loop's start or iters, keeps its
 * place in the input order: what comes before it sees the old extent or
 * bound, what follows the new one (the loop and everything in it),
 * whatever the data dependencies. */
static void extent_barrier(Node *m)
{
	for (size_t i = 0; i < m->list->nodes.len; i++) {
		Node *x = m->list->nodes.data[i];
		if (x->idx < m->idx)
			vec_push(&m->deps, x->idx);
		else if (x->idx > m->idx)
			vec_push(&x->deps, m->idx);
	}
}

void ld_set_symbol_deps(G *g)
{
	for (size_t i = 0; i < g->all.len; i++) {
		Node *m = g->all.data[i];
		const char *sym = json_string_value(json_object_get(m->jv.v, "symbol"));
		if (m->bad || m->kind != OP_SET_SYMBOL || !sym)
			continue;
		KSymbol *ks = kernel_symbol(g->k, sym);
		Op probe = {.kind = OP_SET_SYMBOL, .dim = ks ? ks->sym : NULL};
		if (op_sets_extent(g->k, &probe) || op_sets_loop_bound(g->k, &probe))
			extent_barrier(m);
		for (size_t j = 0; j < g->all.len; j++) {
			Node *x = g->all.data[j];
			if (x->bad || (x->kind != OP_READ && x->kind != OP_WRITE) || !ld_node_follows(m, x) ||
				!mapping_mentions(x, sym))
				continue;
			Node *a = x;
			while (a->list != m->list)
				a = a->list->owner;
			vec_push(&a->deps, m->idx);
		}
	}
}

bool ld_build_set_symbol(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Kernel *k = g->k;
	JV f = jv_get(L, n->jv, "symbol");
	const char *name;
	if (!need(L, n->jv, f, "symbol") || !ld_get_ident(L, f, &name))
		return false;
	KSymbol *ks = kernel_symbol(k, name);
	if (ks && (ld_is_loop_symbol(L, name) || ld_is_while_axis(g, n, ks)))
		return ld_build_loop_set(g, n, op, f, ks);
	if (!ks || ks->kind != SYMK_DYNAMIC) {
		ld_err(L, f, "set_symbol needs a dynamic symbol ('%s' is %s): its launch value stays the extent of the "
			     "dims it names",
			name, ks ? "not one" : "not declared");
		return false;
	}
	/* Wave's extend attention sets N_Q and N_KV, dims its constraints
	 * distribute, to per-sequence lengths: their run-time extents from
	 * here on (op_sets_extent). One extent per workgroup, fixed
	 * while a loop runs: only in the kernel body. */
	op->dim = ks->sym;
	if (op_sets_extent(k, op) && n->list->owner) {
		ld_err(L, f, "set_symbol of %s, a dim that the constraints distribute, inside '%s': its extent is set "
			     "only in the kernel body",
			name, n->list->owner->name);
		return false;
	}
	Value *v = op->args[0];
	if (!ld_is_int_dtype(v->dtype)) {
		ld_err(L, jvs[0], "dtype mismatch: set_symbol's value '%s' must have an integer dtype, got %s", v->name,
			ld_vstr(g, v));
		return false;
	}
	/* `$T` marks a per-lane symbol for the compiler's uniformity analysis;
	 * an extent is one value per workgroup: `$E` */
	op->expr = kernel_sym(k, arena_printf(&k->arena, op_sets_extent(k, op) ? "$E_%s" : "$T_%s", n->name));
	struct Setter st = {n, op};
	vec_push(&g->setters, st);
	return true;
}

void ld_mapping_set_symbols(G *g, Node *n, Mapping *m)
{
	SymCtx *sc = g->k->sc;
	/* the latest set_symbol of a symbol wins: after its renaming the
	 * earlier ones find nothing left to rename */
	for (size_t i = g->setters.len; i-- > 0;) {
		struct Setter *st = &g->setters.data[i];
		if (!ld_node_follows(st->n, n))
			continue;
		for (int j = 0; j < m->nin; j++)
			m->in_exprs[j] = sym_subs(sc, m->in_exprs[j], 1, &st->op->dim, &st->op->expr);
		for (int j = 0; j < m->nout; j++)
			m->out_exprs[j] = sym_subs(sc, m->out_exprs[j], 1, &st->op->dim, &st->op->expr);
		for (int d = 0; m->dvm_n && d < m->ndyn; d++)
			for (int j = 0; j < m->dvm_n[d]; j++)
				m->dvm_exprs[d][j] = sym_subs(sc, m->dvm_exprs[d][j], 1, &st->op->dim, &st->op->expr);
	}
}

Sym *ld_expr_set_extents(G *g, Node *n, Sym *e)
{
	for (size_t i = g->setters.len; i-- > 0;) {
		struct Setter *st = &g->setters.data[i];
		if (ld_node_follows(st->n, n) && op_sets_extent(g->k, st->op))
			e = sym_subs(g->k->sc, e, 1, &st->op->dim, &st->op->expr);
	}
	return e;
}

Shape ld_without_set_symbols(G *g, Node *n, Shape s)
{
	Shape r = shape_new(g->k, s.rank);
	r.rank = 0;
	for (int i = 0; i < s.rank; i++) {
		bool set = false;
		for (size_t j = 0; j < g->setters.len && !set; j++)
			set = g->setters.data[j].op->dim == s.dims[i] && ld_node_follows(g->setters.data[j].n, n) &&
			      !op_sets_extent(g->k, g->setters.data[j].op);
		if (!set)
			r.dims[r.rank++] = s.dims[i];
	}
	return r;
}

/* ---- Wave's scheduling hints and counter waits ----
 * memory_counter_wait and memory_counter_wait_barrier: load, store, ds,
 * exp, each a count >= 0 or null/absent (not waited on); set_wave_prio: a
 * priority 0-3 (s_setprio's field); scheduling_barrier: operations, a list
 * of Wave's Operation names; scheduling_group_barrier: instructions, an
 * object from Operation name to a count, and sync_id. The last two only
 * steer LLVM's scheduler in Wave: they are checked and have no effect. */
static const char *const sched_ops[] = {"read_shared", "write_shared", "read_global", "write_global",
	"global_to_shared", "mma", "alu", "valu", "salu", "noop", "shuffle"};

static bool sched_op(Ld *L, JV v, const char *s)
{
	for (size_t i = 0; i < sizeof sched_ops / sizeof *sched_ops; i++)
		if (strcmp(s, sched_ops[i]) == 0)
			return true;
	ld_err(L, v, "'%s' is not one of Wave's scheduling operations (read_shared, write_shared, read_global, "
		     "write_global, global_to_shared, mma, alu, valu, salu, noop, shuffle)", s);
	return false;
}

bool ld_build_hint(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	long long x;
	(void)jvs;
	for (int i = 0; i < 4; i++)
		op->hint[i] = -1;
	if (op->kind == OP_MEMORY_COUNTER_WAIT || op->kind == OP_MEMORY_COUNTER_WAIT_BARRIER) {
		static const char *const cnt[] = {"load", "store", "ds", "exp"};
		for (int i = 0; i < 4; i++) {
			JV f = jv_get(L, n->jv, cnt[i]);
			if (!f.v || json_is_null(f.v))
				continue;
			if (!get_int(L, f, 0, 1 << 16, &x))
				return false;
			op->hint[i] = (int)x;
		}
		return true;
	}
	if (op->kind == OP_SET_WAVE_PRIO) {
		JV f = jv_get(L, n->jv, "priority");
		if (!need(L, n->jv, f, "priority") || !get_int(L, f, 0, 3, &x))
			return false;
		op->hint[0] = (int)x;
		return true;
	}
	if (op->kind == OP_SCHEDULING_BARRIER) {
		JV f = jv_get(L, n->jv, "operations");
		if (!f.v)
			return true;
		if (!jr_array(&L->r, f))
			return false;
		for (size_t i = 0; i < json_array_size(f.v); i++) {
			JV e = jv_at(L, f, i);
			const char *s;
			if (!jr_string(&L->r, e, &s) || !sched_op(L, e, s))
				return false;
		}
		return true;
	}
	/* scheduling_group_barrier */
	JV f = jv_get(L, n->jv, "instructions"), sid = jv_get(L, n->jv, "sync_id");
	if (sid.v && !get_int(L, sid, 0, 1 << 30, &x))
		return false;
	if (!f.v)
		return true;
	if (!jr_object(&L->r, f))
		return false;
	const char *key;
	json_t *val;
	json_object_foreach(f.v, key, val)
	{
		(void)val;
		JV e = jv_get(L, f, key);
		if (!sched_op(L, e, key) || !get_int(L, e, 0, 1 << 16, &x))
			return false;
	}
	return true;
}
