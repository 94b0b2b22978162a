/* bitcast.c — the interpreter's `bitcast` (Wave's tkw.bitcast): each run
 * along the last dim is stored as the source dtype (little-endian bytes, as
 * in the buffers) and loaded back as the result's. A source f times wider
 * gives f times as many elements along the (renamed) last dim, its window
 * scaled by f; a narrower one needs its window to hold whole groups of f.
 * Widths are storage bits (dtype_bits): f4e2m1fn is two per byte, element
 * 2j in the low nibble of byte j, so an i8 run of n bytes is 2n f4 values. */
#include <stdlib.h>
#include <string.h>

#include "../ir/graph.h"
#include "interp.h"
#include "run.h"

int interp_exec_bitcast(Run *r, const Op *op)
{
	const ITensor *x = run_get(r, op->args[0]);
	const Value *res = op_result(op);
	int sa = dtype_bits(x->dtype), sd = dtype_bits(res->dtype), last = x->rank - 1;
	int64_t start[IT_MAX_RANK], ext[IT_MAX_RANK];
	const char *dim[IT_MAX_RANK];
	for (int i = 0; i < x->rank; i++) {
		dim[i] = x->dim[i];
		start[i] = x->start[i];
		ext[i] = x->ext[i];
	}
	if (sa != sd) {
		if (last < 0)
			return run_fail(r, op, "bitcast of a scalar to another width");
		dim[last] = sym_name(res->shape.dims[res->shape.rank - 1]);
		if (sa > sd) {
			start[last] *= sa / sd;
			ext[last] *= sa / sd;
		} else if (start[last] % (sd / sa) || ext[last] % (sd / sa)) {
			return run_fail(r, op, "bitcast: the window [%lld, +%lld) of %s does not hold whole groups of %d",
				(long long)start[last], (long long)ext[last], x->dim[last], sd / sa);
		} else {
			start[last] /= sd / sa;
			ext[last] /= sd / sa;
		}
	}
	ITensor *y = it_new(&r->arena, res->dtype, x->rank, dim, start, ext);
	int64_t row = last >= 0 ? x->ext[last] : 1, rows = row ? x->count / row : 0, out = last >= 0 ? ext[last] : 1;
	unsigned char *buf = xcalloc((size_t)(row * sa) / 8 + 8, 1);
	for (int64_t q = 0; q < rows; q++) {
		for (int64_t i = 0; i < row; i++)
			dtype_store(x->dtype, buf, (uint64_t)i, x->v[q * row + i]);
		for (int64_t j = 0; j < out; j++)
			y->v[q * out + j] = dtype_load(res->dtype, buf, (uint64_t)j);
	}
	free(buf);
	return run_set(r, op, y);
}
