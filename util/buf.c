/* buf.c — growable, NUL-terminated byte buffer for printers and file output. */
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void buf_reserve(Buf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	size_t c = b->cap ? b->cap * 2 : 64;
	while (c < b->len + extra + 1)
		c *= 2;
	b->data = xrealloc(b->data, c);
	b->cap = c;
}

void buf_putn(Buf *b, const void *p, size_t n)
{
	buf_reserve(b, n);
	if (n) /* p may be NULL then (an empty Buf's data) */
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = 0;
}

void buf_putc(Buf *b, char c)
{
	buf_putn(b, &c, 1);
}

void buf_puts(Buf *b, const char *s)
{
	buf_putn(b, s, strlen(s));
}

void buf_vprintf(Buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	if (n < 0)
		die("vsnprintf failed");
	buf_reserve(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	b->len += (size_t)n;
}

void buf_printf(Buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

static void buf_vdiag(Buf *b, Loc loc, const char *fmt, va_list ap)
{
	buf_printf(b, diag_loc_format(loc), loc.file, loc.line, loc.col);
	buf_puts(b, "error: ");
	buf_vprintf(b, fmt, ap);
	buf_putc(b, '\n');
}

void buf_diag(Buf *b, Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vdiag(b, loc, fmt, ap);
	va_end(ap);
}

void buf_error(Buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vdiag(b, (Loc){0}, fmt, ap);
	va_end(ap);
}

const char *buf_cstr(Buf *b)
{
	buf_reserve(b, 0);
	b->data[b->len] = 0;
	return b->data;
}

void buf_clear(Buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = 0;
}

void buf_free(Buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
