/* load_ops.c — the per-op half of the graph loader: each op's attributes
 * and the type rules of docs/kernel-format.md (result dtype and symbolic
 * shape from the operands; shape and dtype mismatches reported at the
 * operand that breaks the rule), index mappings, the optional declared
 * "type" and precomputed "index". Called by load_graph.c in topological
 * order, so every operand already has its type.
 *
 * ld_build_op runs one builder per op, found in two tables keyed by
 * ir/graph_ops.h: the op's own (self_index, the control ops, bitcast) or
 * else its class's (one builder for all unary ops, one for binary and
 * compare, ...). The builders of load_control.c, load_scan.c and
 * load_bitcast.c sit in the same tables. */
#include <stdlib.h>
#include <string.h>

#include "load_graph.h"


static bool dtype_eq(G *g, Node *n, JV at, const char *what, Value *a, Value *b)
{
	if (a->dtype == b->dtype)
		return true;
	(void)n;
	ld_err(g->L, at, "dtype mismatch: %s: '%s' is %s, '%s' is %s", what, a->name, ld_vstr(g, a),
		b->name, ld_vstr(g, b));
	return false;
}

static bool get_ept(G *g, Node *n, Op *op)
{
	JV f = jv_get(g->L, n->jv, "elements_per_thread");
	long long x;
	if (!f.v)
		return true;
	if (json_is_string(f.v)) {
		/* a symbol or expression (Wave's LOAD_ELEMS_PER_THREAD) with a
		 * value known when the kernel is loaded */
		Sym *e = ld_get_expr(g->L, f, NULL);
		if (!e)
			return false;
		int64_t v;
		if (!sym_is_int(kernel_subs(g->k, e), &v) || v < 1 || v > 65536) {
			ld_err(g->L, f, "elements_per_thread '%s' must have an integer value in [1, 65536] (not a dynamic "
					"symbol)", json_string_value(f.v));
			return false;
		}
		op->ept = (int)v;
		return true;
	}
	if (!get_int(g->L, f, 1, 65536, &x))
		return false;
	op->ept = (int)x;
	return true;
}

/* A dim → expression object, in input order. */
static bool get_dim_map(G *g, JV f, const Scope *sc, int *n, Sym ***dims, Sym ***exprs)
{
	Ld *L = g->L;
	if (!json_is_object(f.v)) {
		ld_err(L, f, "expected an object (dim: expression)");
		return false;
	}
	size_t cnt = json_object_size(f.v);
	*dims = ARENA_NEWN(&g->k->arena, Sym *, cnt + 1);
	*exprs = ARENA_NEWN(&g->k->arena, Sym *, cnt + 1);
	*n = 0;
	bool ok = true;
	/* Follow the text order of the position tree when we have it. */
	const JPos *p = f.pos;
	size_t np = p && p->is_object && (size_t)p->n == cnt ? cnt : 0;
	const char *key;
	json_t *val;
	size_t i = 0;
	void *it = json_object_iter(f.v);
	for (; np ? i < np : it != NULL; i++) {
		if (np) {
			key = p->members[i].key;
		} else {
			key = json_object_iter_key(it);
			it = json_object_iter_next(f.v, it);
		}
		val = json_object_get(f.v, key);
		if (!val)
			continue;
		KSymbol *s = kernel_symbol(g->k, key);
		if (!s || s->kind == SYMK_ADDRESS_SPACE) {
			ld_err_key(L, f, key, "symbol '%s' has neither a value nor a constraint defining it",
				key);
			ok = false;
			continue;
		}
		Sym *e = ld_get_expr(L, jv_get(L, f, key), sc);
		if (!e) {
			ok = false;
			continue;
		}
		(*dims)[*n] = s->sym;
		(*exprs)[(*n)++] = e;
	}
	return ok;
}

/* dynamic_val_mappings: one object per dynamic value, its dims to
 * expressions of the iterators alone (sc); which dims they must be is
 * checked against the values in check_dyn_maps. */
static bool get_dyn_maps(G *g, JV f, Mapping *m, const Scope *sc)
{
	Ld *L = g->L;
	if (!json_is_array(f.v)) {
		ld_err(L, f, "expected a list of objects (dim: expression), one per dynamic value");
		return false;
	}
	if ((int)json_array_size(f.v) != m->ndyn) {
		ld_err(L, f, "dynamic_val_mappings has %d entries but the mapping has %d dynamic values",
			(int)json_array_size(f.v), m->ndyn);
		return false;
	}
	Arena *a = &g->k->arena;
	m->dvm_n = ARENA_NEWN(a, int, m->ndyn + 1);
	m->dvm_dims = ARENA_NEWN(a, Sym **, m->ndyn + 1);
	m->dvm_exprs = ARENA_NEWN(a, Sym **, m->ndyn + 1);
	bool ok = true;
	for (int d = 0; d < m->ndyn; d++)
		ok &= get_dim_map(g, jv_at(L, f, (size_t)d), sc, &m->dvm_n[d], &m->dvm_dims[d], &m->dvm_exprs[d]);
	return ok;
}

/* Each dynamic_val_mappings entry gives exactly the dims of its value. */
static bool check_dyn_maps(G *g, Op *op, JV f)
{
	Ld *L = g->L;
	const Mapping *m = op->mapping;
	if (!m || !m->dvm_n)
		return true;
	JV list = jv_get(L, f, "dynamic_val_mappings");
	bool ok = true;
	for (int d = 0; d < m->ndyn && d < op->ndyn; d++) {
		const Value *x = op->args[op->nargs - op->ndyn + d];
		JV e = jv_at(L, list, (size_t)d);
		for (int i = 0; i < m->dvm_n[d]; i++) {
			bool found = false;
			for (int r = 0; r < x->shape.rank; r++)
				found |= x->shape.dims[r] == m->dvm_dims[d][i];
			if (!found) {
				ld_err_key(L, e, sym_name(m->dvm_dims[d][i]),
					"%s is not a dim of dynamic value '%s' %s", sym_name(m->dvm_dims[d][i]), x->name,
					ld_vstr(g, x));
				ok = false;
			}
		}
		for (int r = 0; r < x->shape.rank; r++) {
			bool found = false;
			for (int i = 0; i < m->dvm_n[d]; i++)
				found |= x->shape.dims[r] == m->dvm_dims[d][i];
			if (!found) {
				ld_err(L, e, "no expression for dim %s of dynamic value '%s' %s", sym_name(x->shape.dims[r]),
					x->name, ld_vstr(g, x));
				ok = false;
			}
		}
	}
	return ok;
}

static Mapping *get_mapping(G *g, JV f)
{
	Ld *L = g->L;
	Kernel *k = g->k;
	if (!json_is_object(f.v)) {
		ld_err(L, f, "expected a mapping object");
		return NULL;
	}
	check_fields(L, f, "iterators inputs outputs dynamic_values dynamic_val_mappings", NULL);
	Mapping *m = ARENA_NEW(&k->arena, Mapping);
	bool ok = true;
	JV it = jv_get(L, f, "iterators");
	if (!need(L, f, it, "iterators"))
		return NULL;
	if (!json_is_array(it.v)) {
		ld_err(L, it, "expected a list of iterator names");
		return NULL;
	}
	JV dv = jv_get(L, f, "dynamic_values");
	size_t ni = json_array_size(it.v), nd = json_is_array(dv.v) ? json_array_size(dv.v) : 0;
	if (dv.v && !json_is_array(dv.v)) {
		ld_err(L, dv, "expected a list of symbol names");
		ok = false;
	}
	Sym **all = ARENA_NEWN(&k->arena, Sym *, ni + nd + 1);
	m->iters = all;
	m->dyn = all + ni;
	for (size_t i = 0; i < ni + nd; i++) {
		JV e = i < ni ? jv_at(L, it, i) : jv_at(L, dv, i - ni);
		const char *s;
		if (!ld_get_ident(L, e, &s)) {
			ok = false;
			continue;
		}
		Sym *x = sym_symbol(k->sc, s);
		for (size_t j = 0; j < i; j++)
			if (all[j] == x) {
				ld_err(L, e, "'%s' is named twice in this mapping", s);
				ok = false;
			}
		all[i] = x;
	}
	if (!ok)
		return NULL;
	m->niters = (int)ni;
	m->ndyn = (int)nd;
	Scope sc = {(int)(ni + nd), all, NULL};
	JV in = jv_get(L, f, "inputs"), out = jv_get(L, f, "outputs");
	if (!need(L, f, in, "inputs") || !need(L, f, out, "outputs"))
		return NULL;
	ok &= get_dim_map(g, in, &sc, &m->nin, &m->in_dims, &m->in_exprs);
	ok &= get_dim_map(g, out, &sc, &m->nout, &m->out_dims, &m->out_exprs);
	/* a dynamic value's index is a function of the iterators only */
	JV dvm = jv_get(L, f, "dynamic_val_mappings");
	Scope its = {(int)ni, all, NULL};
	if (dvm.v)
		ok &= get_dyn_maps(g, dvm, m, &its);
	return ok ? m : NULL;
}

static Shape map_shape(int n, Sym **dims)
{
	Shape s = {n, dims};
	return s;
}

static bool build_memory(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	/* the atomics have write's operand layout (graph_ops.h) */
	bool is_write = op->kind == OP_WRITE || op_is_atomic(op->kind);
	Value *mem = op->args[is_write ? 1 : 0];
	JV mjv = jvs[is_write ? 1 : 0];
	bool ok = get_ept(g, n, op);
	if (!value_is_memory(mem)) {
		ld_err(L, mjv, "'%s' is not a memory argument or an allocation", mem->name);
		return false;
	}
	JV fv = jv_get(L, n->jv, "volatile"), fo = jv_get(L, n->jv, "memory_order");
	if (fv.v && !get_bool(L, fv, &op->is_volatile))
		return false;
	if (fo.v) {
		const char *o = json_string_value(fo.v);
		bool rd = op->kind == OP_READ;
		if (!o || strcmp(o, rd ? "acquire" : "release") != 0) {
			ld_err(L, fo, "a %s's memory_order must be \"%s\" (at agent scope)", op_info[op->kind].name,
				rd ? "acquire" : "release");
			return false;
		}
		op->acquire = rd;
		op->release = !rd;
	}
	if ((op->is_volatile || fo.v) && (mem->space != AS_GLOBAL || value_is_local(mem))) {
		/* Wave's VOLATILE, an acquire and a release order accesses other
		 * workgroups see: global memory's */
		ld_err(L, op->is_volatile ? fv : fo, "a %s %s of '%s', which lives in shared memory: volatile, acquire "
						     "and release accesses are compiled for global memory",
			op->is_volatile ? "volatile" : json_string_value(fo.v), op_info[op->kind].name, mem->name);
		return false;
	}
	JV f = jv_get(L, n->jv, "mapping");
	int ndyn = op->nargs - (is_write ? 2 : 1);
	op->ndyn = ndyn;
	if (f.v) {
		op->mapping = get_mapping(g, f);
		if (!op->mapping)
			return false;
		ld_mapping_set_symbols(g, n, op->mapping);
		if (op->mapping->ndyn != ndyn) {
			ld_err(L, f, "mapping has %d dynamic values but the op passes %d in mapping_dynamic_vals",
				op->mapping->ndyn, ndyn);
			ok = false;
		}
		ok &= check_dyn_maps(g, op, f);
	} else if (ndyn) {
		ld_err(L, jv_get(L, n->jv, "mapping_dynamic_vals"),
			"mapping_dynamic_vals needs a mapping");
		ok = false;
	}
	for (int i = 0; i < ndyn; i++) {
		Value *dv = op->args[op->nargs - ndyn + i];
		if (!ld_is_int_dtype(dv->dtype)) {
			ld_err(L, jvs[op->nargs - ndyn + i], "dynamic value '%s' must have an integer dtype, got %s",
				dv->name, ld_vstr(g, dv));
			ok = false;
		}
	}
	Mapping *m = op->mapping;
	Shape mem_side = m ? map_shape(is_write ? m->nout : m->nin, is_write ? m->out_dims : m->in_dims)
			   : mem->shape;
	if (m && !ld_same_set(mem_side, mem->shape)) {
		ld_err(L, f, "shape mismatch: the mapping's %s dims %s must be the dims of '%s' %s",
			is_write ? "outputs" : "inputs", ld_tstr(g, mem->dtype, mem_side), mem->name,
			ld_vstr(g, mem));
		ok = false;
	}
	if (!is_write) {
		op->results[0]->dtype = mem->dtype;
		op->results[0]->shape = m ? map_shape(m->nout, m->out_dims) : mem->shape;
		return ok;
	}
	Value *reg = op->args[0];
	if (reg->kind == VAL_MEMORY) {
		ld_err(L, jvs[0], "'%s' is a memory argument, not a register", reg->name);
		return false;
	}
	ok &= dtype_eq(g, n, jvs[0], op_name(op->kind), reg, mem);
	if (op_is_atomic(op->kind)) {
		/* Wave's AtomicOp: the result (the old values) has the register's type */
		if (mem->dtype == DT_I1 || dtype_is_f8(mem->dtype) || dtype_is_mx_narrow(mem->dtype)) {
			ld_err(L, jvs[1], "%s on %s memory '%s': only integer, f16, bf16, f32 and f64 elements %s",
				op_name(op->kind), dtype_name(mem->dtype), mem->name, op->kind == OP_ATOMIC_ADD ? "add" : "combine");
			ok = false;
		}
		op->results[0]->dtype = reg->dtype;
		op->results[0]->shape = reg->shape;
	}
	if (m) {
		Shape reg_side = map_shape(m->nin, m->in_dims);
		if (!ld_same_set(reg_side, reg->shape)) {
			ld_err(L, f, "shape mismatch: the mapping's inputs dims %s must be the dims of '%s' %s",
				ld_tstr(g, reg->dtype, reg_side), reg->name, ld_vstr(g, reg));
			ok = false;
		}
	} else if (!ld_subset(ld_without_set_symbols(g, n, reg->shape), mem->shape)) {
		ld_err(L, jvs[0], "shape mismatch: register '%s' %s has dims that memory '%s' %s lacks",
			reg->name, ld_vstr(g, reg), mem->name, ld_vstr(g, mem));
		ok = false;
	}
	return ok;
}

static bool get_expr_list(G *g, JV f, int *n, Sym ***out);
static bool get_op_dtype(G *g, Node *n, Op *op);

/* scatter_add (Wave's tkw.scatter_add): register_src added element by
 * element into `memory` at the place a write of it would go, with the
 * coordinate along memory dim `dim` (its position, or its name) replaced
 * by register_idx's element; no result. */
static bool build_scatter_add(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Value *src = op->args[0], *idx = op->args[1], *mem = op->args[2];
	bool ok = get_ept(g, n, op);
	if (!value_is_memory(mem)) {
		ld_err(L, jvs[2], "'%s' is not a memory argument or an allocation", mem->name);
		return false;
	}
	ok &= dtype_eq(g, n, jvs[0], "scatter_add", src, mem);
	if (mem->dtype == DT_I1 || dtype_is_f8(mem->dtype) || dtype_is_mx_narrow(mem->dtype)) {
		ld_err(L, jvs[2], "scatter_add on %s memory '%s': only integer, f16, bf16, f32 and f64 elements add",
			dtype_name(mem->dtype), mem->name);
		ok = false;
	}
	if (!ld_is_int_dtype(idx->dtype)) {
		ld_err(L, jvs[1], "scatter_add's register_idx '%s' must have an integer dtype, got %s", idx->name,
			ld_vstr(g, idx));
		ok = false;
	}
	if (!ld_same_set(idx->shape, src->shape)) {
		ld_err(L, jvs[1], "shape mismatch: register_idx '%s' %s must have the dims of register_src '%s' %s",
			idx->name, ld_vstr(g, idx), src->name, ld_vstr(g, src));
		ok = false;
	}
	JV f = jv_get(L, n->jv, "dim");
	long long d = -1;
	if (!need(L, n->jv, f, "dim"))
		return false;
	if (json_is_string(f.v)) {
		Sym *ds = ld_get_dim(L, f);
		if (!ds)
			return false;
		d = shape_find(mem->shape, ds);
		if (d < 0) {
			ld_err(L, f, "'%s' is not a dim of '%s' %s", sym_name(ds), mem->name, ld_vstr(g, mem));
			return false;
		}
	} else if (!get_int(L, f, 0, mem->shape.rank - 1, &d)) {
		return false;
	}
	op->sdim = (int)d;
	f = jv_get(L, n->jv, "mapping");
	if (f.v) {
		if (!(op->mapping = get_mapping(g, f)))
			return false;
		ld_mapping_set_symbols(g, n, op->mapping);
		if (op->mapping->ndyn) {
			ld_err(L, f, "scatter_add's mapping takes no dynamic values (register_idx gives the scattered "
				     "coordinate)");
			return false;
		}
		Mapping *m = op->mapping;
		if (!ld_same_set(map_shape(m->nout, m->out_dims), mem->shape)) {
			ld_err(L, f, "shape mismatch: the mapping's outputs dims %s must be the dims of '%s' %s",
				ld_tstr(g, mem->dtype, map_shape(m->nout, m->out_dims)), mem->name, ld_vstr(g, mem));
			ok = false;
		}
		if (!ld_same_set(map_shape(m->nin, m->in_dims), src->shape)) {
			ld_err(L, f, "shape mismatch: the mapping's inputs dims %s must be the dims of '%s' %s",
				ld_tstr(g, src->dtype, map_shape(m->nin, m->in_dims)), src->name, ld_vstr(g, src));
			ok = false;
		}
	} else if (!ld_subset(src->shape, mem->shape)) {
		ld_err(L, jvs[0], "shape mismatch: register '%s' %s has dims that memory '%s' %s lacks", src->name,
			ld_vstr(g, src), mem->name, ld_vstr(g, mem));
		ok = false;
	}
	return ok;
}

/* topk (Wave's tkw.topk(src, k_dim, dim)): the k_dim largest elements
 * of arg along dim, dim replaced by k_dim in place; results: the values
 * (arg's dtype) and their coordinates along dim (i32). */
static bool build_topk(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Value *a = op->args[0];
	(void)jvs;
	JV fd = jv_get(L, n->jv, "dim"), fk = jv_get(L, n->jv, "k_dim");
	if (!need(L, n->jv, fd, "dim") || !need(L, n->jv, fk, "k_dim") || !(op->dim = ld_get_dim(L, fd)) ||
		!(op->kdim = ld_get_dim(L, fk)))
		return false;
	int pos = shape_find(a->shape, op->dim);
	if (pos < 0) {
		ld_err(L, fd, "shape mismatch: '%s' %s has no dim '%s' to select along", a->name, ld_vstr(g, a),
			sym_name(op->dim));
		return false;
	}
	if (shape_find(a->shape, op->kdim) >= 0) {
		ld_err(L, fk, "shape mismatch: '%s' %s has dim '%s' already: k_dim names the results' new dim", a->name,
			ld_vstr(g, a), sym_name(op->kdim));
		return false;
	}
	Shape sh = shape_new(g->k, a->shape.rank);
	for (int i = 0; i < a->shape.rank; i++)
		sh.dims[i] = i == pos ? op->kdim : a->shape.dims[i];
	op->results[0]->dtype = a->dtype;
	op->results[0]->shape = sh;
	op->results[1]->dtype = DT_I32;
	op->results[1]->shape = sh;
	return true;
}

/* allocate (Wave's tkw.allocate): a buffer of `shape` and dtype in the
 * workgroup's shared memory (LDS), of `distributed_shape` elements per
 * dim; `padding` extra elements end each row of the last dim. */
static bool build_allocate(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Value *res = op_result(op);
	(void)jvs;
	JV f = jv_get(L, n->jv, "shape");
	if (!need(L, n->jv, f, "shape") || !ld_get_shape(L, f, &op->shape) || !get_op_dtype(g, n, op))
		return false;
	if (op->shape.rank < 1) {
		ld_err(L, f, "an allocation needs at least one dim");
		return false;
	}
	int nd;
	f = jv_get(L, n->jv, "distributed_shape");
	if (!need(L, n->jv, f, "distributed_shape") || !get_expr_list(g, f, &nd, &op->alloc_ext))
		return false;
	if (nd != op->shape.rank) {
		ld_err(L, f, "distributed_shape has %d entries for the %d dims of shape", nd, op->shape.rank);
		return false;
	}
	for (int i = 0; i < nd; i++) {
		int64_t v;
		if (!sym_is_int(kernel_subs(g->k, op->alloc_ext[i]), &v) || v < 1 || v > (1 << 20)) {
			ld_err(L, jv_at(L, f, (size_t)i), "distributed_shape entry '%s' must have an integer value in "
							  "[1, 2^20] (an allocation's size is fixed when the kernel is compiled)",
				sym_str(g->k->sc, op->alloc_ext[i]));
			return false;
		}
	}
	f = jv_get(L, n->jv, "address_space");
	const char *space;
	if (f.v) {
		if (!get_string(L, f, &space))
			return false;
		AddrSpace as = addr_space_from_name(space);
		KSymbol *s = as == AS_COUNT ? kernel_symbol(g->k, space) : NULL;
		if (s && s->kind == SYMK_ADDRESS_SPACE)
			as = s->space;
		if (as != AS_SHARED) {
			ld_err(L, f, "allocate in address space '%s': only shared memory (\"shared\", "
				     "SHARED_ADDRESS_SPACE or a symbol standing for it) is allocated",
				space);
			return false;
		}
	}
	f = jv_get(L, n->jv, "padding");
	long long pad = 0;
	if (f.v && !get_int(L, f, 0, 1 << 16, &pad))
		return false;
	op->padding = (int)pad;
	res->shape = op->shape;
	res->space = AS_SHARED;
	return true;
}

/* shared_memory_barrier and workgroup_barrier: Wave's flags are booleans
 * and change nothing here. */
static bool build_barrier(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	bool b;
	(void)op, (void)jvs;
	const char *flags[] = {"wait_async_ops", "tensor_wait"};
	for (int i = 0; i < 2; i++) {
		JV f = jv_get(L, n->jv, flags[i]);
		if (f.v && !get_bool(L, f, &b))
			return false;
	}
	return true;
}

/* Broadcast result of shapes a and b; false if neither contains the other. */
static bool bcast(Shape a, Shape b, Shape *out)
{
	if (ld_subset(b, a))
		*out = a;
	else if (ld_subset(a, b))
		*out = b;
	else
		return false;
	return true;
}

static bool build_iterate(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Kernel *k = g->k;
	JV f = jv_get(L, n->jv, "axis");
	if (!need(L, n->jv, f, "axis") || !(op->dim = ld_get_dim(L, f)))
		return false;
	if (!kernel_constraint(k, CON_TILING, op->dim)) {
		ld_err(L, f, "iterate axis '%s' has no tiling constraint", sym_name(op->dim));
		return false;
	}
	if (!ld_build_while(g, n, op))
		return false;
	JV ia = jv_get(L, n->jv, "init_args");
	int ninit = (int)json_array_size(ia.v);
	op->ninit = ninit;
	if ((size_t)ninit != n->body->params.len) {
		ld_err(L, jv_get(L, n->jv, "iter_args"), "%zu iter_args for %d init_args",
			n->body->params.len, ninit);
		return false;
	}
	for (int i = 0; i < ninit; i++) {
		if (op->args[i]->kind == VAL_MEMORY) {
			ld_err(L, jvs[i], "'%s' is a memory argument, not a register", op->args[i]->name);
			return false;
		}
	}
	Region *r = region_new(k, op, n->list->region);
	op->body = r;
	n->body->region = r;
	for (int i = 0; i < ninit; i++) {
		Value *p = region_add_param(k, r, n->body->params.data[i], op->args[i]->dtype,
			op->args[i]->shape);
		p->loc = (Loc){L->file, n->jv.pos ? n->jv.pos->line : 0, n->jv.pos ? n->jv.pos->col : 0};
	}
	return true; /* the walker builds the body, then calls ld_finish_iterate */
}

bool ld_finish_iterate(G *g, Node *n, Op *op)
{
	Ld *L = g->L;
	Region *r = op->body;
	int ninit = op->ninit;
	/* The body ends in its output, with the iter args' types. */
	Op *last = r->ops.len ? vec_last(&r->ops) : NULL;
	int nout = 0;
	for (size_t i = 0; i < n->body->nodes.len; i++)
		nout += n->body->nodes.data[i]->kind == OP_OUTPUT;
	JV body = jv_get(L, n->jv, "body");
	if (nout != 1) {
		ld_err(L, body, "the body of '%s' must contain exactly one output node (found %d)",
			n->name, nout);
		return false;
	}
	for (size_t i = 0; i < n->body->nodes.len; i++)
		if (n->body->nodes.data[i]->kind == OP_OUTPUT && !n->body->nodes.data[i]->op)
			return false; /* its values were poisoned by an error reported earlier */
	if (!last || last->kind != OP_OUTPUT) { /* one output, but not at the end */
		ld_err(L, body, "the body of '%s' must end with its output node ('%s' comes after it)", n->name,
			last ? last->name : "?");
		return false;
	}
	Node *on = NULL;
	for (size_t i = 0; i < n->body->nodes.len; i++)
		if (n->body->nodes.data[i]->op == last)
			on = n->body->nodes.data[i];
	if (last->nargs != ninit) {
		ld_err(L, on ? jv_get(L, on->jv, "values") : body,
			"the body yields %d values for %d iter args", last->nargs, ninit);
		return false;
	}
	for (int i = 0; i < ninit; i++) {
		Value *y = last->args[i], *p = r->params[i];
		if (y->dtype != p->dtype || !shape_eq(y->shape, p->shape)) {
			ld_err(L, on ? jv_at(L, jv_get(L, on->jv, "values"), (size_t)i) : body,
				"type mismatch: yields '%s' %s for iter arg '%s' %s", y->name, ld_vstr(g, y),
				p->name, ld_vstr(g, p));
			return false;
		}
		op->results[i]->dtype = p->dtype;
		op->results[i]->shape = p->shape;
	}
	return true;
}

static bool get_expr_list(G *g, JV f, int *n, Sym ***out)
{
	if (!json_is_array(f.v)) {
		ld_err(g->L, f, "expected a list of expressions");
		return false;
	}
	size_t cnt = json_array_size(f.v);
	*out = ARENA_NEWN(&g->k->arena, Sym *, cnt + 1);
	*n = (int)cnt;
	bool ok = true;
	for (size_t i = 0; i < cnt; i++)
		ok &= ((*out)[i] = ld_get_expr(g->L, jv_at(g->L, f, i), NULL)) != NULL;
	return ok;
}

/* The required "dtype": the op's and its result's. */
static bool get_op_dtype(G *g, Node *n, Op *op)
{
	Ld *L = g->L;
	JV f = jv_get(L, n->jv, "dtype");
	if (!need(L, n->jv, f, "dtype") || !ld_get_dtype(L, f, &op->dtype))
		return false;
	op_result(op)->dtype = op->dtype;
	return true;
}

/* register (a "shape" filled with "value") and scalar (a number or an
 * expression "value"). */
static bool build_constant(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	JV f;
	double num;
	(void)jvs;
	if (op->kind == OP_REGISTER) {
		f = jv_get(L, n->jv, "shape");
		if (!need(L, n->jv, f, "shape") || !ld_get_shape(L, f, &op->shape))
			return false;
	}
	if (!get_op_dtype(g, n, op))
		return false;
	f = jv_get(L, n->jv, "value");
	if (!need(L, n->jv, f, "value"))
		return false;
	if (op->kind == OP_SCALAR && json_is_string(f.v)) {
		if (!(op->expr = ld_get_expr(L, f, NULL)))
			return false;
	} else if (!get_number(L, f, &num)) {
		return false;
	} else {
		op->value = num;
	}
	op_result(op)->shape = op->shape;
	return true;
}

static bool build_self_index(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Value *res = op_result(op);
	(void)jvs;
	if (!get_op_dtype(g, n, op))
		return false;
	JV f = jv_get(L, n->jv, "dim");
	if (!need(L, n->jv, f, "dim") || !(op->dim = ld_get_dim(L, f)) || !get_ept(g, n, op))
		return false;
	if (!ld_is_int_dtype(op->dtype)) {
		ld_err(L, jv_get(L, n->jv, "dtype"), "self_index needs an integer dtype, got %s", dtype_name(op->dtype));
		return false;
	}
	res->shape = shape_new(g->k, 1);
	res->shape.dims[0] = op->dim;
	return true;
}

/* get_result: result "res_idx" of the op named by "value" (a multi-result
 * op found by name, since the walker resolved only single values). */
static bool build_get_result(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Value *res = op_result(op);
	long long idx;
	(void)jvs;
	JV f = jv_get(L, n->jv, "res_idx");
	if (!need(L, n->jv, f, "res_idx") || !get_int(L, f, 0, 1 << 20, &idx))
		return false;
	Ent *e = ld_tab_find(g, json_string_value(json_object_get(n->jv.v, "value")) ?
					intern(json_string_value(json_object_get(n->jv.v, "value"))) :
					"");
	Value *src = NULL;
	if (e && e->kind == E_NODE && e->node->op) {
		Op *d = e->node->op;
		if (idx >= d->nresults) {
			ld_err(L, f, "res_idx %lld is out of range: '%s' has %d result%s", idx, d->name, d->nresults,
				d->nresults == 1 ? "" : "s");
			return false;
		}
		src = d->results[idx];
	} else if (e && e->kind != E_NODE && idx == 0) {
		src = op->args[0];
	} else if (e && e->kind != E_NODE) {
		ld_err(L, f, "res_idx %lld is out of range: '%s' has 1 result", idx, e->key);
		return false;
	}
	if (!src || src->dtype == DT_NONE)
		return false;
	op->args[0] = src;
	op->res_idx = (int)idx;
	res->dtype = src->dtype;
	res->shape = src->shape;
	return true;
}

/* output: its values are its operands; nothing more to build. */
static bool build_output(G *g, Node *n, Op *op, JV *jvs)
{
	(void)g, (void)n, (void)op, (void)jvs;
	return true;
}

static bool build_unary(G *g, Node *n, Op *op, JV *jvs)
{
	Value *res = op_result(op);
	(void)g, (void)n, (void)jvs;
	res->dtype = op->args[0]->dtype;
	res->shape = op->args[0]->shape;
	return true;
}

/* binary and compare: one dtype, shapes that broadcast. */
static bool build_binary(G *g, Node *n, Op *op, JV *jvs)
{
	Value *res = op_result(op);
	Value *a = op->args[0], *b = op->args[1];
	if (!dtype_eq(g, n, jvs[1], op_name(op->kind), a, b))
		return false;
	if (!bcast(a->shape, b->shape, &res->shape)) {
		ld_err(g->L, jvs[1], "shape mismatch: %s and %s: neither contains the other's dims", ld_vstr(g, a),
			ld_vstr(g, b));
		return false;
	}
	res->dtype = op_class(op->kind) == OPC_COMPARE ? DT_I1 : a->dtype;
	return true;
}

static bool build_select(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Value *res = op_result(op);
	Value *c = op->args[0], *a = op->args[1], *b = op->args[2];
	if (c->dtype != DT_I1) {
		ld_err(L, jvs[0], "dtype mismatch: the condition '%s' must be i1, got %s", c->name, ld_vstr(g, c));
		return false;
	}
	if (!dtype_eq(g, n, jvs[2], "select", a, b))
		return false;
	Shape s1, s2;
	if (!bcast(a->shape, b->shape, &s1) || !bcast(s1, c->shape, &s2)) {
		ld_err(L, n->jv, "shape mismatch: %s, %s and %s do not broadcast", ld_vstr(g, c), ld_vstr(g, a),
			ld_vstr(g, b));
		return false;
	}
	res->dtype = a->dtype;
	res->shape = s2;
	return true;
}

static bool build_cast(G *g, Node *n, Op *op, JV *jvs)
{
	(void)jvs;
	if (!get_op_dtype(g, n, op))
		return false;
	op_result(op)->shape = op->args[0]->shape;
	return true;
}

/* broadcast and permute: "target_shape". */
static bool build_shape(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Value *res = op_result(op);
	Value *a = op->args[0];
	(void)jvs;
	JV f = jv_get(L, n->jv, "target_shape");
	if (!need(L, n->jv, f, "target_shape") || !ld_get_shape(L, f, &op->shape))
		return false;
	if (op->kind == OP_BROADCAST && !ld_subset(a->shape, op->shape)) {
		ld_err(L, f, "shape mismatch: cannot broadcast %s to %s", ld_vstr(g, a), ld_tstr(g, a->dtype, op->shape));
		return false;
	}
	if (op->kind == OP_PERMUTE && !ld_same_set(a->shape, op->shape)) {
		ld_err(L, f, "shape mismatch: %s is not a permutation of %s", ld_tstr(g, a->dtype, op->shape),
			ld_vstr(g, a));
		return false;
	}
	res->dtype = a->dtype;
	res->shape = op->shape;
	return true;
}

/* sum, max, min: args of one type reduced over "dim", an optional "init"
 * of the result's type. */
static bool build_reduce(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Value *res = op_result(op);
	JV f = jv_get(L, n->jv, "init");
	op->has_init = f.v != NULL;
	int nsrc = op_reduce_nsrc(op);
	if (nsrc < 1) {
		ld_err(L, jv_get(L, n->jv, "arg"), "a reduction needs at least one arg");
		return false;
	}
	Value *a = op->args[0];
	for (int i = 1; i < nsrc; i++) {
		if (!dtype_eq(g, n, jvs[i], op_name(op->kind), a, op->args[i]))
			return false;
		if (!shape_eq(a->shape, op->args[i]->shape)) {
			ld_err(L, jvs[i], "shape mismatch: '%s' %s and '%s' %s", a->name, ld_vstr(g, a), op->args[i]->name,
				ld_vstr(g, op->args[i]));
			return false;
		}
	}
	JV fd = jv_get(L, n->jv, "dim");
	if (!need(L, n->jv, fd, "dim") || !(op->dim = ld_get_dim(L, fd)))
		return false;
	int pos = shape_find(a->shape, op->dim);
	if (pos < 0) {
		ld_err(L, fd, "shape mismatch: '%s' %s has no dim '%s' to reduce", a->name, ld_vstr(g, a),
			sym_name(op->dim));
		return false;
	}
	JV fb = jv_get(L, n->jv, "block");
	if (fb.v && !get_bool(L, fb, &op->block))
		return false;
	res->dtype = a->dtype;
	res->shape = shape_new(g->k, a->shape.rank - 1);
	for (int i = 0, j = 0; i < a->shape.rank; i++)
		if (i != pos)
			res->shape.dims[j++] = a->shape.dims[i];
	if (op->has_init) {
		Value *in = op_reduce_init(op);
		if (in->dtype != res->dtype || !shape_eq(in->shape, res->shape)) {
			ld_err(L, f, "type mismatch: init '%s' is %s, the reduction gives %s", in->name, ld_vstr(g, in),
				ld_vstr(g, res));
			return false;
		}
	}
	return true;
}

/* apply_expr: "expr" over "params", one per integer register; the
 * registers broadcast. */
static bool build_apply_expr(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Kernel *k = g->k;
	Value *res = op_result(op);
	JV fp = jv_get(L, n->jv, "params");
	if (!need(L, n->jv, fp, "params"))
		return false;
	if (!json_is_array(fp.v) || json_array_size(fp.v) != (size_t)op->nargs) {
		ld_err(L, fp, "expected a list of %d parameter name%s, one per register", op->nargs,
			op->nargs == 1 ? "" : "s");
		return false;
	}
	op->nparams = op->nargs;
	op->params = ARENA_NEWN(&k->arena, Sym *, op->nargs + 1);
	for (int i = 0; i < op->nargs; i++) {
		const char *s;
		if (!ld_get_ident(L, jv_at(L, fp, (size_t)i), &s))
			return false;
		op->params[i] = sym_symbol(k->sc, s);
	}
	Shape s = op->args[0]->shape;
	for (int i = 0; i < op->nargs; i++) {
		Value *a = op->args[i];
		if (!ld_is_int_dtype(a->dtype)) {
			ld_err(L, jvs[i], "apply_expr needs integer registers, '%s' is %s", a->name, ld_vstr(g, a));
			return false;
		}
		if (!bcast(s, a->shape, &s)) {
			ld_err(L, jvs[i], "shape mismatch: %s does not broadcast with %s", ld_vstr(g, a),
				ld_tstr(g, a->dtype, s));
			return false;
		}
	}
	Scope sc = {op->nparams, op->params, NULL};
	JV f = jv_get(L, n->jv, "expr");
	if (!need(L, n->jv, f, "expr") || !(op->expr = ld_get_expr(L, f, &sc)))
		return false;
	op->expr = ld_expr_set_extents(g, n, op->expr);
	op->dtype = op->args[0]->dtype;
	f = jv_get(L, n->jv, "dtype");
	if (f.v && !ld_get_dtype(L, f, &op->dtype))
		return false;
	if (sym_is_bool(op->expr))
		op->dtype = DT_I1;
	res->dtype = op->dtype;
	res->shape = s;
	return true;
}

/* extract (one "offset" into the fastest dim) and extract_slice ("offset",
 * "size" and "stride" lists of one length). */
static bool build_extract(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Value *res = op_result(op);
	Value *a = op->args[0];
	(void)jvs;
	JV f = jv_get(L, n->jv, "offset");
	if (!need(L, n->jv, f, "offset"))
		return false;
	res->dtype = a->dtype;
	if (op->kind == OP_EXTRACT) {
		op->nslice = 1;
		op->offset = ARENA_NEWN(&g->k->arena, Sym *, 1);
		if (!(op->offset[0] = ld_get_expr(L, f, NULL)))
			return false;
		res->shape = a->shape;
		if (a->shape.rank > 1)
			res->shape.rank--; /* drops the fastest (last) dim */
		return true;
	}
	int n1, n2, n3;
	JV fs = jv_get(L, n->jv, "size"), ft = jv_get(L, n->jv, "stride");
	if (!need(L, n->jv, fs, "size") || !need(L, n->jv, ft, "stride") || !get_expr_list(g, f, &n1, &op->offset) ||
		!get_expr_list(g, fs, &n2, &op->size) || !get_expr_list(g, ft, &n3, &op->stride))
		return false;
	if (n1 != n2 || n1 != n3) {
		ld_err(L, n->jv, "offset, size and stride must have the same length (%d, %d, %d)", n1, n2, n3);
		return false;
	}
	op->nslice = n1;
	res->shape = a->shape;
	return true;
}

/* The builders, keyed by ir/graph_ops.h: an op's own where it has one,
 * else its class's. Every control op has its own. */
typedef bool BuildFn(G *g, Node *n, Op *op, JV *jvs);

static BuildFn *const op_builder[OP_COUNT] = {
	[OP_SELF_INDEX] = build_self_index,
	[OP_ITERATE] = build_iterate,
	[OP_GET_RESULT] = build_get_result,
	[OP_OUTPUT] = build_output,
	[OP_CONDITIONAL] = ld_build_conditional,
	[OP_SET_SYMBOL] = ld_build_set_symbol,
	[OP_BITCAST] = ld_build_bitcast,
	[OP_SCALED_MMA] = ld_build_scaled_mma,
	[OP_SCATTER_ADD] = build_scatter_add,
	[OP_TOPK] = build_topk,
	[OP_ALLOCATE] = build_allocate,
	[OP_SHARED_MEMORY_BARRIER] = build_barrier,
	[OP_WORKGROUP_BARRIER] = build_barrier,
	[OP_MEMORY_COUNTER_WAIT_BARRIER] = ld_build_hint,
	[OP_MEMORY_COUNTER_WAIT] = ld_build_hint,
	[OP_SET_WAVE_PRIO] = ld_build_hint,
	[OP_SCHEDULING_BARRIER] = ld_build_hint,
	[OP_SCHEDULING_GROUP_BARRIER] = ld_build_hint,
	[OP_SOFTSIGN] = ld_build_softsign,
};

static BuildFn *const class_builder[OPC_COUNT] = {
	[OPC_SOURCE] = build_constant,
	[OPC_MEMORY] = build_memory,
	[OPC_MMA] = ld_build_mma,
	[OPC_UNARY] = build_unary,
	[OPC_BINARY] = build_binary,
	[OPC_COMPARE] = build_binary,
	[OPC_SELECT] = build_select,
	[OPC_CAST] = build_cast,
	[OPC_SHAPE] = build_shape,
	[OPC_REDUCE] = build_reduce,
	[OPC_SCAN] = ld_build_scan,
	[OPC_INDEX] = build_apply_expr,
	[OPC_EXTRACT] = build_extract,
};

/* Attributes and result type of one op; false after reporting. */
bool ld_build_op(G *g, Node *n, Op *op, JV *jvs)
{
	BuildFn *b = op_builder[op->kind] ? op_builder[op->kind] : class_builder[op_class(op->kind)];
	if (!b)
		die("no builder for op %s", op_name(op->kind));
	return b(g, n, op, jvs);
}

/* Optional "type": must equal the inferred result type(s). */
bool ld_check_declared_type(G *g, Node *n, Op *op)
{
	Ld *L = g->L;
	JV f = jv_get(L, n->jv, "type");
	if (!f.v || op->nresults == 0)
		return true; /* writes and outputs: accepted, not checked */
	bool ok = true;
	for (int i = 0; i < op->nresults; i++) {
		JV t = f;
		if (op->nresults > 1) {
			if (!json_is_array(f.v) || json_array_size(f.v) != (size_t)op->nresults) {
				ld_err(L, f, "expected a list of %d types", op->nresults);
				return false;
			}
			t = jv_at(L, f, (size_t)i);
		}
		if (!json_is_object(t.v)) {
			ld_err(L, t, "expected a type object {\"shape\": [...], \"dtype\": ...}");
			return false;
		}
		check_fields(L, t, "shape dtype", NULL);
		JV fs = jv_get(L, t, "shape"), fd = jv_get(L, t, "dtype");
		Shape s;
		DType dt;
		if (!need(L, t, fs, "shape") || !need(L, t, fd, "dtype") || !ld_get_shape(L, fs, &s) ||
			!ld_get_dtype(L, fd, &dt))
			return false;
		Value *r = op->results[i];
		if (dt != r->dtype || !shape_eq(s, r->shape)) {
			ld_err(L, t, "type mismatch: declared %s, inferred %s", ld_tstr(g, dt, s), ld_vstr(g, r));
			ok = false;
		}
	}
	op->has_type = ok;
	return ok;
}

/* Optional "index": {dim: "start : size : stride"}. */
bool ld_load_index(G *g, Node *n, Op *op)
{
	Ld *L = g->L;
	JV f = jv_get(L, n->jv, "index");
	if (!f.v)
		return true;
	if (!json_is_object(f.v)) {
		ld_err(L, f, "expected an object (dim: \"start : size : stride\")");
		return false;
	}
	size_t cnt = json_object_size(f.v);
	op->index = ARENA_NEWN(&g->k->arena, IndexSeq, cnt + 1);
	bool ok = true;
	const char *key;
	json_t *val;
	json_object_foreach(f.v, key, val)
	{
		JV e = jv_get(L, f, key);
		KSymbol *s = kernel_symbol(g->k, key);
		if (!s || s->kind == SYMK_ADDRESS_SPACE) {
			ld_err_key(L, f, key, "symbol '%s' has neither a value nor a constraint defining it",
				key);
			ok = false;
			continue;
		}
		if (!json_is_string(val) || strlen(json_string_value(val)) != json_string_length(val)) {
			ld_err(L, e, "expected a string \"start : size : stride\"");
			ok = false;
			continue;
		}
		const char *text = json_string_value(val);
		const char *c1 = strchr(text, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c1 || !c2 || strchr(c2 + 1, ':')) {
			ld_err(L, e, "expected \"start : size : stride\", got '%s'", text);
			ok = false;
			continue;
		}
		IndexSeq *is = &op->index[op->nindex];
		is->dim = s->sym;
		const char *parts[3] = {text, c1 + 1, c2 + 1};
		size_t lens[3] = {(size_t)(c1 - text), (size_t)(c2 - c1 - 1), strlen(c2 + 1)};
		Sym *x[3];
		for (int i = 0; i < 3; i++) {
			char *p = arena_strndup(&L->tmp, parts[i], lens[i]);
			x[i] = ld_parse_expr_at(L, e, p, (int)(parts[i] - text), NULL);
			if (!x[i])
				ok = false;
		}
		if (!x[0] || !x[1] || !x[2])
			continue;
		is->start = x[0];
		is->size = x[1];
		is->stride = x[2];
		op->nindex++;
	}
	return ok;
}

