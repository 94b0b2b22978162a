/* diag.c — the two error paths: located messages for bad input, die() for
 * bugs. One form for every message about bad input, whoever prints it (a
 * Diag here, a message Buf through buf_diag, the command line):
 * "FILE:LINE:COL: error: msg", with as much of the location as is known,
 * or "wavecc: error: msg" with none (diag_loc_format).
 *
 * Messages print as they arrive ("file:line:col: error: [path: ]msg") and,
 * when the Diag has a sink, are also handed to it as data with the same
 * text. die() prints "internal error at FILE:LINE" and aborts, unless the
 * thread is inside a DieCatch (the library's calls): then it records where
 * and why in the catch and longjmps to it, so a bug in the compiler becomes
 * an error code for a library caller instead of the end of its process. */
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Formatting without Buf (buf.c sits above this file): malloc'd text; out
 * of memory is the one failure, and it aborts as xmalloc's does. */
static char *dup_vprintf(const char *fmt, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	char *s = malloc(n < 0 ? 1 : (size_t)n + 1);
	if (!s) {
		fputs("wavecc: out of memory\n", stderr);
		abort();
	}
	if (n < 0)
		s[0] = 0;
	else
		vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

static char *dup_printf(const char *fmt, ...) PRINTF_LIKE(1, 2);
static char *dup_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = dup_vprintf(fmt, ap);
	va_end(ap);
	return s;
}

void diag_init(Diag *d)
{
	*d = (Diag){.out = stderr, .max_errors = 50};
}

const char *diag_loc_format(Loc loc)
{
	if (loc.file && loc.line > 0 && loc.col > 0)
		return "%s:%d:%d: ";
	if (loc.file && loc.line > 0)
		return "%s:%d: ";
	if (loc.file)
		return "%s: ";
	return "wavecc: ";
}

/* The located prefix of a message (diag_loc_format's). */
static char *format_loc(Loc loc)
{
	/* the format takes (file, line, col) and uses a prefix of them */
	return dup_printf(diag_loc_format(loc), loc.file, loc.line, loc.col);
}

/* Print one message and hand it to the sink; consumes the pending hint. */
static void report(Diag *d, DiagSeverity sev, Loc loc, const char *path, const char *fmt, va_list ap)
{
	char *msg = dup_vprintf(fmt, ap);
	char *where = format_loc(loc);
	char *text = dup_printf("%s%s%s%s%s", where, sev == DIAG_ERROR ? "error: " : "warning: ", path ? path : "",
		path ? ": " : "", msg);
	FILE *out = d->out ? d->out : stderr;
	fputs(text, out);
	fputc('\n', out);
	/* the fix, on a line of its own, unless the message already gives it */
	if (d->hint[0] && !strstr(msg, d->hint))
		fprintf(out, "%shint: %s\n", where, d->hint);
	if (d->sink) {
		DiagInfo info = {sev, loc, path, d->hint[0] ? d->hint : NULL, msg, text};
		d->sink(d->sink_ctx, &info);
	}
	d->hint[0] = 0;
	free(msg);
	free(where);
	free(text);
}

/* Counts the error; false when it is past max_errors (not shown). */
static bool count_error(Diag *d)
{
	d->nerrors++;
	if (d->max_errors && d->nerrors > d->max_errors) {
		d->hint[0] = 0;
		return false;
	}
	return true;
}

static void after_error(Diag *d)
{
	if (d->max_errors && d->nerrors == d->max_errors)
		fputs("wavecc: too many errors, the rest are not shown\n", d->out ? d->out : stderr);
}

void diag_verror(Diag *d, Loc loc, const char *fmt, va_list ap)
{
	if (!count_error(d))
		return;
	report(d, DIAG_ERROR, loc, NULL, fmt, ap);
	after_error(d);
}

void diag_error(Diag *d, Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_verror(d, loc, fmt, ap);
	va_end(ap);
}

void diag_error_path(Diag *d, Loc loc, const char *path, const char *fmt, ...)
{
	if (!count_error(d))
		return;
	va_list ap;
	va_start(ap, fmt);
	report(d, DIAG_ERROR, loc, path && *path ? path : NULL, fmt, ap);
	va_end(ap);
	after_error(d);
}

void diag_warning(Diag *d, Loc loc, const char *fmt, ...)
{
	d->nwarnings++;
	va_list ap;
	va_start(ap, fmt);
	report(d, DIAG_WARNING, loc, NULL, fmt, ap);
	va_end(ap);
}

void diag_hint(Diag *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->hint, sizeof d->hint, fmt, ap);
	va_end(ap);
}

/* The innermost catch of this thread. */
static _Thread_local DieCatch *catch_top;

void die_catch_push(DieCatch *c)
{
	c->outer = catch_top;
	c->file = NULL;
	c->line = 0;
	c->msg[0] = 0;
	catch_top = c;
}

void die_catch_pop(DieCatch *c)
{
	if (catch_top == c)
		catch_top = c->outer;
}

void die_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	DieCatch *c = catch_top;
	if (c) {
		catch_top = c->outer; /* a die() while unwinding aborts */
		c->file = file;
		c->line = line;
		va_start(ap, fmt);
		vsnprintf(c->msg, sizeof c->msg, fmt, ap);
		va_end(ap);
		longjmp(c->jb, 1);
	}
	fflush(stdout);
	fprintf(stderr, "wavecc: internal error at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nthis is a bug in wavecc; please report it with the input\n", stderr);
	abort();
}

void die_test_point_at(const char *file, int line, const char *where)
{
	const char *at = getenv("WAVECC_INTERNAL_ERROR_AT");
	if (at && strcmp(at, where) == 0)
		die_at(file, line, "forced at %s by WAVECC_INTERNAL_ERROR_AT", where);
}
