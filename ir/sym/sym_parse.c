/* sym_parse.c — a recursive-descent parser for SymPy's printed syntax.
 *
 * Grammar, loosest binding first:
 *   or    := and ('|' and)*
 *   and   := not ('&' not)*
 *   not   := '~' not | cmp
 *   cmp   := sum (RELOP sum)?            RELOP: < <= > >= == !=
 *   sum   := term (('+' | '-') term)*
 *   term  := unary (('*' | '/' | '//' | '%') unary)*
 *   unary := ('-' | '+') unary | power
 *   power := primary (('**' | '^') unary)?
 *   primary := INT | NAME | True | False | '(' or ')' | NAME '(' args ')'
 * Comparisons bind tighter than & and |, so `a > 0 & b >= 0` means
 * `(a > 0) & (b >= 0)` (the corpus prints it so) and the parenthesised form
 * reads the same. A number used where a boolean is needed means `x != 0`
 * (SymPy prints `~($A | $B)` for integer flags). Names may start with `$`.
 * Functions: floor ceiling Mod Max Min xor Piecewise Eq Ne Lt Le Gt Ge And
 * Or Not. Nesting is bounded (SYM_PARSE_MAX_DEPTH) so hostile input cannot
 * exhaust the stack; every error names a 1-based column. */
#include <string.h>

#include "sym_int.h"

#define SYM_PARSE_MAX_DEPTH 256

typedef Vec(const char *) PosVec;

/* A vector with inline room for the common short case (no malloc). */
typedef struct {
	Sym **data;
	size_t len, cap;
	Sym *inl[16];
} SmallVec;

static void sv_init(SmallVec *v)
{
	v->data = v->inl;
	v->len = 0;
	v->cap = 16;
}

static void sv_push(SmallVec *v, Sym *x)
{
	if (v->len == v->cap) {
		Sym **d = xmalloc(sizeof(Sym *) * v->cap * 2);
		memcpy(d, v->data, sizeof(Sym *) * v->len);
		if (v->data != v->inl)
			free(v->data);
		v->data = d;
		v->cap *= 2;
	}
	v->data[v->len++] = x;
}

static void sv_free(SmallVec *v)
{
	if (v->data != v->inl)
		free(v->data);
}

typedef struct {
	SymCtx *c;
	const char *s, *p;
	int depth;
	int maxd; /* deepest nesting reached (for the span cache) */
	SymParseError *err;
	bool failed;
} P;

static void *fail(P *p, const char *at, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void *fail(P *p, const char *at, const char *fmt, ...)
{
	if (p->failed)
		return NULL;
	p->failed = true;
	if (p->err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
		va_end(ap);
		p->err->col = (int)(at - p->s) + 1;
	}
	return NULL;
}

/* An error value from a constructor becomes a parse error at `at`. */
static Sym *chk(P *p, Sym *e, const char *at)
{
	if (!e)
		return NULL;
	if (e->kind == SYM_ERROR)
		return fail(p, at, "%s", e->u.msg);
	return e;
}

static void ws(P *p)
{
	while (*p->p == ' ' || *p->p == '\t' || *p->p == '\r' || *p->p == '\n')
		p->p++;
}

/* Consume a one- or two-character token if it comes next. */
static inline bool eatc(P *p, char a)
{
	ws(p);
	if (*p->p != a)
		return false;
	p->p++;
	return true;
}

static inline bool eat2(P *p, char a, char b)
{
	ws(p);
	if (p->p[0] != a || p->p[1] != b)
		return false;
	p->p += 2;
	return true;
}

static inline bool peekc(P *p, char a)
{
	ws(p);
	return *p->p == a;
}

static inline bool peek2(P *p, char a, char b)
{
	ws(p);
	return p->p[0] == a && p->p[1] == b;
}

static bool is_name_start(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == '$';
}

static bool is_name_char(char ch) { return is_name_start(ch) || (ch >= '0' && ch <= '9'); }

static Sym *p_or(P *p);
static Sym *p_sum(P *p);
static Sym *p_unary(P *p);

static bool enter(P *p)
{
	if (++p->depth > p->maxd)
		p->maxd = p->depth;
	if (p->depth > SYM_PARSE_MAX_DEPTH) {
		fail(p, p->p, "expression nested more than %d levels deep", SYM_PARSE_MAX_DEPTH);
		return false;
	}
	return true;
}

static Sym *need_num(P *p, Sym *e, const char *at)
{
	if (e && (e->flags & SF_BOOL))
		return fail(p, at, "a boolean where a number is needed");
	return e;
}

/* Comma-separated arguments up to ')'. */
static int p_args(P *p, SymVec *out, PosVec *cols)
{
	if (eatc(p, ')'))
		return 0;
	for (;;) {
		ws(p);
		if (cols)
			vec_push(cols, p->p);
		Sym *a = p_or(p);
		if (!a)
			return -1;
		vec_push(out, a);
		if (eatc(p, ')'))
			return 0;
		if (!eatc(p, ',')) {
			fail(p, p->p, "expected ',' or ')'");
			return -1;
		}
	}
}

static Sym *p_piecewise(P *p, const char *at)
{
	Vec(Sym *) vals = {0}, conds = {0};
	Sym *r = NULL;
	for (;;) {
		if (!eatc(p, '(')) {
			fail(p, p->p, "expected '(' starting a Piecewise branch");
			goto out;
		}
		ws(p);
		const char *vat = p->p;
		Sym *v = need_num(p, p_or(p), vat);
		if (!v)
			goto out;
		if (!eatc(p, ',')) {
			fail(p, p->p, "expected ',' in a Piecewise branch");
			goto out;
		}
		Sym *cnd = p_or(p);
		if (!cnd)
			goto out;
		if (!eatc(p, ')')) {
			fail(p, p->p, "expected ')' closing a Piecewise branch");
			goto out;
		}
		vec_push(&vals, v);
		vec_push(&conds, cnd);
		if (eatc(p, ')'))
			break;
		if (!eatc(p, ',')) {
			fail(p, p->p, "expected ',' or ')' in Piecewise");
			goto out;
		}
	}
	r = chk(p, sym_piecewise(p->c, (int)vals.len, vals.data, conds.data), at);
out:
	vec_free(&vals);
	vec_free(&conds);
	return r;
}

typedef enum { F_FLOOR, F_CEIL, F_MOD, F_MAX, F_MIN, F_XOR, F_EQ, F_NE, F_LT, F_LE, F_GT, F_GE, F_AND, F_OR, F_NOT } Fn;
static const struct {
	const char *name;
	Fn fn;
	int min, max; /* argument count; max 0: any */
	bool bool_args;
} fns[] = {
	{"floor", F_FLOOR, 1, 1, false},
	{"ceiling", F_CEIL, 1, 1, false},
	{"Mod", F_MOD, 2, 2, false},
	{"Max", F_MAX, 1, 0, false},
	{"Min", F_MIN, 1, 0, false},
	{"xor", F_XOR, 2, 2, false},
	{"Eq", F_EQ, 2, 2, false},
	{"Ne", F_NE, 2, 2, false},
	{"Lt", F_LT, 2, 2, false},
	{"Le", F_LE, 2, 2, false},
	{"Gt", F_GT, 2, 2, false},
	{"Ge", F_GE, 2, 2, false},
	{"And", F_AND, 1, 0, true},
	{"Or", F_OR, 1, 0, true},
	{"Not", F_NOT, 1, 1, true},
};

static Sym *p_call(P *p, const char *name, size_t n, const char *at)
{
	if (n == 9 && strncmp(name, "Piecewise", 9) == 0)
		return p_piecewise(p, at);
	int f = -1;
	for (size_t i = 0; i < ARRAY_LEN(fns) && f < 0; i++)
		if (fns[i].name[0] == name[0] && strncmp(fns[i].name, name, n) == 0 && fns[i].name[n] == 0)
			f = (int)i;
	if (f < 0)
		return fail(p, at, "unknown function '%.*s'", (int)n, name);
	SymVec a = {0};
	PosVec cols = {0};
	Sym *r = NULL;
	if (p_args(p, &a, &cols) < 0)
		goto out;
	if ((int)a.len < fns[f].min || (fns[f].max && (int)a.len > fns[f].max)) {
		fail(p, at, "%s takes %d argument%s, got %zu", fns[f].name, fns[f].min, fns[f].min == 1 ? "" : "s",
			a.len);
		goto out;
	}
	if (!fns[f].bool_args)
		for (size_t i = 0; i < a.len; i++)
			if (!need_num(p, a.data[i], cols.data[i]))
				goto out;
	SymCtx *c = p->c;
	switch (fns[f].fn) {
	case F_FLOOR: r = sym_floor(c, a.data[0]); break;
	case F_CEIL: r = sym_ceil(c, a.data[0]); break;
	case F_MOD: r = sym_mod(c, a.data[0], a.data[1]); break;
	case F_MAX: r = sym_maxv(c, (int)a.len, a.data); break;
	case F_MIN: r = sym_minv(c, (int)a.len, a.data); break;
	case F_XOR: r = sym_xor(c, a.data[0], a.data[1]); break;
	case F_EQ: r = sym_rel(c, SYM_EQ, a.data[0], a.data[1]); break;
	case F_NE: r = sym_rel(c, SYM_NE, a.data[0], a.data[1]); break;
	case F_LT: r = sym_rel(c, SYM_LT, a.data[0], a.data[1]); break;
	case F_LE: r = sym_rel(c, SYM_LE, a.data[0], a.data[1]); break;
	case F_GT: r = sym_rel(c, SYM_GT, a.data[0], a.data[1]); break;
	case F_GE: r = sym_rel(c, SYM_GE, a.data[0], a.data[1]); break;
	case F_AND: r = sym_andv(c, (int)a.len, a.data); break;
	case F_OR: r = sym_orv(c, (int)a.len, a.data); break;
	case F_NOT: r = sym_not(c, a.data[0]); break;
	}
	r = chk(p, r, at);
out:
	vec_free(&a);
	vec_free(&cols);
	return r;
}

/* ---- span cache ----
 * Wave's expressions repeat large parenthesised blocks verbatim (the same
 * Piecewise tile offset in hundreds of lines). A call or group near the top
 * of the tree is looked up by its exact text first: finding its closing
 * parenthesis and hashing the span costs a fraction of parsing it. Parsing
 * is a pure function of the text, so a hit is exactly what a parse would
 * give; the nesting bound is kept by recording each span's inner depth. */
#define SPAN_CACHE_LEVELS 8

typedef struct {
	const char *at, *end;
	uint64_t h;
} Span;

static bool span_find(const char *at, const char *open, Span *sp)
{
	int bal = 0;
	const char *q = open;
	for (;; q++) {
		char ch = *q;
		if (ch == '(')
			bal++;
		else if (ch == ')') {
			if (--bal == 0)
				break;
		} else if (ch == 0)
			return false;
	}
	sp->at = at;
	sp->end = q + 1;
	size_t n = (size_t)(sp->end - at);
	uint64_t h = 0x243f6a8885a308d3ull ^ n;
	const char *s = at;
	for (; n >= 8; n -= 8, s += 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x100000001b3ull;
		h ^= h >> 29;
	}
	uint64_t w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xff51afd7ed558ccdull;
	sp->h = h ^ (h >> 32);
	return true;
}

static struct SymSpan *span_slot(SymCtx *c, const Span *sp)
{
	size_t len = (size_t)(sp->end - sp->at), mask = c->capspans - 1;
	for (size_t i = sp->h & mask;; i = (i + 1) & mask) {
		struct SymSpan *e = &c->spans[i];
		if (!e->e || (e->h == sp->h && e->len == len && memcmp(e->text, sp->at, len) == 0))
			return e;
	}
}

static Sym *span_get(P *p, const Span *sp)
{
	SymCtx *c = p->c;
	if (!c->capspans)
		return NULL;
	struct SymSpan *e = span_slot(c, sp);
	if (!e->e || p->depth + (int)e->inner > SYM_PARSE_MAX_DEPTH)
		return NULL;
	if (p->depth + (int)e->inner > p->maxd)
		p->maxd = p->depth + (int)e->inner;
	return e->e;
}

static void span_put(P *p, const Span *sp, Sym *r, int inner)
{
	SymCtx *c = p->c;
	if ((c->nspans + 1) * 2 > c->capspans) {
		size_t ncap = c->capspans ? c->capspans * 2 : 64;
		struct SymSpan *old = c->spans;
		size_t ocap = c->capspans;
		c->spans = xcalloc(ncap, sizeof *c->spans);
		c->capspans = ncap;
		for (size_t i = 0; i < ocap; i++) {
			if (!old[i].e)
				continue;
			size_t j = old[i].h & (ncap - 1);
			while (c->spans[j].e)
				j = (j + 1) & (ncap - 1);
			c->spans[j] = old[i];
		}
		free(old);
	}
	struct SymSpan *e = span_slot(c, sp);
	if (e->e)
		return;
	size_t len = (size_t)(sp->end - sp->at);
	e->h = sp->h;
	e->len = (uint32_t)len;
	e->inner = (uint32_t)inner;
	e->text = arena_strndup(&c->arena, sp->at, len);
	e->e = r;
	c->nspans++;
}

static Sym *p_primary_raw(P *p);

/* p_primary through the span cache for calls and groups near the top. */
static Sym *p_primary(P *p)
{
	ws(p);
	const char *at = p->p, *q = at;
	if (p->depth >= SPAN_CACHE_LEVELS)
		return p_primary_raw(p);
	while (is_name_char(*q))
		q++;
	Span sp;
	if (*q != '(' || !span_find(at, q, &sp))
		return p_primary_raw(p);
	Sym *hit = span_get(p, &sp);
	if (hit) {
		p->p = sp.end;
		return hit;
	}
	int saved = p->maxd;
	p->maxd = p->depth;
	Sym *r = p_primary_raw(p);
	int inner = p->maxd - p->depth;
	if (saved > p->maxd)
		p->maxd = saved;
	if (r && p->p == sp.end)
		span_put(p, &sp, r, inner);
	return r;
}

static Sym *p_primary_raw(P *p)
{
	ws(p);
	const char *at = p->p;
	char ch = *p->p;
	if (ch >= '0' && ch <= '9') {
		int64_t v = 0;
		while (*p->p >= '0' && *p->p <= '9') {
			int d = *p->p++ - '0';
			if (v > (INT64_MAX - d) / 10)
				return fail(p, at, "integer literal overflows 64 bits");
			v = v * 10 + d;
		}
		if (*p->p == '.' || is_name_char(*p->p))
			return fail(p, p->p, "malformed number (only integers are allowed)");
		return sym_int(p->c, v);
	}
	if (is_name_start(ch)) {
		while (is_name_char(*p->p))
			p->p++;
		size_t n = (size_t)(p->p - at);
		if (n == 4 && strncmp(at, "True", 4) == 0)
			return p->c->t;
		if (n == 5 && strncmp(at, "False", 5) == 0)
			return p->c->f;
		if (eatc(p, '(')) {
			if (!enter(p))
				return NULL;
			Sym *r = p_call(p, at, n, at);
			p->depth--;
			return r;
		}
		if (n == 1 && at[0] == '$')
			return fail(p, at, "'$' must start a name");
		if (n > 255)
			return fail(p, at, "name longer than 255 characters");
		return sym_symbol_n(p->c, at, n);
	}
	if (ch == '(') {
		p->p++;
		if (!enter(p))
			return NULL;
		Sym *r = p_or(p);
		p->depth--;
		if (r && !eatc(p, ')'))
			return fail(p, p->p, "expected ')'");
		return r;
	}
	if (ch == 0)
		return fail(p, at, "unexpected end of expression");
	return fail(p, at, "unexpected '%c'", ch);
}

static Sym *p_power(P *p)
{
	Sym *b = p_primary(p);
	if (!b)
		return NULL;
	ws(p);
	const char *at = p->p;
	if (eat2(p, '*', '*') || (!peek2(p, '^', '=') && eatc(p, '^'))) {
		/* right-associative: x**x**x... recurses, so it counts as nesting */
		if (!enter(p))
			return NULL;
		Sym *e = p_unary(p);
		p->depth--;
		if (!e)
			return NULL;
		if (!need_num(p, b, at) || !need_num(p, e, at))
			return NULL;
		return chk(p, sym_pow(p->c, b, e), at);
	}
	return b;
}

static Sym *p_unary(P *p)
{
	ws(p);
	const char *at = p->p;
	if (*p->p == '-' || *p->p == '+') {
		bool neg = *p->p++ == '-';
		if (!enter(p))
			return NULL;
		Sym *e = p_unary(p);
		p->depth--;
		if (!need_num(p, e, at))
			return NULL;
		return neg ? chk(p, sym_neg(p->c, e), at) : e;
	}
	return p_power(p);
}

static Sym *p_term(P *p)
{
	ws(p);
	const char *at0 = p->p;
	Sym *e = p_unary(p);
	if (!e)
		return NULL;
	SmallVec fs;
	sv_init(&fs);
	sv_push(&fs, e);
	const char *first_op = NULL;
	for (;;) {
		ws(p);
		const char *at = p->p;
		int op;
		if (peek2(p, '*', '*'))
			break; /* p_power took any legal one; the caller reports it */
		if (eatc(p, '*'))
			op = '*';
		else if (eat2(p, '/', '/'))
			op = 'f';
		else if (eatc(p, '/'))
			op = '/';
		else if (eatc(p, '%'))
			op = '%';
		else
			break;
		if (!first_op)
			first_op = at;
		Sym *r = p_unary(p);
		if (!r || !need_num(p, r, at) || !need_num(p, fs.data[0], at0)) {
			e = NULL;
			goto out;
		}
		if (op == '*' || op == '/') {
			if (op == '/') {
				if (r == p->c->zero) {
					e = fail(p, at, "division by zero");
					goto out;
				}
				r = chk(p, sym_pow(p->c, r, p->c->neg_one), at);
				if (!r) {
					e = NULL;
					goto out;
				}
			}
			sv_push(&fs, r);
			continue;
		}
		/* // and % bind like * and apply to everything on their left */
		Sym *l = fs.len == 1 ? fs.data[0] : sym_mulv(p->c, (int)fs.len, fs.data);
		l = op == 'f' ? (r == p->c->zero ? sym_error(p->c, "division by zero") : sym_floordiv(p->c, l, r))
			      : sym_mod(p->c, l, r);
		if (!chk(p, l, at)) {
			e = NULL;
			goto out;
		}
		fs.len = 0;
		sv_push(&fs, l);
	}
	e = fs.len == 1 ? fs.data[0] : chk(p, sym_mulv(p->c, (int)fs.len, fs.data), first_op);
out:
	sv_free(&fs);
	return e;
}

static Sym *p_sum(P *p)
{
	ws(p);
	const char *at0 = p->p;
	Sym *e = p_term(p);
	if (!e)
		return NULL;
	SmallVec ts;
	sv_init(&ts);
	sv_push(&ts, e);
	const char *first_op = NULL;
	for (;;) {
		ws(p);
		const char *at = p->p;
		bool neg;
		if (*p->p == '+')
			neg = false;
		else if (*p->p == '-')
			neg = true;
		else
			break;
		p->p++;
		if (!first_op)
			first_op = at;
		Sym *r = p_term(p);
		if (!r || !need_num(p, r, at) || !need_num(p, ts.data[0], at0)) {
			e = NULL;
			goto out;
		}
		sv_push(&ts, neg ? sym_neg(p->c, r) : r);
	}
	e = ts.len == 1 ? ts.data[0] : chk(p, sym_addv(p->c, (int)ts.len, ts.data), first_op);
out:
	sv_free(&ts);
	return e;
}

static Sym *p_cmp(P *p)
{
	ws(p);
	const char *at0 = p->p;
	Sym *l = p_sum(p);
	if (!l)
		return NULL;
	static const struct {
		const char *tok;
		SymKind op;
	} rels[] = {{"<=", SYM_LE}, {">=", SYM_GE}, {"==", SYM_EQ}, {"!=", SYM_NE}, {"<", SYM_LT}, {">", SYM_GT}};
	ws(p);
	const char *at = p->p;
	for (size_t i = 0; i < ARRAY_LEN(rels); i++) {
		const char *t = rels[i].tok;
		if (!(t[1] ? eat2(p, t[0], t[1]) : eatc(p, t[0])))
			continue;
		Sym *r = p_sum(p);
		if (!r || !need_num(p, l, at0) || !need_num(p, r, at))
			return NULL;
		ws(p);
		if (strchr("<>=!", *p->p) && *p->p)
			return fail(p, p->p, "chained comparisons are not supported");
		return chk(p, sym_rel(p->c, rels[i].op, l, r), at);
	}
	return l;
}

static Sym *p_not(P *p)
{
	ws(p);
	const char *at = p->p;
	if (*p->p == '~') {
		p->p++;
		if (!enter(p))
			return NULL;
		Sym *e = p_not(p);
		p->depth--;
		return e ? chk(p, sym_not(p->c, e), at) : NULL;
	}
	return p_cmp(p);
}

static Sym *p_bin(P *p, char opch)
{
	ws(p);
	const char *at0 = p->p;
	Sym *e = opch == '|' ? p_bin(p, '&') : p_not(p);
	if (!e)
		return NULL;
	if (!peekc(p, opch))
		return e;
	SmallVec xs;
	sv_init(&xs);
	sv_push(&xs, e);
	(void)at0;
	while (eatc(p, opch)) {
		Sym *r = opch == '|' ? p_bin(p, '&') : p_not(p);
		if (!r) {
			sv_free(&xs);
			return NULL;
		}
		sv_push(&xs, r);
	}
	e = opch == '|' ? sym_orv(p->c, (int)xs.len, xs.data) : sym_andv(p->c, (int)xs.len, xs.data);
	sv_free(&xs);
	return chk(p, e, at0);
}

static Sym *p_or(P *p) { return p_bin(p, '|'); }

Sym *sym_parse(SymCtx *c, const char *text, SymParseError *err)
{
	P p = {c, text, text, 0, 0, err, false};
	if (err) {
		err->col = 0;
		err->msg[0] = 0;
	}
	Sym *e = p_or(&p);
	if (e) {
		ws(&p);
		if (*p.p)
			e = fail(&p, p.p, "unexpected '%c' after the expression", *p.p);
	}
	if (!e && !p.failed)
		fail(&p, p.p, "malformed expression");
	return e;
}
