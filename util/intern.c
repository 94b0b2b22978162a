/* intern.c — a process-wide string table: open addressing, FNV-1a hashes.
 * Interned strings are never freed; names in every IR are interned so that
 * comparing two names is a pointer comparison. Not thread-safe. */
#include <stdlib.h>
#include <string.h>

#include "util.h"

typedef struct {
	const char *s;
	size_t n;
	uint32_t h;
} Slot;

static Slot *tab;
static size_t cap, count;
static Arena strs;

static uint32_t hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void grow(void)
{
	size_t ncap = cap ? cap * 2 : 1024;
	Slot *nt = xcalloc(ncap, sizeof(Slot));
	for (size_t i = 0; i < cap; i++) {
		if (!tab[i].s)
			continue;
		size_t j = tab[i].h & (ncap - 1);
		while (nt[j].s)
			j = (j + 1) & (ncap - 1);
		nt[j] = tab[i];
	}
	free(tab);
	tab = nt;
	cap = ncap;
}

const char *intern_n(const char *s, size_t n)
{
	if (2 * (count + 1) > cap)
		grow();
	uint32_t h = hash(s, n);
	size_t j = h & (cap - 1);
	while (tab[j].s) {
		if (tab[j].h == h && tab[j].n == n && memcmp(tab[j].s, s, n) == 0)
			return tab[j].s;
		j = (j + 1) & (cap - 1);
	}
	tab[j].s = arena_strndup(&strs, s, n);
	tab[j].n = n;
	tab[j].h = h;
	count++;
	return tab[j].s;
}

const char *intern(const char *s)
{
	return intern_n(s, strlen(s));
}
