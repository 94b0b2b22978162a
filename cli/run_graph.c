/* run_graph.c — `wavecc run K.json`: compile a kernel graph, run the code
 * object on a backend, run the reference interpreter on the same inputs, and
 * compare every buffer the kernel may write.
 *
 * Inputs are the interpreter's seeded random values (docs/interpreter.md),
 * written as .npy files into a private temporary folder and handed to the
 * launcher with --in, so both sides see identical bytes. The folder is
 * removed afterwards. Integer results must match exactly; floats within
 * |got - want| <= atol + rtol*|want| (defaults by dtype, see default_tol). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../frontend/frontend.h"
#include "../interp/interp.h"
#include "../loader/launch.h"
#include "../passes/passes.h"
#include "../util/npy.h"
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

static void rm_tree(const char *dir)
{
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "wavecc: warning: could not remove %s\n", dir);
}

int run_graph_checked(const char *path, int ndefs, const char *const *defs, const RunOptions *ro0,
	const char *mcpu, double atol_opt, double rtol_opt)
{
	Diag d;
	diag_init(&d);
	Kernel *k = load_kernel_file(path, &d);
	if (!k)
		return 1;

	int rc = 1;
	CompileOptions co = {0};
	co.mcpu = mcpu;
	co.code_object = "kernel.hsaco";
	int64_t *dyn = xcalloc(k->dyn_syms.len + 1, sizeof(int64_t));
	bool *bound = xcalloc(k->dyn_syms.len + 1, sizeof(bool));
	for (int i = 0; i < ndefs; i++) {
		const char *eq = strchr(defs[i], '=');
		if (!eq || eq == defs[i])
			usage_err("run: -D needs NAME=VALUE, got '%s'", defs[i]);
		if (co.ndefs == MAX_DEFS)
			usage_err("run: at most %d -D options", MAX_DEFS);
		const char *name = intern_n(defs[i], (size_t)(eq - defs[i]));
		int64_t v = opt_int("-D", eq + 1);
		co.def_name[co.ndefs] = name;
		co.def_val[co.ndefs++] = v;
		for (size_t j = 0; j < k->dyn_syms.len; j++)
			if (strcmp(sym_name(k->dyn_syms.data[j]), name) == 0) {
				dyn[j] = v;
				bound[j] = true;
			}
	}
	for (size_t j = 0; j < k->dyn_syms.len; j++)
		if (!bound[j]) {
			fprintf(stderr, "wavecc: error: %s: dynamic symbol %s needs a value: -D %s=N\n", path,
				sym_name(k->dyn_syms.data[j]), sym_name(k->dyn_syms.data[j]));
			goto out_kernel;
		}

	char tmpl[] = "/tmp/wavecc-run-XXXXXX";
	const char *tmp = mkdtemp(tmpl);
	if (!tmp) {
		fprintf(stderr, "wavecc: error: cannot create a temporary folder: %s\n", strerror(errno));
		goto out_kernel;
	}
	Arena a;
	arena_init(&a);
	const char *hsaco = arena_printf(&a, "%s/kernel.hsaco", tmp);
	const char *launch = arena_printf(&a, "%s/kernel.launch.json", tmp);

	/* 1. compile */
	if (compile_kernel_to_files(k, path, hsaco, launch, &co, NULL, &d) != 0)
		goto out_tmp;

	/* 2. the interpreter, on seeded random inputs saved for the launcher */
	Interp in;
	if (interp_init(&in, k, dyn, &d) != 0) {
		interp_free(&in);
		goto out_tmp;
	}
	Vec(const char *) ins = {0}, outs = {0};
	char err[512];
	for (int i = 0; i < in.nargs; i++) {
		InterpArg *ia = &in.args[i];
		interp_fill_random(ia, ro0->seed, i);
		const char *f = arena_printf(&a, "%s/in_%d.npy", tmp, i);
		if (interp_save_npy(ia, f, err, sizeof err) != 0) {
			fprintf(stderr, "wavecc: error: %s\n", err);
			goto out_interp;
		}
		vec_push(&ins, arena_printf(&a, "%s=%s", ia->name, f));
		vec_push(&outs, arena_printf(&a, "%s=%s/out_%d.npy", ia->name, tmp, i));
	}
	if (interp_run(&in) != 0)
		goto out_interp;

	/* 3. the code object on the backend */
	LaunchDesc ld;
	Diag ld_diag;
	diag_init(&ld_diag);
	if (launch_parse_file(launch, &ld, &ld_diag) != 0 || launch_resolve(&ld, ndefs, defs, &ld_diag) != 0) {
		launch_free(&ld);
		fprintf(stderr, "wavecc: error: %s: the compiler wrote a launch descriptor that does not load\n",
			path);
		goto out_interp;
	}
	RunOptions ro = *ro0;
	ro.random = false;
	ro.nin = (int)ins.len;
	ro.in = ins.data;
	ro.nout = (int)outs.len;
	ro.out = outs.data;
	Buf msg = {0};
	int lr = launch_run(&ld, &ro, &msg);
	if (lr != 0)
		fprintf(stderr, "wavecc: error: %s", buf_cstr(&msg));
	buf_free(&msg);
	if (lr != 0) {
		launch_free(&ld);
		goto out_interp;
	}

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
		int idx = (int)(ia - in.args);
		const char *f = arena_printf(&a, "%s/out_%d.npy", tmp, idx);
		NpyArray got;
		if (npy_read(f, &got, err, sizeof err) != 0) {
			fprintf(stderr, "wavecc: error: %s\n", err);
			pass = false;
			continue;
		}
		double atol, rtol;
		default_tol(ia->dtype, &atol, &rtol);
		if (atol_opt >= 0)
			atol = atol_opt;
		if (rtol_opt >= 0)
			rtol = rtol_opt;
		if (got.count != ia->count)
			die("output %s has %llu elements, the interpreter %llu", ia->name,
			    (unsigned long long)got.count, (unsigned long long)ia->count);
		Cmp c = compare(ia->dtype, got.data, ia->data, ia->count, atol, rtol);
		compared++;
		printf("%s %s: %llu elements %s, max abs err %.3g, max rel err %.3g (atol %.3g, rtol %.3g)",
		       c.bad ? "FAIL" : "PASS", ia->name, (unsigned long long)ia->count, dtype_name(ia->dtype),
		       c.max_abs, c.max_rel, atol, rtol);
		if (c.bad)
			printf(", %llu mismatches, first at flat index %llu: got %.9g, want %.9g",
			       (unsigned long long)c.bad, (unsigned long long)c.first_bad,
			       dtype_load(ia->dtype, got.data, c.first_bad), dtype_load(ia->dtype, ia->data, c.first_bad));
		printf("\n");
		if (c.bad)
			pass = false;
		npy_free(&got);
	}
	if (compared == 0) {
		fprintf(stderr, "wavecc: error: %s: the kernel writes no buffer; nothing to compare\n", path);
		pass = false;
	}
	printf("%s\n", pass ? "PASS" : "FAIL");
	rc = pass ? 0 : 1;
	launch_free(&ld);
out_interp:
	interp_free(&in);
	vec_free(&ins);
	vec_free(&outs);
out_tmp:
	rm_tree(tmp);
	arena_free(&a);
out_kernel:
	free(dyn);
	free(bound);
	kernel_free(k);
	return rc;
}
