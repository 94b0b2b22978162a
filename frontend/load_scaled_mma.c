/* load_scaled_mma.c — the loader's rules for `scaled_mma` (Wave's
 * tkw.scaled_mma): operands [lhs, lhs_scale, rhs, rhs_scale, acc].
 *
 * The type rules, checked in order, each failure located at the field:
 *   - mma_type (the op's, else the hardware constraint's) is one of Wave's
 *     ScaledMMAType names (mma_is_scaled);
 *   - lhs and rhs hold OCP MX element types (f8e4m3fn, f8e5m2, f6e2m3fn,
 *     f6e3m2fn, f4e2m1fn: dtype_is_mx_element), each on its own (the OCP
 *     dot product and gfx950's scaled MFMA take a format per operand);
 *   - the scales are f8e8m0fnu;
 *   - acc is the type's accumulator (f32), and lhs, rhs, acc have mma's
 *     dims: acc [..., M, N], lhs [..., M, K], rhs [..., N, K];
 *   - each scale has its operand's dims with K replaced by a dim whose value
 *     is K/32 (Wave's `K / 32` memory dim; MX_SCALE_GROUP k per scale), or
 *     left out (a scale broadcast over K); a dim of the operand other than K
 *     may be left out too (broadcast).
 * The result has acc's type. */
#include "load_graph.h"

/* Is s the dim kd / MX_SCALE_GROUP (an expression dim or a declared alias
 * whose value is it)? */
static bool is_block_dim(Kernel *k, Sym *s, Sym *kd)
{
	SymCtx *sc = k->sc;
	Sym *want = sym_simplify(sc, sym_mul(sc, kd, sym_rat(sc, 1, MX_SCALE_GROUP)), NULL);
	const KSymbol *ks = kernel_symbol(k, sym_name(s));
	return ks && ks->kind == SYMK_ALIAS && ks->value && sym_simplify(sc, ks->value, NULL) == want;
}

static bool scale_ok(G *g, JV at, const char *what, Value *sc, Value *x, Sym *kd)
{
	Ld *L = g->L;
	if (sc->dtype != DT_F8E8M0FNU) {
		ld_err(L, at, "dtype mismatch: scaled_mma's %s '%s' is %s, scales are f8e8m0fnu (bitcast the i8 scales "
			      "to it)",
			what, sc->name, ld_vstr(g, sc));
		return false;
	}
	int nblock = 0;
	for (int i = 0; i < sc->shape.rank; i++) {
		Sym *d = sc->shape.dims[i];
		if (d != kd && shape_find(x->shape, d) >= 0)
			continue;
		if (d != kd && is_block_dim(g->k, d, kd) && !nblock++)
			continue;
		ld_err(L, at, "shape mismatch: scaled_mma's %s '%s' %s must have the dims of '%s' %s with %s replaced by "
			      "%s/%d (one e8m0 scale per %d k)",
			what, sc->name, ld_vstr(g, sc), x->name, ld_vstr(g, x), sym_name(kd), sym_name(kd),
			MX_SCALE_GROUP, MX_SCALE_GROUP);
		return false;
	}
	return true;
}

static bool element_ok(G *g, JV at, const char *what, Value *x)
{
	if (dtype_is_mx_element(x->dtype))
		return true;
	ld_err(g->L, at, "dtype mismatch: scaled_mma's %s '%s' is %s; it takes the OCP MX element types f8e4m3fn, "
			 "f8e5m2, f6e2m3fn, f6e3m2fn and f4e2m1fn",
		what, x->name, ld_vstr(g, x));
	return false;
}

bool ld_build_scaled_mma(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Value *lhs = op->args[0], *ls = op->args[1], *rhs = op->args[2], *rs = op->args[3], *acc = op->args[4];
	if (!ld_get_op_mma_type(g, n, op))
		return false;
	MmaType mt = op_mma_type(g->k, op);
	if (mt == MMA_NONE || !mma_is_scaled(mt)) {
		JV f = jv_get(L, n->jv, "mma_type");
		ld_err(L, f.v ? f : n->jv,
			"scaled_mma needs a scaled MMA type (Wave's ScaledMMAType: F32_16x16x128_F8F6F4 or "
			"F32_32x32x64_F8F6F4) in its mma_type or the hardware constraint's, not %s",
			mt == MMA_NONE ? "none" : mma_info[mt].name);
		return false;
	}
	if (!element_ok(g, jvs[0], "lhs", lhs) || !element_ok(g, jvs[2], "rhs", rhs))
		return false;
	const MmaInfo *mi = &mma_info[mt];
	if (acc->dtype != mi->acc) {
		ld_err(L, jvs[4], "dtype mismatch: %s accumulates in %s, '%s' is %s", mi->name, dtype_name(mi->acc),
			acc->name, ld_vstr(g, acc));
		return false;
	}
	const JV dims_at[3] = {jvs[0], jvs[2], jvs[4]};
	Sym *kd;
	if (!ld_check_mma_dims(g, n, lhs, rhs, acc, dims_at, &kd))
		return false;
	if (!scale_ok(g, jvs[1], "lhs_scale", ls, lhs, kd) || !scale_ok(g, jvs[3], "rhs_scale", rs, rhs, kd))
		return false;
	op->results[0]->dtype = acc->dtype;
	op->results[0]->shape = acc->shape;
	return true;
}
