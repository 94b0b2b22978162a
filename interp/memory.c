/* memory.c — the interpreter's reads and writes: element coordinates,
 * bounds, and index mappings (exec.c has the model).
 *
 * A read fills a tensor over the context windows of its result dims; a write
 * walks the register conformed to the memory's dims (no mapping) or the
 * register's own dims (mapping). With a mapping, the register side is bare
 * iterators, so each element binds the iterators to its register coordinates
 * (and the dynamic-value symbols to the dynamic registers at the same
 * position, or where dynamic_val_mappings puts them) and the memory side's
 * expressions give the memory coordinates.
 * An element is accessed only if every register coordinate and every memory
 * coordinate is inside its dim: otherwise reads give 0, writes are dropped.
 *
 * atomic_add is a write that adds to memory and returns the old values.
 *
 * Speed (a GEMM's interpretation was mostly reads): a read without a mapping
 * copies whole rows of the in-bounds box, and a wave whose windows equal an
 * earlier wave's in the same workgroup gets that wave's tensor, until a
 * write. */
#include <string.h>

#include "../ir/graph.h"
#include "interp.h"
#include "run.h"

/* Is coordinate c of dim d inside [0, size)? Dims without a size (none in
 * validated kernels) count as unbounded. */
static bool in_dim(Run *r, Sym *d, int64_t c)
{
	IDim *x = run_dim(r, d);
	int64_t size = x ? run_dim_size(r, x) : -1;
	return c >= 0 && (!x || size < 0 || x->unbounded || c < size);
}


static uint64_t mem_offset(const InterpArg *a, const int64_t *mc)
{
	uint64_t off = 0;
	for (int i = 0; i < a->rank; i++)
		off = off * (uint64_t)a->shape[i] + (uint64_t)mc[i];
	return off;
}

static bool mem_in_bounds(const InterpArg *a, const int64_t *mc)
{
	for (int i = 0; i < a->rank; i++)
		if (mc[i] < 0 || mc[i] >= a->shape[i])
			return false;
	return true;
}

/* For a mapping side whose expressions must be bare iterators (read:
 * outputs, write: inputs): which register dim each iterator reads. */
static int iter_dims(Run *r, const Op *op, const Mapping *m, int n, Sym **dims, Sym **exprs, const ITensor *reg,
	int *reg_pos)
{
	for (int i = 0; i < m->niters; i++)
		reg_pos[i] = -1;
	for (int j = 0; j < n; j++) {
		int it = -1;
		for (int i = 0; i < m->niters; i++)
			if (exprs[j] == m->iters[i])
				it = i;
		if (it < 0)
			return run_fail(r, op, "mapping: '%s' for dim %s must be a bare iterator", sym_str(r->k->sc, exprs[j]),
				sym_name(dims[j]));
		int p = it_find(reg, sym_name(dims[j]));
		if (p < 0)
			return run_fail(r, op, "mapping: the register has no dim %s", sym_name(dims[j]));
		reg_pos[it] = p;
	}
	for (int i = 0; i < m->niters; i++)
		if (reg_pos[i] < 0)
			return run_fail(r, op, "mapping: iterator %s indexes no register dim", sym_name(m->iters[i]));
	return 0;
}

/* Memory coordinates of one element through a mapping side (read: inputs,
 * write: outputs), with the iterators and dynamic values bound. */
static int mapped_coords(Run *r, const Op *op, const InterpArg *a, int n, Sym **dims, Sym **exprs, int64_t *mc)
{
	Shape ms = a->mem->shape;
	for (int i = 0; i < ms.rank; i++) {
		int j = 0;
		while (j < n && dims[j] != ms.dims[i])
			j++;
		if (j < n) {
			if (run_eval_int(r, op, exprs[j], &mc[i]) < 0)
				return -1;
		} else {
			int64_t ext;
			if (run_window(r, op, ms.dims[i], &mc[i], &ext) < 0)
				return -1;
		}
	}
	return 0;
}

/* Does an op in r store into (write, combine into) memory argument mem? */
static bool writes_memory(const Region *r, const Value *mem)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if ((op_stores(op->kind) && op_memory(op) == mem) || (op->body && writes_memory(op->body, mem)))
			return true;
	}
	return false;
}

/* Dynamic value d's element that dynamic_val_mappings names for the
 * element whose iterators are bound: each dim of the value at its
 * expression's coordinate (Wave reads the value's node at the index these
 * expressions give). A coordinate outside the dim reads 0, as that read
 * does. One inside the dims but outside the window of the value here
 * (another workgroup's row) is what the read would have loaded: taken
 * from memory when the value is an unmapped read of memory no op writes,
 * else an error (the value is not known there). */
static int dyn_mapped(Run *r, const Op *op, const Mapping *m, int d, const ITensor *t, int64_t *out)
{
	const Value *xv = op->args[op->nargs - op->ndyn + d];
	int64_t off = 0, cv[IT_MAX_RANK];
	bool inside = true, held = true;
	for (int i = 0; i < t->rank; i++) {
		int k = 0;
		while (k < m->dvm_n[d] && strcmp(sym_name(m->dvm_dims[d][k]), t->dim[i]) != 0)
			k++;
		if (k == m->dvm_n[d])
			return run_fail(r, op, "dynamic_val_mappings[%d] gives no coordinate for dim %s", d, t->dim[i]);
		if (run_eval_int(r, op, m->dvm_exprs[d][k], &cv[i]) < 0)
			return -1;
		inside &= in_dim(r, m->dvm_dims[d][k], cv[i]);
		held &= cv[i] >= t->start[i] && cv[i] < t->start[i] + t->ext[i];
		off = off * t->ext[i] + (cv[i] - t->start[i]);
	}
	if (!inside || held) {
		*out = inside ? (int64_t)t->v[off] : 0;
		return 0;
	}
	const Op *rd = xv->kind == VAL_RESULT ? xv->def : NULL;
	if (!rd || rd->kind != OP_READ || rd->mapping || writes_memory(r->k->body, rd->args[0]))
		return run_fail(r, op,
			"dynamic value %s: dynamic_val_mappings[%d] names an element outside the window this wave "
			"holds, and it is not a read of memory the kernel leaves unwritten",
			xv->name, d);
	/* an unmapped read's dims are its memory's, in order */
	const InterpArg *a = &r->in->args[rd->args[0]->arg_idx];
	*out = (int64_t)dtype_load(a->dtype, a->data, mem_offset(a, cv));
	return 0;
}

/* Bind the iterators, dynamic values and set symbols for element i of reg
 * (global coordinates c; the iterators take ic, the coordinates the
 * memory counts in: c, or an allocation's local ones): a dynamic value at
 * the element's register coordinates, or with dynamic_val_mappings where
 * its expressions say; -1 after reporting. */
static int bind_element(Run *r, const Op *op, const Mapping *m, const int *reg_pos, const int64_t *c,
	const int64_t *ic, ITensor *const *dynv, const ITensor *reg)
{
	for (int it = 0; it < m->niters; it++)
		run_env_push(r, m->iters[it], ic[reg_pos[it]]);
	int64_t v[16];
	for (int d = 0; d < m->ndyn; d++) {
		if (!m->dvm_n)
			v[d] = (int64_t)run_at(dynv[d], reg->rank, reg->dim, c);
		else if (dyn_mapped(r, op, m, d, dynv[d], &v[d]) < 0)
			return -1;
	}
	for (int d = 0; d < m->ndyn; d++)
		run_env_push(r, m->dyn[d], v[d]);
	return r->nset ? run_bind_set_symbols(r, op, reg, c) : 0;
}

/* n elements of a's buffer from element `off`, `stride` apart, into dst:
 * the values dtype_load gives, with the common float types decoded inline
 * (a realistic GEMM's interpretation was mostly reads, element by element). */
static void load_run(const InterpArg *a, uint64_t off, int64_t stride, int64_t n, double *dst)
{
	const unsigned char *p = (const unsigned char *)a->data;
	switch (a->dtype) {
	case DT_F16:
		for (int64_t i = 0; i < n; i++, off += (uint64_t)stride) {
			uint16_t h;
			memcpy(&h, p + 2 * off, 2);
			uint32_t e = (h >> 10) & 0x1f;
			if ((h & 0x7fff) == 0) { /* +-0 */
				dst[i] = h ? -0.0 : 0.0;
				continue;
			}
			if (e == 0 || e == 0x1f) { /* subnormal, inf, nan */
				dst[i] = dtype_f16_to_f32(h);
				continue;
			}
			/* a normal f16: rebias the exponent (15 -> 127), widen the
			 * significand; exact */
			uint32_t u = ((uint32_t)(h & 0x8000) << 16) | ((e + 112) << 23) | ((uint32_t)(h & 0x3ff) << 13);
			float f;
			memcpy(&f, &u, 4);
			dst[i] = f;
		}
		return;
	case DT_BF16:
		for (int64_t i = 0; i < n; i++, off += (uint64_t)stride) {
			uint16_t h;
			memcpy(&h, p + 2 * off, 2);
			uint32_t u = (uint32_t)h << 16;
			float f;
			memcpy(&f, &u, 4);
			dst[i] = f;
		}
		return;
	case DT_F32:
		for (int64_t i = 0; i < n; i++, off += (uint64_t)stride) {
			float f;
			memcpy(&f, p + 4 * off, 4);
			dst[i] = f;
		}
		return;
	default:
		for (int64_t i = 0; i < n; i++, off += (uint64_t)stride)
			dst[i] = dtype_load(a->dtype, a->data, off);
	}
}

/* An unmapped read, row by row: register dim d holds memory dims i with
 * pos[i] == d, so its element `idx` is at memory offset sum(idx * stride);
 * the elements inside every bound (register coordinate below lim, memory
 * coordinate inside the memory's shape) form one box of the register, and
 * the rest stay zero. Same elements and values as one dtype_load per
 * in-bounds element. */
static void read_rows(const InterpArg *a, ITensor *x, const int *pos, const int64_t *lim)
{
	int n = x->rank;
	int64_t stride[IT_MAX_RANK], lo[IT_MAX_RANK], hi[IT_MAX_RANK], base = 0;
	for (int d = 0; d < n; d++) {
		stride[d] = 0;
		lo[d] = MAX(0, -x->start[d]);
		hi[d] = lim[d] == INT64_MAX ? x->ext[d] : MIN(x->ext[d], lim[d] - x->start[d]);
	}
	int64_t ms = 1;
	for (int i = a->rank - 1; i >= 0; i--) {
		int d = pos[i];
		stride[d] += ms;
		base += x->start[d] * ms;
		hi[d] = MIN(hi[d], a->shape[i] - x->start[d]);
		ms *= a->shape[i];
	}
	if (x->count == 0)
		return;
	for (int d = 0; d < n; d++)
		if (lo[d] >= hi[d])
			return; /* nothing in bounds */
	/* odometer over the box's rows (all dims but the last) */
	int64_t idx[IT_MAX_RANK];
	for (int d = 0; d < n; d++)
		idx[d] = lo[d];
	int last = n - 1;
	for (;;) {
		int64_t dst = 0, src = base;
		for (int d = 0; d < n; d++) {
			dst = dst * x->ext[d] + idx[d];
			src += idx[d] * stride[d];
		}
		if (n == 0) {
			load_run(a, (uint64_t)src, 0, 1, x->v);
			return;
		}
		load_run(a, (uint64_t)src, stride[last], hi[last] - lo[last], x->v + dst);
		int d = last - 1;
		while (d >= 0 && ++idx[d] == hi[d]) {
			idx[d] = lo[d];
			d--;
		}
		if (d < 0)
			return;
	}
}

/* Does x (an earlier result of this read) cover the context windows of
 * the dims of shape? Then reading again would give the same tensor, as
 * long as no write came in between (which clears the memo): in a GEMM,
 * the waves that share a row of workgroup tiles read the same lhs. */
static bool same_windows(Run *r, const Op *op, const ITensor *x, Shape shape)
{
	for (int i = 0; i < shape.rank; i++) {
		int64_t start, ext;
		if (run_window(r, op, shape.dims[i], &start, &ext) < 0 || start != x->start[i] || ext != x->ext[i])
			return false;
	}
	return true;
}

/* An element of an allocation that no op stored yet: its value is what
 * the LDS held before, so reading or combining it is reported. */
static int undefined(Run *r, const Op *op, const InterpArg *a, const int64_t *mc)
{
	char at[160];
	size_t n = 0;
	for (int d = 0; d < a->rank && n < sizeof at; d++)
		n += (size_t)snprintf(at + n, sizeof at - n, "%s%lld", d ? ", " : "", (long long)mc[d]);
	return run_fail(r, op, "%s %s element [%s] of allocation %s, which no op stored before it (its value would be "
			       "whatever the LDS held)",
		op->name, op->kind == OP_READ ? "reads" : "combines into", at, a->name);
}

/* The bases an access of an allocation counts its coordinates from
 * (local.c), one per dim of x; all 0 for an argument. False after
 * reporting. */
static bool local_bases(Run *r, const Op *op, bool local, const ITensor *x, int64_t *base)
{
	for (int d = 0; d < x->rank; d++) {
		base[d] = 0;
		if (local && run_local_base(r, op, sym_symbol(r->k->sc, x->dim[d]), &base[d]) < 0)
			return false;
	}
	return true;
}

/* An allocation's dynamic values are taken at the element's own
 * coordinates only (Wave's shared-memory index drops the workgroup and
 * loop terms, which dynamic_val_mappings would otherwise name). */
static int local_mapping_ok(Run *r, const Op *op, bool local, const Mapping *m)
{
	if (local && m && m->dvm_n)
		return run_fail(r, op, "dynamic_val_mappings on an access of an allocation is not supported");
	return 0;
}

int interp_exec_read(Run *r, const Op *op)
{
	const Value *mv = op->args[0];
	bool local = value_is_local(mv);
	InterpArg *a = run_buffer(r, op, mv);
	if (!a)
		return -1;
	Value *res = op_result(op);
	const Mapping *m = op->mapping;
	if (local_mapping_ok(r, op, local, m) < 0)
		return -1;
	ITensor *memo = m || local ? NULL : r->read_memo[res->id];
	if (memo && same_windows(r, op, memo, res->shape))
		return run_set(r, op, memo);
	ITensor *x = run_source(r, op, a->dtype, res->shape);
	if (!x)
		return -1;
	int reg_pos[IT_MAX_RANK * 2];
	ITensor *dynv[16];
	if (m) {
		if (m->niters > IT_MAX_RANK * 2 || m->ndyn > 16)
			return run_fail(r, op, "mapping too large");
		if (iter_dims(r, op, m, m->nout, m->out_dims, m->out_exprs, x, reg_pos) < 0)
			return -1;
		for (int d = 0; d < m->ndyn; d++)
			dynv[d] = run_get(r, op->args[1 + d]);
	}
	int64_t c[IT_MAX_RANK], mc[IT_MAX_RANK];
	/* what does not change from element to element, once: each register
	 * dim's extent (in_dim's bound) and, without a mapping, where each
	 * memory dim sits among the register's dims */
	int64_t lim[IT_MAX_RANK];
	int pos[IT_MAX_RANK];
	for (int d = 0; d < x->rank; d++) {
		IDim *xd = run_dim(r, res->shape.dims[d]);
		int64_t size = xd ? run_dim_size(r, xd) : -1;
		lim[d] = size < 0 || xd->unbounded ? INT64_MAX : size;
	}
	for (int d = 0; !m && d < a->rank; d++) {
		pos[d] = it_find(x, sym_name(a->mem->shape.dims[d]));
		check_that(pos[d] >= 0);
	}
	if (!m && !local) {
		read_rows(a, x, pos, lim);
		r->read_memo[res->id] = x;
		return run_set(r, op, x);
	}
	int64_t lc[IT_MAX_RANK], base[IT_MAX_RANK];
	if (!local_bases(r, op, local, x, base))
		return -1;
	for (int64_t i = 0; i < x->count; i++) {
		run_coords(x, i, c);
		bool ok = true;
		for (int d = 0; d < x->rank; d++) {
			ok &= c[d] >= 0 && c[d] < lim[d];
			lc[d] = c[d] - base[d];
		}
		if (!ok)
			continue;
		if (m) {
			int save = r->nenv;
			int rc = bind_element(r, op, m, reg_pos, c, lc, dynv, x);
			if (rc == 0)
				rc = mapped_coords(r, op, a, m->nin, m->in_dims, m->in_exprs, mc);
			r->nenv = save;
			if (rc < 0)
				return -1;
		} else {
			for (int d = 0; d < a->rank; d++)
				mc[d] = lc[pos[d]];
		}
		if (!mem_in_bounds(a, mc))
			continue;
		uint64_t off = mem_offset(a, mc);
		if (local && !a->written[off])
			return undefined(r, op, a, mc);
		x->v[i] = dtype_load(a->dtype, a->data, off);
	}
	return run_set(r, op, x);
}

/* The value atomic_add stores: integers wrap at their width (as the
 * hardware's adds do), floats round once to the element type (the double
 * sum of two f32 or f16 values is exact or rounds innocuously, so
 * dtype_store's rounding gives the type's own sum). */
static double atomic_sum(DType t, double a, double b)
{
	if (dtype_is_float(t))
		return a + b;
	int bits = 8 * dtype_size(t);
	uint64_t u = (uint64_t)(int64_t)a + (uint64_t)(int64_t)b;
	if (bits < 64)
		u &= (UINT64_C(1) << bits) - 1;
	if (dtype_info[t].cls == DTC_INT && bits < 64 && (u >> (bits - 1) & 1))
		return (double)(int64_t)(u | ~((UINT64_C(1) << bits) - 1));
	return dtype_info[t].cls == DTC_INT ? (double)(int64_t)u : (double)u;
}

/* atomic_min's value: the smaller, NaN when either is (Wave's minimumf;
 * integers compare as their type's values, which the doubles hold). */
static double atomic_lesser(double a, double b)
{
	if (a != a || b != b)
		return a != a ? a : b;
	return b < a ? b : a;
}

/* write, the atomics and scatter_add: each element of the register
 * (conformed as the op says) goes to its memory element; an atomic
 * combines it with the element (the previous value going to *old at the
 * element's position, 0 where the element is out of bounds); scatter_add
 * adds it at the coordinate along dim sdim its index register gives. */
static int write_elems(Run *r, const Op *op, ITensor **old);

int interp_exec_write(Run *r, const Op *op) { return write_elems(r, op, NULL); }

/* atomic_add, atomic_min (docs/interpreter.md, "Atomics"): the
 * interpreter's element order is one interleaving of the GPU's. */
int interp_exec_atomic(Run *r, const Op *op)
{
	ITensor *old = NULL;
	if (write_elems(r, op, &old) < 0)
		return -1;
	return run_set(r, op, old);
}

int interp_exec_scatter_add(Run *r, const Op *op) { return write_elems(r, op, NULL); }

static int write_elems(Run *r, const Op *op, ITensor **old)
{
	/* a read after this one may see what it writes */
	memset(r->read_memo, 0, sizeof(ITensor *) * ((size_t)r->k->nvalues + 1));
	run_note_store(r);
	const ITensor *reg = run_get(r, op->args[0]);
	const Value *mv = op_memory(op);
	bool local = value_is_local(mv), scatter = op->kind == OP_SCATTER_ADD;
	bool combine = scatter || op_is_atomic(op->kind);
	InterpArg *a = run_buffer(r, op, mv);
	if (!a)
		return -1;
	const Mapping *m = op->mapping;
	if (local_mapping_ok(r, op, local, m) < 0)
		return -1;
	ITensor *x;
	if (!m) {
		/* Place the register over the memory's dims; dims it lacks are
		 * placed by the constraints (the context window). */
		x = run_conform(r, op, reg, mv->shape, a->dtype);
		if (!x)
			return -1;
	} else {
		x = run_conform(r, op, reg, op->args[0]->shape, a->dtype);
		if (!x)
			return -1;
	}
	Shape xs = m ? op->args[0]->shape : mv->shape;
	/* scatter_add's index register over the same elements */
	const ITensor *idx = scatter ? run_conform(r, op, run_get(r, op->args[1]), xs, op->args[1]->dtype) : NULL;
	if (scatter && !idx)
		return -1;
	int reg_pos[IT_MAX_RANK * 2];
	ITensor *dynv[16];
	if (m) {
		if (m->niters > IT_MAX_RANK * 2 || m->ndyn > 16)
			return run_fail(r, op, "mapping too large");
		if (iter_dims(r, op, m, m->nin, m->in_dims, m->in_exprs, x, reg_pos) < 0)
			return -1;
		for (int d = 0; d < m->ndyn; d++)
			dynv[d] = run_get(r, op->args[2 + d]);
	}
	if (old && !(*old = it_new(&r->arena, x->dtype, x->rank, x->dim, x->start, x->ext)))
		return run_fail(r, op, "out of memory");
	int64_t c[IT_MAX_RANK], mc[IT_MAX_RANK], lc[IT_MAX_RANK], base[IT_MAX_RANK];
	if (!local_bases(r, op, local, x, base))
		return -1;
	for (int64_t i = 0; i < x->count; i++) {
		run_coords(x, i, c);
		bool ok = true;
		for (int d = 0; d < x->rank; d++) {
			ok &= in_dim(r, xs.dims[d], c[d]);
			lc[d] = c[d] - base[d];
		}
		if (!ok)
			continue;
		if (r->ncond) {
			int h = run_cond_holds(r, op, x, c);
			if (h < 0)
				return -1;
			if (!h)
				continue;
		}
		if (m) {
			int save = r->nenv;
			int rc = bind_element(r, op, m, reg_pos, c, lc, dynv, x);
			if (rc == 0)
				rc = mapped_coords(r, op, a, m->nout, m->out_dims, m->out_exprs, mc);
			r->nenv = save;
			if (rc < 0)
				return -1;
		} else {
			memcpy(mc, lc, sizeof(int64_t) * (size_t)x->rank);
		}
		if (scatter)
			mc[op->sdim] = (int64_t)run_at(idx, x->rank, x->dim, c);
		if (!mem_in_bounds(a, mc))
			continue;
		uint64_t off = mem_offset(a, mc);
		if (local && combine && !a->written[off])
			return undefined(r, op, a, mc);
		if (!a->written)
			a->written = xcalloc(a->count, 1);
		a->written[off] = 1;
		if (!combine) {
			dtype_store(a->dtype, a->data, off, x->v[i]);
			continue;
		}
		double prev = dtype_load(a->dtype, a->data, off);
		if (old)
			(*old)->v[i] = prev;
		dtype_store(a->dtype, a->data, off,
			op->kind == OP_ATOMIC_MIN ? atomic_lesser(prev, x->v[i]) : atomic_sum(a->dtype, prev, x->v[i]));
	}
	return 0;
}
