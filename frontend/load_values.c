/* load_values.c — the kernel graph's values beyond the shared JSON reader
 * (util/json.h): identifiers, dtypes, symbols and SymPy-syntax expressions
 * checked against the kernel's symbols and a local scope, dims and shapes.
 * The top level (load.c), the walker (load_graph.c) and the op builders
 * (load_ops.c) read through these; nothing here calls back into them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"

/* ---- field access beyond the shared reader ---- */

bool ld_is_identifier(const char *s)
{
	if (!s || !*s)
		return false;
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' || *s == '$'))
		return false;
	for (const char *p = s + 1; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
			    *p == '_' || *p == '$' || *p == '.'))
			return false;
	return strlen(s) <= 200;
}

bool ld_get_ident(Ld *L, JV v, const char **out)
{
	if (!json_is_string(v.v)) {
		wrong_type(L, v, "a name (string)");
		return false;
	}
	const char *s = json_string_value(v.v);
	if (strlen(s) != json_string_length(v.v) || !ld_is_identifier(s)) {
		ld_err(L, v, "'%s' is not a valid name", s);
		return false;
	}
	*out = intern(s);
	return true;
}

void ld_hint_name(Ld *L, const char *word, const char *const *names, size_t n)
{
	const char *near = nearest_name(word, names, n);
	if (near) {
		diag_hint(L->d, "did you mean '%s'?", near);
		return;
	}
	if (n > 24)
		return;
	Buf b = {0};
	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", names[i]);
	diag_hint(L->d, "one of %s", buf_cstr(&b));
	buf_free(&b);
}

void ld_err_unknown(Ld *L, JV at, const char *what, const char *s, const char *const *names, size_t n)
{
	Buf m = {0};
	nearest_message(&m, s, names, n);
	ld_hint_name(L, s, names, n);
	ld_err(L, at, "unknown %s '%s'%s", what, s, buf_cstr(&m));
	buf_free(&m);
}

void ld_err_unknown_mma(Ld *L, JV f, const char *s)
{
	const char *names[MMA_COUNT];
	for (int i = 0; i < MMA_COUNT; i++)
		names[i] = mma_info[i].name;
	ld_err_unknown(L, f, "mma_type", s, names, MMA_COUNT);
}

bool ld_get_mma_type(Ld *L, JV f, MmaType *t, GenericDot *g)
{
	const char *s;
	*g = GENERIC_DOT_DEFAULT;
	if (json_is_object(f.v)) { /* Wave's GenericDot(out_vec_size, k_vec_size, k_mult, along_dim) */
		check_fields(L, f, "kind out_vec_size k_vec_size k_mult along_dim", NULL);
		JV k = jv_get(L, f, "kind");
		if (!need(L, f, k, "kind") || !get_string(L, k, &s))
			return false;
		if (strcmp(s, "GenericDot") != 0) {
			ld_err(L, k, "unknown mma_type kind '%s' (an object mma_type is a \"GenericDot\")", s);
			return false;
		}
		static const char *const fields[] = {"out_vec_size", "k_vec_size", "k_mult"};
		int *dst[] = {&g->out_vec, &g->k_vec, &g->k_mult};
		for (int i = 0; i < 3; i++) {
			JV x = jv_get(L, f, fields[i]);
			long long v;
			if (x.v && !get_int(L, x, 1, 64, &v))
				return false;
			if (x.v)
				*dst[i] = (int)v;
		}
		JV a = jv_get(L, f, "along_dim");
		if (a.v) {
			if (!get_string(L, a, &s))
				return false;
			if (strcmp(s, "M") != 0 && strcmp(s, "N") != 0) {
				ld_err(L, a, "along_dim '%s' must be \"M\" or \"N\" (Wave's MMAOperand.M or .N)", s);
				return false;
			}
			g->along_m = s[0] == 'M';
		}
		*t = MMA_GENERIC_DOT;
		return true;
	}
	if (!get_string(L, f, &s))
		return false;
	*t = mma_from_name(s);
	if (*t == MMA_NONE) {
		ld_err_unknown_mma(L, f, s);
		return false;
	}
	return true;
}

bool ld_get_dtype(Ld *L, JV v, DType *out)
{
	const char *s;
	if (!get_string(L, v, &s))
		return false;
	DType t = dtype_from_name(s);
	if (t == DT_NONE) {
		const char *names[DT_COUNT];
		for (int i = 0; i < DT_COUNT; i++)
			names[i] = dtype_info[i].name;
		ld_err_unknown(L, v, "dtype", s, names, DT_COUNT);
		return false;
	}
	*out = t;
	return true;
}

/* ---- symbols and expressions ---- */

bool ld_is_builtin_symbol(const char *n)
{
	static const char *const fixed[] = {"$T0", "$T1", "$T2", "$GPR_NUM", "$MMA_ACC", "$MMA_LHS",
		"$MMA_RHS", "$LINEAR_INDEX"};
	for (size_t i = 0; i < ARRAY_LEN(fixed); i++)
		if (strcmp(n, fixed[i]) == 0)
			return true;
	if (strncmp(n, "$WG", 3) == 0 && n[3]) {
		for (const char *p = n + 3; *p; p++)
			if (*p < '0' || *p > '9')
				return false;
		return true;
	}
	return false;
}

bool ld_symbol_known(Ld *L, const char *name)
{
	KSymbol *s = kernel_symbol(L->k, name);
	if (s)
		return s->kind != SYMK_ADDRESS_SPACE;
	for (size_t i = 0; i < L->ivars.len; i++)
		if (strcmp(sym_name(L->ivars.data[i]), name) == 0)
			return true;
	return ld_is_builtin_symbol(name);
}

static bool in_scope(const Scope *sc, const Sym *s)
{
	for (; sc; sc = sc->up)
		for (int i = 0; i < sc->n; i++)
			if (sc->syms[i] == s)
				return true;
	return false;
}

/* The distinct free symbols of e, in first-seen order; returns how many
 * (only the first cap are stored). An iterative walk of the DAG with a
 * visited set, so shared subterms are visited once. (Our own walk rather than
 * sym_free_symbols: it works on any expression, including symbol-free ones.) */
size_t ld_free_syms(const Sym *e, Sym **out, size_t cap)
{
	Vec(const Sym *) stack = {0}, seen = {0};
	size_t n = 0, scap = 64;
	const Sym **set = xcalloc(scap, sizeof(Sym *));
	vec_push(&stack, e);
	while (stack.len) {
		const Sym *x = vec_pop(&stack);
		size_t h = ((uintptr_t)x >> 4) * 0x9E3779B97F4A7C15ull;
		size_t i = h & (scap - 1);
		bool dup = false;
		while (set[i]) {
			if (set[i] == x) {
				dup = true;
				break;
			}
			i = (i + 1) & (scap - 1);
		}
		if (dup)
			continue;
		set[i] = x;
		vec_push(&seen, x);
		if (2 * seen.len > scap) { /* grow and rehash */
			free(set);
			scap *= 2;
			set = xcalloc(scap, sizeof(Sym *));
			for (size_t j = 0; j < seen.len; j++) {
				size_t k = (((uintptr_t)seen.data[j] >> 4) * 0x9E3779B97F4A7C15ull) & (scap - 1);
				while (set[k])
					k = (k + 1) & (scap - 1);
				set[k] = seen.data[j];
			}
		}
		if (sym_kind(x) == SYM_SYMBOL) {
			if (n < cap)
				out[n] = (Sym *)x;
			n++;
			continue;
		}
		for (int a = sym_nargs(x) - 1; a >= 0; a--)
			vec_push(&stack, sym_arg(x, a));
	}
	free(set);
	vec_free(&stack);
	vec_free(&seen);
	return n;
}

Sym *ld_parse_expr_at(Ld *L, JV v, const char *text, int col_off, const Scope *scope)
{
	SymParseError pe = {0};
	Sym *e = sym_parse(L->k->sc, text, &pe);
	if (!e) {
		Loc loc = loc_of(L, v.pos);
		if (loc.col > 0 && pe.col > 0)
			loc.col += col_off + pe.col;
		diag_error(L->d, loc, "%s: invalid expression '%s': %s", v.path, text, pe.msg);
		return NULL;
	}
	Sym *fs[64];
	size_t n = ld_free_syms(e, fs, ARRAY_LEN(fs));
	for (size_t i = 0; i < n && i < ARRAY_LEN(fs); i++) {
		if (in_scope(scope, fs[i]) || ld_symbol_known(L, sym_name(fs[i])))
			continue;
		if (strncmp(sym_name(fs[i]), "GET_ITER_ARG", 12) == 0)
			/* Wave's GET_ITER_ARG(i) in an iterate's condition */
			ld_err(L, v, "'%s' names no value the loop carries: Wave's GET_ITER_ARG<i> stands, in an "
				     "iterate's condition, for its iter arg i (i below the number of init_args)",
				sym_name(fs[i]));
		else
			ld_err(L, v, "symbol '%s' has neither a value nor a constraint defining it", sym_name(fs[i]));
		return NULL;
	}
	if (n > ARRAY_LEN(fs)) {
		ld_err(L, v, "expression uses more than %zu symbols", ARRAY_LEN(fs));
		return NULL;
	}
	return e;
}

Sym *ld_get_expr(Ld *L, JV v, const Scope *scope)
{
	if (json_is_integer(v.v))
		return sym_int(L->k->sc, json_integer_value(v.v));
	if (!json_is_string(v.v)) {
		wrong_type(L, v, "an expression (string or integer)");
		return NULL;
	}
	const char *text = json_string_value(v.v);
	if (strlen(text) != json_string_length(v.v)) {
		ld_err(L, v, "invalid expression: contains a NUL character");
		return NULL;
	}
	/* The column in the string maps onto the file past the opening quote
	 * (exactly so when the string has no escapes). */
	return ld_parse_expr_at(L, v, text, 0, scope);
}

/* Dims written as expressions (Wave's `Memory[M, K / 2]`).
 *
 * A dim must be a symbol: shapes are lists of dim symbols, compared by
 * identity. An expression of exactly one symbol T (`"K/2"`) therefore names
 * an implicit symbolic alias: a symbol spelled as the expression prints
 * (`K/2`), defined as the expression, with a symbolic_alias constraint
 * (source that symbol, target T), so the dim takes T's distribution with its
 * tiles mapped through the expression, as an alias the input declares
 * would. The same expression names the same dim everywhere. */
static Sym *expr_dim(Ld *L, JV v)
{
	Kernel *k = L->k;
	Sym *e = ld_get_expr(L, v, NULL);
	if (!e)
		return NULL;
	Sym *free[2];
	size_t nfree = ld_free_syms(e, free, 2);
	KSymbol *t = nfree == 1 ? kernel_symbol(k, sym_name(free[0])) : NULL;
	if (nfree != 1 || !t || t->kind == SYMK_ADDRESS_SPACE) {
		ld_err(L, v, "a dim written as an expression must use exactly one dim symbol ('%s' uses %zu)",
			json_string_value(v.v), nfree);
		return NULL;
	}
	const char *name = sym_str(k->sc, e);
	KSymbol *s = kernel_symbol(k, name);
	if (s)
		return s->sym; /* the same expression again */
	s = kernel_add_symbol(k, name, SYMK_ALIAS);
	s->value = e;
	s->resolved = kernel_subs(k, e);
	s->loc = loc_of(L, v.pos);
	Sym *src = s->sym;
	Constraint *c = kernel_add_constraint(k, CON_SYMBOLIC_ALIAS);
	c->source = src;
	c->target = free[0];
	c->expr = e;
	c->loc = loc_of(L, v.pos);
	c->path = arena_strdup(&k->arena, v.path);
	return src;
}

Sym *ld_get_dim(Ld *L, JV v)
{
	const char *name;
	if (json_is_string(v.v) && !ld_is_identifier(json_string_value(v.v)))
		return expr_dim(L, v);
	if (!ld_get_ident(L, v, &name))
		return NULL;
	KSymbol *s = kernel_symbol(L->k, name);
	if (!s || s->kind == SYMK_ADDRESS_SPACE) {
		ld_err(L, v, "symbol '%s' has neither a value nor a constraint defining it", name);
		return NULL;
	}
	return s->sym;
}

bool ld_get_shape(Ld *L, JV v, Shape *out)
{
	if (!json_is_array(v.v)) {
		wrong_type(L, v, "a list of dims");
		return false;
	}
	size_t n = json_array_size(v.v);
	if (n > 64) {
		ld_err(L, v, "more than 64 dims");
		return false;
	}
	Shape s = shape_new(L->k, (int)n);
	bool ok = true;
	for (size_t i = 0; i < n; i++) {
		JV e = jv_at(L, v, i);
		s.dims[i] = ld_get_dim(L, e);
		if (!s.dims[i]) {
			ok = false;
			continue;
		}
		for (size_t j = 0; j < i; j++)
			if (s.dims[j] == s.dims[i]) {
				ld_err(L, e, "dim '%s' appears twice", sym_name(s.dims[i]));
				ok = false;
			}
	}
	*out = s;
	return ok;
}
