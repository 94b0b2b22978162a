/* diag.c — the two error paths: located messages for bad input, die() for bugs. */
#include <stdlib.h>

#include "util.h"

void diag_init(Diag *d)
{
	d->out = stderr;
	d->nerrors = 0;
	d->nwarnings = 0;
	d->max_errors = 50;
}

static void print_loc(FILE *out, Loc loc)
{
	if (loc.file && loc.line > 0 && loc.col > 0)
		fprintf(out, "%s:%d:%d: ", loc.file, loc.line, loc.col);
	else if (loc.file && loc.line > 0)
		fprintf(out, "%s:%d: ", loc.file, loc.line);
	else if (loc.file)
		fprintf(out, "%s: ", loc.file);
	else
		fprintf(out, "wavecc: ");
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
