/* intern.c — a process-wide string table: open addressing, FNV-1a hashes.
 * Interned strings are never freed; names in every IR are interned so that
 * comparing two names is a pointer comparison. Thread-safe: one mutex
 * around the table (the library compiles on several threads at once); the
 * strings themselves never move. Nothing that can die() runs under the
 * lock (allocation failures are reported after it is released), so an
 * internal error caught by the library never leaves it held. */
#include <pthread.h>
#include <stdio.h>
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
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* false when out of memory */
static bool grow(void)
{
	size_t ncap = cap ? cap * 2 : 1024;
	Slot *nt = calloc(ncap, sizeof(Slot));
	if (!nt)
		return false;
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
	return true;
}

/* The interned copy of s[0..n), or NULL when out of memory. */
static const char *lookup(const char *s, size_t n)
{
	if (2 * (count + 1) > cap && !grow())
		return NULL;
	uint32_t h = hash(s, n);
	size_t j = h & (cap - 1);
	while (tab[j].s) {
		if (tab[j].h == h && tab[j].n == n && memcmp(tab[j].s, s, n) == 0)
			return tab[j].s;
		j = (j + 1) & (cap - 1);
	}
	char *copy = malloc(n + 1);
	if (!copy)
		return NULL;
	memcpy(copy, s, n);
	copy[n] = 0;
	tab[j].s = copy;
	tab[j].n = n;
	tab[j].h = h;
	count++;
	return tab[j].s;
}

const char *intern_n(const char *s, size_t n)
{
	pthread_mutex_lock(&lock);
	const char *r = lookup(s, n);
	pthread_mutex_unlock(&lock);
	if (!r)
		die("out of memory interning a name of %zu bytes", n);
	return r;
}

const char *intern(const char *s)
{
	return intern_n(s, strlen(s));
}
