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
#include "machine/machine.h"

enum { MAX_DIMS = 8, MAX_DEFS = 32, MAX_PASSES = 24 };

typedef struct CompileOptions {
	const char *mcpu;    /* "gfx942" (NULL) or "gfx90a" */
	int ndefs;           /* -D SYM=VAL */
	const char *def_name[MAX_DEFS];
	int64_t def_val[MAX_DEFS];
	const char *code_object; /* file name the launch descriptor refers to */
	unsigned dump;       /* bit per pass index: print the MIR after it */
	const char *stop_after; /* a pass's function name: stop after it (dump-indices) */
} CompileOptions;

/* How one dimension of the iteration space is distributed (constraints.c). */
typedef struct DimDist {
	Sym *dim;        /* SYM_SYMBOL */
	int64_t size;    /* the dimension's extent, after substitution */
	int64_t wg_tile; /* elements per workgroup */
	int wg_dim;      /* workgroup grid dimension 0..2 */
	int64_t wave_tile; /* elements per wave */
	int waves;       /* waves per workgroup along this dim */
} DimDist;

/* A loop from a tiling constraint (constraints.c): the iterate op over dim
 * runs `trips` times with induction variable iv = 0, 1, ... */
typedef struct TileLoop {
	Sym *dim;
	Sym *iv;       /* $ARG<dim> unless the constraint names another */
	int64_t size, tile, trips;
} TileLoop;

/* One dim of a node's per-thread index (Wave's IndexSequence, after
 * expansion). The thread holds, for each expansion copy c (0..copies-1),
 * `size` elements along this dim: element $J of copy c is at
 *     coord[$J] + c * step
 * (coord is start + $J for a plain run; MMA accumulator layouts with
 * Wave's GPR_NUM are written directly in $J). At most one dim of a node
 * has size > 1. stride is Wave's (offset within the op's vector shape),
 * kept for printing. */
typedef struct DimIndex {
	Sym *dim;
	Sym *start;  /* coord at $J = 0 */
	Sym *coord;  /* over $T*, $WG*, $ARG*, $J */
	int64_t size, stride;
	int64_t copies, step;
	int64_t limit; /* the reduced dim of a reduction: coords >= limit lie
			* past its only window and take no part (0: none) */
} DimIndex;

/* The per-thread index of one op (indices.c): its dims in the order of the
 * op's shape. The thread's elements are numbered copy-major: element
 * e = c * epc + j, with copies numbered row-major over the dims' copy
 * counts (the first dim slowest). */
typedef struct NodeIndex {
	int ndims;
	DimIndex d[MAX_DIMS];
	int64_t ncopies; /* product of the copies */
	int64_t epc;     /* elements per copy: the product of the sizes */
} NodeIndex;

typedef enum IndexMode { IM_READ_WRITE, IM_REDUCE, IM_MMA } IndexMode;

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
	int ntile;
	TileLoop tile[MAX_DIMS];
	int64_t grid[3];
	int wg_size[3];

	/* indices.c: the per-thread index of each op with a register result
	 * or a memory access, by op id (NULL for others); the assumptions
	 * every index expression is simplified under (thread, workgroup and
	 * loop ranges, $J in [0, MAX_EPC)). */
	IndexMode mode;
	NodeIndex **index;
	SymAssume *assume;
	int lds_bytes; /* isel: LDS the kernel allocates (block reductions) */

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
/* Register allocation located at the graph op where a file ran out; the
 * assignment is kept (c->ra) for check_allocation, which checks it
 * independently and releases it (0 problems when nothing is kept). */
void allocate_registers(Compile *c);
int check_allocation(Compile *c, Buf *msg);
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
/* The loop over dim, or NULL. */
TileLoop *compile_tile(Compile *c, const Sym *dim);
/* The coordinate along index dim i of element j of copy number cn. */
Sym *index_coord(Compile *c, const NodeIndex *x, int i, int64_t cn, int64_t j);
/* x's dim d, or NULL. */
const DimIndex *index_dim(const NodeIndex *x, const Sym *d);
/* "{M: start : size : stride, ...}" for copy number cn, SymPy syntax. */
void index_print(Buf *b, Compile *c, const NodeIndex *x, int64_t cn);

/* ---- isel/isel.c ---- */
void select_instructions(Compile *c);



/* ---- asm/emit.c ---- */
void emit_assembly(Compile *c);

#endif
