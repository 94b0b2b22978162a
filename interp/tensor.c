/* tensor.c — the reference interpreter's tensors and the tensor-level ops.
 *
 * An ITensor is a window onto the kernel's global index space: each dim is a
 * named symbol (M, K2, ...) with the global coordinate of its first element
 * (`start`) and a length (`ext`). Elements are doubles, row-major over the
 * tensor's own dim order, and every element always holds a value exactly
 * representable in the tensor's dtype: each op computes in double and rounds
 * once to the result dtype (it_round). For f32 +,-,*,/ and sqrt that is the
 * correctly rounded IEEE result, because a double holds the exact result of
 * those ops on f32 operands to more than 2*24+2 bits.
 *
 * Ops address dims by name, never by position, so the dim order only
 * matters to permute and to whoever reads a tensor out. Binary ops broadcast
 * NumPy-style but by name: a dim missing from one operand, or of length 1 in
 * it, is repeated; two windows of the same dim that differ otherwise are an
 * error (reported through the Interp's diagnostic hook, not an abort, since
 * a malformed graph can cause it).
 *
 * Accumulation order (documented in docs/interpreter.md): mma adds products
 * to the accumulator in increasing k order (row-major over the k dims), each
 * step rounded to the accumulator dtype; reductions fold in increasing index
 * order, then combine with `init` last. With one k dim and an f32 or f64
 * accumulator, mma runs a dense kernel that interleaves the elements but
 * keeps each element's order and rounding (mma_dense). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"

double it_round(DType t, double x)
{
	unsigned char tmp[8];
	switch (t) {
	case DT_F64: return x;
	case DT_F32: return (double)(float)x;
	case DT_I1: return x != 0;
	default:
		/* dtype_store/load carry the type's conversion: floats round to
		 * nearest even (f16/bf16 through f32), ints truncate and wrap. */
		dtype_store(t, tmp, 0, x);
		return dtype_load(t, tmp, 0);
	}
}

ITensor *it_new(Arena *a, DType t, int rank, const char *const *dim, const int64_t *start, const int64_t *ext)
{
	check_that(rank >= 0 && rank <= IT_MAX_RANK);
	ITensor *x = ARENA_NEW(a, ITensor);
	x->dtype = t;
	x->rank = rank;
	x->count = 1;
	for (int i = 0; i < rank; i++) {
		check_that(ext[i] >= 0);
		x->dim[i] = dim[i];
		x->start[i] = start[i];
		x->ext[i] = ext[i];
		x->count *= ext[i];
	}
	x->v = ARENA_NEWN(a, double, x->count ? x->count : 1);
	return x;
}

ITensor *it_window(Arena *a, const ITensor *x, int d, int64_t start, int64_t ext)
{
	check_that(d >= 0 && d < x->rank && start >= x->start[d] && start + ext <= x->start[d] + x->ext[d]);
	int64_t st[IT_MAX_RANK], ex[IT_MAX_RANK];
	memcpy(st, x->start, sizeof st);
	memcpy(ex, x->ext, sizeof ex);
	st[d] = start;
	ex[d] = ext;
	ITensor *y = it_new(a, x->dtype, x->rank, x->dim, st, ex);
	/* rows of the dims before d, each a run of ext * inner from offset */
	int64_t inner = 1, outer = 1;
	for (int i = d + 1; i < x->rank; i++)
		inner *= x->ext[i];
	for (int i = 0; i < d; i++)
		outer *= x->ext[i];
	for (int64_t o = 0; o < outer; o++)
		memcpy(y->v + o * ext * inner, x->v + (o * x->ext[d] + (start - x->start[d])) * inner,
			sizeof(double) * (size_t)(ext * inner));
	return y;
}

ITensor *it_like(Arena *a, const ITensor *x, DType t)
{
	return it_new(a, t, x->rank, x->dim, x->start, x->ext);
}

int it_find(const ITensor *x, const char *dim)
{
	for (int i = 0; i < x->rank; i++)
		if (x->dim[i] == dim)
			return i;
	return -1;
}

/* Strides of `x` seen from a joint index space of `n` dims: for each joint
 * dim, x's row-major stride if x has it with the same window, 0 if x lacks
 * it or has length 1 there (broadcast). Returns 0, or -1 with a message if
 * a window disagrees. */
static int joint_strides(const ITensor *x, int n, const char *const *dim, const int64_t *start, const int64_t *ext,
	int64_t *stride, char *msg, size_t msg_len)
{
	int64_t own[IT_MAX_RANK];
	int64_t s = 1;
	for (int i = x->rank - 1; i >= 0; i--) {
		own[i] = s;
		s *= x->ext[i];
	}
	for (int j = 0; j < n; j++) {
		int i = it_find(x, dim[j]);
		stride[j] = 0;
		if (i < 0 || (x->ext[i] == 1 && ext[j] != 1))
			continue;
		if (x->ext[i] != ext[j] || x->start[i] != start[j]) {
			snprintf(msg, msg_len, "dim %s: window [%lld, +%lld) does not match [%lld, +%lld)", dim[j],
				(long long)x->start[i], (long long)x->ext[i], (long long)start[j], (long long)ext[j]);
			return -1;
		}
		stride[j] = own[i];
	}
	/* Every dim of x must be in the joint space, or have length 1. */
	for (int i = 0; i < x->rank; i++) {
		bool found = false;
		for (int j = 0; j < n; j++)
			found |= dim[j] == x->dim[i];
		if (!found && x->ext[i] != 1) {
			snprintf(msg, msg_len, "dim %s (length %lld) has nowhere to go", x->dim[i],
				(long long)x->ext[i]);
			return -1;
		}
	}
	return 0;
}

/* The joint window of several operands: the first operand's dims in order,
 * then each later operand's new dims; a dim of length 1 takes the longer
 * window of another operand. */
static int joint_space(int nops, const ITensor *const *ops, const char **dim, int64_t *start, int64_t *ext,
	char *msg, size_t msg_len)
{
	int n = 0;
	for (int k = 0; k < nops; k++) {
		const ITensor *x = ops[k];
		for (int i = 0; i < x->rank; i++) {
			int j = 0;
			while (j < n && dim[j] != x->dim[i])
				j++;
			if (j == n) {
				if (n == IT_MAX_RANK) {
					snprintf(msg, msg_len, "more than %d dims", IT_MAX_RANK);
					return -1;
				}
				dim[n] = x->dim[i];
				start[n] = x->start[i];
				ext[n] = x->ext[i];
				n++;
			} else if (ext[j] == 1 && x->ext[i] != 1) {
				start[j] = x->start[i];
				ext[j] = x->ext[i];
			}
		}
	}
	return n;
}

/* Odometer step over `n` dims of lengths ext; advances the offsets of each
 * operand by its strides. Returns false after the last element. */
static bool step(int n, const int64_t *ext, int64_t *idx, int nops, int64_t (*stride)[IT_MAX_RANK], int64_t *off)
{
	for (int j = n - 1; j >= 0; j--) {
		if (++idx[j] < ext[j]) {
			for (int k = 0; k < nops; k++)
				off[k] += stride[k][j];
			return true;
		}
		for (int k = 0; k < nops; k++)
			off[k] -= stride[k][j] * (ext[j] - 1);
		idx[j] = 0;
	}
	return false;
}

ITensor *it_map(Arena *a, ItErr *e, DType t, ItFn fn, int nops, const ITensor *const *ops)
{
	const char *dim[IT_MAX_RANK];
	int64_t start[IT_MAX_RANK], ext[IT_MAX_RANK], stride[4][IT_MAX_RANK];
	check_that(nops >= 1 && nops <= 4);
	int n = joint_space(nops, ops, dim, start, ext, e->msg, sizeof e->msg);
	if (n < 0)
		return NULL;
	for (int k = 0; k < nops; k++)
		if (joint_strides(ops[k], n, dim, start, ext, stride[k], e->msg, sizeof e->msg) < 0)
			return NULL;
	ITensor *r = it_new(a, t, n, dim, start, ext);
	if (r->count == 0)
		return r;
	int64_t idx[IT_MAX_RANK] = {0}, off[4] = {0};
	double in[4];
	int64_t i = 0;
	do {
		for (int k = 0; k < nops; k++)
			in[k] = ops[k]->v[off[k]];
		r->v[i++] = it_round(t, it_apply(fn, t, ops[0]->dtype, in));
	} while (step(n, ext, idx, nops, stride, off));
	return r;
}

ITensor *it_expand(Arena *a, ItErr *e, const ITensor *x, int n, const char *const *dim, const int64_t *start,
	const int64_t *ext)
{
	int64_t stride[1][IT_MAX_RANK];
	if (joint_strides(x, n, dim, start, ext, stride[0], e->msg, sizeof e->msg) < 0)
		return NULL;
	ITensor *r = it_new(a, x->dtype, n, dim, start, ext);
	if (r->count == 0)
		return r;
	int64_t idx[IT_MAX_RANK] = {0}, off[1] = {0};
	int64_t i = 0;
	do
		r->v[i++] = x->v[off[0]];
	while (step(n, ext, idx, 1, stride, off));
	return r;
}

ITensor *it_permute(Arena *a, ItErr *e, const ITensor *x, int n, const char *const *dim)
{
	int64_t start[IT_MAX_RANK], ext[IT_MAX_RANK];
	if (n != x->rank) {
		snprintf(e->msg, sizeof e->msg, "permute to %d dims of a %d-dim value", n, x->rank);
		return NULL;
	}
	for (int j = 0; j < n; j++) {
		int i = it_find(x, dim[j]);
		if (i < 0) {
			snprintf(e->msg, sizeof e->msg, "permute: the value has no dim %s", dim[j]);
			return NULL;
		}
		start[j] = x->start[i];
		ext[j] = x->ext[i];
	}
	return it_expand(a, e, x, n, dim, start, ext);
}

ITensor *it_reduce(Arena *a, ItErr *e, ItFn fn, const ITensor *x, const char *dim, const ITensor *init)
{
	int d = it_find(x, dim);
	if (d < 0) {
		snprintf(e->msg, sizeof e->msg, "reduce: the value has no dim %s", dim);
		return NULL;
	}
	const char *odim[IT_MAX_RANK];
	int64_t ostart[IT_MAX_RANK], oext[IT_MAX_RANK];
	int n = 0;
	for (int i = 0; i < x->rank; i++) {
		if (i == d)
			continue;
		odim[n] = x->dim[i];
		ostart[n] = x->start[i];
		oext[n] = x->ext[i];
		n++;
	}
	ITensor *r = it_new(a, x->dtype, n, odim, ostart, oext);
	int64_t inner = 1;
	for (int i = d + 1; i < x->rank; i++)
		inner *= x->ext[i];
	int64_t len = x->ext[d];
	if (len == 0) {
		snprintf(e->msg, sizeof e->msg, "reduce over an empty dim %s", dim);
		return NULL;
	}
	for (int64_t o = 0; o < r->count; o++) {
		int64_t outer = o / inner, in = o % inner;
		const double *p = x->v + outer * len * inner + in;
		double acc = p[0];
		for (int64_t k = 1; k < len; k++) {
			double args[2] = {acc, p[k * inner]};
			acc = it_round(x->dtype, it_apply(fn, x->dtype, x->dtype, args));
		}
		r->v[o] = acc;
	}
	if (!init)
		return r;
	const ITensor *ops[2] = {r, init};
	/* Result keeps the reduced value's dims: init may only broadcast. */
	ITensor *c = it_map(a, e, x->dtype, fn, 2, ops);
	if (c && c->rank != r->rank) {
		snprintf(e->msg, sizeof e->msg, "reduce: init has dims the result lacks");
		return NULL;
	}
	return c;
}

ITensor *it_reduce_lanes(Arena *a, ItErr *e, ItFn fn, const ITensor *x, const char *dim, int64_t run)
{
	enum { LANES = 64 };
	int d = it_find(x, dim);
	if (d < 0 || run < 1) {
		snprintf(e->msg, sizeof e->msg, "reduce: the value has no dim %s", dim);
		return NULL;
	}
	ITensor *r = it_reduce(a, e, fn, x, dim, NULL); /* shape, and the empty-dim check */
	if (!r)
		return NULL;
	int64_t inner = 1;
	for (int i = d + 1; i < x->rank; i++)
		inner *= x->ext[i];
	int64_t len = x->ext[d];
	for (int64_t o = 0; o < r->count; o++) {
		const double *p = x->v + o / inner * len * inner + o % inner;
		double acc[LANES];
		bool have[LANES] = {false};
		/* each lane's elements in coordinate order */
		for (int64_t k = 0; k < len; k++) {
			int l = (int)(k % (run * LANES) / run);
			double args[2] = {acc[l], p[k * inner]};
			acc[l] = have[l] ? it_round(x->dtype, it_apply(fn, x->dtype, x->dtype, args)) : p[k * inner];
			have[l] = true;
		}
		/* the butterfly: lane bit 1, 2, 4, ... */
		for (int sbit = 1; sbit < LANES; sbit *= 2) {
			double next[LANES];
			bool nh[LANES];
			for (int l = 0; l < LANES; l++) {
				double args[2] = {acc[l], acc[l ^ sbit]};
				next[l] = have[l] && have[l ^ sbit] ? it_round(x->dtype, it_apply(fn, x->dtype, x->dtype, args))
								      : have[l] ? acc[l] : acc[l ^ sbit];
				nh[l] = have[l] || have[l ^ sbit];
			}
			memcpy(acc, next, sizeof acc);
			memcpy(have, nh, sizeof have);
		}
		r->v[o] = acc[0];
	}
	return r;
}

/* ---- the dense mma kernel ----
 * Every accumulator element still adds its products in increasing k order,
 * rounded as the general walk rounds them; only the order in which the
 * elements are visited changes: a few accumulator rows (all the elements
 * along the last acc dim, j) at a time, k outer, rows and j inner, so that
 * the additions of one k step are independent and the compiler can run
 * them side by side (the walk with k innermost is one chain of dependent
 * additions per element). */

/* How one step s <- s + a*b is computed, each bit-identical to the general
 * path's for the dtypes mma_mode picks it for. */
typedef enum DenseMode {
	DENSE_F32,     /* in float: the product is exact in f32 */
	DENSE_F64_F32, /* in double, rounded to f32 after each add */
	DENSE_F64,     /* in double */
} DenseMode;

enum {
	DENSE_J = 16,   /* the rows are padded to a multiple of this */
	DENSE_ROWS = 4, /* rows per trip over the panel */
};

/* Largest magnitude and smallest nonzero one of x's elements; false if one
 * is not finite. */
static bool magnitudes(const ITensor *x, double *mx, double *mn)
{
	double hi = 0, lo = INFINITY;
	bool finite = true;
	for (int64_t i = 0; i < x->count; i++) {
		double v = fabs(x->v[i]);
		finite &= v <= DBL_MAX; /* false for inf and nan */
		hi = v > hi ? v : hi;
		lo = v != 0 && v < lo ? v : lo;
	}
	*mx = hi;
	*mn = lo;
	return finite;
}

/* Are all products of elements of x and y exact in f32, so that s + a*b
 * rounded to f32 (the general path: in double, then to f32) equals the f32
 * sum of the f32 product (a double add rounded to f32 is the f32 add: f64
 * has more than twice f32's precision plus 2 bits)? True when both hold
 * f16 or bf16 values (at most 11 significant bits each: 22 in the product),
 * all finite, the product of the largest magnitudes is at most FLT_MAX and
 * that of the smallest nonzero ones a normal f32. */
static bool products_exact_f32(const ITensor *x, const ITensor *y)
{
	double mx[2], mn[2];
	const ITensor *t[2] = {x, y};
	for (int o = 0; o < 2; o++)
		if ((t[o]->dtype != DT_F16 && t[o]->dtype != DT_BF16) || !magnitudes(t[o], &mx[o], &mn[o]))
			return false;
	if (mx[0] * mx[1] > FLT_MAX)
		return false;
	return mn[0] == INFINITY || mn[1] == INFINITY || mn[0] * mn[1] >= FLT_MIN;
}

/* The step for these dtypes, or -1 when only the general path applies. */
static int mma_mode(const ITensor *lhs, const ITensor *rhs, const ITensor *acc)
{
	if (acc->dtype == DT_F64)
		return DENSE_F64;
	if (acc->dtype != DT_F32)
		return -1;
	/* f16 x f16: exact in f32 whatever the values (the general nk == 1
	 * path sums these in float too, infinities and nans included) */
	if (lhs->dtype == DT_F16 && rhs->dtype == DT_F16)
		return DENSE_F32;
	return products_exact_f32(lhs, rhs) ? DENSE_F32 : DENSE_F64_F32;
}

/* nr accumulator rows of jb floats (s, one after the other): row i adds
 * w[i][k] * p[k][j] for k in order. Two statements: no contraction into a
 * fused multiply-add. */
static void rows_f32(float *restrict s, const double *const *w, int64_t ws, int nr, const float *restrict p,
	int64_t kc, int64_t jb)
{
	for (int64_t k = 0; k < kc; k++, p += jb)
		for (int i = 0; i < nr; i++) {
			float a = (float)w[i][k * ws];
			float *restrict si = s + i * jb;
			for (int64_t j = 0; j < jb; j += DENSE_J)
				for (int x = 0; x < DENSE_J; x++) {
					float q = a * p[j + x];
					si[j + x] = si[j + x] + q;
				}
		}
}

/* The same in double, rounding to f32 after each add when to_f32. */
static void rows_f64(double *restrict s, const double *const *w, int64_t ws, int nr, const double *restrict p,
	int64_t kc, int64_t jb, bool to_f32)
{
	for (int64_t k = 0; k < kc; k++, p += jb)
		for (int i = 0; i < nr; i++) {
			double a = w[i][k * ws];
			double *restrict si = s + i * jb;
			if (to_f32)
				for (int64_t j = 0; j < jb; j += DENSE_J)
					for (int x = 0; x < DENSE_J; x++) {
						double q = a * p[j + x];
						si[j + x] = (double)(float)(si[j + x] + q);
					}
			else
				for (int64_t j = 0; j < jb; j += DENSE_J)
					for (int x = 0; x < DENSE_J; x++) {
						double q = a * p[j + x];
						si[j + x] = si[j + x] + q;
					}
		}
}

/* The dense kernel's buffers: the column operand's k x j panel and a
 * batch of accumulator rows, padded with zeros to jb columns. */
typedef struct Dense {
	DenseMode mode;
	int64_t J, jb, kc, ws;
	void *panel, *rows;
	const double *w[DENSE_ROWS]; /* the row operand at each row's k = 0 */
	double *out[DENSE_ROWS];
	const double *in[DENSE_ROWS];
} Dense;

/* The panel p[k][x] = C at (j = x, k), from C's offset `base`. */
static void dense_panel(Dense *d, const ITensor *C, int64_t base, int64_t sj, int64_t sk)
{
	for (int64_t k = 0; k < d->kc; k++)
		for (int64_t x = 0; x < d->J; x++) {
			double v = C->v[base + x * sj + k * sk];
			if (d->mode == DENSE_F32)
				((float *)d->panel)[k * d->jb + x] = (float)v;
			else
				((double *)d->panel)[k * d->jb + x] = v;
		}
}

/* Run nr rows of the batch: load the accumulators, add, store the sums. */
static void dense_rows(Dense *d, int nr)
{
	int64_t J = d->J, jb = d->jb;
	if (d->mode == DENSE_F32) {
		float *s = d->rows;
		memset(s, 0, sizeof(float) * (size_t)(nr * jb));
		for (int i = 0; i < nr; i++)
			for (int64_t x = 0; x < J; x++)
				s[i * jb + x] = (float)d->in[i][x];
		rows_f32(s, d->w, d->ws, nr, d->panel, d->kc, jb);
		for (int i = 0; i < nr; i++)
			for (int64_t x = 0; x < J; x++)
				d->out[i][x] = s[i * jb + x];
	} else {
		double *s = d->rows;
		memset(s, 0, sizeof(double) * (size_t)(nr * jb));
		for (int i = 0; i < nr; i++)
			memcpy(s + i * jb, d->in[i], sizeof(double) * (size_t)J);
		rows_f64(s, d->w, d->ws, nr, d->panel, d->kc, jb, d->mode == DENSE_F64_F32);
		for (int i = 0; i < nr; i++)
			memcpy(d->out[i], s + i * jb, sizeof(double) * (size_t)J);
	}
}

/* acc + lhs·rhsᵀ with one k dim (the last of the joint space of n dims),
 * into r; false (nothing done) when the shape or dtypes do not suit. The
 * last acc dim (j) must come from exactly one operand, the column operand
 * C, whose k x j panel is gathered once per distinct position of it; the
 * other, the row operand, is constant along j. */
static bool mma_dense(const ITensor *lhs, const ITensor *rhs, const ITensor *acc, ITensor *r, int n,
	const int64_t *ext, int64_t (*stride)[IT_MAX_RANK])
{
	int na = acc->rank;
	if (na < 1 || n != na + 1)
		return false;
	int j = na - 1, kd = n - 1;
	int c = stride[1][j] != 0 ? 1 : 0, w = 1 - c;
	if (stride[c][j] == 0 || stride[w][j] != 0 || stride[2][j] != 1)
		return false;
	int mode = mma_mode(lhs, rhs, acc);
	if (mode < 0)
		return false;
	const ITensor *C = c ? rhs : lhs, *W = w ? rhs : lhs;
	Dense d = {.mode = (DenseMode)mode, .J = ext[j], .kc = ext[kd], .ws = stride[w][kd]};
	d.jb = (d.J + DENSE_J - 1) / DENSE_J * DENSE_J;
	size_t es = mode == DENSE_F32 ? sizeof(float) : sizeof(double);
	d.panel = xcalloc((size_t)(d.kc * d.jb), es); /* padding columns stay 0 */
	d.rows = xmalloc((size_t)(DENSE_ROWS * d.jb) * es);
	int64_t idx[IT_MAX_RANK] = {0}, off[3] = {0};
	for (bool more = true; more;) {
		int64_t base = off[c];
		dense_panel(&d, C, base, stride[c][j], stride[c][kd]);
		/* rows (odometer over the acc dims before j) while they share
		 * this panel */
		do {
			int nr = 0;
			do {
				d.w[nr] = W->v + off[w];
				d.in[nr] = acc->v + off[2];
				d.out[nr] = r->v + off[2]; /* r has acc's layout */
				nr++;
				more = step(j, ext, idx, 3, stride, off);
			} while (more && nr < DENSE_ROWS && off[c] == base);
			dense_rows(&d, nr);
		} while (more && off[c] == base);
	}
	free(d.panel);
	free(d.rows);
	return true;
}

ITensor *it_mma(Arena *a, ItErr *e, const ITensor *lhs, const ITensor *rhs, const ITensor *acc)
{
	/* Joint space: acc's dims, then the k dims = (lhs ∩ rhs) − acc. */
	const char *dim[IT_MAX_RANK];
	int64_t start[IT_MAX_RANK], ext[IT_MAX_RANK], stride[3][IT_MAX_RANK];
	int n = acc->rank, nk = 0;
	for (int i = 0; i < n; i++) {
		dim[i] = acc->dim[i];
		start[i] = acc->start[i];
		ext[i] = acc->ext[i];
	}
	for (int i = 0; i < lhs->rank; i++) {
		int jr = it_find(rhs, lhs->dim[i]);
		if (jr < 0 || it_find(acc, lhs->dim[i]) >= 0)
			continue;
		if (lhs->ext[i] != rhs->ext[jr] || lhs->start[i] != rhs->start[jr]) {
			snprintf(e->msg, sizeof e->msg, "mma: k dim %s has different windows in lhs and rhs",
				lhs->dim[i]);
			return NULL;
		}
		if (n == IT_MAX_RANK) {
			snprintf(e->msg, sizeof e->msg, "mma: too many dims");
			return NULL;
		}
		dim[n] = lhs->dim[i];
		start[n] = lhs->start[i];
		ext[n] = lhs->ext[i];
		n++, nk++;
	}
	if (nk == 0) {
		snprintf(e->msg, sizeof e->msg, "mma: lhs and rhs share no dim outside the accumulator");
		return NULL;
	}
	const ITensor *ops[3] = {lhs, rhs, acc};
	for (int k = 0; k < 3; k++)
		if (joint_strides(ops[k], n, dim, start, ext, stride[k], e->msg, sizeof e->msg) < 0)
			return NULL;
	ITensor *r = it_like(a, acc, acc->dtype);
	int na = acc->rank;
	int64_t kcount = 1;
	for (int j = na; j < n; j++)
		kcount *= ext[j];
	int64_t idx[IT_MAX_RANK] = {0}, off[3] = {0};
	int64_t i = 0;
	if (r->count == 0)
		return r;
	if (nk == 1 && mma_dense(lhs, rhs, acc, r, n, ext, stride))
		return r;
	if (nk == 1) {
		/* One k dim (every GEMM): the same sums in the same order, the
		 * rounding after each step inlined for f32/f64, the k offsets a
		 * stride apart (most of a realistic GEMM's interpretation time was
		 * the general walk below). */
		int64_t s0 = stride[0][n - 1], s1 = stride[1][n - 1];
		const double *L = lhs->v, *R = rhs->v;
		/* f16 x f16 into f32: a product of two f16 values is exact in f32
		 * (22 significant bits, exponents from 2^-48 to 2^32), and one f32
		 * addition rounds as the addition in f64 rounded to f32 does (f64
		 * has more than twice f32's precision plus 2 bits: the double
		 * rounding is innocuous), so the sum in f32 is the same bits as the
		 * general path's, at a third of its latency per step. Two
		 * statements: no contraction into a fused multiply-add. */
		bool f16_in = lhs->dtype == DT_F16 && rhs->dtype == DT_F16 && acc->dtype == DT_F32;
		for (;;) {
			double s = acc->v[off[2]];
			int64_t o0 = off[0], o1 = off[1];
			if (f16_in) {
				float sf = (float)s;
				for (int64_t kk = 0; kk < kcount; kk++, o0 += s0, o1 += s1) {
					float p = (float)L[o0] * (float)R[o1];
					sf = sf + p;
				}
				s = sf;
			} else if (acc->dtype == DT_F32)
				for (int64_t kk = 0; kk < kcount; kk++, o0 += s0, o1 += s1)
					s = (double)(float)(s + L[o0] * R[o1]);
			else if (acc->dtype == DT_F64)
				for (int64_t kk = 0; kk < kcount; kk++, o0 += s0, o1 += s1)
					s = s + L[o0] * R[o1];
			else
				for (int64_t kk = 0; kk < kcount; kk++, o0 += s0, o1 += s1)
					s = it_round(acc->dtype, s + L[o0] * R[o1]);
			r->v[i++] = s;
			if (na == 0 || !step(na, ext, idx, 3, stride, off))
				break;
		}
		return r;
	}
	/* Walk acc elements in order; for each, walk the k dims innermost. */
	for (;;) {
		double s = acc->v[off[2]];
		for (int64_t kk = 0; kk < kcount; kk++) {
			s = it_round(acc->dtype, s + lhs->v[off[0]] * rhs->v[off[1]]);
			if (kk + 1 < kcount)
				step(n, ext, idx, 3, stride, off);
		}
		r->v[i++] = s;
		/* Rewind the k dims to 0 and step the acc dims. */
		for (int j = na; j < n; j++) {
			for (int k = 0; k < 3; k++)
				off[k] -= stride[k][j] * idx[j];
			idx[j] = 0;
		}
		if (na == 0 || !step(na, ext, idx, 3, stride, off))
			break;
	}
	return r;
}

/* v as 0 (keeping its sign) when it is below the smallest normal f32 */
static double ftz(double v)
{
	return fabs(v) < 0x1p-126 ? copysign(0.0, v) : v;
}

double it_apply(ItFn fn, DType rt, DType at, const double *x)
{
	double a = x[0], b = x[1];
	bool isint = !dtype_is_float(at);
	switch (fn) {
	case IT_ADD: return a + b;
	case IT_SUB: return a - b;
	case IT_MUL: return a * b;
	case IT_DIV:
		if (!isint)
			return a / b;
		return b == 0 ? 0 : trunc(a / b);
	case IT_FLOORDIV:
		if (!isint)
			return floor(a / b);
		return b == 0 ? 0 : floor(a / b);
	case IT_MOD:
		if (!isint)
			return a - b * floor(a / b);
		return b == 0 ? 0 : a - b * floor(a / b);
	case IT_MAX: return isnan(a) || isnan(b) ? NAN : (a > b ? a : b);
	case IT_MIN: return isnan(a) || isnan(b) ? NAN : (a < b ? a : b);
	case IT_POW: return pow(a, b);
	case IT_FMOD: return fmod(a, b);
	case IT_ATAN2: return atan2(a, b);
	case IT_AND: return (double)((int64_t)a & (int64_t)b);
	case IT_OR: return (double)((int64_t)a | (int64_t)b);
	case IT_XOR: return (double)((int64_t)a ^ (int64_t)b);
	case IT_EQ: return a == b;
	case IT_NE: return a != b;
	case IT_LT: return a < b;
	case IT_LE: return a <= b;
	case IT_GT: return a > b;
	case IT_GE: return a >= b;
	case IT_SELECT: return a != 0 ? x[1] : x[2];
	case IT_COPY: return a;
	case IT_FPTOSI:
		if (isnan(a))
			return 0;
		if (dtype_size(rt) <= 4)
			return a >= 2147483647.0 ? 2147483647.0 : a <= -2147483648.0 ? -2147483648.0 : trunc(a);
		return trunc(a);
	case IT_NEG: return -a;
	case IT_ABS: return fabs(a);
	case IT_EXP: return exp(a);
	case IT_EXP2: return exp2(a);
	case IT_LOG: return log(a);
	case IT_LOG2: return log2(a);
	case IT_LOG10: return log10(a);
	case IT_SQRT: return sqrt(a);
	case IT_RSQRT: return 1.0 / sqrt(a);
	case IT_EXP_FTZ: return ftz(exp(a));
	case IT_EXP2_FTZ: return ftz(exp2(a));
	case IT_LOG_FTZ: return log(ftz(a));
	case IT_LOG2_FTZ: return log2(ftz(a));
	case IT_LOG10_FTZ: return log10(ftz(a));
	case IT_RSQRT_FTZ: return 1.0 / sqrt(ftz(a));
	case IT_RECIP: return 1.0 / a;
	case IT_SIN: return sin(a);
	case IT_COS: return cos(a);
	case IT_SINH: return sinh(a);
	case IT_TANH: return tanh(a);
	case IT_CBRT: return cbrt(a);
	case IT_ROUND: return round(a);
	case IT_ROUNDEVEN: return nearbyint(a);
	case IT_FLOOR: return floor(a);
	case IT_CEIL: return ceil(a);
	case IT_NOT: return isint ? (at == DT_I1 ? (double)(a == 0) : (double)~(int64_t)a) : a;
	}
	die("it_apply: bad fn %d", (int)fn);
}
