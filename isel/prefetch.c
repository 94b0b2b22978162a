/* prefetch.c — the `prefetch` software pipelining of a reduction loop
 * (Wave's SchedulingType.PREFETCH) as the plan asks for it (passes/plan
 * decides which loops and which global reads), the parts that are not about
 * LDS: the trip a prefetching load reads, and the register set the
 * prefetched tiles are carried in. lds_stage.c does the staging itself.
 *
 * The schedule (lds_stage.c, isel_stage_shared and isel_stage_shared_end):
 *     prologue:  R = load(trip 0); s_barrier; LDS[0] = R;
 *                R = load(min(1, last)); s_barrier
 *     trip i:    the body (LDS reads of buffer i % S, MFMAs, ...);
 *                [S = 1: s_barrier]; LDS[(i + 1) % S] = R;
 *                R = load(min(i + 2, last)); s_barrier
 * so the global loads of trip i + 1 are in flight while trip i's MFMAs run,
 * and with S = 2 LDS buffers one barrier per trip suffices (a wave writes
 * buffer (i+1) % 2 only after every wave passed the barrier that ends trip
 * i - 1, the last reads of that buffer). The loads never read past the last
 * trip: a trip past it loads the last trip again (in bounds, unused), so
 * trip counts of 1, odd ones and runtime ones need no epilogue; a runtime
 * count of 0 skips the prologue with the loop (the prologue block lies
 * after the trip-count guard). When two buffers of every tile do not fit in
 * LDS, the loop gets one (the plan places them: passes/plan/lds_place.c).
 *
 * Global reads of the body (not staged: gemm_global's operands) are
 * prefetched the same way without LDS: the prologue loads trip 0 into a
 * carried register set N; in trip i the read's value is a copy of N and
 * N = load(min(i + 1, last)) follows at once, so those loads are in flight
 * during the rest of the trip.
 *
 * Contract: a load lowered between isel_pf_begin and isel_pf_end sees the
 * induction variable as the trip it prefetches and none of the expression
 * cache's loop-dependent entries (they hold the current trip's values);
 * entries it makes that do not depend on the loop were hoisted before the
 * loop and are kept. */
#include <stdlib.h>

#include "isel.h"

void isel_pf_plan_globals(Isel *s, Region *r, Pipe *p)
{
	p->gops = ARENA_NEWN(&s->c->arena, Op *, r->ops.len + 1);
	p->gnext = ARENA_NEWN(&s->c->arena, TVal *, r->ops.len + 1);
	for (size_t i = 0; i < r->ops.len; i++)
		if (s->plan->read[r->ops.data[i]->id] & PLAN_READ_PREFETCHED)
			p->gops[p->ng++] = r->ops.data[i];
}

/* Name op on what b has had since instruction first. */
static void note_op(MBlock *b, size_t first, const Op *op)
{
	for (size_t j = first; b && j < b->insts.len; j++)
		if (!b->insts.data[j].note)
			b->insts.data[j].note = op->name;
}

void isel_pf_globals_prologue(Isel *s, Pipe *p)
{
	for (size_t i = 0; i < p->ng && !s->c->failed; i++) {
		Op *op = p->gops[i];
		size_t first = s->b->insts.len, pfirst = s->pre ? s->pre->insts.len : 0;
		TVal *v = isel_read_global(s, op, op->args[0], s->c->index[op->id]);
		if (!v)
			return;
		p->gnext[i] = isel_pf_carried(s, v);
		note_op(s->b, first, op);
		note_op(s->pre, pfirst, op);
	}
}

/* New vregs shaped as v's (carried registers are distinct vregs, whole
 * or dwords of tuples): each tuple of v has a new one of its class, so
 * whatever reads v's tuples whole reads the copy's the same way. */
static bool first_dword(const TVal *v, int k);

static TVal *tval_same_shape(Isel *s, const TVal *v)
{
	Arena *ar = &s->c->arena;
	TVal *r = ARENA_NEW(ar, TVal);
	*r = *v;
	r->d = ARENA_NEWN(ar, MOpnd, v->nd ? v->nd : 1);
	uint32_t *from = ARENA_NEWN(ar, uint32_t, v->nd + 1), *to = ARENA_NEWN(ar, uint32_t, v->nd + 1);
	int n = 0;
	for (int k = 0; k < v->nd; k++) {
		int j = 0;
		while (j < n && from[j] != v->d[k].reg)
			j++;
		if (j == n) {
			from[n] = v->d[k].reg;
			to[n++] = mfunc_vreg(s->f, s->f->vregs.data[v->d[k].reg]);
		}
		r->d[k] = v->d[k];
		r->d[k].reg = to[j];
	}
	return r;
}

TVal *isel_pf_global_read(Isel *s, Op *op)
{
	Pipe *p = s->pipe;
	size_t i = 0;
	while (p && p->body == op->parent && i < p->ng && p->gops[i] != op)
		i++;
	if (!p || p->body != op->parent || i == p->ng || !p->gnext[i])
		return NULL;
	/* this trip's values move out of the carried registers, which the
	 * next trip's loads then refill while this trip computes */
	TVal *next = p->gnext[i], *cur = tval_same_shape(s, next);
	for (int k = 0; k < next->nd; k++)
		if (first_dword(next, k))
			isel_mov(s, cur->d[k], next->d[k]);
	PfSave sv;
	isel_pf_begin(s, 1, &sv);
	TVal *v = isel_read_global(s, op, op->args[0], s->c->index[op->id]);
	if (v)
		isel_pf_into(s, v, next);
	isel_pf_end(s, &sv);
	return v ? cur : NULL;
}

Pipe *isel_pf_new(Isel *s, const TileLoop *t, Op *op, const LoopPlan *lp)
{
	SymCtx *sc = s->c->k->sc;
	Pipe *p = ARENA_NEW(&s->c->arena, Pipe);
	p->body = op->body;
	p->lp = lp;
	p->nbuf = lp->lds_stages > 1 ? 2 : 1;
	/* the loop's own count: a set_symbol of its dim (extent.c) changes it
	 * from the launch extent's, and a prefetch clamped to the launch
	 * extent's last trip would load that trip again for the later ones */
	p->last = t->trips > 0 ? sym_int(sc, t->trips - 1) : sym_sub(sc, isel_loop_count(s, t), sym_int(sc, 1));
	p->prol = mfunc_block(s->f, NULL);
	return p;
}

void isel_pf_begin(Isel *s, int ahead, PfSave *sv)
{
	SymCtx *sc = s->c->k->sc;
	sv->iv = s->iv;
	if (ahead > 0) {
		/* min(iv + ahead, last), lowered with the current trip's cache */
		Sym *trip = sym_min(sc, sym_add(sc, s->iv_sym, sym_int(sc, ahead)), s->pipe->last);
		MOpnd x = isel_expr_to_sgpr(s, isel_expr_lower(s, trip, s->pipe->body->owner->loc));
		if (x.kind != MO_VREG || x.rc != RC_S1) { /* cannot happen: it mentions iv */
			MOpnd d = mo_vreg(mfunc_vreg(s->f, RC_S1), RC_S1);
			mblock_add(s->b, I_S_MOV_B32, 1, &d, 1, &x);
			x = d;
		}
		s->iv = x.reg;
	}
	sv->data = s->cache.data;
	sv->len = s->cache.len;
	sv->cap = s->cache.cap;
	s->cache.data = NULL;
	s->cache.len = s->cache.cap = 0;
	/* the loop-invariant entries stay valid */
	for (size_t i = 0; i < sv->len; i++)
		if (!isel_depends_on_loop(s, sv->data[i].e))
			vec_push(&s->cache, sv->data[i]);
}

void isel_pf_end(Isel *s, PfSave *sv)
{
	ExprCacheEnt *tmp = s->cache.data;
	size_t n = s->cache.len;
	s->cache.data = sv->data;
	s->cache.len = sv->len;
	s->cache.cap = sv->cap;
	for (size_t i = 0; i < n; i++) {
		if (isel_depends_on_loop(s, tmp[i].e))
			continue;
		/* s->cache, not sv->data: a push below may move the array */
		bool known = false;
		for (size_t j = 0; j < sv->len && !known; j++)
			known = s->cache.data[j].e == tmp[i].e;
		if (!known)
			vec_push(&s->cache, tmp[i]);
	}
	free(tmp);
	s->iv = sv->iv;
}

/* Is dword k of v the first of v's dwords in its register? (A value of
 * scale dwords, TVal.sel, names each dword once per element in it.) */
static bool first_dword(const TVal *v, int k)
{
	for (int j = 0; j < k; j++)
		if (v->d[j].kind == MO_VREG && v->d[j].reg == v->d[k].reg && v->d[j].sub == v->d[k].sub)
			return false;
	return true;
}

/* Are v's dwords distinct virtual registers (or distinct dwords of them;
 * scale dwords repeat by design: each load's own register)? */
static bool distinct_vregs(const TVal *v)
{
	for (int k = 0; k < v->nd; k++) {
		if (v->d[k].kind != MO_VREG || rc_file(v->d[k].rc) != RF_VGPR)
			return false;
		if (!v->sel && !first_dword(v, k))
			return false;
	}
	return true;
}

TVal *isel_pf_carried(Isel *s, TVal *v)
{
	if (distinct_vregs(v))
		return v;
	TVal *r = ARENA_NEW(&s->c->arena, TVal);
	*r = *v;
	r->splat = false;
	r->d = ARENA_NEWN(&s->c->arena, MOpnd, v->nd ? v->nd : 1);
	for (int k = 0; k < v->nd; k++) {
		r->d[k] = isel_v1(s);
		isel_mov(s, r->d[k], v->d[k]);
	}
	return r;
}

void isel_pf_into(Isel *s, const TVal *fresh, const TVal *carried)
{
	/* copies: coalesce_copies (regalloc/coalesce.c) renames the loads'
	 * registers to the carried ones where nothing else reads them between */
	for (int k = 0; k < carried->nd; k++)
		if (first_dword(carried, k))
			isel_mov(s, carried->d[k], fresh->d[k]);
}
