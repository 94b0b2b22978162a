/* sym_simp.c — placeholder: simplification arrives in the next commit. */
#include <string.h>

#include "sym_int.h"

struct SymAssume {
	SymCtx *c;
	SymVec facts;
};

SymAssume *sym_assume_new(SymCtx *c)
{
	SymAssume *a = ARENA_NEW(&c->arena, SymAssume);
	a->c = c;
	return a;
}

int sym_assume_add(SymAssume *a, Sym *rel, const char **why)
{
	if (!(rel->flags & SF_BOOL)) {
		*why = "an assumption must be a relation";
		return -1;
	}
	Sym **d = arena_realloc(&a->c->arena, a->facts.data, a->facts.len * sizeof(Sym *), (a->facts.len + 1) * sizeof(Sym *));
	a->facts.data = d;
	d[a->facts.len++] = rel;
	return 0;
}

int sym_assume_parse(SymAssume *a, const char *text, SymParseError *err, int *line)
{
	(void)a; (void)text; (void)err; *line = 0;
	return 0;
}

Sym *sym_simplify(SymCtx *c, Sym *e, const SymAssume *a)
{
	(void)c; (void)a;
	return e;
}

SymBound sym_bounds(SymCtx *c, Sym *e, const SymAssume *a)
{
	(void)c; (void)e; (void)a;
	return (SymBound){0};
}
