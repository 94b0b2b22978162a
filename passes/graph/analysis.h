/* analysis.h — the graph analyses and the state they fill: the analysed
 * kernel that instruction selection reads (QBE's all.h style: types, then
 * prototypes grouped by the file that defines them).
 *
 * An Analysis works on a view of the caller's kernel (kernel_view in
 * ir/graph.h): the graph is shared, the symbol table is the view's own, so
 * -D substitution (subst.c) rebinds symbols in the view and the caller's
 * kernel stays as the user wrote it (the interpreter runs that one).
 * Passes are `void name(Analysis *)`, by convention called with `c`.
 *
 * Errors: bad input that the frontend accepted but the compiler cannot
 * handle (an unsupported shape of kernel, a size it cannot compile) is
 * reported with analysis_error at the graph location and sets c->failed;
 * the later stages report through the same call (isel, register
 * allocation). Compiler bugs die().
 *
 * Ownership: everything allocated during the analyses lives in c->arena or
 * the kernel's SymCtx; analysis_free releases it and the view. */
#ifndef WAVECC_PASSES_GRAPH_ANALYSIS_H
#define WAVECC_PASSES_GRAPH_ANALYSIS_H

#include "../../ir/graph.h"
#include "../../ir/mir.h"
#include "../../util/util.h"

enum { MAX_DIMS = 8, MAX_DEFS = 32 };


/* How one dimension of the iteration space is distributed (constraints.c). */
typedef struct DimDist {
	Sym *dim;        /* SYM_SYMBOL */
	int64_t size;    /* the dimension's extent, after substitution; -1: known at run time */
	Sym *size_sym;   /* the extent as an expression of dynamic symbols (runtime sizes) */
	int64_t wg_tile; /* elements per workgroup */
	int wg_dim;      /* the hardware grid dimension 0..2 it runs on */
	int wg_logical;  /* the constraint's workgroup_dim: 2 and up fold into grid dim 2 */
	int64_t count;   /* workgroups along the dim; -1: known at run time */
	Sym *wg_start;   /* the workgroup's first element along the dim: id * wg_tile,
			  * the id $WGg or, folded, a digit of $WG2 (Wave's delinearize) */
	int64_t wave_tile; /* elements per wave */
	int waves;       /* waves per workgroup along this dim */
	Sym *wg_id;      /* the workgroup's id along the dim ($WGg or a digit of $WG2) */
	bool apply_fn;   /* wg_start is the constraint's apply_fn, not wg_id * wg_tile */
	const Sym *alias_of; /* a symbolic_alias source: its target, whose ids it
			      * shares (tiles mapped through the alias); not in the grid */
	const Sym *tied_to;  /* a non-primary workgroup constraint's dim: the primary
			      * dim of its workgroup_dim, whose ids it shares; not in the grid */
	bool unbounded;      /* tied, size a multiple of the tile: register coordinates
			      * pass the size (Wave's get_index_bound sets no bound) */
	int64_t iters;       /* the constraint's iters: the workgroup count; 0: none */
	Sym *iters_sym;      /* iters over runtime sizes (count -1): Wave's
			      * ceiling(MAX_EXTEND_SEQ_LEN / 64) */
} DimDist;

/* A loop from a tiling constraint (constraints.c): the iterate op over dim
 * runs `trips` times with induction variable iv = 0, 1, ... */
typedef struct TileLoop {
	Sym *dim;
	Sym *iv;       /* $ARG<dim> unless the constraint names another */
	int64_t size, tile, trips; /* size and trips -1: known at run time */
	Sym *trips_sym; /* runtime trips: ceiling(size / tile) over dynamic symbols */
	Sym *size_sym;  /* runtime size */
	Sym *start;     /* the first trip's window start (Wave's start; 0 by default):
			 * an integer or a wave-uniform expression of runtime sizes and $WG0-2 */
	Sym *base;      /* the trip's window start: start + iv * tile (start when one trip) */
	Sym *count;     /* trips = -1: the trip count as the kernel computes it (floor
			 * form of the ceiling, or the constraint's iters); it may be <= 0 */
	bool iters;     /* the constraint gives iters: the last window may end before
			 * the dim does */
	Loc loc;
	const char *path;
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

typedef struct Analysis {
	Kernel *k;       /* the view of the caller's kernel the passes work on */
	const Target *t;
	int ndefs;       /* -D SYM=VAL, applied by subst_symbols */
	const char *const *def_name;
	const int64_t *def_val;
	Diag *diag;
	bool failed;
	Arena arena;
	KernelOptions opts; /* the resolved compile options (driver/options.c) */

	/* constraints.c */
	int ndist;
	DimDist dist[MAX_DIMS];
	int ntile;
	TileLoop tile[MAX_DIMS];
	int64_t grid[3];   /* -1: known at run time, grid_sym[g] */
	Sym *grid_sym[3];
	int wg_size[3];
	Sym *reorder[3];   /* reordering constraints: the id workgroup $WG0-2 takes along g, or NULL */
	int64_t reorder_bound[3]; /* a reordering over a runtime grid: the most workgroups along g it was
				   * checked for (the plain order beyond); 0: no bound */

	/* indices.c: the per-thread index of each op with a register result
	 * or a memory access, by op id (NULL for others); the assumptions
	 * every index expression is simplified under (thread, workgroup and
	 * loop ranges, $J in [0, MAX_EPC)). */
	IndexMode mode;
	NodeIndex **index;
	/* MMA mode, by 2 * op id + operand (lhs 0, rhs 1): the index an mma
	 * needs an operand in when the operand is held in another layout
	 * (chained MMAs: attention's second mma on the first one's result),
	 * else NULL */
	NodeIndex **mma_operand;
	SymAssume *assume;
	/* passes/plan/qk_ahead.c: by op id, the trips past its loop's current
	 * one a read reads (its index has the loop's iv + ahead), or NULL */
	uint8_t *ahead;
	Sym *range_u;      /* trip_range.c: its proofs' symbol (u >= 0 assumed), once used */
	uint8_t *uniform;  /* uniform.c: each value's Uniformity by value id, once asked */
	int nuniform;      /* the kernel's value count when it was computed (graph
			    * passes after it add values: split tails, copies) */
} Analysis;

/* ---- analysis.c ---- */
/* Start analysing k for target t; the defines (ndefs pairs, kept by the
 * caller for the analysis' lifetime) are applied by subst_symbols. */
void analysis_init(Analysis *c, const Kernel *k, const Target *t, int ndefs, const char *const *def_name,
	const int64_t *def_val, Diag *d);
void analysis_free(Analysis *c);
void analysis_error(Analysis *c, Loc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* An integer value of e after substitution, or report at loc and return -1. */
int64_t analysis_int(Analysis *c, Sym *e, Loc loc, const char *what);
/* e after substitution when it is an expression of the kernel's runtime
 * dynamic symbols only (a size known at run time), else NULL. */
Sym *analysis_runtime(Analysis *c, Sym *e);
/* The position of runtime dynamic symbol s among the kernel's kernel
 * arguments after the buffers (dynamic symbols that -D did not bind, in
 * dynamic_symbols order), or -1. *n: how many there are. */
int analysis_runtime_arg(const Kernel *k, const Sym *s, int *n);
/* kernarg.c: the byte offset of scalar argument j (k->scalar_args) in the
 * kernarg segment, after the buffers and the runtime sizes; and the
 * segment's size (buffers, runtime sizes and scalars). */
int analysis_scalar_arg_offset(const Kernel *k, int j);
int analysis_kernarg_size(const Kernel *k);
/* A dim whose symbol is an alias of a positive rational multiple p/q of a
 * tiled or distributed dim (Wave's K/2 of packed operands, K/32 of MX
 * scales): that dim into *base; false otherwise. */
bool analysis_alias_of(Analysis *c, const Sym *dim, const Sym **base, int64_t *p, int64_t *q);
/* More than one (or a number known at run time only). */
static inline bool analysis_many(int64_t n) { return n != 1; }

/* ---- uniform.c ---- */
/* How far a value is the same across lanes (uniform.c has the rules). */
typedef enum Uniformity {
	U_VARYING, /* may differ between the lanes of a wave */
	U_WAVE,    /* the same in every lane of a wave (waves may differ) */
	U_WG,      /* the same in every lane of every wave of the workgroup */
} Uniformity;
/* Compute every value's level (after the indices: a value of rank > 0
 * takes its per-thread index into account). */
void analyze_uniformity(Analysis *c);
/* v's level; the analysis runs on first use. */
Uniformity analysis_uniformity(Analysis *c, const Value *v);

/* ---- subst.c ---- */
void subst_symbols(Analysis *c);
/* ---- dce.c ---- */
/* The ops whose results nothing needs (and an iterate's carried values
 * nothing reads) dropped from the analysed view, before the analyses. */
void eliminate_dead_ops(Analysis *c);
/* Bind ndefs symbols to values in the view v (kernel_view) and resolve
 * every symbol again; errors through d. Returns 0 or -1. The interpreter's
 * callers use it to see the same bindings the compiler does. */
int subst_bind(Kernel *v, int ndefs, const char *const *def_name, const int64_t *def_val, Diag *d);
/* The values the bindings give k's dynamic symbols, into dyn (k->dyn_syms
 * order; may be NULL): NULL, or the name of the first one without a value. */
const char *subst_dynamic_values(const Kernel *k, int ndefs, const char *const *def_name, const int64_t *def_val,
	int64_t *dyn);
/* A view of k with the bindings applied (kernel_view_free), or NULL after
 * reporting through d. */
Kernel *subst_bound_view(const Kernel *k, int ndefs, const char *const *def_name, const int64_t *def_val, Diag *d);

/* ---- constraints.c ---- */
void analyze_constraints(Analysis *c);
/* The distribution of dim, or NULL if no workgroup constraint names it. */
DimDist *analysis_dist(Analysis *c, const Sym *dim);

/* ---- indices.c ---- */
void analyze_indices(Analysis *c);
/* What the compiler has no code for yet (the interpreter runs it):
 * scaled_mma, and values of the OCP MX types narrower than a byte and the
 * e8m0 scales. Reports a located error naming the first such op (a
 * scaled_mma first) and returns false; true if there is none. The loop
 * plan asks it first, so that the indices (wavecc dump-indices) are
 * analysed and nothing later sees these ops. */
bool analysis_mx_not_compiled(Analysis *c);
/* The loop over dim, or NULL. */
TileLoop *analysis_tile(Analysis *c, const Sym *dim);
/* The coordinate along index dim i of element j of copy number cn. */
Sym *index_coord(Analysis *c, const NodeIndex *x, int i, int64_t cn, int64_t j);
/* x's dim d, or NULL. */
const DimIndex *index_dim(const NodeIndex *x, const Sym *d);
/* x with its last dim, renamed to dim, scaled by num/den (a bitcast
 * between widths regroups the elements along it); NULL where the thread's
 * run does not split into whole groups. */
NodeIndex *index_bitcast_scaled(Analysis *c, const NodeIndex *x, Sym *dim, int64_t num, int64_t den);
/* "{M: start : size : stride, ...}" for copy number cn, SymPy syntax. */
void index_print(Buf *b, Analysis *c, const NodeIndex *x, int64_t cn);

/* ---- mask_bound.c ---- */
/* Each loop whose trips past some count are proven fully masked
 * identities (causal attention's tiles above the diagonal) stops there:
 * its trip count becomes Min(trips, that count). */
void bound_masked_loops(Analysis *c);

/* ---- trip_range.c ---- */
/* A loop over a sub-range of its tiling constraint's trips: the induction
 * variable takes the values [from, to) (NULL from: 0; NULL to: up to the
 * last trip, nothing proved from above; `to` an integer or an expression
 * of runtime sizes and workgroup ids, a Min of such bounds allowed), and
 * its loads read up to `ahead` trips past the current one (a pipelined
 * loop's; never past the last trip). */
typedef struct TripRange {
	Sym *from, *to;
	int ahead;
} TripRange;
/* Does rel (over t's induction variable) hold in every trip the loads of
 * a loop over range r read? A sufficient test (trip_range.c): false means
 * not proved. */
bool analysis_range_proves(Analysis *c, const TileLoop *t, const TripRange *r, Sym *rel);

/* ---- dynindex.c: dynamic values with dynamic_val_mappings ---- */
/* The index dynamic value d of mapped access op (indexed by aix) is held
 * in so that each thread has the elements its access elements take (Wave's
 * transform_index_backwards); NULL with *why when none of this form does. */
NodeIndex *index_dyn_value(Analysis *c, const Op *op, const NodeIndex *aix, int d, const char **why);
/* The coordinate along dim of dynamic value d that element (cn, j) of the
 * access takes; NULL if the mapping does not give one. */
Sym *index_dyn_coord(Analysis *c, const Op *op, const NodeIndex *aix, int d, const Sym *dim, int64_t cn, int64_t j);
/* For each value (by id) used as a dynamic value with dynamic_val_mappings
 * in r: the first access using it and at which position (user[] zeroed
 * by the caller). */
void index_dyn_users(Region *r, Op **user, int *which);

#endif
