/* cmd_run.c — `wavecc run FILE.json [options]`: run a kernel on the
 * emulator or through HIP.
 *
 * The input's "format" key picks the handler from FORMATS: a launch
 * descriptor ("wavecc-launch/1", docs/launch-format.md) runs its code object
 * directly. A kernel graph ("wavecc-kernel/1") will be compiled first and
 * then run the same way (issue 5); until the compiler exists that row says
 * so. Adding a format is one row and one handler. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../loader/launch.h"
#include "../util/util.h"
#include "cli.h"

typedef struct {
	const char *path;
	Vec(const char *) defs, in, out;
	RunOptions ro;
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
	fprintf(stderr,
		"wavecc: error: %s: running a kernel graph needs the compiler, which does not exist yet; "
		"run a launch descriptor (\"format\": \"%s\") instead\n",
		a->path, LAUNCH_FORMAT);
	return 1;
}

static const struct {
	const char *format;
	int (*run)(RunArgs *);
} FORMATS[] = {
	{LAUNCH_FORMAT, run_launch_descriptor},
	{"wavecc-kernel/1", run_kernel_graph},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: wavecc run FILE.json [--backend emu|hip] [-D NAME=VALUE]... [--in NAME=FILE.npy]...\n"
		   "                  [--out NAME=FILE.npy]... [--random SEED] [--max-instructions N] [--trace] [-v]\n"
		   "  Run the kernel of a launch descriptor (docs/launch-format.md).\n"
		   "  --backend B        emu (default): the CDNA emulator; hip: an AMD GPU through ROCm\n"
		   "  -D NAME=VALUE      bind a dynamic symbol or give a scalar argument's value\n"
		   "  --in NAME=F.npy    initial contents of a buffer (dtype and shape are checked)\n"
		   "  --out NAME=F.npy   write a buffer after the run\n"
		   "  --random SEED      fill buffers the kernel reads with seeded random values (else zeros)\n"
		   "  --max-instructions N  emulator: stop after N wave instructions\n"
		   "  --trace            emulator: print each executed instruction\n"
		   "  -v                 say what runs\n");
}

int cmd_run(int argc, char **argv)
{
	RunArgs a = {0};
	a.ro.backend = BACKEND_EMU;
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
