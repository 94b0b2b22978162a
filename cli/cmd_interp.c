/* cmd_interp.c — `wavecc interp`: run a kernel graph on the reference
 * interpreter (interp/, docs/interpreter.md).
 *
 *   wavecc interp K.json [-D SYM=VAL]... [--in NAME=FILE.npy]...
 *                 [--out NAME=FILE.npy]... [--seed N]
 *
 * -D binds a dynamic symbol or overrides any symbol's value, as in compile
 * (defines.c); every dynamic symbol needs one. Each argument starts zeroed,
 * or filled by the documented seeded generator with --seed N (--random N
 * is the older spelling), and is then overwritten by its --in file (dtype
 * and shape checked). After the run the --out arguments are written as
 * .npy, all or nothing (util.h's OutputSet: nothing is written if the
 * kernel, an input or any one output fails). Without --out, one summary
 * line per argument is printed: name, type, and the sum and maximum
 * magnitude of its elements (for a quick look, not for testing). Every
 * path frees what it allocated (the sanitizer build checks for leaks).
 * Exit 0, 1 bad input, 2 bad usage. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../frontend/frontend.h"
#include "../interp/interp.h"
#include "../ir/graph.h"
#include "../driver/driver.h"
#include "../util/npy.h"
#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: wavecc interp K.json [-D SYM=VAL]... [--in NAME=FILE.npy]... [--out NAME=FILE.npy]...\n"
		     "                     [--seed N] [-v] [--version] [-h]\n"
		     "  Run the kernel on the reference interpreter (docs/interpreter.md).\n"
		     "  -D SYM=VAL        bind a dynamic symbol (each one needs a value) or override a\n"
		     "                    symbol's value, as in compile (also -DSYM=VAL)\n"
		     "  --in NAME=FILE    input for argument NAME from a .npy file (dtype, shape checked)\n"
		     "  --out NAME=FILE   write argument NAME after the run as .npy; all --out files are\n"
		     "                    written or none; '-' is stdout\n"
		     "  --seed N          fill arguments with the documented seeded generator first\n"
		     "                    (--random N is the same)\n"
		     "  -v                print the version\n"
		     "  Arguments not given start at zero. Without --out, a summary is printed.\n");
}

typedef struct {
	const char *name, *file;
} Pair;

typedef struct {
	CompileOptions defs;
	Vec(Pair) ins, outs;
	Kernel *k;
	Kernel *bound; /* k with the -D bindings (a view) */
	int64_t *dyn;
	Interp in;
	bool have_interp;
} State;

static void state_free(State *s)
{
	if (s->have_interp)
		interp_free(&s->in);
	kernel_view_free(s->bound);
	if (s->k)
		kernel_free(s->k);
	free(s->dyn);
	vec_free(&s->ins);
	vec_free(&s->outs);
}

/* A usage error once something is allocated: free it all first. */
NORETURN static void state_usage_err(State *s, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void state_usage_err(State *s, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	state_free(s);
	usage_err("%s", msg);
}

static Pair split_pair(State *s, const char *opt, const char *v)
{
	const char *eq = strchr(v, '=');
	if (!eq || eq == v || !eq[1])
		state_usage_err(s, "interp: %s needs NAME=FILE, got '%s'", opt, v);
	Pair p = {intern_n(v, (size_t)(eq - v)), eq + 1};
	return p;
}

static void print_summary(const Interp *in)
{
	for (int j = 0; j < in->nargs; j++) {
		const InterpArg *a = &in->args[j];
		double sum = 0, mx = 0;
		for (uint64_t e = 0; e < a->count; e++) {
			double x = dtype_load(a->dtype, a->data, e);
			sum += x;
			mx = fmax(mx, fabs(x));
		}
		printf("%s %s[", a->name, dtype_name(a->dtype));
		for (int r = 0; r < a->rank; r++)
			printf("%s%lld", r ? ", " : "", (long long)a->shape[r]);
		printf("] sum=%.9g max_abs=%.9g\n", sum, mx);
	}
}

/* All --out files, or none. */
static int write_outputs(State *s)
{
	OutputSet set;
	outputs_init(&set);
	for (size_t i = 0; i < s->outs.len; i++) {
		const InterpArg *a = interp_arg(&s->in, s->outs.data[i].name);
		Buf b = {0};
		npy_encode(&b, a->dtype, a->rank, a->shape, a->data);
		int r = outputs_add(&set, s->outs.data[i].file, b.data, b.len, 0644);
		buf_free(&b);
		if (r != 0) {
			fprintf(stderr, "wavecc: error: --out %s: %s: cannot write: %s (no --out file written)\n",
				s->outs.data[i].name, s->outs.data[i].file, strerror(errno));
			outputs_abort(&set);
			return 1;
		}
	}
	const char *failed = NULL;
	if (outputs_commit(&set, &failed) != 0) {
		fprintf(stderr, "wavecc: error: --out: %s: cannot write: %s\n", failed ? failed : "?", strerror(errno));
		return 1;
	}
	return 0;
}

int cmd_interp(int argc, char **argv)
{
	const char *path = NULL, *v;
	State s = {0};
	bool random = false, verbose = false;
	uint64_t seed = 0;
	int rc;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (opt_common(a, "interp", usage, &rc)) {
			state_free(&s);
			return rc;
		} else if (strcmp(a, "-v") == 0) {
			verbose = true;
		} else if (opt_define(argc, argv, &i, &s.defs)) {
			continue;
		} else if (opt_value(argc, argv, &i, "--in", &v)) {
			vec_push(&s.ins, split_pair(&s, "--in", v));
		} else if (opt_value(argc, argv, &i, "--out", &v)) {
			vec_push(&s.outs, split_pair(&s, "--out", v));
		} else if (opt_value(argc, argv, &i, "--seed", &v) || opt_value(argc, argv, &i, "--random", &v)) {
			random = true;
			seed = (uint64_t)opt_int("--seed", v);
		} else if (a[0] == '-' && a[1]) {
			state_usage_err(&s, "interp: unknown option '%s'", a);
		} else if (!path) {
			path = a;
		} else {
			state_usage_err(&s, "interp: more than one kernel file ('%s' and '%s')", path, a);
		}
	}
	if (opt_version_only(verbose, path)) {
		state_free(&s);
		return 0;
	}
	if (!path)
		state_usage_err(&s, "interp: no kernel file");

	Diag d;
	diag_init(&d);
	s.k = load_kernel_file(path, &d);
	if (!s.k) {
		state_free(&s);
		return 1;
	}
	Kernel *k = s.k;
	s.dyn = xcalloc(k->dyn_syms.len + 1, sizeof(int64_t));
	Buf um = {0};
	rc = apply_defines(k, &s.defs, s.dyn, &s.bound, &d, &um);
	if (rc == 2) {
		char msg[1024];
		snprintf(msg, sizeof msg, "%s", buf_cstr(&um));
		buf_free(&um);
		state_usage_err(&s, "interp: %s", msg);
	}
	buf_free(&um);
	if (rc != 0) {
		state_free(&s);
		return 1;
	}
	for (size_t i = 0; i < s.ins.len + s.outs.len; i++) {
		const Pair *p = i < s.ins.len ? &s.ins.data[i] : &s.outs.data[i - s.ins.len];
		bool found = false;
		for (size_t j = 0; j < k->args.len; j++)
			found |= k->args.data[j]->name == p->name;
		if (!found)
			state_usage_err(&s, "interp: %s %s: kernel %s has no argument '%s'", i < s.ins.len ? "--in" : "--out",
				p->name, k->name, p->name);
		/* one file per argument and direction: a second would silently win */
		size_t from = i < s.ins.len ? 0 : s.ins.len;
		for (size_t j = from; j < i; j++)
			if ((j < s.ins.len ? &s.ins.data[j] : &s.outs.data[j - s.ins.len])->name == p->name)
				state_usage_err(&s, "interp: %s %s given twice", i < s.ins.len ? "--in" : "--out", p->name);
	}

	s.have_interp = true;
	rc = interp_init(&s.in, s.bound, s.dyn, &d) < 0 ? 1 : 0;
	char msg[512];
	if (rc == 0 && random)
		for (int j = 0; j < s.in.nargs; j++)
			interp_fill_random(&s.in.args[j], seed, j);
	for (size_t i = 0; i < s.ins.len && rc == 0; i++) {
		if (interp_load_npy(interp_arg(&s.in, s.ins.data[i].name), s.ins.data[i].file, msg, sizeof msg) < 0) {
			fprintf(stderr, "wavecc: error: --in %s=%s: %s\n", s.ins.data[i].name, s.ins.data[i].file, msg);
			rc = 1;
		}
	}
	if (rc == 0 && interp_run(&s.in) < 0)
		rc = 1;
	if (rc == 0 && s.outs.len)
		rc = write_outputs(&s);
	if (rc == 0 && s.outs.len == 0)
		print_summary(&s.in);
	state_free(&s);
	return rc;
}
