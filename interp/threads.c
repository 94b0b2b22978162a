/* threads.c — values that depend on the thread: a `scalar` whose
 * expression names the thread ids (Wave's `tkw.scalar(THREAD_0 * 4, i32)`).
 *
 * Rule (docs/interpreter.md, "Thread-dependent scalars"): the threads of a
 * workgroup are Wave's: along workgroup dim 0 there are threads_per_wave
 * lanes per wave, so $T0 = wave index along dim 0 * threads_per_wave +
 * lane; along workgroup dims 1 and 2 a wave is one thread, so $T1 and $T2
 * are the wave's index along them. The scalar is evaluated once per lane
 * of the current wave and held over a pseudo-dim named "$T0" (window
 * [wave * threads_per_wave, +threads_per_wave)), which elementwise ops
 * carry like any dim. When such a value is conformed to a type with dims,
 * each element takes the value of the thread that holds it: the dim D0
 * distributed over workgroup dim 0 must be among them; with E = Wave's
 * default elements_per_thread of a read or write (max(ceiling(workgroup
 * tile / threads along workgroup dim 0), 1)), the lane of coordinate x in
 * the wave's window [ws, ...) is ((x - ws) mod (threads_per_wave E)) / E: each
 * lane holds E consecutive elements of every threads_per_wave E run, as the compiler's index
 * analysis places reads and writes (passes/graph/indices.c) and Wave
 * spreads them. Anything else is a located error, never a guess. */
#include <string.h>

#include "../ir/graph.h"
#include "interp.h"
#include "run.h"

static const char *tdim(void) { return intern("$T0"); }

static bool names(const Sym *e, const char *name)
{
	if (sym_kind(e) == SYM_SYMBOL)
		return sym_name(e) == name;
	for (int i = 0; i < sym_nargs(e); i++)
		if (names(sym_arg(e, i), name))
			return true;
	return false;
}

bool run_has_thread_dim(const ITensor *x) { return it_find(x, tdim()) >= 0; }

static int threads_per_wave(Run *r)
{
	const Constraint *hw = kernel_hardware(r->k);
	return hw && hw->threads_per_wave > 0 ? hw->threads_per_wave : 64;
}

int run_scalar_expr(Run *r, const Op *op, ITensor **out)
{
	int save = r->nenv;
	run_env_push(r, sym_symbol(r->k->sc, "$T1"), r->ng > 1 ? r->wid[1] : 0);
	run_env_push(r, sym_symbol(r->k->sc, "$T2"), r->ng > 2 ? r->wid[2] : 0);
	int64_t v;
	if (!names(interp_subs(r->k, op->expr), tdim())) {
		int rc = run_eval_int(r, op, op->expr, &v);
		r->nenv = save;
		if (rc < 0)
			return -1;
		*out = it_new(&r->arena, op->dtype, 0, NULL, NULL, NULL);
		(*out)->v[0] = (double)v;
		return 0;
	}
	int tpw = threads_per_wave(r);
	const char *dim[1] = {tdim()};
	int64_t start[1] = {(r->ng > 0 ? r->wid[0] : 0) * tpw}, ext[1] = {tpw};
	ITensor *x = it_new(&r->arena, op->dtype, 1, dim, start, ext);
	Sym *t0 = sym_symbol(r->k->sc, "$T0");
	for (int64_t l = 0; l < tpw; l++) {
		r->nenv = save + 2;
		run_env_push(r, t0, start[0] + l);
		if (run_eval_int(r, op, op->expr, &v) < 0) {
			r->nenv = save;
			return -1;
		}
		x->v[l] = (double)v;
	}
	r->nenv = save;
	*out = x;
	return 0;
}

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
		if (o->kind == OP_MMA || op_is_reduce(o->kind))
			why = "its threads hold values in the layout of";
		else if ((o->kind == OP_READ || o->kind == OP_WRITE || o->kind == OP_ATOMIC_ADD) && o->ept && o->ept != e)
			why = "elements_per_thread differs from the default in";
		if (why) {
			run_fail(r, op, "a value that depends on $T0 is not defined in this kernel: %s %s (%s)", why,
				o->name, op_name(o->kind));
			return 0;
		}
	}
	return e;
}

ITensor *run_conform_threads(Run *r, const Op *op, const ITensor *x, Shape shape, DType t)
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
	int tpw = threads_per_wave(r);
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
