/* kernarg.c — where each kernel argument of a compiled kernel lives in its
 * kernarg segment (docs/abi.md, "Kernarg segment"): the buffer pointers (8
 * bytes each, in `arguments` order), then the runtime sizes (i32 each),
 * then the scalar arguments. A scalar takes a slot of its own size rounded
 * up to 4 bytes, aligned to that slot, so that one s_load_dword (or
 * dwordx2) reads it without touching a neighbour's bytes past the end of
 * the segment. The emitter (metadata, launch descriptor) and instruction
 * selection (the loads) both ask here, so they cannot disagree. */
#include "analysis.h"

static int slot_bytes(DType t) { return dtype_size(t) < 4 ? 4 : dtype_size(t); }

int analysis_scalar_arg_offset(const Kernel *k, int j)
{
	int n;
	analysis_runtime_arg(k, NULL, &n);
	int off = (int)(8 * k->args.len) + 4 * n;
	for (int i = 0; i <= j && i < (int)k->scalar_args.len; i++) {
		int sz = slot_bytes(op_result(k->scalar_args.data[i])->dtype);
		off = (off + sz - 1) / sz * sz;
		if (i == j)
			return off;
		off += sz;
	}
	return off;
}

int analysis_kernarg_size(const Kernel *k)
{
	return analysis_scalar_arg_offset(k, (int)k->scalar_args.len);
}
