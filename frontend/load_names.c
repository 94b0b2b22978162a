/* load_names.c — the graph loader's name table: every argument, node and
 * iterate parameter by interned name, open addressing on the name's
 * pointer (names are interned, so equal names are equal pointers). Used by
 * the walker (load_graph.c) and the op builders (load_ops.c). */
#include <stdint.h>
#include <stdlib.h>

#include "load_graph.h"

static size_t hptr(const void *p) { return ((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull; }

Ent *ld_tab_find(G *g, const char *key)
{
	if (!g->cap)
		return NULL;
	for (size_t i = hptr(key) & (g->cap - 1);; i = (i + 1) & (g->cap - 1)) {
		if (!g->tab[i].key)
			return NULL;
		if (g->tab[i].key == key)
			return &g->tab[i];
	}
}

Ent *ld_tab_add(G *g, const char *key)
{
	if (2 * (g->n + 1) > g->cap) {
		size_t ncap = g->cap ? 2 * g->cap : 64;
		Ent *nt = xcalloc(ncap, sizeof(Ent));
		for (size_t i = 0; i < g->cap; i++) {
			if (!g->tab[i].key)
				continue;
			size_t j = hptr(g->tab[i].key) & (ncap - 1);
			while (nt[j].key)
				j = (j + 1) & (ncap - 1);
			nt[j] = g->tab[i];
		}
		free(g->tab);
		g->tab = nt;
		g->cap = ncap;
	}
	size_t i = hptr(key) & (g->cap - 1);
	while (g->tab[i].key)
		i = (i + 1) & (g->cap - 1);
	g->tab[i].key = key;
	g->n++;
	return &g->tab[i];
}
