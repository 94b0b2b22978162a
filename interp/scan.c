/* scan.c — the interpreter's `cumsum` (Wave's tkw.cumsum): an inclusive
 * prefix sum along the op's dim over the wave's window of it (the value's
 * own extent), in element order, each partial sum rounded to the dtype as a
 * sequential accumulation would be. With `block` and the dim split across
 * the waves of its workgroup dim, each wave then adds the totals of the
 * waves before it along that dim (the same others ids), in wave order. */
#include <stdlib.h>
#include <string.h>

#include "../ir/graph.h"
#include "interp.h"
#include "run.h"

static ITensor *local_scan(Run *r, const Op *op, const ITensor *x)
{
	int d = it_find(x, sym_name(op->dim));
	if (d < 0) {
		run_fail(r, op, "cumsum: the value has no dim %s", sym_name(op->dim));
		return NULL;
	}
	ITensor *y = it_like(&r->arena, x, x->dtype);
	int64_t outer = 1, inner = 1;
	for (int i = 0; i < d; i++)
		outer *= x->ext[i];
	for (int i = d + 1; i < x->rank; i++)
		inner *= x->ext[i];
	for (int64_t o = 0; o < outer; o++)
		for (int64_t i = 0; i < inner; i++) {
			double acc = 0;
			for (int64_t k = 0; k < x->ext[d]; k++) {
				int64_t at = (o * x->ext[d] + k) * inner + i;
				acc = it_round(x->dtype, acc + x->v[at]);
				y->v[at] = acc;
			}
		}
	return y;
}

int interp_exec_cumsum(Run *r, const Op *op)
{
	ITensor *y = local_scan(r, op, run_get(r, op->args[0]));
	return y ? run_set(r, op, y) : -1;
}

int interp_exec_block_cumsum(Run *r, const Op *op, int g, void (*select_wave)(Run *, int))
{
	ItErr e;
	int nw = r->nw, rc = 0;
	ITensor **scan = ARENA_NEWN(&r->arena, ITensor *, (size_t)nw);
	ITensor **total = ARENA_NEWN(&r->arena, ITensor *, (size_t)nw);
	int64_t (*wid)[MAX_WG_DIMS] = xcalloc((size_t)nw, sizeof *wid);
	for (int w = 0; w < nw && rc == 0; w++) {
		select_wave(r, w);
		memcpy(wid[w], r->wid, sizeof wid[w]);
		ITensor *x = run_get(r, op->args[0]);
		if (!(scan[w] = local_scan(r, op, x)))
			rc = -1;
		else if (!(total[w] = it_reduce(&r->arena, &e, IT_ADD, x, sym_name(op->dim), NULL)))
			rc = run_fail(r, op, "block cumsum: %s", e.msg);
	}
	for (int w = 0; w < nw && rc == 0; w++) {
		ITensor *y = scan[w];
		for (int v = 0; v < nw && rc == 0; v++) {
			bool before = wid[v][g] < wid[w][g];
			for (int h = 0; h < r->ng; h++)
				before &= h == g || wid[v][h] == wid[w][h];
			if (!before)
				continue;
			const ITensor *ops[2] = {y, total[v]};
			if (!(y = it_map(&r->arena, &e, y->dtype, IT_ADD, 2, ops)))
				rc = run_fail(r, op, "block cumsum: %s", e.msg);
		}
		if (rc == 0) {
			select_wave(r, w);
			rc = run_set(r, op, y);
		}
	}
	free(wid);
	return rc;
}
