/* cmd_compile.c — `wavecc compile K.json [-o OUT] [-S] [--mcpu gfx942|gfx90a]
 * [-D SYM=VAL]... [--llvm-mc PATH] [--dump-mir] [--stats]`.
 *
 * Loads the kernel graph, runs the pipeline (passes/pipeline.c), then
 * either writes the assembly (-S; default OUT: K's base name + .s) or
 * assembles and links it in memory (asm/asm.h) and writes the code object
 * (default OUT: base name + .hsaco) and its launch descriptor beside it
 * (OUT with .hsaco replaced by .launch.json). Every output is written
 * atomically; on any error nothing is written (if the second file cannot be
 * written, the first is removed again). With --stats, after the files are
 * written, the statistics of asm/stats.c go to stdout; they read the linked
 * code object, so with -S the assembly is still assembled and linked in
 * memory (nothing else is written). Exit: 0, 1 bad input, 2 usage. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../asm/asm.h"
#include "../asm/stats.h"
#include "../frontend/frontend.h"
#include "../passes/passes.h"
#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: wavecc compile K.json [-o OUT] [-S] [--mcpu gfx942|gfx90a] [-D SYM=VAL]...\n"
		     "  -o OUT            output file (default: K's base name + .hsaco, or .s with -S);\n"
		     "                    the launch descriptor goes beside it as OUT-without-.hsaco.launch.json\n"
		     "  -S                write the assembly instead of the code object\n"
		     "  --mcpu CPU        gfx942 (default) or gfx90a\n"
		     "  -D SYM=VAL        bind a dynamic symbol or override a symbol's value\n"
		     "  --llvm-mc PATH    the llvm-mc to run (see wavecc help as)\n"
		     "  --dump-mir        print the machine IR after each machine pass on stderr\n"
		     "  --stats           print registers, occupancy, instruction counts, code size and\n"
		     "                    per-stage times on stdout (docs/compiler.md, Statistics)\n");
}

static char *base_name_with(const char *path, const char *ext)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".json") == 0)
		n -= 5;
	char *r = xmalloc(n + strlen(ext) + 1);
	memcpy(r, base, n);
	strcpy(r + n, ext);
	return r;
}

/* compile_kernel_to_files, and with `st` (--stats) the statistics: the
 * caller has filled st->load_us; t0 is when loading started. */
static int compile_files(Kernel *k, const char *in, const char *out, const char *launch, const CompileOptions *o,
	const char *llvm_mc, Diag *d, StageTimes *st, double t0)
{
	Compile c;
	int rc = 1;
	Buf obj = {0}, msg = {0};
	compile_init(&c, k, o, d);
	if (compile_run(&c) != 0)
		goto done;
	if (launch || st) {
		/* asm_build's two steps, timed apart for --stats. */
		AsmOptions ao = {.llvm_mc = llvm_mc, .mcpu = o->mcpu, .source_name = in};
		Buf rel = {0};
		double ta = compile_now_us();
		int r = asm_assemble(&ao, c.asm_text.data, c.asm_text.len, &rel, &msg);
		double tl = compile_now_us();
		if (r == 0)
			r = asm_link(rel.data, rel.len, in, &obj, &msg);
		double te = compile_now_us();
		buf_free(&rel);
		if (st) {
			st->assemble_us = tl - ta;
			st->link_us = r == 0 ? te - tl : -1;
		}
		if (r != 0) {
			fprintf(stderr, "wavecc: error: %s: the generated assembly did not build%s:\n%s", in,
				launch ? "" : " (--stats measures the code object, even with -S)", buf_cstr(&msg));
			goto done;
		}
	}
	double tw = compile_now_us();
	if (!launch) {
		if (write_file_atomic(out, c.asm_text.data, c.asm_text.len, 0644) != 0)
			fprintf(stderr, "wavecc: error: cannot write %s: %s\n", out, strerror(errno));
		else
			rc = 0;
	} else if (write_file_atomic(out, obj.data, obj.len, 0644) != 0) {
		fprintf(stderr, "wavecc: error: cannot write %s: %s\n", out, strerror(errno));
	} else if (write_file_atomic(launch, c.launch_json.data, c.launch_json.len, 0644) != 0) {
		fprintf(stderr, "wavecc: error: cannot write %s: %s\n", launch, strerror(errno));
		unlink(out);
	} else {
		rc = 0;
	}
	if (rc == 0 && st) {
		double tend = compile_now_us();
		st->write_us = tend - tw;
		st->total_us = tend - t0;
		Buf rep = {0};
		buf_clear(&msg);
		/* Our own linker's output that our reader rejects is a bug. */
		if (compile_stats(&rep, &c, obj.data, obj.len, st, &msg) != 0)
			die("--stats: %s", buf_cstr(&msg));
		fputs(buf_cstr(&rep), stdout);
		buf_free(&rep);
	}
done:
	buf_free(&obj);
	buf_free(&msg);
	compile_free(&c);
	return rc;
}

int compile_kernel_to_files(Kernel *k, const char *in, const char *out, const char *launch,
	const CompileOptions *o, const char *llvm_mc, Diag *d)
{
	return compile_files(k, in, out, launch, o, llvm_mc, d, NULL, 0);
}

bool opt_define(int argc, char **argv, int *i, CompileOptions *o)
{
	const char *a = argv[*i];
	if (strncmp(a, "-D", 2) != 0)
		return false;
	const char *d = a[2] ? a + 2 : (*i + 1 < argc ? argv[++*i] : NULL);
	const char *eq = d ? strchr(d, '=') : NULL;
	if (!eq || eq == d)
		usage_err("-D needs SYM=VAL");
	if (o->ndefs == MAX_DEFS)
		usage_err("at most %d -D options", MAX_DEFS);
	o->def_name[o->ndefs] = intern_n(d, (size_t)(eq - d));
	o->def_val[o->ndefs++] = opt_int("-D", eq + 1);
	return true;
}

int cmd_compile(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *mcpu = "gfx942", *llvm_mc = NULL, *v;
	bool asm_only = false, stats = false;
	CompileOptions o = {0};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "-S") == 0) {
			asm_only = true;
		} else if (strcmp(a, "--stats") == 0) {
			stats = true;
		} else if (strcmp(a, "--dump-mir") == 0) {
			o.dump = ~0u;
		} else if (opt_value(argc, argv, &i, "-o", &v)) {
			out = v;
		} else if (opt_value(argc, argv, &i, "--mcpu", &v)) {
			mcpu = v;
		} else if (opt_value(argc, argv, &i, "--llvm-mc", &v)) {
			llvm_mc = v;
		} else if (opt_define(argc, argv, &i, &o)) {
			continue;
		} else if (a[0] == '-' && a[1]) {
			usage_err("compile: unknown option '%s'", a);
		} else if (in) {
			usage_err("compile: one kernel file at a time");
		} else {
			in = a;
		}
	}
	if (!in) {
		usage(stderr);
		return 2;
	}
	if (!target_from_name(mcpu))
		usage_err("--mcpu %s: expected gfx942 or gfx90a", mcpu);
	o.mcpu = mcpu;
	char *out_owned = out ? NULL : base_name_with(in, asm_only ? ".s" : ".hsaco");
	if (!out)
		out = out_owned;
	/* The launch descriptor: OUT minus .hsaco, plus .launch.json; it names
	 * the code object by its base name (they share a folder). */
	size_t on = strlen(out);
	size_t stem = on > 6 && strcmp(out + on - 6, ".hsaco") == 0 ? on - 6 : on;
	char *launch = xmalloc(stem + 13);
	memcpy(launch, out, stem);
	strcpy(launch + stem, ".launch.json");
	const char *slash = strrchr(out, '/');
	o.code_object = slash ? slash + 1 : out;

	Diag d;
	diag_init(&d);
	int rc = 1;
	double t0 = compile_now_us();
	Kernel *k = load_kernel_file(in, &d);
	StageTimes st = {.load_us = compile_now_us() - t0, .assemble_us = -1, .link_us = -1, .write_us = -1};
	if (k)
		rc = compile_files(k, in, out, asm_only ? NULL : launch, &o, llvm_mc, &d, stats ? &st : NULL, t0);
	if (k)
		kernel_free(k);
	free(out_owned);
	free(launch);
	return rc;
}
