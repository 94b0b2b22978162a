/* cli.h — the wavecc subcommands, one X-macro row each: name, function,
 * one-line summary. main.c builds the dispatch table and `wavecc help` from
 * this list; each command lives in cli/cmd_<name>.c.
 *
 * Exit status convention for every command: 0 success, 1 bad input (or a
 * failed check), 2 bad usage. Internal errors abort through die(). */
#ifndef WAVECC_CLI_H
#define WAVECC_CLI_H

#include "../include/wavecc.h"
#include "../util/util.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define WAVECC_COMMANDS(X) \
	X("help", cmd_help, "show this help, or a command's help: wavecc help CMD") \
	X("version", cmd_version, "print the version") \
	X("dump-graph", cmd_dump_graph, "load and validate a kernel graph (JSON) and print its IR") \
	X("dump-indices", cmd_dump_indices, "print each op's per-thread index after index analysis") \
	X("interp", cmd_interp, "run a kernel graph on the reference interpreter: wavecc interp K.json") \
	X("sym", cmd_sym, "simplify symbolic index expressions, one per stdin line") \
	X("as", cmd_as, "assemble a .s file with llvm-mc and link it into a code object (.hsaco)") \
	X("info", cmd_info, "describe a code object: kernels, descriptors, metadata") \
	X("compile", cmd_compile, "compile a kernel graph (JSON) to a code object and launch descriptor, or -S assembly") \
	X("run", cmd_run, "run a launch descriptor, or compile a kernel graph, run it and check it against the interpreter") \
	X("profile", cmd_profile, "estimate a kernel's time on a modelled MI300X/MI308X/MI325X/MI250X: cycles, clock, utilisation, stall hot spots")

#define DECLARE_CMD(name, fn, summary) int fn(int argc, char **argv);
WAVECC_COMMANDS(DECLARE_CMD)
#undef DECLARE_CMD

#define WAVECC_VERSION WAVECC_VERSION_STRING

/* Shared option helpers (main.c). Every command takes -h/--help (its
 * usage on stdout, exit 0), --version (the version, exit 0) and -v (the
 * version on stderr, then verbose where the command has something to
 * say; alone, without an input file, just the version). */
/* If argv[*i] is `NAME VALUE` or `NAME=VALUE` (and for a one-letter option
 * `-oVALUE`; --mcpu also as -mcpu), store VALUE, advance *i and return 1;
 * usage error (exit 2) if VALUE is missing. */
int opt_value(int argc, char **argv, int *i, const char *name, const char **value);
/* -h/--help and --version: true (and *rc, the exit status) if `a` is one. */
bool opt_common(const char *a, const char *cmd, void (*usage)(FILE *), int *rc);
/* After parsing: with -v print the version on stderr; true if that was all
 * (-v without an input file), so the command exits 0. */
bool opt_version_only(bool verbose, const char *input);
/* The "format" string of the JSON document at path, copied into buf (""
 * when the file does not read or parse or has none: the parser the caller
 * then picks reports it with line and column). Returns buf. */
const char *input_format(const char *path, char *buf, size_t n);
/* Parse a decimal integer option value or exit 2 naming the option. */
long long opt_int(const char *name, const char *value);

/* Compile a loaded kernel (cmd_compile.c): with `launch` NULL write the
 * assembly to `out`; else assemble and link, write the code object to `out`
 * and the launch descriptor to `launch`. Atomic; nothing is left behind on
 * failure. Returns 0 or 1 (errors already reported). */
typedef struct Kernel Kernel;
typedef struct CompileOptions CompileOptions;
/* `-D SYM=VAL` (or `-DSYM=VAL`) at argv[*i] into o; false if argv[*i] is
 * not a -D option. Bad forms are usage errors. */
bool opt_define(int argc, char **argv, int *i, CompileOptions *o);
/* A code-generation switch at a (--no-schedule) into o; false if a is none. */
bool opt_codegen(const char *a, CompileOptions *o);
/* --schedule NAME, --lds-stages N, --waves-per-eu N, --interleave P into o
 * (their meaning: driver/options.c); false if argv[*i] is none of them. */
bool opt_schedule(int argc, char **argv, int *i, CompileOptions *o);
/* The usage lines of those options. */
#define OPT_SCHEDULE_USAGE \
	"  --schedule S       the reduction loop's schedule: prefetch (default: the next trip's\n" \
	"                     loads overlap this trip's MFMAs), none, or Wave's four_stage (the next\n" \
	"                     trip's LDS reads too, 2 LDS stages), modulo (prefetch with 2 LDS\n" \
	"                     stages) and prefetch_attention (prefetch)\n" \
	"  --lds-stages N     LDS buffers of a prefetched loop's staged tiles: 1 (default) or 2\n" \
	"  --waves-per-eu N   occupancy target: the schedule gives way to meet it; a warning when\n" \
	"                     the registers still allow fewer waves per SIMD\n" \
	"  --interleave P     the instruction order within a loop trip, e.g. mfma:1,lds:1,vmem-load:1:\n" \
	"                     groups of classes the scheduler fills in turn\n"
typedef struct Diag Diag;
/* The -D bindings of `defs` applied as compile applies them (defines.c), to
 * a view of k (*bound, released with kernel_view_free; k is not changed),
 * and dyn[j] filled for each of k->dyn_syms. Returns 0; 1 after reporting
 * bad input to d; 2 with a message in usage_msg (an unknown name, a dynamic
 * symbol without a value): the caller cleans up and exits 2. */
typedef struct Buf Buf;
int apply_defines(const Kernel *k, const CompileOptions *defs, int64_t *dyn, Kernel **bound, Diag *d,
	Buf *usage_msg);

/* The -D strings defs[0..n) ("NAME=VALUE", form already checked) against a
 * parsed launch descriptor (defines.c), before launch_resolve: true, or
 * false with one usage message (no newline) in um. Each name the
 * descriptor does not use gets a warning line (no "wavecc: warning: "
 * prefix) in warn, for the caller to print when there is no usage error.
 * scalars_need_values: a scalar argument without a "value" or a -D is an
 * error (run; profile takes 1). path names the descriptor in messages. */
typedef struct LaunchDesc LaunchDesc;
bool launch_check_defines(const LaunchDesc *d, const char *path, int n, const char *const *defs,
	bool scalars_need_values, Buf *um, Buf *warn);

/* Compile a kernel graph, run it on a backend and compare every buffer it
 * writes with the reference interpreter (run_graph.c). defs, in and out
 * are the command line's "NAME=VALUE" strings (syntax already checked). */
typedef struct RunOptions RunOptions;
typedef struct GraphRun {
	const char *path;
	int ndefs, nin, nout;
	const char *const *defs, *const *in, *const *out;
	const RunOptions *ro;
	const char *mcpu;
	double atol, rtol; /* < 0: by dtype */
	bool no_schedule;  /* --no-schedule */
	const CompileOptions *sched; /* its schedule, lds_stages, waves_per_eu */
} GraphRun;
int run_graph_checked(const GraphRun *g);
/* Move the files tmp_files[i] to the destinations of the --out strings
 * outs[i] ("NAME=FILE"), all or nothing (cmd_run.c). Returns 0 or 1. */
int run_move_outputs(int n, const char *const *outs, const char *const *tmp_files);

/* ---- usage.c: the only exits ---- */
/* Bad input that no file is to blame for: print "wavecc: error: msg" and
 * exit(1). */
NORETURN void err(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* Bad input at a place in a file: print "FILE:LINE:COL: error: msg" (as a
 * Diag does: as much of the location as is known) and exit(1). */
NORETURN void err_at(Loc at, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Print "FILE: error: msg" for a message about the input file `file` that
 * may already start with "FILE: " (codeobj_read's do): one name, once. */
void print_file_error(const char *file, const char *msg);
/* Bad usage: print "wavecc: usage error: msg", a pointer to the help of
 * the command set by usage_set_command ('wavecc help CMD'), and exit(2). */
NORETURN void usage_err(const char *fmt, ...) PRINTF_LIKE(1, 2);
void usage_set_command(const char *cmd);

/* ---- compile_many.c ---- */
typedef struct Sweep {
	const char *name; /* interned */
	int nvals;
	int64_t *vals;
} Sweep;
typedef struct ManyOptions {
	int ninputs;
	const char *const *inputs;
	int nsweeps;
	Sweep sweep[32]; /* MAX_DEFS (driver.h) */
	const char *dir; /* the output folder */
	bool asm_only;
} ManyOptions;
/* Compile every input times every sweep combination in one process (one
 * llvm-mc run per target) and write each into m->dir. Returns the exit
 * status. */
int compile_many(const ManyOptions *m, const CompileOptions *base);

/* The compiled kernel's launch descriptor with its op table (`ops`,
 * docs/launch-format.md; cmd_compile.c), a new string of *len bytes; as
 * compiled when there is no code object to pair with. */
struct Compile;
char *launch_with_ops(const struct Compile *c, size_t *len);
/* The profiler's source map (loader/timing/source.c) of the compiled
 * kernel's code against its assembly: 0 with *co read (codeobj_free it),
 * *map made (tm_source_map_free it), *code the kernel's first byte and
 * *avail the bytes from there to the image's end; -1 (nothing to free)
 * when there is no code object or the two do not line up. */
struct CodeObject;
struct TmSourceMap;
int compile_source_map(const struct Compile *c, struct CodeObject *co, struct TmSourceMap *map,
	const uint8_t **code, uint64_t *avail);
/* The launch descriptor's op table (`ops`, docs/launch-format.md) checks
 * that it describes the code it sits beside by this hash (FNV-1a, 64 bits)
 * of the kernel's code bytes from its entry. */
static inline uint64_t code_fnv1a(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

#endif
