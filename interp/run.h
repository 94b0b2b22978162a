/* run.h — internals of the interpreter's graph walker shared by exec.c
 * (ops, iterate, the launch) and memory.c (reads, writes, mappings). Not for
 * other stages: they use interp.h. */
#ifndef WAVECC_INTERP_RUN_H
#define WAVECC_INTERP_RUN_H

#include "../ir/graph.h"
#include "interp.h"

enum { MAX_WG_DIMS = 8, MAX_ENV = 64, MAX_DIMS = 64, MAX_COND = 16, MAX_SET = 16 };
/* Largest tensor value the interpreter builds (elements); a kernel that
 * needs more is reported rather than exhausting memory. */
#define MAX_ELEMS ((int64_t)1 << 24)
/* Elements (doubles) all values of one workgroup may hold together: 512 MiB.
 * Values are windows of tiles, so tiles far larger than the tensors would
 * otherwise exhaust memory before any error. */
#define MAX_LIVE_ELEMS ((int64_t)1 << 26)

/* What the constraints say about one dim. */
typedef struct IDim {
	Sym *sym;
	const char *name;
	int64_t size;  /* -1 if it has no integer value */
	int g;         /* workgroup dim, -1 if none */
	int64_t wg_tile, wave_tile; /* wave_tile 0: no wave constraint */
	const Constraint *wgc; /* the workgroup constraint (its apply_fn: run_wg_start) */
	/* a non-primary workgroup dim (Wave's GQA kv head, tied to the query
	 * head's workgroup id) whose size is a multiple of its tile: its
	 * register coordinates follow the primary dim's workgroups past its
	 * own size, and Wave's get_index_bound puts no bound on them */
	bool unbounded;
	const Constraint *tiling;
	int64_t ttile, tstart;
	bool in_loop;
	int64_t iv;
	/* a symbolic alias source: its target and the constraint (a tiled
	 * target's loop window maps through the expression, run_window) */
	struct IDim *alias;
	const Constraint *alias_con;
} IDim;

typedef struct Run {
	Interp *in;
	Kernel *k;
	Arena arena; /* values of one workgroup's run */
	int64_t live;  /* elements allocated in arena (MAX_LIVE_ELEMS) */
	int nw;        /* waves per workgroup */
	ITensor **vals; /* nw arrays of nvalues: each wave's values by id */
	ITensor **val;  /* the current wave's array */
	IDim dims[MAX_DIMS]; /* fixed: pointers into it stay valid */
	int ndims;
	int ng;
	int64_t gcount[MAX_WG_DIMS], gwaves[MAX_WG_DIMS], gid[MAX_WG_DIMS], wid[MAX_WG_DIMS];
	bool fixed_grid; /* a grid constraint: gcount is its grid, workgroup windows start at 0 */
	int nenv;
	Sym *env_sym[MAX_ENV];
	int64_t env_val[MAX_ENV];
	/* Unmapped reads made in this workgroup, by result value id
	 * (memory.c): the tensor is the same for every wave with the same
	 * windows until a write; cleared at each workgroup and each write. */
	ITensor **read_memo;
	Vec(Sym *) cache_from; /* interp_subs memo */
	Vec(Sym *) cache_to;
	/* local.c: the buffer of each allocate op (by op id) in this
	 * workgroup, NULL before the op runs; its `written` marks the
	 * elements an op has stored (the others hold no value yet) */
	InterpArg **local;
	/* control.c: the conditions of the enclosing conditionals, innermost last */
	int ncond;
	const Value *cond[MAX_COND];
	/* control.c: the set_symbols executed in this workgroup: sym (as a
	 * dim: one position), repl (its per-lane symbol in mappings), v */
	int nset;
	struct RunSet {
		Sym *sym, *repl;
		const Value *v;
		/* a set_symbol of a distributed dim (op_sets_extent):
		 * the dim's run-time extent in this workgroup */
		bool extent;
		int64_t size;
		bool bound; /* op_sets_loop_bound: size is the value the loops' start and iters take */
	} set[MAX_SET];
	/* conc.c: a co-resident kernel's workgroups, each on a thread of its
	 * own holding the run in turn (NULL: one workgroup after another) */
	struct Conc *conc;
	int64_t wg_index; /* this workgroup's place in conc's round */
} Run;

/* conc.c: a spin-wait's trip is over and it waits on: let the next live
 * workgroup run (round-robin), or report a hang at op when every live
 * workgroup has spun a full round with nothing stored. 0, or -1 (the run
 * stops: a hang, or another workgroup failed). No-op without conc. */
int run_spin_yield(Run *r, const Op *op);
/* conc.c: a store happened (memory.c), so a waiting workgroup may be released. */
void run_note_store(Run *r);
/* conc.c: run every workgroup of proto's grid (gids[i], n of them) at once,
 * each through exec(run) on a thread of its own, one at a time in turn. */
int run_concurrent(Run *proto, const int64_t (*gids)[MAX_WG_DIMS], int64_t n, int (*exec)(Run *));

/* exec.c */
int run_fail(Run *r, const Op *op, const char *fmt, ...) PRINTF_LIKE(3, 4);
int run_fail_con(Run *r, const Constraint *c, const char *fmt, ...) PRINTF_LIKE(3, 4);
void run_env_push(Run *r, Sym *s, int64_t v);
/* control.c: e (a tiling constraint's start or iters) with the loop bounds
 * the set_symbols so far set (op_sets_loop_bound) in place of their symbols. */
Sym *run_loop_expr(Run *r, Sym *e);
/* e evaluated to an integer under the current bindings. */
int run_eval_int(Run *r, const Op *op, Sym *e, int64_t *out);
/* What the constraints say about dim d (created on first use). */
IDim *run_dim(Run *r, Sym *d);
/* The context window of dim d. */
int run_window(Run *r, const Op *op, Sym *d, int64_t *start, int64_t *ext);
/* A zeroed tensor over shape with the context windows. */
ITensor *run_source(Run *r, const Op *op, DType t, Shape shape);
/* x conformed to shape (see exec.c). */
ITensor *run_conform(Run *r, const Op *op, const ITensor *x, Shape shape, DType t);
ITensor *run_get(Run *r, const Value *v);
/* Conform x to the op's result type and store it. */
int run_set(Run *r, const Op *op, ITensor *x);
/* Global coordinates of element i of x. */
void run_coords(const ITensor *x, int64_t i, int64_t *c);
/* x at coordinates c of the dims `dim` (missing or length-1 dims read
 * their only position). */
double run_at(const ITensor *x, int n, const char *const *dim, const int64_t *c);

/* memory.c */
int interp_exec_read(Run *r, const Op *op);
int interp_exec_write(Run *r, const Op *op);
/* atomic_add, atomic_min */
int interp_exec_atomic(Run *r, const Op *op);
int interp_exec_scatter_add(Run *r, const Op *op);

/* local.c: allocations (docs/interpreter.md, "Allocations") */
/* An allocate op: a fresh buffer for the workgroup, no element written. */
int interp_local_alloc(Run *r, const Op *op);
/* The buffer of memory value mv: an argument's, or the workgroup's
 * allocation (NULL after reporting when its op has not run). */
InterpArg *run_buffer(Run *r, const Op *op, const Value *mv);
/* The start of the window along register dim d that an allocation's
 * coordinates count from: the workgroup's first coordinate (workgroup
 * id x workgroup tile) of a workgroup dim, the trip's window start inside
 * the iterate over d, else 0. */
int run_local_base(Run *r, const Op *op, Sym *d, int64_t *base);

/* control.c */
/* Do the conditions in force select the element at coordinates c of x's
 * dims? 1 yes, 0 no, -1 after reporting (a condition dim x lacks). */
int run_cond_holds(Run *r, const Op *op, const ITensor *x, const int64_t *c);
/* A conditional op: the body (exec_region, waves by select_wave) with its
 * writes masked, then its results. */
int interp_exec_conditional(Run *r, const Op *op, int (*exec_region)(Run *, Region *), void (*select_wave)(Run *, int));

/* A set_symbol op: its symbol takes the register's values from here on. */
int interp_exec_set_symbol(Run *r, const Op *op);
/* Bind the set symbols' per-lane symbols for the element at coordinates c
 * of x's dims; -1 after reporting. */
int run_bind_set_symbols(Run *r, const Op *op, const ITensor *x, const int64_t *c);

/* scan.c: cumsum over the wave's window; the block form over the waves of
 * workgroup dim g, all waves at once (select_wave picks each). */
int interp_exec_cumsum(Run *r, const Op *op);
int interp_exec_block_cumsum(Run *r, const Op *op, int g, void (*select_wave)(Run *, int));

/* topk.c */
int interp_exec_topk(Run *r, const Op *op);

/* bitcast.c */
int interp_exec_bitcast(Run *r, const Op *op);
/* scaled_mma.c: the OCP MX dot product, per 32 k one e8m0 scale */
int interp_exec_scaled_mma(Run *r, const Op *op);
/* threads.c: thread-dependent scalars (a pseudo-dim "$T0" over the wave's
 * lanes; run_conform gives each element its thread's value); see the rule
 * there. */
int run_scalar_expr(Run *r, const Op *op, ITensor **out);

/* ---- run.c (also) ---- */
/* Lanes per wave (the hardware constraint's threads_per_wave, else 64). */
int run_threads_per_wave(Run *r);

/* ---- run.c (also) ---- */
/* Has a set_symbol (control.c) set dim d (which then has one position)?
 * Not one that sets a distributed dim's extent. */
bool run_dim_is_set(const Run *r, const Sym *d);
/* Dim x's extent: the latest set_symbol of its extent in this workgroup,
 * else its size (-1 if it has none). */
int64_t run_dim_size(const Run *r, const IDim *x);
/* run_eval_int for an expression of constraint c, located at c. */
int run_eval_con(Run *r, const Constraint *c, Sym *e, int64_t *out);
/* The first coordinate of the workgroup's window along workgroup dim x:
 * id * tile, its constraint's apply_fn of the id, or 0 under a grid
 * constraint; -1 after reporting. */
int run_wg_start(Run *r, const IDim *x, int64_t *start);
/* ceil(a / b) for a, b > 0 (0 otherwise), without a + b - 1 overflowing. */
static inline int64_t ceil_div(int64_t a, int64_t b)
{
	return b > 0 && a > 0 ? (a - 1) / b + 1 : 0;
}

#endif
