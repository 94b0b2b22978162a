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
	analysis_error(c, loc, "%s is %s, not a compile-time integer (dynamic shapes are not compiled yet; "
			       "bind the symbol with -D)", what, sym_str(c->k->sc, v));
	return -1;
}
