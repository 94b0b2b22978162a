/* sym_print.c — printing in SymPy syntax, tree size, free symbols.
 *
 * The printed text must read back both through sym_parse and SymPy's
 * sympify, so: relations inside &, |, ~ are parenthesised (Python would
 * otherwise chain `a > 0 & b` as `a > (0 & b)`), equalities print as
 * Eq(a, b) / Ne(a, b) (Python's == would compare structurally), products
 * print numerator factors then one `/` with the denominator, and a sum is
 * parenthesised inside a product or power. A relation `d OP 0` prints with
 * d's negative terms and constant moved to the right: `x >= y + 4`. */
#include <string.h>

#include "sym_int.h"

static void pr(Buf *b, const Sym *e);

static void pr_num(Buf *b, SymRat v)
{
	if (v.q == 1)
		buf_printf(b, "%lld", (long long)v.p);
	else
		buf_printf(b, "%lld/%lld", (long long)v.p, (long long)v.q);
}

/* Atoms and calls print without parentheses anywhere. */
static bool is_atomic(const Sym *e)
{
	switch (e->kind) {
	case SYM_INT: return e->u.num.p >= 0;
	case SYM_SYMBOL:
	case SYM_FLOOR:
	case SYM_CEIL:
	case SYM_MOD:
	case SYM_MAX:
	case SYM_MIN:
	case SYM_XOR:
	case SYM_PIECEWISE:
	case SYM_TRUE:
	case SYM_FALSE:
	case SYM_EQ:
	case SYM_NE: return true;
	default: return false;
	}
}

static void pr_paren(Buf *b, const Sym *e, bool paren)
{
	if (paren)
		buf_putc(b, '(');
	pr(b, e);
	if (paren)
		buf_putc(b, ')');
}

/* A factor of a product: sums, and products (a Mul nested by a raw
 * constructor) get parentheses. */
static void pr_factor(Buf *b, const Sym *f)
{
	if (f->kind == SYM_POW && f->args[1]->u.num.p == 1)
		f = f->args[0];
	pr_paren(b, f, f->kind == SYM_ADD || f->kind == SYM_MUL || sym_kind_is_bool((SymKind)f->kind) ||
			       (sym_isnum(f) && (f->u.num.p < 0 || f->u.num.q != 1)));
}

static void pr_pow_of(Buf *b, const Sym *base, int64_t e)
{
	if (e == 1) {
		pr_factor(b, base);
		return;
	}
	pr_paren(b, base, !is_atomic(base));
	if (e < 0)
		buf_printf(b, "**(%lld)", (long long)e);
	else
		buf_printf(b, "**%lld", (long long)e);
}

static void term_parts(const Sym *t, SymRat *k, Sym *const **fs, int *n, Sym *const *one);

/* Is a's content (sym_content: the lcm of its terms' denominators) too big
 * to divide out? Then the constructors keep a number times a product with
 * this sum as it is, while a number times this sum alone is distributed. */
static bool content_unknown(const Sym *a)
{
	if (a->kind != SYM_ADD)
		return false;
	int64_t l = 1;
	for (uint32_t i = 0; i < a->nargs; i++) {
		SymRat k;
		Sym *const *fs;
		int n;
		Sym *self = a->args[i];
		term_parts(a->args[i], &k, &fs, &n, &self);
		__int128 nl = (__int128)(l / sym_gcd64(l, k.q)) * k.q;
		if (nl > INT32_MAX)
			return true;
		l = (int64_t)nl;
	}
	return false;
}

/* The product k * factors (k already sign-adjusted by the caller). A
 * reader multiplies left to right, so `-(a + b/N)*c` or `3*(a + b/N)*c`
 * would give it k times the sum first, which it distributes, and a sum
 * whose content it cannot divide out back is another node: with such a
 * sum among the factors, k goes last, `(a + b/N)*c*(-1)`. */
static void pr_mul(Buf *b, SymRat k, Sym *const *fs, int n)
{
	bool late = false;
	for (int i = 0; i < n && (k.p != 1 || k.q != 1); i++)
		late |= fs[i]->kind == SYM_ADD && content_unknown(fs[i]);
	if (late) {
		pr_mul(b, (SymRat){1, 1}, fs, n);
		buf_puts(b, "*(");
		pr_num(b, k);
		buf_putc(b, ')');
		return;
	}
	if (k.p < 0) {
		buf_putc(b, '-');
		k.p = -k.p;
	}
	int nnum = 0, nden = 0;
	for (int i = 0; i < n; i++) {
		if (fs[i]->kind == SYM_POW && fs[i]->args[1]->u.num.p < 0)
			nden++;
		else
			nnum++;
	}
	bool any = false;
	if (k.p != 1 || nnum == 0) {
		buf_printf(b, "%lld", (long long)k.p);
		any = true;
	}
	for (int i = 0; i < n; i++) {
		if (fs[i]->kind == SYM_POW && fs[i]->args[1]->u.num.p < 0)
			continue;
		if (any)
			buf_putc(b, '*');
		if (fs[i]->kind == SYM_POW)
			pr_pow_of(b, fs[i]->args[0], fs[i]->args[1]->u.num.p);
		else
			pr_factor(b, fs[i]);
		any = true;
	}
	int dn = nden + (k.q != 1);
	if (dn == 0)
		return;
	/* `/(4*(a + 1))` would make the reader distribute 4 over the sum
	 * (and possibly overflow there); `/4/(a + 1)` cannot */
	bool sum_den = false;
	for (int i = 0; i < n; i++)
		sum_den |= fs[i]->kind == SYM_POW && fs[i]->args[1]->u.num.p < 0 && fs[i]->args[0]->kind == SYM_ADD;
	if (k.q != 1 && sum_den) {
		buf_printf(b, "/%lld", (long long)k.q);
		k.q = 1;
		dn--;
	}
	buf_putc(b, '/');
	if (dn > 1)
		buf_putc(b, '(');
	any = false;
	if (k.q != 1) {
		buf_printf(b, "%lld", (long long)k.q);
		any = true;
	}
	for (int i = 0; i < n; i++) {
		if (!(fs[i]->kind == SYM_POW && fs[i]->args[1]->u.num.p < 0))
			continue;
		if (any)
			buf_putc(b, '*');
		int64_t e = -fs[i]->args[1]->u.num.p;
		if (dn == 1 && e == 1)
			pr_paren(b, fs[i]->args[0], !is_atomic(fs[i]->args[0]));
		else
			pr_pow_of(b, fs[i]->args[0], e);
		any = true;
	}
	if (dn > 1)
		buf_putc(b, ')');
}

/* One term of a sum, times sign (+1/-1); returns its sign as printed. */
static void term_parts(const Sym *t, SymRat *k, Sym *const **fs, int *n, Sym *const *one)
{
	if (t->kind == SYM_MUL && sym_isnum(t->args[0])) {
		*k = t->args[0]->u.num;
		*fs = t->args + 1;
		*n = (int)t->nargs - 1;
	} else if (sym_isnum(t)) {
		*k = t->u.num;
		*fs = NULL;
		*n = 0;
	} else if (t->kind == SYM_MUL) {
		*k = (SymRat){1, 1};
		*fs = t->args;
		*n = (int)t->nargs;
	} else {
		*k = (SymRat){1, 1};
		*fs = one;
		*n = 1;
	}
}

static void pr_one_term(Buf *b, const Sym *t, bool neg, bool first)
{
	SymRat k;
	Sym *const *fs;
	int n;
	Sym *self = (Sym *)t;
	term_parts(t, &k, &fs, &n, &self);
	if (neg)
		k.p = -k.p;
	if (!first) {
		buf_puts(b, k.p < 0 ? " - " : " + ");
		if (k.p < 0)
			k.p = -k.p;
	}
	if (n == 0)
		pr_num(b, k);
	else if (k.p == 1 && k.q == 1 && n == 1 && t->kind != SYM_MUL && t->kind != SYM_POW)
		pr_paren(b, fs[0], fs[0]->kind == SYM_ADD || sym_kind_is_bool((SymKind)fs[0]->kind));
	else
		pr_mul(b, k, fs, n);
}

/* A sum of terms (each negated if neg), constants last; "0" if empty. */
static void pr_sum(Buf *b, Sym *const *ts, int n, bool neg)
{
	bool first = true;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++) {
			if (sym_isnum(ts[i]) != (pass == 1))
				continue;
			pr_one_term(b, ts[i], neg, first);
			first = false;
		}
	if (first)
		buf_putc(b, '0');
}

static bool term_negative(const Sym *t)
{
	if (sym_isnum(t))
		return t->u.num.p < 0;
	return t->kind == SYM_MUL && sym_isnum(t->args[0]) && t->args[0]->u.num.p < 0;
}

static void pr_rel(Buf *b, const Sym *e)
{
	const Sym *d = e->args[0];
	Sym *const *ts = d->kind == SYM_ADD ? d->args : &e->args[0];
	int n = d->kind == SYM_ADD ? (int)d->nargs : 1;
	Sym *lb[32], *rb[32];
	Sym **l = n <= 32 ? lb : xmalloc(sizeof(Sym *) * (size_t)n);
	Sym **r = n <= 32 ? rb : xmalloc(sizeof(Sym *) * (size_t)n);
	int nl = 0, nr = 0;
	for (int i = 0; i < n; i++) {
		if (sym_isnum(ts[i]) || term_negative(ts[i]))
			r[nr++] = ts[i];
		else
			l[nl++] = ts[i];
	}
	const char *op = sym_kind_name((SymKind)e->kind);
	bool fn = e->kind == SYM_EQ || e->kind == SYM_NE;
	if (fn)
		buf_puts(b, e->kind == SYM_EQ ? "Eq(" : "Ne(");
	pr_sum(b, l, nl, false);
	if (fn)
		buf_puts(b, ", ");
	else
		buf_printf(b, " %s ", op);
	pr_sum(b, r, nr, true);
	if (fn)
		buf_putc(b, ')');
	if (l != lb)
		free(l);
	if (r != rb)
		free(r);
}

static void pr_call(Buf *b, const char *name, const Sym *e)
{
	buf_puts(b, name);
	buf_putc(b, '(');
	for (uint32_t i = 0; i < e->nargs; i++) {
		if (i)
			buf_puts(b, ", ");
		pr(b, e->args[i]);
	}
	buf_putc(b, ')');
}

/* An operand of &, |, ~: anything but an atom gets parentheses. */
static void pr_bool_operand(Buf *b, const Sym *e)
{
	pr_paren(b, e, !(e->kind == SYM_TRUE || e->kind == SYM_FALSE || e->kind == SYM_EQ || e->kind == SYM_NE));
}

static void pr(Buf *b, const Sym *e)
{
	switch (e->kind) {
	case SYM_INT:
	case SYM_RAT: pr_num(b, e->u.num); break;
	case SYM_SYMBOL: buf_puts(b, e->u.name); break;
	case SYM_ADD: pr_sum(b, e->args, (int)e->nargs, false); break;
	case SYM_MUL: {
		Sym *self = (Sym *)e;
		SymRat k;
		Sym *const *fs;
		int n;
		term_parts(e, &k, &fs, &n, &self);
		pr_mul(b, k, fs, n);
		break;
	}
	case SYM_POW: {
		Sym *self = (Sym *)e;
		pr_mul(b, (SymRat){1, 1}, &self, 1);
		break;
	}
	case SYM_FLOOR: pr_call(b, "floor", e); break;
	case SYM_CEIL: pr_call(b, "ceiling", e); break;
	case SYM_MOD: pr_call(b, "Mod", e); break;
	case SYM_MAX: pr_call(b, "Max", e); break;
	case SYM_MIN: pr_call(b, "Min", e); break;
	case SYM_XOR: pr_call(b, "xor", e); break;
	case SYM_PIECEWISE:
		buf_puts(b, "Piecewise(");
		for (uint32_t i = 0; i + 1 < e->nargs; i += 2) {
			buf_puts(b, i ? ", (" : "(");
			pr(b, e->args[i]);
			buf_puts(b, ", ");
			pr(b, e->args[i + 1]);
			buf_putc(b, ')');
		}
		buf_putc(b, ')');
		break;
	case SYM_TRUE: buf_puts(b, "True"); break;
	case SYM_FALSE: buf_puts(b, "False"); break;
	case SYM_LT:
	case SYM_LE:
	case SYM_GT:
	case SYM_GE:
	case SYM_EQ:
	case SYM_NE: pr_rel(b, e); break;
	case SYM_AND:
	case SYM_OR:
		for (uint32_t i = 0; i < e->nargs; i++) {
			if (i)
				buf_puts(b, e->kind == SYM_AND ? " & " : " | ");
			pr_bool_operand(b, e->args[i]);
		}
		break;
	case SYM_NOT:
		buf_putc(b, '~');
		pr_paren(b, e->args[0], true);
		break;
	case SYM_ERROR: buf_printf(b, "error(%s)", e->u.msg); break;
	default: die("unknown sym kind %d", e->kind);
	}
}

void sym_print(Buf *b, const Sym *e) { pr(b, e); }

const char *sym_str(SymCtx *c, const Sym *e)
{
	Buf b = {0};
	pr(&b, e);
	const char *s = arena_strdup(&c->arena, buf_cstr(&b));
	buf_free(&b);
	return s;
}

size_t sym_tree_size(const Sym *e) { return e->size; }

static int cmp_name(const void *x, const void *y)
{
	return strcmp((*(Sym *const *)x)->u.name, (*(Sym *const *)y)->u.name);
}

static void collect(const Sym *e, uint32_t mark, SymVec *out)
{
	if (e->mark == mark || !(e->flags & SF_SYMS))
		return;
	((Sym *)e)->mark = mark;
	if (e->kind == SYM_SYMBOL) {
		vec_push(out, (Sym *)e);
		return;
	}
	for (uint32_t i = 0; i < e->nargs; i++)
		collect(e->args[i], mark, out);
}

size_t sym_free_symbols(SymCtx *c, const Sym *e, Sym **out, size_t cap)
{
	SymVec v = {0};
	collect(e, sym_tick(c), &v);
	if (v.len > 1)
		qsort(v.data, v.len, sizeof(Sym *), cmp_name);
	for (size_t i = 0; i < v.len && i < cap; i++)
		out[i] = v.data[i];
	size_t n = v.len;
	vec_free(&v);
	return n;
}
