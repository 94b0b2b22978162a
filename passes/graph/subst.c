/* subst.c — hyperparameter substitution: apply -D SYM=VAL to a view of the
 * kernel (kernel_view), never to the kernel as the user wrote it.
 *
 * Algorithm: each -D either binds a dynamic symbol (the kernel is then
 * specialised: the symbol stops being a kernel argument) or overrides a
 * symbol's value. Afterwards every value and alias symbol is resolved again
 * from its value as written, in dependency order (kernel_resolve_symbols:
 * linear in the definitions; the frontend rejected cycles), so `BLOCK_N =
 * Max(Min(N, 256), 64)` follows an overridden N.
 * Requires: a view of a kernel the frontend accepted. Fills: the view's
 * KSymbol.kind/value/resolved. Errors: unknown symbols, address-space symbols, aliases. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

static void resolve_all(Kernel *k)
{
	kernel_resolve_symbols(k, NULL, NULL);
	for (size_t i = 0; i < k->syms.len; i++) /* anything left lies on a cycle the frontend reported */
		if (!k->syms.data[i].resolved && k->syms.data[i].value)
			k->syms.data[i].resolved = k->syms.data[i].value;
}

int subst_bind(Kernel *v, int ndefs, const char *const *def_name, const int64_t *def_val, Diag *d)
{
	if (!v->view_of)
		die("subst_bind: %s is not a view (the caller's kernel is never rebound)", v->name);
	if (ndefs == 0)
		return 0;
	int errors = 0;
	Loc none = {v->file, 0, 0};
	for (int i = 0; i < ndefs; i++) {
		KSymbol *s = kernel_symbol(v, def_name[i]);
		if (!s) {
			diag_error(d, none, "-D %s: kernel %s has no symbol of that name", def_name[i], v->name);
			errors++;
			continue;
		}
		if (s->kind != SYMK_DYNAMIC && s->kind != SYMK_VALUE) {
			diag_error(d, s->loc, "-D %s: only dynamic symbols and symbol values can be set", s->name);
			errors++;
			continue;
		}
		s->kind = SYMK_VALUE;
		s->value = sym_int(v->sc, def_val[i]);
	}
	if (errors)
		return -1;
	resolve_all(v);
	return 0;
}

void subst_symbols(Analysis *c)
{
	if (subst_bind(c->k, c->ndefs, c->def_name, c->def_val, c->diag) != 0)
		c->failed = true;
}

const char *subst_dynamic_values(const Kernel *k, int ndefs, const char *const *def_name, const int64_t *def_val,
	int64_t *dyn)
{
	for (size_t j = 0; j < k->dyn_syms.len; j++) {
		const char *name = sym_name(k->dyn_syms.data[j]);
		int i = ndefs - 1; /* the last binding of a name wins, as in subst_bind */
		while (i >= 0 && strcmp(def_name[i], name) != 0)
			i--;
		if (i < 0)
			return name;
		if (dyn)
			dyn[j] = def_val[i];
	}
	return NULL;
}

Kernel *subst_bound_view(const Kernel *k, int ndefs, const char *const *def_name, const int64_t *def_val, Diag *d)
{
	Kernel *v = kernel_view(k);
	if (subst_bind(v, ndefs, def_name, def_val, d) != 0) {
		kernel_view_free(v);
		return NULL;
	}
	return v;
}
