/* arena.c — bump allocation in chained blocks; freed all at once.
 * Blocks double in size up to 1 MiB; oversized requests get their own block.
 * Marks allow scratch use: mark, allocate, reset. A reset keeps the blocks
 * it drops (up to ARENA_SPARE bytes) on a spare list that later blocks are
 * taken from, so a loop of mark, allocate, reset (the interpreter's trips
 * and workgroups) reuses memory whose pages are mapped and warm instead of
 * asking malloc for fresh pages the system zeroes again each time. */
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct ArenaBlock {
	ArenaBlock *prev;
	size_t size; /* usable bytes in data */
	_Alignas(16) unsigned char data[];
};

/* Under AddressSanitizer no block is kept: a use of memory after the reset
 * that dropped it stays a use after free that the sanitizer reports. */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_KEEPS_SPARES 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_KEEPS_SPARES 0
#endif
#endif
#ifndef ARENA_KEEPS_SPARES
#define ARENA_KEEPS_SPARES 1
#endif

enum { ARENA_MIN = 4096, ARENA_MAX = 1 << 20, ARENA_SPARE = ARENA_KEEPS_SPARES ? 64 << 20 : 0 };

void arena_init(Arena *a)
{
	a->head = NULL;
	a->used = 0;
	a->total = 0;
	a->spare = NULL;
	a->nspare = 0;
}

static void free_blocks(ArenaBlock *b)
{
	while (b) {
		ArenaBlock *p = b->prev;
		free(b);
		b = p;
	}
}

void arena_free(Arena *a)
{
	free_blocks(a->head);
	free_blocks(a->spare);
	arena_init(a);
}

/* a spare block of at least size bytes, unlinked, or NULL */
static ArenaBlock *take_spare(Arena *a, size_t size)
{
	for (ArenaBlock **p = &a->spare; *p; p = &(*p)->prev)
		if ((*p)->size >= size) {
			ArenaBlock *b = *p;
			*p = b->prev;
			a->nspare -= b->size;
			return b;
		}
	return NULL;
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
		ArenaBlock *b = take_spare(a, bs);
		if (!b) {
			b = xmalloc(sizeof(ArenaBlock) + bs);
			b->size = bs;
		}
		b->prev = a->head;
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
		ArenaBlock *b = a->head;
		a->head = b->prev;
		if (a->nspare + b->size <= ARENA_SPARE) {
			b->prev = a->spare;
			a->spare = b;
			a->nspare += b->size;
		} else {
			free(b);
		}
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
