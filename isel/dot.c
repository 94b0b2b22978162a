/* dot.c — mma ops of Wave's GenericDot type: the product by dot products
 * on the vector ALU instead of an MFMA (Wave's decompose_dot_mma: the
 * operands cast to the accumulator's type, multiplied, summed over K, added
 * to the accumulator).
 *
 * Layout (passes/graph/indices.c dot_dim, Wave's GenericDot index): along N
 * (along_dim N), lane l computes column floor(l / k_mult) of one row per
 * copy, from the k_vec consecutive k at (l % k_mult) * k_vec of each K copy;
 * along M the rows and columns swap. Each accumulator element's lane sums
 * its own products (k order, one v_fma_f32 each: an f16 or bf16 product is
 * exact in f32, so it rounds as Wave's multiply then add), then the k_mult
 * lanes that share the element add their sums in a butterfly (lane ^ m for
 * m = 1, 2, ... k_mult / 2: DPP quad_perm for 1 and 2, ds_bpermute_b32
 * beyond; every lane ends with the same bits, adds being commutative), and
 * the total is added to the accumulator. The interpreter's mma sums in k
 * order: the two differ in the last bits of the f32 sum, as an MFMA's does
 * (`wavecc run`'s tolerance for a summed value).
 * Contract (located errors otherwise): f16, bf16 or f32 operands, an f32
 * accumulator, no batch dims, out_vec_size 1 (indices.c), and K copies that
 * cover the K tile exactly inside a loop (lanes past it would add the next
 * trip's k). */
#include "elt.h"
#include "isel.h"

/* Operand element e as an f32 in a VGPR. */
static MOpnd as_f32(Isel *s, const TVal *v, int64_t e)
{
	int per = isel_per_dword(v);
	MOpnd d = isel_vgpr(s, v->d[e / per]), r;
	bool hi = per == 2 && e % 2;
	switch (v->dtype) {
	case DT_F16:
		if (hi) {
			MOpnd t = isel_v1(s), u[2] = {mo_imm(16), d};
			mblock_add(s->b, I_V_LSHRREV_B32, 1, &t, 2, u);
			d = t;
		}
		r = isel_v1(s);
		mblock_add(s->b, I_V_CVT_F32_F16, 1, &r, 1, &d);
		return r;
	case DT_BF16: { /* the bf16 bits on top of an f32 */
		r = isel_v1(s);
		MOpnd u[2] = {hi ? mo_imm((int64_t)0xffff0000) : mo_imm(16), d};
		mblock_add(s->b, hi ? I_V_AND_B32 : I_V_LSHLREV_B32, 1, &r, 2, u);
		return r;
	}
	default:
		return d;
	}
}

/* a + (b's value from lane ^ m): the butterfly's step m. */
static MOpnd add_partner(Isel *s, Op *op, MOpnd a, int m)
{
	Analysis *c = s->c;
	SymCtx *sc = c->k->sc;
	MOpnd t = isel_v1(s);
	if (m <= 2) {
		mblock_add(s->b, I_V_MOV_B32, 1, &t, 1, &a)->dpp = m == 1 ? 0xb1 : 0x4e; /* quad_perm [1,0,3,2], [2,3,0,1] */
	} else {
		Sym *ln = sym_mod(sc, sym_symbol(sc, "$T0"), sym_int(sc, 64)), *w = sym_int(sc, 2 * m);
		Sym *x = sym_add(sc, sym_mod(sc, sym_add(sc, ln, sym_int(sc, m)), w), sym_sub(sc, ln, sym_mod(sc, ln, w)));
		MOpnd addr = isel_expr_to_vgpr(s, isel_expr_lower(s, sym_simplify(sc, sym_mul(sc, x, sym_int(sc, 4)), c->assume),
								      op->loc));
		MOpnd u[2] = {addr, a};
		mblock_add(s->b, I_DS_BPERMUTE_B32, 1, &t, 2, u);
	}
	MOpnd r = isel_v1(s), u[2] = {t, a};
	mblock_add(s->b, I_V_ADD_F32, 1, &r, 2, u);
	return r;
}

/* The reason the dot mma's layouts are not the ones compiled, or NULL. */
static const char *layouts(Isel *s, Op *op, const NodeIndex *ax, const NodeIndex *bx, const NodeIndex *rx,
	const GenericDot *g)
{
	Analysis *c = s->c;
	if (ax->ndims != 2 || bx->ndims != 2 || rx->ndims != 2)
		return "batch dims are not compiled yet";
	if (ax->d[1].size != g->k_vec || bx->d[1].size != g->k_vec || ax->epc != g->k_vec || bx->epc != g->k_vec ||
		rx->epc != 1 || ax->d[1].copies != bx->d[1].copies || ax->d[0].copies != rx->d[0].copies ||
		bx->d[0].copies != rx->d[1].copies || ax->d[0].dim != rx->d[0].dim || bx->d[0].dim != rx->d[1].dim)
		return "its operands are not in the layout it computes in (a value given another layout is not moved "
		       "into it yet)";
	TileLoop *t = NULL;
	for (Region *r = op->parent; r && r->owner && !t; r = r->parent)
		if (r->owner->kind == OP_ITERATE && r->owner->dim == ax->d[1].dim)
			t = analysis_tile(c, ax->d[1].dim);
	if (t && ax->d[1].copies * g->k_vec * g->k_mult != t->tile)
		return "the K tile is not a multiple of its k_vec_size x k_mult";
	return NULL;
}

void isel_select_dot(Isel *s, Op *op)
{
	Analysis *c = s->c;
	const TVal *a = s->val[op->args[0]->id], *b = s->val[op->args[1]->id], *acc = s->val[op->args[2]->id];
	const NodeIndex *rx = c->index[op->id];
	if (!a || !b || !acc || !rx)
		return;
	NodeIndex *const *want = c->mma_operand ? &c->mma_operand[2 * op->id] : NULL;
	if (want && ((want[0] && !(a = isel_tval_gather(s, a, want[0], op))) ||
			    (want[1] && !(b = isel_tval_gather(s, b, want[1], op)))))
		return;
	if (acc->ix != rx && !(acc = isel_tval_gather(s, acc, rx, op)))
		return;
	GenericDot g = op_generic_dot(c->k, op);
	DType t = a->dtype;
	const char *why = NULL;
	if ((t != DT_F16 && t != DT_BF16 && t != DT_F32) || b->dtype != t || acc->dtype != DT_F32)
		why = "only f16, bf16 and f32 operands with an f32 accumulator are compiled";
	else if (!a->ix || !b->ix)
		why = "an operand has no layout";
	else
		why = layouts(s, op, a->ix, b->ix, rx, &g);
	if (why) {
		analysis_error(c, op->loc, "%s: this GenericDot mma (%s x %s -> %s): %s", op->path, dtype_name(a->dtype),
			dtype_name(b->dtype), dtype_name(acc->dtype), why);
		return;
	}
	int64_t cm = rx->d[0].copies, cn = rx->d[1].copies, ck = a->ix->d[1].copies, kv = g.k_vec;
	TVal *r = isel_tval_new(s, DT_F32, rx->ncopies, rx);
	for (int64_t i = 0; i < cm; i++)
		for (int64_t j = 0; j < cn; j++) {
			MOpnd p = {0};
			for (int64_t k = 0; k < ck; k++)
				for (int64_t e = 0; e < kv; e++) {
					MOpnd x = as_f32(s, a, (i * ck + k) * kv + e), y = as_f32(s, b, (j * ck + k) * kv + e);
					MOpnd d = isel_v1(s);
					if (p.kind == MO_NONE) {
						MOpnd u[2] = {x, y};
						mblock_add(s->b, I_V_MUL_F32, 1, &d, 2, u);
					} else {
						MOpnd u[3] = {x, y, p};
						mblock_add(s->b, I_V_FMA_F32, 1, &d, 3, u);
					}
					p = d;
				}
			for (int m = 1; m < g.k_mult; m *= 2)
				p = add_partner(s, op, p, m);
			MOpnd d = isel_v1(s), u[2] = {p, isel_vgpr(s, acc->d[i * cn + j])};
			mblock_add(s->b, I_V_ADD_F32, 1, &d, 2, u);
			r->d[i * cn + j] = d;
		}
	s->val[op_result(op)->id] = r;
}
