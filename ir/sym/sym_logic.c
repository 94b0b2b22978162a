/* sym_logic.c — the non-polynomial canonicalising constructors: Max/Min,
 * xor, relations, And/Or/Not, Piecewise, and sym_rebuild (a node of a given
 * kind from new children, used by substitution and simplification).
 *
 * Max/Min flatten, fold their numbers into one, sort and drop duplicates;
 * xor folds constants and xor(a, 0), xor(a, a), and sorts its operands.
 *
 * A relation compares one expression with 0: `a OP b` becomes `a - b OP 0`,
 * decided at once if that is a number, otherwise with the content of the
 * difference divided out and its leading coefficient made positive (the
 * operator flips with the sign), so equal relations are one node. Not of a
 * relation is the complementary relation; And/Or flatten, absorb True and
 * False, sort and drop duplicates; Piecewise drops branches whose condition
 * is False, ends at the first True, and collapses to a lone value. A number
 * used where a boolean is needed means `x != 0`. */
#include <string.h>

#include "sym_int.h"

/* ---- Max, Min, xor ---- */

static Sym *minmax(SymCtx *c, SymKind kind, int n, Sym *const *args)
{
	Sym *bad = sym_check_args(c, n, args);
	if (bad)
		return bad;
	Vec(Sym *) v = {0};
	Sym *num = NULL;
	for (int i = 0; i < n; i++) {
		Sym *a = args[i];
		int m = a->kind == kind ? (int)a->nargs : 1;
		Sym *const *as = a->kind == kind ? a->args : &args[i];
		for (int j = 0; j < m; j++) {
			if (sym_isnum(as[j])) {
				int r = num ? sym_rat_cmp(as[j]->u.num, num->u.num) : 0;
				if (!num || (kind == SYM_MAX ? r > 0 : r < 0))
					num = as[j];
			} else
				vec_push(&v, as[j]);
		}
	}
	if (num)
		vec_push(&v, num);
	if (v.len > 1)
		sym_sort(v.data, v.len);
	size_t w = 0;
	for (size_t i = 0; i < v.len; i++)
		if (w == 0 || v.data[w - 1] != v.data[i])
			v.data[w++] = v.data[i];
	Sym *r = w == 1 ? v.data[0] : sym_node(c, kind, (int)w, v.data);
	vec_free(&v);
	return r;
}

Sym *sym_maxv(SymCtx *c, int n, Sym *const *args) { return minmax(c, SYM_MAX, n, args); }
Sym *sym_minv(SymCtx *c, int n, Sym *const *args) { return minmax(c, SYM_MIN, n, args); }
Sym *sym_max(SymCtx *c, Sym *a, Sym *b)
{
	Sym *v[2] = {a, b};
	return minmax(c, SYM_MAX, 2, v);
}
Sym *sym_min(SymCtx *c, Sym *a, Sym *b)
{
	Sym *v[2] = {a, b};
	return minmax(c, SYM_MIN, 2, v);
}

Sym *sym_xor(SymCtx *c, Sym *a, Sym *b)
{
	Sym *v[2] = {a, b};
	Sym *bad = sym_check_args(c, 2, v);
	if (bad)
		return bad;
	if ((sym_isnum(a) && a->kind != SYM_INT) || (sym_isnum(b) && b->kind != SYM_INT))
		return sym_error(c, "xor of a non-integer");
	if (a->kind == SYM_INT && b->kind == SYM_INT)
		return sym_int(c, a->u.num.p ^ b->u.num.p);
	if (a == b)
		return c->zero;
	if (a == c->zero)
		return b;
	if (b == c->zero)
		return a;
	if (sym_cmp(a, b) > 0)
		v[0] = b, v[1] = a;
	return sym_node(c, SYM_XOR, 2, v);
}

/* ---- booleans ---- */

Sym *sym_to_bool(SymCtx *c, Sym *a)
{
	if (a->kind == SYM_ERROR || (a->flags & SF_BOOL))
		return a;
	return sym_rel(c, SYM_NE, a, c->zero);
}

static bool rel_holds(SymKind op, int s)
{
	switch (op) {
	case SYM_LT: return s < 0;
	case SYM_LE: return s <= 0;
	case SYM_GT: return s > 0;
	case SYM_GE: return s >= 0;
	case SYM_EQ: return s == 0;
	default: return s != 0;
	}
}

static SymKind rel_flip(SymKind op)
{
	switch (op) {
	case SYM_LT: return SYM_GT;
	case SYM_LE: return SYM_GE;
	case SYM_GT: return SYM_LT;
	case SYM_GE: return SYM_LE;
	default: return op;
	}
}

Sym *sym_rel0(SymCtx *c, SymKind op, Sym *d)
{
	if (d->kind == SYM_ERROR)
		return d;
	if (d->flags & SF_BOOL)
		return sym_error(c, "boolean used as a number");
	if (sym_isnum(d))
		return rel_holds(op, d->u.num.p < 0 ? -1 : d->u.num.p > 0) ? c->t : c->f;
	/* divide out the content: gcd of numerators over lcm of denominators */
	SymRat g = sym_content(c, d), inv;
	if (g.q != 0 && (g.p != 1 || g.q != 1) && sym_rat_div((SymRat){1, 1}, g, &inv)) {
		d = sym_scale(c, inv, d);
		if (d->kind == SYM_ERROR)
			return d;
		if (g.p < 0)
			op = rel_flip(op);
	}
	return sym_node(c, op, 1, &d);
}

Sym *sym_rel(SymCtx *c, SymKind op, Sym *a, Sym *b)
{
	check_that(sym_kind_is_rel(op));
	if (a->kind == SYM_ERROR)
		return a;
	if (b->kind == SYM_ERROR)
		return b;
	if ((a->flags | b->flags) & SF_BOOL)
		return sym_error(c, "boolean used as a number");
	return sym_rel0(c, op, sym_sub(c, a, b));
}

static Sym *andor(SymCtx *c, SymKind kind, int n, Sym *const *args)
{
	Sym *absorb = kind == SYM_AND ? c->f : c->t, *unit = kind == SYM_AND ? c->t : c->f;
	Vec(Sym *) v = {0};
	Sym *r = NULL;
	for (int i = 0; i < n && !r; i++) {
		Sym *a = sym_to_bool(c, args[i]);
		int m = a->kind == kind ? (int)a->nargs : 1;
		Sym *const *as = a->kind == kind ? a->args : &a;
		for (int j = 0; j < m; j++) {
			if (as[j]->kind == SYM_ERROR || as[j] == absorb) {
				r = as[j];
				break;
			}
			if (as[j] != unit)
				vec_push(&v, as[j]);
		}
	}
	if (!r) {
		if (v.len > 1)
			sym_sort(v.data, v.len);
		size_t w = 0;
		for (size_t i = 0; i < v.len; i++)
			if (w == 0 || v.data[w - 1] != v.data[i])
				v.data[w++] = v.data[i];
		r = w == 0 ? unit : w == 1 ? v.data[0] : sym_node(c, kind, (int)w, v.data);
	}
	vec_free(&v);
	return r;
}

Sym *sym_and(SymCtx *c, Sym *a, Sym *b)
{
	Sym *v[2] = {a, b};
	return andor(c, SYM_AND, 2, v);
}

Sym *sym_or(SymCtx *c, Sym *a, Sym *b)
{
	Sym *v[2] = {a, b};
	return andor(c, SYM_OR, 2, v);
}

Sym *sym_andv(SymCtx *c, int n, Sym *const *args) { return andor(c, SYM_AND, n, args); }
Sym *sym_orv(SymCtx *c, int n, Sym *const *args) { return andor(c, SYM_OR, n, args); }

Sym *sym_not(SymCtx *c, Sym *a)
{
	a = sym_to_bool(c, a);
	switch (a->kind) {
	case SYM_ERROR: return a;
	case SYM_TRUE: return c->f;
	case SYM_FALSE: return c->t;
	case SYM_NOT: return a->args[0];
	case SYM_LT: return sym_node(c, SYM_GE, 1, a->args);
	case SYM_LE: return sym_node(c, SYM_GT, 1, a->args);
	case SYM_GT: return sym_node(c, SYM_LE, 1, a->args);
	case SYM_GE: return sym_node(c, SYM_LT, 1, a->args);
	case SYM_EQ: return sym_node(c, SYM_NE, 1, a->args);
	case SYM_NE: return sym_node(c, SYM_EQ, 1, a->args);
	default: return sym_node(c, SYM_NOT, 1, &a);
	}
}

Sym *sym_piecewise(SymCtx *c, int n, Sym *const *vals, Sym *const *conds)
{
	Vec(Sym *) v = {0};
	Sym *r = NULL;
	for (int i = 0; i < n && !r; i++) {
		Sym *cond = sym_to_bool(c, conds[i]);
		if (vals[i]->kind == SYM_ERROR)
			r = vals[i];
		else if (vals[i]->flags & SF_BOOL)
			r = sym_error(c, "Piecewise value is a boolean");
		else if (cond->kind == SYM_ERROR)
			r = cond;
		if (r || cond == c->f)
			continue;
		vec_push(&v, vals[i]);
		vec_push(&v, cond);
		if (cond == c->t)
			break;
	}
	if (!r) {
		if (v.len == 0)
			r = sym_error(c, "Piecewise: no branch can apply");
		else if (v.data[1] == c->t)
			r = v.data[0];
		else {
			/* trailing branches with the same value as the default merge */
			while (v.len >= 4 && v.data[v.len - 1] == c->t && v.data[v.len - 4] == v.data[v.len - 2]) {
				v.data[v.len - 3] = c->t;
				v.len -= 2;
			}
			r = v.len == 2 && v.data[1] == c->t ? v.data[0] : sym_node(c, SYM_PIECEWISE, (int)v.len, v.data);
		}
	}
	vec_free(&v);
	return r;
}

Sym *sym_rebuild(SymCtx *c, const Sym *e, Sym *const *a)
{
	int n = (int)e->nargs;
	switch (e->kind) {
	case SYM_ADD: return sym_addv(c, n, a);
	case SYM_MUL: return sym_mulv(c, n, a);
	case SYM_POW: return sym_pow(c, a[0], a[1]);
	case SYM_FLOOR: return sym_floor(c, a[0]);
	case SYM_CEIL: return sym_ceil(c, a[0]);
	case SYM_MOD: return sym_mod(c, a[0], a[1]);
	case SYM_MAX: return sym_maxv(c, n, a);
	case SYM_MIN: return sym_minv(c, n, a);
	case SYM_XOR: return sym_xor(c, a[0], a[1]);
	case SYM_PIECEWISE: {
		Sym **v = xmalloc(sizeof(Sym *) * (size_t)(n + 1));
		for (int i = 0; i < n / 2; i++)
			v[i] = a[2 * i], v[n / 2 + i] = a[2 * i + 1];
		Sym *r = sym_piecewise(c, n / 2, v, v + n / 2);
		free(v);
		return r;
	}
	case SYM_LT:
	case SYM_LE:
	case SYM_GT:
	case SYM_GE:
	case SYM_EQ:
	case SYM_NE: return sym_rel0(c, (SymKind)e->kind, a[0]);
	case SYM_AND: return sym_andv(c, n, a);
	case SYM_OR: return sym_orv(c, n, a);
	case SYM_NOT: return sym_not(c, a[0]);
	default: return (Sym *)e;
	}
}
