/* run_graph.h — a kernel graph compiled, run on a backend and checked
 * against the reference interpreter on the same inputs, all in memory
 * (driver/run_graph.c; `wavecc run K.json` prints what it finds).
 *
 * Two steps, so that the caller can show the inputs chosen before anything
 * runs: compile_check_prepare compiles the kernel and sets up the inputs
 * (seeded random values or --in files; scalar arguments from their -D or
 * seeded), compile_check_run runs the interpreter and the code object on
 * copies of the same bytes and compares every buffer the kernel may write.
 *
 * Use: a CompileCheck zero-initialised with the caller's fields set, then
 * the two steps, then compile_check_free (also after a failed step).
 *
 * Errors: the kernel's, the compiler's and the interpreter's through the
 * Diag; the others as text in a message Buf: lines without a severity, or
 * one usage message without a newline; nothing is printed and nothing
 * exits. Compiler bugs die(). */
#ifndef WAVECC_RUN_GRAPH_H
#define WAVECC_RUN_GRAPH_H

#include "../interp/interp.h"
#include "../loader/runtime/launch.h"
#include "driver.h"

/* A scalar argument's value as the dtype holds it: its -D, else seeded. */
typedef struct CheckScalar {
	const char *name;
	DType dtype;
	double value;
} CheckScalar;

/* One buffer the kernel may write, compared: an element passes when
 * |got - want| <= atol + rtol*|want| (NaN only with NaN, an infinity only
 * with itself). */
typedef struct CheckCompare {
	const char *name;
	DType dtype;
	uint64_t count;
	double atol, rtol;
	double max_abs, max_rel;
	uint64_t bad;       /* mismatches */
	uint64_t first_bad; /* the first one's flat index, and its values */
	double got, want;
} CheckCompare;

typedef struct CompileCheck {
	/* the caller's, set before compile_check_prepare and kept until
	 * compile_check_free */
	const char *path;       /* the kernel's file, for messages */
	const Kernel *k;        /* as loaded */
	Kernel *bound;          /* k with the -D bindings applied (the interpreter's) */
	const int64_t *dyn;     /* the values of k->dyn_syms */
	CompileOptions co;      /* the target, schedule options and -D bindings of symbols */
	int ndefs, nin;
	const char *const *defs; /* the -D strings: symbols (for the launch) and scalar arguments */
	const char *const *in;   /* "NAME=FILE.npy": initial contents of a buffer */
	const RunOptions *ro;    /* the backend, the seed, the emulator's limits */
	double atol, rtol;       /* < 0: by dtype */

	/* results */
	Vec(CheckScalar) scalars;   /* compile_check_prepare, in argument order */
	Vec(CheckCompare) compared; /* compile_check_run, in the descriptor's order */
	bool pass;                  /* every compared buffer passed, and there was one */

	/* run_graph.c's */
	Compile c;
	Interp interp;
	LaunchDesc ld;
	bool have_compile, have_interp, have_ld;
	Vec(HostBuffer) hb;      /* the kernel's buffers, one per interpreter argument */
	Vec(const char *) ldefs; /* the launch's -D: symbols, then every scalar's value */
	Vec(char *) sdefs;       /* the scalars' ones, owned */
} CompileCheck;

/* Compile (the dynamic symbols stay kernel arguments: one code object for
 * every size, their -D values go to the launch), set up the interpreter,
 * fill the inputs. Returns 0; 1 after reporting bad input (through d, or in
 * msg); 2 with a usage message in msg (a -D value a scalar cannot hold).
 * ck->scalars holds the scalars set so far either way. */
int compile_check_prepare(CompileCheck *ck, Diag *d, Buf *msg);
/* Run the interpreter and the code object and compare. Returns 0 with
 * ck->compared and ck->pass filled (msg says so when the kernel writes no
 * buffer), or 1 after reporting through d or in msg. */
int compile_check_run(CompileCheck *ck, Diag *d, Buf *msg);
/* The kernel's buffer `name` after compile_check_run, and the interpreter's
 * argument that describes it (dtype, shape); NULL if there is none. */
const void *compile_check_buffer(const CompileCheck *ck, const char *name, const InterpArg **arg);
void compile_check_free(CompileCheck *ck);

/* The scalar argument of k that the -D string def ("NAME=VALUE") names, or
 * NULL (a symbol's). */
const Op *compile_scalar_def(const Kernel *k, const char *def);

#endif
