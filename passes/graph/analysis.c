/* analysis.c — the analysis state's life cycle and its error reporting.
 *
 * analysis_init takes a view of the caller's kernel (kernel_view): the
 * passes share its graph and rebind symbols only in the view's own symbol
 * table. analysis_error reports a located diagnostic and marks the
 * analysis failed; the driver stops after the first pass that failed. */
#include <stdarg.h>

#include "analysis.h"

void analysis_init(Analysis *c, const Kernel *k, const Target *t, int ndefs, const char *const *def_name,
	const int64_t *def_val, Diag *d)
{
	*c = (Analysis){.k = kernel_view(k), .t = t, .ndefs = ndefs, .def_name = def_name, .def_val = def_val, .diag = d};
	arena_init(&c->arena);
}

void analysis_free(Analysis *c)
{
	arena_free(&c->arena);
	kernel_view_free(c->k);
	c->k = NULL;
}

void analysis_error(Analysis *c, Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_verror(c->diag, loc, fmt, ap);
	va_end(ap);
	c->failed = true;
}

int analysis_runtime_arg(const Kernel *k, const Sym *s, int *n)
{
	int pos = -1, cnt = 0;
	for (size_t j = 0; j < k->dyn_syms.len; j++) {
		const KSymbol *ks = kernel_symbol(k, sym_name(k->dyn_syms.data[j]));
		if (!ks || ks->kind != SYMK_DYNAMIC)
			continue;
		if (ks->sym == s)
			pos = cnt;
		cnt++;
	}
	if (n)
		*n = cnt;
	return pos;
}

static bool only_runtime_symbols(const Kernel *k, const Sym *e)
{
	if (sym_kind(e) == SYM_SYMBOL)
		return analysis_runtime_arg(k, e, NULL) >= 0;
	for (int i = 0; i < sym_nargs(e); i++)
		if (!only_runtime_symbols(k, sym_arg(e, i)))
			return false;
	return sym_kind(e) != SYM_ERROR;
}

Sym *analysis_runtime(Analysis *c, Sym *e)
{
	Sym *v = kernel_subs(c->k, e);
	int64_t x;
	if (sym_is_int(v, &x) || sym_is_error(v) || !only_runtime_symbols(c->k, v))
		return NULL;
	return v;
}

int64_t analysis_int(Analysis *c, Sym *e, Loc loc, const char *what)
{
	Sym *v = kernel_subs(c->k, e);
	int64_t x;
	if (sym_is_int(v, &x))
		return x;
	if (sym_is_error(v)) { /* an overflow, a division by zero: not a missing -D */
		analysis_error(c, loc, "%s (%s) cannot be evaluated: %s", what, sym_str(c->k->sc, e), sym_error_msg(v));
		return -1;
	}
	analysis_error(c, loc, "%s is %s, not a compile-time integer (a runtime size is taken only as a dim's "
			       "extent under a workgroup or tiling constraint; bind the symbol with -D)",
		what, sym_str(c->k->sc, v));
	return -1;
}

bool analysis_alias_of(Analysis *c, const Sym *dim, const Sym **base, int64_t *p, int64_t *q)
{
	KSymbol *ks = kernel_symbol(c->k, sym_name(dim));
	if (!ks || ks->kind != SYMK_ALIAS || !ks->value)
		return false;
	SymCtx *sc = c->k->sc;
	for (int i = 0; i < c->ntile + c->ndist; i++) {
		Sym *b = i < c->ntile ? c->tile[i].dim : c->dist[i - c->ntile].dim;
		if (b == dim)
			continue;
		SymRat r;
		if (!sym_is_num(sym_simplify(sc, sym_div(sc, ks->value, b), NULL), &r) || r.p <= 0)
			continue;
		*base = b;
		*p = r.p;
		*q = r.q;
		return true;
	}
	return false;
}
