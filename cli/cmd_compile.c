/* cmd_compile.c — `wavecc compile K.json [-o OUT] [-S] [--launch FILE]
 * [--mcpu CPU] [-D SYM=VAL]... [--llvm-mc PATH] [--dump-mir] [--stats] [-v]`.
 *
 * Loads the kernel graph, runs the pipeline (driver/pipeline.c), then
 * either writes the assembly (-S; default OUT: K's base name + .s) or
 * assembles and links it in memory (asm/asm.h) and writes the code object
 * (default OUT: base name + .hsaco).
 *
 * The launch descriptor: with --launch FILE it goes to FILE (with -S too,
 * naming the code object `wavecc as OUT` will write, so an edited .s can be
 * assembled and run). Without --launch and without -S it goes beside OUT
 * (OUT with .hsaco replaced by .launch.json) when OUT is a regular file or
 * does not exist yet; when OUT is '-' (standard output) or not a regular
 * file (/dev/null, a FIFO) no descriptor is written unless asked for. The
 * descriptor names the code object relative to its own folder when they
 * share one, else by absolute path; with a code object it carries the op
 * table (`ops`: each graph op's run of instructions by offset, the
 * profiler's source map, loader/timing/source.c), so `wavecc profile` of
 * the descriptor names hot spots and loops by op.
 *
 * Outputs follow util.h (devices and FIFOs written into, links followed,
 * regular files replaced atomically) and are written all or nothing. With
 * --stats the statistics of driver/stats.c go to stdout after the files are
 * written; they read the linked code object, so with -S the assembly is
 * still assembled and linked in memory. When llvm-mc rejects the generated
 * assembly, each message names the generated line and the graph op whose
 * code it is (asm/origin.c). Exit: 0, 1 bad input, 2 usage. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../asm/asm.h"
#include "../driver/stats.h"
#include "../frontend/frontend.h"
#include "../driver/driver.h"
#include "../loader/codeobj/codeobj.h"
#include "../loader/timing/timing.h"
#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: wavecc compile K.json [-o OUT] [-S] [--launch FILE] [--mcpu CPU] [-D SYM=VAL]...\n"
		     "                      [--llvm-mc PATH] [--dump-mir] [--dump-plan] [--no-schedule] [--stats] [-v]\n"
		     "                      [--schedule S] [--lds-stages N] [--waves-per-eu N] [--version] [-h]\n"
		     "  -o OUT            output (default: K's base name + .hsaco, or .s with -S); '-' is\n"
		     "                    stdout; a device or FIFO is written into (also -oOUT, -o=OUT)\n"
		     "  -S                write the assembly instead of the code object\n"
		     "  --offsets         with -S: each instruction's offset from the kernel's entry as a\n"
		     "                    trailing comment (// +0x0123), as `wavecc profile` prints them\n"
		     "  --launch FILE     write the launch descriptor to FILE (default without -S: beside a\n"
		     "                    regular OUT, as OUT-without-.hsaco.launch.json; with -S, or when\n"
		     "                    OUT is '-' or not a regular file: none unless given)\n"
		     "  --mcpu CPU        gfx942 (default) or gfx90a, or a target ID such as\n"
		     "                    gfx942:sramecc-:xnack+ (also -mcpu=CPU, --mcpu=CPU)\n"
		     "  -D SYM=VAL        bind a dynamic symbol or override a symbol's value (also -DSYM=VAL)\n"
		     "  --llvm-mc PATH    the llvm-mc to run (see wavecc help as)\n"
		     "  --dump-mir        print the machine IR after each machine pass on stderr\n"
		     "  --dump-plan       print the loop plan the kernel was compiled from on stderr\n"
		     "                    (passes/plan: pipelining, splits, moved reads, folded masks)\n"
		     "  --no-schedule     keep isel's instruction order (no list scheduling)\n"
		     OPT_SCHEDULE_USAGE
		     "  --stats           print registers, occupancy, instruction counts, code size and\n"
		     "                    per-stage times on stdout (docs/compiler.md, Statistics)\n"
		     "  -v                print the version, and which llvm-mc runs\n"
		     "several kernels:   wavecc compile K1.json K2.json ... [--sweep SYM=V1,V2,...]... [-o DIR]\n"
		     "  --sweep SYM=V,... one variant per value (several --sweep: every combination); all\n"
		     "                    variants are assembled by one llvm-mc run; each writes\n"
		     "                    DIR/K.SYM=V.hsaco (or .s with -S) and .launch.json and prints a line\n");
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

/* path with suffix `old` (if present) replaced by `ext`. */
static char *replace_suffix(const char *path, const char *old, const char *ext)
{
	size_t n = strlen(path), on = strlen(old);
	size_t stem = n > on && strcmp(path + n - on, old) == 0 ? n - on : n;
	char *r = xmalloc(stem + strlen(ext) + 1);
	memcpy(r, path, stem);
	strcpy(r + stem, ext);
	return r;
}

/* How the descriptor at `launch` names the code object at `obj`. */
static char *code_object_ref(const char *launch, const char *obj)
{
	const char *ls = strrchr(launch, '/'), *os = strrchr(obj, '/');
	size_t ld = ls ? (size_t)(ls - launch) : 0, od = os ? (size_t)(os - obj) : 0;
	if (ld == od && strncmp(launch, obj, ld) == 0)
		return xstrdup(os ? os + 1 : obj);
	if (obj[0] == '/')
		return xstrdup(obj);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		return xstrdup(obj);
	char *r = xmalloc(strlen(cwd) + strlen(obj) + 2);
	sprintf(r, "%s/%s", cwd, obj);
	return r;
}

/* Compile k and write the files; with `st` (--stats) the statistics: the
 * caller has filled st->load_us; t0 is when loading started. asm_only
 * writes the assembly to `out`, else the code object; `launch` (may be
 * NULL) receives the descriptor. With -S and no --stats the pipeline stops
 * after the assembly (no llvm-mc run). */
/* The assembly with each instruction's offset from the kernel's entry
 * (--offsets: the offsets `wavecc profile` prints), from the linked code
 * object through the profiler's source map (loader/timing/source.c); NULL
 * when the two do not line up. */
static char *asm_offsets(const Compile *c, size_t *len)
{
	CodeObject co;
	TmSourceMap map;
	const uint8_t *code;
	uint64_t avail;
	if (compile_source_map(c, &co, &map, &code, &avail) != 0)
		return NULL;
	char *r = tm_source_offsets(c->asm_text.data, c->asm_text.len, &map, len);
	tm_source_map_free(&map);
	codeobj_free(&co);
	return r;
}

static int compile_files(Kernel *k, const char *out, bool asm_only, const char *launch, const CompileOptions *o,
	Diag *d, StageTimes *st, double t0, bool offsets)
{
	Compile c;
	int rc = 1;
	CompileOptions co = *o;
	if (asm_only && !st && !offsets)
		co.stop_after = "emit_assembly";
	compile_init(&c, k, &co, d);
	if (compile_run(&c) != 0)
		goto done;
	if (c.tool_msg.len)
		fputs(buf_cstr(&c.tool_msg), stderr);
	double tw = compile_now_us();
	OutputSet set;
	outputs_init(&set);
	const char *failed = out;
	const Buf *main_out = asm_only ? &c.asm_text : &c.code_object;
	size_t alen = 0;
	char *annotated = asm_only && offsets ? asm_offsets(&c, &alen) : NULL;
	if (asm_only && offsets && !annotated)
		fprintf(stderr, "wavecc: warning: --offsets: the assembly and the code object do not line up; no offsets\n");
	int w = annotated ? outputs_add(&set, out, annotated, alen, 0644)
			  : outputs_add(&set, out, main_out->data, main_out->len, 0644);
	free(annotated);
	if (w == 0 && launch) {
		failed = launch;
		size_t llen;
		char *ltext = launch_with_ops(&c, &llen);
		w = outputs_add(&set, launch, ltext, llen, 0644);
		free(ltext);
	}
	if (w != 0) {
		fprintf(stderr, "wavecc: error: cannot write %s: %s\n", failed, strerror(errno));
		outputs_abort(&set);
	} else if (outputs_commit(&set, &failed) != 0) {
		fprintf(stderr, "wavecc: error: cannot write %s: %s\n", failed, strerror(errno));
	} else {
		rc = 0;
	}
	if (rc == 0 && st) {
		double tend = compile_now_us();
		st->write_us = tend - tw;
		st->total_us = tend - t0;
		Buf rep = {0}, msg = {0};
		/* Our own linker's output that our reader rejects is a bug. */
		if (compile_stats(&rep, &c, st, &msg) != 0)
			die("--stats: %s", buf_cstr(&msg));
		fputs(buf_cstr(&rep), stdout);
		buf_free(&rep);
		buf_free(&msg);
	}
done:
	compile_free(&c);
	return rc;
}

/* Without --launch: a descriptor beside OUT only when OUT is (or will be)
 * a regular file. */
static bool regular_or_new(const char *path)
{
	if (strcmp(path, "-") == 0)
		return false;
	struct stat st;
	return stat(path, &st) != 0 ? errno == ENOENT : S_ISREG(st.st_mode);
}

int cmd_compile(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *launch_opt = NULL, *mcpu = "gfx942", *llvm_mc = NULL, *v;
	bool asm_only = false, stats = false, verbose = false, offsets = false;
	CompileOptions o = {0};
	ManyOptions many = {0};
	Vec(const char *) inputs = {0};
	Vec(int64_t) sweep_vals[MAX_DEFS] = {{0}};
	int rc;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (opt_common(a, "compile", usage, &rc)) {
			return rc;
		} else if (strcmp(a, "-S") == 0) {
			asm_only = true;
		} else if (strcmp(a, "--stats") == 0) {
			stats = true;
		} else if (strcmp(a, "--offsets") == 0) {
			offsets = true;
		} else if (strcmp(a, "--dump-mir") == 0) {
			o.dump = ~0u;
		} else if (strcmp(a, "--dump-plan") == 0) {
			o.dump_plan = true;
		} else if (strcmp(a, "-v") == 0) {
			verbose = true;
		} else if (opt_value(argc, argv, &i, "-o", &v)) {
			out = v;
		} else if (opt_value(argc, argv, &i, "--launch", &v)) {
			launch_opt = v;
		} else if (opt_value(argc, argv, &i, "--mcpu", &v)) {
			mcpu = v;
		} else if (opt_value(argc, argv, &i, "--llvm-mc", &v)) {
			llvm_mc = v;
		} else if (opt_value(argc, argv, &i, "--sweep", &v)) {
			/* SYM=V1,V2,...: one variant per value */
			const char *eq = strchr(v, '=');
			if (!eq || eq == v || !eq[1])
				usage_err("compile: --sweep needs SYM=V1,V2,..., got '%s'", v);
			if (many.nsweeps == MAX_DEFS)
				usage_err("compile: at most %d --sweep options", MAX_DEFS);
			Sweep *sw = &many.sweep[many.nsweeps];
			sw->name = intern_n(v, (size_t)(eq - v));
			for (int s = 0; s < many.nsweeps; s++)
				if (many.sweep[s].name == sw->name)
					usage_err("compile: --sweep %s given twice", sw->name);
			for (const char *p = eq + 1; *p;) {
				const char *comma = strchr(p, ',');
				size_t len = comma ? (size_t)(comma - p) : strlen(p);
				char num[64];
				if (len == 0 || len >= sizeof num)
					usage_err("compile: --sweep %s: bad value list '%s'", sw->name, eq + 1);
				memcpy(num, p, len);
				num[len] = 0;
				vec_push(&sweep_vals[many.nsweeps], opt_int("--sweep", num));
				p = comma ? comma + 1 : p + len;
				if (comma && !*p)
					usage_err("compile: --sweep %s: bad value list '%s'", sw->name, eq + 1);
			}
			sw->nvals = (int)sweep_vals[many.nsweeps].len;
			sw->vals = sweep_vals[many.nsweeps].data;
			many.nsweeps++;
		} else if (opt_schedule(argc, argv, &i, &o)) {
			;
		} else if (opt_define(argc, argv, &i, &o) || opt_codegen(a, &o)) {
			continue;
		} else if (a[0] == '-' && a[1]) {
			usage_err("compile: unknown option '%s'", a);
		} else {
			if (!in)
				in = a;
			vec_push(&inputs, a);
		}
	}
	if (inputs.len > 1 || many.nsweeps) {
		if (launch_opt || stats || (out && strcmp(out, "-") == 0) || o.dump || o.dump_plan)
			usage_err("compile: with several kernels or --sweep, -o names a folder; --launch, --stats, "
				  "--dump-mir, --dump-plan and -o - are for one kernel");
		if (!target_from_name(mcpu))
			usage_err("compile: --mcpu %s: expected gfx942 or gfx90a, optionally followed by :sramecc+ or "
				  ":sramecc- and then :xnack+ or :xnack-", mcpu);
		o.mcpu = mcpu;
		o.llvm_mc = llvm_mc;
		o.verbose = verbose;
		many.ninputs = (int)inputs.len;
		many.inputs = inputs.data;
		many.dir = out ? out : ".";
		many.asm_only = asm_only;
		rc = compile_many(&many, &o);
		vec_free(&inputs);
		for (int s = 0; s < many.nsweeps; s++)
			vec_free(&sweep_vals[s]);
		return rc;
	}
	vec_free(&inputs);
	if (opt_version_only(verbose, in))
		return 0;
	if (!in)
		usage_err("compile: no kernel file");
	if (!target_from_name(mcpu))
		usage_err("compile: --mcpu %s: expected gfx942 or gfx90a, optionally followed by :sramecc+ or :sramecc- and then :xnack+ or :xnack-", mcpu);
	if (stats && out && strcmp(out, "-") == 0)
		usage_err("compile: --stats and -o - would both write to standard output");
	if (launch_opt && strcmp(launch_opt, "-") == 0 && (!out || strcmp(out, "-") == 0))
		usage_err("compile: --launch - and the output cannot both go to standard output");
	o.mcpu = mcpu;
	char *out_owned = out ? NULL : base_name_with(in, asm_only ? ".s" : ".hsaco");
	if (!out)
		out = out_owned;
	bool to_stdout = strcmp(out, "-") == 0;
	char *launch = NULL, *obj_path = NULL;
	if (launch_opt)
		launch = xstrdup(launch_opt);
	else if (!asm_only && regular_or_new(out))
		launch = replace_suffix(out, ".hsaco", ".launch.json");
	/* The code object the descriptor names: OUT, or with -S what `wavecc
	 * as OUT` writes; K's base name when OUT is standard output. */
	if (to_stdout)
		obj_path = base_name_with(in, ".hsaco");
	else
		obj_path = asm_only ? replace_suffix(out, ".s", ".hsaco") : xstrdup(out);
	char *ref = launch ? code_object_ref(launch, obj_path) : NULL;
	o.code_object = ref ? ref : "kernel.hsaco";

	Diag d;
	diag_init(&d);
	rc = 1;
	double t0 = compile_now_us();
	Kernel *k = load_kernel_file(in, &d);
	StageTimes st = {.load_us = compile_now_us() - t0, .write_us = -1};
	for (int i = 0; k && i < o.ndefs; i++)
		if (!kernel_symbol(k, o.def_name[i])) { /* as in interp and run: bad usage */
			char msg[512];
			snprintf(msg, sizeof msg, "compile: -D %s: kernel %s has no symbol of that name", o.def_name[i],
				k->name);
			kernel_free(k);
			free(out_owned);
			free(launch);
			free(obj_path);
			free(ref);
			usage_err("%s", msg);
		}
	if (k) {
		o.llvm_mc = llvm_mc;
		o.verbose = verbose;
		o.dump_out = stderr;
		rc = compile_files(k, out, asm_only, launch, &o, &d, stats ? &st : NULL, t0, offsets);
		kernel_free(k);
	}
	free(out_owned);
	free(launch);
	free(obj_path);
	free(ref);
	return rc;
}
