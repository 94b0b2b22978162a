/* sym_core.c — the context, hash-consing and the canonicalising
 * constructors of the symbolic engine.
 *
 * Hash-consing: every node is looked up in an open-addressing table keyed by
 * (kind, payload, child pointers) before it is made, so equal expressions are
 * one node and equality is a pointer compare. The hash is structural (names
 * and numbers, never addresses), so the canonical order (sym_cmp) and the
 * printed form are the same in every run and context.
 *
 * Canonical forms kept by the constructors:
 *   Add  (const?, t1, t2, ...)  terms sorted, like terms merged, the constant
 *        first; a term is c*m with a rational c and a monomial m
 *   Mul  (coef?, f1, f2, ...)   factors sorted, equal bases merged into Pow
 *        with integer exponents; a number times a sum is distributed
 *   relations compare one child with 0, its content divided out and its
 *        leading coefficient positive
 * Errors (division by zero, overflow, a boolean used as a number) become
 * SYM_ERROR nodes that every constructor passes through. Max/Min, xor,
 * relations, booleans and Piecewise are in sym_logic.c, checked rationals
 * in sym_rat.c. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sym_int.h"

/* ---- context and hash-consing ---- */

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

SymCtx *sym_ctx_new(void)
{
	SymCtx *c = xcalloc(1, sizeof *c);
	arena_init(&c->arena);
	c->cap = 1024;
	c->table = xcalloc(c->cap, sizeof *c->table);
	c->epoch = sym_tick(c);
	/* no assumption set is installed yet: an epoch no node carries (nodes
	 * start at 0), or a first sym_simplify(..., NULL) would read every
	 * node's zeroed assumption fields as installed facts (a multiple of 0:
	 * ceiling(N/256) became N/256) */
	c->a_epoch = sym_tick(c);
	c->t = sym_node(c, SYM_TRUE, 0, NULL);
	c->f = sym_node(c, SYM_FALSE, 0, NULL);
	for (int i = 0; i < 64; i++)
		c->small[i] = sym_num(c, rat_i(i - 8));
	c->zero = c->small[8];
	c->one = c->small[9];
	c->neg_one = c->small[7];
	return c;
}

void sym_ctx_free(SymCtx *c)
{
	if (!c)
		return;
	arena_free(&c->arena);
	free(c->table);
	free(c->spans);
	free(c);
}

size_t sym_ctx_nodes(const SymCtx *c) { return c->count; }

typedef struct {
	SymKind kind;
	int n;
	Sym *const *args;
	SymRat num;
	const char *str;
} Key;

static uint64_t key_hash(const Key *k)
{
	uint64_t h = mix(0x51ed27, (uint64_t)k->kind);
	switch (k->kind) {
	case SYM_INT:
	case SYM_RAT:
		h = mix(mix(h, (uint64_t)k->num.p), (uint64_t)k->num.q);
		break;
	case SYM_SYMBOL:
	case SYM_ERROR:
		h = mix(h, str_hash(k->str));
		break;
	default:
		break;
	}
	for (int i = 0; i < k->n; i++)
		h = mix(h, k->args[i]->hash);
	return h;
}

static bool key_eq(const Sym *e, const Key *k, uint64_t h)
{
	if (e->hash != h || e->kind != k->kind || (int)e->nargs != k->n)
		return false;
	switch (k->kind) {
	case SYM_INT:
	case SYM_RAT:
		if (e->u.num.p != k->num.p || e->u.num.q != k->num.q)
			return false;
		break;
	case SYM_SYMBOL:
	case SYM_ERROR:
		if (e->u.name != k->str)
			return false;
		break;
	default:
		break;
	}
	for (int i = 0; i < k->n; i++)
		if (e->args[i] != k->args[i])
			return false;
	return true;
}

/* Table slot: the multiply-shift mixes the high bits down (the structural
 * hash's low bits alone cluster). */
static inline size_t slot_of(uint64_t h, size_t mask)
{
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (size_t)h & mask;
}

static void table_grow(SymCtx *c)
{
	size_t ncap = c->cap * 2;
	SymSlot *nt = xcalloc(ncap, sizeof *nt);
	for (size_t i = 0; i < c->cap; i++) {
		Sym *e = c->table[i].e;
		if (!e)
			continue;
		size_t j = slot_of(e->hash, ncap - 1);
		while (nt[j].e)
			j = (j + 1) & (ncap - 1);
		nt[j] = c->table[i];
	}
	free(c->table);
	c->table = nt;
	c->cap = ncap;
}

static Sym *intern_key(SymCtx *c, const Key *k)
{
	uint64_t h = key_hash(k);
	size_t mask = c->cap - 1, i = slot_of(h, mask);
	for (SymSlot *sl; (sl = &c->table[i])->e; i = (i + 1) & mask)
		if (sl->h == h && key_eq(sl->e, k, h))
			return sl->e;
	Sym *e = arena_alloc(&c->arena, sizeof(Sym) + (size_t)k->n * sizeof(Sym *));
	e->kind = (uint8_t)k->kind;
	e->nargs = (uint32_t)k->n;
	e->id = (uint32_t)c->count;
	e->hash = h;
	unsigned depth = 0, flags = 0;
	bool all_int = true;
	uint64_t size = 1;
	for (int j = 0; j < k->n; j++) {
		e->args[j] = k->args[j];
		size += k->args[j]->size;
		depth = MAX(depth, k->args[j]->depth);
		flags |= k->args[j]->flags & SF_SYMS;
		all_int &= (k->args[j]->flags & SF_INT) != 0;
	}
	e->depth = (uint16_t)MIN(depth + 1, 65535u);
	e->size = (uint32_t)MIN(size, (uint64_t)UINT32_MAX);
	switch (k->kind) {
	case SYM_INT:
		e->u.num = k->num;
		flags |= SF_INT;
		break;
	case SYM_RAT:
		e->u.num = k->num;
		break;
	case SYM_SYMBOL:
		e->u.name = k->str;
		flags |= SF_INT | SF_SYMS;
		break;
	case SYM_ERROR:
		e->u.msg = k->str;
		break;
	case SYM_ADD:
	case SYM_MAX:
	case SYM_MIN:
	case SYM_XOR:
		if (all_int)
			flags |= SF_INT;
		break;
	case SYM_MUL:
		if (all_int)
			flags |= SF_INT;
		break;
	case SYM_POW:
		if ((k->args[0]->flags & SF_INT) && k->args[1]->u.num.p > 0)
			flags |= SF_INT;
		break;
	case SYM_FLOOR:
	case SYM_CEIL:
		flags |= SF_INT;
		break;
	case SYM_MOD:
		if (all_int)
			flags |= SF_INT;
		break;
	case SYM_PIECEWISE: {
		bool vi = true;
		for (int j = 0; j < k->n; j += 2)
			vi &= (k->args[j]->flags & SF_INT) != 0;
		if (vi)
			flags |= SF_INT;
		break;
	}
	default:
		if (sym_kind_is_bool(k->kind))
			flags |= SF_BOOL | SF_INT;
		break;
	}
	e->flags = (uint8_t)flags;
	c->table[i].e = e;
	c->table[i].h = h;
	c->count++;
	if (c->count * 2 > c->cap)
		table_grow(c);
	return e;
}

Sym *sym_node(SymCtx *c, SymKind k, int n, Sym *const *args)
{
	/* invariant: an error is a root, never inside another node */
	for (int i = 0; i < n; i++)
		if (args[i]->kind == SYM_ERROR)
			return args[i];
	Key key = {k, n, args, {0, 1}, NULL};
	Sym *e = intern_key(c, &key);
	if (e->depth > SYM_MAX_DEPTH)
		return sym_error(c, "expression nested more than %d deep", SYM_MAX_DEPTH);
	return e;
}

Sym *sym_num(SymCtx *c, SymRat v)
{
	if (v.q == 1 && v.p >= -8 && v.p < 56 && c->small[v.p + 8])
		return c->small[v.p + 8];
	size_t slot = (size_t)(((uint64_t)v.p * 0x9e3779b97f4a7c15ull ^ (uint64_t)v.q) >> 56);
	Sym *e = c->numcache[slot];
	if (e && e->u.num.p == v.p && e->u.num.q == v.q)
		return e;
	Key key = {v.q == 1 ? SYM_INT : SYM_RAT, 0, NULL, v, NULL};
	e = intern_key(c, &key);
	c->numcache[slot] = e;
	return e;
}

Sym *sym_int(SymCtx *c, int64_t v)
{
	if (v == INT64_MIN)
		return sym_error(c, "integer overflows 64 bits");
	return sym_num(c, rat_i(v));
}

Sym *sym_rat(SymCtx *c, int64_t p, int64_t q)
{
	SymRat r;
	if (q == 0)
		return sym_error(c, "division by zero");
	if (!sym_rat_norm(p, q, &r))
		return sym_error(c, "integer overflows 64 bits");
	return sym_num(c, r);
}

Sym *sym_symbol(SymCtx *c, const char *name)
{
	Key key = {SYM_SYMBOL, 0, NULL, {0, 1}, intern(name)};
	return intern_key(c, &key);
}

Sym *sym_symbol_n(SymCtx *c, const char *name, size_t n)
{
	const char *in = intern_n(name, n);
	size_t slot = (size_t)(((uintptr_t)in * 0x9e3779b97f4a7c15ull) >> 57);
	Sym *e = c->symcache[slot];
	if (e && e->u.name == in)
		return e;
	Key key = {SYM_SYMBOL, 0, NULL, {0, 1}, in};
	e = intern_key(c, &key);
	c->symcache[slot] = e;
	return e;
}

Sym *sym_error(SymCtx *c, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	Key key = {SYM_ERROR, 0, NULL, {0, 1}, intern(msg)};
	return intern_key(c, &key);
}

Sym *sym_true(SymCtx *c) { return c->t; }
Sym *sym_false(SymCtx *c) { return c->f; }

/* ---- accessors ---- */

SymKind sym_kind(const Sym *e) { return (SymKind)e->kind; }

const char *sym_kind_name(SymKind k)
{
	static const char *names[] = {
#define X(k, name) name,
		SYM_KINDS(X)
#undef X
	};
	return (unsigned)k < SYM_NKINDS ? names[k] : "?";
}

int sym_nargs(const Sym *e) { return (int)e->nargs; }
Sym *sym_arg(const Sym *e, int i)
{
	check_that(i >= 0 && (uint32_t)i < e->nargs);
	return e->args[i];
}
bool sym_mentions(const Sym *e, const Sym *x)
{
	if (e == x)
		return true;
	for (uint32_t i = 0; i < e->nargs; i++)
		if (sym_mentions(e->args[i], x))
			return true;
	return false;
}
bool sym_is_bool(const Sym *e) { return (e->flags & SF_BOOL) != 0; }
bool sym_is_error(const Sym *e) { return e->kind == SYM_ERROR; }
const char *sym_error_msg(const Sym *e) { return e->kind == SYM_ERROR ? e->u.msg : NULL; }
const char *sym_name(const Sym *e) { return e->kind == SYM_SYMBOL ? e->u.name : NULL; }

bool sym_is_num(const Sym *e, SymRat *v)
{
	if (!sym_isnum(e))
		return false;
	if (v)
		*v = e->u.num;
	return true;
}

bool sym_is_int(const Sym *e, int64_t *v)
{
	if (e->kind != SYM_INT)
		return false;
	if (v)
		*v = e->u.num.p;
	return true;
}

int sym_cmp(const Sym *a, const Sym *b)
{
	if (a == b)
		return 0;
	bool an = sym_isnum(a), bn = sym_isnum(b);
	if (an || bn)
		return an && bn ? sym_rat_cmp(a->u.num, b->u.num) : an ? -1 : 1;
	if (a->kind == SYM_SYMBOL || b->kind == SYM_SYMBOL) {
		if (a->kind == SYM_SYMBOL && b->kind == SYM_SYMBOL)
			return strcmp(a->u.name, b->u.name);
		return a->kind == SYM_SYMBOL ? -1 : 1;
	}
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	if (a->nargs != b->nargs)
		return a->nargs < b->nargs ? -1 : 1;
	if (a->kind == SYM_ERROR)
		return strcmp(a->u.msg, b->u.msg);
	for (uint32_t i = 0; i < a->nargs; i++) {
		int r = sym_cmp(a->args[i], b->args[i]);
		if (r)
			return r;
	}
	return 0;
}

/* qsort, with an insertion sort for the small arrays that dominate. */
static void sort_small(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 12) {
		qsort(base, n, size, cmp);
		return;
	}
	char *b = base, tmp[64];
	check_that(size <= sizeof tmp);
	for (size_t i = 1; i < n; i++) {
		size_t j = i;
		memcpy(tmp, b + i * size, size);
		while (j > 0 && cmp(b + (j - 1) * size, tmp) > 0) {
			memcpy(b + j * size, b + (j - 1) * size, size);
			j--;
		}
		memcpy(b + j * size, tmp, size);
	}
}

static int cmp_ptr(const void *x, const void *y)
{
	return sym_cmp(*(Sym *const *)x, *(Sym *const *)y);
}

void sym_sort(Sym **v, size_t n) { sort_small(v, n, sizeof(Sym *), cmp_ptr); }

/* ---- arithmetic constructors ---- */

/* The first error among args, or a boolean used as a number. */
Sym *sym_check_args(SymCtx *c, int n, Sym *const *args)
{
	for (int i = 0; i < n; i++)
		if (args[i]->kind == SYM_ERROR)
			return args[i];
	for (int i = 0; i < n; i++)
		if (args[i]->flags & SF_BOOL)
			return sym_error(c, "boolean used as a number");
	return NULL;
}

static Sym *overflow(SymCtx *c) { return sym_error(c, "integer overflows 64 bits"); }

SymRat sym_coef(const Sym *t, Sym **rest, SymCtx *c)
{
	if (sym_isnum(t)) {
		*rest = c->one;
		return t->u.num;
	}
	if (t->kind == SYM_MUL && sym_isnum(t->args[0])) {
		if (t->nargs == 2)
			*rest = t->args[1];
		else
			*rest = sym_node(c, SYM_MUL, (int)t->nargs - 1, t->args + 1);
		return t->args[0]->u.num;
	}
	*rest = (Sym *)t;
	return rat_i(1);
}

/* k*m for a monomial m (not a number, not an Add). */
static Sym *make_term(SymCtx *c, SymRat k, Sym *m)
{
	if (k.p == 1 && k.q == 1)
		return m;
	Sym *buf[16], **a = buf;
	int n = m->kind == SYM_MUL ? (int)m->nargs : 1;
	if (n + 1 > 16)
		a = xmalloc(sizeof(Sym *) * (size_t)(n + 1));
	a[0] = sym_num(c, k);
	if (m->kind == SYM_MUL)
		memcpy(a + 1, m->args, sizeof(Sym *) * (size_t)n);
	else
		a[1] = m;
	Sym *r = sym_node(c, SYM_MUL, n + 1, a);
	if (a != buf)
		free(a);
	return r;
}

/* The content of a sum: gcd of its coefficients' numerators over the lcm
 * of their denominators, signed like the leading term, so d / content has
 * coprime integer coefficients and a positive leading one. {0, 0} if the
 * numbers get too big. */
/* The sign of d's leading coefficient, for the canonical orientation. */
static int lead_sign(const Sym *d)
{
	const Sym *t = d;
	if (d->kind == SYM_ADD)
		t = sym_isnum(d->args[0]) ? d->args[1] : d->args[0];
	if (t->kind == SYM_MUL && sym_isnum(t->args[0]))
		return t->args[0]->u.num.p < 0 ? -1 : 1;
	return 1;
}

SymRat sym_content(SymCtx *c, const Sym *d)
{
	int64_t g = 0, l = 1;
	uint32_t n = d->kind == SYM_ADD ? d->nargs : 1;
	Sym *const *ts = d->kind == SYM_ADD ? d->args : (Sym *const *)&d;
	for (uint32_t i = 0; i < n; i++) {
		Sym *m;
		SymRat k = sym_coef(ts[i], &m, c);
		g = sym_gcd64(g, k.p);
		int64_t lg = sym_gcd64(l, k.q);
		__int128 nl = (__int128)(l / lg) * k.q;
		if (nl > INT32_MAX)
			return (SymRat){0, 0};
		l = (int64_t)nl;
	}
	SymRat r;
	if (g == 0 || !sym_rat_norm((__int128)g * lead_sign(d), l, &r))
		return (SymRat){0, 0};
	return r;
}

/* A term of a sum while collecting: k * (product of f[0..nf)), t the
 * original term node (reused when k is unchanged). */
typedef struct {
	SymRat k, k0;
	Sym *const *f;
	int nf;
	Sym *t;
} STerm;

/* Monomial order: fewer factors first, then factor by factor. Any fixed
 * total order does; this one needs no monomial nodes. */
static int cmp_sterm(const void *x, const void *y)
{
	const STerm *a = x, *b = y;
	if (a->nf != b->nf)
		return a->nf < b->nf ? -1 : 1;
	for (int i = 0; i < a->nf; i++)
		if (a->f[i] != b->f[i])
			return sym_cmp(a->f[i], b->f[i]);
	return 0;
}

static void sort_sterms(STerm *t, size_t n)
{
	if (n > 12) {
		qsort(t, n, sizeof *t, cmp_sterm);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		STerm x = t[i];
		size_t j = i;
		while (j > 0 && cmp_sterm(&t[j - 1], &x) > 0) {
			t[j] = t[j - 1];
			j--;
		}
		t[j] = x;
	}
}

static bool same_mono(const STerm *a, const STerm *b)
{
	if (a->nf != b->nf)
		return false;
	for (int i = 0; i < a->nf; i++)
		if (a->f[i] != b->f[i])
			return false;
	return true;
}

static Sym *build_sterm(SymCtx *c, const STerm *t)
{
	if (t->k.p == t->k0.p && t->k.q == t->k0.q)
		return t->t;
	if (t->k.p == 1 && t->k.q == 1 && t->nf == 1)
		return t->f[0];
	Sym *buf[16], **a = t->nf + 1 <= 16 ? buf : xmalloc(sizeof(Sym *) * (size_t)(t->nf + 1));
	int n = 0;
	if (t->k.p != 1 || t->k.q != 1)
		a[n++] = sym_num(c, t->k);
	memcpy(a + n, t->f, sizeof(Sym *) * (size_t)t->nf);
	Sym *r = sym_node(c, SYM_MUL, n + t->nf, a);
	if (a != buf)
		free(a);
	return r;
}

Sym *sym_addv(SymCtx *c, int n, Sym *const *args)
{
	Sym *bad = sym_check_args(c, n, args);
	if (bad)
		return bad;
	STerm tbuf[32];
	size_t cap = 0;
	for (int i = 0; i < n; i++)
		cap += args[i]->kind == SYM_ADD ? args[i]->nargs : 1;
	STerm *t = cap <= 32 ? tbuf : xmalloc(sizeof(STerm) * cap);
	size_t nt = 0;
	SymRat k0 = {0, 1};
	Sym *res = NULL;
	for (int i = 0; i < n && !res; i++) {
		Sym *a = args[i];
		int m = a->kind == SYM_ADD ? (int)a->nargs : 1;
		Sym *const *as = a->kind == SYM_ADD ? a->args : &args[i];
		for (int j = 0; j < m; j++) {
			Sym *x = as[j];
			if (sym_isnum(x)) {
				if (!sym_rat_add(k0, x->u.num, &k0)) {
					res = overflow(c);
					break;
				}
				continue;
			}
			STerm *st = &t[nt++];
			st->t = x;
			if (x->kind == SYM_MUL && sym_isnum(x->args[0])) {
				st->k = x->args[0]->u.num;
				st->f = x->args + 1;
				st->nf = (int)x->nargs - 1;
			} else {
				st->k = rat_i(1);
				st->f = x->kind == SYM_MUL ? x->args : &as[j];
				st->nf = x->kind == SYM_MUL ? (int)x->nargs : 1;
			}
			st->k0 = st->k;
		}
	}
	if (!res) {
		if (nt > 1)
			sort_sterms(t, nt);
		size_t w = 0;
		for (size_t i = 0; i < nt; i++) {
			if (w > 0 && same_mono(&t[w - 1], &t[i])) {
				if (!sym_rat_add(t[w - 1].k, t[i].k, &t[w - 1].k)) {
					res = overflow(c);
					break;
				}
				t[w - 1].k0 = (SymRat){0, 0}; /* changed: rebuild */
			} else
				t[w++] = t[i];
		}
		nt = w;
	}
	if (!res) {
		Sym *obuf[33], **out = nt + 1 <= 33 ? obuf : xmalloc(sizeof(Sym *) * (nt + 1));
		int no = 0;
		if (k0.p != 0)
			out[no++] = sym_num(c, k0);
		for (size_t i = 0; i < nt; i++)
			if (t[i].k.p != 0)
				out[no++] = build_sterm(c, &t[i]);
		res = no == 0 ? c->zero : no == 1 ? out[0] : sym_node(c, SYM_ADD, no, out);
		if (out != obuf)
			free(out);
	}
	if (t != tbuf)
		free(t);
	return res;
}

Sym *sym_add(SymCtx *c, Sym *a, Sym *b)
{
	if (sym_isnum(a) && sym_isnum(b)) {
		SymRat r;
		return sym_rat_add(a->u.num, b->u.num, &r) ? sym_num(c, r) : overflow(c);
	}
	Sym *v[2] = {a, b};
	return sym_addv(c, 2, v);
}

Sym *sym_scale(SymCtx *c, SymRat k, Sym *e)
{
	if (k.p == 1 && k.q == 1)
		return e;
	Sym *v[2] = {sym_num(c, k), e};
	return sym_mulv(c, 2, v);
}

Sym *sym_neg(SymCtx *c, Sym *a) { return sym_scale(c, rat_i(-1), a); }

Sym *sym_sub(SymCtx *c, Sym *a, Sym *b)
{
	Sym *v[2] = {a, sym_neg(c, b)};
	return sym_addv(c, 2, v);
}

typedef struct {
	Sym *b;
	int64_t e;
} Factor;

static int cmp_factor(const void *x, const void *y)
{
	return sym_cmp(((const Factor *)x)->b, ((const Factor *)y)->b);
}

static void sort_factors(Factor *f, size_t n)
{
	if (n > 12) {
		qsort(f, n, sizeof *f, cmp_factor);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		Factor x = f[i];
		size_t j = i;
		while (j > 0 && f[j - 1].b != x.b && sym_cmp(f[j - 1].b, x.b) > 0) {
			f[j] = f[j - 1];
			j--;
		}
		f[j] = x;
	}
}

static Sym *make_pow(SymCtx *c, Sym *b, int64_t e)
{
	if (e == 1)
		return b;
	Sym *v[2] = {b, sym_int(c, e)};
	return sym_node(c, SYM_POW, 2, v);
}

/* k * s for a sum s, term by term (no trip through sym_mulv). */
static Sym *scale_sum(SymCtx *c, SymRat k, Sym *s)
{
	Sym *tb[32], **ts = s->nargs <= 32 ? tb : xmalloc(sizeof(Sym *) * s->nargs);
	Sym *res = NULL;
	for (uint32_t i = 0; i < s->nargs; i++) {
		Sym *m;
		SymRat tk = sym_coef(s->args[i], &m, c), r;
		if (!sym_rat_mul(tk, k, &r)) {
			res = overflow(c);
			break;
		}
		ts[i] = m == c->one ? sym_num(c, r) : make_term(c, r, m);
	}
	if (!res)
		res = sym_addv(c, (int)s->nargs, ts);
	if (ts != tb)
		free(ts);
	return res;
}

/* A factor that is already canonical as a Mul argument on its own. */
static inline bool plain_factor(const Sym *x)
{
	return x->kind != SYM_MUL && x->kind != SYM_ADD && x->kind != SYM_POW && !sym_isnum(x) &&
	       x->kind != SYM_ERROR && !(x->flags & SF_BOOL);
}

Sym *sym_mulv(SymCtx *c, int n, Sym *const *args)
{
	/* fast path, the parser's commonest case: number * plain factor */
	if (n == 2 && (sym_isnum(args[0]) || sym_isnum(args[1]))) {
		Sym *k = sym_isnum(args[0]) ? args[0] : args[1], *x = k == args[0] ? args[1] : args[0];
		if (plain_factor(x)) {
			if (k->u.num.p == 0)
				return c->zero;
			if (k->u.num.p == 1 && k->u.num.q == 1)
				return x;
			Sym *v[2] = {k, x};
			return sym_node(c, SYM_MUL, 2, v);
		}
	}
	Sym *bad = sym_check_args(c, n, args);
	if (bad)
		return bad;
	size_t cap = 0;
	for (int i = 0; i < n; i++)
		cap += args[i]->kind == SYM_MUL ? args[i]->nargs : 1;
	Factor fbuf[16], *f = cap <= 16 ? fbuf : xmalloc(sizeof(Factor) * cap);
	size_t nf = 0;
	SymRat k = {1, 1};
	Sym *res = NULL;
	for (int i = 0; i < n && !res; i++) {
		Sym *a = args[i];
		int m = a->kind == SYM_MUL ? (int)a->nargs : 1;
		Sym *const *as = a->kind == SYM_MUL ? a->args : &args[i];
		for (int j = 0; j < m; j++) {
			Sym *x = as[j];
			if (sym_isnum(x)) {
				if (!sym_rat_mul(k, x->u.num, &k)) {
					res = overflow(c);
					break;
				}
			} else if (x->kind == SYM_POW) {
				f[nf++] = (Factor){x->args[0], x->args[1]->u.num.p};
			} else
				f[nf++] = (Factor){x, 1};
		}
	}
	if (!res && k.p == 0)
		res = c->zero;
	/* a sum factor keeps a primitive form: its content moves to the
	 * coefficient, so 2*(a + 1)/x and (2*a + 2)/x agree, as do 1/(2*a + 2)
	 * and 1/(2*(a + 1)) (a lone sum times a number distributes instead,
	 * below) */
	for (size_t i = 0; !res && i < nf; i++) {
		if (f[i].b->kind != SYM_ADD || (f[i].e != 1 && f[i].e != -1) || (nf == 1 && f[i].e == 1))
			continue;
		SymRat g = sym_content(c, f[i].b), inv;
		if (g.q != 0 && (g.p != 1 || g.q != 1) && sym_rat_div((SymRat){1, 1}, g, &inv)) {
			/* if the coefficient cannot absorb the content, the canonical
			 * form is not representable: an overflow, not a second form */
			if (!sym_rat_mul(k, f[i].e == 1 ? g : inv, &k)) {
				res = overflow(c);
				break;
			}
			f[i].b = scale_sum(c, inv, f[i].b);
			if (f[i].b->kind == SYM_ERROR)
				res = f[i].b; /* never a node with an error inside */
		}
	}
	if (!res) {
		if (nf > 1)
			sort_factors(f, nf);
		size_t w = 0;
		for (size_t i = 0; i < nf; i++) {
			if (w > 0 && f[w - 1].b == f[i].b) {
				__int128 e = (__int128)f[w - 1].e + f[i].e;
				if (e > INT32_MAX || e < INT32_MIN) {
					res = overflow(c);
					break;
				}
				f[w - 1].e = (int64_t)e;
			} else
				f[w++] = f[i];
		}
		nf = w;
	}
	if (!res) {
		Sym *obuf[17], **out = nf + 1 <= 17 ? obuf : xmalloc(sizeof(Sym *) * (nf + 1));
		int no = 0;
		if (k.p != 1 || k.q != 1)
			out[no++] = sym_num(c, k);
		for (size_t i = 0; i < nf; i++)
			if (f[i].e != 0)
				out[no++] = make_pow(c, f[i].b, f[i].e);
		if (no == 0)
			res = c->one;
		else if (no == 1)
			res = out[0];
		else if (no == 2 && sym_isnum(out[0]) && out[1]->kind == SYM_ADD) {
			/* a number times a sum distributes (as SymPy does) */
			res = scale_sum(c, k, out[1]);
		} else
			res = sym_node(c, SYM_MUL, no, out);
		if (out != obuf)
			free(out);
	}
	if (f != fbuf)
		free(f);
	return res;
}

Sym *sym_mul(SymCtx *c, Sym *a, Sym *b)
{
	if (sym_isnum(a) && sym_isnum(b)) {
		SymRat r;
		return sym_rat_mul(a->u.num, b->u.num, &r) ? sym_num(c, r) : overflow(c);
	}
	Sym *v[2] = {a, b};
	return sym_mulv(c, 2, v);
}

Sym *sym_pow(SymCtx *c, Sym *base, Sym *exp)
{
	Sym *v[2] = {base, exp};
	Sym *bad = sym_check_args(c, 2, v);
	if (bad)
		return bad;
	if (exp->kind != SYM_INT)
		return sym_error(c, "exponent must be an integer constant");
	int64_t e = exp->u.num.p;
	if (sym_isnum(base)) {
		SymRat r;
		if (base->u.num.p == 0 && e < 0)
			return sym_error(c, "division by zero");
		return sym_rat_pow(base->u.num, e, &r) ? sym_num(c, r) : overflow(c);
	}
	if (e == 0)
		return c->one;
	if (e == 1)
		return base;
	if (base->kind == SYM_ADD && e == -1) {
		Sym *v1[1] = {make_pow(c, base, -1)};
		return sym_mulv(c, 1, v1);
	}
	if (base->kind == SYM_POW) {
		__int128 be = (__int128)base->args[1]->u.num.p * e;
		if (be > INT64_MAX || be < -INT64_MAX)
			return overflow(c);
		return be == 0 ? c->one : make_pow(c, base->args[0], (int64_t)be);
	}
	if (base->kind == SYM_MUL) {
		Sym *fb[16] = {0}, **fs = base->nargs <= 16 ? fb : xmalloc(sizeof(Sym *) * base->nargs);
		for (uint32_t i = 0; i < base->nargs; i++)
			fs[i] = sym_pow(c, base->args[i], exp);
		Sym *r = sym_mulv(c, (int)base->nargs, fs);
		if (fs != fb)
			free(fs);
		return r;
	}
	return make_pow(c, base, e);
}

Sym *sym_div(SymCtx *c, Sym *a, Sym *b)
{
	if (b == c->zero)
		return a->kind == SYM_ERROR ? a : sym_error(c, "division by zero");
	return sym_mul(c, a, sym_pow(c, b, c->neg_one));
}

Sym *sym_floor(SymCtx *c, Sym *a)
{
	Sym *bad = sym_check_args(c, 1, &a);
	if (bad)
		return bad;
	if (sym_isnum(a))
		return sym_int(c, sym_rat_floor(a->u.num));
	if (a->flags & SF_INT)
		return a;
	return sym_node(c, SYM_FLOOR, 1, &a);
}

Sym *sym_ceil(SymCtx *c, Sym *a)
{
	Sym *bad = sym_check_args(c, 1, &a);
	if (bad)
		return bad;
	if (sym_isnum(a))
		return sym_int(c, sym_rat_ceil(a->u.num));
	if (a->flags & SF_INT)
		return a;
	return sym_node(c, SYM_CEIL, 1, &a);
}

Sym *sym_floordiv(SymCtx *c, Sym *a, Sym *b) { return sym_floor(c, sym_div(c, a, b)); }

Sym *sym_mod(SymCtx *c, Sym *a, Sym *b)
{
	Sym *v[2] = {a, b};
	Sym *bad = sym_check_args(c, 2, v);
	if (bad)
		return bad;
	if (b == c->zero)
		return sym_error(c, "Mod by zero");
	if (sym_isnum(a) && sym_isnum(b)) {
		SymRat q, r, m;
		if (!sym_rat_div(a->u.num, b->u.num, &q))
			return overflow(c);
		if (!sym_rat_mul(rat_i(sym_rat_floor(q)), b->u.num, &m) || !sym_rat_sub(a->u.num, m, &r))
			return overflow(c);
		return sym_num(c, r);
	}
	if (a == b || a == c->zero || ((a->flags & SF_INT) && (b == c->one || b == c->neg_one)))
		return c->zero;
	return sym_node(c, SYM_MOD, 2, v);
}
