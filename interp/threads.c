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
 * spreads them (run.c's run_conform places such values). Anything else is a
 * located error, never a guess. */
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
	int tpw = run_threads_per_wave(r);
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
