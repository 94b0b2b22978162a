/* load_bitcast.c — the loader's rules for `bitcast` (Wave's tkw.bitcast):
 * the bits of `arg` read as `dtype`, along the last dim in memory order
 * (little-endian, as the buffers are). With dtypes of one width the shape
 * stays; with a source f times wider (i32 to f16: f = 2) each element
 * becomes f along the last dim, and f of them become one when it is f times
 * narrower, so the last dim L is replaced by a dim of f times (or 1/f) its
 * extent: the one `target_shape` names, else the dim that L is an alias
 * of (`K/2` as a memory dim: K) or an alias of L (`K/2` for K). Widths are
 * storage bits (dtype_bits): i8 to f4e2m1fn doubles the last dim (Wave's
 * MXFP4 operands, two per byte, low nibble first); the f6 types, stored one
 * per byte without a packed form, take no bitcast. */
#include "load_graph.h"

/* A dim whose extent is L's times num/den, from L's alias definitions. */
static Sym *scaled_dim(G *g, Sym *l, int64_t num, int64_t den)
{
	Kernel *k = g->k;
	SymCtx *sc = k->sc;
	Sym *want = sym_simplify(sc, sym_mul(sc, l, sym_rat(sc, num, den)), NULL);
	for (size_t i = 0; i < k->syms.len; i++) {
		KSymbol *s = &k->syms.data[i];
		if (s->kind != SYMK_ALIAS || !s->value)
			continue;
		/* s = e(T): s is the dim wanted when e(T) == L * num / den, with
		 * L = s's target ... or L itself is s and the wanted dim is T */
		if (sym_simplify(sc, s->value, NULL) == want)
			return s->sym;
		if (s->sym == l) {
			for (size_t j = 0; j < k->cons.len; j++) {
				const Constraint *c = &k->cons.data[j];
				if (c->kind == CON_SYMBOLIC_ALIAS && c->source == l && c->target &&
					sym_simplify(sc, sym_mul(sc, s->value, sym_rat(sc, num, den)), NULL) == c->target)
					return c->target;
			}
		}
	}
	return NULL;
}

bool ld_build_bitcast(G *g, Node *n, Op *op, JV *jvs)
{
	Ld *L = g->L;
	Value *a = op->args[0], *res = op_result(op);
	JV f = jv_get(L, n->jv, "dtype");
	if (!need(L, n->jv, f, "dtype") || !ld_get_dtype(L, f, &op->dtype))
		return false;
	int sa = dtype_bits(a->dtype), sd = dtype_bits(op->dtype);
	bool f6 = a->dtype == DT_F6E2M3FN || a->dtype == DT_F6E3M2FN || op->dtype == DT_F6E2M3FN ||
		  op->dtype == DT_F6E3M2FN;
	if (f6) {
		ld_err(L, f, "bitcast of %s to %s: f6 values have no packed form in wavecc (one per byte): cast them",
			ld_vstr(g, a), dtype_name(op->dtype));
		return false;
	}
	if (a->dtype == DT_I1 || op->dtype == DT_I1 || (sa % sd && sd % sa)) {
		ld_err(L, f, "bitcast of %s to %s: the widths must divide one another (i1 has no width)",
			ld_vstr(g, a), dtype_name(op->dtype));
		return false;
	}
	res->dtype = op->dtype;
	res->shape = a->shape;
	JV ft = jv_get(L, n->jv, "target_shape");
	if (ft.v) {
		Shape t;
		if (!ld_get_shape(L, ft, &t))
			return false;
		bool same = t.rank == a->shape.rank && t.rank > 0;
		for (int i = 0; same && i + 1 < t.rank; i++)
			same = t.dims[i] == a->shape.dims[i];
		if (!same || (sa == sd && t.dims[t.rank - 1] != a->shape.dims[t.rank - 1])) {
			ld_err(L, ft, "shape mismatch: bitcast of %s keeps every dim but the last (which changes only with "
				      "the width)",
				ld_vstr(g, a));
			return false;
		}
		res->shape = t;
		return true;
	}
	if (sa == sd)
		return true;
	if (a->shape.rank == 0) {
		ld_err(L, jvs[0], "shape mismatch: bitcast of the scalar %s to %s changes the element count", ld_vstr(g, a),
			dtype_name(op->dtype));
		return false;
	}
	Sym *last = a->shape.dims[a->shape.rank - 1];
	Sym *d = sa > sd ? scaled_dim(g, last, sa / sd, 1) : scaled_dim(g, last, 1, sd / sa);
	if (!d) {
		ld_err(L, n->jv, "bitcast of %s to %s: no dim is %s%d times %s; name it with target_shape",
			ld_vstr(g, a), dtype_name(op->dtype), sa > sd ? "" : "1/", sa > sd ? sa / sd : sd / sa,
			sym_name(last));
		return false;
	}
	res->shape = shape_new(g->k, a->shape.rank);
	for (int i = 0; i + 1 < a->shape.rank; i++)
		res->shape.dims[i] = a->shape.dims[i];
	res->shape.dims[a->shape.rank - 1] = d;
	return true;
}
