/* load_mma.c — the loader's rules for `mma` (Wave's tkw.mma) and what
 * scaled_mma shares with it: the mma_type field (the op's own, else the
 * hardware constraint's), the dims (acc [..., M, N], lhs [..., M, K], rhs
 * [..., N, K], exactly one reduction dim K; an operand dim of vector shape 0
 * may stay out of acc, and one such dim shared by both operands is no
 * reduction inside a loop over it of tile 1), and for mma the operand dtypes the type takes. */
#include <string.h>

#include "load_graph.h"

static bool mma_dtype_ok(DType want, DType have)
{
	if (want == have)
		return true;
	/* Wave's *_F16 names serve bf16 operands too (CDNA3 runs them on the
	 * bf16 MFMA of the same shape). */
	if (want == DT_F16 && have == DT_BF16)
		return true;
	/* and gfx950's *_BF16 names f16 operands (Wave emits the MFMA of the
	 * operands' type; its test_cdna4_mfma runs every type on both) */
	if (want == DT_BF16 && have == DT_F16)
		return true;
	/* and the 16x16x32 / 32x32x16 f8 names f16 and bf16 ones, which gfx950
	 * runs on its MFMAs of that shape (Wave's testFloatHwTransposeGemm) */
	if (dtype_is_f8(want) && (have == DT_F16 || have == DT_BF16))
		return true;
	/* The F8 types take any of the f8 encodings. */
	bool want_f8 = dtype_is_f8(want), have_f8 = dtype_is_f8(have);
	return want_f8 && have_f8;
}

/* Does the hardware constraint give dim d vector shape 0? Such a dim is
 * one position per register (Wave's GQA: the kv head of K and V, tied to
 * the query head by a workgroup constraint), so an mma operand may carry
 * it without the accumulator (Wave keeps the operand's other dims). */
static bool vector_shape_zero(const Kernel *k, const Sym *d)
{
	const Constraint *hw = kernel_hardware(k);
	int64_t v;
	for (int i = 0; hw && i < hw->nvector_shapes; i++)
		if (hw->vs_dims[i] == d)
			return sym_is_int(hw->vs_sizes[i], &v) && v == 0;
	return false;
}

/* x's dims that are neither in acck nor of vector shape 0 are a mismatch. */
static bool mma_operand_dims_ok(const Kernel *k, Shape x, Shape acck)
{
	for (int i = 0; i < x.rank; i++)
		if (shape_find(acck, x.dims[i]) < 0 && !vector_shape_zero(k, x.dims[i]))
			return false;
	return true;
}

/* Is d, of vector shape 0, the axis of a loop around n whose tiling tile is
 * 1? Then an operand's d is one index (the loop's), not a reduction: Wave's
 * sequential batched GEMM keeps B in a and b with an accumulator [M, N]
 * inside its loop over B. */
static bool single_index_dim(const G *g, const Node *n, const Sym *d)
{
	int64_t t;
	if (!vector_shape_zero(g->k, d))
		return false;
	for (const Region *r = n->list->region; r; r = r->parent) {
		const Op *o = r->owner;
		if (o && o->kind == OP_ITERATE && o->dim == d) {
			const Constraint *c = kernel_constraint(g->k, CON_TILING, d);
			return c && (!c->tile || (sym_is_int(kernel_subs(g->k, c->tile), &t) && t == 1));
		}
	}
	return false;
}

/* The op's optional mma_type field into op->mma_type. */
bool ld_get_op_mma_type(G *g, Node *n, Op *op)
{
	Ld *L = g->L;
	JV f = jv_get(L, n->jv, "mma_type");
	if (!f.v)
		return true;
	return ld_get_mma_type(L, f, &op->mma_type, &op->gdot); /* a name, or a GenericDot */
}

/* The dims of an mma's or a scaled_mma's lhs, rhs and acc (jvs: where each
 * is named): acc [..., M, N], lhs [..., M, K] and rhs [..., N, K] with
 * exactly one reduction dim K, returned in *kdim. */
bool ld_check_mma_dims(G *g, Node *n, Value *lhs, Value *rhs, Value *acc, const JV *jvs, Sym **kdim)
{
	Ld *L = g->L;
	if (acc->shape.rank < 2) {
		ld_err(L, jvs[2], "shape mismatch: the accumulator '%s' %s needs at least 2 dims",
			acc->name, ld_vstr(g, acc));
		return false;
	}
	Sym *md = acc->shape.dims[acc->shape.rank - 2], *nd = acc->shape.dims[acc->shape.rank - 1];
	Sym *kd = NULL;
	int nk = 0;
	for (int i = 0; i < lhs->shape.rank; i++) {
		Sym *d = lhs->shape.dims[i];
		if (shape_find(rhs->shape, d) >= 0 && shape_find(acc->shape, d) < 0 && !single_index_dim(g, n, d)) {
			kd = d;
			nk++;
		}
	}
	if (nk != 1) {
		ld_err(L, n->jv,
			"shape mismatch: lhs %s and rhs %s must share exactly one reduction dim not in "
			"acc %s, found %d",
			ld_vstr(g, lhs), ld_vstr(g, rhs), ld_vstr(g, acc), nk);
		return false;
	}
	Shape acck = {acc->shape.rank + 1, ARENA_NEWN(&L->tmp, Sym *, acc->shape.rank + 1)};
	memcpy(acck.dims, acc->shape.dims, sizeof(Sym *) * (size_t)acc->shape.rank);
	acck.dims[acc->shape.rank] = kd;
	if (shape_find(lhs->shape, md) < 0 || !mma_operand_dims_ok(g->k, lhs->shape, acck)) {
		ld_err(L, jvs[0], "shape mismatch: lhs %s must be [..., %s, %s] over acc %s", ld_vstr(g, lhs),
			sym_name(md), sym_name(kd), ld_vstr(g, acc));
		return false;
	}
	if (shape_find(rhs->shape, nd) < 0 || !mma_operand_dims_ok(g->k, rhs->shape, acck)) {
		ld_err(L, jvs[1], "shape mismatch: rhs %s must be [..., %s, %s] over acc %s", ld_vstr(g, rhs),
			sym_name(nd), sym_name(kd), ld_vstr(g, acc));
		return false;
	}
	*kdim = kd;
	return true;
}

/* An operand of an mma whose k is not its last dim (Wave's binary ops
 * give a product of the same dims in two orders the rhs's order, the
 * format the lhs's: testAttentionBackward's `log2e * (cast(s) - lse)` is
 * [B, M, K2] here and [B, K2, M] in Wave): a permute to [..., r, k] is put
 * before the mma, named "<mma>#permute.<lhs|rhs>" and located at it, so the
 * MMA layouts (passes/graph/indices.c mma_lay: the last two dims) see the
 * order they need and the chained-MMA relayout (isel/relayout.c) moves the
 * value as it does for a permute written in the document. The operand is
 * the same by dim names, so the result is the one the document means. An
 * operand read straight from memory ([K, M] read without a mapping) takes
 * the permute as well: the analysis gives the read the operand's role
 * through it (passes/graph/indices.c set_role_of_op), so the read is laid
 * out by dim name in the MMA's operand layout and the permute moves no
 * element across lanes. */
static Value *mma_operand_order(G *g, Op *mma, Value *x, Sym *r, Sym *kd, const char *what)
{
	Kernel *k = g->k;
	int rank = x->shape.rank;
	if (rank < 2 || x->shape.dims[rank - 1] == kd || shape_find(x->shape, r) < 0 || x->kind == VAL_MEMORY)
		return x;
	Shape s = shape_new(k, rank);
	for (int i = 0, j = 0; i < rank; i++)
		if (x->shape.dims[i] != r && x->shape.dims[i] != kd)
			s.dims[j++] = x->shape.dims[i];
	s.dims[rank - 2] = r;
	s.dims[rank - 1] = kd;
	Op *p = op_new(k, mma->parent, OP_PERMUTE, arena_printf(&k->arena, "%s#permute.%s", mma->name, what), 1, 1);
	p->loc = mma->loc;
	p->path = mma->path;
	p->src = mma->src;
	p->args[0] = x;
	p->shape = s;
	Value *v = op_result(p);
	v->dtype = x->dtype;
	v->shape = s;
	v->loc = mma->loc;
	return v;
}

bool ld_build_mma(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Value *lhs = op->args[0], *rhs = op->args[1], *acc = op->args[2];
	if (!ld_get_op_mma_type(g, n, op))
		return false;
	if (lhs->dtype != rhs->dtype) {
		ld_err(L, jvs[1], "dtype mismatch: mma operands: '%s' is %s, '%s' is %s", lhs->name, ld_vstr(g, lhs),
			rhs->name, ld_vstr(g, rhs));
		return false;
	}
	Sym *kd;
	if (!ld_check_mma_dims(g, n, lhs, rhs, acc, jvs, &kd))
		return false;
	MmaType mt = op_mma_type(g->k, op);
	if (mt == MMA_GENERIC_DOT && (!dtype_is_float(lhs->dtype) || dtype_is_f8(lhs->dtype) ||
				      dtype_is_mx_narrow(lhs->dtype))) {
		ld_err(L, jvs[0], "dtype mismatch: a GenericDot takes f16, bf16, f32 or f64 operands, '%s' is %s",
			lhs->name, ld_vstr(g, lhs));
		return false;
	}
	if (mt != MMA_NONE && mma_is_scaled(mt)) {
		JV f = jv_get(L, n->jv, "mma_type");
		ld_err(L, f.v ? f : n->jv, "%s is a scaled MMA type (Wave's ScaledMMAType): it is scaled_mma's, with "
					   "e8m0 scales; mma takes an MMAType",
			mma_info[mt].name);
		return false;
	}
	if (mt != MMA_NONE) {
		const MmaInfo *mi = &mma_info[mt];
		/* a GenericDot takes any float operands (cast to the accumulator's) */
		if (mt != MMA_GENERIC_DOT && !mma_dtype_ok(mi->in, lhs->dtype)) {
			ld_err(L, jvs[0], "dtype mismatch: %s takes %s operands, '%s' is %s", mi->name,
				dtype_name(mi->in), lhs->name, ld_vstr(g, lhs));
			return false;
		}
		if (acc->dtype != mi->acc) {
			ld_err(L, jvs[2], "dtype mismatch: %s accumulates in %s, '%s' is %s", mi->name,
				dtype_name(mi->acc), acc->name, ld_vstr(g, acc));
			return false;
		}
	}
	/* the permutes go before the mma, the region's last op */
	Region *r = op->parent;
	r->ops.len--;
	Sym *md = acc->shape.dims[acc->shape.rank - 2], *nd = acc->shape.dims[acc->shape.rank - 1];
	op->args[0] = mma_operand_order(g, op, lhs, md, kd, "lhs");
	op->args[1] = mma_operand_order(g, op, rhs, nd, kd, "rhs");
	vec_push(&r->ops, op);
	op->results[0]->dtype = acc->dtype;
	op->results[0]->shape = acc->shape;
	return true;
}
