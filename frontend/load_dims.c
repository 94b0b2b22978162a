/* load_dims.c — dims written as expressions (Wave's `Memory[M, K / 2]`).
 *
 * A dim must be a symbol: shapes are lists of dim symbols, compared by
 * identity. An expression of exactly one symbol T (`"K/2"`) therefore names
 * an implicit symbolic alias: a symbol spelled as the expression prints
 * (`K/2`), defined as the expression, with a symbolic_alias constraint
 * (source that symbol, target T), so the dim takes T's distribution with its
 * tiles mapped through the expression, as an alias the input declares
 * would. The same expression names the same dim everywhere. */
#include <string.h>

#include "load.h"

Sym *ld_expr_dim(Ld *L, JV v)
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
