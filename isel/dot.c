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
 * accumulator, batch dims of one element per thread at the accumulator's
 * coordinates (an operand may hold the other operand's one-column dim so:
 * paged decode MHA's k and v hold the head, the N of both MMAs),
 * out_vec_size 1 (indices.c), and K copies that cover the K tile exactly
 * inside a loop (lanes past it would add the next trip's k). */
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

/* Where the MMA's dims sit in each index: the operands' last two dims are
 * (M, K) and (N, K), as in every mma (passes/graph/indices.c mma_lay). */
typedef struct DotDims {
	int am, ak, bn, bk, rm, rn;
} DotDims;

static int dpos(const NodeIndex *x, const Sym *d)
{
	for (int i = 0; i < x->ndims; i++)
		if (x->d[i].dim == d)
			return i;
	return -1;
}

/* Does every dim of x but the two at p and q hold one element per thread
 * (one copy, size 1) at the accumulator's coordinate, where rx has the
 * dim (a batch dim, or an operand's copy of the other operand's one-column
 * dim: paged decode MHA's heads)? A dim rx lacks is summed over: not
 * compiled. */
static bool batch_ok(const NodeIndex *x, int p, int q, const NodeIndex *rx)
{
	for (int i = 0; i < x->ndims; i++) {
		if (i == p || i == q)
			continue;
		int r = dpos(rx, x->d[i].dim);
		if (x->d[i].copies != 1 || x->d[i].size != 1 || r < 0 || rx->d[r].copies != 1 || rx->d[r].size != 1 ||
			x->d[i].start != rx->d[r].start)
			return false;
	}
	return true;
}

/* The element number of copy (c1 along the dim at p1, c2 at p2) of x,
 * whose other dims have one copy: copies are row-major over x's dims. */
static int64_t copy_at(const NodeIndex *x, int p1, int64_t c1, int p2, int64_t c2)
{
	return p1 < p2 ? c1 * x->d[p2].copies + c2 : c2 * x->d[p1].copies + c1;
}

/* The reason the dot mma's layouts are not the ones compiled, or NULL. */
static const char *layouts(Isel *s, Op *op, const NodeIndex *ax, const NodeIndex *bx, const NodeIndex *rx,
	const GenericDot *g, DotDims *p)
{
	Analysis *c = s->c;
	const Shape sa = op->args[0]->shape;
	const Shape sc = op->args[2]->shape; /* m, n by name: the accumulator's last two dims */
	Sym *m = sc.dims[sc.rank - 2], *k = sa.dims[sa.rank - 1], *n = sc.dims[sc.rank - 1];
	*p = (DotDims){dpos(ax, m), dpos(ax, k), dpos(bx, n), dpos(bx, k), dpos(rx, m), dpos(rx, n)};
	if (p->am < 0 || p->ak < 0 || p->bn < 0 || p->bk < 0 || p->rm < 0 || p->rn < 0)
		return "its operands lack the MMA's dims in their layouts";
	if (!batch_ok(ax, p->am, p->ak, rx) || !batch_ok(bx, p->bn, p->bk, rx) || !batch_ok(rx, p->rm, p->rn, rx))
		return "batch dims of more than one element per thread, or held at other coordinates than the "
		       "accumulator's, are not compiled yet";
	if (ax->d[p->ak].size != g->k_vec || bx->d[p->bk].size != g->k_vec || ax->epc != g->k_vec ||
		bx->epc != g->k_vec || rx->epc != 1 || ax->d[p->ak].copies != bx->d[p->bk].copies ||
		ax->d[p->am].copies != rx->d[p->rm].copies || bx->d[p->bn].copies != rx->d[p->rn].copies)
		return "its operands are not in the layout it computes in (a value given another layout is not moved "
		       "into it yet)";
	TileLoop *t = NULL;
	for (Region *r = op->parent; r && r->owner && !t; r = r->parent)
		if (r->owner->kind == OP_ITERATE && r->owner->dim == k)
			t = analysis_tile(c, k);
	if (t && ax->d[p->ak].copies * g->k_vec * g->k_mult != t->tile)
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
	DotDims dd;
	if (!why)
		why = layouts(s, op, a->ix, b->ix, rx, &g, &dd);
	if (why) {
		analysis_error(c, op->loc, "%s: this GenericDot mma (%s x %s -> %s): %s", op->path, dtype_name(a->dtype),
			dtype_name(b->dtype), dtype_name(acc->dtype), why);
		return;
	}
	int64_t cm = rx->d[dd.rm].copies, cn = rx->d[dd.rn].copies, ck = a->ix->d[dd.ak].copies, kv = g.k_vec;
	TVal *r = isel_tval_new(s, DT_F32, rx->ncopies, rx);
	for (int64_t i = 0; i < cm; i++)
		for (int64_t j = 0; j < cn; j++) {
			MOpnd p = {0};
			for (int64_t k = 0; k < ck; k++)
				for (int64_t e = 0; e < kv; e++) {
					MOpnd x = as_f32(s, a, copy_at(a->ix, dd.am, i, dd.ak, k) * kv + e),
					      y = as_f32(s, b, copy_at(b->ix, dd.bn, j, dd.bk, k) * kv + e);
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
			int64_t at = copy_at(rx, dd.rm, i, dd.rn, j);
			MOpnd d = isel_v1(s), u[2] = {p, isel_vgpr(s, acc->d[at])};
			mblock_add(s->b, I_V_ADD_F32, 1, &d, 2, u);
			r->d[at] = d;
		}
	s->val[op_result(op)->id] = r;
}
