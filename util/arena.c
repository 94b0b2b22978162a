/* arena.c — bump allocation in chained blocks; freed all at once.
 * Blocks double in size up to 1 MiB; oversized requests get their own block.
 * Marks allow scratch use: mark, allocate, reset. */
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct ArenaBlock {
	ArenaBlock *prev;
	size_t size; /* usable bytes in data */
	_Alignas(16) unsigned char data[];
};

enum { ARENA_MIN = 4096, ARENA_MAX = 1 << 20 };

void arena_init(Arena *a)
{
	a->head = NULL;
	a->used = 0;
	a->total = 0;
}

void arena_free(Arena *a)
{
	ArenaBlock *b = a->head;
	while (b) {
		ArenaBlock *p = b->prev;
		free(b);
		b = p;
	}
	arena_init(a);
}

void *arena_alloc(Arena *a, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (size == 0)
		size = 16;
	if (!a->head || a->used + size > a->head->size) {
		size_t bs = a->head ? a->head->size * 2 : ARENA_MIN;
		if (bs > ARENA_MAX)
			bs = ARENA_MAX;
		if (bs < size)
			bs = size;
		ArenaBlock *b = xmalloc(sizeof(ArenaBlock) + bs);
		b->prev = a->head;
		b->size = bs;
		a->head = b;
		a->used = 0;
	}
	void *p = a->head->data + a->used;
	a->used += size;
	a->total += size;
	memset(p, 0, size);
	return p;
}

void *arena_realloc(Arena *a, void *p, size_t old, size_t size)
{
	if (size <= old)
		return p;
	void *q = arena_alloc(a, size);
	if (p && old)
		memcpy(q, p, old);
	return q;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *arena_strdup(Arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("vsnprintf failed");
	char *p = arena_alloc(a, (size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return p;
}

ArenaMark arena_mark(Arena *a)
{
	ArenaMark m = {a->head, a->used, a->total};
	return m;
}

void arena_reset(Arena *a, ArenaMark m)
{
	while (a->head != m.head) {
		ArenaBlock *p = a->head->prev;
		free(a->head);
		a->head = p;
	}
	a->used = m.used;
	a->total = m.total;
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}
