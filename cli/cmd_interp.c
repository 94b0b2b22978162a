/* cmd_interp.c — `wavecc interp`: run a kernel graph on the reference
 * interpreter (interp/, docs/interpreter.md).
 *
 *   wavecc interp K.json [-D SYM=VAL]... [--in NAME=FILE.npy]...
 *                 [--out NAME=FILE.npy]... [--random SEED]
 *
 * Every dynamic symbol must be given with -D. Each argument starts zeroed,
 * or filled by the documented seeded generator with --random SEED, and is
 * then overwritten by its --in file (dtype and shape checked). After the run
 * each --out argument is written as .npy, atomically; nothing is written if
 * the kernel or an input is bad. Without --out, one summary line per
 * argument is printed: name, type, and the sum and maximum magnitude of its
 * elements (for a quick look, not for testing). Exit 0, 1 bad input, 2 bad
 * usage. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../frontend/frontend.h"
#include "../interp/interp.h"
#include "../ir/graph.h"
#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: wavecc interp K.json [-D SYM=VAL]... [--in NAME=FILE.npy]...\n"
		     "                     [--out NAME=FILE.npy]... [--random SEED]\n"
		     "  Run the kernel on the reference interpreter (docs/interpreter.md).\n"
		     "  -D SYM=VAL        value of a dynamic symbol (every one is required)\n"
		     "  --in NAME=FILE    input for argument NAME from a .npy file (dtype, shape checked)\n"
		     "  --out NAME=FILE   write argument NAME after the run as .npy (atomic)\n"
		     "  --random SEED     fill arguments with the documented seeded generator first\n"
		     "  Arguments not given start at zero. Without --out, a summary is printed.\n");
}

typedef struct {
	const char *name, *file;
} Pair;

static Pair split_pair(const char *opt, const char *v)
{
	const char *eq = strchr(v, '=');
	if (!eq || eq == v || !eq[1])
		usage_err("%s needs NAME=VALUE, got '%s'", opt, v);
	Pair p = {intern_n(v, (size_t)(eq - v)), eq + 1};
	return p;
}

int cmd_interp(int argc, char **argv)
{
	const char *path = NULL, *v;
	Vec(Pair) defs = {0}, ins = {0}, outs = {0};
	bool random = false;
	uint64_t seed = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (strncmp(a, "-D", 2) == 0) {
			const char *d = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
			if (!d)
				usage_err("-D needs SYM=VAL");
			vec_push(&defs, split_pair("-D", d));
		} else if (opt_value(argc, argv, &i, "--in", &v)) {
			vec_push(&ins, split_pair("--in", v));
		} else if (opt_value(argc, argv, &i, "--out", &v)) {
			vec_push(&outs, split_pair("--out", v));
		} else if (opt_value(argc, argv, &i, "--random", &v)) {
			random = true;
			seed = (uint64_t)opt_int("--random", v);
		} else if (a[0] == '-' && a[1]) {
			usage_err("interp: unknown option '%s'", a);
		} else if (!path) {
			path = a;
		} else {
			usage_err("interp: more than one kernel file");
		}
	}
	if (!path) {
		usage(stderr);
		return 2;
	}

	Diag d;
	diag_init(&d);
	Kernel *k = load_kernel_file(path, &d);
	if (!k)
		return 1;
	/* Dynamic symbol values: each -D must name a dynamic symbol; each
	 * dynamic symbol needs one. Usage errors, since the kernel is fine. */
	size_t nd = k->dyn_syms.len;
	int64_t *dyn = xcalloc(nd ? nd : 1, sizeof(int64_t));
	bool *given = xcalloc(nd ? nd : 1, sizeof(bool));
	for (size_t i = 0; i < defs.len; i++) {
		size_t j = 0;
		while (j < nd && strcmp(sym_name(k->dyn_syms.data[j]), defs.data[i].name) != 0)
			j++;
		if (j == nd)
			usage_err("-D %s: not a dynamic symbol of kernel %s", defs.data[i].name, k->name);
		dyn[j] = opt_int("-D", defs.data[i].file);
		given[j] = true;
	}
	for (size_t j = 0; j < nd; j++)
		if (!given[j])
			usage_err("dynamic symbol %s needs a value: -D %s=VAL", sym_name(k->dyn_syms.data[j]),
				sym_name(k->dyn_syms.data[j]));
	for (size_t i = 0; i < ins.len + outs.len; i++) {
		const Pair *p = i < ins.len ? &ins.data[i] : &outs.data[i - ins.len];
		bool found = false;
		for (size_t j = 0; j < k->args.len; j++)
			found |= k->args.data[j]->name == p->name;
		if (!found)
			usage_err("%s: kernel %s has no argument '%s'", i < ins.len ? "--in" : "--out", k->name,
				p->name);
	}

	Interp in;
	int rc = interp_init(&in, k, dyn, &d) < 0 ? 1 : 0;
	char msg[512];
	if (rc == 0 && random)
		for (int j = 0; j < in.nargs; j++)
			interp_fill_random(&in.args[j], seed, j);
	for (size_t i = 0; i < ins.len && rc == 0; i++) {
		if (interp_load_npy(interp_arg(&in, ins.data[i].name), ins.data[i].file, msg, sizeof msg) < 0) {
			fprintf(stderr, "wavecc: error: --in %s: %s\n", ins.data[i].name, msg);
			rc = 1;
		}
	}
	if (rc == 0 && interp_run(&in) < 0)
		rc = 1;
	for (size_t i = 0; i < outs.len && rc == 0; i++) {
		if (interp_save_npy(interp_arg(&in, outs.data[i].name), outs.data[i].file, msg, sizeof msg) < 0) {
			fprintf(stderr, "wavecc: error: --out %s: %s\n", outs.data[i].name, msg);
			rc = 1;
		}
	}
	if (rc == 0 && outs.len == 0) {
		for (int j = 0; j < in.nargs; j++) {
			const InterpArg *a = &in.args[j];
			double sum = 0, mx = 0;
			bool f8 = a->dtype >= DT_F8E4M3FNUZ;
			for (uint64_t e = 0; e < a->count && !f8; e++) {
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
	interp_free(&in);
	kernel_free(k);
	free(dyn);
	free(given);
	vec_free(&defs);
	vec_free(&ins);
	vec_free(&outs);
	return rc;
}
