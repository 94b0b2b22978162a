/* driver.h — the compiler's driver: the compile state and the pipeline that
 * takes a kernel graph to a code object, in memory (driver/pipeline.c).
 *
 * A compilation is one Compile: the caller's kernel (never modified: the
 * graph analyses work on a view of it, passes/graph/analysis.h), the
 * options, the machine function isel builds, and the outputs — assembly
 * text, the launch descriptor, the relocatable object and the linked code
 * object — with the wall time of every pipeline row. Every stage takes only
 * its own IR; the pipeline list in pipeline.c is the one place that knows
 * their order.
 *
 * Errors: bad input is reported through the Diag as located diagnostics and
 * compile_run returns -1; nothing is printed elsewhere and nothing exits.
 * Compiler bugs die().
 *
 * Ownership: compile_free releases everything the Compile holds; the
 * kernel and the Diag stay the caller's and must outlive it. */
#ifndef WAVECC_DRIVER_H
#define WAVECC_DRIVER_H

#include "../passes/graph/analysis.h"
#include "../passes/plan/plan.h"
#include "../passes/machine/machine.h"

enum { MAX_PASSES = 24 };

typedef struct CompileOptions {
	const char *mcpu;        /* a target ID: "gfx942" (NULL), "gfx90a", "gfx942:sramecc-" ... */
	int ndefs;               /* -D SYM=VAL */
	const char *def_name[MAX_DEFS];
	int64_t def_val[MAX_DEFS];
	const char *code_object; /* file name the launch descriptor refers to */
	const char *llvm_mc;     /* the llvm-mc to run (NULL: search, asm/llvm_mc.c) */
	bool verbose;            /* say which llvm-mc runs, on stderr */
	unsigned dump;           /* bit per pass index: print the MIR after it to dump_out */
	FILE *dump_out;
	bool dump_plan;          /* print the loop plan to dump_out once allocation chose the form */
	const char *stop_after;  /* a pipeline row's name: stop after it (dump-indices, -S) */
	bool no_schedule;        /* skip the list scheduler (passes/machine/sched.c): --no-schedule */
	/* --schedule, --lds-stages, --waves-per-eu (0: the kernel's "options",
	 * else the default; options.c) */
	ScheduleKind schedule;
	int lds_stages, waves_per_eu;
	const char *interleave;  /* --interleave (NULL: the kernel's, if any) */
	/* denorm_fp_math_f32 over the kernel's (the library's options) */
	enum { F32_DENORM_KERNEL, F32_DENORM_KEEP, F32_DENORM_FLUSH } f32_denorm;
	int branch_reach;        /* dwords a short branch may jump (relax_branches; 0: the hardware's
	                            RELAX_REACH): tests set it low to make every branch long */
} CompileOptions;

typedef struct Compile {
	const Kernel *k;   /* the caller's kernel, as written */
	const Target *t;
	CompileOptions opt;
	Diag *diag;
	Analysis an;       /* graph analyses, over a view of k */
	MFunc *mf;         /* isel → regalloc → machine passes */
	struct RegAssign *ra; /* allocate_registers → check_allocation */

	/* outputs */
	int kernarg_size;
	Buf asm_text;
	Buf launch_json;
	Buf reloc;         /* llvm-mc's relocatable object */
	Buf code_object;   /* the linked code object */
	Buf tool_msg;      /* llvm-mc's warnings on success */

	int next_row;      /* the row compile_run starts at (it resumes after stop_after) */
	SchedOptions order; /* the asked instruction order (its groups; options.c) */
	int hoisted;       /* instructions hoist_invariants moved */
	/* what allocation spilled (allocate_registers; --stats): values to
	 * AGPRs or VGPR lanes, values and dwords per work-item to scratch */
	int spilled, scratch_values, scratch_dwords;
	Plan plan;         /* plan_loops → select_instructions (lighter ones: allocate_registers) */

	/* wall time of each pipeline row, in PIPELINE order (names in
	 * compile_pass_name), and of the verifier and checkers run between
	 * passes, in microseconds; read by --stats and bench/compile_bench. */
	double pass_us[MAX_PASSES];
	double check_us;
} Compile;

/* ---- pipeline.c ---- */
/* Start compiling k; an unknown o->mcpu is reported through d and makes
 * compile_run fail. */
void compile_init(Compile *c, const Kernel *k, const CompileOptions *o, Diag *d);
void compile_free(Compile *c);
/* Run the pipeline to the end (or o->stop_after), from the first row not
 * run yet: after stopping, clearing c->opt.stop_after and calling it again
 * resumes. Returns 0, or -1 after errors were reported through the Diag. */
int compile_run(Compile *c);
static inline bool compile_failed(const Compile *c) { return c->an.failed; }
/* The rows' names in pipeline order (compile_npasses of them), and whether
 * each is the compiler's own work (not llvm-mc or the linker). */
extern const char *const compile_pass_name[];
extern const bool compile_pass_own[];
extern const int compile_npasses;
/* The index of the row called name, or -1. */
int compile_pass_index(const char *name);
/* Register allocation located at the graph op where a file ran out; the
 * assignment is kept (c->ra) for check_allocation, which checks it
 * independently and releases it (0 problems when nothing is kept). */
void allocate_registers(Compile *c);
/* The list scheduler, kept only where allocation confirms it costs no wave
 * and no spill (order.c); nothing with opt.no_schedule. */
void compile_order(Compile *c);
int check_allocation(Compile *c, Buf *msg);
/* ---- stats.c ---- */
/* The waves per SIMD an allocated f allows with c's workgroup on c's
 * target: registers, LDS and wave slots together (stats.c's model; 0 when
 * a workgroup does not fit on a CU). */
int compile_waves(const Compile *c, const MFunc *f);
/* The same had f taken lds_bytes of LDS. */
int compile_waves_lds(const Compile *c, const MFunc *f, int lds_bytes);
/* ---- options.c ---- */
/* c->an.opts from the command line's, the kernel's and the default
 * options; -1 after reporting one out of range. */
int compile_resolve_options(Compile *c);
/* Warn when the allocated registers exceed the waves_per_eu target. */
void compile_check_occupancy(Compile *c);
/* The VGPRs and AGPRs a wave may hold together when the workgroup's waves
 * must share SIMDs (more than 4 waves): 512 / waves per SIMD, in granules
 * of 8; 0 when each wave may have a SIMD's registers (register allocation
 * keeps within it: RaLimits.unified). */
int compile_register_cap(const Compile *c);
/* The workgroup's waves on each SIMD: ceil(waves / 4). */
int compile_simd_waves(const Compile *c);
/* ---- batch.c ---- */
/* Compile n kernels (compile_init'ed, not run) with one llvm-mc run per
 * target: each ends as compile_run would leave it, with its own code
 * object. Returns how many compiled. */
size_t compile_batch(Compile **cs, size_t n);

/* ---- build.c ---- */
struct AsmOptions;
/* Assemble text with llvm-mc and link the code object, appended to
 * code_object; 0, or -1 with llvm-mc's or the linker's messages in msg. */
int compile_build(const struct AsmOptions *o, const char *text, size_t len, Buf *code_object, Buf *msg);

/* A monotonic clock in microseconds, for the stage timings. */
double compile_now_us(void);

#endif
