/* values.c — the per-thread values instruction selection builds (TVal) and
 * the registers they live in: a new value, one VGPR, a tuple of consecutive
 * registers, whether an expression changes from one loop trip to the next,
 * whether a region writes a tensor, and the LDS stack (isel_lds_alloc; isel.c frees a region's part when the
 * region ends). Every selector file uses them; they call no selector. */
#include <stdlib.h>
#include <string.h>
#include "isel.h"

TVal *isel_tval_new(Isel *s, DType t, int64_t n, const NodeIndex *ix)
{
	TVal *v = ARENA_NEW(&s->c->arena, TVal);
	v->dtype = t;
	v->n = n;
	v->ix = ix;
	int bits = dtype_bits(t);
	/* 16-bit elements two per dword, 8-bit four, 4-bit (f4e2m1fn) eight,
	 * when each copy fills whole dwords (a copy's run then starts a dword) */
	v->packed = bits < 32 && ix && ix->epc % (32 / bits) == 0;
	int per = isel_per_dword(v);
	v->nd = (int)((n + per - 1) / per);
	v->d = ARENA_NEWN(&s->c->arena, MOpnd, v->nd ? v->nd : 1);
	return v;
}

MOpnd isel_v1(Isel *s) { return mo_vreg(mfunc_vreg(s->f, RC_V1), RC_V1); }

bool isel_is_agpr(MOpnd o) { return o.kind == MO_VREG && rc_file(o.rc) == RF_AGPR; }

void isel_mov(Isel *s, MOpnd d, MOpnd u)
{
	bool da = isel_is_agpr(d), ua = isel_is_agpr(u);
	MOp op = da && ua ? I_V_ACCVGPR_MOV_B32 : da ? I_V_ACCVGPR_WRITE_B32 : ua ? I_V_ACCVGPR_READ_B32 : I_V_MOV_B32;
	mblock_add(s->b, op, 1, &d, 1, &u);
}

MOpnd isel_vgpr(Isel *s, MOpnd o)
{
	if (!isel_is_agpr(o))
		return o;
	MOpnd d = isel_v1(s);
	isel_mov(s, d, o);
	return d;
}

TVal *isel_tval_in_vgprs(Isel *s, TVal *v)
{
	bool any = false;
	for (int i = 0; i < v->nd; i++)
		any |= isel_is_agpr(v->d[i]);
	if (!any)
		return v;
	TVal *r = ARENA_NEW(&s->c->arena, TVal);
	*r = *v;
	r->d = ARENA_NEWN(&s->c->arena, MOpnd, v->nd ? v->nd : 1);
	for (int i = 0; i < v->nd; i++) {
		r->d[i] = v->d[i];
		if (isel_is_agpr(v->d[i])) {
			r->d[i] = isel_v1(s);
			isel_mov(s, r->d[i], v->d[i]);
		}
	}
	return r;
}

MOpnd isel_tuple_of(Isel *s, const TVal *v, int d0, int w)
{
	MOpnd f = v->d[d0];
	bool same = f.kind == MO_VREG && f.sub == 0 && rc_size(s->f->vregs.data[f.reg]) == w;
	for (int k = 1; same && k < w; k++)
		same = v->d[d0 + k].kind == MO_VREG && v->d[d0 + k].reg == f.reg && v->d[d0 + k].sub == k;
	if (same)
		return mo_vreg(f.reg, s->f->vregs.data[f.reg]);
	/* an aligned run of dwords of one wider tuple is a slice of it (the
	 * alignment keeps gfx90a's even-aligned VGPR tuples even) */
	bool slice = f.kind == MO_VREG && w > 1 && f.sub % w == 0;
	for (int k = 1; slice && k < w; k++)
		slice = v->d[d0 + k].kind == MO_VREG && v->d[d0 + k].reg == f.reg && v->d[d0 + k].sub == f.sub + k;
	if (slice)
		return mo_vsub(f.reg, f.sub, rc_make(rc_file(s->f->vregs.data[f.reg]), w));
	/* a new tuple in the file of the first dword (an AGPR tuple is a
	 * store's or an MFMA's operand as well on gfx90a and gfx942) */
	RegFile file = isel_is_agpr(f) ? RF_AGPR : RF_VGPR;
	RegClass rc = rc_make(file, w);
	uint32_t r = mfunc_vreg(s->f, rc);
	for (int k = 0; k < w; k++)
		isel_mov(s, mo_vsub(r, k, rc_make(file, 1)), v->d[d0 + k]);
	return mo_vreg(r, rc);
}

bool isel_depends_on_loop(Isel *s, const Sym *e)
{
	if (!s->iv_sym)
		return false;
	/* a dynamic value's dword (dynmap.c) may be made in the loop body:
	 * never hoisted */
	if (e == s->iv_sym || isel_is_dyn_sym(e))
		return true;
	for (size_t i = 0; sym_kind(e) == SYM_SYMBOL && i < s->loop_set.len; i++)
		if (s->loop_set.data[i] == e)
			return true;
	for (int i = 0; i < sym_nargs(e); i++)
		if (isel_depends_on_loop(s, sym_arg(e, i)))
			return true;
	return false;
}

MOpnd isel_insert_byte(Isel *s, MOpnd dword, MOpnd x, int p)
{
	/* v_perm_b32 picks each result byte from {src0: bytes 4-7, src1:
	 * bytes 0-3}: byte p from x's byte 0 (4), the others from dword */
	uint32_t sel = 0;
	for (int i = 0; i < 4; i++)
		sel |= (uint32_t)(i == p ? 4 : i) << (8 * i);
	MOpnd k = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1), kv = mo_imm(sel);
	mblock_add(s->b, I_S_MOV_B32, 1, &k, 1, &kv); /* VOP3 takes no literal on gfx9 */
	MOpnd d = isel_v1(s), u[3] = {x, dword, k};
	mblock_add(s->b, I_V_PERM_B32, 1, &d, 3, u);
	return d;
}

int isel_lds_alloc(Isel *s, int bytes, bool *reuse)
{
	if (s->lds_top + bytes > s->f->target->lds_bytes)
		return -1;
	int base = s->lds_top;
	*reuse = base < s->lds_dirty;
	s->lds_top += bytes;
	if (s->lds_top > s->f->lds_bytes)
		s->f->lds_bytes = s->lds_top;
	return base;
}

bool isel_lds_place(Isel *s, int base, int bytes)
{
	/* below the stack's top lies only this function's own LDS of ops
	 * done before (the plan's tiles never overlap): dead, but another
	 * wave may still read it until the next s_barrier */
	bool reuse = base < s->lds_dirty || base < s->lds_top;
	s->lds_top = MAX(s->lds_top, base + bytes);
	if (s->lds_top > s->f->lds_bytes)
		s->f->lds_bytes = s->lds_top;
	return reuse;
}

void isel_lds_barrier(Isel *s)
{
	mblock_add(s->b, I_S_BARRIER, 0, NULL, 0, NULL);
	s->lds_dirty = 0; /* every wave is past its reads of ended regions */
}

void isel_ds(Isel *s, MOp mop, MOpnd addr, int64_t off, MOpnd data, bool store)
{
	if (off > 65535) { /* past the 16-bit offset field: into the address */
		MOpnd d = isel_v1(s), u[2] = {mo_imm(off), addr};
		mblock_add(s->b, I_V_ADD_U32, 1, &d, 2, u);
		addr = d;
		off = 0;
	}
	MOpnd u[2] = {addr, data};
	MInst *in = store ? mblock_add(s->b, mop, 0, NULL, 2, u) : mblock_add(s->b, mop, 1, &data, 1, u);
	in->offset = (int32_t)off;
}

bool isel_at_lane(Analysis *c, Sym *e, int64_t t0, int64_t *out)
{
	SymCtx *sc = c->k->sc;
	static const char *const ids[] = {"$T0", "$WG0", "$T1", "$WG1", "$T2", "$WG2"};
	Sym *from[6 + MAX_DIMS], *to[6 + MAX_DIMS];
	int n = 0;
	for (int g = 0; g < 6; g++) {
		from[n] = sym_symbol(sc, ids[g]);
		to[n++] = sym_int(sc, g == 0 ? t0 : 0);
	}
	for (int i = 0; i < c->ntile; i++) {
		from[n] = c->tile[i].iv;
		to[n++] = sym_int(sc, 0);
	}
	e = sym_subs(sc, e, n, from, to);
	/* a loop's start, where it is a runtime value (a launch value or one
	 * a set_symbol sets: the same in every lane), counts as trip 0's does */
	for (int i = 0; i < c->ntile; i++) {
		Sym *fs[8];
		size_t nf = c->tile[i].start ? sym_free_symbols(sc, c->tile[i].start, fs, 8) : 0;
		for (size_t j = 0; j < nf && j < 8; j++) {
			Sym *zero = sym_int(sc, 0);
			if (analysis_runtime_arg(c->k, fs[j], NULL) >= 0)
				e = sym_subs(sc, e, 1, &fs[j], &zero);
		}
	}
	return sym_is_int(sym_simplify(sc, e, NULL), out);
}

/* (pk_f32.c and compare.c ask it: here, so neither calls the other back) */
/* Does region r, or a region in it, hold an mma? */
static bool holds_mma(const Region *r)
{
	for (size_t i = 0; i < r->ops.len; i++) {
		const Op *op = r->ops.data[i];
		if (op->kind == OP_MMA || (op->body && holds_mma(op->body)))
			return true;
	}
	return false;
}

bool isel_pk_f32_loop(const Isel *s, const Op *op)
{
	const Region *r = op->parent;
	while (r && r->owner && r->owner->kind != OP_ITERATE)
		r = r->owner->parent;
	return s->iv_sym && r && r->owner && holds_mma(r);
}
