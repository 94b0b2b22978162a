/* topk.c — topk (Wave's tkw.topk): the k largest elements along a dim and
 * their coordinates.
 *
 * Model (docs/interpreter.md, "topk"): over the wave's window of the dim,
 * as a reduction without block takes it, each position of the other dims
 * selects the k_dim largest of its elements that lie inside the dim (not
 * past its end), in decreasing order: values compare by IEEE 754
 * totalOrder with every NaN of one sign equal (-NaN < -inf < ... < -0 <
 * +0 < ... < +inf < +NaN), integers by value, and equal values by
 * coordinate, the lower first. The results have the dim replaced by
 * k_dim, whose window is [0, k_dim); the values keep arg's dtype, the
 * coordinates are i32. Fewer elements than k_dim is an error. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/graph.h"
#include "interp.h"
#include "run.h"

typedef struct Cand {
	double v;
	int64_t at;
} Cand;

/* The totalOrder rank of a value: NaNs beyond the infinities by sign. */
static int nan_side(double v) { return isnan(v) ? (signbit(v) ? -1 : 1) : 0; }

/* a before b: larger first, then the lower coordinate. */
static int cand_cmp(const void *pa, const void *pb)
{
	const Cand *a = pa, *b = pb;
	int na = nan_side(a->v), nb = nan_side(b->v);
	if (na != nb)
		return na > nb ? -1 : 1;
	if (!na && a->v != b->v)
		return a->v > b->v ? -1 : 1;
	if (!na && a->v == 0 && signbit(a->v) != signbit(b->v)) /* +0 above -0 */
		return signbit(a->v) ? 1 : -1;
	return (a->at > b->at) - (a->at < b->at);
}

int interp_exec_topk(Run *r, const Op *op)
{
	const ITensor *x = run_get(r, op->args[0]);
	const char *dn = sym_name(op->dim);
	int d = it_find(x, dn);
	if (d < 0)
		return run_fail(r, op, "topk: the value has no dim %s", dn);
	int64_t k, size;
	if (run_eval_int(r, op, op->kdim, &k) < 0)
		return -1;
	IDim *xd = run_dim(r, op->dim);
	if (!xd)
		return -1;
	size = run_dim_size(r, xd);
	if (k < 1 || k > MAX_ELEMS)
		return run_fail(r, op, "topk: k_dim %s is %lld", sym_name(op->kdim), (long long)k);
	/* the results: x's windows with the dim replaced by [0, k) */
	const char *dim[IT_MAX_RANK];
	int64_t start[IT_MAX_RANK], ext[IT_MAX_RANK];
	for (int i = 0; i < x->rank; i++) {
		dim[i] = i == d ? sym_name(op->kdim) : x->dim[i];
		start[i] = i == d ? 0 : x->start[i];
		ext[i] = i == d ? k : x->ext[i];
	}
	ITensor *vals = it_new(&r->arena, x->dtype, x->rank, dim, start, ext);
	ITensor *idx = it_new(&r->arena, DT_I32, x->rank, dim, start, ext);
	int64_t inner = 1, n = x->ext[d];
	for (int i = d + 1; i < x->rank; i++)
		inner *= x->ext[i];
	int64_t outer = n ? x->count / n / (inner ? inner : 1) : 0;
	Cand *c = malloc(sizeof *c * (size_t)(n ? n : 1));
	if (!c)
		return run_fail(r, op, "out of memory");
	int rc = 0;
	for (int64_t o = 0; o < outer && rc == 0; o++)
		for (int64_t in = 0; in < inner && rc == 0; in++) {
			int64_t m = 0;
			for (int64_t j = 0; j < n; j++) {
				int64_t at = x->start[d] + j;
				if (at < 0 || (size >= 0 && at >= size))
					continue; /* past the dim's end: no element */
				c[m++] = (Cand){x->v[(o * n + j) * inner + in], at};
			}
			if (m < k) {
				rc = run_fail(r, op, "topk: %lld of %s's elements lie in this window, fewer than k_dim %s = %lld",
					(long long)m, dn, sym_name(op->kdim), (long long)k);
				break;
			}
			qsort(c, (size_t)m, sizeof *c, cand_cmp);
			for (int64_t j = 0; j < k; j++) {
				vals->v[(o * k + j) * inner + in] = c[j].v;
				idx->v[(o * k + j) * inner + in] = (double)c[j].at;
			}
		}
	free(c);
	if (rc < 0)
		return -1;
	ITensor *y0 = run_conform(r, op, vals, op->results[0]->shape, op->results[0]->dtype);
	ITensor *y1 = y0 ? run_conform(r, op, idx, op->results[1]->shape, DT_I32) : NULL;
	if (!y1)
		return -1;
	r->val[op->results[0]->id] = y0;
	r->val[op->results[1]->id] = y1;
	return 0;
}
