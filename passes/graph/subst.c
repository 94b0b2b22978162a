/* subst.c — hyperparameter substitution: apply -D SYM=VAL to the kernel.
 *
 * Algorithm: each -D either binds a dynamic symbol (the kernel is then
 * specialised: the symbol stops being a kernel argument) or overrides a
 * symbol's value. Afterwards every value and alias symbol is resolved again
 * from its value as written, in dependency order (kernel_resolve_symbols:
 * linear in the definitions; the frontend rejected cycles), so `BLOCK_N =
 * Max(Min(N, 256), 64)` follows an overridden N.
 * Requires: a kernel the frontend accepted. Fills: KSymbol.kind/value/
 * resolved. Errors: unknown symbols, address-space symbols, aliases. */
#include <stdlib.h>
#include <string.h>

#include "../passes.h"

static void resolve_all(Kernel *k)
{
	kernel_resolve_symbols(k, NULL, NULL);
	for (size_t i = 0; i < k->syms.len; i++) /* anything left lies on a cycle the frontend reported */
		if (!k->syms.data[i].resolved && k->syms.data[i].value)
			k->syms.data[i].resolved = k->syms.data[i].value;
}

void subst_symbols(Compile *c)
{
	Kernel *k = c->k;
	if (c->opt.ndefs == 0)
		return;
	Loc none = {c->k->file, 0, 0};
	for (int i = 0; i < c->opt.ndefs; i++) {
		KSymbol *s = kernel_symbol(k, c->opt.def_name[i]);
		if (!s) {
			compile_error(c, none, "-D %s: kernel %s has no symbol of that name", c->opt.def_name[i], k->name);
			continue;
		}
		if (s->kind != SYMK_DYNAMIC && s->kind != SYMK_VALUE) {
			compile_error(c, s->loc, "-D %s: only dynamic symbols and symbol values can be set", s->name);
			continue;
		}
		s->kind = SYMK_VALUE;
		s->value = sym_int(k->sc, c->opt.def_val[i]);
	}
	if (!c->failed)
		resolve_all(k);
}
