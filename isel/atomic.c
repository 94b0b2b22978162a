/* atomic.c — instruction selection of atomic_add and atomic_min to global
 * memory (local.c has the allocations').
 *
 * An atomic_add is placed like a write (passes/graph/indices.c indexes it
 * over the memory's dims, or over the register's through a mapping) and
 * addressed like one (memory.c: buffer descriptor, lane offset, soffset,
 * out-of-bounds lanes sent past num_records, where the range check drops
 * the atomic and a returning one gives 0, as the interpreter's masked
 * elements do). Every element is its own MUBUF atomic:
 *   i32, u32  buffer_atomic_add      (both targets)
 *   f32       buffer_atomic_add_f32  (gfx90a and gfx942)
 *   f16       buffer_atomic_pk_add_f16 (gfx90a, gfx942, gfx950)
 *   bf16      buffer_atomic_pk_add_bf16 (gfx950 only)
 *   atomic_min: i32 buffer_atomic_smin, u32 buffer_atomic_umin
 * With users of the result the atomic returns the old value (glc; sc0 on
 * gfx942) into its data register, which therefore starts as a copy of the
 * added value (MIF_TIED). An element several lanes of a wave hold (a
 * reduction's result, the same in every lane that reduced it; a
 * reduction across workgroups is then one atomic per wave, as Wave's
 * split-K GEMM does with its partial products) is added by one of them:
 * the others' offsets are sent past the buffer.
 *
 * Float atomics on fine-grained memory: LLVM 19 turns an `atomicrmw fadd`
 * f32 on gfx90a into a compare-and-swap loop unless the function is marked
 * amdgpu-unsafe-fp-atomics, because gfx90a's float atomics do not work on
 * fine-grained (host-coherent) allocations; on gfx942 it uses the
 * instruction. wavecc's tensors are device (coarse-grained) allocations, so
 * both targets get the instruction (docs/kernel-format.md, "Atomics").
 *
 * f16 and bf16: the packed atomics add the two halves of a dword. Each lane
 * adds its element on its own: its byte offset (VGPR + soffset + immediate,
 * computed in a VGPR) gives the dword (offset & ~3) and the half
 * (offset & 2; a row of odd length puts the elements of one register at
 * either half), the data is the element in that half and -0.0 in the other
 * (x + -0.0 is x for every number x, -0.0 included, and a NaN stays a
 * NaN: the neighbour keeps its value). clang-22 selects the same
 * instruction for llvm.amdgcn.raw.ptr.buffer.atomic.fadd.v2bf16 on gfx950
 * (and cannot on gfx942). The tensor's base is 4-byte aligned (wavecc's buffers
 * are) and its element count must be even, provably: the last element's
 * dword then lies in the buffer, which the range check would otherwise
 * drop whole. The old values (the result with users) are not returned.
 *
 * Not compiled yet (located errors): bf16 before gfx950, the old values of
 * f16/bf16 atomics, 8-, 16- and 64-bit integers, f64, and a register whose
 * dims differ from the memory's (no mapping). */
#include <string.h>

#include "isel.h"

typedef struct AtomicCtx {
	MOp op;
	bool ret;        /* the result has users: return the old values */
	const TVal *src; /* the added values, in the op's layout */
	TVal *old;       /* the result, or NULL */
	uint32_t *dup;   /* by element: the lane bits the element repeats over */
	bool half;       /* 16-bit elements: packed atomics on their dwords */
} AtomicCtx;

/* Element (cn, j) of ix: the lane bits over which every lane holds the
 * same coordinates (a reduction's result, held by all the lanes that
 * reduced it); those copies add once, from the lane whose such bits are
 * 0. Per wave: the interpreter runs the op once per wave, so waves that
 * hold the same element (a block reduction's total) each add it, as
 * there. -1 where the lanes' coordinates cannot be told apart by bits
 * (reported by the caller). */
int64_t isel_repeat_bits(Analysis *c, const NodeIndex *ix, int64_t cn, int64_t j)
{
	int64_t at[64][MAX_DIMS];
	for (int l = 0; l < 64; l++)
		for (int i = 0; i < ix->ndims; i++)
			if (!isel_at_lane(c, index_coord(c, ix, i, cn, j), l, &at[l][i]))
				return -1;
	uint32_t bits = 0;
	for (int b = 0; b < 6; b++) {
		bool same = true;
		for (int l = 0; l < 64 && same; l++)
			same = !memcmp(at[l], at[l ^ (1 << b)], sizeof at[l][0] * (size_t)ix->ndims);
		bits |= (uint32_t)same << b;
	}
	/* every other pair of lanes must differ: the copies are exactly the
	 * lanes that agree outside those bits */
	for (int l = 0; l < 64; l++)
		for (int m = l + 1; m < 64; m++)
			if (((l ^ m) & ~bits) && !memcmp(at[l], at[m], sizeof at[l][0] * (size_t)ix->ndims))
				return -1;
	return bits;
}

static MOpnd valu2(Isel *s, MOp op, MOpnd a, MOpnd b)
{
	MOpnd d = isel_v1(s), u[2] = {a, b};
	mblock_add(s->b, op, 1, &d, 2, u);
	return d;
}

/* The 16-bit element in the low half (high where hi) of data, at byte
 * offset voff + soff + imm, as the data of a packed atomic: the offset
 * becomes its dword's (in *voff; *soff and *imm 0), the element goes to
 * its half and -0.0 (0x8000) to the other. */
static MOpnd half_in_dword(Isel *s, MOpnd data, bool hi, MOpnd *voff, MOpnd *soff, int64_t *imm)
{
	MOpnd t = *voff;
	if (!(soff->kind == MO_IMM && soff->imm == 0))
		t = valu2(s, I_V_ADD_U32, *soff, t);
	if (*imm)
		t = valu2(s, I_V_ADD_U32, mo_imm(*imm), t);
	*voff = valu2(s, I_V_AND_B32, mo_imm(-4), t);
	*soff = mo_imm(0);
	*imm = 0;
	MOpnd sh = valu2(s, I_V_LSHLREV_B32, mo_imm(3), valu2(s, I_V_AND_B32, mo_imm(2), t)); /* 0 or 16 */
	MOpnd elem = hi ? valu2(s, I_V_LSHRREV_B32, mo_imm(16), data) : valu2(s, I_V_AND_B32, mo_imm(0xffff), data);
	MOpnd mine = valu2(s, I_V_LSHLREV_B32, sh, elem);
	MOpnd negz = isel_v1(s);
	isel_mov(s, negz, mo_imm((int64_t)0x80000000));
	return valu2(s, I_V_OR_B32, mine, valu2(s, I_V_LSHRREV_B32, sh, negz));
}

static void emit_element(Isel *s, Op *op, void *ctx, int64_t e, uint32_t desc, MOpnd soff, MOpnd voff, int64_t imm)
{
	AtomicCtx *a = ctx;
	if (a->dup[e]) {
		/* only the lane whose repeat bits are 0 adds: the others' offset
		 * lies past the buffer, which drops their atomic */
		SymCtx *sc = s->c->k->sc;
		Sym *conds[6];
		int n = 0;
		for (int b = 0; b < 6; b++)
			if (a->dup[e] >> b & 1)
				conds[n++] = sym_rel(sc, SYM_LT, sym_mod(sc, sym_symbol(sc, "$T0"), sym_int(sc, 2 << b)),
					sym_int(sc, 1 << b)); /* bit b of the lane is 0 */
		voff = isel_offset_where(s, op, voff, n, conds);
	}
	MOpnd data = isel_vgpr(s, a->src->d[isel_elem_dword(a->src, e)]);
	if (a->half)
		data = half_in_dword(s, data, a->src->packed && e % 2, &voff, &soff, &imm);
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

/* The instruction for op on dtype t, or 0 after reporting. */
static MOp atomic_op(Isel *s, Op *op, DType t)
{
	if (op->kind == OP_ATOMIC_MIN) {
		if (t == DT_I32 || t == DT_U32)
			return t == DT_I32 ? I_BUFFER_ATOMIC_SMIN : I_BUFFER_ATOMIC_UMIN;
		analysis_error(s->c, op->loc, "%s: atomic_min of %s elements is not compiled yet (i32 and u32 are)", op->path,
			dtype_name(t));
		return 0;
	}
	switch (t) {
	case DT_I32:
	case DT_U32:
		return I_BUFFER_ATOMIC_ADD;
	case DT_F32:
		return I_BUFFER_ATOMIC_ADD_F32;
	case DT_F16:
		return I_BUFFER_ATOMIC_PK_ADD_F16;
	case DT_BF16:
		if (isel_is_gfx950(s))
			return I_BUFFER_ATOMIC_PK_ADD_BF16;
		analysis_error(s->c, op->loc,
			"%s: atomic_add of bf16 elements needs buffer_atomic_pk_add_bf16, which %s does not have", op->path,
			s->f->target->name);
		return 0;
	default:
		analysis_error(s->c, op->loc,
			"%s: atomic_add of %s elements is not compiled yet (i32, u32, f32, f16 and bf16 are)", op->path,
			dtype_name(t));
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

/* A packed 16-bit atomic needs mem's element count to be even (its last
 * dword whole in the buffer) and no old values. */
static bool half_atomic_ok(Isel *s, Op *op, Value *mem, bool ret)
{
	if (ret) {
		analysis_error(s->c, op->loc, "%s: the old values of an atomic_add of %s elements are not compiled yet",
			op->path, dtype_name(mem->dtype));
		return false;
	}
	SymCtx *sc = s->c->k->sc;
	Sym *n = sym_int(sc, 1);
	for (int i = 0; i < mem->shape.rank; i++) {
		Sym *rt = analysis_runtime(s->c, mem->shape.dims[i]);
		if (!rt) {
			int64_t v = analysis_int(s->c, mem->shape.dims[i], mem->loc, sym_name(mem->shape.dims[i]));
			if (v < 0)
				return false;
			rt = sym_int(sc, v);
		}
		n = sym_mul(sc, n, rt);
	}
	int64_t odd = 1;
	if (!sym_is_int(sym_simplify(sc, sym_mod(sc, n, sym_int(sc, 2)), s->c->assume), &odd) || odd != 0) {
		analysis_error(s->c, op->loc,
			"%s: an atomic_add of %s elements into %s needs an element count proven even (the packed atomic "
			"adds whole dwords): not compiled yet",
			op->path, dtype_name(mem->dtype), mem->name);
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
		analysis_error(s->c, op->loc, "%s: %s of a register whose dims differ from %s's is not compiled yet",
			op->path, op_name(op->kind), mem->name);
		return;
	}
	if (v->ix != ix && !(v = isel_tval_gather(s, v, ix, op)))
		return;
	if (v->packed && dtype_size(v->dtype) != 2) {
		analysis_error(s->c, op->loc, "%s: atomic_add of packed values is not compiled yet", op->path);
		return;
	}
	AtomicCtx a = {.op = mop, .ret = s->uses[op_result(op)->id] > 0, .src = v};
	a.half = dtype_size(mem->dtype) == 2;
	if (a.half && !half_atomic_ok(s, op, mem, a.ret))
		return;
	a.dup = ARENA_NEWN(&s->c->arena, uint32_t, v->n ? v->n : 1);
	for (int64_t e = 0; e < v->n; e++) {
		int64_t bits = isel_repeat_bits(s->c, ix, e / ix->epc, e % ix->epc);
		if (bits < 0) {
			analysis_error(s->c, op->loc, "%s: atomic_add of a value whose lanes' copies of an element cannot be "
						  "told apart (each must add once) is not compiled yet",
				op->path);
			return;
		}
		if (bits && a.ret) {
			analysis_error(s->c, op->loc, "%s: the old values of an atomic_add whose lanes hold copies of one "
						  "element (a reduction's result) are not compiled yet: one copy adds, the others "
						  "would not see the old value",
				op->path);
			return;
		}
		a.dup[e] = (uint32_t)bits;
	}
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
