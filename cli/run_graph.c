/* run_graph.c — `wavecc run K.json`: compile a kernel graph, run the code
 * object on a backend, run the reference interpreter on the same inputs, and
 * compare every buffer the kernel may write — all in memory.
 *
 * The compiler's code object and launch descriptor stay in memory
 * (driver/pipeline.c). Dynamic symbols are compiled as kernel arguments
 * and their -D values given at launch, so every size runs the one code
 * object `wavecc compile` would write without them (other -D values
 * specialise, as in compile). Inputs are the interpreter's seeded random values
 * (docs/interpreter.md) or the --in files; the kernel's buffers are copies
 * of the interpreter's inputs taken before it runs, so both sides see
 * identical bytes. The interpreter runs the kernel as written, with the same
 * -D bindings the compiler applies (defines.c). Integer results must match
 * exactly; floats within |got - want| <= atol + rtol*|want| (defaults by
 * dtype, see default_tol). --out files are the kernel's buffers after the
 * run, written all or nothing. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../frontend/frontend.h"
#include "../interp/interp.h"
#include "../loader/runtime/launch.h"
#include "../driver/driver.h"
#include "../util/npy.h"
#include "../util/dtype.h"
#include "cli.h"

/* Tolerances for one f32-accumulated result rounded to the output type. */
static void default_tol(DType t, double *atol, double *rtol)
{
	switch (t) {
	case DT_F16: *atol = 1e-3; *rtol = 2e-3; break;
	case DT_BF16: *atol = 1e-2; *rtol = 1.6e-2; break;
	case DT_F32: *atol = 1e-5; *rtol = 1e-5; break;
	case DT_F64: *atol = 1e-12; *rtol = 1e-12; break;
	default: *atol = 0; *rtol = 0; break;
	}
}

typedef struct {
	uint64_t bad;
	double max_abs, max_rel;
	uint64_t first_bad;
} Cmp;

static Cmp compare(DType t, const void *got, const void *want, uint64_t n, double atol, double rtol)
{
	Cmp c = {0, 0, 0, 0};
	for (uint64_t i = 0; i < n; i++) {
		double g = dtype_load(t, got, i), w = dtype_load(t, want, i);
		bool ok;
		double ab = fabs(g - w);
		if (isnan(w) || isnan(g)) {
			ok = isnan(w) && isnan(g);
			ab = ok ? 0 : INFINITY;
		} else if (isinf(w) || isinf(g)) {
			ok = g == w;
			ab = ok ? 0 : INFINITY;
		} else {
			ok = ab <= atol + rtol * fabs(w);
		}
		double rel = w != 0 ? ab / fabs(w) : (ab != 0 ? INFINITY : 0);
		if (ab > c.max_abs)
			c.max_abs = ab;
		if (rel > c.max_rel)
			c.max_rel = rel;
		if (!ok && c.bad++ == 0)
			c.first_bad = i;
	}
	return c;
}

static const char *find_pair(int n, const char *const *pairs, const char *name)
{
	const char *file = NULL;
	for (int i = 0; i < n; i++) {
		const char *eq = strchr(pairs[i], '=');
		if (eq && intern_n(pairs[i], (size_t)(eq - pairs[i])) == name)
			file = eq + 1; /* the last one wins */
	}
	return file;
}

/* The scalar argument of k that -D string `def` names, or NULL. */
static const Op *scalar_def(const Kernel *k, const char *def)
{
	const char *eq = strchr(def, '=');
	const char *name = intern_n(def, (size_t)(eq - def));
	for (size_t j = 0; j < k->scalar_args.len; j++)
		if (k->scalar_args.data[j]->name == name)
			return k->scalar_args.data[j];
	return NULL;
}

/* The command line's -D strings that bind symbols (not scalar arguments)
 * as compile options; usage errors exit. */
static void defs_to_options(const GraphRun *g, const Kernel *k, CompileOptions *co)
{
	for (int i = 0; i < g->ndefs; i++) {
		const char *eq = strchr(g->defs[i], '=');
		if (scalar_def(k, g->defs[i]))
			continue;
		if (co->ndefs == MAX_DEFS)
			usage_err("run: at most %d -D options", MAX_DEFS);
		co->def_name[co->ndefs] = intern_n(g->defs[i], (size_t)(eq - g->defs[i]));
		co->def_val[co->ndefs++] = opt_int("-D", eq + 1);
	}
}

static void print_result(const InterpArg *ia, const Cmp *c, const void *got, double atol, double rtol)
{
	printf("%s %s: %llu elements %s, max abs err %.3g, max rel err %.3g (pass: |got-want| <= atol + "
	       "rtol*|want| with atol %.3g, rtol %.3g)",
	       c->bad ? "FAIL" : "PASS", ia->name, (unsigned long long)ia->count, dtype_name(ia->dtype), c->max_abs,
	       c->max_rel, atol, rtol);
	if (c->bad)
		printf(", %llu mismatches, first at flat index %llu: got %.9g, want %.9g", (unsigned long long)c->bad,
		       (unsigned long long)c->first_bad, dtype_load(ia->dtype, got, c->first_bad),
		       dtype_load(ia->dtype, ia->data, c->first_bad));
	printf("\n");
}

/* A scalar argument's value: the -D that names it, else the seeded random
 * value already in it; printed, and returned as the launch's NAME=VALUE
 * (exact: %.17g of the value the dtype holds; the caller frees it). */
static char *set_scalar(const GraphRun *g, const Kernel *k, InterpArg *ia)
{
	char err[256];
	for (int i = 0; i < g->ndefs; i++) {
		const Op *s = scalar_def(k, g->defs[i]);
		if (s && op_result(s) == ia->mem && interp_set_scalar(ia, strchr(g->defs[i], '=') + 1, err, sizeof err) != 0)
			usage_err("run: -D %s", err);
	}
	double v = dtype_load(ia->dtype, ia->data, 0);
	printf("scalar %s: %s = %.17g\n", ia->name, dtype_name(ia->dtype), v);
	char buf[256];
	snprintf(buf, sizeof buf, "%s=%.17g", ia->name, v);
	return xstrdup(buf);
}

int run_graph_checked(const GraphRun *g)
{
	const char *path = g->path;
	Diag d;
	diag_init(&d);
	CompileOptions co = {0};
	Kernel *k = load_kernel_file(path, &d);
	if (!k)
		return 1;
	defs_to_options(g, k, &co);

	int rc = 1;
	co.mcpu = g->mcpu;
	co.no_schedule = g->no_schedule;
	if (g->sched) {
		co.schedule = g->sched->schedule;
		co.lds_stages = g->sched->lds_stages;
		co.waves_per_eu = g->sched->waves_per_eu;
		co.interleave = g->sched->interleave;
	}
	co.code_object = "kernel.hsaco";
	int64_t *dyn = xcalloc(k->dyn_syms.len + 1, sizeof(int64_t));
	Buf um = {0};
	Kernel *bound = NULL;
	int ar = apply_defines(k, &co, dyn, &bound, &d, &um);
	for (int i = 0; ar == 0 && i < g->nin + g->nout; i++) {
		const char *p = i < g->nin ? g->in[i] : g->out[i - g->nin];
		const char *name = intern_n(p, (size_t)(strchr(p, '=') - p));
		bool found = false;
		for (size_t j = 0; j < k->args.len; j++)
			found |= k->args.data[j]->name == name;
		if (!found) {
			buf_printf(&um, "%s %s: kernel %s has no argument '%s'", i < g->nin ? "--in" : "--out", p, k->name,
				name);
			ar = 2;
		}
		for (int j = i < g->nin ? 0 : g->nin; ar == 0 && j < i; j++) {
			const char *q = j < g->nin ? g->in[j] : g->out[j - g->nin];
			if (intern_n(q, (size_t)(strchr(q, '=') - q)) == name) {
				buf_printf(&um, "%s %s given twice", i < g->nin ? "--in" : "--out", name);
				ar = 2;
			}
		}
	}
	if (ar != 0) {
		char msg[1024];
		snprintf(msg, sizeof msg, "%s", buf_cstr(&um));
		buf_free(&um);
		free(dyn);
		kernel_view_free(bound);
		kernel_free(k);
		if (ar == 2)
			usage_err("run: %s", msg);
		return 1;
	}
	buf_free(&um);

	Compile c;
	Interp in;
	bool have_interp = false, have_ld = false;
	LaunchDesc ld;
	Vec(HostBuffer) hb = {0};
	Vec(const char *) ldefs = {0}; /* the launch's -D: symbols, then every scalar's value */
	Vec(char *) sdefs = {0};       /* the scalars' ones, owned */

	/* 1. compile, in memory: the dynamic symbols stay kernel arguments (one
	 * code object for every size), their -D values go to the launch */
	CompileOptions generic = co;
	generic.ndefs = 0;
	for (int i = 0; i < co.ndefs; i++) {
		bool dynamic = false;
		for (size_t j = 0; j < k->dyn_syms.len; j++)
			dynamic |= sym_name(k->dyn_syms.data[j]) == co.def_name[i];
		if (!dynamic) {
			generic.def_name[generic.ndefs] = co.def_name[i];
			generic.def_val[generic.ndefs++] = co.def_val[i];
		}
	}
	compile_init(&c, k, &generic, &d);
	if (compile_run(&c) != 0)
		goto out;

	/* 2. the interpreter, on seeded random inputs (or --in files); the
	 * kernel's buffers start as copies of them */
	have_interp = true;
	if (interp_init(&in, bound, dyn, &d) != 0)
		goto out;
	char err[512];
	for (int i = 0; i < g->ndefs; i++)
		if (!scalar_def(k, g->defs[i]))
			vec_push(&ldefs, g->defs[i]);
	for (int i = 0; i < in.nargs; i++) {
		InterpArg *ia = &in.args[i];
		interp_fill_random(ia, g->ro->seed, i);
		if (ia->scalar) {
			char *def = set_scalar(g, k, ia);
			vec_push(&sdefs, def);
			vec_push(&ldefs, (const char *)def);
			continue;
		}
		const char *given = find_pair(g->nin, g->in, ia->name);
		if (given && interp_load_npy(ia, given, err, sizeof err) != 0) {
			fprintf(stderr, "wavecc: error: --in %s=%s: %s\n", ia->name, given, err);
			goto out;
		}
		uint64_t bytes = ia->count * (uint64_t)dtype_size(ia->dtype);
		void *copy = xmalloc(bytes ? bytes : 1);
		memcpy(copy, ia->data, bytes);
		vec_push(&hb, ((HostBuffer){ia->name, copy, bytes}));
	}
	if (interp_run(&in) != 0)
		goto out;

	/* 3. the code object on the backend */
	Diag ld_diag;
	diag_init(&ld_diag);
	have_ld = true;
	if (launch_parse(c.launch_json.data, c.launch_json.len, "kernel.launch.json", &ld, &ld_diag) != 0 ||
		launch_resolve(&ld, (int)ldefs.len, ldefs.data, &ld_diag) != 0) {
		fprintf(stderr, "wavecc: error: %s: the compiler wrote a launch descriptor that does not load\n", path);
		goto out;
	}
	Buf msg = {0};
	int lr = launch_run_memory(&ld, c.code_object.data, c.code_object.len, g->ro, hb.data, hb.len, &msg);
	if (lr != 0)
		fprintf(stderr, "wavecc: error: %s", buf_cstr(&msg));
	buf_free(&msg);
	if (lr != 0)
		goto out;

	/* 4. compare the buffers the kernel may write */
	bool pass = true;
	int compared = 0;
	for (size_t i = 0; i < ld.nargs; i++) {
		const LaunchArg *la = &ld.args[i];
		if (la->kind != LARG_BUFFER || !(la->access & ACC_WRITE))
			continue;
		InterpArg *ia = interp_arg(&in, intern(la->name));
		if (!ia)
			die("launch descriptor names '%s', which the kernel does not have", la->name);
		const HostBuffer *got = &hb.data[ia - in.args];
		double atol, rtol;
		default_tol(ia->dtype, &atol, &rtol);
		if (g->atol >= 0)
			atol = g->atol;
		if (g->rtol >= 0)
			rtol = g->rtol;
		if (got->bytes != la->nbytes)
			die("output %s has %llu bytes, the descriptor %llu", ia->name, (unsigned long long)got->bytes,
			    (unsigned long long)la->nbytes);
		Cmp cm = compare(ia->dtype, got->data, ia->data, ia->count, atol, rtol);
		compared++;
		print_result(ia, &cm, got->data, atol, rtol);
		if (cm.bad)
			pass = false;
	}
	if (compared == 0) {
		fprintf(stderr, "wavecc: error: %s: the kernel writes no buffer; nothing to compare\n", path);
		pass = false;
	}
	printf("%s\n", pass ? "PASS" : "FAIL");
	rc = pass ? 0 : 1;
	/* 5. --out: the kernel's buffers after the run (even on FAIL: they show
	 * what went wrong), all or nothing */
	if (g->nout) {
		OutputSet set;
		outputs_init(&set);
		const char *failed = NULL;
		int w = 0;
		for (int i = 0; i < g->nout && w == 0; i++) {
			const char *eq = strchr(g->out[i], '=');
			InterpArg *ia = interp_arg(&in, intern_n(g->out[i], (size_t)(eq - g->out[i])));
			Buf npy = {0};
			npy_encode(&npy, ia->dtype, ia->rank, ia->shape, hb.data[ia - in.args].data);
			failed = eq + 1;
			w = outputs_add(&set, eq + 1, npy.data, npy.len, 0644);
			buf_free(&npy);
		}
		if (w != 0) {
			fprintf(stderr, "wavecc: error: cannot write %s: %s\n", failed, strerror(errno));
			outputs_abort(&set);
			rc = 1;
		} else if (outputs_commit(&set, &failed) != 0) {
			fprintf(stderr, "wavecc: error: cannot write %s: %s\n", failed, strerror(errno));
			rc = 1;
		}
	}
out:
	if (have_ld)
		launch_free(&ld);
	if (have_interp)
		interp_free(&in);
	for (size_t i = 0; i < hb.len; i++)
		free(hb.data[i].data);
	for (size_t i = 0; i < sdefs.len; i++)
		free(sdefs.data[i]);
	vec_free(&sdefs);
	vec_free(&ldefs);
	vec_free(&hb);
	compile_free(&c);
	free(dyn);
	kernel_view_free(bound);
	kernel_free(k);
	return rc;
}
