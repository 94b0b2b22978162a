/* passes.h — the compiler's driver state and every pass, with prototypes
 * grouped by the file that defines them (QBE's all.h style).
 *
 * A compilation is one Compile: the kernel graph (ir/graph.h, owned by the
 * caller), the target, what the graph passes fill (launch geometry,
 * per-thread indices), the machine function isel builds, and the outputs
 * (assembly text, launch descriptor). Every pass is `void name(Compile *)`;
 * the pipeline (pipeline.c) lists them once, runs the MIR verifier after
 * each machine pass, and stops after the first pass that reported an error.
 *
 * Errors: bad input that the frontend accepted but the compiler cannot
 * handle (an unsupported shape of kernel, registers running out) is reported
 * with compile_error at the graph location and sets c->failed; nothing is
 * written by the caller then. Compiler bugs die().
 *
 * Ownership: everything allocated during a compilation lives in c->arena,
 * the kernel's SymCtx, or the MFunc; compile_free releases it. */
#ifndef WAVECC_PASSES_H
#define WAVECC_PASSES_H

#include "../ir/graph.h"
#include "../ir/mir.h"
#include "../util/util.h"

enum { MAX_DIMS = 8, MAX_DEFS = 32, MAX_PASSES = 24 };

typedef struct CompileOptions {
	const char *mcpu;    /* "gfx942" (NULL) or "gfx90a" */
	int ndefs;           /* -D SYM=VAL */
	const char *def_name[MAX_DEFS];
	int64_t def_val[MAX_DEFS];
	const char *code_object; /* file name the launch descriptor refers to */
	unsigned dump;       /* bit per pass index: print the MIR after it */
} CompileOptions;

/* How one dimension of the iteration space is distributed (constraints.c). */
typedef struct DimDist {
	Sym *dim;        /* SYM_SYMBOL */
	int64_t size;    /* the dimension's extent, after substitution */
	int64_t wg_tile; /* elements per workgroup */
	int wg_dim;      /* workgroup grid dimension 0..2 */
	int64_t wave_tile; /* elements per wave */
	int waves;       /* waves per workgroup along this dim */
	int64_t ept;     /* contiguous elements per thread (wg_dim 0), else 1 */
	bool partial;    /* the tile does not divide size: bounds needed */
} DimDist;

/* The per-thread access of one read or write (indices.c). For element j
 * (0..ept-1) of the thread's contiguous run along the fastest dim, the
 * element's linear index in the tensor is base + j, valid iff every
 * `conds` relation holds with the run offset j substituted for $J. */
typedef struct Access {
	Op *op;
	Value *mem;
	int64_t ept;   /* elements per thread */
	Sym *base;     /* linear element index of element 0: over $WG*, $T* */
	int64_t stride; /* linear distance between elements of the run */
	int nconds;
	Sym *conds[MAX_DIMS]; /* relations over $WG*, $T0 and $J */
	bool vector_ok; /* the run is all valid or all invalid: one wide access */
} Access;

typedef struct Compile {
	Kernel *k;
	const Target *t;
	CompileOptions opt;
	Diag *diag;
	bool failed;
	Arena arena;

	/* constraints.c */
	int ndist;
	DimDist dist[MAX_DIMS];
	int64_t grid[3];
	int wg_size[3];
	int64_t ept;       /* elements per thread along the fastest dim */

	/* indices.c: one Access per read/write op, by op id (NULL otherwise) */
	Access **access;

	/* isel → regalloc → waitcnt */
	MFunc *mf;
	struct RegAssign *ra; /* linear.c → check.c: pre-allocation copy and map */

	/* emit.c (asm/): outputs */
	int kernarg_size;
	Buf asm_text;
	Buf launch_json;

	/* pipeline.c: wall time of each pass, in PIPELINE order (names in
	 * compile_pass_name), and of the verifier and checkers run between
	 * passes, in microseconds; read by --stats and bench/compile_bench. */
	double pass_us[MAX_PASSES];
	double check_us;
} Compile;

/* ---- pipeline.c ---- */
void compile_init(Compile *c, Kernel *k, const CompileOptions *o, Diag *d);
void compile_free(Compile *c);
/* Run the whole pipeline. Returns 0, or -1 after errors were reported. */
int compile_run(Compile *c);
void compile_error(Compile *c, Loc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* An integer value of e after substitution, or report at loc and return -1. */
int64_t compile_int(Compile *c, Sym *e, Loc loc, const char *what);
/* The passes' names in pipeline order (compile_npasses of them). */
extern const char *const compile_pass_name[];
extern const int compile_npasses;
/* A monotonic clock in microseconds, for the stage timings. */
double compile_now_us(void);

/* ---- subst.c ---- */
void subst_symbols(Compile *c);

/* ---- constraints.c ---- */
void analyze_constraints(Compile *c);
/* The distribution of dim, or NULL if no workgroup constraint names it. */
DimDist *compile_dist(Compile *c, const Sym *dim);

/* ---- indices.c ---- */
void analyze_indices(Compile *c);

/* ---- isel/isel.c ---- */
void select_instructions(Compile *c);

/* ---- regalloc/linear.c ---- */
void allocate_registers(Compile *c);

/* ---- regalloc/check.c ---- */
/* If allocate_registers kept its assignment (c->ra): check it against the
 * allocated function independently, then release it. Returns the problems
 * found (appended to msg); 0 when there is nothing to check. */
int check_allocation(Compile *c, Buf *msg);

/* ---- waitcnt.c ---- */
void insert_waitcnt(Compile *c);
/* The independent checker: re-derives the waits every read needs from the
 * final instruction stream; returns unmet requirements (appended to msg). */
int check_waitcnt(const MFunc *f, Buf *msg);

/* ---- hazards.c ---- */
void resolve_hazards(Compile *c);
/* The independent checker: every hazard rule re-derived from the final
 * stream; returns unmet requirements (appended to msg). */
int check_hazards(const MFunc *f, Buf *msg);

/* ---- asm/emit.c ---- */
void emit_assembly(Compile *c);

#endif
