/* cmd_run.c — `wavecc run FILE.json [options]`: run a kernel on the
 * emulator or through HIP.
 *
 * The input's "format" key picks the handler from FORMATS: a launch
 * descriptor ("wavecc-launch/1", docs/launch-format.md) runs its code object
 * directly. A kernel graph ("wavecc-kernel/1") is compiled, run the same
 * way on seeded random inputs, and checked against the reference
 * interpreter (run_graph.c). Adding a format is one row and one handler.
 *
 * Both take the same options, with the same meaning (-D, --in, --out,
 * --seed, --backend, --max-instructions, --trace, -v); --mcpu, --atol and
 * --rtol only mean something for a kernel graph and are usage errors on a
 * descriptor. The command line is checked against the input before anything
 * runs: a malformed -D, --in or --out, one naming an argument the input does
 * not have, or a symbol or scalar left without a value, is a usage error
 * (exit 2) in both modes, one message and nothing else. A descriptor warns
 * about a -D it has no use for (the kernel may have been specialised by the
 * same -D at compile time) once the command line has no usage error; its
 * value must be an integer all the same (cli/defines.c). --out
 * files are written all or nothing (util.h's OutputSet): the launcher
 * writes into a private temporary folder, and only a run that fully
 * succeeded moves them to their places. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../loader/runtime/launch.h"
#include "../driver/driver.h"
#include "../util/util.h"
#include "cli.h"

typedef struct {
	const char *path;
	Vec(const char *) defs, in, out;
	RunOptions ro;
	const char *mcpu;  /* NULL: not given */
	double atol, rtol; /* < 0: by dtype */
	bool no_schedule;  /* --no-schedule */
	CompileOptions sched; /* --schedule, --lds-stages, --waves-per-eu */
} RunArgs;

static void args_free(RunArgs *a)
{
	vec_free(&a->defs);
	vec_free(&a->in);
	vec_free(&a->out);
}

/* The name of "NAME=VALUE" (interned), or NULL if malformed. */
static const char *pair_name(const char *s)
{
	const char *eq = strchr(s, '=');
	return eq && eq != s && eq[1] ? intern_n(s, (size_t)(eq - s)) : NULL;
}

/* Each line of msg on f, after prefix. */
static void print_lines(FILE *f, const char *prefix, Buf *msg)
{
	const char *s = buf_cstr(msg);
	while (*s) {
		const char *nl = strchr(s, '\n');
		int n = nl ? (int)(nl - s) : (int)strlen(s);
		fprintf(f, "%s%.*s\n", prefix, n, s);
		s += n + (nl ? 1 : 0);
	}
}

/* Usage errors of the command line against a parsed descriptor, in
 * `msg`; returns false if there is one. The warnings about -D names the
 * descriptor does not use are printed only when there is none: bad usage
 * is one message. */
static bool check_against_descriptor(RunArgs *a, LaunchDesc *d, Buf *msg)
{
	Buf warn = {0};
	bool ok = launch_check_defines(d, a->path, (int)a->defs.len, a->defs.data, true, msg, &warn);
	for (size_t i = 0; i < a->in.len + a->out.len && ok; i++) {
		const char *p = i < a->in.len ? a->in.data[i] : a->out.data[i - a->in.len];
		const char *name = pair_name(p);
		const LaunchArg *la = launch_arg(d, name);
		if (!la || la->kind != LARG_BUFFER) {
			buf_printf(msg, "%s %s: no buffer argument of that name in %s", i < a->in.len ? "--in" : "--out", p,
				a->path);
			ok = false;
		}
		for (size_t j = i < a->in.len ? 0 : a->in.len; ok && j < i; j++)
			if (pair_name(j < a->in.len ? a->in.data[j] : a->out.data[j - a->in.len]) == name) {
				buf_printf(msg, "%s %s given twice", i < a->in.len ? "--in" : "--out", name);
				ok = false;
			}
	}
	if (ok)
		print_lines(stderr, "wavecc: warning: ", &warn);
	buf_free(&warn);
	return ok;
}

int run_move_outputs(int n, const char *const *outs, const char *const *tmp_files)
{
	OutputSet set;
	outputs_init(&set);
	for (int i = 0; i < n; i++) {
		const char *dest = strchr(outs[i], '=') + 1;
		size_t len;
		char *bytes = read_file(tmp_files[i], &len);
		if (!bytes || outputs_add(&set, dest, bytes, len, 0644) != 0) {
			fprintf(stderr, "wavecc: error: --out %s: cannot write: %s (no --out file written)\n", outs[i],
				file_strerror(errno));
			free(bytes);
			outputs_abort(&set);
			return 1;
		}
		free(bytes);
	}
	const char *failed = NULL;
	if (outputs_commit(&set, &failed) != 0) {
		fprintf(stderr, "wavecc: error: --out: %s: cannot write: %s\n", failed ? failed : "?", strerror(errno));
		return 1;
	}
	return 0;
}

static int run_launch_descriptor(RunArgs *a)
{
	if (a->mcpu || a->atol >= 0 || a->rtol >= 0 || a->sched.schedule || a->sched.lds_stages || a->sched.waves_per_eu ||
		a->sched.interleave) {
		args_free(a);
		usage_err("run: --mcpu, --atol, --rtol and the schedule options apply to kernel graphs; a launch descriptor names its arch "
			  "and prints no comparison");
	}
	LaunchDesc d;
	Diag diag;
	diag_init(&diag);
	int r = 1;
	const char *tmp = NULL;
	Vec(const char *) tmp_outs = {0}, tmp_files = {0};
	Arena ar;
	arena_init(&ar);
	if (launch_parse_file(a->path, &d, &diag) != 0)
		goto out;
	Buf um = {0};
	if (!check_against_descriptor(a, &d, &um)) {
		char m[1024];
		snprintf(m, sizeof m, "%s", buf_cstr(&um));
		buf_free(&um);
		launch_free(&d);
		arena_free(&ar);
		args_free(a);
		usage_err("run: %s", m);
	}
	buf_free(&um);
	if (launch_resolve(&d, (int)a->defs.len, a->defs.data, &diag) != 0)
		goto out;
	if (a->out.len) {
		tmp = tempdir_create("wavecc-run");
		if (!tmp) {
			fprintf(stderr, "wavecc: error: cannot create a temporary folder: %s\n", strerror(errno));
			goto out;
		}
		for (size_t i = 0; i < a->out.len; i++) {
			const char *f = arena_printf(&ar, "%s/out_%zu.npy", tmp, i);
			vec_push(&tmp_files, f);
			vec_push(&tmp_outs, arena_printf(&ar, "%s=%s", pair_name(a->out.data[i]), f));
		}
	}
	a->ro.nin = (int)a->in.len;
	a->ro.in = a->in.data;
	a->ro.nout = (int)tmp_outs.len;
	a->ro.out = tmp_outs.data;
	Buf msg = {0};
	if (launch_run(&d, &a->ro, &msg) == 0)
		r = run_move_outputs((int)a->out.len, a->out.data, tmp_files.data);
	else
		fputs(buf_cstr(&msg), stderr);
	buf_free(&msg);
out:
	if (tmp)
		tempdir_remove(tmp);
	vec_free(&tmp_outs);
	vec_free(&tmp_files);
	arena_free(&ar);
	launch_free(&d);
	return r;
}

static int run_kernel_graph(RunArgs *a)
{
	GraphRun g = {
		.path = a->path,
		.ndefs = (int)a->defs.len,
		.defs = a->defs.data,
		.nin = (int)a->in.len,
		.in = a->in.data,
		.nout = (int)a->out.len,
		.out = a->out.data,
		.ro = &a->ro,
		.mcpu = a->mcpu ? a->mcpu : "gfx942",
		.atol = a->atol,
		.rtol = a->rtol,
		.no_schedule = a->no_schedule,
		.sched = &a->sched,
	};
	return run_graph_checked(&g);
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
		   "                  [--out NAME=FILE.npy]... [--seed N] [--max-instructions N] [--trace] [-v]\n"
		   "                  [--d16 clobber|preserve|auto] [--wave-order interleave|barrier|random|model]\n"
		   "                  [--wg-order forward|reverse|random|concurrent] [--fill zero|garbage] [--order-seed N]\n"
		   "                  [--memory immediate|late] [--races] [--canary] [--barriers]\n"
		   "                  [--mcpu CPU] [--atol X] [--rtol X] [--no-schedule] [--schedule S]\n"
		   "                  [--lds-stages N] [--waves-per-eu N] [--version] [-h]\n"
		   "  FILE.json is a launch descriptor (docs/launch-format.md): run its kernel; or a kernel\n"
		   "  graph (docs/kernel-format.md): compile it, run it on seeded random inputs, run the\n"
		   "  reference interpreter on the same inputs, compare every buffer the graph writes and\n"
		   "  print PASS or FAIL with the largest errors (exit 1 on a mismatch). Outputs start as a\n"
		   "  NaN canary: an element the graph writes left at it fails; NaN matches only NaN; an\n"
		   "  all-NaN reference fails (docs/interpreter.md, \"The compare of wavecc run K.json\").\n"
		   "  --backend B        emu (default): the CDNA emulator; hip: an AMD GPU through ROCm\n"
		   "  -D NAME=VALUE      bind a dynamic symbol or give a scalar argument's value; for a\n"
		   "                     kernel graph also override a symbol, as in compile (also -DNAME=VALUE)\n"
		   "  --in NAME=F.npy    initial contents of a buffer (dtype and shape are checked)\n"
		   "  --out NAME=F.npy   write a buffer after the run (for a kernel graph: the kernel's\n"
		   "                     result); all --out files are written or none; '-' is stdout\n"
		   "  --seed N           fill the buffers the kernel reads with seeded random values\n"
		   "                     (descriptors: else zeros; kernel graphs: always, default seed 1);\n"
		   "                     --random N is the same\n"
		   "  --max-instructions N  emulator: stop after N wave instructions\n"
		   "  --trace            emulator: print each executed instruction\n"
		   "  --d16 MODE         emulator: d16 loads clobber or preserve the other half (default auto:\n"
		   "                     as the code object's sramecc says; off preserves, on/any clobber)\n"
		   "  --wave-order O     emulator: how a workgroup's waves take turns: interleave (default: one\n"
		   "                     instruction each), barrier (each runs to s_barrier or its end), random,\n"
		   "                     model (as the cycle model issues them in time: wavecc profile's CU)\n"
		   "  --wg-order O       emulator: workgroups run forward (default), reverse or random, one\n"
		   "                     after another; or concurrent: all resident, an instruction of each\n"
		   "                     wave in turn (spin-waits between workgroups progress; a spin no store\n"
		   "                     can end is reported as a hang)\n"
		   "  --fill F           emulator: LDS, scratch and the registers the ABI leaves undefined start\n"
		   "                     as zero (default) or garbage (a seeded non-zero pattern)\n"
		   "  --order-seed N     emulator: the seed of the random orders and the garbage (default 0)\n"
		   "  --memory M         emulator: memory completes immediately (default) or late: a load's\n"
		   "                     registers are written at the s_waitcnt that covers it (reading them\n"
		   "                     before is an error naming the wait), a store's bytes hidden from\n"
		   "                     other waves until the writer's wait\n"
		   "  --races            emulator: report accesses of different waves of a workgroup to the\n"
		   "                     same LDS or global bytes with no s_barrier between them, or of\n"
		   "                     different workgroups, one a write (kernel graphs: a race fails the run)\n"
		   "  --canary           emulator: a buffer store dropped by the range check just past the\n"
		   "                     buffer's end (less than its size) is an error naming buffer and offset\n"
		   "  --barriers         emulator: every wave of a workgroup meets the others at the same\n"
		   "                     s_barrier instructions (waves at different ones, or one that has\n"
		   "                     ended, when a barrier is released fail the run; always on for\n"
		   "                     kernel graphs)\n"
		   "  -v                 print the version and say what runs\n"
		   "  kernel graphs only:\n"
		   "  --mcpu CPU         gfx942 (default) or gfx90a, or a target ID such as\n"
		   "                     gfx942:sramecc-:xnack+ (also -mcpu=CPU)\n"
		   "  --atol X, --rtol X tolerances for float outputs: an element passes when\n"
		   "                     |got - want| <= atol + rtol*|want|; by default each output's\n"
		   "                     follows the narrowest type a computed value is rounded to on its\n"
		   "                     way there (f32 1e-5/1e-5; f16 1e-3/2e-3, and 5e-2/5e-3 when an mma\n"
		   "                     or sum takes the f16 value after; bf16, f8 likewise; integers\n"
		   "                     exact); the PASS/FAIL line says which (docs/interpreter.md)\n"
		   "  --no-schedule      keep isel's instruction order (no list scheduling)\n"

		   OPT_SCHEDULE_USAGE);
}

static int policy_mode(EmuPolicyField f, const char *opt, const char *v, const char *expected)
{
	int m = emu_policy_parse(f, v);
	if (m < 0)
		usage_err("run: %s %s: expected %s", opt, v, expected);
	return m;
}

static void check_pair(RunArgs *a, const char *opt, const char *v)
{
	if (!pair_name(v)) {
		args_free(a);
		usage_err("run: %s %s: expected NAME=%s", opt, v, strcmp(opt, "-D") == 0 ? "VALUE" : "FILE.npy");
	}
}

int cmd_run(int argc, char **argv)
{
	RunArgs a = {0};
	a.ro.backend = BACKEND_EMU;
	a.ro.seed = 1;
	a.atol = a.rtol = -1;
	int rc = 1;
	for (int i = 1; i < argc; i++) {
		const char *v;
		if (opt_common(argv[i], "run", usage, &rc)) {
			goto out;
		} else if (opt_value(argc, argv, &i, "--backend", &v)) {
			if (strcmp(v, "emu") == 0)
				a.ro.backend = BACKEND_EMU;
			else if (strcmp(v, "hip") == 0)
				a.ro.backend = BACKEND_HIP;
			else
				usage_err("run: unknown backend '%s' (expected emu or hip)", v);
		} else if (strncmp(argv[i], "-D", 2) == 0) {
			const char *d = argv[i][2] ? argv[i] + 2 : i + 1 < argc ? argv[++i] : NULL;
			if (!d)
				usage_err("run: -D needs NAME=VALUE");
			check_pair(&a, "-D", d);
			vec_push(&a.defs, d);
		} else if (opt_value(argc, argv, &i, "--in", &v)) {
			check_pair(&a, "--in", v);
			vec_push(&a.in, v);
		} else if (opt_value(argc, argv, &i, "--out", &v)) {
			check_pair(&a, "--out", v);
			vec_push(&a.out, v);
		} else if (opt_value(argc, argv, &i, "--seed", &v) || opt_value(argc, argv, &i, "--random", &v)) {
			a.ro.random = true;
			a.ro.seed = (uint64_t)opt_int("--seed", v);
		} else if (opt_value(argc, argv, &i, "--max-instructions", &v)) {
			long long n = opt_int("--max-instructions", v);
			if (n <= 0)
				usage_err("run: --max-instructions needs a positive count");
			a.ro.max_instructions = (uint64_t)n;
		} else if (opt_value(argc, argv, &i, "--d16", &v)) { /* emulator d16 loads (loader/runtime/launch.h) */
			int m = launch_d16_parse(v);
			if (m < 0)
				usage_err("run: --d16 %s: expected clobber, preserve or auto", v);
			a.ro.d16 = (RunD16)m;
		} else if (opt_value(argc, argv, &i, "--wave-order", &v)) { /* emulator policy (loader/emu/emu.h) */
			a.ro.policy.waves = (EmuWaveOrder)policy_mode(EMU_POLICY_WAVES, "--wave-order", v, "interleave, barrier, random or model");
		} else if (opt_value(argc, argv, &i, "--wg-order", &v)) {
			a.ro.policy.wgs = (EmuWgOrder)policy_mode(EMU_POLICY_WGS, "--wg-order", v, "forward, reverse, random or concurrent");
		} else if (opt_value(argc, argv, &i, "--fill", &v)) {
			a.ro.policy.fill = (EmuFill)policy_mode(EMU_POLICY_FILL, "--fill", v, "zero or garbage");
		} else if (opt_value(argc, argv, &i, "--order-seed", &v)) {
			a.ro.policy.seed = (uint64_t)opt_int("--order-seed", v);
		} else if (opt_value(argc, argv, &i, "--memory", &v)) {
			a.ro.policy.memory = (EmuMemoryMode)policy_mode(EMU_POLICY_MEMORY, "--memory", v, "immediate or late");
		} else if (strcmp(argv[i], "--races") == 0) {
			a.ro.policy.races = true;
		} else if (strcmp(argv[i], "--canary") == 0) {
			a.ro.policy.canary = true;
		} else if (strcmp(argv[i], "--barriers") == 0) {
			a.ro.policy.barriers = true;
		} else if (opt_value(argc, argv, &i, "--mcpu", &v)) {
			if (!target_from_name(v)) /* the compiler's own list, as in compile */
				usage_err("run: --mcpu %s: expected gfx942 or gfx90a, optionally followed by :sramecc+ or :sramecc- and then :xnack+ or :xnack-", v);
			a.mcpu = v;
		} else if (opt_schedule(argc, argv, &i, &a.sched)) {
			;
		} else if (opt_value(argc, argv, &i, "--atol", &v)) {
			a.atol = tolerance("--atol", v);
		} else if (opt_value(argc, argv, &i, "--rtol", &v)) {
			a.rtol = tolerance("--rtol", v);
		} else if (strcmp(argv[i], "--no-schedule") == 0) {
			a.no_schedule = true;
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
	if (opt_version_only(a.ro.verbose, a.path)) {
		rc = 0;
		goto out;
	}
	if (!a.path)
		usage_err("run: no input file");
	/* Sniff the format; a document that does not parse is reported by the
	 * launch descriptor parser, which gives line and column. */
	char fmt[64];
	input_format(a.path, fmt, sizeof fmt);
	int (*handler)(RunArgs *) = run_launch_descriptor;
	for (size_t k = 0; k < ARRAY_LEN(FORMATS); k++)
		if (strcmp(fmt, FORMATS[k].format) == 0)
			handler = FORMATS[k].run; /* else the descriptor parser reports the unknown format */
	rc = handler(&a);
out:
	args_free(&a);
	return rc;
}
