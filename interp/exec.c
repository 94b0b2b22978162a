/* exec.c — the reference interpreter's graph walker.
 *
 * Model (docs/interpreter.md): Wave runs the kernel graph once per wave, each
 * wave on its own tile of the problem. The interpreter does the same at
 * tensor level: for every workgroup id (one per primary workgroup constraint,
 * per workgroup dim) it evaluates the top-level region op by op for all the
 * workgroup's waves in lockstep (per workgroup dim, ceiling(workgroup tile /
 * wave tile) waves), so that block reductions can combine the waves' partial
 * results. Every dim has a window in the current context:
 *   - inside an iterate over it: [start + iv*tile, +tile) (tiling constraint);
 *   - with a workgroup constraint: [wg*wg_tile + wave*wave_tile, +wave_tile)
 *     (the workgroup tile when there is no wave constraint); a symbolic
 *     alias source takes its target's constraints with tiles mapped through
 *     the alias expression;
 *   - otherwise the whole dim, [0, size).
 * Sources (register, self_index, read) take these windows; all other ops
 * derive theirs from their operands, and every result is conformed to the
 * type the frontend inferred (reordered, size-1 dims squeezed, missing dims
 * broadcast over the context window).
 *
 * Memory (memory.c): an element is accessed only if each register coordinate and each
 * memory coordinate lies in [0, size of its dim); otherwise a read gives 0
 * and a write is dropped. This is Wave's masking at tensor level, so the
 * result does not depend on how a compiler splits the work.
 *
 * What is not executed: extract_slice with a stride other than 1 (reported
 * as an error with the op's location). */
#include <stdlib.h>
#include <string.h>

#include "../ir/graph.h"
#include "interp.h"
#include "run.h"

static int exec_region(Run *r, Region *g);
static int exec_iterate(Run *r, const Op *op);
static int exec_block_reduce(Run *r, const Op *op, int g);
static void select_wave(Run *r, int w);

/* A loop whose body is a plain GEMM step — reads (no mapping), casts of
 * body values, one mma accumulating into the only iter arg, and the output
 * of that mma — computes the same as one trip over all the trips' windows
 * together: each accumulator element adds its k products in k order either
 * way (it_mma walks k innermost), and the reads past the dim's end give the
 * same zeros. So it runs as one trip of count * tile (the interpretation of a
 * realistic GEMM was mostly per-trip tensor traffic). */
static bool plain_gemm_body(const Op *op)
{
	const Region *b = op->body;
	if (op->ninit != 1 || b->nparams != 1 || b->ops.len < 2)
		return false;
	int nmma = 0;
	const Op *mma = NULL;
	for (size_t i = 0; i + 1 < b->ops.len; i++) {
		const Op *o = b->ops.data[i];
		/* (not an allocation: its coordinates count from the trip's
		 * window, which one merged trip would change) */
		if (o->kind == OP_READ && !o->mapping && !value_is_local(o->args[0]))
			continue;
		if (o->kind == OP_CAST && o->args[0]->kind == VAL_RESULT && o->args[0]->def->parent == b)
			continue;
		if (o->kind == OP_MMA && o->args[2] == b->params[0]) {
			nmma++;
			mma = o;
			continue;
		}
		return false;
	}
	const Op *out = vec_last(&b->ops);
	return nmma == 1 && out->kind == OP_OUTPUT && out->nargs == 1 && out->args[0] == op_result(mma);
}

/* An iter arg along the loop's own dim holds, per thread, one trip's
 * window of it (a register accumulator [M, N] in a loop over N, as Wave
 * keeps it in registers): the init's window of trip 0 is cut out of its
 * whole extent, and each later trip takes the previous trip's output
 * relabelled to its own window (the same elements of the registers, at
 * the new coordinates). Other values are returned as they are. */
static ITensor *trip_window(Run *r, ITensor *y, const char *dim, int64_t ws, int64_t we)
{
	int d = it_find(y, dim);
	if (d < 0 || (y->start[d] == ws && y->ext[d] == we))
		return y;
	if (y->ext[d] == we) {
		ITensor *t = ARENA_NEW(&r->arena, ITensor);
		*t = *y;
		t->start[d] = ws;
		return t;
	}
	if (y->start[d] <= ws && ws + we <= y->start[d] + y->ext[d])
		return it_window(&r->arena, y, d, ws, we);
	return y; /* ops report the mismatch with their location */
}

/* A register made before the loop, seen in a trip whose window runs past
 * the dim's end (the last, partial tile of K2 = 1357): the window's
 * elements are all its splat value, as each lane holds it, in bounds or
 * not; the register's own extent stops at the end. */
static ITensor *splat_window(Run *r, const ITensor *t, int d, int64_t ws, int64_t we, const Op *reg)
{
	int64_t st[IT_MAX_RANK], ex[IT_MAX_RANK];
	memcpy(st, t->start, sizeof st);
	memcpy(ex, t->ext, sizeof ex);
	st[d] = ws;
	ex[d] = we;
	ITensor *y = it_new(&r->arena, t->dtype, t->rank, t->dim, st, ex);
	double v = it_round(reg->dtype, reg->value);
	for (int64_t i = 0; i < y->count; i++)
		y->v[i] = v;
	return y;
}

/* A loop whose condition names carried values (its body is a while body,
 * frontend/load_while.c): done once the trip's condition held for no
 * element in any wave, as no later trip can change what it names. */
static bool while_done(Run *r, const Op *op)
{
	const Region *body = op->body;
	const Op *wb = body->ops.len >= 2 ? body->ops.data[1] : NULL;
	if (!wb || wb->kind != OP_CONDITIONAL || !wb->while_body || wb->expr)
		return false;
	for (int w = 0; w < r->nw; w++) {
		select_wave(r, w);
		const ITensor *t = run_get(r, wb->args[wb->ninit]);
		for (int64_t i = 0; t && i < t->count; i++)
			if (t->v[i] != 0)
				return false;
	}
	return true;
}

static int exec_iterate(Run *r, const Op *op)
{
	IDim *x = run_dim(r, op->dim);
	if (!x)
		return -1;
	const Constraint *c = x->tiling;
	if (!c)
		return run_fail(r, op, "axis %s has no tiling constraint", x->name);
	if (x->in_loop)
		return run_fail(r, op, "nested iterate over %s", x->name);
	int64_t count;
	/* start and iters may name the workgroup ids ($WG2 * K_PER_SPLIT,
	 * Wave's split K): evaluated per workgroup */
	x->tstart = 0;
	if (c->start && run_eval_int(r, op, run_loop_expr(r, c->start), &x->tstart) < 0)
		return -1;
	if (c->iters) {
		if (run_eval_int(r, op, run_loop_expr(r, c->iters), &count) < 0)
			return -1;
	} else {
		int64_t size = run_dim_size(r, x);
		if (size < 0)
			return run_fail(r, op, "axis %s has no integer size", x->name);
		count = ceil_div(size, x->ttile);
	}
	Region *body = op->body;
	int n = op->ninit, nw = r->nw;
	/* cur[w*n + i]: wave w's value of iter arg i. */
	ITensor **cur = ARENA_NEWN(&r->arena, ITensor *, (size_t)(n * nw) + 1);
	for (int w = 0; w < nw; w++) {
		select_wave(r, w);
		for (int i = 0; i < n; i++)
			cur[w * n + i] = run_get(r, op->args[i]);
	}
	Sym *ivsym = c->induction_var;
	int save = r->nenv;
	/* Values defined before the loop that span the loop's dim (a register
	 * hoisted out of the body, such as attention's zero accumulator over
	 * K2): inside, each iteration sees its own tile of them, as the body's
	 * ops see every other operand; restored after the loop. */
	size_t nv = (size_t)nw * (size_t)r->k->nvalues, nouter = 0;
	size_t *outer = ARENA_NEWN(&r->arena, size_t, nv + 1);
	ITensor **orig = ARENA_NEWN(&r->arena, ITensor *, nv + 1);
	for (size_t i = 0; i < nv; i++) {
		ITensor *t = r->vals[i];
		int d = t ? it_find(t, x->name) : -1;
		if (d >= 0 && t->ext[d] != 1) {
			outer[nouter] = i;
			orig[nouter++] = t;
		}
	}
	int64_t tile = x->ttile;
	if (nouter == 0 && count > 1 && !c->iters && plain_gemm_body(op)) {
		x->ttile = count * tile;
		count = 1;
	}
	x->in_loop = true;
	int rc = 0;
	for (int64_t it = 0; it < count && rc == 0; it++) {
		x->iv = it;
		r->nenv = save;
		if (ivsym)
			run_env_push(r, ivsym, it);
		int64_t ws = x->tstart + it * x->ttile, we = x->ttile;
		for (size_t i = 0; i < nouter; i++) {
			ITensor *t = orig[i];
			int d = it_find(t, x->name);
			int64_t lo = MAX(ws, t->start[d]), hi = MIN(ws + we, t->start[d] + t->ext[d]);
			const Value *v = r->k->values.data[outer[i] % (size_t)r->k->nvalues];
			if (lo == ws && hi == ws + we)
				r->vals[outer[i]] = it_window(&r->arena, t, d, ws, we);
			else if (v->kind == VAL_RESULT && v->def->kind == OP_REGISTER)
				r->vals[outer[i]] = splat_window(r, t, d, ws, we, v->def);
		}
		for (int w = 0; w < nw && rc == 0; w++) {
			select_wave(r, w);
			for (int i = 0; i < n && rc == 0; i++) {
				Value *p = body->params[i];
				ITensor *y = run_conform(r, op, cur[w * n + i], p->shape, p->dtype);
				if (!y)
					rc = -1;
				else
					r->val[p->id] = trip_window(r, y, x->name, ws, we);
			}
		}
		if (rc == 0)
			rc = exec_region(r, body);
		if (rc == 0) {
			Op *out = vec_last(&body->ops);
			check_that(out->kind == OP_OUTPUT && out->nargs == n);
			for (int w = 0; w < nw; w++) {
				select_wave(r, w);
				for (int i = 0; i < n; i++)
					cur[w * n + i] = run_get(r, out->args[i]);
			}
			if (while_done(r, op))
				break;
			/* a spin-wait still waiting: the other workgroups run */
			if (op->spin)
				rc = run_spin_yield(r, op);
		}
	}
	x->in_loop = false;
	x->ttile = tile;
	r->nenv = save;
	for (size_t i = 0; i < nouter; i++)
		r->vals[outer[i]] = orig[i];
	if (rc < 0)
		return -1;
	for (int w = 0; w < nw; w++) {
		select_wave(r, w);
		for (int i = 0; i < op->nresults; i++) {
			Value *v = op->results[i];
			ITensor *y = run_conform(r, op, cur[w * n + i], v->shape, v->dtype);
			if (!y)
				return -1;
			r->val[v->id] = y;
		}
	}
	return 0;
}

/* The interpreter's function of a unary op; with flush (the kernel's
 * denorm_fp_math_f32 lets f32 denormals be flushed) the exp, log and rsqrt
 * functions that flush them, as the compiled kernel does. */
static ItFn unary_fn(OpKind k, bool flush)
{
	if (flush)
		switch (k) {
		case OP_EXP: return IT_EXP_FTZ;
		case OP_EXP2: return IT_EXP2_FTZ;
		case OP_LOG: return IT_LOG_FTZ;
		case OP_LOG2: return IT_LOG2_FTZ;
		case OP_LOG10: return IT_LOG10_FTZ;
		case OP_RSQRT: return IT_RSQRT_FTZ;
		default: break;
		}
	switch (k) {
	case OP_ABS: return IT_ABS;
	case OP_NEG: return IT_NEG;
	case OP_EXP: return IT_EXP;
	case OP_EXP2: return IT_EXP2;
	case OP_LOG: return IT_LOG;
	case OP_LOG2: return IT_LOG2;
	case OP_LOG10: return IT_LOG10;
	case OP_SQRT: return IT_SQRT;
	case OP_RSQRT: return IT_RSQRT;
	case OP_RECIPROCAL: return IT_RECIP;
	case OP_ROUND: return IT_ROUND;
	case OP_ROUNDEVEN: return IT_ROUNDEVEN;
	case OP_SIN: return IT_SIN;
	case OP_COS: return IT_COS;
	case OP_SINH: return IT_SINH;
	case OP_TANH: case OP_TANH_APPROX: return IT_TANH;
	case OP_CBRT: return IT_CBRT;
	case OP_INVERT: return IT_NOT;
	default: die("unary_fn: %s", op_name(k));
	}
}

static ItFn binary_fn(OpKind k)
{
	switch (k) {
	case OP_ADD: return IT_ADD;
	case OP_SUB: return IT_SUB;
	case OP_MUL: return IT_MUL;
	case OP_TRUEDIV: return IT_DIV;
	case OP_FLOORDIV: return IT_FLOORDIV;
	case OP_MOD: return IT_MOD;
	case OP_MAXIMUM: case OP_MAX: return IT_MAX;
	case OP_MINIMUM: case OP_MIN: return IT_MIN;
	case OP_AND: return IT_AND;
	case OP_OR: return IT_OR;
	case OP_POWF: return IT_POW;
	case OP_ATAN2: return IT_ATAN2;
	case OP_REMF: return IT_FMOD;
	case OP_EQ: return IT_EQ;
	case OP_NE: return IT_NE;
	case OP_LT: return IT_LT;
	case OP_LE: return IT_LE;
	case OP_GT: return IT_GT;
	case OP_GE: return IT_GE;
	case OP_SUM: return IT_ADD;
	default: die("binary_fn: %s", op_name(k));
	}
}

static bool has_mma(const Region *rg)
{
	for (size_t i = 0; i < rg->ops.len; i++)
		if (rg->ops.data[i]->kind == OP_MMA || rg->ops.data[i]->kind == OP_SCALED_MMA ||
			(rg->ops.data[i]->body && has_mma(rg->ops.data[i]->body)))
			return true;
	return false;
}

/* The run of coordinates each lane folds in a 16-bit sum over op's dim
 * (docs/interpreter.md, "Reductions"): ceil(vs / 64) for the dim's vector
 * shape vs, the lanes of a kernel without MMAs; 0: one chain. */
static int64_t lane_run(Run *r, const Op *op, DType t)
{
	if (op->kind != OP_SUM || (t != DT_F16 && t != DT_BF16) || has_mma(r->k->body))
		return 0;
	const Constraint *hw = kernel_hardware(r->k);
	for (int i = 0; hw && i < hw->nvector_shapes; i++) {
		int64_t vs;
		if (hw->vs_dims[i] == op->dim && sym_is_int(interp_subs(r->k, hw->vs_sizes[i]), &vs) && vs > 0)
			return vs / 64 + (vs % 64 != 0);
	}
	return 0;
}

/* The current wave's reduction of its sources over its window of the dim,
 * before init: several sources are first combined elementwise. */
static ITensor *partial_reduce(Run *r, const Op *op, ItFn fn)
{
	ItErr e;
	int nsrc = op_reduce_nsrc(op);
	ITensor *x = run_get(r, op->args[0]);
	for (int i = 1; i < nsrc; i++) {
		const ITensor *ops[2] = {x, run_get(r, op->args[i])};
		if (!(x = it_map(&r->arena, &e, x->dtype, fn, 2, ops))) {
			run_fail(r, op, "%s", e.msg);
			return NULL;
		}
	}
	int64_t run = lane_run(r, op, x->dtype);
	ITensor *y = run ? it_reduce_lanes(&r->arena, &e, fn, x, sym_name(op->dim), run)
			 : it_reduce(&r->arena, &e, fn, x, sym_name(op->dim), NULL);
	if (!y)
		run_fail(r, op, "%s", e.msg);
	return y;
}

/* Combine with init (if any) and store as the op's result. */
static int finish_reduce(Run *r, const Op *op, ItFn fn, ITensor *y)
{
	ItErr e;
	Value *init = op_reduce_init(op);
	if (init) {
		const ITensor *ops[2] = {y, run_get(r, init)};
		if (!(y = it_map(&r->arena, &e, y->dtype, fn, 2, ops)))
			return run_fail(r, op, "%s", e.msg);
	}
	return run_set(r, op, y);
}

static int exec_reduce(Run *r, const Op *op)
{
	ItFn fn = binary_fn(op->kind);
	ITensor *y = partial_reduce(r, op, fn);
	return y ? finish_reduce(r, op, fn, y) : -1;
}

/* A block reduction over a dim split across the waves of workgroup dim g:
 * each wave reduces its window, then every wave combines the partial
 * results of the waves that differ from it only along g, in wave order,
 * then init (Wave: local reduce, shuffles, LDS exchange, init). */
static int exec_block_reduce(Run *r, const Op *op, int g)
{
	ItErr e;
	ItFn fn = binary_fn(op->kind);
	int nw = r->nw;
	ITensor **part = ARENA_NEWN(&r->arena, ITensor *, (size_t)nw);
	int64_t (*wid)[MAX_WG_DIMS] = xcalloc((size_t)nw, sizeof *wid);
	int rc = 0;
	for (int w = 0; w < nw && rc == 0; w++) {
		select_wave(r, w);
		memcpy(wid[w], r->wid, sizeof wid[w]);
		if (!(part[w] = partial_reduce(r, op, fn)))
			rc = -1;
	}
	for (int w = 0; w < nw && rc == 0; w++) {
		ITensor *acc = NULL;
		for (int v = 0; v < nw && rc == 0; v++) {
			bool peer = true;
			for (int h = 0; h < r->ng; h++)
				peer &= h == g || wid[v][h] == wid[w][h];
			if (!peer)
				continue;
			if (!acc) {
				acc = part[v];
				continue;
			}
			const ITensor *ops[2] = {acc, part[v]};
			if (!(acc = it_map(&r->arena, &e, acc->dtype, fn, 2, ops)))
				rc = run_fail(r, op, "block reduction: %s", e.msg);
		}
		if (rc == 0) {
			select_wave(r, w);
			rc = finish_reduce(r, op, fn, acc);
		}
	}
	free(wid);
	return rc;
}

static int exec_apply_expr(Run *r, const Op *op)
{
	Value *res = op_result(op);
	ITensor *x = run_source(r, op, res->dtype, res->shape);
	if (!x)
		return -1;
	ITensor *regs[16];
	if (op->nargs > 16 || op->nparams != op->nargs)
		return run_fail(r, op, "apply_expr: %d registers for %d parameters", op->nargs, op->nparams);
	for (int i = 0; i < op->nargs; i++) {
		regs[i] = run_conform(r, op, run_get(r, op->args[i]), res->shape, op->args[i]->dtype);
		if (!regs[i])
			return -1;
	}
	int save = r->nenv;
	for (int64_t i = 0; i < x->count; i++) {
		r->nenv = save;
		for (int p = 0; p < op->nparams; p++)
			run_env_push(r, op->params[p], (int64_t)regs[p]->v[i]);
		int64_t v;
		if (run_eval_int(r, op, op->expr, &v) < 0) {
			r->nenv = save;
			return -1;
		}
		x->v[i] = it_round(res->dtype, (double)v);
	}
	r->nenv = save;
	r->val[res->id] = x;
	return 0;
}

static int exec_extract(Run *r, const Op *op)
{
	const ITensor *x = run_get(r, op->args[0]);
	ITensor *y = it_like(&r->arena, x, x->dtype);
	memcpy(y->v, x->v, sizeof(double) * (size_t)x->count);
	int n = op->kind == OP_EXTRACT ? 1 : op->nslice;
	if (n > x->rank)
		return run_fail(r, op, "slicing %d dims of a rank-%d value", n, x->rank);
	/* Slice the trailing n dims: each keeps [offset, offset + size). */
	int64_t off[IT_MAX_RANK], sz[IT_MAX_RANK];
	for (int j = 0; j < n; j++) {
		int d = x->rank - n + j;
		if (run_eval_int(r, op, op->offset[j], &off[d]) < 0)
			return -1;
		sz[d] = 1;
		if (op->kind == OP_EXTRACT_SLICE) {
			int64_t st;
			if (run_eval_int(r, op, op->size[j], &sz[d]) < 0 || run_eval_int(r, op, op->stride[j], &st) < 0)
				return -1;
			if (st != 1)
				return run_fail(r, op, "extract_slice with stride %lld is not supported", (long long)st);
		}
		if (off[d] < 0 || sz[d] < 0 || off[d] + sz[d] > x->ext[d])
			return run_fail(r, op, "slice [%lld, +%lld) outside dim %s of length %lld", (long long)off[d],
				(long long)sz[d], x->dim[d], (long long)x->ext[d]);
	}
	const char *dim[IT_MAX_RANK];
	int64_t start[IT_MAX_RANK], ext[IT_MAX_RANK];
	for (int d = 0; d < x->rank; d++) {
		dim[d] = x->dim[d];
		bool sliced = d >= x->rank - n;
		start[d] = x->start[d] + (sliced ? off[d] : 0);
		ext[d] = sliced ? sz[d] : x->ext[d];
	}
	y = it_new(&r->arena, x->dtype, x->rank, dim, start, ext);
	int64_t c[IT_MAX_RANK];
	for (int64_t i = 0; i < y->count; i++) {
		run_coords(y, i, c);
		y->v[i] = run_at(x, x->rank, x->dim, c);
	}
	return run_set(r, op, y);
}

static int exec_op(Run *r, Op *op)
{
	ItErr e;
	Value *res = op_result(op);
	switch (op->kind) {
	case OP_REGISTER: {
		ITensor *x = run_source(r, op, op->dtype, op->shape);
		if (!x)
			return -1;
		double v = it_round(op->dtype, op->value);
		for (int64_t i = 0; i < x->count; i++)
			x->v[i] = v;
		return run_set(r, op, x);
	}
	case OP_SCALAR: {
		ITensor *x = it_new(&r->arena, op->dtype, 0, NULL, NULL, NULL);
		x->v[0] = op->value;
		if (op->sarg) { /* a scalar argument: its value at launch */
			const InterpArg *a = &r->in->args[r->k->args.len + (size_t)op->sarg - 1];
			x->v[0] = dtype_load(a->dtype, a->data, 0);
		}
		if (op->expr) /* per thread when it names $T0 (threads.c) */
			return run_scalar_expr(r, op, &x) < 0 ? -1 : run_set(r, op, x);
		x->v[0] = it_round(op->dtype, x->v[0]);
		return run_set(r, op, x);
	}
	case OP_SELF_INDEX: {
		Shape s = {1, &op->dim};
		ITensor *x = run_source(r, op, op->dtype, s);
		if (!x)
			return -1;
		for (int64_t i = 0; i < x->count; i++)
			x->v[i] = it_round(op->dtype, (double)(x->start[0] + i));
		return run_set(r, op, x);
	}
	case OP_READ: return interp_exec_read(r, op);
	case OP_WRITE: return interp_exec_write(r, op);
	case OP_ATOMIC_ADD: case OP_ATOMIC_MIN: return interp_exec_atomic(r, op);
	case OP_SCATTER_ADD: return interp_exec_scatter_add(r, op);
	/* the waves run in lockstep: every op sees what the ops before it
	 * stored (the compiled kernel's barriers make it so) */
	case OP_SHARED_MEMORY_BARRIER: case OP_WORKGROUP_BARRIER: case OP_MEMORY_COUNTER_WAIT_BARRIER: return 0;
	/* scheduling hints: no effect on any value */
	case OP_MEMORY_COUNTER_WAIT: case OP_SET_WAVE_PRIO: case OP_SCHEDULING_BARRIER: case OP_SCHEDULING_GROUP_BARRIER:
		return 0;
	case OP_MMA: {
		ITensor *y = it_mma(&r->arena, &e, run_get(r, op->args[0]), run_get(r, op->args[1]), run_get(r, op->args[2]));
		if (!y)
			return run_fail(r, op, "%s", e.msg);
		return run_set(r, op, y);
	}
	case OP_SCALED_MMA: return interp_exec_scaled_mma(r, op);
	case OP_ITERATE: return exec_iterate(r, op);
	case OP_GET_RESULT: {
		const Value *v = op->args[0];
		if (v->kind == VAL_RESULT && (v->def->kind == OP_ITERATE || v->def->kind == OP_CONDITIONAL)) {
			if (op->res_idx < 0 || op->res_idx >= v->def->nresults)
				return run_fail(r, op, "result %d of %d", op->res_idx, v->def->nresults);
			v = v->def->results[op->res_idx];
		}
		return run_set(r, op, run_get(r, v));
	}
	case OP_OUTPUT: return 0; /* read by the enclosing iterate */
	case OP_SET_SYMBOL: return interp_exec_set_symbol(r, op);
	case OP_CUMSUM: return interp_exec_cumsum(r, op);
	case OP_BITCAST: return interp_exec_bitcast(r, op);
	case OP_TOPK: return interp_exec_topk(r, op);
	case OP_SELECT: {
		const ITensor *ops[3] = {run_get(r, op->args[0]), run_get(r, op->args[1]), run_get(r, op->args[2])};
		ITensor *y = it_map(&r->arena, &e, res->dtype, IT_SELECT, 3, ops);
		if (!y)
			return run_fail(r, op, "%s", e.msg);
		return run_set(r, op, y);
	}
	case OP_CAST: {
		const ITensor *ops[1] = {run_get(r, op->args[0])};
		bool fptosi = dtype_is_float(ops[0]->dtype) && !dtype_is_float(res->dtype) && res->dtype != DT_I1;
		ITensor *y = it_map(&r->arena, &e, res->dtype, fptosi ? IT_FPTOSI : IT_COPY, 1, ops);
		if (!y)
			return run_fail(r, op, "%s", e.msg);
		return run_set(r, op, y);
	}
	case OP_BROADCAST: return run_set(r, op, run_get(r, op->args[0]));
	case OP_PERMUTE: {
		const ITensor *x = run_get(r, op->args[0]);
		const char *dim[IT_MAX_RANK];
		if (op->shape.rank > IT_MAX_RANK)
			return run_fail(r, op, "rank too large");
		for (int i = 0; i < op->shape.rank; i++)
			dim[i] = sym_name(op->shape.dims[i]);
		ITensor *y = it_permute(&r->arena, &e, x, op->shape.rank, dim);
		if (!y)
			return run_fail(r, op, "%s", e.msg);
		return run_set(r, op, y);
	}
	case OP_SUM: case OP_MAX: case OP_MIN: return exec_reduce(r, op);
	case OP_APPLY_EXPR: return exec_apply_expr(r, op);
	case OP_EXTRACT: case OP_EXTRACT_SLICE: return exec_extract(r, op);
	default: break;
	}
	if (op_is_unary(op->kind) || op_is_binary(op->kind) || op_is_compare(op->kind)) {
		bool un = op_is_unary(op->kind);
		const ITensor *ops[2] = {run_get(r, op->args[0]), un ? NULL : run_get(r, op->args[1])};
		/* f64 keeps its denormals: the option is about f32 */
		bool flush = r->k->opts.f32_denorm_flush && res->dtype != DT_F64;
		ITensor *y = it_map(&r->arena, &e, res->dtype, un ? unary_fn(op->kind, flush) : binary_fn(op->kind),
			un ? 1 : 2, ops);
		if (!y)
			return run_fail(r, op, "%s", e.msg);
		return run_set(r, op, y);
	}
	return run_fail(r, op, "op %s is not supported by the interpreter", op_name(op->kind));
}

/* Make wave w (0..nw-1, last workgroup dim fastest) the current one. */
static void select_wave(Run *r, int w)
{
	r->val = r->vals + (size_t)w * (size_t)r->k->nvalues;
	for (int g = r->ng - 1; g >= 0; g--) {
		r->wid[g] = w % r->gwaves[g];
		w /= (int)r->gwaves[g];
	}
}

/* The waves of a workgroup run in lockstep, one op at a time for all of
 * them, so that a block reduction can combine what every wave computed. */
static int exec_region(Run *r, Region *g)
{
	for (size_t i = 0; i < g->ops.len; i++) {
		Op *op = g->ops.data[i];
		if (op->kind == OP_ITERATE) {
			if (exec_iterate(r, op) < 0)
				return -1;
			continue;
		}
		if (op->kind == OP_ALLOCATE) { /* one buffer for all the waves (local.c) */
			if (interp_local_alloc(r, op) < 0)
				return -1;
			continue;
		}
		if (op->kind == OP_CUMSUM && op->block) {
			IDim *d = run_dim(r, op->dim);
			if (!d)
				return -1;
			if (d->g >= 0 && d->wave_tile && r->gwaves[d->g] > 1) {
				if (interp_exec_block_cumsum(r, op, d->g, select_wave) < 0)
					return -1;
				continue;
			}
		}
		if (op->kind == OP_CONDITIONAL) {
			if (interp_exec_conditional(r, op, exec_region, select_wave) < 0)
				return -1;
			continue;
		}
		if (op_is_reduce(op->kind) && op->block) {
			IDim *d = run_dim(r, op->dim);
			if (!d)
				return -1;
			if (d->g >= 0 && d->wave_tile && r->gwaves[d->g] > 1) {
				if (exec_block_reduce(r, op, d->g) < 0)
					return -1;
				continue;
			}
		}
		for (int w = 0; w < r->nw; w++) {
			select_wave(r, w);
			if (exec_op(r, op) < 0)
				return -1;
		}
	}
	return 0;
}

/* ---- the launch ---- */

/* A grid constraint: grid_size workgroups along dim 0, each starting every
 * workgroup-distributed dim at 0 (r->fixed_grid; the kernel places its
 * tiles itself from $WG0). */
static int setup_fixed_grid(Run *r)
{
	for (size_t i = 0; i < r->k->cons.len; i++) {
		const Constraint *c = &r->k->cons.data[i];
		if (c->kind != CON_GRID || !c->expr)
			continue;
		int64_t n;
		if (run_eval_con(r, c, c->expr, &n) < 0)
			return -1;
		if (n < 1)
			return run_fail_con(r, c, "a grid of %lld workgroups", (long long)n);
		for (int g = 0; g < MAX_WG_DIMS; g++)
			r->gcount[g] = g ? 1 : n;
		r->ng = MAX(r->ng, 1);
		r->fixed_grid = true;
	}
	return 0;
}

static int setup_grid(Run *r)
{
	Kernel *k = r->k;
	r->ng = 0;
	for (int g = 0; g < MAX_WG_DIMS; g++) {
		r->gcount[g] = 1;
		r->gwaves[g] = 1;
	}
	for (size_t i = 0; i < k->cons.len; i++) {
		const Constraint *c = &k->cons.data[i];
		if (c->kind != CON_WORKGROUP)
			continue;
		if (c->wg_dim < 0 || c->wg_dim >= MAX_WG_DIMS)
			return run_fail(r, NULL, "workgroup dim %d out of range", c->wg_dim);
		IDim *x = run_dim(r, c->dim);
		if (!x)
			return -1;
		r->ng = MAX(r->ng, c->wg_dim + 1);
		/* the waves along a workgroup dim: the most any of its dims has
		 * (a non-primary one may have more than its primary, whose one
		 * window every wave then holds: paged decode's B and BH) */
		if (x->wave_tile > 0) {
			int64_t w = ceil_div(x->wg_tile, x->wave_tile);
			if (w > 1024) /* a workgroup has at most 1024 work-items */
				return run_fail_con(r, c, "%s: workgroup tile %lld over wave tile %lld is %lld waves: at most 1024 "
							  "per workgroup",
					x->name, (long long)x->wg_tile, (long long)x->wave_tile, (long long)w);
			r->gwaves[c->wg_dim] = MAX(r->gwaves[c->wg_dim], w);
		}
		if (!c->primary)
			continue;
		int64_t count;
		if (c->iters) {
			if (run_eval_con(r, c, c->iters, &count) < 0)
				return -1;
		} else {
			if (x->size < 0)
				return run_fail_con(r, c, "%s has no integer size", x->name);
			count = ceil_div(x->size, x->wg_tile);
		}
		r->gcount[c->wg_dim] = count;
	}
	return setup_fixed_grid(r);
}

/* The workgroup ids an expression may name (a tiling constraint's start
 * or iters): $WG0 and $WG1, and $WG2 the hardware's id along grid dim 2,
 * into which workgroup dims 2 and up fold (Wave's delinearization: dim 2
 * the slowest digit). */
static void bind_workgroup_ids(Run *r)
{
	char name[16]; /* room for any int */
	int64_t lin = 0;
	for (int g = 0; g < MAX(r->ng, 3); g++) {
		if (g >= 2) {
			lin = lin * r->gcount[g] + r->gid[g];
			if (g + 1 < r->ng)
				continue;
		}
		snprintf(name, sizeof name, "$WG%d", g < 2 ? g : 2);
		run_env_push(r, sym_symbol(r->k->sc, name), g < 2 ? r->gid[g] : lin);
		if (g >= 2)
			break;
	}
}

/* Odometer over n counters; false after the last combination. */
static bool next(int n, const int64_t *count, int64_t *idx)
{
	for (int i = n - 1; i >= 0; i--) {
		if (++idx[i] < count[i])
			return true;
		idx[i] = 0;
	}
	return false;
}

/* One workgroup of a co-resident kernel (conc.c), on its own run. */
static int exec_workgroup(Run *r)
{
	bind_workgroup_ids(r);
	return exec_region(r, r->in->k->body);
}

int interp_run(Interp *in)
{
	die_test_point("interp");
	Run r = {0};
	r.in = in;
	r.k = in->k;
	arena_init(&r.arena);
	for (size_t i = 0; i < in->k->dyn_syms.len; i++)
		run_env_push(&r, in->k->dyn_syms.data[i], in->dyn[i]);
	int rc = setup_grid(&r);
	/* waves per workgroup: the hardware has at most 1024 work-items, so
	 * more than 1024 waves is a mistake in the constraints, reported
	 * before anything is allocated per wave */
	int64_t nw = 1;
	for (int g = 0; g < r.ng && rc == 0; g++) {
		if (r.gwaves[g] > 1024 || (nw *= r.gwaves[g]) > 1024)
			rc = run_fail(&r, NULL, "more than 1024 waves per workgroup (the product over workgroup dims of "
						"workgroup tile / wave tile)");
	}
	r.nw = rc == 0 ? (int)nw : 1;
	size_t nvals = (size_t)r.nw * (size_t)in->k->nvalues + 1;
	r.vals = xcalloc(nvals, sizeof(ITensor *));
	r.read_memo = xcalloc((size_t)in->k->nvalues + 1, sizeof(ITensor *));
	r.local = xcalloc((size_t)in->k->nops + 1, sizeof(InterpArg *));
	r.val = r.vals;
	for (int g = 0; g < r.ng && rc == 0; g++)
		if (r.gcount[g] == 0)
			goto done; /* an empty grid does nothing */
	if (rc == 0 && in->k->co_resident) {
		/* every workgroup at once (conc.c): a spin-wait waits on others */
		int64_t n = 1;
		for (int g = 0; g < r.ng; g++)
			n *= r.gcount[g];
		if (n > 65536) {
			rc = run_fail(&r, NULL, "a co-resident kernel (a spin-wait) over %lld workgroups: the interpreter runs "
						"at most 65536 at once", (long long)n);
			goto done;
		}
		int64_t (*gids)[MAX_WG_DIMS] = xcalloc((size_t)n + 1, sizeof *gids);
		memset(r.gid, 0, sizeof r.gid);
		for (int64_t i = 0; i < n; i++) {
			memcpy(gids[i], r.gid, sizeof r.gid);
			next(r.ng, r.gcount, r.gid);
		}
		rc = run_concurrent(&r, (const int64_t(*)[MAX_WG_DIMS])gids, n, exec_workgroup);
		free(gids);
	} else if (rc == 0) {
		memset(r.gid, 0, sizeof r.gid);
		/* Each workgroup's values are dropped at its end (arena_reset
		 * to a mark). Marking inside a block with room lets every
		 * workgroup reuse that room instead of allocating fresh blocks
		 * whose pages the system zeroes again each time (a third of a
		 * large GEMM's run): the arena doubles its blocks up to 1 MiB,
		 * so after a 512 KiB block the next one has 1 MiB. */
		arena_alloc(&r.arena, (size_t)1 << 19);
		arena_alloc(&r.arena, 16);
		int nenv = r.nenv;
		do {
			ArenaMark mk = arena_mark(&r.arena);
			r.nenv = nenv;
			bind_workgroup_ids(&r);
			rc = exec_region(&r, in->k->body);
			arena_reset(&r.arena, mk);
			r.live = 0;
			r.nset = 0;
			memset(r.vals, 0, sizeof(ITensor *) * nvals);
			memset(r.read_memo, 0, sizeof(ITensor *) * ((size_t)in->k->nvalues + 1));
			memset(r.local, 0, sizeof(InterpArg *) * ((size_t)in->k->nops + 1));
		} while (rc == 0 && next(r.ng, r.gcount, r.gid));
	}
done:
	arena_free(&r.arena);
	free(r.vals);
	free(r.read_memo);
	free(r.local);
	vec_free(&r.cache_from);
	vec_free(&r.cache_to);
	return rc;
}
