/* graph.h — the kernel graph IR: one Wave kernel as the frontend loads it
 * from JSON (docs/kernel-format.md) and as the interpreter and the graph
 * passes consume it.
 *
 * Model (mirrors Wave's traced kernel one to one):
 *   Kernel      symbols (values, dynamic, address-space), constraints, the
 *               Memory arguments, and the top-level Region;
 *   Region      an ordered list of Ops (topologically sorted: every operand
 *               is defined earlier in the region or in an enclosing one) and
 *               its parameters (an iterate body's iter args);
 *   Op          one graph node: kind (GRAPH_OPS in graph_ops.h), value
 *               operands (`args`, layout per kind in graph_ops.h), results,
 *               attributes, an optional nested body (iterate), an optional
 *               precomputed per-dim index;
 *   Value       a typed value: a Memory argument, an op result or an iter
 *               arg; its type is a dtype plus a symbolic shape (a list of
 *               dimension symbols, outermost first; rank 0 is a scalar).
 *
 * Expressions (tiles, mapping expressions, index sequences, symbol values)
 * are Sym nodes of the kernel's own SymCtx (ir/sym/sym.h). Dimensions are
 * SYM_SYMBOL nodes, so `a == b` compares them.
 *
 * Ownership: every object of a kernel lives in the kernel's arena or its
 * SymCtx; kernel_free releases everything at once. Nothing is freed singly.
 * Names (values, ops, symbols) are interned strings (util intern()).
 *
 * Errors: the IR itself never sees bad input (the frontend validates it);
 * misuse of the builders is an internal error (die).
 */
#ifndef WAVECC_GRAPH_H
#define WAVECC_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "../util/dtype.h"
#include "../util/util.h"
#include "graph_ops.h"
#include "sym/sym.h"

#define GRAPH_FORMAT "wavecc-kernel/1"
/* The largest value of a dynamic symbol: it travels in a 32-bit kernel
 * argument (2^31 - 1); a dim's runtime size stays 2^16 below 2^31, which
 * keeps every coordinate of a tile of up to 2^16 elements (a workgroup's
 * whole tiles cover up to a tile past the size) a signed 32-bit value. The
 * launch rejects larger values (interp_init); the compiler assumes them
 * (passes/graph/indices.c, kernel_runtime_max). */
#define GRAPH_MAX_RUNTIME_VALUE INT64_C(2147483647)
#define GRAPH_MAX_RUNTIME_SIZE ((INT64_C(1) << 31) - 65536)

typedef enum OpKind {
#define X(e, name, cls, operands, attrs) e,
	GRAPH_OPS(X)
#undef X
	OP_COUNT
} OpKind;

typedef enum OpClass {
#define X(e, name) e,
	OP_CLASSES(X)
#undef X
	OPC_COUNT
} OpClass;

typedef enum ConKind {
#define X(e, name, fields) e,
	CONSTRAINT_KINDS(X)
#undef X
	CON_COUNT
} ConKind;

typedef enum MmaType {
	MMA_NONE = -1,
#define X(e, name, m, n, k, in, acc, native) e,
	MMA_TYPES(X)
#undef X
	MMA_COUNT
} MmaType;

typedef enum AddrSpace {
#define X(e, name, wave) e,
	ADDR_SPACES(X)
#undef X
	AS_COUNT
} AddrSpace;

typedef struct OpInfo {
	const char *name;
	OpClass cls;
	const char *operands; /* space-separated JSON keys */
	const char *attrs;
} OpInfo;
extern const OpInfo op_info[OP_COUNT];
extern const char *const op_class_name[OPC_COUNT];

typedef struct ConInfo {
	const char *name;
	const char *fields;
} ConInfo;
extern const ConInfo con_info[CON_COUNT];

typedef struct MmaInfo {
	const char *name;
	int m, n, k;
	DType in, acc;
	bool native;
} MmaInfo;
extern const MmaInfo mma_info[MMA_COUNT];

extern const char *const addr_space_name[AS_COUNT];      /* "global", "shared" */
extern const char *const addr_space_wave_name[AS_COUNT]; /* "GLOBAL_ADDRESS_SPACE", ... */

typedef struct Kernel Kernel;

/* Wave's GenericDot MMA type (constraints.py): an mma computed by dot
 * products on the vector ALU instead of an MFMA. With along_m false
 * (Wave's along_dim N) a wave computes an out_vec x (threads / k_mult)
 * tile of M x N with k_vec * k_mult k per step: lane l holds row
 * l % out_vec (the accumulator out_vec rows), column l / k_mult, and k_vec
 * consecutive k from (l % k_mult) * k_vec; along_m swaps M and N. */
typedef struct GenericDot {
	int out_vec, k_vec, k_mult;
	bool along_m;
} GenericDot;
#define GENERIC_DOT_DEFAULT ((GenericDot){1, 4, 1, false})

/* Compile options a kernel document or the command line may give (Wave's
 * schedule, multi_buffer_count / LDS stages and waves_per_eu): 0 in a field
 * means not given. */
/* Wave's SchedulingType names; driver/options.c says which compiled
 * schedule each one gets. */
typedef enum {
	SCHED_UNSET,
	SCHED_NONE,
	SCHED_PREFETCH,
	SCHED_MODULO,
	SCHED_FOUR_STAGE,
	SCHED_PREFETCH_ATTENTION,
	SCHED_COUNT
} ScheduleKind;
typedef struct KernelOptions {
	ScheduleKind schedule;
	ScheduleKind asked; /* resolved options: the schedule asked for, before mapping */
	int lds_stages;   /* LDS buffers of a pipelined loop's staged tiles: 1 or 2 */
	int waves_per_eu; /* the occupancy target: waves per SIMD the registers must allow */
	const char *interleave; /* the instruction order asked for within a trip (passes/machine/sched_groups.c) */
	bool f32_denorm_flush;  /* denorm_fp_math_f32 "preserve-sign" or "positive-zero": f32 denormals may be
				   flushed, so exp/log need no rescaling around them (isel/elt.c, interp/exec.c) */
	bool global_to_shared;  /* Wave's use_global_to_shared: on gfx950 staged tiles load straight into LDS
				   (buffer_load_dwordx4 ... lds) where isel/lds_stage.c can; elsewhere no effect */
	bool qk_ahead;          /* "qk_ahead": the first MMA of a loop's chained pair computed a trip ahead
				   (passes/plan/qk_ahead.c) */
	bool qk_ahead_set;      /* the kernel set "qk_ahead"; unset, qk_ahead.c's rule decides per loop */
	Loc loc;          /* the "options" object, for messages */
} KernelOptions;
/* "none" "prefetch" "modulo" "four_stage" "prefetch_attention" → the
 * kind, or SCHED_UNSET for another name; and back. */
ScheduleKind kernel_schedule_from_name(const char *s);
const char *kernel_schedule_name(ScheduleKind k);
#define SCHEDULE_NAMES "none, prefetch, modulo, four_stage or prefetch_attention"
typedef struct Region Region;
typedef struct Op Op;
typedef struct Value Value;

/* A symbolic shape: dims[i] are SYM_SYMBOL nodes, outermost first. */
typedef struct Shape {
	int rank;
	Sym **dims;
} Shape;

typedef enum ValKind {
	VAL_MEMORY,   /* a kernel argument: Memory[shape, address space, dtype] */
	VAL_RESULT,   /* result res_idx of op def */
	VAL_ITER_ARG, /* parameter arg_idx of an iterate body (loop-carried) */
} ValKind;

struct Value {
	ValKind kind;
	const char *name; /* interned; unique in the kernel */
	int id;           /* dense, 0..kernel.nvalues-1 */
	DType dtype;
	Shape shape;
	/* VAL_MEMORY */
	AddrSpace space;
	const char *space_sym; /* the address-space symbol it was given as, or NULL */
	int arg_idx;           /* VAL_MEMORY: position among the arguments; VAL_ITER_ARG: parameter index */
	/* VAL_RESULT */
	Op *def;
	int res_idx;
	/* VAL_ITER_ARG */
	Op *loop;
	Loc loc; /* where it was defined in the input */
};

/* An index mapping (Wave's IndexMapping). For a read, `inputs` maps each
 * memory dim to an expression of the iterators and `outputs` maps each
 * register dim to one (normally an iterator); for a write the roles swap:
 * `inputs` index the register, `outputs` the memory. dyn[i] is the symbol
 * bound to the i-th mapping_dynamic_vals value (read: args[1+i], write:
 * args[2+i]); dvm_* say which of its elements each access element takes
 * (docs/kernel-format.md, "Index mappings"). */
typedef struct Mapping {
	int niters;
	Sym **iters;
	int nin;
	Sym **in_dims;
	Sym **in_exprs;
	int nout;
	Sym **out_dims;
	Sym **out_exprs;
	int ndyn;
	Sym **dyn;
	/* dynamic_val_mappings (optional): dynamic value i is indexed at dims
	 * dvm_dims[i][0..dvm_n[i]) by expressions of the iterators; NULL:
	 * each one is indexed at the access element's register coordinates */
	int *dvm_n;
	Sym ***dvm_dims;
	Sym ***dvm_exprs;
} Mapping;

/* One dim of a precomputed index: start : size : stride. */
typedef struct IndexSeq {
	Sym *dim;
	Sym *start, *size, *stride;
} IndexSeq;

struct Op {
	OpKind kind;
	const char *name; /* interned; unique in the kernel */
	int id;           /* dense, 0..kernel.nops-1 */
	Region *parent;
	Loc loc;          /* the node's '{' in the input */
	const char *path; /* JSON path, e.g. "graph[3].body[1]" */
	const SrcLoc *src; /* its "loc": where the program that made the graph made it, or NULL */

	int nargs;
	Value **args; /* layout per kind: graph_ops.h */
	int nresults;
	Value **results;
	Region *body; /* iterate */

	/* Attributes; which ones are meaningful depends on the kind. */
	DType dtype;     /* register, scalar, cast, self_index, apply_expr */
	double value;    /* register: the splat constant; scalar: if !expr */
	int sarg;        /* scalar: 1 + its index in Kernel.scalar_args when it
	                    is a scalar kernel argument (value given at launch);
	                    0 for a constant */
	Sym *expr;       /* scalar: integer expression value; apply_expr: the expression; conditional: an expression condition */
	Shape shape;     /* register: shape; broadcast, permute: target_shape */
	Sym *dim;        /* sum/max/min, self_index: the dim; iterate: the axis */
	bool block;      /* sum/max/min */
	bool has_init;   /* sum/max/min: last arg is the init value */
	int ept;         /* elements_per_thread, 0 when not given */
	bool is_volatile; /* read, write of global memory: each access goes to memory, in program order
	                     (Wave's MemoryAccessFlags.VOLATILE; isel/memory.c) */
	bool acquire;    /* read of global memory: an acquire at agent scope ("memory_order") */
	bool release;    /* write of global memory: a release at agent scope */
	Mapping *mapping; /* read, write; NULL for the identity */
	int ndyn;        /* read, write: number of mapping_dynamic_vals */
	MmaType mma_type; /* mma: MMA_NONE = the hardware constraint's */
	GenericDot gdot;  /* mma of MMA_GENERIC_DOT: its parameters */
	int res_idx;     /* get_result */
	int ninit;       /* iterate: init args (the rest of args are implicit captures) */
	int nparams;     /* apply_expr: parameter symbols, one per register */
	Sym **params;
	int nslice;      /* extract: 1; extract_slice: entries in offset/size/stride */
	Sym **offset, **size, **stride;

	Sym **alloc_ext; /* allocate: distributed_shape, one extent per dim of `shape` */
	int padding;     /* allocate: elements at the end of the last dim's rows (in alloc_ext's) */
	int sdim;        /* scatter_add: the memory dim (position) the index register gives */
	Sym *kdim;       /* topk: the dim of the k results (op->dim: the dim it selects along) */
	int hint[4];     /* memory_counter_wait(_barrier): load, store, ds, exp (-1: not given);
	                    set_wave_prio: hint[0] the priority */

	int nindex;      /* optional precomputed index, one entry per dim */
	IndexSeq *index;
	bool has_type;   /* the input gave "type"; it matched the inferred type */
	bool spin;       /* iterate: a spin-wait (frontend/load_while.c, ld_rewrite_spin_waits): no trip bound,
			  * it ends when its while body runs in no lane */
	bool while_body; /* conditional: the body of a loop whose condition names carried values
	                    (frontend/load_while.c); no trip after one it runs in no lane does anything */
	/* A loop split in two (passes/plan/split.c, op_tail_attach): the main
	 * iterate's tail, the copy after it that runs the remaining trips, and
	 * the tail's main iterate, whose results are its inits; NULL else */
	Op *tail;
	Op *cont;
};

struct Region {
	Op *owner;      /* the iterate op, or NULL for the kernel body */
	Region *parent; /* enclosing region, NULL for the kernel body */
	int nparams;
	Value **params; /* iter args */
	Vec(Op *) ops;  /* topological order; an iterate body ends in OP_OUTPUT */
};

typedef enum SymbolKind {
	SYMK_VALUE,   /* has a value (Wave's subs): an integer expression */
	SYMK_DYNAMIC, /* no value at compile time: a trailing kernel argument */
	SYMK_ALIAS,   /* defined by a symbolic_alias constraint */
	SYMK_ADDRESS_SPACE, /* stands for an address space */
} SymbolKind;

typedef struct KSymbol {
	const char *name; /* interned */
	SymbolKind kind;
	Sym *sym;      /* the SYM_SYMBOL node */
	Sym *value;    /* SYMK_VALUE: as written; SYMK_ALIAS: the alias expression */
	Sym *resolved; /* SYMK_VALUE/ALIAS: with every value symbol substituted
	                  (may still hold dynamic symbols) */
	AddrSpace space; /* SYMK_ADDRESS_SPACE */
	int dyn_idx;   /* SYMK_DYNAMIC: position in the dynamic argument list */
	Loc loc;
} KSymbol;

typedef struct Constraint {
	ConKind kind;
	Loc loc;
	const char *path;
	Sym *dim;  /* workgroup, wave, tiling */
	Sym *tile; /* workgroup, wave, tiling (tiling default 1) */
	int wg_dim;   /* workgroup, reordering; device: the device dim */
	bool primary; /* workgroup, default true */
	Sym *iters;   /* workgroup, tiling: explicit count, or NULL */
	Sym *wave_id; /* wave: explicit wave id expression, or NULL */
	Sym *induction_var; /* tiling: default $ARG<dim> */
	Sym *start;   /* tiling: default 0 */
	Sym *expr;    /* assumption: the relation; symbolic_alias: source = expr(target); reordering: the id
		       * workgroups of hardware ids $WG0-2 take along wg_dim; grid: the workgroup count;
		       * workgroup: apply_fn, the window's start as an expression of $WG<workgroup_dim>, or NULL */
	Sym *source, *target; /* symbolic_alias */
	/* hardware */
	int threads_per_wave;
	int waves_per_block[3]; /* all 0 when not given */
	MmaType mma_type;       /* default F32_16x16x16_F16 */
	GenericDot gdot;        /* mma_type MMA_GENERIC_DOT: its parameters */
	int nvector_shapes;
	Sym **vs_dims;
	Sym **vs_sizes;
	int max_bits_per_load; /* default 128 */
} Constraint;

struct Kernel {
	Arena arena;
	SymCtx *sc;
	const char *name;
	const char *file; /* input file name for messages, or NULL */
	Vec(KSymbol) syms;      /* every named symbol, input order */
	size_t *symtab, symcap; /* name hash → index + 1 (0: empty); kernel_add_symbol keeps it */
	Vec(Constraint) cons;   /* input order */
	int hw;                 /* index of the hardware constraint in cons */
	Vec(Value *) args;      /* Memory arguments, in order */
	/* Scalar arguments (`"type": "scalar"`), in order: each is a rank-0
	 * OP_SCALAR at the top of the body with sarg set, so every stage sees
	 * a scalar whose value comes from the launch, not a new kind of value */
	Vec(Op *) scalar_args;
	Vec(Sym *) dyn_syms;    /* dynamic symbols: kernel arguments after args */
	Region *body;
	int nvalues, nops;
	Vec(Value *) values;    /* by id */
	Vec(Op *) op_list;      /* by id */
	const Kernel *view_of;  /* kernel_view: the kernel whose graph this shares */
	bool owns_graph;        /* a view with a graph of its own (kernel_view_prune) */
	Vec(Op *) detached;     /* tails taken out of the graph (op_tail_detach), freed with it */
	/* the document's optional "options" (Wave's compile options); 0: not
	 * given, the command line's or the default value applies */
	KernelOptions opts;
	/* the workgroups wait for each other (a spin-wait on what another
	 * workgroup stores): compiled only as a kernel whose whole grid is
	 * resident at once, which its launch descriptor records
	 * (docs/launch-format.md, "Co-resident kernels") */
	bool co_resident;
};

/* ---- graph.c: construction and queries ---- */
Kernel *kernel_new(const char *name);
void kernel_free(Kernel *k);
/* A view of k: the same graph, constraints, arguments and SymCtx, with its
 * own copy of the symbol table, so a pass may rebind symbols (-D) without
 * changing k. New Sym nodes still go into the shared SymCtx (hash-consed,
 * so k sees no difference). k must outlive the view; nothing may be added
 * to the view's graph. Released with kernel_view_free. */
Kernel *kernel_view(const Kernel *k);
void kernel_view_free(Kernel *v);
/* View v given a graph of its own: a copy, in the view's arena, of the
 * part of its graph to keep, the kernel it views untouched:
 *   - the ops with keep_op[id] (an iterate's body keeps its output op);
 *   - in each iterate, the carried values j whose result or iter arg has
 *     keep_val[id]: its init arg, iter arg, output value and result go
 *     together, and a get_result's res_idx follows its result;
 *   - of an iterate's implicit captures, those a kept op of its body reads.
 * Ids keep their numbers (nops and nvalues too), so tables by id still fit;
 * op_list and values hold the kept ones, scalar_args their copies (every
 * scalar argument must be kept). Memory arguments stay shared. */
void kernel_view_prune(Kernel *v, const bool *keep_op, const bool *keep_val);

/* A loop split in two (passes/plan/split.c): a copy of iterate op (a
 * view with a graph of its own), its body's ops and values with new ids
 * (nops and nvalues grow; names, indices and attributes the originals'),
 * its inits op's results, its captures op's; in no region until
 * op_tail_attach. */
Op *op_tail_new(Kernel *k, Op *op);
/* tail (op_tail_new's copy of op) put right after op, every later use of
 * op's results (in op's region and the regions nested there) made a use
 * of tail's; op->tail and tail->cont set. */
void op_tail_attach(Op *op, Op *tail);
/* op's tail taken out again, the uses of its results given back to op's;
 * the tail is kept for kernel_view_free. */
void op_tail_detach(Kernel *k, Op *op);
/* Builders (used by the frontend and by tests). Names are interned here. */
Value *kernel_add_memory(Kernel *k, const char *name, Shape shape, DType dt, AddrSpace as);
/* The returned KSymbol/Constraint pointers stay valid until the next add. */
KSymbol *kernel_add_symbol(Kernel *k, const char *name, SymbolKind kind);
Constraint *kernel_add_constraint(Kernel *k, ConKind kind);
Region *region_new(Kernel *k, Op *owner, Region *parent);
/* A new op appended to r with nargs operand slots (filled by the caller)
 * and nresults result values of the given names (NULL: name the op's). */
Op *op_new(Kernel *k, Region *r, OpKind kind, const char *name, int nargs, int nresults);
Value *region_add_param(Kernel *k, Region *r, const char *name, DType dt, Shape shape);
/* A new result value of def (res_idx), for a caller that grows def's
 * results itself (passes/plan/qk_ahead.c: an iterate's new carried value). */
Value *value_new_result(Kernel *k, Op *def, int res_idx, const char *name);
Shape shape_new(Kernel *k, int rank);
Sym *kernel_sym(Kernel *k, const char *name); /* the SYM_SYMBOL node of name */

/* Queries. */
KSymbol *kernel_symbol(const Kernel *k, const char *name); /* NULL if none */
Value *kernel_value(const Kernel *k, const char *name);    /* NULL if none */
/* The first constraint of `kind` on `dim` (NULL dim: any), or NULL. */
const Constraint *kernel_constraint(const Kernel *k, ConKind kind, const Sym *dim);
/* The largest value dynamic symbol s takes at a launch: GRAPH_MAX_RUNTIME_SIZE
 * for a dim of a memory argument, else GRAPH_MAX_RUNTIME_VALUE. */
int64_t kernel_runtime_max(const Kernel *k, const Sym *s);
const Constraint *kernel_hardware(const Kernel *k);
/* Does set_symbol op set the run-time extent of a dim that a workgroup,
 * tiling or wave constraint distributes (docs/kernel-format.md,
 * "set_symbol")? Otherwise it sets a per-element value seen by mappings. */
bool op_sets_extent(const Kernel *k, const Op *op);
/* Does set_symbol op set a symbol that a tiling constraint's iters or
 * start uses (paged decode's SPLITS_ACTIVE, KV_START_IDX)? From the op on,
 * the loops over that constraint take the set value (one per workgroup),
 * clamped to [0, kernel_runtime_max]: docs/kernel-format.md, "set_symbol". */
bool op_sets_loop_bound(const Kernel *k, const Op *op);
/* The op named name in region r or a region nested in it (its first in
 * graph order), or NULL. */
Op *region_find_op(const Region *r, const char *name);
/* Does region r (or a region nested in it) write or atomically update mem? */
bool region_writes_mem(const Region *r, const Value *mem);
/* Does it read mem (a read, or an atomic update, which reads what it adds
 * to)? */
bool region_reads_mem(const Region *r, const Value *mem);
/* Add the operand uses of r's ops (and those of the regions nested in
 * it) to uses, by value id. */
void region_count_uses(const Region *r, int *uses);
/* Moving ops between regions (the graph transformations of passes/plan):
 * op's place in r (r->ops.len if absent); op taken out of its region
 * (parent NULL); op put at place i of r, the later ops moved up. */
size_t region_place_of(const Region *r, const Op *op);
void region_take_out(Op *op);
void region_put_at(Region *r, size_t i, Op *op);
/* e with every value symbol replaced by its resolved value (symbolic
 * aliases too), simplified. Dynamic and thread symbols remain. */
Sym *kernel_subs(Kernel *k, Sym *e);
/* Set every value and alias symbol's `resolved` (kernel_resolve.c): its
 * value with the resolved values of the symbols it names substituted,
 * simplified, in dependency order, in time linear in the definitions.
 * `check` (may be NULL) sees each result and returns the one to keep (the
 * frontend reports invalid values there). Symbols on or behind a cycle are
 * left NULL; returns how many. */
typedef Sym *(*KernelResolveCheck)(void *ctx, KSymbol *s, Sym *resolved);
size_t kernel_resolve_symbols(Kernel *k, KernelResolveCheck check, void *ctx);
/* The op's mma type, falling back to the hardware constraint's. */
MmaType op_mma_type(const Kernel *k, const Op *op);
/* Wave's ScaledMMAType rows (scaled_mma's types, OCP MX operands). */
static inline bool mma_is_scaled(MmaType t) { return t == MMA_F32_16x16x128_F8F6F4 || t == MMA_F32_32x32x64_F8F6F4; }
/* SCALE_GROUP_SIZE of Wave's mxfp_utils.py and the OCP MX block: the k one
 * e8m0 scale covers. */
enum { MX_SCALE_GROUP = 32 };
/* The GenericDot parameters of an mma whose type is MMA_GENERIC_DOT. */
GenericDot op_generic_dot(const Kernel *k, const Op *op);
/* The M x N x K shape an mma of type t (parameters g, for GenericDot)
 * computes per step in a wave of `threads` lanes. */
void mma_shape(MmaType t, GenericDot g, int threads, int *m, int *n, int *kk);

/* The useful work of k's mma ops in FLOPs: each op once at its whole
 * symbolic shape (an iterate tiles one of its dims; it does not repeat the
 * op), 2 x (the accumulator's elements) x (the extent of the dims the
 * operands reduce: the lhs's dims the accumulator lacks), at k's symbol
 * values (a bound view binds -D values). 2*M*N*K for a GEMM, whatever its
 * tiles. 0 without mma ops, -1 when a dim has no value. */
double kernel_mma_flops(Kernel *k);

static inline OpClass op_class(OpKind k) { return op_info[k].cls; }
static inline const char *op_name(OpKind k) { return op_info[k].name; }
static inline bool op_is_unary(OpKind k) { return op_info[k].cls == OPC_UNARY; }
static inline bool op_is_binary(OpKind k) { return op_info[k].cls == OPC_BINARY; }
static inline bool op_is_compare(OpKind k) { return op_info[k].cls == OPC_COMPARE; }
static inline bool op_is_reduce(OpKind k) { return op_info[k].cls == OPC_REDUCE; }
static inline Value *op_result(const Op *op) { return op->nresults ? op->results[0] : NULL; }
/* atomic_add and atomic_min: a write that combines with memory and
 * returns the old values. */
static inline bool op_is_atomic(OpKind k) { return k == OP_ATOMIC_ADD || k == OP_ATOMIC_MIN; }
/* Ops that store into their memory operand: write, the atomics,
 * scatter_add (its memory is args[2], the others' args[1]). */
static inline bool op_stores(OpKind k) { return k == OP_WRITE || op_is_atomic(k) || k == OP_SCATTER_ADD; }
/* The explicit workgroup barriers: an s_barrier where they stand. */
static inline bool op_is_barrier(OpKind k)
{
	return k == OP_SHARED_MEMORY_BARRIER || k == OP_WORKGROUP_BARRIER || k == OP_MEMORY_COUNTER_WAIT_BARRIER;
}
/* Wave's scheduling hints: no operands, no results, no effect on any value
 * (an s_waitcnt, an s_setprio or nothing where they stand). */
static inline bool op_is_hint(OpKind k)
{
	return k == OP_MEMORY_COUNTER_WAIT || k == OP_SET_WAVE_PRIO || k == OP_SCHEDULING_BARRIER ||
	       k == OP_SCHEDULING_GROUP_BARRIER;
}
/* The memory operand of a memory access (read, write, atomics,
 * scatter_add), or NULL. */
static inline Value *op_memory(const Op *op)
{
	switch (op->kind) {
	case OP_READ: return op->args[0];
	case OP_WRITE: case OP_ATOMIC_ADD: case OP_ATOMIC_MIN: return op->args[1];
	case OP_SCATTER_ADD: return op->args[2];
	default: return NULL;
	}
}
/* A workgroup-local buffer: the result of an allocate op (Wave's
 * tkw.allocate), held in LDS, one per workgroup. */
static inline bool value_is_local(const Value *v) { return v->kind == VAL_RESULT && v->def->kind == OP_ALLOCATE; }
/* A memory value: a Memory argument or an allocation. */
static inline bool value_is_memory(const Value *v) { return v->kind == VAL_MEMORY || value_is_local(v); }
/* sum/max/min: the reduced sources and the optional init. */
static inline int op_reduce_nsrc(const Op *op) { return op->nargs - (op->has_init ? 1 : 0); }
static inline Value *op_reduce_init(const Op *op)
{
	return op->has_init ? op->args[op->nargs - 1] : NULL;
}
OpKind op_from_name(const char *name); /* OP_COUNT if unknown */
ConKind con_from_name(const char *name); /* CON_COUNT if unknown */
MmaType mma_from_name(const char *name); /* MMA_NONE if unknown */
/* "global"/"shared" or Wave's GLOBAL_ADDRESS_SPACE/SHARED_ADDRESS_SPACE;
 * AS_COUNT if neither. */
AddrSpace addr_space_from_name(const char *name);
/* Is `field` one of the space-separated words of `list`? */
bool graph_field_in_list(const char *list, const char *field);
/* Dim d's position in s, or -1. */
int shape_find(Shape s, const Sym *d);
bool shape_eq(Shape a, Shape b);

/* ---- graph_print.c ---- */
/* The readable form printed by `wavecc dump-graph`: the symbols,
 * constraints, arguments, then one op per line with its result type,
 * nested bodies indented. Deterministic. */
void graph_print(Buf *b, const Kernel *k);
void shape_print(Buf *b, Shape s);
void value_type_print(Buf *b, const Value *v); /* "f32[M, N]" */

#endif
