/* index.c — reading a per-thread index (NodeIndex, analysis.h): a dim's
 * part, an element's coordinate, the printed form `wavecc dump-indices`
 * shows, and an index regrouped by a bitcast between widths. Shared by the index passes (indices.c, dynindex.c) and the stages
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

/* ix with its last dim, renamed to dim, scaled by num/den (a bitcast
 * between widths: f elements along the last dim for one, or one for f):
 * the run, its start and the copies' step; NULL where the run does not
 * split into whole groups (a start not a multiple of den, say) or the
 * thread's elements lie along another dim. */
NodeIndex *index_bitcast_scaled(Analysis *c, const NodeIndex *ix, Sym *dim, int64_t num, int64_t den)
{
	SymCtx *sc = c->k->sc;
	if (!ix || ix->ndims < 1)
		return NULL;
	int l = ix->ndims - 1;
	const DimIndex *d = &ix->d[l];
	if (ix->epc != d->size || (d->size * num) % den || (d->step * num) % den)
		return NULL;
	Sym *J = sym_symbol(sc, "$J");
	if (d->size > 1 && sym_simplify(sc, sym_sub(sc, d->coord, sym_add(sc, d->start, J)), c->assume) != sym_int(sc, 0))
		return NULL; /* the run is not consecutive */
	Sym *start = sym_simplify(sc, sym_div(sc, sym_mul(sc, d->start, sym_int(sc, num)), sym_int(sc, den)), c->assume);
	if (den > 1 && sym_simplify(sc, sym_mod(sc, d->start, sym_int(sc, den)), c->assume) != sym_int(sc, 0))
		return NULL;
	NodeIndex *r = ARENA_NEW(&c->arena, NodeIndex);
	*r = *ix;
	DimIndex *q = &r->d[l];
	q->dim = dim;
	q->size = d->size * num / den;
	q->step = d->step * num / den;
	q->start = start;
	q->coord = q->size > 1 ? sym_simplify(sc, sym_add(sc, start, J), c->assume) : start;
	q->limit = 0;
	r->epc = q->size;
	return q->size >= 1 ? r : NULL;
}
