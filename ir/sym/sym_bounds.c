/* sym_bounds.c — assumption sets, interval bounds and lattices.
 *
 * An assumption set is turned into per-symbol records (a bound interval, a
 * known divisor, an equal expression) plus a list of other relations known
 * true. Installing a set stamps the records into the symbol nodes under a
 * fresh epoch, so lookups during simplification are a field read.
 *
 * Bounds: a closed rational interval per node, either side possibly
 * unbounded, computed bottom-up by interval arithmetic (products by their
 * corner values, Mod by its divisor, floor/ceiling by rounding the ends) and
 * cached per node under the context's cache epoch. Terms may carry scoped
 * extra bounds (a Piecewise branch's condition), which the simplifier
 * installs under a fresh epoch.
 *
 * Lattices: sym_gran(e) = g means every value of e is in g*Z (g = 0: e is
 * always 0; unknown if q == 0). Sums take the rational gcd, products the
 * product, Mod(x, n) the gcd of x's and n's. This is what proves
 * floor(K/32) == K/32 from Mod(K, 256) == 0, and drops multiples of n
 * inside Mod(., n). */
#include <string.h>

#include "sym_int.h"

/* ---- assumption sets ---- */

SymAssume *sym_assume_new(SymCtx *c)
{
	SymAssume *a = ARENA_NEW(&c->arena, SymAssume);
	a->c = c;
	return a;
}

static struct SymInfo *info_for(SymAssume *a, Sym *x)
{
	for (size_t i = 0; i < a->ninfo; i++)
		if (a->info[i].sym == x)
			return &a->info[i];
	if (a->ninfo == a->capinfo) {
		size_t nc = a->capinfo ? a->capinfo * 2 : 16;
		a->info = arena_realloc(&a->c->arena, a->info, a->capinfo * sizeof *a->info, nc * sizeof *a->info);
		a->capinfo = nc;
	}
	struct SymInfo *in = &a->info[a->ninfo++];
	memset(in, 0, sizeof *in);
	in->sym = x;
	in->mult = 1;
	return in;
}

static void add_fact(SymAssume *a, Sym *rel)
{
	if (a->nfacts == a->capfacts) {
		size_t nc = a->capfacts ? a->capfacts * 2 : 16;
		a->facts = arena_realloc(&a->c->arena, a->facts, a->capfacts * sizeof *a->facts, nc * sizeof *a->facts);
		a->capfacts = nc;
	}
	a->facts[a->nfacts++] = rel;
}

static void tighten_lo(SymBound *b, SymRat v)
{
	if (!b->has_lo || sym_rat_cmp(v, b->lo) > 0)
		b->lo = v, b->has_lo = true;
}

static void tighten_hi(SymBound *b, SymRat v)
{
	if (!b->has_hi || sym_rat_cmp(v, b->hi) < 0)
		b->hi = v, b->has_hi = true;
}

/* For a relation `k*t + c0 OP 0` with a single non-constant term, the bound
 * it gives on t (integer-valued t rounds strict bounds inward). Returns
 * false if the relation has another shape. */
bool sym_rel_bound(SymCtx *c, Sym *rel, Sym **term, SymBound *b)
{
	if (!sym_kind_is_rel((SymKind)rel->kind) || rel->kind == SYM_NE)
		return false;
	Sym *d = rel->args[0], *t = d;
	SymRat c0 = {0, 1};
	if (d->kind == SYM_ADD) {
		if (d->nargs != 2 || !sym_isnum(d->args[0]))
			return false;
		c0 = d->args[0]->u.num;
		t = d->args[1];
	}
	Sym *m;
	SymRat k = sym_coef(t, &m, c), v;
	if (sym_isnum(m) || k.p == 0)
		return false;
	/* k*m + c0 OP 0  <=>  m OP' -c0/k */
	if (c0.p == INT64_MIN || !sym_rat_div((SymRat){-c0.p, c0.q}, k, &v))
		return false;
	SymKind op = (SymKind)rel->kind;
	if (k.p < 0) {
		op = op == SYM_LT ? SYM_GT : op == SYM_LE ? SYM_GE : op == SYM_GT ? SYM_LT : op == SYM_GE ? SYM_LE : op;
	}
	bool isint = (m->flags & SF_INT) != 0;
	/* An integer's strict bound steps past v by one; at the ends of int64
	 * there is no such bound to record (dropping a fact is sound). */
	if (isint && ((op == SYM_LT && sym_rat_ceil(v) == INT64_MIN) || (op == SYM_GT && sym_rat_floor(v) == INT64_MAX)))
		return false;
	memset(b, 0, sizeof *b);
	switch (op) {
	case SYM_LT:
		b->has_hi = true;
		b->hi = isint ? rat_i(sym_rat_ceil(v) - 1) : v;
		break;
	case SYM_LE:
		b->has_hi = true;
		b->hi = isint ? rat_i(sym_rat_floor(v)) : v;
		break;
	case SYM_GT:
		b->has_lo = true;
		b->lo = isint ? rat_i(sym_rat_floor(v) + 1) : v;
		break;
	case SYM_GE:
		b->has_lo = true;
		b->lo = isint ? rat_i(sym_rat_ceil(v)) : v;
		break;
	case SYM_EQ:
		b->has_lo = b->has_hi = true;
		b->lo = b->hi = v;
		break;
	default: return false;
	}
	*term = m;
	return true;
}

/* Whether target occurs in e or, through the recorded substitutions, in
 * what e's symbols stand for (true as well when the chain is too deep). */
static bool subst_reaches(SymAssume *a, Sym *e, Sym *target, int depth)
{
	if (depth <= 0)
		return true;
	Sym *syms[64];
	size_t n = sym_free_symbols(a->c, e, syms, 64);
	if (n > 64)
		return true;
	for (size_t i = 0; i < n; i++) {
		if (syms[i] == target)
			return true;
		for (size_t j = 0; j < a->ninfo; j++)
			if (a->info[j].sym == syms[i] && a->info[j].subst &&
				subst_reaches(a, a->info[j].subst, target, depth - 1))
				return true;
	}
	return false;
}

int sym_assume_add(SymAssume *a, Sym *rel, const char **why)
{
	SymCtx *c = a->c;
	if (rel->kind == SYM_ERROR) {
		*why = rel->u.msg;
		return -1;
	}
	if (!(rel->flags & SF_BOOL)) {
		*why = "an assumption must be a relation";
		return -1;
	}
	a->version++;
	if (rel->kind == SYM_AND) {
		for (uint32_t i = 0; i < rel->nargs; i++)
			if (sym_assume_add(a, rel->args[i], why) < 0)
				return -1;
		return 0;
	}
	if (rel == c->t)
		return 0;
	if (rel == c->f) {
		*why = "the assumption is always false";
		return -1;
	}
	add_fact(a, rel);
	Sym *t;
	SymBound b;
	if (sym_rel_bound(c, rel, &t, &b) && t->kind == SYM_SYMBOL) {
		struct SymInfo *in = info_for(a, t);
		if (b.has_lo)
			tighten_lo(&in->b, b.lo);
		if (b.has_hi)
			tighten_hi(&in->b, b.hi);
		if (in->b.has_lo && in->b.has_hi && sym_rat_cmp(in->b.lo, in->b.hi) > 0) {
			*why = "the assumption contradicts an earlier bound";
			return -1;
		}
		if (rel->kind == SYM_EQ && rat_is_int(b.lo))
			in->subst = sym_num(c, b.lo);
		return 0;
	}
	Sym *d = rel->args[0];
	if (rel->kind == SYM_EQ && d->kind == SYM_MOD && d->args[0]->kind == SYM_SYMBOL && d->args[1]->kind == SYM_INT &&
		d->args[1]->u.num.p > 0) {
		/* Mod(x, k) == 0: x is a multiple of k */
		struct SymInfo *in = info_for(a, d->args[0]);
		int64_t k = d->args[1]->u.num.p, g = sym_gcd64(in->mult, k);
		__int128 l = (__int128)(in->mult / g) * k;
		if (l < ((int64_t)1 << 40))
			in->mult = (int64_t)l;
		return 0;
	}
	if (rel->kind == SYM_EQ && d->kind == SYM_ADD) {
		/* x == e for a symbol x with coefficient +-1: substitute */
		for (uint32_t i = 0; i < d->nargs; i++) {
			Sym *m;
			SymRat k = sym_coef(d->args[i], &m, c);
			if (m->kind != SYM_SYMBOL || k.q != 1 || (k.p != 1 && k.p != -1))
				continue;
			Sym *rest = sym_sub(c, d, d->args[i]);
			Sym *e = k.p == 1 ? sym_neg(c, rest) : rest;
			/* no cycles: m must not be reachable from e through the
			 * substitutions already known (bounds and lattices follow
			 * them recursively) */
			struct SymInfo *old = NULL;
			for (size_t j = 0; j < a->ninfo; j++)
				if (a->info[j].sym == m)
					old = &a->info[j];
			if ((old && old->subst) || subst_reaches(a, e, m, 16))
				continue;
			info_for(a, m)->subst = e;
			return 0;
		}
	}
	return 0;
}

int sym_assume_parse(SymAssume *a, const char *text, SymParseError *err, int *line)
{
	*line = 0;
	char *copy = xstrdup(text);
	int rc = 0;
	int ln = 0;
	char *s = copy;
	for (;;) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = 0;
		ln++;
		char *p = s;
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (*p && *p != '#') {
			Sym *e = sym_parse(a->c, s, err);
			const char *why;
			if (!e || sym_assume_add(a, e, &why) < 0) {
				if (e) {
					err->col = 1;
					snprintf(err->msg, sizeof err->msg, "%s", why);
				}
				*line = ln;
				rc = -1;
				break;
			}
		}
		if (!nl)
			break;
		s = nl + 1;
	}
	free(copy);
	return rc;
}

/* ---- installation ---- */

void sym_install(SymCtx *c, const SymAssume *a)
{
	if (c->installed == a && (!a || c->installed_version == a->version))
		return;
	c->installed = a;
	c->installed_version = a ? a->version : 0;
	c->a_epoch = sym_tick(c);
	c->epoch = sym_tick(c);
	c->nover = 0;
	if (!a)
		return;
	for (size_t i = 0; i < a->ninfo; i++) {
		Sym *x = a->info[i].sym;
		x->a_epoch = c->a_epoch;
		x->a_bnd = a->info[i].b;
		x->a_mult = a->info[i].mult;
		x->a_subst = a->info[i].subst;
	}
}

bool sym_is_fact(SymCtx *c, Sym *rel)
{
	const SymAssume *a = c->installed;
	if (!a)
		return false;
	for (size_t i = 0; i < a->nfacts; i++)
		if (a->facts[i] == rel)
			return true;
	return false;
}

/* ---- interval arithmetic ---- */

typedef struct {
	int inf; /* -1, 0, +1 */
	SymRat v;
} Ext;

static Ext ext_mul(Ext a, Ext b, bool *ok)
{
	int sa = a.inf ? a.inf : (a.v.p > 0) - (a.v.p < 0);
	int sb = b.inf ? b.inf : (b.v.p > 0) - (b.v.p < 0);
	if ((!a.inf && a.v.p == 0) || (!b.inf && b.v.p == 0))
		return (Ext){0, {0, 1}};
	if (a.inf || b.inf)
		return (Ext){sa * sb, {0, 1}};
	Ext r = {0, {0, 1}};
	if (!sym_rat_mul(a.v, b.v, &r.v))
		*ok = false;
	return r;
}

static int ext_cmp(Ext a, Ext b)
{
	if (a.inf || b.inf)
		return a.inf == b.inf ? 0 : a.inf < b.inf ? -1 : 1;
	return sym_rat_cmp(a.v, b.v);
}

static SymBound unbounded(void) { return (SymBound){0}; }

static SymBound point(SymRat v) { return (SymBound){true, true, v, v}; }

SymBound sym_bound_add(SymBound x, SymBound y)
{
	SymBound r = {0};
	if (x.has_lo && y.has_lo)
		r.has_lo = sym_rat_add(x.lo, y.lo, &r.lo);
	if (x.has_hi && y.has_hi)
		r.has_hi = sym_rat_add(x.hi, y.hi, &r.hi);
	return r;
}

static SymBound b_mul(SymBound x, SymBound y)
{
	Ext xs[2] = {{x.has_lo ? 0 : -1, x.lo}, {x.has_hi ? 0 : 1, x.hi}};
	Ext ys[2] = {{y.has_lo ? 0 : -1, y.lo}, {y.has_hi ? 0 : 1, y.hi}};
	bool ok = true;
	Ext lo = {0, {0, 1}}, hi = lo;
	for (int i = 0; i < 4; i++) {
		Ext p = ext_mul(xs[i >> 1], ys[i & 1], &ok);
		if (i == 0 || ext_cmp(p, lo) < 0)
			lo = p;
		if (i == 0 || ext_cmp(p, hi) > 0)
			hi = p;
	}
	if (!ok)
		return unbounded();
	return (SymBound){lo.inf == 0, hi.inf == 0, lo.v, hi.v};
}

static SymBound b_union(SymBound x, SymBound y)
{
	SymBound r = {0};
	r.has_lo = x.has_lo && y.has_lo;
	r.has_hi = x.has_hi && y.has_hi;
	if (r.has_lo)
		r.lo = sym_rat_cmp(x.lo, y.lo) < 0 ? x.lo : y.lo;
	if (r.has_hi)
		r.hi = sym_rat_cmp(x.hi, y.hi) > 0 ? x.hi : y.hi;
	return r;
}

static SymBound b_meet(SymBound x, SymBound y)
{
	if (y.has_lo)
		tighten_lo(&x, y.lo);
	if (y.has_hi)
		tighten_hi(&x, y.hi);
	return x;
}

static SymBound b_inv(SymBound x)
{
	/* 1/x for x of one sign */
	SymRat one = {1, 1};
	SymBound r = {0};
	if (x.has_lo && x.lo.p > 0) {
		r.has_lo = !x.has_hi ? false : sym_rat_div(one, x.hi, &r.lo);
		if (!x.has_hi)
			r.has_lo = true, r.lo = (SymRat){0, 1};
		r.has_hi = sym_rat_div(one, x.lo, &r.hi);
		return r;
	}
	if (x.has_hi && x.hi.p < 0) {
		r.has_hi = true;
		r.hi = (SymRat){0, 1};
		if (x.has_lo)
			sym_rat_div(one, x.lo, &r.hi);
		r.has_lo = sym_rat_div(one, x.hi, &r.lo);
		return r;
	}
	return unbounded();
}

static SymBound b_node(SymCtx *c, Sym *e)
{
	SymBound r, x, y;
	switch (e->kind) {
	case SYM_INT:
	case SYM_RAT: return point(e->u.num);
	case SYM_SYMBOL:
		if (e->a_epoch == c->a_epoch) {
			if (e->a_subst)
				return b_meet(e->a_bnd, sym_bnd(c, e->a_subst));
			return e->a_bnd;
		}
		return unbounded();
	case SYM_ADD:
		r = sym_bnd(c, e->args[0]);
		for (uint32_t i = 1; i < e->nargs && (r.has_lo || r.has_hi); i++)
			r = sym_bound_add(r, sym_bnd(c, e->args[i]));
		return r;
	case SYM_MUL:
		r = sym_bnd(c, e->args[0]);
		for (uint32_t i = 1; i < e->nargs && (r.has_lo || r.has_hi); i++)
			r = b_mul(r, sym_bnd(c, e->args[i]));
		return r;
	case SYM_POW: {
		int64_t k = e->args[1]->u.num.p;
		x = sym_bnd(c, e->args[0]);
		if (k == -1)
			return b_inv(x);
		if (k < 0)
			return unbounded();
		r = x;
		for (int64_t i = 1; i < k && i < 8; i++)
			r = b_mul(r, x);
		if (k >= 8)
			return (k % 2 == 0) ? (SymBound){true, false, {0, 1}, {0, 1}} : unbounded();
		if (k % 2 == 0)
			tighten_lo(&r, (SymRat){0, 1});
		return r;
	}
	case SYM_FLOOR:
	case SYM_CEIL:
		x = sym_bnd(c, e->args[0]);
		r = (SymBound){0};
		if (x.has_lo)
			r.has_lo = true, r.lo = rat_i(e->kind == SYM_FLOOR ? sym_rat_floor(x.lo) : sym_rat_ceil(x.lo));
		if (x.has_hi)
			r.has_hi = true, r.hi = rat_i(e->kind == SYM_FLOOR ? sym_rat_floor(x.hi) : sym_rat_ceil(x.hi));
		return r;
	case SYM_MOD: {
		x = sym_bnd(c, e->args[0]);
		y = sym_bnd(c, e->args[1]);
		bool ints = sym_intval(c, e->args[0]) && sym_intval(c, e->args[1]);
		if (y.has_lo && y.lo.p > 0) {
			r = (SymBound){true, y.has_hi, {0, 1}, y.hi};
			if (r.has_hi && ints)
				sym_rat_sub(y.hi, (SymRat){1, 1}, &r.hi);
			/* a nonnegative x below every divisor value is unchanged */
			if (x.has_lo && x.lo.p >= 0 && x.has_hi && sym_rat_cmp(x.hi, y.lo) < 0)
				return x;
			if (x.has_lo && x.lo.p >= 0 && x.has_hi)
				tighten_hi(&r, x.hi);
			return r;
		}
		if (y.has_hi && y.hi.p < 0) {
			r = (SymBound){y.has_lo, true, y.lo, {0, 1}};
			if (r.has_lo && ints)
				sym_rat_add(y.lo, (SymRat){1, 1}, &r.lo);
			return r;
		}
		return unbounded();
	}
	case SYM_MAX:
	case SYM_MIN:
		r = sym_bnd(c, e->args[0]);
		for (uint32_t i = 1; i < e->nargs; i++) {
			y = sym_bnd(c, e->args[i]);
			if (e->kind == SYM_MAX) {
				/* max: lo = max of los (any known lo bounds it), hi = max of his */
				SymBound m = {0};
				m.has_lo = r.has_lo || y.has_lo;
				m.lo = !r.has_lo ? y.lo : !y.has_lo ? r.lo : sym_rat_cmp(r.lo, y.lo) > 0 ? r.lo : y.lo;
				m.has_hi = r.has_hi && y.has_hi;
				if (m.has_hi)
					m.hi = sym_rat_cmp(r.hi, y.hi) > 0 ? r.hi : y.hi;
				r = m;
			} else {
				SymBound m = {0};
				m.has_hi = r.has_hi || y.has_hi;
				m.hi = !r.has_hi ? y.hi : !y.has_hi ? r.hi : sym_rat_cmp(r.hi, y.hi) < 0 ? r.hi : y.hi;
				m.has_lo = r.has_lo && y.has_lo;
				if (m.has_lo)
					m.lo = sym_rat_cmp(r.lo, y.lo) < 0 ? r.lo : y.lo;
				r = m;
			}
		}
		return r;
	case SYM_XOR: {
		x = sym_bnd(c, e->args[0]);
		y = sym_bnd(c, e->args[1]);
		if (x.has_lo && x.lo.p >= 0 && y.has_lo && y.lo.p >= 0 && x.has_hi && y.has_hi) {
			int64_t m = MAX(sym_rat_ceil(x.hi), sym_rat_ceil(y.hi)), p = 1;
			while (p <= m && p < ((int64_t)1 << 62))
				p <<= 1;
			return (SymBound){true, true, {0, 1}, rat_i(p - 1)};
		}
		return unbounded();
	}
	case SYM_PIECEWISE:
		r = sym_bnd(c, e->args[0]);
		for (uint32_t i = 2; i < e->nargs; i += 2)
			r = b_union(r, sym_bnd(c, e->args[i]));
		return r;
	default:
		if (e->flags & SF_BOOL)
			return (SymBound){true, true, {0, 1}, {1, 1}};
		return unbounded();
	}
}

SymBound sym_bnd(SymCtx *c, Sym *e)
{
	if (e->b_epoch == c->epoch)
		return e->bnd;
	SymBound r = b_node(c, e);
	for (int i = 0; i < c->nover; i++)
		if (c->over[i].t == e)
			r = b_meet(r, c->over[i].b);
	/* an integer-valued node rounds its ends inward */
	if ((r.has_lo && r.lo.q != 1) || (r.has_hi && r.hi.q != 1)) {
		if (sym_intval(c, e)) {
			if (r.has_lo)
				r.lo = rat_i(sym_rat_ceil(r.lo));
			if (r.has_hi)
				r.hi = rat_i(sym_rat_floor(r.hi));
		}
	}
	e->bnd = r;
	e->b_epoch = c->epoch;
	return r;
}

/* ---- lattices ---- */

static SymRat rat_gcd(SymRat a, SymRat b)
{
	/* gcd(p1/q1, p2/q2) = gcd(p1*q2, p2*q1) / (q1*q2), reduced */
	if (a.q == 0 || b.q == 0)
		return (SymRat){0, 0};
	if (a.p == 0)
		return b;
	if (b.p == 0)
		return a;
	__int128 x = (__int128)a.p * b.q, y = (__int128)b.p * a.q;
	if (x < 0)
		x = -x;
	if (y < 0)
		y = -y;
	while (y) {
		__int128 t = x % y;
		x = y;
		y = t;
	}
	SymRat r;
	if (!sym_rat_norm(x, (__int128)a.q * b.q, &r))
		return (SymRat){0, 0};
	return r;
}

static SymRat g_node(SymCtx *c, Sym *e)
{
	SymRat unknown = {0, 0}, one = {1, 1}, r;
	switch (e->kind) {
	case SYM_INT:
	case SYM_RAT: return (SymRat){e->u.num.p < 0 ? -e->u.num.p : e->u.num.p, e->u.num.q};
	case SYM_SYMBOL:
		if (e->a_epoch == c->a_epoch) {
			if (e->a_subst)
				return sym_gran(c, e->a_subst);
			return rat_i(e->a_mult);
		}
		return one;
	case SYM_ADD:
		r = sym_gran(c, e->args[0]);
		for (uint32_t i = 1; i < e->nargs && r.q; i++)
			r = rat_gcd(r, sym_gran(c, e->args[i]));
		return r;
	case SYM_MUL:
		r = sym_gran(c, e->args[0]);
		for (uint32_t i = 1; i < e->nargs && r.q; i++) {
			SymRat g = sym_gran(c, e->args[i]);
			if (g.q == 0 || !sym_rat_mul(r, g, &r))
				return unknown;
		}
		return r;
	case SYM_POW: {
		int64_t k = e->args[1]->u.num.p;
		SymRat g = sym_gran(c, e->args[0]);
		/* x in g*Z gives x**k in g**k*Z, for rational g too (a
		 * fractional base must not be called integer: fuzzer find). On
		 * overflow only an integer base still gives an integer. */
		if (k < 0 || g.q == 0)
			return unknown;
		if (sym_rat_pow(g, k, &r))
			return r;
		return g.q == 1 ? one : unknown;
	}
	case SYM_FLOOR:
	case SYM_CEIL: return one;
	case SYM_MOD: return rat_gcd(sym_gran(c, e->args[0]), sym_gran(c, e->args[1]));
	case SYM_MAX:
	case SYM_MIN:
		r = sym_gran(c, e->args[0]);
		for (uint32_t i = 1; i < e->nargs && r.q; i++)
			r = rat_gcd(r, sym_gran(c, e->args[i]));
		return r;
	case SYM_XOR: return one;
	case SYM_PIECEWISE:
		r = sym_gran(c, e->args[0]);
		for (uint32_t i = 2; i < e->nargs && r.q; i += 2)
			r = rat_gcd(r, sym_gran(c, e->args[i]));
		return r;
	default: return (e->flags & SF_BOOL) ? one : unknown;
	}
}

SymRat sym_gran(SymCtx *c, Sym *e)
{
	if (e->g_epoch == c->epoch)
		return e->gran;
	SymRat g = g_node(c, e);
	e->gran = g;
	e->g_epoch = c->epoch;
	return g;
}

SymBound sym_bounds(SymCtx *c, Sym *e, const SymAssume *a)
{
	sym_install(c, a);
	return sym_bnd(c, e);
}

int64_t sym_multiple_of(SymCtx *c, Sym *e, const SymAssume *a)
{
	sym_install(c, a);
	SymRat g = sym_gran(c, e);
	if (g.q == 0)
		return 1;
	if (g.p == 0)
		return 0;
	return g.q == 1 ? g.p : 1;
}
