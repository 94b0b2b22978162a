/* trip_range.c — the bound analysis of a loop over a sub-range of its
 * trips: does a relation over the induction variable hold in every trip
 * of the range (analysis_range_proves)?
 *
 * Why: a loop split into a main loop over the whole tiles and a tail
 * (passes/plan/plan.c step 2, causal attention's diagonal split:
 * passes/plan/diag_split.c) runs its induction variable over [from, to)
 * only, not over every trip the tiling constraint gives; the analysis'
 * assumptions (indices.c: 0 <= iv < trips) cannot see that, so the bounds
 * and conditions a trip of the range makes true must be proved from the
 * range itself. The range is a value of its own (TripRange) so that the
 * split can later be made in the graph (two iterates over one tiling
 * constraint, each with its range) and proved the same way.
 *
 * Algorithm: rel over iv holds for every iv in [from, hi] when, with iv
 * replaced by hi - u and u >= 0 a symbol of this file's (assumed once per
 * analysis, mentioned nowhere else), it simplifies to True under the
 * analysis' assumptions: for every u >= 0, so for every iv <= hi. hi is
 * to - 1 + ahead, ahead the trips a pipelined loop's loads read past the
 * current one; `to` may be a Min (a count capped by the trips, or by a
 * run-time expression), whose every argument is at least `to`: each is
 * tried. Failing that, and when from is given (a tail), iv replaced by
 * from + u: for every iv >= from. Both are sufficient conditions (the
 * simplifier proves what it can), so a relation not proved keeps its mask. */
#include "analysis.h"

/* u >= 0, assumed on first use. */
static Sym *range_u(Analysis *c)
{
	if (!c->range_u) {
		SymCtx *sc = c->k->sc;
		const char *why;
		c->range_u = sym_symbol(sc, "$RANGE_U");
		sym_assume_add(c->assume, sym_rel(sc, SYM_GE, c->range_u, sym_int(sc, 0)), &why);
	}
	return c->range_u;
}

/* Is rel True with iv replaced by at? */
static bool true_at(Analysis *c, const TileLoop *t, Sym *rel, Sym *at)
{
	SymCtx *sc = c->k->sc;
	Sym *iv = t->iv;
	return sym_kind(sym_simplify(sc, sym_subs(sc, rel, 1, &iv, &at), c->assume)) == SYM_TRUE;
}

bool analysis_range_proves(Analysis *c, const TileLoop *t, const TripRange *r, Sym *rel)
{
	SymCtx *sc = c->k->sc;
	Sym *u = range_u(c);
	if (r->to) {
		int n = sym_kind(r->to) == SYM_MIN ? sym_nargs(r->to) : 1;
		for (int i = 0; i < n; i++) {
			Sym *to = n > 1 ? sym_arg(r->to, i) : r->to;
			Sym *hi = sym_add(sc, to, sym_int(sc, r->ahead - 1));
			if (true_at(c, t, rel, sym_sub(sc, hi, u)))
				return true;
		}
	}
	return r->from && true_at(c, t, rel, sym_add(sc, r->from, u));
}
