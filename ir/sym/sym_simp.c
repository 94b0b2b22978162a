/* sym_simp.c — simplification under assumptions.
 *
 * Bottom-up: a node's children are simplified first, the node is rebuilt
 * through the canonicalising constructors, then the rules of its kind run.
 * Results are memoised per node under the context's cache epoch, so shared
 * subterms (and repeated expressions sharing a context and an assumption
 * set) are simplified once. Every rule is an identity over the integers
 * given the assumptions; rules that may grow the expression (expansion,
 * ceiling as -floor(-x)) are kept only when the result is smaller.
 *
 * Rules by kind (see docs/sym.md for the list with examples):
 *   Add    like terms (constructor); expansion of products of sums when it
 *          shrinks; n*c*floor(X/n) + c*Mod(X, n) -> c*X and
 *          c*X - n*c*floor(X/n) -> c*Mod(X, n); a factor common to every
 *          term comes out when that is smaller
 *   floor  constant from bounds; integer-valued terms and the integer part
 *          of a constant pulled out; fractional parts below the lattice
 *          step of the rest dropped; floor(floor(z)/n + r) ->
 *          floor(z/n + r); integer-valued args
 *   ceiling through -floor(-x) when that is smaller
 *   Mod    terms that are multiples of n dropped (also for a symbolic n);
 *          Mod(Mod(z, k*n), n) -> Mod(z, n); the constant into [0, n);
 *          in-range argument kept; lattice multiples -> 0
 *   Max/Min dominated arguments dropped by bounds (their own, or their difference's)
 *   xor    bit-disjoint operands become a sum; high bits split off
 *   relations decided by bounds, lattices and assumed facts
 *   Piecewise conditions decided; each value simplified knowing its
 *          condition holds and earlier ones failed (scoped bounds). */
#include <string.h>

#include "sym_int.h"

static Sym *simp(SymCtx *c, Sym *e);

#define MAX_EXPAND_TERMS 64

static int nterms(const Sym *e) { return e->kind == SYM_ADD ? (int)e->nargs : 1; }
static Sym *const *terms(Sym *const *e) { return (*e)->kind == SYM_ADD ? (*e)->args : e; }

static bool bnd_in(SymBound b, SymRat lo, SymRat hi_excl)
{
	return b.has_lo && b.has_hi && sym_rat_cmp(b.lo, lo) >= 0 && sym_rat_cmp(b.hi, hi_excl) < 0;
}

/* ---- expansion ---- */

/* Distribute a product over its sum factors; e itself if none or too big. */
static Sym *expand_mul(SymCtx *c, Sym *e)
{
	if (e->kind != SYM_MUL)
		return e;
	int nsum = 0, prod = 1;
	for (uint32_t i = 0; i < e->nargs; i++)
		if (e->args[i]->kind == SYM_ADD) {
			nsum++;
			prod *= (int)e->args[i]->nargs;
			if (prod > MAX_EXPAND_TERMS)
				return e;
		}
	if (!nsum)
		return e;
	SymVec acc = {0}, next = {0}, other = {0};
	for (uint32_t i = 0; i < e->nargs; i++)
		if (e->args[i]->kind != SYM_ADD)
			vec_push(&other, e->args[i]);
	vec_push(&acc, sym_mulv(c, (int)other.len, other.data));
	for (uint32_t i = 0; i < e->nargs; i++) {
		Sym *s = e->args[i];
		if (s->kind != SYM_ADD)
			continue;
		next.len = 0;
		for (size_t a = 0; a < acc.len; a++)
			for (uint32_t j = 0; j < s->nargs; j++)
				vec_push(&next, sym_mul(c, acc.data[a], s->args[j]));
		SymVec t = acc;
		acc = next;
		next = t;
	}
	Sym *r = sym_addv(c, (int)acc.len, acc.data);
	vec_free(&acc);
	vec_free(&next);
	vec_free(&other);
	return r;
}

static Sym *expand_sum(SymCtx *c, Sym *e)
{
	Sym *const *ts = terms(&e);
	int n = nterms(e);
	bool any = false;
	for (int i = 0; i < n && !any; i++)
		any = ts[i]->kind == SYM_MUL && expand_mul(c, ts[i]) != ts[i];
	if (!any)
		return e;
	SymVec v = {0};
	for (int i = 0; i < n; i++)
		vec_push(&v, expand_mul(c, ts[i]));
	Sym *r = sym_addv(c, (int)v.len, v.data);
	vec_free(&v);
	return r;
}

/* ---- Add: floor/Mod recombination ---- */

/* y = X/n with X having integer coefficients: n (1 if none). */
static int64_t denom_of(SymCtx *c, Sym *y)
{
	Sym *const *ts = terms(&y);
	int64_t l = 1;
	for (int i = 0; i < nterms(y); i++) {
		Sym *m;
		SymRat k = sym_coef(ts[i], &m, c);
		int64_t g = sym_gcd64(l, k.q);
		__int128 nl = (__int128)(l / g) * k.q;
		if (nl > ((int64_t)1 << 40))
			return 1;
		l = (int64_t)nl;
	}
	return l;
}

/* floor(y) = floor(X/n): the divisor n (a number or an expression) and X.
 * False if y has no recognisable divisor. */
static bool split_div(SymCtx *c, Sym *y, Sym **X, Sym **n)
{
	int64_t nn = denom_of(c, y);
	if (nn >= 2) {
		*n = sym_int(c, nn);
		*X = sym_scale(c, rat_i(nn), y);
		return true;
	}
	Sym *t = y->kind == SYM_ADD ? y->args[sym_isnum(y->args[0]) ? 1 : 0] : y;
	if (t->kind != SYM_MUL)
		return false;
	for (uint32_t i = 0; i < t->nargs; i++) {
		Sym *f = t->args[i];
		if (f->kind == SYM_POW && f->args[1] == c->neg_one) {
			*n = f->args[0];
			*X = expand_sum(c, expand_mul(c, sym_mul(c, y, *n)));
			return true;
		}
	}
	return false;
}

static Sym *sum_minus(SymCtx *c, Sym *sum, Sym *a, Sym *b, Sym *plus)
{
	Sym *v[4] = {sum, sym_neg(c, a), b ? sym_neg(c, b) : c->zero, plus};
	return sym_addv(c, 4, v);
}

/* The floor/Mod identity X = n*floor(X/n) + Mod(X, n), both ways:
 *   k*Mod(X, n) + k*n*floor(X/n) -> k*X
 *   k*X - k*n*floor(X/n)         -> k*Mod(X, n)
 * kept only when the sum gets smaller. */
/* The first factor of kind k in term t (t itself, or a factor of the
 * product t), or NULL. */
static Sym *factor_of_kind(Sym *t, SymKind k)
{
	if (t->kind == k)
		return t;
	if (t->kind == SYM_MUL)
		for (uint32_t i = 0; i < t->nargs; i++)
			if (t->args[i]->kind == k)
				return t->args[i];
	return NULL;
}

static bool sum_has_term(Sym *sum, Sym *t, uint32_t skip)
{
	for (uint32_t j = 0; j < sum->nargs; j++)
		if (j != skip && sum->args[j] == t)
			return true;
	return false;
}

/* The floor/Mod identity X = n*floor(X/n) + Mod(X, n), both ways:
 *   k*Mod(X, n) + k*n*floor(X/n) -> k*X      (k any coefficient)
 *   k*X - k*n*floor(X/n)         -> k*Mod(X, n)  (k a number)
 * kept only when the sum gets smaller. floor(X/n) is matched in its
 * simplified form and in its expanded form. */
/* The factors of a term without its numeric coefficient. */
static Sym *const *mono_of(Sym *const *t, int *n)
{
	Sym *x = *t;
	if (x->kind == SYM_MUL) {
		bool k = sym_isnum(x->args[0]);
		*n = (int)x->nargs - k;
		return x->args + k;
	}
	*n = sym_isnum(x) ? 0 : 1;
	return t;
}

static bool same_mono(Sym *const *a, Sym *const *b)
{
	int na, nb;
	Sym *const *fa = mono_of(a, &na), *const *fb = mono_of(b, &nb);
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++)
		if (fa[i] != fb[i])
			return false;
	return true;
}

/* Cheap filter: some term of y has the monomial of some term of sum other
 * than skip (X = n*y must share terms with the sum to cancel). */
static bool shares_mono(Sym *sum, uint32_t skip, Sym *y)
{
	Sym *const *ys = terms(&y);
	for (int k = 0; k < nterms(y); k++)
		for (uint32_t j = 0; j < sum->nargs; j++)
			if (j != skip && !sym_isnum(ys[k]) && same_mono(&sum->args[j], &ys[k]))
				return true;
	return false;
}

static Sym *recombine(SymCtx *c, Sym *sum)
{
	int limit = 8 + 2 * (int)sum->nargs; /* each change shrinks the sum */
	for (int iter = 0; iter < limit && sum->kind == SYM_ADD; iter++) {
		bool changed = false;
		for (uint32_t i = 0; i < sum->nargs && !changed; i++) {
			Sym *T = sum->args[i];
			Sym *md = factor_of_kind(T, SYM_MOD);
			/* a partner floor must exist (its argument need not look
			 * like X/n: floor(Mod(floor(x/16), 2)...) pairs with
			 * floor(x/32)) */
			bool any_floor = false;
			for (uint32_t j = 0; md && j < sum->nargs && !any_floor; j++)
				any_floor = j != i && factor_of_kind(sum->args[j], SYM_FLOOR);
			if (md && any_floor) {
				Sym *X = md->args[0], *n = md->args[1];
				Sym *k = sym_div(c, T, md);
				Sym *q = sym_div(c, X, n);
				Sym *Fs[3] = {simp(c, sym_floor(c, q)), NULL, NULL};
				Sym *qe = expand_sum(c, expand_mul(c, q));
				if (qe != q) {
					Fs[1] = sym_floor(c, qe);
					Fs[2] = simp(c, Fs[1]);
				}
				for (int f = 0; f < 3 && !changed; f++) {
					if (!Fs[f] || (f && Fs[f] == Fs[0]))
						continue;
					Sym *target = sym_mul(c, k, sym_mul(c, n, Fs[f]));
					if (!sum_has_term(sum, target, i))
						continue;
					Sym *r = sum_minus(c, sum, T, target, sym_mul(c, k, X));
					if (r->size < sum->size) {
						sum = r;
						changed = true;
					}
				}
				if (changed)
					continue;
			}
			Sym *fl = factor_of_kind(T, SYM_FLOOR);
			if (!fl)
				continue;
			/* X's terms must be in the sum; with a numeric divisor they
			 * are y's terms scaled */
			if (denom_of(c, fl->args[0]) >= 2 && !shares_mono(sum, i, fl->args[0]))
				continue;
			Sym *X, *n;
			if (!split_div(c, fl->args[0], &X, &n))
				continue;
			/* T = -kk*n*floor(X/n) for a number kk */
			Sym *q = sym_div(c, T, sym_mul(c, n, fl));
			if (!sym_isnum(q))
				continue;
			Sym *kk = sym_neg(c, q);
			Sym *rest = sum_minus(c, sum, T, sym_mul(c, kk, X), c->zero);
			/* X's terms must be there to cancel: the floor term and at
			 * least one more disappear */
			int nrest = rest == c->zero ? 0 : nterms(rest);
			if (rest->size >= sum->size || nrest > nterms(sum) - 2)
				continue;
			Sym *M = simp(c, sym_mod(c, X, n));
			Sym *r = sym_add(c, rest, sym_mul(c, kk, M));
			if (r->size < sum->size) {
				sum = r;
				changed = true;
			}
		}
		if (!changed)
			break;
	}
	return sum;
}

static bool has_floor_term(SymCtx *c, Sym *sum)
{
	(void)c;
	Sym *const *ts = terms(&sum);
	for (int i = 0; i < nterms(sum); i++)
		if (factor_of_kind(ts[i], SYM_FLOOR) || factor_of_kind(ts[i], SYM_MOD))
			return true;
	return false;
}

/* A sum simplified term by term (a non-sum simplified as a whole). */
static Sym *simp_terms(SymCtx *c, Sym *x)
{
	if (x->kind != SYM_ADD)
		return simp(c, x);
	SymVec v = {0};
	for (uint32_t i = 0; i < x->nargs; i++)
		vec_push(&v, simp(c, x->args[i]));
	Sym *r = sym_addv(c, (int)v.len, v.data);
	vec_free(&v);
	return r;
}

/* Common-factor collection: a factor every term has comes out when the
 * result is smaller (K*a/2 + K*b/2 -> K*(a + b)/2: one multiply, not two).
 * The sum's parents still see through it: sums expand products when that
 * lets terms cancel. */
static Sym *factor_common(SymCtx *c, Sym *sum)
{
	if (sum->nargs > 32 || sym_isnum(sum->args[0]))
		return sum;
	int nf;
	Sym *const *fs = mono_of(&sum->args[0], &nf);
	for (int i = 0; i < nf; i++) {
		Sym *f = fs[i];
		bool all = true;
		for (uint32_t j = 1; j < sum->nargs && all; j++) {
			int ng;
			Sym *const *gs = mono_of(&sum->args[j], &ng);
			all = false;
			for (int k = 0; k < ng && !all; k++)
				all = gs[k] == f;
		}
		if (!all)
			continue;
		Sym *inv = sym_pow(c, f, c->neg_one);
		SymVec q = {0};
		for (uint32_t j = 0; j < sum->nargs; j++)
			vec_push(&q, sym_mul(c, sum->args[j], inv));
		Sym *inner = sym_addv(c, (int)q.len, q.data);
		vec_free(&q);
		Sym *r = sym_mul(c, f, inner);
		if (r->kind != SYM_ERROR && r->size < sum->size)
			return r;
	}
	return sum;
}

static Sym *add_rules(SymCtx *c, Sym *e)
{
	Sym *best = e;
	if (has_floor_term(c, e))
		best = recombine(c, e);
	Sym *x = expand_sum(c, e);
	if (x != e) {
		/* the expanded terms may simplify further (new products) */
		x = simp_terms(c, x);
		if (x->kind == SYM_ADD && has_floor_term(c, x))
			x = recombine(c, x);
		if (x->size < best->size)
			best = x;
	}
	if (best->kind == SYM_ADD)
		best = factor_common(c, best);
	return best;
}

/* ---- floor / ceiling ---- */

static Sym *floor_rules(SymCtx *c, Sym *e);

static Sym *floor_of(SymCtx *c, Sym *y)
{
	Sym *f = sym_floor(c, y);
	return f->kind == SYM_FLOOR ? floor_rules(c, f) : f;
}

static Sym *floor_rules(SymCtx *c, Sym *e)
{
	Sym *y = e->args[0];
	SymBound b = sym_bnd(c, y);
	if (b.has_lo && b.has_hi && sym_rat_floor(b.lo) == sym_rat_floor(b.hi))
		return sym_int(c, sym_rat_floor(b.lo));
	if (sym_intval(c, y))
		return y;
	Sym *const *ts = terms(&y);
	int n = nterms(y);
	/* integer-valued terms come out, and the integer part of a rational
	 * constant: floor(x/7 + 181/7) = floor(x/7 + 6/7) + 25 */
	SymVec in = {0}, rest = {0};
	for (int i = 0; i < n; i++) {
		if (sym_intval(c, ts[i]))
			vec_push(&in, ts[i]);
		else if (ts[i]->kind == SYM_RAT && sym_rat_floor(ts[i]->u.num) != 0) {
			SymRat k = ts[i]->u.num, f;
			int64_t ki = sym_rat_floor(k);
			if (sym_rat_sub(k, rat_i(ki), &f)) {
				vec_push(&in, sym_int(c, ki));
				vec_push(&rest, sym_num(c, f));
			} else
				vec_push(&rest, ts[i]);
		} else
			vec_push(&rest, ts[i]);
	}
	Sym *r = NULL;
	if (in.len && rest.len) {
		Sym *fr = floor_of(c, sym_addv(c, (int)rest.len, rest.data));
		vec_push(&in, fr);
		r = sym_addv(c, (int)in.len, in.data);
		goto done;
	}
	/* floor(floor(z)/n + r) -> floor(z/n + r) when n*r is integer-valued */
	for (int i = 0; i < n; i++) {
		Sym *m;
		SymRat k = sym_coef(ts[i], &m, c);
		if (m->kind != SYM_FLOOR || k.p != 1 || k.q < 2)
			continue;
		Sym *others = sym_sub(c, y, ts[i]);
		if (!sym_intval(c, sym_scale(c, rat_i(k.q), others)))
			continue;
		r = floor_of(c, simp(c, sym_add(c, others, sym_scale(c, k, m->args[0]))));
		goto done;
	}
	/* floor(floor(z)/d) -> floor(z/d) for an integer d >= 1 */
	if (y->kind == SYM_MUL && y->nargs == 2) {
		int fi = y->args[0]->kind == SYM_FLOOR ? 0 : 1;
		Sym *fl = y->args[fi], *pw = y->args[1 - fi];
		if (fl->kind == SYM_FLOOR && pw->kind == SYM_POW && pw->args[1] == c->neg_one) {
			Sym *d = pw->args[0];
			SymBound db = sym_bnd(c, d);
			/* d == 0 makes both sides undefined, so d >= 0 suffices */
			if (sym_intval(c, d) && db.has_lo && db.lo.p >= 0) {
				r = floor_of(c, simp(c, sym_mul(c, fl->args[0], pw)));
				goto done;
			}
		}
	}
	/* drop a remainder that stays below the lattice step of the rest:
	 * with A in G*Z and rest in [j*G, (j+1)*G), floor(A + rest) =
	 * floor(A + j*G) */
	if (n >= 2 && n <= 16) {
		Sym *sorted[16];
		SymRat g[16];
		int ns = 0;
		Sym *k0 = NULL;
		bool ok = true;
		for (int i = 0; i < n; i++) {
			if (sym_isnum(ts[i])) {
				k0 = ts[i];
				continue;
			}
			g[ns] = sym_gran(c, ts[i]);
			if (g[ns].q == 0 || g[ns].p == 0) {
				ok = false;
				break;
			}
			sorted[ns++] = ts[i];
		}
		/* by lattice step, coarsest first (insertion sort: tiny n) */
		for (int i = 1; ok && i < ns; i++)
			for (int j = i; j > 0 && sym_rat_cmp(g[j], g[j - 1]) > 0; j--) {
				SymRat tg = g[j];
				g[j] = g[j - 1], g[j - 1] = tg;
				Sym *ts2 = sorted[j];
				sorted[j] = sorted[j - 1], sorted[j - 1] = ts2;
			}
		/* suffix[t]: bounds of sorted[t..] plus the constant, summed
		 * directly (no sum nodes built for candidates that fail) */
		SymBound suffix[17];
		suffix[ns] = (SymBound){true, true, k0 ? k0->u.num : (SymRat){0, 1}, k0 ? k0->u.num : (SymRat){0, 1}};
		for (int i = ns - 1; ok && i >= 0; i--)
			suffix[i] = sym_bound_add(sym_bnd(c, sorted[i]), suffix[i + 1]);
		for (int t = 1; ok && t <= ns; t++) {
			if (t == ns && !k0)
				break;
			/* G = gcd of the first t steps */
			SymRat G = g[0];
			for (int i = 1; i < t; i++) {
				__int128 x = (__int128)G.p * g[i].q, z = (__int128)g[i].p * G.q;
				while (z) {
					__int128 tt = x % z;
					x = z;
					z = tt;
				}
				if (!sym_rat_norm(x, (__int128)G.q * g[i].q, &G))
					ok = false;
			}
			if (!ok)
				break;
			/* only the step gcd(G, 1) = 1/q is safe: between consecutive
			 * multiples of 1/q lies no integer (with G = 3/2, A = 3/2
			 * and rest = 1 would cross 2) */
			G = (SymRat){1, G.q};
			SymBound rb = suffix[t];
			if (!rb.has_lo || !rb.has_hi)
				continue;
			SymRat q;
			if (!sym_rat_div(rb.lo, G, &q))
				continue;
			int64_t j = sym_rat_floor(q);
			SymRat lo, hi;
			if (!sym_rat_mul(rat_i(j), G, &lo) || !sym_rat_add(lo, G, &hi))
				continue;
			if (!bnd_in(rb, lo, hi))
				continue;
			Sym *A = sym_addv(c, t, sorted);
			Sym *ny = sym_add(c, A, sym_num(c, lo));
			if (ny == y)
				continue;
			r = floor_of(c, ny);
			goto done;
		}
	}
	/* (A + B*d)/d: expand a product over its sum; kept if that lets
	 * integer-valued terms out (they may cancel in an outer sum) or
	 * shrinks the floor */
	if (y->kind == SYM_MUL) {
		Sym *x = expand_mul(c, y);
		if (x != y) {
			/* term by term: simplifying the sum as a whole could factor
			 * it back into y */
			x = simp_terms(c, x);
			bool pulls = false;
			Sym *const *xs = terms(&x);
			for (int i = 0; i < nterms(x) && !pulls; i++)
				pulls = sym_intval(c, xs[i]);
			Sym *cand = floor_of(c, x);
			if (pulls || cand->size < e->size)
				r = cand;
		}
	}
done:
	vec_free(&in);
	vec_free(&rest);
	return r ? r : e;
}

static Sym *ceil_rules(SymCtx *c, Sym *e)
{
	Sym *y = e->args[0];
	SymBound b = sym_bnd(c, y);
	if (b.has_lo && b.has_hi && sym_rat_ceil(b.lo) == sym_rat_ceil(b.hi))
		return sym_int(c, sym_rat_ceil(b.lo));
	if (sym_intval(c, y))
		return y;
	Sym *f = floor_of(c, sym_neg(c, y));
	Sym *r = sym_neg(c, f);
	if (r->size < e->size)
		return r;
	/* ceiling(I + R) = I + ceiling(R) for integer-valued I */
	if (y->kind == SYM_ADD) {
		SymVec in = {0}, rest = {0};
		for (uint32_t i = 0; i < y->nargs; i++)
			vec_push(sym_intval(c, y->args[i]) ? &in : &rest, y->args[i]);
		Sym *res = e;
		if (in.len && rest.len) {
			vec_push(&in, ceil_rules(c, sym_ceil(c, sym_addv(c, (int)rest.len, rest.data))));
			res = sym_addv(c, (int)in.len, in.data);
		}
		vec_free(&in);
		vec_free(&rest);
		return res;
	}
	return e;
}

/* ---- Mod ---- */

static bool lattice_multiple(SymRat g, int64_t n)
{
	if (g.q == 0)
		return false;
	if (g.p == 0)
		return true;
	return g.q == 1 && g.p % n == 0;
}

static Sym *mod_rules(SymCtx *c, Sym *e)
{
	Sym *x = e->args[0], *m = e->args[1];
	if (m->kind == SYM_INT && m->u.num.p > 0) {
		int64_t n = m->u.num.p;
		if (lattice_multiple(sym_gran(c, x), n))
			return c->zero;
		SymBound b = sym_bnd(c, x);
		if (b.has_lo && b.has_hi) {
			SymRat q;
			if (sym_rat_div(b.lo, rat_i(n), &q)) {
				int64_t j = sym_rat_floor(q);
				SymRat lo, hi;
				if (sym_rat_mul(rat_i(j), rat_i(n), &lo) && sym_rat_add(lo, rat_i(n), &hi) && bnd_in(b, lo, hi))
					return j == 0 ? x : simp(c, sym_sub(c, x, sym_num(c, lo)));
			}
		}
		/* drop multiples of n; Mod(z, k*n) terms become z; an integer
		 * constant goes into [0, n) */
		Sym *const *ts = terms(&x);
		int nt = nterms(x);
		SymVec keep = {0};
		bool changed = false;
		for (int i = 0; i < nt; i++) {
			if (ts[i]->kind == SYM_INT && (ts[i]->u.num.p < 0 || ts[i]->u.num.p >= n)) {
				int64_t r = ts[i]->u.num.p % n;
				vec_push(&keep, sym_int(c, r < 0 ? r + n : r));
				changed = true;
				continue;
			}
			if (lattice_multiple(sym_gran(c, ts[i]), n)) {
				changed = true;
				continue;
			}
			Sym *mm;
			SymRat k = sym_coef(ts[i], &mm, c);
			if (mm->kind == SYM_MOD && mm->args[1]->kind == SYM_INT && k.q == 1 && sym_intval(c, mm->args[0])) {
				__int128 kn = (__int128)k.p * mm->args[1]->u.num.p;
				if (kn % n == 0) {
					vec_push(&keep, sym_scale(c, k, mm->args[0]));
					changed = true;
					continue;
				}
			}
			vec_push(&keep, ts[i]);
		}
		Sym *r = e;
		if (changed)
			r = simp(c, sym_mod(c, sym_addv(c, (int)keep.len, keep.data), m));
		vec_free(&keep);
		return r;
	}
	/* symbolic divisor: terms that are multiples of m drop out */
	if (!sym_isnum(m)) {
		Sym *xe = expand_sum(c, expand_mul(c, x));
		Sym *const *xs = terms(&xe);
		SymVec keep = {0};
		bool dropped = false;
		for (int i = 0; i < nterms(xe); i++) {
			Sym *q = simp(c, expand_mul(c, sym_div(c, xs[i], m)));
			if (q->kind != SYM_ERROR && sym_intval(c, q))
				dropped = true;
			else
				vec_push(&keep, xs[i]);
		}
		Sym *r = e;
		if (dropped)
			r = keep.len == 0 ? c->zero : simp(c, sym_mod(c, sym_addv(c, (int)keep.len, keep.data), m));
		vec_free(&keep);
		if (r != e)
			return r;
	}
	/* symbolic divisor: an argument in [0, m) is unchanged */
	SymBound bx = sym_bnd(c, x), bm = sym_bnd(c, m);
	if (bx.has_lo && bx.lo.p >= 0 && bx.has_hi && bm.has_lo && sym_rat_cmp(bx.hi, bm.lo) < 0)
		return x;
	return e;
}

/* ---- Max / Min ---- */

static Sym *minmax_rules(SymCtx *c, Sym *e)
{
	bool is_max = e->kind == SYM_MAX;
	int n = (int)e->nargs;
	SymBound bb[32];
	if (n > 32)
		return e;
	for (int i = 0; i < n; i++)
		bb[i] = sym_bnd(c, e->args[i]);
	SymVec keep = {0};
	for (int i = 0; i < n; i++) {
		bool dominated = false;
		for (int j = 0; j < n && !dominated; j++) {
			if (i == j)
				continue;
			/* Max: i is dominated if i.hi <= j.lo (ties keep the later) */
			if (is_max && bb[i].has_hi && bb[j].has_lo) {
				int r = sym_rat_cmp(bb[i].hi, bb[j].lo);
				dominated = r < 0 || (r == 0 && j > i) || (r == 0 && !(bb[j].has_hi && bb[i].has_lo &&
									       sym_rat_cmp(bb[j].hi, bb[i].lo) <= 0));
			}
			if (!is_max && bb[i].has_lo && bb[j].has_hi) {
				int r = sym_rat_cmp(bb[i].lo, bb[j].hi);
				dominated = r > 0 || (r == 0 && j > i) || (r == 0 && !(bb[j].has_lo && bb[i].has_hi &&
									       sym_rat_cmp(bb[j].lo, bb[i].hi) >= 0));
			}
		}
		/* or by the bounds of the difference (Min(x + 4, x) -> x: the
		 * two arguments' own bounds overlap, their difference's do not) */
		for (int j = 0; j < n && !dominated; j++) {
			if (i == j)
				continue;
			SymBound d = sym_bnd(c, sym_sub(c, e->args[i], e->args[j]));
			int r = is_max ? (d.has_hi ? sym_rat_cmp(d.hi, rat_i(0)) : 1)
				       : (d.has_lo ? -sym_rat_cmp(d.lo, rat_i(0)) : 1);
			dominated = r < 0 || (r == 0 && j > i);
		}
		if (!dominated)
			vec_push(&keep, e->args[i]);
	}
	Sym *r = e;
	if (keep.len && (int)keep.len < n)
		r = is_max ? sym_maxv(c, (int)keep.len, keep.data) : sym_minv(c, (int)keep.len, keep.data);
	vec_free(&keep);
	return r;
}

/* ---- xor ---- */

static Sym *xor_rules(SymCtx *c, Sym *e)
{
	for (int s = 0; s < 2; s++) {
		Sym *u = e->args[s], *v = e->args[1 - s];
		SymBound bv = sym_bnd(c, v);
		if (!bv.has_lo || bv.lo.p < 0 || !bv.has_hi || !sym_intval(c, u) || !sym_intval(c, v))
			continue;
		int64_t p = 1;
		while (sym_rat_cmp(rat_i(p), bv.hi) <= 0 && p < ((int64_t)1 << 40))
			p <<= 1;
		/* u = H + L with H a multiple of p and L, v in [0, p): xor(u, v)
		 * = H + xor(L, v); L == 0 makes it a plain sum. p grows to cover
		 * L if it must. */
		Sym *const *ts = terms(&u);
		SymVec hi = {0}, lo = {0};
		Sym *r = NULL;
		for (int tries = 0; tries < 3 && !r; tries++) {
			hi.len = lo.len = 0;
			for (int i = 0; i < nterms(u); i++)
				vec_push(lattice_multiple(sym_gran(c, ts[i]), p) ? &hi : &lo, ts[i]);
			if (!hi.len)
				break;
			Sym *L = sym_addv(c, (int)lo.len, lo.data);
			SymBound bl = sym_bnd(c, L);
			if (bnd_in(bl, rat_i(0), rat_i(p))) {
				Sym *H = sym_addv(c, (int)hi.len, hi.data);
				r = sym_add(c, H, L == c->zero ? v : simp(c, sym_xor(c, L, v)));
			} else if (bl.has_lo && bl.lo.p >= 0 && bl.has_hi && p < ((int64_t)1 << 40)) {
				while (sym_rat_cmp(rat_i(p), bl.hi) <= 0 && p < ((int64_t)1 << 40))
					p <<= 1;
			} else
				break;
		}
		vec_free(&hi);
		vec_free(&lo);
		if (r)
			return r;
	}
	return e;
}

/* ---- relations ---- */

static Sym *rel_rules(SymCtx *c, Sym *e)
{
	Sym *d = e->args[0];
	SymBound b = sym_bnd(c, d);
	int lo_s = b.has_lo ? (b.lo.p > 0) - (b.lo.p < 0) : -2; /* sign of lo, -2: -inf */
	int hi_s = b.has_hi ? (b.hi.p > 0) - (b.hi.p < 0) : 2;
	int v = -1; /* -1 unknown, 0 false, 1 true */
	switch (e->kind) {
	case SYM_LT: v = hi_s < 0 ? 1 : lo_s >= 0 ? 0 : -1; break;
	case SYM_LE: v = hi_s <= 0 ? 1 : lo_s > 0 ? 0 : -1; break;
	case SYM_GT: v = lo_s > 0 ? 1 : hi_s <= 0 ? 0 : -1; break;
	case SYM_GE: v = lo_s >= 0 ? 1 : hi_s < 0 ? 0 : -1; break;
	case SYM_EQ: v = (lo_s > 0 || hi_s < 0) ? 0 : (lo_s == 0 && hi_s == 0) ? 1 : -1; break;
	case SYM_NE: v = (lo_s > 0 || hi_s < 0) ? 1 : (lo_s == 0 && hi_s == 0) ? 0 : -1; break;
	default: break;
	}
	if (v < 0 && (e->kind == SYM_EQ || e->kind == SYM_NE) && d->kind == SYM_ADD && sym_isnum(d->args[0])) {
		/* c0 + rest == 0 is impossible if c0 is off rest's lattice */
		Sym *rest = sym_sub(c, d, d->args[0]);
		SymRat g = sym_gran(c, rest), q;
		if (g.q != 0 && g.p != 0 && sym_rat_div(d->args[0]->u.num, g, &q) && q.q != 1)
			v = e->kind == SYM_NE;
	}
	if (v < 0) {
		if (sym_is_fact(c, e))
			v = 1;
		else if (sym_is_fact(c, sym_not(c, e)))
			v = 0;
	}
	return v < 0 ? e : v ? c->t : c->f;
}

/* ---- Piecewise ---- */

/* Scoped bounds from a condition known true (or, with neg, known false):
 * a true And gives all its operands, a false Or the negations of all of
 * its operands, a Not flips the polarity; a true Or or false And gives
 * nothing. */
static void scope_add(SymCtx *c, Sym *cond, bool neg)
{
	if (cond->kind == SYM_NOT) {
		scope_add(c, cond->args[0], !neg);
		return;
	}
	if (cond->kind == (neg ? SYM_OR : SYM_AND)) {
		for (uint32_t i = 0; i < cond->nargs; i++)
			scope_add(c, cond->args[i], neg);
		return;
	}
	if (cond->kind == SYM_AND || cond->kind == SYM_OR)
		return;
	if (neg) {
		cond = sym_not(c, cond); /* a relation: its negation holds */
		if (!sym_kind_is_rel((SymKind)cond->kind))
			return;
	}
	Sym *t;
	SymBound b;
	if (c->nover < (int)ARRAY_LEN(c->over) && sym_rel_bound(c, cond, &t, &b)) {
		c->over[c->nover].t = t;
		c->over[c->nover].b = b;
		c->nover++;
		/* a product known to be 0 whose other factors cannot be 0: that
		 * factor is 0 (a zero product rarely appears as a node again, its
		 * factors do) */
		SymBound tb = sym_bnd(c, t);
		if (b.has_lo && (!tb.has_lo || sym_rat_cmp(b.lo, tb.lo) > 0))
			tb.has_lo = true, tb.lo = b.lo;
		if (b.has_hi && (!tb.has_hi || sym_rat_cmp(b.hi, tb.hi) < 0))
			tb.has_hi = true, tb.hi = b.hi;
		bool zero = tb.has_lo && tb.has_hi && tb.lo.p == 0 && tb.hi.p == 0;
		for (uint32_t i = 0; zero && t->kind == SYM_MUL && i < t->nargs; i++) {
			bool others_nonzero = true;
			for (uint32_t j = 0; j < t->nargs && others_nonzero; j++) {
				if (j == i)
					continue;
				SymBound fb = sym_bnd(c, t->args[j]);
				others_nonzero = (fb.has_lo && fb.lo.p > 0) || (fb.has_hi && fb.hi.p < 0);
			}
			if (others_nonzero && c->nover < (int)ARRAY_LEN(c->over)) {
				c->over[c->nover].t = t->args[i];
				c->over[c->nover].b = (SymBound){true, true, {0, 1}, {0, 1}};
				c->nover++;
			}
		}
	}
}

static Sym *simp_piecewise(SymCtx *c, Sym *e)
{
	int n = (int)e->nargs / 2;
	SymVec vals = {0}, conds = {0};
	for (int i = 0; i < n; i++) {
		/* A scope gets a fresh cache epoch before its facts exist, so
		 * nothing computed with them is cached for the outer scope, and
		 * another once they all exist (bounds cached while they were
		 * being added may lack the later ones). A condition is only
		 * evaluated when the earlier ones failed, so it is simplified
		 * knowing that: Piecewise((a, x > 5), (b, x > 3), ...) keeps the
		 * second only for x in 4..5, and drops (c, x > 7) after x > 5. */
		uint32_t outer = c->epoch;
		int saved = c->nover;
		c->epoch = sym_tick(c);
		for (size_t j = 0; j < conds.len; j++)
			scope_add(c, conds.data[j], true);
		c->epoch = c->nover != saved ? sym_tick(c) : outer;
		Sym *cond = simp(c, e->args[2 * i + 1]);
		if (cond == c->f) {
			c->nover = saved;
			c->epoch = outer;
			continue;
		}
		c->epoch = sym_tick(c);
		scope_add(c, cond, false);
		c->epoch = c->nover != saved ? sym_tick(c) : outer;
		Sym *v = simp(c, e->args[2 * i]);
		c->nover = saved;
		c->epoch = outer;
		vec_push(&vals, v);
		vec_push(&conds, cond);
		if (cond == c->t)
			break;
	}
	Sym *r;
	bool same = vals.len > 0 && conds.data[conds.len - 1] == c->t;
	for (size_t i = 1; i < vals.len && same; i++)
		same = vals.data[i] == vals.data[0];
	if (same)
		r = vals.data[0];
	else
		r = sym_piecewise(c, (int)vals.len, vals.data, conds.data);
	vec_free(&vals);
	vec_free(&conds);
	return r;
}

/* ---- driver ---- */

static Sym *rules(SymCtx *c, Sym *e)
{
	switch (e->kind) {
	case SYM_ADD: return add_rules(c, e);
	case SYM_FLOOR: return floor_rules(c, e);
	case SYM_CEIL: return ceil_rules(c, e);
	case SYM_MOD: return mod_rules(c, e);
	case SYM_MAX:
	case SYM_MIN: return minmax_rules(c, e);
	case SYM_XOR: return xor_rules(c, e);
	case SYM_LT:
	case SYM_LE:
	case SYM_GT:
	case SYM_GE:
	case SYM_EQ:
	case SYM_NE: return rel_rules(c, e);
	default: return e;
	}
}

static Sym *simp(SymCtx *c, Sym *e)
{
	if (e->s_epoch == c->epoch)
		return e->simp;
	Sym *r = e;
	/* provisional entry: guards substitution cycles */
	e->simp = e;
	e->s_epoch = c->epoch;
	if (e->kind == SYM_SYMBOL) {
		if (e->a_epoch == c->a_epoch && e->a_subst)
			r = simp(c, e->a_subst);
	} else if (e->kind == SYM_PIECEWISE) {
		r = simp_piecewise(c, e);
	} else if (e->nargs) {
		Sym *buf[16], **a = e->nargs <= 16 ? buf : xmalloc(sizeof(Sym *) * e->nargs);
		bool same = true;
		for (uint32_t i = 0; i < e->nargs; i++) {
			a[i] = simp(c, e->args[i]);
			same &= a[i] == e->args[i];
		}
		Sym *nb = same ? e : sym_rebuild(c, e, a);
		if (a != buf)
			free(a);
		if (nb->kind != SYM_ERROR) {
			if (nb != e && nb->s_epoch == c->epoch)
				r = nb->simp;
			else
				r = rules(c, nb);
			/* a rule that overflowed (e.g. combining nested divisions)
			 * is not taken: the rebuilt node is still exact */
			if (r->kind == SYM_ERROR)
				r = nb;
		} else
			r = nb;
	}
	e->simp = r;
	e->s_epoch = c->epoch;
	if (r->s_epoch != c->epoch) {
		r->simp = r;
		r->s_epoch = c->epoch;
	}
	return r;
}

Sym *sym_simplify(SymCtx *c, Sym *e, const SymAssume *a)
{
	sym_install(c, a);
	if (e->kind == SYM_ERROR)
		return e;
	Sym *r = simp(c, e);
	/* every rewrite is an identity, so the smaller of the two is as good;
	 * an error from rewriting (overflow, or an assumption making a divisor
	 * 0) leaves the input as it was */
	if (r->kind == SYM_ERROR)
		return e;
	return r->size > e->size ? e : r;
}
