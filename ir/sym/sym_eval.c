/* sym_eval.c — exact evaluation and substitution.
 *
 * Evaluation binds the given symbols by stamping their nodes with a fresh
 * context epoch and value, then walks the DAG once, memoising each node's
 * value under that epoch (shared subterms are evaluated once). Piecewise
 * evaluates conditions in order and only the chosen value, so a guarded
 * division in an untaken branch is not an error; And/Or evaluate every
 * operand (their operand order is canonical, not the user's). All arithmetic is exact
 * and checked; overflow is an error, never a wrong value.
 *
 * Substitution rebuilds bottom-up through the canonicalising constructors,
 * memoised per node under a fresh epoch. */
#include <string.h>

#include "sym_int.h"

typedef struct {
	SymCtx *c;
	uint32_t ep;
	const char *err;
} Ev;

static bool ev(Ev *v, const Sym *e, SymRat *out);

static bool ev_fail(Ev *v, const char *msg)
{
	if (!v->err)
		v->err = msg;
	return false;
}

static bool ev_int(Ev *v, const Sym *e, int64_t *out, const char *what)
{
	SymRat r;
	if (!ev(v, e, &r))
		return false;
	if (r.q != 1)
		return ev_fail(v, what);
	*out = r.p;
	return true;
}

static bool ev_bool(Ev *v, const Sym *e, bool *out)
{
	SymRat r;
	if (!ev(v, e, &r))
		return false;
	*out = r.p != 0;
	return true;
}

static bool ev_rel(SymKind k, SymRat d)
{
	int s = d.p < 0 ? -1 : d.p > 0;
	switch (k) {
	case SYM_LT: return s < 0;
	case SYM_LE: return s <= 0;
	case SYM_GT: return s > 0;
	case SYM_GE: return s >= 0;
	case SYM_EQ: return s == 0;
	default: return s != 0;
	}
}

static bool ev_node(Ev *v, const Sym *e, SymRat *out)
{
	SymRat a, b;
	const char *ovf = "integer overflows 64 bits";
	switch (e->kind) {
	case SYM_INT:
	case SYM_RAT: *out = e->u.num; return true;
	case SYM_SYMBOL: return ev_fail(v, "unbound symbol");
	case SYM_ERROR: return ev_fail(v, e->u.msg);
	case SYM_TRUE: *out = rat_i(1); return true;
	case SYM_FALSE: *out = rat_i(0); return true;
	case SYM_ADD:
	case SYM_MUL:
		if (!ev(v, e->args[0], &a))
			return false;
		for (uint32_t i = 1; i < e->nargs; i++) {
			if (!ev(v, e->args[i], &b))
				return false;
			if (!(e->kind == SYM_ADD ? sym_rat_add(a, b, &a) : sym_rat_mul(a, b, &a)))
				return ev_fail(v, ovf);
		}
		*out = a;
		return true;
	case SYM_POW: {
		if (!ev(v, e->args[0], &a))
			return false;
		int64_t k = e->args[1]->u.num.p;
		if (k < 0 && a.p == 0)
			return ev_fail(v, "division by zero");
		if (!sym_rat_pow(a, k, out))
			return ev_fail(v, ovf);
		return true;
	}
	case SYM_FLOOR:
	case SYM_CEIL:
		if (!ev(v, e->args[0], &a))
			return false;
		*out = rat_i(e->kind == SYM_FLOOR ? sym_rat_floor(a) : sym_rat_ceil(a));
		return true;
	case SYM_MOD: {
		if (!ev(v, e->args[0], &a) || !ev(v, e->args[1], &b))
			return false;
		if (b.p == 0)
			return ev_fail(v, "Mod by zero");
		SymRat q, m;
		if (!sym_rat_div(a, b, &q) || !sym_rat_mul(rat_i(sym_rat_floor(q)), b, &m) || !sym_rat_sub(a, m, out))
			return ev_fail(v, ovf);
		return true;
	}
	case SYM_MAX:
	case SYM_MIN:
		if (!ev(v, e->args[0], &a))
			return false;
		for (uint32_t i = 1; i < e->nargs; i++) {
			if (!ev(v, e->args[i], &b))
				return false;
			int r = sym_rat_cmp(b, a);
			if (e->kind == SYM_MAX ? r > 0 : r < 0)
				a = b;
		}
		*out = a;
		return true;
	case SYM_XOR: {
		int64_t x, y;
		if (!ev_int(v, e->args[0], &x, "xor of a non-integer") || !ev_int(v, e->args[1], &y, "xor of a non-integer"))
			return false;
		*out = rat_i(x ^ y);
		return true;
	}
	case SYM_PIECEWISE:
		for (uint32_t i = 0; i + 1 < e->nargs; i += 2) {
			bool t;
			if (!ev_bool(v, e->args[i + 1], &t))
				return false;
			if (t)
				return ev(v, e->args[i], out);
		}
		return ev_fail(v, "no Piecewise branch applies");
	case SYM_LT:
	case SYM_LE:
	case SYM_GT:
	case SYM_GE:
	case SYM_EQ:
	case SYM_NE:
		if (!ev(v, e->args[0], &a))
			return false;
		*out = rat_i(ev_rel((SymKind)e->kind, a));
		return true;
	case SYM_AND:
	case SYM_OR: {
		/* strict: every operand is evaluated, so whether the value is
		 * defined does not depend on the (canonical) operand order */
		bool want = e->kind == SYM_OR, hit = false; /* want: the value that decides */
		for (uint32_t i = 0; i < e->nargs; i++) {
			bool t;
			if (!ev_bool(v, e->args[i], &t))
				return false;
			hit |= t == want;
		}
		*out = rat_i(hit ? want : !want);
		return true;
	}
	case SYM_NOT: {
		bool t;
		if (!ev_bool(v, e->args[0], &t))
			return false;
		*out = rat_i(!t);
		return true;
	}
	default: die("unknown sym kind %d", e->kind);
	}
}

static bool ev(Ev *v, const Sym *e, SymRat *out)
{
	if (e->v_epoch == v->ep) {
		*out = e->val;
		return true;
	}
	if (!ev_node(v, e, out))
		return false;
	Sym *m = (Sym *)e;
	m->val = *out;
	m->v_epoch = v->ep;
	return true;
}

int sym_eval(SymCtx *c, const Sym *e, int n, Sym *const *syms, const int64_t *vals, SymRat *out,
	const char **errmsg)
{
	Ev v = {c, sym_tick(c), NULL};
	for (int i = 0; i < n; i++) {
		if (syms[i]->kind != SYM_SYMBOL)
			continue;
		syms[i]->val = rat_i(vals[i]);
		syms[i]->v_epoch = v.ep;
	}
	if (ev(&v, e, out))
		return 0;
	if (errmsg)
		*errmsg = v.err ? v.err : "evaluation failed";
	return -1;
}

static Sym *subs(SymCtx *c, Sym *e, uint32_t ep)
{
	if (e->m_epoch == ep)
		return e->memo;
	Sym *r = e;
	if (e->nargs && (e->flags & SF_SYMS)) {
		Sym *buf[16], **a = e->nargs <= 16 ? buf : xmalloc(sizeof(Sym *) * e->nargs);
		bool same = true;
		for (uint32_t i = 0; i < e->nargs; i++) {
			a[i] = subs(c, e->args[i], ep);
			same &= a[i] == e->args[i];
		}
		if (!same)
			r = sym_rebuild(c, e, a);
		if (a != buf)
			free(a);
	}
	e->memo = r;
	e->m_epoch = ep;
	return r;
}

Sym *sym_subs(SymCtx *c, Sym *e, int n, Sym *const *from, Sym *const *to)
{
	uint32_t ep = sym_tick(c);
	for (int i = 0; i < n; i++) {
		if (from[i]->kind != SYM_SYMBOL)
			continue;
		from[i]->memo = to[i];
		from[i]->m_epoch = ep;
	}
	return subs(c, e, ep);
}
