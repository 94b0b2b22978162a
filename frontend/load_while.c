/* load_while.c — the loader's rules for an iterate with a `condition`
 * (Wave's `tkw.iterate(AXIS, start=..., condition=AXIS < BOUND)`, the
 * persistent GEMMs' loop over output tiles) and the set_symbols in its
 * body, which the loader folds into plain format-1 constructs.
 *
 * Wave's semantics (handle_iterate_while): the axis symbol takes `start`;
 * while the condition holds the body runs, and the value the body's
 * set_symbol gives the axis is the next one. The symbols the body sets
 * (CTA_M_OFFSET) stand for their values in the ops after it.
 *
 * Algorithm (ld_finish_while, after the graph is built):
 *   - each set_symbol of a loop symbol (a symbol nothing else declares,
 *     set directly in such a body) folds its register into an expression:
 *     scalar values, self_index of the axis, + - * // %, minimum, maximum,
 *     comparisons, select and integer casts of rank-0 (or axis-shaped)
 *     integer values, with Wave's floor semantics;
 *   - the axis' own set_symbol must give axis + STEP, STEP a positive
 *     integer; the condition must be axis < B or axis <= B (B free of the
 *     axis); start folds like a set value (or is an expression);
 *   - the loop becomes a counted one: its tiling constraint moves to a
 *     fresh dim AXIS$trips (tile 1, start 0) with iters floor((B - S +
 *     STEP - 1) / STEP) (B - S + STEP for <=), and the axis becomes a
 *     symbol of value S + iv * STEP (iv the constraint's induction
 *     variable); each loop symbol gets its folded value. Values substitute
 *     as any symbol's (kernel_subs), in the compiler and the interpreter;
 *   - the set_symbols and the ops only they (or the start) used leave the
 *     graph; an op left that still has the axis as a dim is an error.
 * A value that follows a read from memory (Wave's stream-K spin lock on a
 * flag another workgroup stores) is rejected by name: such a loop waits
 * for other workgroups, which need not be resident together.
 * A loop symbol is global once folded, so an op that names it and does
 * not follow its set_symbol (in its body or one nested in it) is an
 * error, as is a use of the axis outside the loop.
 *
 * A loop whose axis is a carried value (`max_trips`; Wave's speculative
 * decoding: iterate(CUR_INDEX, start=cur_index, condition=CUR_INDEX >= 0
 * & ...), the next index read from memory) is first rewritten in the
 * input (carried_axes, before anything is declared): the axis is a
 * dynamic symbol the body's first op sets from carried value i (whose init
 * is the start and whose output is the next value), so the condition's
 * axis becomes GET_ITER_ARG<i>; a fresh axis AXIS_TRIP counts the trips
 * from 0, bounded by `AXIS_TRIP < max_trips`, and takes the axis' tiling
 * constraint. The loop is then a loop with conditions over carried values
 * (below), which stops at max_trips trips at the latest. */
#include <stdlib.h>
#include <string.h>

#include "load_graph.h"

static bool is_while_node(const Node *n)
{
	return n && n->kind == OP_ITERATE && json_object_get(n->jv.v, "condition");
}

/* Step 1 (declare_symbols): the axes of while loops and the symbols set
 * directly in their bodies, when nothing else declares them, become value
 * symbols whose values the graph gives (ld_finish_while). */
static void declare_in(Ld *L, json_t *list)
{
	for (size_t i = 0; json_is_array(list) && i < json_array_size(list); i++) {
		json_t *n = json_array_get(list, i);
		const char *op = json_string_value(json_object_get(n, "op"));
		if (!op || (strcmp(op, "iterate") != 0 && strcmp(op, "conditional") != 0))
			continue;
		json_t *body = json_object_get(n, "body");
		if (strcmp(op, "iterate") == 0 && (json_object_get(n, "condition") || json_object_get(n, "start"))) {
			const char *ax = json_string_value(json_object_get(n, "axis"));
			if (ax && ld_is_identifier(ax) && !kernel_symbol(L->k, ax)) {
				kernel_add_symbol(L->k, ax, SYMK_VALUE);
				vec_push(&L->loop_syms, intern(ax));
			}
			for (size_t j = 0; json_is_array(body) && j < json_array_size(body); j++) {
				json_t *m = json_array_get(body, j);
				const char *mop = json_string_value(json_object_get(m, "op"));
				const char *s = json_string_value(json_object_get(m, "symbol"));
				if (mop && strcmp(mop, "set_symbol") == 0 && s && ld_is_identifier(s) &&
					!ld_is_builtin_symbol(s) && !kernel_symbol(L->k, s)) {
					kernel_add_symbol(L->k, s, SYMK_VALUE);
					vec_push(&L->loop_syms, intern(s));
				}
			}
		}
		declare_in(L, body);
	}
}

/* The index of scalar argument `name` in args, or -1. */
static int scalar_arg(json_t *args, const char *name)
{
	for (size_t i = 0; json_is_array(args) && i < json_array_size(args); i++) {
		json_t *a = json_array_get(args, i);
		const char *n = json_string_value(json_object_get(a, "name"));
		const char *t = json_string_value(json_object_get(a, "type"));
		if (n && t && strcmp(n, name) == 0 && strcmp(t, "scalar") == 0)
			return (int)i;
	}
	return -1;
}

/* The i32 scalar arguments that a loop's `start` names (Wave's
 * `iterate(B, start=init_value, ...)` with `init_value: tkl.i32`) become
 * runtime values: dynamic symbols of their names, in the kernarg's
 * runtime sizes (docs/kernel-format.md, "Loops with a condition"). */
static void declare_starts(Ld *L, JV list, json_t *args)
{
	for (size_t i = 0; json_is_array(list.v) && i < json_array_size(list.v); i++) {
		JV n = jv_at(L, list, i);
		const char *op = json_string_value(json_object_get(n.v, "op"));
		const char *st = json_string_value(json_object_get(n.v, "start"));
		if (!op || strcmp(op, "iterate") != 0)
			continue;
		int at = st && ld_is_identifier(st) && !ld_is_start_arg(L, st) && !kernel_symbol(L->k, st)
				 ? scalar_arg(args, st)
				 : -1;
		const char *dt = at < 0 ? NULL : json_string_value(json_object_get(json_array_get(args, (size_t)at), "dtype"));
		if (dt && strcmp(dt, "i32") == 0) { /* others: ld_build_while */
			kernel_add_symbol(L->k, st, SYMK_DYNAMIC);
			vec_push(&L->start_args, intern(st));
		}
		declare_starts(L, jv_get(L, n, "body"), args);
	}
}

/* Is `name` a string in JSON array a? */
static bool in_strings(json_t *a, const char *name)
{
	for (size_t i = 0; json_is_array(a) && i < json_array_size(a); i++)
		if (json_is_string(json_array_get(a, i)) && strcmp(json_string_value(json_array_get(a, i)), name) == 0)
			return true;
	return false;
}

/* text with each identifier token `from` replaced by `to`. */
static char *replace_ident(Ld *L, const char *text, const char *from, const char *to)
{
	Buf b = {0};
	size_t n = strlen(from);
	for (const char *p = text; *p;) {
		bool id0 = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_' || *p == '$';
		if (!id0) {
			buf_printf(&b, "%c", *p++);
			continue;
		}
		const char *e = p;
		while ((*e >= 'A' && *e <= 'Z') || (*e >= 'a' && *e <= 'z') || (*e >= '0' && *e <= '9') || *e == '_' ||
			*e == '$')
			e++;
		if ((size_t)(e - p) == n && strncmp(p, from, n) == 0)
			buf_printf(&b, "%s", to);
		else
			buf_printf(&b, "%.*s", (int)(e - p), p);
		p = e;
	}
	char *r = arena_printf(&L->tmp, "%s", b.data ? b.data : "");
	buf_free(&b);
	return r;
}

/* Step 0 (carried_axes): rewrite each iterate with `max_trips` into a
 * loop over a fresh trip axis whose condition names the carried axis
 * (the comment atop gives the form). Errors are located at the field. */
static void carried_axes(Ld *L, JV root, JV list)
{
	for (size_t i = 0; json_is_array(list.v) && i < json_array_size(list.v); i++) {
		JV n = jv_at(L, list, i);
		const char *op = json_string_value(json_object_get(n.v, "op"));
		if (!op || (strcmp(op, "iterate") != 0 && strcmp(op, "conditional") != 0))
			continue;
		JV body = jv_get(L, n, "body");
		carried_axes(L, root, body);
		JV mt = jv_get(L, n, "max_trips");
		if (!mt.v || strcmp(op, "iterate") != 0)
			continue;
		const char *ax = json_string_value(json_object_get(n.v, "axis"));
		const char *st = json_string_value(json_object_get(n.v, "start"));
		const char *cond = json_string_value(json_object_get(n.v, "condition"));
		json_t *init = json_object_get(n.v, "init_args"), *iter = json_object_get(n.v, "iter_args");
		if (!ax || !st || !cond || !json_is_array(body.v) || !json_array_size(body.v)) {
			ld_err(L, mt, "a loop with max_trips has an axis, a start naming one of its init_args, a condition "
				      "and a body");
			continue;
		}
		if (!json_is_integer(mt.v) && !json_is_string(mt.v)) {
			ld_err(L, mt, "max_trips must be an integer or an expression of symbols");
			continue;
		}
		if (!in_strings(json_object_get(root.v, "dynamic_symbols"), ax)) {
			ld_err(L, jv_get(L, n, "axis"), "the axis %s of a loop with max_trips is a value the loop carries: "
							"it must be a dynamic symbol (dynamic_symbols), which the body's "
							"set_symbol binds",
				ax);
			continue;
		}
		int at = -1;
		for (size_t j = 0; json_is_array(init) && j < json_array_size(init); j++)
			if (json_is_string(json_array_get(init, j)) && strcmp(json_string_value(json_array_get(init, j)), st) == 0)
				at = (int)j;
		if (at < 0 || !json_is_array(iter) || (size_t)at >= json_array_size(iter)) {
			ld_err(L, jv_get(L, n, "start"), "the start '%s' of a loop with max_trips must be one of its init_args "
							 "(the axis is carried: Wave's iterate(CUR_INDEX, start=cur_index, "
							 "init_args=[cur_index, ...]))",
				st);
			continue;
		}
		const char *ia = json_string_value(json_array_get(iter, (size_t)at));
		json_t *b0 = json_array_get(body.v, 0);
		const char *b0op = json_string_value(json_object_get(b0, "op"));
		const char *b0s = json_string_value(json_object_get(b0, "symbol"));
		const char *b0r = json_string_value(json_object_get(b0, "register"));
		if (!ia || !b0op || strcmp(b0op, "set_symbol") != 0 || !b0s || strcmp(b0s, ax) != 0 || !b0r ||
			strcmp(b0r, ia) != 0) {
			ld_err(L, jv_at(L, body, 0), "the body of a loop with max_trips starts with the set_symbol of its "
						     "axis %s from its carried value '%s'",
				ax, ia ? ia : "?");
			continue;
		}
		json_t *out = json_array_get(body.v, json_array_size(body.v) - 1);
		const char *next = json_string_value(json_array_get(json_object_get(out, "values"), (size_t)at));
		bool ok = next != NULL;
		for (size_t j = 1; ok && j + 1 < json_array_size(body.v); j++) {
			json_t *m = json_array_get(body.v, j);
			const char *mop = json_string_value(json_object_get(m, "op"));
			const char *ms = json_string_value(json_object_get(m, "symbol"));
			const char *mr = json_string_value(json_object_get(m, "register"));
			if (mop && strcmp(mop, "set_symbol") == 0 && ms && strcmp(ms, ax) == 0 && (!mr || strcmp(mr, next) != 0)) {
				ld_err(L, jv_at(L, body, j), "the axis %s of a loop with max_trips takes its next value from "
							     "the carried value '%s': a set_symbol of it must give that value",
					ax, next);
				ok = false;
			}
		}
		if (!ok)
			continue;
		/* the fresh trip axis, and the axis' tiling constraint moved to it */
		const char *t = arena_printf(&L->tmp, "%s_TRIP", ax);
		for (int u = 2; kernel_symbol(L->k, t); u++)
			t = arena_printf(&L->tmp, "%s_TRIP%d", ax, u);
		json_t *cons = json_object_get(root.v, "constraints");
		bool moved = false;
		for (size_t j = 0; json_is_array(cons) && j < json_array_size(cons); j++) {
			json_t *c = json_array_get(cons, j);
			const char *kind = json_string_value(json_object_get(c, "kind"));
			const char *dim = json_string_value(json_object_get(c, "dim"));
			if (kind && dim && strcmp(kind, "tiling") == 0 && strcmp(dim, ax) == 0 && !moved) {
				json_object_set_new(c, "dim", json_string(t));
				moved = true;
			}
			json_t *vs = kind && strcmp(kind, "hardware") == 0 ? json_object_get(c, "vector_shapes") : NULL;
			if (json_is_object(vs))
				json_object_set_new(vs, t, json_integer(0));
		}
		if (!moved) {
			ld_err(L, jv_get(L, n, "axis"), "the axis %s of a loop has no tiling constraint", ax);
			continue;
		}
		const char *bound = json_is_integer(mt.v) ? arena_printf(&L->tmp, "%lld", (long long)json_integer_value(mt.v))
							  : json_string_value(mt.v);
		const char *c2 = replace_ident(L, cond, ax, arena_printf(&L->tmp, "GET_ITER_ARG%d", at));
		json_object_set_new(n.v, "axis", json_string(t));
		json_object_set_new(n.v, "start", json_string("0"));
		json_object_set_new(n.v, "condition", json_string(arena_printf(&L->tmp, "(%s < (%s)) & (%s)", t, bound, c2)));
	}
}

void ld_declare_loop_symbols(Ld *L, JV root)
{
	carried_axes(L, root, jv_get(L, root, "graph"));
	declare_starts(L, jv_get(L, root, "graph"), json_object_get(root.v, "arguments"));
	declare_in(L, json_object_get(root.v, "graph"));
}

bool ld_is_start_arg(const Ld *L, const char *name)
{
	name = intern(name);
	for (size_t i = 0; i < L->start_args.len; i++)
		if (L->start_args.data[i] == name)
			return true;
	return false;
}

bool ld_is_loop_symbol(const Ld *L, const char *name)
{
	name = intern(name);
	for (size_t i = 0; i < L->loop_syms.len; i++)
		if (L->loop_syms.data[i] == name)
			return true;
	return false;
}

/* The names of carried value i in a condition: Wave's GET_ITER_ARG(i) as
 * its printer writes it ($GET_ITER_ARG_i), and GET_ITER_ARG_i and
 * GET_ITER_ARGi (form 0, the one the loader turns the others into). */
enum { ITER_ARG_NAMES = 3 };

static Sym *iter_arg_sym(Kernel *k, int i, int form)
{
	static const char *const fmt[ITER_ARG_NAMES] = {"GET_ITER_ARG%d", "GET_ITER_ARG_%d", "$GET_ITER_ARG_%d"};
	return sym_symbol(k->sc, arena_printf(&k->arena, fmt[form], i));
}

/* Does e name one of the n carried-value symbols in ia? */
static bool names_carried(const Sym *e, Sym *const *ia, int n)
{
	for (int i = 0; i < n; i++)
		if (sym_mentions(e, ia[i]))
			return true;
	return false;
}

/* Split w->cond, a conjunction, into the part over the axis (w->cond: one
 * relation, which bounds the trips) and the part over carried values
 * (w->dcond: the rest of the conjuncts, or NULL). A condition over carried
 * values alone has no bound: such a loop may run forever. */
static bool split_condition(G *g, struct While *w, Sym *const *ia, int n, JV c)
{
	SymCtx *sc = g->k->sc;
	if (!names_carried(w->cond, ia, n))
		return true;
	Sym *terms[64], *axis_part = NULL, *data[64];
	int nt = 0, nd = 0;
	if (sym_kind(w->cond) == SYM_AND && sym_nargs(w->cond) <= 64)
		for (int i = 0; i < sym_nargs(w->cond); i++)
			terms[nt++] = sym_arg(w->cond, i);
	else
		terms[nt++] = w->cond;
	for (int i = 0; i < nt; i++) {
		if (names_carried(terms[i], ia, n)) {
			data[nd++] = terms[i];
			continue;
		}
		if (axis_part) {
			ld_err(g->L, c, "the condition %s bounds the axis twice (%s, %s): a loop with a condition is "
					"compiled for one bound of its axis and conditions over carried values",
				sym_str(sc, w->cond), sym_str(sc, axis_part), sym_str(sc, terms[i]));
			return false;
		}
		axis_part = terms[i];
	}
	if (!axis_part) {
		ld_err(g->L, c, "the condition %s has no conjunct that bounds the axis %s alone (%s < B): a loop "
				"whose condition names carried values is compiled with one, as otherwise it may never end",
			sym_str(sc, w->cond), sym_name(w->op->dim), sym_name(w->op->dim));
		return false;
	}
	if (sym_mentions(w->cond, w->op->dim) && nd && sym_mentions(sym_andv(sc, nd, data), w->op->dim)) {
		ld_err(g->L, c, "the condition %s names the axis %s beside a carried value: a conjunct over carried "
				"values is compiled when it names no symbol the loop changes",
			sym_str(sc, w->cond), sym_name(w->op->dim));
		return false;
	}
	w->cond = axis_part;
	w->dcond = sym_andv(sc, nd, data);
	return true;
}

/* build_iterate: a while loop's condition and start, kept for
 * ld_finish_while. */
bool ld_build_while(G *g, Node *n, Op *op)
{
	Ld *L = g->L;
	JV c = jv_get(L, n->jv, "condition"), s = jv_get(L, n->jv, "start");
	if (!c.v && !s.v)
		return true;
	if (!c.v || !s.v) {
		ld_err(L, c.v ? c : s, "an iterate with %s needs %s too (Wave's while loop; a counted loop's start is its "
				       "tiling constraint's)",
			c.v ? "a condition" : "a start", c.v ? "a start" : "a condition");
		return false;
	}
	struct While w = {n, op, NULL, NULL, NULL, s, !ld_is_loop_symbol(L, sym_name(op->dim)), NULL,
		json_object_get(n->jv.v, "max_trips") != NULL};
	/* GET_ITER_ARG<i> (Wave's GET_ITER_ARG(i), printed $GET_ITER_ARG_i)
	 * names carried value i */
	int ninit = (int)json_array_size(json_object_get(n->jv.v, "init_args"));
	Sym **ia = ARENA_NEWN(&g->k->arena, Sym *, ITER_ARG_NAMES * (size_t)ninit + 1);
	for (int i = 0; i < ninit; i++)
		for (int f = 0; f < ITER_ARG_NAMES; f++)
			ia[ITER_ARG_NAMES * i + f] = iter_arg_sym(g->k, i, f);
	Scope scope = {ITER_ARG_NAMES * ninit, ia, NULL};
	if (!(w.cond = ld_get_expr(L, c, &scope)))
		return false;
	if (!sym_is_bool(w.cond)) {
		ld_err(L, c, "a loop condition must be a relation, got '%s'", sym_str(g->k->sc, w.cond));
		return false;
	}
	if (!split_condition(g, &w, ia, ITER_ARG_NAMES * ninit, c))
		return false;
	const char *sn = json_string_value(s.v);
	Ent *e = sn ? ld_tab_find(g, intern(sn)) : NULL;
	if (e && e->kind == E_ARG) {
		ld_err(L, s, "the start of a loop is a node, an expression or an i32 scalar argument; '%s' is %s", sn,
			ld_vstr(g, e->arg));
		return false;
	}
	if (e && e->kind == E_NODE)
		w.start_node = e->node;
	else if (!(w.start = ld_get_expr(L, s, NULL)))
		return false;
	op->spin = ld_is_spin(L, n->jv.v);
	vec_push(&g->whiles, w);
	return true;
}

/* Is ks the axis of the while loop whose body holds n directly? */
bool ld_is_while_axis(G *g, const Node *n, const KSymbol *ks)
{
	for (size_t i = 0; i < g->whiles.len; i++)
		if (g->whiles.data[i].n == n->list->owner && g->whiles.data[i].op->dim == ks->sym)
			return true;
	return false;
}

/* ld_build_set_symbol: a set_symbol of a loop symbol, directly in a while
 * loop's body. */
bool ld_build_loop_set(G *g, Node *n, Op *op, JV f, KSymbol *ks)
{
	Ld *L = g->L;
	if (!n->list->owner || !is_while_node(n->list->owner)) {
		ld_err(L, f, "'%s' is set by the graph only directly in the body of an iterate with a condition", ks->name);
		return false;
	}
	Value *v = op->args[0];
	if (!ld_is_int_dtype(v->dtype)) {
		ld_err(L, jv_get(L, n->jv, "register"), "dtype mismatch: set_symbol's value '%s' must have an integer "
							"dtype, got %s",
			v->name, ld_vstr(g, v));
		return false;
	}
	op->dim = ks->sym;
	op->expr = ks->sym;
	struct LoopSet s = {n, op, NULL};
	vec_push(&g->loop_sets, s);
	return true;
}

typedef struct Fold {
	G *g;
	Sym *axis;         /* the axis of the loop being folded */
	Vec(Op *) visited; /* the ops folded (candidates for removal) */
	Node *at;          /* where to report */
} Fold;

/* The read (or atomic) whose result v follows through its operands, or
 * NULL. */
static const Op *memory_source(const Value *v, int depth)
{
	const Op *op = v->kind == VAL_RESULT ? v->def : NULL;
	if (!op || depth > 64)
		return NULL;
	if (op->kind == OP_READ || op_stores(op->kind))
		return op;
	for (int i = 0; i < op->nargs; i++) {
		const Op *r = memory_source(op->args[i], depth + 1);
		if (r)
			return r;
	}
	return NULL;
}

/* v as an expression of symbols and the axis, or NULL after reporting. */
static Sym *fold(Fold *f, const Value *v, int depth)
{
	G *g = f->g;
	SymCtx *sc = g->k->sc;
	const Op *mem = depth == 0 ? memory_source(v, 0) : NULL;
	if (mem) {
		/* Wave's stream-K spin lock: iterate(FLAG, condition=Eq(FLAG, 0))
		 * whose next value is read from a lock buffer */
		ld_err(g->L, f->at->jv, "'%s' follows '%s', read from memory: a loop that waits for memory to change "
					"(a spin-wait on what another workgroup stores) is not compiled: the workgroups need not "
					"run at the same time, so it may never end",
			v->name, mem->name);
		return NULL;
	}
	const Op *op = v->kind == VAL_RESULT ? v->def : NULL;
	bool shape_ok = v->shape.rank == 0 || (v->shape.rank == 1 && v->shape.dims[0] == f->axis);
	if (!op || depth > 64 || !shape_ok || (!ld_is_int_dtype(v->dtype) && v->dtype != DT_I1)) {
		ld_err(g->L, f->at->jv, "'%s' cannot be folded into a symbol's value: a loop with a condition sets "
					"symbols from scalar integer values and its axis (scalar, self_index of the axis, + "
					"- * // %%, minimum, maximum, comparisons, select, integer casts)",
			v->name);
		return NULL;
	}
	vec_push(&f->visited, (Op *)op);
	Sym *a = NULL, *b = NULL, *c = NULL;
	if (op->nargs >= 1 && op->kind != OP_SCALAR && op->kind != OP_SELF_INDEX && !(a = fold(f, op->args[0], depth + 1)))
		return NULL;
	if (op->nargs >= 2 && !(b = fold(f, op->args[1], depth + 1)))
		return NULL;
	if (op->nargs >= 3 && !(c = fold(f, op->args[2], depth + 1)))
		return NULL;
	switch (op->kind) {
	case OP_SCALAR:
		if (op->sarg)
			break;
		if (op->expr)
			return op->expr;
		if (op->value == (double)(int64_t)op->value)
			return sym_int(sc, (int64_t)op->value);
		break;
	case OP_SELF_INDEX:
		if (op->dim == f->axis)
			return f->axis;
		break;
	case OP_ADD: return sym_add(sc, a, b);
	case OP_SUB: return sym_sub(sc, a, b);
	case OP_MUL: return sym_mul(sc, a, b);
	case OP_FLOORDIV: return sym_floordiv(sc, a, b);
	case OP_MOD: return sym_mod(sc, a, b);
	case OP_MINIMUM: return sym_min(sc, a, b);
	case OP_MAXIMUM: return sym_max(sc, a, b);
	case OP_LT: return sym_rel(sc, SYM_LT, a, b);
	case OP_LE: return sym_rel(sc, SYM_LE, a, b);
	case OP_GT: return sym_rel(sc, SYM_GT, a, b);
	case OP_GE: return sym_rel(sc, SYM_GE, a, b);
	case OP_EQ: return sym_rel(sc, SYM_EQ, a, b);
	case OP_NE: return sym_rel(sc, SYM_NE, a, b);
	case OP_SELECT: {
		Sym *vals[2] = {b, c}, *conds[2] = {a, sym_true(sc)};
		return sym_is_bool(a) ? sym_piecewise(sc, 2, vals, conds) : NULL;
	}
	case OP_CAST:
		if (ld_is_int_dtype(op->dtype))
			return a;
		break;
	case OP_APPLY_EXPR: {
		if (op->nparams < 1 || op->nparams > 3 || op->nparams != op->nargs || !op->expr)
			break;
		Sym *vals[3] = {a, b, c};
		return sym_subs(sc, op->expr, op->nparams, op->params, vals);
	}
	default:
		break;
	}
	ld_err(g->L, f->at->jv, "'%s' (%s) cannot be folded into a symbol's value: a loop with a condition sets symbols "
				"from scalar integer values and its axis (scalar, self_index of the axis, + - * // %%, "
				"minimum, maximum, comparisons, select, integer casts)",
		v->name, op_info[op->kind].name);
	return NULL;
}

/* Is `name` one of the identifiers in s? */
static bool mentions(const char *s, const char *name)
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

/* Does a string of JSON value j (not a node's body) name `name`? */
static bool json_mentions(json_t *j, const char *name)
{
	if (json_is_string(j))
		return mentions(json_string_value(j), name);
	if (json_is_array(j)) {
		for (size_t i = 0; i < json_array_size(j); i++)
			if (json_mentions(json_array_get(j, i), name))
				return true;
	}
	if (json_is_object(j)) {
		const char *key;
		json_t *v;
		json_object_foreach(j, key, v)
			if (strcmp(key, "body") != 0 && strcmp(key, "name") != 0 && json_mentions(v, name))
				return true;
	}
	return false;
}

/* ---- spin-waits (ld_rewrite_spin_waits) ----
 * Wave's stream-K spin lock, iterate(AXIS, start=S, condition=Eq(AXIS, C))
 * whose body sets AXIS to a value that follows a read of a flag another
 * workgroup stores, is rewritten, before anything else reads the graph, as
 * a loop over a carried flag (docs/kernel-format.md, "Spin-waits"):
 *     S (a scalar node of integer value V used only as the start) becomes
 *       a register of the flag's shape and dtype holding V;
 *     iterate(AXIS, start=0, condition=(AXIS < 2^31 - 1) & Eq(GET_ITER_ARG0, C),
 *       init_args=[S], iter_args=[LOOP_spin_flag]), the body's set_symbol of
 *       AXIS now a `scalar` AXIS + 1 and a set_symbol of it before the
 *       output, which returns the flag's value;
 * so the loop is a loop with a condition over a carried value (its body
 * runs where the flag still equals C, and it ends when it runs in no lane),
 * marked as a spin-wait (Op.spin): the compiler gives it no trip bound and
 * the interpreter lets the other workgroups run at each trip. The kernel is
 * marked co-resident (Kernel.co_resident). The flag's type is read off the
 * value the body sets: a register, or a select or cast of one. Anything
 * else about such a loop is a located error naming what is not compiled. */

/* The node of `name` in the array list, or NULL (its index in *at). */
static json_t *list_node(json_t *list, const char *name, size_t *at)
{
	for (size_t i = 0; name && json_is_array(list) && i < json_array_size(list); i++) {
		json_t *n = json_array_get(list, i);
		const char *nm = json_string_value(json_object_get(n, "name"));
		if (nm && strcmp(nm, name) == 0) {
			if (at)
				*at = i;
			return n;
		}
	}
	return NULL;
}

/* Does body node `name` follow a read (or an atomic) of memory through
 * the operands the body gives it? */
static bool json_follows_read(json_t *body, const char *name, int depth)
{
	json_t *n = list_node(body, name, NULL);
	const char *op = json_string_value(json_object_get(n, "op"));
	if (!n || !op || depth > 64)
		return false;
	if (strcmp(op, "read") == 0 || strncmp(op, "atomic", 6) == 0)
		return true;
	const char *key;
	json_t *v;
	json_object_foreach(n, key, v) {
		if (strcmp(key, "name") == 0 || strcmp(key, "op") == 0)
			continue;
		if (json_is_string(v) && strcmp(json_string_value(v), name) != 0 &&
		    json_follows_read(body, json_string_value(v), depth + 1))
			return true;
	}
	return false;
}

/* The shape and dtype of body node `name`: a register's, or through a
 * select's if_true or a cast's operand (the cast's dtype). */
static bool json_flag_type(json_t *body, const char *name, json_t **shape, const char **dtype, int depth)
{
	json_t *n = list_node(body, name, NULL);
	const char *op = json_string_value(json_object_get(n, "op"));
	if (!n || !op || depth > 16)
		return false;
	if (strcmp(op, "register") == 0) {
		*shape = json_object_get(n, "shape");
		*dtype = json_string_value(json_object_get(n, "dtype"));
		return json_is_array(*shape) && *dtype;
	}
	if (strcmp(op, "select") == 0)
		return json_flag_type(body, json_string_value(json_object_get(n, "if_true")), shape, dtype, depth + 1);
	if (strcmp(op, "cast") == 0 &&
	    json_flag_type(body, json_string_value(json_object_get(n, "arg")), shape, dtype, depth + 1)) {
		*dtype = json_string_value(json_object_get(n, "dtype"));
		return *dtype != NULL;
	}
	return false;
}

/* How many string values in j (names included) equal `name`. */
static int json_count_name(json_t *j, const char *name)
{
	int c = 0;
	if (json_is_string(j))
		return strcmp(json_string_value(j), name) == 0;
	if (json_is_array(j))
		for (size_t i = 0; i < json_array_size(j); i++)
			c += json_count_name(json_array_get(j, i), name);
	if (json_is_object(j)) {
		const char *key;
		json_t *v;
		json_object_foreach(j, key, v)
			c += json_count_name(v, name);
	}
	return c;
}

/* Eq(AXIS, C) (spaces anywhere): C in *c. */
static bool parse_eq(const char *cond, const char *axis, long long *c)
{
	char buf[256];
	size_t k = 0;
	for (const char *p = cond; *p && k + 1 < sizeof buf; p++)
		if (*p != ' ')
			buf[k++] = *p;
	buf[k] = 0;
	size_t al = strlen(axis);
	if (strncmp(buf, "Eq(", 3) != 0 || strncmp(buf + 3, axis, al) != 0 || buf[3 + al] != ',')
		return false;
	char *end;
	*c = strtoll(buf + 4 + al, &end, 10);
	return end != buf + 4 + al && strcmp(end, ")") == 0;
}

static void rewrite_spin(Ld *L, JV list, JV n, json_t *root_graph)
{
	json_t *nv = n.v, *body = json_object_get(nv, "body");
	const char *axis = json_string_value(json_object_get(nv, "axis"));
	const char *cond = json_string_value(json_object_get(nv, "condition"));
	const char *start = json_string_value(json_object_get(nv, "start"));
	const char *loop = json_string_value(json_object_get(nv, "name"));
	if (!axis || !json_is_array(body) || !loop)
		return;
	/* kept: the fields they come from are replaced below */
	axis = intern(axis);
	loop = intern(loop);
	start = start ? intern(start) : NULL;
	/* the body's one set_symbol of the axis, its value following a read */
	size_t set_at = 0, nsets = 0;
	const char *flag = NULL;
	for (size_t i = 0; i < json_array_size(body); i++) { /* (flag interned below) */
		json_t *m = json_array_get(body, i);
		const char *op = json_string_value(json_object_get(m, "op"));
		const char *sym = json_string_value(json_object_get(m, "symbol"));
		if (op && strcmp(op, "set_symbol") == 0 && sym && strcmp(sym, axis) == 0) {
			nsets++;
			set_at = i;
			flag = json_string_value(json_object_get(m, "register"));
		}
	}
	if (nsets != 1 || !flag || !json_follows_read(body, flag, 0))
		return; /* not a spin-wait: the rules of load_while.c apply */
	flag = intern(flag);
	JV at = jv_get(L, n, "condition");
	const char *what = "a spin-wait (a loop whose axis' next value follows a read of memory another workgroup "
			   "stores) is compiled as Eq(AXIS, C) with C an integer, no carried values, a start that names a "
			   "scalar node of integer value used only there, a flag that is a register or a select or cast "
			   "of registers, and no other use of the axis";
	long long c = 0;
	size_t sat = 0;
	json_t *sn = list_node(list.v, start, &sat);
	json_t *shape = NULL;
	const char *dtype = NULL;
	json_t *sval = json_object_get(sn, "value");
	const char *sop = json_string_value(json_object_get(sn, "op"));
	json_t *probe = json_deep_copy(body);
	json_array_remove(probe, set_at);
	bool ok = cond && parse_eq(cond, axis, &c) && json_array_size(json_object_get(nv, "init_args")) == 0 &&
		  json_array_size(json_object_get(nv, "iter_args")) == 0 && sn && sop && strcmp(sop, "scalar") == 0 &&
		  json_is_integer(sval) && json_count_name(root_graph, start) == 2 &&
		  json_flag_type(body, flag, &shape, &dtype, 0) && !json_mentions(probe, axis);
	json_decref(probe);
	/* the flag's read must reach memory every trip: volatile or acquire */
	for (size_t i = 0; ok && i < json_array_size(body); i++) {
		json_t *m = json_array_get(body, i);
		const char *op = json_string_value(json_object_get(m, "op"));
		const char *mo = json_string_value(json_object_get(m, "memory_order"));
		if (op && strcmp(op, "read") == 0 && !json_is_true(json_object_get(m, "volatile")) &&
		    !(mo && strcmp(mo, "acquire") == 0)) {
			ld_err(L, jv_at(L, jv_get(L, n, "body"), i), "'%s' is read in a spin-wait without \"volatile\" or "
			       "\"memory_order\": \"acquire\": a plain read may be served from a cache or hoisted "
			       "out of the loop, so the wait might never see the store", json_string_value(json_object_get(m, "name")));
			return;
		}
	}
	if (!ok) {
		ld_err(L, at, "'%s' follows a read from memory, a spin-wait on what another workgroup stores: %s", flag,
		       what);
		return;
	}
	/* the start: a register of the flag's type holding its value */
	json_t *reg = json_pack("{s:s, s:s, s:O, s:s, s:I}", "name", start, "op", "register", "shape", shape, "dtype",
				dtype, "value", (json_int_t)json_integer_value(sval));
	json_array_set_new(list.v, sat, reg);
	char *carried = arena_printf(&L->tmp, "%s_spin_flag", loop);
	char *next = arena_printf(&L->tmp, "%s_spin_next", loop);
	char *setn = arena_printf(&L->tmp, "%s_spin_set", loop);
	json_object_set_new(nv, "start", json_string("0"));
	json_object_set_new(nv, "condition",
			    json_string(arena_printf(&L->tmp, "(%s < 2147483647) & Eq(GET_ITER_ARG0, %lld)", axis, c)));
	json_object_set_new(nv, "init_args", json_pack("[s]", start));
	json_object_set_new(nv, "iter_args", json_pack("[s]", carried));
	json_array_set_new(body, set_at,
			   json_pack("{s:s, s:s, s:s, s:s}", "name", next, "op", "scalar", "value",
				     arena_printf(&L->tmp, "%s + 1", axis), "dtype", "i32"));
	size_t last = json_array_size(body) - 1;
	json_t *out = json_array_get(body, last);
	const char *oop = json_string_value(json_object_get(out, "op"));
	if (!oop || strcmp(oop, "output") != 0)
		return; /* reported where the body is read */
	json_array_insert_new(body, last,
			      json_pack("{s:s, s:s, s:s, s:s}", "name", setn, "op", "set_symbol", "symbol", axis, "register",
					next));
	json_object_set_new(out, "values", json_pack("[s]", flag));
	vec_push(&L->spins, nv);
	L->k->co_resident = true;
}

static void find_spins(Ld *L, JV list, json_t *root_graph)
{
	for (size_t i = 0; json_is_array(list.v) && i < json_array_size(list.v); i++) {
		JV n = jv_at(L, list, i);
		const char *op = json_string_value(json_object_get(n.v, "op"));
		if (!op || (strcmp(op, "iterate") != 0 && strcmp(op, "conditional") != 0))
			continue;
		if (strcmp(op, "iterate") == 0 && json_object_get(n.v, "condition") && json_object_get(n.v, "start"))
			rewrite_spin(L, list, n, root_graph);
		find_spins(L, jv_get(L, n, "body"), root_graph);
	}
}

void ld_rewrite_spin_waits(Ld *L, JV root)
{
	find_spins(L, jv_get(L, root, "graph"), json_object_get(root.v, "graph"));
}

bool ld_is_spin(const Ld *L, const json_t *iterate)
{
	for (size_t i = 0; i < L->spins.len; i++)
		if (L->spins.data[i] == iterate)
			return true;
	return false;
}

/* A loop symbol named where its value is not yet set: reported. */
static bool check_uses(G *g, const Node *m, const char *name, bool axis)
{
	for (size_t i = 0; i < g->all.len; i++) {
		const Node *x = g->all.data[i];
		if (x == m || !json_mentions(x->jv.v, name))
			continue;
		bool ok = axis ? (x != m->list->owner && ld_list_encloses(m->list, x->list)) : ld_node_follows(m, x);
		if (axis && x == m->list->owner) /* the loop's own axis and condition */
			continue;
		if (!ok) {
			ld_err(g->L, x->jv, "'%s' names %s, which %s sets only %s", x->name, name, m->name,
				axis ? "inside the loop" : "for the ops after it in its body");
			return false;
		}
	}
	return true;
}

static struct LoopSet *find_set(G *g, const Node *loop, Sym *s, int *count)
{
	struct LoopSet *r = NULL;
	*count = 0;
	for (size_t i = 0; i < g->loop_sets.len; i++) {
		struct LoopSet *x = &g->loop_sets.data[i];
		if (x->op->dim == s && (!loop || x->n->list->owner == loop)) {
			r = r ? r : x;
			++*count;
		}
	}
	return r;
}

/* The loop's bound from axis < B or axis <= B, in whichever form the
 * relation was simplified to (it compares one expression d with 0); NULL
 * if the condition is not of that form. *incl: <=. */
static Sym *bound_of(SymCtx *sc, Sym *cond, Sym *axis, bool *incl)
{
	SymKind k = sym_kind(cond);
	if (k != SYM_LT && k != SYM_LE && k != SYM_GT && k != SYM_GE)
		return NULL;
	Sym *d = sym_arg(cond, 0);
	*incl = k == SYM_LE || k == SYM_GE;
	if (k == SYM_LT || k == SYM_LE) { /* axis + r < 0: axis < -r */
		Sym *r = sym_simplify(sc, sym_sub(sc, d, axis), NULL);
		return sym_mentions(r, axis) ? NULL : sym_simplify(sc, sym_neg(sc, r), NULL);
	}
	Sym *r = sym_simplify(sc, sym_add(sc, d, axis), NULL); /* -axis + r > 0: axis < r */
	return sym_mentions(r, axis) ? NULL : r;
}

/* Is next Min(C, AXIS - Mod(AXIS, T) + T) (either order), the step of a
 * loop that walks to the next multiple of T (Wave's stream-K loop over its
 * work units, from one output tile's k iterations to the next's), with T a
 * positive integer and C free of the axis and the loop's symbols, and C at
 * least the loop's bound? Then *cap = C, *t = T. C below the bound would
 * leave the loop at C for ever (the source loop never ends): only a C the
 * loader proves at least the bound (equal to it, or greater by a constant
 * at the document's values) is accepted. */
static bool next_multiple(G *g, Sym *next, Sym *axis, Sym **cap, Sym **t)
{
	SymCtx *sc = g->k->sc;
	if (sym_kind(next) != SYM_MIN || sym_nargs(next) != 2)
		return false;
	for (int side = 0; side < 2; side++) {
		Sym *x = sym_arg(next, side), *c = sym_arg(next, 1 - side);
		if (sym_mentions(c, axis))
			continue;
		Sym *fs[16];
		size_t nfs = sym_free_symbols(sc, c, fs, 16);
		bool free_ok = nfs <= 16;
		for (size_t i = 0; i < nfs && i < 16; i++)
			free_ok = free_ok && !ld_is_loop_symbol(g->L, sym_name(fs[i]));
		if (!free_ok || sym_kind(x) != SYM_ADD)
			continue;
		for (int i = 0; i < sym_nargs(x); i++) {
			Sym *m = sym_arg(x, i);
			/* -Mod(AXIS, T) appears as Mul(-1, Mod(AXIS, T)) */
			if (sym_kind(m) == SYM_MUL && sym_nargs(m) == 2 && sym_kind(sym_arg(m, 1)) == SYM_MOD)
				m = sym_arg(m, 1);
			if (sym_kind(m) != SYM_MOD || sym_arg(m, 0) != axis)
				continue;
			Sym *T = sym_arg(m, 1);
			int64_t tv;
			if (!sym_is_int(kernel_subs(g->k, T), &tv) || tv < 1 || sym_mentions(T, axis))
				continue;
			Sym *rest = sym_simplify(sc, sym_sub(sc, x, sym_add(sc, sym_sub(sc, axis, m), T)), NULL);
			int64_t z;
			if (!sym_is_int(rest, &z) || z != 0)
				continue;
			*cap = c;
			*t = T;
			return true;
		}
	}
	return false;
}

/* Is cap at least bound at the document's values: their difference a
 * non-negative integer, with a bound that is a dynamic symbol the kernel
 * body sets once (at its top level, Wave's WORK_UNIT_END) taken as the
 * value its set_symbol folds to? */
static bool cap_covers(G *g, Sym *cap, Sym *bound)
{
	Kernel *k = g->k;
	SymCtx *sc = k->sc;
	int64_t d;
	Sym *b = bound;
	if (sym_kind(bound) == SYM_SYMBOL) {
		const Op *set = NULL;
		int n = 0;
		for (size_t i = 0; i < k->op_list.len; i++) {
			const Op *o = k->op_list.data[i];
			if (o->kind == OP_SET_SYMBOL && o->dim == bound)
				set = o, n++;
		}
		if (n == 1 && set->parent == k->body) {
			Fold f = {.g = g, .at = NULL};
			f.at = NULL;
			for (size_t i = 0; i < g->loop_sets.len && !f.at; i++)
				f.at = g->loop_sets.data[i].n;
			Sym *v = f.at ? fold(&f, set->args[0], 0) : NULL;
			vec_free(&f.visited);
			if (v)
				b = v;
		}
	}
	Sym *diff = sym_simplify(sc, sym_sub(sc, kernel_subs(k, cap), kernel_subs(k, b)), NULL);
	return sym_is_int(diff, &d) && d >= 0;
}

static bool finish_one(G *g, struct While *w, Fold *f)
{
	Ld *L = g->L;
	Kernel *k = g->k;
	SymCtx *sc = k->sc;
	Sym *axis = w->op->dim;
	f->axis = axis;
	int cnt;
	struct LoopSet *step_set = find_set(g, w->n, axis, &cnt);
	if (w->trips && cnt == 0) {
		/* a carried axis (carried_axes): the fresh trip axis counts by 1 */
		static struct LoopSet none;
		none.value = sym_add(sc, axis, sym_int(sc, 1));
		step_set = &none;
		cnt = 1;
	}
	if (cnt != 1) {
		ld_err(L, w->n->jv, "the body of '%s' sets %s %d times: a loop with a condition takes its next value from "
				    "one set_symbol of its axis",
			w->n->name, sym_name(axis), cnt);
		return false;
	}
	/* the step stays an expression (a -D of NUM_CTAS changes it): checked
	 * here on the document's values, and as a tile by the analysis and the
	 * interpreter on the bound ones */
	Sym *next = step_set->value;
	Sym *st = sym_simplify(sc, sym_sub(sc, next, axis), NULL), *fs[16];
	int64_t step;
	size_t nfs = sym_free_symbols(sc, st, fs, 16);
	bool sym_ok = nfs <= 16;
	for (size_t i = 0; i < nfs && i < 16; i++)
		sym_ok = sym_ok && fs[i] != axis && !ld_is_loop_symbol(L, sym_name(fs[i])) && sym_name(fs[i])[0] != '$';
	Sym *cap = NULL, *tstep = NULL;
	if ((!sym_ok || !sym_is_int(kernel_subs(k, st), &step) || step < 1) &&
	    !next_multiple(g, next, axis, &cap, &tstep)) {
		ld_err(L, step_set->n->jv, "the next value of %s is %s: a loop with a condition is compiled when it "
					   "steps its axis by a positive constant, or to the next multiple of one "
					   "(Min(C, %s - Mod(%s, T) + T) with C at least the bound)",
			sym_name(axis), sym_str(sc, next), sym_name(axis), sym_name(axis));
		return false;
	}
	if (tstep)
		st = sym_int(sc, 1);
	Sym *start = w->start;
	if (!start) {
		if (!w->start_node->op)
			return false; /* reported where it was built */
		f->at = w->n;
		if (!(start = fold(f, op_result(w->start_node->op), 0)))
			return false;
	}
	if (sym_mentions(kernel_subs(k, start), axis)) {
		ld_err(L, w->start_jv, "the start of '%s' names its own axis %s", w->n->name, sym_name(axis));
		return false;
	}
	bool incl = false;
	Sym *bound = bound_of(sc, w->cond, axis, &incl);
	if (!bound) {
		ld_err(L, jv_get(L, w->n->jv, "condition"), "the condition %s is not compiled: a loop with a condition is "
							    "compiled for %s < B or %s <= B",
			sym_str(sc, w->cond), sym_name(axis), sym_name(axis));
		return false;
	}
	Constraint *t = (Constraint *)kernel_constraint(k, CON_TILING, axis);
	bool dim_ok = t && !t->start && !t->iters &&
		      (w->dim_axis ? sym_is_int(sym_simplify(sc, sym_sub(sc, t->tile, st), NULL), &step) && step == 0
				   : sym_is_int(kernel_subs(k, t->tile), &step) && step == 1);
	if (!dim_ok) {
		ld_err(L, jv_get(L, w->n->jv, "axis"), w->dim_axis ? "the tiling constraint of %s, the axis of a loop with "
								     "a condition, must have the loop's step %s as its "
								     "tile and no start or iters"
								   : "the tiling constraint of %s, the axis of a loop with "
								     "a condition, must have a tile of 1 and no start or "
								     "iters (the loop's start, condition and set_symbol "
								     "give them; step %s)",
			sym_name(axis), sym_str(sc, st));
		return false;
	}
	/* the trips: the number of S + i*STEP that meet the condition (a
	 * negative count runs no trip: Max keeps the division unsigned) */
	Sym *num = sym_add(sc, sym_sub(sc, bound, start), incl ? st : sym_sub(sc, st, sym_int(sc, 1)));
	t->iters = sym_simplify(sc, sym_floordiv(sc, sym_max(sc, sym_int(sc, 0), num), st), NULL);
	Sym *at = sym_add(sc, start, sym_mul(sc, t->induction_var, st));
	if (tstep && !cap_covers(g, cap, bound)) {
		ld_err(L, step_set->n->jv, "the next value of %s is %s: the loop steps to the next multiple of %s, capped "
					   "at %s, which is not shown to be at least the bound %s (below it, the loop would "
					   "stay at the cap for ever)",
			sym_name(axis), sym_str(sc, next), sym_str(sc, tstep), sym_str(sc, cap), sym_str(sc, bound));
		return false;
	}
	if (tstep) {
		if (w->dim_axis || incl) {
			ld_err(L, step_set->n->jv, "a loop that steps %s to the next multiple of %s is compiled over a "
						   "symbol of its own with the condition %s < B", sym_name(axis),
				sym_str(sc, tstep), sym_name(axis));
			return false;
		}
		/* trip i is at Max(S, (S // T + i) * T) (Min C, which the bound
		 * makes no difference to): the trips are the T-tiles [S, B)
		 * touches, Min(B - S, ceiling(B / T) - S // T), at least 0 */
		Sym *one = sym_int(sc, 1), *first = sym_floordiv(sc, start, tstep);
		Sym *tiles = sym_sub(sc, sym_floordiv(sc, sym_add(sc, bound, sym_sub(sc, tstep, one)), tstep), first);
		t->iters = sym_simplify(sc, sym_max(sc, sym_int(sc, 0), sym_min(sc, sym_sub(sc, bound, start), tiles)), NULL);
		at = sym_min(sc, cap, sym_max(sc, start, sym_mul(sc, sym_add(sc, first, t->induction_var), tstep)));
	}
	if (w->dim_axis) {
		/* the axis stays a dim: trip i's window [S + i*tile, + tile) is
		 * the axis' value (the step is the tile); the set symbols take
		 * that value for the axis */
		t->start = start;
		for (size_t i = 0; i < g->loop_sets.len; i++) {
			struct LoopSet *x = &g->loop_sets.data[i];
			if (x->n->list->owner == w->n && x->op->dim != axis)
				x->value = sym_subs(sc, x->value, 1, &axis, &at);
		}
		return true;
	}
	/* the tile is the step, so that the analysis and the interpreter
	 * reject a bound step below 1; no value has the fresh dim */
	t->tile = st;
	const char *fresh = arena_printf(&k->arena, "%s$trips", sym_name(axis));
	KSymbol *fd = kernel_add_symbol(k, fresh, SYMK_VALUE);
	fd->value = sym_int(sc, 1);
	fd->loc = t->loc;
	Sym *F = fd->sym;
	t->dim = F;
	w->op->dim = F;
	Constraint *hw = k->hw >= 0 ? &k->cons.data[k->hw] : NULL;
	for (int i = 0; hw && i < hw->nvector_shapes; i++)
		if (hw->vs_dims[i] == axis)
			hw->vs_dims[i] = F;
	KSymbol *ks = kernel_symbol(k, sym_name(axis));
	ks->value = at;
	ks->loc = t->loc;
	return w->trips || check_uses(g, step_set->n, sym_name(axis), true);
}

/* Remove the folded ops nothing else uses, and the loop set_symbols. */
static void remove_folded(G *g, Fold *f)
{
	Kernel *k = g->k;
	int *uses = xcalloc((size_t)k->nvalues + 1, sizeof(int));
	bool *gone = xcalloc((size_t)k->nops + 1, sizeof(bool));
	bool *cand = xcalloc((size_t)k->nops + 1, sizeof(bool));
	for (size_t i = 0; i < f->visited.len; i++)
		cand[f->visited.data[i]->id] = true;
	for (size_t i = 0; i < k->op_list.len; i++) {
		Op *op = k->op_list.data[i];
		for (int a = 0; a < op->nargs; a++)
			if (op->args[a])
				uses[op->args[a]->id]++;
	}
	Vec(Op *) work = {0};
	for (size_t i = 0; i < g->loop_sets.len; i++)
		vec_push(&work, g->loop_sets.data[i].op);
	while (work.len) {
		Op *op = vec_pop(&work);
		if (gone[op->id])
			continue;
		gone[op->id] = true;
		for (int a = 0; a < op->nargs; a++) {
			Value *v = op->args[a];
			if (v && --uses[v->id] == 0 && v->kind == VAL_RESULT && cand[v->def->id]) {
				bool unused = true;
				for (int r = 0; r < v->def->nresults; r++)
					unused = unused && uses[v->def->results[r]->id] == 0;
				if (unused)
					vec_push(&work, v->def);
			}
		}
	}
	/* the starts' ops, which no op uses */
	for (size_t i = 0; i < f->visited.len; i++) {
		Op *op = f->visited.data[i];
		bool unused = !gone[op->id];
		for (int r = 0; r < op->nresults && unused; r++)
			unused = uses[op->results[r]->id] == 0;
		if (unused)
			vec_push(&work, op);
	}
	while (work.len) {
		Op *op = vec_pop(&work);
		if (gone[op->id])
			continue;
		gone[op->id] = true;
		for (int a = 0; a < op->nargs; a++) {
			Value *v = op->args[a];
			if (v && --uses[v->id] == 0 && v->kind == VAL_RESULT && cand[v->def->id] && v->def->nresults == 1)
				vec_push(&work, v->def);
		}
	}
	vec_free(&work);
	size_t n = 0;
	for (size_t i = 0; i < k->op_list.len; i++) {
		Op *op = k->op_list.data[i];
		if (gone[op->id]) {
			Region *r = op->parent;
			size_t m = 0;
			for (size_t j = 0; j < r->ops.len; j++)
				if (r->ops.data[j] != op)
					r->ops.data[m++] = r->ops.data[j];
			r->ops.len = m;
			continue;
		}
		k->op_list.data[n++] = op;
	}
	k->op_list.len = n;
	n = 0;
	for (size_t i = 0; i < k->values.len; i++) {
		Value *v = k->values.data[i];
		if (!(v->kind == VAL_RESULT && gone[v->def->id]))
			k->values.data[n++] = v;
	}
	k->values.len = n;
	free(uses);
	free(gone);
	free(cand);
}

/* An op left with a while loop's axis as a dim: its value is the axis'
 * symbol now, not a dim. */
static bool check_axis_dims(G *g, const Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (op->body && !check_axis_dims(g, op->body))
			return false;
		for (int j = 0; j < op->nresults; j++) {
			const Value *v = op->results[j];
			for (int d = 0; d < v->shape.rank; d++)
				if (ld_is_loop_symbol(g->L, sym_name(v->shape.dims[d]))) {
					diag_error(g->L->d, op->loc, "%s: '%s' has %s as a dim, which a loop with a condition "
								     "sets: such a value is compiled only as a set_symbol's "
								     "value",
						op->path, op->name, sym_name(v->shape.dims[d]));
					return false;
				}
		}
	}
	return true;
}

/* A loop whose condition also names carried values: its body becomes a
 * conditional on them, whose else values are the carried values, so a
 * trip where they fail runs nothing and keeps them (a lane, or an element,
 * whose condition fails stays so: what it names does not change). The
 * trips stay those the axis' bound counts; the compiler leaves the loop
 * when no lane's condition holds (isel/control.c). */
static bool wrap_body(G *g, struct While *w)
{
	Kernel *k = g->k;
	Op *it = w->op;
	Region *body = it->body;
	Op *out = body->ops.len ? vec_last(&body->ops) : NULL;
	if (!out || out->kind != OP_OUTPUT || out->nargs != body->nparams)
		return false; /* reported where the iterate was built */
	for (size_t i = 0; i < g->loop_sets.len; i++) {
		struct LoopSet *x = &g->loop_sets.data[i];
		if (ld_list_encloses(w->n->body, x->n->list) && sym_mentions(w->dcond, x->op->dim)) {
			ld_err(g->L, jv_get(g->L, w->n->jv, "condition"), "the condition of '%s' names %s, which its body "
									  "sets: a conjunct over carried values is compiled "
									  "when it names no symbol the loop changes",
				w->n->name, sym_name(x->op->dim));
			return false;
		}
	}
	/* the carried values the condition names */
	int np = body->nparams, m = 0;
	Value **args = ARENA_NEWN(&k->arena, Value *, np + 1);
	Sym **params = ARENA_NEWN(&k->arena, Sym *, np + 1);
	Shape s = {0, NULL};
	for (int i = 0; i < np; i++) {
		Sym *a = iter_arg_sym(k, i, 0);
		bool named = false;
		for (int f = 0; f < ITER_ARG_NAMES; f++) {
			Sym *b = iter_arg_sym(k, i, f);
			if (sym_mentions(w->dcond, b)) {
				named = true;
				if (f) /* one name for it */
					w->dcond = sym_subs(k->sc, w->dcond, 1, &b, &a);
			}
		}
		if (!named)
			continue;
		Value *v = body->params[i];
		if (!ld_is_int_dtype(v->dtype)) {
			ld_err(g->L, jv_get(g->L, w->n->jv, "condition"), "the condition of '%s' names carried value %d, "
									  "'%s' %s: a condition compares integer values",
				w->n->name, i, v->name, ld_vstr(g, v));
			return false;
		}
		if (ld_subset(s, v->shape))
			s = v->shape;
		else if (!ld_subset(v->shape, s)) {
			ld_err(g->L, jv_get(g->L, w->n->jv, "condition"), "the condition of '%s' names carried values of "
									  "shapes that do not broadcast ('%s' %s)",
				w->n->name, v->name, ld_vstr(g, v));
			return false;
		}
		args[m] = v;
		params[m++] = a;
	}
	const char *path = it->path ? it->path : it->name;
	Op *ce = op_new(k, NULL, OP_APPLY_EXPR, arena_printf(&k->arena, "%s$condition", it->name), m, 1);
	ce->parent = body;
	ce->loc = it->loc;
	ce->path = arena_printf(&k->arena, "%s.condition", path);
	memcpy(ce->args, args, (size_t)m * sizeof *args);
	ce->nparams = m;
	ce->params = params;
	ce->expr = w->dcond;
	ce->dtype = DT_I1;
	op_result(ce)->dtype = DT_I1;
	op_result(ce)->shape = s;
	op_result(ce)->loc = it->loc;
	Op *co = op_new(k, NULL, OP_CONDITIONAL, arena_printf(&k->arena, "%s$while", it->name), np + 1, np);
	co->parent = body;
	co->loc = it->loc;
	co->path = arena_printf(&k->arena, "%s.body", path);
	co->ninit = np;
	co->while_body = true;
	for (int i = 0; i < np; i++) {
		co->args[i] = body->params[i];
		co->results[i]->dtype = body->params[i]->dtype;
		co->results[i]->shape = body->params[i]->shape;
		co->results[i]->loc = it->loc;
	}
	co->args[np] = op_result(ce);
	Region *cr = region_new(k, co, body);
	co->body = cr;
	for (size_t i = 0; i < body->ops.len; i++) {
		Op *op = body->ops.data[i];
		op->parent = cr;
		if (op->body)
			op->body->parent = cr;
		vec_push(&cr->ops, op);
	}
	Op *no = op_new(k, NULL, OP_OUTPUT, arena_printf(&k->arena, "%s$output", it->name), np, 0);
	no->parent = body;
	no->loc = out->loc;
	no->path = out->path;
	memcpy(no->args, co->results, (size_t)np * sizeof(Value *));
	body->ops.len = 0;
	vec_push(&body->ops, ce);
	vec_push(&body->ops, co);
	vec_push(&body->ops, no);
	return true;
}

void ld_finish_while(G *g)
{
	Ld *L = g->L;
	Kernel *k = g->k;
	if (!g->loop_sets.len && !g->whiles.len)
		return;
	Fold f = {.g = g};
	/* each loop symbol once, from its register */
	for (size_t i = 0; i < g->loop_sets.len; i++) {
		struct LoopSet *s = &g->loop_sets.data[i];
		int cnt;
		find_set(g, NULL, s->op->dim, &cnt);
		if (cnt != 1) {
			ld_err(L, s->n->jv, "%s is set %d times: a symbol the graph sets in a loop with a condition is set once",
				sym_name(s->op->dim), cnt);
			goto out;
		}
		f.axis = NULL;
		for (size_t w = 0; w < g->whiles.len; w++)
			if (g->whiles.data[w].n == s->n->list->owner)
				f.axis = g->whiles.data[w].op->dim;
		f.at = s->n;
		if (!(s->value = fold(&f, s->op->args[0], 0)))
			goto out;
	}
	for (size_t w = 0; w < g->whiles.len; w++)
		if (!finish_one(g, &g->whiles.data[w], &f))
			goto out;
	for (size_t i = 0; i < g->loop_sets.len; i++) {
		struct LoopSet *s = &g->loop_sets.data[i];
		KSymbol *ks = kernel_symbol(k, sym_name(s->op->dim));
		if (ks->value) /* an axis: set by finish_one */
			continue;
		ks->value = s->value;
		ks->loc = s->op->loc;
		if (!check_uses(g, s->n, ks->name, false))
			goto out;
	}
	for (size_t i = 0; i < L->loop_syms.len; i++) {
		KSymbol *ks = kernel_symbol(k, L->loop_syms.data[i]);
		if (ks && !ks->value) {
			ld_err(L, g->all.data[0]->jv, "symbol '%s' is the axis of a loop with a condition that was not built",
				ks->name);
			goto out;
		}
	}
	kernel_resolve_symbols(k, NULL, NULL);
	remove_folded(g, &f);
	check_axis_dims(g, k->body);
	for (size_t w = 0; w < g->whiles.len; w++)
		if (g->whiles.data[w].dcond && !wrap_body(g, &g->whiles.data[w]))
			goto out;
out:
	vec_free(&f.visited);
}
