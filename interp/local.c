/* local.c — allocations (Wave's tkw.allocate): a buffer of the workgroup
 * in shared memory, which the workgroup's waves read and write together.
 *
 * Model (docs/interpreter.md, "Allocations"): each time an allocate op runs
 * (once per workgroup at the top level, once per trip in a loop body) the
 * workgroup gets a fresh buffer of the op's distributed_shape (its padding
 * left out: padding places elements, it holds none), no element of which
 * has a value. The waves run op by op in lockstep (exec.c), so an op sees
 * what every wave stored before it: the compiled kernel puts barriers where
 * that needs them. An access addresses the buffer with coordinates counted
 * from the window of the workgroup and of the loop trip (Wave's
 * remove_global_indexing: the workgroup ids and the loop variables at 0),
 * so one workgroup tile fills it; memory.c maps them through the op's
 * mapping and bounds them by the buffer's extents. Reading an element no op
 * stored, or combining into one, is an error: the kernel would see what the
 * LDS held before. */
#include <string.h>

#include "../ir/graph.h"
#include "interp.h"
#include "run.h"

int interp_local_alloc(Run *r, const Op *op)
{
	Value *res = op_result(op);
	InterpArg *a = ARENA_NEW(&r->arena, InterpArg);
	*a = (InterpArg){.mem = res, .name = res->name, .dtype = res->dtype, .rank = res->shape.rank, .count = 1};
	if (a->rank > IT_MAX_RANK)
		return run_fail(r, op, "rank %d exceeds %d", a->rank, IT_MAX_RANK);
	for (int i = 0; i < a->rank; i++) {
		int64_t e;
		if (run_eval_int(r, op, op->alloc_ext[i], &e) < 0)
			return -1;
		if (i == a->rank - 1)
			e -= op->padding;
		if (e < 1 || e > MAX_ELEMS || (a->count *= (uint64_t)e) > (uint64_t)MAX_ELEMS)
			return run_fail(r, op, "allocation %s: extent %lld of dim %s (after padding) is outside [1, %lld] or "
					       "the whole is larger",
				res->name, (long long)e, sym_name(res->shape.dims[i]), (long long)MAX_ELEMS);
		a->shape[i] = e;
	}
	if ((r->live += (int64_t)a->count) > MAX_LIVE_ELEMS)
		return run_fail(r, op, "the values of one workgroup hold more than %lld elements", (long long)MAX_LIVE_ELEMS);
	a->data = arena_alloc(&r->arena, a->count * (uint64_t)dtype_size(a->dtype));
	a->written = arena_alloc(&r->arena, a->count);
	memset(a->written, 0, a->count);
	r->local[op->id] = a;
	return 0;
}

InterpArg *run_buffer(Run *r, const Op *op, const Value *mv)
{
	if (!value_is_local(mv))
		return &r->in->args[mv->arg_idx];
	InterpArg *a = r->local[mv->def->id];
	if (!a)
		run_fail(r, op, "allocation %s is used before its allocate op runs", mv->name);
	return a;
}

int run_local_base(Run *r, const Op *op, Sym *d, int64_t *base)
{
	IDim *x = run_dim(r, d);
	if (!x)
		return -1;
	*base = 0;
	if (run_dim_is_set(r, d))
		return 0;
	if (x->alias)
		return run_fail(r, op, "an allocation indexed along %s, a symbolic alias, is not supported", x->name);
	if (x->in_loop)
		*base = x->tstart + x->iv * x->ttile;
	else if (x->g >= 0)
		return run_wg_start(r, x, base);
	return 0;
}
