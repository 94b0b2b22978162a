/* atomic.c — instruction selection of atomic_add to global memory.
 *
 * An atomic_add is placed like a write (passes/graph/indices.c indexes it
 * over the memory's dims, or over the register's through a mapping) and
 * addressed like one (memory.c: buffer descriptor, lane offset, soffset,
 * out-of-bounds lanes sent past num_records, where the range check drops
 * the atomic and a returning one gives 0, as the interpreter's masked
 * elements do). Every element is its own MUBUF atomic:
 *   i32, u32  buffer_atomic_add      (both targets)
 *   f32       buffer_atomic_add_f32  (gfx90a and gfx942)
 * With users of the result the atomic returns the old value (glc; sc0 on
 * gfx942) into its data register, which therefore starts as a copy of the
 * added value (MIF_TIED).
 *
 * Float atomics on fine-grained memory: LLVM 19 turns an `atomicrmw fadd`
 * f32 on gfx90a into a compare-and-swap loop unless the function is marked
 * amdgpu-unsafe-fp-atomics, because gfx90a's float atomics do not work on
 * fine-grained (host-coherent) allocations; on gfx942 it uses the
 * instruction. wavecc's tensors are device (coarse-grained) allocations, so
 * both targets get the instruction (docs/kernel-format.md, "Atomics").
 *
 * Not compiled yet (located errors): f16/bf16 (buffer_atomic_pk_add_f16
 * adds two halves of a dword: a lone element needs its neighbour's half to
 * add -0.0, and the lanes' halves differ in a row of odd length), 8-, 16-
 * and 64-bit integers, f64, and a register whose dims differ from the
 * memory's (no mapping). */
#include "isel.h"

typedef struct AtomicCtx {
	MOp op;
	bool ret;        /* the result has users: return the old values */
	const TVal *src; /* the added values, in the op's layout */
	TVal *old;       /* the result, or NULL */
} AtomicCtx;

static void emit_element(Isel *s, Op *op, void *ctx, int64_t e, uint32_t desc, MOpnd soff, MOpnd voff, int64_t imm)
{
	AtomicCtx *a = ctx;
	(void)op;
	MOpnd data = isel_vgpr(s, a->src->d[e]);
	MOpnd u[4] = {data, voff, mo_vreg(desc, RC_S4), soff};
	MInst *in;
	if (a->ret) {
		/* the data register receives the old value: a copy of its own */
		MOpnd r = isel_v1(s);
		isel_mov(s, r, data);
		in = mblock_add(s->b, a->op, 1, &r, 3, u + 1);
		in->flags |= MIF_GLC | MIF_TIED;
		a->old->d[e] = r;
	} else {
		in = mblock_add(s->b, a->op, 0, NULL, 4, u);
	}
	in->flags |= MIF_OFFEN;
	in->offset = (int32_t)imm;
}

/* The instruction for dtype t, or 0 after reporting. */
static MOp atomic_op(Isel *s, Op *op, DType t)
{
	switch (t) {
	case DT_I32:
	case DT_U32:
		return I_BUFFER_ATOMIC_ADD;
	case DT_F32:
		return I_BUFFER_ATOMIC_ADD_F32;
	default:
		analysis_error(s->c, op->loc, "%s: atomic_add of %s elements is not compiled yet (i32, u32 and f32 are)",
			op->path, dtype_name(t));
		return 0;
	}
}

static bool same_dims(Shape a, Shape b)
{
	if (a.rank != b.rank)
		return false;
	for (int i = 0; i < a.rank; i++) {
		bool found = false;
		for (int j = 0; j < b.rank; j++)
			found |= a.dims[i] == b.dims[j];
		if (!found)
			return false;
	}
	return true;
}

void isel_select_atomic_add(Isel *s, Op *op)
{
	Value *mem = op->args[1];
	const NodeIndex *ix = s->c->index[op->id];
	const TVal *v = s->val[op->args[0]->id];
	if (!v || !ix)
		return;
	MOp mop = atomic_op(s, op, mem->dtype);
	if (!mop)
		return;
	/* a `shared` argument is still a global tensor (docs/kernel-format.md):
	 * the atomic goes to it directly, no LDS tile is involved */
	if (!op->mapping && !same_dims(op->args[0]->shape, mem->shape)) {
		analysis_error(s->c, op->loc, "%s: atomic_add of a register whose dims differ from %s's is not compiled yet",
			op->path, mem->name);
		return;
	}
	if (v->ix != ix && !(v = isel_tval_gather(s, v, ix, op)))
		return;
	if (v->packed) {
		analysis_error(s->c, op->loc, "%s: atomic_add of packed values is not compiled yet", op->path);
		return;
	}
	AtomicCtx a = {.op = mop, .ret = s->uses[op_result(op)->id] > 0, .src = v};
	if (a.ret) {
		a.old = isel_tval_new(s, mem->dtype, v->n, ix);
		for (int64_t e = 0; e < v->n; e++)
			a.old->d[e] = mo_imm(0);
	}
	if (!isel_each_element(s, op, mem, ix, emit_element, &a))
		return;
	if (!a.ret)
		return;
	/* elements never in bounds (isel_each_element skips them) return 0,
	 * in a VGPR as every value element is */
	for (int64_t e = 0; e < v->n; e++)
		if (a.old->d[e].kind == MO_IMM) {
			MOpnd z = isel_v1(s);
			isel_mov(s, z, mo_imm(0));
			a.old->d[e] = z;
		}
	s->val[op_result(op)->id] = a.old;
}
