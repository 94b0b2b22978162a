/* diag.c — the two error paths: located messages for bad input, die() for bugs.
 * One form for every message about bad input, whoever prints it (a Diag
 * here, a message Buf through buf_diag, the command line): "FILE:LINE:COL:
 * error: msg", with as much of the location as is known, or "wavecc: error:
 * msg" with none (diag_loc_format). */
#include <stdlib.h>

#include "util.h"

void diag_init(Diag *d)
{
	d->out = stderr;
	d->nerrors = 0;
	d->nwarnings = 0;
	d->max_errors = 50;
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

static void print_loc(FILE *out, Loc loc)
{
	fprintf(out, diag_loc_format(loc), loc.file, loc.line, loc.col);
}

void diag_verror(Diag *d, Loc loc, const char *fmt, va_list ap)
{
	d->nerrors++;
	if (d->max_errors && d->nerrors > d->max_errors)
		return;
	FILE *out = d->out ? d->out : stderr;
	print_loc(out, loc);
	fputs("error: ", out);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
	if (d->max_errors && d->nerrors == d->max_errors)
		fputs("wavecc: too many errors, the rest are not shown\n", out);
}

void diag_error(Diag *d, Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_verror(d, loc, fmt, ap);
	va_end(ap);
}

void diag_warning(Diag *d, Loc loc, const char *fmt, ...)
{
	va_list ap;
	FILE *out = d->out ? d->out : stderr;
	d->nwarnings++;
	print_loc(out, loc);
	fputs("warning: ", out);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}

void die_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	fprintf(stderr, "wavecc: internal error at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nthis is a bug in wavecc; please report it with the input\n", stderr);
	abort();
}
