/* load_types.c — small queries the graph loader's files share: type
 * strings for messages, shape relations, list nesting. Below load_graph.c,
 * load_ops.c and the files of the ops added later (load_control.c,
 * load_scan.c, load_bitcast.c), which all call it and which it calls back
 * into none of. */
#include <string.h>

#include "load_graph.h"

const char *ld_tstr(G *g, DType dt, Shape s)
{
	Buf b = {0};
	buf_puts(&b, dt == DT_NONE ? "?" : dtype_name(dt));
	shape_print(&b, s);
	const char *r = arena_strdup(&g->L->tmp, buf_cstr(&b));
	buf_free(&b);
	return r;
}

const char *ld_vstr(G *g, const Value *v) { return ld_tstr(g, v->dtype, v->shape); }

bool ld_subset(Shape a, Shape b)
{
	for (int i = 0; i < a.rank; i++)
		if (shape_find(b, a.dims[i]) < 0)
			return false;
	return true;
}

bool ld_same_set(Shape a, Shape b) { return a.rank == b.rank && ld_subset(a, b); }

bool ld_is_int_dtype(DType t) { return t != DT_NONE && !dtype_is_float(t); }

bool ld_list_encloses(const NList *outer, const NList *l)
{
	for (; l; l = l->parent)
		if (l == outer)
			return true;
	return false;
}

bool ld_node_follows(const Node *m, const Node *x)
{
	if (!ld_list_encloses(m->list, x->list))
		return false;
	const Node *a = x;
	while (a->list != m->list)
		a = a->list->owner;
	return a->idx > m->idx;
}
