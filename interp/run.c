/* run.c — the interpreter's run state (run.h) and what every executing
 * file asks of it: located failures, symbol values and the evaluation of
 * index expressions under the current bindings, each dim's window in the
 * current context (workgroup, wave, loop trip; see exec.c for the model),
 * the sources that take those windows, the conforming of a result to the
 * type the frontend inferred, and the values of the current wave. exec.c
 * (the graph walker) and memory.c (reads and writes) call these; nothing
 * here calls back into them. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/graph.h"
#include "interp.h"
#include "run.h"

int run_fail_con(Run *r, const Constraint *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_error(r->in->diag, c->loc, "%s: interp: %s", c->path ? c->path : "constraints", msg);
	return -1;
}

int run_fail(Run *r, const Op *op, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (op)
		diag_error(r->in->diag, op->loc, "%s: interp: %s", op->path, msg);
	else
		diag_error(r->in->diag, (Loc){r->k->file, 0, 0}, "interp: %s", msg);
	return -1;
}

/* ---- expressions ---- */

static Sym *subs(Run *r, Sym *e)
{
	for (size_t i = 0; i < r->cache_from.len; i++)
		if (r->cache_from.data[i] == e)
			return r->cache_to.data[i];
	Sym *s = interp_subs(r->k, e);
	vec_push(&r->cache_from, e);
	vec_push(&r->cache_to, s);
	return s;
}

void run_env_push(Run *r, Sym *s, int64_t v)
{
	check_that(r->nenv < MAX_ENV);
	r->env_sym[r->nenv] = s;
	r->env_val[r->nenv++] = v;
}

/* e with each symbol a set_symbol has set as a loop bound (control.c,
 * set_loop_bound) replaced by its set value. */
Sym *run_loop_expr(Run *r, Sym *e)
{
	for (int i = 0; i < r->nset; i++)
		if (r->set[i].bound && sym_mentions(e, r->set[i].sym)) {
			Sym *v = sym_int(r->k->sc, r->set[i].size);
			e = sym_subs(r->k->sc, e, 1, &r->set[i].sym, &v);
		}
	return e;
}

/* Evaluate e (after substituting symbol values) to an integer under the
 * current bindings. A symbol a set_symbol has set as a loop bound has its
 * set value here (run_loop_expr): in the loops that follow and in every
 * other expression evaluated after it (apply_expr, a conditional's
 * condition), as Wave's emitter uses the set value of a dynamic symbol
 * from the set_symbol on. */
int run_eval_int(Run *r, const Op *op, Sym *e, int64_t *out)
{
	SymRat v;
	const char *msg = NULL;
	Sym *s = subs(r, run_loop_expr(r, e));
	if (sym_eval(r->k->sc, s, r->nenv, r->env_sym, r->env_val, &v, &msg) < 0)
		return run_fail(r, op, "cannot evaluate '%s': %s", sym_str(r->k->sc, e), msg ? msg : "error");
	if (v.q != 1)
		return run_fail(r, op, "'%s' is %lld/%lld, not an integer", sym_str(r->k->sc, e), (long long)v.p,
			(long long)v.q);
	*out = v.p;
	return 0;
}

/* run_eval_int for an expression of constraint c: errors are located at
 * the constraint, and name the symbol definition the value came from. */
int run_eval_con(Run *r, const Constraint *c, Sym *e, int64_t *out)
{
	SymRat v;
	const char *msg = NULL;
	Sym *s = subs(r, e);
	const char *what = sym_str(r->k->sc, e);
	char where[256] = "";
	for (size_t i = 0; i < r->k->syms.len; i++) {
		const KSymbol *ks = &r->k->syms.data[i];
		if (ks->sym == e && ks->loc.line > 0)
			snprintf(where, sizeof where, " (symbols.%s at line %d, column %d)", ks->name, ks->loc.line,
				ks->loc.col);
	}
	if (sym_eval(r->k->sc, s, r->nenv, r->env_sym, r->env_val, &v, &msg) < 0)
		return run_fail_con(r, c, "cannot evaluate '%s'%s: %s", what, where, msg ? msg : "error");
	if (v.q != 1)
		return run_fail_con(r, c, "'%s'%s is %lld/%lld, not an integer", what, where, (long long)v.p, (long long)v.q);
	*out = v.p;
	return 0;
}

/* ---- dims and windows ---- */

int run_wg_start(Run *r, const IDim *x, int64_t *start)
{
	if (r->fixed_grid) {
		*start = 0;
		return 0;
	}
	if (!x->wgc || !x->wgc->expr) {
		*start = r->gid[x->g] * x->wg_tile;
		return 0;
	}
	char name[16];
	snprintf(name, sizeof name, "$WG%d", x->wgc->wg_dim);
	Sym *id = sym_symbol(r->k->sc, name), *v = sym_int(r->k->sc, r->gid[x->g]);
	return run_eval_con(r, x->wgc, sym_subs(r->k->sc, x->wgc->expr, 1, &id, &v), start);
}

static int dim_setup(Run *r, IDim *x)
{
	Kernel *k = r->k;
	x->g = -1;
	x->size = -1;
	SymRat q;
	const char *msg;
	Sym *sz = subs(r, x->sym);
	if (sym_eval(k->sc, sz, r->nenv, r->env_sym, r->env_val, &q, &msg) == 0 && q.q == 1 && q.p >= 0)
		x->size = q.p;
	const Constraint *wg = kernel_constraint(k, CON_WORKGROUP, x->sym);
	const Constraint *wv = kernel_constraint(k, CON_WAVE, x->sym);
	const Constraint *tl = kernel_constraint(k, CON_TILING, x->sym);
	if (wg) {
		x->g = wg->wg_dim;
		x->wgc = wg;
		if (run_eval_con(r, wg, wg->tile, &x->wg_tile) < 0)
			return -1;
		if (x->wg_tile <= 0)
			return run_fail_con(r, wg, "tile of %s is %lld", x->name, (long long)x->wg_tile);
		if (wv && run_eval_con(r, wv, wv->tile, &x->wave_tile) < 0)
			return -1;
		if (wv && x->wave_tile <= 0)
			return run_fail_con(r, wv, "tile of %s is %lld", x->name, (long long)x->wave_tile);
		x->unbounded = !wg->primary && x->size >= 0 && x->size % x->wg_tile == 0;
	}
	if (tl) {
		x->tiling = tl;
		if (run_eval_con(r, tl, tl->tile, &x->ttile) < 0)
			return -1;
		if (x->ttile <= 0)
			return run_fail_con(r, tl, "tile of %s is %lld", x->name, (long long)x->ttile);
		x->tstart = 0; /* evaluated by each iterate (exec.c) */
	}
	if (wg || tl)
		return 0;
	/* A symbolic alias source takes its target's distribution, each tile
	 * mapped through the alias expression (Wave's SymbolicAlias). */
	for (size_t i = 0; i < k->cons.len; i++) {
		const Constraint *c = &k->cons.data[i];
		if (c->kind != CON_SYMBOLIC_ALIAS || c->source != x->sym)
			continue;
		IDim *t = run_dim(r, c->target);
		if (!t)
			return -1;
		x->alias = t;
		x->alias_con = c;
		Sym *tgt = c->target;
		Sym *tiles[2] = {sym_int(k->sc, t->wg_tile), sym_int(k->sc, t->wave_tile)};
		x->g = t->g;
		for (int j = 0; j < 2 && t->g >= 0; j++) {
			if (j == 1 && !t->wave_tile)
				break;
			Sym *e = sym_subs(k->sc, c->expr, 1, &tgt, &tiles[j]);
			int64_t *t = j ? &x->wave_tile : &x->wg_tile;
			if (run_eval_con(r, c, e, t) < 0)
				return -1;
			if (*t <= 0)
				return run_fail_con(r, c, "alias tile of %s is %lld", x->name, (long long)*t);
		}
		break;
	}
	return 0;
}

IDim *run_dim(Run *r, Sym *d)
{
	for (int i = 0; i < r->ndims; i++)
		if (r->dims[i].sym == d)
			return &r->dims[i];
	IDim x = {0};
	x.sym = d;
	x.name = sym_name(d);
	if (dim_setup(r, &x) < 0)
		return NULL;
	if (r->ndims == MAX_DIMS) {
		run_fail(r, NULL, "more than %d dims", MAX_DIMS);
		return NULL;
	}
	r->dims[r->ndims] = x;
	return &r->dims[r->ndims++];
}

bool run_dim_is_set(const Run *r, const Sym *d)
{
	for (int i = 0; i < r->nset; i++)
		if (r->set[i].sym == d && !r->set[i].extent)
			return true;
	return false;
}

int64_t run_dim_size(const Run *r, const IDim *x)
{
	for (int i = r->nset; i-- > 0;)
		if (r->set[i].sym == x->sym && r->set[i].extent)
			return r->set[i].size;
	return x->size;
}

/* The context window of dim d. */
int run_window(Run *r, const Op *op, Sym *d, int64_t *start, int64_t *ext)
{
	IDim *x = run_dim(r, d);
	if (!x)
		return -1;
	if (run_dim_is_set(r, d)) { /* a set symbol is a value now (control.c) */
		*start = 0;
		*ext = 1;
		return 0;
	}
	if (x->alias && x->alias->in_loop) {
		/* the target's loop window through the alias expression (K/2
		 * of a packed K: half the start, half the tile) */
		const IDim *t = x->alias;
		const Constraint *c = x->alias_con;
		Sym *tg = c->target, *at[2] = {sym_int(r->k->sc, t->tstart + t->iv * t->ttile),
						   sym_int(r->k->sc, t->tstart + (t->iv + 1) * t->ttile)};
		int64_t end;
		if (run_eval_con(r, c, sym_subs(r->k->sc, c->expr, 1, &tg, &at[0]), start) < 0 ||
			run_eval_con(r, c, sym_subs(r->k->sc, c->expr, 1, &tg, &at[1]), &end) < 0)
			return -1;
		*ext = end - *start;
		return 0;
	}
	if (x->in_loop) {
		*start = x->tstart + x->iv * x->ttile;
		*ext = x->ttile;
		return 0;
	}
	if (x->g >= 0) {
		if (run_wg_start(r, x, start) < 0)
			return -1;
		*ext = x->wg_tile;
		if (x->wave_tile) {
			*start += r->wid[x->g] * x->wave_tile;
			*ext = MIN(x->wave_tile, x->wg_tile - r->wid[x->g] * x->wave_tile);
			if (*ext < 0)
				*ext = 0;
		}
		return 0;
	}
	/* the launch extent: a set extent bounds coordinates, windows stay */
	if (x->size < 0)
		return run_fail(r, op, "dim %s has no integer size", x->name);
	*start = 0;
	*ext = x->size;
	return 0;
}

static bool too_big(Run *r, const Op *op, int n, const int64_t *ext)
{
	int64_t c = 1;
	for (int i = 0; i < n; i++) {
		if (ext[i] > MAX_ELEMS || (c *= ext[i]) > MAX_ELEMS) {
			run_fail(r, op, "a value of more than %lld elements", (long long)MAX_ELEMS);
			return true;
		}
	}
	if ((r->live += c) > MAX_LIVE_ELEMS) {
		run_fail(r, op, "the values of one workgroup hold more than %lld elements (%lld MiB): tiles far larger "
				"than the tensors?",
			(long long)MAX_LIVE_ELEMS, (long long)(MAX_LIVE_ELEMS * 8 >> 20));
		return true;
	}
	return false;
}

/* A zeroed tensor over `shape` with the context windows. */
ITensor *run_source(Run *r, const Op *op, DType t, Shape shape)
{
	const char *dim[IT_MAX_RANK];
	int64_t start[IT_MAX_RANK], ext[IT_MAX_RANK];
	if (shape.rank > IT_MAX_RANK) {
		run_fail(r, op, "rank %d exceeds %d", shape.rank, IT_MAX_RANK);
		return NULL;
	}
	for (int i = 0; i < shape.rank; i++) {
		dim[i] = sym_name(shape.dims[i]);
		if (run_window(r, op, shape.dims[i], &start[i], &ext[i]) < 0)
			return NULL;
	}
	if (too_big(r, op, shape.rank, ext))
		return NULL;
	return it_new(&r->arena, t, shape.rank, dim, start, ext);
}

/* Does x already have exactly these dims, in this order, over these
 * windows? Then conforming it would only copy it. */
static bool same_layout(const ITensor *x, int n, const char *const *dim, const int64_t *start, const int64_t *ext)
{
	if (x->rank != n)
		return false;
	for (int i = 0; i < n; i++)
		if (x->dim[i] != dim[i] || x->start[i] != start[i] || x->ext[i] != ext[i])
			return false;
	return true;
}

/* Global coordinates of element i of x. */
void run_coords(const ITensor *x, int64_t i, int64_t *c)
{
	for (int d = x->rank - 1; d >= 0; d--) {
		int64_t e = x->ext[d];
		c[d] = x->start[d] + (e ? i % e : 0);
		i = e ? i / e : 0;
	}
}

/* Value of x at the coordinates `c` of the dims `dim` (a tensor of fewer
 * dims reads its own; a missing or length-1 dim reads its only position). */
double run_at(const ITensor *x, int n, const char *const *dim, const int64_t *c)
{
	int64_t off = 0;
	for (int i = 0; i < x->rank; i++) {
		int64_t p = 0;
		for (int j = 0; j < n; j++)
			if (dim[j] == x->dim[i] && x->ext[i] != 1)
				p = c[j] - x->start[i];
		if (p < 0 || p >= x->ext[i])
			p = 0;
		off = off * x->ext[i] + p;
	}
	return x->v[off];
}

/* ---- thread-dependent values (threads.c's scalars) conformed to a type:
 * each element takes its thread's value ---- */

static const char *tdim(void) { return intern("$T0"); }

int run_threads_per_wave(Run *r)
{
	const Constraint *hw = kernel_hardware(r->k);
	return hw && hw->threads_per_wave > 0 ? hw->threads_per_wave : 64;
}

static bool has_thread_dim(const ITensor *x) { return it_find(x, tdim()) >= 0; }

/* The dim of `shape` distributed over workgroup dim 0, or NULL. */
static Sym *dim0_of(Run *r, Shape shape)
{
	for (int i = 0; i < shape.rank; i++) {
		IDim *x = run_dim(r, shape.dims[i]);
		if (x && x->g == 0)
			return shape.dims[i];
	}
	return NULL;
}

/* Elements per lane along D0 (the dim on workgroup dim 0): Wave's default
 * elements_per_thread for reads and writes, max(ceiling(workgroup tile /
 * threads along workgroup dim 0), 1); 0 after reporting a kernel whose
 * threads hold D0 otherwise (an mma's or a reduction's layout, or an
 * explicit elements_per_thread that differs). */
static int64_t lane_elements(Run *r, const Op *op, IDim *x, int tpw)
{
	int64_t waves = x->wave_tile > 0 ? ceil_div(x->wg_tile, x->wave_tile) : 1;
	int64_t e = MAX(ceil_div(x->wg_tile, tpw * waves), 1);
	for (size_t i = 0; i < r->k->op_list.len; i++) {
		const Op *o = r->k->op_list.data[i];
		const char *why = NULL;
		if (o->kind == OP_MMA || o->kind == OP_SCALED_MMA || op_is_reduce(o->kind))
			why = "its threads hold values in the layout of";
		else if ((o->kind == OP_READ || op_stores(o->kind)) && o->ept && o->ept != e)
			why = "elements_per_thread differs from the default in";
		if (why) {
			run_fail(r, op, "a value that depends on $T0 is not defined in this kernel: %s %s (%s)", why,
				o->name, op_name(o->kind));
			return 0;
		}
	}
	return e;
}

static ITensor *conform_threads(Run *r, const Op *op, const ITensor *x, Shape shape, DType t)
{
	int td = it_find(x, tdim());
	if (shape.rank == 0) { /* still a per-thread scalar */
		for (int i = 0; i < x->rank; i++)
			if (i != td && x->ext[i] != 1) {
				run_fail(r, op, "a per-thread value over %s where a scalar is expected", x->dim[i]);
				return NULL;
			}
		ITensor *y = it_like(&r->arena, x, t);
		for (int64_t i = 0; i < x->count; i++)
			y->v[i] = it_round(t, x->v[i]);
		return y;
	}
	Sym *d0 = dim0_of(r, shape);
	if (!d0) {
		run_fail(r, op, "a value that depends on $T0 is used over dims none of which is distributed over workgroup "
				"dim 0, so which thread holds an element is not defined");
		return NULL;
	}
	int tpw = run_threads_per_wave(r);
	int64_t ws, we;
	IDim *x0 = run_dim(r, d0);
	int64_t e = x0 ? lane_elements(r, op, x0, tpw) : 0;
	if (e == 0 || run_window(r, op, d0, &ws, &we) < 0)
		return NULL;
	/* x without its thread dim decides the other dims' windows */
	ITensor *base = run_source(r, op, t, shape);
	if (!base)
		return NULL;
	for (int i = 0; i < shape.rank; i++) {
		int j = it_find(x, sym_name(shape.dims[i]));
		if (j >= 0 && x->ext[j] != 1) {
			base->start[i] = x->start[j];
			base->ext[i] = x->ext[j];
		}
	}
	ITensor *y = it_new(&r->arena, t, base->rank, base->dim, base->start, base->ext);
	const char *dim[IT_MAX_RANK + 1];
	int64_t c[IT_MAX_RANK + 1];
	int n = y->rank, p0 = it_find(y, sym_name(d0));
	memcpy(dim, y->dim, sizeof(const char *) * (size_t)n);
	dim[n] = tdim();
	for (int64_t i = 0; i < y->count; i++) {
		run_coords(y, i, c);
		int64_t lane = ((c[p0] - ws) % (e * tpw) + e * tpw) % (e * tpw) / e;
		c[n] = x->start[td] + lane;
		y->v[i] = it_round(t, run_at(x, n + 1, dim, c));
	}
	return y;
}

/* x reshaped to `shape`: its own windows for dims it has, the context
 * windows for the others (broadcast); its extra dims must have length 1. */
ITensor *run_conform(Run *r, const Op *op, const ITensor *x, Shape shape, DType t)
{
	const char *dim[IT_MAX_RANK];
	int64_t start[IT_MAX_RANK], ext[IT_MAX_RANK];
	ItErr e;
	if (shape.rank > IT_MAX_RANK) {
		run_fail(r, op, "rank %d exceeds %d", shape.rank, IT_MAX_RANK);
		return NULL;
	}
	if (has_thread_dim(x))
		return conform_threads(r, op, x, shape, t);
	for (int i = 0; i < shape.rank; i++) {
		dim[i] = sym_name(shape.dims[i]);
		int j = it_find(x, dim[i]);
		if (j >= 0 && x->ext[j] != 1) {
			start[i] = x->start[j];
			ext[i] = x->ext[j];
		} else if (run_window(r, op, shape.dims[i], &start[i], &ext[i]) < 0) {
			return NULL;
		} else if (j >= 0 && ext[i] == 1) {
			start[i] = x->start[j];
		}
	}
	if (too_big(r, op, shape.rank, ext))
		return NULL;
	if (same_layout(x, shape.rank, dim, start, ext) && x->dtype == t)
		return (ITensor *)x; /* values are never modified once made: share it */
	ITensor *y = it_expand(&r->arena, &e, x, shape.rank, dim, start, ext);
	if (!y) {
		run_fail(r, op, "%s", e.msg);
		return NULL;
	}
	if (y->dtype != t) {
		for (int64_t i = 0; i < y->count; i++)
			y->v[i] = it_round(t, y->v[i]);
		y->dtype = t;
	}
	return y;
}

/* ---- ops ---- */

ITensor *run_get(Run *r, const Value *v)
{
	ITensor *x = r->val[v->id];
	check_that(x != NULL);
	return x;
}

int run_set(Run *r, const Op *op, ITensor *x)
{
	if (!x)
		return -1;
	Value *v = op_result(op);
	ITensor *y = run_conform(r, op, x, v->shape, v->dtype);
	if (!y)
		return -1;
	r->val[v->id] = y;
	return 0;
}
