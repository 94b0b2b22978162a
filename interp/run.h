/* run.h — internals of the interpreter's graph walker shared by exec.c
 * (ops, iterate, the launch) and memory.c (reads, writes, mappings). Not for
 * other stages: they use interp.h. */
#ifndef WAVECC_INTERP_RUN_H
#define WAVECC_INTERP_RUN_H

#include "../ir/graph.h"
#include "interp.h"

enum { MAX_WG_DIMS = 8, MAX_ENV = 64, MAX_DIMS = 64 };
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
	const Constraint *tiling;
	int64_t ttile, tstart;
	bool in_loop;
	int64_t iv;
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
	int nenv;
	Sym *env_sym[MAX_ENV];
	int64_t env_val[MAX_ENV];
	/* Unmapped reads made in this workgroup, by result value id
	 * (memory.c): the tensor is the same for every wave with the same
	 * windows until a write; cleared at each workgroup and each write. */
	ITensor **read_memo;
	Vec(Sym *) cache_from; /* interp_subs memo */
	Vec(Sym *) cache_to;
} Run;

/* exec.c */
int run_fail(Run *r, const Op *op, const char *fmt, ...) PRINTF_LIKE(3, 4);
int run_fail_con(Run *r, const Constraint *c, const char *fmt, ...) PRINTF_LIKE(3, 4);
void run_env_push(Run *r, Sym *s, int64_t v);
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

/* memory.c */
/* Global coordinates of element i of x. */
void run_coords(const ITensor *x, int64_t i, int64_t *c);
/* x at coordinates c of the dims `dim` (missing or length-1 dims read
 * their only position). */
double run_at(const ITensor *x, int n, const char *const *dim, const int64_t *c);
int interp_exec_read(Run *r, const Op *op);
int interp_exec_write(Run *r, const Op *op);
int interp_exec_atomic_add(Run *r, const Op *op);

/* threads.c: thread-dependent scalars (a pseudo-dim "$T0" over the wave's
 * lanes) and their conform to a type, each element taking its thread's
 * value; see the rule there. */
bool run_has_thread_dim(const ITensor *x);
int run_scalar_expr(Run *r, const Op *op, ITensor **out);
ITensor *run_conform_threads(Run *r, const Op *op, const ITensor *x, Shape shape, DType t);

/* ---- run.c (also) ---- */
/* run_eval_int for an expression of constraint c, located at c. */
int run_eval_con(Run *r, const Constraint *c, Sym *e, int64_t *out);
/* ceil(a / b) for a, b > 0 (0 otherwise), without a + b - 1 overflowing. */
static inline int64_t ceil_div(int64_t a, int64_t b)
{
	return b > 0 && a > 0 ? (a - 1) / b + 1 : 0;
}

#endif
