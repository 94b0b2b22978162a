/* prefetch.c — the `prefetch` schedule of a reduction loop (Wave's
 * SchedulingType.PREFETCH), the parts that are not about LDS: which loops
 * get it, the trip a prefetching load reads, and the register set the
 * prefetched tiles are carried in. shared.c does the staging itself.
 *
 * The schedule (shared.c, isel_stage_shared and isel_stage_shared_end):
 *     prologue:  R = load(trip 0); s_barrier; LDS[0] = R; s_barrier;
 *                R = load(min(1, last))
 *     trip i:    the body (LDS reads of buffer i % S, MFMAs, ...);
 *                [S = 1: s_barrier]; LDS[(i + 1) % S] = R; s_barrier;
 *                R = load(min(i + 2, last))
 * so the global loads of trip i + 1 are in flight while trip i's MFMAs run,
 * and with S = 2 LDS buffers one barrier per trip suffices (a wave writes
 * buffer (i+1) % 2 only after every wave passed the barrier that ends trip
 * i - 1, the last reads of that buffer). The loads never read past the last
 * trip: a trip past it loads the last trip again (in bounds, unused), so
 * trip counts of 1, odd ones and runtime ones need no epilogue; a runtime
 * count of 0 skips the prologue with the loop (the prologue block lies
 * after the trip-count guard).
 *
 * Contract: a load lowered between isel_pf_begin and isel_pf_end sees the
 * induction variable as the trip it prefetches and none of the expression
 * cache's loop-dependent entries (they hold the current trip's values);
 * entries it makes that do not depend on the loop were hoisted before the
 * loop and are kept. */
#include <stdlib.h>

#include "isel.h"

bool isel_pf_wanted(Isel *s, const TileLoop *t, Op *op)
{
	return s->c->opts.schedule == SCHED_PREFETCH && analysis_many(t->trips) && !s->masked &&
	       isel_has_staged_reads(s, op->body);
}

Pipe *isel_pf_new(Isel *s, const TileLoop *t, Op *op)
{
	SymCtx *sc = s->c->k->sc;
	Pipe *p = ARENA_NEW(&s->c->arena, Pipe);
	p->body = op->body;
	p->nbuf = s->c->opts.lds_stages > 1 ? 2 : 1;
	p->last = t->trips > 0 ? sym_int(sc, t->trips - 1) : sym_sub(sc, t->count, sym_int(sc, 1));
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
		bool known = false;
		for (size_t j = 0; j < sv->len && !known; j++)
			known = sv->data[j].e == tmp[i].e;
		if (!known)
			vec_push(&s->cache, tmp[i]);
	}
	free(tmp);
	s->iv = sv->iv;
}

/* Are v's dwords distinct virtual registers (or distinct dwords of them)? */
static bool distinct_vregs(const TVal *v)
{
	for (int k = 0; k < v->nd; k++) {
		if (v->d[k].kind != MO_VREG || rc_file(v->d[k].rc) != RF_VGPR)
			return false;
		for (int j = 0; j < k; j++)
			if (v->d[j].reg == v->d[k].reg && v->d[j].sub == v->d[k].sub)
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

/* The map from the vregs of `fresh` to those of `carried`, when each of
 * fresh's vregs maps whole onto one of carried's of the same class (dword
 * for dword) and no two onto the same; 0 entries otherwise. */
static size_t rename_map(Isel *s, const TVal *fresh, const TVal *carried, uint32_t *from, uint32_t *to)
{
	size_t n = 0;
	if (fresh->nd != carried->nd || !distinct_vregs(fresh))
		return 0;
	for (int k = 0; k < fresh->nd; k++) {
		MOpnd a = fresh->d[k], b = carried->d[k];
		if (a.sub != b.sub || s->f->vregs.data[a.reg] != s->f->vregs.data[b.reg])
			return 0;
		size_t j = 0;
		while (j < n && from[j] != a.reg)
			j++;
		if (j < n ? to[j] != b.reg : false)
			return 0;
		if (j == n) {
			for (size_t q = 0; q < n; q++)
				if (to[q] == b.reg)
					return 0;
			from[n] = a.reg;
			to[n++] = b.reg;
		}
	}
	return n;
}

void isel_pf_into(Isel *s, size_t first, const TVal *fresh, const TVal *carried)
{
	Arena *ar = &s->c->arena;
	uint32_t *from = ARENA_NEWN(ar, uint32_t, fresh->nd + 1), *to = ARENA_NEWN(ar, uint32_t, fresh->nd + 1);
	size_t n = rename_map(s, fresh, carried, from, to);
	if (!n) { /* another shape: copies */
		for (int k = 0; k < carried->nd; k++)
			isel_mov(s, carried->d[k], fresh->d[k]);
		return;
	}
	/* the loads wrote fresh's vregs since `first`: they write carried's
	 * instead (nothing else names fresh's vregs) */
	for (size_t i = first; i < s->b->insts.len; i++) {
		MInst *in = &s->b->insts.data[i];
		MOpnd *ops[MI_MAX_DEFS + MI_MAX_USES];
		int m = 0;
		for (int d = 0; d < in->ndef; d++)
			ops[m++] = &in->def[d];
		for (int u = 0; u < in->nuse; u++)
			ops[m++] = &in->use[u];
		for (int q = 0; q < m; q++)
			for (size_t j = 0; ops[q]->kind == MO_VREG && j < n; j++)
				if (ops[q]->reg == from[j]) {
					ops[q]->reg = to[j];
					break;
				}
	}
}
