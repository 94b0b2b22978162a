/* cmd_run.c — `wavecc run FILE.json [options]`: run a kernel on the
 * emulator or through HIP.
 *
 * The input's "format" key picks the handler from FORMATS: a launch
 * descriptor ("wavecc-launch/1", docs/launch-format.md) runs its code object
 * directly. A kernel graph ("wavecc-kernel/1") is compiled, run the same
 * way on random inputs, and checked against the reference interpreter
 * (run_graph.c). Adding a format is one row and one handler. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../loader/launch.h"
#include "../util/util.h"
#include "cli.h"

typedef struct {
	const char *path;
	Vec(const char *) defs, in, out;
	RunOptions ro;
	const char *mcpu;
	double atol, rtol; /* < 0: by dtype */
} RunArgs;

static int run_launch_descriptor(RunArgs *a)
{
	LaunchDesc d;
	Diag diag;
	diag_init(&diag);
	int r = 1;
	if (launch_parse_file(a->path, &d, &diag) != 0 ||
	    launch_resolve(&d, (int)a->defs.len, a->defs.data, &diag) != 0)
		goto out;
	a->ro.nin = (int)a->in.len;
	a->ro.in = a->in.data;
	a->ro.nout = (int)a->out.len;
	a->ro.out = a->out.data;
	Buf msg = {0};
	if (launch_run(&d, &a->ro, &msg) == 0) {
		r = 0;
	} else {
		/* one "wavecc: error:" per message line */
		const char *s = buf_cstr(&msg);
		while (*s) {
			const char *nl = strchr(s, '\n');
			int n = nl ? (int)(nl - s) : (int)strlen(s);
			fprintf(stderr, "wavecc: error: %.*s\n", n, s);
			s += n + (nl ? 1 : 0);
		}
	}
	buf_free(&msg);
out:
	launch_free(&d);
	return r;
}

static int run_kernel_graph(RunArgs *a)
{
	if (a->in.len || a->out.len)
		usage_err("run: --in/--out apply to launch descriptors; a kernel graph runs on seeded random inputs");
	return run_graph_checked(a->path, (int)a->defs.len, a->defs.data, &a->ro, a->mcpu, a->atol, a->rtol);
}

static const struct {
	const char *format;
	int (*run)(RunArgs *);
} FORMATS[] = {
	{LAUNCH_FORMAT, run_launch_descriptor},
	{"wavecc-kernel/1", run_kernel_graph},
};

static double tolerance(const char *opt, const char *v)
{
	char *end;
	double x = strtod(v, &end);
	if (end == v || *end || !(x >= 0) || x == HUGE_VAL)
		usage_err("run: %s needs a non-negative number, got '%s'", opt, v);
	return x;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: wavecc run FILE.json [--backend emu|hip] [-D NAME=VALUE]... [--in NAME=FILE.npy]...\n"
		   "                  [--out NAME=FILE.npy]... [--random SEED] [--max-instructions N] [--trace] [-v]\n"
		   "                  [--d16 clobber|preserve|auto]\n"
		   "       wavecc run K.json [--backend emu|hip] [-D SYM=VAL]... [--seed N] [--mcpu CPU] [--atol X] [--rtol X]\n"
		   "  Run the kernel of a launch descriptor (docs/launch-format.md); or compile a kernel\n"
		   "  graph (docs/kernel-format.md), run it on seeded random inputs, run the reference\n"
		   "  interpreter on the same inputs, compare every buffer the kernel writes and print\n"
		   "  PASS or FAIL with the largest errors (exit 1 on a mismatch).\n"
		   "  --backend B        emu (default): the CDNA emulator; hip: an AMD GPU through ROCm\n"
		   "  -D NAME=VALUE      bind a dynamic symbol or give a scalar argument's value\n"
		   "  --in NAME=F.npy    initial contents of a buffer (dtype and shape are checked)\n"
		   "  --out NAME=F.npy   write a buffer after the run\n"
		   "  --random SEED      fill buffers the kernel reads with seeded random values (else zeros)\n"
		   "  --max-instructions N  emulator: stop after N wave instructions\n"
		   "  --trace            emulator: print each executed instruction\n"
		   "  --d16 MODE         emulator: d16 loads clobber or preserve the other half (default auto:\n"
		   "                     as the code object's sramecc says; off preserves, on/any clobber)\n"
		   "  -v                 say what runs\n"
		   "  kernel graphs only:\n"
		   "  --seed N           seed of the random inputs (default 1)\n"
		   "  --mcpu CPU         gfx942 (default) or gfx90a\n"
		   "  --atol X, --rtol X tolerances for float outputs (default by dtype: f32 1e-5/1e-5,\n"
		   "                     f16 1e-3/2e-3, bf16 1e-2/1.6e-2; integers exact)\n");
}

int cmd_run(int argc, char **argv)
{
	RunArgs a = {0};
	a.ro.backend = BACKEND_EMU;
	a.ro.seed = 1;
	a.mcpu = "gfx942";
	a.atol = a.rtol = -1;
	int rc = 1;
	for (int i = 1; i < argc; i++) {
		const char *v;
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			rc = 0;
			goto out;
		} else if (opt_value(argc, argv, &i, "--backend", &v)) {
			if (strcmp(v, "emu") == 0)
				a.ro.backend = BACKEND_EMU;
			else if (strcmp(v, "hip") == 0)
				a.ro.backend = BACKEND_HIP;
			else
				usage_err("run: unknown backend '%s' (expected emu or hip)", v);
		} else if (strncmp(argv[i], "-D", 2) == 0) {
			if (argv[i][2])
				vec_push(&a.defs, argv[i] + 2);
			else if (i + 1 < argc)
				vec_push(&a.defs, argv[++i]);
			else
				usage_err("run: -D needs NAME=VALUE");
		} else if (opt_value(argc, argv, &i, "--in", &v)) {
			vec_push(&a.in, v);
		} else if (opt_value(argc, argv, &i, "--out", &v)) {
			vec_push(&a.out, v);
		} else if (opt_value(argc, argv, &i, "--random", &v)) {
			a.ro.random = true;
			a.ro.seed = (uint64_t)opt_int("--random", v);
		} else if (opt_value(argc, argv, &i, "--max-instructions", &v)) {
			long long n = opt_int("--max-instructions", v);
			if (n <= 0)
				usage_err("run: --max-instructions needs a positive count");
			a.ro.max_instructions = (uint64_t)n;
		} else if (opt_value(argc, argv, &i, "--d16", &v)) { /* emulator d16 loads (loader/launch.h) */
			int m = run_d16_parse(v);
			if (m < 0)
				usage_err("run: --d16 %s: expected clobber, preserve or auto", v);
			a.ro.d16 = (RunD16)m;
		} else if (opt_value(argc, argv, &i, "--seed", &v)) {
			a.ro.seed = (uint64_t)opt_int("--seed", v);
		} else if (opt_value(argc, argv, &i, "--mcpu", &v)) {
			if (strcmp(v, "gfx942") != 0 && strcmp(v, "gfx90a") != 0)
				usage_err("run: --mcpu %s: expected gfx942 or gfx90a", v);
			a.mcpu = v;
		} else if (opt_value(argc, argv, &i, "--atol", &v)) {
			a.atol = tolerance("--atol", v);
		} else if (opt_value(argc, argv, &i, "--rtol", &v)) {
			a.rtol = tolerance("--rtol", v);
		} else if (strcmp(argv[i], "--trace") == 0) {
			a.ro.trace = true;
		} else if (strcmp(argv[i], "-v") == 0) {
			a.ro.verbose = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			usage_err("run: unknown option '%s'", argv[i]);
		} else if (!a.path) {
			a.path = argv[i];
		} else {
			usage_err("run: more than one input file ('%s' and '%s')", a.path, argv[i]);
		}
	}
	if (!a.path)
		usage_err("run: no input file (try 'wavecc help run')");
	/* Sniff the format; a document that does not parse is reported by the
	 * launch descriptor parser, which gives line and column. */
	json_error_t je;
	json_t *doc = json_load_file(a.path, 0, &je);
	const char *fmt = doc ? json_string_value(json_object_get(doc, "format")) : NULL;
	int (*handler)(RunArgs *) = run_launch_descriptor;
	if (fmt) {
		handler = NULL;
		for (size_t k = 0; k < ARRAY_LEN(FORMATS); k++)
			if (strcmp(fmt, FORMATS[k].format) == 0)
				handler = FORMATS[k].run;
		if (!handler)
			handler = run_launch_descriptor; /* it reports the unknown format with its position */
	}
	json_decref(doc);
	rc = handler(&a);
out:
	vec_free(&a.defs);
	vec_free(&a.in);
	vec_free(&a.out);
	return rc;
}
