/* run_graph.c — `wavecc run K.json`: the command's side of checking a
 * compiled kernel graph against the reference interpreter; the checking
 * itself (compile, run, interpret, compare, in memory) is the driver's
 * (driver/run_graph.c).
 *
 * Here: the kernel is loaded, the command line's -D bind symbols as in
 * compile (defines.c: a view for the interpreter, the dynamic symbols'
 * values) or give scalar arguments their values, and --in and --out must
 * name arguments of the kernel, once each; what breaks that is a usage
 * error (exit 2). Then the scalars chosen are printed, one line per compared
 * buffer, PASS or FAIL (exit 1 on a mismatch), and the --out files are the
 * kernel's buffers after the run, written all or nothing (even on FAIL:
 * they show what went wrong). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../frontend/frontend.h"
#include "../driver/run_graph.h"
#include "../util/npy.h"
#include "../util/dtype.h"
#include "cli.h"

/* The command line's -D strings that bind symbols (not scalar arguments)
 * as compile options; usage errors exit. */
static void defs_to_options(const GraphRun *g, const Kernel *k, CompileOptions *co)
{
	for (int i = 0; i < g->ndefs; i++) {
		const char *eq = strchr(g->defs[i], '=');
		if (compile_scalar_def(k, g->defs[i]))
			continue;
		if (co->ndefs == MAX_DEFS)
			usage_err("run: at most %d -D options", MAX_DEFS);
		co->def_name[co->ndefs] = intern_n(g->defs[i], (size_t)(eq - g->defs[i]));
		co->def_val[co->ndefs++] = opt_int("-D", eq + 1);
	}
}

/* Where the tolerances come from: given, or derived from the graph (the
 * narrowest rounding on the way to the buffer, and the op that sums it). */
static void print_tolerance_source(const CheckCompare *c)
{
	const CheckTolerance *t = &c->tol;
	if (c->atol_given && c->rtol_given) {
		printf(", given by --atol and --rtol");
		return;
	}
	printf(c->atol_given ? "; atol given by --atol, rtol " : c->rtol_given ? "; rtol given by --rtol, atol " : "; ");
	if (c->dtype != t->level || t->accumulated) {
		printf("the default after rounding to %s", dtype_name(t->level));
		if (t->at)
			printf(" at '%s'", t->at->name);
	} else {
		printf("the default for %s", dtype_name(t->level));
	}
	if (t->accumulated) {
		printf(", summed");
		if (t->acc_at)
			printf(" by '%s'", t->acc_at->name);
	}
}

static void print_result(const CheckCompare *c)
{
	const char *verdict = c->pass ? "PASS" : "FAIL";
	unsigned long long n = (unsigned long long)c->count;
	if (!c->graph_writes) {
		printf("FAIL %s: %llu elements %s, which the graph never writes: the kernel changed %llu of them, "
		       "first at flat index %llu: got %.9g, was %.9g\n",
		       c->name, n, dtype_name(c->dtype), (unsigned long long)c->stray,
		       (unsigned long long)c->first_stray, c->got, c->want);
		return;
	}
	printf("%s %s: %llu elements %s, max abs err %.3g, max rel err %.3g (pass: |got-want| <= atol + "
	       "rtol*|want| with atol %.3g, rtol %.3g",
	       verdict, c->name, n, dtype_name(c->dtype), c->max_abs, c->max_rel, c->atol, c->rtol);
	print_tolerance_source(c);
	printf(")");
	if (c->written != c->count)
		printf(", %llu of them written by the graph", (unsigned long long)c->written);
	if (c->bad)
		printf(", %llu mismatches, first at flat index %llu: got %.9g, want %.9g", (unsigned long long)c->bad,
		       (unsigned long long)c->first_bad, c->got, c->want);
	if (c->prefill)
		printf("; %llu elements the graph writes still hold the pre-fill (the kernel never wrote them), "
		       "first at flat index %llu",
		       (unsigned long long)c->prefill, (unsigned long long)c->first_prefill);
	if (c->stray)
		printf("; %llu elements the graph leaves alone changed, first at flat index %llu",
		       (unsigned long long)c->stray, (unsigned long long)c->first_stray);
	if (c->all_nan)
		printf("; the reference is NaN at all %llu elements the graph writes: a degenerate test (any NaN "
		       "matches it); give inputs (--in) for which the graph computes numbers (one that can only "
		       "compute NaN has nothing to check)",
		       (unsigned long long)c->written);
	printf("\n");
}

/* The kernel's buffers after the run, as the --out files: all or nothing.
 * Returns 0 or 1. */
static int write_outputs(const GraphRun *g, const CompileCheck *ck)
{
	OutputSet set;
	outputs_init(&set);
	const char *failed = NULL;
	int w = 0;
	for (int i = 0; i < g->nout && w == 0; i++) {
		const char *eq = strchr(g->out[i], '=');
		const InterpArg *ia;
		const void *data = compile_check_buffer(ck, intern_n(g->out[i], (size_t)(eq - g->out[i])), &ia);
		Buf npy = {0};
		npy_encode(&npy, ia->dtype, ia->rank, ia->shape, data);
		failed = eq + 1;
		w = outputs_add(&set, eq + 1, npy.data, npy.len, 0644);
		buf_free(&npy);
	}
	if (w != 0) {
		fprintf(stderr, "wavecc: error: cannot write %s: %s\n", failed, strerror(errno));
		outputs_abort(&set);
		return 1;
	}
	if (outputs_commit(&set, &failed) != 0) {
		fprintf(stderr, "wavecc: error: cannot write %s: %s\n", failed, strerror(errno));
		return 1;
	}
	return 0;
}

/* --in and --out name arguments of k, each once: 0, or 2 with a usage
 * message in um. */
static int check_in_out(const GraphRun *g, const Kernel *k, Buf *um)
{
	int ar = 0;
	for (int i = 0; ar == 0 && i < g->nin + g->nout; i++) {
		const char *p = i < g->nin ? g->in[i] : g->out[i - g->nin];
		const char *name = intern_n(p, (size_t)(strchr(p, '=') - p));
		bool found = false;
		for (size_t j = 0; j < k->args.len; j++)
			found |= k->args.data[j]->name == name;
		if (!found) {
			buf_printf(um, "%s %s: kernel %s has no argument '%s'", i < g->nin ? "--in" : "--out", p, k->name,
				name);
			ar = 2;
		}
		for (int j = i < g->nin ? 0 : g->nin; ar == 0 && j < i; j++) {
			const char *q = j < g->nin ? g->in[j] : g->out[j - g->nin];
			if (intern_n(q, (size_t)(strchr(q, '=') - q)) == name) {
				buf_printf(um, "%s %s given twice", i < g->nin ? "--in" : "--out", name);
				ar = 2;
			}
		}
	}
	return ar;
}

static void release(int64_t *dyn, Kernel *bound, Kernel *k)
{
	free(dyn);
	kernel_view_free(bound);
	kernel_free(k);
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
	if (ar == 0)
		ar = check_in_out(g, k, &um);
	if (ar != 0) {
		char msg[1024];
		snprintf(msg, sizeof msg, "%s", buf_cstr(&um));
		buf_free(&um);
		release(dyn, bound, k);
		if (ar == 2)
			usage_err("run: %s", msg);
		return 1;
	}
	buf_free(&um);

	CompileCheck ck = {.path = path, .k = k, .bound = bound, .dyn = dyn, .co = co, .ndefs = g->ndefs, .defs = g->defs,
		.nin = g->nin, .in = g->in, .ro = g->ro, .atol = g->atol, .rtol = g->rtol};
	Buf msg = {0};
	int rc = compile_check_prepare(&ck, &d, &msg);
	for (size_t i = 0; i < ck.scalars.len; i++) {
		const CheckScalar *s = &ck.scalars.data[i];
		printf("scalar %s: %s = %.17g\n", s->name, dtype_name(s->dtype), s->value);
	}
	if (rc == 2) {
		char m[1024];
		snprintf(m, sizeof m, "%s", buf_cstr(&msg));
		buf_free(&msg);
		compile_check_free(&ck);
		release(dyn, bound, k);
		usage_err("run: %s", m);
	}
	if (rc == 0)
		rc = compile_check_run(&ck, &d, &msg);
	if (rc == 0) {
		for (size_t i = 0; i < ck.compared.len; i++)
			print_result(&ck.compared.data[i]);
		fputs(buf_cstr(&msg), stderr);
		printf("%s\n", ck.pass ? "PASS" : "FAIL");
		rc = ck.pass ? 0 : 1;
		if (g->nout && write_outputs(g, &ck) != 0)
			rc = 1;
	} else {
		fputs(buf_cstr(&msg), stderr);
	}
	buf_free(&msg);
	compile_check_free(&ck);
	release(dyn, bound, k);
	return rc;
}
