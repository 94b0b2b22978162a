/* hazard_check.c — the independent hazard checker: for every instruction of
 * the final stream, walk backwards over every path that reaches it (into
 * each predecessor block, loop back edges included), counting wait states
 * — 1 per instruction, k + 1 for `s_nop k` — and ask each instruction met
 * within HZ_MAX_STATES wait states what the rules (hazard_rules.h) require
 * between it and this one. A requirement larger than the wait states on
 * that path is reported, once per (instruction, rule). The soft-clause row
 * is checked the same way: on each path, the back-to-back VMEM (or SMEM)
 * instructions just before a memory instruction form its clause.
 *
 * It shares the rule table and hz_need with the resolver (hazards.c) and
 * nothing else: no state merging, no fixpoint — a plain path walk, bounded
 * because every instruction counts at least one wait state. A block reached
 * again at the same distance is not walked twice (same producers, same
 * distances). */
#include <stdlib.h>
#include <string.h>

#include "hazard_rules.h"
#include "machine.h"

typedef struct Walk {
	const MFunc *f;
	Vec(int) *preds;
	const MInst *c; /* the consumer */
	size_t cb, ci;  /* its place */
	bool reported[HZ_COUNT];
	bool *seen; /* [block][distance] */
	Buf *msg;
	int bad;
} Walk;

static void report(Walk *w, HazardRule r, int have, int need, const MInst *p, size_t pb, size_t pi)
{
	if (w->reported[r])
		return;
	w->reported[r] = true;
	w->bad++;
	buf_printf(w->msg, "hazard check: %s: block %zu inst %zu (%s): %s: %d of %d wait states after %s (block %zu inst %zu)\n",
		w->f->name, w->cb, w->ci, mop_name(w->c->op), hazard_rule_name[r], have, need, mop_name(p->op), pb, pi);
}

/* Instructions [0, end) of block bi, the nearest `dist` wait states away. */
static void scan(Walk *w, size_t bi, size_t end, int dist)
{
	const MBlock *b = w->f->blocks.data[bi];
	for (size_t j = end; j-- > 0;) {
		const MInst *p = &b->insts.data[j];
		if (p->op == I_S_NOP) {
			dist += (int)p->use[0].imm + 1;
		} else {
			HazardRule r;
			int need = hz_need(w->f->target, p, w->c, &r);
			if (need > dist)
				report(w, r, dist, need, p, bi, j);
			dist++;
		}
		if (dist >= HZ_MAX_STATES)
			return;
	}
	for (size_t k = 0; k < w->preds[bi].len; k++) {
		int pb = w->preds[bi].data[k];
		bool *s = &w->seen[(size_t)pb * HZ_MAX_STATES + (size_t)dist];
		if (*s)
			continue;
		*s = true;
		scan(w, (size_t)pb, w->f->blocks.data[pb]->insts.len, dist);
	}
}

enum { MAX_MEMBERS = 64 };

/* The clause m[0..n) (nearest first) ends here: judge it. */
static void clause_end(Walk *w, const MInst **m, int n)
{
	if (!hz_clause_need(m, n, w->c) || w->reported[HZ_SOFT_CLAUSE])
		return;
	w->reported[HZ_SOFT_CLAUSE] = true;
	w->bad++;
	buf_printf(w->msg, "hazard check: %s: block %zu inst %zu (%s): %s\n", w->f->name, w->cb, w->ci,
		mop_name(w->c->op), hazard_rule_name[HZ_SOFT_CLAUSE]);
}

/* Collect the clause before [0, end) of block bi on each path. */
static void clause_scan(Walk *w, size_t bi, size_t end, int kind, const MInst **m, int n, int depth)
{
	const MBlock *b = w->f->blocks.data[bi];
	for (size_t j = end; j-- > 0;) {
		const MInst *p = &b->insts.data[j];
		int k;
		if (!hz_clause_kind(p, &k) || k != kind || n == MAX_MEMBERS) {
			clause_end(w, m, n);
			return;
		}
		m[n++] = p;
	}
	/* Only a block without a branch at its end can continue a clause into
	 * the next, so a cycle stops at its branch; depth is a safety net. */
	if (!w->preds[bi].len || depth > 64) {
		clause_end(w, m, n);
		return;
	}
	for (size_t k = 0; k < w->preds[bi].len; k++) {
		const MInst *copy[MAX_MEMBERS];
		memcpy(copy, m, (size_t)n * sizeof *m);
		int pb = w->preds[bi].data[k];
		clause_scan(w, (size_t)pb, w->f->blocks.data[pb]->insts.len, kind, copy, n, depth + 1);
	}
}

int check_hazards(const MFunc *f, Buf *msg)
{
	size_t nb = f->blocks.len;
	Walk w = {.f = f, .msg = msg};
	w.preds = xcalloc(nb ? nb : 1, sizeof *w.preds);
	w.seen = xcalloc((nb ? nb : 1) * HZ_MAX_STATES, sizeof *w.seen);
	for (size_t bi = 0; bi < nb; bi++) {
		int succ[2], ns = mfunc_succs(f, bi, succ);
		for (int k = 0; k < ns; k++)
			vec_push(&w.preds[succ[k]], (int)bi);
	}
	for (size_t bi = 0; bi < nb; bi++) {
		const MBlock *b = f->blocks.data[bi];
		for (size_t i = 0; i < b->insts.len; i++) {
			if (b->insts.data[i].op == I_S_NOP)
				continue;
			w.c = &b->insts.data[i];
			w.cb = bi;
			w.ci = i;
			memset(w.reported, 0, sizeof w.reported);
			memset(w.seen, 0, nb * HZ_MAX_STATES * sizeof *w.seen);
			scan(&w, bi, i, 0);
			int kind;
			if (hz_clause_kind(w.c, &kind)) {
				const MInst *m[MAX_MEMBERS];
				clause_scan(&w, bi, i, kind, m, 0, 0);
			}
		}
	}
	for (size_t bi = 0; bi < nb; bi++)
		vec_free(&w.preds[bi]);
	free(w.preds);
	free(w.seen);
	return w.bad;
}
