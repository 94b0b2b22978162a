/* cmd_compile.c — `wavecc compile K.json [-o OUT] [-S] [--mcpu gfx942|gfx90a]
 * [-D SYM=VAL]... [--llvm-mc PATH] [--dump-mir]`.
 *
 * Loads the kernel graph, runs the pipeline (passes/pipeline.c), then
 * either writes the assembly (-S; default OUT: K's base name + .s) or
 * assembles and links it in memory (asm/asm.h) and writes the code object
 * (default OUT: base name + .hsaco) and its launch descriptor beside it
 * (OUT with .hsaco replaced by .launch.json). Every output is written
 * atomically; on any error nothing is written (if the second file cannot be
 * written, the first is removed again). Exit: 0, 1 bad input, 2 usage. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../asm/asm.h"
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
		     "  --dump-mir        print the machine IR after each machine pass on stderr\n");
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

int compile_kernel_to_files(Kernel *k, const char *in, const char *out, const char *launch,
	const CompileOptions *o, const char *llvm_mc, Diag *d)
{
	Compile c;
	int rc = 1;
	compile_init(&c, k, o, d);
	if (compile_run(&c) != 0)
		goto done;
	if (!launch) {
		if (write_file_atomic(out, c.asm_text.data, c.asm_text.len, 0644) != 0)
			fprintf(stderr, "wavecc: error: cannot write %s: %s\n", out, strerror(errno));
		else
			rc = 0;
		goto done;
	}
	Buf obj = {0}, msg = {0};
	AsmOptions ao = {.llvm_mc = llvm_mc, .mcpu = o->mcpu, .source_name = in};
	if (asm_build(&ao, c.asm_text.data, c.asm_text.len, &obj, &msg) != 0) {
		fprintf(stderr, "wavecc: error: %s: the generated assembly did not build:\n%s", in, buf_cstr(&msg));
	} else if (write_file_atomic(out, obj.data, obj.len, 0644) != 0) {
		fprintf(stderr, "wavecc: error: cannot write %s: %s\n", out, strerror(errno));
	} else if (write_file_atomic(launch, c.launch_json.data, c.launch_json.len, 0644) != 0) {
		fprintf(stderr, "wavecc: error: cannot write %s: %s\n", launch, strerror(errno));
		unlink(out);
	} else {
		rc = 0;
	}
	buf_free(&obj);
	buf_free(&msg);
done:
	compile_free(&c);
	return rc;
}

int cmd_compile(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *mcpu = "gfx942", *llvm_mc = NULL, *v;
	bool asm_only = false;
	CompileOptions o = {0};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "-S") == 0) {
			asm_only = true;
		} else if (strcmp(a, "--dump-mir") == 0) {
			o.dump = ~0u;
		} else if (opt_value(argc, argv, &i, "-o", &v)) {
			out = v;
		} else if (opt_value(argc, argv, &i, "--mcpu", &v)) {
			mcpu = v;
		} else if (opt_value(argc, argv, &i, "--llvm-mc", &v)) {
			llvm_mc = v;
		} else if (strncmp(a, "-D", 2) == 0) {
			const char *d = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
			const char *eq = d ? strchr(d, '=') : NULL;
			if (!eq || eq == d)
				usage_err("-D needs SYM=VAL");
			if (o.ndefs == MAX_DEFS)
				usage_err("at most %d -D options", MAX_DEFS);
			o.def_name[o.ndefs] = intern_n(d, (size_t)(eq - d));
			o.def_val[o.ndefs++] = opt_int("-D", eq + 1);
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
	Kernel *k = load_kernel_file(in, &d);
	if (k)
		rc = compile_kernel_to_files(k, in, out, asm_only ? NULL : launch, &o, llvm_mc, &d);
	if (k)
		kernel_free(k);
	free(out_owned);
	free(launch);
	return rc;
}
