/* scaled_mma.c — the interpreter's `scaled_mma` (Wave's tkw.scaled_mma, the
 * OCP Microscaling dot product).
 *
 * lhs [.., M, K] and rhs [.., N, K] hold MX element values (f8e4m3fn,
 * f8e5m2, f6e2m3fn, f6e3m2fn, f4e2m1fn); lhs_scale and rhs_scale hold e8m0
 * scales over the operand's dims with K replaced by the scale dim K/32: the
 * block of the 32 (MX_SCALE_GROUP) consecutive k = 32j .. 32j + 31 (global
 * coordinates) shares the scale at position j. A scale without the scale dim
 * (Wave's broadcast scale) applies to every k, and a scale lacking another
 * operand dim is broadcast along it.
 *
 * Algorithm: each operand element times its block's scale, held in f64 —
 * exact, as the scale is a power of two in [2^-127, 2^127] and the element
 * has at most 4 significant bits and a magnitude of at most 57344 — then
 * it_mma over the two scaled operands: each product is exact in f64 too,
 * and the accumulation is mma's (increasing k, rounded to the accumulator's
 * dtype after each add). A NaN scale (0xff) makes its whole block NaN, as
 * the OCP spec says. */
#include "../ir/graph.h"
#include "interp.h"
#include "run.h"

/* x (dims with k dim `kd`) times its scales s, in f64; NULL with e->msg. */
static ITensor *scaled(Arena *a, ItErr *e, const ITensor *x, const ITensor *s, const char *kd, const char *what)
{
	/* each scale dim reads an x dim: the same one, or k / 32 for the
	 * scale dim (at most one: the dim x lacks) */
	int xd[IT_MAX_RANK], kx = it_find(x, kd), nblock = 0;
	for (int i = 0; i < s->rank; i++) {
		xd[i] = it_find(x, s->dim[i]);
		if (xd[i] == kx && kx >= 0) {
			snprintf(e->msg, sizeof e->msg, "scaled_mma: %s has the k dim %s itself (it takes one scale per %d k)",
				what, kd, MX_SCALE_GROUP);
			return NULL;
		}
		if (xd[i] < 0) {
			if (nblock++ || kx < 0) {
				snprintf(e->msg, sizeof e->msg, "scaled_mma: %s dim %s is not a dim of its operand", what,
					s->dim[i]);
				return NULL;
			}
			xd[i] = kx;
		}
	}
	ITensor *y = it_like(a, x, DT_F64);
	int64_t c[IT_MAX_RANK];
	for (int64_t i = 0; i < x->count; i++) {
		run_coords(x, i, c);
		int64_t off = 0, stride = 1;
		for (int d = s->rank - 1; d >= 0; d--) {
			int64_t v = c[xd[d]];
			if (s->dim[d] != x->dim[xd[d]]) /* the scale dim: the block of k */
				v = v >= 0 ? v / MX_SCALE_GROUP : -((-v + MX_SCALE_GROUP - 1) / MX_SCALE_GROUP);
			if (s->ext[d] == 1 && s->dim[d] == x->dim[xd[d]])
				v = s->start[d]; /* length 1: broadcast */
			if (v < s->start[d] || v >= s->start[d] + s->ext[d]) {
				snprintf(e->msg, sizeof e->msg,
					"scaled_mma: %s's window [%lld, +%lld) of %s does not hold position %lld (%s %lld)",
					what, (long long)s->start[d], (long long)s->ext[d], s->dim[d], (long long)v,
					x->dim[xd[d]], (long long)c[xd[d]]);
				return NULL;
			}
			off += (v - s->start[d]) * stride;
			stride *= s->ext[d];
		}
		y->v[i] = x->v[i] * s->v[off];
	}
	return y;
}

int interp_exec_scaled_mma(Run *r, const Op *op)
{
	ItErr e;
	const ITensor *lhs = run_get(r, op->args[0]), *ls = run_get(r, op->args[1]);
	const ITensor *rhs = run_get(r, op->args[2]), *rs = run_get(r, op->args[3]);
	const ITensor *acc = run_get(r, op->args[4]);
	/* the k dim: lhs's dim that rhs has and acc lacks (the frontend
	 * checked there is exactly one) */
	const char *kd = NULL;
	for (int i = 0; i < lhs->rank; i++)
		if (it_find(rhs, lhs->dim[i]) >= 0 && it_find(acc, lhs->dim[i]) < 0)
			kd = lhs->dim[i];
	if (!kd)
		return run_fail(r, op, "scaled_mma: lhs and rhs share no dim outside the accumulator");
	ITensor *a = scaled(&r->arena, &e, lhs, ls, kd, "lhs_scale");
	ITensor *b = a ? scaled(&r->arena, &e, rhs, rs, kd, "rhs_scale") : NULL;
	ITensor *y = b ? it_mma(&r->arena, &e, a, b, acc) : NULL;
	if (!y)
		return run_fail(r, op, "%s", e.msg);
	return run_set(r, op, y);
}
