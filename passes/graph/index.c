/* index.c — reading a per-thread index (NodeIndex, analysis.h): a dim's
 * part, an element's coordinate, and the printed form `wavecc dump-indices`
 * shows. Shared by the index passes (indices.c, dynindex.c) and the stages
 * after them; calls none of them. */
#include "analysis.h"

const DimIndex *index_dim(const NodeIndex *x, const Sym *d)
{
	for (int i = 0; i < x->ndims; i++)
		if (x->d[i].dim == d)
			return &x->d[i];
	return NULL;
}

/* Copy number cn's copy index along dim i (row-major over the copies). */
static int64_t copy_along(const NodeIndex *x, int i, int64_t cn)
{
	for (int j = x->ndims - 1; j > i; j--)
		cn /= x->d[j].copies;
	return cn % x->d[i].copies;
}

Sym *index_coord(Analysis *c, const NodeIndex *x, int i, int64_t cn, int64_t j)
{
	SymCtx *sc = c->k->sc;
	const DimIndex *di = &x->d[i];
	Sym *J = sym_symbol(sc, "$J"), *jv = sym_int(sc, j);
	Sym *e = di->size > 1 ? sym_subs(sc, di->coord, 1, &J, &jv) : di->coord;
	e = sym_add(sc, e, sym_int(sc, copy_along(x, i, cn) * di->step));
	return sym_simplify(sc, e, c->assume);
}

void index_print(Buf *b, Analysis *c, const NodeIndex *x, int64_t cn)
{
	SymCtx *sc = c->k->sc;
	buf_putc(b, '{');
	for (int i = 0; i < x->ndims; i++) {
		const DimIndex *di = &x->d[i];
		Sym *s = sym_simplify(sc, sym_add(sc, di->start, sym_int(sc, copy_along(x, i, cn) * di->step)), c->assume);
		buf_printf(b, "%s%s: %s : %lld : %lld", i ? ", " : "", sym_name(di->dim), sym_str(sc, s),
			(long long)di->size, (long long)di->stride);
	}
	buf_putc(b, '}');
}
