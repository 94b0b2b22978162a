/* load_graph.c — the "graph" part of a kernel: nodes → ops with types
 * (the per-op rules are in load_ops.c).
 *
 * Four phases, so that nodes may appear in any order and every problem is
 * reported once:
 *   1. collect: every node (recursively into iterate bodies) gets a Node,
 *      its name goes into one name table with the arguments and the iter
 *      args (names are unique in the kernel); unknown ops and fields are
 *      reported here;
 *   2. references: each operand name is resolved and checked for
 *      visibility (own body or an enclosing one); a reference from inside a
 *      body to a node of an enclosing list becomes a dependency of the
 *      body's ancestor in that list;
 *   3. order: each list is sorted topologically (Kahn's algorithm, ready
 *      nodes taken in input order through a heap, so a well-ordered input
 *      keeps its order); nodes left over lie on or behind a cycle, which is
 *      reported with its path;
 *   4. build: in that order each node becomes an Op with attributes and an
 *      inferred result type, checked against the op's rules and against a
 *      declared "type". A node whose operand failed is skipped silently
 *      (poisoned), so one mistake gives one message.
 */
#include <stdlib.h>
#include <string.h>

#include "load_graph.h"

/* Types shared with load_ops.c: load_graph.h. */

/* ---- phase 1: collect ---- */

static const char *const COMMON_FIELDS = "name op type index loc";

static NList *new_list(G *g, NList *parent, Node *owner)
{
	NList *l = xcalloc(1, sizeof(NList));
	l->parent = parent;
	l->owner = owner;
	vec_push(&g->lists, l);
	return l;
}

static void collect(G *g, JV arr, NList *list);

static bool declare_name(G *g, JV at, const char *name)
{
	if (ld_tab_find(g, name)) {
		ld_err(g->L, at, "duplicate name '%s'", name);
		return false;
	}
	return true;
}

static void collect_node(G *g, JV jn, NList *list)
{
	Ld *L = g->L;
	if (!json_is_object(jn.v)) {
		ld_err(L, jn, "expected a node object, got %s",
			json_is_array(jn.v) ? "an array" : "a scalar");
		list->incomplete = true;
		return;
	}
	JV fn = jv_get(L, jn, "name");
	const char *name;
	if (!need(L, jn, fn, "name") || !ld_get_ident(L, fn, &name) || !declare_name(g, fn, name)) {
		list->incomplete = true;
		return;
	}
	Node *n = xcalloc(1, sizeof(Node));
	n->jv = jn;
	n->name = name;
	n->list = list;
	n->idx = (int)list->nodes.len;
	n->kind = OP_COUNT;
	vec_push(&list->nodes, n);
	vec_push(&g->all, n);
	Ent *e = ld_tab_add(g, name);
	e->kind = E_NODE;
	e->node = n;

	JV fo = jv_get(L, jn, "op");
	const char *opname;
	if (!need(L, jn, fo, "op") || !get_string(L, fo, &opname)) {
		n->bad = true;
		return;
	}
	n->kind = op_from_name(opname);
	if (n->kind == OP_COUNT) {
		const char *names[OP_COUNT];
		for (int i = 0; i < OP_COUNT; i++)
			names[i] = op_info[i].name;
		ld_err_unknown(L, fo, "op", opname, names, OP_COUNT);
		n->bad = true;
		return;
	}
	check_fields(L, jn, COMMON_FIELDS,
		arena_printf(&L->tmp, "%s %s", op_info[n->kind].operands, op_info[n->kind].attrs));
	if (n->kind == OP_OUTPUT && !list->owner)
		n->top_output = true;
	if (n->kind != OP_ITERATE && n->kind != OP_CONDITIONAL)
		return;
	JV ia = jv_get(L, jn, "iter_args");
	JV body = jv_get(L, jn, "body");
	n->body = new_list(g, list, n);
	/* a conditional without else values has no iter args */
	if (n->kind == OP_CONDITIONAL && !ia.v) {
	} else if (need(L, jn, ia, "iter_args")) {
		if (!json_is_array(ia.v)) {
			ld_err(L, ia, "expected a list of names, got something else");
			n->bad = true;
		} else {
			for (size_t i = 0; i < json_array_size(ia.v); i++) {
				JV a = jv_at(L, ia, i);
				const char *pn;
				if (!ld_get_ident(L, a, &pn) || !declare_name(g, a, pn)) {
					n->bad = true;
					continue;
				}
				Ent *pe = ld_tab_add(g, pn);
				pe->kind = E_PARAM;
				pe->list = n->body;
				pe->idx = (int)n->body->params.len;
				vec_push(&n->body->params, pn);
			}
		}
	} else {
		n->bad = true;
	}
	if (!need(L, jn, body, "body")) {
		n->bad = true;
		return;
	}
	if (!json_is_array(body.v)) {
		ld_err(L, body, "expected a list of nodes");
		n->bad = true;
		return;
	}
	collect(g, body, n->body);
}

static void collect(G *g, JV arr, NList *list)
{
	for (size_t i = 0; i < json_array_size(arr.v); i++)
		collect_node(g, jv_at(g->L, arr, i), list);
}

/* ---- phase 2: references ---- */

/* One name (must be a string). */
static bool ref_one(G *g, JV f, Refs *out)
{
	const char *s;
	if (!ld_get_ident(g->L, f, &s))
		return false;
	Ref r = {f, s};
	vec_push(out, r);
	return true;
}

/* A list of names; or_single: a single name is accepted too. */
static bool ref_list(G *g, JV f, bool or_single, Refs *out)
{
	if (or_single && json_is_string(f.v))
		return ref_one(g, f, out);
	if (!json_is_array(f.v)) {
		ld_err(g->L, f, "expected a list of names%s, got something else",
			or_single ? " or a name" : "");
		return false;
	}
	bool ok = true;
	for (size_t i = 0; i < json_array_size(f.v); i++)
		ok &= ref_one(g, jv_at(g->L, f, i), out);
	return ok;
}

/* The value references of node n, in Op.args order (graph_ops.h). */
static bool node_refs(G *g, Node *n, Refs *out)
{
	Ld *L = g->L;
	bool ok = true;
	const char *ops = op_info[n->kind].operands;
	/* Fixed operand fields, in their listed order. */
	char field[32];
	for (const char *p = ops; *p;) {
		while (*p == ' ')
			p++;
		size_t len = strcspn(p, " ");
		if (!len)
			break;
		snprintf(field, sizeof field, "%.*s", (int)len, p);
		p += len;
		JV f = jv_get(L, n->jv, field);
		ok &= need(L, n->jv, f, field) && ref_one(g, f, out);
	}
	JV f;
	switch (n->kind) {
	case OP_READ:
	case OP_WRITE:
	case OP_ATOMIC_ADD:
	case OP_ATOMIC_MIN:
		f = jv_get(L, n->jv, "mapping_dynamic_vals");
		if (f.v)
			ok &= ref_list(g, f, false, out);
		break;
	case OP_ITERATE:
		f = jv_get(L, n->jv, "init_args");
		ok &= need(L, n->jv, f, "init_args") && ref_list(g, f, false, out);
		f = jv_get(L, n->jv, "implicit_captures");
		if (f.v)
			ok &= ref_list(g, f, false, out);
		break;
	case OP_CONDITIONAL: /* [else_return..., condition, implicit_captures...] */
		f = jv_get(L, n->jv, "else_return");
		if (f.v)
			ok &= ref_list(g, f, false, out);
		/* a node's name, or else an expression of symbols (Wave's
		 * IndexExpr condition), read by ld_build_conditional */
		f = jv_get(L, n->jv, "condition");
		if (!need(L, n->jv, f, "condition"))
			ok = false;
		else if (!json_is_string(f.v) || ld_tab_find(g, intern(json_string_value(f.v))))
			ok &= ref_one(g, f, out);
		f = jv_get(L, n->jv, "implicit_captures");
		if (f.v)
			ok &= ref_list(g, f, false, out);
		break;
	case OP_OUTPUT:
		f = jv_get(L, n->jv, "values");
		ok &= need(L, n->jv, f, "values") && ref_list(g, f, false, out);
		break;
	case OP_SUM:
	case OP_MAX:
	case OP_MIN:
		f = jv_get(L, n->jv, "arg");
		ok &= need(L, n->jv, f, "arg") && ref_list(g, f, true, out);
		f = jv_get(L, n->jv, "init");
		if (f.v)
			ok &= ref_one(g, f, out);
		break;
	case OP_APPLY_EXPR:
		f = jv_get(L, n->jv, "register");
		ok &= need(L, n->jv, f, "register") && ref_list(g, f, true, out);
		break;
	default:
		break;
	}
	return ok;
}

static void resolve_refs(G *g, Node *n)
{
	if (!node_refs(g, n, &n->refs))
		n->bad = true;
	for (size_t i = 0; i < n->refs.len; i++) {
		Ref *r = &n->refs.data[i];
		Ent *e = ld_tab_find(g, r->name);
		if (!e) {
			/* an argument already reported (its dtype, shape, ...) is
			 * not reported again at each use */
			bool reported = false;
			for (size_t j = 0; j < g->L->bad_args.len && !reported; j++)
				reported = strcmp(g->L->bad_args.data[j], r->name) == 0;
			if (!reported && ld_is_start_arg(g->L, r->name))
				ld_err(g->L, r->jv, "'%s' is the i32 scalar argument a loop starts at: a runtime value "
						    "of the loop's start only, not an operand (pass the value in another "
						    "scalar argument)",
					r->name);
			else if (!reported)
				ld_err(g->L, r->jv, "undefined value '%s'", r->name);
			n->bad = true;
			continue;
		}
		if (e->kind == E_PARAM && !ld_list_encloses(e->list, n->list)) {
			ld_err(g->L, r->jv, "'%s' is an iter arg of '%s' and is not visible here", r->name,
				e->list->owner->name);
			n->bad = true;
		} else if (e->kind == E_NODE) {
			Node *m = e->node;
			if (!ld_list_encloses(m->list, n->list)) {
				ld_err(g->L, r->jv, "'%s' is defined inside the body of '%s' and is not visible here",
					r->name, m->list->owner->name);
				n->bad = true;
				continue;
			}
			Node *a = n;
			while (a->list != m->list)
				a = a->list->owner;
			vec_push(&a->deps, m->idx);
		}
	}
}

/* ---- phase 3: topological order ---- */

typedef Vec(int) IntVec;

static void heap_push(IntVec *h, int x)
{
	vec_push(h, x);
	size_t i = h->len - 1;
	while (i > 0 && h->data[(i - 1) / 2] > h->data[i]) {
		int t = h->data[i];
		h->data[i] = h->data[(i - 1) / 2];
		h->data[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static int heap_pop(IntVec *h)
{
	int top = h->data[0];
	h->data[0] = h->data[--h->len];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < h->len && h->data[l] < h->data[m])
			m = l;
		if (r < h->len && h->data[r] < h->data[m])
			m = r;
		if (m == i)
			break;
		int t = h->data[i];
		h->data[i] = h->data[m];
		h->data[m] = t;
		i = m;
	}
	return top;
}

static void sort_list(G *g, NList *l)
{
	size_t n = l->nodes.len;
	int *indeg = xcalloc(n + 1, sizeof(int));
	Vec(int) *users = xcalloc(n + 1, sizeof(*users));
	for (size_t i = 0; i < n; i++) {
		Node *x = l->nodes.data[i];
		for (size_t j = 0; j < x->deps.len; j++) {
			indeg[i]++;
			vec_push(&users[x->deps.data[j]], (int)i);
		}
	}
	IntVec heap = {0};
	for (size_t i = 0; i < n; i++)
		if (!indeg[i])
			heap_push(&heap, (int)i);
	Node *output = NULL;
	while (heap.len) {
		int i = heap_pop(&heap);
		Node *x = l->nodes.data[i];
		if (x->kind == OP_OUTPUT && !output)
			output = x; /* placed last, below */
		else
			vec_push(&l->order, x);
		for (size_t j = 0; j < users[i].len; j++)
			if (--indeg[users[i].data[j]] == 0)
				heap_push(&heap, users[i].data[j]);
	}
	if (output)
		vec_push(&l->order, output);
	/* Leftovers: on or behind a cycle. Follow unfinished dependencies from
	 * the first one until a node repeats, and report that cycle. */
	for (size_t i = 0; i < n; i++) {
		if (!indeg[i])
			continue;
		char *mark = xcalloc(n, 1);
		Vec(int) path = {0};
		int cur = (int)i;
		while (!mark[cur]) {
			mark[cur] = 1;
			vec_push(&path, cur);
			Node *x = l->nodes.data[cur];
			int next = -1;
			for (size_t j = 0; j < x->deps.len && next < 0; j++)
				if (indeg[x->deps.data[j]])
					next = x->deps.data[j];
			check_that(next >= 0);
			cur = next;
		}
		Buf b = {0};
		size_t s = 0;
		while (path.data[s] != cur)
			s++;
		for (size_t j = s; j < path.len; j++)
			buf_printf(&b, "'%s' -> ", l->nodes.data[path.data[j]]->name);
		buf_printf(&b, "'%s'", l->nodes.data[cur]->name);
		ld_err(g->L, l->nodes.data[cur]->jv, "dependency cycle: %s (each uses the next)",
			buf_cstr(&b));
		buf_free(&b);
		vec_free(&path);
		free(mark);
		for (size_t j = 0; j < n; j++)
			if (indeg[j])
				l->nodes.data[j]->bad = true;
		break;
	}
	vec_free(&heap);
	for (size_t i = 0; i < n; i++)
		vec_free(&users[i]);
	free(users);
	free(indeg);
}

/* ---- phase 4: build ---- */

/* The Value a reference names, or NULL if it is poisoned (reported). */
static Value *ref_value(G *g, JV f, const char *name, bool multi_ok)
{
	Ent *e = ld_tab_find(g, name);
	if (!e)
		return NULL;
	if (e->kind == E_ARG)
		return e->arg;
	if (e->kind == E_PARAM)
		return e->list->region && e->idx < e->list->region->nparams
			       ? e->list->region->params[e->idx]
			       : NULL;
	Op *op = e->node->op;
	if (!op)
		return NULL;
	if (op->nresults == 1)
		return op->results[0];
	if (multi_ok)
		return NULL; /* handled by get_result itself */
	if (op->nresults == 0)
		ld_err(g->L, f, "'%s' (%s) has no result", name, op_name(op->kind));
	else
		ld_err(g->L, f, "'%s' has %d results; pick one with get_result", name, op->nresults);
	return NULL;
}

/* Operand values of n (Refs order). Returns false if any is poisoned. */
static bool operand_values(G *g, Node *n, Value ***out, int *nout, JV **jvs)
{
	Refs *refs = &n->refs;
	Value **v = ARENA_NEWN(&g->k->arena, Value *, refs->len + 1);
	JV *j = ARENA_NEWN(&g->L->tmp, JV, refs->len + 1);
	bool ok = true;
	for (size_t i = 0; i < refs->len; i++) {
		j[i] = refs->data[i].jv;
		v[i] = ref_value(g, refs->data[i].jv, refs->data[i].name, n->kind == OP_GET_RESULT);
		if (!v[i] && n->kind != OP_GET_RESULT)
			ok = false;
	}
	*out = v;
	*nout = (int)refs->len;
	*jvs = j;
	return ok;
}

/* The node's optional "loc", where the program that made the graph made
 * the op: {"file": NAME, "line": N >= 1, "col": N >= 0 (0 or absent:
 * unknown)}, for the library's diagnostics about the op. */
static bool load_src(G *g, Node *n, Op *op)
{
	Ld *L = g->L;
	JV f = jv_get(L, n->jv, "loc");
	if (!f.v)
		return true;
	if (!json_is_object(f.v)) {
		ld_err(L, f, "expected an object {\"file\": NAME, \"line\": N, \"col\": N}");
		return false;
	}
	check_fields(L, f, "file line col", NULL);
	JV ff = jv_get(L, f, "file"), fl = jv_get(L, f, "line"), fc = jv_get(L, f, "col");
	const char *file;
	long long line, col = 0;
	if (!need(L, f, ff, "file") || !get_string(L, ff, &file) || !need(L, f, fl, "line") ||
		!get_int(L, fl, 1, 1 << 30, &line) || (fc.v && !get_int(L, fc, 0, 1 << 30, &col)))
		return false;
	SrcLoc *src = ARENA_NEW(&g->k->arena, SrcLoc);
	*src = (SrcLoc){arena_strdup(&g->k->arena, file), (int)line, (int)col};
	op->src = src;
	return true;
}

static void build_list(G *g, NList *l);

static void build_node(G *g, Node *n)
{
	Ld *L = g->L;
	if (n->bad)
		return;
	if (n->top_output) {
		JV f = jv_get(L, n->jv, "values");
		if (json_array_size(f.v) != 0)
			ld_err(L, f, "the kernel body's output takes no values");
		return;
	}
	Value **vals;
	JV *jvs;
	int nv;
	if (!operand_values(g, n, &vals, &nv, &jvs))
		return; /* poisoned by an earlier error */
	int nres = 1;
	if (n->kind == OP_WRITE || n->kind == OP_OUTPUT || n->kind == OP_SET_SYMBOL || n->kind == OP_SCATTER_ADD ||
		op_is_barrier(n->kind) || op_is_hint(n->kind))
		nres = 0;
	else if (n->kind == OP_TOPK)
		nres = 2;
	else if (n->kind == OP_ITERATE)
		nres = (int)json_array_size(json_object_get(n->jv.v, "init_args"));
	else if (n->kind == OP_CONDITIONAL)
		nres = (int)json_array_size(json_object_get(n->jv.v, "else_return"));
	if (n->kind == OP_GET_RESULT && !vals[0]) {
		/* The source is a multi-result op: found by name in build_get_result (load_ops.c). */
		Ent *e = ld_tab_find(g, intern(json_string_value(json_object_get(n->jv.v, "value"))));
		if (!e || e->kind != E_NODE || !e->node->op)
			return;
	}
	Op *op = op_new(g->k, n->list->region, n->kind, n->name, nv, nres);
	if (nv)
		memcpy(op->args, vals, sizeof(Value *) * (size_t)nv);
	op->loc = (Loc){L->file, n->jv.pos ? n->jv.pos->line : 0, n->jv.pos ? n->jv.pos->col : 0};
	op->path = arena_strdup(&g->k->arena, n->jv.path);
	if (!load_src(g, n, op))
		return;
	/* Memory arguments and allocations only feed the memory ops' memory
	 * operand, and an iterate's or conditional's implicit captures (Wave
	 * lists an allocation its body uses there). */
	int caps = n->kind == OP_ITERATE || n->kind == OP_CONDITIONAL
			   ? nv - (int)json_array_size(json_object_get(n->jv.v, "implicit_captures"))
			   : nv;
	for (int i = 0; i < nv; i++) {
		bool mem_ok = (n->kind == OP_READ && i == 0) ||
			      ((n->kind == OP_WRITE || op_is_atomic(n->kind)) && i == 1) || (n->kind == OP_SCATTER_ADD && i == 2) ||
			      i >= caps;
		if (vals[i] && value_is_memory(vals[i]) && !mem_ok) {
			ld_err(L, jvs[i], "'%s' is %s; read it first", vals[i]->name,
				vals[i]->kind == VAL_MEMORY ? "a memory argument" : "an allocation");
			return;
		}
	}
	bool built = ld_build_op(g, n, op, jvs);
	if (built && (n->kind == OP_ITERATE || n->kind == OP_CONDITIONAL)) { /* the body, between the op and its results */
		int nerr = L->d->nerrors;
		build_list(g, n->body);
		built = L->d->nerrors == nerr && !n->body->incomplete &&
			(n->kind == OP_ITERATE ? ld_finish_iterate(g, n, op) : ld_finish_conditional(g, n, op));
		/* the body's own errors say what is wrong */
	}
	if (!built) {
		for (int i = 0; i < op->nresults; i++)
			op->results[i]->dtype = DT_NONE;
		return;
	}
	if (!ld_check_declared_type(g, n, op) || !ld_load_index(g, n, op))
		return;
	n->op = op;
}

static void build_list(G *g, NList *l)
{
	for (size_t i = 0; i < l->order.len; i++)
		build_node(g, l->order.data[i]);
}

void ld_load_graph(Ld *L, JV graph)
{
	G g = {0};
	g.L = L;
	g.k = L->k;
	if (!json_is_array(graph.v)) {
		ld_err(L, graph, "expected a list of nodes");
		return;
	}
	for (size_t i = 0; i < L->k->args.len; i++) {
		Value *a = L->k->args.data[i];
		Ent *e = ld_tab_add(&g, a->name);
		e->kind = E_ARG;
		e->arg = a;
	}
	for (size_t i = 0; i < L->k->scalar_args.len; i++) {
		Value *a = op_result(L->k->scalar_args.data[i]);
		Ent *e = ld_tab_add(&g, a->name);
		e->kind = E_ARG;
		e->arg = a;
	}
	NList *top = new_list(&g, NULL, NULL);
	top->region = L->k->body;
	collect(&g, graph, top);
	for (size_t i = 0; i < g.all.len; i++)
		if (!g.all.data[i]->bad)
			resolve_refs(&g, g.all.data[i]);
	ld_set_symbol_deps(&g);
	for (size_t i = 0; i < g.lists.len; i++)
		sort_list(&g, g.lists.data[i]);
	build_list(&g, top);
	if (L->d->nerrors == 0)
		ld_finish_while(&g);
	for (size_t i = 0; i < g.all.len; i++) {
		vec_free(&g.all.data[i]->deps);
		vec_free(&g.all.data[i]->refs);
		free(g.all.data[i]);
	}
	for (size_t i = 0; i < g.lists.len; i++) {
		vec_free(&g.lists.data[i]->nodes);
		vec_free(&g.lists.data[i]->order);
		vec_free(&g.lists.data[i]->params);
		free(g.lists.data[i]);
	}
	vec_free(&g.all);
	vec_free(&g.lists);
	vec_free(&g.setters);
	vec_free(&g.whiles);
	vec_free(&g.loop_sets);
	free(g.tab);
}
