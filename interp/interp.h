/* interp.h — the reference interpreter: executes a kernel graph at tensor
 * level with Wave's semantics, independent of how the compiler lowers it.
 * It shares only the frontend and the graph IR with the compiler. The
 * semantics and the numerics are documented in docs/interpreter.md.
 *
 * Two layers, one header:
 *   tensor.c  ITensor, a named-dim window onto the global index space, and
 *             the tensor-level ops (elementwise map, broadcast, permute,
 *             reduce, mma) with a documented accumulation order;
 *   exec.c    the graph walker (+ run.h, memory.c): workgroups and waves from the constraints,
 *             reads/writes through index mappings with out-of-bounds reads
 *             giving zero and out-of-bounds writes dropped, iterate loops;
 *   args.c    kernel argument buffers: .npy in and out, seeded random inputs.
 *
 * Errors: bad input (a graph the interpreter cannot execute, a wrong input
 * buffer) is reported through a Diag with the op's location and the run
 * returns -1; nothing exits. Internal bugs die(). */
#ifndef WAVECC_INTERP_H
#define WAVECC_INTERP_H

#include <stdbool.h>
#include <stdint.h>

#include "../util/dtype.h"
#include "../util/util.h"

/* ---- tensor.c ---- */

enum { IT_MAX_RANK = 8 };

/* A tensor value: dims are interned symbol names; dim i covers global
 * coordinates [start[i], start[i] + ext[i]). Elements are doubles, row-major
 * over this tensor's dim order, each exactly representable in dtype. */
typedef struct ITensor {
	DType dtype;
	int rank;
	const char *dim[IT_MAX_RANK];
	int64_t start[IT_MAX_RANK];
	int64_t ext[IT_MAX_RANK];
	int64_t count; /* product of ext (1 for rank 0) */
	double *v;
} ITensor;

/* Elementwise functions. Binary ones read x[0], x[1]; select reads
 * x[0] (condition), x[1], x[2]; unary ones x[0]. */
typedef enum ItFn {
	IT_ADD, IT_SUB, IT_MUL, IT_DIV, IT_FLOORDIV, IT_MOD, IT_MAX, IT_MIN, IT_POW, IT_FMOD, IT_ATAN2,
	IT_AND, IT_OR, IT_XOR,
	IT_EQ, IT_NE, IT_LT, IT_LE, IT_GT, IT_GE,
	IT_SELECT, IT_COPY,
	/* a float to an integer type (Wave's arith.fptosi): NaN 0, truncated
	 * toward zero, saturated to the i32 range for types of 32 bits or
	 * fewer (v_cvt_i32_f32's rule), then wrapped to the width by the
	 * rounding to the result dtype */
	IT_FPTOSI,
	IT_NEG, IT_ABS, IT_EXP, IT_EXP2, IT_LOG, IT_LOG2, IT_LOG10, IT_SQRT, IT_RSQRT, IT_RECIP,
	IT_SIN, IT_COS, IT_SINH, IT_TANH, IT_CBRT, IT_ROUND, IT_ROUNDEVEN, IT_FLOOR, IT_CEIL, IT_NOT,
	/* the same where f32 denormals may be flushed (the kernel's
	 * denorm_fp_math_f32): exp's denormal results and log's and rsqrt's
	 * denormal inputs are 0, as the compiled kernel's bare v_exp_f32,
	 * v_log_f32 and v_rsq_f32 make them */
	IT_EXP_FTZ, IT_EXP2_FTZ, IT_LOG_FTZ, IT_LOG2_FTZ, IT_LOG10_FTZ, IT_RSQRT_FTZ,
} ItFn;

/* An error message from a tensor op that got inconsistent operands. */
typedef struct ItErr {
	char msg[256];
} ItErr;

/* Round x to the nearest value of dtype t (ints: truncate and wrap). */
double it_round(DType t, double x);
/* Evaluate one element of fn; `at` is the operand dtype (integer division
 * and bitwise ops depend on it). The caller rounds to the result dtype. */
double it_apply(ItFn fn, DType rt, DType at, const double *x);

/* A zeroed tensor. */
ITensor *it_new(Arena *a, DType t, int rank, const char *const *dim, const int64_t *start, const int64_t *ext);
ITensor *it_like(Arena *a, const ITensor *x, DType t);
/* x cut to [start, start + ext) along its dim d (inside x's window). */
ITensor *it_window(Arena *a, const ITensor *x, int d, int64_t start, int64_t ext);
/* Index of dim `dim` (interned) in x, or -1. */
int it_find(const ITensor *x, const char *dim);

/* Elementwise fn over 1..4 operands broadcast by dim name; result dtype t.
 * NULL with e->msg if two windows of one dim disagree. */
ITensor *it_map(Arena *a, ItErr *e, DType t, ItFn fn, int nops, const ITensor *const *ops);
/* x broadcast/reordered/squeezed to exactly the given dims and windows: x's
 * dims must be among them (or have length 1). */
ITensor *it_expand(Arena *a, ItErr *e, const ITensor *x, int n, const char *const *dim, const int64_t *start,
	const int64_t *ext);
/* x with its dims reordered to `dim` (same set). */
ITensor *it_permute(Arena *a, ItErr *e, const ITensor *x, int n, const char *const *dim);
/* Fold fn (IT_ADD, IT_MAX, IT_MIN) over `dim` in increasing index order,
 * then combine with init (may be NULL). The result drops `dim`. */
ITensor *it_reduce(Arena *a, ItErr *e, ItFn fn, const ITensor *x, const char *dim, const ITensor *init);
/* x reduced over dim in the order of a wave's lanes (16-bit sums, whose
 * rounding depends on it): the window's coordinates dealt to 64 lanes in
 * runs of `run` (coordinate k to lane (k mod 64·run) / run), each lane
 * folding its own in coordinate order, then a butterfly over the lane
 * bits 1, 2, 4, ..., 32. */
ITensor *it_reduce_lanes(Arena *a, ItErr *e, ItFn fn, const ITensor *x, const char *dim, int64_t run);
/* acc + lhs·rhsᵀ: k dims = (lhs ∩ rhs) − acc; each acc element adds its
 * products in increasing k order, rounding to acc's dtype after each add
 * (the product itself is exact for f16/bf16/i8 inputs). */
ITensor *it_mma(Arena *a, ItErr *e, const ITensor *lhs, const ITensor *rhs, const ITensor *acc);

/* ---- exec.c ---- */

typedef struct Kernel Kernel;
typedef struct Value Value;

/* One kernel argument's buffer: C order over its evaluated shape. */
typedef struct InterpArg {
	const Value *mem; /* the Memory argument */
	const char *name; /* interned */
	DType dtype;
	int rank;
	int64_t shape[IT_MAX_RANK];
	uint64_t count;
	void *data; /* heap, count * dtype_size(dtype) bytes, zeroed at init */
	/* interp_run's record of the elements it wrote (write or atomic_add),
	 * in bounds and selected: NULL until it writes one, then count bytes,
	 * 1 at each element written (a caller comparing another run's result
	 * knows which elements the kernel produces) */
	uint8_t *written;
	bool scalar; /* a scalar argument (rank 0, one element); mem is the
	                result of its OP_SCALAR */
	bool mx_scale; /* 8-bit integers the kernel bitcasts to f8e8m0fnu
	                  (Wave's MX scales): interp_fill_random draws codes
	                  near 127, powers of two near 1 */
} InterpArg;

typedef struct Interp {
	Kernel *k;
	Diag *diag;
	int64_t *dyn; /* values of k->dyn_syms, in order */
	int nargs;
	InterpArg *args; /* one per k->args, in order, then one per
	                    k->scalar_args (after every buffer, so a buffer's
	                    position is its index in k->args) */
} Interp;

/* Bind the dynamic symbols (dyn_vals[i] for k->dyn_syms.data[i]; NULL when
 * there are none), evaluate every argument's shape and allocate zeroed
 * buffers. Returns 0, or -1 with a diagnostic (a shape that is not a
 * non-negative integer, a tensor too large to hold). interp_free releases
 * the buffers even after a failure. */
int interp_init(Interp *in, Kernel *k, const int64_t *dyn_vals, Diag *d);
void interp_free(Interp *in);
/* The argument called `name`, or NULL. */
InterpArg *interp_arg(Interp *in, const char *name);
/* Execute the kernel over every workgroup and wave, reading and writing the
 * argument buffers. Returns 0, or -1 with a located diagnostic. */
int interp_run(Interp *in);

/* ---- args.c ---- */

typedef struct Sym Sym;
/* e with every symbol that has a value (or is an alias) replaced by its
 * value as written, repeatedly, through the canonicalising constructors
 * only: no simplification, so evaluation does not depend on the
 * simplifier. Dynamic and bound symbols remain. */
Sym *interp_subs(Kernel *k, Sym *e);

/* Fill a buffer with the documented seeded generator (docs/interpreter.md):
 * a 64-bit splitmix sequence seeded by seed and the argument's position;
 * floats uniform on the multiples of 1/64 in [-2, 2), ints uniform in
 * [-8, 8), i1 and unsigned ints in [0, 2) and [0, 16); an mx_scale
 * buffer 123 + r % 9, the e8m0 codes of 2^-4 .. 2^4 (uniform random bytes
 * would be scales up to 2^128 and NaN). */
void interp_fill_random(InterpArg *a, uint64_t seed, int position);
/* Set a scalar argument from text (`-D NAME=TEXT`): an integer (decimal or
 * 0x hex) for integer dtypes, a real number for float ones, which must be
 * exactly representable in the dtype after rounding to it (floats round to
 * nearest even; integers must fit). Returns 0, or -1 with err filled. */
int interp_set_scalar(InterpArg *a, const char *text, char *err, size_t err_len);
/* Read a .npy file into the argument, checking dtype and shape. */
int interp_load_npy(InterpArg *a, const char *path, char *err, size_t err_len);
/* Write the argument as a .npy file, atomically. */
int interp_save_npy(const InterpArg *a, const char *path, char *err, size_t err_len);

#endif
