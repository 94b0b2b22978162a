/* graph.c — the kernel graph IR: the tables built from graph_ops.h, builders
 * that allocate in the kernel's arena, and name/constraint lookups.
 *
 * Symbols are found through a hash of their names (a kernel may define
 * thousands, and the frontend and passes look each up many times); the
 * other lookups are linear scans: kernels have at most a few hundred nodes,
 * and the frontend keeps its own hash of names while loading.
 */
#include <stdlib.h>
#include <string.h>

#include "graph.h"

const OpInfo op_info[OP_COUNT] = {
#define X(e, name, cls, operands, attrs) [e] = {name, cls, operands, attrs},
	GRAPH_OPS(X)
#undef X
};

const char *const op_class_name[OPC_COUNT] = {
#define X(e, name) [e] = name,
	OP_CLASSES(X)
#undef X
};

const ConInfo con_info[CON_COUNT] = {
#define X(e, name, fields) [e] = {name, fields},
	CONSTRAINT_KINDS(X)
#undef X
};

const MmaInfo mma_info[MMA_COUNT] = {
#define X(e, name, m, n, k, in, acc, native) [e] = {name, m, n, k, in, acc, native},
	MMA_TYPES(X)
#undef X
};

const char *const addr_space_name[AS_COUNT] = {
#define X(e, name, wave) [e] = name,
	ADDR_SPACES(X)
#undef X
};

const char *const addr_space_wave_name[AS_COUNT] = {
#define X(e, name, wave) [e] = wave,
	ADDR_SPACES(X)
#undef X
};

Kernel *kernel_new(const char *name)
{
	Kernel *k = xcalloc(1, sizeof(Kernel));
	arena_init(&k->arena);
	k->sc = sym_ctx_new();
	k->name = intern(name ? name : "");
	k->hw = -1;
	k->body = region_new(k, NULL, NULL);
	return k;
}

/* Regions hold heap Vecs; walk them all to free. */
static void region_free(Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++)
		if (r->ops.data[i]->body)
			region_free(r->ops.data[i]->body);
	vec_free(&r->ops);
}

void kernel_free(Kernel *k)
{
	if (!k)
		return;
	if (k->view_of)
		die("kernel_free on a view of %s (kernel_view_free releases views)", k->name);
	region_free(k->body);
	vec_free(&k->syms);
	free(k->symtab);
	vec_free(&k->cons);
	vec_free(&k->args);
	vec_free(&k->scalar_args);
	vec_free(&k->dyn_syms);
	vec_free(&k->values);
	vec_free(&k->op_list);
	sym_ctx_free(k->sc);
	arena_free(&k->arena);
	free(k);
}

Kernel *kernel_view(const Kernel *k)
{
	Kernel *v = xmalloc(sizeof *v);
	*v = *k;
	arena_init(&v->arena); /* never shared: nothing may allocate into k's */
	v->syms.data = xmalloc((k->syms.len + 1) * sizeof *v->syms.data);
	if (k->syms.len)
		memcpy(v->syms.data, k->syms.data, k->syms.len * sizeof *v->syms.data);
	v->syms.cap = k->syms.len + 1;
	v->symtab = NULL;
	if (k->symcap) {
		v->symtab = xmalloc(k->symcap * sizeof *v->symtab);
		memcpy(v->symtab, k->symtab, k->symcap * sizeof *v->symtab);
	}
	v->view_of = k;
	return v;
}

static void graph_free(Kernel *v)
{
	region_free(v->body);
	for (size_t i = 0; i < v->detached.len; i++)
		region_free(v->detached.data[i]->body);
	vec_free(&v->detached);
	vec_free(&v->values);
	vec_free(&v->op_list);
	vec_free(&v->scalar_args);
}

void kernel_view_free(Kernel *v)
{
	if (!v)
		return;
	if (!v->view_of)
		die("kernel_view_free: %s is not a view", v->name);
	if (v->owns_graph)
		graph_free(v);
	vec_free(&v->syms);
	free(v->symtab);
	arena_free(&v->arena);
	free(v);
}

/* ---- pruned views ---- */

typedef struct Prune {
	Kernel *v;
	const bool *keep_op, *keep_val;
	Value **val; /* by old value id: its copy */
	Op **op;     /* by old op id: its copy */
	uint32_t *seen, stamp; /* by value id: read by a kept op of the body being copied */
} Prune;

/* Is carried value j of iterate `it` kept? */
static bool carried_kept(const Prune *p, const Op *it, int j)
{
	return p->keep_val[it->results[j]->id] || p->keep_val[it->body->params[j]->id];
}

static Value *copy_value(Prune *p, const Value *old)
{
	Value *nv = ARENA_NEW(&p->v->arena, Value);
	*nv = *old;
	p->val[old->id] = nv;
	return nv;
}

static Value *mapped(const Prune *p, Value *old)
{
	if (old->kind == VAL_MEMORY)
		return old;
	Value *m = p->val[old->id];
	if (!m)
		die("kernel_view_prune: %s is read by a kept op but not kept", old->name);
	return m;
}

/* Marks (p->stamp) every value a kept op of r, or of a region nested in
 * it, reads. */
static void mark_reads(Prune *p, const Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (!p->keep_op[op->id])
			continue;
		for (int a = 0; a < op->nargs; a++)
			p->seen[op->args[a]->id] = p->stamp;
		if (op->body)
			mark_reads(p, op->body);
	}
}

static Region *copy_region(Prune *p, const Region *old, Region *parent, Op *owner);

static Op *copy_op(Prune *p, const Op *old, Region *r)
{
	Kernel *v = p->v;
	Op *n = ARENA_NEW(&v->arena, Op);
	*n = *old;
	n->parent = r;
	n->tail = n->cont = NULL; /* (split_loops runs after any pruning) */
	p->op[old->id] = n;
	bool iterate = old->kind == OP_ITERATE;
	/* results: an iterate's kept carried values, else all */
	n->results = old->nresults ? ARENA_NEWN(&v->arena, Value *, old->nresults) : NULL;
	n->nresults = 0;
	for (int j = 0; j < old->nresults; j++)
		if (!iterate || carried_kept(p, old, j)) {
			Value *nv = copy_value(p, old->results[j]);
			nv->def = n;
			nv->res_idx = n->nresults;
			n->results[n->nresults++] = nv;
		}
	/* operands */
	n->args = old->nargs ? ARENA_NEWN(&v->arena, Value *, old->nargs) : NULL;
	n->nargs = 0;
	const Op *owner = old->parent ? old->parent->owner : NULL;
	if (iterate) {
		for (int j = 0; j < old->ninit; j++)
			if (carried_kept(p, old, j))
				n->args[n->nargs++] = mapped(p, old->args[j]);
		n->ninit = n->nargs;
		p->stamp++;
		mark_reads(p, old->body);
		for (int a = old->ninit; a < old->nargs; a++) /* the captures the kept body reads */
			if (p->seen[old->args[a]->id] == p->stamp)
				n->args[n->nargs++] = mapped(p, old->args[a]);
	} else if (old->kind == OP_OUTPUT && owner && owner->kind == OP_ITERATE) {
		for (int j = 0; j < old->nargs; j++)
			if (carried_kept(p, owner, j))
				n->args[n->nargs++] = mapped(p, old->args[j]);
	} else {
		for (int a = 0; a < old->nargs; a++)
			n->args[n->nargs++] = mapped(p, old->args[a]);
		if (old->kind == OP_GET_RESULT)
			n->res_idx = n->args[0]->res_idx;
	}
	if (old->body)
		n->body = copy_region(p, old->body, r, n);
	return n;
}

static Region *copy_region(Prune *p, const Region *old, Region *parent, Op *owner)
{
	Region *r = region_new(p->v, owner, parent);
	const Op *oo = old->owner;
	r->params = old->nparams ? ARENA_NEWN(&p->v->arena, Value *, old->nparams) : NULL;
	for (int j = 0; j < old->nparams; j++)
		if (!oo || oo->kind != OP_ITERATE || carried_kept(p, oo, j)) {
			Value *nv = copy_value(p, old->params[j]);
			nv->loop = owner;
			nv->arg_idx = r->nparams;
			r->params[r->nparams++] = nv;
		}
	for (size_t i = 0; i < old->ops.len; i++) {
		const Op *op = old->ops.data[i];
		if (p->keep_op[op->id] || (op->kind == OP_OUTPUT && oo && oo->kind == OP_ITERATE))
			vec_push(&r->ops, copy_op(p, op, r));
	}
	return r;
}

void kernel_view_prune(Kernel *v, const bool *keep_op, const bool *keep_val)
{
	if (!v->view_of)
		die("kernel_view_prune: %s is not a view", v->name);
	Prune p = {.v = v, .keep_op = keep_op, .keep_val = keep_val};
	p.val = xcalloc((size_t)v->nvalues + 1, sizeof *p.val);
	p.op = xcalloc((size_t)v->nops + 1, sizeof *p.op);
	p.seen = xcalloc((size_t)v->nvalues + 1, sizeof *p.seen);
	Kernel old = *v;
	v->body = copy_region(&p, old.body, NULL, NULL);
	memset(&v->values, 0, sizeof v->values);
	memset(&v->op_list, 0, sizeof v->op_list);
	memset(&v->scalar_args, 0, sizeof v->scalar_args);
	memset(&v->detached, 0, sizeof v->detached); /* (graph_free(&old) frees the old ones) */
	for (size_t i = 0; i < old.values.len; i++) {
		Value *x = old.values.data[i];
		Value *m = x->kind == VAL_MEMORY ? x : p.val[x->id];
		if (m)
			vec_push(&v->values, m);
	}
	for (size_t i = 0; i < old.op_list.len; i++)
		if (p.op[old.op_list.data[i]->id])
			vec_push(&v->op_list, p.op[old.op_list.data[i]->id]);
	for (size_t i = 0; i < old.scalar_args.len; i++) {
		Op *m = p.op[old.scalar_args.data[i]->id];
		if (!m)
			die("kernel_view_prune: scalar argument %s not kept", old.scalar_args.data[i]->name);
		vec_push(&v->scalar_args, m);
	}
	if (old.owns_graph)
		graph_free(&old);
	v->owns_graph = true;
	free(p.val);
	free(p.op);
	free(p.seen);
}

Sym *kernel_sym(Kernel *k, const char *name)
{
	return sym_symbol(k->sc, name);
}

Shape shape_new(Kernel *k, int rank)
{
	Shape s = {rank, rank ? ARENA_NEWN(&k->arena, Sym *, rank) : NULL};
	return s;
}

static Value *value_new(Kernel *k, ValKind kind, const char *name)
{
	Value *v = ARENA_NEW(&k->arena, Value);
	v->kind = kind;
	v->name = intern(name);
	v->id = k->nvalues++;
	v->dtype = DT_NONE;
	vec_push(&k->values, v);
	return v;
}

Value *value_new_result(Kernel *k, Op *def, int res_idx, const char *name)
{
	Value *v = value_new(k, VAL_RESULT, name);
	v->def = def;
	v->res_idx = res_idx;
	return v;
}

Value *kernel_add_memory(Kernel *k, const char *name, Shape shape, DType dt, AddrSpace as)
{
	Value *v = value_new(k, VAL_MEMORY, name);
	v->shape = shape;
	v->dtype = dt;
	v->space = as;
	v->arg_idx = (int)k->args.len;
	vec_push(&k->args, v);
	return v;
}

static size_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (size_t)h;
}

/* Enter symbol i into the name table, doubling it past half full. */
static void symtab_put(Kernel *k, size_t i)
{
	if (2 * (k->syms.len + 1) > k->symcap) {
		free(k->symtab);
		k->symcap = k->symcap ? 2 * k->symcap : 64;
		k->symtab = xcalloc(k->symcap, sizeof *k->symtab);
		for (size_t j = 0; j < k->syms.len; j++)
			if (j != i)
				symtab_put(k, j);
	}
	size_t m = k->symcap - 1, h = name_hash(k->syms.data[i].name) & m;
	while (k->symtab[h])
		h = (h + 1) & m;
	k->symtab[h] = i + 1;
}

KSymbol *kernel_add_symbol(Kernel *k, const char *name, SymbolKind kind)
{
	KSymbol s = {0};
	s.name = intern(name);
	s.kind = kind;
	s.sym = sym_symbol(k->sc, s.name);
	s.dyn_idx = -1;
	if (kind == SYMK_DYNAMIC) {
		s.dyn_idx = (int)k->dyn_syms.len;
		vec_push(&k->dyn_syms, s.sym);
	}
	vec_push(&k->syms, s);
	symtab_put(k, k->syms.len - 1);
	return &vec_last(&k->syms);
}

Constraint *kernel_add_constraint(Kernel *k, ConKind kind)
{
	Constraint c = {0};
	c.kind = kind;
	c.primary = true;
	c.mma_type = MMA_F32_16x16x16_F16;
	c.max_bits_per_load = 128;
	vec_push(&k->cons, c);
	if (kind == CON_HARDWARE && k->hw < 0)
		k->hw = (int)k->cons.len - 1;
	return &vec_last(&k->cons);
}

Region *region_new(Kernel *k, Op *owner, Region *parent)
{
	Region *r = ARENA_NEW(&k->arena, Region);
	r->owner = owner;
	r->parent = parent;
	return r;
}

Op *op_new(Kernel *k, Region *r, OpKind kind, const char *name, int nargs, int nresults)
{
	check_that(kind >= 0 && kind < OP_COUNT);
	check_that(nargs >= 0 && nresults >= 0);
	Op *op = ARENA_NEW(&k->arena, Op);
	op->kind = kind;
	op->name = intern(name);
	op->id = k->nops++;
	op->parent = r;
	op->dtype = DT_NONE;
	op->mma_type = MMA_NONE;
	op->nargs = nargs;
	op->args = nargs ? ARENA_NEWN(&k->arena, Value *, nargs) : NULL;
	op->nresults = nresults;
	op->results = nresults ? ARENA_NEWN(&k->arena, Value *, nresults) : NULL;
	for (int i = 0; i < nresults; i++) {
		const char *rn = nresults == 1 ? name : arena_printf(&k->arena, "%s#%d", name, i);
		Value *v = value_new(k, VAL_RESULT, rn);
		v->def = op;
		v->res_idx = i;
		op->results[i] = v;
	}
	if (r)
		vec_push(&r->ops, op);
	vec_push(&k->op_list, op);
	return op;
}

/* ---- split loops: an iterate's tail ---- */

/* A new value like old (its id the next), noted in map by old's id. */
static Value *tail_value(Kernel *k, const Value *old, Value **map)
{
	Value *v = ARENA_NEW(&k->arena, Value);
	*v = *old;
	v->id = k->nvalues++;
	vec_push(&k->values, v);
	map[old->id] = v;
	return v;
}

static Region *tail_region(Kernel *k, const Region *old, Region *parent, Op *owner, Value **map);

static Op *tail_op(Kernel *k, const Op *old, Region *r, Value **map)
{
	Op *n = ARENA_NEW(&k->arena, Op);
	*n = *old;
	n->id = k->nops++;
	vec_push(&k->op_list, n);
	n->parent = r;
	n->tail = n->cont = NULL;
	n->args = old->nargs ? ARENA_NEWN(&k->arena, Value *, old->nargs) : NULL;
	for (int a = 0; a < old->nargs; a++) {
		Value *x = old->args[a];
		n->args[a] = x && x->kind != VAL_MEMORY && map[x->id] ? map[x->id] : x;
	}
	n->results = old->nresults ? ARENA_NEWN(&k->arena, Value *, old->nresults) : NULL;
	for (int j = 0; j < old->nresults; j++) {
		n->results[j] = tail_value(k, old->results[j], map);
		n->results[j]->def = n;
	}
	if (old->body)
		n->body = tail_region(k, old->body, r, n, map);
	return n;
}

static Region *tail_region(Kernel *k, const Region *old, Region *parent, Op *owner, Value **map)
{
	Region *r = region_new(k, owner, parent);
	r->nparams = old->nparams;
	r->params = old->nparams ? ARENA_NEWN(&k->arena, Value *, old->nparams) : NULL;
	for (int j = 0; j < old->nparams; j++) {
		r->params[j] = tail_value(k, old->params[j], map);
		r->params[j]->loop = owner;
	}
	for (size_t i = 0; i < old->ops.len; i++)
		vec_push(&r->ops, tail_op(k, old->ops.data[i], r, map));
	return r;
}

Op *op_tail_new(Kernel *k, Op *op)
{
	if (op->kind != OP_ITERATE || !op->body || !op->parent || !k->owns_graph || op->ninit != op->nresults)
		die("op_tail_new: %s is not a loop of a graph of the view's own", op->name);
	Value **map = xcalloc((size_t)k->nvalues + 1, sizeof *map);
	Op *t = tail_op(k, op, NULL, map);
	free(map);
	for (int j = 0; j < op->ninit; j++)
		t->args[j] = op->results[j];
	t->body->parent = NULL;
	return t;
}

/* In r and the regions nested in it, from its op `from` on: every operand
 * that is one of n values from[] becomes the same-numbered of to[]. */
static void rename_uses(Region *r, size_t at, Value *const *from, Value *const *to, int n)
{
	for (size_t i = at; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		for (int a = 0; a < op->nargs; a++)
			for (int j = 0; j < n; j++)
				if (op->args[a] == from[j])
					op->args[a] = to[j];
		if (op->body)
			rename_uses(op->body, 0, from, to, n);
	}
}

static size_t op_place(const Region *r, const Op *op)
{
	size_t i = 0;
	while (i < r->ops.len && r->ops.data[i] != op)
		i++;
	if (i == r->ops.len)
		die("op %s is not in its region", op->name);
	return i;
}

void op_tail_attach(Op *op, Op *tail)
{
	Region *r = op->parent;
	size_t i = op_place(r, op) + 1;
	vec_push(&r->ops, tail);
	memmove(&r->ops.data[i + 1], &r->ops.data[i], sizeof *r->ops.data * (r->ops.len - i - 1));
	r->ops.data[i] = tail;
	tail->parent = r;
	tail->body->parent = r;
	rename_uses(r, i + 1, op->results, tail->results, op->nresults);
	op->tail = tail;
	tail->cont = op;
}

void op_tail_detach(Kernel *k, Op *op)
{
	Op *tail = op->tail;
	Region *r = op->parent;
	size_t i = op_place(r, tail);
	memmove(&r->ops.data[i], &r->ops.data[i + 1], sizeof *r->ops.data * (r->ops.len - i - 1));
	r->ops.len--;
	rename_uses(r, i, tail->results, op->results, op->nresults);
	tail->parent = NULL;
	tail->body->parent = NULL;
	op->tail = NULL;
	vec_push(&k->detached, tail);
}

Value *region_add_param(Kernel *k, Region *r, const char *name, DType dt, Shape shape)
{
	Value *v = value_new(k, VAL_ITER_ARG, name);
	v->dtype = dt;
	v->shape = shape;
	v->loop = r->owner;
	v->arg_idx = r->nparams;
	Value **p = ARENA_NEWN(&k->arena, Value *, r->nparams + 1);
	if (r->nparams)
		memcpy(p, r->params, sizeof(Value *) * (size_t)r->nparams);
	p[r->nparams++] = v;
	r->params = p;
	return v;
}

KSymbol *kernel_symbol(const Kernel *k, const char *name)
{
	if (!k->symcap)
		return NULL;
	size_t m = k->symcap - 1;
	for (size_t h = name_hash(name) & m; k->symtab[h]; h = (h + 1) & m)
		if (strcmp(k->syms.data[k->symtab[h] - 1].name, name) == 0)
			return &k->syms.data[k->symtab[h] - 1];
	return NULL;
}

Value *kernel_value(const Kernel *k, const char *name)
{
	for (size_t i = 0; i < k->values.len; i++)
		if (strcmp(k->values.data[i]->name, name) == 0)
			return k->values.data[i];
	return NULL;
}

const Constraint *kernel_constraint(const Kernel *k, ConKind kind, const Sym *dim)
{
	for (size_t i = 0; i < k->cons.len; i++) {
		const Constraint *c = &k->cons.data[i];
		if (c->kind == kind && (!dim || c->dim == dim))
			return c;
	}
	return NULL;
}

int64_t kernel_runtime_max(const Kernel *k, const Sym *s)
{
	for (size_t i = 0; i < k->args.len; i++) {
		const Value *v = k->args.data[i];
		for (int d = 0; d < v->shape.rank; d++)
			if (v->shape.dims[d] == s)
				return GRAPH_MAX_RUNTIME_SIZE;
	}
	return GRAPH_MAX_RUNTIME_VALUE;
}

/* Does an op of r (or of a region nested in it) access mem as
 * region_writes_mem (write) or region_reads_mem (!write) asks? */
static bool region_accesses_mem(const Region *r, const Value *mem, bool write)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		/* atomics and scatter_add read what they combine with */
		bool rmw = op_is_atomic(op->kind) || op->kind == OP_SCATTER_ADD;
		bool hit = op_memory(op) == mem && (rmw || (write ? op->kind == OP_WRITE : op->kind == OP_READ));
		if (hit || (op->body && region_accesses_mem(op->body, mem, write)))
			return true;
	}
	return false;
}

Op *region_find_op(const Region *r, const char *name)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		Op *op = r->ops.data[i];
		if (strcmp(op->name, name) == 0)
			return op;
		Op *in = op->body ? region_find_op(op->body, name) : NULL;
		if (in)
			return in;
	}
	return NULL;
}

bool region_writes_mem(const Region *r, const Value *mem) { return region_accesses_mem(r, mem, true); }

bool region_reads_mem(const Region *r, const Value *mem) { return region_accesses_mem(r, mem, false); }

size_t region_place_of(const Region *r, const Op *op)
{
	size_t i = 0;
	while (i < r->ops.len && r->ops.data[i] != op)
		i++;
	return i;
}

void region_take_out(Op *op)
{
	Region *r = op->parent;
	size_t i = region_place_of(r, op);
	check_that(i < r->ops.len);
	memmove(&r->ops.data[i], &r->ops.data[i + 1], sizeof *r->ops.data * (r->ops.len - i - 1));
	r->ops.len--;
	op->parent = NULL;
}

void region_put_at(Region *r, size_t i, Op *op)
{
	vec_push(&r->ops, op);
	memmove(&r->ops.data[i + 1], &r->ops.data[i], sizeof *r->ops.data * (r->ops.len - i - 1));
	r->ops.data[i] = op;
	op->parent = r;
}

void region_count_uses(const Region *r, int *uses)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		for (int a = 0; a < op->nargs; a++)
			if (op->args[a])
				uses[op->args[a]->id]++;
		if (op->body)
			region_count_uses(op->body, uses);
	}
}

bool op_sets_extent(const Kernel *k, const Op *op)
{
	return op->kind == OP_SET_SYMBOL && op->dim &&
	       (kernel_constraint(k, CON_WORKGROUP, op->dim) || kernel_constraint(k, CON_TILING, op->dim) ||
		       kernel_constraint(k, CON_WAVE, op->dim));
}

bool op_sets_loop_bound(const Kernel *k, const Op *op)
{
	if (op->kind != OP_SET_SYMBOL || !op->dim || op_sets_extent(k, op))
		return false;
	for (size_t j = 0; j < k->cons.len; j++) {
		const Constraint *con = &k->cons.data[j];
		if (con->kind == CON_TILING && ((con->iters && sym_mentions(con->iters, op->dim)) ||
						       (con->start && sym_mentions(con->start, op->dim))))
			return true;
	}
	return false;
}

const Constraint *kernel_hardware(const Kernel *k)
{
	return k->hw >= 0 ? &k->cons.data[k->hw] : NULL;
}

Sym *kernel_subs(Kernel *k, Sym *e)
{
	int n = 0;
	Sym **from = xmalloc(sizeof(Sym *) * (k->syms.len + 1));
	Sym **to = xmalloc(sizeof(Sym *) * (k->syms.len + 1));
	for (size_t i = 0; i < k->syms.len; i++) {
		KSymbol *s = &k->syms.data[i];
		if ((s->kind == SYMK_VALUE || s->kind == SYMK_ALIAS) && s->resolved) {
			from[n] = s->sym;
			to[n] = s->resolved;
			n++;
		}
	}
	Sym *r = n ? sym_subs(k->sc, e, n, from, to) : e;
	free(from);
	free(to);
	return sym_simplify(k->sc, r, NULL);
}

GenericDot op_generic_dot(const Kernel *k, const Op *op)
{
	if (op->mma_type != MMA_NONE)
		return op->gdot;
	const Constraint *hw = kernel_hardware(k);
	return hw ? hw->gdot : GENERIC_DOT_DEFAULT;
}

void mma_shape(MmaType t, GenericDot g, int threads, int *m, int *n, int *kk)
{
	if (t != MMA_GENERIC_DOT) {
		*m = mma_info[t].m;
		*n = mma_info[t].n;
		*kk = mma_info[t].k;
		return;
	}
	int out = g.out_vec, lanes = g.k_mult ? threads / g.k_mult : 0;
	*m = g.along_m ? lanes : out;
	*n = g.along_m ? out : lanes;
	*kk = g.k_vec * g.k_mult;
}

MmaType op_mma_type(const Kernel *k, const Op *op)
{
	if (op->mma_type != MMA_NONE)
		return op->mma_type;
	const Constraint *hw = kernel_hardware(k);
	return hw ? hw->mma_type : MMA_NONE;
}

/* The product of the extents of s's dims (those of `skip` left out) at
 * k's symbol values, or -1 when one is not a number. */
static double shape_extent(Kernel *k, Shape s, const Shape *skip)
{
	double n = 1;
	for (int i = 0; i < s.rank; i++) {
		if (skip && shape_find(*skip, s.dims[i]) >= 0)
			continue;
		int64_t v;
		if (!sym_is_int(kernel_subs(k, s.dims[i]), &v) || v < 0)
			return -1;
		n *= (double)v;
	}
	return n;
}

double kernel_mma_flops(Kernel *k)
{
	double flops = 0;
	for (size_t i = 0; i < k->op_list.len; i++) {
		const Op *op = k->op_list.data[i];
		bool scaled = op->kind == OP_SCALED_MMA;
		if ((op->kind != OP_MMA || op->nargs < 3) && (!scaled || op->nargs < 5))
			continue;
		Shape acc = op->args[scaled ? 4 : 2]->shape;
		double out = shape_extent(k, acc, NULL), red = shape_extent(k, op->args[0]->shape, &acc);
		if (out < 0 || red < 0)
			return -1;
		flops += 2 * out * red;
	}
	return flops;
}

OpKind op_from_name(const char *name)
{
	for (int i = 0; i < OP_COUNT; i++)
		if (strcmp(op_info[i].name, name) == 0)
			return (OpKind)i;
	return OP_COUNT;
}

ConKind con_from_name(const char *name)
{
	for (int i = 0; i < CON_COUNT; i++)
		if (strcmp(con_info[i].name, name) == 0)
			return (ConKind)i;
	return CON_COUNT;
}

MmaType mma_from_name(const char *name)
{
	for (int i = 0; i < MMA_COUNT; i++)
		if (strcmp(mma_info[i].name, name) == 0)
			return (MmaType)i;
	return MMA_NONE;
}

AddrSpace addr_space_from_name(const char *name)
{
	for (int i = 0; i < AS_COUNT; i++)
		if (strcmp(addr_space_name[i], name) == 0 || strcmp(addr_space_wave_name[i], name) == 0)
			return (AddrSpace)i;
	return AS_COUNT;
}

bool graph_field_in_list(const char *list, const char *field)
{
	size_t n = strlen(field);
	if (n == 0)
		return false;
	for (const char *p = list; *p;) {
		while (*p == ' ')
			p++;
		const char *e = p;
		while (*e && *e != ' ')
			e++;
		if ((size_t)(e - p) == n && memcmp(p, field, n) == 0)
			return true;
		p = e;
	}
	return false;
}

int shape_find(Shape s, const Sym *d)
{
	for (int i = 0; i < s.rank; i++)
		if (s.dims[i] == d)
			return i;
	return -1;
}

bool shape_eq(Shape a, Shape b)
{
	if (a.rank != b.rank)
		return false;
	for (int i = 0; i < a.rank; i++)
		if (a.dims[i] != b.dims[i])
			return false;
	return true;
}

static const char *const schedule_names[SCHED_COUNT] = {
	[SCHED_NONE] = "none",
	[SCHED_PREFETCH] = "prefetch",
	[SCHED_MODULO] = "modulo",
	[SCHED_FOUR_STAGE] = "four_stage",
	[SCHED_PREFETCH_ATTENTION] = "prefetch_attention",
};

ScheduleKind kernel_schedule_from_name(const char *s)
{
	for (int i = SCHED_NONE; i < SCHED_COUNT; i++)
		if (strcmp(s, schedule_names[i]) == 0)
			return (ScheduleKind)i;
	return SCHED_UNSET;
}

const char *kernel_schedule_name(ScheduleKind k)
{
	return k > SCHED_UNSET && k < SCHED_COUNT ? schedule_names[k] : "default";
}
