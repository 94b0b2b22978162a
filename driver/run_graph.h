/* run_graph.h — a kernel graph compiled, run on a backend and checked
 * against the reference interpreter on the same inputs, all in memory
 * (driver/run_graph.c; `wavecc run K.json` prints what it finds).
 *
 * Two steps, so that the caller can show the inputs chosen before anything
 * runs: compile_check_prepare compiles the kernel and sets up the inputs
 * (seeded random values or --in files; scalar arguments from their -D or
 * seeded), compile_check_run runs the interpreter and the code object on
 * copies of the same bytes and compares every buffer the graph writes
 * (compile_check_compare).
 *
 * Use: a CompileCheck zero-initialised with the caller's fields set, then
 * the two steps, then compile_check_free (also after a failed step).
 *
 * Errors: the kernel's, the compiler's and the interpreter's through the
 * Diag; the others as text in a message Buf: complete error lines in the
 * Diag's form (buf_diag), printed as they are, or one usage message
 * without a severity or a newline; nothing is printed and nothing exits.
 * Compiler bugs die(). */
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

/* The default tolerance of one buffer, derived from the graph
 * (compile_check_tolerances, driver/tolerance.c): the level is the narrowest
 * float type a value the compiled kernel and the interpreter may compute
 * differently is rounded to on its way to the buffer (the buffer's own dtype
 * when none is narrower); accumulated: a value rounded at that level is then
 * summed (an mma, sum, cumsum or atomic_add takes it: a chained GEMM's f16
 * intermediate), which widens the level's tolerance (not f32's or f64's).
 * at: the op that rounds there (NULL: only the buffer's dtype itself);
 * acc_at: the op that sums it. Integer buffers: atol = rtol = 0. */
typedef struct CheckTolerance {
	double atol, rtol;
	DType level;
	bool accumulated;
	const Op *at, *acc_at;
} CheckTolerance;
/* One per argument of k (out[i] for k->args.data[i]), by a fixpoint walk
 * over k's graph (docs/interpreter.md, "Tolerances"). */
void compile_check_tolerances(const Kernel *k, CheckTolerance *out);

/* One buffer compared, the kernel's (got) against the reference
 * interpreter's (want), element by element (compile_check_compare):
 *  - an element the reference wrote passes when |got - want| <= atol +
 *    rtol*|want| (NaN only with NaN, an infinity only with itself); but
 *    where the buffer was pre-filled with the canary (compile_check_fill_canary)
 *    and got still holds it, the kernel never wrote the element: it fails
 *    (`prefill`) unless want is that same bit pattern (the graph computed
 *    it: an 8-bit type, or an f8 whose only NaN is the canary);
 *  - an element the reference did not write must be bit for bit as it was
 *    before the run, as the reference left it (`stray` otherwise);
 *  - a float buffer whose every written element the reference made NaN
 *    fails (`all_nan`): such a test compares nothing.
 * max_abs and max_rel are over the written elements not left at the
 * pre-fill. */
typedef struct CheckCompare {
	const char *name;
	DType dtype;
	uint64_t count;
	double atol, rtol;
	CheckTolerance tol;          /* the derived default (compile_check_run) */
	bool atol_given, rtol_given; /* --atol, --rtol replaced it */
	double max_abs, max_rel;
	bool graph_writes;  /* false: the graph never writes the buffer (an input) */
	uint64_t written;   /* elements the reference wrote */
	uint64_t bad;       /* mismatches of every kind */
	uint64_t first_bad; /* the first one's flat index, and its values */
	double got, want;
	uint64_t prefill, first_prefill; /* written by the reference, left at the canary by the kernel */
	uint64_t stray, first_stray;     /* left by the reference, changed by the kernel */
	bool all_nan;                    /* the reference wrote NaN to every element it wrote (one at least) */
	bool pass;                       /* no mismatch and not all_nan */
} CheckCompare;

/* Compare c->count elements of type c->dtype, got against want, into c
 * (its name, dtype, count, tolerances and graph_writes already set; the
 * rest zero). written: 1 at each element the reference wrote (NULL: it
 * wrote none; interp's InterpArg.written). canary: both buffers were
 * pre-filled with compile_check_fill_canary before the run. */
void compile_check_compare(CheckCompare *c, const void *got, const void *want, const uint8_t *written, bool canary);
/* Fill n elements of type t at buf with the pre-fill canary, a bit pattern
 * a kernel does not plausibly compute: floats a quiet NaN with a
 * distinctive payload (f32 0x7fe5a5a5, f16 0x7ea5, bf16 0x7fe5, f64
 * 0x7ffda5a5a5a5a5a5; the f8 types a NaN: 0xff, 0xfd, and 0x80 for the
 * fnuz types, their only one), integers the bytes 0xa5 (odd). */
void compile_check_fill_canary(DType t, void *buf, uint64_t n);

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
	double atol, rtol;       /* < 0: the derived default (compile_check_tolerances) */

	/* results */
	Vec(CheckScalar) scalars; /* compile_check_prepare, in argument order */
	/* compile_check_run, in argument order: every buffer the graph writes
	 * (a write or an atomic_add), and any other the kernel changed */
	Vec(CheckCompare) compared;
	bool pass; /* every compared buffer passed, and the graph writes one */

	/* run_graph.c's */
	Compile c;
	Interp interp;
	LaunchDesc ld;
	bool have_compile, have_interp, have_ld;
	Vec(HostBuffer) hb;      /* the kernel's buffers, one per interpreter argument */
	Vec(bool) canaried;      /* per buffer: pre-filled with the canary (written, never read, no --in) */
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
 * ck->compared and ck->pass filled (msg says why when the graph writes no
 * buffer, or one it writes went uncompared or is not written back), or 1
 * after reporting through d or in msg. */
int compile_check_run(CompileCheck *ck, Diag *d, Buf *msg);
/* The kernel's buffer `name` after compile_check_run, and the interpreter's
 * argument that describes it (dtype, shape); NULL if there is none. */
const void *compile_check_buffer(const CompileCheck *ck, const char *name, const InterpArg **arg);
void compile_check_free(CompileCheck *ck);

/* The scalar argument of k that the -D string def ("NAME=VALUE") names, or
 * NULL (a symbol's). */
const Op *compile_scalar_def(const Kernel *k, const char *def);

#endif
